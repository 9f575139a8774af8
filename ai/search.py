"""Depth-limited game-tree search: minimax and alpha-beta in negamax form, under iterative deepening.

Sources: minimax and alpha-beta as in Russell and Norvig, *AIMA* 4th ed., section 5.2-5.3 (pruning on
``alpha >= beta`` by default, the AIMA pseudocode; ``prune="gt"`` gives the strict test some course autograders
use); negamax form after Knuth and Moore, "An analysis of alpha-beta pruning", *Artificial Intelligence* 6 (1975);
principal-variation search (Marsland and Campbell 1982); killer moves (Akl and Newborn 1977) and the history
heuristic (Schaeffer 1989); repetitions as in Stockfish's ``position.cpp``: a position that repeats one on the
search path (the root included) is a draw at once, one that repeats a position from before the root only when
that makes the game's own third occurrence (the rules then end the game).

The kernel is :meth:`Searcher.negamax`, which reads line by line like AIMA's ALPHA-BETA-SEARCH in negamax form;
each addition around it (transposition table, move ordering, principal-variation search, quiescence, the
recorder) is a separate, switchable step in its own method or module. The shared types live in ``ai.core``,
the anytime loop in ``ai.deepen``, the table in ``ai.tt``.

Values are from the point of view of the side to move at the node (negamax); scores as in ``ai.core``.
"""

from __future__ import annotations

import math
import random
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Sequence

from ai.core import (
    HEURISTIC_BOUND,
    MATE_BOUND,
    MAX_PLY,
    WIN,
    Interruptible,
    SearchError,
    SearchInfo,
    SearchLimits,
    SearchResult,
    SearchStopped,
    classify,
    require_deterministic,
)
from ai.deepen import Iteration, deepen, iterations_json
from ai.recording import NULL_RECORDER
from ai.tt import EXACT, LOWER, UPPER, TranspositionTable, TTEntry
from gameplay.rules.base import Game, GameError

__all__ = [
    "EXACT", "HEURISTIC_BOUND", "LOWER", "MATE_BOUND", "MAX_PLY", "UPPER", "WIN", "Evaluator", "Iteration",
    "SearchError", "SearchInfo", "SearchLimits", "SearchResult", "SearchStats", "SearchStopped", "Searcher",
    "TranspositionTable", "classify", "deepen", "iterative_deepening", "require_deterministic",
]

Evaluator = Callable[[Any, int], float]
"""``evaluate(state, player) -> float``: heuristic value of a non-terminal ``state`` for ``player``."""

_next_up = math.nextafter
_new_entry = tuple.__new__  # builds a TTEntry without its Python-level constructor (the hot path)


@dataclass
class SearchStats:
    """Counters of one search (all iterations)."""

    nodes: int = 0
    """Nodes visited: the root, every negamax node and every quiescence node."""
    leaves: int = 0
    """Depth-limit evaluations and finished positions."""
    cutoffs: int = 0
    tt_hits: int = 0
    """Nodes answered from the transposition table."""
    qnodes: int = 0
    """Quiescence nodes (included in ``nodes``)."""


class Searcher(Interruptible):
    """Alpha-beta (or plain minimax) over any deterministic two-player zero-sum :class:`Game`.

    One object per decision; not thread-safe (run it on one worker thread). All features are switches so a
    teacher can turn each on and off and compare node counts. The game's ``traits`` say which apply: a static
    ordering key (``move_order``), compulsory captures (quiescence has no stand-pat then), repetitions
    (``repetition``: the search path is tracked and the table keyed with the draw history), whether a move
    means the same everywhere (``global_moves``: killer moves and the history heuristic), and whether terminal
    utilities are game results scored by distance (``proven_terminals``).

    Args:
        game: the game (its ``traits`` must be deterministic).
        evaluate: static evaluation ``evaluate(state, player)`` used at the depth limit, in the agent's units
            (clamped into ``[-HEURISTIC_BOUND, HEURISTIC_BOUND]``: a heuristic never reads as a proof).
        pruning: False gives plain minimax (every node searched); True gives alpha-beta.
        prune: ``"ge"`` cuts when alpha >= beta (AIMA), ``"gt"`` only when alpha > beta.
        ordering: hash move first, the game's static order key (captures first), killers, history.
        tt: a :class:`TranspositionTable` to use and fill, True for a new one, ``None``/False for none.
        quiescence: extend the depth limit with captures (``order_key > 0``) until quiet.
        stop_event: set it from another thread to cancel (checked every ``check_every`` nodes).
        recorder: an optional tree recorder (``ai.recording``); recording never changes what is searched.
        pvs: principal-variation search (null-window tests of the later moves); used with pruning, ordering
            and the ``ge`` rule.
        order_key: a static ordering key ``(state, move) -> float`` replacing the game's (the Tree Lab's).

    Raises:
        SearchError: the game has chance nodes, or ``prune`` is not ``"ge"``/``"gt"``.
    """

    check_every = 1024
    """Nodes between two checks of the hard deadline, the node budget and the cancel event."""

    def __init__(self, game: Game[Any, Any], evaluate: Evaluator, *, pruning: bool = True, prune: str = "ge",
                 ordering: bool = True, tt: TranspositionTable | bool | None = None,
                 quiescence: bool = False, stop_event: threading.Event | None = None,
                 recorder: Any = None, pvs: bool = True,
                 order_key: Callable[[Any, Any], float] | None = None) -> None:
        require_deterministic(game, "alpha-beta" if pruning else "minimax")
        if prune not in ("ge", "gt"):
            raise SearchError(f"prune must be 'ge' or 'gt', got {prune!r}")
        traits = game.traits
        self.game = game
        self.evaluate = evaluate
        self.pruning = pruning
        self.strict = prune == "gt"
        self.ordering = ordering
        if not (tt is None or isinstance(tt, (bool, TranspositionTable))):
            raise SearchError(f"tt must be a TranspositionTable, True or None, got {type(tt).__name__}")
        self.tt: TranspositionTable | None = (TranspositionTable() if tt is True
                                              else tt if isinstance(tt, TranspositionTable) else None)
        self.order_key = order_key if order_key is not None else (game.order_key if traits.move_order else None)
        self.quiescence = quiescence and self.order_key is not None
        self.forced_noisy = traits.compulsory_captures
        self.pvs = pvs and pruning and ordering and prune == "ge"
        self.killer_history = ordering and traits.global_moves
        """Killer moves and the history heuristic: only where a move means the same in every position."""
        self.stop_event = stop_event
        self.recorder = recorder
        """The decision's recorder, or ``None``."""
        self.rec: Any = recorder if recorder is not None else NULL_RECORDER
        """The observer the search calls at every node (the do-nothing one unless this iteration records)."""
        self.stats = SearchStats()
        self.deadline: float | None = None
        self.node_limit: int | None = None
        self.root_rng: random.Random | None = None
        """When set, the root moves are shuffled before ordering so ties are broken by the agent's seed."""
        self.interruptible = True
        """False while the first iteration runs: it always completes, so there is always a move."""
        self.hit_horizon = False
        self.killers: dict[int, list[Any]] = {}
        self.history: dict[Any, int] = {}
        self.repetition = traits.repetition
        self._draw_context = game.draw_context
        self.path: set[Hashable] = set()
        """Positions on the search path from the root (the root included): a repetition of one is a draw."""
        self.proven_terminals = traits.proven_terminals

    # -- scoring --------------------------------------------------------------------------------------------
    def terminal_score(self, state: Any, ply: int) -> float:
        """Value of a finished ``state`` for its side to move, ``ply`` plies below the root."""
        u = self.game.utility(state, self.game.to_move(state))
        if not self.proven_terminals:
            return u
        if u > 0:
            return WIN - ply
        if u < 0:
            return -(WIN - ply)
        return 0.0

    def static_value(self, state: Any) -> float:
        """The evaluation of ``state`` for its side to move, clamped to the heuristic band."""
        v = self.evaluate(state, self.game.to_move(state))
        if v > HEURISTIC_BOUND:
            return HEURISTIC_BOUND
        if v < -HEURISTIC_BOUND:
            return -HEURISTIC_BOUND
        return v

    # -- move ordering ----------------------------------------------------------------------------------------
    def _order(self, state: Any, moves: Sequence[Any], hash_move: Any, ply: int) -> Sequence[Any]:
        """Hash move first, then the static key (captures), killer moves, then the history score."""
        if not self.ordering or len(moves) < 2:
            return moves
        key = self.order_key
        kh = self.killer_history
        killers = self.killers.get(ply, ()) if kh else ()
        hist = self.history.get
        scored = []
        for i, m in enumerate(moves):
            if hash_move is not None and m == hash_move:
                s = math.inf
            else:
                s = hist(m, 0) if kh else 0
                if key is not None:
                    s += key(state, m) * 1e8
                if killers and m in killers:
                    s += 1e7
            scored.append((-s, i, m))
        scored.sort()
        return [t[2] for t in scored]

    def _record_cutoff(self, move: Any, depth: int, ply: int) -> None:
        if not self.killer_history:
            return
        if self.order_key is not None and self.order_key(None, move) > 0:
            return  # captures are already first; keep killers and history for quiet moves
        ks = self.killers.setdefault(ply, [])
        if move not in ks:
            ks.insert(0, move)
            del ks[2:]
        self.history[move] = self.history.get(move, 0) + depth * depth

    # -- the transposition table ------------------------------------------------------------------------------
    def _tt_key(self, state: Any) -> Hashable:
        """The table key: the position with what the draw rules read (``ai.tt``)."""
        if not self.repetition:
            return state  # type: ignore[no-any-return]
        ctx = self._draw_context(state)
        return state if ctx is None else (state, ctx)

    def _probe(self, key: Hashable, depth: int, alpha: float, beta: float, ply: int
               ) -> tuple[Any, float | None, int]:
        """``(hash move, value, flag)``: the value when the entry answers this node exactly as a search would.

        An entry answers when it was searched to this very depth (a deeper entry would give a deeper value than
        minimax at this depth returns) or when its value rests on no depth limit at all and was searched no
        deeper; and when its bound settles the window.
        """
        assert self.tt is not None
        e = self.tt.entries.get(key)
        if e is None:
            return None, None, EXACT
        if ply == 0 or not (e.depth == depth or (not e.horizon and e.depth <= depth)):
            return e.move, None, EXACT
        v = e.value
        if v >= MATE_BOUND:
            v -= ply
        elif v <= -MATE_BOUND:
            v += ply
        if e.flag == EXACT or (e.flag == LOWER and v >= beta) or (e.flag == UPPER and v <= alpha):
            self.stats.tt_hits += 1
            if e.horizon:
                self.hit_horizon = True
            return e.move, v, e.flag
        return e.move, None, EXACT

    def _store(self, key: Hashable, depth: int, best: float, alpha_orig: float, beta: float, best_move: Any,
               ply: int, horizon: bool) -> None:
        assert self.tt is not None
        flag = UPPER if best <= alpha_orig else (LOWER if best >= beta else EXACT)
        stored = best + ply if best >= MATE_BOUND else (best - ply if best <= -MATE_BOUND else best)
        self.tt.store(key, _new_entry(TTEntry, (depth, flag, stored, best_move, horizon)))

    # -- the recursive search -----------------------------------------------------------------------------------
    def negamax(self, state: Any, depth: int, alpha: float, beta: float, ply: int, move: Any = None) -> float:
        """Value of ``state`` for its side to move, searched ``depth`` plies (fail-soft alpha-beta).

        AIMA's MAX-VALUE/MIN-VALUE in negamax form: a finished position scores its result, the depth limit the
        evaluation; otherwise the best of the children's negated values, cutting off when ``alpha >= beta``.

        Raises:
            SearchStopped: the hard deadline passed, the node budget ran out, or the search was cancelled.
        """
        st = self.stats
        st.nodes += 1
        if st.nodes % self.check_every == 0:
            self._check_stop()
        rec = self.rec
        rec.enter(state, move, alpha, beta, ply)
        if self.repetition and state in self.path:
            self.hit_horizon = True  # a draw by the search's rule, not the game's: not a proof
            rec.leave(0.0, EXACT, alpha, beta, note="repetition")
            return 0.0
        if depth <= 0 and (self.quiescence or not self.game.is_terminal(state)):
            v = self._leaf(state, alpha, beta, ply)
            rec.leave(v, EXACT, alpha, beta, note="leaf")
            return v
        moves = self.game.actions(state)
        if not moves:
            st.leaves += 1
            v = self.terminal_score(state, ply)
            rec.leave(v, EXACT, alpha, beta, note="terminal")
            return v
        hash_move = None
        key = None
        if self.tt is not None:
            key = self._tt_key(state)
            hash_move, hit, flag = self._probe(key, depth, alpha, beta, ply)
            if hit is not None:
                rec.leave(hit, flag, alpha, beta, note="tt")
                return hit
        moves = self._order(state, moves, hash_move, ply)
        alpha_orig = alpha
        best, best_move = -math.inf, None
        horizon_above, self.hit_horizon = self.hit_horizon, False
        if self.repetition:
            self.path.add(state)
        try:
            for i, m in enumerate(moves):
                v = self._child_value(state, m, i, depth, alpha, beta, ply)
                if v > best:
                    best, best_move = v, m
                if self.pruning:
                    if v > alpha:
                        alpha = v
                    if (alpha > beta) if self.strict else (alpha >= beta):
                        st.cutoffs += 1
                        self._record_cutoff(m, depth, ply)
                        rec.cutoff(list(moves[i + 1:]))
                        break
        finally:
            if self.repetition:
                self.path.discard(state)
        horizon_below = self.hit_horizon
        self.hit_horizon = horizon_above or horizon_below
        if key is not None:
            self._store(key, depth, best, alpha_orig, beta, best_move, ply, horizon_below)
        rec.leave(best, self._flag(best, alpha_orig, beta), alpha, beta, best_move=best_move)
        return best

    def _child_value(self, state: Any, m: Any, i: int, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The negated value of the child after ``m`` (the ``i``-th move tried): a full-window search, or with
        principal-variation search a null-window test first and a re-search only when the move may be better."""
        child = self.game.successor(state, m)
        if self.pvs and i and alpha > -math.inf:
            v = -self.negamax(child, depth - 1, -_next_up(alpha, math.inf), -alpha, ply + 1, m)
            if alpha < v < beta:
                v = -self.negamax(child, depth - 1, -beta, -v, ply + 1, m)
            return v
        return -self.negamax(child, depth - 1, -beta, -alpha, ply + 1, m)

    def _flag(self, best: float, alpha_orig: float, beta: float) -> int:
        """The bound flag of a node's value (for the recorder): exact, or a bound after a cut-off."""
        if not self.pruning:
            return EXACT
        if best <= alpha_orig:
            return UPPER
        return LOWER if ((best > beta) if self.strict else (best >= beta)) else EXACT

    def _leaf(self, state: Any, alpha: float, beta: float, ply: int) -> float:
        self.stats.leaves += 1
        if self.quiescence:
            v = self._quiesce(state, alpha, beta, ply, 0)
            if abs(v) < MATE_BOUND:
                self.hit_horizon = True
            return v
        self.hit_horizon = True
        return self.static_value(state)

    def _quiesce(self, state: Any, alpha: float, beta: float, ply: int, qdepth: int) -> float:
        """Quiescence: search only noisy moves (``order_key > 0``: captures) below the depth limit until quiet.

        In checkers captures are compulsory, so when any exists the side to move has no stand-pat option.
        """
        game = self.game
        st = self.stats
        moves = game.actions(state)
        if not moves:
            return self.terminal_score(state, ply)
        key = self.order_key
        assert key is not None
        if self.forced_noisy:  # compulsory captures: all moves are captures, or none is
            noisy: Sequence[Any] = moves if key(state, moves[0]) > 0 else []
        else:
            noisy = [m for m in moves if key(state, m) > 0]
        if not noisy or qdepth >= 32:
            return self.static_value(state)
        best = -math.inf
        if not (self.forced_noisy and len(noisy) == len(moves)):
            best = self.static_value(state)
            if best >= beta:
                return best
            alpha = max(alpha, best)
        for m in noisy:
            st.nodes += 1
            st.qnodes += 1
            if st.nodes % self.check_every == 0:
                self._check_stop()
            v = -self._quiesce(game.successor(state, m), -beta, -alpha, ply + 1, qdepth + 1)
            if v > best:
                best = v
            if v > alpha:
                alpha = v
            if alpha >= beta:
                break
        return best

    # -- root ---------------------------------------------------------------------------------------------------
    def pv_from_tt(self, state: Any, first: Any, max_len: int = 32) -> tuple[Any, ...]:
        """The principal variation: ``first`` then the stored best moves while the table has them."""
        pv = [first]
        if self.tt is None:
            return tuple(pv)
        seen = {state}
        s = self.game.successor(state, first)
        while len(pv) < max_len and s not in seen:
            seen.add(s)
            e = self.tt.get(self._tt_key(s))
            if e is None or e.move is None:
                break
            if e.move not in self.game.actions(s):
                break
            pv.append(e.move)
            s = self.game.successor(s, e.move)
        return tuple(pv)

    def search_root(self, state: Any, depth: int, prev_best: Any = None) -> tuple[Any, float, tuple[Any, ...]]:
        """One full-window iteration at ``depth`` plies: (best move, value, principal variation).

        Raises:
            SearchStopped: interrupted (the caller drops the iteration).
        """
        moves = list(self.game.actions(state))
        if self.root_rng is not None:
            self.root_rng.shuffle(moves)  # the seed picks among equally good moves (stable ordering keeps ties)
        key = self._tt_key(state) if self.tt is not None else None
        hm = prev_best
        if hm is None and key is not None:
            e = self.tt.get(key) if self.tt is not None else None
            hm = e.move if e is not None else None
        moves = list(self._order(state, moves, hm, 0))
        rec = self.rec
        self.stats.nodes += 1
        rec.enter(state, None, -math.inf, math.inf, 0)
        alpha, beta = -math.inf, math.inf
        best, best_move = -math.inf, moves[0]
        self.hit_horizon = False
        if self.repetition:
            self.path.add(state)
        try:
            for i, m in enumerate(moves):
                v = self._child_value(state, m, i, depth, alpha, beta, 0)
                if v > best:
                    best, best_move = v, m
                if self.pruning and v > alpha:
                    alpha = v
        finally:
            if self.repetition:
                self.path.discard(state)
        if key is not None:
            self._store(key, depth, best, -math.inf, math.inf, best_move, 0, self.hit_horizon)
        rec.leave(best, EXACT, -math.inf, math.inf, best_move=best_move)
        pv = self.pv_from_tt(state, best_move)
        return best_move, best, pv


def iterative_deepening(game: Game[Any, Any], state: Any, searcher: Searcher, limits: SearchLimits,
                        on_info: Callable[[SearchInfo], None] | None = None) -> SearchResult:
    """Anytime search: depth 1, 2, ... until a limit, returning the move of the last completed iteration.

    Time control as in :func:`ai.deepen.deepen`: depth 1 always completes, so a legal move comes back even with
    a 1 ms budget. The search also stops early when the value is proven (a forced win or loss within the depth,
    or every line reaching the end of the game).

    Args:
        game: the game.
        state: the root position (not over); its history (repetitions, the 80-ply counter) is the game's.
        searcher: a configured :class:`Searcher` (its table, if any, is kept across iterations).
        limits: depth (plies), time (seconds), nodes.
        on_info: called with a :class:`SearchInfo` after each completed iteration.

    Returns:
        The :class:`SearchResult`; ``extra`` holds ``cutoffs``, ``tt_hits``, ``leaves``, ``qnodes`` and
        ``iterations`` (depth, nodes, value and move of each completed iteration).

    Raises:
        GameError: the position is over (no move to choose) or the depth is below 1.
    """
    t0 = time.perf_counter()
    if not game.actions(state):
        raise GameError("the position is over: there is no move to choose")
    max_depth = limits.depth if limits.depth is not None else MAX_PLY
    if max_depth < 1:
        raise GameError(f"search depth must be at least 1 ply, got {max_depth}")

    def iterate(d: int, prev: Iteration | None) -> Iteration:
        m, v, p = searcher.search_root(state, d, prev.move if prev else None)
        return Iteration(d, m, v, p)

    def proven(it: Iteration) -> bool:
        # a forced win or loss inside the depth, or no line reached the depth limit
        return (abs(it.value) >= MATE_BOUND and WIN - abs(it.value) <= it.depth) or not searcher.hit_horizon

    done, reason = deepen(searcher, max_depth, limits, iterate, proven, on_info, t0)
    last = done[-1]
    best_move, value, pv, completed = last.move, last.value, last.pv, last.depth
    proven_draw = reason == "proven" and not searcher.hit_horizon and value == 0
    value = float(value) + 0.0  # no -0.0 in reports
    outcome, plies = classify(value)
    if outcome is None and proven_draw:
        outcome, plies = "draw", None
    if outcome == "draw" and plies is None:
        plies = _draw_length(game, state, pv)
    st = searcher.stats
    return SearchResult(best_move, value, outcome, plies, completed, st.nodes, pv,
                        time.perf_counter() - t0, reason,
                        {"cutoffs": st.cutoffs, "tt_hits": st.tt_hits, "leaves": st.leaves, "qnodes": st.qnodes,
                         "iterations": iterations_json(done, game, state)})


def _draw_length(game: Game[Any, Any], state: Any, pv: Sequence[Any]) -> int | None:
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
