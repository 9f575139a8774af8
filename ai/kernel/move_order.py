"""Move ordering for the alpha-beta search (``ai.kernel.search``): the order in which a node tries its moves.

Alpha-beta prunes most when the best move is tried first, so :meth:`MoveOrdering.order` tries the hash move (the
table's best move from an earlier search) first, then the moves the static key scores highest (captures), then
the killer moves (quiet moves that caused a cut-off at the same ply, Akl and Newborn 1977), then by the history
heuristic (quiet moves scored by the cut-offs they caused anywhere, ``depth * depth`` each, Schaeffer 1989); ties
keep the order the moves came in. :meth:`MoveOrdering.record_cutoff` learns the killers and the history.

The search scores a node's moves at once (:meth:`MoveOrdering.scores`) and takes them one at a time
(:func:`next_best`): most nodes are cut off by their first move and never sort the rest. :meth:`MoveOrdering.order`
gives the whole order (the root's).

Compiled with mypyc beside ``ai.kernel.search`` (``gameplay/rules/compiled.py``): it runs at every inner node.
"""

from __future__ import annotations

import math
from typing import Callable, Generic, Sequence

from gameplay.rules.base import M, S

OrderKey = Callable[[S | None, M], float]
"""``key(state, move) -> float``: a static move-ordering key, higher tried first (``> 0``: a noisy move, a capture;
``state`` is ``None`` when only the move is known)."""


class MoveOrdering(Generic[S, M]):
    """The move ordering of one search (one decision, every iteration): its killer moves and history table.

    Args:
        order_key: the static ordering key, or ``None`` (no key: the hash move, killers and history only).
        enabled: order the moves at all (``SearchOptions.ordering``); off, :meth:`order` keeps the game's order.
        killer_history: use killer moves and the history heuristic (only where a move means the same in every
            position: ``traits.global_moves``).
    """

    def __init__(self, order_key: OrderKey[S, M] | None, enabled: bool, killer_history: bool) -> None:
        self.order_key = order_key
        self.enabled = enabled
        self.killer_history = killer_history
        self.killers: dict[int, dict[M, None]] = {}
        """Ply -> the (at most two) quiet moves that last caused a cut-off there, the latest first (a dict as an
        ordered set: a move that is no killer is told by its hash, with no comparison)."""
        self.history: dict[M, int] = {}
        """Quiet move -> the sum of ``depth * depth`` over the cut-offs it caused."""

    def order(self, state: S, moves: Sequence[M], hash_move: M | None, ply: int) -> Sequence[M]:
        """``moves`` in the order to try them at a node ``ply`` plies below the root: the hash move first, then the
        static key (captures), killer moves, then the history score (:meth:`scores`); ties keep their order."""
        scores = self.scores(state, moves, hash_move, ply)
        if scores is None:
            return moves
        return in_order(list(moves), scores, 0)

    def scores(self, state: S, moves: Sequence[M], hash_move: M | None, ply: int) -> list[float] | None:
        """The score of each of ``moves`` at a node ``ply`` plies below the root, higher tried first: infinite for
        the hash move, else the static key times 1e8, plus 1e7 for a killer move, plus the history score; ``None``
        when the moves are tried as they come (ordering off, or fewer than two moves).

        The search scores a node's moves before trying any (the killers and the history change as it searches)
        and then picks them one at a time (:func:`next_best`), so a node cut off by its first move sorts nothing.
        """
        if not self.enabled or len(moves) < 2:
            return None
        key = self.order_key
        kh = self.killer_history
        killers = self.killers.get(ply) if kh else None
        history = self.history
        scores: list[float] = []
        s: float
        for m in moves:
            if hash_move is not None and (m is hash_move or m == hash_move):
                s = math.inf
            else:
                s = float(history.get(m, 0)) if kh else 0.0
                if key is not None:
                    s += key(state, m) * 1e8
                if killers and m in killers:
                    s += 1e7
            scores.append(s)
        return scores

    def record_cutoff(self, move: M, depth: int, ply: int) -> None:
        """``move`` caused a cut-off at a node searched ``depth`` plies, ``ply`` plies below the root: a quiet move
        becomes that ply's first killer and gains ``depth * depth`` history (captures are ordered first anyway)."""
        if not self.killer_history:
            return
        if self.order_key is not None and self.order_key(None, move) > 0:
            return  # captures are already first; keep killers and history for quiet moves
        ks = self.killers.get(ply)
        if ks is None:
            self.killers[ply] = {move: None}
        elif move not in ks:
            kept: dict[M, None] = {move: None}
            for k in ks:  # the latest killer before it stays, second
                kept[k] = None
                break
            self.killers[ply] = kept
        self.history[move] = self.history.get(move, 0) + depth * depth


def next_best(moves: list[M], scores: list[float] | None, i: int) -> M:
    """The move to try ``i``-th, with ``moves[:i]`` already tried: the best-scoring of ``moves[i:]`` (the first of
    equals); ``moves[i]`` itself when ``scores`` is ``None`` or empty.

    Called for ``i = 0, 1, ...`` in turn, it sorts ``moves`` by score, highest first, ties in their order (as a
    stable sort would): the first call finds the best move alone (a node cut off by it sorts nothing more), the
    second sorts the rest (an insertion sort over the node's handful of moves) and empties ``scores``, so the
    calls after it only read ``moves``.
    """
    if not scores:
        return moves[i]
    if i == 0:
        best = 0
        top = scores[0]
        for k in range(1, len(scores)):
            if scores[k] > top:
                best, top = k, scores[k]
        if best:  # to the front, the moves it passes keeping their order (list.insert moves pointers, not floats)
            moves.insert(0, moves.pop(best))
            scores.insert(0, scores.pop(best))
        return moves[0]
    for k in range(i + 1, len(scores)):  # insertion sort of moves[i:]: a move passes only those that score less
        s = scores[k]
        j = k
        while j > i and scores[j - 1] < s:
            j -= 1
        if j < k:
            moves.insert(j, moves.pop(k))
            scores.insert(j, scores.pop(k))
    scores.clear()
    return moves[i]


def in_order(moves: list[M], scores: list[float] | None, start: int) -> list[M]:
    """``moves[start:]`` sorted by ``scores`` (:func:`next_best` for each in turn; ``moves`` is sorted in place)."""
    for i in range(start, len(moves)):
        next_best(moves, scores, i)
    return moves[start:]
