"""MCTS over a game's compiled rules (``AgentParts.mcts_rules``) builds the same tree as over the game object.

For one seed, a search over a game's compiled rules and one over the game itself (no ``fast_rules``, the path a
recorded search takes) must give the same move, value, node and playout counts, every root child's visits and mean, and
leave the random generator in the same state (the compiled playouts draw the same numbers). The rules' own moves,
terminal tests and rewards are checked against the game's on random games.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from ai.agents.game_parts import agent_parts
from ai.connect4.connect4_mcts import Connect4Rules
from ai.kernel.core import SearchLimits
from ai.kernel.mcts import MCTS
from ai.kernel.mcts_tree import K_CHANCE, K_DECISION, K_TERMINAL, GameRules, randbelow
from ai.pig.pig_mcts import PigRules
from ai.teaching.mcts_record import MCTSRecorder
from ai.tictactoe.tictactoe_mcts import TicTacToeRules
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.connect4 import Connect4
from gameplay.rules.pig import Pig
from gameplay.rules.tictactoe import TicTacToe


def _both(game: Any, state: Any, sims: int, seed: int, solver: bool = False) -> tuple[Any, ...]:
    out = []
    for compiled in (True, False):
        rng = random.Random(seed)
        m = MCTS(game, rng=rng, solver=solver, fast_rules=fast_rules if compiled else None)
        r = m.search(state, SearchLimits(nodes=sims))
        assert r.extra["rules"] == ("compiled" if compiled else "game")
        kids = [(k["move"], k["visits"], k["q"], k["proven"]) for k in r.extra["root_children"]]
        out.append((r.move, r.value, r.outcome, r.nodes, r.depth, r.pv, r.extra["simulations"],
                    r.extra["playout_plies"], r.stop_reason, kids, rng.getstate()))
    return tuple(out)


@pytest.mark.parametrize("position, seed, solver", [("", 1, False), ("", 7, True), ("X...O....", 3, False),
                                                    ("XX.OO....", 2, True), ("XOXOX....", 5, False)])
def test_tictactoe_compiled_rules_build_the_same_tree(position: str, seed: int, solver: bool) -> None:
    g = TicTacToe()
    state = g.parse_position(position) if position else g.initial_state()
    fast, slow = _both(g, state, 2000, seed, solver)
    assert fast == slow


@pytest.mark.parametrize("position, seed", [("", 1), ("4453", 2), ("44444", 3), ("334455", 4)])
def test_connect4_compiled_rules_build_the_same_tree(position: str, seed: int) -> None:
    g = Connect4()
    fast, slow = _both(g, g.parse_position(position), 600, seed)
    assert fast == slow


@pytest.mark.parametrize("position, seed", [("0,0,0,1", 1), ("40,60,7,2", 2), ("95,90,3,1", 3)])
def test_pig_compiled_rules_build_the_same_tree(position: str, seed: int) -> None:
    g = Pig()
    fast, slow = _both(g, g.parse_position(position), 400, seed)
    assert fast == slow


def test_pig_small_target_with_the_solver() -> None:
    g = Pig(target=10, faces=4)
    fast, slow = _both(g, g.parse_position("5,6,2,1"), 1500, 9, solver=True)
    assert fast == slow


def fast_rules(game: Any) -> Any:
    """The game's compiled rules as its agents give them to the search (``AgentParts.mcts_rules``), or ``None``."""
    rules = agent_parts(game.name).mcts_rules
    return None if rules is None else rules(game)


def test_fast_rules_are_found_for_the_games_that_have_them() -> None:
    assert isinstance(fast_rules(TicTacToe()), TicTacToeRules)
    assert isinstance(fast_rules(Connect4()), Connect4Rules)
    assert isinstance(fast_rules(Pig()), PigRules)
    assert fast_rules(Pig(target=2_000_000)) is None  # does not fit the packed state: the game object is used
    assert fast_rules(Checkers()) is None
    r = MCTS(Checkers(), rng=random.Random(1), fast_rules=fast_rules).search(Checkers().initial_state(),
                                                                             SearchLimits(nodes=20))
    assert r.extra["rules"] == "game"


def _random_walk(game: Any, rules: Any, seed: int) -> None:
    """Play a random game; at every position the rules agree with the game on kind, mover, moves, successor
    and reward (through pack/unpack)."""
    rng = random.Random(seed)
    state = game.initial_state()
    while True:
        packed = rules.pack(state)
        assert rules.unpack(packed) == state
        kind = rules.kind(packed)
        if game.is_terminal(state):
            assert kind == K_TERMINAL
            for p in (0, 1):
                u = game.utility(state, p)
                assert rules.reward(packed, p) == (1.0 if u > 0 else (-1.0 if u < 0 else 0.0))
            return
        if game.is_chance(state):
            assert kind == K_CHANCE
            move = rng.choice([o for o, _ in game.chance_outcomes(state)])
        else:
            assert kind == K_DECISION
            assert rules.to_move(packed) == game.to_move(state)
            assert rules.actions(packed) == list(game.actions(state))
            move = rng.choice(list(game.actions(state)))
        state = game.successor(state, move)
        assert rules.successor(packed, move) == rules.pack(state)


@pytest.mark.parametrize("seed", range(8))
def test_rules_agree_with_the_game_on_random_games(seed: int) -> None:
    _random_walk(TicTacToe(), TicTacToeRules(), seed)
    _random_walk(Connect4(), Connect4Rules(), seed)
    _random_walk(Pig(target=30), PigRules(30, 6), seed)


@pytest.mark.parametrize("game, rules, state", [
    (TicTacToe(), TicTacToeRules(), "X...O...."), (Connect4(), Connect4Rules(), "4453"),
    (Pig(), PigRules(100, 6), "10,20,0,2")])
def test_compiled_playouts_draw_what_the_generic_playout_draws(game: Any, rules: Any, state: str) -> None:
    s = game.parse_position(state)
    slow = GameRules(game)
    for seed in range(20):
        a, b = random.Random(seed), random.Random(seed)
        ra = rules.playout(rules.pack(s), a, 0)
        rb = slow.playout(s, b, 0)
        assert (ra, rules.playout_plies, rules.playout_end) == (rb, slow.playout_plies, slow.playout_end)
        assert rules.unpack(rules.playout_state) == slow.playout_state
        assert a.getstate() == b.getstate()


def test_randbelow_is_randrange() -> None:
    a, b = random.Random(11), random.Random(11)
    for n in (1, 2, 3, 5, 7, 9, 64, 1000):
        for _ in range(50):
            assert randbelow(a, n) == b.randrange(n)
    with pytest.raises(ValueError):
        randbelow(a, 0)


def test_recorded_search_counts_equal_the_compiled_search() -> None:
    """A recorded search runs over the game object (the recorder sees the game's positions); its picture's counts are
    those of the unrecorded search over the compiled rules with the same seed."""
    g = Connect4()
    s = g.parse_position("44")
    plain = MCTS(g, rng=random.Random(4), fast_rules=fast_rules).search(s, SearchLimits(nodes=300))
    rec = MCTSRecorder(g, max_simulations=300)
    recorded = MCTS(g, rng=random.Random(4), fast_rules=fast_rules).search(s, SearchLimits(nodes=300), None, rec)
    assert plain.extra["rules"] == "compiled" and recorded.extra["rules"] == "game"
    trace = rec.snapshot()
    final = trace.stats_at(len(trace.simulations))  # the replay of every recorded step
    kids = trace.children(0)
    assert [final[0][k] for k in kids] == [k["visits"] for k in plain.extra["root_children"]]
    assert final[0][0] == plain.extra["simulations"] == 300
    assert (recorded.move, recorded.value, recorded.nodes) == (plain.move, plain.value, plain.nodes)


def test_adopting_a_compiled_tree_into_a_recorded_search() -> None:
    g = Connect4()
    first = MCTS(g, rng=random.Random(2), fast_rules=fast_rules)
    r = first.search(g.initial_state(), SearchLimits(nodes=400))
    after = g.result(g.initial_state(), r.move)
    second = MCTS(g, rng=random.Random(3), fast_rules=fast_rules)
    assert second.adopt(first, after)
    rec = MCTSRecorder(g)
    r2 = second.search(after, SearchLimits(nodes=5), None, rec)
    assert r2.extra["reused_nodes"] > 1 and r2.extra["rules"] == "game"
    assert second.root is not None and second.root.state == after
