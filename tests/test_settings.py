"""The settings model and its file (gameplay.files.settings): round trip, bad files, field validation, atomic writes."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from ai.agents.profiles import profile_for
from gameplay.files import settings as st
from gameplay.files import settings_agents as sagents
from gameplay.files import settings_file as sfile
from gameplay.files.settings import Settings, SideSettings
from gameplay.files.settings_fields import SettingsError

ROOT = Path(__file__).resolve().parent.parent


def test_config_dir_honours_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARCADE_CONFIG_DIR", str(tmp_path / "cfg"))
    assert sfile.settings_path() == tmp_path / "cfg" / "settings.toml"


def test_missing_file_gives_defaults_quietly(tmp_path: Path) -> None:
    res = sfile.load_settings(tmp_path / "settings.toml")
    assert res.settings == Settings() and res.message is None and res.backup is None
    assert not (tmp_path / "settings.toml").exists()  # reading never creates the file


def test_round_trip(tmp_path: Path) -> None:
    s = Settings(sound=False, animation_speed=0.0, theme="high_contrast", overlay=True, board_numbers=False,
                 ui_scale=1.25)
    s.game("checkers").sides[1] = SideSettings(agent="custom", algorithm="minimax", depth=3, time_budget_s=None,
                                               prune="gt", weights={"men": 1.0, "kings": 5.0})
    s.game("pig").sides[0] = SideSettings(agent="custom", algorithm="expectimax", depth=None, time_budget_s=0.5)
    s.game("tictactoe").sides[0].agent = "expert"
    s.extra["future_key"] = "kept"
    path = sfile.save_settings(s, tmp_path / "sub" / "settings.toml")
    back = sfile.load_settings(path)
    assert back.message == "Unknown settings kept in the file but not used: future_key" and back.backup is None
    assert back.settings == s
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data["version"] == 1 and data["games"]["checkers"]["p2"]["weights"] == {"men": 1.0, "kings": 5.0}


def test_corrupt_file_gives_defaults_keeps_a_backup_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text("sound = true\ntheme = [unclosed\n", encoding="utf-8")
    res = sfile.load_settings(path)
    assert res.settings == Settings()
    assert res.message is not None and "not valid TOML" in res.message and "\n" not in res.message
    assert res.backup is not None and res.backup.name.startswith("settings.toml.bad-")
    assert res.backup.read_text(encoding="utf-8") == "sound = true\ntheme = [unclosed\n"
    assert res.backup.name in res.message
    # the bad file was replaced by the defaults: the next start is quiet
    again = sfile.load_settings(path)
    assert again.message is None and again.settings == Settings()


def test_unreadable_bytes_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_bytes(b"\xff\xfe\x00garbage")
    res = sfile.load_settings(path)
    assert res.settings == Settings() and res.message and res.backup is not None and res.backup.exists()


def test_invalid_values_are_refused_field_by_field(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('sound = "yes"\nanimation_speed = -1\ntheme = "purple"\noverlay = true\nui_scale = 9\n'
                    "[games.checkers.p2]\nagent = \"custom\"\ndepth = 2.5\ntime = 1.5\nprune = \"gte\"\n"
                    "[games.checkers.p2.weights]\nmen = \"lots\"\n", encoding="utf-8")
    res = sfile.load_settings(path)
    fields = [f for f, _ in res.problems]
    assert sorted(fields) == sorted(["sound", "animation_speed", "theme", "ui_scale", "games.checkers.p2.depth",
                                     "games.checkers.p2.prune", "games.checkers.p2.weights.men"])
    s = res.settings
    assert s.overlay is True  # the valid fields are kept
    assert (s.sound, s.animation_speed, s.theme, s.ui_scale) == (True, 1.0, "normal", 1.0)
    side = s.side("checkers", 1)
    assert side.agent == "custom" and side.time_budget_s == 1.5 and side.depth == st.default_side("checkers", 1).depth
    assert side.prune == "ge"  # the bad weight takes its default, the default preset's (field by field)
    assert side.weights == {"men": profile_for("checkers").weight_presets["default"]["men"]}
    assert res.message is not None and "theme" in res.message and res.backup is not None
    with pytest.raises(SettingsError) as e:
        Settings.from_dict({"theme": "purple", "sound": 1}, strict=True)
    assert [f for f, _ in e.value.problems] == ["sound", "theme"]


@pytest.mark.parametrize("field,value", [("animation_speed", float("nan")), ("ui_scale", True), ("board_numbers", 0),
                                         ("theme", 3)])
def test_each_top_field_checks_its_type(field: str, value: object) -> None:
    s, problems = Settings.from_dict({field: value})
    assert [f for f, _ in problems] == [field] and getattr(s, field) == getattr(Settings(), field)


def test_atomic_write_leaves_no_temporary_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "settings.toml"
    sfile.save_settings(Settings(), path)
    sfile.save_settings(Settings(sound=False), path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.toml"]
    # a failure while replacing leaves the old file intact and no temporary file behind
    def boom(src: str, dst: str) -> None:
        raise OSError("disk full")
    monkeypatch.setattr(sfile.os, "replace", boom)
    with pytest.raises(OSError):
        sfile.save_settings(Settings(theme="high_contrast"), path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.toml"]
    assert sfile.load_settings(path).settings.sound is False


def test_sides_build_the_agents_they_describe() -> None:
    side = SideSettings(agent="custom", algorithm="alphabeta", depth=3, time_budget_s=None, prune="gt",
                        weights={"men": 2.0, "kings": 7.0})
    agent = sagents.build_side_agent("checkers", side)
    s = agent.settings
    assert (s.algorithm, s.depth, s.time_budget_s, s.search.prune) == ("alphabeta", 3, None, "gt")
    assert s.custom_weights == {"men": 2.0, "kings": 7.0}
    assert sagents.build_side_agent("tictactoe", SideSettings(agent="easy")).settings.name == "easy"
    optimal = sagents.build_side_agent("pig", SideSettings(agent="custom", algorithm="optimal"))
    assert optimal.settings.algorithm == "optimal"


@pytest.mark.parametrize("game,side,words", [
    ("checkers", SideSettings(agent="custom", algorithm="alphabeta", depth=None, time_budget_s=None),
     "depth or a time"),
    ("checkers", SideSettings(agent="custom", algorithm="expectimax", depth=2), "cannot play checkers"),
    ("pig", SideSettings(agent="custom", algorithm="alphabeta", depth=2), "cannot play pig"),
    ("checkers", SideSettings(agent="custom", algorithm="alphabeta", depth=2, weights={"men": 0.0}), "all weights"),
    ("tictactoe", SideSettings(agent="custom", algorithm="minimax", depth=2, weights={"kings": 1.0}), "unknown"),
])
def test_invalid_combinations_are_refused_clearly(game: str, side: SideSettings, words: str) -> None:
    with pytest.raises(SettingsError) as e:
        sagents.build_side_agent(game, side)
    assert words in str(e.value)


def test_module_is_pure_python() -> None:
    code = "import sys; import gameplay.files.settings; assert 'pygame' not in sys.modules and 'ai' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True)


# ----- a side's agent, built from its fields (issue 24): the settings its spec text gave ---------------------------
def _through_the_spec(game: str, side: SideSettings) -> object:
    """A side's agent settings as they were made through its spec text
    (:func:`gameplay.files.settings_agents.side_spec` read by ``ai.agents.agents.parse_settings``, before issue 24), or
    the error as the settings' problems."""
    from dataclasses import replace

    from ai.agents.agents import parse_settings
    from gameplay.rules.base import GameError
    try:
        made = parse_settings(sagents.side_spec(game, side), profile_for(game))
    except GameError as e:
        return [("agent", str(e))]
    if side.agent == "custom" and side.algorithm in ("minimax", "alphabeta", "expectimax"):
        made = replace(made, depth=side.depth, time_budget_s=side.time_budget_s)
        if side.weights is not None:
            made = replace(made, weights="custom", custom_weights=dict(side.weights))
    return made


EXAMPLES = ROOT / "examples" / "agents"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=hs.sampled_from(("tictactoe", "checkers", "pig")),
       agent=hs.sampled_from(st.AGENT_CHOICES + ("custom",) * 8),  # custom sides have the most to build
       algorithm=hs.sampled_from(st.CUSTOM_ALGORITHMS), depth=hs.none() | hs.integers(1, 12),
       time=hs.none() | hs.sampled_from((0.05, 0.3, 1.0, 2.5, 12.0)), prune=hs.sampled_from(st.PRUNE_RULES),
       enhancements=hs.booleans(), weighted=hs.booleans(), kind=hs.sampled_from(("agent", "eval")))
def test_a_side_builds_the_settings_its_spec_gave(game: str, agent: str, algorithm: str, depth: int | None,
                                                   time: float | None, prune: str, enhancements: bool,
                                                   weighted: bool, kind: str) -> None:
    weights = None
    if weighted and profile_for(game).features:
        weights = {f: float(k + 1) for k, f in enumerate(list(profile_for(game).features)[:2])}
    side = SideSettings(agent=agent, algorithm=algorithm, depth=depth, time_budget_s=time, prune=prune, weights=weights,
                        enhancements=enhancements, file=str(EXAMPLES / f"{game}_{kind}.py"))
    try:
        got: object = sagents.side_agent_settings(game, side)
    except SettingsError as e:
        if any(name != "agent" for name, _ in e.problems):
            return  # refused by the side's own checks (a depth or time needed...), before any agent is made
        got = e.problems
    assert got == _through_the_spec(game, side)
