"""English checkers rules (RULES.md, ACF rules): perft tables, bug-report positions, draws, notation, invariants.

The move generator is also checked against a deliberately simple reference generator written here on
(row, column) geometry, on random positions (hypothesis).
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.rules.base import (
    Game,
    GameError,
    IllegalMoveError,
    MoveError,
    Outcome,
    PositionError,
)
from gameplay.rules.checkers.checkers import Checkers, count_moves
from gameplay.rules.checkers.checkers_board import (
    START_FEN,
    CheckersMove,
    CheckersState,
    rowcol_to_square,
    square_to_rowcol,
    squares_of,
    zobrist_key,
)
from gameplay.rules.checkers.checkers_notation import format_fen, parse_fen

GAME = Checkers()
DATA = Path(__file__).resolve().parent / "data" / "checkers_perft.tsv"
DEEP = os.environ.get("CHECKERS_PERFT_DEEP") == "1"


def _perft_rows() -> Iterator[tuple[str, int, int]]:
    for line in DATA.read_text().splitlines():
        if not line or line.startswith(("#", "fen\t")):
            continue
        fen, depth, nodes, _source = line.split("\t")
        yield fen, int(depth), int(nodes)


def _play(state: CheckersState, *moves: str) -> CheckersState:
    for text in moves:
        state = GAME.result(state, GAME.parse_move(state, text))
    return state


def _texts(state: CheckersState) -> list[str]:
    return [GAME.format_move(state, m) for m in GAME.actions(state)]


# ----- a slow, obviously-correct reference generator on (row, col) geometry --------------------------------------
def _reference_moves(state: CheckersState) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(path, captures) of every legal move by the ACF rules, from first principles."""
    board: dict[tuple[int, int], str] = {}
    for s in range(1, 33):
        p = state.piece_at(s)
        if p is not None:
            board[square_to_rowcol(s)] = p
    mine = "bB" if state.turn == 0 else "wW"
    forward = 1 if state.turn == 0 else -1
    crown_row = 7 if state.turn == 0 else 0

    def dirs(king: bool) -> list[tuple[int, int]]:
        rows = (1, -1) if king else (forward,)
        return [(dr, dc) for dr in rows for dc in (-1, 1)]

    def on(r: int, c: int) -> bool:
        return 0 <= r < 8 and 0 <= c < 8

    def sq(r: int, c: int) -> int:
        s = rowcol_to_square(r, c)
        assert s is not None
        return s

    jumps: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()

    def extend(r: int, c: int, king: bool, path: list[int], caps: list[tuple[int, int]],
               b: dict[tuple[int, int], str]) -> None:
        more = False
        for dr, dc in dirs(king):
            mr, mc, lr, lc = r + dr, c + dc, r + 2 * dr, c + 2 * dc
            if not on(lr, lc) or (lr, lc) in b:
                continue
            victim = b.get((mr, mc))
            if victim is None or victim in mine or (mr, mc) in caps:
                continue
            more = True
            newpath = [*path, sq(lr, lc)]
            newcaps = [*caps, (mr, mc)]
            if not king and lr == crown_row:
                jumps.add((tuple(newpath), tuple(sq(*x) for x in newcaps)))
            else:
                extend(lr, lc, king, newpath, newcaps, b)
        if not more and caps:
            jumps.add((tuple(path), tuple(sq(*x) for x in caps)))

    steps: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    for (r, c), piece in board.items():
        if piece not in mine:
            continue
        king = piece.isupper()
        lifted = dict(board)
        del lifted[(r, c)]
        extend(r, c, king, [sq(r, c)], [], lifted)
        for dr, dc in dirs(king):
            if on(r + dr, c + dc) and (r + dr, c + dc) not in board:
                steps.add(((sq(r, c), sq(r + dr, c + dc)), ()))
    return jumps if jumps else steps


def _reference_perft(state: CheckersState, depth: int, count_terminal: bool = False) -> int:
    if depth == 0:
        return 1
    moves = GAME.legal_moves(state)
    if not moves:
        return 1 if count_terminal else 0
    return sum(_reference_perft(GAME.successor(state, m), depth - 1, count_terminal) for m in moves)


@st.composite
def positions(draw: st.DrawFn) -> CheckersState:
    """Random legal-looking positions: up to 12 pieces a side, no man on its crowning row."""
    squares = draw(st.permutations(list(range(1, 33))))
    nb = draw(st.integers(0, 12))
    nw = draw(st.integers(0, 12))
    black = white = kings = 0
    for s in squares[:nb]:
        black |= 1 << (s - 1)
    for s in squares[nb:nb + nw]:
        white |= 1 << (s - 1)
    for s in squares[:nb + nw]:
        if draw(st.integers(0, 3)) == 0:
            kings |= 1 << (s - 1)
    kings |= (black & (0xF << 28)) | (white & 0xF)
    return CheckersState(black, white, kings, draw(st.integers(0, 1)))


# ----- protocol and geometry --------------------------------------------------------------------------------------
def test_protocol_and_traits() -> None:
    assert isinstance(GAME, Game)
    assert GAME.name == "checkers"
    assert GAME.player_names == ("Black", "White")
    assert GAME.traits.compulsory_captures is True
    assert GAME.traits.repetition is True
    assert GAME.traits.move_order is True
    assert not GAME.traits.stochastic
    s = GAME.initial_state()
    assert GAME.to_move(s) == 0
    assert format_fen(s) == START_FEN
    assert _texts(s) == ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]


def test_geometry_round_trip() -> None:
    for s in range(1, 33):
        r, c = square_to_rowcol(s)
        assert (r + c) % 2 == 1
        assert rowcol_to_square(r, c) == s
    assert square_to_rowcol(1) == (0, 1)
    assert square_to_rowcol(29) == (7, 0)
    assert rowcol_to_square(0, 0) is None
    with pytest.raises(PositionError):
        square_to_rowcol(33)


# ----- perft ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("fen", "depth", "nodes"), [
    pytest.param(f, d, n, marks=pytest.mark.skipif(d > 9 and not DEEP, reason="set CHECKERS_PERFT_DEEP=1"))
    for f, d, n in _perft_rows()])
def test_perft_table(fen: str, depth: int, nodes: int) -> None:
    state = GAME.parse_position(fen)
    got = GAME.perft(state, depth)
    if got != nodes:
        divide = GAME.perft_divide(state, depth)
        pytest.fail(f"perft({depth}) of {fen} = {got}, expected {nodes}; divide: {divide}")
    # No position in these trees is blocked before the depth, so both conventions give the published numbers.
    if depth <= 8:
        assert GAME.perft(state, depth, count_terminal=True) == nodes


def test_perft_conventions_on_finished_positions() -> None:
    # Issue 10: White to move has no move; pydraughts, OpenSpiel and chess perft count 0 positions 3 plies down.
    lost = GAME.parse_position("W:W21:B14,17")
    assert GAME.perft(lost, 0) == 1
    assert GAME.perft(lost, 3) == 0  # the default: only positions exactly 3 plies down
    assert GAME.perft(lost, 3, count_terminal=False) == 0
    assert GAME.perft(lost, 3, count_terminal=True) == 1  # the finished position counted once
    assert GAME.perft_divide(lost, 3) == {}
    with pytest.raises(GameError):
        GAME.perft(lost, -1)


def test_perft_conventions_differ_below_the_root() -> None:
    # After 22-17 or 22-18 the Black king on 29 jumps both White men (29x22x13, 29x22x15): those two lines are
    # over at ply 2. After 25-21 the game goes on to depth 3.
    s = GAME.parse_position("W:W22,25:BK29")
    assert GAME.perft_divide(s, 3) == {"22-17": 0, "22-18": 0, "25-21": 3}
    assert GAME.perft_divide(s, 3, count_terminal=True) == {"22-17": 1, "22-18": 1, "25-21": 3}
    assert GAME.perft(s, 3) == _reference_perft(s, 3) == 3
    assert GAME.perft(s, 3, count_terminal=True) == _reference_perft(s, 3, True) == 5


@pytest.mark.parametrize("fen", [
    "W:WK14:B1,9,10,17,18", "B:W18,32:B14,1", "W:W22,25:BK29", "B:W6:BK1,5", "B:W14,15,22,23:BK26",
    "W:W9,10,K23,K31:B5,6,14,K27"])
def test_perft_matches_reference_recursion(fen: str) -> None:
    state = GAME.parse_position(fen)
    for depth in range(6):
        assert GAME.perft(state, depth) == _reference_perft(state, depth)
        assert GAME.perft(state, depth, count_terminal=True) == _reference_perft(state, depth, True)


def test_perft_divide_sums() -> None:
    s = GAME.initial_state()
    div = GAME.perft_divide(s, 4)
    assert list(div) == _texts(s)
    assert sum(div.values()) == 1469


# ----- positions from bug reports ---------------------------------------------------------------------------------
def test_single_jump_is_forced() -> None:
    s = GAME.parse_position("B:W18,32:B14,1")
    assert _texts(s) == ["14x23"]


def test_multi_jump_crowns_and_ends() -> None:
    s = GAME.parse_position("B:W11,12,13,19,22,27,28,30:B2,3,6,7,10")
    moves = GAME.actions(s)
    assert [GAME.format_move(s, m) for m in moves] == ["7x16x23x32"]
    assert moves[0].captures == (11, 19, 27)
    after = GAME.result(s, moves[0])
    assert GAME.format_position(after) == "W:W12,13,22,28,30:B2,3,6,10,K32"


def test_crowning_ends_the_move() -> None:
    s = GAME.parse_position("B:W26,27:B22")
    assert _texts(s) == ["22x31"]
    after = GAME.result(s, GAME.parse_move(s, "22x31"))
    assert GAME.format_position(after) == "W:W27:BK31"
    assert GAME.to_move(after) == 1


def test_blocked_side_loses() -> None:
    s = GAME.parse_position("W:W21:B14,17")
    assert GAME.actions(s) == []
    assert GAME.is_terminal(s)
    assert GAME.outcome(s) == Outcome(0, "no legal move")
    assert GAME.utility(s, 0) == 1.0
    assert GAME.utility(s, 1) == -1.0


def test_men_move_forward_only() -> None:
    s = GAME.parse_position("W:W22,25:BK29")
    assert not GAME.is_terminal(s)
    assert GAME.outcome(s) is None
    assert sorted(_texts(s)) == ["22-17", "22-18", "25-21"]


def test_no_pieces_loses() -> None:
    s = GAME.parse_position("B:WK22:B")
    assert GAME.outcome(s) == Outcome(1, "no legal move")


def test_men_do_not_jump_backward_kings_do() -> None:
    man = GAME.parse_position("B:W14:B18")  # a Black man on 18 with a White man behind it on 14
    assert "18x9" not in _texts(man) and "18x10" not in _texts(man)
    king = GAME.parse_position("B:W14:BK18")
    assert _texts(king) == ["18x9"]


def test_two_capture_paths_between_the_same_squares() -> None:
    s = GAME.parse_position("B:W14,15,22,23:BK26")
    texts = _texts(s)
    assert sorted(texts) == ["26x17x10x19x26", "26x19x10x17x26"]  # the king circles back to its own square
    with pytest.raises(MoveError, match="ambiguous") as err:
        GAME.parse_move(s, "26x26")
    assert "26x17x10x19x26" in str(err.value) and "26x19x10x17x26" in str(err.value)
    m = GAME.parse_move(s, "26x17x10x19x26")
    assert len(m.captures) == 4
    after = GAME.result(s, m)
    assert GAME.format_position(after) == "W:W:BK26"
    assert GAME.outcome(after) == Outcome(0, "no legal move")
    assert GAME.parse_move(s, "26x17x10x26") == m  # a shortened path naming enough landing squares


def test_short_form_and_full_path() -> None:
    s = GAME.parse_position("B:W11,12,13,19,22,27,28,30:B2,3,6,7,10")
    full = GAME.parse_move(s, "7x16x23x32")
    assert GAME.parse_move(s, "7x32") == full
    assert GAME.parse_move(s, " 7X32 ") == full
    assert str(full) == "7x16x23x32"


# ----- draws -----------------------------------------------------------------------------------------------------
def test_threefold_repetition() -> None:
    s = GAME.parse_position("B:WK32:BK1")
    plies = ["1-5", "32-28", "5-1", "28-32", "1-5", "32-28", "5-1", "28-32"]
    for i, text in enumerate(plies, 1):
        s = GAME.result(s, GAME.parse_move(s, text))
        if i < 8:
            assert GAME.outcome(s) is None, f"over too early, after ply {i}"
            assert not GAME.is_terminal(s)
    assert s.repetitions == 3
    assert GAME.outcome(s) == Outcome(None, "threefold repetition")
    assert GAME.is_terminal(s)
    assert GAME.actions(s) == []
    assert GAME.utility(s, 0) == 0.0
    with pytest.raises(IllegalMoveError, match="over"):
        GAME.result(s, CheckersMove((1, 5)))
    with pytest.raises(MoveError, match="over"):
        GAME.parse_move(s, "1-5")
    assert GAME.legal_moves(s)  # the movement rules alone still allow moves


def test_forty_move_rule() -> None:
    rng = random.Random(7)
    start = GAME.parse_position("B:WK29,K32:BK1,K4")
    for _attempt in range(20):
        s = start
        for ply in range(80):
            assert GAME.outcome(s) is None
            assert s.quiet == ply
            moves = [m for m in GAME.actions(s) if not m.captures
                     and GAME.successor(s, m).repetitions < 3
                     and GAME.legal_moves(GAME.successor(s, m))
                     and not GAME.legal_moves(GAME.successor(s, m))[0].captures]
            if not moves:
                break
            fresh = [m for m in moves if GAME.successor(s, m).repetitions == 1]
            s = GAME.result(s, rng.choice(fresh or moves))
        else:
            assert s.quiet == 80
            assert GAME.outcome(s) == Outcome(None, "40-move rule")
            assert GAME.actions(s) == []
            return
    pytest.fail("no 80-ply quiet king walk found")


def test_man_move_and_capture_reset_the_counter() -> None:
    s = CheckersState(parse_fen("B:W20,K32:B5,K1").black, parse_fen("B:W20,K32:B5,K1").white,
                      parse_fen("B:W20,K32:B5,K1").kings, 0, quiet=79, history=(1, 2, 3))
    assert GAME.outcome(s) is None
    after_king = GAME.result(s, GAME.parse_move(s, "1-6"))
    assert after_king.quiet == 80 and GAME.outcome(after_king) == Outcome(None, "40-move rule")
    after_man = GAME.result(s, GAME.parse_move(s, "5-9"))
    assert after_man.quiet == 0 and after_man.history == ()
    assert GAME.outcome(after_man) is None


def test_loss_takes_precedence_over_draw_counters() -> None:
    b = parse_fen("W:W21:B14,17")
    s = CheckersState(b.black, b.white, b.kings, b.turn, quiet=90)
    assert GAME.outcome(s) == Outcome(0, "no legal move")


# ----- state value semantics ---------------------------------------------------------------------------------------
def test_state_equality_ignores_counters() -> None:
    a = parse_fen("B:WK32:BK1")
    b = CheckersState(a.black, a.white, a.kings, a.turn, quiet=12, history=(5, 6))
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1
    c = CheckersState(a.black, a.white, a.kings, 1)
    assert a != c and hash(a) != hash(c)
    assert a != "B:WK32:BK1"
    # the attributes are Final: mypy refuses any assignment (tests/test_lint.py runs it over the rules), and the
    # compiled module refuses it at run time too
    from gameplay.rules.compiled import is_compiled
    if is_compiled("gameplay.rules.checkers.checkers"):
        with pytest.raises(AttributeError):
            a.black = 0  # type: ignore[misc]


def test_move_value_type() -> None:
    s = GAME.initial_state()
    m = GAME.parse_move(s, "11-15")
    assert m == CheckersMove((11, 15))
    assert hash(m) == hash(CheckersMove((11, 15)))
    assert not m.is_capture and m.start == 11 and m.end == 15
    assert GAME.order_key(None, m) == 0
    j = GAME.parse_move(GAME.parse_position("B:W18,32:B14,1"), "14x23")
    assert j.is_capture and j.captures == (18,) and j.capture_mask == 1 << 17
    assert GAME.order_key(None, j) > 0


def test_noisy_actions() -> None:
    assert GAME.noisy_actions(GAME.initial_state()) == []
    s = GAME.parse_position("B:W18,32:B14,1")
    assert GAME.noisy_actions(s) == GAME.actions(s)


# ----- notation errors ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "fragment"), [
    ("", "expected a PDN FEN"),
    ("X:W21-32:B1-12", "side to move must be B or W"),
    ("B:W21-32", "expected a PDN FEN"),
    ("B:W21-32:W1-12", "one 'W' list and one 'B' list"),
    ("B:W21-33:B1-12", "off the board"),
    ("B:W0:B1", "off the board"),
    ("B:W5,5:B1", "listed twice"),
    ("B:W5:B5", "listed twice"),
    ("B:Wfoo:B1", "bad square"),
    ("B:W12-9:B1", "descending range"),
    ("B:W1-13:B20", "at most 12"),
    ("B:W10:B30", "crowning row"),
    ("W:W2:B10", "crowning row"),
])
def test_bad_positions(text: str, fragment: str) -> None:
    with pytest.raises(PositionError, match=fragment):
        GAME.parse_position(text)


def test_position_variants() -> None:
    assert GAME.parse_position("B:W21-32:B1-12") == GAME.initial_state()
    assert GAME.parse_position("B:B1-12:W21-32") == GAME.initial_state()
    assert GAME.parse_position(" b:w21-32:b1-12. ") == GAME.initial_state()
    s = GAME.parse_position("B:WK22:B")
    assert s.white == 1 << 21 and s.kings == 1 << 21 and s.black == 0
    assert GAME.format_position(s) == "B:WK22:B"
    t = GAME.parse_position("W:WK22,13,12:B3,2")
    assert GAME.format_position(t) == "W:W12,13,K22:B2,3"
    assert GAME.format_position(GAME.parse_position("B:WK1-K3:B")) == "B:WK1,K2,K3:B"


@pytest.mark.parametrize(("text", "fragment"), [
    ("", "expected a move like"),
    ("11", "expected a move like"),
    ("11-", "expected a move like"),
    ("a1-b2", "expected a move like"),
    ("11-40", "off the board"),
    ("11-16-20", "illegal move"),
    ("11-17", "illegal move"),
    ("21-17", "illegal move"),
])
def test_bad_moves(text: str, fragment: str) -> None:
    with pytest.raises(MoveError, match=fragment):
        GAME.parse_move(GAME.initial_state(), text)


def test_illegal_move_messages() -> None:
    s = GAME.parse_position("B:W18,32:B14,1")
    with pytest.raises(MoveError, match=r"legal moves are 14x23 \(captures are compulsory\)"):
        GAME.parse_move(s, "1-6")
    with pytest.raises(IllegalMoveError, match="legal: 14x23"):
        GAME.result(s, CheckersMove((1, 6)))
    with pytest.raises(IllegalMoveError):
        GAME.result(s, "14x23")  # type: ignore[arg-type]


# ----- properties ------------------------------------------------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(positions())
def test_generator_matches_reference(state: CheckersState) -> None:
    got = {(m.path, m.captures) for m in GAME.legal_moves(state)}
    assert got == _reference_moves(state)
    assert len(got) == len(GAME.legal_moves(state))  # no duplicates
    assert GAME.perft(state, 1) == len(got)
    assert GAME.perft(state, 1, count_terminal=True) == max(1, len(got))
    assert GAME.is_terminal(state) == (not got)
    swapped = CheckersState(state.black, state.white, state.kings, 1 - state.turn)
    assert count_moves(state, state.turn) == len(got)
    assert count_moves(state, 1 - state.turn) == len(_reference_moves(swapped))
    if state.black | state.white:
        assert parse_fen(format_fen(state)) == state
    else:  # no piece at all: no game reaches it, and the FEN reader refuses it (it read "W:W:B" as a Black win)
        with pytest.raises(PositionError, match="no piece on the board"):
            parse_fen(format_fen(state))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_games_keep_invariants(seed: int) -> None:
    rng = random.Random(seed)
    s = GAME.initial_state()
    counts = (s.black.bit_count(), s.white.bit_count())
    for _ply in range(200):
        assert s.black & s.white == 0
        assert s.kings & ~(s.black | s.white) == 0
        assert hash(s) == s.key == zobrist_key(s.black, s.white, s.kings, s.turn)  # incremental == scratch
        assert parse_fen(format_fen(s)) == s
        assert len(s.history) == s.quiet
        moves = GAME.actions(s)
        assert GAME.is_terminal(s) == (not moves) == (GAME.outcome(s) is not None)
        if not moves:
            break
        assert {(m.path, m.captures) for m in moves} == _reference_moves(s)
        m = rng.choice(moves)
        assert GAME.parse_move(s, GAME.format_move(s, m)) == m
        nxt = GAME.result(s, m)
        assert nxt == GAME.successor(s, m)
        new_counts = (nxt.black.bit_count(), nxt.white.bit_count())
        assert new_counts[0] <= counts[0] and new_counts[1] <= counts[1]
        assert sum(counts) - sum(new_counts) == len(m.captures)
        assert nxt.kings.bit_count() >= s.kings.bit_count() - len(m.captures)
        assert GAME.to_move(nxt) == 1 - GAME.to_move(s)
        counts = new_counts
        s = nxt


def test_is_terminal_is_cheap() -> None:
    # sanity, not a timing test: is_terminal agrees with actions on a few hundred random-walk positions
    rng = random.Random(3)
    for _ in range(30):
        s = GAME.initial_state()
        while GAME.actions(s):
            assert not GAME.is_terminal(s)
            s = GAME.successor(s, rng.choice(GAME.actions(s)))
        assert GAME.is_terminal(s)
        assert GAME.outcome(s) is not None
        assert squares_of(s.black | s.white) == sorted(squares_of(s.black) + squares_of(s.white))


def test_generic_search_drives_the_game() -> None:
    from ai.kernel.search import Searcher, SearchLimits, SearchOptions, iterative_deepening
    from gameplay.rules.perft import perft as generic_perft

    def material(state: CheckersState, player: int) -> float:
        men_b, kings_b = GAME.piece_counts(state, 0)
        men_w, kings_w = GAME.piece_counts(state, 1)
        v = 5 * (kings_b - kings_w) + (men_b - men_w)
        return float(v if player == 0 else -v)

    s = GAME.parse_position("B:W11,12,13,19,22,27,28,30:B2,3,6,7,10")
    searcher = Searcher(GAME, material, SearchOptions(tt=True, quiescence=True))
    res = iterative_deepening(GAME, s, searcher, SearchLimits(depth=4))
    assert GAME.format_move(s, res.move) == "7x16x23x32"
    start = GAME.initial_state()
    res = iterative_deepening(GAME, start, Searcher(GAME, material, SearchOptions(tt=True)), SearchLimits(depth=3))
    assert res.move in GAME.actions(start)
    assert generic_perft(GAME, start, 5) == 7361
