"""The settings panel's agent files: the "Agent file (.py)" choice of a side, its file dialog and its button.

Choosing "Agent file (.py)" in a side's "Who plays" drop-down opens a :class:`pygame_gui.windows.UIFileDialog`
(``.py`` files; it starts in the folder of the side's last file, else ``examples/agents``). The picked path is
stored in the side (``SideSettings.file``, written to the settings file on Save) and the side becomes a ``file``
side; the dialog closed without a pick leaves the side as it was. A file side shows a button with the file's
name in place of the algorithm drop-down (click: choose another file). The side's status line then says what the
file defines (an evaluation or an agent) or why it cannot play: the file is only read here (``ai.agent_file``),
never run; it runs in a worker process of its own when the match asks it for a move.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton
from pygame_gui.windows import UIFileDialog

from gameplay.ui import projector

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "examples" / "agents"
"""Where the file dialog starts when the side has no file yet (the templates)."""
NO_FILE_TEXT = "Choose a .py file..."
"""The button's text while the side has no file."""


class AgentFilePicker:
    """The agent-file parts of a :class:`gameplay.ui.settings_scene.SettingsScene`.

    Args:
        scene: the settings panel (its ``app``, ``side(player)`` and ``_rebuild()`` are used).
    """

    def __init__(self, scene: Any) -> None:
        self.scene = scene
        self.dialog: UIFileDialog | None = None
        """The open file dialog, or ``None``."""
        self.player: int | None = None
        """The side the open dialog chooses for."""
        self._buttons: dict[int, UIButton] = {}

    def initial_path(self, player: int) -> Path:
        """Where the dialog starts: the side's file, else the templates' folder, else the working folder."""
        current = self.scene.side(player).file
        if current:
            p = Path(current).expanduser()
            if p.parent.is_dir():
                return p
        return EXAMPLES_DIR if EXAMPLES_DIR.is_dir() else Path.cwd()

    def open(self, player: int) -> None:
        """Open the file dialog for side ``player`` (a dialog already open is closed first)."""
        app = self.scene.app
        if app is None:
            return
        self.close()
        sw, sh = app.size
        w, h = min(projector.px(760), sw - 20), min(projector.px(540), sh - 20)
        self.dialog = UIFileDialog(pygame.Rect((sw - w) // 2, (sh - h) // 2, w, h), app.manager,
                                   window_title="Agent file (.py) for " + self._side_name(player),
                                   initial_file_path=str(self.initial_path(player)), allowed_suffixes={".py"},
                                   allow_existing_files_only=True)
        self.dialog.set_blocking(True)
        self.player = player

    def pick(self, player: int, path: str | Path) -> None:
        """Make side ``player`` play the agent file ``path`` (the panel is laid out again: its status line says
        what the file defines, or its error)."""
        side = self.scene.side(player)
        side.file = str(path)
        side.agent = "file"
        self.scene._rebuild()

    def close(self) -> None:
        """Close the dialog, if open."""
        if self.dialog is not None:
            self.dialog.kill()
        self.dialog = None
        self.player = None

    def button(self, player: int, rect: pygame.Rect, container: Any) -> UIButton:
        """The file button of a file side (its file's name; click: choose another)."""
        current = self.scene.side(player).file
        text = Path(current).name if current else NO_FILE_TEXT
        b = UIButton(rect, text, self.scene.app.manager, container=container,
                     tool_tip_text=(current or "No file chosen") + " (click to choose another .py file)")
        self._buttons[player] = b
        return b

    def handle_event(self, event: pygame.event.Event) -> bool:
        """The dialog's pick and close, and the file buttons. Returns True when the event was used."""
        element = getattr(event, "ui_element", None)
        if self.dialog is not None and element is self.dialog:
            if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
                player = self.player
                self.close()
                if player is not None:
                    self.pick(player, event.text)
                return True
            if event.type == pygame_gui.UI_WINDOW_CLOSE:
                self.dialog = None
                self.player = None
                self.scene._rebuild()  # the drop-down shows the side's choice again
                return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for player, b in self._buttons.items():
                if element is b and b.alive():
                    self.open(player)
                    return True
        return False

    def _side_name(self, player: int) -> str:
        from gameplay.ui.menu import side_names
        return str(side_names(self.scene.game)[player]).replace(" (first)", "")
