"""The help window of a match: the game's rules in short and every key (F1 or the panel's Help button).

A :class:`HelpWindow` is a pygame_gui window over the match; Esc, F1, its close button or its "Close" button
close it. The texts come from the game's window parts (:mod:`gameplay.ui.boards.window_parts`: ``rules_html``, ``keys``,
``hidden_keys``; a game without parts gets its record's plain rules and the generic view's key) and follow
``RULES.md``. Nothing happens at import time.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UITextBox, UIWindow

from gameplay.ui.boards.window_parts import window_parts
from gameplay.ui.play import match_keys

COMMON_KEYS: list[tuple[str, str]] = [
    *match_keys.help_rows(),  # N, U / Ctrl+Z, R / Ctrl+Y, T, Enter: the match scene's own key table
    ("K", "race: several agents search this position side by side"),
    ("F1", "this help"),
    ("F11", "fullscreen"),
    ("Esc", "close what is open, the topmost first (a dialog, the help, the search tree's presenter view, the "
            "search tree); with nothing open, back to the menu"),
]
"""Keys of every match."""

ESC_WITHOUT_TREE = ("Esc", "close what is open, the topmost first (a dialog, the help); with nothing open, back to "
                           "the menu")
"""The Esc row of a game that hides T (no search tree to close)."""

GENERIC_RULES = "Play by clicking the board or the move buttons, or type a move (Enter, the move, Enter)."
"""The rules' place in the help of a game whose window parts give none (``WindowParts.rules_html``)."""


def keys_html(game: str) -> str:
    """The key table of ``game`` as pygame_gui HTML lines (``<b>key</b>  what it does``): the game's own keys (its
    window parts'), then the common ones it does not hide."""
    parts = window_parts(game)
    rows = list(parts.keys) + [ESC_WITHOUT_TREE if k[0] == "Esc" and "T" in parts.hidden_keys else k
                               for k in COMMON_KEYS if k[0] not in parts.hidden_keys]
    return "<br>".join(f"<b>{html.escape(k)}</b>&nbsp;&nbsp;{html.escape(v)}" for k, v in rows)


def help_html(game: str, title: str) -> str:
    """The whole help text of ``game`` (rules, then keys)."""
    rules = window_parts(game).rules_html or GENERIC_RULES
    return (f"<font size=5><b>{html.escape(title)}</b></font><br><br>{rules}<br><br>"
            f"<b><u>Keys</u></b><br>{keys_html(game)}")


class HelpWindow:
    """The help of one game, shown as a window centred over the match.

    Args:
        manager: the App's UI manager.
        size: the window size in pixels (the help takes at most 760x600 of it).
        game: game name.
        title: game title for the heading.
        on_policy: called by the figure button (the window parts' ``help_figure``, with its label and tip; Pig's
            "Policy picture", issue 15), after the help closes; ``None``: no such button (nor when the game's parts
            have no figure).
    """

    def __init__(self, manager: pygame_gui.UIManager, size: tuple[int, int], game: str, title: str,
                 on_policy: Callable[[], None] | None = None) -> None:
        from gameplay.ui.widgets import projector
        px = projector.px  # sizes follow the interface scale (Ctrl+plus / Ctrl+minus)
        w, h = min(px(760), size[0] - 40), min(px(600), size[1] - 40)
        rect = pygame.Rect((size[0] - w) // 2, (size[1] - h) // 2, w, h)
        self.window = UIWindow(rect, manager, window_display_title=f"Help: {title}", object_id="#help_window")
        cw, ch = self.window.get_container().get_rect().size
        bw = projector.text_width(manager, "Close (F1)", None, "button") + px(28)
        bh = max(px(46), projector.text_height(manager, None, "button") + px(8))
        self.text = UITextBox(help_html(game, title), pygame.Rect(12, 10, cw - 24, ch - 10 - bh - 24), manager,
                              container=self.window)
        self.close_button = UIButton(pygame.Rect(cw - 12 - bw, ch - 12 - bh, bw, bh), "Close (F1)", manager,
                                     container=self.window)
        self.on_policy = on_policy
        self.policy_button: UIButton | None = None
        figure = window_parts(game).help_figure
        if on_policy is not None and figure is not None:
            pw = projector.text_width(manager, figure.label, None, "button") + px(28)
            self.policy_button = UIButton(pygame.Rect(cw - 12 - bw - px(10) - pw, ch - 12 - bh, pw, bh),
                                          figure.label, manager, container=self.window,
                                          tool_tip_text=figure.tip or None)

    @property
    def alive(self) -> bool:
        """True until the window is closed."""
        return bool(self.window.alive())

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Close on its button or window close. Returns True when the event closed it."""
        if (event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.close_button) or (
                event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.window):
            self.close()
            return True
        if (self.policy_button is not None and event.type == pygame_gui.UI_BUTTON_PRESSED
                and event.ui_element is self.policy_button):
            self.close()
            if self.on_policy is not None:
                self.on_policy()
            return True
        return False

    def close(self) -> None:
        """Kill the window (safe to call twice)."""
        if self.window.alive():
            self.window.kill()

    def html(self) -> Any:
        """The text shown (for tests)."""
        return self.text.html_text
