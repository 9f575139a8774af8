"""Portable Draughts Notation (PDN) for English checkers: whole games and single FEN positions.

PDN (Adrian Millett, 1995) is the draughts form of chess's PGN: tag pairs such as ``[Event "..."]``,
``[Black "..."]``, ``[White "..."]``, ``[Result "1-0"]`` and, for a game from a set-up position,
``[SetUp "1"]`` with ``[FEN "B:W18,24:B12,16"]``; then the movetext: move numbers (``1.``, and ``1...`` before
a White move that opens the movetext), moves in PDN square notation (``11-15``, ``22x15``, ``7x16x23x32``, or
the short form ``7x32`` when exactly one legal move fits), comments in braces ``{...}`` (skipped), and the
result token ``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` that ends the game.

Choices made here:

* ``1-0`` means the first player, Black, won, and ``0-1`` that White won (the English-checkers convention in
  which the first number belongs to the side that moves first; some descriptions of PDN say the reverse for
  international draughts, where White moves first).
* Reading also skips variations in parentheses, ``;`` comments to the end of the line, numeric annotation
  glyphs (``$1``) and move suffixes ``!`` / ``?``. Move numbers are not checked.
* Moves are validated by replaying them under the movement rules of :mod:`gameplay.rules.checkers.checkers`; the
  automatic draw rules are not applied while reading, so a recorded game that went on past a repetition still
  reads.
* A game read back from :func:`write_game` equals the game written (tags, start position, moves, result).
* A tag given twice keeps its first value and a result token that disagrees with the Result tag wins, each with
  a warning; an archive with some bad games is read game by game by :mod:`gameplay.rules.checkers.pdn_read`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from gameplay.rules.base import GameError, MoveError, Outcome, quoted
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.checkers.checkers_board import BLACK, CheckersMove, CheckersState
from gameplay.rules.checkers.checkers_notation import format_fen, format_move_text, match_move, parse_fen

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
"""The result tokens: Black won, White won, drawn, unknown or unfinished."""

TAG_ORDER = ("Event", "Site", "Date", "Round", "Black", "White")
"""Tags written first, in this order, when present (the PDN seven-tag roster, less Result)."""

_GAME = Checkers()


class PDNError(GameError):
    """A malformed PDN text or an illegal move in it; the message gives the line and column (1-based).

    Attributes:
        line: 1-based line of the problem, or ``None`` when not about a place in a text (e.g. when writing).
        column: 1-based column, or ``None``.
    """

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        self.line = line
        self.column = column
        where = f"line {line}, column {column}: " if line is not None else ""
        super().__init__(f"PDN {where}{message}")


@dataclass
class PDNGame:
    """One checkers game: its tags, the start position, the moves and the result.

    ``tags`` holds every tag except ``Result``, ``SetUp`` and ``FEN``, which are derived from ``result`` and
    ``start`` when writing (so they cannot disagree).
    """

    tags: dict[str, str] = field(default_factory=dict)
    """Tag name -> value, e.g. ``{"Event": "Club match", "Black": "Ann", "White": "Bob"}``."""
    start: CheckersState = field(default_factory=_GAME.initial_state)
    """The position before the first move (the standard start unless the PDN had a FEN tag)."""
    moves: list[CheckersMove] = field(default_factory=list)
    """The moves played, each legal in turn."""
    result: str = "*"
    """One of :data:`RESULTS`."""
    warnings: list[str] = field(default_factory=list, compare=False)
    """What reading it forgave (a tag given twice, a result token that disagrees with the Result tag); empty for
    a game built in code. Not part of equality."""

    def states(self) -> list[CheckersState]:
        """Every position of the game: the start, then the one after each move (``len(moves) + 1`` states).

        The draw counters are carried along, so ``Checkers().outcome(game.states()[-1])`` applies the draw
        rules to the final position.
        """
        out = [self.start]
        s = self.start
        for m in self.moves:
            s = _GAME.successor(s, m)
            out.append(s)
        return out

    def final_state(self) -> CheckersState:
        """The position after the last move."""
        return self.states()[-1]

    def move_texts(self) -> list[str]:
        """The moves in full PDN notation (every landing square)."""
        return [format_move_text(m) for m in self.moves]


# ----- results ---------------------------------------------------------------------------------------------------
def result_token(outcome: Outcome | None) -> str:
    """The PDN result token of a game outcome: ``1-0`` Black won, ``0-1`` White won, ``1/2-1/2``, or ``*``."""
    if outcome is None:
        return "*"
    if outcome.winner is None:
        return "1/2-1/2"
    return "1-0" if outcome.winner == BLACK else "0-1"


# ----- single positions ------------------------------------------------------------------------------------------
def read_fen(text: str) -> CheckersState:
    """Read one PDN FEN position (``B:W21-32:B1-12``; see :func:`gameplay.rules.checkers.checkers_notation.parse_fen`).

    Raises:
        PositionError: malformed or impossible (the message says what was expected).
    """
    return parse_fen(text)


def write_fen(state: CheckersState) -> str:
    """Write one position as PDN FEN (``W:W12,13,K22:B2,3``: ascending squares, kings in place)."""
    return format_fen(state)


# ----- building a game -------------------------------------------------------------------------------------------
def game_from_moves(moves: Iterable[str | CheckersMove], start: CheckersState | str | None = None,
                    tags: dict[str, str] | None = None, result: str | None = None) -> PDNGame:
    """Build a validated game from move strings (or moves) played from ``start``.

    Args:
        moves: moves in PDN notation (``11-15``, ``7x32``) or :class:`CheckersMove` values.
        start: the start position (a state or a FEN); the standard start when ``None``.
        tags: tags other than Result/SetUp/FEN.
        result: the result token; when ``None`` it is taken from the final position (``*`` if not over).

    Returns:
        The :class:`PDNGame`.

    Raises:
        PositionError: ``start`` is a malformed FEN.
        MoveError: a move is malformed or illegal (draw rules are not applied).
        PDNError: ``result`` is not a result token.
    """
    s = parse_fen(start) if isinstance(start, str) else (start if start is not None else _GAME.initial_state())
    first = s
    played: list[CheckersMove] = []
    for i, mv in enumerate(moves):
        legal = _GAME.legal_moves(s)
        if isinstance(mv, CheckersMove):
            if mv not in legal:
                raise MoveError(f"move {i + 1} ({format_move_text(mv)}) is illegal in {format_fen(s)}")
            m = mv
        else:
            m = match_move(legal, mv)
        played.append(m)
        s = _GAME.successor(s, m)
    if result is None:
        result = result_token(_GAME.outcome(s))
    elif result not in RESULTS:
        raise PDNError(f"result must be one of {', '.join(RESULTS)}, got {quoted(result)}")
    return PDNGame(dict(tags or {}), first, played, result)


# ----- writing ---------------------------------------------------------------------------------------------------
_TAG_NAME = re.compile(r"[A-Za-z0-9_]+")


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_game(game: PDNGame, width: int = 79) -> str:
    """Write ``game`` as PDN text: tag pairs, a blank line, the movetext wrapped at ``width`` characters and
    ending with the result token, and a final newline.

    ``SetUp "1"`` and ``FEN`` are written when the start is not the standard start position.

    Raises:
        PDNError: a tag name is not letters, digits and ``_``, a tag value holds a line break, or the result is
            not a result token.
    """
    if game.result not in RESULTS:
        raise PDNError(f"result must be one of {', '.join(RESULTS)}, got {quoted(game.result)}")
    tags: list[tuple[str, str]] = [(n, game.tags[n]) for n in TAG_ORDER if n in game.tags]
    tags.append(("Result", game.result))
    if game.start != _GAME.initial_state():
        tags += [("SetUp", "1"), ("FEN", format_fen(game.start))]
    tags += [(n, v) for n, v in game.tags.items() if n not in TAG_ORDER and n not in ("Result", "SetUp", "FEN")]
    lines = []
    for name, value in tags:
        if not _TAG_NAME.fullmatch(name):
            raise PDNError(f"tag name must be letters, digits and '_', got {quoted(name)}")
        if "\n" in value or "\r" in value:
            raise PDNError(f"tag {name} holds a line break, which PDN cannot store")
        lines.append(f"[{name} {_quote(value)}]")
    tokens: list[str] = []
    turn = game.start.turn
    number = 1
    for i, m in enumerate(game.moves):
        if turn == BLACK:
            tokens.append(f"{number}.")
        elif i == 0:
            tokens.append(f"{number}...")
        tokens.append(format_move_text(m))
        if turn != BLACK:
            number += 1
        turn = 1 - turn
    tokens.append(game.result)
    text_lines: list[str] = []
    cur = ""
    for tok in tokens:
        if cur and len(cur) + 1 + len(tok) > width:
            text_lines.append(cur)
            cur = tok
        else:
            cur = f"{cur} {tok}" if cur else tok
    text_lines.append(cur)
    return "\n".join(lines) + "\n\n" + "\n".join(text_lines) + "\n"


def write_games(games: Iterable[PDNGame], width: int = 79) -> str:
    """Write several games, separated by blank lines (see :func:`write_game`).

    Raises:
        PDNError: as :func:`write_game`.
    """
    return "\n".join(write_game(g, width) for g in games)


# ----- reading moves (whole texts are read by gameplay.rules.checkers.pdn_read) ---------------------------------------
def read_moves(state: CheckersState, texts: Sequence[str]) -> list[CheckersMove]:
    """Parse a line of moves from ``state`` (each legal in turn under the movement rules).

    Raises:
        MoveError: a move is malformed, illegal or ambiguous.
    """
    out = []
    for t in texts:
        m = match_move(_GAME.legal_moves(state), t)
        out.append(m)
        state = _GAME.successor(state, m)
    return out
