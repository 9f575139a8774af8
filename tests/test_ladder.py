"""The difficulty presets form a ladder in each game (README "Difficulty ladder"), computed exactly.

Pig: every preset's policy is evaluated against the optimal policy and against the preset below it by
:func:`ai.pig.pig_agents.exact_match` (policy evaluation, no dice). Tic-tac-toe: the upper presets play perfectly
and draw each other, so each preset is scored against the fixed reference, a uniformly random player, by
walking the whole game tree (the random player's moves averaged), and perfect play is checked against every
possible opponent. Checkers is measured by matches only (README).
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from ai.agents.agents import make_agent
from ai.pig.pig_agents import PRESET_LADDER, exact_match, hold_rule
from ai.pig.pig_ladder import exact_ladder
from gameplay.rules.pig import HOLD, PigState
from gameplay.rules.tictactoe import TicTacToe

PRESETS = ("beginner", "easy", "medium", "hard", "expert")


# ----- Pig: the exact evaluation itself -------------------------------------------------------------------------
def _value_iteration(first: Any, second: Any, target: int, faces: int) -> tuple[float, float]:
    """The same win probabilities as :func:`exact_match`, by plain fixed-point iteration over every state."""
    a = {(i, j, k): 0.0 for i in range(target) for j in range(target) for k in range(target - i)}
    b = dict(a)

    def av(i: int, j: int, k: int) -> float:
        return 1.0 if i + k >= target else a[(i, j, k)]

    def bv(i: int, j: int, k: int) -> float:
        return 0.0 if i + k >= target else b[(i, j, k)]

    for _ in range(5000):
        change = 0.0
        for (i, j, k) in a:
            if k > 0 and first(i, j, k):
                v = bv(j, i + k, 0)
            else:
                v = (bv(j, i, 0) + sum(av(i, j, k + r) for r in range(2, faces + 1))) / faces
            change = max(change, abs(v - a[(i, j, k)]))
            a[(i, j, k)] = v
            if k > 0 and second(i, j, k):
                w = av(j, i + k, 0)
            else:
                w = (av(j, i, 0) + sum(bv(i, j, k + r) for r in range(2, faces + 1))) / faces
            change = max(change, abs(w - b[(i, j, k)]))
            b[(i, j, k)] = w
        if change < 1e-14:
            break
    return a[(0, 0, 0)], b[(0, 0, 0)]


def test_exact_match_solves_the_policy_equations_on_a_small_game() -> None:
    rng = random.Random(5)
    target, faces = 12, 4
    table_1 = {(i, j, k): rng.random() < 0.4 for i in range(target) for j in range(target) for k in range(1, target)}
    table_2 = {(i, j, k): rng.random() < 0.6 for i in range(target) for j in range(target) for k in range(1, target)}
    rules = [lambda i, j, k: table_1[(i, j, k)], lambda i, j, k: table_2[(i, j, k)],
             lambda i, j, k: k >= 3, lambda i, j, k: False]  # the last one never holds
    for first, second in ((0, 1), (1, 0), (2, 1), (1, 3), (3, 2)):
        got = exact_match(rules[first], rules[second], target, faces)
        want = _value_iteration(rules[first], rules[second], target, faces)
        assert got == pytest.approx(want, abs=1e-10), (first, second)


def test_exact_match_reproduces_the_self_play_tables_of_pig_optimal() -> None:
    from ai.pig.pig_optimal import load_table
    optimal = load_table()
    p_first = optimal.win(0, 0, 0)
    rule = hold_rule(make_agent("pig", "optimal"))
    assert exact_match(rule, rule) == pytest.approx((p_first, 1.0 - p_first), abs=1e-12)
    assert round(p_first, 6) == 0.530593
    hold20 = load_table(hold_at=20)  # pig_optimal.solve with a fixed rule: another implementation
    rule20 = hold_rule(make_agent("pig", "optimal:weights=hold20"))
    assert exact_match(rule20, rule20)[0] == pytest.approx(hold20.win(0, 0, 0), abs=1e-12)


@pytest.mark.parametrize("preset", PRESETS)
def test_hold_rule_is_the_move_the_agent_plays(preset: str) -> None:
    """The exact figures are about what the agents play: their rule is the move ``choose`` returns, and it is
    the same from either seat (exact_match assumes a policy of (own, opponent, turn total) only)."""
    agent = make_agent("pig", preset)
    rule = hold_rule(agent)
    rng = random.Random(preset)
    holds = rolls = 0
    for _ in range(40):
        own, opp = rng.randrange(99), rng.randrange(100)
        k = rng.randrange(1, min(100 - own, 35))
        for state in (PigState(own, opp, k, 0), PigState(opp, own, k, 1)):
            assert (agent.choose(state).move == HOLD) == rule(own, opp, k), (preset, state)
        holds += rule(own, opp, k)
        rolls += not rule(own, opp, k)
    assert holds and (rolls or preset == "beginner")


@pytest.mark.slow
def test_pig_presets_are_ordered_and_easy_is_a_fixed_rule() -> None:
    assert PRESET_LADDER == PRESETS
    rows = exact_ladder(presets={"easy": "easy", "expert": "expert"})
    assert rows[0]["vs_optimal"] == pytest.approx(0.2989, abs=5e-5)  # hold at 10
    assert rows[1]["vs_optimal"] == pytest.approx(0.5, abs=1e-12)  # the optimal policy against itself
    assert rows[1]["vs_below"] == pytest.approx(1.0 - rows[0]["vs_optimal"], abs=1e-12)  # zero-sum


@pytest.mark.slow
def test_pig_ladder_rises_exactly() -> None:
    """All five presets (about 40 s: the search presets are asked about 500,000 positions each)."""
    rows = exact_ladder()
    assert [r["name"] for r in rows] == list(PRESETS)
    scores = [r["vs_optimal"] for r in rows]
    assert all(lo < hi for lo, hi in zip(scores, scores[1:])), scores
    assert scores[-1] == pytest.approx(0.5, abs=1e-12)
    assert all(r["vs_below"] > 0.5 for r in rows[1:]), [r["vs_below"] for r in rows]
    # the figures quoted in ai/pig/pig_agents.py and the README
    assert scores == pytest.approx([0.0307, 0.2989, 0.4616, 0.4933, 0.5], abs=5e-5)


# ----- tic-tac-toe --------------------------------------------------------------------------------------------
TTT = TicTacToe()


def _exact_against_random(preset: str) -> tuple[float, float, float]:
    """(score, worst result as X, worst result as O): the expected score against uniform random moves (both
    seats averaged) and the result the preset guarantees against any opponent (1 win, 0.5 draw, 0 loss)."""
    agent = make_agent("tictactoe", preset)
    moves: dict[str, int] = {}

    def move(s: str) -> int:
        if s not in moves:
            moves[s] = agent.choose(s).move
        return moves[s]

    def solve(me: int) -> tuple[float, float]:
        @cache
        def value(s: str, worst: bool) -> float:
            o = TTT.outcome(s)
            if o is not None:
                return 0.5 if o.winner is None else float(o.winner == me)
            if TTT.to_move(s) == me:
                return value(TTT.successor(s, move(s)), worst)
            children = [value(TTT.successor(s, m), worst) for m in TTT.actions(s)]
            return min(children) if worst else sum(children) / len(children)
        return value(TTT.initial_state(), False), value(TTT.initial_state(), True)

    (x_score, x_worst), (o_score, o_worst) = solve(0), solve(1)
    return (x_score + o_score) / 2, x_worst, o_worst


def test_tictactoe_ladder_against_random_rises_and_the_top_is_perfect() -> None:
    exact = {p: _exact_against_random(p) for p in PRESETS}
    score = {p: exact[p][0] for p in PRESETS}
    assert score["beginner"] < score["easy"] < score["medium"], score
    assert score["medium"] == score["hard"] == score["expert"], score  # all three play perfectly
    assert [round(score[p], 4) for p in PRESETS] == [0.9643, 0.9691, 0.9712, 0.9712, 0.9712]  # README
    for p in ("medium", "hard", "expert"):
        assert exact[p][1:] == (0.5, 0.5), p  # never loses, whoever the opponent, from either seat
    for p in ("beginner", "easy"):
        assert exact[p][1] == 0.5 and exact[p][2] == 0.0, p  # can be beaten as O (it misses a fork)


def test_tictactoe_perfect_presets_draw_each_other() -> None:
    top = [make_agent("tictactoe", p) for p in ("medium", "hard", "expert")]
    for x in top:
        for o in top:
            s = TTT.initial_state()
            while TTT.outcome(s) is None:
                s = TTT.successor(s, (x, o)[TTT.to_move(s)].choose(s).move)
            assert TTT.outcome(s).winner is None


def test_tictactoe_depths_rise() -> None:
    from ai.agents.profiles import profile_for
    presets = profile_for("tictactoe").presets
    depths = [presets[p]["depth"] for p in PRESETS]
    assert depths == sorted(set(depths)), depths


# ----- Connect Four: matches over the one-ply openings ------------------------------------------------------------
def _connect4_score(upper: str, lower: str) -> float:
    """``upper``'s score against ``lower`` from each of the 7 one-ply openings, each colour once (deterministic:
    depth-limited agents; the full ladder over the 49 two-ply openings is in docs/strength.md)."""
    from gameplay.rules.referee import play_game
    game = make_agent("connect4", upper).game
    points = 0.0
    for column in range(1, 8):
        start = game.parse_position(str(column))
        for upper_seat in (0, 1):
            agents = [make_agent("connect4", lower), make_agent("connect4", lower)]
            agents[upper_seat] = make_agent("connect4", upper)
            out = play_game(game, (agents[0], agents[1]), start).outcome
            assert out is not None
            points += 0.5 if out.winner is None else float(out.winner == upper_seat)
    return points / 14


@pytest.mark.slow
def test_connect4_ladder_beginner_easy_medium() -> None:
    assert _connect4_score("easy", "beginner") > 0.5
    assert _connect4_score("medium", "easy") > 0.5


def test_connect4_presets_deepen_to_expert() -> None:
    from ai.agents.profiles import profile_for
    presets = profile_for("connect4").presets
    depths = [presets[p]["depth"] for p in PRESETS[:-1]]
    assert depths == sorted(set(depths)) and all(d % 2 == 1 for d in depths), depths
    assert presets["expert"]["book"] and "depth" not in presets["expert"]  # time-budgeted to the end
