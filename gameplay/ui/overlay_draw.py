"""Drawing the parts of the search-tree overlay around the tree: header, counter panel, button bar, hover box,
the current step's callout and the narration line (:class:`gameplay.ui.overlay.TreeOverlay` calls these).

Sizes are design pixels at the interface scale (:func:`gameplay.ui.projector.px`), except the presenter view's
narration, whose font is given in screen pixels (:data:`PRESENTER_NARRATION_PX`, at least 28 px tall).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pygame

from ai.recording import CHANCE, RecordedNode, SearchTree
from ai.trace import _num, kind_text, live_window, node_path, path_text
from gameplay.tree_layout import NODE, PRUNED
from gameplay.tree_picture import Picture, item_box, lab_names, window_line
from gameplay.ui import projector
from gameplay.ui.tree_png import draw_picture, hit_rects

if TYPE_CHECKING:
    from gameplay.ui.overlay import TreeOverlay

BG = (255, 255, 255)
INK = (17, 17, 17)
MUTED = (77, 77, 77)
PANEL_BG = (242, 242, 242)
RULE = (190, 190, 190)
PATH = (204, 121, 167)
"""Okabe-Ito reddish purple: the current path of the step-through."""
CURRENT = (0, 0, 0)
BUTTON_BG = (230, 234, 242)
BUTTON_HOVER = (205, 215, 235)
BUTTON_ON = (0, 114, 178)
PRESENTER_NARRATION_PX = 30.0
"""Size (screen pixels, the picture's convention) of the narration line in the presenter view: the font drawn
is 29 px tall (``Font.get_height()``), over the 28 px a room needs."""


def _ensure_fonts() -> None:
    """Forget the cached fonts (``gameplay.ui.tree_png``) made before a ``pygame.quit()`` (they raise "font
    module quit since font created")."""
    from gameplay.ui import tree_png
    if not pygame.font.get_init():
        pygame.font.init()
    probe = next(iter(tree_png._FONTS.values()), None)
    if probe is not None:
        try:
            probe.size("x")
        except pygame.error:
            tree_png._FONTS.clear()


def _font(px: float, bold: bool = False) -> pygame.font.Font:
    """pygame's default font with glyphs about ``px`` design pixels tall at the interface scale (the one cache
    in ``gameplay.ui.tree_png``)."""
    from gameplay.ui.tree_png import _font as cached_font
    return cached_font(max(6.0, px * projector.scale()), bold)


def _screen_font(px: float, bold: bool = False) -> pygame.font.Font:
    """The same font at ``px`` screen pixels (no interface scale)."""
    from gameplay.ui.tree_png import _font as cached_font
    return cached_font(max(6.0, px), bold)


def _text(s: str) -> str:
    """Replace the characters pygame's default font lacks (it draws them as boxes): ``∞``, ``≈``, arrows..."""
    from gameplay.ui.tree_png import safe_text
    return safe_text(s)


def wrap(text: str, font: pygame.font.Font, width: int) -> list[str]:
    """Split ``text`` into lines no wider than ``width`` pixels (at spaces)."""
    words = _text(text).split(" ")
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


def narration_font(ov: TreeOverlay) -> pygame.font.Font:
    """The font of the narration line: :data:`PRESENTER_NARRATION_PX` screen pixels in the presenter view,
    else 19 design pixels."""
    return _screen_font(PRESENTER_NARRATION_PX) if ov.presenter else _font(19)


def narration_text(ov: TreeOverlay) -> str:
    """The sentence of the current step (:func:`ai.narration.narration`, computed once per tree), or for the
    finished search its last sentence; without ``ai.narration`` the step's own description."""
    tree = ov.tree
    if tree is None:
        return ""
    sentences = ov._sentences
    if sentences is None or ov._sentences_of is not tree:
        sentences = []
        try:
            from ai.narration import narration
            sentences = list(narration(tree, symbols="unicode"))
        except Exception:  # noqa: BLE001 - no narration module (or it failed): the step's own description
            sentences = []
        ov._sentences, ov._sentences_of = sentences, tree
    step = ov.step
    if step is not None and len(sentences) == len(ov.events) and sentences:
        return f"Step {step + 1} of {len(ov.events)}: {sentences[step]}"
    if step is None:
        last = f"{sentences[-1]} " if sentences and len(sentences) == len(ov.events) else ""
        return (f"{last}The finished search: {len(ov.events)} steps. Page Down (or the clicker) steps through "
                "it in visiting order.")
    return step_description(ov)


def step_description(ov: TreeOverlay) -> str:
    """``Step 3 of 20: Entering MIN node a > b: ...`` from the trace alone (the fallback of the narration)."""
    ev = ov.current_event()
    cur = ov.current_node()
    if ev is None or cur is None:
        return f"The finished search ({len(ov.events)} steps)."
    step = ov.step if ov.step is not None else 0
    return f"Step {step + 1} of {len(ov.events)}: {step_action(ov, ev.leaving, cur)}"


def step_action(ov: TreeOverlay, leaving: bool, cur: RecordedNode) -> str:
    """``Entering MIN node root > 4`` or ``Leaving MAX node root > 4 > 0: value 3, cut off 2 moves``."""
    verb = "Leaving" if leaving else "Entering"
    val = ""
    if leaving:
        val = f": value {cur.label()}"
        if cur.skipped:
            val += f", cut off {len(cur.skipped)} move{'s' if len(cur.skipped) > 1 else ''}"
    return f"{verb} {kind_text(cur)} {path_text(node_path(ov._by_id, cur.id))}{val}"


def draw_narration(ov: TreeOverlay, surface: pygame.Surface) -> None:
    """The current step's sentence in the band under the tree (:attr:`TreeOverlay.narration_rect`), wrapped
    over at most two lines."""
    r = ov.narration_rect
    if r.height <= 0:
        return
    pygame.draw.rect(surface, PANEL_BG, r)
    pygame.draw.line(surface, RULE, r.topleft, (r.right - 1, r.top), 2)
    f = narration_font(ov)
    lines = wrap(narration_text(ov), f, r.width - 28)
    if len(lines) > 2:
        lines = [lines[0], lines[1] + " ..."]
    y = r.y + 6
    for line in lines:
        surface.blit(f.render(line, True, INK), (r.x + 14, y))
        y += f.get_height()
    ov.drawn_narration = (lines, f.get_height())


NO_TREE = ("No AI decision yet", ("The tree of the AI's next move will appear here.",))
"""The header's title and notes before any decision."""


def header_texts(ov: TreeOverlay) -> tuple[str, Sequence[str]]:
    """The header's title and notes (the title alone in the presenter view)."""
    if ov.tree is None or ov.info is None:
        return ov.no_tree_message or NO_TREE
    return ov.info.title, () if ov.presenter else ov.info.notes


def header_headline(ov: TreeOverlay) -> Sequence[str]:
    """The lines said at the title's size after it (:attr:`ai.decision_model.TreeInfo.headline`): which iteration
    the tree shows when it is not the decision's, with its root's value. Kept in the presenter view too."""
    if ov.tree is None or ov.info is None:
        return ()
    return ov.info.headline


def header_layout(ov: TreeOverlay, width: int) -> tuple[list[tuple[str, pygame.font.Font, tuple[int, int, int]]], int]:
    """The header's lines, wrapped to ``width`` pixels (the title bold, the headline at the same size, then each
    note in small grey print), and the height in pixels they need; nothing is cut. The title's numbers and the
    headline's (another iteration's depth and value) share one size, so neither reads as a footnote."""
    title, notes = header_texts(ov)
    f1, f1r, f2 = _font(24, True), _font(24), _font(18)
    lines = [(t, f1, INK) for t in wrap(title, f1, width - 28)]
    for line in header_headline(ov):
        lines += [(t, f1r, INK) for t in wrap(line, f1r, width - 28)]
    for note in notes:
        lines += [(t, f2, MUTED) for t in wrap(note, f2, width - 28)]
    return lines, 10 + sum(f.get_linesize() for _, f, _ in lines)


def draw_header(ov: TreeOverlay, surface: pygame.Surface) -> None:
    r = ov.header_rect
    pygame.draw.rect(surface, PANEL_BG, r)
    pygame.draw.line(surface, RULE, r.bottomleft, (r.right - 1, r.bottom), 2)
    lines, _ = header_layout(ov, r.width)
    y = r.y + 5
    for text, font, color in lines:
        if y + font.get_height() > r.bottom:
            break
        surface.blit(font.render(text, True, color), (r.x + 14, y))
        y += font.get_linesize()


_NAMES: list[tuple[SearchTree, tuple[dict[int, str], dict[tuple[int, str], str]]]] = []
"""The last tree named by :func:`picture_names` and its names (one entry: the overlay shows one tree)."""


def picture_names(ov: TreeOverlay) -> tuple[dict[int, str], dict[tuple[int, str], str]]:
    """The names the narration gives the overlay's tree (:func:`gameplay.tree_picture.lab_names`): a Tree Lab
    tree's ``A``, ``B``... by node id and the pruned children it names; nothing for a game tree, whose nodes
    are named by their moves. Computed once per tree."""
    tree = ov.tree
    if tree is None:
        return {}, {}
    if not _NAMES or _NAMES[0][0] is not tree:
        _NAMES[:] = [(tree, lab_names(tree))]
    return _NAMES[0][1]


def node_name(ov: TreeOverlay, n: RecordedNode) -> str:
    """``E`` or ``leaf 5`` in a Tree Lab tree (the narration's name), else the move from the parent (``root``)."""
    return picture_names(ov)[0].get(n.id) or n.move or "root"


def callout_obstacles(ov: TreeOverlay, pic: Picture, node: pygame.Rect
                      ) -> tuple[list[pygame.Rect], list[pygame.Rect]]:
    """What the step callout should not cover, in canvas pixels: first the hit boxes of the other nodes and
    ``+N`` markers and the legend row, then every other drawn item (labels, windows, names; not edges), less the
    items of the current node (inside ``node``, its framed box)."""
    from gameplay.ui.tree_png import measure_text
    z, (ox, oy) = ov.zoom, ov.offset

    def screen(b: tuple[float, float, float, float]) -> pygame.Rect:
        return pygame.Rect(round(b[0] * z + ox), round(b[1] * z + oy), max(1, round(b[2] * z)),
                           max(1, round(b[3] * z)))

    hard = [r for r, _ in ov._hits if not node.contains(r)]
    if pic.legend is not None:
        hard.append(screen(pic.legend))
    soft = []
    for it in pic.items:
        b = item_box(it, measure_text)
        if b is not None:
            r = screen(b)
            if not node.contains(r):
                soft.append(r)
    return hard, soft


def place_callout(size: tuple[int, int], node: pygame.Rect, bounds: pygame.Rect, hard: Sequence[pygame.Rect],
                  soft: Sequence[pygame.Rect] = ()) -> pygame.Rect:
    """Where the step callout goes: right of the node's box, else left, above, below, the first inside
    ``bounds`` that covers none of ``hard`` (other nodes, ``+N`` markers, the legend) nor ``soft`` (labels); else
    the first that covers no ``hard``; else the one covering the least. Returns the box's rectangle (the black
    backing is 6 px wider each side and 4 px taller)."""
    w, h = size
    cands = []
    for spot in ("right", "left", "above", "below"):
        box = pygame.Rect(0, 0, w, h)
        if spot == "right":
            box.midleft = (node.right + 8, node.top + 4)
        elif spot == "left":
            box.midright = (node.left - 8, node.top + 4)
        elif spot == "above":
            box.midbottom = (node.centerx, node.top - 8)
        else:
            box.midtop = (node.centerx, node.bottom + 8)
        cands.append(box)

    def inside(box: pygame.Rect) -> bool:
        return bounds.contains(box.inflate(12, 8))

    def covered(box: pygame.Rect, rects: Sequence[pygame.Rect]) -> int:
        back = box.inflate(12, 8)
        return sum(back.clip(r).width * back.clip(r).height for r in rects)

    for rects in ((*hard, *soft), hard):
        for box in cands:
            if inside(box) and covered(box, rects) == 0:
                return box
    best = min(cands, key=lambda b: (covered(b, hard), not inside(b)))
    back = best.inflate(12, 8).clamp(bounds)
    return best.move(back.centerx - best.centerx, back.centery - best.centery)


def callout_text(ov: TreeOverlay, cur: RecordedNode, hidden: bool = False) -> str:
    """The callout's words: ``entering E  α=3 β=+∞`` (the node's name, :func:`node_name`, and its window now)."""
    ev = ov.current_event()
    assert ev is not None
    verb = "leaving" if ev.leaving else "entering"
    bits = [f"{verb} {node_name(ov, cur)}" + (" (further down, hidden)" if hidden else "")]
    if ov.lay is not None and ov.lay.show_window and cur.kind != CHANCE:
        a, b = live_window(ov._by_id, cur, ev.order)
        bits.append(window_line(a, b, cur.proofs))
    return "  ".join(bits)


def draw_callout(ov: TreeOverlay, canvas: pygame.Surface, r: pygame.Rect, cur: RecordedNode, hidden: bool
                 ) -> pygame.Rect:
    """The black box beside the current step's node (``r``, its framed box on ``canvas``): ``entering E`` /
    ``leaving 4`` (the narration's name in a Tree Lab tree, else the move) and the window now. Placed where it
    covers nothing else when it can (:func:`place_callout`). Returns the box's rectangle."""
    f = _font(18, False)
    img = f.render(_text(callout_text(ov, cur, hidden)), True, (255, 255, 255))
    hard: list[pygame.Rect] = []
    soft: list[pygame.Rect] = []
    if ov._pic is not None:
        hard, soft = callout_obstacles(ov, ov._pic, r)
    box = place_callout(img.get_size(), r, canvas.get_rect().inflate(-8, -8), hard, soft)
    pygame.draw.rect(canvas, CURRENT, box.inflate(12, 8), border_radius=6)
    canvas.blit(img, box)
    return box


HINTS = ("PgDn/PgUp or arrows: step", "Space: play", "P: presenter view", "click +N: open",
         "right-click or A: all children", "Home/End", "wheel/drag: zoom/pan", "E: export")
"""The key hints under the buttons, most useful first; as many as fit the line are shown."""


def bar_specs(ov: TreeOverlay) -> list[tuple[str, str]]:
    """``(name, label)`` of the bar's buttons, in order."""
    specs: list[tuple[str, str]] = [("first", "|< Start"), ("prev", "< Prev"),
                                    ("play", "Pause" if ov.playing else "Play"), ("next", "Next >"),
                                    ("end", "End >|"), ("speed", f"Speed {ov.speed:g}/s"),
                                    ("zoom_out", "Zoom -"), ("zoom_in", "Zoom +"), ("fit", "Fit"),
                                    ("export", "Export")]
    if ov.on_growth is not None:
        specs.append(("growth", "Growth"))
    specs += [("presenter", "Exit presenter (P)" if ov.presenter else "Presenter (P)")]
    if ov.closable:
        specs.append(("close", "Close (T)"))
    return specs


def bar_geometry(ov: TreeOverlay, width: int) -> tuple[list[tuple[str, str, pygame.Rect]], int]:
    """The buttons' rects relative to the bar's top-left corner for a bar ``width`` pixels wide, and the height
    in pixels the bar needs: its rows of buttons, plus one line of key hints (or of :attr:`message`) outside
    the presenter view when the buttons take one row (the keys are in the help, F1, too)."""
    f = _font(18, False)
    pad, gap, bh = projector.px(12), projector.px(8), projector.px(36)
    x, y = 10, 8
    out: list[tuple[str, str, pygame.Rect]] = []
    for name, label in bar_specs(ov):
        bw = f.size(label)[0] + 2 * pad
        if x + bw > width - 10 and x > 10:
            x, y = 10, y + bh + 6
        out.append((name, label, pygame.Rect(x, y, bw, bh)))
        x += bw + gap
    hint = not ov.presenter and (y == 8 or bool(ov.message))  # two rows of buttons leave no room for hints
    return out, y + bh + 8 + (f.get_linesize() + 6 if hint else 0)


def hint_text(ov: TreeOverlay, font: pygame.font.Font, width: int) -> str:
    """The message, or the key hints that fit ``width`` pixels in ``font`` (whole hints only, never cut)."""
    if ov.message:
        lines = wrap(ov.message, font, width)
        return lines[0] + (" ..." if len(lines) > 1 else "")
    out = ""
    for h in HINTS:
        t = h if not out else out + "   " + h
        if font.size(_text(t))[0] > width:
            break
        out = t
    return out


def draw_bar(ov: TreeOverlay, surface: pygame.Surface) -> None:
    r = ov.bar_rect
    pygame.draw.rect(surface, PANEL_BG, r)
    pygame.draw.line(surface, RULE, r.topleft, (r.right - 1, r.top), 2)
    f = _font(18, False)
    ov._buttons = []
    buttons, _ = bar_geometry(ov, r.width)
    bottom = r.y
    for name, label, rel in buttons:
        rect = rel.move(r.x, r.y)
        hot = rect.collidepoint(ov.mouse)
        on = name == "play" and ov.playing
        pygame.draw.rect(surface, BUTTON_ON if on else (BUTTON_HOVER if hot else BUTTON_BG), rect,
                         border_radius=6)
        pygame.draw.rect(surface, INK, rect, 2, border_radius=6)
        img = f.render(label, True, (255, 255, 255) if on else INK)
        surface.blit(img, img.get_rect(center=rect.center))
        ov._buttons.append((name, rect, label))
        bottom = rect.bottom
    hint = hint_text(ov, f, r.width - 24)
    if hint and bottom + 6 + f.get_height() <= r.bottom:
        img = f.render(_text(hint), True, INK if ov.message else MUTED)
        surface.blit(img, (r.x + 12, bottom + 6))


def draw_hover(ov: TreeOverlay, surface: pygame.Surface) -> None:
    it = ov.hover_item
    if it is None or ov._drag is not None or ov.info is None:
        return
    lines: list[str] = []
    board_state: Any = None
    n = it.node
    lay = ov._pic_lay
    names, pruned_names = picture_names(ov)
    if it.kind == NODE and n is not None:
        path = node_path(ov._by_id, n.id)
        nm = names.get(n.id)
        lines.append(f"{nm} ({path_text(path)})" if nm else path_text(path))
        lines.append(f"{kind_text(n)}: value {n.label()}")
        if ov.lay is not None and ov.lay.show_window and n.kind != CHANCE:
            lines.append(f"searched with α={_num(n.alpha_in, n.proofs)} β={_num(n.beta_in, n.proofs)}")
            ev = ov.current_event()
            rec = ov._by_id.get(n.id, n)
            if ev is not None and rec.leave_order > ev.order:
                a, b = live_window(ov._by_id, rec, ev.order)
                lines.append(f"now α={_num(a, n.proofs)} β={_num(b, n.proofs)}")
            else:
                a, b = live_window(ov._by_id, rec, rec.leave_order)
                lines.append(f"left with α={_num(a, n.proofs)} β={_num(b, n.proofs)}")
        if n.probability is not None:
            lines.append(f"probability {n.probability:.3g}")
        if n.skipped:
            lines.append(f"cut off: {', '.join(n.skipped[:6])}{' ...' if len(n.skipped) > 6 else ''}")
        if n.note in ("tt", "repetition", "etc", "database"):
            lines.append({"tt": "value from the transposition table", "repetition": "repeated position",
                          "etc": "enhanced transposition cutoff: a child's table entry fails high",
                          "database": "value from the endgame database"}[n.note])
        board_state = n.state
    elif it.kind == PRUNED:
        par = lay.nodes[it.parent].node if lay is not None and it.parent is not None else None
        named = [pruned_names.get((par.id, m), "") for m in it.moves[:6]] if par is not None else []
        moves = [f"{m} ({nm})" if nm else m for m, nm in itertools.zip_longest(it.moves[:6], named, fillvalue="")]
        lines.append(f"never searched: {', '.join(moves)}")
        if it.reason:
            lines.append(f"cut off because {it.reason}")
        if lay is not None and it.parent is not None:
            pn = lay.nodes[it.parent].node
            board_state = pn.state if pn is not None else None
            if board_state is not None:
                lines.append("(the position where the cut-off happened)")
    else:
        lines.append(f"{it.hidden} nodes hidden here: click to open")
    show_board = board_state is not None and ov.info.view is not None and ov.info.game is not None
    f = _font(18)
    tw = max(f.size(_text(s))[0] for s in lines) + 20
    bw = 200 if show_board else 0
    w = max(tw, bw + 20)
    h = len(lines) * (f.get_linesize()) + 16 + (bw + 10 if show_board else 0)
    x, y = ov.mouse[0] + 18, ov.mouse[1] + 18
    x = min(x, ov.rect.right - w - 4)
    y = min(y, ov.rect.bottom - h - 4)
    box = pygame.Rect(x, y, w, h)
    pygame.draw.rect(surface, (255, 255, 224), box, border_radius=8)
    pygame.draw.rect(surface, INK, box, 2, border_radius=8)
    yy = y + 8
    for s in lines:
        surface.blit(f.render(_text(s), True, INK), (x + 10, yy))
        yy += f.get_linesize()
    if show_board:
        from gameplay.ui.board import ViewState
        br = pygame.Rect(x + (w - bw) // 2, yy + 4, bw, bw)
        pygame.draw.rect(surface, (22, 26, 36), br)
        try:
            to_move = ov.info.game.to_move(board_state)
        except Exception:  # noqa: BLE001
            to_move = 0
        try:
            ov.info.view.draw(surface, br, board_state, ViewState(to_move=to_move))
        except Exception:  # noqa: BLE001 - a board view that cannot draw small shows no board
            pygame.draw.rect(surface, MUTED, br, 2)


def draw_canvas(ov: TreeOverlay, surface: pygame.Surface) -> None:
    """The tree at the overlay's zoom and offset, with the current step's path, its box and callout, and the
    selection ring (cached on a surface of the canvas's size)."""
    pic, lay = ov._picture()
    c = ov.canvas_rect
    if pic is None or lay is None:
        return
    cur = ov.current_node()
    key = (ov._pic_key, round(ov.zoom, 4), tuple(round(v) for v in ov.offset), c.size,
           cur.id if cur else None, ov.selected_id)
    if ov._canvas is None or ov._canvas.get_size() != c.size:
        ov._canvas = pygame.Surface(c.size)
        ov._canvas_key = None
    if ov._canvas_key != key:
        canvas = ov._canvas
        canvas.fill(BG)
        ov._hits = hit_rects(pic, lay, zoom=ov.zoom, offset=ov.offset)
        rects = {it.node.id: r for r, it in ov._hits if it.node is not None}
        if cur is not None and ov._follow:
            ov._follow = False
            path_shown = [p.id for p in node_path(ov._by_id, cur.id) if p.id in rects]
            shown_id = path_shown[-1] if path_shown else None
            if shown_id is not None:
                target = rects[shown_id].inflate(60, 60)
                if len(path_shown) > 1:  # the parent too, whose alpha or beta the step updates, when both fit
                    both = target.union(rects[path_shown[-2]].inflate(60, 60))
                    if both.width <= canvas.get_width() and both.height <= canvas.get_height():
                        target = both
                if not canvas.get_rect().contains(target):
                    ox, oy = ov.offset
                    cr = canvas.get_rect()
                    dx = cr.centerx - target.centerx if not (0 <= target.left and target.right <= cr.right) else 0
                    dy = cr.centery - target.centery if not (0 <= target.top and target.bottom <= cr.bottom) else 0
                    ov.offset = (ox + dx, oy + dy)
                    ov._hits = hit_rects(pic, lay, zoom=ov.zoom, offset=ov.offset)
                    rects = {it.node.id: r for r, it in ov._hits if it.node is not None}
                    key = key[:2] + (tuple(round(v) for v in ov.offset),) + key[3:]
        path_ids = [p.id for p in node_path(ov._by_id, cur.id)] if cur is not None else []
        visible_path = [i for i in path_ids if i in rects]
        for a, b in itertools.pairwise(visible_path):
            pygame.draw.line(canvas, PATH, rects[a].center, rects[b].center, max(6, round(16 * ov.zoom)))
        draw_picture(canvas, pic, zoom=ov.zoom, offset=ov.offset, clear=False)
        for i in visible_path:
            pygame.draw.rect(canvas, PATH, rects[i].inflate(14, 14), 5, border_radius=10)
        if cur is not None:
            shown = visible_path[-1] if visible_path else None
            if shown is not None:
                r = rects[shown].inflate(26, 26)
                pygame.draw.rect(canvas, CURRENT, r, 4, border_radius=12)
                draw_callout(ov, canvas, r, cur, hidden=shown != cur.id)
        if ov.selected_id is not None and ov.selected_id in rects:
            pygame.draw.rect(canvas, (0, 114, 178), rects[ov.selected_id].inflate(20, 20), 4,
                             border_radius=10)
        ov._canvas_key = key
    surface.blit(ov._canvas, c.topleft)
