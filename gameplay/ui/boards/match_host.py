"""What a match's helpers may ask of the match scene that holds them (:class:`MatchHost`).

The match scene (:class:`gameplay.ui.play.match.MatchScene`) imports its helpers: the play aids
(:mod:`gameplay.ui.play.play_aids`), the race (:mod:`gameplay.ui.play.race_scene`), the board view's tools
(:mod:`gameplay.ui.boards.checkers_view`, :mod:`gameplay.ui.boards.checkers_tools`). They see the scene through this
protocol, never through ``MatchScene`` itself, so no import (type-checking ones included) points back at the match;
and a side's label (:func:`describe_agent`) is here too, for the panel and the board's tools alike.

The match owns its state: the protocol shows the sides, the AI's failure and the pause read-only, and a helper
changes them through the scene's methods (:meth:`MatchHost.hand_side_to_human`, :meth:`MatchHost.clear_error`,
:meth:`MatchHost.toggle_pause`), never by assigning a field.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import pygame

    from ai.agents.agent_base import Agent
    from gameplay.rules.base import Game
    from gameplay.rules.referee import GameRecord
    from gameplay.ui.boards.board import BoardView, InputController
    from gameplay.ui.widgets.scene import Window


class MatchHost(Protocol):
    """The match scene as its helpers see it; :class:`gameplay.ui.play.match.MatchScene` satisfies it. Players are 0
    and 1; times are seconds; rectangles are window pixels."""

    @property
    def agents(self) -> tuple[Agent, Agent]:
        """The sides' agents (``agent.is_human`` for a person); :meth:`hand_side_to_human` changes one."""
        ...

    @property
    def error(self) -> str | None:
        """What the AI's failure at :attr:`error_tag` was, or ``None``; :meth:`clear_error` forgets it."""
        ...

    @property
    def error_tag(self) -> Hashable | None:
        """The position (``GameRecord.tag``) where the AI failed; it is not asked again there."""
        ...

    @property
    def paused(self) -> bool:
        """AI against AI: the agents wait until resumed (:meth:`toggle_pause`)."""
        ...

    @property
    def app(self) -> Window | None:
        """The window the match is shown in (``None`` before it is shown)."""
        ...

    @property
    def game_name(self) -> str:
        """The game's registry name."""
        ...

    @property
    def game(self) -> Game[Any, Any]:
        """The game's rules."""
        ...

    @property
    def record(self) -> GameRecord:
        """The game so far (its start, moves, undo and redo, the current state)."""
        ...

    @property
    def view(self) -> BoardView:
        """The board view that draws the game."""
        ...

    @property
    def controller(self) -> InputController:
        """The board's input controller (clicks and keys to moves)."""
        ...

    @property
    def board_rect(self) -> pygame.Rect:
        """Where the board is drawn."""
        ...

    @property
    def clock(self) -> float:
        """Seconds since the match scene was made (animations)."""
        ...

    @property
    def auto_restart_s(self) -> float | None:
        """Seconds after the end before a demo's new game starts, or ``None`` (not a demo)."""
        ...

    @property
    def overlay(self) -> Any:
        """The search-tree overlay of the last AI decision (its ``visible``)."""
        ...

    @property
    def overlay_on_start(self) -> bool:
        """The overlay opens with each decision (``demo --overlay``)."""
        ...

    @property
    def has_human(self) -> bool:
        """At least one side is a person."""
        ...

    def is_human(self, player: int) -> bool:
        """``player`` is played by a person."""
        ...

    def human_to_move(self) -> bool:
        """The game goes on, the position is a decision, and a person decides it."""
        ...

    def saved_decision(self, wait_s: float = 0.0) -> dict[str, Any] | None:
        """The last AI decision's record a save holds (``ai.teaching.decision_file``; its words alone while its tree
        is being written, waited for up to ``wait_s`` seconds), or ``None``."""
        ...

    @property
    def decisions_saved(self) -> int:
        """How many decision records have been finished: a save made before the last one was is written again."""
        ...

    def notify(self, text: str, error: bool = False) -> None:
        """Show ``text`` in the panel's message box (``error``: as a problem) until the next move."""
        ...

    def progress_text(self) -> str:
        """How far the game is ("move 12"), for messages."""
        ...

    def load_game(self, start: Any, moves: Sequence[Any] = ()) -> None:
        """Replace the game by the one from ``start`` (a state of :attr:`game`) with ``moves`` played."""
        ...

    def toggle_pause(self) -> None:
        """AI against AI: pause, or go on."""
        ...

    def hand_side_to_human(self, player: int) -> None:
        """A person plays ``player`` (0 or 1) from now on, at the same position: the AI's failure is forgotten and
        a pause ends (the failed AI's side taken over).

        Raises:
            ValueError: ``player`` is not 0 or 1.
        """
        ...

    def clear_error(self) -> None:
        """Forget the AI's failure, so that the AI is asked again at this position."""
        ...

    def layout(self, size: tuple[int, int]) -> None:
        """Build the scene's widgets again for a window of ``size`` pixels."""
        ...


def describe_agent(agent: Agent) -> str:
    """A short label for a side: ``"Human"`` or the agent's own description (the panel's sides, a saved game's
    players)."""
    return "Human" if agent.is_human else agent.describe()
