"""The English checkers table: board view and click-to-move controller (the panel's PDN / FEN tools: checkers_tools).

* :class:`CheckersView` draws the 8x8 board (the 32 dark squares, optional PDN square numbers), the men and the
  crowned kings, the last move (from and to squares, the jump path and the captured squares), and per frame the
  selected piece with its legal destinations, the hover square and the compulsory-capture cue. The board can be
  flipped; by default the human's side is at the bottom (Black when Black is human, else White, as in the
  standard diagram). The static layer (squares, pieces, last move) is drawn 2x supersampled, smooth-scaled and
  cached per position, so a frame costs little while the AI searches.
* :class:`CheckersController` turns clicks into a legal move from the legal move list: click a piece, then its
  destination; a multi-jump by clicking each landing square, or only the final square when exactly one legal
  move from the selected piece ends there. Trying a quiet move while a capture is compulsory sets a cue
  (``"Capture is compulsory: 14x23"``; the pieces that must capture flash).
* :meth:`CheckersView.make_tools` gives the panel's PDN / FEN commands
  (:class:`gameplay.ui.boards.checkers_tools.CheckersTools`).

Nothing here runs pygame code at import time.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pygame

from gameplay.rules.base import Game
from gameplay.rules.checkers.checkers_board import (
    BLACK,
    CheckersMove,
    CheckersState,
    rowcol_to_square,
    square_to_rowcol,
)
from gameplay.rules.checkers.checkers_notation import format_move_text
from gameplay.ui.boards.board import InputController, ViewState, WindowParts
from gameplay.ui.boards.checkers_tools import CheckersTools
from gameplay.ui.widgets import projector

if TYPE_CHECKING:
    from gameplay.ui.boards.match_host import MatchHost

LIGHT_SQUARE = (224, 211, 180)
DARK_SQUARE = (72, 112, 88)
FRAME = (40, 46, 64)
FRAME_EDGE = (70, 80, 108)
LAST_MOVE = (246, 206, 92)
SLIDE_S = 0.18
"""Seconds per step of the sliding-piece animation at animation speed 1."""
BLACK_PIECE = (40, 42, 50)
BLACK_RIM = (104, 110, 126)
WHITE_PIECE = (242, 234, 216)
WHITE_RIM = (176, 164, 140)
CROWN = (245, 190, 60)
CROWN_EDGE = (120, 80, 10)
SELECT = (79, 195, 247)
CUE = (255, 122, 72)
NUMBER = (214, 236, 220)
SUPERSAMPLE = 2
CUE_FLASH_S = 1.8
"""Seconds the pieces that must capture flash after a refused move (they stay outlined afterwards)."""
TOAST_S = 3.5
"""Seconds the compulsory-capture message stays on the board."""
# ----- geometry -----------------------------------------------------------------------------------------------------
class Geometry:
    """Pixel layout of the board inside a rectangle, in the standard orientation or flipped.

    Unflipped is the standard diagram: row 0 (squares 1..4, Black's home row) at the top, White at the bottom.
    Flipped turns the board by 180 degrees (Black at the bottom).
    """

    def __init__(self, rect: pygame.Rect, flipped: bool) -> None:
        side = max(48, min(rect.width, rect.height))
        self.board = pygame.Rect(0, 0, side, side)
        self.board.center = rect.center
        self.flipped = flipped
        self.pad = max(6, side // 32)
        self.cell = (side - 2 * self.pad) / 8

    def square_rect(self, square: int) -> pygame.Rect:
        """Rectangle of PDN square ``square`` (1..32) in window coordinates."""
        row, col = square_to_rowcol(square)
        if self.flipped:
            row, col = 7 - row, 7 - col
        x = self.board.x + self.pad + col * self.cell
        y = self.board.y + self.pad + row * self.cell
        return pygame.Rect(round(x), round(y), round(x + self.cell) - round(x), round(y + self.cell) - round(y))

    def centre(self, square: int) -> tuple[float, float]:
        """Centre of ``square`` in window coordinates (sub-pixel)."""
        row, col = square_to_rowcol(square)
        if self.flipped:
            row, col = 7 - row, 7 - col
        return (self.board.x + self.pad + (col + 0.5) * self.cell, self.board.y + self.pad + (row + 0.5) * self.cell)

    def square_at(self, pos: tuple[int, int]) -> int | None:
        """The PDN square under ``pos``, or ``None`` on a light square or off the board."""
        x = pos[0] - self.board.x - self.pad
        y = pos[1] - self.board.y - self.pad
        if not (0 <= x < 8 * self.cell and 0 <= y < 8 * self.cell):
            return None
        row, col = int(y // self.cell), int(x // self.cell)
        if self.flipped:
            row, col = 7 - row, 7 - col
        return rowcol_to_square(row, col)


def quiet_steps(state: CheckersState, square: int) -> list[int]:
    """The empty squares the piece on ``square`` could step to if no capture were compulsory (ascending)."""
    piece = state.piece_at(square)
    if piece is None:
        return []
    row, col = square_to_rowcol(square)
    drows: tuple[int, ...]
    if piece in "BW":
        drows = (-1, 1)
    else:
        drows = (1,) if piece == "b" else (-1,)
    out = []
    for dr in drows:
        for dc in (-1, 1):
            sq = rowcol_to_square(row + dr, col + dc)
            if sq is not None and state.piece_at(sq) is None:
                out.append(sq)
    return sorted(out)


def _own(state: CheckersState, square: int) -> bool:
    """True when ``square`` holds a piece of the side to move."""
    piece = state.piece_at(square)
    return piece is not None and (piece.lower() == "b") == (state.turn == BLACK)


def _list_moves(moves: Sequence[CheckersMove], limit: int = 3) -> str:
    texts = [format_move_text(m) for m in moves[:limit]]
    return ", ".join(texts) + (", …" if len(moves) > limit else "")


# ----- input --------------------------------------------------------------------------------------------------------
class CheckersController:
    """Collects clicks (a piece, then landing squares) into a legal :class:`CheckersMove`.

    Args:
        game: the checkers game (for its legal move list).

    Attributes:
        cue: ``(serial, message, squares)`` after a refused move (the message for the status line and the board,
            the squares of the pieces that must capture, or of the selected piece), or ``None``; ``serial``
            grows with each new cue so the view can restart its flash.
    """

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self._selected: tuple[int, ...] = ()
        self.cue: tuple[int, str, tuple[int, ...]] | None = None
        self._serial = 0

    @property
    def selected(self) -> tuple[int, ...]:
        """The selected piece's square, then the landing squares clicked so far (a prefix of a legal path)."""
        return self._selected

    def reset(self) -> None:
        """Forget the selection and the cue (new position, undo, new game)."""
        self._selected = ()
        self.cue = None

    def _set_cue(self, message: str, squares: Sequence[int]) -> None:
        self._serial += 1
        self.cue = (self._serial, message, tuple(squares))

    def candidates(self, state: CheckersState) -> list[CheckersMove]:
        """The legal moves that continue the current selection (all legal moves when nothing is selected)."""
        sel = self._selected
        return [m for m in self.game.actions(state) if m.path[:len(sel)] == sel]

    def click(self, state: Any, target: Any) -> CheckersMove | None:
        """Handle a click on PDN square ``target``.

        A landing square that continues the selection extends it (and plays the move once its path is complete);
        a square on which exactly one continuing move ends plays that move; a piece of the side to move selects
        it (or, when it cannot move, shows why); a quiet step while a capture is compulsory sets :attr:`cue`.

        Returns:
            The complete legal move to play, or ``None``.
        """
        if not isinstance(target, int) or not 1 <= target <= 32:
            return None
        moves: Sequence[CheckersMove] = self.game.actions(state)
        if not moves:
            return None
        sel = self._selected
        if sel:
            cands = [m for m in moves if m.path[:len(sel)] == sel]
            onward = [m for m in cands if len(m.path) > len(sel) and m.path[len(sel)] == target]
            if onward:
                path = sel + (target,)
                done = [m for m in onward if m.path == path]
                if done and len(onward) == 1:
                    return self._played(done[0])
                self._selected = path
                self.cue = None
                return None
            ending = [m for m in cands if m.end == target]
            if len(ending) == 1:
                return self._played(ending[0])
            if len(ending) > 1:
                self._set_cue(f"Several jumps end on {target}: click each landing square", (sel[0],))
                return None
        if _own(state, target) and not (sel and len(sel) > 1 and target == sel[0]):
            mine = [m for m in moves if m.start == target]
            if mine:
                self._selected = (target,) if sel != (target,) else ()
                self.cue = None
                return None
            self._selected = ()
            if moves[0].is_capture and quiet_steps(state, target):
                self._refuse_quiet(moves)
            else:
                self._set_cue(f"The piece on {target} cannot move", (target,))
            return None
        if sel and moves[0].is_capture and target in quiet_steps(state, sel[0]):
            self._refuse_quiet(moves)
            return None
        if sel and len(sel) == 1 and state.piece_at(target) is None:
            self._selected = ()  # a click on an unrelated empty square drops the selection
        return None

    def _refuse_quiet(self, moves: Sequence[CheckersMove]) -> None:
        starts = sorted({m.start for m in moves})
        self._set_cue(f"Capture is compulsory: {_list_moves(moves)}", starts)

    def _played(self, move: CheckersMove) -> CheckersMove:
        self._selected = ()
        self.cue = None
        return move

    def actions(self, state: Any) -> Sequence[tuple[str, Any]]:
        """No move buttons: moves are board clicks."""
        return []

    def prompt(self, state: Any) -> str:
        """Hint for the status line (the cue's message while one is shown)."""
        if self.cue is not None:
            return self.cue[1]
        if self._selected:
            cands = self.candidates(state)
            if cands and cands[0].is_capture:
                return "click the next landing square, or the final one"
            return "click a marked square"
        moves = self.game.actions(state)
        if moves and moves[0].is_capture:
            return "you must capture: click a marked piece"
        return "click a piece, then its destination"


# ----- drawing ------------------------------------------------------------------------------------------------------
def _draw_crown(surf: pygame.Surface, centre: tuple[float, float], size: float) -> None:
    """A gold three-pointed crown of width ``size`` centred at ``centre`` (with a dark outline)."""
    cx, cy = centre
    w, h = size, size * 0.72
    top, base = cy - h / 2, cy + h / 2
    band = base - h * 0.28
    pts = [(cx - w / 2, base), (cx - w / 2, top + h * 0.12), (cx - w / 4, band - h * 0.16), (cx, top),
           (cx + w / 4, band - h * 0.16), (cx + w / 2, top + h * 0.12), (cx + w / 2, base)]
    pygame.draw.polygon(surf, CROWN, pts)
    pygame.draw.polygon(surf, CROWN_EDGE, pts, max(1, int(size / 14)))
    pygame.draw.line(surf, CROWN_EDGE, (cx - w / 2, band), (cx + w / 2, band), max(1, int(size / 16)))
    for p in (pts[1], pts[3], pts[5]):
        pygame.draw.circle(surf, CROWN, p, size / 9)
        pygame.draw.circle(surf, CROWN_EDGE, p, size / 9, max(1, int(size / 20)))


NUMBER_BACKING = (20, 40, 28, 215)
"""The backing of a square number drawn over a piece: the dark square's green, darker, nearly opaque."""


def number_backing(size: tuple[int, int], font_px: int) -> pygame.Surface:
    """A rounded dark pill a little larger than a number's image of ``size`` pixels (font ``font_px`` px)."""
    pad_x, pad_y = max(2, font_px // 5), max(1, font_px // 10)
    back = pygame.Surface((size[0] + 2 * pad_x, size[1] + 2 * pad_y), pygame.SRCALPHA)
    pygame.draw.rect(back, NUMBER_BACKING, back.get_rect(), border_radius=max(2, font_px // 3))
    return back


def _draw_piece(surf: pygame.Surface, centre: tuple[float, float], radius: float, piece: str) -> None:
    """A man or (upper-case ``piece``) a king: a shaded disc with a rim groove; kings carry a crown."""
    black = piece.lower() == "b"
    body, rim = (BLACK_PIECE, BLACK_RIM) if black else (WHITE_PIECE, WHITE_RIM)
    cx, cy = centre
    pygame.draw.circle(surf, (0, 0, 0, 90), (cx + radius * 0.06, cy + radius * 0.12), radius)
    pygame.draw.circle(surf, rim, centre, radius)
    pygame.draw.circle(surf, body, centre, radius * 0.9)
    pygame.draw.circle(surf, rim, centre, radius * 0.66, max(1, int(radius * 0.07)))
    if piece.isupper():
        _draw_crown(surf, (cx, cy + radius * 0.02), radius * 0.95)


class CheckersView:
    """Draws a checkers state; never changes it.

    Args:
        game: the checkers game.
        show_numbers: draw the PDN square numbers (the user's "square numbers" setting).

    Attributes:
        flipped: Black at the bottom (the standard diagram, unflipped, has White at the bottom).
        show_numbers: draw the PDN square numbers on the dark squares.
    """

    aspect = 1.0
    """The drawn board's width over its height (the board is square): the side panel gets the width it cannot use."""

    def __init__(self, game: Game[Any, Any], show_numbers: bool = True) -> None:
        self.game = game
        self.flipped = False
        self.show_numbers = show_numbers
        self._layer_key: tuple[Any, ...] | None = None
        self._layer: pygame.Surface | None = None
        self._font_size = 0
        """Pixel size of the square numbers last drawn (0: none yet); fonts come from ``projector.ui_font``."""
        self._cue_serial = -1
        self._cue_since = 0.0

    @property
    def label_font(self) -> pygame.font.Font | None:
        """The font the square numbers were last drawn with (its pixel size follows the squares and the interface
        scale), or ``None`` before they were first drawn."""
        return projector.ui_font(self._font_size) if self._font_size else None

    # -- BoardView ---------------------------------------------------------------------------------------------------
    def make_controller(self) -> InputController:
        """A :class:`CheckersController`."""
        return CheckersController(self.game)

    def make_tools(self, scene: MatchHost) -> CheckersTools:
        """The panel's extra commands for ``scene``; also turns the board so a human side is at the bottom."""
        self.flipped = scene.is_human(BLACK)
        return CheckersTools(scene, self)

    def flip(self) -> None:
        """Turn the board by 180 degrees (hit-testing follows)."""
        self.flipped = not self.flipped

    def toggle_numbers(self) -> None:
        """Show or hide the PDN square numbers."""
        self.show_numbers = not self.show_numbers

    def show_square_numbers(self, on: bool) -> None:
        """Show (``on``) or hide the PDN square numbers: the user's setting, applied by the match that holds the
        view."""
        self.show_numbers = on

    def hit_test(self, rect: pygame.Rect, state: Any, pos: tuple[int, int]) -> int | None:
        """The PDN square (1..32) under ``pos``, or ``None`` on a light square or off the board."""
        return Geometry(rect, self.flipped).square_at(pos)

    def square_centre(self, rect: pygame.Rect, square: int) -> tuple[int, int]:
        """Pixel centre of ``square`` when the board fills ``rect`` (for tests and scripted clicks)."""
        x, y = Geometry(rect, self.flipped).centre(square)
        return round(x), round(y)

    def draw_hint(self, surface: pygame.Surface, rect: pygame.Rect, move: Any, width: int,
                  colour: tuple[int, int, int]) -> bool:
        """Draw the hinted move's path, a ring on its first square (``width`` pixels, pulsing) and on its last;
        False when ``move`` has no path."""
        if not hasattr(move, "path"):
            return False
        cell = min(rect.width, rect.height) / 8.4
        pts = [self.square_centre(rect, sq) for sq in move.path]
        pygame.draw.lines(surface, colour, False, pts, max(3, round(cell * 0.08)))
        pygame.draw.circle(surface, colour, pts[0], cell * 0.44, width)
        pygame.draw.circle(surface, colour, pts[-1], cell * 0.24, width)
        return True

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, state: Any, view: ViewState) -> None:
        """Draw ``state`` centred in ``rect``: the cached board layer, then selection, hover and cue."""
        geo = Geometry(rect, self.flipped)
        key = (state, view.last_move, geo.board.size, self.flipped, self.show_numbers, projector.palette(),
               projector.scale())
        if key != self._layer_key or self._layer is None:
            self._layer = self._render_layer(state, view.last_move, geo)
            self._layer_key = key
        surface.blit(self._layer, geo.board.topleft)
        self._draw_slide(surface, geo, view)
        if not view.interactive:
            return
        moves: Sequence[CheckersMove] = self.game.actions(state)
        sel = tuple(view.selected)
        cands = [m for m in moves if m.path[:len(sel)] == sel]
        ring = max(2, round(geo.cell * 0.06))
        radius = geo.cell * 0.4
        if sel:
            pts = [geo.centre(s) for s in sel]
            if len(pts) > 1:
                pygame.draw.lines(surface, SELECT, False, pts, max(2, ring))
                for p in pts[1:]:
                    pygame.draw.circle(surface, SELECT, p, geo.cell * 0.14)
            pygame.draw.circle(surface, SELECT, pts[0], radius + ring, ring + 1)
            nxt = {m.path[len(sel)] for m in cands if len(m.path) > len(sel)}
            ends = {m.end for m in cands} - nxt
            for s in nxt:
                self._dot(surface, geo.centre(s), geo.cell * 0.17, SELECT, 200)
            for s in ends:
                pygame.draw.circle(surface, SELECT, geo.centre(s), geo.cell * 0.22, max(2, ring - 1))
        elif moves and moves[0].is_capture:
            for s in {m.start for m in moves}:
                pygame.draw.circle(surface, CUE, geo.centre(s), radius + ring, max(2, ring - 1))
        hover = view.hover
        if isinstance(hover, int) and 1 <= hover <= 32:
            clickable = any(m.start == hover for m in moves) or any(hover in m.path[len(sel):] for m in cands if sel)
            if clickable:
                pygame.draw.rect(surface, (255, 255, 255), geo.square_rect(hover), max(2, ring - 1))
        self._draw_cue(surface, geo, view, radius, ring)

    def _draw_slide(self, surface: pygame.Surface, geo: Geometry, view: ViewState) -> None:
        """The last move's piece sliding along its path (cosmetic, :data:`SLIDE_S` per step at speed 1).

        The state has already changed: the end square is painted over and the piece drawn on its way; pieces it
        captures stay visible until it has jumped them.
        """
        move = view.last_move
        if not isinstance(move, CheckersMove) or not view.history or len(move.path) < 2:
            return
        steps = len(move.path) - 1
        t = view.animation(SLIDE_S * steps)
        if t >= 1.0:
            return
        before = view.history[-1][0]
        piece = before.piece_at(move.start)
        if piece is None:
            return
        end = geo.square_rect(move.end)
        pygame.draw.rect(surface, DARK_SQUARE, end)
        tint = pygame.Surface(end.size, pygame.SRCALPHA)
        tint.fill((*LAST_MOVE, 120))
        surface.blit(tint, end)
        radius = geo.cell * 0.4
        pos = t * steps
        i = min(steps - 1, int(pos))
        for j, sq in enumerate(move.captures):  # the j-th captured piece is jumped in step j
            victim = before.piece_at(sq)
            if victim is not None and j >= i:
                self._blit_piece(surface, geo.centre(sq), radius, victim)
        (ax, ay), (bx, by) = geo.centre(move.path[i]), geo.centre(move.path[i + 1])
        f = pos - i
        f = f * f * (3 - 2 * f)  # smoothstep: ease in and out of each step
        self._blit_piece(surface, (ax + (bx - ax) * f, ay + (by - ay) * f), radius, piece)

    @staticmethod
    def _blit_piece(surface: pygame.Surface, centre: tuple[float, float], radius: float, piece: str) -> None:
        """Draw one piece through a small transparent surface (its shadow stays translucent)."""
        d = math.ceil(radius * 2.4) + 2
        img = pygame.Surface((d, d), pygame.SRCALPHA)
        _draw_piece(img, (d / 2, d / 2), radius, piece)
        surface.blit(img, (centre[0] - d / 2, centre[1] - d / 2))

    def _draw_cue(self, surface: pygame.Surface, geo: Geometry, view: ViewState, radius: float, ring: int) -> None:
        cue = view.cue
        if not (isinstance(cue, tuple) and len(cue) == 3):
            return
        serial, message, squares = cue
        if serial != self._cue_serial:
            self._cue_serial, self._cue_since = serial, view.clock
        age = view.clock - self._cue_since
        bright = age >= CUE_FLASH_S or int(age * 6) % 2 == 0
        for s in squares:
            if bright:
                pygame.draw.circle(surface, CUE, geo.centre(s), radius + ring * 1.5, ring * 2)
        if age < TOAST_S:
            self._toast(surface, geo, str(message))

    def _toast(self, surface: pygame.Surface, geo: Geometry, text: str) -> None:
        """The cue's message on a rounded orange band across the middle of the board."""
        size = max(14, int(geo.cell * 0.25))
        img = projector.ui_font(size, bold=True).render(text, True, (26, 29, 39))
        box = img.get_rect().inflate(size, size * 0.6)
        box.center = geo.board.center
        pygame.draw.rect(surface, CUE, box, border_radius=size // 3)
        pygame.draw.rect(surface, (120, 50, 20), box, 2, border_radius=size // 3)
        surface.blit(img, img.get_rect(center=box.center))

    @staticmethod
    def _dot(surface: pygame.Surface, centre: tuple[float, float], r: float, colour: tuple[int, int, int],
             alpha: int) -> None:
        d = max(2, math.ceil(2 * r) + 2)
        dot = pygame.Surface((d, d), pygame.SRCALPHA)
        pygame.draw.circle(dot, (*colour, alpha), (d / 2, d / 2), r)
        surface.blit(dot, (centre[0] - d / 2, centre[1] - d / 2))

    # -- the cached layer --------------------------------------------------------------------------------------------
    def _render_layer(self, state: CheckersState, last_move: Any, geo: Geometry) -> pygame.Surface:
        k = SUPERSAMPLE
        side = geo.board.width
        big = pygame.Surface((side * k, side * k), pygame.SRCALPHA)
        pal = projector.palette()
        hc = pal.line_width > 1
        pygame.draw.rect(big, pal.board if hc else FRAME, big.get_rect(), border_radius=side * k // 40)
        pygame.draw.rect(big, pal.edge if hc else FRAME_EDGE, big.get_rect(), max(2, k * 2) * pal.line_width,
                         border_radius=side * k // 40)
        off = geo.board.topleft

        def rect_of(sq: int) -> pygame.Rect:
            r = geo.square_rect(sq).move(-off[0], -off[1])
            return pygame.Rect(r.x * k, r.y * k, r.width * k, r.height * k)

        def centre_of(sq: int) -> tuple[float, float]:
            x, y = geo.centre(sq)
            return ((x - off[0]) * k, (y - off[1]) * k)

        inner = pygame.Rect(geo.pad * k, geo.pad * k, round(8 * geo.cell * k), round(8 * geo.cell * k))
        pygame.draw.rect(big, LIGHT_SQUARE, inner)
        for sq in range(1, 33):
            pygame.draw.rect(big, DARK_SQUARE, rect_of(sq))
        if isinstance(last_move, CheckersMove):
            tint = pygame.Surface(rect_of(1).size, pygame.SRCALPHA)
            tint.fill((*LAST_MOVE, 120))
            for sq in (last_move.start, last_move.end):
                big.blit(tint, rect_of(sq))
            if last_move.is_capture:
                w = max(2, round(geo.cell * k * 0.05))
                pts = [centre_of(s) for s in last_move.path]
                pygame.draw.lines(big, LAST_MOVE, False, pts, w)
                for p in pts[1:-1]:
                    pygame.draw.circle(big, LAST_MOVE, p, w * 1.6)
            for sq in last_move.captures:
                cx, cy = centre_of(sq)
                d = geo.cell * k * 0.16
                w = max(2, round(geo.cell * k * 0.05))
                for a, b in (((cx - d, cy - d), (cx + d, cy + d)), ((cx - d, cy + d), (cx + d, cy - d))):
                    pygame.draw.line(big, (232, 96, 80), a, b, w)
        radius = geo.cell * k * 0.4
        for sq in range(1, 33):
            piece = state.piece_at(sq)
            if piece is not None:
                _draw_piece(big, centre_of(sq), radius, piece)
        layer = pygame.transform.smoothscale(big, (side, side))
        if self.show_numbers:
            self._draw_numbers(layer, geo, off, state)
        if pygame.display.get_surface() is not None:
            layer = layer.convert_alpha()
        return layer

    def _draw_numbers(self, layer: pygame.Surface, geo: Geometry, off: tuple[int, int], state: CheckersState
                      ) -> None:
        """The PDN number of each dark square in its top-left corner; over a piece on a dark backing
        (:func:`number_backing`), so that a white man's light rim does not swallow its digits ("32" read "3").

        Their size in pixels follows the square and the interface scale (at least 15 design pixels: 20 px in
        projector mode). A square too small to hold its number in its top half (the title screen's card) gets none:
        numbers spilling over the next squares and out of the board are worse than none.
        """
        size = max(projector.px(15), round(geo.cell * 0.18))
        if size > geo.cell * 0.45:
            return
        font = projector.ui_font(size)
        self._font_size = size
        colour = projector.palette().label if projector.palette().line_width > 1 else NUMBER
        for sq in range(1, 33):
            r = geo.square_rect(sq).move(-off[0], -off[1])
            img = font.render(str(sq), True, colour)
            at = img.get_rect(topleft=(r.x + max(2, size // 6), r.y + max(1, size // 8)))
            if state.piece_at(sq) is not None:  # on a man the light digits would vanish into it: a dark backing
                back = number_backing(img.get_size(), size)
                layer.blit(back, back.get_rect(center=at.center))
            else:
                img.set_alpha(210)
            layer.blit(img, at)


WINDOW_PARTS = WindowParts(
    view=CheckersView,
    rules_html=(
        "English checkers (ACF/WCDF rules) on the 32 dark squares; Black moves first.<br>"
        "Men move one square diagonally forward; kings one square in any diagonal direction.<br>"
        "<b>Captures are compulsory</b>: jump an adjacent enemy piece onto the empty square behind it, and keep "
        "jumping with the same piece while you can (click each landing square). Men jump forward only.<br>"
        "A man reaching the far row is crowned and its move ends there.<br>"
        "You lose when you have no legal move. Draws: the same position a third time, or 80 plies without a "
        "capture or a man move."),
    keys=(("click", "a piece, then each landing square"), ("H", "hint: the expert's move"),
          ("F", "flip the board"), ("M", "square numbers"), ("S / L", "save / load PDN"),
          ("C / V", "copy / paste the position (FEN)")),
    attract=("easy", "medium"),
)
"""Checkers' window parts (:mod:`gameplay.ui.boards.window_parts` finds them by this module's name)."""
