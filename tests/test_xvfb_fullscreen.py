"""Fullscreen on a bare X server (Xvfb, no window manager), issue 47: F11 made the window anew every 2 s, black, and
``play --fullscreen`` at 1920x1080 put the window at +320+140 with its side panel cut off.

Each test starts the arcade under its own Xvfb, presses F11 with xdotool or opens it fullscreen, then samples the
window (its id and geometry) while the app draws frames: one window, at +0+0, the size of the screen; F11 again
gives the windowed size back. Skips without Xvfb, xdotool or ImageMagick's ``import`` (as test_xvfb_window).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests import x11
from tests.x11 import ROOT, app_window, run_x, screenshot_when

xserver = x11.xserver
"""The fixture: a fresh Xvfb (no window manager) per test."""

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    not all(shutil.which(t) for t in ("Xvfb", "xdotool", "import")) or not sys.platform.startswith("linux"),
    reason="needs Xvfb, xdotool and ImageMagick's import (apt-get install xvfb xdotool imagemagick)")]

SAMPLE_S = 3.0
"""Seconds the window is watched after a switch: the loop made a new window within a frame of each switch (and on
the slower machine of the issue every 2 s)."""


def _env(xserver: str, tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ, DISPLAY=xserver, SDL_VIDEODRIVER="x11", SDL_AUDIODRIVER="dummy",
               ARCADE_CONFIG_DIR=str(tmp_path / "config"), ARCADE_DATA_DIR=str(tmp_path / "data"))
    env.pop("WAYLAND_DISPLAY", None)
    return env


def _start(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, str(ROOT / "main.py"), "play", "tictactoe", "--p2", "beginner", *args],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _stop(app: subprocess.Popen[str]) -> None:
    if app.poll() is None:
        app.send_signal(signal.SIGTERM)  # SDL turns it into a QUIT event: the App closes normally
    try:
        app.wait(10)
    except subprocess.TimeoutExpired:
        app.kill()
        app.wait(5)


def _windows(env: dict[str, str], app: subprocess.Popen[str]) -> list[tuple[str, tuple[int, int, int, int]]]:
    """The app's mapped windows now: ``(id, (x, y, width, height))`` each (a window gone between the two questions
    is left out)."""
    found = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(app.pid)], env=env,
                           capture_output=True, text=True, timeout=10).stdout.split()
    out = []
    for wid in found:
        geo = subprocess.run(["xdotool", "getwindowgeometry", "--shell", wid], env=env, capture_output=True,
                             text=True, timeout=10)
        if geo.returncode == 0:
            g = dict(line.split("=", 1) for line in geo.stdout.split())
            out.append((wid, (int(g["X"]), int(g["Y"]), int(g["WIDTH"]), int(g["HEIGHT"]))))
    return out


def _root_size(env: dict[str, str]) -> tuple[int, int]:
    """The X screen's size in pixels."""
    w, h = run_x(env, "xdotool", "getdisplaygeometry").split()
    return int(w), int(h)


def _panel_inside(path: Path, size: tuple[int, int]) -> None:
    """The screenshot ``path`` of a match filling a screen of ``size`` shows its side panel whole: something is drawn
    in the right third (the panel), and nothing touches the screen's right or bottom edge (the background's colour,
    read at the right edge's middle, frames everything drawn: a panel cut off by the screen would reach it)."""
    import pygame  # image loading needs no display
    img = pygame.image.load(str(path))
    assert img.get_size() == size
    w, h = size
    background = img.get_at((w - 1, h // 2))
    drawn = [(x, y) for x in range(0, w, 2) for y in range(0, h, 2) if img.get_at((x, y)) != background]
    assert drawn, "nothing drawn"
    right = max(x for x, _ in drawn)
    bottom = max(y for _, y in drawn)
    assert w * 2 // 3 < right < w - 4, f"the side panel's right edge is at x={right} on a {w}-pixel screen"
    assert bottom < h - 4, f"something is drawn at the bottom edge (y={bottom}) of a {h}-pixel screen"


def _settles_as(env: dict[str, str], app: subprocess.Popen[str], geometry: tuple[int, int, int, int],
                timeout_s: float = 30.0) -> str:
    """Wait (bounded: only a window that never gets there reaches ``timeout_s``) until the app shows one window of
    ``geometry``, then watch it for :data:`SAMPLE_S` seconds while the app draws: the same one window all along,
    never another, never another geometry. Returns its id."""
    deadline = time.monotonic() + timeout_s
    now = _windows(env, app)
    while not (len(now) == 1 and now[0][1] == geometry):
        assert app.poll() is None, app.stderr.read() if app.stderr else ""
        assert time.monotonic() < deadline, f"never one window of {geometry}: the app shows {now}"
        time.sleep(0.05)
        now = _windows(env, app)
    # one switch may make the window twice within a frame or two (pygame-ce's set_mode, then SDL): the window the
    # switch leaves is the one that has kept its id for half a second
    wid, since = now[0][0], time.monotonic()
    while time.monotonic() - since < 0.5:
        assert time.monotonic() < deadline, f"the window kept changing: {now}"
        time.sleep(0.05)
        now = _windows(env, app)
        if [w for w, _ in now] != [wid]:
            wid, since = (now[0][0] if now else ""), time.monotonic()
    samples = []
    end = time.monotonic() + SAMPLE_S
    while time.monotonic() < end:
        assert app.poll() is None, app.stderr.read() if app.stderr else ""
        samples.append(_windows(env, app))
        time.sleep(0.1)
    changed = [s for s in samples if s != [(wid, geometry)]]
    assert not changed, f"the window changed after the switch ({len(changed)} of {len(samples)} samples): {changed[:4]}"
    return wid


@pytest.mark.parametrize("xserver", [(1920, 1080)], indirect=True, ids=["1920x1080"])
@pytest.mark.parametrize("press", ["xtest", "sent"])
def test_f11_switches_once_and_stays(xserver: str, tmp_path: Path, press: str) -> None:
    """F11 pressed through the X server's keyboard (``xtest``), or sent to the window (``sent``: its release goes to
    the window F11 replaced, so SDL reports the key as held to the new one, the loop of the issue): the window
    becomes one fullscreen window at +0+0 and stays so; F11 again (an ordinary press) gives the windowed size back."""
    env = _env(xserver, tmp_path)
    app = _start(env)
    try:
        wid, geo = app_window(env, app)
        windowed = (int(geo["WIDTH"]), int(geo["HEIGHT"]))
        assert windowed[0] < 1920
        screenshot_when(env, tmp_path / "drawn.png", lambda shot: len(set(shot)) > 20, app)  # the loop runs
        for attempt in range(3):  # on a loaded machine the window first found can be gone by the next request
            wid = app_window(env, app)[0]  # (made anew early on: see the closing note of issue 47); find it again
            try:
                if press == "xtest":
                    run_x(env, "xdotool", "windowfocus", "--sync", wid)
                    run_x(env, "xdotool", "key", "F11")
                else:
                    run_x(env, "xdotool", "key", "--window", wid, "F11")
                break
            except AssertionError:
                if attempt == 2 or any(w == wid for w, _ in _windows(env, app)):
                    raise  # the window is still there: the tool failed for another reason
        full = _settles_as(env, app, (0, 0, 1920, 1080))
        shot = screenshot_when(env, tmp_path / "full.png", lambda s: len(set(s)) > 20, app)
        assert len(set(shot)) > 20, "the fullscreen window is blank"
        run_x(env, "xdotool", "windowfocus", "--sync", full)
        for _ in range(2 if press == "sent" else 1):  # the sent press's lost release: SDL takes one more press
            if len(_windows(env, app)) == 1 and _windows(env, app)[0][1][2] == 1920:
                run_x(env, "xdotool", "key", "F11")
                time.sleep(0.5)
        back = _windows(env, app)
        assert len(back) == 1 and back[0][1][2:] == windowed, back
        _settles_as(env, app, back[0][1])
    finally:
        _stop(app)
    assert app.returncode == 0, app.stderr.read() if app.stderr else ""


@pytest.mark.parametrize("xserver", [(1920, 1080), (1280, 720)], indirect=True, ids=["1920x1080", "1280x720"])
def test_play_fullscreen_fits_the_screen_it_opens_on(xserver: str, tmp_path: Path) -> None:
    """``play --fullscreen``: one window at +0+0 the size of the screen, the match laid out for it: the side panel's
    right edge drawn inside the screen (:func:`_panel_inside`). The screenshots go to ``$ARCADE_XVFB_SHOTS`` when
    set."""
    env = _env(xserver, tmp_path)
    app = _start(env, "--fullscreen")
    try:
        app_window(env, app)
        w, h = _root_size(env)
        _settles_as(env, app, (0, 0, w, h))
        path = tmp_path / "fullscreen.png"
        shot = screenshot_when(env, path, lambda s: len(set(s)) > 20, app)
        _panel_inside(path, (w, h))
        shots = os.environ.get("ARCADE_XVFB_SHOTS")
        if shots:
            shutil.copy(path, Path(shots) / f"xvfb_fullscreen_{w}x{h}.png")
        assert len(set(shot)) > 20
    finally:
        _stop(app)
    assert app.returncode == 0, app.stderr.read() if app.stderr else ""
