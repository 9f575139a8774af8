"""The referee's clock: how long an agent in a worker process (:mod:`ai.agents.agent_process`) took for a move, on
the clock its time budget is measured on, and when it loses on time (issue 48).

* A wall-clocked agent (``clock=wall``, the default) is judged on the wall time from sending the position to
  receiving the answer: it loses on time past ``limit + grace`` (:data:`GRACE_S`).
* A CPU-clocked agent (``clock=cpu``) is judged on the CPU time its worker process used for the move (every thread
  of it, system time included: :func:`process_cpu_s`, read by the referee from the process's ``/proc`` entry, and the
  worker's own :func:`time.process_time` difference, which it reports with the answer; the larger counts). It loses
  on time past ``limit + grace`` of CPU time, or, so that an agent stuck without using CPU time (waiting on
  something that never comes) still loses, past a wall-clock cap: ``max(WALL_CAP_FACTOR * limit, WALL_CAP_MIN_S) +
  grace`` (:meth:`TimeControl.wall_limit_s`; 0.5 s: 5.25 s of wall time). On a machine shared with other programs a
  CPU-clocked agent is given the CPU time it was promised, however long the scheduler makes it wait for it.

The judgement is a pure function of the two readings (:meth:`TimeControl.verdict`), so it is tested with fake clocks
(``tests/test_move_clock.py``).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ai.kernel.timeman import Clock

GRACE_S = 0.25
"""Seconds allowed beyond the per-move limit (on the judging clock) for the answer to arrive (process scheduling,
pickling). The search keeps a margin of its own before the limit (``ai.kernel.timeman.stop_time``)."""
WALL_CAP_FACTOR = 10.0
"""A CPU-clocked agent's wall-clock cap, in per-move limits (at least :data:`WALL_CAP_MIN_S`)."""
WALL_CAP_MIN_S = 5.0
"""The least wall-clock cap of a CPU-clocked agent (seconds, before the grace): a machine at load 10 gives a
process a tenth of a core, so 0.2 s of CPU time may take 2 s of wall time."""
POLL_CPU_S = 0.02
"""How often the referee reads a CPU-clocked agent's CPU time while it waits (seconds)."""

CpuReader = Callable[[int], "float | None"]
"""Reads a process's CPU time in seconds by its id (``None`` when it cannot be read)."""


@dataclass(frozen=True)
class TimeControl:
    """One agent's per-move limit as the referee judges it.

    Attributes:
        clock: the clock the agent's budget is measured on, the one it is judged by.
        limit_s: the per-move limit in seconds (above 0).
        grace_s: seconds allowed beyond the limit on the judging clock (at least 0).
    """

    clock: Clock
    limit_s: float
    grace_s: float = GRACE_S

    def __post_init__(self) -> None:
        if not self.limit_s > 0:
            raise ValueError(f"the per-move limit must be above 0 seconds, got {self.limit_s}")
        if not self.grace_s >= 0:
            raise ValueError(f"the grace must be at least 0 seconds, got {self.grace_s}")

    @property
    def wall_limit_s(self) -> float:
        """The wall-clock seconds after which the agent loses on time: ``limit + grace`` (wall clock), or the cap
        ``max(WALL_CAP_FACTOR * limit, WALL_CAP_MIN_S) + grace`` (CPU clock)."""
        if self.clock == Clock.CPU:
            return max(WALL_CAP_FACTOR * self.limit_s, WALL_CAP_MIN_S) + self.grace_s
        return self.limit_s + self.grace_s

    @property
    def cpu_limit_s(self) -> float | None:
        """The CPU seconds after which a CPU-clocked agent loses on time (``limit + grace``); ``None`` for a
        wall-clocked one."""
        return self.limit_s + self.grace_s if self.clock == Clock.CPU else None

    def verdict(self, wall_s: float, cpu_s: float | None) -> str | None:
        """Why the agent lost on time after ``wall_s`` seconds of wall time and ``cpu_s`` of its process's CPU time
        (``None``: unknown) for one move, or ``None`` while it has not. The reason names the clock and the limit."""
        cpu_limit = self.cpu_limit_s
        if cpu_limit is not None and cpu_s is not None and cpu_s > cpu_limit:
            return (f"{cpu_s:.2f} s of CPU time for one move (the limit {self.limit_s:g} s + {self.grace_s:g} s "
                    "grace, on the CPU clock)")
        if wall_s > self.wall_limit_s:
            if self.clock == Clock.CPU:
                used = "" if cpu_s is None else f", {cpu_s:.2f} s of CPU time"
                return (f"no move within {self.wall_limit_s:.2f} s of wall time{used} (the wall-clock cap of a "
                        f"CPU-clocked agent: max({WALL_CAP_FACTOR:g} x {self.limit_s:g} s, {WALL_CAP_MIN_S:g} s) + "
                        f"{self.grace_s:g} s grace)")
            return f"no move within {self.wall_limit_s:.2f} s (the limit {self.limit_s:g} s + {self.grace_s:g} s grace)"
        return None

    def wait_s(self, wall_s: float) -> float:
        """How long the referee may wait for the answer before it judges again, ``wall_s`` seconds into the move:
        the rest of the wall-clock limit (of the cap, for a CPU-clocked agent: at most :data:`POLL_CPU_S`, as its
        CPU time is read between waits), at least 0."""
        left = max(0.0, self.wall_limit_s - wall_s)
        return min(left, POLL_CPU_S) if self.clock == Clock.CPU else left

    def judged(self) -> str:
        """The judgement in words for the reports: ``CPU time, 0.5 s + 0.25 s grace (wall-clock cap 5.25 s)`` or
        ``wall time, 0.5 s + 0.25 s grace``."""
        if self.clock == Clock.CPU:
            return (f"CPU time, {self.limit_s:g} s + {self.grace_s:g} s grace (wall-clock cap "
                    f"{self.wall_limit_s:g} s)")
        return f"wall time, {self.limit_s:g} s + {self.grace_s:g} s grace"


def _ticks() -> int:
    try:
        return int(os.sysconf("SC_CLK_TCK"))
    except (AttributeError, ValueError, OSError):
        return 100


_TICKS = _ticks()


def process_cpu_s(pid: int) -> float | None:
    """The CPU time (user + system, every thread, those that ended included) of process ``pid`` in seconds, from
    ``/proc/<pid>/stat`` (Linux; to the clock tick, 10 ms); ``None`` where there is no ``/proc`` or the process
    is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    try:
        fields = text[text.rindex(")") + 2:].split()  # after the command name, which may hold spaces
        return (int(fields[11]) + int(fields[12])) / _TICKS  # utime, stime: fields 14 and 15 of proc(5)
    except (ValueError, IndexError):
        return None


@dataclass
class MoveTimer:
    """The readings of one move at the referee: wall time from :attr:`wall` and the worker's CPU time from
    :attr:`cpu` (both replaceable by fakes in tests), started when the position is sent."""

    control: TimeControl
    pid: int
    wall: Callable[[], float] = time.perf_counter
    cpu: CpuReader = process_cpu_s

    def __post_init__(self) -> None:
        self._w0 = self.wall()
        self._c0 = self.cpu(self.pid)

    def wall_s(self) -> float:
        """Wall seconds since the start."""
        return self.wall() - self._w0

    def cpu_s(self) -> float | None:
        """The worker's CPU seconds since the start (``None``: not read, or unreadable)."""
        if self._c0 is None:
            return None
        now = self.cpu(self.pid)
        return None if now is None else max(0.0, now - self._c0)

    def check(self) -> tuple[str | None, float]:
        """``(the reason the agent lost on time, or None; seconds to wait before the next check)`` (the CPU time is
        read only for a CPU-clocked agent)."""
        w = self.wall_s()
        cpu = self.cpu_s() if self.control.clock == Clock.CPU else None
        return self.control.verdict(w, cpu), self.control.wait_s(w)
