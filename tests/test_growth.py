"""Tree growth data (issue 15): the counts equal ``analyze --json``'s, the branching factor is measured from them."""

from __future__ import annotations

import json
import random
import threading

import pytest

from ai.kernel.core import SearchError
from ai.teaching.growth import (
    GROWTH_SERIES,
    TREE_SERIES,
    GrowthCancelled,
    measure_growth,
    random_tree_spec,
    tree_growth,
)
from ai.teaching.treelab import count_tree_nodes, parse_tree_agent, search_tree
from gameplay.cli import run
from gameplay.rules.base import GameError
from gameplay.rules.perft import perft
from gameplay.rules.registry import make_game
from gameplay.rules.trees import parse_tree

DEPTH = 6
"""Tic-tac-toe from the empty board to 6 plies: every series in about 2 s (minimax to 9 takes about 20 s)."""


@pytest.fixture(scope="module")
def growth():  # type: ignore[no-untyped-def]
    return measure_growth("tictactoe", max_depth=DEPTH, mcts=True, simulations=(10, 100))


def analyze(capsys: pytest.CaptureFixture[str], spec: str) -> dict:  # type: ignore[type-arg]
    assert run(["analyze", "tictactoe", "--agent", spec, "--json", "--quiet"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


@pytest.mark.slow
def test_counts_equal_analyze_for_every_search_and_depth(growth, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    assert [s.label for s in growth.series] == [label for label, _ in GROWTH_SERIES]
    for s, (_, template) in zip(growth.series, GROWTH_SERIES):
        assert s.depths == tuple(range(1, DEPTH + 1)), s.label
        for d, nodes, alone in zip(s.depths, s.nodes, s.iteration_nodes):
            obj = analyze(capsys, template.format(d=d))
            # analyze's nodes include the shallower iterations; its last iteration is the depth-d search alone
            assert (obj["depth"], obj["nodes"], obj["iterations"][-1]["nodes"]) == (d, nodes, alone), (s.label, d)
        assert s.nodes == tuple(sum(s.iteration_nodes[:k + 1]) for k in range(DEPTH))
        assert all(t >= 0 for t in s.seconds) and not s.note


def test_minimax_counts_every_position_and_gives_the_branching_factor(growth) -> None:  # type: ignore[no-untyped-def]
    game = make_game("tictactoe")
    assert growth.level_counts == tuple(perft(game, game.initial_state(), k) for k in range(DEPTH + 1))
    assert growth.level_counts[:4] == (1, 9, 72, 504)
    assert growth.branching_depth == DEPTH
    assert growth.branching == pytest.approx(growth.level_counts[-1] ** (1 / DEPTH))
    mm, plain, ordered, table = (s.nodes for s in growth.series)
    assert all(a > b for a, b in zip(mm[2:], plain[2:]))  # alpha-beta prunes from depth 3 on
    assert table[-1] <= ordered[-1] < plain[-1]


def test_mcts_points_are_its_tree_for_each_budget(growth, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    m = growth.mcts
    assert m is not None and m.simulations == (10, 100)
    obj = analyze(capsys, "mcts:simulations=100,seed=1")
    assert (m.depths[-1], m.nodes[-1]) == (obj["depth"], obj["nodes"])


def test_node_budget_ends_a_series_with_a_note() -> None:
    g = measure_growth("checkers", max_depth=8, mcts=False, node_budget=3000)
    mm = g.series[0]
    assert mm.depths[-1] < 8 and "would pass 3,000 nodes" in mm.note
    assert mm.iteration_nodes[-1] <= 3000 * 10


def test_bad_requests_are_game_errors() -> None:
    with pytest.raises(GameError, match="dice"):
        measure_growth("pig")
    with pytest.raises(GameError, match="over"):
        measure_growth("tictactoe", make_game("tictactoe").parse_position("XXXOO...."))
    with pytest.raises(GameError, match="from 1 to 30"):
        measure_growth("tictactoe", max_depth=0)


def test_cancel_raises() -> None:
    stop = threading.Event()
    stop.set()
    with pytest.raises(GrowthCancelled):
        measure_growth("tictactoe", max_depth=4, stop=stop)


def test_tree_growth_on_random_trees() -> None:
    g = tree_growth(3, max_depth=5, trees=4, seed=2)
    mm, plain, ordered = g.series
    assert mm.nodes == tuple((3 ** (d + 1) - 1) // 2 for d in range(1, 6))  # minimax visits the whole tree
    assert all(p <= m for p, m in zip(plain.nodes, mm.nodes)) and plain.nodes[-1] < mm.nodes[-1]
    assert g.branching == 3 and g.mcts is None
    assert len(ordered.nodes) == 5
    assert tree_growth(3, max_depth=5, trees=4, seed=2).series[1].nodes == plain.nodes  # seeded: repeatable


@pytest.mark.parametrize("spec", [s for _, s in TREE_SERIES] + ["alphabeta:prune=gt"])
def test_tree_counts_without_recording_are_the_recorded_searches_counts(spec: str) -> None:
    """count_tree_nodes (the growth's counts) is search_tree's search without the recorder: the same nodes."""
    rng = random.Random(5)
    for b, d in ((2, 6), (3, 5), (4, 3)):
        root = parse_tree(random_tree_spec(b, d, rng))
        settings = parse_tree_agent(spec)
        assert count_tree_nodes(root, settings) == search_tree(root, settings).nodes


def test_tree_counts_without_recording_refuse_what_they_cannot_count() -> None:
    settings = parse_tree_agent("minimax")
    with pytest.raises(SearchError, match="single leaf"):
        count_tree_nodes(parse_tree(7), settings)
    with pytest.raises(SearchError, match="minimax and alphabeta"):
        count_tree_nodes(parse_tree([[1, 2], [3, 4]]), parse_tree_agent("expectimax"))
