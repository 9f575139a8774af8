"""How fast the search tree grows: nodes visited against depth, for each search, from one position (issue 15).

The data behind ``python main.py plot growth`` and the window's Growth view (no plotting here: figures are
:mod:`gameplay.pictures.plots`).

* :func:`measure_growth` runs, on one position of tic-tac-toe or checkers, the agents of :data:`GROWTH_SERIES`
  (minimax; alpha-beta without ordering or table; with ordering; with ordering and the transposition table;
  quiescence off everywhere, so all four search the same leaves) once each to the deepest depth, and reads every
  completed iteration of their iterative deepening (:class:`ai.kernel.core.SearchInfo`). The count at depth ``d`` is
  the number ``python main.py analyze GAME --agent SPEC:depth=d --json`` reports as ``nodes``: **it includes the
  shallower iterations** (the search to depth ``d`` runs depths 1, 2, ..., d); the depth-``d`` iteration alone
  is kept too (:attr:`GrowthSeries.iteration_nodes`). Time per depth is the same search's elapsed seconds when
  the depth-``d`` iteration completed. ``tests/test_growth.py`` checks the counts against ``analyze``.
  MCTS has no depth limit: it is run with 10, 30, 100, ... simulations (seed 1) and each run gives one point,
  the depth of the deepest node of its tree against its tree's nodes (one new node per simulation).
* The measured branching factor ``b`` (:attr:`Growth.branching`): the geometric mean of the ratios between the
  numbers of positions at successive plies of the full tree, ``b = N_D ** (1 / D)`` with ``N_D`` the positions
  exactly ``D`` plies down (a finished game ends its line), ``D`` the deepest depth minimax completed. ``N_D`` is
  counted by minimax itself: its depth-``D`` iteration visits every position down to ``D`` plies, so ``N_D`` is
  its depth-``D`` iteration minus its depth-``D - 1`` iteration. The reference curves drawn with it
  (:func:`reference_curves`) say what they count: every node of a uniform tree of branching ``b``
  (``1 + b + ... + b^d`` for one search, summed over the iterations ``1..d`` for iterative deepening, the count a
  measured point is), its leaves ``b^d`` alone (so minimax's points lie above it), and ``b^(d/2)`` (alpha-beta
  with perfect ordering, up to a constant: Knuth and Moore 1975, "An analysis of alpha-beta pruning",
  *Artificial Intelligence* 6, minimal tree ``b^ceil(d/2) + b^floor(d/2) - 1`` leaves).
* :func:`tree_growth`: the Tree Lab's version, on uniform random trees of a given branching factor (AIMA's
  explicit trees): minimax, alpha-beta in the order given and alpha-beta ordered by the static key, averaged
  over several seeded trees per depth.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ai.agents.game_parts import agent_parts
from ai.kernel.core import SearchInfo
from gameplay.rules.base import GameError
from gameplay.rules.limits import GROWTH_DEPTH

GROWTH_SERIES: tuple[tuple[str, str], ...] = (
    ("minimax", "minimax:depth={d},time=3600"),
    ("alpha-beta, no ordering", "alphabeta:depth={d},ordering=off,tt=off,quiescence=off,time=3600"),
    ("alpha-beta + ordering", "alphabeta:depth={d},tt=off,quiescence=off"),
    ("alpha-beta + ordering + table", "alphabeta:depth={d},quiescence=off"),
)
"""``(label, agent spec with {d} for the depth)`` of each fixed-depth search compared. The first two carry a time
budget (an hour, never reached: the node budget ends a series first) because without one they search in a single
pass (:func:`ai.kernel.deepen.iterative_deepening`), and the figure counts iterative deepening's iterations."""
MCTS_SIMULATIONS = (10, 30, 100, 300, 1000, 3000, 10000)
"""Simulation budgets MCTS is run with (seed 1); the ladder stops once its tree reaches the deepest depth."""
MCTS_SPEC = "mcts:simulations={n},seed=1"
"""Default deepest depth in plies (checkers: minimax to 7 plies from the start takes about 2 s compiled)."""
NODE_BUDGET = 3_000_000
"""A series stops deepening when its next iteration would visit more nodes than this (estimated from the growth
of its last two iterations), so a position with many moves never makes the window wait for minutes."""

Progress = Callable[[str], None]
"""``progress(text)``: what is being measured now (``"minimax, depth 6"``)."""


class GrowthCancelled(Exception):
    """The measurement was cancelled through its stop event."""


@dataclass(frozen=True)
class GrowthSeries:
    """One search's growth: a point per completed depth."""

    label: str
    """Legend text, e.g. ``alpha-beta + ordering``."""
    spec: str
    """The agent spec at the deepest depth measured (``analyze --agent``), or the MCTS spec template."""
    depths: tuple[int, ...]
    """Depths in plies (MCTS: the deepest node of its tree)."""
    nodes: tuple[int, ...]
    """Nodes visited by the search to that depth, shallower iterations included (``analyze``'s ``nodes``)."""
    iteration_nodes: tuple[int, ...]
    """Nodes of the depth-``d`` iteration alone (MCTS: the same as ``nodes``)."""
    seconds: tuple[float, ...]
    """Elapsed seconds of the search when the depth-``d`` iteration completed."""
    note: str = ""
    """Why the series ends before the deepest depth (a proven result, the node budget), else empty."""
    simulations: tuple[int, ...] = ()
    """MCTS only: the simulations of each point."""

    def to_json(self) -> dict[str, Any]:
        """A plain dict (JSON-ready)."""
        return {"label": self.label, "spec": self.spec, "depths": list(self.depths), "nodes": list(self.nodes),
                "iteration_nodes": list(self.iteration_nodes), "seconds": list(self.seconds), "note": self.note,
                "simulations": list(self.simulations)}


@dataclass(frozen=True)
class Growth:
    """The growth of every search from one position."""

    game: str
    position: str
    """The position in the game's notation."""
    max_depth: int
    series: tuple[GrowthSeries, ...]
    mcts: GrowthSeries | None
    branching: float
    """Measured branching factor ``b`` (module docstring); ``nan`` when minimax completed no depth."""
    branching_depth: int
    """The depth ``D`` at which ``b = N_D ** (1 / D)`` was measured."""
    level_counts: tuple[int, ...] = field(default=())
    """``N_0, N_1, ..., N_D``: positions exactly ``k`` plies down (from minimax's iterations)."""

    def to_json(self) -> dict[str, Any]:
        """A plain dict (JSON-ready)."""
        return {"game": self.game, "position": self.position, "max_depth": self.max_depth,
                "series": [s.to_json() for s in self.series],
                "mcts": None if self.mcts is None else self.mcts.to_json(), "branching": self.branching,
                "branching_depth": self.branching_depth, "level_counts": list(self.level_counts)}


@dataclass(frozen=True)
class Reference:
    """A reference curve drawn beside the measured counts, with what it counts in words (the legend)."""

    key: str
    """``leaves`` (``b^d``), ``nodes`` (``1 + b + ... + b^d``), ``deepening`` (that, summed over iterations
    ``1..d``) or ``ordered`` (``b^(d/2)``)."""
    label: str
    """Legend text: the formula, then what it counts."""

    def value(self, b: float, d: float) -> float:
        """The curve at depth ``d`` (plies, may be fractional) for branching ``b > 1``."""
        if self.key == "leaves":
            return float(b ** d)
        if self.key == "ordered":
            return float(b ** (d / 2))
        if self.key == "nodes":
            return uniform_nodes(b, d)
        return deepening_nodes(b, d)


def uniform_nodes(b: float, d: float) -> float:
    """Every node of a uniform tree of branching ``b > 1`` and depth ``d``: ``1 + b + ... + b^d`` (root, inner
    nodes and leaves: what one minimax search to depth ``d`` visits), ``(b^(d+1) - 1) / (b - 1)``."""
    return float((b ** (d + 1) - 1) / (b - 1))


def deepening_nodes(b: float, d: float) -> float:
    """What iterative deepening to depth ``d`` visits in a uniform tree of branching ``b > 1`` with plain minimax:
    :func:`uniform_nodes` summed over the iterations ``1..d``, ``(b^2 (b^d - 1) / (b - 1) - d) / (b - 1)``
    (the count ``analyze`` reports, every iteration included)."""
    return float((b * b * (b ** d - 1) / (b - 1) - d) / (b - 1))


def reference_curves(g: Growth) -> tuple[Reference, ...]:
    """The reference curves of a growth figure, each saying what it counts. A measured count includes the inner
    nodes (and, for a game, the shallower iterations), so ``b^d`` (the leaves alone) is not "every node": the
    curve of every node is ``1 + b + ... + b^d`` for one search (the Tree Lab's random trees) and its sum over
    the iterations ``1..d`` for iterative deepening (a game, as ``analyze`` counts)."""
    b = g.branching
    if not math.isfinite(b) or b <= 1:
        return ()
    random_trees = g.mcts is None and g.game.startswith("random trees")
    if random_trees:
        every = Reference("nodes", f"1 + b + ... + b^d: every node of the uniform tree (b = {b:g})")
        leaves = Reference("leaves", "b^d: its leaves")
    else:
        every = Reference("deepening", f"Σ (1 + b + ... + b^k), k = 1..d: every node of iterations 1..d in a "
                                       f"uniform tree, b = {b:.2f}")
        leaves = Reference("leaves", "b^d: the leaves of that tree's depth-d iteration")
    return (every, leaves,
            Reference("ordered", "b^(d/2): alpha-beta's best case (perfect ordering), up to a constant"))


class _Either(threading.Event):
    """An event that is also set when ``outer`` is (the caller's cancel), for the search's ``stop_event``."""

    def __init__(self, outer: threading.Event | None) -> None:
        super().__init__()
        self.outer = outer

    def is_set(self) -> bool:
        return super().is_set() or (self.outer is not None and self.outer.is_set())


def _series(game_name: str, state: Any, label: str, template: str, max_depth: int, stop: threading.Event | None,
            progress: Progress | None, budget: int | None) -> GrowthSeries:
    from ai.agents.agents import make_agent
    spec = template.format(d=max_depth)
    agent = make_agent(game_name, spec)
    ev = _Either(stop)
    infos: list[SearchInfo] = []
    over_budget = False

    def on_info(info: SearchInfo) -> None:
        nonlocal over_budget
        infos.append(info)
        if progress is not None and info.depth < max_depth:
            progress(f"{label}, depth {info.depth + 1}")
        if budget is not None and len(infos) >= 2 and info.depth < max_depth:
            last, before = infos[-1].iteration_nodes, max(1, infos[-2].iteration_nodes)
            if last * max(1.0, last / before) > budget:
                over_budget = True
                ev.set()

    if progress is not None:
        progress(f"{label}, depth 1")
    res = agent.choose(state, stop_event=ev, on_info=on_info)
    if stop is not None and stop.is_set():
        raise GrowthCancelled(label)
    note = ""
    if over_budget:
        note = f"stopped: depth {infos[-1].depth + 1} would pass {budget:,} nodes"
    elif infos and infos[-1].depth < max_depth:
        note = f"{res.stop_reason} at depth {infos[-1].depth}"
    return GrowthSeries(label, template.format(d=infos[-1].depth if infos else max_depth),
                        tuple(i.depth for i in infos), tuple(i.nodes for i in infos),
                        tuple(i.iteration_nodes for i in infos), tuple(i.elapsed for i in infos), note)


def _mcts(game_name: str, state: Any, max_depth: int, stop: threading.Event | None,
          progress: Progress | None, simulations: tuple[int, ...]) -> GrowthSeries:
    from ai.agents.agents import make_agent
    depths: list[int] = []
    nodes: list[int] = []
    secs: list[float] = []
    sims: list[int] = []
    for n in simulations:
        if progress is not None:
            progress(f"MCTS, {n:,} simulations")
        res = make_agent(game_name, MCTS_SPEC.format(n=n)).choose(state, stop_event=stop)
        if stop is not None and stop.is_set():
            raise GrowthCancelled("mcts")
        depths.append(res.depth)
        nodes.append(res.nodes)
        secs.append(res.elapsed)
        sims.append(int(res.extra.get("simulations", n)))
        if res.depth >= max_depth:
            break
    return GrowthSeries("MCTS (10, 30, 100, ... simulations)", MCTS_SPEC, tuple(depths), tuple(nodes),
                        tuple(nodes), tuple(secs), simulations=tuple(sims))


def measure_growth(game_name: str, state: Any = None, max_depth: int | None = None, *,
                   stop: threading.Event | None = None, progress: Progress | None = None,
                   mcts: bool = True, simulations: tuple[int, ...] = MCTS_SIMULATIONS,
                   node_budget: int | None = NODE_BUDGET) -> Growth:
    """Nodes and seconds against depth for each search of :data:`GROWTH_SERIES` (and MCTS) from ``state``.

    Args:
        game_name: ``tictactoe`` or ``checkers``.
        state: the position (default: the start).
        max_depth: deepest depth in plies (default the game's agents' parts' ``growth_depth``: 9 for tic-tac-toe, 7 for
            checkers; never more than their ``plies_left``: tic-tac-toe's empty cells).
        stop: set it to cancel (the running search returns at its next check; then :class:`GrowthCancelled`).
        progress: called with a short text before each search and depth.
        mcts: also run MCTS with the budgets of ``simulations``.
        simulations: MCTS budgets, ascending.
        node_budget: a series stops deepening when its next iteration would visit more nodes (``None``: no limit).

    Returns:
        The :class:`Growth` (a series ends early when the search proved the result or hit the node budget).

    Raises:
        GameError: an unknown game, a game with dice (Pig: see :mod:`ai.pig.pig_policy_data`), a finished position,
            or a depth outside 1-30 (:data:`gameplay.rules.limits.GROWTH_DEPTH`).
        GrowthCancelled: ``stop`` was set.
    """
    from ai.agents.profiles import profile_for
    game = profile_for(game_name).game
    if game.traits.stochastic:
        raise GameError(f"growth compares minimax and alpha-beta, which need a game without dice; {game.name} "
                        "has chance nodes (for Pig: python main.py plot pig-policy)")
    if state is None:
        state = game.initial_state()
    if game.is_terminal(state):
        raise GameError(f"the position {game.format_position(state)} is over: there is no search to measure")
    parts = agent_parts(game.name)
    depth = max_depth if max_depth is not None else parts.growth_depth
    depth = GROWTH_DEPTH.read(depth, "--max-depth")
    if parts.plies_left is not None:  # never deeper than the game can go (tic-tac-toe: its empty cells)
        depth = min(depth, parts.plies_left(state))
    series = tuple(_series(game.name, state, label, tpl, depth, stop, progress, node_budget)
                   for label, tpl in GROWTH_SERIES)
    tree = _mcts(game.name, state, depth, stop, progress, simulations) if mcts else None
    mm = series[0]
    levels: list[int] = [1]
    for k, it in enumerate(mm.iteration_nodes):
        levels.append(it - (mm.iteration_nodes[k - 1] if k else 1))
    d_b = len(levels) - 1
    b = levels[-1] ** (1.0 / d_b) if d_b >= 1 and levels[-1] > 0 else math.nan
    return Growth(game.name, game.format_position(state), depth, series, tree, b, d_b, tuple(levels))


# ----- the Tree Lab: uniform random trees -----------------------------------------------------------------------
TREE_SERIES: tuple[tuple[str, str], ...] = (
    ("minimax", "minimax"), ("alpha-beta, order given", "alphabeta"),
    ("alpha-beta, ordered by the static key", "alphabeta:ordering=on"))
"""``(label, Tree Lab agent spec)`` of the searches compared on random trees."""
TREE_MAX_LEAVES = 60_000
"""Depths of :func:`tree_growth` stop before a tree would have more leaves than this."""


def random_tree_spec(branching: int, depth: int, rng: random.Random, lo: int = 0, hi: int = 20) -> Any:
    """A uniform tree (JSON shape of the Tree Lab): ``branching`` children per inner node, ``depth`` levels below
    the root, integer leaves drawn uniformly from ``[lo, hi]``."""
    if depth == 0:
        return rng.randint(lo, hi)
    return [random_tree_spec(branching, depth - 1, rng, lo, hi) for _ in range(branching)]


def tree_growth(branching: int, max_depth: int = 8, trees: int = 10, seed: int = 1, *,
                stop: threading.Event | None = None) -> Growth:
    """Mean nodes visited on ``trees`` uniform random trees per depth, for the searches of :data:`TREE_SERIES`.

    The Tree Lab's Growth view: the same picture as :func:`measure_growth` with the Tree Lab's own searches
    (:func:`ai.teaching.treelab.count_tree_nodes`: :func:`ai.teaching.treelab.search_tree`'s count of every node
    visited, root, inner nodes and leaves, without recording the tree), whose branching factor is exact. Seconds are the
    mean time of one search. Depths stop at ``max_depth`` or before ``branching ** depth`` passes
    :data:`TREE_MAX_LEAVES`.

    Raises:
        GameError: ``branching`` below 2 or ``max_depth`` below 1.
        GrowthCancelled: ``stop`` was set.
    """
    import time

    from ai.teaching.treelab import count_tree_nodes, parse_tree_agent
    from gameplay.rules.trees import parse_tree
    if branching < 2 or max_depth < 1:
        raise GameError(f"tree growth needs branching >= 2 and depth >= 1, got {branching} and {max_depth}")
    depths = [d for d in range(1, max_depth + 1) if branching ** d <= TREE_MAX_LEAVES]
    rng = random.Random(seed)
    roots = {d: [parse_tree(random_tree_spec(branching, d, rng)) for _ in range(trees)] for d in depths}
    out: list[GrowthSeries] = []
    for label, spec in TREE_SERIES:
        settings = parse_tree_agent(spec)
        nodes: list[int] = []
        secs: list[float] = []
        for d in depths:
            total, t0 = 0, time.perf_counter()
            for root in roots[d]:
                if stop is not None and stop.is_set():
                    raise GrowthCancelled(label)
                total += count_tree_nodes(root, settings)
            nodes.append(round(total / trees))
            secs.append((time.perf_counter() - t0) / trees)
        out.append(GrowthSeries(label, spec, tuple(depths), tuple(nodes), tuple(nodes), tuple(secs)))
    return Growth(f"random trees, b = {branching}", f"{trees} uniform random trees per depth, seed {seed}",
                  depths[-1], tuple(out), None, float(branching), depths[-1],
                  tuple(branching ** k for k in range(depths[-1] + 1)))
