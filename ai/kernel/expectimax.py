"""Expectiminimax over any game with chance nodes, with memoisation and iterative deepening.

Sources: expectiminimax as in Russell and Norvig, *AIMA* 4th ed., section 5.5 ("Stochastic games"); the
player-driven form of OpenSpiel's ``python/algorithms/expectiminimax.py``: a decision node is a MAX node when the
**root player is to move** there and a MIN node otherwise -- never by depth parity, since a Pig player decides
several times in a row. A chance node is the probability-weighted sum of its children (each probability is used
once: no double division as in some textbook code). Two-tier time control (a policy between iterations,
``ai.kernel.timeman``; a hard deadline every ``check_every`` nodes) as in Stockfish's ``timeman.cpp``; the move always
comes from the last completed iteration.

Units and conventions:
    * Depth counts **decisions** (plies where a player chooses); chance nodes do not count. At depth 0 a
      decision node is evaluated statically; a chance node is always expanded.
    * Values are from the point of view of the player to move at the root, in the evaluation's units. With the
      game's utilities (+1 win, -1 loss) and an evaluation inside ``[-1, 1]`` (as Pig's agents use), the value
      is an expected utility and the win probability is ``(value + 1) / 2`` (RULES.md, scoring).
    * Memoisation: the value of a ``(state, depth)`` pair does not depend on the path, so it is stored and kept
      across the iterations of one decision (a repeated pair is a "memo hit").

The ``chance="adversary"`` mode turns the search into plain minimax that treats the die as an **adversary of
the root player**: a chance node takes the outcome that is worst for the root player (the minimum of the
root player's values), whoever rolled. It is the classroom foil to expectimax: on Pig it never risks a turn
total (a 1 is always possible), so it holds as soon as it may, and it believes the opponent always rolls well.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple

from ai.kernel.core import (
    MAX_PLY,
    Interruptible,
    IterationRecorder,
    Recorder,
    SearchError,
    SearchInfo,
    SearchLimits,
    SearchResult,
)
from ai.kernel.deepen import Iteration, clock_json, deepen, iterations_json
from ai.kernel.recording import NULL_RECORDER
from ai.kernel.tt import EXACT
from gameplay.rules.base import Game, GameError, M, S

Evaluator = Callable[[S, int], float]
"""``evaluate(state, player) -> float``: heuristic value of a non-terminal decision ``state`` for ``player``."""


def require_stochastic(game: Game[Any, Any], algorithm: str = "expectimax") -> None:
    """Refuse a game without chance nodes.

    Raises:
        SearchError: the game is deterministic (its ``traits.stochastic`` is false).
    """
    if not game.traits.stochastic:
        raise SearchError(f"{algorithm} is for games with chance nodes (dice), such as pig; {game.name} has none: "
                          "use minimax or alphabeta")


@dataclass
class ExpectimaxStats:
    """Counters of one decision (all iterations)."""

    nodes: int = 0
    """States visited (decision, chance and leaf nodes; memo hits included)."""
    leaves: int = 0
    """Static evaluations at the depth limit."""
    terminals: int = 0
    """Finished positions scored by the game's utility."""
    memo_hits: int = 0
    """``(state, depth)`` pairs answered from the memo."""
    chance_nodes: int = 0
    """Chance nodes expanded."""


MemoKey = tuple[S, int]
"""A memo entry's key: ``(state, decisions left to search below it)`` (a plain pair: the key is built at every
node, and a pair is the cheapest hashable record)."""


_new_entry = tuple.__new__  # builds a MemoEntry without its Python-level constructor (once per node)


class MemoEntry(NamedTuple):
    """A memo entry: the value of a ``(state, depth)`` pair, for the root player."""

    value: float
    horizon: bool
    """True when the value rests on a depth-limit evaluation somewhere below (False: the game's own results)."""


class Expectimax(Interruptible, Generic[S, M]):
    """Depth-limited expectiminimax (or dice-as-adversary minimax) for one decision.

    Not thread-safe: one object per decision, run on one worker thread.

    Args:
        game: a game with chance nodes (``game.traits.stochastic``).
        evaluate: static evaluation ``evaluate(state, player)`` at the depth limit, in the agent's units.
        chance: ``"expect"`` (expectimax: probability-weighted sum) or ``"adversary"`` (minimax with the die as
            the root player's adversary: the minimum over outcomes).
        memo: remember the value of each ``(state, depth)`` pair (states must be hashable).
        terminal: ``terminal(state, player)`` value of a finished position; default ``game.utility``.
        stop_event: set it from another thread to cancel (checked every ``check_every`` nodes).
        recorder: optional tree observer (``ai.kernel.recording``): ``enter(state, move, alpha, beta, ply)`` and
            ``leave(value, flag, alpha, beta, note=..., best_move=...)`` on every node, alpha/beta being
            ``-inf``/``inf`` (no pruning); the kind (MAX, MIN, CHANCE) follows from the game and the root player.
            Recording changes nothing in the search: a memo hit is recorded as a node with the note ``memo``.

    Raises:
        SearchError: the game has no chance nodes, or ``chance`` is not ``"expect"``/``"adversary"``.
    """

    check_every = 1024
    """Nodes between two checks of the hard deadline, the node budget and the cancel event."""
    memo_limit = 4_000_000
    """The memo is cleared when it grows beyond this many entries (memory bound)."""

    def __init__(self, game: Game[S, M], evaluate: Evaluator[S], *, chance: str = "expect", memo: bool = True,
                 terminal: Evaluator[S] | None = None, stop_event: threading.Event | None = None,
                 recorder: IterationRecorder | None = None) -> None:
        if chance not in ("expect", "adversary"):
            raise SearchError(f"chance must be 'expect' or 'adversary', got {chance!r}")
        require_stochastic(game, "expectimax" if chance == "expect" else "minimax with the dice as adversary")
        self.game = game
        self.evaluate = evaluate
        self.adversary = chance == "adversary"
        self.terminal = terminal if terminal is not None else game.utility
        self.stop_event = stop_event
        self.recorder = recorder
        self.rec: Recorder = NULL_RECORDER if recorder is None else recorder
        """The observer called at every node (the do-nothing one unless this iteration records)."""
        self.memo: dict[MemoKey[S], MemoEntry] | None = {} if memo else None
        self.stats: ExpectimaxStats = ExpectimaxStats()
        self.hit_horizon = False
        self.root_player = 0

    # -- stopping -------------------------------------------------------------------------------------------
    # -- the recursion --------------------------------------------------------------------------------------------
    def value(self, state: S, depth: int, ply: int = 0, move: M | None = None, prob: float | None = None) -> float:
        """Value of ``state`` for the root player with ``depth`` decisions left.

        Args:
            state: any state (decision, chance or terminal).
            depth: decisions left before the static evaluation (chance nodes do not count).
            ply: distance from the root (for the recorder).
            move: the move or outcome that led here (for the recorder).
            prob: the probability of that outcome when the parent is a chance node (for the recorder).

        Raises:
            SearchStopped: the hard deadline passed, the node budget ran out, or the search was cancelled.
        """
        st = self.stats
        st.nodes += 1
        if st.nodes % self.check_every == 0:
            self._check_stop()
        rec = self.rec
        rec.enter(state, move, -math.inf, math.inf, ply, probability=prob)
        memo = self.memo
        key = (state, depth)
        if memo is not None:
            hit = memo.get(key)
            if hit is not None:
                st.memo_hits += 1
                if hit.horizon:
                    self.hit_horizon = True
                rec.leave(hit.value, EXACT, -math.inf, math.inf, note="memo")
                return hit.value
        game = self.game
        horizon_before = self.hit_horizon
        self.hit_horizon = False
        note = ""
        best_move: M | None = None
        if game.is_terminal(state):
            st.terminals += 1
            v = self.terminal(state, self.root_player)
            note = "terminal"
        elif game.is_chance(state):
            st.chance_nodes += 1
            succ = game.successor
            if self.adversary:
                v = math.inf
                for o, p in game.chance_outcomes(state):
                    c = self.value(succ(state, o), depth, ply + 1, o, p)
                    if c < v:
                        v, best_move = c, o
            else:
                v = 0.0
                for o, p in game.chance_outcomes(state):
                    v += p * self.value(succ(state, o), depth, ply + 1, o, p)
            note = ""
        elif depth <= 0:
            st.leaves += 1
            self.hit_horizon = True
            v = self.evaluate(state, self.root_player)
            note = "leaf"
        else:
            succ = game.successor
            maximize = game.to_move(state) == self.root_player
            v = -math.inf if maximize else math.inf
            for m in game.actions(state):
                c = self.value(succ(state, m), depth - 1, ply + 1, m)
                if (c > v) if maximize else (c < v):
                    v, best_move = c, m
        horizon = self.hit_horizon
        self.hit_horizon = horizon_before or horizon
        if memo is not None:
            if len(memo) >= self.memo_limit:
                memo.clear()
            memo[key] = _new_entry(MemoEntry, (v, horizon))
        rec.leave(v, EXACT, -math.inf, math.inf, note=note, best_move=best_move)
        return v

    def search_root(self, state: S, depth: int) -> tuple[M, float, dict[M, float]]:
        """One iteration at ``depth`` decisions: (best move, its value, value of every root move).

        Ties go to the move listed first by ``game.actions``.

        Raises:
            SearchStopped: interrupted (the caller drops the iteration).
            GameError: ``state`` is over or a chance node (nobody decides there).
        """
        game = self.game
        if game.is_chance(state):
            raise GameError("the position is a chance node: the die decides (the referee samples it), "
                            "there is no move to choose")
        moves = list(game.actions(state))
        if not moves:
            raise GameError("the position is over: there is no move to choose")
        self.root_player = game.to_move(state)
        self.hit_horizon = False
        rec = self.rec
        self.stats.nodes += 1
        rec.enter(state, None, -math.inf, math.inf, 0)
        values: dict[M, float] = {}
        best_move, best = moves[0], -math.inf
        for m in moves:
            v = self.value(game.successor(state, m), depth - 1, 1, m)
            values[m] = v
            if v > best:
                best, best_move = v, m
        rec.leave(best, EXACT, -math.inf, math.inf, best_move=best_move)
        return best_move, best, values


def iterative_expectimax(game: Game[S, M], state: S, searcher: Expectimax[S, M], limits: SearchLimits,
                         on_info: Callable[[SearchInfo], None] | None = None, *,
                         win_probability: bool = True, max_depth: int | None = None) -> SearchResult:
    """Anytime expectimax: depth 1, 2, ... decisions until a limit; the move of the last completed iteration.

    Depth 1 always completes (it is never interrupted, even by the cancel event), so a legal move comes back
    even with a 1 ms budget. After it, the time policy (``limits.timeman``, :mod:`ai.kernel.timeman`) is asked
    between iterations and the hard limit (the whole budget), the node budget and the cancel event every
    ``searcher.check_every`` nodes; an interrupted iteration is thrown away. The search also stops when an
    iteration reached no depth limit anywhere (the value is then exact: ``stop_reason == "proven"``,
    ``outcome`` stays ``None`` as the value is an expectation). With no depth and no time it searches until
    that happens (finite trees only).

    Args:
        game: the game (with chance nodes).
        state: the root position: a decision node, not over.
        searcher: a configured :class:`Expectimax` (its memo is kept across iterations).
        limits: depth (decisions), time (seconds), nodes.
        on_info: called with a :class:`SearchInfo` after each completed iteration (on the caller's thread).
        win_probability: add ``extra["win_probability"] = (value + 1) / 2`` (values in ``[-1, 1]`` units).
        max_depth: cap on the depth when ``limits.depth`` is ``None`` (default ``MAX_PLY``).

    Returns:
        A :class:`SearchResult`; ``extra`` holds ``values`` (root move -> value), ``win_probability`` (if asked),
        ``memo_hits``, ``leaves``, ``chance_nodes`` and ``algorithm``.

    Raises:
        GameError: the position is over or a chance node.
    """
    t0 = time.perf_counter()
    if game.is_chance(state):
        raise GameError("the position is a chance node: the die decides (the referee samples it), "
                        "there is no move to choose")
    if not game.actions(state):
        raise GameError("the position is over: there is no move to choose")
    top = limits.depth if limits.depth is not None else (max_depth if max_depth is not None else MAX_PLY)
    if top < 1:
        raise GameError(f"search depth must be at least 1 decision, got {top}")

    def iterate(d: int, prev: Iteration[M] | None) -> Iteration[M]:
        m, v, vals = searcher.search_root(state, d)
        return Iteration(d, m, v, (m,), vals)

    done, reason, spent, _ = deepen(searcher, top, limits, iterate, lambda it: not searcher.hit_horizon, on_info, t0)
    last = done[-1]  # the first iteration always completes
    best_move, value, values, completed = last.move, last.value, last.extra, last.depth
    value = float(value) + 0.0
    st = searcher.stats
    extra: dict[str, Any] = {"values": dict(values or {}), "memo_hits": st.memo_hits, "leaves": st.leaves,
                             "chance_nodes": st.chance_nodes,
                             "iterations": iterations_json(done, game, state),
                             "algorithm": "minimax-dice-adversary" if searcher.adversary else "expectimax",
                             **clock_json(limits, spent)}
    if win_probability:
        extra["win_probability"] = min(1.0, max(0.0, (value + 1.0) / 2.0))
    return SearchResult(best_move, value, None, None, completed, st.nodes, (best_move,),
                        time.perf_counter() - t0, reason, extra)


def expectimax(game: Game[S, M], state: S, depth: int, evaluate: Evaluator[S], *, chance: str = "expect",
               memo: bool = True) -> tuple[float, M]:
    """One fixed-depth search without time control: ``(value for the player to move, best move)``.

    Args:
        game: a game with chance nodes.
        state: a decision node, not over.
        depth: decisions (>= 1).
        evaluate: static evaluation at the depth limit.
        chance: ``"expect"`` or ``"adversary"`` (see :class:`Expectimax`).
        memo: memoise ``(state, depth)`` pairs.

    Raises:
        SearchError: the game has no chance nodes.
        GameError: the position is over or a chance node, or ``depth < 1``.
    """
    if depth < 1:
        raise GameError(f"search depth must be at least 1 decision, got {depth}")
    s = Expectimax(game, evaluate, chance=chance, memo=memo)
    m, v, _ = s.search_root(state, depth)
    return v, m
