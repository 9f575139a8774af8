"""The search-tree overlay's painter (:class:`OverlayPainter`): reads the overlay's model and draws it, and keeps
what it drew where (the canvas's hit boxes, the bar's buttons, the callout, the narration's lines), which the input
handler and the tests read.

The painter changes nothing of the model: it reads it through :class:`PaintedOverlay` (the read-only face
:class:`gameplay.ui.overlay.overlay_shown.ShownOverlay` and the quiz it draws). The parts are drawn by
:mod:`gameplay.ui.overlay.overlay_canvas` (the tree and the hover box), :mod:`gameplay.ui.overlay.overlay_draw` (header,
legend, narration, bar), :mod:`gameplay.ui.overlay.overlay_panel` (the counters) and
:class:`gameplay.ui.overlay.overlay_quiz.QuizMode` (the quiz band).
"""

from __future__ import annotations

from typing import Protocol

import pygame

from gameplay.pictures.tree_layout import LayoutNode
from gameplay.pictures.tree_png import hit_rects
from gameplay.ui.overlay import overlay_canvas as canvas
from gameplay.ui.overlay import overlay_draw as draw
from gameplay.ui.overlay import overlay_panel as panel
from gameplay.ui.overlay import overlay_view as view
from gameplay.ui.overlay.overlay_quiz import QuizMode
from gameplay.ui.overlay.overlay_shown import ShownOverlay


class PaintedOverlay(ShownOverlay, Protocol):
    """What the painter reads: the model's read-only face and its quiz (which draws its own band)."""

    @property
    def quiz(self) -> QuizMode: ...


class OverlayPainter:
    """Draws one overlay model (see the module docstring).

    Args:
        ov: the model it reads.
    """

    def __init__(self, ov: PaintedOverlay) -> None:
        self._ov = ov
        self._hits: list[tuple[pygame.Rect, LayoutNode]] = []
        self._buttons: list[tuple[str, pygame.Rect, str]] = []
        self._callout_rect: pygame.Rect | None = None
        self._drawn_narration: tuple[list[str], int] = ([], 0)
        self._cache = canvas.CanvasCache()

    # -- what was drawn ------------------------------------------------------------------------------------------
    @property
    def hits(self) -> list[tuple[pygame.Rect, LayoutNode]]:
        """``(canvas rectangle, layout item)`` of every item a pointer can act on, as last drawn (a copy)."""
        return list(self._hits)

    @property
    def buttons(self) -> list[tuple[str, pygame.Rect, str]]:
        """``(name, window rectangle, label)`` of the bar's buttons, as last drawn (a copy)."""
        return list(self._buttons)

    @property
    def callout_rect(self) -> pygame.Rect | None:
        """Where the step callout was last drawn (canvas pixels), ``None`` when none was."""
        return self._callout_rect

    @property
    def drawn_narration(self) -> tuple[list[str], int]:
        """The narration lines last drawn and their font's height in pixels (``Font.get_height()``)."""
        return self._drawn_narration

    @property
    def canvas_cache(self) -> canvas.CanvasCache:
        """The tree drawn at the current zoom and offset, kept while nothing it shows changes."""
        return self._cache

    def item_at(self, pos: tuple[int, int]) -> LayoutNode | None:
        """The tree item drawn under window point ``pos`` (its hit box, as last drawn), or ``None``."""
        c = self._ov.canvas_rect
        if not c.collidepoint(pos):
            return None
        p = (pos[0] - c.x, pos[1] - c.y)
        for r, it in self._hits:
            if r.collidepoint(p):
                return it
        return None

    def button_at(self, pos: tuple[int, int]) -> str | None:
        """The name of the bar's button drawn under window point ``pos``, or ``None``."""
        for name, r, _ in self._buttons:
            if r.collidepoint(pos):
                return name
        return None

    def forget(self) -> None:
        """Draw the tree again at the next frame (the sizes or the colours changed)."""
        self._cache.forget()

    # -- drawing -------------------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        """Draw the model into its :attr:`~ShownOverlay.rect` of ``surface`` (the model has framed the step)."""
        ov = self._ov
        pygame.draw.rect(surface, draw.chrome().bg, ov.rect)
        if ov.tree is None or ov.info is None:
            draw.draw_header(ov, surface)
            self._buttons = draw.draw_bar(ov, surface)
            return
        self._draw_canvas(surface)
        draw.draw_legend(ov, surface)
        draw.draw_header(ov, surface)
        if ov.show_side:
            panel.draw_side(ov, surface)
        drawn = draw.draw_narration(ov, surface)
        if drawn is not None:
            self._drawn_narration = drawn
        ov.quiz.draw(ov, surface)
        self._buttons = draw.draw_bar(ov, surface)
        canvas.draw_hover(ov, surface)
        pygame.draw.rect(surface, draw.chrome().ink, ov.rect, 2)

    def _draw_canvas(self, surface: pygame.Surface) -> None:
        """The tree at the model's zoom and offset: its :class:`~gameplay.pictures.step_view.StepView` painted by
        :func:`gameplay.ui.overlay.overlay_canvas.paint` on a surface of the canvas's size, kept while nothing it shows
        changes."""
        ov = self._ov
        pic, lay = ov.picture()
        c = ov.canvas_rect
        if pic is None or lay is None:
            return
        cur = ov.current_node()
        key = (ov.picture_key, round(ov.zoom, 4), tuple(round(v) for v in ov.offset), c.size,
               cur.id if cur else None, ov.selected_id)
        surf = self._cache.surface_for(c.size)
        if self._cache.key != key:
            model = ov.step_view()
            assert model is not None
            self._hits = hit_rects(pic, lay, zoom=ov.zoom, offset=ov.offset)
            self._callout_rect = canvas.paint(surf, model, self._hits,
                                              background=view.picture_palette(ov).background,
                                              callout_font=canvas.callout_font(ov))
            self._cache.remember(key)
        surface.blit(surf, c.topleft)
