"""``bench mcts``: Monte Carlo tree search speed (simulations per second) and its time control.

Figures: simulations per second from the start of each game (tic-tac-toe and checkers with random playouts,
checkers with ``eval:8``, Pig with random playouts), each a 1 s search with seed 1; and the worst overshoot of
the time budget (``elapsed - T``) over those positions at T = 0.05, 0.2 and 1.0 s (issue 13 asks T + 50 ms).
"""

from __future__ import annotations

from typing import Any

from ai.agents.agents import make_agent
from ai.agents.game_parts import agent_parts
from gameplay.rules.registry import games


def cases() -> tuple[tuple[str, str, str], ...]:
    """``(game, label, agent spec)`` measured, in menu order: each registered game's agents' parts' ``mcts_bench``
    (:func:`ai.agents.game_parts.agent_parts`)."""
    return tuple((g.name, label, spec) for g in games() for label, spec in agent_parts(g.name).mcts_bench)


def bench_mcts() -> dict[str, Any]:
    """The figures the README quotes (see the module docstring)."""
    out: dict[str, Any] = {}
    for game, label, spec in cases():
        a = make_agent(game, spec + ",time=1.0")
        r = a.choose(a.game.initial_state())
        out[f"{game}_{label}_simulations_per_s"] = r.extra["simulations"] / max(r.elapsed, 1e-9)
    for budget in (0.05, 0.2, 1.0):
        worst = 0.0
        for game, _, spec in cases():
            a = make_agent(game, f"{spec},time={budget}")
            r = a.choose(a.game.initial_state())
            worst = max(worst, r.elapsed - budget)
        out[f"time_{budget:g}s_worst_overshoot_ms"] = worst * 1000.0
    return out
