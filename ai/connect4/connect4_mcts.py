"""Connect Four for Monte Carlo tree search (:class:`ai.kernel.mcts_tree.Rules`) on the game's own bitboards.

Its random playouts run as one native loop that draws its numbers as the generic code does
(:func:`ai.kernel.mcts_tree.randbelow` over the moves, ``random.Random.choices``' one ``random()`` for a die), so a
search over these rules builds the same tree, for the same seed, as one over the game object
(``tests/test_mcts_fast.py``). Only a node's ``state`` differs: the rules' integer, which :meth:`Rules.unpack`
turns back into the game's. The game's agents hand :func:`mcts_rules` to the search (``AgentParts.mcts_rules``);
compiled with the game's own modules (``GameInfo.compiled``).

No pygame here; standard library, ``gameplay.rules`` and the kernel's MCTS tree only.
"""

from __future__ import annotations

import random
from typing import Any, Final

from ai.kernel.mcts_tree import K_DECISION, K_TERMINAL, Rules, randbelow
from gameplay.rules.base import Game
from gameplay.rules.bits import popcount
from gameplay.rules.connect4 import Connect4, Connect4State, has_four

# -- Connect Four ---------------------------------------------------------------------------------------------------
_H1: Final = 7
"""Bits per column of the bitboards (six cells and a sentinel), as :mod:`gameplay.rules.connect4` keeps them."""
_C4_FULL: Final = 42
_C4_TOP: Final = tuple(1 << (_H1 * c + 5) for c in range(7))
_C4_COLUMN: Final = tuple(0x3F << (_H1 * c) for c in range(7))
_C4_BOTTOM: Final = tuple(1 << (_H1 * c) for c in range(7))


class Connect4Rules(Rules):
    """Connect Four on the game's own bitboards: a state is ``(first player's stones, all stones)``."""

    def pack(self, state: Any) -> Any:
        st: Connect4State = state
        return (st.first, st.mask)

    def unpack(self, state: Any) -> Any:
        first, mask = state
        return Connect4State(first, mask, _c4_moves(first, mask))

    def kind(self, state: Any) -> int:
        first: int = state[0]
        mask: int = state[1]
        n = popcount(mask)
        if n == 0:
            return K_DECISION
        last = first if n % 2 == 1 else first ^ mask
        return K_TERMINAL if n == _C4_FULL or has_four(last) else K_DECISION

    def to_move(self, state: Any) -> int:
        mask: int = state[1]
        return popcount(mask) % 2

    def actions(self, state: Any) -> list[Any]:
        mask: int = state[1]
        return [c + 1 for c in range(7) if not mask & _C4_TOP[c]]

    def successor(self, state: Any, move: Any) -> Any:
        first: int = state[0]
        mask: int = state[1]
        c: int = move
        drop = ((mask + _C4_BOTTOM[c - 1]) & _C4_COLUMN[c - 1]) & ~mask
        if popcount(mask) % 2 == 0:
            first |= drop
        return (first, mask | drop)

    def draw(self, state: Any, rng: random.Random) -> Any:
        raise ValueError("Connect Four has no chance nodes")

    def reward(self, state: Any, player: int) -> float:
        first: int = state[0]
        mask: int = state[1]
        if has_four(first):
            return 1.0 if player == 0 else -1.0
        if has_four(first ^ mask):
            return 1.0 if player == 1 else -1.0
        return 0.0

    def playout(self, state: Any, rng: random.Random, root_player: int) -> float:
        first: int = state[0]
        mask: int = state[1]
        n = popcount(mask)
        plies = 0
        winner = -1
        if n > 0:
            last = first if n % 2 == 1 else first ^ mask
            if has_four(last):
                winner = 1 - n % 2
        while winner < 0 and n < _C4_FULL:
            free = 0
            for c in range(7):
                if not mask & _C4_TOP[c]:
                    free += 1
            k = randbelow(rng, free)
            col = 0
            for c in range(7):
                if not mask & _C4_TOP[c]:
                    if k == 0:
                        col = c
                        break
                    k -= 1
            drop = ((mask + _C4_BOTTOM[col]) & _C4_COLUMN[col]) & ~mask
            mask |= drop
            if n % 2 == 0:
                first |= drop
                if has_four(first):
                    winner = 0
            elif has_four(first ^ mask):
                winner = 1
            n += 1
            plies += 1
        self.playout_plies = plies
        self.playout_end = "terminal"
        self.playout_state = (first, mask)
        if winner < 0:
            return 0.0
        return 1.0 if winner == root_player else -1.0


def _c4_moves(first: int, mask: int) -> str:
    """A column sequence that reaches the board ``(first, mask)`` without an earlier four in a row (the first
    player's stones at even plies), found by a depth-first search.

    Raises:
        ValueError: no order of the stones reaches it (never for a board the rules built).
    """
    cols: list[list[int]] = []
    for c in range(7):
        owners: list[int] = []
        for r in range(6):
            b = 1 << (_H1 * c + r)
            if mask & b:
                owners.append(0 if first & b else 1)
        cols.append(owners)
    total = popcount(mask)
    heights = [0] * 7
    out: list[int] = []

    def place(ply: int, mine: int, theirs: int) -> bool:
        if ply == total:
            return True
        if ply and has_four(theirs):  # the game ended before this board
            return False
        for c in range(7):
            h = heights[c]
            if h < len(cols[c]) and cols[c][h] == ply % 2:
                heights[c] = h + 1
                out.append(c + 1)
                if place(ply + 1, theirs, mine | (1 << (_H1 * c + h))):
                    return True
                out.pop()
                heights[c] = h
        return False

    if not place(0, 0, 0):
        raise ValueError("no move order reaches this Connect Four board")
    return "".join(str(c) for c in out)


def mcts_rules(game: Game[Any, Any]) -> Rules | None:
    """:class:`Connect4Rules` for the Connect Four game, or ``None`` (another game: the search runs over the game
    object, :class:`ai.kernel.mcts_tree.GameRules`)."""
    return Connect4Rules() if type(game) is Connect4 else None


__all__ = ["Connect4Rules", "mcts_rules"]
