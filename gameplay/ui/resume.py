"""Resuming the autosaved game at start, and opening a saved game in a new match.

At start the App calls :func:`offer_autosave`: when the data folder holds an autosave of a game in progress, a
small window asks "Resume your checkers game (move 12)?" with Resume and Discard. While it is open nothing is
autosaved (a match started meanwhile cannot overwrite the game on offer). A corrupt autosave is moved aside by
:func:`gameplay.savegame.load_autosave` and reported in one message window; the App starts normally.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIWindow
from pygame_gui.windows import UIMessageWindow

from ai.agents import make_agent
from gameplay import savegame
from gameplay.rules.base import GameError
from gameplay.ui import projector

if TYPE_CHECKING:
    from gameplay.ui.app import App
    from gameplay.ui.match import MatchScene


def open_saved_game(app: App, saved: savegame.SavedGame) -> MatchScene | None:
    """Start a match of ``saved``'s game with its sides and replay its moves.

    An agent spec this version cannot build is replaced by a human (said in the panel). On a replay error
    nothing changes and a message window says why.

    Returns:
        The new match scene, or ``None`` when the game could not be restored.
    """
    notes: list[str] = []
    agents = []
    for i, spec in enumerate(saved.agents):
        try:
            agents.append(make_agent(saved.game, spec))
        except GameError as e:
            notes.append(f"player {i + 1}'s agent {spec!r} is unknown here ({e}); a human plays it")
            agents.append(make_agent(saved.game, "human"))
    try:
        from ai.profiles import game_for
        start, moves = saved.replay(game_for(saved.game))
    except (savegame.SaveError, GameError) as e:
        show_message(app, "Could not open the game", str(e))
        return None
    scene = app.start_match(saved.game, agents[0], agents[1])
    scene.load_game(start, moves)
    if notes:
        scene.notify("; ".join(notes), error=True)
    return scene


def show_message(app: App, title: str, text: str) -> UIMessageWindow:
    """One message window centred in the App (dismissed by its button or close box)."""
    w, h = min(560, app.size[0] - 40), min(300, app.size[1] - 40)
    rect = pygame.Rect((app.size[0] - w) // 2, (app.size[1] - h) // 2, w, h)
    return UIMessageWindow(rect, html.escape(text), app.manager, window_title=title)


class ResumePrompt:
    """The start-up question "Resume your <game> game (move N)?" with Resume / Discard.

    Args:
        app: the App (its ``resume_autosave`` / ``discard_autosave`` run on the buttons).
        saved: the autosaved game on offer.
    """

    def __init__(self, app: App, saved: savegame.SavedGame) -> None:
        self.app = app
        self.saved = saved
        px = projector.px
        w, h = min(px(600), app.size[0] - 40), min(px(240), app.size[1] - 40)
        rect = pygame.Rect((app.size[0] - w) // 2, (app.size[1] - h) // 2, w, h)
        self.window = UIWindow(rect, app.manager, window_display_title="Game in progress",
                               object_id="#resume_window")
        self.window.set_blocking(True)
        cw, ch = self.window.get_container().get_rect().size
        when = f", saved {saved.saved_at.replace('T', ' ')[:16]}" if saved.saved_at else ""
        detail = f"{saved.agents[0]} vs {saved.agents[1]}{when}"
        self.label = UILabel(pygame.Rect(px(16), px(10), cw - px(32), px(40)), saved.prompt(), app.manager,
                             container=self.window)
        self.detail = UILabel(pygame.Rect(px(16), px(52), cw - px(32), px(34)), detail, app.manager,
                              container=self.window, object_id="#field_label")
        bw = (cw - px(32) - px(12)) // 2
        bh = px(50)
        self.resume = UIButton(pygame.Rect(px(16), ch - px(16) - bh, bw, bh), "Resume", app.manager,
                               container=self.window, tool_tip_text="Go on with the saved game")
        self.discard = UIButton(pygame.Rect(px(16) + bw + px(12), ch - px(16) - bh, bw, bh), "Discard",
                                app.manager, container=self.window, tool_tip_text="Delete the saved game")

    @property
    def text(self) -> str:
        """The question shown."""
        return str(self.label.text)

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Resume, Discard, the close box, Esc (later: the file stays). Returns True when the event was used."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.resume:
                self.app.resume_autosave()
                return True
            if event.ui_element is self.discard:
                self.app.discard_autosave()
                return True
        if event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.window:
            self.app.resume_prompt = None
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.close()
            self.app.resume_prompt = None
            return True
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.app.resume_autosave()
            return True
        if event.type in (pygame.KEYDOWN, pygame.KEYUP) and getattr(event, "key", None) != pygame.K_F11:
            return True  # the question is modal: other keys wait until it is answered
        return False

    @property
    def alive(self) -> bool:
        """True while the window is shown by the App's current UI manager (a new scale or theme replaces it)."""
        return bool(self.window.alive()) and self.window.ui_manager is self.app.manager

    def close(self) -> None:
        """Kill the window."""
        if self.window.alive():
            self.window.kill()


def offer_autosave(app: App, directory: Any = None) -> ResumePrompt | None:
    """Ask about the autosaved game if there is one (the App calls this once at start).

    A corrupt autosave is moved aside and reported in one message window; the App goes on normally.

    Returns:
        The prompt shown (also ``app.resume_prompt``), or ``None``.
    """
    try:
        saved = savegame.load_autosave(directory)
    except savegame.CorruptSaveError as e:
        app.autosave_offer = None
        app.autosave_problem = str(e)
        show_message(app, "Autosave not restored", str(e))
        return None
    app.autosave_offer = saved
    if saved is None:
        return None
    prompt = ResumePrompt(app, saved)
    app.resume_prompt = prompt
    return prompt
