"""Connect Four solved exactly: the score of a position and a best move, fast enough to play from.

The solver as the field writes it (P. Pons, "Solving Connect Four", parts 1-12, 2019; V. Allis, "A
Knowledge-based Approach of Connect-Four", 1988, for the threats; J. Tromp's Fhourstones for the bitboards):

* **negamax with alpha-beta** on the bitboard position (:mod:`gameplay.rules.connect4_bits`: the side to move's
  stones and every stone), the side to move's score always;
* **the score** as Pons defines it: ``0`` a draw; a win with the winner's ``k``-th stone (counting that player's
  stones from the start of the game) scores ``22 - k`` for the winner and ``k - 22`` for the loser, so a quicker win
  scores more (from the empty board the first player wins with its 21st stone, the 41st of the game: ``+1``). Each
  position's score lies between ``-(42 - n) / 2`` and ``(43 - n) / 2`` (``n`` stones on the board, halves rounded down),
  bounds the search narrows its window by at every node;
* **non-losing moves only** (:func:`gameplay.rules.connect4_bits.non_losing_moves`): a move that lets the opponent
  win at once, or leaves one of two opponent threats open, is never searched; a position whose side to move can win
  at once is scored without a search;
* **move ordering by threats**: the move the table remembers first, then the moves by the winning cells they create
  (Allis's threats; Pons, part 10), a cell right above one of the opponent's not counted
  (:func:`gameplay.rules.connect4_bits.open_threat_count`), ties to the centre;
* **a transposition table keyed with the mirror symmetry**: a position and its mirror image share one entry (the
  smaller of the key and its mirror's), which stores a bound on the score and the move that proved it; two slots a
  bucket, the first kept for the larger search (its node count's bit length), the second for the rest;
* **enhanced transposition cutoffs** (Plaat, Schaeffer, Pijls and de Bruin, 1996): before searching its moves, a
  node looks each one's position up in the table; one bounded at or below ``-beta`` there proves ``>= beta`` here
  without a search;
* **the null-window iterative narrowing** (Pons, part 8; the MTD family): the exact score is found by a binary search
  of null-window tests ``score > m?``, each one a fast alpha-beta search with the window ``(m, m + 1)``: first
  ``m = 0`` (a win?), then next to the bound that gave (a loss? a win quicker than +1?), so a draw or a +1 takes two
  tests, then Pons's points, halfway towards 0 from the far ends.

The last four, measured on the 9 positions of 8-10 stones the solver took longest for among 120 of random play
(seeds 49 and 50 of ``tools/c4_solver_speed.py``), their nodes in all: 144.4 million without them (the table
replaced by stones, Pons's order of tests), 102.9 with the cutoffs, 91.7 with the replacement by work, 85.0 with the
open threats, 74.2 with the narrowing; on 40 other positions of 8-12 stones (seed 1234): 108.2, 77.8, 69.0, 66.1,
68.6 million.

The table is kept between solves: an entry is a bound on a position's exact score, true from any root, so each move
of a game starts from what the last one learnt. :func:`outcome_of` turns a score into the project's result words
(``win`` / ``loss`` / ``draw`` and the plies to the end, :class:`ai.kernel.core.SearchResult`); :func:`search_value`
into a search value (``WIN - plies`` for a win).

Compiled by mypyc beside the rules (``gameplay/rules/compiled.py``): the same source runs in both builds.
"""

from __future__ import annotations

import time
from typing import Callable, Final

from mypy_extensions import i64

from gameplay.rules.connect4_bits import (
    BOARD,
    ORDER_PACKED,
    can_win_next,
    column_mask,
    key,
    mirror,
    non_losing_moves,
    open_threat_count,
    possible,
    safe_moves,
    threat_count,
    winning_spots,
)

__all__ = ["CELLS", "MAX_SCORE", "MIN_SCORE", "Solver", "SolverStopped", "Solution", "outcome_of",
           "plies_to_end", "score_bounds"]

CELLS: Final = 42
"""Cells of the board: the longest game in plies."""
MIN_SCORE: Final = -(CELLS // 2) + 3
"""The lowest score a position can have (the loser lost with its 4th stone): -18."""
MAX_SCORE: Final = (CELLS + 1) // 2 - 3
"""The highest: +18 (the winner won with its 4th stone)."""
BUCKETS: Final = 524_287
"""Buckets of the transposition table, two slots each: a prime near 2**19, so keys spread over them (about 8 MB of
slots, and 32 bytes more for each slot filled). A literal, so the compiled division is by a constant. Twice as many
saved 6-10% of the nodes of positions of 4 to 12 stones (measured), not worth twice the memory."""
_COLUMN6: Final = 0xFC0000000000
"""The six cells of column 6 (0-based): column ``c``'s are ``_COLUMN6 >> (42 - 7 * c)``, as
:func:`gameplay.rules.connect4_bits.column_mask` computes them, without its call (not ``0x3F << 7 * c``: mypyc 2.4
shifts a small constant in 32 bits, even through a local variable, measured)."""
_CHECK_EVERY: Final = 4095
"""The clock and the stop test are read every 4,096 nodes."""


class SolverStopped(Exception):
    """The solve passed its deadline or its stop test said stop (raised inside :meth:`Solver.solve`)."""


class Solution:
    """A solved position: the score (Pons's), a best move and the figures of the solve.

    Attributes:
        score: the exact score of the side to move (module docstring).
        column: a best move, the column 1..7.
        nodes: nodes searched.
        tests: the null-window searches the narrowing made.
    """

    __slots__ = ("column", "nodes", "score", "tests")

    def __init__(self, score: int, column: int, nodes: int, tests: int) -> None:
        self.score = score
        self.column = column
        self.nodes = nodes
        self.tests = tests

    def __repr__(self) -> str:
        return f"Solution(score={self.score}, column={self.column}, nodes={self.nodes}, tests={self.tests})"


def score_bounds(plies: int) -> tuple[int, int]:
    """``(lowest, highest)`` score of a position with ``plies`` stones whose side to move cannot win at once."""
    return -((CELLS - plies) // 2), (CELLS + 1 - plies) // 2


def plies_to_end(score: int, plies: int) -> int:
    """Plies from a position with ``plies`` stones to the end of the game under best play when its score is
    ``score``: to the winning stone for a win or a loss, to the full board for a draw.

    Raises:
        ValueError: ``plies`` outside 0..41, or a score no position with that many stones can have.
    """
    if not 0 <= plies < CELLS:
        raise ValueError(f"a Connect Four position has 0..41 stones before the end, got {plies}")
    if score == 0:
        return CELLS - plies
    if score > 0:
        # the side to move wins with its k-th stone, k = 22 - score; its stones are plies (plies % 2) + 1, + 3, ...
        end = 2 * (22 - score) - 1 + plies % 2
    else:
        end = 2 * (22 + score) - 1 + (plies + 1) % 2  # the opponent's k-th stone, k = 22 + score
    if end <= plies:
        raise ValueError(f"score {score} is impossible with {plies} stones on the board")
    return end - plies


def outcome_of(score: int, plies: int) -> tuple[str, int]:
    """``("win" | "loss" | "draw", plies to the end)`` of the side to move for a score (:func:`plies_to_end`)."""
    word = "win" if score > 0 else ("loss" if score < 0 else "draw")
    return word, plies_to_end(score, plies)


class Solver:
    """The exact solver (module docstring). One per player or thread: it keeps its table between solves.

    Args:
        clock: the clock :meth:`solve`'s ``deadline`` is read on (seconds; the agents pass the budget's clock).
    """

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.table: list[int] = [0] * (2 * BUCKETS)
        """The transposition table: a position's key ``k`` (the smaller of its own and its mirror's) goes to bucket
        ``k % BUCKETS``, slots ``2 * bucket`` and the one after: per slot ``(k // BUCKETS + 1) << 17 | work << 11 |
        (move + 1) << 8 | bound`` (0 empty): the quotient plus one names the key within its bucket, the work (the
        bit length of the nodes its search took) ranks the entries (the first slot keeps the larger search, the
        second takes the rest: :meth:`_store`), the move the column (0-based, of the key's orientation) that proved
        a lower bound (0: none), the bound Pons's encoding (below :data:`_LOWER` an upper bound, from it a
        lower)."""
        self.nodes: i64 = 0
        """Nodes searched since the last :meth:`solve` began."""
        self.etc_cuts: i64 = 0
        """Nodes the table's bound on a child's position cut off without a search (enhanced transposition cutoffs,
        Plaat, Schaeffer, Pijls and de Bruin 1996) since the last :meth:`solve` began."""
        self.clock = clock
        self.deadline: float = 0.0
        self.timed: bool = False
        self.stop: Callable[[], bool] | None = None
        self.root_column: int = -1
        self.book: dict[int, int] = {}
        """Exact scores of solved positions by canonical key (the opening book, ``ai.connect4.connect4_book``):
        the search ends at a position found there."""
        self.book_plies: i64 = -1
        """The most stones of a position in :attr:`book` (deeper positions are not looked up)."""
        self.book_hits: i64 = 0
        """Positions the book answered since the last :meth:`solve` began."""
        self.root_log: list[tuple[int, int, int, int]] = []
        """What the root's null-window tests of the last :meth:`solve` did, in order, for the teaching views: per
        column a test searched ``(m, column, score, nodes)`` (the test ``score > m?``, the 0-based column, the
        fail-soft score it gave from the root's side: ``<= m`` an upper bound, ``> m`` a lower one, and the nodes
        below it), then at the test's end ``(m, -1, result, nodes)`` (the test's result and all its nodes). Empty
        when the score needs no search (no test is made): the side to move wins with its next stone, every move
        lets the opponent win with its next, or 40 stones or more are down (a draw)."""

    def use_book(self, scores: dict[int, int], max_plies: int) -> None:
        """Read the exact ``scores`` (by the canonical key: the smaller of a position's key and its mirror's) inside
        the search, for positions of at most ``max_plies`` stones."""
        self.book = scores
        self.book_plies = max_plies

    def clear(self) -> None:
        """Forget every table entry."""
        self.table = [0] * (2 * BUCKETS)

    # -- the table -----------------------------------------------------------------------------------------------
    def _check(self) -> None:
        if self.timed and self.clock() >= self.deadline:
            raise SolverStopped("time")
        stop = self.stop
        if stop is not None and stop():
            raise SolverStopped("stopped")

    def negamax(self, position: i64, mask: i64, plies: i64, alpha: i64, beta: i64) -> i64:
        """The score of the position within the window ``(alpha, beta)`` (fail-soft bounds outside it: a result
        ``<= alpha`` is an upper bound, ``>= beta`` a lower one). The side to move must not be able to win at once
        and the game must not be over.

        Raises:
            SolverStopped: the deadline passed or the stop test said stop.
        """
        self.nodes += 1
        start: i64 = self.nodes
        if (start & _CHECK_EVERY) == 0:
            self._check()
        other: i64 = position ^ mask
        opponent_win: i64 = winning_spots(other, mask)
        moves: i64 = safe_moves(mask, opponent_win)
        if moves == 0:
            return -((CELLS - plies) // 2)  # every move lets the opponent win with its next stone
        if plies >= CELLS - 2:
            return 0  # the last two stones: neither can make four any more
        lo: i64 = -((CELLS - 2 - plies) // 2)  # the opponent cannot win with its next stone
        if alpha < lo:
            alpha = lo
            if alpha >= beta:
                return alpha
        hi: i64 = (CELLS - 1 - plies) // 2  # the side to move cannot win with this stone
        if beta > hi:
            beta = hi
            if alpha >= beta:
                return beta
        k: i64 = key(position, mask)
        mk: i64 = mirror(k)
        flipped = mk < k
        if flipped:
            k = mk
        slot: i64 = (k % BUCKETS) * 2
        tag: i64 = k // BUCKETS + 1  # from 1: an empty slot (0) names no position
        table = self.table
        entry: i64 = table[slot]
        if (entry >> 17) != tag:
            entry = table[slot + 1]
        hash_col: i64 = -1
        if (entry >> 17) == tag:
            v: i64 = entry & 0xFF
            if v >= _LOWER:
                lower: i64 = v - _LOWER + MIN_SCORE
                if alpha < lower:
                    alpha = lower
                    if alpha >= beta:
                        return alpha
            else:
                upper: i64 = v - 1 + MIN_SCORE
                if beta > upper:
                    beta = upper
                    if alpha >= beta:
                        return beta
            hash_col = ((entry >> 8) & 7) - 1
            if hash_col >= 0 and flipped:
                hash_col = 6 - hash_col
        if plies <= self.book_plies:
            known = self.book.get(k)
            if known is not None:
                self.book_hits += 1
                return known
        # enhanced transposition cutoff: a move whose position the table bounds at <= -beta proves >= beta here
        base: i64 = key(other, mask)  # a child's key is this plus its new stone
        c0: i64 = 0 if plies < CELLS - 3 else 7  # (a child of 40 stones and more is scored 0 and never stored)
        while c0 < 7:
            m0: i64 = moves & (_COLUMN6 >> (42 - 7 * c0))
            if m0 != 0:
                ck: i64 = base + m0
                cmk: i64 = mirror(ck)
                if cmk < ck:
                    ck = cmk
                cslot: i64 = (ck % BUCKETS) * 2
                ctag: i64 = ck // BUCKETS + 1
                centry: i64 = table[cslot]
                if (centry >> 17) != ctag:
                    centry = table[cslot + 1]
                if (centry >> 17) == ctag and (centry & 0xFF) < _LOWER:
                    bound: i64 = -((centry & 0xFF) - 1 + MIN_SCORE)  # the child's upper bound, negated
                    if bound >= beta:
                        self.etc_cuts += 1
                        return bound
            c0 += 1
        # the moves to try: the table's first, then by the open winning cells each creates, ties to the centre
        order: i64 = ORDER_PACKED
        scores: i64 = 0  # 4 bits for the i-th column of COLUMN_ORDER: its threats + 1 (0: not to be tried)
        i: i64 = 0
        while i < 7:
            c: i64 = (order >> (3 * i)) & 7
            m: i64 = moves & (_COLUMN6 >> (42 - 7 * c))
            if m != 0 and c != hash_col:
                t: i64 = open_threat_count(position, mask, m, opponent_win)
                v1: i64 = t + 1 if t < 14 else 15
                scores |= v1 << (4 * i)
            i += 1
        if hash_col >= 0 and (moves & (_COLUMN6 >> (42 - 7 * hash_col))) == 0:
            hash_col = -1
        col: i64 = hash_col
        best_col: i64 = -1
        while True:
            if col < 0:  # the next move by threats: the first of the highest score in COLUMN_ORDER
                best_s: i64 = 0
                best_i: i64 = 0
                j: i64 = 0
                while j < 7:
                    s: i64 = (scores >> (4 * j)) & 15
                    if s > best_s:
                        best_s = s
                        best_i = j
                    j += 1
                if best_s == 0:
                    break
                scores ^= best_s << (4 * best_i)  # taken
                col = (order >> (3 * best_i)) & 7
            m2: i64 = moves & (_COLUMN6 >> (42 - 7 * col))
            score: i64 = -self.negamax(other, mask | m2, plies + 1, -beta, -alpha)
            if score >= beta:
                self._store(slot, tag, _work(self.nodes - start), col, flipped, score - MIN_SCORE + _LOWER)
                return score
            if score > alpha:
                alpha = score
                best_col = col
            col = -1
        self._store(slot, tag, _work(self.nodes - start), best_col, flipped, alpha - MIN_SCORE + 1)
        return alpha

    def _store(self, slot: i64, tag: i64, work: i64, col: i64, flipped: bool, bound: i64) -> None:
        """Keep a bound in the position's bucket: in its own slot when it has one; else the first slot keeps the
        entry of the larger search (its old entry moves to the second slot when the new one's search was at least as
        large), and the second slot takes the rest (two-tier replacement by work, Breuker, Uiterwijk and van den
        Herik 1994)."""
        if col >= 0 and flipped:
            col = 6 - col
        table = self.table
        entry: i64 = (tag << 17) | (work << 11) | ((col + 1) << 8) | bound
        first: i64 = table[slot]
        if (first >> 17) == tag:
            table[slot] = entry
        elif (table[slot + 1] >> 17) == tag or (first != 0 and ((first >> 11) & 63) > work):
            table[slot + 1] = entry
        else:
            if first != 0:
                table[slot + 1] = first
            table[slot] = entry

    def _root(self, position: i64, mask: i64, plies: i64, alpha: i64, beta: i64) -> i64:
        """:meth:`negamax` at the root, remembering the move of a result ``> alpha`` in :attr:`root_column`."""
        moves: i64 = non_losing_moves(position, mask)
        if moves == 0 or plies >= CELLS - 2:
            return self.negamax(position, mask, plies, alpha, beta)
        other: i64 = position ^ mask
        best: i64 = -CELLS
        order: list[tuple[int, int, int]] = []  # (fewer threats, farther from the centre, column): best first
        for c in range(7):
            m: i64 = moves & column_mask(c)
            if m != 0:
                order.append((-threat_count(position, mask, m), abs(c - 3) * 2 + (1 if c > 3 else 0), c))
        order.sort()
        first = self.root_column
        cols = [c for _, _, c in order]
        if first in cols:
            cols.remove(first)
            cols.insert(0, first)
        self.nodes += 1
        log = self.root_log
        for col in cols:
            m2: i64 = moves & column_mask(col)
            before: i64 = self.nodes
            score: i64 = -self.negamax(other, mask | m2, plies + 1, -beta, -alpha)
            log.append((int(alpha), int(col), int(score), int(self.nodes - before)))
            if score > best:
                best = score
            if score > alpha:
                self.root_column = col
                if score >= beta:
                    return score
                alpha = score
        return best

    def solve(self, position: int, mask: int, deadline: float | None = None,
              stop: Callable[[], bool] | None = None) -> Solution:
        """The exact score and a best move of the position (the side to move's stones ``position``, every stone
        ``mask``: :func:`gameplay.rules.connect4_bits.from_state_bits`).

        Args:
            position: the side to move's stones (bitboard, bit ``7 * column + row``).
            mask: every stone.
            deadline: stop when :attr:`clock` reads this (``None``: no deadline).
            stop: called every 4,096 nodes; True stops the solve.

        Raises:
            ValueError: the bitboards are not a position (stones outside the board, ``position`` not within
                ``mask``, a stone over an empty cell), or the game is over there (a four on the board, or full).
            SolverStopped: the deadline passed or ``stop`` said stop (the table keeps what was learnt).
        """
        _check_position(position, mask)
        p: i64 = position
        msk: i64 = mask
        plies = _count(msk)
        self.nodes = 0
        self.etc_cuts = 0
        self.book_hits = 0
        self.timed = deadline is not None
        self.deadline = deadline if deadline is not None else 0.0
        self.stop = stop
        self.root_column = -1
        self.root_log = []
        if can_win_next(p, msk):
            win = winning_spots(p, msk) & possible(msk)
            col = 0
            while (win & column_mask(col)) == 0:
                col += 1
            return Solution((CELLS + 1 - plies) // 2, col + 1, 1, 0)
        free: i64 = non_losing_moves(p, msk)
        if free == 0 or plies >= CELLS - 2:  # every move loses at once, or too few cells are left for a four: the
            # score without a search (no null-window test), as the search's own first lines give it
            score: i64 = -((CELLS - plies) // 2) if free == 0 else 0
            legal: i64 = free if free != 0 else possible(msk)
            col = 0
            while (legal & column_mask(col)) == 0:
                col += 1
            return Solution(int(score), col + 1, 1, 0)
        lo: i64 = -((CELLS - plies) // 2)
        hi: i64 = (CELLS + 1 - plies) // 2
        tests = 0
        while lo < hi:  # narrow [lo, hi] to the score by null-window tests "score > med?"
            med: i64 = lo + (hi - lo) // 2
            if med <= 0 and lo // 2 < med:
                med = lo // 2
            elif med >= 0 and hi // 2 > med:
                med = hi // 2
            if tests == 0:  # first the outcome (a win?), then whether the bound it gave is the score: most
                med = 0  # positions of few stones score within one of 0 (Pons starts at the far ends)
            elif tests == 1:
                med = hi - 1 if hi <= 0 else lo
            before: i64 = self.nodes
            r = self._root(p, msk, plies, med, med + 1)
            self.root_log.append((int(med), -1, int(r), int(self.nodes - before)))
            tests += 1
            if r <= med:
                hi = r
            else:
                lo = r
        col = self.root_column
        if col < 0:  # no move ever beat a test: every move scores the lowest score; any non-losing one will do
            col = 0
            while (free & column_mask(col)) == 0:
                col += 1
        return Solution(int(lo), col + 1, int(self.nodes), tests)


_LOWER: Final = MAX_SCORE - MIN_SCORE + 2
"""A stored bound from this up is a lower bound (``bound - _LOWER + MIN_SCORE``); below it an upper bound
(``bound - 1 + MIN_SCORE``)."""


def _work(nodes: i64) -> i64:
    """The bit length of ``nodes + 1`` less one (``floor(log2(nodes + 1))``): a search's size as the table ranks it.
    (Constants, not ``1 << 32``: mypyc 2.4 shifts a small constant in 32 bits, :mod:`gameplay.rules.connect4_bits`.)"""
    n: i64 = nodes + 1
    w: i64 = 0
    if n >= 4_294_967_296:
        n >>= 32
        w += 32
    if n >= 65_536:
        n >>= 16
        w += 16
    if n >= 256:
        n >>= 8
        w += 8
    if n >= 16:
        n >>= 4
        w += 4
    if n >= 4:
        n >>= 2
        w += 2
    if n >= 2:
        w += 1
    return w


def _count(x: i64) -> int:
    n = 0
    while x != 0:
        x &= x - 1
        n += 1
    return n


def _check_position(position: int, mask: int) -> None:
    """Refuse bitboards that are no Connect Four position before the game's end (:meth:`Solver.solve`)."""
    if mask < 0 or position < 0 or mask & ~BOARD or position & ~mask:
        raise ValueError("not a Connect Four position: stones outside the board or the side to move's stones "
                         "outside the mask")
    for c in range(7):
        col = (mask >> (7 * c)) & 0x7F
        if col & (col + 1):
            raise ValueError(f"not a Connect Four position: column {c + 1} has a stone over an empty cell")
    n = _count(mask)
    if n >= CELLS:
        raise ValueError("the board is full: the game is over")
    other = position ^ mask
    if _four(other) or _four(position):
        raise ValueError("the game is over: there is a four on the board")
    return None


def _four(s: int) -> bool:
    for d in (1, 6, 7, 8):
        m = s & (s >> d)
        if m & (m >> (2 * d)):
            return True
    return False
