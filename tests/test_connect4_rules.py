"""Connect Four's rules (RULES.md, ``gameplay.rules.connect4``): perft against the data file's independent counts,
the bitboard rules against a plain grid written here, the notation and its refusals."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest

from gameplay.rules.base import IllegalMoveError, MoveError, PositionError, Termination
from gameplay.rules.connect4 import LINES, Connect4, cells, winning_line
from gameplay.rules.perft import perft

GAME = Connect4()
DATA = Path(__file__).parent / "data" / "connect4_perft.tsv"


def _rows() -> list[tuple[str, int, int]]:
    lines = [ln for ln in DATA.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
    reader = csv.DictReader(lines, delimiter="\t")
    return [(r["position"] or "", int(r["depth"]), int(r["nodes"])) for r in reader]


@pytest.mark.parametrize(("position", "depth", "nodes"), _rows())
def test_perft_matches_the_data_file(position: str, depth: int, nodes: int) -> None:
    state = GAME.parse_position(position)
    assert perft(GAME, state, depth) == nodes


# ----- an independent grid: a list of columns, each a list of players from the bottom -------------------------------
def grid_after(moves: str) -> list[list[int]]:
    cols: list[list[int]] = [[] for _ in range(7)]
    for i, ch in enumerate(moves):
        cols[int(ch) - 1].append(i % 2)
    return cols


def grid_winner(cols: list[list[int]]) -> int | None:
    def at(c: int, r: int) -> int | None:
        return cols[c][r] if 0 <= c < 7 and 0 <= r < len(cols[c]) else None
    for c in range(7):
        for r in range(6):
            p = at(c, r)
            if p is None:
                continue
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if all(at(c + i * dc, r + i * dr) == p for i in range(4)):
                    return p
    return None


def grid_perft(moves: str, depth: int) -> int:
    cols = grid_after(moves)
    if depth == 0:
        return 1
    if grid_winner(cols) is not None or len(moves) == 42:
        return 0
    return sum(grid_perft(moves + str(c + 1), depth - 1) for c in range(7) if len(cols[c]) < 6)


def random_line(rng: random.Random, plies: int) -> str:
    state = GAME.initial_state()
    for _ in range(plies):
        moves = GAME.actions(state)
        if not moves:
            break
        state = GAME.result(state, rng.choice(moves))
    return GAME.format_position(state)


def test_bitboards_agree_with_a_plain_grid_on_random_games() -> None:
    rng = random.Random(25)
    for _ in range(300):
        moves = random_line(rng, rng.randrange(0, 43))
        state = GAME.parse_position(moves)
        cols = grid_after(moves)
        winner = grid_winner(cols)
        out = GAME.outcome(state)
        if winner is not None:
            assert out is not None and out.winner == winner and out.termination is Termination.FOUR_IN_A_ROW
            line = winning_line(state)
            assert line is not None and line in LINES and all(cols[c][r] == winner for c, r in line)
        elif len(moves) == 42:
            assert out is not None and out.winner is None and out.termination is Termination.BOARD_FULL
        else:
            assert out is None and GAME.actions(state) == [c + 1 for c in range(7) if len(cols[c]) < 6]
        grid = cells(state)
        assert all(grid[5 - r][c] == (cols[c][r] if r < len(cols[c]) else -1) for c in range(7) for r in range(6))
        assert GAME.to_move(state) == len(moves) % 2


def test_perft_agrees_with_the_plain_grid_in_the_middle_game() -> None:
    rng = random.Random(7)
    for _ in range(12):
        moves = random_line(rng, rng.randrange(6, 34))
        state = GAME.parse_position(moves)
        for depth in (1, 2, 3):
            assert perft(GAME, state, depth) == grid_perft(moves, depth), (moves, depth)


def test_sixty_nine_lines() -> None:
    assert len(LINES) == 69 and len(set(LINES)) == 69


def test_transpositions_are_one_state_and_the_notation_round_trips() -> None:
    a, b = GAME.parse_position("4453"), GAME.parse_position("4354")
    assert a == b and hash(a) == hash(b) and GAME.format_position(a) == "4453"
    assert GAME.parse_position(" 44 53 ") == a and GAME.parse_position("") == GAME.initial_state()


@pytest.mark.parametrize(("text", "words"), [
    ("4480", "digits 1..7"), ("44444444", "column 4, which is full"), ("12121212", "after the game ended"),
    ("x", "digits 1..7")])
def test_bad_positions_are_refused(text: str, words: str) -> None:
    with pytest.raises(PositionError, match=words):
        GAME.parse_position(text)


def test_bad_moves_are_refused() -> None:
    full = GAME.parse_position("444444")
    with pytest.raises(MoveError, match="full"):
        GAME.parse_move(full, "4")
    with pytest.raises(MoveError, match="1..7"):
        GAME.parse_move(full, "8")
    with pytest.raises(IllegalMoveError, match="full"):
        GAME.result(full, 4)
    won = GAME.parse_position("1212121")
    assert GAME.actions(won) == [] and GAME.outcome(won) is not None
    with pytest.raises(IllegalMoveError, match="over"):
        GAME.result(won, 3)
