"""Figures render on the file backend whatever the environment says (issue 23, kind 5).

A leftover Jupyter ``MPLBACKEND=module://matplotlib_inline.backend_inline`` (its module absent here) made ``plot``
print a 22-line traceback and write nothing: matplotlib reads the variable when it is first imported and raises on
a value it cannot use. Each case runs in a fresh interpreter (the variable matters only at matplotlib's first
import), with the variable set to that Jupyter value and to a nonsense one: the command line's figures (``plot
ladder``, ``match --plot``) and the window's figure scene all draw, and ``pyplot`` is never imported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BAD_BACKENDS = ["module://matplotlib_inline.backend_inline", "no-such-backend"]


def run_py(code: str, tmp_path: Path, backend: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MPLBACKEND": backend, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "ARCADE_CONFIG_DIR": str(tmp_path / "cfg"), "ARCADE_DATA_DIR": str(tmp_path / "data"),
           "ARCADE_EXPORT_DIR": str(tmp_path / "exports"), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)


def test_the_environment_really_breaks_a_plain_import(tmp_path: Path) -> None:
    """The premise: without :func:`gameplay.pictures.plots.load_matplotlib`, these values stop matplotlib's import."""
    for backend in BAD_BACKENDS:
        r = run_py("import matplotlib", tmp_path, backend)
        assert r.returncode != 0 and "is not a valid value for backend" in r.stderr


@pytest.mark.parametrize("backend", BAD_BACKENDS)
def test_command_line_figures_render(backend: str, tmp_path: Path) -> None:
    import pygame
    ladder, match = tmp_path / "ladder.png", tmp_path / "match.svg"
    code = textwrap.dedent(f"""
        import os, sys
        from gameplay.cli import run
        a = run(["plot", "ladder", "--out", {str(ladder)!r}])
        b = run(["match", "tictactoe", "--p1", "alphabeta:depth=2", "--p2", "random", "--games", "4",
                 "--quiet", "--seed", "3", "--plot", {str(match)!r}])
        import matplotlib
        print("RESULT", a, b, matplotlib.get_backend(), "matplotlib.pyplot" in sys.modules,
              os.environ["MPLBACKEND"])
    """)
    r = run_py(code, tmp_path, backend)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    line = next(x for x in r.stdout.splitlines() if x.startswith("RESULT"))
    # both exit 0, the backend is Agg, pyplot untouched, and the user's variable is back for child processes
    assert line.split() == ["RESULT", "0", "0", "agg", "False", backend]
    assert pygame.image.load(str(ladder)).get_size() == (1920, 1080)
    assert match.read_text().lstrip().startswith(("<?xml", "<svg"))


@pytest.mark.parametrize("backend", BAD_BACKENDS)
def test_window_figure_renders(backend: str, tmp_path: Path) -> None:
    """The window's figure scene (tree growth of a small tic-tac-toe position) draws its picture."""
    code = textwrap.dedent("""
        import json, time
        from ai.agents.agents import make_agent
        from gameplay.ui.shell.app import App
        from gameplay.ui.play.growth_scene import GrowthScene
        app = App(size=(1024, 768), fps=1000)
        scene = GrowthScene("tictactoe", make_agent("tictactoe", "random").game.parse_position("XO.XO...."))
        app.push(scene)
        end = time.monotonic() + 120
        while scene.surface is None and scene.error is None and time.monotonic() < end:
            app.run(max_frames=1)
        print("RESULT", json.dumps({"error": scene.error, "size": list(scene.surface.get_size())
                                    if scene.surface is not None else None, "rect": list(scene.fig_rect.size)}))
        app.close()
    """)
    r = run_py(code, tmp_path, backend)
    assert r.returncode == 0, r.stderr
    line = next(x for x in r.stdout.splitlines() if x.startswith("RESULT"))
    got = json.loads(line.split(" ", 1)[1])
    assert got["error"] is None and got["size"] == got["rect"]
