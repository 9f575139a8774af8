"""The typical faults of a student's search, simulated on an explicit tree, so ``main.py check`` can name the one a
student's search makes (:func:`diagnose`).

Each simulation (:func:`simulate`) is the textbook search (AIMA's, children in the order given) with one mistake
(:data:`FAULTS`), and reports what the instrumented game would observe: the leaves it evaluates, in order, and what
the function returns. A fault is named only when its simulation observes exactly what the student's search did
(:class:`Observation`) on **every** case of that function the search finished, and differs from the right search on
at least one of them: evidence that tells the faults apart (the built-in cases tell every two of them apart: the
tests check it), never a guess from one case. When no fault matches every case, none is named.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ai.grader.exercise_cases import Case, cut_off
from gameplay.rules.trees import TreeNode

INF = math.inf
Path = tuple[int, ...]


@dataclass(frozen=True)
class Fault:
    """One typical mistake (the fields say how its simulation differs from the right search)."""

    key: str
    """A short name (``bounds-reset``), the same for every algorithm that has the mistake (the JSON's
    ``causes``)."""
    algorithm: str
    description: str
    """What the student's search does, said to the student (``alpha and beta are not passed down ...``)."""
    carry_alpha: bool = True
    """Alpha-beta: alpha carried from one root child to the next (False: each searched with alpha = -inf)."""
    pass_bounds: bool = True
    """Alpha-beta: a node's alpha and beta passed down to its children (False: each recursive call starts again at
    alpha = -inf, beta = +inf)."""
    prune: str | None = None
    """Alpha-beta: the cut-off rule it prunes by (``ge``: alpha >= beta, ``gt``: alpha > beta); ``None``: the
    case's own rule."""
    swapped: bool = False
    """MIN and MAX swapped below the root."""
    chance: str = "weighted"
    """Expectimax: ``weighted`` (right), ``mean`` (no probabilities) or ``double`` (weighted, divided again)."""
    answer: str = "action"
    """What the function returns: ``action`` (right: the action, or ``(action, value)``), ``value`` (the root's
    value instead of the action) or ``value, action`` (the pair the wrong way round)."""
    deeper: int = 0
    """A cut-off search: plies it searches past ``d`` (1: it counts the root's children at depth 0)."""


def _each(algorithms: Sequence[str], key: str, description: str, **fields: Any) -> tuple[Fault, ...]:
    return tuple(Fault(key, a, description, **fields) for a in algorithms)


ALL = ("minimax", "alphabeta", "expectimax")
FAULTS: tuple[Fault, ...] = (
    Fault("bounds-reset", "alphabeta", "alpha and beta are not passed down: each recursive call starts again at "
          "alpha = -inf, beta = +inf", pass_bounds=False),
    Fault("never-prunes", "alphabeta", "it never prunes: it evaluates every leaf, as minimax does (are alpha and "
          "beta passed down to the recursive calls, and the root's alpha carried from one child to the next?)",
          pass_bounds=False, carry_alpha=False),
    Fault("alpha-not-carried", "alphabeta", "alpha is not carried across the root's children (each is searched "
          "with alpha = -inf)", carry_alpha=False),
    Fault("strict-cutoff", "alphabeta", "it prunes only when alpha > beta; the course prunes when alpha >= beta",
          prune="gt"),
    Fault("non-strict-cutoff", "alphabeta", "it prunes when alpha >= beta; this exercise asks for alpha > beta",
          prune="ge"),
    *_each(ALL, "swapped", "MIN and MAX are swapped below the root", swapped=True),
    Fault("unweighted", "expectimax", "it averages the outcomes without their probabilities", chance="mean"),
    Fault("divided-again", "expectimax", "it divides the probability-weighted sum by the number of outcomes "
          "again", chance="double"),
    *_each(ALL, "returns-value", "it returns the root's value, not the action", answer="value"),
    *_each(ALL, "value-action", "it returns (value, action), the wrong way round: return "
           "(action, value), or the action alone", answer="value, action"),
    Fault("depth-from-0", "alphabeta", "it counts the root's children at depth 0, so it searches a ply deeper "
          "than d (aima-python's cutoff_test(state, depth) counts them at depth 1)", deeper=1),
)
"""Every mistake :func:`diagnose` can name, by algorithm."""


@dataclass(frozen=True)
class Simulated:
    """What a search (right or with a fault) does on a tree."""

    best: int
    """The root's child it picks (the first best)."""
    value: float
    """The root's value it computes."""
    leaves: tuple[Path, ...]
    """The leaves it evaluates, in order (paths of child indices)."""


@dataclass(frozen=True)
class Observation:
    """What the student's search did on one case it finished: the leaves it evaluated, in order, and its answer
    (:func:`ai.grader.exercise_game.describe_answer`'s description)."""

    leaves: tuple[Path, ...]
    answer: tuple[Any, ...]


def simulate(root: TreeNode, algorithm: str, fault: Fault | None = None, prune: str = "ge") -> Simulated:
    """``algorithm`` (``minimax``, ``alphabeta``, ``expectimax``) on ``root`` with ``fault`` (``None``: the right
    search), pruning by ``prune`` unless the fault prunes by its own rule."""
    f = fault if fault is not None else Fault("", algorithm, "")
    leaves: list[Path] = []
    pruning = algorithm == "alphabeta"
    rule = f.prune or prune

    def cut(a: float, b: float) -> bool:
        return a > b if rule == "gt" else a >= b

    def value(n: TreeNode, path: Path, a: float, b: float) -> float:
        if n.value is not None:
            leaves.append(path)
            return n.value
        if n.probs is not None:
            vals = [value(c, path + (i,), -INF, INF) for i, c in enumerate(n.children)]
            if f.chance == "mean":
                return sum(vals) / len(vals)
            total = sum(p * v for p, v in zip(n.probs, vals))
            return total / len(vals) if f.chance == "double" else total
        maximize = (n.player == 0) != (f.swapped and bool(path))
        v = -INF if maximize else INF
        for i, c in enumerate(n.children):
            x = value(c, path + (i,), a, b) if f.pass_bounds else value(c, path + (i,), -INF, INF)
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
        x = value(c, (i,), alpha if f.carry_alpha else -INF, INF)
        if x > best_v:
            best, best_v = i, x
            alpha = max(alpha, x)
    return Simulated(best, best_v, tuple(leaves))


def _close(x: float | None, y: float) -> bool:
    return x is not None and math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9)


def answers_as(fault: Fault | None, sim: Simulated, answer: tuple[Any, ...]) -> bool:
    """Whether ``answer`` is what a function with ``fault`` (``None``: no fault) returns when its search does
    ``sim``."""
    mode = fault.answer if fault is not None else "action"
    kind = answer[0]
    if mode == "action":
        if kind == "action":
            return bool(answer[1] == sim.best)
        if kind == "pair":
            (i, _), (_, v) = answer[1], answer[2]
            return i == sim.best and _close(v, sim.value)
        return False
    if mode == "value":
        return kind in ("action", "number") and _close(answer[2] if kind == "action" else answer[1], sim.value)
    if kind == "pair":  # "value, action"
        (_, v), (i, _) = answer[1], answer[2]
        return i == sim.best and _close(v, sim.value)
    return False


def tree_of(case: Case, fault: Fault | None) -> TreeNode:
    """The tree the search with ``fault`` sees on ``case``: the case's, or for a cut-off search that searches
    deeper than ``d``, the whole tree cut off that much deeper."""
    if fault is not None and fault.deeper and case.full is not None and case.depth is not None:
        return cut_off(case.full, case.depth + fault.deeper)
    return case.root


def observe(case: Case, fault: Fault | None) -> Observation:
    """What the instrumented game sees from the search with ``fault`` (``None``: the right one) on ``case``:
    the leaves it evaluates and what it returns (the action alone, the value, or (value, action))."""
    sim = simulate(tree_of(case, fault), case.algorithm, fault, case.prune)
    mode = fault.answer if fault is not None else "action"
    answer: tuple[Any, ...] = (("action", sim.best, None) if mode == "action" else ("number", sim.value)
                               if mode == "value" else ("pair", (None, sim.value), (sim.best, None), ""))
    return Observation(sim.leaves, answer)


def matches(fault: Fault | None, case: Case, seen: Observation) -> bool:
    """Whether the search with ``fault`` (``None``: the right one) observes exactly ``seen`` on ``case``."""
    sim = simulate(tree_of(case, fault), case.algorithm, fault, case.prune)
    return sim.leaves == seen.leaves and answers_as(fault, sim, seen.answer)


def candidates(algorithm: str, prune: str, cutoff: bool = False) -> list[Fault]:
    """The faults that can be told on ``algorithm``'s cases graded by ``prune``: its own, without the cut-off
    rule the cases are graded by (pruning at ``>=`` is no mistake where ``>=`` is asked), and the depth's only for
    a ``cutoff`` search."""
    return [f for f in FAULTS if f.algorithm == algorithm and (f.prune is None or f.prune != prune)
            and (cutoff or not f.deeper)]


def diagnose(cases: Sequence[tuple[Case, Observation | None]]) -> list[Fault]:
    """The faults whose simulations observe what the student's search did on every case it finished.

    Args:
        cases: one function's cases, each with what the student's search did (:class:`Observation`), or ``None``
            for a case it did not finish (it crashed, ran out of time, broke the game's contract): that case is
            left out of the evidence.

    Returns:
        The faults (of :func:`candidates`) that match every finished case, when at least one finished case differs
        from the right search; else ``[]`` (all agree with the right search, none finished, or no fault matches
        them all).
    """
    seen = [(case, obs) for case, obs in cases if obs is not None]
    if not seen or all(matches(None, case, obs) for case, obs in seen):
        return []
    first = seen[0][0]
    cutoff = any(case.depth is not None for case, _ in seen)
    return [f for f in candidates(first.algorithm, first.prune, cutoff)
            if all(matches(f, case, obs) for case, obs in seen)]
