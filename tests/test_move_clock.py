"""Each agent judged on its own clock, and the search's margin (issue 48): the referee's verdict per clock
(``ai.agents.move_clock``), the worker process judged with a fake wall clock and a fake CPU reader, the margin's
stop time and the latency it learns (``ai.kernel.timeman``), and the reports' clock column. No sleeps and no
timing assertions: every clock the verdicts read here is a fake one."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ai.agents.agent_process import AgentFault, AgentProcess
from ai.agents.agents import FACTORY, make_agent
from ai.agents.arena import judged_by
from ai.agents.move_clock import POLL_CPU_S, WALL_CAP_MIN_S, MoveTimer, TimeControl, process_cpu_s
from ai.kernel import timeman
from ai.kernel.search import SearchLimits, iterative_deepening
from ai.kernel.timeman import Clock, LatencyEstimate, latency_sample, stop_time
from gameplay.cli import run
from gameplay.cli.match import judged_text
from gameplay.cli.tournament import clock_column, judged_lines
from gameplay.tournament.report import standings_html

CPU, WALL = Clock.CPU, Clock.WALL


# ----- the verdict, a pure function of the two readings ----------------------------------------------------------
def test_a_wall_clocked_agent_is_judged_on_wall_time() -> None:
    c = TimeControl(WALL, 0.5)
    assert c.wall_limit_s == pytest.approx(0.75) and c.cpu_limit_s is None
    assert c.verdict(0.74, None) is None
    assert c.verdict(0.74, 9.0) is None  # its CPU time is not what it is judged by
    why = c.verdict(0.76, 0.01)
    assert why is not None and "no move within 0.75 s (the limit 0.5 s + 0.25 s grace)" in why


def test_a_cpu_clocked_agent_long_on_wall_time_but_short_on_cpu_time_is_not_forfeited() -> None:
    c = TimeControl(CPU, 0.5)
    assert c.cpu_limit_s == pytest.approx(0.75)
    assert c.wall_limit_s == pytest.approx(max(10 * 0.5, WALL_CAP_MIN_S) + 0.25)
    assert c.verdict(4.0, 0.3) is None  # a busy machine: 4 s of wall time for 0.3 s of CPU time
    assert c.verdict(5.2, 0.74) is None


def test_a_cpu_clocked_agent_loses_past_its_cpu_limit_or_the_wall_cap() -> None:
    c = TimeControl(CPU, 0.5)
    hog = c.verdict(0.9, 0.8)
    assert hog is not None and "0.80 s of CPU time" in hog and "on the CPU clock" in hog
    stuck = c.verdict(5.3, 0.01)  # waiting on something that never comes: no CPU time, the cap ends it
    assert stuck is not None and "5.25 s of wall time" in stuck and "wall-clock cap" in stuck
    assert "wall-clock cap" in (c.verdict(5.3, None) or "")  # its CPU time unreadable: the cap still holds
    assert TimeControl(CPU, 2.0).wall_limit_s == pytest.approx(20.25)  # 10 x the limit past the 5 s floor


def test_the_wait_between_checks_and_bad_limits() -> None:
    assert TimeControl(WALL, 0.5).wait_s(0.25) == pytest.approx(0.5)
    assert TimeControl(WALL, 0.5).wait_s(9.0) == 0.0
    assert TimeControl(CPU, 0.5).wait_s(0.0) == POLL_CPU_S  # its CPU time is read between waits
    for limit in (0.0, -1.0, float("nan")):
        with pytest.raises(ValueError, match="per-move limit must be above 0"):
            TimeControl(WALL, limit)
    with pytest.raises(ValueError, match="grace"):
        TimeControl(WALL, 1.0, grace_s=-0.1)
    assert TimeControl(CPU, 0.5).judged() == "CPU time, 0.5 s + 0.25 s grace (wall-clock cap 5.25 s)"
    assert TimeControl(WALL, 0.2).judged() == "wall time, 0.2 s + 0.25 s grace"


class Fake:
    """A fake clock: the values given, one a read, then the last again and again (or ``step`` more each read)."""

    def __init__(self, *values: float, step: float = 0.0) -> None:
        self.values = list(values)
        self.step = step
        self.reads = 0

    def __call__(self, *_: Any) -> float:
        self.reads += 1
        if len(self.values) > 1:
            return self.values.pop(0)
        self.values[0] += self.step
        return self.values[0] - self.step


def test_the_move_timer_reads_both_clocks_from_the_start() -> None:
    t = MoveTimer(TimeControl(CPU, 0.5), 1234, wall=Fake(10.0, 14.0), cpu=Fake(2.0, 2.3))
    assert t.check() == (None, POLL_CPU_S)
    assert t.cpu_s() == pytest.approx(0.3)
    gone = MoveTimer(TimeControl(CPU, 0.5), 1234, wall=Fake(0.0), cpu=lambda pid: None)
    assert gone.cpu_s() is None


def test_process_cpu_s_reads_this_process_or_says_it_cannot() -> None:
    import os
    import sys
    mine = process_cpu_s(os.getpid())
    if sys.platform.startswith("linux"):
        assert mine is not None and mine >= 0
    assert process_cpu_s(2 ** 22 + 12345) is None  # above the largest pid Linux gives


# ----- a worker process judged with fake clocks -------------------------------------------------------------------
def file_agent(folder: Path, body: str) -> str:
    """The spec of a tic-tac-toe agent file whose ``choose_move`` runs ``body`` (the referee is told its clock:
    ``AgentProcess(clock=...)``)."""
    path = folder / "agent.py"
    path.write_text(f"def choose_move(state, time_left_s):\n    {body}\n", encoding="utf-8")
    return f"file:{path}:time=0.5"


@pytest.fixture
def worker() -> Iterator[list[AgentProcess]]:
    """The worker processes a test starts, closed after it."""
    made: list[AgentProcess] = []
    yield made
    for p in made:
        p.close(0)


def start(made: list[AgentProcess], spec: str, clock: Clock, wall: Fake, cpu: Any, limit: float = 0.5,
          game: str = "tictactoe") -> AgentProcess:
    """A ready worker judged with the fake ``wall`` and ``cpu``, whose readings start with the move (the wait for
    the worker to start reads the wall clock too: its readings are kept for after it)."""
    readings = wall.values
    wall.values = [0.0]
    proc = AgentProcess(game, spec, FACTORY, limit_s=limit, clock=clock, echo=False, wall=wall, cpu=cpu)
    made.append(proc)
    proc.start()
    proc.wait_ready()
    wall.values, wall.reads = readings, 0
    return proc


def test_a_cpu_clocked_worker_slow_on_the_wall_but_short_on_cpu_answers(tmp_path: Path,
                                                                        worker: list[AgentProcess]) -> None:
    spec = file_agent(tmp_path, "return game.actions(state)[0]")
    # the referee's wall clock says 4 s passed (a busy machine), its CPU reader 0.1 s of CPU time
    proc = start(worker, spec, CPU, wall=Fake(100.0, 104.0), cpu=Fake(1.0, 1.1))
    game = make_agent("tictactoe", "random").game
    answer = proc.ask(game.initial_state())
    assert answer.judged_by == "cpu" and answer.elapsed_s == pytest.approx(4.0)
    assert answer.cpu_s is not None and answer.cpu_s >= 0.1 - 1e-9  # the larger of the reading and its report


def test_a_stuck_cpu_clocked_worker_loses_at_the_wall_cap(tmp_path: Path, worker: list[AgentProcess]) -> None:
    spec = file_agent(tmp_path, "import threading\n    threading.Event().wait()")
    wall = Fake(0.0, step=1.0)  # a second of wall time at every read, no CPU time at all
    proc = start(worker, spec, CPU, wall=wall, cpu=Fake(3.0))
    game = make_agent("tictactoe", "random").game
    with pytest.raises(AgentFault, match="5.25 s of wall time") as e:
        proc.ask(game.initial_state())
    assert e.value.termination == "time" and not proc.alive
    assert wall.reads <= 10  # judged at the cap (5.25 s), not later


def test_a_cpu_clocked_worker_that_spins_loses_on_cpu_time(tmp_path: Path, worker: list[AgentProcess]) -> None:
    spec = file_agent(tmp_path, "while True:\n        pass")
    proc = start(worker, spec, CPU, wall=Fake(0.0), cpu=Fake(0.0, step=0.3))  # the wall clock stands still
    game = make_agent("tictactoe", "random").game
    with pytest.raises(AgentFault, match="s of CPU time for one move") as e:
        proc.ask(game.initial_state())
    assert e.value.termination == "time"


def test_a_wall_clocked_worker_is_judged_on_the_wall(tmp_path: Path, worker: list[AgentProcess]) -> None:
    spec = file_agent(tmp_path, "return game.actions(state)[0]")
    proc = start(worker, spec, WALL, wall=Fake(0.0, 0.8), cpu=Fake(0.0))  # 0.8 s passed before the first look
    game = make_agent("tictactoe", "random").game
    with pytest.raises(AgentFault, match=r"no move within 0.75 s \(the limit 0.5 s \+ 0.25 s grace\)"):
        proc.ask(game.initial_state())


# ----- the margin ------------------------------------------------------------------------------------------------
def test_the_stop_time_is_the_budget_less_a_share_and_the_latency() -> None:
    assert stop_time(1.0, 0.0) == pytest.approx(1.0 - timeman.MARGIN_SHARE)
    assert stop_time(1.0, 0.1) == pytest.approx(1.0 - timeman.MARGIN_SHARE - 0.1)
    assert stop_time(0.2, 0.5) == pytest.approx(0.2 * (1 - timeman.MARGIN_MAX_SHARE))  # half is always left
    for budget, latency in ((0.0, 0.0), (-1.0, 0.0), (1.0, -0.01), (1.0, float("nan"))):
        with pytest.raises(ValueError):
            stop_time(budget, latency)
    assert SearchLimits(time_budget_s=None, latency_s=0.1).stop_s() is None
    assert SearchLimits(time_budget_s=0.5).stop_s() == 0.5  # no referee: the whole budget
    assert SearchLimits(time_budget_s=0.5, latency_s=0.1).stop_s() == pytest.approx(stop_time(0.5, 0.1))


def test_the_latency_estimate_follows_rfc_6298() -> None:
    est = LatencyEstimate()
    assert est.value == timeman.LATENCY_INITIAL_S and est.samples == 0
    est.update(0.04)  # the first: mean 0.04, deviation 0.02
    assert est.value == pytest.approx(0.04 + 4 * 0.02)
    est.update(0.04)  # deviation 3/4 of 0.02 + 1/4 of 0; mean unchanged
    assert est.value == pytest.approx(0.04 + 4 * 0.015)
    before = est.value
    est.update(0.3)  # a late answer raises the estimate at once
    assert est.value > before + 0.2
    for _ in range(200):
        est.update(0.01)  # a quiet spell brings it back to the samples
    assert est.value == pytest.approx(0.01, abs=1e-3)
    est.update(-0.5)  # quicker than the search's own clock said: counts as 0
    assert est.value >= 0
    with pytest.raises(ValueError):
        est.update(float("inf"))
    assert latency_sample(0.30, 0.25, 0.19) == pytest.approx(0.11)  # past its own limit: the overshoot counts
    assert latency_sample(0.12, 0.10, 0.19) == pytest.approx(0.02)


NODE_SECONDS = 1e-5
"""The fake search clock: every node costs 10 microseconds."""


@pytest.mark.parametrize("latency", [None, 0.0, 0.05])
def test_the_search_stops_at_its_stop_time(latency: float | None, monkeypatch: pytest.MonkeyPatch) -> None:
    agent = make_agent("checkers", "alphabeta:quiescence=on,timeman=off")
    game = agent.game
    searcher = agent.make_searcher()  # type: ignore[attr-defined]
    monkeypatch.setitem(timeman.CLOCKS, "fake", lambda: searcher.stats.nodes * NODE_SECONDS)
    budget = 0.3
    limits = SearchLimits(None, budget, clock="fake", latency_s=latency)  # type: ignore[arg-type]
    state = game.parse_position("W:W17,19,21,22,24,25,26,27,28,30,31:B2,3,5,6,7,8,9,10,11,12,15")
    res = iterative_deepening(game, state, searcher, limits)
    stop = budget if latency is None else stop_time(budget, latency)
    assert res.extra["stop_s"] == pytest.approx(stop)
    assert res.extra["clock_s"] <= stop + searcher.check_every * NODE_SECONDS


def test_the_referee_sends_its_latency_and_learns_from_each_answer(worker: list[AgentProcess]) -> None:
    proc = start(worker, "alphabeta:time=0.5", WALL, wall=Fake(0.0, 0.1), cpu=Fake(0.0), game="checkers")
    game = make_agent("checkers", "random").game
    answer = proc.ask(game.initial_state())
    assert answer.stats["stop_s"] == pytest.approx(stop_time(0.5, timeman.LATENCY_INITIAL_S))
    assert proc.latency.samples == 1  # 0.1 s judged, less the search's own time up to its stop
    first = max(0.0, latency_sample(0.1, answer.stats["clock_s"], answer.stats["stop_s"]))
    assert proc.latency.value == pytest.approx(3 * first)  # the first sample: mean x, deviation x / 2
    plain = AgentProcess("checkers", "alphabeta:time=0.5", FACTORY, limit_s=0.5, echo=False, margin=False)
    worker.append(plain)
    plain.start()
    assert plain.ask(game.initial_state()).stats["stop_s"] == 0.5  # no margin: the whole limit


# ----- the reports ------------------------------------------------------------------------------------------------
def test_the_reports_say_which_clock_judged_whom() -> None:
    judges = {"cpu-agent": judged_by("checkers", "expert:clock=cpu,time=0.5", None),
              "wall-agent": judged_by("checkers", "expert:time=0.5", None),
              "deep": judged_by("checkers", "alphabeta:depth=3", None)}
    assert [clock_column(judges[n]) for n in judges] == ["cpu", "wall", "-"]
    lines = judged_lines(judges)
    assert lines[0] == "time: the referee judges each agent on its own clock"
    assert "  cpu-agent: CPU time, 0.5 s + 0.25 s grace (wall-clock cap 5.25 s)" in lines
    assert "  wall-agent: wall time, 0.5 s + 0.25 s grace" in lines
    assert judged_lines({"a": judges["wall-agent"]}) == ["time: every agent judged on wall time, 0.5 s + 0.25 s "
                                                         "grace"]
    assert judged_by("checkers", "expert", 0.2) == TimeControl(WALL, 0.2)  # --time for every agent, its own clock
    html = standings_html([], judges)
    assert "<th>clock</th>" in html
    text = judged_text({"p1": judges["cpu-agent"], "p2": None})
    assert text == "referee: p1 judged on CPU time, 0.5 s + 0.25 s grace (wall-clock cap 5.25 s); p2 has no time limit"
    assert "no time judged" in judged_text({"p1": None, "p2": None})


def test_the_tournament_table_and_json_have_the_clock_column(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "j.jsonl"
    agents = ["--agents", "alphabeta:clock=cpu,time=0.5", "alphabeta:time=0.5"]
    assert run(["tournament", "tictactoe", *agents, "--games-per-pair", "2", "--journal", str(journal),
                "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert {r["agent"]: r["clock"] for r in obj["standings"]} == {"alphabeta:clock=cpu,time=0.5": "cpu",
                                                                  "alphabeta:time=0.5": "wall"}
    assert obj["judged_by"]["alphabeta:clock=cpu,time=0.5"] == {"clock": "cpu", "limit_s": 0.5, "grace_s": 0.25,
                                                                 "wall_cap_s": 5.25}
    assert obj["failures"] == []
    games = [json.loads(line) for line in journal.read_text().splitlines()]
    games = [g for g in games if "termination" in g]
    assert len(games) == 2 and all(g["judged_by"] == {"alphabeta:clock=cpu,time=0.5": "cpu",
                                                      "alphabeta:time=0.5": "wall"} for g in games)
    assert run(["tournament", "tictactoe", *agents, "--games-per-pair", "2", "--journal", str(journal)]) == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if "points" in line)
    assert "clock" in header.split()
    row = next(line for line in out.splitlines() if re.match(r"\s*\d+\s+alphabeta:clock=cpu,time=0.5\s", line))
    assert row.split()[2] == "cpu"  # the first of the standings' rows with this agent (the crosstable's has none)
    assert "  alphabeta:clock=cpu,time=0.5: CPU time, 0.5 s + 0.25 s grace (wall-clock cap 5.25 s)" in out
