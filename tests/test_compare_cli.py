"""``compare``: several agents on one position (CLI.md), the headless half of issue 13's race."""

from __future__ import annotations

import itertools
import json

import pytest

from ai.kernel import timeman
from gameplay.cli import run


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, object]:
    capsys.readouterr()
    assert run(argv) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_same_position_each_budget(capsys: pytest.CaptureFixture[str]) -> None:
    obj = _json(capsys, ["compare", "tictactoe", "--position", "X...O....", "--agents", "minimax:depth=3",
                         "alphabeta:depth=3", "mcts:simulations=300,seed=1", "--json"])
    rows = obj["results"]
    assert isinstance(rows, list) and [r["agent"]["algorithm"] for r in rows] == ["minimax", "alphabeta", "mcts"]
    mm, ab, mc = rows
    assert mm["value"] == ab["value"] and mm["move"] == ab["move"]  # the same value at equal depth ...
    assert ab["nodes"] < mm["nodes"]  # ... with fewer nodes
    assert mc["simulations"] == 300 and obj["errors"] == []
    for r in rows:
        assert {"agent", "move", "value", "depth", "nodes", "elapsed_s"} <= set(r)


def test_time_gives_every_agent_the_same_budget(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # MCTS reads its budget on the CPU clock, here one that moves 0.1 ms at each reading (ai.kernel.timeman.CLOCKS, the
    # clock a search reads): its 0.05 s are the same number of simulations on any machine, however busy
    readings = itertools.count()
    monkeypatch.setitem(timeman.CLOCKS, "cpu", lambda: next(readings) * 1e-4)
    obj = _json(capsys, ["compare", "checkers", "--agents", "alphabeta:depth=3", "mcts:simulations=5,clock=cpu",
                         "expectimax", "--time", "0.05", "--json"])
    rows, errors = obj["results"], obj["errors"]
    assert isinstance(rows, list) and isinstance(errors, list)
    assert all(r["agent"]["time"] == 0.05 and r["agent"]["depth"] is None for r in rows)
    assert rows[1]["agent"]["simulations"] is None and rows[1]["simulations"] > 5  # time, not its own limit
    assert errors == [{"agent": "expectimax", "error": errors[0]["error"]}] and "chance nodes" in errors[0]["error"]


def test_exit_2_only_when_none_can_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["compare", "checkers", "--agents", "expectimax", "human"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no agent could run") and "human" in err
    assert run(["compare", "checkers", "--agents", "alphabeta:depth=2", "--time", "-1"]) == 2
    assert run(["compare", "checkers", "--position", "B:W1:B5", "--agents", "alphabeta:depth=2"]) == 2


def test_time_replaces_an_agent_files_own_depth(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    """An evaluation file's SETTINGS depth (and a depth in its spec) gives way to --time, as for every other agent:
    the worker builds the agent from the settings resolved here, not from the file read again (issue 23)."""
    from pathlib import Path
    path = Path(str(tmp_path)) / "shallow.py"
    path.write_text('SETTINGS = {"depth": 2}\n\ndef evaluate(state, player):\n    return 0.0\n', encoding="utf-8")
    own = _json(capsys, ["compare", "checkers", "--agents", f"file:{path}", "--json"])["results"]
    assert isinstance(own, list) and own[0]["depth"] == 2 and own[0]["stop_reason"] == "depth"
    obj = _json(capsys, ["compare", "checkers", "--agents", f"file:{path}", f"file:{path}:depth=1", "--time", "0.3",
                         "--json"])
    rows = obj["results"]
    assert isinstance(rows, list) and len(rows) == 2
    for r in rows:  # checkers from the start is never solved in 0.3 s: only the clock can stop the search
        assert r["agent"]["depth"] is None and r["agent"]["time"] == 0.3
        assert r["stop_reason"] == "time" and r["depth"] > 2


def test_a_book_move_is_shown_as_a_book_move_not_a_search(capsys: pytest.CaptureFixture[str]) -> None:
    # a new user's finding: "11-15, value 0.5, depth 0, 0 nodes" read as a search's value; the value of a move from
    # games is a score, not an evaluation
    capsys.readouterr()
    assert run(["compare", "checkers", "--agents", "expert", "expert:book=off,depth=2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "from the opening book (no search: " in lines[1] and "book games, mover's score" in lines[1]
    assert "value" not in lines[1] and "depth" not in lines[1]
    assert "from the opening book" not in lines[2] and "depth 2" in lines[2]
    obj = _json(capsys, ["compare", "checkers", "--agents", "expert", "--json"])
    rows = obj["results"]
    assert isinstance(rows, list) and rows[0]["stop_reason"] == "book"
    assert "book games, mover's score" in rows[0]["book_origin"]
