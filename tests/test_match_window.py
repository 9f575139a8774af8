"""The match window's details people look at, each fault fixed as a kind and its example made a test:

* the resume prompt lists every saved game (several of one game too) and scrolls: every row and "Later" can be
  reached inside the window at every size and zoom step; the title screen's question offers every save of a game;
* the moves list follows the last move (unless the reader scrolled up);
* one move numbering for every "move N" (gameplay.rules.move_numbers);
* after an agent file fails, its two buttons never cover the board and the headline is never cut;
* Settings' agent-file error ("syntax error on line N") is never cut;
* the window waits for input on a static board (the idle wait) but not while anything moves by itself;
* Pig's reasoning and log text is at least 16 px at 1280x800.
"""

from __future__ import annotations

import datetime
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest
from ui_driver import frames, hot_seat, pump

from ai.agents.agent_base import Agent, AgentSettings
from ai.agents.agents import make_agent
from ai.agents.profiles import profile_for
from ai.kernel.search import SearchInfo, SearchResult
from gameplay.files import autosave, savegame
from gameplay.rules import move_numbers
from gameplay.rules.registry import make_game
from gameplay.ui.play.match import MatchScene
from gameplay.ui.play.match_panel import at_bottom, fit_text
from gameplay.ui.scenes.menu import MenuScene
from gameplay.ui.shell.app import App
from gameplay.ui.widgets import projector
from gameplay.ui.widgets.scene import Scene

ROOT = Path(__file__).resolve().parent.parent
SIZES = [(1024, 768), (1280, 720), (1280, 800), (1366, 768), (1920, 1080)]


@pytest.fixture
def app(make_app: Callable[..., App], data_dir: Path) -> Iterator[App]:
    a = make_app()
    a.push(MenuScene())
    yield a
    a.close()  # (make_app closes it again: a no-op) before the interface scale goes back to the default
    projector.set_current(projector.Display())


def play_plies(scene: MatchScene, n: int) -> None:
    """Play ``n`` plies of a hot-seat game: the first legal move each time (the die shows 4 in Pig)."""
    for _ in range(n):
        state = scene.record.state
        assert not scene.game.is_terminal(state)
        if scene.game.is_chance(state):
            assert scene.play(4, "chance")
        else:
            assert scene.play(scene.game.actions(state)[0], "human")


def inside(inner: pygame.Rect, outer: pygame.Rect) -> bool:
    return outer.contains(inner)


def zoom_steps(app: App) -> Iterator[float]:
    """Walk the interface's zoom steps from the smallest to the largest the window allows (yields each)."""
    app.zoom(0)
    while True:
        before = app.display.zoom
        app.zoom(-1)
        if app.display.zoom == before:
            break
    while True:
        frames(app, 2)
        yield app.display.zoom
        before = app.display.zoom
        app.zoom(1)
        if app.display.zoom == before:
            break


# ----- one move numbering ---------------------------------------------------------------------------------------
def test_move_numbers_count_move_pairs_like_the_moves_list() -> None:
    assert [move_numbers.move_number(p) for p in (0, 1, 2, 21, 22, 23, 24)] == [1, 1, 2, 11, 12, 12, 13]
    assert [move_numbers.move_number(p, 1) for p in (0, 1, 2, 3)] == [1, 2, 2, 3]  # "1... 23-19" opens
    ttt = make_game("tictactoe")
    assert move_numbers.progress(ttt, ttt.initial_state(), []) == "move 1"
    assert move_numbers.progress(ttt, ttt.initial_state(), [4, 0, 8]) == "move 2"
    assert move_numbers.progress(ttt, ttt.initial_state(), [0, 3, 1, 4, 2]) == "over at move 3"  # X won
    pig = make_game("pig")
    assert move_numbers.progress(pig, pig.initial_state(), ["roll", 4, "hold"]) == "turn 2, Player 2 to play"


def test_every_move_n_of_the_window_is_the_moves_list_number(app: App, data_dir: Path, tmp_path: Path) -> None:
    scene = hot_seat(app, "checkers")
    play_plies(scene, 23)  # 11 full moves, then Black's ply of move 12: the game is at move 12, White to play
    frames(app, 2)
    lines = scene.moves_html().split("<br>")
    assert len(lines) == 12 and lines[-1].startswith("12.&nbsp;")  # the list's last line is move 12
    assert scene.progress_text() == "move 12"
    saved = scene.aids.saved_game()
    assert saved.progress() == "move 12" and saved.prompt() == "Resume your checkers game (move 12)?"
    assert saved.describe().startswith("checkers, move 12, today ")
    scene.ask_new_game()  # a game at stake: the confirm dialog names the same move
    assert scene.confirm is not None and "(move 12)" in scene.confirm[0].confirmation_text.html_text
    scene.close_dialog()
    assert scene.tools is not None and scene.tools.save_pdn(tmp_path / "g.pdn")  # type: ignore[attr-defined]
    assert scene.notice is not None and scene.notice[0].startswith("Saved the game (move 12) to ")
    app.open_menu()
    frames(app, 2)
    menu = app.scene
    assert isinstance(menu, MenuScene)
    menu.start("checkers")  # the title screen's question
    assert menu.question is not None and "(move 12)" in menu.question.text
    menu.close_dialog()
    resumed = app.resume_autosave(autosave.load_autosave(data_dir, game="checkers"))
    assert resumed is not None and resumed.notice is not None
    assert resumed.notice[0] == "Resumed your checkers game at move 12."


def test_a_start_with_the_second_player_to_move_opens_with_a_half_move(app: App, data_dir: Path) -> None:
    from gameplay.rules.checkers.checkers_notation import parse_fen
    scene = hot_seat(app, "checkers")
    scene.load_game(parse_fen("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"))
    assert scene.progress_text() == "move 1"
    play_plies(scene, 2)  # White's half move 1, then Black opens move 2
    lines = scene.moves_html().split("<br>")
    assert lines[0].startswith("1.&nbsp;&nbsp;…") and "White" in lines[0]
    assert lines[1].startswith("2.&nbsp;") and "Black" in lines[1]
    assert scene.progress_text() == "move 2"  # White to play in move 2, as the list shows


# ----- the moves list follows the last move -------------------------------------------------------------------------
@pytest.mark.slow
def test_the_moves_list_follows_the_last_move(app: App, data_dir: Path) -> None:
    scene = hot_seat(app, "checkers")
    for _ in range(40):
        play_plies(scene, 1)
        frames(app, 1)
    box = scene.widget("moves")
    assert box.scroll_bar is not None  # 20 lines: the list scrolls
    assert at_bottom(box)  # and shows the last move
    box.scroll_bar.set_scroll_from_start_percentage(0.0)  # the reader scrolls up to read the opening
    frames(app, 2)
    play_plies(scene, 1)
    frames(app, 2)
    assert not at_bottom(box) and box.scroll_bar.start_percentage < 0.05  # their place is kept
    box.scroll_bar.set_scroll_from_start_percentage(1.0)  # back at the end: it follows again
    frames(app, 2)
    play_plies(scene, 1)
    frames(app, 2)
    assert at_bottom(box)


# ----- the resume prompt --------------------------------------------------------------------------------------------
def write_saves(data_dir: Path, n: int) -> list[savegame.SavedGame]:
    """``n`` autosaves, several of each game, saved an hour apart (newest first), each a few plies in."""
    out = []
    now = datetime.datetime.now().replace(microsecond=0)
    for i in range(n):
        name = ("checkers", "tictactoe", "pig")[i % 3]
        game = make_game(name)
        state, moves = game.initial_state(), []
        for _ in range(2 + i % 3):
            move = 4 if game.is_chance(state) else list(game.actions(state))[0]
            moves.append(move)
            state = game.result(state, move)
        saved = savegame.from_record(name, game, game.initial_state(), moves, ["human", "medium"])
        stamp = (now - datetime.timedelta(hours=i)).isoformat(timespec="seconds")
        saved = savegame.SavedGame(saved.game, saved.start, saved.moves, saved.agents, stamp, sides=saved.sides)
        autosave.write_autosave(saved, path=autosave.free_autosave_path(name, data_dir))
        out.append(saved)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_resume_prompt_offers_every_save_and_each_row_and_later_can_be_reached(size: tuple[int, int],
                                                                                   data_dir: Path) -> None:
    written = write_saves(data_dir, 7)
    app = App(size=size, fps=1000)
    try:
        app.push(MenuScene())
        app.offer_autosave()
        window = pygame.Rect((0, 0), size)
        steps = []
        for zoom in zoom_steps(app):
            steps.append(zoom)
            prompt = app.resume_prompt
            assert prompt is not None and prompt.alive, zoom
            where = f"{size} zoom {zoom}"
            assert len(prompt.rows) == 7, where  # every save, three of checkers among them
            assert sorted(s.moves for s, _, _ in prompt.rows) == sorted(s.moves for s in written)
            assert inside(prompt.window.rect, window), where
            container = prompt.window.get_container().get_rect()
            assert inside(prompt.later.get_abs_rect(), container), where
            for i in range(len(prompt.rows)):  # each row can be brought into view (Up / Down, wheel, Previous / Next)
                prompt.select(i)
                frames(app, 2)
                view = prompt.list_rect
                assert inside(view, container), where
                for button in prompt.rows[i][1:]:
                    assert button.visible and inside(button.get_abs_rect(), view), (where, i)
                for j, (_s, resume, _d) in enumerate(prompt.rows):  # a row out of view is hidden whole
                    assert resume.visible == prompt.row_in_view(j), (where, i, j)
                    if resume.visible:
                        assert inside(resume.get_abs_rect(), view), (where, i, j)
                assert inside(prompt.later.get_abs_rect(), container), (where, i)
                for key in ("up", "down"):
                    if key in prompt.buttons:
                        assert inside(prompt.buttons[key].get_abs_rect(), container), (where, key)
        assert len(steps) >= 3
    finally:
        app.close()
        projector.set_current(projector.Display())


def test_resume_rows_say_what_each_save_is_and_discard_keeps_the_list_place(app: App, data_dir: Path) -> None:
    written = write_saves(data_dir, 12)
    prompt = app.offer_autosave()
    assert prompt is not None and prompt.heading == "Resume one of your 12 games?"
    frames(app, 2)
    texts = [w.text for w in prompt.window.get_container().elements if isinstance(w, pygame_gui_label())]
    assert "Checkers, move 2" in texts and "Pig, turn 1, Player 1 to play" in texts
    assert any(t.startswith("today ") and t.endswith(" · human vs medium") for t in texts)
    assert prompt.pager is not None and prompt.pager.text.startswith("Games 1-") and "of 12" in prompt.pager.text
    for _ in range(8):  # Down to row 8: the list scrolls with the choice
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_DOWN, mod=0, unicode="", scancode=0))
    frames(app, 3)
    assert prompt.selected == 8 and prompt.row_in_view(8) and prompt.top > 0
    chosen = prompt.rows[8][0]
    assert chosen.moves == written[8].moves
    before = prompt.top
    app.discard_autosave(prompt.rows[11][0])  # a row's Discard: that file goes, the others stay, the place too
    frames(app, 2)
    assert app.resume_prompt is prompt and len(prompt.rows) == 11
    assert prompt.heading == "Resume one of your 11 games?"
    assert len(autosave.load_autosaves(data_dir)[0]) == 11
    assert prompt.top == before and prompt.rows[prompt.selected][0] is chosen
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_PAGEUP, mod=0, unicode="", scancode=0))
    frames(app, 2)
    assert prompt.top < before  # Page Up: earlier rows
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0))
    frames(app, 3)
    resumed = app.scene  # Enter resumes the chosen row
    assert isinstance(resumed, MatchScene) and app.resume_prompt is None
    played = resumed.aids.saved_game().moves  # (the AI side may have answered since)
    assert played[:len(chosen.moves)] == chosen.moves and resumed.game_name == chosen.game


def test_the_resume_list_scrolls_with_the_mouse_wheel_and_its_buttons(app: App, data_dir: Path) -> None:
    write_saves(data_dir, 12)
    prompt = app.offer_autosave()
    assert prompt is not None
    frames(app, 2)
    pos = prompt.list_rect.center
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-2, flipped=False, precise_x=0.0,
                                         precise_y=-2.0))
    frames(app, 2)
    assert prompt.top == 2  # the wheel: two rows down
    from ui_driver import click
    click(app, prompt.buttons["down"].get_abs_rect().center)
    assert prompt.top > 2
    click(app, prompt.buttons["up"].get_abs_rect().center)
    assert prompt.top == 2 or prompt.top == 0


def test_the_title_screen_question_offers_every_save_of_the_game(app: App, data_dir: Path) -> None:
    write_saves(data_dir, 7)  # checkers: rows 0, 3 and 6
    menu = app.scene
    assert isinstance(menu, MenuScene)
    menu.start("checkers")
    question = menu.question
    assert question is not None and question.text == "You have 3 checkers games in progress."
    assert [s.game for s, _, _ in question.rows] == ["checkers"] * 3
    assert inside(question.new.get_abs_rect(), question.window.get_container().get_rect())
    question.handle_event(pygame.event.Event(pygame_gui_pressed(), ui_element=question.rows[1][2]))  # Discard
    frames(app, 2)
    assert menu.question is question and len(question.rows) == 2
    assert len([s for s in autosave.load_autosaves(data_dir)[0] if s.game == "checkers"]) == 2
    question.handle_event(pygame.event.Event(pygame_gui_pressed(), ui_element=question.new))
    frames(app, 2)
    scene = app.scene
    assert isinstance(scene, MatchScene) and scene.record.ply == 0
    play_plies(scene, 1)
    frames(app, 3)  # several saved games: the new one is saved beside them, none replaced
    assert len([s for s in autosave.load_autosaves(data_dir)[0] if s.game == "checkers"]) == 3


def pygame_gui_label() -> type:
    from pygame_gui.elements import UILabel
    return UILabel


def pygame_gui_pressed() -> int:
    import pygame_gui
    return int(pygame_gui.UI_BUTTON_PRESSED)


def test_when_a_game_was_saved_reads_as_a_player_says_it() -> None:
    now = datetime.datetime(2025, 3, 5, 15, 0)
    assert savegame.when_text("2025-03-05T14:02:00", now) == "today 14:02"
    assert savegame.when_text("2025-03-04T14:02:00", now) == "yesterday 14:02"
    assert savegame.when_text("2025-03-01T09:30:00", now) == "Saturday 09:30"
    assert savegame.when_text("2025-01-02T09:00:00", now) == "2 Jan 09:00"
    assert savegame.when_text("2024-12-30T09:00:00", now) == "30 Dec 2024"
    assert savegame.when_text("not a time", now) == ""


# ----- after an agent file fails ------------------------------------------------------------------------------------
RAISES = '''"""An agent that raises."""


def choose_move(state, time_left_s):
    raise ValueError("my agent does not know what to do in this position at all, sorry")
'''
SYNTAX_ERROR = '''"""An agent with a syntax error."""


def choose_move(state, time_left_s):
    x = (1 +
    return game.actions(state)[0]
'''


def failed_match(app: App, game: str, agent: Any) -> MatchScene:
    scene = app.start_match(game, agent, make_agent(game, "human"))
    scene.ai_delay_s = 0.0
    pump(app, lambda: scene.error is not None, 60.0)
    frames(app, 2)
    return scene


def check_failure_layout(app: App, scene: MatchScene, where: str) -> None:
    buttons = scene.aids.error_buttons
    assert set(buttons) == {"take", "retry"}, where
    window = pygame.Rect((0, 0), app.size)
    panel = scene.widget("panel").rect
    for key, button in buttons.items():
        r = button.get_abs_rect()
        assert button.visible and not r.colliderect(scene.board_rect), (where, key, r, scene.board_rect)
        assert inside(r, window) and not r.colliderect(panel), (where, key, r)
        assert "…" not in button.text
    for side in scene.aids.side_buttons.values():  # Race, Hint, Help give their place
        assert not side.visible, where
    label = scene.widget("status")
    text = label.text
    assert "…" not in text and "AI failed" in text, (where, text)
    assert fit_text(app.manager, text, label.rect.width - 16, 28, bold=True) == text, (where, text)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_after_an_agent_file_fails_its_buttons_never_cover_the_board(size: tuple[int, int], tmp_path: Path,
                                                                     data_dir: Path) -> None:
    broken = tmp_path / "broken_agent_that_raises.py"
    broken.write_text(RAISES, encoding="utf-8")
    app = App(size=size, fps=1000)
    try:
        app.push(MenuScene())
        scene = failed_match(app, "checkers", make_agent("checkers", f"file:{broken}"))
        assert "ValueError" in (scene.error or "")
        check_failure_layout(app, scene, f"{size} zoom {app.display.zoom}")
        while True:  # and at the largest interface size the window allows (the longest labels, the least room)
            before = app.display.zoom
            app.zoom(1)
            if app.display.zoom == before:
                break
        frames(app, 2)
        check_failure_layout(app, scene, f"{size} zoom {app.display.zoom}")
        app.zoom(0)
        frames(app, 2)
        take = scene.aids.error_buttons["take"]
        from ui_driver import click
        click(app, take.get_abs_rect().center)
        assert scene.is_human(0) and not scene.aids.error_buttons
        assert all(b.visible for b in scene.aids.side_buttons.values())  # Race, Hint, Help are back
    finally:
        app.close()
        projector.set_current(projector.Display())


@pytest.mark.parametrize("game", ["pig", "tictactoe"])
def test_an_agent_file_broken_after_it_was_chosen_fails_in_the_match_the_same_way(game: str, tmp_path: Path,
                                                                                  data_dir: Path) -> None:
    path = tmp_path / "my_agent.py"
    shutil.copy(ROOT / "examples" / "agents" / f"{game}_agent.py", path)
    agent = make_agent(game, f"file:{path}")  # read and accepted...
    path.write_text(SYNTAX_ERROR, encoding="utf-8")  # ...then saved again with a syntax error
    app = App(size=(1024, 768), fps=1000)
    try:
        app.push(MenuScene())
        scene = failed_match(app, game, agent)
        assert "syntax error on line 5" in (scene.error or "")
        check_failure_layout(app, scene, f"{game} 1024x768")
    finally:
        app.close()


# ----- Settings: the agent file's error is never cut ----------------------------------------------------------------
def squeeze(text: str) -> str:
    """``text`` without its spaces (a long file name may be broken across lines)."""
    return "".join(text.split())


@pytest.mark.slow
def test_settings_agent_file_error_is_never_cut(tmp_path: Path, data_dir: Path) -> None:
    from gameplay.ui.scenes.settings_scene import SettingsScene
    broken = tmp_path / "my_very_long_named_student_agent_for_the_class_tournament.py"
    broken.write_text(SYNTAX_ERROR, encoding="utf-8")
    app = App(size=(1024, 768), fps=1000)
    try:
        panel = SettingsScene("checkers")
        app.push(panel)
        frames(app, 2)
        panel.files.pick(1, str(broken))
        frames(app, 2)
        for zoom in zoom_steps(app):
            where = f"zoom {zoom}"
            ui = panel.widgets
            status = [ui[k] for k in ["status1"] + [f"status1.{i}" for i in range(1, 20)] if k in ui]
            shown = " ".join(label.text for label in status if label.text)
            assert squeeze(shown) == squeeze(f"Cannot play: {panel.problem(1)}"), where  # every character
            assert "syntax error on line 5, column 9: '(' was never closed" in shown, where
            for label in status:
                assert "…" not in label.text
                assert projector.text_width(app.manager, label.text, "#card_hint") <= label.rect.width, where
            assert not panel.save()
            frames(app, 2)
            ui = panel.widgets
            message = [ui[k] for k in ["message"] + [f"message.{i}" for i in range(1, 20)] if k in ui]
            text = " ".join(label.text for label in message)
            assert squeeze(text) == squeeze(panel.message), where
            assert "syntax error on line 5, column 9: '(' was never closed" in text, where
            window = pygame.Rect((0, 0), app.size)
            for label in message:
                assert "…" not in label.text
                assert projector.text_width(app.manager, label.text, "#error_message") <= label.rect.width, where
                assert inside(label.rect, window), where
                for key in ("save", "cancel", "defaults", "page"):
                    assert not label.rect.colliderect(ui[key].rect), (where, key)
    finally:
        app.close()
        projector.set_current(projector.Display())


# ----- the idle wait ------------------------------------------------------------------------------------------------
class ThinkingAgent(Agent):
    """A tic-tac-toe agent that thinks until ``gate`` opens (or the search is cancelled)."""

    def __init__(self, gate: threading.Event) -> None:
        super().__init__(profile_for("tictactoe"), AgentSettings(name="thinking", algorithm="minimax"))
        self.gate = gate

    def choose(self, state: Any, stop_event: threading.Event | None = None,
               on_info: Callable[[SearchInfo], None] | None = None, recorder: Any = None) -> SearchResult:
        while not self.gate.is_set() and not (stop_event is not None and stop_event.is_set()):
            self.gate.wait(0.005)
        move = state.index(".")
        return SearchResult(move, 0.0, None, None, 1, 1, (move,), 0.001, "depth")


def test_the_loop_waits_for_input_on_a_static_board(app: App, data_dir: Path) -> None:
    scene = hot_seat(app, "checkers")
    app.idle.last_activity -= 60.0  # long after the last event (no waiting in the test)
    assert not scene.busy() and app.idle.wanted()
    before = app.idle.waits
    app.run(max_seconds=0.6)
    assert app.idle.waits > before  # the open-ended loop waited for input instead of drawing
    before = app.idle.waits
    app.idle.last_activity -= 60.0
    app.run(max_frames=5)
    assert app.idle.waits == before  # frame-counted runs (--frames, tests) never wait


def test_an_event_ends_the_idle_wait_and_is_handled(app: App, data_dir: Path) -> None:
    scene = hot_seat(app, "tictactoe")
    frames(app, 2)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_t, mod=0, unicode="t", scancode=0))
    assert app.idle.wait(30.0)  # the key ends the wait (a missing wake-up would take 30 s)
    assert not scene.overlay.visible
    frames(app, 1)
    assert scene.overlay.visible  # T, handled in the next frame


def test_no_idle_wait_while_anything_moves_by_itself(app: App, data_dir: Path) -> None:
    gate = threading.Event()
    scene = app.start_match("tictactoe", make_agent("tictactoe", "human"), ThinkingAgent(gate))
    scene.ai_delay_s = 0.0
    frames(app, 2)
    scene.play(4, "human")  # the AI thinks now
    pump(app, lambda: not scene.runner.idle())
    app.idle.last_activity -= 60.0
    assert scene.busy() and not app.idle.wanted()
    before = app.idle.waits
    app.run(max_seconds=0.5)
    assert app.idle.waits == before  # full frame rate while it thinks
    gate.set()
    pump(app, lambda: scene.record.ply == 2)
    assert scene.busy()  # the move's animation
    scene.clock += 10.0  # long after it
    assert not scene.busy()  # the player's turn, nothing moving: only input can change the board
    scene.aids.request_hint()
    assert scene.busy()  # the hint's search, then its pulsing ring
    assert MenuScene().busy() is False and Scene().busy() is True  # a scene that does not say is always drawn


# ----- Pig's reasoning and log text --------------------------------------------------------------------------------
class FontSpy:
    """Wraps a Pig view's fonts (:meth:`PigText.font <gameplay.ui.boards.pig_text.PigText.font>`, which its cards draw
    all their text with) while a ``with`` block runs: every text rendered is recorded with the pixel size of its
    font."""

    def __init__(self, view: Any) -> None:
        self.view = view
        self.original = view.font
        self.sizes: list[tuple[int, str]] = []
        self._patch = pytest.MonkeyPatch()

    def __enter__(self) -> FontSpy:
        self._patch.setattr(self.view, "font", self.font)
        return self

    def __exit__(self, *exc: object) -> None:
        self._patch.undo()

    def font(self, size: int, bold: bool = False) -> Any:
        real = self.original(size, bold)
        spy = self

        class Recording:
            def render(self, text: str, *args: Any) -> pygame.Surface:
                spy.sizes.append((size, text))
                return real.render(text, *args)

            def __getattr__(self, name: str) -> Any:
                return getattr(real, name)

        return Recording()


def pig_decision() -> tuple[Any, tuple[tuple[Any, Any], ...], Any]:
    """A Pig game seven plies in with an AI decision to roll at the last decision point."""
    game = make_game("pig")
    state = game.initial_state()
    history = []
    for move in ("roll", 5, "roll", 3, "roll", 6, "roll"):
        history.append((state, move))
        state = game.result(state, move)
    res = SearchResult("roll", 0.4, None, None, 2, 100, ("roll",), 0.01, "depth",
                       extra={"values": {"roll": 0.4, "hold": 0.326}, "win_probability": 0.7})
    return state, tuple(history), (0, "roll", res)


@pytest.mark.parametrize("size", [(1280, 800), (1024, 768), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_pig_reasoning_and_log_text_is_at_least_16_px_at_scale_1(size: tuple[int, int], data_dir: Path) -> None:
    from gameplay.ui.boards.board import ViewState
    from gameplay.ui.boards.pig_view import Layout
    app = App(size=size, fps=1000)
    try:
        scene = app.start_match("pig", make_agent("pig", "human"), make_agent("pig", "human"))
        frames(app, 2)
        state, history, decision = pig_decision()
        view = scene.view
        view.tables.wait(30.0)
        lay = Layout(scene.board_rect)
        vs = ViewState(hover=None, interactive=False, last_move=history[-1][1], selected=(), to_move=0, clock=1.0,
                       decision=decision, history=history, sides=("medium (expectimax)", "Human"))
        view.draw(pygame.display.get_surface(), scene.board_rect, state, vs)  # learns the decision, shows it
        cards = view.cards
        assert cards.shown is not None and cards.shown.table is not None and cards.shown.decision is not None
        floor = projector.px(16)
        for name, draw in (("reasoning", lambda s: cards.draw_reasoning(s, lay.ai, lay.font)),
                           ("log", lambda s: cards.draw_log(s, lay.log, lay.font))):
            with FontSpy(view) as spy:
                draw(pygame.Surface(lay.size, pygame.SRCALPHA))
            texts = [t for _s, t in spy.sizes]
            assert spy.sizes, name
            assert min(s for s, _t in spy.sizes) >= floor, (size, name, sorted(spy.sizes)[:3])
            if name == "reasoning":
                assert any("chose ROLL" in t for t in texts) and any("win\u00a070.0%" in t for t in texts)
            else:
                assert any("rolled 6" in t for t in texts)
        if size == (1280, 800):
            assert floor == 16
    finally:
        app.close()



def test_the_side_label_tip_says_which_endgame_tables(app: App, data_dir: Path) -> None:
    """A side that probes endgame tables says their size in its label's tool tip (not a line more on the panel,
    which the decision box needs at 1024x768: tests/test_ui_decision_box.py)."""
    app.resize((1280, 800))
    scene = app.start_match("checkers", "expert", "human")
    app.run(max_frames=2)
    label = scene.widgets["player0"]
    assert label.text.startswith("Black: expert") and "endgame" not in label.text
    assert label.tool_tip_text is not None and label.tool_tip_text.endswith("(endgame tables up to 4 pieces)")
    assert not scene.widgets["player1"].tool_tip_text  # a person probes nothing
