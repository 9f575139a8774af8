"""The Connect Four board view: a blue board with 7x6 holes, red and yellow pieces falling in, the winning four.

Drawn in three cached layers, each supersampled 2x and smooth-scaled down (anti-aliased edges): the dark holes
behind, the pieces, and the board's front with the holes cut out. The last piece falls *behind* the front
(cosmetic, :data:`FALL_S`; the state has already changed, input and the AI never wait for it), so each frame only
blits the layers, the falling piece and the hover preview.

Targets are columns 1..7 (the moves): :meth:`Connect4View.hit_test` answers the column anywhere over it (its
number above the board, its holes). The controller plays a clicked column when it is not full, and the keys 1-7
(and the keypad's) through the match scene's ``shortcuts`` (key -> move) mechanism.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from gameplay.rules.base import Game
from gameplay.rules.connect4 import COLUMNS, LINE_MASKS, LINES, ROWS, Connect4State, bit
from gameplay.ui.boards.board import InputController, ViewState, WindowParts
from gameplay.ui.widgets import projector

RED = (229, 57, 53)
YELLOW = (253, 203, 46)
BOARD_BLUE = (28, 86, 196)
BOARD_EDGE = (18, 58, 140)
HOLE = (14, 18, 28)
HC_RED = (255, 72, 72)
"""Red in the high-contrast theme (brighter, against the black board)."""
WIN_RING = (255, 255, 255)
SUPERSAMPLE = 2
FALL_S = 0.32
"""Seconds of a piece's fall from the top to the bottom row at animation speed 1 (a shorter fall is quicker:
the time grows with the square root of the distance, as under gravity)."""
HEADER = 0.62
"""Height of the column numbers' strip above the board, in cells."""
FRAME = 0.22
"""The board's margin around the holes, in cells."""
HOLE_R = 0.39
"""Radius of a hole, in cells."""
PIECE_R = 0.415
"""Radius of a piece (a little larger than the hole: its rim hides behind the board), in cells."""


class Connect4Controller:
    """One click on a column (or its key 1-7) drops a piece there when the column is not full."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self.shortcuts: dict[int, int] = {}
        """Key (``pygame.K_*``) -> move: the digits 1-7 and the keypad's 1-7 drop in that column."""
        for c in range(1, COLUMNS + 1):
            self.shortcuts[getattr(pygame, f"K_{c}")] = c
            self.shortcuts[getattr(pygame, f"K_KP{c}")] = c

    @property
    def selected(self) -> tuple[Any, ...]:
        """Always empty: a move is a single click."""
        return ()

    def reset(self) -> None:
        """Nothing to forget."""

    def click(self, state: Any, target: Any) -> Any | None:
        """The clicked column if it is a legal move (not full, the game not over), else ``None``."""
        if isinstance(target, int) and not isinstance(target, bool) and target in self.game.actions(state):
            return target
        return None

    def actions(self, state: Any) -> Sequence[tuple[str, Any]]:
        """No buttons: moves are board clicks and the keys 1-7."""
        return []

    def prompt(self, state: Any) -> str:
        """Hint for the status line."""
        return "click a column or press 1-7"


class Geometry:
    """Pixel layout of the board inside a rectangle: the column numbers' strip on top, then the board.

    ``cell`` is the pitch of the holes in pixels (float); columns are 0-based here, rows 0 the bottom.
    """

    def __init__(self, rect: pygame.Rect) -> None:
        cell = min(rect.width / (COLUMNS + 2 * FRAME), rect.height / (ROWS + 2 * FRAME + HEADER))
        self.cell = max(6.0, cell)
        bw = round(self.cell * (COLUMNS + 2 * FRAME))
        bh = round(self.cell * (ROWS + 2 * FRAME))
        header = round(self.cell * HEADER)
        total = pygame.Rect(0, 0, bw, bh + header)
        total.center = rect.center
        self.header = pygame.Rect(total.x, total.y, bw, header)
        """The strip of the column numbers above the board."""
        self.board = pygame.Rect(total.x, total.y + header, bw, bh)
        """The board (frame and holes)."""
        self.frame = self.cell * FRAME

    def centre(self, column: int, row: int) -> tuple[float, float]:
        """Centre of the hole at ``column`` 0..6 and ``row`` 0..5 (0 the bottom), in window pixels."""
        x = self.board.x + self.frame + (column + 0.5) * self.cell
        y = self.board.bottom - self.frame - (row + 0.5) * self.cell
        return x, y

    def column_rect(self, column: int) -> pygame.Rect:
        """The strip of ``column`` 0..6 over the board and its number, in window pixels."""
        x = self.board.x + self.frame + column * self.cell
        return pygame.Rect(round(x), self.header.y, round(self.cell), self.board.bottom - self.header.y)

    def column_at(self, pos: tuple[int, int]) -> int | None:
        """Column 1..7 under ``pos`` (the frame's margins count for the nearest column), or ``None`` off the
        board and its numbers."""
        if not (self.header.top <= pos[1] < self.board.bottom and self.board.left <= pos[0] < self.board.right):
            return None
        c = int((pos[0] - self.board.x - self.frame) // self.cell)
        return min(COLUMNS, max(1, c + 1))


def pieces_of(state: Connect4State) -> list[tuple[int, int, int]]:
    """Every piece on the board as ``(column 0..6, row 0..5 from the bottom, player 0 / 1)``."""
    return [(c, r, 0 if state.first & bit(c, r) else 1)
            for c in range(COLUMNS) for r in range(ROWS) if state.mask & bit(c, r)]


def height(state: Connect4State, column: int) -> int:
    """Pieces in ``column`` 1..7: the row 0..5 the next piece lands on (6 when the column is full)."""
    return sum(1 for r in range(ROWS) if state.mask & bit(column - 1, r))


def winning_cells(state: Connect4State) -> set[tuple[int, int]]:
    """The cells ``(column, row)`` of every four in a row on the board (a move may make two at once)."""
    found: set[tuple[int, int]] = set()
    for player in (0, 1):
        stones = state.stones(player)
        for line, m in zip(LINES, LINE_MASKS):
            if stones & m == m:
                found.update(line)
    return found


def _piece_colours(player: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(fill, rim) of ``player``'s pieces in the current theme (high contrast: a brighter red and the theme's
    yellow; the sides are named Red and Yellow)."""
    pal = projector.palette()
    fill = (RED if player == 0 else YELLOW) if pal.name == "normal" else (HC_RED if player == 0 else pal.players[1])
    rim = tuple(round(v * 0.72) for v in fill)
    return fill, (rim[0], rim[1], rim[2])


def _draw_piece(surf: pygame.Surface, centre: tuple[float, float], radius: float, player: int) -> None:
    """One piece: a disc with a darker rim and an inner ring (high contrast: the second player's is hollow-marked,
    so the players differ without colour)."""
    fill, rim = _piece_colours(player)
    pygame.draw.circle(surf, rim, centre, radius)
    pygame.draw.circle(surf, fill, centre, radius * 0.86)
    pygame.draw.circle(surf, rim, centre, radius * 0.62, max(1, round(radius * 0.07)))
    if projector.palette().name != "normal" and player == 1:
        pygame.draw.circle(surf, (0, 0, 0), centre, radius * 0.3)


class Connect4View:
    """Draws a Connect Four state (:class:`~gameplay.rules.connect4.Connect4State`); never changes it."""

    aspect = (COLUMNS + 2 * FRAME) / (ROWS + 2 * FRAME + HEADER)
    """The drawn board's width over its height (the frame with the drop row above it): the side panel gets the
    width it cannot use."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self._front_key: tuple[Any, ...] | None = None
        self._front: pygame.Surface | None = None
        self._back: pygame.Surface | None = None
        self._pieces_key: tuple[Any, ...] | None = None
        self._pieces: pygame.Surface | None = None
        self._sprites: dict[tuple[Any, ...], pygame.Surface] = {}
        self._state: Any = None
        """The state last drawn (the hint's landing cell is read from it)."""

    # -- BoardView ---------------------------------------------------------------------------------------------------
    def make_controller(self) -> InputController:
        """A :class:`Connect4Controller` (clicks and the keys 1-7)."""
        return Connect4Controller(self.game)

    def hit_test(self, rect: pygame.Rect, state: Any, pos: tuple[int, int]) -> Any | None:
        """The column 1..7 under ``pos`` (anywhere over its holes or its number), or ``None``."""
        return Geometry(rect).column_at(pos)

    def draw_hint(self, surface: pygame.Surface, rect: pygame.Rect, move: Any, width: int,
                  colour: tuple[int, int, int]) -> bool:
        """Frame the hinted column and ring its landing cell (``width`` pixels); False when ``move`` is not a
        column 1..7."""
        if isinstance(move, bool) or not isinstance(move, int) or not 1 <= move <= COLUMNS:
            return False
        geo = Geometry(rect)
        strip = geo.column_rect(move - 1)
        pygame.draw.rect(surface, colour, strip, width, border_radius=max(4, strip.width // 3))
        state = self._state_or_none()
        if state is not None:
            row = height(state, move)
            if row < ROWS:
                pygame.draw.circle(surface, colour, geo.centre(move - 1, row), geo.cell * HOLE_R, width)
        return True

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, state: Any, view: ViewState) -> None:
        """Draw ``state`` centred in ``rect``: the column numbers, the board, the pieces (the last one falling in),
        the last move's dot, the winning four and, when a human is to move, the hovered column and its ghost."""
        self._state = state
        geo = Geometry(rect)
        falling = self._falling(state, view)
        self._ensure_layers(geo)
        key = (state, falling is not None, geo.board.size, projector.palette(), projector.scale())
        if key != self._pieces_key or self._pieces is None:
            self._pieces = self._render_pieces(state, geo, skip_last=falling is not None)
            self._pieces_key = key
        hover = view.hover if view.interactive and isinstance(view.hover, int) else None
        if hover is not None and not 1 <= hover <= COLUMNS:
            hover = None
        self._draw_header(surface, geo, hover, view.last_move)
        assert self._back is not None and self._front is not None
        surface.blit(self._back, geo.board.topleft)
        surface.blit(self._pieces, geo.board.topleft)
        if falling is not None:
            column, row, player, t = falling
            sprite = self._sprite(player, geo)
            x, y_end = geo.centre(column, row)
            y_start = geo.board.y - geo.cell * 0.5  # just above the board, hidden by the clip
            y = y_start + (y_end - y_start) * t * t  # accelerating, as under gravity
            clip = surface.get_clip()
            surface.set_clip(geo.board.clip(clip) if clip else geo.board)
            surface.blit(sprite, sprite.get_rect(center=(round(x), round(y))))
            surface.set_clip(clip)
        surface.blit(self._front, geo.board.topleft)
        if hover is not None:
            self._draw_hover(surface, geo, state, hover, view.to_move)
        if falling is None:
            self._draw_marks(surface, geo, state, view.last_move)

    # -- pieces and animation ----------------------------------------------------------------------------------------
    def _state_or_none(self) -> Connect4State | None:
        return self._state if isinstance(self._state, Connect4State) else None

    def _falling(self, state: Any, view: ViewState) -> tuple[int, int, int, float] | None:
        """The last piece while it falls: ``(column 0..6, row 0..5, player, progress 0..1)``; ``None`` when
        nothing falls (no last move, animations off, undo / load, or the fall is over)."""
        move = view.last_move
        if not isinstance(state, Connect4State) or isinstance(move, bool) or not isinstance(move, int) \
                or not 1 <= move <= COLUMNS:
            return None
        row = height(state, move) - 1
        if row < 0:
            return None
        drop = ROWS - row  # cells fallen, from just above the board
        t = view.animation(FALL_S * (drop / ROWS) ** 0.5)
        if t >= 1.0:
            return None
        player = 0 if state.first & bit(move - 1, row) else 1
        return move - 1, row, player, t

    def _ensure_layers(self, geo: Geometry) -> None:
        """The holes' backdrop and the board's front with the holes cut out (cached per size and theme)."""
        pal = projector.palette()
        key = (geo.board.size, pal)
        if key == self._front_key and self._front is not None:
            return
        k = SUPERSAMPLE
        w, h = geo.board.size
        radius = max(4, round(geo.cell * k * 0.12))
        back = pygame.Surface((w * k, h * k), pygame.SRCALPHA)
        front = pygame.Surface((w * k, h * k), pygame.SRCALPHA)
        normal = pal.name == "normal"
        hole = HOLE if normal else (0, 0, 0)
        pygame.draw.rect(back, hole, back.get_rect(), border_radius=radius)
        pygame.draw.rect(front, BOARD_BLUE if normal else (0, 0, 0), front.get_rect(), border_radius=radius)
        edge = BOARD_EDGE if normal else pal.edge
        pygame.draw.rect(front, edge, front.get_rect(), width=k * 2 * pal.line_width, border_radius=radius)
        for c in range(COLUMNS):
            for r in range(ROWS):
                x, y = geo.centre(c, r)
                centre = ((x - geo.board.x) * k, (y - geo.board.y) * k)
                if not normal:
                    pygame.draw.circle(front, pal.edge, centre, (HOLE_R * geo.cell + pal.line_width) * k)
                else:
                    pygame.draw.circle(front, BOARD_EDGE, centre, (HOLE_R + 0.035) * geo.cell * k)
                pygame.draw.circle(front, (0, 0, 0, 0), centre, HOLE_R * geo.cell * k)  # cut out: transparent
        self._back = self._scaled(back, geo.board.size)
        self._front = self._scaled(front, geo.board.size)
        self._front_key = key

    @staticmethod
    def _scaled(big: pygame.Surface, size: tuple[int, int]) -> pygame.Surface:
        small = pygame.transform.smoothscale(big, size)
        return small.convert_alpha() if pygame.display.get_surface() is not None else small

    def _render_pieces(self, state: Any, geo: Geometry, *, skip_last: bool) -> pygame.Surface:
        """Every piece of ``state`` (but the last one while it falls) on a transparent layer the board's size."""
        k = SUPERSAMPLE
        big = pygame.Surface((geo.board.width * k, geo.board.height * k), pygame.SRCALPHA)
        if isinstance(state, Connect4State):
            last = None
            if skip_last and state.moves:
                col = int(state.moves[-1]) - 1
                last = (col, height(state, col + 1) - 1)
            for c, r, player in pieces_of(state):
                if (c, r) == last:
                    continue
                x, y = geo.centre(c, r)
                _draw_piece(big, ((x - geo.board.x) * k, (y - geo.board.y) * k), PIECE_R * geo.cell * k, player)
        return self._scaled(big, geo.board.size)

    def _sprite(self, player: int, geo: Geometry, alpha: int = 255) -> pygame.Surface:
        """One piece the size of a cell (cached): the falling piece (``alpha`` 255) or the hover's ghost."""
        side = max(2, round(geo.cell))
        key = (player, side, alpha, projector.palette())
        if key not in self._sprites:
            k = SUPERSAMPLE
            big = pygame.Surface((side * k, side * k), pygame.SRCALPHA)
            _draw_piece(big, (side * k / 2, side * k / 2), PIECE_R * geo.cell * k, player)
            sprite = pygame.transform.smoothscale(big, (side, side))
            if alpha < 255:
                sprite.set_alpha(alpha)
            if len(self._sprites) > 8:
                self._sprites.clear()
            self._sprites[key] = sprite
        return self._sprites[key]

    # -- overlays ----------------------------------------------------------------------------------------------------
    def _draw_header(self, surface: pygame.Surface, geo: Geometry, hover: int | None, last_move: Any) -> None:
        """The column numbers 1..7 above the board (the move notation); the hovered one in the accent colour."""
        pal = projector.palette()
        size = round(max(10.0, min(geo.cell * 0.42, geo.header.height * 0.8)))
        if geo.cell < 26:  # a thumbnail (the menu card): no numbers
            return
        size = max(min(projector.px(15), geo.header.height - 2), size)
        font = projector.ui_font(size, bold=True)
        for c in range(COLUMNS):
            colour = pal.accent if hover == c + 1 else pal.text if last_move == c + 1 else pal.muted
            img = font.render(str(c + 1), True, colour)
            x = geo.centre(c, 0)[0]
            surface.blit(img, img.get_rect(center=(round(x), geo.header.centery)))

    def _draw_hover(self, surface: pygame.Surface, geo: Geometry, state: Any, column: int, to_move: int) -> None:
        """The hovered column lit up, and a ghost piece of the player to move at its landing cell."""
        strip = geo.column_rect(column - 1).clip(geo.board)
        veil = pygame.Surface(strip.size, pygame.SRCALPHA)
        pygame.draw.rect(veil, (255, 255, 255, 38), veil.get_rect(), border_radius=max(3, strip.width // 3))
        surface.blit(veil, strip.topleft)
        if not isinstance(state, Connect4State):
            return
        row = height(state, column)
        if row >= ROWS or not self.game.actions(state):
            return
        ghost = self._sprite(to_move, geo, alpha=120)
        x, y = geo.centre(column - 1, row)
        surface.blit(ghost, ghost.get_rect(center=(round(x), round(y))))

    def _draw_marks(self, surface: pygame.Surface, geo: Geometry, state: Any, last_move: Any) -> None:
        """A dot on the last piece, and the winning four ringed in white with a line through them."""
        if not isinstance(state, Connect4State):
            return
        win = winning_cells(state)
        if isinstance(last_move, int) and not isinstance(last_move, bool) and 1 <= last_move <= COLUMNS \
                and state.moves and int(state.moves[-1]) == last_move:
            row = height(state, last_move) - 1
            if row >= 0 and (last_move - 1, row) not in win:
                pygame.draw.circle(surface, WIN_RING, geo.centre(last_move - 1, row), max(2.0, geo.cell * 0.09))
        if not win:
            return
        ring = max(2, round(geo.cell * 0.07))
        for c, r in win:
            pygame.draw.circle(surface, WIN_RING, geo.centre(c, r), geo.cell * PIECE_R * 0.93, ring)
        for line in LINES:
            if all(cell in win for cell in line):
                a, b = geo.centre(*line[0]), geo.centre(*line[-1])
                w = max(3, round(geo.cell * 0.09))
                pygame.draw.line(surface, WIN_RING, a, b, w)
                for end in (a, b):
                    pygame.draw.circle(surface, WIN_RING, end, w / 2)


WINDOW_PARTS = WindowParts(
    view=Connect4View,
    card_moves=(4, 4, 3, 5, 4),
    rules_html=(
        "Two players take turns dropping a piece into one of the 7 columns; it falls to the lowest free cell. "
        "Red moves first.<br>Four of your pieces in a row (across, up or diagonally) win at once; a full board "
        "without four is a draw.<br>Columns are numbered 1..7 from the left; a position is the columns played "
        "from the empty board (\"4453\"), as the exact solvers write it."),
    keys=(("click / 1-7", "drop a piece in a column"), ("H", "hint: the expert's move"),
          ("S / L", "save / load the game (JSON)")),
)
"""Connect Four's window parts (:mod:`gameplay.ui.boards.window_parts` finds them by this module's name); not in the
attract show."""
