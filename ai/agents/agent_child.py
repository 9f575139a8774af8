"""The worker process of :class:`ai.agents.agent_process.AgentProcess`: builds one agent from its spec with the factory
it is handed (:data:`ai.agents.agents.FACTORY`; an agent file is loaded with
:func:`ai.agents.agent_file.load_agent_module`), then answers one move at a time on its pipe, reporting each failure as
``("fault", termination, reason)``.

Sits below :mod:`ai.agents.agents` (it never imports it: the factory comes with the process's arguments), so the agents,
the file agent and its process form no import cycle.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time
import traceback
from typing import Any, Callable

from ai.agents.agent_base import AgentError, AgentFactory, AgentSettings
from ai.agents.agent_watch import end_with_parent
from gameplay.rules.base import GameError, quoted

CHECK_EVERY = 16
"""Nodes between two deadline checks of the search of an evaluation file (the project's searches: 1,024), so a
slow evaluation still stops within the grace."""


class _Fault(Exception):
    def __init__(self, termination: str, reason: str) -> None:
        super().__init__(reason)
        self.termination = termination
        self.reason = reason


def _limit_memory(memory_limit_mb: int | None) -> None:
    if memory_limit_mb is None:
        return
    try:
        import resource
    except ImportError:  # Windows: no address-space limit
        return
    cap = int(memory_limit_mb) * 1024 * 1024
    try:
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard if hard != resource.RLIM_INFINITY else cap))
    except (ValueError, OSError):
        pass


def last_line(e: BaseException, path: str | None) -> str:
    """``ValueError: boom (bot.py, line 12)``: the exception and the agent file's deepest line in its traceback."""
    if isinstance(e, GameError):  # the arcade's own message (a file's syntax error with its line and column)
        return str(e)
    text = traceback.format_exception_only(type(e), e)[-1].strip()
    if path:
        frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == path]
        if frames:
            text += f" ({os.path.basename(path)}, line {frames[-1].lineno})"
    return text


Decide = Callable[[Any, float | None, float | None], tuple[Any, dict[str, Any], tuple[Any, ...]]]
"""``decide(state, time_left, latency_s) -> (answer, stats, pv)``: ``latency_s`` the referee's learned latency
(``ai.kernel.timeman.LatencyEstimate``), which a project's search keeps a margin for (``Agent.expect_latency``)."""


def _build(game_name: str, spec: Any, seed: int | None, limit_s: float | None, factory: AgentFactory
           ) -> tuple[Decide, str, str | None]:
    """``(decide, description, file path or None)`` (:data:`Decide`)."""
    from ai.agents.agent_file import (
        DEFAULT_FILE_TIME_S,
        FileAgentSettings,
        checked_evaluation,
        features_function,
        load_agent_module,
        with_search_time,
    )
    from ai.agents.profiles import profile_for
    profile = profile_for(game_name)
    game = profile.game
    settings = spec if isinstance(spec, AgentSettings) else factory.parse(spec, profile)
    if isinstance(settings, FileAgentSettings):
        if settings.seed is not None:  # the file's own seed (SETTINGS or spec) wins over the match's
            random.seed(settings.seed)
        module = load_agent_module(settings.path, game, features_function(profile))
        if settings.kind == "agent":
            choose_move = getattr(module, "choose_move", None)
            if not callable(choose_move):
                raise AgentError("choose_move is not a function")

            def decide_move(state: Any, time_left: float | None,
                            latency_s: float | None) -> tuple[Any, dict[str, Any], tuple[Any, ...]]:
                return choose_move(state, DEFAULT_FILE_TIME_S if time_left is None else time_left), {}, ()
            return decide_move, f"{os.path.basename(settings.path)}: choose_move", settings.path
        evaluate = getattr(module, "evaluate", None)
        if not callable(evaluate):
            raise AgentError("evaluate is not a function")
        assert settings.searched_by is not None
        search = _search_settings(settings, settings.searched_by)
        agent = factory.build(profile, with_search_time(search, limit_s))
        agent.evaluate = checked_evaluation(evaluate, game.traits.stochastic)  # type: ignore[attr-defined]
        _frequent_checks(agent)
        path: str | None = settings.path
        description = f"{os.path.basename(settings.path)}: evaluate, searched by {settings.searched_by}"
    else:
        agent = factory.build(profile, with_search_time(settings, limit_s))
        rng = getattr(agent, "rng", None)
        if settings.seed is None and isinstance(rng, random.Random) and seed is not None:
            rng.seed(seed)
        warm_up(profile, agent)
        path = None
        description = agent.describe()

    def decide(state: Any, time_left: float | None,
               latency_s: float | None) -> tuple[Any, dict[str, Any], tuple[Any, ...]]:
        agent.expect_latency(latency_s)
        res = agent.choose(state)
        stats: dict[str, Any] = {"value": float(res.value), "depth": int(res.depth), "nodes": int(res.nodes),
                                 "stop_reason": str(res.stop_reason)}
        for key in ("clock", "clock_s", "stop_s"):  # the search's own time (ai.kernel.deepen.clock_json)
            if isinstance(res.extra.get(key), (str, int, float)):
                stats[key] = res.extra[key]
        return res.move, stats, tuple(res.pv)
    return decide, description, path


def _search_settings(settings: AgentSettings, algorithm: str) -> AgentSettings:
    """The search settings of an evaluation file: its limits, seed and switches under ``algorithm``."""
    return AgentSettings(name=settings.name, algorithm=algorithm, depth=settings.depth,
                         time_budget_s=settings.time_budget_s, seed=settings.seed, search=settings.search)


def _frequent_checks(agent: Any) -> None:
    """A student's evaluation may be slow: the search checks its deadline every CHECK_EVERY nodes, not 1,024."""
    make = getattr(agent, "make_searcher", None)
    if make is not None:
        def make_searcher(*args: Any, **kwargs: Any) -> Any:
            searcher = make(*args, **kwargs)
            searcher.check_every = CHECK_EVERY
            return searcher
        agent.make_searcher = make_searcher
    else:  # Pig's expectimax builds its searcher inside choose: this process holds only this agent
        from ai.kernel.expectimax import Expectimax
        Expectimax.check_every = CHECK_EVERY


def warm_up(profile: Any, agent: Any) -> None:
    """Load what a first decision would (tables, book, endgame databases) before the clock runs."""
    switches = getattr(agent.settings, "search", None)  # a file agent's choose_move has none that load anything
    if getattr(switches, "db", False) and profile.endgame_loader is not None:
        profile.endgame_loader()
    if getattr(switches, "book", False) and profile.book_loader is not None:
        profile.book_loader()
    table = getattr(agent, "table", None)
    if callable(table):
        table()


def _answer_text(game: Any, state: Any, answer: Any) -> str:
    """The answer as the text of a legal move.

    Raises:
        _Fault: an illegal move or a malformed answer.
    """
    legal = list(game.actions(state))
    if isinstance(answer, str):
        try:
            return str(game.format_move(state, game.parse_move(state, answer)))
        except GameError:
            raise _Fault("illegal move", f"{quoted(answer, 40)} is not a legal move here") from None
    try:
        found = answer in legal
    except Exception:  # noqa: BLE001 - an answer whose comparison fails is malformed
        found = False
    if found:
        return str(game.format_move(state, answer))
    if any(type(answer) is type(m) for m in legal):
        try:
            text = str(game.format_move(state, answer))
        except Exception:  # noqa: BLE001
            text = repr(answer)
        raise _Fault("illegal move", f"{quoted(text, 40)} is not a legal move here")
    raise _Fault("malformed answer", f"the agent returned {type(answer).__name__} {quoted(repr(answer), 40)}; "
                                   "expected one of game.actions(state) or a move's text")


def _decide(decide: Decide, game: Any, state: Any, time_left: float | None, path: str | None,
            latency_s: float | None = None) -> tuple[Any, ...]:
    """One decision as the message to send (exceptions classified; memory freed before answering); its stats
    carry ``cpu_s``, the CPU seconds of this process for the decision (:func:`time.process_time`)."""
    out_of_memory = False
    c0 = time.process_time()
    try:
        answer, stats, pv = decide(state, time_left, latency_s)
        text = _answer_text(game, state, answer)
        pv_texts: list[str] = []
        s = state
        for m in pv:
            if game.is_chance(s):
                break
            pv_texts.append(str(game.format_move(s, m)))
            s = game.successor(s, m)
        return ("move", text, tuple(pv_texts), {**stats, "cpu_s": time.process_time() - c0})
    except _Fault as f:
        return ("fault", f.termination, f.reason)
    except MemoryError:
        out_of_memory = True  # the traceback (and what the agent allocated) is freed when this block ends
    except BaseException as e:  # noqa: BLE001 - every failure of the agent is reported, SystemExit included
        return ("fault", "crash", last_line(e, path))
    assert out_of_memory
    return ("fault", "memory", "MemoryError: the agent went over its memory limit")


def prepare_child(memory_limit_mb: int | None, out: Any) -> None:
    """What every worker process of :class:`ai.agents.agent_process.WorkerProcess` does first: Ctrl+C ignored (the
    caller's to handle), exit when the caller is gone, the address space capped at ``memory_limit_mb`` MiB, and
    standard output and error sent into ``out`` (the write end of the output pipe; ``None``: both to the inherited
    standard error, never into the caller's ``--json`` output)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the caller's to handle (it stops this process)
    end_with_parent(1)  # exit when the caller is gone (the agent may be stuck in a loop that never reads the pipe)
    _limit_memory(memory_limit_mb)
    try:
        if out is not None:  # the worker's prints go to the caller, who keeps the first of them
            os.dup2(out.fileno(), 1)
            os.dup2(out.fileno(), 2)
            out.close()
        else:
            os.dup2(2, 1)
    except OSError:
        pass
    sys.stdout = sys.stderr


def worker_main(conn: Any, game_name: str, spec: Any, seed: int | None, limit_s: float | None,
                memory_limit_mb: int | None, out: Any = None, factory: AgentFactory | None = None) -> None:
    """The worker process: build the agent, then answer ``("move", state, time_left[, latency_s])`` until
    ``("quit",)`` (``latency_s``: the referee's learned latency, or ``None``).

    ``spec`` is an agent spec or its parsed settings; ``out`` the write end of the output pipe (standard output and
    error go there), or ``None`` (both go to the inherited standard error); ``factory`` parses the spec and builds
    the agent (:data:`ai.agents.agents.FACTORY`, handed down by :class:`ai.agents.agent_process.AgentProcess`).

    Messages sent: ``("ready", description)``, ``("move", text, pv texts, stats)``,
    ``("fault", termination, reason)``.
    """
    prepare_child(memory_limit_mb, out)
    random.seed(seed)
    path: str | None = None
    out_of_memory = False
    try:
        assert factory is not None, "the worker needs the agent factory (ai.agents.agents.FACTORY)"
        decide, description, path = _build(game_name, spec, seed, limit_s, factory)
    except MemoryError:
        out_of_memory = True
    except BaseException as e:  # noqa: BLE001 - a file that fails to load loses, it never stops the caller
        from ai.agents.agent_file import inspect_agent_file, is_file_spec, split_file_spec
        if path is None and isinstance(spec, str) and is_file_spec(spec):
            try:
                path = inspect_agent_file(split_file_spec(spec)[0]).path
            except GameError:
                pass
        conn.send(("fault", "crash", "loading failed: " + last_line(e, path)))
        return
    if out_of_memory:
        conn.send(("fault", "memory", "MemoryError while loading: the agent went over its memory limit"))
        return
    from ai.agents.profiles import game_for
    game = game_for(game_name)
    conn.send(("ready", description))
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if not isinstance(msg, tuple) or not msg or msg[0] != "move":
            return
        conn.send(_decide(decide, game, msg[1], msg[2], path, msg[3] if len(msg) > 3 else None))
