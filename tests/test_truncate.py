"""Material truncation (``truncate``, issue 27; Cake 1.20's truncation): the material hook of checkers, the depth
taken from lines a man or more outside the window and given back when they come inside it, and the cases where
the switch must change nothing (off, an ending root, a game without a material hook)."""

from __future__ import annotations

import pytest

from ai.agents.agent_base import AgentError
from ai.agents.agents import make_agent
from ai.checkers.checkers_bench import BENCH_POSITIONS
from ai.kernel.recording import NullRecorder
from ai.kernel.search_stats import TRUNCATE_MIN_PIECES, TRUNCATE_PLIES
from ai.kernel.tactics import MaterialGame
from ai.teaching.trace import node_at
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.checkers.checkers_board import CheckersState

GAME = Checkers()


@pytest.mark.parametrize(("fen", "want"), [
    ("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", 0.0),  # the start: level
    ("B:W21:B1,2", 1 + 2.5 * 1 / 3),                  # a man up, three men: the trade-down bonus 2.5 d / t
    ("W:W21:B1,2", -(1 + 2.5 * 1 / 3)),               # the same for White to move
    ("B:WK21:B1", -(0.3 + 2.5 * 0.3 / 2.3)),          # a king is 1.3 men
    ("W:W21,22,23:B1,2", 1 + 2.5 / 5),                # White to move, a man up
])
def test_material_is_the_side_to_moves_balance_in_men(fen: str, want: float) -> None:
    assert isinstance(GAME, MaterialGame)
    assert GAME.material(GAME.parse_position(fen)) == pytest.approx(want)


def test_the_switch_is_off_by_default_and_parsed() -> None:
    for name in ("alphabeta", "minimax"):
        assert not make_agent("checkers", name).settings.search.truncate, name
    a = make_agent("checkers", "alphabeta:truncate=on")
    assert a.search_options().truncate == 100.0  # type: ignore[attr-defined]  # a man in evaluation units
    assert "truncate=on" in a.settings.spec()
    with pytest.raises(AgentError, match="^truncate applies to alphabeta, not minimax$"):  # minimax has no window
        make_agent("checkers", "minimax:truncate=on")
    assert make_agent("checkers", "minimax:truncate=off").search_options().truncate is None  # type: ignore[attr-defined]


def _searcher(spec: str):  # type: ignore[no-untyped-def]
    return make_agent("checkers", spec).make_searcher()  # type: ignore[attr-defined]


class NodeDepthChanges(NullRecorder):
    """A recorder (``ai.kernel.core.Recorder``) that keeps the depth changes the search reports for the node it is asked
    to search (``depth_changed``: ``(plies, reason)``), not those of the nodes below it."""

    def __init__(self) -> None:
        self.changes: list[tuple[int, str]] = []
        self.level = 0

    def enter(self, state: object, move: object, alpha: float, beta: float, ply: int, *, kind: str | None = None,
              probability: float | None = None, reduced: int = 0) -> None:
        self.level += 1

    def leave(self, value: float, flag: int, alpha: float, beta: float, *, note: str = "",
              best_move: object = None) -> None:
        self.level -= 1

    def depth_changed(self, plies: int, reason: str) -> None:
        if self.level == 1:
            self.changes.append((plies, reason))


def test_plies_are_taken_outside_the_window_and_given_back_inside() -> None:
    s = _searcher("alphabeta:truncate=on,depth=9")
    s.truncating = True
    two_up = GAME.parse_position("B:W22,23,24,25,26,27,28,29,30,31:B1,2,3,4,5,6,7,8,9,10,11,12")
    level = GAME.parse_position("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")

    def node(state: CheckersState, depth: int, alpha: float, beta: float, ply: int) -> list[tuple[int, str]]:
        """The depth changes of a node searched at ``ply`` with that window; the plies taken above it are those the
        node searched last at ``ply - 1`` left taken (none at the root)."""
        s.rec = seen = NodeDepthChanges()  # the search's observer slot (ai.kernel.core.RecordedSearch)
        s.negamax(state, depth, alpha, beta, ply)
        return seen.changes

    # two men above the window: searched shallower (a leaf here), the plies taken along the path
    assert node(two_up, TRUNCATE_PLIES, -10.0, 10.0, 1) == [(-TRUNCATE_PLIES, "truncation")]
    assert s.stats.truncations == 1
    assert node(two_up, TRUNCATE_PLIES, -10.0, 10.0, 2) == [(-TRUNCATE_PLIES, "truncation")]  # still outside
    # inside again: both nodes' plies, added up on the path, are given back; none is left taken below it
    assert node(level, 1, -10.0, 10.0, 3) == [(2 * TRUNCATE_PLIES, "given back")]
    assert node(level, 1, -10.0, 10.0, 4) == []
    # two men up is within 1.1 men of a window at +1.5 men: no truncation, nothing taken
    assert node(two_up, 1, 140.0, 150.0, 1) == []
    assert node(level, 1, -10.0, 10.0, 2) == []


def _nodes(spec: str, fen: str, depth: int) -> tuple[int, int, str]:
    s = _searcher(spec)
    state = GAME.parse_position(fen)
    move, _, _ = s.search_root(state, depth)
    return s.stats.nodes, s.stats.truncations, GAME.format_move(state, move)


def test_truncation_cuts_the_tree_of_a_middle_game() -> None:
    """Over the bench positions, iterative deepening to 11 plies (``expert`` without its book) visits fewer nodes
    (measured: 114,421 without, 84,142 with); single positions at one depth may visit more (plies given back)."""
    total = {}
    for extra in ("", ",truncate=on"):
        total[extra] = 0
        for fen in BENCH_POSITIONS:
            r = make_agent("checkers", f"expert:book=off,depth=11,time=600{extra}").choose(GAME.parse_position(fen))
            total[extra] += r.nodes
    assert total[",truncate=on"] < 0.9 * total[""]
    assert _nodes("alphabeta:quiescence=on,truncate=on", BENCH_POSITIONS[2], 9)[1] > 0


@pytest.mark.parametrize("fen", ["B:W21,25,29,30:B1,2,5,9", "W:WK14,22,27,31:B1,K10,11,20"])
def test_an_ending_root_is_not_truncated(fen: str) -> None:
    """Cake's rule: with 8 pieces or fewer at the root the search needs its full depth (same tree as off)."""
    assert GAME.pieces(GAME.parse_position(fen)) <= TRUNCATE_MIN_PIECES
    assert _nodes("alphabeta:quiescence=on,db=off,truncate=on", fen, 8) == \
        _nodes("alphabeta:quiescence=on,db=off", fen, 8)


def test_a_game_without_a_material_hook_is_searched_as_without_it() -> None:
    for game in ("tictactoe", "connect4"):
        a = make_agent(game, "alphabeta:depth=5,truncate=on")
        b = make_agent(game, "alphabeta:depth=5")
        s, t = a.make_searcher(), b.make_searcher()  # type: ignore[attr-defined]
        state = a.profile.game.initial_state()
        assert s.search_root(state, 5)[:2] == t.search_root(state, 5)[:2]
        assert s.stats.nodes == t.stats.nodes and s.stats.truncations == 0


@pytest.mark.parametrize("spec", ["alphabeta:depth=7,truncate=on,quiescence=on",
                                  "alphabeta:depth=7,truncate=on,extend=on,lmr=on,quiescence=on"])
def test_the_recorded_tree_shows_every_depth_the_search_changed(spec: str) -> None:
    """What the overlay shows is what the search did: each recorded node's remaining depth, worked out from the
    picture alone (the iteration's depth, less the plies below the root, less late-move reductions, plus the depth
    changes marked on the path), is at most 0 exactly where the search evaluated a leaf."""
    from ai.teaching.decision_tree import record_decision
    seen: set[tuple[str, ...]] = set()
    for fen in BENCH_POSITIONS[:4]:
        _, _, _, tree = record_decision("checkers", fen, spec)
        assert not tree.truncated
        by_id = {n.id: n for n in tree.nodes}
        for n in tree.nodes:
            left, m = tree.depth - n.depth, n
            while m.parent is not None:
                left += m.depth_change - m.reduced
                m = node_at(by_id[m.parent], m.enter_order)  # the parent's pass that searched m (a test, a re-search)
            if n.note == "leaf":
                assert left <= 0, (fen, n.move, left)
            elif n.children:
                assert left > 0, (fen, n.move, left)
            assert bool(n.depth_change) == bool(n.depth_reasons)
            seen.add(n.depth_reasons)
    want = {("truncation",), ("given back",)} | ({("extension",)} if "extend" in spec else set())
    assert want <= seen


def test_truncation_is_told_drawn_and_exported() -> None:
    import json

    from ai.teaching.decision_tree import record_decision
    from ai.teaching.narration import narration
    from gameplay.pictures.tree_export import tree_json
    from gameplay.pictures.tree_layout import layout
    from gameplay.pictures.tree_picture import node_notes
    _, _, _, tree = record_decision("checkers", BENCH_POSITIONS[1], "alphabeta:depth=7,truncate=on,extend=on")
    cut = [n for n in tree.nodes if n.depth_reasons == ("truncation",)]
    back = [n for n in tree.nodes if n.depth_reasons == ("given back",)]
    assert cut and back and all(n.depth_change == -TRUNCATE_PLIES for n in cut)
    lines = narration(tree)
    assert any("more than 1.1 men outside the window, so it is searched 2 plies shallower (material truncation"
               in line for line in lines)
    assert any("truncated above it are given back" in line for line in lines)
    assert any("single legal move, so it is searched a ply deeper" in line for line in lines)
    by_id = {n.id: n for n in tree.nodes}
    notes = {it.node.id: node_notes(it, True, by_id) for it in layout(tree, max_children=99).nodes
             if it.node is not None}
    assert all("truncated: 2 plies shallower" in notes[n.id] for n in cut if n.id in notes)
    assert any(n.id in notes for n in cut)
    doc = json.loads(tree_json(tree))
    marked = {d["id"]: (d["depth_change"], tuple(d["depth_reasons"])) for d in doc["nodes"] if d["depth_change"]}
    assert marked == {n.id: (n.depth_change, n.depth_reasons) for n in tree.nodes if n.depth_change}
    assert "[truncated: 2 plies shallower]" in tree.text()
    # off, nothing is marked
    _, _, _, plain = record_decision("checkers", BENCH_POSITIONS[1], "alphabeta:depth=7")
    assert not any(n.depth_change for n in plain.nodes)
    assert not any("truncation" in line or "given back" in line for line in narration(plain))
