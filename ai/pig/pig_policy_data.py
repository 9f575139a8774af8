"""The optimal Pig policy as data for a picture: the hold boundary, the win probabilities, an agent's differences.

Source: T. W. Neller and C. G. M. Presser, "Optimal Play of the Dice Game Pig", *The UMAP Journal* 25(1), 2004,
who drew the optimal policy as the surface of the turn totals at which to hold over both banked scores. The
numbers come from the exact table of :mod:`ai.pig.pig_optimal` (the same equations, solved exactly), never from the
paper.

* :func:`hold_boundary`: for banked scores ``(i, j)`` (own, opponent's), the smallest turn total ``k >= 1`` at
  which the optimal player holds, or ``None`` when it never holds below the target (it rolls on until
  ``i + k`` reaches it). The policy is not always one threshold: in 2,503 of the 10,000 score pairs it rolls
  again at some turn totals above the boundary, mostly close to the target; one published example is
  ``(41, 49)``, hold from 22 but roll once more at 27 (:func:`hold_ranges` lists them).
* :func:`policy_map`: the whole picture: the boundary and ``P(i, j, 0)`` for every score pair, and, for an agent
  (the default ``expectimax``), its own boundary found by asking it position by position (each score pair from
  turn total 1 up to its first hold: about 260,000 searches, 10-20 s in CPython), and the pairs where the two
  differ.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ai.pig.pig_optimal import PigTable, load_table

Boundary = tuple[tuple[int | None, ...], ...]
"""``boundary[i][j]``: the turn total at which to hold with own score ``i`` and opponent's ``j`` (``None``: never
below the target)."""
HoldFn = Callable[[int, int, int], bool]
"""``holds(own, opp, turn) -> bool`` (:data:`ai.pig.pig_agents.HoldRule`)."""


class PolicyCancelled(Exception):
    """:func:`policy_map` was cancelled through its stop event."""


def first_hold(holds: HoldFn, i: int, j: int, target: int) -> int | None:
    """The smallest turn total ``k`` in ``1 .. target - i - 1`` with ``holds(i, j, k)``, or ``None``."""
    for k in range(1, target - i):
        if holds(i, j, k):
            return k
    return None


def hold_boundary(table: PigTable, i: int, j: int) -> int | None:
    """The optimal hold boundary at banked scores ``(i, j)``: the smallest turn total at which the optimal
    player holds (:meth:`ai.pig.pig_optimal.PigTable.holds`), ``None`` when it rolls until reaching the target.

    Raises:
        ValueError: a score outside ``0 .. target - 1``.
    """
    if not (0 <= i < table.target and 0 <= j < table.target):
        raise ValueError(f"scores must be in 0..{table.target - 1}, got ({i}, {j})")
    return first_hold(table.holds, i, j, table.target)


def hold_ranges(table: PigTable, i: int, j: int) -> list[tuple[int, int]]:
    """The turn totals at which the optimal player holds at ``(i, j)``, as inclusive ranges ``(first, last)``
    (one range when the policy is a single threshold; ``[]`` when it never holds)."""
    out: list[tuple[int, int]] = []
    for k in range(1, table.target - i):
        if table.holds(i, j, k):
            if out and out[-1][1] == k - 1:
                out[-1] = (out[-1][0], k)
            else:
                out.append((k, k))
    return out


@dataclass(frozen=True)
class PolicyMap:
    """The optimal policy's picture data (target points, square grids indexed ``[own][opponent]``)."""

    target: int
    boundary: Boundary
    """Optimal hold boundary (:func:`hold_boundary`)."""
    win: tuple[tuple[float, ...], ...]
    """``P(i, j, 0)``: the win probability of the player about to start a turn."""
    agent: str | None
    """The agent compared (its spec), or ``None``."""
    agent_boundary: Boundary | None
    """The agent's hold boundary, asked position by position."""
    disagreements: tuple[tuple[int, int], ...]
    """Score pairs ``(i, j)`` where the agent's boundary differs from the optimal one."""
    not_threshold: int = 0
    """Score pairs where the optimal player, having reached its boundary, still rolls at some higher turn total."""

    @property
    def first_player_win(self) -> float:
        """``P(0, 0, 0)``: 0.530593 for target 100 (Neller and Presser 2004)."""
        return self.win[0][0]


def policy_map(agent: str | None = "expectimax", target: int = 100, *, stop: threading.Event | None = None,
               progress: Callable[[int, int], None] | None = None, table: PigTable | None = None) -> PolicyMap:
    """The optimal boundary, the win probabilities and (for ``agent``) its boundary and differences.

    Args:
        agent: a Pig agent spec whose policy is compared (``expectimax``, ``optimal:weights=hold20``, ...;
            see :func:`ai.pig.pig_agents.hold_rule`), or ``None`` for none.
        target: points to win (100: the profile's game; the agent is built for the 100-point game).
        stop: set it to cancel (then :class:`PolicyCancelled`).
        progress: ``progress(done, total)`` in own scores ``i`` while the agent is asked.
        table: the optimal table (default :func:`ai.pig.pig_optimal.load_table` for ``target``).

    Raises:
        AgentError: an agent without a fixed policy (human, random, MCTS) or a bad spec.
        PolicyCancelled: ``stop`` was set.
    """
    t = table if table is not None else load_table(target)
    tg = t.target
    boundary = tuple(tuple(hold_boundary(t, i, j) for j in range(tg)) for i in range(tg))
    win = tuple(tuple(t.win(i, j, 0) for j in range(tg)) for i in range(tg))
    pockets = sum(1 for i in range(tg) for j in range(tg) if boundary[i][j] is not None
                  and not all(t.holds(i, j, k) for k in range(boundary[i][j] or 0, tg - i)))
    if agent is None:
        return PolicyMap(tg, boundary, win, None, None, (), pockets)
    from ai.agents.agents import make_agent
    from ai.pig.pig_agents import hold_rule
    rule: Any = hold_rule(make_agent("pig", agent))
    rows: list[tuple[int | None, ...]] = []
    for i in range(tg):
        if stop is not None and stop.is_set():
            raise PolicyCancelled(agent)
        rows.append(tuple(first_hold(rule, i, j, tg) for j in range(tg)))
        if progress is not None:
            progress(i + 1, tg)
    theirs = tuple(rows)
    diff = tuple((i, j) for i in range(tg) for j in range(tg) if theirs[i][j] != boundary[i][j])
    return PolicyMap(tg, boundary, win, agent, theirs, diff, pockets)
