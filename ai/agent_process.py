"""One agent in a worker process of its own: the boundary that owns time limits, memory limits and failures.

An :class:`AgentProcess` starts a ``spawn`` process (:mod:`multiprocessing`, a :class:`~multiprocessing.Pipe` to
it) that builds one agent from its spec (``file:`` agents are loaded there: :func:`ai.agent_file.load_agent_module`)
and answers one move at a time. The calling process never runs the agent's code. Each move:

* the state is sent; the answer must arrive within the per-move limit plus :data:`GRACE_S`, or the process is
  killed and the agent loses on time (``"time"``);
* an exception in the agent is a ``"crash"`` (the exception's last line, with the agent file's line number); a
  process that dies is a ``"crash"`` too, with its exit code or signal (``killed by signal SIGKILL``) and its peak
  memory (:func:`ai.agent_watch.death_fault`), unless its peak memory passed its cap or the kernel's
  out-of-memory killer is known to have acted (its cgroup's counter rose), which is ``"memory"``;
* a ``MemoryError`` is ``"memory"``: the process's address space is capped at ``memory_limit_mb`` with
  ``resource.setrlimit(RLIMIT_AS)`` (Linux and other Unixes; where :mod:`resource` is missing, as on Windows,
  there is no memory limit);
* the answer must be one of ``game.actions(state)`` or its text in the game's notation: a string that names no
  legal move (or a value of the moves' type that is not legal) is an ``"illegal move"``, anything else a
  ``"malformed answer"``. Legality is checked again in the calling process (``game.parse_move``).

Each failure raises :class:`AgentFault` (``termination`` one of :data:`FAULTS`, ``reason`` the detail) and ends the
process. What the agent prints (standard output and error, on Unix) goes into a pipe that the calling process reads
(:attr:`AgentProcess.output`): the first :data:`ai.agent_watch.OUTPUT_LINES` lines or
:data:`ai.agent_watch.OUTPUT_BYTES` bytes are kept, and shown on standard error as they come unless ``echo`` is
off, the rest only counted (``... 280,106 more lines not shown``); standard output stays clean for ``--json``.
The worker exits by itself when the calling process dies. This is isolation against mistakes, not a security sandbox
(README, "What the isolation does not protect against").
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import random
import signal
import sys
import threading
import time
import traceback
import weakref
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from typing import Any, Callable, NoReturn

from ai.agent_watch import OutputCap, OutputPipe, children_ignore_sigint, death_fault, oom_kills, reap
from ai.agents import AgentError
from gameplay.rules.base import GameError, quoted

GRACE_S = 0.25
"""Seconds allowed beyond the per-move limit for the answer to arrive (process scheduling, pickling)."""
DEFAULT_MEMORY_MB = 1024
"""Default cap of an agent process's address space in MiB (``RLIMIT_AS``)."""
LOAD_TIMEOUT_S = 30.0
"""Seconds a worker may take to start and build its agent (interpreter, imports, the file's module-level code)."""
POLL_S = 0.02
"""How often a waiting caller checks its stop event (seconds)."""
CHECK_EVERY = 16
"""Nodes between two deadline checks of the search of an evaluation file (the project's searches: 1,024), so a
slow evaluation still stops within the grace."""
FAULTS = ("time", "crash", "illegal move", "malformed answer", "memory")
"""The ways an agent can lose a game by its own fault (``AgentFault.termination``)."""


class AgentFault(AgentError):
    """An agent failed a decision (or could not start); it loses the game.

    Attributes:
        termination: one of :data:`FAULTS`.
        reason: the detail (the exception's text, the illegal move, the seconds used, the exit code).
    """

    def __init__(self, termination: str, reason: str) -> None:
        self.termination = termination
        self.reason = reason
        super().__init__(f"{termination}: {reason}")


class AgentCancelled(GameError):
    """The caller's stop event was set while the agent was thinking (its process was stopped)."""


@dataclass(frozen=True)
class Answer:
    """One decision received from the worker."""

    move: Any
    """The move (a value of ``game.actions(state)``), checked legal in the calling process."""
    text: str
    """The move in the game's notation."""
    elapsed_s: float
    """Seconds from sending the state to receiving the answer."""
    pv: tuple[Any, ...] = ()
    """The principal variation of an evaluation file's search (moves), when it reported one."""
    stats: dict[str, Any] = field(default_factory=dict)
    """``value``, ``depth``, ``nodes``, ``stop_reason`` of a search (evaluation files and the project's agents)."""


_live: weakref.WeakSet[AgentProcess] = weakref.WeakSet()


def close_all() -> None:
    """Stop every agent process of this process (at exit; ``match`` on Ctrl+C). A caller waiting for one of them
    gets :class:`AgentCancelled`."""
    for proc in list(_live):
        proc.close()


atexit.register(close_all)


class AgentProcess:
    """One agent in its own worker process, for one game (or one window match).

    Args:
        game: the game's name (``tictactoe``, ``checkers``, ``pig``).
        spec: the agent spec (CLI.md, "Agents"; ``file:PATH.py`` included).
        seed: seeds Python's ``random`` in the worker and an agent's generator when its spec gives no seed.
        limit_s: the per-move limit in seconds (``None``: no limit; the project's agents then stop by their own
            settings). The project's searching agents get ``time = min(time, limit_s)``.
        memory_limit_mb: the address-space cap in MiB (``None``: none).
        echo: show the agent's kept output on standard error as it comes (and, at the end, how much more there
            was); off, it is only collected in :attr:`output`.
    """

    def __init__(self, game: str, spec: Any, *, seed: int | None = None, limit_s: float | None = None,
                 memory_limit_mb: int | None = DEFAULT_MEMORY_MB, echo: bool = True) -> None:
        self.game_name = game
        self.spec = spec
        """The agent spec, or its parsed settings (``ai.agents.AgentSettings``: built as they are, overrides
        included, where a spec would be parsed again in the worker)."""
        self.echo = echo
        self.output = OutputCap()
        """What the agent printed: the first lines kept, the rest counted."""
        self._out: OutputPipe | None = None
        self._oom_before: int | None = None
        self.seed = seed
        self.limit_s = limit_s
        self.memory_limit_mb = memory_limit_mb
        self.description = ""
        """What the worker built (set when it is ready)."""
        self._proc: Any = None
        self._conn: Any = None
        self._ready = False
        self._game: Any = None

    @property
    def alive(self) -> bool:
        """True while the worker process runs."""
        return self._proc is not None and self._proc.is_alive()

    @property
    def pid(self) -> int | None:
        """The worker's process id (``None`` before :meth:`start`)."""
        return None if self._proc is None else self._proc.pid

    def start(self) -> None:
        """Start the worker (returns at once; :meth:`wait_ready` waits until its agent is built)."""
        from ai.profiles import game_for
        self._game = game_for(self.game_name)
        ctx = multiprocessing.get_context("spawn")
        parent, child = ctx.Pipe()
        out_r, out_w = ctx.Pipe(duplex=False) if os.name == "posix" else (None, None)
        proc = ctx.Process(target=worker_main, name=f"agent-{self.game_name}",
                           args=(child, self.game_name, self.spec, self.seed, self.limit_s, self.memory_limit_mb,
                                 out_w),
                           daemon=True)
        self._oom_before = oom_kills()
        me = multiprocessing.current_process()
        config: dict[str, Any] = getattr(me, "_config", {})
        daemonic = bool(config.get("daemon"))
        if daemonic:  # a pool's worker (multiprocessing.Pool, Dask) may still start its agents' processes
            config["daemon"] = False
        try:
            with children_ignore_sigint():  # no traceback of the child's while it is still importing
                proc.start()
        finally:
            if daemonic:
                config["daemon"] = True
        child.close()
        if out_w is not None:
            out_w.close()
        self._proc, self._conn = proc, parent
        self._out = None if out_r is None else OutputPipe(out_r, self.output, sys.stderr if self.echo else None)
        _live.add(self)

    def wait_ready(self, timeout: float | None = None, stop: threading.Event | None = None) -> str:
        """Wait until the worker has built its agent, at most ``timeout`` seconds (default
        :data:`LOAD_TIMEOUT_S`); returns its description.

        Raises:
            AgentFault: it failed to load (``crash``, ``memory``) or took longer than ``timeout`` seconds
                (``time``); the process is stopped.
            AgentCancelled: ``stop`` was set.
        """
        if self._ready:
            return self.description
        if timeout is None:
            timeout = LOAD_TIMEOUT_S
        msg = self._receive(timeout, stop, f"the agent did not start within {timeout:g} s")
        if msg[0] != "ready":
            self._fail(msg)
        self._ready = True
        self.description = str(msg[1])
        return self.description

    def ask(self, state: Any, stop: threading.Event | None = None) -> Answer:
        """The agent's move at ``state`` (not over, not a chance node).

        Raises:
            AgentFault: a failure (see the module docstring); the process is stopped.
            AgentCancelled: ``stop`` was set (the process is stopped).
        """
        self.wait_ready(stop=stop)
        t0 = time.perf_counter()
        conn = self._conn
        if conn is None:
            raise AgentCancelled("the agent's process was stopped")
        try:
            conn.send(("move", state, self.limit_s))
        except (OSError, ValueError):
            self._died()
        budget = None if self.limit_s is None else self.limit_s + GRACE_S
        msg = self._receive(budget, stop, f"no move within {budget or 0:.2f} s (the limit {self.limit_s or 0:g} s "
                                          f"+ {GRACE_S:g} s grace)")
        elapsed = time.perf_counter() - t0
        if msg[0] != "move":
            self._fail(msg)
        _, text, pv_texts, stats = msg
        game = self._game
        try:
            move = game.parse_move(state, str(text))
        except GameError:
            self.close()
            raise AgentFault("illegal move", f"{quoted(str(text), 40)} is not a legal move here") from None
        pv: list[Any] = []
        s = state
        try:
            for t in pv_texts:
                if game.is_chance(s):
                    break
                m = game.parse_move(s, str(t))
                pv.append(m)
                s = game.result(s, m)
        except (GameError, TypeError):
            pass
        return Answer(move, game.format_move(state, move), elapsed, tuple(pv), dict(stats))

    def close(self, wait_s: float = 0.5) -> None:
        """Stop the worker: asked to quit, killed if it has not within ``wait_s`` seconds (0: killed at once)."""
        _live.discard(self)
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        self._ready = False
        if proc is None:
            return
        if proc.is_alive():
            try:
                conn.send(("quit",))
            except (OSError, ValueError):
                pass
            if wait_s > 0:
                proc.join(wait_s)
            if proc.is_alive():
                proc.kill()
            proc.join(5.0)
        try:
            conn.close()
        except OSError:
            pass
        if self._out is not None:
            self._out.read(final=True)
            self._out = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass

    # -- internals -------------------------------------------------------------------------------------------------
    def _receive(self, budget: float | None, stop: threading.Event | None, late: str) -> tuple[Any, ...]:
        """The next message, or a fault: no answer within ``budget`` seconds (the reason ``late``), or the process
        ended."""
        conn, proc = self._conn, self._proc
        if conn is None or proc is None:
            raise AgentCancelled("the agent's process was stopped")
        t0 = time.perf_counter()
        while True:
            left = None if budget is None else budget - (time.perf_counter() - t0)
            if left is not None and left <= 0:
                self.close(0)
                raise AgentFault("time", late)
            step = left if stop is None else (POLL_S if left is None else min(left, POLL_S))
            try:
                out = self._out if self._out is not None and not self._out.closed else None
                ready = wait([conn, proc.sentinel] + ([out.conn] if out is not None else []), step)
                if out is not None and out.conn in ready:
                    out.read()
                    ready = [r for r in ready if r is not out.conn]
                    if not ready:
                        continue
                dead = proc.sentinel in ready and not conn.poll()  # a message sent just before exiting is read first
            except (OSError, ValueError):  # closed by another thread (the window left the match)
                raise AgentCancelled("the agent's process was stopped") from None
            if conn in ready or (proc.sentinel in ready and not dead):
                try:
                    msg = conn.recv()
                except (EOFError, OSError):
                    self._died()
                if isinstance(msg, tuple) and msg:
                    return msg
                self.close()
                raise AgentFault("malformed answer", f"the agent's process sent {quoted(repr(msg), 60)}")
            if dead:
                self._died()
            if stop is not None and stop.is_set():
                self.close(0)
                raise AgentCancelled("the decision was cancelled")

    def _died(self) -> NoReturn:
        proc = self._proc
        code = peak = None
        if proc is not None:
            code, peak = reap(proc)
        self.close()
        termination, detail = death_fault(code, peak, self.memory_limit_mb, self._oom_before, oom_kills())
        raise AgentFault(termination, detail)

    def _fail(self, msg: tuple[Any, ...]) -> NoReturn:
        self.close()
        if msg[0] == "fault" and len(msg) == 3 and msg[1] in FAULTS:
            raise AgentFault(str(msg[1]), str(msg[2]))
        raise AgentFault("malformed answer", f"the agent's process sent {quoted(repr(msg), 60)}")


# ----- the worker process ------------------------------------------------------------------------------------------
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


def _watch_parent() -> None:
    """Exit when the calling process is gone (the agent may be stuck in a loop that never reads the pipe)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def _last_line(e: BaseException, path: str | None) -> str:
    """``ValueError: boom (bot.py, line 12)``: the exception and the agent file's deepest line in its traceback."""
    if isinstance(e, GameError):  # the arcade's own message (a file's syntax error with its line and column)
        return str(e)
    text = traceback.format_exception_only(type(e), e)[-1].strip()
    if path:
        frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == path]
        if frames:
            text += f" ({os.path.basename(path)}, line {frames[-1].lineno})"
    return text


def _build(game_name: str, spec: Any, seed: int | None, limit_s: float | None
           ) -> tuple[Callable[[Any, float | None], tuple[Any, dict[str, Any], tuple[Any, ...]]], str, str | None]:
    """``(decide, description, file path or None)``; ``decide(state, time_left) -> (answer, stats, pv)``."""
    from ai.agent_file import (
        DEFAULT_FILE_TIME_S,
        FileAgentSettings,
        checked_evaluation,
        features_function,
        load_agent_module,
        with_search_time,
    )
    from ai.agents import AgentSettings, build_agent, parse_settings
    from ai.profiles import profile_for
    profile = profile_for(game_name)
    game = profile.game
    settings = spec if isinstance(spec, AgentSettings) else parse_settings(spec, profile)
    if isinstance(settings, FileAgentSettings):
        if settings.seed is not None:  # the file's own seed (SETTINGS or spec) wins over the match's
            random.seed(settings.seed)
        module = load_agent_module(settings.path, game, features_function(profile))
        if settings.kind == "agent":
            choose_move = getattr(module, "choose_move", None)
            if not callable(choose_move):
                raise AgentError("choose_move is not a function")

            def decide_move(state: Any, time_left: float | None) -> tuple[Any, dict[str, Any], tuple[Any, ...]]:
                return choose_move(state, DEFAULT_FILE_TIME_S if time_left is None else time_left), {}, ()
            return decide_move, f"{os.path.basename(settings.path)}: choose_move", settings.path
        evaluate = getattr(module, "evaluate", None)
        if not callable(evaluate):
            raise AgentError("evaluate is not a function")
        assert settings.search is not None
        search = _search_settings(settings, settings.search)
        agent = build_agent(profile, with_search_time(search, limit_s))
        agent.evaluate = checked_evaluation(evaluate, game.traits.stochastic)  # type: ignore[attr-defined]
        _frequent_checks(agent)
        path: str | None = settings.path
        description = f"{os.path.basename(settings.path)}: evaluate, searched by {settings.search}"
    else:
        agent = build_agent(profile, with_search_time(settings, limit_s))
        rng = getattr(agent, "rng", None)
        if settings.seed is None and isinstance(rng, random.Random) and seed is not None:
            rng.seed(seed)
        _warm_up(profile, agent)
        path = None
        description = agent.describe()

    def decide(state: Any, time_left: float | None) -> tuple[Any, dict[str, Any], tuple[Any, ...]]:
        res = agent.choose(state)
        stats = {"value": float(res.value), "depth": int(res.depth), "nodes": int(res.nodes),
                 "stop_reason": str(res.stop_reason)}
        return res.move, stats, tuple(res.pv)
    return decide, description, path


def _search_settings(settings: Any, algorithm: str) -> Any:
    """The search settings of an evaluation file: its search fields under ``algorithm``."""
    from ai.agents import AgentSettings
    return AgentSettings(name=settings.name, algorithm=algorithm, depth=settings.depth, time=settings.time,
                         ordering=settings.ordering, tt=settings.tt, quiescence=settings.quiescence,
                         prune=settings.prune, seed=settings.seed, lmr=settings.lmr, etc=settings.etc)


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
        from ai.expectimax import Expectimax
        Expectimax.check_every = CHECK_EVERY


def _warm_up(profile: Any, agent: Any) -> None:
    """Load what a first decision would (tables, book, endgame databases) before the clock runs."""
    s = agent.settings
    if getattr(s, "db", False) and profile.endgame_loader is not None:
        profile.endgame_loader()
    if getattr(s, "book", False) and profile.book_loader is not None:
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


def _decide(decide: Callable[..., Any], game: Any, state: Any, time_left: float | None,
            path: str | None) -> tuple[Any, ...]:
    """One decision as the message to send (exceptions classified; memory freed before answering)."""
    out_of_memory = False
    try:
        answer, stats, pv = decide(state, time_left)
        text = _answer_text(game, state, answer)
        pv_texts: list[str] = []
        s = state
        for m in pv:
            if game.is_chance(s):
                break
            pv_texts.append(str(game.format_move(s, m)))
            s = game.successor(s, m)
        return ("move", text, tuple(pv_texts), stats)
    except _Fault as f:
        return ("fault", f.termination, f.reason)
    except MemoryError:
        out_of_memory = True  # the traceback (and what the agent allocated) is freed when this block ends
    except BaseException as e:  # noqa: BLE001 - every failure of the agent is reported, SystemExit included
        return ("fault", "crash", _last_line(e, path))
    assert out_of_memory
    return ("fault", "memory", "MemoryError: the agent went over its memory limit")


def worker_main(conn: Any, game_name: str, spec: Any, seed: int | None, limit_s: float | None,
                memory_limit_mb: int | None, out: Any = None) -> None:
    """The worker process: build the agent, then answer ``("move", state, time_left)`` until ``("quit",)``.

    ``spec`` is an agent spec or its parsed settings; ``out`` the write end of the output pipe (standard output and
    error go there), or ``None`` (both go to the inherited standard error).

    Messages sent: ``("ready", description)``, ``("move", text, pv texts, stats)``,
    ``("fault", termination, reason)``.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the caller's to handle (it stops this process)
    _watch_parent()
    _limit_memory(memory_limit_mb)
    try:
        if out is not None:  # the agent's prints go to the caller, who keeps the first of them
            os.dup2(out.fileno(), 1)
            os.dup2(out.fileno(), 2)
            out.close()
        else:
            os.dup2(2, 1)  # the agent's prints go to standard error, never into the caller's --json output
    except OSError:
        pass
    sys.stdout = sys.stderr
    random.seed(seed)
    path: str | None = None
    out_of_memory = False
    try:
        decide, description, path = _build(game_name, spec, seed, limit_s)
    except MemoryError:
        out_of_memory = True
    except BaseException as e:  # noqa: BLE001 - a file that fails to load loses, it never stops the caller
        from ai.agent_file import inspect_agent_file, is_file_spec, split_file_spec
        if path is None and isinstance(spec, str) and is_file_spec(spec):
            try:
                path = inspect_agent_file(split_file_spec(spec)[0]).path
            except GameError:
                pass
        conn.send(("fault", "crash", "loading failed: " + _last_line(e, path)))
        return
    if out_of_memory:
        conn.send(("fault", "memory", "MemoryError while loading: the agent went over its memory limit"))
        return
    from ai.profiles import game_for
    game = game_for(game_name)
    conn.send(("ready", description))
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if not isinstance(msg, tuple) or not msg or msg[0] != "move":
            return
        conn.send(_decide(decide, game, msg[1], msg[2], path))
