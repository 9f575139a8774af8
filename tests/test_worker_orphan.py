"""The decision worker process exits when the process that started it dies (no orphan left running)."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import sys, threading
from ai.agents import worker
worker.prewarm()
pool = worker._executor()
pid = next(iter(pool._processes))
print(pid, flush=True)
threading.Event().wait()  # until the test kills it
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX process signals")
def test_the_worker_exits_when_its_parent_is_killed() -> None:
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    worker_pid = int(proc.stdout.readline())
    ended = _ending(worker_pid)  # opened while the worker surely lives
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(60)
    if ended(60):  # it checks every 0.5 s; 60 s is a cap only a worker that stays reaches
        return
    os.kill(worker_pid, signal.SIGKILL)
    raise AssertionError("the worker outlived its parent by 60 s")


def _ending(pid: int) -> Callable[[float], bool]:
    """``ended(timeout)``: wait up to ``timeout`` seconds for process ``pid`` (not a child of ours) to end; True if
    it did. Linux: a pidfd, readable once the process has ended; elsewhere a poll of ``kill(pid, 0)``."""
    try:
        fd = os.pidfd_open(pid)  # type: ignore[attr-defined,unused-ignore]
    except (AttributeError, OSError):
        fd = None

    def ended(timeout: float) -> bool:
        if fd is not None:
            try:
                return bool(select.select([fd], [], [], timeout)[0])
            finally:
                os.close(fd)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return True
            time.sleep(0.1)
        return False

    return ended
