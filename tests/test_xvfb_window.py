"""The real window under a virtual X server: start the arcade, click a cell with xdotool, screenshot, close.

Skips cleanly when ``Xvfb``, ``xdotool`` or ImageMagick's ``import`` is not installed (``.ci/run`` tries to install
them). Config and data folders are temporary, so no user file is touched. Takes a few seconds.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gameplay.rules.tictactoe import TicTacToe

ROOT = Path(__file__).resolve().parent.parent
TITLE = "Adversarial-Search Arcade"
SCREEN = (1280, 800)

pytestmark = pytest.mark.skipif(
    not all(shutil.which(t) for t in ("Xvfb", "xdotool", "import")) or not sys.platform.startswith("linux"),
    reason="needs Xvfb, xdotool and ImageMagick's import (apt-get install xvfb xdotool imagemagick)")


@pytest.fixture
def xserver(request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh Xvfb on a free display number (Xvfb picks it: ``-displayfd``); yields ``":N"``. Its screen is
    :data:`SCREEN`, or the size given by indirect parametrization."""
    screen = getattr(request, "param", SCREEN)
    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(write_fd), "-screen", "0", f"{screen[0]}x{screen[1]}x24",
                             "-nolisten", "tcp"], pass_fds=(write_fd,), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    os.close(write_fd)
    try:
        with os.fdopen(read_fd) as f:
            number = f.readline().strip()
        if not number:
            pytest.skip("Xvfb did not start")
        yield f":{number}"
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()


def _x(env: dict[str, str], *args: str, timeout: float = 10.0) -> str:
    return subprocess.run(list(args), env=env, capture_output=True, text=True, timeout=timeout,
                          check=True).stdout


def _app_window(env: dict[str, str], app: subprocess.Popen[str], timeout_s: float = 30.0) -> tuple[str, dict[str, str]]:
    """The app's mapped window and its ``xdotool getwindowgeometry --shell`` fields, once X answers for it.

    SDL writes the title as a UTF8_STRING WM_NAME, which ``xdotool search --name`` does not match, so the window is
    found by its _NET_WM_PID. ``search --sync`` returns the first window with that pid, which on a loaded machine
    can be gone by the next request (CI: ``getwindowgeometry`` exit 1 on the id it had just returned); the test
    looks again (every 50 ms, a cap of ``timeout_s`` only a window that never opens reaches), and says what the
    app printed when it exited instead. A window that never opens kills the app."""
    deadline = time.monotonic() + timeout_s
    while True:
        if app.poll() is not None:
            raise AssertionError(f"the app exited ({app.returncode}) before its window opened: "
                                 f"{app.stderr.read() if app.stderr else ''}")
        found = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(app.pid)], env=env,
                               capture_output=True, text=True, timeout=10)
        for wid in found.stdout.split():
            geo = subprocess.run(["xdotool", "getwindowgeometry", "--shell", wid], env=env, capture_output=True,
                                 text=True, timeout=10)
            if geo.returncode == 0:
                return wid, dict(line.split("=", 1) for line in geo.stdout.split())
        if time.monotonic() > deadline:
            app.kill()
            raise AssertionError(f"no window of pid {app.pid} within {timeout_s} s: search printed "
                                 f"{found.stdout!r} {found.stderr!r}")
        time.sleep(0.05)


def _screenshot(env: dict[str, str], path: Path) -> list[tuple[int, int, int]]:
    """Save the whole X screen as PNG and return its pixels on a coarse grid (every 8th pixel)."""
    _x(env, "import", "-window", "root", f"png:{path}")
    import pygame  # image loading needs no display
    img = pygame.image.load(str(path))
    w, h = img.get_size()
    return [tuple(img.get_at((x, y)))[:3] for y in range(0, h, 8) for x in range(0, w, 8)]  # type: ignore[misc]


def _screenshot_when(env: dict[str, str], path: Path, drawn: Any, app: subprocess.Popen[str],
                     timeout_s: float = 60.0) -> list[tuple[int, int, int]]:
    """:func:`_screenshot` once ``drawn(shot)`` holds: the window draws on its own schedule, so the test looks
    again (every 50 ms) until it shows what the test waits for; the last shot after ``timeout_s`` (a cap only a
    window that stopped drawing reaches), for the test's assertions to say what is missing."""
    deadline = time.monotonic() + timeout_s
    while True:
        assert app.poll() is None, app.stderr.read() if app.stderr else ""
        shot = _screenshot(env, path)
        if drawn(shot) or time.monotonic() > deadline:
            return shot
        time.sleep(0.05)


def _colours_near(shot: list[Any], centre: tuple[float, float], half: float) -> set[Any]:
    """The colours of the grid pixels (of :func:`_screenshot`) within ``half`` of ``centre``."""
    cols = SCREEN[0] // 8
    return {c for i, c in enumerate(shot) if abs(i % cols * 8 - centre[0]) <= half
            and abs(i // cols * 8 - centre[1]) <= half}


def _wait_for_plies(data: Path, plies: int, app: subprocess.Popen[str], timeout_s: float = 60.0) -> Any:
    """The autosaved game once it holds ``plies`` moves (a file the window writes, read every 50 ms); fails after
    ``timeout_s`` (a cap only a window that stopped playing reaches) or if the window died."""
    from gameplay.files import autosave, savegame
    deadline = time.monotonic() + timeout_s
    saved = None
    while time.monotonic() < deadline:
        assert app.poll() is None, app.stderr.read() if app.stderr else ""
        try:
            saved = autosave.load_autosave(data)
        except savegame.SaveError:
            saved = None  # not expected (writes are atomic), but the next poll decides
        if saved is not None and len(saved.moves) >= plies:
            return saved
        time.sleep(0.05)
    raise AssertionError(f"no reply within {timeout_s} s: autosave holds {saved.moves if saved else None}")


@pytest.mark.slow
def test_click_a_cell_in_the_real_window(xserver: str, tmp_path: Path) -> None:
    env = dict(os.environ, DISPLAY=xserver, SDL_VIDEODRIVER="x11", SDL_AUDIODRIVER="dummy",
               ARCADE_CONFIG_DIR=str(tmp_path / "config"), ARCADE_DATA_DIR=str(tmp_path / "data"))
    env.pop("WAYLAND_DISPLAY", None)
    app = subprocess.Popen([sys.executable, str(ROOT / "main.py"), "play", "tictactoe", "--p2", "beginner"],
                           cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wid, geo = _app_window(env, app)
        assert _x(env, "xdotool", "getwindowname", wid).strip() == TITLE
        x0, y0, w, h = (int(geo[k]) for k in ("X", "Y", "WIDTH", "HEIGHT"))
        assert w >= 640 and h >= 480
        before = _screenshot_when(env, tmp_path / "before.png", lambda shot: len(set(shot)) > 20, app)  # drawn
        # The centre cell (4) is at the centre of the board area: left of the side panel, below the status line.
        m = max(12, min(w, h) // 40)
        from gameplay.ui.boards.tictactoe_view import TicTacToeView
        from gameplay.ui.play.match_panel import match_areas  # the panel takes the width a square board leaves
        pw = match_areas((w, h), 1.0, TicTacToeView.aspect)[0].width
        cx = x0 + m + (w - pw - 3 * m) // 2
        cy = y0 + m + 62 + (h - 2 * m - 52 - 64 - 30) // 2
        _x(env, "xdotool", "mousemove", "--sync", str(cx), str(cy), "click", "1")  # the X server keeps the order
        # The window autosaves after every move of a game with a human side: wait (bounded) for the AI's reply.
        saved = _wait_for_plies(tmp_path / "data", 2, app)
        assert saved.game == "tictactoe" and saved.agents == ("human", "beginner")
        assert saved.moves[0] == "4", saved.moves  # the human's click landed on the centre cell
        game = TicTacToe()
        state = game.initial_state()
        for text in saved.moves:
            state = game.result(state, game.parse_move(state, text))  # each move legal where it was played
        assert saved.moves[1] != "4" and state.count("X") == 1 and state.count("O") == 1, state
        # Both marks are on the screen: a marked cell shows its stroke on the tile colour, an empty one only the
        # tile colour (the box stays clear of the cell numbers in the corners).
        side = min(w - pw - 3 * m, h - 2 * m - 52 - 64 - 30)
        gap = max(4, side // 48)
        pitch = (side - 2 * max(6, side // 36) - 2 * gap) / 3 + gap  # cell plus gap (tictactoe_view._Geometry)
        empty = next(c for c in range(9) if str(c) not in saved.moves)
        cells = (4, int(saved.moves[1]), empty)

        def colours_of(shot: list[Any], cell: int) -> set[Any]:
            row, col = divmod(cell, 3)
            return _colours_near(shot, (cx + (col - 1) * pitch, cy + (row - 1) * pitch), pitch * 0.3)

        after_path = tmp_path / "after.png"
        after = _screenshot_when(env, after_path, lambda shot: all(  # drawn with the AI's mark
            (len(colours_of(shot, c)) == 1) == (c == empty) for c in cells), app)
        assert app.poll() is None, app.stderr.read() if app.stderr else ""
        assert len(set(after)) > 20, "the screenshot is blank"
        changed = sum(a != b for a, b in zip(before, after, strict=True))
        assert changed > 50, "the click (and the AI's answer) changed nothing on the screen"
        for cell in cells:
            colours = colours_of(after, cell)
            if cell == empty:
                assert len(colours) == 1, f"empty cell {cell} is not plain: {colours}"
            else:
                assert len(colours) >= 2, f"no mark drawn in cell {cell} ({saved.moves})"
        assert wid in _x(env, "xdotool", "search", "--pid", str(app.pid)).split()  # the window is still there
        shots = os.environ.get("ARCADE_XVFB_SHOTS")
        if shots:
            shutil.copy(after_path, Path(shots) / "xvfb_after_click.png")
    finally:
        if app.poll() is None:
            app.send_signal(signal.SIGTERM)  # SDL turns it into a QUIT event: the App closes normally
            try:
                app.wait(10)
            except subprocess.TimeoutExpired:
                app.kill()
                app.wait(5)
    assert app.returncode == 0, app.stderr.read() if app.stderr else ""


@pytest.mark.slow
@pytest.mark.parametrize("xserver", [(1280, 720)], indirect=True, ids=["1280x720"])
def test_the_window_fits_a_small_projector_and_remembers_its_size(xserver: str, tmp_path: Path) -> None:
    """On a 1280x720 screen the window opens inside it (1280x800 lost 40 px top and bottom: the issue), and after
    a resize and a close it opens at that size again."""
    from gameplay.ui.widgets.projector import window_size_for
    env = dict(os.environ, DISPLAY=xserver, SDL_VIDEODRIVER="x11", SDL_AUDIODRIVER="dummy",
               ARCADE_CONFIG_DIR=str(tmp_path / "config"), ARCADE_DATA_DIR=str(tmp_path / "data"))
    env.pop("WAYLAND_DISPLAY", None)

    def open_window() -> tuple[subprocess.Popen[str], str, tuple[int, int]]:
        app = subprocess.Popen([sys.executable, str(ROOT / "main.py")], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        wid, geo = _app_window(env, app)
        return app, wid, (int(geo["WIDTH"]), int(geo["HEIGHT"]))

    def close(app: subprocess.Popen[str]) -> None:
        if app.poll() is None:
            app.send_signal(signal.SIGTERM)  # a QUIT event: the App closes normally and writes its settings
        try:
            app.wait(10)
        except subprocess.TimeoutExpired:
            app.kill()
            app.wait(5)
        assert app.returncode == 0, app.stderr.read() if app.stderr else ""

    app, wid, size = open_window()
    try:
        assert size == window_size_for((1280, 720)) and size[1] <= 720 - 80
        _x(env, "xdotool", "windowsize", "--sync", wid, "1000", "600")
        # Esc on the title screen quits, and writes the settings: a key from the X server reaches the App after the
        # resize (one connection, in order), where SIGTERM's QUIT event could overtake it
        _x(env, "xdotool", "windowfocus", "--sync", wid)
        _x(env, "xdotool", "key", "Escape")
        app.wait(60)
    finally:
        close(app)
    app, wid, size = open_window()
    try:
        assert size == (1000, 600)
    finally:
        close(app)
