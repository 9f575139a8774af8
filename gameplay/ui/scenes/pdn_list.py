"""The game browser's drawn parts: the game list (a table with sortable headers and a scroll bar) and the move text.

:class:`GameList` draws only the rows in view, so a list of 22,621 games scrolls as fast as one of ten; it is
drawn into a cached surface that is made again only when the rows, the scroll position, the selection, the sort
or the size change. Clicks: a header sorts by its column (again: the other way), a row selects its game, the
scroll bar (drag or click above / below the thumb) and the mouse wheel scroll. Bad games are drawn grey, with
their reason in the Opening column.

:func:`draw_moves` writes a game's moves as PDN (``1. 11-15 23-19 2. 8-11 ...``) wrapped to a width, with the
current ply highlighted, and returns where each move was drawn (a click there jumps to it).

Nothing here runs pygame code at import time.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from gameplay.rules.checkers.checkers_board import BLACK
from gameplay.rules.checkers.checkers_notation import format_move_text
from gameplay.rules.checkers.pdn import PDNGame
from gameplay.rules.checkers.pdn_archive import COLUMNS, GameRow, short_reason
from gameplay.ui.widgets import projector

RGB = tuple[int, int, int]
WIDTHS = (0.075, 0.2, 0.13, 0.13, 0.12, 0.08, 0.19, 0.075)
"""Share of the list's width of each of :data:`COLUMNS`."""
HEADER_BG: RGB = (44, 52, 74)
ROW_ALT: RGB = (30, 35, 48)
SELECTED: RGB = (46, 84, 122)
BAD: RGB = (128, 132, 144)
BAD_REASON: RGB = (214, 138, 138)
GRID: RGB = (52, 60, 82)
THUMB: RGB = (96, 110, 146)
CURRENT_MOVE: RGB = (246, 206, 92)
font = projector.scaled_ui_font
"""The UI font at a size in design pixels (:func:`gameplay.ui.widgets.projector.scaled_ui_font`)."""
fit = projector.fit_text
"""Text shortened with an ellipsis to a width (:func:`gameplay.ui.widgets.projector.fit_text`)."""


def column_widths(width: int, minimum: Sequence[int], shares: Sequence[float] = WIDTHS) -> list[int]:
    """Column widths in pixels that add up to ``width``: each its share of ``width``, at least its ``minimum``; the
    pixels the minimums take are taken from the wider columns in proportion to what they have above their minimum.
    When even the minimums do not fit, the columns get their shares.

    Args:
        width: the table's width in pixels.
        minimum: each column's smallest width in pixels (its title's).
        shares: each column's share of the width (they add up to 1).
    """
    want = [max(m, round(sh * width)) for m, sh in zip(minimum, shares, strict=True)]
    if sum(minimum) > width:
        want = [round(sh * width) for sh in shares]
    else:
        over = sum(want) - width
        spare = [w - m for w, m in zip(want, minimum, strict=True)]
        total = sum(spare)
        if over > 0 and total > 0:
            want = [w - over * sp // total for w, sp in zip(want, spare, strict=True)]
    widest = max(range(len(want)), key=lambda i: want[i] - minimum[i])
    want[widest] += width - sum(want)  # rounding: the column with the most to spare takes the difference
    return want


class GameList:
    """A scrollable table of :class:`~gameplay.rules.checkers.pdn_archive.GameRow` with clickable column headers.

    Attributes:
        rows: the rows shown, in order (the browser filters and sorts them).
        selected: the selected row, or ``None``.
        top: index of the first row in view.
        sort_column: index in :data:`COLUMNS` of the sort column; ``descending`` its direction.
    """

    def __init__(self) -> None:
        self.rows: list[GameRow] = []
        self.selected: GameRow | None = None
        self.top = 0
        self.sort_column = 0
        self.descending = False
        self.rect = pygame.Rect(0, 0, 0, 0)
        self._surface: pygame.Surface | None = None
        self._drawn: tuple[object, ...] | None = None
        self._version = 0
        self._drag: int | None = None  # mouse y minus thumb top while dragging the thumb
        self.mouse: tuple[int, int] = (-1, -1)
        """The last mouse position seen (the wheel scrolls the list when it is over it)."""

    # -- geometry --------------------------------------------------------------------------------------------------
    @property
    def row_h(self) -> int:
        """Height of a row in pixels."""
        return font(14).get_height() + projector.px(8)

    @property
    def header_rect(self) -> pygame.Rect:
        return pygame.Rect(self.rect.x, self.rect.y, self.rect.width, self.row_h + projector.px(4))

    @property
    def body_rect(self) -> pygame.Rect:
        h = self.header_rect.height
        return pygame.Rect(self.rect.x, self.rect.y + h, self.rect.width - self.bar_w, self.rect.height - h)

    @property
    def bar_w(self) -> int:
        return max(8, projector.px(12))

    @property
    def visible(self) -> int:
        """How many rows fit in view."""
        return max(1, self.body_rect.height // self.row_h)

    def column_x(self) -> list[int]:
        """Left edge of each column in window coordinates (and the right edge of the last): each column its share
        of :data:`WIDTHS`, but at least its title's width (with room for the sort arrow), the room taken from the
        columns above their minimum (:func:`column_widths`)."""
        pad, arrow = projector.px(6), projector.px(14)
        hf = font(14, bold=True)
        widths = column_widths(self.rect.width - self.bar_w, [hf.size(n)[0] + 2 * pad + arrow for n in COLUMNS])
        xs = [self.rect.x]
        for w in widths:
            xs.append(xs[-1] + w)
        return xs

    def _bar(self) -> tuple[pygame.Rect, pygame.Rect]:
        """The scroll bar's track and thumb."""
        body = self.body_rect
        track = pygame.Rect(body.right, body.y, self.bar_w, body.height)
        n = len(self.rows)
        if n <= self.visible:
            return track, track.copy()
        h = max(projector.px(24), track.height * self.visible // n)
        y = track.y + (track.height - h) * self.top // max(1, n - self.visible)
        return track, pygame.Rect(track.x, y, track.width, h)

    # -- model -----------------------------------------------------------------------------------------------------
    def place(self, rect: pygame.Rect) -> None:
        """Draw the list in ``rect`` (window pixels) from now on; the scroll position stays in range."""
        self.rect = pygame.Rect(rect)
        self.scroll_to(self.top)

    def sort_by(self, column: int, descending: bool) -> None:
        """Mark ``column`` (an index in :data:`COLUMNS`) as the sort column, in that direction (the browser sorts
        the rows and hands them over with :meth:`set_rows`).

        Raises:
            ValueError: ``column`` is not an index of :data:`COLUMNS`.
        """
        if not 0 <= column < len(COLUMNS):
            raise ValueError(f"sort column must be 0..{len(COLUMNS) - 1}, not {column!r}")
        self.sort_column, self.descending = column, descending

    def select(self, row: GameRow | None) -> None:
        """Highlight ``row`` (``None``: no row)."""
        self.selected = row

    def set_rows(self, rows: Sequence[GameRow]) -> None:
        """Show ``rows`` (the selection stays when it is among them); keeps the scroll position in range."""
        self.rows = list(rows)
        self._version += 1
        self.scroll_to(self.top)

    def scroll_to(self, top: int) -> None:
        """Put row ``top`` at the top of the view (clamped)."""
        self.top = max(0, min(top, len(self.rows) - self.visible))

    def index_of(self, row: GameRow | None) -> int | None:
        """Position of ``row`` in :attr:`rows`, or ``None``."""
        if row is None:
            return None
        for i, r in enumerate(self.rows):
            if r is row:
                return i
        return None

    def ensure_visible(self, index: int) -> None:
        """Scroll so that row ``index`` is in view."""
        if index < self.top:
            self.scroll_to(index)
        elif index >= self.top + self.visible:
            self.scroll_to(index - self.visible + 1)

    def row_at(self, pos: tuple[int, int]) -> GameRow | None:
        """The row under ``pos``, or ``None``."""
        body = self.body_rect
        if not body.collidepoint(pos):
            return None
        i = self.top + (pos[1] - body.y) // self.row_h
        return self.rows[i] if 0 <= i < len(self.rows) else None

    def column_at(self, x: int) -> int | None:
        """The column under window x, or ``None``."""
        xs = self.column_x()
        for i in range(len(COLUMNS)):
            if xs[i] <= x < xs[i + 1]:
                return i
        return None

    # -- events ----------------------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> str | None:
        """A click, drag or wheel over the list. Returns ``"select"`` (a row was clicked: :attr:`selected`),
        ``"sort"`` (a header was clicked: :attr:`sort_column` / :attr:`descending` changed), ``"scroll"``, or
        ``None`` when the event was not for the list."""
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        if event.type == pygame.MOUSEWHEEL:
            if self.rect.collidepoint(self.mouse):
                self.scroll_to(self.top - 3 * int(event.y))
                return "scroll"
            return None
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self._drag is not None:
            self._drag = None
            return "scroll"
        if event.type == pygame.MOUSEMOTION and self._drag is not None:
            track, thumb = self._bar()
            room = max(1, track.height - thumb.height)
            y = event.pos[1] - self._drag - track.y
            self.scroll_to(round(y * max(0, len(self.rows) - self.visible) / room))
            return "scroll"
        if event.type != pygame.MOUSEBUTTONDOWN or event.button not in (1, 4, 5):
            return None
        if not self.rect.collidepoint(event.pos):
            return None
        if event.button in (4, 5):  # an old-style wheel
            self.scroll_to(self.top + (3 if event.button == 5 else -3))
            return "scroll"
        track, thumb = self._bar()
        if track.collidepoint(event.pos):
            if thumb.collidepoint(event.pos):
                self._drag = event.pos[1] - thumb.y
            elif event.pos[1] < thumb.y:
                self.scroll_to(self.top - self.visible)
            else:
                self.scroll_to(self.top + self.visible)
            return "scroll"
        if self.header_rect.collidepoint(event.pos):
            col = self.column_at(event.pos[0])
            if col is None:
                return None
            if col == self.sort_column:
                self.descending = not self.descending
            else:
                self.sort_column, self.descending = col, False
            return "sort"
        row = self.row_at(event.pos)
        if row is None:
            return None
        self.selected = row
        return "select"

    # -- drawing ---------------------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        """Draw the list into its rectangle (from the cached picture when nothing changed)."""
        if self.rect.width <= 0 or self.rect.height <= 0:
            return
        key = (self._version, self.top, id(self.selected), self.sort_column, self.descending, self.rect.size,
               projector.current())
        if self._surface is None or self._surface.get_size() != self.rect.size:
            self._surface = pygame.Surface(self.rect.size)
            self._drawn = None
        if key != self._drawn:
            self._render(self._surface)
            self._drawn = key
        surface.blit(self._surface, self.rect)

    def _render(self, canvas: pygame.Surface) -> None:
        pal = projector.palette()
        canvas.fill(pal.background)
        ox, oy = self.rect.topleft
        xs = [x - ox for x in self.column_x()]
        pad = projector.px(6)
        head = self.header_rect.move(-ox, -oy)
        pygame.draw.rect(canvas, HEADER_BG, head)
        hf, f = font(14, bold=True), font(14)
        for i, name in enumerate(COLUMNS):
            sorted_here = i == self.sort_column
            arrow = projector.px(10) if sorted_here else 0
            img = hf.render(fit(name, hf, xs[i + 1] - xs[i] - 2 * pad - arrow), True, pal.text)
            canvas.blit(img, (xs[i] + pad, head.centery - img.get_height() // 2))
            if sorted_here:  # a small triangle: up for ascending, down for descending
                x0, cy, a = xs[i] + pad + img.get_width() + projector.px(4), head.centery, projector.px(4)
                tip, base = (cy + a, cy - a) if self.descending else (cy - a, cy + a)
                pygame.draw.polygon(canvas, pal.accent, [(x0, base), (x0 + 2 * a, base), (x0 + a, tip)])
        body = self.body_rect.move(-ox, -oy)
        rh = self.row_h
        for k in range(self.visible + 1):
            i = self.top + k
            if i >= len(self.rows):
                break
            row = self.rows[i]
            y = body.y + k * rh
            if y >= body.bottom:
                break
            r = pygame.Rect(body.x, y, body.width, rh)
            if row is self.selected:
                pygame.draw.rect(canvas, SELECTED, r)
            elif i % 2:
                pygame.draw.rect(canvas, ROW_ALT, r)
            colour = pal.text if row.ok else BAD
            for c, text in enumerate(row.cells):
                if not row.ok and COLUMNS[c] == "Opening":
                    text, cell_colour = "bad: " + short_reason(row.record.error), BAD_REASON
                else:
                    cell_colour = colour
                w = xs[c + 1] - xs[c] - 2 * pad
                if w <= 4:
                    continue
                img = f.render(fit(text, f, w), True, cell_colour)
                canvas.blit(img, (xs[c] + pad, y + (rh - img.get_height()) // 2))
        if not self.rows:
            img = f.render("No game to show", True, pal.muted)
            canvas.blit(img, (body.x + pad, body.y + pad))
        track, thumb = self._bar()
        pygame.draw.rect(canvas, GRID, track.move(-ox, -oy))
        if len(self.rows) > self.visible:
            pygame.draw.rect(canvas, THUMB, thumb.move(-ox, -oy), border_radius=projector.px(4))
        pygame.draw.rect(canvas, GRID, canvas.get_rect(), 1)


def move_tokens(game: PDNGame) -> list[tuple[str, int]]:
    """The move text of ``game`` as (text, ply) pairs: move numbers with ply -1, each move with the ply it leads
    to (1 for the first move)."""
    out: list[tuple[str, int]] = []
    turn = game.start.turn
    number = 1
    for i, m in enumerate(game.moves):
        if turn == BLACK:
            out.append((f"{number}.", -1))
        elif i == 0:
            out.append((f"{number}...", -1))
        out.append((format_move_text(m), i + 1))
        if turn != BLACK:
            number += 1
        turn = 1 - turn
    return out


def draw_moves(surface: pygame.Surface, rect: pygame.Rect, game: PDNGame, ply: int, tail: str = "",
               tail_colour: RGB = BAD_REASON) -> list[tuple[pygame.Rect, int]]:
    """Write the moves of ``game`` into ``rect`` (wrapped; the move leading to ``ply`` highlighted), then
    ``tail`` (the result, or a bad game's error). Lines that do not fit are left out, keeping the current move in
    view. Returns the rectangle of each move drawn with its ply (a click there jumps to it)."""
    f = font(14)
    pal = projector.palette()
    space = f.size(" ")[0]
    lines: list[list[tuple[str, int, int]]] = [[]]  # per line: (text, ply, x)
    x = 0
    for text, p in move_tokens(game):
        w = f.size(text)[0]
        if x and x + w > rect.width:
            lines.append([])
            x = 0
        lines[-1].append((text, p, x))
        x += w + space
    line_h = f.get_height() + projector.px(2)
    room = max(1, rect.height // line_h - (1 if tail else 0))
    current = next((k for k, line in enumerate(lines) if any(p == ply for _, p, _ in line)), 0)
    first = max(0, min(current - room // 2, len(lines) - room))
    hits: list[tuple[pygame.Rect, int]] = []
    y = rect.y
    for line in lines[first:first + room]:
        for text, p, lx in line:
            img = f.render(text, True, CURRENT_MOVE if p == ply else (pal.muted if p < 0 else pal.text))
            r = img.get_rect(topleft=(rect.x + lx, y))
            if p == ply:
                pygame.draw.rect(surface, SELECTED, r.inflate(projector.px(4), 0), border_radius=projector.px(3))
            surface.blit(img, r)
            if p >= 0:
                hits.append((r, p))
        y += line_h
    if tail:
        img = f.render(fit(tail, f, rect.width), True, tail_colour)
        surface.blit(img, (rect.x, y))
    return hits
