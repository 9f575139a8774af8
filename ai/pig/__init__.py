"""Pig's knowledge: its agents and profile (pig_agents), the optimal policy by dynamic programming (pig_optimal), the
presets' exact ladder (``python -m ai.pig.pig_ladder``), the policy as picture data, and the ``pig`` benchmark.

May import ``gameplay.rules``, ``ai.kernel`` and ``ai.agents``; no other game's room."""
