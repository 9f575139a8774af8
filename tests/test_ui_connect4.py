"""Headless tests of the Connect Four board view in the window: clicks and the keys 1-7 drop pieces, a full column
is refused, the winning four is marked, the last piece falls in, undo, the JSON save's round trip, the hint on the
board, the column hit test at the five window sizes; and the title screen's cards at those sizes (titles and
pictures whole, also with five and six games)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest
from ui_driver import click, frames, hot_seat, key, pump

from gameplay.rules.connect4 import Connect4State, winning_line
from gameplay.rules.registry import GAME_NAMES, GameInfo, register, unregister
from gameplay.ui.boards.board import ViewState
from gameplay.ui.boards.connect4_view import WIN_RING, Connect4View, Geometry
from gameplay.ui.play.match import MatchScene
from gameplay.ui.play.play_aids import HINT_COLOUR
from gameplay.ui.scenes.menu import MenuScene
from gameplay.ui.shell.app import App

SIZES = [(1024, 768), (1280, 720), (1280, 800), (1366, 768), (1920, 1080)]
"""The five window sizes the issue names."""
ids = [f"{w}x{h}" for w, h in SIZES]


@pytest.fixture
def app(make_app: Callable[..., App], data_dir: Path, config_dir: Path) -> App:
    return make_app()


def match(app: App) -> MatchScene:
    scene = hot_seat(app, "connect4")
    assert isinstance(scene, MatchScene) and isinstance(scene.view, Connect4View)
    return scene


def click_column(app: App, scene: MatchScene, column: int, where: str = "top") -> None:
    """Click column 1..7 over its number (``top``) or its bottom hole."""
    geo = Geometry(scene.board_rect)
    strip = geo.column_rect(column - 1)
    click(app, (strip.centerx, strip.top + 3 if where == "top" else strip.bottom - 3))


def cell_at(state: Connect4State, column: int, row: int) -> int:
    """-1 empty, else the player (0 / 1) of the piece at ``column`` 1..7, ``row`` 0..5 from the bottom."""
    from gameplay.rules.connect4 import cells
    return cells(state)[5 - row][column - 1]


# ----- moves -----
def test_a_click_anywhere_on_a_column_drops_a_piece_to_its_lowest_cell(app: App) -> None:
    scene = match(app)
    click_column(app, scene, 4, "top")
    assert scene.record.state.moves == "4" and cell_at(scene.record.state, 4, 0) == 0
    click_column(app, scene, 4, "bottom")  # the bottom hole of a column with a piece: lands on top of it
    assert scene.record.state.moves == "44" and cell_at(scene.record.state, 4, 1) == 1
    click(app, (scene.board_rect.x + 1, scene.board_rect.y + 1))  # outside the board: nothing
    assert scene.record.state.moves == "44"


def test_the_keys_1_to_7_drop_pieces(app: App) -> None:
    scene = match(app)
    for k, expected in ((pygame.K_1, "1"), (pygame.K_7, "17"), (pygame.K_KP4, "174"), (pygame.K_4, "1744")):
        key(app, k)
        assert scene.record.state.moves == expected
    key(app, pygame.K_8)  # not a column
    key(app, pygame.K_0)
    assert scene.record.state.moves == "1744"


def test_keys_wait_for_a_human_turn(app: App) -> None:
    from ai.agents.agents import make_agent
    scene = app.start_match("connect4", make_agent("connect4", "human"), make_agent("connect4", "random:seed=1"))
    frames(app, 2)
    scene.paused = True  # the AI does not move: its turn stays
    key(app, pygame.K_3)
    assert scene.record.state.moves == "3"
    key(app, pygame.K_5)  # the AI's turn: the key is not the human's move
    assert scene.record.state.moves == "3"


def test_a_full_column_is_refused(app: App) -> None:
    scene = match(app)
    for _ in range(6):
        click_column(app, scene, 2)
    assert scene.record.state.moves == "222222"
    click_column(app, scene, 2)
    key(app, pygame.K_2)
    assert scene.record.state.moves == "222222"  # refused, by click and by key
    assert scene.controller.click(scene.record.state, 2) is None
    click_column(app, scene, 3)
    assert scene.record.state.moves == "2222223"


def test_the_winning_four_is_marked_and_the_board_then_refuses_moves(app: App) -> None:
    app.settings.animation_speed = 0.0  # the marks wait for the last piece's fall: none here
    scene = match(app)
    for c in "1213141":  # Red: 1, 1, 1, 1 up the first column
        key(app, getattr(pygame, f"K_{c}"))
    state = scene.record.state
    assert scene.game.is_terminal(state) and winning_line(state) is not None
    frames(app, 2)
    geo = Geometry(scene.board_rect)
    for c, r in winning_line(state) or ():
        x, y = geo.centre(c, r)
        middle = geo.cell * 0.415 * 0.93 - max(2, round(geo.cell * 0.07)) / 2
        ring = round(x + middle), round(y)  # in the middle of the white ring around each piece
        assert tuple(app.screen.get_at(ring))[:3] == WIN_RING
    click_column(app, scene, 5)
    assert scene.record.state == state  # the game is over


def test_the_hovered_column_shows_a_ghost_piece_at_its_landing_cell(app: App) -> None:
    scene = match(app)
    key(app, pygame.K_6)
    geo = Geometry(scene.board_rect)
    x, y = geo.centre(5, 1)  # column 6's landing cell
    probe = (round(x), round(y - geo.cell * 0.3))
    frames(app, 2)
    empty = tuple(app.screen.get_at(probe))
    strip = geo.column_rect(5)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=strip.center, rel=(0, 0), buttons=(0, 0, 0)))
    frames(app, 2)
    assert tuple(app.screen.get_at(probe)) != empty  # the ghost (Yellow, to move) sits there


def test_the_last_piece_falls_in_then_settles() -> None:
    pygame.init()
    view = Connect4View(_game())
    state = _game().parse_position("4")
    rect = pygame.Rect(0, 0, 700, 640)
    geo = Geometry(rect)
    x, y = geo.centre(3, 0)
    surface = pygame.Surface(rect.size)
    view.draw(surface, rect, state, ViewState(last_move=4, move_age=0.05, animation_speed=1.0))
    falling = tuple(surface.get_at((round(x), round(y))))
    view.draw(surface, rect, state, ViewState(last_move=4))  # move_age inf (undo, load): nothing animates
    settled = tuple(surface.get_at((round(x), round(y))))
    assert falling != settled  # still falling: its cell is not yet covered
    view.draw(surface, rect, state, ViewState(last_move=4, move_age=0.05, animation_speed=0.0))  # animations off
    assert tuple(surface.get_at((round(x), round(y)))) == settled


def _game() -> Any:
    from gameplay.rules.connect4 import Connect4
    return Connect4()


# ----- undo, save / load, hint -----
def test_undo_and_redo(app: App) -> None:
    scene = match(app)
    for k in (pygame.K_4, pygame.K_3, pygame.K_5):
        key(app, k)
    key(app, pygame.K_u)
    assert scene.record.state.moves == "43"
    key(app, pygame.K_r)
    assert scene.record.state.moves == "435"


def test_save_and_load_json_round_trip(app: App, tmp_path: Path) -> None:
    scene = match(app)
    for k in (pygame.K_4, pygame.K_4, pygame.K_3, pygame.K_5):
        key(app, k)
    state = scene.record.state
    path = tmp_path / "c4.json"
    assert scene.aids.save_to(path)
    scene.new_game()
    assert scene.record.state.moves == ""
    assert scene.aids.load_from(path)
    loaded = app.scene
    assert isinstance(loaded, MatchScene) and loaded.record.state == state
    assert loaded.record.state.moves == "4435" and loaded.record.ply == 4
    key(app, pygame.K_u)  # the loaded game's moves can be undone
    assert loaded.record.state.moves == "443"


def test_the_hint_marks_a_column_on_the_board(app: App) -> None:
    scene = match(app)
    key(app, pygame.K_h)
    pump(app, lambda: scene.aids.hint is not None)
    hint = scene.aids.hint
    assert hint in scene.game.actions(scene.record.state)
    frames(app, 1)
    geo = Geometry(scene.board_rect)
    strip = geo.column_rect(hint - 1)
    colours = {tuple(app.screen.get_at((strip.left + 1, y)))[:3] for y in range(strip.top + 20, strip.bottom - 20)}
    assert HINT_COLOUR in colours  # the frame around the hinted column


def test_autosave_after_each_move_and_resume(app: App, data_dir: Path) -> None:
    from gameplay.files import autosave
    scene = match(app)
    for k in (pygame.K_4, pygame.K_4, pygame.K_3):
        key(app, k)
    saved = autosave.load_autosave(data_dir)
    assert saved is not None and saved.moves == ("4", "4", "3")
    app.open_menu()
    frames(app, 2)
    prompt = app.offer_autosave()
    assert prompt is not None and "Connect Four" in prompt.text
    click(app, prompt.resume.get_abs_rect().center)
    resumed = app.scene
    assert isinstance(resumed, MatchScene) and resumed is not scene
    assert resumed.record.state.moves == "443" and isinstance(resumed.view, Connect4View)
    key(app, pygame.K_7)  # play on: Yellow
    assert resumed.record.state.moves == "4437"


def test_the_tree_of_an_ai_decision_labels_its_moves_with_column_numbers(app: App) -> None:
    from ai.agents.agents import make_agent
    app.settings.animation_speed = 0.0
    scene = app.start_match("connect4", make_agent("connect4", "alphabeta:depth=3"), make_agent("connect4", "human"))
    scene.ai_delay_s = 0.0
    pump(app, lambda: scene.record.ply >= 1)
    key(app, pygame.K_t)
    assert scene.overlay.visible and scene.overlay.tree is not None
    tree = scene.overlay.tree
    root_moves = {n.move for n in tree.nodes if n.parent == 0}
    assert root_moves == {str(c) for c in range(1, 8)}  # the root's seven edges: the columns 1..7
    frames(app, 2)  # drawn
    key(app, pygame.K_t)
    key(app, pygame.K_2)  # the human answers with a key once the tree is closed
    assert scene.record.state.moves[1] == "2"


# ----- the hit test at the window sizes -----
@pytest.mark.parametrize("size", SIZES, ids=ids)
def test_hit_test_gives_the_column_over_its_whole_height(make_app: Callable[..., App], data_dir: Path,
                                                         config_dir: Path, size: tuple[int, int]) -> None:
    app = make_app(size=size)
    scene = match(app)
    rect = scene.board_rect
    geo = Geometry(rect)
    assert rect.contains(geo.header.union(geo.board))  # the numbers and the board inside the view's rectangle
    state = scene.record.state
    for c in range(COLUMNS):
        strip = geo.column_rect(c)
        for y in (geo.header.top, geo.header.centery, geo.board.top + 1, geo.board.centery, geo.board.bottom - 1):
            assert scene.view.hit_test(rect, state, (strip.centerx, y)) == c + 1
    assert scene.view.hit_test(rect, state, (geo.board.left - 1, geo.board.centery)) is None
    assert scene.view.hit_test(rect, state, (geo.board.centerx, geo.board.bottom)) is None
    assert scene.view.hit_test(rect, state, (geo.board.centerx, geo.header.top - 1)) is None


COLUMNS = 7


# ----- the title screen -----
@pytest.fixture(params=[0, 1, 2], ids=["built-in games", "one more", "two more"])
def extra_games(request: pytest.FixtureRequest) -> Iterator[int]:
    names = [f"teach{i}" for i in range(request.param)]
    titles = ["Dots and boxes for beginners", "Sticks"]
    for i, name in enumerate(names):
        register(GameInfo(name, titles[i % 2], "x", "gameplay.rules.tictactoe", "TicTacToe",
                          blurb="A teacher's game from a file"))
    yield request.param
    for name in names:
        unregister(name)


@pytest.mark.parametrize("size", SIZES, ids=ids)
def test_menu_cards_keep_their_titles_and_pictures(make_app: Callable[..., App], data_dir: Path, config_dir: Path,
                                                   size: tuple[int, int], extra_games: int) -> None:
    app = make_app(size=size)
    app.build_notice = None  # as a compiled install: no pure-Python notice under the buttons
    app.open_menu()
    frames(app, 1)
    menu = app.scene
    assert isinstance(menu, MenuScene) and len(menu.games) == len(GAME_NAMES) + extra_games
    seen: set[str] = set()
    for _ in range(len(menu.games)):  # every card, page by page
        ui = menu.widgets
        for game in menu.shown_games:
            seen.add(game)
            card = ui[f"card.{game}"].get_container().get_rect()
            name = ui[f"name.{game}"]
            lines = [name] + [ui[k] for k in ui if k.startswith(f"name.{game}.")]
            for label in lines:  # every title line whole, inside the card
                font = label.font
                assert font.get_rect(label.text).width <= label.rect.width, label.text
                assert card.contains(label.rect)
            assert " ".join(label.text for label in lines) in (
                app_title(game), app_short_title(game))  # the title, or its short form, never cut
            if f"pic.{game}" in ui:
                pic = ui[f"pic.{game}"]
                assert card.contains(pic.rect) and pic.rect.bottom <= ui[f"side_label0.{game}"].rect.top
            parts = [ui[f"side_label0.{game}"], ui[f"side0.{game}"], ui[f"play.{game}"]]
            for part in parts:
                assert card.contains(part.rect)
            assert ui[f"desc1.{game}"].rect.bottom <= ui[f"play.{game}"].rect.top
        key(app, pygame.K_RIGHT)
    assert seen == set(menu.games)  # each card reachable
    if extra_games == 0:
        assert all(f"pic.{g}" in menu.widgets for g in menu.shown_games)  # four games: every picture kept


def app_title(game: str) -> str:
    from gameplay.rules.registry import game_title
    return game_title(game)


def app_short_title(game: str) -> str:
    from gameplay.rules.registry import game_info
    return game_info(game).short_title


def test_the_growth_figure_is_drawn_in_the_window(app: App, tmp_path: Path) -> None:
    from gameplay.ui.play.growth_scene import GrowthScene
    scene = GrowthScene("connect4", _game().parse_position("4453"), max_depth=4)
    app.push(scene)
    pump(app, lambda: scene.surface is not None or scene.error is not None, timeout_s=120)
    assert scene.error is None and scene.surface is not None
    assert scene.data.max_depth == 4 and scene.data.position == "4453"
    pygame.image.save(app.screen, str(tmp_path / "growth.png"))
