"""Each answer's time at the referee (issue 48): how far past its per-move limit an agent in a worker process answers,
on the clock it is judged by, and how deep it searched.

Usage: ``python tools/referee_times.py [--game checkers] [--agents SPEC ...] [--time T] [--moves N] [--no-margin]
[--seed S] [--json]``. Each agent plays N moves in a worker process of its own (``ai.agents.agent_process``, the one a
match or tournament uses, limit T on the agent's own clock), both sides of games started after 6 random plies (a new
game when one ends; a new process after a loss on time, which is counted). For every answer the referee records the wall
time from sending the position to receiving the answer and the CPU time the worker used; printed per agent: the judged
time's median, 99th and 99.9th percentiles (nearest rank) and maximum, how many answers came past the limit and past
limit + grace (a loss on time), the mean depth of the search and its mean hard limit (``stop_s``), and (``--json``) the
five slowest answers with the search's own time, its limit and the latency sent. ``--no-margin``: the searches use the
whole limit (no latency sent), to measure what the margin costs in depth.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.agents.agent_process import AgentFault, AgentProcess  # noqa: E402
from ai.agents.agents import FACTORY, parse_settings  # noqa: E402
from ai.agents.move_clock import GRACE_S  # noqa: E402
from ai.agents.profiles import profile_for  # noqa: E402

RANDOM_PLIES = 6


def rank(values: list[float], q: float) -> float:
    """The nearest-rank ``q`` quantile of ``values`` (not empty)."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


def start(game: Any, rng: random.Random) -> Any:
    """A start ``RANDOM_PLIES`` random plies in (chance outcomes drawn too), not over."""
    while True:
        s = game.initial_state()
        for _ in range(RANDOM_PLIES):
            if game.is_chance(s):
                outs = game.chance_outcomes(s)
                s = game.result(s, rng.choices([o for o, _ in outs], [p for _, p in outs])[0])
                continue
            if game.is_terminal(s):
                break
            s = game.result(s, rng.choice(list(game.actions(s))))
        if not game.is_terminal(s):
            return s


def run(game_name: str, spec: str, limit: float, moves: int, margin: bool, seed: int) -> dict[str, Any]:
    """The figures of ``moves`` answers of one agent."""
    profile = profile_for(game_name)
    game = profile.game
    clock = parse_settings(spec, profile).clock
    rng = random.Random(seed)
    walls: list[float] = []
    cpus: list[float] = []
    depths: list[int] = []
    stops: list[float] = []
    worst: list[tuple[float, float, float, float, int]] = []
    lost = 0
    proc: AgentProcess | None = None
    state = start(game, rng)
    try:
        while len(walls) < moves:
            if game.is_chance(state):
                outs = game.chance_outcomes(state)
                state = game.result(state, rng.choices([o for o, _ in outs], [p for _, p in outs])[0])
                continue
            if game.is_terminal(state):
                state = start(game, rng)
                continue
            if proc is None:
                proc = AgentProcess(game.name, spec, FACTORY, seed=seed, limit_s=limit, clock=clock, echo=False,
                                    margin=margin)
                proc.start()
                proc.wait_ready()
            latency = proc.latency.value
            try:
                answer = proc.ask(state)
            except AgentFault as e:
                if e.termination != "time":
                    raise
                lost += 1
                proc = None
                state = start(game, rng)
                continue
            walls.append(answer.elapsed_s)
            stop = answer.stats.get("stop_s")
            if isinstance(stop, float):
                stops.append(stop)
                spent = float(answer.stats.get("clock_s", 0.0))
                judged_now = answer.elapsed_s if clock == "wall" else (answer.cpu_s or 0.0)
                worst.append((judged_now, spent, stop, latency if margin else 0.0, len(walls)))
            cpus.append(answer.cpu_s if answer.cpu_s is not None else float("nan"))
            if answer.stats.get("stop_reason") not in ("book", "table"):
                depths.append(int(answer.stats.get("depth", 0)))
            state = game.result(state, answer.move)
    finally:
        if proc is not None:
            proc.close()
    judged = cpus if clock == "cpu" else walls

    def figures(xs: list[float]) -> dict[str, float]:
        return {"p50": rank(xs, 0.5), "p99": rank(xs, 0.99), "p999": rank(xs, 0.999), "max": max(xs)}
    return {"agent": spec, "clock": str(clock), "limit_s": limit, "answers": len(walls), "lost_on_time": lost,
            "margin": margin, "over_limit": sum(x > limit for x in judged),
            "over_grace": sum(x > limit + GRACE_S for x in judged),
            "max_overshoot_s": max(0.0, max(judged) - limit), "judged_s": figures(judged),
            "wall_s": figures(walls), "cpu_s": figures([c for c in cpus if not math.isnan(c)] or [0.0]),
            "mean_depth": statistics.fmean(depths) if depths else 0.0, "load": os.getloadavg()[0],
            "mean_stop_s": statistics.fmean(stops) if stops else None,
            "worst": [{"judged_s": w[0], "search_s": w[1], "stop_s": w[2], "latency_s": w[3], "answer": w[4]}
                      for w in sorted(worst, reverse=True)[:5]]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="checkers")
    ap.add_argument("--agents", nargs="+", default=["alphabeta", "expert", "mcts"])
    ap.add_argument("--time", type=float, default=0.2)
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-margin", action="store_true")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    out = []
    for spec in a.agents:
        r = run(a.game, spec, a.time, a.moves, not a.no_margin, a.seed)
        out.append(r)
        if not a.json:
            j = r["judged_s"]
            print(f"{spec} ({r['clock']} clock, limit {a.time:g} s, margin {'on' if r['margin'] else 'off'}): "
                  f"{r['answers']} answers, judged p50 {j['p50']:.3f} p99 {j['p99']:.3f} p99.9 {j['p999']:.3f} "
                  f"max {j['max']:.3f} s; over the limit {r['over_limit']}, over limit + grace {r['over_grace']}, "
                  f"lost on time {r['lost_on_time']}; wall max {r['wall_s']['max']:.3f} s, CPU max "
                  f"{r['cpu_s']['max']:.3f} s; mean depth {r['mean_depth']:.2f}; mean stop "
                  f"{r['mean_stop_s'] or 0:.3f} s; load {r['load']:.1f}", flush=True)
    if a.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
