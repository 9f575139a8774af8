"""Connect Four's knowledge: its evaluation, opening book and agent profile.

May import ``gameplay.rules``, ``ai.kernel`` and ``ai.agents``; no other game's room."""
