"""What the agents know of tic-tac-toe (:class:`ai.agents.game_parts.AgentParts`, found by its name): its profile (the
line features, full-depth search), the race's line-up, the grader's exercise positions, the bound on the plies left.
"""

from __future__ import annotations

from ai.agents.agent_base import GameProfile
from ai.agents.game_parts import AgentParts
from ai.tictactoe.tictactoe_mcts import mcts_rules
from gameplay.rules.tictactoe import plies_left

__all__ = ["AGENT_PARTS", "tictactoe_profile"]


def tictactoe_profile() -> GameProfile:
    """Tic-tac-toe's profile (its :data:`AGENT_PARTS`' ``profile``): the line features, full-depth search by
    default."""
    from ai.kernel.evaluation import TICTACTOE_FEATURES, TICTACTOE_WEIGHTS
    from gameplay.rules.tictactoe import TicTacToe
    return GameProfile(
        game=TicTacToe(),
        features=dict(TICTACTOE_FEATURES),
        weight_presets={k: dict(v) for k, v in TICTACTOE_WEIGHTS.items()},
        presets={
            "beginner": {"algorithm": "alphabeta", "depth": 1},
            # Depths 1 and 3 can be beaten (they miss forks); with these weights depth 2 and every depth >= 4
            # never lose. Exact score against uniform random moves: 0.964 < 0.969 < 0.971 = 0.971 = 0.971
            # (tests/test_ladder.py; README "Difficulty ladder").
            "easy": {"algorithm": "alphabeta", "depth": 3},
            "medium": {"algorithm": "alphabeta", "depth": 4},
            "hard": {"algorithm": "alphabeta", "depth": 5},
            "expert": {"algorithm": "alphabeta", "depth": 9},
        },
        # With no depth and no time the search runs to the end of the game (at most 9 plies).
        defaults={"minimax": {}, "alphabeta": {}},
    )


AGENT_PARTS = AgentParts(
    profile=tictactoe_profile, plies_left=plies_left, growth_depth=9, tree_max_nodes=30_000,
    race_agents=("minimax", "alphabeta:ordering=off,tt=off", "alphabeta", "mcts:seed=1"), race_budget=0.3,
    exercise_positions=("XOX.O....", "XO.XO....", "X.O.X.O.."), mcts_rules=mcts_rules,
)
"""Tic-tac-toe's parts for the agents (``ai.agents.game_parts.agent_parts("tictactoe")``)."""
