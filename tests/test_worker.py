"""The decision worker process (ai.agents.worker): the window's searches run there with the runner's contract intact."""

from __future__ import annotations

import pytest

from ai.agents.agents import make_agent
from ai.agents.runner import AgentRunner
from ai.teaching.decision_tree import make_recorder
from gameplay.rules.base import GameError


def _wait(runner: AgentRunner, tag: object, limit_s: float = 60.0) -> object:
    assert runner.wait(limit_s), "no result from the worker process"  # a cap only a hang reaches
    res = runner.poll(tag)  # the result, or the worker's exception raised here
    assert res is not None
    return res


@pytest.mark.parametrize("game, spec", [("checkers", "alphabeta:depth=6"), ("tictactoe", "medium"),
                                        ("pig", "expectimax:depth=2")])
def test_the_worker_answers_as_the_thread_does(game: str, spec: str) -> None:
    agent = make_agent(game, spec)
    state = agent.game.initial_state()
    local_rec = make_recorder(agent.game, agent, state)
    local = make_agent(game, spec).choose(state, recorder=local_rec)
    runner = AgentRunner(processes=True)
    rec = make_recorder(agent.game, agent, state)
    runner.submit(agent, state, "t", recorder=rec)
    assert _wait(runner, "t") is not None
    # the same decision, node for node, and the same recorded tree copied back into the caller's recorder
    remote_tree, local_tree = rec.snapshot(), local_rec.snapshot()
    assert rec.iteration_records == local_rec.iteration_records
    assert (remote_tree.depth, remote_tree.visited, len(remote_tree.nodes)) == \
        (local_tree.depth, local_tree.visited, len(local_tree.nodes))
    assert rec.total_nodes == local.nodes


def test_the_worker_result_and_progress() -> None:
    agent = make_agent("checkers", "alphabeta:depth=7")
    state = agent.game.initial_state()
    runner = AgentRunner(processes=True)
    runner.submit(agent, state, "r")
    assert runner.wait(60), "no result from the worker process"
    last = runner.info  # every report reaches the caller before the result is set: this is the last one
    res = runner.poll("r")
    assert res is not None
    local = make_agent("checkers", "alphabeta:depth=7").choose(state)
    assert (res.move, res.value, res.depth, res.nodes) == (local.move, local.value, local.depth, local.nodes)
    assert last is not None and last.depth == res.depth  # the reports crossed the process boundary, the last too


def test_cancel_stops_the_worker_search() -> None:
    agent = make_agent("checkers", "alphabeta:time=600")
    runner = AgentRunner(processes=True)
    runner.submit(agent, agent.game.initial_state(), "c")
    assert runner.wait_report(60)  # the search is under way in the worker process: a report came back
    thread = runner.worker
    assert thread is not None and thread.is_alive()
    runner.cancel()
    thread.join(60)
    assert not thread.is_alive(), "the worker process kept searching after cancel()"
    # the next decision is answered normally
    runner.submit(make_agent("tictactoe", "expert"), make_agent("tictactoe", "expert").game.initial_state(), "n")
    assert _wait(runner, "n") is not None


def test_an_agent_error_in_the_worker_reaches_the_window() -> None:
    agent = make_agent("checkers", "expert")
    over = agent.game.parse_position("B:WK1:B")  # Black has no piece: the game is over
    runner = AgentRunner(processes=True)
    runner.submit(agent, over, "e")
    with pytest.raises(GameError, match="over"):
        _wait(runner, "e")


def test_agents_that_are_not_portable_stay_on_the_thread() -> None:
    from ai.agents.agent_base import Agent

    class Local(Agent):
        def choose(self, state, stop_event=None, on_info=None, recorder=None):  # type: ignore[no-untyped-def]
            import os

            from ai.kernel.core import SearchResult
            return SearchResult(self.game.actions(state)[0], 0.0, None, None, 0, os.getpid(), (), 0.0, "random")

    base = make_agent("tictactoe", "random")
    runner = AgentRunner(processes=True)
    runner.submit(Local(base.profile, base.settings), base.game.initial_state(), "l")
    import os
    assert _wait(runner, "l").nodes == os.getpid()  # type: ignore[attr-defined]
