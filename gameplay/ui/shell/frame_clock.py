"""The window loop's time source: :class:`WallClock` (real seconds) or :class:`SteppedClock` (seconds that pass only
when the loop waits for its next frame).

:meth:`gameplay.ui.shell.app.App.run` reads the time, and waits for the next frame, only through its clock; every scene
is told the seconds between frames (``update(dt)``), so what moves by itself (the game browser's autoplay, a die's
tumble, the AI's pause before its move, the step-through's playback) moves by the clock's seconds. The window a
person sees runs on :class:`WallClock`. A :class:`SteppedClock` makes each frame last exactly ``1 / fps`` seconds
however long it took to draw: ``App.run(max_seconds=1.5)`` at 60 fps is 90 frames on any machine, busy or not, so a
test of an autoplay or an animation never depends on the machine's speed.
"""

from __future__ import annotations

import time
from typing import Protocol


class FrameClock(Protocol):
    """What the window's loop needs of a clock: the time now and a wait, in seconds."""

    real: bool
    """True when the seconds are the wall clock's (the loop may then wait for input while nothing moves)."""

    def now(self) -> float:
        """Seconds since an arbitrary start (only differences count)."""
        ...

    def sleep(self, seconds: float) -> None:
        """Let ``seconds`` pass before the next frame."""
        ...


class WallClock:
    """Real time: ``time.perf_counter`` and ``time.sleep`` (which releases the GIL for the AI's thread)."""

    real = True

    def now(self) -> float:
        """``time.perf_counter()`` seconds."""
        return time.perf_counter()

    def sleep(self, seconds: float) -> None:
        """``time.sleep(seconds)``."""
        time.sleep(seconds)


class SteppedClock:
    """Virtual time that moves only when the loop waits (:meth:`sleep`) or a caller moves it (:meth:`advance`).

    Args:
        start: the first reading, in seconds.
        yield_s: real seconds each :meth:`sleep` still sleeps (default 0.001), so that the threads the window waits
            for (the AI's search, a figure computed in the background) get the GIL between frames as they do behind
            the real loop; it does not change the virtual time.
    """

    real = False

    def __init__(self, start: float = 0.0, *, yield_s: float = 0.001) -> None:
        self.t = float(start)
        self.yield_s = yield_s

    def now(self) -> float:
        """The virtual seconds so far."""
        return self.t

    def sleep(self, seconds: float) -> None:
        """Move the virtual time on by ``seconds`` (negative: not at all)."""
        self.t += max(0.0, seconds)
        if self.yield_s > 0:
            time.sleep(self.yield_s)

    def advance(self, seconds: float) -> None:
        """Move the virtual time on by ``seconds`` without a frame (a test's "a while later")."""
        self.t += max(0.0, seconds)
