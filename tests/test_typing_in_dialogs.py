"""Typing in the window's dialogs: letters typed into a text field (a FEN, a search) run no shortcut, the key
that opens a dialog is not typed into it, and B blanks the screen only when nothing is being typed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from gameplay.ui.boards.checkers_tools import CheckersTools
from gameplay.ui.shell.app import App


@pytest.fixture
def app(make_app: Callable[..., App], config_dir: Path, data_dir: Path) -> App:
    a = make_app()
    a.autosave = False
    return a


def press(app: App, ch: str, *, text: bool = True) -> None:
    """A real key press: KEYDOWN, then the TEXTINPUT SDL makes for it, then KEYUP (in one frame)."""
    k = pygame.key.key_code(ch.lower()) if ch not in ":-" else ord(ch)
    mod = pygame.KMOD_SHIFT if ch.isupper() or ch == ":" else 0
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=ch, scancode=0))
    if text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode=ch, scancode=0))
    app.run(max_frames=1)


def checkers(app: App) -> tuple[object, CheckersTools]:
    scene = app.start_match("checkers", "human", "human")
    app.run(max_frames=2)
    assert isinstance(scene.tools, CheckersTools)
    scene.tools.use_clipboard = False
    return scene, scene.tools


def test_typing_a_fen_runs_no_shortcut(app: App) -> None:
    scene, tools = checkers(app)
    hints: list[bool] = []
    scene.aids.request_hint = lambda: hints.append(True) or True  # type: ignore[attr-defined, method-assign]
    tools.paste_fen()
    app.run(max_frames=1)
    assert tools.modal and tools.text_entry is not None and app.text_entry_focused()
    flipped = scene.view.flipped  # type: ignore[attr-defined]
    for ch in "B:W21-32:B1-12hfmnu":
        press(app, ch)
    assert tools.text_entry.get_text() == "B:W21-32:B1-12hfmnu"
    assert not app.blanked and not hints and tools.modal
    assert scene.view.flipped == flipped and scene.games_started == 1  # type: ignore[attr-defined]


def test_the_key_that_opens_a_dialog_is_not_typed_into_it(app: App) -> None:
    scene, tools = checkers(app)
    press(app, "v")  # Paste FEN (no clipboard): the dialog opens with an empty field
    assert tools.modal and tools.text_entry is not None
    assert tools.text_entry.get_text() == ""
    press(app, "B")
    assert tools.text_entry.get_text() == "B" and not app.blanked
    tools.close()
    app.run(max_frames=1)
    press(app, "s")  # Save PDN: the file dialog keeps its proposed file name
    assert tools.modal
    entry = tools.dialog.file_path_text_line  # type: ignore[union-attr]
    assert entry.get_text().endswith(".pdn")


def test_b_blanks_the_screen_when_not_typing(app: App) -> None:
    checkers(app)
    press(app, "b")
    assert app.blanked


