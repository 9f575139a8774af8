"""Monte Carlo tree search on an explicit textbook tree (the Tree Lab and ``main.py tree --tree ... --agent mcts``).

The search is the game agent's own :class:`ai.kernel.mcts.MCTS` run on :class:`~gameplay.rules.trees.ExplicitTreeGame`,
recorded simulation by simulation (:class:`ai.teaching.mcts_record.MCTSRecorder`), so a class watches the visit counts
concentrate on the minimax choice of a textbook tree.

Scaling (for UCB1, whose exploration term assumes rewards in a fixed range): a leaf's utility ``u`` (MAX's view)
is backed up as ``2 (u - lo) / (hi - lo) - 1`` in ``[-1, 1]``, where ``lo`` and ``hi`` are the smallest and
largest leaf values of the tree (every leaf 0 when they are equal). Playouts are uniformly random (a tree has no
evaluation) and chance nodes are sampled by their probabilities, as in the games.

The answer's fields (CLI.md ``tree --json``): ``value`` is the root's mean backed-up value converted back to the
tree's units (the mean utility of the leaves its simulations reached, MAX's view; ``value_scaled`` is the same in
``[-1, 1]``), ``best`` the most visited child of the root, ``nodes`` the tree nodes created (root included),
``leaves_visited`` the values of the leaves in the order the simulations first reached them (each leaf once,
whether reached inside the tree or at the end of a playout), ``pruned`` empty (MCTS prunes nothing).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ai.kernel.core import SearchError, SearchLimits
from ai.kernel.mcts import MCTS
from ai.teaching.mcts_record import MCTSRecorder, MCTSTrace
from ai.teaching.treelab import TreeSettings
from gameplay.rules.trees import ExplicitTreeGame, TreeNode


def leaf_range(root: TreeNode) -> tuple[float, float]:
    """The smallest and largest leaf values of the tree ``(lo, hi)``."""
    vals: list[float] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.value is not None:
            vals.append(n.value)
        else:
            stack.extend(n.children)
    return min(vals), max(vals)


@dataclass(frozen=True)
class MCTSTreeSearch:
    """The answer of ``mcts`` on an explicit tree (see the module docstring)."""

    value: float
    value_scaled: float
    best: int
    """Index of the root's most visited child (-1 when the root is a chance node)."""
    nodes: int
    leaves_visited: tuple[float, ...]
    simulations: int
    lo: float
    hi: float
    trace: MCTSTrace
    minimax_nodes: int
    """Nodes plain minimax visits on the same tree (the whole tree)."""
    settings: TreeSettings

    def to_json(self) -> dict[str, Any]:
        """The CLI's JSON object (the fields of every Tree Lab answer, plus MCTS's own)."""
        f = self.trace.final
        kids = self.trace.children(0)
        return {"value": _num(self.value), "best": None if self.best < 0 else self.best, "nodes": self.nodes,
                "leaves_visited": [_num(v) for v in self.leaves_visited], "pruned": [],
                "minimax_nodes": self.minimax_nodes, "algorithm": "mcts", "simulations": self.simulations,
                "c": self.settings.c, "seed": self.settings.seed, "value_scaled": self.value_scaled,
                "scale": {"lo": _num(self.lo), "hi": _num(self.hi)},
                "root_children": [{"child": int(self.trace.nodes[i].move or 0), "visits": f[0][i],
                                   "q": self.trace.q(f, i)} for i in kids]}


def _num(v: float) -> float | int:
    return int(v) if float(v).is_integer() else v


def search_tree_mcts(root: TreeNode, settings: TreeSettings) -> MCTSTreeSearch:
    """Run ``settings.simulations`` simulations of UCT on an explicit tree and record them all.

    Raises:
        SearchError: the tree is a single leaf, or the root is a chance node (nobody decides there).
    """
    if root.is_leaf:
        raise SearchError("the tree is a single leaf: there is no decision to search")
    game = ExplicitTreeGame(root)
    state = game.initial_state()
    if game.is_chance(state):
        raise SearchError("mcts decides at a MAX or MIN root; this tree starts with a chance node "
                          "(use expectimax for its value)")
    lo, hi = leaf_range(root)
    span = hi - lo

    def reward(s: Any, player: int) -> float:
        if span == 0:
            return 0.0
        r = 2.0 * (game.utility(s, 0) - lo) / span - 1.0
        return r if player == 0 else -r

    mcts = MCTS(game, c=settings.c, rng=random.Random(settings.seed), terminal_reward=reward)
    rec = MCTSRecorder(game, max_simulations=max(settings.simulations, 1), keep_ends=True)
    res = mcts.search(state, SearchLimits(None, None, settings.simulations), None, rec)
    trace = rec.snapshot()
    seen: set[Any] = set()
    leaves: list[float] = []
    for sim in trace.simulations:
        if sim.end is not None and game.is_terminal(sim.end) and sim.end not in seen:
            seen.add(sim.end)
            leaves.append(game.utility(sim.end, 0))
    scaled = res.value if game.to_move(state) == 0 else -res.value
    value = lo + (scaled + 1.0) / 2.0 * span if span else lo
    return MCTSTreeSearch(float(value) + 0.0, float(scaled) + 0.0, int(res.move), res.nodes, tuple(leaves),
                          res.extra["simulations"], lo, hi, trace, game.node_count(), settings)
