"""AgentRunner: background decisions, stale results dropped, worker exceptions re-raised."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from ai.agents.agent_base import Agent
from ai.agents.agents import make_agent
from ai.agents.runner import AgentRunner
from ai.kernel.search import SearchResult
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.referee import GameRecord
from gameplay.rules.tictactoe import TicTacToe

G = TicTacToe()


class GatedAgent(Agent):
    """Plays the first legal move once ``gate`` is set (lets a test decide when the result arrives)."""

    def __init__(self, gate: threading.Event) -> None:
        base = make_agent("tictactoe", "random")
        super().__init__(base.profile, base.settings)
        self.gate = gate

    def choose(self, state: Any, stop_event: Any = None, on_info: Any = None, recorder: Any = None
               ) -> SearchResult:
        self.gate.wait()  # set by the test (a test that failed first leaves a daemon thread waiting)
        m = G.actions(state)[0]
        return SearchResult(m, 0.0, None, None, 1, 1, (m,), 0.0, "depth")


class BrokenAgent(GatedAgent):
    def choose(self, state: Any, stop_event: Any = None, on_info: Any = None, recorder: Any = None
               ) -> SearchResult:
        raise RuntimeError("evaluation blew up")


def _wait_done(runner: AgentRunner) -> None:
    assert runner.wait(60), "the search did not finish"  # a cap only a hang reaches
    assert runner.done()


def test_result_after_new_game_is_dropped_and_ai_still_moves() -> None:
    gate = threading.Event()
    runner = AgentRunner()
    old = GameRecord(G, G.initial_state())
    runner.submit(GatedAgent(gate), old.state, old.tag)
    assert runner.poll(old.tag) is None  # still thinking
    new = GameRecord(G, G.initial_state())  # "new game" while the search runs
    assert new.tag != old.tag
    gate.set()
    _wait_done(runner)
    assert runner.poll(new.tag) is None  # stale: dropped, nothing played
    assert runner.dropped == 1 and runner.idle()
    assert new.ply == 0 and old.ply == 0
    runner.submit(make_agent("tictactoe", "expert"), new.state, new.tag)
    _wait_done(runner)
    res = runner.poll(new.tag)
    assert res is not None and res.move in G.actions(new.state)
    new.play(res.move)
    assert new.ply == 1


def test_result_after_undo_is_dropped() -> None:
    gate = threading.Event()
    runner = AgentRunner()
    rec = GameRecord(G, G.initial_state())
    rec.play(4)
    runner.submit(GatedAgent(gate), rec.state, rec.tag)
    rec.undo()
    gate.set()
    _wait_done(runner)
    assert runner.poll(rec.tag) is None and runner.dropped == 1


SLOW = "alphabeta:time=600"
"""A checkers search that would run for ten minutes if nothing stopped it."""


def _slow_search_running(runner: AgentRunner) -> threading.Thread:
    runner.submit(make_agent("checkers", SLOW), Checkers().initial_state(), "t")
    worker = runner.worker
    assert worker is not None and worker.is_alive()
    assert runner.wait_report(60)  # the search is under way: at least one iteration done
    return worker


def test_cancel_stops_a_long_search() -> None:
    runner = AgentRunner()
    worker = _slow_search_running(runner)
    assert worker.is_alive() and not runner.done()  # still searching: only the cancel can end it in time
    runner.cancel()
    assert runner.idle() and runner.worker is None and runner.poll("t") is None and runner.dropped == 1
    worker.join(60)
    assert not worker.is_alive(), "the worker kept searching after cancel()"


def test_shutdown_ends_the_worker() -> None:
    runner = AgentRunner()
    worker = _slow_search_running(runner)
    runner.shutdown(join_s=60)
    assert not worker.is_alive() and runner.idle()


def test_worker_exception_is_reraised_on_the_caller() -> None:
    gate = threading.Event()
    gate.set()
    runner = AgentRunner()
    runner.submit(BrokenAgent(gate), G.initial_state(), "t")
    _wait_done(runner)
    with pytest.raises(RuntimeError, match="blew up"):
        runner.poll("t")
    assert runner.idle()


def test_progress_info_while_thinking() -> None:
    runner = AgentRunner()
    runner.submit(make_agent("tictactoe", "alphabeta:tt=off,ordering=off"), G.initial_state(), "t")
    _wait_done(runner)
    assert runner.info is not None and runner.info.depth >= 1
    res = runner.poll("t")
    assert res is not None and res.outcome == "draw"


class TimedOutAgent(GatedAgent):
    def choose(self, state: Any, stop_event: Any = None, on_info: Any = None, recorder: Any = None
               ) -> SearchResult:
        self.gate.wait()
        raise TimeoutError("the agent's own clock ran out")


def test_result_waits_with_a_timeout_and_tells_a_worker_timeout_from_its_own() -> None:
    gate = threading.Event()
    runner = AgentRunner()
    runner.submit(TimedOutAgent(gate), G.initial_state(), "t")
    with pytest.raises(RuntimeError, match="has not finished"):
        runner.result(timeout=0.01)  # still thinking: the request stays pending
    assert not runner.idle() and runner.tag == "t"
    gate.set()
    with pytest.raises(TimeoutError, match="own clock"):  # the worker's exception, not "has not finished"
        runner.result(timeout=60)
    assert runner.idle()
    with pytest.raises(RuntimeError, match="no search is pending"):
        runner.result()


def test_wait_blocks_until_the_search_ends_and_keeps_its_result() -> None:
    gate = threading.Event()
    runner = AgentRunner()
    assert not runner.wait(0) and not runner.wait_report(0)  # nothing pending
    runner.submit(GatedAgent(gate), G.initial_state(), "t")
    assert not runner.wait(0.01) and not runner.wait_report(0.01)  # held by its gate: no report, no end
    gate.set()
    assert runner.wait(60) and runner.done()
    assert not runner.wait_report(0)  # it finished without a progress report
    res = runner.poll("t")  # the result was kept for the caller
    assert res is not None and res.move == 0 and runner.idle()
