"""Move numbers as a player reads them: the one convention behind every "move N" the window shows.

A *move* is a pair of plies numbered from 1, as in the match's moves list and in PDN (``12. 11-15 23-19`` is move
12: the first player's ply, then the second player's). A game that starts with the second player to move (a
pasted checkers position with White to move) opens with a half move, ``1... 23-19``, and its numbers shift by one
ply. "The game is at move N" names the move the *next* ply belongs to, the line of the moves list where it will be
written: after 22 plies (eleven full lines) a checkers game is at move 12 with Black to play, after 23 plies still
at move 12 with White to play.

A game whose turns are several moves (Pig, where a turn is rolls and a hold) speaks of turns instead, in its own
words: its game object's ``progress_text(start, moves)`` (``"turn 3, Player 1 to play"``).

Every place that names the progress of a game (the resume prompt and its list of saved games, the title screen's
"game in progress" question, the confirm dialogs, the "Resumed your game at move N" and "Saved the game at move N"
messages, the moves list's numbers) calls :func:`move_number`, :func:`first_ply_offset` or :func:`progress`.

Pure Python: no pygame.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def first_ply_offset(game: Any, start: Any) -> int:
    """0 when the first player (player 0) is to move at ``start``, 1 when the second is (the first move is half a
    move, ``1...``). A chance node or a game without ``to_move`` counts as 0."""
    try:
        if game.is_chance(start):
            return 0
        return 1 if game.to_move(start) == 1 else 0
    except Exception:  # noqa: BLE001 - a position the game cannot describe: number from its start
        return 0


def move_number(ply: int, offset: int = 0) -> int:
    """The number of the move (ply pair, from 1) that ply index ``ply`` (0-based) belongs to.

    Also "where a game stands" after ``ply`` plies: the move its next ply belongs to.

    Args:
        ply: plies played before it (0 for the first ply of the game).
        offset: :func:`first_ply_offset` of the start position.

    Returns:
        ``(ply + offset) // 2 + 1``: plies 0 and 1 are move 1, plies 22 and 23 are move 12.
    """
    return (ply + offset) // 2 + 1


def progress(game: Any, start: Any, moves: Sequence[Any]) -> str:
    """Where a game stands, for a player: ``"move 12"`` (:func:`move_number` of the next ply; a finished game
    ``"over at move 29"``, the move of its last ply), or the game's own words when its game object has
    ``progress_text(start, moves)`` (Pig: ``"turn 2, Player 2 to play"``, ``"Player 2 won"``).

    Args:
        game: the game object.
        start: the start state.
        moves: the moves (and chance outcomes) played from ``start``.
    """
    describe = getattr(game, "progress_text", None)
    if callable(describe):
        try:
            return str(describe(start, moves))
        except Exception:  # noqa: BLE001 - words only: fall back to the move number
            pass
    offset = first_ply_offset(game, start)
    if moves and _over(game, start, moves):
        return f"over at move {move_number(len(moves) - 1, offset)}"
    return f"move {move_number(len(moves), offset)}"


def _over(game: Any, start: Any, moves: Sequence[Any]) -> bool:
    """True when ``moves`` end the game (replayed with ``game.result``; False when they cannot be replayed)."""
    try:
        state = start
        for m in moves:
            state = game.result(state, m)
        return bool(game.is_terminal(state))
    except Exception:  # noqa: BLE001 - words only
        return False
