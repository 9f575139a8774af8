"""Opening a PDN archive: its bytes to text, reading it on a background thread, and the rows of a game list.

:class:`BackgroundRead` runs :func:`gameplay.rules.checkers.pdn_read.iter_records` on a daemon thread; the window asks
for :attr:`~BackgroundRead.progress` and the records read so far once per frame and never waits, and Cancel stops
the reading after the game being read. :class:`GameRow` is one game as the game browser lists it (Event, Black,
White, Date, Result, the ballot opening), with :func:`filter_rows` (search) and :func:`sort_rows`. Standard
library only (no pygame).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gameplay.rules.base import GameError
from gameplay.rules.checkers.ballots import load_ballots
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.checkers.checkers_notation import format_move_text
from gameplay.rules.checkers.pdn import PDNError
from gameplay.rules.checkers.pdn_read import PDNRecord, iter_records
from gameplay.rules.textfile import NotTextError, TextFile, decode_text, read_text_file

_START_STATE = Checkers().initial_state()


def decode_pdn(data: bytes) -> str:
    """The text of a PDN file's bytes, as :func:`gameplay.rules.textfile.decode_text` reads every text file: a
    byte-order mark's encoding, else UTF-8 with Windows-1252 for the lines that are not UTF-8 (old archives were
    written on Windows), line ends as ``\\n``.

    Raises:
        NotTextError: it is not a text file (NUL bytes near its start).
    """
    return decode_text(data).text


def read_pdn_text(path: str | Path) -> TextFile:
    """The PDN file ``path`` decoded (see :func:`decode_pdn`), with how: its ``warning`` names the first line that
    was not UTF-8.

    Raises:
        OSError: the file cannot be read (missing, a folder, no permission).
        NotTextError: the file is not text (an image, a zip, a program), so not PDN (a ``ValueError``).
    """
    try:
        return read_text_file(path)
    except NotTextError as e:
        raise NotTextError(f"{e}; a PDN file is plain text with [Tags] and moves such as 1. 11-15 23-19") from None


def read_pdn_file(path: str | Path) -> str:
    """The text of the PDN file ``path`` (see :func:`read_pdn_text`).

    Raises:
        OSError: the file cannot be read (missing, a folder, no permission).
        NotTextError: the file is not text (a ``ValueError``).
    """
    return read_pdn_text(path).text


class BackgroundRead:
    """Reads a PDN text on a daemon thread; the window polls it once per frame and never waits.

    Args:
        text: the PDN text.
        on_record: called on the reading thread with each record (optional).

    Attributes:
        records: the records read so far (the thread appends; read ``records[:n]`` with ``n`` from :attr:`count`).
    """

    def __init__(self, text: str, on_record: Callable[[PDNRecord], None] | None = None) -> None:
        self.text = text
        self.records: list[PDNRecord] = []
        self.on_record = on_record
        self.failure: BaseException | None = None
        """An exception that stopped the reading (a bug: bad games never raise), or ``None``."""
        self._cancel = threading.Event()
        self._done = threading.Event()
        self._pos = 0
        self._thread = threading.Thread(target=self._work, name="pdn-read", daemon=True)

    def start(self) -> BackgroundRead:
        """Start reading; returns ``self``."""
        self._thread.start()
        return self

    def _work(self) -> None:
        try:
            for rec in iter_records(self.text):
                if self._cancel.is_set():
                    break
                if self.on_record is not None:
                    self.on_record(rec)
                self.records.append(rec)
                self._pos = rec.end
        except BaseException as e:  # noqa: BLE001 - handed to the window, which shows it
            self.failure = e
        finally:
            self._done.set()

    @property
    def count(self) -> int:
        """Records read so far."""
        return len(self.records)

    @property
    def progress(self) -> float:
        """Fraction of the text read, 0..1 (1 once finished, also when cancelled)."""
        if self._done.is_set():
            return 1.0
        return self._pos / len(self.text) if self.text else 0.0

    @property
    def done(self) -> bool:
        """True once the reading finished or stopped after :meth:`cancel`."""
        return self._done.is_set()

    @property
    def cancelled(self) -> bool:
        """True after :meth:`cancel`."""
        return self._cancel.is_set()

    def cancel(self) -> None:
        """Stop after the game being read (never waits)."""
        self._cancel.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until done (tests, the command line); returns :attr:`done`."""
        return self._done.wait(timeout)


# ----- the rows of a game list ---------------------------------------------------------------------------------------
COLUMNS = ("#", "Event", "Black", "White", "Date", "Result", "Opening", "Plies")
"""The columns of a game list, in order (``#`` is the game's number in the file, from 1)."""
RESULT_WORDS = {"1-0": "black wins", "0-1": "white wins", "1/2-1/2": "draw drawn", "*": "unfinished unknown"}
"""Words a search for a result may use besides the token (``draw`` finds ``1/2-1/2``)."""

_BALLOTS: dict[tuple[str, ...], str] | None = None


def opening_label(record: PDNRecord) -> str:
    """The game's three-move ballot opening: ``"#9 11-15 23-19 8-11 (Old Faithful)"`` from the ACF list
    (:mod:`gameplay.rules.checkers.ballots`, all 174 three-move openings), ``"11-15 23-19"`` for a shorter game,
    ``"set-up position"`` for a game from a ``FEN`` tag."""
    global _BALLOTS
    game = record.game
    if game.start != _START_STATE:
        return "set-up position"
    texts = tuple(format_move_text(m) for m in game.moves[:3])
    if len(texts) < 3:
        return " ".join(texts)
    if _BALLOTS is None:
        try:
            _BALLOTS = {b.moves: f"#{b.number} {' '.join(b.moves)}" + (f" ({b.name})" if b.name else "")
                        for b in load_ballots(deck_only=False)}
        except GameError:
            _BALLOTS = {}
    return _BALLOTS.get(texts, " ".join(texts))


@dataclass(frozen=True)
class GameRow:
    """One game of an archive as a game list shows it (good or bad), with its sort keys and search text."""

    record: PDNRecord
    """The game as read."""
    cells: tuple[str, ...]
    """The texts of :data:`COLUMNS`."""
    search_text: str
    """Lower-case text a search looks in: the players, event, site, date, result (and its words), opening and
    ``bad`` plus the error for a bad game."""

    @property
    def ok(self) -> bool:
        """True for a good game."""
        return self.record.error is None

    def sort_key(self, column: int) -> tuple[Any, ...]:
        """The key that orders rows by ``COLUMNS[column]`` (numbers as numbers, dates with ``.`` read as ``-``;
        ties in file order)."""
        name = COLUMNS[column]
        if name == "#":
            return (self.record.index,)
        if name == "Plies":
            return (self.record.plies, self.record.index)
        text = self.cells[column].lower()
        if name == "Date":
            text = text.replace(".", "-").replace("?", "~")  # unknown parts after the known ones
        return (text == "", text, self.record.index)  # empty cells last


_MOVE_ERROR = re.compile(r"move '(?P<move>[^']*)' \(ply (?P<ply>\d+)\) in \S+: (?P<why>.*)")


def short_reason(error: PDNError | None) -> str:
    """A bad game's reason in a few words for a list: ``"ply 123: illegal move '32-28'"`` (the legal moves and
    the position left out), ``"line 5: malformed tag pair"``; the full text is ``str(error)``."""
    if error is None:
        return ""
    text = str(error)
    if text.startswith("PDN ") and ": " in text:
        text = text.split(": ", 1)[1]
    m = _MOVE_ERROR.match(text)
    if m is not None:
        return f"ply {m.group('ply')}: {m.group('why').split(';')[0]}"
    where = f"line {error.line}: " if error.line is not None else ""
    return where + text.split(": expected")[0].split(";")[0]


def make_row(record: PDNRecord) -> GameRow:
    """The :class:`GameRow` of a record."""
    t = record.tags
    opening = opening_label(record)
    plies = f"{record.plies}" if record.error is None else f"{record.plies}?"
    cells = (str(record.index + 1), t.get("Event", ""), t.get("Black", ""), t.get("White", ""), t.get("Date", ""),
             record.result, opening, plies)
    words = [*cells[1:7], t.get("Site", ""), t.get("Round", ""), RESULT_WORDS.get(record.result, "")]
    if record.error is not None:
        words += ["bad", short_reason(record.error)]
    if record.warnings:
        words.append("warning")
    return GameRow(record, cells, " | ".join(words).lower())


def filter_rows(rows: Sequence[GameRow], query: str) -> list[GameRow]:
    """The rows whose search text holds every word of ``query`` (case ignored; ``"tinsley chinook"`` finds the
    games between them; an empty query keeps every row)."""
    words = query.lower().split()
    if not words:
        return list(rows)
    return [r for r in rows if all(w in r.search_text for w in words)]


def sort_rows(rows: Sequence[GameRow], column: int, descending: bool = False) -> list[GameRow]:
    """``rows`` ordered by ``COLUMNS[column]`` (see :meth:`GameRow.sort_key`)."""
    return sorted(rows, key=lambda r: r.sort_key(column), reverse=descending)
