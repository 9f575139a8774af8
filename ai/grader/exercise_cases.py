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
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gameplay.rules.base import GameError, quoted, quoted_path
from gameplay.rules.trees import TEXTBOOK_TREES, TreeNode, TreeSpec, parse_tree, tree_to_spec

ALGORITHMS = ("minimax", "alphabeta", "expectimax")
"""The algorithms ``check`` grades, in the order it runs them."""
FUNCTION_OF = {"minimax": "minimax_decision", "alphabeta": "alphabeta_decision",
               "expectimax": "expectimax_decision"}
"""Algorithm -> the function an exercise file defines for it."""
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

    @property
    def function(self) -> str:
        """The student's function this case runs."""
        return FUNCTION_OF[self.algorithm]

    def message(self) -> dict[str, Any]:
        """What the worker needs to build the case's game (picklable)."""
        if self.game is not None:
            return {"function": self.function, "game": self.game, "position": self.position}
        return {"function": self.function, "tree": tree_to_spec(self.root)}


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
