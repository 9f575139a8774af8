"""MCTS wins now when it can (issue 23): a move that ends the game with a win for the mover is always played
(decisive moves, Teytaud and Teytaud 2010), ties in visits go to the mean value, then the shorter proven
distance (:mod:`ai.kernel.mcts_choice`), and the record's choice (the overlay's gold frame) is the search's."""

from __future__ import annotations

import math
from functools import cache

import pytest

from ai.agents.agents import make_agent
from ai.kernel.mcts_choice import (
    RANK_DECISIVE,
    RANK_LOSS,
    RANK_OTHER,
    RANK_PROVEN_WIN,
    choice_rank,
    choose,
    proof_plies,
)
from ai.teaching.mcts_record import MCTSRecorder
from gameplay.rules.tictactoe import TicTacToe

ISSUE_POSITION = "...O.OX.X"
"""X to move: 7 wins at once, 4 wins in three; plain UCT gave both 487 visits and Q = +1 and played 4."""


@cache
def winning_positions() -> tuple[tuple[str, frozenset[int]], ...]:
    """Every reachable tic-tac-toe position (from the empty board) where the side to move can win at once, with
    the moves that do."""
    g = TicTacToe()
    seen: set[str] = set()
    stack = [g.initial_state()]
    out: list[tuple[str, frozenset[int]]] = []
    while stack:
        s = stack.pop()
        if s in seen:
            continue
        seen.add(s)
        if g.is_terminal(s):
            continue
        p = g.to_move(s)
        kids = {m: g.successor(s, m) for m in g.actions(s)}
        wins = frozenset(m for m, t in kids.items() if g.is_terminal(t) and g.utility(t, p) > 0)
        if wins:
            out.append((s, wins))
        stack.extend(kids.values())
    return tuple(sorted(out))


def test_the_issue_counts_its_positions() -> None:
    positions = winning_positions()
    assert len(positions) == 2358
    assert dict(positions)[TicTacToe().parse_position(ISSUE_POSITION)] == {7}


@pytest.mark.slow
@pytest.mark.parametrize("spec", [
    "mcts:seed=1",  # as the menus' presets and the window's custom side build it: 1,000 simulations, solver off
    "mcts:seed=1,simulations=1",  # the smallest budget a search runs (a time limit always completes one)
    "mcts:seed=1,solver=on",
])
def test_mcts_plays_an_immediate_win_in_every_position(spec: str) -> None:
    missed = []
    for state, wins in winning_positions():
        agent = make_agent("tictactoe", spec)  # a fresh agent: the same seed for every position
        move = agent.choose(state).move
        if move not in wins:
            missed.append((state, move))
    assert missed == []


def test_the_issue_position_plays_7() -> None:
    for seed in range(1, 6):
        a = make_agent("tictactoe", f"mcts:seed={seed}")
        res = a.choose(a.game.parse_position(ISSUE_POSITION))
        assert a.game.format_move(a.game.parse_position(ISSUE_POSITION), res.move) == "7"
        assert res.pv[0] == res.move


def test_the_record_chooses_as_the_search_does() -> None:
    """The recorded search of the issue's position: its replay ends at the search's own N and W, the record's
    choice (the overlay's gold frame) is the move played, and the summary says why, since 7 need not be the most
    visited."""
    a = make_agent("tictactoe", "mcts:seed=1")
    state = a.game.parse_position(ISSUE_POSITION)
    rec = MCTSRecorder(a.game)
    res = a.choose(state, None, None, rec)
    trace = rec.snapshot()
    assert trace.stats_at(len(trace.simulations)) == trace.final
    assert trace.best == trace.most_visited(trace.final)
    assert trace.nodes[trace.best].move == "7" == a.game.format_move(state, res.move)
    assert trace.choice_words(trace.final) == "wins at once"
    assert "plays 7 (wins at once)" in trace.summary()
    first = trace.simulations[0]
    assert first.expanded and trace.nodes[first.path[-1]].move == "7"  # the decisive move is expanded first
    assert trace.narrate(1).startswith("simulation 1: expanded 7 (a move that wins at once is tried first), the game "
                                       "is over there: X wins")
    # and at every step of the replay, the frame is the search's rule: 7 from the simulation that created it
    for k in (1, 2, 10, len(trace.simulations)):
        assert trace.nodes[trace.most_visited(trace.stats_at(k))].move == "7"
    b = make_agent("tictactoe", "mcts:seed=1")
    assert b.choose(state).extra["root_children"] == res.extra["root_children"]  # recording changes nothing


def test_choice_rank() -> None:
    assert choice_rank(None, 1.0) == choice_rank(1.0, 1.0) == RANK_DECISIVE
    assert choice_rank(1.0, None) == RANK_PROVEN_WIN
    assert choice_rank(None, None) == choice_rank(0.0, None) == choice_rank(0.0, 0.0) == RANK_OTHER
    assert choice_rank(-1.0, None) == choice_rank(None, -1.0) == RANK_LOSS


# a small tree for the distances: name -> (children, known value from the view of the player who moved into it,
# terminal); the players alternate
TREE: dict[str, tuple[tuple[str, ...], float | None, bool]] = {
    "win1": ((), 1.0, True),
    "a": (("a1",), -1.0, False), "a1": ((), 1.0, True),  # the only reply wins at once: 1 ply
    "b": (("b1", "b2"), -1.0, False), "b1": ((), 1.0, True),  # a reply wins at once, another later: 1 ply
    "b2": (("b2x",), 1.0, False), "b2x": (("b2y",), -1.0, False), "b2y": ((), 1.0, True),  # 2 plies
    "c": (("b2",), -1.0, False),  # 3 plies
    "win4": (("a", "c"), 1.0, False),  # the loser resists with c: 4 plies
    "open": (("x",), None, False), "x": ((), None, False),
}


def plies(name: str) -> float:
    return proof_plies(name, lambda n: TREE[n][0], lambda n: TREE[n][1], lambda n: TREE[n][2])


def test_proof_plies() -> None:
    assert [plies(n) for n in ("win1", "a", "b", "b2x", "b2", "c", "win4")] == [0, 1, 1, 1, 2, 3, 4]
    assert plies("open") == plies("x") == math.inf


def test_choose_breaks_ties_by_q_then_distance_then_order() -> None:
    stats = {"p": (0, 10, 0.5), "q": (0, 10, 0.7), "r": (0, 9, 1.0)}
    assert choose(["p", "q", "r"], lambda k: stats[k], plies) == "q"  # equal visits: the higher Q
    stats = {"win4": (1, 5, 1.0), "b2": (1, 5, 1.0), "open": (0, 50, 0.9)}
    assert choose(["win4", "b2", "open"], lambda k: stats[k], plies) == "b2"  # proven wins: the shorter
    stats = {"a": (-1, 3, -1.0), "c": (-1, 3, -1.0)}
    assert choose(["a", "c"], lambda k: stats[k], plies) == "c"  # among losses: the longer
    stats = {"x": (0, 4, 0.0), "open": (0, 4, 0.0)}
    assert choose(["x", "open"], lambda k: stats[k], plies) == "x"  # nothing else: move order
    with pytest.raises(ValueError):
        choose([], lambda k: (0, 0, 0.0), plies)
