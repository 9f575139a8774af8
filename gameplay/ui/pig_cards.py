"""The Pig table's two text cards, right of the dice table: the AI's reasoning and the game log.

Their text is read from across a classroom, so none of it is smaller than :data:`TEXT_MIN` design pixels
(16 px at 1280x800, growing and shrinking with the interface scale, :func:`gameplay.ui.projector.px`): a line
too long for its card wraps instead of shrinking below that, an optional line (the AI's win probability, the
optimal play, the exact chance now, an AI note that has no room beside its log line) is drawn whole or not at
all, and the log shows as many of the newest lines as fit.

Functions of :class:`gameplay.ui.pig_view.PigView` (``view``), which keeps the fonts, the decisions and the exact
table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pygame

from gameplay.rules.pig import HOLD, ROLL, PigState
from gameplay.ui import projector
from gameplay.ui.pig_model import exact_win, game_log, move_values, percent, win_probability
from gameplay.ui.pig_palette import BAR_BG, BUST, FAINT, GOLD, MUTED, PLAYER_COLOURS, TEXT

TEXT_MIN = 16
"""Smallest text of the reasoning and log cards, in design pixels (scaled with the interface)."""


def text_min() -> int:
    """:data:`TEXT_MIN` in pixels at the interface scale."""
    return projector.px(TEXT_MIN)


def draw_reasoning(view: Any, surf: pygame.Surface, lay: Any, state: PigState,
                   history: tuple[tuple[Any, Any], ...], table: Any, sides: Sequence[str]) -> None:
    """The AI reasoning card (``lay.ai``): the last AI decision's values of roll and hold as win chances with bars,
    the exact chances under optimal play, and the exact chance of the player to move now."""
    g = view.game
    r = lay.ai
    view._card(surf, r)
    small = text_min()
    f = max(lay.font - 2, small)
    fd = max(f - 2, small)  # the values beside the bars
    pad = max(10, r.width // 30)
    x, y = r.x + pad, r.y + pad * 3 // 4
    width = r.width - 2 * pad
    gap = max(2, f // 4)
    bottom = r.bottom - pad // 2
    last = view.last_ai_decision(history)
    title = "AI reasoning"
    if last is not None:
        s0, _res = last
        side = sides[s0.player] if s0.player < len(sides) else ""
        side = side.split(",")[0].split(" (")[0]
        title += f" — Player {g.player_names[s0.player]}" + (f" ({side})" if side else "")
    y = view.para(surf, title, (x, y), f + 2, TEXT, width, bold=True, floor=small).bottom + gap

    def fits(text: str, size: int, w: int = width, bold: bool = False) -> bool:
        """An optional line is drawn whole or not at all."""
        lines, s = view.para_lines(text, size, w, bold, 2, small)
        return y + len(lines) * view.font(s, bold).get_linesize() <= bottom

    exact: dict[str, float] = {}
    if last is None:
        text = "No AI decision yet: its values of roll and hold and its win probability appear here."
        if fits(text, f):
            y = view.para(surf, text, (x, y), f, MUTED, width, max_lines=3, floor=small).bottom + gap
    else:
        s0, res = last
        own, opp = (s0.s1, s0.s2) if s0.player == 0 else (s0.s2, s0.s1)
        colour = PLAYER_COLOURS[s0.player]
        y = view.para(surf, f"with {own} + {s0.turn} this turn vs {opp}: chose {str(res.move).upper()}", (x, y),
                      f, colour, width, bold=True, floor=small).bottom + gap
        values = move_values(res)
        if table is not None and max(own, opp) < table.target:
            exact[ROLL] = table.roll_value(own, opp, s0.turn)
            if s0.turn > 0:
                exact[HOLD] = table.hold_value(own, opp, s0.turn)
        label_w = view.font(f, True).size("Hold ")[0]
        bar_w = max(40, width - label_w)
        bar_h = max(8, f // 2)
        for move in (ROLL, HOLD):
            if move not in values:
                continue
            v = values[move]
            p = win_probability(v)
            chosen = move == res.move
            view.draw_text(surf, move.capitalize(), (x, y), f, TEXT if chosen else MUTED, bold=chosen)
            nb = "\u00a0"  # a no-break space: "value +0.400" wraps as one word
            desc = f"win{nb}{percent(p)}" + (f" · exact{nb}{percent(exact[move])}" if move in exact else "")
            desc += f" · value{nb}{v:+.3f}"
            block = view.para(surf, desc, (x + label_w, y + max(0, (view.font(f).get_linesize()
                                                                    - view.font(fd).get_linesize()) // 2)),
                              fd, TEXT if chosen else MUTED, bar_w, max_lines=2, floor=small)
            y = max(block.bottom, y + view.font(f).get_linesize()) + 2
            bar = pygame.Rect(x + label_w, y, bar_w, bar_h)
            pygame.draw.rect(surf, BAR_BG, bar, border_radius=bar_h // 2)
            fill = pygame.Rect(bar.x, bar.y, max(bar_h, int(bar_w * p)), bar_h)
            pygame.draw.rect(surf, colour if chosen else FAINT, fill, border_radius=bar_h // 2)
            if move in exact:
                ex = bar.x + int(bar_w * exact[move])
                pygame.draw.line(surf, GOLD, (ex, bar.y - 3), (ex, bar.bottom + 2), 2)
            mid = bar.x + bar_w // 2
            pygame.draw.line(surf, TEXT, (mid, bar.y), (mid, bar.bottom - 1), 1)
            y += bar_h + gap * 2
        wp = res.extra.get("win_probability") if isinstance(res.extra, Mapping) else None
        if isinstance(wp, (int, float)) and fits(text := f"AI's win probability: {percent(float(wp))}", f):
            y = view.para(surf, text, (x, y), f, TEXT, width, floor=small).bottom + gap
        if exact:
            best = HOLD if HOLD in exact and exact[HOLD] >= exact[ROLL] else ROLL
            verdict = "agrees" if best == res.move else "differs"
            text = f"Optimal play: {best} ({percent(max(exact.values()))}); the AI {verdict}"
            if fits(text, fd):
                y = view.para(surf, text, (x, y), fd, GOLD, width, floor=small).bottom + gap
    # The current position, exactly (at the bottom of the card, when there is room for all of it).
    if g.is_terminal(state):
        text = ""
    elif table is None:
        text = ("Exact win probability: " + view.tables.error) if view.tables.error else \
            "Exact win probability: computing the table…"
    else:
        pw = exact_win(table, state)
        who = g.player_names[state.player]
        text = "" if pw is None else f"Now: Player {who} wins {percent(pw)} with optimal play"
    if text and fits(text, fd):
        view.para(surf, text, (x, bottom), fd, MUTED, width, anchor="bottomleft", floor=small)


def draw_log(view: Any, surf: pygame.Surface, lay: Any, state: PigState,
             history: tuple[tuple[Any, Any], ...]) -> None:
    """The game log card (``lay.log``): the newest lines that fit, oldest first, each with the AI's note beside it
    (or under it when there is no room beside), and how many earlier lines are not shown."""
    g = view.game
    r = lay.log
    view._card(surf, r)
    small = text_min()
    f = max(lay.font - 3, small)
    fn = max(f - 2, small)  # the AI's notes and the "(N earlier)" count
    pad = max(10, r.width // 30)
    x = r.x + pad
    width = r.width - 2 * pad
    title = view.draw_text(surf, "Game log", (x, r.y + pad * 3 // 4), f + 3, TEXT, bold=True)
    top = title.bottom + max(2, f // 4)
    bottom = r.bottom - pad // 2
    entries = game_log(g, history, state, view.decisions(history))
    if not entries:
        view.para(surf, "No rolls yet: Player 1 starts.", (x, top), f, MUTED, width, floor=small)
        return
    colours = {"bust": BUST, "win": GOLD, "rolling": MUTED}
    tag_w = view.font(f, True).size("P2 ")[0]
    text_w = width - tag_w
    line = view.font(f).get_linesize()
    note_line = view.font(fn).get_linesize()

    def block(e: Any) -> tuple[list[str], int, str, int]:
        """(the entry's lines, their font size, where its note goes: "beside", "under" or "", the note's height)."""
        lines, size = view.para_lines(e.text, f, text_w, False, 2, small)
        if not e.note:
            return lines, size, "", 0
        last_w = view.font(size).size(lines[-1])[0]
        if view.font(fn).size(e.note)[0] <= text_w - last_w - 14:
            return lines, size, "beside", 0
        note_lines, note_size = view.para_lines(e.note, fn, text_w, False, 1, small)
        return lines, size, "under", len(note_lines) * view.font(note_size).get_linesize()

    # The newest entries that fit, from the bottom up; then drawn oldest first.
    shown: list[tuple[Any, list[str], int, str, int]] = []
    used = 0
    for e in reversed(entries):
        lines, size, note, note_h = block(e)
        h = len(lines) * line + note_h
        if top + used + h > bottom:
            break
        shown.append((e, lines, size, note, note_h))
        used += h
    shown.reverse()
    y = top
    for e, lines, size, note, note_h in shown:
        view.draw_text(surf, f"P{g.player_names[e.player]}", (x, y), f, PLAYER_COLOURS[e.player], bold=True)
        for i, text in enumerate(lines):
            view.draw_text(surf, text, (x + tag_w, y + i * line), size, colours.get(e.kind, TEXT), max_width=text_w)
        if note == "beside":
            view.draw_text(surf, e.note, (x + width, y + (len(lines) - 1) * line + (line - note_line) // 2), fn, MUTED,
                           anchor="topright")
        y += len(lines) * line
        if note == "under":
            view.para(surf, e.note, (x + tag_w, y), fn, MUTED, text_w, max_lines=1, floor=small)
            y += note_h
    hidden = len(entries) - len(shown)
    if hidden > 0:
        count = f"({hidden} earlier)"
        if view.font(fn).size(count)[0] <= r.right - pad - title.right - 12:
            view.draw_text(surf, count, (x + width, title.centery - view.font(fn).get_height() // 2), fn, MUTED,
                           anchor="topright")
