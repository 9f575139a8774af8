"""The settings panel's agent files: the "Agent file (.py)" choice of a side, its file dialog and its button.

Choosing "Agent file (.py)" in a side's "Who plays" drop-down opens a :class:`pygame_gui.windows.UIFileDialog`
(``.py`` files; it starts in the folder of the side's last file, else ``examples/agents``). The picked path is
stored in the side (``SideSettings.file``, written to the settings file on Save) and the side becomes a ``file``
side; the dialog closed without a pick leaves the side as it was. A file side shows a button with the file's
name in place of the algorithm drop-down (click: choose another file). The side's status line then says what the
file defines (an evaluation or an agent) or why it cannot play: the file is only read here (``ai.agents.agent_file``),
never run; it runs in a worker process of its own when the match asks it for a move.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton
from pygame_gui.windows import UIFileDialog

from gameplay.rules.shipped import shipped_path

EXAMPLES_DIR = shipped_path("examples", "agents")
"""Where the file dialog starts when the side has no file yet (the templates)."""
NO_FILE_TEXT = "Choose a .py file..."
"""The button's text while the side has no file."""


class AgentFilePicker:
    """The agent-file parts of a :class:`gameplay.ui.scenes.settings_scene.SettingsScene`.

    Args:
        scene: the settings panel (its ``app``, ``side(player)`` and ``use_agent_file(player, path)`` are used).
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

    def open(self, player: int, start: Path | None = None) -> None:
        """Open the file dialog for side ``player`` at ``start`` (default :meth:`initial_path`); a dialog already
        open is closed first."""
        app = self.scene.app
        if app is None:
            return
        self.close()
        from gameplay.ui.widgets.dialogs import file_dialog
        self.dialog = file_dialog(app.manager, app.size, "Agent file (.py) for " + self._side_name(player),
                                  start or self.initial_path(player), existing=True, suffixes={".py"})
        self.player = player

    def reopen(self, manager: Any) -> None:
        """Open the dialog again at the new scale when it was left in an old UI manager (a zoom step, a theme
        change; the panel calls this after each layout), at the file or folder it showed."""
        dialog, player = self.dialog, self.player
        if dialog is None or player is None or not dialog.alive() or dialog.ui_manager is manager:
            return
        shown = getattr(dialog, "current_file_path", None) or getattr(dialog, "current_directory_path", None)
        self.open(player, Path(str(shown)) if shown else None)

    def pick(self, player: int, path: str | Path) -> None:
        """Make side ``player`` play the agent file ``path`` (the panel is laid out again: its status line says
        what the file defines, or its error)."""
        self.scene.use_agent_file(player, path)

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
                self.scene.rebuild()  # the drop-down shows the side's choice again
                return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for player, b in self._buttons.items():
                if element is b and b.alive():
                    self.open(player)
                    return True
        return False

    def _side_name(self, player: int) -> str:
        from gameplay.ui.scenes.menu import side_names
        return str(side_names(self.scene.game)[player]).replace(" (first)", "")
