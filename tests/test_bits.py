"""``gameplay.rules.bits.popcount``: the bit count every board's hot code uses, compiled (SWAR on native 64-bit
integers) and pure (``int.bit_count``), equal to ``int.bit_count`` on every bitboard the games use."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from gameplay.rules import bits

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import random
from gameplay.rules import bits
rng = random.Random(7)
xs = [0, 1, 2**62, 2**63 - 1, 0x5555555555555555, 0xAAAAAAAAAAAAAAA] + [rng.getrandbits(rng.randint(1, 63))
                                                                         for _ in range(20000)]
bad = [x for x in xs if bits.popcount(x) != x.bit_count()]
print(bits.is_compiled(), len(bad), bad[:3])
"""


@pytest.mark.parametrize("pure", [False, True])
def test_popcount_equals_bit_count_compiled_and_pure(pure: bool) -> None:
    env = dict(os.environ)
    env.pop("ARCADE_PURE", None)
    if pure:
        env["ARCADE_PURE"] = "1"
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120, check=True).stdout.strip().split(maxsplit=2)
    if pure:
        assert out[0] == "False"  # the pure build binds the interpreter's own count
    assert out[1:] == ["0", "[]"]


def test_swar_arithmetic_itself_is_right() -> None:
    # the arithmetic the compiled build runs, checked in whichever build runs the tests
    rng = random.Random(3)
    xs = [0, 1, 2**63 - 1, 2**62 + 1] + [rng.getrandbits(rng.randint(1, 63)) for _ in range(5000)]
    assert [bits.swar_popcount(x) for x in xs] == [x.bit_count() for x in xs]


def test_zobrist_keys_fit_the_unboxed_range_and_are_their_own_hash() -> None:
    # mypyc keeps an integer unboxed below 2**62: a key at or above it made every key update allocate
    from gameplay.rules.checkers import checkers_board as cb
    from gameplay.rules.checkers.checkers import Checkers

    tables = (cb.Z_BLACK_MAN, cb.Z_BLACK_KING, cb.Z_WHITE_MAN, cb.Z_WHITE_KING)
    assert all(0 <= z < 2**62 for t in tables for z in t) and 0 < cb.Z_WHITE_TO_MOVE < 2**62
    assert len({z for t in tables for z in t[1:]}) == 4 * 32  # distinct keys
    game = Checkers()
    state = game.initial_state()
    rng = random.Random(5)
    for _ in range(60):  # a random game: the incremental key equals the key from scratch, and is the hash
        moves = game.actions(state)
        if not moves:
            break
        state = game.successor(state, rng.choice(moves))
        assert state.key == cb.zobrist_key(state.black, state.white, state.kings, state.turn) == hash(state)
        assert 0 <= state.key < 2**62
