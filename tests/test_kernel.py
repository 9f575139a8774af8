"""The search kernel gives one true answer: repetitions by the field's rule, a transposition table that keeps
path-dependent values on their path, recording that changes nothing, evaluations that never read as proofs.

Each test pins a fault of issue 10 with its right value (the position, the move, the value)."""

from __future__ import annotations

import json
import random

import pytest

from ai.agents.agent_base import AgentError
from ai.agents.agents import make_agent
from ai.checkers.checkers_bench import BENCH_POSITIONS
from ai.checkers.checkers_eval import WEIGHT_PRESETS, CheckersEvaluation
from ai.kernel.core import MATE_BOUND
from ai.kernel.evaluation import TICTACTOE_FEATURES, TICTACTOE_WEIGHTS, WeightedEvaluation
from ai.kernel.search import Searcher, SearchLimits, SearchOptions, iterative_deepening
from ai.teaching.tree_recorder import DecisionRecorder
from ai.teaching.treelab import parse_tree_agent, search_tree
from gameplay.cli import run as cli_main
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.tictactoe import TicTacToe
from gameplay.rules.trees import parse_tree

G = Checkers()
EVAL = CheckersEvaluation(WEIGHT_PRESETS["default"])


def _after(fen: str, moves: str) -> object:
    s = G.parse_position(fen)
    for m in moves.split():
        s = G.result(s, G.parse_move(s, m))
    return s


# ----- fault 1: a single earlier occurrence is not a draw ---------------------------------------------------------
REPEAT_FEN, REPEAT_MOVES = "B:WK11:BK26,K24", "24-19 11-7 19-24 7-11"


@pytest.mark.parametrize("spec", ["expert", "alphabeta:depth=9", "alphabeta:depth=9,tt=off,ordering=off", "hard"])
def test_second_occurrence_keeps_the_win(spec: str) -> None:
    state = _after(REPEAT_FEN, REPEAT_MOVES)
    assert state.repetitions == 2  # type: ignore[attr-defined]
    res = make_agent("checkers", spec).choose(state)
    assert G.format_move(state, res.move) == "24-19"
    assert res.outcome == "win" and res.plies_to_end == 7


def test_second_occurrence_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["analyze", "checkers", "--position", REPEAT_FEN, "--moves", REPEAT_MOVES,
                     "--agent", "expert", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["move"] == "24-19" and out["outcome"] == "win" and out["plies_to_end"] == 7
    # the position analysed is the one after the moves (the start position again)
    assert out["position"] == G.format_position(G.parse_position(REPEAT_FEN))


def test_repetition_inside_the_tree_is_a_draw_at_once() -> None:
    # Two kings against one: the evaluation is far from 0, but a position already on the search path scores 0.
    s = G.parse_position("B:WK32:BK1,K5")
    searcher = Searcher(G, EVAL, SearchOptions(tt=False))
    assert searcher.negamax(s, 2, float("-inf"), float("inf"), 1) != 0.0
    searcher.path.add(s)
    assert searcher.negamax(s, 2, float("-inf"), float("inf"), 1) == 0.0
    assert searcher.hit_horizon  # a draw by the search's rule, never reported as a proof


def test_third_occurrence_ends_the_game() -> None:
    state = _after(REPEAT_FEN, REPEAT_MOVES + " " + REPEAT_MOVES)
    assert G.outcome(state) is not None and G.outcome(state).termination == "threefold repetition"  # type: ignore


# ----- fault 2: the transposition table keeps path-dependent values on their path --------------------------------
def _value(state: object, depth: int, **kw: object) -> tuple[object, float]:
    searcher = Searcher(G, EVAL, SearchOptions(**kw))  # type: ignore[arg-type]
    move, value = None, 0.0
    for d in (range(1, depth + 1) if kw.get("tt") else [depth]):  # the table survives the iterations, as in play
        move, value, _ = searcher.search_root(state, d, move)
    return move, value


def test_the_reported_case() -> None:
    s = G.parse_position("W:WK14:BK1")
    mm = _value(s, 5, pruning=False, ordering=False, tt=False)
    ab = _value(s, 5, pruning=True, ordering=True, tt=True)
    assert (G.format_move(s, mm[0]), mm[1]) == ("14-9", 8.0)
    assert ab[1] == mm[1]


def _king_positions(kings_w: int, kings_b: int, sample: int | None, seed: int = 7) -> list[str]:
    out = []
    if sample is None:
        for b in range(1, 33):
            for w in range(1, 33):
                if b != w:
                    out += [f"B:WK{w}:BK{b}", f"W:WK{w}:BK{b}"]
        return out
    rng = random.Random(seed)
    for _ in range(sample):
        sq = rng.sample(range(1, 33), kings_w + kings_b)
        w = ",".join(f"K{x}" for x in sq[:kings_w])
        b = ",".join(f"K{x}" for x in sq[kings_w:])
        out.append(f"{rng.choice('BW')}:W{w}:B{b}")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("which", ["1v1-all", "2v1-sample", "1v2-sample"])
def test_minimax_and_alphabeta_agree_on_king_endings(which: str) -> None:
    fens = {"1v1-all": lambda: _king_positions(1, 1, None),
            "2v1-sample": lambda: _king_positions(2, 1, 120),
            "1v2-sample": lambda: _king_positions(1, 2, 120, seed=8)}[which]()
    depth = 5
    bad = []
    for fen in fens:
        s = G.parse_position(fen)
        if not G.actions(s):
            continue
        ref = _value(s, depth, pruning=False, ordering=False, tt=False)[1]
        for kw in ({"ordering": False, "tt": False}, {"ordering": True, "tt": False}, {"ordering": False, "tt": True},
                   {"ordering": True, "tt": True}):
            v = _value(s, depth, pruning=True, **kw)[1]
            if v != ref:
                bad.append((fen, kw, v, ref))
    assert not bad, bad[:5]


def test_history_splits_table_entries() -> None:
    a = G.parse_position("B:WK11:BK26,K24")
    b = _after("B:WK11:BK26,K24", REPEAT_MOVES)
    assert a == b and hash(a) == hash(b)  # the same position ...
    assert G.draw_context(a) != G.draw_context(b)  # ... with another history: another table entry


# ----- fault 3: recording changes nothing ------------------------------------------------------------------------
@pytest.mark.parametrize("fen", [None, BENCH_POSITIONS[3]])
def test_recording_changes_no_node(fen: str | None) -> None:
    agent = make_agent("checkers", "alphabeta:depth=7")
    s = G.initial_state() if fen is None else G.parse_position(fen)
    plain = agent.choose(s)
    rec = DecisionRecorder(G, G.to_move(s), max_nodes=15_000)
    recorded = make_agent("checkers", "alphabeta:depth=7").choose(s, recorder=rec)
    assert (recorded.move, recorded.value, recorded.depth, recorded.nodes) == \
        (plain.move, plain.value, plain.depth, plain.nodes)
    assert recorded.extra["iterations"] == plain.extra["iterations"]
    tree = rec.snapshot()
    assert tree.depth == rec.fit_iteration >= 1
    assert tree.visited == rec.iteration_nodes(tree.depth)
    assert tree.total_nodes == plain.nodes
    assert rec.total_nodes == plain.nodes


def test_principal_variation_search_stays_on_while_recording() -> None:
    rec = DecisionRecorder(G, 0)
    assert Searcher(G, EVAL, recorder=rec).setup.pvs


# ----- fault 5: the Tree Lab orders by the key it shows --------------------------------------------------------
def test_tree_lab_ordering_uses_the_static_key_only() -> None:
    res = search_tree(parse_tree("[[3,12,8],[2,4,6],[14,5,2]]"), parse_tree_agent("alphabeta:ordering=on"))
    assert res.value == 3
    # MAX tries [3,12,8] (mean 7.7), [14,5,2] (7), [2,4,6] (4); each MIN tries its lowest leaf first.
    assert list(res.leaves_visited) == [3, 8, 12, 2, 2]
    assert res.nodes == 9


# ----- fault 6: evaluations never read as proofs ----------------------------------------------------------------
def _scaled(weights: dict[str, float], c: float) -> dict[str, float]:
    return {k: v * c for k, v in weights.items()}


SCALES = [0.001, 0.01, 0.1, 10.0, 1000.0, 10_000.0]


@pytest.mark.parametrize("fen", BENCH_POSITIONS)
def test_checkers_weight_scale_changes_nothing(fen: str) -> None:
    s = G.parse_position(fen)

    def run(weights: dict[str, float]) -> tuple[object, int, str | None]:
        r = iterative_deepening(G, s, Searcher(G, CheckersEvaluation(weights), SearchOptions(tt=True, quiescence=True)),
                                SearchLimits(nodes=6000))
        return r.move, r.depth, r.outcome

    base = run(WEIGHT_PRESETS["default"])
    for c in SCALES:
        assert run(_scaled(WEIGHT_PRESETS["default"], c)) == base, c


@pytest.mark.parametrize("position", [".........", "X...O....", "XO..X...."])
def test_tictactoe_weight_scale_changes_nothing(position: str) -> None:
    t = TicTacToe()
    s = t.parse_position(position)

    def run(weights: dict[str, float]) -> tuple[object, int, str | None, float]:
        ev = WeightedEvaluation(TICTACTOE_FEATURES, weights)
        r = iterative_deepening(t, s, Searcher(t, ev, SearchOptions(tt=True)), SearchLimits(depth=3))
        return r.move, r.depth, r.outcome, r.value

    base = run(TICTACTOE_WEIGHTS["default"])
    for c in SCALES:
        got = run(_scaled(TICTACTOE_WEIGHTS["default"], c))
        assert got[:3] == base[:3], c
        assert abs(got[3] - base[3] * c) <= 1e-9 * max(1.0, abs(base[3] * c)), c


def test_huge_weights_never_prove_a_win() -> None:
    weights = dict(WEIGHT_PRESETS["default"], men=1_000_000.0)
    s = G.parse_position(BENCH_POSITIONS[1])
    searcher = Searcher(G, CheckersEvaluation(weights), SearchOptions(tt=True))
    r = iterative_deepening(G, s, searcher, SearchLimits(depth=1))
    assert r.outcome is None and abs(r.value) < MATE_BOUND


def test_out_of_range_weights_are_refused(tmp_path: object) -> None:
    import pathlib
    p = pathlib.Path(str(tmp_path)) / "huge.toml"
    p.write_text('name = "alphabeta"\n[weights]\nmen = 1e13\nkings = 150\n', encoding="utf-8")
    with pytest.raises(AgentError, match=r"evaluation weight men must be a number from -1e9 to 1e9, got 1000000000"):
        make_agent("checkers", str(p))


def test_tree_lab_leaves_above_the_old_win_score_are_numbers() -> None:
    res = search_tree(parse_tree("[[1000000,5],[990001,2000000]]"), parse_tree_agent("minimax"))
    labels = {n.label() for n in res.tree.nodes}
    assert "1000000" in labels and "990001" in labels
    assert not any("win" in lab or "loss" in lab for lab in labels)
    assert "win" not in res.tree.text()


# ----- the bench signature ---------------------------------------------------------------------------------------
def test_bench_signature_is_pinned() -> None:
    """The node count of the fixed-depth bench searches changes only when the search itself changes (Stockfish's
    ``bench``): a change here must be deliberate, with the README's figure updated."""
    from ai.checkers.checkers_bench import bench_signature
    assert bench_signature() == 12_750


def test_recorded_root_shows_the_searched_value() -> None:
    """With principal-variation re-searches below it, the root still shows the exact value the search returned."""
    agent = make_agent("checkers", "alphabeta:depth=6")
    s = G.initial_state()
    rec = DecisionRecorder(G, 0, max_nodes=15_000)
    res = agent.choose(s, recorder=rec)
    root = rec.snapshot().nodes[0]
    assert root.exact and root.value == res.value
    assert root.label() == str(int(res.value))
