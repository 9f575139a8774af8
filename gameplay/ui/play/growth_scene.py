"""Figures in the window (issue 15): the tree-growth view and a game's help figure (Pig's policy picture).

:class:`FigureScene` shows one matplotlib figure (:mod:`gameplay.pictures.plots`, drawn on the non-interactive Agg
canvas to RGBA pixels and blitted): the data are computed and the figure drawn on a background thread, so the window
never waits; meanwhile a "computing..." line says what is being measured. The figure is drawn for the window's
size with its smallest text ``projector.px(18)`` pixels tall (24 px at 1920x1080, the presenter's projector), and
drawn again when the window changes size. Buttons: Export PNG (E: the figure at 1920x1080 as
``<stem>-YYYYmmdd-HHMMSS.png`` in the overlay's export folder) and Back (Esc).

* :class:`GrowthScene`: nodes and seconds against depth for minimax and alpha-beta (three variants) and MCTS from
  one position (:func:`ai.teaching.growth.measure_growth`). Opened by the search-tree overlay's Growth button for the
  game and position of the decision shown (:func:`attach_growth`; not for Pig, whose searches have dice).
* The Tree Lab's Growth button (same bar) opens the growth on **uniform random trees with the current tree's
  branching factor** (its mean number of children, rounded), depths 1-8 (:func:`ai.teaching.growth.tree_growth`): a
  Tree Lab tree is too small to grow by depth itself, and the random trees show the same law with the Tree
  Lab's own searches.
* A game's help figure (:class:`gameplay.ui.boards.board.HelpFigure`, from the game's window parts: Pig's optimal
  hold boundary, expectimax's differences and the win probabilities, the Pig help's "Policy picture"): a
  :class:`FigureScene` of the figure's own functions (:func:`open_help_figure`). The game's parts describe the figure
  with headless functions and this room shows it, so the boards below never import this room.
"""

from __future__ import annotations

import datetime
import threading
from collections.abc import Callable
from concurrent import futures
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from gameplay.rules.extras import install_hint
from gameplay.ui.boards.board import FigureCompute, FigureDraw, HelpFigure
from gameplay.ui.play import race_draw as draw
from gameplay.ui.widgets import projector
from gameplay.ui.widgets.scene import Scene

_WORKER: list[ThreadPoolExecutor] = []


def figure_worker() -> ThreadPoolExecutor:
    """The one thread that computes, draws and exports the window's figures, one job after another (made on first
    use, kept for the program's life). One thread, not one per figure: matplotlib caches its fonts per thread (64
    entries), so a thread per figure held a new set of fonts each time (about 8 MB a figure, measured 2026-12-07)."""
    if not _WORKER:
        _WORKER.append(ThreadPoolExecutor(max_workers=1, thread_name_prefix="figure"))
    return _WORKER[0]


Compute = FigureCompute
"""``compute(stop, progress)``: the figure's data (on the background thread; once ``stop`` is set it may raise any
exception, which is dropped: the figure was left)."""
Draw = FigureDraw
"""``draw(data, size_px, base_px)``: the matplotlib figure of the data."""
NO_MATPLOTLIB = f"Figures need matplotlib: {install_hint('figures')}"


class FigureScene(Scene):
    """One figure, computed and drawn on a background thread (see the module docstring).

    Args:
        heading: what is shown (the line under the figure while computing).
        compute: the data, from a stop event and a progress callback.
        figure: the figure of the data for a size and a smallest text in pixels.
        stem: file name stem of Export.
        export_dir: where Export writes (default :func:`gameplay.pictures.tree_export.default_export_dir`).
    """

    def __init__(self, heading: str, compute: Compute, figure: Draw, *, stem: str,
                 export_dir: str | Path | None = None) -> None:
        super().__init__()
        self.heading = heading
        self.compute = compute
        self.figure = figure
        self.stem = stem
        self.export_dir = Path(export_dir) if export_dir is not None else None
        self.data: Any = None
        """The computed data (``None`` until the thread hands them over)."""
        self.status = f"computing... {heading}"
        """The line under the figure: progress, then what is shown, or the error."""
        self.error: str | None = None
        self.message: str | None = None
        """The last export's result."""
        self.fig_rect = pygame.Rect(0, 0, 0, 0)
        self.surface: pygame.Surface | None = None
        """The drawn figure (for :attr:`fig_rect`'s size), or ``None`` while computing or drawing."""
        self._stop = threading.Event()
        self._job: Future[None] | None = None
        self._pixels: tuple[tuple[int, int], bytes, tuple[int, int]] | None = None
        self._asked: tuple[int, int] | None = None
        self.export_job: Future[None] | None = None
        """The last export's work on the figure thread, or ``None``."""

    # -- the background work ---------------------------------------------------------------------------------------
    @property
    def computing(self) -> bool:
        """True while the figure thread computes or draws this scene's figure (or has it queued)."""
        return self._job is not None and not self._job.done()

    def busy(self) -> bool:
        """True while the figure or an export is being made or the drawn figure waits to be shown (the figure, its
        progress and the export's message change by themselves); False once all are done, so the window waits for
        input (:mod:`gameplay.ui.shell.idle`)."""
        px = self._pixels
        unshown = px is not None and self.error is None and (self.surface is None or self.surface.get_size() != px[0])
        return self.computing or unshown or (self.export_job is not None and not self.export_job.done())

    @property
    def cancelled(self) -> bool:
        """True once the work was cancelled (the scene was left; entering it again starts the work anew)."""
        return self._stop.is_set()

    def _run(self, size: tuple[int, int], base: float) -> None:
        def progress(text: str) -> None:
            self.status = f"computing... {text}"
        try:
            if self.data is None:
                self.data = self.compute(self._stop, progress)
            self.status = "drawing..."
            from gameplay.pictures.plots import render_rgba
            rgba, wh = render_rgba(self.figure(self.data, size, base))
            self._pixels = (size, rgba, wh)
            self.status = self.heading
        except Exception as e:  # noqa: BLE001 - shown in the scene, never a crash of the window
            if self._stop.is_set():  # cancelled (the scene was left): the computation stopped as asked
                return
            self.error = self.status = NO_MATPLOTLIB if isinstance(e, ImportError) else f"{type(e).__name__}: {e}"

    def _start(self, size: tuple[int, int]) -> None:
        if self.computing or self.error is not None or size[0] < 50 or size[1] < 50:
            return
        self._asked = size
        self._job = figure_worker().submit(self._run, size, float(projector.px(18)))

    def wait(self, timeout: float = 60.0) -> bool:
        """Wait at most ``timeout`` seconds for the figure's work (tests). Returns True when it has finished."""
        if self._job is not None:
            futures.wait([self._job], timeout)
        return not self.computing

    # -- export ----------------------------------------------------------------------------------------------------
    def export(self, folder: str | Path | None = None) -> None:
        """Write the figure at 1920x1080 (smallest text 24 px) as PNG, on a thread; the path is shown when done."""
        if self.data is None:
            self.message = "Nothing to export yet: the figure is still being computed."
            return
        from gameplay.pictures.tree_export import default_export_dir
        d = Path(folder) if folder is not None else (self.export_dir or default_export_dir())
        path = d / f"{self.stem}-{datetime.datetime.now():%Y%m%d-%H%M%S}.png"
        data = self.data

        def work() -> None:
            try:
                from gameplay.pictures.plots import FILE_BASE_PX, FILE_SIZE, save
                d.mkdir(parents=True, exist_ok=True)  # the program's export folder, made as the other exports do
                save(self.figure(data, FILE_SIZE, FILE_BASE_PX), path)
                self.message = f"Exported: {path}"
            except Exception as e:  # noqa: BLE001 - shown under the figure
                self.message = f"Not exported: {e}"
        self.message = "Exporting..."
        self.export_job = figure_worker().submit(work)

    # -- Scene -----------------------------------------------------------------------------------------------------
    def on_enter(self, app: Any) -> None:
        """Lay out and start computing (the first time, or again after leaving before the data were ready)."""
        if self._stop.is_set() and not self.computing:
            self._stop = threading.Event()
        super().on_enter(app)
        self._start(self.fig_rect.size)

    def on_exit(self) -> None:
        """Cancel the work and kill the buttons."""
        self._stop.set()
        self.kill_widgets()

    def close_dialog(self) -> bool:
        """Esc: back to the scene below."""
        self.back()
        return True

    def back(self) -> None:
        """Back (Esc): show the scene below (the work is cancelled)."""
        if self.app is not None and self.app.scene is self:
            self.app.pop()

    def layout(self, size: tuple[int, int]) -> None:
        """The figure above, the status line and the buttons along the bottom."""
        assert self.app is not None
        self.kill_widgets()
        manager, px = self.app.manager, projector.px
        w, h = size
        m = max(10, px(12))
        bh = max(px(40), projector.text_height(manager, None, "button") + px(8))
        by = h - m - bh
        self.fig_rect = pygame.Rect(m, m, w - 2 * m, by - px(34) - m)
        x = w - m
        for key, text, tip in (("back", "Back (Esc)", "Back to where you came from (Esc)"),
                               ("export", "Export PNG (E)", "Save the figure at 1920x1080 in the export folder")):
            bw = projector.text_width(manager, text, None, "button") + px(32)
            x -= bw
            self._ui[key] = UIButton(pygame.Rect(x, by, bw, bh), text, manager, tool_tip_text=tip)
            x -= px(10)
        self.surface = None

    def handle_event(self, event: pygame.event.Event) -> bool:
        """The buttons and E (export)."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED and self.run_button(event.ui_element, {"export": self.export,
                                                                                          "back": self.back}):
            return True
        if (event.type == pygame.KEYDOWN and event.key == pygame.K_e
                and not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT)):
            self.export()
            return True
        return False

    def update(self, dt: float) -> None:
        """Take the drawn pixels; draw again (on the thread) for a new window size."""
        px = self._pixels
        size = self.fig_rect.size
        if px is not None and px[0] == size and (self.surface is None or self.surface.get_size() != size):
            self.surface = pygame.image.frombuffer(px[1], px[2], "RGBA").copy()
        if (self.surface is None or self.surface.get_size() != size) and not self.computing and (
                px is None or px[0] != size):
            self._start(size)

    def draw(self, surface: pygame.Surface) -> None:
        """The figure (or a "computing..." card) and the status line."""
        pal = projector.palette()
        surface.fill(pal.background)
        r = self.fig_rect
        if self.surface is not None and self.surface.get_size() == r.size:
            surface.blit(self.surface, r)
        else:
            pygame.draw.rect(surface, pal.board, r)
            f = draw.font(24, True)
            text = self.error or ("computing... " + self.heading if self.data is None else "drawing the figure...")
            draw.blit(surface, draw.fit(text, f, r.width - 40), f, pal.accent, r.center, anchor="center")
        f = draw.font(18)
        y = r.bottom + projector.px(6)
        line = self.status if self.message is None else f"{self.status}   {self.message}"
        left = self._ui["export"].relative_rect.x if "export" in self._ui else r.right
        colour = draw.ERROR if self.error else pal.muted
        draw.blit(surface, draw.fit(line, f, int(left - r.x - projector.px(16))), f, colour, (r.x + 4, y))


class GrowthScene(FigureScene):
    """Tree growth from one position of tic-tac-toe or checkers (:func:`ai.teaching.growth.measure_growth`).

    Args:
        game_name: ``tictactoe`` or ``checkers``.
        state: the position (immutable; never changed).
        max_depth: deepest depth in plies (default the game's record's ``growth_depth``).
    """

    def __init__(self, game_name: str, state: Any, max_depth: int | None = None, **kw: Any) -> None:
        from ai.agents.profiles import profile_for
        from gameplay.rules.registry import game_title
        game = profile_for(game_name).game
        self.game_name, self.state = game.name, state
        pos = game.format_position(state)
        start = pos == game.format_position(game.initial_state())
        where = "the start" if start else f"position {pos}"
        self.command = (f"python main.py plot growth {game.name}" + ("" if start else f" --position '{pos}'")
                        + (f" --max-depth {max_depth}" if max_depth else "") + " --out FILE.png")
        subject = f"{game_title(game.name, 'noun')} from {where}"

        def compute(stop: threading.Event, progress: Callable[[str], None]) -> Any:
            from ai.teaching.growth import measure_growth
            return measure_growth(game.name, state, max_depth, stop=stop, progress=progress)

        def figure(data: Any, size: tuple[int, int], base: float) -> Any:
            from gameplay.pictures.plots import growth_figure
            return growth_figure(data, size=size, base_px=base, command=self.command, subject=subject)
        super().__init__(f"tree growth, {subject}", compute, figure, stem=f"growth-{game.name}", **kw)


class TreeGrowthScene(FigureScene):
    """The Tree Lab's growth: uniform random trees of ``branching`` children
    (:func:`ai.teaching.growth.tree_growth`)."""

    def __init__(self, branching: int, max_depth: int = 8, **kw: Any) -> None:
        self.branching = max(2, branching)
        b = self.branching

        def compute(stop: threading.Event, progress: Callable[[str], None]) -> Any:
            from ai.teaching.growth import tree_growth
            progress(f"10 random trees per depth, b = {b}")
            return tree_growth(b, max_depth, stop=stop)

        def figure(data: Any, size: tuple[int, int], base: float) -> Any:
            from gameplay.pictures.plots import growth_figure
            return growth_figure(data, size=size, base_px=base, command="the Tree Lab's Growth button",
                                 subject=f"random trees with b = {b}, the Tree Lab tree's branching")
        super().__init__(f"tree growth on random trees with b = {b}", compute, figure, stem="growth-trees", **kw)


def help_figure_scene(figure: HelpFigure, **kw: Any) -> FigureScene:
    """The scene of a game's help figure (its window parts' ``help_figure``); ``kw`` as :class:`FigureScene`."""
    return FigureScene(figure.heading, figure.compute, figure.figure, stem=figure.stem, **kw)


# ----- openers ----------------------------------------------------------------------------------------------------
def tree_branching(spec: Any) -> int:
    """The mean number of children of a Tree Lab tree's decision nodes, rounded (at least 2)."""
    kids: list[int] = []

    def walk(s: Any) -> None:
        if isinstance(s, list):
            kids.append(len(s))
            for c in s:
                walk(c)
        elif isinstance(s, dict):
            for _, c in s.get("chance", []):
                walk(c)
    walk(spec)
    return max(2, round(sum(kids) / len(kids))) if kids else 2


def attach_growth(scene: Any) -> None:
    """Give the scene's tree overlay a Growth button: a match of a game without dice (the decision shown), or the
    Tree Lab (random trees like its tree)."""
    ov = scene.overlay.tree_overlay
    game = getattr(scene, "game", None)
    if game is not None and game.traits.stochastic:
        return
    ov.set_on_growth(lambda: open_growth(scene))


def open_growth(scene: Any) -> FigureScene | None:
    """The overlay's Growth button: push the growth view of the decision shown (or of the Tree Lab's tree).

    Returns:
        The scene pushed, or ``None`` (no decision yet: the overlay says so).
    """
    app = scene.app
    if app is None:
        return None
    ov = scene.overlay.tree_overlay
    view: FigureScene
    if hasattr(scene, "spec"):  # the Tree Lab
        view = TreeGrowthScene(tree_branching(scene.spec))
    else:
        info = ov.info
        if info is None or info.game is None or info.state is None:
            ov.say("No AI decision yet: the growth is measured from the position of the decision shown.")
            return None
        if not scene.has_human and not scene.paused:
            scene.toggle_pause()  # an AI-vs-AI match waits, as for the race
        view = GrowthScene(info.game.name, info.state)
    app.push(view)
    return view


def open_help_figure(app: Any, figure: HelpFigure) -> FigureScene:
    """A help window's figure button (Pig's "Policy picture"): push the scene of ``figure`` on ``app``'s stack."""
    view = help_figure_scene(figure)
    app.push(view)
    return view
