"""Depth-limited game-tree search: minimax, alpha-beta (negamax form), iterative deepening.

Sources: minimax and alpha-beta as in Russell and Norvig, *AIMA* 4th ed., section 5.2-5.3 (pruning on
``alpha >= beta`` by default, the AIMA pseudocode; ``prune="gt"`` gives the strict test some course autograders
use); negamax form after Knuth and Moore, "An analysis of alpha-beta pruning", *Artificial Intelligence* 6 (1975);
transposition table with bound flags and mate scores stored relative to the node as in Stockfish's ``tt.cpp``;
killer moves (Akl and Newborn 1977) and the history heuristic (Schaeffer 1989); two-tier time control
(soft limit between iterations, hard deadline every N nodes) as in Stockfish's ``timeman.cpp``.

Values are from the point of view of the side to move at the root (RULES.md, scoring). A won terminal position
reached ``p`` plies below the root scores ``WIN - p`` (a shorter win beats a longer one), a lost one ``-(WIN - p)``,
a draw 0. Heuristic evaluations must stay well inside ``(-MATE_BOUND, MATE_BOUND)``.
"""

from __future__ import annotations

import math
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterator, Sequence

from gameplay.rules.base import Game, GameError

WIN = 1_000_000.0
"""Score of a win at the root itself; a win ``p`` plies away scores ``WIN - p``."""
MAX_PLY = 10_000
MATE_BOUND = WIN - MAX_PLY
PVS_EPS = 1e-6
"""Width of the null window of principal-variation search (values closer than this count as equal)."""
"""Any score with absolute value at least this is a proven win or loss."""

Evaluator = Callable[[Any, int], float]
"""``evaluate(state, player) -> float``: heuristic value of a non-terminal ``state`` for ``player``."""


class SearchError(GameError):
    """A search was asked of a game it does not fit (e.g. alpha-beta on a game with chance nodes)."""


class SearchStopped(Exception):
    """Raised inside a search when the hard deadline passes or the search is cancelled (never escapes)."""


@dataclass(frozen=True)
class SearchLimits:
    """When a search stops. ``None`` means no limit of that kind; all ``None`` means search to the end."""

    depth: int | None = None
    """Maximum depth in plies (decisions)."""
    time_s: float | None = None
    """Time budget per move in seconds (the hard deadline; the soft limit is half of it)."""
    nodes: int | None = None
    """Node budget (states visited)."""


@dataclass(frozen=True)
class SearchInfo:
    """Progress report after each completed iteration of iterative deepening."""

    depth: int
    """Depth in plies of the completed iteration."""
    value: float
    """Backed-up value for the side to move at the root."""
    pv: tuple[Any, ...]
    """Principal variation (moves from the root)."""
    nodes: int
    """Nodes visited so far in this search (all iterations)."""
    elapsed: float
    """Seconds since the search started."""
    move: Any = None
    """Best root move of the iteration."""


@dataclass(frozen=True)
class SearchResult:
    """The answer of one decision."""

    move: Any
    """The chosen move (``None`` only when the position is over)."""
    value: float
    """Value for the side to move at the root, in the agent's units."""
    outcome: str | None
    """``"win"``, ``"loss"`` or ``"draw"`` when the value is proven, else ``None``."""
    plies_to_end: int | None
    """Plies to the end of the game under best play when ``outcome`` is set."""
    depth: int
    """Deepest completed iteration in plies."""
    nodes: int
    """Nodes visited in total (every iteration, the interrupted one included)."""
    pv: tuple[Any, ...]
    """Principal variation of the last completed iteration."""
    elapsed: float
    """Wall-clock seconds."""
    stop_reason: str
    """``"depth"``, ``"time"``, ``"nodes"``, ``"proven"``, ``"cancelled"``, ``"random"`` (a random agent) or
    ``"table"`` (a lookup in a precomputed policy, Pig's ``optimal``)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Game- or algorithm-specific figures (e.g. ``win_probability`` for Pig, cut-offs, TT hits)."""


def classify(value: float) -> tuple[str | None, int | None]:
    """Split a search value into a proven outcome and plies to the end, or ``(None, None)``."""
    if value >= MATE_BOUND:
        return "win", int(round(WIN - value))
    if value <= -MATE_BOUND:
        return "loss", int(round(WIN + value))
    return None, None


def require_deterministic(game: Game[Any, Any], algorithm: str) -> None:
    """Refuse a game with chance nodes for a search that has no chance nodes.

    Raises:
        SearchError: the game is stochastic.
    """
    if game.traits.stochastic:
        raise SearchError(f"{algorithm} does not handle chance nodes; use expectimax for {game.name}")


# Exact/lower/upper bound flags of transposition-table entries.
EXACT, LOWER, UPPER = 0, 1, 2


@dataclass
class SearchStats:
    """Counters of one search (all iterations)."""

    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    tt_hits: int = 0
    qnodes: int = 0


class Interruptible:
    """The stop test shared by the searches: the cancel event, the hard deadline and the node budget.

    The search calls :meth:`_check_stop` every ``check_every`` nodes; :func:`deepen` sets the attributes.
    """

    stop_event: threading.Event | None
    deadline: float | None
    node_limit: int | None
    interruptible: bool
    stats: Any

    def _check_stop(self) -> None:
        """Raise :class:`SearchStopped` when the search must stop (never during an uninterruptible iteration)."""
        if not self.interruptible:
            return
        if self.stop_event is not None and self.stop_event.is_set():
            raise SearchStopped("cancelled")
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise SearchStopped("time")
        if self.node_limit is not None and self.stats.nodes >= self.node_limit:
            raise SearchStopped("nodes")


class Searcher(Interruptible):
    """Alpha-beta (or plain minimax) over any deterministic two-player zero-sum :class:`Game`.

    One object per decision; not thread-safe (run it on one worker thread). All features are switches so a
    teacher can turn each on and off and compare node counts.

    Args:
        game: the game (its ``traits`` must be deterministic).
        evaluate: static evaluation ``evaluate(state, player)`` used at the depth limit, in the agent's units.
        pruning: False gives plain minimax (every node searched); True gives alpha-beta.
        prune: ``"ge"`` cuts when alpha >= beta (AIMA), ``"gt"`` only when alpha > beta.
        ordering: hash move first, the game's static order key (captures first), killers, history.
        tt: a transposition table (dict) to use and fill, or ``None`` for no table.
        quiescence: extend the depth limit with the game's ``noisy_actions`` (captures) until quiet.
        stop_event: set it from another thread to cancel (checked every ``check_every`` nodes).
        recorder: an optional tree recorder (see ``ai.recording``) that observes every node.
        pvs: principal-variation search (null-window tests of the later moves, Marsland and Campbell 1982);
            used only with pruning, ordering and the ``ge`` rule, and never while recording (the teaching
            views show plain alpha-beta, one visit per node).

    Raises:
        SearchError: the game has chance nodes, or ``prune`` is not ``"ge"``/``"gt"``.
    """

    check_every = 1024
    tt_limit = 1_000_000
    """Most transposition-table entries kept (about 250 MB); the table is cleared when it is full."""

    def __init__(self, game: Game[Any, Any], evaluate: Evaluator, *, pruning: bool = True, prune: str = "ge",
                 ordering: bool = True, tt: dict[Hashable, tuple[Any, ...]] | None = None,
                 quiescence: bool = False, stop_event: threading.Event | None = None,
                 recorder: Any = None, pvs: bool = True) -> None:
        require_deterministic(game, "alpha-beta" if pruning else "minimax")
        if prune not in ("ge", "gt"):
            raise SearchError(f"prune must be 'ge' or 'gt', got {prune!r}")
        self.game = game
        self.evaluate = evaluate
        self.pruning = pruning
        self.strict = prune == "gt"
        self.ordering = ordering
        self.tt = tt
        self.quiescence = quiescence and getattr(game, "order_key", None) is not None
        self.forced_noisy = bool(getattr(game, "captures_compulsory", False))
        self.pvs = pvs and pruning and ordering and prune == "ge" and recorder is None
        self.stop_event = stop_event
        self.recorder = recorder
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
        self.order_key = getattr(game, "order_key", None)
        self.repetition = getattr(game, "can_repeat", False)
        self.repeated = getattr(game, "repeated", None) if self.repetition else None
        """``repeated(state)``: the position already occurred earlier in the game (scored as a draw)."""
        self.path: set[Hashable] = set()
        self.scaled_terminal = getattr(game, "scaled_terminal", True)

    # -- stopping -------------------------------------------------------------------------------------------
    # -- scoring --------------------------------------------------------------------------------------------
    def terminal_score(self, state: Any, ply: int) -> float:
        """Value of a finished ``state`` for its side to move, ``ply`` plies below the root."""
        u = self.game.utility(state, self.game.to_move(state))
        if not self.scaled_terminal:
            return u
        if u > 0:
            return WIN - ply
        if u < 0:
            return -(WIN - ply)
        return 0.0

    # -- move ordering ----------------------------------------------------------------------------------------
    def _order(self, state: Any, moves: Sequence[Any], hash_move: Any, ply: int) -> Sequence[Any]:
        """Hash move first, then the game's static key (captures), killer moves, then the history score."""
        if not self.ordering or len(moves) < 2:
            return moves
        key = self.order_key
        killers = self.killers.get(ply, ())
        hist = self.history.get
        scored = []
        for i, m in enumerate(moves):
            if hash_move is not None and m == hash_move:
                s = 1e12
            else:
                s = hist(m, 0)
                if key is not None:
                    s += key(state, m) * 1e8
                if killers and m in killers:
                    s += 1e7
            scored.append((-s, i, m))
        scored.sort()
        return [t[2] for t in scored]

    def _record_cutoff(self, move: Any, depth: int, ply: int) -> None:
        if not self.ordering:
            return
        if self.order_key is not None and self.order_key(None, move) > 0:
            return  # captures are already first; keep killers and history for quiet moves
        ks = self.killers.setdefault(ply, [])
        if move not in ks:
            ks.insert(0, move)
            del ks[2:]
        self.history[move] = self.history.get(move, 0) + depth * depth

    # -- the recursive search -----------------------------------------------------------------------------------
    def negamax(self, state: Any, depth: int, alpha: float, beta: float, ply: int, move: Any = None) -> float:
        """Value of ``state`` for its side to move, searched ``depth`` plies (fail-soft alpha-beta).

        Raises:
            SearchStopped: the hard deadline passed, the node budget ran out, or the search was cancelled.
        """
        st = self.stats
        st.nodes += 1
        if st.nodes % self.check_every == 0:
            self._check_stop()
        game = self.game
        rec = self.recorder
        if rec is not None:
            rec.enter(state, move, alpha, beta, ply)
        if self.repetition and ply > 0 and (state in self.path or (self.repeated is not None
                                                                   and self.repeated(state))):
            self.hit_horizon = True  # a repetition is scored as a draw, not proven one: the line might deviate
            if rec is not None:
                rec.leave(0.0, EXACT, alpha, beta, note="repetition")
            return 0.0
        if depth <= 0 and (self.quiescence or not game.is_terminal(state)):
            v = self._leaf(state, alpha, beta, ply)
            if rec is not None:
                rec.leave(v, EXACT, alpha, beta, note="leaf")
            return v
        moves = game.actions(state)
        if not moves:
            st.leaves += 1
            v = self.terminal_score(state, ply)
            if rec is not None:
                rec.leave(v, EXACT, alpha, beta, note="terminal")
            return v

        alpha_orig = alpha
        hash_move = None
        tt = self.tt
        key = None
        if tt is not None:
            key = state
            entry = tt.get(key)
            if entry is not None:
                e_depth, e_flag, e_value, e_move, e_horizon = entry
                hash_move = e_move
                if e_depth >= depth and ply > 0:
                    v = float(e_value)
                    if v >= MATE_BOUND:
                        v -= ply
                    elif v <= -MATE_BOUND:
                        v += ply
                    if (e_flag == EXACT or (e_flag == LOWER and v >= beta)
                            or (e_flag == UPPER and v <= alpha)):
                        st.tt_hits += 1
                        if e_horizon:
                            self.hit_horizon = True
                        if rec is not None:
                            rec.leave(v, e_flag, alpha, beta, note="tt")
                        return v

        moves = self._order(state, moves, hash_move, ply)
        best = -math.inf
        best_move = None
        horizon_before = self.hit_horizon
        self.hit_horizon = False
        pruning = self.pruning
        strict = self.strict
        pvs = self.pvs
        if self.repetition:
            self.path.add(state)
        try:
            for i, m in enumerate(moves):
                child = game.successor(state, m)
                if pvs and i and alpha > -math.inf:
                    # Principal-variation search: prove the later moves worse with a null window first.
                    v = -self.negamax(child, depth - 1, -alpha - PVS_EPS, -alpha, ply + 1, m)
                    if alpha < v < beta:
                        v = -self.negamax(child, depth - 1, -beta, -v, ply + 1, m)
                else:
                    v = -self.negamax(child, depth - 1, -beta, -alpha, ply + 1, m)
                if v > best:
                    best = v
                    best_move = m
                if pruning:
                    if v > alpha:
                        alpha = v
                    if (alpha > beta) if strict else (alpha >= beta):
                        st.cutoffs += 1
                        self._record_cutoff(m, depth, ply)
                        if rec is not None:
                            rec.cutoff(list(moves[i + 1:]))
                        break
        finally:
            if self.repetition:
                self.path.discard(state)
        sub_horizon = self.hit_horizon
        self.hit_horizon = horizon_before or sub_horizon

        if tt is not None:
            if best <= alpha_orig:
                flag = UPPER
            elif best >= beta:
                flag = LOWER
            else:
                flag = EXACT
            stored = best
            if stored >= MATE_BOUND:
                stored += ply
            elif stored <= -MATE_BOUND:
                stored -= ply
            if len(tt) >= self.tt_limit:
                tt.clear()  # bounded memory: start afresh (the entries are only a speed-up)
            tt[key] = (depth, flag, stored, best_move, sub_horizon)
        if rec is not None:
            flag = EXACT
            if pruning:
                flag = UPPER if best <= alpha_orig else (LOWER if ((best > beta) if strict else (best >= beta))
                                                         else EXACT)
            rec.leave(best, flag, alpha, beta, best_move=best_move)
        return best

    def _leaf(self, state: Any, alpha: float, beta: float, ply: int) -> float:
        self.stats.leaves += 1
        if self.quiescence:
            v = self._quiesce(state, alpha, beta, ply, 0)
            if abs(v) < MATE_BOUND:
                self.hit_horizon = True
            return v
        self.hit_horizon = True
        return self.evaluate(state, self.game.to_move(state))

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
        if key is None:
            noisy: Sequence[Any] = []
        elif self.forced_noisy:  # compulsory captures: all moves are captures, or none is
            noisy = moves if key(state, moves[0]) > 0 else []
        else:
            noisy = [m for m in moves if key(state, m) > 0]
        if not noisy or qdepth >= 32:
            return self.evaluate(state, game.to_move(state))
        best = -math.inf
        if not (self.forced_noisy and len(noisy) == len(moves)):
            best = self.evaluate(state, game.to_move(state))
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
            e = self.tt.get(s)
            if e is None or e[3] is None:
                break
            legal = self.game.actions(s)
            if e[3] not in legal:
                break
            pv.append(e[3])
            s = self.game.successor(s, e[3])
        return tuple(pv)

    def search_root(self, state: Any, depth: int, prev_best: Any = None) -> tuple[Any, float, tuple[Any, ...]]:
        """One full-window iteration at ``depth`` plies: (best move, value, principal variation).

        Raises:
            SearchStopped: interrupted (the caller drops the iteration).
        """
        game = self.game
        moves = list(game.actions(state))
        if self.root_rng is not None:
            self.root_rng.shuffle(moves)  # the seed picks among equally good moves (stable ordering keeps ties)
        if self.ordering and prev_best is not None and prev_best in moves:
            moves.remove(prev_best)
            moves.insert(0, prev_best)
        if self.tt is not None:
            entry = self.tt.get(state)
            hm = entry[3] if entry else None
        else:
            hm = None
        moves = list(self._order(state, moves, prev_best if prev_best is not None else hm, 0))
        rec = self.recorder
        self.stats.nodes += 1
        if rec is not None:
            rec.enter(state, None, -math.inf, math.inf, 0)
        alpha, beta = -math.inf, math.inf
        best, best_move = -math.inf, moves[0]
        child_pvs: dict[Any, tuple[Any, ...]] = {}
        self.hit_horizon = False
        if self.repetition:
            self.path.add(state)
        try:
            for i, m in enumerate(moves):
                child = game.successor(state, m)
                if self.pvs and i and alpha > -math.inf:
                    v = -self.negamax(child, depth - 1, -alpha - PVS_EPS, -alpha, 1, m)
                    if v > alpha:
                        v = -self.negamax(child, depth - 1, -beta, -alpha, 1, m)
                else:
                    v = -self.negamax(child, depth - 1, -beta, -alpha, 1, m)
                if v > best:
                    best, best_move = v, m
                if self.pruning and v > alpha:
                    alpha = v
        finally:
            if self.repetition:
                self.path.discard(state)
        if self.tt is not None:
            self.tt[state] = (depth, EXACT, best, best_move, self.hit_horizon)
        if rec is not None:
            rec.leave(best, EXACT, -math.inf, math.inf, best_move=best_move)
        pv = self.pv_from_tt(state, best_move) if self.tt is not None else (best_move,)
        del child_pvs
        return best_move, best, pv


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


def deepen(searcher: Any, max_depth: int, limits: SearchLimits,
           iterate: Callable[[int, Iteration | None], Iteration], proven: Callable[[Iteration], bool],
           on_info: Callable[[SearchInfo], None] | None, t0: float) -> tuple[Iteration | None, str]:
    """The anytime loop shared by alpha-beta and expectimax: depth 1, 2, ... until a limit.

    Two-tier time control as in Stockfish's ``timeman.cpp``: the soft limit (half the time budget) is checked
    between iterations, so no new iteration starts after it; the hard limit (the whole budget), the node budget
    and the cancel event are checked by the search every ``check_every`` nodes and interrupt the running
    iteration (``SearchStopped``), whose result is thrown away. The first iteration is never interrupted, so
    there is always a move from a completed iteration.

    Args:
        searcher: has ``deadline``, ``node_limit``, ``interruptible``, ``stop_event`` and ``stats.nodes``.
        max_depth: the deepest iteration.
        limits: time (seconds) and node budgets.
        iterate: runs one iteration ``(depth, previous iteration) -> Iteration``.
        proven: True when an iteration's value is final (deeper search cannot change it).
        on_info: progress callback after each completed iteration.
        t0: ``time.perf_counter()`` when the decision started.

    Returns:
        The last completed iteration and why the loop stopped (``depth``, ``time``, ``nodes``, ``proven``,
        ``cancelled``).
    """
    hard = t0 + limits.time_s if limits.time_s is not None else None
    soft = t0 + limits.time_s * 0.5 if limits.time_s is not None else None
    last: Iteration | None = None
    reason = "depth"
    for d in range(1, max_depth + 1):
        searcher.deadline = hard
        searcher.node_limit = limits.nodes
        searcher.interruptible = last is not None
        try:
            it = iterate(d, last)
        except SearchStopped as stop:
            reason = str(stop)
            break
        last = it
        if on_info is not None:
            on_info(SearchInfo(d, it.value, it.pv, searcher.stats.nodes, time.perf_counter() - t0, it.move))
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
    return last, reason


def iterative_deepening(game: Game[Any, Any], state: Any, searcher: Searcher, limits: SearchLimits,
                        on_info: Callable[[SearchInfo], None] | None = None) -> SearchResult:
    """Anytime search: depth 1, 2, ... until a limit, returning the move of the last completed iteration.

    Time control as in :func:`deepen`: depth 1 always completes, so a legal move comes back even with a 1 ms
    budget. The search also stops early when the value is proven (a forced win or loss within the depth, or every
    line reaching the end of the game).

    Args:
        game: the game.
        state: the root position (not over).
        searcher: a configured :class:`Searcher` (its table, if any, is kept across iterations).
        limits: depth (plies), time (seconds), nodes.
        on_info: called with a :class:`SearchInfo` after each completed iteration.

    Returns:
        The :class:`SearchResult`.

    Raises:
        GameError: the position is over (no move to choose).
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

    last, reason = deepen(searcher, max_depth, limits, iterate, proven, on_info, t0)
    assert last is not None  # the first iteration always completes
    best_move, value, pv, completed = last.move, last.value, last.pv, last.depth
    proven_draw = reason == "proven" and not searcher.hit_horizon and value == 0
    value = float(value) + 0.0  # no -0.0 in reports
    outcome, plies = classify(value)
    if outcome is None and proven_draw:
        outcome, plies = "draw", None
    if outcome == "draw" and plies is None:
        plies = _draw_length(game, state, pv)
    return SearchResult(best_move, value, outcome, plies, completed, searcher.stats.nodes, pv,
                        time.perf_counter() - t0, reason,
                        {"cutoffs": searcher.stats.cutoffs, "tt_hits": searcher.stats.tt_hits,
                         "leaves": searcher.stats.leaves})


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


def perft(game: Game[Any, Any], state: Any, depth: int) -> int:
    """Leaf count of the legal-move tree to ``depth`` plies.

    A position where the game ends before ``depth`` is a leaf of that tree and counts once, so tic-tac-toe's
    ``perft(9)`` is the number of distinct games, 255,168. A game may supply its own fast ``perft(state, depth)``.

    Raises:
        GameError: ``depth`` is negative.
    """
    if depth < 0:
        raise GameError(f"perft depth must be >= 0, got {depth}")
    fast = getattr(game, "perft", None)
    if fast is not None:
        return int(fast(state, depth))

    def go(s: Any, d: int) -> int:
        if d == 0:
            return 1
        moves = game.actions(s)
        if not moves:
            return 1
        if d == 1:
            return len(moves)
        return sum(go(game.successor(s, m), d - 1) for m in moves)

    return go(state, depth)


def walk(game: Game[Any, Any], state: Any, depth: int) -> Iterator[tuple[Any, Any]]:
    """Yield ``(move, child)`` for each legal move (helper for ``perft --divide``)."""
    for m in game.actions(state):
        yield m, game.successor(state, m)
