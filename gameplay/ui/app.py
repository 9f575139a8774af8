"""The arcade window: :class:`App` (window, clock, pygame_gui manager, scene stack) and :func:`run_app`.

``run_app`` is what ``python main.py``, ``play GAME`` and ``demo GAME`` call (``gameplay.cli``). Nothing here
runs at import time: pygame is initialised when an :class:`App` is made.

Keys handled by the App for every scene: F11 toggles fullscreen, Esc goes back to the start menu (and quits
from the menu). Scenes ask for navigation with the custom events of :mod:`gameplay.ui.events`.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pygame
import pygame_gui

from ai.agents import Agent, make_agent
from ai.profiles import profile_for
from ai.runner import configure_switch_interval
from gameplay.ui import events
from gameplay.ui.match import MatchScene
from gameplay.ui.menu import MenuScene
from gameplay.ui.scene import Scene

THEME_PATH = Path(__file__).with_name("theme.json")
"""The pygame_gui theme (colours, fonts, shapes)."""
DEFAULT_SIZE = (1280, 800)
"""Window size in pixels when not fullscreen."""
FPS = 60
"""Frame-rate cap."""
TITLE = "Adversarial-Search Arcade"


class App:
    """Owns the window, the clock, the pygame_gui ``UIManager`` and a stack of scenes.

    Args:
        size: window size in pixels (when not fullscreen).
        fullscreen: start in fullscreen.
        fps: frame-rate cap (frames per second).
        demo_frames: True when a ``--frames`` run is being recorded (demos keep moving: short AI pauses).
    """

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, *, fullscreen: bool = False, fps: int = FPS,
                 demo_frames: bool = False) -> None:
        pygame.init()
        pygame.display.set_caption(TITLE)
        self.windowed_size = size
        self.fullscreen = False
        self.fps = fps
        self.demo_frames = demo_frames
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.manager = pygame_gui.UIManager(self.screen.get_size(), str(THEME_PATH))
        # Bold text in the text boxes (<b>) is the one font the theme does not load itself.
        self.manager.preload_fonts([{"name": "noto_sans", "point_size": 19, "style": "bold"}])
        self.clock = pygame.time.Clock()
        self.scenes: list[Scene] = []
        self.running = True
        self.frames = 0
        """Frames drawn so far."""
        self.frame_ms: list[float] = []
        """Milliseconds between consecutive frames (for ``bench ui``)."""
        self.work_ms: list[float] = []
        """Milliseconds of work (events, update, draw, flip) in each frame, without the wait."""
        self.last_match: tuple[str, str, str] = ("tictactoe", "human", "medium")
        """(game, p1, p2) of the last match started, used to prefill the menu."""
        if fullscreen:
            self.toggle_fullscreen()

    # -- geometry ------------------------------------------------------------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        """Current window size in pixels."""
        surface = pygame.display.get_surface()
        return surface.get_size() if surface is not None else self.windowed_size

    def _relayout(self) -> None:
        self.screen = pygame.display.get_surface()
        self.manager.set_window_resolution(self.size)
        if self.scenes:
            self.scenes[-1].layout(self.size)

    def toggle_fullscreen(self) -> None:
        """Switch between fullscreen (desktop resolution) and the resizable window (F11)."""
        if self.fullscreen:
            self.screen = pygame.display.set_mode(self.windowed_size, pygame.RESIZABLE)
            self.fullscreen = False
        else:
            if not self.fullscreen:
                self.windowed_size = self.size
            self.screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            self.fullscreen = True
        self._relayout()

    def resize(self, size: tuple[int, int]) -> None:
        """Adopt a new window size (a ``VIDEORESIZE`` event); the top scene lays itself out again."""
        size = (max(640, size[0]), max(480, size[1]))
        if not self.fullscreen:
            if self.size != size:
                pygame.display.set_mode(size, pygame.RESIZABLE)
            self.windowed_size = size
        self._relayout()

    # -- scene stack ---------------------------------------------------------------------------------------------
    @property
    def scene(self) -> Scene | None:
        """The scene on top of the stack (the one shown)."""
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> None:
        """Show ``scene`` above the current one (which exits until it is shown again)."""
        if self.scenes:
            self.scenes[-1].on_exit()
        self.scenes.append(scene)
        scene.on_enter(self)

    def pop(self) -> Scene | None:
        """Remove the top scene and show the one below (if any). Returns the removed scene."""
        if not self.scenes:
            return None
        top = self.scenes.pop()
        top.on_exit()
        if self.scenes:
            self.scenes[-1].on_enter(self)
        return top

    def open_menu(self) -> None:
        """Go back to the start menu (made afresh, prefilled with the last match, if none is on the stack)."""
        while self.scenes and not isinstance(self.scenes[-1], MenuScene):
            self.pop()
        if not self.scenes:
            self.push(MenuScene(*self.last_match))

    def open_tree_lab(self) -> Scene:
        """Show the Tree Lab above the menu (the textbook trees, an editor, the searches side by side)."""
        from gameplay.ui.treelab_scene import TreeLabScene
        while self.scenes and not isinstance(self.scenes[-1], MenuScene):
            self.pop()
        scene = TreeLabScene()
        self.push(scene)
        return scene

    def start_match(self, game: str, p1: str | Agent, p2: str | Agent, *, demo: bool = False) -> MatchScene:
        """Show a match above the menu.

        Args:
            game: game name.
            p1: agent spec (or agent) of the first player.
            p2: agent spec (or agent) of the second player.
            demo: agents play on and a new game starts by itself after each end.

        Returns:
            The match scene.

        Raises:
            GameError: unknown game or bad agent spec (nothing changes then).
        """
        agents = tuple(a if isinstance(a, Agent) else make_agent(game, a) for a in (p1, p2))
        specs = tuple(a.settings.name if isinstance(a, Agent) else a for a in (p1, p2))
        self.last_match = (game, specs[0], specs[1])
        fast = self.demo_frames
        scene = MatchScene(game, (agents[0], agents[1]), ai_delay_s=0.05 if fast else 0.3,
                           auto_restart_s=(0.5 if fast else 2.5) if demo else None)
        while self.scenes and not isinstance(self.scenes[-1], MenuScene):
            self.pop()
        self.push(scene)
        return scene

    # -- loop ------------------------------------------------------------------------------------------------------
    def quit(self) -> None:
        """Stop the loop after this frame."""
        self.running = False

    def handle_event(self, event: pygame.event.Event) -> None:
        """Route one event: the App's own keys and events, then pygame_gui, then the top scene."""
        if event.type == pygame.QUIT or events.is_event(event, "QUIT_APP"):
            self.quit()
            return
        if event.type == pygame.VIDEORESIZE:
            self.resize((event.w, event.h))
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
            self.toggle_fullscreen()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            tools = getattr(self.scene, "tools", None)
            if tools is not None and tools.modal:  # Esc closes the scene's dialog first
                tools.close()
                return
            if isinstance(self.scene, MenuScene) or self.scene is None:
                self.quit()
            else:
                self.open_menu()
            return
        if events.is_event(event, "OPEN_MENU"):
            self.open_menu()
            return
        if events.is_event(event, "START_MATCH"):
            self.start_match(event.game, event.p1, event.p2)
            return
        used = self.manager.process_events(event)
        if used and event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL):
            return
        if self.scene is not None:
            self.scene.handle_event(event)

    def step(self, dt: float) -> None:
        """One frame: events, update, draw, flip."""
        for event in pygame.event.get():
            self.handle_event(event)
            if not self.running:
                return
        scene = self.scene
        if scene is not None:
            scene.update(dt)
        self.manager.update(dt)
        surface = pygame.display.get_surface()
        if scene is not None:
            scene.draw(surface)
        self.manager.draw_ui(surface)
        pygame.display.flip()
        self.frames += 1

    def run(self, max_frames: int | None = None, max_seconds: float | None = None,
            screenshot: str | Path | None = None) -> int:
        """Run frames until the window closes, ``max_frames`` frames or ``max_seconds`` seconds have passed.

        Args:
            max_frames: stop after this many frames (``--frames``).
            max_seconds: stop after this many seconds (``bench ui``).
            screenshot: save the last frame drawn to this PNG file.

        Returns:
            The exit code (0).
        """
        self.running = True
        start_frames = self.frames
        t0 = last = time.perf_counter()
        period = 1.0 / self.fps
        deadline = t0 + period
        dt = 0.0
        while self.running:
            begin = time.perf_counter()
            self.step(dt)
            self.work_ms.append((time.perf_counter() - begin) * 1000.0)
            # Frame cap: pygame's Clock.tick(fps) busy-waits the last milliseconds of each frame while holding
            # the GIL, which starves the search thread; time.sleep releases the GIL for the whole wait.
            wait = deadline - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
                deadline += period
            else:
                deadline = time.perf_counter() + period
            self.clock.tick()
            now = time.perf_counter()
            dt = now - last
            self.frame_ms.append(dt * 1000.0)
            last = now
            if max_frames is not None and self.frames - start_frames >= max_frames:
                break
            if max_seconds is not None and now - t0 >= max_seconds:
                break
        if screenshot is not None:
            path = Path(screenshot)
            if path.parent and not path.parent.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
            pygame.image.save(pygame.display.get_surface(), str(path))
        return 0

    def close(self) -> None:
        """Exit every scene (cancelling searches) and shut pygame down."""
        while self.scenes:
            self.scenes.pop().on_exit()
        pygame.quit()


def run_app(args: Any) -> int:
    """Open the arcade window as the command line asked.

    Args:
        args: an ``argparse.Namespace`` with ``command`` (``"play"``, ``"demo"`` or ``None`` for the start
            menu), ``game``, ``p1``, ``p2`` (agent specs), ``fullscreen``, ``frames`` (int or ``None``),
            ``screenshot`` (PNG path or ``None``), ``overlay`` (bool: show the search-tree overlay of each AI decision).

    Returns:
        The exit code (0).

    Raises:
        GameError: unknown game or bad agent spec, raised before any window opens (the CLI prints one line and
            exits with code 2).
    """
    command = getattr(args, "command", None)
    game = (getattr(args, "game", None) or "tictactoe").strip().lower()
    demo = command == "demo"
    p1 = getattr(args, "p1", None) or ("medium" if demo else "human")
    p2 = getattr(args, "p2", None) or "medium"
    frames = getattr(args, "frames", None)
    agents: tuple[Agent, Agent] | None = None
    if command in ("play", "demo"):
        profile_for(game)
        agents = (make_agent(game, p1), make_agent(game, p2))
    old = configure_switch_interval()
    app = App(fullscreen=bool(getattr(args, "fullscreen", False)), demo_frames=frames is not None)
    try:
        if agents is None:
            app.push(MenuScene())
        else:
            app.last_match = (game, p1, p2)
            scene = app.start_match(game, agents[0], agents[1], demo=demo)
            scene.overlay_on_start = bool(getattr(args, "overlay", False))
            app.last_match = (game, p1, p2)
        return app.run(max_frames=frames, screenshot=getattr(args, "screenshot", None))
    finally:
        app.close()
        configure_switch_interval(old)
