"""The transposition table: a typed entry and a bounded table keyed by position and draw history.

Entries follow Stockfish's ``tt.cpp``: the depth searched, a bound flag (exact, lower, upper), the value with
proven scores stored relative to the node (``WIN - p`` counted from the node, not from the root, so the entry is
right at any ply), the best move (tried first next time: the hash move) and whether the value rests on a depth
limit anywhere below (``horizon``: a value without one is the true game value of that subtree).

The key, and why. A checkers position's value depends on more than the board: on the draw bookkeeping of the
path that led to it. Its value changes when a position of its reversible history (the positions since the last
capture or man move) comes round again, which the search scores as a draw, and when the 80-ply counter runs
out. Keying entries by the board alone carries a value found on one path to another path where it is false
(graph history interaction; Campbell, "The graph-history interaction: on ignoring position history", ACM
1985). So the key is the position together with the game's ``draw_context`` -- for checkers the quiet-ply
counter and the tuple of Zobrist keys of the reversible history -- and every stored value is exact for every
node that finds it. Within one search the history before the root is the same for all nodes, so the
in-tree repetitions and the positions from before the root are both accounted for. Games whose positions cannot
repeat return ``None`` and are keyed by the position alone.
"""

from __future__ import annotations

from typing import Any, Callable, Final, Generic, Hashable, TypeVar

M = TypeVar("M")
"""The game's move type."""

MAX_RANK: Final = 1 << 30
"""Eviction rank of an entry that rests on no depth limit (kept longest)."""
EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2
"""Bound flags: the value is exact, a lower bound (a fail-high, >= beta) or an upper bound (<= alpha)."""


def bound_flag(best: float, alpha_orig: float, beta: float, pruning: bool = True, strict: bool = False) -> int:
    """The bound flag of a node's value ``best`` searched with the window ``(alpha_orig, beta)`` (for the recorder).

    ``EXACT`` without pruning (minimax) or inside the window; ``UPPER`` at or below ``alpha_orig`` (every move
    failed low); ``LOWER`` after a cut-off (``best >= beta``; ``best > beta`` with ``strict`` pruning).
    """
    if not pruning:
        return EXACT
    if best <= alpha_orig:
        return UPPER
    return LOWER if ((best > beta) if strict else (best >= beta)) else EXACT


class TTEntry(Generic[M]):
    """One stored search result (values in the searching side's view, proven scores relative to the node).

    A plain class with ``Final`` fields rather than a named tuple: compiled (mypyc), its fields are read as machine
    words (the search reads four of them at every table hit) and it is built by one call, not through a tuple.

    Args:
        depth, flag, value, move, horizon: the fields below, in this order.
    """

    __slots__ = ("depth", "flag", "value", "move", "horizon")

    def __init__(self, depth: int, flag: int, value: float, move: M | None, horizon: bool) -> None:
        self.depth: Final = depth
        """Plies searched below the node."""
        self.flag: Final = flag
        """``EXACT``, ``LOWER`` or ``UPPER``."""
        self.value: Final = value
        """The value found (a bound unless ``flag`` is ``EXACT``)."""
        self.move: Final = move
        """The best move found (the hash move), or ``None``."""
        self.horizon: Final = horizon
        """True when the value rests on a depth-limit evaluation somewhere below (False: the game's own result)."""

    def __repr__(self) -> str:
        return (f"TTEntry(depth={self.depth}, flag={self.flag}, value={self.value!r}, move={self.move!r}, "
                f"horizon={self.horizon})")


class TranspositionTable(Generic[M]):
    """A bounded map from keys to :class:`TTEntry` (moves of type ``M``) with a depth-preferred replacement scheme.

    The searches key it with the state alone when ``game.draw_context(state)`` is ``None``, else with the pair
    ``(state, draw context)`` (``ai.kernel.search.Searcher._tt_key``).

    When the table is full, the shallowest entries make room: entries are dropped by increasing depth searched
    (those resting on no depth limit last, as they hold exact game values) until at most half of ``limit``
    remain, so the deep results, which cost the most nodes, survive (depth-preferred replacement, Breuker, Uiterwijk
    and van den Herik, "Replacement schemes for transposition tables", ICCA Journal 17(4), 1994; a dict has no
    buckets, so the eviction runs in one pass over the table each time it fills, amortised over ``limit / 2``
    stores).

    Args:
        limit: most entries kept (about 250 bytes each in CPython).

    Raises:
        ValueError: ``limit`` is less than 1.
    """

    def __init__(self, limit: int = 1_000_000) -> None:
        if limit < 1:
            raise ValueError(f"transposition table limit must be >= 1 entry, got {limit}")
        self.limit = limit
        self.entries: dict[Hashable, TTEntry[M]] = {}
        """The entries (the search reads ``entries.get`` directly in its hot loop)."""
        self.evictions = 0
        """How many times the table was full and its shallowest entries were dropped."""

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, key: Hashable) -> TTEntry[M] | None:
        """The entry stored under ``key``, or ``None``."""
        return self.entries.get(key)

    def store(self, key: Hashable, entry: TTEntry[M]) -> None:
        """Store ``entry`` under ``key`` (replacing any older one); make room first when the table is full."""
        entries = self.entries
        if len(entries) >= self.limit and key not in entries:
            self.evict()
        entries[key] = entry

    def evict(self) -> None:
        """Drop the shallowest entries until at most half of ``limit`` remain (see the class docstring)."""
        entries = self.entries
        keep = self.limit // 2
        by_depth: dict[int, int] = {}
        for e in entries.values():
            d = e.depth if e.horizon else MAX_RANK
            by_depth[d] = by_depth.get(d, 0) + 1
        drop = len(entries) - keep
        cut = -1  # every entry ranked <= cut goes, then ``extra`` of those ranked ``part``
        part, extra = -1, 0
        for d in sorted(by_depth):
            if by_depth[d] <= drop:
                cut, drop = d, drop - by_depth[d]
            else:
                part, extra = d, drop
                break
        doomed = []
        for k, e in entries.items():
            d = e.depth if e.horizon else MAX_RANK
            if d <= cut:
                doomed.append(k)
            elif extra and d == part:
                doomed.append(k)
                extra -= 1
        for k in doomed:
            del entries[k]
        self.evictions += 1

    def principal_variation(self, game: Any, key_of: Callable[[Any], Hashable], state: Any, first: M,
                            max_len: int = 32) -> tuple[M, ...]:
        """``first`` then the stored best moves from ``state`` while the table has them (at most ``max_len``
        moves, stopping at a repeated position or a stored move that is not legal); ``key_of(state)`` is the
        table key and ``game`` has ``successor`` and ``actions``."""
        pv = [first]
        seen = {state}
        s = game.successor(state, first)
        while len(pv) < max_len and s not in seen:
            seen.add(s)
            e = self.entries.get(key_of(s))
            if e is None or e.move is None or e.move not in game.actions(s):
                break
            pv.append(e.move)
            s = game.successor(s, e.move)
        return tuple(pv)

    def clear(self) -> None:
        """Forget every entry."""
        self.entries.clear()
