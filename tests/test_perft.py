"""The generic perft (``gameplay.rules.perft``): the chess/draughts convention by default, ``count_terminal``
for the count of games, the fast path a game declares, and the errors (issue 10)."""

from __future__ import annotations

from typing import Any

import pytest

from gameplay.rules.base import GameError, GameTraits
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.perft import perft, perft_divide
from gameplay.rules.pig import Pig
from gameplay.rules.tictactoe import TicTacToe

TTT = TicTacToe()
CHECKERS = Checkers()

# Tic-tac-toe move sequences of each length, and games that end at each ply (a standard count: 255,168 games).
TTT_EXACT = [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
TTT_ENDED = [0, 0, 0, 0, 0, 1440, 5328, 47952, 72576, 127872]


class SlowCheckers(Checkers):
    """Checkers without the declared fast perft: the generic walk counts it."""

    traits = GameTraits()


@pytest.mark.parametrize("depth", range(8))
def test_tictactoe_counts_both_conventions(depth: int) -> None:
    start = TTT.initial_state()
    assert perft(TTT, start, depth) == TTT_EXACT[depth]
    assert perft(TTT, start, depth, count_terminal=True) == TTT_EXACT[depth] + sum(TTT_ENDED[:depth])


def test_tictactoe_won_position() -> None:
    won = TTT.parse_position("XXXOO....")
    assert perft(TTT, won, 0) == 1
    assert perft(TTT, won, 2) == 0
    assert perft(TTT, won, 2, count_terminal=True) == 1
    assert perft_divide(TTT, won, 2) == {}


@pytest.mark.parametrize("fen", ["W:W21:B14,17", "W:W22,25:BK29", "B:W14,15,22,23:BK26", "B:W10:BK1,5,K32",
                                 "B:W21-32:B1-12"])
def test_generic_walk_agrees_with_the_fast_checkers_perft(fen: str) -> None:
    slow = SlowCheckers()
    s = CHECKERS.parse_position(fen)
    for depth in range(5):
        for count_terminal in (False, True):
            assert perft(slow, s, depth, count_terminal) == perft(CHECKERS, s, depth, count_terminal)
            assert perft(CHECKERS, s, depth, count_terminal) == CHECKERS.perft(s, depth, count_terminal)


def test_issue_10_example() -> None:
    lost = CHECKERS.parse_position("W:W21:B14,17")
    assert perft(CHECKERS, lost, 3) == 0
    assert perft(CHECKERS, lost, 3, count_terminal=True) == 1
    assert perft(SlowCheckers(), lost, 3) == 0


def test_divide_honours_count_terminal() -> None:
    s = CHECKERS.parse_position("W:W22,25:BK29")
    assert perft_divide(CHECKERS, s, 3) == {"22-17": 0, "22-18": 0, "25-21": 3}
    assert perft_divide(CHECKERS, s, 3, count_terminal=True) == {"22-17": 1, "22-18": 1, "25-21": 3}
    assert perft_divide(CHECKERS, s, 3) == CHECKERS.perft_divide(s, 3)
    start = TTT.initial_state()
    assert perft_divide(TTT, start, 2) == {str(i): 8 for i in range(9)}


def test_a_declared_fast_perft_is_called_with_the_convention() -> None:
    calls: list[tuple[Any, int, bool]] = []

    class Counted(TicTacToe):
        traits = GameTraits(fast_perft=True)

        def perft(self, state: Any, depth: int, count_terminal: bool = False) -> int:
            calls.append((state, depth, count_terminal))
            return 42

    g = Counted()
    assert perft(g, g.initial_state(), 5) == 42
    assert perft(g, g.initial_state(), 5, count_terminal=True) == 42
    assert calls == [(g.initial_state(), 5, False), (g.initial_state(), 5, True)]


def test_errors() -> None:
    with pytest.raises(GameError, match="perft depth must be a whole number of plies from 0 to 30"):
        perft(TTT, TTT.initial_state(), -1)
    with pytest.raises(GameError, match="depth must be >= 1"):
        perft_divide(TTT, TTT.initial_state(), 0)
    pig = Pig()
    with pytest.raises(GameError, match="chance nodes"):
        perft(pig, pig.initial_state(), 2)
