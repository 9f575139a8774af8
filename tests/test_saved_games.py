"""The window's saved games: one autosave per game in progress (several of one game too), Play asks before a saved
game is replaced, the resume window's close box keeps every save, every agent setting round-trips through the save
(and one that cannot be restored is named), Pig's resume prompt names the turn. The windows are driven with
synthetic events."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from ui_driver import click, frames, hot_seat, key, play_first_moves

from ai.agents.agents import make_agent
from gameplay.files import autosave, savegame
from gameplay.files.settings import SideSettings
from gameplay.files.settings_agents import build_side_agent
from gameplay.rules.pig import Pig
from gameplay.ui.play.match import MatchScene
from gameplay.ui.scenes.menu import MenuScene
from gameplay.ui.shell.app import App

pytestmark = pytest.mark.title_screen  # the app fixture opens on the title screen (conftest.py)


def saved_ttt(data_dir: Path, moves: tuple[str, ...] = ("4", "0")) -> savegame.SavedGame:
    saved = savegame.SavedGame("tictactoe", ".........", moves, ("human", "human"), "2025-01-31T12:00:00")
    autosave.write_autosave(saved, data_dir)
    return saved


# ----- one autosave per game in progress ------------------------------------------------------------------------
def test_starting_pig_keeps_the_checkers_game_in_progress(app: App, data_dir: Path) -> None:
    checkers = hot_seat(app, "checkers")
    play_first_moves(app, checkers, 2)
    app.open_menu()
    pig = hot_seat(app, "pig")
    play_first_moves(app, pig, 3)
    games = sorted(s.game for s in autosave.load_autosaves(data_dir)[0])
    assert games == ["checkers", "pig"]  # the checkers game was not replaced by the Pig game
    app.open_menu()
    prompt = app.offer_autosave()
    assert prompt is not None and len(prompt.rows) == 2  # resuming offers each
    checkers_row = next(row for row in prompt.rows if row[0].game == "checkers")
    click(app, checkers_row[1].get_abs_rect().center)
    resumed = app.scene
    assert isinstance(resumed, MatchScene) and resumed.game_name == "checkers" and resumed.record.ply == 2
    assert {s.game for s in autosave.load_autosaves(data_dir)[0]} == {"checkers", "pig"}  # Pig still waits


def test_a_second_game_of_the_same_kind_takes_its_own_slot(app: App, data_dir: Path) -> None:
    first = saved_ttt(data_dir)
    scene = hot_seat(app, "tictactoe")  # e.g. `play tictactoe` from the command line
    play_first_moves(app, scene, 1)
    saves = autosave.load_autosaves(data_dir)[0]
    assert sorted(s.moves for s in saves) == [("0",), first.moves]


def test_play_on_a_game_with_a_saved_one_asks_first(app: App, data_dir: Path) -> None:
    saved_ttt(data_dir)
    menu = app.scene
    assert isinstance(menu, MenuScene)
    menu.start("tictactoe")
    question = menu.question
    assert question is not None and "tic-tac-toe game in progress (move 2)" in question.text
    assert app.scene is menu  # nothing started yet
    key(app, pygame.K_ESCAPE)  # Esc is Cancel: the menu stays, the game stays
    assert menu.question is None and app.scene is menu and app.running
    menu.start("tictactoe")
    assert menu.question is not None
    click(app, menu.question.new.get_abs_rect().center)
    scene = app.scene
    assert isinstance(scene, MatchScene) and scene.record.ply == 0
    assert autosave.load_autosave(data_dir, game="tictactoe") is not None  # replaced only once a move is played
    play_first_moves(app, scene, 1)
    saves = autosave.load_autosaves(data_dir)[0]
    # replaced, as agreed: one game, the new one (its AI side may have answered already: how soon is the machine's)
    assert len(saves) == 1 and saves[0].moves[:1] == ("0",)


# ----- the close box keeps the save -----------------------------------------------------------------------------
def test_closing_the_resume_window_keeps_every_saved_game(app: App, data_dir: Path) -> None:
    saved_ttt(data_dir)
    prompt = app.offer_autosave()
    assert prompt is not None
    close_box = prompt.window.close_window_button
    assert close_box is not None
    click(app, close_box.get_abs_rect().center)
    assert app.resume_prompt is None and not prompt.window.alive()
    back = autosave.load_autosave(data_dir, game="tictactoe")
    assert back is not None and back.moves == ("4", "0")  # decide later: the save stays
    menu = app.scene
    assert isinstance(menu, MenuScene)
    menu.start("tictactoe")  # and it is not overwritten by the next game of its kind without a word
    assert menu.question is not None
    click(app, menu.question.resume.get_abs_rect().center)
    resumed = app.scene
    assert isinstance(resumed, MatchScene) and resumed.record.state == "O...X...."


def test_the_close_box_of_plays_question_is_cancel(app: App, data_dir: Path) -> None:
    saved_ttt(data_dir)
    menu = app.scene
    assert isinstance(menu, MenuScene)
    menu.start("tictactoe")
    question = menu.question
    assert question is not None
    close_box = question.window.close_window_button
    assert close_box is not None
    click(app, close_box.get_abs_rect().center)
    assert menu.question is None and not question.window.alive() and app.scene is menu  # the menu closed it
    back = autosave.load_autosave(data_dir, game="tictactoe")
    assert back is not None and back.moves == ("4", "0")  # nothing started, the save stays


# ----- every agent setting round-trips --------------------------------------------------------------------------
WEIGHTS = {"material": 3.0, "kings": 7.5, "advancement": 0.25}


def custom_checkers_agent() -> object:
    from ai.agents.profiles import profile_for
    features = profile_for("checkers").features
    weights = {k: v for k, v in WEIGHTS.items() if k in features} or {features[0]: 2.0}
    side = SideSettings(agent="custom", algorithm="alphabeta", depth=2, time_budget_s=None, prune="gt", weights=weights)
    return build_side_agent("checkers", side)


def test_custom_weights_survive_the_autosave(app: App, data_dir: Path) -> None:
    agent = custom_checkers_agent()
    scene = app.start_match("checkers", make_agent("checkers", "human"), agent)  # type: ignore[arg-type]
    frames(app, 2)
    scene.play(scene.game.actions(scene.record.state)[0], "human")
    frames(app, 2)
    saved = autosave.load_autosave(data_dir, game="checkers")
    assert saved is not None and saved.sides[1] is not None
    assert saved.sides[1]["custom_weights"] == dict(agent.settings.custom_weights)  # type: ignore[attr-defined]
    app.open_menu()
    app.resume_autosave(saved)
    resumed = app.scene
    assert isinstance(resumed, MatchScene)
    assert resumed.agents[1].settings.to_json() == agent.settings.to_json()  # type: ignore[attr-defined]
    assert resumed.notice is not None and not resumed.notice[1]  # "Resumed ...", no problem to report


def test_a_saved_setting_that_cannot_be_restored_is_named(app: App, data_dir: Path) -> None:
    agent = custom_checkers_agent()
    rec_game = make_agent("checkers", "human").profile.game  # type: ignore[attr-defined]
    saved = savegame.from_record("checkers", rec_game, rec_game.initial_state(), [], ["human", agent])
    side = dict(saved.sides[1] or {})
    side["custom_weights"] = {"no_such_feature": 1.0}
    side["sparkle"] = True
    text = saved.dumps().replace('"sides"', '"old_sides"')
    import json
    obj = json.loads(text)
    obj["sides"] = [None, side]
    broken = savegame.SavedGame.from_json(obj)
    restored, notes = savegame.restore_agent("checkers", broken.agents[1], broken.sides[1])
    assert any("custom_weights" in n and "no_such_feature" in n for n in notes)
    assert any("sparkle" in n for n in notes)
    from gameplay.ui.play.resume import open_saved_game
    scene = open_saved_game(app, broken)
    assert scene is not None and scene.notice is not None and scene.notice[1]
    assert "Not restored" in scene.notice[0] and "no_such_feature" in scene.notice[0]


def test_pig_resume_prompt_names_the_turn(app: App, data_dir: Path) -> None:
    game = Pig()
    saved = savegame.from_record("pig", game, game.initial_state(), ["roll", 4, "roll", 2], ["human", "medium"])
    assert saved.prompt() == "Resume your Pig game (turn 1, Player 1 to play)?"
    saved = savegame.from_record("pig", game, game.initial_state(), ["roll", 4, "hold", "roll", 1],
                                 ["human", "medium"])
    assert saved.prompt() == "Resume your Pig game (turn 3, Player 1 to play)?"
    ttt = savegame.SavedGame("tictactoe", ".........", ("4", "0"), ("human", "human"))
    assert ttt.prompt() == "Resume your tic-tac-toe game (move 2)?"


