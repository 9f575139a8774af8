"""The generic grid view: any game that draws itself as a grid of short strings.

A game offers ``board(state)`` (rows of short strings: ``"X"``, ``"."``, ``"K2"``...) and ``move_at(row, col)``
(the move a click on that cell means, or ``None``), as a game file may (:mod:`gameplay.rules.game_file`). The view
draws the cells as tiles with their text, the cell under the mouse lit when a click there is a legal move, the
last move's cell outlined; a click plays ``move_at(row, col)`` when it is legal. Moves no cell stands for (a
"pass") are offered as buttons. Empty cells are ``""``, ``"."``, ``" "``, ``"-"`` or ``"_"``. The view knows
nothing of any particular game; each distinct text gets a colour in the order it first appears (the first
player's pieces in the first player's colour, usually).

A file's error while drawing (a :class:`~gameplay.rules.base.GameError`) is written on the board instead of
stopping the window.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from gameplay.rules.base import Game, GameError
from gameplay.ui import projector
from gameplay.ui.board import InputController, ViewState

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
            return [(self.game.format_move(state, m), m) for m in self.game.actions(state) if m not in on_board][:24]
        except GameError:
            return []

    def prompt(self, state: Any) -> str:
        """Hint for the status line."""
        return "click a cell"


class GridView:
    """Draws ``board(state)`` as a grid of tiles with their text (see the module docstring)."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game: Any = game
        self._colours: dict[str, int] = {}
        self._font: pygame.font.Font | None = None
        self._font_size = 0

    def _geometry(self, rect: pygame.Rect, rows: int, cols: int) -> tuple[pygame.Rect, int]:
        """The board's square-celled rectangle centred in ``rect`` and its cell size in pixels."""
        pad = max(8, min(rect.width, rect.height) // 24)
        cell = max(4, min((rect.width - 2 * pad) // max(1, cols), (rect.height - 2 * pad) // max(1, rows)))
        board = pygame.Rect(0, 0, cell * cols, cell * rows)
        board.center = rect.center
        return board, cell

    def _font_for(self, size: int) -> pygame.font.Font:
        if self._font is None or self._font_size != size:
            self._font = projector.ui_font(size, bold=True)
            self._font_size = size
        return self._font

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

    def _last_cells(self, grid: list[list[str]], move: Any) -> set[tuple[int, int]]:
        if move is None:
            return set()
        return {(r, c) for r, row in enumerate(grid) for c in range(len(row)) if self.game.move_at(r, c) == move}

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
