"""Iterative deepening with two-tier time control: the anytime loop shared by alpha-beta and expectimax, and
alpha-beta's driver around it (:func:`iterative_deepening`, re-exported by ``ai.kernel.search``).

Sources: iterative deepening as in Korf, "Depth-first iterative-deepening", *Artificial Intelligence* 27 (1985)
and AIMA 4th ed. section 3.4.4; two-tier time control as in Stockfish's ``timeman.cpp`` and ``search.cpp`` (a
policy between iterations, :mod:`ai.kernel.timeman`; a hard limit checked every N nodes; the result of an interrupted
iteration thrown away).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Callable, Generic, Hashable, Protocol, TypeVar

from ai.kernel.collector import collector_paused
from ai.kernel.core import (
    MATE_BOUND,
    MAX_PLY,
    WIN,
    IterationRecorder,
    NodeCounter,
    RecordedSearch,
    SearchInfo,
    SearchLimits,
    SearchResult,
    SearchStopped,
    StopReason,
    classify,
)
from ai.kernel.search_options import SearchOptions
from ai.kernel.timeman import Clock, Step, clock_of, policy
from gameplay.rules.base import Game, GameError, M, S

S_contra = TypeVar("S_contra", bound=Hashable, contravariant=True)


@dataclass(frozen=True)
class Iteration(Generic[M]):
    """One completed iteration of iterative deepening (moves of type ``M``)."""

    depth: int
    """Depth of the iteration (plies, or decisions for expectimax)."""
    move: M
    """The iteration's best root move."""
    value: float
    pv: tuple[M, ...]
    extra: Mapping[M, float] | None = None
    """The value of every root move, when the algorithm keeps them (expectimax)."""
    nodes: int = 0
    """Nodes the search visited in this iteration alone (quiescence included)."""


class AnytimeSearch(RecordedSearch, Protocol):
    """What the anytime loop (:func:`deepen`) calls and reads on a search (``ai.kernel.search.Searcher``,
    ``ai.kernel.expectimax.Expectimax``): the stop test it starts and arms (``ai.kernel.core.Interruptible``, checked
    every ``check_every`` nodes), its counters, its recorder and the observer slot ``rec`` the loop fills for each
    iteration."""

    def start_budget(self, clock: Callable[[], float], started: float, time_budget_s: float | None,
                     node_limit: int | None) -> None:
        """Start the decision's budget (the deadline is ``started + time_budget_s`` on ``clock``)."""
        ...

    def set_interruptible(self, interruptible: bool) -> None:
        """Whether the running iteration may be stopped (the first may not: there is always a move)."""
        ...

    @property
    def stop_event(self) -> threading.Event | None:
        """The cancel event, or ``None``."""
        ...

    @property
    def recorder(self) -> IterationRecorder | None:
        """The decision's recorder, or ``None``."""
        ...


class SearchCounters(NodeCounter, Protocol):
    """Alpha-beta's counters as :func:`iterative_deepening` reports them."""

    def figures(self) -> dict[str, int]:
        """The counters for ``SearchResult.extra`` (``cutoffs``, ``tt_hits``, ...)."""
        ...


class AlphaBetaSearch(AnytimeSearch, Protocol[S_contra, M]):
    """What :func:`iterative_deepening` calls and reads on alpha-beta's searcher (``ai.kernel.search.Searcher``)."""

    options: SearchOptions
    """The switches asked for (whether a shallower iteration teaches the deeper one anything: ordering, table)."""
    hit_horizon: bool
    """The last iteration's value rests on a depth-limit evaluation (or a draw by the search's own rule)."""
    hit_limit: bool
    """The last iteration stopped some line at the depth limit."""
    db_root: int | None
    """The endgame tables' verdict on the root (+1, 0, -1), or ``None``."""
    root_partial: tuple[M, float, int] | None
    """The running iteration's best root move proved so far: ``(move, value, root moves searched)``, or ``None``."""

    @property
    def stats(self) -> SearchCounters:
        """The search's counters."""
        ...

    def search_root(self, state: S_contra, depth: int, prev_best: M | None = None,
                    prev_value: float | None = None) -> tuple[M, float, tuple[M, ...]]:
        """One iteration: ``(best move, value, principal variation)``."""
        ...

    def pv_from_tt(self, state: S_contra, first: M, max_len: int = 32) -> tuple[M, ...]:
        """The principal variation: ``first``, then the table's best moves."""
        ...


def deepen(searcher: AnytimeSearch, max_depth: int, limits: SearchLimits,
           iterate: Callable[[int, Iteration[M] | None], Iteration[M]], proven: Callable[[Iteration[M]], bool],
           on_info: Callable[[SearchInfo], None] | None, t0: float,
           salvage: Callable[[int, Iteration[M]], Iteration[M] | None] | None = None, one_pass: bool = False
           ) -> tuple[list[Iteration[M]], StopReason, float, Iteration[M] | None]:
    """The anytime loop: depth 1, 2, ... until a limit (``one_pass``: depth 1, then ``max_depth`` at once).

    Between iterations the time policy (``ai.kernel.timeman``, chosen by ``limits.timeman``) decides whether another
    one starts: with ``timeman`` off none starts after half the budget; with it on none starts after a target
    time that grows when the best move changes or the score falls, nor when it is predicted to end past the
    budget. The hard limit (the whole budget), the node budget and the cancel event are checked by the search
    every ``check_every`` nodes and interrupt the running iteration (``SearchStopped``), whose result is thrown
    away, unless ``limits.partial`` and ``salvage`` finds in it a root move proved better than the last completed
    iteration's. The first iteration is never interrupted, so there is always a move from a completed iteration. The
    budget is measured on ``limits.clock`` (wall time, or the CPU time of this thread, which must be the one
    searching), and so is the search's deadline check (the loop starts it: ``searcher.start_budget``); when a
    referee judges the answer (``limits.latency_s``), the budget is the one less the margin
    (``SearchLimits.stop_s``). Python's garbage collector is paused meanwhile
    (:func:`ai.kernel.collector.collector_paused`).

    When the searcher has a ``recorder`` (``ai.kernel.recording``), the loop tells it where each iteration begins and
    ends (``begin_iteration`` returns the observer the search calls during that iteration: the recorder or the
    do-nothing one), so what is recorded is always a whole, completed iteration and its own node count.

    Args:
        searcher: the search (:class:`AnytimeSearch`).
        max_depth: the deepest iteration (plies or decisions).
        limits: the time budget (seconds), its clock and policy, and the node budget.
        iterate: runs one iteration ``(depth, previous iteration) -> Iteration``.
        proven: True when an iteration's value is final (deeper search cannot change it).
        on_info: progress callback after each completed iteration.
        t0: ``time.perf_counter()`` when the decision started.
        salvage: with ``limits.partial``, called ``(depth, last completed iteration)`` when the budget stops an
            iteration: what it proved (an :class:`Iteration` of that depth whose move differs from the completed
            one's), or ``None``.
        one_pass: after depth 1 (never interrupted: there is always a move), one pass at ``max_depth`` instead of
            every depth in between (the cancel event, a deadline or the node budget can still stop it; then the
            move is depth 1's).

    Returns:
        The completed iterations (each with its own node count; never empty), why the loop stopped
        (:class:`StopReason`: ``depth``, ``time``, ``nodes``, ``proven``, ``cancelled``), the seconds spent on the
        budget's clock, and
        the stopped iteration's proved result from ``salvage`` (``None`` without one; never after a cancel).

    Raises:
        ValueError: an unknown ``limits.clock``.
    """
    with collector_paused():  # no full garbage collection inside the search (ai.kernel.collector)
        clock = clock_of(limits.clock)
        c0 = t0 if limits.clock == Clock.WALL else clock()
        hard = limits.stop_s()  # the budget, less the margin when a referee waits (ai.kernel.timeman.stop_time)
        searcher.start_budget(clock, c0, hard, limits.nodes)
        rule = policy(hard, limits.timeman, limits.unit, limits.partial and salvage is not None) \
            if hard is not None else None
        steps: list[Step] = []
        done: list[Iteration[M]] = []
        partial: Iteration[M] | None = None
        reason = StopReason.DEPTH
        recorder = searcher.recorder
        for d in ((1, max_depth) if one_pass and max_depth > 1 else range(1, max_depth + 1)):
            searcher.set_interruptible(bool(done))
            n0 = searcher.stats.nodes
            i0 = clock()
            if recorder is not None:
                searcher.rec = recorder.begin_iteration(d, searcher)
            try:
                it = iterate(d, done[-1] if done else None)
            except SearchStopped as stop:
                nodes = searcher.stats.nodes - n0
                if recorder is not None:
                    recorder.end_iteration(d, nodes, completed=False)
                reason = stop.reason
                if limits.partial and salvage is not None and reason != StopReason.CANCELLED:
                    partial = salvage(d, done[-1])
                    if partial is not None:
                        partial = Iteration(d, partial.move, partial.value, partial.pv, partial.extra, nodes)
                break
            nodes = searcher.stats.nodes - n0
            it = Iteration(it.depth, it.move, it.value, it.pv, it.extra, nodes)
            if recorder is not None:
                recorder.end_iteration(d, nodes, completed=True)
            done.append(it)
            now = clock()
            steps.append(Step(now - i0, float(it.value), it.move))
            if on_info is not None:
                on_info(SearchInfo(d, it.value, it.pv, searcher.stats.nodes, time.perf_counter() - t0, it.move, nodes))
            if proven(it):
                reason = StopReason.PROVEN
                break
            if searcher.stop_event is not None and searcher.stop_event.is_set():
                reason = StopReason.CANCELLED
                break
            if rule is not None and not rule.go_on(now - c0, steps):
                reason = StopReason.TIME
                break
            if limits.nodes is not None and searcher.stats.nodes >= limits.nodes:
                reason = StopReason.NODES
                break
        return done, reason, clock() - c0, partial


def clock_json(limits: SearchLimits, spent: float) -> dict[str, Any]:
    """The time control of a decision for ``SearchResult.extra``: ``clock`` (``wall``/``cpu``), ``clock_s``
    (seconds spent on that clock), ``stop_s`` (the search's hard limit on that clock: the budget, less the margin
    when a referee judges the answer, ``SearchLimits.stop_s``), ``timeman`` (True:
    ``ai.kernel.timeman.TimeManager``); empty without a time budget."""
    stop = limits.stop_s()
    if stop is None:
        return {}
    return {"clock": str(limits.clock), "clock_s": spent, "stop_s": stop, "timeman": limits.timeman}


def iterations_json(done: Sequence[Iteration[M]], game: Game[S, M], state: S) -> list[dict[str, Any]]:
    """The completed iterations as JSON-ready records ``{"depth", "nodes", "value", "move"}`` (moves in the
    game's notation at the root ``state``)."""
    def text(m: M | None) -> str | None:
        if m is None:
            return None
        try:
            return str(game.format_move(state, m))
        except Exception:  # noqa: BLE001 - a label is never worth failing a search for
            return str(m)
    return [{"depth": it.depth, "nodes": it.nodes, "value": float(it.value) + 0.0, "move": text(it.move)}
            for it in done]


def iterative_deepening(game: Game[S, M], state: S, searcher: AlphaBetaSearch[S, M], limits: SearchLimits,
                        on_info: Callable[[SearchInfo], None] | None = None) -> SearchResult:
    """Anytime search: depth 1, 2, ... until a limit, returning the move of the last completed iteration (with
    ``limits.partial``, a root move the stopped iteration proved better, when there is one).

    Plain minimax as the textbook writes it: with neither a time budget nor a node budget, and with nothing a
    shallower iteration could teach a deeper one (no move ordering, no transposition table: ``minimax``, or
    ``alphabeta:ordering=off,tt=off``), the search is one pass at ``limits.depth`` (AIMA's MINIMAX-SEARCH to the
    depth limit, or to the end of the game when the depth is the game's plies left) instead of deepening one ply at
    a time: the same value, about half the nodes on tic-tac-toe. A depth-1 pass comes first (a few nodes), so that a
    cancel during the long pass still leaves a move. Among equally good moves a seeded agent's
    shuffle is then its first one (deepening used the last iteration's), so a seed may pick another of them.

    Time control as in :func:`ai.kernel.deepen.deepen`: depth 1 always completes, so a legal move comes back even with
    a 1 ms budget. The search also stops early when the value is proven (a forced win or loss within the depth,
    or every line reaching the end of the game).

    Args:
        game: the game.
        state: the root position (not over); its history (repetitions, the 80-ply counter) is the game's.
        searcher: a configured :class:`ai.kernel.search.Searcher` (its table, if any, is kept across iterations).
        limits: depth (plies), time budget (seconds), nodes.
        on_info: called with a :class:`SearchInfo` after each completed iteration.

    Returns:
        The :class:`SearchResult`; ``extra`` holds ``cutoffs``, ``tt_hits``, ``leaves``, ``qnodes`` and
        ``iterations`` (depth, nodes, value and move of each completed iteration); when the move came from a
        stopped iteration, ``partial`` (its ``depth``, ``nodes``, ``value``, ``move``, and the ``root_moves``
        searched ``of`` all of them). ``depth`` stays the deepest completed iteration's.

    Raises:
        GameError: the position is over (no move to choose) or the depth is below 1.
    """
    t0 = time.perf_counter()
    if not game.actions(state):
        raise GameError("the position is over: there is no move to choose")
    max_depth = limits.depth if limits.depth is not None else MAX_PLY
    if max_depth < 1:
        raise GameError(f"search depth must be at least 1 ply, got {max_depth}")

    def iterate(d: int, prev: Iteration[M] | None) -> Iteration[M]:
        m, v, p = searcher.search_root(state, d, prev.move if prev else None, prev.value if prev else None)
        return Iteration(d, m, v, p)

    def salvage(d: int, last: Iteration[M]) -> Iteration[M] | None:
        got = searcher.root_partial
        if got is None or got[0] == last.move:
            return None  # nothing proved, or the same move as the completed iteration's
        return Iteration(d, got[0], got[1], searcher.pv_from_tt(state, got[0]))

    def proven(it: Iteration[M]) -> bool:
        # a forced win or loss inside the depth, or no line reached the depth limit
        # ... or no line stopped at the depth limit (the tables or the end of the game settled every one)
        return ((abs(it.value) >= MATE_BOUND and WIN - abs(it.value) <= it.depth) or not searcher.hit_horizon
                or not searcher.hit_limit)

    one_pass = (limits.time_budget_s is None and limits.nodes is None
                and not (searcher.options.ordering or searcher.options.tt))
    done, reason, spent, partial = deepen(searcher, max_depth, limits, iterate, proven, on_info, t0, salvage,
                                          one_pass)
    last = done[-1] if partial is None else partial
    best_move, value, pv, completed = last.move, last.value, last.pv, done[-1].depth
    proven_draw = reason == StopReason.PROVEN and not searcher.hit_horizon and value == 0
    value = float(value) + 0.0  # no -0.0 in reports
    outcome, plies = classify(value)
    if outcome is None and proven_draw:
        outcome, plies = "draw", None
    if outcome is None and searcher.db_root is not None:  # the tables decide the root (not by a search proof)
        outcome, plies = {1: "win", 0: "draw", -1: "loss"}[searcher.db_root], None
    if outcome == "draw" and plies is None:
        plies = _draw_length(game, state, pv)
    st = searcher.stats
    extra: dict[str, Any] = dict(st.figures())
    extra["iterations"] = iterations_json(done, game, state)
    if partial is not None:
        moves_done = searcher.root_partial[2] if searcher.root_partial is not None else 0
        extra["partial"] = {**iterations_json([partial], game, state)[0], "root_moves": moves_done,
                            "of": len(game.actions(state))}
    extra.update(clock_json(limits, spent))
    return SearchResult(best_move, value, outcome, plies, completed, st.nodes, pv,
                        time.perf_counter() - t0, reason, extra)


def _draw_length(game: Game[S, M], state: S, pv: Sequence[M]) -> int | None:
    """Plies along the principal variation to the end, when it reaches it."""
    s = state
    for i, m in enumerate(pv):
        try:
            s = game.result(s, m)
        except GameError:
            return None
        if game.is_terminal(s):
            return i + 1
    return None
