"""Connect Four's agents (ai/connect4/connect4_eval.py): exact solving checked against an independent solver written
here, the evaluation's features against plain counts over a grid, the expert's opening, ordering's node saving, MCTS.

The independent solver keeps the board as seven Python lists (one per column, the owners from the bottom) with its
own four-in-a-row test, and never imports the product's bitboards or search: an alpha-beta negamax with a table
of bounds whose scores are ``100 - (stones on the board at the end)`` for a win (so the shortest win and the
longest loss are preferred, as the product's distance-scored negamax), 0 for a draw.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from ai.agents.agents import make_agent
from ai.agents.profiles import game_for, profile_for
from ai.connect4.connect4_eval import FEATURES, WEIGHT_PRESETS, Connect4Evaluation, feature_values

ROOT = Path(__file__).resolve().parent.parent
W, H = 7, 6
ORDER = (3, 2, 4, 1, 5, 0, 6)
INF = 1000
Columns = list[list[int]]


# ----- the independent solver -------------------------------------------------------------------------------------
def makes_four(cols: Columns, c: int, r: int, who: int) -> bool:
    """True when the stone of ``who`` at column ``c``, row ``r`` (0-based, placed or not) completes four."""
    def at(cc: int, rr: int) -> bool:
        return 0 <= cc < W and 0 <= rr < len(cols[cc]) and cols[cc][rr] == who
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            k = 1
            while at(c + s * k * dc, r + s * k * dr):
                n += 1
                k += 1
        if n >= 4:
            return True
    return False


def wins_by(cols: Columns, c: int, who: int) -> bool:
    """True when ``who`` dropping a stone in column ``c`` (0-based, not full) makes four."""
    cols[c].append(who)
    won = makes_four(cols, c, len(cols[c]) - 1, who)
    cols[c].pop()
    return won


class Solver:
    """Exact values: ``100 - n_end`` for the side to move winning when the board holds ``n_end`` stones, minus that
    for a loss, 0 for a draw."""

    def __init__(self) -> None:
        self.table: dict[tuple[tuple[int, ...], ...], tuple[int, int]] = {}

    def value(self, cols: Columns, n: int, alpha: int = -INF, beta: int = INF) -> int:
        if n == W * H:
            return 0
        who = n % 2
        playable = [c for c in ORDER if len(cols[c]) < H]
        if any(wins_by(cols, c, who) for c in playable):
            return 100 - (n + 1)
        if n + 1 == W * H:
            return 0
        forced = [c for c in playable if wins_by(cols, c, 1 - who)]
        if len(forced) > 1:
            return -(100 - (n + 2))
        beta = min(beta, 100 - (n + 3))  # no win before our next stone but one
        if alpha >= beta:
            return beta
        key = tuple(tuple(col) for col in cols)
        lo, hi = self.table.get(key, (-INF, INF))
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        alpha, beta = max(alpha, lo), min(beta, hi)
        a0 = alpha
        best = -INF
        for c in forced or playable:  # a single threat of the opponent's must be blocked
            cols[c].append(who)
            v = -self.value(cols, n + 1, -beta, -alpha)
            cols[c].pop()
            best = max(best, v)
            alpha = max(alpha, v)
            if alpha >= beta:
                break
        if best <= a0:
            hi = min(hi, best)
        elif best >= beta:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.table[key] = (lo, hi)
        return best


def expected(cols: Columns, n: int) -> tuple[str, int]:
    """``(outcome, plies to the end)`` for the side to move, by the independent solver."""
    v = Solver().value(cols, n)
    if v == 0:
        return "draw", W * H - n
    return ("win" if v > 0 else "loss"), 100 - abs(v) - n


def careful_game(rng: random.Random, plies: int) -> tuple[str, Columns] | None:
    """``plies`` plies by a careful random player (never completes four, blocks a single threat, avoids playing
    under the opponent's winning cell), as the columns played and the grid; ``None`` when it must stop."""
    cols: Columns = [[] for _ in range(W)]
    seq = ""
    for n in range(plies):
        who = n % 2
        free = [c for c in range(W) if len(cols[c]) < H]
        quiet = [c for c in free if not wins_by(cols, c, who)]
        blocks = [c for c in quiet if wins_by(cols, c, 1 - who)]
        safe = []
        for c in quiet:
            cols[c].append(who)
            if len(cols[c]) == H or not wins_by(cols, c, 1 - who):
                safe.append(c)
            cols[c].pop()
        choice = blocks or safe or quiet
        if not choice:
            return None
        c = rng.choice(choice)
        cols[c].append(who)
        seq += str(c + 1)
    return seq, cols


def positions(count: int, seed: int, lo: int = 26, hi: int = 34) -> list[tuple[str, Columns]]:
    rng = random.Random(seed)
    out: list[tuple[str, Columns]] = []
    while len(out) < count:
        game = careful_game(rng, rng.randint(lo, hi))
        if game is not None:
            out.append(game)
    return out


def test_the_independent_solver_on_known_positions() -> None:
    # a vertical three for the side to move: win with the next stone
    assert expected([[0, 0, 0], [1, 1, 1], [], [], [], [], []], 6) == ("win", 1)
    # a horizontal three of the opponent's open at both ends: lost two plies later
    assert expected([[0, 0], [], [1], [1], [1], [], [0]], 6) == ("loss", 2)


# ----- exact solving: the product against the independent solver -------------------------------------------------
@pytest.mark.slow
def test_alphabeta_solves_200_random_positions_exactly() -> None:
    game = game_for("connect4")
    agent = make_agent("connect4", "alphabeta:depth=42")
    kinds = set()
    for seq, cols in positions(200, seed=2025):
        state = game.parse_position(seq)
        assert not game.is_terminal(state)
        want = expected(cols, len(seq))
        res = agent.choose(state)
        assert (res.outcome, res.plies_to_end) == want, seq
        assert res.stop_reason == "proven", seq
        assert (res.value > 0) == (want[0] == "win") and (res.value < 0) == (want[0] == "loss"), seq
        kinds.add(want[0])
    assert kinds == {"win", "loss", "draw"}  # the sample holds every kind of result


def analyze_json(position: str, agent: str) -> dict[str, object]:
    r = subprocess.run([sys.executable, "main.py", "analyze", "connect4", "--position", position, "--agent", agent,
                        "--json", "--quiet"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    obj: dict[str, object] = json.loads(r.stdout)
    return obj


def test_analyze_json_reports_a_win_a_loss_and_a_draw_with_their_distance() -> None:
    found: dict[str, tuple[str, Columns]] = {}
    for seq, cols in positions(60, seed=7):
        found.setdefault(expected(cols, len(seq))[0], (seq, cols))
    assert set(found) == {"win", "loss", "draw"}
    for kind, (seq, cols) in found.items():
        obj = analyze_json(seq, "alphabeta:depth=42")
        assert (obj["outcome"], obj["plies_to_end"]) == expected(cols, len(seq)), seq
        assert obj["stop_reason"] == "proven"
        value = obj["value"]
        assert isinstance(value, float)
        assert {"win": value > 0, "loss": value < 0, "draw": value == 0}[kind]


# ----- the expert -------------------------------------------------------------------------------------------------
def test_expert_opens_in_the_centre_from_the_book() -> None:
    game = game_for("connect4")
    res = make_agent("connect4", "expert").choose(game.initial_state())
    assert res.move == 4 and res.stop_reason == "book"
    # the book holds every position expert meets in its first 10 plies as either side, solved by our own solver:
    # after 4 the second player loses with the first player's 41st stone, 40 plies on (the published result)
    res = make_agent("connect4", "expert").choose(game.parse_position("4"))
    assert res.stop_reason == "book" and (res.outcome, res.plies_to_end) == ("loss", 40)


def test_expert_solves_a_position_within_its_reach() -> None:
    game = game_for("connect4")
    seq, cols = positions(1, seed=11, lo=30, hi=30)[0]
    res = make_agent("connect4", "expert").choose(game.parse_position(seq))
    assert res.stop_reason == "proven"
    assert (res.outcome, res.plies_to_end) == expected(cols, len(seq))


# ----- the evaluation ---------------------------------------------------------------------------------------------
def plain_features(cols: Columns) -> dict[str, float]:
    """The features for Red, counted from the grid: lines of four by their stones, threat cells cell by cell."""
    def owner(c: int, r: int) -> int | None:
        return cols[c][r] if r < len(cols[c]) else None
    counts = {"three": 0, "two": 0, "one": 0}
    names = {3: "three", 2: "two", 1: "one"}
    for c in range(W):
        for r in range(H):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if not (0 <= c + 3 * dc < W and 0 <= r + 3 * dr < H):
                    continue
                cells = [owner(c + i * dc, r + i * dr) for i in range(4)]
                red, yellow = cells.count(0), cells.count(1)
                if yellow == 0 and red in names:
                    counts[names[red]] += 1
                elif red == 0 and yellow in names:
                    counts[names[yellow]] -= 1
    threats = [0, 0]
    parity = 0
    for c in range(W):
        for r in range(len(cols[c]), H):
            for who in (0, 1):
                if makes_four(cols, c, r, who):
                    threats[who] += 1
                    if r > len(cols[c]) and r % 2 == who:  # odd rows (1, 3, 5 from the bottom) are Red's
                        parity += 1 if who == 0 else -1
    mover = sum(len(col) for col in cols) % 2
    now = [sum(1 for c in range(W) if len(cols[c]) < H and makes_four(cols, c, len(cols[c]), who)) for who in (0, 1)]
    immediate = 1 if now[mover] else (-1 if now[1 - mover] >= 2 else 0)
    if mover == 1:
        immediate = -immediate
    centre = cols[3].count(0) - cols[3].count(1)
    return {**counts, "threats": threats[0] - threats[1], "parity": parity, "immediate": immediate,
            "centre": centre}


def test_features_equal_plain_counts_over_the_grid() -> None:
    game = game_for("connect4")
    for seq, cols in positions(150, seed=5, lo=3, hi=34):
        assert feature_values(game.parse_position(seq)) == plain_features(cols), seq


def test_the_evaluation_is_the_weighted_sum_from_each_side() -> None:
    game = game_for("connect4")
    weights = WEIGHT_PRESETS["default"]
    evaluate = Connect4Evaluation(weights)
    for seq, _ in positions(30, seed=9, lo=5, hi=30):
        state = game.parse_position(seq)
        f = feature_values(state)
        total = sum(weights.get(n, 0.0) * f[n] for n in FEATURES)
        assert evaluate(state, 0) == pytest.approx(total)
        assert evaluate(state, 1) == pytest.approx(-total)


def test_textbook_is_the_course_function() -> None:
    # f = 100A + 10B + C - (100D + 10E + F), over the lines of four
    assert WEIGHT_PRESETS["textbook"] == {"three": 100.0, "two": 10.0, "one": 1.0}
    assert set(profile_for("connect4").features) == set(FEATURES)


# ----- ordering, MCTS ---------------------------------------------------------------------------------------------
def test_centre_first_ordering_saves_nodes_at_depth_8() -> None:
    game = game_for("connect4")
    start = game.initial_state()
    off = make_agent("connect4", "alphabeta:depth=8,ordering=off").choose(start)
    on = make_agent("connect4", "alphabeta:depth=8").choose(start)
    assert on.value == off.value  # the same minimax value, ...
    assert on.nodes * 2 < off.nodes  # ... for fewer than half the nodes


def test_mcts_plays_connect4() -> None:
    game = game_for("connect4")
    res = make_agent("connect4", "mcts:simulations=500,seed=1").choose(game.initial_state())
    assert res.move in game.actions(game.initial_state())
    assert res.extra["simulations"] == 500
    # a vertical three: MCTS finds the win
    res = make_agent("connect4", "mcts:simulations=500,seed=1").choose(game.parse_position("121212"))
    assert res.move == 1
