"""One agent in a worker process of its own: the boundary that owns time limits, memory limits and failures.

An :class:`AgentProcess` starts a ``spawn`` process (:mod:`multiprocessing`, a :class:`~multiprocessing.Pipe` to
it) that builds one agent from its spec (``file:`` agents are loaded there:
:func:`ai.agents.agent_file.load_agent_module`) and answers one move at a time. The calling process never runs the
agent's code. Each move:

* the state is sent; the answer must come within the per-move limit plus :data:`GRACE_S` on the agent's own clock
  (:mod:`ai.agents.move_clock`: the wall time of a wall-clocked agent, the worker's CPU time of a CPU-clocked one,
  with a generous wall-clock cap so a stuck agent still loses), or the process is killed and the agent loses on
  time (``"time"``). With each position the referee sends the latency it learned for this process
  (``ai.kernel.timeman.LatencyEstimate``: the time from the search's stop to the answer's arrival), and the
  project's searches stop early by that much and a fixed share of the budget (``ai.kernel.timeman.stop_time``);
* an exception in the agent is a ``"crash"`` (the exception's last line, with the agent file's line number); a
  process that dies is a ``"crash"`` too, with its exit code or signal (``killed by signal SIGKILL``) and its peak
  memory (:func:`ai.agents.agent_watch.death_fault`), unless its peak memory passed its cap or the kernel's
  out-of-memory killer is known to have acted (its cgroup's counter rose), which is ``"memory"``;
* a ``MemoryError`` is ``"memory"``: the process's address space is capped at ``memory_limit_mb`` with
  ``resource.setrlimit(RLIMIT_AS)`` (Linux and other Unixes; where :mod:`resource` is missing, as on Windows,
  there is no memory limit);
* the answer must be one of ``game.actions(state)`` or its text in the game's notation: a string that names no
  legal move (or a value of the moves' type that is not legal) is an ``"illegal move"``, anything else a
  ``"malformed answer"``. Legality is checked again in the calling process (``game.parse_move``).

Each failure raises :class:`AgentFault` (``termination`` one of :data:`FAULTS`, ``reason`` the detail) and ends the
process. What the agent prints (standard output and error, on Unix) goes into a pipe that the calling process reads
(:attr:`AgentProcess.output`): the first :data:`ai.agents.agent_watch.OUTPUT_LINES` lines or
:data:`ai.agents.agent_watch.OUTPUT_BYTES` bytes are kept, and shown on standard error as they come unless ``echo`` is
off, the rest only counted (``... 280,106 more lines not shown``); standard output stays clean for ``--json``.
The worker exits by itself when the calling process dies. This is isolation against mistakes, not a security sandbox
(README, "What the isolation does not protect against").
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import sys
import threading
import time
import weakref
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any, Callable, NoReturn

from ai.agents.agent_base import Agent, AgentError, AgentFactory, AgentSettings, GameProfile
from ai.agents.agent_child import worker_main
from ai.agents.agent_file import FileAgentSettings, move_limit_s
from ai.agents.agent_watch import OutputCap, OutputPipe, children_ignore_sigint, death_fault, oom_kills, reap
from ai.agents.move_clock import GRACE_S as GRACE_S
from ai.agents.move_clock import CpuReader, MoveTimer, TimeControl, process_cpu_s
from ai.kernel.core import StopReason
from ai.kernel.search import SearchInfo, SearchResult
from ai.kernel.timeman import Clock, LatencyEstimate, latency_sample
from gameplay.rules.base import GameError, quoted

DEFAULT_MEMORY_MB = 1024
"""Default cap of an agent process's address space in MiB (``RLIMIT_AS``)."""
LOAD_TIMEOUT_S = 30.0
"""Seconds a worker may take to start and build its agent (interpreter, imports, the file's module-level code)."""
POLL_S = 0.02
"""How often a waiting caller checks its stop event (seconds)."""
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
    """``value``, ``depth``, ``nodes``, ``stop_reason`` of a search (evaluation files and the project's agents), its
    ``clock``, ``clock_s`` and ``stop_s`` (``ai.kernel.deepen.clock_json``), and ``cpu_s``, the worker's own report."""
    cpu_s: float | None = None
    """CPU seconds the worker process used for the move (the larger of the referee's reading and the worker's own
    report), or ``None`` when neither could be read."""
    judged_by: str = Clock.WALL.value
    """The clock the referee judged the move on: ``wall`` or ``cpu`` (the agent's own, ``ai.agents.move_clock``)."""


_live: weakref.WeakSet[WorkerProcess] = weakref.WeakSet()


def close_all() -> None:
    """Stop every agent process of this process (at exit; ``match`` on Ctrl+C). A caller waiting for one of them
    gets :class:`AgentCancelled`."""
    for proc in list(_live):
        proc.close()


atexit.register(close_all)


class WorkerProcess:
    """A worker process of its own running code we do not trust (an agent, a student's exercise): started with
    ``spawn``, its memory capped, its output collected, every answer awaited within a budget; a failure raises
    :class:`AgentFault` and stops the process. :class:`AgentProcess` plays an agent in one;
    :class:`ai.grader.exercise.ExerciseProcess` runs a student's search on the graded cases.

    Args:
        memory_limit_mb: the address-space cap in MiB (``None``: none), applied by the child
            (:func:`ai.agents.agent_child.prepare_child`).
        echo: show the kept output on standard error as it comes; off, it is only collected in :attr:`output`.
    """

    role = "agent"
    """What the worker runs, as its messages name it (``the agent did not start within 30 s``)."""

    def __init__(self, *, memory_limit_mb: int | None = DEFAULT_MEMORY_MB, echo: bool = True,
                 wall: Callable[[], float] = time.perf_counter) -> None:
        self.echo = echo
        self._wall = wall
        """The referee's wall clock (seconds; a test passes a fake one)."""
        self.output = OutputCap()
        """What the worker printed: the first lines kept, the rest counted."""
        self._out: OutputPipe | None = None
        self._oom_before: int | None = None
        self.memory_limit_mb = memory_limit_mb
        self.description = ""
        """What the worker built (set when it is ready)."""
        self._proc: Any = None
        self._conn: Any = None
        self._ready = False

    @property
    def alive(self) -> bool:
        """True while the worker process runs."""
        return self._proc is not None and self._proc.is_alive()

    @property
    def pid(self) -> int | None:
        """The worker's process id (``None`` before it starts)."""
        return None if self._proc is None else self._proc.pid

    def _spawn(self, target: Callable[..., None], args: tuple[Any, ...], name: str,
               kwargs: dict[str, Any] | None = None) -> None:
        """Start ``target(conn, *args, out=out)`` in a ``spawn`` process (``conn`` its end of the pipe, ``out`` the
        write end of the output pipe or ``None``); returns at once."""
        ctx = multiprocessing.get_context("spawn")
        parent, child = ctx.Pipe()
        out_r, out_w = ctx.Pipe(duplex=False) if os.name == "posix" else (None, None)
        proc = ctx.Process(target=target, name=name, args=(child, *args), kwargs={**(kwargs or {}), "out": out_w},
                           daemon=True)
        self._oom_before = oom_kills()
        me = multiprocessing.current_process()
        config: dict[str, Any] = getattr(me, "_config", {})
        daemonic = bool(config.get("daemon"))
        if daemonic:  # a pool's worker (multiprocessing.Pool, Dask) may still start its own workers
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

    def request(self, msg: tuple[Any, ...], budget: float | None, late: str,
                stop: threading.Event | None = None) -> tuple[Any, ...]:
        """Send ``msg`` to the ready worker and return its answer (a tuple), waiting at most ``budget`` seconds.

        Raises:
            AgentFault: the answer is ``("fault", termination, reason)``, none came within ``budget`` (``time``,
                the reason ``late``), the process died (``crash``, ``memory``) or sent something else than a
                tuple (``malformed answer``); the process is stopped.
            AgentCancelled: ``stop`` was set, or the process was stopped.
        """
        self.wait_ready(stop=stop)
        conn = self._conn
        if conn is None:
            raise AgentCancelled("the worker's process was stopped")
        try:
            conn.send(msg)
        except (OSError, ValueError):
            self._died()
        answer = self._receive(budget, stop, late)
        if answer[0] == "fault":
            self._fail(answer)
        return answer

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
        msg = self._receive(timeout, stop, f"the {self.role} did not start within {timeout:g} s")
        if msg[0] != "ready":
            self._fail(msg)
        self._ready = True
        self.description = str(msg[1])
        return self.description

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
    def _receive(self, budget: float | None, stop: threading.Event | None, late: str,
                 judge: Callable[[], tuple[str | None, float]] | None = None) -> tuple[Any, ...]:
        """The next message, or a fault: no answer within ``budget`` seconds (the reason ``late``), or, with
        ``judge`` (``MoveTimer.check``: the reason the agent lost on time or ``None``, and the seconds to wait
        before asking again), when it gives a reason; or the process ended."""
        conn, proc = self._conn, self._proc
        if conn is None or proc is None:
            raise AgentCancelled("the agent's process was stopped")
        t0 = self._wall()
        while True:
            if judge is not None:
                why, left_s = judge()
                if why is not None:
                    self.close(0)
                    raise AgentFault("time", why)
                left: float | None = max(left_s, 0.001)
            else:
                left = None if budget is None else budget - (self._wall() - t0)
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


class AgentProcess(WorkerProcess):
    """One agent in its own worker process, for one game (or one window match).

    Args:
        game: the game's name (``tictactoe``, ``checkers``, ``pig``).
        spec: the agent spec (CLI.md, "Agents"; ``file:PATH.py`` included).
        factory: how the worker parses the spec and builds the agent (:data:`ai.agents.agents.FACTORY`; passed in, as
            this module sits below :mod:`ai.agents.agents`).
        seed: seeds Python's ``random`` in the worker and an agent's generator when its spec gives no seed.
        limit_s: the per-move limit in seconds (``None``: no limit; the project's agents then stop by their own
            settings). The project's searching agents get ``time = min(time, limit_s)``.
        clock: the clock of the agent's budget, the one the referee judges it by (``ai.agents.move_clock``).
        memory_limit_mb: the address-space cap in MiB (``None``: none).
        echo: show the agent's kept output on standard error as it comes (and, at the end, how much more there
            was); off, it is only collected in :attr:`output`.
        wall, cpu: the referee's wall clock and its reader of a process's CPU time (a test passes fakes).
        margin: send the learned latency with each position, so the project's searches keep a margin
            (``ai.kernel.timeman.stop_time``); off (for measurements: ``tools/referee_times.py``), they use the whole
            limit, as outside a referee.
    """

    def __init__(self, game: str, spec: Any, factory: AgentFactory, *, seed: int | None = None,
                 limit_s: float | None = None, clock: Clock = Clock.WALL,
                 memory_limit_mb: int | None = DEFAULT_MEMORY_MB, echo: bool = True,
                 wall: Callable[[], float] = time.perf_counter, cpu: CpuReader = process_cpu_s,
                 margin: bool = True) -> None:
        super().__init__(memory_limit_mb=memory_limit_mb, echo=echo, wall=wall)
        self._cpu = cpu
        self.margin = margin
        self.time_control = None if limit_s is None else TimeControl(clock, limit_s)
        """How the referee judges each move's time (``None``: no limit)."""
        self.latency = LatencyEstimate()
        """The latency learned from this process's answers, sent with each position (``ai.kernel.timeman``)."""
        self.game_name = game
        self.spec = spec
        self.factory = factory
        """The agent spec, or its parsed settings (``ai.agents.agents.AgentSettings``: built as they are, overrides
        included, where a spec would be parsed again in the worker)."""
        self.seed = seed
        self.limit_s = limit_s
        self._game: Any = None

    def start(self) -> None:
        """Start the worker (returns at once; :meth:`wait_ready` waits until its agent is built)."""
        from ai.agents.profiles import game_for
        self._game = game_for(self.game_name)
        from gameplay.rules.registry import portable_name
        self._spawn(worker_main, (portable_name(self.game_name), self.spec, self.seed, self.limit_s,
                                  self.memory_limit_mb), f"agent-{self.game_name}", {"factory": self.factory})

    def ask(self, state: Any, stop: threading.Event | None = None) -> Answer:
        """The agent's move at ``state`` (not over, not a chance node).

        Raises:
            AgentFault: a failure (see the module docstring); the process is stopped.
            AgentCancelled: ``stop`` was set (the process is stopped).
        """
        self.wait_ready(stop=stop)
        conn, pid = self._conn, self.pid
        if conn is None or pid is None:
            raise AgentCancelled("the agent's process was stopped")
        control = self.time_control
        timer = None if control is None else MoveTimer(control, pid, self._wall, self._cpu)
        t0 = self._wall() if timer is None else 0.0
        try:
            conn.send(("move", state, self.limit_s,
                       None if control is None or not self.margin else self.latency.value))
        except (OSError, ValueError):
            self._died()
        msg = self._receive(None, stop, "", None if timer is None else timer.check)
        elapsed = self._wall() - t0 if timer is None else timer.wall_s()
        if msg[0] != "move":
            self._fail(msg)
        _, text, pv_texts, stats = msg
        cpu = self._judge(control, timer, elapsed, stats)
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
        return Answer(move, game.format_move(state, move), elapsed, tuple(pv), dict(stats), cpu,
                      (Clock.WALL if control is None else control.clock).value)

    def _judge(self, control: TimeControl | None, timer: MoveTimer | None, elapsed: float,
               stats: Any) -> float | None:
        """The move's CPU seconds (the larger of the referee's reading and the worker's report); the verdict on an
        answer that came (a late one loses: :class:`AgentFault` ``time``); the latency learned from it."""
        reported = stats.get("cpu_s") if isinstance(stats, dict) else None
        read = None if timer is None else timer.cpu_s()
        known = [float(c) for c in (read, reported) if isinstance(c, (int, float))]
        cpu = max(known) if known else None
        if control is None:
            return cpu
        why = control.verdict(elapsed, cpu if control.clock == Clock.CPU else None)
        if why is not None:
            self.close(0)
            raise AgentFault("time", why)
        judged = elapsed if control.clock == Clock.WALL else cpu
        spent, stop = stats.get("clock_s"), stats.get("stop_s")
        if (judged is not None and stats.get("clock") == control.clock.value and isinstance(spent, (int, float))
                and isinstance(stop, (int, float))):
            self.latency.update(latency_sample(judged, float(spent), float(stop)))
        return cpu

class FileAgent(Agent):
    """An agent file played from a worker process of its own (:class:`ai.agents.agent_process.AgentProcess`), started at
    the first decision and kept for the next ones; a failure (time, crash, illegal or malformed move, memory)
    raises :class:`ai.agents.agent_process.AgentFault` and ends the process (the next decision starts a new one).

    Args:
        factory: :data:`ai.agents.agents.FACTORY` (passed in: this module sits below :mod:`ai.agents.agents`).

    Attributes:
        limit_s: the per-move limit in seconds (:func:`move_limit_s`).
    """

    def __init__(self, profile: GameProfile, settings: AgentSettings, factory: AgentFactory) -> None:
        if not isinstance(settings, FileAgentSettings):
            raise AgentError("a file agent needs the settings of an agent file "
                             "(ai.agents.agent_file.parse_file_settings)")
        super().__init__(profile, settings)
        self.file_settings = settings
        self.limit_s = move_limit_s(settings)
        self.factory = factory
        """How its worker process builds the search around an evaluation file (:data:`ai.agents.agents.FACTORY`)."""
        self._process: Any = None
        self._lock = threading.Lock()

    def choose(self, state: Any, stop_event: threading.Event | None = None,
               on_info: Callable[[SearchInfo], None] | None = None, recorder: Any = None) -> SearchResult:
        """The file's move at ``state``, from its worker process (blocks the calling thread).

        Raises:
            GameError: the position is over or is a chance node.
            ai.agents.agent_process.AgentFault: the agent failed (its ``termination`` and ``reason`` say how).
            ai.agents.agent_process.AgentCancelled: ``stop_event`` was set (the process is stopped).
        """
        if self.game.is_chance(state) or not self.game.actions(state):
            raise GameError("there is no move to choose: the position is over or the dice decide")
        with self._lock:
            if self._process is None or not self._process.alive:
                self.close()
                # the settings as resolved here (a budget that replaced the file's own depth included), never
                # the spec parsed again in the worker, which would read the file's SETTINGS back over them
                proc = AgentProcess(self.game.name, self.settings, self.factory, seed=self.settings.seed,
                                    limit_s=self.limit_s, clock=self.settings.clock)
                self._process = proc
                proc.start()
            try:
                self._process.wait_ready(stop=stop_event)
                answer = self._process.ask(state, stop=stop_event)
            except (AgentFault, AgentCancelled):
                self.close()
                raise
        st = answer.stats
        pv = tuple(answer.pv) or (answer.move,)
        return SearchResult(answer.move, float(st.get("value", 0.0)), None, None, int(st.get("depth", 0)),
                            int(st.get("nodes", 0)), pv, answer.elapsed_s,
                            StopReason.read(st.get("stop_reason", StopReason.FILE)),
                            {"file": self.file_settings.path, "kind": self.file_settings.kind})

    def close(self) -> None:
        """Stop the worker process (if any); the next decision starts a new one."""
        proc, self._process = self._process, None
        if proc is not None:
            proc.close()

    def describe(self) -> str:
        """``my_eval.py: an evaluation (alpha-beta, depth 3, 1 s/move)`` or ``bot.py: an agent, choose_move (1
        s/move)``."""
        s = self.file_settings
        if s.kind == "evaluation":
            bits = ["expectimax" if s.searched_by == "expectimax" else "alpha-beta"]
            if s.depth is not None:
                bits.append(f"depth {s.depth}")
            what = "an evaluation"
        else:
            bits, what = [], "an agent, choose_move"
        if self.limit_s is not None:
            bits.append(f"{self.limit_s:g} s/move")
        return f"{Path(s.path).name}: {what} ({', '.join(bits)})"
