"""Drawing the parts of the search-tree overlay around the tree: header, counter panel, button bar, hover box,
the current step's callout and the narration line (the painter,
:class:`gameplay.ui.overlay.overlay_paint.OverlayPainter`, calls these). They read the overlay
(:class:`~gameplay.ui.overlay.overlay_shown.ShownOverlay`) and change none of it: what was drawn where is returned to
the painter.

Sizes are design pixels at the interface scale (:func:`gameplay.ui.widgets.projector.px`), except the presenter view's
narration, whose font is given in screen pixels at 1280x720 (:data:`PRESENTER_NARRATION_PX`, at least 28 px tall) and
grows with the screen (:func:`presenter_px`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from ai.kernel.recording import RecordedNode, SearchTree
from ai.kernel.spelling import UNICODE
from ai.teaching.trace import kind_text, node_path, path_text
from gameplay.pictures.tree_picture import Item, lab_names, legend_items
from gameplay.pictures.tree_png import draw_picture, font_at, safe_text
from gameplay.ui.overlay.overlay_shown import NoTreeText, ShownOverlay
from gameplay.ui.widgets import projector


@dataclass(frozen=True)
class Chrome:
    """The colours of the overlay around the tree (header, panels, bar, path and frames), one set per theme."""

    bg: tuple[int, int, int]
    ink: tuple[int, int, int]
    muted: tuple[int, int, int]
    panel_bg: tuple[int, int, int]
    rule: tuple[int, int, int]
    path: tuple[int, int, int]
    """The current path of the step-through."""
    current: tuple[int, int, int]
    """The frame and callout of the current step's node."""
    button_bg: tuple[int, int, int]
    button_hover: tuple[int, int, int]
    button_on: tuple[int, int, int]
    button_on_ink: tuple[int, int, int]
    """Text on a pressed (or, in high contrast, hovered) button."""
    tip: tuple[int, int, int]
    """The hover boxes' background."""


NORMAL_CHROME = Chrome(bg=(255, 255, 255), ink=(17, 17, 17), muted=(77, 77, 77), panel_bg=(242, 242, 242),
                       rule=(190, 190, 190), path=(204, 121, 167), current=(0, 0, 0), button_bg=(230, 234, 242),
                       button_hover=(205, 215, 235), button_on=(0, 114, 178), button_on_ink=(255, 255, 255),
                       tip=(255, 255, 224))
"""Near-black on white; Okabe-Ito reddish purple for the path of the step-through."""
HIGH_CONTRAST_CHROME = Chrome(bg=(0, 0, 0), ink=(255, 255, 255), muted=(230, 230, 230), panel_bg=(0, 0, 0),
                              rule=(255, 255, 255), path=(255, 105, 180), current=(255, 255, 255),
                              button_bg=(0, 0, 0), button_hover=(255, 230, 0), button_on=(255, 230, 0),
                              button_on_ink=(0, 0, 0), tip=(0, 0, 0))
"""The window's high-contrast theme (Ctrl+H) round the tree: white on black, yellow for what is pressed."""


def chrome() -> Chrome:
    """The overlay's colours for the current theme (:mod:`gameplay.ui.widgets.projector`)."""
    return HIGH_CONTRAST_CHROME if projector.current().high_contrast else NORMAL_CHROME


PRESENTER_CALLOUT_PX = 25.0
"""Size (screen pixels at 1280x720) of the step callout's words in the presenter view (24 px tall glyphs)."""
PRESENTER_NARRATION_PX = 30.0
"""Size (screen pixels at 1280x720, the picture's convention) of the narration line in the presenter view: the font
drawn is 28 px tall (``Font.get_height()``), what a room needs."""
PRESENTER_LEAST_NARRATION_PX = 25.0
"""The smallest the presenter view's narration is set (screen pixels at 1280x720) when a long sentence needs more
rows: 24 px tall glyphs."""


def presenter_px(ov: ShownOverlay, px: float) -> float:
    """``px`` screen pixels of the presenter view at 1280x720, on the overlay's screen
    (:func:`gameplay.ui.overlay.overlay_view.presenter_scale`: 1.5 times as many at 1920x1080)."""
    from gameplay.ui.overlay.overlay_view import presenter_scale
    return px * presenter_scale(ov)


def ui_font(px: float, bold: bool = False) -> pygame.font.Font:
    """pygame's default font with glyphs about ``px`` design pixels tall at the interface scale (the one cache
    in ``gameplay.pictures.tree_png``)."""
    return font_at(max(6.0, px * projector.scale()), bold)


def screen_font(px: float, bold: bool = False) -> pygame.font.Font:
    """The same font at ``px`` screen pixels (no interface scale)."""
    return font_at(max(6.0, px), bold)


def wrap(text: str, font: pygame.font.Font, width: int) -> list[str]:
    """Split ``text`` into lines no wider than ``width`` pixels (at spaces); remembered, as the overlay lays out
    the same lines many times a frame."""
    text = safe_text(text)
    key = (text, id(font), font.get_height(), width)
    done = _WRAPPED.get(key)
    if done is None:
        done = _wrap(text, font, width)
        if len(_WRAPPED) > 20_000:
            _WRAPPED.clear()
        _WRAPPED[key] = done
    return list(done)


_WRAPPED: dict[tuple[str, int, int, int], list[str]] = {}


def _wrap(text: str, font: pygame.font.Font, width: int) -> list[str]:
    words = text.split(" ")
    lines: list[str] = []
    cur = ""
    for w in words:
        t = w if not cur else cur + " " + w
        if font.size(t)[0] <= width or not cur:
            cur = t
        else:
            lines.append(cur)
            cur = w
    if cur:
        lines.append(cur)
    return lines


def narration_font(ov: ShownOverlay) -> pygame.font.Font:
    """The font of the narration line: :data:`PRESENTER_NARRATION_PX` screen pixels in the presenter view (growing
    with the screen: :func:`presenter_px`), else 19 design pixels."""
    return screen_font(presenter_px(ov, PRESENTER_NARRATION_PX)) if ov.presenter else ui_font(19)


FINISHED_HINT = "Page Down (or the clicker) steps through it in visiting order."
"""Said after the finished search's last sentence when the narration band has room for it."""
NARRATION_MAX_ROWS = (3, 4)
"""Most lines the narration band grows to, in the window and in the presenter view (a longer sentence is set in a
smaller font, never cut)."""


def narration_text(ov: ShownOverlay, hint: bool = True) -> str:
    """The sentence of the current step (:meth:`TreeOverlay.narrated`: the same words as ``tree --narrate`` and
    the exports), or for the finished search its last sentence (``hint``: and how to step through it); without a
    narration the step's own description."""
    if ov.tree is None:
        return ""
    steps = ov.narrated()
    step = ov.step
    if step is not None and steps:
        return f"Step {step + 1} of {len(ov.events)}: {steps[step].text}"
    if step is None:
        last = f"{steps[-1].text} " if steps else ""
        return f"{last}The finished search: {len(ov.events)} steps." + (f" {FINISHED_HINT}" if hint else "")
    return step_description(ov)


def narration_rows(ov: ShownOverlay, width: int) -> int:
    """Lines the narration band holds for this tree: the most any of its sentences needs at ``width`` pixels (the
    longest few measured), at least 2 and at most :data:`NARRATION_MAX_ROWS`, so the band (and the canvas above it)
    keeps one height while the step-through runs."""
    steps = ov.narrated()
    f = narration_font(ov)
    key = (id(ov.tree), width, f.get_height(), len(ov.events), ov.presenter)
    if _ROWS and _ROWS[0][0] == key:
        return _ROWS[0][1]
    texts = sorted((s.text for s in steps), key=len, reverse=True)[:12]
    n = len(ov.events)
    longest = [f"Step {n} of {n}: {t}" for t in texts] + [narration_text(_Finished(ov), hint=False)]
    rows = min(max([2] + [len(wrap(t, f, width)) for t in longest]), NARRATION_MAX_ROWS[1 if ov.presenter else 0])
    small = screen_font(_least_narration_px(ov))  # what the longest need in the smallest font allowed
    rows = max([rows] + [len(wrap(t, small, width)) for t in longest])
    _ROWS[:] = [(key, rows)]
    return rows


def _least_narration_px(ov: ShownOverlay) -> float:
    """The smallest narration font (screen pixels): 24 px tall glyphs in the presenter view at 1280x720 (more on a
    larger screen: :func:`presenter_px`), 16 px else."""
    return presenter_px(ov, PRESENTER_LEAST_NARRATION_PX) if ov.presenter else 17.0


class _Finished:
    """``ov`` seen at its finished search (for measuring its last sentence)."""

    def __init__(self, ov: ShownOverlay) -> None:
        self._ov = ov

    def __getattr__(self, name: str) -> Any:
        return None if name == "step" else getattr(self._ov, name)


_ROWS: list[tuple[Any, int]] = []


def narration_lines(ov: ShownOverlay, width: int) -> tuple[list[str], pygame.font.Font]:
    """The current sentence wrapped to ``width`` pixels in the rows of the band (:func:`narration_rows`): in the
    narration font, or a smaller one (never under 24 px tall in the presenter view, 16 px else) when a sentence
    needs more rows; never cut. The finished search's hint is added when it fits."""
    rows = narration_rows(ov, width)
    f = narration_font(ov)
    if ov.step is None:
        with_hint = wrap(narration_text(ov), f, width)
        if len(with_hint) <= rows:
            return with_hint, f
    text = narration_text(ov, hint=False)
    lines = wrap(text, f, width)
    size = presenter_px(ov, PRESENTER_NARRATION_PX) if ov.presenter else 19 * projector.scale()
    least = _least_narration_px(ov)
    while len(lines) > rows and size > least:
        size = max(least, size - 1)
        f = screen_font(size)
        lines = wrap(text, f, width)
    return lines, f


def step_description(ov: ShownOverlay) -> str:
    """``Step 3 of 20: Entering MIN node a > b: ...`` from the trace alone (the fallback of the narration)."""
    ev = ov.current_event()
    cur = ov.current_node()
    if ev is None or cur is None:
        return f"The finished search ({len(ov.events)} steps)."
    step = ov.step if ov.step is not None else 0
    return f"Step {step + 1} of {len(ov.events)}: {step_action(ov, ev.leaving, cur)}"


def step_action(ov: ShownOverlay, leaving: bool, cur: RecordedNode) -> str:
    """``Entering MIN node root > 4`` or ``Leaving MAX node root > 4 > 0: value 3, cut off 2 moves``."""
    verb = "Leaving" if leaving else "Entering"
    val = ""
    if leaving:
        val = f": value {cur.label(UNICODE)}"
        if cur.skipped:
            val += f", cut off {len(cur.skipped)} move{'s' if len(cur.skipped) > 1 else ''}"
    return f"{verb} {kind_text(cur)} {path_text(node_path(ov.by_id, cur.id))}{val}"


def draw_narration(ov: ShownOverlay, surface: pygame.Surface) -> tuple[list[str], int] | None:
    """The current step's sentence in the band under the tree (:attr:`TreeOverlay.narration_rect`), wrapped over
    the band's rows, never cut. Returns the lines drawn and their font's height in pixels (``None``: no band)."""
    r = ov.narration_rect
    if r.height <= 0:
        return None
    pygame.draw.rect(surface, chrome().panel_bg, r)
    pygame.draw.line(surface, chrome().rule, r.topleft, (r.right - 1, r.top), 2)
    lines, f = narration_lines(ov, r.width - 28)
    y = r.y + 6
    for line in lines:
        surface.blit(f.render(line, True, chrome().ink), (r.x + 14, y))
        y += f.get_height()
    return lines, f.get_height()


NO_TREE = NoTreeText("No AI decision yet", ("The tree of the AI's next move will appear here.",))
"""The header's title and notes before any decision."""


def counters_line(ov: ShownOverlay) -> str:
    """The counter panel's main numbers on one line, for the header when the panel is not shown (a small window):
    the shown tree's nodes (and its iteration), all iterations' nodes, leaves, cut-offs and plain minimax's count,
    read from the same decision model as the panel."""
    from ai.kernel.numbers import cutoff_text, iteration_words
    assert ov.tree is not None and ov.info is not None
    t, c, mm = ov.tree, ov.info.counts, ov.info.minimax
    key = (id(t), id(ov.info), mm.status, mm.nodes)
    if _LINE and _LINE[0][0] == key:
        return _LINE[0][1]
    parts = [f"{(c.shown_nodes if c is not None else t.visited):,} nodes in this tree"
             + (f" ({iteration_words(t.algorithm, c.shown_depth)})" if c is not None else "")]
    if c is not None:
        parts.append(f"{c.total_nodes:,} in all iterations")
    parts.append(f"{t.leaves:,} leaves")
    if t.algorithm != "expectimax":
        parts.append(cutoff_text(t.cutoffs, t.pruned_subtrees))
        depth = ov.info.depth
        parts.append(f"plain minimax{f' at depth {depth}' if depth else ''}: {mm.text()}")
    line = " · ".join(parts)
    _LINE[:] = [(key, line)]
    return line


_LINE: list[tuple[tuple[Any, ...], str]] = []
"""The last :func:`counters_line` (the header asks for it many times a frame)."""


def header_texts(ov: ShownOverlay) -> tuple[str, Sequence[str]]:
    """The header's title and notes (the title alone in the presenter view)."""
    if ov.tree is None or ov.info is None:
        said = ov.no_tree_message or NO_TREE
        return said.title, said.notes
    if ov.presenter:
        return ov.info.title, ()
    if not ov.show_side and ov.info.counts is not None:  # no counter panel: its numbers on one line here
        return ov.info.title, (*ov.info.notes, counters_line(ov))
    return ov.info.title, ov.info.notes


def header_headline(ov: ShownOverlay) -> Sequence[str]:
    """The lines said at the title's size after it (:attr:`ai.teaching.decision_model.TreeInfo.headline`): which
    iteration the tree shows when it is not the decision's, with its root's value. Kept in the presenter view too."""
    if ov.tree is None or ov.info is None:  # no tree: what the class is to read instead (an exact solver's tests)
        return (ov.no_tree_message or NO_TREE).lines
    return ov.info.headline


def header_layout(ov: ShownOverlay, width: int) -> tuple[list[tuple[str, pygame.font.Font, tuple[int, int, int]]], int]:
    """The header's lines, wrapped to ``width`` pixels (the title bold, the headline at the same size, then each
    note in small grey print), and the height in pixels they need; nothing is cut. The title's numbers and the
    headline's (another iteration's depth and value) share one size, so neither reads as a footnote. The presenter
    view without a tree (a book move, a proof) writes them half as large again: the header is all it shows."""
    title, notes = header_texts(ov)
    headline = tuple(header_headline(ov))
    big = ov.presenter and ov.tree is None  # the presenter view without a tree: the header is all it shows
    size, small = (36, 24) if big else (24, 18)
    f1, f1r, f2 = ui_font(size, True), ui_font(size), ui_font(small)
    key = (title, tuple(notes), headline, width, id(f1), id(f1r), id(f2), chrome())
    if _HEADER and _HEADER[0][0] == key:  # the canvas's rectangle asks for it many times a frame
        return list(_HEADER[0][1][0]), _HEADER[0][1][1]
    lines = [(t, f1, chrome().ink) for t in wrap(title, f1, width - 28)]
    for line in headline:
        lines += [(t, f1r, chrome().ink) for t in wrap(line, f1r, width - 28)]
    for note in notes:
        lines += [(t, f2, chrome().muted) for t in wrap(note, f2, width - 28)]
    height = 10 + sum(f.get_linesize() for _, f, _ in lines)
    _HEADER[:] = [(key, (lines, height))]
    return list(lines), height


_HEADER: list[tuple[Any, tuple[list[tuple[str, pygame.font.Font, tuple[int, int, int]]], int]]] = []
"""The last header laid out (:func:`header_layout`) and what it was laid out for."""


def draw_header(ov: ShownOverlay, surface: pygame.Surface) -> None:
    r = ov.header_rect
    pygame.draw.rect(surface, chrome().panel_bg, r)
    pygame.draw.line(surface, chrome().rule, r.bottomleft, (r.right - 1, r.bottom), 2)
    lines, _ = header_layout(ov, r.width)
    y = r.y + 5
    for text, font, color in lines:
        if y + font.get_height() > r.bottom:
            break
        surface.blit(font.render(text, True, color), (r.x + 14, y))
        y += font.get_linesize()


_NAMES: list[tuple[SearchTree, tuple[dict[int, str], dict[tuple[int, str], str]]]] = []
"""The last tree named by :func:`picture_names` and its names (one entry: the overlay shows one tree)."""


def picture_names(ov: ShownOverlay) -> tuple[dict[int, str], dict[tuple[int, str], str]]:
    """The names the narration gives the overlay's tree (:func:`gameplay.pictures.tree_picture.lab_names`): a Tree Lab
    tree's ``A``, ``B``... by node id and the pruned children it names; nothing for a game tree, whose nodes
    are named by their moves. Computed once per tree."""
    tree = ov.tree
    if tree is None:
        return {}, {}
    if not _NAMES or _NAMES[0][0] is not tree:
        _NAMES[:] = [(tree, lab_names(tree, getattr(ov.info, "root", None)))]
    return _NAMES[0][1]


def legend_layout(ov: ShownOverlay, width: int) -> tuple[list[Item], float]:
    """The legend strip's picture items (in strip coordinates: pixels from its top-left corner) and its height in
    pixels, for a strip ``width`` pixels wide (:func:`draw_legend` draws them; the last one built is kept)."""
    from gameplay.pictures.tree_picture import Palette
    from gameplay.pictures.tree_png import measure_text
    from gameplay.ui.overlay import overlay_view as view
    geo = ov.lay
    if geo is None or not geo.nodes:
        return [], 0.0
    f = view.text_sizes(ov)[0]
    pal: Palette = view.picture_palette(ov)
    key = (id(geo), ov.layout_version, ov.step is None, width, f, pal)
    if _LEGEND and _LEGEND[0][0] == key:
        return _LEGEND[0][1]
    items, _, h = legend_items(geo, None, 10, 6, f, pal, measure_text, max_width=width - 20,
                               stepping=ov.step is not None)
    _LEGEND[:] = [(key, (items, h + 12))]
    return items, h + 12


_LEGEND: list[tuple[Any, tuple[list[Item], float]]] = []
"""The last legend built (:func:`legend_layout`) and its key: the canvas's size asks for it several times a frame."""


def legend_height(ov: ShownOverlay, width: int) -> int:
    """Pixels the legend strip needs over a canvas ``width`` pixels wide (its rows wrap to that width)."""
    return int(round(legend_layout(ov, width)[1]))


def draw_legend(ov: ShownOverlay, surface: pygame.Surface) -> None:
    """The legend strip (:attr:`TreeOverlay.legend_rect`): what the shapes, dashes and lines mean."""
    from gameplay.pictures.tree_picture import Picture as Pic
    from gameplay.ui.overlay import overlay_view as view
    r = ov.legend_rect
    if r.height <= 0:
        return
    items, h = legend_layout(ov, r.width)
    pal = view.picture_palette(ov)
    strip = pygame.Surface(r.size)
    draw_picture(strip, Pic(r.width, h, items, [], background=pal.background))
    surface.blit(strip, r.topleft)
    pygame.draw.line(surface, chrome().rule, (r.x, r.bottom - 1), (r.right - 1, r.bottom - 1), 1)


HINTS = ("PgDn/PgUp or arrows: step", "Space: play", "P: presenter view", "Q: quiz", "click +N: open",
         "right-click or A: all children", "Home/End", "wheel/drag: zoom/pan", "E: export")
"""The key hints under the buttons, most useful first; as many as fit the line are shown."""
NO_TREE_HINTS = ("P: presenter view", "T: close")
"""The hints without a tree (the second when the view can be closed): the others act on one."""


SHORT_LABELS = {"first": "|<", "prev": "<", "next": ">", "end": ">|", "zoom_out": "-", "zoom_in": "+",
                "presenter": "Presenter", "close": "Close", "quiz": "Quiz"}
"""The bar's labels when the full ones need a second row (the keys are in the hint line and the help, F1)."""


def bar_specs(ov: ShownOverlay, short: bool = False) -> list[tuple[str, str]]:
    """``(name, label)`` of the bar's buttons, in order (``short``: :data:`SHORT_LABELS`). Without a tree (a book
    move, a proof, no decision yet) only the presenter view and Close: the others act on a tree."""
    specs: list[tuple[str, str]] = []
    if ov.tree is not None:
        specs += [("first", "|< Start"), ("prev", "< Prev"), ("play", "Pause" if ov.playing else "Play"),
                  ("next", "Next >"), ("end", "End >|"), ("speed", f"Speed {ov.speed:g}/s"), ("zoom_out", "Zoom -"),
                  ("zoom_in", "Zoom +"), ("fit", "Fit"), ("export", "Export")]
        if ov.on_growth is not None:
            specs.append(("growth", "Growth"))
        specs.append(("quiz", "Quiz off (Q)" if ov.quiz.on else "Quiz (Q)"))
    specs += [("presenter", "Exit presenter (P)" if ov.presenter else "Presenter (P)")]
    if ov.closable:
        specs.append(("close", "Close (T)"))
    if short:
        specs = [(n, "Exit (P)" if n == "presenter" and ov.presenter else
                  "Quiz off" if n == "quiz" and ov.quiz.on else
                  f"{ov.speed:g}/s" if n == "speed" else SHORT_LABELS.get(n, label)) for n, label in specs]
    return specs


def bar_geometry(ov: ShownOverlay, width: int) -> tuple[list[tuple[str, str, pygame.Rect]], int]:
    """The buttons' rects relative to the bar's top-left corner for a bar ``width`` pixels wide, and the height
    in pixels the bar needs: its rows of buttons (the short labels when the full ones need a second row), plus one
    line of key hints (or of :attr:`message`) outside the presenter view when the buttons take one row (the keys
    are in the help, F1, too)."""
    f = ui_font(18, False)
    key = (width, ov.presenter, ov.playing, ov.speed, bool(ov.message), ov.quiz.on, ov.on_growth is not None,
           ov.closable, projector.scale(), f.get_height(), ov.tree is None)
    cached = _BARS.get(key)
    if cached is not None:
        return [(n, label, pygame.Rect(r)) for n, label, r in cached[0]], cached[1]
    pad, gap, bh = projector.px(12), projector.px(8), projector.px(36)
    for short in (False, True):
        x, y = 10, 8
        out: list[tuple[str, str, pygame.Rect]] = []
        for name, label in bar_specs(ov, short):
            bw = f.size(label)[0] + 2 * pad
            if x + bw > width - 10 and x > 10:
                x, y = 10, y + bh + 6
            out.append((name, label, pygame.Rect(x, y, bw, bh)))
            x += bw + gap
        if y == 8:
            break
    hint = not ov.presenter and (y == 8 or bool(ov.message))  # two rows of buttons leave no room for hints
    height = y + bh + 8 + (f.get_linesize() + 6 if hint else 0)
    if len(_BARS) > 256:
        _BARS.clear()
    _BARS[key] = ([(n, label, pygame.Rect(r)) for n, label, r in out], height)
    return out, height


_BARS: dict[tuple[Any, ...], tuple[list[tuple[str, str, pygame.Rect]], int]] = {}
"""The bars laid out (:func:`bar_geometry`), by what they depend on: the overlay asks many times a frame."""


def hint_text(ov: ShownOverlay, font: pygame.font.Font, width: int) -> str:
    """The message, or the key hints that fit ``width`` pixels in ``font`` (whole hints only, never cut)."""
    if ov.message:
        lines = wrap(ov.message, font, width)
        return lines[0] + (" ..." if len(lines) > 1 else "")
    out = ""
    hints = HINTS if ov.tree is not None else NO_TREE_HINTS[:2 if ov.closable else 1]
    for h in hints:
        t = h if not out else out + "   " + h
        if font.size(safe_text(t))[0] > width:
            break
        out = t
    return out


def draw_bar(ov: ShownOverlay, surface: pygame.Surface) -> list[tuple[str, pygame.Rect, str]]:
    """The button bar and the hint (or message) line under it. Returns ``(name, window rectangle, label)`` of the
    buttons drawn."""
    r = ov.bar_rect
    pygame.draw.rect(surface, chrome().panel_bg, r)
    pygame.draw.line(surface, chrome().rule, r.topleft, (r.right - 1, r.top), 2)
    f = ui_font(18, False)
    drawn: list[tuple[str, pygame.Rect, str]] = []
    buttons, _ = bar_geometry(ov, r.width)
    bottom = r.y
    for name, label, rel in buttons:
        rect = rel.move(r.x, r.y)
        hot = rect.collidepoint(ov.mouse)
        on = name == "play" and ov.playing
        c = chrome()
        fill = c.button_on if on else (c.button_hover if hot else c.button_bg)
        pygame.draw.rect(surface, fill, rect, border_radius=6)
        pygame.draw.rect(surface, c.ink, rect, 2, border_radius=6)
        hc_hot = hot and projector.current().high_contrast  # black on the yellow of a hovered button
        img = f.render(label, True, c.button_on_ink if on or hc_hot else c.ink)
        surface.blit(img, img.get_rect(center=rect.center))
        drawn.append((name, rect, label))
        bottom = rect.bottom
    hint = hint_text(ov, f, r.width - 24)
    if hint and bottom + 6 + f.get_height() <= r.bottom:
        img = f.render(safe_text(hint), True, chrome().ink if ov.message else chrome().muted)
        surface.blit(img, (r.x + 12, bottom + 6))
    return drawn
