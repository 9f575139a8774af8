"""Python's garbage collector paused while a search runs (``gc.disable``), for every search: alpha-beta and
expectimax (:func:`ai.kernel.deepen.deepen`) and Monte Carlo tree search (:meth:`ai.kernel.mcts.MCTS.search`).

Why: a full (generation 2) collection walks every object the collector tracks, and a search holds many (a
transposition table of ~10^5-10^6 entries, an MCTS tree of ~10^5 nodes). A collection is triggered by
allocations, so it lands inside the search: measured on the compiled checkers `expert` at 1 s, about one full
collection a decision, 6-43 ms each on a loaded 2-core machine, counted in the search's time and able to push it
past its deadline (the MCTS tree: up to 68 ms over a 0.05 s budget). The search's own garbage is mostly freed at
once by reference counting; what forms cycles is collected after the search, when the collector is back on.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_GC_LOCK = threading.Lock()
_gc_state = {"holders": 0, "was_enabled": False}


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's automatic garbage collection (``gc.disable``) while at least one search runs, then restore it
    (the module docstring says why). Thread-safe: nested and concurrent searches keep it paused until the last one
    ends; a collector that was off before stays off."""
    with _GC_LOCK:
        if _gc_state["holders"] == 0:
            _gc_state["was_enabled"] = gc.isenabled()
            gc.disable()
        _gc_state["holders"] += 1
    try:
        yield
    finally:
        with _GC_LOCK:
            _gc_state["holders"] -= 1
            if _gc_state["holders"] == 0 and _gc_state["was_enabled"]:
                gc.enable()
