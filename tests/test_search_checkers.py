"""Checkers search: minimax = alpha-beta = ordered alpha-beta with a table at equal depth; ordering cuts nodes;
stop-scan (an interrupted iterative deepening always answers with a legal move from a completed depth)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai.agents.agents import make_agent
from ai.checkers.checkers_bench import BENCH_POSITIONS
from ai.checkers.checkers_eval import WEIGHT_PRESETS, CheckersEvaluation
from ai.kernel.search import Searcher, SearchLimits, SearchOptions, iterative_deepening
from ai.kernel.tt import TranspositionTable
from gameplay.rules.checkers.checkers import Checkers

G = Checkers()
EVAL = CheckersEvaluation(WEIGHT_PRESETS["default"])


def value(state: object, depth: int, *, pruning: bool, ordering: bool, tt: bool, quiescence: bool
          ) -> tuple[float, int]:
    s = Searcher(G, EVAL, SearchOptions(pruning=pruning, ordering=ordering, tt=bool(tt), quiescence=quiescence))
    _, v, _ = s.search_root(state, depth)
    return v, s.stats.nodes


@pytest.mark.parametrize("fen", BENCH_POSITIONS[:6])
@pytest.mark.parametrize("quiescence", [False, True])
def test_equal_values_at_equal_depth(fen: str, quiescence: bool) -> None:
    state = G.parse_position(fen)
    depth = 4
    v_mm, n_mm = value(state, depth, pruning=False, ordering=False, tt=False, quiescence=quiescence)
    v_ab, n_ab = value(state, depth, pruning=True, ordering=False, tt=False, quiescence=quiescence)
    v_ord, n_ord = value(state, depth, pruning=True, ordering=True, tt=False, quiescence=quiescence)
    assert v_mm == v_ab == v_ord
    assert n_ab <= n_mm


def test_ordering_and_table_cut_the_nodes() -> None:
    totals = {"plain": 0, "ordered": 0, "ordered_tt": 0, "minimax": 0}
    for fen in BENCH_POSITIONS[:4]:
        st_ = G.parse_position(fen)
        totals["minimax"] += value(st_, 5, pruning=False, ordering=False, tt=False, quiescence=False)[1]
        totals["plain"] += value(st_, 5, pruning=True, ordering=False, tt=False, quiescence=False)[1]
        totals["ordered"] += value(st_, 5, pruning=True, ordering=True, tt=False, quiescence=False)[1]
        totals["ordered_tt"] += value(st_, 5, pruning=True, ordering=True, tt=True, quiescence=False)[1]
    assert totals["ordered"] < totals["plain"] < totals["minimax"]
    assert totals["ordered_tt"] <= totals["ordered"]


def _random_position(seed: int, plies: int) -> object:
    rng = random.Random(seed)
    s = G.initial_state()
    for _ in range(plies):
        moves = G.actions(s)
        if not moves:
            break
        s = G.result(s, rng.choice(moves))
    return s


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 40), st.integers(1, 4))
def test_random_positions_same_value(seed: int, plies: int, depth: int) -> None:
    s = _random_position(seed, plies)
    if G.is_terminal(s):
        return
    ref = value(s, depth, pruning=False, ordering=False, tt=False, quiescence=False)[0]
    assert value(s, depth, pruning=True, ordering=False, tt=False, quiescence=False)[0] == ref
    assert value(s, depth, pruning=True, ordering=True, tt=False, quiescence=False)[0] == ref
    if not s.kings:  # no king, no repetition inside the search: the table must agree exactly
        assert value(s, depth, pruning=True, ordering=True, tt=True, quiescence=False)[0] == ref


@pytest.mark.parametrize("fen", [BENCH_POSITIONS[0], BENCH_POSITIONS[3]])
def test_stop_scan(fen: str) -> None:
    """Interrupt iterative deepening at every node budget in a range: the move is legal and is exactly the
    move of an uninterrupted search to the depth it reports (so it comes from a completed iteration)."""
    state = G.parse_position(fen)
    legal = G.actions(state)
    agent = make_agent("checkers", "alphabeta")
    by_depth: dict[int, object] = {}
    for budget in range(1, 3000, 37):
        searcher = agent.make_searcher()  # type: ignore[attr-defined]
        res = iterative_deepening(G, state, searcher, SearchLimits(nodes=budget))
        assert res.move in legal
        assert res.depth >= 1
        if res.depth not in by_depth:
            ref = iterative_deepening(G, state, agent.make_searcher(),  # type: ignore[attr-defined]
                                      SearchLimits(depth=res.depth))
            by_depth[res.depth] = ref.move
        assert res.move == by_depth[res.depth]
    assert len(by_depth) >= 3


def test_time_budget_always_answers_with_a_legal_move() -> None:
    for fen in BENCH_POSITIONS:
        state = G.parse_position(fen)
        res = make_agent("checkers", "alphabeta:time=0.001").choose(state)
        assert res.move in G.actions(state) and res.depth >= 1


def test_forced_captures_and_wins_are_found() -> None:
    s = G.parse_position("B:W11,12,13,19,22,27,28,30:B2,3,6,7,10")
    res = make_agent("checkers", "expert").choose(s)
    assert G.format_move(s, res.move) == "7x16x23x32"
    lost = G.parse_position("W:W21:B14,17")
    assert G.is_terminal(lost)


def test_the_search_never_changes_the_state() -> None:
    s = G.parse_position(BENCH_POSITIONS[3])
    before = (s.black, s.white, s.kings, s.turn, s.quiet, s.history, s.key)
    make_agent("checkers", "alphabeta:depth=6").choose(s)
    assert (s.black, s.white, s.kings, s.turn, s.quiet, s.history, s.key) == before


def test_textbook_weights_are_the_course_evaluation() -> None:
    ev = CheckersEvaluation(WEIGHT_PRESETS["textbook"])
    s = G.parse_position("B:WK1,K2,13,14:BK9,10,11")  # Black: 1 king, 2 men; White: 2 kings, 2 men
    assert ev(s, 0) == 5 * (1 - 2) + (2 - 2)
    assert ev(s, 1) == -ev(s, 0)


def test_expectimax_is_refused_for_checkers() -> None:
    from ai.agents.agent_base import AgentError
    with pytest.raises(AgentError, match="chance"):
        make_agent("checkers", "expectimax")


def test_transposition_table_memory_is_bounded() -> None:
    s = Searcher(G, EVAL, SearchOptions(tt=True), table=TranspositionTable(500))
    s.search_root(G.parse_position(BENCH_POSITIONS[3]), 6)
    assert s.tt is not None and 0 < len(s.tt) <= 500
