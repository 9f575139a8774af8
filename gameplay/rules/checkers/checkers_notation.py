"""English checkers in text: PDN move notation (``11-15``, ``22x15``, ``7x16x23x32``) and PDN FEN positions
(``B:W21-32:B1-12``), read and written; the game (:class:`gameplay.rules.checkers.checkers.Checkers`) and the PDN reader
(:mod:`gameplay.rules.checkers.pdn`, :mod:`gameplay.rules.checkers.pdn_read`) use them.

Imports only :mod:`gameplay.rules.checkers.checkers_board` of the checkers modules. Compiled with mypyc
(:data:`gameplay.rules.compiled.COMPILED_MODULES`: the archive reader matches every move with it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from gameplay.rules.base import (
    MoveError,
    PositionError,
    quoted,
)
from gameplay.rules.checkers.checkers_board import (
    BLACK,
    BLACK_CROWN_ROW,
    WHITE,
    WHITE_CROWN_ROW,
    CheckersMove,
    CheckersState,
    squares_of,
)

# ----- notation helpers --------------------------------------------------------------------------------------------
_FEN_HINT: Final = ("expected a PDN FEN like 'B:W21-32:B1-12' (side to move B or W, then ':W' and ':B' square lists, "
             "squares 1..32, 'K' before a king, ranges 'a-b' allowed)")
_MOVE_RE: Final = re.compile(r"^\s*(\d{1,2})((?:\s*[-xX:]\s*\d{1,2})+)\s*$")
_MOVE_HINT: Final = "expected a move like 11-15, 22x15 or 7x16x23x32 (PDN squares 1..32)"
_DIGITS_RE: Final = re.compile(r"\d+")
_FEN_ITEM_RE: Final = re.compile(r"(\d{1,2})(?:\s*-\s*K?(\d{1,2}))?")


def format_move_text(move: CheckersMove) -> str:
    """The full PDN text of ``move``: ``11-15`` for a step, ``7x16x23x32`` for a jump (every landing square)."""
    return ("x" if move.captures else "-").join(map(str, move.path))


def parse_move_squares(text: str) -> tuple[int, ...]:
    """The squares named by a move string (``11-15``, ``22x15``, ``7x16x23x32``, ``7x32``), unchecked.

    Raises:
        MoveError: the text is not squares 1..32 joined by ``-`` or ``x``.
    """
    m = _MOVE_RE.match(text)
    if m is None:
        raise MoveError(f"{_MOVE_HINT}, got {quoted(text)}")
    squares = (int(m.group(1)),) + tuple(int(x) for x in _DIGITS_RE.findall(m.group(2)))
    bad = [s for s in squares if not 1 <= s <= 32]
    if bad:
        raise MoveError(f"{_MOVE_HINT}; square {bad[0]} is off the board in {quoted(text)}")
    return squares


def match_move(moves: Sequence[CheckersMove], text: str) -> CheckersMove:
    """The move of ``moves`` that ``text`` names: its full path, or a shortened path naming the first and last
    squares (and possibly some landing squares between, in order), when exactly one move fits.

    Raises:
        MoveError: malformed text, no move fits (the message lists the legal moves), or several fit (it lists
            them).
    """
    squares = parse_move_squares(text)
    if len(squares) < 2:
        raise MoveError(f"{_MOVE_HINT}, got {quoted(text)}")
    for mv in moves:
        if mv.path == squares:
            return mv
    fits = [mv for mv in moves if mv.path[0] == squares[0] and mv.path[-1] == squares[-1]
            and _is_subsequence(squares, mv.path)]
    if len(fits) == 1:
        return fits[0]
    if len(fits) > 1:
        raise MoveError(f"ambiguous move {text.strip()!r}: it could be "
                        f"{' or '.join(format_move_text(mv) for mv in fits)}; give the full path")
    if not moves:
        raise MoveError(f"no move {text.strip()!r}: the side to move has no legal move")
    legal = ", ".join(format_move_text(mv) for mv in moves)
    extra = " (captures are compulsory)" if moves[0].captures else ""
    raise MoveError(f"illegal move {text.strip()!r}; the legal moves are {legal}{extra}")


def _is_subsequence(short: tuple[int, ...], full: tuple[int, ...]) -> bool:
    it = iter(full)
    return all(s in it for s in short)


def _parse_fen_list(part: str, text: str) -> list[tuple[int, bool]]:
    out: list[tuple[int, bool]] = []
    body = part[1:].strip()
    if not body:
        return out
    for item in body.split(","):
        item = item.strip()
        king = item.startswith("K")
        if king:
            item = item[1:].strip()
        if len(item) <= 2 and item.isascii() and item.isdigit():  # one square, the usual item: no pattern needed
            a = b = int(item)
        else:
            m = _FEN_ITEM_RE.fullmatch(item)
            if m is None:
                raise PositionError(f"bad square {quoted(item)} in {quoted(text)}: {_FEN_HINT}")
            a = int(m.group(1))
            b = int(m.group(2)) if m.group(2) else a
        if not (1 <= a <= 32 and 1 <= b <= 32):
            raise PositionError(f"square {a if not 1 <= a <= 32 else b} is off the board in {quoted(text)}: "
                                f"{_FEN_HINT}")
        if b < a:
            raise PositionError(f"descending range {a}-{b} in {quoted(text)}: {_FEN_HINT}")
        out.extend((s, king) for s in range(a, b + 1))
    return out


def parse_fen(text: str) -> CheckersState:
    """Read a position in PDN FEN (RULES.md): ``B:W21-32:B1-12``, ``W:W12,13,K22:B2,3``, ``B:WK22:B``.

    Accepts ranges, either list order, an empty list, spaces around separators, lower-case letters and a
    trailing ``.``. The draw counters start at zero.

    Args:
        text: the FEN.

    Returns:
        The :class:`CheckersState`.

    Raises:
        PositionError: malformed text (the message says what was expected), a square off the board or listed
            twice, more than 12 pieces a side, a man on its own crowning row, or no piece at all (``W:W:B``: no
            game reaches it, since the capturing piece stays; one side without pieces is a finished game).
    """
    t = text.strip().upper().rstrip(".").strip()
    parts = [p.strip() for p in t.split(":")]
    if len(parts) != 3:
        raise PositionError(f"malformed checkers position {quoted(text)}: {_FEN_HINT}")
    if parts[0] not in ("B", "W"):
        raise PositionError(f"malformed checkers position {quoted(text)}: side to move must be B or W, got "
                            f"{parts[0]!r}; {_FEN_HINT}")
    colours = [p[:1] for p in parts[1:]]
    if sorted(colours) != ["B", "W"]:
        raise PositionError(f"malformed checkers position {quoted(text)}: need one 'W' list and one 'B' list; "
                            f"{_FEN_HINT}")
    bits = {"B": 0, "W": 0}
    kings = 0
    seen = 0
    for part in parts[1:]:
        colour = part[0]
        for sq, king in _parse_fen_list(part, text):
            bit = 1 << (sq - 1)
            if seen & bit:
                raise PositionError(f"square {sq} is listed twice in {quoted(text)}")
            seen |= bit
            bits[colour] |= bit
            if king:
                kings |= bit
    black, white = bits["B"], bits["W"]
    if not black and not white:
        raise PositionError(f"impossible checkers position {quoted(text)}: no piece on the board (a capture never "
                            "removes the capturing piece, so a game always keeps one; a side with no pieces, "
                            "as in B:WK22:B, is a finished game)")
    for name, mask in (("Black", black), ("White", white)):
        if mask.bit_count() > 12:
            raise PositionError(f"impossible checkers position {quoted(text)}: {name} has {mask.bit_count()} pieces "
                                "(at most 12)")
    bad = (black & ~kings & BLACK_CROWN_ROW) | (white & ~kings & WHITE_CROWN_ROW)
    if bad:
        sq = squares_of(bad)[0]
        raise PositionError(f"impossible checkers position {quoted(text)}: the man on {sq} stands on its crowning "
                            f"row (write it as K{sq})")
    return CheckersState(black, white, kings, BLACK if parts[0] == "B" else WHITE)


def format_fen(state: CheckersState) -> str:
    """Write ``state`` in PDN FEN: side to move, the White list then the Black list, squares ascending, kings
    marked ``K`` in place (``W:W12,13,K22:B2,3``)."""
    def lst(mask: int) -> str:
        return ",".join(("K" if state.kings >> (s - 1) & 1 else "") + str(s) for s in squares_of(mask))
    return f"{'B' if state.turn == BLACK else 'W'}:W{lst(state.white)}:B{lst(state.black)}"
