"""The Pig dice table: both scores racing to the target, a rolling die, Roll / Hold, the AI's reasoning and a log.

Layout (inside the board rectangle the match scene gives the view):

* two **score cards** on top: each player's banked score, a progress bar towards the target, and for the player
  to move the turn total as a lighter segment of the bar ("would be N if held");
* the **dice table** below on the left: the die, the turn total, the would-be total if held, and the **Roll (R)**
  and **Hold (H)** buttons, drawn disabled when it is not a human's turn or when hold is illegal (turn total 0);
* on the right the **AI's reasoning** (the values of roll and hold from ``SearchResult.extra["values"]``, its win
  probability, and for reference the exact win probability under optimal play from :mod:`ai.pig.pig_optimal`) and
  the **game log** (who rolled what, who held, the banked totals).

The die rolls while the state is a chance node: the match scene (the referee) samples the face only after
``chance_delay_s``, and until then the view tumbles through faces drawn from the scene clock (purely cosmetic,
never from the referee's generator). When the face is applied the die lands on it with a short bounce, which is
cosmetic too: the state has already changed and input is accepted at once. The view never changes the state; the
exact-probability table is loaded on a background thread, so the window never waits for it.

Pig's window parts are :data:`WINDOW_PARTS` (the view, the card's three dice, the help's rules and keys, the help's
policy figure :func:`policy_figure`, its agents in the attract show).
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable, Sequence
from typing import Any

import pygame

from ai.kernel.search import SearchResult
from ai.pig.pig_optimal import PigTable
from gameplay.pictures.fonts import FontCache
from gameplay.rules.base import Game
from gameplay.rules.pig import HOLD, ROLL, Pig, PigState
from gameplay.ui.boards.board import HelpFigure, InputController, ViewState, WindowParts
from gameplay.ui.boards.pig_cards import CardsShown, PigCards, draw_card
from gameplay.ui.boards.pig_model import MAX_TABLE_TARGET as MAX_TABLE_TARGET
from gameplay.ui.boards.pig_model import LogEntry as LogEntry
from gameplay.ui.boards.pig_model import OptimalTableLoader as OptimalTableLoader
from gameplay.ui.boards.pig_model import ai_note as ai_note
from gameplay.ui.boards.pig_model import exact_win as exact_win
from gameplay.ui.boards.pig_model import game_log as game_log
from gameplay.ui.boards.pig_model import last_bust as last_bust
from gameplay.ui.boards.pig_model import move_values as move_values
from gameplay.ui.boards.pig_model import percent as percent
from gameplay.ui.boards.pig_model import win_probability as win_probability
from gameplay.ui.boards.pig_palette import (
    BAR_BG,
    BUST,
    CARD,
    CARD_EDGE,
    DIE_EDGE,
    DIE_FACE,
    FAINT,
    GOLD,
    MUTED,
    PIP,
    PIP_ONE,
    PLAYER_COLOURS,
    TEXT,
)
from gameplay.ui.boards.pig_text import PigText
from gameplay.ui.widgets import projector

BUTTON_COLOURS = {ROLL: ((46, 125, 91), (55, 155, 112), (63, 175, 127)),
                  HOLD: ((61, 111, 168), (76, 134, 199), (92, 142, 208))}
"""Move -> (normal, hovered, border) colours of its button."""
BUTTON_OFF = ((34, 40, 57), (52, 60, 80), (108, 116, 137))
"""Disabled button: background, border, text."""
ROLL_STEP_S = 0.07
"""Seconds per face while the die tumbles."""
SETTLE_S = 0.35
"""Seconds of the landing bounce after the face is applied (cosmetic; input is accepted meanwhile)."""
SUPERSAMPLE = 3
_PIPS = {1: ((0.5, 0.5),), 2: ((0.27, 0.27), (0.73, 0.73)), 3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
         4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
         5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
         6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75))}


class PigController:
    """Roll and Hold: the table's two buttons (board targets ``"roll"`` / ``"hold"``) and the keys R and H.

    ``shortcuts`` maps keys to moves; the match scene plays them for the human (so in Pig, R rolls and Redo is
    Ctrl+Y).
    """

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self.shortcuts: dict[int, str] = {pygame.K_r: ROLL, pygame.K_h: HOLD}
        """Key (``pygame.K_*``) -> move."""

    @property
    def selected(self) -> tuple[Any, ...]:
        """Always empty: a move is one press."""
        return ()

    def reset(self) -> None:
        """Nothing to forget."""

    def click(self, state: Any, target: Any) -> Any | None:
        """``"roll"`` or ``"hold"`` when that button was clicked and the move is legal, else ``None``."""
        if target in (ROLL, HOLD) and target in self.game.actions(state):
            return target
        return None

    def actions(self, state: Any) -> Sequence[tuple[str, Any]]:
        """No panel buttons: Roll and Hold are drawn on the table."""
        return []

    def prompt(self, state: Any) -> str:
        """Hint for the status line."""
        if HOLD in self.game.actions(state):
            return "Roll (R) or Hold (H)"
        return "Roll (R) to start your turn"


# ----- layout -------------------------------------------------------------------------------------------------------
class Layout:
    """Pixel layout of the table in a rectangle at the origin (the view's layer); ``origin`` is its window position."""

    def __init__(self, rect: pygame.Rect) -> None:
        w, h = max(300, rect.width), max(260, rect.height)
        self.origin = rect.topleft
        self.size = (w, h)
        self.gap = gap = max(8, min(w, h) // 55)
        self.font = round(min(24, max(15, h / 31)) * projector.scale())
        """Base text size in pixels (follows the interface scale; the smallest text is ``font - 5``)."""
        top_h = int(min(230, max(120, h * 0.26)))
        top_h = int(max(top_h, min(h * 0.36, self.font * 8.4)))  # big text: a second line for a long side name
        half = (w - gap) // 2
        self.cards = (pygame.Rect(0, 0, half, top_h), pygame.Rect(w - half, 0, half, top_h))
        below = top_h + gap
        left_w = int((w - gap) * 0.46)
        self.table = pygame.Rect(0, below, left_w, h - below)
        right = pygame.Rect(left_w + gap, below, w - left_w - gap, h - below)
        ai_h = int(right.height * 0.52)
        self.ai = pygame.Rect(right.x, right.y, right.width, ai_h)
        self.log = pygame.Rect(right.x, right.y + ai_h + gap, right.width, right.height - ai_h - gap)
        t = self.table
        pad = max(12, t.width // 22)
        self.pad = pad
        bh = int(min(76, max(46, t.height * 0.15)))
        hint_h = int(self.font * 1.5)
        by = t.bottom - pad - hint_h - bh
        bw = (t.width - 2 * pad - gap) // 2
        self.buttons = {ROLL: pygame.Rect(t.x + pad, by, bw, bh),
                        HOLD: pygame.Rect(t.right - pad - bw, by, bw, bh)}
        self.hint_y = by + bh + max(4, gap // 2)
        title_h = int(self.font * 1.9)
        area_top = t.y + pad + title_h
        area_h = by - gap - area_top
        self.die_size = int(max(40, min(t.width * 0.36, area_h * 0.78)))
        self.die_center = (t.x + pad + self.die_size // 2 + self.die_size // 10, area_top + area_h // 2)
        self.info_x = self.die_center[0] + self.die_size // 2 + self.die_size // 5
        self.area = pygame.Rect(t.x, area_top, t.width, area_h)

    def to_local(self, pos: tuple[int, int]) -> tuple[int, int]:
        """Window pixel -> layer pixel."""
        return pos[0] - self.origin[0], pos[1] - self.origin[1]


# ----- the view -----------------------------------------------------------------------------------------------------
class PigView(PigText):
    """Draws a Pig state as a dice table; never changes it.

    Args:
        game: the :class:`~gameplay.rules.pig.Pig` game (its target and number of faces).

    Raises:
        TypeError: ``game`` is not a Pig game.
    """

    def __init__(self, game: Game[Any, Any]) -> None:
        if not isinstance(game, Pig):
            raise TypeError(f"PigView needs a Pig game, got {game!r}")
        self.game = game
        self.tables = OptimalTableLoader(game.target, game.faces)
        self._fonts = FontCache()
        self._dice: dict[tuple[int, int, bool], pygame.Surface] = {}
        self._layer: pygame.Surface | None = None
        self._layer_key: tuple[Any, ...] | None = None
        self._decisions: dict[int, tuple[Any, SearchResult]] = {}
        """History index of an AI decision -> (the state it was made at, its result)."""
        self._last_decision_id: int | None = None
        self._settle_ply = -1
        self._settle_at = 0.0
        self._tumble: tuple[int, list[int]] | None = None
        self._cards = PigCards(self)

    # -- BoardView ---------------------------------------------------------------------------------------------------
    def make_controller(self) -> InputController:
        """A :class:`PigController`."""
        return PigController(self.game)

    def hit_test(self, rect: pygame.Rect, state: Any, pos: tuple[int, int]) -> Any | None:
        """``"roll"`` or ``"hold"`` when ``pos`` is on that button (enabled or not), else ``None``."""
        lay = Layout(rect)
        local = lay.to_local(pos)
        for move, r in lay.buttons.items():
            if r.collidepoint(local):
                return move
        return None

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, state: Any, view: ViewState) -> None:
        """Draw the score cards, the dice table, the AI's reasoning and the log; then the (animated) die."""
        lay = Layout(rect)
        history = tuple(getattr(view, "history", ()))
        self._learn_decision(getattr(view, "decision", None), history)
        if len(history) != self._settle_ply:
            self._settle_ply = len(history)
            self._settle_at = view.clock
        table = self.tables.get()
        key = (lay.size, state, len(history), history[-1] if history else None, self._last_decision_id,
               table is not None, view.hover if view.interactive else None, view.interactive,
               getattr(view, "sides", None), projector.palette())
        if key != self._layer_key or self._layer is None:
            self._layer = self._render_layer(lay, state, view, history, table)
            self._layer_key = key
        surface.blit(self._layer, lay.origin)
        self._draw_die(surface, lay, state, history, view.clock)

    @property
    def cards(self) -> PigCards:
        """The AI reasoning and game log cards (:class:`gameplay.ui.boards.pig_cards.PigCards`): the view tells them
        what to show each time it draws the table, in its own fonts."""
        return self._cards

    # -- bookkeeping -------------------------------------------------------------------------------------------------
    def _learn_decision(self, decision: Any, history: tuple[tuple[Any, Any], ...]) -> None:
        """Remember which ply a new AI decision ``(player, move text, result)`` was made at (for the log)."""
        if decision is None or id(decision) == self._last_decision_id:
            return
        self._last_decision_id = id(decision)
        player, _text, res = decision
        for i in range(len(history) - 1, -1, -1):
            s, move = history[i]
            if not s.pending and s.player == player and move == res.move:
                self._decisions[i] = (s, res)
                return

    def decisions(self, history: Sequence[tuple[Any, Any]]) -> dict[int, SearchResult]:
        """The remembered AI decisions that are still in ``history`` (undo drops the others)."""
        return {i: res for i, (s, res) in self._decisions.items() if i < len(history) and history[i][0] == s}

    def last_ai_decision(self, history: Sequence[tuple[Any, Any]]) -> tuple[PigState, SearchResult] | None:
        """The latest AI decision still in ``history``: (the state it was made at, its result)."""
        live = [i for i, (s, _res) in self._decisions.items() if i < len(history) and history[i][0] == s]
        return self._decisions[max(live)] if live else None

    # -- fonts and text ----------------------------------------------------------------------------------------------
    # -- the static layer --------------------------------------------------------------------------------------------
    def _render_layer(self, lay: Layout, state: PigState, view: ViewState,
                      history: tuple[tuple[Any, Any], ...], table: PigTable | None) -> pygame.Surface:
        layer = pygame.Surface(lay.size, pygame.SRCALPHA)
        sides = tuple(getattr(view, "sides", ("", "")) or ("", ""))
        for p in (0, 1):
            self._draw_score_card(layer, lay, state, p, sides[p] if p < len(sides) else "", history)
        self._draw_table(layer, lay, state, view, history)
        g = self.game
        self._cards.show(CardsShown(
            state=state, player_names=(str(g.player_names[0]), str(g.player_names[1])), over=g.is_terminal(state),
            decision=self.last_ai_decision(history), log=tuple(game_log(g, history, state, self.decisions(history))),
            table=table, table_error=self.tables.error, sides=sides))
        self._cards.draw(layer, lay.ai, lay.log, lay.font)
        if pygame.display.get_surface() is not None:
            layer = layer.convert_alpha()
        return layer

    def _draw_score_card(self, surf: pygame.Surface, lay: Layout, state: PigState, p: int, side: str,
                         history: tuple[tuple[Any, Any], ...]) -> None:
        g = self.game
        r = lay.cards[p]
        colour = PLAYER_COLOURS[p]
        over = g.is_terminal(state)
        winner = over and (state.s1 if p == 0 else state.s2) >= g.target
        to_move = not over and state.player == p
        draw_card(surf, r, GOLD if winner else colour if to_move else CARD_EDGE, 3 if (to_move or winner) else 1)
        f = lay.font
        pad = max(12, r.height // 9)
        x, y = r.x + pad, r.y + pad * 3 // 4
        name = self.draw_text(surf, f"Player {g.player_names[p]}", (x, y), f + 2, colour, bold=True)
        chip = "WINNER" if winner else "ROLLING" if to_move and state.pending else "TO MOVE" if to_move else ""
        right = r.right - pad
        if chip:
            img = self.font(f - 4, True).render(chip, True, CARD)
            cr = img.get_rect(topright=(right, y + 2)).inflate(16, 6)
            cr.right = right
            pygame.draw.rect(surf, GOLD if winner else colour, cr, border_radius=cr.height // 2)
            surf.blit(img, img.get_rect(center=cr.center))
            right = cr.x - 10
        top = name.bottom
        if side:
            room = max(10, right - name.right - 12)
            size = self.fit_size(side, f - 3, room)
            if size is not None:
                self.draw_text(surf, side, (name.right + 12, name.centery), size, MUTED, anchor="midleft",
                               max_width=room)
            else:  # too long beside the name: on its own line(s) under it
                top = self.para(surf, side, (x, name.bottom), f - 3, MUTED, r.width - 2 * pad).bottom
        own = state.s1 if p == 0 else state.s2
        turn = state.turn if to_move else 0
        bar_h = max(12, r.height // 9)
        bar = pygame.Rect(x, r.bottom - pad - bar_h - int(f * 1.5), r.width - 2 * pad, bar_h)
        big = self.font(max(26, int((bar.y - top) * 0.78)), True)
        num = big.render(str(own), True, TEXT)
        nr = num.get_rect(bottomleft=(x, bar.y - max(6, pad // 2)))
        surf.blit(num, nr)
        small = self.font(f)
        baseline = nr.y + big.get_ascent()
        self.draw_text(surf, f"/ {g.target}", (nr.right + 10, baseline - small.get_ascent()), f, MUTED)
        # The bar: banked (solid), this turn's total (lighter), and the target at the right end.
        pygame.draw.rect(surf, BAR_BG, bar, border_radius=bar_h // 2)
        tg = g.target
        banked_w = int(bar.width * min(1.0, own / tg))
        turn_w = int(bar.width * min(1.0, (own + turn) / tg)) - banked_w
        if turn_w > 0:
            light = tuple(int(c * 0.45 + 255 * 0.2) for c in colour)
            tr = pygame.Rect(bar.x, bar.y, banked_w + turn_w, bar_h)
            pygame.draw.rect(surf, light, tr, border_radius=bar_h // 2)
            for sx in range(tr.x + banked_w, tr.right, 8):  # stripes: points at risk
                pygame.draw.line(surf, colour, (sx, bar.bottom - 2), (min(tr.right, sx + 6), bar.y + 2), 2)
        if banked_w > 0:
            pygame.draw.rect(surf, colour, pygame.Rect(bar.x, bar.y, max(bar_h, banked_w), bar_h),
                             border_radius=bar_h // 2)
        under_y = bar.bottom + 4
        bust = last_bust(history, state)
        if bust is not None and bust.player == p and bust.turn:
            self.draw_text(surf, f"rolled a 1: lost {bust.turn} points", (x, under_y), f - 2, BUST)
        elif winner:
            self.draw_text(surf, f"reached {own}: wins the game", (x, under_y), f - 2, GOLD)
        elif turn > 0:
            self.para(surf, f"+{turn} at risk this turn: {own + turn} if held", (x, under_y), f - 2,
                      (255, 224, 160), bar.width, max_lines=1)
        else:
            self.draw_text(surf, f"needs {max(0, tg - own)} more to win", (x, under_y), f - 2, MUTED)

    def _draw_table(self, surf: pygame.Surface, lay: Layout, state: PigState, view: ViewState,
                    history: tuple[tuple[Any, Any], ...]) -> None:
        g = self.game
        t = lay.table
        over = g.is_terminal(state)
        p = state.player
        colour = PLAYER_COLOURS[p]
        draw_card(surf, t, colour if not over else GOLD, 2)
        f = lay.font
        pad = lay.pad
        if over:
            out = g.outcome(state)
            w = out.winner if out is not None and out.winner is not None else p
            self.draw_text(surf, f"Player {g.player_names[w]} wins!", (t.x + pad, t.y + pad), f + 4, GOLD, bold=True)
        else:
            name = f"Player {g.player_names[p]}"
            titles = [f"{name}'s turn — rolling…", f"{name}: rolling…"] if state.pending else [f"{name}'s turn"]
            room = t.width - 2 * pad  # the card's inner width: the longest title that fits it, else a smaller font
            title = next((x for x in titles if self.fit_size(x, f + 4, room, True) is not None), titles[-1])
            size = self.fit_size(title, f + 4, room, True) or f + 4
            self.draw_text(surf, title, (t.x + pad, t.y + pad), size, colour, bold=True, max_width=room)
        # Turn total and the would-be score, right of the die.
        x = lay.info_x
        width = t.right - pad - x
        own = state.s1 if p == 0 else state.s2
        turn = 0 if over else state.turn
        bust = last_bust(history, state)
        if over:
            below = [("N: new game", f - 2, MUTED, False)]
        elif bust is not None:
            who = g.player_names[bust.player]
            below = [("Rolled a 1!", f, BUST, True),
                     (f"Player {who} loses {bust.turn}, turn passes" if bust.turn else f"Player {who}: turn passes",
                      f - 3, BUST, False)]
        elif turn > 0:
            below = [(f"If held: {own + turn} / {g.target}", f, (255, 224, 160), True),
                     (f"banked now: {own}", f - 3, MUTED, False)]
        else:
            below = [(f"banked: {own} / {g.target}", f - 2, MUTED, False), ("a turn starts with a roll", f - 4, FAINT,
                                                                              False)]
        # The column is measured first: the big number takes the height the lines leave (at most its own size).
        label_h = self.font(f - 4, True).get_linesize()
        below_h = 0
        for text, size, _colour, bold in below:
            lines, fitted = self.para_lines(text, size, width, bold)
            below_h += len(lines) * self.font(fitted, bold).get_linesize() + int(f * 0.3)
        big_size = int(f * (2.2 if over else 3.0))
        while big_size > f and label_h + self.font(big_size, True).get_height() + below_h > lay.area.height:
            big_size -= 1
        big = self.font(big_size, True)
        total = label_h + big.get_height() + below_h
        y = lay.area.y + max(0, (lay.area.height - total) // 2)
        self.draw_text(surf, "FINAL SCORE" if over else "TURN TOTAL", (x, y), f - 4, MUTED, bold=True)
        img = big.render(f"{state.s1}–{state.s2}" if over else str(turn), True, TEXT if turn or over else FAINT)
        surf.blit(img, (x, y + label_h))
        y += label_h + img.get_height()
        for text, size, colour, bold in below:
            y = self.para(surf, text, (x, y), size, colour, width, bold=bold).bottom + int(f * 0.3)
        # Buttons.
        legal = g.actions(state) if view.interactive else ()
        labels = {ROLL: "Roll (R)", HOLD: "Hold (H)"}
        for move, r in lay.buttons.items():
            on = move in legal
            radius = max(8, r.height // 5)
            if on:
                normal, hovered, border = BUTTON_COLOURS[move]
                pygame.draw.rect(surf, hovered if view.hover == move else normal, r, border_radius=radius)
                pygame.draw.rect(surf, border, r, width=2, border_radius=radius)
                fg = (255, 255, 255)
            else:
                bg, border, fg = BUTTON_OFF
                pygame.draw.rect(surf, bg, r, border_radius=radius)
                pygame.draw.rect(surf, border, r, width=1, border_radius=radius)
            self.draw_text(surf, labels[move], r.center, int(f * 1.15), fg, bold=True, anchor="center")
        if over:
            hint = ""
        elif state.pending:
            hint = "the die is rolling…"
        elif not view.interactive:
            hint = f"Player {g.player_names[p]} (AI) is playing…"
        elif turn == 0:
            hint = "Hold is possible once the turn total is above 0"
        else:
            hint = "Roll to add to the turn total; a 1 loses it. Hold to bank it."
        if hint:
            self.para(surf, hint, (t.centerx, lay.hint_y), f - 4, MUTED, t.width - 2 * pad, anchor="midtop",
                      max_lines=1)

    # -- the die -----------------------------------------------------------------------------------------------------
    def _die_surface(self, face: int | None, size: int, bust: bool = False) -> pygame.Surface:
        """A die showing ``face`` (``None``: blank) at ``size`` pixels, anti-aliased by supersampling (cached)."""
        key = (face or 0, size, bust)
        if key in self._dice:
            return self._dice[key]
        k = SUPERSAMPLE
        big = pygame.Surface((size * k, size * k), pygame.SRCALPHA)
        br = big.get_rect()
        radius = size * k // 6
        pygame.draw.rect(big, BUST if bust else DIE_EDGE, br, border_radius=radius)
        pygame.draw.rect(big, DIE_FACE, br.inflate(-size * k // 14, -size * k // 14), border_radius=radius)
        if face is not None and face in _PIPS and self.game.faces <= 6:
            pr = size * k * (0.105 if face == 1 else 0.085)
            for fx, fy in _PIPS[face]:
                pygame.draw.circle(big, PIP_ONE if face == 1 else PIP, (fx * br.width, fy * br.height), pr)
        elif face is not None:
            font = self.font(int(size * k * 0.5), True)
            img = font.render(str(face), True, PIP)
            big.blit(img, img.get_rect(center=br.center))
        die = pygame.transform.smoothscale(big, (size, size))
        if len(self._dice) > 64:
            self._dice.clear()
        self._dice[key] = die
        return die

    def tumbling_faces(self, seed: int, count: int = 48) -> list[int]:
        """The faces shown one after another while the die rolls, never the same twice in a row.

        Drawn from a local generator seeded with ``seed`` (the ply), never from the referee's generator, so the
        animation cannot change the dice of the game.
        """
        if self._tumble is None or self._tumble[0] != seed:
            rng = random.Random(seed)
            n = self.game.faces
            faces = [rng.randint(1, n)]
            while len(faces) < count:
                faces.append((faces[-1] + rng.randint(0, n - 2)) % n + 1)
            self._tumble = (seed, faces)
        return self._tumble[1]

    def _draw_die(self, surface: pygame.Surface, lay: Layout, state: PigState,
                  history: tuple[tuple[Any, Any], ...], clock: float) -> None:
        size = lay.die_size
        cx, cy = lay.die_center
        cx += lay.origin[0]
        cy += lay.origin[1]
        angle, scale, dx, dy = 0.0, 1.0, 0.0, 0.0
        dim = False
        bust = False
        if state.pending:
            age = max(0.0, clock - self._settle_at)
            faces = self.tumbling_faces(len(history))
            face: int | None = faces[int(age / ROLL_STEP_S) % len(faces)]
            phase = age / ROLL_STEP_S
            angle = 18.0 * math.sin(phase * 1.7)
            dy = -abs(math.sin(phase * 0.9)) * size * 0.12
            dx = math.sin(phase * 1.3) * size * 0.05
        else:
            last = next(((i, m) for i, (s, m) in reversed(list(enumerate(history))) if s.pending), None)
            face = last[1] if last is not None else None
            fresh = last is not None and last[0] == len(history) - 1
            dim = not fresh
            bust = fresh and face == 1
            age = clock - self._settle_at
            if fresh and 0 <= age < SETTLE_S:
                u = age / SETTLE_S
                scale = 1.0 + 0.14 * math.sin(math.pi * u) * (1 - u)
                if face == 1:
                    dx = math.sin(u * math.pi * 6) * size * 0.06 * (1 - u)
        # Shadow, then the die.
        shadow = pygame.Rect(0, 0, int(size * 0.9), max(6, size // 9))
        shadow.center = (int(cx), int(cy + size * 0.55))
        pygame.draw.ellipse(surface, (14, 17, 25), shadow)
        img = self._die_surface(face, size, bust)
        if angle or scale != 1.0:
            img = pygame.transform.rotozoom(img, angle, scale)
        if dim:
            img = img.copy()
            img.set_alpha(130)
        surface.blit(img, img.get_rect(center=(int(cx + dx), int(cy + dy))))


_CARD_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),), 3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)),
}


def card_picture(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """Pig's card picture: three dice (a 6, a 3 and the 1 that ends a turn) in the players' colours."""
    pal = projector.palette()
    size = int(min(rect.height * 0.62, rect.width / 3.6))
    gap = size // 4
    x = rect.centerx - (3 * size + 2 * gap) // 2
    y = rect.centery - size // 2
    faces = ((6, pal.players[0]), (3, pal.players[0]), (1, pal.players[1]))
    for i, (face, colour) in enumerate(faces):
        die = pygame.Rect(x + i * (size + gap), y + (size // 6 if i == 1 else 0), size, size)
        pygame.draw.rect(surface, (240, 242, 248), die, border_radius=size // 6)
        pygame.draw.rect(surface, colour, die, width=max(2, size // 18), border_radius=size // 6)
        for fx, fy in _CARD_PIPS[face]:
            centre = (die.x + int(fx * size), die.y + int(fy * size))
            pygame.draw.circle(surface, (200, 60, 60) if face == 1 else (30, 34, 48), centre, max(2, size // 11))


def policy_figure(agent: str = "expectimax") -> HelpFigure:
    """The optimal Pig policy and ``agent``'s differences (:func:`ai.pig.pig_policy_data.policy_map`) as a help figure
    (the help's "Policy picture": :data:`WINDOW_PARTS`), shown by the play room's figure scene."""

    def compute(stop: threading.Event, progress: Callable[[str], None]) -> Any:
        from ai.pig.pig_policy_data import policy_map
        progress("the optimal table")
        return policy_map(agent, stop=stop, progress=lambda i, n: progress(f"asking {agent}: own score {i}/{n}"))

    def figure(data: Any, size: tuple[int, int], base: float) -> Any:
        from gameplay.pictures.plots import pig_policy_figure
        cmd = "python main.py plot pig-policy" + ("" if agent == "expectimax" else f" --agent {agent}")
        return pig_policy_figure(data, size=size, base_px=base, command=cmd + " --out FILE.png")

    return HelpFigure(
        "Policy picture",
        "When to hold: the optimal policy, expectimax's differences and the win probabilities, as a figure",
        "the optimal Pig policy", compute, figure, "pig-policy")


WINDOW_PARTS = WindowParts(
    view=PigView,
    card_picture=card_picture,
    rules_html=(
        "On your turn, <b>roll</b> the die as often as you like: 2..6 add to your turn total, "
        "a <b>1</b> loses the turn total and passes the turn.<br>"
        "<b>Hold</b> banks the turn total and passes the turn (not allowed before your first roll).<br>"
        "The first to bank 100 points wins (the game ends as soon as banked score plus turn total reaches 100)."),
    keys=(("R", "roll"), ("H", "hold"), ("?", "hint: the expert's choice"),
          ("S / L", "save / load the game (JSON)"), ("Ctrl+Y", "redo (R rolls)")),
    hidden_keys=("R / Ctrl+Y",),
    help_figure=policy_figure(),
    attract=("medium", "expert"),
)
"""Pig's window parts (:mod:`gameplay.ui.boards.window_parts` finds them by this module's name)."""
