"""The step-through of a recorded search: which step is shown, play / pause, speed (no drawing).

The overlay (:class:`gameplay.ui.overlay.overlay.TreeOverlay`) holds one :class:`Stepper`; the steps are the events of
:func:`ai.teaching.trace.step_events` (entering and leaving each recorded node, in visiting order). Nothing here imports
pygame at module level; :meth:`Stepper.key` reads the key codes lazily.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar, cast, overload

from ai.teaching.trace import StepEvent
from gameplay.pictures.step_view import cut_moment as cut_moment  # the step's picture is step_view's (re-exported)
from gameplay.pictures.step_view import partial_node as partial_node
from gameplay.pictures.step_view import step_layout as step_layout

SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
"""Step-through speeds in steps per second."""


_T = TypeVar("_T")


class ToStepper(Generic[_T]):
    """A descriptor: a read-only attribute of the owner (the overlay) kept by its ``stepper``, which alone changes it
    (through :class:`Stepper`'s methods: the owner's :meth:`SteppedView.go_to_step`, :meth:`SteppedView.next_step`...).

    Raises:
        AttributeError: on assignment.
    """

    def __init__(self, name: str, doc: str) -> None:
        self.name = name
        self.__doc__ = doc

    @overload
    def __get__(self, obj: None, owner: type) -> ToStepper[_T]: ...
    @overload
    def __get__(self, obj: Any, owner: type) -> _T: ...
    def __get__(self, obj: Any | None, owner: type) -> _T | ToStepper[_T]:
        if obj is None:
            return self
        return cast(_T, getattr(obj.stepper, self.name))

    def __set__(self, obj: Any, value: _T) -> None:
        raise AttributeError(f"{self.name} is the step-through's: change it through the view's step methods")


class Stepper:
    """The replay position over a list of steps.

    Attributes:
        events: the steps (:class:`ai.teaching.trace.StepEvent`), in visiting order.
        step: index into :attr:`events` of the current step; ``None``: the finished search is shown.
        playing: advancing by itself (:meth:`update`).
        speed_index: index into :data:`SPEEDS`.
    """

    def __init__(self, events: Sequence[StepEvent] = ()) -> None:
        self.events: list[StepEvent] = list(events)
        self.step: int | None = None
        self.playing = False
        self.speed_index = 2
        self._acc = 0.0

    def reset(self, events: Sequence[StepEvent]) -> None:
        """New steps (a new tree): back to the finished search, paused."""
        self.events = list(events)
        self.step = None
        self.playing = False
        self._acc = 0.0

    @property
    def speed(self) -> float:
        """Replay speed in steps per second."""
        return SPEEDS[self.speed_index]

    def current(self) -> StepEvent | None:
        """The current step, or ``None`` when the whole search is shown."""
        if self.step is None or not self.events:
            return None
        return self.events[self.step]

    def next(self) -> None:
        """One step forward (from the finished view: the first step; at the last step playing stops)."""
        if not self.events:
            return
        if self.step is None:
            self.step = 0
        elif self.step < len(self.events) - 1:
            self.step += 1
        else:
            self.playing = False

    def prev(self) -> None:
        """One step back (from the finished view: the last step)."""
        if not self.events:
            return
        if self.step is None:
            self.step = len(self.events) - 1
        elif self.step > 0:
            self.step -= 1

    def first(self) -> None:
        """Go to the first step (the search enters the root)."""
        if self.events:
            self.step = 0

    def finish(self) -> None:
        """Show the whole finished search again (pauses)."""
        self.step = None
        self.playing = False

    def go_to(self, index: int) -> None:
        """Jump to step ``index`` (clamped) and pause."""
        if self.events:
            self.playing = False
            self.step = max(0, min(len(self.events) - 1, index))

    def toggle_play(self) -> None:
        """Play or pause (playing from the finished view or the last step starts at the first step)."""
        if not self.events:
            return
        self.playing = not self.playing
        if self.playing and (self.step is None or self.step >= len(self.events) - 1):
            self.step = 0
        self._acc = 0.0

    def pause(self) -> None:
        """Stop playing."""
        self.playing = False

    def faster(self) -> None:
        """Next speed."""
        self.speed_index = min(len(SPEEDS) - 1, self.speed_index + 1)

    def slower(self) -> None:
        """Previous speed."""
        self.speed_index = max(0, self.speed_index - 1)

    def cycle_speed(self) -> None:
        """The speed button: the next speed, wrapping round."""
        self.speed_index = (self.speed_index + 1) % len(SPEEDS)

    def update(self, dt: float) -> bool:
        """Advance by ``dt`` seconds when playing. Returns True when the step changed."""
        if not self.playing:
            return False
        before = self.step
        self._acc += dt
        period = 1.0 / self.speed
        while self._acc >= period and self.playing:
            self._acc -= period
            self.next()
        return self.step != before

    def key(self, event: Any) -> bool:
        """The step keys of a ``KEYDOWN``: Page Down / Right / Down next, Page Up / Left / Up previous (a
        presenter's clicker sends Page Up / Page Down), Space play / pause, Home first, End finished,
        ``]`` / ``[`` speed. Returns True when the key was one of them."""
        import pygame
        k = event.key
        if k in (pygame.K_PAGEDOWN, pygame.K_RIGHT, pygame.K_DOWN):
            self.pause()
            self.next()
        elif k in (pygame.K_PAGEUP, pygame.K_LEFT, pygame.K_UP):
            self.pause()
            self.prev()
        elif k == pygame.K_SPACE:
            self.toggle_play()
        elif k == pygame.K_HOME:
            self.first()
        elif k == pygame.K_END:
            self.finish()
        elif k == pygame.K_RIGHTBRACKET:
            self.faster()
        elif k == pygame.K_LEFTBRACKET:
            self.slower()
        else:
            return False
        return True


class SteppedView:
    """What the two overlays (:class:`gameplay.ui.overlay.overlay.TreeOverlay`,
    :class:`gameplay.ui.overlay.mcts_overlay.MCTSOverlay`) share: showing and hiding, the presenter toggle and the
    step-through's commands over their :class:`Stepper`. A subclass sets ``stepper`` and defines ``set_presenter``
    (which sets ``_presenter``); :attr:`visible` and :attr:`presenter` are read-only outside, changed by :meth:`show`,
    :meth:`hide`, :meth:`set_presenter` and :meth:`take_over`."""

    stepper: Stepper
    _visible: bool = False
    _presenter: bool = False
    _export_dir: Path | None = None
    step = ToStepper[int | None]("step", "Index of the current step; ``None``: the finished search.")
    playing = ToStepper[bool]("playing", "The replay advances by itself.")
    speed_index = ToStepper[int]("speed_index", "Index into :data:`SPEEDS`.")

    def step_count(self) -> int:
        """The number of steps of the step-through (the recorded search's events; 0 without a tree)."""
        return len(self.stepper.events)

    def set_presenter(self, on: bool) -> None:
        """Open or close the presenter view (the subclass lays itself out again)."""
        raise NotImplementedError

    def export(self, folder: Any = None) -> Any:
        """Write the shown search to files (the subclass knows its formats)."""
        raise NotImplementedError

    def view_key(self, event: Any) -> bool:
        """The keys both overlays share, after their own: E export, P presenter view, Esc leaves the presenter
        view. Returns True when the key was one of them."""
        import pygame
        k = event.key
        if k == pygame.K_e and not event.mod & pygame.KMOD_CTRL:
            self.export()
        elif k == pygame.K_p and not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
            self.toggle_presenter()
        elif k == pygame.K_ESCAPE and self.presenter:
            self.set_presenter(False)
        else:
            return False
        return True

    @property
    def visible(self) -> bool:
        """The view is drawn and takes events (:meth:`show`, :meth:`hide`)."""
        return self._visible

    @property
    def presenter(self) -> bool:
        """The presenter view is open (:meth:`set_presenter`)."""
        return self._presenter

    def show(self) -> None:
        """Make the view visible."""
        self._visible = True

    def hide(self) -> None:
        """Hide the view (the replay pauses; the presenter view closes)."""
        self._visible = False
        self.stepper.pause()
        self.set_presenter(False)

    def take_over(self, rect: Any, visible: bool, presenter: bool) -> None:
        """Take the place (a ``pygame.Rect``), the visibility and the presenter view of the view shown before in the
        same slot (:class:`gameplay.ui.overlay.overlay_switch.OverlaySwitch`): set as they are, no callback, nothing
        laid out again (the tree given next is)."""
        self._place(rect)
        self._visible = visible
        self._presenter = presenter

    def set_export_dir(self, folder: str | Path | None) -> None:
        """The folder the Export button (key E) writes to (``None``: the tree exports' default folder)."""
        self._export_dir = Path(folder) if folder is not None else None

    def step_aside(self) -> None:
        """Give the slot to the other view: hidden, the presenter view closed without a callback, the replay
        paused."""
        self._visible = False
        self._presenter = False
        self.stepper.pause()

    def _place(self, rect: Any) -> None:
        """Set the rectangle without laying anything out again (the subclass keeps it)."""
        raise NotImplementedError

    def toggle(self) -> bool:
        """Show or hide; returns the new visibility."""
        if self.visible:
            self.hide()
        else:
            self.show()
        return self.visible

    def toggle_presenter(self) -> bool:
        """P and the Presenter button. Returns True when the presenter view is now open."""
        self.set_presenter(not self.presenter)
        return self.presenter

    @property
    def speed(self) -> float:
        """Replay speed in steps per second."""
        return self.stepper.speed

    def next_step(self) -> None:
        """One step forward (from the finished view: the first step)."""
        self.stepper.next()

    def prev_step(self) -> None:
        """One step back (from the finished view: the last step)."""
        self.stepper.prev()

    def first_step(self) -> None:
        """Go to the first step."""
        self.stepper.first()

    def finish(self) -> None:
        """Show the whole finished search again."""
        self.stepper.finish()

    def toggle_play(self) -> None:
        """Play or pause the replay (playing from the finished view starts at the first step)."""
        self.stepper.toggle_play()

    def pause(self) -> None:
        """Stop the replay playing (a step by hand, the quiz)."""
        self.stepper.pause()

    def cycle_speed(self) -> None:
        """The speed button: the next speed, wrapping round."""
        self.stepper.cycle_speed()

    def step_key(self, event: Any) -> bool:
        """The step-through's keys (:meth:`Stepper.key`). Returns True when the key was one of them."""
        return self.stepper.key(event)

    def go_to_step(self, index: int | None) -> None:
        """Jump to step ``index`` (clamped to the steps) and pause; ``None``: the finished search
        (:meth:`finish`)."""
        if index is None:
            self.stepper.finish()
        else:
            self.stepper.go_to(index)

    def update(self, dt: float) -> None:
        """Advance the replay by ``dt`` seconds when playing and visible."""
        if self.visible:
            self.stepper.update(dt)
