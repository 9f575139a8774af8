"""Connect Four (RULES.md): 7 columns, 6 rows, pieces fall to the lowest free cell, four in a row wins.

The board is two bitboards, as exact solvers keep it (J. Tromp's and P. Pons's solvers; "Bitboards and Connect
Four", Pons, 2019): bit ``7 * c + r`` is column ``c`` (0 = left) and row ``r`` (0 = bottom); bit 6 of each column
is an always-empty sentinel, so the shift tests for a line of four never wrap from one column into the next.

* A **state** is a :class:`Connect4State`: the first player's stones, all stones, and the columns played so far
  (the notation). Equality and hash read the board only, so two move orders reaching one position are one
  transposition-table entry.
* A **move** is a column number 1..7 (an ``int``), as the notation writes it.
* A **position** is the sequence of columns played from the empty board (``""`` the start, ``"4453"``), the
  convention of the exact-solver literature (Pons's test sets, Tromp's database); a sequence that overfills a
  column or goes on after a win is refused.

Players: 0 moves first (Red, "X" in the solvers' text), 1 second (Yellow). Compiled with mypyc beside the other
hot modules (``gameplay/rules/compiled.py``); standard library only.
"""

from __future__ import annotations

from typing import Any, Final

from gameplay.rules.base import (
    DeterministicGame,
    GameError,
    GameTraits,
    IllegalMoveError,
    MoveError,
    Outcome,
    PositionError,
    Termination,
    quoted,
)
from gameplay.rules.bits import popcount

__all__ = ["BOARD_MASK", "COLUMNS", "Connect4", "Connect4State", "LINES", "ROWS", "bit", "cells",
           "has_four", "plies_left", "winning_line"]

COLUMNS: Final = 7
"""Columns of the board (moves 1..7, left to right)."""
ROWS: Final = 6
"""Rows of the board."""
_H1: Final = ROWS + 1
"""Bits per column: six cells and the sentinel."""
CELLS: Final = COLUMNS * ROWS
"""Cells of the board: 42, the longest game in plies."""
BOTTOM: Final = sum(1 << (_H1 * c) for c in range(COLUMNS))
"""The bottom cell of every column."""
BOARD_MASK: Final = BOTTOM * ((1 << ROWS) - 1)
"""Every cell of the board (no sentinel bit)."""
_TOP: Final = tuple(1 << (_H1 * c + ROWS - 1) for c in range(COLUMNS))
"""The top cell of each column (0-based)."""
_COLUMN_MASK: Final = tuple(((1 << ROWS) - 1) << (_H1 * c) for c in range(COLUMNS))
"""The cells of each column (0-based)."""
CENTRE_FIRST: Final = (4, 3, 5, 2, 6, 1, 7)
"""The columns from the centre outwards: the order solvers try moves in (the centre takes part in most lines)."""


def bit(column: int, row: int) -> int:
    """The bit of the cell at ``column`` 0..6 (left to right) and ``row`` 0..5 (bottom to top)."""
    return 1 << (_H1 * column + row)


def _lines() -> tuple[tuple[tuple[int, int], ...], ...]:
    found: list[tuple[tuple[int, int], ...]] = []
    for c in range(COLUMNS):
        for r in range(ROWS):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                ends = (c + 3 * dc, r + 3 * dr)
                if 0 <= ends[0] < COLUMNS and 0 <= ends[1] < ROWS:
                    found.append(tuple((c + i * dc, r + i * dr) for i in range(4)))
    return tuple(found)


LINES: Final = _lines()
"""The 69 lines of four cells (24 horizontal, 21 vertical, 24 diagonal), each as four ``(column, row)`` cells,
0-based from the bottom-left."""
LINE_MASKS: Final = tuple(sum(bit(c, r) for c, r in line) for line in LINES)
"""The 69 lines as bitboards (in the order of :data:`LINES`)."""


def has_four(stones: int) -> bool:
    """True when ``stones`` (one player's bitboard) hold four in a line: a shift per direction."""
    m = stones & (stones >> _H1)  # horizontal: the next column is 7 bits up
    if m & (m >> (2 * _H1)):
        return True
    m = stones & (stones >> (_H1 - 1))  # diagonal down-right
    if m & (m >> (2 * (_H1 - 1))):
        return True
    m = stones & (stones >> (_H1 + 1))  # diagonal up-right
    if m & (m >> (2 * (_H1 + 1))):
        return True
    m = stones & (stones >> 1)  # vertical
    return bool(m & (m >> 2))


class Connect4State:
    """An immutable Connect Four position.

    Equality and hash compare the board only (the two bitboards), never the move order that reached it. The
    attributes are ``Final``: nothing may assign them after ``__init__`` (mypy and mypyc refuse it).

    Args:
        first: the first player's stones (bitboard, bit ``7 * column + row``).
        mask: every stone on the board (a superset of ``first``).
        moves: the columns played from the start, e.g. ``"4453"`` (the notation; its length is the ply count).
    """

    __slots__ = ("first", "mask", "moves")

    def __init__(self, first: int, mask: int, moves: str) -> None:
        self.first: Final = first
        """The first player's stones."""
        self.mask: Final = mask
        """Every stone on the board."""
        self.moves: Final = moves
        """The columns played from the start ("4453"), one digit 1..7 per ply."""

    @property
    def plies(self) -> int:
        """Plies played (stones on the board)."""
        return len(self.moves)

    def stones(self, player: int) -> int:
        """The bitboard of ``player``'s stones (0 the first player)."""
        return self.first if player == 0 else self.first ^ self.mask

    def __repr__(self) -> str:
        return f"Connect4State({self.moves!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Connect4State, (self.first, self.mask, self.moves))

    def __hash__(self) -> int:
        return hash((self.first, self.mask))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Connect4State):
            return NotImplemented
        return self.first == other.first and self.mask == other.mask


START: Final = Connect4State(0, 0, "")
"""The empty board, the first player to move."""


def _play(state: Connect4State, column: int) -> Connect4State:
    """The state after dropping a piece in ``column`` 1..7 (no legality check)."""
    mask = state.mask
    new = (mask + (1 << (_H1 * (column - 1)))) & _COLUMN_MASK[column - 1]
    drop = new & ~mask
    first = state.first | drop if len(state.moves) % 2 == 0 else state.first
    return Connect4State(first, mask | drop, state.moves + str(column))


def _over(state: Connect4State) -> bool:
    """True when the last move made four in a row or filled the board."""
    n = len(state.moves)
    if n == 0:
        return False
    last = state.first if n % 2 == 1 else state.first ^ state.mask
    return n == CELLS or has_four(last)


def _count(first: int, mask: int, to_move_first: bool, depth: int, count_terminal: bool) -> int:
    """Perft on raw bitboards; the side to move's last opponent move did not end the game."""
    mine = first if to_move_first else first ^ mask
    total = 0
    for c in range(COLUMNS):
        if mask & _TOP[c]:
            continue
        if depth == 1:
            total += 1
            continue
        new = (mask + (1 << (_H1 * c))) & _COLUMN_MASK[c]
        drop = new & ~mask
        child_mask = mask | drop
        if has_four(mine | drop) or child_mask == BOARD_MASK:
            total += 1 if count_terminal else 0
            continue
        child_first = first | drop if to_move_first else first
        total += _count(child_first, child_mask, not to_move_first, depth - 1, count_terminal)
    return total


class Connect4(DeterministicGame[Connect4State, int]):
    """Connect Four as a :class:`~gameplay.rules.base.Game` (stateless; the states carry everything).

    Moves are tried centre first by the search (:meth:`order_key`, :data:`CENTRE_FIRST`), which is what makes
    alpha-beta prune here (``main.py compare connect4 --agents alphabeta:depth=8,ordering=off
    alphabeta:depth=8``).
    """

    name = "connect4"
    player_names = ("Red", "Yellow")
    traits = GameTraits(fast_perft=True, move_order=True)
    """Deterministic, two players, zero-sum, no repetitions; counts its own perft (:meth:`perft`); a static
    ordering key, centre first (:meth:`order_key`)."""

    def initial_state(self) -> Connect4State:
        """The empty board."""
        return START

    def to_move(self, state: Connect4State) -> int:
        """0 when an even number of pieces is down (the first player), else 1."""
        return len(state.moves) % 2

    def legal_moves(self, state: Connect4State) -> list[int]:
        """The moves :meth:`perft` counts, for the generic walk above its subtrees: :meth:`actions`."""
        return self.actions(state)

    def actions(self, state: Connect4State) -> list[int]:
        """The columns 1..7 that are not full, left to right; ``[]`` once the game is over."""
        if _over(state):
            return []
        mask = state.mask
        return [c + 1 for c in range(COLUMNS) if not mask & _TOP[c]]

    def successor(self, state: Connect4State, move: int) -> Connect4State:
        """The state after ``move`` (a column from :meth:`actions`; not checked)."""
        return _play(state, move)

    def result(self, state: Connect4State, move: int) -> Connect4State:
        """The state after dropping a piece in column ``move``.

        Raises:
            IllegalMoveError: not a column 1..7, the column is full, or the game is over.
        """
        if isinstance(move, bool) or not isinstance(move, int) or not 1 <= move <= COLUMNS:
            raise IllegalMoveError(f"a Connect Four move is a column 1..7, got {quoted(move)}")
        if _over(state):
            raise IllegalMoveError("the game is over")
        if state.mask & _TOP[move - 1]:
            raise IllegalMoveError(f"column {move} is full")
        return _play(state, move)

    def outcome(self, state: Connect4State) -> Outcome | None:
        """Four in a row for the player who just moved, a full board (a draw), or ``None``."""
        n = len(state.moves)
        if n == 0:
            return None
        mover = (n - 1) % 2
        if has_four(state.stones(mover)):
            return Outcome(mover, Termination.FOUR_IN_A_ROW)
        if n == CELLS:
            return Outcome(None, Termination.BOARD_FULL)
        return None

    def is_terminal(self, state: Connect4State) -> bool:
        """True after four in a row or on a full board."""
        return _over(state)

    def order_key(self, state: Connect4State | None, move: int) -> float:
        """Centre first: 0 for column 4, -1 for 3 and 5, ... -3 for 1 and 7 (never > 0: no move is "noisy" for
        quiescence). ``state`` may be ``None``."""
        return -float(abs(move - 4))

    # -- notation -------------------------------------------------------------------------------------------------
    def parse_position(self, text: str) -> Connect4State:
        """Read a position: the columns played from the empty board, digits 1..7 (``""`` the start, ``"4453"``).

        Spaces are ignored. Raises:
            PositionError: another character, a column played when full, or a move after the game ended.
        """
        t = "".join(text.split())
        state = START
        for i, ch in enumerate(t, 1):
            if ch not in "1234567":
                raise PositionError(f"a Connect Four position is the columns played, digits 1..7 (e.g. '4453'); "
                                    f"got {quoted(text)}")
            c = int(ch)
            if _over(state):
                raise PositionError(f"Connect Four position {quoted(text)}: move {i} ({c}) comes after the game "
                                    "ended")
            if state.mask & _TOP[c - 1]:
                raise PositionError(f"Connect Four position {quoted(text)}: move {i} plays in column {c}, which "
                                    "is full")
            state = _play(state, c)
        return state

    def format_position(self, state: Connect4State) -> str:
        """The columns played from the start (``""`` for the empty board)."""
        return state.moves

    def parse_move(self, state: Connect4State, text: str) -> int:
        """Read a column ``1``..``7`` and check it is legal.

        Raises:
            MoveError: not a digit 1..7, the column is full, or the game is over.
        """
        t = text.strip()
        if len(t) != 1 or t not in "1234567":
            raise MoveError(f"a Connect Four move is a column number 1..7, got {quoted(text)}")
        move = int(t)
        if _over(state):
            raise MoveError(f"the game is over at {state.moves!r}: no move is legal")
        if state.mask & _TOP[move - 1]:
            raise MoveError(f"column {move} is full")
        return move

    def format_move(self, state: Connect4State | None, move: int) -> str:
        """The column number ``"1"``..``"7"``."""
        return str(move)

    # -- perft ----------------------------------------------------------------------------------------------------
    def perft(self, state: Connect4State, depth: int, count_terminal: bool = False) -> int:
        """Positions exactly ``depth`` plies down (the field's convention: a game over before ``depth`` counts 0,
        or once with ``count_terminal``); 7, 49, 343, ... from the start. Leaves bulk-counted at the last ply.

        Raises:
            GameError: ``depth`` is negative.
        """
        if depth < 0:
            raise GameError(f"perft depth must be >= 0, got {depth}")
        if depth == 0:
            return 1
        if _over(state):
            return 1 if count_terminal else 0
        return _count(state.first, state.mask, len(state.moves) % 2 == 0, depth, count_terminal)

    # -- for the evaluation and the view ----------------------------------------------------------------------------
    def height(self, state: Connect4State, column: int) -> int:
        """Pieces in ``column`` 1..7 (the row 0..5 the next piece lands on; 6 when full)."""
        return popcount(state.mask & _COLUMN_MASK[column - 1])


def cells(state: Connect4State) -> list[list[int]]:
    """The board as rows, top row first: ``cells(s)[row][column]`` is -1 empty, 0 or 1 the player's piece."""
    grid: list[list[int]] = []
    for r in range(ROWS - 1, -1, -1):
        row: list[int] = []
        for c in range(COLUMNS):
            b = bit(c, r)
            row.append(-1 if not state.mask & b else (0 if state.first & b else 1))
        grid.append(row)
    return grid


def winning_line(state: Connect4State) -> tuple[tuple[int, int], ...] | None:
    """The cells ``(column, row)`` (0-based, row 0 the bottom) of a four in a row on the board, or ``None``.

    When the last move made several lines at once, the first in :data:`LINES` order is given.
    """
    for player in (0, 1):
        stones = state.stones(player)
        for line, m in zip(LINES, LINE_MASKS):
            if stones & m == m:
                return line
    return None


def plies_left(state: Connect4State) -> int:
    """At most how many plies the game has left: the empty cells (the growth
    measurement's bound)."""
    return CELLS - len(state.moves)
