"""The projector walk's machinery (``tests/test_zoom_walk.py``): what a layout problem is, how each scene is opened,
and the walk through every zoom step of every scene in a window of one size.

The sizes: the five classroom projectors (1024x768, 1280x720, 1280x800, 1366x768, 1920x1080), each full screen and
windowed. The App is opened the way it opens on such a desktop: ``pygame.display.get_desktop_sizes`` (and the
driver's name, see ``tests/test_window_size.py``) stand in the projector, so the windowed case is the size the App
itself picks there (``projector.window_size_for``: 1280x640 on a 1280x720 projector), and the full-screen case goes
through ``App(fullscreen=True)``. SDL's dummy driver has no other screen than 1024x768 (its full screen is always
1024x768), so its ``set_mode`` is asked for the projector's size when the App asks for the full screen: what the
scenes see is a window of exactly the projector's size with ``App.fullscreen`` set, which is all their layout reads.
A windowed size equal to another case's full screen (1280x720 windowed on a 1280x800 projector, 1280x800 on
1920x1080) is walked once. And the smallest window the App lets itself be made (``projector.MIN_WINDOW``,
640x480) is walked as a full screen of that size (issue 23: six labels were cut there).

At each step the layout must hold: no two pygame_gui widgets overlap (containers excepted), no widget leaves the
window or its panel, no label or button text is cut (too wide for its rect, or shortened with an ellipsis by our
own fitting), no "Label Rect is too small" warning, no text drawn by the scenes themselves (race, game browser,
figures, Pig) shortened where it must be whole, the overlay's step-through text is drawn inside its panel, a
dialog stays open across the zoom, and the board's area never shrinks as the zoom grows.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import shutil
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame
import pytest
from zoom_checks import DrawnText, layout_problems, overlay_problems, spy_drawn_text

from ai.agents.agents import make_agent
from gameplay.ui.play.match import MatchScene
from gameplay.ui.shell.app import App
from gameplay.ui.widgets import projector

PROJECTORS = ((1024, 768), (1280, 720), (1280, 800), (1366, 768), (1920, 1080))
"""The classroom projectors' resolutions (the issue)."""


@dataclass(frozen=True)
class Case:
    """One window to walk: the projector's desktop, and full screen or the window the App opens there."""

    desktop: tuple[int, int]
    fullscreen: bool

    @property
    def size(self) -> tuple[int, int]:
        """The window's size in pixels."""
        return self.desktop if self.fullscreen else projector.window_size_for(self.desktop)

    @property
    def id(self) -> str:
        """``"1280x720-fullscreen"`` or ``"1280x720-window-1280x640"``."""
        d = f"{self.desktop[0]}x{self.desktop[1]}"
        return f"{d}-fullscreen" if self.fullscreen else f"{d}-window-{self.size[0]}x{self.size[1]}"


MINIMUM = Case(projector.MIN_WINDOW, True)
"""The smallest window the App makes (640x480), walked as a desktop of that size."""


def cases() -> list[Case]:
    """Every projector full screen and windowed (a windowed size already walked as a full screen is left out),
    and the App's smallest window (:data:`MINIMUM`)."""
    full = [Case(d, True) for d in PROJECTORS]
    sizes = {c.size for c in full}
    return full + [c for c in (Case(d, False) for d in PROJECTORS) if c.size not in sizes] + [MINIMUM]

# ----- the scenes --------------------------------------------------------------------------------------------------
def frames(app: App, n: int = 1) -> None:
    app.run(max_frames=n)


def pump(app: App, until: Callable[[], bool], timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not until() and time.monotonic() < deadline:
        frames(app)
    assert until(), "the scene did not get ready"


@dataclass
class Look:
    """What to look at in an opened scene after each zoom step, beside the widgets."""

    board: Callable[[], pygame.Rect | None] = lambda: None
    """The board's rectangle (it must not shrink as the zoom grows), or ``None``."""
    check: Callable[[App, str], list[str]] = lambda app, where: []
    """Extra problems of the scene at this step."""
    allowed_cuts: Callable[[str], bool] = lambda text: False
    """Drawn texts that may be shortened here (see :class:`DrawnText`)."""
    close: Callable[[App], None] = lambda app: None
    """What to close after the walk (a dialog kept by the App)."""
    ready: Callable[[], bool] = lambda: True
    """True once the scene has drawn everything (a figure computed on a thread): screenshots wait for it."""


def _board(app: App) -> Callable[[], pygame.Rect | None]:
    scene = app.scene
    return lambda: pygame.Rect(scene.board_rect) if isinstance(scene, MatchScene) else None


def _match(app: App, game: str, p2: str = "medium") -> MatchScene:
    return app.start_match(game, make_agent(game, "human"), make_agent(game, p2))


def _dialog_open(what: str, alive: Callable[[App], bool]) -> Callable[[App, str], list[str]]:
    return lambda app, where: [] if alive(app) else [f"{where}: the {what} is gone"]


def _window_in(app: App, window: Any) -> bool:
    return window is not None and window.alive() and window.ui_manager is app.manager


def open_menu(app: App) -> Look:
    app.open_menu()
    return Look()


def open_question(app: App) -> Look:
    """The title screen's "you have a game in progress" question (Play on a game with an autosave)."""
    _autosave(app, "checkers")
    app.open_menu()
    menu = app.scene
    menu.start("checkers")  # type: ignore[union-attr]
    return Look(check=_dialog_open("saved-game question",
                                   lambda a: _window_in(a, getattr(getattr(a.scene, "question", None), "window",
                                                                   None))),
                close=lambda a: getattr(a.scene, "close_dialog", lambda: None)())


def open_settings(game: str) -> Callable[[App], Look]:
    def opener(app: App) -> Look:
        app.open_settings(game)
        return Look()
    return opener


def open_game(game: str) -> Callable[[App], Look]:
    def opener(app: App) -> Look:
        _match(app, game)
        return Look(board=_board(app))
    return opener


def open_overlay(app: App) -> Look:
    scene = app.start_match("tictactoe", make_agent("tictactoe", "human"), make_agent("tictactoe", "beginner"))
    scene.ai_delay_s = 0.0
    frames(app, 2)
    scene.play(4, "human")
    pump(app, lambda: scene.last_decision is not None and scene.runner.idle())
    scene.toggle_overlay()
    scene.overlay.next_step()
    scene.overlay.next_step()
    return Look(board=_board(app), check=lambda a, where: overlay_problems(a.scene, where, pytest.MonkeyPatch()))


def open_help(game: str) -> Callable[[App], Look]:
    def opener(app: App) -> Look:
        scene = app.start_match(game, make_agent(game, "human"), make_agent(game, "human"))
        scene.aids.toggle_help()
        return Look(board=_board(app), check=_dialog_open(
            "help window", lambda a: isinstance(a.scene, MatchScene) and a.scene.aids.help is not None
            and _window_in(a, a.scene.aids.help.window)))
    return opener


def _autosave(app: App, game: str) -> None:
    """Leave an autosaved game of ``game`` (one move played)."""
    scene = app.start_match(game, make_agent(game, "human"), make_agent(game, "human"))
    scene.play(scene.game.actions(scene.record.state)[0], "human")
    frames(app, 2)  # the match autosaves on its next frame


def open_resume(app: App) -> Look:
    from gameplay.files import autosave
    autosave.clear_autosave()  # the games left by the scenes walked before: one game on offer
    _autosave(app, "checkers")
    app.open_menu()
    assert app.offer_autosave() is not None
    return Look(check=_dialog_open("resume prompt", lambda a: a.resume_prompt is not None and a.resume_prompt.alive
                                   and _window_in(a, a.resume_prompt.window)),
                close=_answer_later)


def _answer_later(app: App) -> None:
    """Esc on the resume prompt, which answers Later: the prompt closes and the saved game stays."""
    if app.resume_prompt is not None:
        app.resume_prompt.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="",
                                                          scancode=0))


def open_confirm(app: App) -> Look:
    """The match's "New game: your game in progress will be lost" question."""
    scene = _match(app, "checkers", "human")
    scene.play(scene.game.actions(scene.record.state)[0], "human")
    scene.confirm_replace("New game", lambda: None)
    return Look(board=_board(app), check=_dialog_open(
        "confirm dialog", lambda a: isinstance(a.scene, MatchScene) and a.scene.confirm is not None
        and _window_in(a, a.scene.confirm[0])), close=lambda a: getattr(a.scene, "close_dialog", lambda: None)())


def open_fen(app: App) -> Look:
    """Checkers' Paste FEN text dialog (shown when there is no clipboard)."""
    scene = _match(app, "checkers")
    tools = scene.tools
    tools.use_clipboard = False  # type: ignore[attr-defined]
    tools.paste_fen()  # type: ignore[attr-defined]
    return Look(board=_board(app), check=_dialog_open(
        "Paste FEN dialog", lambda a: isinstance(a.scene, MatchScene) and _window_in(a, a.scene.tools.dialog)),
        close=lambda a: a.scene.tools.close())  # type: ignore[union-attr]


def open_file(app: App) -> Look:
    """Checkers' Load PDN file dialog (pygame_gui's, fitted to the scale: ``gameplay.ui.widgets.dialogs``)."""
    scene = _match(app, "checkers")
    scene.tools.ask_load()  # type: ignore[union-attr]
    return Look(board=_board(app), check=_dialog_open(
        "Load PDN dialog", lambda a: isinstance(a.scene, MatchScene) and _window_in(a, a.scene.tools.dialog)),
        close=lambda a: a.scene.tools.close())  # type: ignore[union-attr]


def open_save(app: App) -> Look:
    """Tic-tac-toe's Save dialog (the JSON save of ``play_aids``, the same file dialog as checkers')."""
    scene = _match(app, "tictactoe")
    scene.aids.ask_save()
    return Look(board=_board(app), check=_dialog_open(
        "Save dialog", lambda a: isinstance(a.scene, MatchScene) and _window_in(a, a.scene.aids.dialog)),
        close=lambda a: a.scene.aids.close())  # type: ignore[union-attr]


def open_agent_file(app: App) -> Look:
    """The settings' "Agent file (.py)" dialog."""
    scene = app.open_settings("checkers")
    scene.files.open(1)  # type: ignore[attr-defined]
    return Look(check=_dialog_open("agent file dialog", lambda a: _window_in(a, getattr(
        getattr(a.scene, "files", None), "dialog", None))), close=lambda a: a.scene.files.close())


def open_race(app: App) -> Look:
    from gameplay.ui.play.race_scene import RaceScene
    from gameplay.ui.play.race_scene import open_race as open_it
    match = _match(app, "checkers")
    frames(app, 2)
    race = open_it(match)
    assert isinstance(race, RaceScene)
    race.set_budget(0.1)  # the longest texts appear once every agent has answered
    pump(app, lambda: race.race.done)
    return Look()


PDN_ARCHIVE = "\n".join(f"""[Event "Scottish Open Championship, Glasgow, round {i}"]
[Date "2024.03.{i:02d}"]
[Black "Alexandrina Montgomery-Fitzgerald {i}"]
[White "Bartholomew Featherstonehaugh {i}"]
[Result "1/2-1/2"]
1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 5. 6-10 1/2-1/2
""" for i in range(1, 13))
"""Twelve games with long names (a club's archive): the list's cells shorten them, nothing else may be."""


def open_pdn(app: App) -> Look:
    from gameplay.rules.checkers.pdn_read import read_archive
    from gameplay.ui.scenes.pdn_browser import open_browser
    _match(app, "checkers")
    frames(app, 2)
    browser = open_browser(app, PDN_ARCHIVE, "club-archive.pdn", read_archive(PDN_ARCHIVE))
    frames(app, 2)
    browser.goto(6)
    data = {str(v) for row in browser.rows for v in (*row.cells, *row.record.tags.values())} | {browser.name}
    return Look(allowed_cuts=lambda text: any(v in text for v in data if len(v) > 3))


def open_growth(app: App) -> Look:
    from gameplay.ui.play.growth_scene import GrowthScene
    game = make_agent("tictactoe", "random").game
    scene = GrowthScene("tictactoe", game.parse_position("XO.XO...."))
    app.push(scene)
    pump(app, lambda: scene.data is not None or scene.error is not None, 120)
    return Look(check=lambda a, where: [f"{where}: {scene.error}"] if scene.error else [],
                ready=lambda: scene.surface is not None or scene.error is not None)


def open_policy(app: App) -> Look:
    from gameplay.ui.boards.pig_view import policy_figure
    from gameplay.ui.play.growth_scene import help_figure_scene
    scene = help_figure_scene(policy_figure("optimal:weights=hold20"))
    app.push(scene)
    pump(app, lambda: scene.data is not None or scene.error is not None, 120)
    return Look(check=lambda a, where: [f"{where}: {scene.error}"] if scene.error else [],
                ready=lambda: scene.surface is not None or scene.error is not None)


def open_treelab(app: App) -> Look:
    app.open_tree_lab()
    return Look()


SCENES: dict[str, Callable[[App], Look]] = {
    "menu": open_menu, "question": open_question,
    "settings-tictactoe": open_settings("tictactoe"), "settings-checkers": open_settings("checkers"),
    "settings-pig": open_settings("pig"), "settings-connect4": open_settings("connect4"),
    "tictactoe": open_game("tictactoe"), "checkers": open_game("checkers"), "pig": open_game("pig"),
    "connect4": open_game("connect4"),
    "overlay": open_overlay, "help": open_help("checkers"), "help-pig": open_help("pig"), "resume": open_resume,
    "confirm": open_confirm, "fen": open_fen, "file": open_file, "save": open_save, "agent-file": open_agent_file,
    "race": open_race, "pdn": open_pdn, "growth": open_growth,
    "policy": open_policy, "treelab": open_treelab,
}
"""Every scene walked, by name: title screen (and its saved-game question), the settings' four pages, the four
matches, the search-tree overlay (its widgets and side panel; the tree canvas has tests of its own), the help
window (Pig's has the policy button), the resume prompt, the match's confirm dialog, checkers' Paste FEN and
Load PDN dialogs, tic-tac-toe's Save dialog (JSON), the settings' agent file dialog, the race, the PDN game
browser, the growth and Pig policy figures, and the Tree Lab (its left panel)."""


# ----- the walk -----------------------------------------------------------------------------------------------------
@contextmanager
def projector_app(case: Case, mp: pytest.MonkeyPatch) -> Iterator[App]:
    """The App as it opens on ``case``'s projector (see the module docstring)."""
    mp.setattr(pygame.display, "get_driver", lambda: "projector")
    mp.setattr(pygame.display, "get_desktop_sizes", lambda: [case.desktop])
    real_set_mode = pygame.display.set_mode

    def set_mode(size: Any = (0, 0), flags: int = 0, *args: Any, **kwargs: Any) -> pygame.Surface:
        if flags & pygame.FULLSCREEN:  # the dummy driver's full screen is 1024x768 whatever is asked
            return real_set_mode(case.desktop, flags & ~pygame.FULLSCREEN, *args, **kwargs)
        return real_set_mode(size, flags, *args, **kwargs)

    mp.setattr(pygame.display, "set_mode", set_mode)
    folder = tempfile.mkdtemp(prefix="zoom-walk-")  # no window size nor game remembered from another walk
    mp.setenv("ARCADE_DATA_DIR", folder)
    app = App(fps=1000, fullscreen=case.fullscreen, settings_file=Path(folder) / "settings.toml")
    try:
        assert app.size == case.size and app.fullscreen == case.fullscreen
        yield app
    finally:
        app.close()
        projector.set_current(projector.Display())
        shutil.rmtree(folder, ignore_errors=True)


def walk(case: Case, scenes: list[str] | tuple[str, ...] | None = None, shots: str | None = None,
         monkeypatch: pytest.MonkeyPatch | None = None, shot_zooms: tuple[float, ...] = ()) -> list[str]:
    """Every zoom step of every scene (default :data:`SCENES`) in ``case``'s window; returns the problems found.

    ``shots``: a folder for a screenshot of each scene at its smallest step and from zoom 1.0 up (or at
    ``shot_zooms`` when given).
    """
    problems: list[str] = []
    mp = monkeypatch or pytest.MonkeyPatch()
    try:
        with warnings.catch_warnings(record=True) as caught, spy_drawn_text(mp) as drawn, \
                projector_app(case, mp) as app:
            warnings.simplefilter("always")
            for which in scenes or SCENES:
                problems += _walk_scene(app, case, which, drawn, caught, shots, shot_zooms)
    finally:
        if monkeypatch is None:
            mp.undo()
    return problems


def _walk_scene(app: App, case: Case, which: str, drawn: DrawnText, caught: list[Any], shots: str | None,
                shot_zooms: tuple[float, ...]) -> list[str]:
    problems: list[str] = []
    look = SCENES[which](app)
    drawn.allowed = look.allowed_cuts
    frames(app, 2)
    drawn.take()  # what was drawn at the zoom before the walk
    steps_offered = [z for z in projector.ZOOM_STEPS if z <= app.display.max_zoom + 1e-6]
    if app.display.zoom != steps_offered[0]:
        app.set_display(projector.fitted_display(
            projector.Display(zoom=steps_offered[0], theme=app.display.theme), app.size))
    last_area = 0
    steps = []
    while True:
        frames(app)
        where = f"{case.id} {which} zoom {app.display.zoom:g} (scale {projector.scale():g})"
        steps.append(app.display.zoom)
        problems += [f"{where}: warning {w.message}" for w in caught if "Label Rect is too small" in str(w.message)]
        caught.clear()
        problems += layout_problems(app, where)
        cut = drawn.take()
        if cut:
            problems.append(f"{where}: drawn text shortened: {cut[:3]}")
        problems += look.check(app, where)
        rect = look.board()
        if rect is not None:
            area = rect.width * rect.height
            if area < last_area:
                problems.append(f"{where}: the board shrank to {tuple(rect)}")
            last_area = area
        if shots and (app.display.zoom in shot_zooms if shot_zooms
                      else app.display.zoom in (steps[0],) or app.display.zoom >= 1.0):
            Path(shots).mkdir(parents=True, exist_ok=True)
            pump(app, look.ready, 120)
            app.notice = ("", 0.0)  # "Interface size 100%" would cover the top of the picture
            frames(app)
            pygame.image.save(pygame.display.get_surface(), f"{shots}/{which}_{case.id}_{app.display.zoom:g}.png")
        before = app.display.zoom
        app.zoom(1)
        if app.display.zoom == before:
            break
    if steps != steps_offered:
        problems.append(f"{case.id} {which}: walked the zoom steps {steps}, offered {steps_offered}")
    look.close(app)
    app.zoom(0)
    return problems
