"""Which nodes the search-tree overlay shows, and where its camera looks (:class:`ViewPlanner`, which
:class:`gameplay.ui.overlay.overlay.TreeOverlay` owns and calls).

The *default view* is the layout (:func:`gameplay.pictures.tree_layout.layout` budgets: depth, width) that shows the
most recorded nodes whole at a readable size; the *requests* come on top and only ever add nodes: the clicks (``+N``
markers, show-all), the step-through's current node (:meth:`ViewPlanner.follow_step`: the picture grows as the
search goes) and the shallowest chance nodes (their outcomes are always shown). At a step of the step-through the
layout is made for that moment: a node the search searched twice (a null-window test, then its re-search) is laid
out once, with the children of the pass the step is in (:meth:`ViewPlanner.follow_passes` lays out again when the
step goes into another pass).

The planner keeps its own state (the budgets, the followed nodes, the camera's folds) and changes nothing else: it
reads the overlay through :class:`PlanHost`, hands it each layout it chose (:meth:`PlanHost.set_layout`) and returns
the camera (zoom, offset) it framed for the model to take.
"""

from __future__ import annotations

from collections.abc import Set
from typing import Any, Protocol

import pygame

from ai.kernel.recording import CHANCE, RecordedNode
from ai.teaching.trace import pass_index
from gameplay.pictures.tree_layout import NODE, TreeLayout, layout
from gameplay.ui.overlay import overlay_view as view
from gameplay.ui.overlay.overlay_shown import ShownOverlay
from gameplay.ui.overlay.overlay_view import min_fit_zoom

MIN_DEFAULT_ZOOM = 0.9
"""The zoom the live overlay's collapsing budget is first planned for (18 px text at scale 1)."""

Camera = tuple[float, tuple[float, float]]
"""``(zoom, offset)``: screen pixels per picture pixel, and screen pixels from the canvas's top-left corner."""


class PlanHost(ShownOverlay, Protocol):
    """What the planner reads of the overlay, and the one thing it hands back: the layout it chose."""

    @property
    def expand(self) -> Set[int]: ...
    @property
    def show_all(self) -> Set[int]: ...
    @property
    def user_zoom(self) -> bool: ...
    def set_layout(self, lay: TreeLayout | None) -> None: ...


def level_height(ov: ShownOverlay) -> float:
    """Pixels one level of the picture takes at zoom 1 (node, its lines, the edge labels' band), for planning the
    depth (:func:`gameplay.pictures.picture_build.build_picture`'s compact geometry)."""
    f = ov.font_size
    s = f / 20.0
    lines = 2 if (ov.lay.show_window if ov.lay is not None else True) else 1
    return 2 * max(20 * s, 0.85 * f) + 0.15 * f + lines * 1.2 * f + 1.15 * f + 8 * s


class ViewPlanner:
    """The overlay's plan of what to show (see the module docstring): its state is read through the read-only
    properties and changed only by its own methods, each given the overlay (:class:`PlanHost`)."""

    def __init__(self) -> None:
        self._view_width = 5
        self._chance_open: set[int] = set()
        self._focus_plan: list[tuple[frozenset[int], int | None]] | None = None
        self._default_view: tuple[Any, ...] | None = None
        self._max_depth: int | None = None
        self._follow: set[int] = set()
        self._focus_fold: set[int] = set()
        self._focus_group = False
        self._focus_children: int | None = None
        self._passes_at: tuple[int, ...] | None = None
        self._planning = False
        self._re_searched: tuple[int, tuple[RecordedNode, ...]] = (0, ())

    # -- read ----------------------------------------------------------------------------------------------------
    @property
    def view_width(self) -> int:
        """The default view's ``max_width`` budget (items on one level)."""
        return self._view_width

    @property
    def chance_open(self) -> frozenset[int]:
        """The shallowest chance nodes, opened in every view (:meth:`default_budget`)."""
        return frozenset(self._chance_open)

    @property
    def default_view(self) -> tuple[Any, ...] | None:
        """What the default view's budget was fitted for (the tree, the canvas, the depth, the text, the view)."""
        return self._default_view

    @property
    def max_depth(self) -> int | None:
        """The default view's depth budget (levels below the root; ``None``: not planned yet)."""
        return self._max_depth

    @property
    def follow(self) -> frozenset[int]:
        """Nodes shown because a step's sentence is about them (:meth:`follow_step`): the picture grows as the
        search goes."""
        return frozenset(self._follow)

    @property
    def focus_fold(self) -> frozenset[int]:
        """Nodes the camera folded so that the nodes a sentence is about fit together (:meth:`tighten`);
        recomputed at every step."""
        return frozenset(self._focus_fold)

    @property
    def focus_group(self) -> bool:
        """The camera put each node's pruned moves in one placeholder (:meth:`tighten`)."""
        return self._focus_group

    @property
    def focus_children(self) -> int | None:
        """The camera's cap on the children shown per node (``None``: the view's own)."""
        return self._focus_children

    def passes_at(self, ov: PlanHost) -> tuple[int, ...]:
        """Which pass of each node the search searched more than once (a null-window test, then its re-search) the
        current step is in (:func:`ai.teaching.trace.pass_index`; the last ones for the finished search): the
        layout shows each such node once, with the children of that pass."""
        if ov.tree is None:
            return ()
        if self._re_searched[0] != id(ov.tree):
            self._re_searched = (id(ov.tree), tuple(n for n in ov.tree.nodes if n.re_searched))
        ev = ov.current_event()
        at = None if ev is None else ev.order
        return tuple(pass_index(n, at) for n in self._re_searched[1])

    def follow_passes(self, ov: PlanHost) -> bool:
        """Lay the tree out again when the step went into another pass of a node searched more than once than the
        layout shows (its test's children give way to its re-search's, or back). Returns True when it did."""
        if ov.tree is None or self._planning or self.passes_at(ov) == self._passes_at:
            return False  # (while the default view is planned, its trial layouts are measured as they are)
        self.layout_now(ov)
        return True

    # -- the requests ----------------------------------------------------------------------------------------------
    def new_view(self) -> None:
        """A new tree's view (the overlay's requests start empty): the followed nodes are forgotten too."""
        self._follow = set()

    def layout_now(self, ov: PlanHost) -> None:
        """Lay the tree out with the view's budgets, the requests on top (clicks, the nodes the step-through's
        sentences are about: :attr:`follow`, the shallowest chance nodes) and the camera's folds."""
        assert ov.tree is not None
        focus_children = self._focus_children
        ev = ov.current_event()
        at = None if ev is None else ev.order  # a node searched again: the children of the pass at this step
        self._passes_at = self.passes_at(ov)
        if ov.whole:
            # one placeholder for a node's pruned moves (its reason once): the textbook trees fit a laptop's screen
            ov.set_layout(layout(ov.tree, max_depth=None, max_children=focus_children, collapse=None,
                                 max_width=None, group_pruned=1, reveal=self._follow, fold=self._focus_fold, at=at))
        else:
            mw = self._view_width
            mc = min(12, mw) if focus_children is None else min(12, mw, focus_children)
            ov.set_layout(layout(ov.tree, max_depth=self._max_depth, max_children=mc, collapse=90, max_width=mw,
                                 expand=set(ov.expand) | self._chance_open, show_all=set(ov.show_all),
                                 reveal=self._follow, fold=self._focus_fold,
                                 group_pruned=1 if self._focus_group else 3, at=at))

    def relayout(self, ov: PlanHost, fit: bool = False) -> None:
        """Choose the visible nodes: the Tree Lab's whole tree; or the default view (:meth:`default_budget`,
        planned again when the tree, the canvas or the text size changes, or ``fit``) with the clicks' requests,
        the step-through's nodes and the shallowest chance nodes on top (they only ever add nodes)."""
        if ov.tree is None:
            return
        canvas = ov.canvas_rect
        if not ov.whole:
            unit = 130.0 * ov.font_size / 20.0 * MIN_DEFAULT_ZOOM
            max_width = max(5, int(canvas.width / unit))
            if fit or self._max_depth is None:
                levels = int((canvas.height - 60) / (level_height(ov) * MIN_DEFAULT_ZOOM))
                self._max_depth = max(2, levels - 1)
            planned = (id(ov.tree), canvas.size, self._max_depth, ov.font_size, ov.presenter)
            if fit or planned != self._default_view:
                self.reset_focus(ov, relayout=False)
                self.default_budget(ov, canvas, max_width)
                self._default_view = (id(ov.tree), canvas.size, self._max_depth, ov.font_size, ov.presenter)
        self.layout_now(ov)

    def reset_focus(self, ov: PlanHost, *, relayout: bool = True) -> None:
        """Forget the camera's folds (:meth:`tighten`), and lay out again when there were some."""
        had = bool(self._focus_fold) or self._focus_children is not None or self._focus_group
        self._focus_fold = set()
        self._focus_children = None
        self._focus_group = False
        self._focus_plan = None
        if had and relayout and ov.tree is not None:
            self.layout_now(ov)

    def _make_focus_plan(self, ov: PlanHost) -> list[tuple[frozenset[int], int | None]]:
        """The folds :meth:`tighten` tries in turn, least first (after one placeholder for all the pruned moves of
        a node): every node that is not above the sentence's nodes folded from the deepest level up, then the
        siblings cut to fewer and fewer per node (the sentence's nodes and the principal variation always kept)."""
        assert ov.tree is not None
        ids, pruned = ov.sentence_about()
        rec = {n.id: n for n in ov.tree.nodes}
        above: set[int] = {pid for pid, _ in pruned}
        for i in ids:
            j = rec[i].parent if i in rec else None
            while j is not None and j in rec and j not in above:
                above.add(j)
                j = rec[j].parent
        lay = ov.lay
        open_now = {it.node.id for it in (lay.nodes if lay is not None else ())
                    if it.node is not None and lay is not None and any(lay.nodes[c].kind == NODE
                                                                       for c in it.children)}
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

    def tighten(self, ov: PlanHost) -> bool:
        """Fold one more step of the focus plan and lay out again, so the nodes the sentence is about come closer
        together. Returns False when there is nothing left to fold, or the user opened parts of the tree by hand
        (``+N`` markers, show all children: what they opened is never folded away)."""
        if ov.expand or ov.show_all:
            return False  # the user opened parts by hand: the picture is theirs, the camera only pans
        plan = self._focus_plan
        if plan is None:
            plan = self._focus_plan = self._make_focus_plan(ov)
        ids, _ = ov.sentence_about()
        if self._follow - set(ids):  # the nodes earlier sentences opened give way first (they open again when named)
            self._follow = set(ids)
            self.layout_now(ov)
            return True
        if not self._focus_group and not ov.whole:
            self._focus_group = True  # a node's pruned moves in one placeholder ("pruned ×3"): the least change
            self.layout_now(ov)
            return True
        while plan:
            fold, children = plan.pop(0)
            if set(fold) != self._focus_fold or children != self._focus_children:
                self._focus_fold, self._focus_children = set(fold), children
                self.layout_now(ov)
                return True
        return False

    def default_budget(self, ov: PlanHost, canvas: pygame.Rect, max_width: int) -> None:
        """Choose the default view's depth and width budget: of the layouts that fit the canvas whole at the least
        readable zoom (:func:`gameplay.ui.overlay.overlay_view.min_fit_zoom`), the widest at each depth, the one showing
        the most recorded nodes, never hiding the outcomes of the principal variation's first chance node; when
        none fits, the shallowest such view (Fit then follows the step and the principal variation). The clicks'
        requests and the followed step come on top of it (they only ever add nodes), so they are left out here."""
        assert ov.tree is not None and self._max_depth is not None
        self._planning = True
        try:
            self._plan_default(ov, canvas, max_width)
        finally:
            self._planning = False

    def _plan_default(self, ov: PlanHost, canvas: pygame.Rect, max_width: int) -> None:
        """:meth:`default_budget`'s search over the depths and widths."""
        assert ov.tree is not None and self._max_depth is not None
        # the shallowest chance nodes always show their outcomes (the class checks the sum of p*v), whichever
        # move was chosen (Pig's roll is a chance node whether the AI rolled or held)
        first = min((n.depth for n in ov.tree.nodes if n.kind == CHANCE), default=None)
        self._chance_open = {n.id for n in ov.tree.nodes if n.kind == CHANCE and n.depth == first}
        lowest = 1 if first is None else first + 1
        self._max_depth = max(self._max_depth, lowest)
        best: tuple[int, int, int] | None = None  # (shown, depth, width)
        for depth in range(self._max_depth, lowest - 1, -1):
            for mw in range(max_width, 1, -1):
                lay = layout(ov.tree, max_depth=depth, max_children=min(12, mw), collapse=90, max_width=mw,
                             expand=self._chance_open)
                ov.set_layout(lay)
                pic = ov.picture()[0]
                if pic is None:
                    self._max_depth, self._view_width = depth, mw
                    return
                z = min_fit_zoom(ov, pic)
                if pic.width * z <= canvas.width - 20 and pic.height * z <= canvas.height - 10:
                    if best is None or lay.shown > best[0]:
                        best = (lay.shown, depth, mw)
                    break  # the widest that fits at this depth
        _, depth, mw = best if best is not None else (0, lowest, max_width)
        self._max_depth, self._view_width = depth, mw
        ov.set_layout(layout(ov.tree, max_depth=depth, max_children=min(12, mw), collapse=90, max_width=mw,
                             expand=self._chance_open))

    def follow_step(self, ov: PlanHost) -> bool:
        """Make the nodes the current sentence is about visible: when one lies inside a collapsed part, it and its
        path from the root are shown from now on (the picture grows as the search goes, the way the course draws
        it step by step). Returns True when the layout changed."""
        if ov.lay is None:
            return False
        ids, _ = ov.sentence_about()
        shown = ov.lay.by_node_id()
        missing = [i for i in ids if i not in shown and i not in self._follow]
        if not missing:
            return False
        self._follow.update(missing)
        self.layout_now(ov)
        return True

    def frame(self, ov: PlanHost, *, centre: bool = False) -> Camera | None:
        """The zoom and the offset for the current step (the rule of :mod:`gameplay.ui.overlay.overlay_view`), folding
        the picture when needed; ``None`` when nothing changes (no picture: the camera stays).

        With the user's own zoom (wheel, Zoom +/-: :attr:`PlanHost.user_zoom`) kept, only the offset follows: the
        sentence's nodes are brought into view as far as they fit, the node of the step first. ``centre``: what the
        step is about goes to the middle (else the view moves the least from where it was). Fit (the button, key 0,
        a new tree) is the model forgetting the user's zoom, then this with ``centre``.
        """
        users = ov.user_zoom
        zoom, offset = ov.zoom, ov.offset
        self.reset_focus(ov)
        for _ in range(view.MAX_TIGHTEN):
            pic, lay = ov.picture()
            if pic is None or lay is None:
                return None if (zoom, offset) == (ov.zoom, ov.offset) else (zoom, offset)
            if not users:
                z_all, z_min = view.whole_zoom(ov, pic), min_fit_zoom(ov, pic)
                if z_all >= z_min:
                    grows = ov.step is not None and ov.steps_relaid  # a growing picture: never enlarged past 1
                    zoom = min(view.PRESENTER_MAX_ZOOM if ov.presenter and not grows else 1.0, z_all)
                    return zoom, view.centre_picture(ov, pic, zoom)
                zoom = z_min
            box = view.required_box(ov, pic, lay)
            if box is None:
                return zoom, view.centre_on_root(ov, pic, zoom)
            if view.fits(box, zoom, ov) or users or not self.tighten(ov):
                offset = view.pan_to(ov, pic, lay, view.with_context(ov, pic, lay, box, zoom), zoom, offset,
                                     centre=centre)
                return zoom, view.uncut(ov, pic, lay, zoom, offset)
        pic, lay = ov.picture()
        if pic is not None and lay is not None:
            box = view.required_box(ov, pic, lay)
            if box is not None:
                offset = view.uncut(ov, pic, lay, zoom, view.pan_to(ov, pic, lay, box, zoom, offset, centre=centre))
        return zoom, offset
