"""``main.py pdn FILE [--json]`` (CLI.md): every game with its tags, plies, result, final position, warnings, error;
exit 0 when at least one game reads, 2 when none does or the file cannot be read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gameplay.cli import run

MIXED = ('[Event "good"]\n[Black "Ann"]\n1. 11-15 23-19 *\n\n'
         '[Event "bad"]\n1. 11-15 24-20 2. 15-18 20-16 *\n\n'
         '[Event "twice"]\n[Black "Cy"]\n[Black "Di"]\n[Result "1/2-1/2"]\n1. 9-13 22-18 0-1\n')


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    code = run(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mixed.pdn"
    path.write_text(MIXED, encoding="utf-8")
    code, out, err = _run(capsys, ["pdn", str(path), "--json"])
    assert code == 0 and err == ""
    obj = json.loads(out)
    assert set(obj) == {"file", "encoding", "warnings", "games"} and obj["file"] == str(path)
    assert obj["encoding"] == "utf-8" and obj["warnings"] == []
    games = obj["games"]
    assert [g["index"] for g in games] == [0, 1, 2] and [g["number"] for g in games] == [1, 2, 3]
    for g in games:
        assert set(g) == {"index", "number", "tags", "plies", "result", "final_position", "warnings", "error"}
        assert (g["final_position"] is None) == (g["error"] is not None)
    good, bad, twice = games
    assert good == {"index": 0, "number": 1, "tags": {"Event": "good", "Black": "Ann"}, "plies": 2, "result": "*",
                    "final_position": "B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15",
                    "warnings": [], "error": None}
    assert bad["plies"] == 3 and bad["final_position"] is None and bad["warnings"] == []
    assert bad["error"].startswith("PDN line 6, column 25: move '20-16' (ply 4)")
    assert twice["tags"] == {"Event": "twice", "Black": "Cy", "Result": "1/2-1/2"} and twice["result"] == "0-1"
    assert twice["warnings"] == [
        "line 10, column 1: tag Black is given twice: kept 'Cy' (line 9), ignored 'Di'",
        "line 12, column 15: the moves end with 0-1 but the Result tag (line 11) says 1/2-1/2: kept 0-1"]
    assert twice["error"] is None


def test_text_output_and_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mixed.pdn"
    path.write_text(MIXED, encoding="utf-8")
    code, out, _ = _run(capsys, ["pdn", str(path)])
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("#1  Ann - ?  good  *  2 plies")
    assert lines[1].startswith("#2  ? - ?  bad  *  3 plies read") and "error: PDN line 6" in lines[2]
    assert "3 games: 2 read, 1 with an error, 1 with warnings" in lines[-1]


def test_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.pdn"
    bad.write_text("1. 11-17 *\n", encoding="utf-8")
    code, out, err = _run(capsys, ["pdn", str(bad), "--json"])
    assert code == 2 and json.loads(out)["games"][0]["error"] is not None  # the JSON is still printed
    assert err.startswith("error: no game could be read") and "illegal move '11-17'" in err
    empty = tmp_path / "empty.pdn"
    empty.write_text("", encoding="utf-8")
    code, out, err = _run(capsys, ["pdn", str(empty), "--json"])
    assert code == 2 and json.loads(out) == {"file": str(empty), "encoding": "utf-8", "warnings": [],
                                                  "games": []} and "no game in it" in err
    code, out, err = _run(capsys, ["pdn", str(tmp_path / "missing.pdn"), "--json"])
    assert code == 2 and out == "" and err.startswith("error: cannot read the PDN file")
    assert "Traceback" not in err
    code, _, err = _run(capsys, ["pdn", str(tmp_path)])  # a folder
    assert code == 2 and "cannot read the PDN file" in err


def test_pdn_never_imports_pygame(tmp_path: Path) -> None:
    import subprocess
    import sys
    path = tmp_path / "mixed.pdn"
    path.write_text(MIXED, encoding="utf-8")
    code = ("import sys; sys.path.insert(0, '.')\nfrom gameplay.cli import run\n"
            f"assert run(['pdn', {str(path)!r}, '--json']) == 0\n"
            "assert 'pygame' not in sys.modules\n")
    root = Path(__file__).resolve().parent.parent
    r = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


def test_a_binary_file_is_not_text_and_counts_read_as_words(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A binary file was read as two "games" of mojibake, and one game printed as "1 games" (a new user's
    findings)."""
    binary = tmp_path / "photo.pdn"
    binary.write_bytes(bytes(range(256)) * 4)
    code, _, err = _run(capsys, ["pdn", str(binary)])
    assert code == 2 and "it is not a text file" in err and err.count("\n") == 1
    one = tmp_path / "one.pdn"
    one.write_text('[Event "a"]\n1. 11-15 23-19 *\n', encoding="utf-8")
    code, out, _ = _run(capsys, ["pdn", str(one)])
    assert code == 0 and ": 1 game: 1 read" in out and "2 plies" in out
