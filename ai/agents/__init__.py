"""Agents and their processes: the settings record and the Agent base (agent_base), building agents from a spec
(agents), the game profiles (profiles) and each game's agent parts found by its room's name (game_parts), agents
written in files (agent_file), each agent in a worker process of its own (agent_process, agent_child, agent_watch)
and judged on its own clock (move_clock), one isolated game (arena), the window's AgentRunner and decision worker
(runner, worker), and the MCTS agent.

May import ``gameplay.rules`` and ``ai.kernel``. A game's own knowledge (``ai.checkers``, ``ai.pig``, ...) is reached
only through the names its game record gives, resolved at run time, never by an import here."""
