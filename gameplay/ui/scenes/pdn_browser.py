"""The game browser: every game of a PDN archive in a list, one game replayed on a board, analysed or played on.

Opened by Load PDN (L) in a checkers match when the file holds more than one game (or is large): the archive is
read on a background thread (:class:`gameplay.rules.checkers.pdn_archive.BackgroundRead`) while the window keeps
drawing, with a progress bar and Cancel (the games read so far stay). The list
(:class:`gameplay.ui.scenes.pdn_list.GameList`) shows Event, Black, White, Date, Result, the three-move ballot opening
and the plies of every game, bad games grey with their reason; a header click sorts by its column, the search box keeps
the games whose players, event, site, date, result (``draw``, ``black wins``...) or opening hold every word typed
(``bad`` finds the bad games).

The selected game is shown on the right: the board at the current ply, the players and the event, the replay
buttons (first, previous, next, last; Play / Pause with a speed; a ply to jump to) and the moves (a click on a move
jumps to it). From any ply, with the agent chosen in the drop-down:

* **Analyse (A)**: a match opens at that position with the agent to move and the search-tree overlay shown as
  soon as it has decided (the presenter / classroom view with P); the other side is yours.
* **Play from here (P)**: a match opens at that position, you to move, the agent on the other side.

Esc in that match comes back here; Esc here (or Back) returns to the match the archive was opened from. Keys:
Left / Right a ply, Home / End the first / last ply, Up / Down the previous / next game, Page Up / Page Down a
page of games, Space plays or pauses, A analyses, P plays from here, Ctrl+F the search box.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UITextEntryLine

from gameplay.rules.base import GameError
from gameplay.rules.checkers.checkers_board import BLACK, CheckersState
from gameplay.rules.checkers.checkers_notation import format_move_text
from gameplay.rules.checkers.pdn_archive import COLUMNS, BackgroundRead, GameRow, filter_rows, make_row, sort_rows
from gameplay.rules.checkers.pdn_read import PDNRecord
from gameplay.ui.boards.board import ViewState
from gameplay.ui.play.archive_match import ArchiveMatchScene
from gameplay.ui.play.match import MatchScene
from gameplay.ui.scenes.pdn_list import BAD_REASON, GameList, draw_moves, fit, font
from gameplay.ui.widgets import projector
from gameplay.ui.widgets.scene import Scene

if TYPE_CHECKING:
    from gameplay.ui.boards.checkers_view import CheckersView

AGENT_CHOICES = ("medium", "beginner", "easy", "hard", "expert", "alphabeta:depth=6", "minimax:depth=4",
                 "mcts:simulations=2000")
"""The agents of the drop-down (``medium`` first: a quick decision with a tree the overlay can show whole)."""
SPEEDS = (("0.25 s", 0.25), ("0.5 s", 0.5), ("1 s", 1.0), ("2 s", 2.0))
"""Autoplay speeds: seconds per ply."""
REFRESH_S = 0.25
"""While the archive is read, the list takes the new games at most this often (seconds)."""
ACCENT = (143, 227, 168)
HINT = ("Click a game or a column title; Left / Right: a ply, Space: play, Up / Down: a game, A: analyse, "
        "P: play from here")
"""The line under the list when there is no message."""
SEARCH_HINTS = ("Search player, event, opening, result", "Search player, event, opening", "Search games")
"""The search field's hint, longest first (a narrow window shows a shorter one)."""


class PDNBrowserScene(Scene):
    """Browse, replay, analyse and play on the games of a PDN text.

    Args:
        text: the PDN text (a whole archive).
        name: the file's name, for the title.
        records: the games when already read (a small file); ``None`` reads ``text`` on a background thread.
    """

    def __init__(self, text: str, name: str, records: list[PDNRecord] | None = None) -> None:
        super().__init__()
        self.text = text
        self.name = name
        self.reader: BackgroundRead | None = None
        """The background reading (``None`` when the games were handed over read)."""
        self.rows: list[GameRow] = [make_row(r) for r in records] if records is not None else []
        """Every game read so far, in file order."""
        self.query = ""
        self.list = GameList()
        self.current: GameRow | None = None
        """The game shown on the right, or ``None``."""
        self.states: list[CheckersState] = []
        """The positions of the current game (its start, then after each move read)."""
        self.ply = 0
        """The current ply of the shown game (0: its start)."""
        self.autoplay = False
        self.speed = 1.0
        """Autoplay: seconds per ply."""
        self.agent_spec = AGENT_CHOICES[0]
        """The agent of Analyse and Play from here."""
        self.message: tuple[str, bool] | None = None
        """A line at the bottom (what just happened; red when ``True``)."""
        self.frames_while_loading = 0
        """Frames drawn while the background reading ran (the window never waits for it)."""
        self.view: CheckersView | None = None
        self.board_rect = pygame.Rect(0, 0, 0, 0)
        self._auto_clock = 0.0
        self._refreshed_at = -1.0
        self._needs_refresh = True
        self._move_hits: list[tuple[pygame.Rect, int]] = []
        self._moves_rect = pygame.Rect(0, 0, 0, 0)
        self._caption_y = 0
        self._status_y = 0
        self._progress_rect = pygame.Rect(0, 0, 0, 0)
        self._reported = False
        if records is None:
            self.reader = BackgroundRead(text).start()

    # -- reading ---------------------------------------------------------------------------------------------------
    @property
    def loading(self) -> bool:
        """True while the background reading runs."""
        return self.reader is not None and not self.reader.done

    def cancel_loading(self) -> None:
        """Stop the reading (Cancel): the games read so far stay in the list."""
        if self.reader is not None and not self.reader.done:
            self.reader.cancel()
            self.message = ("Reading stopped: the games read so far are listed.", False)

    def _take_records(self) -> None:
        """Make rows of the records the reading thread added since the last frame."""
        if self.reader is None:
            return
        records = self.reader.records
        n = len(records)
        if n > len(self.rows):
            self.rows.extend(make_row(r) for r in records[len(self.rows):n])
            self._needs_refresh = True
        if self.reader.done and not self._reported:
            self._reported = True
            self._needs_refresh = True
            if self.reader.failure is not None:
                self.message = (f"Reading failed: {self.reader.failure}", True)
            elif not self.reader.cancelled:
                self.message = None

    def summary(self) -> str:
        """``"22,621 games: 3 bad, 12 with warnings; 42 shown"``."""
        bad = sum(1 for r in self.rows if not r.ok)
        warned = sum(1 for r in self.rows if r.record.warnings)
        text = f"{len(self.rows):,} games: {bad:,} bad, {warned:,} with warnings"
        if self.query.strip():
            text += f"; {len(self.list.rows):,} match '{self.query.strip()}'"
        return text

    # -- the list ----------------------------------------------------------------------------------------------------
    def refresh_list(self) -> None:
        """Filter and sort the rows into the list (the selection stays when it still shows)."""
        self._needs_refresh = False
        self._refreshed_at = time.perf_counter()
        shown = filter_rows(self.rows, self.query)
        if self.list.sort_column != 0 or self.list.descending:
            shown = sort_rows(shown, self.list.sort_column, self.list.descending)
        self.list.set_rows(shown)
        if self.current is None and shown:
            self.open(shown[0])

    def set_query(self, query: str) -> None:
        """Search: keep the games holding every word of ``query`` (see
        :func:`gameplay.rules.checkers.pdn_archive.filter_rows`); the first match opens when the shown game no longer
        matches."""
        self.query = query
        self.refresh_list()
        if self.list.rows and self.list.index_of(self.current) is None:
            self.open(self.list.rows[0])
        entry = self._ui.find("search", UITextEntryLine)
        if entry is not None and entry.get_text() != query:
            entry.set_text(query)

    def sort_by(self, column: int | str, descending: bool | None = None) -> None:
        """Sort the list by ``column`` (an index or a name of :data:`COLUMNS`); the same column again reverses."""
        col = COLUMNS.index(column) if isinstance(column, str) else column
        if descending is None:
            descending = not self.list.descending if col == self.list.sort_column else False
        self.list.sort_by(col, descending)
        self.refresh_list()

    def open(self, row: GameRow, ply: int | None = None) -> None:
        """Show ``row``'s game: its start (a bad game: the last position read, where the problem is)."""
        self.current = row
        self.list.select(row)
        self.states = row.record.game.states()
        self.autoplay = False
        self.goto(ply if ply is not None else (0 if row.ok else len(self.states) - 1))
        i = self.list.index_of(row)
        if i is not None:
            self.list.ensure_visible(i)

    def select_offset(self, step: int) -> None:
        """Open the game ``step`` rows below (above, when negative) the shown one in the list."""
        rows = self.list.rows
        if not rows:
            return
        i = self.list.index_of(self.current)
        i = 0 if i is None else max(0, min(len(rows) - 1, i + step))
        self.open(rows[i])

    # -- replay ------------------------------------------------------------------------------------------------------
    @property
    def last_ply(self) -> int:
        """The shown game's last ply (its number of moves read)."""
        return max(0, len(self.states) - 1)

    @property
    def move_hits(self) -> list[tuple[pygame.Rect, int]]:
        """``[(rect, ply)]``: the moves of the move list as last drawn, each with its window-pixel rectangle and the
        ply a click on it shows (the moves on lines that did not fit are not there)."""
        return list(self._move_hits)

    def goto(self, ply: int) -> None:
        """Show the position after ``ply`` plies (clamped to the game)."""
        self.ply = max(0, min(ply, self.last_ply))
        self._auto_clock = 0.0

    def first(self) -> None:
        """The start position."""
        self.goto(0)

    def previous(self) -> None:
        """One ply back."""
        self.goto(self.ply - 1)

    def next(self) -> None:
        """One ply on."""
        self.goto(self.ply + 1)

    def last(self) -> None:
        """The last position."""
        self.goto(self.last_ply)

    def toggle_autoplay(self) -> None:
        """Play the moves one by one every :attr:`speed` seconds, or pause; from the end it starts again."""
        if self.current is None:
            return
        self.autoplay = not self.autoplay
        if self.autoplay and self.ply >= self.last_ply:
            self.goto(0)
        self._auto_clock = 0.0

    @property
    def state(self) -> CheckersState | None:
        """The position shown, or ``None`` with no game."""
        return self.states[self.ply] if self.states else None

    # -- analyse, play on --------------------------------------------------------------------------------------------
    def analyse(self) -> MatchScene | None:
        """Analyse (A): a match at the shown position with the chosen agent to move and the search-tree overlay
        (the other side is the user). Returns the match, or ``None`` (with a message) when there is nothing to
        decide."""
        return self._match(ai_to_move=True)

    def play_from_here(self) -> MatchScene | None:
        """Play from here (P): a match at the shown position, the user to move, the chosen agent on the other
        side. Returns the match, or ``None`` (with a message)."""
        return self._match(ai_to_move=False)

    def _match(self, ai_to_move: bool) -> MatchScene | None:
        from ai.agents.agents import make_agent
        from ai.agents.profiles import profile_for
        state = self.state
        if self.current is None or state is None or self.app is None:
            self.message = ("Pick a game first.", True)
            return None
        game = profile_for("checkers").game
        if game.is_terminal(state):
            self.message = ("The game is over at this ply: go back a few moves to analyse or play on.", True)
            return None
        try:
            agent = make_agent("checkers", self.agent_spec)
        except GameError as e:
            self.message = (str(e), True)
            return None
        human = make_agent("checkers", "human")
        black_is_ai = (state.turn == BLACK) == ai_to_move
        agents = (agent, human) if black_is_ai else (human, agent)
        settings = self.app.settings
        scene = ArchiveMatchScene("checkers", agents, ai_delay_s=0.05 if self.app.demo_frames else 0.3,
                                  overlay_on_start=ai_to_move or bool(settings.overlay),
                                  board_numbers=settings.board_numbers)
        self.autoplay = False
        self.app.push(scene)
        pdn = self.current.record.game
        try:
            scene.load_game(pdn.start, pdn.moves[:self.ply])
        except GameError:  # the recorded game went on past a draw by the rules: start from the position itself
            scene.load_game(state)
        t = self.current.record.tags
        what = (f"{agent.settings.name} decides, the tree opens" if ai_to_move
                else f"you play on against {self.agent_spec}")
        scene.notify(f"Game #{self.current.record.index + 1} ({t.get('Black', '?')} - {t.get('White', '?')}) at "
                     f"ply {self.ply}: {what}. Esc: back to the games.")
        return scene

    # -- Scene -----------------------------------------------------------------------------------------------------
    def on_enter(self, app: Any) -> None:
        """Lay out the widgets (the reading goes on across a match opened from here)."""
        if self.view is None:
            from ai.agents.profiles import profile_for
            from gameplay.ui.boards.checkers_view import CheckersView
            self.view = CheckersView(profile_for("checkers").game,
                                     show_numbers=bool(getattr(app.settings, "board_numbers", True)))
        super().on_enter(app)
        self._take_records()
        self.refresh_list()

    def on_exit(self) -> None:
        """Kill the widgets; the reading stops when the browser itself closes (not when a match covers it)."""
        self.kill_widgets()
        if self.app is not None and self not in self.app.scenes and self.reader is not None:
            self.reader.cancel()

    def close_dialog(self) -> bool:
        """Esc (the App asks the scene first): back to the match below. Returns True."""
        self.back()
        return True

    def back(self) -> None:
        """Back (Esc): stop the reading and show the scene below."""
        if self.reader is not None:
            self.reader.cancel()
        if self.app is not None and self.app.scene is self:
            self.app.pop()

    def layout(self, size: tuple[int, int]) -> None:
        """The search box and the list on the left; the board, replay buttons, moves and actions on the right."""
        assert self.app is not None
        self.kill_widgets()
        manager = self.app.manager
        px = projector.px
        w, h = size
        m = max(8, px(12))
        bh = max(px(38), projector.text_height(manager, None, "button") + px(8))

        def button_w(text: str, min_w: int = 0) -> int:
            return max(min_w, projector.text_width(manager, text, None, "button") + px(22))
        current = next((s for s in SPEEDS if s[1] == self.speed), SPEEDS[2])
        speed_w = max(projector.text_width(manager, t, None, "button") for t, _ in SPEEDS) + px(44)
        replay_w = (sum(button_w(t, px(40)) for t in ("|<", "<", ">", ">|")) + button_w("Pause")
                    + speed_w + px(56) + 6 * px(6))  # the replay row, its ply field at its narrowest
        lw = min(int((w - 3 * m) * 0.6), w - 3 * m - replay_w)  # the list leaves the replay row its room
        ui = self._ui
        top_h = bh
        search_w = min(px(440), lw // 2)
        hint = next((t for t in SEARCH_HINTS  # the longest hint the field shows whole
                     if projector.text_width(manager, t, None, "text_entry_line") <= search_w - px(20)),
                    SEARCH_HINTS[-1])
        ui["search"] = UITextEntryLine(pygame.Rect(m, m, search_w, top_h), manager, initial_text=self.query,
                                       placeholder_text=hint)
        cancel_w = projector.text_width(manager, "Cancel", None, "button") + px(28)
        ui["cancel"] = UIButton(pygame.Rect(m + lw - cancel_w, m, cancel_w, top_h), "Cancel", manager,
                                tool_tip_text="Stop reading the file (the games read so far stay)")
        self._progress_rect = pygame.Rect(m + search_w + px(12), m + px(6), lw - search_w - cancel_w - px(24),
                                          top_h - px(12))
        bottom_y = h - m - bh
        self.list.place(pygame.Rect(m, m + top_h + px(8), lw, bottom_y - px(8) - (m + top_h + px(8))))
        self._status_y = bottom_y + (bh - font(14).get_height()) // 2
        back = "Back (Esc)"
        back_w = projector.text_width(manager, back, None, "button") + px(32)
        ui["back"] = UIButton(pygame.Rect(w - m - back_w, bottom_y, back_w, bh), back, manager,
                              tool_tip_text="Back to the match (Esc)")
        # the right panel
        rx = 2 * m + lw
        rw = w - rx - m
        actions_y = bottom_y - px(8) - bh
        board = max(px(120), min(rw, int((h - 2 * m) * 0.5)))
        self.board_rect = pygame.Rect(rx + (rw - board) // 2, m, board, board)
        line_h = font(14).get_height() + px(2)
        self._caption_y = self.board_rect.bottom + px(6)
        replay_y = self._caption_y + 2 * line_h + px(6)
        x = rx

        def button(key: str, text: str, y: int, tip: str, min_w: int = 0) -> None:
            nonlocal x
            bw = button_w(text, min_w)
            ui[key] = UIButton(pygame.Rect(x, y, bw, bh), text, manager, tool_tip_text=tip)
            x += bw + px(6)

        button("first", "|<", replay_y, "The start (Home)", px(40))
        button("prev", "<", replay_y, "One ply back (Left)", px(40))
        button("next", ">", replay_y, "One ply on (Right)", px(40))
        button("last", ">|", replay_y, "The last position (End)", px(40))
        button("play", "Pause" if self.autoplay else "Play", replay_y, "Play the moves one by one (Space)",
               button_w("Pause"))
        speeds: list[str | tuple[str, str]] = [t for t, _ in SPEEDS]
        ui["speed"] = UIDropDownMenu(speeds, current[0], pygame.Rect(x, replay_y, speed_w, bh),
                                     manager)
        x += speed_w + px(6)
        ui["ply"] = UITextEntryLine(pygame.Rect(x, replay_y, max(px(56), rx + rw - x), bh), manager,
                                    placeholder_text="ply")
        self._moves_rect = pygame.Rect(rx, replay_y + bh + px(10), rw, actions_y - px(10) - (replay_y + bh + px(10)))
        x = rx
        options: list[str | tuple[str, str]] = [*([] if self.agent_spec in AGENT_CHOICES else [self.agent_spec]),
                                                *AGENT_CHOICES]
        labels = ("Analyse (A)", "Play from here (P)")
        room = rw - sum(projector.text_width(manager, t, None, "button") + px(22) for t in labels) - 2 * px(6)
        if room < px(120):  # a narrow window: shorter labels
            labels = ("Analyse", "Play on")
            room = rw - sum(projector.text_width(manager, t, None, "button") + px(22) for t in labels) - 2 * px(6)
        widest = max(projector.text_width(manager, str(t), None, "button") for t in options) + px(44)
        agent_w = max(px(90), min(widest, room))
        dd = UIDropDownMenu(options, self.agent_spec, pygame.Rect(x, actions_y, agent_w, bh), manager)
        dd.expand_direction = "up"
        for st in dd.menu_states.values():
            st.expand_direction = "up"
        dd.rebuild()
        ui["agent"] = dd
        x += agent_w + px(6)
        button("analyse", labels[0], actions_y, "The agent decides here; the search tree opens (A)")
        button("playon", labels[1], actions_y, "Play on from this position against the agent (P)")
        self._needs_refresh = True

    def handle_event(self, event: pygame.event.Event) -> bool:
        """The widgets, the list, clicks on the moves, and the keys (see the module's description)."""
        ui = self._ui
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            actions = {"first": self.first, "prev": self.previous, "next": self.next, "last": self.last,
                       "play": self.toggle_autoplay, "analyse": self.analyse, "playon": self.play_from_here,
                       "back": self.back, "cancel": self.cancel_loading}
            for name, action in actions.items():
                if event.ui_element is ui.get(name):
                    action()
                    return True
            return False
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            if event.ui_element is ui.get("speed"):
                self.speed = dict(SPEEDS).get(event.text, self.speed)
                return True
            if event.ui_element is ui.get("agent"):
                self.agent_spec = event.text
                return True
            return False
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and event.ui_element is ui.get("search"):
            self.query = event.text
            self._needs_refresh = True
            self._refreshed_at = time.perf_counter()  # typing: wait a moment before filtering again
            return True
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is ui.get("ply"):
            try:
                self.goto(int(event.text.strip()))
            except ValueError:
                self.message = (f"Not a ply number: {event.text.strip()!r}", True)
            ui.typed("ply", UITextEntryLine).set_text("")
            return True
        used = self.list.handle_event(event)
        if used == "select" and self.list.selected is not None:
            self.open(self.list.selected)
            return True
        if used == "sort":
            self.refresh_list()
            return True
        if used is not None:
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for r, ply in self._move_hits:
                if r.collidepoint(event.pos):
                    self.goto(ply)
                    return True
            return False
        if event.type == pygame.KEYDOWN:
            return self._key(event)
        return False

    def _key(self, event: pygame.event.Event) -> bool:
        ctrl = bool(event.mod & pygame.KMOD_CTRL)
        if ctrl and event.key == pygame.K_f:
            self._ui["search"].focus()
            return True
        if ctrl or event.mod & pygame.KMOD_ALT:
            return False
        keys: dict[int, Callable[[], object]] = {
            pygame.K_LEFT: self.previous, pygame.K_RIGHT: self.next, pygame.K_HOME: self.first,
            pygame.K_END: self.last, pygame.K_SPACE: self.toggle_autoplay, pygame.K_a: self.analyse,
            pygame.K_p: self.play_from_here, pygame.K_UP: lambda: self.select_offset(-1),
            pygame.K_DOWN: lambda: self.select_offset(1),
            pygame.K_PAGEUP: lambda: self.select_offset(-self.list.visible),
            pygame.K_PAGEDOWN: lambda: self.select_offset(self.list.visible)}
        action = keys.get(event.key)
        if action is None:
            return False
        action()
        return True

    def update(self, dt: float) -> None:
        """Take the games read since the last frame, refresh the list now and then, run the autoplay."""
        if self.loading:
            self.frames_while_loading += 1
        self._take_records()
        now = time.perf_counter()
        if self._needs_refresh and (not self.loading or now - self._refreshed_at >= REFRESH_S):
            if not (self.query and now - self._refreshed_at < 0.15):
                self.refresh_list()
        if self.autoplay:
            self._auto_clock += dt
            if self._auto_clock >= self.speed:
                self._auto_clock = 0.0
                if self.ply < self.last_ply:
                    self.ply += 1
                else:
                    self.autoplay = False
        play = self._ui.find("play", UIButton)
        if play is not None:
            label = "Pause" if self.autoplay else "Play"
            if play.text != label:
                play.set_text(label)
        cancel = self._ui.get("cancel")
        if cancel is not None and cancel.visible != self.loading:
            cancel.show() if self.loading else cancel.hide()

    # -- drawing ---------------------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        """The list, the reading's progress, the board, the caption and the moves, the status line."""
        pal = projector.palette()
        surface.fill(pal.background)
        self.list.draw(surface)
        f = font(14)
        pr = self._progress_rect
        if self.loading and self.reader is not None:
            pygame.draw.rect(surface, (52, 60, 82), pr, border_radius=projector.px(4))
            done = pr.copy()
            done.width = int(pr.width * self.reader.progress)
            pygame.draw.rect(surface, (79, 195, 247), done, border_radius=projector.px(4))
            from ai.kernel.numbers import probability_text
            text = f"Reading {self.name}: {self.reader.count:,} games ({probability_text(self.reader.progress)})"
            img = f.render(fit(text, f, pr.width - projector.px(12)), True, pal.text)
            surface.blit(img, img.get_rect(midleft=(pr.x + projector.px(6), pr.centery)))
        else:  # the file's name gives way to the count of games
            room = self.list.rect.right - pr.x
            summary = f": {self.summary()}"
            name = fit(self.name, f, max(f.size("…")[0], room - f.size(summary)[0]))
            img = f.render(fit(name + summary, f, room), True, pal.muted)
            surface.blit(img, img.get_rect(midleft=(pr.x, pr.centery)))
        self._draw_game(surface)
        text, colour = HINT, pal.muted
        if self.message is not None:
            text, colour = self.message[0], BAD_REASON if self.message[1] else ACCENT
        back = self._ui.get("back")
        room = (back.rect.x if back is not None else self.list.rect.right) - projector.px(12) - self.list.rect.x
        img = f.render(fit(text, f, room), True, colour)
        surface.blit(img, (self.list.rect.x, self._status_y))

    def _draw_game(self, surface: pygame.Surface) -> None:
        pal = projector.palette()
        f, fb = font(14), font(14, bold=True)
        row, state = self.current, self.state
        if row is None or state is None or self.view is None:
            img = f.render("Reading the games..." if self.loading else "No game to show", True, pal.muted)
            surface.blit(img, img.get_rect(center=self.board_rect.center))
            self._move_hits = []
            return
        rec = row.record
        moves = rec.game.moves
        last = moves[self.ply - 1] if self.ply > 0 else None
        self.view.draw(surface, self.board_rect, state, ViewState(last_move=last, to_move=state.turn))
        t = rec.tags
        width = self._moves_rect.width
        x, y = self._moves_rect.x, self._caption_y
        who = f"#{rec.index + 1}  {t.get('Black', '?')} (Black) - {t.get('White', '?')} (White)"
        surface.blit(fb.render(fit(who, fb, width), True, pal.text), (x, y))
        y += f.get_height() + projector.px(2)
        where = " · ".join(p for p in (t.get("Event", ""), t.get("Date", ""), rec.result) if p)
        mover = "Black" if state.turn == BLACK else "White"
        move = move_label(rec.game.start.turn, self.ply, last) if last is not None else "start"
        line = f"ply {self.ply} of {len(moves)} ({move}), {mover} to move  ·  {where}"
        surface.blit(f.render(fit(line, f, width), True, pal.muted), (x, y))
        if rec.error is not None:
            tail, colour = f"Bad game: {rec.error}", BAD_REASON
        elif rec.warnings:
            tail, colour = f"{rec.result}   (warning: {rec.warnings[0]})", (240, 200, 120)
        else:
            tail, colour = rec.result, ACCENT
        self._move_hits = draw_moves(surface, self._moves_rect, rec.game, self.ply, tail, colour)


def move_label(first_turn: int, ply: int, move: Any) -> str:
    """``"12. 11-15"`` (Black's move) or ``"12... 23-19"`` (White's) for the move leading to ``ply`` (from 1) of a
    game whose first move is ``first_turn``'s."""
    i = ply - 1 + (1 if first_turn != BLACK else 0)  # half-moves from Black's first move of move 1
    return f"{i // 2 + 1}{'.' if i % 2 == 0 else '...'} {format_move_text(move)}"


def open_browser(app: Any, text: str, name: str, records: list[PDNRecord] | None = None) -> PDNBrowserScene:
    """Show the game browser above the current scene (see :class:`PDNBrowserScene`); returns it."""
    scene = PDNBrowserScene(text, name, records)
    app.push(scene)
    return scene
