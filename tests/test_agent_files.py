"""Agent files (``file:PATH.py``, ai.agents.agent_file): the templates of examples/agents/ play whole games through the
command line; bad files are refused with clear errors without being run; the window plays a file from a worker
process and its settings panel picks one (synthetic events, SDL dummy driver)."""

from __future__ import annotations

import json
import multiprocessing
import os
from pathlib import Path

import pytest

from ai.agents.agent_base import AgentError
from ai.agents.agent_file import inspect_agent_file
from ai.agents.agent_process import FAULTS, AgentFault, FileAgent
from ai.agents.agents import make_agent, parse_settings
from ai.agents.profiles import profile_for
from gameplay.cli import run
from gameplay.files import settings as st
from gameplay.files import settings_agents as sagents
from gameplay.files import settings_fields as sfields
from gameplay.files import settings_file as sfile

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "agents"
TEMPLATES = [  # (file, game, opponent, games)
    ("tictactoe_eval", "tictactoe", "easy", 2), ("tictactoe_agent", "tictactoe", "random:seed=1", 2),
    ("checkers_eval", "checkers", "beginner", 1), ("checkers_agent", "checkers", "beginner", 1),
    ("pig_eval", "pig", "easy", 2), ("pig_agent", "pig", "random:seed=1", 2),
    ("connect4_eval", "connect4", "beginner", 2), ("connect4_agent", "connect4", "beginner", 2),
]


def no_agent_processes() -> bool:
    """No agent process is left (the window's decision worker, ai.agents.worker, may live on: it is not an agent's)."""
    return not [p for p in multiprocessing.active_children() if p.name.startswith("agent-")]


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    code = run(list(argv))
    out = capsys.readouterr()
    assert code == 0, out.err
    obj: dict[str, object] = json.loads(out.out)
    return obj


@pytest.mark.parametrize("name, game, opponent, games", TEMPLATES)
def test_each_template_plays_whole_games_through_the_cli(capsys: pytest.CaptureFixture[str], name: str, game: str,
                                                         opponent: str, games: int) -> None:
    spec = f"file:{EXAMPLES / name}.py"
    obj = cli_json(capsys, "match", game, "--p1", spec, "--p2", opponent, "--games", str(games), "--seed", "3",
                   "--json", "--quiet", "--pdn", "none")
    assert obj["games"] == games
    kind = "evaluation" if name.endswith("_eval") else "agent"
    assert obj["p1"]["kind"] == kind and obj["p1"]["algorithm"] == "file"  # type: ignore[index]
    for g in obj["games_list"]:  # type: ignore[attr-defined]
        assert g["termination"] not in FAULTS and g["forfeit_by"] is None and g["reason"] == "", g
        assert g["plies"] > 4
    assert no_agent_processes()


def test_analyze_runs_a_file_in_a_worker_process(capsys: pytest.CaptureFixture[str]) -> None:
    obj = cli_json(capsys, "analyze", "tictactoe", "--position", "XX..O....", "--agent",
                   f"file:{EXAMPLES / 'tictactoe_eval.py'}", "--json", "--quiet")
    assert obj["move"] == "2" and obj["depth"] == 2  # blocks the row; the file's SETTINGS depth
    obj = cli_json(capsys, "analyze", "pig", "--position", "10,10,25,1", "--agent",
                   f"file:{EXAMPLES / 'pig_agent.py'}", "--json", "--quiet")
    assert obj["move"] == "hold"


def test_the_file_runs_only_in_the_worker_process(tmp_path: Path) -> None:
    marker = tmp_path / "ran.txt"
    path = tmp_path / "noisy.py"
    path.write_text("import os\n"
                    f"open({str(marker)!r}, 'w').write(str(os.getpid()))\n"
                    "print('printed by the agent')\n"
                    "def choose_move(state, time_left_s):\n"
                    "    assert features(state, 0)['centre'] in (-1.0, 0.0, 1.0)\n"
                    "    return game.format_move(state, game.actions(state)[0])\n", encoding="utf-8")
    agent = make_agent("tictactoe", f"file:{path}")
    assert isinstance(agent, FileAgent) and "an agent, choose_move" in agent.describe()
    assert not marker.exists()  # reading the spec never runs the file
    res = agent.choose(agent.game.initial_state())
    assert res.move == 0 and marker.exists()
    assert int(marker.read_text()) != os.getpid()
    agent.close()
    assert no_agent_processes()


BAD_FILES = [
    ("def choose_move(state, time_left_s):\n    return (\n", "syntax error on line 2"),
    ("x = 1\n", "defines neither evaluate(state, player)"),
    ("def evaluate(s, p):\n    return 0\ndef choose_move(s, t):\n    return 0\n", "defines both"),
    ("def choose_move(state):\n    return 0\n", "must take two arguments, choose_move(state, time_left_s)"),
    ("def evaluate(self, state, player):\n    return 0\n", "yours (line 1) takes (self, state, player)"),
    ("SETTINGS = {'depht': 3}\ndef evaluate(s, p):\n    return 0\n", "unknown setting 'depht'"),
    ("SETTINGS = {'depth': 0}\ndef evaluate(s, p):\n    return 0\n", "depth must be a whole number of plies from 1 to"),
    ("SETTINGS = {'depth': 3}\ndef choose_move(s, t):\n    return 0\n", "unknown setting 'depth' for an agent"),
    ("SETTINGS = dict(depth=3)\ndef evaluate(s, p):\n    return 0\n", "SETTINGS must be a literal dict"),
    ("async def choose_move(s, t):\n    return 0\n", "not async def"),
]


@pytest.mark.parametrize("source, message", BAD_FILES)
def test_bad_files_are_refused_with_clear_errors(tmp_path: Path, source: str, message: str) -> None:
    path = tmp_path / "bad.py"
    path.write_text(source, encoding="utf-8")
    with pytest.raises(AgentError, match=None) as err:
        make_agent("tictactoe", f"file:{path}")
    assert message in str(err.value) and "bad.py" in str(err.value)
    with pytest.raises(AgentError):
        parse_settings(f"file:{path}", profile_for("checkers"))


def test_missing_files_and_bad_specs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(AgentError, match="not found"):
        make_agent("pig", f"file:{tmp_path / 'nothing.py'}")
    with pytest.raises(AgentError, match="must name a Python file"):
        make_agent("pig", "file:agent.txt")
    with pytest.raises(AgentError, match="unknown setting 'quiescence' for an agent"):
        make_agent("pig", f"file:{EXAMPLES / 'pig_agent.py'}:quiescence=on")
    ok = make_agent("checkers", f"file:{EXAMPLES / 'checkers_eval.py'}:depth=3")
    assert (ok.settings.depth, ok.settings.time_budget_s) == (3, 1.0)  # the spec's depth, the file's time
    assert inspect_agent_file(EXAMPLES / "checkers_eval.py").kind == "evaluation"
    code = run(["match", "tictactoe", "--p1", f"file:{tmp_path / 'nothing.py'}", "--p2", "random"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "not found" in err


def test_the_window_runner_plays_a_file_and_reports_its_failure(tmp_path: Path) -> None:
    from ai.agents.runner import AgentRunner
    agent = make_agent("checkers", f"file:{EXAMPLES / 'checkers_agent.py'}")
    runner = AgentRunner(processes=True)
    state = agent.game.initial_state()
    runner.submit(agent, state, "a")
    res = runner.result(timeout=60)
    assert res.move in agent.game.actions(state)
    bad = tmp_path / "bad.py"
    bad.write_text("def choose_move(state, time_left_s):\n    return 1 / 0\n", encoding="utf-8")
    broken = make_agent("tictactoe", f"file:{bad}")
    runner.submit(broken, broken.game.initial_state(), "b")
    with pytest.raises(AgentFault) as err:
        runner.result(timeout=60)
    assert err.value.termination == "crash" and "ZeroDivisionError" in str(err.value)
    slow = tmp_path / "slow.py"
    slow.write_text("import threading\ndef choose_move(state, time_left_s):\n    threading.Event().wait()\n",
                    encoding="utf-8")  # never answers: only the cancel (or its 60 s limit) ends the decision
    sleeper = make_agent("tictactoe", f"file:{slow}:time=60")
    runner.submit(sleeper, sleeper.game.initial_state(), "c")
    thread = runner.worker
    runner.cancel()  # undo, new game, quit: the decision's process is stopped
    assert thread is not None
    thread.join(30)
    assert not thread.is_alive()
    agent.close()
    assert no_agent_processes()


def test_a_file_side_in_the_settings(tmp_path: Path) -> None:
    side = st.SideSettings(agent="file", file=str(EXAMPLES / "pig_eval.py"))
    assert sagents.side_spec("pig", side) == f"file:{EXAMPLES / 'pig_eval.py'}"
    agent = sagents.build_side_agent("pig", side)
    assert isinstance(agent, FileAgent) and "an evaluation (expectimax" in agent.describe()
    s = st.Settings()
    s.game("pig").sides[1] = side
    back, problems = st.Settings.from_dict(s.to_dict())
    assert not problems and back.side("pig", 1).file == side.file and back.side("pig", 1).agent == "file"
    with pytest.raises(sfields.SettingsError, match="choose the agent's .py file"):
        sagents.build_side_agent("pig", st.SideSettings(agent="file"))
    _, problems = st.Settings.from_dict({"games": {"pig": {"p1": {"agent": "file", "file": "x.txt"}}}})
    assert problems and "x.txt" in problems[0][1]


def test_the_settings_panel_picks_a_file_and_the_window_plays_it(tmp_path: Path) -> None:
    import pygame
    import pygame_gui
    from ui_driver import pump

    from gameplay.ui.play.match import MatchScene
    from gameplay.ui.scenes.menu import MenuScene
    from gameplay.ui.scenes.settings_scene import SettingsScene
    from gameplay.ui.shell.app import App
    app = App(size=(1280, 800), fps=1000)
    try:
        app.push(MenuScene())
        app.run(max_frames=2)
        app.open_settings("tictactoe")
        app.run(max_frames=2)
        panel = app.scene
        assert isinstance(panel, SettingsScene)
        pygame.event.post(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, text="Agent file (.py)",
                                             selected_option_id="file", ui_element=panel.widget("who1")))
        app.run(max_frames=2)
        dialog = panel.files.dialog
        assert dialog is not None and panel.side(1).agent == "medium"  # nothing changes before a file is picked
        dialog.kill()  # Cancel or the close box: the side stays as it was
        app.run(max_frames=2)
        assert panel.files.dialog is None and panel.side(1).agent == "medium"
        assert panel.widget("who1").selected_option[1] == "medium"
        pygame.event.post(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, text="Agent file (.py)",
                                             selected_option_id="file", ui_element=panel.widget("who1")))
        app.run(max_frames=2)
        dialog = panel.files.dialog
        assert dialog is not None
        path = EXAMPLES / "tictactoe_eval.py"
        pygame.event.post(pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, text=str(path),
                                             ui_element=dialog))
        app.run(max_frames=2)
        assert panel.files.dialog is None
        assert (panel.side(1).agent, panel.side(1).file) == ("file", str(path))
        assert panel.describe(1) == "Plays: tictactoe_eval.py: evaluation"
        assert panel.widget("status1").text.startswith("Plays: tictactoe_eval.py")
        assert panel.widget("file1").text == "tictactoe_eval.py" and panel.widget("algo_label1").text == "Agent file"
        # a broken file: the status line gives its error, and Save refuses it
        broken = tmp_path / "broken.py"
        broken.write_text("def evaluate(state, player)\n    return 0\n", encoding="utf-8")
        panel.files.pick(1, broken)
        app.run(max_frames=1)
        assert "Cannot play" in panel.describe(1) and "syntax error on line 1" in panel.describe(1)
        assert not panel.save()
        panel.files.pick(1, path)
        assert panel.save()  # written to the settings file, back on the title screen
        assert sfile.load_settings().settings.side("tictactoe", 1).file == str(path)
        menu = app.scene
        assert isinstance(menu, MenuScene) and menu.widget("desc1.tictactoe").text.startswith("tictactoe_eval.py")
        # the match: X is a human; the file plays O from its worker process
        menu.start("tictactoe")
        match = app.scene
        assert isinstance(match, MatchScene) and isinstance(match.agents[1], FileAgent)
        match.ai_delay_s = 0.0
        match.play(4, "human")
        pump(app, lambda: match.record.ply >= 2)
        assert match.error is None and match.record.moves[1] != 4  # a legal move, played from the worker
    finally:
        app.close()
    assert no_agent_processes()


def test_a_failing_file_in_the_window_is_shown_and_the_game_goes_on(tmp_path: Path) -> None:
    from ui_driver import pump

    from gameplay.ui.play.match import MatchScene
    from gameplay.ui.scenes.menu import MenuScene
    from gameplay.ui.shell.app import App
    bad = tmp_path / "bad.py"
    bad.write_text("def choose_move(state, time_left_s):\n    raise RuntimeError('no idea')\n", encoding="utf-8")
    app = App(size=(1280, 800), fps=1000)
    try:
        app.push(MenuScene())
        app.run(max_frames=2)
        match = app.start_match("tictactoe", f"file:{bad}", "human")
        assert isinstance(match, MatchScene)
        pump(app, lambda: match.error is not None)
        assert "crash" in match.error and "RuntimeError: no idea (bad.py, line 2)" in match.error
        assert match.aids.ai_failed_here() and app.scene is match  # the take-over and retry buttons show
    finally:
        app.close()
    assert no_agent_processes()


def test_the_title_screen_sends_a_new_file_side_to_the_settings_panel() -> None:
    import pygame
    import pygame_gui

    from gameplay.ui.scenes.agent_file_picker import NO_FILE_TEXT
    from gameplay.ui.scenes.menu import MenuScene
    from gameplay.ui.scenes.settings_scene import SettingsScene
    from gameplay.ui.shell.app import App
    app = App(size=(1280, 800), fps=1000)
    try:
        menu = MenuScene()
        app.push(menu)
        app.run(max_frames=2)
        pygame.event.post(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, text="Agent file (.py)",
                                             selected_option_id="file", ui_element=menu.widget("side0.pig")))
        app.run(max_frames=3)
        panel = app.scene
        assert isinstance(panel, SettingsScene) and panel.game == "pig"
        assert panel.widget("file0").text == NO_FILE_TEXT and "choose the agent's .py file" in panel.describe(0)
        pygame.event.post(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=panel.widget("file0")))
        app.run(max_frames=2)
        assert panel.files.dialog is not None and panel.files.player == 0
    finally:
        app.close()
