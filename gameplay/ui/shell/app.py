"""The arcade window: :class:`App` (window, clock, pygame_gui manager, scene stack) and :func:`run_app`.

``run_app`` is what ``python main.py``, ``play GAME`` and ``demo GAME`` call (``gameplay.cli``). Nothing here
runs at import time: pygame is initialised when an :class:`App` is made.

The window opens at a size that fits the display it opens on (:func:`gameplay.ui.shell.window_size.opening_size`): the
size it was last closed at (``Settings.window_size``, and fullscreen again if it was closed fullscreen), else
1280x800, shrunk to the desktop minus room for the title bar and the taskbar
(:func:`gameplay.ui.widgets.projector.window_size_for`). Events are routed by :mod:`gameplay.ui.shell.app_events`.

Keys handled by the App for every scene: F11 toggles fullscreen, Esc closes the topmost thing open (a dialog or
message, the help, the search tree or its presenter view) and with nothing open goes back to the start menu (and
quits from the menu: :meth:`gameplay.ui.shell.app_events.EventRouter.escape`), Ctrl+plus / Ctrl+minus / Ctrl+0
scale the whole interface, Ctrl+H switches the high-contrast theme, B blanks the screen (any key or click restores
it; not while typing in a text field) — see :mod:`gameplay.ui.widgets.projector`. Scenes ask for navigation with the
custom events of :mod:`gameplay.ui.widgets.events`.
"""

# Over 600 lines because the App is the one owner of the window's life: its size and display, the scene stack, the
# saved-game prompt's place in it, the frame loop on its clock, and the order of closing (fonts before pygame).

from __future__ import annotations

import gc
import os
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pygame_gui

from ai.agents.agent_base import Agent
from ai.agents.agents import make_agent
from ai.agents.profiles import profile_for
from ai.agents.runner import configure_switch_interval
from gameplay.files.settings import Settings
from gameplay.files.settings_file import load_settings, save_settings
from gameplay.pictures.fonts import release_fonts
from gameplay.rules.registry import game_names
from gameplay.ui.play.match import MatchScene
from gameplay.ui.scenes.menu import MenuScene
from gameplay.ui.shell.app_events import EventRouter, text_entry_focused
from gameplay.ui.shell.frame_clock import FrameClock, WallClock
from gameplay.ui.shell.window_size import fullscreen_mode, opening_size
from gameplay.ui.widgets import projector
from gameplay.ui.widgets.scene import Scene, StartedMatch

THEME_PATH = Path(__file__).parent.parent / "theme.json"
"""The pygame_gui theme (colours, fonts, shapes)."""
DEFAULT_SIZE = projector.DEFAULT_WINDOW
"""Window size in pixels when not fullscreen, when the display has room for it and no size was remembered."""
FPS = 60
"""Frame-rate cap."""
FRAME_HISTORY = 20_000
"""Frames whose times :attr:`App.frame_ms` and :attr:`App.work_ms` keep (5.5 minutes at 60 fps): a window left open
through a lesson keeps the recent ones, not one number per frame since it opened."""
TITLE = "Adversarial-Search Arcade"


class App:
    """Owns the window, the clock, the pygame_gui ``UIManager`` and a stack of scenes.

    Args:
        size: window size in pixels (when not fullscreen), used as given; ``None`` (the default): the size the
            window was last closed at, else :data:`DEFAULT_SIZE`, fitted to the display (:func:`opening_size`),
            and the window's size and fullscreen state are remembered in the settings when it closes.
        fullscreen: start in fullscreen; ``None``: as the window was last closed when ``size`` is ``None``
            (else not).
        fps: frame-rate cap (frames per second).
        demo_frames: True when a ``--frames`` run is being recorded (demos keep moving: short AI pauses).
        settings_file: the settings file to read and write (default: ``settings.toml`` in the user's config
            folder, or in ``$ARCADE_CONFIG_DIR``); a bad file is replaced by defaults (``settings_message``).
        clock: the loop's time source (default: :class:`gameplay.ui.shell.frame_clock.WallClock`; a
            :class:`~gameplay.ui.shell.frame_clock.SteppedClock` makes every frame last exactly ``1 / fps`` seconds).
        shared_pygame: leave pygame running when the window closes (its event queue emptied), so that the next
            window of the same process reuses the display instead of starting SDL again (45 ms a window: the tests
            open hundreds); the program's own window shuts pygame down.
        autosave: matches with a human side autosave after every move (``False``: a one-off window that must leave
            the user's games alone, ``shot``'s).
    """

    def __init__(self, size: tuple[int, int] | None = None, *, fullscreen: bool | None = None, fps: int = FPS,
                 demo_frames: bool = False, settings_file: Path | None = None, clock: FrameClock | None = None,
                 shared_pygame: bool = False, autosave: bool = True) -> None:
        self.frame_clock: FrameClock = clock if clock is not None else WallClock()
        self.shared_pygame = shared_pygame
        """pygame stays running when this window closes, for the next window of the process (see ``shared_pygame``
        above)."""
        self.closed = False
        """True once :meth:`close` has run."""
        """The loop's time source (:mod:`gameplay.ui.shell.frame_clock`): the wall clock, or a test's stepped clock."""
        loaded = load_settings(settings_file)
        self.settings_file = settings_file
        """The settings file (``None``: ``gameplay.files.settings_file.settings_path()``, which honours
        ARCADE_CONFIG_DIR)."""
        self.settings: Settings = loaded.settings
        """The user's settings (``gameplay.files.settings``); change a field, then call :meth:`save_settings`."""
        self.settings_message: str | None = loaded.message
        """One line for the title screen when the settings file was bad (and replaced), else ``None``."""
        from gameplay.rules.compiled import all_compiled, status_line
        self.build_notice: str | None = None if all_compiled() else status_line()
        """The one-line pure-Python notice for the title screen (``gameplay.rules.compiled``), or ``None``."""
        self.settings_listeners: list[Any] = []
        """Callables ``f(settings)`` run after each :meth:`save_settings` (sound, theme, animation...)."""
        from ai.agents.worker import prewarm
        prewarm()  # the AI's worker process starts while the window opens (ai.agents.worker)
        pygame.init()
        pygame.display.set_caption(TITLE)
        self.remember_window = size is None and not demo_frames
        """True when the window's size and fullscreen state are read from and written to the settings (the user's
        window; not a given size, nor a ``--frames`` recording)."""
        if size is None:
            size = opening_size(self.settings.window_size if self.remember_window else None)
        if fullscreen is None:
            fullscreen = self.remember_window and self.settings.fullscreen
        self.windowed_size = size
        self.fullscreen = False
        self.fps = fps
        self.demo_frames = demo_frames
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        settings = getattr(self, "settings", None)
        self.display = projector.fitted_display(
            projector.Display(zoom=float(getattr(settings, "ui_scale", 1.0) or 1.0),
                              theme=str(getattr(settings, "theme", "normal"))), self.screen.get_size())
        """Interface scale and theme (projector mode: Ctrl+plus / Ctrl+minus / Ctrl+0, Ctrl+H); the saved zoom is
        clamped to the steps the window has room for (``projector.fitted_display``). The settings keep the zoom the
        user chose: a window made smaller and then larger again gets it back (:meth:`_relayout`)."""
        projector.set_current(self.display)
        self.manager: pygame_gui.UIManager = projector.make_manager(self.screen.get_size(), self.display)
        self.settings_listeners.append(lambda _settings: self.apply_settings_display())  # theme / ui_scale edits
        self.router = EventRouter(self)
        """Which of the App's keys, a focused text field, pygame_gui or the top scene gets each event."""
        self.blanked = False
        self.notice: tuple[str, float] = ("", 0.0)
        """A transient line drawn over everything (the interface size after Ctrl+plus/minus) and when it ends."""
        """B: the screen is black until any key or click (a presenter's "blank screen" button)."""
        self._exit_after_first_frame = os.environ.get("ARCADE_EXIT_AFTER_FIRST_FRAME") == "1"
        self.scenes: list[Scene] = []
        self.running = True
        self.frames = 0
        """Frames drawn so far."""
        self.frame_ms: list[float] = []
        """Milliseconds between consecutive frames (for ``bench ui``): the last :data:`FRAME_HISTORY` or more."""
        self.work_ms: list[float] = []
        """Milliseconds of work (events, update, draw, flip) in each frame, without the wait (as ``frame_ms``)."""
        from gameplay.ui.shell.idle import IdleWait
        self.idle = IdleWait(self)
        """Waits for input while nothing on screen changes by itself (``gameplay.ui.shell.idle``)."""
        self.last_match: tuple[str, str, str] = (game_names()[0], "human", "medium")
        """(game, p1, p2) of the last match started, used to prefill the menu."""
        from gameplay.ui.widgets.sounds import SoundBoard
        self.sounds = SoundBoard(lambda: bool(getattr(getattr(self, "settings", None), "sound", True)))
        """Short generated sound effects (``gameplay.ui.widgets.sounds``); silent without an audio device."""
        self.sounds.start()
        self.autosave = autosave
        """Matches with a human side autosave after every move (``gameplay.ui.play.play_aids``)."""
        self.autosave_offers: list[Any] = []
        """The autosaved games found at start (``gameplay.files.savegame.SavedGame``, newest first), until resumed or
        discarded."""
        self.autosave_problem: str | None = None
        """The one-line report when the autosave at start was corrupt (the file was moved aside)."""
        self.resume_prompt: Any = None
        """The open "Resume your ... game?" window (``gameplay.ui.play.resume.ResumePrompt``), or ``None``."""
        if fullscreen:
            self.toggle_fullscreen()

    # -- geometry ------------------------------------------------------------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        """Current window size in pixels."""
        surface = pygame.display.get_surface()
        return surface.get_size() if surface is not None else self.windowed_size

    @staticmethod
    def window_surface() -> pygame.Surface:
        """The open window's surface (pygame's display surface, window pixels).

        :raises RuntimeError: no window is open (before :meth:`__init__` set one, or after :meth:`close`).
        """
        surface = pygame.display.get_surface()
        if surface is None:
            raise RuntimeError("the arcade's window is not open (closed, or not yet made)")
        return surface

    def _relayout(self) -> None:
        self.screen = self.window_surface()
        wish = float(getattr(getattr(self, "settings", None), "ui_scale", None) or self.display.zoom)
        # the zoom steps follow the window's room; the zoom the user chose is kept for a larger window
        fitted = projector.fitted_display(replace(self.display, zoom=wish), self.size)
        if fitted != self.display:
            self.set_display(fitted, remember=False)
            return
        self.manager.set_window_resolution(self.size)
        if self.scenes:
            self.scenes[-1].layout(self.size)

    def set_display(self, display: projector.Display, *, remember: bool = True) -> None:
        """Adopt a new interface scale or theme: a fresh pygame_gui manager, and the top scene laid out again.

        The theme is rebuilt at the new font sizes (crisp text, not scaled pixels); board views and the overlay
        read the scale and palette from :mod:`gameplay.ui.widgets.projector` on their next draw. With ``remember`` (the
        user's choice), the settings' ``ui_scale`` and ``theme`` follow, each when it changed, and are saved;
        without (the window's room), the settings keep what the user chose.
        """
        old, self.display = self.display, display
        projector.set_current(display)
        settings = getattr(self, "settings", None)
        if remember and settings is not None and (old.zoom, old.theme) != (display.zoom, display.theme):
            for name, before, value in (("ui_scale", old.zoom, display.zoom), ("theme", old.theme, display.theme)):
                if hasattr(settings, name) and before != value:
                    setattr(settings, name, value)
            save = getattr(self, "save_settings", None)
            if callable(save):
                save()
        self.screen = self.window_surface()
        _forget_manager(self.manager)
        self.manager = projector.make_manager(self.size, display)
        if self.scenes:
            self.scenes[-1].layout(self.size)
        prompt = getattr(self, "resume_prompt", None)
        if prompt is not None and prompt.window.alive() and prompt.window.ui_manager is not self.manager:
            # the start-up question lives in the old manager: ask it again at the new scale
            from gameplay.ui.play.resume import ResumePrompt
            prompt.window.kill()
            self.resume_prompt = ResumePrompt(self, prompt.saves)
        # The old manager and the widgets laid out in it are reference cycles (each widget names its manager): freed
        # now rather than at the collector's next full pass, which a few zoom steps outrun (a walk through every
        # zoom step at 1920x1080 held 1.1 GB of them; 20 ms a change of scale, measured 2026-12-07).
        gc.collect()

    def apply_settings_display(self) -> None:
        """Adopt ``settings.ui_scale`` and ``settings.theme`` when they differ from the display (settings listener)."""
        settings = getattr(self, "settings", None)
        if settings is None:
            return
        display = projector.fitted_display(
            projector.Display(zoom=float(getattr(settings, "ui_scale", 1.0) or 1.0),
                              theme=str(getattr(settings, "theme", "normal"))), self.size)
        if display != self.display:
            self.set_display(display, remember=False)  # the settings already say it

    def zoom(self, direction: int) -> None:
        """Ctrl+plus (``direction`` > 0), Ctrl+minus (< 0), Ctrl+0 (0): scale the whole interface, and say for
        two seconds at the top of the window which size it is (and when it is the largest or smallest that fits
        this window, so a key press that changes nothing is explained)."""
        new = self.display.zoomed(direction)
        steps = [z for z in projector.ZOOM_STEPS if z <= new.max_zoom + 1e-6] or [projector.ZOOM_STEPS[0]]
        limit = ""
        if new.zoom >= steps[-1] - 1e-6:
            limit = ": the largest that fits this window" if direction > 0 else ""
        elif new.zoom <= steps[0] + 1e-6 and direction < 0:
            limit = ": the smallest"
        self.notice = (f"Interface size {round(new.zoom * 100)}%{limit}", self.frame_clock.now() + 2.0)
        if new != self.display:
            self.set_display(new)

    def _draw_notice(self, surface: pygame.Surface) -> None:
        """The transient line of :meth:`zoom` at the top centre of the window."""
        text, until = self.notice
        if not text or self.frame_clock.now() > until:
            return
        font = projector.default_font(projector.px(34))
        img = font.render(text, True, (255, 255, 255))
        box = img.get_rect(midtop=(surface.get_width() // 2, projector.px(10))).inflate(projector.px(24),
                                                                                         projector.px(12))
        pygame.draw.rect(surface, (20, 20, 20), box, border_radius=8)
        surface.blit(img, img.get_rect(center=box.center))

    def toggle_high_contrast(self) -> None:
        """Ctrl+H: switch between the normal and the high-contrast theme."""
        theme = "normal" if self.display.high_contrast else "high_contrast"
        self.set_display(replace(self.display, theme=theme))

    def text_entry_focused(self) -> bool:
        """True while a pygame_gui text field has the keyboard focus
        (:func:`gameplay.ui.shell.app_events.text_entry_focused`)."""
        return text_entry_focused(self.manager)

    def toggle_fullscreen(self) -> None:
        """Switch between fullscreen and the resizable window (F11; the router takes one switch a press:
        :meth:`gameplay.ui.shell.app_events.EventRouter.fullscreen_key`).

        Fullscreen covers the display the window is on, at its desktop size, with or without a window manager
        (:func:`gameplay.ui.shell.window_size.fullscreen_mode`); the scene is laid out for that size. Back from
        fullscreen, the window has the size it had before."""
        if self.fullscreen:
            self.screen = pygame.display.set_mode(self.windowed_size, pygame.RESIZABLE)
            self.fullscreen = False
        else:
            self.windowed_size = self.size
            self.screen = fullscreen_mode()
            self.fullscreen = True
        self._relayout()

    def resize(self, size: tuple[int, int]) -> None:
        """Adopt a new window size (a ``VIDEORESIZE`` event); the top scene lays itself out again."""
        size = (max(projector.MIN_WINDOW[0], size[0]), max(projector.MIN_WINDOW[1], size[1]))
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
        release_agents(top)
        if self.scenes:
            self.scenes[-1].on_enter(self)
        return top

    def replace_top(self, scene: Scene) -> Scene | None:
        """Show ``scene`` in place of the top scene (the attract show's next game over the title screen): the top one
        exits and its agents' processes stop (as :meth:`pop`), but the scene below is not entered again in between.
        Returns the removed scene, or ``None`` when the stack was empty (``scene`` is then simply shown)."""
        top = self.scenes.pop() if self.scenes else None
        if top is not None:
            top.on_exit()
            release_agents(top)
        self.scenes.append(scene)
        scene.on_enter(self)
        return top

    def open_menu(self) -> None:
        """Go back to the start menu (made afresh, prefilled with the last match, if none is on the stack)."""
        while self.scenes and not isinstance(self.scenes[-1], MenuScene):
            self.pop()
        if not self.scenes:
            self.push(MenuScene(self.last_match[0]))

    def open_tree_lab(self) -> Scene:
        """Show the Tree Lab above the menu (the textbook trees, an editor, the searches side by side)."""
        from gameplay.ui.scenes.treelab_scene import TreeLabScene
        while self.scenes and not isinstance(self.scenes[-1], MenuScene):
            self.pop()
        scene = TreeLabScene()
        self.push(scene)
        return scene

    def open_pdn_browser(self, text: str, name: str, records: list[Any] | None = None) -> Scene:
        """Show the PDN game browser above the current scene (:func:`gameplay.ui.scenes.pdn_browser.open_browser`); the
        checkers view asks for it here, so the view never imports the browser that shows a checkers board."""
        from gameplay.ui.scenes.pdn_browser import open_browser
        return open_browser(self, text, name, records)

    def open_settings(self, game: str | None = None) -> Scene:
        """Show the settings panel above the menu, on the page of ``game`` (default: the first game)."""
        from gameplay.ui.scenes.settings_scene import SettingsScene
        while self.scenes and not isinstance(self.scenes[-1], MenuScene):
            self.pop()
        scene = SettingsScene(game)
        self.push(scene)
        return scene

    def save_settings(self) -> str | None:
        """Write :attr:`settings` to the file and run :attr:`settings_listeners`.

        Returns:
            ``None`` when written, else a one-line error (the folder is read-only...): the settings stay in use.
        """
        error = None
        try:
            save_settings(self.settings, self.settings_file)
        except OSError as e:
            error = f"could not save the settings: {e}"
        for listener in list(self.settings_listeners):
            listener(self.settings)
        return error

    def start_match(self, game: str, p1: str | Agent, p2: str | Agent, *, demo: bool = False,
                    overlay: bool = False, ai_delay_s: float | None = None) -> MatchScene:
        """Show a match above the menu.

        Args:
            game: game name.
            p1: agent spec (or agent) of the first player.
            p2: agent spec (or agent) of the second player.
            demo: agents play on and a new game starts by itself after each end.
            overlay: show the search-tree overlay with each AI decision (``--overlay``) even when the settings'
                ``overlay`` is off.
            ai_delay_s: the least seconds between a position and the AI's move shown on it; ``None``: 0.3 s (0.05 s
                while frames are recorded). ``shot`` gives 0: it draws frames one run at a time, in which no time
                passes.

        Returns:
            The match scene.

        Raises:
            GameError: unknown game or bad agent spec (nothing changes then).
        """
        agents = tuple(a if isinstance(a, Agent) else make_agent(game, a) for a in (p1, p2))
        specs = tuple(a.settings.name if isinstance(a, Agent) else a for a in (p1, p2))
        self.last_match = (game, specs[0], specs[1])
        fast = self.demo_frames
        delay = (0.05 if fast else 0.3) if ai_delay_s is None else ai_delay_s
        scene = MatchScene(game, (agents[0], agents[1]), ai_delay_s=delay,
                           auto_restart_s=(0.5 if fast else 2.5) if demo else None,
                           overlay_on_start=overlay or self.settings.overlay,
                           board_numbers=self.settings.board_numbers)
        while self.scenes and not isinstance(self.scenes[-1], MenuScene):
            self.pop()
        self.push(scene)
        return scene

    # -- saved games, attract mode ----------------------------------------------------------------------------------
    def offer_autosave(self) -> Any:
        """Look for the autosaved game and ask "Resume your ... game (move N)?" (called once at start).

        A corrupt autosave is moved aside and reported in one message window. Returns the prompt or ``None``.
        """
        from gameplay.files import autosave
        from gameplay.ui.play.resume import ResumePrompt, show_message
        saves, problems = autosave.load_autosaves()
        if problems:
            self.autosave_problem = " ".join(str(e) for e in problems)
            show_message(self, "Autosave not restored", self.autosave_problem)
        self.autosave_offers = saves
        self.resume_prompt = ResumePrompt(self, saves) if saves else None
        return self.resume_prompt

    def resume_autosave(self, saved: Any = None) -> StartedMatch | None:
        """Open an autosaved game (position, moves and both sides with every setting) in a match; closes the prompt.

        Args:
            saved: the ``SavedGame`` to resume (default: the newest on offer, else the newest on disk).

        Returns:
            The match scene, or ``None`` when there is no autosave or it could not be restored (reported).
        """
        from gameplay.files import autosave, savegame
        from gameplay.ui.play.resume import open_saved_game, show_message
        self.close_resume_prompt()
        if saved is None:
            saved = self.autosave_offers[0] if self.autosave_offers else None
        if saved is None:
            try:
                saved = autosave.load_autosave()
            except savegame.SaveError as e:
                show_message(self, "Autosave not restored", str(e))
                return None
        self.autosave_offers = [s for s in self.autosave_offers if s is not saved]
        if saved is None:
            return None
        return open_saved_game(self, saved, f"Resumed your {saved.title} game at {saved.progress()}.")

    def discard_autosave(self, saved: Any = None) -> None:
        """Delete one autosaved game (a prompt row's Discard; default: the newest on offer). The prompt stays
        open while other games are on offer."""
        from gameplay.files import autosave
        from gameplay.ui.play.resume import ResumePrompt
        if saved is None:
            saved = self.autosave_offers[0] if self.autosave_offers else None
        prompt = self.resume_prompt
        if saved is not None:
            if saved.path is not None:
                autosave.clear_autosave(path=saved.path)
            else:
                autosave.clear_autosave(game=saved.game)
        self.autosave_offers = [s for s in self.autosave_offers if s is not saved]
        if prompt is not None and prompt.alive and self.autosave_offers and any(s is saved for s in prompt.saves):
            prompt.remove(saved)  # the list keeps its place
            return
        self.close_resume_prompt()
        if self.autosave_offers:
            self.resume_prompt = ResumePrompt(self, self.autosave_offers)

    def close_resume_prompt(self) -> None:
        """Close the start-up question (Later, its close box, Esc; a match finding its window went with an old
        widget manager); the games on offer stay saved. Nothing happens when none is open."""
        if self.resume_prompt is not None:
            self.resume_prompt.close()
            self.resume_prompt = None

    def blank(self, on: bool) -> None:
        """Black the screen out (``on``: the B key, a presenter's "blank screen") or bring it back."""
        self.blanked = on

    def start_attract_mode(self, index: int = 0, *, watch: bool = False) -> Scene:
        """Start the endless AI-vs-AI show (all three games in turn). Unattended, any key or click returns to the
        title; ``watch`` (the menu's "Watch AI vs AI"): only Esc leaves, Space pauses, T shows the tree.

        Returns:
            The first match of the show.
        """
        from gameplay.ui.shell.attract import start_attract
        return start_attract(self, index, watch)

    # -- loop ------------------------------------------------------------------------------------------------------
    def quit(self) -> None:
        """Stop the loop after this frame."""
        self.running = False

    def handle_event(self, event: pygame.event.Event) -> None:
        """Route one event: the App's own keys and events, then pygame_gui, then the top scene
        (:class:`gameplay.ui.shell.app_events.EventRouter`)."""
        self.router.handle_event(event)

    def step(self, dt: float) -> None:
        """One frame: events, update, draw, flip."""
        events_now = self.idle.events()
        for event in events_now:
            self.handle_event(event)
            if not self.running:
                return
        scene = self.scene
        if scene is not None:
            scene.update(dt)
        self.idle.after_frame(bool(events_now))
        self.manager.update(dt)
        surface = self.window_surface()
        if self.blanked:
            surface.fill((0, 0, 0))
        else:
            if scene is not None:
                scene.draw(surface)
            self.manager.draw_ui(surface)
            self._draw_notice(surface)
        pygame.display.flip()
        self.frames += 1
        if self._exit_after_first_frame:  # tools/startup_time.py: report the wall-clock time of the first frame
            print(f"FIRST_FRAME_AT {time.time():.6f}", flush=True)
            self.running = False

    def run(self, max_frames: int | None = None, max_seconds: float | None = None,
            screenshot: str | Path | None = None) -> int:
        """Run frames until the window closes, ``max_frames`` frames or ``max_seconds`` seconds have passed.

        Args:
            max_frames: stop after this many frames (``--frames``).
            max_seconds: stop after this many seconds of the App's clock (``bench ui``; with a
                :class:`~gameplay.ui.shell.frame_clock.SteppedClock`, ``max_seconds * fps`` frames).
            screenshot: save the last frame drawn to this PNG file.

        Returns:
            The exit code (0).
        """
        self.running = True
        clock = self.frame_clock
        start_frames = self.frames
        t0 = last = clock.now()
        period = 1.0 / self.fps
        deadline = t0 + period
        dt = 0.0
        while self.running:
            begin = clock.now()
            self.step(dt)
            _keep_recent(self.work_ms, (clock.now() - begin) * 1000.0)
            # Frame cap: pygame's Clock.tick(fps) busy-waits the last milliseconds of each frame while holding
            # the GIL, which starves the search thread; time.sleep releases the GIL for the whole wait. Nothing
            # changing by itself (a static board): wait for input instead (gameplay.ui.shell.idle), not in --frames runs
            # nor on a stepped clock (its seconds pass only by frames).
            wait = deadline - clock.now()
            if max_frames is None and clock.real and self.idle.wanted():
                self.idle.wait()
                deadline = clock.now() + period
            elif wait > 0:
                clock.sleep(wait)
                deadline += period
            else:
                deadline = clock.now() + period
            now = clock.now()
            dt = now - last
            _keep_recent(self.frame_ms, dt * 1000.0)
            last = now
            if max_frames is not None and self.frames - start_frames >= max_frames:
                break
            if max_seconds is not None and now - t0 >= max_seconds - 1e-9:
                break
        if screenshot is not None:
            path = Path(screenshot)
            if path.parent and not path.parent.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
            pygame.image.save(self.window_surface(), str(path))
        return 0

    def remember_window_size(self) -> None:
        """Write the windowed size and the fullscreen state to the settings file (when they changed), for the next
        start (:attr:`remember_window`); a settings file that cannot be written is left as it is."""
        if not self.remember_window:
            return
        size = self.windowed_size if self.fullscreen else self.size
        if (self.settings.window_size, self.settings.fullscreen) == (tuple(size), self.fullscreen):
            return
        self.settings.window_size = (int(size[0]), int(size[1]))
        self.settings.fullscreen = self.fullscreen
        try:
            save_settings(self.settings, self.settings_file)
        except OSError:
            pass  # the window closes anyway; the size is simply not remembered

    def close(self) -> None:
        """Remember the window's size, exit every scene (cancelling searches), let go of every font and widget, and
        shut pygame down.

        A font still referenced when pygame shuts down is never freed (:mod:`gameplay.pictures.fonts`): the widget
        manager (which holds the theme's fonts) and the font caches are dropped, and what the closed scenes left in
        reference cycles is collected, before ``pygame.quit()``. The App cannot be used after this; a second call
        does nothing.
        """
        if self.closed:
            return
        self.closed = True
        self.remember_window_size()
        while self.scenes:
            top = self.scenes.pop()
            top.on_exit()
            release_agents(top)
        self.close_resume_prompt()
        self.sounds.stop()
        self.manager.clear_and_reset()
        # The queue's events hold widgets (pygame_gui's name their element: a killed window's close event names it).
        # Taken with get(), they let go of them; pygame-ce's event.clear() and quit() keep the reference for ever.
        pygame.event.get()
        _forget_manager(self.manager)
        del self.manager
        release_fonts()
        gc.collect()
        if not self.shared_pygame:
            pygame.quit()


def _forget_manager(manager: pygame_gui.UIManager) -> None:
    """Let go of a widget manager the App replaces or closes: pygame_gui keeps the first manager made in a process as
    its default for ever (with every font and surface of its theme: about 30 MB), unless told to forget it."""
    from pygame_gui.core.utility import get_default_manager, set_default_manager
    if get_default_manager() is manager:
        set_default_manager(None)


def _keep_recent(times: list[float], value: float) -> None:
    """Append ``value`` to ``times``, dropping the oldest when the list holds twice :data:`FRAME_HISTORY`."""
    times.append(value)
    if len(times) >= 2 * FRAME_HISTORY:
        del times[:-FRAME_HISTORY]


def release_agents(scene: Any) -> None:
    """Stop the worker processes of a closed match's agent files (``ai.agents.agent_file.FileAgent.close``; an agent
    asked again starts a new one)."""
    for agent in getattr(scene, "agents", None) or ():
        close = getattr(agent, "close", None)
        if callable(close):
            close()


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
    game = (getattr(args, "game", None) or game_names()[0]).strip().lower()
    demo = command == "demo"
    p1 = getattr(args, "p1", None) or ("medium" if demo else "human")
    p2 = getattr(args, "p2", None) or "medium"
    frames = getattr(args, "frames", None)
    agents: tuple[Agent, Agent] | None = None
    if command in ("play", "demo"):
        profile_for(game)
        agents = (make_agent(game, p1), make_agent(game, p2))
    old = configure_switch_interval()
    app = App(fullscreen=True if getattr(args, "fullscreen", False) else None, demo_frames=frames is not None)
    try:
        if agents is None:
            app.push(MenuScene())
        else:
            app.start_match(game, agents[0], agents[1], demo=demo, overlay=bool(getattr(args, "overlay", False)))
        if frames is None and command is None:
            # "Resume your checkers game (move 12)?" when one was left in progress; `play GAME` asked for a
            # new game explicitly, so it is not offered there (the autosave stays for the next plain start)
            app.offer_autosave()
        return app.run(max_frames=frames, screenshot=getattr(args, "screenshot", None))
    finally:
        app.close()
        configure_switch_interval(old)
