"""Pig told in turns: the moves list by turns (the other games' lists unchanged), values read as a win chance with
fixed decimals and never in e-notation, and the AI's reasoning drawn whole inside its card at every size."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
from ui_driver import frames, hot_seat

from ai.agents.agents import make_agent
from gameplay.ui.play.match import format_value
from gameplay.ui.shell.app import App

pytestmark = pytest.mark.title_screen  # the app fixture opens on the title screen (conftest.py)


# ----- Pig told in turns ---------------------------------------------------------------------------------------
PIG_MOVES = ("roll", 6, "roll", 5, "hold", "roll", 3, "roll", 1, "roll", 2)


def test_pig_move_list_is_by_turns(app: App, data_dir: Path) -> None:
    scene = hot_seat(app, "pig")
    for m in PIG_MOVES:
        assert scene.play(m, "chance" if isinstance(m, int) else "human")
    html = scene.moves_html()
    lines = html.split("<br>")
    assert lines[0] == "<b>Player 1</b>: rolled 6, 5, held: +11"
    assert lines[1] == "<b>Player 2</b>: rolled 3, 1: busted, +0"
    assert lines[2] == "<b>Player 1</b>: rolled 2 (turn total 2)"
    assert "die=" not in html and "1.&nbsp;" not in html


def test_other_games_move_lists_are_unchanged(app: App, data_dir: Path) -> None:
    scene = hot_seat(app, "tictactoe")
    for cell in (4, 0, 8):
        scene.play(cell, "human")
    assert scene.moves_html() == ("1.&nbsp;&nbsp;<b>X</b> 4&nbsp;&nbsp;&nbsp;&nbsp;<b>O</b> 0<br>"
                                  "2.&nbsp;&nbsp;<b>X</b> 8")


def test_pig_values_read_as_a_win_chance() -> None:
    from ai.kernel.search import SearchResult
    res = SearchResult("roll", -1.04e-06, None, None, 2, 10, ("roll",), 0.01, "depth",
                       extra={"win_probability": 0.4999995})
    text = format_value(res)
    assert "e-0" not in text and "win chance 50.0%" in text


def test_pig_overlay_values_have_fixed_decimals(app: App, data_dir: Path) -> None:
    from ui_driver import pump
    scene = app.start_match("pig", make_agent("pig", "expectimax:depth=2"), make_agent("pig", "expectimax:depth=2"))
    scene.ai_delay_s = 0.0
    scene.chance_delay_s = 0.0
    pump(app, lambda: scene.last_decision is not None and scene.overlay.tree is not None)
    tree = scene.overlay.tree
    assert tree is not None
    for n in tree.nodes:
        assert "e-" not in n.label() and "e+" not in n.label()
    assert "win chance" in scene.decision_html() or "value" not in scene.decision_html()
    # the overlay shows the recorded values themselves (exactly what the search did), only printed positionally
    _, _, res = scene.last_decision  # type: ignore[misc]
    assert tree.nodes[0].value == res.value


def test_small_values_never_print_in_e_notation() -> None:
    from ai.kernel.recording import number_text
    assert number_text(-1.04e-06) == "-0.00000104"
    assert number_text(0.000123) == "0.000123"
    assert number_text(0.0612) == "0.0612"
    assert "e" not in number_text(3.5e-12)


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 800)])
def test_pig_ai_reasoning_is_drawn_whole_inside_its_card(size: tuple[int, int], data_dir: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The card's last line ("AI's win probability ...") was drawn half under the card (teacher's trial); the
    "Player 2 played roll" decision box said "2 played roll"."""
    from ui_driver import pump

    from gameplay.ui.boards.pig_cards import PigCards
    from gameplay.ui.boards.pig_view import PigView
    # (text, where it was drawn, the card, whether the card showed an AI decision) of every text of the card
    drawn: list[tuple[str, pygame.Rect, pygame.Rect, bool]] = []
    real_reasoning, real_text = PigCards.draw_reasoning, PigView.draw_text
    card: list[tuple[pygame.Rect, bool]] = []

    def reasoning(cards: PigCards, surf: pygame.Surface, rect: pygame.Rect, font: int) -> None:
        assert cards.shown is not None
        card.append((rect, cards.shown.decision is not None))
        real_reasoning(cards, surf, rect, font)
        card.pop()

    def text(self: PigView, surf: pygame.Surface, t: str, *args: Any, **kw: Any) -> pygame.Rect:
        r = real_text(self, surf, t, *args, **kw)
        if card:
            drawn.append((t, r, *card[-1]))
        return r

    # the spies watch every drawing of the card from the first frame (the table is drawn again when a decision
    # arrives): before the AI's decision and with it
    monkeypatch.setattr(PigCards, "draw_reasoning", reasoning)
    monkeypatch.setattr(PigView, "draw_text", text)
    a = App(size=size, fps=1000)
    try:
        scene = a.start_match("pig", make_agent("pig", "hard"), make_agent("pig", "hard"))
        scene.ai_delay_s = 0.0
        pump(a, lambda: scene.last_decision is not None)
        frames(a, 2)
        assert any(decided for *_, decided in drawn), "the reasoning card was drawn with the AI's decision"
        for t, r, c, _ in drawn:
            assert c.contains(r), (t, r, c)
        assert "Player " in scene.decision_html().split("played")[0]
    finally:
        a.close()
