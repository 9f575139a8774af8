"""Measuring agents beyond one game: ``bench mcts`` and ratings from game results (Bradley-Terry on the Elo scale). Each
game's own bench sits with its game.

May import ``gameplay.rules``, ``ai.kernel`` and ``ai.agents``."""
