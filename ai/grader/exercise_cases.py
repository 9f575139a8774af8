"""The graded cases of ``main.py check`` (:mod:`ai.grader.exercise`): which trees and positions each algorithm is run
on.

Per algorithm, in this order:

* ``minimax`` and ``alphabeta``: the course material's worked trees (the Tree Lab presets,
  :data:`gameplay.rules.trees.TEXTBOOK_TREES`), a tie exactly at a cut-off, :data:`RANDOM_TREES` seeded random
  trees (branching 2 to 4, depth 2 to 4, leaf values 0 to 9 so ties are common, now and then a leaf above the
  deepest level), then small game positions a few plies from the end, each searched to the end: those of every
  registered game's agents' parts (:attr:`ai.agents.game_parts.AgentParts.exercise_positions`);
* ``expectimax``: the course's chance node (``1/2*8 + 1/3*24 + 1/6*(-12) = 10``) offered against a sure 9, and
  :data:`RANDOM_CHANCE_TREES` seeded random trees of MAX, chance and MIN nodes with uneven probabilities.

A teacher's own trees (``check --trees DIR``: every ``*.json`` file in the folder, in name order, each a tree in
the Tree Lab's format) are added to every algorithm they suit: trees without chance nodes to ``minimax`` and
``alphabeta``, trees with them to ``expectimax``.

The student's functions (:data:`FUNCTIONS`): the course's names (``minimax_decision`` ...) and every name
aima-python's ``games.py`` has used for the same searches (``minmax_decision``, ``alpha_beta_search``,
``alphabeta_search``, ``expect_minmax``, ``expectiminimax``), each called ``f(state, game)``; and aima-python's
depth-limited alpha-beta, ``alpha_beta_cutoff_search(state, game, d, cutoff_test, eval_fn)`` (or
``alphabeta_cutoff_search``), graded on alpha-beta's cases with ``d`` the tree's height (nothing cut off) and on
:data:`CUTOFF_CASES` cut off above the leaves, where the reference searches the tree cut off as aima-python's
``cutoff_test(state, depth)`` (``depth > d``; the root's children are at depth 1) would: each node cut off is a leaf
worth its :func:`evaluation`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from gameplay.rules.base import GameError, quoted, quoted_path
from gameplay.rules.trees import TEXTBOOK_TREES, TreeNode, TreeSpec, parse_tree, tree_to_spec

ALGORITHMS = ("minimax", "alphabeta", "expectimax")
"""The algorithms ``check`` grades, in the order it runs them."""
FUNCTION_OF = {"minimax": "minimax_decision", "alphabeta": "alphabeta_decision",
               "expectimax": "expectimax_decision"}
"""Algorithm -> the course's name of the function an exercise file defines for it."""


@dataclass(frozen=True)
class Function:
    """A function an exercise file may define."""

    name: str
    algorithm: str
    """``minimax``, ``alphabeta`` or ``expectimax``: what it is graded as."""
    cutoff: bool = False
    """Called ``f(state, game, d, cutoff_test, eval_fn)`` (aima-python's ``alpha_beta_cutoff_search``), else
    ``f(state, game)``."""

    @property
    def arguments(self) -> str:
        """Its arguments as the messages write them."""
        return "(state, game, d, cutoff_test, eval_fn)" if self.cutoff else "(state, game)"


FUNCTIONS: dict[str, Function] = {f.name: f for f in (
    Function("minimax_decision", "minimax"),
    Function("minmax_decision", "minimax"),
    Function("alphabeta_decision", "alphabeta"),
    Function("alpha_beta_search", "alphabeta"),
    Function("alphabeta_search", "alphabeta"),
    Function("alpha_beta_cutoff_search", "alphabeta", cutoff=True),
    Function("alphabeta_cutoff_search", "alphabeta", cutoff=True),
    Function("expectimax_decision", "expectimax"),
    Function("expect_minmax", "expectimax"),
    Function("expectiminimax", "expectimax"),
)}
"""Every function ``check`` grades, by name, in the order it runs them: the course's names, then aima-python's
(``games.py`` today: ``minmax_decision``, ``alpha_beta_search``, ``alpha_beta_cutoff_search``, ``expect_minmax``;
before 2019: ``minimax_decision``, ``alphabeta_search``, ``alphabeta_cutoff_search``, ``expectiminimax``)."""
CUTOFF_CASES: tuple[tuple[str, str | int, int], ...] = (
    ("AIMA figure 5.2 cut off at d = 0", "AIMA figure 5.2 (3 / 12 / 8)", 0),
    ("Two-level prune cut off at d = 1", "Two-level prune (value 3)", 1),
    ("random tree 1 cut off at d = 1", 0, 1),
    ("random tree 2 cut off at d = 2", 1, 2),
)
"""The depth-limited cases of a cut-off search: (name, the tree: a Tree Lab preset's name or the index of a
seeded random tree of depth 4, ``d``)."""
RANDOM_TREES = 8
"""Seeded random trees per deterministic algorithm."""
RANDOM_CHANCE_TREES = 6
"""Seeded random trees with chance nodes for expectimax."""
SEED = 2026
"""The seed of the random trees (the same cases every run)."""
TIE_TREE = "[[3,5],[3,9]]"
"""A tie exactly at a cut-off: with ``alpha >= beta`` the 9 is pruned, with ``alpha > beta`` it is evaluated."""


@dataclass(frozen=True)
class Case:
    """One graded case."""

    name: str
    algorithm: str
    """``minimax``, ``alphabeta`` or ``expectimax``."""
    root: TreeNode
    """The tree searched (a game position expanded to the end, leaves its utilities for the player to move)."""
    game: str | None = None
    """The game of a position case (its command-line name), else ``None`` (an explicit tree)."""
    position: str | None = None
    """The position of a game case, in the game's notation."""
    prune: str = "ge"
    """The cut-off rule of the reference alpha-beta: ``ge`` (AIMA: prune when alpha >= beta) or ``gt``."""
    student_function: str | None = None
    """The student's function this case runs (``None``: the course's name, :data:`FUNCTION_OF`)."""
    depth: int | None = None
    """A cut-off search's ``d`` (``cutoff_test(state, depth)`` is true when ``depth > d``); ``None`` for a
    function called ``f(state, game)``."""
    full: TreeNode | None = None
    """The whole tree the student's game offers when :attr:`root` is it cut off at :attr:`depth` (the reference
    and the grading read :attr:`root`); ``None`` when :attr:`root` is the whole tree."""

    @property
    def function(self) -> str:
        """The student's function this case runs."""
        return self.student_function or FUNCTION_OF[self.algorithm]

    def message(self) -> dict[str, Any]:
        """What the worker needs to build the case's game (picklable)."""
        out: dict[str, Any] = {"function": self.function, "depth": self.depth}
        if self.game is not None:
            out.update(game=self.game, position=self.position)
        else:
            out["tree"] = tree_to_spec(self.full if self.full is not None else self.root)
        return out


def height(n: TreeNode) -> int:
    """Levels below ``n`` (0 for a leaf)."""
    return 1 + max(height(c) for c in n.children) if n.children else 0


def evaluation(n: TreeNode) -> float:
    """The evaluation of a node a cut-off search stops at: a leaf's value, else the mean of the leaf values below
    it (the estimate the Tree Lab's move ordering sorts by), rounded to 2 decimals; MAX's value."""
    values: list[float] = []

    def walk(m: TreeNode) -> None:
        if m.value is not None:
            values.append(float(m.value))
        for c in m.children:
            walk(c)

    walk(n)
    return float(n.value) if n.value is not None else round(sum(values) / len(values), 2)


def cut_off(root: TreeNode, d: int) -> TreeNode:
    """``root`` as a cut-off search with ``d`` sees it: each node at depth ``d + 1`` (the root's children are at
    depth 1) a leaf worth its :func:`evaluation`.

    Raises:
        ValueError: ``d`` below 0.
    """
    if d < 0:
        raise ValueError(f"cut-off depth d must be 0 or more, got {d}")

    def walk(n: TreeNode, depth: int) -> TreeNode:
        if n.value is not None:
            return n
        if depth > d:
            return TreeNode(evaluation(n), (), None, n.player)
        return TreeNode(None, tuple(walk(c, depth + 1) for c in n.children), n.probs, n.player)

    return walk(root, 0)


def random_tree(rng: random.Random, depth: int, chance: bool = False) -> TreeSpec:
    """A tree of ``depth`` levels below the root: decision nodes of 2 to 4 children, leaves 0 to 9; with ``chance``,
    every decision's children are chance nodes of 2 or 3 outcomes with uneven probabilities (multiples of 1/8)."""
    def node(d: int, top: bool) -> TreeSpec:
        if d == 0 or (not top and rng.random() < 0.12):
            return rng.randint(0, 9)
        if chance and not top and rng.random() < 0.5 or chance and top:
            return [chance_node(d - 1) for _ in range(rng.randint(2, 3))]
        return [node(d - 1, False) for _ in range(rng.randint(2, 4))]

    def chance_node(d: int) -> TreeSpec:
        k = rng.randint(2, 3)
        cuts = sorted(rng.sample(range(1, 8), k - 1))
        eighths = [b - a for a, b in zip([0] + cuts, cuts + [8])]
        return {"chance": [[e / 8, node(d, False) if d > 0 else rng.randint(0, 9)] for e in eighths]}

    return node(depth, True)


def game_tree(game: Any, state: Any, max_nodes: int = 20_000) -> TreeNode:
    """The game's tree below ``state`` as an explicit tree: children in ``game.actions`` order, each leaf the
    utility of the player to move at ``state`` (MAX).

    Raises:
        GameError: more than ``max_nodes`` nodes, or a chance node.
    """
    me = game.to_move(state)
    count = 0

    def build(s: Any) -> TreeSpec:
        nonlocal count
        count += 1
        if count > max_nodes:
            raise GameError(f"position {quoted(game.format_position(state))} has more than {max_nodes:,} nodes "
                            "to the end; choose one nearer the end")
        if game.is_chance(s):
            raise GameError("a game position with chance nodes cannot be a case")
        if game.is_terminal(s):
            return float(game.utility(s, me))
        return [build(game.result(s, m)) for m in game.actions(s)]

    return parse_tree(build(state))


def _has_chance(n: TreeNode) -> bool:
    return n.is_chance or any(_has_chance(c) for c in n.children)


def builtin_cases(algorithm: str, prune: str = "ge") -> list[Case]:
    """The built-in cases of one algorithm (see the module docstring), alpha-beta's with the cut-off ``prune``."""
    rng = random.Random(f"{SEED}-{algorithm}")
    out: list[Case] = []
    if algorithm == "expectimax":
        course = TEXTBOOK_TREES["Expectimax (value 10)"]
        out.append(Case("course chance node (value 10) against a sure 9", algorithm,
                        parse_tree(f"[{course}, 9]")))
        for i in range(RANDOM_CHANCE_TREES):
            out.append(Case(f"random chance tree {i + 1}", algorithm,
                            parse_tree(random_tree(rng, 2 + i % 2, chance=True))))
        return out
    p = prune if algorithm == "alphabeta" else "ge"
    for name, text in TEXTBOOK_TREES.items():
        root = parse_tree(text)
        if not _has_chance(root):
            out.append(Case(name, algorithm, root, prune=p))
    out.append(Case("tie at a cut-off", algorithm, parse_tree(TIE_TREE), prune=p))
    for i in range(RANDOM_TREES):
        out.append(Case(f"random tree {i + 1}", algorithm, parse_tree(random_tree(rng, 2 + i % 3)), prune=p))
    from ai.agents.game_parts import agent_parts
    from ai.agents.profiles import game_for
    from gameplay.rules.registry import games
    for info in games():
        for position in agent_parts(info.name).exercise_positions:
            g = game_for(info.name)
            state = g.parse_position(position)
            name = f"{info.noun} {position}, {g.player_names[g.to_move(state)]} to move"
            out.append(Case(name, algorithm, game_tree(g, state), info.name, position, prune=p))
    return out


def function_cases(function: Function, prune: str = "ge", trees: str | Path | None = None) -> list[Case]:
    """The graded cases of one of the student's functions: its algorithm's built-in cases, then the folder
    ``trees``' (:func:`folder_cases`), each run on ``function``; a cut-off search's with ``d`` the tree's height,
    then :data:`CUTOFF_CASES`.

    Raises:
        GameError: a bad ``trees`` folder (see :func:`folder_cases`).
    """
    cases = builtin_cases(function.algorithm, prune)
    if trees is not None:
        cases += folder_cases(trees, function.algorithm, prune)
    cases = [replace(c, student_function=function.name,
                     depth=height(c.root) if function.cutoff else None) for c in cases]
    if function.cutoff:
        rng = random.Random(f"{SEED}-cutoff")
        randoms = [parse_tree(random_tree(rng, 4)) for _ in range(2)]
        for name, tree, d in CUTOFF_CASES:
            whole = parse_tree(TEXTBOOK_TREES[tree]) if isinstance(tree, str) else randoms[tree]
            cases.append(Case(name, function.algorithm, cut_off(whole, d), prune=prune,
                              student_function=function.name, depth=d, full=whole))
    return cases


def folder_cases(folder: str | Path, algorithm: str, prune: str = "ge") -> list[Case]:
    """A teacher's trees for ``algorithm``: each ``*.json`` file of ``folder`` (name order) that suits it.

    Raises:
        GameError: the folder does not exist or holds no ``.json`` file; a file that is not a tree (its name and
            the tree's problem).
    """
    from gameplay.rules.trees import tree_text
    d = Path(folder).expanduser()
    if not d.is_dir():
        raise GameError(f"--trees {quoted_path(str(folder))} is not a folder; expected a folder of .json trees")
    files = sorted(p for p in d.iterdir() if p.suffix.lower() == ".json" and p.is_file())
    if not files:
        raise GameError(f"--trees {quoted_path(str(folder))} holds no .json file; expected trees such as "
                        "[[3,12,8],[2,4,6],[14,5,2]], one per file")
    out = []
    for f in files:
        try:
            root = parse_tree(tree_text(str(f)))
        except GameError as e:
            raise GameError(f"tree file {f.name}: {e}") from None
        if root.is_leaf or root.is_chance:
            raise GameError(f"tree file {f.name}: the root must be a decision node (a list); there is no action "
                            "to choose at a leaf or a chance node")
        if _has_chance(root) == (algorithm == "expectimax"):
            out.append(Case(f"{f.name}", algorithm, root, prune=prune if algorithm == "alphabeta" else "ge"))
    return out
