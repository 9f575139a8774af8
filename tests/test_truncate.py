"""Material truncation (``truncate``, issue 27; Cake 1.20's truncation): the material hook of checkers, the depth
taken from lines a man or more outside the window and given back when they come inside it, and the cases where
the switch must change nothing (off, an ending root, a game without a material hook)."""

from __future__ import annotations

import pytest

from ai.agents import make_agent
from ai.checkers_bench import BENCH_POSITIONS
from ai.search_stats import TRUNCATE_MIN_PIECES, TRUNCATE_PLIES
from ai.tactics import MaterialGame
from gameplay.rules.checkers import Checkers

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
        assert not make_agent("checkers", name).settings.truncate, name
    a = make_agent("checkers", "alphabeta:truncate=on")
    assert a.search_options().truncate == 100.0  # type: ignore[attr-defined]  # a man in evaluation units
    assert "truncate=on" in a.settings.spec()
    assert make_agent("checkers", "minimax:truncate=on").search_options().truncate is None  # type: ignore[attr-defined]


def _searcher(spec: str):  # type: ignore[no-untyped-def]
    return make_agent("checkers", spec).make_searcher()  # type: ignore[attr-defined]


def test_plies_are_taken_outside_the_window_and_given_back_inside() -> None:
    s = _searcher("alphabeta:truncate=on,depth=9")
    s.truncating = True
    two_up = GAME.parse_position("B:W22,23,24,25,26,27,28,29,30,31:B1,2,3,4,5,6,7,8,9,10,11,12")
    level = GAME.parse_position("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
    s._trunc[0] = 0
    assert s._truncate(two_up, 7, -10.0, 10.0, 1) == 7 - TRUNCATE_PLIES  # two men above the window: shallower
    assert s._trunc[1] == TRUNCATE_PLIES and s.stats.truncations == 1
    assert s._truncate(two_up, 4, -10.0, 10.0, 2) == 4 - TRUNCATE_PLIES  # still outside: the plies add up
    assert s._trunc[2] == 2 * TRUNCATE_PLIES
    assert s._truncate(level, 1, -10.0, 10.0, 3) == 1 + 2 * TRUNCATE_PLIES  # inside again: given back
    assert s._trunc[3] == 0
    # two men up is within 1.1 men of a window at +1.5 men: no truncation
    assert s._truncate(two_up, 7, 140.0, 150.0, 1) == 7 and s._trunc[1] == 0


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
