"""Every number has a documented range, checked before any work starts (issue 23, kind 1), and Ctrl+C leaves
nothing half-written.

* The stress test: every numeric option of every subcommand (found in the parser itself, so a new option is
  covered automatically) and every numeric agent key (``gameplay.rules.limits.AGENT_KEY_RANGES``, in a spec, an
  agent file's ``SETTINGS``, a ``.toml`` agent and a Tree Lab spec) is fed 0, -1, 1e308, nan, 10^20 and 100 KB
  strings. A value outside the range exits 2 with one line on standard error naming the option or key, no
  traceback, nothing on standard output, well within 5 s (an alarm stops a run that starts working instead); a
  value inside it (a seed of 0, a perft depth of 0) is accepted by the parser (and not run). The settings file,
  saved games and tree files are fed the same values.
* Each example of the issue, through ``main.py``, with its right value.
* Ctrl+C (SIGINT to the process group, as a terminal sends it) in a ``match`` and a ``tournament``: exit 130, one
  line, no traceback, no partial file, the journal still loads.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from gameplay.cli import build_parser, run
from gameplay.rules import limits
from gameplay.rules.limits import NumberArg, Range, RangeError

ROOT = Path(__file__).resolve().parent.parent
BIG_DIGITS = "9" * 102_400
BIG_TEXT = "W" * 102_400
STRESS = ("0", "-1", "1e308", "nan", str(10 ** 20), BIG_DIGITS, BIG_TEXT)
"""The values fed to every numeric option and agent key (the issue's, with a 100 KB string of digits and one of
letters)."""
ALARM_S = 5.0


# ----- the mechanism ---------------------------------------------------------------------------------------------
def test_a_range_reads_text_and_decoded_numbers_and_refuses_the_rest() -> None:
    r = Range(0, 30, "plies")
    assert r.read("7") == 7 and r.read(7) == 7 and r.read(7.0) == 7 and r.read(" +30 ") == 30
    for bad in ("31", "-1", "7.5", 7.5, "1e3", "nan", float("nan"), float("inf"), True, None, "", "x", BIG_DIGITS,
                10 ** 5000, [7]):
        with pytest.raises(RangeError) as e:
            r.read(bad, "--depth")
        assert str(e.value).startswith("--depth must be a whole number of plies from 0 to 30, got ")
        assert len(str(e.value)) < 200
    t = Range(0, 3600, "seconds", whole=False, lo_open=True)
    assert t.read("1.5") == 1.5 and t.read(3600) == 3600.0 and t.read(".5") == 0.5
    for bad in ("0", 0, "-0.1", "3600.5", "1e308", "inf", "-inf", "nan", "NaN", "Infinity", 10 ** 400):
        assert bad not in t
    assert t.text() == "above 0, at most 3,600 seconds"
    assert limits.SEED.read(str(2 ** 63 - 1)) == 2 ** 63 - 1 and str(2 ** 63) not in limits.SEED
    # the tester's: digits of other scripts (int("٣") is 3) and a denormal time ("9.99989e-321 s/move")
    for other in ("٣", "３", "1٠", "٣.5"):
        assert other not in limits.PERFT_DEPTH and other not in limits.MOVE_TIME
    assert "1e-320" not in limits.MOVE_TIME and limits.MOVE_TIME.read("0.001") == 0.001


def test_every_range_is_finite_and_documented() -> None:
    import math
    ranges = {n: v for n, v in vars(limits).items() if isinstance(v, Range)}
    assert len(ranges) >= 20
    for name, r in ranges.items():
        assert math.isfinite(r.lo) and math.isfinite(r.hi) and r.lo < r.hi, name
    source = (ROOT / "gameplay/rules/limits.py").read_text(encoding="utf-8")
    for name in ranges:  # each has its reason in a docstring right below it
        assert f'{name} = Range(' in source and '"""' in source.split(f"{name} = Range(", 1)[1].split("\n", 2)[1]


# ----- the stress test: every numeric option --------------------------------------------------------------------
BASE: dict[tuple[str, ...], list[str]] = {
    ("demo",): ["demo", "tictactoe"],
    ("perft",): ["perft", "tictactoe", "--depth", "1"],
    ("match",): ["match", "tictactoe", "--p1", "random", "--p2", "random", "--quiet", "--pdn", "none"],
    ("compare",): ["compare", "tictactoe", "--agents", "random", "minimax"],
    ("tournament",): ["tournament", "tictactoe", "--agents", "random", "minimax", "--quiet"],
    ("plot", "growth"): ["plot", "growth", "tictactoe", "--out", "{tmp}/g.png"],
    ("shot",): ["shot", "treelab", "--size", "1280x800", "--out", "{tmp}/s.png"],
}
"""A command line each numeric option is added to (or replaced in): every subcommand with a numeric option must
have one, so a new subcommand's numbers are stressed too."""


def numeric_options() -> list[tuple[tuple[str, ...], str, NumberArg]]:
    """``(subcommand path, option, its type)`` of every numeric option of the parser."""
    found: list[tuple[tuple[str, ...], str, NumberArg]] = []
    plain: list[str] = []

    from gameplay.cli.main import arguments, subcommands

    def walk(p: argparse.ArgumentParser, path: tuple[str, ...]) -> None:
        for act in arguments(p):
            if isinstance(act.type, NumberArg):
                found.append((path, act.option_strings[-1], act.type))
            elif act.type is not None:
                plain.append(f"{' '.join(path)} {act.option_strings}: type {act.type!r}")
        for name, sp in subcommands(p):
            walk(sp, path + (name,))
    walk(build_parser(), ())
    assert not plain, "numeric options without a range (use gameplay.rules.limits): " + "; ".join(plain)
    return found


def test_the_parser_has_the_numeric_options_of_the_issue() -> None:
    names = {(" ".join(p), o) for p, o, _ in numeric_options()}
    assert {("perft", "--depth"), ("match", "--games"), ("tournament", "--games-per-pair"),
            ("plot growth", "--max-depth"), ("match", "--seed"), ("tournament", "--time"), ("compare", "--time"),
            ("demo", "--frames"), ("shot", "--size"), ("shot", "--zoom")} <= names


def _accepts(kind: NumberArg, value: str) -> bool:
    try:
        kind(value)
    except limits.OptionValueError:
        return False
    return True


class _Alarm(Exception):
    pass


@pytest.fixture
def alarm() -> Iterator[None]:
    """Fail a run that is still going after ALARM_S (it started working on a value it should have refused)."""
    def ring(signum: int, frame: Any) -> None:
        raise _Alarm(f"still running after {ALARM_S} s")
    old = signal.signal(signal.SIGALRM, ring)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, old)


def refused(capsys: pytest.CaptureFixture[str], argv: list[str], names: str) -> None:
    """``argv`` run in this process: exit 2, one line naming ``names``, no traceback, nothing on stdout."""
    signal.setitimer(signal.ITIMER_REAL, ALARM_S)
    try:
        code = run(argv)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    out, err = capsys.readouterr()
    shown = " ".join(a[:30] for a in argv)
    assert code == 2, (shown, code, err[:300])
    assert out == "", (shown, out[:300])
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), (shown, err[:600])
    assert "Traceback" not in err and len(lines[0]) < 450, (shown, lines[0][:300])
    assert names in lines[0], (shown, lines[0][:300])
    assert BIG_DIGITS[:100] not in lines[0] and BIG_TEXT[:100] not in lines[0]


def test_every_numeric_option_refuses_values_outside_its_range(capsys: pytest.CaptureFixture[str], alarm: None,
                                                               tmp_path: Path) -> None:
    cases = 0
    for path, option, kind in numeric_options():
        assert path in BASE, f"add a command line for '{' '.join(path)}' to BASE (its {option} is numeric)"
        base = [a.replace("{tmp}", str(tmp_path)) for a in BASE[path]]
        for value in STRESS:
            argv = list(base)
            if option in argv:
                argv[argv.index(option) + 1] = value
            else:
                argv.append(f"{option}={value}")
            if _accepts(kind, value):  # legal (a seed of 0, a perft depth of 0): the parser takes it, not run
                assert value in ("0",), (option, value[:30])
                build_parser().parse_args(argv)
                continue
            refused(capsys, argv, option)
            cases += 1
    assert cases >= 90
    assert not list(tmp_path.iterdir())  # nothing was written


# ----- the stress test: every numeric agent key --------------------------------------------------------------
AGENT_KEY_SPECS: dict[str, tuple[str, str]] = {
    "depth": ("tictactoe", "alphabeta:depth={v}"), "time": ("tictactoe", "alphabeta:time={v}"),
    "seed": ("tictactoe", "alphabeta:seed={v}"), "simulations": ("tictactoe", "mcts:simulations={v}"),
    "c": ("tictactoe", "mcts:c={v}"), "playout": ("checkers", "mcts:playout=eval:{v}"),
    "holdN": ("pig", "optimal:weights=hold{v}"),
}
"""Where each numeric agent key is written in a spec (``playout=eval:N`` and Pig's ``weights=holdN`` embed one)."""


def test_every_numeric_agent_key_has_a_spec_here() -> None:
    from ai.agents.agent_base import KEYS, SWITCHES
    numeric = set(limits.AGENT_KEY_RANGES)
    assert numeric <= set(AGENT_KEY_SPECS)
    assert set(KEYS) - numeric - set(SWITCHES) == {"prune", "weights", "playout", "clock"}  # names (playout: eval:N)


def _key_range(key: str) -> Range:
    return {"playout": limits.PLAYOUT_PLIES, "holdN": limits.HOLD_AT}.get(key) or limits.AGENT_KEY_RANGES[key]


@pytest.mark.parametrize("key", sorted(AGENT_KEY_SPECS))
def test_every_numeric_agent_key_refuses_values_outside_its_range(capsys: pytest.CaptureFixture[str], alarm: None,
                                                                  key: str) -> None:
    from ai.agents.agents import parse_settings
    from ai.agents.profiles import profile_for
    game, template = AGENT_KEY_SPECS[key]
    for value in STRESS:
        spec = template.format(v=value)
        if value.lstrip("-").isdigit() and len(value) < 30 and int(value) in _key_range(key):
            parse_settings(spec, profile_for(game))  # legal: accepted, no search run
            continue
        word = {"holdN": "weights=holdN", "playout": "playout"}.get(key, f"agent setting {key}")
        refused(capsys, ["analyze", game, "--agent", spec, "--quiet"], word)


@pytest.mark.parametrize("key", ["simulations", "c", "seed"])
def test_tree_lab_keys_refuse_values_outside_their_range(capsys: pytest.CaptureFixture[str], alarm: None,
                                                         key: str) -> None:
    for value in STRESS:
        if value == "0" and 0 in limits.AGENT_KEY_RANGES[key]:
            continue
        refused(capsys, ["tree", "--tree", "[[1,2],[3,4]]", "--agent", f"mcts:{key}={value}"], f"setting {key}")


def test_agent_files_refuse_values_outside_the_ranges(capsys: pytest.CaptureFixture[str], alarm: None,
                                                      tmp_path: Path) -> None:
    evaluation = ROOT / "examples/agents/tictactoe_eval.py"
    for key in ("depth", "time", "seed"):
        for value in ("-1", "1e308", "nan", str(10 ** 20), BIG_DIGITS):
            refused(capsys, ["analyze", "tictactoe", "--agent", f"file:{evaluation}:{key}={value}", "--quiet"],
                    f"setting {key}")
    literal = {"-1": "-1", "1e308": "1e308", "nan": "float('nan')", "10^20": str(10 ** 20), "big": BIG_DIGITS}
    for name, text in literal.items():  # SETTINGS = {...} in the file itself
        f = tmp_path / f"eval_{len(text)}_{name.replace('^', '')}.py"
        f.write_text(f"SETTINGS = {{'depth': {text}}}\ndef evaluate(state, player):\n    return 0.0\n")
        refused(capsys, ["analyze", "tictactoe", "--agent", f"file:{f}", "--quiet"], f.name)
    toml_values = {"-1": "-1", "1e308": "1e308", "nan": "nan", "inf": "inf", "10^20": str(10 ** 20),
                   "text": '"' + BIG_TEXT + '"'}
    for name, text in toml_values.items():  # a .toml agent
        for key in ("depth", "time", "simulations"):
            f = tmp_path / f"agent_{key}_{name.replace('^', '')}.toml"
            algorithm = "mcts" if key == "simulations" else "alphabeta"
            f.write_text(f'name = "{algorithm}"\n{key} = {text}\n', encoding="utf-8")
            refused(capsys, ["analyze", "tictactoe", "--agent", str(f), "--quiet"], f"setting {key}")
        if name != "-1":  # a legal weight
            f = tmp_path / f"weights_{name.replace('^', '')}.toml"
            f.write_text(f'name = "alphabeta"\n[weights]\nmen = {text}\n', encoding="utf-8")
            refused(capsys, ["analyze", "checkers", "--agent", str(f), "--quiet"], "weight")


# ----- the same values in the settings file, a saved game and a tree file ----------------------------------------
DECODED = (-1, 1e308, float("nan"), float("inf"), 10 ** 20, BIG_DIGITS, True)
"""The stress values as a file decodes them (TOML, JSON): numbers, text and a boolean."""


@pytest.mark.parametrize("field", ["animation_speed", "ui_scale", "window_size"])
def test_settings_numbers_outside_their_range_are_reported_and_not_used(field: str) -> None:
    from gameplay.files.settings import Settings
    for value in DECODED:
        v: Any = [value, 800] if field == "window_size" else value
        s, problems = Settings.from_dict({field: v})
        assert [f for f, _ in problems] == [field] and getattr(s, field) == getattr(Settings(), field)
        assert len(problems[0][1]) < 300 and BIG_DIGITS[:100] not in problems[0][1]


@pytest.mark.parametrize("key", ["depth", "time"])
def test_settings_side_numbers_outside_their_range_are_reported(key: str) -> None:
    from gameplay.files.settings import side_from_dict
    for value in DECODED + (10 ** 5000,):
        side, problems = side_from_dict("checkers", 1, {"agent": "custom", key: value}, "games.checkers.p2")
        assert [f for f, _ in problems] == [f"games.checkers.p2.{key}"], (key, str(value)[:30])
        assert len(problems[0][1]) < 300
    side, problems = side_from_dict("checkers", 1, {"depth": 64, "time": 3600}, "p")
    assert not problems and side.depth == 64 and side.time_budget_s == 3600.0
    side, problems = side_from_dict("checkers", 1, {"depth": 0, "time": 0}, "p")  # 0: no limit
    assert not problems and side.depth is None and side.time_budget_s is None


@pytest.mark.parametrize("key", ["depth", "time", "seed", "simulations", "c"])
def test_saved_sides_with_numbers_outside_their_range_keep_the_specs_value(key: str) -> None:
    from gameplay.files.savegame import restore_agent
    spec = "mcts:simulations=50" if key in ("simulations", "c") else "alphabeta:depth=2"
    for value in DECODED:
        agent, notes = restore_agent("tictactoe", spec, {key: value})
        assert len(notes) == 1 and f"its {key}" in notes[0] and "could not be restored" in notes[0], notes
        assert agent.settings.to_json()[key] == restore_agent("tictactoe", spec, None)[0].settings.to_json()[key]


def test_a_saved_spec_that_cannot_be_used_is_quoted_short_with_its_reason() -> None:
    from gameplay.files.savegame import restore_agent
    agent, notes = restore_agent("checkers", "x" * 100_000, None)  # the note quoted the whole 100 KB spec
    assert agent.is_human and len(notes) == 1 and len(notes[0]) < 600 and "(100,000 characters)" in notes[0]
    agent, notes = restore_agent("checkers", "alphabeta:depth=99999", None)  # out of range, not "unknown"
    assert notes == ["its agent 'alphabeta:depth=99999' cannot be used here (agent setting depth must be a whole "
                     "number of plies from 1 to 64, got '99999'); a human plays it"]


def test_no_error_message_carries_a_100_kb_input() -> None:
    from gameplay.rules.base import MESSAGE_LIMIT, GameError
    from gameplay.rules.checkers.pdn_read import iter_records
    assert len(str(GameError("x" * 100_000))) <= MESSAGE_LIMIT  # the last guard of every bad-input message
    text = '[Event "c"]\n1. ' + "9" * 100_000 + " *\n"  # a 100,000-digit token
    for exact in (False, True):  # the fast reader and the exact one
        records = list(iter_records(text, exact=exact))
        record = records[0]
        assert len(records) == 1 and record.error is not None
        assert len(str(record.error)) < 400 and "(100,000 characters)" in str(record.error), str(record.error)[:200]


def test_a_saved_game_with_too_many_moves_or_a_huge_number_is_refused(tmp_path: Path) -> None:
    from gameplay.files.savegame import FORMAT, VERSION, SavedGame, SaveError, load_game
    base = {"format": FORMAT, "version": VERSION, "game": "pig", "start": "0,0,0,1", "agents": ["human", "easy"]}
    with pytest.raises(SaveError, match="at most 100,000"):
        SavedGame.from_json({**base, "moves": ["roll"] * (limits.SAVE_PLIES + 1)})
    with pytest.raises(SaveError, match="not a saved game"):
        SavedGame.loads('{"version": ' + BIG_DIGITS + "}")
    with pytest.raises(SaveError, match="not a saved game"):
        SavedGame.loads("[" * 100_000 + "]" * 100_000)
    big = tmp_path / "big.json"
    with open(big, "wb") as f:  # a sparse file: refused by its size, unread
        f.truncate(limits.FILE_BYTES + 1)
    with pytest.raises(SaveError, match="too large"):
        load_game(big)


def test_tree_files_with_numbers_outside_the_range_are_refused(capsys: pytest.CaptureFixture[str],
                                                              alarm: None, tmp_path: Path) -> None:
    for leaf in ("1e308", "NaN", "Infinity", str(10 ** 20), "1" + "0" * 400, BIG_DIGITS, "1e13"):
        f = tmp_path / "t.json"
        f.write_text(f"[[{leaf}, 1], [2, 3]]", encoding="utf-8")
        refused(capsys, ["tree", "--tree", str(f), "--agent", "alphabeta"], "leaf" if len(leaf) < 4000 else
                "digits")
    for tree in ("[" * 100 + "1" + "]" * 100, "[" + ",".join(["1"] * 200_001) + "]"):  # too deep, too large
        f.write_text(tree, encoding="utf-8")
        refused(capsys, ["tree", "--tree", str(f), "--agent", "minimax"], "at most")
    big = tmp_path / "big.json"
    with open(big, "wb") as fh:
        fh.truncate(limits.FILE_BYTES + 1)
    refused(capsys, ["tree", "--tree", str(big), "--agent", "minimax"], "too large")
    code = run(["tree", "--tree", "[[-1e12, 0], [1e12, -1]]", "--agent", "minimax", "--json"])  # the bounds
    assert code == 0 and json.loads(capsys.readouterr().out)["value"] == -1


def test_pig_positions_and_die_faces_outside_their_range_are_refused(capsys: pytest.CaptureFixture[str],
                                                                   alarm: None) -> None:
    for value in STRESS[1:]:
        refused(capsys, ["moves", "pig", f"--position={value},0,0,1"], "field S1")  # "=": a value may start with "-"
        refused(capsys, ["moves", "pig", f"--position=0,{value},0,1"], "field S2")
        refused(capsys, ["analyze", "pig", "--position", "0,0,0,1,r", "--moves", f"die={value}", "--agent",
                         "random"], "die outcome")
    assert run(["moves", "pig", "--position", "0,0,0,1"]) == 0 and run(["moves", "pig", "--position", "103,0,0,1"]) == 0


def test_perft_bounds_its_depth_where_it_recurses() -> None:
    from gameplay.rules.perft import perft
    from gameplay.rules.registry import make_game
    game = make_game("checkers")
    with pytest.raises(RangeError, match="from 0 to 30"):
        perft(game, game.initial_state(), 2000)
    assert perft(game, game.initial_state(), 0) == 1


# ----- the issue's examples, through main.py ------------------------------------------------------------------
def main_py(*args: str, cwd: Path = ROOT, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, ARCADE_CONFIG_DIR=str(cwd / "cfg"), ARCADE_DATA_DIR=str(cwd / "data"))
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=env)


def one_error(r: subprocess.CompletedProcess[str], *words: str) -> str:
    assert r.returncode == 2 and r.stdout == "", (r.returncode, r.stdout[:300], r.stderr[-1500:])
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr[-1500:]
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("args, words", [
    (("perft", "checkers", "--depth", "2000"), ("--depth", "from 0 to 30", "'2000'")),
    (("perft", "checkers", "--depth", "99999999999999999999"), ("--depth", "from 0 to 30")),
    (("plot", "growth", "checkers", "--max-depth", "999", "--out", "g.png"), ("--max-depth", "from 1 to 30")),
    (("match", "tictactoe", "--p1", "easy", "--p2", "easy", "--games", "99999999999999999999999"),
     ("--games", "from 1 to 100,000")),
    (("tournament", "tictactoe", "--agents", "easy", "random", "--games-per-pair", "99999999999999999998",
      "--journal", "j.jsonl"), ("--games-per-pair", "from 1 to 10,000")),
    (("analyze", "checkers", "--agent", "alphabeta:depth=99999999999999999999999"),
     ("agent setting depth", "from 1 to 64")),
    (("analyze", "checkers", "--agent", "alphabeta:time=1e308"),
     ("agent setting time", "from 0.001 to 3,600", "1e308")),
])
def test_the_issues_examples_are_refused_in_one_line(tmp_path: Path, args: tuple[str, ...],
                                                     words: tuple[str, ...]) -> None:
    one_error(main_py(*args, cwd=tmp_path), *words)
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no figure, journal, folder or partial file


def test_a_binary_tree_file_is_named_as_not_text(tmp_path: Path) -> None:
    f = tmp_path / "binary.bin"
    f.write_bytes(bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + bytes(range(256)))
    line = one_error(main_py("tree", "--tree", str(f), "--agent", "minimax", cwd=tmp_path), "binary.bin")
    assert "it is not a text file (it holds NUL bytes, the first at byte 9)" in line
    assert "UnicodeDecodeError" not in line


def test_the_ranges_are_in_help_and_the_docs() -> None:
    r = main_py("perft", "--help")
    assert r.returncode == 0 and "range: 0-30 plies" in r.stdout
    r = main_py("match", "--help")
    flat = " ".join(r.stdout.split())
    assert "range: 1-100,000 games" in flat and "Agent keys take numbers in these ranges: depth 1-64 plies" in flat
    page = (ROOT / "docs" / "command-line.md").read_text(encoding="utf-8")  # its "Ranges" table
    for rng in (limits.PERFT_DEPTH, limits.MATCH_GAMES, limits.GAMES_PER_PAIR, limits.SEARCH_DEPTH,
                limits.MOVE_TIME, limits.GROWTH_DEPTH, limits.SIMULATIONS, limits.SEED):
        assert rng.text() in page, rng.text()


# ----- Ctrl+C ---------------------------------------------------------------------------------------------------
def _interrupt_when(proc: subprocess.Popen[str], ready: Any, limit_s: float = 120) -> tuple[str, str]:
    """Send SIGINT to ``proc``'s process group (as a terminal's Ctrl+C does) once ``ready(stderr lines so far)``
    (checked at each line, and every 50 ms for what is not on stderr, a file; ``limit_s`` is a cap only a hang
    reaches); its output."""
    err: list[str] = []
    ended = [False]
    news = threading.Condition()

    def read() -> None:
        for line in proc.stderr or []:
            with news:
                err.append(line)
                news.notify_all()
        with news:
            ended[0] = True
            news.notify_all()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + limit_s
    with news:
        while not (ended[0] or ready(err)) and time.monotonic() < deadline:
            news.wait(0.05)
    assert proc.poll() is None, "it ended before it could be interrupted: " + "".join(err)[-800:]
    os.killpg(proc.pid, signal.SIGINT)
    try:  # (what these commands print on stdout fits a pipe's buffer)
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:  # a lost Ctrl+C fails here, not after the whole run (a 2,000-game tournament)
        proc.kill()
        proc.wait()
        raise AssertionError("it did not stop within 60 s of Ctrl+C: " + "".join(err)[-800:]) from None
    out = proc.stdout.read() if proc.stdout else ""
    reader.join(timeout=10)
    return out, "".join(err)


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start(tmp_path: Path, *args: str, program: tuple[str, ...] = (str(ROOT / "main.py"),),
           pass_fds: tuple[int, ...] = ()) -> subprocess.Popen[str]:
    """``main.py`` (or ``program``) with ``args`` in its own session, SIGINT as a terminal's program gets it: a
    test run started in the background of a shell inherits SIGINT ignored (POSIX), and Python then never raises
    KeyboardInterrupt."""
    env = dict(os.environ, ARCADE_CONFIG_DIR=str(tmp_path / "cfg"), ARCADE_DATA_DIR=str(tmp_path / "data"))
    return subprocess.Popen([sys.executable, *program, *args], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, start_new_session=True,
                            preexec_fn=_default_sigint, pass_fds=pass_fds)


COUNTING = f"""
import os, sys
sys.path.insert(0, {str(ROOT)!r})
from gameplay.rules import perft as perft_module
count = perft_module.perft


def perft(game, state, depth, count_terminal=False, progress=None):
    told = []

    def tell(counted):
        if not told:
            told.append(os.write(int(sys.argv[1]), b"counting\\n"))
        if progress is not None:
            progress(counted)
    return count(game, state, depth, count_terminal, tell)


perft_module.perft = perft
from gameplay.__main__ import main
sys.exit(main(sys.argv[2:]))
"""
"""``main.py``'s command line (argv[2:]), writing a line to the file descriptor argv[1] when the first subtree of a
perft count has been counted: the count is under way."""


def _line(fd: int, limit_s: float = 120) -> str:
    """The first line written to the pipe ``fd`` (``""`` at its end), waiting at most ``limit_s`` seconds."""
    with os.fdopen(fd, "rb", buffering=0) as pipe:
        got = b""
        while not got.endswith(b"\n") and select.select([pipe], [], [], limit_s)[0]:
            chunk = pipe.read(1)
            if not chunk:
                break
            got += chunk
        return got.decode()


def test_ctrl_c_stops_a_match_in_one_line_and_writes_nothing(tmp_path: Path) -> None:
    proc = _start(tmp_path, "match", "tictactoe", "--p1", "random", "--p2", "random", "--games", "100000", "--jobs",
                  "2", "--plot", str(tmp_path / "m.png"))
    out, err = _interrupt_when(proc, lambda err: any("p1 score" in line for line in err))
    assert proc.returncode == 130, err[-1500:]
    assert out == "" and "Traceback" not in err, err[-1500:]
    last = err.strip().splitlines()[-1]
    assert last.startswith("interrupted after ") and last.endswith(" of 100,000 games; nothing was saved"), last
    assert sorted(p.name for p in tmp_path.iterdir() if p.name not in ("cfg", "data")) == []


def test_ctrl_c_stops_a_deep_perft_in_one_line(tmp_path: Path) -> None:
    # depth 14 counts for minutes; the compiled count never returned to the interpreter, so Ctrl+C waited for
    # all of it (399 s) before saying "interrupted"
    r, w = os.pipe()
    proc = _start(tmp_path, str(w), "perft", "checkers", "--depth", "14", program=("-c", COUNTING), pass_fds=(w,))
    os.close(w)
    assert _line(r) == "counting\n", "the count did not start"  # a subtree counted: it is in the count
    out, err = _interrupt_when(proc, lambda err: True)
    assert proc.returncode == 130 and out == "" and "Traceback" not in err, err[-1500:]
    assert err.strip().splitlines() == ["interrupted"], err[-1500:]


@pytest.mark.slow
def test_perft_hands_subtrees_to_the_fast_count_and_can_be_stopped_between_them() -> None:
    from gameplay.rules.perft import FAST_PLIES, perft
    from gameplay.rules.registry import make_game
    game = make_game("checkers")
    # the walk above the subtrees ignores the draw rules as the fast count does: two kings shuffling repeat
    # positions within the walk's plies
    for fen in ("B:W21-32:B1-12", "W:WK10:BK28", "B:WK14,K15:BK18,K30"):
        state = game.parse_position(fen)
        for terminal in (False, True):
            seen: list[int] = []
            assert perft(game, state, FAST_PLIES + 3, terminal, seen.append) == game.perft(state, FAST_PLIES + 3,
                                                                                          terminal), fen
            assert seen and seen == sorted(seen) and seen[-1] == game.perft(state, FAST_PLIES + 3, terminal)

    def stop(counted: int) -> None:
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        perft(game, game.initial_state(), 14, progress=stop)  # stops at the first subtree, not after minutes


def test_ctrl_c_stops_a_tournament_and_its_journal_still_loads(tmp_path: Path) -> None:
    from gameplay.tournament.journal import read_journal
    journal = tmp_path / "t.jsonl"

    def games(err: list[str]) -> bool:
        return journal.exists() and len(journal.read_text(encoding="utf-8").splitlines()) >= 3

    proc = _start(tmp_path, "tournament", "tictactoe", "--agents", "random", "easy", "--games-per-pair", "2000",
                  "--jobs", "2", "--journal", str(journal))
    _, err = _interrupt_when(proc, games)
    assert proc.returncode == 130 and "Traceback" not in err, err[-1500:]
    last = err.strip().splitlines()[-1]
    assert last.startswith("interrupted; the journal ") and "rerun the same command" in last, last
    header, records = read_journal(journal)
    assert header["games_per_pair"] == 2000 and len(records) >= 2
    assert all(r["key"] for r in records)
    leftovers = [p.name for p in tmp_path.rglob("*") if p.name.endswith((".tmp", ".part")) or ".part." in p.name]
    assert leftovers == []


@pytest.mark.skipif(os.name != "posix", reason="SIGTERM and SIGINT as on Unix")
def test_a_process_stopped_while_it_starts_children_waits_until_they_have_started(tmp_path: Path) -> None:
    # a pool's worker terminated in the middle of Process.start left a child without its start-up data, which
    # printed "EOFError: Ran out of input" on the terminal after a Ctrl+C
    script = ("import os, signal, sys\n"
              "from ai.agents.agent_watch import children_ignore_sigint\n"
              "with children_ignore_sigint():\n"
              "    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN\n"
              "    os.kill(os.getpid(), signal.SIGTERM)\n"
              "    print('the children started', flush=True)\n"
              "print('not reached', flush=True)\n")
    r = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == -signal.SIGTERM and r.stdout == "the children started\n", (r.returncode, r.stdout,
                                                                                       r.stderr)


@pytest.mark.parametrize("args", [
    ("plot", "ladder", "--out", "{f}/x.png"),
    ("plot", "growth", "tictactoe", "--max-depth", "2", "--out", "{f}/x.png"),
    ("match", "tictactoe", "--p1", "random", "--p2", "random", "--games", "2", "--plot", "{f}/m.png"),
    ("tree", "--tree", "[[1,2],[3]]", "--agent", "minimax", "--out", "{f}/t.png"),
])
def test_an_output_path_under_a_file_is_refused_before_the_work(tmp_path: Path, args: tuple[str, ...]) -> None:
    # a file where the path needs a folder: a FileExistsError traceback, after the match's games were played
    (tmp_path / "afile").write_text("")
    line = one_error(main_py(*(a.format(f=tmp_path / "afile") for a in args), cwd=tmp_path))
    assert f"'{tmp_path / 'afile'}' is a file, not a folder" in line, line


def test_a_write_that_fails_is_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    import errno

    from gameplay.rules.outfile import OutputError, check_target, replacing
    with pytest.raises(OutputError, match=r"cannot write '.*fig.png': No space left on device"):
        with replacing(tmp_path / "fig.png") as tmp:
            tmp.write_bytes(b"\x89PNG half")
            raise OSError(errno.ENOSPC, "No space left on device")  # what a full disk says mid-write
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(OutputError, match="it is a folder; expected a file name"):
        check_target(tmp_path)
    deeper = tmp_path / "new" / "deeper" / "x.png"  # a folder that does not exist: refused, unless the caller makes it
    # a long temporary path is shortened in the message, with its length after it (quoted_path)
    with pytest.raises(OutputError, match=r"the folder '.*deeper'( \(a path of [\d,]+ characters\))? does not "
                                          r"exist \(make it first\)"):
        check_target(deeper)
    assert check_target(deeper, make_folders=True) == deeper and not (tmp_path / "new").exists()


def test_every_writer_goes_through_the_one_atomic_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the report, the endgame tables and the Pig cache had their own temporary files (a fixed ".tmp" name, no
    # fsync): they now write through outfile, which fsyncs a uniquely named file before the rename
    import ai.checkers.endgame_db as endgame_db
    import ai.pig.pig_optimal as pig_optimal
    import gameplay.tournament.report as tournament_report
    from gameplay.rules import outfile
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(outfile.os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    for module in (endgame_db, pig_optimal, tournament_report):
        assert module.__dict__.get("write_bytes", module.__dict__.get("write_text")) in (outfile.write_bytes,
                                                                                         outfile.write_text)
    target = tmp_path / "t.bin"
    outfile.write_bytes(target, b"whole")
    assert target.read_bytes() == b"whole" and synced and [p.name for p in tmp_path.iterdir()] == ["t.bin"]


def test_an_interrupted_output_file_leaves_nothing_half_written(tmp_path: Path) -> None:
    from gameplay.rules.outfile import replacing, write_text
    target = tmp_path / "fig.png"
    with pytest.raises(KeyboardInterrupt):
        with replacing(target) as tmp:
            tmp.write_bytes(b"\x89PNG half")
            raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []
    write_text(target, "old")
    with pytest.raises(KeyboardInterrupt):
        with replacing(target) as tmp:
            assert tmp.suffix == ".png" and tmp.parent == tmp_path
            tmp.write_text("new, half")
            raise KeyboardInterrupt
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["fig.png"]


def test_an_interrupted_figure_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from gameplay.pictures.plots import save
    fig = Figure()

    def half(path: Any, **kw: Any) -> None:
        Path(path).write_bytes(b"\x89PNG half")
        raise KeyboardInterrupt
    monkeypatch.setattr(fig, "savefig", half)
    with pytest.raises(KeyboardInterrupt):
        save(fig, tmp_path / "g.png")
    assert list(tmp_path.iterdir()) == []
