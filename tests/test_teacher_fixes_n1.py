"""A teacher's faults: bounds told as bounds in the narration, plain alpha-beta in the window's settings, a clear
Tree Lab message for bad JSON that overlaps nothing, and expectimax's counters in its own words."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import json
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pygame
import pygame_gui
import pytest

from ai.agents import make_agent
from ai.decision_tree import iteration_words, record_decision_model
from ai.narration import Narrator, narration
from ai.recording import MAX, MIN, SearchTree
from ai.trace import step_events
from ai.treelab import parse_tree_agent, search_tree
from gameplay.files import savegame
from gameplay.files import settings as st
from gameplay.files.settings import SideSettings, build_side_agent, side_spec
from gameplay.rules.trees import parse_tree
from gameplay.ui import overlay_draw
from gameplay.ui.app import App
from gameplay.ui.match import MatchScene
from gameplay.ui.menu import MenuScene
from gameplay.ui.overlay import TreeOverlay, make_recorder, show_decision
from gameplay.ui.settings_scene import ENHANCEMENTS_TEXT, SettingsScene


# ----- 1: bounds in the narration -----------------------------------------------------------------------------------
def game_tree(game: str, position: str | None, agent: str) -> SearchTree:
    _, _, result, rec = record_decision_model(game, position, agent)
    return rec.snapshot(tuple(result.pv))


_BACKED = re.compile(r"^(?P<who>.+?) = (?P<f>max|min)\((?P<terms>.*?)\) = (?P<result>.+?)(?:,| \(|;|:|\.$|$)")


def _check_backed_up_sentences(tree: SearchTree) -> int:
    """Every backed-up sentence lists its children's labels and states an exact value only for an exact node."""
    narrator = Narrator(tree)
    s = narrator.sentences()
    leave_of = {e.node: i for i, e in enumerate(step_events(tree)) if e.leaving}
    checked = 0
    for n in tree.nodes:
        kids = narrator.searched(n)
        if n.kind not in (MAX, MIN) or n.id in narrator.null or n.note in ("tt", "memo", "repetition"):
            continue
        if len(kids) < 2 and not (kids and n.skipped):
            continue
        text = s[leave_of[n.id]]
        m = _BACKED.match(text)
        assert m, text
        want = [c.label() for c in kids] + (["..."] if n.skipped else [])
        assert m["terms"].split(", ") == want, text
        if n.exact:
            assert m["result"] == n.label(), text
        else:
            assert m["result"].startswith(("at least ", "at most ", "between ")), text
        checked += 1
    return checked


@pytest.mark.parametrize("game,position,agent", [
    ("tictactoe", "X...O....", "alphabeta:depth=2"),
    ("tictactoe", None, "medium"),
    ("checkers", None, "alphabeta:depth=3"),
])
def test_backed_up_values_write_bounds_as_bounds(game: str, position: str | None, agent: str) -> None:
    tree = game_tree(game, position, agent)
    assert any(not n.exact for n in tree.nodes)  # the search proved bounds somewhere
    assert _check_backed_up_sentences(tree) > 0
    last = narration(tree)[-1]
    root = tree.nodes[0]
    assert root.exact and f") = {root.label()}, " in last
    assert "<= " in last.split(" = max(")[1].split(") = ")[0]  # cut-off children: upper bounds, written so


def test_the_teachers_position_reads_as_the_tree_shows_it() -> None:
    tree = game_tree("tictactoe", "X...O....", "alphabeta:depth=2")
    root = tree.nodes[0]
    kids = [c for c in tree.nodes if c.parent == 0]
    labels = ", ".join(c.label() for c in kids if c.id not in Narrator(tree).retried)
    assert narration(tree)[-1].startswith(f"Root (MAX) = max({labels}) = {root.label()}, ")
    assert any(c.label().startswith("<= ") for c in kids)


def test_cut_off_node_says_at_least_not_equals() -> None:
    root = parse_tree("[[[2,3],[5,9]],[[0,1],[7,5]]]")
    tree = search_tree(root, parse_tree_agent("alphabeta")).tree
    s = narration(tree, root)
    assert any(x.startswith("E (MAX) = max(5, ...) = at least 5 (its other child was pruned)") for x in s)
    assert any(x.startswith("C (MIN) = min(1, ...) = at most 1 (its other child was pruned)") for x in s)
    assert any(x.startswith("B (MIN) = min(3, >= 5) = 3,") for x in s)
    assert s[-1].startswith("A (MAX) = max(3, <= 1) = 3,")
    uni = narration(tree, root, symbols="unicode")
    assert uni[-1].startswith("A (MAX) = max(3, ≤ 1) = 3,")
    assert _check_backed_up_sentences(tree) == 6  # D, E, B, F, C and A


def test_minimax_sentences_are_unchanged() -> None:
    root = parse_tree("[[[2,3],[5,9]],[[0,1],[7,5]]]")
    s = narration(search_tree(root, parse_tree_agent("minimax")).tree, root)
    assert s[-1].startswith("A (MAX) = max(3, 1) = 3")  # every value exact: no bound is written
    assert not any("at least" in x or "at most" in x for x in s)


# ----- 2: plain alpha-beta in the settings --------------------------------------------------------------------------
PLAIN = SideSettings(agent="custom", algorithm="alphabeta", depth=3, time=None, enhancements=False)


def test_enhancements_round_trip_through_toml(tmp_path: Path) -> None:
    s = st.Settings()
    s.game("checkers").sides[1] = PLAIN
    s.game("tictactoe").sides[1] = SideSettings(agent="custom", algorithm="alphabeta", depth=4)
    path = st.save_settings(s, tmp_path / "settings.toml")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data["games"]["checkers"]["p2"]["enhancements"] is False
    assert data["games"]["tictactoe"]["p2"]["enhancements"] is True
    back = st.load_settings(path)
    assert back.message is None and back.settings == s
    assert back.settings.side("checkers", 1).enhancements is False
    # an older file without the key: enhancements on, as before
    del data["games"]["checkers"]["p2"]["enhancements"]
    import tomli_w
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    assert st.load_settings(path).settings.side("checkers", 1).enhancements is True
    # a bad value is refused by name
    data["games"]["checkers"]["p2"]["enhancements"] = "maybe"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    res = st.load_settings(path)
    assert "games.checkers.p2.enhancements" in dict(res.problems)


@pytest.mark.parametrize("game", ["tictactoe", "checkers"])
def test_plain_alphabeta_has_no_ordering_table_or_pvs(game: str) -> None:
    side = PLAIN
    assert side_spec(game, side) == "alphabeta:depth=3,prune=ge,ordering=off,tt=off,quiescence=off"
    agent = build_side_agent(game, side)
    s = agent.settings
    assert (s.ordering, s.tt, s.quiescence) == (False, False, False)
    searcher = agent.make_searcher()  # type: ignore[attr-defined]
    assert not searcher.pvs and searcher.tt is None and not searcher.ordering and not searcher.quiescence
    on = build_side_agent(game, SideSettings(agent="custom", algorithm="alphabeta", depth=3))
    assert on.make_searcher().pvs and on.settings.ordering and on.settings.tt  # type: ignore[attr-defined]
    # AIMA's ALPHA-BETA-SEARCH: minimax's value, each move searched once (no null-window test, no re-search)
    state = agent.game.initial_state()
    rec = make_recorder(agent.game, agent, state)
    res = agent.choose(state, recorder=rec)
    mm = make_agent(game, "minimax:depth=3").choose(state)
    assert res.value == mm.value
    assert rec is not None
    tree = rec.snapshot(res.pv)
    for n in tree.nodes:
        moves = [tree.nodes[k].move for k in n.children]
        assert len(moves) == len(set(moves)), n.id
    assert not Narrator(tree).null and not any("null window" in x for x in narration(tree))


def test_plain_alphabeta_survives_the_autosave(tmp_path: Path) -> None:
    game = "checkers"
    agent = build_side_agent(game, PLAIN)
    g = agent.game
    saved = savegame.from_record(game, g, g.initial_state(), [], [make_agent(game, "human"), agent])
    path = savegame.write_autosave(saved, tmp_path)
    loaded = savegame.load_game(path)
    assert loaded.sides[1] is not None and loaded.sides[1]["ordering"] is False
    back, notes = savegame.restore_agent(game, loaded.agents[1], loaded.sides[1])
    assert not notes
    s = back.settings
    assert (s.algorithm, s.depth, s.ordering, s.tt, s.quiescence) == ("alphabeta", 3, False, False, False)
    assert not back.make_searcher().pvs


@pytest.fixture
def app() -> Iterator[App]:
    a = App(size=(1280, 800), fps=1000)
    a.push(MenuScene())
    a.run(max_frames=2)
    yield a
    a.close()


def _click(app: App, widget: object) -> None:
    pos = widget.get_abs_rect().center  # type: ignore[attr-defined]
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.run(max_frames=3)


def test_settings_panel_toggles_the_enhancements(app: App) -> None:
    app.open_settings("checkers")
    app.run(max_frames=2)
    panel = app.scene
    assert isinstance(panel, SettingsScene)
    ui = panel._ui
    assert not ui["enh0"].is_enabled  # a person plays Black: nothing to search
    button = ui["enh1"]  # White plays Medium (alpha-beta): the toggle is there, on
    assert button.is_enabled and button.text == ENHANCEMENTS_TEXT[True]
    assert "ALPHA-BETA-SEARCH" in button.tool_tip_text and "minimax" in button.tool_tip_text
    _click(app, button)
    side = panel.side(1)
    assert side.agent == "custom" and side.enhancements is False  # the preset opened as a custom agent
    assert panel._ui["enh1"].text == ENHANCEMENTS_TEXT[False]
    assert panel._ui["status1"].text.startswith("Plays: plain alpha-beta")
    _click(app, panel._ui["enh1"])
    assert panel.side(1).enhancements is True and panel._ui["enh1"].text == ENHANCEMENTS_TEXT[True]
    _click(app, panel._ui["enh1"])
    _click(app, panel._ui["save"])
    assert isinstance(app.scene, MenuScene)
    assert app.settings.side("checkers", 1).enhancements is False
    assert st.load_settings().settings.side("checkers", 1).enhancements is False  # written to the file
    app.start_match("checkers", make_agent("checkers", "human"), build_side_agent("checkers",
                                                                                  app.settings.side("checkers", 1)))
    match = app.scene
    assert isinstance(match, MatchScene)
    s = match.agents[1].settings
    assert (s.ordering, s.tt, s.quiescence) == (False, False, False)


def test_enhancements_toggle_only_for_alpha_beta(app: App) -> None:
    app.open_settings("checkers")
    app.run(max_frames=2)
    panel = app.scene
    assert isinstance(panel, SettingsScene)
    pygame.event.post(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, text="Minimax",
                                         selected_option_id="minimax", ui_element=panel._ui["algo1"]))
    app.run(max_frames=2)
    assert panel.side(1).algorithm == "minimax" and not panel._ui["enh1"].is_enabled


# ----- 3: the Tree Lab's bad JSON -----------------------------------------------------------------------------------
def _visible(w: object) -> bool:
    return bool(getattr(w, "visible", False))


@pytest.mark.parametrize("size", [(1280, 800), (1024, 700), (3000, 1000)])
def test_tree_lab_bad_json_is_explained_and_overlaps_nothing(size: tuple[int, int]) -> None:
    app = App(size=size, fps=1000)
    try:
        scene = app.open_tree_lab()
        app.run(max_frames=2)
        ui = scene._ui  # type: ignore[attr-defined]
        full = ui["counts"].rect.copy()
        bad = "[[3,12,8],x]"
        with pytest.raises(json.JSONDecodeError) as err:
            json.loads(bad)
        assert err.value.pos == 10
        ui["json"].set_text(bad)
        pygame.event.post(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=ui["apply"]))
        app.run(max_frames=3)
        ui = scene._ui  # type: ignore[attr-defined]
        message = scene.message  # type: ignore[attr-defined]
        assert message == ("The tree is not valid JSON (line 1, column 11): expected a list of subtrees like "
                           "[[3,12,8],[2,4,6]] or {\"chance\": [[p, subtree], ...]}")
        assert "Expecting value" not in message and "char 10" not in message
        box = ui["message"]
        assert _visible(box) and "not valid JSON" in box.html_text
        panel = ui["panel"].rect
        assert panel.contains(box.rect) and box.rect.bottom <= ui["menu"].rect.top
        for key in ("counts", "counts_label", "random", "set", "add", "remove", "selection", "json", "apply"):
            w = ui.get(key)
            if w is not None and _visible(w):
                assert not w.rect.colliderect(box.rect), (key, w.rect, box.rect)
        # the whole message fits (no scroll bar) when the panel has room for it
        if size[1] >= 800:
            assert box.scroll_bar is None or not box.scroll_bar.alive()
        # a good tree: the message goes, the counts come back whole
        scene.apply_json("[[3,12,8],[2,4,6]]")  # type: ignore[attr-defined]
        app.run(max_frames=2)
        ui = scene._ui  # type: ignore[attr-defined]
        assert not scene.message and not _visible(ui["message"])  # type: ignore[attr-defined]
        assert _visible(ui["counts"]) and ui["counts"].rect == full
    finally:
        app.close()


# ----- 4: expectimax's counters -------------------------------------------------------------------------------------
def test_iteration_words() -> None:
    assert iteration_words("alphabeta", 5) == "depth 5 iteration"
    assert iteration_words("expectimax", 1) == "depth 1: one decision"
    assert iteration_words("expectimax", 2) == "depth 2: two decisions"
    assert iteration_words("expectimax", 12) == "depth 12: 12 decisions"


def _drawn(ov: TreeOverlay, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    drawn: list[str] = []
    real = overlay_draw._text

    def spy(s: str) -> str:
        drawn.append(s)
        return real(s)

    monkeypatch.setattr(overlay_draw, "_text", spy)
    from gameplay.ui import projector
    projector.set_current(projector.Display())  # scale 1: the counter panel has its room beside the tree
    ov.set_rect(pygame.Rect(0, 0, 1400, 980))
    ov.show()
    ov.draw(pygame.Surface((1400, 980)))
    monkeypatch.setattr(overlay_draw, "_text", real)
    return drawn


@pytest.mark.parametrize("depth", [1, 2])
def test_expectimax_counters_read_naturally(monkeypatch: pytest.MonkeyPatch, depth: int) -> None:
    pygame.init()
    agent = make_agent("pig", f"expectimax:depth={depth}")
    game = agent.game
    state = game.parse_position("10,20,5,1")
    rec = make_recorder(game, agent, state)
    res = agent.choose(state, recorder=rec)
    ov = TreeOverlay()
    ov.set_rect(pygame.Rect(0, 0, 1400, 980))
    assert rec is not None and show_decision(ov, game, state, agent, res, rec, player_name="1",
                                             move_text=game.format_move(state, res.move))
    drawn = _drawn(ov, monkeypatch)
    words = "one decision" if depth == 1 else "two decisions"
    assert f"Nodes in this tree (depth {depth}: {words})" in drawn
    assert not any("(decisions)" in x or "iteration (" in x for x in drawn)
    assert not any(x.startswith("Plain minimax") for x in drawn)  # nothing to compare: expectimax prunes nothing
    assert not any(x.startswith("Table hits") for x in drawn)
    if ov.tree is not None and ov.tree.tt_hits:
        assert "Memo hits in this tree" in drawn


def test_alphabeta_counters_keep_the_minimax_comparison(monkeypatch: pytest.MonkeyPatch) -> None:
    pygame.init()
    agent = make_agent("tictactoe", "alphabeta:depth=2")
    game = agent.game
    state = game.initial_state()
    rec = make_recorder(game, agent, state)
    res = agent.choose(state, recorder=rec)
    ov = TreeOverlay()
    assert rec is not None and show_decision(ov, game, state, agent, res, rec, player_name="X",
                                             move_text=game.format_move(state, res.move))
    drawn = _drawn(ov, monkeypatch)
    assert "Nodes in this tree (depth 2 iteration)" in drawn
    assert any(x.startswith("Plain minimax, depth 2") for x in drawn)
