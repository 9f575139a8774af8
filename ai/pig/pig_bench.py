"""The ``pig`` benchmark suite: decision time, agreement with the optimal policy, match score against it.

For each of ``expectimax`` (the default agent), ``minimax`` (dice as adversary, its default) and "hold at 20"
(``optimal:weights=hold20``) it reports:

* decision time in milliseconds (median and 95th percentile) over positions sampled from optimal self-play;
* agreement: the fraction of those positions, among the ones where roll and hold differ by more than 0.002 in
  exact win probability (the clear decisions), where the agent picks the optimal move;
* match score against ``optimal`` over ``games`` games (dice seeded per game, first move alternating), played
  by ``jobs`` processes; ``score`` is the agent's fraction of games won, with a 95% error (normal approximation).

It also times the exact solution (:func:`ai.pig.pig_optimal.solve`, target 100, six faces), not cached.

From a shell: ``python -m ai.pig.pig_bench --games 4000 --jobs 2`` (the README's acceptance figure).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from multiprocessing import get_context
from typing import Any

from gameplay.rules.pig import HOLD, ROLL, Pig, PigState

OPTIMAL_SPEC = "optimal"
AGENTS: dict[str, str] = {"expectimax": "expectimax", "minimax": "minimax", "hold20": "optimal:weights=hold20"}
"""Label -> agent spec of the agents compared with the optimal policy."""


def sample_positions(n: int, seed: int = 7, game: Pig | None = None) -> list[PigState]:
    """``n`` decision positions with a positive turn total (roll and hold both legal), from optimal self-play.

    Games are played by the optimal policy with dice from ``random.Random(seed)``; every such position met is
    taken, in order, until there are ``n``.
    """
    from ai.pig.pig_optimal import load_table
    g = game or Pig()
    table = load_table(g.target, g.faces)
    rng = random.Random(seed)
    out: list[PigState] = []
    while len(out) < n:
        s = g.initial_state()
        while not g.is_terminal(s) and len(out) < n:
            if s.pending:
                s = g.successor(s, rng.randint(1, g.faces))
                continue
            own, opp, k = g.scores(s, s.player)
            if k > 0:
                out.append(s)
            s = g.successor(s, HOLD if table.holds(own, opp, k) else ROLL)
    return out


def decision_figures(spec: str, positions: list[PigState], gap: float = 0.002) -> dict[str, float]:
    """Decision time (ms, median and p95) and agreement with the optimal move on clear decisions.

    Args:
        spec: agent spec for Pig (e.g. ``expectimax`` or ``expectimax:depth=6``).
        positions: decision positions (see :func:`sample_positions`).
        gap: a decision is clear when ``|P_roll - P_hold| > gap`` (exact win probabilities).

    Returns:
        ``{"decision_ms_p50", "decision_ms_p95", "agreement", "clear_positions"}``.
    """
    from ai.agents.agents import make_agent
    from ai.pig.pig_optimal import load_table
    agent = make_agent("pig", spec)
    game = agent.game
    assert isinstance(game, Pig)
    table = load_table(game.target, game.faces)
    times: list[float] = []
    agree = clear = 0
    for s in positions:
        t0 = time.perf_counter()
        move = agent.choose(s).move
        times.append(time.perf_counter() - t0)
        own, opp, k = game.scores(s, s.player)
        r, h = table.roll_value(own, opp, k), table.hold_value(own, opp, k)
        if abs(r - h) > gap:
            clear += 1
            agree += move == (HOLD if h > r else ROLL)
    times.sort()
    return {"decision_ms_p50": 1000 * statistics.median(times),
            "decision_ms_p95": 1000 * times[min(len(times) - 1, int(0.95 * len(times)))],
            "agreement": agree / clear if clear else float("nan"), "clear_positions": float(clear)}


def _play_chunk(args: tuple[str, str, int, list[int]]) -> tuple[int, int]:
    """Worker: games ``indices`` of a match; returns (games, wins of ``spec_a``)."""
    from ai.agents.agents import make_agent
    from gameplay.rules.referee import play_game
    spec_a, spec_b, seed, indices = args
    a = make_agent("pig", spec_a)
    b = make_agent("pig", spec_b)
    wins = 0
    for gi in indices:
        a_first = gi % 2 == 0
        agents = (a, b) if a_first else (b, a)
        played = play_game(a.game, agents, rng=random.Random(seed * 1_000_003 + gi))
        if played.outcome is not None and played.outcome.winner == (0 if a_first else 1):
            wins += 1
    return len(indices), wins


def match(spec_a: str, spec_b: str = OPTIMAL_SPEC, games: int = 1000, jobs: int = 2,
          seed: int = 1) -> dict[str, float]:
    """Play ``games`` Pig games between two agents, alternating who moves first (game ``i``: ``spec_a`` first
    when ``i`` is even; dice from ``random.Random(seed * 1000003 + i)``), on ``jobs`` processes.

    Returns:
        ``{"games", "wins", "score", "score_error_95"}``: ``score`` is ``spec_a``'s fraction of games won.
    """
    from ai.pig.pig_optimal import load_table
    load_table()  # computed once here, so the workers read the disk cache
    chunks = [list(range(i, games, max(1, jobs * 4))) for i in range(min(games, max(1, jobs * 4)))]
    tasks = [(spec_a, spec_b, seed, c) for c in chunks if c]
    if jobs <= 1:
        results = [_play_chunk(t) for t in tasks]
    else:
        with get_context("spawn").Pool(jobs) as pool:
            results = pool.map(_play_chunk, tasks)
    n = sum(r[0] for r in results)
    w = sum(r[1] for r in results)
    p = w / n if n else float("nan")
    return {"games": float(n), "wins": float(w), "score": p,
            "score_error_95": 1.96 * math.sqrt(p * (1 - p) / n) if n else float("nan")}


def bench_pig(games: int = 1000, positions: int = 300, jobs: int = 2, seed: int = 1) -> dict[str, Any]:
    """The ``pig`` suite (see the module docstring). Takes about a minute with the defaults on two cores.

    Args:
        games: games per match against ``optimal``.
        positions: sampled decision positions for the timing and agreement figures.
        jobs: worker processes for the matches.
        seed: seed of the match dice.

    Returns:
        A flat dict of figures: ``value_iteration_s``, ``first_player_win``, then per agent label
        (``expectimax``, ``minimax``, ``hold20``) ``<label>_decision_ms_p50``, ``<label>_decision_ms_p95``,
        ``<label>_agreement``, ``<label>_score_vs_optimal``, ``<label>_score_error_95``.
    """
    from ai.pig.pig_optimal import load_table, solve
    t0 = time.perf_counter()
    table = solve(100, 6)
    out: dict[str, Any] = {"value_iteration_s": time.perf_counter() - t0, "first_player_win": table.win(0, 0, 0)}
    load_table()
    pos = sample_positions(positions)
    out["positions"] = len(pos)
    out["games"] = games
    for label, spec in AGENTS.items():
        d = decision_figures(spec, pos)
        m = match(spec, OPTIMAL_SPEC, games, jobs, seed)
        out[f"{label}_spec"] = spec
        out[f"{label}_decision_ms_p50"] = d["decision_ms_p50"]
        out[f"{label}_decision_ms_p95"] = d["decision_ms_p95"]
        out[f"{label}_agreement"] = d["agreement"]
        out[f"{label}_score_vs_optimal"] = m["score"]
        out[f"{label}_score_error_95"] = m["score_error_95"]
    out["clear_positions"] = d["clear_positions"]
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m ai.pig.pig_bench [--games N] [--positions N] [--jobs J] [--seed S] [--agent SPEC]``."""
    ap = argparse.ArgumentParser(prog="python -m ai.pig.pig_bench", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--agent", help="only this agent spec: its figures against optimal")
    a = ap.parse_args(argv)
    if a.agent:
        res: dict[str, Any] = dict(decision_figures(a.agent, sample_positions(a.positions)))
        res.update(match(a.agent, OPTIMAL_SPEC, a.games, a.jobs, a.seed))
        res["agent"] = a.agent
    else:
        res = bench_pig(a.games, a.positions, a.jobs, a.seed)
    print(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
