"""English checkers (8x8 draughts) under the ACF / WCDF rules, as fixed by RULES.md.

Rules (American Checker Federation rules, RULES.md "English checkers"): play on the 32 dark squares, numbered
1..32 in the standard PDN way; Black (player 0) has men on 1..12, moves first and moves toward 29..32; White
(player 1) has men on 21..32 and moves toward 1..4. Men step one square diagonally forward; kings one square in
any diagonal direction (no flying kings). Captures are compulsory, but the player chooses freely among them;
a capture continues with the same piece while it can jump again and must be completed; men jump forward only,
kings in all four directions; a piece is jumped at most once in a sequence (jumped pieces stay on the board,
blocking, until the move ends). A man reaching the far row is crowned and the move ends there. The side to move
with no legal move loses. Draws, declared automatically: the same position with the same side to move for the
third time (threefold repetition), or 80 consecutive plies with no capture and no man move (the 40-move rule).

Board geometry: square ``s`` (1..32) lies on row ``(s - 1) // 4`` (row 0 is Black's home row 1..4, at the top
of the standard diagram) and column ``2 * ((s - 1) % 4) + (1 if the row is even else 0)`` (column 0 at the
left). So 1 is at row 0, column 1 and 29 at row 7, column 0.

Representation:

* A **state** (:class:`CheckersState`) is immutable and hashable. Its bitboards ``black``, ``white`` and
  ``kings`` are 32-bit ints with bit ``s - 1`` standing for PDN square ``s``. Its hash is a Zobrist key
  (Zobrist 1970) of the position and side to move, updated incrementally by every move; the keys have 62
  random bits so that CPython's ``hash()`` returns the key unchanged (``hash(s) == s.key``; a 64-bit value
  would be folded modulo 2**61 - 1 by ``hash()`` when above 2**63) and the compiled code keeps them unboxed
  (mypyc stores an integer below 2**62 in a machine word: a 63-bit key made every XOR of the key allocate a
  Python integer object; 2026-12-04). Equality compares
  position and side to move only (not the draw counters), so a transposition table keyed by states works and
  ``state in path`` detects a repetition.
* A **move** (:class:`CheckersMove`) is an immutable value: the full path of PDN squares (every landing square
  of a multi-jump) and the squares it captures.
* Internally the move generator works on a 35-bit "ghost square" layout (bits 8, 17 and 26 are off-board
  padding) in which every diagonal step is a shift by 4 or 5 and every jump a shift by 8 or 10, so whole sets
  of moves are found with a few shifts and masks (the layout of the classic bitboard checkers engines).

The board's data (geometry, layout, Zobrist keys, the value types) is :mod:`gameplay.rules.checkers.checkers_board`, the
perft fast path :mod:`gameplay.rules.checkers.checkers_perft`, the notation and FEN
:mod:`gameplay.rules.checkers.checkers_notation`; this module generates the moves and is the game.
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import i64, mypyc_attr

from gameplay.rules.base import (
    DeterministicGame,
    GameError,
    GameTraits,
    IllegalMoveError,
    MoveError,
    Outcome,
    Termination,
)
from gameplay.rules.bits import popcount
from gameplay.rules.checkers.checkers_board import (
    BLACK,
    BLACK_CROWN_ROW,
    INT_OF_SQ,
    QUIET_PLY_LIMIT,
    REPETITION_LIMIT,
    ROW0,
    ROW7,
    SQ_OF_INT,
    VALID,
    WHITE,
    WHITE_CROWN_ROW,
    Z_BLACK_KING,
    Z_BLACK_MAN,
    Z_WHITE_KING,
    Z_WHITE_MAN,
    Z_WHITE_TO_MOVE,
    CheckersMove,
    CheckersState,
    to35,
)
from gameplay.rules.checkers.checkers_notation import (
    format_fen,
    format_move_text,
    match_move,
    parse_fen,
    parse_move_squares,
)
from gameplay.rules.checkers.checkers_perft import count_b, count_w, perft_b, perft_w

# ----- precomputed move objects (no allocation for steps and single jumps) -------------------------------------
_SHIFTS: Final[tuple[int, ...]] = (-5, -4, 4, 5)  # each diagonal step in the internal layout (ascending)


def _step_table(shift: int) -> tuple[CheckersMove | None, ...]:
    table: list[CheckersMove | None] = []
    for b in range(35):
        s = SQ_OF_INT[b]
        t = b + shift
        if s and 0 <= t < 35 and SQ_OF_INT[t]:
            table.append(CheckersMove((s, SQ_OF_INT[t])))
        else:
            table.append(None)
    return tuple(table)


def _jump_table(shift: int) -> tuple[CheckersMove | None, ...]:
    table: list[CheckersMove | None] = []
    for b in range(35):
        s = SQ_OF_INT[b]
        o, t = b + shift, b + 2 * shift
        if s and 0 <= o < 35 and 0 <= t < 35 and SQ_OF_INT[o] and SQ_OF_INT[t]:
            table.append(CheckersMove((s, SQ_OF_INT[t]), (SQ_OF_INT[o],)))
        else:
            table.append(None)
    return tuple(table)


_STEP_M5: Final = _step_table(-5)
_STEP_M4: Final = _step_table(-4)
_STEP_P4: Final = _step_table(4)
_STEP_P5: Final = _step_table(5)
_JUMP: Final[tuple[tuple[CheckersMove | None, ...], ...]] = tuple(
    _jump_table(d) if d in _SHIFTS else (None,) * 35 for d in range(-5, 6))
"""The single jumps by direction (index: the internal shift + 5) then by start bit."""


def _jump_sequences(pos: i64, them: i64, empty: i64, king: bool, black: bool,
                    path: list[int], caps: list[int], out: list[CheckersMove]) -> None:
    """Append every complete jump sequence continuing from internal bit ``pos`` (game-level, builds moves).

    ``them`` holds the enemy pieces not yet jumped; ``empty`` the empty squares (captured pieces stay
    occupied until the move ends; the start square is empty). Bitboards are native 64-bit integers (``i64``:
    compiled, plain machine arithmetic), as in the other move-generation helpers here.
    """
    found = False
    for d in _SHIFTS:
        if not king and ((d > 0) != black):
            continue
        shift: i64 = d
        o = pos << shift if shift > 0 else pos >> -shift
        if not o & them:
            continue
        t = o << shift if shift > 0 else o >> -shift
        if not t & empty:
            continue
        found = True
        path.append(SQ_OF_INT[int(t).bit_length() - 1])
        caps.append(SQ_OF_INT[int(o).bit_length() - 1])
        if not king and t & (ROW7 if black else ROW0):
            out.append(_make_jump(path, caps))
        else:
            _jump_sequences(t, them ^ o, empty, king, black, path, caps, out)
        path.pop()
        caps.pop()
    if not found and len(path) > 1:
        out.append(_make_jump(path, caps))


def _jumps_from(p: i64, them: i64, empty: i64, king: bool, black: bool, out: list[CheckersMove]) -> None:
    """Append every complete jump sequence of the piece on internal bit ``p``, in :func:`_jump_sequences`' order.

    A jump that cannot go on (a man crowned, or no further jump from its landing square: a few shifts and masks
    tell) is a single jump, appended from the precomputed table; only a jump that goes on builds its path in
    lists (:func:`_jump_sequences`). ``empty`` includes ``p`` (the moving piece's square is empty).
    """
    i = int(p).bit_length() - 1
    for d in _SHIFTS:
        if not king and ((d > 0) != black):
            continue
        shift: i64 = d
        o = p << shift if shift > 0 else p >> -shift
        if not o & them:
            continue
        t = o << shift if shift > 0 else o >> -shift
        if not t & empty:
            continue
        if (not king and t & (ROW7 if black else ROW0)) or not _can_jump_on(t, them ^ o, empty, king, black):
            out.append(_JUMP[d + 5][i])  # type: ignore[arg-type]
        else:
            _jump_sequences(t, them ^ o, empty, king, black, [SQ_OF_INT[i], SQ_OF_INT[int(t).bit_length() - 1]],
                            [SQ_OF_INT[int(o).bit_length() - 1]], out)


def _can_jump_on(t: i64, them: i64, empty: i64, king: bool, black: bool) -> bool:
    """True when the piece that has just landed on internal bit ``t`` can jump again (``them``: the enemy pieces not
    yet jumped; ``empty``: the empty squares)."""
    if king or black:
        if ((t << 4) & them and (t << 8) & empty) or ((t << 5) & them and (t << 10) & empty):
            return True
    if king or not black:
        if ((t >> 4) & them and (t >> 8) & empty) or ((t >> 5) & them and (t >> 10) & empty):
            return True
    return False


def _make_jump(path: list[int], caps: list[int]) -> CheckersMove:
    if len(path) == 2:
        a, b = path
        ia, ib = INT_OF_SQ[a], INT_OF_SQ[b]
        m = _JUMP[(ib - ia) // 2 + 5][ia]
        if m is not None:
            return m
    return CheckersMove(tuple(path), tuple(caps))


def _generate(us: i64, them: i64, kings: i64, black: bool) -> list[CheckersMove]:
    """All legal moves (draw rules ignored) for the side owning ``us`` (internal 35-bit bitboards).

    Order: captures (only, when any) by start square; otherwise steps by start square, then destination.
    """
    empty = VALID & ~(us | them)
    uk = us & kings
    if black:
        jumpers = us & (((them >> 4) & (empty >> 8)) | ((them >> 5) & (empty >> 10)))
        if uk:
            jumpers |= uk & (((them << 4) & (empty << 8)) | ((them << 5) & (empty << 10)))
    else:
        jumpers = us & (((them << 4) & (empty << 8)) | ((them << 5) & (empty << 10)))
        if uk:
            jumpers |= uk & (((them >> 4) & (empty >> 8)) | ((them >> 5) & (empty >> 10)))
    out: list[CheckersMove] = []
    if jumpers:
        while jumpers:
            p = jumpers & -jumpers
            jumpers ^= p
            _jumps_from(p, them, empty | p, bool(p & kings), black, out)
        return out
    if black:
        f4 = us & (empty >> 4)
        f5 = us & (empty >> 5)
        b4 = uk & (empty << 4)
        b5 = uk & (empty << 5)
    else:
        b4 = us & (empty << 4)
        b5 = us & (empty << 5)
        f4 = uk & (empty >> 4)
        f5 = uk & (empty >> 5)
    movers = f4 | f5 | b4 | b5
    while movers:
        p = movers & -movers
        movers ^= p
        i = int(p).bit_length() - 1
        if b5 & p:
            out.append(_STEP_M5[i])  # type: ignore[arg-type]
        if b4 & p:
            out.append(_STEP_M4[i])  # type: ignore[arg-type]
        if f4 & p:
            out.append(_STEP_P4[i])  # type: ignore[arg-type]
        if f5 & p:
            out.append(_STEP_P5[i])  # type: ignore[arg-type]
    return out


def _has_move(us: i64, them: i64, kings: i64, black: bool) -> bool:
    """True when the side owning ``us`` has at least one legal move (internal 35-bit bitboards)."""
    empty = VALID & ~(us | them)
    uk = us & kings
    if black:
        if us & ((empty >> 4) | (empty >> 5) | ((them >> 4) & (empty >> 8)) | ((them >> 5) & (empty >> 10))):
            return True
        return bool(uk & ((empty << 4) | (empty << 5) | ((them << 4) & (empty << 8))
                          | ((them << 5) & (empty << 10))))
    if us & ((empty << 4) | (empty << 5) | ((them << 4) & (empty << 8)) | ((them << 5) & (empty << 10))):
        return True
    return bool(uk & ((empty >> 4) | (empty >> 5) | ((them >> 4) & (empty >> 8)) | ((them >> 5) & (empty >> 10))))


def _can_jump(us: i64, them: i64, kings: i64, black: bool) -> bool:
    """True when the side owning ``us`` has a capture (internal 35-bit bitboards), whoever is to move."""
    empty = VALID & ~(us | them)
    uk = us & kings
    fwd = ((them >> 4) & (empty >> 8)) | ((them >> 5) & (empty >> 10))
    back = ((them << 4) & (empty << 8)) | ((them << 5) & (empty << 10))
    if black:
        return bool(us & fwd) or bool(uk & back)
    return bool(us & back) or bool(uk & fwd)


def can_capture(state: CheckersState, player: int) -> bool:
    """True when ``player`` (0 Black, 1 White) would have a capture in ``state``'s position, whoever is to move.

    A few shifts and masks (no move objects): the tactical tests of the search (``ai.kernel.tactics``) use it.
    """
    b, w, k = to35(state.black), to35(state.white), to35(state.kings)
    return _can_jump(b, w, k, True) if player == BLACK else _can_jump(w, b, k, False)


def count_moves(state: CheckersState, player: int) -> int:
    """Number of legal moves ``player`` would have in ``state``'s position, whoever is to move (mobility).

    Uses the movement rules only (draw rules ignored); a whole jump sequence counts once and, captures being
    compulsory, only captures count when one exists. Runs on raw ints (no move objects are built).

    Args:
        state: the position.
        player: 0 Black or 1 White.

    Returns:
        The move count (0 when ``player`` is blocked or has no pieces).
    """
    b, w, k = to35(state.black), to35(state.white), to35(state.kings)
    return count_b(b, w, k) if player == BLACK else count_w(b, w, k)


# ----- the game ------------------------------------------------------------------------------------------------------
@mypyc_attr(allow_interpreted_subclasses=True)  # tests and the Tree Lab may subclass it (compiled by mypyc)
class Checkers(DeterministicGame[CheckersState, CheckersMove]):
    """English checkers (ACF rules, RULES.md) as a :class:`~gameplay.rules.base.Game`.

    Stateless: all state lives in the immutable :class:`CheckersState` values. Player 0 is Black (moves first),
    player 1 White.
    """

    name = "checkers"
    player_names = ("Black", "White")
    traits = GameTraits(fast_perft=True, move_order=True, compulsory_captures=True, repetition=True,
                        piece_count=True)
    """Deterministic, two players, zero-sum; counts its own perft (:meth:`perft`, bitboards); captures first
    (``order_key``) and compulsory; positions can repeat (``draw_context``); counts its pieces (:meth:`pieces`,
    for the endgame databases)."""

    # -- the protocol ---------------------------------------------------------------------------------------------
    def initial_state(self) -> CheckersState:
        """The start position: Black men on 1..12, White men on 21..32, Black to move."""
        return CheckersState(0xFFF, 0xFFF << 20, 0, BLACK)

    def to_move(self, state: CheckersState) -> int:
        """The side to move: 0 Black, 1 White."""
        return state.turn

    def pieces(self, state: CheckersState) -> int:
        """Men and kings of both sides on the board (``traits.piece_count``: the endgame databases' index)."""
        return popcount(state.black | state.white)

    def legal_moves(self, state: CheckersState) -> list[CheckersMove]:
        """The legal moves by the movement rules alone (draw rules ignored): captures only when any exists.

        Order: by start square, then destination (steps) or search order (jumps). Empty when the side to move
        is blocked or has no pieces.
        """
        if state.turn == BLACK:
            return _generate(to35(state.black), to35(state.white), to35(state.kings), True)
        return _generate(to35(state.white), to35(state.black), to35(state.kings), False)

    def actions(self, state: CheckersState) -> list[CheckersMove]:
        """The legal moves (see :meth:`legal_moves`), or ``[]`` once the game is over (including the draws)."""
        if state.quiet >= QUIET_PLY_LIMIT or (state.history and state.history.count(state.key) >= 2):
            return []
        if state.turn == BLACK:
            return _generate(to35(state.black), to35(state.white), to35(state.kings), True)
        return _generate(to35(state.white), to35(state.black), to35(state.kings), False)

    def noisy_actions(self, state: CheckersState) -> list[CheckersMove]:
        """The capturing moves (all legal moves when captures exist, as they are compulsory, in :meth:`actions`'
        order), else ``[]`` (also once the game is over). Without a capture no move is generated: a few shifts and
        masks say so (``ai.kernel.tactics.NoisyGame``: quiescence's quiet nodes, most of them, cost no move list)."""
        if state.quiet >= QUIET_PLY_LIMIT or (state.history and state.history.count(state.key) >= 2):
            return []
        b, w, k = to35(state.black), to35(state.white), to35(state.kings)
        if state.turn == BLACK:
            return _generate(b, w, k, True) if _can_jump(b, w, k, True) else []
        return _generate(w, b, k, False) if _can_jump(w, b, k, False) else []

    def draw_context(self, state: CheckersState) -> tuple[int, tuple[int, ...]] | None:
        """What the draw rules read besides the position: the quiet-ply counter and the Zobrist keys of the
        positions since the last capture or man move (threefold repetition, the 80-ply rule); ``None`` when both
        are empty. A transposition table keys entries with it (``ai.kernel.tt``)."""
        if state.quiet or state.history:
            return state.quiet, state.history
        return None

    def order_key(self, state: CheckersState | None, move: CheckersMove) -> float:
        """Static move-ordering key: number of pieces captured (0 for a step). ``state`` may be ``None``."""
        return len(move.captures)

    def threatens(self, state: CheckersState, player: int) -> bool:
        """True when ``player`` (0 Black, 1 White) could capture in ``state``'s position if it were to move (the
        tactical hook of ``ai.kernel.tactics``; bitboards only)."""
        return can_capture(state, player)

    def gives_capture(self, state: CheckersState, move: CheckersMove) -> bool:
        """True when, after the quiet (non-capturing) ``move``, the opponent has a capture: the move offers material
        (``ai.kernel.tactics``'s hook; bitboards only, no successor state is built)."""
        moved = (1 << (move.path[0] - 1)) | (1 << (move.path[-1] - 1))
        if state.turn == BLACK:
            return _can_jump(to35(state.white), to35(state.black ^ moved), to35(state.kings), False)
        return _can_jump(to35(state.black), to35(state.white ^ moved), to35(state.kings), True)

    def material(self, state: CheckersState) -> float:
        """The side to move's material balance in men (``ai.kernel.tactics.MaterialGame``'s hook, for ``truncate``).

        Cake 1.20's measure (M. Fierz): a man 1, a king 1.3, plus the trade-down bonus ``2.5 * d / t`` (``d`` the
        difference, ``t`` the sum of both sides' material), so a man up counts more as the board empties.
        """
        k = state.kings
        vb = popcount(state.black & ~k) + 1.3 * popcount(state.black & k)
        vw = popcount(state.white & ~k) + 1.3 * popcount(state.white & k)
        d = vb - vw
        if vb + vw > 0:
            d += 2.5 * d / (vb + vw)
        return d if state.turn == BLACK else -d

    def is_promotion(self, state: CheckersState, move: CheckersMove) -> bool:
        """True when ``move`` crowns a man (a man's move that ends on the far row); ``ai.kernel.tactics``'s hook."""
        start = 1 << (move.path[0] - 1)
        if state.kings & start:
            return False
        return bool((1 << (move.path[-1] - 1)) & (BLACK_CROWN_ROW if state.turn == BLACK else WHITE_CROWN_ROW))

    def successor(self, state: CheckersState, move: CheckersMove) -> CheckersState:
        """The state after ``move``, trusting that it came from :meth:`actions` (no legality check).

        Updates the Zobrist key incrementally, the quiet-ply counter and the repetition history.
        """
        path = move.path
        f = path[0]
        t = path[-1]
        fb = move.start_bit  # the bitboards and the key are native 64-bit integers (i64) from here on
        tb = move.end_bit
        caps = move.capture_mask
        kings = state.kings
        key = state.key ^ Z_WHITE_TO_MOVE
        if state.turn == BLACK:
            black = state.black ^ fb ^ tb
            white = state.white
            if kings & fb:
                kings ^= fb ^ tb
                key ^= Z_BLACK_KING[f] ^ Z_BLACK_KING[t]
                man = False
            else:
                man = True
                if tb & BLACK_CROWN_ROW:
                    kings |= tb
                    key ^= Z_BLACK_MAN[f] ^ Z_BLACK_KING[t]
                else:
                    key ^= Z_BLACK_MAN[f] ^ Z_BLACK_MAN[t]
            if caps:
                white ^= caps
                for s in move.captures:
                    key ^= Z_WHITE_KING[s] if kings >> (s - 1) & 1 else Z_WHITE_MAN[s]
                kings &= ~caps
            turn = WHITE
        else:
            white = state.white ^ fb ^ tb
            black = state.black
            if kings & fb:
                kings ^= fb ^ tb
                key ^= Z_WHITE_KING[f] ^ Z_WHITE_KING[t]
                man = False
            else:
                man = True
                if tb & WHITE_CROWN_ROW:
                    kings |= tb
                    key ^= Z_WHITE_MAN[f] ^ Z_WHITE_KING[t]
                else:
                    key ^= Z_WHITE_MAN[f] ^ Z_WHITE_MAN[t]
            if caps:
                black ^= caps
                for s in move.captures:
                    key ^= Z_BLACK_KING[s] if kings >> (s - 1) & 1 else Z_BLACK_MAN[s]
                kings &= ~caps
            turn = BLACK
        if man or caps:
            return CheckersState(black, white, kings, turn, 0, (), key)
        return CheckersState(black, white, kings, turn, state.quiet + 1, state.history + (state.key,), key)

    def result(self, state: CheckersState, move: Any) -> CheckersState:
        """The state after ``move``.

        Raises:
            IllegalMoveError: ``move`` is not a :class:`CheckersMove` in :meth:`actions` (e.g. a step when a
                capture is compulsory, or any move once the game is over).
        """
        moves = self.actions(state)
        if not isinstance(move, CheckersMove) or move not in moves:
            if not moves:
                raise IllegalMoveError(f"the game is over ({self._over_text(state)}); no move is legal")
            legal = ", ".join(format_move_text(m) for m in moves)
            shown = format_move_text(move) if isinstance(move, CheckersMove) else repr(move)
            raise IllegalMoveError(f"illegal checkers move {shown} in {format_fen(state)}; legal: {legal}")
        return self.successor(state, move)

    def is_terminal(self, state: CheckersState) -> bool:
        """True when the game is over: no legal move, threefold repetition or 80 quiet plies (cheap bit test)."""
        if state.quiet >= QUIET_PLY_LIMIT or (state.history and state.history.count(state.key) >= 2):
            return True
        if state.turn == BLACK:
            return not _has_move(to35(state.black), to35(state.white), to35(state.kings), True)
        return not _has_move(to35(state.white), to35(state.black), to35(state.kings), False)

    def outcome(self, state: CheckersState) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on.

        Checked in this order: the side to move has no legal move (it loses: ``"no legal move"``), threefold
        repetition (draw: ``"threefold repetition"``), 80 plies without capture or man move (draw:
        ``"40-move rule"``).
        """
        if state.turn == BLACK:
            alive = _has_move(to35(state.black), to35(state.white), to35(state.kings), True)
        else:
            alive = _has_move(to35(state.white), to35(state.black), to35(state.kings), False)
        if not alive:
            return Outcome(1 - state.turn, Termination.NO_LEGAL_MOVE)
        if state.history and state.history.count(state.key) >= REPETITION_LIMIT - 1:
            return Outcome(None, Termination.THREEFOLD_REPETITION)
        if state.quiet >= QUIET_PLY_LIMIT:
            return Outcome(None, Termination.FORTY_MOVE_RULE)
        return None

    def _over_text(self, state: CheckersState) -> str:
        out = self.outcome(state)
        if out is None:
            return "not over"
        who = "a draw" if out.winner is None else f"{self.player_names[out.winner]} won"
        return f"{out.termination_text}: {who}"

    # -- notation ---------------------------------------------------------------------------------------------------
    def parse_position(self, text: str) -> CheckersState:
        """Read a PDN FEN position (see :func:`parse_fen`).

        Raises:
            PositionError: malformed or impossible (the message says what was expected).
        """
        return parse_fen(text)

    def format_position(self, state: CheckersState) -> str:
        """Write ``state`` as PDN FEN (see :func:`format_fen`)."""
        return format_fen(state)

    def parse_move(self, state: CheckersState, text: str) -> CheckersMove:
        """Read a PDN move (``11-15``, ``22x15``, ``7x16x23x32``, or the short ``7x32`` when unambiguous).

        Raises:
            MoveError: malformed, illegal (the message lists the legal moves), ambiguous (it lists the
                candidates), or the game is over.
        """
        moves = self.actions(state)
        if not moves and self.outcome(state) is not None:
            parse_move_squares(text)
            raise MoveError(f"no move {text.strip()!r}: the game is over ({self._over_text(state)})")
        return match_move(moves, text)

    def format_move(self, state: CheckersState | None, move: CheckersMove) -> str:
        """The full PDN text of ``move`` (every landing square of a multi-jump); ``state`` is not needed."""
        return format_move_text(move)

    # -- speed ------------------------------------------------------------------------------------------------------
    def perft(self, state: CheckersState, depth: int, count_terminal: bool = False) -> int:
        """Number of positions exactly ``depth`` plies down the legal-move tree (draw rules ignored, RULES.md).

        A complete jump sequence counts as one move. Leaves are bulk-counted at the last ply (the moves of each
        position ``depth - 1`` plies down are counted, not played); the search runs on raw 35-bit ints.

        Convention (the default, as in pydraughts, OpenSpiel and chess perft): a position whose side to move has
        no legal move before ``depth`` contributes 0, so ``perft("W:W21:B14,17", 3) == 0``.
        ``count_terminal=True`` counts such a game-over position once instead (the count of distinct games
        when every line ends before ``depth``; ``main.py perft --count-terminal``). The published checkers
        numbers (RULES.md) hold under both, as no position in those trees is blocked or empty before the depth.
        The generic :func:`gameplay.rules.perft.perft` calls this method and agrees with it.

        Args:
            state: the root position (its draw counters are ignored).
            depth: plies, >= 0 (``perft(s, 0) == 1``).
            count_terminal: count a game-over position above ``depth`` as one leaf (True) or none (False).

        Returns:
            The number of leaves (positions).

        Raises:
            GameError: ``depth`` is negative.
        """
        if depth < 0:
            raise GameError(f"perft depth must be >= 0, got {depth}")
        if depth == 0:
            return 1
        b, w, k = to35(state.black), to35(state.white), to35(state.kings)
        term = 1 if count_terminal else 0
        if state.turn == BLACK:
            return perft_b(b, w, k, depth, term)
        return perft_w(b, w, k, depth, term)

    def perft_divide(self, state: CheckersState, depth: int, count_terminal: bool = False) -> dict[str, int]:
        """Perft per root move (``{move text: leaves}``, in move order), to find the branch where counts differ.

        ``count_terminal`` as in :meth:`perft` (default False: only positions exactly ``depth`` plies down).

        Raises:
            GameError: ``depth`` is less than 1.
        """
        if depth < 1:
            raise GameError(f"perft divide depth must be >= 1, got {depth}")
        return {format_move_text(m): self.perft(self.successor(state, m), depth - 1, count_terminal)
                for m in self.legal_moves(state)}

    # -- evaluation helpers ---------------------------------------------------------------------------------------
    def piece_counts(self, state: CheckersState, player: int) -> tuple[int, int]:
        """``(men, kings)`` of ``player`` (0 Black, 1 White)."""
        mine = state.black if player == BLACK else state.white
        k = popcount(mine & state.kings)
        return popcount(mine) - k, k
