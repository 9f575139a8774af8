"""Board views and input controllers: how a game is drawn and how clicks become moves.

Each game plugs into the match scene with two objects, its view named by its registry record
(``GameInfo.view``, :func:`view_for`):

* a :class:`BoardView` draws a state into a rectangle and hit-tests a mouse position into a *target* (a cell,
  a square, a die...). It never changes the state: states are immutable and the view only reads them.
* an :class:`InputController` (made by the view) turns targets clicked by the human into a complete legal move.
  Tic-tac-toe needs one click; checkers will collect several (from-square, then each landing square);
  Pig offers its moves (roll / hold) as buttons through :meth:`InputController.actions`.

A view may also draw the hint's move on its board (``draw_hint(surface, rect, move, width, colour) -> bool``,
optional: without it, or when it returns False, the hint is written under the board).

A game whose record names no view gets :class:`GenericView`: the position in the game's notation and every
legal move as a button, so a new game is playable before its board view exists.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import pygame

from gameplay.rules.base import Game


@dataclass(frozen=True)
class ViewState:
    """What the board view needs besides the game state (all read-only)."""

    hover: Any = None
    """The target under the mouse (from :meth:`BoardView.hit_test`), or ``None``."""
    interactive: bool = False
    """True when a human is to move and clicks are accepted."""
    last_move: Any = None
    """The last move played (in the game's move type), or ``None``."""
    selected: tuple[Any, ...] = ()
    """Targets clicked so far towards a multi-click move (the controller's selection)."""
    to_move: int = 0
    """The player to move (0 or 1)."""
    clock: float = 0.0
    """Seconds since the scene started (for small animations)."""
    cue: Any = None
    """A game-specific hint from the input controller (its ``cue`` attribute, if any), e.g. checkers' warning
    that a capture is compulsory: the view draws it (the pieces that must capture flash)."""
    decision: Any = None
    """The last AI decision as ``(player, move text, SearchResult)``, or ``None`` (Pig shows its values)."""
    history: tuple[tuple[Any, Any], ...] = ()
    """The game so far as ``(state before, move or chance outcome)`` pairs, oldest first (Pig's game log)."""
    sides: tuple[str, ...] = ()
    """Short labels of the two sides (``"Human"`` or the agent's description), or empty."""
    move_age: float = float("inf")
    """Seconds since ``last_move`` was played (infinite after undo, redo, load: nothing to animate)."""
    animation_speed: float = 1.0
    """Speed factor of the cosmetic move animations (``settings.animation_speed``); 0 turns them off."""

    def animation(self, duration_s: float) -> float:
        """Progress 0..1 of an animation of the last move lasting ``duration_s`` seconds at speed 1.

        Returns 1.0 (finished: draw the position as it is) when animations are off or nothing was just played.
        Animations are cosmetic: the state has already changed, input and the AI never wait for them.
        """
        if self.animation_speed <= 0 or duration_s <= 0 or self.move_age == float("inf"):
            return 1.0
        return max(0.0, min(1.0, self.move_age * self.animation_speed / duration_s))


@dataclass(frozen=True)
class ExtraAction:
    """A command a board view adds to the match scene: a panel button and a keyboard shortcut.

    Examples: checkers' "Flip (F)" or "Save PDN (S)". The match scene shows the buttons of
    :meth:`ViewTools.actions` under the move list and calls ``callback`` on a press or on the key.
    """

    label: str
    """Button text, e.g. ``"Flip (F)"`` (keep it short: two buttons share a panel row)."""
    key: int | None
    """The ``pygame.K_*`` key that runs it without Ctrl (Ctrl+key too unless the scene uses Ctrl+key), or
    ``None``."""
    callback: Callable[[], None]
    """Runs the command (on the UI thread)."""
    tooltip: str = ""
    """Tool-tip text of the button."""
    replaces_game: bool = False
    """True when the command replaces the game in progress (load a game, set up a position): the match scene
    asks before it throws an unfinished game away."""


class ViewTools(Protocol):
    """Optional per-view extras of a match (made by ``BoardView.make_tools(scene)`` when the view has it).

    They add commands to the panel (:class:`ExtraAction`) and may open dialogs; while a dialog is open
    (:attr:`modal`) the scene passes every event to :meth:`handle_event` first and ignores board clicks and keys.
    """

    @property
    def modal(self) -> bool:
        """True while a dialog of the tools is open."""
        ...

    def actions(self) -> Sequence[ExtraAction]:
        """The extra commands, in panel order."""
        ...

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Dialog events (pygame_gui's); returns True when the event was used (or swallowed by a dialog)."""
        ...

    def close(self) -> None:
        """Kill open dialogs (the scene is leaving or laying itself out again)."""
        ...


class InputController(Protocol):
    """Turns the human's clicks (targets) into a legal move; one per match, reset on every new position."""

    @property
    def selected(self) -> tuple[Any, ...]:
        """Targets clicked so far towards the next move."""
        ...

    def reset(self) -> None:
        """Forget a partial selection (new position, undo, new game)."""
        ...

    def click(self, state: Any, target: Any) -> Any | None:
        """Handle a click on ``target`` at ``state``.

        Returns:
            A complete legal move to play, or ``None`` (the click was ignored or only extended the selection).
        """
        ...

    def actions(self, state: Any) -> Sequence[tuple[str, Any]]:
        """Moves offered as buttons (label, move): Pig's roll/hold; empty for board games."""
        ...

    def prompt(self, state: Any) -> str:
        """A short hint for the status line, e.g. ``"click an empty cell"``."""
        ...


class BoardView(Protocol):
    """Draws a game state; never changes it.

    A view may also define ``make_tools(scene) -> ViewTools`` (optional, looked up with ``getattr``): the match
    scene calls it once and shows the tools' extra commands (checkers: flip, square numbers, PDN, FEN).
    """

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, state: Any, view: ViewState) -> None:
        """Draw ``state`` into ``rect`` of ``surface``."""
        ...

    def hit_test(self, rect: pygame.Rect, state: Any, pos: tuple[int, int]) -> Any | None:
        """The target (cell, square...) at pixel ``pos`` when the board fills ``rect``, or ``None``."""
        ...

    def make_controller(self) -> InputController:
        """A fresh input controller for this game."""
        ...


# ----- the fallback: position text and one button per legal move --------------------------------------------------
class ButtonController:
    """Offers every legal move as a button (up to ``limit``); board clicks are ignored."""

    def __init__(self, game: Game[Any, Any], limit: int = 24) -> None:
        self.game = game
        self.limit = limit

    @property
    def selected(self) -> tuple[Any, ...]:
        """Always empty: moves are chosen with one button press."""
        return ()

    def reset(self) -> None:
        """Nothing to forget."""

    def click(self, state: Any, target: Any) -> Any | None:
        """Board clicks are not used."""
        return None

    def actions(self, state: Any) -> Sequence[tuple[str, Any]]:
        """Every legal move, labelled in the game's notation."""
        if self.game.is_chance(state) or self.game.is_terminal(state):
            return []
        return [(self.game.format_move(state, m), m) for m in list(self.game.actions(state))[:self.limit]]

    def prompt(self, state: Any) -> str:
        """Hint for the status line."""
        return "choose a move"


class GenericView:
    """Draws the position in the game's notation (for games whose board view does not exist yet)."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self._font: pygame.font.Font | None = None

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, state: Any, view: ViewState) -> None:
        """Draw a card with the position string, wrapped to the rectangle."""
        pygame.draw.rect(surface, (32, 37, 52), rect, border_radius=16)
        if self._font is None:
            self._font = pygame.font.Font(None, 34)
        text = self.game.format_position(state)
        width = max(8, (rect.width - 48) // max(1, self._font.size("M")[0]))
        lines = [text[i:i + width] for i in range(0, len(text), width)] or [""]
        y = rect.y + 32
        for line in lines:
            img = self._font.render(line, True, (226, 231, 242))
            surface.blit(img, (rect.x + 24, y))
            y += img.get_height() + 6

    def hit_test(self, rect: pygame.Rect, state: Any, pos: tuple[int, int]) -> Any | None:
        """No clickable targets."""
        return None

    def make_controller(self) -> InputController:
        """A :class:`ButtonController`."""
        return ButtonController(self.game)
