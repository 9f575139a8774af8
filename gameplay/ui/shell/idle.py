"""Waiting for input while nothing on screen can change by itself: the App's idle wait.

A static board (a person to move, nothing animating) looks the same frame after frame, yet drawing it 60 times a
second costs a good part of a processor core. The App's loop (:meth:`gameplay.ui.shell.app.App.run`) asks
:meth:`IdleWait.wanted` after each frame; when it says yes the loop waits in :func:`pygame.event.wait` (which
releases the GIL: the AI's thread runs on) until an event arrives, at most :data:`IDLE_WAIT_S` seconds, instead of
drawing the next frame at once. Any event (a key, the mouse, a window event, an event posted by another thread)
ends the wait at once and is handled in the next frame, so the window stays as responsive as at full speed.

The wait is wanted only when all of these hold:

* no event and no busy frame for :data:`IDLE_AFTER_S` seconds (short animations of pygame_gui, such as a list's
  smooth scrolling, finish at full speed);
* the top scene is not busy: its ``busy()`` says whether it changes by itself (an animation, the AI thinking, the
  die rolling, the search tree's step-through playing); a scene without ``busy`` is always busy, so only scenes
  that say so are ever drawn less often;
* no transient notice is on screen and no text field has the keyboard focus (its cursor blinks).

Frame-counted runs (``--frames``, tests: ``App.run(max_frames=...)``) never wait: their length is a number of
frames, not of seconds.
"""

from __future__ import annotations

import time
from typing import Any

import pygame

IDLE_AFTER_S = 0.5
"""Seconds without an event or a busy frame before the loop waits for input."""
IDLE_WAIT_S = 0.25
"""The longest wait for input: an idle window still draws a frame this often (a tool tip appears, a clock in a
scene moves on)."""


class IdleWait:
    """The App's idle policy and its wait (see the module's description).

    Args:
        app: the App (its ``scene``, ``notice`` and ``text_entry_focused``).
    """

    def __init__(self, app: Any) -> None:
        self.app = app
        self.last_activity = self._now()
        """When the last event arrived or the last busy frame was drawn (seconds of the App's clock)."""
        self.waits = 0
        """Idle waits so far (tests, measurements)."""
        self._pending: list[pygame.event.Event] = []

    def _now(self) -> float:
        clock = getattr(self.app, "frame_clock", None)
        return float(clock.now()) if clock is not None else time.monotonic()

    def scene_busy(self) -> bool:
        """True when the top scene changes by itself (its ``busy()``; a scene without it counts as busy)."""
        scene = self.app.scene
        if scene is None:
            return False
        busy = getattr(scene, "busy", None)
        return True if not callable(busy) else bool(busy())

    def events(self) -> list[pygame.event.Event]:
        """The events of this frame: the one that ended a wait, then the queue's."""
        out, self._pending = self._pending + pygame.event.get(), []
        return out

    def after_frame(self, had_events: bool) -> None:
        """Note a frame: events were handled, or the scene is busy (both keep the loop at full speed)."""
        if had_events or self.scene_busy():
            self.last_activity = self._now()

    def wanted(self) -> bool:
        """True when the loop may wait for input instead of drawing the next frame at once."""
        now = self._now()
        if now - self.last_activity < IDLE_AFTER_S:
            return False
        text, until = getattr(self.app, "notice", ("", 0.0))
        if text and now < until:
            return False
        if self.app.text_entry_focused():
            return False
        return not self.scene_busy()

    def wait(self, timeout_s: float = IDLE_WAIT_S) -> bool:
        """Wait until an event arrives or ``timeout_s`` seconds pass (the GIL released meanwhile). Returns True when
        an event ended the wait (it is the first of the next frame's :meth:`events`)."""
        self.waits += 1
        event = pygame.event.wait(max(1, round(timeout_s * 1000)))
        if event.type == pygame.NOEVENT:
            return False
        self._pending.append(event)
        return True
