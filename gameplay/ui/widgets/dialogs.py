"""pygame_gui's stock dialogs at the interface scale (:mod:`gameplay.ui.widgets.projector`).

pygame_gui builds its ``UIConfirmationDialog`` and ``UIFileDialog`` with 30-pixel buttons, 20-pixel icon buttons
and rows placed 40 pixels apart whatever the font: at a projector's scale the text is taller than its button and
the path field covers the file list. :func:`confirm_dialog` and :func:`file_dialog` make them, centred in the
window, with every row as high as the theme's text needs.

The file dialog (:class:`FileDialog`) lists a folder as desktop file pickers do: folders first, then files, each
in alphabetical order ignoring case, and without hidden entries (names beginning with a dot, and on Windows those
marked hidden). pygame_gui lists every entry in code-point order, so ``.cache``, ``.config``, ``.local`` and the
rest of a home folder's settings folders came first, before ``Documents``, and ``Zeta`` before ``apple``. Hidden
entries are left out rather than put last, as GTK's, macOS's and Windows' own pickers do by default: they hold
programs' settings, not games, and a path typed into the field still opens one (a folder the dialog is in is
listed whatever its name).
"""

from __future__ import annotations

import os
import stat
import unicodedata
from pathlib import Path
from typing import Any

import pygame
import pygame_gui
from pygame_gui.windows import UIConfirmationDialog, UIFileDialog

from gameplay.ui.widgets import projector

STOCK_BUTTON_H = 30
"""pygame_gui's own button height in its dialogs (pixels)."""


def hidden(path: Path) -> bool:
    """True for an entry a desktop file picker hides: a name beginning with a dot, or (Windows) the hidden
    attribute. An entry that cannot be read counts as shown."""
    if path.name.startswith("."):
        return True
    if not hasattr(os.stat_result, "st_file_attributes"):  # the attribute exists on Windows only
        return False
    try:
        attrs = getattr(path.stat(), "st_file_attributes", 0)
    except OSError:
        return False
    return bool(attrs & getattr(stat, "FILE_ATTRIBUTE_HIDDEN", 2))


def listing_order(entries: list[Any], folder: str | Path) -> list[Any]:
    """The rows of pygame_gui's file list (``(name, "#directory_list_item" | "#file_list_item")`` or a bare
    name) as :class:`FileDialog` shows them: hidden entries (:func:`hidden`) and links to nothing left out, folders
    first, then files, each alphabetical ignoring case and accents ("Éclair" beside "eclair", before "zz"; ties:
    the exact name)."""
    def name(e: Any) -> str:
        return str(e[0] if isinstance(e, tuple) else e)

    def is_folder(e: Any) -> bool:
        return isinstance(e, tuple) and len(e) > 1 and e[1] == "#directory_list_item"

    def letters(text: str) -> str:
        return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).casefold()

    def shown(e: Any) -> bool:
        path = Path(folder) / name(e)
        return not hidden(path) and (name(e) == ".." or path.exists())  # a broken link is neither folder nor file
    return sorted((e for e in entries if shown(e)), key=lambda e: (not is_folder(e), letters(name(e)), name(e)))


class FileDialog(UIFileDialog):
    """pygame_gui's file dialog with its folder listed as desktop pickers list one (:func:`listing_order`)."""

    def update_current_file_list(self, should_try_again: bool = True) -> None:
        """pygame_gui's listing of the current folder, then ordered and filtered by :func:`listing_order`."""
        super().update_current_file_list(should_try_again)
        self.current_file_list = listing_order(list(self.current_file_list), self.current_directory_path)


def confirm_dialog(manager: pygame_gui.UIManager, window: tuple[int, int], title: str, html_text: str,
                   action: str) -> UIConfirmationDialog:
    """A blocking confirmation dialog (Cancel / ``action``) centred in a window of ``window`` pixels.

    Args:
        manager: the App's UI manager.
        window: the window's size in pixels.
        title: the dialog's title.
        html_text: the question (pygame_gui HTML: escape user text).
        action: the confirm button's text (one or two words).

    Returns:
        The dialog; it posts ``UI_CONFIRMATION_DIALOG_CONFIRMED`` on the action button.
    """
    px = projector.px
    w, h = min(px(560), window[0] - 40), min(px(260), window[1] - 40)
    rect = pygame.Rect((window[0] - w) // 2, (window[1] - h) // 2, w, h)
    dialog = UIConfirmationDialog(rect, html_text, manager, window_title=title, action_short_name=action,
                                  blocking=True)
    bh = _refit_buttons(manager, (dialog.cancel_button, dialog.confirm_button))
    if bh > STOCK_BUTTON_H:  # the question ends above the taller buttons
        box = dialog.confirmation_text
        box.set_dimensions((box.relative_rect.width, dialog.get_container().get_rect().height - bh - 20))
    return dialog


def _refit_buttons(manager: pygame_gui.UIManager, buttons: tuple[Any, ...]) -> int:
    """Make the bottom-right buttons of a stock dialog as high as the scaled button text; returns their height."""
    bh = max(STOCK_BUTTON_H, projector.text_height(manager, None, "button") + projector.px(4))
    if bh > STOCK_BUTTON_H:
        for button in buttons:
            button.set_dimensions((button.relative_rect.width, bh))
            button.set_relative_position((button.relative_rect.x, -bh - 10))
    return bh


def file_dialog(manager: pygame_gui.UIManager, window: tuple[int, int], title: str, initial: str | Path, *,
                existing: bool, suffixes: set[str] | None = None) -> FileDialog:
    """The file dialog (:class:`FileDialog`) centred in a window of ``window`` pixels, its rows fitted to the
    interface scale: the icon buttons, the path field under them, the file list under that (folders first, hidden
    entries left out), OK and Cancel at the bottom.

    Args:
        manager: the App's UI manager.
        window: the window's size in pixels.
        title: the dialog's title.
        initial: the file (or folder) it starts at.
        existing: only existing files can be picked (Load); else a new name can be typed (Save).
        suffixes: the file suffixes listed (``{".py"}``), or ``None`` for all.

    Returns:
        The dialog (blocking); it posts ``UI_FILE_DIALOG_PATH_PICKED``.
    """
    px = projector.px
    w, h = min(px(760), window[0] - 20), min(px(540), window[1] - 20)
    rect = pygame.Rect((window[0] - w) // 2, (window[1] - h) // 2, w, h)
    kw: dict[str, Any] = {"allowed_suffixes": suffixes} if suffixes is not None else {}
    dialog = FileDialog(rect, manager, window_title=title, initial_file_path=str(initial),
                        allow_existing_files_only=existing, **kw)
    dialog.set_blocking(True)
    bh = _refit_buttons(manager, (dialog.cancel_button, dialog.ok_button))
    icon = max(20, px(24))
    for i, button in enumerate((dialog.home_button, dialog.delete_button, dialog.parent_directory_button,
                                dialog.refresh_button)):
        button.set_dimensions((icon, icon))
        button.set_relative_position((10 + i * (icon + 2), 10))
    line = dialog.file_path_text_line
    line.set_relative_position((10, 10 + icon + 8))
    top = 10 + icon + 8 + line.relative_rect.height + 8
    box = dialog.file_selection_list
    box.set_relative_position((10, top))
    box.set_dimensions((box.relative_rect.width, dialog.get_container().get_rect().height - top - bh - 20))
    return dialog
