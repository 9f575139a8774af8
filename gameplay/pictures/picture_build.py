"""A laid-out search tree drawn as a display list in pixels (no pygame): :func:`build_picture`.

The picture is built in five steps a reader can follow one at a time:

1. :func:`item_extent`: how wide each item is (its value, notes, edge label and name) and how far it reaches left;
2. :func:`column_unit`: the pixels between two neighbouring columns of the layout (its ``x`` unit);
3. :func:`level_heights`: how far each level reaches above and below its centre line;
4. :func:`header_block`: the header lines and the legend above the tree;
5. :func:`edge_layer` then :func:`node_layer`: the edges (with their labels) under the nodes, each item's
   shapes and texts from :data:`NODE_PAINTERS` by its kind.

The items, colours and shapes are :mod:`gameplay.pictures.tree_picture`'s; the SVG writer
(``gameplay.pictures.tree_export``) and
the pygame painter (``gameplay.pictures.tree_png``) draw the result.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ai.kernel.recording import CHANCE, MAX, MIN, RecordedNode
from ai.teaching.trace import window_history
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

Measure = Callable[[str, float, bool], float]
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Style:
    """The sizes and what a picture shows: everything the small functions below share (pixels at zoom 1)."""

    f: float
    """Notes and edge labels."""
    fv: float
    """Node values."""
    compact: bool
    pal: Palette
    measure: Measure
    show_window: bool
    by_id: Mapping[int, RecordedNode]
    names: Mapping[int, str] | None
    pruned_names: Mapping[tuple[int, str], str] | None

    @property
    def s(self) -> float:
        """The scale of the strokes and gaps (1 at 20 px text)."""
        return self.f / 20.0

    @property
    def margin(self) -> float:
        return (6 if self.compact else 28) * self.s

    @property
    def sv(self) -> float:
        """Node shapes widen with the values they hold (the presenter's larger values)."""
        return max(self.s, self.fv / 20.0)

    @property
    def hw(self) -> float:
        """Half the width of a MAX or MIN triangle."""
        return (30 if self.compact else 40) * self.sv

    @property
    def hh(self) -> float:
        """Half the height of a MAX or MIN triangle."""
        return max(20 * self.s, 0.85 * self.fv)

    @property
    def cr(self) -> float:
        """The radius of a chance node's circle."""
        return 33 * self.sv

    @property
    def line(self) -> float:
        """The distance between two lines of notes."""
        return 1.2 * self.f


# -- what each item shows ---------------------------------------------------------------------------------------
def name_of(st: Style, it: LayoutNode, nodes: list[LayoutNode]) -> str:
    """The name drawn beside ``it`` ("" for none): a Tree Lab node's letter, a named pruned child."""
    nm = ""
    if it.kind == NODE and it.node is not None and st.names:
        nm = st.names.get(it.node.id, "")
    elif it.kind == PRUNED and st.pruned_names and it.parent is not None:
        par = nodes[it.parent].node
        if par is not None:
            nm = ", ".join(x for x in (st.pruned_names.get((par.id, m), "") for m in it.moves)
                           if x and x != "?" and not x.startswith("leaf"))
    if it.shape == LEAF or nm == "?" or nm.startswith("leaf"):
        return ""
    return nm


def name_half(st: Style, it: LayoutNode) -> float:
    """Distance from the node's centre to the right end of its name."""
    return (st.cr if it.shape == CHANCE and it.kind == NODE else st.hw) + (10 if st.compact else 18) * st.s


def half_height(st: Style, it: LayoutNode) -> float:
    """Half the height of the item's shape (its notes hang below it)."""
    if it.kind == COLLAPSED:
        return 18 * st.s
    if it.kind == UNRECORDED:
        return unrecorded_half_height(st.f, st.s)
    if it.shape == CHANCE and it.kind == NODE:
        return st.cr
    if it.shape == LEAF:
        return 22 * st.s
    return st.hh


def notes_of(st: Style, it: LayoutNode) -> list[str]:
    """The lines under the item's shape."""
    if it.kind == PRUNED:
        return [it.reason] if it.reason else []
    if it.kind == NODE:
        return node_notes(it, st.show_window, st.by_id)
    return []


def item_texts(st: Style, it: LayoutNode, nodes: list[LayoutNode]) -> list[tuple[str, bool, float]]:
    """``(text, bold, size)`` of everything written for ``it`` at its place (not its name): the value and notes,
    every window the step-through shows under it, a placeholder's words, the label of the edge into it."""
    f = st.f
    texts: list[tuple[str, bool, float]] = []
    if it.node is not None:
        texts.append((value_text(it.node), True, st.fv))
        texts += [(t, False, f) for t in node_notes(it, st.show_window, st.by_id)]
        if st.show_window and it.shape in (MAX, MIN):  # every window the step-through shows under it
            texts += [(window_line(a, b, it.node.proofs), False, f)
                      for a, b in window_history(st.by_id, st.by_id.get(it.node.id, it.node))]
    elif it.kind == PRUNED:
        texts += [(it.reason, False, f), (pruned_text(it.hidden), True, f)]
    elif it.kind == UNRECORDED:
        texts += [(t, False, f) for t in unrecorded_lines(it.hidden)]
    else:
        texts.append((f"+{it.hidden} nodes", True, f))
    if it.parent is not None and it.kind not in (COLLAPSED, UNRECORDED):
        texts.append((edge_text(it, nodes[it.parent]), False, f))
    return texts


# -- 1. widths --------------------------------------------------------------------------------------------------
def item_extent(st: Style, it: LayoutNode, nodes: list[LayoutNode]) -> tuple[float, float]:
    """``(width, reach)``: the item's width in pixels and how far it reaches left of its centre (half its width,
    or further to hold its name)."""
    s = st.s
    texts = item_texts(st, it, nodes)
    own = 70 * s if st.compact and it.kind == NODE and it.shape == LEAF else 92 * s
    pad = (16 if st.compact and it.kind not in (COLLAPSED, UNRECORDED) else 28) * s  # boxes keep a gap
    nm = name_of(st, it, nodes)
    if it.kind == PRUNED and nm:  # a pruned child's name is on its label ("G pruned"), not beside it
        texts.append((f"{nm} {pruned_text(it.hidden)}", True, st.f))
        nm = ""
    for t, heavy, size in texts:
        own = max(own, st.measure(t, size, heavy) + pad)
    reach = max(own / 2, name_half(st, it) + st.measure(nm, st.f, True) + 6 * s) if nm else own / 2
    return own, reach


# -- 2. the column unit -----------------------------------------------------------------------------------------
def column_unit(st: Style, geo: TreeLayout, item_w: list[float], item_left: list[float]) -> float:
    """Pixels per layout ``x`` unit: the widest item of the picture; ``compact``: the least at which no two
    neighbours on a level overlap (a name reaches left only)."""
    widest = 92 * st.s
    for own, reach in zip(item_w, item_left, strict=True):
        widest = max(widest, own, 2 * reach)
    if not (st.compact and geo.nodes):
        return widest
    rows: dict[int, list[tuple[float, float, float]]] = {}
    for it, w, lw in zip(geo.nodes, item_w, item_left, strict=True):
        rows.setdefault(it.depth, []).append((it.x, w / 2, lw))
    unit = 70 * st.s
    for row in rows.values():
        row.sort()
        for (xa, ra, _), (xb, _, lb) in itertools.pairwise(row):
            if xb - xa > 1e-9:
                unit = max(unit, (ra + lb) / (xb - xa))
    return unit


# -- 3. heights -------------------------------------------------------------------------------------------------
def level_heights(st: Style, geo: TreeLayout) -> tuple[dict[int, float], dict[int, float]]:
    """``(up, down)`` by depth: each level as tall as its tallest shape and the most lines under a node there."""
    up: dict[int, float] = {}
    down: dict[int, float] = {}
    for it in geo.nodes:
        h2 = half_height(st, it)
        lines = len(notes_of(st, it))
        if it.kind == NODE and st.show_window and it.shape in (MAX, MIN) and not lines:
            lines = 1  # a node reached in the step-through shows its window
        up[it.depth] = max(up.get(it.depth, 0.0), h2)
        down[it.depth] = max(down.get(it.depth, 0.0), h2 + (0.15 * st.f + lines * st.line if lines else 0.0))
    return up, down


def level_gap(st: Style) -> float:
    """The air between two levels: an edge label sits just above its child, clear of the notes above."""
    label_gap = 1.15 * st.f + 8 * st.s
    return label_gap if st.compact else label_gap + 32 * st.s


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

    def pos(self, it: LayoutNode) -> tuple[float, float]:
        """The item's centre in pixels."""
        return self.x0 + it.x * self.unit, self.level_y[it.depth]


def place(st: Style, geo: TreeLayout, unit: float, item_w: list[float], item_left: list[float], head: Header
          ) -> Placement:
    """Centre the tree under the header (room for the widest texts at its edges) and stack the levels."""
    margin = st.margin
    left = right = unit / 2
    if st.compact:  # room for the widest texts at the edges (a wide root window over a narrow tree)
        for it, w, lw in zip(geo.nodes, item_w, item_left, strict=True):
            left = max(left, lw - it.x * unit)
            right = max(right, w / 2 - (geo.width - it.x) * unit)
    tree_w = geo.width * unit + left + right
    width = 2 * margin + max(tree_w, head.width)
    x0 = margin + (width - 2 * margin - tree_w) / 2 + left
    up, down = level_heights(st, geo)
    gap = level_gap(st)
    level_y: dict[int, float] = {}
    y = head.bottom
    for d in range(0, geo.depth + 1):
        y += up.get(d, st.hh)
        level_y[d] = y
        y += down.get(d, st.hh) + gap
    return Placement(x0, unit, level_y, width, y - gap + margin)


# -- 5. drawing -------------------------------------------------------------------------------------------------
class Marks:
    """The boxes around everything drawn for each layout item (:attr:`gameplay.pictures.tree_picture.Picture.boxes`)."""

    def __init__(self, measure: Measure) -> None:
        self.measure = measure
        self.boxes: dict[int, list[float]] = {}
        """Layout index -> [x0, y0, x1, y1]."""

    def mark(self, idx: int, new: list[Item]) -> list[Item]:
        """Count ``new`` as drawn for layout item ``idx`` (its box grows to hold them); returns ``new``."""
        for item in new:
            b = item_box(item, self.measure)
            if b is None:
                continue
            box = self.boxes.setdefault(idx, [b[0], b[1], b[0] + b[2], b[1] + b[3]])
            box[0], box[1] = min(box[0], b[0]), min(box[1], b[1])
            box[2], box[3] = max(box[2], b[0] + b[2]), max(box[3], b[1] + b[3])
        return new

    def as_boxes(self) -> dict[int, Box]:
        """``(x, y, w, h)`` by layout index."""
        return {i: (b[0], b[1], b[2] - b[0], b[3] - b[1]) for i, b in self.boxes.items()}


def edge_layer(st: Style, lay: TreeLayout, at: Placement, marks: Marks) -> list[Item]:
    """The edges (under the nodes), then each edge's label just above its child."""
    f, s, pal = st.f, st.s, st.pal
    lines: list[Item] = []
    labels: list[Item] = []
    for it in lay.nodes:
        if it.parent is None:
            continue
        par = lay.nodes[it.parent]
        px, py = at.pos(par)
        cx, cy = at.pos(it)
        top_pt = (px, py + (st.cr if par.shape == CHANCE else st.hh))
        end_pt = (cx, cy - half_height(st, it))
        lines += edge_items(top_pt, end_pt, pal, s, pv=it.on_pv and par.on_pv, pruned=it.kind == PRUNED,
                            collapsed=it.kind == COLLAPSED, unrecorded=it.kind == UNRECORDED)
        t = edge_text(it, par)
        if t:
            ly = end_pt[1] - 0.575 * f - 6 * s
            dy = end_pt[1] - top_pt[1]
            frac = 1.0 if dy <= 0 else max(0.0, min(1.0, (ly - top_pt[1]) / dy))
            lx = top_pt[0] + (end_pt[0] - top_pt[0]) * frac
            color = pal.muted if it.kind == PRUNED else pal.text
            labels += marks.mark(it.index, label_items(t, lx, ly, f, color, pal, s, measure=st.measure))
    return lines + labels


Painted = tuple[list[Item], Box | None]
"""An item's drawing and its hit box (``None``: nothing opens it)."""


def notes_below(st: Style, it: LayoutNode, cx: float, cy: float, notes: list[str]) -> list[Item]:
    """The lines under an item's shape, in muted print on a background label."""
    out: list[Item] = []
    for k, t in enumerate(notes):
        ty = cy + half_height(st, it) + 0.75 * st.f + k * st.line
        out += label_items(t, cx, ty, st.f, st.pal.muted, st.pal, st.s, measure=st.measure)
    return out


def collapsed_items(st: Style, it: LayoutNode, cx: float, cy: float, nodes: list[LayoutNode]) -> Painted:
    """A ``+N nodes`` marker: a dashed box (a click opens it)."""
    s, f, pal = st.s, st.f, st.pal
    t = f"+{it.hidden} node{'s' if it.hidden != 1 else ''}"
    w = st.measure(t, f, True) + 20 * s
    items = [Item("rect", ((cx - w / 2, cy - 18 * s), (cx + w / 2, cy + 18 * s)), stroke=pal.muted,
                  fill=pal.background, width=2.5 * s, dash=(3 * s, 4 * s), r=8 * s),
             Item("text", ((cx, cy),), fill=pal.text, text=t, size=f, bold=True)]
    return items, (cx - w / 2, cy - 18 * s, w, 36 * s)


def unrecorded_items(st: Style, it: LayoutNode, cx: float, cy: float, nodes: list[LayoutNode]) -> Painted:
    """Nodes counted, not recorded: a muted dotted box, no hit box (nothing opens it)."""
    s, f, pal = st.s, st.f, st.pal
    lines = unrecorded_lines(it.hidden)
    w = max(st.measure(t, f, False) for t in lines) + 24 * s
    h2 = unrecorded_half_height(f, s)
    items = [Item("rect", ((cx - w / 2, cy - h2), (cx + w / 2, cy + h2)), stroke=pal.pruned, fill=pal.pruned_fill,
                  width=2.5 * s, dash=unrecorded_dash(s), r=2 * s)]
    items += [Item("text", ((cx, cy + (k - (len(lines) - 1) / 2) * 1.15 * f),), fill=pal.muted, text=t, size=f)
              for k, t in enumerate(lines)]
    return items, None


def pruned_items(st: Style, it: LayoutNode, cx: float, cy: float, nodes: list[LayoutNode]) -> Painted:
    """A pruned child: the empty dashed shape, "pruned" (and its name) on it, the cut-off test under it."""
    s, f, pal = st.s, st.f, st.pal
    nm = name_of(st, it, nodes)
    t1 = f"{nm} {pruned_text(it.hidden)}" if nm else pruned_text(it.hidden)
    leaf_w = max(60 * s, st.measure(t1, f, True) + 18 * s)
    items = shape_items(it.shape, cx, cy, st.hw, st.hh, st.cr, pal, s, pruned=True, leaf_w=leaf_w)
    items += label_items(t1, cx, cy, f, pal.muted, pal, s, bold=True, measure=st.measure)
    items += notes_below(st, it, cx, cy, notes_of(st, it))
    return items, (cx - st.hw, cy - st.hh, 2 * st.hw, 2 * st.hh)


def recorded_items(st: Style, it: LayoutNode, cx: float, cy: float, nodes: list[LayoutNode]) -> Painted:
    """A recorded node: its shape with the value inside, its name left of it, its notes under it."""
    s, pal = st.s, st.pal
    n = it.node
    assert n is not None
    val = value_text(n)
    if it.shape == LEAF:
        w = max(58 * s, st.measure(val, st.fv, True) + 18 * s)
        items = shape_items(LEAF, cx, cy, st.hw, st.hh, st.cr, pal, s, pv=it.on_pv, leaf_w=w)
        items.append(Item("text", ((cx, cy),), fill=pal.text, text=val, size=st.fv, bold=True))
        hit: Box = (cx - w / 2, cy - 22 * s, w, 44 * s)
    else:
        items = shape_items(it.shape, cx, cy, st.hw, st.hh, st.cr, pal, s, pv=it.on_pv)
        dy = 0.0 if it.shape == CHANCE else (0.22 * st.hh if it.shape == MAX else -0.22 * st.hh)
        items.append(Item("text", ((cx, cy + dy),), fill=pal.text, text=val, size=st.fv, bold=True))
        h2 = half_height(st, it)
        hw2 = st.cr if it.shape == CHANCE else st.hw
        hit = (cx - hw2, cy - h2, 2 * hw2, 2 * h2)
    nm = name_of(st, it, nodes)
    if nm:  # left of the shape at its middle: clear of the value inside, the window below, the edge above
        items.append(Item("text", ((cx - name_half(st, it), cy),), fill=pal.text, text=nm, size=st.f, bold=True,
                          anchor="end"))
    items += notes_below(st, it, cx, cy, node_notes(it, st.show_window, st.by_id))
    return items, hit


NODE_PAINTERS: dict[str, Callable[[Style, LayoutNode, float, float, list[LayoutNode]], Painted]] = {
    COLLAPSED: collapsed_items, UNRECORDED: unrecorded_items, PRUNED: pruned_items, NODE: recorded_items}
"""How each kind of layout item is drawn."""


def node_layer(st: Style, lay: TreeLayout, at: Placement, marks: Marks
               ) -> tuple[list[Item], list[tuple[int, Box]]]:
    """Every item's shapes and texts (over the edges), and the hit boxes of those a pointer can act on."""
    items: list[Item] = []
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
    extents = [item_extent(st, it, geo.nodes) for it in geo.nodes]
    item_w = [w for w, _ in extents]
    item_left = [r for _, r in extents]
    unit = column_unit(st, geo, item_w, item_left)
    head = header_block(st, lay, geo, summary, header=header, legend=legend)
    at = place(st, geo, unit, item_w, item_left, head)
    marks = Marks(st.measure)
    edges = edge_layer(st, lay, at, marks)
    nodes, hits = node_layer(st, lay, at, marks)
    title = header_lines(lay.tree, summary)[0] if lay.nodes else lay.tree.algorithm
    return Picture(at.width, at.height, head.items + edges + nodes, hits, title, palette.background, head.legend,
                   marks.as_boxes())
