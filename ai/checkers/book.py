"""The checkers opening book: moves from real games with their results and from the project's own deep searches,
read from a JSON file.

Sources (the shipped file is ``assets/book/checkers_book.json``; its ``meta`` record says exactly how it was built):

- **Searched entries** (``depth`` >= 1): ``tools/build_book.py`` searched the start position and every position of the
  ACF 156-opening ballot deck (``gameplay.rules.checkers.ballots``) with the project's alpha-beta (``expert``'s search
  of the book's day, quiescence on, the default weights of ``ai.checkers.checkers_eval``; today's ``expert`` plays
  ``acf``), then the positions a few plies further along the best and second-best moves.
- **Entries from games** (``depth`` 0, no search): ``tools/games_book.py`` counted the moves of the first 40 plies
  of 9,369 games of the ACF archive (EricCJoyce/Datasets ``Checkers/ACF.txt``, MIT licence: notice in
  ``assets/book/LICENSE-games.txt``) with their results, in the way the books of Chinook (J. Schaeffer, *One Jump
  Ahead*, 2nd ed. 2009, ch. 8) and of chess programs are built from masters' games. Where the games reached a
  position, their moves replace the searched ones. Measured against Cake 1.20 (``docs/strength.md``): 0.169 of
  the points over 59 games with them, 0.059 with the searched entries alone.

File format (JSON, UTF-8, human-readable)::

    {"format": "checkers-opening-book", "version": 1,
     "meta": {...free-form build record...},
     "positions": {"W:W17,21,...:B1,2,...": [
         {"move": "25-21", "value": 2.0, "depth": 11, "weight": 1}, ...], ...}}

- key: the position in PDN FEN (RULES.md), side to move first; the draw counters are not part of it.
- ``move``: PDN move text, full path (``11-15``, ``22x15``, ``7x16x23x32``); legal in the position.
- ``value``: searched entries: the search value for the side to move in that position, in the checkers
  evaluation's units (100 = one man; proven wins are ``ai.kernel.core.WIN - plies``), found by a search of ``depth``
  plies. Entries from games: ``100 * (2 * score - 1)`` (-100..+100), ``score`` the mover's score over the games
  that played the move with one draw added (``(points + 0.5) / (games + 1)``), so the two kinds sort alike.
- ``depth``: plies of the deepest completed iteration (quiescence extends it over captures); 0 for a move from games.
- ``weight``: searched entries: how many of the build's roots (the start and the ballots) reached the position
  (>= 1); entries from games: how many games played the move (>= 2).

Entries are stored best first. :meth:`OpeningBook.choose` plays among the legal entries whose value is within
``margin`` (default :data:`DEFAULT_MARGIN`) of the best one.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ai.kernel.numbers import value_label
from gameplay.rules.base import GameError
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.checkers.checkers_board import CheckersMove, CheckersState
from gameplay.rules.checkers.checkers_notation import match_move
from gameplay.rules.shipped import shipped_path
from gameplay.rules.textfile import NotTextError, json_problem, read_text_file

BOOK_FORMAT = "checkers-opening-book"
"""The ``format`` field every book file carries."""
BOOK_VERSION = 1
"""The ``version`` of the file layout this module reads and writes."""
DEFAULT_PATH = shipped_path("assets", "book", "checkers_book.json")
"""The shipped book."""
DEFAULT_MARGIN = 10.0
"""Default play margin in evaluation units (100 = one man): a tenth of a man, about the noise between two
search depths of the same position."""

PositionKey = tuple[int, int, int, int]
"""``(black, white, kings, turn)``: the 32-bit bitboards of ``CheckersState`` and the side to move (0 Black)."""

_GAME = Checkers()


class BookError(GameError):
    """A book file is missing pieces, malformed, or holds a move that is illegal in its position."""


@dataclass(frozen=True)
class BookEntry:
    """One stored move of a book position."""

    move: str
    """PDN move text, full path (``11-15``, ``7x16x23x32``)."""
    value: float
    """Search value for the side to move, in evaluation units (100 = one man; proofs near ``ai.kernel.core.WIN``)."""
    depth: int
    """Plies searched (the deepest completed iteration)."""
    weight: int
    """How many build roots (the start position and the ballots) reached the position."""

    @property
    def from_games(self) -> bool:
        """Whether the move comes from real games (``depth`` 0) rather than a search."""
        return self.depth == 0

    @property
    def games_points(self) -> float:
        """For a move from games: the mover's points over its games (a win 1, a draw 0.5), recovered from
        :attr:`value` (stored to 0.1, so off by at most ``(games + 1) / 4,000`` points before rounding to the
        half point: exact below 1,000 games, within a half point up to 2,000, within a point up to 4,000).
        Raises ``ValueError`` for a searched entry."""
        return round(2.0 * (self.games_score * (self.weight + 1) - 0.5)) / 2.0

    @property
    def games_score(self) -> float:
        """For a move from games: the mover's score over its games with one draw added, 0..1 (``value`` is
        ``100 * (2 * score - 1)``). Raises ``ValueError`` for a searched entry."""
        if not self.from_games:
            raise ValueError(f"book entry {self.move} is searched (depth {self.depth}), not from games")
        return (self.value / 100.0 + 1.0) / 2.0

    def origin(self) -> str:
        """Where the entry comes from, in words for the window and the command line: ``"12 book games, mover's
        score 0.62"`` (the games of the book's archive that played the move; the mover's points over them,
        :attr:`games_points`; the book ranks moves by the score with one draw added, :attr:`games_score`) or
        ``"the book's search: value 4 at depth 10"`` (values as :func:`ai.kernel.numbers.value_label` writes them)."""
        if self.from_games:
            return (f"{self.weight:,} book {'game' if self.weight == 1 else 'games'}, "
                    f"mover's score {self.games_points / self.weight:.2f}")
        return f"the book's search: value {value_label(self.value)} at depth {self.depth}"

    def to_json(self) -> dict[str, Any]:
        """The entry as written in the file: ``{"move", "value", "depth", "weight"}``."""
        return {"move": self.move, "value": self.value, "depth": self.depth, "weight": self.weight}


def position_key(state: CheckersState) -> PositionKey:
    """The book key of ``state``: its pieces and side to move (the draw counters are ignored)."""
    return (state.black, state.white, state.kings, state.turn)


class OpeningBook:
    """Book positions and their searched moves.

    Args:
        positions: FEN -> entries (best first); the FENs are parsed and the moves checked here.
        meta: the build record (kept as read; free-form).
        source: where the book came from (for error messages).

    Raises:
        BookError: a FEN that does not parse, a move that is malformed or illegal in its position.
    """

    def __init__(self, positions: dict[str, list[BookEntry]], meta: dict[str, Any] | None = None,
                 source: str = "<memory>") -> None:
        self.meta: dict[str, Any] = dict(meta or {})
        self.source = source
        self._fens: dict[PositionKey, str] = {}
        self._entries: dict[PositionKey, list[BookEntry]] = {}
        for fen, entries in positions.items():
            try:
                state = _GAME.parse_position(fen)
            except GameError as err:
                raise BookError(f"opening book {source}: position {fen!r} is not a checkers FEN: {err}") from None
            legal = _GAME.actions(state)
            for e in entries:
                try:
                    match_move(legal, e.move)
                except GameError as err:
                    raise BookError(f"opening book {source}: move {e.move!r} in position {fen!r}: {err}") from None
            k = position_key(state)
            self._fens[k] = fen
            self._entries[k] = list(entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, state: object) -> bool:
        return isinstance(state, CheckersState) and position_key(state) in self._entries

    def fens(self) -> list[str]:
        """The FEN of every stored position, in file order."""
        return list(self._fens.values())

    def lookup(self, state: CheckersState) -> list[BookEntry]:
        """The stored entries of ``state`` (best first), or ``[]``; keyed by pieces and side to move only."""
        return list(self._entries.get(position_key(state), ()))

    def candidates(self, state: CheckersState, margin: float = DEFAULT_MARGIN) -> list[tuple[CheckersMove, BookEntry]]:
        """The legal book moves of ``state`` whose value is within ``margin`` units of the best legal one.

        Returns:
            ``(move, entry)`` pairs in stored order (best first); ``[]`` when the position is not in the book or
            none of its moves is legal in ``state`` (e.g. the game is already over by a draw rule).
        """
        legal = _GAME.actions(state)
        found: list[tuple[CheckersMove, BookEntry]] = []
        for e in self._entries.get(position_key(state), ()):
            try:
                found.append((match_move(legal, e.move), e))
            except GameError:
                continue
        if not found:
            return []
        best = max(e.value for _, e in found)
        return [(m, e) for m, e in found if e.value >= best - margin]

    def choose(self, state: CheckersState, rng: random.Random | None = None,
               margin: float = DEFAULT_MARGIN) -> CheckersMove | None:
        """A book move for ``state``, or ``None`` when the book has no legal move for it.

        Args:
            state: the position (its draw counters are ignored for the lookup; legality uses ``state`` itself).
            rng: ``None`` plays the best stored move (the first of the best value); a generator picks uniformly
                among the moves within ``margin`` (the same seed gives the same choice).
            margin: evaluation units (100 = one man) below the best value that still count as good.

        Returns:
            A move object from ``Checkers().actions(state)``, or ``None``.
        """
        cands = self.candidates(state, margin)
        if not cands:
            return None
        if rng is None:
            best = max(e.value for _, e in cands)
            return next(m for m, e in cands if e.value == best)
        return rng.choice(cands)[0]

    def to_json(self) -> dict[str, Any]:
        """The whole book as the JSON document described in the module docstring."""
        return {"format": BOOK_FORMAT, "version": BOOK_VERSION, "meta": self.meta,
                "positions": {self._fens[k]: [e.to_json() for e in v] for k, v in self._entries.items()}}


def _entry(raw: Any, where: str) -> BookEntry:
    expected = 'expected {"move": "11-15", "value": <number>, "depth": <whole number>, "weight": <whole number>}'
    if not isinstance(raw, dict):
        raise BookError(f"{where}: an entry is {type(raw).__name__}; {expected}")
    move, value, depth, weight = raw.get("move"), raw.get("value"), raw.get("depth"), raw.get("weight", 1)
    if not isinstance(move, str):
        raise BookError(f"{where}: entry {raw!r} has no move text; {expected}")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise BookError(f"{where}: entry {raw!r} has no numeric value; {expected}")
    for name, x in (("depth", depth), ("weight", weight)):
        if isinstance(x, bool) or not isinstance(x, int) or x < 0:
            raise BookError(f"{where}: entry {raw!r} has a bad {name}; {expected}")
    assert isinstance(depth, int) and isinstance(weight, int)
    return BookEntry(move, float(value), depth, weight)


def parse_book(data: Any, source: str = "<memory>") -> OpeningBook:
    """Build an :class:`OpeningBook` from a decoded JSON document (see the module docstring).

    Raises:
        BookError: the document is not a checkers opening book of this version, or an entry is malformed or
            illegal (the message names ``source`` and what was expected).
    """
    if not isinstance(data, dict) or data.get("format") != BOOK_FORMAT:
        raise BookError(f"opening book {source}: expected a JSON object with \"format\": \"{BOOK_FORMAT}\"")
    if data.get("version") != BOOK_VERSION:
        raise BookError(f"opening book {source}: expected \"version\": {BOOK_VERSION}, got {data.get('version')!r}")
    raw_positions = data.get("positions")
    if not isinstance(raw_positions, dict):
        raise BookError(f"opening book {source}: expected \"positions\": an object mapping FEN -> list of entries")
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        raise BookError(f"opening book {source}: expected \"meta\" to be an object")
    positions: dict[str, list[BookEntry]] = {}
    for fen, raw in raw_positions.items():
        where = f"opening book {source}, position {fen!r}"
        if not isinstance(raw, list) or not raw:
            raise BookError(f"{where}: expected a non-empty list of entries")
        positions[fen] = [_entry(r, where) for r in raw]
    return OpeningBook(positions, meta, source)


def load_book(path: Path | str) -> OpeningBook:
    """Read a book file.

    Raises:
        BookError: the file cannot be read, is not JSON, or is not a valid book (the message names the file).
    """
    p = Path(path)
    try:
        text = read_text_file(p).text  # a BOM, CRLF or Windows-1252 read as its author meant
    except OSError as e:
        raise BookError(f"cannot read the opening book {p}: {e.strerror or e}") from None
    except NotTextError as e:
        raise BookError(f"opening book {p}: {e}; expected JSON text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise BookError(f"opening book {p} is {json_problem(e)}; "
                        f"expected a JSON object with \"format\": \"{BOOK_FORMAT}\"") from None
    return parse_book(data, str(p))


def save_book(book: OpeningBook, path: Path | str) -> int:
    """Write ``book`` as JSON (one position per line, so diffs stay readable), atomically.

    Missing parent folders are created; an existing file is replaced only once the new one is whole (written beside
    it as ``NAME.tmp``, then renamed), so a failure leaves the old file as it was and no ``.tmp`` behind.

    Returns:
        The file size in bytes.

    Raises:
        BookError: the file cannot be written (a folder in its place, a file where a folder should be, no permission).
    """
    p = Path(path)
    doc = book.to_json()
    lines = [f"{json.dumps(fen)}: {json.dumps(entries)}" for fen, entries in doc["positions"].items()]
    text = (f'{{"format": {json.dumps(doc["format"])}, "version": {doc["version"]},\n'
            f'"meta": {json.dumps(doc["meta"], sort_keys=True)},\n'
            '"positions": {\n' + ",\n".join(lines) + "\n}}\n")
    tmp = p.with_name(p.name + ".tmp")
    try:
        if p.is_dir():
            raise IsADirectoryError(21, "it is a folder")
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(p)
    except OSError as e:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        raise BookError(f"cannot write the opening book {p}: {e.strerror or e}; expected a writable file path") \
            from None
    return len(text.encode("utf-8"))


_default: dict[Path, OpeningBook] = {}


def load_default(path: Path | None = None) -> OpeningBook | None:
    """The shipped book (``assets/book/checkers_book.json``), read once per process and cached.

    Args:
        path: another file to treat as the default (tests); cached the same way.

    Returns:
        The book, or ``None`` when the file does not exist.

    Raises:
        BookError: the file exists but is malformed (the message names it and what was expected).
    """
    p = (path or DEFAULT_PATH).resolve()
    if p not in _default:
        if not p.exists():
            return None  # not cached: a book written later is found
        _default[p] = load_book(p)
    return _default[p]
