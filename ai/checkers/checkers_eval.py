"""The checkers evaluation and the checkers agent profile (presets, defaults).

``eval(s) = sum(w_i * f_i(s))`` over named features, each computed from the bitboards of
:class:`gameplay.rules.checkers.checkers_board.CheckersState` as Black's figure minus White's, then seen from the side
asked about. Units: a man is worth 100 in the ``default`` weights; ``textbook`` is ``5 * kings + men`` (S. Tanimoto,
CSE 415, the course material), in its own units.

Features (each a difference, "mine minus theirs"):

* ``men``: men on the board.
* ``kings``: kings on the board.
* ``back_rank``: men still on their own back row (Black 1..4, White 29..32) while the opponent has men to
  crown: the guard that keeps the opponent from crowning (the classic "bridge" on 1 and 3 / 30 and 32).
* ``centre``: pieces on the eight central squares 10, 11, 14, 15, 18, 19, 22, 23 (control of the centre).
* ``advancement``: men in the opponent's half of the board (rows 4..7 for Black): pressure toward crowning.
* ``mobility``: legal moves available (as if each side were to move), a measure of freedom.
* ``runaway``: men with a free path to the king row (no opposing piece in the forward cone of squares the man
  could still reach), weighted by closeness (8 - rows to go): an unstoppable man is nearly a king.
* ``tempo``: the sum of the rows the men have advanced; early on a high tempo means overextended men.
* ``endgame``: in a won ending (material ahead, the opponent reduced to kings) the stronger side wants the weaker
  king out of the double corner (squares 1/5 and 28/32, where two kings cannot trap one) and its own kings
  close: ``+ (14 - distance to the nearest enemy king) * own kings`` and ``- 6`` per enemy king in a double
  corner, counted for the stronger side only.

and the fourteen of :mod:`ai.checkers.checkers_features` (Samuel's THRET, EXPOS, HOLE, KCENT, OREO, BACK, MOVE, EXCH and
TEMPO by phase, and checkers lore): ``threats``, ``exposed``, ``holes``, ``trapped_kings``, ``king_centre``,
``imbalance``, ``bridge``, ``oreo``, ``dog_hole``, ``opposition``, ``trade``, ``tempo_opening``, ``tempo_ending``,
``dominated_kings`` (23 features in all; the last three appended for issue 27, so older weight tables keep their
meaning). The ``tuned`` weights are fitted by Texel's method (``tools/texel.py``) on self-play positions, the
``acf`` weights on positions of 9,377 ACF archive games (real games between human players), the ``cake`` weights on
the values Cake 1.20 (an outside engine) gave positions of our games against it.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Final, Mapping

from mypy_extensions import i64

from ai.agents.agent_base import GameProfile
from ai.checkers.checkers_features import EXTRA_FEATURES, NO_TEMPO, ExtraWeights, tempo_count, to35
from ai.kernel.evaluation import canonical_weights
from gameplay.rules.bits import popcount
from gameplay.rules.checkers.checkers import count_moves
from gameplay.rules.checkers.checkers_board import CheckersState

N_SQ: Final = 32
ROW: Final = tuple((s - 1) // 4 for s in range(1, N_SQ + 1))  # by index s - 1
COL: Final = tuple(2 * ((s - 1) % 4) + (1 if ((s - 1) // 4) % 2 == 0 else 0) for s in range(1, N_SQ + 1))
BLACK_BACK: Final[i64] = 0xF            # squares 1..4
WHITE_BACK: Final[i64] = 0xF << 28      # squares 29..32
CENTRE: Final[i64] = sum(1 << (s - 1) for s in (10, 11, 14, 15, 18, 19, 22, 23))
BLACK_HALF_FAR: Final[i64] = 0xFFFF << 16   # rows 4..7: Black men there are advanced
WHITE_HALF_FAR: Final[i64] = 0xFFFF         # rows 0..3 for White
DOUBLE_CORNERS: Final[i64] = sum(1 << (s - 1) for s in (1, 5, 28, 32))


def _cone(idx: int, black: bool) -> int:
    """Squares a man on square ``idx + 1`` could still reach going forward (its forward cone)."""
    r0, c0 = ROW[idx], COL[idx]
    m = 0
    for j in range(N_SQ):
        dr = ROW[j] - r0 if black else r0 - ROW[j]
        if dr > 0 and abs(COL[j] - c0) <= dr:
            m |= 1 << j
    return m


VALID35: Final[i64] = to35(0xFFFFFFFF)
"""The 32 squares in the 35-bit layout (ghost bits 8, 17 and 26 clear)."""
ROW1_35: Final[i64] = to35(sum(1 << (s - 1) for s in range(1, N_SQ + 1) if ROW[s - 1] & 1))
ROW2_35: Final[i64] = to35(sum(1 << (s - 1) for s in range(1, N_SQ + 1) if ROW[s - 1] & 2))
ROW4_35: Final[i64] = to35(sum(1 << (s - 1) for s in range(1, N_SQ + 1) if ROW[s - 1] & 4))
"""The squares whose row has bit 0, 1 or 2 set, in the 35-bit layout (:func:`_rows35`)."""
BLACK_CONE: Final = tuple(_cone(i, True) for i in range(N_SQ))
WHITE_CONE: Final = tuple(_cone(i, False) for i in range(N_SQ))
BASE_FEATURES: Final = ("men", "kings", "back_rank", "centre", "advancement", "mobility", "runaway", "tempo", "endgame")
FEATURES: Final = BASE_FEATURES + tuple(EXTRA_FEATURES)
"""Every feature name: the nine original ones, then the fourteen of :mod:`ai.checkers.checkers_features`."""


def _runaway(bm: i64, wm: i64, b: i64, w: i64) -> int:
    """The ``runaway`` feature: Black's men with a free path to the king row (no White piece in their forward cone,
    :data:`BLACK_CONE`) weighted by ``1 + row``, less White's weighted by ``8 - row``; a man still on its first two
    rows counts only when the other side has no piece left.

    A man's cone holds an enemy piece exactly when the man stands in that piece's backward cone, so the blocked
    squares of a side are the other side's pieces spread diagonally backward row by row (seven shifts in the
    35-bit layout, where a diagonal step is a shift by 4 or 5): one pass for all the men, no loop over them.
    """
    run = 0
    m = bm & ~0xFF if w else bm
    if m:
        free = to35(m) & ~_spread(to35(w), False)
        run += popcount(free) + _rows35(free)
    m = wm & ~(0xFF << 24) if b else wm
    if m:
        free = to35(m) & ~_spread(to35(b), True)
        run -= 8 * popcount(free) - _rows35(free)
    return run


def _spread(x: i64, up: bool) -> i64:
    """The squares one to seven diagonal steps from the pieces ``x`` (35-bit layout) toward squares 29..32 (``up``)
    or toward 1..4: the union of their cones in that direction."""
    out: i64 = 0
    steps = 0
    while x and steps < 7:  # a counted while: a for loop's unused variable would be a Python object to mypyc
        x = (((x << 4) | (x << 5)) if up else ((x >> 4) | (x >> 5))) & VALID35
        out |= x
        steps += 1
    return out


def _rows35(x: i64) -> int:
    """The sum of the rows (0..7, row 0 = squares 1..4) of the squares set in ``x`` (35-bit layout)."""
    return 4 * popcount(x & ROW4_35) + 2 * popcount(x & ROW2_35) + popcount(x & ROW1_35)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _distance(a: int, b: int) -> int:
    return max(abs(ROW[a] - ROW[b]), abs(COL[a] - COL[b]))


def feature_values(state: Any, needed: frozenset[str] = frozenset(FEATURES)) -> dict[str, float]:
    """Every feature as Black's figure minus White's (the evaluation negates them for White).

    Args:
        state: a :class:`gameplay.rules.checkers.checkers_board.CheckersState` (bitboards and side to move are read).
        needed: the feature names to compute (``men`` and ``kings`` are always included).

    Returns:
        name -> value, in each feature's own units (counts of pieces or squares, rows, moves, or a flag).
    """
    b, w, k = state.black, state.white, state.kings
    bk, wk = b & k, w & k
    bm, wm = b & ~k, w & ~k
    out: dict[str, float] = {}
    out["men"] = popcount(bm) - popcount(wm)
    out["kings"] = popcount(bk) - popcount(wk)
    if "back_rank" in needed:
        out["back_rank"] = (popcount(bm & BLACK_BACK) if wm else 0) - (popcount(wm & WHITE_BACK) if bm else 0)
    if "centre" in needed:
        out["centre"] = popcount(b & CENTRE) - popcount(w & CENTRE)
    if "advancement" in needed:
        out["advancement"] = popcount(bm & BLACK_HALF_FAR) - popcount(wm & WHITE_HALF_FAR)
    if "tempo" in needed:
        out["tempo"] = tempo_count(bm, wm)
    if "runaway" in needed:
        out["runaway"] = _runaway(bm, wm, b, w)
    if "mobility" in needed:
        out["mobility"] = count_moves(state, 0) - count_moves(state, 1)
    if "endgame" in needed:
        out["endgame"] = _endgame(b, w, bk, wk, bm, wm)
    for n, f in EXTRA_FEATURES.items():
        if n in needed:
            out[n] = f(b, w, k, state.turn)
    return out


def _endgame(b: i64, w: i64, bk: i64, wk: i64, bm: i64, wm: i64) -> float:
    nb, nw = popcount(b), popcount(w)
    if nb == nw:
        return 0.0
    strong_b = nb > nw
    strong_k, weak = (bk, w) if strong_b else (wk, b)
    weak_men = wm if strong_b else bm
    if weak_men or not strong_k or not weak:
        return 0.0
    score = 0.0
    weak_sq = _bits(weak)
    for i in _bits(strong_k):
        score += 14 - min(_distance(i, j) for j in weak_sq)
    score -= 6 * popcount(weak & DOUBLE_CORNERS)
    return score if strong_b else -score


class CheckersEvaluation:
    """The weighted evaluation as a callable ``(state, player) -> float`` (only non-zero weights computed)."""

    def __init__(self, weights: Mapping[str, float]) -> None:
        unknown = sorted(set(weights) - set(FEATURES))
        if unknown:
            from ai.agents.agent_base import AgentError
            raise AgentError(f"unknown checkers feature(s) {', '.join(unknown)}; expected some of "
                             f"{', '.join(FEATURES)}")
        self.user_weights = {n: float(v) for n, v in weights.items() if v}
        """The weights as given (for the feature breakdown)."""
        self.weights, self.scale = canonical_weights(self.user_weights)
        """Exact unit weights and their common scale (``ai.kernel.evaluation.canonical_weights``)."""
        self.needed = frozenset(self.weights)
        self.material_only = self.needed <= {"men", "kings"}
        self.wm = self.weights.get("men", 0.0)
        self.wk = self.weights.get("kings", 0.0)
        g = self.weights.get  # the positional unit weights as fields: no dict lookup per evaluation (the hot path)
        self.w_back_rank: float = g("back_rank", 0.0)
        self.w_centre: float = g("centre", 0.0)
        self.w_advancement: float = g("advancement", 0.0)
        self.w_tempo: float = g("tempo", 0.0)
        self.w_runaway: float = g("runaway", 0.0)
        self.w_mobility: float = g("mobility", 0.0)
        self.w_endgame: float = g("endgame", 0.0)
        self.extra = (ExtraWeights(tuple(self.weights.get(n, 0.0) for n in EXTRA_FEATURES))
                      if self.needed & set(EXTRA_FEATURES) else None)
        """Unit weights of the features of :mod:`ai.checkers.checkers_features` (:class:`ExtraWeights`), or None when
        none is used."""

    def __call__(self, state: CheckersState, player: int) -> float:  # typed: compiled reads are native
        # the bitboards as native 64-bit integers (i64): compiled, each mask and shift is one machine instruction
        b: i64 = state.black
        w: i64 = state.white
        k: i64 = state.kings
        bm, wm = b & ~k, w & ~k
        v = self.wm * (popcount(bm) - popcount(wm)) + self.wk * (popcount(b & k) - popcount(w & k))
        if not self.material_only:
            x = self.w_back_rank
            if x:
                v += x * ((popcount(bm & BLACK_BACK) if wm else 0) - (popcount(wm & WHITE_BACK) if bm else 0))
            x = self.w_centre
            if x:
                v += x * (popcount(b & CENTRE) - popcount(w & CENTRE))
            x = self.w_advancement
            if x:
                v += x * (popcount(bm & BLACK_HALF_FAR) - popcount(wm & WHITE_HALF_FAR))
            x = self.w_tempo
            tempo = NO_TEMPO
            if x:
                tempo = tempo_count(bm, wm)
                v += x * tempo
            x = self.w_runaway
            if x:
                v += x * _runaway(bm, wm, b, w)
            x = self.w_mobility
            if x:
                v += x * (count_moves(state, 0) - count_moves(state, 1))
            x = self.w_endgame
            if x and not (bm and wm):
                v += x * _endgame(b, w, b & k, w & k, bm, wm)
            extra = self.extra
            if extra is not None:
                v += extra.weighted_sum(b, w, k, state.turn, tempo)
        v *= self.scale
        return float(v) if player == 0 else -float(v)

    def breakdown(self, state: Any, player: int) -> dict[str, tuple[float, float]]:
        """Per feature (value for ``player``, weighted contribution)."""
        f = feature_values(state)
        s = 1.0 if player == 0 else -1.0
        return {n: (s * f[n], s * f[n] * self.user_weights.get(n, 0.0)) for n in FEATURES}


def _feature_fn(name: str) -> Callable[[Any, int], float]:
    def f(state: Any, player: int) -> float:
        v = feature_values(state, frozenset({name}))[name]
        return v if player == 0 else -v
    f.__name__ = name
    return f


WEIGHT_PRESETS: Final[dict[str, dict[str, float]]] = {
    # 5*x1 + x2: king advantage and man advantage (S. Tanimoto, CSE 415; RULES.md).
    "textbook": {"kings": 5.0, "men": 1.0},
    "material": {"men": 100.0, "kings": 150.0},
    # The tuned default (see README, "Strength"): material first, then the positional terms.
    "default": {"men": 100.0, "kings": 150.0, "back_rank": 8.0, "centre": 4.0, "advancement": 3.0,
                "mobility": 2.0, "runaway": 6.0, "tempo": 0.0, "endgame": 4.0},
    # Texel's method (tools/texel.py --games 1000 --seed 1 --exclude mobility): 100,131 quiet positions of 1000
    # self-play games of alphabeta:depth=4 from the ACF ballots, MSE 0.0929 (default) -> 0.0851, K = 0.986 per
    # man; rounded. Mobility (the one feature that generates moves, half the evaluation's time) is left at 0: the
    # fit with it is no better (0.0851 either way).
    "tuned": {"men": 100.0, "kings": 156.0, "back_rank": 15.0, "centre": -2.5, "advancement": -3.5,
              "mobility": 0.0, "runaway": 6.5, "tempo": 0.25, "endgame": -3.0, "threats": 33.0, "exposed": 1.5,
              "holes": 4.0, "trapped_kings": 6.0, "king_centre": -1.0, "imbalance": -2.0, "bridge": 33.0,
              "oreo": -3.0, "dog_hole": -5.0, "opposition": 3.0, "trade": 3.0},
    # Texel's method on real games (issue 27): tools/texel.py --pdn acf.pdn --holdout 0.2 --start tuned
    # --exclude mobility (then --load of the saved positions). 9,377 ACF archive games (EricCJoyce/Datasets,
    # Checkers/ACF.txt, MIT; 1,597 Black wins, 5,407 draws, 2,373 White wins; not shipped), every quiet position
    # from ply 8 on: 283,398, of which the positions of a seeded 20% of the games (57,316 of 1,874 games) held out;
    # fitted on the other 226,082 starting from "tuned". K = 0.7104 per man. MSE on the fit part 0.099570
    # ("tuned") -> 0.095769 (rounded), on the held-out part 0.099380 -> 0.095357 (the nine + eleven features alone,
    # mobility fitted too: 0.095911). Mobility left at 0 as in "tuned" (with it: held-out 0.095315). Play: +137 +/-
    # 96 Elo over "default" at depth 6 (40 games), +44 +/- 80 over the previous expert at 0.3 s/move (48 games).
    # Against Cake 1.20 at 1 s a move (ballots 1-48, both colours, paired with the same games with "default"):
    # 0.226 against 0.168, 23 games better and 13 worse; every figure points the same way, so expert plays "acf"
    # since 2026-12-03 (docs/strength.md, "Real-game weights").
    "acf": {"men": 100.0, "kings": 159.0, "back_rank": 9.0, "centre": 7.0, "advancement": 4.5, "mobility": 0.0,
            "runaway": 6.0, "tempo": -12.0, "endgame": 5.5, "threats": 21.0, "exposed": 6.0, "holes": -4.0,
            "trapped_kings": 5.5, "king_centre": 31.0, "imbalance": -2.5, "bridge": 23.0, "oreo": 21.0,
            "dog_hole": -12.0, "opposition": -1.5, "trade": 6.5, "tempo_opening": -1.5, "tempo_ending": 6.5,
            "dominated_kings": -16.0},
    # Fitted to an outside engine's values (issue 27, lever 4): tools/texel.py --journal acf_127.jsonl
    # --test-journal acf_97.jsonl --start acf --exclude mobility. 2,931 quiet positions where Cake 1.20 (1 s a move)
    # was to move and printed its value, in 60 games of expert (acf) against it on ballots 127-156, 2026-12-03;
    # label sigmoid(0.7104 * value / 100). K = 0.5801 per man; MSE 0.013023 (acf) -> 0.008546; on the 3,299
    # positions of the 60 games of ballots 97-126 (not fitted on) 0.013475 -> 0.008374 (docs/strength.md,
    # "Weights fitted to Cake's values").
    "cake": {"men": 100.0, "kings": 173.0, "back_rank": 17.0, "centre": 5.5, "advancement": -8.5, "mobility": 0.0,
             "runaway": 3.0, "tempo": -2.5, "endgame": 28.0, "threats": 7.0, "exposed": 2.5, "holes": 6.5,
             "trapped_kings": 7.0, "king_centre": 8.0, "imbalance": -1.5, "bridge": 17.0, "oreo": 16.0,
             "dog_hole": -11.0, "opposition": 7.0, "trade": 8.0, "tempo_opening": 1.5, "tempo_ending": 8.5,
             "dominated_kings": -11.0},
}


def _load_endgame() -> Any:
    """The endgame tables (``ai.checkers.endgame_db.load_default``: the largest found, the user's 5-piece tables
    over the shipped 4-piece ones), loaded once; ``None`` when absent."""
    from ai.checkers.endgame_db import load_default
    return load_default()


def _describe_endgame() -> str:
    """Which endgame tables ``db`` probes (those that load, checksum checked; loaded once and cached): ``"endgame
    tables up to 5 pieces"``."""
    from ai.checkers.endgame_db import describe_default
    return describe_default(short=True)


def _load_book() -> Any:
    """The opening book (``ai.checkers.book``), loaded once; ``None`` when absent."""
    from ai.checkers.book import load_default
    return load_default()


def make_profile() -> GameProfile:
    """The checkers profile: presets ``beginner`` .. ``expert`` (depth and time per move, README).

    ``expert`` adds what measured a gain (README, "Strength"): late-move reductions, the endgame databases, the
    opening book and the evaluation fitted on real games (``acf``); engine-style time management (``timeman``)
    measured no gain at a fixed time a move and stays off (``docs/strength.md``, "The clock").
    """
    # imported here, by name, so that a broken install is reported as such (``ai.agents.profiles.profile_for``) even
    # when this module is compiled (a compiled module binds its imports once)
    rules = importlib.import_module("gameplay.rules.checkers.checkers")
    return GameProfile(
        game=rules.Checkers(),
        features={n: _feature_fn(n) for n in FEATURES},
        weight_presets={k: dict(v) for k, v in WEIGHT_PRESETS.items()},
        presets={
            "beginner": {"algorithm": "alphabeta", "depth": 1, "weights": "material", "quiescence": False},
            "easy": {"algorithm": "alphabeta", "depth": 2, "weights": "material", "quiescence": True},
            "medium": {"algorithm": "alphabeta", "depth": 4, "time": 1.0, "quiescence": True},
            "hard": {"algorithm": "alphabeta", "depth": 8, "time": 1.0, "quiescence": True},
            "expert": {"algorithm": "alphabeta", "time": 1.0, "quiescence": True, "lmr": True, "db": True,
                       "book": True, "weights": "acf"},
        },
        defaults={"alphabeta": {"time": 1.0, "quiescence": True}, "minimax": {"depth": 4}},
        evaluator_factory=CheckersEvaluation,
        endgame_loader=_load_endgame,
        endgame_describe=_describe_endgame,
        book_loader=_load_book,
    )
