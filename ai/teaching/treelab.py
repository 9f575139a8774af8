"""Searching explicit textbook trees (the Tree Lab and ``main.py tree --tree``).

The algorithms are the project's own searches run on :class:`~gameplay.rules.trees.ExplicitTreeGame`:
``minimax`` and ``alphabeta`` (``ai.kernel.search.Searcher``, textbook left-to-right order unless ``ordering=on``) and
``expectimax`` (``ai.kernel.expectimax``) for trees with chance nodes. Values are MAX's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ai.agents.agent_base import AgentError, coerce_setting
from ai.agents.agents import split_spec
from ai.kernel.core import SearchError
from ai.kernel.recording import SearchTree
from ai.kernel.search import Searcher, SearchOptions
from ai.teaching.tree_recorder import TreeRecorder
from gameplay.rules.trees import ExplicitTreeGame, TreeNode

TREE_ALGORITHMS = ("minimax", "alphabeta", "expectimax", "mcts")
MCTS_TREE_KEYS = ("simulations", "c", "seed")
"""Settings ``mcts`` takes on an explicit tree (``playout`` is always ``random``: a tree has no evaluation)."""
TREE_KEYS: dict[str, tuple[str, ...]] = {"minimax": ("ordering",), "alphabeta": ("ordering", "prune"),
                                         "expectimax": (), "mcts": MCTS_TREE_KEYS}
"""The settings each Tree Lab algorithm takes (``minimax:ordering=on`` visits the children best first too; expectimax
takes none). Another algorithm's setting is refused unless it has its default, as an agent's
(``ai.agents.agent_base.APPLIES_TO``)."""
DEFAULT_TREE_SIMULATIONS = 100
"""Simulations of ``mcts`` on an explicit tree when none are given."""


@dataclass(frozen=True)
class TreeSettings:
    """How to search an explicit tree."""

    algorithm: str
    ordering: bool = False
    """Alpha-beta with ordering: children sorted by their subtree's mean leaf value, best first for the mover."""
    prune: str = "ge"
    simulations: int = DEFAULT_TREE_SIMULATIONS
    """``mcts``: simulations."""
    c: float = math.sqrt(2)
    """``mcts``: UCB1's exploration constant."""
    seed: int = 1
    """``mcts``: seed of its random playouts and chance samples."""


@dataclass(frozen=True)
class TreeSearch:
    """The answer for an explicit tree (CLI.md ``tree --tree ... --json``)."""

    value: float
    best: int
    """Index of the root's best child (-1 when the root is a chance node: nobody chooses there)."""
    nodes: int
    leaves_visited: tuple[float, ...]
    pruned: tuple[tuple[int, ...], ...]
    tree: SearchTree
    minimax_nodes: int
    """Nodes plain minimax visits on the same tree (the whole tree)."""
    settings: TreeSettings

    def to_json(self) -> dict[str, Any]:
        """The CLI's JSON object."""
        return {"value": self.value, "best": None if self.best < 0 else self.best, "nodes": self.nodes,
                "leaves_visited": [_num(v) for v in self.leaves_visited],
                "pruned": [list(p) for p in self.pruned], "minimax_nodes": self.minimax_nodes,
                "algorithm": self.settings.algorithm, "prune": self.settings.prune,
                "ordering": self.settings.ordering, "cutoffs": self.tree.cutoffs,
                "pruned_subtrees": self.tree.pruned_subtrees,
                "pv": [int(m) for m in self.tree.pv]}


def _num(v: float) -> float | int:
    return int(v) if float(v).is_integer() else v


def parse_tree_agent(spec: str) -> TreeSettings:
    """Read ``minimax[:ordering=on]``, ``alphabeta[:ordering=on,prune=gt]``, ``expectimax`` or
    ``mcts[:simulations=N,c=C,seed=S]`` for an explicit tree.

    Raises:
        AgentError: unknown algorithm or setting, a bad value, or another algorithm's setting with another value
            than its default (:data:`TREE_KEYS`: ``expectimax:ordering=on``).
    """
    name, opts, _ = split_spec(spec)
    if name not in TREE_ALGORITHMS:
        raise AgentError(f"Tree Lab agent must be one of {', '.join(TREE_ALGORITHMS)}, got {name!r}")
    allowed = TREE_KEYS[name]
    fields: dict[str, Any] = {}
    for k, v in opts.items():
        takers = tuple(a for a in TREE_ALGORITHMS if k in TREE_KEYS[a])
        if not takers:
            raise AgentError(f"Tree Lab agent setting {k!r} is not used by {name}; "
                             + (f"expected {' or '.join(allowed)}" if allowed else "it takes no settings"))
        value = coerce_setting(k, v)
        if k in allowed:
            fields[k] = value
        elif value != getattr(TreeSettings(name), k):
            words = takers[0] if len(takers) == 1 else f"{', '.join(takers[:-1])} and {takers[-1]}"
            raise AgentError(f"Tree Lab agent setting {k} applies to {words}, not {name}")
    return TreeSettings(name, **fields)


def _mean_leaf(n: TreeNode) -> float:
    if n.value is not None:
        return n.value
    vals = [_mean_leaf(c) for c in n.children]
    return sum(vals) / len(vals)


def search_tree(root: TreeNode, settings: TreeSettings, max_nodes: int = 20_000) -> TreeSearch:
    """Search an explicit tree and record every node.

    Raises:
        SearchError: minimax/alpha-beta on a tree with chance nodes, or expectimax on one without; ``mcts``
            (use :func:`ai.teaching.treelab_mcts.search_tree_mcts`).
    """
    if settings.algorithm == "mcts":
        raise SearchError("mcts on an explicit tree: use ai.teaching.treelab_mcts.search_tree_mcts")
    game = ExplicitTreeGame(root)
    rec = TreeRecorder(game, 0, max_nodes=max_nodes, algorithm=settings.algorithm, prune=settings.prune)
    if settings.algorithm == "expectimax":
        if not game.traits.stochastic:
            raise SearchError("expectimax needs a tree with chance nodes ({\"chance\": ...}); "
                              "use minimax or alphabeta for this tree")
        from ai.kernel.expectimax import Expectimax
        rec.negamax = False
        ex = Expectimax(game, lambda s, p: 0.0, memo=False, recorder=rec)
        ex.root_player = 0
        root_state = game.initial_state()
        if game.is_chance(root_state):
            value, best = ex.value(root_state, 10_000), None
        else:
            best, value, _ = ex.search_root(root_state, 10_000)
        nodes = ex.stats.nodes
        pv: tuple[Any, ...] = (best,) if best is not None else ()
    else:
        _check_plain(game, root, settings)
        searcher = _tree_searcher(game, settings, rec)
        best, value, _ = searcher.search_root((), 10_000)
        nodes = searcher.stats.nodes
        pv = _pv(rec.snapshot())
    tree = rec.snapshot(pv)
    leaves = tuple(n.value for n in sorted(tree.nodes, key=lambda n: n.enter_order)
                   if n.note in ("leaf", "terminal"))
    pruned: list[tuple[int, ...]] = []
    for n in sorted(tree.nodes, key=lambda n: n.enter_order):
        for s in n.skipped:
            pruned.append(tuple(n.state) + (int(s),))
    return TreeSearch(float(value) + 0.0, -1 if best is None else int(best), nodes, leaves, tuple(pruned), tree,
                      game.node_count(), settings)


def _check_plain(game: ExplicitTreeGame, root: TreeNode, settings: TreeSettings) -> None:
    """Minimax and alpha-beta need a tree without chance nodes and a decision at the root (SearchError)."""
    if game.traits.stochastic:
        raise SearchError(f"{settings.algorithm} has no chance nodes; use expectimax for this tree")
    if root.is_leaf:
        raise SearchError("the tree is a single leaf: there is no decision to search")


def _tree_searcher(game: ExplicitTreeGame, settings: TreeSettings, recorder: TreeRecorder | None) -> Searcher[Any, Any]:
    """The Tree Lab's minimax or alpha-beta on ``game``: textbook alpha-beta (no principal-variation search); with
    ``ordering=on`` the static key and nothing else (the tree's moves are child indices, so the game's traits switch
    killer moves and history off)."""
    def key(state: Any, move: Any) -> float:
        """The static key CLI.md names: the child's mean leaf value, best first for the side to move."""
        if state is None:
            return 0.0
        sign = 1.0 if game.to_move(state) == 0 else -1.0
        return sign * _mean_leaf(game.node(state).children[move]) * 1e-6

    options = SearchOptions(pruning=settings.algorithm == "alphabeta", prune=settings.prune,
                            ordering=settings.ordering, pvs=False)
    return Searcher(game, lambda s, p: 0.0, options, recorder=recorder,
                    order_key=key if settings.ordering else None)


def count_tree_nodes(root: TreeNode, settings: TreeSettings) -> int:
    """Nodes :func:`search_tree` visits on ``root`` (root, inner nodes and leaves), without recording the tree:
    the same search (recording never changes what is searched), for counts over many trees
    (:func:`ai.teaching.growth.tree_growth`).

    Raises:
        SearchError: ``settings`` is not minimax or alpha-beta, the tree has chance nodes, or it is a single leaf.
    """
    if settings.algorithm not in ("minimax", "alphabeta"):
        raise SearchError(f"node counts without recording are for minimax and alphabeta, not {settings.algorithm}")
    game = ExplicitTreeGame(root)
    _check_plain(game, root, settings)
    searcher = _tree_searcher(game, settings, None)
    searcher.search_root((), 10_000)
    return searcher.stats.nodes


def _pv(tree: SearchTree) -> tuple[Any, ...]:
    """Follow the best children from the root (the value-achieving child, first in visiting order)."""
    by_id = {n.id: n for n in tree.nodes}
    if not tree.nodes:
        return ()
    out: list[Any] = []
    n = by_id[0]
    while n.children and n.kind != "CHANCE":
        kids = [by_id[k] for k in n.children if k in by_id]
        exact = [k for k in kids if math.isclose(k.value, n.value) and k.exact] or \
                [k for k in kids if math.isclose(k.value, n.value)]
        if not exact:
            break
        n = exact[0]
        out.append(int(n.move) if n.move is not None else None)
    return tuple(out)
