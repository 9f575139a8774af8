"""What the App's own parts may ask of it beyond what a scene may (:class:`WindowControls`).

The App hands itself to the parts it was split into: the event routing (:mod:`gameplay.ui.shell.app_events`: the
window's keys) and the start-up question about the games in progress (:mod:`gameplay.ui.play.resume`). They see the App
through this protocol, as scenes see it through :class:`gameplay.ui.widgets.scene.Window`, so none of them imports
:mod:`gameplay.ui.shell.app` (which imports them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from gameplay.ui.widgets.scene import Window

if TYPE_CHECKING:
    from gameplay.ui.widgets.sounds import SoundBoard


class WindowControls(Window, Protocol):
    """A :class:`~gameplay.ui.widgets.scene.Window` with the window's own controls: its keys' actions (F11, Ctrl+plus /
    minus / 0, Ctrl+H, B, closing), its sounds and the saved games on offer at start.
    :class:`gameplay.ui.shell.app.App` satisfies it."""

    @property
    def blanked(self) -> bool:
        """B: the screen is black until any key or click (:meth:`blank`)."""
        ...

    @property
    def frames(self) -> int:
        """Frames drawn so far."""
        ...

    @property
    def sounds(self) -> SoundBoard:
        """The window's sound effects."""
        ...

    def blank(self, on: bool) -> None:
        """Black the screen out (``on``: the B key) or bring it back (any key or click)."""
        ...

    def quit(self) -> None:
        """Stop the loop after this frame."""
        ...

    def resize(self, size: tuple[int, int]) -> None:
        """Adopt a new window size in pixels (width, height); the top scene lays itself out again."""
        ...

    def toggle_fullscreen(self) -> None:
        """Switch between fullscreen and the resizable window (F11)."""
        ...

    def zoom(self, direction: int) -> None:
        """Scale the whole interface one step up (``direction`` > 0), down (< 0) or back to 100% (0)."""
        ...

    def toggle_high_contrast(self) -> None:
        """Switch between the normal and the high-contrast theme (Ctrl+H)."""
        ...

    def discard_autosave(self, saved: Any = None) -> None:
        """Delete one autosaved game (``gameplay.files.savegame.SavedGame``; default: the newest on offer)."""
        ...
