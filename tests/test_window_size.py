"""The window's opening size (headless): it fits the desktop it opens on, and it reopens at the size (and in the
fullscreen state) it was closed at, shrunk to the display of the day.

SDL's dummy driver reports a 1024x768 "desktop" that is only a placeholder (fullscreen gives 1024x768 whatever is
asked), so the App fits nothing to it (``window_size.HEADLESS_DRIVERS``); the tests here stand in a real desktop by
replacing ``pygame.display.get_driver`` and ``pygame.display.get_desktop_sizes``, which is all the App reads.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path

import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gameplay.files import settings_file as sfile
from gameplay.files.settings import Settings
from gameplay.files.settings_fields import WINDOW_MIN
from gameplay.files.settings_file import load_settings
from gameplay.ui.shell.app import App
from gameplay.ui.shell.window_size import HEADLESS_DRIVERS, desktop_size
from gameplay.ui.widgets import projector

PROJECTORS = ((1024, 768), (1280, 720), (1280, 800), (1366, 768), (1920, 1080))
"""The classroom projectors' resolutions (the issue)."""


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("ARCADE_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("ARCADE_DATA_DIR", str(tmp_path))
    yield
    projector.set_current(projector.Display())


@pytest.fixture
def desktop(monkeypatch: pytest.MonkeyPatch) -> Callable[[tuple[int, int]], None]:
    """Pretend the window opens on a real display of a given size (see the module docstring)."""
    def use(size: tuple[int, int]) -> None:
        monkeypatch.setattr(pygame.display, "get_driver", lambda: "x11")
        monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [size])
    return use


def room(desktop: tuple[int, int]) -> tuple[int, int]:
    """What a desktop leaves a window: its size minus the title bar and taskbar allowance."""
    return desktop[0] - projector.DECORATIONS[0], desktop[1] - projector.DECORATIONS[1]


def saved_file() -> dict[str, object]:
    return tomllib.loads(sfile.settings_path().read_text(encoding="utf-8"))


# ----- the rule -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("desk", PROJECTORS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_default_window_fits_every_projector(desk: tuple[int, int]) -> None:
    w, h = projector.window_size_for(desk)
    assert (w, h) == (min(projector.DEFAULT_WINDOW[0], room(desk)[0]), min(projector.DEFAULT_WINDOW[1], room(desk)[1]))
    assert h <= desk[1] - 80 and w <= desk[0]  # the issue: 1280x800 on a 1280x720 screen lost 40 px top and bottom


def test_the_rule_on_the_issues_examples() -> None:
    assert projector.window_size_for((1280, 720)) == (1280, 640)
    assert projector.window_size_for((1920, 1080)) == projector.DEFAULT_WINDOW  # room enough: the default
    assert projector.window_size_for(None) == projector.DEFAULT_WINDOW  # no display to fit (dummy driver)
    assert projector.window_size_for((2560, 1440), (1700, 1000)) == (1700, 1000)  # a remembered size as it was
    assert projector.window_size_for((1280, 720), (1700, 1000)) == (1280, 640)  # ... shrunk to a smaller display
    assert projector.window_size_for((1920, 1080), (300, 200)) == WINDOW_MIN  # never under the smallest layout
    assert projector.window_size_for((800, 500)) == (800, 480)  # little room: the smallest layout, over the taskbar
    assert projector.window_size_for((600, 400)) == (600, 400)  # a desktop under the minimum: never larger than it


@given(desk=st.tuples(st.integers(320, 8000), st.integers(240, 5000)),
       wanted=st.none() | st.tuples(st.integers(1, 9000), st.integers(1, 9000)))
def test_the_window_never_exceeds_the_desktop(desk: tuple[int, int], wanted: tuple[int, int] | None) -> None:
    w, h = projector.window_size_for(desk, wanted)
    assert w <= desk[0] and h <= desk[1]
    assert w >= min(WINDOW_MIN[0], desk[0]) and h >= min(WINDOW_MIN[1], desk[1])
    if desk[0] >= WINDOW_MIN[0] + projector.DECORATIONS[0] and desk[1] >= WINDOW_MIN[1] + projector.DECORATIONS[1]:
        assert w <= room(desk)[0] and h <= room(desk)[1]
        asked = wanted or projector.DEFAULT_WINDOW
        assert w == max(WINDOW_MIN[0], min(asked[0], room(desk)[0]))
        assert h == max(WINDOW_MIN[1], min(asked[1], room(desk)[1]))


# ----- the App --------------------------------------------------------------------------------------------------------
def test_the_dummy_driver_has_no_desktop_to_fit() -> None:
    pygame.init()
    try:
        assert pygame.display.get_driver() in HEADLESS_DRIVERS
        assert pygame.display.get_desktop_sizes() == [(1024, 768)]  # the driver's placeholder
        assert desktop_size() is None
    finally:
        pygame.quit()
    app = App(fps=1000)
    try:
        assert app.size == projector.DEFAULT_WINDOW  # `demo --frames --screenshot` keeps its 1280x800 frames
    finally:
        app.close()


@pytest.mark.parametrize("desk", PROJECTORS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_app_opens_inside_the_display(desk: tuple[int, int], desktop: Callable[[tuple[int, int]], None]) -> None:
    desktop(desk)
    app = App(fps=1000)
    try:
        assert desktop_size() == desk
        assert app.size == projector.window_size_for(desk) and not app.fullscreen
        assert app.size[1] <= room(desk)[1] and app.size[0] <= desk[0]
        assert projector.max_scale_for(app.size) >= app.display.scale  # the zoom offered fits the window
    finally:
        app.close()


def test_the_app_reopens_at_the_size_it_was_closed_at(desktop: Callable[[tuple[int, int]], None]) -> None:
    desktop((1920, 1080))
    app = App(fps=1000)
    app.resize((1500, 900))
    app.close()
    data = saved_file()
    assert data["window_size"] == [1500, 900] and data["fullscreen"] is False
    app = App(fps=1000)
    assert app.size == (1500, 900)
    app.close()
    desktop((1280, 720))  # the same settings on the classroom's projector
    app = App(fps=1000)
    assert app.size == projector.window_size_for((1280, 720)) == (1280, 640)
    app.close()
    assert saved_file()["window_size"] == [1280, 640]  # what it was closed at, as the user last saw it


def test_fullscreen_is_remembered_with_the_window_behind_it(desktop: Callable[[tuple[int, int]], None]) -> None:
    desktop((1920, 1080))
    app = App(fps=1000)
    app.resize((1100, 700))
    app.toggle_fullscreen()  # F11
    assert app.fullscreen
    app.close()
    data = saved_file()
    assert data["fullscreen"] is True and data["window_size"] == [1100, 700]
    app = App(fps=1000)
    try:
        assert app.fullscreen and app.windowed_size == (1100, 700)
        app.toggle_fullscreen()  # F11 back: the window it had
        assert app.size == (1100, 700) and not app.fullscreen
    finally:
        app.close()
    assert saved_file()["fullscreen"] is False


def test_a_given_size_or_a_recording_leaves_the_remembered_window_alone(
        desktop: Callable[[tuple[int, int]], None]) -> None:
    desktop((1920, 1080))
    app = App(fps=1000)
    app.resize((1500, 900))
    app.close()
    before = sfile.settings_path().read_text(encoding="utf-8")
    app = App(size=(1000, 700), fps=1000)  # a tool's or a test's window
    assert app.size == (1000, 700)
    app.resize((900, 650))
    app.close()
    app = App(fps=1000, demo_frames=True)  # `demo --frames`: the default size, fitted; nothing written
    assert app.size == projector.DEFAULT_WINDOW
    app.close()
    assert sfile.settings_path().read_text(encoding="utf-8") == before


def test_a_command_line_fullscreen_wins_over_the_remembered_window(desktop: Callable[[tuple[int, int]], None]) -> None:
    desktop((1366, 768))
    app = App(fullscreen=True, fps=1000)
    try:
        assert app.fullscreen and app.windowed_size == projector.window_size_for((1366, 768))
    finally:
        app.close()


def test_an_unwritable_settings_folder_does_not_stop_the_close(desktop: Callable[[tuple[int, int]], None],
                                                               tmp_path: Path) -> None:
    desktop((1920, 1080))
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x", encoding="utf-8")
    app = App(fps=1000, settings_file=blocker / "settings.toml")
    app.resize((1000, 700))
    app.close()  # no exception: the size is simply not remembered
    assert blocker.read_text(encoding="utf-8") == "x"


# ----- the settings file ----------------------------------------------------------------------------------------------
def test_window_fields_round_trip_and_bad_values_reset(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    s = Settings(window_size=(1366, 688), fullscreen=True)
    sfile.save_settings(s, path)
    assert load_settings(path).settings == s
    assert "window_size" not in Settings().to_dict()  # TOML has no null: the default is left out
    for bad in ("[100, 100]", "[1280]", "[1280.5, 800]", "\"big\"", "[true, 800]", "[99999, 800]"):
        path.write_text(f"version = 1\nwindow_size = {bad}\nfullscreen = true\n", encoding="utf-8")
        res = load_settings(path)
        assert res.settings.window_size is None and res.settings.fullscreen is True, bad
        assert res.message is not None and "window_size" in res.message, bad


def test_a_small_window_does_not_forget_the_zoom_the_user_chose() -> None:
    app = App(size=(1920, 1080), fps=1000)
    try:
        app.zoom(1)  # Ctrl+plus: the largest step a 1920x1080 window offers
        chosen = app.display.zoom
        assert chosen > 1.0 and load_settings().settings.ui_scale == chosen
        app.resize((900, 650))  # too small for it: the window shows less ...
        assert app.display.zoom < chosen and projector.max_scale_for(app.size) >= app.display.scale
        assert app.settings.ui_scale == chosen and load_settings().settings.ui_scale == chosen  # ... and keeps it
        app.resize((1920, 1080))
        assert app.display.zoom == chosen
    finally:
        app.close()
