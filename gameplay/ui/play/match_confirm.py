"""The match's question before an unfinished game is thrown away ("New game: your game in progress (move 12) will
be lost. Go on?"), as a mixin of :class:`~gameplay.ui.play.match.MatchScene`.

New game (N, its button), Load and Paste FEN replace the game; when a person's unfinished game would be lost,
:meth:`AskBeforeReplacing.confirm_replace` asks first in a confirm dialog. Cancel, Esc and the close box keep the
game; after a zoom step or a theme change the open question is asked again at the new scale.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui
from pygame_gui.windows import UIConfirmationDialog

from gameplay.rules.registry import game_title
from gameplay.ui.widgets.dialogs import confirm_dialog

if TYPE_CHECKING:
    from gameplay.rules.referee import GameRecord
    from gameplay.ui.widgets.scene import Window


class AskBeforeReplacing:
    """The confirm question of a match scene (mixed into :class:`~gameplay.ui.play.match.MatchScene`, whose ``app``,
    ``record``, ``game``, ``game_name``, ``has_human``, ``overlay`` and ``new_game`` it uses)."""

    app: Window | None
    record: GameRecord
    game: Any
    game_name: str
    overlay: Any

    @property
    def has_human(self) -> bool:
        """At least one side is a person (the scene's answer)."""
        raise NotImplementedError

    def new_game(self) -> None: ...

    def _init_question(self) -> None:
        self.confirm: tuple[UIConfirmationDialog, Any] | None = None
        """The open "throw the game in progress away?" question and what runs on its confirm button, or ``None``."""
        self._confirm_closed = False
        self._confirm_what = ""

    def game_at_stake(self) -> bool:
        """True when replacing the game would throw away a player's unfinished game (a human side, moves played,
        no result yet)."""
        return self.has_human and self.record.ply > 0 and self.record.outcome() is None

    def confirm_replace(self, what: str, action: Any) -> bool:
        """Run ``action`` (New game, Load, Paste FEN) at once when no unfinished game is at stake, else ask first in
        a confirm dialog ("New game: your game in progress (move 12) will be lost"); Cancel, Esc and the close box
        keep the game. Returns True when ``action`` ran now."""
        if not self.game_at_stake() or self.app is None:
            action()
            return True
        self.close_dialog()
        self._ask_confirm(what, action)
        return False

    def _ask_confirm(self, what: str, action: Any) -> None:
        """Show the confirm dialog of :meth:`confirm_replace` (again after a zoom step: see :meth:`layout`)."""
        assert self.app is not None
        text = (f"{html.escape(what)}: your {html.escape(game_title(self.game_name))} game "
                f"in progress ({html.escape(self.progress_text())}) will be lost. Go on?")
        dialog = confirm_dialog(self.app.manager, self.app.size, f"{what}?", text, what)
        self.confirm = (dialog, action)
        self._confirm_what = what
        self._confirm_closed = False

    def progress_text(self) -> str:
        """Where the game stands, for a player (:func:`gameplay.rules.move_numbers.progress`): ``"move 12"`` in the
        moves
        list's numbering, or the game's own words (Pig: ``"turn 2, Player 2 to play"``)."""
        from gameplay.rules import move_numbers
        return move_numbers.progress(self.game, self.record.start, self.record.moves)

    def close_dialog(self) -> bool:
        """Close the confirm dialog (Esc: Cancel, the game is kept), and the tree's presenter view. Returns True
        when one was open."""
        presenting = bool(self.overlay.presenter)
        self.overlay.set_presenter(False)
        if self.confirm is None:
            return presenting
        dialog, _ = self.confirm
        self.confirm = None
        if dialog.alive():
            dialog.kill()
            return True
        return presenting

    def ask_new_game(self) -> None:
        """New game (N, the New game button): asks first when an unfinished game would be lost."""
        self.confirm_replace("New game", self.new_game)

    def _question_event(self, event: pygame.event.Event) -> bool:
        """While the question is open: its confirm button runs the action; keys and clicks wait for an answer.
        Returns True when the event was used."""
        if self.confirm is None:
            return False
        dialog, action = self.confirm
        if event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED and event.ui_element is dialog:
            self.confirm = None
            action()
            return True
        return bool(dialog.alive() and event.type in (pygame.KEYDOWN, pygame.KEYUP, pygame.MOUSEBUTTONDOWN,
                                                     pygame.TEXTINPUT))

    def _question_tick(self) -> None:
        """Once a frame: Cancel or the close box closed the question, the game is kept. (The confirm button's event
        comes a frame after the dialog closed, so the question is forgotten only on the next frame.)"""
        if self.confirm is not None and not self.confirm[0].alive():
            if self._confirm_closed:
                self.confirm = None
            self._confirm_closed = not self._confirm_closed

    def _question_relayout(self) -> None:
        """After a new layout: an open question left in the old UI manager (a zoom step, a theme change) is asked
        again at the new scale."""
        assert self.app is not None
        if self.confirm is not None and self.confirm[0].alive() and self.confirm[0].ui_manager is not self.app.manager:
            dialog, action = self.confirm
            dialog.kill()
            self._ask_confirm(self._confirm_what, action)
