"""After Resume, T shows the last AI decision's tree as it was before the save (issue 47, "Keys and state").

A match is played to an AI move (alpha-beta and MCTS), saved (the autosave and a named save), and resumed in a new
App; T then shows the same tree (equal node for node, positions included), the same words (every string the tree
view draws, the narration of every step) and the side panel names the same decision. An older save (no record),
a damaged record, a tree over the cap and undo after a resume each say the truth in the tree view. Headless
(SDL's dummy driver), synthetic key events through the App.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pygame
import pytest
from ui_driver import key, overlay_texts, pump

from ai.agents.agents import make_agent
from ai.teaching import decision_file
from ai.teaching.mcts_record import MCTSTrace
from gameplay.files import autosave, savegame
from gameplay.ui.overlay.overlay_draw import NO_TREE
from gameplay.ui.play import decision_store
from gameplay.ui.play.match import MatchScene
from gameplay.ui.play.match_panel import decision_text, player_label
from gameplay.ui.play.resume import open_saved_game
from gameplay.ui.scenes.menu import MenuScene

pytestmark = pytest.mark.usefixtures("data_dir")


def started(make_app: Callable[..., Any], game: str, spec: str) -> tuple[Any, MatchScene]:
    app = make_app()
    app.push(MenuScene())
    scene = app.start_match(game, make_agent(game, "human"), make_agent(game, spec))
    scene.ai_delay_s = 0.0
    app.run(max_frames=2)
    return app, scene


def ai_replies(app: Any, scene: MatchScene, human_moves: int = 1) -> None:
    """The person plays the first legal move (Pig: rolls a 3 and holds), the AI replies, ``human_moves`` times;
    then the autosave holds the last decision with its tree (written on a thread)."""
    for _ in range(human_moves):
        if scene.game_name == "pig":
            for move, by in (("roll", "human"), (3, "chance"), ("hold", "human")):
                assert scene.play(move, by)
        else:
            assert scene.play(scene.game.actions(scene.record.state)[0], "human")
        pump(app, lambda: scene.human_to_move() and scene.overlay.tree is not None, timeout_s=120,
             frames_per_step=2)  # the die rolls after its delay: the clock must move
    pump(app, lambda: _autosaved_tree(scene), timeout_s=60)


def _autosaved_tree(scene: MatchScene) -> bool:
    slot = scene.aids.autosave_slot
    if slot is None or not slot.exists():
        return False
    saved = savegame.load_game(slot)
    return saved.ply == scene.record.ply and isinstance(saved.decision, dict) and "tree" in saved.decision


def _counted(scene: MatchScene) -> None:
    """Wait for the minimax count (a thread) so the drawn words do not depend on its timing."""
    info = scene.overlay.info
    mm = getattr(info, "minimax", None)
    if mm is not None and mm.thread is not None:
        mm.thread.join(60)


def what_t_shows(app: Any, scene: MatchScene, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Press T; everything the tree view shows, then close it."""
    key(app, pygame.K_t)
    ov = scene.overlay
    assert ov.visible
    out: dict[str, Any] = {"tree": ov.tree, "header": ov.no_tree_message}
    if ov.tree is None:
        key(app, pygame.K_t)
        return out
    _counted(scene)
    if isinstance(ov.tree, MCTSTrace):
        out["title"] = ov.info.title
        out["sentences"] = [ov.tree.narrate(k) for k in range(1, len(ov.tree.simulations) + 1)]
    else:
        info = ov.info
        out["words"] = (info.title, info.notes, info.headline, info.counts, info.depth,
                        {k: v for k, v in info.summary.items()})
        out["sentences"] = [s.text for s in ov.narrated()]
        out["drawn"] = overlay_texts(ov, monkeypatch)
    player, move, res = scene.last_decision or (0, "", None)
    out["panel"] = decision_text(player_label(scene.game, player), move, res) if res is not None else None
    out["decision"] = scene.last_decision
    key(app, pygame.K_t)
    return out


def _resume_autosave(make_app: Callable[..., Any]) -> tuple[Any, MatchScene]:
    app = make_app()
    app.push(MenuScene())
    app.run(max_frames=2)
    prompt = app.offer_autosave()
    assert prompt is not None
    scene = app.resume_autosave(prompt.saved)
    assert isinstance(scene, MatchScene)
    app.run(max_frames=2)
    pump(app, lambda: scene.reading_tree is None, timeout_s=60)  # the saved tree is read on a thread
    return app, scene


@pytest.mark.parametrize(("game", "spec"), [("tictactoe", "medium"), ("checkers", "alphabeta:depth=4,book=off"),
                                            ("pig", "expectimax:depth=3")])
def test_resume_shows_the_same_minimax_tree(make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch,
                                            game: str, spec: str) -> None:
    app, scene = started(make_app, game, spec)
    ai_replies(app, scene)
    before = what_t_shows(app, scene, monkeypatch)
    assert before["tree"] is not None and before["drawn"]
    ply = scene.record.ply
    app.close()
    app2, resumed = _resume_autosave(make_app)
    assert resumed.record.ply == ply
    after = what_t_shows(app2, resumed, monkeypatch)
    assert after["tree"] is not before["tree"]  # read back from the file, not kept in memory
    assert after["tree"] == before["tree"]  # node for node: values, windows, passes, moves, positions
    for k in ("words", "sentences", "drawn", "panel", "decision"):
        assert after[k] == before[k], k


def test_resume_shows_the_same_monte_carlo_tree(make_app: Callable[..., Any],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    app, scene = started(make_app, "connect4", "mcts:simulations=400,seed=3")
    ai_replies(app, scene)
    before = what_t_shows(app, scene, monkeypatch)
    assert isinstance(before["tree"], MCTSTrace) and len(before["tree"].simulations) == 400
    app.close()
    app2, resumed = _resume_autosave(make_app)
    after = what_t_shows(app2, resumed, monkeypatch)
    assert isinstance(after["tree"], MCTSTrace) and after["tree"] is not before["tree"]
    assert after["tree"] == before["tree"]
    for k in ("title", "sentences", "panel", "decision"):
        assert after[k] == before[k], k


def test_a_named_save_keeps_the_tree(make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch,
                                     tmp_path: Path) -> None:
    app, scene = started(make_app, "tictactoe", "alphabeta:depth=5")
    scene.play(4, "human")
    pump(app, lambda: scene.record.ply == 2 and scene.overlay.tree is not None, timeout_s=60)
    path = tmp_path / "my game.json"
    assert scene.aids.save_to(path)  # waits for the tree to be written
    assert "tree" in json.loads(path.read_text())["decision"]
    before = what_t_shows(app, scene, monkeypatch)
    app.close()
    app2 = make_app()
    app2.push(MenuScene())
    resumed = open_saved_game(app2, savegame.load_game(path))
    assert isinstance(resumed, MatchScene)
    app2.run(max_frames=2)
    pump(app2, lambda: resumed.reading_tree is None, timeout_s=60)
    after = what_t_shows(app2, resumed, monkeypatch)
    assert after["tree"] == before["tree"] and after["drawn"] == before["drawn"]


def test_an_older_save_says_the_tree_was_not_saved(make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch,
                                                   data_dir: Path) -> None:
    # an older version's autosave: a person (X) against medium, the AI's reply in the moves, no record
    autosave.write_autosave(savegame.SavedGame("tictactoe", ".........", ("4", "0"), ("human", "medium"),
                                               "2025-01-31T12:00:00"), data_dir)
    app, scene = _resume_autosave(make_app)
    assert scene.record.ply == 2 and scene.last_decision is None
    shown = what_t_shows(app, scene, monkeypatch)
    assert shown["tree"] is None
    assert shown["header"] == decision_store.NOT_SAVED
    assert shown["header"][0] != NO_TREE[0]


def test_a_game_no_ai_moved_in_still_says_no_decision_yet(make_app: Callable[..., Any],
                                                          monkeypatch: pytest.MonkeyPatch, data_dir: Path) -> None:
    autosave.write_autosave(savegame.SavedGame("tictactoe", ".........", ("4",), ("human", "medium"),
                                               "2025-01-31T12:00:00"), data_dir)
    app, scene = _resume_autosave(make_app)
    assert what_t_shows(app, scene, monkeypatch)["header"] is None  # the overlay's own "No AI decision yet"


def damaged(record: dict[str, Any], how: str) -> Any:
    if how == "data":  # the tree's bytes changed: not zlib any more
        tree = dict(record["tree"], data="A" * 40 + record["tree"]["data"][40:])
        return dict(record, tree=tree)
    if how == "rows":  # valid zlib and JSON, nodes of the wrong shape
        import base64
        import zlib
        doc = json.loads(zlib.decompress(base64.b64decode(record["tree"]["data"])))
        doc["nodes"][1] = ["not", "a", "node"]
        data = base64.b64encode(zlib.compress(json.dumps(doc).encode())).decode()
        return dict(record, tree=dict(record["tree"], data=data))
    if how == "move":  # a record of another move at that ply
        return dict(record, move="8")
    return 42  # not even an object


@pytest.mark.parametrize("how", ["data", "rows", "move", "junk"])
def test_a_damaged_record_resumes_the_game_and_says_the_tree_could_not_be_read(
        make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    app, scene = started(make_app, "tictactoe", "alphabeta:depth=5")
    ai_replies(app, scene)
    slot = scene.aids.autosave_slot
    assert slot is not None
    moves = scene.record.moves
    app.close()
    saved = savegame.load_game(slot)
    bad = savegame.SavedGame(saved.game, saved.start, saved.moves, saved.agents, saved.saved_at,
                             sides=saved.sides, decision=damaged(saved.decision, how))
    autosave.write_autosave(bad, path=slot)
    app2, resumed = _resume_autosave(make_app)
    assert resumed.record.moves == moves  # nothing of the game is lost
    shown = what_t_shows(app2, resumed, monkeypatch)
    assert shown["tree"] is None and shown["header"] is not None
    assert shown["header"][0] == "The tree of the AI's last move could not be read"
    assert "could not be read" in (resumed.notice or ("", False))[0]
    if how in ("data", "rows"):  # the decision's words were readable: the panel still names it
        assert resumed.last_decision is not None and resumed.last_decision[1] == saved.decision["move"]


def test_a_tree_over_the_cap_is_left_out_and_said(make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
                                                  ) -> None:
    monkeypatch.setattr(decision_file, "MAX_TREE_BYTES", 64)
    app, scene = started(make_app, "tictactoe", "alphabeta:depth=5")
    scene.play(4, "human")
    pump(app, lambda: scene.record.ply == 2 and scene.overlay.tree is not None, timeout_s=60)
    slot = scene.aids.autosave_slot
    pump(app, lambda: slot is not None and "tree_left_out" in (savegame.load_game(slot).decision or {}),
         timeout_s=60)
    app.close()
    app2, resumed = _resume_autosave(make_app)
    shown = what_t_shows(app2, resumed, monkeypatch)
    assert shown["tree"] is None and shown["header"][0] == decision_store.NOT_SAVED[0]
    assert "too large" in shown["header"][1][0]
    assert resumed.last_decision is not None  # the words were kept
    assert "too large" in (resumed.notice or ("", False))[0]


def test_undo_after_resume_does_not_show_the_restored_tree_as_current(
        make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch) -> None:
    app, scene = started(make_app, "tictactoe", "alphabeta:depth=5")
    ai_replies(app, scene, human_moves=2)  # X, O (AI), X, O (AI): the save keeps the second AI decision
    assert scene.record.ply == 4
    before = what_t_shows(app, scene, monkeypatch)
    app.close()
    app2, resumed = _resume_autosave(make_app)
    assert what_t_shows(app2, resumed, monkeypatch)["tree"] == before["tree"]
    assert resumed.undo() == 2  # back to the person's move: the AI's reply (ply 4) is undone
    shown = what_t_shows(app2, resumed, monkeypatch)
    # as the window does for a live decision, the tree view shows the AI move before it: its tree was not saved
    assert shown["tree"] is None and shown["header"] == decision_store.NOT_SAVED
    assert resumed.last_decision is None
    # the side panel says the same of that AI move, not "No AI move yet" (the AI did move)
    assert "The AI&#x27;s last move was not saved with this game" in resumed.decision_html()
    assert resumed.undo() == 2  # nothing the AI played is left
    assert what_t_shows(app2, resumed, monkeypatch)["header"] is None  # "No AI decision yet", as in a new game
    assert "No AI move yet" in resumed.decision_html()
    resumed.redo()
    resumed.redo()
    again = what_t_shows(app2, resumed, monkeypatch)
    assert again["tree"] == before["tree"] and again["decision"] == before["decision"]  # redo brings it back


def test_a_resumed_proof_shows_its_tests_not_a_missing_tree(make_app: Callable[..., Any],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # a move the exact solver proved never had a tree: after Resume the tree view says so with the solver's
    # null-window tests, as before the save, not that a tree was not saved (depth 42 and no time budget: the
    # solver always finishes, however busy the machine)
    app, scene = started(make_app, "connect4", "alphabeta:exact=on,depth=42")
    scene.load_game(scene.game.parse_position("2777715577451314"))
    assert scene.play(4, "human")  # Yellow (the AI) is to move at 27777155774513144 and proves a win in 21
    pump(app, lambda: scene.last_decision is not None and scene.human_to_move(), timeout_s=120)
    pump(app, lambda: (savegame.load_game(scene.aids.autosave_slot).ply == scene.record.ply
                       if scene.aids.autosave_slot is not None and scene.aids.autosave_slot.exists() else False),
         timeout_s=60)
    before = what_t_shows(app, scene, monkeypatch)
    assert before["tree"] is None and before["header"].title == "Yellow played 3: win in 21, proved by the exact solver"
    assert len(before["header"].lines) == 6
    app.close()
    app2, resumed = _resume_autosave(make_app)
    after = what_t_shows(app2, resumed, monkeypatch)
    assert after["tree"] is None and after["header"] == before["header"]
    assert after["header"] != decision_store.NOT_SAVED
