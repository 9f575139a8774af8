"""The ``mcts`` agent behind the Agent protocol: its keys, the command line, and the window's side panel and
MCTS overlay (the engine itself: ``tests/test_mcts.py``; the record: ``tests/test_mcts_record.py``)."""

from __future__ import annotations

import json
import threading

import pytest

from ai.agents.agent_base import AgentError
from ai.agents.agents import make_agent
from gameplay.cli import run
from gameplay.ui.play.match import MatchScene
from gameplay.ui.play.match_panel import decision_html
from gameplay.ui.shell.app import App


def test_keys_parse_and_round_trip() -> None:
    a = make_agent("tictactoe", "mcts:simulations=300,c=0.7,playout=random,reuse=on,solver=on,seed=3")
    s = a.settings
    m = s.mcts
    assert (m.simulations, m.c, m.playout, m.reuse, m.solver, s.seed) == (300, 0.7, "random", True, True, 3)
    again = make_agent("tictactoe", s.spec()).settings
    assert again == s
    assert a.describe() == "mcts, 300 simulations"
    assert "simulations" not in make_agent("tictactoe", "alphabeta").settings.spec()  # only mcts writes them


@pytest.mark.parametrize("spec,message", [
    ("mcts:simulations=0", "simulations must be a whole number from 1 to 50,000,000"),
    ("mcts:simulations=2.5", "simulations must be a whole number"),
    ("mcts:simulations=99999999999999999999", "simulations must be a whole number from 1 to 50,000,000"),
    ("mcts:c=-1", "c must be a number from 0 to 100"),
    ("mcts:c=abc", "c must be a number"),
    ("mcts:playout=greedy", "playout must be random or eval:N"),
    ("mcts:playout=eval:x", "playout must be random or eval:N"),
    ("mcts:solver=maybe", "solver must be on or off"),
])
def test_bad_keys_are_refused(spec: str, message: str) -> None:
    with pytest.raises(AgentError, match=message):
        make_agent("tictactoe", spec)


def test_plays_each_game_and_cancels() -> None:
    for game, spec in (("tictactoe", "mcts:simulations=400,seed=1"), ("checkers", "mcts:simulations=200,seed=1,"
                       "playout=eval:4"), ("pig", "mcts:simulations=300,seed=1")):
        a = make_agent(game, spec)
        state = a.game.initial_state()
        r = a.choose(state)
        assert r.move in a.game.actions(state) and r.extra["simulations"] == int(spec.split("=")[1].split(",")[0])
    stop = threading.Event()
    stop.set()
    a = make_agent("checkers", "mcts:time=5,seed=1")
    r = a.choose(a.game.initial_state(), stop_event=stop)
    assert r.stop_reason == "cancelled" and r.move in a.game.actions(a.game.initial_state())


def test_reuse_keeps_the_tree_between_moves() -> None:
    a = make_agent("tictactoe", "mcts:simulations=600,reuse=on,seed=2")
    g = a.game
    s = g.initial_state()
    r1 = a.choose(s)
    s = g.result(g.result(s, r1.move), g.actions(g.result(s, r1.move))[0])
    r2 = a.choose(s)
    assert r2.extra["reused_nodes"] > 0
    b = make_agent("tictactoe", "mcts:simulations=600,seed=2")
    b.choose(g.initial_state())
    assert b.choose(s).extra["reused_nodes"] == 0


def test_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["analyze", "tictactoe", "--position", "XOX...XOO", "--agent", "mcts:simulations=500,seed=1",
                "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["move"] == "3" and obj["simulations"] == 500 and obj["agent"]["algorithm"] == "mcts"
    assert run(["analyze", "pig", "--agent", "mcts:simulations=300,seed=1", "--quiet"]) == 0
    assert "300 simulations" in capsys.readouterr().out



def test_the_window_names_an_mcts_decision(app: App) -> None:
    ai, human = make_agent("tictactoe", "mcts:simulations=300,seed=1"), make_agent("tictactoe", "human")
    scene = MatchScene("tictactoe", (ai, human), ai_delay_s=0.0)
    app.push(scene)
    from ui_driver import pump
    pump(app, lambda: scene.last_decision is not None, 60.0)
    assert scene.last_decision is not None
    assert type(scene.overlay.active).__name__ == "MCTSOverlay"
    assert scene.overlay.info.title == "X played 7 by Monte Carlo tree search"
    assert scene.overlay.tree.total_simulations == 300
    assert "300 simulations" in decision_html(scene)


def test_an_autosave_restores_the_mcts_keys() -> None:
    from gameplay.files.savegame import restore_agent
    a = make_agent("tictactoe", "mcts:simulations=250,c=0.9,playout=random,solver=on,seed=4")
    agent, notes = restore_agent("tictactoe", a.settings.spec(), a.settings.to_json())
    assert notes == [] and agent.settings == a.settings
    bad = dict(a.settings.to_json(), simulations=0)
    agent, notes = restore_agent("tictactoe", a.settings.spec(), bad)
    assert agent.settings.mcts.simulations == 250 and any("simulations" in n for n in notes)


def test_bench_mcts_reports_its_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    # the suite's shape (timings are measured by `python main.py bench mcts`, never asserted here)
    from ai.bench import mcts_bench
    monkeypatch.setattr(mcts_bench, "cases", lambda: (("tictactoe", "random", "mcts:seed=1"),))
    calls: list[str] = []
    real = mcts_bench.make_agent

    def fast(game: str, spec: str) -> object:
        calls.append(spec)
        return real(game, spec.replace("time=1.0", "time=0.02").replace("time=0.2", "time=0.02"))
    monkeypatch.setattr(mcts_bench, "make_agent", fast)
    out = mcts_bench.bench_mcts()
    assert set(out) == {"tictactoe_random_simulations_per_s", "time_0.05s_worst_overshoot_ms",
                        "time_0.2s_worst_overshoot_ms", "time_1s_worst_overshoot_ms"}
    assert out["tictactoe_random_simulations_per_s"] > 0
    assert calls[0].endswith("time=1.0") and any(c.endswith("time=0.05") for c in calls)
