"""The tic-tac-toe ``expert`` never loses: played against every possible sequence of opponent moves."""

from __future__ import annotations

from functools import cache

import pytest

from ai.agents.agents import make_agent
from gameplay.rules.tictactoe import TicTacToe

G = TicTacToe()


@pytest.mark.parametrize("expert_side", [0, 1])
def test_expert_never_loses(expert_side: int) -> None:
    agent = make_agent("tictactoe", "expert")

    @cache
    def choice(state: str) -> int:
        res = agent.choose(state)
        assert res.move in G.actions(state)
        return int(res.move)

    games = losses = 0

    def walk(state: str) -> None:
        nonlocal games, losses
        out = G.outcome(state)
        if out is not None:
            games += 1
            if out.winner is not None and out.winner != expert_side:
                losses += 1
            return
        if G.to_move(state) == expert_side:
            walk(G.result(state, choice(state)))
        else:
            for m in G.actions(state):
                walk(G.result(state, m))

    walk(G.initial_state())
    assert losses == 0
    assert games > 50  # every opponent line was played out
