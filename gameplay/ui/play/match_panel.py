"""The match scene's side panel (pygame_gui widgets) and the texts it shows: where the board and the panel go
at the interface's scale (:func:`match_areas`, :func:`board_place`), the player lines, the status line, the move
list (Pig's by turns), the last AI decision, and the panel's buttons.

:class:`MatchPanel` builds and refreshes the widgets and owns its buttons; it and the text functions read the
scene through :class:`MatchModel`, a read-only view that :class:`gameplay.ui.play.match.MatchScene` satisfies. The
scene keeps the game, the AI and the overlay, and changes them; the panel only shows them.
"""

# Over 600 lines because it is one responsibility, what the match shows beside its board: the read-only view of
# the scene it reads (MatchModel and two small protocols, about 150 lines of typed, documented properties), the
# texts, and the widgets that show them; cut in two, the texts and the widgets would each need that view.

from __future__ import annotations

import html
import math
from collections.abc import Callable, Hashable, MutableMapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIPanel, UIScrollingContainer, UITextBox, UITextEntryLine

from ai.agents.agent_base import Agent
from ai.agents.runner import AgentRunner
from ai.kernel.core import WIN, StopReason
from ai.kernel.numbers import exact_search_seconds, exact_text, value_label, value_text
from ai.kernel.search import SearchResult
from ai.kernel.spelling import UNICODE, proof_test_lines
from gameplay.rules import move_numbers
from gameplay.rules.base import Termination
from gameplay.rules.referee import GameRecord
from gameplay.rules.registry import game_title
from gameplay.ui.boards.board import BoardView, ExtraAction, InputController, ViewTools
from gameplay.ui.boards.match_host import describe_agent as describe_agent
from gameplay.ui.overlay.overlay_shown import NoTreeText
from gameplay.ui.play.move_entry import common_start, completions
from gameplay.ui.widgets import projector

MOVES_MIN_H = 120
"""Smallest height (design pixels) of the panel's move list (three lines); the panel squeezes other parts first,
except the "Last AI decision" box, which may take the list down to :data:`MOVES_FLOOR_H`."""
MOVES_FLOOR_H = 44
"""The move list's height (design pixels, one line: the last moves) below which the decision box gives up its own
height instead (and scrolls): a whole decision matters more than a second line of moves, which the list scrolls to
anyway (checkers between two AIs at 1280x640: with the Pause row, a floor of two lines of moves left the box two of
its three lines)."""
MOVES_BOX_MIN_PX = 40
"""The move list's least height in real pixels at any scale (a text box any shorter shows no whole line): the floor
above never goes below it, so at a small scale the box never reaches down over the buttons under it."""
DECISION_LABELS = ("Last AI decision", "AI decision")
"""The heading beside the Tree button, longest first: the first that fits is shown (the short one in the
narrowest panel, 640x480, where the long one is cut)."""
DECISION_MIN_H = 64
"""Smallest height (design pixels) of the "Last AI decision" box: two lines."""
PANEL_MAX = 440
"""Widest side panel (design pixels) that a board of a fixed shape gives its unused width to
(:func:`match_areas`); the left column keeps the rest, for the search tree's overlay."""
PLAYER_LINES = 3
"""Lines a side's description may take in the panel; a longer one ends with "…" and its tool tip has it all."""
MOVE_ENTRY_H = 34
"""Height (design pixels) of the typed move's row (its field and the completions beside it), shown while a person
plays a side."""
MOVE_ENTRY_SHARE = 0.45
"""The share of the panel's width the move field takes; the completions take the rest of its row."""
SCROLL_BAR_W = 20
"""Width (pixels) of the move buttons' scroll bar (pygame_gui's scrolling container), when they overflow."""


MOVE_HINTS = ("type a move", "a move", "move")
"""The empty move field's hint, the longest that fits the field first."""


class MoveEntry(UITextEntryLine):
    """The panel's move field: a one-line text entry whose Tab completes the text to what the legal moves it begins
    share (``complete(text) -> text``, the panel's); Enter is pygame_gui's (``UI_TEXT_ENTRY_FINISHED``, which the
    scene plays)."""

    def __init__(self, rect: pygame.Rect, manager: pygame_gui.UIManager, container: UIPanel,
                 complete: Callable[[str], str]) -> None:
        super().__init__(rect, manager, container, object_id="#move_entry", placeholder_text=MOVE_HINTS[0])
        self.complete = complete
        room = self.rect.width - 2 * (self.padding[0] + self.shadow_width + 2)  # pygame_gui's text area
        font = self.font
        hint = next((h for h in MOVE_HINTS if font is not None and font.size(h)[0] <= room), "")
        if hint != self.placeholder_text:  # a narrow field (640x480) says less rather than a cut hint
            self.placeholder_text = hint
            self.rebuild()  # type: ignore[no-untyped-call]

    def process_event(self, event: pygame.event.Event) -> bool:
        """Tab while focused: complete the text; every other event as pygame_gui's text entry."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_TAB and self.is_focused:
            text = self.get_text()
            done = self.complete(text)
            if done != text:
                self.set_text(done)
                self.edit_position = len(done)
            return True
        return bool(super().process_event(event))


class PanelOverlay(Protocol):
    """What the panel reads of the scene's search-tree overlay and asks of it."""

    @property
    def visible(self) -> bool:
        """The overlay is open (the result banner hides under it)."""
        ...

    def set_rect(self, rect: pygame.Rect) -> None:
        """Place the overlay (window pixels): the left column below the status line."""
        ...


class PanelAids(Protocol):
    """What the panel reads of the scene's play aids (:class:`gameplay.ui.play.play_aids.PlayAids`)."""

    def actions(self) -> Sequence[ExtraAction]:
        """The aids' commands that are panel buttons (Save / Load; Hint, Help and Race when the board leaves no
        room under it)."""
        ...

    def ai_failed_here(self) -> bool:
        """The AI failed at this position and its recovery buttons are shown under the board."""
        ...


class MatchModel(Protocol):
    """The match scene's state as the panel reads it: read only (:class:`gameplay.ui.play.match.MatchScene` is one).
    The panel never changes the scene; the scene changes, the panel shows it at its next refresh."""

    @property
    def game_name(self) -> str:
        """The game's registry name (``"checkers"``)."""
        ...

    @property
    def game(self) -> Any:
        """The game (a :class:`gameplay.rules.base.Game`)."""
        ...

    @property
    def record(self) -> GameRecord:
        """The game so far: start, moves, redo stack."""
        ...

    @property
    def agents(self) -> tuple[Agent, Agent]:
        """The agents of players 0 and 1."""
        ...

    @property
    def runner(self) -> AgentRunner:
        """The agent runner (is the AI thinking, its progress)."""
        ...

    @property
    def view(self) -> BoardView:
        """The board view (its ``aspect``, when the board has a fixed shape)."""
        ...

    @property
    def controller(self) -> InputController:
        """The board's input controller (its move buttons, its prompt, its move keys)."""
        ...

    @property
    def tools(self) -> ViewTools | None:
        """The board view's extra commands, or ``None``."""
        ...

    @property
    def aids(self) -> PanelAids:
        """The play aids."""
        ...

    @property
    def overlay(self) -> PanelOverlay:
        """The search-tree overlay."""
        ...

    @property
    def error(self) -> str | None:
        """Why the AI stopped, or ``None``."""
        ...

    @property
    def notice(self) -> tuple[str, bool] | None:
        """A message for the panel (text, is_error), or ``None``."""
        ...

    @property
    def paused(self) -> bool:
        """The agents wait (AI against AI)."""
        ...

    @property
    def pending(self) -> tuple[Hashable, SearchResult] | None:
        """A finished AI decision waiting to be shown (tag, result), or ``None``."""
        ...

    @property
    def last_decision(self) -> tuple[int, str, SearchResult] | None:
        """(player, move text, result) of the last AI move on the way to the current position, or ``None``."""
        ...

    @property
    def decision_unsaved(self) -> bool:
        """The last AI move on the way to the current position is one whose decision a resumed game does not hold
        (an earlier move than the save's last decision, or an older version's save)."""
        ...

    @property
    def auto_restart_s(self) -> float | None:
        """Seconds after the end before the next game starts by itself (demos), or ``None``."""
        ...

    @property
    def clock(self) -> float:
        """Seconds the scene has run."""
        ...

    @property
    def has_human(self) -> bool:
        """At least one side is a person."""
        ...

    def is_human(self, player: int) -> bool:
        """``player`` (0 or 1) is played by a person."""
        ...

    def human_to_move(self) -> bool:
        """The game goes on, the position is a decision, and a person decides it."""
        ...


def format_nodes(n: int) -> str:
    """A node count with thousands separators, e.g. ``1,234``."""
    return f"{n:,}"


def format_seconds(s: float) -> str:
    """Seconds for the panel: ``"12 ms"`` under a second, else ``"1.4 s"``."""
    return f"{s * 1000:.0f} ms" if s < 1 else f"{s:.1f} s"


def format_value(res: SearchResult) -> str:
    """The decision's value from the mover's point of view, as the search tree's root prints it for the same
    iteration (:func:`ai.kernel.numbers.value_text`: ``2``, ``win in 5 (proven)``, ``0.0641 (win chance 53.2%)``)."""
    p = res.extra.get("win_probability")
    return value_text(res.value, res.outcome, p if isinstance(p, float) else None)


def whole_words(words: Sequence[str], fits: Callable[[str], bool]) -> str:
    """As many of ``words`` (moves) as ``fits`` takes, whole, then ``+N`` for the rest: never a move cut in the
    middle (the move field's completions; ``fits(text)`` says whether ``text`` fits its row). The first word alone
    when even ``word +N`` does not fit."""
    for k in range(len(words), 0, -1):
        text = " ".join(words[:k]) + (f" +{len(words) - k}" if k < len(words) else "")
        if fits(text):
            return text
    return words[0] if words else ""


def fit_text(manager: pygame_gui.UIManager, text: str, width: int, size: int = 20, *, bold: bool = False) -> str:
    """``text`` shortened with an ellipsis to fit ``width`` pixels in the theme's font of ``size`` points.

    ``size`` is the design size (scale 1); the font measured is the one at the current interface scale.
    """
    font = manager.get_theme().get_font_dictionary().find_font(projector.px(size), "noto_sans", bold=bold)
    if font.size(text)[0] <= width:
        return text
    while len(text) > 1 and font.size(text + "…")[0] > width:
        text = text[:-1]
    return text.rstrip() + "…"


def at_bottom(box: UITextBox) -> bool:
    """True when a text box shows the end of its text: no scroll bar, or scrolled to the bottom (within a pixel or
    two of rounding)."""
    bar = box.scroll_bar
    if bar is None or bar.sliding_button is None:
        return True
    return bool(bar.scroll_position + bar.sliding_button.rect.height >= bar.bottom_limit - 2)


def set_following_text(box: UITextBox, text: str, *, follow: bool = True) -> None:
    """Set the text of a log-like text box (the moves list) and keep the reader's place.

    Shown at its end (the newest line) when ``follow`` and the box was at its end (or had no scroll bar); a reader
    who scrolled up to read keeps the same lines in view. ``pygame_gui`` rebuilds the box from its top on every
    ``set_text``; this puts the scroll position back.
    """
    bar, layout = box.scroll_bar, box.text_box_layout
    bottom = at_bottom(box)
    top_px = bar.start_percentage * layout.layout_rect.height if bar is not None and layout is not None else 0.0
    box.set_text(text)
    bar, layout = box.scroll_bar, box.text_box_layout
    if bar is None or layout is None or layout.layout_rect.height <= 0:
        return
    bar.set_scroll_from_start_percentage(1.0 if follow and bottom else top_px / layout.layout_rect.height)
    box.redraw_from_text_block()


def button_label(manager: pygame_gui.UIManager, label: str, width: int, size: int = 20) -> str:
    """A button's label that fits ``width`` pixels (bold, ``size`` design points): ``label`` itself, else without
    its key in brackets (``"Save PDN (S)"`` -> ``"Save PDN"``), else that shortened with an ellipsis."""
    if fit_text(manager, label, width, size, bold=True) == label:
        return label
    short = label.split(" (")[0] if label.endswith(")") and " (" in label else label
    return fit_text(manager, short, width, size, bold=True)


def button_labels(manager: pygame_gui.UIManager, labels: Sequence[str], width: int, size: int = 20) -> list[str]:
    """Labels for a row or grid of buttons ``width`` pixels wide: all whole when all fit, else all without their
    keys (:func:`button_label`), so that one row never mixes "New (N)" with "Undo"."""
    if all(fit_text(manager, label, width, size, bold=True) == label for label in labels):
        return list(labels)
    return [button_label(manager, label.split(" (")[0] if label.endswith(")") and " (" in label else label, width,
                         size) for label in labels]


def match_areas(size: tuple[int, int], scale: float,
                aspect: float | None = None) -> tuple[pygame.Rect, pygame.Rect, int, int, pygame.Rect]:
    """Where a match's parts go in a window of ``size`` at interface ``scale``.

    The side panel is 30% of the width (between 330 and 460 design pixels, at most 45%). A board of a fixed shape
    (``aspect``: its width over its height, the view's ``aspect``) that its area's height limits leaves the width
    it cannot use to the panel, up to :data:`PANEL_MAX` design pixels, and keeps its own size: at 1024x768 the
    panel is 383 pixels wide instead of 330 (its buttons go three a row, a decision wraps less), at 1280x720 and
    1280x800 440 instead of 384.

    Returns:
        (side panel, left column, status line height, result banner height, the board's whole area).
    """
    w, h = size

    def px(n: float) -> int:
        return max(1, round(n * scale))

    m = max(12, min(w, h) // 40)
    pw = int(min(px(460), max(px(330), w * 0.3), w * 0.45))
    status_h, banner_h = px(52), px(64)
    area_h = max(60, h - 2 * m - status_h - banner_h - 30)
    if aspect is not None:
        spare = w - pw - 3 * m - math.ceil(aspect * area_h)
        pw = max(pw, int(min(pw + max(0, spare), px(PANEL_MAX), w * 0.45)))
    panel = pygame.Rect(w - pw - m, m, pw, h - 2 * m)
    left = pygame.Rect(m, m, max(100, w - pw - 3 * m), h - 2 * m)
    area = pygame.Rect(left.x, left.y + status_h + 10, left.width, area_h)
    return panel, left, status_h, banner_h, area


def board_place(size: tuple[int, int], aspect: float | None = None) -> pygame.Rect:
    """Where the board goes in a window of ``size`` at the interface's scale (a board of a fixed shape: ``aspect``,
    its width over its height). The board grows with the zoom: at the largest step the window offers it fills its
    area, below that it takes a share that shrinks with the scale (its area at a bigger step is never smaller)."""
    scale = projector.scale()
    area = match_areas(size, scale, aspect)[4]
    largest = projector.current()
    top = max(scale, replace(largest, zoom=largest.max_zoom).scale)
    biggest = match_areas(size, top, aspect)[4]
    k = min(1.0, (scale / top) ** 0.5)
    rect = pygame.Rect(area.x, area.y, min(area.width, max(60, round(biggest.width * k))),
                       min(area.height, max(60, round(biggest.height * k))))
    rect.centerx = area.centerx
    return rect


def result_text(scene: MatchModel) -> str | None:
    """``"X wins: three in a row"`` / ``"Draw: board full"`` when the game is over, else ``None``."""
    out = scene.record.outcome()
    if out is None:
        return None
    if out.winner is None:
        return f"Draw: {out.termination_text}"
    names = scene.game.player_names
    if out.termination is Termination.NO_LEGAL_MOVE:  # checkers: say who is stuck
        return f"{names[out.winner]} wins: {names[1 - out.winner]} cannot move"
    return f"{names[out.winner]} wins: {out.termination_text}"

def player_label(game: Any, player: int) -> str:
    """A player's name in a sentence: ``"Black"``, ``"X"``, ``"Player 1"`` (Pig's players are numbers)."""
    name = str(game.player_names[player])
    return f"Player {name}" if name.isdigit() else name


def status_variants(scene: MatchModel) -> list[str]:
    """The status line's texts, longest first, each one whole: the result, the error, whose turn, or what the AI
    is doing. The label shows the first that fits its width (:func:`fit_status`); the last is short."""
    result = result_text(scene)
    if result is not None:
        return [result]
    game, state = scene.game, scene.record.state
    if scene.error is not None:
        if scene.aids.ai_failed_here():  # its two buttons are under the board
            who = player_label(game, game.to_move(state))
            return [f"{who}'s AI failed: play its side yourself, try it again or undo",
                    f"{who}'s AI failed: play its side or try it again", f"{who}'s AI failed: choose below",
                    f"{who}'s AI failed", "The AI failed"]
        return ["The AI stopped: undo, start a new game (N) or go to the menu",
                "The AI stopped: undo or start a new game (N)", "The AI stopped: N for a new game",
                "The AI stopped"]
    if scene.paused:
        return ["Paused: press Space to resume", "Paused: Space resumes", "Paused"]
    if game.is_chance(state):
        return ["Rolling the die...", "Rolling..."]
    player = game.to_move(state)
    name = game.player_names[player]
    if scene.is_human(player):
        who = "your move" if not scene.is_human(1 - player) else "to move"
        prompt = scene.controller.prompt(state)
        return [f"{name}: {who}, {prompt}", f"{name}: {prompt}", f"{name}: {who}", f"{name} to move"]
    if scene.pending is not None:
        res = scene.pending[1]
        return [f"{name} is thinking: depth {res.depth}, {format_nodes(res.nodes)} nodes searched",
                f"{name}: depth {res.depth}, {format_nodes(res.nodes)} nodes", f"{name} is thinking..."]
    info = scene.runner.info
    seconds = f"{scene.runner.thinking_s:.1f} s"
    if info is None:
        return [f"{name} is thinking... ({seconds})", f"{name} is thinking..."]
    return [f"{name} is thinking: depth {info.depth} done, {format_nodes(info.nodes)} nodes searched ({seconds})",
            f"{name} is thinking: depth {info.depth}, {format_nodes(info.nodes)} nodes ({seconds})",
            f"{name}: depth {info.depth} ({seconds})", f"{name} is thinking..."]


def status_text(scene: MatchModel) -> str:
    """The status line in full (the first of :func:`status_variants`)."""
    return status_variants(scene)[0]


def moves_html(scene: MatchModel) -> str:
    """The move list, one move (a ply pair, numbered as :mod:`gameplay.rules.move_numbers` counts) per line
    (``1. X 4   O 0``; a start with the second player to move opens ``1. … White 23-19``); a game whose turns
    are several moves (Pig: its ``turn_lines``) one turn per line."""
    game, rec = scene.game, scene.record
    if not rec.moves:
        return "<font color='#8590AA'>No moves yet</font>"
    turn_lines = getattr(game, "turn_lines", None)
    if callable(turn_lines):  # Pig: one line per turn ("Player 1: rolled 6, 5, held: +11"), not ply pairs
        return "<br>".join(f"<b>Player {html.escape(game.player_names[p])}</b>: {html.escape(text)}"
                           for p, text in turn_lines(rec.start, rec.moves))
    lines: list[str] = []
    names = rec.notation()
    offset = move_numbers.first_ply_offset(game, rec.start)  # a start with the second player to move: "1. …"
    for i, text in enumerate(names):
        s = rec.states[i]
        who = "die" if game.is_chance(s) else game.player_names[game.to_move(s)]
        item = f"<b>{html.escape(who)}</b> {html.escape(text)}"
        if (i + offset) % 2 == 0 or not lines:
            number = move_numbers.move_number(i, offset)
            lines.append(f"{number}.&nbsp;&nbsp;" + ("…&nbsp;&nbsp;&nbsp;&nbsp;" if (i + offset) % 2 else "") + item)
        else:
            lines[-1] += f"&nbsp;&nbsp;&nbsp;&nbsp;{item}"
    return "<br>".join(lines)

def decision_text(name: str, move: str, res: SearchResult) -> str:
    """One AI decision as the panel's box shows it (HTML): who played what, then how it was found: the opening
    book's entry, a policy table's value (Pig's optimal policy or a "hold at N" rule), a Monte Carlo tree search's
    mean value and counts, or a search's value and depth, then its nodes (all iterations, as ``analyze`` counts
    them) and time."""
    head = f"<b>{html.escape(name)} played {html.escape(move)}</b><br>"
    took = format_seconds(res.elapsed).replace(" ", "&nbsp;")  # "11 ms" never breaks between number and unit
    extra = res.extra or {}
    if res.stop_reason == StopReason.BOOK:
        found = f": {extra['book_origin']}" if "book_origin" in extra else ""
        return head + f"from the opening book (no search){html.escape(found)}"
    if "simulations" in extra:  # Monte Carlo tree search
        return (head + f"mean value {res.value:+.3f} (of -1..+1)<br>"
                f"{extra['simulations']:,} simulations, {format_nodes(res.nodes)} tree nodes, "
                f"depth {res.depth}, {took}")
    exact = exact_text(extra, res.nodes, res.elapsed)  # what the exact solver did (agent key exact)
    if extra.get("solver") is True:  # its proof: no tree, its own figures ("win in 1", then "proved by ...")
        return head + f"value: {html.escape(value_label(res.value))}<br>{html.escape(exact or '')}"
    if exact is not None:  # its unfinished try, then the search's own figures
        return (head + f"value: {html.escape(format_value(res))}, depth {res.depth}<br>{html.escape(exact)}: "
                f"{format_nodes(res.nodes)} nodes, {html.escape(exact_search_seconds(extra, res.elapsed))}")
    if res.stop_reason == StopReason.TABLE:  # a lookup in a precomputed policy (Pig's): no search to count
        policy = str(extra.get("policy", "optimal"))
        how = "from the optimal policy's table" if policy == "optimal" else f"by the rule \"{policy}\""
        return head + f"value: {html.escape(format_value(res))}<br>{html.escape(how)} (no search)"
    return (head + f"value: {html.escape(format_value(res))}, depth {res.depth}<br>"
            f"{format_nodes(res.nodes)} nodes in all iterations, {took}")


UNSAVED_DECISION = "The AI's last move was not saved with this game (T says more)"
"""The decision box at an AI move whose decision a resumed game does not hold (:attr:`MatchModel.decision_unsaved`)."""


def decision_html(scene: MatchModel) -> str:
    """The last AI decision (:func:`decision_text`) and any notice or error message."""
    parts: list[str] = []
    if scene.notice is not None:
        text, bad = scene.notice
        parts.append(f"<font color='{'#FF7A7A' if bad else '#8FE3A8'}'><b>{html.escape(text)}</b></font>")
    if scene.error is not None:
        parts.append(f"<font color='#FF7A7A'><b>{html.escape(scene.error)}</b></font>")
    if scene.last_decision is not None:
        player, move, res = scene.last_decision
        parts.append(decision_text(player_label(scene.game, player), move, res))
    if not parts:
        if scene.decision_unsaved:  # an AI move was played, but a resumed game does not hold its decision
            return f"<font color='#8590AA'>{html.escape(UNSAVED_DECISION)}</font>"
        return "<font color='#8590AA'>No AI move yet</font>"
    return "<br>".join(parts)


def decision_samples(scene: MatchModel) -> list[str]:
    """The longest decisions the box must show whole for this match's agents, with wide figures (depth 20,
    12,345,678 nodes, 10.0 s; a proven win or a win chance; a book move 12,345 games played): a search's for
    every searching AI, a policy table's for Pig's policies, a Monte Carlo tree search's for one, and a book
    move's for one that plays a book."""
    names = [player_label(scene.game, p) for p in (0, 1)]
    name = max(names, key=len)
    move = "10x19x26x17"
    samples = []
    for agent in scene.agents:
        if agent.is_human:
            continue
        settings = agent.settings
        algorithm = getattr(settings, "algorithm", "")
        if algorithm == "optimal":  # Pig's policy table or a "hold at N" rule: both wordings
            for policy in ("optimal", "hold at 100"):
                samples.append(decision_text(name, move, SearchResult(
                    move, -0.0641, None, None, 0, 0, (), 0.001, StopReason.TABLE,
                    {"win_probability": 0.468, "policy": policy})))
            continue
        if algorithm == "mcts":
            res = SearchResult(move, 0.999, None, None, 20, 12_345_678, (), 10.0, StopReason.TIME,
                               {"simulations": 9_876_543})
        elif scene.game.traits.stochastic:  # a chance game's value reads as a win chance
            res = SearchResult(move, -0.0641, None, None, 20, 12_345_678, (), 10.0, StopReason.TIME,
                               {"win_probability": 0.468})
        else:
            res = SearchResult(move, WIN - 99, "win", 99, 20, 12_345_678, (), 10.0, StopReason.PROVEN, {})
        samples.append(decision_text(name, move, res))
        if getattr(getattr(settings, "search", None), "exact", False):  # the exact solver's proof, or its try
            samples.append(decision_text(name, move, SearchResult(
                move, WIN - 99, "win", 99, 99, 12_345_678, (), 10.0, StopReason.PROVEN,
                {"solver": True, "null_window_tests": 12, "book_hits": 12_345})))
            samples.append(decision_text(name, move, SearchResult(
                move, -12.5, None, None, 20, 12_345_678, (), 10.0, StopReason.TIME,
                {"solver": False, "solver_s": 9.0, "solver_nodes": 12_345_678, "solver_book_hits": 1_234,
                 "search_s": 1.0})))
        if getattr(getattr(settings, "search", None), "book", False):  # from games, and from the book's own search
            for origin in ("12,345 book games, mover's score 0.50", "the book's search: value -1,234 at depth 15"):
                samples.append(decision_text(name, move, SearchResult(
                    move, 0, None, None, 0, 0, (), 0.0, StopReason.BOOK, {"book_origin": origin})))
    samples.append(f"<font color='#8590AA'>{html.escape(UNSAVED_DECISION)}</font>")  # a resumed game's earlier move
    return samples


def text_box_height(manager: pygame_gui.UIManager, text: str, width: int) -> int:
    """Pixels a text box ``width`` wide needs to show ``text`` (HTML) whole, without a scroll bar: measured by
    pygame_gui laying it out in a box of free height."""
    probe = UITextBox(text, pygame.Rect(-10 * width, 0, width, -1), manager)
    height: int = probe.rect.height
    probe.kill()
    return height


class MatchPanel:
    """The match scene's side panel, status line and result banner: builds their widgets for a window size
    (:meth:`layout`) and keeps them showing the scene's state (:meth:`refresh`), read through ``model``; owns its
    move buttons and extra-command buttons and what each widget shows.

    Args:
        model: the scene's state, read only (:class:`MatchModel`; the :class:`gameplay.ui.play.match.MatchScene`).
        widgets: the scene's named widgets (:class:`gameplay.ui.widgets.scene.WidgetTable`), which the panel fills with
            its own: ``status``, ``banner``, ``panel``, ``title``, ``player0``..., ``decision_label``, ``tree``,
            ``decision``, ``moves_label``, ``moves``, ``new``, ``undo``, ``redo``, ``menu``, ``pause``.
    """

    def __init__(self, model: MatchModel, widgets: MutableMapping[str, Any]) -> None:
        self._model = model
        self._widgets = widgets
        self._shown: dict[str, Any] = {}
        """What each widget shows, by key (``"status"``, ``"moves"``...): it is set again only when that changes."""
        self._status_at = -1.0
        """``model.clock`` when the status line was last set (4 times a second while the AI thinks)."""
        self._action_buttons: list[tuple[UIButton, Any]] = []
        self._actions_key: tuple[Any, ...] | None = None
        self._actions_rect = pygame.Rect(0, 0, 0, 0)
        self._actions_scroll: UIScrollingContainer | None = None
        """The move buttons' scrolling container when they overflow their rows, else ``None``."""
        self._extra_buttons: list[tuple[UIButton, ExtraAction]] = []

    @property
    def action_buttons(self) -> list[tuple[UIButton, Any]]:
        """``[(button, move)]``: the move buttons (a game whose board takes no clicks for them), in the input
        controller's order, row by row; empty when every move is played on the board. A copy."""
        return list(self._action_buttons)

    @property
    def extra_buttons(self) -> list[tuple[UIButton, ExtraAction]]:
        """``[(button, command)]``: the buttons of the board view's extra commands (checkers: Flip, Numbers, Save
        PDN...) and the play aids' (Save / Load; Hint, Help and Race when the board leaves no room under it), row by
        row. A copy."""
        return list(self._extra_buttons)

    def forget_shown(self, key: str) -> None:
        """Set the widget ``key`` (``"moves"``...) again at the next :meth:`refresh`, even if its text is the same
        (a new position: the move list scrolls to its end)."""
        self._shown.pop(key, None)

    def kill(self) -> None:
        """Kill the panel's own buttons and forget what the widgets show (before a new layout, on exit); the named
        widgets are the scene's to kill."""
        for b, _ in self._action_buttons:
            b.kill()
        self._action_buttons = []
        if self._actions_scroll is not None:
            self._actions_scroll.kill()
            self._actions_scroll = None
        self._actions_key = None
        for b, _ in self._extra_buttons:
            b.kill()
        self._extra_buttons = []
        self._shown = {}

    def _set(self, key: str, value: Any, apply: Callable[[Any], object]) -> None:
        """Apply ``value`` to a widget only when it changed (pygame_gui re-renders on every set)."""
        if self._shown.get(key) != value:
            self._shown[key] = value
            apply(value)

    def layout(self, size: tuple[int, int], manager: pygame_gui.UIManager) -> None:
        """Build the status line, the result banner and the side panel for a window of ``size`` in ``manager``,
        then show the scene's state in them (:meth:`refresh`). The scene has placed its board first
        (:func:`board_place`): the play aids' buttons go beside it or into the panel."""
        scene, ui = self._model, self._widgets
        self.kill()
        px = projector.px  # design pixels at the interface scale (projector mode: Ctrl+plus / Ctrl+minus)
        scale = projector.scale()
        aspect = getattr(scene.view, "aspect", None)
        panel_rect, left, status_h, banner_h, area = match_areas(size, scale, aspect)
        ui["status"] = UILabel(pygame.Rect(left.x, left.y, left.width, status_h), "", manager,
                               object_id="#status")
        bw = min(left.width, px(960))
        ui["banner"] = UILabel(pygame.Rect(left.centerx - bw // 2, left.bottom - banner_h, bw, banner_h), "",
                               manager, object_id="#banner", visible=0)
        panel = UIPanel(panel_rect, manager=manager, object_id="#side_panel")
        ui["panel"] = panel
        inner = panel_rect.width - 2 * 16 - 4
        y = 14
        ui["title"] = UILabel(pygame.Rect(16, y, inner, px(40)), game_title(scene.game_name),
                              manager, container=panel, object_id="#panel_title")
        y += px(46)
        line_h = max(px(30), projector.text_height(manager, "#player"))
        for p in (0, 1):
            full = f"{scene.game.player_names[p]}: {describe_agent(scene.agents[p])}"
            lines = projector.wrap_text(manager, full, inner - 12, "#player")
            if len(lines) > PLAYER_LINES:  # a very long description: the last line shortened, all in the tool tip
                lines = lines[:PLAYER_LINES - 1] + [fit_text(manager, " ".join(lines[PLAYER_LINES - 1:]), inner - 12)]
            note = None if scene.agents[p].is_human else scene.agents[p].tables_note()
            tip = full + (f" ({note})" if note else "")  # the endgame tables' size: in the tip, not a line more
            for i, line in enumerate(lines):
                key = f"player{p}" + (f".{i}" if i else "")
                ui[key] = UILabel(pygame.Rect(16, y, inner, line_h), line, manager, container=panel,
                                  object_id="#player")
                if len(lines) > 1 or note:
                    ui[key].set_tooltip(tip)
                y += line_h
            y += px(2)
        y += 10
        tree_w = max(px(124), projector.text_width(manager, "Tree (T)", None, "button") + px(24))
        field_h = max(px(34), projector.text_height(manager, "#field_label"))
        label_w = inner - tree_w - px(6)
        heading = next((t for t in DECISION_LABELS if projector.text_width(manager, t, "#field_label") <= label_w),
                       DECISION_LABELS[-1])
        ui["decision_label"] = UILabel(pygame.Rect(16, y, label_w, field_h), heading, manager, container=panel,
                                       object_id="#field_label")
        ui["tree"] = UIButton(pygame.Rect(16 + inner - tree_w, y, tree_w, field_h), "Tree (T)", manager,
                              container=panel, tool_tip_text="Show the search tree of the last AI decision")
        scene.overlay.set_rect(pygame.Rect(left.x, area.y, left.width, left.bottom - area.y))
        y += field_h + px(4)
        # The panel degrades gracefully at large interface scales (projector mode, small windows) so that a whole
        # decision and the move list fit: the extra buttons go three a row with short labels (their tool tips keep the
        # full text), New / Undo / Redo / Menu share one row, the move list gives up its third line, and only then
        # does the decision box shrink (and scroll).
        bh, gap = px(48), 10
        ph = panel_rect.height - 4
        n_actions = max(len(scene.controller.actions(first_decision(scene.game, scene.game.initial_state()))),
                        len(scene.controller.actions(scene.record.state)))
        rows = min(4, math.ceil(n_actions / 3))
        actions_h = rows * (px(44) + 8)
        actions_gap = 8 if rows else 0  # between the game's action buttons (Pig's Roll and Hold) and the extras
        extras = list(scene.tools.actions()) if scene.tools is not None else []
        extras += list(scene.aids.actions())
        eh = px(40)
        moves_min = px(MOVES_MIN_H)
        # the typed move's row (any game, while a person plays a side): above the move buttons
        entry_h = max(px(MOVE_ENTRY_H), projector.text_height(manager, "#field_label")) if scene.has_human else 0
        entry_block = entry_h + 8 if entry_h else 0

        def plan(decision_h: int, one_row: bool, ecols: int) -> tuple[int, int, int]:
            """(bottom rows' top, extras' top, moves height) for these choices."""
            row1 = ph - 14 - bh - (0 if one_row else gap + bh)
            above = row1 - (0 if scene.has_human else gap + bh)
            extras_y = above - math.ceil(len(extras) / ecols) * (eh + 8)
            return row1, extras_y, (extras_y - actions_gap - actions_h - entry_block - 8
                                    - (y + decision_h + px(10) + px(30)))

        def labels_fit(ecols: int) -> bool:
            ew = (inner - (ecols - 1) * 8) // ecols
            return all("…" not in button_label(manager, e.label, ew - 10, 18) for e in extras)

        def bottom_fits(one_row: bool) -> bool:
            """New / Undo / Redo / Menu read whole (their keys may go) in one row of four or two rows of two."""
            cols = 4 if one_row else 2
            bw = (inner - (cols - 1) * gap) // cols
            texts = ("New (N)" if bw < px(165) else "New game (N)", "Undo (U)", "Redo (Ctrl+Y)", "Menu (Esc)")
            return all("…" not in button_label(manager, t, bw - 12, 20) for t in texts)

        fits = {c: labels_fit(c) for c in (2, 3)}
        whole = {o: bottom_fits(o) for o in (False, True)}
        # The decision box is as tall as this match's longest decisions need (measured at its width), at least
        # DECISION_MIN_H; it gives up height (and scrolls) only where the move list would fall below MOVES_FLOOR_H.
        need = max([px(DECISION_MIN_H)] + [text_box_height(manager, t, inner) for t in decision_samples(scene)])
        floor = max(MOVES_BOX_MIN_PX, px(MOVES_FLOOR_H))

        def choose() -> tuple[int, bool, int, int, int]:
            """(decision height, one bottom row, extras' columns, bottom rows' top, extras' top) of the best plan."""
            plans = []
            for i, (one_row, ecols) in enumerate([(False, 2), (False, 3), (True, 2), (True, 3)]):
                deficit = max(0, floor - plan(need, one_row, ecols)[2])
                decision_h = max(px(DECISION_MIN_H), need - deficit)
                row1, extras_y, moves_h = plan(decision_h, one_row, ecols)
                plans.append(((decision_h, min(moves_h, moves_min), -i), fits[ecols] and whole[one_row],
                              (decision_h, one_row, ecols, row1, extras_y)))
            # of the plans that keep every label whole (a label is never cut: the list scrolls), the one with the
            # tallest decision box, then the longest move list up to its minimum, then the first (two rows of bigger
            # buttons)
            readable = [p for p in plans if p[1]] or plans[-1:]
            return max(readable)[2]

        choice = choose()
        # The move buttons scroll (refresh_actions): where the decision box or the move list would give up height
        # for them, they give up rows instead, down to two (one where the move list still falls short).
        while rows > 1:
            short = plan(*choice[:3])[2] < floor
            if not short and not (choice[0] < need and rows > 2):
                break
            rows -= 1
            actions_h = rows * (px(44) + 8)
            choice = choose()
        decision_h, one_row, ecols, row1, extras_y = choice
        ui["decision"] = UITextBox("", pygame.Rect(16, y, inner, decision_h), manager, container=panel)
        y += decision_h + px(10)
        ui["moves_label"] = UILabel(pygame.Rect(16, y, inner, px(28)), "Moves", manager, container=panel,
                                    object_id="#field_label")
        y += px(30)
        ew = (inner - (ecols - 1) * 8) // ecols
        extra_labels = button_labels(manager, [e.label for e in extras], ew - 10, 18)
        for i, (extra, label) in enumerate(zip(extras, extra_labels)):
            r, c = divmod(i, ecols)
            tip = extra.tooltip or ""
            if label != extra.label:
                tip = f"{extra.label}: {tip}" if tip else extra.label
            button = UIButton(pygame.Rect(16 + c * (ew + 8), extras_y + r * (eh + 8), ew, eh), label,
                              manager, container=panel, tool_tip_text=tip or None,
                              object_id="#extra_action")
            self._extra_buttons.append((button, extra))
        self._actions_rect = pygame.Rect(16, extras_y - actions_gap - actions_h, inner, actions_h)
        moves_h = max(MOVES_BOX_MIN_PX, self._actions_rect.y - entry_block - 8 - y)
        ui["moves"] = UITextBox("", pygame.Rect(16, y, inner, moves_h), manager, container=panel)
        if entry_h:
            entry_y = max(y + moves_h + 8, self._actions_rect.y - entry_block)
            entry_w = max(px(90), round(inner * MOVE_ENTRY_SHARE))
            ui["move_entry"] = MoveEntry(pygame.Rect(16, entry_y, entry_w, entry_h), manager, panel, self.complete)
            ui["move_entry"].set_tooltip("Type a move as the move list writes it; Tab completes it, Enter plays it "
                                         "(Enter also comes here from the board, Esc leaves)")
            ui["move_matches"] = UILabel(pygame.Rect(16 + entry_w + 8, entry_y, inner - entry_w - 8, entry_h), "",
                                         manager, container=panel, object_id="#move_matches")
        redo_key = "Ctrl+Y" if pygame.K_r in getattr(scene.controller, "shortcuts", {}) else "R"
        bottom = [("new", "New game (N)", "Start a new game with the same players (N)"),
                  ("undo", "Undo (U)", "Take back to your last move (U, Ctrl+Z)"),
                  ("redo", f"Redo ({redo_key})", f"Replay a move taken back ({redo_key}, Ctrl+Y)"),
                  ("menu", "Menu (Esc)", "Back to the start menu (Esc)")]
        cols = 4 if one_row else 2
        bw = (inner - (cols - 1) * gap) // cols
        if bw < px(165):
            bottom[0] = ("new", "New (N)", bottom[0][2])
        bottom_labels = button_labels(manager, [text for _, text, _ in bottom], bw - 12, 20)
        for i, ((name, _, tip), label) in enumerate(zip(bottom, bottom_labels)):
            r, c = divmod(i, cols)
            ui[name] = UIButton(pygame.Rect(16 + c * (bw + gap), row1 + r * (bh + gap), bw, bh), label, manager,
                                container=panel, tool_tip_text=tip)
        if not scene.has_human:
            ui["pause"] = UIButton(pygame.Rect(16, row1 - gap - bh, inner, bh), "Pause (Space)", manager,
                                   container=panel, tool_tip_text="Stop or resume the agents")
        self.refresh()

    def fit_status(self, text: str, variants: Sequence[str] = ()) -> str:
        """The status line as it fits the label: ``text``, else the first of its shorter ``variants`` that fits
        whole (:func:`status_variants`); an ellipsis only when none does (``text`` itself before the first
        :meth:`layout`)."""
        label = self._widgets.get("status")
        if label is None:
            return text
        manager, width = label.ui_manager, label.rect.width - 16
        for candidate in [text, *variants]:
            if fit_text(manager, candidate, width, 28, bold=True) == candidate:
                return candidate
        return fit_text(manager, (list(variants) or [text])[-1], width, 28, bold=True)

    def refresh(self) -> None:
        """Show the scene's state in the widgets: the status line, the banner, the move list, the decision box, the
        Undo / Redo / Pause buttons and the move buttons; each widget is set only when what it shows changed
        (pygame_gui renders it again on every set). Nothing before the first :meth:`layout`."""
        scene, ui = self._model, self._widgets
        if not ui:
            return
        # While the AI thinks the text changes every frame (node count, seconds); re-rendering a label costs a few
        # GIL hand-offs to the worker, so it is refreshed 4 times a second then.
        thinking = not scene.runner.idle()
        if not thinking or scene.clock - self._status_at >= 0.25:
            self._status_at = scene.clock
            variants = status_variants(scene)
            self._set("status", tuple(variants),
                      lambda texts: ui["status"].set_text(self.fit_status(texts[0], texts[1:])))
        result = result_text(scene)
        if result is not None and scene.auto_restart_s is not None:
            result += "  (next game soon)"
        elif result is not None:
            result += "  (N: new game)"

        def show_banner(text: str | None) -> None:
            if text is None:
                ui["banner"].hide()
            else:
                ui["banner"].set_text(text)
                ui["banner"].show()

        self._set("banner", None if scene.overlay.visible else result, show_banner)
        self._set("moves", moves_html(scene), lambda text: set_following_text(ui["moves"], text))
        self._set("decision", decision_html(scene), ui["decision"].set_text)
        can_undo = scene.record.ply > 0 and (not scene.has_human or any(
            not scene.game.is_chance(s) and scene.is_human(scene.game.to_move(s)) for s in scene.record.states[:-1]))
        self._set("undo_on", can_undo, lambda on: ui["undo"].enable() if on else ui["undo"].disable())
        can_redo = bool(scene.record.redo_stack)
        self._set("redo_on", can_redo, lambda on: ui["redo"].enable() if on else ui["redo"].disable())
        if "pause" in ui:
            self._set("pause", scene.paused, lambda p: ui["pause"].set_text("Resume (Space)" if p else "Pause (Space)"))
        if "move_entry" in ui:
            self._refresh_entry()
        self.refresh_actions()

    def complete(self, text: str) -> str:
        """What Tab makes of the move field's ``text``: the beginning the legal moves it begins share (``text``
        itself when none begins with it, or they share no more)."""
        scene = self._model
        if not scene.human_to_move():
            return text
        shared = common_start([t for t, _ in completions(scene.game, scene.record.state, text)])
        return shared if len(shared) > len(text.strip()) else text

    def matches_text(self, text: str) -> str:
        """The completions shown beside the move field: the legal moves ``text`` begins (all of them when it is
        empty), ``"none begins 4:9"`` when none, ``""`` when no person is to move."""
        moves = self.matches(text)
        return " ".join(moves) if moves else self._no_match(text)

    def matches(self, text: str) -> list[str]:
        """The legal moves (their texts) that ``text`` begins, all when it is empty; ``[]`` when none or when no
        person is to move."""
        scene = self._model
        if not scene.human_to_move():
            return []
        return [t for t, _ in completions(scene.game, scene.record.state, text)]

    def _no_match(self, text: str) -> str:
        return f"none begins {text.strip()}" if self._model.human_to_move() else ""

    def _refresh_entry(self) -> None:
        """The move field on while a person is to move (off, and emptied, otherwise); the completions of its text
        beside it, cut to the row (its tool tip has them all)."""
        scene, ui = self._model, self._widgets
        entry, label = ui["move_entry"], ui["move_matches"]
        on = scene.human_to_move()

        def switch(state: tuple[bool, Any]) -> None:
            if state[0]:
                entry.enable()
            else:
                entry.set_text("")
                entry.disable()

        self._set("entry_on", (on, scene.record.tag), switch)
        text = entry.get_text()

        def show(key: tuple[Any, bool, str]) -> None:
            moves = self.matches(key[2])
            shown = " ".join(moves) if moves else self._no_match(key[2])
            font = projector.theme_font(label.ui_manager, "#move_matches", "label")
            room = label.rect.width - 8
            label.set_text(whole_words(moves, lambda t: font.size(t)[0] <= room) if moves
                           else fit_text(label.ui_manager, shown, room, 18))
            label.set_tooltip(shown or None)

        self._set("matches", (scene.record.tag, on, text), show)

    def refresh_actions(self) -> None:
        """(Re)build the move buttons the controller offers (a game file's named moves), when they change."""
        scene, ui_panel = self._model, self._widgets.get("panel")
        if ui_panel is None:
            return
        offered: Sequence[tuple[str, Any]] = (scene.controller.actions(scene.record.state)
                                              if scene.human_to_move() else [])
        key = (scene.record.tag, tuple(label for label, _ in offered))
        if key == self._actions_key:
            return
        self._actions_key = key
        for b, _ in self._action_buttons:
            b.kill()
        self._action_buttons = []
        if self._actions_scroll is not None:
            self._actions_scroll.kill()
            self._actions_scroll = None
        r = self._actions_rect
        if not offered or r.height <= 0:
            return
        cols, gap, bh = 3, 8, projector.px(44)
        rows = math.ceil(len(offered) / cols)
        holder: Any = ui_panel
        x0, y0, width = r.x, r.y, r.width
        if rows * (bh + gap) > r.height + gap:  # more moves than rows: they scroll (the wheel, the bar)
            self._actions_scroll = UIScrollingContainer(r, ui_panel.ui_manager, container=ui_panel,
                                                        allow_scroll_x=False, object_id="#move_buttons")
            holder, x0, y0, width = self._actions_scroll, 0, 0, r.width - SCROLL_BAR_W - 4
            self._actions_scroll.set_scrollable_area_dimensions((width, rows * (bh + gap)))  # a gap under the last
        bw = (width - (cols - 1) * gap) // cols
        for i, (label, move) in enumerate(offered):
            row, col = divmod(i, cols)
            rect = pygame.Rect(x0 + col * (bw + gap), y0 + row * (bh + gap), bw, bh)
            self._action_buttons.append((UIButton(rect, label, ui_panel.ui_manager, container=holder), move))

    @property
    def actions_scroll(self) -> UIScrollingContainer | None:
        """The scrolling container of the move buttons when they are more than their rows show, else ``None``."""
        return self._actions_scroll

    @property
    def move_entry(self) -> MoveEntry | None:
        """The move field (while a person plays a side), or ``None``."""
        entry = self._widgets.get("move_entry")
        return entry if isinstance(entry, MoveEntry) else None


def first_decision(game: Any, state: Any) -> Any:
    """``state``, or past its chance nodes by their first outcomes (a game that rolls before its first move, as an
    aima-python dice game does, has its move buttons' rows laid out for the moves after the roll)."""
    for _ in range(8):
        if game.is_terminal(state) or not game.is_chance(state):
            break
        state = game.result(state, game.chance_outcomes(state)[0][0])
    return state


def no_search_message(game: Any, decision: tuple[int, str, Any] | None) -> NoTreeText | None:
    """The overlay's header for a decision that recorded no search tree (a book move, a proof of the exact solver),
    else ``None``. ``decision``: ``(player, move text, SearchResult)``. A proof's header has, at the title's size, the
    solver's null-window tests at the root (``extra["proof_tests"]``: :func:`ai.kernel.spelling.proof_test_lines`),
    which are what the solver searched at the root, in order."""
    if decision is None:
        return None
    player, text, res = decision
    who = game.player_names[player]
    if getattr(res, "stop_reason", "") == StopReason.BOOK:
        return NoTreeText(f"{who} played {text} from the opening book",
                          ("No search was made for this move, so there is no tree: the opening book had the position"
                           + (f" ({res.extra['book_origin']})" if "book_origin" in (getattr(res, "extra", None) or {})
                              else "")
                           + ". The tree appears with the first move the AI searches; the agent setting book=off "
                           "makes it search every move.",))
    extra = getattr(res, "extra", None) or {}
    if extra.get("solver") is True:
        proof = exact_text(extra, res.nodes, res.elapsed) or ""
        tests = tuple(proof_test_lines(extra.get("proof_tests", ()), str, UNICODE, "\u00a0",  # a bound unbroken
                                       extra.get("proof_unsearched", ())))
        how = ("Each null-window test asks one yes-or-no question: is the value better than a threshold (a quicker "
               "win, or a later loss, is better)? Each answer narrows what the value can be, and the next threshold "
               "lies in what is left, until the answers meet at the exact value. A move's bound is what its search "
               "proved in that test: a yes stops at the first move better than the threshold, a no searched every "
               "move that does not lose at once." if tests else
               f"No null-window test was needed: {extra.get('proof_shortcut', 'the solver saw the result at once')}.")
        return NoTreeText(f"{who} played {text}: {value_label(res.value)}, proved by the exact solver",
                          (f"{proof[0].upper()}{proof[1:]}. {how} The solver records no tree below the root; the "
                           "agent setting exact=off makes the AI search a tree you can step through.",),
                          tests)
    return None
