"""The Tree Lab's "Check my file" (issue 26, item 3): pick a student's exercise file, see its cases, open a failing
one: both searches drawn side by side on the same tree, the first difference marked and said, the step-through
moving both; a correct file passes everything; a file that cannot run says why and the Tree Lab goes on."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pygame_gui
import pytest
from ui_driver import click, frames, key, pump

from gameplay.rules.trees import TEXTBOOK_TREES
from gameplay.ui.scenes import check_tree
from gameplay.ui.scenes.check_scene import CheckScene
from gameplay.ui.scenes.treelab_scene import TreeLabScene
from gameplay.ui.shell.app import App

EXERCISES = Path(__file__).parent / "data" / "exercises"


def pick(app: App, lab: TreeLabScene, path: Path) -> None:
    """Press "Check my file...", then pick ``path`` in the file dialog and press its OK button."""
    button = lab.widget("check")
    click(app, button.rect.center)
    dialog = lab.dialog
    assert dialog is not None and dialog.alive()
    dialog.current_file_path = path
    dialog.ok_button.enable()
    click(app, dialog.ok_button.rect.center)


def checked(app: App, path: Path) -> tuple[TreeLabScene, Any]:
    lab = app.open_tree_lab()
    frames(app, 2)
    assert isinstance(lab, TreeLabScene)
    pick(app, lab, path)
    pump(app, lambda: not isinstance(app.scene, CheckScene) or app.scene.report is not None, timeout_s=90)
    return lab, app.scene


@pytest.fixture
def app(make_app: Callable[..., App], data_dir: Path, config_dir: Path) -> App:
    return make_app(size=(1280, 720))


def test_a_faulty_file_shows_both_searches_side_by_side(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[tuple[str, int, Any]] = []
    real = check_tree.draw_trace

    def spy(surface: Any, rect: Any, root: Any, trace: Any, upto: int, mark: Any, title: str) -> None:
        drawn.append((title, upto, mark, rect.copy()))
        real(surface, rect, root, trace, upto, mark, title)

    monkeypatch.setattr("gameplay.ui.scenes.check_scene.draw_trace", spy)
    _, scene = checked(app, EXERCISES / "ab_no_alpha_carry.py")
    assert isinstance(scene, CheckScene)
    report = scene.report
    assert report is not None and report.failed > 0
    rows = scene.widget("cases").item_list
    assert len(rows) == len(report.cases)
    assert sum("FAIL" in r["text"] for r in rows) == report.failed
    # the first failing case is opened: the sentence under the trees is the grader's
    case = scene.case
    assert case is not None and not case.ok and case is report.cases[0]
    assert "the reference prunes" in case.first_difference
    assert case.first_difference in scene.widget("difference").html_text.replace("&gt;", ">").replace("&#x27;", "'")
    drawn.clear()
    frames(app, 1)
    (mine_title, mine_step, mine_mark, left), (ref_title, ref_step, ref_mark, right) = drawn[-2:]
    assert mine_title.startswith("Your alpha-beta") and ref_title.startswith("Reference")
    assert left.right <= right.left and left.top == right.top  # side by side
    # the mark: the student's first leaf out of order, and the reference's leaf at the same place
    mine, ref, diff = scene.traces
    k = next(i for i, (a, b) in enumerate(zip(case.got_leaves, case.expected_leaves)) if a != b)
    assert mine_mark == mine.leaves()[k][1] and ref_mark == ref.leaves()[k][1] and mine_mark != ref_mark
    assert mine_step == ref_step == scene.difference_step() > 0
    # stepping moves both
    key(app, pygame.K_HOME)
    drawn.clear()
    frames(app, 1)
    assert [d[1] for d in drawn[-2:]] == [0, 0]
    click(app, scene.widget("next").rect.center)
    drawn.clear()
    frames(app, 1)
    assert [d[1] for d in drawn[-2:]] == [1, 1]
    key(app, pygame.K_END)
    assert scene.step == max(len(mine.steps), len(ref.steps))
    # another case from the list
    target = next(i for i, c in enumerate(report.cases) if c.ok)
    pygame.event.post(pygame.event.Event(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION,
                                         text=rows[target]["text"], ui_element=scene.widget("cases")))
    frames(app, 2)
    assert scene.selected == target and scene.case.ok and scene.traces[2] is None
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.scene, TreeLabScene)


def test_the_button_reads_as_the_readme_says(app: App) -> None:
    """"Check my file..." (issue 47: it read "Check file..." at every window size, the Menu button taking half the
    row); the Menu button gives way to "Menu" (Esc in its tool tip) where both do not fit."""
    lab = app.open_tree_lab()
    frames(app, 2)
    assert isinstance(lab, TreeLabScene)
    assert lab.widget("check").text == "Check my file..."
    assert lab.widget("menu").text in ("Menu (Esc)", "Menu")
    readme = " ".join((Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8").split())
    assert "**Check my file...**" in readme


def test_an_aima_python_file_lists_its_functions(app: App) -> None:
    """A file of aima-python's functions passes, each case's row naming its function."""
    _, scene = checked(app, EXERCISES / "aima_games.py")
    assert isinstance(scene, CheckScene) and scene.report is not None and scene.report.failed == 0
    rows = [r["text"] for r in scene.widget("cases").item_list]
    assert any("alpha_beta_cutoff_search: AIMA figure 5.2 cut off at d = 0" in r for r in rows)
    assert any("expect_minmax: " in r for r in rows)


def test_a_cut_off_search_that_searches_too_deep_is_drawn(app: App) -> None:
    """The student's steps below the cut-off tree's leaves (a node the drawn tree does not have) are left out of the
    picture, which is drawn; the sentence says where the search went too deep."""
    _, scene = checked(app, EXERCISES / "aima_cutoff_depth0.py")
    assert isinstance(scene, CheckScene) and scene.report is not None and scene.report.failed == 4
    case = scene.case
    assert case is not None and not case.ok and case.name == "AIMA figure 5.2 cut off at d = 0"
    assert case.first_difference is not None and case.first_difference.startswith(
        "your alpha-beta asked game.result below B, where the search is cut off")
    key(app, pygame.K_END)
    frames(app, 2)
    assert scene.traces is not None and scene.traces[2] is not None


def test_a_correct_file_passes_every_case(app: App) -> None:
    _, scene = checked(app, EXERCISES / "correct_all.py")
    assert isinstance(scene, CheckScene) and scene.report is not None
    assert scene.report.failed == 0 and scene.report.passed == len(scene.report.cases) > 0
    assert "passed" in scene.widget("title").html_text
    assert all("ok" in r["text"] for r in scene.widget("cases").item_list)


@pytest.mark.parametrize("name, says", [("load_fails.py", "cannot run"), ("crashes.py", None)])
def test_a_file_that_cannot_run_says_why_and_the_lab_goes_on(app: App, name: str, says: str | None) -> None:
    lab, scene = checked(app, EXERCISES / name)
    if says is None:  # it loads: its cases fail one by one
        assert isinstance(scene, CheckScene) and scene.report is not None and scene.report.failed
        return
    assert app.scene is lab
    assert says in lab.message and name in lab.message
    frames(app, 2)
    assert lab.load_preset(next(iter(TEXTBOOK_TREES)))


def test_leaving_while_it_checks_stops_the_check(app: App) -> None:
    lab = app.open_tree_lab()
    frames(app, 2)
    assert isinstance(lab, TreeLabScene)
    pick(app, lab, EXERCISES / "loops.py")  # each case runs out of time (5 s)
    scene = app.scene
    assert isinstance(scene, CheckScene) and scene.running and scene.report is None
    assert "Stop" in scene.widget("back").text and scene.find_widget("next") is None
    key(app, pygame.K_ESCAPE)
    assert app.scene is lab
    assert scene.wait(timeout=60)
    assert not scene.running and scene.report is None
