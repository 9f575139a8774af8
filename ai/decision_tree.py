"""Record the search tree of one AI decision in a game (``main.py tree GAME`` and the overlay)."""

from __future__ import annotations

from typing import Any

from ai.agents import make_agent
from ai.recording import SearchTree, TreeRecorder
from ai.search import SearchResult
from gameplay.rules.base import GameError


def record_decision(game_name: str, position: str | None, spec: str, max_nodes: int = 20_000
                    ) -> tuple[Any, Any, SearchResult, SearchTree]:
    """Run one agent decision with a :class:`TreeRecorder` attached.

    Args:
        game_name: ``tictactoe``, ``checkers`` or ``pig``.
        position: the position in the game's notation, or ``None`` for the start.
        spec: the agent spec (a searching agent: minimax, alphabeta, expectimax or a preset).
        max_nodes: recorder bound.

    Returns:
        ``(game, state, result, tree)``; the tree is the last completed iteration.

    Raises:
        GameError: bad game, position or agent, or an agent that does not search.
    """
    agent = make_agent(game_name, spec)
    game = agent.game
    state = game.initial_state() if position is None else game.parse_position(position)
    if agent.is_human or agent.settings.algorithm in ("random", "optimal"):
        raise GameError(f"agent {agent.settings.algorithm!r} does not search a tree; use minimax, alphabeta "
                        "or expectimax")
    if not game.is_chance(state) and not game.actions(state):
        raise GameError("the position is over: there is no decision to record")
    rec = TreeRecorder(game, game.to_move(state), max_nodes=max_nodes, algorithm=agent.settings.algorithm,
                       prune=agent.settings.prune, negamax=not game.traits.stochastic)
    result = agent.choose(state, recorder=rec)
    return game, state, result, rec.snapshot(result.pv)

