"""Weighted static evaluations: ``eval(s) = sum(w_i * f_i(s))`` over named features with editable weights.

Each game registers its features (functions ``f(state, player) -> float`` from ``player``'s point of view) and
named weight presets; ``textbook`` is always the evaluation of the course material (RULES.md, "Evaluation
functions from the course material").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from gameplay.rules.base import GameError

Feature = Callable[[Any, int], float]


GRID = 2.0 ** -20
"""Unit weights are multiples of this (exact binary fractions)."""


def canonical_weights(weights: Mapping[str, float]) -> tuple[dict[str, float], float]:
    """Split weights into exact unit weights and one scale: ``w_i == unit_i * scale`` (to a 2**-20 grid).

    The scale is the smallest non-zero magnitude; the unit weights are the ratios to it, snapped to multiples of
    :data:`GRID`. Summed over integer features they are exact, and scaling every weight by a constant ``c``
    gives the same unit weights and ``c`` times the scale, so an evaluation computed as ``scale * sum(unit_i *
    f_i)`` orders positions identically at every scale: scaling the weights never changes a search's move,
    its nodes or the depth it reaches (issue 10), only the units of its values.

    Returns:
        ``(unit weights of the non-zero weights, scale)``; ``({}, 1.0)`` when every weight is zero.
    """
    nonzero = {k: float(w) for k, w in weights.items() if w}
    if not nonzero:
        return {}, 1.0
    scale = min(abs(w) for w in nonzero.values())
    return {k: round(w / scale / GRID) * GRID for k, w in nonzero.items()}, scale


@dataclass(frozen=True)
class WeightedEvaluation:
    """``sum(w_i * f_i(state, player))`` over the features whose weight is non-zero.

    Args:
        features: name -> feature function (value for ``player``).
        weights: name -> weight; every name must be a feature.

    Raises:
        GameError: a weight names no feature.
    """

    features: Mapping[str, Feature]
    weights: Mapping[str, float]

    def __post_init__(self) -> None:
        unknown = sorted(set(self.weights) - set(self.features))
        if unknown:
            raise GameError(f"unknown evaluation feature(s) {', '.join(unknown)}; "
                            f"expected some of {', '.join(self.features)}")
        unit, scale = canonical_weights(self.weights)
        object.__setattr__(self, "_terms", tuple((self.features[n], w) for n, w in unit.items()))
        object.__setattr__(self, "_scale", scale)

    def __call__(self, state: Any, player: int) -> float:
        total = 0.0
        for f, w in self._terms:  # type: ignore[attr-defined]
            total += w * f(state, player)
        return total * self._scale  # type: ignore[attr-defined,no-any-return]

    def breakdown(self, state: Any, player: int) -> dict[str, tuple[float, float]]:
        """Per feature: (feature value, weighted contribution), for the settings panel and teaching views."""
        return {n: (self.features[n](state, player), self.weights.get(n, 0.0) * self.features[n](state, player))
                for n in self.features}


# ----- tic-tac-toe --------------------------------------------------------------------------------------------
_TTT_COUNTS: dict[tuple[str, int], tuple[tuple[int, int, int], tuple[int, int, int]]] = {}
"""(Board, player) -> :func:`_ttt_counts`: each evaluation reads it three times (``three``, ``two``, ``one``), and a
search meets the same boards again and again (at most 2 * 3**9 entries)."""


def _ttt_counts(state: str, player: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """The player's and the opponent's open lines holding three, two and one of their marks (cached)."""
    key = (state, player)
    got = _TTT_COUNTS.get(key)
    if got is None:
        got = _TTT_COUNTS[key] = _ttt_count_lines(state, player)
    return got


def _ttt_count_lines(state: str, player: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    from gameplay.rules.tictactoe import LINES
    me = "X" if player == 0 else "O"
    mine = [0, 0, 0, 0]
    theirs = [0, 0, 0, 0]
    for a, b, c in LINES:
        cells = state[a] + state[b] + state[c]
        nm = cells.count(me)
        nt = 3 - nm - cells.count(".")
        if nt == 0:
            mine[nm] += 1
        elif nm == 0:
            theirs[nt] += 1
    return (mine[3], mine[2], mine[1]), (theirs[3], theirs[2], theirs[1])


def ttt_three(state: str, player: int) -> float:
    """Open-line difference for three in a line: A - D (Tanimoto's A and D)."""
    m, t = _ttt_counts(state, player)
    return m[0] - t[0]


def ttt_two(state: str, player: int) -> float:
    """Lines holding two of the player's marks and none of the opponent's, minus the same for the opponent (B - E)."""
    m, t = _ttt_counts(state, player)
    return m[1] - t[1]


def ttt_one(state: str, player: int) -> float:
    """Lines holding one of the player's marks and none of the opponent's, minus the same for the opponent (C - F)."""
    m, t = _ttt_counts(state, player)
    return m[2] - t[2]


def ttt_centre(state: str, player: int) -> float:
    """+1 if the player holds the centre cell, -1 if the opponent does."""
    c = state[4]
    if c == ".":
        return 0.0
    return 1.0 if (c == "X") == (player == 0) else -1.0


TICTACTOE_FEATURES: dict[str, Feature] = {
    "three": ttt_three, "two": ttt_two, "one": ttt_one, "centre": ttt_centre,
}
TICTACTOE_WEIGHTS: dict[str, dict[str, float]] = {
    # f = 100*A + 10*B + C - (100*D + 10*E + F): S. Tanimoto, CSE 415 (course material, seeds/003).
    "textbook": {"three": 100.0, "two": 10.0, "one": 1.0},
    "default": {"three": 100.0, "two": 10.0, "one": 1.0, "centre": 3.0},
}
