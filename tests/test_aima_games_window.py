"""aima-python-shaped game files in the window (issue 48): each sample (``examples/games/aima_*.py``, the small
Connect Three of ``tests/data/aima_games``) is opened, a human plays moves by the move buttons against an AI in the
window's worker process, and the AI answers with a legal move; the card shows what the file's ``display(state)``
prints. Figure 5.2 ends as minimax says (MIN answers a1 with b1, worth 3 to MAX); the dice race rolls its die
before each move. (Loading and searching: ``tests/test_aima_games.py``.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pygame_gui
import pytest
from ui_driver import click, frames, pump

from gameplay.rules.registry import normalize_name
from gameplay.ui.shell.app import App

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "examples" / "games"
SAMPLES = {"aima_fig52": ("minimax:depth=2", 1), "aima_tictactoe": ("alphabeta:depth=4", 2),
           "aima_connect_four": ("alphabeta:depth=2", 2), "aima_dice_race": ("expectimax:depth=3", 2),
           "aima_nim": ("alphabeta:depth=20", 2), "connect_small": ("alphabeta:depth=6", 2)}
"""Each sample: the AI that answers, and how many of the human's moves the test plays (figure 5.2 has one). The
searches are shallow where the game is big: the test is that the window plays the file, not how well (the values
are tests/test_aima_games.py's)."""
WAIT_S = 90.0
"""How long a pump waits for the AI: its first answer starts the window's worker process, which loads the file
(a full suite on two busy cores once took more than pump's default 30 s)."""


pytestmark = pytest.mark.usefixtures("only_builtin_games")
"""Each test ends with the built-in games only (tests/conftest.py)."""


def path_of(stem: str) -> Path:
    return GAMES / f"{stem}.py" if stem.startswith("aima_") else ROOT / "tests" / "data" / "aima_games" / f"{stem}.py"


def human_to_move(scene: Any) -> bool:
    game, state = scene.game, scene.record.state
    return game.is_terminal(state) or (not game.is_chance(state) and game.to_move(state) == 0)


def drawn_text(game: Any, state: Any) -> list[str]:
    """The lines the generic card draws for ``state`` (the file's display, else its position)."""
    return game.display_text(state).split("\n")


@pytest.mark.parametrize("stem", list(SAMPLES))
def test_each_sample_plays_by_its_move_buttons_and_the_ai_answers(app: App, stem: str) -> None:
    from ai.agents.agents import make_agent
    from gameplay.ui.boards.board import GenericView
    from gameplay.ui.play.match import MatchScene
    name = normalize_name(f"game:{path_of(stem)}")
    assert name == stem
    agent, turns = SAMPLES[stem]
    app.open_menu()
    frames(app, 2)
    scene = app.start_match(name, make_agent(name, "human"), make_agent(name, agent))
    frames(app, 2)
    assert isinstance(scene, MatchScene) and isinstance(scene.view, GenericView) and scene.view.grid is None
    scene.ai_delay_s = 0.0
    game = scene.game
    for _ in range(turns):
        pump(app, lambda: human_to_move(scene), WAIT_S, frames_per_step=2)
        if game.is_terminal(scene.record.state):
            break
        frames(app, 2)  # the panel's buttons follow the roll
        state = scene.record.state
        labels = [b.text for b, _ in scene.action_buttons]
        assert labels == [game.format_move(state, m) for m in game.actions(state)][:len(labels)] and labels
        before = scene.record.ply
        button, move = scene.action_buttons[-1]
        click(app, button.get_abs_rect().center)  # the human's move
        assert scene.record.ply > before and scene.record.moves[before] == move
        pump(app, lambda b=before: human_to_move(scene) and scene.record.ply > b + 1, WAIT_S, frames_per_step=2)
        assert scene.error is None or scene.error == "", scene.error
        # the AI's reply: a legal move at the state it was played in
        states, moves = scene.record.states, scene.record.moves
        replies = [(s, m) for s, m in zip(states[before + 1:], moves[before + 1:])
                   if not game.is_chance(s) and game.to_move(s) == 1]
        assert replies or game.is_terminal(scene.record.state)
        assert all(m in game.actions(s) for s, m in replies)
    frames(app, 2)  # the card draws what display(state) prints
    assert drawn_text(game, scene.record.state)[0] and "Held" not in game.display_text(scene.record.state)


def test_figure_5_2_in_the_window_ends_as_minimax_says(app: App) -> None:
    from ai.agents.agents import make_agent
    name = normalize_name(f"game:{GAMES / 'aima_fig52.py'}")
    app.open_menu()
    frames(app, 2)
    scene = app.start_match(name, make_agent(name, "human"), make_agent(name, "minimax:depth=1"))
    frames(app, 2)
    scene.ai_delay_s = 0.0
    game = scene.game
    assert [b.text for b, _ in scene.action_buttons] == ["a1", "a2", "a3"]
    assert drawn_text(game, scene.record.state) == ["node A"]
    click(app, scene.action_buttons[0][0].get_abs_rect().center)  # MAX plays a1
    pump(app, lambda: game.is_terminal(scene.record.state), WAIT_S)
    assert scene.record.moves == ["a1", "b1"] and scene.record.state == "B1"  # MIN's best answer: 3 to MAX
    assert drawn_text(game, scene.record.state) == ["node B1 (worth 3 to MAX)"]
    outcome = game.outcome(scene.record.state)
    assert outcome is not None and outcome.winner == 0 and outcome.detail == "3"


def test_the_tictactoe_file_opens_from_the_title_screen(app: App) -> None:
    from gameplay.ui.play.match import MatchScene
    from gameplay.ui.scenes.menu import MenuScene
    from gameplay.ui.widgets.dialogs import FileDialog
    app.open_menu()
    frames(app, 2)
    menu = app.scene
    assert isinstance(menu, MenuScene)
    click(app, menu.widget("gamefile").get_abs_rect().center)
    dialog = menu.file_dialog
    assert isinstance(dialog, FileDialog)
    pygame.event.post(pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED,
                                         {"text": str(GAMES / "aima_tictactoe.py"), "ui_element": dialog}))
    frames(app, 2)
    assert menu.game == "aima_tictactoe" and "Loaded Aima tictactoe from aima_tictactoe.py" in menu.message_shown()
    click(app, menu.widget("play.aima_tictactoe").get_abs_rect().center)
    scene = app.scene
    assert isinstance(scene, MatchScene) and scene.game_name == "aima_tictactoe"
    assert [b.text for b, _ in scene.action_buttons][:3] == ["(1,1)", "(1,2)", "(1,3)"]
    assert drawn_text(scene.game, scene.record.state) == [". . .", ". . .", ". . ."]
