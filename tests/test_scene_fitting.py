"""Fitting rules the projector walk relies on (headless): the game list's column widths, the size of a dialog's
frame, pygame_gui's confirmation dialog at a projector's scale, and the title cards on a short window."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gameplay.ui.scenes.pdn_list import WIDTHS, column_widths
from gameplay.ui.shell.app import App
from gameplay.ui.widgets import projector
from gameplay.ui.widgets.dialogs import STOCK_BUTTON_H, confirm_dialog


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("ARCADE_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("ARCADE_DATA_DIR", str(tmp_path))
    yield
    projector.set_current(projector.Display())


@given(width=st.integers(0, 3000), minimum=st.lists(st.integers(0, 200), min_size=len(WIDTHS), max_size=len(WIDTHS)))
def test_columns_fill_the_width_and_keep_their_titles(width: int, minimum: list[int]) -> None:
    widths = column_widths(width, minimum)
    assert sum(widths) == width
    if sum(minimum) <= width:
        assert all(w >= m for w, m in zip(widths, minimum, strict=True))  # every title whole
    if all(round(s * width) >= m for s, m in zip(WIDTHS, minimum, strict=True)):
        assert all(abs(w - round(s * width)) <= len(WIDTHS) for w, s in zip(widths, WIDTHS, strict=True))


def test_a_narrow_list_takes_from_its_wide_columns() -> None:
    minimum = [30, 60, 60, 60, 50, 65, 75, 55]
    widths = column_widths(500, minimum)
    result = widths[5]  # "Result": 8% of 500 is 40 px, its title needs 65
    assert result == 65 and widths[1] < round(WIDTHS[1] * 500)  # the Event column gave some of its room


@pytest.mark.parametrize("size", [(1024, 768), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_dialog_frame_and_the_confirmation_buttons_follow_the_scale(size: tuple[int, int]) -> None:
    app = App(size=size, fps=1000)
    try:
        app.zoom(1)  # the largest step the window offers
        manager = app.manager
        dw, dh = projector.window_chrome(manager)
        from pygame_gui.elements import UIWindow
        win = UIWindow(pygame.Rect(0, 0, 300 + dw, 100 + dh), manager, window_display_title="x")
        assert win.get_container().get_rect().size == (300, 100)
        dialog = confirm_dialog(manager, app.size, "New game?", "Lost. Go on?", "New game")
        app.run(max_frames=1)
        text_h = projector.text_height(manager, None, "button") - projector.px(6)
        for button in (dialog.cancel_button, dialog.confirm_button):
            assert button.rect.height >= max(STOCK_BUTTON_H, text_h)
            assert dialog.get_container().get_rect().contains(button.rect)
            assert not button.rect.colliderect(dialog.confirmation_text.rect)
    finally:
        app.close()


def test_a_short_title_card_keeps_its_sides_and_play_button() -> None:
    """1024x688 (the window on a 1024x768 projector) at zoom 1: the checkers card drops its one-line blurb so its
    sides and its Play button fit (its description overlapped Play)."""
    app = App(size=(1024, 688), fps=1000)
    try:
        app.open_menu()
        app.run(max_frames=1)
        menu = app.scene
        ui = menu.widgets  # type: ignore[union-attr]
        card = ui["card.checkers"].get_container().get_rect()
        parts = [ui[k] for k in ("side_label0.checkers", "side0.checkers", "desc0.checkers", "side_label1.checkers",
                                 "side1.checkers", "desc1.checkers", "play.checkers")]
        for upper, lower in zip(parts, parts[1:], strict=False):
            assert upper.rect.bottom <= lower.rect.top, (upper.text if hasattr(upper, "text") else upper)
        assert card.contains(parts[-1].rect)
        # the one-line blurb only when it has room above the sides (dropped when the card is short)
        assert "blurb.checkers" not in ui or ui["blurb.checkers"].rect.bottom <= parts[0].rect.top
        if "blurb.checkers" not in ui:  # left out for the picture or the sides: kept in the Play button's tool tip
            assert "8x8 draughts" in ui["play.checkers"].tool_tip_text
        assert "blurb.checkers" in _menu_at(app, (1920, 1080))
    finally:
        app.close()


def _menu_at(app: App, size: tuple[int, int]) -> dict[str, object]:
    app.resize(size)
    app.run(max_frames=1)
    return app.scene.widgets  # type: ignore[union-attr]


CLASSROOM = [(1024, 768), (1024, 688), (1280, 720), (1280, 800), (1366, 768), (1920, 1080)]
"""The five classroom sizes and the window a 1024x768 projector leaves (its title bar and panel)."""


@pytest.mark.parametrize("size", CLASSROOM, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_cards_play_button_says_what_it_plays_at_every_classroom_size(size: tuple[int, int]) -> None:
    """The checkers card said only "Play" up to 1280x800 (its "Play English checkers" was wider than the button);
    every card says "Play <its title>" in a font that fits inside its button, the same font across the row."""
    from gameplay.rules.registry import game_title
    app = App(size=size, fps=1000)
    try:
        app.open_menu()
        app.run(max_frames=1)
        menu = app.scene
        ui = menu.widgets  # type: ignore[union-attr]
        buttons = {g: ui[f"play.{g}"] for g in menu.games}  # type: ignore[union-attr]
        assert {g: b.text for g, b in buttons.items()} == {g: f"Play {game_title(g)}" for g in buttons}
        fonts = {b.font for b in buttons.values()}
        assert len(fonts) == 1  # one size across the row
        for g, b in buttons.items():
            assert b.font.get_rect(b.text).width <= b.rect.width - projector.px(12), g
            assert ui[f"card.{g}"].get_container().get_rect().contains(b.rect)
    finally:
        app.close()
