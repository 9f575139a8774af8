"""The decision worker process exits when the process that started it dies (no orphan left running)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import sys, time
from ai import worker
worker.prewarm()
pool = worker._executor()
pid = next(iter(pool._processes))
print(pid, flush=True)
time.sleep(60)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX process signals")
def test_the_worker_exits_when_its_parent_is_killed() -> None:
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    worker_pid = int(proc.stdout.readline())
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    for _ in range(100):  # it checks every 0.5 s
        try:
            os.kill(worker_pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.kill(worker_pid, signal.SIGKILL)
    raise AssertionError("the worker outlived its parent by 10 s")
