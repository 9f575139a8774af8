"""Headless tests of the checkers table (SDL dummy driver): clicks to moves, cues, flip, PDN and FEN, the AI."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pygame_gui
import pytest
from ui_driver import frames, key, pump

from ai.agents.agent_base import Agent, AgentSettings
from ai.agents.agents import make_agent
from ai.agents.profiles import profile_for
from ai.kernel.search import SearchInfo, SearchResult
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.checkers.checkers_board import CheckersState
from gameplay.rules.checkers.checkers_notation import format_fen, parse_fen
from gameplay.ui.boards.checkers_tools import CheckersTools
from gameplay.ui.boards.checkers_view import CheckersView
from gameplay.ui.play.match import MatchScene
from gameplay.ui.shell.app import App

GAME = Checkers()
DOUBLE = "B:W10,19,32:B6,1"
"""Black to move must jump 6x15x24 (men on 10 and 19); Black's man on 1 could only step (to 5)."""


class GatedAgent(Agent):
    """Waits until ``gate`` is set (or the search is cancelled), then plays the first legal move."""

    def __init__(self, gate: threading.Event) -> None:
        super().__init__(profile_for("checkers"), AgentSettings(name="gated", algorithm="minimax"))
        self.gate = gate
        self.calls: list[CheckersState] = []

    def choose(self, state: Any, stop_event: threading.Event | None = None,
               on_info: Callable[[SearchInfo], None] | None = None, recorder: Any = None) -> SearchResult:
        self.calls.append(state)
        while not self.gate.is_set() and not (stop_event is not None and stop_event.is_set()):
            self.gate.wait(0.005)
        move = GAME.actions(state)[0]
        return SearchResult(move, 0.0, None, None, 1, 1, (move,), 0.001, "depth")



def click_at(app: App, pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    frames(app, 3)


def click_sq(app: App, scene: MatchScene, square: int) -> None:
    view = scene.view
    assert isinstance(view, CheckersView)
    click_at(app, view.square_centre(scene.board_rect, square))


def start(app: App, p1: str | Agent = "human", p2: str | Agent = "human", fen: str | None = None) -> MatchScene:
    scene = app.start_match("checkers", p1, p2)
    scene.ai_delay_s = 0.0
    if fen is not None:
        scene.load_game(parse_fen(fen))
    frames(app, 2)
    return scene


def tools(scene: MatchScene) -> CheckersTools:
    assert isinstance(scene.tools, CheckersTools)
    return scene.tools


def texts(scene: MatchScene) -> list[str]:
    return scene.record.notation()


def texts_of(moves: list[Any]) -> list[str]:
    return [GAME.format_move(None, m) for m in moves]


# ----- moves by clicks ----------------------------------------------------------------------------------------------
def test_click_piece_then_destination(app: App) -> None:
    scene = start(app)
    assert isinstance(scene.view, CheckersView) and scene.view.flipped  # a human Black sits at the bottom
    click_sq(app, scene, 11)
    assert scene.controller.selected == (11,)
    assert "marked" in scene.status_text()
    click_sq(app, scene, 20)  # not a destination of 11: the selection is dropped, nothing is played
    assert scene.record.ply == 0 and scene.controller.selected == ()
    click_sq(app, scene, 11)
    click_sq(app, scene, 15)
    assert texts(scene) == ["11-15"]
    assert scene.view_state().last_move == scene.record.moves[0]
    click_sq(app, scene, 22)
    click_sq(app, scene, 18)
    assert texts(scene) == ["11-15", "22-18"]


def test_multi_jump_by_each_landing_square(app: App) -> None:
    scene = start(app, fen=DOUBLE)
    click_sq(app, scene, 6)
    click_sq(app, scene, 15)
    assert scene.record.ply == 0 and scene.controller.selected == (6, 15)
    click_sq(app, scene, 24)
    assert texts(scene) == ["6x15x24"]


def test_multi_jump_by_final_square_only(app: App) -> None:
    scene = start(app, fen=DOUBLE)
    click_sq(app, scene, 6)
    click_sq(app, scene, 24)
    assert texts(scene) == ["6x15x24"]


def test_ambiguous_final_square_asks_for_the_landing_squares(app: App) -> None:
    scene = start(app, fen="B:W14,15,22,23:B10")  # 10x17x26 and 10x19x26 both end on 26
    assert sorted(texts_of(GAME.actions(scene.record.state))) == ["10x17x26", "10x19x26"]
    click_sq(app, scene, 10)
    click_sq(app, scene, 26)
    assert scene.record.ply == 0 and scene.controller.selected == (10,)
    cue = scene.view_state().cue
    assert cue is not None and "Several jumps end on 26" in cue[1]
    click_sq(app, scene, 19)
    click_sq(app, scene, 26)
    assert texts(scene) == ["10x19x26"]


def test_compulsory_capture_cue(app: App) -> None:
    scene = start(app, fen=DOUBLE)
    click_sq(app, scene, 1)  # this man can only step: a capture is compulsory
    cue = scene.view_state().cue
    assert cue is not None and cue[1] == "Capture is compulsory: 6x15x24" and cue[2] == (6,)
    assert "Capture is compulsory: 6x15x24" in scene.status_text()
    frames(app, 3)  # the flash and the message on the board draw
    click_sq(app, scene, 6)
    assert scene.view_state().cue is None and scene.controller.selected == (6,)
    click_sq(app, scene, 9)  # a quiet step of the piece that must jump
    assert scene.view_state().cue is not None and scene.record.ply == 0
    assert scene.controller.selected == (6,)  # the selection stays: the jump can be entered at once
    click_sq(app, scene, 24)
    assert texts(scene) == ["6x15x24"] and scene.view_state().cue is None


def test_flip_changes_hit_testing_consistently(app: App) -> None:
    scene = start(app)
    view = scene.view
    assert isinstance(view, CheckersView)
    pos = view.square_centre(scene.board_rect, 11)
    assert view.hit_test(scene.board_rect, scene.record.state, pos) == 11
    key(app, pygame.K_f)
    assert not view.flipped
    assert view.hit_test(scene.board_rect, scene.record.state, pos) == 22  # turned by 180 degrees: s -> 33 - s
    for sq in range(1, 33):
        assert view.hit_test(scene.board_rect, scene.record.state, view.square_centre(scene.board_rect, sq)) == sq
    click_at(app, pos)  # now White's man on 22: not Black's piece, nothing selected
    assert scene.controller.selected == ()
    click_sq(app, scene, 11)
    click_sq(app, scene, 15)
    assert texts(scene) == ["11-15"]
    button = next(b for b, extra in scene.extra_buttons if extra.label.startswith("Flip"))
    click_at(app, button.get_abs_rect().center)
    assert view.flipped
    key(app, pygame.K_m)
    assert not view.show_numbers
    frames(app, 2)


def test_human_side_at_bottom_by_default(app: App) -> None:
    scene = start(app, "easy", "human")
    assert isinstance(scene.view, CheckersView) and not scene.view.flipped


# ----- PDN and FEN --------------------------------------------------------------------------------------------------
def test_save_then_load_pdn_gives_the_same_moves(app: App, tmp_path: Path) -> None:
    scene = start(app)
    for a, b in ((11, 15), (22, 18), (15, 22)):
        click_sq(app, scene, a)
        click_sq(app, scene, b)
    assert texts(scene) == ["11-15", "22-18", "15x22"]
    path = tmp_path / "game.pdn"
    key(app, pygame.K_s)  # the file dialog opens; keys go to it, not to the match
    assert tools(scene).modal
    key(app, pygame.K_n)
    assert scene.record.ply == 3
    dialog = tools(scene).dialog
    pygame.event.post(pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, text=str(path), ui_element=dialog))
    frames(app, 2)
    assert not tools(scene).modal and path.exists()
    assert "Saved the game (move 2) to " in scene.decision_html()  # 3 plies: White's ply of move 2 is next
    assert "1. 11-15 22-18 2. 15x22 *" in path.read_text()
    key(app, pygame.K_n)
    assert scene.confirm is not None  # an unfinished game: New game asks first
    click_at(app, scene.confirm[0].confirm_button.get_abs_rect().center)
    frames(app, 2)
    assert scene.record.ply == 0
    assert tools(scene).load_pdn(path)
    assert texts(scene) == ["11-15", "22-18", "15x22"] and "Loaded game.pdn" in scene.decision_html()
    key(app, pygame.K_u)  # the loaded game goes on: undo works on it
    assert scene.record.ply == 2


def test_malformed_pdn_keeps_the_game_and_shows_the_error(app: App, tmp_path: Path) -> None:
    scene = start(app)
    click_sq(app, scene, 9)
    click_sq(app, scene, 14)
    before = (scene.record.match_id, list(scene.record.moves))
    bad = tmp_path / "bad.pdn"
    bad.write_text('[Event "x"]\n\n1. 11-15 24-20\n2. 15-19 20x11 *\n')
    assert not tools(scene).load_pdn(bad)
    assert (scene.record.match_id, scene.record.moves) == before
    html = scene.decision_html()
    assert "line 4, column" in html and "current game is kept" in html
    assert not tools(scene).load_pdn(tmp_path / "missing.pdn")
    assert (scene.record.match_id, scene.record.moves) == before


def test_pasting_a_malformed_fen_keeps_the_game(app: App) -> None:
    scene = start(app)
    click_sq(app, scene, 9)
    click_sq(app, scene, 14)
    before = (scene.record.match_id, list(scene.record.moves))
    pygame.scrap.put_text("B:W99,22:Bq")
    key(app, pygame.K_v)
    assert scene.confirm is not None  # an unfinished game: Paste FEN asks first
    click_at(app, scene.confirm[0].confirm_button.get_abs_rect().center)
    frames(app, 2)
    assert (scene.record.match_id, scene.record.moves) == before
    assert "Not a position" in scene.decision_html() and "kept" in scene.decision_html()
    # A good FEN from the clipboard sets the position up; copy puts the current one back.
    pygame.scrap.put_text(DOUBLE)
    key(app, pygame.K_v)
    click_at(app, scene.confirm[0].confirm_button.get_abs_rect().center)
    frames(app, 2)
    assert format_fen(scene.record.state) == format_fen(parse_fen(DOUBLE)) and scene.record.ply == 0
    key(app, pygame.K_c)
    assert pygame.scrap.get_text() == format_fen(parse_fen(DOUBLE))


def test_fen_dialog_when_no_clipboard(app: App) -> None:
    scene = start(app)
    t = tools(scene)
    t.use_clipboard = False
    key(app, pygame.K_v)
    assert t.modal and t.text_entry is not None and t.ok_button is not None
    t.text_entry.set_text("not a fen")
    click_at(app, t.ok_button.get_abs_rect().center)
    assert not t.modal and scene.record.state == GAME.initial_state()
    assert "Not a position" in scene.decision_html()
    key(app, pygame.K_v)
    key(app, pygame.K_ESCAPE)  # Esc closes the dialog, the match stays
    assert not t.modal and app.scene is scene


# ----- the AI and the screen ----------------------------------------------------------------------------------------
def test_state_drawn_is_unchanged_during_search(app: App) -> None:
    gate = threading.Event()
    ai = GatedAgent(gate)
    scene = start(app, "human", ai)
    click_sq(app, scene, 11)
    click_sq(app, scene, 15)
    pump(app, lambda: len(ai.calls) == 1)
    drawn: list[tuple[int, int, int, int]] = []
    original = scene.view.draw

    def spy(surface: pygame.Surface, rect: pygame.Rect, state: Any, view: Any) -> None:
        drawn.append((state.black, state.white, state.kings, state.turn))
        original(surface, rect, state, view)

    scene.view.draw = spy  # type: ignore[method-assign]
    frames(app, 15)
    after = scene.record.state
    assert set(drawn) == {(after.black, after.white, after.kings, after.turn)} and len(drawn) == 15
    click_sq(app, scene, 10)  # clicks while the AI thinks are ignored
    assert scene.record.ply == 1
    gate.set()
    pump(app, lambda: scene.record.ply == 2)
    frames(app, 1)
    assert drawn[-1] != (after.black, after.white, after.kings, after.turn)


def test_ai_answers_a_human_move(app: App) -> None:
    scene = start(app, "human", make_agent("checkers", "easy"))
    click_sq(app, scene, 11)
    click_sq(app, scene, 15)
    pump(app, lambda: scene.record.ply == 2)
    assert texts(scene)[0] == "11-15"
    assert scene.last_decision is not None and scene.human_to_move()
    assert scene.record.moves[1] in GAME.actions(scene.record.states[1])
    before, after = scene.record.states[1], scene.record.state
    assert after.white != before.white and after.black == before.black  # White moved a man; no capture yet
    assert bin(after.white).count("1") == bin(before.white).count("1") == 12


def test_results_are_announced_with_the_reason(app: App) -> None:
    scene = start(app, fen="W:W32:B23,27,K28")  # White's only man is blocked: Black wins
    assert scene.result_text() == "Black wins: White cannot move"
    quiet = parse_fen("W:WK32:BK1")
    scene.load_game(CheckersState(quiet.black, quiet.white, quiet.kings, quiet.turn, quiet=80))
    assert scene.result_text() == "Draw: 40-move rule"
    frames(app, 2)
    assert scene.widget("banner").visible and "40-move rule" in scene.widget("banner").text
    scene.load_game(parse_fen("B:WK32:BK1"))
    for a, b in ((1, 5), (32, 28), (5, 1), (28, 32)) * 2:
        click_sq(app, scene, a)
        click_sq(app, scene, b)
    assert scene.result_text() == "Draw: threefold repetition"


@pytest.mark.parametrize(("size", "steps"), [((1920, 1080), 3), ((1280, 800), 1)])
def test_checkers_panel_keeps_the_moves_list_and_whole_labels(app: App, size: tuple[int, int], steps: int) -> None:
    from gameplay.ui.play import match_panel
    from gameplay.ui.widgets import projector
    app.resize(size)
    scene = app.start_match("checkers", "human", "medium")
    for _ in range(steps):
        app.zoom(1)
    app.run(max_frames=2)
    ui = scene.widgets  # type: ignore[attr-defined]
    # the move list keeps one line at least (more where the whole decision leaves room: tests/test_ui_decision_box)
    assert ui["moves"].rect.height >= projector.px(match_panel.MOVES_FLOOR_H) - 1
    for text in match_panel.decision_samples(scene):  # type: ignore[arg-type]
        ui["decision"].set_text(text)
        ui["decision"].rebuild()
        assert ui["decision"].scroll_bar is None, text
    panel = ui["panel"].rect
    buttons = [b for b, _ in scene.extra_buttons] + [ui[k] for k in ("new", "undo", "redo", "menu")]  # type: ignore[attr-defined]
    for b in buttons:
        assert "…" not in b.text and panel.contains(b.rect), b.text
    assert ui["moves"].rect.bottom <= min(b.rect.top for b in buttons)


@pytest.mark.parametrize("side", [160, 640])
def test_square_numbers_stay_inside_their_squares_or_are_left_out(app: App, side: int) -> None:
    """The title screen's card draws the board about 160 px wide: numbers at their smallest readable size would
    spill over the next squares and out of the board (a new user's finding), so a square too small gets none."""
    from gameplay.ui.boards.board import ViewState
    game = Checkers()
    rect = pygame.Rect(20, 20, side, side)

    def drawn(numbers: bool) -> pygame.Surface:
        surface = pygame.Surface((side + 40, side + 40))
        surface.fill((1, 2, 3))
        view = CheckersView(game)
        view.show_numbers = numbers
        view.draw(surface, rect, game.initial_state(), ViewState())
        return surface
    with_numbers, without = drawn(True), drawn(False)
    same = pygame.image.tobytes(with_numbers, "RGB") == pygame.image.tobytes(without, "RGB")
    assert same is (side == 160)  # the card: no numbers; a playing board: numbers


def test_square_numbers_read_on_white_men(app: App) -> None:
    """The square numbers are light digits in each dark square's top-left corner; on a white man they vanished into
    its light rim ("32" read "3", issue 47). Over a piece each number now has a dark backing: the pixels the
    number changes hold both the light digits and a dark ground, on a white man as on a black one and on an empty
    square."""
    from gameplay.ui.boards.board import ViewState
    game = Checkers()
    side = 640
    rect = pygame.Rect(20, 20, side, side)

    def drawn(numbers: bool) -> pygame.Surface:
        surface = pygame.Surface((side + 40, side + 40))
        view = CheckersView(game)
        view.show_numbers = numbers
        view.draw(surface, rect, game.initial_state(), ViewState())
        return surface

    with_numbers, without = drawn(True), drawn(False)
    view = CheckersView(game)
    cell = abs(view.square_centre(rect, 32)[0] - view.square_centre(rect, 31)[0]) / 2
    for square in (32, 21, 1, 17):  # white men, a black man, an empty square
        cx, cy = view.square_centre(rect, square)
        x0, y0 = round(cx - cell / 2), round(cy - cell / 2)
        light = dark = 0
        for x in range(x0, x0 + round(cell / 2)):
            for y in range(y0, y0 + round(cell / 2)):
                a, b = with_numbers.get_at((x, y)), without.get_at((x, y))
                if a == b:
                    continue
                lum = 0.299 * a.r + 0.587 * a.g + 0.114 * a.b
                light += lum > 170
                dark += lum < 90
        assert light > 8, (square, light)  # the digits
        if square != 17:  # over a piece: the backing, darker than the board's dark square
            assert dark > 8 * light, (square, dark, light)
