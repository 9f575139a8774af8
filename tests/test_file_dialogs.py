"""The file dialogs (issue 23): a folder is listed as desktop pickers list one (folders first, then files, each
alphabetical ignoring case, hidden entries left out), in checkers' PDN dialogs, the agent files' and tic-tac-toe /
Pig's JSON save and load, which now share the one dialog; the JSON dialog is asked again after a zoom step."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame
import pygame_gui
import pytest
from ui_driver import frames

from ai.agents.agents import make_agent
from gameplay.files import savegame
from gameplay.ui.shell.app import App
from gameplay.ui.widgets.dialogs import FileDialog, file_dialog, listing_order

FOLDERS = (".cache", ".config", "Zeta", "apple", "docs", "_build")
FILES = (".hidden.json", "b.json", "A.json", "zz.txt", "10.json", "2.json")
LISTED = ["_build", "apple", "docs", "Zeta", "10.json", "2.json", "A.json", "b.json", "zz.txt"]
"""What the dialog lists: folders, then files, alphabetical ignoring case, without the dot-entries."""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    for d in FOLDERS:
        (home / d).mkdir(parents=True)
    for f in FILES:
        (home / f).write_text("{}", encoding="utf-8")
    (home / ".config" / "inside.json").write_text("{}", encoding="utf-8")
    return home


@pytest.fixture
def app(make_app: Callable[..., App], data_dir: Path, config_dir: Path, folder: Path,
        monkeypatch: pytest.MonkeyPatch) -> App:
    monkeypatch.setenv("ARCADE_GAMES_DIR", str(folder))  # where Save and Load open
    return make_app()


def names(dialog: FileDialog) -> list[str]:
    return [e[0] if isinstance(e, tuple) else e for e in dialog.current_file_list]


def test_the_listing_order_alone(folder: Path) -> None:
    rows = [(n, "#directory_list_item") for n in FOLDERS] + [(n, "#file_list_item") for n in FILES]
    assert [r[0] for r in listing_order(rows, folder)] == LISTED


def test_accents_sort_as_their_letters_and_broken_links_are_left_out(tmp_path: Path) -> None:
    # the tester's: "Éclair.json" after "zz.JSON" (code-point order), a broken link listed among the folders
    for f in ("zz.JSON", "Éclair.json", "eclair.txt", "apple.json"):
        (tmp_path / f).write_text("{}", encoding="utf-8")
    (tmp_path / "broken_link.json").symlink_to(tmp_path / "gone")
    rows = [("broken_link.json", "#directory_list_item")] + [(f, "#file_list_item") for f in
                                                             ("zz.JSON", "Éclair.json", "eclair.txt", "apple.json")]
    assert [r[0] for r in listing_order(rows, tmp_path)] == ["apple.json", "Éclair.json", "eclair.txt", "zz.JSON"]


def test_the_dialog_lists_folders_then_files_without_hidden_ones(app: App, folder: Path) -> None:
    dialog = file_dialog(app.manager, app.size, "Load", folder, existing=True)
    assert names(dialog) == LISTED
    assert dialog.file_selection_list.item_list[0]["text"] == "_build"  # what is on screen, not only the list
    # double-click a folder, then back up with the parent-folder button: the same order
    dialog.process_event(pygame.event.Event(pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION,
                                            ui_element=dialog.file_selection_list, text="docs"))
    assert Path(dialog.current_directory_path) == (folder / "docs").resolve() and names(dialog) == []
    dialog.process_event(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=dialog.parent_directory_button))
    assert Path(dialog.current_directory_path) == folder.resolve()
    assert names(dialog) == LISTED
    dialog.kill()
    # a hidden folder is reachable by its path, and listed whole
    inside = file_dialog(app.manager, app.size, "Load", folder / ".config", existing=True)
    assert names(inside) == ["inside.json"]
    inside.kill()


def test_json_save_and_load_use_the_same_dialog(app: App, folder: Path) -> None:
    scene = app.start_match("tictactoe", make_agent("tictactoe", "human"), make_agent("tictactoe", "human"))
    frames(app, 2)
    scene.aids.ask_load()
    assert isinstance(scene.aids.dialog, FileDialog) and names(scene.aids.dialog) == LISTED
    scene.aids.close()


def test_the_json_save_dialog_is_asked_again_after_a_zoom_step(app: App, folder: Path) -> None:
    """The dialog lived in the UI manager a zoom step replaces: it was gone from the screen while the board still
    waited for it. Now it opens again at the new scale, with the name it proposed."""
    scene = app.start_match("pig", make_agent("pig", "human"), make_agent("pig", "human"))
    frames(app, 2)
    scene.aids.ask_save()
    first = scene.aids.dialog
    assert first is not None
    proposed = first.current_file_path
    assert proposed is not None and proposed.parent == folder.resolve() and proposed.suffix == ".json"
    app.zoom(1)  # a zoom step (the keys are typed into the dialog's field; a resize or the settings zoom too)
    frames(app, 2)
    again = scene.aids.dialog
    assert again is not None and again is not first and again.alive() and again.ui_manager is app.manager
    assert again.current_file_path == proposed and not first.alive()
    assert scene.aids.modal
    scene.aids.close()
    assert not scene.aids.modal


def test_file_dialogs_open_in_the_documents_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Save dialog opened in the program's folder, listing .git and .venv (teacher's trial)."""
    monkeypatch.setenv("ARCADE_GAMES_DIR", str(tmp_path / "games"))
    assert savegame.documents_dir() == tmp_path / "games"
    monkeypatch.delenv("ARCADE_GAMES_DIR")
    assert savegame.documents_dir() != Path.cwd() or Path.cwd() == Path.home()
