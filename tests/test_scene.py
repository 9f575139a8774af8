"""The scene base class's widget bookkeeping (gameplay.ui.widgets.scene) and the match's key and button tables
(gameplay.ui.play.match_keys): names, lookups, kills, and every key doing what the table says."""

from __future__ import annotations

from collections.abc import Callable

import pygame
import pygame_gui
import pytest
from ui_driver import frames, key

from ai.agents.agents import make_agent
from gameplay.ui.play import help_scene, match_keys
from gameplay.ui.play.match import MatchScene
from gameplay.ui.shell.app import App
from gameplay.ui.widgets.scene import Scene, WidgetTable


class Widget:
    """A stand-in for a pygame_gui element: counts its kills."""

    def __init__(self) -> None:
        self.kills = 0

    def kill(self) -> None:
        self.kills += 1


class PanelScene(Scene):
    """A scene whose layout builds the given widgets under their names, as a real scene's ``layout`` does."""

    def __init__(self, **built: Widget) -> None:
        super().__init__()
        self.built = built

    def layout(self, size: tuple[int, int]) -> None:
        for name, widget in self.built.items():
            self._ui[name] = widget


# ----- the widget table ---------------------------------------------------------------------------------------------
def test_a_widget_is_found_by_name_and_a_missing_name_says_what_there_is() -> None:
    undo = Widget()
    scene = PanelScene(undo=undo, redo=Widget())
    scene.layout((1280, 800))
    assert scene.widget("undo") is undo and scene.find_widget("undo") is undo
    assert scene.find_widget("pause") is None
    assert scene.widget_names() == ["undo", "redo"] and "redo" in scene.widgets
    assert scene.widget_name(undo) == "undo" and scene.widget_name(Widget()) is None
    with pytest.raises(KeyError, match=r"PanelScene has no widget 'pause' \(it has: redo, undo\)"):
        scene.widget("pause")


class Button(Widget):
    """A stand-in for one kind of widget."""


def test_a_widget_looked_up_by_kind_comes_typed_or_says_what_it_is() -> None:
    undo, status = Button(), Widget()
    scene = PanelScene(undo=undo, status=status)
    scene.layout((1280, 800))
    assert scene.widget("undo", Button) is undo and scene.find_widget("undo", Button) is undo
    assert scene.find_widget("pause", Button) is None
    with pytest.raises(TypeError, match=r"PanelScene's widget 'status' is a Widget, not a Button"):
        scene.widget("status", Button)
    with pytest.raises(TypeError, match=r"PanelScene's widget 'status' is a Widget, not a Button"):
        scene.find_widget("status", Button)
    with pytest.raises(KeyError, match=r"PanelScene has no widget 'pause'"):
        scene.widget("pause", Button)


def test_a_new_widget_under_a_taken_name_kills_the_old_one_and_kill_widgets_kills_each_once() -> None:
    table = WidgetTable("MenuScene")
    old, new, alias = Widget(), Widget(), Widget()
    table["message"] = old
    table["message"] = new
    assert old.kills == 1 and table["message"] is new
    table["play"] = alias
    table["play.tictactoe"] = alias  # one widget under two names
    table["play"] = alias  # stored again under its own name: kept alive
    assert alias.kills == 0
    popped = table.pop("message")
    assert popped is new and new.kills == 0  # pop hands the widget over without killing it
    table.kill_all()
    assert alias.kills == 1 and len(table) == 0


def test_on_exit_kills_the_widgets() -> None:
    w = Widget()
    scene = PanelScene(title=w)
    scene.layout((1280, 800))
    scene.on_exit()
    assert w.kills == 1 and scene.widget_names() == []


# ----- the match's tables -------------------------------------------------------------------------------------------
def test_every_command_of_the_tables_is_a_match_scene_method() -> None:
    for binding in match_keys.MATCH_KEYS:
        assert callable(getattr(MatchScene, binding.command)), binding.command
    for name, command in match_keys.PANEL_BUTTONS.items():
        assert callable(getattr(MatchScene, command)), (name, command)


def test_each_key_has_one_binding_and_the_help_lists_the_tables_rows() -> None:
    chords = [(c.key, c.ctrl, b.before_tree) for b in match_keys.MATCH_KEYS for c in b.chords]
    assert len(chords) == len(set(chords))
    assert help_scene.COMMON_KEYS[:5] == match_keys.help_rows() == [
        ("N", "new game with the same players"), ("U / Ctrl+Z", "undo (back to your last move)"),
        ("R / Ctrl+Y", "redo"), ("T", "search tree of the last AI decision"),
        ("Enter", "type a move in the panel's field (Tab completes it, Enter plays it, Esc leaves)")]


@pytest.mark.parametrize("key_, ctrl, before_tree, command", [
    (pygame.K_n, False, False, "ask_new_game"),
    (pygame.K_n, True, False, None),  # Ctrl+N is not New game
    (pygame.K_u, False, False, "undo"), (pygame.K_u, True, False, "undo"), (pygame.K_z, True, False, "undo"),
    (pygame.K_z, False, False, None), (pygame.K_PAGEUP, False, False, "undo"),
    (pygame.K_r, False, False, "redo"), (pygame.K_y, True, False, "redo"), (pygame.K_PAGEDOWN, True, False, "redo"),
    (pygame.K_SPACE, False, False, "toggle_pause"),
    (pygame.K_t, False, True, "toggle_overlay"), (pygame.K_t, True, True, None), (pygame.K_t, False, False, None),
    (pygame.K_p, False, True, "open_presenter"),
])
def test_binding_for(key_: int, ctrl: bool, before_tree: bool, command: str | None) -> None:
    binding = match_keys.binding_for(key_, ctrl, before_tree=before_tree)
    assert (binding.command if binding else None) == command


def test_a_key_the_game_plays_as_a_move_has_no_binding() -> None:
    """Pig: R rolls, so neither R nor Ctrl+R is Redo there (Ctrl+Y is)."""
    pig_keys = {pygame.K_r: "roll", pygame.K_h: "hold"}
    assert match_keys.binding_for(pygame.K_r, True, before_tree=False, claimed=pig_keys) is None
    binding = match_keys.binding_for(pygame.K_y, True, before_tree=False, claimed=pig_keys)
    assert binding is not None and binding.command == "redo"


def test_the_panel_buttons_are_widgets_of_the_match_and_run_their_command(
        make_app: Callable[..., App], monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app()
    ran: list[str] = []
    for command in set(match_keys.PANEL_BUTTONS.values()):
        monkeypatch.setattr(MatchScene, command, lambda self, c=command: ran.append(c))
    human = make_agent("tictactoe", "human")
    scene = MatchScene("tictactoe", (human, human))
    app.push(scene)
    frames(app, 2)
    shown = {name: command for name, command in match_keys.PANEL_BUTTONS.items() if name in scene.widgets}
    assert set(match_keys.PANEL_BUTTONS) - set(shown) == {"pause"}  # Pause: AI vs AI only
    for name, command in shown.items():
        ran.clear()
        assert scene.handle_event(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=scene.widget(name)))
        assert ran == [command], name


def test_the_keys_run_their_command_in_the_window(make_app: Callable[..., App],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app()
    ran: list[str] = []
    for command in ("ask_new_game", "undo", "redo"):
        monkeypatch.setattr(MatchScene, command, lambda self, c=command: ran.append(c))
    human = make_agent("tictactoe", "human")
    app.push(MatchScene("tictactoe", (human, human)))
    frames(app, 2)
    for k, mod, command in ((pygame.K_n, 0, "ask_new_game"), (pygame.K_u, 0, "undo"),
                            (pygame.K_z, pygame.KMOD_CTRL, "undo"), (pygame.K_PAGEUP, 0, "undo"),
                            (pygame.K_r, 0, "redo"), (pygame.K_y, pygame.KMOD_CTRL, "redo"),
                            (pygame.K_PAGEDOWN, 0, "redo")):
        ran.clear()
        key(app, k, mod)
        assert ran == [command], (pygame.key.name(k), mod)


# ----- the title screen's tables ------------------------------------------------------------------------------------
def test_every_title_screen_button_has_its_command_and_the_keys_do_theirs(app: App) -> None:
    from gameplay.ui.scenes.menu import MenuScene
    menu = MenuScene()
    app.push(menu)
    frames(app, 2)
    buttons = {menu.widget_name(menu.widget(name)) for name in menu.widget_names()  # an alias: its first name
               if isinstance(menu.widget(name), pygame_gui.elements.UIButton)}
    assert buttons == set(menu.buttons()), "a button without a command (or a command without its button)"
    started: list[str | None] = []
    menu.start = lambda game=None, **_: started.append(game)  # type: ignore[method-assign]
    assert menu.run_button(menu.widget("start"), menu.buttons())  # the highlighted card's Play (an alias)
    assert started == [menu.game]
    del menu.start
    first = menu.game
    key(app, pygame.K_RIGHT)
    assert menu.game == menu.games[1]
    key(app, pygame.K_LEFT)
    key(app, pygame.K_LEFT)  # round the row
    assert menu.game == menu.games[-1] and first == menu.games[0]
    assert menu.key_command(pygame.K_s, pygame.KMOD_CTRL) is None  # Ctrl+S is not the settings key
    key(app, pygame.K_s)
    assert type(app.scene).__name__ == "SettingsScene"
