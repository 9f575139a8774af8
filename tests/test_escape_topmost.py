"""Esc closes the topmost thing open, one a press; only with nothing open over the scene does it do the scene's own
Esc (issue 47: Esc in the tree view left the game for the title screen).

For each thing that can be open over a match (a dialog, a question, a message, the help, the search tree, its
presenter view, the Monte Carlo tree, the race, the growth figure) the test opens it, presses Esc (a synthetic key
through the App's routing), checks that it closed and the match is still shown, then presses Esc once more and
checks that the match was left for the title screen. Headless (SDL's dummy driver).
"""

from __future__ import annotations

from typing import Any, Callable

import pygame
import pytest

from ai.agents.agents import make_agent
from gameplay.ui.play.match import MatchScene
from gameplay.ui.play.resume import show_message
from gameplay.ui.scenes.menu import MenuScene
from gameplay.ui.shell.app import App
from gameplay.ui.shell.app_events import top_window
from tests.ui_driver import frames, key, pump


def match_over_menu(app: App, game: str = "tictactoe", p2: str = "human") -> MatchScene:
    """A match of ``game`` (a person against ``p2``) above the title screen, as the title screen's Start makes it."""
    app.push(MenuScene())
    scene = app.start_match(game, make_agent(game, "human"), make_agent(game, p2))
    scene.ai_delay_s = 0.0
    frames(app, 2)
    return scene


def after_ai_move(app: App, game: str, spec: str) -> MatchScene:
    """A match where the person moved first and the AI (``spec``) replied: its decision's tree is in the overlay."""
    scene = match_over_menu(app, game, spec)
    scene.play(scene.game.actions(scene.record.state)[0], "human")
    pump(app, lambda: scene.overlay.tree is not None, timeout_s=60)
    frames(app, 2)
    return scene


def esc_closes(app: App, scene: MatchScene, is_open: Callable[[], bool]) -> None:
    """``is_open()`` holds; one Esc makes it false with ``scene`` still shown; one more Esc leaves for the title."""
    assert is_open()
    key(app, pygame.K_ESCAPE)
    assert not is_open(), "Esc did not close the topmost thing"
    assert app.scene is scene and app.running, f"Esc left the match for {type(app.scene).__name__}"
    assert top_window(app.manager) is None and not scene.overlay.visible
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.scene, MenuScene) and app.running


def test_esc_with_nothing_open_leaves_the_match_then_quits(app: App) -> None:
    scene = match_over_menu(app)
    assert app.scene is scene
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.scene, MenuScene) and app.running
    key(app, pygame.K_ESCAPE)
    assert not app.running


def test_esc_closes_the_new_game_question_and_keeps_the_game(app: App) -> None:
    scene = match_over_menu(app)
    scene.play(4, "human")
    key(app, pygame.K_n)  # a game at stake: "New game: your game in progress will be lost. Go on?"
    assert top_window(app.manager) is not None
    key(app, pygame.K_ESCAPE)  # Cancel: the game in progress is kept
    assert top_window(app.manager) is None and app.scene is scene and scene.record.ply == 1
    frames(app, 2)
    assert scene.confirm is None
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.scene, MenuScene) and app.running


def test_esc_closes_the_help(app: App) -> None:
    scene = match_over_menu(app)
    key(app, pygame.K_F1)
    esc_closes(app, scene, lambda: scene.aids.help is not None and scene.aids.help.alive)


def test_esc_closes_the_save_dialog(app: App) -> None:
    scene = match_over_menu(app)
    key(app, pygame.K_s)  # tic-tac-toe saves JSON through a file dialog
    esc_closes(app, scene, lambda: scene.aids.modal)


@pytest.mark.parametrize("which", ["pdn", "fen"])
def test_esc_closes_the_checkers_dialogs(app: App, which: str) -> None:
    scene = match_over_menu(app, "checkers")
    tools: Any = scene.tools
    assert tools is not None
    if which == "pdn":
        key(app, pygame.K_s)  # Save PDN: a file dialog
    else:
        tools.use_clipboard = False
        key(app, pygame.K_v)  # Paste FEN without a clipboard: a text dialog, its entry focused
    assert top_window(app.manager) is not None
    esc_closes(app, scene, lambda: bool(tools.modal))


def test_esc_closes_a_message_window(app: App) -> None:
    scene = match_over_menu(app)
    window = show_message(app, "Could not open the game", "a message over the match")
    frames(app, 1)
    esc_closes(app, scene, lambda: bool(window.alive()))


def test_esc_closes_the_tree_view_then_leaves(app: App) -> None:
    scene = after_ai_move(app, "tictactoe", "alphabeta:depth=2")
    key(app, pygame.K_t)
    esc_closes(app, scene, lambda: bool(scene.overlay.visible))


def test_esc_closes_the_presenter_view_then_the_tree_then_leaves(app: App) -> None:
    scene = after_ai_move(app, "tictactoe", "alphabeta:depth=2")
    key(app, pygame.K_t)
    key(app, pygame.K_p)
    assert scene.overlay.visible and scene.overlay.presenter
    key(app, pygame.K_ESCAPE)
    assert app.scene is scene and scene.overlay.visible and not scene.overlay.presenter
    esc_closes(app, scene, lambda: bool(scene.overlay.visible))


def test_esc_closes_the_help_over_the_tree_view_first(app: App) -> None:
    scene = after_ai_move(app, "tictactoe", "alphabeta:depth=2")
    key(app, pygame.K_t)
    key(app, pygame.K_F1)
    assert scene.overlay.visible and scene.aids.modal
    key(app, pygame.K_ESCAPE)
    assert app.scene is scene and scene.overlay.visible and not scene.aids.modal
    esc_closes(app, scene, lambda: bool(scene.overlay.visible))


def test_esc_closes_the_monte_carlo_tree(app: App) -> None:
    scene = after_ai_move(app, "tictactoe", "mcts:simulations=50,seed=1")
    key(app, pygame.K_t)
    assert scene.overlay.active is scene.overlay.mcts_overlay
    esc_closes(app, scene, lambda: bool(scene.overlay.visible))


def test_esc_closes_the_race(app: App) -> None:
    scene = match_over_menu(app)
    key(app, pygame.K_k)
    race = app.scene
    assert race is not scene
    esc_closes(app, scene, lambda: app.scene is race)


def test_esc_closes_the_growth_figure_then_the_tree(app: App) -> None:
    pytest.importorskip("matplotlib")
    scene = after_ai_move(app, "tictactoe", "alphabeta:depth=2")
    key(app, pygame.K_t)
    scene.overlay.tree_overlay.press("growth")
    growth = app.scene
    assert growth is not scene
    key(app, pygame.K_ESCAPE)
    assert app.scene is scene and scene.overlay.visible
    esc_closes(app, scene, lambda: bool(scene.overlay.visible))


def test_esc_closes_a_message_over_the_title_screen_without_quitting(app: App) -> None:
    app.push(MenuScene())
    frames(app, 2)
    window = show_message(app, "Autosave not restored", "a message over the title screen")
    frames(app, 1)
    key(app, pygame.K_ESCAPE)
    assert not window.alive() and app.running and isinstance(app.scene, MenuScene)
    key(app, pygame.K_ESCAPE)
    assert not app.running
