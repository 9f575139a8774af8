"""The sizes of a tree picture's items (no pygame): :class:`Style` (the text sizes and what the picture shows), each
recorded node's shape fitted to its value (:func:`fit_value`: the shape widens, or the value is set smaller down to
the notes' size, so that a value never runs over its outline), what is written for each item and how far it reaches
(:func:`item_extent`), and how tall each level is (:func:`level_heights`).

:func:`gameplay.pictures.picture_build.build_picture` places and draws the items with these sizes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ai.kernel.recording import CHANCE, MAX, MIN, RecordedNode
from ai.teaching.trace import window_history
from gameplay.pictures.tree_layout import COLLAPSED, LEAF, NODE, PRUNED, UNRECORDED, LayoutNode, TreeLayout
from gameplay.pictures.tree_picture import (
    Palette,
    node_notes,
    pruned_text,
    unrecorded_half_height,
    unrecorded_lines,
    value_text,
    window_line,
)

Measure = Callable[[str, float, bool], float]
Box = tuple[float, float, float, float]
Point = tuple[float, float]


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
    shapes: Mapping[int, NodeShape] = field(default_factory=dict)
    """Recorded node id -> its shape in the picture's geometry (:func:`fit_value`; the ``frame``'s when there is
    one): the step-through draws each node in that shape, its value set to fit it."""
    notes_shift: Mapping[int, float] = field(default_factory=dict)
    """Recorded node id -> pixels its lines are moved across (:func:`notes_shifts`): beside the best line that
    leaves the node, not over it."""

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

    @property
    def pv_half(self) -> float:
        """Half the width of the best line's stroke (its orange band)."""
        return 6.5 * self.s


# -- 0. shapes that hold their values ---------------------------------------------------------------------------
CAP_HEIGHT = 0.62
"""The ink height of a value as a share of its size: digits, signs and lower-case letters of DejaVu Sans Bold stand
0.6 of the size (the picture's size is the font's line height plus one pixel: at 33 px, 19.7 px digits in a
32 px line), a little air added."""
SHAPE_GROWTH = 1.35
"""A MAX/MIN triangle or a chance circle widens up to this factor to hold its value at the values' size; past that
the value is set smaller, down to the notes' size, and only then does the shape widen as far as it needs."""
TALLER_STEPS = (1.0, 1.15, 1.3)
"""The heights (times the style's) a MAX/MIN triangle may take to hold a wide value in less width: its level grows
as tall as its tallest triangle."""


@dataclass(frozen=True)
class NodeShape:
    """A recorded node's shape and the size of the value inside it (pixels at zoom 1)."""

    hw: float
    """Half the width: a triangle's, a leaf box's, or a circle's radius."""
    hh: float
    """Half the height: a triangle's, a leaf box's, or a circle's radius."""
    value_size: float
    """The value's text size."""


def outline_clearance(st: Style) -> float:
    """Pixels kept between a value's ink and its shape's outline: half the thickest outline (the best line's
    nodes) and 1.5 px of air (at scale 1)."""
    return 5.5 * st.s / 2 + 1.5 * st.s


def value_room(st: Style, shape: str, w: float, size: float, hh: float) -> float:
    """The least half-width (radius for ``CHANCE``) of a ``shape`` of half-height ``hh`` that holds a value ``w``
    pixels wide at text size ``size`` clear of its outline by :func:`outline_clearance`; ``inf`` when no width
    does (the triangle is too flat for the text). A MAX triangle holds its value low, against its base, a MIN
    triangle high: where they are widest."""
    e = outline_clearance(st)
    h = CAP_HEIGHT * size
    if shape == CHANCE:
        return float(math.hypot(w / 2, h / 2) + e)
    # the text's corners nearest the apex lie `a` pixels from it, where the triangle is hw * a / 2hh wide; their
    # distance to a slanted side, (hw * a / 2hh - w / 2) * 2hh / sqrt(4hh² + hw²), must be at least e:
    # hw * a - w * hh >= e * sqrt(4hh² + hw²), a quadratic in hw
    a = 2 * hh - e - h
    if a <= e:
        return math.inf
    b = w * hh
    k = a * a - e * e
    disc = a * a * b * b - k * (b * b - 4 * e * e * hh * hh)
    return (a * b + math.sqrt(max(0.0, disc))) / k


def value_dy(st: Style, shape: str, hh: float, size: float) -> float:
    """Where a value's centre sits below the shape's centre: against a MAX triangle's base, under a MIN triangle's
    top, in the middle of a circle."""
    if shape == MAX:
        return hh - outline_clearance(st) - CAP_HEIGHT * size / 2
    if shape == MIN:
        return -(hh - outline_clearance(st) - CAP_HEIGHT * size / 2)
    return 0.0


def fit_value(st: Style, shape: str, text: str, hw: float, hh: float, largest: float, growth: float,
              taller: bool = False) -> NodeShape:
    """The shape of a node of ``shape`` (``MAX``, ``MIN``, ``CHANCE``) holding ``text``: the value at the largest
    size from ``largest`` down to the notes' size (whole pixels) whose shape needs at most ``growth`` times the
    half-width ``hw`` (radius for ``CHANCE``, whose ``hh`` is then the same), the shape as wide as that needs
    (never narrower than ``hw``); at the notes' size, as wide as it needs whatever ``growth`` allows. ``taller``: a
    triangle may also stand up to :data:`TALLER` times ``hh`` (a taller triangle holds a wide value in less width),
    tried at each size before a smaller one."""
    least = min(st.f, largest)
    sizes = [largest] + [float(v) for v in range(int(largest) - 1, int(math.ceil(least)) - 1, -1) if v < largest]
    if sizes[-1] > least:
        sizes.append(least)
    heights = [hh] if shape == CHANCE or not taller else [hh * k for k in TALLER_STEPS]
    need, height, size = hw, hh, largest
    for size in sizes:
        w = st.measure(text, size, True)
        for height in heights:
            need = value_room(st, shape, w, size, height)
            if need <= hw * growth:
                half = max(hw, need)
                return NodeShape(half, half if shape == CHANCE else height, size)
    half = max(hw, need)
    return NodeShape(half, half if shape == CHANCE else height, size)


def base_shape(st: Style, it: LayoutNode) -> NodeShape:
    """The item's shape before its value is fitted: the style's triangle, circle or leaf box."""
    if it.shape == CHANCE and it.kind == NODE:
        return NodeShape(st.cr, st.cr, st.fv)
    return NodeShape(st.hw, st.hh, st.fv)


def frame_shapes(st: Style, geo: TreeLayout) -> dict[int, NodeShape]:
    """The shape of every recorded MAX, MIN and chance node of ``geo`` holding its value (:func:`fit_value`), by
    recorded id."""
    out: dict[int, NodeShape] = {}
    for it in geo.nodes:
        if it.kind != NODE or it.node is None or it.shape not in (MAX, MIN, CHANCE):
            continue
        b = base_shape(st, it)
        out[it.node.id] = fit_value(st, it.shape, value_text(it.node), b.hw, b.hh, st.fv, SHAPE_GROWTH, taller=True)
    return out


def shape_of(st: Style, it: LayoutNode) -> NodeShape:
    """The shape the picture's geometry gives ``it`` (:attr:`Style.shapes`; a placeholder's, the style's)."""
    if it.kind == NODE and it.node is not None:
        found = st.shapes.get(it.node.id)
        if found is not None:
            return found
    return base_shape(st, it)


def drawn_shape(st: Style, it: LayoutNode, text: str) -> NodeShape:
    """The shape a recorded node is drawn in, holding ``text`` (its value at this step): the geometry's shape, the
    value set smaller when it needs to (down to the notes' size), the shape wider only past that."""
    geo = shape_of(st, it)
    return fit_value(st, it.shape, text, geo.hw, geo.hh, geo.value_size, 1.0)


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
    return shape_of(st, it).hw + (10 if st.compact else 18) * st.s


def half_height(st: Style, it: LayoutNode) -> float:
    """Half the height of the item's shape (its notes hang below it)."""
    if it.kind == COLLAPSED:
        return 18 * st.s
    if it.kind == UNRECORDED:
        return unrecorded_half_height(st.f, st.s)
    if it.shape == LEAF:
        return 22 * st.s
    return shape_of(st, it).hh  # a recorded node's shape (a triangle may stand taller), else the style's


def notes_of(st: Style, it: LayoutNode) -> list[str]:
    """The lines under the item's shape."""
    if it.kind == PRUNED:
        return [it.reason] if it.reason else []
    if it.kind == NODE:
        return node_notes(it, st.show_window, st.by_id)
    return []


def item_texts(st: Style, it: LayoutNode, nodes: list[LayoutNode]) -> list[tuple[str, bool, float]]:
    """``(text, bold, size)`` of everything written for ``it`` at its place (not its name, nor the label of the edge
    into it, which :func:`column_unit` makes room for): the value (at the size its shape holds it) and notes, every
    window the step-through shows under it, a placeholder's words."""
    f = st.f
    texts: list[tuple[str, bool, float]] = []
    if it.node is not None:
        texts.append((value_text(it.node), True, shape_of(st, it).value_size if it.shape != LEAF else st.fv))
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
    return texts


def on_best_line(it: LayoutNode, nodes: list[LayoutNode]) -> bool:
    """The edge into ``it`` is drawn as the best line (both ends on the principal variation)."""
    return it.on_pv and it.parent is not None and nodes[it.parent].on_pv


def best_label_side(it: LayoutNode, nodes: list[LayoutNode]) -> int:
    """The side of the best line its label goes (``-1`` left, ``1`` right): away from the parent, so that the line
    leaves the label's corner as it climbs."""
    assert it.parent is not None
    return -1 if nodes[it.parent].x > it.x else 1


# -- 1. widths --------------------------------------------------------------------------------------------------
def item_extent(st: Style, it: LayoutNode, nodes: list[LayoutNode]) -> tuple[float, float]:
    """``(left, right)``: how far the item reaches left and right of its centre in pixels: half its widest text or
    its shape, with air, and further left to hold its name."""
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
    if it.kind == NODE and it.shape in (MAX, MIN, CHANCE):
        own = max(own, 2 * shape_of(st, it).hw + pad)
    left = right = own / 2
    if nm:
        left = max(left, name_half(st, it) + st.measure(nm, st.f, True) + 6 * s)
    return left, right


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
