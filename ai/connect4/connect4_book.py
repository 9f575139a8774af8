"""The Connect Four opening book: solved positions of the first plies (``assets/book/connect4_book.txt``).

Built by ``tools/build_c4_book.py`` with the project's own solver (:mod:`ai.connect4.connect4_solver`; its
docstring says which positions and how). One entry a line: the position (the columns played, 1-7; ``-`` the empty
board), its exact score (Pons's, for the side to move) and a best column (1-7); ``#`` lines are comments. A position
and its mirror image are one entry (:func:`canonical`).

Read once a process (:func:`load_book`); a missing file is an empty book (the solver then searches every position
itself), a malformed one an error naming the line.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Final

from gameplay.rules.base import GameError
from gameplay.rules.connect4 import Connect4
from gameplay.rules.connect4_bits import from_state_bits, key, mirror
from gameplay.rules.shipped import shipped_path

__all__ = ["BOOK_PATH", "EMPTY_POSITION", "SolvedBook", "canonical", "load_book", "read_book_lines"]

BOOK_PATH: Final = shipped_path("assets", "book", "connect4_book.txt")
"""The shipped book (the installed package's copy or the checkout's)."""
EMPTY_POSITION: Final = "-"
"""How a book line writes the empty board (no column played)."""


def canonical(position: int, mask: int) -> tuple[int, bool]:
    """``(key, flipped)``: the smaller of the position's key and its mirror image's, and whether it is the mirror's
    (a column of the position is then ``6 - c`` in the key's orientation)."""
    k = key(position, mask)
    mk = mirror(k)
    return (mk, True) if mk < k else (k, False)


def read_book_lines(text: str, name: str = "the Connect Four book") -> list[tuple[str, int, int]]:
    """The entries of a book file's text: ``(position, score, column)`` per line (the empty board's position
    ``""``).

    Raises:
        GameError: a line that is not ``POSITION SCORE COLUMN``, a position the rules refuse, a score outside
            -18..18 or a column outside 1..7 (the message names the line).
    """
    game = Connect4()
    out: list[tuple[str, int, int]] = []
    for n, line in enumerate(text.splitlines(), 1):
        t = line.strip()
        if not t or t.startswith("#"):
            continue
        parts = t.split()
        try:
            if len(parts) != 3:
                raise ValueError("expected POSITION SCORE COLUMN")
            moves = "" if parts[0] == EMPTY_POSITION else parts[0]
            score, column = int(parts[1]), int(parts[2])
            game.parse_position(moves)
            if not -18 <= score <= 18 or not 1 <= column <= 7:
                raise ValueError("the score must be -18..18 and the column 1..7")
        except (ValueError, GameError) as e:
            raise GameError(f"{name}, line {n}: {e}") from None
        out.append((moves, score, column))
    return out


class SolvedBook:
    """The book's entries by :func:`canonical` key.

    Args:
        entries: ``(position, score, column)`` as :func:`read_book_lines` gives them.
    """

    def __init__(self, entries: list[tuple[str, int, int]]) -> None:
        game = Connect4()
        self.scores: dict[int, int] = {}
        """Exact score by canonical key (what the solver reads inside its search)."""
        self.columns: dict[int, int] = {}
        """A best column (0-based, in the canonical key's orientation) by canonical key."""
        self.max_plies = -1
        """The most stones of a position in the book (-1 when empty)."""
        for moves, score, column in entries:
            s = game.parse_position(moves)
            p, m = from_state_bits(s.first, s.mask, s.plies)
            k, flipped = canonical(p, m)
            self.scores[k] = score
            self.columns[k] = 6 - (column - 1) if flipped else column - 1
            self.max_plies = max(self.max_plies, s.plies)

    def __len__(self) -> int:
        return len(self.scores)

    def probe(self, position: int, mask: int) -> tuple[int, int] | None:
        """``(score, best column 1..7)`` of the position (side to move's stones, every stone), or ``None``."""
        k, flipped = canonical(position, mask)
        score = self.scores.get(k)
        if score is None:
            return None
        c = self.columns[k]
        return score, (6 - c if flipped else c) + 1


_LOCK = threading.Lock()
_LOADED: dict[str, SolvedBook] = {}


def load_book(path: Path | None = None) -> SolvedBook:
    """The book at ``path`` (default :data:`BOOK_PATH`), read once a process; an empty book when the file is missing.

    Raises:
        GameError: the file cannot be read or is malformed (:func:`read_book_lines`).
    """
    where = path if path is not None else BOOK_PATH
    with _LOCK:
        book = _LOADED.get(str(where))
        if book is None:
            try:
                text = where.read_text(encoding="utf-8")
            except FileNotFoundError:
                text = ""
            except OSError as e:
                raise GameError(f"cannot read the Connect Four book {where}: {e.strerror or e}") from None
            book = SolvedBook(read_book_lines(text, str(where)))
            _LOADED[str(where)] = book
        return book
