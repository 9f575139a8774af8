"""Iterative deepening with two-tier time control: the anytime loop shared by alpha-beta and expectimax.

Sources: iterative deepening as in Korf, "Depth-first iterative-deepening", *Artificial Intelligence* 27 (1985)
and AIMA 4th ed. section 3.4.4; two-tier time control as in Stockfish's ``timeman.cpp`` (a soft limit between
iterations, a hard limit checked every N nodes, the result of an interrupted iteration thrown away).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

from ai.core import SearchInfo, SearchLimits, SearchStopped


@dataclass(frozen=True)
class Iteration:
    """One completed iteration of iterative deepening."""

    depth: int
    """Depth of the iteration (plies, or decisions for expectimax)."""
    move: Any
    value: float
    pv: tuple[Any, ...]
    extra: Any = None
    """Whatever else the algorithm wants to keep from this iteration (e.g. expectimax's root values)."""
    nodes: int = 0
    """Nodes the search visited in this iteration alone (quiescence included)."""


def deepen(searcher: Any, max_depth: int, limits: SearchLimits,
           iterate: Callable[[int, Iteration | None], Iteration], proven: Callable[[Iteration], bool],
           on_info: Callable[[SearchInfo], None] | None, t0: float) -> tuple[list[Iteration], str]:
    """The anytime loop: depth 1, 2, ... until a limit.

    The soft limit (half the time budget) is checked between iterations, so no new iteration starts after it;
    the hard limit (the whole budget), the node budget and the cancel event are checked by the search every
    ``check_every`` nodes and interrupt the running iteration (``SearchStopped``), whose result is thrown away.
    The first iteration is never interrupted, so there is always a move from a completed iteration.

    When the searcher has a ``recorder`` (``ai.recording``), the loop tells it where each iteration begins and
    ends (``begin_iteration`` returns the observer the search calls during that iteration: the recorder or the
    do-nothing one), so what is recorded is always a whole, completed iteration and its own node count.

    Args:
        searcher: has ``deadline``, ``node_limit``, ``interruptible``, ``stop_event``, ``stats.nodes``,
            ``recorder`` (or ``None``) and ``rec`` (the observer in force).
        max_depth: the deepest iteration (plies or decisions).
        limits: time (seconds) and node budgets.
        iterate: runs one iteration ``(depth, previous iteration) -> Iteration``.
        proven: True when an iteration's value is final (deeper search cannot change it).
        on_info: progress callback after each completed iteration.
        t0: ``time.perf_counter()`` when the decision started.

    Returns:
        The completed iterations (each with its own node count; never empty) and why the loop stopped
        (``depth``, ``time``, ``nodes``, ``proven``, ``cancelled``).
    """
    hard = t0 + limits.time_s if limits.time_s is not None else None
    soft = t0 + limits.time_s * 0.5 if limits.time_s is not None else None
    done: list[Iteration] = []
    reason = "depth"
    recorder = searcher.recorder
    for d in range(1, max_depth + 1):
        searcher.deadline = hard
        searcher.node_limit = limits.nodes
        searcher.interruptible = bool(done)
        n0 = searcher.stats.nodes
        if recorder is not None:
            searcher.rec = recorder.begin_iteration(d, searcher)
        try:
            it = iterate(d, done[-1] if done else None)
        except SearchStopped as stop:
            if recorder is not None:
                recorder.end_iteration(d, searcher.stats.nodes - n0, completed=False)
            reason = str(stop)
            break
        nodes = searcher.stats.nodes - n0
        it = Iteration(it.depth, it.move, it.value, it.pv, it.extra, nodes)
        if recorder is not None:
            recorder.end_iteration(d, nodes, completed=True)
        done.append(it)
        if on_info is not None:
            on_info(SearchInfo(d, it.value, it.pv, searcher.stats.nodes, time.perf_counter() - t0, it.move, nodes))
        if proven(it):
            reason = "proven"
            break
        if searcher.stop_event is not None and searcher.stop_event.is_set():
            reason = "cancelled"
            break
        if soft is not None and time.perf_counter() >= soft:
            reason = "time"
            break
        if limits.nodes is not None and searcher.stats.nodes >= limits.nodes:
            reason = "nodes"
            break
    return done, reason


def iterations_json(done: list[Iteration], game: Any, state: Any) -> list[dict[str, Any]]:
    """The completed iterations as JSON-ready records ``{"depth", "nodes", "value", "move"}`` (moves in the
    game's notation at the root ``state``)."""
    def text(m: Any) -> str | None:
        if m is None:
            return None
        try:
            return str(game.format_move(state, m))
        except Exception:  # noqa: BLE001 - a label is never worth failing a search for
            return str(m)
    return [{"depth": it.depth, "nodes": it.nodes, "value": float(it.value) + 0.0, "move": text(it.move)}
            for it in done]
