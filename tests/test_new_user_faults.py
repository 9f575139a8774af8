"""New-user faults, each fixed as its whole kind: saved games (one autosave per game in progress, the close box
keeps it, every agent setting round-trips, New game / Paste FEN / Load ask first), Watch AI vs AI keys, the Tree
Lab's random-tree limits, and Pig told in turns. The windows are driven with synthetic events."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest
from ui_driver import click, frames, key

from ai.agents import make_agent
from gameplay.files import savegame
from gameplay.files.settings import SideSettings, build_side_agent
from gameplay.rules.pig import Pig
from gameplay.ui.app import App
from gameplay.ui.match import MatchScene, format_value
from gameplay.ui.menu import MenuScene


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ARCADE_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture
def app(data: Path) -> Iterator[App]:
    a = App(size=(1280, 800), fps=1000)
    a.push(MenuScene())
    frames(a, 2)
    yield a
    a.close()


def hot_seat(app: App, game: str) -> MatchScene:
    scene = app.start_match(game, make_agent(game, "human"), make_agent(game, "human"))
    frames(app, 2)
    return scene


def play_first_moves(app: App, scene: MatchScene, n: int) -> None:
    """Play ``n`` moves (Pig: the die faces too), then let the scene autosave."""
    for _ in range(n):
        state = scene.record.state
        if scene.game.is_chance(state):
            assert scene.play(4, "chance")
        else:
            assert scene.play(scene.game.actions(state)[0], "human")
    frames(app, 2)


def saved_ttt(data: Path, moves: tuple[str, ...] = ("4", "0")) -> savegame.SavedGame:
    saved = savegame.SavedGame("tictactoe", ".........", moves, ("human", "human"), "2025-01-31T12:00:00")
    savegame.write_autosave(saved, data)
    return saved


# ----- 1a: one autosave per game in progress ------------------------------------------------------------------------
def test_starting_pig_keeps_the_checkers_game_in_progress(app: App, data: Path) -> None:
    checkers = hot_seat(app, "checkers")
    play_first_moves(app, checkers, 2)
    app.open_menu()
    pig = hot_seat(app, "pig")
    play_first_moves(app, pig, 3)
    games = sorted(s.game for s in savegame.load_autosaves(data)[0])
    assert games == ["checkers", "pig"]  # the checkers game was not replaced by the Pig game
    app.open_menu()
    prompt = app.offer_autosave()
    assert prompt is not None and len(prompt.rows) == 2  # resuming offers each
    checkers_row = next(row for row in prompt.rows if row[0].game == "checkers")
    click(app, checkers_row[1].get_abs_rect().center)
    resumed = app.scene
    assert isinstance(resumed, MatchScene) and resumed.game_name == "checkers" and resumed.record.ply == 2
    assert {s.game for s in savegame.load_autosaves(data)[0]} == {"checkers", "pig"}  # Pig still waits


def test_a_second_game_of_the_same_kind_takes_its_own_slot(app: App, data: Path) -> None:
    first = saved_ttt(data)
    scene = hot_seat(app, "tictactoe")  # e.g. `play tictactoe` from the command line
    play_first_moves(app, scene, 1)
    saves = savegame.load_autosaves(data)[0]
    assert sorted(s.moves for s in saves) == [("0",), first.moves]


def test_play_on_a_game_with_a_saved_one_asks_first(app: App, data: Path) -> None:
    saved_ttt(data)
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
    assert savegame.load_autosave(data, game="tictactoe") is not None  # replaced only once a move is played
    play_first_moves(app, scene, 1)
    saves = savegame.load_autosaves(data)[0]
    assert [s.moves for s in saves] == [("0",)]  # replaced, as agreed


# ----- 1b: the close box keeps the save -----------------------------------------------------------------------------
def test_closing_the_resume_window_keeps_every_saved_game(app: App, data: Path) -> None:
    saved_ttt(data)
    prompt = app.offer_autosave()
    assert prompt is not None
    close_box = prompt.window.close_window_button
    assert close_box is not None
    click(app, close_box.get_abs_rect().center)
    assert app.resume_prompt is None and not prompt.window.alive()
    back = savegame.load_autosave(data, game="tictactoe")
    assert back is not None and back.moves == ("4", "0")  # decide later: the save stays
    menu = app.scene
    assert isinstance(menu, MenuScene)
    menu.start("tictactoe")  # and it is not overwritten by the next game of its kind without a word
    assert menu.question is not None
    click(app, menu.question.resume.get_abs_rect().center)
    resumed = app.scene
    assert isinstance(resumed, MatchScene) and resumed.record.state == "O...X...."


# ----- 1c: every agent setting round-trips --------------------------------------------------------------------------
WEIGHTS = {"material": 3.0, "kings": 7.5, "advancement": 0.25}


def custom_checkers_agent() -> object:
    from ai.profiles import profile_for
    features = profile_for("checkers").features
    weights = {k: v for k, v in WEIGHTS.items() if k in features} or {features[0]: 2.0}
    side = SideSettings(agent="custom", algorithm="alphabeta", depth=2, time=None, prune="gt", weights=weights)
    return build_side_agent("checkers", side)


def test_custom_weights_survive_the_autosave(app: App, data: Path) -> None:
    agent = custom_checkers_agent()
    scene = app.start_match("checkers", make_agent("checkers", "human"), agent)  # type: ignore[arg-type]
    frames(app, 2)
    scene.play(scene.game.actions(scene.record.state)[0], "human")
    frames(app, 2)
    saved = savegame.load_autosave(data, game="checkers")
    assert saved is not None and saved.sides[1] is not None
    assert saved.sides[1]["custom_weights"] == dict(agent.settings.custom_weights)  # type: ignore[attr-defined]
    app.open_menu()
    app.resume_autosave(saved)
    resumed = app.scene
    assert isinstance(resumed, MatchScene)
    assert resumed.agents[1].settings.to_json() == agent.settings.to_json()  # type: ignore[attr-defined]
    assert resumed.notice is not None and not resumed.notice[1]  # "Resumed ...", no problem to report


def test_a_saved_setting_that_cannot_be_restored_is_named(app: App, data: Path) -> None:
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
    from gameplay.ui.resume import open_saved_game
    scene = open_saved_game(app, broken)
    assert scene is not None and scene.notice is not None and scene.notice[1]
    assert "Not restored" in scene.notice[0] and "no_such_feature" in scene.notice[0]


# ----- 1d: New game, Paste FEN and Load ask before an unfinished game is lost ---------------------------------------
def test_new_game_asks_and_cancel_keeps_the_game(app: App, data: Path) -> None:
    scene = hot_seat(app, "tictactoe")
    play_first_moves(app, scene, 2)
    key(app, pygame.K_n)
    assert scene.confirm is not None and scene.record.ply == 2  # asked, nothing lost yet
    key(app, pygame.K_ESCAPE)  # Esc is Cancel
    assert scene.confirm is None and scene.record.ply == 2 and app.scene is scene
    click(app, scene._ui["new"].get_abs_rect().center)  # the button asks too
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


def test_paste_fen_and_load_pdn_ask_first(app: App, data: Path) -> None:
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


def test_json_load_asks_first(app: App, data: Path) -> None:
    scene = hot_seat(app, "pig")
    play_first_moves(app, scene, 2)
    key(app, pygame.K_l)
    assert scene.confirm is not None and scene.aids.dialog is None
    key(app, pygame.K_ESCAPE)
    assert scene.record.ply == 2 and scene.aids.dialog is None


# ----- 2: Watch AI vs AI ------------------------------------------------------------------------------------------
def test_watch_mode_leaves_only_on_escape(app: App, data: Path) -> None:
    menu = app.scene
    assert isinstance(menu, MenuScene)
    click(app, menu._ui["watch"].get_abs_rect().center)
    scene = app.scene
    assert isinstance(scene, MatchScene) and getattr(scene, "attract", False)
    key(app, pygame.K_SPACE)
    assert app.scene is scene and scene.paused  # Space pauses
    key(app, pygame.K_a)
    assert app.scene is scene  # an unused key does nothing
    key(app, pygame.K_t)
    assert app.scene is scene and scene.overlay.visible  # T shows the tree
    key(app, pygame.K_t)
    click(app, scene._ui["pause"].get_abs_rect().center)
    assert app.scene is scene and not scene.paused  # the panel's buttons work
    key(app, pygame.K_ESCAPE)
    assert app.scene is menu


def test_the_unattended_show_still_leaves_on_any_key(app: App, data: Path) -> None:
    app.start_attract_mode()
    frames(app, 2)
    key(app, pygame.K_a)
    assert isinstance(app.scene, MenuScene)


# ----- 3: the Tree Lab's random tree ------------------------------------------------------------------------------
def test_random_tree_limits_show_in_the_fields_and_the_message(app: App, data: Path) -> None:
    scene = app.open_tree_lab()
    frames(app, 2)
    ui = scene._ui  # type: ignore[attr-defined]
    ui["branching"].set_text("10")
    ui["depth"].set_text("10")
    click(app, ui["random"].get_abs_rect().center)
    assert (scene.branching, scene.depth) == (6, 3)  # type: ignore[attr-defined]
    assert (ui["branching"].get_text(), ui["depth"].get_text()) == ("6", "3")
    message = scene.message  # type: ignore[attr-defined]
    assert "6 x 3" in message and "10 x 10" in message and "does not fit the screen" in message
    ui["branching"].set_text("2")
    ui["depth"].set_text("3")
    click(app, ui["random"].get_abs_rect().center)
    assert scene.message == ""  # type: ignore[attr-defined]
    assert (ui["branching"].get_text(), ui["depth"].get_text()) == ("2", "3")


# ----- 4: Pig told in turns ---------------------------------------------------------------------------------------
PIG_MOVES = ("roll", 6, "roll", 5, "hold", "roll", 3, "roll", 1, "roll", 2)


def test_pig_move_list_is_by_turns(app: App, data: Path) -> None:
    scene = hot_seat(app, "pig")
    for m in PIG_MOVES:
        assert scene.play(m, "chance" if isinstance(m, int) else "human")
    html = scene.moves_html()
    lines = html.split("<br>")
    assert lines[0] == "<b>Player 1</b>: rolled 6, 5, held: +11"
    assert lines[1] == "<b>Player 2</b>: rolled 3, 1: busted, +0"
    assert lines[2] == "<b>Player 1</b>: rolled 2 (turn total 2)"
    assert "die=" not in html and "1.&nbsp;" not in html


def test_other_games_move_lists_are_unchanged(app: App, data: Path) -> None:
    scene = hot_seat(app, "tictactoe")
    for cell in (4, 0, 8):
        scene.play(cell, "human")
    assert scene.moves_html() == ("1.&nbsp;&nbsp;<b>X</b> 4&nbsp;&nbsp;&nbsp;&nbsp;<b>O</b> 0<br>"
                                  "2.&nbsp;&nbsp;<b>X</b> 8")


def test_pig_resume_prompt_names_the_turn(app: App, data: Path) -> None:
    game = Pig()
    saved = savegame.from_record("pig", game, game.initial_state(), ["roll", 4, "roll", 2], ["human", "medium"])
    assert saved.prompt() == "Resume your Pig game (turn 1, Player 1 to play)?"
    saved = savegame.from_record("pig", game, game.initial_state(), ["roll", 4, "hold", "roll", 1],
                                 ["human", "medium"])
    assert saved.prompt() == "Resume your Pig game (turn 3, Player 1 to play)?"
    ttt = savegame.SavedGame("tictactoe", ".........", ("4", "0"), ("human", "human"))
    assert ttt.prompt() == "Resume your tic-tac-toe game (move 2)?"


def test_pig_values_read_as_a_win_chance() -> None:
    from ai.search import SearchResult
    res = SearchResult("roll", -1.04e-06, None, None, 2, 10, ("roll",), 0.01, "depth",
                       extra={"win_probability": 0.4999995})
    text = format_value(res)
    assert "e-0" not in text and "win chance 50.0%" in text


def test_pig_overlay_values_have_fixed_decimals(app: App, data: Path) -> None:
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
    from ai.recording import number_text
    assert number_text(-1.04e-06) == "-0.00000104"
    assert number_text(0.000123) == "0.000123"
    assert number_text(0.0612) == "0.0612"
    assert "e" not in number_text(3.5e-12)


def test_zoom_says_its_size_and_when_it_is_the_largest(app: App) -> None:
    """Ctrl+plus past the largest step that fits the window changed nothing without a word (teacher's trial)."""
    from ui_driver import key
    seen = []
    for _ in range(12):
        key(app, pygame.K_EQUALS, pygame.KMOD_CTRL)
        seen.append(app.notice[0])
    assert seen[0].startswith("Interface size ") and seen[0].endswith("%")
    assert seen[-1].endswith(": the largest that fits this window")
    largest = app.display.zoom
    key(app, pygame.K_EQUALS, pygame.KMOD_CTRL)
    assert app.display.zoom == largest and f"{round(largest * 100)}%" in app.notice[0]
    key(app, pygame.K_MINUS, pygame.KMOD_CTRL)
    assert app.display.zoom < largest and "largest" not in app.notice[0]


def test_file_dialogs_open_in_the_documents_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Save dialog opened in the program's folder, listing .git and .venv (teacher's trial)."""
    from gameplay.files import savegame
    monkeypatch.setenv("ARCADE_GAMES_DIR", str(tmp_path / "games"))
    assert savegame.documents_dir() == tmp_path / "games"
    monkeypatch.delenv("ARCADE_GAMES_DIR")
    assert savegame.documents_dir() != Path.cwd() or Path.cwd() == Path.home()


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 800)])
def test_pig_ai_reasoning_is_drawn_whole_inside_its_card(size: tuple[int, int], data: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The card's last line ("AI's win probability ...") was drawn half under the card (teacher's trial); the
    "Player 2 played roll" decision box said "2 played roll"."""
    from ui_driver import pump

    from gameplay.ui.pig_view import PigView
    a = App(size=size, fps=1000)
    try:
        scene = a.start_match("pig", make_agent("pig", "hard"), make_agent("pig", "hard"))
        scene.ai_delay_s = 0.0
        pump(a, lambda: scene.last_decision is not None)
        drawn: list[tuple[str, pygame.Rect, pygame.Rect]] = []
        real_reasoning, real_text = PigView._draw_reasoning, PigView._text
        card: list[pygame.Rect] = []

        def reasoning(self: PigView, surf: pygame.Surface, lay: Any, *args: Any) -> None:
            card.append(lay.ai)
            real_reasoning(self, surf, lay, *args)
            card.pop()

        def text(self: PigView, surf: pygame.Surface, t: str, *args: Any, **kw: Any) -> pygame.Rect:
            r = real_text(self, surf, t, *args, **kw)
            if card:
                drawn.append((t, r, card[-1]))
            return r

        monkeypatch.setattr(PigView, "_draw_reasoning", reasoning)
        monkeypatch.setattr(PigView, "_text", text)
        for attr in ("_layer", "_layer_key", "_cache_key"):  # draw the cached layer again
            if hasattr(scene.view, attr):
                setattr(scene.view, attr, None)
        frames(a, 2)
        assert drawn, "the reasoning card was drawn"
        for t, r, c in drawn:
            assert c.contains(r), (t, r, c)
        assert "Player " in scene.decision_html().split("played")[0]
    finally:
        a.close()


def test_plain_alpha_beta_is_named_where_the_class_looks() -> None:
    """With "Search: Plain alpha-beta (AIMA)" nothing on screen said so (second teacher trial): the side's
    description and the tree's title name it."""
    from ai.decision_model import decision_info
    from ai.decision_tree import record_decision_model
    spec = "alphabeta:depth=3,ordering=off,tt=off,quiescence=off"
    agent = make_agent("tictactoe", spec)
    assert "plain" in agent.describe()
    assert "plain" not in make_agent("tictactoe", "alphabeta:depth=3").describe()
    game, state, res, rec = record_decision_model("tictactoe", None, spec)
    tree = rec.snapshot(tuple(res.pv))
    info = decision_info(game, state, agent, res, rec, tree, player_name="X", move_text="4")
    assert "plain alpha-beta" in info.title
