"""Pig for Monte Carlo tree search (:class:`ai.kernel.mcts_tree.Rules`) on one packed integer.

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
from itertools import accumulate
from typing import Any, Final

from ai.kernel.mcts_tree import K_CHANCE, K_DECISION, K_TERMINAL, MAX_PLAYOUT, Rules, randbelow
from gameplay.rules.base import Game
from gameplay.rules.pig import HOLD, ROLL, Pig, PigState

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


def mcts_rules(game: Game[Any, Any]) -> Rules | None:
    """:class:`PigRules` for a Pig game whose scores fit the packed state (target + faces below 2**20), or ``None``
    (a larger target, or another game: the search runs over the game object, :class:`ai.kernel.mcts_tree.GameRules`)."""
    if type(game) is Pig:
        pig: Pig = game
        if pig.target + pig.faces < _PIG_MASK:
            return PigRules(pig.target, pig.faces)
    return None


__all__ = ["PigRules", "mcts_rules"]
