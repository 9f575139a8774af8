"""The ``mcts`` agent: Monte Carlo tree search (``ai.kernel.mcts``) behind the same Agent protocol as every other agent.

Keys (CLI.md, "Agents"): ``simulations``, ``time`` (either or both; neither: :data:`DEFAULT_SIMULATIONS`), ``c``
(UCB1's exploration constant), ``playout`` (``random`` or ``eval:N``), ``reuse``, ``solver``, ``seed``. It runs on
the window's worker like the others, stops on the cancel event, and its result is a
:class:`~ai.kernel.core.SearchResult` whose ``nodes`` are the tree nodes created and whose ``extra`` holds the
simulations and the root children's visit counts.
"""

from __future__ import annotations

import random
import threading
from typing import Any, Callable

from ai.agents.agent_base import Agent, AgentError, AgentSettings, GameProfile
from ai.agents.game_parts import agent_parts
from ai.kernel.core import SearchInfo, SearchLimits, SearchResult

DEFAULT_SIMULATIONS = 1000
"""Simulations per move when neither ``simulations`` nor ``time`` is given."""


class MCTSAgent(Agent):
    """UCT (Kocsis and Szepesvari 2006) with the settings' budget, playout, solver and seed.

    ``reuse`` keeps the search tree between this agent's own decisions in one process (the subtree under the
    position reached is searched on); a fresh agent, or the worker process rebuilding it, starts afresh.
    """

    portable = True
    """Rebuilt from its settings in the decision worker process (``ai.agents.worker``)."""

    def __init__(self, profile: GameProfile, settings: AgentSettings) -> None:
        super().__init__(profile, settings)
        self.rng = random.Random(settings.seed)
        self.evaluate: Callable[[Any, int], float] | None = None
        self.eval_scale = 1.0
        if settings.mcts.playout.startswith("eval:"):
            if not profile.weight_presets:
                raise AgentError(f"playout {settings.mcts.playout} needs an evaluation, and {profile.game.name} has no "
                                 "weighted one; use playout=random")
            self.evaluate = profile.evaluator(settings)
            weights = profile.weights_of(settings)
            self.eval_scale = max((abs(w) for w in weights.values()), default=1.0) or 1.0
        self._previous: Any = None
        """The last search (``reuse``): its tree is offered to the next one."""

    def choose(self, state: Any, stop_event: threading.Event | None = None,
               on_info: Callable[[SearchInfo], None] | None = None, recorder: Any = None) -> SearchResult:
        from ai.kernel.mcts import MCTS
        s = self.settings
        m = s.mcts
        sims = m.simulations if (m.simulations is not None or s.time_budget_s is not None) else DEFAULT_SIMULATIONS
        search = MCTS(self.game, c=m.c, playout=m.playout, evaluate=self.evaluate, eval_scale=self.eval_scale,
                      solver=m.solver, rng=self.rng, stop_event=stop_event,
                      fast_rules=agent_parts(self.game.name).mcts_rules)
        if m.reuse and self._previous is not None:
            search.adopt(self._previous, state)
        result = search.search(state, SearchLimits(None, s.time_budget_s, sims, clock=s.clock,
                                                    latency_s=self.latency_s), on_info,
                               recorder if getattr(recorder, "kind", None) == "mcts" else None)
        self._previous = search if m.reuse else None
        return result

    def describe(self) -> str:
        s = self.settings
        bits = [s.name if s.name == s.algorithm else f"{s.name} ({s.algorithm})"]
        if s.mcts.simulations is not None:
            bits.append(f"{s.mcts.simulations} simulations")
        if s.time_budget_s is not None:
            bits.append(f"{s.time_budget_s:g} s/move")
        if s.mcts.simulations is None and s.time_budget_s is None:
            bits.append(f"{DEFAULT_SIMULATIONS} simulations")
        return ", ".join(bits)
