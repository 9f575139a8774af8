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


def _details(saved: savegame.SavedGame, n: int) -> list[str]:
    """The lines of text about ``saved`` in the prompt (each wrapped whole): with several games its title and
    progress, then the sides and when it was saved."""
    when = f"saved {saved.saved_at.replace('T', ' ')[:16]}" if saved.saved_at else ""
    what = f"{saved.title[:1].upper()}{saved.title[1:]}: {saved.progress()}" if n > 1 else ""
    sides = f"{saved.agents[0]} vs {saved.agents[1]}"
    return [t for t in (what, ", ".join(t for t in (sides, when) if t)) if t]


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
        manager = app.manager
        n = len(self.saves)
        w = min(px(640), app.size[0] - 40)
        cw = w - 2 * px(16) - 32  # about the window's container width (its borders and margins)
        line_h = projector.text_height(manager, "#field_label")
        bh, bw, gap = px(46), px(130), px(8)
        # Each row: its title (several games) and its details, wrapped whole, then Resume and Discard under them.
        texts = [[line for part in _details(saved, n)
                  for line in projector.wrap_text(manager, part, cw, "#field_label")] for saved in self.saves]
        rows_h = sum(len(lines) * line_h + px(4) + bh + px(14) for lines in texts)
        heading = self.saved.prompt() if n == 1 else "Resume one of your games?"
        heading_lines = projector.wrap_text(manager, heading, cw)
        head_h = len(heading_lines) * projector.text_height(manager) + px(8)
        h = min(px(60) + head_h + rows_h + bh + px(24), app.size[1] - 40)
        rect = pygame.Rect((app.size[0] - w) // 2, (app.size[1] - h) // 2, w, h)
        title = "Game in progress" if n == 1 else f"{n} games in progress"
        self.window = UIWindow(rect, manager, window_display_title=title, object_id="#resume_window")
        self.window.set_blocking(True)
        cw, ch = self.window.get_container().get_rect().size
        inner = cw - 2 * px(16)
        heading_lines = projector.wrap_text(manager, heading, inner)
        self.heading = heading
        self.label = UILabel(pygame.Rect(px(16), px(6), inner, projector.text_height(manager)), heading_lines[0],
                             manager, container=self.window)
        y = px(6) + projector.text_height(manager)
        for more in heading_lines[1:]:
            UILabel(pygame.Rect(px(16), y, inner, projector.text_height(manager)), more, manager,
                    container=self.window)
            y += projector.text_height(manager)
        y += px(8)
        self.rows: list[tuple[savegame.SavedGame, UIButton, UIButton]] = []
        for saved in self.saves:
            for part in _details(saved, n):
                for line in projector.wrap_text(manager, part, inner, "#field_label"):
                    UILabel(pygame.Rect(px(16), y, inner, line_h), line, manager, container=self.window,
                            object_id="#field_label")
                    y += line_h
            y += px(4)
            resume = UIButton(pygame.Rect(px(16), y, bw, bh), "Resume", manager, container=self.window,
                              tool_tip_text=f"Go on with the saved {saved.title} game")
            discard = UIButton(pygame.Rect(px(16) + bw + gap, y, bw, bh), "Discard", manager, container=self.window,
                               tool_tip_text=f"Delete the saved {saved.title} game")
            self.rows.append((saved, resume, discard))
            y += bh + px(14)
        self.resume, self.discard = self.rows[0][1], self.rows[0][2]
        self.later = UIButton(pygame.Rect(px(16), max(y, ch - px(12) - bh), inner, bh),
                              "Later (keep them saved)" if n > 1 else "Later (keep it saved)", manager,
                              container=self.window, tool_tip_text="Close; the saved games stay (Esc)")

    @property
    def text(self) -> str:
        """The question shown (all its lines)."""
        return self.heading

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
