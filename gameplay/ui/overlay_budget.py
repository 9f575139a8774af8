"""Which nodes the search-tree overlay shows (:class:`gameplay.ui.overlay.TreeOverlay` calls these).

The *default view* is the layout (:func:`gameplay.tree_layout.layout` budgets: depth, width) that shows the most
recorded nodes whole at a readable size; the *requests* come on top and only ever add nodes: the clicks (``+N``
markers, show-all), the step-through's current node (:func:`follow_step`: the picture grows as the search goes)
and the shallowest chance nodes (their outcomes are always shown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from ai.recording import CHANCE
from gameplay.tree_layout import layout
from gameplay.ui.overlay_view import min_fit_zoom

if TYPE_CHECKING:
    from gameplay.ui.overlay import TreeOverlay

MIN_DEFAULT_ZOOM = 0.9
"""The zoom the live overlay's collapsing budget is first planned for (18 px text at scale 1)."""


def level_height(ov: TreeOverlay) -> float:
    """Pixels one level of the picture takes at zoom 1 (node, its lines, the gap), for planning the depth."""
    s = ov.font_size / 20.0
    show_window = ov.lay.show_window if ov.lay is not None else True
    return 2 * 31 * s + (2 if show_window else 1) * 1.25 * ov.font_size + 70 * s


def relayout(ov: TreeOverlay, fit: bool = False) -> None:
    """Choose the visible nodes: the Tree Lab's whole tree; or the default view (:func:`default_budget`, planned
    again when the tree, the canvas or the text size changes) with the clicks' requests, the followed step and
    the shallowest chance nodes on top (they only ever add nodes). Fits the picture when ``fit``."""
    if ov.tree is None:
        return
    canvas = ov.canvas_rect
    if ov.whole:
        # one placeholder for a node's pruned moves (its reason once): the textbook trees fit a laptop's screen
        ov.lay = layout(ov.tree, max_depth=None, max_children=None, collapse=None, max_width=None,
                        group_pruned=1)
        ov._layout_version += 1
        ov._pic_key = None
        if fit:
            ov.fit()
        return
    if ov._requests_of is not ov.expand:  # set_tree started a new view: the requests start empty too
        ov._requests_of = ov.expand
        ov.show_all = set()
        ov.follow = set()
    unit = 130.0 * ov.font_size / 20.0 * MIN_DEFAULT_ZOOM
    max_width = max(5, int(canvas.width / unit))
    if fit or ov.max_depth is None:
        levels = int((canvas.height - 60) / (level_height(ov) * MIN_DEFAULT_ZOOM))
        ov.max_depth = max(2, levels - 1)
    view = (id(ov.tree), canvas.size, ov.max_depth, ov.font_size)
    fitted = fit or view != ov._default_view
    if fitted:
        default_budget(ov, canvas, max_width)
        ov._default_view = (id(ov.tree), canvas.size, ov.max_depth, ov.font_size)
    mw = ov._view_width
    if ov.expand or ov.show_all or ov.follow or ov._chance_open or not fitted:
        ov.lay = layout(ov.tree, max_depth=ov.max_depth, max_children=min(12, mw), collapse=90,
                          max_width=mw, expand=ov.expand | ov.follow | ov._chance_open,
                          show_all=ov.show_all)
        ov._layout_version += 1
        ov._pic_key = None
    if fit:
        ov.fit()

def default_budget(ov: TreeOverlay, canvas: pygame.Rect, max_width: int) -> None:
    """Choose the default view's depth and width budget: of the layouts that fit the canvas whole at the least
    readable zoom (:func:`gameplay.ui.overlay_view.min_fit_zoom`), the widest at each depth, the one showing
    the most recorded nodes, never hiding the outcomes of the principal variation's first chance node; when
    none fits, the shallowest such view (Fit then follows the step and the principal variation). The clicks'
    requests and the followed step come on top of it (they only ever add nodes), so they are left out here."""
    assert ov.tree is not None and ov.max_depth is not None
    # the shallowest chance nodes always show their outcomes (the class checks the sum of p*v), whichever
    # move was chosen (Pig's roll is a chance node whether the AI rolled or held)
    first = min((n.depth for n in ov.tree.nodes if n.kind == CHANCE), default=None)
    ov._chance_open = {n.id for n in ov.tree.nodes if n.kind == CHANCE and n.depth == first}
    lowest = 1 if first is None else first + 1
    ov.max_depth = max(ov.max_depth, lowest)
    best: tuple[int, int, int] | None = None  # (shown, depth, width)
    for depth in range(ov.max_depth, lowest - 1, -1):
        for mw in range(max_width, 1, -1):
            lay = layout(ov.tree, max_depth=depth, max_children=min(12, mw), collapse=90, max_width=mw,
                         expand=ov._chance_open)
            ov.lay = lay
            ov._layout_version += 1
            ov._pic_key = None
            pic = ov._picture()[0]
            if pic is None:
                ov.max_depth, ov._view_width = depth, mw
                return
            z = min_fit_zoom(ov, pic)
            if pic.width * z <= canvas.width - 20 and pic.height * z <= canvas.height - 10:
                if best is None or lay.shown > best[0]:
                    best = (lay.shown, depth, mw)
                break  # the widest that fits at this depth
    _, depth, mw = best if best is not None else (0, lowest, max_width)
    ov.max_depth, ov._view_width = depth, mw
    ov.lay = layout(ov.tree, max_depth=depth, max_children=min(12, mw), collapse=90, max_width=mw,
                      expand=ov._chance_open)
    ov._layout_version += 1
    ov._pic_key = None

def follow_step(ov: TreeOverlay) -> bool:
    """Make the step-through's current node visible: when it lies inside a collapsed part, it and its path
    from the root are opened from now on (the picture grows as the search goes, the way the course draws
    it step by step). Returns True when the layout changed."""
    cur = ov.current_node()
    if cur is None or ov.lay is None or ov.whole or cur.id in ov.lay.by_node_id():
        return False
    ov.follow.add(cur.id)  # the layout opens its path from the root (tree_layout.layout's requests)
    relayout(ov)
    return True
