"""The tic-tac-toe board view: nine rounded tiles, large X and O, hover preview, last move and winning line.

The pieces are drawn once per position on a 2x supersampled surface and smooth-scaled down (anti-aliased
edges), then cached; each frame only blits that layer and the hover preview, so drawing costs well under a
millisecond while a search runs on the worker thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from gameplay.rules.base import Game
from gameplay.rules.tictactoe import winning_line
from gameplay.ui.boards.board import InputController, ViewState, WindowParts
from gameplay.ui.widgets import projector

X_COLOUR = (79, 195, 247)
O_COLOUR = (255, 138, 101)
WIN_COLOUR = (255, 213, 79)
BOARD_BG = (30, 35, 50)
TILE = (42, 48, 68)
TILE_LAST = (55, 64, 92)
TILE_WIN = (78, 70, 44)
TILE_HOVER = (58, 67, 96)
INDEX_COLOUR = (92, 102, 130)
SUPERSAMPLE = 2
FADE_S = 0.25
"""Seconds of the last mark's fade-in at animation speed 1."""


class TicTacToeController:
    """One click on an empty cell is a move."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game

    @property
    def selected(self) -> tuple[Any, ...]:
        """Always empty: a move is a single click."""
        return ()

    def reset(self) -> None:
        """Nothing to forget."""

    def click(self, state: Any, target: Any) -> Any | None:
        """The clicked cell if it is a legal move, else ``None``."""
        if isinstance(target, int) and target in self.game.actions(state):
            return target
        return None

    def actions(self, state: Any) -> Sequence[tuple[str, Any]]:
        """No buttons: moves are board clicks."""
        return []

    def prompt(self, state: Any) -> str:
        """Hint for the status line."""
        return "click an empty cell"


class Geometry:
    """Pixel layout of the board inside a rectangle."""

    def __init__(self, rect: pygame.Rect) -> None:
        side = max(30, min(rect.width, rect.height))
        self.board = pygame.Rect(0, 0, side, side)
        self.board.center = rect.center
        self.pad = max(6, side // 36)
        self.gap = max(4, side // 48)
        self.cell = (side - 2 * self.pad - 2 * self.gap) / 3

    def tile(self, i: int) -> pygame.Rect:
        """Rectangle of cell ``i`` (0..8, row-major) in window coordinates."""
        r, c = divmod(i, 3)
        x = self.board.x + self.pad + c * (self.cell + self.gap)
        y = self.board.y + self.pad + r * (self.cell + self.gap)
        return pygame.Rect(round(x), round(y), round(self.cell), round(self.cell))

    def cell_at(self, pos: tuple[int, int]) -> int | None:
        """Cell under ``pos`` (the gaps count for the nearest cell), or ``None`` off the board."""
        x = pos[0] - self.board.x - self.pad
        y = pos[1] - self.board.y - self.pad
        span = 3 * self.cell + 2 * self.gap
        if not (0 <= x < span and 0 <= y < span):
            return None
        step = self.cell + self.gap
        return int(y // step) * 3 + int(x // step)


def _draw_mark(surf: pygame.Surface, mark: str, rect: pygame.Rect, colour: tuple[int, ...]) -> None:
    """Draw a big X or O centred in ``rect`` (thick strokes with round ends)."""
    w = max(3, rect.width // 9)
    inset = rect.width * 0.24
    if mark == "X":
        a = (rect.x + inset, rect.y + inset)
        b = (rect.right - inset, rect.bottom - inset)
        c = (rect.right - inset, rect.y + inset)
        d = (rect.x + inset, rect.bottom - inset)
        for p, q in ((a, b), (c, d)):
            pygame.draw.line(surf, colour, p, q, w)
            pygame.draw.circle(surf, colour, p, w / 2)
            pygame.draw.circle(surf, colour, q, w / 2)
    elif mark == "O":
        radius = rect.width / 2 - inset + w / 2
        pygame.draw.circle(surf, colour, rect.center, radius, w)


class TicTacToeView:
    """Draws a tic-tac-toe state (a 9-character board string); never changes it."""

    aspect = 1.0
    """The drawn board's width over its height (the grid is square): the side panel gets the width it cannot use."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self._layer_key: tuple[Any, ...] | None = None
        self._layer: pygame.Surface | None = None
        self._ghosts: dict[tuple[Any, ...], pygame.Surface] = {}
        self._font_size = 0
        """Pixel size of the cell numbers last drawn (0: none yet); the font comes from ``projector.ui_font``."""

    @property
    def label_font(self) -> pygame.font.Font | None:
        """The font the cell numbers were last drawn with (its pixel size follows the tiles and the interface
        scale), or ``None`` before the first draw."""
        return projector.ui_font(self._font_size) if self._font_size else None

    # -- BoardView ---------------------------------------------------------------------------------------------------
    def make_controller(self) -> InputController:
        """A :class:`TicTacToeController`."""
        return TicTacToeController(self.game)

    def hit_test(self, rect: pygame.Rect, state: Any, pos: tuple[int, int]) -> Any | None:
        """The cell index 0..8 under ``pos``, or ``None``."""
        return Geometry(rect).cell_at(pos)

    def draw_hint(self, surface: pygame.Surface, rect: pygame.Rect, move: Any, width: int,
                  colour: tuple[int, int, int]) -> bool:
        """Ring the hinted cell (``width`` pixels, pulsing); False when ``move`` is not a cell."""
        if not isinstance(move, int):
            return False
        tile = Geometry(rect).tile(move)
        pygame.draw.rect(surface, colour, tile.inflate(-6, -6), width, border_radius=max(4, tile.width // 10))
        pygame.draw.circle(surface, colour, tile.center, max(4, tile.width // 10))
        return True

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, state: Any, view: ViewState) -> None:
        """Draw ``state`` centred in ``rect``: tiles, marks, last move, winning line, hover preview."""
        geo = Geometry(rect)
        pal = projector.palette()
        key = (state, view.last_move, geo.board.size, pal, projector.scale())
        if key != self._layer_key or self._layer is None:
            self._layer = self._render_layer(state, view.last_move, geo)
            self._layer_key = key
        surface.blit(self._layer, geo.board.topleft)
        self._draw_fade(surface, geo, state, view)
        hover = view.hover
        if view.interactive and isinstance(hover, int) and 0 <= hover < 9 and state[hover] == ".":
            tile = geo.tile(hover)
            pygame.draw.rect(surface, pal.tile_hover, tile, border_radius=max(4, tile.width // 10))
            mark = "X" if view.to_move == 0 else "O"
            surface.blit(self._ghost(mark, tile.width), tile.topleft)

    def _draw_fade(self, surface: pygame.Surface, geo: Geometry, state: Any, view: ViewState) -> None:
        """The last mark fading in (cosmetic, :data:`FADE_S` at speed 1): a veil of the tile's colour over it,
        thinning out. The state has already changed; input and the AI never wait for it."""
        move = view.last_move
        t = view.animation(FADE_S)
        if t >= 1.0 or not isinstance(move, int) or not 0 <= move < 9 or winning_line(state):
            return
        tile = geo.tile(move)
        inset = max(3, tile.width // 14)
        veil = pygame.Surface(tile.inflate(-2 * inset, -2 * inset).size, pygame.SRCALPHA)
        pygame.draw.rect(veil, (*projector.palette().tile_last, round(255 * (1.0 - t))), veil.get_rect(),
                         border_radius=max(4, tile.width // 12))
        surface.blit(veil, (tile.x + inset, tile.y + inset))

    # -- rendering ---------------------------------------------------------------------------------------------------
    def _render_layer(self, state: str, last_move: Any, geo: Geometry) -> pygame.Surface:
        k = SUPERSAMPLE
        pal = projector.palette()
        side = geo.board.width
        big = pygame.Surface((side * k, side * k), pygame.SRCALPHA)
        pygame.draw.rect(big, pal.board, big.get_rect(), border_radius=side * k // 20)
        line = winning_line(state)
        win_cells = set(line) if line else set()
        off = pygame.Vector2(geo.board.topleft)
        tiles = []
        for i in range(9):
            t = geo.tile(i).move(-off.x, -off.y)
            t = pygame.Rect(t.x * k, t.y * k, t.width * k, t.height * k)
            tiles.append(t)
            colour = pal.tile_win if i in win_cells else pal.tile_last if i == last_move else pal.tile
            pygame.draw.rect(big, colour, t, border_radius=max(4, t.width // 10))
            if pal.line_width > 1:  # high contrast: every tile outlined
                pygame.draw.rect(big, pal.edge, t, width=k * pal.line_width, border_radius=max(4, t.width // 10))
            if i == last_move and i not in win_cells:
                pygame.draw.rect(big, pal.outline, t, width=max(2, k * 2) * pal.line_width,
                                 border_radius=max(4, t.width // 10))
            mark = state[i]
            if mark in "XO":
                _draw_mark(big, mark, t, pal.players[0] if mark == "X" else pal.players[1])
        if line:
            a, c = pygame.Vector2(tiles[line[0]].center), pygame.Vector2(tiles[line[2]].center)
            d = (c - a).normalize() * tiles[0].width * 0.32
            a, c = a - d, c + d
            w = max(4, tiles[0].width // 12)
            pygame.draw.line(big, pal.accent, a, c, w)
            pygame.draw.circle(big, pal.accent, a, w / 2)
            pygame.draw.circle(big, pal.accent, c, w / 2)
        layer = pygame.transform.smoothscale(big, (side, side))
        self._draw_indices(layer, geo, off)
        if pygame.display.get_surface() is not None:
            layer = layer.convert_alpha()
        return layer

    def _draw_indices(self, layer: pygame.Surface, geo: Geometry, off: pygame.Vector2) -> None:
        """Small cell numbers (the move notation, RULES.md) in each tile's corner.

        Their size in pixels follows the tile and the interface scale (at least 15 design pixels: 20 px in
        projector mode).
        """
        size = max(projector.px(15), round(geo.cell * 0.11))
        font = projector.ui_font(size)
        self._font_size = size
        colour = projector.palette().label
        for i in range(9):
            t = geo.tile(i).move(-off.x, -off.y)
            img = font.render(str(i), True, colour)
            layer.blit(img, (t.x + size // 3, t.y + size // 4))

    def _ghost(self, mark: str, size: int) -> pygame.Surface:
        """A translucent preview of ``mark`` for a tile of ``size`` pixels (cached)."""
        players = projector.palette().players
        key = (mark, size, players)
        if key not in self._ghosts:
            k = SUPERSAMPLE
            big = pygame.Surface((size * k, size * k), pygame.SRCALPHA)
            _draw_mark(big, mark, big.get_rect(), players[0] if mark == "X" else players[1])
            ghost = pygame.transform.smoothscale(big, (size, size))
            ghost.set_alpha(95)
            self._ghosts = {key: ghost}
        return self._ghosts[key]


WINDOW_PARTS = WindowParts(
    view=TicTacToeView,
    card_moves=(4, 0, 2, 6),
    rules_html=(
        "Two players take turns marking a cell of the 3x3 board; X moves first. "
        "Three in a row, column or diagonal wins; a full board without a line is a draw.<br>"
        "Cells are numbered 0..8 row by row from the top-left (the small numbers in the corners)."),
    keys=(("click", "mark a cell"), ("H", "hint: the expert's move"), ("S / L", "save / load the game (JSON)")),
    attract=("medium", "hard"),
)
"""Tic-tac-toe's window parts (:mod:`gameplay.ui.boards.window_parts` finds them by this module's name)."""
