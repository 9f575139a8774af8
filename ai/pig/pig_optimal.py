"""Exact win probabilities of Pig by dynamic programming: the optimal policy and fixed "hold at N" policies.

Source: T. W. Neller and C. G. M. Presser, "Optimal Play of the Dice Game Pig", *The UMAP Journal* 25(1),
2004. ``P(i, j, k)`` is the probability that the player to move wins, with own banked score ``i``, opponent's
banked score ``j`` and turn total ``k`` (all in points, ``i + k < target``, ``j < target``)::

    P(i, j, k) = max(P_roll, P_hold)                                  (only roll when k = 0)
    P_roll     = (1/f) * [(1 - P(j, i, 0)) + sum_{r=2..f} P(i, j, k + r)]
    P_hold     = 1 - P(j, i + k, 0)
    P(i, j, k) = 1 when i + k >= target

With a six-sided die and target 100 the first player wins with probability 0.530593 under optimal play; with
both players holding at 20 the first player wins with probability 0.5347 (both quoted in RULES.md).

Method. The paper solves the equations by value iteration within each class of states of equal banked-score
sum ``i + j``. This module solves the same equations exactly and faster: states are processed by decreasing
``i + j``; a ``hold`` leads to a larger sum (already solved) and a ``roll`` stays in the column ``(i, j, .)``
except for a rolled 1, which leads to the partner state ``(j, i, 0)``. So for the pair of columns ``(i, j, .)``
and ``(j, i, .)`` every value is a linear function of the two unknowns ``x = P(i, j, 0)`` and ``y = P(j, i, 0)``
once the roll/hold choices are fixed: the pair is a 2x2 linear system, solved exactly; the choices are then
re-checked with the exact ``x, y`` (policy iteration on two unknowns, usually one round). The result satisfies
the Bellman equations above to about 1e-15. Pure standard library (``array``); target 100 with a six-sided die
(505,000 states) takes about 1-2 s in CPython, and the table is cached on disk (see :func:`load_table`).
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
import threading
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from gameplay.rules.base import GameError
from gameplay.rules.outfile import write_bytes

Progress = Callable[[int, int], None]
"""``progress(done, total)``: states solved so far and the total number of states."""

_FORMAT = b"PIGTABLE1\n"
_memory: dict[tuple[int, int, int | None], PigTable] = {}
_lock = threading.Lock()


@dataclass(frozen=True)
class PigTable:
    """Win probabilities ``P(i, j, k)`` of the player to move, under one policy played by both sides.

    Attributes:
        target: points needed to win.
        faces: die faces.
        hold_at: ``None`` for the optimal policy, or ``N`` for "hold as soon as the turn total is at least N".
        columns: ``columns[i * target + j][k] = P(i, j, k)`` for ``0 <= k < target - i`` (``array('d')``).
    """

    target: int
    faces: int
    hold_at: int | None
    columns: tuple[array[float], ...]

    def win(self, i: int, j: int, k: int = 0) -> float:
        """``P(i, j, k)``: probability that the player to move wins (own score ``i``, opponent ``j``, turn total
        ``k``, all in points). 1 when ``i + k`` reaches the target, 0 when ``j`` already did."""
        tg = self.target
        if i + k >= tg:
            return 1.0
        if j >= tg:
            return 0.0
        return self.columns[i * tg + j][k]

    def roll_value(self, i: int, j: int, k: int) -> float:
        """Win probability of rolling now and then following the table's policy."""
        f = self.faces
        total = 1.0 - self.win(j, i, 0)
        for r in range(2, f + 1):
            total += self.win(i, j, k + r)
        return total / f

    def hold_value(self, i: int, j: int, k: int) -> float:
        """Win probability of holding now (banking ``k``) and then following the table's policy."""
        return 1.0 - self.win(j, i + k, 0)

    def holds(self, i: int, j: int, k: int) -> bool:
        """The table's policy: True to hold, False to roll (always False at ``k = 0``)."""
        if k <= 0:
            return False
        if self.hold_at is not None:
            return k >= self.hold_at
        return self.hold_value(i, j, k) >= self.roll_value(i, j, k)

    def state_count(self) -> int:
        """Number of non-terminal ``(i, j, k)`` states in the table."""
        return sum(len(c) for c in self.columns)


def state_count(target: int) -> int:
    """Non-terminal states ``(i, j, k)`` with ``i + k < target``, ``j < target``: ``target**2 * (target+1) / 2``."""
    return target * target * (target + 1) // 2


def solve(target: int = 100, faces: int = 6, hold_at: int | None = None,
          progress: Progress | None = None) -> PigTable:
    """Compute the win-probability table (no cache; see :func:`load_table`).

    Args:
        target: points needed to win (>= 1).
        faces: die faces (>= 2).
        hold_at: ``None`` for the optimal policy, or ``N >= 1`` to evaluate "hold at N" for both players.
        progress: optional callback ``progress(done, total)`` in states, called about 200 times.

    Returns:
        The :class:`PigTable`.

    Raises:
        GameError: a parameter out of range.
    """
    if target < 1 or faces < 2 or (hold_at is not None and hold_at < 1):
        raise GameError(f"pig table needs target >= 1, faces >= 2 and hold_at >= 1; got target={target}, "
                        f"faces={faces}, hold_at={hold_at}")
    tg, f = target, faces
    inv = 1.0 / f
    # p0[a][b] = P(a, b, 0); columns[a * tg + b] = P(a, b, .)
    p0 = [[0.5] * tg for _ in range(tg)]
    columns: list[array[float]] = [array("d") for _ in range(tg * tg)]
    total = state_count(tg)
    done = 0
    step = max(1, (2 * tg - 1) // 200)

    def linear(i: int, j: int, y_est: float) -> tuple[float, float]:
        """Column (i, j, .) as a + b*y with y = P(j, i, 0); roll/hold choices made at y = y_est.

        Returns (a0, b0) for k = 0."""
        kk = tg - i
        a = [1.0] * (kk + f + 1)
        b = [0.0] * (kk + f + 1)
        sa = float(f - 1)
        sb = 0.0
        row = p0[j]
        for k in range(kk - 1, -1, -1):
            sa += a[k + 2] - a[k + f + 1]
            sb += b[k + 2] - b[k + f + 1]
            ra = (1.0 + sa) * inv
            rb = (sb - 1.0) * inv
            if k == 0:
                a[0], b[0] = ra, rb
                break
            h = 1.0 - row[i + k]
            if hold_at is None:
                if h >= ra + rb * y_est:
                    a[k], b[k] = h, 0.0
                else:
                    a[k], b[k] = ra, rb
            elif k >= hold_at:
                a[k], b[k] = h, 0.0
            else:
                a[k], b[k] = ra, rb
        return a[0], b[0]

    def plain(i: int, j: int, y: float) -> array[float]:
        """Column (i, j, .) as floats given y = P(j, i, 0), with the policy's choices."""
        kk = tg - i
        v = [1.0] * (kk + f + 1)
        s = float(f - 1)
        row = p0[j]
        base = (1.0 - y) * inv
        for k in range(kk - 1, -1, -1):
            s += v[k + 2] - v[k + f + 1]
            r = base + s * inv
            if k == 0:
                v[0] = r
                break
            h = 1.0 - row[i + k]
            if hold_at is None:
                v[k] = max(h, r)
            else:
                v[k] = h if k >= hold_at else r
        return array("d", v[:kk])

    for ssum in range(2 * tg - 2, -1, -1):
        for i in range(max(0, ssum - tg + 1), ssum // 2 + 1):
            j = ssum - i
            x_est = p0[i][j + 1] if j + 1 < tg else 0.5
            y_est = p0[j][i + 1] if i + 1 < tg else 0.5
            for _ in range(50):
                a0, b0 = linear(i, j, y_est)
                if i == j:
                    x = y = a0 / (1.0 - b0)
                else:
                    c0, d0 = linear(j, i, x_est)
                    x = (a0 + b0 * c0) / (1.0 - b0 * d0)
                    y = c0 + d0 * x
                col_i = plain(i, j, y)
                col_j = plain(j, i, x) if i != j else col_i
                if abs(col_i[0] - x) < 1e-12 and abs(col_j[0] - y) < 1e-12:
                    break
                x_est, y_est = x, y
            else:  # pragma: no cover - policy iteration on two unknowns always settles
                raise GameError(f"pig table: no consistent policy for scores {i},{j}")
            columns[i * tg + j] = col_i
            columns[j * tg + i] = col_j
            p0[i][j] = col_i[0]
            p0[j][i] = col_j[0]
            done += len(col_i) + (len(col_j) if i != j else 0)
        if progress is not None and (ssum % step == 0 or ssum == 0):
            progress(done, total)
    return PigTable(tg, f, hold_at, tuple(columns))


# ----- the disk cache ------------------------------------------------------------------------------------------
def cache_dir() -> Path:
    """``platformdirs.user_cache_dir("adversarial-arcade")``, or ``<tmp>/adversarial-arcade`` without platformdirs."""
    try:
        import platformdirs
        return Path(platformdirs.user_cache_dir("adversarial-arcade"))
    except ImportError:
        return Path(tempfile.gettempdir()) / "adversarial-arcade"


def cache_path(directory: Path, target: int, faces: int, hold_at: int | None) -> Path:
    """The file in ``directory`` that caches the policy table for ``target`` points, a ``faces``-sided die and
    ``hold_at`` (None: the optimal policy; an int: hold at that turn total)."""
    policy = "optimal" if hold_at is None else f"hold{hold_at}"
    return directory / f"pig-{policy}-t{target}-f{faces}.bin"


def _header(target: int, faces: int, hold_at: int | None) -> bytes:
    return json.dumps({"target": target, "faces": faces, "hold_at": hold_at, "byteorder": sys.byteorder,
                       "states": state_count(target)}, sort_keys=True).encode() + b"\n"


def _read_cache(path: Path, target: int, faces: int, hold_at: int | None) -> PigTable | None:
    """The cached table, or ``None`` when the file is missing, from another version, truncated or corrupt."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = _FORMAT + _header(target, faces, hold_at)
    if not data.startswith(head) or len(data) < len(head) + 32:
        return None
    digest = data[len(head):len(head) + 32]
    payload = data[len(head) + 32:]
    if len(payload) != 8 * state_count(target) or hashlib.sha256(payload).digest() != digest:
        return None
    flat = array("d")
    flat.frombytes(payload)
    columns: list[array[float]] = []
    pos = 0
    for i in range(target):
        n = target - i
        for _ in range(target):
            columns.append(flat[pos:pos + n])
            pos += n
    return PigTable(target, faces, hold_at, tuple(columns))


def _write_cache(path: Path, table: PigTable) -> None:
    """Write atomically (temporary file then rename); errors are ignored (the cache is an optimisation)."""
    flat = array("d")
    for c in table.columns:
        flat.extend(c)
    payload = flat.tobytes()
    blob = (_FORMAT + _header(table.target, table.faces, table.hold_at) + hashlib.sha256(payload).digest()
            + payload)
    try:
        write_bytes(path, blob, make_folders=True)  # whole or not at all: a failed write leaves no temporary file
    except OSError:
        pass


def load_table(target: int = 100, faces: int = 6, hold_at: int | None = None, *,
               progress: Progress | None = None, directory: Path | None = None,
               use_disk: bool = True) -> PigTable:
    """The table for ``(target, faces, policy)``: from memory, else the disk cache, else computed and cached.

    The cache file (``pig-optimal-t100-f6.bin`` in :func:`cache_dir`) holds a header naming the parameters,
    a SHA-256 checksum and the probabilities (8-byte floats); a missing, truncated or corrupt file is rebuilt.
    Thread-safe: concurrent callers wait for one computation.

    Args:
        target: points needed to win.
        faces: die faces.
        hold_at: ``None`` for the optimal policy, or ``N`` for "hold at N".
        progress: ``progress(done, total)`` in states while computing (not called on a cache hit).
        directory: cache directory (default :func:`cache_dir`).
        use_disk: False to skip the disk cache (memory only).

    Raises:
        GameError: a parameter out of range.
    """
    key = (target, faces, hold_at)
    with _lock:
        table = _memory.get(key)
        if table is not None:
            return table
        path = cache_path(directory or cache_dir(), target, faces, hold_at)
        table = _read_cache(path, target, faces, hold_at) if use_disk else None
        if table is None:
            table = solve(target, faces, hold_at, progress)
            if use_disk:
                _write_cache(path, table)
        _memory[key] = table
        return table


def clear_memory_cache() -> None:
    """Forget the tables held in memory (the disk cache stays)."""
    with _lock:
        _memory.clear()
