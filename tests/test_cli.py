"""The headless command line (CLI.md): exact JSON shapes, exit codes, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "main.py", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_perft_tictactoe_depth_9() -> None:
    r = cli("perft", "tictactoe", "--depth", "9")
    assert r.returncode == 0 and r.stdout.strip() == "255168"


def test_perft_json_and_divide() -> None:
    r = cli("perft", "tictactoe", "--depth", "2", "--divide", "--json")
    obj = json.loads(r.stdout)
    assert obj["nodes"] == 72 and obj["depth"] == 2 and obj["game"] == "tictactoe"
    assert obj["divide"] == {str(i): 8 for i in range(9)}
    assert isinstance(obj["elapsed_s"], float)


def test_moves_json_shape() -> None:
    obj = json.loads(cli("moves", "tictactoe", "--position", "XOX.O.X..", "--json").stdout)
    assert obj["to_move"] == "O" and obj["outcome"] is None
    assert [m["move"] for m in obj["moves"]] == ["3", "5", "7", "8"]
    assert obj["moves"][2]["position"] == "XOX.O.XO."
    over = json.loads(cli("moves", "tictactoe", "--position", "XXXOO....", "--json").stdout)
    assert over["moves"] == [] and over["outcome"] == {"winner": "X", "termination": "three in a row"}


def test_analyze_json_shape() -> None:
    obj = json.loads(cli("analyze", "tictactoe", "--position", ".X..O.OXX", "--agent", "expert", "--json").stdout)
    for key in ("game", "position", "agent", "move", "value", "outcome", "plies_to_end", "depth", "nodes",
                "elapsed_s", "pv"):
        assert key in obj
    assert obj["move"] == "2" and obj["outcome"] == "win" and obj["plies_to_end"] == 1
    assert obj["agent"]["algorithm"] == "alphabeta" and obj["pv"] == ["2"]
    draw = json.loads(cli("analyze", "tictactoe", "--agent", "minimax", "--json").stdout)
    assert draw["value"] == 0 and draw["outcome"] == "draw" and draw["depth"] == 9


@pytest.mark.parametrize("args,needle", [
    (("moves", "chess"), "unknown game"),
    (("moves", "tictactoe", "--position", "XXX"), "9 characters"),
    (("analyze", "tictactoe", "--agent", "wizard"), "unknown agent"),
    (("analyze", "tictactoe", "--agent", "alphabeta:depth=0"), "depth"),
    (("analyze", "tictactoe", "--agent", "alphabeta:colour=red"), "unknown agent setting"),
    (("analyze", "tictactoe", "--agent", "alphabeta:weights=nope"), "unknown weights"),
    (("analyze", "tictactoe", "--agent", "expectimax"), "chance"),
    (("analyze", "tictactoe", "--agent", "expert", "--position", "XXXOO...."), "over"),
    (("perft", "tictactoe"), "--depth"),
    (("frobnicate",), "invalid choice"),
    (("bench", "nosuch"), "unknown bench suite"),
])
def test_bad_input_exits_2_with_one_line(args: tuple[str, ...], needle: str) -> None:
    r = cli(*args)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], r.stderr
    assert r.stdout == ""


def test_agent_from_toml_file(tmp_path: Path) -> None:
    f = tmp_path / "agent.toml"
    f.write_text('name = "alphabeta"\ndepth = 2\n[weights]\nthree = 100\ntwo = 10\none = 1\n')
    obj = json.loads(cli("analyze", "tictactoe", "--agent", str(f), "--json").stdout)
    assert obj["agent"]["depth"] == 2 and obj["agent"]["custom_weights"]["two"] == 10
    bad = tmp_path / "bad.toml"
    bad.write_text("name = \n")
    r = cli("analyze", "tictactoe", "--agent", str(bad))
    assert r.returncode == 2 and "not valid TOML" in r.stderr
