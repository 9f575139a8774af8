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
* :func:`gameplay.pictures.picture_build.build_picture` turns a layout into a display list in pixels.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass, field

from ai.kernel.recording import CHANCE, MAX, MIN, RecordedNode, SearchTree
from ai.kernel.spelling import UNICODE, cut_test
from ai.teaching.trace import node_at
from gameplay.pictures.tidy import tidy_x

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


def cut_reason(n: RecordedNode, prune: str = "ge", spelling: str = UNICODE) -> str:
    """The cut-off test that fired at ``n`` (a node with skipped children), from MAX's view: ``α=3 ≥ β=2`` (in
    ``spelling``: :func:`ai.kernel.spelling.cut_test`; ``alpha=3 >= beta=2`` in ASCII).

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
    return cut_test(a, b, prune, n.proofs, spelling)


def _shape_of(n: RecordedNode) -> str:
    if n.note in ("leaf", "terminal") or (not n.children and not n.skipped and n.note == ""):
        return LEAF
    return n.kind


def layout(tree: SearchTree, max_depth: int | None = None, max_children: int | None = None,
           collapse: int | None = DEFAULT_MAX_VISIBLE, *, max_width: int | None = DEFAULT_MAX_WIDTH,
           expand: Collection[int] = (), show_all: Collection[int] = (),
           fold: Collection[int] = (), reveal: Collection[int] = (), show_pruned: bool = True,
           group_pruned: int = 3,
           sibling_sep: float = 1.0, subtree_sep: float = 1.0, at: int | None = None) -> TreeLayout:
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
    (:attr:`~ai.kernel.recording.RecordedNode.unrecorded`): nothing can open it. A node with no recorded children
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
        at: a moment of the step-through (visiting order): a node the search searched in several passes (a
            null-window test, then its re-search) is laid out as the pass at that moment searched it, its
            children that pass's (:func:`ai.teaching.trace.node_at`); ``None``: the finished search, every such
            node once with its last pass's children. Either way each node appears once.

    Returns:
        The layout; empty (no nodes) for an empty tree. Ids in ``expand``/``show_all`` that the tree does not
        hold are ignored.
    """
    windows = any(n.alpha_in > -INF or n.beta_in < INF for n in tree.nodes) and tree.algorithm != "expectimax"
    if not any(n.id == 0 for n in tree.nodes):
        return TreeLayout(tree, [], 0.0, 0, 0, 0, windows)
    vis = Visibility(tree, max_children, show_pruned, group_pruned, at)
    vis.request(expand, show_all, reveal)
    fold_set = set(fold)
    expanded = default_view(vis, max_depth, collapse, max_width, fold_set)
    expanded |= {i for i in vis.on_path if vis.kids[i]}  # the requests, on top
    expanded -= fold_set
    built = build_items(vis, expanded)
    _place(built.items, sibling_sep, subtree_sep)
    width = max((it.x for it in built.items), default=0.0)
    deepest = max((it.depth for it in built.items), default=0)
    return TreeLayout(tree, built.items, width, deepest, built.shown, built.hidden, windows, built.unrecorded)


class Visibility:
    """Which children of a recorded node a layout shows (:func:`layout`'s budgets and requests), and what
    showing them costs.

    Args:
        tree: the recorded search (its node 0 is the root).
        max_children, show_pruned, group_pruned, at: :func:`layout`'s arguments.
    """

    def __init__(self, tree: SearchTree, max_children: int | None, show_pruned: bool, group_pruned: int,
                 at: int | None = None) -> None:
        self.tree = tree
        self.max_children = max_children
        self.show_pruned = show_pruned
        self.group_pruned = group_pruned
        # each node as the pass at moment ``at`` searched it (its children, its pruned moves): one item per node
        rec = {n.id: node_at(n, at) for n in tree.nodes}
        self.rec = rec
        self.kids = {i: [k for k in n.children if k in rec] for i, n in rec.items()}
        # subtree sizes (stored nodes) and skipped moves below each node, over the children shown: ids grow with
        # the visiting order, so every child's id is above its parent's
        self.size = {i: 1 for i in rec}
        self.cut = {i: len(n.skipped) for i, n in rec.items()}
        for i in sorted(rec, reverse=True):
            for k in self.kids[i]:
                self.size[i] += self.size[k]
                self.cut[i] += self.cut[k]
        self.all_set: set[int] = set()
        self.on_path: set[int] = set()
        """The requested nodes and their ancestors: always visible and expanded."""
        self.shown_path: set[int] = set()
        """... and the revealed nodes: visible, kept among their siblings."""

    def request(self, expand: Collection[int], show_all: Collection[int], reveal: Collection[int]) -> None:
        """Take the requests (ids the tree does not hold are ignored): see :func:`layout`."""
        rec = self.rec
        self.all_set = {i for i in show_all if i in rec}
        for i in {i for i in expand if i in rec} | self.all_set:
            self._add_path(i, self.on_path)
        self.shown_path = set(self.on_path)
        for i in reveal:
            if i not in rec or i in self.shown_path:
                continue
            self.shown_path.add(i)
            self._add_path(rec[i].parent, self.on_path, self.shown_path)

    def _add_path(self, i: int | None, *into: set[int]) -> None:
        """Put ``i`` and its ancestors into each of ``into`` (up to the first already in the first)."""
        j = i
        while j is not None and j in self.rec and j not in into[0]:
            for s in into:
                s.add(j)
            j = self.rec[j].parent

    def default_kids(self, i: int) -> tuple[list[int], list[int]]:
        """The default view's children of ``i`` (``max_children``, the principal variation kept) and the rest."""
        ks = self.kids[i]
        mc = self.max_children
        if mc is None or self.rec[i].kind == CHANCE or len(ks) <= max(1, mc):
            return ks, []
        m = max(1, mc)
        keep = ks[: m - 1]
        pv = next((k for k in ks if self.rec[k].on_pv), None)
        if pv is not None and pv not in keep:
            keep = keep[: m - 2] + [pv] if m >= 2 else [pv]
            keep.sort(key=ks.index)
        return keep, [k for k in ks if k not in keep]

    def shown_kids(self, i: int) -> tuple[list[int], list[int]]:
        """The children of ``i`` shown, requests included (a superset of the default view's), and the rest."""
        if i in self.all_set:
            return self.kids[i], []
        keep, rest = self.default_kids(i)
        extra = [k for k in rest if k in self.shown_path]
        if not extra:
            return keep, rest
        wanted = set(keep) | set(extra)
        return [k for k in self.kids[i] if k in wanted], [k for k in rest if k not in wanted]

    def placeholders(self, i: int) -> int:
        """Items of ``i`` other than recorded children: its pruned placeholders and its unrecorded box."""
        s = self.rec[i].skipped
        pruned = 0 if not self.show_pruned or not s else 1 if len(s) > self.group_pruned else len(s)
        return pruned + (1 if self.rec[i].unrecorded else 0)

    def expansion_cost(self, i: int) -> tuple[int, int]:
        """Items added by expanding ``i``: at its children's level (its own marker goes away), and below."""
        keep, rest = self.default_kids(i)
        below = sum(1 if self.kids[k] else self.placeholders(k) for k in keep)  # the new frontier's markers, boxes
        return len(keep) + (1 if rest else 0) + self.placeholders(i) - 1, below

    def expandable(self, i: int) -> bool:
        """A node without recorded children shows its placeholders anyway: only one with children expands."""
        return bool(self.kids[i])


class LevelBudget:
    """The default view's room: items used in all and on each level, and what the principal variation reserved."""

    def __init__(self, vis: Visibility, max_depth: int | None, collapse: int | None, max_width: int | None,
                 fold: set[int]) -> None:
        self.collapse, self.max_width = collapse, max_width
        self.per_level: dict[int, int] = {0: 1, 1: 1 if vis.expandable(0) else vis.placeholders(0)}
        self.used = 1 + self.per_level[1]
        # the principal variation is kept visible to the bottom: its expansions are reserved before the rest
        self.reserve = 0
        self.reserve_level: dict[int, int] = {}
        for i, n in vis.rec.items():
            if i and n.on_pv and vis.expandable(i) and i not in fold and (max_depth is None or n.depth < max_depth):
                here, below = vis.expansion_cost(i)
                self.reserve += here + below
                self.reserve_level[n.depth + 1] = self.reserve_level.get(n.depth + 1, 0) + here
                self.reserve_level[n.depth + 2] = self.reserve_level.get(n.depth + 2, 0) + below

    def release(self, d: int, here: int, below: int) -> None:
        """A node of the principal variation at depth ``d`` expands: its reserved room is used now."""
        self.reserve -= here + below
        self.reserve_level[d + 1] -= here
        self.reserve_level[d + 2] -= below

    def fits(self, d: int, here: int, below: int) -> bool:
        """True when expanding a node at depth ``d`` (``here`` items on the next level, ``below`` under them) keeps
        within the budgets, the reserved room included."""
        if self.collapse is not None and self.used + here + below + self.reserve > self.collapse:
            return False
        w = self.max_width
        return w is None or (
            self.per_level.get(d + 1, 0) + here + self.reserve_level.get(d + 1, 0) <= w
            and self.per_level.get(d + 2, 0) + below + self.reserve_level.get(d + 2, 0) <= w)

    def use(self, d: int, here: int, below: int) -> None:
        """Count an expansion at depth ``d``."""
        self.used += here + below
        self.per_level[d + 1] = self.per_level.get(d + 1, 0) + here
        self.per_level[d + 2] = self.per_level.get(d + 2, 0) + below


def default_view(vis: Visibility, max_depth: int | None, collapse: int | None, max_width: int | None,
                 fold: set[int]) -> set[int]:
    """The nodes the default view expands, breadth first (see :func:`layout`): the root and the principal variation
    always, the others in visiting order while the budgets allow; after the first miss no other node of that
    level or deeper (the picture stays a clean top slice)."""
    rec = vis.rec
    room = LevelBudget(vis, max_depth, collapse, max_width, fold)
    expanded: set[int] = set()
    level = [0]
    missed = False
    while level:
        level.sort(key=lambda i: (not rec[i].on_pv, rec[i].enter_order))
        nxt: list[int] = []
        for i in level:
            n = rec[i]
            if not vis.expandable(i) or i in fold or (max_depth is not None and n.depth >= max_depth):
                continue
            pv = n.on_pv and i != 0
            if i != 0 and missed and not pv:
                continue
            here, below = vis.expansion_cost(i)
            if pv:  # its room was reserved
                room.release(n.depth, here, below)
            if not (i == 0 or pv) and not room.fits(n.depth, here, below):
                missed = True
                continue
            room.use(n.depth, here, below)
            expanded.add(i)
            nxt.extend(vis.default_kids(i)[0])
        level = nxt
    return expanded


@dataclass
class Built:
    """The visible items, parents first, and what they count."""

    items: list[LayoutNode] = field(default_factory=list)
    shown: int = 0
    hidden: int = 0
    unrecorded: int = 0

    def add(self, item: LayoutNode) -> int:
        """Append ``item`` (its index set, its parent told); returns its index."""
        item.index = len(self.items)
        self.items.append(item)
        if item.parent is not None:
            self.items[item.parent].children.append(item.index)
        return item.index


def build_items(vis: Visibility, expanded: set[int]) -> Built:
    """The visible items, parents first (depth-first, children in order): each recorded node shown, a ``+N``
    marker for a node not expanded, and an expanded node's placeholders after its children."""
    out = Built()
    # the stack holds recorded nodes to add, and each expanded node's placeholders, pushed under its children so
    # they are added after them (they come last in the search order too)
    stack: list[tuple[int, int | None, list[LayoutNode]]] = [(0, None, [])]
    while stack:
        i, parent, tail = stack.pop()
        if i < 0:
            assert parent is not None
            for t in tail:
                t.parent = parent
                out.add(t)
            continue
        n = vis.rec[i]
        idx = out.add(LayoutNode(0, NODE, parent, n.depth, _shape_of(n), node=n, on_pv=n.on_pv))
        out.shown += 1
        if vis.kids[i] and i not in expanded:
            out.hidden += vis.size[i] - 1
            out.add(LayoutNode(0, COLLAPSED, idx, n.depth + 1, LEAF, hidden=vis.size[i] - 1, hidden_pruned=vis.cut[i]))
            continue
        keep, rest = vis.shown_kids(i)
        extra = placeholder_items(vis, n, idx, rest, out)
        if extra:
            stack.append((-1, idx, extra))
        stack.extend((k, idx, []) for k in reversed(keep))
    return out


def placeholder_items(vis: Visibility, n: RecordedNode, idx: int, rest: list[int], out: Built) -> list[LayoutNode]:
    """The items after an expanded node's children: one ``+N`` marker for the children ``rest`` not shown, the box
    of the nodes searched and not recorded, the pruned moves (one item each, or one for all of them past
    ``group_pruned``). Counts what they hide in ``out``."""
    child_shape = MIN if n.kind == MAX else MAX if n.kind == MIN else LEAF
    extra: list[LayoutNode] = []
    if rest:
        h = sum(vis.size[k] for k in rest)
        out.hidden += h
        extra.append(LayoutNode(0, COLLAPSED, idx, n.depth + 1, LEAF, hidden=h,
                                hidden_pruned=sum(vis.cut[k] for k in rest),
                                moves=tuple(vis.rec[k].move or "" for k in rest)))
    if n.unrecorded:
        out.unrecorded += n.unrecorded
        extra.append(LayoutNode(0, UNRECORDED, idx, n.depth + 1, LEAF, hidden=n.unrecorded))
    if vis.show_pruned and n.skipped:
        reason = cut_reason(n, vis.tree.prune)
        groups = [n.skipped] if len(n.skipped) > vis.group_pruned else [(m,) for m in n.skipped]
        extra.extend(LayoutNode(0, PRUNED, idx, n.depth + 1, child_shape, moves=tuple(g), hidden=len(g),
                                reason=reason) for g in groups)
    return extra


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


def _place(items: list[LayoutNode], sibling_sep: float, subtree_sep: float) -> None:
    """Set ``x`` of every item (:func:`gameplay.pictures.tidy.tidy_x`: Buchheim, Jünger and Leipert's tidy layout,
    linear time; 0 = the leftmost item)."""
    if not items:
        return
    xs = tidy_x([it.children for it in items], [it.parent for it in items], sibling_sep, subtree_sep)
    lo = min(xs)
    for it, x in zip(items, xs):
        it.x = round(x - lo, 9)
