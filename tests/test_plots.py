"""Figures (issue 15): each plot command writes a PNG that decodes and an SVG that parses; the window's figure
scenes open headless, compute on their thread and draw; the ladder CSV is docs/strength.md's measured table."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from pathlib import Path
from xml.dom import minidom

import pygame
import pytest
from ui_driver import click, frames, key, pump

from ai.agents.agents import make_agent
from gameplay.cli import run
from gameplay.pictures.plots import FILE_SIZE, LADDER_CSV, elo_estimate, read_ladder
from gameplay.ui.boards.pig_view import policy_figure
from gameplay.ui.play.growth_scene import FigureScene, GrowthScene, TreeGrowthScene, help_figure_scene
from gameplay.ui.shell.app import App

ROOT = Path(__file__).resolve().parents[1]


def png_size(path: Path) -> tuple[int, int]:
    return pygame.image.load(str(path)).get_size()  # raises if it does not decode


def svg_ok(path: Path) -> bool:
    doc = minidom.parse(str(path))  # raises if it does not parse
    return doc.documentElement.tagName == "svg"


@pytest.mark.slow
def test_plot_growth_writes_png_and_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png, svg = tmp_path / "g.png", tmp_path / "sub" / "g.svg"
    assert run(["plot", "growth", "tictactoe", "--max-depth", "3", "--out", str(png)]) == 0
    assert png_size(png) == FILE_SIZE
    svg.parent.mkdir()  # --out never makes folders (issue 48: test_game_file_faults refuses a missing one)
    assert run(["plot", "growth", "checkers", "--max-depth", "2", "--out", str(svg), "--quiet"]) == 0
    assert svg_ok(svg)
    texts = [n.firstChild.data for n in minidom.parse(str(svg)).getElementsByTagName("text") if n.firstChild]
    caption = " ".join(" ".join(texts).split())  # the caption's lines, joined where they were wrapped
    assert "Made by: python main.py plot growth checkers --max-depth 2 --out" in caption  # the command
    assert f"wrote {png}" in capsys.readouterr().out


@pytest.mark.slow
def test_plot_pig_policy_and_ladder(tmp_path: Path) -> None:
    assert run(["plot", "pig-policy", "--agent", "optimal:weights=hold20", "--out", str(tmp_path / "p.png")]) == 0
    assert png_size(tmp_path / "p.png") == FILE_SIZE
    assert run(["plot", "pig-policy", "--agent", "none", "--out", str(tmp_path / "p.svg")]) == 0
    assert svg_ok(tmp_path / "p.svg")
    assert run(["plot", "ladder", "--out", str(tmp_path / "l.svg")]) == 0
    assert svg_ok(tmp_path / "l.svg")
    assert run(["plot", "ladder", "--out", str(tmp_path / "l.png")]) == 0
    assert png_size(tmp_path / "l.png") == FILE_SIZE


def test_match_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m.png"
    args = ["match", "tictactoe", "--p1", "alphabeta:depth=2", "--p2", "random", "--games", "6", "--quiet"]
    assert run(args + ["--plot", str(out), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert png_size(out) == FILE_SIZE
    per = [1.0 if g["winner"] == "p1" else 0.0 if g["winner"] == "p2" else 0.5 for g in obj["games_list"]]
    n, s = len(per), sum(per) / len(per)
    se = (sum((x - s) ** 2 for x in per) / (n - 1) / n) ** 0.5
    assert elo_estimate(s, se, n) == pytest.approx((obj["elo_diff"], obj["elo_error_95"]))  # the plotted Elo


@pytest.mark.parametrize("argv", [
    ["plot", "growth", "tictactoe", "--out", "x.pdf"],
    ["plot", "growth", "pig", "--out", "x.png"],
    ["plot", "pig-policy", "--agent", "human", "--out", "x.png"],
    ["match", "tictactoe", "--p1", "random", "--p2", "random", "--plot", "x.jpg"],
    ["plot", "ladder", "--data", "no-such.csv", "--out", "x.png"],
])
def test_bad_input_exits_2(argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert run(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not list(tmp_path.iterdir())  # nothing written, no games played


def test_ladder_csv_is_the_docs_table() -> None:
    page = (ROOT / "docs" / "strength.md").read_text(encoding="utf-8")  # its "Difficulty ladder" tables
    rows = read_ladder(LADDER_CSV)
    assert len(rows) == 13
    for r in rows:
        line = next(ln for ln in page.splitlines() if f"`{r.command}`" in ln)
        counts = f"{r.won:,} - {r.lost:,}" + (f" - {r.drawn:,}" if r.game != "Pig" else "")
        assert f"| {r.games:,} | {counts} |" in line, r.command
        if r.exact is not None:
            assert f"| {r.exact:.4f} |" in line
        if r.game != "checkers":  # the page prints the interval; checkers rows print the Elo instead
            lo, hi = r.interval
            digits = 4 if r.game == "tic-tac-toe" else 3
            assert re.search(rf"\| {lo:.{digits}f} - {hi:.{digits}f} \|", line), (r.command, lo, hi)


# ----- the window ------------------------------------------------------------------------------------------------
@pytest.fixture
def app(make_app: Callable[..., App], data_dir: Path, export_dir: Path) -> App:
    return make_app()


def test_growth_scene_computes_draws_and_exports(app: App, tmp_path: Path) -> None:
    game = make_agent("tictactoe", "random").game
    scene = GrowthScene("tictactoe", game.parse_position("XO.XO...."))
    gate = threading.Event()  # the computation waits until the window has drawn (no race with a fast machine)
    inner = scene.compute
    scene.compute = lambda stop, progress: (gate.wait(30), inner(stop, progress))[1]  # type: ignore[method-assign]
    app.push(scene)
    frames(app, 2)
    assert scene.surface is None and "computing" in scene.status  # never waits for the thread
    assert scene.busy() and not app.idle.wanted()  # drawn at full frame rate while the figure is made
    gate.set()
    pump(app, lambda: scene.surface is not None, timeout_s=120)
    assert scene.surface is not None and scene.surface.get_size() == scene.fig_rect.size
    app.idle.last_activity -= 60.0  # long after the last event (no waiting in the test)
    assert not scene.busy() and app.idle.wanted()  # the figure shown: the window waits for input
    assert scene.data.max_depth == 5 and scene.data.position == "XO.XO...."
    key(app, pygame.K_e)
    assert scene.export_job is not None
    scene.export_job.result(60)
    files = list((tmp_path / "exports").glob("growth-tictactoe-*.png"))
    assert len(files) == 1 and png_size(files[0]) == FILE_SIZE and "Exported" in (scene.message or "")
    click(app, scene.widget("back").get_abs_rect().center)
    assert app.scene is not scene


def test_overlay_growth_button_opens_the_decision_position(app: App) -> None:
    from gameplay.ui.play.match import MatchScene
    match = MatchScene("tictactoe", (make_agent("tictactoe", "human"), make_agent("tictactoe", "alphabeta:depth=2")),
                       ai_delay_s=0.0)
    app.push(match)
    frames(app, 1)
    match.play(4, "human")
    pump(app, lambda: match.last_decision is not None)
    key(app, pygame.K_t)  # the overlay shows the decision
    ov = match.overlay.tree_overlay
    from gameplay.ui.overlay.overlay_draw import bar_specs
    assert "growth" in [n for n, _ in bar_specs(ov)]
    ov.press("growth")
    scene = app.scene
    assert isinstance(scene, GrowthScene) and scene.state == ov.info.state
    key(app, pygame.K_ESCAPE)  # back, the work cancelled
    assert app.scene is match and scene.cancelled
    pig = app.start_match("pig", make_agent("pig", "human"), make_agent("pig", "human"))
    assert "growth" not in [n for n, _ in bar_specs(pig.overlay.tree_overlay)]


@pytest.mark.slow
def test_tree_lab_growth_uses_random_trees_like_its_tree(app: App) -> None:
    lab = app.open_tree_lab()
    frames(app, 2)
    lab.overlay.tree_overlay.press("growth")
    scene = app.scene
    assert isinstance(scene, TreeGrowthScene) and scene.branching == 3  # AIMA figure 5.2: three children
    pump(app, lambda: scene.surface is not None or scene.error is not None, timeout_s=120)
    assert scene.error is None and scene.surface is not None
    assert [s.label for s in scene.data.series][0] == "minimax"


def test_pig_help_opens_the_policy_picture(app: App) -> None:
    match = app.start_match("pig", make_agent("pig", "human"), make_agent("pig", "human"))
    frames(app, 2)
    key(app, pygame.K_F1)
    help_window = match.aids.help
    assert help_window is not None and help_window.policy_button is not None
    click(app, help_window.policy_button.get_abs_rect().center)
    scene = app.scene
    assert isinstance(scene, FigureScene) and scene.stem == "pig-policy"  # Pig's window parts' figure
    assert help_window.policy_button.text == "Policy picture"
    key(app, pygame.K_ESCAPE)
    assert app.scene is match


@pytest.mark.slow
def test_pig_policy_scene_draws(app: App) -> None:
    scene = help_figure_scene(policy_figure("optimal:weights=hold20"))
    app.push(scene)
    pump(app, lambda: scene.surface is not None, timeout_s=120)
    assert scene.data.agent == "optimal:weights=hold20" and scene.error is None


def test_a_figure_left_while_computing_drops_its_exception_and_a_failure_is_shown(app: App) -> None:
    """A figure's computation may stop by any exception once the scene is left (a game's help figure has its own);
    an exception before that is the figure's error, shown in the scene."""
    started = threading.Event()

    def stoppable(stop: threading.Event, progress: Callable[[str], None]) -> None:
        started.set()
        stop.wait(60)
        raise ValueError("stopped as asked")

    def failing(stop: threading.Event, progress: Callable[[str], None]) -> None:
        raise ValueError("no data")

    def nothing(data: object, size: tuple[int, int], base: float) -> None:
        raise AssertionError("never drawn")

    below = app.scene
    scene = FigureScene("a figure to leave", stoppable, nothing, stem="left")
    app.push(scene)
    frames(app, 1)
    assert started.wait(60)
    key(app, pygame.K_ESCAPE)  # back: the work is cancelled
    assert app.scene is below and scene.wait(60) and scene.cancelled and scene.error is None
    bad = FigureScene("a failing figure", failing, nothing, stem="bad")
    app.push(bad)
    frames(app, 1)
    assert bad.wait(60) and bad.error == "ValueError: no data" and bad.status == bad.error
