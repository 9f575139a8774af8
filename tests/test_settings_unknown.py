"""Issue 23: a settings file written by hand is read as meant and nothing in it is lost.

Unknown keys survive wherever they sit (Defaults + Save too), a bad weight resets only itself, an unknown weight
name is reported on load with the game's features and kept, the title screen shows the whole load message at every
window size, and a saved side's setting that cannot be restored is said in words ("no time limit", not None).
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from ai.agents.profiles import profile_for
from gameplay.files import settings_agents as sagents
from gameplay.files import settings_file as sfile
from gameplay.files.savegame import restore_agent
from gameplay.ui.scenes.menu import MenuScene
from gameplay.ui.scenes.settings_scene import SettingsScene
from gameplay.ui.shell.app import App
from gameplay.ui.widgets import projector

TESTER_FILE = """sond = true
animation_speed = 9.5
window_size = [100, 100]
[games.checkers]
sides = 3
[games.checkers.p2]
agent = "custom"
depth = 99
time = 5000
dept = 4
note = "mine"
[games.checkers.p2.weights]
king = 1e12
men = 5
"""
"""The fresh tester's hand-written file: five bad values and four unknown keys (``king`` is no checkers feature:
kept and named, its value never read)."""


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARCADE_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("ARCADE_DATA_DIR", str(tmp_path))


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "settings.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _file(path: Path) -> dict[str, object]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


# ----- unknown keys survive Defaults ------------------------------------------------------------------------------
NESTED_UNKNOWN = 'sond = 1\n[games.checkers]\nsides = 3\n[games.checkers.p2]\ndept = 4\n' \
                 '[games.checkers.p2.weights]\nman = 100\n'


def _assert_unknown_kept(data: dict[str, object]) -> None:
    games = data["games"]
    assert isinstance(games, dict)
    checkers = games["checkers"]
    assert data["sond"] == 1 and checkers["sides"] == 3 and checkers["p2"]["dept"] == 4
    assert checkers["p2"]["weights"] == {"man": 100}


def test_defaults_keep_every_unknown_key(tmp_path: Path) -> None:
    path = _write(tmp_path, NESTED_UNKNOWN)
    loaded = sfile.load_settings(path).settings
    loaded.sound = False
    fresh = loaded.defaults_keeping_unknown()
    assert fresh.sound is True and fresh.unknown_keys() == loaded.unknown_keys() == [
        "sond", "games.checkers.sides", "games.checkers.p2.dept", "games.checkers.p2.weights.man"]
    sfile.save_settings(fresh, path)
    _assert_unknown_kept(_file(path))


@pytest.fixture
def app(make_app: Callable[..., App], tmp_path: Path) -> App:
    return make_app((1024, 768), settings_file=_write(tmp_path, NESTED_UNKNOWN))


def test_settings_defaults_then_save_keeps_unknown_keys_inside_game_tables(app: App, tmp_path: Path) -> None:
    scene = app.open_settings("checkers")
    assert isinstance(scene, SettingsScene)
    app.run(max_frames=2)
    scene.restore_defaults()  # the Defaults button
    assert scene.save()  # the Save button
    _assert_unknown_kept(_file(tmp_path / "settings.toml"))


# ----- weights, field by field ------------------------------------------------------------------------------------
def test_one_bad_weight_resets_only_itself(tmp_path: Path) -> None:
    path = _write(tmp_path, '[games.checkers.p2]\nagent = "custom"\n'
                            '[games.checkers.p2.weights]\nmen = "5"\nkings = "1e12"\n')
    res = sfile.load_settings(path)
    default_kings = profile_for("checkers").weight_presets["default"]["kings"]
    assert [f for f, _ in res.problems] == ["games.checkers.p2.weights.kings"]
    assert res.settings.side("checkers", 1).weights == {"men": 5.0, "kings": default_kings}
    assert res.message is not None and "games.checkers.p2.weights.kings" in res.message
    assert _file(path)["games"]["checkers"]["p2"]["weights"] == {"men": 5.0, "kings": default_kings}


def test_unknown_weight_name_is_reported_kept_and_harmless(tmp_path: Path) -> None:
    path = _write(tmp_path, '[games.checkers.p2]\nagent = "custom"\n[games.checkers.p2.weights]\nman = 100\n')
    res = sfile.load_settings(path)
    assert res.problems == () and res.unknown == ("games.checkers.p2.weights.man",)
    features = ", ".join(profile_for("checkers").features)
    assert res.message is not None and "games.checkers.p2.weights.man" in res.message and features in res.message
    side = res.settings.side("checkers", 1)
    assert side.weights is None and side.weights_extra == {"man": 100}
    sagents.build_side_agent("checkers", side)  # playable: the default weights
    sfile.save_settings(res.settings, path)
    assert _file(path)["games"]["checkers"]["p2"]["weights"] == {"man": 100}


# ----- the title screen's message, whole at every size ------------------------------------------------------------
@pytest.mark.parametrize("size", [(640, 480), (1024, 768), (1280, 800), (1920, 1080)])
def test_title_screen_shows_the_whole_load_message(tmp_path: Path, size: tuple[int, int]) -> None:
    a = App(size, fps=1000, settings_file=_write(tmp_path, TESTER_FILE))
    try:
        a.open_menu()
        a.run(max_frames=2)
        menu = a.scene
        assert isinstance(menu, MenuScene)
        message = menu.message  # the App's settings_message, taken by the title screen
        backup = next(p.name for p in tmp_path.iterdir() if p.name.startswith("settings.toml.bad-"))
        assert message is not None and backup in message and "unknown settings kept" in message
        assert menu.message_shown() == message  # every word, in the box
        box = menu.widget("message")
        screen = pygame.Rect((0, 0), size)
        assert screen.contains(box.rect) and not box.rect.colliderect(menu.widget("hint").rect)
        assert not box.rect.colliderect(menu.widget("quit").rect)
        assert box.rect.height >= 2 * projector.text_height(a.manager, "#error_message")  # two lines at least
        full = box.text_box_layout.layout_rect.height
        assert full <= box.rect.height or box.scroll_bar is not None  # what does not fit is a scroll away
    finally:
        a.close()


# ----- a saved side's setting that cannot be restored ---------------------------------------------------------
def test_unrestorable_time_is_said_in_words() -> None:
    _, notes = restore_agent("checkers", "alphabeta:depth=4", {"time": "1e308"})
    assert len(notes) == 1 and "plays with no time limit" in notes[0] and "None" not in notes[0]
    _, notes = restore_agent("checkers", "alphabeta:depth=4,time=1.5", {"time": "1e308"})
    assert "plays with 1.5 s" in notes[0]
