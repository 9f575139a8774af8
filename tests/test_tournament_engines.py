"""Class tournaments across processes: local process pools, a local Dask cluster, a run killed with SIGKILL and
resumed, the command line, and (with ``ai.agents.arena``) real games of depth-limited agents.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from tournament_fakes import FREE_ENV, GATE_ENV, FakeTask, fake_play

from gameplay.tournament.model import Entrant, TournamentSpec, round_robin
from gameplay.tournament.run import run_tournament

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent


def _spec(agents: tuple[str, ...] = ("s0", "s100", "s200", "s-300"), n: int = 6, **kw: object) -> TournamentSpec:
    return TournamentSpec("tictactoe", tuple(Entrant(a, a) for a in agents), games_per_pair=n,
                          **kw)  # type: ignore[arg-type]


def _table(run: object) -> list[dict[str, object]]:
    return [r.to_json() for r in run.table.rows]  # type: ignore[attr-defined]


def _arena() -> bool:
    try:
        import ai.agents.arena  # noqa: F401
    except ImportError:
        return False
    return True


needs_arena = pytest.mark.skipif(not _arena(), reason="ai/agents/arena.py (the isolated game runner) is not there yet")


def test_two_local_processes_give_the_same_table_as_one(tmp_path: Path) -> None:
    spec = _spec()
    one = run_tournament(spec, tmp_path / "a.jsonl", play=fake_play, task_factory=FakeTask, progress=False)
    two = run_tournament(spec, tmp_path / "b.jsonl", play=fake_play, task_factory=FakeTask, progress=False, jobs=2)
    assert two.complete and two.played_now == 36
    assert _table(one) == _table(two)


@pytest.mark.slow
def test_a_local_dask_cluster_gives_the_same_table(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    spec = _spec()
    local = run_tournament(spec, tmp_path / "a.jsonl", play=fake_play, task_factory=FakeTask, progress=False)
    dask = run_tournament(spec, tmp_path / "b.jsonl", play=fake_play, task_factory=FakeTask, progress=False,
                          engine="dask", jobs=2)
    assert dask.complete and dask.played_now == 36
    assert _table(local) == _table(dask)
    assert [r["key"] for r in sorted(dask.records, key=lambda r: r["number"])] == [
        g.key for g in sorted(round_robin(spec), key=lambda g: g.number)]


KILL_SCRIPT = """
import sys
sys.path[:0] = [{tests!r}, {root!r}]
from pathlib import Path
from tournament_fakes import FakeTask, gated_play
from gameplay.tournament.model import Entrant, TournamentSpec
from gameplay.tournament.run import run_tournament
spec = TournamentSpec("tictactoe", tuple(Entrant(a, a) for a in ("s0", "s100", "s200", "s-300")), games_per_pair=6)
run_tournament(spec, Path({journal!r}), play=gated_play, task_factory=FakeTask, progress=False, jobs=2,
               engine={engine!r})
"""


def _lines(path: Path) -> int:
    try:
        return path.read_text().count("\n")
    except FileNotFoundError:
        return 0


def _kill_when(proc: subprocess.Popen[bytes], journal: Path, games: int, release: Callable[[], None] = lambda: None,
               timeout: float = 120.0) -> int:
    """SIGKILL the tournament's process (only it: its workers must notice and go by themselves) once the journal
    has ``games`` games; ``release()`` the games held at a gate; wait until every process it started is gone;
    return the games journaled. The journal is a file another process writes: read every 50 ms, up to ``timeout``
    seconds, a cap only a tournament that never starts reaches."""
    t0 = time.monotonic()
    while _lines(journal) < games + 1:
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        assert time.monotonic() - t0 < timeout, "the tournament did not get going"
        time.sleep(0.05)
    proc.kill()
    proc.wait(timeout=60)
    release()
    t0 = time.monotonic()
    try:
        while True:  # the session started with the tournament: its workers and their agents' processes
            try:
                os.killpg(proc.pid, 0)
            except ProcessLookupError:
                break
            if time.monotonic() - t0 > 60:
                pytest.fail("processes of the killed tournament are still running after 60 s")
            time.sleep(0.1)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return _lines(journal) - 1


@pytest.mark.parametrize("engine", ["local", "dask"])
def test_a_tournament_killed_with_sigkill_resumes_with_no_game_lost_or_played_twice(tmp_path: Path,
                                                                                       engine: str) -> None:
    if engine == "dask":
        pytest.importorskip("distributed")
    journal = tmp_path / "t.jsonl"
    code = KILL_SCRIPT.format(tests=str(TESTS), root=str(ROOT), journal=str(journal), engine=engine)
    import fcntl  # POSIX, as the process group and the signal are

    gate = tmp_path / "gate"  # at most 10 games are played, the next ones wait here (tournament_fakes.gated_play)
    gate.mkdir()
    lock = open(gate / "lock", "wb")  # noqa: SIM115 - held across the kill, closed by release()
    fcntl.flock(lock, fcntl.LOCK_EX)
    env = dict(os.environ, **{GATE_ENV: str(gate), FREE_ENV: "10"})
    try:
        proc = subprocess.Popen([sys.executable, "-c", code], cwd=tmp_path, stderr=subprocess.PIPE,
                                start_new_session=True, env=env)
        done = _kill_when(proc, journal, 8, lock.close)
    finally:
        lock.close()
    assert proc.returncode == -signal.SIGKILL
    assert 8 <= done <= 10  # killed with games in progress (of 36): some played, none of the held ones
    spec = _spec()
    run = run_tournament(spec, journal, play=fake_play, task_factory=FakeTask, progress=False)
    assert run.complete and run.played_now == 36 - done
    keys = Counter(json.loads(line)["key"] for line in journal.read_text().splitlines()[1:])
    assert set(keys) == {g.key for g in round_robin(spec)} and set(keys.values()) == {1}
    full = run_tournament(spec, tmp_path / "full.jsonl", play=fake_play, task_factory=FakeTask, progress=False)
    assert _table(run) == _table(full)


# ----- the command line --------------------------------------------------------------------------------------------
def _cli(*args: str, cwd: Path = ROOT, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.parametrize("args, message", [
    (["tournament", "tictactoe", "--agents", "alphabeta"], "at least 2 agents"),
    (["tournament", "tictactoe"], "give the agents"),
    (["tournament", "tictactoe", "--agents", "alphabeta", "wizard"], "unknown agent 'wizard'"),
    (["tournament", "tictactoe", "--agents", "alphabeta", "human"], "AI agents, not human"),
    (["tournament", "tictactoe", "--agents", "alphabeta", "minimax", "--openings", "ballots"], "for checkers"),
    (["tournament", "checkers", "--agents", "easy", "beginner", "--openings", "ballots", "--games-per-pair", "3"],
     "even"),
    (["tournament", "tictactoe", "--agents", "alphabeta", "minimax", "--engine", "spark"], "--engine must be"),
    (["tournament", "tictactoe", "--agents", "alphabeta", "minimax", "--jobs", "0"], "--jobs must be a whole number"),
    (["tournament", "tictactoe", "--agents", "alphabeta", "minimax", "--scheduler", "tcp://x:1"], "--engine dask"),
    (["tournament", "tictactoe", "--agents", "alphabeta", "minimax", "--report", "r.txt"], ".html"),
    (["tournament", "tictactoe", "--agents-dir", "/no/such/dir"], "not a folder"),
    (["tournament", "tictactoe", "--agents", "random", "minimax", "--format", "knockout"], "--format must be"),
])
def test_bad_input_exits_2_with_one_error_line(args: list[str], message: str) -> None:
    r = _cli(*args, timeout=60)
    assert r.returncode == 2, r.stderr
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], r.stderr


@pytest.mark.slow
@needs_arena
def test_the_command_line_runs_resumes_and_reports(tmp_path: Path) -> None:
    args = ["tournament", "tictactoe", "--agents", "alphabeta:depth=1", "alphabeta:depth=2", "minimax:depth=3",
            "--games-per-pair", "2", "--jobs", "2", "--time", "10", "--journal", str(tmp_path / "t.jsonl"),
            "--report", str(tmp_path / "report.html"), "--json", "--quiet"]
    r = _cli(*args)
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)
    assert obj["games"] == obj["scheduled"] == 6 and obj["complete"] and obj["played_now"] == 6
    assert obj["agents"] == ["alphabeta:depth=1", "alphabeta:depth=2", "minimax:depth=3"]
    row = obj["table"][0]
    assert set(row) >= {"agent", "points", "games", "rating", "rating_error_95", "wins", "draws", "losses",
                        "forfeits"}
    assert obj["standings"] == obj["table"] and obj["report"] == str(tmp_path / "report.html")
    assert sum(r["points"] for r in obj["table"]) == 6 and not obj["failures"]
    assert obj["crosstable"]["alphabeta:depth=1"]["alphabeta:depth=2"]["games"] == 2
    again = json.loads(_cli(*args).stdout)
    assert again["played_now"] == 0 and again["table"] == obj["table"]
    text = _cli(*args[:-2], "--quiet")
    assert text.returncode == 0 and "crosstable" in text.stdout and "rating" in text.stdout


@pytest.mark.slow
@needs_arena
def test_real_games_are_the_same_locally_and_on_a_local_dask_cluster(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    base = ["tournament", "tictactoe", "--agents", "alphabeta:depth=1", "alphabeta:depth=2", "minimax:depth=2",
            "easy", "--games-per-pair", "2", "--time", "10", "--jobs", "2", "--json", "--quiet"]
    local = _cli(*base, "--journal", str(tmp_path / "a.jsonl"))
    dask = _cli(*base, "--journal", str(tmp_path / "b.jsonl"), "--engine", "dask")
    assert local.returncode == 0, local.stderr
    assert dask.returncode == 0, dask.stderr
    a, b = json.loads(local.stdout), json.loads(dask.stdout)
    assert a["games"] == b["games"] == 12
    assert a["table"] == b["table"] and a["crosstable"] == b["crosstable"]


GATE_AGENT = """
import os
import uuid
from pathlib import Path

GATE = os.environ.get("TOURNAMENT_FAKES_GATE")  # held games: those after the first 4 of this agent's
if GATE:
    os.close(os.open(Path(GATE) / f"game-{uuid.uuid4().hex}", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
HELD = bool(GATE) and sum(1 for p in Path(GATE).iterdir() if p.name.startswith("game-")) > 4


def choose_move(state, time_left_s):
    if HELD:
        import fcntl
        with open(Path(GATE) / "lock", "rb") as lock:
            fcntl.flock(lock, fcntl.LOCK_SH)  # until the test lets go
    return game.actions(state)[0]
"""
"""An agent file playing the first legal move; each game of it is a process of its own, which counts itself at
the gate (as ``tournament_fakes.gated_play`` does) and, past the first 4, waits there before its first move."""


@pytest.mark.slow
@needs_arena
def test_the_command_line_killed_with_sigkill_resumes(tmp_path: Path) -> None:
    import fcntl  # POSIX, as the process group and the signal are

    journal = tmp_path / "t.jsonl"
    gated = tmp_path / "gated.py"
    gated.write_text(GATE_AGENT, encoding="utf-8")
    # the 6 games of the two alpha-beta agents, and at most 4 of the gated agent's 12, can be played before the
    # kill: a time limit it cannot reach, so a held game is neither played nor forfeited
    args = ["tournament", "tictactoe", "--agents", "alphabeta:depth=1", "alphabeta:depth=2", f"file:{gated}",
            "--games-per-pair", "6", "--jobs", "2", "--time", "3600", "--journal", str(journal), "--quiet"]
    gate = tmp_path / "gate"
    gate.mkdir()
    lock = open(gate / "lock", "wb")  # noqa: SIM115 - held across the kill, closed by release
    fcntl.flock(lock, fcntl.LOCK_EX)
    try:
        proc = subprocess.Popen([sys.executable, str(ROOT / "main.py"), *args], cwd=tmp_path, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True,
                                env=dict(os.environ, TOURNAMENT_FAKES_GATE=str(gate)))
        done = _kill_when(proc, journal, 3, lock.close)
    finally:
        lock.close()
    assert done <= 6 + 4 < 18, "the tournament finished before it could be killed"
    r = _cli(*args, "--json")
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)
    assert obj["complete"] and obj["games"] == 18 and obj["played_now"] == 18 - done
    keys = Counter(json.loads(line)["key"] for line in journal.read_text().splitlines()[1:])
    assert len(keys) == 18 and set(keys.values()) == {1}


@pytest.mark.slow
@needs_arena
def test_agent_files_from_a_folder_and_their_forfeits(tmp_path: Path) -> None:
    d = tmp_path / "class"
    d.mkdir()
    (d / "first_move.py").write_text("def choose_move(state, time_left_s):\n    return game.actions(state)[0]\n")
    (d / "boom.py").write_text("def choose_move(state, time_left_s):\n    raise RuntimeError('boom')\n")
    (d / "typo.py").write_text("def choose_move(state, time_left_s)\n    return 1\n")
    r = _cli("tournament", "tictactoe", "--agents-dir", str(d), "--agents", "alphabeta:depth=2",
             "--games-per-pair", "2", "--jobs", "2", "--journal", str(tmp_path / "t.jsonl"), "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    assert "warning: typo.py:" in r.stderr and "forfeit its games" in r.stderr
    obj = json.loads(r.stdout)
    assert obj["agents"] == ["boom.py", "first_move.py", "typo.py", "alphabeta:depth=2"]
    rows = {row["agent"]: row for row in obj["table"]}
    # typo.py cannot even be read: it loses all 6 games, boom.py included; boom.py crashes in its other 4
    assert rows["typo.py"]["forfeits"] == 6 and rows["typo.py"]["points"] == 0
    assert rows["boom.py"]["forfeits"] == 4 and rows["boom.py"]["points"] == 2
    assert rows["first_move.py"]["forfeits"] == 0
    assert {f["reason"] for f in obj["failures"]} == {"crash"}
    assert any("boom" in f["detail"] for f in obj["failures"] if f["agent"] == "boom.py")
    bad = _cli("tournament", "tictactoe", "--agents", f"file:{d / 'typo.py'}", "alphabeta", timeout=60)
    assert bad.returncode == 2 and bad.stderr.startswith("error: ") and "typo.py" in bad.stderr


@pytest.mark.slow
@needs_arena
def test_checkers_games_are_saved_as_pdn_with_their_ballot(tmp_path: Path) -> None:
    from gameplay.rules.checkers.ballots import load_ballots
    from gameplay.rules.checkers.pdn_read import read_games
    r = _cli("tournament", "checkers", "--agents", "beginner", "easy", "--openings", "ballots", "--games-per-pair",
             "2", "--jobs", "2", "--journal", str(tmp_path / "t.jsonl"), "--pdn-dir", str(tmp_path / "pdn"),
             "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    files = sorted((tmp_path / "pdn").glob("*.pdn"))
    assert [f.name for f in files] == ["game-0001.pdn", "game-0002.pdn"]
    label = load_ballots()[0].label()
    for f in files:
        text = f.read_text()
        assert f'[Opening "{label}"]' in text
        assert len(read_games(text)) == 1


def test_ctrl_c_is_ignored_only_while_the_pool_starts_its_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    # Ctrl+C is ignored while a process starts (no traceback from a half-started child), and a Ctrl+C that lands
    # then is lost; it was ignored around every game handed out, and the Ctrl+C test's interrupt fell in one of
    # those blocks and the tournament played all its 2,000 games: only the submissions that start a worker may
    # ignore it
    from contextlib import contextmanager

    from gameplay.tournament import run as run_module
    blocks: list[int] = []

    @contextmanager
    def counted():  # type: ignore[no-untyped-def]
        blocks.append(1)
        yield

    monkeypatch.setattr(run_module, "children_ignore_sigint", counted)
    tasks = [(f"g{i}", FakeTask(f"g{i}", "tictactoe", ("s0", "s100"), seed=i)) for i in range(12)]
    queue = iter(tasks)
    with run_module.LocalEngine(2) as engine:
        results = dict(engine.run(fake_play, lambda: next(queue, None)))
    assert sorted(results) == sorted(k for k, _ in tasks)
    assert not any(isinstance(r, Exception) for r in results.values())
    assert len(blocks) == 2  # one per worker, not one per game (12)
