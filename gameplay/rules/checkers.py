"""English checkers (8x8 draughts) under the ACF / WCDF rules, as fixed by RULES.md.

Rules (American Checker Federation rules, RULES.md "English checkers"): play on the 32 dark squares, numbered
1..32 in the standard PDN way; Black (player 0) has men on 1..12, moves first and moves toward 29..32; White
(player 1) has men on 21..32 and moves toward 1..4. Men step one square diagonally forward; kings one square in
any diagonal direction (no flying kings). Captures are compulsory, but the player chooses freely among them;
a capture continues with the same piece while it can jump again and must be completed; men jump forward only,
kings in all four directions; a piece is jumped at most once in a sequence (jumped pieces stay on the board,
blocking, until the move ends). A man reaching the far row is crowned and the move ends there. The side to move
with no legal move loses. Draws, declared automatically: the same position with the same side to move for the
third time (threefold repetition), or 80 consecutive plies with no capture and no man move (the 40-move rule).

Board geometry: square ``s`` (1..32) lies on row ``(s - 1) // 4`` (row 0 is Black's home row 1..4, at the top
of the standard diagram) and column ``2 * ((s - 1) % 4) + (1 if the row is even else 0)`` (column 0 at the
left). So 1 is at row 0, column 1 and 29 at row 7, column 0.

Representation:

* A **state** (:class:`CheckersState`) is immutable and hashable. Its bitboards ``black``, ``white`` and
  ``kings`` are 32-bit ints with bit ``s - 1`` standing for PDN square ``s``. Its hash is a Zobrist key
  (Zobrist 1970) of the position and side to move, updated incrementally by every move; the keys have 63
  random bits so that CPython's ``hash()`` returns the key unchanged (``hash(s) == s.key``; a 64-bit value
  would be folded modulo 2**61 - 1 by ``hash()`` when above 2**63). Equality compares
  position and side to move only (not the draw counters), so a transposition table keyed by states works and
  ``state in path`` detects a repetition.
* A **move** (:class:`CheckersMove`) is an immutable value: the full path of PDN squares (every landing square
  of a multi-jump) and the squares it captures.
* Internally the move generator works on a 35-bit "ghost square" layout (bits 8, 17 and 26 are off-board
  padding) in which every diagonal step is a shift by 4 or 5 and every jump a shift by 8 or 10, so whole sets
  of moves are found with a few shifts and masks (the layout of the classic bitboard checkers engines).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from mypy_extensions import mypyc_attr

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

# ----- constants ----------------------------------------------------------------------------------------------
BLACK = 0
"""Player index of Black (the first player)."""
WHITE = 1
"""Player index of White."""

QUIET_PLY_LIMIT = 80
"""Plies without a capture or a man move after which the game is drawn (the 40-move rule, RULES.md)."""
REPETITION_LIMIT = 3
"""Occurrences of the same position (same side to move) that draw the game (threefold repetition)."""

ALL_SQUARES = (1 << 32) - 1
"""Bitboard of all 32 squares (bit ``s - 1`` is square ``s``)."""
BLACK_CROWN_ROW = 0xF << 28
"""Squares 29..32, where a Black man is crowned."""
WHITE_CROWN_ROW = 0xF
"""Squares 1..4, where a White man is crowned."""

START_FEN = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
"""The start position in PDN FEN (RULES.md)."""

# Internal 35-bit layout: square s (index i = s - 1) sits on bit i + i // 8; bits 8, 17, 26 are ghosts.
_INT_OF_SQ: tuple[int, ...] = (-1,) + tuple((s - 1) + (s - 1) // 8 for s in range(1, 33))
_SQ_OF_INT: tuple[int, ...] = tuple(
    next((s for s in range(1, 33) if _INT_OF_SQ[s] == b), 0) for b in range(35))
_VALID = sum(1 << _INT_OF_SQ[s] for s in range(1, 33))
_ROW7 = 0xF << 31  # internal bits of squares 29..32
_ROW0 = 0xF  # internal bits of squares 1..4


def _to35(x: int) -> int:
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


# ----- Zobrist hashing (Zobrist 1970): a fixed, seeded table of 63-bit keys ------------------------------------
_ZRNG = random.Random(0x5EED_C4EC)
_Z_BLACK_MAN: tuple[int, ...] = (0,) + tuple(_ZRNG.getrandbits(63) for _ in range(32))
_Z_BLACK_KING: tuple[int, ...] = (0,) + tuple(_ZRNG.getrandbits(63) for _ in range(32))
_Z_WHITE_MAN: tuple[int, ...] = (0,) + tuple(_ZRNG.getrandbits(63) for _ in range(32))
_Z_WHITE_KING: tuple[int, ...] = (0,) + tuple(_ZRNG.getrandbits(63) for _ in range(32))
_Z_WHITE_TO_MOVE = _ZRNG.getrandbits(63)


def zobrist_key(black: int, white: int, kings: int, turn: int) -> int:
    """The Zobrist key (63 bits) of a position, computed from scratch (Zobrist 1970).

    Args:
        black: Black's pieces (32-bit bitboard, bit ``s - 1`` = square ``s``).
        white: White's pieces.
        kings: the kings of both sides.
        turn: side to move, 0 Black or 1 White.

    Returns:
        The XOR of one fixed random 63-bit number per (piece kind, square), and one more when White is to move
        (the table comes from ``random.Random(0x5EEDC4EC)``, so keys are the same in every process).
    """
    key = _Z_WHITE_TO_MOVE if turn else 0
    for s in squares_of(black):
        key ^= _Z_BLACK_KING[s] if kings >> (s - 1) & 1 else _Z_BLACK_MAN[s]
    for s in squares_of(white):
        key ^= _Z_WHITE_KING[s] if kings >> (s - 1) & 1 else _Z_WHITE_MAN[s]
    return key


# ----- value types ----------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, eq=False)
class CheckersMove:
    """One complete checkers move: a step, a single jump or a whole multi-jump.

    Two moves are equal when their paths are equal (the path fixes the captured pieces, as kings do not fly).
    """

    path: tuple[int, ...]
    """PDN squares visited: the start square, then every landing square (length 2 for a step or a single jump)."""
    captures: tuple[int, ...] = ()
    """PDN squares of the captured pieces, in jump order (empty for a quiet move)."""
    capture_mask: int = field(default=0, init=False, compare=False, repr=False)
    """The captured squares as a 32-bit bitboard (derived)."""
    _hash: int = field(default=0, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        mask = 0
        for s in self.captures:
            mask |= 1 << (s - 1)
        object.__setattr__(self, "capture_mask", mask)
        object.__setattr__(self, "_hash", hash((self.path, self.captures)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        return (CheckersMove, (self.path, self.captures))

    def __eq__(self, other: object) -> bool:
        # The path fixes the move (kings do not fly, so the captured pieces follow from it); comparing hashes
        # first keeps the search's move-ordering comparisons cheap.
        if self is other:
            return True
        if not isinstance(other, CheckersMove):
            return NotImplemented
        return self._hash == other._hash and self.path == other.path

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
    """

    __slots__ = ("black", "white", "kings", "turn", "quiet", "history", "key")

    def __init__(self, black: int, white: int, kings: int, turn: int, quiet: int = 0,
                 history: tuple[int, ...] = (), key: int = -1) -> None:
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
        history). Threefold repetition compares these keys (a false match needs a 63-bit Zobrist collision)."""
        self.key: Final = key if key >= 0 else zobrist_key(black, white, kings, turn)
        """Zobrist key (63 bits) of position + side to move; ``hash(state)``."""

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


# ----- precomputed move objects (no allocation for steps and single jumps) -------------------------------------
_SHIFTS = (-5, -4, 4, 5)  # internal-layout step of each diagonal direction, in ascending destination order


def _step_table(shift: int) -> tuple[CheckersMove | None, ...]:
    table: list[CheckersMove | None] = []
    for b in range(35):
        s = _SQ_OF_INT[b]
        t = b + shift
        if s and 0 <= t < 35 and _SQ_OF_INT[t]:
            table.append(CheckersMove((s, _SQ_OF_INT[t])))
        else:
            table.append(None)
    return tuple(table)


def _jump_table(shift: int) -> tuple[CheckersMove | None, ...]:
    table: list[CheckersMove | None] = []
    for b in range(35):
        s = _SQ_OF_INT[b]
        o, t = b + shift, b + 2 * shift
        if s and 0 <= o < 35 and 0 <= t < 35 and _SQ_OF_INT[o] and _SQ_OF_INT[t]:
            table.append(CheckersMove((s, _SQ_OF_INT[t]), (_SQ_OF_INT[o],)))
        else:
            table.append(None)
    return tuple(table)


_STEP_M5, _STEP_M4, _STEP_P4, _STEP_P5 = (_step_table(d) for d in _SHIFTS)
_JUMP: dict[int, tuple[CheckersMove | None, ...]] = {d: _jump_table(d) for d in _SHIFTS}


def _jump_sequences(pos: int, them: int, empty: int, king: bool, black: bool,
                    path: list[int], caps: list[int], out: list[CheckersMove]) -> None:
    """Append every complete jump sequence continuing from internal bit ``pos`` (game-level, builds moves).

    ``them`` holds the enemy pieces not yet jumped; ``empty`` the empty squares (captured pieces stay
    occupied until the move ends; the start square is empty).
    """
    found = False
    for d in _SHIFTS:
        if not king and ((d > 0) != black):
            continue
        o = pos << d if d > 0 else pos >> -d
        if not o & them:
            continue
        t = o << d if d > 0 else o >> -d
        if not t & empty:
            continue
        found = True
        ti = t.bit_length() - 1
        path.append(_SQ_OF_INT[ti])
        caps.append(_SQ_OF_INT[o.bit_length() - 1])
        if not king and t & (_ROW7 if black else _ROW0):
            out.append(_make_jump(path, caps))
        else:
            _jump_sequences(t, them ^ o, empty, king, black, path, caps, out)
        path.pop()
        caps.pop()
    if not found and len(path) > 1:
        out.append(_make_jump(path, caps))


def _make_jump(path: list[int], caps: list[int]) -> CheckersMove:
    if len(path) == 2:
        a, b = path
        ia, ib = _INT_OF_SQ[a], _INT_OF_SQ[b]
        m = _JUMP[(ib - ia) // 2][ia]
        if m is not None:
            return m
    return CheckersMove(tuple(path), tuple(caps))


def _generate(us: int, them: int, kings: int, black: bool) -> list[CheckersMove]:
    """All legal moves (draw rules ignored) for the side owning ``us`` (internal 35-bit bitboards).

    Order: captures (only, when any) by start square; otherwise steps by start square, then destination.
    """
    empty = _VALID & ~(us | them)
    uk = us & kings
    if black:
        jumpers = us & (((them >> 4) & (empty >> 8)) | ((them >> 5) & (empty >> 10)))
        if uk:
            jumpers |= uk & (((them << 4) & (empty << 8)) | ((them << 5) & (empty << 10)))
    else:
        jumpers = us & (((them << 4) & (empty << 8)) | ((them << 5) & (empty << 10)))
        if uk:
            jumpers |= uk & (((them >> 4) & (empty >> 8)) | ((them >> 5) & (empty >> 10)))
    out: list[CheckersMove] = []
    if jumpers:
        while jumpers:
            p = jumpers & -jumpers
            jumpers ^= p
            pi = p.bit_length() - 1
            _jump_sequences(p, them, empty | p, bool(p & kings), black, [_SQ_OF_INT[pi]], [], out)
        return out
    if black:
        f4 = us & (empty >> 4)
        f5 = us & (empty >> 5)
        b4 = uk & (empty << 4)
        b5 = uk & (empty << 5)
    else:
        b4 = us & (empty << 4)
        b5 = us & (empty << 5)
        f4 = uk & (empty >> 4)
        f5 = uk & (empty >> 5)
    movers = f4 | f5 | b4 | b5
    append = out.append
    while movers:
        p = movers & -movers
        movers ^= p
        i = p.bit_length() - 1
        if b5 & p:
            append(_STEP_M5[i])  # type: ignore[arg-type]
        if b4 & p:
            append(_STEP_M4[i])  # type: ignore[arg-type]
        if f4 & p:
            append(_STEP_P4[i])  # type: ignore[arg-type]
        if f5 & p:
            append(_STEP_P5[i])  # type: ignore[arg-type]
    return out


def _has_move(us: int, them: int, kings: int, black: bool) -> bool:
    """True when the side owning ``us`` has at least one legal move (internal 35-bit bitboards)."""
    empty = _VALID & ~(us | them)
    uk = us & kings
    if black:
        if us & ((empty >> 4) | (empty >> 5) | ((them >> 4) & (empty >> 8)) | ((them >> 5) & (empty >> 10))):
            return True
        return bool(uk & ((empty << 4) | (empty << 5) | ((them << 4) & (empty << 8))
                          | ((them << 5) & (empty << 10))))
    if us & ((empty << 4) | (empty << 5) | ((them << 4) & (empty << 8)) | ((them << 5) & (empty << 10))):
        return True
    return bool(uk & ((empty >> 4) | (empty >> 5) | ((them >> 4) & (empty >> 8)) | ((them >> 5) & (empty >> 10))))


# ----- perft: raw-int fast path ----------------------------------------------------------------------------------
# Black moves toward higher internal bits (+4, +5), White toward lower ones; a jump is two equal steps.
# ``b``, ``w``, ``k`` are internal 35-bit bitboards. Counting ignores draw rules (RULES.md).

def _jc_bman(p: int, w: int, empty: int) -> int:
    """Complete jump sequences of a Black man at ``p`` (at least 1: the sequence ending here)."""
    n = 0
    o = p << 4
    if o & w:
        t = o << 4
        if t & empty:
            n += 1 if t & _ROW7 else _jc_bman(t, w ^ o, empty)
    o = p << 5
    if o & w:
        t = o << 5
        if t & empty:
            n += 1 if t & _ROW7 else _jc_bman(t, w ^ o, empty)
    return n or 1


def _jc_wman(p: int, b: int, empty: int) -> int:
    n = 0
    o = p >> 4
    if o & b:
        t = o >> 4
        if t & empty:
            n += 1 if t & _ROW0 else _jc_wman(t, b ^ o, empty)
    o = p >> 5
    if o & b:
        t = o >> 5
        if t & empty:
            n += 1 if t & _ROW0 else _jc_wman(t, b ^ o, empty)
    return n or 1


def _jc_king(p: int, them: int, empty: int) -> int:
    n = 0
    o = p << 4
    if o & them and (o << 4) & empty:
        n += _jc_king(o << 4, them ^ o, empty)
    o = p << 5
    if o & them and (o << 5) & empty:
        n += _jc_king(o << 5, them ^ o, empty)
    o = p >> 4
    if o & them and (o >> 4) & empty:
        n += _jc_king(o >> 4, them ^ o, empty)
    o = p >> 5
    if o & them and (o >> 5) & empty:
        n += _jc_king(o >> 5, them ^ o, empty)
    return n or 1


def _js_bman(p: int, w: int, empty: int, caps: int, out: list[tuple[int, int]]) -> None:
    """Append ``(landing bit, captured mask)`` of every complete jump sequence of a Black man from ``p``."""
    found = False
    o = p << 4
    if o & w:
        t = o << 4
        if t & empty:
            found = True
            if t & _ROW7:
                out.append((t, caps | o))
            else:
                _js_bman(t, w ^ o, empty, caps | o, out)
    o = p << 5
    if o & w:
        t = o << 5
        if t & empty:
            found = True
            if t & _ROW7:
                out.append((t, caps | o))
            else:
                _js_bman(t, w ^ o, empty, caps | o, out)
    if not found:
        out.append((p, caps))


def _js_wman(p: int, b: int, empty: int, caps: int, out: list[tuple[int, int]]) -> None:
    found = False
    o = p >> 4
    if o & b:
        t = o >> 4
        if t & empty:
            found = True
            if t & _ROW0:
                out.append((t, caps | o))
            else:
                _js_wman(t, b ^ o, empty, caps | o, out)
    o = p >> 5
    if o & b:
        t = o >> 5
        if t & empty:
            found = True
            if t & _ROW0:
                out.append((t, caps | o))
            else:
                _js_wman(t, b ^ o, empty, caps | o, out)
    if not found:
        out.append((p, caps))


def _js_king(p: int, them: int, empty: int, caps: int, out: list[tuple[int, int]]) -> None:
    found = False
    o = p << 4
    if o & them and (o << 4) & empty:
        found = True
        _js_king(o << 4, them ^ o, empty, caps | o, out)
    o = p << 5
    if o & them and (o << 5) & empty:
        found = True
        _js_king(o << 5, them ^ o, empty, caps | o, out)
    o = p >> 4
    if o & them and (o >> 4) & empty:
        found = True
        _js_king(o >> 4, them ^ o, empty, caps | o, out)
    o = p >> 5
    if o & them and (o >> 5) & empty:
        found = True
        _js_king(o >> 5, them ^ o, empty, caps | o, out)
    if not found:
        out.append((p, caps))


def _perft_b(b: int, w: int, k: int, depth: int, term: int) -> int:
    """Perft with Black to move (depth >= 1); bulk-counts the moves at the last ply."""
    empty = _VALID & ~(b | w)
    bk = b & k
    jumpers = b & (((w >> 4) & (empty >> 8)) | ((w >> 5) & (empty >> 10)))
    if bk:
        jumpers |= bk & (((w << 4) & (empty << 8)) | ((w << 5) & (empty << 10)))
    if jumpers:
        if depth == 1:
            n = 0
            while jumpers:
                p = jumpers & -jumpers
                jumpers ^= p
                if p & k:
                    n += _jc_king(p, w, empty | p)
                else:
                    n += _jc_bman(p, w, empty)
            return n or term
        total = 0
        seqs: list[tuple[int, int]] = []
        while jumpers:
            p = jumpers & -jumpers
            jumpers ^= p
            seqs.clear()
            if p & k:
                _js_king(p, w, empty | p, 0, seqs)
                for t, caps in seqs:
                    total += _perft_w(b ^ p ^ t, w ^ caps, (k ^ p ^ t) & ~caps, depth - 1, term)
            else:
                _js_bman(p, w, empty, 0, seqs)
                for t, caps in seqs:
                    nk = k & ~caps
                    if t & _ROW7:
                        nk |= t
                    total += _perft_w(b ^ p ^ t, w ^ caps, nk, depth - 1, term)
        return total or term
    d4 = empty & (b << 4)
    d5 = empty & (b << 5)
    if bk:
        u4 = empty & (bk >> 4)
        u5 = empty & (bk >> 5)
    else:
        u4 = u5 = 0
    if depth == 1:
        return (d4.bit_count() + d5.bit_count() + u4.bit_count() + u5.bit_count()) or term
    d1 = depth - 1
    total = 0
    if depth == 2:
        count = _count_w
        while d4:
            t = d4 & -d4
            d4 ^= t
            s = t >> 4
            m = s | t
            if s & k:
                total += count(b ^ m, w, k ^ m) or term
            elif t & _ROW7:
                total += count(b ^ m, w, k | t) or term
            else:
                total += count(b ^ m, w, k) or term
        while d5:
            t = d5 & -d5
            d5 ^= t
            s = t >> 5
            m = s | t
            if s & k:
                total += count(b ^ m, w, k ^ m) or term
            elif t & _ROW7:
                total += count(b ^ m, w, k | t) or term
            else:
                total += count(b ^ m, w, k) or term
        while u4:
            t = u4 & -u4
            u4 ^= t
            m = t | (t << 4)
            total += count(b ^ m, w, k ^ m) or term
        while u5:
            t = u5 & -u5
            u5 ^= t
            m = t | (t << 5)
            total += count(b ^ m, w, k ^ m) or term
        return total or term
    rec = _perft_w
    while d4:
        t = d4 & -d4
        d4 ^= t
        s = t >> 4
        m = s | t
        if s & k:
            total += rec(b ^ m, w, k ^ m, d1, term)
        elif t & _ROW7:
            total += rec(b ^ m, w, k | t, d1, term)
        else:
            total += rec(b ^ m, w, k, d1, term)
    while d5:
        t = d5 & -d5
        d5 ^= t
        s = t >> 5
        m = s | t
        if s & k:
            total += rec(b ^ m, w, k ^ m, d1, term)
        elif t & _ROW7:
            total += rec(b ^ m, w, k | t, d1, term)
        else:
            total += rec(b ^ m, w, k, d1, term)
    while u4:
        t = u4 & -u4
        u4 ^= t
        m = t | (t << 4)
        total += rec(b ^ m, w, k ^ m, d1, term)
    while u5:
        t = u5 & -u5
        u5 ^= t
        m = t | (t << 5)
        total += rec(b ^ m, w, k ^ m, d1, term)
    return total or term


def _perft_w(b: int, w: int, k: int, depth: int, term: int) -> int:
    """Perft with White to move (depth >= 1); the mirror image of :func:`_perft_b`."""
    empty = _VALID & ~(b | w)
    wk = w & k
    jumpers = w & (((b << 4) & (empty << 8)) | ((b << 5) & (empty << 10)))
    if wk:
        jumpers |= wk & (((b >> 4) & (empty >> 8)) | ((b >> 5) & (empty >> 10)))
    if jumpers:
        if depth == 1:
            n = 0
            while jumpers:
                p = jumpers & -jumpers
                jumpers ^= p
                if p & k:
                    n += _jc_king(p, b, empty | p)
                else:
                    n += _jc_wman(p, b, empty)
            return n or term
        total = 0
        seqs: list[tuple[int, int]] = []
        while jumpers:
            p = jumpers & -jumpers
            jumpers ^= p
            seqs.clear()
            if p & k:
                _js_king(p, b, empty | p, 0, seqs)
                for t, caps in seqs:
                    total += _perft_b(b ^ caps, w ^ p ^ t, (k ^ p ^ t) & ~caps, depth - 1, term)
            else:
                _js_wman(p, b, empty, 0, seqs)
                for t, caps in seqs:
                    nk = k & ~caps
                    if t & _ROW0:
                        nk |= t
                    total += _perft_b(b ^ caps, w ^ p ^ t, nk, depth - 1, term)
        return total or term
    d4 = empty & (w >> 4)
    d5 = empty & (w >> 5)
    if wk:
        u4 = empty & (wk << 4)
        u5 = empty & (wk << 5)
    else:
        u4 = u5 = 0
    if depth == 1:
        return (d4.bit_count() + d5.bit_count() + u4.bit_count() + u5.bit_count()) or term
    d1 = depth - 1
    total = 0
    if depth == 2:
        count = _count_b
        while d4:
            t = d4 & -d4
            d4 ^= t
            s = t << 4
            m = s | t
            if s & k:
                total += count(b, w ^ m, k ^ m) or term
            elif t & _ROW0:
                total += count(b, w ^ m, k | t) or term
            else:
                total += count(b, w ^ m, k) or term
        while d5:
            t = d5 & -d5
            d5 ^= t
            s = t << 5
            m = s | t
            if s & k:
                total += count(b, w ^ m, k ^ m) or term
            elif t & _ROW0:
                total += count(b, w ^ m, k | t) or term
            else:
                total += count(b, w ^ m, k) or term
        while u4:
            t = u4 & -u4
            u4 ^= t
            m = t | (t >> 4)
            total += count(b, w ^ m, k ^ m) or term
        while u5:
            t = u5 & -u5
            u5 ^= t
            m = t | (t >> 5)
            total += count(b, w ^ m, k ^ m) or term
        return total or term
    rec = _perft_b
    while d4:
        t = d4 & -d4
        d4 ^= t
        s = t << 4
        m = s | t
        if s & k:
            total += rec(b, w ^ m, k ^ m, d1, term)
        elif t & _ROW0:
            total += rec(b, w ^ m, k | t, d1, term)
        else:
            total += rec(b, w ^ m, k, d1, term)
    while d5:
        t = d5 & -d5
        d5 ^= t
        s = t << 5
        m = s | t
        if s & k:
            total += rec(b, w ^ m, k ^ m, d1, term)
        elif t & _ROW0:
            total += rec(b, w ^ m, k | t, d1, term)
        else:
            total += rec(b, w ^ m, k, d1, term)
    while u4:
        t = u4 & -u4
        u4 ^= t
        m = t | (t >> 4)
        total += rec(b, w ^ m, k ^ m, d1, term)
    while u5:
        t = u5 & -u5
        u5 ^= t
        m = t | (t >> 5)
        total += rec(b, w ^ m, k ^ m, d1, term)
    return total or term


def _count_b(b: int, w: int, k: int) -> int:
    """Number of legal moves for Black (a whole jump sequence counts once): perft(1), inlined for speed."""
    empty = _VALID & ~(b | w)
    bk = b & k
    jumpers = b & (((w >> 4) & (empty >> 8)) | ((w >> 5) & (empty >> 10)))
    if bk:
        jumpers |= bk & (((w << 4) & (empty << 8)) | ((w << 5) & (empty << 10)))
        if not jumpers:
            return ((empty & (b << 4)).bit_count() + (empty & (b << 5)).bit_count()
                    + (empty & (bk >> 4)).bit_count() + (empty & (bk >> 5)).bit_count())
    elif not jumpers:
        return (empty & (b << 4)).bit_count() + (empty & (b << 5)).bit_count()
    n = 0
    while jumpers:
        p = jumpers & -jumpers
        jumpers ^= p
        if p & k:
            n += _jc_king(p, w, empty | p)
        else:
            n += _jc_bman(p, w, empty)
    return n


def _count_w(b: int, w: int, k: int) -> int:
    """Number of legal moves for White: perft(1), inlined for speed."""
    empty = _VALID & ~(b | w)
    wk = w & k
    jumpers = w & (((b << 4) & (empty << 8)) | ((b << 5) & (empty << 10)))
    if wk:
        jumpers |= wk & (((b >> 4) & (empty >> 8)) | ((b >> 5) & (empty >> 10)))
        if not jumpers:
            return ((empty & (w >> 4)).bit_count() + (empty & (w >> 5)).bit_count()
                    + (empty & (wk << 4)).bit_count() + (empty & (wk << 5)).bit_count())
    elif not jumpers:
        return (empty & (w >> 4)).bit_count() + (empty & (w >> 5)).bit_count()
    n = 0
    while jumpers:
        p = jumpers & -jumpers
        jumpers ^= p
        if p & k:
            n += _jc_king(p, b, empty | p)
        else:
            n += _jc_wman(p, b, empty)
    return n


def count_moves(state: CheckersState, player: int) -> int:
    """Number of legal moves ``player`` would have in ``state``'s position, whoever is to move (mobility).

    Uses the movement rules only (draw rules ignored); a whole jump sequence counts once and, captures being
    compulsory, only captures count when one exists. Runs on raw ints (no move objects are built).

    Args:
        state: the position.
        player: 0 Black or 1 White.

    Returns:
        The move count (0 when ``player`` is blocked or has no pieces).
    """
    b, w, k = _to35(state.black), _to35(state.white), _to35(state.kings)
    return _count_b(b, w, k) if player == BLACK else _count_w(b, w, k)


# ----- notation helpers --------------------------------------------------------------------------------------------
_FEN_HINT = ("expected a PDN FEN like 'B:W21-32:B1-12' (side to move B or W, then ':W' and ':B' square lists, "
             "squares 1..32, 'K' before a king, ranges 'a-b' allowed)")
_MOVE_RE = re.compile(r"^\s*(\d{1,2})((?:\s*[-xX:]\s*\d{1,2})+)\s*$")
_MOVE_HINT = "expected a move like 11-15, 22x15 or 7x16x23x32 (PDN squares 1..32)"


def format_move_text(move: CheckersMove) -> str:
    """The full PDN text of ``move``: ``11-15`` for a step, ``7x16x23x32`` for a jump (every landing square)."""
    return ("x" if move.captures else "-").join(map(str, move.path))


def parse_move_squares(text: str) -> tuple[int, ...]:
    """The squares named by a move string (``11-15``, ``22x15``, ``7x16x23x32``, ``7x32``), unchecked.

    Raises:
        MoveError: the text is not squares 1..32 joined by ``-`` or ``x``.
    """
    m = _MOVE_RE.match(text)
    if m is None:
        raise MoveError(f"{_MOVE_HINT}, got {quoted(text)}")
    squares = (int(m.group(1)),) + tuple(int(x) for x in re.findall(r"\d+", m.group(2)))
    bad = [s for s in squares if not 1 <= s <= 32]
    if bad:
        raise MoveError(f"{_MOVE_HINT}; square {bad[0]} is off the board in {quoted(text)}")
    return squares


def match_move(moves: Sequence[CheckersMove], text: str) -> CheckersMove:
    """The move of ``moves`` that ``text`` names: its full path, or a shortened path naming the first and last
    squares (and possibly some landing squares between, in order), when exactly one move fits.

    Raises:
        MoveError: malformed text, no move fits (the message lists the legal moves), or several fit (it lists
            them).
    """
    squares = parse_move_squares(text)
    if len(squares) < 2:
        raise MoveError(f"{_MOVE_HINT}, got {quoted(text)}")
    for mv in moves:
        if mv.path == squares:
            return mv
    fits = [mv for mv in moves if mv.path[0] == squares[0] and mv.path[-1] == squares[-1]
            and _is_subsequence(squares, mv.path)]
    if len(fits) == 1:
        return fits[0]
    if len(fits) > 1:
        raise MoveError(f"ambiguous move {text.strip()!r}: it could be "
                        f"{' or '.join(format_move_text(mv) for mv in fits)}; give the full path")
    if not moves:
        raise MoveError(f"no move {text.strip()!r}: the side to move has no legal move")
    legal = ", ".join(format_move_text(mv) for mv in moves)
    extra = " (captures are compulsory)" if moves[0].captures else ""
    raise MoveError(f"illegal move {text.strip()!r}; the legal moves are {legal}{extra}")


def _is_subsequence(short: tuple[int, ...], full: tuple[int, ...]) -> bool:
    it = iter(full)
    return all(s in it for s in short)


def _parse_fen_list(part: str, text: str) -> list[tuple[int, bool]]:
    out: list[tuple[int, bool]] = []
    body = part[1:].strip()
    if not body:
        return out
    for item in body.split(","):
        item = item.strip()
        king = item.startswith("K")
        if king:
            item = item[1:].strip()
        m = re.fullmatch(r"(\d{1,2})(?:\s*-\s*K?(\d{1,2}))?", item)
        if m is None:
            raise PositionError(f"bad square {quoted(item)} in {quoted(text)}: {_FEN_HINT}")
        a = int(m.group(1))
        b = int(m.group(2)) if m.group(2) else a
        if not (1 <= a <= 32 and 1 <= b <= 32):
            raise PositionError(f"square {a if not 1 <= a <= 32 else b} is off the board in {quoted(text)}: "
                                f"{_FEN_HINT}")
        if b < a:
            raise PositionError(f"descending range {a}-{b} in {quoted(text)}: {_FEN_HINT}")
        out.extend((s, king) for s in range(a, b + 1))
    return out


def parse_fen(text: str) -> CheckersState:
    """Read a position in PDN FEN (RULES.md): ``B:W21-32:B1-12``, ``W:W12,13,K22:B2,3``, ``B:WK22:B``.

    Accepts ranges, either list order, an empty list, spaces around separators, lower-case letters and a
    trailing ``.``. The draw counters start at zero.

    Args:
        text: the FEN.

    Returns:
        The :class:`CheckersState`.

    Raises:
        PositionError: malformed text (the message says what was expected), a square off the board or listed
            twice, more than 12 pieces a side, a man on its own crowning row, or no piece at all (``W:W:B``: no
            game reaches it, since the capturing piece stays; one side without pieces is a finished game).
    """
    t = text.strip().upper().rstrip(".").strip()
    parts = [p.strip() for p in t.split(":")]
    if len(parts) != 3:
        raise PositionError(f"malformed checkers position {quoted(text)}: {_FEN_HINT}")
    if parts[0] not in ("B", "W"):
        raise PositionError(f"malformed checkers position {quoted(text)}: side to move must be B or W, got "
                            f"{parts[0]!r}; {_FEN_HINT}")
    colours = [p[:1] for p in parts[1:]]
    if sorted(colours) != ["B", "W"]:
        raise PositionError(f"malformed checkers position {quoted(text)}: need one 'W' list and one 'B' list; "
                            f"{_FEN_HINT}")
    bits = {"B": 0, "W": 0}
    kings = 0
    seen = 0
    for part in parts[1:]:
        colour = part[0]
        for sq, king in _parse_fen_list(part, text):
            bit = 1 << (sq - 1)
            if seen & bit:
                raise PositionError(f"square {sq} is listed twice in {quoted(text)}")
            seen |= bit
            bits[colour] |= bit
            if king:
                kings |= bit
    black, white = bits["B"], bits["W"]
    if not black and not white:
        raise PositionError(f"impossible checkers position {quoted(text)}: no piece on the board (a capture never "
                            "removes the capturing piece, so a game always keeps one; a side with no pieces, "
                            "as in B:WK22:B, is a finished game)")
    for name, mask in (("Black", black), ("White", white)):
        if mask.bit_count() > 12:
            raise PositionError(f"impossible checkers position {quoted(text)}: {name} has {mask.bit_count()} pieces "
                                "(at most 12)")
    bad = (black & ~kings & BLACK_CROWN_ROW) | (white & ~kings & WHITE_CROWN_ROW)
    if bad:
        sq = squares_of(bad)[0]
        raise PositionError(f"impossible checkers position {quoted(text)}: the man on {sq} stands on its crowning "
                            f"row (write it as K{sq})")
    return CheckersState(black, white, kings, BLACK if parts[0] == "B" else WHITE)


def format_fen(state: CheckersState) -> str:
    """Write ``state`` in PDN FEN: side to move, the White list then the Black list, squares ascending, kings
    marked ``K`` in place (``W:W12,13,K22:B2,3``)."""
    def lst(mask: int) -> str:
        return ",".join(("K" if state.kings >> (s - 1) & 1 else "") + str(s) for s in squares_of(mask))
    return f"{'B' if state.turn == BLACK else 'W'}:W{lst(state.white)}:B{lst(state.black)}"


# ----- the game ------------------------------------------------------------------------------------------------------
@mypyc_attr(allow_interpreted_subclasses=True)  # tests and the Tree Lab may subclass it (compiled by mypyc)
class Checkers(DeterministicGame[CheckersState, CheckersMove]):
    """English checkers (ACF rules, RULES.md) as a :class:`~gameplay.rules.base.Game`.

    Stateless: all state lives in the immutable :class:`CheckersState` values. Player 0 is Black (moves first),
    player 1 White.
    """

    name = "checkers"
    player_names = ("Black", "White")
    traits = GameTraits(fast_perft=True, move_order=True, compulsory_captures=True, repetition=True,
                        piece_count=True)
    """Deterministic, two players, zero-sum; counts its own perft (:meth:`perft`, bitboards); captures first
    (``order_key``) and compulsory; positions can repeat (``draw_context``); counts its pieces (:meth:`pieces`,
    for the endgame databases)."""

    # -- the protocol ---------------------------------------------------------------------------------------------
    def initial_state(self) -> CheckersState:
        """The start position: Black men on 1..12, White men on 21..32, Black to move."""
        return CheckersState(0xFFF, 0xFFF << 20, 0, BLACK)

    def to_move(self, state: CheckersState) -> int:
        """The side to move: 0 Black, 1 White."""
        return state.turn

    def pieces(self, state: CheckersState) -> int:
        """Men and kings of both sides on the board (``traits.piece_count``: the endgame databases' index)."""
        return (state.black | state.white).bit_count()

    def legal_moves(self, state: CheckersState) -> list[CheckersMove]:
        """The legal moves by the movement rules alone (draw rules ignored): captures only when any exists.

        Order: by start square, then destination (steps) or search order (jumps). Empty when the side to move
        is blocked or has no pieces.
        """
        if state.turn == BLACK:
            return _generate(_to35(state.black), _to35(state.white), _to35(state.kings), True)
        return _generate(_to35(state.white), _to35(state.black), _to35(state.kings), False)

    def actions(self, state: CheckersState) -> list[CheckersMove]:
        """The legal moves (see :meth:`legal_moves`), or ``[]`` once the game is over (including the draws)."""
        if state.quiet >= QUIET_PLY_LIMIT or (state.history and state.history.count(state.key) >= 2):
            return []
        if state.turn == BLACK:
            return _generate(_to35(state.black), _to35(state.white), _to35(state.kings), True)
        return _generate(_to35(state.white), _to35(state.black), _to35(state.kings), False)

    def noisy_actions(self, state: CheckersState) -> list[CheckersMove]:
        """The capturing moves (all legal moves when captures exist, as they are compulsory), else ``[]``."""
        moves = self.actions(state)
        if moves and moves[0].captures:
            return moves
        return []

    def draw_context(self, state: CheckersState) -> tuple[int, tuple[int, ...]] | None:
        """What the draw rules read besides the position: the quiet-ply counter and the Zobrist keys of the
        positions since the last capture or man move (threefold repetition, the 80-ply rule); ``None`` when both
        are empty. A transposition table keys entries with it (``ai.tt``)."""
        if state.quiet or state.history:
            return state.quiet, state.history
        return None

    def order_key(self, state: CheckersState | None, move: CheckersMove) -> float:
        """Static move-ordering key: number of pieces captured (0 for a step). ``state`` may be ``None``."""
        return len(move.captures)

    def successor(self, state: CheckersState, move: CheckersMove) -> CheckersState:
        """The state after ``move``, trusting that it came from :meth:`actions` (no legality check).

        Updates the Zobrist key incrementally, the quiet-ply counter and the repetition history.
        """
        path = move.path
        f = path[0]
        t = path[-1]
        fb = 1 << (f - 1)
        tb = 1 << (t - 1)
        caps = move.capture_mask
        kings = state.kings
        key = state.key ^ _Z_WHITE_TO_MOVE
        if state.turn == BLACK:
            black = state.black ^ fb ^ tb
            white = state.white
            if kings & fb:
                kings ^= fb ^ tb
                key ^= _Z_BLACK_KING[f] ^ _Z_BLACK_KING[t]
                man = False
            else:
                man = True
                if tb & BLACK_CROWN_ROW:
                    kings |= tb
                    key ^= _Z_BLACK_MAN[f] ^ _Z_BLACK_KING[t]
                else:
                    key ^= _Z_BLACK_MAN[f] ^ _Z_BLACK_MAN[t]
            if caps:
                white ^= caps
                for s in move.captures:
                    key ^= _Z_WHITE_KING[s] if kings >> (s - 1) & 1 else _Z_WHITE_MAN[s]
                kings &= ~caps
            turn = WHITE
        else:
            white = state.white ^ fb ^ tb
            black = state.black
            if kings & fb:
                kings ^= fb ^ tb
                key ^= _Z_WHITE_KING[f] ^ _Z_WHITE_KING[t]
                man = False
            else:
                man = True
                if tb & WHITE_CROWN_ROW:
                    kings |= tb
                    key ^= _Z_WHITE_MAN[f] ^ _Z_WHITE_KING[t]
                else:
                    key ^= _Z_WHITE_MAN[f] ^ _Z_WHITE_MAN[t]
            if caps:
                black ^= caps
                for s in move.captures:
                    key ^= _Z_BLACK_KING[s] if kings >> (s - 1) & 1 else _Z_BLACK_MAN[s]
                kings &= ~caps
            turn = BLACK
        if man or caps:
            return CheckersState(black, white, kings, turn, 0, (), key)
        return CheckersState(black, white, kings, turn, state.quiet + 1, state.history + (state.key,), key)

    def result(self, state: CheckersState, move: Any) -> CheckersState:
        """The state after ``move``.

        Raises:
            IllegalMoveError: ``move`` is not a :class:`CheckersMove` in :meth:`actions` (e.g. a step when a
                capture is compulsory, or any move once the game is over).
        """
        moves = self.actions(state)
        if not isinstance(move, CheckersMove) or move not in moves:
            if not moves:
                raise IllegalMoveError(f"the game is over ({self._over_text(state)}); no move is legal")
            legal = ", ".join(format_move_text(m) for m in moves)
            shown = format_move_text(move) if isinstance(move, CheckersMove) else repr(move)
            raise IllegalMoveError(f"illegal checkers move {shown} in {format_fen(state)}; legal: {legal}")
        return self.successor(state, move)

    def is_terminal(self, state: CheckersState) -> bool:
        """True when the game is over: no legal move, threefold repetition or 80 quiet plies (cheap bit test)."""
        if state.quiet >= QUIET_PLY_LIMIT or (state.history and state.history.count(state.key) >= 2):
            return True
        if state.turn == BLACK:
            return not _has_move(_to35(state.black), _to35(state.white), _to35(state.kings), True)
        return not _has_move(_to35(state.white), _to35(state.black), _to35(state.kings), False)

    def outcome(self, state: CheckersState) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on.

        Checked in this order: the side to move has no legal move (it loses: ``"no legal move"``), threefold
        repetition (draw: ``"threefold repetition"``), 80 plies without capture or man move (draw:
        ``"40-move rule"``).
        """
        if state.turn == BLACK:
            alive = _has_move(_to35(state.black), _to35(state.white), _to35(state.kings), True)
        else:
            alive = _has_move(_to35(state.white), _to35(state.black), _to35(state.kings), False)
        if not alive:
            return Outcome(1 - state.turn, Termination.NO_LEGAL_MOVE)
        if state.history and state.history.count(state.key) >= REPETITION_LIMIT - 1:
            return Outcome(None, Termination.THREEFOLD_REPETITION)
        if state.quiet >= QUIET_PLY_LIMIT:
            return Outcome(None, Termination.FORTY_MOVE_RULE)
        return None

    def _over_text(self, state: CheckersState) -> str:
        out = self.outcome(state)
        if out is None:
            return "not over"
        who = "a draw" if out.winner is None else f"{self.player_names[out.winner]} won"
        return f"{out.termination_text}: {who}"

    # -- notation ---------------------------------------------------------------------------------------------------
    def parse_position(self, text: str) -> CheckersState:
        """Read a PDN FEN position (see :func:`parse_fen`).

        Raises:
            PositionError: malformed or impossible (the message says what was expected).
        """
        return parse_fen(text)

    def format_position(self, state: CheckersState) -> str:
        """Write ``state`` as PDN FEN (see :func:`format_fen`)."""
        return format_fen(state)

    def parse_move(self, state: CheckersState, text: str) -> CheckersMove:
        """Read a PDN move (``11-15``, ``22x15``, ``7x16x23x32``, or the short ``7x32`` when unambiguous).

        Raises:
            MoveError: malformed, illegal (the message lists the legal moves), ambiguous (it lists the
                candidates), or the game is over.
        """
        moves = self.actions(state)
        if not moves and self.outcome(state) is not None:
            parse_move_squares(text)
            raise MoveError(f"no move {text.strip()!r}: the game is over ({self._over_text(state)})")
        return match_move(moves, text)

    def format_move(self, state: CheckersState | None, move: CheckersMove) -> str:
        """The full PDN text of ``move`` (every landing square of a multi-jump); ``state`` is not needed."""
        return format_move_text(move)

    # -- speed ------------------------------------------------------------------------------------------------------
    def perft(self, state: CheckersState, depth: int, count_terminal: bool = False) -> int:
        """Number of positions exactly ``depth`` plies down the legal-move tree (draw rules ignored, RULES.md).

        A complete jump sequence counts as one move. Leaves are bulk-counted at the last ply (the moves of each
        position ``depth - 1`` plies down are counted, not played); the search runs on raw 35-bit ints.

        Convention (the default, as in pydraughts, OpenSpiel and chess perft): a position whose side to move has
        no legal move before ``depth`` contributes 0, so ``perft("W:W21:B14,17", 3) == 0``.
        ``count_terminal=True`` counts such a game-over position once instead (the count of distinct games
        when every line ends before ``depth``; ``main.py perft --count-terminal``). The published checkers
        numbers (RULES.md) hold under both, as no position in those trees is blocked or empty before the depth.
        The generic :func:`gameplay.rules.perft.perft` calls this method and agrees with it.

        Args:
            state: the root position (its draw counters are ignored).
            depth: plies, >= 0 (``perft(s, 0) == 1``).
            count_terminal: count a game-over position above ``depth`` as one leaf (True) or none (False).

        Returns:
            The number of leaves (positions).

        Raises:
            GameError: ``depth`` is negative.
        """
        if depth < 0:
            raise GameError(f"perft depth must be >= 0, got {depth}")
        if depth == 0:
            return 1
        b, w, k = _to35(state.black), _to35(state.white), _to35(state.kings)
        term = 1 if count_terminal else 0
        if state.turn == BLACK:
            return _perft_b(b, w, k, depth, term)
        return _perft_w(b, w, k, depth, term)

    def perft_divide(self, state: CheckersState, depth: int, count_terminal: bool = False) -> dict[str, int]:
        """Perft per root move (``{move text: leaves}``, in move order), to find the branch where counts differ.

        ``count_terminal`` as in :meth:`perft` (default False: only positions exactly ``depth`` plies down).

        Raises:
            GameError: ``depth`` is less than 1.
        """
        if depth < 1:
            raise GameError(f"perft divide depth must be >= 1, got {depth}")
        return {format_move_text(m): self.perft(self.successor(state, m), depth - 1, count_terminal)
                for m in self.legal_moves(state)}

    # -- evaluation helpers ---------------------------------------------------------------------------------------
    def piece_counts(self, state: CheckersState, player: int) -> tuple[int, int]:
        """``(men, kings)`` of ``player`` (0 Black, 1 White)."""
        mine = state.black if player == BLACK else state.white
        k = (mine & state.kings).bit_count()
        return mine.bit_count() - k, k
