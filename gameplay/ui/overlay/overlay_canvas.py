"""The pygame painter of the tree view: a :class:`gameplay.pictures.step_view.StepView` drawn on the canvas (the
current step's path, its framed node and callout, the selection ring), and the hover box of a tree item.

:class:`gameplay.ui.overlay.overlay.TreeOverlay` makes the model
(:meth:`~gameplay.ui.overlay.overlay.TreeOverlay.step_view`) and its painter
(:class:`gameplay.ui.overlay.overlay_paint.OverlayPainter`) calls :func:`paint`; ``shot --json`` reports the same model.
Everything here reads the overlay (:class:`~gameplay.ui.overlay.overlay_shown.ShownOverlay`) and changes none of it.
Sizes are screen pixels; the colours are :func:`gameplay.ui.overlay.overlay_draw.chrome`'s.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import pygame

from ai.kernel.recording import CHANCE, RecordedNode
from ai.kernel.spelling import UNICODE
from ai.teaching.trace import kind_text, live_window, node_path, number_text, path_text
from gameplay.pictures.step_view import StepView
from gameplay.pictures.tree_layout import NODE, PRUNED, LayoutNode
from gameplay.pictures.tree_picture import item_box, passes_line, window_line
from gameplay.pictures.tree_png import draw_picture, measure_text, safe_text
from gameplay.ui.overlay.overlay_draw import (
    PRESENTER_CALLOUT_PX,
    chrome,
    picture_names,
    presenter_px,
    screen_font,
    ui_font,
)
from gameplay.ui.overlay.overlay_shown import ShownOverlay

Hits = Sequence[tuple[pygame.Rect, LayoutNode]]
"""``(canvas rectangle, layout item)`` of every item a pointer can act on
(:func:`gameplay.pictures.tree_png.hit_rects`)."""
SELECTED = (0, 114, 178)
"""The selection ring (Okabe-Ito blue)."""


# -- the model, drawn -------------------------------------------------------------------------------------------
def paint(canvas: pygame.Surface, model: StepView, hits: Hits, *, background: str,
          callout_font: pygame.font.Font) -> pygame.Rect | None:
    """Draw ``model`` on ``canvas``: the current path's band under the picture, the picture, a ring round each node
    of the path, the current node's frame and callout, the selection ring. Returns where the callout went
    (``None``: none was drawn)."""
    canvas.fill(pygame.Color(background))
    rects = {it.node.id: r for r, it in hits if it.node is not None}
    path = [i for i in model.path if i in rects]
    for a, b in itertools.pairwise(path):
        pygame.draw.line(canvas, chrome().path, rects[a].center, rects[b].center, max(6, round(16 * model.zoom)))
    draw_picture(canvas, model.picture, zoom=model.zoom, offset=model.offset, clear=False)
    for i in path:
        pygame.draw.rect(canvas, chrome().path, rects[i].inflate(14, 14), 5, border_radius=10)
    placed = None
    if model.current is not None and path:
        r = framed_rect(model, hits)
        assert r is not None
        pygame.draw.rect(canvas, chrome().current, r, 4, border_radius=12)
        placed = draw_callout(canvas, model, r, hits, callout_font)
    if model.selected is not None and model.selected in rects:
        pygame.draw.rect(canvas, SELECTED, rects[model.selected].inflate(20, 20), 4, border_radius=10)
    return placed


class CanvasCache:
    """The tree drawn on a surface of the canvas's size, and what it was drawn for (the painter draws it again
    only when that changes)."""

    def __init__(self) -> None:
        self._surface: pygame.Surface | None = None
        self._key: tuple[Any, ...] | None = None

    @property
    def surface(self) -> pygame.Surface | None:
        """The tree as last drawn (``None``: nothing yet)."""
        return self._surface

    @property
    def key(self) -> tuple[Any, ...] | None:
        """What :attr:`surface` shows (``None``: nothing yet, or forgotten: draw it)."""
        return self._key

    def surface_for(self, size: tuple[int, int]) -> pygame.Surface:
        """The surface, made again (and forgotten) when the canvas changed size."""
        if self._surface is None or self._surface.get_size() != size:
            self._surface = pygame.Surface(size)
            self._key = None
        return self._surface

    def remember(self, key: tuple[Any, ...]) -> None:
        """The surface now shows what ``key`` describes."""
        self._key = key

    def forget(self) -> None:
        """Draw the tree again at the next frame."""
        self._key = None


def current_colour(ov: ShownOverlay) -> tuple[int, int, int]:
    """The frame of the current step's node: black, or white on the high-contrast picture's black."""
    return chrome().current


# -- the step callout -------------------------------------------------------------------------------------------
def node_name(ov: ShownOverlay, n: RecordedNode) -> str:
    """``E`` or ``leaf 5`` in a Tree Lab tree (the narration's name), else the move from the parent (``root``)."""
    return picture_names(ov)[0].get(n.id) or n.move or "root"


def callout_text(ov: ShownOverlay, cur: RecordedNode, hidden: bool = False) -> str:
    """The callout's words: ``entering E  α=3 β=+∞`` (the node's name, :func:`node_name`, and its window now)."""
    ev = ov.current_event()
    assert ev is not None
    verb = "leaving" if ev.leaving else "entering"
    bits = [f"{verb} {node_name(ov, cur)}" + (" (further down, hidden)" if hidden else "")]
    if ov.lay is not None and ov.lay.show_window and cur.kind != CHANCE:
        a, b = live_window(ov.by_id, cur, ev.order)
        bits.append(window_line(a, b, cur.proofs))
    return "  ".join(bits)


def callout_font(ov: ShownOverlay) -> pygame.font.Font:
    """The callout's words: :data:`PRESENTER_CALLOUT_PX` screen pixels in the presenter view (growing with the
    screen: :func:`gameplay.ui.overlay.overlay_draw.presenter_px`), else 18 design px."""
    return screen_font(presenter_px(ov, PRESENTER_CALLOUT_PX)) if ov.presenter else ui_font(18, False)


def _screen_rect(model: StepView, b: tuple[float, float, float, float], least: int = 0) -> pygame.Rect:
    x, y, w, h = model.on_canvas(b)
    return pygame.Rect(round(x), round(y), max(least, round(w)), max(least, round(h)))


def callout_obstacles(model: StepView, hits: Hits, node: pygame.Rect, own: Sequence[int] = ()
                      ) -> tuple[list[pygame.Rect], list[pygame.Rect]]:
    """What the step callout should not cover, in canvas pixels: first everything drawn for every item (its shape,
    value, name, alpha-beta lines and the label of the edge into it:
    :attr:`gameplay.pictures.tree_picture.Picture.boxes`),
    the items ``own`` (layout indices: the current node and its parent) whatever their place; then every other
    drawn item (not edges); each less what lies inside ``node`` (the current node's framed box)."""
    pic = model.picture
    hard = [r for r, _ in hits if not node.contains(r)]
    boxes = [(i, _screen_rect(model, b, 1)) for i, b in pic.boxes.items()]
    hard += [r for i, r in boxes if i in own or not node.contains(r)]
    soft = []
    for it in pic.items:
        b = item_box(it, measure_text)
        if b is not None:
            r = _screen_rect(model, b, 1)
            if not node.contains(r):
                soft.append(r)
    return hard, soft


def _candidates(w: int, h: int, node: pygame.Rect) -> list[pygame.Rect]:
    """The callout's places round ``node``, in order of preference (see :func:`place_callout`)."""
    spots = {"right": ("midleft", (node.right + 8, node.top + 4)), "left": ("midright", (node.left - 8, node.top + 4)),
             "above": ("midbottom", (node.centerx, node.top - 8)), "below": ("midtop", (node.centerx, node.bottom + 8)),
             "above right": ("bottomleft", (node.right + 8, node.top - 8)),
             "above left": ("bottomright", (node.left - 8, node.top - 8)),
             "below right": ("topleft", (node.right + 8, node.bottom + 8)),
             "below left": ("topright", (node.left - 8, node.bottom + 8))}
    out = []
    for corner, at in spots.values():
        box = pygame.Rect(0, 0, w, h)
        setattr(box, corner, at)
        out.append(box)
    return out


def place_callout(size: tuple[int, int], node: pygame.Rect, bounds: pygame.Rect, hard: Sequence[pygame.Rect],
                  soft: Sequence[pygame.Rect] = ()) -> pygame.Rect:
    """Where the step callout goes: right of the node's box, else left, above, below, then the four corners
    round it; the first inside ``bounds`` that covers none of ``hard`` (other nodes, ``+N`` markers, the current
    node's own lines) nor ``soft`` (labels); else the one inside covering no ``hard`` and the least ``soft``; else
    the one covering the least. Returns the box's rectangle (the black backing is 6 px wider each side and 4 px
    taller)."""
    cands = _candidates(size[0], size[1], node)

    def inside(box: pygame.Rect) -> bool:
        return bounds.contains(box.inflate(12, 8))

    def covered(box: pygame.Rect, rects: Sequence[pygame.Rect]) -> int:
        back = box.inflate(12, 8)
        return sum(back.clip(r).width * back.clip(r).height for r in rects)

    for box in cands:
        if inside(box) and covered(box, (*hard, *soft)) == 0:
            return box
    free = [b for b in cands if inside(b) and covered(b, hard) == 0]
    if free:
        return min(free, key=lambda b: covered(b, soft))
    best = min(cands, key=lambda b: (covered(b, hard), not inside(b)))
    back = best.inflate(12, 8).clamp(bounds)
    return best.move(back.centerx - best.centerx, back.centery - best.centery)


def framed_rect(model: StepView, hits: Hits) -> pygame.Rect | None:
    """The frame drawn round the current step's node (canvas pixels; ``None``: no step, or none of its path
    drawn): its hit box and 13 px of air."""
    rects = {it.node.id: r for r, it in hits if it.node is not None}
    path = [i for i in model.path if i in rects]
    if model.current is None or not path:
        return None
    return rects[path[-1]].inflate(26, 26)


def callout_box(model: StepView, r: pygame.Rect, hits: Hits, size: tuple[int, int], canvas: tuple[int, int]
                ) -> pygame.Rect | None:
    """Where the callout's words (an image of ``size`` pixels) go beside the current step's node (``r``, its framed
    box) on a canvas of ``canvas`` pixels: :func:`place_callout`'s spot, or ``None`` where every spot would cover a
    node, a label or a shape (or the node's own lines), or leave the canvas."""
    cur = model.current
    assert cur is not None
    shown = model.layout.by_node_id()
    ids = [cur.id if cur.id in shown else None, cur.parent]
    own = [shown[i].index for i in ids if i is not None and i in shown]
    hard, soft = callout_obstacles(model, hits, r, own)
    if own and own[0] in model.picture.boxes:  # beside the node and everything under it, not over its lines
        r = r.union(_screen_rect(model, model.picture.boxes[own[0]]))
    bounds = pygame.Rect((0, 0), canvas).inflate(-8, -8)
    box = place_callout(size, r, bounds, hard, soft)
    back = box.inflate(12, 8)
    if not bounds.contains(back) or back.collidelist(hard) >= 0 or back.collidelist(soft) >= 0:
        return None  # no free spot: the framed node and the narration say it
    return box


def step_callout(model: StepView, hits: Hits, font: pygame.font.Font, canvas: tuple[int, int]) -> pygame.Rect | None:
    """Where :func:`paint` puts the step's callout in ``font`` on a canvas of ``canvas`` pixels (``None``: none),
    without drawing: what a test checks against the picture's labels."""
    r = framed_rect(model, hits)
    if r is None:
        return None
    return callout_box(model, r, hits, font.size(safe_text(model.callout)), canvas)


def draw_callout(canvas: pygame.Surface, model: StepView, r: pygame.Rect, hits: Hits, font: pygame.font.Font
                 ) -> pygame.Rect | None:
    """The black box beside the current step's node (``r``, its framed box on ``canvas``) with the model's
    :attr:`~gameplay.pictures.step_view.StepView.callout` words, where it covers no node, label or shape
    (:func:`callout_box`); else it is left out (the framed node and the narration say it). Returns the box's
    rectangle, or ``None`` when it was left out."""
    img = font.render(safe_text(model.callout), True, chrome().bg)  # inverse of its backing
    box = callout_box(model, r, hits, img.get_size(), canvas.get_size())
    if box is None:
        return None
    pygame.draw.rect(canvas, chrome().current, box.inflate(12, 8), border_radius=6)
    canvas.blit(img, box)
    return box


# -- the hover box ----------------------------------------------------------------------------------------------
NOTE_WORDS = {"tt": "value from the transposition table", "repetition": "repeated position",
              "etc": "enhanced transposition cutoff: a child's table entry fails high",
              "database": "value from the endgame database"}
"""The hover box's words for a node's note."""


def node_hover_lines(ov: ShownOverlay, n: RecordedNode) -> list[str]:
    """The hover box of a recorded node: its name and path, kind and value, the window it was searched with and
    has now (or left with), its passes (a null-window test and its re-search), its probability, the moves cut off
    there and its note."""
    names = picture_names(ov)[0]
    path = node_path(ov.by_id, n.id)
    nm = names.get(n.id)
    lines = [f"{nm} ({path_text(path)})" if nm else path_text(path), f"{kind_text(n)}: value {n.label(UNICODE)}"]
    if ov.lay is not None and ov.lay.show_window and n.kind != CHANCE:
        lines.append(f"searched with α={number_text(n.alpha_in, n.proofs)} β={number_text(n.beta_in, n.proofs)}")
        ev = ov.current_event()
        rec = ov.by_id.get(n.id, n)
        if ev is not None and rec.leave_order > ev.order:
            a, b = live_window(ov.by_id, rec, ev.order)
            lines.append(f"now α={number_text(a, n.proofs)} β={number_text(b, n.proofs)}")
        else:
            a, b = live_window(ov.by_id, rec, rec.leave_order)
            lines.append(f"left with α={number_text(a, n.proofs)} β={number_text(b, n.proofs)}")
    if passes_line(n):  # searched again: what each pass proved so far (test >= 0, re-search <= 0)
        lines.append(f"searches: {passes_line(n)}")
    if n.probability is not None:
        lines.append(f"probability {n.probability:.3g}")
    if n.skipped:
        lines.append(f"cut off: {', '.join(n.skipped[:6])}{' ...' if len(n.skipped) > 6 else ''}")
    if n.note in NOTE_WORDS:
        lines.append(NOTE_WORDS[n.note])
    return lines


def pruned_hover_lines(ov: ShownOverlay, it: LayoutNode) -> tuple[list[str], Any]:
    """The hover box of a pruned placeholder (the moves never searched, why) and the position where the cut-off
    happened (``None`` when unknown)."""
    lay = ov.pic_lay
    pruned_names = picture_names(ov)[1]
    par = lay.nodes[it.parent].node if lay is not None and it.parent is not None else None
    named = [pruned_names.get((par.id, m), "") for m in it.moves[:6]] if par is not None else []
    moves = [f"{m} ({nm})" if nm else m for m, nm in itertools.zip_longest(it.moves[:6], named, fillvalue="")]
    lines = [f"never searched: {', '.join(moves)}"]
    if it.reason:
        lines.append(f"cut off because {it.reason}")
    board_state = None
    if lay is not None and it.parent is not None:
        pn = lay.nodes[it.parent].node
        board_state = pn.state if pn is not None else None
        if board_state is not None:
            lines.append("(the position where the cut-off happened)")
    return lines, board_state


def hover_lines(ov: ShownOverlay, it: LayoutNode) -> tuple[list[str], Any]:
    """The hover box's lines for the item under the mouse, and the position to draw on its mini-board (or
    ``None``)."""
    if it.kind == NODE and it.node is not None:
        return node_hover_lines(ov, it.node), it.node.state
    if it.kind == PRUNED:
        return pruned_hover_lines(ov, it)
    return [f"{it.hidden} nodes hidden here: click to open"], None


def draw_hover(ov: ShownOverlay, surface: pygame.Surface) -> None:
    """The box by the mouse over a tree item (:func:`hover_lines`), with the position on a mini-board when the
    game's view can draw it."""
    it = ov.hover_item
    if it is None or ov.dragging or ov.info is None:
        return
    lines, board_state = hover_lines(ov, it)
    show_board = board_state is not None and ov.info.view is not None and ov.info.game is not None
    f = ui_font(18)
    tw = max(f.size(safe_text(s))[0] for s in lines) + 20
    bw = 200 if show_board else 0
    w = max(tw, bw + 20)
    h = len(lines) * (f.get_linesize()) + 16 + (bw + 10 if show_board else 0)
    x, y = ov.mouse[0] + 18, ov.mouse[1] + 18
    x = min(x, ov.rect.right - w - 4)
    y = min(y, ov.rect.bottom - h - 4)
    box = pygame.Rect(x, y, w, h)
    pygame.draw.rect(surface, chrome().tip, box, border_radius=8)
    pygame.draw.rect(surface, chrome().ink, box, 2, border_radius=8)
    yy = y + 8
    for s in lines:
        surface.blit(f.render(safe_text(s), True, chrome().ink), (x + 10, yy))
        yy += f.get_linesize()
    if show_board:
        _draw_board(ov, surface, pygame.Rect(x + (w - bw) // 2, yy + 4, bw, bw), board_state)


def _draw_board(ov: ShownOverlay, surface: pygame.Surface, br: pygame.Rect, board_state: Any) -> None:
    """The position on a small board (a view that cannot draw small shows an empty frame)."""
    from gameplay.ui.boards.board import ViewState
    assert ov.info is not None
    pygame.draw.rect(surface, (22, 26, 36), br)
    try:
        to_move = ov.info.game.to_move(board_state)
    except Exception:  # noqa: BLE001
        to_move = 0
    try:
        ov.info.view.draw(surface, br, board_state, ViewState(to_move=to_move))
    except Exception:  # noqa: BLE001 - a board view that cannot draw small shows no board
        pygame.draw.rect(surface, chrome().muted, br, 2)
