"""Headless tests of the Pig dice table (SDL dummy driver): roll, hold, a rolled 1, the AI's turn, the die, undo."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest
import ui_driver
from ui_driver import PUMP_GAP_S, click, frames, key

from ai.pig.pig_agents import make_profile
from gameplay.rules.pig import HOLD, ROLL, Pig, PigState
from gameplay.ui.boards.board import ViewState
from gameplay.ui.boards.pig_view import (
    BUTTON_COLOURS,
    BUTTON_OFF,
    Layout,
    OptimalTableLoader,
    PigController,
    PigView,
    exact_win,
    game_log,
    last_bust,
)
from gameplay.ui.play.match import MatchScene
from gameplay.ui.shell.app import App
from gameplay.ui.shell.frame_clock import SteppedClock

ROOT = Path(__file__).resolve().parent.parent


# ----- helpers ------------------------------------------------------------------------------------------------------
class LoadedDice(random.Random):
    """A stand-in for the referee's generator: the queued faces first, then a seeded generator (a
    ``random.Random`` whose ``random()`` is loaded, so ``choices`` draws the queued faces too)."""

    def __init__(self, faces: list[int], n: int = 6, seed: int = 7) -> None:
        super().__init__(seed)
        self.faces = list(faces)
        self.n = n

    def random(self) -> float:
        if self.faces:
            return (self.faces.pop(0) - 0.5) / self.n  # the middle of that face's slice of [0, 1)
        return super().random()



def pig_to_20() -> Any:
    """Pig's agent profile with a 20-point target (the profile factory of :func:`small_target`'s agents' parts)."""
    return make_profile(target=20)


@pytest.fixture
def small_target() -> Iterator[int]:
    """Pig to 20 points for quick full games (the window's game is to 100): Pig's agents' parts give
    :func:`pig_to_20` as its profile factory while the test runs."""
    import dataclasses

    from ai.agents.game_parts import agent_parts, replaced_agent_parts
    with replaced_agent_parts("pig", dataclasses.replace(agent_parts("pig"), profile=pig_to_20)):
        yield 20


def pump(app: App, until: Callable[[], bool], timeout_s: float = 60.0) -> None:
    """Frames until ``until()``: ``ui_driver.pump``'s wall-clock bound (a count of frames ran out before a pure-Python
    search on a loaded machine answered), two frames a step so the dice's tumble clock moves."""
    ui_driver.pump(app, until, timeout_s, frames_per_step=2)


def start(app: App, p1: str = "human", p2: str = "human", dice: list[int] | None = None) -> MatchScene:
    scene = app.start_match("pig", p1, p2)
    scene.ai_delay_s = 0.0
    scene.chance_delay_s = 0.0
    scene.rng = LoadedDice(dice or [])
    frames(app, 2)
    return scene


def pig(scene: MatchScene) -> Pig:
    """The scene's game, as Pig."""
    assert isinstance(scene.game, Pig)
    return scene.game


def settle(app: App, scene: MatchScene) -> None:
    """Run frames until the referee has applied the die."""
    pump(app, lambda: not scene.game.is_chance(scene.record.state))


def button_pos(scene: MatchScene, move: str) -> tuple[int, int]:
    lay = Layout(scene.board_rect)
    r = lay.buttons[move].move(*lay.origin)
    return r.centerx, r.centery


def button_colour(app: App, scene: MatchScene, move: str) -> tuple[int, int, int]:
    """The colour of a button's face (left of its label)."""
    lay = Layout(scene.board_rect)
    r = lay.buttons[move].move(*lay.origin)
    frames(app, 1)
    c = app.screen.get_at((r.x + 8, r.centery))
    return c.r, c.g, c.b


# ----- tests --------------------------------------------------------------------------------------------------------
def test_pig_gets_the_dice_table_and_r_is_roll(app: App) -> None:
    scene = start(app)
    assert isinstance(scene.view, PigView)
    assert isinstance(scene.controller, PigController)
    assert scene.controller.actions(scene.record.state) == []  # Roll / Hold are on the table, not in the panel
    assert scene.widget("redo").text == "Redo (Ctrl+Y)"


def test_r_rolls_a_sampled_face_and_h_holds(app: App) -> None:
    scene = start(app, dice=[4, 5])
    key(app, pygame.K_r)
    assert scene.record.moves[0] == ROLL
    settle(app, scene)
    assert scene.record.moves[:2] == [ROLL, 4]  # the referee sampled the face and applied it
    assert scene.record.state == PigState(0, 0, 4, 0)
    key(app, pygame.K_r)
    settle(app, scene)
    assert scene.record.state == PigState(0, 0, 9, 0)
    key(app, pygame.K_h)
    assert scene.record.state == PigState(9, 0, 0, 1)  # banked; player 2 to move
    assert scene.record.moves == [ROLL, 4, ROLL, 5, HOLD]


def test_buttons_roll_and_hold_by_mouse(app: App) -> None:
    scene = start(app, dice=[3])
    click(app, button_pos(scene, ROLL))
    settle(app, scene)
    assert scene.record.state == PigState(0, 0, 3, 0)
    click(app, button_pos(scene, HOLD))
    assert scene.record.state == PigState(3, 0, 0, 1)


def test_hold_is_disabled_at_turn_total_zero(make_app: Callable[..., App]) -> None:
    app = make_app((1280, 800), clock=SteppedClock())  # each frame lasts 1 ms: the 30 s roll lasts 30,000 frames
    scene = start(app, dice=[2])
    assert HOLD not in scene.game.actions(scene.record.state)
    assert button_colour(app, scene, HOLD) == BUTTON_OFF[0]
    assert button_colour(app, scene, ROLL) in BUTTON_COLOURS[ROLL][:2]
    key(app, pygame.K_h)
    click(app, button_pos(scene, HOLD))
    assert scene.record.ply == 0  # neither the key nor the button did anything
    scene.chance_delay_s = 30.0
    key(app, pygame.K_r)
    assert scene.game.is_chance(scene.record.state)
    assert button_colour(app, scene, ROLL) == BUTTON_OFF[0]  # the die is rolling: nothing to press
    assert button_colour(app, scene, HOLD) == BUTTON_OFF[0]
    scene.chance_delay_s = 0.0
    settle(app, scene)
    assert button_colour(app, scene, HOLD) in BUTTON_COLOURS[HOLD][:2]


def test_rolling_a_one_loses_the_turn_total_and_passes(app: App) -> None:
    scene = start(app, dice=[6, 1])
    for _ in range(2):
        key(app, pygame.K_r)
        settle(app, scene)
    assert scene.record.state == PigState(0, 0, 0, 1)
    log = game_log(pig(scene), tuple(zip(scene.record.states, scene.record.moves)), scene.record.state)
    assert log[-1].kind == "bust" and log[-1].text == "rolled 1: loses 6, turn passes"
    history = tuple(zip(scene.record.states, scene.record.moves))
    assert last_bust(history, scene.record.state) == PigState(0, 0, 6, 0, True)  # still news on the table
    frames(app, 2)  # draws the "Rolled a 1!" table


def test_the_ai_plays_its_turn_and_shows_its_reasoning(app: App) -> None:
    scene = start(app, "human", "hard", dice=[5, 6])
    for _ in range(2):
        key(app, pygame.K_r)
        settle(app, scene)
    # Watch the AI's requests and the referee's dice from now on.
    asked_at_chance: list[bool] = []
    submit = scene.runner.submit

    def watched_submit(agent: Any, state: Any, tag: Any, *args: Any, **kwargs: Any) -> Any:
        asked_at_chance.append(scene.game.is_chance(state))
        return submit(agent, state, tag, *args, **kwargs)

    dice_after: list[float] = []
    play = scene.play

    def watched_play(move: Any, by: str) -> bool:
        if by == "chance":
            dice_after.append(scene.turn_clock)
        return play(move, by)

    scene.runner.submit = watched_submit  # type: ignore[method-assign]
    scene.play = watched_play  # type: ignore[method-assign]
    scene.chance_delay_s = 0.1
    key(app, pygame.K_h)
    assert scene.record.states[5] == PigState(11, 0, 0, 1)  # banked; the AI may have started already
    pump(app, lambda: scene.human_to_move() or scene.game.is_terminal(scene.record.state))
    assert scene.human_to_move()
    ai_moves = [m for s, m in zip(scene.record.states, scene.record.moves) if not s.pending and s.player == 1]
    assert ai_moves and ai_moves[0] == ROLL
    assert asked_at_chance and not any(asked_at_chance)  # the AI is never asked while the die rolls
    assert dice_after and min(dice_after) >= 0.1  # each AI roll tumbled for the whole delay before landing
    assert scene.last_decision is not None
    _, _, res = scene.last_decision
    assert set(res.extra["values"]) <= {ROLL, HOLD} and 0.0 <= res.extra["win_probability"] <= 1.0
    view = scene.view
    assert isinstance(view, PigView)
    history = tuple(zip(scene.record.states, scene.record.moves))
    decided = view.last_ai_decision(history)
    assert decided is not None and decided[1] is res
    assert any(e.note.startswith("AI: roll") for e in game_log(pig(scene), history, scene.record.state,
                                                                view.decisions(history)))


def test_the_die_tumbles_without_blocking_input(make_app: Callable[..., App]) -> None:
    app = make_app((1280, 800), clock=SteppedClock())  # each frame lasts 1 ms: the 30 s roll lasts 30,000 frames
    scene = start(app, dice=[4, 2])
    scene.chance_delay_s = 30.0  # a very long roll
    key(app, pygame.K_r)
    frames(app, 20)
    assert scene.game.is_chance(scene.record.state)  # the state waits for the animation
    view = scene.view
    assert isinstance(view, PigView)
    faces = view.tumbling_faces(1)
    assert all(a != b for a, b in itertools.pairwise(faces))  # it visibly changes face at every step
    # The die is drawn from the scene clock: two moments of the roll give two different pictures.
    lay = Layout(scene.board_rect)
    side = lay.die_size * 2
    die = pygame.Rect(0, 0, side, side)
    die.center = (lay.die_center[0] + lay.origin[0], lay.die_center[1] + lay.origin[1])
    shots = []
    fresh = PigView(scene.game)  # its roll starts at its first draw
    history = tuple(zip(scene.record.states, scene.record.moves))
    for clock in (1.0, 1.03, 1.17):
        surf = pygame.Surface(app.screen.get_size())
        fresh.draw(surf, scene.board_rect, scene.record.state, ViewState(clock=clock, history=history))
        shots.append(pygame.image.tobytes(surf.subsurface(die.clip(surf.get_rect())), "RGB"))
    assert shots[1] != shots[2]
    # Keys work while the die is in the air: undo takes the roll back at once.
    key(app, pygame.K_u)
    assert scene.record.ply == 0 and not scene.game.is_chance(scene.record.state)
    # The landing bounce is cosmetic: the next roll is accepted while it plays.
    scene.chance_delay_s = 0.0
    key(app, pygame.K_r)
    settle(app, scene)
    key(app, pygame.K_r)
    assert len(scene.record.moves) >= 3 and scene.record.moves[2] == ROLL


def test_undo_and_redo_across_chance_outcomes(app: App) -> None:
    scene = start(app, "human", "hard", dice=[4, 5])
    for _ in range(2):
        key(app, pygame.K_r)
        settle(app, scene)
    key(app, pygame.K_h)
    pump(app, lambda: scene.human_to_move() or scene.game.is_terminal(scene.record.state))
    plies = scene.record.ply
    assert plies > 5  # the AI rolled at least once: decisions and die faces after the hold
    key(app, pygame.K_u)  # back to before the human's hold: the AI's turn and its dice are taken back
    assert scene.record.state == PigState(0, 0, 9, 0) and scene.human_to_move()
    key(app, pygame.K_u)  # and before the second roll (the roll and its face go together)
    assert scene.record.state == PigState(0, 0, 4, 0)
    key(app, pygame.K_y, pygame.KMOD_CTRL)  # Ctrl+Y redoes (R would roll)
    assert scene.record.state == PigState(0, 0, 9, 0)
    key(app, pygame.K_r)  # R is a new roll, not redo
    assert scene.record.moves[4] == ROLL and not scene.record.redo_stack


@pytest.mark.slow
def test_full_game_against_the_ai_to_the_end(app: App, small_target: int) -> None:
    scene = start(app, "human", "hard")
    assert pig(scene).target == small_target
    deadline = time.monotonic() + 300.0  # wall-clock bound: a count of frames runs out while the AI thinks on a busy
    while time.monotonic() < deadline:  # machine
        state = scene.record.state
        if scene.game.is_terminal(state):
            break
        if scene.human_to_move():
            key(app, pygame.K_h if state.turn >= 6 else pygame.K_r)  # hold at 6
        else:
            app.run(max_frames=2)
            time.sleep(PUMP_GAP_S)  # the GIL free for the AI's thread, as ui_driver.pump does
    assert scene.game.is_terminal(scene.record.state)
    frames(app, 3)
    assert "wins" in (scene.result_text() or "")
    key(app, pygame.K_n)
    assert scene.record.ply == 0


def test_game_log_lines() -> None:
    g = Pig(20)
    moves: list[str | int] = [ROLL, 5, HOLD, ROLL, 1, ROLL, 6, ROLL, 3, ROLL, 6]
    states = [g.initial_state()]
    for m in moves:
        states.append(g.result(states[-1], m))
    log = game_log(g, tuple(zip(states, moves)), states[-1])
    assert [(e.player, e.text) for e in log] == [
        (0, "rolled 5: turn total 5"),
        (0, "held: banks 5, score 0 » 5"),
        (1, "rolled 1: turn passes"),
        (0, "rolled 6: turn total 6"),
        (0, "rolled 3: turn total 9"),
        (0, "rolled 6: reaches 20 and wins"),
    ]
    assert log[-1].kind == "win"
    rolling = game_log(g, tuple(zip(states[:1], moves[:1])), states[1])
    assert rolling[-1].kind == "rolling"


def test_exact_table_is_loaded_off_the_ui_thread() -> None:
    loader = OptimalTableLoader(20, 6)
    table = loader.wait(10.0)
    assert table is not None and loader.error is None
    g = Pig(20)
    p = exact_win(table, g.initial_state())
    assert p is not None and 0.5 < p < 0.7  # the first player's edge (0.53 at target 100)
    assert exact_win(table, PigState(0, 0, 5, 0, True)) == pytest.approx(table.roll_value(0, 0, 5))
    assert OptimalTableLoader(1000, 6).get() is None


def test_import_does_no_pygame_work() -> None:
    code = ("import pygame, gameplay.ui.boards.pig_view;"
            "assert not pygame.display.get_init() and not pygame.font.get_init()")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True)


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720), (1920, 1080)])
def test_the_turn_heading_stays_inside_its_card(app: App, size: tuple[int, int],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """"Player 2's turn — rolling…" ran past the right edge of its card at 1024x768 (a new user's finding): the
    heading takes the longest wording that fits, else a smaller font."""
    from gameplay.ui.play import match_panel
    from gameplay.ui.widgets import projector
    app.resize(size)
    rect = match_panel.match_areas(size, projector.scale())[4]
    view = PigView(Pig())
    drawn: list[tuple[str, pygame.Rect]] = []
    real = PigView.draw_text

    def spy(self: PigView, surf: pygame.Surface, text: str, *args: Any, **kw: Any) -> pygame.Rect:
        r = real(self, surf, text, *args, **kw)
        drawn.append((text, r))
        return r
    monkeypatch.setattr(PigView, "draw_text", spy)
    surface = pygame.Surface(size)
    for state in (PigState(0, 0, 12, 1, True), PigState(0, 0, 0, 0, False)):
        drawn.clear()
        view.draw(surface, rect, state, ViewState())
        table = Layout(rect).table
        heading = [(t, r) for t, r in drawn if t.startswith("Player ") and ("turn" in t or "rolling" in t)]
        assert heading, drawn
        for text, r in heading:
            assert table.contains(r), (text, r, table)
