"""Tidy layout of a recorded search tree, with collapsing (no pygame).

Two layers, both pure Python so the exporters (``gameplay.pictures.tree_export``) and the pygame overlay
(``gameplay.pictures.tree_png``) share them:

* :func:`layout` chooses which nodes are visible and places them. Placement is the tidy-tree algorithm of
  Buchheim, Jünger and Leipert, "Improving Walker's algorithm to run in linear time" (Graph Drawing 2002),
  the linear-time form of the Reingold-Tilford family: children keep their order, a parent is centred over its
  first and last child, equal subtrees are drawn alike, and the drawing is as narrow as those rules allow.
  Coordinates are abstract: ``x`` in sibling-separation units (0 = leftmost visible node), ``y`` = depth.
  Besides the recorded nodes the layout holds three kinds of placeholder: *pruned* children (the sibling moves
  a cut-off skipped, with the ``alpha >= beta`` reason from the parent's window), *collapsed* markers
  (``+N nodes``) standing for recorded subtrees or sibling runs that did not fit the node budget (each opens on
  request: :func:`open_marker`), and *unrecorded* boxes (``N nodes searched, not recorded``) counting what the
  search visited below a node after the recorder's bound stopped recording (nothing opens them).
* :func:`gameplay.pictures.tree_picture.build_picture` turns a layout into a display list in pixels.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass, field

from ai.recording import CHANCE, MAX, MIN, RecordedNode, SearchTree
from ai.trace import _num as _fmt  # the picture's number form: +∞, 3, win in 3

NODE, PRUNED, COLLAPSED, UNRECORDED = "node", "pruned", "collapsed", "unrecorded"
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
    """``node`` (a recorded node), ``pruned`` (skipped moves), ``collapsed`` (hidden recorded nodes) or
    ``unrecorded`` (nodes the search visited below the parent that the recorder's bound left out)."""
    parent: int | None
    """Index of the parent item."""
    depth: int
    """Plies below the root; the layout's ``y``."""
    shape: str
    """How to draw it: ``MAX``, ``MIN``, ``CHANCE`` or ``LEAF`` (placeholders: the shape they stand for)."""
    node: RecordedNode | None = None
    """The recorded node (``kind == "node"``)."""
    moves: tuple[str, ...] = ()
    """``pruned``: the skipped moves it stands for; ``collapsed``: the moves of the hidden siblings (empty when it
    stands for the parent's whole subtree)."""
    hidden: int = 0
    """``collapsed``: recorded nodes hidden behind it; ``pruned``: the number of skipped moves; ``unrecorded``:
    the nodes searched below the parent and not recorded."""
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
        """The recorded node's id (``None`` for placeholders)."""
        return self.node.id if self.node is not None else None

    @property
    def siblings(self) -> bool:
        """A ``collapsed`` marker for the children past ``max_children`` (False: for the parent's subtree)."""
        return self.kind == COLLAPSED and bool(self.moves)


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
    unrecorded: int = 0
    """Nodes counted by the ``unrecorded`` boxes (searched, not recorded)."""

    def by_node_id(self) -> dict[int, LayoutNode]:
        """Visible recorded nodes by their recorded id."""
        return {n.node.id: n for n in self.nodes if n.node is not None}


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
    return f"α={_fmt(a, n.proofs)} {'≥' if prune != 'gt' else '>'} β={_fmt(b, n.proofs)}"


def _shape_of(n: RecordedNode) -> str:
    if n.note in ("leaf", "terminal") or (not n.children and not n.skipped and n.note == ""):
        return LEAF
    return n.kind


def layout(tree: SearchTree, max_depth: int | None = None, max_children: int | None = None,
           collapse: int | None = DEFAULT_MAX_VISIBLE, *, max_width: int | None = DEFAULT_MAX_WIDTH,
           expand: Collection[int] = (), show_all: Collection[int] = (),
           fold: Collection[int] = (), reveal: Collection[int] = (), show_pruned: bool = True,
           group_pruned: int = 3,
           sibling_sep: float = 1.0, subtree_sep: float = 1.0) -> TreeLayout:
    """Choose the visible nodes of ``tree`` and place them (Buchheim-Jünger-Leipert tidy layout).

    Visibility has two parts. The *default view* depends on the budgets only: the root's children and the
    principal variation (down to ``max_depth``) are always shown; the other nodes are expanded level by level,
    in visiting order, while ``collapse`` and ``max_width`` allow (room for the principal variation is reserved
    first). A node whose children do not fit gets one ``+N nodes`` marker instead, and after the first miss no
    other node of that level or deeper is expanded, so the picture stays a clean top slice. The *requests*
    ``expand`` and ``show_all`` (the overlay's clicks) are then added on top, whatever the budgets, together
    with the path from the root to each requested node; they never take a node of the default view away, so
    every request shows at least the nodes shown without it, and every marker can be opened (see
    :func:`open_marker`). Linear in the number of recorded nodes (plus the requests' paths).

    Placeholders: ``collapsed`` markers stand for recorded nodes (a subtree, or the siblings past
    ``max_children``) and open on request; ``pruned`` ones for the moves a cut-off skipped; an ``unrecorded``
    box counts the nodes the search visited below a node after the recorder's bound stopped recording
    (:attr:`~ai.recording.RecordedNode.unrecorded`): nothing can open it. A node with no recorded children
    always shows its placeholders. The children of a chance node are never split by ``max_children``: its
    expected value needs every outcome.

    Args:
        tree: the recorded search.
        max_depth: show nodes down to this depth; deeper ones are collapsed (``None``: no limit).
        max_children: show at most this many searched children per decision node, the rest as one marker (the
            child on the principal variation always shown); ``None``: all. Chance nodes show all outcomes.
        collapse: the most items of the default view, placeholders included (``None``: no budget).
        max_width: the most items on one level of the default view (the picture's width, roughly, in units;
            ``None``: no limit).
        expand: recorded node ids to expand whatever the budgets (their children are shown up to
            ``max_children``).
        show_all: recorded node ids to expand with every recorded child shown (``max_children`` ignored).
        fold: recorded node ids never to expand (stronger than ``expand``, ``show_all`` and ``reveal``).
        reveal: recorded node ids to show whatever the budgets (the path from the root to each is expanded and
            each is kept among its siblings), without expanding them: the nodes a narrated step is about.
        show_pruned: add placeholders for the moves cut off.
        group_pruned: a node with more skipped moves than this gets one placeholder for all of them.
        sibling_sep: distance between adjacent siblings, in units.
        subtree_sep: least distance between neighbouring subtrees, in units.

    Returns:
        The layout; empty (no nodes) for an empty tree. Ids in ``expand``/``show_all`` that the tree does not
        hold are ignored.
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
    fold_set = set(fold)
    all_set = {i for i in show_all if i in rec}
    requested = {i for i in expand if i in rec} | all_set
    on_path: set[int] = set()  # the requested nodes and their ancestors: always visible and expanded
    for i in requested:
        j: int | None = i
        while j is not None and j in rec and j not in on_path:
            on_path.add(j)
            j = rec[j].parent
    shown_path = set(on_path)  # ... and the revealed nodes: visible, kept among their siblings
    for i in reveal:
        if i not in rec or i in shown_path:
            continue
        shown_path.add(i)
        j = rec[i].parent
        while j is not None and j in rec and j not in on_path:
            on_path.add(j)
            shown_path.add(j)
            j = rec[j].parent

    def default_kids(i: int) -> tuple[list[int], list[int]]:
        """The default view's children of ``i`` (``max_children``, the principal variation kept) and the rest."""
        ks = kids[i]
        if max_children is None or rec[i].kind == CHANCE or len(ks) <= max(1, max_children):
            return ks, []
        m = max(1, max_children)
        keep = ks[: m - 1]
        pv = next((k for k in ks if rec[k].on_pv), None)
        if pv is not None and pv not in keep:
            keep = keep[: m - 2] + [pv] if m >= 2 else [pv]
            keep.sort(key=ks.index)
        return keep, [k for k in ks if k not in keep]

    def shown_kids(i: int) -> tuple[list[int], list[int]]:
        """The children of ``i`` shown, requests included (a superset of the default view's), and the rest."""
        if i in all_set:
            return kids[i], []
        keep, rest = default_kids(i)
        extra = [k for k in rest if k in shown_path]
        if not extra:
            return keep, rest
        wanted = set(keep) | set(extra)
        return [k for k in kids[i] if k in wanted], [k for k in rest if k not in wanted]

    def placeholders(i: int) -> int:
        """Items of ``i`` other than recorded children: its pruned placeholders and its unrecorded box."""
        s = rec[i].skipped
        pruned = 0 if not show_pruned or not s else 1 if len(s) > group_pruned else len(s)
        return pruned + (1 if rec[i].unrecorded else 0)

    def expansion_cost(i: int) -> tuple[int, int]:
        """Items added by expanding ``i``: at its children's level (its own marker goes away), and below."""
        keep, rest = default_kids(i)
        below = sum(1 if kids[k] else placeholders(k) for k in keep)  # the new frontier's markers and boxes
        return len(keep) + (1 if rest else 0) + placeholders(i) - 1, below

    def expandable(i: int) -> bool:
        return bool(kids[i])  # a node without recorded children shows its placeholders anyway

    # -- the default view: the expanded set, breadth first ------------------------------------------------------
    expanded: set[int] = set()
    per_level: dict[int, int] = {0: 1, 1: 1 if expandable(0) else placeholders(0)}
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
            if max_depth is not None and n.depth >= max_depth:
                continue
            pv = n.on_pv and i != 0
            if i != 0 and missed and not pv:
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
            if not (i == 0 or pv) and not fits:
                missed = True
                continue
            used += here + below
            per_level[d + 1] = per_level.get(d + 1, 0) + here
            per_level[d + 2] = per_level.get(d + 2, 0) + below
            expanded.add(i)
            nxt.extend(default_kids(i)[0])
        level = nxt
    # -- the requests, on top ------------------------------------------------------------------------------------
    expanded |= {i for i in on_path if kids[i]}
    expanded -= fold_set

    # -- build the visible items, parents first (depth-first, children in order) --------------------------------
    items: list[LayoutNode] = []
    shown = 0
    hidden = 0
    unrecorded = 0

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
        if kids[i] and i not in expanded:
            hidden += size[i] - 1
            add(LayoutNode(0, COLLAPSED, idx, n.depth + 1, LEAF, hidden=size[i] - 1, hidden_pruned=cut[i]))
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
        if n.unrecorded:
            unrecorded += n.unrecorded
            extra.append(LayoutNode(0, UNRECORDED, idx, n.depth + 1, LEAF, hidden=n.unrecorded))
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
    return TreeLayout(tree, items, width, deepest, shown, hidden, windows, unrecorded)


def open_marker(lay: TreeLayout, it: LayoutNode, expand: set[int], show_all: set[int], *,
                everything: bool = False) -> bool:
    """What a click on a layout item does, as requests for :func:`layout` (the overlay's clicks).

    A ``+N nodes`` marker for a collapsed subtree expands its node (``expand``); a marker for the siblings past
    ``max_children`` shows every child of their parent (``show_all``). With ``everything`` (the overlay's "show
    all children" action) a marker or a recorded node with children puts that node in ``show_all``. Pruned
    placeholders and ``unrecorded`` boxes open nothing (there is nothing recorded behind them).

    Args:
        lay: the layout the item belongs to.
        it: the clicked item.
        expand: the ``expand`` requests (updated in place).
        show_all: the ``show_all`` requests (updated in place).
        everything: show all children of the node instead of what the marker stands for.

    Returns:
        True when a request was added (lay the tree out again with them), False when the click opens nothing.
    """
    if it.kind == NODE:
        target = it.node
    elif it.kind == COLLAPSED and it.parent is not None:
        target = lay.nodes[it.parent].node
    else:
        return False
    if target is None or (it.kind == NODE and not target.children):  # a marker's node has recorded children
        return False
    if everything or (it.kind == COLLAPSED and it.siblings):
        if target.id in show_all:
            return False
        show_all.add(target.id)
        return True
    if it.kind != COLLAPSED or target.id in expand:
        return False
    expand.add(target.id)
    return True


def relaid(lay: TreeLayout, sibling_sep: float = 1.0, subtree_sep: float = 1.0) -> TreeLayout:
    """``lay`` placed afresh (its items keep their order, kinds and parents; their ``x`` is computed again for
    these items alone): the step-through's picture of what the search has reached so far, drawn compactly when the
    finished picture is too big to read whole. The items are changed in place.

    Returns:
        The same layout with new positions, ``width`` and ``depth``.
    """
    _place(lay.nodes, sibling_sep, subtree_sep)
    lay.width = max((it.x for it in lay.nodes), default=0.0)
    lay.depth = max((it.depth for it in lay.nodes), default=0)
    return lay


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
