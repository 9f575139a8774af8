"""Tic-tac-toe rules: game-tree counts, reachable positions, notation and errors (RULES.md)."""

from __future__ import annotations

import pytest

from gameplay.rules.base import IllegalMoveError, MoveError, PositionError
from gameplay.rules.tictactoe import TicTacToe

G = TicTacToe()


def _count_games(state: str, tally: dict[str, int]) -> None:
    out = G.outcome(state)
    if out is not None:
        key = "draw" if out.winner is None else G.player_names[out.winner]
        tally[key] += 1
        return
    for m in G.actions(state):
        _count_games(G.result(state, m), tally)


def _reachable() -> set[str]:
    seen = {G.initial_state()}
    frontier = [G.initial_state()]
    while frontier:
        s = frontier.pop()
        for m in G.actions(s):
            c = G.result(s, m)
            if c not in seen:
                seen.add(c)
                frontier.append(c)
    return seen


def test_game_counts_from_empty_board() -> None:
    tally = {"X": 0, "O": 0, "draw": 0}
    _count_games(G.initial_state(), tally)
    assert tally == {"X": 131_184, "O": 77_904, "draw": 46_080}
    assert sum(tally.values()) == 255_168


def test_reachable_positions() -> None:
    reach = _reachable()
    assert len(reach) == 5_478
    assert sum(1 for s in reach if not G.is_terminal(s)) == 4_520
    # every reachable position reads back through the notation
    for s in reach:
        assert G.parse_position(G.format_position(s)) == s


def test_side_to_move_inferred() -> None:
    assert G.to_move(".........") == 0
    assert G.to_move("X........") == 1
    assert G.to_move("XO.......") == 0


@pytest.mark.parametrize("text", ["xo-......", "XO.......", " x........ "])
def test_position_input_is_lenient(text: str) -> None:
    assert len(G.parse_position(text)) == 9


@pytest.mark.parametrize("text,why", [
    ("XOX", "9 characters"), ("XOXOXOXOXO", "9 characters"), ("XOZ......", "9 characters"),
    ("XX.......", "X has 2"), ("O........", "X has 0"),
    ("XXXOOO...", "both sides"), ("XXXOO.O..", "O moved after"), ("XX.OOOXX.", "X moved after"),
])
def test_bad_positions_are_refused(text: str, why: str) -> None:
    with pytest.raises(PositionError, match=why):
        G.parse_position(text)


def test_result_raises_on_illegal_moves_and_never_mutates() -> None:
    s = G.parse_position("X........")
    with pytest.raises(IllegalMoveError):
        G.result(s, 0)
    with pytest.raises(IllegalMoveError):
        G.result(s, 9)
    with pytest.raises(IllegalMoveError):
        G.result(G.parse_position("XXXOO...."), 5)
    assert G.result(s, 4) == "X...O...." and s == "X........"


def test_outcome_as_data() -> None:
    won = G.outcome(G.parse_position("XXXOO...."))
    assert won is not None and won.winner == 0 and won.termination == "three in a row"
    drawn = G.outcome(G.parse_position("XOXXOOOXX"))
    assert drawn is not None and drawn.winner is None and drawn.termination == "board full"
    assert G.outcome(G.initial_state()) is None
    assert G.actions(G.parse_position("XXXOO....")) == []


def test_move_notation() -> None:
    s = G.parse_position("X........")
    assert G.parse_move(s, " 4 ") == 4
    assert G.format_move(s, 4) == "4"
    for bad in ("0", "9", "x", "", "44", "-1"):
        with pytest.raises(MoveError):
            G.parse_move(s, bad)
