"""Connect Four's exact solver (ai/connect4/connect4_solver.py), its bitboards (gameplay/rules/connect4_bits.py), its
book (ai/connect4/connect4_book.py, assets/book/connect4_book.txt) and ``expert``'s use of them.

The scores are checked against an outside solver's (P. Pons's connect4: tests/data/connect4_pons_scores.tsv, with its
source) and, for outcome and distance, against the independent solver of tests/test_connect4_agents.py.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ai.agents.agent_base import AgentError
from ai.agents.agents import make_agent
from ai.agents.profiles import game_for
from ai.connect4.connect4_book import BOOK_PATH, SolvedBook, load_book, read_book_lines
from ai.connect4.connect4_exact import search_value
from ai.connect4.connect4_solver import Solver, outcome_of, plies_to_end
from ai.kernel.core import WIN
from gameplay.rules.base import GameError
from gameplay.rules.connect4 import Connect4State
from gameplay.rules.connect4_bits import (
    can_win_next,
    column_mask,
    from_state_bits,
    key,
    mirror,
    non_losing_moves,
    possible,
    winning_spots,
)
from tests.test_connect4_agents import expected, positions

DATA = Path(__file__).parent / "data" / "connect4_pons_scores.tsv"
GAME = game_for("connect4")


def bits(moves: str) -> tuple[Connect4State, int, int]:
    s = GAME.parse_position(moves)
    p, m = from_state_bits(s.first, s.mask, s.plies)
    return s, p, m


def pons_rows() -> list[tuple[str, int]]:
    rows = []
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or line.startswith("position"):
            continue
        pos, score, _nodes = line.split("\t")
        rows.append((pos, int(score)))
    return rows


def mirrored(moves: str) -> str:
    return "".join(str(8 - int(c)) for c in moves)


# ----- the bitboards ----------------------------------------------------------------------------------------------
def test_winning_spots_and_non_losing_moves_against_the_rules() -> None:
    rng = random.Random(3)
    checked = 0
    for _ in range(300):
        s = GAME.initial_state()
        for _ in range(rng.randint(0, 30)):
            if GAME.is_terminal(s):
                break
            s = GAME.successor(s, rng.choice(GAME.actions(s)))
        if GAME.is_terminal(s):
            continue
        p, m = from_state_bits(s.first, s.mask, s.plies)
        wins = {c for c in GAME.actions(s) if GAME.outcome(GAME.successor(s, c)) is not None
                and GAME.outcome(GAME.successor(s, c)).winner == s.plies % 2}  # type: ignore[union-attr]
        playable_wins = {c + 1 for c in range(7) if winning_spots(p, m) & possible(m) & column_mask(c)}
        assert playable_wins == wins, s.moves
        assert can_win_next(p, m) == bool(wins)
        if wins:
            continue
        checked += 1
        safe = set()
        for c in GAME.actions(s):
            t = GAME.successor(s, c)
            if GAME.is_terminal(t) or not any(GAME.outcome(GAME.successor(t, d)) is not None
                                              for d in GAME.actions(t)):
                safe.add(c)
        free = non_losing_moves(p, m)
        assert {c + 1 for c in range(7) if free & column_mask(c)} == safe, s.moves
    assert checked > 100


def test_mirror_reverses_the_columns_and_is_its_own_inverse() -> None:
    s, p, m = bits("1123")
    t, q, n = bits(mirrored("1123"))
    assert mirror(key(p, m)) == key(q, n)
    assert mirror(mirror(key(p, m))) == key(p, m)
    assert mirror(p) == q and mirror(m) == n


# ----- the solver ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("position", "score"), pons_rows())
def test_scores_equal_the_outside_solvers(position: str, score: int) -> None:
    solver = Solver()
    _, p, m = bits(position)
    sol = solver.solve(p, m)
    assert sol.score == score
    _, q, n = bits(mirrored(position))
    assert solver.solve(q, n).score == score  # the mirror image, from the shared table


def test_the_move_reaches_the_score() -> None:
    solver = Solver()
    for position, score in pons_rows()[:8]:
        s, p, m = bits(position)
        sol = solver.solve(p, m)
        child = GAME.result(s, sol.column)
        if GAME.is_terminal(child):
            assert score == (43 - s.plies) // 2  # the move wins at once
            continue
        _, cp, cm = bits(child.moves)
        assert -solver.solve(cp, cm).score == score, position


def test_outcome_and_distance_equal_the_independent_solvers() -> None:
    solver = Solver()
    kinds = set()
    for seq, cols in positions(25, seed=49, lo=28, hi=34):
        _, p, m = bits(seq)
        sol = solver.solve(p, m)
        want = expected(cols, len(seq))
        assert outcome_of(sol.score, len(seq)) == want, seq
        kinds.add(want[0])
    assert kinds == {"win", "loss", "draw"}


def test_score_to_distance() -> None:
    assert outcome_of(1, 0) == ("win", 41)  # the solved game: the first player's 21st stone, the 41st of the game
    assert outcome_of(-1, 1) == ("loss", 40)  # the second player, after the centre: the same 41st stone
    assert outcome_of(0, 10) == ("draw", 32)
    assert plies_to_end((43 - 12) // 2, 12) == 1  # a win with the next stone
    assert search_value(1, 0) == WIN - 41 and search_value(-1, 1) == -(WIN - 40) and search_value(0, 5) == 0.0
    with pytest.raises(ValueError, match="stones"):
        plies_to_end(0, 42)
    with pytest.raises(ValueError, match="impossible"):
        plies_to_end(18, 40)


def test_refuses_what_is_not_a_position_before_the_end() -> None:
    solver = Solver()
    with pytest.raises(ValueError, match="over an empty cell"):
        solver.solve(0, 2)  # a stone in row 2 of column 1 above an empty cell
    with pytest.raises(ValueError, match="outside"):
        solver.solve(1 << 6, 1 << 6)  # the sentinel bit
    _, p, m = bits("1212121")
    with pytest.raises(ValueError, match="four"):
        solver.solve(p, m)


# ----- the book -----------------------------------------------------------------------------------------------------
def test_the_shipped_book_reads_and_answers_mirror_images() -> None:
    entries = read_book_lines(BOOK_PATH.read_text(encoding="utf-8"), str(BOOK_PATH))
    assert len(entries) >= 10
    book = load_book()
    assert len(book) == len({e[0] for e in entries}) or len(book) <= len(entries)
    moves, score, column = entries[0]
    _, p, m = bits(moves)
    assert book.probe(p, m) == (score, column)
    _, q, n = bits(mirrored(moves))
    assert book.probe(q, n) == (score, 8 - column)


def test_a_malformed_book_line_is_named() -> None:
    with pytest.raises(GameError, match="line 2"):
        read_book_lines("# ok\n44 x 4\n")
    with pytest.raises(GameError, match="line 1"):
        read_book_lines("1111111 0 4\n")  # column 1 overfilled
    assert len(SolvedBook(read_book_lines("4 -1 4\n"))) == 1


CHEAP_ENTRIES = ("45246312", "2256614")
"""Two book positions the build solved in about a million nodes each (the cheapest to solve again, pure Python too)."""


@pytest.mark.slow
def test_book_entries_agree_with_the_solver() -> None:
    book = {e[0]: e for e in read_book_lines(BOOK_PATH.read_text(encoding="utf-8"))}
    entries = [book[p] for p in CHEAP_ENTRIES]
    solver = Solver()
    for moves, score, column in entries:
        s, p, m = bits(moves)
        assert solver.solve(p, m).score == score, moves
        child = GAME.result(s, column)
        _, cp, cm = bits(child.moves)
        assert -solver.solve(cp, cm).score == score, moves  # the stored column keeps the score


# ----- expert -------------------------------------------------------------------------------------------------------
def test_expert_plays_4_as_a_proven_win_in_41_from_the_start() -> None:
    res = make_agent("connect4", "expert").choose(GAME.initial_state())
    assert (res.move, res.outcome, res.plies_to_end, res.stop_reason) == (4, "win", 41, "book")
    assert res.value == WIN - 41


def test_expert_proves_positions_with_outcome_distance_and_move() -> None:
    agent = make_agent("connect4", "expert:time=30")
    for position, score in pons_rows()[:5]:
        s = GAME.parse_position(position)
        res = agent.choose(s)
        assert res.stop_reason == "proven" and res.extra["solver"] is True
        assert (res.outcome, res.plies_to_end) == outcome_of(score, s.plies), position
        assert res.extra["exact_score"] == score
        assert res.move in GAME.actions(s)


def test_exact_is_ignored_by_a_game_without_a_solver_and_refused_by_other_agents() -> None:
    res = make_agent("tictactoe", "alphabeta:exact=on,depth=2").choose(game_for("tictactoe").initial_state())
    assert res.stop_reason == "depth" and "solver" not in res.extra
    assert make_agent("connect4", "alphabeta:exact=on").settings.search.exact
    with pytest.raises(AgentError, match="^exact applies to alphabeta, not minimax$"):
        make_agent("connect4", "minimax:exact=on")

