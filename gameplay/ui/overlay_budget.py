"""Which nodes the search-tree overlay shows (:class:`gameplay.ui.overlay.TreeOverlay` calls these).

The *default view* is the layout (:func:`gameplay.pictures.tree_layout.layout` budgets: depth, width) that shows the
most recorded nodes whole at a readable size; the *requests* come on top and only ever add nodes: the clicks (``+N``
markers, show-all), the step-through's current node (:func:`follow_step`: the picture grows as the search goes)
and the shallowest chance nodes (their outcomes are always shown).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pygame

from ai.recording import CHANCE
from gameplay.pictures.tree_layout import NODE, layout
from gameplay.ui import overlay_view as view
from gameplay.ui.overlay_view import min_fit_zoom

if TYPE_CHECKING:
    from gameplay.ui.overlay import TreeOverlay

MIN_DEFAULT_ZOOM = 0.9
"""The zoom the live overlay's collapsing budget is first planned for (18 px text at scale 1)."""


@dataclass
class ViewPlan:
    """The overlay's planning state that only this module reads and writes (:attr:`TreeOverlay.plan`)."""

    view_width: int = 5
    """The default view's ``max_width`` budget (items on one level)."""
    chance_open: set[int] = field(default_factory=set)
    """The shallowest chance nodes, opened in every view (:func:`default_budget`)."""
    focus_plan: list[tuple[frozenset[int], int | None]] | None = None
    """The folds :func:`tighten` has still to try (``None``: not planned yet for this step)."""
    requests_of: set[int] | None = None
    """The :attr:`TreeOverlay.expand` set :attr:`TreeOverlay.show_all` belongs to: a new one (a new tree's view)
    resets the requests."""
    default_view: tuple[Any, ...] | None = None
    """What the default view's budget was fitted for (the tree, the canvas, the depth, the text, the view)."""


def level_height(ov: TreeOverlay) -> float:
    """Pixels one level of the picture takes at zoom 1 (node, its lines, the edge labels' band), for planning the
    depth (:func:`gameplay.pictures.picture_build.build_picture`'s compact geometry)."""
    f = ov.font_size
    s = f / 20.0
    lines = 2 if (ov.lay.show_window if ov.lay is not None else True) else 1
    return 2 * max(20 * s, 0.85 * f) + 0.15 * f + lines * 1.2 * f + 1.15 * f + 8 * s


def layout_now(ov: TreeOverlay) -> None:
    """Lay the tree out with the view's budgets, the requests on top (clicks, the nodes the step-through's sentences
    are about: :attr:`TreeOverlay.follow`, the shallowest chance nodes) and the camera's folds."""
    assert ov.tree is not None
    focus_children = ov.focus_children
    if ov.whole:
        # one placeholder for a node's pruned moves (its reason once): the textbook trees fit a laptop's screen
        ov.set_layout(layout(ov.tree, max_depth=None, max_children=focus_children, collapse=None, max_width=None,
                             group_pruned=1, reveal=ov.follow, fold=ov.focus_fold))
    else:
        mw = ov.plan.view_width
        mc = min(12, mw) if focus_children is None else min(12, mw, focus_children)
        ov.set_layout(layout(ov.tree, max_depth=ov.max_depth, max_children=mc, collapse=90, max_width=mw,
                             expand=ov.expand | ov.plan.chance_open, show_all=ov.show_all, reveal=ov.follow,
                             fold=ov.focus_fold, group_pruned=1 if ov.focus_group else 3))


def relayout(ov: TreeOverlay, fit: bool = False) -> None:
    """Choose the visible nodes: the Tree Lab's whole tree; or the default view (:func:`default_budget`, planned
    again when the tree, the canvas or the text size changes) with the clicks' requests, the step-through's
    nodes and the shallowest chance nodes on top (they only ever add nodes). Frames the picture when ``fit``."""
    if ov.tree is None:
        return
    canvas = ov.canvas_rect
    if not ov.whole:
        if ov.plan.requests_of is not ov.expand:  # set_tree started a new view: the requests start empty too
            ov.plan.requests_of = ov.expand
            ov.show_all = set()
            ov.follow = set()
        unit = 130.0 * ov.font_size / 20.0 * MIN_DEFAULT_ZOOM
        max_width = max(5, int(canvas.width / unit))
        if fit or ov.max_depth is None:
            levels = int((canvas.height - 60) / (level_height(ov) * MIN_DEFAULT_ZOOM))
            ov.max_depth = max(2, levels - 1)
        view = (id(ov.tree), canvas.size, ov.max_depth, ov.font_size, ov.presenter)
        if fit or view != ov.plan.default_view:
            reset_focus(ov, relayout=False)
            default_budget(ov, canvas, max_width)
            ov.plan.default_view = (id(ov.tree), canvas.size, ov.max_depth, ov.font_size, ov.presenter)
    layout_now(ov)
    if fit:
        ov.fit()


def reset_focus(ov: TreeOverlay, *, relayout: bool = True) -> None:
    """Forget the camera's folds (:func:`tighten`), and lay out again when there were some."""
    had = bool(ov.focus_fold) or ov.focus_children is not None or ov.focus_group
    ov.focus_fold = set()
    ov.focus_children = None
    ov.focus_group = False
    ov.plan.focus_plan = None
    if had and relayout and ov.tree is not None:
        layout_now(ov)


def _focus_plan(ov: TreeOverlay) -> list[tuple[frozenset[int], int | None]]:
    """The folds :func:`tighten` tries in turn, least first (after one placeholder for all the pruned moves of a
    node): every node that is not above the sentence's nodes folded from the deepest level up, then the siblings
    cut to fewer and fewer per node (the sentence's nodes and the principal variation always kept)."""
    assert ov.tree is not None
    ids, pruned = ov.sentence_about()
    rec = {n.id: n for n in ov.tree.nodes}
    above: set[int] = {pid for pid, _ in pruned}
    for i in ids:
        j = rec[i].parent if i in rec else None
        while j is not None and j in rec and j not in above:
            above.add(j)
            j = rec[j].parent
    open_now = {it.node.id for it in (ov.lay.nodes if ov.lay is not None else ())
                if it.node is not None and any(ov.lay.nodes[c].kind == NODE for c in it.children)}
    inner = [rec[i] for i in open_now if i in rec and i not in above]
    deepest = max((n.depth for n in inner), default=-1)
    plan: list[tuple[frozenset[int], int | None]] = []
    for d in range(deepest, -1, -1):
        plan.append((frozenset(n.id for n in inner if n.depth >= d), None))
    everything = plan[-1][0] if plan else frozenset()
    widest = max((len(n.children) for n in ov.tree.nodes), default=0)
    for k in (12, 8, 6, 5, 4, 3, 2):
        if k < widest:
            plan.append((everything, k))
    return plan


def tighten(ov: TreeOverlay) -> bool:
    """Fold one more step of :func:`_focus_plan` and lay out again, so the nodes the sentence is about come
    closer together. Returns False when there is nothing left to fold, or the user opened parts of the tree by hand
    (``+N`` markers, show all children: what they opened is never folded away)."""
    if ov.expand or ov.show_all:
        return False  # the user opened parts by hand: the picture is theirs, the camera only pans
    plan = ov.plan.focus_plan
    if plan is None:
        plan = ov.plan.focus_plan = _focus_plan(ov)
    ids, _ = ov.sentence_about()
    if ov.follow - set(ids):  # the nodes earlier sentences opened give way first (they open again when named)
        ov.follow = set(ids)
        layout_now(ov)
        return True
    if not ov.focus_group and not ov.whole:
        ov.focus_group = True  # a node's pruned moves in one placeholder ("pruned ×3"): the least change
        layout_now(ov)
        return True
    while plan:
        fold, children = plan.pop(0)
        if set(fold) != ov.focus_fold or children != ov.focus_children:
            ov.focus_fold, ov.focus_children = set(fold), children
            layout_now(ov)
            return True
    return False


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
    ov.plan.chance_open = {n.id for n in ov.tree.nodes if n.kind == CHANCE and n.depth == first}
    lowest = 1 if first is None else first + 1
    ov.max_depth = max(ov.max_depth, lowest)
    best: tuple[int, int, int] | None = None  # (shown, depth, width)
    for depth in range(ov.max_depth, lowest - 1, -1):
        for mw in range(max_width, 1, -1):
            lay = layout(ov.tree, max_depth=depth, max_children=min(12, mw), collapse=90, max_width=mw,
                         expand=ov.plan.chance_open)
            ov.set_layout(lay)
            pic = ov.picture()[0]
            if pic is None:
                ov.max_depth, ov.plan.view_width = depth, mw
                return
            z = min_fit_zoom(ov, pic)
            if pic.width * z <= canvas.width - 20 and pic.height * z <= canvas.height - 10:
                if best is None or lay.shown > best[0]:
                    best = (lay.shown, depth, mw)
                break  # the widest that fits at this depth
    _, depth, mw = best if best is not None else (0, lowest, max_width)
    ov.max_depth, ov.plan.view_width = depth, mw
    ov.set_layout(layout(ov.tree, max_depth=depth, max_children=min(12, mw), collapse=90, max_width=mw,
                         expand=ov.plan.chance_open))

def follow_step(ov: TreeOverlay) -> bool:
    """Make the nodes the current sentence is about visible: when one lies inside a collapsed part, it and its
    path from the root are shown from now on (the picture grows as the search goes, the way the course draws it
    step by step). Returns True when the layout changed."""
    if ov.lay is None:
        return False
    ids, _ = ov.sentence_about()
    shown = ov.lay.by_node_id()
    missing = [i for i in ids if i not in shown and i not in ov.follow]
    if not missing:
        return False
    ov.follow.update(missing)
    layout_now(ov)
    return True


def frame(ov: TreeOverlay, *, centre: bool = False) -> None:
    """Choose the zoom, the offset and (when needed) the folds for the current step (the rule of
    :mod:`gameplay.ui.overlay_view`).

    With the user's own zoom (wheel, Zoom +/-) kept, only the offset follows: the sentence's nodes are brought
    into view as far as they fit, the node of the step first. ``centre``: what the step is about goes to the middle
    (else the view moves the least from where it was).
    """
    reset_focus(ov)
    for _ in range(view.MAX_TIGHTEN):
        pic, lay = ov.picture()
        if pic is None or lay is None:
            return
        if not ov.user_zoom:
            z_all, z_min = view.whole_zoom(ov, pic), min_fit_zoom(ov, pic)
            if z_all >= z_min:
                grows = ov.step is not None and ov.steps_relaid  # a growing picture: never enlarged past 1
                ov.zoom = min(view.PRESENTER_MAX_ZOOM if ov.presenter and not grows else 1.0, z_all)
                view.centre_picture(ov, pic)
                return
            ov.zoom = z_min
        box = view.required_box(ov, pic, lay)
        if box is None:
            view.centre_on_root(ov, pic)
            return
        if view.fits(box, ov.zoom, ov) or ov.user_zoom or not tighten(ov):
            view.pan_to(ov, pic, lay, view.with_context(ov, pic, lay, box), centre=centre)
            return
    pic, lay = ov.picture()
    if pic is not None and lay is not None:
        box = view.required_box(ov, pic, lay)
        if box is not None:
            view.pan_to(ov, pic, lay, box, centre=centre)


def fit(ov: TreeOverlay) -> None:
    """Fit (the button, key 0, a new tree): forget the user's zoom and pan, and frame the current step afresh (what
    the step is about centred: the same view whatever was shown before)."""
    ov.user_zoom = False
    frame(ov, centre=True)
