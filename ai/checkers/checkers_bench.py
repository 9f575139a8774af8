"""``bench search``: checkers alpha-beta speed, depth reached, ordering gains, and the bench signature.

Speed on two clocks: nodes per second of the wall clock (``*_nodes_per_s``) and per CPU second of the searching
thread (``*_nodes_per_cpu_s``, :data:`ai.kernel.timeman.CLOCKS`' CPU clock, ``time.thread_time``: the figure the
scheduler's other work does not slow), for the default alpha-beta and for ``expert`` from the start; ``expert``'s
depth in 1 s on each clock (``start_depth_in_1s``: a wall-clock budget, ``start_depth_in_1_cpu_s``: ``clock=cpu``).

Time use: the share of the ``expert`` budget its decisions spend (median, 90th percentile) and the worst
overshoot, with its time management on and off (``ai.kernel.timeman``).

The signature is the total node count of fixed-depth searches over the fixed positions below: it changes only
when the search (or move generation, or the evaluation) changes, like Stockfish's ``bench`` command.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Sequence
from typing import Any

from ai.agents.agents import make_agent
from ai.kernel.search import Searcher, SearchLimits, iterative_deepening
from ai.kernel.timeman import CLOCKS, Clock

BENCH_POSITIONS: tuple[str, ...] = (
    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",        # the start
    "W:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,7,8,9,10,11,12,13",        # ACF #5 Dreaded Edinburgh
    "B:W14,19,21,22,23,25,26,27,29,30,31,32:B1,2,3,4,5,6,7,8,9,11,12,16",         # an early middlegame
    "W:W17,19,21,22,24,25,26,27,28,30,31:B2,3,5,6,7,8,9,10,11,12,15",             # middlegame, White to move
    "B:W18,19,22,25,26,27,30,31:B1,3,5,6,7,9,10,11",                              # 8 v 8
    "W:W14,20,21,22,23,27,30:B2,3,5,6,8,11,15",                                   # 7 v 7
    "B:WK14,22,26,30:B1,K19,7,11",                                                 # kings on the board
    "B:WK27,K32:BK14",                                                             # two kings v one
)
SIGNATURE_DEPTH = 6
LEVER_DEPTH = 9
"""Depth of the per-addition node counts (``levers_depth9_nodes_*``)."""


EXPERT_BUDGET = 1.0
"""Seconds per move of the ``expert`` runs (its preset's budget)."""
CPU_CLOCK = CLOCKS[Clock.CPU]
"""The searching thread's CPU clock (``time.thread_time``; the bench searches on its own thread)."""


def time_use(results: Sequence[Any], budget: float, prefix: str = "") -> dict[str, Any]:
    """How decisions used a budget of ``budget`` seconds: ``budget_share_median`` and ``budget_share_p90`` (the
    seconds spent on the budget's clock over the budget; nearest-rank 90th percentile), ``budget_share_min``, and
    ``overshoot_max_ms`` (the worst time past the budget on the same clock, 0 when none passed it; the search's
    deadline is checked every ``check_every`` nodes), each key after ``prefix``.

    Args:
        results: the decisions' :class:`ai.kernel.core.SearchResult` (``extra["clock_s"]``, else ``elapsed``).
    """
    spent = sorted(float(r.extra.get("clock_s", r.elapsed)) for r in results)
    shares = [x / budget for x in spent]
    p90 = shares[max(0, math.ceil(0.9 * len(shares)) - 1)]
    return {f"{prefix}budget_share_median": statistics.median(shares), f"{prefix}budget_share_p90": p90,
            f"{prefix}budget_share_min": shares[0],
            f"{prefix}overshoot_max_ms": max(0.0, spent[-1] - budget) * 1000.0}


def _search(spec: str, fen: str, limits: SearchLimits | None = None) -> tuple[Any, Searcher[Any, Any]]:
    """One decision of the agent ``spec`` at ``fen`` (``limits``: its own from its settings when ``None``)."""
    agent = make_agent("checkers", spec)
    game = agent.game
    state = game.parse_position(fen)
    searcher = agent.make_searcher()  # type: ignore[attr-defined]
    if limits is None:
        limits = agent.settings.search_limits(agent.value_unit())  # type: ignore[attr-defined]
    res = iterative_deepening(game, state, searcher, limits)
    return res, searcher


def bench_signature(depth: int = SIGNATURE_DEPTH) -> int:
    """Total nodes of ``alphabeta`` (default settings, no time limit) to ``depth`` plies over BENCH_POSITIONS."""
    total = 0
    for fen in BENCH_POSITIONS:
        res, _ = _search(f"alphabeta:depth={depth}", fen, SearchLimits(depth=depth))
        total += res.nodes
    return total


def bench_search() -> dict[str, Any]:
    """The figures the README quotes (see module docstring)."""
    out: dict[str, Any] = {}
    # 1. nodes per second, and time/nodes to depth 6, 8, 10 from the start and in the middlegame
    for label, fen in (("start", BENCH_POSITIONS[0]), ("middlegame", BENCH_POSITIONS[3])):
        reached: dict[int, tuple[int, float]] = {}
        agent = make_agent("checkers", "alphabeta")
        game = agent.game
        state = game.parse_position(fen)
        searcher = agent.make_searcher()  # type: ignore[attr-defined]
        t0, c0 = time.perf_counter(), CPU_CLOCK()

        def on_info(info: Any, reached: dict[int, tuple[int, float]] = reached) -> None:
            reached[info.depth] = (info.nodes, info.elapsed)

        iterative_deepening(game, state, searcher, SearchLimits(depth=10), on_info)
        el, cpu = time.perf_counter() - t0, CPU_CLOCK() - c0
        for d in (6, 8, 10):
            if d in reached:
                out[f"{label}_depth{d}_nodes"] = reached[d][0]
                out[f"{label}_depth{d}_s"] = reached[d][1]
        out[f"{label}_nodes_per_s"] = searcher.stats.nodes / el
        out[f"{label}_nodes_per_cpu_s"] = searcher.stats.nodes / max(cpu, 1e-9)
        ds = sorted(reached)
        if len(ds) >= 4:
            # effective branching factor: growth of the node count per extra ply over the last iterations
            n_hi, n_lo = reached[ds[-1]][0], reached[ds[-3]][0]
            out[f"{label}_ebf"] = (n_hi / max(1, n_lo)) ** (1 / 2)
    # 2. depth reached in 1 s by the expert (book off: it would answer without searching), from the start and in
    # the other seven positions (the nominal iteration depth, as engines report it with reductions), and how much
    # of the budget it uses: the share of the budget spent (on its clock, wall here) and the worst overshoot,
    # with its time management (``timeman=on``, ``ai.kernel.timeman``) and with the old half-budget rule (``off``)
    budget = EXPERT_BUDGET
    from ai.checkers.endgame_db import describe_default
    out["expert_endgame_tables"] = describe_default()  # what its db switch probes (the largest tables that load)
    for policy in ("off", "on"):
        spec = f"expert:book=off,time={budget},timeman={policy}"
        results = [_search(spec, fen)[0] for fen in BENCH_POSITIONS]
        out.update(time_use(results, budget, f"timeman_{policy}_"))
        if policy == "off":  # the preset's own policy
            res = results[0]
            out["start_depth_in_1s"] = res.depth
            out["start_nodes_per_s_expert"] = res.nodes / max(res.elapsed, 1e-9)
            depths = [r.depth for r in results[1:]]
            out["positions_depth_in_1s"] = depths
            out["positions_min_depth_in_1s"] = min(depths)
        else:
            out["start_depth_in_1s_timeman_on"] = results[0].depth
            out["positions_depth_in_1s_timeman_on"] = [r.depth for r in results[1:]]
    # 2b. the same from the start with the budget on the searching thread's CPU clock (``clock=cpu``): the depth in
    # 1 CPU second and the nodes per CPU second (the search's own reading of its clock: the search alone)
    res = _search(f"expert:book=off,time={budget},clock=cpu", BENCH_POSITIONS[0])[0]
    out["start_depth_in_1_cpu_s"] = res.depth
    out["start_nodes_per_cpu_s_expert"] = res.nodes / max(float(res.extra.get("clock_s", res.elapsed)), 1e-9)
    # 3. what each search addition saves: nodes to a fixed depth over the first six positions, each key alone
    d = LEVER_DEPTH
    base = f"alphabeta:depth={d},quiescence=on"
    for name, extra in (("base", ""), ("lmr", ",lmr=on"), ("aspiration", ",aspiration=on"), ("etc", ",etc=on")):
        total = 0
        for fen in BENCH_POSITIONS[:6]:
            r, _ = _search(base + extra, fen, SearchLimits(depth=d))
            total += r.nodes
        out[f"levers_depth{d}_nodes_{name}"] = total
    # 4. ordering and table against plain minimax at equal depth (no quiescence, material evaluation)
    d = 5
    for name, spec in (("minimax", f"minimax:depth={d},weights=material,quiescence=off"),
                       ("alphabeta_no_ordering", f"alphabeta:depth={d},weights=material,ordering=off,tt=off,"
                                                 "quiescence=off"),
                       ("alphabeta_ordering", f"alphabeta:depth={d},weights=material,ordering=on,tt=off,"
                                              "quiescence=off"),
                       ("alphabeta_ordering_tt", f"alphabeta:depth={d},weights=material,ordering=on,tt=on,"
                                                 "quiescence=off")):
        total = last = 0
        for fen in BENCH_POSITIONS[:4]:
            r, _ = _search(spec, fen, SearchLimits(depth=d))
            total += r.nodes
            last += r.extra["iterations"][-1]["nodes"]
        # every pass (minimax and unordered alpha-beta: one pass at depth 1, then one at d, the textbook search; with
        # ordering, depths 1 to d, each teaching the next its order), and the pass at d alone: like for like
        out[f"nodes_depth{d}_{name}"] = total
        out[f"nodes_depth{d}_{name}_last_pass"] = last
    # 5. time control: the worst overshoot of the budget over the bench positions (analyze's elapsed_s)
    for budget in (0.05, 0.2, 1.0):
        worst = 0.0
        for fen in BENCH_POSITIONS[:4]:
            r, _ = _search(f"alphabeta:time={budget}", fen, SearchLimits(time_budget_s=budget))
            worst = max(worst, r.elapsed - budget)
        out[f"time_{budget:g}s_worst_overshoot_ms"] = worst * 1000.0
    out["signature"] = bench_signature()
    out["signature_depth"] = SIGNATURE_DEPTH
    return out
