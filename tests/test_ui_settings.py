"""Headless tests of the title screen and the settings panel, driven with synthetic events (SDL dummy driver)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame
import pygame_gui
import pytest
from ui_driver import pump

from gameplay.files import settings as st
from gameplay.files import settings_file as sfile
from gameplay.rules import compiled
from gameplay.rules.registry import game_info
from gameplay.ui.play.match import MatchScene
from gameplay.ui.scenes.menu import MenuScene
from gameplay.ui.scenes.settings_columns import TIME_STEPS
from gameplay.ui.scenes.settings_scene import SettingsScene
from gameplay.ui.shell.app import App


# ----- helpers ------------------------------------------------------------------------------------------------------
def menu_app(make_app: Callable[..., App]) -> App:
    """A new window showing the title screen."""
    app = make_app()
    app.push(MenuScene())
    frames(app, 2)
    return app


@pytest.fixture
def app(make_app: Callable[..., App]) -> App:
    return menu_app(make_app)


def frames(app: App, n: int = 1) -> None:
    app.run(max_frames=n)


def key(app: App, k: int, mod: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0))
    frames(app, 2)


def click(app: App, widget: Any) -> None:
    pos = widget.get_abs_rect().center
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    frames(app, 3)


def choose(app: App, dropdown: Any, label: str, value: str) -> None:
    """Pick an option of a drop-down as pygame_gui announces it."""
    pygame.event.post(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, text=label, selected_option_id=value,
                                         ui_element=dropdown))
    frames(app, 2)


def type_into(app: App, entry: Any, text: str) -> None:
    """Click into a text field, erase it with Backspace and type ``text`` (TEXTINPUT events, as SDL sends)."""
    click(app, entry)
    for _ in range(len(entry.get_text()) + 2):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_END, mod=0, unicode="", scancode=0))
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode="", scancode=0))
    for ch in text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    frames(app, 3)


def settings_scene(app: App) -> SettingsScene:
    scene = app.scene
    assert isinstance(scene, SettingsScene)
    return scene


def test_a_tab_too_narrow_for_the_title_shows_the_short_title(app: App) -> None:
    """Five or more games share the tab row: a title that does not fit gives way to the record's short title."""
    from gameplay.ui.scenes.settings_scene import tab_label
    from gameplay.ui.widgets import projector
    m = app.manager
    title = projector.text_width(m, "English checkers", None, "button")
    assert tab_label(m, "checkers", title + projector.px(6)) == "English checkers"
    assert tab_label(m, "checkers", title) == "Checkers" == game_info("checkers").table_title
    assert tab_label(m, "pig", title) == "Pig"  # no short title: the title
    short = tab_label(m, "checkers", projector.px(40))
    assert short.endswith("\u2026") and projector.text_width(m, short, None, "button") <= projector.px(40) - 4


# ----- the title screen ---------------------------------------------------------------------------------------------
def test_title_screen_has_a_card_per_game_and_the_buttons(app: App) -> None:
    menu = app.scene
    assert isinstance(menu, MenuScene)
    for g in menu.games:
        for part in ("card", "name", "pic", "side0", "side1", "desc0", "desc1", "play"):
            assert f"{part}.{g}" in menu.widgets, (part, g)
        # the blurb on the card, or (no room beside the picture) in the Play button's tool tip
        assert f"blurb.{g}" in menu.widgets or game_info(g).blurb in menu.widget(f"play.{g}").tool_tip_text
    for b in ("settings", "treelab", "watch", "quit"):
        assert b in menu.widgets
    assert menu.sides == ["human", "medium"]
    # no settings file yet: nothing to report but how the search runs (the pure-Python notice, tested below)
    assert menu.message == ("" if compiled.all_compiled() else compiled.status_line())
    key(app, pygame.K_RIGHT)
    assert menu.game == menu.games[1] and menu.widget("start") is menu.widget(f"play.{menu.games[1]}")


def test_card_choice_is_saved_and_plays(app: App) -> None:
    menu = app.scene
    assert isinstance(menu, MenuScene)
    choose(app, menu.widget("side1.pig"), "Easy", "easy")
    assert app.settings.side("pig", 1).agent == "easy"
    assert "hold at 10" in menu.widget("desc1.pig").text  # Pig easy: the fixed rule (README, difficulty ladder)
    assert sfile.load_settings().settings.side("pig", 1).agent == "easy"  # written at once
    click(app, menu.widget("play.pig"))
    scene = app.scene
    assert isinstance(scene, MatchScene) and scene.game_name == "pig"
    assert scene.agents[0].is_human and scene.agents[1].settings.name == "easy"


def test_watch_ai_vs_ai(app: App) -> None:
    menu = app.scene
    assert isinstance(menu, MenuScene)
    click(app, menu.widget("watch"))
    scene = app.scene
    assert isinstance(scene, MatchScene) and not scene.has_human
    scene.ai_delay_s = 0.0  # the show's pace is for people; the test only needs to see a move
    ply = scene.record.ply
    pump(app, lambda: scene.record.ply > ply)  # the agents actually play
    assert not scene.has_human and app.scene is scene


def test_corrupt_settings_file_is_reported_on_the_title_screen(make_app: Callable[..., App]) -> None:
    path = sfile.settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("this is = = not toml", encoding="utf-8")
    app = menu_app(make_app)
    menu = app.scene
    assert isinstance(menu, MenuScene)
    assert "not valid TOML" in menu.message_shown()
    assert app.settings == st.Settings()
    assert [p.name for p in path.parent.iterdir() if p.name.startswith("settings.toml.bad-")]


# ----- the title screen's one-line messages: the build notice and a bad settings file -------------------------------
@pytest.fixture
def compiled_install(monkeypatch: pytest.MonkeyPatch) -> None:
    """The App as on an install that compiled the hot modules (whatever this checkout has)."""
    monkeypatch.setattr(compiled, "compiled_modules", lambda: dict.fromkeys(compiled.module_names(), True))


@pytest.fixture
def pure_install(monkeypatch: pytest.MonkeyPatch) -> None:
    """The App as on an install without a C compiler (README, "Install"): nothing compiled."""
    monkeypatch.setattr(compiled, "compiled_modules", lambda: dict.fromkeys(compiled.module_names(), False))
    monkeypatch.delenv("ARCADE_PURE", raising=False)


def message_lines(menu: MenuScene) -> list[str]:
    """The message under the buttons as shown: the text of its box (one item), none without a message."""
    return [menu.message_shown()] if menu.message_shown() else []


def settings_and_back(app: App) -> MenuScene:
    app.open_settings("tictactoe")
    frames(app, 2)
    key(app, pygame.K_ESCAPE)
    menu = app.scene
    assert isinstance(menu, MenuScene)
    return menu


@pytest.mark.usefixtures("compiled_install")
def test_compiled_install_title_screen_has_no_message(make_app: Callable[..., App]) -> None:
    app = menu_app(make_app)
    try:
        menu = app.scene
        assert isinstance(menu, MenuScene)
        assert menu.message == "" and message_lines(menu) == []
    finally:
        app.close()


@pytest.mark.usefixtures("pure_install")
@pytest.mark.parametrize("frozen", [False, True], ids=["checkout", "one-folder app"])
@pytest.mark.parametrize("size", [(1024, 768), (1280, 800)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_pure_install_title_screen_says_so_once_and_whole(frozen: bool, size: tuple[int, int],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    if frozen:
        monkeypatch.setattr("sys.frozen", True, raising=False)
    notice = compiled.status_line()
    assert notice.startswith("search: pure Python")
    assert notice.endswith(compiled.FROZEN_PURE_HINT if frozen else compiled.PURE_HINT)
    app = App(size=size, fps=1000)
    app.push(MenuScene())
    frames(app, 2)
    try:
        menu = app.scene
        assert isinstance(menu, MenuScene)
        assert menu.message == notice
        assert " ".join(message_lines(menu)) == notice  # wrapped, never cut: every word on the screen
        assert settings_and_back(app).message == notice  # it stays on this title screen
        app.push(MenuScene())  # a title screen made afresh (after a match started with `play`): said once
        frames(app, 2)
        assert isinstance(app.scene, MenuScene) and app.scene.message == ""
    finally:
        app.close()


@pytest.mark.usefixtures("pure_install")
def test_bad_settings_file_is_reported_first_then_the_build_notice(make_app: Callable[..., App]) -> None:
    path = sfile.settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("this is = = not toml", encoding="utf-8")
    app = menu_app(make_app)
    try:
        menu = app.scene
        assert isinstance(menu, MenuScene)
        assert "not valid TOML" in menu.message
        menu = settings_and_back(app)
        assert menu.message == compiled.status_line()  # not lost: shown the next time the title screen opens
    finally:
        app.close()


# ----- the settings panel -------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_settings_build_the_agent_of_the_match_and_persist(app: App, make_app: Callable[..., App]) -> None:
    menu = app.scene
    assert isinstance(menu, MenuScene)
    key(app, pygame.K_RIGHT)  # the checkers card
    click(app, menu.widget("settings"))
    panel = settings_scene(app)
    assert panel.game == "checkers"
    # Black: from human to a custom agent; depth 6 -> 8 with the slider's arrow; time 1 s -> 0.5 s
    choose(app, panel.widget("who0"), "Custom (settings)", "custom")
    assert panel.side(0).agent == "custom" and panel.widget("algo0").is_enabled
    for _ in range(2):
        click(app, panel.widget("depth0").right_button)
    assert panel.side(0).depth == 8 and panel.widget("depth_value0").text == "8 plies"
    for _ in range(2):
        click(app, panel.widget("time0").left_button)
    assert panel.side(0).time_budget_s == 0.5 == TIME_STEPS[4]
    # a weight that is not a number is refused, in the panel and by Save
    type_into(app, panel.widget("weight0.men"), "2e")
    assert "Cannot play" in panel.widget("status0").text and "men" in panel.widget("status0").text
    click(app, panel.widget("save"))
    assert app.scene is panel and "Not saved" in panel.widget("message").text
    type_into(app, panel.widget("weight0.men"), "250")
    assert panel.side(0).weights is not None and panel.side(0).weights["men"] == 250.0
    assert "Plays: alpha-beta, depth 8, 0.5 s" in panel.widget("status0").text
    choose(app, panel.widget("prune0"), "alpha > beta (strict)", "gt")
    assert app.settings.side("checkers", 0).agent == "human"  # nothing applied before Save
    click(app, panel.widget("save"))
    menu = app.scene
    assert isinstance(menu, MenuScene)
    assert menu.widget("side0.checkers").selected_option[1] == "custom"
    # the match is played by exactly these settings
    click(app, menu.widget("play.checkers"))
    match = app.scene
    assert isinstance(match, MatchScene)
    s = match.agents[0].settings
    assert (s.algorithm, s.depth, s.time_budget_s, s.search.prune) == ("alphabeta", 8, 0.5, "gt")
    assert s.custom_weights is not None and s.custom_weights["men"] == 250.0 and s.custom_weights["kings"] == 150.0
    assert match.agents[1].settings.name == "medium"
    app.close()
    # a new App (a restart) finds them again
    again = menu_app(make_app)
    try:
        side = again.settings.side("checkers", 0)
        assert (side.agent, side.algorithm, side.depth, side.time_budget_s, side.prune) \
            == ("custom", "alphabeta", 8, 0.5, "gt")
        assert side.weights is not None and side.weights["men"] == 250.0
        menu = again.scene
        assert isinstance(menu, MenuScene) and menu.widget("side0.checkers").selected_option[1] == "custom"
    finally:
        again.close()


@pytest.mark.slow
def test_unlimited_checkers_search_is_refused(app: App) -> None:
    app.open_settings("checkers")
    frames(app, 2)
    panel = settings_scene(app)
    # White plays "medium": moving its slider opens the preset as a custom agent with the preset's values
    click(app, panel.widget("depth1").left_button)
    assert panel.side(1).agent == "custom" and panel.side(1).depth == 3 and panel.side(1).time_budget_s == 1.0
    panel.set_depth(1, None)
    panel.set_time(1, None)
    frames(app, 1)
    assert "depth or a time" in panel.widget("status1").text
    key(app, pygame.K_s, pygame.KMOD_LCTRL)
    assert app.scene is panel and "Not saved" in panel.widget("message").text
    key(app, pygame.K_ESCAPE)  # leaves without saving
    assert isinstance(app.scene, MenuScene) and app.settings.side("checkers", 1).agent == "medium"


def test_general_settings_and_weight_reset(app: App) -> None:
    app.open_settings("tictactoe")
    frames(app, 2)
    panel = settings_scene(app)
    click(app, panel.widget("overlay"))
    click(app, panel.widget("sound"))
    click(app, panel.widget("board_numbers"))
    for _ in range(4):
        click(app, panel.widget("animation").left_button)
    assert panel.draft is not None
    assert (panel.draft.overlay, panel.draft.sound, panel.draft.board_numbers) == (True, False, False)
    assert panel.draft.animation_speed == 0.0 and panel.widget("animation_value").text == "off"
    # O's weights from the textbook preset, then saved
    choose(app, panel.widget("wpreset1"), "textbook", "textbook")
    click(app, panel.widget("wreset1"))
    assert panel.side(1).agent == "custom" and panel.side(1).weights == {"three": 100.0, "two": 10.0, "one": 1.0}
    assert panel.widget("weight1.centre").get_text() == "0"
    click(app, panel.widget("save"))
    s = sfile.load_settings().settings
    assert (s.overlay, s.sound, s.board_numbers, s.animation_speed) == (True, False, False, 0.0)
    match = app.start_match("checkers", "human", "beginner")
    assert match.overlay_on_start is True and getattr(match.view, "show_numbers", False) is False


def test_a_custom_mcts_side_plays_with_its_time(app: App) -> None:
    """Monte Carlo tree search is one of the custom algorithms: its time slider works, depth and weights are
    greyed out, and the match is played by ``mcts:time=T`` (no time: 1,000 simulations)."""
    app.open_settings("tictactoe")
    frames(app, 2)
    panel = settings_scene(app)
    choose(app, panel.widget("who0"), "Custom (settings)", "custom")
    choose(app, panel.widget("algo0"), "Monte Carlo tree search", "mcts")
    frames(app, 1)
    assert panel.side(0).algorithm == "mcts"
    assert panel.widget("time0").is_enabled and not panel.widget("depth0").is_enabled
    panel.set_time(0, 0.3)
    frames(app, 1)
    assert "Plays: MCTS, 0.3 s" in panel.widget("status0").text
    click(app, panel.widget("save"))
    menu = app.scene
    assert isinstance(menu, MenuScene)
    click(app, menu.widget("play.tictactoe"))
    match = app.scene
    assert isinstance(match, MatchScene)
    s = match.agents[0].settings
    assert (s.algorithm, s.time_budget_s) == ("mcts", 0.3)


# ----- a preset's own weights -----------------------------------------------------------------------------------------
def test_pig_medium_shows_its_own_weights(app: App) -> None:
    from ai.agents.profiles import profile_for
    from gameplay.files.settings_agents import side_agent_settings
    scene = app.open_settings("pig")
    app.run(max_frames=2)
    for p in (0, 1):
        scene.side(p).agent = "medium"  # type: ignore[attr-defined]
    scene.layout(app.size)
    app.run(max_frames=1)
    name = side_agent_settings("pig", scene.side(0)).weights  # type: ignore[attr-defined]
    assert name != "default" and scene.weights_name(0) == name  # type: ignore[attr-defined]
    assert scene.widget("wpreset0").selected_option[0] == name  # type: ignore[attr-defined]
    preset = profile_for("pig").weight_presets[name]
    for f in profile_for("pig").features:
        assert float(scene.widget(f"weight0.{f}").get_text() or 0) == pytest.approx(preset.get(f, 0.0))  # type: ignore[attr-defined]
