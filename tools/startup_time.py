"""Measure the arcade's start-up time: from process start to the first frame on the screen.

Each run starts ``python main.py [play GAME --p2 beginner]`` with ``ARCADE_EXIT_AFTER_FIRST_FRAME=1``: the App
prints ``FIRST_FRAME_AT <epoch seconds>`` right after its first ``pygame.display.flip()`` and exits. The start-up
time is that instant minus the wall-clock time just before the process was spawned (so the interpreter's own
start and every import count). The process's total wall time (including shutdown) is reported too.

Usage::

    python tools/startup_time.py                 # the start menu and each game, 5 runs each, headless (SDL dummy)
    python tools/startup_time.py --runs 9 pig    # one target
    python tools/startup_time.py --display       # use the real display ($DISPLAY) instead of the dummy driver

Config and data folders point at a temporary folder, so no user file is read or written. Exit code 1 when a
median is above ``--target`` seconds (default 1.5).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from gameplay.rules.registry import GAME_NAMES  # noqa: E402 - after the path is set

TARGETS = ("menu", *GAME_NAMES)


def measure_once(target: str, env: dict[str, str], timeout_s: float = 60.0) -> tuple[float, float]:
    """Start the arcade once and return (seconds to the first frame, total wall seconds of the process).

    Args:
        target: ``"menu"`` or a game name.
        env: the environment of the child process.
        timeout_s: give up after this many seconds.

    Returns:
        (start-up seconds, process wall seconds).

    Raises:
        RuntimeError: the process failed or printed no ``FIRST_FRAME_AT`` line.
    """
    cmd = [sys.executable, str(ROOT / "main.py")]
    if target != "menu":
        cmd += ["play", target, "--p2", "beginner"]
    t0 = time.time()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout_s, check=False)
    wall = time.time() - t0
    for line in proc.stdout.splitlines():
        if line.startswith("FIRST_FRAME_AT "):
            return float(line.split()[1]) - t0, wall
    raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode} without a first frame:\n{proc.stderr[-2000:]}")


def main(argv: list[str] | None = None) -> int:
    """Run the measurements and print one line per target; returns 1 when a median misses the target."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("targets", nargs="*", default=list(TARGETS), help=f"any of {', '.join(TARGETS)}")
    ap.add_argument("--runs", type=int, default=5, help="runs per target (default 5)")
    ap.add_argument("--target", type=float, default=1.5, help="goal for the median in seconds (default 1.5)")
    ap.add_argument("--display", action="store_true", help="use the real display instead of SDL's dummy driver")
    args = ap.parse_args(argv)
    ok = True
    with tempfile.TemporaryDirectory(prefix="arcade-startup-") as tmp:
        env = dict(os.environ, ARCADE_EXIT_AFTER_FIRST_FRAME="1", ARCADE_CONFIG_DIR=tmp, ARCADE_DATA_DIR=tmp,
                   PYTHONDONTWRITEBYTECODE=os.environ.get("PYTHONDONTWRITEBYTECODE", ""))
        if not args.display:
            env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        print(f"{'target':<10} {'median s':>9} {'max s':>7} {'min s':>7} {'wall med':>9}   runs={args.runs}")
        for target in args.targets:
            firsts, walls = [], []
            for _ in range(args.runs):
                first, wall = measure_once(target, env)
                firsts.append(first)
                walls.append(wall)
            med = statistics.median(firsts)
            ok = ok and med <= args.target
            print(f"{target:<10} {med:9.3f} {max(firsts):7.3f} {min(firsts):7.3f} {statistics.median(walls):9.3f}"
                  f"   {'ok' if med <= args.target else 'SLOW'}  [{', '.join(f'{x:.2f}' for x in firsts)}]")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
