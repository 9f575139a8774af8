"""Tidy layout of a recorded search tree, with collapsing, and the picture drawn from it (no pygame).

Two layers, both pure Python so the exporters (``gameplay.tree_export``) and the pygame overlay
(``gameplay.ui.tree_png``) share them:

* :func:`layout` chooses which nodes are visible and places them. Placement is the tidy-tree algorithm of
  Buchheim, Jünger and Leipert, "Improving Walker's algorithm to run in linear time" (Graph Drawing 2002),
  the linear-time form of the Reingold-Tilford family: children keep their order, a parent is centred over its
  first and last child, equal subtrees are drawn alike, and the drawing is as narrow as those rules allow.
  Coordinates are abstract: ``x`` in sibling-separation units (0 = leftmost visible node), ``y`` = depth.
  Besides the recorded nodes the layout holds two kinds of placeholder: *pruned* children (the sibling moves
  a cut-off skipped, with the ``alpha >= beta`` reason from the parent's window) and *collapsed* markers
  (``+N nodes``) standing for subtrees or sibling runs that did not fit the node budget.
* :func:`build_picture` turns a layout into a display list (:class:`Picture`) of lines, polygons, circles,
  rectangles and text in pixels, with a header and a legend. The SVG writer serialises it; the pygame renderer
  draws it with a zoom and an offset. Colours are the Okabe-Ito colour-blind-safe palette, and every colour
  distinction is doubled by a shape or a line style (MAX triangle up, MIN triangle down, CHANCE circle, leaf
  box, pruned dashed, principal variation thick).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ai.recording import CHANCE, MAX, MIN, RecordedNode, SearchTree, number_text

NODE, PRUNED, COLLAPSED = "node", "pruned", "collapsed"
"""The kinds of :class:`LayoutNode`."""
LEAF = "LEAF"
"""Shape kind of a leaf (depth-limit evaluation or terminal position)."""
DEFAULT_MAX_VISIBLE = 120
"""Default node budget of :func:`layout` (placeholders included)."""
DEFAULT_MAX_WIDTH = 20
"""Default most items on one level of :func:`layout`: about what a projector shows with readable labels."""
INF = math.inf


# ----------------------------------------------------------------------------------------------------------------
# Layout
# ----------------------------------------------------------------------------------------------------------------
@dataclass(slots=True)
class LayoutNode:
    """One visible item of a laid-out tree."""

    index: int
    """Position in :attr:`TreeLayout.nodes` (0 = root)."""
    kind: str
    """``node`` (a recorded node), ``pruned`` (skipped moves) or ``collapsed`` (hidden nodes)."""
    parent: int | None
    """Index of the parent item."""
    depth: int
    """Plies below the root; the layout's ``y``."""
    shape: str
    """How to draw it: ``MAX``, ``MIN``, ``CHANCE`` or ``LEAF`` (placeholders: the shape they stand for)."""
    node: RecordedNode | None = None
    """The recorded node (``kind == "node"``)."""
    moves: tuple[str, ...] = ()
    """``pruned``: the skipped moves it stands for."""
    hidden: int = 0
    """``collapsed``: recorded nodes hidden behind it; ``pruned``: the number of skipped moves."""
    hidden_pruned: int = 0
    """``collapsed``: skipped moves inside the hidden part."""
    reason: str = ""
    """``pruned``: the cut-off test that fired, from the parent's window, e.g. ``α=3 ≥ β=2``."""
    on_pv: bool = False
    """On the principal variation (edge from the parent drawn thick)."""
    x: float = 0.0
    """Horizontal position in sibling-separation units (0 = leftmost)."""
    children: list[int] = field(default_factory=list)
    """Indices of the visible children, in the search's order."""

    @property
    def y(self) -> float:
        """Vertical position: the depth."""
        return float(self.depth)

    @property
    def node_id(self) -> int | None:
        """The recorded node's id, the parent's id for placeholders."""
        return self.node.id if self.node is not None else None


@dataclass
class TreeLayout:
    """A laid-out tree: the visible items and what was left out."""

    tree: SearchTree
    nodes: list[LayoutNode]
    """Visible items; the root (if any) is ``nodes[0]``; parents come before their children."""
    width: float
    """``max x`` (the span in separation units; 0 for a single column)."""
    depth: int
    """Deepest visible depth."""
    shown: int
    """Recorded nodes visible."""
    hidden: int
    """Recorded nodes behind collapsed markers."""
    show_window: bool
    """Whether alpha/beta windows mean something here (a pruning search)."""

    def by_node_id(self) -> dict[int, LayoutNode]:
        """Visible recorded nodes by their recorded id."""
        return {n.node.id: n for n in self.nodes if n.node is not None}


def _fmt(v: float) -> str:
    if v == INF:
        return "+∞"
    if v == -INF:
        return "−∞"
    return number_text(v)


def cut_reason(n: RecordedNode, prune: str = "ge") -> str:
    """The cut-off test that fired at ``n`` (a node with skipped children), from MAX's view: ``α=3 ≥ β=2``.

    The window when the search stopped is the entry window tightened by the node's value (MAX raises alpha,
    MIN lowers beta).

    Args:
        n: a recorded MAX or MIN node with ``skipped`` moves.
        prune: ``ge`` (cut when alpha >= beta) or ``gt``.

    Returns:
        The test as text, or ``""`` for a chance node.
    """
    if n.kind == CHANCE:
        return ""
    a, b = max(n.alpha_in, n.alpha_out), min(n.beta_in, n.beta_out)
    if n.kind == MAX:
        a = max(a, n.value)
    else:
        b = min(b, n.value)
    return f"α={_fmt(a)} {'≥' if prune != 'gt' else '>'} β={_fmt(b)}"


def _shape_of(n: RecordedNode) -> str:
    if n.note in ("leaf", "terminal") or (not n.children and not n.skipped and n.note == ""):
        return LEAF
    return n.kind


def layout(tree: SearchTree, max_depth: int | None = None, max_children: int | None = None,
           collapse: int | None = DEFAULT_MAX_VISIBLE, *, max_width: int | None = DEFAULT_MAX_WIDTH,
           expand: Collection[int] = (),
           fold: Collection[int] = (), show_pruned: bool = True, group_pruned: int = 3,
           sibling_sep: float = 1.0, subtree_sep: float = 1.0) -> TreeLayout:
    """Choose the visible nodes of ``tree`` and place them (Buchheim-Jünger-Leipert tidy layout).

    Visibility: the root's children and the principal variation (down to ``max_depth``) are always shown; the
    other nodes are expanded level by level, in visiting order, while the budgets ``collapse`` and ``max_width``
    allow (room for the principal variation is reserved first). A node whose children do not fit gets one
    ``+N nodes`` marker instead, and after the first miss no other node of that level or deeper is expanded, so
    the picture stays a clean top slice. Linear in the number of recorded nodes.

    Args:
        tree: the recorded search.
        max_depth: show nodes down to this depth; deeper ones are collapsed (``None``: no limit).
        max_children: show at most this many searched children per node, the rest as one marker (the child on
            the principal variation always shown); ``None``: all.
        collapse: the most items to show, placeholders included (``None``: no budget).
        max_width: the most items on one level (the picture's width, roughly, in units; ``None``: no limit).
        expand: recorded node ids to expand whatever the budget (the overlay's clicks).
        fold: recorded node ids never to expand.
        show_pruned: add placeholders for the moves cut off.
        group_pruned: a node with more skipped moves than this gets one placeholder for all of them.
        sibling_sep: distance between adjacent siblings, in units.
        subtree_sep: least distance between neighbouring subtrees, in units.

    Returns:
        The layout; empty (no nodes) for an empty tree.
    """
    rec = {n.id: n for n in tree.nodes}
    windows = any(n.alpha_in > -INF or n.beta_in < INF for n in tree.nodes) and tree.algorithm != "expectimax"
    if 0 not in rec:
        return TreeLayout(tree, [], 0.0, 0, 0, 0, windows)
    # subtree sizes (stored nodes) and skipped moves below each node; ids grow with the visiting order
    size = {i: 1 for i in rec}
    cut = {i: len(n.skipped) for i, n in rec.items()}
    for i in sorted(rec, reverse=True):
        p = rec[i].parent
        if p is not None and p in rec:
            size[p] += size[i]
            cut[p] += cut[i]
    kids = {i: [k for k in n.children if k in rec] for i, n in rec.items()}
    expand_set, fold_set = set(expand), set(fold)

    def shown_kids(i: int) -> tuple[list[int], list[int]]:
        ks = kids[i]
        if max_children is None or len(ks) <= max(1, max_children):
            return ks, []
        m = max(1, max_children)
        keep = ks[: m - 1]
        pv = next((k for k in ks if rec[k].on_pv), None)
        if pv is not None and pv not in keep:
            keep = keep[: m - 2] + [pv] if m >= 2 else [pv]
            keep.sort(key=ks.index)
        return keep, [k for k in ks if k not in keep]

    def pruned_items(i: int) -> int:
        s = rec[i].skipped
        if not show_pruned or not s:
            return 0
        return 1 if len(s) > group_pruned else len(s)

    def expansion_cost(i: int) -> tuple[int, int]:
        """Items added by expanding ``i``: at its children's level (its own marker goes away), and below."""
        keep, rest = shown_kids(i)
        below = sum(1 for k in keep if kids[k] or (show_pruned and rec[k].skipped))  # the new frontier's markers
        return len(keep) + (1 if rest else 0) + pruned_items(i) - 1, below

    def expandable(i: int) -> bool:
        n = rec[i]
        return bool(kids[i] or (show_pruned and n.skipped))

    # -- choose the expanded set, breadth first ------------------------------------------------------------------
    expanded: set[int] = set()
    per_level: dict[int, int] = {0: 1, 1: 1 if expandable(0) else 0}
    used = 1 + per_level[1]
    # the principal variation is kept visible to the bottom: its expansions are reserved before the rest
    reserve = 0
    reserve_level: dict[int, int] = {}
    for i, n in rec.items():
        if i and n.on_pv and expandable(i) and i not in fold_set and (max_depth is None or n.depth < max_depth):
            here, below = expansion_cost(i)
            reserve += here + below
            reserve_level[n.depth + 1] = reserve_level.get(n.depth + 1, 0) + here
            reserve_level[n.depth + 2] = reserve_level.get(n.depth + 2, 0) + below
    level = [0]
    missed = False
    while level:
        level.sort(key=lambda i: (not rec[i].on_pv, rec[i].enter_order))
        nxt: list[int] = []
        for i in level:
            n = rec[i]
            if not expandable(i) or i in fold_set:
                continue
            if max_depth is not None and n.depth >= max_depth and i not in expand_set:
                continue
            forced = i == 0 or i in expand_set
            pv = n.on_pv and i != 0
            if not forced and (missed and not pv):
                continue
            here, below = expansion_cost(i)
            d = n.depth
            if pv:  # its room was reserved
                reserve -= here + below
                reserve_level[d + 1] -= here
                reserve_level[d + 2] -= below
            fits = (collapse is None or used + here + below + reserve <= collapse) and (
                max_width is None or (
                    per_level.get(d + 1, 0) + here + reserve_level.get(d + 1, 0) <= max_width
                    and per_level.get(d + 2, 0) + below + reserve_level.get(d + 2, 0) <= max_width))
            if not (forced or pv) and not fits:
                missed = True
                continue
            used += here + below
            per_level[d + 1] = per_level.get(d + 1, 0) + here
            per_level[d + 2] = per_level.get(d + 2, 0) + below
            expanded.add(i)
            nxt.extend(shown_kids(i)[0])
        level = nxt

    # -- build the visible items, parents first (depth-first, children in order) --------------------------------
    items: list[LayoutNode] = []
    shown = 0
    hidden = 0

    def add(item: LayoutNode) -> int:
        item.index = len(items)
        items.append(item)
        if item.parent is not None:
            items[item.parent].children.append(item.index)
        return item.index

    # the stack holds recorded nodes to add, and each expanded node's placeholders, pushed under its children so
    # they are added after them (they come last in the search order too)
    stack: list[tuple[int, int | None, list[LayoutNode]]] = [(0, None, [])]
    while stack:
        i, parent, tail = stack.pop()
        if i < 0:
            assert parent is not None
            for t in tail:
                t.parent = parent
                add(t)
            continue
        n = rec[i]
        idx = add(LayoutNode(0, NODE, parent, n.depth, _shape_of(n), node=n, on_pv=n.on_pv))
        shown += 1
        if i not in expanded:
            if kids[i] or (show_pruned and n.skipped):
                hidden += size[i] - 1
                add(LayoutNode(0, COLLAPSED, idx, n.depth + 1, LEAF, hidden=size[i] - 1,
                               hidden_pruned=cut[i]))
            continue
        keep, rest = shown_kids(i)
        child_shape = MIN if n.kind == MAX else MAX if n.kind == MIN else LEAF
        extra: list[LayoutNode] = []
        if rest:
            h = sum(size[k] for k in rest)
            hidden += h
            extra.append(LayoutNode(0, COLLAPSED, idx, n.depth + 1, LEAF, hidden=h,
                                    hidden_pruned=sum(cut[k] for k in rest),
                                    moves=tuple(rec[k].move or "" for k in rest)))
        if show_pruned and n.skipped:
            reason = cut_reason(n, tree.prune)
            groups = [n.skipped] if len(n.skipped) > group_pruned else [(m,) for m in n.skipped]
            extra.extend(LayoutNode(0, PRUNED, idx, n.depth + 1, child_shape, moves=tuple(g), hidden=len(g),
                                    reason=reason) for g in groups)
        if extra:
            stack.append((-1, idx, extra))
        stack.extend((k, idx, []) for k in reversed(keep))
    _place(items, sibling_sep, subtree_sep)
    width = max((it.x for it in items), default=0.0)
    deepest = max((it.depth for it in items), default=0)
    return TreeLayout(tree, items, width, deepest, shown, hidden, windows)


# -- Buchheim, Jünger, Leipert (2002) ---------------------------------------------------------------------------
def _place(items: list[LayoutNode], sibling_sep: float, subtree_sep: float) -> None:
    """Set ``x`` of every item (tidy layout, linear time; iterative, so any depth works)."""
    n = len(items)
    if n == 0:
        return
    kids = [it.children for it in items]
    parent = [it.parent for it in items]
    number = [0] * n  # position among siblings
    for it in items:
        for j, c in enumerate(it.children):
            number[c] = j
    prelim = [0.0] * n
    mod = [0.0] * n
    shift = [0.0] * n
    change = [0.0] * n
    thread: list[int | None] = [None] * n
    ancestor = list(range(n))
    default = [kids[v][0] if kids[v] else v for v in range(n)]

    def left_sibling(v: int) -> int | None:
        p = parent[v]
        return None if p is None or number[v] == 0 else kids[p][number[v] - 1]

    def next_left(v: int) -> int | None:
        return kids[v][0] if kids[v] else thread[v]

    def next_right(v: int) -> int | None:
        return kids[v][-1] if kids[v] else thread[v]

    def move_subtree(wm: int, wp: int, sh: float) -> None:
        subtrees = number[wp] - number[wm]
        change[wp] -= sh / subtrees
        shift[wp] += sh
        change[wm] += sh / subtrees
        prelim[wp] += sh
        mod[wp] += sh

    def apportion(v: int, default_ancestor: int) -> int:
        w = left_sibling(v)
        if w is None:
            return default_ancestor
        p = parent[v]
        assert p is not None
        vip = vop = v
        vim = w
        vom = kids[p][0]
        sip, sop, sim, som = mod[vip], mod[vop], mod[vim], mod[vom]
        nr, nl = next_right(vim), next_left(vip)
        while nr is not None and nl is not None:
            vim, vip = nr, nl
            vom_n, vop_n = next_left(vom), next_right(vop)
            assert vom_n is not None and vop_n is not None
            vom, vop = vom_n, vop_n
            ancestor[vop] = v
            sh = (prelim[vim] + sim) - (prelim[vip] + sip) + subtree_sep
            if sh > 0:
                a = ancestor[vim]
                move_subtree(a if parent[a] == p else default_ancestor, v, sh)
                sip += sh
                sop += sh
            sim += mod[vim]
            sip += mod[vip]
            som += mod[vom]
            sop += mod[vop]
            nr, nl = next_right(vim), next_left(vip)
        if nr is not None and next_right(vop) is None:
            thread[vop] = nr
            mod[vop] += sim - sop
        if nl is not None and next_left(vom) is None:
            thread[vom] = nl
            mod[vom] += sip - som
            default_ancestor = v
        return default_ancestor

    def execute_shifts(v: int) -> None:
        sh = ch = 0.0
        for w in reversed(kids[v]):
            prelim[w] += sh
            mod[w] += sh
            ch += change[w]
            sh += shift[w] + ch

    # first walk, post-order
    stack: list[tuple[int, bool]] = [(0, False)]
    while stack:
        v, done = stack.pop()
        if not done:
            stack.append((v, True))
            stack.extend((c, False) for c in reversed(kids[v]))
            continue
        w = left_sibling(v)
        if not kids[v]:
            prelim[v] = prelim[w] + sibling_sep if w is not None else 0.0
        else:
            execute_shifts(v)
            mid = (prelim[kids[v][0]] + prelim[kids[v][-1]]) / 2
            if w is not None:
                prelim[v] = prelim[w] + sibling_sep
                mod[v] = prelim[v] - mid
            else:
                prelim[v] = mid
        p = parent[v]
        if p is not None:
            default[p] = apportion(v, default[p])
    # second walk, pre-order
    xs = [0.0] * n
    walk: list[tuple[int, float]] = [(0, 0.0)]
    while walk:
        v, m = walk.pop()
        xs[v] = prelim[v] + m
        walk.extend((c, m + mod[v]) for c in kids[v])
    lo = min(xs)
    for it, x in zip(items, xs):
        it.x = round(x - lo, 9)


# ----------------------------------------------------------------------------------------------------------------
# The picture: a display list in pixels
# ----------------------------------------------------------------------------------------------------------------
OKABE_ITO: Mapping[str, str] = {
    "black": "#000000", "orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73", "yellow": "#F0E442",
    "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#CC79A7",
}
"""Okabe and Ito, "Color Universal Design" (2008): distinguishable with every common colour-vision deficiency."""


@dataclass(frozen=True)
class Palette:
    """Colours of the picture (hex ``#RRGGBB``)."""

    background: str = "#FFFFFF"
    text: str = "#111111"
    muted: str = "#4D4D4D"
    edge: str = "#5A5A5A"
    max_stroke: str = OKABE_ITO["blue"]
    max_fill: str = "#D5E8F5"
    min_stroke: str = OKABE_ITO["vermillion"]
    min_fill: str = "#F9DFCC"
    chance_stroke: str = OKABE_ITO["green"]
    chance_fill: str = "#CCEDE3"
    leaf_stroke: str = "#222222"
    leaf_fill: str = "#F2F2F2"
    pruned: str = "#8C8C8C"
    pruned_fill: str = "#F7F7F7"
    pv: str = OKABE_ITO["orange"]
    pv_core: str = "#000000"


PALETTE = Palette()


@dataclass(frozen=True)
class Item:
    """One drawing primitive (pixels, y down).

    ``op`` is ``line`` (``pts`` = two points), ``poly`` (closed polygon), ``circle`` (``pts`` = centre, ``r``),
    ``rect`` (``pts`` = top-left and bottom-right, ``r`` = corner radius) or ``text`` (``pts`` = anchor point,
    vertically centred; ``anchor`` ``start``/``middle``/``end``).
    """

    op: str
    pts: tuple[tuple[float, float], ...]
    stroke: str | None = None
    fill: str | None = None
    width: float = 1.0
    dash: tuple[float, float] | None = None
    r: float = 0.0
    text: str = ""
    size: float = 18.0
    bold: bool = False
    anchor: str = "middle"


@dataclass
class Picture:
    """A display list with its size and the nodes' hit boxes."""

    width: float
    height: float
    items: list[Item]
    hits: list[tuple[int, tuple[float, float, float, float]]]
    """``(layout index, (x, y, w, h))`` for every visible item, in picture pixels."""
    title: str = ""
    background: str = PALETTE.background


def _estimate_width(s: str, size: float, bold: bool = False) -> float:
    return text_width(s, size, bold)


def text_width(s: str, size: float, bold: bool = False) -> float:
    """An estimate of the rendered width of ``s`` in a sans-serif font (pixels); generous on purpose."""
    w = 0.0
    for ch in s:
        if ch in "il.,:;|!'1 ":
            w += 0.34
        elif ch in "mwMW":
            w += 0.86
        elif ch.isupper() or ch in "≥≤∞±−=+<>×·":
            w += 0.68
        else:
            w += 0.58
    return w * size * (1.06 if bold else 1.0)


def prob_text(p: float) -> str:
    """A probability for an edge label: a small fraction when it is one (``1/6``), else 3 digits."""
    f = Fraction(p).limit_denominator(36)
    if abs(float(f) - p) < 1e-9 and f.denominator > 1:
        return f"{f.numerator}/{f.denominator}"
    return f"{p:.3g}"


def value_text(n: RecordedNode) -> str:
    """The value as the picture shows it: exact (``3``) or a bound (``<= 2``, ``>= 5``)."""
    return n.label()


def window_text(n: RecordedNode) -> str:
    """The alpha-beta window the node was searched with (MAX's view)."""
    return f"α={_fmt(n.alpha_in)} β={_fmt(n.beta_in)}"


def node_notes(it: LayoutNode, show_window: bool) -> list[str]:
    """The lines under a recorded node: its alpha-beta window, and a table hit, repetition or chance average."""
    n = it.node
    if n is None:
        return []
    sub: list[str] = []
    if show_window and it.shape in (MAX, MIN):
        sub.append(window_text(n))
    if n.note == "tt":
        sub.append("table hit")
    elif n.note == "repetition":
        sub.append("repetition")
    elif it.shape == CHANCE and n.children:
        sub.append("Σ p·v")
    return sub[:2]


def edge_text(it: LayoutNode, parent: LayoutNode) -> str:
    """The label on the edge from ``parent`` to ``it``."""
    if it.kind == PRUNED:
        return it.moves[0] if len(it.moves) == 1 else f"{len(it.moves)} moves"
    if it.kind == COLLAPSED:
        return ""
    assert it.node is not None
    move = it.node.move or ""
    if it.node.probability is not None and parent.node is not None and parent.node.kind == CHANCE:
        p = prob_text(it.node.probability)
        face = move.split("=")[-1]  # "die=3" -> "3": the edge is crowded under a chance node
        return f"p={p}" if (move.isdigit() or not move) else f"{face} ({p})"
    return move


def header_lines(tree: SearchTree, summary: Mapping[str, Any] | None = None, lay: TreeLayout | None = None
                 ) -> list[str]:
    """The header: algorithm and cut-off rule, then the counters, then what the picture leaves out."""
    s = dict(summary or {})
    alg = str(s.get("algorithm", tree.algorithm))
    if alg == "alphabeta":
        title = f"alpha-beta: cut-off when α {'≥' if tree.prune != 'gt' else '>'} β"
    elif alg == "minimax":
        title = "minimax (no pruning)"
    elif alg == "expectimax":
        title = "expectimax: chance nodes take the probability-weighted average"
    else:
        title = f"{alg}: cut-off when α {'≥' if tree.prune != 'gt' else '>'} β"
    if s.get("ordering"):
        title += ", ordered moves"
    what = []
    if "game" in s:
        what.append(f"{s['game']} {s.get('position', '')}".strip())
    if "move" in s:
        what.append(f"move {s['move']}")
    elif "best" in s:
        what.append(f"best child {s['best']}")
    if "value" in s:
        what.append(f"value {_fmt(float(s['value']))}")
    depth = s.get("depth", tree.depth or None)
    if "depth" in s:
        what.append(f"depth {s['depth']}")
    total = int(s.get("total_nodes", tree.total_nodes) or 0)
    if depth and total:  # a game decision: name the iteration the counts are of
        counts = [f"{tree.visited} nodes visited in this depth {depth} iteration", f"{total} in all iterations"]
    else:
        counts = [f"{tree.visited} nodes visited"]
    counts += [f"{tree.leaves} leaves", f"{tree.cutoffs} cut-offs"]
    if tree.tt_hits:
        counts.append(f"{tree.tt_hits} table hits")
    if "minimax_nodes" in s:
        mm = s["minimax_nodes"]
        counts.append(f"plain minimax visits {mm} at depth {depth}" if depth and total else f"minimax visits {mm}")
    lines = [title, " · ".join(what + counts)]
    notes = []
    if "final_depth" in s or "final_move" in s:
        final = [f"move {s['final_move']}" if s.get("final_move") is not None else "",
                 f"value {_fmt(float(s['final_value']))}" if s.get("final_value") is not None else "",
                 f"depth {s['final_depth']}" if s.get("final_depth") is not None else ""]
        notes.append("the decision: " + ", ".join(f for f in final if f)
                     + (f"; this picture shows depth {depth}" if depth else ""))
    if tree.truncated:
        notes.append(f"only the first {len(tree.nodes)} nodes were recorded")
    if lay is not None and lay.hidden:
        notes.append(f"showing {lay.shown} of {len(tree.nodes)} recorded nodes; +N boxes hold the rest")
    if notes:
        lines.append("; ".join(notes))
    return lines


def build_picture(lay: TreeLayout, summary: Mapping[str, Any] | None = None, *, font_size: float = 20.0,
                  header: bool = True, legend: bool = True, palette: Palette = PALETTE,
                  measure: Callable[[str, float, bool], float] | None = None) -> Picture:
    """Draw a layout as a display list (the same picture for SVG, PNG and the overlay).

    Args:
        lay: the layout.
        summary: the CLI's summary object (value, best move, ``minimax_nodes`` ...) for the header.
        font_size: the body text size in pixels (the whole picture scales with it; keep >= 18 to project).
        header: draw the header lines.
        legend: draw the legend row under the header.
        palette: colours.
        measure: ``(text, size, bold) -> width`` in pixels of the renderer's font (default: an estimate,
            :func:`text_width`).

    Returns:
        The picture, ``width`` x ``height`` pixels.
    """
    text_width = measure or _estimate_width
    f = font_size
    s = f / 20.0
    pal = palette
    items: list[Item] = []
    hits: list[tuple[int, tuple[float, float, float, float]]] = []
    margin = 28 * s
    hw, hh, cr = 40 * s, 31 * s, 33 * s
    show_window = lay.show_window
    # -- widths ----------------------------------------------------------------------------------------------
    widest = 92 * s
    for it in lay.nodes:
        texts: list[tuple[str, bool]] = []
        if it.node is not None:
            texts.append((value_text(it.node), True))
            texts += [(t, False) for t in node_notes(it, show_window)]
        elif it.kind == PRUNED:
            texts += [(it.reason, False), (f"pruned ×{it.hidden}" if it.hidden > 1 else "pruned", False)]
        else:
            texts.append((f"+{it.hidden} nodes", True))
        if it.parent is not None and it.kind != COLLAPSED:
            texts.append((edge_text(it, lay.nodes[it.parent]), False))
        for t, heavy in texts:
            widest = max(widest, text_width(t, f, heavy) + 28 * s)
    unit = widest
    below_lines = 2 if show_window else 1
    level_h = 2 * hh + below_lines * 1.25 * f + 70 * s
    # -- header ----------------------------------------------------------------------------------------------
    head = header_lines(lay.tree, summary, lay) if header else []
    top = margin
    header_items: list[Item] = []
    head_w = 0.0
    for k, line in enumerate(head):
        size = f * 1.3 if k == 0 else f
        header_items.append(Item("text", ((margin, top + size * 0.6),), fill=pal.text, text=line, size=size,
                                 bold=k == 0, anchor="start"))
        head_w = max(head_w, text_width(line, size, k == 0))
        top += size * 1.45
    if legend and lay.nodes:
        top += 6 * s
        lx = margin
        cy = top + 16 * s
        present = {it.shape for it in lay.nodes if it.kind == NODE}
        entries: list[tuple[str, str]] = [(MAX, "MAX"), (MIN, "MIN")]
        if CHANCE in present:
            entries.append((CHANCE, "chance"))
        entries.append((LEAF, "leaf"))
        if any(it.kind == PRUNED for it in lay.nodes):
            entries.append((PRUNED, "pruned"))
        if any(it.on_pv for it in lay.nodes[1:]):
            entries.append(("PV", "best line"))
        if any(it.kind == COLLAPSED for it in lay.nodes):
            entries.append((COLLAPSED, "hidden"))
        for key, name in entries:
            if key == "PV":
                header_items += _edge_items((lx + 6 * s, cy), (lx + 40 * s, cy), pal, s, pv=True)
                lx += 56 * s
            elif key == COLLAPSED:
                header_items.append(Item("rect", ((lx, cy - 13 * s), (lx + 40 * s, cy + 13 * s)), stroke=pal.muted,
                                         fill=pal.background, width=2 * s, dash=(3 * s, 4 * s), r=6 * s))
                header_items.append(Item("text", ((lx + 20 * s, cy),), fill=pal.text, text="+N", size=f * 0.9,
                                         bold=True))
                lx += 48 * s
            else:
                shape = MIN if key == PRUNED else key
                header_items += _shape_items(shape, lx + 16 * s, cy, 15 * s, 12 * s, 13 * s, pal, s,
                                             pruned=key == PRUNED, leaf_w=28 * s)
                lx += 38 * s
            header_items.append(Item("text", ((lx, cy),), fill=pal.text, text=name, size=f, anchor="start"))
            lx += text_width(name, f, False) + 26 * s
        head_w = max(head_w, lx - margin)
        top += 40 * s
    if head:
        top += 14 * s
    tree_w = lay.width * unit + unit
    width = 2 * margin + max(tree_w, head_w)
    x0 = margin + (width - 2 * margin - tree_w) / 2 + unit / 2
    y0 = top + hh

    def pos(it: LayoutNode) -> tuple[float, float]:
        return x0 + it.x * unit, y0 + it.depth * level_h

    # -- edges first (under the nodes) --------------------------------------------------------------------------
    labels: list[Item] = []
    for it in lay.nodes:
        if it.parent is None:
            continue
        par = lay.nodes[it.parent]
        px, py = pos(par)
        cx, cy = pos(it)
        top_pt = (px, py + (cr if par.shape == CHANCE else hh))
        end_pt = (cx, cy - (cr if it.shape == CHANCE and it.kind == NODE else hh if it.kind != COLLAPSED else 16 * s))
        items += _edge_items(top_pt, end_pt, pal, s, pv=it.on_pv and par.on_pv, pruned=it.kind == PRUNED,
                             collapsed=it.kind == COLLAPSED)
        t = edge_text(it, par)
        if t:
            frac = 0.68
            lx = top_pt[0] + (end_pt[0] - top_pt[0]) * frac
            ly = top_pt[1] + (end_pt[1] - top_pt[1]) * frac
            color = pal.muted if it.kind == PRUNED else pal.text
            labels += _label_items(t, lx, ly, f, color, pal, s, measure=text_width)
    items += labels
    # -- nodes ---------------------------------------------------------------------------------------------------
    for it in lay.nodes:
        cx, cy = pos(it)
        if it.kind == COLLAPSED:
            t = f"+{it.hidden} node{'s' if it.hidden != 1 else ''}"
            w = text_width(t, f, True) + 20 * s
            items.append(Item("rect", ((cx - w / 2, cy - 18 * s), (cx + w / 2, cy + 18 * s)), stroke=pal.muted,
                              fill=pal.background, width=2.5 * s, dash=(3 * s, 4 * s), r=8 * s))
            items.append(Item("text", ((cx, cy),), fill=pal.text, text=t, size=f, bold=True))
            hits.append((it.index, (cx - w / 2, cy - 18 * s, w, 36 * s)))
            continue
        if it.kind == PRUNED:
            items += _shape_items(it.shape, cx, cy, hw, hh, cr, pal, s, pruned=True, leaf_w=60 * s)
            ty = cy + hh + 0.75 * f
            t1 = f"pruned ×{it.hidden}" if it.hidden > 1 else "pruned"
            items += _label_items(t1, cx, ty, f, pal.muted, pal, s, bold=True, measure=text_width)
            if it.reason:
                items += _label_items(it.reason, cx, ty + 1.2 * f, f, pal.muted, pal, s, measure=text_width)
            hits.append((it.index, (cx - hw, cy - hh, 2 * hw, 2 * hh)))
            continue
        n = it.node
        assert n is not None
        val = value_text(n)
        if it.shape == LEAF:
            w = max(58 * s, text_width(val, f, True) + 18 * s)
            items += _shape_items(LEAF, cx, cy, hw, hh, cr, pal, s, pv=it.on_pv, leaf_w=w)
            items.append(Item("text", ((cx, cy),), fill=pal.text, text=val, size=f, bold=True))
            hits.append((it.index, (cx - w / 2, cy - 22 * s, w, 44 * s)))
        else:
            items += _shape_items(it.shape, cx, cy, hw, hh, cr, pal, s, pv=it.on_pv)
            dy = 0.0 if it.shape == CHANCE else (7 * s if it.shape == MAX else -7 * s)
            items.append(Item("text", ((cx, cy + dy),), fill=pal.text, text=val, size=f, bold=True))
            hits.append((it.index, (cx - hw, cy - hh, 2 * hw, 2 * hh)))
        for k, t in enumerate(node_notes(it, show_window)):
            ty = cy + (cr if it.shape == CHANCE else hh) + 0.75 * f + k * 1.2 * f
            items += _label_items(t, cx, ty, f, pal.muted, pal, s, measure=text_width)
    height = y0 + lay.depth * level_h + hh + below_lines * 1.25 * f + margin + 10 * s
    title = header_lines(lay.tree, summary)[0] if lay.nodes else lay.tree.algorithm
    return Picture(width, height, header_items + items, hits, title, pal.background)


def _edge_items(a: tuple[float, float], b: tuple[float, float], pal: Palette, s: float, *, pv: bool = False,
                pruned: bool = False, collapsed: bool = False) -> list[Item]:
    if pv:
        return [Item("line", (a, b), stroke=pal.pv, width=13 * s), Item("line", (a, b), stroke=pal.pv_core,
                                                                           width=4.5 * s)]
    if pruned:
        return [Item("line", (a, b), stroke=pal.pruned, width=3 * s, dash=(9 * s, 7 * s))]
    if collapsed:
        return [Item("line", (a, b), stroke=pal.muted, width=2.5 * s, dash=(3 * s, 5 * s))]
    return [Item("line", (a, b), stroke=pal.edge, width=2.5 * s)]


def _label_items(t: str, x: float, y: float, f: float, color: str, pal: Palette, s: float, *, bold: bool = False,
                 measure: Callable[[str, float, bool], float] = text_width) -> list[Item]:
    w = measure(t, f, bold) + 8 * s
    h = f * 1.15
    return [Item("rect", ((x - w / 2, y - h / 2), (x + w / 2, y + h / 2)), fill=pal.background, r=4 * s),
            Item("text", ((x, y),), fill=color, text=t, size=f, bold=bold)]


def _shape_items(shape: str, cx: float, cy: float, hw: float, hh: float, cr: float, pal: Palette, s: float, *,
                 pv: bool = False, pruned: bool = False, leaf_w: float = 60.0) -> list[Item]:
    width = (5.5 if pv else 3.0) * s
    dash = (8 * s, 6 * s) if pruned else None
    if shape == MAX:
        stroke, fill = pal.max_stroke, pal.max_fill
        pts: tuple[tuple[float, float], ...] = ((cx, cy - hh), (cx + hw, cy + hh), (cx - hw, cy + hh))
    elif shape == MIN:
        stroke, fill = pal.min_stroke, pal.min_fill
        pts = ((cx - hw, cy - hh), (cx + hw, cy - hh), (cx, cy + hh))
    elif shape == CHANCE:
        stroke, fill = pal.chance_stroke, pal.chance_fill
        pts = ()
    else:
        stroke, fill = pal.leaf_stroke, pal.leaf_fill
        pts = ()
    if pruned:
        stroke, fill = pal.pruned, pal.pruned_fill
    if shape == CHANCE:
        return [Item("circle", ((cx, cy),), stroke=stroke, fill=fill, width=width, r=cr, dash=dash)]
    if shape == LEAF:
        h = 22 * s
        return [Item("rect", ((cx - leaf_w / 2, cy - h), (cx + leaf_w / 2, cy + h)), stroke=stroke, fill=fill,
                     width=width, r=5 * s, dash=dash)]
    return [Item("poly", pts, stroke=stroke, fill=fill, width=width, dash=dash)]
