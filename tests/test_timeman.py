"""The clock lever (issue 27): the time policy's decisions (pure functions of the iterations' times, values and
moves), the hard limit on a fake clock, the ``clock`` and ``timeman`` agent keys, and the old half-budget rule
with ``timeman=off``. No timing assertions: every clock here is a fake one driven by the node count."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from ai.agents.agent_base import AgentError
from ai.agents.agents import make_agent
from ai.kernel import timeman
from ai.kernel.search import SearchLimits, iterative_deepening
from ai.kernel.timeman import HalfBudget, Step, TimeManager

ROOT = Path(__file__).resolve().parent.parent
MIDDLEGAME = "W:W17,19,21,22,24,25,26,27,28,30,31:B2,3,5,6,7,8,9,10,11,12,15"


def steps(times: list[float], values: list[float] | None = None, moves: list[str] | None = None) -> list[Step]:
    """Completed iterations with these times (seconds), values and best moves (default: steady)."""
    values = values if values is not None else [0.0] * len(times)
    moves = moves if moves is not None else ["a"] * len(times)
    return [Step(t, v, m) for t, v, m in zip(times, values, moves)]


# ----- the policy as pure functions ------------------------------------------------------------------------------
def test_half_budget_is_the_old_rule() -> None:
    rule = HalfBudget(1.0)
    s = steps([0.01, 0.02, 0.04])
    assert rule.go_on(0.49, s)
    assert not rule.go_on(0.5, s)
    assert rule.target(s) == 0.5


def test_stable_search_continues_below_the_target_when_the_next_iteration_fits() -> None:
    rule = TimeManager(1.0, unit=100.0)
    s = steps([0.05, 0.1, 0.2])  # growth 2: the next one is predicted to take 0.4 s
    assert rule.target(s) == pytest.approx(timeman.OPTIMUM_SHARE)
    assert rule.go_on(0.35, s)  # 0.35 + 0.4 <= 1
    # past the target of a stable search: stop, though the next iteration would fit
    assert not rule.go_on(timeman.OPTIMUM_SHARE, steps([0.01, 0.01, 0.01]))


def test_an_iteration_predicted_to_end_past_the_budget_never_starts() -> None:
    rule = TimeManager(1.0, unit=100.0)
    s = steps([0.05, 0.1, 0.45])  # growth sqrt(0.45 / 0.05) = 3: the next is predicted to take 1.35 s
    assert rule.predicted(s) == pytest.approx(1.35)
    assert not rule.go_on(0.05, s)  # before the target, but 0.05 + 1.35 > 1
    s = steps([0.05, 0.1, 0.2])  # growth sqrt(0.2 / 0.05) = 2: the next is predicted to take 0.4 s
    assert not rule.go_on(0.61, s)
    assert not rule.go_on(0.5, steps([0.05, 0.1, 0.2, 0.4]))  # growth 2: 0.5 + 0.8 > 1
    assert rule.go_on(0.05, s)
    unstable = steps([0.05, 0.1, 0.2], moves=["a", "b", "c"])  # its target is the whole budget
    assert rule.go_on(0.6, unstable)
    assert not rule.go_on(0.65, unstable)  # yet 0.65 + 0.4 > 1: it cannot finish


def test_the_growth_ratio_is_clamped() -> None:
    rule = TimeManager(1.0)
    assert rule.predicted(steps([0.001, 0.1])) == pytest.approx(0.1 * timeman.GROWTH_MAX)
    assert rule.predicted(steps([0.2, 0.1])) == pytest.approx(0.1 * timeman.GROWTH_MIN)
    assert rule.predicted(steps([0.0001, 0.01])) == pytest.approx(0.01 * timeman.GROWTH_DEFAULT)  # untimed
    assert rule.predicted(steps([0.01])) == pytest.approx(0.01 * timeman.GROWTH_DEFAULT)
    # odd and even depths alternate: the mean of the last two ratios, not the last one (here 4 and 1)
    assert rule.predicted(steps([0.01, 0.04, 0.04])) == pytest.approx(0.04 * 2)
    assert rule.predicted(steps([0.0001, 0.01, 0.02])) == pytest.approx(0.02 * 2)  # the first too quick


def test_a_best_move_change_grows_the_target() -> None:
    rule = TimeManager(1.0, unit=100.0)
    quick = [0.001, 0.002, 0.004]
    stable = steps(quick, moves=["a", "a", "a"])
    changed = steps(quick, moves=["a", "a", "b"])
    long_ago = steps(quick + [0.004, 0.004], moves=["a", "b", "b", "b", "b"])
    assert rule.target(changed) > rule.target(long_ago) > rule.target(stable)
    elapsed = 0.7  # past a stable search's target, before a changed one's
    assert not rule.go_on(elapsed, stable)
    assert rule.go_on(elapsed, changed)


def test_a_falling_score_grows_the_target_and_a_rising_one_does_not_shrink_it() -> None:
    rule = TimeManager(1.0, unit=100.0)
    quick = [0.001, 0.002, 0.004]
    steady = steps(quick, values=[10.0, 12.0, 10.0])
    fallen = steps(quick, values=[10.0, 12.0, -40.0])  # half a man below the iteration two before
    risen = steps(quick, values=[10.0, 12.0, 60.0])
    assert rule.falling(fallen) == pytest.approx(1.5)
    assert rule.target(fallen) > rule.target(steady) == rule.target(risen)
    assert not rule.go_on(0.7, steady)
    assert rule.go_on(0.7, fallen)
    assert rule.falling(steps(quick, values=[0.0, 0.0, -1e6])) == timeman.FALLING_MAX  # clamped


def test_the_target_never_passes_the_budget() -> None:
    rule = TimeManager(2.0, unit=1.0)
    wild = steps([0.001] * 6, values=[0, 0, 0, 0, 0, -5.0], moves=list("abcdef"))
    assert rule.target(wild) == pytest.approx(2.0 * timeman.MAX_SHARE)


def test_policy_and_clock_of() -> None:
    assert isinstance(timeman.policy(1.0, True, 100.0), TimeManager)
    assert isinstance(timeman.policy(1.0, False), HalfBudget)
    assert timeman.policy(1.0, True, 0.0) == TimeManager(1.0, 1.0)  # no zero scale
    assert timeman.clock_of("cpu") is time.thread_time
    assert timeman.clock_of("wall") is time.perf_counter
    with pytest.raises(ValueError, match="clock must be one of wall, cpu"):
        timeman.clock_of("gpu")


# ----- the loop on a fake clock ----------------------------------------------------------------------------------
NODE_SECONDS = 1e-5
"""The fake clock: every node the search visits costs 10 microseconds."""


def fake_search(spec: str, budget: float, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any, list[Step]]:
    """One decision of ``spec`` in the middlegame on a clock that counts nodes, and its completed iterations as
    the policy sees them (their ends: ``sum`` of the times)."""
    agent = make_agent("checkers", spec)
    game = agent.game
    searcher = agent.make_searcher()  # type: ignore[attr-defined]
    monkeypatch.setitem(timeman.CLOCKS, "fake", lambda: searcher.stats.nodes * NODE_SECONDS)
    done: list[Step] = []

    def on_info(info: Any) -> None:
        done.append(Step(info.iteration_nodes * NODE_SECONDS, float(info.value), info.move))

    s = agent.settings.search
    limits = SearchLimits(None, budget, timeman=s.timeman, clock="fake", unit=agent.value_unit(),  # type: ignore
                          partial=s.partial)
    res = iterative_deepening(game, game.parse_position(MIDDLEGAME), searcher, limits, on_info)
    return res, searcher, done


def replay(rule: timeman.TimePolicy, done: list[Step]) -> list[bool]:
    """The policy's decision after each completed iteration (its end on the fake clock)."""
    out, end = [], 0.0
    for k, step in enumerate(done):
        end += step.seconds
        out.append(rule.go_on(end, done[:k + 1]))
    return out


@pytest.mark.parametrize("policy", ["on", "off"])
def test_the_hard_limit_holds_on_the_fake_clock(policy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    budget = 0.3
    res, searcher, done = fake_search(f"alphabeta:quiescence=on,timeman={policy}", budget, monkeypatch)
    # the deadline is read on the budget's clock every check_every nodes: never more than that many nodes late
    assert res.extra["clock_s"] <= budget + searcher.check_every * NODE_SECONDS
    assert res.extra["clock"] == "fake" and res.extra["timeman"] is (policy == "on")
    assert res.depth == len(done)  # the move of the last completed iteration (an interrupted one thrown away)
    assert res.move == done[-1].move


@pytest.mark.parametrize("policy, rule", [("off", HalfBudget(0.3)), ("on", TimeManager(0.3, 100.0))])
def test_the_loop_follows_its_policy(policy: str, rule: timeman.TimePolicy, monkeypatch: pytest.MonkeyPatch) -> None:
    """``timeman=off`` is the old rule (no iteration starts after half the budget); ``on`` the manager's: each
    iteration after the first started because the policy said so, and the loop stopped when it said stop (or
    the hard limit interrupted a running iteration)."""
    budget = 0.3
    res, _, done = fake_search(f"alphabeta:quiescence=on,timeman={policy}", budget, monkeypatch)
    assert res.stop_reason == "time"
    decisions = replay(rule, done)
    assert all(decisions[:-1])
    interrupted = res.extra["clock_s"] >= budget
    assert decisions[-1] is interrupted
    if policy == "off":
        ends = [sum(s.seconds for s in done[:k + 1]) for k in range(len(done))]
        assert all(t < budget / 2 for t in ends[:-1])


def test_with_partial_only_the_first_root_move_must_fit() -> None:
    """``partial``: an iteration starts when its first root move (0.6 of its predicted time) fits the budget."""
    rule = TimeManager(1.0, unit=100.0, partial=True)
    s = steps([0.05, 0.1, 0.45])  # the next is predicted to take 1.35 s: its first root move 0.81 s
    assert rule.go_on(0.05, s) and not TimeManager(1.0, unit=100.0).go_on(0.05, s)
    assert not rule.go_on(0.3, s)  # 0.3 + 0.81 > 1
    assert not rule.go_on(timeman.OPTIMUM_SHARE, steps([0.01, 0.01, 0.01]))  # the target still ends the search
    assert timeman.policy(1.0, True, 100.0, partial=True) == rule


def decision_value(spec: str, state: Any, move: Any, depth: int) -> float:
    """The value for the side to move of ``move`` searched ``depth`` plies deep in all (a fresh search below it)."""
    agent = make_agent("checkers", spec)
    game = agent.game
    child = game.result(state, move)
    limits = SearchLimits(depth - 1, None, unit=agent.value_unit())  # type: ignore[attr-defined]
    return -iterative_deepening(game, child, agent.make_searcher(), limits).value  # type: ignore[attr-defined]


def test_a_stopped_iteration_plays_the_root_move_it_proved(monkeypatch: pytest.MonkeyPatch) -> None:
    """In the middlegame at 0.3 fake seconds, depth 10 is stopped after 5 of its 7 root moves, by which time it
    has proved 26-23 better than depth 9's 27-23: ``partial=on`` plays 26-23 and says so in ``extra``; ``off``
    throws the iteration away. The claim holds: each move searched to depth 10 on its own, 26-23 is worth more."""
    spec = "alphabeta:quiescence=on,timeman=on"
    off, _, done_off = fake_search(spec, 0.3, monkeypatch)
    on, _, done = fake_search(spec + ",partial=on", 0.3, monkeypatch)
    game = make_agent("checkers", spec).game
    root = game.parse_position(MIDDLEGAME)
    assert "partial" not in off.extra and off.move == done_off[-1].move
    part = on.extra["partial"]
    assert on.depth == len(done) == 9 and part["depth"] == 10  # depth stays the deepest completed iteration's
    assert game.format_move(root, on.move) == part["move"] == "26-23" != game.format_move(root, done[-1].move)
    assert on.value == part["value"] and on.pv[0] == on.move
    assert 0 < part["root_moves"] < part["of"] == len(game.actions(root))
    assert decision_value(spec, root, on.move, 10) > decision_value(spec, root, done[-1].move, 10)


def test_partial_never_changes_a_search_that_is_not_stopped() -> None:
    """Without a budget (or a cancel), ``partial`` changes nothing: the same move, value and node count."""
    a = make_agent("checkers", "alphabeta:quiescence=on,depth=7").choose
    b = make_agent("checkers", "alphabeta:quiescence=on,depth=7,partial=on").choose
    root = make_agent("checkers", "alphabeta").game.parse_position(MIDDLEGAME)
    ra, rb = a(root), b(root)
    assert (ra.move, ra.value, ra.nodes) == (rb.move, rb.value, rb.nodes) and "partial" not in rb.extra


def test_the_first_iteration_always_completes(monkeypatch: pytest.MonkeyPatch) -> None:
    res, _, done = fake_search("alphabeta:quiescence=on,timeman=on", 1e-9, monkeypatch)
    assert res.depth == 1 and len(done) == 1 and res.move is not None


# ----- the agent keys ---------------------------------------------------------------------------------------------
def test_clock_and_timeman_keys_parse_and_round_trip() -> None:
    a = make_agent("checkers", "alphabeta:time=0.5,clock=CPU,timeman=on")
    assert a.settings.clock == "cpu" and a.settings.search.timeman is True
    assert "clock=cpu" in a.settings.spec() and "timeman=on" in a.settings.spec()
    assert make_agent("checkers", a.settings.spec()).settings == a.settings
    assert a.describe().endswith("0.5 s/move (CPU)")
    assert make_agent("checkers", "alphabeta").settings.clock == "wall"
    assert make_agent("checkers", "alphabeta").settings.search.timeman is False
    assert make_agent("checkers", "expert").settings.search.timeman is False  # no gain measured: docs/strength.md
    p = make_agent("checkers", "alphabeta:time=0.5,partial=on").settings
    assert p.search.partial is True and "partial=on" in p.spec() and make_agent("checkers", p.spec()).settings == p
    assert p.clock_text() == "0.5 s/move, wall clock, partial on"
    assert make_agent("checkers", "expert").settings.search.partial is False
    assert a.settings.to_json()["clock"] == "cpu"


@pytest.mark.parametrize("spec, message", [
    ("alphabeta:clock=gpu", "agent setting clock must be wall or cpu"),
    ("alphabeta:clock=", "is not key=value"),
    ("alphabeta:timeman=maybe", "agent setting timeman must be on or off"),
])
def test_bad_clock_or_timeman_is_refused_in_one_line(spec: str, message: str) -> None:
    with pytest.raises(AgentError, match=message) as e:
        make_agent("checkers", spec)
    assert "\n" not in str(e.value)


def test_cpu_clock_is_what_the_search_reads() -> None:
    a = make_agent("checkers", "expert:book=off,time=0.05,clock=cpu,timeman=on")
    game = a.game
    searcher = a.make_searcher()  # type: ignore[attr-defined]
    res = iterative_deepening(game, game.initial_state(), searcher, a.settings.search_limits(a.value_unit()))
    assert searcher.clock is time.thread_time
    assert res.extra["clock"] == "cpu" and res.extra["timeman"] is True
    res = a.choose(game.initial_state())
    assert res.extra["clock"] == "cpu"


def test_mcts_and_expectimax_take_the_clock() -> None:
    m = make_agent("checkers", "mcts:time=0.02,clock=cpu,seed=1")
    m.choose(m.game.initial_state())
    p = make_agent("pig", "expectimax:time=0.05,clock=cpu,timeman=on,depth=2")
    res = p.choose(p.game.initial_state())
    assert res.extra["clock"] == "cpu" and res.extra["timeman"] is True


def test_match_json_says_which_clock_each_agent_used(tmp_path: Path) -> None:
    env = {"ARCADE_CONFIG_DIR": str(tmp_path), "ARCADE_DATA_DIR": str(tmp_path), "SDL_VIDEODRIVER": "dummy",
           "SDL_AUDIODRIVER": "dummy", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "main.py", "match", "tictactoe", "--p1", "alphabeta:time=0.05,clock=cpu",
                          "--p2", "alphabeta:depth=2", "--games", "2", "--jobs", "1", "--json"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    obj = json.loads(out.stdout)
    assert obj["p1"]["clock"] == "cpu" and obj["p2"]["clock"] == "wall"
    text = subprocess.run([sys.executable, "main.py", "match", "tictactoe", "--p1", "alphabeta:time=0.05,clock=cpu",
                           "--p2", "alphabeta:depth=2", "--games", "2", "--jobs", "1"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert "time: p1 0.05 s/move, cpu clock; p2 depth 2 (plies), no time budget" in text.stdout, text.stdout
    bad = subprocess.run([sys.executable, "main.py", "match", "tictactoe", "--p1", "alphabeta:clock=sundial",
                          "--p2", "random", "--games", "1"], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=300)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "clock must be wall or cpu" in bad.stderr


def test_tournament_names_each_entrants_clock() -> None:
    from types import SimpleNamespace

    from gameplay.cli.tournament import entrant_clocks
    spec = SimpleNamespace(game="tictactoe", entrants=(SimpleNamespace(name="a", spec="alphabeta:time=0.1,clock=cpu"),
                                                       SimpleNamespace(name="b", spec="alphabeta:depth=2"),
                                                       SimpleNamespace(name="c", spec="file:missing.py")))
    assert entrant_clocks(spec) == {"a": "cpu", "b": "wall", "c": "wall"}


@pytest.mark.parametrize(("game", "spec", "over"), [
    ("checkers", "alphabeta:depth=5,book=off", None), ("pig", "expectimax:depth=2", None),
    ("connect4", "minimax:depth=3", None), ("tictactoe", "alphabeta", "XXXOO...."),
    ("tictactoe", "mcts:simulations=2100,seed=1", "XXXOO....")])
def test_the_collector_is_paused_during_every_search_and_restored(game: str, spec: str, over: str | None) -> None:
    """A full garbage collection inside a search counts in its time (the compiled `expert`: about one a decision,
    6-43 ms; MCTS's tree broke a 0.05 s budget by 68 ms): every search (alpha-beta, minimax, expectimax, MCTS) runs
    with the collector off and turns it back on after, also when cancelled or refused (a finished position); a
    collector the caller had switched off stays off."""
    import gc

    from gameplay.rules.base import GameError
    a = make_agent(game, spec)
    seen: list[bool] = []
    assert gc.isenabled()
    a.choose(a.game.initial_state(), None, lambda info: seen.append(gc.isenabled()))
    assert seen and not any(seen) and gc.isenabled()
    stop = threading.Event()
    stop.set()
    a.choose(a.game.initial_state(), stop)
    assert gc.isenabled()
    if over is not None:
        with pytest.raises(GameError):
            a.choose(a.game.parse_position(over))
        assert gc.isenabled()
    gc.disable()
    try:
        a.choose(a.game.initial_state())
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_clock_text_says_the_depth_cap_that_ends_a_preset_first() -> None:
    """A preset capped in depth (checkers ``easy``: depth 2 within 1 s) is not reported as a 1 s search."""
    from ai.agents.agents import parse_settings
    from ai.agents.profiles import profile_for

    checkers = profile_for("checkers")
    assert parse_settings("easy", checkers).clock_text() == "depth 2 (plies) within 1 s/move, wall clock"
    assert parse_settings("expert:time=0.5,clock=cpu", checkers).clock_text() == "0.5 s/move, cpu clock"
    assert parse_settings("alphabeta:depth=4", checkers).clock_text() == "depth 4 (plies), no time budget"


def test_the_first_move_share_tool_prints_a_share_per_depth() -> None:
    """``tools/first_move_share.py`` (the figure behind ``FIRST_MOVE_SHARE``) runs and prints shares in [0, 1]."""
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "first_move_share.py"), "--depth", "7",
                          "--positions", "2"], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("first root move's share") and [ln.split(":")[0] for ln in lines[1:]] == [
        "depth 6", "depth 7"]
    for ln in lines[1:]:
        median = float(ln.split("median ")[1].split(",")[0])
        assert 0.0 <= median <= 1.0 and ln.endswith("(2 positions)")
    bad = subprocess.run([sys.executable, str(ROOT / "tools" / "first_move_share.py"), "--depth", "99"],
                         capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert bad.returncode == 2 and "depth" in bad.stderr.splitlines()[-1]
