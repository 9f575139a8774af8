"""Reading PDN archives: every game of a file, each with its own error and warnings, fast enough for 20,000 games.

A real archive mixes good games with a few bad ones (an illegal move copied from a book, a tag written twice). As
python-chess's ``read_game`` does for PGN, reading never stops at a bad game: :func:`iter_records` yields one
:class:`PDNRecord` per game, in file order, with the game (its moves up to the first problem), its tags, its
``error`` (a :class:`~gameplay.rules.checkers.pdn.PDNError` giving line and column, or ``None``) and its ``warnings``:

* a game ends at its result token, at a tag section after its movetext, or, for a game of tags and no moves, at
  a tag section that follows a blank line and repeats one of its tags: four games of which the first has no moves
  are four games (PDN, as PGN, writes a blank line between a game's tags and what follows them);
* a tag given twice in one tag section, with no blank line between (``Event`` too: some programs write two),
  stays one game's and keeps its first value (warning);
* a tag value's backslashes are PDN's escapes only before ``\\`` and ``"``; any other backslash is itself, as
  in a Windows path (``[Site "C:\\games\\x"]``), and a value that ends with a backslash (``"C:\\games\\"]``)
  ends at the line's last ``"]``;
* a result token that disagrees with the ``Result`` tag wins over the tag (warning);
* a ``Result`` tag that is no result token is ignored (warning);
* each warning begins with the line and column of what it is about (``line 6, column 1: tag Black is given
  twice: ...``: the tag given again; the ``Result`` tag that is no result; the result token that disagrees);
* an illegal, ambiguous or malformed move, a malformed tag pair, a bad ``FEN`` tag, an unclosed comment or
  variation, or an unexpected word is the game's error; the game ends where it would have ended (its result
  token, or the next tag section), and reading goes on with the next game. An unclosed ``{`` ends the game at
  the next line that starts with ``[`` (a new tag section), since nothing else can tell where it should have
  closed.

Speed (``python main.py bench pdn``: 13,800 games/s compiled, 5,200 pure on the 22,621-game Open Checkers
Archive, against 3,500 and 1,800 for a reader that tokenizes every character): one regular expression finds the
tags, comments, variations and line comments; the words between them are split on white space and looked up in
a table of words already seen (``"11-15"`` -> the move), a move is accepted when it is in the legal move list,
and the first plies of the games from the standard start are shared in a tree of words (most games open alike).
A game with anything unusual (a word glued to a move number, an illegal move, a malformed tag) is read again by
the exact reader, which tokenizes it character by character and gives the error's line and column. Both give the
same games, tags, errors and warnings for any text (the exact reader is the reference; ``tests/test_pdn_reading.py``
checks it on generated archives and random texts).

Standard library only.
"""

# Over 600 lines because _Reader is one scanner over the text (about 390 lines) whose fast and exact paths share
# its position, tag and recovery state; the strict readers (read_games, read_game) are a few lines on top of it.

from __future__ import annotations

import bisect
import gc
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from gameplay.rules.base import MoveError, PositionError, quoted
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.checkers.checkers_board import CheckersMove, CheckersState, square_to_rowcol
from gameplay.rules.checkers.checkers_notation import format_fen, match_move, parse_fen
from gameplay.rules.checkers.pdn import RESULTS, PDNError, PDNGame

_GAME = Checkers()
_START = _GAME.initial_state()
_DERIVED_TAGS = ("Result", "SetUp", "FEN")
BLACK_SCORE: dict[str, float] = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}
"""A game's result token -> Black's score (Black moves first); ``*`` (unfinished) has none."""


@dataclass
class PDNRecord:
    """One game of a PDN text as read: the game, its tags, its error and warnings, and where it is in the text."""

    index: int
    """0-based position of the game in the text."""
    game: PDNGame
    """The game: its moves up to the first problem when :attr:`error` is set (a bad ``FEN`` tag: the standard
    start and no move). Its ``tags`` leave out ``Result``, ``SetUp`` and ``FEN``; its ``warnings`` are
    :attr:`warnings`."""
    tags: dict[str, str]
    """Every tag as read (the first value of a tag given twice), ``Result``, ``SetUp`` and ``FEN`` included."""
    error: PDNError | None = None
    """Why the game is bad (with line and column), or ``None`` for a good game."""
    warnings: list[str] = field(default_factory=list)
    """What was read leniently: a duplicate tag, a result that disagrees with the ``Result`` tag..."""
    offset: int = 0
    """Character offset in the text where the game begins (its first tag or move)."""
    end: int = 0
    """Character offset just after the game's last tag or word (``end / len(text)`` is the reading's
    progress)."""
    line: int = 1
    """1-based line where the game begins."""
    final: CheckersState | None = None
    """The position after the last move, or ``None`` when :attr:`error` is set."""

    @property
    def ok(self) -> bool:
        """True for a good game (no error)."""
        return self.error is None

    @property
    def plies(self) -> int:
        """Moves read (before the error, for a bad game)."""
        return len(self.game.moves)

    @property
    def result(self) -> str:
        """The game's result token (``1-0`` Black won, ``0-1``, ``1/2-1/2``, ``*``)."""
        return self.game.result


# ----- shared by the fast and the exact reader -------------------------------------------------------------------
_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<tag>\[)
  | (?P<comment>\{)
  | (?P<variation>\()
  | (?P<linecomment>;[^\n]*)
  | (?P<nag>\$\d+)
  | (?P<result>(?:1-0|0-1|1/2-1/2|\*)(?![\w/-]))
  | (?P<number>\d+\.(?:\.\.)?)
  | (?P<move>\d+(?:[-xX:]\d+)+)(?P<suffix>[!?]*)(?![\w-])
""", re.VERBOSE)
_TAG_PAIR = re.compile(r'\[\s*(?P<name>[A-Za-z0-9_]+)\s+"(?P<value>(?:[^"\\\n]|\\.)*)"\s*\]')
_TAG_LITERAL = re.compile(r'\[\s*(?P<name>[A-Za-z0-9_]+)\s+"(?P<value>[^\n]*)"\s*\]')
"""A tag pair whose value ends with a backslash as written on Windows (``[Site "C:\\games\\"]``): the value is
everything up to the last ``"]`` of the line, as written."""
_UNESCAPE = re.compile(r'\\([\\"])')
"""PDN's escapes, as PGN's: ``\\\\`` is a backslash and ``\\"`` a quote; any other backslash is itself (a Windows
path written as it is, ``C:\\games\\x``)."""
_BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*\n")
_STRUCT = re.compile(r"[\[{(;]")
"""What the fast scanner stops at: a tag, a comment, a variation, a line comment (result tokens are words)."""
_WORD = re.compile(r"[^\s\[{(;]+")
"""An unexpected word: up to white space or the next tag, comment or variation."""
_SKIP_WORD = re.compile(r"\d+\.(?:\.\.)?|\$\d+")
_MOVE_WORD = re.compile(r"(\d{1,2})((?:[-xX:]\d{1,2})+)[!?]*")
_NEXT_TAG_LINE = re.compile(r"\n[ \t]*\[")


def _match_tag(text: str, pos: int, end: int) -> tuple[str, str, int] | None:
    """The tag pair at ``text[pos]`` (a ``[``) as ``(name, value, offset after it)``, or ``None`` when it is
    malformed. Both readers read tags here."""
    t = _TAG_PAIR.match(text, pos, end)
    if t is None:
        t = _TAG_LITERAL.match(text, pos, end)
        if t is None:
            return None
        return t.group("name"), t.group("value"), t.end()
    raw = t.group("value")
    return t.group("name"), (_UNESCAPE.sub(r"\1", raw) if "\\" in raw else raw), t.end()


def _next_game(text: str, last: int, pos: int, tags: dict[str, str], name: str) -> bool:
    """True when a tag named ``name`` at ``pos``, after a game's tags and no movetext, begins the next game: the
    game already has this tag, and a blank line ends the tag section before it (PDN, as PGN, writes a blank line
    between the tags and the movetext). The game before then had tags and no moves (an empty game, or a header
    kept alone). A tag given twice in one tag section, with no blank line between, stays one game's with a
    warning: ``Event`` too, which some programs write twice (issue 48; before, a repeated ``Event`` always began
    a game and such a game was read as two)."""
    return name in tags and _BLANK_LINE.search(text, last, pos) is not None


def _game_tags(tags: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in tags.items() if k not in _DERIVED_TAGS}


# ----- word table of the fast reader ---------------------------------------------------------------------------
_SKIP = CheckersMove((0,))
"""A move number (``12.``, ``12...``) or a numeric annotation glyph (``$1``): nothing to play."""
_RESULT = CheckersMove((0, 0))
"""A result token (only the last word of a game may be one)."""
_MATCH = CheckersMove((0, 0, 0))
"""A path that is no jump (a short form, or a mistake): only :func:`match_move` can resolve it."""
_MIDDLE: dict[tuple[int, int], int] = {}
for _a in range(1, 33):
    _ra, _ca = square_to_rowcol(_a)
    for _b in range(1, 33):
        _rb, _cb = square_to_rowcol(_b)
        if abs(_ra - _rb) == 2 and abs(_ca - _cb) == 2:
            _MIDDLE[(_a, _b)] = [s for s in range(1, 33)
                                 if square_to_rowcol(s) == ((_ra + _rb) // 2, (_ca + _cb) // 2)][0]
_WORDS: dict[str, CheckersMove] = {r: _RESULT for r in RESULTS}
"""Word -> the move it names when it is a full path (tried against the legal moves first; a quiet move ``a-b``
may also name a jump, found by :func:`match_move`), or :data:`_SKIP`, :data:`_RESULT`, :data:`_MATCH`. Grows
with the words met (a few thousand distinct ones in a large archive); words the fast reader cannot read are not
stored."""
_Trie = dict[str, tuple[CheckersMove, CheckersState, "_Trie"]]
TRIE_PLIES = 16
"""The first plies of the games from the standard start are shared in a tree of words (most games of an archive
open alike), so a position met again is not generated again."""


def _movetext_seen(text: str, words: list[str]) -> bool:
    """True when the words before a tag (``text`` split) hold a token other than a move number or a glyph (a
    move, a result token, or a word that is wrong): the tag then begins the next game (as the exact reader
    decides)."""
    for word in words:
        known = _WORDS.get(word)
        if known is None:
            break
        if known is not _SKIP:
            return True
    else:
        return False
    pos, end = 0, len(text)
    while pos < end:
        m = _TOKEN.match(text, pos)
        if m is None:
            return True
        kind = m.lastgroup
        if kind not in ("ws", "nag", "number"):
            return True
        pos = m.end()
    return False


def _classify(word: str) -> CheckersMove | None:
    """What a movetext word means for the fast reader, or ``None`` when only the exact
    reader can tell."""
    if _SKIP_WORD.fullmatch(word):
        return _SKIP
    m = _MOVE_WORD.fullmatch(word)
    if m is None:
        return None
    squares = (int(m.group(1)),) + tuple(int(x) for x in re.findall(r"\d+", m.group(2)))
    if any(not 1 <= s <= 32 for s in squares):
        return None
    if "-" in word and len(squares) == 2:
        return CheckersMove(squares)
    caps = [_MIDDLE.get((a, b)) for a, b in zip(squares, squares[1:])]
    if any(c is None for c in caps):
        return _MATCH
    return CheckersMove(squares, tuple(c for c in caps if c is not None))


# ----- the reader ----------------------------------------------------------------------------------------------------
class _Reader:
    """Reads the games of a PDN text (see :func:`iter_records`)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._line_starts: list[int] | None = None
        self._counted = (0, 1)  # (offset, its line): lines are counted forward as the games come
        self.index = 0
        self.trie: _Trie = {}
        """Word -> (move, position after it, the words after it) for the first :data:`TRIE_PLIES` plies of the
        games from the standard start (this reading only)."""

    # -- positions -------------------------------------------------------------------------------------------------
    def where(self, pos: int) -> tuple[int, int]:
        """1-based (line, column) of offset ``pos``."""
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer(r"\n", self.text)]
        line = bisect.bisect_right(self._line_starts, pos)
        return line, pos - self._line_starts[line - 1] + 1

    def line_of(self, pos: int) -> int:
        """1-based line of offset ``pos`` (counted forward from the last one asked, when ``pos`` is after it)."""
        at, line = self._counted
        if pos < at:
            return self.where(pos)[0]
        line += self.text.count("\n", at, pos)
        self._counted = (pos, line)
        return line

    def error(self, message: str, pos: int) -> PDNError:
        line, col = self.where(pos)
        return PDNError(message, line, col)

    def warn(self, warnings: list[str], pos: int, message: str) -> None:
        """Add ``message`` to ``warnings`` as ``"line L, column C: message"`` (the place of offset ``pos``)."""
        line, col = self.where(pos)
        warnings.append(f"line {line}, column {col}: {message}")

    def add_tag(self, tags: dict[str, str], tag_pos: dict[str, int], warnings: list[str], name: str, value: str,
                pos: int) -> None:
        """Read the tag at offset ``pos``: the first value of a tag given twice is kept, with a warning at the
        second (which names the first's line). ``tag_pos`` maps each tag to its first offset."""
        if name in tags:
            first = self.where(tag_pos[name])[0]
            if tags[name] != value:
                self.warn(warnings, pos, f"tag {name} is given twice: kept {tags[name]!r} (line {first}), "
                                         f"ignored {value!r}")
            else:
                self.warn(warnings, pos, f"tag {name} is given twice (the same value {value!r} on line {first})")
            return
        tags[name] = value
        tag_pos[name] = pos

    def final_result(self, tags: dict[str, str], tag_pos: dict[str, int], token: str, token_pos: int,
                     warnings: list[str]) -> str:
        """The game's result from the ``Result`` tag and the result token at offset ``token_pos`` ending the
        movetext (``""`` when none): the token wins when both are decisive and disagree (warning at the token);
        ``*`` or no token defers to the tag; a tag that is no result is ignored (warning at the tag)."""
        tag_result = tags.get("Result")
        if tag_result is not None and tag_result not in RESULTS:
            self.warn(warnings, tag_pos["Result"],
                      f"Result tag {tag_result!r} is not one of {', '.join(RESULTS)}: ignored")
            tag_result = None
        if token in ("", "*"):
            return tag_result if tag_result is not None else "*"
        if tag_result not in (None, "*", token):
            self.warn(warnings, token_pos, f"the moves end with {token} but the Result tag (line "
                                           f"{self.where(tag_pos['Result'])[0]}) says {tag_result}: kept {token}")
        return token

    def record(self, tags: dict[str, str], start: CheckersState, moves: list[CheckersMove], result: str,
               warnings: list[str], error: PDNError | None, offset: int, end: int,
               final: CheckersState | None) -> PDNRecord:
        game = PDNGame(_game_tags(tags), start, moves, result, warnings)
        rec = PDNRecord(self.index, game, tags, error, warnings, offset, end, self.line_of(offset),
                        (final if final is not None else start) if error is None else None)
        self.index += 1
        return rec

    def start_of(self, tags: dict[str, str], tag_pos: dict[str, int]) -> CheckersState:
        fen = tags.get("FEN")
        if fen is None:
            return _START
        try:
            return parse_fen(fen)
        except PositionError as e:
            raise self.error(f"bad FEN tag: {e}", tag_pos["FEN"]) from None

    # -- the scanner: cuts the text into games -------------------------------------------------------------------
    def scan(self, start: int, end: int) -> Iterator[PDNRecord]:
        """The games of ``text[start:end]``: tags, comments, variations and line comments are found by one
        search; the words between them are the movetext."""
        text = self.text
        search = _STRUCT.search
        tag_match = _match_tag
        pos = start
        g_start = -1  # offset of the current game's first tag or word; -1 before any
        tags: dict[str, str] = {}
        tag_pos: dict[str, int] = {}
        warnings: list[str] = []
        pieces: list[str] = []
        exact = False  # something unusual: the exact reader reads this game
        last = start  # offset after the current game's last tag or word
        while pos < end:
            m = search(text, pos, end)
            stop = m.start() if m is not None else end
            if stop > pos:
                piece = text[pos:stop]
                if not piece.isspace():
                    if g_start < 0:
                        g_start = pos + len(piece) - len(piece.lstrip())
                    pieces.append(piece)
                    last = pos + len(piece.rstrip())
            if m is None:
                break
            c = text[stop]
            if c == "[":
                t = tag_match(text, stop, end)
                new = False
                if pieces:
                    joined = " ".join(pieces)
                    words = joined.split()
                    new = _movetext_seen(joined, words)  # a tag section after movetext: a new game
                if not new and t is not None and tags and _next_game(text, last, stop, tags, t[0]):
                    new = True  # a tag section after a whole one with no movetext: a new game
                    words = " ".join(pieces).split()
                if new:
                    yield from self.finish(tags, tag_pos, warnings, words, g_start, last, exact)
                    tags, tag_pos, warnings, pieces, exact, g_start = {}, {}, [], [], False, -1
                if g_start < 0:
                    g_start = stop
                if t is None:
                    exact = True
                    nl = text.find("\n", stop, end)
                    pos = last = end if nl < 0 else nl
                    continue
                self.add_tag(tags, tag_pos, warnings, t[0], t[1], stop)
                pos = last = t[2]
                continue
            if c == "{":
                close = text.find("}", stop + 1, end)
            elif c == "(":
                close = self.skip_variation(stop, end)
            else:  # ";" comments to the end of the line
                nl = text.find("\n", stop, end)
                pos = end if nl < 0 else nl
                continue
            if close < 0:  # never closed: the game ends at the next tag section, read by the exact reader
                g_end = self.resync(stop, end)
                yield from self.finish(tags, tag_pos, warnings, [], stop if g_start < 0 else g_start, g_end, True)
                tags, tag_pos, warnings, pieces, exact, g_start = {}, {}, [], [], False, -1
                pos = g_end
                continue
            pos = close + 1 if c == "{" else close
        if g_start >= 0:
            yield from self.finish(tags, tag_pos, warnings, " ".join(pieces).split(), g_start, last, exact)

    def resync(self, pos: int, end: int) -> int:
        """Where reading goes on after an unclosed comment or variation at ``pos``: the next line that starts with
        ``[`` (a tag section), or ``end``."""
        nxt = _NEXT_TAG_LINE.search(self.text, pos, end)
        return nxt.end() - 1 if nxt is not None else end

    def skip_variation(self, pos: int, end: int) -> int:
        """Offset after the variation opening at ``pos`` (nested, with comments), or -1 when never closed."""
        text = self.text
        depth = 0
        i = pos
        while i < end:
            c = text[i]
            if c == "{":
                close = text.find("}", i + 1, end)
                if close < 0:
                    return -1
                i = close + 1
                continue
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        return -1

    def finish(self, tags: dict[str, str], tag_pos: dict[str, int], warnings: list[str], words: list[str],
               g_start: int, g_end: int, exact: bool) -> Iterator[PDNRecord]:
        """The game of ``text[g_start:g_end]``: read fast from its tags (each tag's offset in ``tag_pos``) and
        movetext words, or by the exact reader."""
        if not exact:
            rec = self.fast(tags, tag_pos, warnings, words, g_start, g_end)
            if rec is not None:
                yield rec
                return
        yield from self.exact(g_start, g_end)

    def fast(self, tags: dict[str, str], tag_pos: dict[str, int], warnings: list[str], words: list[str],
             g_start: int, g_end: int) -> PDNRecord | None:
        """The game read from its words, or ``None`` when a word needs the exact reader (which then reads the
        game again, from the same text, and says what is wrong and where). A result token is the game's last
        word, so it ends at ``g_end``."""
        fen = tags.get("FEN")
        if fen is None:
            start = _START
        else:
            try:
                start = parse_fen(fen)
            except PositionError:
                return None
        token = ""
        if words and words[-1] in RESULTS:
            token = words.pop()
        get = _WORDS.get
        legal_moves = _GAME.legal_moves
        successor = _GAME.successor
        state = start
        moves: list[CheckersMove] = []
        append = moves.append
        node: _Trie | None = self.trie if fen is None else None
        for word in words:
            known = get(word)
            if known is None:
                known = _classify(word)
                if known is None:
                    return None
                _WORDS[word] = known
            if known is _SKIP:
                continue
            if node is not None:
                hit = node.get(word)
                if hit is not None:
                    mv, state, node = hit
                    append(mv)
                    continue
            mv = known
            if mv is _RESULT:  # a result token before the last word: the exact reader splits the games
                return None
            legal = legal_moves(state)
            if mv not in legal:
                try:
                    mv = match_move(legal, word)
                except MoveError:
                    return None
            append(mv)
            state = successor(state, mv)
            if node is not None:
                if len(moves) <= TRIE_PLIES:
                    child: _Trie = {}
                    node[word] = (mv, state, child)
                    node = child
                else:
                    node = None
        if not moves and not tags:  # only move numbers or comments: the exact reader decides (no game, an error)
            return None
        result = self.final_result(tags, tag_pos, token, g_end - len(token), warnings)
        return self.record(tags, start, moves, result, warnings, None, g_start, g_end, state)

    # -- the exact reader -------------------------------------------------------------------------------------------
    def exact(self, start: int, end: int) -> Iterator[PDNRecord]:
        """Read ``text[start:end]`` token by token (the reference reader: errors with line and column)."""
        text = self.text
        match = _TOKEN.match
        pos = start
        tags: dict[str, str] = {}
        tag_pos: dict[str, int] = {}
        warnings: list[str] = []
        state: CheckersState | None = None
        first = _START
        moves: list[CheckersMove] = []
        error: PDNError | None = None
        g_start = -1  # offset of the game's first tag or word (a move number too)
        started = False  # a tag or a word other than a move number or glyph seen
        last = start  # offset after the last tag or word (comments and variations are not words)
        movetext = False  # a move seen: a tag section after it starts a new game

        def finish(token: str, g_end: int) -> PDNRecord:
            nonlocal tags, tag_pos, warnings, state, first, moves, error, g_start, movetext, started
            if state is None and error is None:  # no move: the game is its start position (a FEN tag's)
                try:
                    first = self.start_of(tags, tag_pos)
                except PDNError as e:
                    fail(e)
            result = self.final_result(tags, tag_pos, token, g_end - len(token), warnings)
            rec = self.record(tags, first, moves, result, warnings, error, g_start, g_end, state)
            tags, tag_pos, warnings, state, first, moves, error, g_start, movetext, started = (
                {}, {}, [], None, _START, [], None, -1, False, False)
            return rec

        def fail(e: PDNError) -> None:
            nonlocal error
            if error is None:
                error = e

        while pos < end:
            m = match(text, pos, end)
            if m is None:
                bad = _WORD.match(text, pos, end)
                stop = bad.end() if bad is not None else pos + 1
                fail(self.error(f"unexpected {quoted(text[pos:stop])}: expected a tag pair, a move number like '1.', a "
                                f"move like 11-15 or 22x15, a comment in braces or a result (1-0, 0-1, 1/2-1/2, *)",
                                pos))
                if g_start < 0:
                    g_start = pos
                started = True
                movetext = True
                pos = last = stop
                continue
            kind = m.lastgroup if m.lastgroup != "suffix" else "move"
            if kind == "ws" or kind == "linecomment":
                pos = m.end()
                continue
            if kind == "nag" or kind == "number":
                if g_start < 0:
                    g_start = pos
                pos = last = m.end()
                continue
            if kind == "comment":
                close = text.find("}", pos + 1, end)
                if close < 0:
                    fail(self.error("comment '{' is never closed with '}'", pos))
                    if g_start < 0:
                        g_start = pos
                    started = True
                    pos = last = self.resync(pos, end)
                    yield finish("", last)
                else:
                    pos = close + 1
                continue
            if kind == "variation":
                close = self.skip_variation(pos, end)
                if close < 0:
                    fail(self.error("variation '(' is never closed with ')'", pos))
                    if g_start < 0:
                        g_start = pos
                    started = True
                    pos = last = self.resync(pos, end)
                    yield finish("", last)
                else:
                    pos = close
                continue
            if kind == "tag":
                t = _match_tag(text, pos, end)
                if movetext or (t is not None and tags and _next_game(text, last, pos, tags, t[0])):
                    yield finish("", last)  # a new tag section after movetext, or after a game of tags alone
                if g_start < 0:
                    g_start = pos
                started = True
                if t is None:
                    fail(self.error('malformed tag pair: expected [Name "value"] on one line', pos))
                    nl = text.find("\n", pos, end)
                    pos = last = end if nl < 0 else nl
                    continue
                name, value, after = t
                self.add_tag(tags, tag_pos, warnings, name, value, pos)
                pos = last = after
                continue
            if kind == "result":
                if g_start < 0:
                    g_start = pos
                if not started:
                    fail(self.error(f"result {m.group(0)} with no game before it", pos))
                yield finish(m.group(0), m.end())
                pos = last = m.end()
                continue
            # a move
            movetext = True
            if g_start < 0:
                g_start = pos
            started = True
            if error is None:
                if state is None:
                    try:
                        first = self.start_of(tags, tag_pos)
                    except PDNError as e:
                        fail(e)
                    state = first
                if error is None:
                    mtext = m.group("move")
                    try:
                        mv = match_move(_GAME.legal_moves(state), mtext)
                    except MoveError as e:
                        fail(self.error(f"move {mtext!r} (ply {len(moves) + 1}) in {format_fen(state)}: {e}", pos))
                    else:
                        moves.append(mv)
                        state = _GAME.successor(state, mv)
            pos = last = m.end()
        if started:
            yield finish("", last)


def iter_records(text: str, *, exact: bool = False) -> Iterator[PDNRecord]:
    """Read every game of a PDN text, one :class:`PDNRecord` at a time, in file order (an empty text gives none).

    Never raises for a bad game: each record carries its own error and warnings (see the module's description).
    Stopping the iteration stops the reading (a cancel button); ``record.end / len(text)`` is the progress. The
    cyclic garbage collector is paused while the generator runs (the reading makes no reference cycle, and the
    collector's passes over the growing heap cost a fifth of the time); it is resumed when the generator ends or
    is closed.

    Args:
        text: the PDN text (the whole file).
        exact: read every game with the exact reader, token by token (the reference the fast reader is checked
            against; about 4x slower).

    Yields:
        The records, their ``index`` counting from 0.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        reader = _Reader(text)
        if exact:
            yield from reader.exact(0, len(text))
        else:
            yield from reader.scan(0, len(text))
    finally:
        if was_enabled:
            gc.enable()


def read_archive(text: str) -> list[PDNRecord]:
    """Every game of a PDN text as a list of :class:`PDNRecord` (see :func:`iter_records`)."""
    return list(iter_records(text))


def read_games(text: str) -> list[PDNGame]:
    """Read every game of a PDN text (an empty text gives ``[]``), refusing the text at its first bad game.

    Each game's moves are validated by replaying them from its start (the ``FEN`` tag, or the standard start).
    A tag given twice (the first value is kept) and a result token that disagrees with the Result tag (the token
    is kept) are read, with a note in the game's ``warnings``. To read every good game of an archive and learn
    what is wrong with each bad one, use :func:`iter_records`.

    Args:
        text: the PDN text.

    Returns:
        The games, in file order.

    Raises:
        PDNError: the first bad game's problem: a malformed tag pair, comment or token, a bad FEN tag, or an
            illegal or ambiguous move; the message gives the line and column (1-based).
    """
    games = []
    for rec in iter_records(text):
        if rec.error is not None:
            raise rec.error
        games.append(rec.game)
    return games


def read_game(text: str) -> PDNGame:
    """Read a PDN text holding exactly one game.

    Raises:
        PDNError: as :func:`read_games`, or the text holds no game or more than one.
    """
    games = read_games(text)
    if len(games) != 1:
        raise PDNError(f"expected exactly one game, found {len(games)}", 1, 1)
    return games[0]
