"""A laid-out search tree drawn as a display list in pixels (no pygame): :func:`build_picture`.

The picture is built in steps a reader can follow one at a time (the sizes: :mod:`gameplay.pictures.picture_style`):

0. :func:`gameplay.pictures.picture_style.frame_shapes`: each node's shape sized to its value (the shape widens, or
   the value is set smaller down to the notes' size: a value never runs over its outline);
1. :func:`gameplay.pictures.picture_style.item_extent`: how far each item reaches left and right of its centre;
2. :func:`column_unit`: the pixels between two neighbouring columns of the layout (its ``x`` unit), widened until
   the labels of the edges keep clear of each other (:func:`label_conflicts`);
3. :func:`stack_levels`: the levels one under the other, each as tall as its tallest item and the lines under it,
   the air under a parent of many children as deep as a best line to its farthest child needs (:func:`steep_drop`);
4. :func:`header_block`: the header lines and the legend above the tree;
5. :func:`notes_shifts`: the lines under a node the best line leaves moved across, beside the line;
6. :func:`edge_layer` then :func:`node_layer`: the edges under the labels; each edge's label on its edge, in the row
   just above its level's tallest shape (:func:`edge_label_at`: the best line's label beside the line); the best
   line over the labels (:func:`best_band`: no label hides it, and a label it would still cross moves to a clear
   spot on or beside its edge, :func:`clear_spot`); then each item's shapes and texts from :data:`NODE_PAINTERS` by
   its kind.

Every label and shape is tagged with its role (:attr:`gameplay.pictures.tree_picture.Item.role`) and its owner
(:attr:`gameplay.pictures.tree_picture.Picture.owners`), so :mod:`gameplay.pictures.label_check` can tell from the
display list alone that no label lies over another, nor over a shape it does not belong to.

The items, colours and shapes are :mod:`gameplay.pictures.tree_picture`'s; the SVG writer
(``gameplay.pictures.tree_export``) and the pygame painter (``gameplay.pictures.tree_png``) draw the result.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ai.kernel.recording import MAX, MIN
from ai.teaching.trace import window_history
from gameplay.pictures.overlap_geometry import band_meets, boxes_meet
from gameplay.pictures.picture_style import (
    Box,
    Measure,
    Point,
    Style,
    best_label_side,
    drawn_shape,
    frame_shapes,
    half_height,
    item_extent,
    level_gap,
    level_heights,
    name_half,
    name_of,
    notes_of,
    on_best_line,
    value_dy,
)
from gameplay.pictures.tree_layout import COLLAPSED, LEAF, NODE, PRUNED, UNRECORDED, LayoutNode, TreeLayout
from gameplay.pictures.tree_picture import (
    PALETTE,
    Item,
    Palette,
    Picture,
    edge_items,
    edge_text,
    header_lines,
    item_box,
    label_items,
    label_size,
    legend_items,
    node_notes,
    pruned_text,
    shape_items,
    text_width,
    unrecorded_dash,
    unrecorded_half_height,
    unrecorded_lines,
    value_text,
    window_line,
)


# -- 2. the column unit -----------------------------------------------------------------------------------------
def column_unit(st: Style, geo: TreeLayout, lefts: list[float], rights: list[float], levels: Levels) -> float:
    """Pixels per layout ``x`` unit: the widest item of the picture (``compact``: the least at which no two
    neighbours on a level overlap), then widened step by step (5 % a step, at most 40 steps) until the edges'
    labels keep clear of each other (:func:`label_conflicts`: on their edges, neighbours' labels draw together
    towards their parents); when no width clears them all, the one that leaves the fewest. (The best line is
    drawn over the labels and kept off them by the levels' depth, :func:`steep_drop`, and :func:`clear_spot`.)"""
    widest = 92 * st.s
    for lw, rw in zip(lefts, rights, strict=True):
        widest = max(widest, 2 * lw, 2 * rw)
    unit = widest
    if st.compact and geo.nodes:
        rows: dict[int, list[tuple[float, float, float]]] = {}
        for it, lw, rw in zip(geo.nodes, lefts, rights, strict=True):
            rows.setdefault(it.depth, []).append((it.x, lw, rw))
        unit = 70 * st.s
        for row in rows.values():
            row.sort()
            for (xa, _, ra), (xb, lb, _) in itertools.pairwise(row):
                if xb - xa > 1e-9:
                    unit = max(unit, (ra + lb) / (xb - xa))
    runs = edge_runs(st, geo)
    if not runs or geo.width <= 0:
        return unit
    best = (label_conflicts(st, geo, runs, unit, levels), unit)
    u = unit
    for _ in range(40):
        if best[0] == 0:
            break
        u *= 1.05
        n = label_conflicts(st, geo, runs, u, levels)
        if n < best[0]:
            best = (n, u)
    return best[1]


@dataclass(frozen=True)
class Levels:
    """The picture's levels at zoom 1, the first level's centre at 0: each level's centre line and the top of its
    tallest shape (:func:`level_heights`)."""

    y: dict[int, float]
    top: dict[int, float]
    gap_top: dict[int, float]
    """By depth: where the air above the level starts (the bottom of the level above, its lines included)."""
    rows: dict[int, float]
    """By the recorded id of a parent: the top of its tallest child's shape, the row its children's edge labels sit
    on (:func:`edge_label_at`)."""


def stack_levels(st: Style, geo: TreeLayout, start: float = 0.0) -> Levels:
    """The levels of ``geo`` stacked from ``start`` (the top of the first level's tallest shape), and the rows of
    the edges' labels."""
    up, down = level_heights(st, geo)
    gap = level_gap(st)
    ys: dict[int, float] = {}
    tops: dict[int, float] = {}
    gap_top: dict[int, float] = {}
    y = start
    for d in range(0, geo.depth + 1):
        tops[d] = y
        y += up.get(d, st.hh)
        ys[d] = y
        y += down.get(d, st.hh)
        gap_top[d + 1] = y
        y += gap + steep_drop(st, geo, d, down.get(d, st.hh) + gap + up.get(d + 1, st.hh))
    rows = {it.node.id: ys[it.depth + 1] - max(half_height(st, geo.nodes[c]) for c in it.children)
            for it in geo.nodes if it.node is not None and it.children}
    return Levels(ys, tops, gap_top, rows)


def steep_drop(st: Style, geo: TreeLayout, d: int, height: float) -> float:
    """How much more air the level under depth ``d`` needs (pixels; ``height``: from the centre line of depth ``d``
    to the next one's without it) so that a best line from a parent at depth ``d`` to any of its children leaves
    room for each of its siblings' edge labels between the line and their row: a best line to a child ``r``
    columns away from its parent passes over a sibling one column nearer at ``1/r`` of the drop above the
    sibling's row, so the drop must be ``r`` times the label's height with the line's band and air (a flat line
    from a wide parent hid its siblings' labels: :func:`gameplay.pictures.label_check.best_line_crossings`). 0
    when every drop is steep enough; parents of two children never need more."""
    need = 0.0
    room = 2 * st.pv_half + 1.15 * st.f + 8 * st.s
    for par in geo.nodes:
        if par.depth != d or len(par.children) < 3:
            continue
        kids = [geo.nodes[c] for c in par.children]
        labelled = [k for k in kids if edge_text(k, par)]
        drop = height - half_height(st, par) - max(half_height(st, k) for k in kids)
        for b in kids:
            if b.kind != NODE:
                continue
            reach = b.x - par.x
            for k in labelled:
                if k is b or (k.x - par.x) * reach <= 0 or abs(k.x - par.x) >= abs(reach):
                    continue
                need = max(need, room * abs(reach) / abs(b.x - k.x) - drop)
    return need


@dataclass(frozen=True)
class EdgeRun:
    """A labelled edge of the geometry (layout ``x`` units across, :class:`Levels` pixels down)."""

    it: LayoutNode
    """The child the edge goes into."""
    par: LayoutNode
    text: str
    size: tuple[float, float]
    """The label's width and height (:func:`gameplay.pictures.tree_picture.label_size`)."""


def edge_runs(st: Style, geo: TreeLayout) -> list[EdgeRun]:
    """The labelled edges of ``geo``."""
    out = []
    for it in geo.nodes:
        if it.parent is None:
            continue
        t = edge_text(it, geo.nodes[it.parent])
        if t:
            out.append(EdgeRun(it, geo.nodes[it.parent], t, label_size(t, st.f, st.s, False, st.measure)))
    return out


def label_conflicts(st: Style, geo: TreeLayout, runs: list[EdgeRun], unit: float, levels: Levels) -> int:
    """How many pairs of neighbouring edge labels of a level meet (with a pixel of air each side) at ``unit``
    pixels per layout unit (:func:`edge_label_at`; ``levels``: :func:`stack_levels`)."""
    boxes: dict[int, list[Box]] = {}
    s = st.s
    for r in runs:
        top_pt, end_pt = edge_ends(st, r.par, r.it, (r.par.x * unit, levels.y[r.par.depth]),
                                   (r.it.x * unit, levels.y[r.it.depth]))
        row = levels.rows.get(r.par.node.id if r.par.node is not None else -1, levels.top[r.it.depth])
        lx, ly = edge_label_at(st, r.it, geo.nodes, r.text, top_pt, end_pt, row, r.size)
        w, h = r.size
        boxes.setdefault(r.it.depth, []).append((lx - w / 2 - s, ly - h / 2, w + 2 * s, h))
    n = 0
    for placed in boxes.values():
        placed.sort()
        n += sum(1 for a, b in itertools.pairwise(placed) if boxes_meet(a, b))
    return n


# -- 4. the header and the legend -------------------------------------------------------------------------------
@dataclass
class Header:
    """What is drawn above the tree."""

    items: list[Item] = field(default_factory=list)
    width: float = 0.0
    bottom: float = 0.0
    """Where the tree may start (pixels from the top)."""
    legend: Box | None = None


def header_block(st: Style, lay: TreeLayout, geo: TreeLayout, summary: Mapping[str, Any] | None, *, header: bool,
                 legend: bool) -> Header:
    """The header lines (:func:`gameplay.pictures.tree_picture.header_lines`) and the legend row, from the top
    margin."""
    f, s, margin = st.f, st.s, st.margin
    out = Header(bottom=margin)
    head = header_lines(lay.tree, summary, lay) if header else []
    for k, hline in enumerate(head):
        size = f * 1.3 if k == 0 else f
        out.items.append(Item("text", ((margin, out.bottom + size * 0.6),), fill=st.pal.text, text=hline, size=size,
                              bold=k == 0, anchor="start"))
        out.width = max(out.width, st.measure(hline, size, k == 0))
        out.bottom += size * 1.45
    if legend and geo.nodes:
        out.bottom += 6 * s
        leg_items, leg_w, leg_h = legend_items(geo, lay, margin, out.bottom, f, st.pal, st.measure)
        out.items += leg_items
        out.width = max(out.width, leg_w)
        out.legend = (margin, out.bottom, leg_w, leg_h)
        out.bottom += leg_h + 8 * s
    if head:
        out.bottom += 14 * s
    return out


# -- placing the levels and columns -----------------------------------------------------------------------------
@dataclass
class Placement:
    """Where the layout's items go: ``x0 + x * unit`` across, the level's centre line down."""

    x0: float
    unit: float
    level_y: dict[int, float]
    width: float
    height: float
    gap_top: dict[int, float] = field(default_factory=dict)
    """By depth: where the air above the level starts (the bottom of the level above, its lines included)."""
    level_top: dict[int, float] = field(default_factory=dict)
    """By depth: the top of the level's tallest shape."""
    label_row: dict[int, float] = field(default_factory=dict)
    """By the recorded id of a parent: the row its children's edge labels sit on (:attr:`Levels.rows`)."""

    def pos(self, it: LayoutNode) -> tuple[float, float]:
        """The item's centre in pixels."""
        return self.x0 + it.x * self.unit, self.level_y[it.depth]


def place(st: Style, geo: TreeLayout, unit: float, lefts: list[float], rights: list[float], head: Header
          ) -> Placement:
    """Centre the tree under the header (room for the widest texts at its edges) and stack the levels."""
    margin = st.margin
    left = right = unit / 2
    if st.compact:  # room for the widest texts at the edges (a wide root window over a narrow tree)
        for it, lw, rw in zip(geo.nodes, lefts, rights, strict=True):
            left = max(left, lw - it.x * unit)
            right = max(right, rw - (geo.width - it.x) * unit)
    tree_w = geo.width * unit + left + right
    width = 2 * margin + max(tree_w, head.width)
    x0 = margin + (width - 2 * margin - tree_w) / 2 + left
    levels = stack_levels(st, geo, head.bottom)
    bottom = max(levels.y.values(), default=head.bottom) + level_heights(st, geo)[1].get(geo.depth, st.hh)
    return Placement(x0, unit, levels.y, width, bottom + margin, levels.gap_top, levels.top, levels.rows)


# -- 5. drawing -------------------------------------------------------------------------------------------------
class Marks:
    """The boxes around everything drawn for each layout item (:attr:`gameplay.pictures.tree_picture.Picture.boxes`)
    and the owner of every item drawn."""

    def __init__(self, measure: Measure) -> None:
        self.measure = measure
        self.boxes: dict[int, list[float]] = {}
        """Layout index -> [x0, y0, x1, y1]."""

    def mark(self, idx: int, new: list[Item]) -> list[Owned]:
        """Count ``new`` as drawn for layout item ``idx`` (its box grows to hold them); returns them with their
        owner."""
        for item in new:
            b = item_box(item, self.measure)
            if b is None:
                continue
            box = self.boxes.setdefault(idx, [b[0], b[1], b[0] + b[2], b[1] + b[3]])
            box[0], box[1] = min(box[0], b[0]), min(box[1], b[1])
            box[2], box[3] = max(box[2], b[0] + b[2]), max(box[3], b[1] + b[3])
        return [(idx, item) for item in new]

    def as_boxes(self) -> dict[int, Box]:
        """``(x, y, w, h)`` by layout index."""
        return {i: (b[0], b[1], b[2] - b[0], b[3] - b[1]) for i, b in self.boxes.items()}


Owned = tuple[int, Item]
"""A drawn item and the layout index it is drawn for."""


def edge_ends(st: Style, par: LayoutNode, it: LayoutNode, p: Point, c: Point) -> tuple[Point, Point]:
    """The edge from ``par`` (centre ``p``) to ``it`` (centre ``c``): from under the parent's shape to the
    child's top."""
    return (p[0], p[1] + half_height(st, par)), (c[0], c[1] - half_height(st, it))


def edge_label_at(st: Style, it: LayoutNode, nodes: list[LayoutNode], t: str, top: Point, end: Point,
                  row: float, size: tuple[float, float] | None = None) -> Point:
    """Where the label ``t`` of the edge from ``top`` (under the parent's shape) to ``end`` (the child's top) goes:
    on the edge, in the row just above the tallest of the parent's children (``row``: its shape's top), so that
    siblings' labels keep the edges' order and never sit on a shape; the best line's label beside the line, on the
    side away from the parent (:func:`best_label_side`), clear of its band (the line is drawn over the labels).
    ``size``: the label's (:func:`gameplay.pictures.tree_picture.label_size`), when known."""
    f, s = st.f, st.s
    ly = min(row, end[1]) - 0.575 * f - 6 * s
    dy = end[1] - top[1]

    def x_at(y: float) -> float:
        return end[0] + (top[0] - end[0]) * ((end[1] - y) / dy if dy > 0 else 0.0)

    if not on_best_line(it, nodes):
        return x_at(ly), ly
    w, h = size if size is not None else label_size(t, f, s, False, st.measure)
    side = best_label_side(it, nodes)
    gap = band_across(st, top, end) + 3 * s
    # the line is nearest the label's side at the label's bottom (it leans away from the label as it climbs)
    return (x_at(ly + h / 2) - gap - w / 2, ly) if side < 0 else (x_at(ly + h / 2) + gap + w / 2, ly)


def best_band(st: Style, par: LayoutNode, it: LayoutNode, top: Point, end: Point) -> Item:
    """The band of the best line from ``top`` to ``end`` (:func:`edge_ends`) as :func:`edge_layer` draws it: from
    half its stroke under the parent's shape (its round end touches the shape; a MAX triangle holds its value right
    over its base) to the child's top (half its stroke above a MIN triangle, which holds its value right under its
    top). The parent's lines are moved out of its way (:func:`notes_shifts`)."""
    start = (top[0], top[1] + st.pv_half)
    stop = end if it.shape != MIN else (end[0], end[1] - st.pv_half)
    return edge_items(start, stop, st.pal, st.s, pv=True)[0]


def band_across(st: Style, a: Point, b: Point) -> float:
    """Half the width, measured across the page, of the best line's band from ``a`` to ``b``: its half stroke,
    wider the flatter the line."""
    dy = abs(b[1] - a[1])
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    return st.pv_half * (length / dy if dy > 1e-9 else 1.0)


def notes_width(st: Style, it: LayoutNode) -> float:
    """The widest line written under ``it`` at any step (its notes, every window the step-through shows), as a
    background label (0: none)."""
    texts = notes_of(st, it)
    if it.kind == NODE and it.node is not None and st.show_window and it.shape in (MAX, MIN):
        texts += [window_line(a, b, it.node.proofs)
                  for a, b in window_history(st.by_id, st.by_id.get(it.node.id, it.node))]
        if not texts:  # a node reached in the step-through shows its window
            texts = [window_line(it.node.alpha_in, it.node.beta_in, it.node.proofs)]
    return max((label_size(t, st.f, st.s, False, st.measure)[0] for t in texts), default=0.0)


def grow_for_shifts(st: Style, geo: TreeLayout, shifts: Mapping[int, float], lefts: list[float],
                    rights: list[float]) -> bool:
    """Widen (in place) the reach of each item of ``geo`` whose lines are moved (``shifts``) to hold them, with the
    items' air (8 px at scale 1); True when one grew."""
    grew = False
    for it in geo.nodes:
        if it.node is None or it.node.id not in shifts:
            continue
        d = shifts[it.node.id]
        need = abs(d) + notes_width(st, it) / 2 + 8 * st.s
        reach = rights if d > 0 else lefts
        if need > reach[it.index] + 1e-6:
            reach[it.index] = need
            grew = True
    return grew


def notes_shifts(st: Style, geo: TreeLayout, at: Placement) -> dict[int, float]:
    """For each recorded node of ``geo`` the best line leaves, how far its lines move across, away from the line,
    so that the line's band (:func:`best_band`, its round end included) passes beside them with 2 px of air: the
    line leaves the node visibly instead of from under its alpha-beta window."""
    out: dict[int, float] = {}
    for it in geo.nodes:
        if it.parent is None or not on_best_line(it, geo.nodes):
            continue
        par = geo.nodes[it.parent]
        w = notes_width(st, par)
        if par.node is None or w <= 0:
            continue
        top, end = edge_ends(st, par, it, at.pos(par), at.pos(it))
        band = best_band(st, par, it, top, end)
        side = 1.0 if end[0] < top[0] else -1.0  # the lines go to the side away from the child
        n = max(1, len(notes_of(st, par)))
        y0 = top[1] + 0.175 * st.f - 2 * st.s  # the lines' top and bottom (:func:`notes_below`), with the air
        h = 1.15 * st.f + (n - 1) * st.line + 4 * st.s
        x0 = top[0] - w / 2 - 2 * st.s
        if band_clears(st, band, (x0, y0, w + 4 * st.s, h)):
            continue
        lo, hi = 0.0, w + 4 * band_across(st, top, end)  # moved by its width and the band, it is clear
        while hi - lo > 0.5:  # the least move that clears it (the band is straight: one side of it is clear)
            mid = (lo + hi) / 2
            if band_clears(st, band, (x0 + mid * side, y0, w + 4 * st.s, h)):
                hi = mid
            else:
                lo = mid
        shift = hi
        if shift > 0:
            out[par.node.id] = side * shift
    return out


def band_clears(st: Style, band: Item, box: Box) -> bool:
    """True when the best line's ``band`` (its round start included) keeps clear of ``box``."""
    (sx, sy), = band.pts[:1]
    cx = min(max(sx, box[0]), box[0] + box[2])
    cy = min(max(sy, box[1]), box[1] + box[3])
    return not band_meets(band, box) and math.hypot(cx - sx, cy - sy) >= st.pv_half


@dataclass(frozen=True)
class EdgeLabel:
    """An edge's label being placed (:func:`edge_layer`): its edge, words, centre, size and the air it may move in
    (picture pixels)."""

    it: LayoutNode
    """The child the edge goes into."""
    text: str
    top: Point
    """The edge's top end, under the parent's shape (:func:`edge_ends`)."""
    end: Point
    """The edge's bottom end, the child's top."""
    at: Point
    """The label's centre where :func:`edge_label_at` puts it."""
    size: tuple[float, float]
    air: tuple[float, float]
    """How high and how low the label's box may reach: the air between the level above (its lines included) and
    the row of its siblings' shapes."""
    best: int
    """0 on an ordinary edge; on the best line, the side of it the label goes (:func:`best_label_side`)."""

    def x_at(self, y: float) -> float:
        """The edge's ``x`` at height ``y``."""
        (tx, ty), (ex, ey) = self.top, self.end
        return ex + (tx - ex) * ((ey - y) / (ey - ty) if ey - ty > 0 else 0.0)

    def box(self, c: Point) -> Box:
        """The label's box centred at ``c``."""
        w, h = self.size
        return c[0] - w / 2, c[1] - h / 2, w, h


def label_spots(st: Style, lab: EdgeLabel, room: tuple[float, float]) -> list[Point]:
    """Where ``lab`` may go, best first: on its own edge (a best-line label: beside its line, as
    :func:`edge_label_at` puts it) at each height of its air, nearest its place first; then beside its edge, either
    side; then moved across within its column (``room``: pixels left and right) at each height."""
    w, h = lab.size
    lx, ly = lab.at
    step = st.s
    lo, hi = lab.air[0] + h / 2, lab.air[1] - h / 2
    ys = [ly + k * step for k in range(math.ceil((lo - ly) / step), math.floor((hi - ly) / step) + 1)]
    ys.sort(key=lambda y: abs(y - ly))
    if not ys:
        ys = [ly]
    gap = 3 * st.s
    if lab.best:
        across = band_across(st, lab.top, lab.end) + gap + w / 2
        on_edge = [(lab.x_at(y + h / 2) + lab.best * across, y) for y in ys]
    else:
        on_edge = [(lab.x_at(y), y) for y in ys]
    beside = [(lab.x_at(y) + side * (w / 2 + gap + 2 * st.s), y) for y in ys for side in (-1, 1)]
    free = [(lx + i * 2 * step, y) for i in range(-int(room[0] / (2 * step)), int(room[1] / (2 * step)) + 1)
            for y in ys]
    free.sort(key=lambda c: abs(c[0] - lx) + abs(c[1] - ly))
    return on_edge + beside + free


def clear_spot(st: Style, lab: EdgeLabel, bands: list[Item], others: list[Box], room: tuple[float, float]
               ) -> Point:
    """Where ``lab`` goes so that none of the best line's ``bands`` passes over it and it meets none of the
    ``others`` (the other edge labels' boxes): its place when that is clear, else the first clear one of
    :func:`label_spots`; its place when none is."""

    def clear(c: Point) -> bool:
        b = lab.box(c)
        return not any(band_meets(band, b) for band in bands) and not any(boxes_meet(b, o) for o in others)

    if not any(band_meets(band, lab.box(lab.at)) for band in bands):
        return lab.at
    return next((c for c in label_spots(st, lab, room) if clear(c)), lab.at)


def edge_layer(st: Style, lay: TreeLayout, at: Placement, marks: Marks) -> tuple[list[Owned], list[Owned]]:
    """``(under, over)``: the edges and each edge's label (:func:`edge_label_at`), to go under the nodes; the best
    line (:func:`best_band`), drawn after the labels so that none hides it."""
    f, s, pal = st.f, st.s, st.pal
    lines: list[Owned] = []
    best: list[Owned] = []
    placed: list[EdgeLabel] = []
    for it in lay.nodes:
        if it.parent is None:
            continue
        par = lay.nodes[it.parent]
        top_pt, end_pt = edge_ends(st, par, it, at.pos(par), at.pos(it))
        if on_best_line(it, lay.nodes):
            band = best_band(st, par, it, top_pt, end_pt)
            best += [(it.index, e) for e in edge_items(band.pts[0], band.pts[1], pal, s, pv=True)]
        else:
            lines += [(it.index, e) for e in edge_items(top_pt, end_pt, pal, s, pruned=it.kind == PRUNED,
                                                          collapsed=it.kind == COLLAPSED,
                                                          unrecorded=it.kind == UNRECORDED)]
        t = edge_text(it, par)
        if t:
            row = at.label_row.get(par.node.id if par.node is not None else -1, at.level_top.get(it.depth, end_pt[1]))
            size = label_size(t, f, s, False, st.measure)
            air = (at.gap_top.get(it.depth, row - size[1]) + 2 * s, row - 2 * s)
            side = best_label_side(it, lay.nodes) if on_best_line(it, lay.nodes) else 0
            placed.append(EdgeLabel(it, t, top_pt, end_pt, edge_label_at(st, it, lay.nodes, t, top_pt, end_pt, row,
                                                                          size), size, air, side))
    bands = [e for _, e in best if e.role == "best"]
    boxes = [lab.box(lab.at) for lab in placed]
    labels: list[Owned] = []
    for k, lab in enumerate(placed):
        it = lab.it
        if bands:  # a flat best line passes over a label (a neighbour's, or its own at its end): move it
            left, right = item_extent(st, it, lay.nodes)
            cx = at.pos(it)[0]
            x0, w = boxes[k][0], lab.size[0]
            room = (max(0.0, x0 - (cx - left) - 4 * s), max(0.0, cx + right - (x0 + w) - 4 * s))
            c = clear_spot(st, lab, bands, boxes[:k] + boxes[k + 1:], room)
            boxes[k] = lab.box(c)
        else:
            c = lab.at
        color = pal.muted if it.kind == PRUNED else pal.text
        labels += marks.mark(it.index, label_items(lab.text, c[0], c[1], f, color, pal, s, measure=st.measure,
                                                   role="edge"))
    return lines + labels, best


Painted = tuple[list[Item], Box | None]
"""An item's drawing and its hit box (``None``: nothing opens it)."""


def notes_below(st: Style, it: LayoutNode, cx: float, cy: float, notes: list[str]) -> list[Item]:
    """The lines under an item's shape, in muted print on a background label (moved across when the best line
    leaves the node: :attr:`Style.notes_shift`)."""
    out: list[Item] = []
    if it.kind == NODE and it.node is not None:
        cx += st.notes_shift.get(it.node.id, 0.0)
    for k, t in enumerate(notes):
        ty = cy + half_height(st, it) + 0.75 * st.f + k * st.line
        out += label_items(t, cx, ty, st.f, st.pal.muted, st.pal, st.s, measure=st.measure, role="note")
    return out


def collapsed_items(st: Style, it: LayoutNode, cx: float, cy: float, nodes: list[LayoutNode]) -> Painted:
    """A ``+N nodes`` marker: a dashed box (a click opens it)."""
    s, f, pal = st.s, st.f, st.pal
    t = f"+{it.hidden} node{'s' if it.hidden != 1 else ''}"
    w = st.measure(t, f, True) + 20 * s
    items = [Item("rect", ((cx - w / 2, cy - 18 * s), (cx + w / 2, cy + 18 * s)), stroke=pal.muted,
                  fill=pal.background, width=2.5 * s, dash=(3 * s, 4 * s), r=8 * s, role="shape"),
             Item("text", ((cx, cy),), fill=pal.text, text=t, size=f, bold=True, role="marker")]
    return items, (cx - w / 2, cy - 18 * s, w, 36 * s)


def unrecorded_items(st: Style, it: LayoutNode, cx: float, cy: float, nodes: list[LayoutNode]) -> Painted:
    """Nodes counted, not recorded: a muted dotted box, no hit box (nothing opens it)."""
    s, f, pal = st.s, st.f, st.pal
    lines = unrecorded_lines(it.hidden)
    w = max(st.measure(t, f, False) for t in lines) + 24 * s
    h2 = unrecorded_half_height(f, s)
    items = [Item("rect", ((cx - w / 2, cy - h2), (cx + w / 2, cy + h2)), stroke=pal.pruned, fill=pal.pruned_fill,
                  width=2.5 * s, dash=unrecorded_dash(s), r=2 * s, role="shape")]
    items += [Item("text", ((cx, cy + (k - (len(lines) - 1) / 2) * 1.15 * f),), fill=pal.muted, text=t, size=f,
                   role="marker") for k, t in enumerate(lines)]
    return items, None


def pruned_items(st: Style, it: LayoutNode, cx: float, cy: float, nodes: list[LayoutNode]) -> Painted:
    """A pruned child: the empty dashed shape, "pruned" (and its name) on it, the cut-off test under it."""
    s, f, pal = st.s, st.f, st.pal
    nm = name_of(st, it, nodes)
    t1 = f"{nm} {pruned_text(it.hidden)}" if nm else pruned_text(it.hidden)
    leaf_w = max(60 * s, st.measure(t1, f, True) + 18 * s)
    items = shape_items(it.shape, cx, cy, st.hw, st.hh, st.cr, pal, s, pruned=True, leaf_w=leaf_w)
    items += label_items(t1, cx, cy, f, pal.muted, pal, s, bold=True, measure=st.measure, role="marker")
    items += notes_below(st, it, cx, cy, notes_of(st, it))
    return items, (cx - st.hw, cy - st.hh, 2 * st.hw, 2 * st.hh)


def recorded_items(st: Style, it: LayoutNode, cx: float, cy: float, nodes: list[LayoutNode]) -> Painted:
    """A recorded node: its shape holding the value (:func:`drawn_shape`), its name left of it, its notes under
    it."""
    s, pal = st.s, st.pal
    n = it.node
    assert n is not None
    val = value_text(n)
    if it.shape == LEAF:
        w = max(58 * s, st.measure(val, st.fv, True) + 18 * s)
        items = shape_items(LEAF, cx, cy, st.hw, st.hh, st.cr, pal, s, pv=it.on_pv, leaf_w=w)
        items.append(Item("text", ((cx, cy),), fill=pal.text, text=val, size=st.fv, bold=True, role="value"))
        hit: Box = (cx - w / 2, cy - 22 * s, w, 44 * s)
    else:
        sh = drawn_shape(st, it, val)
        items = shape_items(it.shape, cx, cy, sh.hw, sh.hh, sh.hw, pal, s, pv=it.on_pv)
        items.append(Item("text", ((cx, cy + value_dy(st, it.shape, sh.hh, sh.value_size)),), fill=pal.text,
                          text=val, size=sh.value_size, bold=True, role="value"))
        hit = (cx - sh.hw, cy - sh.hh, 2 * sh.hw, 2 * sh.hh)
    nm = name_of(st, it, nodes)
    if nm:  # left of the shape at its middle: clear of the value inside, the window below, the edge above
        items.append(Item("text", ((cx - name_half(st, it), cy),), fill=pal.text, text=nm, size=st.f, bold=True,
                          anchor="end", role="name"))
    items += notes_below(st, it, cx, cy, node_notes(it, st.show_window, st.by_id))
    return items, hit


NODE_PAINTERS: dict[str, Callable[[Style, LayoutNode, float, float, list[LayoutNode]], Painted]] = {
    COLLAPSED: collapsed_items, UNRECORDED: unrecorded_items, PRUNED: pruned_items, NODE: recorded_items}
"""How each kind of layout item is drawn."""


def node_layer(st: Style, lay: TreeLayout, at: Placement, marks: Marks
               ) -> tuple[list[Owned], list[tuple[int, Box]]]:
    """Every item's shapes and texts (over the edges), and the hit boxes of those a pointer can act on."""
    items: list[Owned] = []
    hits: list[tuple[int, Box]] = []
    for it in lay.nodes:
        cx, cy = at.pos(it)
        drawn, hit = NODE_PAINTERS[it.kind](st, it, cx, cy, lay.nodes)
        items += marks.mark(it.index, drawn)
        if hit is not None:
            hits.append((it.index, hit))
    return items, hits


def build_picture(lay: TreeLayout, summary: Mapping[str, Any] | None = None, *, font_size: float = 20.0,
                  header: bool = True, legend: bool = True, palette: Palette = PALETTE,
                  measure: Measure | None = None, value_size: float | None = None,
                  compact: bool = False, frame: TreeLayout | None = None, names: Mapping[int, str] | None = None,
                  pruned_names: Mapping[tuple[int, str], str] | None = None) -> Picture:
    """Draw a layout as a display list (the same picture for SVG, PNG and the overlay).

    Args:
        lay: the layout.
        summary: the CLI's summary object (value, best move, ``minimax_nodes`` ...) for the header.
        font_size: the body text size in pixels (the whole picture scales with it; keep >= 18 to project).
        header: draw the header lines.
        legend: draw the legend row under the header.
        palette: colours.
        measure: ``(text, size, bold) -> width`` in pixels of the renderer's font (default: an estimate,
            :func:`gameplay.pictures.tree_picture.text_width`).
        value_size: the size in pixels of the node values (default ``font_size``; the overlay's presenter view
            draws them larger than the notes and edge labels).
        compact: space the columns by what neighbouring items on each level need (their widest text) instead
            of the widest text of the whole picture (the overlay: a wide root window no longer widens every
            column; leaves may be narrower; levels 32 px closer at 20 px text).
        frame: the layout that fixes the geometry (column spacing, size, legend) when ``lay`` is a part of it
            with the same positions: the step-through draws the nodes reached so far where the finished
            search puts them, so nothing moves from one step to the next.
        names: recorded node id -> name (the Tree Lab's ``A``, ``B``... of :func:`ai.teaching.tree_names.node_names`,
            :func:`gameplay.pictures.tree_picture.lab_names`), drawn bold left of each inner node; leaves (named by
            their
            value, which their box shows) and ``?`` are not drawn.
        pruned_names: ``(parent id, move)`` -> name of a pruned child (the narration's "C's right child G"),
            drawn beside its pruned placeholder.

    Returns:
        The picture, ``width`` x ``height`` pixels.
    """
    geo = frame if frame is not None else lay
    show_window = lay.show_window
    st = Style(font_size, value_size or font_size, compact, palette, measure or text_width, show_window,
               {n.id: n for n in lay.tree.nodes} if show_window else {}, names, pruned_names)
    st = replace(st, shapes=frame_shapes(st, geo))
    extents = [item_extent(st, it, geo.nodes) for it in geo.nodes]
    lefts = [lw for lw, _ in extents]
    rights = [rw for _, rw in extents]
    levels = stack_levels(st, geo)
    head = header_block(st, lay, geo, summary, header=header, legend=legend)
    for _ in range(4):  # the lines moved beside the best line need room in their column; a wider one moves them
        unit = column_unit(st, geo, lefts, rights, levels)
        at = place(st, geo, unit, lefts, rights, head)
        shifts = notes_shifts(st, geo, at)
        if not grow_for_shifts(st, geo, shifts, lefts, rights):
            break
    st = replace(st, notes_shift=shifts)
    marks = Marks(st.measure)
    under, best = edge_layer(st, lay, at, marks)
    nodes, hits = node_layer(st, lay, at, marks)
    drawn = under + best + nodes
    title = header_lines(lay.tree, summary)[0] if lay.nodes else lay.tree.algorithm
    return Picture(at.width, at.height, head.items + [it for _, it in drawn], hits, title, palette.background,
                   head.legend, marks.as_boxes(), [-1] * len(head.items) + [i for i, _ in drawn])
