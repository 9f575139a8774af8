"""The match asks before an unfinished game is lost (:mod:`gameplay.ui.play.match_confirm`): New game, Paste FEN, Load
PDN and the JSON load ask first, and Cancel keeps the game."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from ui_driver import click, frames, hot_seat, key, play_first_moves

from gameplay.ui.shell.app import App

pytestmark = pytest.mark.title_screen  # the app fixture opens on the title screen (conftest.py)


# ----- New game, Paste FEN and Load ask before an unfinished game is lost ---------------------------------------
def test_new_game_asks_and_cancel_keeps_the_game(app: App, data_dir: Path) -> None:
    scene = hot_seat(app, "tictactoe")
    play_first_moves(app, scene, 2)
    key(app, pygame.K_n)
    assert scene.confirm is not None and scene.record.ply == 2  # asked, nothing lost yet
    key(app, pygame.K_ESCAPE)  # Esc is Cancel
    assert scene.confirm is None and scene.record.ply == 2 and app.scene is scene
    click(app, scene.widget("new").get_abs_rect().center)  # the button asks too
    assert scene.confirm is not None
    dialog = scene.confirm[0]
    click(app, dialog.close_window_button.get_abs_rect().center)  # the close box is Cancel
    frames(app, 2)
    assert scene.record.ply == 2
    key(app, pygame.K_n)
    assert scene.confirm is not None
    click(app, scene.confirm[0].confirm_button.get_abs_rect().center)
    frames(app, 2)
    assert scene.record.ply == 0 and scene.confirm is None
    key(app, pygame.K_n)  # nothing at stake now: no question
    assert scene.confirm is None


def test_paste_fen_and_load_pdn_ask_first(app: App, data_dir: Path) -> None:
    scene = hot_seat(app, "checkers")
    assert scene.tools is not None
    scene.tools.use_clipboard = False  # type: ignore[attr-defined]
    key(app, pygame.K_v)  # no moves yet: straight to the FEN dialog
    assert scene.confirm is None and scene.tools.modal
    scene.tools.close()
    play_first_moves(app, scene, 1)
    for k in (pygame.K_v, pygame.K_l):
        key(app, k)
        assert scene.confirm is not None and not scene.tools.modal  # asked before the dialog opens
        key(app, pygame.K_ESCAPE)
        assert scene.confirm is None and scene.record.ply == 1
    key(app, pygame.K_v)
    assert scene.confirm is not None
    click(app, scene.confirm[0].confirm_button.get_abs_rect().center)
    frames(app, 2)
    assert scene.tools.modal  # agreed: now the FEN dialog
    assert scene.record.ply == 1  # and still nothing is lost until a position is given


def test_json_load_asks_first(app: App, data_dir: Path) -> None:
    scene = hot_seat(app, "pig")
    play_first_moves(app, scene, 2)
    key(app, pygame.K_l)
    assert scene.confirm is not None and scene.aids.dialog is None
    key(app, pygame.K_ESCAPE)
    assert scene.record.ply == 2 and scene.aids.dialog is None
