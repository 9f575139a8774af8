"""What the agents know of checkers (:class:`ai.agents.game_parts.AgentParts`, found by its name): its profile and its
features in one pass (:mod:`ai.checkers.checkers_eval`, imported on first use so a broken install is reported by name),
the race's and the MCTS bench's line-ups, the growth measurement's depth.
"""

from __future__ import annotations

from typing import Any

from ai.agents.agent_base import GameProfile
from ai.agents.game_parts import AgentParts

__all__ = ["AGENT_PARTS", "feature_values", "make_profile"]


def make_profile() -> GameProfile:
    """Checkers' profile (:func:`ai.checkers.checkers_eval.make_profile`)."""
    from ai.checkers.checkers_eval import make_profile as build
    return build()


def feature_values(state: Any, needed: frozenset[str]) -> dict[str, float]:
    """Several features in one pass over the bitboards (:func:`ai.checkers.checkers_eval.feature_values`)."""
    from ai.checkers.checkers_eval import feature_values as values
    return values(state, needed)


AGENT_PARTS = AgentParts(
    profile=make_profile, feature_pass=feature_values, growth_depth=7,
    race_agents=("minimax", "alphabeta:ordering=off,tt=off", "alphabeta", "expert:book=off",
                 "mcts:playout=eval:8,seed=1"),
    mcts_bench=(("random", "mcts:seed=1"), ("eval8", "mcts:seed=1,playout=eval:8")),
)
"""Checkers' parts for the agents (``ai.agents.game_parts.agent_parts("checkers")``)."""
