"""Time management of the anytime loop (:func:`ai.kernel.deepen.deepen`): when to start another iteration of iterative
deepening within a fixed per-move budget, and which clock measures the budget.

Two policies, switched by the agent key ``timeman`` (``docs/agents.md``):

* ``timeman=off`` (:class:`HalfBudget`): the old rule, a soft limit at half the budget. No iteration starts after
  it; the running one may go on to the hard limit (the whole budget).
* ``timeman=on`` (:class:`TimeManager`): engine-style, after Stockfish (``src/timeman.cpp`` computes an
  "optimum" and a "maximum" time; ``src/search.cpp``'s iterative-deepening loop scales the optimum by
  ``bestMoveInstability``, which grows with ``totBestMoveChanges``, the best-move changes of the last
  iterations halved at each iteration, and by ``fallingEval``, which grows when the score fell below the value
  of earlier iterations, clamped to at most 1.5 of it). A *target* time starts at :data:`OPTIMUM_SHARE` of the
  budget and grows with those two factors up to the whole budget; between iterations the loop stops once the
  target has passed, and also never starts an iteration whose predicted time (the last iteration's time times
  the growth ratio observed between iterations, clamped to [:data:`GROWTH_MIN`, :data:`GROWTH_MAX`]:
  :meth:`TimeManager.predicted`) would end past the hard limit, since an interrupted iteration is thrown away
  (with ``partial``, :attr:`TimeManager.partial`, a stopped iteration's proved move is played, and only its first
  root move, :data:`FIRST_MOVE_SHARE` of the prediction, must fit).

In both policies the hard limit (the whole budget) is checked by the search every ``check_every`` nodes
(``ai.kernel.core.Interruptible``), the first iteration always completes, and the result of an interrupted iteration
is thrown away unless ``partial`` finds a root move it proved (``ai.kernel.deepen.deepen``).

The clock (agent key ``clock``): ``wall`` (:func:`time.perf_counter`) or ``cpu`` (:func:`time.thread_time`, the
CPU time of the searching thread: what a program on a shared machine is entitled to; Cake, for one, counts CPU
time). The search's hard-deadline check reads the same clock (``Interruptible.clock``).

The margin (issue 48): when a referee waits for the answer (``SearchLimits.latency_s`` set: an agent in a worker
process, ``ai.agents.agent_process``), the search stops at :func:`stop_time`, the budget less a margin: a fixed share
of the budget (:data:`MARGIN_SHARE`, for the deadline check's granularity and the work after the search) plus the
latency the referee learned for that process (:class:`LatencyEstimate`: the seconds between the search's stop and
the answer's arrival, on the clock the referee judges by), the margin never more than :data:`MARGIN_MAX_SHARE` of
the budget. Without a referee (``analyze``, the window, the benchmarks) the whole budget is the search's.

The decisions are pure functions of the iterations' times, values and moves (``tests/test_timeman.py``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol


class Clock(StrEnum):
    """The clock a time budget is measured on (the agent key ``clock``; its value is the key's text)."""

    WALL = "wall"
    """Elapsed real time (:func:`time.perf_counter`)."""
    CPU = "cpu"
    """The CPU time of the searching thread (:func:`time.thread_time`)."""


CLOCKS: dict[str, Callable[[], float]] = {Clock.WALL: time.perf_counter, Clock.CPU: time.thread_time}
"""The budget's clock by its :class:`Clock` (a ``str``): seconds from :func:`time.perf_counter` (wall) or
:func:`time.thread_time` (CPU time of the calling thread, which must be the searching thread). A test may replace
an entry or add a clock of its own under a name (a clock that counts nodes: the same result on any machine)."""

HALF_SHARE = 0.5
"""``timeman=off``: the soft limit, as a share of the budget (the program's rule before issue 27; Cake's too)."""
OPTIMUM_SHARE = 0.6
"""``timeman=on``: the target time of a stable search, as a share of the budget (Stockfish's "optimum")."""
MAX_SHARE = 1.0
"""The target never passes this share of the budget (the hard limit)."""
INSTABILITY_PER_CHANGE = 1.0
"""The target grows by this share of itself per recent change of the best root move (Stockfish:
``bestMoveInstability = 1 + k * totBestMoveChanges``, k near 1.8 with several threads; one thread here)."""
CHANGE_DECAY = 0.5
"""Each iteration halves the count of earlier best-move changes (Stockfish: ``totBestMoveChanges /= 2``)."""
FALLING_PER_UNIT = 1.0
"""The target grows by this share of itself per unit (a man in checkers) the score fell below the earlier
iteration of the same parity (Stockfish's ``fallingEval``)."""
FALLING_MAX = 1.5
"""Largest factor of the falling score (Stockfish clamps ``fallingEval`` to at most about 1.5)."""
GROWTH_MIN = 1.0
"""Smallest growth ratio assumed between the times of consecutive iterations (a deeper one is never faster)."""
GROWTH_MAX = 8.0
"""Largest growth ratio assumed (an odd/even jump or a table-answered iteration can make one ratio absurd)."""
GROWTH_DEFAULT = 3.0
"""The growth ratio assumed while the iterations are too quick to time (below :data:`MIN_TIMED`)."""
MIN_TIMED = 0.001
"""Iterations shorter than this (seconds) are too quick for their ratio to mean anything."""
FIRST_MOVE_SHARE = 0.6
"""With ``partial`` (``SearchLimits.partial``): the share of an iteration's time its first root move takes, the
part that must fit in the budget for a stopped iteration to prove anything: ``python tools/first_move_share.py
--depth 12 --positions 20`` measured a median of 0.55-0.73 by depth (6-12), a mean of 0.56-0.68 (2026-12-03)."""


@dataclass(frozen=True)
class Step:
    """A completed iteration as the policy sees it."""

    seconds: float
    """Time the iteration took, on the budget's clock."""
    value: float
    """Its value for the side to move at the root."""
    move: object
    """Its best root move."""


class TimePolicy(Protocol):
    """When the anytime loop starts another iteration."""

    def go_on(self, elapsed: float, steps: Sequence[Step]) -> bool:
        """True to start the next iteration, ``elapsed`` seconds into the budget after the completed ``steps``
        (never empty)."""
        ...

    def target(self, steps: Sequence[Step]) -> float:
        """The target time (seconds on the budget's clock) after ``steps``."""
        ...


@dataclass(frozen=True)
class HalfBudget:
    """``timeman=off``: no iteration starts after half the budget (:data:`HALF_SHARE`)."""

    budget: float
    """Seconds per move (the hard limit)."""

    def target(self, steps: Sequence[Step]) -> float:
        """Half the budget, whatever the iterations did."""
        return self.budget * HALF_SHARE

    def go_on(self, elapsed: float, steps: Sequence[Step]) -> bool:
        """True while less than half the budget is spent."""
        return elapsed < self.target(steps)


@dataclass(frozen=True)
class TimeManager:
    """``timeman=on``: a target that grows with best-move changes and a falling score, and no iteration that
    is predicted to end past the hard limit (module docstring).

    Attributes:
        budget: seconds per move, the hard limit (on the budget's clock).
        unit: the score's scale for the falling-score test (the evaluation's weight of a man; 1 for values in
            [-1, 1]); must be above 0.
    """

    budget: float
    unit: float = 1.0
    partial: bool = False
    """A stopped iteration's proved root move is played (``SearchLimits.partial``): an iteration starts when its
    first root move (:data:`FIRST_MOVE_SHARE` of its predicted time) is predicted to end within the budget."""

    def instability(self, steps: Sequence[Step]) -> float:
        """``1 + INSTABILITY_PER_CHANGE * changes``, ``changes`` the best-move changes between consecutive
        iterations, each weighed by :data:`CHANGE_DECAY` per iteration since (the last change weighs 1)."""
        changes = 0.0
        for a, b in zip(steps, steps[1:]):
            changes = changes * CHANGE_DECAY + (1.0 if a.move != b.move else 0.0)
        return 1.0 + INSTABILITY_PER_CHANGE * changes

    def falling(self, steps: Sequence[Step]) -> float:
        """``1 + FALLING_PER_UNIT * drop / unit`` clamped to ``[1, FALLING_MAX]``: ``drop`` how far the last value
        fell below the iteration two before (same parity: odd and even depths differ in checkers), or the one
        before when there are only two."""
        if len(steps) < 2:
            return 1.0
        ref = steps[-3] if len(steps) >= 3 else steps[-2]
        drop = ref.value - steps[-1].value
        return min(FALLING_MAX, max(1.0, 1.0 + FALLING_PER_UNIT * drop / self.unit))

    def target(self, steps: Sequence[Step]) -> float:
        """``budget * OPTIMUM_SHARE * instability * falling``, at most ``budget * MAX_SHARE``."""
        share = OPTIMUM_SHARE * self.instability(steps) * self.falling(steps)
        return self.budget * min(MAX_SHARE, share)

    def predicted(self, steps: Sequence[Step]) -> float:
        """The predicted time of the next iteration: the last one's times the growth ratio, clamped to
        ``[GROWTH_MIN, GROWTH_MAX]``. The ratio is the geometric mean of the last two ratios (``sqrt(t[-1] /
        t[-3])``: checkers' iteration times alternate between small and large steps with the depth's parity),
        else the last ratio, else :data:`GROWTH_DEFAULT` while the iterations are too quick to time."""
        last = steps[-1].seconds
        if len(steps) >= 3 and steps[-3].seconds >= MIN_TIMED:
            growth = math.sqrt(last / steps[-3].seconds)
        elif len(steps) >= 2 and steps[-2].seconds >= MIN_TIMED:
            growth = last / steps[-2].seconds
        else:
            growth = GROWTH_DEFAULT
        return last * min(GROWTH_MAX, max(GROWTH_MIN, growth))

    def go_on(self, elapsed: float, steps: Sequence[Step]) -> bool:
        """True when the target has not passed and the next iteration (with ``partial``: its first root move) is
        predicted to end within the budget."""
        need = self.predicted(steps) * (FIRST_MOVE_SHARE if self.partial else 1.0)
        return elapsed < self.target(steps) and elapsed + need <= self.budget


def policy(budget: float, manage: bool, unit: float = 1.0, partial: bool = False) -> TimePolicy:
    """The policy of a budget of ``budget`` seconds: :class:`TimeManager` when ``manage`` (``partial``: a stopped
    iteration's proved move is played, see :attr:`TimeManager.partial`), else :class:`HalfBudget`."""
    return TimeManager(budget, unit if unit > 0 else 1.0, partial) if manage else HalfBudget(budget)


def clock_named(name: str) -> Clock:
    """The :class:`Clock` called ``name`` (``wall``, ``cpu``).

    Raises:
        ValueError: an unknown name.
    """
    try:
        return Clock(name)
    except ValueError:
        raise ValueError(f"clock must be one of {', '.join(Clock)}, got {name!r}") from None


def clock_of(clock: Clock | str) -> Callable[[], float]:
    """The function that reads ``clock``: its entry in :data:`CLOCKS` (a :class:`Clock`, or its name).

    Raises:
        ValueError: an unknown name.
    """
    read = CLOCKS.get(clock)
    return read if read is not None else CLOCKS[clock_named(clock)]


MARGIN_SHARE = 0.05
"""The fixed part of the margin, as a share of the budget: what the deadline check's granularity (every
``check_every`` nodes: a median of 1.0-1.2 ms and a worst of 2.6-3.5 ms of CPU time between two checks in checkers,
measured 2026-12) and the work after the search (the answer's text, its pickling) take, with room to spare."""
MARGIN_MAX_SHARE = 0.5
"""The margin never takes more than this share of the budget: the search always gets half of it."""
LATENCY_GAIN = 0.125
"""Weight of a new sample in the smoothed latency (RFC 6298's alpha, 1/8)."""
LATENCY_VAR_GAIN = 0.25
"""Weight of a new sample's deviation in the latency's mean deviation (RFC 6298's beta, 1/4)."""
LATENCY_VAR_FACTOR = 4.0
"""The estimate is the smoothed latency plus this many mean deviations (RFC 6298's K = 4)."""
LATENCY_INITIAL_S = 0.02
"""The latency assumed before the first answer is measured (seconds)."""


def stop_time(budget: float, latency_s: float) -> float:
    """The search's hard limit (seconds on the budget's clock) when a referee judges the answer: ``budget`` less
    ``MARGIN_SHARE * budget + latency_s``, the margin capped at ``MARGIN_MAX_SHARE * budget``.

    Args:
        budget: the per-move limit in seconds (above 0).
        latency_s: the expected seconds from the search's stop to the referee's receipt (:class:`LatencyEstimate`),
            at least 0.

    Raises:
        ValueError: a budget that is not above 0, or a negative latency.
    """
    if not budget > 0:
        raise ValueError(f"budget must be above 0 seconds, got {budget}")
    if not latency_s >= 0:
        raise ValueError(f"latency must be at least 0 seconds, got {latency_s}")
    margin = min(MARGIN_MAX_SHARE * budget, MARGIN_SHARE * budget + latency_s)
    return budget - margin


class LatencyEstimate:
    """The latency from "search decided" to "referee received" as the referee learns it, one per agent process:
    the smoothed value plus four mean deviations, the retransmission timer of TCP (RFC 6298, "Computing TCP's
    Retransmission Timer", section 2: ``SRTT``, ``RTTVAR``, ``RTO = SRTT + 4 * RTTVAR``), so a scheduler that
    sometimes answers late raises the margin at once and a quiet spell lowers it slowly.

    A sample is the seconds the referee measured for an answer (on the clock it judges by) less the seconds the
    search spent up to its hard limit (``min(spent, stop)``: a search that ran past its own limit adds the
    overshoot to the sample).
    """

    def __init__(self, initial_s: float = LATENCY_INITIAL_S) -> None:
        if not initial_s >= 0:
            raise ValueError(f"initial latency must be at least 0 seconds, got {initial_s}")
        self._initial = initial_s
        self._mean: float | None = None
        self._dev = 0.0
        self._samples = 0

    @property
    def samples(self) -> int:
        """Samples taken so far."""
        return self._samples

    @property
    def value(self) -> float:
        """The estimate in seconds (``mean + 4 * deviation``; the initial value before any sample), at least 0."""
        if self._mean is None:
            return self._initial
        return max(0.0, self._mean + LATENCY_VAR_FACTOR * self._dev)

    def update(self, sample_s: float) -> None:
        """Take one sample (seconds; a negative one, an answer quicker than the search's own clock said, counts as
        0). The first sets the mean to it and the deviation to half of it (RFC 6298 2.2); later ones move the
        deviation by :data:`LATENCY_VAR_GAIN` of its difference and the mean by :data:`LATENCY_GAIN` (2.3).

        Raises:
            ValueError: a sample that is not a finite number.
        """
        if not math.isfinite(sample_s):
            raise ValueError(f"a latency sample must be a finite number of seconds, got {sample_s}")
        x = max(0.0, sample_s)
        if self._mean is None:
            self._mean, self._dev = x, x / 2
        else:
            self._dev = (1 - LATENCY_VAR_GAIN) * self._dev + LATENCY_VAR_GAIN * abs(self._mean - x)
            self._mean = (1 - LATENCY_GAIN) * self._mean + LATENCY_GAIN * x
        self._samples += 1


def latency_sample(judged_s: float, spent_s: float, stop_s: float) -> float:
    """One :class:`LatencyEstimate` sample: ``judged_s`` (the referee's measure of the answer) less
    ``min(spent_s, stop_s)`` (the search's seconds on the same clock, up to its hard limit ``stop_s``)."""
    return judged_s - min(spent_s, stop_s)
