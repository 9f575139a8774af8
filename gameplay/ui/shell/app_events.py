"""The window's event routing: the App's keys, a focused text field, pygame_gui or the top scene, for each event."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.core import UIElement
from pygame_gui.elements import UIWindow

from gameplay.ui.scenes.menu import MenuScene
from gameplay.ui.widgets import events

if TYPE_CHECKING:
    from gameplay.ui.widgets.window_controls import WindowControls


def text_entry_focused(manager: pygame_gui.UIManager) -> bool:
    """True while a pygame_gui text field (a line or a box, in any window or dialog) has the keyboard focus.

    ``element.focus()`` does not update the manager's focus set, so every live element is looked at.
    """
    kinds = (pygame_gui.elements.UITextEntryLine, pygame_gui.elements.UITextEntryBox)
    elements = set(manager.get_focus_set() or ())
    try:
        elements.update(manager.get_sprite_group().sprites())
    except Exception:  # noqa: BLE001 - an older pygame_gui without the sprite group
        pass
    entries: list[UIElement] = [e for e in elements if isinstance(e, kinds)]
    return any(getattr(e, "is_focused", False) and e.alive() and getattr(e, "is_enabled", True) for e in entries)


ECHO_FRAMES = 30
"""Frames after a fullscreen switch within which an F11 press or a resize that comes with the new window's focus
is the switch's echo, not the user's (:meth:`EventRouter.switch_echo`)."""


def top_window(manager: pygame_gui.UIManager) -> UIWindow | None:
    """The topmost pygame_gui window shown (a dialog, a message, the help), or ``None`` when none is open."""
    for window in reversed(manager.get_window_stack().get_full_stack()):
        if isinstance(window, UIWindow) and window.alive() and window.visible:
            return window
    return None


class EventRouter:
    """Routes the window's events (:meth:`gameplay.ui.shell.app.App.handle_event`): the App's own keys (F11, Esc,
    Ctrl+plus / minus / 0, Ctrl+H, B) and navigation events, then pygame_gui, then the top scene; while a text field
    has the focus every key goes to it (only F11 and Esc still act). Esc closes the topmost thing open
    (:meth:`escape`).

    Args:
        app: the window whose events are routed.
    """

    def __init__(self, app: WindowControls) -> None:
        self.app = app
        self.swallow_text: tuple[str, int] | None = None
        """(character, frame) of the key press that just opened a text field: its TEXTINPUT is dropped."""
        self.switched_frame: int | None = None
        """The frame in which F11 last switched fullscreen on or off (``None``: never)."""
        self.focus_frame = -1
        """The frame of the last ``WINDOWFOCUSGAINED`` (the window made anew by a switch gets the focus)."""

    def switch_echo(self) -> bool:
        """True while an event may be the echo of the last fullscreen switch rather than the user's: in the frame
        after the switch, or in the frame the re-created window got the focus, within :data:`ECHO_FRAMES` frames
        of the switch."""
        if self.switched_frame is None:
            return False
        since = self.app.frames - self.switched_frame
        return since <= 1 or (since <= ECHO_FRAMES and self.focus_frame == self.app.frames)

    def fullscreen_key(self) -> None:
        """F11: switch fullscreen on or off, once a press.

        Switching makes the window anew (SDL's ``set_mode``). Without a window manager the new window gets the
        focus while F11 may still be down (or its release went to the old window), and SDL reports the held key as
        a new press to the new window: read as a press, it switched back, made another window, got another
        replayed press... (issue 47: the window made anew every 2 s, black). A press that is such an echo
        (:meth:`switch_echo`) is ignored; a real second press comes frames later.
        """
        if self.switch_echo():
            return
        self.switched_frame = self.app.frames
        self.app.toggle_fullscreen()

    def handle_event(self, event: pygame.event.Event) -> None:
        """Route one event: the App's own keys and events, then pygame_gui, then the top scene."""
        if event.type == pygame.QUIT or events.is_event(event, "QUIT_APP"):
            self.app.quit()
            return
        if event.type == pygame.WINDOWFOCUSGAINED:
            self.focus_frame = self.app.frames
        if event.type == pygame.VIDEORESIZE:
            # the echo of a switch may report the size of the window before it: the window's own size is laid out
            self.app.resize(self.app.size if self.switch_echo() else (event.w, event.h))
            return
        if self.app.blanked:  # any key or click brings the screen back (and does nothing else)
            if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
                self.app.blank(False)
            if event.type in (pygame.KEYDOWN, pygame.KEYUP, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP,
                              pygame.TEXTINPUT):
                return
        if (getattr(self.app.scene, "attract", False) and getattr(self.app.scene, "exits_on_any_key", True)
                and event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN)):
            self.app.open_menu()  # attract mode: any key or click returns to the title screen
            return
        if self.app.resume_prompt is not None and self.app.resume_prompt.handle_event(event):
            return
        if events.is_event(event, "MOVE_PLAYED") or events.is_event(event, "AI_ERROR"):
            self.app.sounds.on_event(event, self.app.scene)
        if event.type == pygame.TEXTINPUT and self.swallow_text is not None:
            text, frame = self.swallow_text
            self.swallow_text = None
            if event.text == text and self.app.frames <= frame + 2:
                return  # typed by the key that opened the dialog (S, V...): not meant for its text field
        if event.type in (pygame.KEYDOWN, pygame.KEYUP, pygame.TEXTINPUT) and text_entry_focused(self.app.manager):
            # Typing: every letter goes to the text field, no shortcut of the App or the scene runs (B, H, F, S...).
            if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
                self.fullscreen_key()
                return
            if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                self.escape()
                return
            self.app.manager.process_events(event)
            return
        if event.type == pygame.KEYDOWN:
            self.swallow_text = None
            self.handle_key(event)
            if text_entry_focused(self.app.manager):  # the key opened a dialog with a focused text field
                self.swallow_text = (getattr(event, "unicode", ""), self.app.frames)
            return
        self.route(event)

    def handle_key(self, event: pygame.event.Event) -> None:
        """A key press while no text field has the focus: the App's keys, then pygame_gui and the scene."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
            self.fullscreen_key()
            return
        if event.type == pygame.KEYDOWN and event.mod & pygame.KMOD_CTRL:
            zoom = {pygame.K_PLUS: 1, pygame.K_EQUALS: 1, pygame.K_KP_PLUS: 1, pygame.K_MINUS: -1,
                    pygame.K_KP_MINUS: -1, pygame.K_0: 0, pygame.K_KP0: 0}.get(event.key)
            if zoom is not None:
                self.app.zoom(zoom)
                return
            if event.key == pygame.K_h:
                self.app.toggle_high_contrast()
                return
        if (event.type == pygame.KEYDOWN and event.key == pygame.K_b and not event.mod & (pygame.KMOD_CTRL
                | pygame.KMOD_ALT)):
            self.app.blank(True)
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.escape()
            return
        self.route(event)

    def escape(self) -> None:
        """Esc closes the topmost thing open, one per press, and only with nothing open over the scene does the
        scene's own Esc:

        1. the topmost pygame_gui window (a dialog, a question, a message, the help), as its close box does (its
           owner hears ``UI_WINDOW_CLOSE`` as for a click on the box: Cancel, the game kept);
        2. what the scene has open over itself (:meth:`gameplay.ui.widgets.scene.Scene.close_top`: the search
           tree's presenter view, then the tree itself in a match);
        3. the scene's own Esc: its question or its way back (``close_dialog``: the race, the growth figure, the
           PDN browser, the Tree Lab's presenter view), back to the scene below (``escape_goes_back``: a match
           opened from the game browser), else the title screen (leaving a match: it was autosaved after its last
           move), and from the title screen quit.
        """
        window = top_window(self.app.manager)
        if window is not None:
            window.on_close_window_button_pressed()
            return
        scene = self.app.scene
        if scene is not None and scene.close_top():
            return
        close_dialog = getattr(scene, "close_dialog", None)
        if callable(close_dialog) and close_dialog():  # a question of the scene (confirm): Esc is Cancel
            return
        if getattr(scene, "escape_goes_back", False) and len(self.app.scenes) > 1:
            self.app.pop()  # a scene opened from another (a match from the game browser): back to it
            return
        if isinstance(scene, MenuScene) or scene is None:
            self.app.quit()
        else:
            self.app.open_menu()

    def route(self, event: pygame.event.Event) -> None:
        """The App's navigation events, then pygame_gui, then the top scene."""
        if events.is_event(event, "OPEN_MENU"):
            self.app.open_menu()
            return
        if events.is_event(event, "START_MATCH"):
            self.app.start_match(event.game, event.p1, event.p2)
            return
        used = self.app.manager.process_events(event)
        if used and event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL):
            return
        if self.app.scene is not None:
            self.app.scene.handle_event(event)
