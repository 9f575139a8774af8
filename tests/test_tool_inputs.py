"""The measuring and build tools refuse bad input cleanly (issue 49): ``tools/c4_solver_speed.py`` and
``tools/build_c4_book.py`` run as a user runs them (a subprocess), each refusal one line ``error: ...`` on standard
error, exit status 2, no traceback, nothing solved and no file written; the shipped book cannot be overwritten by
default (``--out`` is required). Pons's solver is not needed: every refusal comes before it is compiled, and the
run that does reach it gets a stand-in driver (our own solver behind the driver's line format).

(``tools/build_endgame_db.py``'s default of the data folder: ``tests/test_endgame_build.py``.)
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from ai.connect4.connect4_book import BOOK_PATH

ROOT = Path(__file__).resolve().parent.parent
SPEED = ROOT / "tools" / "c4_solver_speed.py"
BOOK = ROOT / "tools" / "build_c4_book.py"


def _run(tool: Path, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, ARCADE_DATA_DIR=str(cwd / "data"))
    return subprocess.run([sys.executable, str(tool), *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


def _refused(done: subprocess.CompletedProcess[str], *words: str) -> str:
    """The one ``error:`` line of a refused run (exit 2, no traceback), checked to contain ``words``."""
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    errors = [line for line in done.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and errors[0].startswith("error: "), done.stderr
    for w in words:
        assert w in errors[0], (w, errors[0])
    return errors[0]


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ----- tools/c4_solver_speed.py -----------------------------------------------------------------------------------
BAD_LINES = {"abc": "digits 1..7", "4444440": "digits 1..7", "1111111": "full",
             "1212121": "already over", "26214643 extra": "text after the position"}


@pytest.mark.parametrize(("args", "files", "words"), [
    (["--positions-file", "empty.txt"], {"empty.txt": "\n\n"}, ["no positions to compare"]),
    (["--positions", "0"], {}, ["no positions to compare", "--positions 0"]),
    (["--positions", "-3"], {}, ["no positions to compare", "--positions -3"]),
    (["--positions-file", "dash.txt"], {"dash.txt": "4455\n-\n"}, ["empty board", "far too long", "--empty-board"]),
    (["--plies", "0-4"], {}, ["empty board", "--empty-board"]),
    (["--plies", "42"], {}, ["0 <= N <= M <= 41", "42 stones is always over"]),
    (["--plies", "30-45"], {}, ["0 <= N <= M <= 41"]),
    (["--plies", "abc"], {}, ["--plies 'abc'", "expected N-M"]),
    (["--plies", "20-10"], {}, ["--plies '20-10'", "0 <= N <= M"]),
    (["--positions-file", "nosuch.txt"], {}, ["nosuch.txt", "no such file"]),
    (["--positions-file", "."], {}, ["it is a folder"]),
    (["--positions-file", "latin1.txt"], {"latin1.txt": b"4455\n\xe94\n"}, ["not UTF-8"]),
    (["--noise", "0.3"], {}, ["--noise", "without --games", "no effect"]),
    (["--min-plies", "11"], {}, ["--min-plies", "without --games"]),
    (["--games", "2"], {}, ["empty board", "--min-plies"]),
    (["--games", "1", "--min-plies", "11", "--opponent", "nosuch"], {}, ["--opponent nosuch", "unknown agent"]),
    (["--games", "2", "--min-plies", "42", "--expert-time", "0.01"], {},
     ["no positions to compare", "none of the", "42 stones or more"]),
    (["--positions-file", "p.txt", "--plies", "10"], {"p.txt": "4455\n"}, ["--plies", "no effect"]),
    (["--games", "1", "--min-plies", "11", "--plies", "10"], {}, ["--plies", "not with --positions-file or --games"]),
    (["--games", "1", "--min-plies", "11", "--noise", "0.3"], {}, ["--noise", "the random opponent always does"]),
], ids=["empty file", "positions 0", "positions -3", "dash line", "plies from 0", "plies 42", "plies past 41",
        "plies abc", "plies reversed", "missing file", "folder", "not utf-8", "noise alone", "min-plies alone",
        "games from the empty board", "unknown opponent", "games without positions", "plies with a file",
        "plies with games", "noise with the random opponent"])
def test_solver_speed_refuses_bad_input(tmp_path: Path, args: list[str], files: dict[str, str | bytes],
                                        words: list[str]) -> None:
    for name, text in files.items():
        (tmp_path / name).write_bytes(text if isinstance(text, bytes) else text.encode())
    # a --pons-src that is not there: any run that got past the input would stop on it instead
    _refused(_run(SPEED, ["--pons-src", str(tmp_path / "no-pons"), *args], tmp_path), *words)


def test_solver_speed_names_every_bad_line_of_a_positions_file(tmp_path: Path) -> None:
    lines = ["4455"] + list(BAD_LINES) + ["", "3344"]
    (tmp_path / "p.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    line = _refused(_run(SPEED, ["--pons-src", str(tmp_path), "--positions-file", "p.txt"], tmp_path),
                    "5 bad lines", "nothing run")
    for n, (text, why) in enumerate(BAD_LINES.items(), 2):
        found = re.search(rf"line {n}: [^;]*", line)
        assert found is not None and why in found.group(0), (text, line)
    assert "line 1:" not in line and "line 8:" not in line  # the good lines and the blank one


def _fake_driver(tmp_path: Path) -> Path:
    """A stand-in for Pons's compiled driver: the same line format, the scores of our own solver."""
    script = tmp_path / "fake_driver.py"
    script.write_text(f"""#!{sys.executable}
import sys
sys.path.insert(0, {str(ROOT)!r})
from ai.connect4.connect4_solver import Solver
from gameplay.rules.connect4 import Connect4
from gameplay.rules.connect4_bits import from_state_bits
game, solver = Connect4(), Solver()
for line in sys.stdin:
    moves = line.strip()
    s = game.parse_position("" if moves == "-" else moves)
    solver.clear()
    sol = solver.solve(*from_state_bits(s.first, s.mask, s.plies))
    print(moves, sol.score, sol.nodes, 1000.0, flush=True)
""", encoding="utf-8")
    script.chmod(0o755)
    return script


def test_solver_speed_says_when_pons_starts_and_compares(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A good file runs: a line says Pons's solver starts, with the number of positions, before any result; the
    rows follow and every score is the same (the stand-in driver is our solver)."""
    tool = _load(SPEED)
    monkeypatch.setattr(tool, "build_driver", lambda src, out_dir: _fake_driver(tmp_path))
    (tmp_path / "Solver.cpp").write_text("", encoding="utf-8")
    (tmp_path / "p.txt").write_text("4444442222233\n12345671234567\n\n", encoding="utf-8")
    assert tool.main(["--pons-src", str(tmp_path), "--positions-file", str(tmp_path / "p.txt"),
                      "--expert-time", "0"]) == 0
    out, err = capsys.readouterr()
    assert "Pons's solver: 2 positions" in err
    assert "4444442222233" in out and "12345671234567" in out and '"same_score": 2' in out


def test_solver_speed_takes_the_empty_board_only_when_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tool = _load(SPEED)
    assert tool.read_positions(_write(tmp_path / "d.txt", "-\n44\n")) == ["", "44"]

    class Reached(Exception):
        pass

    def stop(src: Path, out_dir: Path) -> Path:
        raise Reached

    monkeypatch.setattr(tool, "build_driver", stop)
    (tmp_path / "Solver.cpp").write_text("", encoding="utf-8")
    args = ["--pons-src", str(tmp_path), "--positions-file", str(tmp_path / "d.txt")]
    assert tool.main(args) == 2
    with pytest.raises(Reached):
        tool.main([*args, "--empty-board"])
    assert tool.parse_plies("8-20") == (8, 20) and tool.parse_plies("41") == (41, 41)


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# ----- tools/build_c4_book.py -------------------------------------------------------------------------------------
START = ["--start", "3172637512111417", "--plies", "17"]
"""A small build (16 stones to 17): any run that got past its input would finish in seconds."""


@pytest.mark.parametrize(("text", "words"), [
    ("# a comment\nabc\n", ["line 2", "POSITION SCORE COLUMN"]),
    ("4 -1 4\n44 1 9\n", ["line 2", "column 1..7"]),
    ("4 -1 4\n448 1 3\n", ["line 2", "digits 1..7"]),
    ("4444444 1 3\n", ["line 1", "full"]),
    ("4 -1 4\n444444 1 4\n", ["444444", "column 4 is full there"]),
    ("1212121 0 3\n", ["1212121", "the game is over there"]),
    (b"\xff\xfe4 1 2\n", ["not a UTF-8 text file"]),
], ids=["malformed", "bad column", "bad position", "full column in the position", "full stored column",
        "game over", "not utf-8"])
def test_book_builder_refuses_a_bad_resume_file(tmp_path: Path, text: str | bytes, words: list[str]) -> None:
    book = tmp_path / "book.txt"
    data = text if isinstance(text, bytes) else text.encode()
    book.write_bytes(data)
    _refused(_run(BOOK, [*START, "--out", str(book), "--resume"], tmp_path), "--resume", str(book), *words)
    assert book.read_bytes() == data  # not rewritten


def test_book_builder_needs_a_writable_out_and_never_defaults_to_the_shipped_book(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Without ``--out`` nothing is built (in process, the tool's idea of the shipped book pointed into
    ``tmp_path``: a default back to the shipped book would write there, not under assets/); ``--out`` in a missing
    folder or a folder is refused before anything is solved."""
    shipped = BOOK_PATH.read_bytes()
    tool = _load(BOOK)
    monkeypatch.setattr(tool, "BOOK_PATH", tmp_path / "shipped-book.txt")
    with pytest.raises(SystemExit) as stop:
        tool.main(START)
    assert stop.value.code == 2 and "--out" in capsys.readouterr().err
    assert not (tmp_path / "shipped-book.txt").exists()
    _refused(_run(BOOK, [*START, "--out", str(tmp_path / "no" / "book.txt")], tmp_path), "does not exist")
    (tmp_path / "folder").mkdir()
    _refused(_run(BOOK, [*START, "--out", str(tmp_path / "folder")], tmp_path), "it is a folder")
    assert BOOK_PATH.read_bytes() == shipped
    assert not (tmp_path / "no").exists() and list((tmp_path / "folder").iterdir()) == []


def test_book_builder_docstring_and_docs_give_the_shipped_books_command() -> None:
    """The shipped book's header records the command that built it; the tool's docstring and docs/strength.md give
    the same --plies (and --empty), with the explicit --out."""
    header = BOOK_PATH.read_text(encoding="utf-8").splitlines()[1]
    plies = re.search(r"--plies (\d+)", header)
    assert plies is not None and "--empty" in header
    want = f"python tools/build_c4_book.py --plies {plies.group(1)} --empty --out assets/book/connect4_book.txt"
    doc = _load(BOOK).__doc__ or ""
    assert want in " ".join(doc.split())
    assert want in " ".join((ROOT / "docs" / "strength.md").read_text(encoding="utf-8").split())
    assert "--plies 8 --empty`" not in doc
