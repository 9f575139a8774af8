"""What the calling process watches of an agent's worker process: what it prints (kept up to a cap, the rest
counted) and how it ended (its exit code or signal, its peak memory, the kernel's out-of-memory kills).

An agent's process writes its standard output and error into a pipe that the calling process reads
(:class:`OutputCap`): the first :data:`OUTPUT_LINES` lines or :data:`OUTPUT_BYTES` bytes, whichever comes first,
are kept (and shown), the rest only counted, so an agent printing in a loop can neither flood a terminal nor
fill a journal. When the process dies, :func:`reap` collects its exit status with its peak resident memory
(``os.wait4``), and :func:`death_fault` names the fault truthfully: ``"memory"`` only when the process's peak
passed its memory cap or the kernel's out-of-memory killer is known to have acted (its cgroup's ``oom_kill``
counter rose: :func:`oom_kills`), otherwise ``"crash"`` with the signal or the exit code.

Every process the arcade starts (an agent's, a pool's worker, a Dask worker) is started inside
:func:`children_ignore_sigint`, so a Ctrl+C in its first moments (while Python imports) prints no traceback: the
caller handles it and stops them.

Never imports pygame or the window.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any, Iterator, NoReturn

OUTPUT_LINES = 200
"""Lines of an agent's printed output kept per process (the rest are counted, not kept)."""
OUTPUT_BYTES = 64 * 1024
"""Bytes of an agent's printed output kept per process."""


class OutputCap:
    """An agent's printed output: the first lines kept, the rest counted.

    Args:
        lines: lines to keep (:data:`OUTPUT_LINES`).
        size: bytes to keep (:data:`OUTPUT_BYTES`).
    """

    def __init__(self, lines: int = OUTPUT_LINES, size: int = OUTPUT_BYTES) -> None:
        self.max_lines = lines
        self.max_bytes = size
        self._kept = bytearray()
        self._newlines = 0
        self._last = b""
        self.bytes = 0
        """Bytes printed in all."""
        self._full = False

    @staticmethod
    def _count(newlines: int, last: bytes) -> int:
        return newlines + (1 if last and last != b"\n" else 0)

    @property
    def lines(self) -> int:
        """Lines printed in all (a last line without its newline counts)."""
        return self._count(self._newlines, self._last)

    @property
    def kept(self) -> bytes:
        """The output kept so far, as it was printed (a copy; at most ``max_bytes`` bytes)."""
        return bytes(self._kept)

    @property
    def kept_lines(self) -> int:
        """Lines kept (a line cut by the byte cap counts)."""
        return self._count(self._kept.count(b"\n"), bytes(self._kept[-1:]))

    def feed(self, data: bytes) -> bytes:
        """Take a chunk of output; returns the part of it that is kept (to show it as it comes)."""
        if not data:
            return b""
        self.bytes += len(data)
        self._newlines += data.count(b"\n")
        self._last = data[-1:]
        if self._full:
            return b""
        end = 0
        for _ in range(self.max_lines - self._kept.count(b"\n")):
            nl = data.find(b"\n", end)
            if nl < 0:
                end = len(data)
                break
            end = nl + 1
        end = min(end, self.max_bytes - len(self._kept))
        self._full = end < len(data)
        self._kept += data[:end]
        return data[:end]

    @property
    def dropped_lines(self) -> int:
        """Lines printed but not kept."""
        return max(0, self.lines - self.kept_lines)

    @property
    def dropped_bytes(self) -> int:
        """Bytes printed but not kept."""
        return self.bytes - len(self._kept)

    def trailer(self) -> str:
        """``"... 280,106 more lines not shown (33.9 MB)"``, ``"... the rest of a line not shown (9.9 MB)"`` when only
        the last kept line was cut, or ``""`` when nothing was dropped."""
        if not self.dropped_bytes:
            return ""
        size = self.dropped_bytes
        amount = f"{size / 1e6:.1f} MB" if size >= 1e6 else f"{size / 1e3:.1f} kB" if size >= 1e3 else f"{size} bytes"
        lines = self.dropped_lines
        if not lines:
            return f"... the rest of a line not shown ({amount})"
        return f"... {lines:,} more line{'' if lines == 1 else 's'} not shown ({amount})"

    def tail_text(self) -> str:
        """What :meth:`text` adds after the kept output: the :meth:`trailer` on a line of its own, or ``""``."""
        tail = self.trailer()
        if not tail:
            return ""
        return ("" if not self._kept or self._kept.endswith(b"\n") else "\n") + tail + "\n"

    def text(self) -> str:
        """The kept output (UTF-8, undecodable bytes replaced), then the :meth:`trailer` on a line of its own."""
        return self._kept.decode("utf-8", "replace") + self.tail_text()


class OutputPipe:
    """The calling process's end of an agent's output pipe: reads what arrived into an :class:`OutputCap` and, when
    ``echo`` is a stream, writes the kept part there as it comes (and, at the end, how much more there was).

    Args:
        conn: the read end (a ``multiprocessing`` connection, read as raw bytes).
        cap: where the output goes.
        echo: a text stream to show it on (``sys.stderr``), or ``None``.
    """

    def __init__(self, conn: Any, cap: OutputCap, echo: Any = None) -> None:
        self.conn = conn
        self.cap = cap
        self.echo = echo
        self.closed = False

    def read(self, final: bool = False) -> None:
        """Read what is there now, a few chunks (``final``: all of it, the process having ended, then close)."""
        from multiprocessing.connection import wait
        if self.closed:
            return
        try:
            for _ in range(1_000_000 if final else 16):  # a few chunks a call: the caller's own waits go on
                if not wait([self.conn], 0.2 if final else 0):
                    break
                data = os.read(self.conn.fileno(), 65536)
                if not data:
                    final = True
                    break
                shown = self.cap.feed(data)
                if self.echo is not None and shown:
                    self.echo.write(shown.decode("utf-8", "replace"))
                    self.echo.flush()
        except (OSError, ValueError):
            final = True
        if final:
            self.closed = True
            try:
                self.conn.close()
            except OSError:
                pass
            if self.echo is not None and self.cap.tail_text():
                self.echo.write(self.cap.tail_text())


def reap(proc: Any, wait_s: float = 2.0) -> tuple[int | None, int | None]:
    """``(exit code, peak resident memory in bytes)`` of an ended worker (a ``multiprocessing`` process).

    The exit code follows ``multiprocessing`` (``-N``: killed by signal N). The peak memory comes from
    ``os.wait4`` where it exists (Unix) and this call is the one that collects the process; ``None`` otherwise.
    """
    peak = None
    popen = getattr(proc, "_popen", None)
    if hasattr(os, "wait4") and popen is not None and getattr(popen, "returncode", 0) is None:
        import time
        deadline = time.monotonic() + wait_s
        while True:
            try:
                pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            except ChildProcessError:  # collected elsewhere already
                break
            if pid == proc.pid:
                popen.returncode = os.waitstatus_to_exitcode(status)  # multiprocessing reads it from here
                peak = int(usage.ru_maxrss) * (1 if sys.platform == "darwin" else 1024)
                break
            if time.monotonic() > deadline:
                break
            time.sleep(0.01)
    proc.join(wait_s)
    return proc.exitcode, peak


def _cgroup_oom_files() -> list[Path]:
    """The files that count this process's cgroup's out-of-memory kills (cgroup v2 ``memory.events``, v1
    ``memory.oom_control``)."""
    try:
        lines = Path("/proc/self/cgroup").read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    out = []
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        hierarchy, controllers, path = parts
        path = path.rstrip("/")
        if hierarchy == "0" and not controllers:
            out += [Path(f"/sys/fs/cgroup{path}/memory.events"), Path(f"/sys/fs/cgroup/unified{path}/memory.events")]
        elif "memory" in controllers.split(","):
            out.append(Path(f"/sys/fs/cgroup/memory{path}/memory.oom_control"))
    return out


def oom_kills() -> int | None:
    """The out-of-memory kills counted in this process's cgroup (its agents' processes are in it too), or
    ``None`` where no counter can be read (not Linux, no cgroup memory controller)."""
    for path in _cgroup_oom_files():
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            continue
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill" and value.strip().isdigit():
                return int(value)
    return None


def end_now(code: int) -> NoReturn:
    """End this process at once with exit status ``code``: the one place the program calls ``os._exit``.

    For a worker process whose parent is gone (an agent's process, a pool's worker, a tournament's worker). A
    normal exit (``sys.exit``, the end of the main thread) runs the ``atexit`` handlers, and multiprocessing's
    handler joins the feeder threads of queues whose reader, the parent, will never read again: the orphan would
    hang instead of ending. Besides, the watcher threads that call this run beside a main thread that may be
    stuck in an agent's loop, where no exception can reach it. Nothing is flushed: call it only where nothing is
    left to say.
    """
    from os import _exit  # documented as the exit without cleanup handlers (the Python docs' os._exit)
    _exit(code)


def end_with_parent(code: int, name: str = "watch-parent") -> None:
    """Watch this process's multiprocessing parent from a daemon thread called ``name``, and end this process
    (:func:`end_now`, exit status ``code``) the moment the parent is gone (killed, crashed), instead of leaving it
    running with no one to answer. Nothing happens in a process multiprocessing did not start."""
    import multiprocessing
    from multiprocessing.connection import wait

    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait([parent.sentinel])
        end_now(code)

    threading.Thread(target=watch, name=name, daemon=True).start()


@contextlib.contextmanager
def children_ignore_sigint() -> Iterator[None]:
    """Start processes in the block so that none prints a traceback while it is still starting:

    * Ctrl+C (SIGINT) is ignored meanwhile, so they inherit it ignored (a spawned Python keeps an ignored
      SIGINT); the caller, whose handling is restored after, stops them;
    * a SIGTERM to this process (a pool's worker being stopped) waits until the block is over, then acts as it
      would have: killed halfway through ``Process.start``, this process would leave a child that never gets its
      start-up data (``EOFError: Ran out of input`` from ``multiprocessing.spawn``, on the shared terminal).

    Only in the main thread (where Python handles signals); elsewhere nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous_int = signal.signal(signal.SIGINT, signal.SIG_IGN)
    previous_term = signal.signal(signal.SIGTERM, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL if previous_int is None else previous_int)
        signal.signal(signal.SIGTERM, signal.SIG_DFL if previous_term is None else previous_term)
        if held:
            signal.raise_signal(signal.SIGTERM)


def _mib(n: int) -> str:
    return f"{n / 2 ** 20:.0f} MiB"


def death_fault(code: int | None, peak: int | None, cap_mb: int | None, oom_before: int | None,
                oom_after: int | None) -> tuple[str, str]:
    """``(termination, detail)`` for a worker process that died: ``"memory"`` only with evidence, when it was
    killed by a signal after its peak memory passed its cap, or when the cgroup's out-of-memory kills rose while
    it ran; otherwise ``"crash"`` with the signal or exit code (a cap set with ``RLIMIT_AS`` makes an allocation
    fail, a ``MemoryError``, and never kills: a kill near the cap is not evidence of running out).

    Args:
        code: its exit code (``-N``: killed by signal N; ``None``: unknown).
        peak: its peak resident memory in bytes, or ``None`` when unknown.
        cap_mb: its memory cap in MiB, or ``None``.
        oom_before, oom_after: :func:`oom_kills` when it started and after it died.
    """
    memory = "" if peak is None else f"; its peak memory {_mib(peak)}" + (
        f" of its {cap_mb} MiB cap" if cap_mb else "")
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        killed = f"the agent's process was killed by signal {name}"
        if oom_before is not None and oom_after is not None and oom_after > oom_before:
            return "memory", f"{killed} by the system's out-of-memory killer{memory}"
        if peak is not None and cap_mb and peak > cap_mb * 2 ** 20:
            return "memory", f"{killed} over its memory cap{memory}"
        return "crash", killed + memory
    if code is None:
        return "crash", "the agent's process ended without an exit code"
    return "crash", f"the agent's process exited with code {code}{memory}"
