"""Measure the processor time the window takes while it shows a static board (nothing happening).

Opens the App on a hot-seat match (both sides human: no AI thinking, no animation), lets it settle for a second,
then runs ``App.run(max_seconds=SECONDS)`` and reports the process's user + system CPU time
(``resource.getrusage``) over that wall time, and the frames drawn. With the idle wait (``gameplay.ui.shell.idle``) the
loop waits for input instead of drawing 60 frames a second; ``--no-idle`` turns the wait off for a comparison.

Usage::

    python tools/idle_cpu.py                        # checkers, 5 s, SDL dummy driver
    python tools/idle_cpu.py pig --seconds 10
    SDL_VIDEODRIVER=x11 xvfb-run -a python tools/idle_cpu.py   # a real X server (flip costs what it costs)

The X server's own time is not counted. Config and data folders point at a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", nargs="?", default="checkers", choices=("tictactoe", "checkers", "pig"))
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds measured (default 5)")
    parser.add_argument("--no-idle", action="store_true", help="never wait for input (the loop before the wait)")
    args = parser.parse_args()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    folder = tempfile.mkdtemp(prefix="arcade-idle-")
    os.environ["ARCADE_CONFIG_DIR"] = folder
    os.environ["ARCADE_DATA_DIR"] = folder
    from ai.agents.agents import make_agent
    from gameplay.ui.shell.app import App
    app = App(size=(1280, 800))
    try:
        if args.no_idle:
            app.idle.wanted = lambda: False  # type: ignore[method-assign]
        app.start_match(args.game, make_agent(args.game, "human"), make_agent(args.game, "human"))
        app.run(max_seconds=1.0)  # the first layout, fonts, the worker's start
        frames = app.frames
        before, t0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
        app.run(max_seconds=args.seconds)
        after, t1 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        print(f"{args.game} static board{' (no idle wait)' if args.no_idle else ''}, "
              f"{os.environ['SDL_VIDEODRIVER']} driver: {t1 - t0:.2f} s wall, {cpu:.2f} s CPU = "
              f"{100 * cpu / (t1 - t0):.1f}% of a core, {app.frames - frames} frames, {app.idle.waits} idle waits")
    finally:
        app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
