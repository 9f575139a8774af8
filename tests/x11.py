"""The real window under a virtual X server, shared by the X tests (test_xvfb_window, test_xvfb_fullscreen): a fresh
Xvfb per test (the ``xserver`` fixture), xdotool and ImageMagick's ``import`` run with a timeout, the app's window
found by its pid, screenshots read back as pixels.

``NEEDS_X`` is the skip mark: these tests skip cleanly when ``Xvfb``, ``xdotool`` or ``import`` is not installed
(``.ci/run`` tries to install them).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
TITLE = "Adversarial-Search Arcade"
SCREEN = (1280, 800)

NEEDS_X = pytest.mark.skipif(
    not all(shutil.which(t) for t in ("Xvfb", "xdotool", "import")) or not sys.platform.startswith("linux"),
    reason="needs Xvfb, xdotool and ImageMagick's import (apt-get install xvfb xdotool imagemagick)")


@pytest.fixture
def xserver(request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh Xvfb on a free display number (Xvfb picks it: ``-displayfd``); yields ``":N"``. Its screen is
    :data:`SCREEN`, or the size given by indirect parametrization."""
    screen = getattr(request, "param", SCREEN)
    with open(os.path.join(tempfile.gettempdir(), "arcade-xvfb-tests.lock"), "w") as lock:
        # one X test at a time across the suite's workers: under load, a test's app was seen on a screen of another
        # test's size (1280x800 on its 1280x720 server) and windows vanished between two xdotool calls; a server
        # and its app alone on the machine's X side rule out one test's server or app reaching another's
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield from _one_server(screen)


def _one_server(screen: tuple[int, int]) -> Iterator[str]:
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


def run_x(env: dict[str, str], *args: str, timeout: float = 10.0) -> str:
    """Run an X tool (xdotool, import) on ``env``'s display; its stdout. Raises AssertionError with the tool's own
    message when it fails (exit code and stderr), TimeoutExpired after ``timeout`` seconds."""
    done = subprocess.run(list(args), env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(args)}: exit {done.returncode}: {done.stderr.strip()}"
    return done.stdout


def app_window(env: dict[str, str], app: subprocess.Popen[str], timeout_s: float = 30.0) -> tuple[str, dict[str, str]]:
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


def screenshot(env: dict[str, str], path: Path) -> list[tuple[int, int, int]]:
    """Save the whole X screen as PNG and return its pixels on a coarse grid (every 8th pixel)."""
    run_x(env, "import", "-window", "root", f"png:{path}")
    import pygame  # image loading needs no display
    img = pygame.image.load(str(path))
    w, h = img.get_size()
    return [tuple(img.get_at((x, y)))[:3] for y in range(0, h, 8) for x in range(0, w, 8)]  # type: ignore[misc]


def screenshot_when(env: dict[str, str], path: Path, drawn: Any, app: subprocess.Popen[str],
                     timeout_s: float = 60.0) -> list[tuple[int, int, int]]:
    """:func:`screenshot` once ``drawn(shot)`` holds: the window draws on its own schedule, so the test looks
    again (every 50 ms) until it shows what the test waits for; the last shot after ``timeout_s`` (a cap only a
    window that stopped drawing reaches), for the test's assertions to say what is missing."""
    deadline = time.monotonic() + timeout_s
    while True:
        assert app.poll() is None, app.stderr.read() if app.stderr else ""
        shot = screenshot(env, path)
        if drawn(shot) or time.monotonic() > deadline:
            return shot
        time.sleep(0.05)
