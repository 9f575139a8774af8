"""A typed move: what the match panel's move field (:class:`gameplay.ui.play.match_panel.MatchPanel`) makes of the
text typed into it. Headless (no pygame): the legal moves in the game's own notation (``format_move``), the ones
the text begins (the completions shown beside the field, Tab takes their common beginning), and the move Enter
plays: the legal move written exactly so (letter case aside), else the one completion, else what the game's own
reader (``parse_move``: checkers' ``7x32`` for ``7x16x23x32``) makes of it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from gameplay.rules.base import GameError, quoted

__all__ = ["TypedMove", "common_start", "completions", "legal_moves", "read_typed_move"]

SHOWN_IN_ERROR = 12
"""Legal moves an error message lists at most (then "... and N more")."""


def legal_moves(game: Any, state: Any) -> list[tuple[str, Any]]:
    """``[(text, move)]``: the legal moves at ``state`` in the game's notation, in the game's order; ``[]`` at an end
    or a chance node (the dice are the referee's)."""
    if game.is_terminal(state) or game.is_chance(state):
        return []
    return [(game.format_move(state, m), m) for m in game.actions(state)]


def completions(game: Any, state: Any, text: str) -> list[tuple[str, Any]]:
    """The legal moves whose text begins with ``text`` (letter case and the spaces around it aside), in the game's
    order; every legal move for an empty ``text``."""
    want = text.strip().lower()
    return [(t, m) for t, m in legal_moves(game, state) if t.lower().startswith(want)]


def common_start(texts: list[str]) -> str:
    """The longest beginning all of ``texts`` share (what Tab completes to); ``""`` for none."""
    return os.path.commonprefix(texts) if texts else ""


@dataclass(frozen=True)
class TypedMove:
    """What Enter makes of a typed text: a legal ``move`` to play, or an ``error`` to show (one of them is set)."""

    move: Any = None
    """The legal move, or ``None`` with :attr:`error`."""
    text: str = ""
    """The move in the game's notation (``"11-15"``)."""
    error: str = ""
    """Why nothing is played (empty when :attr:`move` is set)."""


def read_typed_move(game: Any, state: Any, text: str) -> TypedMove:
    """The move ``text`` names at ``state`` (see the module docstring).

    Returns:
        A :class:`TypedMove`: the move, or an error that says why not and which moves there are (an empty text, no
        legal move, an illegal or ambiguous text).
    """
    typed = text.strip()
    legal = legal_moves(game, state)
    if not legal:
        return TypedMove(error="no move to type here: the game is over" if game.is_terminal(state)
                         else "no move to type here")
    if not typed:
        return TypedMove(error="type a move first, e.g. " + legal[0][0])
    for t, m in legal:
        if t.lower() == typed.lower():
            return TypedMove(m, t)
    starts = completions(game, state, typed)
    if len(starts) == 1:
        return TypedMove(starts[0][1], starts[0][0])
    if starts:
        return TypedMove(error=f"{quoted(typed)} begins {len(starts)} moves: " + _listed(starts)
                         + "; type the whole move")
    try:
        move = game.parse_move(state, typed)
    except (GameError, ValueError):
        move = None
    for t, m in legal:
        if move is not None and m == move:
            return TypedMove(m, t)
    return TypedMove(error=f"{quoted(typed)} is not a legal move here; the moves are " + _listed(legal))


def _listed(moves: list[tuple[str, Any]]) -> str:
    shown = ", ".join(t for t, _ in moves[:SHOWN_IN_ERROR])
    more = len(moves) - SHOWN_IN_ERROR
    return shown + (f" and {more} more" if more > 0 else "")
