"""Game files in the window (issue 25, item 4): the title screen's "Open a game file..." loads a file and shows its
card (a broken file: its one-line reason, and the menu goes on); Nim (no board) plays with move buttons and its AI
decision's tree is narrated; Domineering plays by clicks on the generic grid view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pygame_gui
import pytest
from ui_driver import click, frames, key, pump

from gameplay.rules.registry import game_names
from gameplay.ui.shell.app import App

ROOT = Path(__file__).resolve().parent.parent
NIM = ROOT / "examples" / "games" / "nim.py"
DOMINEERING = ROOT / "examples" / "games" / "domineering.py"


pytestmark = pytest.mark.usefixtures("only_builtin_games")
"""Each test ends with the built-in games only (tests/conftest.py)."""


def pick(app: App, dialog: Any, path: Path) -> None:
    """What the file dialog posts when a file is picked."""
    pygame.event.post(pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED,
                                         {"text": str(path), "ui_element": dialog}))
    frames(app, 2)


def open_file(app: App, path: Path) -> Any:
    """Press "Open a game file..." on the title screen and pick ``path``; returns the menu."""
    from gameplay.ui.scenes.menu import GAME_FILES_DIR, MenuScene
    from gameplay.ui.widgets.dialogs import FileDialog
    menu = app.scene
    assert isinstance(menu, MenuScene)
    click(app, menu.widget("gamefile").get_abs_rect().center)
    dialog = menu.file_dialog
    assert isinstance(dialog, FileDialog) and dialog.alive()
    assert Path(dialog.current_directory_path).resolve() == GAME_FILES_DIR.resolve()
    assert "nim.py" in [e[0] if isinstance(e, tuple) else e for e in dialog.current_file_list]
    pick(app, dialog, path)
    assert menu.file_dialog is None and not dialog.alive()
    return menu


def test_open_a_game_file_shows_its_card_and_a_broken_one_its_reason(app: App, tmp_path: Path) -> None:
    app.open_menu()
    frames(app, 2)
    menu = open_file(app, NIM)
    assert "nim" in menu.games and menu.game == "nim" and menu.widget("name.nim").text == "Nim"
    assert "Loaded Nim from nim.py" in menu.message_shown()

    bad = tmp_path / "broken.py"
    bad.write_text("def initial_state():\n    return [1, 2]\n", encoding="utf-8")
    menu = open_file(app, bad)
    assert menu.message_shown() == "Cannot open the game file: broken.py: missing function to_move(state)"
    assert "broken" not in menu.games and menu.games == game_names() and app.scene is menu
    bad.write_text("def initial_state(:\n", encoding="utf-8")
    menu = open_file(app, bad)
    assert menu.message_shown().startswith("Cannot open the game file: broken.py line 1: syntax error")

    click(app, menu.widget("gamefile").get_abs_rect().center)  # Esc closes the dialog, then the menu stays
    assert menu.file_dialog is not None
    key(app, pygame.K_ESCAPE)
    assert menu.file_dialog is None and app.scene is menu
    click(app, menu.widget("play.nim").get_abs_rect().center)  # the program went on: the loaded game plays
    from gameplay.ui.play.match import MatchScene
    assert isinstance(app.scene, MatchScene) and app.scene.game_name == "nim"


def test_nim_plays_with_move_buttons_and_its_decision_is_narrated(app: App) -> None:
    from gameplay.ui.boards.board import GenericView
    from gameplay.ui.play.match import MatchScene
    app.open_menu()
    frames(app, 2)
    open_file(app, NIM)
    from ai.agents.agents import make_agent
    scene = app.start_match("nim", make_agent("nim", "human"), make_agent("nim", "alphabeta:depth=20"))
    frames(app, 2)
    assert isinstance(scene, MatchScene) and isinstance(scene.view, GenericView) and scene.view.grid is None
    scene.ai_delay_s = 0.0
    buttons = scene.action_buttons
    labels = [b.text for b, _ in buttons]
    assert labels == ["1:1", "2:1", "2:2", "2:3", "3:1", "3:2", "3:3", "3:4", "3:5"]
    click(app, buttons[1][0].get_abs_rect().center)  # Ann takes 1 from heap 2: heaps 1, 2, 5 (nim-sum 6)
    pump(app, lambda: scene.record.ply >= 2)
    game = scene.game
    after = game.result(game.result(game.initial_state(), scene.record.moves[0]), scene.record.moves[1])
    heaps = after[0]
    assert heaps[0] ^ heaps[1] ^ heaps[2] == 0  # Bob's answer leaves a nim-sum of 0: the winning reply
    key(app, pygame.K_t)  # the overlay: the AI decision's tree, narrated step by step
    ov = scene.overlay.tree_overlay
    steps = [s.text for s in ov.narrated()]
    assert steps and steps[0].startswith("Start at root") and any("3:" in s or "2:" in s for s in steps)
    key(app, pygame.K_t)
    key(app, pygame.K_F1)  # the help: the file's docstring as its rules, the file's path, the buttons' key
    shown = scene.aids.help.html() if scene.aids.help is not None else ""
    assert "Nim with heaps of 1, 3 and 5" in shown and "binary digits cancel out" in shown
    assert f"<i>A game file: {NIM}</i>" in shown and "<b>click</b>&nbsp;&nbsp;a move&#x27;s button" in shown


def test_domineering_plays_by_clicks_on_the_grid(app: App) -> None:
    from gameplay.ui.boards.board import GenericView, GridView
    from gameplay.ui.play.match import MatchScene
    app.open_menu()
    frames(app, 2)
    menu = open_file(app, DOMINEERING)
    click(app, menu.widget("play.domineering").get_abs_rect().center)  # human against medium
    scene = app.scene
    assert isinstance(scene, MatchScene) and isinstance(scene.view, GenericView)
    assert isinstance(scene.view.grid, GridView)
    scene.ai_delay_s = 0.0
    assert not scene.action_buttons  # every move is a cell: no buttons

    def cell_centre(r: int, c: int) -> tuple[int, int]:
        return scene.view.grid.cell_centre(scene.board_rect, scene.record.state, r, c)  # type: ignore[no-any-return]

    assert scene.view.hit_test(scene.board_rect, scene.record.state, cell_centre(3, 2)) == (3, 2)
    click(app, cell_centre(3, 2))  # the bottom row: Vertical has no room below it, nothing happens
    frames(app, 2)
    assert scene.record.ply == 0
    click(app, cell_centre(2, 1))  # Vertical covers b2 and b1
    pump(app, lambda: scene.record.ply >= 2)  # Horizontal (medium: alpha-beta with the file's evaluate) answers
    assert scene.record.moves[0] == (2, 1)
    grid = scene.game.board(scene.record.state)
    assert grid[2][1] == grid[3][1] == "V" and sum(row.count("H") for row in grid) == 2
    # the hint rings the cell of a move; a move no cell makes is written instead
    surface = pygame.display.get_surface()
    legal = scene.game.actions(scene.record.state)
    assert scene.view.draw_hint(surface, scene.board_rect, legal[0], 3, (0, 255, 0))
    assert not scene.view.draw_hint(surface, scene.board_rect, ("no", "cell"), 3, (0, 255, 0))
    from gameplay.ui.play.help_scene import help_html
    shown = help_html("domineering", "Domineering")  # a board: a click is on a cell
    assert "<b>click</b>&nbsp;&nbsp;a cell of the board" in shown and f"{DOMINEERING}</i>" in shown
