"""Perft: count the positions of the legal-move tree to a depth (move-generator testing, ``main.py perft``).

Perft ("performance test") walks every legal move to a fixed depth and counts the positions it reaches; a
published count that differs shows a move-generator bug, and :func:`perft_divide` shows under which root move.

Convention (the default): only positions exactly ``depth`` plies down count; a position where the game is
over before ``depth`` (no legal move) contributes 0. This is the chess convention (Chess Programming Wiki,
"Perft"; python-chess) and the one of draughts programs (pydraughts, OpenSpiel's checkers perft), and the one
the published checkers numbers of RULES.md use. With ``count_terminal=True`` such a game-over position counts
once instead, so the count is the number of leaves of the game tree cut at ``depth``; tic-tac-toe's depth-9
count is then the number of distinct games, 255,168 (127,872 without it).

Game protocol used: ``game.actions(state)`` and ``game.successor(state, move)`` (and ``format_move`` for
:func:`perft_divide`). A game whose traits declare ``fast_perft`` provides its own
``perft(state, depth, count_terminal)`` (:class:`FastPerft`, e.g. checkers' bitboard count), which is called
instead of the generic walk and must agree with it. Above :data:`FAST_PLIES` plies from the leaves the walk
stays here, in interpreted Python, and hands each subtree to the game's count: a compiled (mypyc) count never
returns to the interpreter, where Python handles signals, so Ctrl+C would otherwise wait for the whole count
(minutes at checkers depth 14); this way it waits one subtree, and a progress callback sees each one.

Standard library only (the rules layer): never imports ``ai`` or pygame.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol, cast

from gameplay.rules.base import Game, GameError
from gameplay.rules.limits import PERFT_DEPTH

__all__ = ["FAST_PLIES", "FastPerft", "perft", "perft_divide"]

FAST_PLIES = 6
"""Subtrees of this many plies go whole to a game's own (:class:`FastPerft`) count: in checkers at most a few
million moves each (a position with 20 moves a ply, bulk-counted at the last), so Ctrl+C stops a count within
a fraction of a second; the walk above them costs about one successor call per 150 positions counted."""


class FastPerft(Protocol):
    """A game that counts its own move tree (declared by ``traits.fast_perft``)."""

    def perft(self, state: Any, depth: int, count_terminal: bool = False) -> int:
        """The same number as :func:`perft` for this game (``depth`` in plies, >= 0)."""
        ...

    def legal_moves(self, state: Any) -> list[Any]:
        """The moves its :meth:`perft` counts (e.g. checkers' movement rules with the draw rules ignored), for the
        walk above its subtrees."""
        ...


def _check(game: Game[Any, Any], depth: int) -> None:
    PERFT_DEPTH.read(depth, "perft depth")  # bounded, so the walk's recursion is too
    if game.traits.stochastic:
        raise GameError(f"perft counts a deterministic move tree; {game.name} has chance nodes")


def perft(game: Game[Any, Any], state: Any, depth: int, count_terminal: bool = False,
          progress: Callable[[int], None] | None = None) -> int:
    """Number of positions exactly ``depth`` plies below ``state`` in the legal-move tree.

    Args:
        game: a deterministic game (no chance nodes).
        state: the root position.
        depth: plies, 0-30 (:data:`gameplay.rules.limits.PERFT_DEPTH`); ``perft(game, s, 0) == 1``.
        count_terminal: also count, once, each position above ``depth`` where the game is over (no legal
            move). Default False: such a position contributes 0 (chess and draughts convention, see the module
            docstring).
        progress: called with the positions counted so far after each subtree a game's own count returned
            (see :data:`FAST_PLIES`); it may raise (``KeyboardInterrupt``) to stop the count.

    Returns:
        The number of positions (leaves of the tree cut at ``depth``), a count of nodes.

    Raises:
        GameError: ``depth`` is outside 0-30 (``RangeError``), or the game has chance nodes.
    """
    _check(game, depth)
    fast = cast(FastPerft, game) if game.traits.fast_perft else None
    if fast is not None and depth <= FAST_PLIES:
        return int(fast.perft(state, depth, count_terminal))
    terminal = 1 if count_terminal else 0
    # above the subtrees, the moves the game's own count counts (checkers: its draw rules ignored)
    actions, successor = (game.actions if fast is None else fast.legal_moves), game.successor
    counted = 0

    def count(s: Any, d: int) -> int:
        nonlocal counted
        if fast is not None and d <= FAST_PLIES:
            n = int(fast.perft(s, d, count_terminal))
            counted += n
            if progress is not None:
                progress(counted)
            return n
        moves = actions(s)
        if not moves:
            return terminal
        if d == 1:
            return len(moves)
        return sum(count(successor(s, m), d - 1) for m in moves)

    return 1 if depth == 0 else count(state, depth)


def perft_divide(game: Game[Any, Any], state: Any, depth: int, count_terminal: bool = False,
                 progress: Callable[[int], None] | None = None) -> dict[str, int]:
    """Perft per root move: ``{move text: perft of the position after it at depth - 1}``, in move order.

    The values sum to ``perft(game, state, depth, count_terminal)`` unless the root itself has no legal move
    (then the dict is empty and the total is 0, or 1 with ``count_terminal``).

    Args:
        game: a deterministic game; move texts come from ``game.format_move``.
        state: the root position.
        depth: plies, 1-30.
        count_terminal: as in :func:`perft`.
        progress: as in :func:`perft`, with the positions counted so far under all root moves.

    Returns:
        Move text -> number of positions (nodes) under that move.

    Raises:
        GameError: ``depth`` is outside 1-30, or the game has chance nodes.
    """
    if depth < 1:
        raise GameError(f"perft divide depth must be >= 1, got {depth}")
    _check(game, depth)
    out: dict[str, int] = {}
    done = 0

    def seen(counted: int) -> None:
        if progress is not None:
            progress(done + counted)

    for m in game.actions(state):
        out[game.format_move(state, m)] = n = perft(game, game.successor(state, m), depth - 1, count_terminal, seen)
        done += n
    return out
