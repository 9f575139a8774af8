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
recorder) is a separate, switchable step in its own method or module. The shared types live in ``ai.kernel.core``,
the switches in ``ai.kernel.search_options`` (those that apply, resolved once, in ``ai.kernel.search_setup``), the
counters and tuning constants in ``ai.kernel.search_stats``, the anytime loop in ``ai.kernel.deepen``, the table in
``ai.kernel.tt``, the move ordering in ``ai.kernel.move_order``.

Values are from the point of view of the side to move at the node (negamax); scores as in ``ai.kernel.core``.
"""

from __future__ import annotations

import math
import random
import threading
from typing import Callable, Final, Generic, Hashable, Sequence

from ai.kernel.core import (
    DB_BOUND,
    HEURISTIC_BOUND,
    MATE_BOUND,
    MAX_PLY,
    WIN,
    EndgameProbe,
    Interruptible,
    IterationRecorder,
    Recorder,
    SearchError,
    SearchInfo,
    SearchLimits,
    SearchResult,
    SearchStopped,
    classify,
    db_root_moves,
    db_score,
    require_deterministic,
)
from ai.kernel.deepen import Iteration, deepen, iterative_deepening
from ai.kernel.move_order import MoveOrdering, OrderKey, in_order, next_best
from ai.kernel.recording import NULL_RECORDER
from ai.kernel.search_options import DEFAULT_OPTIONS, SearchOptions
from ai.kernel.search_setup import SearchSetup
from ai.kernel.search_stats import (
    ASPIRATION_MIN_DEPTH,
    ETC_MIN_DEPTH,
    LMR_DEEPER,
    LMR_FIRST,
    LMR_MIN_DEPTH,
    SHOT_PLIES,
    THREAT_PLIES,
    TRUNCATE_MIN_PIECES,
    SearchStats,
    truncated_depth,
)
from ai.kernel.tactics import MaterialGame, NoisyGame, TacticalGame, is_tactical, offering_moves
from ai.kernel.tt import EXACT, LOWER, UPPER, TranspositionTable, TTEntry, bound_flag
from gameplay.rules.base import Game, M, PieceCount, S

__all__ = [
    "EXACT", "HEURISTIC_BOUND", "LOWER", "MATE_BOUND", "MAX_PLY", "UPPER", "WIN", "Evaluator", "Iteration",
    "SearchError", "SearchInfo", "SearchLimits", "SearchOptions", "SearchResult", "SearchStats", "SearchStopped",
    "Searcher", "TranspositionTable", "classify", "deepen", "iterative_deepening", "require_deterministic",
]

Evaluator = Callable[[S, int], float]
"""``evaluate(state, player) -> float``: heuristic value of a non-terminal ``state`` for ``player``."""

_next_up: Final = math.nextafter
_NULL: Final[Recorder] = NULL_RECORDER  # the do-nothing recorder, a constant to the compiled code


def _no_pieces(state: object) -> int:
    """The piece count of a search without endgame databases (never asked)."""
    return 0


class Searcher(Interruptible, Generic[S, M]):
    """Alpha-beta (or plain minimax) over any deterministic two-player zero-sum :class:`Game`.

    One object per decision; not thread-safe (run it on one worker thread). All features are switches
    (:class:`SearchOptions`) so a teacher can turn each on and off and compare node counts. The game's
    ``traits`` say which apply: a static ordering key (``move_order``), compulsory captures (quiescence has no
    stand-pat then), repetitions (``repetition``: the search path is tracked and the table keyed with the draw
    history), whether a move means the same everywhere (``global_moves``: killer moves and the history
    heuristic), whether terminal utilities are game results scored by distance (``proven_terminals``), and
    whether pieces can be counted (``piece_count``: endgame databases).

    Args:
        game: the game (its ``traits`` must be deterministic).
        evaluate: static evaluation ``evaluate(state, player)`` used at the depth limit, in the agent's units
            (clamped into ``[-HEURISTIC_BOUND, HEURISTIC_BOUND]``: a heuristic never reads as a proof).
        options: the switches (:class:`SearchOptions`; by default alpha-beta with ordering and PVS).
        table: the transposition table to use and fill when ``options.tt`` (kept across decisions by its owner);
            ``None``: a new one.
        order_key: a static ordering key ``(state, move) -> float`` replacing the game's (the Tree Lab's).
        endgame: an endgame database (:class:`ai.kernel.core.EndgameProbe`, e.g. ``ai.checkers.endgame_db.EndgameDB``):
            positions with at most its ``max_pieces`` pieces (``game.pieces``) score as database results
            (``ai.kernel.core.db_score``) instead of being searched.
        stop_event: set it from another thread to cancel (checked every ``check_every`` nodes).
        recorder: an optional tree recorder (``ai.kernel.recording``); recording never changes what is searched.

    Raises:
        SearchError: the game has chance nodes; a table is given with ``options.tt`` off; an endgame database is
            given for a game that does not count its pieces.
    """

    check_every = 1024
    """Nodes between two checks of the hard deadline, the node budget and the cancel event."""

    def __init__(self, game: Game[S, M], evaluate: Evaluator[S], options: SearchOptions = DEFAULT_OPTIONS, *,
                 table: TranspositionTable[M] | None = None, order_key: OrderKey[S, M] | None = None,
                 endgame: EndgameProbe[S] | None = None, stop_event: threading.Event | None = None,
                 recorder: IterationRecorder | None = None) -> None:
        require_deterministic(game, "alpha-beta" if options.pruning else "minimax")
        if table is not None and not options.tt:
            raise SearchError("a transposition table was given with the table switched off (options.tt)")
        traits = game.traits
        if endgame is not None and not (traits.piece_count and isinstance(game, PieceCount)):
            raise SearchError(f"an endgame database needs a game that counts its pieces (traits.piece_count); "
                              f"{game.name} does not")
        self.game = game
        self._actions, self._successor, self._to_move = game.actions, game.successor, game.to_move  # bound once
        self.evaluate = evaluate
        self.options = options
        """The switches asked for (:attr:`setup`: the ones that apply)."""
        self.tt: TranspositionTable[M] | None = (table if table is not None else TranspositionTable()) \
            if options.tt else None
        self.order_key: OrderKey[S, M] | None = game.order_key if order_key is None and traits.move_order \
            else order_key
        self.tactics: TacticalGame | None = game if isinstance(game, TacticalGame) else None  # ai.kernel.tactics hooks
        material = game if isinstance(game, MaterialGame) else None
        self.endgame = endgame
        self._pieces: Callable[[S], int] = game.pieces if endgame is not None and isinstance(game, PieceCount) \
            else _no_pieces
        """The game's piece count (``game.pieces``) when an endgame database is probed."""
        noisy = game if isinstance(game, NoisyGame) and order_key is None and traits.move_order else None
        setup = SearchSetup.build(options, traits, ordered=self.order_key is not None, table=self.tt is not None,
                                  tactical=self.tactics is not None, material=material is not None,
                                  db_pieces=endgame.max_pieces if endgame is not None else 0,
                                  noisy_hook=noisy is not None)
        self.setup: Final[SearchSetup] = setup
        """The switches that apply, resolved once (:class:`SearchSetup`)."""
        self._material: MaterialGame | None = material if setup.truncate_unit else None
        """The game's material count when material truncation applies."""
        self._noisy: Callable[[S], Sequence[M]] = noisy.noisy_actions if noisy is not None else self._actions
        """The game's captures alone (``ai.kernel.tactics.NoisyGame``), read by quiescence when
        ``setup.captures_first``."""
        self.move_order: MoveOrdering[S, M] = MoveOrdering(self.order_key, options.ordering,
                                                           options.ordering and traits.global_moves)
        """The ordering of the moves (``ai.kernel.move_order``): killer moves and the history heuristic only where a
        move means the same in every position."""
        self.stop_event = stop_event
        self.recorder = recorder
        """The decision's recorder, or ``None``."""
        self.rec: Recorder = NULL_RECORDER if recorder is None else recorder
        """The observer the search calls at every node (the do-nothing one unless this iteration records)."""
        self.stats: SearchStats = SearchStats()
        self.root_rng: random.Random | None = None
        """When set, the root moves are shuffled before ordering so ties are broken by the agent's seed."""
        self.hit_horizon = False
        self.root_partial: tuple[M, float, int] | None = None
        """During an iteration, the best root move it has proved so far: ``(move, value, root moves searched)``,
        the value exact or a lower bound (an aspiration fail-high); ``None`` until a root move's value is known
        above the window's lower bound. What a stopped iteration leaves (``SearchLimits.partial``)."""
        self._draw_context = game.draw_context
        self.path: set[S] = set()
        """Positions on the search path from the root (the root included): a repetition of one is a draw."""
        self.db_limit = setup.db_pieces
        """Positions with at most this many pieces are probed (fewer than the root's when the root is in the
        tables: the search then plays on, probing after each capture, see ``search_root``)."""
        self.hit_limit = False
        """True when this iteration stopped a line at the depth limit (a deeper iteration could see more)."""
        self.db_root: int | None = None
        """The tables' verdict on the root when they cover it (+1 win, 0 draw, -1 loss), else ``None``."""
        self.truncating = False  # this iteration truncates (truncate on, and the root has enough pieces)
        size = 2 * MAX_PLY + 2 if setup.path_flags else 1
        self._sharp = [False] * size  # [ply]: the path's node at ply was reached by a sharp move (lmr_safe)
        self._ext = [0] * size  # [ply]: forcing-line extensions on the path down to ply (extend)
        self._trunc = [0] * size  # [ply]: plies truncated on the path down to ply and not yet given back (truncate)
        self.ext_cap = 0  # most extensions along one path: half the iteration's nominal depth

    # -- scoring --------------------------------------------------------------------------------------------
    def terminal_score(self, state: S, ply: int) -> float:
        """Value of a finished ``state`` for its side to move, ``ply`` plies below the root."""
        u = self.game.utility(state, self.game.to_move(state))
        if not self.setup.proven_terminals:
            return u
        return math.copysign(WIN - ply, u) if u else 0.0  # a win sooner (a loss later) scores more

    def static_value(self, state: S) -> float:
        """The evaluation of ``state`` for its side to move, clamped to the heuristic band."""
        v = self.evaluate(state, self._to_move(state))
        if v > HEURISTIC_BOUND:
            return HEURISTIC_BOUND
        if v < -HEURISTIC_BOUND:
            return -HEURISTIC_BOUND
        return v

    # -- the transposition table ------------------------------------------------------------------------------
    def _tt_key(self, state: S) -> Hashable:
        """The table key: the position with what the draw rules read (``ai.kernel.tt``)."""
        if not self.setup.repetition:
            return state
        ctx = self._draw_context(state)
        return state if ctx is None else (state, ctx)

    def _probe(self, key: Hashable, depth: int, alpha: float, beta: float, ply: int
               ) -> tuple[M | None, float | None, int]:
        """``(hash move, value, flag)``: the value when the entry answers this node exactly as a search would.

        An entry answers when it was searched to this very depth (a deeper entry would give a deeper value than
        minimax at this depth returns) or when its value rests on no depth limit at all and was searched no
        deeper; and when its bound settles the window.
        """
        assert self.tt is not None
        e = self.tt.entries.get(key)
        if e is None:
            return None, None, EXACT
        if ply == 0 or not self._answers(e, depth):
            return e.move, None, EXACT
        v = e.value
        if v >= DB_BOUND:
            v -= ply
        elif v <= -DB_BOUND:
            v += ply
        if e.flag == EXACT or (e.flag == LOWER and v >= beta) or (e.flag == UPPER and v <= alpha):
            self.stats.tt_hits += 1
            if e.horizon:
                self.hit_horizon = self.hit_limit = True
            return e.move, v, e.flag
        return e.move, None, EXACT

    def _answers(self, e: TTEntry[M], depth: int) -> bool:
        """True when entry ``e`` may answer a node searched ``depth`` plies: searched to this very depth, or
        resting on no depth limit and searched no deeper, or (with reductions) searched deeper."""
        return e.depth == depth or (not e.horizon and e.depth <= depth) or (self.setup.lmr and e.depth > depth)

    def _store(self, key: Hashable, depth: int, best: float, alpha_orig: float, beta: float, best_move: M | None,
               ply: int, horizon: bool) -> None:
        assert self.tt is not None
        flag = UPPER if best <= alpha_orig else (LOWER if best >= beta else EXACT)
        stored = best + ply if best >= DB_BOUND else (best - ply if best <= -DB_BOUND else best)
        self.tt.store(key, TTEntry(depth, flag, stored, best_move, horizon))

    # -- the recursive search -----------------------------------------------------------------------------------
    def negamax(self, state: S, depth: int, alpha: float, beta: float, ply: int, move: M | None = None,
                reduced: int = 0) -> float:
        """Value of ``state`` for its side to move, searched ``depth`` plies (fail-soft alpha-beta).

        AIMA's MAX-VALUE/MIN-VALUE in negamax form: a finished position scores its result, the depth limit the
        evaluation; otherwise the best of the children's negated values, cutting off when ``alpha >= beta``.

        Raises:
            SearchStopped: the hard deadline passed, the node budget ran out, or the search was cancelled.
        """
        st = self.stats
        cfg = self.setup
        st.nodes += 1
        if st.nodes % self.check_every == 0:
            self._check_stop()
        rec = self.rec
        live = rec is not _NULL  # this iteration records (ai.kernel.recording); otherwise no recorder call is made
        if live:
            rec.enter(state, move, alpha, beta, ply, reduced=reduced)  # reduced: a late-move reduction's test
        if cfg.repetition and state in self.path:
            self.hit_horizon = True  # a draw by the search's rule, not the game's: not a proof
            if live:
                rec.leave(0.0, EXACT, alpha, beta, note="repetition")
            return 0.0
        if self.db_limit and self._pieces(state) <= self.db_limit:
            v = self._db_value(state, ply)
            if v is not None:
                if live:
                    rec.leave(v, EXACT, alpha, beta, note="database")
                return v
        if self.truncating:
            depth = self._truncate(state, depth, alpha, beta, ply)
        if depth <= 0 and (cfg.quiescence or not self.game.is_terminal(state)):
            v = self._leaf(state, alpha, beta, ply)
            if live:
                rec.leave(v, EXACT, alpha, beta, note="leaf")
            return v
        moves = self._actions(state)
        if not moves:
            st.leaves += 1
            v = self.terminal_score(state, ply)
            if live:
                rec.leave(v, EXACT, alpha, beta, note="terminal")
            return v
        if cfg.extend:
            e = self._ext[ply - 1]
            if len(moves) == 1 and e < self.ext_cap:  # a forced reply: a ply deeper (a bounded total per path)
                depth, e, st.extensions = depth + 1, e + 1, st.extensions + 1
                rec.depth_changed(1, "extension")
            self._ext[ply] = e
        hash_move: M | None = None
        key: Hashable | None = None
        if self.tt is not None:
            key = self._tt_key(state)
            hash_move, hit, flag = self._probe(key, depth, alpha, beta, ply)
            if hit is not None:
                if live:
                    rec.leave(hit, flag, alpha, beta, note="tt")
                return hit
            if cfg.etc and depth >= ETC_MIN_DEPTH:
                hit = self._etc(state, moves, depth, beta, ply)
                if hit is not None:
                    if live:
                        rec.leave(hit, LOWER, alpha, beta, note="etc")
                    return hit
        scores = self.move_order.scores(state, moves, hash_move, ply)  # None: the moves are tried as they come
        tried = list(moves)  # next_best sorts it in place as the moves are tried
        alpha_orig = alpha
        best = -math.inf
        best_move: M | None = None
        horizon_above, self.hit_horizon = self.hit_horizon, False
        if cfg.repetition:
            self.path.add(state)
        try:
            for i in range(len(tried)):
                m = next_best(tried, scores, i)  # the best-ordered move not yet tried (ai.kernel.move_order)
                v = self._child_value(state, m, i, depth, alpha, beta, ply)
                if v > best:
                    best, best_move = v, m
                if cfg.pruning:
                    if v > alpha:
                        alpha = v
                    if (alpha > beta) if cfg.strict else (alpha >= beta):
                        if i + 1 < len(tried):
                            st.cutoffs += 1  # the rest of the moves are pruned
                        self.move_order.record_cutoff(m, depth, ply)
                        if live:
                            pruned: list[M] = in_order(tried, scores, i + 1)  # as a full sort would list them
                            rec.cutoff(pruned)
                        break
        finally:
            if cfg.repetition:
                self.path.discard(state)
        horizon_below = self.hit_horizon
        self.hit_horizon = horizon_above or horizon_below
        if key is not None:
            self._store(key, depth, best, alpha_orig, beta, best_move, ply, horizon_below)
        if live:
            rec.leave(best, bound_flag(best, alpha_orig, beta, cfg.pruning, cfg.strict), alpha, beta,
                      best_move=best_move)
        return best

    def _child_value(self, state: S, m: M, i: int, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The negated value of the child after ``m`` (the ``i``-th move tried): a full-window search, or with
        principal-variation search a null-window test first and a re-search only when the move may be better;
        with late-move reductions a late quiet move's null-window test is first made shallower."""
        child = self._successor(state, m)
        cfg = self.setup
        calm = True  # with lmr_safe: neither this move nor the one that reached this node is sharp
        if cfg.lmr_safe:
            sharp = False
            if depth >= LMR_MIN_DEPTH:
                assert self.tactics is not None
                sharp = (self.order_key is not None and self.order_key(state, m) > 0) \
                    or is_tactical(self.tactics, state, m, child, self.game.to_move(state))
                calm = not (sharp or self._sharp[ply])
            self._sharp[ply + 1] = sharp
        if cfg.pvs and i and alpha > -math.inf:
            null = -_next_up(alpha, math.inf)
            if cfg.lmr and calm and i >= LMR_FIRST and depth >= LMR_MIN_DEPTH and self.order_key is not None \
                    and self.order_key(state, m) <= 0:
                r = 2 if i >= LMR_DEEPER and depth > LMR_MIN_DEPTH else 1
                self.stats.reductions += 1
                v = -self.negamax(child, depth - 1 - r, null, -alpha, ply + 1, m, r)
                if v <= alpha:
                    return v
            v = -self.negamax(child, depth - 1, null, -alpha, ply + 1, m)
            if alpha < v < beta:
                v = -self.negamax(child, depth - 1, -beta, -v, ply + 1, m)
            return v
        return -self.negamax(child, depth - 1, -beta, -alpha, ply + 1, m)

    def _truncate(self, state: S, depth: int, alpha: float, beta: float, ply: int) -> int:
        """``depth`` after material truncation (``SearchOptions.truncate``:
        ``ai.kernel.search_stats.truncated_depth``)."""
        assert self._material is not None
        new, self._trunc[ply], cut = truncated_depth(self._material.material(state), depth, alpha, beta,
                                                     self._trunc[ply - 1], self.setup.truncate_unit)
        self.stats.truncations += cut
        if new != depth:  # shown on the recorded node: the picture tells what the search did
            self.rec.depth_changed(new - depth, "truncation" if cut else "given back")
        return new

    def _etc(self, state: S, moves: Sequence[M], depth: int, beta: float, ply: int) -> float | None:
        """Enhanced transposition cutoff: a child whose table entry (one that would answer it) proves
        ``-value >= beta`` gives the node a fail-high at once; ``None`` when no child does."""
        assert self.tt is not None
        get = self.tt.entries.get
        succ = self.game.successor
        for m in moves:
            child = succ(state, m)
            e = get(self._tt_key(child))
            if e is None or e.flag == LOWER:
                continue  # a lower bound on the child is an upper bound for this node: no fail-high
            if not self._answers(e, depth - 1):
                continue
            v = e.value
            if v >= DB_BOUND:
                v -= ply + 1
            elif v <= -DB_BOUND:
                v += ply + 1
            if -v >= beta:
                self.stats.etc_cutoffs += 1
                if e.horizon:
                    self.hit_horizon = self.hit_limit = True
                return -v
        return None

    def _db_root(self, state: S, moves: list[M]) -> list[M]:
        """At a root the tables cover: the moves that keep its verdict (``ai.kernel.core.db_root_moves``), probing from
        here on only after a capture (``db_limit``). Elsewhere: all moves, probing every position covered."""
        assert self.endgame is not None
        pieces = self._pieces(state)
        if pieces > self.setup.db_pieces:
            self.db_limit = self.setup.db_pieces
            return moves
        self.db_limit = pieces - 1
        kept, self.db_root = db_root_moves(self.endgame, self.game, state, moves)
        return kept

    def _db_value(self, state: S, ply: int) -> float | None:
        """The endgame database's verdict on ``state`` as a search value (``ai.kernel.core.db_score``), or ``None``."""
        assert self.endgame is not None
        r = self.endgame.probe_state(state)
        if r is None:
            return None
        self.stats.db_hits += 1
        self.hit_horizon = True  # the tables ignore the 80-ply rule: not a proof by the game's own rules
        return db_score(r, ply, self.static_value(state) if r else 0.0)

    def _leaf(self, state: S, alpha: float, beta: float, ply: int) -> float:
        self.stats.leaves += 1
        self.hit_limit = True
        if self.setup.quiescence:
            v = self._quiesce(state, alpha, beta, ply, 0)
            if abs(v) < MATE_BOUND:
                self.hit_horizon = True
            return v
        self.hit_horizon = True
        return self.static_value(state)

    def _quiesce(self, state: S, alpha: float, beta: float, ply: int, qdepth: int) -> float:
        """Quiescence: search only noisy moves (``order_key > 0``: captures) below the depth limit until quiet.

        In checkers captures are compulsory, so when any exists the side to move has no stand-pat option. With
        ``shots``, a quiet node in the first ``SHOT_PLIES`` plies also tries the moves that offer a capture.
        """
        st = self.stats
        cfg = self.setup
        if cfg.captures_first:  # the game lists its captures alone: a quiet node stands pat without making its moves
            captures = self._noisy(state)
            if not captures:
                return self.terminal_score(state, ply) if self.game.is_terminal(state) else self.static_value(state)
            if qdepth >= 32:
                return self.static_value(state)
            return self._quiesce_moves(state, captures, -math.inf, alpha, beta, ply, qdepth)
        moves = self._actions(state)
        if not moves:
            return self.terminal_score(state, ply)
        key = self.order_key
        assert key is not None
        if cfg.forced_noisy:  # compulsory captures: all moves are captures, or none is
            noisy: Sequence[M] = moves if key(state, moves[0]) > 0 else []
        else:
            noisy = [m for m in moves if key(state, m) > 0]
        best = -math.inf
        if not noisy or not (cfg.forced_noisy and len(noisy) == len(moves)):  # the side may stand pat
            best = self.static_value(state)
            margin = cfg.threats
            if margin >= 0 and not noisy and qdepth < THREAT_PLIES and alpha - margin <= best < beta + margin:
                assert self.tactics is not None
                if self.tactics.threatens(state, 1 - self._to_move(state)):
                    # under a capture threat: no stand-pat, every move is searched (the ones that save the man)
                    st.threat_nodes += 1
                    return self._quiesce_moves(state, moves, -math.inf, alpha, beta, ply, qdepth)
            if best >= beta or not (noisy or (cfg.shots and qdepth < SHOT_PLIES)):
                return best
            alpha = max(alpha, best)
            if not noisy:  # with shots: the quiet moves that offer a capture, a shot's first step
                assert self.tactics is not None
                noisy = offering_moves(self.tactics, state, moves)
                if not noisy:
                    return best
        if qdepth >= 32:
            return self.static_value(state) if best == -math.inf else best
        return self._quiesce_moves(state, noisy, best, alpha, beta, ply, qdepth)

    def _quiesce_moves(self, state: S, moves: Sequence[M], best: float, alpha: float, beta: float, ply: int,
                       qdepth: int) -> float:
        """The best of ``best`` (the stand-pat, or ``-inf`` when the side may not stand pat) and ``moves``'
        quiescence values, cutting off at ``beta``: a quiescence node's move loop."""
        st = self.stats
        for m in moves:
            st.nodes += 1
            st.qnodes += 1
            if st.nodes % self.check_every == 0:
                self._check_stop()
            v = -self._quiesce(self._successor(state, m), -beta, -alpha, ply + 1, qdepth + 1)
            if v > best:
                best = v
            if v > alpha:
                alpha = v
            if alpha >= beta:
                break
        return best

    # -- root ---------------------------------------------------------------------------------------------------
    def pv_from_tt(self, state: S, first: M, max_len: int = 32) -> tuple[M, ...]:
        """The principal variation: ``first`` then the stored best moves while the table has them."""
        if self.tt is None:
            return (first,)
        return self.tt.principal_variation(self.game, self._tt_key, state, first, max_len)

    def search_root(self, state: S, depth: int, prev_best: M | None = None,
                    prev_value: float | None = None) -> tuple[M, float, tuple[M, ...]]:
        """One iteration at ``depth`` plies: (best move, value, principal variation).

        The window is the full one, or with aspiration windows ``prev_value`` +- the half-width; when the value
        falls outside, the root's moves are searched again in the same root node with the window opened on
        that side (an aspiration re-search), so the value is always the full-window one.

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
        moves = list(self.move_order.order(state, moves, hm, 0))
        self.hit_limit = False
        if self.setup.db_pieces:
            moves = self._db_root(state, moves)
        rec = self.rec
        self.stats.nodes += 1
        lo, hi = -math.inf, math.inf
        if (self.setup.aspiration is not None and prev_value is not None and depth >= ASPIRATION_MIN_DEPTH
                and abs(prev_value) < HEURISTIC_BOUND):
            lo, hi = prev_value - self.setup.aspiration, prev_value + self.setup.aspiration
        rec.enter(state, None, lo, hi, 0)
        self.hit_horizon = False
        self.root_partial = None
        self.ext_cap = depth // 2
        self.truncating = self._material is not None and self._material.pieces(state) > TRUNCATE_MIN_PIECES
        if self.setup.repetition:
            self.path.add(state)
        try:
            while True:
                alpha, beta = lo, hi
                best, best_move = -math.inf, moves[0]
                for i, m in enumerate(moves):
                    v = self._child_value(state, m, i, depth, alpha, beta, 0)
                    if v > best:
                        best, best_move = v, m
                    if best > lo:  # proved: a later move beats the first only by a value above alpha
                        self.root_partial = (best_move, best, i + 1)
                    if self.setup.pruning and v > alpha:
                        alpha = v
                    if alpha >= beta:
                        break  # only with an aspiration window: the value is above it
                if lo < best < hi or (lo == -math.inf and hi == math.inf):
                    break
                self.stats.aspiration_fails += 1
                if best <= lo:
                    lo = -math.inf
                else:
                    hi = math.inf
                    moves = [best_move] + [m for m in moves if m != best_move]
        finally:
            if self.setup.repetition:
                self.path.discard(state)
        if key is not None:
            self._store(key, depth, best, -math.inf, math.inf, best_move, 0, self.hit_horizon)
        rec.leave(best, EXACT, -math.inf, math.inf, best_move=best_move)
        pv = self.pv_from_tt(state, best_move)
        return best_move, best, pv
