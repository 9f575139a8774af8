"""Isolated play (ai.agents.arena, ai.agents.agent_process): each agent in a worker process of its own; a failing agent
loses its game with the right termination and reason, and nothing else is affected (the opponent, the other games, no
stray processes). Limits are generous: only the classification of a forfeit is checked, never a duration."""

from __future__ import annotations

import json
import multiprocessing
import pickle
import sys
from pathlib import Path

import pytest

from ai.agents.arena import ArenaResult, ArenaTask, play_isolated
from gameplay.cli import run
from gameplay.rules.base import GameError

BAD_AGENTS: dict[str, tuple[str, str, str]] = {
    # name: (choose_move body, termination, a piece of the reason)
    "sleeps": ("import threading\n    threading.Event().wait()\n    return game.actions(state)[0]", "time", "grace"),
    "raises": ("raise ValueError('boom in the agent')", "crash", "ValueError: boom in the agent"),
    "illegal": ("return 99", "illegal move", "'99' is not a legal move"),
    "exits": ("import os\n    os._exit(3)", "crash", "exited with code 3"),
    "hogs": ("x = []\n    while True:\n        x.append(bytearray(10 ** 7))", "memory", "MemoryError"),
    "garbage": ("return {'move': 4}", "malformed answer", "dict"),
}


def write_agent(folder: Path, name: str, body: str) -> str:
    """An agent file whose ``choose_move`` runs ``body``; returns its spec."""
    path = folder / f"{name}.py"
    path.write_text(f"def choose_move(state, time_left_s):\n    {body}\n", encoding="utf-8")
    return f"file:{path}"


def no_stray_processes() -> bool:
    """No agent process is left (the window's decision worker, ai.agents.worker, may live on: it is not an agent's)."""
    return not [p for p in multiprocessing.active_children() if p.name.startswith("agent-")]


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("name", list(BAD_AGENTS))
def test_a_failing_agent_loses_its_game_with_the_reason(tmp_path: Path, name: str, seat: int) -> None:
    if name == "hogs" and sys.platform == "win32":
        pytest.skip("no memory limit without the resource module")
    body, termination, reason = BAD_AGENTS[name]
    bad = write_agent(tmp_path, name, body)
    limit: float | None = 20.0
    if name == "sleeps":  # it never answers: its own limit (0.3 s) ends its move; the opponent has no limit, so
        bad, limit = f"{bad}:time=0.3", None  # only the sleeper can run out of time, however busy the machine
    agents = (bad, "random:seed=2") if seat == 0 else ("random:seed=2", bad)
    res = play_isolated(ArenaTask(f"{name}-{seat}", "tictactoe", agents, time_limit_s=limit, memory_limit_mb=300))
    assert res.termination == termination, res
    assert reason in res.reason, res.reason
    assert res.forfeit_by == seat and res.winner == 1 - seat
    assert res.plies == seat  # player 1's first move came before player 2 failed
    assert no_stray_processes()


def test_an_agent_that_cannot_load_loses_without_stopping_the_caller(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("import no_such_module_here\n\ndef choose_move(state, time_left_s):\n    return 0\n",
                      encoding="utf-8")
    res = play_isolated(ArenaTask("a", "tictactoe", ("random", f"file:{broken}")))
    assert (res.termination, res.forfeit_by, res.winner, res.plies) == ("crash", 1, 0, 0)
    assert "loading failed: ModuleNotFoundError" in res.reason and "broken.py, line 1" in res.reason
    missing = play_isolated(ArenaTask("m", "tictactoe", (f"file:{tmp_path / 'gone.py'}", "random")))
    assert (missing.termination, missing.forfeit_by) == ("crash", 0) and "not found" in missing.reason
    both = play_isolated(ArenaTask("b", "tictactoe", (f"file:{broken}", f"file:{tmp_path / 'gone.py'}")))
    assert both.winner is None and both.forfeit_by is None and "both agents failed" in both.reason
    assert no_stray_processes()


def test_a_game_between_well_behaved_agents_ends_by_the_rules() -> None:
    res = play_isolated(ArenaTask("t", "tictactoe", ("expert", "file:examples/agents/tictactoe_agent.py"), seed=4))
    assert res.forfeit_by is None and res.reason == ""
    assert res.termination in ("three in a row", "board full") or res.winner is not None
    assert res.winner != 1  # the expert never loses
    assert len(res.moves) == res.plies and res.record is None and no_stray_processes()


def test_pig_dice_follow_the_seed_and_checkers_games_are_recorded_as_pdn() -> None:
    task = ArenaTask("p", "pig", ("file:examples/agents/pig_agent.py", "easy"), seed=9)
    first, again = play_isolated(task), play_isolated(task)
    assert first.moves == again.moves and first.winner == again.winner
    assert any(m.startswith("die=") for m in first.moves) and first.termination == "reached 100"
    res = play_isolated(ArenaTask("c7", "checkers", ("file:examples/agents/checkers_agent.py", "beginner"),
                                  opening="5", seed=2))
    assert res.record is not None and res.forfeit_by is None
    for tag in ('[Round "c7"]', '[Opening "ACF #5 9-13 22-18 6-9', '[Termination "', '[FEN "'):
        assert tag in res.record
    assert no_stray_processes()


def test_task_and_result_pickle_and_round_trip_through_json() -> None:
    task = ArenaTask("k1", "tictactoe", ("random", "random:seed=3"), seed=5)
    assert pickle.loads(pickle.dumps(task)) == task
    res = play_isolated(task)
    assert pickle.loads(pickle.dumps(res)) == res
    assert ArenaResult.from_json(json.loads(json.dumps(res.to_json()))) == res


def test_a_wrong_task_is_an_error_not_a_forfeit() -> None:
    with pytest.raises(GameError, match="unknown opening"):
        play_isolated(ArenaTask("x", "checkers", ("random", "random"), opening="no such ballot"))
    with pytest.raises(GameError, match="openings are checkers ballots"):
        play_isolated(ArenaTask("x", "pig", ("random", "random"), opening="5"))
    with pytest.raises(GameError):
        play_isolated(ArenaTask("x", "go", ("random", "random")))


def test_in_a_match_only_the_failing_games_are_lost(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # fails only on the empty board (when it moves first): the games where it moves second are normal games
    flaky = write_agent(tmp_path, "flaky", "if state == '.........':\n        raise RuntimeError('first move')\n"
                                           "    return game.actions(state)[-1]")
    code = run(["match", "tictactoe", "--p1", flaky, "--p2", "random", "--games", "4", "--jobs", "2", "--json",
                "--quiet", "--pdn", "none"])
    assert code == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["games"] == 4 and obj["p1"]["kind"] == "agent"
    for g in obj["games_list"]:
        if g["p1_first"]:
            assert (g["termination"], g["forfeit_by"], g["winner"], g["plies"]) == ("crash", "p1", "p2", 0)
            assert "RuntimeError: first move (flaky.py, line 3)" in g["reason"]
        else:
            assert g["termination"] in ("three in a row", "board full") and g["forfeit_by"] is None
            assert g["reason"] == "" and g["plies"] >= 5
    assert no_stray_processes()
