"""Where the overlay's camera looks (:class:`gameplay.ui.overlay.overlay.TreeOverlay` calls these; zoom is screen pixels
per picture pixel, offsets are screen pixels from the canvas's top-left corner).

The rule, at every step of the step-through and for the finished search:

* the whole picture, centred, when it fits the canvas with text of at least :data:`MIN_TEXT_PX`
  (:data:`PRESENTER_TEXT_PX` in the presenter view, growing with the screen past 1280x720:
  :func:`presenter_scale`);
* otherwise the least readable zoom, panned so that what the narration's sentence is about (the node of the step,
  its parent and every node the sentence names: :attr:`ai.teaching.narration.NarratedStep.about`) lies inside the
  canvas; when those nodes cannot all be in view together at that zoom, the parts of the picture between them are folded
  (:meth:`gameplay.ui.overlay.overlay_budget.ViewPlanner.tighten`: the deepest levels first, then runs of siblings)
  until they can.

:meth:`gameplay.ui.overlay.overlay_budget.ViewPlanner.frame` applies the rule; the overlay calls it whenever the step,
the canvas or the layout changes, and Fit (the button, key 0, :meth:`gameplay.ui.overlay.overlay.TreeOverlay.fit`)
applies it afresh (forgetting the user's zoom). Nothing here changes the overlay: the functions read it
(:class:`ShownOverlay <gameplay.ui.overlay.overlay_shown.ShownOverlay>`) and return the offset the camera should take;
the model sets it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from gameplay.pictures.tree_layout import COLLAPSED, PRUNED, TreeLayout
from gameplay.pictures.tree_picture import HIGH_CONTRAST_PALETTE, PALETTE, Palette, Picture
from gameplay.ui.overlay.overlay_shown import ShownOverlay
from gameplay.ui.widgets import projector

MIN_TEXT_PX = 17.0
"""Smallest text (picture size x zoom, screen pixels) Fit allows in the normal view: 16 px tall glyphs
(``Font.get_height()`` of pygame's default font at that size)."""
PRESENTER_TEXT_PX = 25.0
"""The presenter view's notes and edge labels (alpha, beta, moves) at zoom 1, and the least Fit allows there:
24 px tall glyphs."""
PRESENTER_VALUE_PX = 33.0
"""The presenter view's node values at zoom 1: 32 px tall glyphs."""
PRESENTER_PALETTE = Palette(muted="#1A1A1A")
"""The presenter view's picture: alpha-beta windows and pruned-move labels in near-black, not grey."""
PRESENTER_SCREEN = (1280, 720)
"""The screen (pixels) the presenter view's sizes are given for: on a larger one they grow with it
(:func:`presenter_scale`)."""
PRESENTER_MAX_ZOOM = 2.0
"""Fit enlarges a small tree up to this zoom in the presenter view (1.0 in the normal view)."""
MARGIN = 8
"""Pixels kept free between a node the sentence is about and the canvas's edge."""
MAX_TIGHTEN = 24
"""Most layouts :func:`frame` tries while folding the picture around the sentence's nodes."""

Box = tuple[float, float, float, float]


def whole_zoom(ov: ShownOverlay, pic: Picture) -> float:
    """The largest zoom at which the whole picture fits the canvas (a little air round it)."""
    c = ov.canvas_rect
    return min((c.width - 2 * MARGIN) / max(1.0, pic.width), (c.height - 2 * MARGIN) / max(1.0, pic.height))


def required_indices(ov: ShownOverlay, lay: TreeLayout) -> list[int]:
    """Indices in ``lay`` of the items the current sentence is about (:meth:`TreeOverlay.sentence_about`): the
    recorded nodes, and the pruned placeholders of the pruned children it names. Those not drawn are left out."""
    return about_items(ov, lay)[0]


def about_items(ov: ShownOverlay, lay: TreeLayout) -> tuple[list[int], int]:
    """``(indices, missing)``: the indices in ``lay`` of the items the current sentence is about, and how many of
    the things it is about (recorded nodes, named pruned children) have no item in ``lay`` at all."""
    ids, pruned = ov.sentence_about()
    by_id = lay.by_node_id()
    out = [by_id[i].index for i in ids if i in by_id]
    missing = sum(1 for i in ids if i not in by_id)
    for pid, m in pruned:
        hit = next((it.index for it in lay.nodes if it.kind == PRUNED and it.parent is not None
                    and lay.nodes[it.parent].node is not None and lay.nodes[it.parent].node.id == pid  # type: ignore[union-attr]
                    and m in it.moves), None)
        if hit is None:
            missing += 1
        else:
            out.append(hit)
    return list(dict.fromkeys(out)), missing


def union(boxes: Iterable[Box]) -> Box | None:
    """The box around ``boxes`` (``None`` when there are none)."""
    bs = list(boxes)
    if not bs:
        return None
    x0 = min(b[0] for b in bs)
    y0 = min(b[1] for b in bs)
    x1 = max(b[0] + b[2] for b in bs)
    y1 = max(b[1] + b[3] for b in bs)
    return x0, y0, x1 - x0, y1 - y0


def required_box(ov: ShownOverlay, pic: Picture, lay: TreeLayout) -> Box | None:
    """The box (picture pixels) around everything drawn for the items the sentence is about."""
    return union(pic.boxes[i] for i in required_indices(ov, lay) if i in pic.boxes)


def fits(box: Box, zoom: float, ov: ShownOverlay) -> bool:
    """True when ``box`` (picture pixels) fits the canvas at ``zoom`` with :data:`MARGIN` all round."""
    c = ov.canvas_rect
    return box[2] * zoom <= c.width - 2 * MARGIN and box[3] * zoom <= c.height - 2 * MARGIN


def with_context(ov: ShownOverlay, pic: Picture, lay: TreeLayout, box: Box, zoom: float) -> Box:
    """``box`` grown, as far as it still fits the canvas, by what the sentence quotes
    (:meth:`TreeOverlay.sentence_context`: the children whose values it names, a chance node's outcomes), then by
    the path from the root to the step's node, nearest ancestors first: where the node sits in the tree, not only
    the node. ``zoom``: the camera's zoom being chosen."""
    if not fits(box, zoom, ov):
        return box
    shown = lay.by_node_id()
    out = box
    for i in ov.sentence_context():
        it = shown.get(i)
        if it is not None and it.index in pic.boxes:
            grown = union((out, pic.boxes[it.index]))
            assert grown is not None
            if fits(grown, zoom, ov):
                out = grown
    cur = ov.current_node()
    if cur is None:
        cur = ov.by_id.get(0)
        if cur is None:
            return out
    j = cur.parent
    while j is not None:
        it = shown.get(j)
        if it is not None and it.index in pic.boxes:
            grown = union((out, pic.boxes[it.index]))
            assert grown is not None
            if not fits(grown, zoom, ov):
                break
            out = grown
        parent = ov.by_id.get(j)
        j = parent.parent if parent is not None else None
    return out


def centre_picture(ov: ShownOverlay, pic: Picture, zoom: float) -> tuple[float, float]:
    """The offset that centres the picture at ``zoom`` (its top at least :data:`MARGIN` down)."""
    c = ov.canvas_rect
    z = zoom
    return (c.width - pic.width * z) / 2, max(float(MARGIN), (c.height - pic.height * z) / 2)


def pan_to(ov: ShownOverlay, pic: Picture, lay: TreeLayout, box: Box, zoom: float, offset: tuple[float, float], *,
           centre: bool = False) -> tuple[float, float]:
    """The offset after the least pan from ``offset`` that puts ``box`` inside the canvas at ``zoom`` (centred on
    the step's node when it cannot all fit), then as much of the picture in view as that allows: a picture narrower
    (shorter) than the canvas wholly inside it, a wider one with no empty band at its sides."""
    c = ov.canvas_rect
    z = zoom
    ox, oy = offset
    x, y, w, h = (v * z for v in box)
    if w > c.width - 2 * MARGIN or h > c.height - 2 * MARGIN:
        # too big for the canvas (the user's zoom): the step's node in the middle, its parent as far as it goes
        node = _node_box(ov, pic, lay)
        if node is not None:
            x, y, w, h = (v * z for v in node)
    if centre or (ov.step is not None and ov.steps_relaid):
        # the picture is laid out afresh at every step: the box in the middle (no drift against an edge)
        ox, oy = c.width / 2 - (x + w / 2), c.height / 2 - (y + h / 2)
    ox = _axis(ox, x, w, c.width, pic.width * z)
    oy = _axis(oy, y, h, c.height, pic.height * z)
    return ox, oy


def uncut(ov: ShownOverlay, pic: Picture, lay: TreeLayout, zoom: float, offset: tuple[float, float]
          ) -> tuple[float, float]:
    """``offset`` moved up or down the least (a few pixels) so that no ``+N nodes`` box straddles the canvas's top
    or bottom edge (cut by the header or the narration band under the canvas: at 1280x640 the canvas is about 230 px
    tall and a tree taller than it is panned), each wholly in view (with 2 px for its outline) or wholly out of it,
    while the sentence's nodes (:func:`required_box`) stay inside the canvas with :data:`MARGIN`; when no move
    clears both edges, one that clears the bottom edge; ``offset`` when none does."""
    room = ov.canvas_rect.height
    z = zoom
    spans = [(pic.boxes[it.index][1] * z, (pic.boxes[it.index][1] + pic.boxes[it.index][3]) * z)
             for it in lay.nodes if it.kind == COLLAPSED and it.index in pic.boxes]
    if not spans:
        return offset
    need = required_box(ov, pic, lay)
    lo_oy, hi_oy = -math.inf, math.inf
    if need is not None:
        lo_oy, hi_oy = MARGIN - need[1] * z, room - MARGIN - (need[1] + need[3]) * z

    pad = 2.0  # the dashed outline's half stroke and a pixel's rounding

    def cut(oy: float, edges: tuple[float, ...] = (0.0, room)) -> bool:
        return any(top + oy < edge + pad and bottom + oy > edge - pad for top, bottom in spans for edge in edges)

    ox, oy = offset
    if not cut(oy):
        return offset
    moves = sorted({e - top + pad + 0.5 for top, _ in spans for e in (0.0, room)}  # a box's top just past an edge
                   | {e - bottom - pad - 0.5 for _, bottom in spans for e in (0.0, room)},  # its bottom just above one
                   key=lambda m: abs(m - oy))
    allowed = [m for m in moves if lo_oy - 1e-6 <= m <= hi_oy + 1e-6]
    if not cut(oy, (room,)):  # clear of the narration band: a box cut at the top edge alone moves it only if all clear
        return next(((ox, m) for m in allowed if not cut(m)), offset)
    return next(((ox, m) for m in allowed if not cut(m)), next(((ox, m) for m in allowed if not cut(m, (room,))),
                                                                  offset))


def _axis(o: float, lo: float, size: float, room: float, whole: float) -> float:
    """One axis of :func:`pan_to`: a picture (``whole`` pixels) no bigger than the canvas all inside, moved the
    least; a bigger one at the offset nearest ``o`` that keeps ``[lo, lo + size]`` inside ``[MARGIN, room -
    MARGIN]`` (centred when it does not fit), then nearest that leaves no empty band beside it, where the first
    allows."""
    if whole <= room:  # the picture fits this way: all of it inside (so is the box), moved the least
        return min(max(o, 0.0), room - whole)
    if size > room - 2 * MARGIN:
        return room / 2 - (lo + size / 2)
    r_lo, r_hi = room - MARGIN - (lo + size), MARGIN - lo
    o = min(max(o, r_lo), r_hi)
    f_lo, f_hi = (0.0, room - whole) if whole <= room else (room - whole, 0.0)
    a, b = max(r_lo, f_lo), min(r_hi, f_hi)
    if a <= b:
        o = min(max(o, a), b)
    return o


def _node_box(ov: ShownOverlay, pic: Picture, lay: TreeLayout) -> Box | None:
    cur = ov.current_node()
    if cur is None:
        return pic.boxes.get(0)
    by_id = lay.by_node_id()
    it = by_id.get(cur.id)
    return pic.boxes.get(it.index) if it is not None else None


def centre_on_root(ov: ShownOverlay, pic: Picture, zoom: float) -> tuple[float, float]:
    """The offset that puts the root at the top middle at ``zoom`` (the picture centred when it has no root)."""
    c = ov.canvas_rect
    root = pic.boxes.get(0)
    z = zoom
    if root is None:
        return centre_picture(ov, pic, z)
    x, y, w, h = (v * z for v in root)
    return c.width / 2 - (x + w / 2), MARGIN - y


def picture_palette(ov: ShownOverlay) -> Palette:
    """The tree's colours: high contrast (Ctrl+H) everywhere, else near-black notes in the presenter view."""
    if projector.current().high_contrast:
        return HIGH_CONTRAST_PALETTE
    return PRESENTER_PALETTE if ov.presenter else PALETTE


def export_palette() -> Palette:
    """The exports' colours: the high-contrast picture while the window is in high contrast, else the usual."""
    return HIGH_CONTRAST_PALETTE if projector.current().high_contrast else PALETTE


def presenter_scale(ov: ShownOverlay) -> float:
    """How much the presenter view's text grows on the overlay's screen: 1 up to :data:`PRESENTER_SCREEN`, then
    the smaller of its width and height over that (1.5 at 1920x1080). A projector throws 1920x1080 as large as
    1280x720, so the back row reads the tree, the narration and the callout alike at every resolution."""
    r = ov.rect
    w, h = PRESENTER_SCREEN
    return max(1.0, min(r.width / w, r.height / h))


def text_sizes(ov: ShownOverlay) -> tuple[float, float]:
    """``(notes and edge labels, node values)``: the picture's text sizes at zoom 1, in pixels (the presenter
    view's grow with the screen: :func:`presenter_scale`)."""
    if ov.presenter:
        k = presenter_scale(ov)
        return PRESENTER_TEXT_PX * k, PRESENTER_VALUE_PX * k
    return ov.font_size, ov.font_size


def min_fit_zoom(ov: ShownOverlay, pic: Picture | None = None) -> float:
    """The least zoom Fit uses: the picture's smallest text stays at least :data:`MIN_TEXT_PX` (normal view)
    or :data:`PRESENTER_TEXT_PX` times :func:`presenter_scale` (presenter view) pixels."""
    pic = pic if pic is not None else ov.picture()[0]
    least = PRESENTER_TEXT_PX * presenter_scale(ov) if ov.presenter else MIN_TEXT_PX
    sizes = [it.size for it in pic.items if it.op == "text"] if pic is not None else []
    return least / min(sizes, default=text_sizes(ov)[0])


def drawn_nodes(ov: ShownOverlay) -> list[tuple[int, Box, bool]]:
    """Every item of the picture shown now: ``(layout index, screen box relative to the canvas, inside)`` where
    ``inside`` says everything drawn for the item lies wholly inside the canvas
    (:meth:`gameplay.pictures.step_view.StepView.drawn_items`)."""
    model = ov.step_view()
    return [] if model is None else model.drawn_items()
