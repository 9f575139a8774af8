"""The Pig table's two text cards, right of the dice table: the AI's reasoning and the game log.

Their text is read from across a classroom, so none of it is smaller than :data:`TEXT_MIN` design pixels
(16 px at 1280x800, growing and shrinking with the interface scale, :func:`gameplay.ui.widgets.projector.px`): a line
too long for its card wraps instead of shrinking below that, an optional line (the AI's win probability, the
optimal play, the exact chance now, an AI note that has no room beside its log line) is drawn whole or not at
all, and the log shows as many of the newest lines as fit.

A widget, :class:`PigCards`: :class:`gameplay.ui.boards.pig_view.PigView` owns one, tells it what to show (a
:class:`CardsShown` record: the position, the AI's last decision, the log, the exact table) and where to draw;
the cards keep nothing of the view's. :func:`draw_card` draws the cards' background, the score cards' too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pygame

from ai.kernel.search import SearchResult
from ai.pig.pig_optimal import PigTable
from gameplay.rules.pig import HOLD, ROLL, PigState
from gameplay.ui.boards.pig_model import LogEntry, exact_win, move_values, percent, win_probability
from gameplay.ui.boards.pig_palette import BAR_BG, BUST, CARD, CARD_EDGE, FAINT, GOLD, MUTED, PLAYER_COLOURS, TEXT
from gameplay.ui.boards.pig_text import PigText
from gameplay.ui.widgets import projector

TEXT_MIN = 16
"""Smallest text of the reasoning and log cards, in design pixels (scaled with the interface)."""


def text_min() -> int:
    """:data:`TEXT_MIN` in pixels at the interface scale."""
    return projector.px(TEXT_MIN)


def draw_card(surf: pygame.Surface, rect: pygame.Rect, edge: tuple[int, int, int] = CARD_EDGE,
              width: int = 1) -> None:
    """A card's rounded background on ``surf`` with an ``edge`` outline ``width`` pixels thick (times the
    palette's line width); in high contrast black with a white (or highlighted) outline."""
    radius = max(8, min(rect.width, rect.height) // 14)
    pal = projector.palette()
    hc = pal.line_width > 1  # high contrast: black cards, white (or highlighted) thick outlines
    pygame.draw.rect(surf, pal.board if hc else CARD, rect, border_radius=radius)
    pygame.draw.rect(surf, pal.edge if hc and edge == CARD_EDGE else edge, rect, width=width * pal.line_width,
                     border_radius=radius)


@dataclass(frozen=True)
class CardsShown:
    """What the two cards show (fed by :class:`gameplay.ui.boards.pig_view.PigView` each time it draws its table)."""

    state: PigState
    """The position now."""
    player_names: tuple[str, str]
    """The players' names (Pig's are ``"1"`` and ``"2"``)."""
    over: bool
    """The game is over (no exact chance of the player to move)."""
    decision: tuple[PigState, SearchResult] | None = None
    """The latest AI decision still on the record: (the state it was made at, its result), or ``None``."""
    log: tuple[LogEntry, ...] = ()
    """The game log, oldest first (:func:`gameplay.ui.boards.pig_model.game_log`)."""
    table: PigTable | None = None
    """The exact table of optimal play, or ``None`` while it is loading (or when it failed)."""
    table_error: str | None = None
    """Why there is no exact table (too large a target, the computation failed), or ``None``."""
    sides: tuple[str, ...] = ("", "")
    """Each side's description (``"medium (expectimax)"``, ``"Human"``); its first words name the AI."""


class PigCards:
    """The AI reasoning card and the game log card: drawn from the last :class:`CardsShown` they were given.

    Args:
        text: the text drawer (fonts by size, lines and paragraphs) all their text goes through: the view's own,
            so both share one font cache.
    """

    def __init__(self, text: PigText) -> None:
        self._text = text
        self._shown: CardsShown | None = None

    @property
    def shown(self) -> CardsShown | None:
        """What the cards show (the last :meth:`show`), or ``None`` before the first."""
        return self._shown

    def show(self, shown: CardsShown) -> None:
        """Show ``shown`` from the next drawing on."""
        self._shown = shown

    def _what(self) -> CardsShown:
        if self._shown is None:
            raise RuntimeError("PigCards: nothing to draw yet (call show first)")
        return self._shown

    def draw(self, surf: pygame.Surface, reasoning: pygame.Rect, log: pygame.Rect, font: int) -> None:
        """Both cards: :meth:`draw_reasoning` in ``reasoning``, :meth:`draw_log` in ``log`` (rectangles on
        ``surf``; ``font`` the table's text size in pixels)."""
        self.draw_reasoning(surf, reasoning, font)
        self.draw_log(surf, log, font)

    def draw_reasoning(self, surf: pygame.Surface, rect: pygame.Rect, font: int) -> None:
        """The AI reasoning card in ``rect``: the last AI decision's values of roll and hold as win chances with
        bars, the exact chances under optimal play, and the exact chance of the player to move now. ``font`` is
        the table's text size in pixels; no text is under :func:`text_min`.

        Raises:
            RuntimeError: nothing was shown yet (:meth:`show`).
        """
        shown = self._what()
        pen = self._text
        state, names, table, sides = shown.state, shown.player_names, shown.table, shown.sides
        r = rect
        draw_card(surf, r)
        small = text_min()
        f = max(font - 2, small)
        fd = max(f - 2, small)  # the values beside the bars
        pad = max(10, r.width // 30)
        x, y = r.x + pad, r.y + pad * 3 // 4
        width = r.width - 2 * pad
        gap = max(2, f // 4)
        bottom = r.bottom - pad // 2
        last = shown.decision
        title = "AI reasoning"
        if last is not None:
            s0, _res = last
            side = sides[s0.player] if s0.player < len(sides) else ""
            side = side.split(",")[0].split(" (")[0]
            title += f" — Player {names[s0.player]}" + (f" ({side})" if side else "")
        y = pen.para(surf, title, (x, y), f + 2, TEXT, width, bold=True, floor=small).bottom + gap

        def fits(text: str, size: int, w: int = width, bold: bool = False) -> bool:
            """An optional line is drawn whole or not at all."""
            lines, s = pen.para_lines(text, size, w, bold, 2, small)
            return y + len(lines) * pen.font(s, bold).get_linesize() <= bottom

        exact: dict[str, float] = {}
        if last is None:
            text = "No AI decision yet: its values of roll and hold and its win probability appear here."
            if fits(text, f):
                y = pen.para(surf, text, (x, y), f, MUTED, width, max_lines=3, floor=small).bottom + gap
        else:
            s0, res = last
            own, opp = (s0.s1, s0.s2) if s0.player == 0 else (s0.s2, s0.s1)
            colour = PLAYER_COLOURS[s0.player]
            y = pen.para(surf, f"with {own} + {s0.turn} this turn vs {opp}: chose {str(res.move).upper()}", (x, y),
                          f, colour, width, bold=True, floor=small).bottom + gap
            values = move_values(res)
            if table is not None and max(own, opp) < table.target:
                exact[ROLL] = table.roll_value(own, opp, s0.turn)
                if s0.turn > 0:
                    exact[HOLD] = table.hold_value(own, opp, s0.turn)
            label_w = pen.font(f, True).size("Hold ")[0]
            bar_w = max(40, width - label_w)
            bar_h = max(8, f // 2)
            for move in (ROLL, HOLD):
                if move not in values:
                    continue
                v = values[move]
                p = win_probability(v)
                chosen = move == res.move
                pen.draw_text(surf, move.capitalize(), (x, y), f, TEXT if chosen else MUTED, bold=chosen)
                nb = "\u00a0"  # a no-break space: "value +0.400" wraps as one word
                desc = f"win{nb}{percent(p)}" + (f" · exact{nb}{percent(exact[move])}" if move in exact else "")
                desc += f" · value{nb}{v:+.3f}"
                block = pen.para(surf, desc, (x + label_w, y + max(0, (pen.font(f).get_linesize()
                                                                        - pen.font(fd).get_linesize()) // 2)),
                                  fd, TEXT if chosen else MUTED, bar_w, max_lines=2, floor=small)
                y = max(block.bottom, y + pen.font(f).get_linesize()) + 2
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
                y = pen.para(surf, text, (x, y), f, TEXT, width, floor=small).bottom + gap
            if exact:
                best = HOLD if HOLD in exact and exact[HOLD] >= exact[ROLL] else ROLL
                verdict = "agrees" if best == res.move else "differs"
                text = f"Optimal play: {best} ({percent(max(exact.values()))}); the AI {verdict}"
                if fits(text, fd):
                    y = pen.para(surf, text, (x, y), fd, GOLD, width, floor=small).bottom + gap
        # The current position, exactly (at the bottom of the card, when there is room for all of it).
        if shown.over:
            text = ""
        elif table is None:
            text = ("Exact win probability: " + shown.table_error) if shown.table_error else \
                "Exact win probability: computing the table…"
        else:
            pw = exact_win(table, state)
            who = names[state.player]
            text = "" if pw is None else f"Now: Player {who} wins {percent(pw)} with optimal play"
        if text and fits(text, fd):
            pen.para(surf, text, (x, bottom), fd, MUTED, width, anchor="bottomleft", floor=small)

    def draw_log(self, surf: pygame.Surface, rect: pygame.Rect, font: int) -> None:
        """The game log card in ``rect``: the newest lines that fit, oldest first, each with the AI's note beside
        it (or under it when there is no room beside), and how many earlier lines are not shown. ``font`` is the
        table's text size in pixels; no text is under :func:`text_min`.

        Raises:
            RuntimeError: nothing was shown yet (:meth:`show`).
        """
        shown = self._what()
        pen = self._text
        names = shown.player_names
        r = rect
        draw_card(surf, r)
        small = text_min()
        f = max(font - 3, small)
        fn = max(f - 2, small)  # the AI's notes and the "(N earlier)" count
        pad = max(10, r.width // 30)
        x = r.x + pad
        width = r.width - 2 * pad
        title = pen.draw_text(surf, "Game log", (x, r.y + pad * 3 // 4), f + 3, TEXT, bold=True)
        top = title.bottom + max(2, f // 4)
        bottom = r.bottom - pad // 2
        entries = shown.log
        if not entries:
            pen.para(surf, "No rolls yet: Player 1 starts.", (x, top), f, MUTED, width, floor=small)
            return
        colours = {"bust": BUST, "win": GOLD, "rolling": MUTED}
        tag_w = pen.font(f, True).size("P2 ")[0]
        text_w = width - tag_w
        line = pen.font(f).get_linesize()
        note_line = pen.font(fn).get_linesize()

        def block(e: LogEntry) -> tuple[list[str], int, str, int]:
            """(the entry's lines, their font size, where its note goes: "beside", "under" or "", the note's height)."""
            lines, size = pen.para_lines(e.text, f, text_w, False, 2, small)
            if not e.note:
                return lines, size, "", 0
            last_w = pen.font(size).size(lines[-1])[0]
            if pen.font(fn).size(e.note)[0] <= text_w - last_w - 14:
                return lines, size, "beside", 0
            note_lines, note_size = pen.para_lines(e.note, fn, text_w, False, 1, small)
            return lines, size, "under", len(note_lines) * pen.font(note_size).get_linesize()

        # The newest entries that fit, from the bottom up; then drawn oldest first.
        fitting: list[tuple[LogEntry, list[str], int, str, int]] = []
        used = 0
        for e in reversed(entries):
            lines, size, note, note_h = block(e)
            h = len(lines) * line + note_h
            if top + used + h > bottom:
                break
            fitting.append((e, lines, size, note, note_h))
            used += h
        fitting.reverse()
        y = top
        for e, lines, size, note, note_h in fitting:
            pen.draw_text(surf, f"P{names[e.player]}", (x, y), f, PLAYER_COLOURS[e.player], bold=True)
            for i, text in enumerate(lines):
                pen.draw_text(surf, text, (x + tag_w, y + i * line), size, colours.get(e.kind, TEXT),
                              max_width=text_w)
            if note == "beside":
                beside_y = y + (len(lines) - 1) * line + (line - note_line) // 2
                pen.draw_text(surf, e.note, (x + width, beside_y), fn, MUTED, anchor="topright")
            y += len(lines) * line
            if note == "under":
                pen.para(surf, e.note, (x + tag_w, y), fn, MUTED, text_w, max_lines=1, floor=small)
                y += note_h
        hidden = len(entries) - len(fitting)
        if hidden > 0:
            count = f"({hidden} earlier)"
            if pen.font(fn).size(count)[0] <= r.right - pad - title.right - 12:
                pen.draw_text(surf, count, (x + width, title.centery - pen.font(fn).get_height() // 2), fn, MUTED,
                               anchor="topright")
