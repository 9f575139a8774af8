"""Tidy drawing of a tree: the x of every node (no pygame).

The algorithm of Buchheim, Jünger and Leipert, "Improving Walker's algorithm to run in linear time" (Graph Drawing
2002), the linear-time form of the Reingold-Tilford family: children keep their order, a parent is centred over
its first and last child, equal subtrees are drawn alike, and the drawing is as narrow as those rules allow.
Iterative (no recursion), so any depth works. :func:`gameplay.pictures.tree_layout.layout` places its items with it.
"""

from __future__ import annotations

from collections.abc import Sequence


def tidy_x(children: Sequence[Sequence[int]], parent: Sequence[int | None], sibling_sep: float = 1.0,
           subtree_sep: float = 1.0) -> list[float]:
    """The x of every node of a tree given by ``children`` and ``parent`` (index 0 the root), in units of the
    separations; not shifted (the caller puts the leftmost at 0). ``[]`` for no nodes."""
    if not children:
        return []
    tidy = Tidy(children, parent, sibling_sep, subtree_sep)
    tidy.first_walk()
    return tidy.second_walk()


class Tidy:
    """The state of Buchheim, Jünger and Leipert's algorithm over a tree's nodes (by index, 0 the root): each
    node's preliminary x, modifier, shift and change, its thread and ancestor (the paper's names).

    Args:
        children: each node's children, in order.
        parent: each node's parent (``None`` for the root).
        sibling_sep: distance between adjacent siblings.
        subtree_sep: least distance between neighbouring subtrees.
    """

    def __init__(self, children: Sequence[Sequence[int]], parent: Sequence[int | None], sibling_sep: float,
                 subtree_sep: float) -> None:
        n = len(children)
        self.sibling_sep, self.subtree_sep = sibling_sep, subtree_sep
        self.kids = children
        self.parent = parent
        self.number = [0] * n  # position among siblings
        for ks in children:
            for j, c in enumerate(ks):
                self.number[c] = j
        self.prelim = [0.0] * n
        self.mod = [0.0] * n
        self.shift = [0.0] * n
        self.change = [0.0] * n
        self.thread: list[int | None] = [None] * n
        self.ancestor = list(range(n))
        self.default = [self.kids[v][0] if self.kids[v] else v for v in range(n)]

    def left_sibling(self, v: int) -> int | None:
        p = self.parent[v]
        return None if p is None or self.number[v] == 0 else self.kids[p][self.number[v] - 1]

    def next_left(self, v: int) -> int | None:
        return self.kids[v][0] if self.kids[v] else self.thread[v]

    def next_right(self, v: int) -> int | None:
        return self.kids[v][-1] if self.kids[v] else self.thread[v]

    def move_subtree(self, wm: int, wp: int, sh: float) -> None:
        subtrees = self.number[wp] - self.number[wm]
        self.change[wp] -= sh / subtrees
        self.shift[wp] += sh
        self.change[wm] += sh / subtrees
        self.prelim[wp] += sh
        self.mod[wp] += sh

    def apportion(self, v: int, default_ancestor: int) -> int:
        """Push ``v``'s subtree right of its left siblings' subtrees, contour against contour."""
        w = self.left_sibling(v)
        if w is None:
            return default_ancestor
        p = self.parent[v]
        assert p is not None
        mod, prelim = self.mod, self.prelim
        vip = vop = v
        vim = w
        vom = self.kids[p][0]
        sip, sop, sim, som = mod[vip], mod[vop], mod[vim], mod[vom]
        nr, nl = self.next_right(vim), self.next_left(vip)
        while nr is not None and nl is not None:
            vim, vip = nr, nl
            vom_n, vop_n = self.next_left(vom), self.next_right(vop)
            assert vom_n is not None and vop_n is not None
            vom, vop = vom_n, vop_n
            self.ancestor[vop] = v
            sh = (prelim[vim] + sim) - (prelim[vip] + sip) + self.subtree_sep
            if sh > 0:
                a = self.ancestor[vim]
                self.move_subtree(a if self.parent[a] == p else default_ancestor, v, sh)
                sip += sh
                sop += sh
            sim += mod[vim]
            sip += mod[vip]
            som += mod[vom]
            sop += mod[vop]
            nr, nl = self.next_right(vim), self.next_left(vip)
        if nr is not None and self.next_right(vop) is None:
            self.thread[vop] = nr
            mod[vop] += sim - sop
        if nl is not None and self.next_left(vom) is None:
            self.thread[vom] = nl
            mod[vom] += sip - som
            default_ancestor = v
        return default_ancestor

    def execute_shifts(self, v: int) -> None:
        sh = ch = 0.0
        for w in reversed(self.kids[v]):
            self.prelim[w] += sh
            self.mod[w] += sh
            ch += self.change[w]
            sh += self.shift[w] + ch

    def first_walk(self) -> None:
        """Post-order: each node's preliminary x and modifier."""
        stack: list[tuple[int, bool]] = [(0, False)]
        while stack:
            v, done = stack.pop()
            if not done:
                stack.append((v, True))
                stack.extend((c, False) for c in reversed(self.kids[v]))
                continue
            self.settle(v)

    def settle(self, v: int) -> None:
        """``v``'s preliminary x (its children already placed), then its subtree apportioned against its left
        siblings'."""
        kids, prelim = self.kids, self.prelim
        w = self.left_sibling(v)
        if not kids[v]:
            prelim[v] = prelim[w] + self.sibling_sep if w is not None else 0.0
        else:
            self.execute_shifts(v)
            mid = (prelim[kids[v][0]] + prelim[kids[v][-1]]) / 2
            if w is not None:
                prelim[v] = prelim[w] + self.sibling_sep
                self.mod[v] = prelim[v] - mid
            else:
                prelim[v] = mid
        p = self.parent[v]
        if p is not None:
            self.default[p] = self.apportion(v, self.default[p])

    def second_walk(self) -> list[float]:
        """Pre-order: every node's x, its ancestors' modifiers added."""
        xs = [0.0] * len(self.kids)
        walk: list[tuple[int, float]] = [(0, 0.0)]
        while walk:
            v, m = walk.pop()
            xs[v] = self.prelim[v] + m
            walk.extend((c, m + self.mod[v]) for c in self.kids[v])
        return xs
