"""The tree view's keys and mouse (:class:`OverlayInput`): what a key, a click, the wheel or a drag does to a
:class:`gameplay.ui.overlay.overlay.TreeOverlay`, through its public methods (step, zoom, fit, click, export...; the
handler writes none of the model's fields: :class:`InputHost`). It keeps only its own state: whether a button is
held over the canvas and whether it moved far enough to be a drag.

Keys: Page Down / Right / Down = next step, Page Up / Left / Up = previous, Space = play / pause, Home = first
step, End = the finished search, ``Q`` the quiz (:mod:`gameplay.ui.overlay.overlay_quiz`: it takes the step keys while
on), ``+`` / ``-`` zoom, ``0`` fit, ``[`` / ``]`` speed, ``E`` export, ``A`` show all
children of the node (or ``+N`` marker) under the mouse. Mouse: click a ``+N nodes`` marker to open it, click a
node to jump the replay there; right-click a node or marker to show all its children; wheel zooms, drag pans.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import pygame

from gameplay.pictures.tree_layout import LayoutNode
from gameplay.ui.overlay.overlay_quiz import QuizHost, QuizMode


class InputHost(QuizHost, Protocol):
    """The overlay as its input handler drives it: read through :class:`ShownOverlay`, changed only through these
    methods of the model (the handler writes none of its fields)."""

    @property
    def visible(self) -> bool: ...
    @property
    def quiz(self) -> QuizMode: ...
    def item_at(self, pos: tuple[int, int]) -> LayoutNode | None: ...
    def button_at(self, pos: tuple[int, int]) -> str | None: ...
    def point(self, pos: tuple[int, int], *, hover: bool) -> None: ...
    def pan(self, offset: tuple[float, float]) -> None: ...
    def click(self, pos: tuple[int, int], *, show_all: bool = False) -> LayoutNode | None: ...
    def set_zoom(self, z: float, about: tuple[float, float] | None = None, *, user: bool = True) -> None: ...
    def fit(self, whole: bool = False) -> None: ...
    def step_key(self, event: pygame.event.Event) -> bool: ...
    def view_key(self, event: pygame.event.Event) -> bool: ...
    def pause(self) -> None: ...
    def first_step(self) -> None: ...
    def prev_step(self) -> None: ...
    def finish(self) -> None: ...
    def toggle_play(self) -> None: ...
    def cycle_speed(self) -> None: ...
    def export(self) -> object: ...
    def toggle_presenter(self) -> bool: ...
    def hide(self) -> None: ...

DRAG_SLOP = 4
"""Pixels the mouse moves with a button down before the press is a drag (not a click)."""
WHEEL_STEP = 1.15
"""Zoom factor of one wheel notch."""
KEY_STEP = 1.2
"""Zoom factor of ``+`` / ``-`` and the Zoom buttons."""


class OverlayInput:
    """Turns pygame events into the overlay's actions (see the module docstring).

    Args:
        ov: the overlay it drives.
    """

    def __init__(self, ov: InputHost) -> None:
        self.ov = ov
        self._drag: tuple[int, int, float, float] | None = None
        self._dragged = False

    @property
    def drag(self) -> tuple[int, int, float, float] | None:
        """Where a press on the canvas began and the offset then (``None``: no button held over the canvas)."""
        return self._drag

    @property
    def dragged(self) -> bool:
        """The held button moved more than :data:`DRAG_SLOP` pixels: a drag, not a click."""
        return self._dragged

    def handle(self, event: pygame.event.Event) -> bool:
        """One event while the overlay is shown (with a tree, or without: :meth:`no_tree`). Returns True when the
        event was used."""
        ov = self.ov
        if not ov.visible:
            return False
        if ov.tree is None:
            return self.no_tree(event)
        if (event.type == pygame.KEYDOWN and event.key == pygame.K_a and not event.mod & pygame.KMOD_CTRL
                and ov.item_at(ov.mouse) is not None):
            ov.click(ov.mouse, show_all=True)
            return True
        handler = {pygame.KEYDOWN: self.key, pygame.MOUSEMOTION: self.motion, pygame.MOUSEWHEEL: self.wheel,
                   pygame.MOUSEBUTTONDOWN: self.button_down, pygame.MOUSEBUTTONUP: self.button_up}.get(event.type)
        return handler(event) if handler is not None else False

    def no_tree(self, event: pygame.event.Event) -> bool:
        """One event while the overlay shows no tree (a book move, a proof, no decision yet): the bar's buttons
        (Presenter, Close: :func:`gameplay.ui.overlay.overlay_draw.bar_specs`), P (the presenter view) and Esc (out
        of it); a click elsewhere on the view is taken, so it never reaches the board under it."""
        ov = self.ov
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_p and not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
                ov.toggle_presenter()
                return True
            if event.key == pygame.K_ESCAPE and ov.presenter:
                ov.toggle_presenter()
                return True
            return False
        if event.type == pygame.MOUSEMOTION:
            ov.point(event.pos, hover=False)  # the bar's buttons light up under the pointer
            return ov.rect.collidepoint(event.pos)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 2, 3) and ov.rect.collidepoint(event.pos):
            name = ov.button_at(event.pos)
            if name is not None and event.button == 1:
                self.press(name)
            return True
        return False

    def motion(self, event: pygame.event.Event) -> bool:
        """The mouse moved: pan while dragging, else hover over an item."""
        ov = self.ov
        if self._drag is not None:
            ov.point(event.pos, hover=False)
            x0, y0, ox, oy = self._drag
            dx, dy = event.pos[0] - x0, event.pos[1] - y0
            if abs(dx) + abs(dy) > DRAG_SLOP:
                self._dragged = True
            if self._dragged:
                ov.pan((ox + dx, oy + dy))
            return True
        ov.point(event.pos, hover=True)
        return ov.rect.collidepoint(event.pos)

    def wheel(self, event: pygame.event.Event) -> bool:
        """The wheel zooms about the mouse over the canvas."""
        ov = self.ov
        c = ov.canvas_rect
        if not c.collidepoint(ov.mouse):
            return False
        ov.set_zoom(ov.zoom * (WHEEL_STEP if event.y > 0 else 1 / WHEEL_STEP), (ov.mouse[0] - c.x, ov.mouse[1] - c.y))
        return True

    def button_down(self, event: pygame.event.Event) -> bool:
        """A press: a bar button acts (left button), a press on the canvas may start a drag or a click."""
        ov = self.ov
        if event.button not in (1, 2, 3):
            return False
        if not ov.rect.collidepoint(event.pos):
            return False
        name = ov.button_at(event.pos)
        if name is not None:
            if event.button == 1:
                self.press(name)
            return True
        if ov.canvas_rect.collidepoint(event.pos):
            self._drag = (event.pos[0], event.pos[1], ov.offset[0], ov.offset[1])
            self._dragged = False
        return True

    def button_up(self, event: pygame.event.Event) -> bool:
        """A release: the end of a drag, or a click (left) or a show-all click (right) on the canvas."""
        if event.button not in (1, 2, 3):
            return False
        if self._drag is None:
            return self.ov.rect.collidepoint(event.pos)
        self._drag = None
        if not self._dragged and event.button in (1, 3):
            self.ov.click(event.pos, show_all=event.button == 3)
        return True

    def key(self, event: pygame.event.Event) -> bool:
        """The step-through's keys, then zoom and fit, then the view's own keys (presenter, export...)."""
        ov = self.ov
        k = event.key
        if ov.quiz.key(ov, event) or ov.step_key(event):
            return True
        if k in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            ov.set_zoom(ov.zoom * KEY_STEP)
        elif k in (pygame.K_MINUS, pygame.K_KP_MINUS):
            ov.set_zoom(ov.zoom / KEY_STEP)
        elif k in (pygame.K_0, pygame.K_KP0):
            ov.fit(whole=True)
        else:
            return ov.view_key(event)
        return True

    def press(self, name: str) -> None:
        """The bar's button ``name`` (:func:`gameplay.ui.overlay.overlay_draw.bar_specs`) was pressed."""
        ov = self.ov

        def stepping(step: Callable[[], None]) -> Callable[[], None]:
            def go() -> None:
                ov.pause()  # a step by hand stops the play
                step()
            return go

        actions: dict[str, Callable[[], None]] = {
            "first": ov.first_step, "prev": stepping(ov.prev_step),
            "play": lambda: ov.quiz.forward(ov) if ov.quiz.on else ov.toggle_play(),  # the quiz does not play on
            "next": stepping(lambda: ov.quiz.forward(ov)), "end": ov.finish, "speed": ov.cycle_speed,
            "zoom_out": lambda: ov.set_zoom(ov.zoom / KEY_STEP), "zoom_in": lambda: ov.set_zoom(ov.zoom * KEY_STEP),
            "fit": lambda: ov.fit(whole=True), "export": lambda: (ov.export(), None)[-1],
            "presenter": lambda: (ov.toggle_presenter(), None)[-1],
            "quiz": lambda: (ov.quiz.toggle(ov), None)[-1],
            "close": ov.hide, "growth": lambda: None if ov.on_growth is None else ov.on_growth(),
        }
        fn = actions.get(name)
        if fn is not None:
            fn()
