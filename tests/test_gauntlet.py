"""``tools/gauntlet.py``: end to end against HEAD's worktree, and a failing reference side loses its game."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "gauntlet.py"


def _head() -> str:
    if shutil.which("git") is None:
        pytest.skip("git is not available")
    r = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip("the checkout is not a git repository")
    return r.stdout.strip()


@pytest.mark.slow
def test_gauntlet_against_head_end_to_end(tmp_path: Path) -> None:
    head = _head()
    r = subprocess.run([sys.executable, str(TOOL), "--ref", head, "--agent", "alphabeta:depth=1", "--ref-agent",
                        "alphabeta:depth=1", "--game", "checkers", "--first", "1", "--jobs", "1", "--json",
                        "--cache-dir", str(tmp_path / "cache"), "--cleanup", "--pdn-dir", str(tmp_path / "pdn")],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)  # exactly one JSON object
    for k in ("game", "ref", "agent", "ref_agent", "games", "wins", "losses", "draws", "score", "elo_diff",
              "elo_error_95", "elapsed_s", "failures", "games_list"):
        assert k in obj
    assert obj["ref"] == head and obj["game"] == "checkers"
    assert obj["games"] == 2 and obj["wins"] + obj["losses"] + obj["draws"] == 2
    assert obj["score"] == (obj["wins"] + obj["draws"] / 2) / 2
    assert obj["failures"] == []
    assert [g["current_side"] for g in obj["games_list"]] == ["Black", "White"]
    assert all(g["plies"] > 0 for g in obj["games_list"])
    assert Path(obj["saved"]).read_text(encoding="utf-8").count("[Event ") == 2
    listed = subprocess.run(["git", "worktree", "list"], cwd=ROOT, capture_output=True, text=True).stdout
    assert str(tmp_path) not in listed  # --cleanup removed it


def test_bad_commit_is_one_line_exit_2(tmp_path: Path) -> None:
    _head()
    r = subprocess.run([sys.executable, str(TOOL), "--ref", "no-such-commit-xyz", "--first", "1",
                        "--cache-dir", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and "no-such-commit-xyz" in r.stderr


FAKE_AGENTS = """
import os, sys, threading
sys.path.append({root!r})  # the real rules, after this fake ``ai`` package
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.checkers.checkers_board import CheckersMove

MODE = os.environ["GAUNTLET_FAKE"]


class _Settings:
    def to_json(self):
        return {{"name": "fake", "mode": MODE}}


class _Result:
    def __init__(self, move):
        self.move = move


class _Agent:
    is_human = False

    def __init__(self):
        self.game, self.settings, self.n = Checkers(), _Settings(), 0

    def choose(self, state):
        self.n += 1
        if self.n < 3:
            return _Result(self.game.actions(state)[0])
        if MODE == "crash":
            sys.stderr.write("boom\\n")
            sys.stderr.flush()
            os._exit(3)
        if MODE == "hang":
            threading.Event().wait()  # never answers
        if MODE == "garbage":
            sys.__stdout__.write("not json\\n")
            sys.__stdout__.flush()
        return _Result(CheckersMove((32, 1)))  # 32-1: never legal


def make_agent(game_name, spec):
    return _Agent()
"""


def _load_tool() -> ModuleType:
    """``tools/gauntlet.py`` as a module (tools/ is not a package)."""
    if "gauntlet_tool" in sys.modules:
        return sys.modules["gauntlet_tool"]
    spec = importlib.util.spec_from_file_location("gauntlet_tool", TOOL)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["gauntlet_tool"] = mod  # its dataclasses look their module up while being built
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("mode, kind", [("crash", "crash"), ("hang", "time"), ("garbage", "malformed answer"),
                                        ("illegal", "illegal move")])
def test_failing_reference_loses_with_the_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str,
                                                 kind: str) -> None:
    (tmp_path / "ai").mkdir()
    (tmp_path / "ai" / "__init__.py").write_text("")
    (tmp_path / "ai" / "agents.py").write_text(textwrap.dedent(FAKE_AGENTS.format(root=str(ROOT))))
    monkeypatch.setenv("GAUNTLET_FAKE", mode)
    g = _load_tool()
    # the hang needs a move time-out to end it (the good moves before it take milliseconds); the other failures
    # arrive by themselves, so a generous one leaves no room for a late answer to be taken for a hang
    g.setup_worker(tmp_path, "checkers", "alphabeta:depth=1", "fake", 2.0 if mode == "hang" else 60.0)
    try:
        task = g.build_tasks("checkers", "ballots", 1, 1)[0]  # the current agent is Black: White moves first
        rep = g.play_one(task)
    finally:
        g.close_engine()
    assert rep.winner == "p1" and rep.termination == f"reference {kind}", rep
    assert rep.failure["side"] == "reference" and rep.failure["reason"].startswith(kind)
    assert rep.plies == 4  # two good reference moves, two answers of the current agent
    if mode == "crash":
        assert "boom" in rep.failure["reason"]
