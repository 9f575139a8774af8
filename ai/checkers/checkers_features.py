"""The classic checkers evaluation features added to the nine of :mod:`ai.checkers.checkers_eval` (issues 15 and 27).

Every feature takes the position as the bitboards of :class:`gameplay.rules.checkers.checkers_board.CheckersState`
(``black``, ``white``, ``kings``: bit ``s - 1`` set for PDN square ``s``) and the side to move (``turn``: 0 Black, 1
White), and returns an ``int``: **Black's figure minus White's**. The ones that look at diagonal neighbours (threats,
exposed, holes, trapped_kings, dominated_kings) convert to the 35-bit internal layout of
:mod:`gameplay.rules.checkers.checkers` (square ``s``, index ``i = s - 1``, on bit ``i + i // 8``; bits 8, 17 and 26 are
ghosts), where a step of +4 or +5 bits is one diagonal step toward squares 29..32 (Black's forward direction), -4
or -5 toward 1..4, and a step landing on a ghost bit or off the board leaves the board: a diagonal neighbourhood
is a pair of shifts (the move generator's trick). No feature generates moves. :func:`weighted_sum` is the
evaluation's fast path: all of them at once, with shared intermediate masks, weighted.

Names and sources. Most are Samuel's named parameters (A. L. Samuel, "Some studies in machine learning using
the game of checkers", IBM J. Res. Dev. 3(3), 1959, and part II, 11(6), 1967: ADV, APEX, BACK, CENT, CNTR, CRAMP,
DENY, DIA, DYKE, EXCH, EXPOS, HOLE, KCENT, MOB, MOVE, OREO, THRET, ...), adapted to the standard PDN numbering
(Black on 1..12); the others are checkers-player lore as collected by e.g. checkerschest.com ("Checkers
strategy": dog hole, bridge, double corner) and the balance and trade terms of J. Schaeffer's Chinook
(J. Schaeffer, "One Jump Ahead", 1997/2009: the evaluation's "balance" and the "trade down when ahead" rule).
"""

from __future__ import annotations

from typing import Callable, Final

from mypy_extensions import i64

from gameplay.rules.bits import popcount

Feature = Callable[[int, int, int, int], int]
"""``f(black, white, kings, turn) -> Black's figure minus White's`` (32-bit bitboards, ``turn`` 0 Black, 1 White)."""


def to35(x: i64) -> i64:
    """A 32-bit bitboard (bit ``s - 1`` = square ``s``) in the 35-bit internal layout (ghost bits 8, 17, 26)."""
    return (x & 0xFF) | ((x & 0xFF00) << 1) | ((x & 0xFF0000) << 2) | ((x & 0xFF000000) << 3)


def _sq(*squares: int) -> int:
    """The 32-bit mask of the PDN squares given."""
    return sum(1 << (s - 1) for s in squares)


VALID: Final[i64] = to35(_sq(*range(1, 33)))
"""The 32 real squares in the 35-bit layout."""
CENTRE: Final[i64] = _sq(10, 11, 14, 15, 18, 19, 22, 23)
"""The eight central squares (as ``centre`` of :mod:`ai.checkers.checkers_eval`)."""
LEFT: Final[i64] = _sq(*(s for s in range(1, 33) if 2 * ((s - 1) % 4) + (1 if ((s - 1) // 4) % 2 == 0 else 0) < 4))
"""Files a..d (columns 0..3, square 1's side of the board: 1, 2, 5, 6, 9, 10, ...)."""
RIGHT: Final[i64] = 0xFFFFFFFF & ~LEFT
"""Files e..h."""
BLACK_SYSTEM: Final[i64] = 0x0F0F0F0F
"""Black's "system": the four files whose bottom squares are 1, 2, 3, 4 (rows 0, 2, 4, 6)."""
WHITE_SYSTEM: Final[i64] = 0xF0F0F0F0
"""White's system: the files of 29..32 (rows 1, 3, 5, 7)."""
# The patterns below are ``Final`` one by one (compiled code then reads them as constants, not from the module's dict)
B_BRIDGE: Final[i64] = _sq(1, 3)
W_BRIDGE: Final[i64] = _sq(30, 32)
B_OREO: Final[i64] = _sq(2, 3, 7)
W_OREO: Final[i64] = _sq(26, 30, 31)
B_DOG_MAN: Final[i64] = _sq(28)
B_DOG_STOP: Final[i64] = _sq(32)
W_DOG_MAN: Final[i64] = _sq(5)
W_DOG_STOP: Final[i64] = _sq(1)


def threats(b: int, w: int, k: int, turn: int) -> int:
    """THRET (Samuel): opposing pieces this side could capture by a jump now, as if it were to move.

    A piece is threatened when an enemy piece that may jump in that direction stands next to it on a diagonal
    and the square beyond is empty. Counts distinct threatened pieces: White's pieces en prise to Black minus
    Black's en prise to White. In a quiet position the side to move threatens nothing, so this is the pressure
    the side not to move is putting on the mover.
    """
    b, w, k = to35(b), to35(w), to35(k)
    e = VALID & ~(b | w)
    wv = w & (((b << 4) & (e >> 4)) | ((b << 5) & (e >> 5)))
    bv = b & (((w >> 4) & (e << 4)) | ((w >> 5) & (e << 5)))
    if k:
        bk, wk = b & k, w & k
        wv |= w & (((bk >> 4) & (e << 4)) | ((bk >> 5) & (e << 5)))
        bv |= b & (((wk << 4) & (e >> 4)) | ((wk << 5) & (e >> 5)))
    return popcount(wv) - popcount(bv)


def exposed(b: int, w: int, k: int, turn: int) -> int:
    """EXPOS (Samuel): pieces flanked along one diagonal or the other by two empty squares.

    Such a piece can be jumped along that diagonal as soon as an enemy piece reaches one of the two squares
    (edge pieces never count: they have no diagonal pair). Black's exposed pieces minus White's (a weakness:
    expect a negative weight).
    """
    b, w, k = to35(b), to35(w), to35(k)
    e = VALID & ~(b | w)
    open_line = ((e << 4) & (e >> 4)) | ((e << 5) & (e >> 5))
    return popcount(b & open_line) - popcount(w & open_line)


def _maj3(a: i64, b: i64, c: i64, d: i64) -> i64:
    return (a & b & (c | d)) | (c & d & (a | b))


def holes(b: int, w: int, k: int, turn: int) -> int:
    """HOLE (Samuel): empty squares with at least three of their four diagonal neighbours held by one side.

    A hole is a gap in a formation the opponent may use as a landing square. Black's holes minus White's
    (expect a negative weight).
    """
    b, w, k = to35(b), to35(w), to35(k)
    e = VALID & ~(b | w)
    hb = e & _maj3(b >> 4, b >> 5, b << 4, b << 5)
    hw = e & _maj3(w >> 4, w >> 5, w << 4, w << 5)
    return popcount(hb) - popcount(hw)


def trapped_kings(b: int, w: int, k: int, turn: int) -> int:
    """Immobile kings: kings with no empty neighbour square and no jump (a trapped king is a lost king).

    After Samuel's DENY/MOB family, restricted to kings. Black's trapped kings minus White's (expect a
    negative weight).
    """
    if not k:
        return 0
    b, w, k = to35(b), to35(w), to35(k)
    e = VALID & ~(b | w)
    step = (e >> 4) | (e >> 5) | (e << 4) | (e << 5)
    bk, wk = b & k & ~step, w & k & ~step
    if bk:
        bk &= ~(((w >> 4) & (e >> 8)) | ((w >> 5) & (e >> 10)) | ((w << 4) & (e << 8)) | ((w << 5) & (e << 10)))
    if wk:
        wk &= ~(((b >> 4) & (e >> 8)) | ((b >> 5) & (e >> 10)) | ((b << 4) & (e << 8)) | ((b << 5) & (e << 10)))
    return popcount(bk) - popcount(wk)


def king_centre(b: int, w: int, k: int, turn: int) -> int:
    """KCENT (Samuel): kings on the eight central squares 10, 11, 14, 15, 18, 19, 22, 23 (king centralisation)."""
    if not k:
        return 0
    return popcount(b & k & CENTRE) - popcount(w & k & CENTRE)


def imbalance(b: int, w: int, k: int, turn: int) -> int:
    """Balance (Chinook): ``|men on files a..d - men on files e..h|``, Black's minus White's.

    An army lopsided to one wing is easier to attack and slower to support itself (expect a negative weight).
    """
    bm, wm = b & ~k, w & ~k
    return (abs(popcount(bm & LEFT) - popcount(bm & RIGHT))
            - abs(popcount(wm & LEFT) - popcount(wm & RIGHT)))


def bridge(b: int, w: int, k: int, turn: int) -> int:
    """BACK / the bridge (Samuel): men on both 1 and 3 (Black) or 30 and 32 (White), opponent men to stop.

    The two back-row men leave no square through which a single man can crown. +1 for Black's bridge while
    White has men, -1 for White's while Black has men.
    """
    bm, wm = b & ~k, w & ~k
    return (1 if wm and bm & B_BRIDGE == B_BRIDGE else 0) - (1 if bm and wm & W_BRIDGE == W_BRIDGE else 0)


def oreo(b: int, w: int, k: int, turn: int) -> int:
    """OREO (Samuel): the triangle of Oreo, men on 2, 3 and 7 (Black) or 26, 30 and 31 (White).

    A back formation that guards the king row and supports the centre. +1 / -1 like :func:`bridge`.
    """
    bm, wm = b & ~k, w & ~k
    return (1 if wm and bm & B_OREO == B_OREO else 0) - (1 if bm and wm & W_OREO == W_OREO else 0)


def dog_hole(b: int, w: int, k: int, turn: int) -> int:
    """The dog hole: a Black man on 28 held by a White piece on 32 (a White man on 5 held by Black on 1).

    The man's only forward square is occupied, so it is immobile until the holder moves (checkers lore;
    checkerschest.com, "Checkers strategy"). Black's men in the hole minus White's (expect a negative weight).
    """
    bm, wm = b & ~k, w & ~k
    return ((1 if bm & B_DOG_MAN and w & B_DOG_STOP else 0)
            - (1 if wm & W_DOG_MAN and b & W_DOG_STOP else 0))


def opposition(b: int, w: int, k: int, turn: int) -> int:
    """MOVE (Samuel), "the move" or opposition in the ending: +1 when Black has the move, -1 when White has it.

    Only with equal numbers of pieces and Samuel's piece count (2 per man, 3 per king) under 24, else 0.
    Rule of the system: count every piece (both colours) on the files of the side to move's system (the files
    whose bottom squares are 1..4 for Black, 29..32 for White); an odd count means the side to move has the
    move (it can force the last blocking move in a king ending).
    """
    nb, nw = popcount(b), popcount(w)
    if nb != nw or 2 * (nb + nw) + (popcount(k) if k else 0) >= 24:
        return 0
    if turn == 0:
        return 1 if popcount((b | w) & BLACK_SYSTEM) & 1 else -1
    return -1 if popcount((b | w) & WHITE_SYSTEM) & 1 else 1


def trade(b: int, w: int, k: int, turn: int) -> int:
    """EXCH-like trade-down bonus: ``(Black's pieces - White's) * (24 - pieces on the board)``.

    The side ahead in material gains as the board empties (a piece up with few pieces left is a win), so it
    should exchange; the side behind should avoid exchanges (Chinook's "trade down when ahead"; Samuel's EXCH
    counts the exchanges available). 0 when the material is even.
    """
    nb, nw = popcount(b), popcount(w)
    return (nb - nw) * (24 - nb - nw)


ROW_BIT0: Final[i64] = _sq(*(s for s in range(1, 33) if ((s - 1) // 4) & 1))
"""Squares on rows 1, 3, 5, 7 (row = ``(s - 1) // 4``): bit 0 of the row number."""
ROW_BIT1: Final[i64] = _sq(*(s for s in range(1, 33) if ((s - 1) // 4) & 2))
"""Rows 2, 3, 6, 7: bit 1 of the row number."""
ROW_BIT2: Final[i64] = _sq(*range(17, 33))
"""Rows 4..7: bit 2 of the row number."""
NO_TEMPO: Final = -1000
"""Stands for "not computed" where a tempo count is passed along (a count lies within -84..84)."""
OPENING_PIECES: Final = 20
ENDING_PIECES: Final = 12
"""The phases of the tempo features: the opening while 20 or more pieces stand, the ending from 12 down."""


def tempo_count(bm: i64, wm: i64) -> int:
    """The tempo count: rows Black's men have advanced minus rows White's have (from their own back rows).

    The ``tempo`` feature of :mod:`ai.checkers.checkers_eval` (men's bitboards in, an int out): six popcounts, one per
    bit of the row number and side, instead of a loop over rows.
    """
    tb = 4 * popcount(bm & ROW_BIT2) + 2 * popcount(bm & ROW_BIT1) + popcount(bm & ROW_BIT0)
    rw = 4 * popcount(wm & ROW_BIT2) + 2 * popcount(wm & ROW_BIT1) + popcount(wm & ROW_BIT0)
    return tb - (7 * popcount(wm) - rw)


def tempo_opening(b: int, w: int, k: int, turn: int) -> int:
    """TEMPO in the opening (Samuel's phase-dependent tempo): the tempo count while 20 or more pieces stand, else 0.

    The tempo count is the sum over men of the rows each has advanced from its own back row (Black's minus
    White's; equal to the ``tempo`` feature). Samuel (1959) and the checkers literature read it by phase: early on,
    men pushed ahead of their support are overextended; late, advanced men are close to crowning and the side
    with less tempo to spend runs out of moves first. With ``tempo`` itself (every phase) and
    :func:`tempo_ending`, a weight per phase.
    """
    if popcount(b | w) < OPENING_PIECES:
        return 0
    return tempo_count(b & ~k, w & ~k)


def tempo_ending(b: int, w: int, k: int, turn: int) -> int:
    """TEMPO in the ending: the tempo count (see :func:`tempo_opening`) when 12 or fewer pieces stand, else 0."""
    if popcount(b | w) > ENDING_PIECES:
        return 0
    return tempo_count(b & ~k, w & ~k)


def _dominated(b: i64, w: i64, k: i64) -> tuple[i64, i64]:
    """Black's and White's dominated kings in the 35-bit layout (see :func:`dominated_kings`)."""
    e = VALID & ~(b | w)
    bk, wk = b & k, w & k
    rb, rw = 0, 0
    if bk:
        # squares y where a Black piece would be jumped at once: a White piece behind it on a diagonal (any White
        # piece from the 29..32 side, only a king from the 1..4 side) and the square beyond empty
        w4, w5, wk4, wk5 = w >> 4, w >> 5, wk << 4, wk << 5
        att = (w4 & (e << 4)) | (w5 & (e << 5)) | (wk4 & (e >> 4)) | (wk5 & (e >> 5))
        # a king stepping from x to y = x + s leaves x empty: a piece on y + s may then jump y, landing on x
        t4, t5, t_4, t_5 = (bk << 4) & e, (bk << 5) & e, (bk >> 4) & e, (bk >> 5) & e
        steps = (t4 >> 4) | (t5 >> 5) | (t_4 << 4) | (t_5 << 5)
        safe = ((t4 & ~(att | w4)) >> 4) | ((t5 & ~(att | w5)) >> 5) | ((t_4 & ~(att | wk4)) << 4) \
            | ((t_5 & ~(att | wk5)) << 5)
        rb = bk & steps & ~safe
        if rb:
            rb &= ~((w4 & (e >> 8)) | (w5 & (e >> 10)) | ((w << 4) & (e << 8)) | ((w << 5) & (e << 10)))
    if wk:
        b4, b5, bk4, bk5 = b << 4, b << 5, bk >> 4, bk >> 5
        att = (b4 & (e >> 4)) | (b5 & (e >> 5)) | (bk4 & (e << 4)) | (bk5 & (e << 5))
        t4, t5, t_4, t_5 = (wk << 4) & e, (wk << 5) & e, (wk >> 4) & e, (wk >> 5) & e
        steps = (t4 >> 4) | (t5 >> 5) | (t_4 << 4) | (t_5 << 5)
        safe = ((t4 & ~(att | bk4)) >> 4) | ((t5 & ~(att | bk5)) >> 5) | ((t_4 & ~(att | b4)) << 4) \
            | ((t_5 & ~(att | b5)) << 5)
        rw = wk & steps & ~safe
        if rw:
            rw &= ~((b4 & (e << 8)) | (b5 & (e << 10)) | ((b >> 4) & (e >> 8)) | ((b >> 5) & (e >> 10)))
    return rb, rw


def dominated_kings(b: int, w: int, k: int, turn: int) -> int:
    """Dominated kings: kings that can step but only onto squares where they are jumped at once, and cannot jump.

    A king is dominated when every empty square next to it is covered: an enemy piece stands on the far side of
    that square on a diagonal, able to jump toward the king's side (a man only forward), with the square beyond
    empty (the square the king left counts as empty). It is as good as lost unless its side frees it, the king
    endings' "domination" of the checkers literature (Samuel's DENY/MOB counted for kings; Chinook's and Cake's
    trapped-king terms). Kings that cannot step at all are :func:`trapped_kings`, not counted here. Black's
    dominated kings minus White's (expect a negative weight).
    """
    if not k:
        return 0
    rb, rw = _dominated(to35(b), to35(w), to35(k))
    return popcount(rb) - popcount(rw)


EXTRA_FEATURES: Final[dict[str, Feature]] = {
    "threats": threats, "exposed": exposed, "holes": holes, "trapped_kings": trapped_kings,
    "king_centre": king_centre, "imbalance": imbalance, "bridge": bridge, "oreo": oreo, "dog_hole": dog_hole,
    "opposition": opposition, "trade": trade, "tempo_opening": tempo_opening, "tempo_ending": tempo_ending,
    "dominated_kings": dominated_kings,
}
"""The fourteen added features by name, in the order the evaluation lists them (the last three came later:
appended, so that a weight table written before them means what it meant)."""


def weighted_sum(b: i64, w: i64, k: i64, turn: int, c: tuple[float, ...]) -> float:
    """``sum(c[i] * f_i(b, w, k, turn))`` over :data:`EXTRA_FEATURES` in order, in one pass (the search's fast path).

    Args:
        b, w, k, turn: the position (32-bit bitboards, side to move).
        c: one weight per feature of :data:`EXTRA_FEATURES`, in its order; a zero weight skips the feature.

    Returns:
        The weighted sum, Black's point of view (equal to the features computed one by one; tested).
    """
    return ExtraWeights(c).weighted_sum(b, w, k, turn)


class ExtraWeights:
    """One weight per feature of :data:`EXTRA_FEATURES`, as fields: the evaluation keeps one and calls
    :meth:`weighted_sum` at every leaf (compiled, the weights are read as machine doubles rather than unboxed from a
    tuple at each call).

    Args:
        c: the weights in :data:`EXTRA_FEATURES`' order.

    Raises:
        ValueError: ``c`` does not have one weight per feature.
    """

    def __init__(self, c: tuple[float, ...]) -> None:
        if len(c) != len(EXTRA_FEATURES):
            raise ValueError(f"expected {len(EXTRA_FEATURES)} weights (one per feature), got {len(c)}")
        self.c_thr: Final[float] = c[0]
        self.c_exp: Final[float] = c[1]
        self.c_hol: Final[float] = c[2]
        self.c_trap: Final[float] = c[3]
        self.c_kc: Final[float] = c[4]
        self.c_imb: Final[float] = c[5]
        self.c_bri: Final[float] = c[6]
        self.c_oreo: Final[float] = c[7]
        self.c_dog: Final[float] = c[8]
        self.c_opp: Final[float] = c[9]
        self.c_trade: Final[float] = c[10]
        self.c_to: Final[float] = c[11]
        self.c_te: Final[float] = c[12]
        self.c_dom: Final[float] = c[13]

    def weighted_sum(self, b: i64, w: i64, k: i64, turn: int, tempo: int = NO_TEMPO) -> float:
        """:func:`weighted_sum` with these weights; ``tempo``: the position's :func:`tempo_count` when the caller has
        it already (the evaluation's ``tempo`` feature), else :data:`NO_TEMPO`."""
        c_thr, c_exp, c_hol, c_trap, c_kc = self.c_thr, self.c_exp, self.c_hol, self.c_trap, self.c_kc
        c_imb, c_bri, c_oreo, c_dog, c_opp = self.c_imb, self.c_bri, self.c_oreo, self.c_dog, self.c_opp
        c_trade, c_to, c_te, c_dom = self.c_trade, self.c_to, self.c_te, self.c_dom
        v = 0.0
        nb, nw = popcount(b), popcount(w)
        if (c_to and nb + nw >= OPENING_PIECES) or (c_te and nb + nw <= ENDING_PIECES):
            v += (c_to if nb + nw >= OPENING_PIECES else c_te) * (tempo if tempo != NO_TEMPO
                                                                    else tempo_count(b & ~k, w & ~k))
        if c_dom and k:
            rb, rw = _dominated(to35(b), to35(w), to35(k))
            v += c_dom * (popcount(rb) - popcount(rw))
        if c_trade:
            v += c_trade * ((nb - nw) * (24 - nb - nw))
        if c_opp and nb == nw and 2 * (nb + nw) + popcount(k) < 24:
            if turn == 0:
                v += c_opp if popcount((b | w) & BLACK_SYSTEM) & 1 else -c_opp
            else:
                v += -c_opp if popcount((b | w) & WHITE_SYSTEM) & 1 else c_opp
        bm, wm = b & ~k, w & ~k
        if c_imb:
            lb, rb_, lw, rw_ = popcount(bm & LEFT), popcount(bm & RIGHT), popcount(wm & LEFT), popcount(wm & RIGHT)
            v += c_imb * ((lb - rb_ if lb >= rb_ else rb_ - lb) - (lw - rw_ if lw >= rw_ else rw_ - lw))
        if bm and wm:
            if c_bri:
                v += c_bri * ((bm & B_BRIDGE == B_BRIDGE) - (wm & W_BRIDGE == W_BRIDGE))
            if c_oreo:
                v += c_oreo * ((bm & B_OREO == B_OREO) - (wm & W_OREO == W_OREO))
        if c_dog:
            v += c_dog * ((1 if bm & B_DOG_MAN and w & B_DOG_STOP else 0)
                          - (1 if wm & W_DOG_MAN and b & W_DOG_STOP else 0))
        if k and c_kc:
            v += c_kc * (popcount(b & k & CENTRE) - popcount(w & k & CENTRE))
        if c_thr or c_exp or c_hol or c_trap:
            b, w = to35(b), to35(w)
            e = VALID & ~(b | w)
            e4l, e4r, e5l, e5r = e << 4, e >> 4, e << 5, e >> 5
            if c_exp:
                line = (e4l & e4r) | (e5l & e5r)
                v += c_exp * (popcount(b & line) - popcount(w & line))
            b4l, b4r, b5l, b5r = b << 4, b >> 4, b << 5, b >> 5
            w4l, w4r, w5l, w5r = w << 4, w >> 4, w << 5, w >> 5
            if c_hol:
                v += c_hol * (popcount(e & _maj3(b4r, b5r, b4l, b5l)) - popcount(e & _maj3(w4r, w5r, w4l, w5l)))
            if c_thr or (c_trap and k):
                k = to35(k)
            if c_thr:
                wv = w & ((b4l & e4r) | (b5l & e5r))
                bv = b & ((w4r & e4l) | (w5r & e5l))
                if k:
                    bk, wk = b & k, w & k
                    wv |= w & (((bk >> 4) & e4l) | ((bk >> 5) & e5l))
                    bv |= b & (((wk << 4) & e4r) | ((wk << 5) & e5r))
                v += c_thr * (popcount(wv) - popcount(bv))
            if c_trap and k:
                step = e4r | e5r | e4l | e5l
                tb, tw = b & k & ~step, w & k & ~step
                if tb:
                    tb &= ~((w4r & (e >> 8)) | (w5r & (e >> 10)) | (w4l & (e << 8)) | (w5l & (e << 10)))
                if tw:
                    tw &= ~((b4r & (e >> 8)) | (b5r & (e >> 10)) | (b4l & (e << 8)) | (b5l & (e << 10)))
                v += c_trap * (popcount(tb) - popcount(tw))
        return v
