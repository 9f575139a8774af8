"""Any number of moves playable in the window (issue 48): the move buttons scroll when they are more than the
panel's rows, and the move field takes a move typed in the game's notation (Tab completes it, Enter plays it, an
illegal one is named). A 16-move and a 40-move game file (tests/data/games) are played move by move from the window
through synthetic events at 1024x768 and 1366x768: every legal move at the start played by its button and by its
text, then a whole game."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pytest
from ui_driver import click, frames, key, pump

from gameplay.rules.registry import register_file
from gameplay.ui.play.match_panel import whole_words
from gameplay.ui.play.move_entry import common_start, completions, read_typed_move

DATA = Path(__file__).resolve().parent / "data" / "games"
NIM16 = DATA / "nim16.py"
NIM40 = DATA / "nim40.py"


pytestmark = pytest.mark.usefixtures("only_builtin_games")
"""Each test ends with the built-in games only (tests/conftest.py)."""


def file_game(path: Path) -> Any:
    from ai.agents.profiles import profile_for
    return profile_for(register_file(str(path)).name).game


# -- the typed move, headless ----------------------------------------------------------------------------------------
def test_a_typed_move_is_read_exactly_by_its_one_completion_or_by_the_games_reader() -> None:
    game = file_game(NIM16)
    start = game.initial_state()
    assert len(game.actions(start)) == 16
    assert read_typed_move(game, start, " 4:7 ").move == (3, 7)
    assert [t for t, _ in completions(game, start, "4:")] == [f"4:{n}" for n in range(1, 8)]
    assert common_start([t for t, _ in completions(game, start, "4")]) == "4:"
    assert read_typed_move(game, start, "1").move == (0, 1)  # the one move "1" begins
    many = read_typed_move(game, start, "3:")
    assert many.move is None and many.error == "'3:' begins 5 moves: 3:1, 3:2, 3:3, 3:4, 3:5; type the whole move"
    bad = read_typed_move(game, start, "4:9")
    assert bad.move is None and bad.error.startswith("'4:9' is not a legal move here; the moves are 1:1, 2:1")
    assert bad.error.endswith("and 4 more")
    assert read_typed_move(game, start, "").error == "type a move first, e.g. 1:1"
    over = ((0, 0, 0, 0), 1)
    assert read_typed_move(game, over, "1:1").error == "no move to type here: the game is over"

    from gameplay.rules.registry import make_game
    checkers = make_game("checkers")
    cs = checkers.initial_state()
    assert read_typed_move(checkers, cs, "11-15").text == "11-15"
    assert read_typed_move(checkers, cs, "11-19").error.startswith("'11-19' is not a legal move here")
    c4 = make_game("connect4")
    assert read_typed_move(c4, c4.initial_state(), "4").move == c4.parse_move(c4.initial_state(), "4")


# -- in the window -----------------------------------------------------------------------------------------------------
def press(app: Any, ch: str) -> None:
    """A typed character: KEYDOWN, TEXTINPUT, KEYUP, one frame."""
    k = ord(ch) if ch in ":-" else pygame.key.key_code(ch)
    mod = pygame.KMOD_SHIFT if ch == ":" else 0
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=ch, scancode=0))
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode=ch, scancode=0))
    frames(app, 1)


def type_move(app: Any, scene: Any, text: str) -> None:
    """Enter puts the keyboard in the move field, the text is typed, Enter plays it."""
    key(app, pygame.K_RETURN)
    assert app.text_entry_focused(), "Enter did not put the keyboard in the move field"
    for ch in text:
        press(app, ch)
    assert scene.panel.move_entry.get_text() == text
    key(app, pygame.K_RETURN)


def scroll_into_view(app: Any, scene: Any, button: Any) -> None:
    """Scroll the move buttons with the mouse wheel until ``button`` shows whole, then return. (pygame_gui finds
    what the mouse is over from SDL's pointer, not from the events: the pointer is put there first.)"""
    box = scene.panel.actions_scroll
    if box is None:
        return
    view = box.get_abs_rect()
    centre = view.center

    def shown() -> bool:
        return bool(view.contains(button.get_abs_rect()))

    deadline = 400
    while not shown() and deadline:
        down = button.get_abs_rect().centery > view.centery
        pygame.mouse.set_pos(centre)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=centre, rel=(0, 0), buttons=(0, 0, 0)))
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1 if down else 1, flipped=False,
                                             precise_x=0.0, precise_y=-1.0 if down else 1.0))
        frames(app, 2)
        deadline -= 1
    assert shown(), f"the button {button.text} never scrolled into view"


def start(make_app: Callable[..., Any], path: Path, size: tuple[int, int]) -> tuple[Any, Any]:
    from ai.agents.agents import make_agent
    name = register_file(str(path)).name
    app = make_app(size=size)
    app.autosave = False
    scene = app.start_match(name, make_agent(name, "human"), make_agent(name, "human"))
    frames(app, 2)
    return app, scene


@pytest.mark.parametrize("size", [(1024, 768), (1366, 768)])
@pytest.mark.parametrize("path", [NIM16, NIM40], ids=["16 moves", "40 moves"])
def test_every_legal_move_is_played_from_the_window(make_app: Callable[..., Any], path: Path,
                                                    size: tuple[int, int]) -> None:
    app, scene = start(make_app, path, size)
    game = scene.game
    legal = game.actions(game.initial_state())
    assert len(legal) == (16 if path == NIM16 else 40)
    buttons = scene.action_buttons
    assert [m for _, m in buttons] == legal  # a button for every move (they scroll: fewer rows show)
    assert scene.panel.actions_scroll is not None
    panel_rect = scene.widget("panel").get_abs_rect()
    entry = scene.panel.move_entry
    assert entry is not None and panel_rect.contains(entry.get_abs_rect())
    assert panel_rect.contains(scene.panel.actions_scroll.get_abs_rect())
    assert not entry.get_abs_rect().colliderect(scene.panel.actions_scroll.get_abs_rect())
    assert not entry.get_abs_rect().colliderect(scene.widget("moves").get_abs_rect())

    for move in legal:  # by its button, scrolled into view and clicked; then taken back
        button = next(b for b, m in scene.action_buttons if m == move)
        scroll_into_view(app, scene, button)
        click(app, button.get_abs_rect().center)
        assert scene.record.moves == [move], f"{game.format_move(None, move)}'s button did not play it"
        key(app, pygame.K_u)
        assert scene.record.ply == 0
    for move in legal:  # by its text, typed into the move field
        type_move(app, scene, game.format_move(None, move))
        assert scene.record.moves == [move]
        key(app, pygame.K_ESCAPE)  # the keyboard leaves the field; the match stays
        assert not app.text_entry_focused() and app.scene is scene
        key(app, pygame.K_u)
        assert scene.record.ply == 0

    ply = 0  # a whole game, move by move: buttons and typed moves in turn, the last legal move each time
    while not game.is_terminal(scene.record.state):
        options = game.actions(scene.record.state)
        move = options[-1] if ply % 3 else options[len(options) // 2]
        if ply % 2:
            type_move(app, scene, game.format_move(None, move))
            key(app, pygame.K_ESCAPE)
        else:
            button = next(b for b, m in scene.action_buttons if m == move)
            scroll_into_view(app, scene, button)
            click(app, button.get_abs_rect().center)
        ply += 1
        assert scene.record.ply == ply and scene.record.moves[-1] == move
    assert scene.result_text() is not None


def test_an_illegal_typed_move_is_named_and_tab_completes(make_app: Callable[..., Any]) -> None:
    app, scene = start(make_app, NIM16, (1024, 768))
    key(app, pygame.K_RETURN)
    for ch in "4":
        press(app, ch)
    pump(app, lambda: scene.widget("move_matches").text.startswith("4:1 4:2"))
    key(app, pygame.K_TAB)
    assert scene.panel.move_entry.get_text() == "4:"
    press(app, "9")
    pump(app, lambda: scene.widget("move_matches").text == "none begins 4:9")
    key(app, pygame.K_RETURN)
    assert scene.record.ply == 0 and scene.notice is not None and scene.notice[1]
    assert scene.notice[0].startswith("'4:9' is not a legal move here; the moves are 1:1, 2:1, 2:2")
    assert scene.panel.move_entry.get_text() == "4:9"  # kept, to be corrected
    assert "4:9&#x27; is not a legal move here" in scene.decision_html()


def test_checkers_and_connect_four_take_typed_moves(make_app: Callable[..., Any]) -> None:
    from ai.agents.agents import make_agent
    app = make_app(size=(1024, 768))
    app.autosave = False
    scene = app.start_match("checkers", make_agent("checkers", "human"), make_agent("checkers", "human"))
    frames(app, 2)
    shown = scene.widget("move_matches").text  # the seven first moves of checkers do not all fit at 1024x768
    words = shown.split(" ")
    assert "\u2026" not in shown and words[-1].startswith("+") and int(words[-1][1:]) == 7 - (len(words) - 1)
    assert words[:-1] == ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"][:len(words) - 1]
    type_move(app, scene, "11-15")
    assert scene.record.notation() == ["11-15"]
    scene = app.start_match("connect4", make_agent("connect4", "human"), make_agent("connect4", "human"))
    frames(app, 2)
    type_move(app, scene, "4")
    assert scene.record.notation() == ["4"]


def test_the_move_field_is_there_only_for_a_person_and_off_while_the_ai_moves(make_app: Callable[..., Any]) -> None:
    from ai.agents.agents import make_agent
    app = make_app(size=(1280, 720))
    app.autosave = False
    scene = app.start_match("tictactoe", make_agent("tictactoe", "random"), make_agent("tictactoe", "random"))
    frames(app, 2)
    assert scene.panel.move_entry is None  # AI against AI: no field
    scene = app.start_match("tictactoe", make_agent("tictactoe", "random"), make_agent("tictactoe", "human"))
    scene.ai_delay_s = 0.0
    frames(app, 1)
    assert scene.panel.move_entry is not None
    assert not scene.panel.move_entry.is_enabled or scene.human_to_move()
    pump(app, lambda: scene.human_to_move())
    frames(app, 1)
    assert scene.panel.move_entry.is_enabled


def test_the_completions_show_whole_moves_and_count_the_rest() -> None:
    def fits(width: int) -> Callable[[str], bool]:
        return lambda text: len(text) <= width
    moves = ["9-13", "9-14", "10-14", "10-15"]
    assert whole_words(moves, fits(40)) == "9-13 9-14 10-14 10-15"
    assert whole_words(moves, fits(18)) == "9-13 9-14 10-14 +1"
    assert whole_words(moves, fits(10)) == "9-13 +3"
    assert whole_words(moves, fits(2)) == "9-13"  # one move at least, whole
    assert whole_words([], fits(9)) == ""
