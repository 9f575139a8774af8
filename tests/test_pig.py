"""Pig: the rules and notation, the exact solution (Neller and Presser 2004), and the agent profile."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ai.agents.agent_base import AgentError
from ai.agents.agents import parse_settings
from ai.pig.pig_agents import make_profile
from ai.pig.pig_optimal import (
    PigTable,
    cache_path,
    clear_memory_cache,
    load_table,
    solve,
    state_count,
)
from gameplay.rules.base import GameError, IllegalMoveError, MoveError, PositionError
from gameplay.rules.pig import Pig, PigState
from gameplay.rules.referee import draw_outcome, play_game, sample_chance

GAME = Pig()


@pytest.fixture(scope="session")
def table100() -> PigTable:
    """The optimal table for target 100, six faces, solved here (not read from the disk cache)."""
    t0 = time.perf_counter()
    table = solve(100, 6)
    print(f"\nvalue iteration, target 100: {time.perf_counter() - t0:.2f} s")
    return table


# ----- rules -----------------------------------------------------------------------------------------------------
def test_start_and_turn_mechanics() -> None:
    s = GAME.initial_state()
    assert GAME.format_position(s) == "0,0,0,1" and GAME.actions(s) == ("roll",)
    r = GAME.result(s, "roll")
    assert GAME.is_chance(r) and GAME.format_position(r) == "0,0,0,1,r" and GAME.actions(r) == ()
    s = GAME.result(r, 4)
    assert GAME.format_position(s) == "0,0,4,1" and GAME.actions(s) == ("roll", "hold")
    # a rolled 1 loses the turn total and passes the turn
    assert GAME.format_position(GAME.result(GAME.result(s, "roll"), 1)) == "0,0,0,2"
    # hold banks and passes
    held = GAME.result(s, "hold")
    assert GAME.format_position(held) == "4,0,0,2" and GAME.to_move(held) == 1


def test_a_roll_that_reaches_the_target_ends_the_game_at_once() -> None:
    s = GAME.parse_position("40,95,3,2,r")
    end = GAME.result(s, 2)
    assert GAME.is_terminal(end) and GAME.format_position(end) == "40,100,0,2"
    assert GAME.outcome(end) is not None and GAME.outcome(end).winner == 1  # type: ignore[union-attr]
    assert GAME.utility(end, 1) == 1.0 and GAME.utility(end, 0) == -1.0
    assert GAME.actions(end) == ()
    # a position already at the target is no position a game reaches (it ended with the total banked): refused,
    # the message naming the finished position (tests/test_real_files.py checks the range and the round trip)
    with pytest.raises(PositionError, match="written 100,40,0,1"):
        GAME.parse_position("95,40,5,1")


@pytest.mark.parametrize("pos,move", [("0,0,0,1", "hold"), ("0,0,5,1", 3), ("0,0,5,1,r", "roll"),
                                      ("0,0,5,1,r", 7), ("0,0,5,1,r", 0), ("0,0,5,1,r", True),
                                      ("100,0,0,1", "roll"), ("0,0,5,1", "pass")])
def test_illegal_moves_raise(pos: str, move: object) -> None:
    with pytest.raises(IllegalMoveError):
        GAME.result(GAME.parse_position(pos), move)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["", "0,0,0", "0,0,0,3", "0,0,0,1,x", "a,0,0,1", "-1,0,0,1", "100,100,0,1",
                                  "100,0,5,1", "0,0,0,1,r,r", "1.5,0,0,1", "97,0,4,1,r"])
def test_bad_positions_raise_position_error(text: str) -> None:
    with pytest.raises(PositionError):
        GAME.parse_position(text)


def test_moves_notation_round_trip() -> None:
    s = GAME.parse_position("10,20,6,2")
    assert GAME.parse_move(s, " Roll ") == "roll" and GAME.parse_move(s, "h") == "hold"
    c = GAME.parse_position("10,20,6,2,r")
    assert GAME.parse_move(c, "die=3") == 3 and GAME.parse_move(c, "5") == 5
    assert GAME.format_move(c, 3) == "die=3" and GAME.format_move(s, "hold") == "hold"
    for bad_state, text in [(s, "die=3"), (c, "roll"), (c, "die=7"), (GAME.initial_state(), "hold"), (s, "x")]:
        with pytest.raises(MoveError):
            GAME.parse_move(bad_state, text)


states = st.builds(lambda a, b, t, p: PigState(a, b, t, p, True), st.integers(0, 99), st.integers(0, 99),
                   st.integers(0, 30), st.integers(0, 1))


@given(states, st.integers(2, 12))
def test_chance_nodes_list_every_face_once_with_equal_probability(s: PigState, faces: int) -> None:
    game = Pig(100, faces)
    outs = game.chance_outcomes(s)
    assert [o for o, _ in outs] == list(range(1, faces + 1))
    assert all(p == pytest.approx(1 / faces) for _, p in outs)
    assert sum(p for _, p in outs) == pytest.approx(1.0)


@given(st.integers(0, 120), st.integers(0, 99), st.integers(0, 40), st.integers(0, 1), st.booleans())
def test_position_round_trip(a: int, b: int, t: int, p: int, pending: bool) -> None:
    text = f"{a},{b},{t},{p + 1}" + (",r" if pending else "")
    own = a if p == 0 else b
    try:
        s = GAME.parse_position(text)
    except PositionError:
        # only a position no game reaches is refused: a finished game with a turn total or a roll, or a winning
        # score above 105 (99 and a roll of 6), or a game going on whose total already reached the target
        assert ((a >= GAME.target and (t or pending)) or a > GAME.target - 1 + GAME.faces
                or (a < GAME.target and own + t >= GAME.target)), text
        return
    assert GAME.format_position(s) == text  # written back as given (it was "500,0,0,1" for "0,0,500,1")


def test_referee_games_are_reproducible_with_a_seed() -> None:
    from ai.agents.agents import make_agent
    agents = (make_agent("pig", "random:seed=1"), make_agent("pig", "random:seed=2"))
    a = play_game(GAME, agents, rng=random.Random(5))
    agents = (make_agent("pig", "random:seed=1"), make_agent("pig", "random:seed=2"))
    b = play_game(GAME, agents, rng=random.Random(5))
    assert a.moves == b.moves and a.outcome is not None
    c = GAME.parse_position("0,0,4,1,r")
    assert sample_chance(GAME, c, random.Random(3)) in range(1, 7)


def _cumulative_draw(outcomes: list[tuple[int, float]], rng: random.Random) -> int:
    """The hand-written draw ``random.choices`` replaced (issue 24): the first outcome whose running sum of
    probabilities exceeds one ``rng.random()``."""
    r, acc = rng.random(), 0.0
    for o, p in outcomes:
        acc += p
        if r < acc:
            return o
    return outcomes[-1][0]


@pytest.mark.parametrize("probs", [[1 / f] * f for f in (2, 3, 6, 7, 9, 19)] + [[0.1, 0.0, 0.6, 0.3], [0.5, 0.5, 0.0]])
def test_the_seeded_draw_is_the_one_the_cumulative_loop_gave(probs: list[float]) -> None:
    """Seeded dice keep their sequence: every recorded game, golden transcript and seeded match plays as before
    (whether the probabilities' float sum is 1, just below or just above it; a zero-probability face never
    comes up)."""
    outcomes = list(enumerate(probs))
    for seed in range(20):
        old, new = random.Random(seed), random.Random(seed)
        want = [_cumulative_draw(outcomes, old) for _ in range(2000)]
        assert [draw_outcome(outcomes, new) for _ in range(2000)] == want
        assert old.random() == new.random()  # one number consumed per draw, as before
        assert all(probs[o] > 0 for o in want)


# ----- the exact solution ------------------------------------------------------------------------------------
def test_optimal_first_player_win_probability(table100: PigTable) -> None:
    assert round(table100.win(0, 0, 0), 6) == 0.530593  # Neller and Presser 2004
    assert table100.state_count() == state_count(100) == 505_000


def test_bellman_equations_hold(table100: PigTable) -> None:
    rng = random.Random(2)
    for _ in range(3000):
        i, j = rng.randrange(100), rng.randrange(100)
        k = rng.randrange(100 - i)
        best = table100.roll_value(i, j, k) if k == 0 else max(table100.roll_value(i, j, k),
                                                               table100.hold_value(i, j, k))
        assert table100.win(i, j, k) == pytest.approx(best, abs=1e-12)


def test_hold_at_20_self_play() -> None:
    table = solve(100, 6, hold_at=20)
    assert round(table.win(0, 0, 0), 4) == 0.5347


def test_optimal_policy_at_41_against_49(table100: PigTable) -> None:
    # Neller and Presser: with 41 against 49 the optimal player rolls below 22, holds at 22..26, and rolls
    # again at 27 (a turn total of 27 is too far from the goal to stop: 41 + 27 = 68 leaves the opponent ahead
    # in the race less than rolling on does), then holds from 28.
    holds = {k: table100.holds(41, 49, k) for k in range(1, 40)}
    assert not any(holds[k] for k in range(1, 22))
    assert all(holds[k] for k in range(22, 27))
    assert not holds[27]
    assert holds[28]


def test_small_targets_by_hand() -> None:
    # target 2, two-faced die: the roller wins with a 2 (p 1/2) else passes: P = 1/2 + 1/2 (1 - P) -> 2/3
    t = solve(2, 2)
    assert t.win(0, 0, 0) == pytest.approx(2 / 3)


def test_disk_cache_is_checked_and_rebuilt(tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    clear_memory_cache()
    a = load_table(30, 6, directory=tmp_path, progress=lambda d, n: seen.append((d, n)))
    assert seen and seen[-1] == (state_count(30), state_count(30))
    path = cache_path(tmp_path, 30, 6, None)
    assert path.exists()
    clear_memory_cache()
    seen.clear()
    b = load_table(30, 6, directory=tmp_path, progress=lambda d, n: seen.append((d, n)))
    assert not seen and b.win(3, 7, 4) == a.win(3, 7, 4)  # read from disk
    data = bytearray(path.read_bytes())
    data[-5] ^= 0xFF  # corrupt one probability: the checksum catches it
    path.write_bytes(bytes(data))
    clear_memory_cache()
    c = load_table(30, 6, directory=tmp_path, progress=lambda d, n: seen.append((d, n)))
    assert seen and c.win(3, 7, 4) == a.win(3, 7, 4)
    path.write_bytes(b"garbage")
    clear_memory_cache()
    assert load_table(30, 6, directory=tmp_path).win(0, 0, 0) == a.win(0, 0, 0)
    clear_memory_cache()


# ----- agents -------------------------------------------------------------------------------------------------
def test_profile_refuses_alphabeta() -> None:
    profile = make_profile()
    with pytest.raises(AgentError, match="alpha-beta has no chance nodes"):
        parse_settings("alphabeta", profile)
    with pytest.raises(AgentError, match="weights"):
        parse_settings("expectimax:weights=nope", profile)
    for name in ("beginner", "easy", "medium", "hard", "expert", "expectimax", "minimax", "optimal", "random"):
        parse_settings(name, profile)


def test_optimal_agent_reports_the_exact_win_probability(table100: PigTable) -> None:
    from ai.agents.agents import make_agent
    agent = make_agent("pig", "optimal")
    res = agent.choose(GAME.initial_state())
    assert res.move == "roll" and round(res.extra["win_probability"], 4) == 0.5306
    res = agent.choose(GAME.parse_position("41,49,24,1"))
    assert res.move == "hold"
    assert res.extra["win_probability"] == pytest.approx(table100.hold_value(41, 49, 24))
    hold20 = make_agent("pig", "optimal:weights=hold20")
    assert hold20.choose(GAME.parse_position("0,0,19,1")).move == "roll"
    assert hold20.choose(GAME.parse_position("0,0,20,1")).move == "hold"
    with pytest.raises(GameError):
        make_agent("pig", "optimal:weights=hold")


def test_agents_play_legal_games() -> None:
    from ai.agents.agents import make_agent
    for spec in ("expectimax", "minimax", "beginner", "easy", "medium", "expert"):
        a, b = make_agent("pig", spec), make_agent("pig", "random:seed=3")
        played = play_game(GAME, (a, b), rng=random.Random(11))
        assert played.outcome is not None, spec


def test_expectimax_agent_is_fast_and_reports_win_probability() -> None:
    from ai.agents.agents import make_agent
    agent = make_agent("pig", "expectimax")
    res = agent.choose(GAME.parse_position("60,70,15,1"))
    assert res.move in ("roll", "hold") and 0.0 <= res.extra["win_probability"] <= 1.0
    assert res.elapsed < 0.3 * 4  # the default budget is 0.3 s (timings on shared machines are noisy)
