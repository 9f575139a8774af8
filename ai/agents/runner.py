"""AgentRunner: one background worker thread per pending decision, polled once per frame by the window.

With ``processes=True`` (the window) the thread hands a portable agent's search to the decision worker process
(``ai.agents.worker``) and waits for it, so the search has a core of its own; the contract below is the same.

The worker never touches the window; the window never shares a mutable board with the worker (states are
immutable). Each request carries a tag (the match's identity and ply); a result whose tag is no longer the one
the caller asks for (after undo, new game or quit) is dropped, never played. The worker hands its result, or
its exception, to the window through a :class:`concurrent.futures.Future`.
"""

from __future__ import annotations

import sys
import threading
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any, Hashable

from ai.agents.agent_base import Agent
from ai.kernel.search import SearchInfo, SearchResult

DEFAULT_SWITCH_INTERVAL_S = 0.001
"""GIL switch interval used while the window runs a search beside it (see README, "bench ui")."""


def configure_switch_interval(seconds: float = DEFAULT_SWITCH_INTERVAL_S) -> float:
    """Set CPython's thread switch interval (``sys.setswitchinterval``) and return the previous one.

    A busy pure-Python worker holds the GIL for up to the interval (5 ms by default) at a time, which makes the
    window's frames late; 1 ms keeps frames on time at a small cost to the search (measured by ``bench ui``).
    """
    old = sys.getswitchinterval()
    sys.setswitchinterval(seconds)
    return old


@dataclass
class _Job:
    """One pending decision: its tag, its cancel event, and the worker's result or exception as a
    :class:`concurrent.futures.Future` (set by the worker thread, read by the window)."""

    tag: Hashable
    stop: threading.Event = field(default_factory=threading.Event)
    future: Future[SearchResult] = field(default_factory=Future)
    info: SearchInfo | None = None
    stirred: threading.Event = field(default_factory=threading.Event)
    """Set at the search's first progress report or when it finishes, whichever comes first."""
    started: float = field(default_factory=time.perf_counter)
    thread: threading.Thread | None = None


class AgentRunner:
    """Runs at most one decision at a time on a daemon worker thread.

    Typical use, once per frame::

        if runner.idle() and ai_to_move:
            runner.submit(agent, state, tag=(match_id, ply))
        res = runner.poll(current_tag=(match_id, ply))   # None while thinking, or if stale
    """

    def __init__(self, *, processes: bool = False) -> None:
        self._job: _Job | None = None
        self.dropped = 0
        """How many stale results were dropped (for tests and the status line)."""
        self.processes = processes
        """Run portable agents' searches in the worker process (``ai.agents.worker``): the window does; the default
        keeps every search on the worker thread."""

    # -- requests ----------------------------------------------------------------------------------------------
    def submit(self, agent: Agent, state: Any, tag: Hashable, recorder: Any = None) -> None:
        """Start ``agent.choose(state)`` on a new worker thread; a pending request is cancelled first."""
        self.cancel()
        job = _Job(tag)
        job.future.add_done_callback(lambda _: job.stirred.set())

        def on_info(info: SearchInfo) -> None:
            job.info = info
            job.stirred.set()

        remote = self.processes and getattr(agent, "portable", False)

        def work() -> None:
            job.future.set_running_or_notify_cancel()
            try:
                if remote:
                    from ai.agents.worker import choose_remote
                    res = choose_remote(agent, state, job.stop, on_info, recorder)
                else:
                    res = agent.choose(state, job.stop, on_info, recorder)
            except BaseException as e:  # noqa: BLE001 - handed to the window thread by result()
                job.future.set_exception(e)
            else:
                job.future.set_result(res)

        # a thread of its own (a daemon) rather than a pool's: a search that ignores its cancel event, or an
        # agent file's process being stopped, never holds up the window's quit
        job.thread = threading.Thread(target=work, name=f"agent-{tag}", daemon=True)
        self._job = job
        job.thread.start()

    def cancel(self) -> None:
        """Stop the pending search (if any) and forget it: whatever it returns later is dropped."""
        job = self._job
        if job is not None:
            job.stop.set()
            if not job.future.done():
                self.dropped += 1
            self._job = None

    # -- state ---------------------------------------------------------------------------------------------------
    def idle(self) -> bool:
        """True when no request is pending."""
        return self._job is None

    def done(self) -> bool:
        """True when the pending request has finished (result or error waiting)."""
        return self._job is not None and self._job.future.done()

    @property
    def tag(self) -> Hashable | None:
        """Tag of the pending request, or ``None``."""
        return None if self._job is None else self._job.tag

    @property
    def worker(self) -> threading.Thread | None:
        """Worker thread of the pending request, or ``None`` (a test keeps it to join it after ``cancel``)."""
        return None if self._job is None else self._job.thread

    @property
    def info(self) -> SearchInfo | None:
        """Last completed-iteration report of the pending search."""
        return None if self._job is None else self._job.info

    @property
    def thinking_s(self) -> float:
        """Seconds the pending search has been running."""
        return 0.0 if self._job is None else time.perf_counter() - self._job.started

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the pending search has finished, keeping its result (or error) for :meth:`poll` or
        :meth:`result`; its last progress report stays in :attr:`info` until then (reports are handed over before
        the result is set).

        Args:
            timeout: the most seconds to wait (``None``: as long as it takes).

        Returns:
            True when the pending search has finished; False when nothing is pending or ``timeout`` passed first.
        """
        job = self._job
        if job is None:
            return False
        try:
            job.future.exception(timeout)  # waits without raising the worker's exception
        except FutureTimeout:
            return False
        return True

    def wait_report(self, timeout: float | None = None) -> bool:
        """Block until the pending search has sent its first progress report (:attr:`info` is then set) or has
        finished.

        Args:
            timeout: the most seconds to wait (``None``: as long as it takes).

        Returns:
            True when a report has arrived; False when nothing is pending, ``timeout`` passed first, or the
            search finished without a report.
        """
        job = self._job
        if job is None:
            return False
        job.stirred.wait(timeout)
        return job.info is not None

    def result(self, timeout: float | None = None) -> SearchResult:
        """Wait for and return the pending result, clearing the request.

        Raises:
            RuntimeError: nothing is pending, or the timeout passed.
            BaseException: whatever the worker raised, re-raised here.
        """
        job = self._job
        if job is None:
            raise RuntimeError("no search is pending")
        try:
            job.future.exception(timeout)  # waits; a worker's own TimeoutError is not taken for ours
        except FutureTimeout:
            raise RuntimeError("the search has not finished") from None
        self._job = None
        return job.future.result()  # re-raises the worker's exception

    def poll(self, current_tag: Hashable) -> SearchResult | None:
        """Non-blocking: the finished result if its tag is ``current_tag``; ``None`` while thinking.

        A finished result with another tag is stale and is dropped (counted in ``dropped``).

        Raises:
            BaseException: the worker's exception, for a current request.
        """
        job = self._job
        if job is None or not job.future.done():
            return None
        if job.tag != current_tag:
            self._job = None
            self.dropped += 1
            return None
        return self.result()

    def shutdown(self, join_s: float = 0.5) -> None:
        """Cancel and briefly wait for the worker (used on quit)."""
        job = self._job
        self.cancel()
        if job is not None and job.thread is not None:
            job.thread.join(join_s)
