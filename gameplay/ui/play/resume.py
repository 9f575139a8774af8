"""Resuming the autosaved game at start, and opening a saved game in a new match.

At start the App (``App.offer_autosave``, the owner of the games on offer and of the open question) looks for
them: when the data folder holds autosaves of games in progress, a :class:`ResumePrompt` window asks "Resume your
checkers game (move 12)?" (one game) or lists every one of them, several of the same game included ("Checkers, move
12, yesterday 14:02" / "human vs medium", Resume, Discard): the :class:`SavedGamesWindow` whose list scrolls while its
own buttons (Later) stay in view at every window size and interface scale. The title screen's Play on a game with
games in progress asks the same way (:class:`SavedGameQuestion`). While the prompt is open nothing is autosaved (a
match started meanwhile cannot overwrite the game on offer). A corrupt autosave is moved aside by
:func:`gameplay.files.autosave.load_autosaves` and reported in one message window; the App starts normally.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIWindow
from pygame_gui.windows import UIMessageWindow

from gameplay.files import autosave, savegame
from gameplay.rules.base import GameError
from gameplay.ui.play.match_panel import button_label
from gameplay.ui.widgets import projector

if TYPE_CHECKING:
    from gameplay.ui.widgets.scene import StartedMatch, Window
    from gameplay.ui.widgets.window_controls import WindowControls


def open_saved_game(app: Window, saved: savegame.SavedGame, message: str = "") -> StartedMatch | None:
    """Start a match of ``saved``'s game with its sides (every saved setting, custom weights included), replay
    its moves and put back its last AI decision with the tree it recorded (``MatchScene.restore_decision``: T shows
    it as before the save); the panel shows ``message`` (and says so when the saved tree was too large to save
    or could not be read).

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
        from ai.agents.profiles import game_for
        start, moves = saved.replay(game_for(saved.game))
    except (savegame.SaveError, GameError) as e:
        show_message(app, "Could not open the game", str(e))
        return None
    scene = app.start_match(saved.game, agents[0], agents[1])
    scene.load_game(start, moves)
    tree_note = scene.restore_decision(saved.decision)  # the tree view shows the last decision's tree as it was
    if saved.path is not None:
        scene.autosave_to(saved.path)
    text = " ".join(t for t in (message, tree_note) if t)
    if notes:
        scene.notify((text + " " if text else "") + "Not restored: " + "; ".join(notes) + ".", error=True)
    elif text:
        scene.notify(text)
    return scene


def show_message(app: Window, title: str, text: str) -> UIMessageWindow:
    """One message window centred in the App (dismissed by its button or close box)."""
    w, h = min(560, app.size[0] - 40), min(300, app.size[1] - 40)
    rect = pygame.Rect((app.size[0] - w) // 2, (app.size[1] - h) // 2, w, h)
    return UIMessageWindow(rect, html.escape(text), app.manager, window_title=title)


def side_label(spec: str) -> str:
    """A saved side as the list shows it: ``human``, a preset (``medium``), an agent file by its name
    (``file:/x/my_agent.py`` -> ``my_agent.py``), a full spec with a space after each comma (so it wraps)."""
    if spec.startswith("file:"):
        from pathlib import PurePath
        return PurePath(spec[5:].split(",")[0]).name or spec
    return spec.replace(",", ", ")


def row_texts(saved: savegame.SavedGame, now: Any = None) -> tuple[str, str]:
    """The two lines of a saved game's row: what it is (``"Checkers, move 12"``: its title and
    :meth:`SavedGame.progress`) and when it was saved with its sides (``"yesterday 14:02 · human vs medium"``;
    :func:`gameplay.files.savegame.when_text`)."""
    what = f"{saved.title[:1].upper()}{saved.title[1:]}, {saved.progress()}"
    sides = f"{side_label(saved.agents[0])} vs {side_label(saved.agents[1])}"
    when = savegame.when_text(saved.saved_at, now)
    return what, f"{when} · {sides}" if when else sides


class SavedGamesWindow:
    """A window about saved games: its question on top, one row per saved game in a list (what the game is, when it
    was saved and its sides, Resume and Discard), and the window's own buttons at its bottom, always in view.

    The window fits the App's window at every size and interface scale. With more games than room, the list shows
    as many whole rows as fit and scrolls by rows: the mouse wheel over it, Page Up / Page Down, its Previous and
    Next buttons (with "Games 4-6 of 9" between them), and Up / Down, which choose a row (its Resume button is
    highlighted, the list scrolls to it); Enter resumes the chosen row. The window's own buttons never scroll.

    The rows' widgets are children of the window itself (not of a scrolling container: pygame_gui's theme ids grow
    with every level of nesting, to megabytes per element kind); scrolling places them again and hides the rows
    out of view.

    Subclasses say what the window asks (:meth:`title_text`, :meth:`heading_text`, :meth:`note_text`) and which
    buttons it has (:meth:`bottom_buttons`); they are asked again when a discarded game leaves the list.

    Args:
        app: the App.
        saves: the saved games, newest first.
    """

    def __init__(self, app: Window, saves: list[savegame.SavedGame]) -> None:
        self.app = app
        self.saves = list(saves)
        self.rows: list[tuple[savegame.SavedGame, UIButton, UIButton]] = []
        """Each saved game on offer with its Resume and Discard buttons, in the list's order."""
        self.buttons: dict[str, UIButton] = {}
        """The window's own buttons by key (and ``"up"`` / ``"down"``, the list's Previous and Next, when it
        scrolls)."""
        self.selected = 0
        """The row Enter resumes (Up / Down)."""
        self.top = 0
        """The first row in view."""
        self.heading = ""
        self.list_rect = pygame.Rect(0, 0, 0, 0)
        """The list's area on the screen (absolute pixels)."""
        self._row_widgets: list[list[tuple[Any, int]]] = []
        self._row_spans: list[tuple[int, int]] = []
        self._mouse: tuple[int, int] | None = None
        """Where the mouse last moved (the wheel scrolls the list when it is over it)."""
        self._build()

    # -- texts (subclasses) ----------------------------------------------------------------------------------------
    def title_text(self) -> str:
        """The window's title."""
        return "Games in progress"

    def heading_text(self) -> str:
        """The question on top of the list."""
        return "Resume one of your games?"

    def note_text(self) -> str:
        """A line above the window's buttons, or ``""``."""
        return ""

    def bottom_buttons(self) -> list[tuple[str, str, str]]:
        """The window's own buttons, ``(key, label, tool tip)`` left to right, sharing the width."""
        return [("later", "Later", "Close; the saved games stay (Esc)")]

    # -- layout ----------------------------------------------------------------------------------------------------
    def _build(self) -> None:
        app, manager, px = self.app, self.app.manager, projector.px
        sw, sh = app.size
        self.heading, self.note, self.title = self.heading_text(), self.note_text(), self.title_text()
        margin = px(16)
        hint_h = projector.text_height(manager, "#card_hint")
        head_h = projector.text_height(manager)
        bh, gap = px(46), px(8)
        # The window is made at its widest and tallest, its frame (shadow, borders, title bar) measured, then it is
        # shrunk to what its contents need: its whole rectangle, shadow included, stays inside the App's window.
        self.window = UIWindow(pygame.Rect(0, 0, min(px(680), sw - 50), sh - 50), manager,
                               window_display_title=self.title, object_id="#resume_window")
        self.window.set_blocking(True)
        full = self.window.rect
        cw, ch = self.window.get_container().get_rect().size
        frame_h = full.height - ch
        inner = cw - 2 * margin
        heading_lines = projector.wrap_text(manager, self.heading, inner)
        note_lines = projector.wrap_text(manager, self.note, inner, "#card_hint") if self.note else []
        rows_h = self._plan_rows(inner)[1]
        foot = px(8) + len(note_lines) * hint_h + px(6) + bh + px(12)
        want = px(6) + len(heading_lines) * head_h + px(4) + rows_h + foot
        size = (full.width, min(sh - 20, frame_h + want))
        self.window.set_dimensions(size)
        self.window.set_position(((sw - size[0]) // 2, (sh - size[1]) // 2))
        cw, ch = self.window.get_container().get_rect().size
        inner = cw - 2 * margin
        y = px(6)
        self.label = None
        for line in projector.wrap_text(manager, self.heading, inner):
            label = UILabel(pygame.Rect(margin, y, inner, head_h), line, manager, container=self.window)
            self.label = self.label or label
            y += head_h
        y += px(4)
        # The window's own buttons and the note, from the bottom up: always inside the window.
        by = ch - px(12) - bh
        specs = self.bottom_buttons()
        bw = (inner - (len(specs) - 1) * gap) // max(1, len(specs))
        for i, (key, text, tip) in enumerate(specs):
            self.buttons[key] = UIButton(pygame.Rect(margin + i * (bw + gap), by, bw, bh),
                                         button_label(manager, text, bw - px(12)), manager, container=self.window,
                                         tool_tip_text=tip)
        ny = by - px(6) - len(note_lines) * hint_h
        for line in note_lines:
            UILabel(pygame.Rect(margin, ny, inner, hint_h), line, manager, container=self.window,
                    object_id="#card_hint")
            ny += hint_h
        area = pygame.Rect(margin, y, inner, max(px(20), ny - px(8) - y))
        if self._plan_rows(inner)[1] > area.height:  # scrolls: the pager takes a line under the rows
            ph = px(40)
            area.height = max(px(20), area.height - ph - px(6))
            pager_y = area.bottom + px(6)
            aw = max(projector.text_width(manager, t, None, "button") for t in ("Previous", "Next")) + px(28)
            self.buttons["up"] = UIButton(pygame.Rect(area.x, pager_y, aw, ph), "Previous", manager,
                                          container=self.window,
                                          tool_tip_text="The games above (Page Up, the mouse wheel)")
            self.buttons["down"] = UIButton(pygame.Rect(area.right - aw, pager_y, aw, ph), "Next", manager,
                                            container=self.window,
                                            tool_tip_text="The games below (Page Down, the mouse wheel)")
            self.pager: UILabel | None = UILabel(pygame.Rect(area.x + aw, pager_y, area.width - 2 * aw, ph), "",
                                                 manager, container=self.window, object_id="#hint")
        else:
            self.pager = None
        self._area = area
        container_rect = self.window.get_container().get_rect()
        self.list_rect = area.move(container_rect.x, container_rect.y)
        self._make_rows(area)
        if self.rows:
            self.selected = min(self.selected, len(self.rows) - 1)
            self.rows[self.selected][1].select()
        self._scroll_to(self.top)

    def _plan_rows(self, width: int) -> tuple[list[tuple[int, int, list[tuple[str, str, Any, pygame.Rect]]]], int]:
        """The rows of a list ``width`` pixels wide: each row's top, height and parts ``(kind, text, object id,
        rect relative to the row)`` (kinds ``"label"``, ``"resume"``, ``"discard"``), and the list's height."""
        manager, px = self.app.manager, projector.px
        line_h = projector.text_height(manager, "#field_label")
        hint_h = projector.text_height(manager, "#card_hint")
        bh, gap = px(46), px(8)
        bw = max(projector.text_width(manager, t, None, "button") for t in ("Resume", "Discard")) + px(32)
        beside = width - 2 * bw - gap - px(12) >= px(260)  # the buttons right of the text, else under it
        text_w = width - 2 * bw - gap - px(12) if beside else width
        out = []
        y = 0
        for saved in self.saves:
            what, sides = row_texts(saved)
            lines = [(line, "#field_label", line_h)
                     for line in projector.wrap_text(manager, what, text_w, "#field_label")]
            lines += [(line, "#card_hint", hint_h)
                      for line in projector.wrap_text(manager, sides, text_w, "#card_hint")]
            text_h = sum(h for _, _, h in lines)
            row_h = max(text_h, bh) if beside else text_h + px(4) + bh
            parts: list[tuple[str, str, Any, pygame.Rect]] = []
            ty = max(0, bh - text_h) // 2 if beside else 0
            for text, object_id, h in lines:
                parts.append(("label", text, object_id, pygame.Rect(0, ty, text_w, h)))
                ty += h
            bx, by = (width - 2 * bw - gap, (row_h - bh) // 2) if beside else (0, text_h + px(4))
            parts.append(("resume", "Resume", None, pygame.Rect(bx, by, bw, bh)))
            parts.append(("discard", "Discard", None, pygame.Rect(bx + bw + gap, by, bw, bh)))
            out.append((y, row_h, parts))
            y += row_h + px(14)
        return out, max(0, y - px(14))

    def _make_rows(self, area: pygame.Rect) -> None:
        """The rows' widgets, children of the window (placed by :meth:`_scroll_to`)."""
        manager = self.app.manager
        self.rows, self._row_widgets, self._row_spans = [], [], []
        for saved, (top, h, parts) in zip(self.saves, self._plan_rows(area.width)[0]):
            widgets: list[tuple[Any, int]] = []
            buttons: dict[str, UIButton] = {}
            for kind, text, object_id, rect in parts:
                r = rect.move(area.x, area.y)
                if kind == "label":
                    widget: Any = UILabel(r, text, manager, container=self.window, object_id=object_id)
                else:
                    tip = (f"Go on with this game: {saved.describe()} (Enter)" if kind == "resume"
                           else f"Delete this saved game: {saved.describe()}")
                    widget = buttons[kind] = UIButton(r, text, manager, container=self.window, tool_tip_text=tip)
                widgets.append((widget, rect.y))
            self.rows.append((saved, buttons["resume"], buttons["discard"]))
            self._row_widgets.append(widgets)
            self._row_spans.append((top, h))

    # -- scrolling -------------------------------------------------------------------------------------------------
    def _last_in_view(self, top: int) -> int:
        """The last row that fits whole in the list when row ``top`` is first (at least ``top`` itself)."""
        if not self._row_spans:
            return -1
        start = self._row_spans[top][0]
        last = top
        for i in range(top, len(self._row_spans)):
            row_top, h = self._row_spans[i]
            if row_top + h - start > self._area.height:
                break
            last = i
        return last

    def _scroll_to(self, top: int) -> None:
        """Show the rows from ``top`` (clamped so the list is as full as it can be), hide the others."""
        n = len(self._row_spans)
        if n == 0:
            self.top = 0
            return
        top = max(0, min(top, n - 1))
        while top > 0 and self._last_in_view(top - 1) == n - 1:
            top -= 1  # no empty room at the end while earlier rows are hidden
        self.top = top
        last = self._last_in_view(top)
        start = self._row_spans[top][0]
        for i, widgets in enumerate(self._row_widgets):
            shown = top <= i <= last
            for widget, dy in widgets:
                if shown:
                    row_top = self._row_spans[i][0] - start
                    widget.set_relative_position((widget.relative_rect.x, self._area.y + row_top + dy))
                    widget.show()
                else:
                    widget.hide()
        if self.pager is not None:
            self.pager.set_text(f"Games {top + 1}-{last + 1} of {n}")
            for key, on in (("up", top > 0), ("down", last < n - 1)):
                button = self.buttons[key]
                button.enable() if on else button.disable()

    def scroll(self, rows: int) -> None:
        """Scroll the list by ``rows`` rows (negative: back to the first)."""
        self._scroll_to(self.top + rows)

    def page(self, direction: int) -> None:
        """Scroll by the rows in view (``direction`` 1: down, -1: up)."""
        count = max(1, self._last_in_view(self.top) - self.top + 1)
        self._scroll_to(self.top + direction * count)

    def row_in_view(self, i: int) -> bool:
        """True when row ``i`` is shown whole in the list."""
        return self.top <= i <= self._last_in_view(self.top)

    def show_row(self, i: int) -> None:
        """Scroll the list so that row ``i`` is in view."""
        if not self._row_spans or self.row_in_view(i):
            return
        if i < self.top:
            self._scroll_to(i)
            return
        top = self.top
        while top < i and self._last_in_view(top) < i:
            top += 1
        self._scroll_to(top)

    def select(self, i: int) -> None:
        """Make row ``i`` the one Enter resumes, and scroll it into view."""
        if not self.rows:
            return
        i = max(0, min(i, len(self.rows) - 1))
        self.rows[self.selected][1].unselect()
        self.selected = i
        self.rows[i][1].select()
        self.show_row(i)

    def remove(self, saved: savegame.SavedGame) -> None:
        """Take ``saved`` off the list (discarded); the list keeps its place."""
        self.saves = [s for s in self.saves if s is not saved]
        self.close()
        self.rows, self.buttons = [], {}
        self._build()

    # -- events ----------------------------------------------------------------------------------------------------
    def row_event(self, event: pygame.event.Event) -> tuple[str, savegame.SavedGame] | None:
        """``("resume" | "discard", saved)`` when ``event`` pressed a row's button, ``("resume", selected)`` for
        Enter; the list's own keys, buttons and wheel scroll it or move the selection (``("select", saved)``).
        ``None`` otherwise."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for saved, resume, discard in self.rows:
                if event.ui_element is resume:
                    return "resume", saved
                if event.ui_element is discard:
                    return "discard", saved
            for key, step in (("up", -1), ("down", 1)):
                if event.ui_element is self.buttons.get(key):
                    self.page(step)
                    return "select", self.rows[self.selected][0]
        if event.type == pygame.MOUSEMOTION:
            self._mouse = tuple(event.pos)
        if event.type == pygame.MOUSEWHEEL and self.rows and self.list_rect.collidepoint(
                self._mouse or pygame.mouse.get_pos()):
            self.scroll(-int(getattr(event, "y", 0)))
            return "select", self.rows[self.selected][0]
        if event.type == pygame.KEYDOWN and self.rows:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                return "resume", self.rows[self.selected][0]
            if event.key in (pygame.K_DOWN, pygame.K_UP):
                self.select(self.selected + (1 if event.key == pygame.K_DOWN else -1))
                return "select", self.rows[self.selected][0]
            if event.key in (pygame.K_PAGEDOWN, pygame.K_PAGEUP):
                self.page(1 if event.key == pygame.K_PAGEDOWN else -1)
                return "select", self.rows[self.selected][0]
        return None

    @property
    def saved(self) -> savegame.SavedGame:
        """The newest saved game on offer (the first row)."""
        return self.saves[0]

    @property
    def resume(self) -> UIButton:
        """The first row's Resume button."""
        return self.rows[0][1]

    @property
    def discard(self) -> UIButton:
        """The first row's Discard button."""
        return self.rows[0][2]

    @property
    def text(self) -> str:
        """The question shown (all its lines)."""
        return self.heading

    @property
    def alive(self) -> bool:
        """True while the window is shown by the App's current UI manager (a new scale or theme replaces it)."""
        return bool(self.window.alive()) and self.window.ui_manager is self.app.manager

    def close(self) -> None:
        """Kill the window."""
        if self.window.alive():
            self.window.kill()


class ResumePrompt(SavedGamesWindow):
    """The start-up question about the games in progress: one row per autosaved game (every one, several of the
    same game included: "Checkers, move 12, yesterday 14:02") with Resume and Discard; Later, the close box and
    Esc keep them all for later.

    Args:
        app: the App (its ``resume_autosave`` / ``discard_autosave`` run on the buttons).
        saves: the autosaved games on offer, newest first (one :class:`SavedGame` is accepted too).
    """

    app: WindowControls
    """The App (its ``resume_autosave`` / ``discard_autosave`` run on the buttons)."""

    def __init__(self, app: WindowControls, saves: savegame.SavedGame | list[savegame.SavedGame]) -> None:
        super().__init__(app, [saves] if isinstance(saves, savegame.SavedGame) else list(saves))

    def title_text(self) -> str:
        """"Game in progress", or "N games in progress"."""
        n = len(self.saves)
        return "Game in progress" if n == 1 else f"{n} games in progress"

    def heading_text(self) -> str:
        """"Resume your checkers game (move 12)?" for one game, else "Resume one of your N games?"."""
        return self.saves[0].prompt() if len(self.saves) == 1 else f"Resume one of your {len(self.saves)} games?"

    def bottom_buttons(self) -> list[tuple[str, str, str]]:
        """Later (keep it / them saved)."""
        return [("later", "Later (keep them saved)" if len(self.saves) > 1 else "Later (keep it saved)",
                 "Close; the saved games stay (Esc)")]

    @property
    def later(self) -> UIButton:
        """The Later button (the saved games stay)."""
        return self.buttons["later"]

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Resume, Discard, Later, the close box, Esc (later: the files stay), Up / Down / Enter. Returns True when
        the event was used."""
        used = self.row_event(event)
        if used is not None:
            what, saved = used
            if what == "resume":
                self.app.resume_autosave(saved)
            elif what == "discard":
                self.app.discard_autosave(saved)
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.buttons.get("later"):
            self.app.close_resume_prompt()
            return True
        if event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.window:
            self.app.close_resume_prompt()  # the close box: decide later, every saved game stays
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.close_resume_prompt()
            return True
        if event.type in (pygame.KEYDOWN, pygame.KEYUP) and getattr(event, "key", None) != pygame.K_F11:
            return True  # the question is modal: other keys wait until it is answered
        return False


class SavedGameQuestion(SavedGamesWindow):
    """Play on a game that has games in progress (the title screen's Play): "You have a checkers game in progress
    (move 12)." with a row per saved game of it (Resume, Discard), then New game and Cancel. The close box and Esc
    are Cancel: the saved games stay.

    With one saved game, New game replaces it once a move is played (the note says so); with several, the new game
    is saved beside them.

    Args:
        menu: the title screen (its ``start`` and ``close_dialog``).
        saves: the saved games of that game, newest first (one :class:`SavedGame` is accepted too).
    """

    def __init__(self, menu: Any, saves: savegame.SavedGame | list[savegame.SavedGame]) -> None:
        assert menu.app is not None
        self.menu = menu
        super().__init__(menu.app, [saves] if isinstance(saves, savegame.SavedGame) else list(saves))

    def title_text(self) -> str:
        """"Game in progress" or "Games in progress"."""
        return "Game in progress" if len(self.saves) == 1 else "Games in progress"

    def heading_text(self) -> str:
        """"You have a checkers game in progress (move 12)." or "You have 3 checkers games in progress."."""
        first = self.saves[0]
        if len(self.saves) == 1:
            return f"You have a {first.title} game in progress ({first.progress()})."
        return f"You have {len(self.saves)} {first.title} games in progress."

    def note_text(self) -> str:
        """What New game does to the saved games."""
        return "A new game replaces it once you move." if len(self.saves) == 1 else "A new game is saved beside them."

    def bottom_buttons(self) -> list[tuple[str, str, str]]:
        """New game and Cancel."""
        return [("new", "New game", "Start afresh (Enter resumes the chosen game instead)"),
                ("cancel", "Cancel", "Back to the title screen (Esc)")]

    @property
    def new(self) -> UIButton:
        """The New game button."""
        return self.buttons["new"]

    @property
    def cancel(self) -> UIButton:
        """The Cancel button."""
        return self.buttons["cancel"]

    def handle_event(self, event: pygame.event.Event) -> bool:
        """The rows' Resume and Discard, New game, Cancel, Enter (Resume the chosen row), Up / Down, the close box;
        other keys wait. Returns True when used."""
        menu, app = self.menu, self.app
        used = self.row_event(event)
        if used is not None:
            what, saved = used
            if what == "resume":
                menu.close_dialog()
                app.resume_autosave(saved)
            elif what == "discard":
                if saved.path is not None:
                    autosave.clear_autosave(path=saved.path)
                else:
                    autosave.clear_autosave(game=saved.game)
                if len(self.saves) == 1:
                    menu.close_dialog()
                else:
                    self.remove(saved)
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.buttons.get("new"):
                menu.close_dialog()
                # one saved game: the new game takes its place; several: a place of its own (asking nothing)
                menu.start(self.saves[0].game, replace=self.saves[0] if len(self.saves) == 1 else NEW_SLOT)
                return True
            if event.ui_element is self.buttons.get("cancel"):
                menu.close_dialog()
                return True
        if event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.window:
            menu.close_dialog()  # the close box: Cancel (the window is gone already)
            return True
        return event.type in (pygame.KEYDOWN, pygame.KEYUP)


NEW_SLOT = object()
"""``MenuScene.start(replace=NEW_SLOT)``: start a new game in an autosave slot of its own without asking (it has no
``path``, so it replaces no saved game)."""


