"""The headless command line (CLI.md): exact JSON shapes, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "main.py", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_perft_tictactoe_depth_9() -> None:
    r = cli("perft", "tictactoe", "--depth", "9")  # positions exactly 9 plies down (chess/draughts convention)
    assert r.returncode == 0 and r.stdout.strip() == "127872"
    r = cli("perft", "tictactoe", "--depth", "9", "--count-terminal")  # every finished game once: 255,168 games
    assert r.returncode == 0 and r.stdout.strip() == "255168"


@pytest.mark.parametrize("extra,nodes", [((), 0), (("--count-terminal",), 1)])
def test_perft_counts_a_finished_position_only_with_count_terminal(extra: tuple[str, ...], nodes: int) -> None:
    # Issue 10: White to move has no move; pydraughts and OpenSpiel count 0 positions 3 plies down.
    base = ("perft", "checkers", "--position", "W:W21:B14,17", "--depth", "3", *extra)
    r = cli(*base)
    assert r.returncode == 0 and r.stdout.strip() == str(nodes), r.stderr
    obj = json.loads(cli(*base, "--json").stdout)
    assert obj["nodes"] == nodes and obj["depth"] == 3 and obj["position"] == "W:W21:B14,17"
    obj = json.loads(cli(*base, "--json", "--divide").stdout)
    assert obj["nodes"] == nodes and obj["divide"] == {}


def test_perft_divide_honours_count_terminal() -> None:
    base = ("perft", "checkers", "--position", "W:W22,25:BK29", "--depth", "3", "--divide", "--json")
    obj = json.loads(cli(*base).stdout)
    assert obj["divide"] == {"22-17": 0, "22-18": 0, "25-21": 3} and obj["nodes"] == 3
    obj = json.loads(cli(*base, "--count-terminal").stdout)
    assert obj["divide"] == {"22-17": 1, "22-18": 1, "25-21": 3} and obj["nodes"] == 5


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


@pytest.mark.slow
def test_analyze_json_shape() -> None:
    obj = json.loads(cli("analyze", "tictactoe", "--position", ".X..O.OXX", "--agent", "expert", "--json").stdout)
    for key in ("game", "position", "agent", "move", "value", "outcome", "plies_to_end", "depth", "nodes",
                "elapsed_s", "pv"):
        assert key in obj
    assert obj["move"] == "2" and obj["outcome"] == "win" and obj["plies_to_end"] == 1
    assert obj["agent"]["algorithm"] == "alphabeta" and obj["pv"] == ["2"]
    draw = json.loads(cli("analyze", "tictactoe", "--agent", "minimax", "--json").stdout)
    assert draw["value"] == 0 and draw["outcome"] == "draw" and draw["depth"] == 9


def test_analyze_says_whose_move_and_why_the_search_stopped() -> None:
    """The printed analysis names the side to move (its values are from that side's point of view) and the stop
    reason in words, as the race's table says it: a proven win stops at depth 1, below the depth limit of 9."""
    out = cli("analyze", "tictactoe", "--position", ".X..O.OXX", "--agent", "expert").stdout.splitlines()
    assert out[0] == "O to move (.X..O.OXX)"
    assert "plays 2, value win in 1 (proven)" in out[1]
    assert out[2].startswith("depth 1, ") and out[2].endswith("stopped by proven result")
    pig = cli("analyze", "pig", "--agent", "mcts:simulations=20,seed=3").stdout.splitlines()
    assert pig[0].startswith("player 1 to move (") and pig[2].endswith("stopped by simulation limit")


def test_stop_reasons_read_the_same_in_every_view() -> None:
    from ai.kernel.numbers import STOP_WORDS, stop_text
    assert stop_text("proven") == "proven result" and stop_text("time") == "time budget"
    assert stop_text("my_own_reason") == "my_own_reason" and stop_text(None) == "—"
    assert len(set(STOP_WORDS.values())) == len(STOP_WORDS)  # no two reasons read alike


@pytest.mark.parametrize("args,needle", [
    (("moves", "chess"), "unknown game 'chess'; expected one of tictactoe, checkers, pig"),
    (("perft", "Chess", "--depth", "1"), "unknown game 'Chess'; expected one of tictactoe, checkers, pig"),
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


def _run_with_broken_module(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the CLI in a process where importing ``module`` fails (a broken install)."""
    code = ("import sys; sys.path.insert(0, '.')\n"
            f"sys.modules[{module!r}] = None  # import of it raises ImportError\n"
            "from gameplay.cli import run\n"
            f"sys.exit(run({list(args)!r}))\n")
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("module,args", [
    ("ai.checkers.checkers_eval", ("analyze", "checkers", "--agent", "beginner")),
    ("gameplay.rules.checkers.checkers", ("perft", "checkers", "--depth", "1")),
    ("gameplay.rules.pig", ("moves", "pig")),
    ("gameplay.rules.checkers.checkers", ("bench", "perft")),
])
def test_a_game_module_that_fails_to_import_fails_loudly(module: str, args: tuple[str, ...]) -> None:
    # Issue 10: not "unknown game" (bad input, exit 2), not a skipped bench suite: an internal error.
    r = _run_with_broken_module(module, *args)
    assert r.returncode == 1, r.stderr
    assert "unknown game" not in r.stderr and "skipped" not in r.stdout
    assert f"GameLoadError: cannot import {module}" in r.stderr
    assert f"import of {module} halted" in r.stderr.strip().splitlines()[-1]  # the underlying ImportError


def test_a_subcommand_module_that_fails_to_import_does_not_vanish() -> None:
    r = _run_with_broken_module("gameplay.cli.tree", "tree", "--tree", "[1,2]", "--agent", "minimax")
    assert r.returncode == 1
    assert "invalid choice" not in r.stderr
    assert "gameplay.cli.tree" in r.stderr.strip().splitlines()[-1]


def test_tree_reads_a_file(tmp_path: Path) -> None:
    f = tmp_path / "aima.json"
    f.write_text("[[3,12,8],[2,4,6],[14,5,2]]", encoding="utf-8")
    r = cli("tree", "--tree", str(f), "--agent", "alphabeta", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["value"] == 3
    r = cli("tree", "--tree", str(tmp_path / "missing.json"), "--agent", "alphabeta")
    assert r.returncode == 2 and "neither tree JSON nor an existing file" in r.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the display variables are Linux's")
@pytest.mark.parametrize("args", [(), ("play", "checkers")])
def test_no_display_is_one_line_and_exit_2(args: tuple[str, ...]) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    r = subprocess.run([sys.executable, "main.py", *args], cwd=ROOT, capture_output=True, text=True, timeout=60,
                       env=env)
    assert r.returncode == 2
    assert "no display" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_match_seed_also_seeds_random_agents() -> None:
    runs = [json.loads(cli("match", "tictactoe", "--p1", "beginner", "--p2", "random", "--games", "12", "--seed",
                           str(seed), "--json").stdout) for seed in (3, 3, 4)]
    moves = [[g["plies"] for g in r["games_list"]] for r in runs]
    assert moves[0] == moves[1]  # the same seed: the same games
    assert moves[0] != moves[2] or runs[0]["p1_score"] != runs[2]["p1_score"]
