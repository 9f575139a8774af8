"""The decision worker: a separate process that runs the window's AI searches, so the window's frames and the
search never share one interpreter lock.

A search in a thread beside the window gives every frame's Python work to the window and the rest to the search;
on a machine with two cores or more, a process of its own gives the search a whole core, so the window's AI
searches as deep as the command line's (``bench ui``: ``window_depths`` against ``cli_depths_same_positions``).

Only agents that can be rebuilt from their settings go to the worker (``Agent.portable``: alpha-beta, minimax,
expectimax, Pig's optimal policy); any other agent (a test's stand-in, a wrapper) runs on the calling thread as
before. The worker is one ``concurrent.futures.ProcessPoolExecutor`` with one process (``spawn``: no pygame in
it), started on first use and kept for the program's life. The calling thread keeps the runner's contract: it
forwards cancellation through a shared event, progress reports through a queue, and hands back the result and
the recorded tree (copied into the caller's recorder object).
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import queue
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable

from ai.kernel.core import SearchInfo, SearchResult

_lock = threading.Lock()
"""Held by the thread whose decision runs in the worker (one at a time; a cancelled one ends within ~10 ms)."""
_pool: ProcessPoolExecutor | None = None
_cancel: Any = None
_infos: Any = None

_END = None
"""Put on the reports' queue when a decision ends (its result or error follows on the pool's own channel)."""
END_WAIT_S = 30.0
"""Seconds the caller waits for the end mark of a decision whose result has arrived (it is already on its way:
only a worker that died after answering can make it miss)."""

# -- in the worker process ---------------------------------------------------------------------------------------
_w_cancel: Any = None
_w_infos: Any = None


def _init(cancel: Any, infos: Any, parent: int | None = None) -> None:
    global _w_cancel, _w_infos
    _w_cancel, _w_infos = cancel, infos
    if parent is not None:
        threading.Thread(target=_watch_parent, args=(parent,), name="parent-watch", daemon=True).start()


def _watch_parent(parent: int, period_s: float = 0.5) -> None:
    """Exit when the window's process is gone (killed, crashed): a pool worker waits for work forever otherwise
    and is left running with no parent."""
    import os
    import time
    while os.getppid() == parent:
        time.sleep(period_s)
    from ai.agents.agent_watch import end_now
    end_now(0)


class _Stop:
    """The cancel test a search calls (``is_set``), backed by the shared event."""

    def is_set(self) -> bool:
        return bool(_w_cancel.is_set())


_agents: dict[tuple[Any, ...], Any] = {}
"""The worker's agents by (caller's agent token, game, settings): one per caller agent, so a seeded agent's
random sequence and a policy's loaded table last across its decisions, as in the caller."""


def _decide(token: int, game: str, record: Any, settings: Any, state: Any, recorder: Any
            ) -> tuple[SearchResult, Any]:
    try:
        from ai.agents.agents import build_agent
        from ai.agents.profiles import profile_for
        from gameplay.rules.registry import adopt
        adopt(record)  # a game the window registered (not built in) is known here too
        key = (token, game, settings)
        agent = _agents.get(key)
        if agent is None:
            if len(_agents) >= 64:
                _agents.clear()
            agent = _agents[key] = build_agent(profile_for(game), settings)

        def on_info(info: SearchInfo) -> None:
            _w_infos.put(info)

        res = agent.choose(state, _Stop(), on_info, recorder)  # type: ignore[arg-type]
        return res, recorder
    finally:
        # after the decision's last report: the reports travel on their own queue, which may reach the caller
        # after the result does; the caller reads up to this mark before it hands the result on
        _w_infos.put(_END)


def _ping() -> bool:
    return True


# -- in the caller ------------------------------------------------------------------------------------------------
def _executor() -> ProcessPoolExecutor:
    global _pool, _cancel, _infos
    if _pool is None:
        ctx = multiprocessing.get_context("spawn")
        _cancel, _infos = ctx.Event(), ctx.Queue()
        _pool = ProcessPoolExecutor(max_workers=1, mp_context=ctx, initializer=_init,
                                    initargs=(_cancel, _infos, os.getpid()))
    return _pool


def prewarm() -> None:
    """Start the worker process now (its interpreter and imports take a few tenths of a second); a pool whose
    worker died (killed, out of memory) is replaced by a fresh one."""
    global _pool
    with _lock:
        try:
            _executor().submit(_ping)
        except BrokenProcessPool:
            _pool = None
            _executor().submit(_ping)


def shutdown() -> None:
    """Stop the worker process (called at exit)."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


atexit.register(shutdown)


def choose_remote(agent: Any, state: Any, stop: threading.Event, on_info: Callable[[SearchInfo], None] | None,
                  recorder: Any) -> SearchResult:
    """``agent.choose(state, stop, on_info, recorder)`` run in the worker process (blocks the calling thread).

    Args:
        agent: a portable agent (rebuilt in the worker from ``agent.game.name`` and ``agent.settings``).
        state: the position (immutable, pickled).
        stop: set it to stop the search early (forwarded to the worker within about 20 ms).
        on_info: called on this thread with each completed iteration's report.
        recorder: the decision's recorder, or ``None``; what the worker records is copied into it.

    Raises:
        RuntimeError: the worker process died (the next call starts a new one).
        Exception: whatever the agent raised in the worker.
    """
    global _pool
    with _lock:
        pool = _executor()
        while True:  # reports of an earlier, cancelled decision are not this one's
            try:
                _infos.get_nowait()
            except queue.Empty:
                break
        _cancel.clear()
        try:
            fut: Future[tuple[SearchResult, Any]] = pool.submit(_decide, id(agent), agent.game.name,
                                                                 _record(agent.game.name), agent.settings, state,
                                                                 recorder)
            ended = False  # the decision's end mark read (every report of it handed on)
            while True:
                try:
                    fut.exception(timeout=0.02)  # waits; an agent's own TimeoutError is not taken for this one
                    break
                except TimeoutError:
                    pass
                if stop.is_set():
                    _cancel.set()
                ended = _forward(on_info) or ended
            try:
                res, rec = fut.result()
            except BrokenProcessPool:
                raise
            except BaseException:
                if not ended:
                    _forward(on_info, to_end=True)
                raise
            if not ended:
                _forward(on_info, to_end=True)  # every report before the result, the last one included
        except BrokenProcessPool:
            _pool = None
            raise RuntimeError("the AI's worker process stopped unexpectedly; try the move again") from None
    if recorder is not None and rec is not None:
        recorder.__dict__.update(rec.__dict__)
    return res


def _record(game: str) -> Any:
    """The registry record of ``game`` when it is not built in (the worker adopts it), else ``None``."""
    from gameplay.rules.registry import GAME_NAMES, game_info, game_names
    return game_info(game) if game in game_names() and game not in GAME_NAMES else None


def _forward(on_info: Callable[[SearchInfo], None] | None, to_end: bool = False) -> bool:
    """Hand the reports that have arrived to ``on_info``; ``to_end``: all of the decision's, waiting (up to
    :data:`END_WAIT_S`) for its end mark. Returns True when the end mark was read."""
    while True:
        try:
            info = _infos.get(timeout=END_WAIT_S) if to_end else _infos.get_nowait()
        except queue.Empty:
            return False
        if info is _END:
            return True
        if on_info is not None:
            on_info(info)
