"""The Pig policy picture's data (issue 15): the hold boundary equals the value-iteration table's choices."""

from __future__ import annotations

import pytest

from ai.pig.pig_optimal import load_table
from ai.pig.pig_policy_data import PolicyCancelled, first_hold, hold_boundary, hold_ranges, policy_map


@pytest.fixture(scope="module")
def table():  # type: ignore[no-untyped-def]
    return load_table()


def test_boundary_at_the_start_is_where_holding_first_beats_rolling(table) -> None:  # type: ignore[no-untyped-def]
    b = hold_boundary(table, 0, 0)
    assert b == 21  # this table's answer (not the "hold at 20" rule of thumb, and not 25)
    for k in range(1, b):
        assert table.roll_value(0, 0, k) > table.hold_value(0, 0, k)
    assert table.hold_value(0, 0, b) >= table.roll_value(0, 0, b)
    assert hold_ranges(table, 0, 0) == [(21, 99)]  # one threshold: hold at every turn total from 21


def test_published_points(table) -> None:  # type: ignore[no-untyped-def]
    # Neller and Presser (2004): the first player wins 0.530593 under optimal play ...
    assert table.win(0, 0, 0) == pytest.approx(0.530593, abs=5e-7)
    # ... and the optimal policy is not a single threshold: with 41 against 49, hold at a turn total of 22, but
    # roll once more at 27 (their example, also quoted at possiblywrong.wordpress.com, 2014-03-20)
    assert hold_boundary(table, 41, 49) == 22
    assert not table.holds(41, 49, 27) and table.holds(41, 49, 26) and table.holds(41, 49, 28)
    assert hold_ranges(table, 41, 49)[:2] == [(22, 26), (28, 56)]


def test_boundary_matches_the_table_at_sample_points(table) -> None:  # type: ignore[no-untyped-def]
    for i, j in [(0, 50), (50, 0), (30, 30), (60, 60), (10, 90), (95, 95), (99, 0)]:
        expected = next((k for k in range(1, 100 - i) if table.holds(i, j, k)), None)
        assert hold_boundary(table, i, j) == expected, (i, j)
    assert hold_boundary(table, 90, 0) is None  # far ahead: it rolls on to 100
    with pytest.raises(ValueError):
        hold_boundary(table, 100, 0)


@pytest.mark.slow
def test_policy_map_without_and_with_an_agent(table) -> None:  # type: ignore[no-untyped-def]
    pm = policy_map(None, table=table)
    assert pm.boundary[0][0] == 21 and pm.boundary[41][49] == 22 and pm.agent_boundary is None
    assert pm.first_player_win == pytest.approx(0.530593, abs=5e-7)
    assert pm.not_threshold == 2503
    hold20 = policy_map("optimal:weights=hold20", table=table)
    assert all(hold20.agent_boundary[i][j] == (20 if i < 80 else None)  # type: ignore[index]
               for i in range(100) for j in range(100))
    assert (0, 0) in hold20.disagreements and (41, 49) in hold20.disagreements
    same = policy_map("optimal", table=table)
    assert same.disagreements == () and same.agent_boundary == same.boundary
    assert first_hold(lambda i, j, k: k >= 3, 0, 0, 100) == 3


def test_policy_map_cancels(table) -> None:  # type: ignore[no-untyped-def]
    import threading
    stop = threading.Event()
    stop.set()
    with pytest.raises(PolicyCancelled):
        policy_map("expectimax", table=table, stop=stop)
