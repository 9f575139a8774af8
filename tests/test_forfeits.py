"""One forfeit vocabulary that tells the truth (issue 23): ``memory`` only when an agent went over (or near) its
memory cap or the kernel's out-of-memory killer acted, otherwise ``crash`` with the signal; every forfeit listed
(or counted: "and N more"); an agent that cannot start disqualified once; an agent's printed output capped in the
journal and on the terminal. Limits are generous and nothing here asserts a duration: the load timeout is counted
by the starts an agent file records, not timed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from tournament_fakes import FakeTask, fake_play

import ai.agents.agent_process as agent_process
from ai.agents.agent_watch import OUTPUT_LINES, OutputCap, death_fault
from ai.agents.arena import ArenaTask, play_isolated
from gameplay.cli.tournament import forfeit_lines, run_json
from gameplay.tournament.model import Entrant, TournamentSpec
from gameplay.tournament.run import run_tournament

unix_only = pytest.mark.skipif(sys.platform == "win32", reason="signals, RLIMIT_AS and the output pipe are Unix's")


def agent(folder: Path, name: str, body: str, top: str = "") -> str:
    """An agent file whose ``choose_move`` runs ``body`` (after ``top`` at the file's top level); its spec."""
    path = folder / f"{name}.py"
    path.write_text(f"{top}\ndef choose_move(state, time_left_s):\n    {body}\n", encoding="utf-8")
    return f"file:{path}"


# ----- memory or crash ------------------------------------------------------------------------------------------
@unix_only
def test_a_tiny_agent_killed_by_sigkill_is_a_crash_with_the_signal(tmp_path: Path) -> None:
    bad = agent(tmp_path, "killed", "import os, signal\n    os.kill(os.getpid(), signal.SIGKILL)")
    res = play_isolated(ArenaTask("k", "tictactoe", ("random", bad), time_limit_s=20.0))
    assert (res.termination, res.forfeit_by, res.winner) == ("crash", 1, 0), res
    assert "killed by signal SIGKILL" in res.reason and "of its 1024 MiB cap" in res.reason, res.reason


@unix_only
def test_an_agent_over_its_memory_cap_is_memory(tmp_path: Path) -> None:
    hog = agent(tmp_path, "hog", "x = []\n    while True:\n        x.append(bytearray(10 ** 7))")
    res = play_isolated(ArenaTask("h", "tictactoe", (hog, "random"), time_limit_s=20.0, memory_limit_mb=300))
    assert (res.termination, res.forfeit_by) == ("memory", 0) and "MemoryError" in res.reason, res


@unix_only
def test_an_agent_killed_near_its_memory_cap_is_a_crash(tmp_path: Path) -> None:
    # an agent that grows to 85% of its cap, then dies of SIGKILL: no evidence it ran out (the cap makes an
    # allocation fail, it never kills), so a crash with the signal and the peak
    body = ("import os, signal\n    keep = []\n    while int(open('/proc/self/statm').read().split()[1]) * "
            "os.sysconf('SC_PAGE_SIZE') < 0.85 * 800 * 2 ** 20:\n        keep.append(b'x' * 10 ** 7)\n"
            "    os.kill(os.getpid(), signal.SIGKILL)")
    near = agent(tmp_path, "near", body)
    res = play_isolated(ArenaTask("n", "tictactoe", (near, "random"), time_limit_s=60.0, memory_limit_mb=800))
    assert (res.termination, res.forfeit_by) == ("crash", 0), res
    assert "killed by signal SIGKILL; its peak memory" in res.reason and "of its 800 MiB cap" in res.reason


@unix_only
def test_a_kill_by_the_out_of_memory_killer_is_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kills = iter(range(5, 100))  # the cgroup's oom_kill counter, rising between the start and the death
    monkeypatch.setattr(agent_process, "oom_kills", lambda: next(kills))
    bad = agent(tmp_path, "oom", "import os, signal\n    os.kill(os.getpid(), signal.SIGKILL)")
    res = play_isolated(ArenaTask("o", "tictactoe", ("random", bad), time_limit_s=20.0))
    assert res.termination == "memory" and "out-of-memory killer" in res.reason, res


@pytest.mark.parametrize("args, want", [
    ((-9, 20 * 2 ** 20, 1024, 0, 0), ("crash", "killed by signal SIGKILL; its peak memory 20 MiB of its 1024 MiB")),
    ((-9, 919 * 2 ** 20, 1024, 0, 0), ("crash", "killed by signal SIGKILL; its peak memory 919 MiB of its 1024")),
    ((-9, 1025 * 2 ** 20, 1024, 0, 0), ("memory", "SIGKILL over its memory cap; its peak memory 1025 MiB")),
    ((-9, 20 * 2 ** 20, 1024, 3, 4), ("memory", "out-of-memory killer")),
    ((-9, None, None, None, None), ("crash", "killed by signal SIGKILL")),
    ((-11, None, 1024, None, None), ("crash", "killed by signal SIGSEGV")),
    ((3, None, 1024, None, None), ("crash", "exited with code 3")),
])
def test_death_fault_names_the_signal_and_says_memory_only_with_evidence(args: tuple, want: tuple[str, str]
                                                                         ) -> None:
    termination, detail = death_fault(*args)
    assert termination == want[0] and want[1] in detail, detail


# ----- every forfeit listed ----------------------------------------------------------------------------------------
def test_24_forfeits_are_all_counted_and_those_not_listed_are_said(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    spec = TournamentSpec("tictactoe", (Entrant("s0", "s0"), Entrant("forfeit", "forfeit")), games_per_pair=24)
    run = run_tournament(spec, tmp_path / "t.jsonl", play=fake_play, task_factory=FakeTask, progress=False)
    lines = forfeit_lines(run)
    assert "forfeits: 24" in lines
    listed = [ln for ln in lines if ln.startswith("  forfeit against s0: time")]
    assert len(listed) == 20 and lines[-1] == "  and 4 more (tournament --json and the report list every one)"
    assert len(forfeit_lines(run, shown=30)) == 2 + 24  # a blank line, the count, then every one
    obj = run_json(run, None)
    assert len(obj["failures"]) == 24 and {f["reason"] for f in obj["failures"]} == {"time"}


# ----- disqualification -------------------------------------------------------------------------------------------
def test_an_endless_loop_at_the_top_level_costs_its_load_timeout_once(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(agent_process, "LOAD_TIMEOUT_S", 3.0)  # played in this process (one job): it applies
    starts = tmp_path / "starts.txt"
    loop = agent(tmp_path, "loop", "return game.actions(state)[0]",
                 top=f"open({str(starts)!r}, 'a').write('started\\n')\nwhile True:\n    pass\n")
    spec = TournamentSpec("tictactoe", (Entrant("loop.py", loop), Entrant("r1", "random:seed=1"),
                                        Entrant("r2", "random:seed=2")), games_per_pair=2)
    journal = tmp_path / "t.jsonl"
    run = run_tournament(spec, journal, progress=False)
    assert run.complete and starts.read_text().count("started") == 1  # one start, one timeout
    mine = [r for r in run.records if "loop.py" in (r["first"], r["second"])]
    assert len(mine) == 4 and all(r["forfeit_by"] == "loop.py" and r["reason"] == "time" for r in mine)
    assert [r["disqualified"] for r in sorted(mine, key=lambda r: r["number"])] == [False, True, True, True]
    assert sum(r["load_failed"] == ["loop.py"] for r in mine) == 1
    assert all("did not start within 3 s" in r["detail"] for r in mine)
    assert run.disqualified["loop.py"]["reason"] == "time"
    rows = {r.agent: r for r in run.table.rows}
    assert rows["loop.py"].forfeits == 4 and rows["loop.py"].points == 0
    # a resumed run knows: the journal's last disqualified game played again starts nothing
    lines = journal.read_text().splitlines(keepends=True)
    last = max((json.loads(ln) for ln in lines[1:]), key=lambda r: r["number"] if r["disqualified"] else 0)
    journal.write_text("".join(ln for ln in lines if json.loads(ln).get("key") != last["key"]))
    again = run_tournament(spec, journal, progress=False)
    assert again.played_now == 1 and starts.read_text().count("started") == 1


def test_a_file_that_cannot_be_read_is_disqualified_before_the_first_game(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from gameplay.cli import run
    d = tmp_path / "class"
    d.mkdir()
    (d / "typo.py").write_text("def choose_move(state, time_left_s)\n    return 1\n", encoding="utf-8")
    (d / "first.py").write_text("def choose_move(state, time_left_s):\n    return game.actions(state)[0]\n",
                                encoding="utf-8")
    code = run(["tournament", "tictactoe", "--agents-dir", str(d), "--agents", "random", "--games-per-pair", "2",
                "--journal", str(tmp_path / "t.jsonl"), "--quiet"])
    out, err = capsys.readouterr()
    assert code == 0 and "warning: typo.py:" in err and "disqualified" in err
    assert "disqualified: typo.py: it could not start before the first game (crash: cannot build the agent:" in out
    assert "; 4 forfeits" in out and "forfeits: 4 (4 of them by the disqualified agents above)" in out
    records = [json.loads(ln) for ln in (tmp_path / "t.jsonl").read_text().splitlines()[1:]]
    typo = [r for r in records if "typo.py" in (r["first"], r["second"])]
    assert len(typo) == 4 and all(r["disqualified"] and r["forfeit_by"] == "typo.py" for r in typo)


# ----- output capped --------------------------------------------------------------------------------------------
def test_output_cap_keeps_the_first_lines_and_counts_the_rest() -> None:
    cap = OutputCap()
    for k in range(280_306):
        cap.feed(f"line {k} {'x' * 110}\n".encode())
    text = cap.text().splitlines()
    assert len(text) == OUTPUT_LINES + 1 and text[0].startswith("line 0 ") and text[199].startswith("line 199 ")
    assert text[-1].startswith("... 280,106 more lines not shown (")
    small = OutputCap(size=10)
    small.feed(b"0123456789abc\nz\n")
    assert small.text() == "0123456789\n... 1 more line not shown (6 bytes)\n"


def test_long_lines_cannot_get_round_the_terminal_cap_over_a_match() -> None:
    # one 10 MB line a move, kept as 64 KiB a game by the process's cap: over 10 games the terminal still shows
    # at most OUTPUT_BYTES characters of the agent (it showed 64 KiB a game, 656 KB in all)
    from ai.agents.agent_watch import OUTPUT_BYTES
    from gameplay.tournament.faults import OutputShown
    written: list[str] = []
    shown = OutputShown(written.append, kept_in=None)
    for game in range(1, 11):
        cap = OutputCap()
        cap.feed(b"x" * 10_000_000 + b"\n")
        shown.game(game, {"p1 (bigline.py)": cap.text(), "p2 (random)": ""})
    shown.summary()
    text = "\n".join(written)
    assert OUTPUT_BYTES <= len(text) < OUTPUT_BYTES + 1000, len(text)  # the first game's 64 KiB, then nothing
    assert written[0] == ("[p1 (bigline.py), game 1]\n" + "x" * OUTPUT_BYTES
                          + "\n[p1 (bigline.py): its further output is not shown here]")
    assert len(written) == 2 and written[-1] == "p1 (bigline.py): 9 more lines of output not shown"
    cap = OutputCap()
    cap.feed(b"x" * 10_000_000 + b"\n")  # one line cut: its rest is said as such, not as "0 more lines"
    assert cap.text().endswith("\n... the rest of a line not shown (9.9 MB)\n")


@pytest.mark.slow
@unix_only
def test_a_chatty_agent_is_capped_in_the_journal_and_on_the_terminal(tmp_path: Path,
                                                                    capfd: pytest.CaptureFixture[str]) -> None:
    # the agent: 280,306 lines (34 MB) in one game, here all on its first move
    chatty = agent(tmp_path, "chatty", "global said\n    if not said:\n        said = True\n"
                                       "        for k in range(280306):\n            print('chatter', k, 'x' * 110)\n"
                                       "    return game.actions(state)[0]", top="said = False\n")
    spec = TournamentSpec("tictactoe", (Entrant("chatty.py", chatty), Entrant("r", "random:seed=1")),
                          games_per_pair=1, time_limit_s=120.0)
    run = run_tournament(spec, tmp_path / "t.jsonl", progress=False)
    out, err = capfd.readouterr()
    rec = run.records[0]
    assert rec["forfeit_by"] is None  # printing is allowed; only its volume is capped
    kept = rec["output"]["chatty.py"].splitlines()
    assert kept[0] == "chatter 0 " + "x" * 110 and len(kept) == OUTPUT_LINES + 1
    assert kept[-1] == "... 280,106 more lines not shown (35.2 MB)"
    assert "chatter" not in out  # standard output stays clean
    assert err.count("chatter") == OUTPUT_LINES and len(err.splitlines()) < OUTPUT_LINES + 10
    assert "chatty.py: 280,106 more lines of output not shown (the journal keeps each game's first 200 lines)" in err
    assert run.output_hidden == {"chatty.py": 280_106}


@unix_only
def test_a_chatty_agent_in_a_match_is_capped_over_the_match(tmp_path: Path, capfd: pytest.CaptureFixture[str]
                                                            ) -> None:
    from gameplay.cli import run
    chatty = agent(tmp_path, "chatty", "for k in range(300):\n        print('chatter', k)\n"
                                       "    return game.actions(state)[0]")
    assert run(["match", "tictactoe", "--p1", chatty, "--p2", "random", "--games", "2", "--pdn", "none",
                "--quiet", "--json"]) == 0
    out, err = capfd.readouterr()
    obj = json.loads(out)  # standard output holds the JSON only
    moves = sum((g["plies"] + (1 if g["p1_first"] else 0)) // 2 for g in obj["games_list"])
    assert err.count("chatter") == OUTPUT_LINES
    assert f"p1 ({chatty}): {300 * moves - OUTPUT_LINES:,} more lines of output not shown\n" in err
