"""Memory: a closed window frees its fonts, and a long session (every scene opened and closed 200 times, a tree
stepped through 2,000 steps) holds no more memory at its end than near its start.

The measure is the C heap's live bytes (``tests/memory_probe.py``), which a leak grows and the allocator's own
reserve does not. Before the fix, each window closed with ``pygame.quit()`` while its widget manager still held the
theme's fonts, and pygame-ce never frees a font made before a quit: 9.3 MB of live memory stayed behind per window
(the start menu at 1280x800, 2026-12-07).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from memory_probe import live_mb, needs_mallinfo, rss_mb
from ui_driver import frames, pump

from ai.agents.agents import make_agent
from gameplay.ui.scenes.menu import MenuScene
from gameplay.ui.shell.app import App
from gameplay.ui.shell.frame_clock import SteppedClock

pytestmark = needs_mallinfo()
ROOT = Path(__file__).resolve().parent.parent

SOAK_OPENS = 200
"""Times each scene is opened and closed in the soak."""
SOAK_STEPS = 2000
"""Overlay steps in the soak."""
SOAK_LIMIT_MB = 20.0
"""The most the live heap may grow over a soak."""


def _window_with_menu() -> None:
    app = App(size=(1280, 800), fps=1000, clock=SteppedClock())
    app.push(MenuScene())
    app.run(max_frames=2)
    app.close()


def _left_behind(window: Callable[[], None], times: int) -> float:
    """MB of live memory ``times`` more calls of ``window`` leave, after a first one (what the first window loads once
    per process: pygame's modules, the theme's files)."""
    window()
    before = live_mb()
    for _ in range(times):
        window()
    return live_mb() - before


def test_a_closed_window_leaves_no_font_behind() -> None:
    grown = _left_behind(_window_with_menu, 12)
    assert grown < 3.0, f"12 windows opened and closed left {grown:.1f} MB of live memory (9.3 MB each before)"


def _window_with_dialogs() -> None:
    app = App(size=(1024, 768), fps=1000, clock=SteppedClock())
    scene = app.start_match("checkers", make_agent("checkers", "human"), make_agent("checkers", "human"))
    scene.aids.toggle_help()  # a window of its own, open when the App closes
    app.run(max_frames=1)
    app.zoom(1)  # a new widget manager, the dialog made again in it
    app.run(max_frames=1)
    app.close()


def test_a_window_closed_with_a_dialog_open_leaves_nothing_behind() -> None:
    """The help window's close event stayed in pygame's queue, which keeps what an event holds after clear() and
    quit(): the window, its manager and every font and surface of its theme (32 MB a window before); and pygame_gui
    kept the first manager of the process as its default for ever (30 MB)."""
    grown = _left_behind(_window_with_dialogs, 4)
    assert grown < 3.0, f"4 windows closed with a dialog open left {grown:.1f} MB of live memory (32 MB each before)"


def test_the_probe_sees_a_window_that_keeps_its_fonts() -> None:
    """The measure can fail: a window whose widget manager (with the theme's fonts) is still held when pygame quits,
    as every window's was before the fix, leaves memory behind."""
    _window_with_menu()
    before = live_mb()
    held = []
    for _ in range(4):
        app = App(size=(1280, 800), fps=1000, clock=SteppedClock())
        app.push(MenuScene())
        app.run(max_frames=2)
        held.append(app.manager)  # alive at the quit, freed only after it
        app.close()
    held.clear()
    grown = live_mb() - before
    assert grown > 10.0, f"4 windows that kept their fonts left only {grown:.1f} MB"


# ----- the soak --------------------------------------------------------------------------------------------------
PDN = """[Event "Soak"]
[Result "1-0"]
1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 1-0
"""


def _open_settings(game: str) -> Callable[[App], Any]:
    return lambda app: app.open_settings(game)


def _open_match(game: str) -> Callable[[App], Any]:
    return lambda app: app.start_match(game, make_agent(game, "human"), make_agent(game, "human"))


def _open_help(app: App) -> Any:
    scene = app.start_match("checkers", make_agent("checkers", "human"), make_agent("checkers", "human"))
    scene.aids.toggle_help()
    return scene


def _open_growth(app: App) -> Any:
    from gameplay.ui.play.growth_scene import GrowthScene
    game = make_agent("tictactoe", "random").game
    scene = GrowthScene("tictactoe", game.parse_position("XO.XO...."))
    app.push(scene)
    return scene


def _open_race(app: App) -> Any:
    from gameplay.ui.play.race_scene import RaceScene
    scene = RaceScene("tictactoe", make_agent("tictactoe", "random").game.initial_state(), budget=0.05)
    app.push(scene)
    return scene


def _open_check(app: App) -> Any:
    from gameplay.ui.scenes.check_scene import CheckScene
    scene = CheckScene(ROOT / "examples" / "exercises" / "alphabeta.py")
    app.push(scene)
    return scene


OPENERS: dict[str, Callable[[App], Any]] = {
    "menu": lambda app: app.push(MenuScene()),
    "settings": _open_settings("checkers"),
    **{f"match-{g}": _open_match(g) for g in ("tictactoe", "checkers", "pig", "connect4")},
    "help": _open_help,
    "treelab": lambda app: app.open_tree_lab(),
    "pdn": lambda app: app.open_pdn_browser(PDN, "soak.pdn"),
    "growth": _open_growth,
    "race": _open_race,
    "check": _open_check,
}
"""Every scene of the window by name: the title screen, the settings (on its largest page: the four games' pages are
one scene, laid out by the same code, and the zoom walk lays out each), a match of each game (each has its own
board view), a match's help window, the Tree Lab, the PDN game browser, the growth figure, the race and the
grader's check of a student's file."""


def _soak_app() -> App:
    """The smallest window (its widgets are the same, its pixels fewer), with no scene under the one opened."""
    app = App(size=(640, 480), fps=1000, clock=SteppedClock(yield_s=0.0))
    frames(app, 1)
    return app


@pytest.mark.slow
@pytest.mark.parametrize("name", list(OPENERS))
def test_opening_and_closing_a_scene_200_times_holds_no_memory(name: str) -> None:
    app = _soak_app()
    try:
        opener = OPENERS[name]

        def cycle() -> None:
            opener(app)
            frames(app, 2)
            while app.scenes:
                app.pop()
            frames(app, 1)

        for _ in range(3):  # caches warm (fonts at this size, the shapes of each widget)
            cycle()
        before, rss_before = live_mb(), rss_mb()
        for _ in range(SOAK_OPENS):
            cycle()
        grown, rss_grown = live_mb() - before, rss_mb() - rss_before
        assert grown <= SOAK_LIMIT_MB, f"{name} opened {SOAK_OPENS} times: live memory grew {grown:.1f} MB"
        print(f"{name}: live {grown:+.1f} MB, resident {rss_grown:+.1f} MB over {SOAK_OPENS} opens")
    finally:
        app.close()


@pytest.mark.slow
def test_stepping_a_tree_2000_steps_holds_no_memory() -> None:
    """A teacher's lesson: the AI's decision (tic-tac-toe, alpha-beta to depth 4: 410 steps) stepped through again and
    again in the overlay of a 1280x800 window, each step drawn."""
    app = App(size=(1280, 800), fps=1000, clock=SteppedClock(yield_s=0.0))
    try:
        scene = app.start_match("tictactoe", make_agent("tictactoe", "human"),
                                make_agent("tictactoe", "alphabeta:depth=4"))
        scene.ai_delay_s = 0.0
        frames(app, 2)
        scene.play(scene.game.actions(scene.record.state)[0], "human")
        pump(app, lambda: scene.last_decision is not None and scene.runner.idle())
        scene.toggle_overlay()
        overlay = scene.overlay
        frames(app, 2)
        last = overlay.step_count() - 1

        def steps(n: int) -> None:
            for _ in range(n):
                if overlay.step == last:
                    overlay.first_step()
                else:
                    overlay.next_step()
                frames(app, 1)

        steps(50)
        before = live_mb()
        steps(SOAK_STEPS)
        grown = live_mb() - before
        assert grown <= SOAK_LIMIT_MB, f"{SOAK_STEPS} overlay steps: live memory grew {grown:.1f} MB"
    finally:
        app.close()
