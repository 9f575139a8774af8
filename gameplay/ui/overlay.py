"""The search-tree overlay: the tree the AI just searched, drawn over the board, with a step-through.

What a teacher sees (the issue "search-tree overlay"):

* a tidy layout (:func:`gameplay.tree_layout.layout`, Buchheim's linear-time Reingold-Tilford) of the last AI
  decision, drawn by :func:`gameplay.ui.tree_png.draw_picture` (the same picture as the SVG/PNG export):
  values as exact numbers or bounds (``<= 2``), the alpha-beta window under each node, pruned moves dashed and
  grey with the ``α ≥ β`` test that cut them, chance nodes as circles with edge probabilities, the principal
  variation thick, levels that do not fit collapsed into ``+N nodes`` markers (click one to open it);
* zoom (wheel, ``+``/``-``, ``0`` to fit) and pan (drag); hovering a node shows its position on a mini-board;
* a counter panel, every count named (:class:`ai.decision_tree.DecisionCounts`, the same figures as the side
  panel, ``analyze`` and ``tree``): the nodes of the shown iteration ("Nodes in this tree (depth N iteration)"),
  the whole decision's ("Nodes, all iterations"), leaves, cut-offs and table hits in this tree, and the nodes
  plain minimax needs at the shown depth: counted on a background thread when the estimated tree is small,
  otherwise an estimate ``b^d`` from the measured branching factor (marked "≈"), plus the cut-off rule in force;
* a step-through of the search in visiting order (next / previous, play / pause, speed) with the current path
  and its live alpha and beta highlighted; keys Page Down / Page Up, arrows, Space, Home, End (a presenter's
  clicker sends Page Up / Page Down);
* export of the tree as SVG, PNG, DOT, JSON and a text trace (:func:`gameplay.tree_export.export_tree`).

Bounded recording: :class:`DecisionRecorder` keeps the deepest iterative-deepening iteration whose nodes all fit
in ``max_nodes`` (the real search of the AI, not a re-run); the overlay says which iteration it shows when the
move came from a deeper one.

Nothing happens at import time; the overlay needs ``pygame.font`` only when it draws.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pygame

from ai.decision_model import AFFORDABLE_MINIMAX as AFFORDABLE_MINIMAX
from ai.decision_model import COUNT_LIMIT as COUNT_LIMIT
from ai.decision_model import MinimaxCount as MinimaxCount
from ai.decision_model import TreeInfo as TreeInfo
from ai.decision_model import count_full_tree as count_full_tree
from ai.decision_model import decision_info as decision_info
from ai.decision_model import estimate_full_tree as estimate_full_tree
from ai.decision_model import measured_branching as measured_branching
from ai.decision_model import start_minimax_count as start_minimax_count
from ai.decision_tree import DEFAULT_MAX_NODES as DEFAULT_MAX_NODES
from ai.decision_tree import make_recorder as make_recorder
from ai.recording import CHANCE, INF, MAX, MIN, DecisionRecorder, RecordedNode, SearchTree
from ai.trace import PartialNode, StepEvent, kind_text, live_window, node_path, path_text, step_events
from ai.trace import _num as _num
from gameplay.tree_layout import (
    COLLAPSED,
    NODE,
    PRUNED,
    LayoutNode,
    Picture,
    TreeLayout,
    build_picture,
    layout,
)
from gameplay.ui import projector
from gameplay.ui.tree_png import draw_picture, hit_rects, measure_text

EXPORT_SUFFIXES = (".svg", ".png", ".dot", ".json", ".txt")
"""What the Export button writes, one file each."""
SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
"""Step-through speeds in steps per second."""
FONT_SIZE = 20.0
"""Body text of the tree picture in pixels at zoom 1 (the default zoom never goes under 0.9: 18 px)."""
MIN_DEFAULT_ZOOM = 0.9
BG = (255, 255, 255)
INK = (17, 17, 17)
MUTED = (77, 77, 77)
PANEL_BG = (242, 242, 242)
RULE = (190, 190, 190)
PATH = (204, 121, 167)
"""Okabe-Ito reddish purple: the current path of the step-through."""
CURRENT = (0, 0, 0)
BUTTON_BG = (230, 234, 242)
BUTTON_HOVER = (205, 215, 235)
BUTTON_ON = (0, 114, 178)


def default_export_dir() -> Path:
    """Where the Export button writes: ``$ARCADE_EXPORT_DIR``, else ``~/Documents/search-trees`` (or
    ``~/search-trees`` without a Documents folder)."""
    env = os.environ.get("ARCADE_EXPORT_DIR")
    if env:
        return Path(env).expanduser()
    home = Path.home()
    docs = home / "Documents"
    return (docs if docs.is_dir() else home) / "search-trees"


def export_all(tree: SearchTree, folder: str | Path, stem: str, summary: dict[str, Any] | None = None
               ) -> list[Path]:
    """Write ``tree`` as SVG, PNG, DOT, JSON and a text trace into ``folder`` (created if missing).

    Returns:
        The files written.

    Raises:
        OSError: the folder or a file cannot be written.
        GameError: the PNG writer is unavailable.
    """
    from gameplay.tree_export import export_tree
    d = Path(folder)
    d.mkdir(parents=True, exist_ok=True)
    return [export_tree(tree, d / f"{stem}{suffix}", summary) for suffix in EXPORT_SUFFIXES]


def _ensure_fonts() -> None:
    """Forget the cached fonts (``gameplay.ui.tree_png``) made before a ``pygame.quit()`` (they raise "font
    module quit since font created")."""
    from gameplay.ui import tree_png
    if not pygame.font.get_init():
        pygame.font.init()
    probe = next(iter(tree_png._FONTS.values()), None)
    if probe is not None:
        try:
            probe.size("x")
        except pygame.error:
            tree_png._FONTS.clear()


def _font(px: float, bold: bool = False) -> pygame.font.Font:
    """pygame's default font with glyphs about ``px`` design pixels tall at the interface scale (the one cache
    in ``gameplay.ui.tree_png``)."""
    from gameplay.ui.tree_png import _font as cached_font
    return cached_font(max(6.0, px * projector.scale()), bold)


def _text(s: str) -> str:
    """Replace the characters pygame's default font lacks (it draws them as boxes): ``∞``, ``≈``, arrows..."""
    from gameplay.ui.tree_png import safe_text
    return safe_text(s)


def wrap(text: str, font: pygame.font.Font, width: int) -> list[str]:
    """Split ``text`` into lines no wider than ``width`` pixels (at spaces)."""
    words = _text(text).split(" ")
    lines: list[str] = []
    cur = ""
    for w in words:
        t = w if not cur else cur + " " + w
        if font.size(t)[0] <= width or not cur:
            cur = t
        else:
            lines.append(cur)
            cur = w
    if cur:
        lines.append(cur)
    return lines


# ----------------------------------------------------------------------------------------------------------------
# The overlay
# ----------------------------------------------------------------------------------------------------------------
class TreeOverlay:
    """Draws a recorded search tree into a rectangle, with counters, step-through, hover boards and export.

    Used by the match scene (over the board, key T) and by the Tree Lab (embedded, always visible).

    Args:
        closable: show the Close button (the match overlay).
        on_click: called with the layout item clicked (a node or a pruned placeholder); ``+N`` markers are
            opened by the overlay itself.
        export_dir: folder the Export button writes to (default :func:`default_export_dir`).
        font_size: body text of the tree at zoom 1, in pixels.
        whole: show every node (no collapsing): the Tree Lab's small trees.
    """

    def __init__(self, *, closable: bool = True, on_click: Callable[[LayoutNode], None] | None = None,
                 export_dir: str | Path | None = None, font_size: float = FONT_SIZE, whole: bool = False) -> None:
        self.whole = whole
        """Lay out every node (the Tree Lab's small trees) instead of collapsing levels."""
        self.visible = False
        self.closable = closable
        self.on_click = on_click
        self.export_dir = Path(export_dir) if export_dir is not None else None
        self.font_size = font_size
        self.tree: SearchTree | None = None
        self.info: TreeInfo | None = None
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.zoom = 1.0
        self._min_zoom = 0.3
        self.offset: tuple[float, float] = (0.0, 0.0)
        self.expand: set[int] = set()
        self.max_depth: int | None = None
        self.lay: TreeLayout | None = None
        self.events: list[StepEvent] = []
        self.step: int | None = None
        """Index into :attr:`events` of the replay's current step; ``None``: the finished search."""
        self.playing = False
        self.speed_index = 2
        self.selected_id: int | None = None
        """A recorded node drawn with a selection ring (the Tree Lab's editor)."""
        self.message = ""
        """One line under the buttons (where the export went, errors)."""
        self.hover_item: LayoutNode | None = None
        self.mouse: tuple[int, int] = (0, 0)
        self._by_id: dict[int, RecordedNode] = {}
        self._acc = 0.0
        self._drag: tuple[int, int, float, float] | None = None
        self._dragged = False
        self._pic: Picture | None = None
        self._pic_lay: TreeLayout | None = None
        self._pic_key: tuple[Any, ...] | None = None
        self._canvas: pygame.Surface | None = None
        self._canvas_key: tuple[Any, ...] | None = None
        self._hits: list[tuple[pygame.Rect, LayoutNode]] = []
        self._buttons: list[tuple[str, pygame.Rect, str]] = []
        self._layout_version = 0
        self._follow = False

    # -- geometry --------------------------------------------------------------------------------------------------
    def set_rect(self, rect: pygame.Rect) -> None:
        """Place the overlay (on enter and resize); the tree is fitted again when the size changed."""
        changed = rect.size != self.rect.size
        self.rect = pygame.Rect(rect)
        if changed and self.tree is not None:
            self._relayout(fit=True)

    @property
    def header_rect(self) -> pygame.Rect:
        """Title lines at the top."""
        r = self.rect
        return pygame.Rect(r.x, r.y, r.width, projector.px(70))

    @property
    def bar_rect(self) -> pygame.Rect:
        """The button bar (two rows when narrow) and the message line at the bottom."""
        r = self.rect
        h = projector.px(112 if r.width < projector.px(1100) else 78)
        return pygame.Rect(r.x, r.bottom - h, r.width, h)

    @property
    def side_rect(self) -> pygame.Rect:
        """The counter and step panel on the right."""
        r = self.rect
        w = int(min(projector.px(400), max(projector.px(290), r.width * (0.22 if self.whole else 0.28))))
        top = self.header_rect.bottom
        return pygame.Rect(r.right - w, top, w, self.bar_rect.top - top)

    @property
    def canvas_rect(self) -> pygame.Rect:
        """Where the tree is drawn."""
        top = self.header_rect.bottom
        return pygame.Rect(self.rect.x, top, max(50, self.side_rect.left - self.rect.x),
                           max(50, self.bar_rect.top - top))

    # -- content ---------------------------------------------------------------------------------------------------
    def set_tree(self, tree: SearchTree, info: TreeInfo, *, keep_view: bool = False) -> None:
        """Show ``tree`` (the replay restarts at the finished search; the view is fitted unless ``keep_view``)."""
        if self.info is not None and self.info.minimax is not info.minimax:
            self.info.minimax.stop.set()
        self.tree = tree
        self.info = info
        self._by_id = {n.id: n for n in tree.nodes}
        self.events = step_events(tree)
        self.step = None
        self.playing = False
        self.hover_item = None
        if not keep_view:
            self.expand = set()
        self._relayout(fit=not keep_view)

    def clear(self) -> None:
        """Show no tree (a new game, or everything undone): the overlay hides until the next decision."""
        if self.info is not None:
            self.info.minimax.stop.set()
        self.tree = None
        self.info = None
        self._by_id = {}
        self.events = []
        self.step = None
        self.hide()

    def close(self) -> None:
        """Stop background work (the minimax count)."""
        if self.info is not None:
            self.info.minimax.stop.set()

    def show(self) -> None:
        """Make the overlay visible."""
        self.visible = True

    def hide(self) -> None:
        """Hide the overlay (the replay pauses)."""
        self.visible = False
        self.playing = False

    def toggle(self) -> bool:
        """Show or hide; returns the new visibility."""
        if self.visible:
            self.hide()
        else:
            self.show()
        return self.visible

    def _level_height(self) -> float:
        s = self.font_size / 20.0
        show_window = self.lay.show_window if self.lay is not None else True
        return 2 * 31 * s + (2 if show_window else 1) * 1.25 * self.font_size + 70 * s

    def _relayout(self, fit: bool = False) -> None:
        if self.tree is None:
            return
        canvas = self.canvas_rect
        if self.whole:
            self.lay = layout(self.tree, max_depth=None, max_children=None, collapse=None, max_width=None)
            self._layout_version += 1
            self._pic_key = None
            if fit:
                self.fit()
            return
        unit = 130.0 * self.font_size / 20.0 * MIN_DEFAULT_ZOOM
        max_width = max(5, int(canvas.width / unit))
        if fit or self.max_depth is None:
            levels = int((canvas.height - 60) / (self._level_height() * MIN_DEFAULT_ZOOM))
            self.max_depth = max(2, levels - 1)
        for mw in range(max_width, 3, -1):
            # narrow the budget until the picture fits the canvas at the smallest default zoom
            self.lay = layout(self.tree, max_depth=self.max_depth, max_children=min(12, mw), collapse=90,
                              max_width=mw, expand=self.expand)
            self._layout_version += 1
            self._pic_key = None
            pic = self._picture()[0]
            if pic is None or pic.width * MIN_DEFAULT_ZOOM <= canvas.width - 10:
                break
        if fit:
            self.fit()

    def fit(self, whole: bool = False) -> None:
        """Fit the picture into the canvas.

        Args:
            whole: the user's Fit (the button, key 0): the whole picture, at whatever zoom that takes (text can go
                under 18 px). Otherwise the default view: the whole picture when it fits with text of at least
                18 px, else that zoom with the principal variation in view.
        """
        pic = self._picture()[0]
        if pic is None:
            return
        c = self.canvas_rect
        z = min(1.0, (c.width - 20) / max(1.0, pic.width), (c.height - 10) / max(1.0, pic.height))
        if whole:
            self.zoom = max(0.02, z)
            self._min_zoom = min(0.3, self.zoom)
            self.offset = ((c.width - pic.width * self.zoom) / 2, 4.0)
            return
        self.zoom = max(MIN_DEFAULT_ZOOM, z)
        self._center_on_root(pic)

    def _center_on_root(self, pic: Picture) -> None:
        c = self.canvas_rect
        root = next((h for h in pic.hits if h[0] == 0), None)
        w = pic.width * self.zoom
        if w <= c.width:
            ox = (c.width - w) / 2
        elif root is not None:
            rx = (root[1][0] + root[1][2] / 2) * self.zoom
            # the left edge when the root is still well inside, else the root centred
            ox = 0.0 if rx < c.width - 160 else min(0.0, max(c.width - w, c.width / 2 - rx))
        else:
            ox = 0.0
        lay = self._pic_lay
        if lay is not None and w > c.width:
            # keep the principal variation in view (centred when it fits): it is what the teacher explains first
            pv = sorted((h[1][1], h[1][0] * self.zoom, (h[1][0] + h[1][2]) * self.zoom) for h in pic.hits
                        if 0 <= h[0] < len(lay.nodes) and getattr(lay.nodes[h[0]], "on_pv", False))
            if pv:
                # from the root down, as much of the line as the canvas holds, centred
                lo, hi = pv[0][1], pv[0][2]
                for _, a, b in pv[1:]:
                    if max(hi, b) - min(lo, a) > c.width - 20:
                        break
                    lo, hi = min(lo, a), max(hi, b)
                ox = min(0.0, max(c.width - w, c.width / 2 - (lo + hi) / 2))
        self.offset = (ox, 4.0)

    def set_zoom(self, z: float, about: tuple[float, float] | None = None) -> None:
        """Zoom to ``z`` (clamped to 0.3..3, or down to the zoom of the last Fit) keeping ``about`` fixed."""
        z = max(min(0.3, getattr(self, "_min_zoom", 0.3)), min(3.0, z))
        c = self.canvas_rect
        ax, ay = about if about is not None else (c.width / 2, c.height / 2)
        ox, oy = self.offset
        k = z / self.zoom
        self.offset = (ax - (ax - ox) * k, ay - (ay - oy) * k)
        self.zoom = z

    # -- the replay ------------------------------------------------------------------------------------------------
    @property
    def speed(self) -> float:
        """Replay speed in steps per second."""
        return SPEEDS[self.speed_index]

    def current_event(self) -> StepEvent | None:
        """The replay's current step, or ``None`` when the whole search is shown."""
        if self.step is None or not self.events:
            return None
        return self.events[self.step]

    def current_node(self) -> RecordedNode | None:
        """The node of the current step (``None``: the finished search)."""
        ev = self.current_event()
        return None if ev is None else self._by_id.get(ev.node)

    def next_step(self) -> None:
        """One step forward (from the finished view: the first step)."""
        if not self.events:
            return
        if self.step is None:
            self.step = 0
        elif self.step < len(self.events) - 1:
            self.step += 1
        else:
            self.playing = False
        self._pic_key = None

    def prev_step(self) -> None:
        """One step back (from the finished view: the last step)."""
        if not self.events:
            return
        if self.step is None:
            self.step = len(self.events) - 1
        elif self.step > 0:
            self.step -= 1
        self._pic_key = None

    def first_step(self) -> None:
        """Go to the first step (the search enters the root)."""
        if self.events:
            self.step = 0
            self._pic_key = None

    def finish(self) -> None:
        """Show the whole finished search again."""
        self.step = None
        self.playing = False
        self._pic_key = None

    def toggle_play(self) -> None:
        """Play or pause the replay (playing from the finished view starts at the first step)."""
        if not self.events:
            return
        self.playing = not self.playing
        if self.playing and (self.step is None or self.step >= len(self.events) - 1):
            self.step = 0
            self._pic_key = None
        self._acc = 0.0

    def faster(self) -> None:
        """Next replay speed."""
        self.speed_index = min(len(SPEEDS) - 1, self.speed_index + 1)

    def slower(self) -> None:
        """Previous replay speed."""
        self.speed_index = max(0, self.speed_index - 1)

    def cycle_speed(self) -> None:
        """The speed button: the next speed, wrapping round."""
        self.speed_index = (self.speed_index + 1) % len(SPEEDS)

    def update(self, dt: float) -> None:
        """Advance the replay when playing; collect the background minimax count."""
        if self.playing and self.visible:
            self._acc += dt
            period = 1.0 / self.speed
            while self._acc >= period and self.playing:
                self._acc -= period
                self.next_step()

    # -- export ------------------------------------------------------------------------------------------------
    def export(self, folder: str | Path | None = None) -> list[Path]:
        """Write the tree in every format (see :func:`export_all`) and say where in :attr:`message`."""
        if self.tree is None or self.info is None:
            self.message = "Nothing to export yet"
            return []
        d = Path(folder) if folder is not None else (self.export_dir or default_export_dir())
        summary = dict(self.info.summary)
        mm = self.info.minimax
        if mm.nodes is not None and "minimax_nodes" not in summary:
            summary["minimax_nodes"] = mm.nodes if mm.exact else f"about {mm.nodes}"
        stem = f"{self.info.stem}-{time.strftime('%Y%m%d-%H%M%S')}"
        try:
            files = export_all(self.tree, d, stem, summary)
        except Exception as e:  # noqa: BLE001 - shown to the user, the window goes on
            self.message = f"Export failed: {e}"
            return []
        self.message = f"Saved {stem}.svg/.png/.dot/.json/.txt in {d}"
        return files

    # -- events ------------------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        """Keys, wheel, drag, hover and clicks while visible. Returns True when the event was used.

        Keys: Page Down / Right / Down = next step, Page Up / Left / Up = previous, Space = play / pause,
        Home = first step, End = the finished search, ``+`` / ``-`` zoom, ``0`` fit, ``[`` / ``]`` speed,
        ``E`` export.
        """
        if not self.visible or self.tree is None:
            return False
        if event.type == pygame.KEYDOWN:
            return self._key(event)
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            if self._drag is not None:
                x0, y0, ox, oy = self._drag
                dx, dy = event.pos[0] - x0, event.pos[1] - y0
                if abs(dx) + abs(dy) > 4:
                    self._dragged = True
                if self._dragged:
                    self.offset = (ox + dx, oy + dy)
                return True
            self.hover_item = self._item_at(event.pos)
            return self.rect.collidepoint(event.pos)
        if event.type == pygame.MOUSEWHEEL:
            if not self.canvas_rect.collidepoint(self.mouse):
                return False
            c = self.canvas_rect
            self.set_zoom(self.zoom * (1.15 if event.y > 0 else 1 / 1.15),
                          (self.mouse[0] - c.x, self.mouse[1] - c.y))
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 2, 3):
            if not self.rect.collidepoint(event.pos):
                return False
            for name, r, _ in self._buttons:
                if r.collidepoint(event.pos):
                    if event.button == 1:
                        self._press(name)
                    return True
            if self.canvas_rect.collidepoint(event.pos):
                self._drag = (event.pos[0], event.pos[1], self.offset[0], self.offset[1])
                self._dragged = False
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button in (1, 2, 3):
            if self._drag is None:
                return self.rect.collidepoint(event.pos)
            self._drag = None
            if not self._dragged and event.button == 1:
                self.click(event.pos)
            return True
        return False

    def _key(self, event: pygame.event.Event) -> bool:
        k = event.key
        if k in (pygame.K_PAGEDOWN, pygame.K_RIGHT, pygame.K_DOWN):
            self.playing = False
            self.next_step()
        elif k in (pygame.K_PAGEUP, pygame.K_LEFT, pygame.K_UP):
            self.playing = False
            self.prev_step()
        elif k == pygame.K_SPACE:
            self.toggle_play()
        elif k == pygame.K_HOME:
            self.first_step()
        elif k == pygame.K_END:
            self.finish()
        elif k in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.set_zoom(self.zoom * 1.2)
        elif k in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.set_zoom(self.zoom / 1.2)
        elif k in (pygame.K_0, pygame.K_KP0):
            self.fit(whole=True)
        elif k == pygame.K_RIGHTBRACKET:
            self.faster()
        elif k == pygame.K_LEFTBRACKET:
            self.slower()
        elif k == pygame.K_e and not event.mod & pygame.KMOD_CTRL:
            self.export()
        else:
            return False
        return True

    def _press(self, name: str) -> None:
        actions: dict[str, Callable[[], None]] = {
            "first": self.first_step, "prev": lambda: (self._stop_play(), self.prev_step())[-1],
            "play": self.toggle_play, "next": lambda: (self._stop_play(), self.next_step())[-1],
            "end": self.finish, "speed": self.cycle_speed, "zoom_out": lambda: self.set_zoom(self.zoom / 1.2),
            "zoom_in": lambda: self.set_zoom(self.zoom * 1.2), "fit": lambda: self.fit(whole=True),
            "export": lambda: (self.export(), None)[-1],
            "close": self.hide,
        }
        fn = actions.get(name)
        if fn is not None:
            fn()

    def _stop_play(self) -> None:
        self.playing = False

    def _item_at(self, pos: tuple[int, int]) -> LayoutNode | None:
        c = self.canvas_rect
        if not c.collidepoint(pos):
            return None
        p = (pos[0] - c.x, pos[1] - c.y)
        for r, it in self._hits:
            if r.collidepoint(p):
                return it
        return None

    def click(self, pos: tuple[int, int]) -> LayoutNode | None:
        """A click on the canvas: open a ``+N`` marker, or hand the item to ``on_click``. Returns the item."""
        it = self._item_at(pos)
        if it is None:
            return None
        if it.kind == COLLAPSED:
            lay = self._pic_lay or self.lay
            par = lay.nodes[it.parent] if lay is not None and it.parent is not None else None
            if par is not None and par.node is not None:
                self.expand.add(par.node.id)
                self._relayout()
            return it
        if self.on_click is not None:
            self.on_click(it)
        elif it.kind == NODE and it.node is not None and self.events:
            # jump the replay to the moment the search reached this node
            self.playing = False
            self.step = next(i for i, e in enumerate(self.events) if e.node == it.node.id and not e.leaving)
            self._pic_key = None
        return it

    # -- building the picture ----------------------------------------------------------------------------------
    def _step_layout(self) -> TreeLayout | None:
        """The full layout, or at a replay step only what the search has reached (same positions)."""
        lay = self.lay
        ev = self.current_event()
        if lay is None or ev is None:
            return lay
        o = ev.order
        keep: list[LayoutNode] = []
        new_index: dict[int, int] = {}
        for it in lay.nodes:
            par = lay.nodes[it.parent] if it.parent is not None else None
            if par is not None and par.index not in new_index:
                continue
            if it.kind == NODE:
                n = it.node
                assert n is not None
                if n.enter_order > o:
                    continue
                node: RecordedNode = n
                if n.leave_order > o:
                    node = self._partial(n, o)
            elif it.kind == PRUNED:
                pn = par.node if par is not None else None
                if pn is None or pn.leave_order > o:
                    continue
                node = None  # type: ignore[assignment]
            else:
                pn = par.node if par is not None else None
                if pn is None or pn.enter_order > o:
                    continue
                node = None  # type: ignore[assignment]
            idx = len(keep)
            new_index[it.index] = idx
            keep.append(LayoutNode(idx, it.kind, new_index[it.parent] if it.parent is not None else None,
                                   it.depth, it.shape, node if it.kind == NODE else None, it.moves, it.hidden,
                                   it.hidden_pruned, it.reason, it.on_pv and (it.node is None or
                                                                              it.node.leave_order <= o),
                                   it.x, []))
        for it in keep:
            if it.parent is not None:
                keep[it.parent].children.append(it.index)
        return TreeLayout(lay.tree, keep, lay.width, lay.depth, lay.shown, lay.hidden, lay.show_window)

    def _partial(self, n: RecordedNode, order: int) -> PartialNode:
        """``n`` while the search is still below it: the bound its finished children prove so far."""
        done = [self._by_id[k] for k in n.children if k in self._by_id and self._by_id[k].leave_order <= order]
        lo, hi = -INF, INF
        if done and n.kind == MAX:
            lo = max(c.lo for c in done)
        elif done and n.kind == MIN:
            hi = min(c.hi for c in done)
        fields = {f.name: getattr(n, f.name) for f in dataclasses.fields(RecordedNode)}
        fields.update(lo=lo, hi=hi, skipped=(), note="", on_pv=False,
                      children=tuple(c.id for c in done))
        return PartialNode(**fields, pending=True)

    def _picture(self) -> tuple[Picture | None, TreeLayout | None]:
        key = (self._layout_version, self.step, self.font_size)
        if self._pic_key != key:
            _ensure_fonts()
            self._follow = self.step is not None
            lay = self._step_layout()
            self._pic_lay = lay
            self._pic = None if lay is None else build_picture(lay, None, font_size=self.font_size, header=False,
                                                               legend=True, measure=measure_text)
            self._pic_key = key
        return self._pic, self._pic_lay

    # -- drawing ---------------------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        """Draw the overlay (when visible) into :attr:`rect` of ``surface``."""
        if not self.visible or self.rect.width <= 0:
            return
        _ensure_fonts()
        pygame.draw.rect(surface, BG, self.rect)
        if self.tree is None or self.info is None:
            self._draw_header(surface, "No AI decision yet", ("The tree of the AI's next move will appear here.",))
            self._draw_bar(surface)
            return
        self._draw_canvas(surface)
        self._draw_header(surface, self.info.title, self.info.notes)
        self._draw_side(surface)
        self._draw_bar(surface)
        self._draw_hover(surface)
        pygame.draw.rect(surface, INK, self.rect, 2)

    def _draw_header(self, surface: pygame.Surface, title: str, notes: Sequence[str]) -> None:
        r = self.header_rect
        pygame.draw.rect(surface, PANEL_BG, r)
        pygame.draw.line(surface, RULE, r.bottomleft, (r.right - 1, r.bottom), 2)
        f1, f2 = _font(24, True), _font(18)
        surface.blit(f1.render(_text(title), True, INK), (r.x + 14, r.y + 6))
        line = "   ".join(notes)
        if line:
            lines = wrap(line, f2, r.width - 28)
            surface.blit(f2.render(lines[0], True, MUTED), (r.x + 14, r.y + projector.px(40)))

    def _draw_canvas(self, surface: pygame.Surface) -> None:
        pic, lay = self._picture()
        c = self.canvas_rect
        if pic is None or lay is None:
            return
        cur = self.current_node()
        key = (self._pic_key, round(self.zoom, 4), tuple(round(v) for v in self.offset), c.size,
               cur.id if cur else None, self.selected_id)
        if self._canvas is None or self._canvas.get_size() != c.size:
            self._canvas = pygame.Surface(c.size)
            self._canvas_key = None
        if self._canvas_key != key:
            canvas = self._canvas
            canvas.fill(BG)
            self._hits = hit_rects(pic, lay, zoom=self.zoom, offset=self.offset)
            rects = {it.node.id: r for r, it in self._hits if it.node is not None}
            if cur is not None and self._follow:
                self._follow = False
                shown_id = next((p.id for p in reversed(node_path(self._by_id, cur.id)) if p.id in rects), None)
                if shown_id is not None:
                    target = rects[shown_id].inflate(60, 60)
                    if not canvas.get_rect().contains(target):
                        ox, oy = self.offset
                        cr = canvas.get_rect()
                        dx = cr.centerx - target.centerx if not (0 <= target.left and target.right <= cr.right) else 0
                        dy = cr.centery - target.centery if not (0 <= target.top and target.bottom <= cr.bottom) else 0
                        self.offset = (ox + dx, oy + dy)
                        self._hits = hit_rects(pic, lay, zoom=self.zoom, offset=self.offset)
                        rects = {it.node.id: r for r, it in self._hits if it.node is not None}
                        key = key[:2] + (tuple(round(v) for v in self.offset),) + key[3:]
            path_ids = [p.id for p in node_path(self._by_id, cur.id)] if cur is not None else []
            visible_path = [i for i in path_ids if i in rects]
            for a, b in itertools.pairwise(visible_path):
                pygame.draw.line(canvas, PATH, rects[a].center, rects[b].center, max(6, round(16 * self.zoom)))
            draw_picture(canvas, pic, zoom=self.zoom, offset=self.offset, clear=False)
            for i in visible_path:
                pygame.draw.rect(canvas, PATH, rects[i].inflate(14, 14), 5, border_radius=10)
            if cur is not None:
                shown = visible_path[-1] if visible_path else None
                if shown is not None:
                    r = rects[shown].inflate(26, 26)
                    pygame.draw.rect(canvas, CURRENT, r, 4, border_radius=12)
                    self._draw_callout(canvas, r, cur, hidden=shown != cur.id)
            if self.selected_id is not None and self.selected_id in rects:
                pygame.draw.rect(canvas, (0, 114, 178), rects[self.selected_id].inflate(20, 20), 4,
                                 border_radius=10)
            self._canvas_key = key
        surface.blit(self._canvas, c.topleft)

    def _draw_callout(self, canvas: pygame.Surface, r: pygame.Rect, cur: RecordedNode, hidden: bool) -> None:
        ev = self.current_event()
        assert ev is not None
        verb = "leaving" if ev.leaving else "entering"
        bits = [f"{verb} {cur.move or 'root'}" + (" (further down, hidden)" if hidden else "")]
        if self.lay is not None and self.lay.show_window and cur.kind != CHANCE:
            a, b = live_window(self._by_id, cur, ev.order)
            bits.append(f"α={_num(a)} β={_num(b)}")
        f = _font(18, False)
        img = f.render(_text("  ".join(bits)), True, (255, 255, 255))
        box = img.get_rect()
        box.midleft = (r.right + 8, r.top + 4)
        if box.right > canvas.get_width() - 4:
            box.midright = (r.left - 8, r.top + 4)
        pygame.draw.rect(canvas, CURRENT, box.inflate(12, 8), border_radius=6)
        canvas.blit(img, box)

    def _draw_side(self, surface: pygame.Surface) -> None:
        assert self.tree is not None and self.info is not None
        r = self.side_rect
        pygame.draw.rect(surface, PANEL_BG, r)
        pygame.draw.line(surface, RULE, r.topleft, r.bottomleft, 2)
        x, y, w = r.x + 14, r.y + 10, r.width - 26
        fb, fr, fs = _font(20, True), _font(19), _font(18)
        t = self.tree

        def row(label: str, value: str, bold: bool = False) -> None:
            nonlocal y
            lines = wrap(label, fr, w) or [""]
            for line in lines[:-1]:  # a long label wraps; the value stands beside its last line
                surface.blit(fr.render(line, True, INK), (x, y))
                y += projector.px(26)
            img = fr.render(lines[-1], True, INK)
            surface.blit(img, (x, y))
            v = (fb if bold else fr).render(_text(value), True, INK)
            if img.get_width() + v.get_width() + projector.px(8) > w:
                y += projector.px(30)  # no room beside the label: the value goes on its own line
            surface.blit(v, (x + w - v.get_width(), y))
            y += projector.px(30)

        def para(text: str, color: tuple[int, int, int] = MUTED, font: pygame.font.Font = fs) -> None:
            nonlocal y
            for line in wrap(text, font, w):
                if y > r.bottom - 26:
                    return
                surface.blit(font.render(line, True, color), (x, y))
                y += font.get_linesize() - 2
            y += projector.px(6)  # a little air before the next counter

        surface.blit(fb.render("Counters", True, INK), (x, y))
        y += projector.px(34)
        c = self.info.counts
        if c is None:
            row("Nodes visited", f"{t.visited:,}", True)
        else:
            unit = "" if t.algorithm != "expectimax" else " (decisions)"
            row(f"Nodes in this tree (depth {c.shown_depth} iteration{unit})", f"{t.visited:,}", True)
            if c.capture_nodes:
                para(f"{c.drawn_nodes:,} drawn; the other {c.capture_nodes:,} are the capture search below the "
                     "leaves (counted, not drawn)")
            elif not c.shown_whole:
                para(f"only the first {c.drawn_nodes:,} were recorded")
            row("Nodes, all iterations", f"{c.total_nodes:,}", True)
            para(f"{c.iterations} iteration{'s' if c.iterations != 1 else ''} to depth {c.final_depth}: the "
                 "count the side panel and analyze show")
        tree_part = "" if c is None else " in this tree"
        row(f"Leaves evaluated{tree_part}", f"{t.leaves:,}")
        if t.algorithm != "expectimax":
            row(f"Cut-offs{tree_part}", f"{t.cutoffs:,}")
        if t.tt_hits:
            row(f"Table hits{tree_part}", f"{t.tt_hits:,}")
        mm = self.info.minimax
        depth = self.info.depth
        row(f"Plain minimax, depth {depth}" if depth else "Plain minimax", mm.text(), True)
        if mm.status == "estimate":
            para(f"estimate: 1 + b + ... + b^{mm.depth} with the measured branching b ≈ {mm.branching:.1f}")
        elif mm.status == "same":
            para("expectimax cuts nothing: below a chance node every outcome counts"
                 if t.algorithm == "expectimax" else "plain minimax cuts nothing: the same tree")
        ab = self.info.compared_nodes(t)
        if mm.nodes and mm.status in ("exact", "estimate") and ab <= mm.nodes:
            saved = 100.0 * (1 - ab / mm.nodes)
            at = f" at depth {depth}" if depth else ""
            without = f" ({ab:,} without the capture search)" if ab != t.visited else ""
            name = {"alphabeta": "alpha-beta"}.get(t.algorithm, t.algorithm)
            para(f"{name} visited {100 - saved:.1f}% of them{at}{without}: saved {saved:.1f}%", INK)
        y += 4
        if t.algorithm == "alphabeta":
            rule = "α ≥ β (prune on equality)" if t.prune != "gt" else "α > β (strict)"
            para(f"Cut-off rule: {rule}", INK, fr)
        elif t.algorithm == "minimax":
            para("Plain minimax: nothing is cut off", INK, fr)
        else:
            para("Expectimax: chance nodes average their outcomes (Σ p·v)", INK, fr)
        y += 8
        pygame.draw.line(surface, RULE, (x, y), (x + w, y), 2)
        y += 10
        surface.blit(fb.render("Step-through", True, INK), (x, y))
        y += projector.px(34)
        ev = self.current_event()
        cur = self.current_node()
        if ev is None or cur is None:
            para(f"The finished search ({len(self.events)} steps). Page Down, the right arrow or Next steps "
                 "through it in visiting order; Space plays.", INK, fs)
        else:
            state = "playing" if self.playing else "paused"
            para(f"Step {self.step + 1 if self.step is not None else 0} of {len(self.events)} "
                 f"({state}, {self.speed:g}/s)", INK, fr)
            path = node_path(self._by_id, cur.id)
            verb = "Leaving" if ev.leaving else "Entering"
            what = kind_text(cur)
            val = ""
            if ev.leaving:
                val = f": value {cur.label()}"
                if cur.skipped:
                    val += f", cut off {len(cur.skipped)} move{'s' if len(cur.skipped) > 1 else ''}"
            para(f"{verb} {what} {path_text(path)}{val}", INK, fr)
            if self.lay is not None and self.lay.show_window:
                y += 4
                para("Current path (α, β now):", MUTED, fs)
                for p in path[-6:]:
                    if p.kind == CHANCE:
                        continue
                    a, b = live_window(self._by_id, p, ev.order)
                    mv = p.move or "root"
                    para(f"{mv} {p.kind}: α={_num(a)} β={_num(b)}", PATH if p.id != cur.id else INK, fs)

    def _draw_bar(self, surface: pygame.Surface) -> None:
        r = self.bar_rect
        pygame.draw.rect(surface, PANEL_BG, r)
        pygame.draw.line(surface, RULE, r.topleft, (r.right - 1, r.top), 2)
        specs: list[tuple[str, str]] = [("first", "|< Start"), ("prev", "< Prev"),
                                        ("play", "Pause" if self.playing else "Play"), ("next", "Next >"),
                                        ("end", "End >|"), ("speed", f"Speed {self.speed:g}/s"),
                                        ("zoom_out", "Zoom -"), ("zoom_in", "Zoom +"), ("fit", "Fit"),
                                        ("export", "Export")]
        if self.closable:
            specs.append(("close", "Close (T)"))
        f = _font(18, False)
        pad, gap, bh = 12, 8, projector.px(36)
        x, y = r.x + 10, r.y + 8
        self._buttons = []
        for name, label in specs:
            bw = f.size(label)[0] + 2 * pad
            if x + bw > r.right - 10:
                x, y = r.x + 10, y + bh + 6
            rect = pygame.Rect(x, y, bw, bh)
            hot = rect.collidepoint(self.mouse)
            on = name == "play" and self.playing
            pygame.draw.rect(surface, BUTTON_ON if on else (BUTTON_HOVER if hot else BUTTON_BG), rect,
                             border_radius=6)
            pygame.draw.rect(surface, INK, rect, 2, border_radius=6)
            img = f.render(label, True, (255, 255, 255) if on else INK)
            surface.blit(img, img.get_rect(center=rect.center))
            self._buttons.append((name, rect, label))
            x += bw + gap
        hint = self.message or ("PgDn/PgUp or arrows: step   Space: play   Home/End   wheel/drag: zoom/pan   "
                                "click +N: open   E: export")
        img = f.render(_text(hint), True, INK if self.message else MUTED)
        surface.blit(img, (r.x + 12, min(r.bottom - 26, y + bh + 6)))

    def _draw_hover(self, surface: pygame.Surface) -> None:
        it = self.hover_item
        if it is None or self._drag is not None or self.info is None:
            return
        lines: list[str] = []
        board_state: Any = None
        n = it.node
        lay = self._pic_lay
        if it.kind == NODE and n is not None:
            path = node_path(self._by_id, n.id)
            lines.append(path_text(path))
            lines.append(f"{kind_text(n)}: value {n.label()}")
            if self.lay is not None and self.lay.show_window and n.kind != CHANCE:
                lines.append(f"searched with α={_num(n.alpha_in)} β={_num(n.beta_in)}")
            if n.probability is not None:
                lines.append(f"probability {n.probability:.3g}")
            if n.skipped:
                lines.append(f"cut off: {', '.join(n.skipped[:6])}{' ...' if len(n.skipped) > 6 else ''}")
            if n.note in ("tt", "repetition"):
                lines.append("value from the transposition table" if n.note == "tt" else "repeated position")
            board_state = n.state
        elif it.kind == PRUNED:
            lines.append(f"never searched: {', '.join(it.moves[:6])}")
            if it.reason:
                lines.append(f"cut off because {it.reason}")
            if lay is not None and it.parent is not None:
                pn = lay.nodes[it.parent].node
                board_state = pn.state if pn is not None else None
                if board_state is not None:
                    lines.append("(the position where the cut-off happened)")
        else:
            lines.append(f"{it.hidden} nodes hidden here: click to open")
        show_board = board_state is not None and self.info.view is not None and self.info.game is not None
        f = _font(18)
        tw = max(f.size(_text(s))[0] for s in lines) + 20
        bw = 200 if show_board else 0
        w = max(tw, bw + 20)
        h = len(lines) * (f.get_linesize()) + 16 + (bw + 10 if show_board else 0)
        x, y = self.mouse[0] + 18, self.mouse[1] + 18
        x = min(x, self.rect.right - w - 4)
        y = min(y, self.rect.bottom - h - 4)
        box = pygame.Rect(x, y, w, h)
        pygame.draw.rect(surface, (255, 255, 224), box, border_radius=8)
        pygame.draw.rect(surface, INK, box, 2, border_radius=8)
        yy = y + 8
        for s in lines:
            surface.blit(f.render(_text(s), True, INK), (x + 10, yy))
            yy += f.get_linesize()
        if show_board:
            from gameplay.ui.board import ViewState
            br = pygame.Rect(x + (w - bw) // 2, yy + 4, bw, bw)
            pygame.draw.rect(surface, (22, 26, 36), br)
            try:
                to_move = self.info.game.to_move(board_state)
            except Exception:  # noqa: BLE001
                to_move = 0
            try:
                self.info.view.draw(surface, br, board_state, ViewState(to_move=to_move))
            except Exception:  # noqa: BLE001 - a board view that cannot draw small shows no board
                pygame.draw.rect(surface, MUTED, br, 2)


def show_decision(overlay: TreeOverlay, game: Any, state: Any, agent: Any, result: Any,
                  recorder: DecisionRecorder | None, *, player_name: str, move_text: str, view: Any = None
                  ) -> bool:
    """Put the AI decision just played into ``overlay``. Returns False when nothing was recorded."""
    if recorder is None:
        return False
    tree = recorder.snapshot(tuple(getattr(result, "pv", ()) or ()))
    if not tree.nodes:
        return False
    info = decision_info(game, state, agent, result, recorder, tree, player_name=player_name,
                         move_text=move_text, view=view)
    start_minimax_count(info, tree)
    overlay.set_tree(tree, info)
    return True

