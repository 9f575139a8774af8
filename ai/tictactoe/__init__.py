"""Tic-tac-toe's knowledge: its evaluation and agent profile.

May import ``gameplay.rules``, ``ai.kernel`` and ``ai.agents``; no other game's room."""
