"""Tic-tac-toe for Monte Carlo tree search (:class:`ai.kernel.mcts_tree.Rules`) on two 9-bit boards.

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
from gameplay.rules.tictactoe import LINES, TicTacToe

# -- tic-tac-toe ----------------------------------------------------------------------------------------------------
_TTT_LINES: Final = tuple((1 << a) | (1 << b) | (1 << c) for a, b, c in LINES)
"""The eight lines as 9-bit masks (bit ``i`` is cell ``i``)."""
_TTT_FULL: Final = 0x1FF


def _ttt_line(stones: int) -> bool:
    for line in _TTT_LINES:
        if stones & line == line:
            return True
    return False


class TicTacToeRules(Rules):
    """Tic-tac-toe on two 9-bit boards: a state is ``x | o << 9`` (bit ``i`` of each is cell ``i``)."""

    def pack(self, state: Any) -> Any:
        board: str = state
        x = o = 0
        for i in range(9):
            if board[i] == "X":
                x |= 1 << i
            elif board[i] == "O":
                o |= 1 << i
        return x | (o << 9)

    def unpack(self, state: Any) -> Any:
        s: int = state
        return "".join("X" if s >> i & 1 else ("O" if s >> (i + 9) & 1 else ".") for i in range(9))

    def kind(self, state: Any) -> int:
        s: int = state
        x, o = s & _TTT_FULL, s >> 9
        if (x | o) == _TTT_FULL or _ttt_line(x) or _ttt_line(o):
            return K_TERMINAL
        return K_DECISION

    def to_move(self, state: Any) -> int:
        s: int = state
        return 0 if popcount(s & _TTT_FULL) == popcount(s >> 9) else 1

    def actions(self, state: Any) -> list[Any]:
        s: int = state
        taken = (s & _TTT_FULL) | (s >> 9)
        return [i for i in range(9) if not taken >> i & 1]

    def successor(self, state: Any, move: Any) -> Any:
        s: int = state
        m: int = move
        if popcount(s & _TTT_FULL) == popcount(s >> 9):
            return s | (1 << m)
        return s | (1 << (m + 9))

    def draw(self, state: Any, rng: random.Random) -> Any:
        raise ValueError("tic-tac-toe has no chance nodes")

    def reward(self, state: Any, player: int) -> float:
        s: int = state
        if _ttt_line(s & _TTT_FULL):
            return 1.0 if player == 0 else -1.0
        if _ttt_line(s >> 9):
            return 1.0 if player == 1 else -1.0
        return 0.0

    def playout(self, state: Any, rng: random.Random, root_player: int) -> float:
        s: int = state
        x, o = s & _TTT_FULL, s >> 9
        plies = 0
        winner = -1
        if _ttt_line(x):
            winner = 0
        elif _ttt_line(o):
            winner = 1
        x_to_move = popcount(x) == popcount(o)
        while winner < 0:
            empty = _TTT_FULL & ~(x | o)
            if empty == 0:
                break
            k = randbelow(rng, popcount(empty))
            while k > 0:  # the k-th empty cell in ascending order
                empty &= empty - 1
                k -= 1
            cell = empty & -empty
            if x_to_move:
                x |= cell
                if _ttt_line(x):
                    winner = 0
            else:
                o |= cell
                if _ttt_line(o):
                    winner = 1
            x_to_move = not x_to_move
            plies += 1
        self.playout_plies = plies
        self.playout_end = "terminal"
        self.playout_state = x | (o << 9)
        if winner < 0:
            return 0.0
        return 1.0 if winner == root_player else -1.0


def mcts_rules(game: Game[Any, Any]) -> Rules | None:
    """:class:`TicTacToeRules` for the tic-tac-toe game, or ``None`` (another game: the search runs over the game
    object, :class:`ai.kernel.mcts_tree.GameRules`)."""
    return TicTacToeRules() if type(game) is TicTacToe else None


__all__ = ["TicTacToeRules", "mcts_rules"]
