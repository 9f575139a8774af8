"""The checkers panel's PDN / FEN commands and their dialogs (save, load, copy and paste a position), and the clipboard.

:class:`CheckersTools` adds the panel's extra commands (:class:`~gameplay.ui.boards.board.ExtraAction`): flip (F),
square numbers (M), save PDN (S), load PDN (L), copy FEN (C), paste FEN (V). Files are picked with pygame_gui's
file dialog; the clipboard is pygame-ce's ``pygame.scrap`` text API, with a text-entry dialog as fallback when
no clipboard is available. A malformed PDN or FEN leaves the current game as it was and shows the error (a PDN
error gives its line and column). A PDN file of several games opens the game browser
(:mod:`gameplay.ui.scenes.pdn_browser`).

Nothing here runs pygame code at import time.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UITextEntryLine, UIWindow

from gameplay.files import savegame
from gameplay.rules.base import GameError
from gameplay.rules.checkers.checkers_notation import format_fen, parse_fen
from gameplay.rules.checkers.pdn import PDNGame, result_token, write_game
from gameplay.rules.checkers.pdn_archive import read_pdn_text
from gameplay.rules.checkers.pdn_read import read_archive
from gameplay.ui.boards.board import ExtraAction
from gameplay.ui.boards.match_host import describe_agent
from gameplay.ui.widgets import projector
from gameplay.ui.widgets.dialogs import file_dialog

if TYPE_CHECKING:
    from gameplay.ui.boards.match_host import MatchHost

BROWSE_AT_CHARS = 200_000
"""Load PDN reads a text this long (about 400 games) in the game browser, in the background, without reading it
here first."""


def clipboard_get() -> str | None:
    """The clipboard's text (pygame-ce's ``pygame.scrap``), or ``None`` when empty or unavailable."""
    try:
        text = pygame.scrap.get_text()
    except (pygame.error, AttributeError):
        return None
    return text or None


def clipboard_put(text: str) -> bool:
    """Put ``text`` on the clipboard; False when no clipboard is available (or it did not keep the text)."""
    try:
        pygame.scrap.put_text(text)
        return bool(pygame.scrap.get_text() == text)
    except (pygame.error, AttributeError):
        return False


class BoardTurning(Protocol):
    """What the tools ask of the checkers board view (:class:`gameplay.ui.boards.checkers_view.CheckersView`, which
    makes them)."""

    def flip(self) -> None:
        """Turn the board round (the other side at the bottom)."""
        ...

    def toggle_numbers(self) -> None:
        """Show or hide the PDN square numbers."""
        ...


class CheckersTools:
    """The checkers commands of the match panel and their dialogs (a :class:`~gameplay.ui.boards.board.ViewTools`).

    Args:
        scene: the match scene (its record is replaced on load or paste; ``scene.notify`` shows messages).
        view: the board view (flip, square numbers).

    Attributes:
        use_clipboard: False to always use the text-entry dialog instead of the clipboard (tests, or a desktop
            without a clipboard).
    """

    def __init__(self, scene: MatchHost, view: BoardTurning) -> None:
        self.scene = scene
        self.view = view
        self.use_clipboard = True
        self.dialog: UIWindow | None = None
        self._on_text: Callable[[str], object] | None = None
        self._entry: UITextEntryLine | None = None
        self._ok: UIButton | None = None
        self._cancel: UIButton | None = None
        self._asked: tuple[Any, ...] | None = None
        """What the open dialog asks (kind, title, ...), to ask it again at a new scale (:meth:`reopen`)."""

    # -- ViewTools ---------------------------------------------------------------------------------------------------
    @property
    def modal(self) -> bool:
        """True while a file or text dialog is open."""
        return self.dialog is not None and self.dialog.alive()

    @property
    def text_entry(self) -> UITextEntryLine | None:
        """The open text dialog's one-line entry (Paste FEN without a clipboard: :meth:`ask_text`), else ``None``."""
        return self._entry

    @property
    def ok_button(self) -> UIButton | None:
        """The open text dialog's OK button (it hands the entry's text on, as Enter does), else ``None``."""
        return self._ok

    def actions(self) -> Sequence[ExtraAction]:
        """Flip (F), Numbers (M), Save PDN (S), Load PDN (L), Copy FEN (C), Paste FEN (V)."""
        return (
            ExtraAction("Flip (F)", pygame.K_f, self.view.flip, "Turn the board around"),
            ExtraAction("Numbers (M)", pygame.K_m, self.view.toggle_numbers, "Show or hide the square numbers"),
            ExtraAction("Save PDN (S)", pygame.K_s, self.ask_save, "Save the game as a PDN file"),
            ExtraAction("Load PDN (L)", pygame.K_l, self.ask_load, "Load a game from a PDN file",
                        replaces_game=True),
            ExtraAction("Copy FEN (C)", pygame.K_c, self.copy_fen, "Copy the position (FEN) to the clipboard"),
            ExtraAction("Paste FEN (V)", pygame.K_v, self.paste_fen, "Set up the position (FEN) on the clipboard",
                        replaces_game=True),
        )

    def handle_event(self, event: pygame.event.Event) -> bool:
        """The dialogs' events: a picked file, Enter or OK in the text entry, Cancel, a closed window."""
        if self.dialog is None:
            return False
        if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and event.ui_element is self.dialog:
            on_text = self._on_text
            self.close()
            if on_text is not None:
                on_text(event.text)
            return True
        if (event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self._entry) or (
                event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self._ok):
            on_text, entry = self._on_text, self._entry
            text = entry.get_text() if entry is not None else ""
            self.close()
            if on_text is not None:
                on_text(text)
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self._cancel:
            self.close()
            return True
        if event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.dialog:
            self.close()
            return True
        return False

    def close(self) -> None:
        """Kill the open dialog, if any."""
        if self.dialog is not None and self.dialog.alive():
            self.dialog.kill()
        self.dialog = None
        self._on_text = self._entry = self._ok = self._cancel = None
        self._asked = None

    # -- dialogs -----------------------------------------------------------------------------------------------------
    def _manager(self) -> pygame_gui.UIManager:
        assert self.scene.app is not None
        return self.scene.app.manager

    def _dialog_rect(self, w: int, h: int) -> pygame.Rect:
        assert self.scene.app is not None
        sw, sh = self.scene.app.size
        w, h = min(w, sw - 20), min(h, sh - 20)
        return pygame.Rect((sw - w) // 2, (sh - h) // 2, w, h)

    def ask_file(self, title: str, on_path: Callable[[str], object], *, existing: bool, initial: Path) -> None:
        """Open pygame_gui's file dialog; ``on_path(path)`` runs when a file is picked."""
        self.close()
        assert self.scene.app is not None
        self.dialog = file_dialog(self._manager(), self.scene.app.size, title, initial, existing=existing)
        self._on_text = on_path
        self._asked = ("file", title, on_path, existing)

    def ask_text(self, title: str, hint: str, on_text: Callable[[str], object], initial: str = "") -> None:
        """Open a small window with a one-line text entry; ``on_text(text)`` runs on Enter or OK (sizes from the
        theme's fonts at the interface scale; the hint wraps)."""
        self.close()
        manager = self._manager()
        px = projector.px
        dw, dh = projector.window_chrome(manager)
        width = self._dialog_rect(px(760), 0).width
        cw = width - dw
        lines = projector.wrap_text(manager, hint, cw - px(40), "#hint")
        lh = projector.text_height(manager, "#hint")
        eh = max(px(42), projector.text_height(manager, None, "text_entry_line") + px(8))
        bh = max(px(44), projector.text_height(manager, None, "button") + px(8))
        bw = max(px(130), projector.text_width(manager, "Cancel", None, "button") + px(32))
        win = UIWindow(self._dialog_rect(width, dh + px(10) + len(lines) * lh + px(6) + eh + px(14) + bh + px(14)),
                       manager, window_display_title=title)
        win.set_blocking(True)
        y = px(10)
        for line in lines:
            UILabel(pygame.Rect(px(16), y, cw - px(32), lh), line, manager, container=win, object_id="#hint")
            y += lh
        self._entry = UITextEntryLine(pygame.Rect(px(16), y + px(6), cw - px(32), eh), manager, container=win,
                                      initial_text=initial)
        self._entry.focus()
        y += px(6) + eh + px(14)
        self._ok = UIButton(pygame.Rect(cw - px(16) - 2 * bw - px(10), y, bw, bh), "OK", manager, container=win)
        self._cancel = UIButton(pygame.Rect(cw - px(16) - bw, y, bw, bh), "Cancel", manager, container=win)
        self.dialog = win
        self._on_text = on_text
        self._asked = ("text", title, hint, on_text)

    def reopen(self, manager: pygame_gui.UIManager) -> None:
        """Ask again at the new scale when the open dialog was left in an old UI manager (a zoom step, a theme
        change; the match calls this after each layout): the text typed or the folder shown is kept."""
        dialog, asked = self.dialog, self._asked
        if dialog is None or not dialog.alive() or dialog.ui_manager is manager or asked is None:
            return
        if asked[0] == "text":
            typed = self._entry.get_text() if self._entry is not None else ""
            self.ask_text(asked[1], asked[2], asked[3], typed)
        else:
            path = getattr(dialog, "current_file_path", None) or getattr(dialog, "current_directory_path", "")
            self.ask_file(asked[1], asked[2], existing=asked[3], initial=Path(str(path)))

    # -- commands ----------------------------------------------------------------------------------------------------
    def ask_save(self) -> None:
        """Pick a file and save the game as PDN (S)."""
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        self.ask_file("Save the game as PDN", self.save_pdn, existing=False,
                      initial=savegame.documents_dir() / f"checkers-{stamp}.pdn")

    def ask_load(self) -> None:
        """Pick a PDN file and load its game, or browse its games (L)."""
        self.ask_file("Load a PDN game", self.load_pdn, existing=True, initial=savegame.documents_dir())

    def pdn_text(self) -> str:
        """The current game as PDN text (tags: event, date, the sides; result from the position)."""
        scene = self.scene
        tags = {"Event": "Adversarial-Search Arcade", "Date": datetime.date.today().strftime("%Y.%m.%d"),
                "Black": describe_agent(scene.agents[0]), "White": describe_agent(scene.agents[1])}
        rec = scene.record
        return write_game(PDNGame(tags, rec.start, list(rec.moves), result_token(rec.outcome())))

    def save_pdn(self, path: str | Path) -> bool:
        """Write the game to ``path`` as PDN; the panel says where (or why it failed). Returns success."""
        p = Path(path)
        try:
            p.write_text(self.pdn_text(), encoding="utf-8")
        except (OSError, GameError) as e:
            self.scene.notify(f"Could not save {p.name}: {e}", error=True)
            return False
        self.scene.notify(f"Saved the game ({self.scene.progress_text()}) to {p}")
        return True

    def load_pdn(self, path: str | Path) -> bool:
        """Load the PDN file ``path`` (see :meth:`load_pdn_text`); an unreadable file keeps the current game.
        Returns success (the game loaded, or the game browser opened)."""
        p = Path(path)
        try:
            decoded = read_pdn_text(p)
        except (OSError, ValueError) as e:  # unreadable, or not text at all
            self.scene.notify(f"Could not read {p.name}: {e}. The current game is kept.", error=True)
            return False
        return self.load_pdn_text(decoded.text, p.name, decoded.warning)

    def load_pdn_text(self, text: str, name: str = "the PDN", note: str | None = None) -> bool:
        """Load a PDN text: a file of one game replaces the game in progress (a bad one keeps it and says why);
        a file of several games, or a large one, opens the game browser (:mod:`gameplay.ui.scenes.pdn_browser`), which
        reads it in the background and lists every game, the bad ones with their reason. ``note`` (how the file
        was decoded: a line that was not UTF-8) is added to the one game's notice. Returns success."""
        if len(text) > BROWSE_AT_CHARS and self.scene.app is not None:
            self.scene.app.open_pdn_browser(text, name)
            return True
        records = read_archive(text)
        if len(records) > 1 and self.scene.app is not None:
            self.scene.app.open_pdn_browser(text, name, records)
            return True
        try:
            if not records:
                raise GameError("no game found in the text")
            rec = records[0]
            if rec.error is not None:
                raise rec.error
            self.scene.load_game(rec.game.start, rec.game.moves)
        except GameError as e:
            self.scene.notify(f"Could not load {name}: {e}. The current game is kept.", error=True)
            return False
        notes = [*rec.warnings, *([note] if note else [])]
        warned = f" ({'; '.join(notes)})" if notes else ""
        self.scene.notify(f"Loaded {name} ({self.scene.progress_text()}){warned}")
        return True

    def copy_fen(self) -> None:
        """Copy the position as FEN to the clipboard (C), or show it in a text box to copy by hand."""
        fen = format_fen(self.scene.record.state)
        if self.use_clipboard and clipboard_put(fen):
            self.scene.notify(f"Copied the position: {fen}")
        else:
            self.ask_text("Position (FEN)", "No clipboard: select the text and copy it (Ctrl+A, Ctrl+C)",
                          lambda _text: None, initial=fen)

    def paste_fen(self) -> None:
        """Set up the position from a FEN on the clipboard (V), or ask for one when the clipboard has none."""
        text = clipboard_get() if self.use_clipboard else None
        if text is None:
            self.ask_text("Paste a position (FEN)", "Type or paste a PDN FEN, e.g. B:W21-32:B1-12",
                          self.set_fen)
        else:
            self.set_fen(text)

    def set_fen(self, text: str) -> bool:
        """Start a game from the FEN ``text``; a malformed FEN keeps the current game. Returns success."""
        try:
            state = parse_fen(text.strip())
            self.scene.load_game(state)
        except GameError as e:
            self.scene.notify(f"Not a position: {e}. The current game is kept.", error=True)
            return False
        self.scene.notify(f"Position set up: {format_fen(state)}")
        return True
