"""Where the overlay's camera looks: Fit (never under the readable zoom) and following a node or the principal
variation (:class:`gameplay.ui.overlay.TreeOverlay` calls these; zoom is screen pixels per picture pixel, offsets
are screen pixels from the canvas's top-left corner)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai.trace import node_path
from gameplay.tree_picture import Palette, Picture

if TYPE_CHECKING:
    from gameplay.ui.overlay import TreeOverlay

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
PRESENTER_MAX_ZOOM = 2.0
"""Fit enlarges a small tree up to this zoom in the presenter view (1.0 in the normal view)."""


def fit(ov: TreeOverlay) -> None:
    """:meth:`TreeOverlay.fit`: the whole picture when it fits with readable text, else the least readable zoom
    following the current step (or the root and the principal variation)."""
    pic = ov._picture()[0]
    if pic is None:
        return
    c = ov.canvas_rect
    z_all = min((c.width - 20) / max(1.0, pic.width), (c.height - 10) / max(1.0, pic.height))
    z_min = min_fit_zoom(ov, pic)
    z = min(PRESENTER_MAX_ZOOM if ov.presenter else 1.0, z_all)
    if z >= z_min:
        ov.zoom = z
        ov._min_zoom = min(0.3, z)
        ov.offset = ((c.width - pic.width * z) / 2, max(4.0, (c.height - pic.height * z) / 2))
        return
    ov.zoom = z_min
    ov._min_zoom = min(0.3, z_min)
    center_on_root(ov, pic)
    cur = ov.current_node()
    if cur is not None:
        show_node(ov, pic, cur.id)


def show_node(ov: TreeOverlay, pic: Picture, node_id: int) -> None:
    """Pan so the recorded node ``node_id`` (or its deepest shown ancestor) is in the canvas, centred."""
    lay = ov._pic_lay
    if lay is None:
        return
    shown = {it.node.id: it.index for it in lay.nodes if it.node is not None}
    target = next((shown[p.id] for p in reversed(node_path(ov._by_id, node_id)) if p.id in shown), None)
    box = next((h[1] for h in pic.hits if h[0] == target), None)
    if box is None:
        return
    c = ov.canvas_rect
    x, y, w, h = (v * ov.zoom for v in box)
    ox, oy = ov.offset
    if not (0 <= ox + x and ox + x + w <= c.width):
        ox = c.width / 2 - (x + w / 2)
    if not (0 <= oy + y and oy + y + h <= c.height):
        oy = c.height / 2 - (y + h / 2)
    ov.offset = (ox, oy)


def center_on_root(ov: TreeOverlay, pic: Picture) -> None:
    """Pan so the root, and as much of the principal variation as fits, is in view (the picture at the top)."""
    c = ov.canvas_rect
    root = next((h for h in pic.hits if h[0] == 0), None)
    w = pic.width * ov.zoom
    if w <= c.width:
        ox = (c.width - w) / 2
    elif root is not None:
        rx = (root[1][0] + root[1][2] / 2) * ov.zoom
        # the left edge when the root is still well inside, else the root centred
        ox = 0.0 if rx < c.width - 160 else min(0.0, max(c.width - w, c.width / 2 - rx))
    else:
        ox = 0.0
    lay = ov._pic_lay
    if lay is not None and w > c.width:
        # keep the principal variation in view (centred when it fits): it is what the teacher explains first
        pv = sorted((h[1][1], h[1][0] * ov.zoom, (h[1][0] + h[1][2]) * ov.zoom) for h in pic.hits
                    if 0 <= h[0] < len(lay.nodes) and getattr(lay.nodes[h[0]], "on_pv", False))
        if pv:
            # from the root down, as much of the line as the canvas holds, centred
            lo, hi = pv[0][1], pv[0][2]
            for _, a, b in pv[1:]:
                if max(hi, b) - min(lo, a) > c.width - 20:
                    break
                lo, hi = min(lo, a), max(hi, b)
            ox = min(0.0, max(c.width - w, c.width / 2 - (lo + hi) / 2))
    ov.offset = (ox, 4.0)


def text_sizes(ov: TreeOverlay) -> tuple[float, float]:
    """``(notes and edge labels, node values)``: the picture's text sizes at zoom 1, in pixels."""
    if ov.presenter:
        return PRESENTER_TEXT_PX, PRESENTER_VALUE_PX
    return ov.font_size, ov.font_size

def min_fit_zoom(ov: TreeOverlay, pic: Picture | None = None) -> float:
    """The least zoom Fit uses: the picture's smallest text stays at least :data:`MIN_TEXT_PX` (normal view)
    or :data:`PRESENTER_TEXT_PX` (presenter view) pixels."""
    pic = pic if pic is not None else ov._picture()[0]
    least = PRESENTER_TEXT_PX if ov.presenter else MIN_TEXT_PX
    sizes = [it.size for it in pic.items if it.op == "text"] if pic is not None else []
    return least / min(sizes, default=text_sizes(ov)[0])
