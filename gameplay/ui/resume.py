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

from gameplay import savegame
from gameplay.rules.base import GameError
from gameplay.ui import projector

if TYPE_CHECKING:
    from gameplay.ui.app import App
    from gameplay.ui.match import MatchScene


def open_saved_game(app: App, saved: savegame.SavedGame, message: str = "") -> MatchScene | None:
    """Start a match of ``saved``'s game with its sides (every saved setting, custom weights included) and replay
    its moves; the panel shows ``message``.

    A setting this version cannot restore is named in the panel (the side plays the spec's value instead); an
    agent spec it cannot build is replaced by a human (said too). On a replay error nothing changes and a message
    window says why. A game resumed from an autosave goes on writing to that autosave.

    Returns:
        The new match scene, or ``None`` when the game could not be restored.
    """
    notes: list[str] = []
    agents = []
    for i, spec in enumerate(saved.agents):
        agent, side_notes = savegame.restore_agent(saved.game, spec, saved.sides[i])
        agents.append(agent)
        notes += [f"Player {i + 1}: {n}" for n in side_notes]
    try:
        from ai.profiles import game_for
        start, moves = saved.replay(game_for(saved.game))
    except (savegame.SaveError, GameError) as e:
        show_message(app, "Could not open the game", str(e))
        return None
    scene = app.start_match(saved.game, agents[0], agents[1])
    scene.load_game(start, moves)
    if saved.path is not None:
        scene.aids.autosave_slot = saved.path
    text = message
    if notes:
        scene.notify((text + " " if text else "") + "Not restored: " + "; ".join(notes) + ".", error=True)
    elif text:
        scene.notify(text)
    return scene


def show_message(app: App, title: str, text: str) -> UIMessageWindow:
    """One message window centred in the App (dismissed by its button or close box)."""
    w, h = min(560, app.size[0] - 40), min(300, app.size[1] - 40)
    rect = pygame.Rect((app.size[0] - w) // 2, (app.size[1] - h) // 2, w, h)
    return UIMessageWindow(rect, html.escape(text), app.manager, window_title=title)


class ResumePrompt:
    """The start-up question about the games in progress: one row per autosaved game ("Resume your checkers game
    (move 12)?") with Resume and Discard; the close box, Esc and Later keep them all for later.

    Args:
        app: the App (its ``resume_autosave`` / ``discard_autosave`` run on the buttons).
        saves: the autosaved games on offer, newest first (one :class:`SavedGame` is accepted too).
    """

    def __init__(self, app: App, saves: savegame.SavedGame | list[savegame.SavedGame]) -> None:
        self.app = app
        self.saves = [saves] if isinstance(saves, savegame.SavedGame) else list(saves)
        self.saved = self.saves[0]
        px = projector.px
        n = len(self.saves)
        row_h = px(96)
        w = min(px(640), app.size[0] - 40)
        h = min(px(90) + n * row_h + px(66), app.size[1] - 40)
        rect = pygame.Rect((app.size[0] - w) // 2, (app.size[1] - h) // 2, w, h)
        title = "Game in progress" if n == 1 else f"{n} games in progress"
        self.window = UIWindow(rect, app.manager, window_display_title=title, object_id="#resume_window")
        self.window.set_blocking(True)
        cw, ch = self.window.get_container().get_rect().size
        heading = self.saved.prompt() if n == 1 else "Resume one of your games?"
        self.label = UILabel(pygame.Rect(px(16), px(6), cw - px(32), px(40)), heading, app.manager,
                             container=self.window)
        self.rows: list[tuple[savegame.SavedGame, UIButton, UIButton]] = []
        y = px(50)
        bw = px(130)
        from gameplay.ui.match import fit_text
        for saved in self.saves:
            when = f"saved {saved.saved_at.replace('T', ' ')[:16]}" if saved.saved_at else ""
            what = f"{saved.title[:1].upper()}{saved.title[1:]}: {saved.progress()}" if n > 1 else ""
            sides = f"{saved.agents[0]} vs {saved.agents[1]}"
            lines = [t for t in (what, sides, when) if t]
            top, rest = (lines[0], lines[1:]) if n > 1 else (", ".join(lines), [])
            UILabel(pygame.Rect(px(16), y, cw - px(32), px(34)),
                    fit_text(app.manager, top, cw - px(48), 20, bold=True), app.manager, container=self.window,
                    object_id="#field_label")
            if rest:
                left = cw - px(16) - 2 * bw - px(26)
                UILabel(pygame.Rect(px(16), y + px(38), left, px(46)),
                        fit_text(app.manager, ", ".join(rest), left - px(16), 20, bold=True), app.manager,
                        container=self.window, object_id="#field_label")
            resume = UIButton(pygame.Rect(cw - px(16) - 2 * bw - px(10), y + px(38), bw, px(46)), "Resume",
                              app.manager, container=self.window,
                              tool_tip_text=f"Go on with the saved {saved.title} game")
            discard = UIButton(pygame.Rect(cw - px(16) - bw, y + px(38), bw, px(46)), "Discard", app.manager,
                               container=self.window, tool_tip_text=f"Delete the saved {saved.title} game")
            self.rows.append((saved, resume, discard))
            y += row_h
        self.resume, self.discard = self.rows[0][1], self.rows[0][2]
        self.later = UIButton(pygame.Rect(px(16), ch - px(12) - px(46), cw - px(32), px(46)),
                              "Later (keep them saved)" if n > 1 else "Later (keep it saved)", app.manager,
                              container=self.window, tool_tip_text="Close; the saved games stay (Esc)")

    @property
    def text(self) -> str:
        """The question shown."""
        return str(self.label.text)

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Resume, Discard, Later, the close box, Esc (later: the files stay). Returns True when the event was
        used."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for saved, resume, discard in self.rows:
                if event.ui_element is resume:
                    self.app.resume_autosave(saved)
                    return True
                if event.ui_element is discard:
                    self.app.discard_autosave(saved)
                    return True
            if event.ui_element is self.later:
                self.close()
                self.app.resume_prompt = None
                return True
        if event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.window:
            self.app.resume_prompt = None  # the close box: decide later, every saved game stays
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.close()
            self.app.resume_prompt = None
            return True
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.app.resume_autosave(self.saved)
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
    """Ask about the autosaved games if there are any (the App calls this once at start).

    A corrupt autosave is moved aside and reported in one message window; the App goes on normally.

    Returns:
        The prompt shown (also ``app.resume_prompt``), or ``None``.
    """
    saves, problems = savegame.load_autosaves(directory)
    if problems:
        app.autosave_problem = " ".join(str(e) for e in problems)
        show_message(app, "Autosave not restored", app.autosave_problem)
    app.autosave_offers = saves
    if not saves:
        return None
    prompt = ResumePrompt(app, saves)
    app.resume_prompt = prompt
    return prompt
