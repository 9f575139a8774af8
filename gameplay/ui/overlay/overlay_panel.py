"""The overlay's side panel: the named counters of the decision and the step-through (what step, which node,
the live alpha and beta on the current path), measured first so the step-through always shows and the least
important counters fold into "N more" when the panel is short. Drawn by :class:`gameplay.ui.overlay.overlay.TreeOverlay`
beside the tree (not in the presenter view); the fonts and colours are :mod:`gameplay.ui.overlay.overlay_draw`'s.
"""

from __future__ import annotations

from typing import Any

import pygame

from ai.kernel.recording import CHANCE
from ai.kernel.spelling import UNICODE, cut_rule
from ai.teaching.trace import live_window, node_path
from gameplay.pictures.tree_picture import window_line
from gameplay.pictures.tree_png import safe_text
from gameplay.ui.overlay import overlay_draw as d
from gameplay.ui.overlay.overlay_shown import ShownOverlay
from gameplay.ui.widgets import projector


class _Block:
    """One measured piece of the side panel: ``height`` pixels tall, drawn at a given y by ``paint``; ``rank`` 0
    is always shown, higher ranks are left out first when the panel is too short (5: explanations, 4: table hits,
    3: leaves and the cut-off rule, 2: cut-offs, 1: the node counts and the saving), the last of a rank first.
    ``summary``: its text on one line, for the hover box that lists what was left out."""

    def __init__(self, height: int, paint: Any, rank: int = 0, summary: str = "") -> None:
        self.height, self.paint, self.rank, self.summary = height, paint, rank, summary


class _Writer:
    """Makes the side panel's measured blocks: text drawn on ``surface`` from ``x``, ``w`` pixels wide, never
    below ``bottom``."""

    def __init__(self, surface: pygame.Surface, x: int, w: int, bottom: int) -> None:
        self.surface, self.x, self.w, self.bottom = surface, x, w, bottom
        self.fb, self.fr, self.fs = d.ui_font(20, True), d.ui_font(19), d.ui_font(18)

    def lines(self, lines: list[str], font: pygame.font.Font, color: tuple[int, int, int], rank: int, air: int,
              summary: str = "") -> _Block:
        """Lines of text, one under the other (whole lines only)."""
        step = font.get_linesize() - 2

        def paint(y: int) -> None:
            for line in lines:
                if y + font.get_height() > self.bottom:
                    return  # whole lines only
                self.surface.blit(font.render(line, True, color), (self.x, y))
                y += step
        return _Block(len(lines) * step + air, paint, rank, summary or " ".join(lines))

    def para(self, text: str, color: tuple[int, int, int] | None = None, font: pygame.font.Font | None = None,
             rank: int = 0, air: int = -1) -> _Block:
        """A paragraph wrapped to the panel's width (muted small print unless told)."""
        font = font or self.fs
        return self.lines(d.wrap(text, font, self.w), font, color or d.chrome().muted, rank,
                          projector.px(6) if air < 0 else air)

    def row(self, label: str, value: str, bold: bool = False, rank: int = 1) -> _Block:
        """A label and its value at the right edge (under a long label's last line when there is no room)."""
        fr, px = self.fr, projector.px
        lines = d.wrap(label, fr, self.w) or [""]
        value = safe_text(value)
        vf = self.fb if bold else fr
        beside = fr.size(lines[-1])[0] + vf.size(value)[0] + px(8) <= self.w
        height = (len(lines) - 1) * px(26) + px(30) * (1 if beside else 2)

        def paint(y: int) -> None:
            for line in lines[:-1]:  # a long label wraps; the value stands beside its last line
                self.surface.blit(fr.render(line, True, d.chrome().ink), (self.x, y))
                y += px(26)
            self.surface.blit(fr.render(lines[-1], True, d.chrome().ink), (self.x, y))
            if not beside:
                y += px(30)  # no room beside the label: the value goes on its own line
            v = vf.render(value, True, d.chrome().ink)
            self.surface.blit(v, (self.x + self.w - v.get_width(), y))
        return _Block(height, paint, rank, f"{' '.join(lines)}: {value}")

    def heading(self, text: str) -> _Block:
        return _Block(projector.px(34), lambda y: self.surface.blit(self.fb.render(text, True, d.chrome().ink),
                                                                    (self.x, y)))


def _side_blocks(ov: ShownOverlay, surface: pygame.Surface, x: int, w: int, bottom: int
                 ) -> tuple[list[_Block], list[_Block], list[_Block]]:
    """The side panel's pieces, measured: the counters, the step-through's essential part (heading, step number,
    what the step does), and its optional part (the current path's windows, one block a line)."""
    pw = _Writer(surface, x, w, bottom)
    counters = _counter_blocks(ov, pw)
    step, extra = _step_blocks(ov, pw)
    return counters, step, extra


def _counter_blocks(ov: ShownOverlay, pw: _Writer) -> list[_Block]:
    """The counters: the shown tree's and all iterations' nodes, leaves, cut-offs, table hits, plain minimax's
    count, the saving, and the rule in force (ranked, see :class:`_Block`)."""
    from ai.kernel.numbers import CUTOFF_MEANING, iteration_words, plural, recorded_text
    assert ov.tree is not None and ov.info is not None
    t = ov.tree
    counters = [pw.heading("Counters")]
    c = ov.info.counts
    if c is None:
        counters.append(pw.row("Nodes visited", f"{t.visited:,}", True))
    else:
        counters.append(pw.row(f"Nodes in this tree ({iteration_words(t.algorithm, c.shown_depth)})",
                               f"{c.shown_nodes:,}", True))
        part = recorded_text(c.drawn_nodes, capture=c.capture_nodes, truncated=not c.shown_whole)
        if part:
            counters.append(pw.para(part, rank=5))
        counters.append(pw.row("Nodes, all iterations", f"{c.total_nodes:,}", True))
        counters.append(pw.para(f"{c.iterations} iteration{'s' if c.iterations != 1 else ''} to depth "
                                f"{c.final_depth}: the count the side panel and analyze show", rank=5))
    tree_part = "" if c is None else " in this tree"
    counters.append(pw.row(f"Leaves evaluated{tree_part}", f"{t.leaves:,}", rank=3))
    if t.algorithm != "expectimax":
        counters.append(pw.row(f"Cut-offs{tree_part}", f"{t.cutoffs:,}", rank=2))
        every = ("" if c is None or c.total_cutoffs is None
                 else f"; {c.total_cutoffs:,} in all iterations (analyze's cutoffs)")
        counters.append(pw.para(f"{CUTOFF_MEANING}; they pruned {plural(t.pruned_subtrees, 'subtree')}{every}",
                                rank=5))
    if t.tt_hits:
        hits = "Memo hits" if t.algorithm == "expectimax" else "Table hits"
        counters.append(pw.row(f"{hits}{tree_part}", f"{t.tt_hits:,}", rank=4))
    return counters + _minimax_blocks(ov, pw) + [_rule_block(ov, pw)]


def _minimax_blocks(ov: ShownOverlay, pw: _Writer) -> list[_Block]:
    """Plain minimax's count at the shown depth (counted or estimated) and what the pruning saved."""
    assert ov.tree is not None and ov.info is not None
    t, mm, depth = ov.tree, ov.info.minimax, ov.info.depth
    out = []
    if t.algorithm != "expectimax":  # expectimax prunes nothing: no plain-minimax count to compare with
        out.append(pw.row(f"Plain minimax, depth {depth}" if depth else "Plain minimax", mm.text(), True))
    if mm.status == "estimate":
        out.append(pw.para(f"estimate: 1 + b + ... + b^{mm.depth} with the measured branching "
                           f"b ≈ {mm.branching:.1f}", rank=5))
    elif mm.status == "same":
        out.append(pw.para("expectimax cuts nothing: below a chance node every outcome counts"
                           if t.algorithm == "expectimax" else "plain minimax cuts nothing: the same tree", rank=5))
    saving = ov.info.saving_text(t)
    if saving is not None:
        out.append(pw.para(saving, d.chrome().ink, rank=1))
    return out


def _rule_block(ov: ShownOverlay, pw: _Writer) -> _Block:
    """The rule in force: alpha-beta's cut-off test, plain minimax's none, expectimax's average."""
    assert ov.tree is not None
    t = ov.tree
    if t.algorithm == "alphabeta":
        rule = f"{cut_rule(t.prune, UNICODE)} ({'prune on equality' if t.prune == 'ge' else 'strict'})"
        return pw.para(f"Cut-off rule: {rule}", d.chrome().ink, pw.fr, rank=3)
    if t.algorithm == "minimax":
        return pw.para("Plain minimax: nothing is cut off", d.chrome().ink, pw.fr, rank=3)
    return pw.para("Expectimax: chance nodes average their outcomes (Σ p·v)", d.chrome().ink, pw.fr, rank=3)


def _step_blocks(ov: ShownOverlay, pw: _Writer) -> tuple[list[_Block], list[_Block]]:
    """The step-through's heading, step number and what the step does; then the current path's live windows."""
    step = [pw.heading("Step-through")]
    extra: list[_Block] = []
    ev = ov.current_event()
    cur = ov.current_node()
    ink = d.chrome().ink
    if ev is None or cur is None:
        step.append(pw.para(f"The finished search ({len(ov.events)} steps). Page Down, the right arrow or Next steps "
                            "through it in visiting order; Space plays.", ink, pw.fs, rank=0))
        return step, extra
    state = "playing" if ov.playing else "paused"
    step.append(pw.para(f"Step {ov.step + 1 if ov.step is not None else 0} of {len(ov.events)} "
                        f"({state}, {ov.speed:g}/s)", ink, pw.fr, rank=0))
    step.append(pw.para(d.step_action(ov, ev.leaving, cur), ink, pw.fr, rank=0))
    if ov.lay is not None and ov.lay.show_window:
        extra.append(pw.para("Current path (α, β now):", d.chrome().muted, pw.fs, air=0))
        for p in node_path(ov.by_id, cur.id)[-6:]:
            if p.kind == CHANCE:
                continue
            a, b = live_window(ov.by_id, p, ev.order)
            extra.append(pw.para(f"{p.move or 'root'} {p.kind}: {window_line(a, b, p.proofs)}",
                                 d.chrome().path if p.id != cur.id else ink, pw.fs, air=0))
    return step, extra


def draw_side(ov: ShownOverlay, surface: pygame.Surface) -> None:
    """The counter and step panel (:attr:`TreeOverlay.side_rect`). The step-through (heading, step number and what
    the step does) always has its room; the counters take what is left, the least important first left out
    (explanations, then table hits, leaves, cut-offs, the cut-off rule) with a "N more" line that lists them when
    the mouse is over it; the current path's windows fill whatever room remains. Text is drawn in whole lines."""
    r = ov.side_rect
    pygame.draw.rect(surface, d.chrome().panel_bg, r)
    pygame.draw.line(surface, d.chrome().rule, r.topleft, r.bottomleft, 2)
    x, top, w, bottom = r.x + 14, r.y + 10, r.width - 26, r.bottom - 6
    counters, step, extra = _side_blocks(ov, surface, x, w, bottom)
    fs = d.ui_font(18)
    rule_h = 18  # the air above and below the rule between the two parts
    room = bottom - top - sum(b.height for b in step) - rule_h
    shown = list(counters)
    left_out: list[_Block] = []

    def more_block() -> _Block:
        n = len(left_out)
        lines = d.wrap(f"{n} more (point here to list {'it' if n == 1 else 'them'})", fs, w)
        step_h = fs.get_linesize() - 2

        def paint(y: int) -> None:
            for line in lines:
                surface.blit(fs.render(line, True, d.chrome().muted), (x, y))
                y += step_h
        return _Block(len(lines) * step_h + projector.px(4), paint)

    def height() -> int:
        return sum(b.height for b in shown) + (more_block().height if left_out else 0)

    while height() > room and len(shown) > 1:
        worst = max(range(1, len(shown)), key=lambda i: (shown[i].rank, i))
        left_out.insert(0, shown.pop(worst))
    if height() > room:  # not even the heading fits: the step-through alone
        left_out[:0] = shown
        shown = []
    y = top
    for b in shown:
        b.paint(y)
        y += b.height
    more_at: pygame.Rect | None = None
    if left_out and shown:
        more = more_block()
        more.paint(y)
        more_at = pygame.Rect(x, y, w, more.height)
        y += more.height
    if shown:
        y += rule_h // 2 - 2
        pygame.draw.line(surface, d.chrome().rule, (x, y), (x + w, y), 2)
        y += rule_h // 2 + 2
    for b in step:
        b.paint(y)
        y += b.height
    if extra and y + extra[0].height + (extra[1].height if len(extra) > 1 else 0) <= bottom:
        y += 4
        fitting = extra[1:]
        while fitting and y + extra[0].height + sum(b.height for b in fitting) > bottom:
            fitting.pop(0)  # the nodes nearest the root go first: the current node's window stays
        for b in [extra[0], *fitting]:
            b.paint(y)
            y += b.height
    if more_at is not None and more_at.collidepoint(ov.mouse):
        _draw_left_out(ov, surface, [b.summary for b in left_out], more_at)


def _draw_left_out(ov: ShownOverlay, surface: pygame.Surface, lines: list[str], anchor: pygame.Rect) -> None:
    """The hover box listing the counters the side panel had no room for, left of the panel."""
    f = d.ui_font(18)
    width = min(projector.px(520), ov.side_rect.left - ov.rect.left - 20)
    wrapped = [part for s in lines for part in d.wrap(s, f, width - 20)]
    h = len(wrapped) * f.get_linesize() + 16
    w = max(f.size(s)[0] for s in wrapped) + 20
    box = pygame.Rect(0, 0, w, h)
    box.topright = (ov.side_rect.left - 6, anchor.top)
    box.bottom = min(box.bottom, ov.bar_rect.top - 4)
    box.top = max(box.top, ov.rect.top + 4)
    pygame.draw.rect(surface, d.chrome().tip, box, border_radius=8)
    pygame.draw.rect(surface, d.chrome().ink, box, 2, border_radius=8)
    yy = box.y + 8
    for s in wrapped:
        surface.blit(f.render(s, True, d.chrome().ink), (box.x + 10, yy))
        yy += f.get_linesize()
