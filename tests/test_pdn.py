"""PDN games and FEN positions (gameplay.rules.checkers.pdn): reading, writing, round trips, errors with line/column."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.rules.base import GameError, MoveError, Outcome, PositionError
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.checkers.checkers_board import CheckersState
from gameplay.rules.checkers.pdn import (
    RESULTS,
    PDNError,
    PDNGame,
    game_from_moves,
    read_fen,
    read_moves,
    result_token,
    write_fen,
    write_game,
    write_games,
)
from gameplay.rules.checkers.pdn_read import read_game, read_games

GAME = Checkers()

SAMPLE = """[Event "Club night"]
[Date "2024.03.01"]
[Black "Ann"]
[White "Bob"]
[Result "1-0"]

1. 11-15 23-19 {a comment} 2. 8-11 22-17
3. 9-13 17-14 {a comment
over two lines} 4. 10x17 21x14 (4... 19x10 5. 6x15) $1 5. 6-10!? 1-0
"""


def _random_game(seed: int, start: CheckersState | None = None, max_plies: int = 120) -> PDNGame:
    rng = random.Random(seed)
    s = start if start is not None else GAME.initial_state()
    first = s
    moves = []
    for _ in range(rng.randrange(0, max_plies)):
        legal = GAME.actions(s)
        if not legal:
            break
        m = rng.choice(legal)
        moves.append(m)
        s = GAME.successor(s, m)
    return PDNGame({"Event": f"random {seed}", "Black": 'Ann "the wall"', "White": "Bob\\Back"}, first, moves,
                   result_token(GAME.outcome(s)))


def test_read_sample() -> None:
    g = read_game(SAMPLE)
    assert g.tags == {"Event": "Club night", "Date": "2024.03.01", "Black": "Ann", "White": "Bob"}
    assert g.result == "1-0"
    assert g.start == GAME.initial_state()
    assert g.move_texts() == ["11-15", "23-19", "8-11", "22-17", "9-13", "17-14", "10x17", "21x14", "6-10"]
    assert len(g.states()) == 10
    assert g.final_state().turn == 1


def test_write_sample() -> None:
    g = read_game(SAMPLE)
    text = write_game(g)
    assert text.splitlines()[:6] == ['[Event "Club night"]', '[Date "2024.03.01"]', '[Black "Ann"]',
                                     '[White "Bob"]', '[Result "1-0"]', ""]
    assert "1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 5. 6-10 1-0" in text
    assert read_game(text) == g


def test_set_up_position_and_white_first() -> None:
    start = read_fen("W:W27:BK31")
    g = game_from_moves(["27-23", "31-27"], start=start, tags={"Event": "ending"})
    text = write_game(g)
    assert '[SetUp "1"]' in text and '[FEN "W:W27:BK31"]' in text
    assert "1... 27-23 2. 31-27 *" in text
    back = read_game(text)
    assert back == g
    assert back.start.turn == 1


def test_multi_jump_full_and_short_forms() -> None:
    fen = "B:W11,12,13,19,22,27,28,30:B2,3,6,7,10"
    for mv in ("7x16x23x32", "7x32"):
        text = f'[SetUp "1"]\n[FEN "{fen}"]\n\n1. {mv} *\n'
        g = read_game(text)
        assert g.move_texts() == ["7x16x23x32"]
        assert write_fen(g.final_state()) == "W:W12,13,22,28,30:B2,3,6,10,K32"


def test_several_games_and_round_trip() -> None:
    games = [_random_game(i) for i in range(4)]
    text = write_games(games)
    assert read_games(text) == games
    assert read_games("") == []
    assert read_games("  \n{just a comment}\n") == []


def test_game_without_result_token_or_tags() -> None:
    g = read_game("1. 11-15 23-19")
    assert g.result == "*" and g.tags == {}
    assert g.move_texts() == ["11-15", "23-19"]
    g2 = read_game('[Result "0-1"]\n1. 11-15 23-19\n')
    assert g2.result == "0-1"


def test_new_tag_section_starts_a_new_game() -> None:
    games = read_games('[Event "a"]\n1. 11-15 *\n[Event "b"]\n1. 9-13\n[Event "c"]\n1. 10-14 1/2-1/2')
    assert [g.tags["Event"] for g in games] == ["a", "b", "c"]
    assert [g.result for g in games] == ["*", "*", "1/2-1/2"]


def test_result_tokens() -> None:
    assert result_token(None) == "*"
    assert result_token(Outcome(0, "no legal move")) == "1-0"
    assert result_token(Outcome(1, "no legal move")) == "0-1"
    assert result_token(Outcome(None, "threefold repetition")) == "1/2-1/2"
    assert set(RESULTS) == {"1-0", "0-1", "1/2-1/2", "*"}


def test_game_from_moves_takes_the_result_from_the_position() -> None:
    g = game_from_moves(["1-5", "32-28", "5-1", "28-32", "1-5", "32-28", "5-1", "28-32"], start="B:WK32:BK1")
    assert g.result == "1/2-1/2"
    assert GAME.outcome(g.final_state()) == Outcome(None, "threefold repetition")
    assert read_game(write_game(g)) == g
    assert game_from_moves([], start="W:W21:B14,17").result == "1-0"
    with pytest.raises(MoveError):
        game_from_moves(["11-16", "11-15"])
    with pytest.raises(PDNError):
        game_from_moves([], result="2-0")


def test_reading_ignores_draw_rules() -> None:
    moves = ["1-5", "32-28", "5-1", "28-32", "1-5", "32-28", "5-1", "28-32", "1-5"]
    text = '[FEN "B:WK32:BK1"]\n1. ' + " ".join(moves) + " *"
    assert len(read_game(text).moves) == 9


def test_read_moves() -> None:
    s = GAME.initial_state()
    assert [str(m) for m in read_moves(s, ["11-15", "23-19", "8-11"])] == ["11-15", "23-19", "8-11"]
    with pytest.raises(MoveError):
        read_moves(s, ["11-15", "11-15"])


def test_fen_functions() -> None:
    s = read_fen("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29")
    assert write_fen(s) == "B:WK10,K15,18,24,27,28:B12,16,20,K22,K25,K29"
    assert read_fen(write_fen(s)) == s
    with pytest.raises(PositionError, match="expected a PDN FEN"):
        read_fen("B:W1-12")


# ----- errors with line and column ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "line", "column", "fragment"), [
    ("1. 11-15 23-19\n2. 8-11 22-18\n3. 11-16 *", 3, 4, "illegal move '11-16'"),
    ("1. 11-15 {an open comment\n2. 8-11", 1, 10, "never closed"),
    ("1. 11-15 (2. 9-13", 1, 10, "never closed"),
    ('[Event "x"\n1. 11-15 *', 1, 1, "malformed tag pair"),
    ('[FEN "B:W1-40:B5"]\n1. 11-15 *', 1, 1, "bad FEN tag"),
    ("1. 11-15 hello *", 1, 10, "unexpected 'hello'"),
    ("1. 11-15 23-19 2. 9-14 22-17 3. 14x21x30 *", 1, 33, "illegal move"),
    ("1-0", 1, 1, "no game before it"),
])
def test_errors_give_line_and_column(text: str, line: int, column: int, fragment: str) -> None:
    with pytest.raises(PDNError, match=fragment) as err:
        read_games(text)
    assert (err.value.line, err.value.column) == (line, column)
    assert str(err.value).startswith(f"PDN line {line}, column {column}: ")
    assert isinstance(err.value, GameError)


def test_lenient_tags_and_results_are_warnings() -> None:
    """A tag given twice, a result token that disagrees with the Result tag and a Result tag that is no result are
    read with a warning (issue 16; they refused the whole text before)."""
    g = read_game('[Event "e"]\n[Black "a"]\n[Black "b"]\n*')
    assert g.tags == {"Event": "e", "Black": "a"}
    assert g.warnings == ["line 3, column 1: tag Black is given twice: kept 'a' (line 2), ignored 'b'"]
    g = read_game('[Result "1-0"]\n1. 11-15 0-1')
    assert g.result == "0-1" and g.warnings == [
        "line 2, column 10: the moves end with 0-1 but the Result tag (line 1) says 1-0: kept 0-1"]
    g = read_game('\n[Result "won"]\n1. 11-15 *')
    assert g.result == "*" and g.warnings == ["line 2, column 1: Result tag 'won' is not one of 1-0, 0-1, "
                                              "1/2-1/2, *: ignored"]


def test_ambiguous_short_form_in_pdn() -> None:
    with pytest.raises(PDNError, match="ambiguous") as err:
        read_game('[SetUp "1"]\n[FEN "B:W14,15,22,23:BK26"]\n\n1. 26x26 *')
    assert (err.value.line, err.value.column) == (4, 4)


def test_read_game_wants_one_game() -> None:
    with pytest.raises(PDNError, match="exactly one game"):
        read_game("")
    with pytest.raises(PDNError, match="exactly one game"):
        read_game("1. 11-15 * 1. 9-13 *")


def test_write_errors() -> None:
    with pytest.raises(PDNError, match="line break"):
        write_game(PDNGame({"Event": "a\nb"}))
    with pytest.raises(PDNError, match="tag name"):
        write_game(PDNGame({"Bad Name": "x"}))
    with pytest.raises(PDNError, match="result"):
        write_game(PDNGame(result="2-0"))


# ----- round-trip properties ----------------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_round_trip_random_games(seed: int, set_up: bool) -> None:
    start = None
    if set_up:  # start from a position reached by a random walk, with either side to move
        walk = _random_game(seed ^ 0x5A5A, max_plies=40)
        start = read_fen(write_fen(walk.final_state()))
    g = _random_game(seed, start)
    text = write_game(g, width=60)
    assert all(len(line) <= 60 or line.startswith("[") for line in text.splitlines())
    back = read_game(text)
    assert back == g
    assert write_game(back, width=60) == text


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,8}", fullmatch=True)
                       .filter(lambda n: n not in ("Result", "SetUp", "FEN")),
                       st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=20), max_size=5))
def test_round_trip_tags(tags: dict[str, str]) -> None:
    g = PDNGame(tags, GAME.initial_state(), [GAME.parse_move(GAME.initial_state(), "11-15")], "*")
    assert read_game(write_game(g)) == g
