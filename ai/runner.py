"""AgentRunner: one background worker thread per pending decision, polled once per frame by the window.

With ``processes=True`` (the window) the thread hands a portable agent's search to the decision worker process
(``ai.worker``) and waits for it, so the search has a core of its own; the contract below is the same.

The worker never touches the window; the window never shares a mutable board with the worker (states are
immutable). Each request carries a tag (the match's identity and ply); a result whose tag is no longer the one
the caller asks for (after undo, new game or quit) is dropped, never played.
"""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Hashable

from ai.agent_base import Agent
from ai.search import SearchInfo, SearchResult

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
    tag: Hashable
    agent: Agent
    state: Any
    stop: threading.Event = field(default_factory=threading.Event)
    result: SearchResult | None = None
    error: BaseException | None = None
    info: SearchInfo | None = None
    started: float = field(default_factory=time.perf_counter)
    finished: threading.Event = field(default_factory=threading.Event)
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
        """Run portable agents' searches in the worker process (``ai.worker``): the window does; the default
        keeps every search on the worker thread."""

    # -- requests ----------------------------------------------------------------------------------------------
    def submit(self, agent: Agent, state: Any, tag: Hashable, recorder: Any = None) -> None:
        """Start ``agent.choose(state)`` on a new worker thread; a pending request is cancelled first."""
        self.cancel()
        job = _Job(tag, agent, state)

        def on_info(info: SearchInfo) -> None:
            job.info = info

        remote = self.processes and getattr(agent, "portable", False)

        def work() -> None:
            try:
                if remote:
                    from ai.worker import choose_remote
                    job.result = choose_remote(agent, state, job.stop, on_info, recorder)
                else:
                    job.result = agent.choose(state, job.stop, on_info, recorder)
            except BaseException as e:  # noqa: BLE001 - handed to the window thread by result()
                job.error = e
            finally:
                job.finished.set()

        job.thread = threading.Thread(target=work, name=f"agent-{tag}", daemon=True)
        self._job = job
        job.thread.start()

    def cancel(self) -> None:
        """Stop the pending search (if any) and forget it: whatever it returns later is dropped."""
        job = self._job
        if job is not None:
            job.stop.set()
            if not job.finished.is_set():
                self.dropped += 1
            self._job = None

    # -- state ---------------------------------------------------------------------------------------------------
    def idle(self) -> bool:
        """True when no request is pending."""
        return self._job is None

    def done(self) -> bool:
        """True when the pending request has finished (result or error waiting)."""
        return self._job is not None and self._job.finished.is_set()

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

    def result(self, timeout: float | None = None) -> SearchResult:
        """Wait for and return the pending result, clearing the request.

        Raises:
            RuntimeError: nothing is pending, or the timeout passed.
            BaseException: whatever the worker raised, re-raised here.
        """
        job = self._job
        if job is None:
            raise RuntimeError("no search is pending")
        if not job.finished.wait(timeout):
            raise RuntimeError("the search has not finished")
        self._job = None
        if job.error is not None:
            raise job.error
        assert job.result is not None
        return job.result

    def poll(self, current_tag: Hashable) -> SearchResult | None:
        """Non-blocking: the finished result if its tag is ``current_tag``; ``None`` while thinking.

        A finished result with another tag is stale and is dropped (counted in ``dropped``).

        Raises:
            BaseException: the worker's exception, for a current request.
        """
        job = self._job
        if job is None or not job.finished.is_set():
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
