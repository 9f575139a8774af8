"""What the agents know of Connect Four (:class:`ai.agents.game_parts.AgentParts`, found by its name): its profile and
its features in one pass (:mod:`ai.connect4.connect4_eval`, imported on first use), the race's line-up, the growth
measurement's depth and plies-left bound, the grader's exercise position.
"""

from __future__ import annotations

from typing import Any

from ai.agents.agent_base import GameProfile
from ai.agents.game_parts import AgentParts
from ai.connect4.connect4_mcts import mcts_rules
from gameplay.rules.connect4 import plies_left

__all__ = ["AGENT_PARTS", "feature_values", "make_profile"]


def make_profile() -> GameProfile:
    """Connect Four's profile (:func:`ai.connect4.connect4_eval.make_profile`)."""
    from ai.connect4.connect4_eval import make_profile as build
    return build()


def feature_values(state: Any, needed: frozenset[str]) -> dict[str, float]:
    """Every feature in ``needed`` in one pass (:func:`ai.connect4.connect4_eval.feature_values`)."""
    from ai.connect4.connect4_eval import feature_values as values
    return values(state, needed)


AGENT_PARTS = AgentParts(
    profile=make_profile, feature_pass=feature_values, plies_left=plies_left, growth_depth=8,
    race_agents=("minimax", "alphabeta:ordering=off,tt=off", "alphabeta", "mcts:seed=1"),
    exercise_positions=("4425222271364566515425766345336341",), mcts_rules=mcts_rules,
)
"""Connect Four's parts for the agents (``ai.agents.game_parts.agent_parts("connect4")``)."""
