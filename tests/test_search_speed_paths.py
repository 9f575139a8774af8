"""The search's fast paths (issue 49) search exactly what the plain ones do: moves picked one at a time in a stable
sort's order, quiescence through the game's captures alone, and checkers' move generator against a plain one."""

from __future__ import annotations

import random

import pytest

from ai.agents.agents import make_agent
from ai.checkers.checkers_bench import BENCH_POSITIONS
from ai.checkers.checkers_eval import BLACK_CONE, ROW, WHITE_CONE, feature_values
from ai.kernel.move_order import MoveOrdering, in_order, next_best
from ai.kernel.search import Searcher, SearchLimits, iterative_deepening
from ai.kernel.tactics import NoisyGame
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.checkers.checkers_board import CheckersMove, CheckersState

G = Checkers()


@pytest.mark.parametrize("seed", range(40))
def test_next_best_picks_in_a_stable_sorts_order(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 12)
    scores = [float(rng.choice([0, 1, 2, 5, 1e7, 1e8, float("inf")])) for _ in range(n)]  # many ties
    moves = list(range(n))
    want = sorted(moves, key=lambda i: scores[i], reverse=True)  # stable: ties keep their order
    tried, left = list(moves), list(scores)
    assert [next_best(tried, left, i) for i in range(n)] == want
    assert in_order(list(moves), list(scores), 0) == want
    cut = rng.randrange(n)  # a cut-off after the cut-th move: the pruned ones are listed in the same order
    tried, left = list(moves), list(scores)
    for i in range(cut + 1):
        next_best(tried, left, i)
    assert tried[:cut + 1] + in_order(tried, left, cut + 1) == want


def test_order_puts_the_hash_move_first_then_captures_killers_history() -> None:
    quiet = [CheckersMove((9, 13)), CheckersMove((9, 14)), CheckersMove((10, 14)), CheckersMove((10, 15))]
    mo: MoveOrdering[object, CheckersMove] = MoveOrdering(G.order_key, True, True)
    mo.record_cutoff(CheckersMove((10, 15)), 3, 2)  # a killer at ply 2 (an equal move, not the same object)
    mo.history[quiet[1]] = 50
    assert mo.order(None, quiet, quiet[0], 2) == [quiet[0], quiet[3], quiet[1], quiet[2]]
    assert mo.order(None, quiet, None, 5) == [quiet[1], quiet[3], quiet[0], quiet[2]]  # history, no killer


def _random_state(rng: random.Random) -> CheckersState:
    squares = list(range(32))
    rng.shuffle(squares)
    nb, nw = rng.randint(1, 12), rng.randint(1, 12)
    b = sum(1 << s for s in squares[:nb])
    w = sum(1 << s for s in squares[nb:nb + nw])
    k = sum(1 << s for s in squares[:nb + nw] if rng.random() < 0.4)
    k |= (b & ~k & (0xF << 28)) | (w & ~k & 0xF)  # no man on the row where it would be crowned
    return CheckersState(b, w, k, rng.randint(0, 1))


def _plain_moves(state: CheckersState) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every legal move by walking the board square by square (no bitboards) as (path, captures): captures only
    when there are some, a multi-jump whole, a man's move ending where it is crowned."""
    mine = state.black if state.turn == 0 else state.white
    theirs = state.white if state.turn == 0 else state.black

    def rc(s: int) -> tuple[int, int]:
        r, k = divmod(s - 1, 4)
        return r, 2 * k + (1 if r % 2 == 0 else 0)

    def sq(r: int, c: int) -> int | None:
        return r * 4 + c // 2 + 1 if 0 <= r < 8 and 0 <= c < 8 and (r + c) % 2 else None

    def dirs(king: bool) -> list[tuple[int, int]]:
        fwd = 1 if state.turn == 0 else -1
        return [(-1, -1), (-1, 1), (1, -1), (1, 1)] if king else [(fwd, -1), (fwd, 1)]

    jumps: list[tuple[tuple[int, ...], tuple[int, ...]]] = []

    def walk(path: list[int], caps: list[int], taken: int, king: bool, start: int) -> None:
        r, c = rc(path[-1])
        found = False
        for dr, dc in dirs(king):
            o, t = sq(r + dr, c + dc), sq(r + 2 * dr, c + 2 * dc)
            if o is None or t is None or not (theirs >> (o - 1)) & 1 or (taken >> (o - 1)) & 1:
                continue
            occupied = ((mine | theirs) >> (t - 1)) & 1 and t != start
            if occupied:
                continue
            found = True
            crowned = not king and (t - 1) // 4 == (7 if state.turn == 0 else 0)
            if crowned:
                jumps.append((tuple(path + [t]), tuple(caps + [o])))
            else:
                walk(path + [t], caps + [o], taken | 1 << (o - 1), king, start)
        if not found and len(path) > 1:
            jumps.append((tuple(path), tuple(caps)))

    for s in range(1, 33):
        if (mine >> (s - 1)) & 1:
            walk([s], [], 0, bool((state.kings >> (s - 1)) & 1), s)
    if jumps:
        return jumps
    steps = []
    for s in range(1, 33):
        if (mine >> (s - 1)) & 1:
            r, c = rc(s)
            for dr, dc in dirs(bool((state.kings >> (s - 1)) & 1)):
                t = sq(r + dr, c + dc)
                if t is not None and not ((mine | theirs) >> (t - 1)) & 1:
                    steps.append(((s, t), ()))
    return steps


def test_move_generator_matches_a_square_by_square_walk() -> None:
    rng = random.Random(49)
    captures = multi = 0
    for _ in range(3000):
        s = _random_state(rng)
        got = [(m.path, m.captures) for m in G.legal_moves(s)]
        assert sorted(got) == sorted(_plain_moves(s)), G.format_position(s)
        assert [p[0] for p, _ in got] == sorted(p[0] for p, _ in got)  # by start square
        noisy = G.noisy_actions(s)
        assert noisy == (G.legal_moves(s) if got and got[0][1] else [])
        captures += bool(noisy)
        multi += any(len(m.captures) > 1 for m in noisy)
        for m in G.legal_moves(s):  # the successor's incremental key is the key computed from scratch
            child = G.successor(s, m)
            assert child.key == CheckersState(child.black, child.white, child.kings, child.turn).key
    assert captures > 500 and multi > 50  # the walk met many captures and multi-jumps


def test_quiescence_through_the_games_captures_searches_the_same_nodes() -> None:
    """With the game's own ordering key the search asks ``noisy_actions`` at quiescence's nodes (captures_first);
    the same key handed in explicitly takes the generic path, which makes every move. Same nodes, values, moves."""
    assert isinstance(G, NoisyGame)
    agent = make_agent("checkers", "expert:book=off,db=off")
    for fen in BENCH_POSITIONS[:4]:
        state = G.parse_position(fen)
        fast = agent.make_searcher()  # type: ignore[attr-defined]
        plain = Searcher(G, agent.evaluate, fast.options, order_key=G.order_key)  # type: ignore[attr-defined]
        assert fast.setup.captures_first and not plain.setup.captures_first
        a = iterative_deepening(G, state, fast, SearchLimits(depth=7))
        b = iterative_deepening(G, state, plain, SearchLimits(depth=7))
        assert (a.move, a.value, a.nodes, a.pv) == (b.move, b.value, b.nodes, b.pv)
        assert fast.stats.qnodes == plain.stats.qnodes > 0


def _runaway_by_cones(bm: int, wm: int, b: int, w: int) -> int:
    """The ``runaway`` feature as defined: each man's forward cone checked square by square."""
    run = 0
    for i in range(32):
        if bm >> i & 1 and (i >= 8 or not w) and not BLACK_CONE[i] & w:
            run += 1 + ROW[i]
        if wm >> i & 1 and (i < 24 or not b) and not WHITE_CONE[i] & b:
            run -= 8 - ROW[i]
    return run


def test_runaway_spreads_equal_the_cones() -> None:
    rng = random.Random(27)
    seen = set()
    for _ in range(3000):
        s = _random_state(rng)
        bm, wm = s.black & ~s.kings, s.white & ~s.kings
        got = feature_values(s, frozenset({"runaway"}))["runaway"]
        assert got == _runaway_by_cones(bm, wm, s.black, s.white), G.format_position(s)
        seen.add(got)
    assert len(seen) > 20  # many different values met
