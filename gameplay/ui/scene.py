"""The scene interface: one screen of the window (the start menu, a match, later the Tree Lab).

The :class:`~gameplay.ui.app.App` keeps a stack of scenes and drives the top one once per frame:
``handle_event`` for each event, then ``update(dt)``, then ``draw(surface)`` (the App draws the pygame_gui
widgets on top afterwards). A scene creates its pygame_gui widgets in ``on_enter`` (and again in ``layout`` when
the window is resized) and kills them in ``on_exit``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:
    from gameplay.ui.app import App


class Scene:
    """Base class with do-nothing defaults; subclasses override what they need."""

    def __init__(self) -> None:
        self.app: App | None = None
        """The App this scene is shown in (set by ``on_enter``)."""

    def on_enter(self, app: App) -> None:
        """Called when the scene becomes the top of the stack: build widgets for ``app.size``."""
        self.app = app
        self.layout(app.size)

    def on_exit(self) -> None:
        """Called when the scene leaves the top of the stack: kill widgets, cancel background work."""

    def layout(self, size: tuple[int, int]) -> None:
        """(Re)build the widgets for a window of ``size`` pixels (called on enter, resize, fullscreen)."""

    def handle_event(self, event: pygame.event.Event) -> bool:
        """React to one event (pygame_gui has already seen it). Returns True when the event was used."""
        return False

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds (poll the AI, run timers)."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the scene (not the widgets) onto ``surface``."""

    def busy(self) -> bool:
        """True while the scene changes by itself (an animation, the AI thinking, a timer): the App draws it at full
        frame rate. False when only input can change it: the App then waits for input between frames
        (:mod:`gameplay.ui.idle`). The default, True, is always safe."""
        return True
