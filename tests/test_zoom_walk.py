"""Projector walk (headless): every scene fits every classroom projector, full screen and windowed, at every zoom
step the window offers there (see ``tests/zoom_walk.py`` for the sizes, the scenes and what counts as a problem).

One test per window and group of scenes, so a failure names the projector, and the test run's workers share the walk
evenly; each prints how long its walk took (``-s``).
"""

from __future__ import annotations

import time
from pathlib import Path

import pygame
import pygame_gui
import pytest
from pygame_gui.elements import UILabel, UIWindow
from zoom_walk import MINIMUM, SCENES, Case, cases, walk

from gameplay.ui.play import race_draw, resume
from gameplay.ui.scenes import menu, settings_scene
from gameplay.ui.widgets import projector


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARCADE_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("ARCADE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("ARCADE_EXPORT_DIR", str(tmp_path / "exports"))


GROUPS: dict[str, tuple[str, ...]] = {
    "title-settings": ("menu", "question", "settings-tictactoe", "settings-checkers", "settings-pig",
                       "settings-connect4", "resume", "agent-file"),
    "games": ("tictactoe", "checkers", "pig", "connect4", "overlay", "help", "help-pig", "confirm"),
    "tools": ("fen", "file", "save", "race", "pdn", "growth", "policy", "treelab"),
}
"""The scenes of :data:`zoom_walk.SCENES` in three groups of about the same walking time."""


def test_the_groups_hold_every_scene_once() -> None:
    walked = [name for group in GROUPS.values() for name in group]
    assert sorted(walked) == sorted(SCENES)


@pytest.mark.slow  # the zoom walk: every scene at every zoom step of every window size
@pytest.mark.parametrize("group", list(GROUPS))
@pytest.mark.parametrize("case", cases(), ids=lambda c: c.id)
def test_every_zoom_step_of_every_scene_lays_out_cleanly(case: Case, group: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    t0 = time.perf_counter()
    problems = walk(case, GROUPS[group], monkeypatch=monkeypatch)
    print(f"{case.id} {group}: walked in {time.perf_counter() - t0:.1f} s")
    assert not problems, "\n".join(problems[:40]) + f"\n({len(problems)} problems)"


@pytest.mark.slow
def test_the_walk_sees_what_it_is_meant_to_see(monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk's checks can fail: a label made too narrow for its text, a text drawn shortened and a dialog lost
    at a zoom step are each reported."""
    real_layout = menu.MenuScene.layout

    def cramped(self: menu.MenuScene, size: tuple[int, int]) -> None:
        real_layout(self, size)
        assert self.app is not None
        self._ui["cramped"] = UILabel(pygame.Rect(5, size[1] - 30, 20, 24), "Adversarial", self.app.manager)

    monkeypatch.setattr(menu.MenuScene, "layout", cramped)
    monkeypatch.setattr(race_draw, "title_text", lambda race: ("Race " * 80, "sub"))
    monkeypatch.setattr(resume.SavedGameQuestion, "__init__", _question_in_no_manager)
    case = Case((1024, 768), True)
    problems = walk(case, ["menu", "question", "race"], monkeypatch=monkeypatch)
    assert any("menu zoom 0.6" in p and "'Adversarial'" in p and "does not fit" in p for p in problems)
    assert any("race zoom" in p and "drawn text shortened" in p for p in problems)
    assert any("question zoom" in p and "saved-game question is gone" in p for p in problems)
    assert projector.current() == projector.Display()


@pytest.mark.slow
def test_the_walk_sees_a_column_under_the_settings_scroll_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    """The settings page laid out as if its (unscaled) scroll bar took no room: at 640x480 the second side's
    column slides under it (Pig's "Reset" read "Rese"), and the walk of the smallest window says so."""
    monkeypatch.setattr(settings_scene, "SCROLL_BAR_W", 0)
    problems = walk(MINIMUM, ["settings-pig"], monkeypatch=monkeypatch)
    assert any("UIButton('Reset')" in p and "cut by the side of its scrolled view" in p for p in problems)


def _question_in_no_manager(self: object, menu_scene: object, saves: object) -> None:
    """A saved-game question whose window never shows (as if it stayed in an old UI manager)."""
    self.menu, self.saves, self.app = menu_scene, saves, menu_scene.app  # type: ignore[attr-defined]
    self.window = UIWindow(pygame.Rect(0, 0, 300, 200), pygame_gui.UIManager((800, 600)))  # type: ignore[attr-defined]


def test_the_decision_heading_is_whole_in_the_smallest_window() -> None:
    """"Last AI decision" needed 102 px beside the Tree button and had 84 at 640x480 (issue 23): the panel says
    "AI decision" there, and the long heading where it fits. (A square board leaves the panel its unused width,
    so tic-tac-toe's panel at 640x480 holds the long heading; Pig's view takes any width, its panel stays narrow.)"""
    from ai.agents.agents import make_agent
    from gameplay.ui.shell.app import App
    for game, size, heading in (("pig", (640, 480), "AI decision"), ("tictactoe", (640, 480), "Last AI decision"),
                                ("tictactoe", (1280, 800), "Last AI decision")):
        app = App(size=size, fps=1000)
        try:
            scene = app.start_match(game, make_agent(game, "human"), make_agent(game, "easy"))
            label = scene.widget("decision_label")
            assert label.text == heading
            assert label.font.get_rect(label.text).width <= label.rect.width
        finally:
            app.close()
            projector.set_current(projector.Display())
