"""Counting the set bits of a bitboard: :func:`popcount`, the one count every board game's hot code uses.

Why not ``int.bit_count()``: mypyc (the compiler ``setup.py`` runs) has no primitive for that method, so compiled
code calls it as a Python method looked up by name on every call, about 30 ns each (measured 2026-12-04: 33 ns a
call against 8-9 ns for the arithmetic below, in a compiled loop of 2 M calls); the evaluation and the move
generator count bits some ten times a node. :func:`popcount` is the classic SWAR count (Hacker's Delight, 2nd ed.,
H. S. Warren, section 5-1, "Counting 1-bits"; the Stockfish and Chinook-era engines' ``popcount`` fallback) on
native 64-bit integers (``mypy_extensions.i64``), which the compiler turns into a handful of machine instructions.

In the pure-Python build (no C compiler, or ``ARCADE_PURE=1``) the interpreter's own ``int.bit_count`` is faster
than that arithmetic, so this module then binds ``popcount`` to it: both give the same count for every value the
games use (non-negative, below 2**63; tested), so compiled and pure runs search the same nodes.

Standard library only (no pygame, no UI).
"""

from __future__ import annotations

import types
from typing import Final

from mypy_extensions import i64


def popcount(x: i64) -> int:
    """The number of 1 bits of ``x`` (Hacker's Delight, section 5-1).

    Args:
        x: a bitboard, ``0 <= x < 2**63`` (any board of up to 63 squares: checkers' 32 and its 35-bit layout,
            a 7 x 7 board's 49).

    Returns:
        The count, ``0..63``, equal to ``x.bit_count()`` (a negative ``x`` is outside the contract).
    """
    y = x  # native 64-bit integers throughout (compiled: the callers' own i64 bitboards pass with no conversion)
    y = y - ((y >> 1) & 0x1555555555555555)  # the odd bits: 0x5555... without bit 62 (y >> 1 < 2**62), a native
    # constant to mypyc (a literal from 2**62 up stays a Python integer, converted at every call)
    y = (y & 0x3333333333333333) + ((y >> 2) & 0x3333333333333333)
    y = (y + (y >> 4)) & 0x0F0F0F0F0F0F0F0F
    y = y + (y >> 8)
    y = y + (y >> 16)
    return (y + (y >> 32)) & 0x7F


def is_compiled() -> bool:
    """True when this module runs compiled by mypyc (its functions are then not Python function objects)."""
    return not isinstance(is_compiled, types.FunctionType)


swar_popcount: Final = popcount
"""The SWAR count itself, whichever function ``popcount`` is bound to (so its arithmetic is checked in the pure build
too)."""

if not is_compiled():  # pure Python: the interpreter's own count (one C call) beats the arithmetic above
    globals()["popcount"] = int.bit_count
