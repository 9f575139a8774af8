"""The typical faults of a student's search, simulated on an explicit tree, so ``main.py check`` can name the one a
student's search behaves like (:func:`diagnose`).

Each simulation is the textbook search (AIMA's, children in the order given) with one mistake, and reports what
the instrumented game would observe: the root action it picks and the leaves it evaluates, in order. A student's
search whose observations equal a simulation's (and differ from the reference) is said to make that mistake.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from gameplay.rules.trees import TreeNode

INF = math.inf


@dataclass(frozen=True)
class Fault:
    """One typical mistake."""

    algorithm: str
    description: str
    carry_alpha: bool = True
    """Alpha-beta: alpha carried from one root child to the next (False: each searched with alpha = -inf)."""
    prune: str = "ge"
    swapped: bool = False
    """MIN and MAX swapped below the root."""
    chance: str = "weighted"
    """Expectimax: ``weighted`` (right), ``mean`` (no probabilities) or ``double`` (weighted, divided again)."""


FAULTS: tuple[Fault, ...] = (
    Fault("alphabeta", "alpha is not carried across the root's children (each is searched with alpha = -inf)",
          carry_alpha=False),
    Fault("alphabeta", "it prunes only when alpha > beta; the course prunes when alpha >= beta", prune="gt"),
    Fault("alphabeta", "it prunes when alpha >= beta; this exercise asks for alpha > beta", prune="ge"),
    Fault("alphabeta", "MIN and MAX are swapped below the root", swapped=True),
    Fault("minimax", "MIN and MAX are swapped below the root", swapped=True),
    Fault("expectimax", "MIN and MAX are swapped below the root", swapped=True),
    Fault("expectimax", "it averages the outcomes without their probabilities", chance="mean"),
    Fault("expectimax", "it divides the probability-weighted sum by the number of outcomes again",
          chance="double"),
)


def simulate(root: TreeNode, algorithm: str, fault: Fault) -> tuple[int, float, list[tuple[int, ...]]]:
    """``(root action, root value, leaves evaluated in order)`` of ``algorithm`` with ``fault``."""
    leaves: list[tuple[int, ...]] = []
    pruning = algorithm == "alphabeta"

    def cut(a: float, b: float) -> bool:
        return a > b if fault.prune == "gt" else a >= b

    def value(n: TreeNode, path: tuple[int, ...], a: float, b: float) -> float:
        if n.value is not None:
            leaves.append(path)
            return n.value
        if n.probs is not None:
            vals = [value(c, path + (i,), -INF, INF) for i, c in enumerate(n.children)]
            if fault.chance == "mean":
                return sum(vals) / len(vals)
            total = sum(p * v for p, v in zip(n.probs, vals))
            return total / len(vals) if fault.chance == "double" else total
        maximize = (n.player == 0) != (fault.swapped and bool(path))
        v = -INF if maximize else INF
        for i, c in enumerate(n.children):
            x = value(c, path + (i,), a, b)
            if maximize:
                v = max(v, x)
                a = max(a, v)
            else:
                v = min(v, x)
                b = min(b, v)
            if pruning and cut(a, b):
                break
        return v

    best, best_v, alpha = -1, -INF, -INF
    for i, c in enumerate(root.children):
        x = value(c, (i,), alpha if fault.carry_alpha else -INF, INF)
        if x > best_v:
            best, best_v = i, x
            alpha = max(alpha, x)
    return best, best_v, leaves


def diagnose(root: TreeNode, algorithm: str, prune: str, move: int,
             leaves: list[tuple[int, ...]]) -> str | None:
    """The typical faults whose simulations observe exactly ``move`` and ``leaves``, said as one phrase (``it
    averages ..., or it divides ...``), or ``None`` when none does."""
    found = []
    for f in FAULTS:
        if f.algorithm != algorithm or (algorithm == "alphabeta" and f.carry_alpha and not f.swapped
                                        and f.prune == prune):
            continue
        if not f.carry_alpha or f.swapped:
            f = Fault(f.algorithm, f.description, f.carry_alpha, prune, f.swapped, f.chance)
        best, _, seen = simulate(root, algorithm, f)
        if seen == leaves and move == best:
            found.append(f.description)
    return "; or ".join(found) if found else None
