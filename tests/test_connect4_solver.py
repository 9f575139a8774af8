"""Connect Four's exact solver (ai/connect4/connect4_solver.py), its bitboards (gameplay/rules/connect4_bits.py), its
book (ai/connect4/connect4_book.py, assets/book/connect4_book.txt) and ``expert``'s use of them.

The scores are checked against an outside solver's (P. Pons's connect4: tests/data/connect4_pons_scores.tsv, with its
source) and, for outcome and distance, against the independent solver of tests/test_connect4_agents.py.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from ai.agents.agent_base import AgentError
from ai.agents.agents import make_agent
from ai.agents.profiles import game_for
from ai.connect4.connect4_book import BOOK_PATH, SolvedBook, load_book, read_book_lines
from ai.connect4.connect4_eval import OpeningBook
from ai.connect4.connect4_exact import search_value
from ai.connect4.connect4_solver import BUCKETS, Solver, outcome_of, plies_to_end
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


LOW_KEYS = (("12112332122331", -3), ("1312211331321", -2))
"""Positions with stones in columns 1-3 only: their keys are below the table's bucket count, so their tag within the
bucket is 0, an empty slot's. The solver once read an empty slot as their entry (an upper bound of -19) and scored
both +19, a score no position has; P. Pons's connect4 scores them as here (run 2026-12-07, no opening book)."""


@pytest.mark.parametrize(("position", "score"), LOW_KEYS)
def test_an_empty_slot_is_no_entry_of_a_position_with_a_low_key(position: str, score: int) -> None:
    _, p, m = bits(position)
    assert min(key(p, m), mirror(key(p, m))) < BUCKETS
    assert Solver().solve(p, m).score == score


NEAR_0 = (("22224531332776554", 0), ("535417726531366", 0), ("6176231455675763", 1), ("3666716171337757", 1))
"""Positions scoring 0 or +1 (P. Pons's connect4, run 2026-12-07 on seeded random play, seed 777)."""


@pytest.mark.parametrize(("position", "score"), NEAR_0)
def test_two_null_window_tests_prove_a_draw_or_the_slowest_win(position: str, score: int) -> None:
    """The narrowing asks "a win?" first, then whether the bound that gave is the score ("a loss?" after a no, "a
    win beyond +1?" after a yes): a draw or a +1 takes two null-window searches (Pons's order, from the far ends
    inwards, takes 5 or more)."""
    _, p, m = bits(position)
    sol = Solver().solve(p, m)
    assert (sol.score, sol.tests) == (score, 2)


def test_the_table_cuts_off_by_a_childs_bound() -> None:
    """Enhanced transposition cutoffs: a node whose move leads to a position the table bounds at or below -beta is
    cut off without a search; the score stays Pons's."""
    cuts = 0
    for position, score in pons_rows()[:6]:
        solver = Solver()
        _, p, m = bits(position)
        assert solver.solve(p, m).score == score
        cuts += solver.etc_cuts
    assert cuts > 0


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


def test_the_shipped_book_proves_the_empty_board_itself() -> None:
    """The book's build solved the empty board (``-``): a first-player win with the 41st stone, by the centre only;
    the opening book says so as the book's own proof, not the literature's."""
    entries = read_book_lines(BOOK_PATH.read_text(encoding="utf-8"))
    assert ("", 1, 4) in entries
    _, p, m = bits("")
    assert load_book().probe(p, m) == (1, 4)
    (entry,) = OpeningBook().lookup(GAME.initial_state())
    assert (entry.move, entry.value, entry.depth) == ("4", WIN - 41, 41)
    assert entry.origin() == "the book (solved): win in 41"


def test_the_shipped_book_holds_every_position_expert_meets_in_its_first_10_plies() -> None:
    """As the first player and as the second, its own moves the book's and every reply of the opponent's, each
    position where expert is to move with up to 10 stones is in the book, and the file stays small."""
    text = BOOK_PATH.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) < 200_000
    assert "# python tools/build_c4_book.py --plies 10 --sides first,second --empty" in text
    book = load_book()
    assert book.max_plies == 10
    start = GAME.initial_state()
    todo = [start] + [GAME.result(start, c) for c in GAME.actions(start)]
    met = set()
    while todo:
        s = todo.pop()
        if GAME.is_terminal(s) or s.plies > 10:
            continue
        p, m = from_state_bits(s.first, s.mask, s.plies)
        found = book.probe(p, m)
        assert found is not None, s.moves
        met.add(min(key(p, m), mirror(key(p, m))))
        after = GAME.result(s, found[1])
        if not GAME.is_terminal(after):
            todo.extend(GAME.result(after, reply) for reply in GAME.actions(after))
    assert len(met) == len(book)


def test_without_the_empty_board_in_the_book_the_published_result_stands_in() -> None:
    book = OpeningBook(SolvedBook(read_book_lines("4 -1 4\n")))
    (entry,) = book.lookup(GAME.initial_state())
    assert (entry.move, entry.value, entry.origin()) == ("4", WIN - 41, "the solved game: win in 41")
    (reply,) = book.lookup(GAME.parse_position("4"))
    assert (reply.move, reply.origin()) == ("4", "the book (solved): loss in 40")


def _book_builder() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "tools" / "build_c4_book.py"
    spec = importlib.util.spec_from_file_location("build_c4_book", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("build_c4_book", mod)
    spec.loader.exec_module(mod)
    return mod


def test_the_book_builder_keeps_every_position_expert_meets(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """tools/build_c4_book.py from a position of 16 stones to 19: expert to move there (as the first side) and
    after each reply (as the second), its move the book's, every reply of the opponent's; each entry's score is the
    solver's and its column keeps the score."""
    out = tmp_path / "book.txt"
    start = "3172637512111417"
    builder = _book_builder()
    assert builder.main(["--start", start, "--plies", "19", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "tools/build_c4_book.py --plies 19 --sides first,second --start 3172637512111417" in text
    book = SolvedBook(read_book_lines(text))
    solver = Solver()
    s0 = GAME.parse_position(start)
    todo = [s0] + [GAME.result(s0, c) for c in GAME.actions(s0)]
    met = set()
    while todo:
        s = todo.pop()
        if GAME.is_terminal(s) or s.plies > 19:
            continue
        _, p, m = bits(s.moves)
        met.add(min(key(p, m), mirror(key(p, m))))
        found = book.probe(p, m)
        assert found is not None, s.moves
        score, column = found
        assert solver.solve(p, m).score == score, s.moves
        child = GAME.result(s, column)
        if GAME.is_terminal(child):
            assert score == (43 - s.plies) // 2  # the stored move wins at once
            continue
        _, cp, cm = bits(child.moves)
        assert -solver.solve(cp, cm).score == score, s.moves
        todo.extend(GAME.result(child, reply) for reply in GAME.actions(child))
    assert len(book) == len(met) >= 10
    capsys.readouterr()
    assert builder.main(["--start", start, "--plies", "19", "--out", str(out), "--resume"]) == 0
    assert f"{len(met)} entries in {out}; 0 positions solved" in capsys.readouterr().out


CHEAP_ENTRIES = ("41434445", "41424456")
"""Two book positions of 8 stones the solver proves in about a million nodes each from an empty table (pure Python
too)."""


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

