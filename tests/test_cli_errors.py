"""New-user faults of the command line: huge bad input quoted at most ~80 characters, one error form, progress."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gameplay.cli import run
from gameplay.rules.base import quoted, quoted_path

HUGE = "W" * 100_000


def call(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_quoted_cuts_long_input_and_names_its_length() -> None:
    assert quoted("B:W21") == "'B:W21'"
    assert quoted(7) == "7"
    q = quoted(HUGE)
    assert len(q) < 120 and q.startswith("'WWW") and "100,000 characters" in q
    assert quoted("x" * 80) == repr("x" * 80)


def test_a_long_path_keeps_its_file_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A path cut from its end lost the file's name ("cannot read tree file '/tmp/pytest-of-root/.../binary'..."
    for binary.bin, in a deeper temporary folder): a long path keeps its end."""
    deep = "/tmp/" + "folder-of-a-long-name/" * 6 + "binary.bin"
    q = quoted_path(deep)
    assert q.startswith("'...") and q.endswith(f"/binary.bin' (a path of {len(deep)} characters)"), q
    assert len(q) < 120
    assert quoted_path("/tmp/short.bin") == "'/tmp/short.bin'"
    (tmp_path / ("x" * 90)).mkdir()
    binary = tmp_path / ("x" * 90) / "tree.bin"
    binary.write_bytes(b"[1, 2]\x00\x00")
    code, _out, err = call(capsys, "tree", "--tree", str(binary), "--agent", "alphabeta")
    assert code == 2 and "/tree.bin'" in err, err


HUGE_INPUTS = [
    ("analyze", "checkers", "--agent", "expert", "--position", HUGE),
    ("analyze", "tictactoe", "--agent", "expert", "--position", HUGE),
    ("moves", "pig", "--position", HUGE),
    ("perft", "checkers", "--depth", "1", "--position", HUGE),
    ("analyze", "tictactoe", "--agent", HUGE),
    ("analyze", "tictactoe", "--agent", "alphabeta:depth=" + "9" * 100_000),
    ("analyze", "tictactoe", "--agent", "alphabeta:" + HUGE),
    ("analyze", "tictactoe", "--agent", "alphabeta:prune=" + HUGE),
    ("analyze", "checkers", "--agent", "expert", "--moves", HUGE),
    ("tree", "--tree", HUGE, "--agent", "alphabeta"),
    ("tree", "--tree", "[1,2]", "--agent", HUGE),
    ("tree", "--tree", "[1, " + '"' + HUGE + '"]', "--agent", "alphabeta"),
    ("tree", "tictactoe", "--agent", "alphabeta", "--position", HUGE),
    ("match", "tictactoe", "--p1", HUGE, "--p2", "random"),
    ("moves", HUGE),
]


@pytest.mark.parametrize("args", HUGE_INPUTS, ids=lambda a: " ".join(x[:12] for x in a))
def test_huge_bad_input_is_quoted_short(capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    code, out, err = call(capsys, *args)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err[:300]
    assert len(lines[0]) < 450, lines[0][:300]
    assert "W" * 81 not in lines[0] and "9" * 81 not in lines[0]
    assert lines[0].startswith("error: ")


BAD_INPUTS = [
    ("tree", "--agent", "alphabeta"),                        # neither GAME nor --tree (was "tree: give GAME ...")
    ("tree", "tictactoe", "--tree", "[1,2]", "--agent", "alphabeta"),
    ("tree", "--tree", '{"x": 1}', "--agent", "alphabeta"),  # "object at the root must be ..."
    ("tree", "--tree", "[1,2", "--agent", "alphabeta"),
    ("analyze", "tictactoe", "--agent", "human"),            # was "analyze needs an AI agent, not human"
    ("perft", "tictactoe", "--depth", "-1"),                 # was "perft --depth must be >= 0, got -1"
    ("moves", "chess"),                                      # was "unknown game 'chess'; ..."
    ("demo", "tictactoe", "--frames", "0"),
    ("demo", "tictactoe", "--frames", "1", "--screenshot", "x.jpg"),
    ("match", "tictactoe", "--p1", "random", "--p2", "random", "--games", "0"),
    ("match", "tictactoe", "--p1", "human", "--p2", "random"),
]


@pytest.mark.parametrize("args", BAD_INPUTS, ids=lambda a: " ".join(a))
def test_every_error_line_starts_with_error(capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    code, out, err = call(capsys, *args)
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1, err
    assert lines[0].startswith("error: "), lines[0]
    assert not lines[0].startswith("error: error:")


def test_argparse_usage_errors_keep_argparse_form(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = call(capsys, "analyze", "tictactoe")
    assert code == 2 and err.startswith("error: main.py analyze: ") and "--agent" in err and len(err.splitlines()) == 1


def test_analyze_progress_one_line_per_iteration_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = call(capsys, "analyze", "tictactoe", "--agent", "alphabeta:depth=4", "--json")
    assert code == 0
    obj = json.loads(out)  # standard output stays exactly one JSON object
    lines = err.strip().splitlines()
    assert [ln.split(":")[0] for ln in lines] == [f"depth {d}" for d in range(1, obj["depth"] + 1)]
    last = lines[-1]
    assert f"best {obj['move']}" in last and f"{obj['nodes']:,} nodes" in last and last.endswith(" s")
    code, out, err = call(capsys, "analyze", "tictactoe", "--agent", "alphabeta:depth=3", "--quiet")
    assert code == 0 and err == "" and "plays" in out
