"""The English checkers board as data: the geometry of the 32 squares, the 35-bit "ghost square" layout the move
generator and perft work in, the Zobrist keys, and the two value types, :class:`CheckersMove` and
:class:`CheckersState` (:mod:`gameplay.rules.checkers.checkers` describes the representation and the rules).

The lowest of the checkers modules: it imports none of the others (``checkers_perft``, ``checkers_notation`` and
``checkers`` import it). Compiled with mypyc (:data:`gameplay.rules.compiled.COMPILED_MODULES`).
"""

from __future__ import annotations

import random
from typing import Any, Final

from mypy_extensions import i64

from gameplay.rules.base import (
    PositionError,
)

# ----- constants ----------------------------------------------------------------------------------------------
BLACK: Final = 0
"""Player index of Black (the first player)."""
WHITE: Final = 1
"""Player index of White."""

QUIET_PLY_LIMIT: Final = 80
"""Plies without a capture or a man move after which the game is drawn (the 40-move rule, RULES.md)."""
REPETITION_LIMIT: Final = 3
"""Occurrences of the same position (same side to move) that draw the game (threefold repetition)."""

ALL_SQUARES: Final = (1 << 32) - 1
"""Bitboard of all 32 squares (bit ``s - 1`` is square ``s``)."""
BLACK_CROWN_ROW: Final = 0xF << 28
"""Squares 29..32, where a Black man is crowned."""
WHITE_CROWN_ROW: Final = 0xF
"""Squares 1..4, where a White man is crowned."""

START_FEN: Final = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
"""The start position in PDN FEN (RULES.md)."""

# Internal 35-bit layout: square s (index i = s - 1) sits on bit i + i // 8; bits 8, 17, 26 are ghosts.
INT_OF_SQ: Final[tuple[int, ...]] = (-1,) + tuple((s - 1) + (s - 1) // 8 for s in range(1, 33))
SQ_OF_INT: Final[tuple[int, ...]] = tuple(
    next((s for s in range(1, 33) if INT_OF_SQ[s] == b), 0) for b in range(35))
VALID: Final[i64] = sum(1 << INT_OF_SQ[s] for s in range(1, 33))
ROW7: Final[i64] = 0xF << 31  # internal bits of squares 29..32
ROW0: Final[i64] = 0xF  # internal bits of squares 1..4


def to35(x: i64) -> i64:
    """A 32-bit bitboard (bit ``s - 1`` = square ``s``) in the internal 35-bit layout (ghost bits 8, 17, 26).

    Native 64-bit integers (``mypy_extensions.i64``): compiled, a handful of machine instructions (as a Python
    ``int`` each operation checks its operands' representation: 2026-12 profile, 100 instructions a call)."""
    return (x & 0xFF) | ((x & 0xFF00) << 1) | ((x & 0xFF0000) << 2) | ((x & 0xFF000000) << 3)


def _to32(x: int) -> int:
    return (x & 0xFF) | ((x >> 1) & 0xFF00) | ((x >> 2) & 0xFF0000) | ((x >> 3) & 0xFF000000)


def square_bit(square: int) -> int:
    """The one-bit bitboard of PDN square ``square`` (1..32)."""
    return 1 << (square - 1)


def squares_of(mask: int) -> list[int]:
    """The PDN squares (ascending) set in a 32-bit bitboard ``mask``."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return out


def square_to_rowcol(square: int) -> tuple[int, int]:
    """``(row, column)`` of PDN square ``square`` on the 8x8 board, row 0 = squares 1..4 (top of the diagram).

    Raises:
        PositionError: ``square`` is not in 1..32.
    """
    if not 1 <= square <= 32:
        raise PositionError(f"checkers square must be 1..32, got {square}")
    row, k = divmod(square - 1, 4)
    return row, 2 * k + (1 if row % 2 == 0 else 0)


def rowcol_to_square(row: int, col: int) -> int | None:
    """The PDN square at ``(row, col)`` (0..7 each), or ``None`` for a light square or one off the board."""
    if not (0 <= row < 8 and 0 <= col < 8) or (row + col) % 2 == 0:
        return None
    return row * 4 + col // 2 + 1


# ----- Zobrist hashing (Zobrist 1970): a fixed, seeded table of 62-bit keys ------------------------------------
_ZRNG: Final = random.Random(0x5EED_C4EC)
Z_BLACK_MAN: Final[tuple[int, ...]] = (0,) + tuple(_ZRNG.getrandbits(62) for _ in range(32))
Z_BLACK_KING: Final[tuple[int, ...]] = (0,) + tuple(_ZRNG.getrandbits(62) for _ in range(32))
Z_WHITE_MAN: Final[tuple[int, ...]] = (0,) + tuple(_ZRNG.getrandbits(62) for _ in range(32))
Z_WHITE_KING: Final[tuple[int, ...]] = (0,) + tuple(_ZRNG.getrandbits(62) for _ in range(32))
Z_WHITE_TO_MOVE: Final = _ZRNG.getrandbits(62)


def zobrist_key(black: int, white: int, kings: int, turn: int) -> int:
    """The Zobrist key (62 bits) of a position, computed from scratch (Zobrist 1970).

    Args:
        black: Black's pieces (32-bit bitboard, bit ``s - 1`` = square ``s``).
        white: White's pieces.
        kings: the kings of both sides.
        turn: side to move, 0 Black or 1 White.

    Returns:
        The XOR of one fixed random 62-bit number per (piece kind, square), and one more when White is to move
        (the table comes from ``random.Random(0x5EEDC4EC)``, so keys are the same in every process).
    """
    key = Z_WHITE_TO_MOVE if turn else 0
    for s in squares_of(black):
        key ^= Z_BLACK_KING[s] if kings >> (s - 1) & 1 else Z_BLACK_MAN[s]
    for s in squares_of(white):
        key ^= Z_WHITE_KING[s] if kings >> (s - 1) & 1 else Z_WHITE_MAN[s]
    return key


# ----- value types ----------------------------------------------------------------------------------------------
class CheckersMove:
    """One complete checkers move: a step, a single jump or a whole multi-jump.

    Two moves are equal when their paths are equal (the path fixes the captured pieces, as kings do not fly). The
    attributes are ``Final``, as :class:`CheckersState`'s: mypy (and mypyc, which compiles this module) refuse any
    assignment after ``__init__``; a plain class rather than a frozen dataclass, whose generated ``__init__`` runs as
    Python even when compiled (the search builds one per multi-jump).

    Args:
        path: PDN squares visited: the start square, then every landing square.
        captures: PDN squares of the captured pieces, in jump order (empty for a quiet move).
    """

    __slots__ = ("path", "captures", "capture_mask", "start_bit", "end_bit", "hash_value")

    def __init__(self, path: tuple[int, ...], captures: tuple[int, ...] = ()) -> None:
        self.path: Final = path
        """PDN squares visited: the start square, then every landing square (length 2 for a step or a single
        jump)."""
        self.captures: Final = captures
        """PDN squares of the captured pieces, in jump order (empty for a quiet move)."""
        mask: i64 = 0
        for s in captures:
            mask |= 1 << (s - 1)
        self.capture_mask: Final = mask
        """The captured squares as a 32-bit bitboard (derived)."""
        # shifted as ints: mypyc 1.x folds ``i64(1) << n`` into a C int shift; 0 for a square off the board (the PDN
        # reader's placeholder move has the path (0,))
        start: i64 = 1 << (path[0] - 1) if path and 1 <= path[0] <= 32 else 0
        end: i64 = 1 << (path[-1] - 1) if path and 1 <= path[-1] <= 32 else 0
        self.start_bit: Final = start
        """The start square as a 32-bit bitboard (derived; :meth:`Checkers.successor` reads it)."""
        self.end_bit: Final = end
        """The square the piece stops on as a 32-bit bitboard (derived)."""
        h = 0
        for sq in path:  # the path fixes the move: its squares as the digits of a base-33 number, distinct for
            h = h * 33 + sq  # every path of up to 12 squares and a machine word to the compiled code (below 2**61)
        self.hash_value: Final = h if h < 1 << 61 else hash(path) & ((1 << 61) - 1)
        """``hash(move)``, computed once (the search hashes and compares moves often)."""

    def __repr__(self) -> str:
        return f"CheckersMove(path={self.path!r}, captures={self.captures!r})"

    def __hash__(self) -> int:
        return self.hash_value

    def __reduce__(self) -> tuple[Any, ...]:
        return (CheckersMove, (self.path, self.captures))

    def __eq__(self, other: object) -> bool:
        # The path fixes the move (kings do not fly, so the captured pieces follow from it); comparing hashes
        # first keeps the search's move-ordering comparisons cheap.
        if self is other:
            return True
        if not isinstance(other, CheckersMove):
            return NotImplemented
        return self.hash_value == other.hash_value and self.path == other.path

    @property
    def is_capture(self) -> bool:
        """True for a jump (single or multiple)."""
        return bool(self.captures)

    @property
    def start(self) -> int:
        """The square the piece moves from."""
        return self.path[0]

    @property
    def end(self) -> int:
        """The square the piece stops on."""
        return self.path[-1]

    def __str__(self) -> str:
        return ("x" if self.captures else "-").join(map(str, self.path))


class CheckersState:
    """An immutable checkers position with the draw bookkeeping.

    Equality compares the position and the side to move only; the hash is the incrementally-updated Zobrist
    key of the same, so ``quiet`` and ``history`` never split a transposition-table entry. The attributes are
    ``Final``: mypy (and mypyc, which compiles this module) refuse any assignment after ``__init__``.

    Args:
        black: Black's pieces: 32-bit bitboard, bit ``s - 1`` set when square ``s`` holds a Black man or king.
        white: White's pieces (same layout).
        kings: the kings of both sides (a subset of ``black | white``).
        turn: side to move, 0 Black or 1 White.
        quiet: plies since the last capture or man move (the 40-move rule draws at 80).
        history: Zobrist keys of the positions since the last capture or man move, oldest first (the current
            excluded).
        key: the Zobrist key of position + side to move, or -1 to compute it.

    The bitboards and the key are native 64-bit integers (``mypy_extensions.i64``; a Python ``int`` to Python code):
    the compiled move generator, successor and evaluation read them as machine words.
    """

    __slots__ = ("black", "white", "kings", "turn", "quiet", "history", "key")

    def __init__(self, black: i64, white: i64, kings: i64, turn: int, quiet: int = 0,
                 history: tuple[int, ...] = (), key: i64 = -1) -> None:
        self.black: Final = black
        """Black's pieces: 32-bit bitboard, bit ``s - 1`` set when square ``s`` holds a Black man or king."""
        self.white: Final = white
        """White's pieces (same layout)."""
        self.kings: Final = kings
        """The kings of both sides (a subset of ``black | white``)."""
        self.turn: Final = turn
        """Side to move: 0 Black, 1 White."""
        self.quiet: Final = quiet
        """Plies since the last capture or man move (the 40-move rule draws at 80)."""
        self.history: Final = history
        """Zobrist keys of the positions since the last capture or man move, oldest first (the current
        excluded); always ``quiet`` entries long when built by moves (a parsed position starts with an empty
        history). Threefold repetition compares these keys (a false match needs a 62-bit Zobrist collision)."""
        self.key: Final[i64] = key if key >= 0 else zobrist_key(black, white, kings, turn)
        """Zobrist key (62 bits) of position + side to move; ``hash(state)``."""

    def __repr__(self) -> str:
        return (f"CheckersState(black={self.black:#x}, white={self.white:#x}, kings={self.kings:#x}, "
                f"turn={self.turn}, quiet={self.quiet}, history={self.history!r}, key={self.key})")

    def __reduce__(self) -> tuple[Any, ...]:
        return (CheckersState, (self.black, self.white, self.kings, self.turn, self.quiet, self.history, self.key))

    def __hash__(self) -> int:
        return self.key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CheckersState):
            return NotImplemented
        return (self.key == other.key and self.black == other.black and self.white == other.white
                and self.kings == other.kings and self.turn == other.turn)

    def piece_at(self, square: int) -> str | None:
        """The piece on PDN square ``square``: ``"b"`` Black man, ``"B"`` Black king, ``"w"``, ``"W"``, or None."""
        bit = 1 << (square - 1)
        if self.black & bit:
            return "B" if self.kings & bit else "b"
        if self.white & bit:
            return "W" if self.kings & bit else "w"
        return None

    @property
    def repetitions(self) -> int:
        """How many times this position (same side to move) has occurred, this time included."""
        return self.history.count(self.key) + 1
