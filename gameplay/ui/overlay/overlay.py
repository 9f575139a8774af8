"""The search-tree overlay: the tree the AI just searched, drawn over the board, with a step-through.

What a teacher sees (the issue "search-tree overlay"):

* a tidy layout (:func:`gameplay.pictures.tree_layout.layout`, Buchheim's linear-time Reingold-Tilford) of the last AI
  decision, built into a display list (:func:`gameplay.pictures.picture_build.build_picture`, the same picture
  as the SVG/PNG export); what the canvas shows at a step is a pygame-free model
  (:class:`gameplay.pictures.step_view.StepView`, :meth:`TreeOverlay.step_view`) that the painter
  (:func:`gameplay.ui.overlay.overlay_canvas.paint`) draws and ``shot --json`` reports:
  values as exact numbers or bounds (``<= 2``), the alpha-beta window under each node, pruned moves dashed and
  grey with the ``α ≥ β`` test that cut them, chance nodes as circles with edge probabilities, the principal
  variation thick, levels that do not fit collapsed into ``+N nodes`` markers (click one to open it);
* zoom (wheel, ``+``/``-``, ``0`` to fit) and pan (drag); hovering a node shows its position on a mini-board;
* a counter panel, every count named (:class:`ai.teaching.decision_tree.DecisionCounts`, the same figures as the side
  panel, ``analyze`` and ``tree``): the nodes of the shown iteration ("Nodes in this tree (depth N iteration)"),
  the whole decision's ("Nodes, all iterations"), leaves, cut-offs and table hits in this tree, and the nodes
  plain minimax needs at the shown depth: counted on a background thread when the estimated tree is small,
  otherwise an estimate ``b^d`` from the measured branching factor (marked "≈"), plus the cut-off rule in force;
* a step-through of the search in visiting order (next / previous, play / pause, speed) with the current path
  and its live alpha and beta highlighted; keys Page Down / Page Up, arrows, Space, Home, End (a presenter's
  clicker sends Page Up / Page Down);
* export of the tree as SVG, PNG, DOT, JSON and a text trace (:func:`gameplay.pictures.tree_export.export_tree`).

Bounded recording: :class:`DecisionRecorder` keeps the deepest iterative-deepening iteration whose nodes all fit
in ``max_nodes`` (the real search of the AI, not a re-run); the overlay says which iteration it shows when the
move came from a deeper one.

Nothing happens at import time; the overlay needs ``pygame.font`` only when it draws.

Over 600 lines because this is the model, one responsibility: every field it owns is read through a read-only
property here and changed only by a method here, beside the fields they guard; the painter
(:mod:`gameplay.ui.overlay.overlay_paint`), the planner (:mod:`gameplay.ui.overlay.overlay_budget`) and the input
handler (:mod:`gameplay.ui.overlay.overlay_input`) keep their own state in their own modules.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from ai.kernel.recording import RecordedNode, SearchTree
from ai.teaching.decision_model import TreeInfo, decision_info, resume_minimax_count, start_minimax_count
from ai.teaching.decision_tree import make_recorder as make_recorder  # the scenes' recorder of the decision shown here
from ai.teaching.trace import StepEvent, node_path, step_events
from gameplay.pictures.picture_build import build_picture
from gameplay.pictures.step_view import StepStory, StepView
from gameplay.pictures.tree_export import default_export_dir, export_all
from gameplay.pictures.tree_layout import COLLAPSED, NODE, LayoutNode, TreeLayout, open_marker, relaid
from gameplay.pictures.tree_picture import Picture
from gameplay.pictures.tree_png import ensure_fonts, measure_text
from gameplay.ui.overlay import overlay_budget as budget
from gameplay.ui.overlay import overlay_canvas as canvas
from gameplay.ui.overlay import overlay_draw as draw
from gameplay.ui.overlay import overlay_view as view
from gameplay.ui.overlay.overlay_canvas import CanvasCache
from gameplay.ui.overlay.overlay_input import OverlayInput
from gameplay.ui.overlay.overlay_paint import OverlayPainter
from gameplay.ui.overlay.overlay_quiz import QuizMode
from gameplay.ui.overlay.overlay_shown import NoTreeText
from gameplay.ui.overlay.stepper import SteppedView, Stepper, ToStepper, step_layout
from gameplay.ui.widgets import projector

MIN_CANVAS_WIDTH = 900
"""The counter panel is shown only when the tree keeps at least this many design pixels of width beside it."""
FONT_SIZE = 20.0
"""Body text of the tree picture in pixels at zoom 1, times the interface scale (27 px at 1920x1080)."""


# ----------------------------------------------------------------------------------------------------------------
# The overlay
# ----------------------------------------------------------------------------------------------------------------
class TreeOverlay(SteppedView):
    """Draws a recorded search tree into a rectangle, with counters, step-through, hover boards and export.

    Used by the match scene (over the board, key T) and by the Tree Lab (embedded, always visible). Key P or
    the Presenter button switch to the presenter view (:meth:`set_presenter`): the tree on the whole screen
    (the scene gives the overlay the whole window through ``on_presenter``), no counter panel, node values
    33 px and notes and edge labels 25 px at zoom 1 (never under 24 px after Fit) at 1280x720, growing with a larger
    screen (:func:`gameplay.ui.overlay.overlay_view.presenter_scale`: 1.5 times at 1920x1080), near-black alpha-beta
    windows, and the current step's sentence (:mod:`ai.teaching.narration`) under the tree. Esc (through the scene's
    ``escape``) or P again leaves it.

    Args:
        closable: show the Close button (the match overlay).
        on_click: called with the layout item clicked (a node or a pruned placeholder); ``+N`` markers are
            opened by the overlay itself.
        export_dir: folder the Export button writes to (default :func:`default_export_dir`).
        font_size: body text of the tree at zoom 1, in pixels.
        whole: show every node (no collapsing): the Tree Lab's small trees.
        on_presenter: called with True / False when the presenter view opens / closes (the scene gives the
            overlay the whole window and hides its own widgets, or puts them back).
    """

    def __init__(self, *, closable: bool = True, on_click: Callable[[LayoutNode], None] | None = None,
                 export_dir: str | Path | None = None, font_size: float = FONT_SIZE, whole: bool = False,
                 on_presenter: Callable[[bool], None] | None = None) -> None:
        # what is shown: the decision, its layout and picture
        self._whole = whole
        self._closable = closable
        self._on_click = on_click
        self._export_dir = Path(export_dir) if export_dir is not None else None
        self._font_size = font_size
        self._tree: SearchTree | None = None
        self._no_tree_message: NoTreeText | None = None
        self._info: TreeInfo | None = None
        self._by_id: dict[int, RecordedNode] = {}
        self._story: StepStory | None = None
        self._lay: TreeLayout | None = None
        self._layout_version = 0
        self._pic: Picture | None = None
        self._pic_lay: TreeLayout | None = None
        self._pic_key: tuple[Any, ...] | None = None
        self._canvas: tuple[tuple[Any, ...], pygame.Rect] | None = None
        self._whole_pic: tuple[tuple[Any, ...], Picture] | None = None
        self._relaid = False
        self._relaid_key: tuple[Any, ...] | None = None
        # the requests (clicks) and the plan of the default view
        self._expand: set[int] = set()
        self._show_all: set[int] = set()
        self._pinned: tuple[int | None, int | None] = (None, None)
        self._planner = budget.ViewPlanner()
        # the camera, the place, the view
        self._rect = pygame.Rect(0, 0, 0, 0)
        self._zoom = 1.0
        self._user_zoom = False
        self._offset: tuple[float, float] = (0.0, 0.0)
        self._framed_key: tuple[Any, ...] | None = None
        self._visible = False
        self._presenter = False
        self._on_presenter = on_presenter
        self._on_growth: Callable[[], None] | None = None
        self._selected_id: int | None = None
        self._message = ""
        self._hover_item: LayoutNode | None = None
        self._mouse: tuple[int, int] = (0, 0)
        # the parts that own their own state
        self.stepper = Stepper()
        """The step-through: current step, play / pause, speed (:class:`gameplay.ui.overlay.stepper.Stepper`)."""
        self._quiz = QuizMode()
        self._painter = OverlayPainter(self)
        self._input = OverlayInput(self)

    # -- the model, read ---------------------------------------------------------------------------------------------
    @property
    def whole(self) -> bool:
        """Lay out every node (the Tree Lab's small trees) instead of collapsing levels."""
        return self._whole

    @property
    def closable(self) -> bool:
        """The bar has a Close button (the match overlay)."""
        return self._closable

    @property
    def export_dir(self) -> Path | None:
        """Folder the Export button writes to (``None``: :func:`default_export_dir`)."""
        return self._export_dir

    @property
    def font_size(self) -> float:
        """Body text of the tree at zoom 1, in pixels (:meth:`set_font_size`)."""
        return self._font_size

    @property
    def tree(self) -> SearchTree | None:
        """The recorded search shown (:meth:`set_tree`), ``None`` after :meth:`clear`."""
        return self._tree

    @property
    def info(self) -> TreeInfo | None:
        """The words and counts around :attr:`tree` (:class:`ai.teaching.decision_model.TreeInfo`)."""
        return self._info

    @property
    def no_tree_message(self) -> NoTreeText | None:
        """What the header says while there is no tree (``clear``): ``None`` for "No AI decision yet"."""
        return self._no_tree_message

    @property
    def by_id(self) -> dict[int, RecordedNode]:
        """The tree's recorded nodes by id (do not change it)."""
        return self._by_id

    @property
    def lay(self) -> TreeLayout | None:
        """The layout shown (:meth:`set_layout`; :mod:`gameplay.ui.overlay.overlay_budget` chooses it)."""
        return self._lay

    @property
    def layout_version(self) -> int:
        """Counts the layouts shown (:meth:`set_layout`): what was built for an older one is stale."""
        return self._layout_version

    @property
    def pic(self) -> Picture | None:
        """The picture of the current step last built (:meth:`picture`)."""
        return self._pic

    @property
    def pic_lay(self) -> TreeLayout | None:
        """The layout :attr:`pic` draws (at a step, what the search had reached)."""
        return self._pic_lay

    @property
    def expand(self) -> frozenset[int]:
        """Recorded node ids opened by a click on their ``+N nodes`` marker (:func:`layout`'s ``expand``)."""
        return frozenset(self._expand)

    @property
    def show_all(self) -> frozenset[int]:
        """Recorded node ids with every child shown (a ``+N`` sibling marker, right-click or A on a node)."""
        return frozenset(self._show_all)

    @property
    def pinned(self) -> tuple[int | None, int | None]:
        """A node the user just opened (``+N``, right-click, A) and the step it was opened at: kept in view with
        what the sentence is about until the step changes."""
        return self._pinned

    @property
    def plan(self) -> budget.ViewPlanner:
        """The default view's budgets, the followed nodes and the camera's folds
        (:mod:`gameplay.ui.overlay.overlay_budget`; read-only here: it changes through its own methods, which the model
        calls)."""
        return self._planner

    @property
    def max_depth(self) -> int | None:
        """The default view's depth budget (:attr:`gameplay.ui.overlay.overlay_budget.ViewPlanner.max_depth`)."""
        return self._planner.max_depth

    @property
    def rect(self) -> pygame.Rect:
        """Where the overlay is drawn, window pixels (:meth:`set_rect`; a copy)."""
        return pygame.Rect(self._rect)

    @property
    def zoom(self) -> float:
        """Screen pixels per picture pixel (:meth:`set_zoom`, :meth:`fit`, the camera's framing)."""
        return self._zoom

    @property
    def user_zoom(self) -> bool:
        """The user zoomed (wheel, Zoom +/-): stepping keeps that zoom and only pans (Fit forgets it)."""
        return self._user_zoom

    @property
    def offset(self) -> tuple[float, float]:
        """The picture's top-left corner in screen pixels from the canvas's (:meth:`pan`, the camera's framing)."""
        return self._offset

    @property
    def quiz(self) -> QuizMode:
        """Predict the next step (key Q; :mod:`gameplay.ui.overlay.overlay_quiz`: it changes through its own
        methods)."""
        return self._quiz

    @property
    def on_presenter(self) -> Callable[[bool], None] | None:
        """Called with True / False when the presenter view opens / closes."""
        return self._on_presenter

    @property
    def on_growth(self) -> Callable[[], None] | None:
        """The bar's Growth button opens the tree-growth figure (:meth:`set_on_growth`; ``None``: no button)."""
        return self._on_growth

    @property
    def selected_id(self) -> int | None:
        """A recorded node drawn with a selection ring (the Tree Lab's editor; :meth:`select`)."""
        return self._selected_id

    @property
    def message(self) -> str:
        """One line under the buttons (where the export went, errors; :meth:`say`)."""
        return self._message

    @property
    def hover_item(self) -> LayoutNode | None:
        """The tree item under the pointer (:meth:`point`), whose hover box is drawn."""
        return self._hover_item

    @property
    def mouse(self) -> tuple[int, int]:
        """The pointer, window pixels (:meth:`point`)."""
        return self._mouse

    @property
    def input(self) -> OverlayInput:
        """The keys and the mouse (:mod:`gameplay.ui.overlay.overlay_input`)."""
        return self._input

    @property
    def painter(self) -> OverlayPainter:
        """Draws the model (:mod:`gameplay.ui.overlay.overlay_paint`) and keeps what it drew where."""
        return self._painter

    @property
    def hits(self) -> list[tuple[pygame.Rect, LayoutNode]]:
        """``(canvas rectangle, layout item)`` of every item a pointer can act on, as last drawn."""
        return self._painter.hits

    @property
    def buttons(self) -> list[tuple[str, pygame.Rect, str]]:
        """``(name, window rectangle, label)`` of the bar's buttons, as last drawn."""
        return self._painter.buttons

    @property
    def callout_rect(self) -> pygame.Rect | None:
        """Where the step callout was last drawn (canvas pixels), ``None`` when none was."""
        return self._painter.callout_rect

    @property
    def drawn_narration(self) -> tuple[list[str], int]:
        """The narration lines last drawn and their font's height in pixels (``Font.get_height()``)."""
        return self._painter.drawn_narration

    @property
    def canvas_cache(self) -> CanvasCache:
        """The tree drawn at the current zoom and offset, kept while nothing it shows changes."""
        return self._painter.canvas_cache

    # -- the model, changed by its own methods -------------------------------------------------------------------------
    def set_font_size(self, size: float) -> None:
        """Body text of the tree at zoom 1, in pixels (the scene's interface scale); laid out at the next
        :meth:`set_rect` or tree."""
        self._font_size = size

    def select(self, node_id: int | None) -> None:
        """Draw recorded node ``node_id`` with a selection ring (``None``: none)."""
        self._selected_id = node_id

    def say(self, message: str) -> None:
        """Show ``message`` on the line under the buttons."""
        self._message = message

    def set_on_growth(self, callback: Callable[[], None] | None) -> None:
        """Give the bar a Growth button that calls ``callback`` (``None``: no button)."""
        self._on_growth = callback

    def point(self, pos: tuple[int, int], *, hover: bool) -> None:
        """The pointer moved to window point ``pos``; ``hover``: the item under it gets the hover box (not while
        dragging)."""
        self._mouse = pos
        if hover:
            self._hover_item = self.item_at(pos)

    def pan(self, offset: tuple[float, float]) -> None:
        """Put the picture's top-left corner at ``offset`` (screen pixels from the canvas's; a drag)."""
        self._offset = (float(offset[0]), float(offset[1]))

    def open_item(self, item: LayoutNode, lay: TreeLayout | None = None, *, everything: bool = False) -> bool:
        """Open a ``+N`` marker of ``lay`` (default :attr:`lay`) the way a click does
        (:func:`~gameplay.pictures.tree_layout.open_marker`), and lay the tree out again; no framing. Returns
        False when it opened nothing."""
        lay = lay if lay is not None else self._lay
        if lay is None or not open_marker(lay, item, self._expand, self._show_all, everything=everything):
            return False
        self.relayout()
        return True

    def reset_requests(self) -> None:
        """Close everything opened by hand (``+N`` markers, show-all); lay out again with :meth:`relayout`."""
        self._expand.clear()
        self._show_all.clear()

    def _place(self, rect: pygame.Rect) -> None:
        self._rect = pygame.Rect(rect)

    # -- geometry --------------------------------------------------------------------------------------------------
    def set_rect(self, rect: pygame.Rect) -> None:
        """Place the overlay (on enter and resize); the tree is fitted again when the size changed."""
        changed = rect.size != self._rect.size
        self._rect = pygame.Rect(rect)
        if changed and self._tree is not None:
            self.relayout(fit=True)

    @property
    def header_rect(self) -> pygame.Rect:
        """Title lines at the top, wrapped, as tall as they need (at most a quarter of the overlay; the title
        alone in the presenter view). Without a tree, everything above the bar: there is no picture to leave room
        for, and what the header says then (an exact solver's tests) is all the view has to show."""
        from gameplay.ui.overlay.overlay_draw import header_layout
        r = self.rect
        room = r.height // 4 if self.tree is not None else r.height - self.bar_rect.height
        return pygame.Rect(r.x, r.y, r.width, min(header_layout(self, r.width)[1], room))

    @property
    def bar_rect(self) -> pygame.Rect:
        """The button bar (two rows when narrow) and the message line at the bottom."""
        from gameplay.ui.overlay.overlay_draw import bar_geometry
        r = self.rect
        h = min(bar_geometry(self, r.width)[1], r.height // 3)
        return pygame.Rect(r.x, r.bottom - h, r.width, h)

    @property
    def show_side(self) -> bool:
        """Whether the counter and step panel is shown: not in the presenter view, nor where it would leave the
        tree less than :data:`MIN_CANVAS_WIDTH` design pixels (the counts go on one line of the header then, and
        the step's sentence under the tree)."""
        return not self.presenter and self.rect.width - self._side_width() >= projector.px(MIN_CANVAS_WIDTH)

    def _side_width(self) -> int:
        r = self.rect
        return int(min(projector.px(400), max(projector.px(290), r.width * (0.22 if self.whole else 0.28))))

    @property
    def legend_rect(self) -> pygame.Rect:
        """The legend strip above the tree (it does not move with the tree; as many rows as the width needs)."""
        top = self.header_rect.bottom
        w = max(50, self.side_rect.left - self.rect.x)
        h = draw.legend_height(self, w) if self.tree is not None else 0
        return pygame.Rect(self.rect.x, top, w, h)

    @property
    def side_rect(self) -> pygame.Rect:
        """The counter and step panel on the right (zero wide when hidden, :attr:`show_side`)."""
        r = self.rect
        w = self._side_width() if self.show_side else 0
        top = self.header_rect.bottom
        return pygame.Rect(r.right - w, top, w, self.bar_rect.top - top)

    @property
    def narration_rect(self) -> pygame.Rect:
        """The band under the tree with the current step's sentence, as many lines high as the tree's sentences
        need (:func:`gameplay.ui.overlay.overlay_draw.narration_rows`; none while the side panel shows the step)."""
        r = self.rect
        if self.show_side:
            return pygame.Rect(r.x, self.bar_rect.top, r.width, 0)
        rows = draw.narration_rows(self, r.width - 28) if self.tree is not None else 2
        h = rows * draw.narration_font(self).get_height() + 12
        return pygame.Rect(r.x, self.bar_rect.top - h, r.width, h)

    quiz_rect = property(lambda self: self.quiz.band(self), doc="The quiz's band (:meth:`QuizMode.band`).")

    @property
    def canvas_rect(self) -> pygame.Rect:
        """Where the tree is drawn: below the header and the legend, left of the side panel, above the quiz and
        the narration (a copy; worked out again only when what the parts' sizes depend on changed:
        :meth:`_parts_key`)."""
        key = self._parts_key()
        if self._canvas is None or self._canvas[0] != key:
            top = self.legend_rect.bottom
            self._canvas = (key, pygame.Rect(self.rect.x, top, max(50, self.side_rect.left - self.rect.x),
                                             max(50, self.quiz_rect.top - top)))
        return pygame.Rect(self._canvas[1])

    def _parts_key(self) -> tuple[Any, ...]:
        """What the sizes of the overlay's parts depend on: its place, the view, the tree and its layout (the
        legend), the header's words (the minimax count fills in on a thread), the bar's buttons, the quiz, the
        interface scale and theme."""
        mm = self._info.minimax if self._info is not None else None
        return (tuple(self._rect), self._presenter, id(self._tree), id(self._info), self._layout_version,
                self.step is None, self._quiz.on, self._message, self.playing, self.speed, self._on_growth is not None,
                self._closable, self._whole, self._no_tree_message, None if mm is None else (mm.status, mm.nodes),
                projector.scale(), projector.current().theme)

    # -- the presenter view ------------------------------------------------------------------------------------
    def set_presenter(self, on: bool) -> None:
        """Open or close the presenter view; ``on_presenter`` (the scene) resizes the overlay, then the tree is
        laid out and fitted again with the presenter's sizes."""
        if on == self._presenter:
            return
        self._presenter = on
        if on and not self._visible:
            self.show()
        if self._on_presenter is not None:
            self._on_presenter(on)
        self._pic_key = None
        self._painter.forget()
        if self._tree is not None:
            self.relayout(fit=True)

    # -- content ---------------------------------------------------------------------------------------------------
    def set_tree(self, tree: SearchTree, info: TreeInfo, *, keep_view: bool = False) -> None:
        """Show ``tree`` (the replay restarts at the finished search; the view is fitted unless ``keep_view``)."""
        if self._info is not None and self._info.minimax is not info.minimax:
            self._info.minimax.stop.set()
        self._tree = tree
        self._info = info
        self._no_tree_message = None
        self._by_id = {n.id: n for n in tree.nodes}
        self.stepper.reset(step_events(tree))
        self._hover_item = None
        if not keep_view:  # a new view: the requests start empty (the Tree Lab's whole tree keeps its show-all)
            self._expand = set()
            if not self._whole:
                self._show_all = set()
                self._planner.new_view()
        self.relayout(fit=not keep_view)
        resume_minimax_count(info, tree)  # a decision shown again (undo, redo) finishes its count

    def resume(self) -> None:
        """The scene is shown again: finish a minimax count that :meth:`close` stopped halfway."""
        if self.tree is not None and self.info is not None:
            resume_minimax_count(self.info, self.tree)

    def clear(self, message: NoTreeText | None = None) -> None:
        """Show no tree (a new game, or everything undone): the overlay hides until the next decision.

        Args:
            message: the header's title and notes instead of "No AI decision yet" (a move played without a
                search, e.g. from the opening book), or ``None``.
        """
        if self._info is not None:
            self._info.minimax.stop.set()
        self._tree = None
        self._info = None
        self._no_tree_message = message
        self._by_id = {}
        self.stepper.reset(())
        self.hide()

    def close(self) -> None:
        """Stop background work (the minimax count)."""
        if self.info is not None:
            self.info.minimax.stop.set()

    def relayout(self, fit: bool = False) -> None:
        """Lay the tree out again (:meth:`gameplay.ui.overlay.overlay_budget.ViewPlanner.relayout`), then fit it when
        ``fit``."""
        if self._tree is None:
            return
        self._planner.relayout(self, fit)
        if fit:
            self.fit()

    # -- what the sentence is about, and the camera ---------------------------------------------------------------
    def story(self) -> StepStory | None:
        """The narration of the tree shown and what each step's sentence is about (made once per tree, with the
        explicit tree of a Tree Lab search so its nodes are lettered as the command line letters them)."""
        if self.tree is None:
            return None
        if self._story is None or self._story.tree is not self.tree:
            self._story = StepStory(self.tree, getattr(self.info, "root", None), self.events)
        return self._story

    def narrated(self) -> list[Any]:
        """The narration of the tree, one :class:`ai.teaching.narration.NarratedStep` per step: the same sentences, in
        the same spelling, as ``tree --narrate`` and the exports."""
        story = self.story()
        return [] if story is None else story.steps

    def narrated_step(self) -> Any:
        """The :class:`ai.teaching.narration.NarratedStep` of the current step (the root's last one for the finished
        search), or ``None``."""
        story = self.story()
        return None if story is None else story.at(self.step)

    def sentence_about(self) -> tuple[tuple[int, ...], tuple[tuple[int, str], ...]]:
        """What the picture must show now (:meth:`gameplay.pictures.step_view.StepStory.about`), with the node the
        user just opened while the step has not changed."""
        story = self.story()
        if story is None:
            return (), ()
        pin = self._pinned[0] if self._pinned[1] == self.step else None
        return story.about(self.step, self.current_node(), pin)

    def sentence_context(self) -> tuple[int, ...]:
        """What the picture shows too when there is room (:meth:`gameplay.pictures.step_view.StepStory.context`)."""
        story = self.story()
        if story is None:
            return ()
        ev = self.current_event()
        return story.context(self.step, self.sentence_about()[0], None if ev is None else ev.order)

    def ensure_framed(self) -> None:
        """Frame the current step when the step, the canvas, the view or the layout's requests changed since the
        last time (:meth:`gameplay.ui.overlay.overlay_budget.ViewPlanner.frame`): its sentence's nodes shown and in
        view."""
        if self._tree is None:
            return
        if self._frame_key() == self._framed_key:
            return
        self._planner.reset_focus(self)
        self._planner.follow_step(self)
        self._take_camera(self._planner.frame(self))
        self._framed_key = self._frame_key()

    def _frame_key(self) -> tuple[Any, ...]:
        """What the camera frames for: the tree, the step, the canvas, the view, the requests, the default view."""
        return (id(self._tree), self.step, self.canvas_rect.size, self._presenter, self._font_size,
                len(self._expand), len(self._show_all), self._planner.default_view)

    def _take_camera(self, camera: budget.Camera | None) -> None:
        if camera is not None:
            self._zoom, self._offset = camera

    def fit(self, whole: bool = False) -> None:
        """Fit the picture into the canvas, never shrinking text under
        :func:`gameplay.ui.overlay.overlay_view.min_fit_zoom`.

        The whole picture, centred, at the largest zoom up to 1 (:data:`PRESENTER_MAX_ZOOM` in the presenter
        view) when it fits with text of at least :data:`MIN_TEXT_PX` (:data:`PRESENTER_TEXT_PX` in the presenter
        view) pixels; else the smallest such zoom, panned to the current step's node, or without a step to the
        root and as much of the principal variation as fits.

        Args:
            whole: the user's Fit (the button, key 0); the same rule as the opening view (kept for callers).
        """
        self._planner.reset_focus(self)
        self._planner.follow_step(self)
        self._user_zoom = False  # forget the user's zoom and pan: the step framed afresh, centred
        self._take_camera(self._planner.frame(self, centre=True))
        self._framed_key = None if self._tree is None else self._frame_key()

    def set_zoom(self, z: float, about: tuple[float, float] | None = None, *, user: bool = True) -> None:
        """Zoom to ``z`` (clamped to 0.3..3) keeping ``about`` fixed; ``user``: the user's own zoom, which
        stepping keeps (Fit forgets it)."""
        z = max(0.3, min(3.0, z))
        self._user_zoom = self._user_zoom or user
        c = self.canvas_rect
        ax, ay = about if about is not None else (c.width / 2, c.height / 2)
        ox, oy = self._offset
        k = z / self._zoom
        self._offset = (ax - (ax - ox) * k, ay - (ay - oy) * k)
        self._zoom = z

    # -- the replay (gameplay.ui.overlay.stepper) ----------------------------------------------------------------------
    events = ToStepper[list[StepEvent]]("events", "The steps of the search, in visiting order.")

    def current_event(self) -> StepEvent | None:
        """The replay's current step, or ``None`` when the whole search is shown."""
        return self.stepper.current()

    def current_node(self) -> RecordedNode | None:
        """The node of the current step (``None``: the finished search)."""
        ev = self.current_event()
        return None if ev is None else self._by_id.get(ev.node)

    # -- export ------------------------------------------------------------------------------------------------
    def export(self, folder: str | Path | None = None) -> list[Path]:
        """Write the tree in every format (see :func:`export_all`) and say where in :attr:`message`."""
        if self._tree is None or self._info is None:
            self._message = "Nothing to export yet"
            return []
        d = Path(folder) if folder is not None else (self._export_dir or default_export_dir())
        summary = dict(self._info.summary)
        mm = self._info.minimax
        if mm.nodes is not None and "minimax_nodes" not in summary:
            summary["minimax_nodes"] = mm.nodes if mm.exact else f"about {mm.nodes}"
        stem = f"{self._info.stem}-{time.strftime('%Y%m%d-%H%M%S')}"
        try:
            files = export_all(self._tree, d, stem, summary, root=getattr(self._info, "root", None),
                               palette=view.export_palette())
        except Exception as e:  # noqa: BLE001 - shown to the user, the window goes on
            self._message = f"Export failed: {e}"
            return []
        self._message = f"Saved {stem}.svg/.png/.dot/.json/.txt in {d}"
        return files

    # -- events (gameplay.ui.overlay.overlay_input) --------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        """Keys, wheel, drag, hover and clicks while visible (:class:`gameplay.ui.overlay.overlay_input.OverlayInput`).
        Returns True when the event was used."""
        return self._input.handle(event)

    def press(self, name: str) -> None:
        """Act as the bar's button ``name`` does (:func:`gameplay.ui.overlay.overlay_draw.bar_specs`)."""
        self._input.press(name)

    def item_at(self, pos: tuple[int, int]) -> LayoutNode | None:
        """The tree item drawn under window point ``pos`` (its hit box), or ``None``."""
        return self._painter.item_at(pos)

    def button_at(self, pos: tuple[int, int]) -> str | None:
        """The name of the bar's button drawn under window point ``pos``, or ``None``."""
        return self._painter.button_at(pos)

    def click(self, pos: tuple[int, int], *, show_all: bool = False) -> LayoutNode | None:
        """A click on the canvas: open a ``+N`` marker (:func:`~gameplay.pictures.tree_layout.open_marker`: a collapsed
        subtree expands, a run of siblings shows every child of their parent), or hand the item to ``on_click``.
        With ``show_all`` (right-click, or A over an item) every child of the node (of the marker's parent) is
        shown instead. Boxes of nodes searched but not recorded have no hit box: nothing opens them.
        Returns the item under ``pos``."""
        it = self.item_at(pos)
        if it is None:
            return None
        lay = self._pic_lay or self._lay
        if it.kind == COLLAPSED or show_all:
            target = it.node if it.kind == NODE else (lay.nodes[it.parent].node if lay is not None and
                                                      it.parent is not None else None)
            if lay is not None and open_marker(lay, it, self._expand, self._show_all, everything=show_all):
                self._pinned = (target.id if target is not None else None, self.step)
                self.relayout()
                self.fit()  # the opened part in view: the whole picture if it fits readably, else followed
            return it
        if self._on_click is not None:
            self._on_click(it)
        elif it.kind == NODE and it.node is not None and self.events:
            # jump the replay to the moment the search reached this node
            self.stepper.go_to(next(i for i, e in enumerate(self.events) if e.node == it.node.id and not e.leaving))
            self._pic_key = None
        return it

    # -- building the picture ----------------------------------------------------------------------------------
    def set_layout(self, lay: TreeLayout | None) -> None:
        """Show ``lay`` (:mod:`gameplay.ui.overlay.overlay_budget` chose it): the picture is built again when next
        drawn."""
        self._lay = lay
        self._layout_version += 1
        self._pic_key = None

    @property
    def picture_key(self) -> tuple[Any, ...] | None:
        """What the current :attr:`pic` was built for (the layout's version, the step, the sizes, the theme)."""
        return self._pic_key

    @property
    def dragging(self) -> bool:
        """True while the user drags the tree (a button held down over the canvas)."""
        return self._input.drag is not None

    def reached_layout(self) -> TreeLayout | None:
        """The full layout, or at a replay step only what the search has reached (same positions)."""
        ev = self.current_event()
        if self._lay is None or ev is None:
            return self._lay
        return step_layout(self._lay, self._by_id, ev.order)

    def invalidate_picture(self) -> None:
        """Build the picture again when it is next asked for (the layout or what it shows changed)."""
        self._pic_key = None

    def picture(self) -> tuple[Picture | None, TreeLayout | None]:
        """The picture of the current step (built again when the layout, the step or the sizes changed) and the
        layout it draws: at a step only what the search had reached, at the finished search's positions when the
        finished picture reads whole in the canvas (nothing moves from step to step), else placed on its own
        (:attr:`steps_relaid`: the reached part drawn compactly, growing as the search goes)."""
        if self._tree is not None and self._lay is not None:
            self._planner.follow_passes(self)  # a node's test, then its re-search: that pass's children
        key = (self._layout_version, self.step, self._font_size, self._presenter, projector.current().theme,
               self.steps_relaid)
        if self._pic_key != key:
            ensure_fonts()
            lay = self.reached_layout()
            relay = self.steps_relaid and self.step is not None and lay is not None
            if relay:
                assert lay is not None
                lay = relaid(lay)
            self._pic_lay = lay
            self._pic = None if lay is None else self._build(lay, None if relay else self._lay)
            self._pic_key = key
        return self._pic, self._pic_lay

    def _build(self, lay: TreeLayout, frame: TreeLayout | None) -> Picture:
        """The picture of ``lay`` (geometry from ``frame`` when given) at the view's sizes and colours."""
        f, fv = view.text_sizes(self)
        names, pruned = draw.picture_names(self)
        return build_picture(lay, None, font_size=f, value_size=fv, header=False, legend=False, measure=measure_text,
                             compact=True, palette=view.picture_palette(self), frame=frame, names=names,
                             pruned_names=pruned)

    def step_view(self) -> StepView | None:
        """What the canvas shows now (:class:`gameplay.pictures.step_view.StepView`): the picture of the current
        step, the camera, the drawn part of the step's path, the callout's words, the selection and the sentence;
        ``None`` without a tree."""
        pic, lay = self.picture()
        if pic is None or lay is None:
            return None
        cur = self.current_node()
        drawn = lay.by_node_id()
        path = tuple(p.id for p in node_path(self._by_id, cur.id) if p.id in drawn) if cur is not None else ()
        hidden = bool(path) and path[-1] != cur.id if cur is not None else False
        words = canvas.callout_text(self, cur, hidden) if cur is not None and path else ""
        return StepView(pic, lay, self._zoom, self._offset, self.canvas_rect.size, path, cur, words,
                        self._selected_id, draw.narration_text(self))

    @property
    def steps_relaid(self) -> bool:
        """True when the step-through draws what the search reached placed on its own: the finished picture of the
        current layout does not read whole in the canvas (:func:`gameplay.ui.overlay.overlay_view.whole_zoom` under
        :func:`~gameplay.ui.overlay.overlay_view.min_fit_zoom`)."""
        pic = self.whole_picture()
        if pic is None:
            return False
        key = (self._layout_version, self._font_size, self._presenter, self.canvas_rect.size, tuple(self._rect))
        if self._relaid_key != key:
            self._relaid = view.whole_zoom(self, pic) < view.min_fit_zoom(self, pic)
            self._relaid_key = key
        return self._relaid

    def whole_picture(self) -> Picture | None:
        """The picture of the whole layout shown (what the finished search draws) at the view's sizes: the
        step-through draws a part of it where it puts each node while it reads whole (:attr:`steps_relaid`);
        ``None`` without a layout. Built again when the layout, the sizes, the view or the theme change."""
        if self._lay is None:
            return None
        key = (self._layout_version, self._font_size, self._presenter, tuple(self._rect), projector.current().theme)
        if self._whole_pic is None or self._whole_pic[0] != key:
            self._whole_pic = (key, self._build(self._lay, None))
        return self._whole_pic[1]

    # -- drawing ---------------------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        """Draw the overlay (when visible) into :attr:`rect` of ``surface``: the camera frames the current step
        (:meth:`ensure_framed`), then the painter draws (:class:`gameplay.ui.overlay.overlay_paint.OverlayPainter`)."""
        if not self._visible or self._rect.width <= 0:
            return
        ensure_fonts()
        if self._tree is not None and self._info is not None:
            self.ensure_framed()
        self._painter.draw(surface)


def show_decision(overlay: Any, game: Any, state: Any, agent: Any, result: Any,
                  recorder: Any, *, player_name: str, move_text: str, view: Any = None
                  ) -> bool:
    """Put the AI decision just played into ``overlay`` (a :class:`TreeOverlay`, or an
    :class:`~gameplay.ui.overlay.overlay_switch.OverlaySwitch` that also takes an MCTS record). Returns False when
    nothing was recorded."""
    if recorder is None:
        return False
    if getattr(recorder, "kind", None) == "mcts":
        from gameplay.ui.overlay.mcts_overlay import mcts_info
        trace = recorder.snapshot()
        overlay.set_tree(trace, mcts_info(game, trace, player_name=player_name, move_text=move_text))
        return True
    tree = recorder.snapshot(tuple(getattr(result, "pv", ()) or ()))
    if not tree.nodes:
        return False
    info = decision_info(game, state, agent, result, recorder, tree, player_name=player_name,
                         move_text=move_text, view=view)
    start_minimax_count(info, tree)
    overlay.set_tree(tree, info)
    return True

