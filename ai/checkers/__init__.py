"""English checkers' knowledge: its evaluation and agent profile (checkers_eval), the classic features
(checkers_features), the opening book, the WLD endgame tables and their builder, and ``bench search``.

May import ``gameplay.rules``, ``ai.kernel`` and ``ai.agents``; no other game's room."""
