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
