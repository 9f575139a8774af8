"""Expectiminimax (ai.kernel.expectimax): exact values on small explicit chance trees, OpenSpiel's Pig test,
refusals."""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai.kernel import timeman
from ai.kernel.expectimax import Expectimax, expectimax, iterative_expectimax
from ai.kernel.search import SearchError, SearchInfo, SearchLimits
from ai.pig.pig_agents import WEIGHT_PRESETS, PigEvaluation, score_difference
from gameplay.rules.base import GameError, GameTraits, Outcome
from gameplay.rules.pig import Pig
from gameplay.rules.tictactoe import TicTacToe

# ----- a tiny explicit game tree with chance nodes ------------------------------------------------------------
# A node is ("leaf", u) with u the utility for player 0, ("dec", player, h, children) with h the heuristic value
# for player 0 used at the depth limit, or ("chance", ((p, child), ...)). Nodes are tuples, so they are states.
Node = tuple[Any, ...]


class TreeGame:
    """An explicit tree as a :class:`gameplay.rules.base.Game` (moves are child indices)."""

    name = "tree"
    traits = GameTraits(stochastic=True)
    player_names = ("MAX", "MIN")

    def __init__(self, root: Node) -> None:
        self.root = root

    def initial_state(self) -> Node:
        return self.root

    def to_move(self, s: Node) -> int:
        return int(s[1]) if s[0] == "dec" else 0

    def actions(self, s: Node) -> Sequence[int]:
        return tuple(range(len(s[3]))) if s[0] == "dec" else ()

    def result(self, s: Node, m: int) -> Node:
        if s[0] == "chance":
            return s[1][m][1]  # type: ignore[no-any-return]
        return s[3][m]  # type: ignore[no-any-return]

    successor = result

    def is_terminal(self, s: Node) -> bool:
        return bool(s[0] == "leaf")

    def outcome(self, s: Node) -> Outcome | None:
        return None

    def utility(self, s: Node, player: int) -> float:
        u = float(s[1])
        return u if player == 0 else -u

    def is_chance(self, s: Node) -> bool:
        return bool(s[0] == "chance")

    def chance_outcomes(self, s: Node) -> Sequence[tuple[int, float]]:
        return [(i, p) for i, (p, _c) in enumerate(s[1])]


def heuristic(s: Node, player: int) -> float:
    h = float(s[2])
    return h if player == 0 else -h


def brute(s: Node, depth: int, root: int) -> float:
    """Expectiminimax by the definition, no memo: max where the root player moves, min elsewhere."""
    sign = 1.0 if root == 0 else -1.0
    if s[0] == "leaf":
        return sign * float(s[1])
    if s[0] == "chance":
        return float(sum(p * brute(c, depth, root) for p, c in s[1]))
    if depth == 0:
        return sign * float(s[2])
    vals = [brute(c, depth - 1, root) for c in s[3]]
    return max(vals) if s[1] == root else min(vals)


values = st.integers(-9, 9)


def trees(max_leaves: int = 30) -> st.SearchStrategy[Node]:
    def extend(children: st.SearchStrategy[Node]) -> st.SearchStrategy[Node]:
        dec = st.tuples(st.just("dec"), st.integers(0, 1), values,
                        st.lists(children, min_size=1, max_size=3).map(tuple))
        chance = st.lists(st.tuples(st.integers(1, 4), children), min_size=1, max_size=3).map(
            lambda xs: ("chance", tuple((w / sum(x[0] for x in xs), c) for w, c in xs)))
        return st.one_of(dec, chance)
    leaf = values.map(lambda v: ("leaf", v))
    return st.recursive(leaf, extend, max_leaves=max_leaves)


def decision_root(player: int, kids: tuple[Node, ...]) -> Node:
    return ("dec", player, 0, kids)


@settings(max_examples=150, deadline=None)
@given(st.lists(trees(), min_size=1, max_size=3).map(tuple), st.integers(0, 1), st.integers(1, 6))
def test_expectimax_equals_brute_force_on_random_trees(kids: tuple[Node, ...], root_player: int,
                                                       depth: int) -> None:
    root = decision_root(root_player, kids)
    game = TreeGame(root)
    want = max(brute(c, depth - 1, root_player) for c in kids)
    for memo in (True, False):
        v, m = expectimax(game, root, depth, heuristic, memo=memo)  # type: ignore[arg-type]
        assert v == pytest.approx(want, abs=1e-9)
        assert brute(kids[m], depth - 1, root_player) == pytest.approx(want, abs=1e-9)


def test_textbook_chance_node_value() -> None:
    # CLI.md's Tree Lab example: {"chance": [[0.5, 8], [1/3, 24], [1/6, -12]]} has expectimax value 10.
    chance = ("chance", ((0.5, ("leaf", 8)), (1 / 3, ("leaf", 24)), (1 / 6, ("leaf", -12))))
    root = decision_root(0, (chance, ("leaf", 9)))
    v, m = expectimax(TreeGame(root), root, 3, heuristic)  # type: ignore[arg-type]
    assert v == pytest.approx(10.0) and m == 0


def test_max_min_by_who_moves_not_by_depth_parity() -> None:
    # Player 0 decides twice in a row: both levels must maximise (depth parity would make the second one MIN).
    inner = ("dec", 0, 0, (("leaf", 1), ("leaf", 7)))
    root = decision_root(0, (inner, ("leaf", 5)))
    v, m = expectimax(TreeGame(root), root, 4, heuristic)  # type: ignore[arg-type]
    assert (v, m) == (7.0, 0)
    # Seen from player 1 at the root, the same two-in-a-row player 0 node is a MIN node.
    root1 = decision_root(1, (inner, ("leaf", -5)))
    v1, m1 = expectimax(TreeGame(root1), root1, 4, heuristic)  # type: ignore[arg-type]
    assert (v1, m1) == (5.0, 1)  # player 0 would pick 7 (-7 for player 1); the leaf -5 is 5 for player 1


def test_chance_nodes_do_not_count_towards_depth() -> None:
    below = ("dec", 0, 100, (("leaf", 3), ("leaf", 4)))
    chance = ("chance", ((1.0, below),))
    root = decision_root(0, (chance,))
    # Depth 1: the root decision, then the chance node is expanded and `below` is evaluated (h = 100).
    assert expectimax(TreeGame(root), root, 1, heuristic)[0] == 100  # type: ignore[arg-type]
    assert expectimax(TreeGame(root), root, 2, heuristic)[0] == 4  # type: ignore[arg-type]


# ----- Pig -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("faces,want", [(3, 5 / 3), (6, 20 / 6)])
def test_openspiel_pig_value_in_score_points(faces: int, want: float) -> None:
    # OpenSpiel's expectiminimax test: from 0-0, 2 decisions deep, evaluation = banked score difference.
    game = Pig(100, faces)
    value, move = expectimax(game, game.initial_state(), 2, score_difference)
    assert value == pytest.approx(want) and move == "roll"


def test_minimax_treats_the_die_as_the_root_players_adversary() -> None:
    game = Pig()
    ev = PigEvaluation(WEIGHT_PRESETS["default"])
    s = game.parse_position("30,30,5,1")
    v_min, m_min = expectimax(game, s, 3, ev, chance="adversary")
    v_exp, m_exp = expectimax(game, s, 3, ev)
    assert m_min == "hold" and m_exp == "roll"  # a 1 is always possible: the adversary never lets a roll pay
    assert v_min < v_exp
    # Against the opponent's rolls the die helps the opponent: the value after holding is the opponent's best
    # case, so it is at most the expectimax value of the same hold.
    sh = game.result(s, "hold")
    hold_min = Expectimax(game, ev, chance="adversary")
    hold_min.root_player = 0
    hold_exp = Expectimax(game, ev)
    hold_exp.root_player = 0
    assert hold_min.value(sh, 2) <= hold_exp.value(sh, 2)


def test_expectimax_refuses_deterministic_games() -> None:
    with pytest.raises(SearchError, match="expectimax is for games with chance nodes"):
        Expectimax(TicTacToe(), lambda s, p: 0.0)


def test_root_chance_node_and_finished_game_are_refused() -> None:
    game = Pig()
    s = Expectimax(game, score_difference)
    with pytest.raises(GameError, match="chance node"):
        iterative_expectimax(game, game.parse_position("0,0,4,1,r"), s, SearchLimits(depth=2))
    with pytest.raises(GameError, match="over"):
        iterative_expectimax(game, game.parse_position("100,3,0,1"), s, SearchLimits(depth=2))


def test_iterative_deepening_reports_and_returns_a_legal_move() -> None:
    game = Pig()
    ev = PigEvaluation(WEIGHT_PRESETS["default"])
    infos: list[SearchInfo] = []
    state = game.parse_position("20,35,12,2")
    res = iterative_expectimax(game, state, Expectimax(game, ev), SearchLimits(depth=5), infos.append)
    assert [i.depth for i in infos] == [1, 2, 3, 4, 5] and res.depth == 5
    assert res.move in game.actions(state) and res.stop_reason == "depth"
    assert set(res.extra["values"]) == {"roll", "hold"} and res.value == max(res.extra["values"].values())
    assert res.extra["win_probability"] == pytest.approx((res.value + 1) / 2)
    assert -1.0 <= res.value <= 1.0 and res.nodes > 0 and res.extra["memo_hits"] > 0
    # Memo on or off: the same values.
    res2 = iterative_expectimax(game, state, Expectimax(game, ev, memo=False), SearchLimits(depth=5))
    assert res2.value == pytest.approx(res.value) and res2.nodes > res.nodes


def test_time_budget_and_cancel_still_give_a_move(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Pig()
    ev = PigEvaluation(WEIGHT_PRESETS["default"])
    state = game.parse_position("50,50,10,1")
    timed = Expectimax(game, ev)
    # the budget's clock counts nodes (a microsecond each), so the budget ends the search at the same node on any
    # machine (ai.kernel.timeman.CLOCKS: the clock a search reads)
    monkeypatch.setitem(timeman.CLOCKS, "nodes", lambda: timed.stats.nodes * 1e-6)
    res = iterative_expectimax(game, state, timed, SearchLimits(time_budget_s=0.05, clock="nodes"))
    assert res.move in ("roll", "hold") and res.depth >= 1 and res.stop_reason == "time"
    assert res.extra["clock_s"] < 1.0  # stopped by the budget, on its clock
    stop = threading.Event()
    stop.set()
    res = iterative_expectimax(game, state, Expectimax(game, ev, stop_event=stop), SearchLimits(depth=30))
    assert res.move in ("roll", "hold") and res.depth == 1 and res.stop_reason == "cancelled"
    res = iterative_expectimax(game, state, Expectimax(game, ev), SearchLimits(nodes=500))
    assert res.move in ("roll", "hold") and res.stop_reason == "nodes"


def test_exact_trees_stop_as_proven() -> None:
    chance = ("chance", ((0.25, ("leaf", 4)), (0.75, ("leaf", 0))))
    root = decision_root(0, (chance, ("leaf", 2)))
    game = TreeGame(root)
    res = iterative_expectimax(game, root, Expectimax(game, heuristic),  # type: ignore[arg-type]
                               SearchLimits(), win_probability=False)
    assert res.stop_reason == "proven" and res.value == 2.0 and res.move == 1
    assert "win_probability" not in res.extra and not math.isnan(res.value)
