#!/usr/bin/env python3
"""Build the one-folder app and smoke-test it: ``python3 packaging/build_app.py`` (one command; ``.ci/run`` runs it).

1. A throw-away virtual environment (``build/app-venv``, made afresh each run) gets PyInstaller and the packages the
   app bundles, pinned in ``packaging/requirements-app.txt``. ``--python PY`` uses a Python that has them instead.
2. PyInstaller builds ``packaging/arcade.spec`` into ``dist/adversarial-arcade/`` (work files in ``build/app/``).
   A compiled checkout (the README's install with a C compiler, ``setup.py``) gives a compiled app.
3. The app runs under a clean environment, as ``env -i`` gives it (no PATH, no Python, no venv; only HOME and the
   arcade's settings and data folders, both throw-away): ``--help`` and every subcommand's ``--help`` (the list
   read from the app's ``--help``, checked against this checkout's), then each feature: ``moves``, ``perft``,
   ``analyze``, ``compare``, ``match`` with an agent file and with an evaluation file (worker processes),
   ``tournament`` (local processes, Swiss, ``--engine dask``, an agent file, the HTML report), ``plot`` (PNG, and SVG
   from the bundled ladder data), ``pdn``, ``tree`` (PNG), ``bench perft`` (the app's build line: compiled or pure
   Python, as the checkout), ``shot`` (whenever the checkout has it), and the window under Xvfb: ``demo tictactoe
   --frames 30 --screenshot``, then the title screen with no argument, a screenshot of the X screen and Esc to
   quit (the last part needs xdotool and ImageMagick).
   Every picture is checked to be the expected size and not blank; they stay in ``build/app-smoke/`` to look at.

It prints the app folder's size (``du -sh``), the build and smoke times, one line per check, and a closing line
``app-smoke: N passed, N failed, N skipped``; the exit code is 1 when a check failed (2 for bad arguments).
Standard library only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "packaging"))
import app_contents  # noqa: E402

REQUIREMENTS = ROOT / "packaging" / "requirements-app.txt"
SPEC = ROOT / "packaging" / "arcade.spec"
CHECKED_IN_THE_WINDOW = {"demo": "its last frame under Xvfb", "play": "it waits for a person: the title screen "
                         "(the same window with no argument) is run under Xvfb instead"}
"""The subcommands that open the window: :func:`smoke_window` checks them, not :func:`smoke_commands` (every other
subcommand has a feature check there; ``tests/test_packaging.py`` sees to it)."""
SHOT_ARGS = ("treelab", "--size", "1280x800", "--preset", "Two-level prune (value 3)", "--presenter")
"""The ``shot`` the smoke test renders (the Tree Lab in presenter mode, as a teacher's slide)."""
PDN_GAME = """[Event "app smoke test"]
[White "one"]
[Black "two"]
[Result "*"]

1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 *
"""
TREE_LAB_TREE = "[[3,12,8],[2,4,6],[14,5,2]]"
"""The textbook tree (AIMA Figure 5.2) for ``tree --tree``."""
PICTURE_CHECK = r"""
import os, sys
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
import pygame
img = pygame.image.load(sys.argv[1])
w, h = img.get_size()
step = max(1, min(w, h) // 200)
colours = {tuple(img.get_at((x, y)))[:3] for y in range(0, h, step) for x in range(0, w, step)}
print(w, h, len(colours))
"""
MIN_COLOURS = 16
"""A picture with fewer distinct colours (on a grid of about 200 x 200 points) counts as blank."""


class Smoke:
    """Runs the checks against the built app and counts them."""

    def __init__(self, app: Path, python: str, out: Path) -> None:
        self.app = app
        self.python = python
        self.out = out
        self.home = out / "home"
        self.passed = 0
        self.failed: list[str] = []
        self.skipped = 0

    def env(self, **extra: str) -> dict[str, str]:
        """The clean environment of ``env -i``, with a throw-away HOME, settings and data folders."""
        return {"HOME": str(self.home), "ARCADE_CONFIG_DIR": str(self.home / "config"),
                "ARCADE_DATA_DIR": str(self.home / "data"), **extra}

    def run(self, args: Sequence[str], *, env: dict[str, str] | None = None,
            timeout: float = 180.0) -> subprocess.CompletedProcess[str]:
        """The app with ``args``, in the smoke folder, under ``env`` (default :meth:`env`)."""
        return subprocess.run([str(self.app), *args], cwd=self.out, env=self.env() if env is None else env,
                              capture_output=True, text=True, timeout=timeout, check=False)

    def check(self, name: str, args: Sequence[str], *, expect: Callable[[subprocess.CompletedProcess[str]], str]
              | None = None, env: dict[str, str] | None = None, timeout: float = 180.0) -> str | None:
        """Run the app with ``args``; passes when it exits 0 and ``expect(result)`` returns ``""`` (else the
        reason). Returns the standard output when it passed."""
        t0 = time.monotonic()
        try:
            r = self.run(args, env=env, timeout=timeout)
        except subprocess.TimeoutExpired:
            self.fail(name, f"no answer within {timeout:.0f} s", args)
            return None
        problem = f"exit code {r.returncode}" if r.returncode != 0 else (expect(r) if expect else "")
        if problem:
            self.fail(name, problem, args, r.stdout + r.stderr)
            return None
        self.ok(name, time.monotonic() - t0)
        return r.stdout

    def ok(self, name: str, seconds: float) -> None:
        self.passed += 1
        print(f"ok    {name} ({seconds:.1f} s)", flush=True)

    def fail(self, name: str, why: str, args: Sequence[str] = (), output: str = "") -> None:
        self.failed.append(name)
        shown = " ".join(_quote(a) for a in args)
        print(f"FAIL  {name}: {why}" + (f"\n      command: env -i ... {self.app.name} {shown}" if args else ""),
              flush=True)
        for line in output.strip().splitlines()[-15:]:
            print(f"      | {line}")

    def skip(self, name: str, why: str) -> None:
        self.skipped += 1
        print(f"skip  {name}: {why}", flush=True)

    def picture(self, path: Path, size: tuple[int, int] | None = None) -> str:
        """``""`` when ``path`` is a PNG of ``size`` (when given) that is not blank, else what is wrong."""
        if not path.is_file():
            return f"{path.name} was not written"
        r = subprocess.run([self.python, "-c", PICTURE_CHECK, str(path)], capture_output=True, text=True,
                           timeout=60, check=False)
        if r.returncode != 0:
            return f"{path.name} cannot be read as a picture: {r.stderr.strip().splitlines()[-1:]}"
        w, h, colours = (int(v) for v in r.stdout.split())
        if size is not None and (w, h) != size:
            return f"{path.name} is {w}x{h}, expected {size[0]}x{size[1]}"
        if colours < MIN_COLOURS:
            return f"{path.name} looks blank ({colours} colours)"
        return ""


def _quote(a: str) -> str:
    return a if re.fullmatch(r"[\w.,:=/+@%-]+", a) else "'" + a.replace("'", "'\\''") + "'"


def subcommands(help_text: str) -> list[str]:
    """The subcommand names of a ``--help`` text (argparse's list under ``COMMAND``: four spaces, then a name)."""
    return re.findall(r"^    ([a-z][\w-]*)(?:\s|$)", help_text, flags=re.MULTILINE)


def _json(check: Callable[[dict[str, Any]], str]) -> Callable[[subprocess.CompletedProcess[str]], str]:
    """An ``expect`` that parses standard output as one JSON object and applies ``check`` to it."""
    def expect(r: subprocess.CompletedProcess[str]) -> str:
        try:
            obj = json.loads(r.stdout)
        except ValueError:
            return f"standard output is not one JSON object: {r.stdout[:200]!r}"
        return check(obj) if isinstance(obj, dict) else "the JSON is not an object"
    return expect


def _has(*keys: str) -> Callable[[dict[str, Any]], str]:
    def check(obj: dict[str, Any]) -> str:
        missing = [k for k in keys if k not in obj]
        return f"the JSON lacks {missing}" if missing else ""
    return check


# ----- the steps --------------------------------------------------------------------------------------------------
def make_venv(folder: Path) -> str:
    """A fresh virtual environment at ``folder`` with :data:`REQUIREMENTS`; returns its Python."""
    if folder.exists():
        shutil.rmtree(folder)
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    python = str(folder / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", "-r", str(REQUIREMENTS)],
                   check=True)
    return python


def build(python: str, dist: Path, work: Path) -> None:
    """PyInstaller over :data:`SPEC` (its log in ``work/pyinstaller.log``, the last lines shown when it fails)."""
    work.mkdir(parents=True, exist_ok=True)
    log = work / "pyinstaller.log"
    with open(log, "w", encoding="utf-8") as f:
        r = subprocess.run([python, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN", "--distpath",
                            str(dist), "--workpath", str(work), str(SPEC)], cwd=ROOT, stdout=f,
                           stderr=subprocess.STDOUT, check=False)
    if r.returncode != 0:
        print("\n".join(log.read_text(encoding="utf-8").splitlines()[-30:]))
        raise SystemExit(f"error: PyInstaller failed (exit {r.returncode}); the whole log: {log}")


def folder_size(folder: Path) -> str:
    """``du -sh`` of ``folder`` (its disk use), with the apparent size in bytes."""
    total = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())
    du = shutil.which("du")
    shown = (subprocess.run([du, "-sh", str(folder)], capture_output=True, text=True, check=True).stdout.split()[0]
             if du else f"{total / 2**20:.0f}M")
    return f"{shown} (du -sh; {total:,} bytes in its files)"


def checkout_status(python: str) -> str:
    """This checkout's build line (``gameplay.rules.compiled.status_line``): compiled with mypyc, or pure Python."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from gameplay.rules.compiled import status_line; "
            "print(status_line())")
    env = {k: v for k, v in os.environ.items() if k != "ARCADE_PURE"}
    return subprocess.run([python, "-c", code, str(ROOT)], capture_output=True, text=True, check=True,
                          env=env).stdout.strip()


STUDENT_MINIMAX = """def minimax_decision(state, game):
    player = game.to_move(state)

    def value(s, maximize):
        if game.is_terminal(s):
            return game.utility(s, player)
        vals = [value(game.result(s, a), not maximize) for a in game.actions(s)]
        return max(vals) if maximize else min(vals)

    return max(game.actions(state), key=lambda a: value(game.result(state, a), False))
"""
"""A student's plain minimax (``check``'s smoke test: it passes every case)."""


def smoke_commands(s: Smoke, expected: list[str], status: str) -> None:
    """Every subcommand's ``--help``, then the features one by one."""
    examples = ROOT / "examples" / "agents"
    for name in ("tictactoe_agent.py", "checkers_eval.py"):
        shutil.copy(examples / name, s.out / name)
    (s.out / "smoke.pdn").write_text(PDN_GAME, encoding="utf-8")

    s.check("--help with nothing in the environment", ["--help"], env={},
            expect=lambda r: "" if r.stdout.startswith("usage: ") else "no usage line")
    listed = subcommands(s.run(["--help"]).stdout)
    if listed == expected:
        s.ok(f"the app lists the checkout's {len(listed)} subcommands: {' '.join(listed)}", 0.0)
    else:
        s.fail("subcommands", f"the app lists {listed}, the checkout {expected}")
    for command in listed:
        s.check(f"{command} --help", [command, "--help"],
                expect=lambda r, c=command: "" if f" {c}" in r.stdout.splitlines()[0] else "no usage line")

    s.check("moves", ["moves", "checkers", "--json"], expect=_json(
        lambda o: "" if len(o.get("moves", [])) == 7 else f"{len(o.get('moves', []))} moves, expected 7"))
    s.check("perft", ["perft", "tictactoe", "--depth", "9", "--count-terminal", "--json"], expect=_json(
        lambda o: "" if o.get("nodes") == 255168 else f"{o.get('nodes')} nodes, expected 255168"))
    s.check("bench perft: the build line", ["bench", "perft"], timeout=300, expect=lambda r: "" if (
        r.stdout.splitlines()[:1] == [status]) else f"first line {r.stdout.splitlines()[:1]}, expected {status!r}")
    s.check("analyze checkers (opening book, endgame tables)", ["analyze", "checkers", "--agent",
            "expert:time=0.5", "--quiet", "--json"], expect=_json(_has("move", "value", "depth")))
    s.check("analyze tictactoe", ["analyze", "tictactoe", "--agent", "alphabeta", "--quiet", "--json"],
            expect=_json(lambda o: "" if o.get("value") == 0 else f"value {o.get('value')}, expected 0 (a draw)"))
    s.check("analyze pig (expectimax)", ["analyze", "pig", "--agent", "expectimax:depth=3", "--quiet", "--json"],
            expect=_json(_has("move", "value")))
    s.check("compare", ["compare", "tictactoe", "--agents", "minimax:depth=3", "alphabeta:depth=3", "--json"],
            expect=_json(lambda o: "" if o else "empty"))
    games = lambda n: _json(lambda o: "" if o.get("games") == n else f"games {o.get('games')}, expected {n}")  # noqa: E731
    s.check("match with an agent file, 2 worker processes", ["match", "tictactoe", "--p1",
            "file:tictactoe_agent.py", "--p2", "easy", "--games", "4", "--jobs", "2", "--seed", "1", "--json"],
            expect=games(4))
    s.check("match with an evaluation file", ["match", "checkers", "--p1", "file:checkers_eval.py:depth=2",
            "--p2", "random", "--games", "2", "--seed", "1", "--json"], expect=games(2))
    report = s.out / "tournament.html"
    s.check("tournament (local processes, an agent file, the HTML report)", ["tournament", "tictactoe",
            "--agents", "easy", "medium", "file:tictactoe_agent.py", "--games-per-pair", "2", "--time", "0.2",
            "--jobs", "2", "--quiet", "--report", str(report), "--journal", str(s.out / "local.jsonl"), "--json"],
            expect=_json(lambda o: "" if report.is_file() else "no HTML report"))
    s.check("tournament --format swiss (networkx's matching)", ["tournament", "tictactoe", "--agents",
            *(f"random:seed={k}" for k in range(1, 6)), "--format", "swiss", "--games-per-pair", "1", "--quiet",
            "--journal", str(s.out / "swiss.jsonl"), "--json"], expect=_json(lambda o: "" if o else "empty"))
    s.check("tournament --engine dask", ["tournament", "tictactoe", "--agents", "easy", "file:tictactoe_agent.py",
            "--games-per-pair", "2", "--time", "0.2", "--jobs", "2", "--engine", "dask", "--quiet", "--journal",
            str(s.out / "dask.jsonl"), "--json"], expect=_json(lambda o: "" if o else "empty"))
    png = s.out / "growth.png"
    s.check("plot growth (PNG)", ["plot", "growth", "tictactoe", "--max-depth", "4", "--out", str(png)],
            expect=lambda r: s.picture(png))
    svg = s.out / "ladder.svg"
    s.check("plot ladder (SVG, the bundled ladder data)", ["plot", "ladder", "--out", str(svg)],
            expect=lambda r: "" if svg.is_file() and b"<svg" in svg.read_bytes()[:2000] else "no SVG written")
    s.check("pdn", ["pdn", "smoke.pdn", "--json"], expect=_json(lambda o: "" if [
        g.get("plies") for g in o.get("games", [])] == [6] else f"games {o.get('games')}, expected one of 6 plies"))
    tree = s.out / "tree.png"
    s.check("tree (PNG)", ["tree", "tictactoe", "--position", "XO.XO....", "--agent", "alphabeta", "--out",
                           str(tree)], expect=lambda r: s.picture(tree))
    s.check("tree --tree (Tree Lab)", ["tree", "--tree", TREE_LAB_TREE, "--agent", "alphabeta", "--json"],
            expect=_json(lambda o: "" if o.get("value") == 3 else f"value {o.get('value')}, expected 3"))
    (s.out / "student_minimax.py").write_text(STUDENT_MINIMAX, encoding="utf-8")
    s.check("check (a student's minimax in its own process)", ["check", "student_minimax.py", "--json"],
            expect=_json(lambda o: "" if o.get("passed", 0) > 0 and o.get("failed") == 0
                         else f"passed {o.get('passed')}, failed {o.get('failed')}: a plain minimax must pass"))
    if "shot" in listed:
        shot = s.out / "shot.png"
        s.check("shot (Tree Lab, presenter)", ["shot", *SHOT_ARGS, "--out", str(shot)],
                expect=lambda r: s.picture(shot, (1280, 800)))
    else:
        s.skip("shot", "not in this checkout")


def smoke_window(s: Smoke) -> None:
    """The window under a fresh Xvfb: a demo's last frame, then the title screen (no argument) and Esc."""
    if shutil.which("Xvfb") is None:
        s.skip("window", "Xvfb is not installed (apt-get install xvfb)")
        return
    read_fd, write_fd = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_fd)
    try:
        with os.fdopen(read_fd) as f:
            number = f.readline().strip()
        if not number:
            s.fail("window", "Xvfb did not start")
            return
        env = s.env(DISPLAY=f":{number}")
        demo = s.out / "demo.png"
        s.check("window: demo tictactoe --frames 30 --screenshot", ["demo", "tictactoe", "--frames", "30",
                "--screenshot", str(demo)], env=env, expect=lambda r: s.picture(demo))
        if not (shutil.which("xdotool") and shutil.which("import")):
            s.skip("window: the title screen", "needs xdotool and ImageMagick's import (apt-get install xdotool "
                   "imagemagick)")
            return
        title_screen(s, env)
    finally:
        xvfb.terminate()
        try:
            xvfb.wait(5)
        except subprocess.TimeoutExpired:
            xvfb.kill()


def title_screen(s: Smoke, env: dict[str, str]) -> None:
    """The app with no argument: its window appears, the screen is not blank, Esc quits it with exit code 0."""
    name = "window: the title screen (no argument), Esc quits"
    x_env = {**env, "PATH": os.environ.get("PATH", "/usr/bin:/bin")}  # for xdotool and import, not the app
    t0 = time.monotonic()
    app = subprocess.Popen([str(s.app)], cwd=s.out, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
    try:
        found = subprocess.run(["xdotool", "search", "--sync", "--pid", str(app.pid)], env=x_env,
                               capture_output=True, text=True, timeout=30, check=False)
        if found.returncode != 0 or not found.stdout.split():
            s.fail(name, "no window appeared within 30 s")
            return
        wid = found.stdout.split()[0]
        time.sleep(2.0)  # the first frames drawn
        shot = s.out / "title.png"
        subprocess.run(["import", "-window", "root", f"png:{shot}"], env=x_env, timeout=30, check=True,
                       capture_output=True)
        problem = s.picture(shot, (1280, 800))
        subprocess.run(["xdotool", "key", "--window", wid, "Escape"], env=x_env, timeout=10, check=False)
        try:
            code = app.wait(30)
        except subprocess.TimeoutExpired:
            s.fail(name, "Esc did not close the window within 30 s")
            return
        if problem or code != 0:
            out = app.stdout.read() if app.stdout else ""
            s.fail(name, problem or f"exit code {code}", [], out)
            return
        s.ok(name, time.monotonic() - t0)
    finally:
        if app.poll() is None:
            app.kill()
            app.wait(10)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python3 packaging/build_app.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--python", default=None, help="a Python that has packaging/requirements-app.txt installed "
                   "(default: a throw-away virtual environment in build/app-venv)")
    p.add_argument("--no-build", action="store_true", help="smoke-test the app already in --dist")
    p.add_argument("--dist", default=str(ROOT / "dist"), help="where the app folder goes (default: dist/)")
    a = p.parse_args(argv)
    dist = Path(a.dist).resolve()
    app = dist / app_contents.APP_NAME / app_contents.APP_NAME
    t0 = time.monotonic()
    if a.python is not None:
        python = a.python
    else:
        print(f"build environment: build/app-venv (requirements-app.txt {_digest(REQUIREMENTS)})", flush=True)
        python = make_venv(ROOT / "build" / "app-venv")
    t_env = time.monotonic()
    status = checkout_status(python)
    if not a.no_build:
        print(f"building {app.parent} ({status})", flush=True)
        build(python, dist, ROOT / "build" / "app")
    t_build = time.monotonic()
    if not app.is_file():
        print(f"error: no app at {app} (build it first)", file=sys.stderr)
        return 2
    print(f"app folder: {app.parent}: {folder_size(app.parent)}", flush=True)
    out = ROOT / "build" / "app-smoke"
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    s = Smoke(app, python, out)
    s.home.mkdir()
    expected = subcommands(subprocess.run([python, str(ROOT / "main.py"), "--help"], cwd=ROOT, capture_output=True,
                                          text=True, check=True).stdout)
    smoke_commands(s, expected, status)
    smoke_window(s)
    t_end = time.monotonic()
    print(f"times: environment {t_env - t0:.0f} s, build {t_build - t_env:.0f} s, smoke {t_end - t_build:.0f} s; "
          f"pictures in {out}")
    if s.failed:
        print(f"failed: {', '.join(s.failed)}")
    print(f"app-smoke: {s.passed} passed, {len(s.failed)} failed, {s.skipped} skipped")
    return 1 if s.failed else 0


def _digest(path: Path) -> str:
    return "sha256 " + hashlib.sha256(path.read_bytes()).hexdigest()[:12]


if __name__ == "__main__":
    sys.exit(main())
