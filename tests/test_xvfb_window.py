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
from pathlib import Path
from typing import Any

import pytest

from gameplay.rules.tictactoe import TicTacToe
from tests import x11
from tests.x11 import NEEDS_X, ROOT, SCREEN, TITLE, app_window, run_x, screenshot_when

xserver = x11.xserver
"""The fixture: a fresh Xvfb (no window manager) per test."""

pytestmark = NEEDS_X


def _colours_near(shot: list[Any], centre: tuple[float, float], half: float) -> set[Any]:
    """The colours of the grid pixels (of :func:`tests.x11.screenshot`) within ``half`` of ``centre``."""
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
        wid, geo = app_window(env, app)
        assert run_x(env, "xdotool", "getwindowname", wid).strip() == TITLE
        x0, y0, w, h = (int(geo[k]) for k in ("X", "Y", "WIDTH", "HEIGHT"))
        assert w >= 640 and h >= 480
        before = screenshot_when(env, tmp_path / "before.png", lambda shot: len(set(shot)) > 20, app)  # drawn
        # The centre cell (4) is at the centre of the board area: left of the side panel, below the status line.
        m = max(12, min(w, h) // 40)
        from gameplay.ui.boards.tictactoe_view import TicTacToeView
        from gameplay.ui.play.match_panel import match_areas  # the panel takes the width a square board leaves
        pw = match_areas((w, h), 1.0, TicTacToeView.aspect)[0].width
        cx = x0 + m + (w - pw - 3 * m) // 2
        cy = y0 + m + 62 + (h - 2 * m - 52 - 64 - 30) // 2
        run_x(env, "xdotool", "mousemove", "--sync", str(cx), str(cy), "click", "1")  # the X server keeps the order
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
        after = screenshot_when(env, after_path, lambda shot: all(  # drawn with the AI's mark
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
        assert wid in run_x(env, "xdotool", "search", "--pid", str(app.pid)).split()  # the window is still there
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
        wid, geo = app_window(env, app)
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
        run_x(env, "xdotool", "windowsize", "--sync", wid, "1000", "600")
        # Esc on the title screen quits, and writes the settings: a key from the X server reaches the App after the
        # resize (one connection, in order), where SIGTERM's QUIT event could overtake it
        run_x(env, "xdotool", "windowfocus", "--sync", wid)
        run_x(env, "xdotool", "key", "Escape")
        app.wait(60)
    finally:
        close(app)
    app, wid, size = open_window()
    try:
        assert size == (1000, 600)
    finally:
        close(app)
