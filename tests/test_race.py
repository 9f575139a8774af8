"""The race (issue 13): the model (``ai.teaching.race``) on the three games, its CSV and JSON, ``compare --json``'s
timelines, and the window's race view (``gameplay.ui.play.race_scene``) opened from a match. Small, seeded or
depth-limited budgets; no timing asserts."""

from __future__ import annotations

import csv
import io
import json
import threading
from collections.abc import Callable
from pathlib import Path

import pygame
import pygame_gui
import pytest
from ui_driver import click, frames, hot_seat, key, pump

from ai.agents.agents import make_agent
from ai.agents.profiles import profile_for
from ai.teaching.race import Race, RaceEntry, race_agents, run_race
from gameplay.cli import run
from gameplay.ui.play.race_draw import table_cells
from gameplay.ui.play.race_scene import RaceScene
from gameplay.ui.shell.app import App

TTT = ["minimax:depth=4", "alphabeta:depth=4,ordering=off,tt=off", "alphabeta:depth=4", "expectimax",
       "mcts:simulations=1500,seed=1"]


def _game(name: str):  # type: ignore[no-untyped-def]
    return profile_for(name).game


def _check_timeline(e: RaceEntry) -> None:
    """The timeline runs forward in time and ends with the answer itself."""
    assert e.timeline, e.spec
    times = [p.elapsed_s for p in e.timeline]
    assert times == sorted(times)
    last = e.timeline[-1]
    assert (last.move, last.value, last.depth, last.nodes) == (e.move, e.value, e.depth, e.nodes)


# ----- the model -------------------------------------------------------------------------------------------------
def test_tictactoe_race_same_value_fewer_nodes_and_an_unfit_agent() -> None:
    game = _game("tictactoe")
    state = game.parse_position("X...O....")
    race = run_race(game, state, TTT, None)
    assert race.done and not race.cancelled and race.position == "X...O...." and race.to_move == "X"
    assert [e.spec for e in race.entries] == TTT  # in order, the unfit one in its place
    mm, plain, ab, ex, mc = race.entries
    assert ex.error is not None and "cannot play tictactoe" in ex.error and not ex.ok
    assert [e.spec for e in race.errors] == ["expectimax"] and len(race.results) == 4
    assert mm.value == plain.value == ab.value and mm.move == plain.move  # equal depth: the same value...
    assert plain.nodes is not None and mm.nodes is not None and plain.nodes < mm.nodes  # ...fewer nodes
    assert mm.depth == plain.depth == ab.depth == 4 and mm.stop_reason == "depth"
    for e in (mm, plain, ab):  # one report per completed iteration, then the answer
        _check_timeline(e)
    assert [p.depth for p in ab.timeline] == [1, 2, 3, 4, 4]
    for e in (mm, plain):  # no ordering and no table: with a depth and no time, one pass at the depth
        assert [p.depth for p in e.timeline] == [1, 4, 4]  # depth 1 (there is always a move), then 4
    _check_timeline(mc)
    assert mc.simulations == 1500 and mc.algorithm == "mcts" and len(mc.timeline) >= 2  # every 1024 and the end
    again = run_race(game, state, TTT, None)  # depth limits and a seed: the same race (times aside)
    assert [(e.move, e.value, e.depth, e.nodes) for e in again.entries] == \
           [(e.move, e.value, e.depth, e.nodes) for e in race.entries]


def test_checkers_race_equal_depth_equal_value() -> None:
    game = _game("checkers")
    specs = ["minimax:depth=3", "alphabeta:depth=3,quiescence=off", "mcts:simulations=150,seed=1", "optimal"]
    race = run_race(game, game.initial_state(), specs, None)
    mm, ab, mc, opt = race.entries
    assert mm.value == ab.value and ab.nodes is not None and mm.nodes is not None and ab.nodes < mm.nodes
    assert mc.simulations == 150 and opt.error is not None and "only for pig" in opt.error
    for e in (mm, ab, mc):
        _check_timeline(e)


def test_pig_race_and_an_agent_that_does_not_fit() -> None:
    game = _game("pig")
    specs = ["expectimax:depth=2", "mcts:simulations=300,seed=1", "optimal", "alphabeta", "human", "nonsense"]
    race = run_race(game, game.initial_state(), specs, None)
    ex, mc, opt, ab, human, bad = race.entries
    for e in (ex, mc, opt):
        _check_timeline(e)
        assert e.value is not None and -1.0 <= e.value <= 1.0 and e.move in ("roll", "hold")
    assert opt.stop_reason == "table" and ex.depth == 2
    assert ab.error is not None and "chance" in ab.error
    assert human.error is not None and "human" in human.error
    assert bad.error is not None and "unknown agent" in bad.error


def test_budget_replaces_each_agents_limits() -> None:
    game = _game("tictactoe")
    race = run_race(game, game.initial_state(), ["minimax:depth=2", "mcts:simulations=5,seed=1"], 0.05)
    for e in race.entries:
        assert e.settings is not None
        assert (e.settings["time"], e.settings["depth"], e.settings["simulations"]) == (0.05, None, None)
    assert race.to_json()["time"] == 0.05


def test_cancel_stops_the_running_agent_and_starts_no_other() -> None:
    game = _game("checkers")
    stop = threading.Event()
    seen: list[Race] = []

    def on_progress(r: Race) -> None:
        seen.append(r)
        if r.entries and r.entries[0].timeline:  # the first iteration is in: cancel
            stop.set()

    race = run_race(game, game.initial_state(), ["minimax:depth=30", "alphabeta:depth=2"], None,
                    stop_event=stop, on_progress=on_progress)
    assert race.cancelled and race.done and len(race.entries) == 1
    assert race.entries[0].stop_reason == "cancelled" and race.entries[0].move is not None
    assert "cancelled" in race.progress_text()
    assert seen[-1] == race and any(r.running is not None for r in seen)  # snapshots, the last is the answer
    stopped = threading.Event()
    stopped.set()
    before = run_race(game, game.initial_state(), ["alphabeta:depth=2"], None, stop_event=stopped)
    assert before.cancelled and before.entries == ()


def test_csv_parses_back_with_a_row_per_agent_then_the_timelines() -> None:
    game = _game("tictactoe")
    race = run_race(game, game.parse_position("X...O...."), ["minimax:depth=2", "expectimax",
                                                             "mcts:simulations=100,seed=1"], None)
    rows = list(csv.reader(io.StringIO(race.to_csv())))
    assert rows[0] == ["agent", "move", "value", "depth", "simulations", "nodes", "time_s", "stop_reason", "error"]
    agents = rows[1:4]
    assert [r[0] for r in agents] == ["minimax:depth=2", "expectimax", "mcts:simulations=100,seed=1"]
    assert agents[0][4] == "" and agents[2][4] == "100" and agents[1][8] and not agents[0][8]
    assert float(agents[0][2]) == race.entries[0].value and int(agents[0][5]) == race.entries[0].nodes
    assert rows[4] == []
    assert rows[5] == ["agent", "elapsed_s", "move", "value", "depth", "nodes"]
    points = rows[6:]
    assert len(points) == sum(len(e.timeline) for e in race.entries)
    assert [r[0] for r in points].count("minimax:depth=2") == 3  # depths 1, 2 and the answer
    assert all(float(r[1]) >= 0 and int(r[5]) >= 0 for r in points)


def test_compare_json_gains_the_timeline(capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert run(["compare", "tictactoe", "--position", "X...O....", "--agents", "minimax:depth=2",
                "mcts:simulations=50,seed=1", "expectimax", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert {"game", "position", "time", "results", "errors"} <= set(obj)
    for r in obj["results"]:
        assert {"agent", "spec", "description", "move", "value", "depth", "nodes", "elapsed_s",
                "stop_reason", "timeline"} <= set(r)
        assert r["timeline"][-1]["move"] == r["move"] and r["timeline"][-1]["nodes"] == r["nodes"]
    assert obj["results"][1]["simulations"] == 50 and obj["errors"][0]["agent"] == "expectimax"


# ----- the window ------------------------------------------------------------------------------------------------
@pytest.fixture
def app(make_app: Callable[..., App], data_dir: Path, export_dir: Path) -> App:
    return make_app()


def test_race_view_runs_shows_the_table_and_exports(app: App, tmp_path: Path) -> None:
    match = hot_seat(app)
    match.play(4, "human")
    state = match.record.state
    specs = ["minimax:depth=2", "alphabeta:depth=2", "expectimax", "mcts:simulations=200,seed=1"]
    scene = RaceScene("tictactoe", state, specs, None, export_dir=tmp_path / "out")
    app.push(scene)
    pump(app, lambda: scene.race.done)
    frames(app, 2)
    race = scene.race
    assert race.position == "....X...." and len(race.entries) == 4 and not race.cancelled
    cells = table_cells(race)
    assert cells[2][1].startswith("cannot run:") and "tictactoe" in cells[2][1]  # the error, in its column
    assert cells[0][1] == race.entries[0].move and cells[3][4] == "200"  # move; mcts' simulations row
    assert "done" in scene.progress_text()
    key(app, pygame.K_e)
    png, csv_path = scene.exported
    assert png.parent == tmp_path / "out" and png.name.startswith("race-") and png.suffix == ".png"
    assert csv_path == png.with_suffix(".csv") and csv_path.read_text(encoding="utf-8").startswith("agent,move")
    assert pygame.image.load(str(png)).get_size() == scene.race_rect.size
    assert scene.message is not None and str(png) in scene.message[0]
    click(app, scene.widget("back").get_abs_rect().center)  # Back: the match again, unchanged
    assert app.scene is match and match.record.state == state


def test_budget_drop_down_runs_the_race_again(app: App) -> None:
    scene = RaceScene("tictactoe", "X...O....", ["minimax:depth=1"], None)
    app.push(scene)
    pump(app, lambda: scene.race.done)
    dd = scene.widget("budget")
    pygame.event.post(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED,
                                         {"ui_element": dd, "text": "0.1 s each", "selected_option_id": "0.1"}))
    frames(app, 2)
    assert scene.budget == 0.1
    pump(app, lambda: scene.race.done and scene.race.budget == 0.1)
    assert scene.race.entries[0].settings is not None and scene.race.entries[0].settings["time"] == 0.1
    key(app, pygame.K_ESCAPE)  # Esc is Back (not the menu)
    assert app.scene is not scene and not isinstance(app.scene, RaceScene)


def test_key_k_opens_the_race_on_the_match_position(app: App) -> None:
    match = hot_seat(app)
    for cell in (4, 0):
        match.play(cell, "human")
    ply, state = match.record.ply, match.record.state
    key(app, pygame.K_k)
    scene = app.scene
    assert isinstance(scene, RaceScene) and scene.state == state and scene.specs == race_agents("tictactoe")
    assert scene.budget == 0.3 and scene.started
    key(app, pygame.K_ESCAPE)  # cancels the race and goes back
    assert app.scene is match and match.record.ply == ply and match.record.state == state
    assert scene.cancelled
    frames(app, 2)
    button = match.aids.side_buttons["race"]  # beside Hint and Help under the board
    click(app, button.get_abs_rect().center)
    assert isinstance(app.scene, RaceScene) and app.scene.state == state


def test_race_is_a_panel_button_when_the_board_leaves_no_room(app: App) -> None:
    app.resize((700, 1200))  # a portrait window: the board is too narrow for Race, Hint and Help under it
    match = hot_seat(app, "checkers")
    assert not match.aids.side_buttons
    button = next(b for b, extra in match.extra_buttons if extra.label == "Race (K)")
    click(app, button.get_abs_rect().center)
    assert isinstance(app.scene, RaceScene) and app.scene.specs == race_agents("checkers")


def test_no_race_at_the_end_of_a_game_and_ai_matches_pause(app: App) -> None:
    match = hot_seat(app)
    for cell in (0, 3, 1, 4, 2):  # X wins on the top row
        match.play(cell, "human")
    key(app, pygame.K_k)
    assert app.scene is match and match.notice is not None and "over" in match.notice[0]
    watch = app.start_match("tictactoe", make_agent("tictactoe", "alphabeta:depth=1"),
                            make_agent("tictactoe", "alphabeta:depth=1"))
    frames(app, 1)
    key(app, pygame.K_k)
    assert isinstance(app.scene, RaceScene) and watch.paused  # as for the search tree


def test_move_colours_never_change_while_the_race_runs() -> None:
    """A move keeps its lane colour as later agents add moves (a new user saw move 5 turn from green to pink
    when MCTS added move 3)."""
    from dataclasses import replace as _replace

    from ai.teaching.race import Race, RaceEntry, TimelinePoint
    from gameplay.ui.play.race_draw import move_colours

    def entry(spec: str, moves: list[str], final: str | None) -> RaceEntry:
        points = tuple(TimelinePoint(0.1 * i, m, 0.0, i + 1, 10 * i) for i, m in enumerate(moves))
        return RaceEntry(spec, move=final, timeline=points)

    base = Race("tictactoe", ".........", "X", 0.3, ("a", "b"))
    first = _replace(base, entries=(entry("a", ["4", "5"], "5"),))
    running = _replace(base, entries=(entry("a", ["4", "5"], "5"), entry("b", ["3"], None)))
    done = _replace(base, entries=(entry("a", ["4", "5"], "5"), entry("b", ["3", "0"], "0")))
    c1, c2, c3 = move_colours(first), move_colours(running), move_colours(done)
    assert c1["5"] == c2["5"] == c3["5"] and c1["4"] == c3["4"] and c2["3"] == c3["3"]
    assert len(set(c3.values())) == 4
