"""How the title screen's game cards share their room: one plan for the whole row of cards.

The cards stand side by side, so their number (three built-in games, four, five or six with a teacher's game
files) sets their width; the window's height sets theirs. :func:`plan_cards` decides, for every card at once:

* the **title** whole on one line when it fits, else the record's short title (``GameInfo.short_title``:
  "Checkers" for "English checkers"), else wrapped over several lines: never cut;
* the **sides** (a label beside its drop-down, or above it when the card is narrow) and the **Play** button,
  which always keep their room; the button says "Play <the title>" in the largest of the :data:`PLAY_FONTS` in
  which every card's label fits (one size across the row), else, in the smallest, "Play <the short title>", else
  "Play" (the button's tool tip names the game);
* the **picture** of the board and the one-line **blurb** in what is left: both when they fit, else the picture
  alone (the blurb stays in the Play button's tool tip), else the blurb alone, else neither. Every card's
  picture has the same height and its title the same number of rows, so the pictures line up across the row.

Measurements come from the theme's fonts at the current scale (``projector.text_height`` / ``text_width`` /
``wrap_text``), so every zoom step the window offers gets its own plan.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import pygame_gui

from gameplay.rules.registry import game_info, game_title
from gameplay.ui.widgets import projector

PICTURE_MIN = 60
"""The smallest picture worth showing, in design pixels (``projector.px``): a board smaller than this is noise."""
CARD_PAD_MIN = 8
"""A narrow card's padding in design pixels: the narrowest card is a drop-down's width and twice this (and its
border): :func:`min_card_width`."""

PLAY_FONTS = ("#start_button", "#start_button_small", "#start_button_smaller")
"""The Play button's theme ids (one colour, the font 26, 21 and 17 design pixels), largest first."""
PLAY_MARGIN = 12
"""Design pixels of a Play button's width its label leaves free (its border and rounded ends)."""


def min_card_width(choice_w: int) -> int:
    """The narrowest card in pixels: a side's drop-down (``choice_w`` pixels), the narrow padding and the border."""
    return choice_w + 2 * projector.px(CARD_PAD_MIN) + 4


@dataclass(frozen=True)
class CardPlan:
    """The layout every card of the row follows (pixels inside a card; ``inner`` is the width of its contents)."""

    inner: int
    """Width of a card's contents (the card less its padding)."""
    pad: int
    """A card's padding at its sides and bottom: ``px(14)``, or ``px(8)`` when a narrow card needs the room for its
    drop-downs."""
    titles: dict[str, list[str]]
    """Game -> the title's lines (one, unless even the short title is wider than the card)."""
    title_rows: int
    """Rows every card keeps for its title (the most any card needs)."""
    blurbs: dict[str, list[str]] = field(default_factory=dict)
    """Game -> the blurb's wrapped lines; empty when the blurbs were left out for the picture or the sides."""
    blurb_rows: int = 0
    """Rows every card keeps for its blurb (0: no blurbs shown)."""
    picture_h: int = 0
    """Height of every card's picture in pixels (0: no pictures)."""
    stacked: dict[str, bool] = field(default_factory=dict)
    """Game -> True when a side's name stands above its drop-down (no room beside it)."""
    side_names: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Game -> the names shown for its two sides (``"Red (first)"``, or ``"Red"`` when that lets them stand
    beside the drop-downs)."""
    label_w: dict[str, int] = field(default_factory=dict)
    """Game -> width of its side labels (the whole card when stacked)."""
    descriptions: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)
    """Game -> the lines describing each side's agent under its drop-down: wrapped after its commas; on a short
    card only those that fit one line, on a shorter one none (empty: the Play button's tool tip has it)."""
    play_labels: dict[str, str] = field(default_factory=dict)
    """Game -> its Play button's label (``"Play English checkers"``): :func:`play_labels`."""
    play_font: str = PLAY_FONTS[0]
    """The theme id (font) of every card's Play button in the row."""


def card_title_lines(manager: pygame_gui.UIManager, game: str, width: int) -> list[str]:
    """The title of ``game``'s card in ``width`` pixels: the title on one line if it fits, else the record's short
    title if that fits, else the title wrapped (a word longer than the card broken): never cut."""
    room = width - projector.px(4)  # the label's own padding
    title = game_title(game)
    for candidate in (title, game_info(game).short_title):
        if candidate and projector.text_width(manager, candidate, "#card_title") <= room:
            return [candidate]
    return projector.wrap_text(manager, title, room, "#card_title") or [title]


def play_labels(manager: pygame_gui.UIManager, games: Sequence[str], inner: int) -> tuple[str, dict[str, str]]:
    """The Play buttons' font and labels for a row of cards ``inner`` pixels wide inside: ``(theme id, {game:
    label})``.

    The largest of :data:`PLAY_FONTS` in which every game's ``"Play <title>"`` fits the button (its width less
    :data:`PLAY_MARGIN` design pixels); when none fits them all, the smallest, and in it each game's ``"Play
    <title>"`` if it fits, else ``"Play <short title>"``, else ``"Play"``.
    """
    room = inner - projector.px(PLAY_MARGIN)

    def fits(text: str, font: str) -> bool:
        return projector.text_width(manager, text, font, "button") <= room

    for font in PLAY_FONTS:
        if all(fits(f"Play {game_title(g)}", font) for g in games):
            return font, {g: f"Play {game_title(g)}" for g in games}
    font = PLAY_FONTS[-1]
    labels = {}
    for g in games:
        candidates = (f"Play {game_title(g)}", f"Play {game_info(g).table_title}")
        labels[g] = next((t for t in candidates if fits(t, font)), "Play")
    return font, labels


def wrap_description(manager: pygame_gui.UIManager, text: str, width: int) -> list[str]:
    """An agent's description (``"expectimax, depth 1, 0.3 s"``) in lines of ``width`` pixels, broken after its
    commas (a number stays with its unit); a part wider than a line is broken at its spaces."""
    lines: list[str] = []
    for part in text.split(", "):
        joined = f"{lines[-1]}, {part}" if lines else part
        if lines and projector.text_width(manager, joined, "#card_hint") <= width:
            lines[-1] = joined
        elif projector.text_width(manager, part, "#card_hint") <= width:
            lines[-1:] = [lines[-1] + ",", part] if lines else [part]
        else:
            if lines:
                lines[-1] += ","
            lines += projector.wrap_text(manager, part, width, "#card_hint")
    return lines or [""]


def plan_cards(manager: pygame_gui.UIManager, games: Sequence[str], card_w: int, card_h: int,
               side_names: Callable[[str], tuple[str, str]], choice_w: int,
               describe: Callable[[str, int], str] = lambda game, player: "") -> CardPlan:
    """The plan of a row of cards ``card_w`` x ``card_h`` pixels for ``games``.

    Args:
        manager: the UI manager (its theme's fonts measure the texts).
        games: the games of the row, in order.
        card_w, card_h: the size of one card in pixels.
        side_names: game -> the full names of its two sides (``("Red (first)", "Yellow")``).
        choice_w: pixels a side's drop-down needs for its longest choice.
        describe: (game, player) -> the description of that side's agent (``"alpha-beta, depth 4"``).
    """
    px = projector.px
    pad = px(14) if card_w - 2 * px(14) - 4 >= choice_w else px(CARD_PAD_MIN)
    inner = card_w - 2 * pad - 4
    titles = {g: card_title_lines(manager, g, inner) for g in games}
    title_rows = max((len(t) for t in titles.values()), default=1)
    name_h = projector.text_height(manager, "#card_title")
    blurb_h = projector.text_height(manager, "#hint")
    field_h = max(px(40), projector.text_height(manager, None, "drop_down_menu") + px(6))
    desc_h = projector.text_height(manager, "#card_hint")
    label_h = projector.text_height(manager, "#field_label")
    play_font, labels = play_labels(manager, games, inner)
    play_h = max(px(48), projector.text_height(manager, play_font, "button") + px(8))
    stacked: dict[str, bool] = {}
    names_shown: dict[str, tuple[str, str]] = {}
    label_w: dict[str, int] = {}
    for g in games:
        full = side_names(g)
        short = (full[0].replace(" (first)", ""), full[1])
        for names in (full, short):  # "X (first)", else "X"
            width = max(projector.text_width(manager, t, "#field_label") for t in names) + px(8)
            if width + choice_w <= inner:  # room beside each other
                stacked[g], names_shown[g], label_w[g] = False, names, width
                break
        else:  # no room: the name above its choice
            stacked[g], names_shown[g], label_w[g] = True, full, inner
    descriptions: dict[str, tuple[list[str], list[str]]] = {}
    for g in games:
        width = pad + inner - (pad if stacked[g] else pad + label_w[g]) - 8  # the label's width less its padding
        texts = (describe(g, 0), describe(g, 1))
        descriptions[g] = (wrap_description(manager, texts[0], width), wrap_description(manager, texts[1], width))

    def fixed(descs: dict[str, tuple[list[str], list[str]]]) -> int:
        sides_h = max(sum((label_h if stacked[g] else 0) + field_h + px(2) + len(lines) * desc_h + px(6)
                          for lines in descs[g]) for g in games)
        return px(6) + title_rows * name_h + px(4) + sides_h + play_h + pad

    room = card_h - 4 - fixed(descriptions) - px(8)  # for the picture and the blurb
    if room < 0:  # a short card: only the descriptions that fit one line, so the sides and Play keep their room
        descriptions = {g: ([] if len(d[0]) > 1 else d[0], [] if len(d[1]) > 1 else d[1])
                        for g, d in descriptions.items()}
        room = card_h - 4 - fixed(descriptions) - px(8)
    if room < 0:  # shorter still: none (the Play button's tool tip names the agents)
        descriptions = {g: ([], []) for g in games}
        room = card_h - 4 - fixed(descriptions) - px(8)
    blurbs = {g: projector.wrap_text(manager, game_info(g).blurb, inner - px(4), "#hint") for g in games}
    blurb_rows = max((len(b) for b in blurbs.values()), default=0)
    blurb_total = blurb_rows * blurb_h + px(6) if blurb_rows else 0
    plan = CardPlan(inner=inner, pad=pad, titles=titles, title_rows=title_rows, stacked=stacked, side_names=names_shown,
                    label_w=label_w, descriptions=descriptions, play_labels=labels, play_font=play_font)
    if room - blurb_total >= px(PICTURE_MIN):  # both
        return replace(plan, blurbs=blurbs, blurb_rows=blurb_rows, picture_h=min(room - blurb_total - px(4), inner))
    if room >= px(PICTURE_MIN):  # the picture; the blurb in the Play button's tool tip
        return replace(plan, picture_h=min(room - px(4), inner))
    if blurb_rows and room >= blurb_total:  # the blurb
        return replace(plan, blurbs=blurbs, blurb_rows=blurb_rows)
    return plan


def cards_per_row(n: int, width: int, gap: int, min_w: int, max_w: int, arrow_w: int) -> tuple[int, int]:
    """How many of ``n`` cards the row shows at once, and their width: ``(shown, card_w)``.

    Every card is shown when each gets at least ``min_w`` pixels (``width`` shared, ``gap`` between cards, none
    wider than ``max_w``); else the row pages through them: two arrow buttons ``arrow_w`` pixels wide (gap
    included) take their room at the ends and as many cards as fit at ``min_w`` are shown (at least one).
    """
    if n <= 0:
        return 0, 0
    card_w = (width - (n - 1) * gap) // n
    if card_w >= min_w:
        return n, min(max_w, card_w)
    room = width - 2 * arrow_w
    shown = max(1, min(n, (room + gap) // (min_w + gap)))
    return shown, min(max_w, (room - (shown - 1) * gap) // shown)
