"""Monte Carlo tree search (ai.kernel.mcts): UCB1 arithmetic, tic-tac-toe tactics and play against perfect play, Pig's
chance nodes against the optimal policy's win probabilities, stopping, and the MCTS-Solver proofs."""

from __future__ import annotations

import math
import random
import threading
from typing import Any

import pytest

from ai.agents.agents import make_agent
from ai.kernel.core import SearchError, SearchInfo, SearchLimits
from ai.kernel.mcts import MCTS, ucb1
from ai.pig.pig_optimal import load_table
from gameplay.rules.base import GameError
from gameplay.rules.pig import Pig
from gameplay.rules.tictactoe import TicTacToe

TTT = TicTacToe()
SQRT2 = 1.4142135623730951


def _mcts(game: Any = TTT, seed: int = 1, **kw: Any) -> MCTS:
    return MCTS(game, rng=random.Random(seed), **kw)


# ----- UCB1 -----------------------------------------------------------------------------------------------------
def test_ucb1_pinned_on_hand_numbers() -> None:
    # 0.5 + sqrt(2) * sqrt(ln(100) / 10) = 0.5 + 1.41421356... * 0.67861... = 1.459705182437616... (bc -l)
    assert ucb1(0.5, 100, 10, SQRT2) == pytest.approx(1.4597051824376162, abs=1e-12)
    assert ucb1(0.5, 100, 10, SQRT2) == 0.5 + SQRT2 * math.sqrt(math.log(100) / 10)
    assert ucb1(-0.25, 50, 50, 1.0) == pytest.approx(-0.25 + math.sqrt(math.log(50) / 50))
    assert ucb1(0.3, 1, 1, SQRT2) == 0.3  # ln 1 = 0: no exploration bonus
    assert ucb1(0.0, 7, 3, 0.0) == 0.0  # c = 0: pure exploitation
    assert ucb1(0.9, 10, 0, SQRT2) == math.inf  # unvisited first


# ----- tic-tac-toe ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("position, win", [
    ("XX.OO....", 2),   # X completes the top row
    ("X.O.X.O..", 8),   # X completes the diagonal
    ("OO.XX.X..", 2),   # O to move completes the top row rather than blocking X's 3-4-5
])
def test_finds_the_immediate_win(position: str, win: int) -> None:
    assert TTT.parse_position(position) == position
    r = _mcts().search(position, SearchLimits(nodes=3000))
    assert r.move == win
    assert r.value > 0.8
    assert r.stop_reason == "simulations" and r.extra["simulations"] == 3000


@pytest.mark.parametrize("position, block", [
    ("X...OO..X", 3),   # X to move must stop O's 3-4-5
    ("XX.O.....", 2),   # O to move must stop X's top row
])
def test_blocks_the_immediate_threat(position: str, block: int) -> None:
    r = _mcts(seed=2).search(position, SearchLimits(nodes=3000))
    assert r.move == block


@pytest.mark.parametrize("solver", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("side", [0, 1])
def test_never_loses_to_perfect_play(side: int, seed: int, solver: bool) -> None:
    expert = make_agent("tictactoe", "expert")  # alpha-beta to the end of the game
    rng = random.Random(seed)
    s = TTT.initial_state()
    while not TTT.is_terminal(s):
        if TTT.to_move(s) == side:
            m = MCTS(TTT, rng=rng, solver=solver).search(s, SearchLimits(nodes=2000)).move
        else:
            m = expert.choose(s).move
        s = TTT.result(s, m)
    assert TTT.utility(s, side) >= 0, s


def test_same_seed_same_search() -> None:
    a = _mcts(seed=7).search(TTT.initial_state(), SearchLimits(nodes=500))
    b = _mcts(seed=7).search(TTT.initial_state(), SearchLimits(nodes=500))
    assert (a.move, a.value, a.pv, a.nodes, a.depth) == (b.move, b.value, b.pv, b.nodes, b.depth)
    assert a.extra["root_children"] == b.extra["root_children"]


def test_result_fields() -> None:
    infos: list[SearchInfo] = []
    m = _mcts()
    m.info_every = 100
    r = m.search(TTT.initial_state(), SearchLimits(nodes=1000), on_info=infos.append)
    kids = r.extra["root_children"]
    assert [k["move"] for k in kids] == [str(i) for i in range(9)]  # expanded in move order
    assert sum(k["visits"] for k in kids) == 1000  # each simulation passes through one root child
    best = max(kids, key=lambda k: k["visits"])
    assert r.move == int(best["move"]) and r.pv[0] == r.move
    assert -1.0 <= r.value <= 1.0 and r.outcome is None
    assert r.nodes == 1 + sum(1 for _ in _walk(m))  # root + every created node
    assert 1 <= r.depth <= 9 and len(r.pv) <= r.depth
    for k in kids:
        assert k["ucb"] == pytest.approx(ucb1(k["q"], 1000, k["visits"], SQRT2))
    assert len(infos) == 11 and infos[-1].nodes == r.nodes and infos[-1].move == r.move


def _walk(m: MCTS) -> Any:
    assert m.root is not None
    stack = list(m.root.children)
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.children)


def test_eval_playout_uses_tanh_from_the_root_players_view() -> None:
    def evaluate(state: Any, player: int) -> float:  # X is "2 units" ahead, whatever the position
        return 2.0 if player == 0 else -2.0

    # The first 9 simulations each expand one child of the empty board (none terminal) and evaluate it at once.
    r = _mcts(playout="eval:0", evaluate=evaluate, eval_scale=2.0).search(TTT.initial_state(), SearchLimits(nodes=9))
    assert r.value == pytest.approx(math.tanh(1.0))
    r = _mcts(playout="eval:0", evaluate=evaluate, eval_scale=2.0).search("X........", SearchLimits(nodes=8))
    assert r.value == pytest.approx(-math.tanh(1.0))  # O to move: the same evaluation is bad news
    r = _mcts(playout="eval:2", evaluate=evaluate).search(TTT.initial_state(), SearchLimits(nodes=50))
    assert r.move in TTT.actions(TTT.initial_state())


def test_bad_arguments() -> None:
    with pytest.raises(SearchError):
        _mcts(playout="greedy")
    with pytest.raises(SearchError):
        _mcts(playout="eval:3")  # no evaluate
    with pytest.raises(SearchError):
        _mcts(c=-1.0)
    with pytest.raises(GameError):
        _mcts().search("XXXOO....", SearchLimits(nodes=10))  # over
    pig = Pig(target=10)
    with pytest.raises(GameError):
        _mcts(pig).search(pig.make_state(0, 0, 3, 0, pending=True), SearchLimits(nodes=10))  # chance node


# ----- Pig: chance nodes ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("own, opp, turn, player", [(8, 8, 1, 0), (1, 0, 1, 1), (0, 0, 2, 0), (5, 8, 3, 1),
                                                    (3, 4, 4, 0)])
def test_pig_value_matches_the_optimal_win_probability(own: int, opp: int, turn: int, player: int) -> None:
    """Target 10: rolling is clearly best in these positions (hold loses 0.4..0.7 of win probability); the root's
    mean value, as a win probability, is within 0.03 of the optimal policy's (value iteration, ai.pig.pig_optimal)."""
    pig = Pig(target=10)
    table = load_table(10, use_disk=False)
    s = pig.make_state(own, opp, turn, 0) if player == 0 else pig.make_state(opp, own, turn, 1)
    r = _mcts(pig, seed=5).search(s, SearchLimits(nodes=20000))
    assert r.move == "roll" and not table.holds(own, opp, turn)
    assert (r.value + 1) / 2 == pytest.approx(table.win(own, opp, turn), abs=0.03)


def test_pig_chance_outcomes_are_sampled_by_probability() -> None:
    pig = Pig(target=10)
    m = _mcts(pig, seed=3)
    m.search(pig.make_state(2, 2, 0, 0), SearchLimits(nodes=6000))  # turn total 0: roll is the only move
    assert m.root is not None and len(m.root.children) == 1
    chance = m.root.children[0]
    assert chance.kind == "chance" and chance.visits == 6000
    counts = {o: ch.visits for o, ch in chance.outcome_child.items()}
    assert sorted(counts) == [1, 2, 3, 4, 5, 6]
    assert sum(counts.values()) == 6000 - 1  # its first visit only created it
    for n in counts.values():
        assert n / 5999 == pytest.approx(1 / 6, abs=0.02)
    bust = chance.outcome_child[1]
    assert bust.player == 0 and bust.to_move == 1  # a 1 passes the turn: values keep the roller's view


# ----- stopping -------------------------------------------------------------------------------------------------
def test_cancel_returns_after_one_simulation() -> None:
    ev = threading.Event()
    ev.set()
    r = _mcts(stop_event=ev).search(TTT.initial_state(), SearchLimits(nodes=100000))
    assert r.stop_reason == "cancelled" and r.extra["simulations"] == 1
    assert r.move in TTT.actions(TTT.initial_state())


def test_tiny_time_budget_returns_a_legal_move() -> None:
    r = _mcts().search(TTT.initial_state(), SearchLimits(time_budget_s=1e-9))
    assert r.stop_reason == "time" and r.extra["simulations"] >= 1
    assert r.move in TTT.actions(TTT.initial_state())


def test_default_budget_without_limits() -> None:
    r = _mcts().search(TTT.initial_state(), SearchLimits())
    assert r.stop_reason == "simulations" and r.extra["simulations"] == 1000


# ----- MCTS-Solver ----------------------------------------------------------------------------------------------
def test_solver_proves_a_win_in_one() -> None:
    r = _mcts(solver=True).search("XX.OO....", SearchLimits(nodes=3000))
    assert (r.move, r.value, r.outcome, r.stop_reason) == (2, 1.0, "win", "proven")
    assert r.extra["simulations"] < 3000


def test_solver_proves_a_loss_against_a_double_threat() -> None:
    # O to move; X threatens 0-1-2 and 0-3-6, O has no win of its own.
    r = _mcts(solver=True).search("XX.XO...O", SearchLimits(nodes=3000))
    assert (r.value, r.outcome, r.stop_reason) == (-1.0, "loss", "proven")
    assert r.move in (2, 6)  # a loss either way: the most visited of the equally lost moves


def test_solver_proves_a_draw() -> None:
    r = _mcts(solver=True).search("XOXXOO.X.", SearchLimits(nodes=3000))  # O to move
    assert (r.value, r.outcome, r.stop_reason) == (0.0, "draw", "proven")
    assert r.move == 6  # 8 loses to X's 0-3-6
    assert all(k["proven"] is not None for k in r.extra["root_children"])


# ----- tree reuse -----------------------------------------------------------------------------------------------
def test_adopt_reuses_the_subtree_with_values_turned_to_the_new_side_to_move() -> None:
    first = _mcts(seed=4)
    r = first.search(TTT.initial_state(), SearchLimits(nodes=2000))
    assert first.root is not None
    child = next(ch for ch in first.root.children if ch.move == r.move)
    n_before, q_for_x = child.visits, child.q
    after = TTT.result(TTT.initial_state(), r.move)  # O to move
    second = _mcts(seed=5)
    assert second.adopt(first, after)
    r2 = second.search(after, SearchLimits(nodes=1))
    assert r2.extra["reused_nodes"] > 1 and r2.nodes <= 1  # only the new simulation's node counts
    assert second.root is child and child.parent is None and child.player == 1 and child.visits == n_before + 1
    assert r2.value == pytest.approx(-q_for_x, abs=2.5 / n_before)  # O's view of what X thought of it
    assert r2.depth >= 1 and r2.extra["simulations"] == 1
    # Two plies on (X's move, O's reply) is found too; an unrelated position is not.
    grand = TTT.result(after, r2.move)
    assert _mcts().adopt(second, grand)
    assert not _mcts().adopt(second, "XOXOXO...")


def test_zero_simulation_budget_still_completes_one() -> None:
    r = _mcts().search(TTT.initial_state(), SearchLimits(nodes=0))
    assert r.extra["simulations"] == 1 and r.move in TTT.actions(TTT.initial_state())
