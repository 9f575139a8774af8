"""What the memory tests read: the C heap's live bytes (glibc's ``mallinfo2``) and the process's resident set.

Live bytes are what the program still holds: memory a leak keeps grows them, while memory the C allocator merely
keeps for later (freed, not yet returned to the system) does not. So a leak test compares live bytes before and
after, not the resident set, which an allocator's arenas keep high long after the memory was freed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import sys

import pytest


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallinfo2.restype = _MallInfo2
    except (OSError, AttributeError):  # not glibc, or a glibc older than 2.33
        return None
    return libc


_LIBC = _libc()


def needs_mallinfo() -> pytest.MarkDecorator:
    """Skip where the C heap cannot be read (not Linux with glibc 2.33 or newer)."""
    return pytest.mark.skipif(_LIBC is None, reason="needs glibc's mallinfo2 (Linux)")


def live_mb() -> float:
    """MB the C heap holds for the program now (in use in the heap plus mapped blocks), after a full collection."""
    assert _LIBC is not None
    gc.collect()
    info = _LIBC.mallinfo2()
    return (info.uordblks + info.hblkhd) / 2**20


def hand_back_freed_memory() -> None:
    """Have the C allocator return the memory it keeps free to the system (glibc's ``malloc_trim``; nothing
    elsewhere)."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
"""glibc's ``mallopt`` parameters (malloc.h)."""


def keep_freed_memory_for_reuse() -> bool:
    """Have the C allocator keep what it frees for the next allocation instead of handing it back to the system at
    once (glibc's ``mallopt``: the heap's top is trimmed above 256 MB free, blocks below 32 MB come from the heap).
    A change of interface scale frees a whole widget manager and builds the next (about 50 MB at 1920x1080): handed
    back and faulted in again, that cost 27,000 page faults and a quarter of the CPU time of each change (12 zoom
    steps: 327,660 faults and 0.58 s of system time against 12,675 and 0.03 s, the same peak resident set). What the
    tests free is still handed back after each module (:func:`hand_back_freed_memory`). Returns whether it was
    set (only on glibc)."""
    if _LIBC is None:
        return False
    return bool(_LIBC.mallopt(M_TRIM_THRESHOLD, 256 * 2**20)) and bool(_LIBC.mallopt(M_MMAP_THRESHOLD, 32 * 2**20))


def rss_mb() -> float:
    """The process's resident set now, in MB, after handing freed memory back to the system (``malloc_trim``)."""
    hand_back_freed_memory()
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0
