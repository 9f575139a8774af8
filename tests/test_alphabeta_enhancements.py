"""Plain alpha-beta (no move ordering, no PVS) as a side's setting: it round-trips through the settings file and the
autosave, the agent it builds has no ordering table, and the settings panel toggles the enhancements (alpha-beta
only). (The bounds the narration writes are in ``test_narration.py``, the Tree Lab's bad-JSON message in
``test_ui_treelab.py``.)"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pygame
import pygame_gui
import pytest

from ai.agents.agents import make_agent
from ai.teaching.narration import narration
from gameplay.files import autosave, savegame
from gameplay.files import settings as st
from gameplay.files import settings_file as sfile
from gameplay.files.settings import SideSettings
from gameplay.files.settings_agents import build_side_agent, side_spec
from gameplay.ui.overlay.overlay import make_recorder
from gameplay.ui.play.match import MatchScene
from gameplay.ui.scenes.menu import MenuScene
from gameplay.ui.scenes.settings_columns import ENHANCEMENTS_TEXT
from gameplay.ui.scenes.settings_scene import SettingsScene
from gameplay.ui.shell.app import App

pytestmark = pytest.mark.title_screen  # the app fixture opens on the title screen (conftest.py)

PLAIN = SideSettings(agent="custom", algorithm="alphabeta", depth=3, time_budget_s=None, enhancements=False)


def test_enhancements_round_trip_through_toml(tmp_path: Path) -> None:
    s = st.Settings()
    s.game("checkers").sides[1] = PLAIN
    s.game("tictactoe").sides[1] = SideSettings(agent="custom", algorithm="alphabeta", depth=4)
    path = sfile.save_settings(s, tmp_path / "settings.toml")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data["games"]["checkers"]["p2"]["enhancements"] is False
    assert data["games"]["tictactoe"]["p2"]["enhancements"] is True
    back = sfile.load_settings(path)
    assert back.message is None and back.settings == s
    assert back.settings.side("checkers", 1).enhancements is False
    # an older file without the key: enhancements on, as before
    del data["games"]["checkers"]["p2"]["enhancements"]
    import tomli_w
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    assert sfile.load_settings(path).settings.side("checkers", 1).enhancements is True
    # a bad value is refused by name
    data["games"]["checkers"]["p2"]["enhancements"] = "maybe"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    res = sfile.load_settings(path)
    assert "games.checkers.p2.enhancements" in dict(res.problems)


@pytest.mark.parametrize("game", ["tictactoe", "checkers"])
def test_plain_alphabeta_has_no_ordering_table_or_pvs(game: str) -> None:
    side = PLAIN
    assert side_spec(game, side) == "alphabeta:depth=3,prune=ge,ordering=off,tt=off,quiescence=off"
    agent = build_side_agent(game, side)
    s = agent.settings.search
    assert (s.ordering, s.tt, s.quiescence) == (False, False, False)
    searcher = agent.make_searcher()  # type: ignore[attr-defined]
    setup = searcher.setup
    assert not setup.pvs and searcher.tt is None and not setup.ordering and not setup.quiescence
    on = build_side_agent(game, SideSettings(agent="custom", algorithm="alphabeta", depth=3))
    assert on.make_searcher().setup.pvs and on.settings.search.ordering and on.settings.search.tt  # type: ignore[attr-defined]
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
    assert not any(n.passes for n in tree.nodes)  # no node searched twice
    assert not any("null window" in x for x in narration(tree))


def test_plain_alphabeta_survives_the_autosave(tmp_path: Path) -> None:
    game = "checkers"
    agent = build_side_agent(game, PLAIN)
    g = agent.game
    saved = savegame.from_record(game, g, g.initial_state(), [], [make_agent(game, "human"), agent])
    path = autosave.write_autosave(saved, tmp_path)
    loaded = savegame.load_game(path)
    assert loaded.sides[1] is not None and loaded.sides[1]["ordering"] is False
    back, notes = savegame.restore_agent(game, loaded.agents[1], loaded.sides[1])
    assert not notes
    s = back.settings
    assert (s.algorithm, s.depth, s.search.ordering, s.search.tt, s.search.quiescence) == ("alphabeta", 3, False, False,
                                                                                         False)
    assert not back.make_searcher().setup.pvs


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
    ui = panel.widgets
    assert not ui["enh0"].is_enabled  # a person plays Black: nothing to search
    button = ui["enh1"]  # White plays Medium (alpha-beta): the toggle is there, on
    assert button.is_enabled and button.text == ENHANCEMENTS_TEXT[True]
    assert "ALPHA-BETA-SEARCH" in button.tool_tip_text and "minimax" in button.tool_tip_text
    _click(app, button)
    side = panel.side(1)
    assert side.agent == "custom" and side.enhancements is False  # the preset opened as a custom agent
    assert panel.widget("enh1").text == ENHANCEMENTS_TEXT[False]
    assert panel.widget("status1").text.startswith("Plays: plain alpha-beta")
    _click(app, panel.widget("enh1"))
    assert panel.side(1).enhancements is True and panel.widget("enh1").text == ENHANCEMENTS_TEXT[True]
    _click(app, panel.widget("enh1"))
    _click(app, panel.widget("save"))
    assert isinstance(app.scene, MenuScene)
    assert app.settings.side("checkers", 1).enhancements is False
    assert sfile.load_settings().settings.side("checkers", 1).enhancements is False  # written to the file
    app.start_match("checkers", make_agent("checkers", "human"), build_side_agent("checkers",
                                                                                  app.settings.side("checkers", 1)))
    match = app.scene
    assert isinstance(match, MatchScene)
    s = match.agents[1].settings.search
    assert (s.ordering, s.tt, s.quiescence) == (False, False, False)


def test_enhancements_toggle_only_for_alpha_beta(app: App) -> None:
    app.open_settings("checkers")
    app.run(max_frames=2)
    panel = app.scene
    assert isinstance(panel, SettingsScene)
    pygame.event.post(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, text="Minimax",
                                         selected_option_id="minimax", ui_element=panel.widget("algo1")))
    app.run(max_frames=2)
    assert panel.side(1).algorithm == "minimax" and not panel.widget("enh1").is_enabled


def test_plain_alpha_beta_is_named_where_the_class_looks() -> None:
    """With "Search: Plain alpha-beta (AIMA)" nothing on screen said so (second teacher trial): the side's
    description and the tree's title name it."""
    from ai.teaching.decision_model import decision_info
    from ai.teaching.decision_tree import record_decision_model
    spec = "alphabeta:depth=3,ordering=off,tt=off,quiescence=off"
    agent = make_agent("tictactoe", spec)
    assert "plain" in agent.describe()
    assert "plain" not in make_agent("tictactoe", "alphabeta:depth=3").describe()
    game, state, res, rec = record_decision_model("tictactoe", None, spec)
    tree = rec.snapshot(tuple(res.pv))
    info = decision_info(game, state, agent, res, rec, tree, player_name="X", move_text="4")
    assert "plain alpha-beta" in info.title


def test_every_switch_and_the_clock_survive_the_autosave(tmp_path: Path) -> None:
    """A saved side keeps every on/off switch (``SWITCHES``: ``threats``, ``timeman`` ... too) and its clock; a bad
    clock is refused with a note and the spec's clock kept."""
    game = "checkers"
    agent = make_agent(game, "alphabeta:depth=3,threats=on,timeman=on,shots=on,clock=cpu,time=0.5")
    g = agent.game
    saved = savegame.from_record(game, g, g.initial_state(), [], [make_agent(game, "human"), agent])
    loaded = savegame.load_game(autosave.write_autosave(saved, tmp_path))
    assert loaded.sides[1] is not None
    back, notes = savegame.restore_agent(game, "alphabeta", loaded.sides[1])
    assert not notes
    assert back.settings == agent.settings
    back, notes = savegame.restore_agent(game, "alphabeta", dict(loaded.sides[1], clock="sundial"))
    assert back.settings.clock == "wall" and len(notes) == 1 and "expected wall or cpu" in notes[0]
