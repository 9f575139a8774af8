"""A stand-in for Cake 1.20's console program (tests/test_spar.py): the same prompts, save file and boards.

It plays the first of our rules' legal moves (in notation order), prints ``EV: 0`` and the board. Environment:
``FAKE_CAKE_RESIGN_AFTER=N`` says ``you win !`` at its N-th move (as Cake does when it sees a forced loss);
``FAKE_CAKE_BAD_BOARD=N`` prints a board no legal move gives at its N-th move; ``FAKE_CAKE_SILENT=N`` hangs;
``FAKE_CAKE_MATERIAL=1`` prints as its value one of the position it is to move in, its side's view: its pieces
less the other side's (a piece = 100) plus the sum of its squares less the other side's; ``FAKE_CAKE_BOOK=1``
says ``book move`` instead of a value. ``l`` at the game prompt and ``load`` at the move prompt read the save
file.
"""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from ai.agents.profiles import game_for  # noqa: E402
from gameplay.rules.checkers.checkers_board import CheckersState  # noqa: E402
from tools.cake_engine import board_text, parse_board, state_pieces  # noqa: E402

game = game_for("checkers")


def state_of(pieces: dict[int, str], turn: int) -> CheckersState:
    black = white = kings = 0
    for sq, p in pieces.items():
        bit = 1 << (sq - 1)
        if p in "bB":
            black |= bit
        else:
            white |= bit
        if p in "BW":
            kings |= bit
    return CheckersState(black, white, kings, turn)


def fake_value(mover: int, other: int) -> int:
    """The stand-in's value with ``FAKE_CAKE_MATERIAL`` (module doc), from the bitboards of the two sides."""
    def squares(b: int) -> list[int]:
        return [i + 1 for i in range(32) if b >> i & 1]
    return 100 * (len(squares(mover)) - len(squares(other))) + sum(squares(mover)) - sum(squares(other))


def ends(move: str) -> list[str]:
    """First and last squares of a move in PDN (``11x18x25`` -> ``["11", "25"]``)."""
    parts = move.replace("x", "-").split("-")
    return [parts[0], parts[-1]]


def main() -> None:
    sys.stdout.write("\nCake - a checkers engine (fake)\n")
    state = None
    replies = 0
    env = {k: int(v) for k, v in os.environ.items() if k.startswith("FAKE_CAKE_")}
    prompt = "\nload board or play new game l/p ? "
    while True:
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line or "quit" in line:
            return
        word = line.strip()
        if word == "l" or (word == "load" and state is not None):
            text = (Path(os.environ["HOME"]) / "cakegame").read_text().splitlines()
            turn = 1 if text[1].startswith("*") else 0
            state = state_of(parse_board(text), turn)
            sys.stdout.write("\nread from file.\n" + board_text(state_pieces(state), turn == 0))
            prompt = "\nenter your move ? "
            continue
        if state is None:
            continue
        sep = "x" if "x" in word else "-"
        a, b = word.split(sep)
        mine = [m for m in game.actions(state) if ends(game.format_move(state, m)) == [a, b]]
        if not mine:
            sys.stdout.write("illegal move, try again.\n")
            continue
        state = game.result(state, mine[0])
        sys.stdout.write(board_text(state_pieces(state), state.turn == 0))
        replies += 1
        if env.get("FAKE_CAKE_SILENT") == replies:
            time.sleep(3600)
        if env.get("FAKE_CAKE_RESIGN_AFTER") == replies:
            sys.stdout.write("you win !\n")
            prompt = "\nload board or play new game l/p ? "
            continue
        mover = state.black if state.turn == 0 else state.white
        other = state.white if state.turn == 0 else state.black
        value = fake_value(mover, other) if env.get("FAKE_CAKE_MATERIAL") else 0
        moves = sorted(game.actions(state), key=lambda m: game.format_move(state, m))
        state = game.result(state, moves[0])
        pieces = state_pieces(state)
        if env.get("FAKE_CAKE_BAD_BOARD") == replies:
            pieces = {s: p for s, p in pieces.items() if s != min(pieces)}
        said = "book move\n" if env.get("FAKE_CAKE_BOOK") else f"EV: {value}\n"
        sys.stdout.write(said + board_text(pieces, state.turn == 0))
        prompt = "\nenter your move ? "


if __name__ == "__main__":
    main()
