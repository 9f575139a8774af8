"""The match opened from the PDN game browser (Analyse, Play from here), whose Esc goes back to the browser."""

from __future__ import annotations

from pygame_gui.elements import UIButton

from gameplay.ui.play.match import MatchScene


class ArchiveMatchScene(MatchScene):
    """A match opened from the game browser (Analyse, Play from here): Esc and the panel's "Games (Esc)" button
    (the match's Menu button) come back to the browser."""

    escape_goes_back = True
    """The App pops this scene on Esc (when no dialog is open) instead of going to the menu."""

    def layout(self, size: tuple[int, int]) -> None:
        """The match's layout, its Menu button named "Games (Esc)"."""
        super().layout(size)
        menu = self._ui.find("menu", UIButton)
        if menu is not None:
            menu.set_text("Games (Esc)")
            menu.set_tooltip("Back to the games of the archive (Esc)")

    def go_to_menu(self) -> None:
        """The "Games (Esc)" button: back to the game browser."""
        if self.app is not None and self.app.scene is self:
            self.app.pop()
