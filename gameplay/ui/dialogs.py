"""pygame_gui's stock dialogs at the interface scale (:mod:`gameplay.ui.projector`).

pygame_gui builds its ``UIConfirmationDialog`` with 30-pixel buttons whatever the font: at a projector's scale the
text is taller than its button. :func:`confirm_dialog` makes the dialog, centred in the window, with buttons as high
as the theme's button text needs and the question above them.
"""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.windows import UIConfirmationDialog

from gameplay.ui import projector

STOCK_BUTTON_H = 30
"""pygame_gui's own button height in its dialogs (pixels)."""


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
    bh = max(STOCK_BUTTON_H, projector.text_height(manager, None, "button") + px(4))
    if bh > STOCK_BUTTON_H:  # as high as the scaled text needs; the question ends above them
        for button in (dialog.cancel_button, dialog.confirm_button):
            button.set_dimensions((button.relative_rect.width, bh))
            button.set_relative_position((button.relative_rect.x, -bh - 10))
        box = dialog.confirmation_text
        box.set_dimensions((box.relative_rect.width, dialog.get_container().get_rect().height - bh - 20))
    return dialog
