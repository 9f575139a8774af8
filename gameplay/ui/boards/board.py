"""Board views and input controllers: how a game is drawn and how clicks become moves.

Each game plugs into the match scene with two objects, its view named by the game's window parts
(:class:`WindowParts`, found by :func:`gameplay.ui.boards.window_parts.window_parts`; made by
:func:`gameplay.ui.boards.views.view_for`):

* a :class:`BoardView` draws a state into a rectangle and hit-tests a mouse position into a *target* (a cell,
  a square, a die...). It never changes the state: states are immutable and the view only reads them.
* an :class:`InputController` (made by the view) turns targets clicked by the human into a complete legal move.
  Tic-tac-toe needs one click; checkers will collect several (from-square, then each landing square);
  Pig offers its moves (roll / hold) as buttons through :meth:`InputController.actions`.

A view may also draw the hint's move on its board (``draw_hint(surface, rect, move, width, colour) -> bool``,
optional: without it, or when it returns False, the hint is written under the board).

A game whose parts name no view gets :class:`GenericView`: the position in the game's notation and every
legal move as a button, so a new game is playable before its board view exists; a game that draws itself as a
grid of short strings (a game file with ``board`` and ``move_at``) gets the generic grid view inside it
(:class:`GridView`, below).

The types of a game's window parts (:class:`WindowParts`, :class:`HelpFigure`) are here too, below the view modules
that build their ``WINDOW_PARTS`` with them (:mod:`gameplay.ui.boards.window_parts` finds the parts).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import pygame

from gameplay.rules.base import Game, GameError
from gameplay.ui.widgets import projector


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
    callback: Callable[[], object]
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
    scene calls it once and shows the tools' extra commands (checkers: flip, square numbers, PDN, FEN). And it may
    define ``aspect`` (a float, the drawn board's width over its height, looked up with ``getattr``): a board of a
    fixed shape leaves the width it cannot use to the side panel (:func:`gameplay.ui.play.match_panel.match_areas`); a
    view without it (Pig's) fills whatever rectangle it gets. A view that draws square numbers may define
    ``show_square_numbers(on)`` (looked up with ``getattr``): the match applies the user's setting through it.
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


# ----- a game's window parts ----------------------------------------------------------------------------------------
# The types of a game's window parts are defined here, below the view modules, because each view module builds its
# ``WINDOW_PARTS`` with them and :mod:`gameplay.ui.boards.window_parts` (which re-exports them) imports the view
# modules: defined beside that lookup, the classes would make an import cycle.
FigureCompute = Callable[[threading.Event, Callable[[str], None]], Any]
"""``compute(stop, progress)``: a figure's data, on the figure thread; ``progress(text)`` says what is being computed.
Once ``stop`` is set it may raise any exception (the figure was left: the exception is dropped)."""
FigureDraw = Callable[[Any, tuple[int, int], float], Any]
"""``figure(data, size_px, smallest_text_px)``: the matplotlib figure of the data."""


@dataclass(frozen=True)
class HelpFigure:
    """A figure the help window of a game offers behind a button (Pig's "Policy picture", issue 15): computed and
    drawn on the figure thread by the play room's figure scene (:class:`gameplay.ui.play.growth_scene.FigureScene`),
    so the game's parts describe it with headless functions (``ai``, ``gameplay.pictures``) and never import the
    scene that shows it."""

    label: str
    """The button's label, e.g. ``"Policy picture"``."""
    tip: str
    """The button's tool tip."""
    heading: str
    """What the figure shows, under it (and in "computing... HEADING" meanwhile)."""
    compute: FigureCompute
    """The figure's data (:data:`FigureCompute`)."""
    figure: FigureDraw
    """The figure of the data (:data:`FigureDraw`)."""
    stem: str
    """The file name stem of the figure's PNG export, e.g. ``"pig-policy"``."""


@dataclass(frozen=True)
class WindowParts:
    """What the window knows of one game beyond its rules record (:mod:`gameplay.ui.boards.window_parts`: where a
    game's parts are found). Every field has the default a new game gets: the generic view and help."""

    view: Callable[[Game[Any, Any]], BoardView] | None = None
    """The board view's class or factory, called with the game; ``None``: :class:`GenericView` (the position as
    text and the legal moves as buttons, or the grid of a game with ``has_board``)."""
    card_picture: Callable[[pygame.Surface, pygame.Rect], None] | None = None
    """``card_picture(surface, rect)`` draws the title screen card's picture; ``None``: the view draws the position
    after :attr:`card_moves`."""
    card_moves: tuple[Any, ...] = ()
    """Moves played from the start for the card's picture (a game in progress looks like the game); empty: the
    start."""
    rules_html: str = ""
    """The rules in short for the help window (pygame_gui HTML); empty: the record's plain ``rules_text``, else a
    sentence on the generic controls."""
    keys: tuple[tuple[str, str], ...] = ()
    """The game's own keys in the help, ``(key, what it does)``, shown before the common keys; empty: none."""
    hidden_keys: tuple[str, ...] = ()
    """Common keys the game uses for something else, left out of its help (Pig: ``"R / Ctrl+Y"``, R rolls); empty:
    none."""
    help_figure: HelpFigure | None = None
    """A figure behind a button of the help window (its label and tip are the figure's); ``None``: no button."""
    attract: tuple[str, str] | None = None
    """The attract show's two agent specs for this game (``("medium", "hard")``); ``None``: not in the show."""


# ----- the fallback: position text and one button per legal move --------------------------------------------------
class ButtonController:
    """Offers every legal move as a button (the panel scrolls them when they are more than its rows, and its move
    field takes them typed); board clicks are ignored."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game

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
        return [(self.game.format_move(state, m), m) for m in list(self.game.actions(state))]

    def prompt(self, state: Any) -> str:
        """Hint for the status line."""
        return "press a move's button or type it"


class GenericView:
    """Draws the position in the game's notation (for games whose board view does not exist yet); a game that
    draws itself as a grid (``has_board``: ``board(state)`` and ``move_at(row, col)``, a game file's) is drawn and
    clicked through :class:`GridView` instead (:attr:`grid`)."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self.grid: Any = None
        """The grid view of a game with ``has_board``, else ``None``."""
        if getattr(game, "has_board", False):
            self.grid = GridView(game)

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, state: Any, view: ViewState) -> None:
        """Draw a card with the position string, wrapped to the rectangle (or the grid); a game that displays
        itself (``has_display``: a game file's aima-python ``display(state)``) shows the lines it prints."""
        if self.grid is not None:
            self.grid.draw(surface, rect, state, view)
            return
        pygame.draw.rect(surface, (32, 37, 52), rect, border_radius=16)
        font = projector.default_font(34)
        shown = getattr(self.game, "display_text", None) if getattr(self.game, "has_display", False) else None
        try:
            text = str(shown(state)) if shown is not None else self.game.format_position(state)
        except GameError as e:  # the file's display() failed: say so on the card
            text = str(e)
        width = max(8, (rect.width - 48) // max(1, font.size("M")[0]))
        lines = [part[i:i + width] for part in text.split("\n") for i in range(0, max(1, len(part)), width)] or [""]
        y = rect.y + 32
        for line in lines:
            img = font.render(line, True, (226, 231, 242))
            surface.blit(img, (rect.x + 24, y))
            y += img.get_height() + 6

    def draw_hint(self, surface: pygame.Surface, rect: pygame.Rect, move: Any, width: int,
                  colour: tuple[int, int, int]) -> bool:
        """The grid rings the hinted move's cell; the text card cannot (False: the hint is written)."""
        return self.grid is not None and bool(self.grid.draw_hint(surface, rect, move, width, colour))

    def hit_test(self, rect: pygame.Rect, state: Any, pos: tuple[int, int]) -> Any | None:
        """No clickable targets (the grid's cell ``(row, col)``)."""
        return None if self.grid is None else self.grid.hit_test(rect, state, pos)

    def make_controller(self) -> InputController:
        """A :class:`ButtonController` (the grid's controller)."""
        return ButtonController(self.game) if self.grid is None else self.grid.make_controller()


# ----- the generic grid view ----------------------------------------------------------------------------------------
# The generic grid view: any game that draws itself as a grid of short strings.
#
# A game offers ``board(state)`` (rows of short strings: ``"X"``, ``"."``, ``"K2"``...) and ``move_at(row, col)``
# (the move a click on that cell means, or ``None``), as a game file may (:mod:`gameplay.rules.game_file`). The view
# draws the cells as tiles with their text, the cell under the mouse lit when a click there is a legal move, the
# last move's cell outlined; a click plays ``move_at(row, col)`` when it is legal. Moves no cell stands for (a
# "pass") are offered as buttons. Empty cells are ``""``, ``"."``, ``" "``, ``"-"`` or ``"_"``. The view knows
# nothing of any particular game; each distinct text gets a colour in the order it first appears (the first
# player's pieces in the first player's colour, usually).
#
# A file's error while drawing (a :class:`~gameplay.rules.base.GameError`) is written on the board instead of
# stopping the window.
EMPTY = frozenset({"", ".", " ", "-", "_"})
"""Cell texts drawn as an empty tile."""


def _grid(game: Any, state: Any) -> list[list[str]]:
    rows = game.board(state)
    return [[str(c) for c in row] for row in rows]


class GridController:
    """A click on a cell plays ``move_at(row, col)`` when it is legal; moves no cell stands for are buttons."""

    def __init__(self, game: Any) -> None:
        self.game = game

    @property
    def selected(self) -> tuple[Any, ...]:
        """Always empty: one click makes a move."""
        return ()

    def reset(self) -> None:
        """Nothing to forget."""

    def cell_moves(self, state: Any) -> dict[tuple[int, int], Any]:
        """The legal moves a click makes, by cell ``(row, col)``."""
        legal = list(self.game.actions(state))
        out: dict[tuple[int, int], Any] = {}
        for r, row in enumerate(_grid(self.game, state)):
            for c in range(len(row)):
                move = self.game.move_at(r, c)
                if move is not None and move in legal:
                    out[(r, c)] = move
        return out

    def click(self, state: Any, target: Any) -> Any | None:
        """The legal move of the clicked cell, or ``None``."""
        if target is None or self.game.is_chance(state) or self.game.is_terminal(state):
            return None
        try:
            return self.cell_moves(state).get(target)
        except GameError:
            return None

    def actions(self, state: Any) -> Sequence[tuple[str, Any]]:
        """Buttons for the legal moves no cell stands for (a pass); usually none."""
        if self.game.is_chance(state) or self.game.is_terminal(state):
            return []
        try:
            on_board = list(self.cell_moves(state).values())
            return [(self.game.format_move(state, m), m) for m in self.game.actions(state) if m not in on_board]
        except GameError:
            return []

    def prompt(self, state: Any) -> str:
        """Hint for the status line: "click a cell" while a cell makes a legal move; else (every legal move is one
        no cell stands for, a pass) the move buttons."""
        try:
            on_board = bool(self.cell_moves(state))
        except GameError:
            on_board = False
        return "click a cell" if on_board else "no cell to click: press a move's button or type it"


class GridView:
    """Draws ``board(state)`` as a grid of tiles with their text (see the module docstring)."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game: Any = game
        self._colours: dict[str, int] = {}
        self._dims: tuple[int, int] | None = None
        """Rows and columns of the grid last drawn (the hint is drawn on it)."""

    def _geometry(self, rect: pygame.Rect, rows: int, cols: int) -> tuple[pygame.Rect, int]:
        """The board's square-celled rectangle centred in ``rect`` and its cell size in pixels."""
        pad = max(8, min(rect.width, rect.height) // 24)
        cell = max(4, min((rect.width - 2 * pad) // max(1, cols), (rect.height - 2 * pad) // max(1, rows)))
        board = pygame.Rect(0, 0, cell * cols, cell * rows)
        board.center = rect.center
        return board, cell

    def _font_for(self, size: int) -> pygame.font.Font:
        return projector.ui_font(size, bold=True)

    def _colour(self, text: str) -> tuple[int, int, int]:
        pal = projector.palette()
        choices = (pal.players[0], pal.players[1], pal.accent, pal.text)
        index = self._colours.setdefault(text, len(self._colours))
        return choices[index % len(choices)]

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, state: Any, view: ViewState) -> None:
        """Draw the grid into ``rect`` (a file's error instead, in words)."""
        pal = projector.palette()
        try:
            grid = _grid(self.game, state)
            last = self._last_cells(grid, view.last_move)
            hover_move = None
            if view.interactive and isinstance(view.hover, tuple):
                hover_move = GridController(self.game).cell_moves(state).get(view.hover)
        except GameError as e:
            pygame.draw.rect(surface, pal.board, rect, border_radius=16)
            font = self._font_for(max(12, projector.px(16)))
            surface.blit(font.render(str(e)[:90], True, pal.text), (rect.x + 16, rect.y + 16))
            return
        rows, cols = len(grid), max((len(r) for r in grid), default=1)
        self._dims = (rows, cols)
        board, cell = self._geometry(rect, rows, cols)
        pygame.draw.rect(surface, pal.board, board.inflate(cell // 6, cell // 6), border_radius=max(6, cell // 8))
        longest = max((len(t) for row in grid for t in row if t not in EMPTY), default=1)
        font = self._font_for(max(10, min(int(cell * 0.62), int(cell * 1.1 / max(1, longest)))))
        for r, row in enumerate(grid):
            for c, text in enumerate(row):
                tile = pygame.Rect(board.x + c * cell, board.y + r * cell, cell, cell).inflate(-max(2, cell // 16),
                                                                                             -max(2, cell // 16))
                colour = pal.tile_hover if hover_move is not None and view.hover == (r, c) else \
                    pal.tile_last if (r, c) in last else pal.tile
                radius = max(3, cell // 10)
                pygame.draw.rect(surface, colour, tile, border_radius=radius)
                if (r, c) in last or pal.line_width > 1:
                    pygame.draw.rect(surface, pal.outline if (r, c) in last else pal.edge, tile,
                                     width=2 * pal.line_width, border_radius=radius)
                if text not in EMPTY:
                    img = font.render(text, True, self._colour(text))
                    surface.blit(img, img.get_rect(center=tile.center))

    def draw_hint(self, surface: pygame.Surface, rect: pygame.Rect, move: Any, width: int,
                  colour: tuple[int, int, int]) -> bool:
        """Ring the cells a click on which plays the hinted move; False when none does (the hint is then written)."""
        if self._dims is None:
            return False
        rows, cols = self._dims
        board, cell = self._geometry(rect, rows, cols)
        try:
            cells = [(r, c) for r in range(rows) for c in range(cols) if self.game.move_at(r, c) == move]
        except GameError:
            return False
        for r, c in cells:
            tile = pygame.Rect(board.x + c * cell, board.y + r * cell, cell, cell).inflate(-6, -6)
            pygame.draw.rect(surface, colour, tile, width, border_radius=max(4, cell // 10))
        return bool(cells)

    def _last_cells(self, grid: list[list[str]], move: Any) -> set[tuple[int, int]]:
        if move is None:
            return set()
        return {(r, c) for r, row in enumerate(grid) for c in range(len(row)) if self.game.move_at(r, c) == move}

    def cell_centre(self, rect: pygame.Rect, state: Any, row: int, col: int) -> tuple[int, int]:
        """Pixel centre of the cell ``(row, col)`` when ``state``'s grid fills ``rect`` (scripted clicks, tests).

        Raises:
            GameError: the game file's ``board(state)`` fails.
        """
        grid = _grid(self.game, state)
        board, cell = self._geometry(rect, len(grid), max((len(r) for r in grid), default=1))
        return board.x + col * cell + cell // 2, board.y + row * cell + cell // 2

    def hit_test(self, rect: pygame.Rect, state: Any, pos: tuple[int, int]) -> Any | None:
        """The cell ``(row, col)`` at ``pos``, or ``None``."""
        try:
            grid = _grid(self.game, state)
        except GameError:
            return None
        rows, cols = len(grid), max((len(r) for r in grid), default=1)
        board, cell = self._geometry(rect, rows, cols)
        if not board.collidepoint(pos):
            return None
        r, c = (pos[1] - board.y) // cell, (pos[0] - board.x) // cell
        return (r, c) if r < rows and c < len(grid[r]) else None

    def make_controller(self) -> InputController:
        """A :class:`GridController`."""
        return GridController(self.game)
