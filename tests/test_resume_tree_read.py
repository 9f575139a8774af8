"""A resumed game's saved tree is read on a background thread (issue 47 follow-up: the window never freezes).

The reader's executor is replaced by one the test holds back (:class:`HeldReader`): the read finishes only when the
test says, so each case is decided by events, never by timing. While it is held the window draws frames, the side
panel already names the decision, T opens on "Reading the tree of the AI's last move..." and fills in when the read
is let go (no second T), a damaged tree is said; undo, a newer AI decision and leaving the match keep a late read
from ever being shown as current; a save made meanwhile keeps the record as it was read.
Headless (SDL's dummy driver), synthetic key events through the App.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import pygame
import pytest
from test_resume_tree import ai_replies, damaged, started, what_t_shows
from ui_driver import key, pump

from gameplay.files import autosave, savegame
from gameplay.ui.play import decision_store
from gameplay.ui.play.match import MatchScene
from gameplay.ui.scenes.menu import MenuScene

pytestmark = pytest.mark.usefixtures("data_dir")


class HeldReader(Executor):
    """Holds every task back until :meth:`finish` (or lets it begin, :meth:`begin`, so it cannot be cancelled)."""

    def __init__(self) -> None:
        self.held: list[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        assert not kwargs
        future: Future[Any] = Future()
        self.held.append((future, fn, args))
        return future

    def begin(self) -> None:
        for future, _, _ in self.held:
            assert future.set_running_or_notify_cancel()

    def finish(self) -> int:
        """Run the held tasks now; returns how many ran (a cancelled one does not)."""
        ran = 0
        for future, fn, args in self.held:
            if not future.running() and not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args))
            except BaseException as e:  # noqa: BLE001 - handed to the future, as an executor does
                future.set_exception(e)
            ran += 1
        self.held = []
        return ran


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> HeldReader:
    """The reader every match made in the test uses (the default one, a daemon thread per read, replaced)."""
    reader = HeldReader()
    monkeypatch.setattr(decision_store, "DaemonThreads", lambda name: reader)
    return reader


def _saved_game(make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, human_moves: int = 1
                ) -> tuple[Path, dict[str, Any]]:
    """Play tic-tac-toe against alpha-beta to an AI move and close: the autosave's path and what T showed."""
    app, scene = started(make_app, "tictactoe", "alphabeta:depth=5")
    ai_replies(app, scene, human_moves)
    before = what_t_shows(app, scene, monkeypatch)
    slot = scene.aids.autosave_slot
    assert slot is not None and before["tree"] is not None
    app.close()
    return slot, before


def _resume(make_app: Callable[..., Any]) -> tuple[Any, MatchScene]:
    app = make_app()
    app.push(MenuScene())
    app.run(max_frames=2)
    prompt = app.offer_autosave()
    assert prompt is not None
    scene = app.resume_autosave(prompt.saved)
    assert isinstance(scene, MatchScene)
    app.run(max_frames=2)
    return app, scene


def test_the_window_draws_and_names_the_decision_while_the_tree_is_read(
        make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, held: HeldReader) -> None:
    _, before = _saved_game(make_app, monkeypatch)
    app, scene = _resume(make_app)
    assert scene.reading_tree == scene.record.ply and len(held.held) == 1
    assert scene.last_decision == before["decision"]  # the words are read at once: the panel names the move
    assert scene.busy()  # the App keeps stepping the scene, to install the tree when it is ready
    drawn = app.frames
    app.run(max_frames=30)
    assert app.frames == drawn + 30 and scene.reading_tree is not None  # 30 frames, the read still held back
    assert scene.overlay.tree is None and scene.overlay.no_tree_message == decision_store.READING


def test_t_before_the_tree_is_ready_says_so_and_fills_in(make_app: Callable[..., Any],
                                                         monkeypatch: pytest.MonkeyPatch, held: HeldReader) -> None:
    _, before = _saved_game(make_app, monkeypatch)
    app, scene = _resume(make_app)
    key(app, pygame.K_t)
    ov = scene.overlay
    assert ov.visible and ov.tree is None and ov.no_tree_message == decision_store.READING
    assert ov.no_tree_message[0] == "Reading the tree of the AI's last move..."
    assert held.finish() == 1
    app.run(max_frames=1)
    assert ov.visible and ov.tree is not None and ov.tree == before["tree"]  # no second T
    assert ov.no_tree_message is None and scene.reading_tree is None
    key(app, pygame.K_t)  # closed: T shows the same words as before the save
    after = what_t_shows(app, scene, monkeypatch)
    for k in ("tree", "words", "sentences", "drawn", "panel", "decision"):
        assert after[k] == before[k], k


def test_t_after_the_tree_is_ready_shows_it(make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch,
                                            held: HeldReader) -> None:
    _, before = _saved_game(make_app, monkeypatch)
    app, scene = _resume(make_app)
    held.finish()
    app.run(max_frames=1)
    assert not scene.overlay.visible and scene.reading_tree is None  # installed without opening the view
    assert what_t_shows(app, scene, monkeypatch)["tree"] == before["tree"]


@pytest.mark.parametrize("how", ["data", "rows"])
def test_a_tree_that_cannot_be_read_is_said_in_the_open_view_and_the_panel(
        make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, held: HeldReader, how: str) -> None:
    slot, before = _saved_game(make_app, monkeypatch)
    saved = savegame.load_game(slot)
    bad = savegame.SavedGame(saved.game, saved.start, saved.moves, saved.agents, saved.saved_at,
                             sides=saved.sides, decision=damaged(saved.decision, how))
    autosave.write_autosave(bad, path=slot)
    app, scene = _resume(make_app)
    assert scene.last_decision == before["decision"]  # the words read
    key(app, pygame.K_t)
    assert scene.overlay.no_tree_message == decision_store.READING
    assert "could not be read" not in (scene.notice or ("", False))[0]  # not known yet
    held.finish()
    app.run(max_frames=1)
    ov = scene.overlay
    assert ov.visible and ov.tree is None and ov.no_tree_message is not None
    assert ov.no_tree_message[0] == "The tree of the AI's last move could not be read"
    assert "damaged" in ov.no_tree_message[1][0]
    assert "Resumed your" in (scene.notice or ("", False))[0]  # the resume's own words are kept
    assert "could not be read" in (scene.notice or ("", False))[0]


def test_a_reader_that_fails_is_said_as_a_tree_that_could_not_be_read(
        make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, held: HeldReader) -> None:
    _saved_game(make_app, monkeypatch)
    app, scene = _resume(make_app)

    def fail(*args: Any) -> Any:
        raise MemoryError("no room")

    held.held = [(f, fail, a) for f, _, a in held.held]
    held.finish()
    app.run(max_frames=1)
    message = scene.overlay.no_tree_message
    assert message is not None and message[0] == "The tree of the AI's last move could not be read"
    assert "MemoryError: no room" in message[1][0] and scene.reading_tree is None


def test_undo_before_the_read_ends_never_shows_the_tree_as_current(
        make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, held: HeldReader) -> None:
    _, before = _saved_game(make_app, monkeypatch, human_moves=2)  # the save keeps the AI's move at ply 4
    app, scene = _resume(make_app)
    assert scene.reading_tree == 4
    assert scene.undo() == 2  # back before the saved decision's move
    key(app, pygame.K_t)
    held.finish()
    app.run(max_frames=2)
    ov = scene.overlay
    # the current position's AI move is the one at ply 2, whose tree the save does not hold
    assert ov.tree is None and ov.no_tree_message == decision_store.NOT_SAVED
    assert ov.visible  # the open view stayed as it was
    key(app, pygame.K_t)
    scene.redo()  # the read decision is the current one again: its tree, read meanwhile, is shown
    assert what_t_shows(app, scene, monkeypatch)["tree"] == before["tree"]


def test_a_new_move_after_undo_drops_the_read(make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch,
                                              held: HeldReader) -> None:
    _saved_game(make_app, monkeypatch, human_moves=2)
    app, scene = _resume(make_app)
    future = held.held[0][0]
    scene.undo()
    other = [m for m in scene.game.actions(scene.record.state) if m != scene.record.redo_stack[-1]][0]
    assert scene.play(other, "human")  # another move: the saved decision leaves the game's record
    assert scene.reading_tree is None and future.cancelled()
    assert held.finish() == 0  # never read


def test_a_newer_ai_decision_keeps_the_view_on_it(make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch,
                                                  held: HeldReader) -> None:
    _, before = _saved_game(make_app, monkeypatch)
    app, scene = _resume(make_app)
    scene.ai_delay_s = 0.0
    saved_ply = scene.record.ply
    held.begin()  # the read is under way: it cannot be cancelled any more
    assert scene.play(scene.game.actions(scene.record.state)[0], "human")
    pump(app, lambda: scene.record.ply == saved_ply + 2 and scene.overlay.tree is not None, timeout_s=60)
    newer = scene.overlay.tree
    key(app, pygame.K_t)
    held.finish()
    app.run(max_frames=2)
    assert scene.overlay.tree is newer and scene.overlay.visible and scene.reading_tree is None
    key(app, pygame.K_t)
    assert newer != before["tree"]
    scene.undo()  # back at the saved decision: its tree, read late, belongs to it
    assert what_t_shows(app, scene, monkeypatch)["tree"] == before["tree"]


@pytest.mark.parametrize("begun", [False, True])
def test_leaving_the_match_drops_the_read(make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch,
                                          held: HeldReader, begun: bool) -> None:
    _saved_game(make_app, monkeypatch)
    app, scene = _resume(make_app)
    future = held.held[0][0]
    if begun:
        held.begin()
    app.pop()  # back to the menu
    app.run(max_frames=2)
    assert scene.reading_tree is None
    assert future.cancelled() != begun
    assert held.finish() == int(begun)  # a read already under way ends, unseen
    app.run(max_frames=2)
    assert scene.overlay.tree is None and scene.reading_tree is None


def test_a_save_during_the_read_keeps_the_record(make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch,
                                                 held: HeldReader, tmp_path: Path) -> None:
    slot, _ = _saved_game(make_app, monkeypatch)
    record = savegame.load_game(slot).decision
    assert isinstance(record, dict) and "tree" in record
    app, scene = _resume(make_app)
    assert scene.reading_tree is not None
    path = tmp_path / "during the read.json"
    assert scene.aids.save_to(path)
    assert json.loads(path.read_text())["decision"] == record  # the tree too, as it was read
    app.run(max_frames=3)  # the autosave the resumed game goes on writing keeps it too
    assert savegame.load_game(slot).decision == record
    assert scene.reading_tree is not None and held.finish() == 1
