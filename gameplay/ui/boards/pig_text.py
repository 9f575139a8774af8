"""Text on the Pig table, never cut: fonts by size (pygame_gui's Noto Sans when present), a line drawn whole
(shrunk a little, never shortened with "..."), and paragraphs wrapped to a width (:class:`PigText`, the base of
:class:`gameplay.ui.boards.pig_view.PigView`).
"""

from __future__ import annotations

from pathlib import Path

import pygame

from gameplay.pictures.fonts import FontCache


def _font_path(bold: bool) -> str | None:
    """Noto Sans from pygame_gui's data (the panel's font), or ``None`` for pygame's default font."""
    try:
        import pygame_gui
    except ImportError:  # pragma: no cover - pygame_gui is a dependency of the window
        return None
    path = Path(pygame_gui.__file__).parent / "data" / ("NotoSans-Bold.ttf" if bold else "NotoSans-Regular.ttf")
    return str(path) if path.is_file() else None


class PigText:
    """Font cache and text drawing of the Pig view, which the view and its cards (:mod:`gameplay.ui.boards.pig_cards`)
    draw all their text with; sizes are pixels, widths screen pixels."""

    _fonts: FontCache
    """This view's fonts by (pixel size, bold), let go when the window closes (:mod:`gameplay.pictures.fonts`)."""

    @property
    def fonts(self) -> list[pygame.font.Font]:
        """The fonts made so far (one per pixel size and weight :meth:`font` was asked for), oldest first."""
        return self._fonts.fonts()

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        """The table's font at ``size`` pixels (cached): Noto Sans, or pygame's default font 1.3 times as big when
        Noto Sans cannot be read."""
        def make() -> pygame.font.Font:
            try:
                return pygame.font.Font(_font_path(bold), size)
            except (OSError, FileNotFoundError):
                return pygame.font.Font(None, int(size * 1.3))

        return self._fonts.get((size, bold), make)

    def draw_text(self, surf: pygame.Surface, text: str, pos: tuple[int, int], size: int,
                  colour: tuple[int, int, int], *, bold: bool = False, anchor: str = "topleft",
                  max_width: int | None = None) -> pygame.Rect:
        """Render one line of ``text`` on ``surf`` with its ``anchor`` (a ``pygame.Rect`` point name) at ``pos``;
        returns the rectangle drawn. Text is never shortened: callers fit it (:meth:`fit_size`, :meth:`para`); as
        a last resort a line wider than ``max_width`` is drawn in a smaller font."""
        font = self.font(size, bold)
        if max_width is not None and font.size(text)[0] > max_width:
            font = self.font(self.fit_size(text, size, max_width, bold, floor=6) or 6, bold)
        img = font.render(text, True, colour)
        r = img.get_rect(**{anchor: pos})
        surf.blit(img, r)
        return r

    def fit_size(self, text: str, size: int, width: int, bold: bool = False, floor: int | None = None) -> int | None:
        """The largest font size from ``size`` down to ``floor`` (default 80 % of ``size``) at which ``text`` is at
        most ``width`` pixels wide; ``None`` when even ``floor`` is too wide."""
        low = max(6, round(size * 0.8) if floor is None else floor)
        for s in range(size, low - 1, -1):
            if self.font(s, bold).size(text)[0] <= width:
                return s
        return None

    def wrap(self, text: str, size: int, width: int, bold: bool = False) -> list[str]:
        """``text`` split at spaces into lines at most ``width`` pixels wide (a single longer word is broken between
        letters, so that every line fits)."""
        font = self.font(size, bold)
        lines: list[str] = []
        for word in text.split(" "):
            if lines and font.size(f"{lines[-1]} {word}")[0] <= width:
                lines[-1] = f"{lines[-1]} {word}"
                continue
            while font.size(word)[0] > width and len(word) > 1:
                cut = next((n for n in range(len(word) - 1, 0, -1) if font.size(word[:n])[0] <= width), 1)
                lines.append(word[:cut])
                word = word[cut:]
            lines.append(word)
        return lines

    def para_lines(self, text: str, size: int, width: int, bold: bool = False, max_lines: int = 2,
                   floor: int | None = None) -> tuple[list[str], int]:
        """How :meth:`para` sets ``text``: one line (in a slightly smaller font if that makes it fit), else
        wrapped at ``size``, else wrapped in smaller fonts until it takes at most ``max_lines`` lines. Never below
        ``floor`` pixels when given: then it takes more lines instead."""
        low = 8 if floor is None else min(floor, size)
        one = self.fit_size(text, size, width, bold, None if floor is None else max(low, round(size * 0.8)))
        if one is not None:
            return [text], one
        s = size
        lines = self.wrap(text, s, width, bold)
        while len(lines) > max_lines and s > low:
            s -= 1
            lines = self.wrap(text, s, width, bold)
        return lines, s

    def para(self, surf: pygame.Surface, text: str, pos: tuple[int, int], size: int, colour: tuple[int, int, int],
             width: int, *, bold: bool = False, max_lines: int = 2, anchor: str = "topleft",
             floor: int | None = None) -> pygame.Rect:
        """Draw ``text`` whole within ``width`` pixels (:meth:`para_lines`; never below ``floor`` pixels when
        given): its lines stacked with the block's ``anchor`` (``topleft``, ``midtop`` or ``bottomleft``) at
        ``pos``. Returns the block's rectangle."""
        lines, s = self.para_lines(text, size, width, bold, max_lines, floor)
        step = self.font(s, bold).get_linesize()
        x, y = pos
        if anchor == "bottomleft":
            y -= step * len(lines)
        line_anchor = "midtop" if anchor == "midtop" else "topleft"
        out = pygame.Rect(x, y, 0, 0)
        for line in lines:
            out.union_ip(self.draw_text(surf, line, (x, y), s, colour, bold=bold, anchor=line_anchor, max_width=width))
            y += step
        return out
