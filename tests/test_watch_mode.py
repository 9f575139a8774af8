"""Watch AI vs AI from the title screen leaves only on Esc (its keys work meanwhile); the unattended show
(``demo``) still leaves on any key."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from ui_driver import click, frames, key

from gameplay.ui.play.match import MatchScene
from gameplay.ui.scenes.menu import MenuScene
from gameplay.ui.shell.app import App

pytestmark = pytest.mark.title_screen  # the app fixture opens on the title screen (conftest.py)


# ----- Watch AI vs AI ------------------------------------------------------------------------------------------
def test_watch_mode_leaves_only_on_escape(app: App, data_dir: Path) -> None:
    menu = app.scene
    assert isinstance(menu, MenuScene)
    click(app, menu.widget("watch").get_abs_rect().center)
    scene = app.scene
    assert isinstance(scene, MatchScene) and getattr(scene, "attract", False)
    key(app, pygame.K_SPACE)
    assert app.scene is scene and scene.paused  # Space pauses
    key(app, pygame.K_a)
    assert app.scene is scene  # an unused key does nothing
    key(app, pygame.K_t)
    assert app.scene is scene and scene.overlay.visible  # T shows the tree
    key(app, pygame.K_t)
    click(app, scene.widget("pause").get_abs_rect().center)
    assert app.scene is scene and not scene.paused  # the panel's buttons work
    key(app, pygame.K_ESCAPE)
    assert app.scene is menu


def test_the_unattended_show_still_leaves_on_any_key(app: App, data_dir: Path) -> None:
    app.start_attract_mode()
    frames(app, 2)
    key(app, pygame.K_a)
    assert isinstance(app.scene, MenuScene)
