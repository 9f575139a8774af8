"""Drawing a laid-out search tree with pygame-ce: the PNG export, and the drawing the overlay reuses.

The picture is the display list of :func:`gameplay.pictures.picture_build.build_picture` (the same one the SVG is
written from), drawn with a zoom and an offset. :func:`draw_tree` draws onto any surface and returns the nodes' hit
rectangles, so the in-window overlay can pan, zoom and find the node under the mouse; :func:`render_png`
draws the whole picture at twice the size and scales it down (anti-aliasing) before saving.

Works headless (``SDL_VIDEODRIVER=dummy``): only ``pygame.font`` is initialised, no window is opened.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # keep --json output clean
import pygame

from ai.kernel.recording import SearchTree
from gameplay.pictures.fonts import FontCache, font_file
from gameplay.pictures.picture_build import build_picture
from gameplay.pictures.tree_layout import DEFAULT_MAX_VISIBLE, LayoutNode, TreeLayout, layout
from gameplay.pictures.tree_picture import PALETTE, Item, Palette, Picture, lab_names

Point = tuple[float, float]
FONTS = FontCache()
"""The tree pictures' fonts by (glyph height in pixels, bold): the window's overlay and the PNG export draw with
them."""
_MISSING_GLYPHS = {"∞": "inf", "≈": "~", "→": "->", "←": "<-", "⇒": "=>", "≠": "!=", "√": "sqrt", "≤": "<=",
                   "≥": ">="}
"""What to draw instead of a character the font lacks (any other missing one: ``?``). The bundled DejaVu Sans has
all of these; pygame's own font, the fallback of a copy without it, lacks ``∞`` and the arrows."""
_GLYPH_OK: dict[str, bool] = {}


def has_glyph(ch: str, font: pygame.font.Font | None = None) -> bool:
    """True when ``font`` (default: the pictures' font, :func:`font_at`) draws ``ch`` as itself, not as the
    missing-glyph box."""
    if ord(ch) < 128:
        return True
    key = ch if font is None else f"{id(font)}:{ch}"
    ok = _GLYPH_OK.get(key)
    if ok is None:
        if not pygame.font.get_init():
            pygame.font.init()
        f = font if font is not None else font_at(24, False)

        def image(c: str) -> bytes:
            return pygame.image.tobytes(f.render(c, False, (255, 255, 255), (0, 0, 0)), "RGB")

        ok = image(ch) != image("\U000F0000")  # a private-use code point: no font has it, drawn as the box
        _GLYPH_OK[key] = ok
    return ok


def safe_text(text: str) -> str:
    """``text`` as the pictures' font can draw it: every character it has kept (``α β ≤ ≥ ∞`` with the bundled
    DejaVu Sans), the others replaced (``∞`` -> ``inf``..., see :data:`_MISSING_GLYPHS`; else ``?``)."""
    if text.isascii():
        return text
    done = _SAFE.get(text)
    if done is None:
        done = "".join(ch if has_glyph(ch) else _MISSING_GLYPHS.get(ch, "?") for ch in text)
        if len(_SAFE) > 20_000:
            _SAFE.clear()
        _SAFE[text] = done
    return done


_SAFE: dict[str, str] = {}
"""Texts :func:`safe_text` has made safe (the overlay asks for the same few hundred every frame)."""


def ensure_fonts() -> None:
    """Start ``pygame.font`` if needed (a font made before a ``pygame.quit()`` is made again when next asked for:
    :class:`gameplay.pictures.fonts.FontCache`)."""
    if not pygame.font.get_init():
        pygame.font.init()


def glyph_height(size: float) -> int:
    """The line height (``Font.get_height()``, pixels) of the font :func:`font_at` draws text of ``size`` pixels
    with: one pixel under the size, as the picture's sizes have always meant (25 -> 24 px tall)."""
    return max(5, round(size) - 1)


def font_at(size: float, bold: bool) -> pygame.font.Font:
    """The pictures' font for text of ``size`` pixels (cached): DejaVu Sans (bold: DejaVu Sans Bold, the values
    and titles), bundled in ``assets/fonts`` (:func:`gameplay.pictures.fonts.font_file`) because it has ``α β ≤ ≥
    ∞``, at the largest point size whose line height is at most :func:`glyph_height` (``size`` 25: 24 px). A copy
    without the file draws with pygame's default font (FreeSans Bold) at the same height."""
    height = glyph_height(size)

    def make() -> pygame.font.Font:
        return sized_font(font_file(bold), height, bold)

    return FONTS.get((height, bold), make)


def sized_font(path: Path | None, height: int, bold: bool) -> pygame.font.Font:
    """The font of the file ``path`` (``None`` or unreadable: pygame's default) at the largest point size whose
    ``get_height()`` is at most ``height`` pixels (at least 1 pt)."""
    def make(pt: int) -> pygame.font.Font:
        if path is not None:
            try:
                return pygame.font.Font(str(path), pt)
            except (OSError, pygame.error):
                pass
        f = pygame.font.Font(None, max(1, round(pt / 0.6875)))  # the default font is drawn at 0.6875 x size
        f.set_bold(bold and height >= 23)
        return f

    pt = max(1, round(height * 0.86))
    f = make(pt)
    while f.get_height() > height and pt > 1:
        pt -= 1
        f = make(pt)
    while True:
        bigger = make(pt + 1)
        if bigger.get_height() > height:
            return f
        pt, f = pt + 1, bigger


def measure_text(text: str, size: float, bold: bool = False) -> float:
    """Width in pixels of ``text`` as :func:`draw_picture` renders it (for ``build_picture(measure=...)``)."""
    return float(font_at(size, bold).size(safe_text(text))[0])


def _color(c: str | None) -> pygame.Color | None:
    return None if c is None else pygame.Color(c)


def _dashed(surface: pygame.Surface, color: pygame.Color, a: Point, b: Point, width: int, dash: Point) -> None:
    (x1, y1), (x2, y2) = a, b
    length = math.hypot(x2 - x1, y2 - y1)
    if length == 0:
        return
    on, off = max(1.0, dash[0]), max(1.0, dash[1])
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    t = 0.0
    while t < length:
        e = min(length, t + on)
        pygame.draw.line(surface, color, (x1 + ux * t, y1 + uy * t), (x1 + ux * e, y1 + uy * e), width)
        t = e + off


def _polyline(surface: pygame.Surface, color: pygame.Color, pts: Sequence[Point], width: int,
              dash: Point | None) -> None:
    """A closed outline with round joins (pygame's thick polygons leave notches at the corners)."""
    for k, a in enumerate(pts):
        b = pts[(k + 1) % len(pts)]
        if dash:
            _dashed(surface, color, a, b, width, dash)
        else:
            pygame.draw.line(surface, color, a, b, width)
            if width > 2:
                pygame.draw.circle(surface, color, a, width / 2 - 0.5)


def _rounded_rect_outline(surface: pygame.Surface, color: pygame.Color, rect: pygame.Rect, width: int,
                          dash: Point | None, radius: int) -> None:
    if not dash:
        pygame.draw.rect(surface, color, rect, width, border_radius=radius)
        return
    _polyline(surface, color, [rect.topleft, rect.topright, rect.bottomright, rect.bottomleft], width, dash)


def _circle_outline(surface: pygame.Surface, color: pygame.Color, c: Point, r: float, width: int,
                    dash: Point | None) -> None:
    if not dash:
        pygame.draw.circle(surface, color, c, r, width)
        return
    steps = max(12, int(2 * math.pi * r / max(1.0, dash[0] + dash[1])))
    for k in range(steps):
        a0 = 2 * math.pi * k / steps
        a1 = a0 + 2 * math.pi / steps * dash[0] / (dash[0] + dash[1])
        pygame.draw.line(surface, color, (c[0] + r * math.cos(a0), c[1] + r * math.sin(a0)),
                         (c[0] + r * math.cos(a1), c[1] + r * math.sin(a1)), width)


def draw_picture(surface: pygame.Surface, pic: Picture, *, zoom: float = 1.0, offset: Point = (0.0, 0.0),
                 clear: bool = True) -> None:
    """Draw a display list: picture pixel ``(x, y)`` lands at ``(x * zoom + offset[0], y * zoom + offset[1])``.

    Args:
        surface: where to draw.
        pic: the picture (:func:`gameplay.pictures.picture_build.build_picture`).
        zoom: scale factor.
        offset: screen position of the picture's top-left corner.
        clear: fill the surface with the picture's background first.
    """
    if clear:
        surface.fill(pygame.Color(pic.background))
    pen = _Pen(surface, zoom, offset)
    for it in pic.items:
        draw = _OPS.get(it.op)
        if draw is not None:
            draw(pen, it)


class _Pen:
    """Where and how big a display list is drawn: picture pixel ``(x, y)`` lands at ``(x * zoom + offset[0],
    y * zoom + offset[1])`` on ``surface``."""

    def __init__(self, surface: pygame.Surface, zoom: float, offset: Point) -> None:
        self.surface, self.zoom, self.offset = surface, zoom, offset
        self.clip = surface.get_rect()

    def at(self, p: Point) -> Point:
        return p[0] * self.zoom + self.offset[0], p[1] * self.zoom + self.offset[1]

    def width(self, it: Item) -> int:
        return max(1, round(it.width * self.zoom))

    def dash(self, it: Item) -> Point | None:
        return (it.dash[0] * self.zoom, it.dash[1] * self.zoom) if it.dash else None


def _draw_line(pen: _Pen, it: Item) -> None:
    stroke = _color(it.stroke)
    if stroke is None:
        return
    a, b = pen.at(it.pts[0]), pen.at(it.pts[1])
    width, dash = pen.width(it), pen.dash(it)
    if dash:
        _dashed(pen.surface, stroke, a, b, width, dash)
        return
    pygame.draw.line(pen.surface, stroke, a, b, width)
    if width > 2:  # round ends
        pygame.draw.circle(pen.surface, stroke, a, width / 2 - 0.5)
        pygame.draw.circle(pen.surface, stroke, b, width / 2 - 0.5)


def _draw_poly(pen: _Pen, it: Item) -> None:
    pts = [pen.at(p) for p in it.pts]
    stroke, fill = _color(it.stroke), _color(it.fill)
    if fill is not None:
        pygame.draw.polygon(pen.surface, fill, pts)
    if stroke is not None:
        _polyline(pen.surface, stroke, pts, pen.width(it), pen.dash(it))


def _draw_circle(pen: _Pen, it: Item) -> None:
    c, r = pen.at(it.pts[0]), it.r * pen.zoom
    stroke, fill = _color(it.stroke), _color(it.fill)
    if fill is not None:
        pygame.draw.circle(pen.surface, fill, c, r)
    if stroke is not None:
        _circle_outline(pen.surface, stroke, c, r, pen.width(it), pen.dash(it))


def _draw_rect(pen: _Pen, it: Item) -> None:
    (x1, y1), (x2, y2) = pen.at(it.pts[0]), pen.at(it.pts[1])
    rect = pygame.Rect(round(x1), round(y1), max(1, round(x2 - x1)), max(1, round(y2 - y1)))
    if not rect.colliderect(pen.clip):
        return
    stroke, fill = _color(it.stroke), _color(it.fill)
    radius = round(it.r * pen.zoom)
    if fill is not None:
        pygame.draw.rect(pen.surface, fill, rect, border_radius=radius)
    if stroke is not None:
        _rounded_rect_outline(pen.surface, stroke, rect, pen.width(it), pen.dash(it), radius)


def _draw_text_item(pen: _Pen, it: Item) -> None:
    draw_text(pen.surface, it, pen.at(it.pts[0]), pen.zoom, pen.clip)


_OPS: dict[str, Callable[[_Pen, Item], None]] = {
    "text": _draw_text_item, "line": _draw_line, "poly": _draw_poly, "circle": _draw_circle, "rect": _draw_rect}
"""How each kind of :class:`gameplay.pictures.tree_picture.Item` is drawn."""


def draw_text(surface: pygame.Surface, it: Item, at: Point, zoom: float, clip: pygame.Rect) -> None:
    """Draw one text item of a picture (what :func:`draw_picture` does with each): in :func:`font_at` the item's
    size times ``zoom`` pixels (nothing below 4 px), its start, end or middle (``it.anchor``) at the screen point
    ``at``, and only when it overlaps ``clip`` (screen pixels)."""
    size = it.size * zoom
    if size < 4:
        return
    img = font_at(size, it.bold).render(safe_text(it.text), True, pygame.Color(it.fill or "#000000"))
    r = img.get_rect()
    if it.anchor == "start":
        r.midleft = (round(at[0]), round(at[1]))
    elif it.anchor == "end":
        r.midright = (round(at[0]), round(at[1]))
    else:
        r.center = (round(at[0]), round(at[1]))
    if r.colliderect(clip):
        surface.blit(img, r)


def draw_tree(surface: pygame.Surface, lay: TreeLayout, *, zoom: float = 1.0, offset: Point = (0.0, 0.0),
              font_size: float = 20.0, summary: Mapping[str, Any] | None = None, header: bool = True,
              clear: bool = True) -> list[tuple[pygame.Rect, LayoutNode]]:
    """Draw a laid-out tree onto ``surface`` (the overlay's entry point).

    Args:
        surface: where to draw.
        lay: the layout (:func:`gameplay.pictures.tree_layout.layout`).
        zoom: scale factor of the picture.
        offset: screen position of the picture's top-left corner (pan).
        font_size: body text size in picture pixels, before the zoom.
        summary: result object for the header (value, best move, ``minimax_nodes`` ...).
        header: draw the header and the legend.
        clear: fill the surface with the background first.

    Returns:
        ``(screen rectangle, layout node)`` for every visible item, for hit-testing the mouse.
    """
    pic = build_picture(lay, summary, font_size=font_size, header=header, legend=header, measure=measure_text)
    draw_picture(surface, pic, zoom=zoom, offset=offset, clear=clear)
    return hit_rects(pic, lay, zoom=zoom, offset=offset)


def hit_rects(pic: Picture, lay: TreeLayout, *, zoom: float = 1.0, offset: Point = (0.0, 0.0)
              ) -> list[tuple[pygame.Rect, LayoutNode]]:
    """The screen rectangles of the picture's nodes under a zoom and an offset."""
    out = []
    for idx, (x, y, w, h) in pic.hits:
        r = pygame.Rect(round(x * zoom + offset[0]), round(y * zoom + offset[1]), max(1, round(w * zoom)),
                        max(1, round(h * zoom)))
        out.append((r, lay.nodes[idx]))
    return out


def render_png(tree: SearchTree, path: str | Path, summary: Mapping[str, Any] | None = None, *,
               max_nodes: int | None = DEFAULT_MAX_VISIBLE, max_children: int | None = 12,
               font_size: float = 20.0, supersample: int = 2, max_side: int = 12_000, root: Any = None,
               palette: Palette = PALETTE) -> Path:
    """Write the tree picture as a PNG (the same picture as the SVG, a Tree Lab tree's nodes named ``A``,
    ``B``... as the narration names them).

    Args:
        tree: the recorded search.
        path: the PNG to write.
        summary: result object for the header.
        max_nodes: the most items shown (``+N nodes`` markers for the rest); ``None``: all.
        max_children: searched children shown per node; ``None``: all.
        font_size: body text in pixels.
        supersample: draw this many times larger, then scale down (smooth edges).
        max_side: the picture is scaled down so that no side exceeds this many pixels.
        root: for a Tree Lab tree, the explicit tree the narration letters (optional).
        palette: the picture's colours.

    Returns:
        The path written.

    Raises:
        OSError: the file cannot be written.
    """
    lay = layout(tree, max_children=max_children, collapse=max_nodes)
    names, pruned = lab_names(tree, root)
    pic = build_picture(lay, summary, font_size=font_size, measure=measure_text, names=names, pruned_names=pruned,
                        palette=palette)
    scale = min(1.0, max_side / max(pic.width, pic.height))
    ss = max(1, supersample) if pic.width * pic.height * scale * scale * supersample ** 2 < 80e6 else 1
    w, h = max(1, math.ceil(pic.width * scale)), max(1, math.ceil(pic.height * scale))
    big = pygame.Surface((w * ss, h * ss))
    draw_picture(big, pic, zoom=scale * ss)
    out = pygame.transform.smoothscale(big, (w, h)) if ss > 1 else big
    p = Path(path)
    try:
        pygame.image.save(out, str(p))
    except pygame.error as e:
        raise OSError(str(e)) from None
    return p
