"""``Outcome.termination`` is a :class:`Termination` member, and the words the program prints stay the same.

The command line's ``termination`` field, the window's result line and the PDN tag read ``termination_text``:
the member's words, completed by ``detail`` for Pig's target and a tree leaf's payoff."""

from __future__ import annotations

import json

import pytest

from gameplay.cli import run as cli_main
from gameplay.rules.base import Outcome, Termination
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.pig import Pig
from gameplay.rules.tictactoe import TicTacToe
from gameplay.rules.trees import ExplicitTreeGame, parse_tree

# (game, position, winner, member, the words printed)
FINISHED = [
    (TicTacToe(), "XXXOO....", 0, Termination.THREE_IN_A_ROW, "three in a row"),
    (TicTacToe(), "XOXXOOOXX", None, Termination.BOARD_FULL, "board full"),
    (Checkers(), "W:W21:B14,17", 0, Termination.NO_LEGAL_MOVE, "no legal move"),
    (Pig(), "100,40,0,2", 0, Termination.REACHED, "reached 100"),
    (Pig(target=50), "12,50,0,1", 1, Termination.REACHED, "reached 50"),
]


@pytest.mark.parametrize(("game", "position", "winner", "member", "words"), FINISHED)
def test_every_game_ends_with_a_member(game: object, position: str, winner: int | None, member: Termination,
                                       words: str) -> None:
    out = game.outcome(game.parse_position(position))  # type: ignore[attr-defined]
    assert out is not None and out.winner == winner
    assert out.termination is member
    assert out.termination_text == words


def test_checkers_draws_are_members() -> None:
    g = Checkers()
    s = g.parse_position("B:WK11:BK26,K24")
    for _ in range(2):
        for m in "24-19 11-7 19-24 7-11".split():
            s = g.result(s, g.parse_move(s, m))
    out = g.outcome(s)
    assert out is not None and out.winner is None and out.termination is Termination.THREEFOLD_REPETITION


def test_a_tree_leaf_names_its_payoff() -> None:
    game = ExplicitTreeGame(parse_tree("[3, -2.5]"))
    state = game.result(game.initial_state(), 1)
    out = game.outcome(state)
    assert out is not None and out.termination is Termination.LEAF and out.termination_text == "leaf -2.5"
    assert out.winner == 1


def test_a_member_compares_and_prints_as_its_words() -> None:
    assert Outcome(0, Termination.NO_LEGAL_MOVE) == Outcome(0, "no legal move")  # type: ignore[arg-type]
    assert f"{Termination.FORTY_MOVE_RULE}" == str(Termination.FORTY_MOVE_RULE) == "40-move rule"
    assert json.dumps({"termination": Termination.BOARD_FULL}) == '{"termination": "board full"}'


@pytest.mark.parametrize(("game", "position", "words"), [("pig", "100,40,0,2", "reached 100"),
                                                          ("tictactoe", "XXXOO....", "three in a row")])
def test_the_command_line_prints_the_same_words(capsys: pytest.CaptureFixture[str], game: str, position: str,
                                                words: str) -> None:
    assert cli_main(["moves", game, "--position", position, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["outcome"]["termination"] == words
    assert cli_main(["moves", game, "--position", position]) == 0
    assert f"({words})" in capsys.readouterr().out.splitlines()[1]
