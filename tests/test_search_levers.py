"""The strength additions of the search (issue 12): late-move reductions, aspiration windows, enhanced
transposition cutoffs, the table's replacement scheme, database scores, and the agent keys that switch them.

The promise kept: with quiescence, ``lmr``, ``db`` and ``book`` off, ``alphabeta`` returns minimax's value at
equal depth whatever else is on (ordering, the table and its evictions, aspiration windows, ETC).
"""

from __future__ import annotations

import random

import pytest

from ai.agents.agent_base import AgentError
from ai.agents.agents import make_agent
from ai.checkers.checkers_bench import BENCH_POSITIONS
from ai.kernel.core import (
    DB_BOUND,
    DB_HEURISTIC,
    DB_WIN,
    HEURISTIC_BOUND,
    MATE_BOUND,
    WIN,
    classify,
    db_score,
    is_db_value,
)
from ai.kernel.recording import value_label
from ai.kernel.search import Searcher, SearchLimits, SearchOptions, iterative_deepening
from ai.kernel.tt import EXACT, TranspositionTable, TTEntry
from gameplay.rules.checkers.checkers import Checkers

GAME = Checkers()


def _positions(n: int, seed: int) -> list[str]:
    """The bench positions and ``n`` more from seeded random play (8 to 30 plies in)."""
    rng = random.Random(seed)
    out = list(BENCH_POSITIONS[:5])
    while len(out) < 5 + n:
        s = GAME.initial_state()
        for _ in range(rng.randint(8, 30)):
            moves = GAME.actions(s)
            if not moves:
                break
            s = GAME.successor(s, rng.choice(moves))
        if GAME.actions(s):
            out.append(GAME.format_position(s))
    return out


def _value(spec: str, fen: str) -> float:
    a = make_agent("checkers", spec)
    return a.choose(a.game.parse_position(fen)).value


@pytest.mark.parametrize("fen", _positions(4, seed=12))
def test_aspiration_etc_and_table_keep_minimax_value(fen: str) -> None:
    d = 4
    want = _value(f"minimax:depth={d},quiescence=off", fen)
    for extra in ("", ",aspiration=on", ",etc=on", ",aspiration=on,etc=on"):
        got = _value(f"alphabeta:depth={d},quiescence=off{extra}", fen)
        assert got == want, (extra, fen)


def test_a_table_that_evicts_keeps_minimax_value() -> None:
    # a 16-entry table fills and evicts during depth-5 searches
    evaluate = make_agent("checkers", "alphabeta").evaluate  # type: ignore[attr-defined]
    evictions = 0
    for fen in _positions(2, seed=5):
        state = GAME.parse_position(fen)
        plain = Searcher(GAME, evaluate, SearchOptions(pruning=False, ordering=False))
        want = iterative_deepening(GAME, state, plain, SearchLimits(depth=5)).value
        table = TranspositionTable(limit=16)
        s = Searcher(GAME, evaluate, SearchOptions(tt=True, etc=True, aspiration=25.0), table=table)
        assert iterative_deepening(GAME, state, s, SearchLimits(depth=5)).value == want
        assert len(table) <= 16
        evictions += table.evictions
    assert evictions > 5


def test_eviction_keeps_the_deepest_entries() -> None:
    t = TranspositionTable(limit=10)
    for i in range(10):
        t.store(i, TTEntry(i % 5, EXACT, 0.0, None, True))  # depths 0..4, twice each
    t.store("proof", TTEntry(0, EXACT, 0.0, None, False))  # full: evict first
    assert t.evictions == 1
    kept = {k: e.depth for k, e in t.entries.items()}
    assert "proof" in kept
    # half of the limit stays: the 5 deepest (depths 4, 4, 3, 3 and one of the 2s), then the new entry
    assert sorted(d for k, d in kept.items() if k != "proof") == [2, 3, 3, 4, 4]


def test_lmr_reduces_and_reports_the_nominal_depth() -> None:
    fen = BENCH_POSITIONS[0]
    a = make_agent("checkers", "alphabeta:depth=9,quiescence=on,lmr=on")
    b = make_agent("checkers", "alphabeta:depth=9,quiescence=on")
    ra, rb = (x.choose(x.game.parse_position(fen)) for x in (a, b))
    assert ra.depth == rb.depth == 9
    assert ra.extra["reductions"] > 0 and rb.extra["reductions"] == 0
    assert ra.nodes < rb.nodes / 2  # measured: about 3x fewer nodes at depth 9 over the bench positions


def test_lmr_still_finds_a_forced_win() -> None:
    # king against king, the lone White king cornered: Black wins in 9 plies (the endgame table agrees)
    fen = "B:WK7:BK1"
    for spec in ("alphabeta:depth=12,quiescence=on", "alphabeta:depth=12,quiescence=on,lmr=on"):
        a = make_agent("checkers", spec)
        r = a.choose(a.game.parse_position(fen))
        assert (r.outcome, r.plies_to_end) == ("win", 9), spec


def test_switches_off_by_default_and_parsed() -> None:
    a = make_agent("checkers", "alphabeta")
    s = a.settings.search
    assert not (s.lmr or s.aspiration or s.etc or s.db or s.book)
    b = make_agent("checkers", "alphabeta:lmr=on,aspiration=on,etc=on,db=off,book=off")
    assert b.settings.search.lmr and b.settings.search.aspiration and b.settings.search.etc
    assert "lmr=on" in b.settings.spec() and "etc=on" in b.settings.spec()
    with pytest.raises(AgentError, match="lmr must be on or off"):
        make_agent("checkers", "alphabeta:lmr=maybe")
    with pytest.raises(AgentError, match="unknown agent setting"):
        make_agent("checkers", "alphabeta:nullmove=on")


def test_database_scores_sit_between_heuristics_and_search_proofs() -> None:
    for ply in (0, 1, 40, 500):
        for h in (-1e9, -300.0, 0.0, 250.0, 1e9):
            win, loss = db_score(1, ply, h), db_score(-1, ply, h)
            assert HEURISTIC_BOUND < win < MATE_BOUND and -MATE_BOUND < loss < -HEURISTIC_BOUND
            assert win >= DB_BOUND and loss <= -DB_BOUND
            assert is_db_value(win) and is_db_value(loss)
            assert win < WIN - 10_000  # below every win the search proved, however far
            assert classify(win) == ("win", None) and classify(loss) == ("loss", None)
            assert value_label(win) == "database: win" and value_label(loss) == "database: loss"
    assert db_score(0, 3, 500.0) == 0.0
    # nearer database wins score higher; the evaluation term is bounded
    assert db_score(1, 2, 0.0) > db_score(1, 3, 0.0)
    assert db_score(1, 0, 1e9) == DB_WIN + DB_HEURISTIC


def test_the_overlay_shows_database_results() -> None:
    # five pieces: every capture leads into the 4-piece tables, whose verdicts the recorded tree shows
    from ai.teaching.decision_tree import record_decision
    from ai.teaching.narration import narration
    _, _, res, tree = record_decision("checkers", "B:W18,19,K27:B14,K1,K2", "alphabeta:depth=3,db=on,quiescence=on")
    db_nodes = [n for n in tree.nodes if n.note == "database"]
    assert db_nodes, "no database node recorded"
    assert all(value_label(n.value).startswith("database: ") for n in db_nodes)
    assert any("endgame database" in line for line in narration(tree))
    assert res.extra["db_hits"] >= len(db_nodes)


def test_the_narration_tells_late_move_reductions() -> None:
    from ai.teaching.decision_tree import record_decision
    from ai.teaching.narration import narration
    _, _, res, tree = record_decision("checkers", None, "alphabeta:depth=5,lmr=on,quiescence=on")
    reduced = [n for n in tree.nodes if n.reduced]
    assert reduced and res.extra["reductions"] >= len(reduced)
    lines = narration(tree)
    assert any("1 ply shallower than its siblings (late-move reduction" in line for line in lines)
    assert any("searched again at full depth" in line for line in lines)
    assert any("again at full depth with" in line and "reduced test failed" in line for line in lines)
    # without lmr nothing is reduced and the narration never speaks of it
    _, _, _, plain = record_decision("checkers", None, "alphabeta:depth=5,quiescence=on")
    assert not any(n.reduced for n in plain.nodes)
    assert not any("late-move" in line for line in narration(plain))


def test_the_command_line_says_book_and_database(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from gameplay.cli import run
    assert run(["analyze", "checkers", "--agent", "expert", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "from the opening book (" in out and "book games, mover's score" in out
    assert "no search" in out
    assert run(["analyze", "checkers", "--agent", "expert", "--json", "--quiet"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["book_games"] >= 1000 and obj["book_points"] / obj["book_games"] == pytest.approx(0.5, abs=0.1)
    # three pieces: the tables decide the root (a win), the search plays on to convert it (to its depth cap, 3: a
    # time budget it never reaches, so no machine is too slow for the second iteration)
    assert run(["analyze", "checkers", "--position", "B:WK27:BK14,K18", "--agent", "expert:depth=3,time=60",
                "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["outcome"] == "win" and obj["plies_to_end"] is None and obj["depth"] >= 2
    # five pieces, every capture leads into the tables: the value reads "database: win"
    assert run(["analyze", "checkers", "--position", "B:W18,19,K27:B14,K1,K2", "--agent",
                "alphabeta:depth=3,db=on", "--quiet"]) == 0
    assert "value database: win" in capsys.readouterr().out


def test_the_picture_marks_reduced_tests() -> None:
    from ai.teaching.decision_tree import record_decision
    from gameplay.pictures.tree_layout import layout
    from gameplay.pictures.tree_picture import node_notes
    _, _, _, tree = record_decision("checkers", None, "alphabeta:depth=5,lmr=on,quiescence=on")
    lay = layout(tree)
    by_id = {n.id: n for n in tree.nodes}
    marked = [it for it in lay.nodes if it.node is not None and any("LMR: 1 ply shallower" in line
                                                                    for line in node_notes(it, True, by_id))]
    assert marked and all(it.node is not None and it.node.reduced == 1 for it in marked)
    assert all(not any("LMR" in line for line in node_notes(it, True, by_id))
               for it in lay.nodes if it.node is not None and not it.node.reduced)
