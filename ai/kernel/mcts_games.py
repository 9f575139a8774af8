"""Compiled rules for Monte Carlo tree search (:class:`ai.kernel.mcts_tree.Rules`) on integer states: tic-tac-toe and
Connect Four as bitboards, Pig as one packed integer; :func:`fast_rules` picks them for a game.

Each keeps the game's moves (cells 0..8, columns 1..7, ``"roll"``/``"hold"`` and die faces), gives them in the game's
``actions`` order and plays its random playout as one native loop that draws its numbers as the generic code does
(:func:`ai.kernel.mcts_tree.randbelow` over the moves, ``random.Random.choices``' one ``random()`` for a die), so
a search over these rules builds the same tree, for the same seed, as one over the game object
(``tests/test_mcts_fast.py``). Only a node's ``state`` differs: the rules' integer (or pair of bitboards), which
:meth:`Rules.unpack` turns back into the game's.

Checkers needs none here: its rules are compiled already and run through :class:`ai.kernel.mcts_tree.GameRules`.

No pygame here; standard library and ``gameplay.rules`` only.
"""

from __future__ import annotations

import random
from itertools import accumulate
from typing import Any, Final

from ai.kernel.mcts_tree import K_CHANCE, K_DECISION, K_TERMINAL, MAX_PLAYOUT, Rules, randbelow
from gameplay.rules.base import Game
from gameplay.rules.bits import popcount
from gameplay.rules.connect4 import Connect4, Connect4State, has_four
from gameplay.rules.pig import HOLD, ROLL, Pig, PigState
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


# -- Pig ------------------------------------------------------------------------------------------------------------
_PIG_BITS: Final = 20
"""Bits of each number in a packed Pig state: ``s1 | s2 << 20 | turn << 40 | player << 60 | pending << 61``."""
_PIG_MASK: Final = (1 << _PIG_BITS) - 1


class PigRules(Rules):
    """Pig on packed integers (:data:`_PIG_BITS`); moves are the game's ``"roll"``/``"hold"`` and die faces.

    Args:
        target: the game's target.
        faces: the die's faces.

    Raises:
        ValueError: a target or face count whose totals do not fit the packing (scores below ``2**20``).
    """

    def __init__(self, target: int, faces: int) -> None:
        super().__init__()
        if target + faces >= _PIG_MASK:
            raise ValueError(f"pig target {target} with {faces} faces does not fit the packed state")
        self.target = target
        self.faces = faces
        p = 1.0 / faces
        self.cum: list[float] = list(accumulate([p] * faces))
        """Cumulative probabilities, summed as ``random.Random.choices`` sums the game's weights."""
        self.total = self.cum[-1] + 0.0

    def pack(self, state: Any) -> Any:
        st: PigState = state
        return _pig(st.s1, st.s2, st.turn, st.player, 1 if st.pending else 0)

    def unpack(self, state: Any) -> Any:
        s: int = state
        return PigState(s & _PIG_MASK, (s >> 20) & _PIG_MASK, (s >> 40) & _PIG_MASK, (s >> 60) & 1,
                        bool((s >> 61) & 1))

    def kind(self, state: Any) -> int:
        s: int = state
        if (s & _PIG_MASK) >= self.target or ((s >> 20) & _PIG_MASK) >= self.target:
            return K_TERMINAL
        return K_CHANCE if (s >> 61) & 1 else K_DECISION

    def to_move(self, state: Any) -> int:
        s: int = state
        return (s >> 60) & 1

    def actions(self, state: Any) -> list[Any]:
        s: int = state
        return [ROLL, HOLD] if (s >> 40) & _PIG_MASK else [ROLL]

    def successor(self, state: Any, move: Any) -> Any:
        s: int = state
        s1, s2, t, p = s & _PIG_MASK, (s >> 20) & _PIG_MASK, (s >> 40) & _PIG_MASK, (s >> 60) & 1
        if (s >> 61) & 1:
            face: int = move
            return self._face(s1, s2, t, p, face)
        if move == ROLL:
            return s | (1 << 61)
        if p == 0:
            return _pig(s1 + t, s2, 0, 1, 0)
        return _pig(s1, s2 + t, 0, 0, 0)

    def _face(self, s1: int, s2: int, t: int, p: int, face: int) -> int:
        if face == 1:
            return _pig(s1, s2, 0, 1 - p, 0)
        t += face
        if p == 0:
            if s1 + t >= self.target:
                return _pig(s1 + t, s2, 0, 0, 0)
        elif s2 + t >= self.target:
            return _pig(s1, s2 + t, 0, 1, 0)
        return _pig(s1, s2, t, p, 0)

    def draw(self, state: Any, rng: random.Random) -> Any:
        return self._draw(rng)

    def _draw(self, rng: random.Random) -> int:
        """A face 1..faces: ``bisect(cum, random() * total, 0, faces - 1)`` as ``random.Random.choices`` draws it."""
        x = rng.random() * self.total
        cum = self.cum
        hi = self.faces - 1
        i = 0
        while i < hi and cum[i] <= x:
            i += 1
        return i + 1

    def reward(self, state: Any, player: int) -> float:
        s: int = state
        if (s & _PIG_MASK) >= self.target:
            return 1.0 if player == 0 else -1.0
        if ((s >> 20) & _PIG_MASK) >= self.target:
            return 1.0 if player == 1 else -1.0
        return 0.0

    def playout(self, state: Any, rng: random.Random, root_player: int) -> float:
        s: int = state
        s1, s2, t, p = s & _PIG_MASK, (s >> 20) & _PIG_MASK, (s >> 40) & _PIG_MASK, (s >> 60) & 1
        pending = (s >> 61) & 1 == 1
        target = self.target
        plies = 0
        while s1 < target and s2 < target:
            if plies >= MAX_PLAYOUT:
                self.playout_plies = plies
                self.playout_end = "cap"
                self.playout_state = _pig(s1, s2, t, p, 1 if pending else 0)
                return 0.0
            if pending:
                face = self._draw(rng)
                pending = False
                if face == 1:
                    t = 0
                    p = 1 - p
                else:
                    t += face
                    if p == 0:
                        if s1 + t >= target:
                            s1 += t
                            t = 0
                    elif s2 + t >= target:
                        s2 += t
                        t = 0
            elif randbelow(rng, 2 if t > 0 else 1) == 0:  # roll (at turn total 0 the only move: a draw all the
                pending = True  # same, as the generic playout draws among one move)
            else:  # hold
                if p == 0:
                    s1 += t
                else:
                    s2 += t
                t = 0
                p = 1 - p
            plies += 1
        self.playout_plies = plies
        self.playout_end = "terminal"
        self.playout_state = _pig(s1, s2, t, p, 0)
        if s1 >= target:
            return 1.0 if root_player == 0 else -1.0
        return 1.0 if root_player == 1 else -1.0


def _pig(s1: int, s2: int, t: int, p: int, pending: int) -> int:
    return s1 | (s2 << 20) | (t << 40) | (p << 60) | (pending << 61)


def fast_rules(game: Game[Any, Any]) -> Rules | None:
    """Compiled rules for ``game`` (tic-tac-toe, Connect Four, Pig of a target that fits), or ``None``: the search
    then runs over :class:`ai.kernel.mcts_tree.GameRules`."""
    if type(game) is TicTacToe:
        return TicTacToeRules()
    if type(game) is Connect4:
        return Connect4Rules()
    if type(game) is Pig:
        pig: Pig = game
        if pig.target + pig.faces < _PIG_MASK:
            return PigRules(pig.target, pig.faces)
    return None


__all__ = ["Connect4Rules", "PigRules", "TicTacToeRules", "fast_rules"]
