"""Headless tests of the window (SDL dummy driver): menu, match, AI in the background, undo, errors, demo."""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pygame_gui
import pytest
from ui_driver import click, frames, key, pump

from ai.agents.agent_base import Agent, AgentSettings
from ai.agents.agents import make_agent
from ai.agents.profiles import available_games, profile_for
from ai.kernel.search import SearchInfo, SearchResult
from gameplay.rules.base import GameError
from gameplay.ui.boards.board import GenericView
from gameplay.ui.play.match import MatchScene
from gameplay.ui.scenes.menu import MenuScene
from gameplay.ui.shell.app import App, run_app
from gameplay.ui.widgets import events

ROOT = Path(__file__).resolve().parent.parent


# ----- helpers ------------------------------------------------------------------------------------------------------
class ScriptedAgent(Agent):
    """A test agent: each call waits until ``gate`` is set (or the search is cancelled), then plays a move.

    ``moves[i]`` is the move of the i-th call (cycled); ``fail`` makes every call raise.
    """

    def __init__(self, moves: list[int], *, gate: threading.Event | None = None, fail: bool = False) -> None:
        super().__init__(profile_for("tictactoe"), AgentSettings(name="scripted", algorithm="minimax"))
        self.moves = moves
        self.gate = gate
        self.fail = fail
        self.calls: list[str] = []
        self.lock = threading.Lock()

    def choose(self, state: Any, stop_event: threading.Event | None = None,
               on_info: Callable[[SearchInfo], None] | None = None, recorder: Any = None) -> SearchResult:
        with self.lock:
            i = len(self.calls)
            self.calls.append(state)
        if self.gate is not None:
            while not self.gate.is_set() and not (stop_event is not None and stop_event.is_set()):
                self.gate.wait(0.005)
        if self.fail:
            raise RuntimeError("boom: the evaluation blew up")
        legal = [m for m in self.moves if state[m] == "."]
        move = legal[i % len(legal)] if legal else state.index(".")
        return SearchResult(move, 0.0, None, None, 1, 7, (move,), 0.001, "depth")



def click_cell(app: App, scene: MatchScene, cell: int) -> None:
    from gameplay.ui.boards.tictactoe_view import Geometry
    click(app, Geometry(scene.board_rect).tile(cell).center)


def click_widget(app: App, widget: Any) -> None:
    click(app, widget.get_abs_rect().center)


def human() -> Agent:
    return make_agent("tictactoe", "human")


def assert_ai_replied(scene: MatchScene, human_cell: int) -> None:
    """X (the human) played ``human_cell`` and O (the AI) answered on another, then free, cell: two plies."""
    assert scene.record.ply == 2 and scene.record.moves[0] == human_cell
    reply = scene.record.moves[1]
    assert reply in scene.game.actions(scene.record.states[1])
    board = scene.record.state
    assert board[human_cell] == "X" and board[reply] == "O" and board.count(".") == 7, board
    assert scene.human_to_move()


def match(app: App, p1: Agent, p2: Agent) -> MatchScene:
    scene = app.start_match("tictactoe", p1, p2)
    scene.ai_delay_s = 0.0
    frames(app, 2)
    return scene


# ----- tests --------------------------------------------------------------------------------------------------------
def test_pygame_is_ce() -> None:
    assert pygame.IS_CE


def test_import_does_no_pygame_work() -> None:
    code = ("import pygame, gameplay.ui.shell.app, gameplay.ui.shell.bench_ui, gameplay.ui.play.match, "
            "gameplay.ui.scenes.menu;"
            "assert not pygame.display.get_init() and not pygame.font.get_init()")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True)


def test_menu_defaults_and_start(app: App) -> None:
    menu = MenuScene()
    app.push(menu)
    frames(app, 2)
    assert menu.game == "tictactoe" and menu.sides == ["human", "medium"]
    assert menu.widget("side0").selected_option[1] == "human"
    # Choose "Easy" for O, as the drop-down itself announces it.
    pygame.event.post(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, text="Easy",
                                         selected_option_id="easy", ui_element=menu.widget("side1")))
    frames(app, 2)
    assert menu.sides[1] == "easy"
    assert "depth 3" in menu.widget("desc1").text  # tic-tac-toe easy: depth 3 (README, difficulty ladder)
    click_widget(app, menu.widget("start"))
    scene = app.scene
    assert isinstance(scene, MatchScene)
    assert scene.agents[0].is_human and scene.agents[1].settings.name == "easy"
    assert len(app.scenes) == 2  # the menu stays below the match
    key(app, pygame.K_ESCAPE)
    assert app.scene is menu and app.running
    key(app, pygame.K_ESCAPE)
    assert not app.running


def test_menu_lists_installed_games(app: App) -> None:
    menu = MenuScene()
    app.push(menu)
    frames(app)
    assert menu.games == available_games()
    assert all(f"play.{g}" in menu.widgets for g in available_games())  # one card per game


def test_human_move_ai_answer_undo_redo(app: App) -> None:
    scene = match(app, human(), make_agent("tictactoe", "expert"))
    assert scene.human_to_move()
    click_cell(app, scene, 0)
    pump(app, lambda: scene.record.ply == 2)
    assert_ai_replied(scene, human_cell=0)
    assert scene.record.moves[1] == 4  # the only move that does not lose against a corner
    assert scene.last_decision is not None and scene.last_decision[2].nodes > 0
    assert "nodes" in scene.decision_html()
    key(app, pygame.K_u)
    assert scene.record.ply == 0 and scene.human_to_move()
    key(app, pygame.K_r)
    assert scene.record.moves == [0, 4] and scene.human_to_move()
    key(app, pygame.K_z, pygame.KMOD_LCTRL)
    assert scene.record.ply == 0
    click_cell(app, scene, 4)
    pump(app, lambda: scene.record.ply == 2)
    assert_ai_replied(scene, human_cell=4)
    click_widget(app, scene.widget("undo"))
    assert scene.record.ply == 0
    click_cell(app, scene, 4)
    click_cell(app, scene, 4)  # an occupied cell is ignored
    pump(app, lambda: scene.record.ply == 2)
    assert_ai_replied(scene, human_cell=4)


def test_ai_vs_ai_undo_is_one_ply_and_game_ends(app: App) -> None:
    scene = match(app, make_agent("tictactoe", "expert"), make_agent("tictactoe", "expert"))
    pump(app, lambda: scene.record.outcome() is not None)
    assert scene.record.ply == 9 and scene.result_text() == "Draw: board full"
    assert scene.widget("banner").visible
    key(app, pygame.K_u)
    assert scene.record.ply == 8 and scene.paused  # the agents wait after an undo
    frames(app, 5)
    assert scene.record.ply == 8 and "Paused" in scene.status_text()
    click_widget(app, scene.widget("pause"))  # Resume
    pump(app, lambda: scene.record.ply == 9)
    key(app, pygame.K_SPACE)
    assert scene.paused
    key(app, pygame.K_n)
    assert scene.record.ply <= 1 and scene.games_started == 2 and not scene.paused


def test_new_game_during_search_drops_stale_result(app: App) -> None:
    gate = threading.Event()
    ai = ScriptedAgent([8, 4], gate=gate)
    scene = match(app, ai, human())
    pump(app, lambda: len(ai.calls) == 1)
    old_id = scene.record.match_id
    frames(app, 5)
    assert scene.record.ply == 0 and "thinking" in scene.status_text()
    key(app, pygame.K_n)  # cancels the search; its move (8) must never appear
    pump(app, lambda: len(ai.calls) == 2)
    frames(app, 5)
    gate.set()
    pump(app, lambda: scene.record.ply == 1)
    frames(app, 5)
    assert scene.record.match_id != old_id
    assert scene.record.moves == [4]
    assert scene.runner.dropped >= 1


def test_undo_during_search_cancels_it(app: App) -> None:
    gate = threading.Event()
    ai = ScriptedAgent([8, 2], gate=gate)
    scene = match(app, human(), ai)
    click_cell(app, scene, 4)
    pump(app, lambda: len(ai.calls) == 1)
    cancelled = scene.runner.worker
    key(app, pygame.K_u)
    assert scene.record.ply == 0 and scene.runner.idle()
    gate.set()
    assert cancelled is not None
    cancelled.join(60)  # the cancelled search has returned its move (8), however slow the machine
    assert not cancelled.is_alive()
    frames(app, 10)
    assert scene.record.ply == 0  # the cancelled search's move never appears
    click_cell(app, scene, 0)
    pump(app, lambda: scene.record.ply == 2)
    assert_ai_replied(scene, human_cell=0)
    assert scene.record.moves[1] == 2  # the second request's move; the cancelled one's 8 was dropped


def test_state_drawn_is_unchanged_during_search(app: App) -> None:
    gate = threading.Event()
    ai = ScriptedAgent([4], gate=gate)
    scene = match(app, human(), ai)
    click_cell(app, scene, 0)
    pump(app, lambda: len(ai.calls) == 1)
    drawn: list[str] = []
    original = scene.view.draw

    def spy(surface: pygame.Surface, rect: pygame.Rect, state: Any, view: Any) -> None:
        drawn.append(state)
        original(surface, rect, state, view)

    scene.view.draw = spy  # type: ignore[method-assign]
    frames(app, 20)
    assert len(drawn) == 20 and set(drawn) == {"X........"}
    assert ai.calls == ["X........"]
    assert not scene.human_to_move()
    click_cell(app, scene, 8)  # clicks while the AI thinks are ignored
    assert scene.record.moves == [0]
    gate.set()
    pump(app, lambda: scene.record.ply == 2)
    assert_ai_replied(scene, human_cell=0)
    assert scene.record.moves[1] == 4
    frames(app, 1)
    assert drawn[-1] == "X...O...."  # the AI's mark is drawn once it is played


def test_worker_exception_is_shown_and_the_game_goes_on(app: App) -> None:
    ai = ScriptedAgent([4], fail=True)
    scene = match(app, human(), ai)
    click_cell(app, scene, 0)
    pump(app, lambda: scene.error is not None)
    assert "boom" in scene.error and "RuntimeError" in scene.error
    frames(app, 3)
    assert "boom" in scene.decision_html()
    assert "O's AI failed" in scene.widget("status").text  # its two buttons say what to do
    assert len(ai.calls) == 1  # not asked again at the same position
    key(app, pygame.K_u)
    assert scene.record.ply == 0 and scene.error is None
    ai.fail = False
    click_cell(app, scene, 0)
    pump(app, lambda: scene.record.ply == 2)
    assert_ai_replied(scene, human_cell=0)
    ai.fail = True
    click_cell(app, scene, 8)
    pump(app, lambda: scene.error is not None)
    click_widget(app, scene.widget("new"))
    assert scene.confirm is not None  # an unfinished game: New game asks first (tests/test_match_confirm.py)
    click_widget(app, scene.confirm[0].confirm_button)
    frames(app, 2)
    assert scene.record.ply == 0 and scene.error is None
    click_widget(app, scene.widget("menu"))
    frames(app, 2)
    assert isinstance(app.scene, MenuScene)


def test_fullscreen_and_resize_do_not_crash(app: App) -> None:
    app.push(MenuScene())
    frames(app)
    key(app, pygame.K_F11)
    assert app.fullscreen
    key(app, pygame.K_F11)
    assert not app.fullscreen
    scene = match(app, human(), make_agent("tictactoe", "beginner"))
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=900, h=640, size=(900, 640)))
    frames(app, 2)
    assert app.size == (900, 640)
    assert scene.board_rect.right < 900 and scene.board_rect.bottom < 640
    key(app, pygame.K_F11)
    key(app, pygame.K_F11)
    click_cell(app, scene, 2)
    pump(app, lambda: scene.record.ply == 2)
    assert_ai_replied(scene, human_cell=2)  # the click still hits the right cell after the resizes


def test_hover_and_result_banner_draw(app: App) -> None:
    scene = match(app, human(), human())
    from gameplay.ui.boards.tictactoe_view import Geometry
    centre = Geometry(scene.board_rect).tile(4).center
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=centre, rel=(0, 0), buttons=(0, 0, 0)))
    frames(app)
    assert scene.hover == 4 and scene.view_state().interactive
    for cell in (0, 3, 1, 4, 2):
        click_cell(app, scene, cell)
    assert scene.result_text() == "X wins: three in a row"
    assert scene.widget("banner").visible and "X wins" in scene.widget("banner").text


def test_demo_with_frames_writes_png(tmp_path: Path) -> None:
    out = tmp_path / "shots" / "demo.png"
    ns = argparse.Namespace(command="demo", game="tictactoe", p1="beginner", p2="random:seed=5", fullscreen=False,
                            frames=40, screenshot=str(out), overlay=False)
    assert run_app(ns) == 0
    assert out.exists()
    img = pygame.image.load(str(out))
    assert img.get_size() == (1280, 800)


def test_bad_agent_spec_raises_before_the_window_opens() -> None:
    ns = argparse.Namespace(command="play", game="tictactoe", p1="human", p2="nonsense", fullscreen=False,
                            frames=None, screenshot=None, overlay=False)
    with pytest.raises(GameError):
        run_app(ns)
    assert not pygame.display.get_init()


def test_events_are_registered_once() -> None:
    t = events.event_type("MOVE_PLAYED")
    assert t == events.event_type("MOVE_PLAYED") and t >= pygame.USEREVENT
    assert len({events.event_type(n) for n in events.NAMES}) == len(events.NAMES)
    with pytest.raises(KeyError):
        events.event_type("NOPE")


def test_game_without_board_view_is_playable_with_buttons(app: App) -> None:
    # Every installed game has its own view now; take checkers' away to check the generic fallback still plays.
    from gameplay.ui.boards.window_parts import DEFAULT_PARTS, replaced_window_parts
    with replaced_window_parts("checkers", DEFAULT_PARTS):
        scene = app.start_match("checkers", "human", "human")
        frames(app, 2)
        assert isinstance(scene.view, GenericView)
        buttons = scene.action_buttons
        assert buttons
        click_widget(app, buttons[0][0])
        assert scene.record.ply >= 1


# ----- the decision panel after undo -------------------------------------------------------------------------------
def test_undo_clears_the_undone_ai_decision(app: App) -> None:
    scene = app.start_match("tictactoe", "human", "medium")
    scene.ai_delay_s = 0.0
    app.run(max_frames=2)
    scene.play(scene.game.actions(scene.record.state)[0], "human")
    pump(app, lambda: scene.record.ply == 2, 60.0)  # wall-clock bound: a frame count runs out on a loaded machine
    assert scene.last_decision is not None and "played" in scene.decision_html()
    scene.undo()
    app.run(max_frames=1)
    assert scene.record.ply == 0 and scene.last_decision is None and "No AI move yet" in scene.decision_html()
    scene.redo()
    assert scene.record.ply == 2 and scene.last_decision is not None


def test_the_overlay_follows_undo_redo_and_new_game(app: App) -> None:
    """The overlay shows the tree of the decision the side panel names: none after undo or a new game, the
    same again after redo (two screens never disagree)."""
    scene = app.start_match("tictactoe", "human", "medium")
    scene.ai_delay_s = 0.0
    app.run(max_frames=2)
    scene.play(4, "human")
    pump(app, lambda: scene.record.ply == 2, 60.0)  # with the frame gap that leaves the search's thread the GIL
    assert scene.record.ply == 2 and scene.overlay.tree is not None
    tree = scene.overlay.tree
    assert tree.total_nodes == scene.last_decision[2].nodes  # type: ignore[index]
    scene.undo()
    app.run(max_frames=1)
    assert scene.last_decision is None and scene.overlay.tree is None and not scene.overlay.visible
    scene.redo()
    app.run(max_frames=1)
    assert scene.last_decision is not None and scene.overlay.tree is tree
    scene.new_game()
    app.run(max_frames=1)
    assert scene.last_decision is None and scene.overlay.tree is None
