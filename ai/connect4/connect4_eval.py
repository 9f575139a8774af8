"""The Connect Four evaluation, its opening book and the Connect Four agent profile (presets, defaults).

The evaluation generalises the course's tic-tac-toe function ``f = 100A + 10B + C - (100D + 10E + F)`` (S.
Tanimoto, CSE 415; :mod:`ai.kernel.evaluation`) from the 8 lines of three to the 69 lines of four
(:data:`gameplay.rules.connect4.LINE_MASKS`), and adds what Connect Four play is about: threats, the empty cells
that would complete a four, and their parity (V. Allis, "A Knowledge-based Approach of Connect-Four", MSc thesis,
Vrije Universiteit Amsterdam, 1988, chapter 3: the "zugzwang" control of odd and even rows). Every feature is a
difference, "mine minus theirs", computed from the two bitboards for the first player (Red) and negated for the
second (Yellow):

* ``three`` (A - D): lines of four holding three of the player's stones and one empty cell: a line that one more
  stone completes.
* ``two`` (B - E): lines holding two of the player's stones and two empty cells.
* ``one`` (C - F): lines holding one of the player's stones and three empty cells.
  (A line holding stones of both players can never be completed and counts for neither; a full line is a win,
  which the search scores itself.)
* ``threats``: empty cells that would complete a four for the player (each cell once, however many lines it
  completes): threats that can still be completed.
* ``parity``: those threat cells on the player's good rows, and not directly playable: odd rows (1, 3, 5 counted
  from the bottom) for Red, who moves first, even rows (2, 4, 6) for Yellow. When the board fills up column by
  column, the first player gets the odd cells and the second the even ones (Allis's rule of zugzwang), so a
  threat of the right parity is the one that wins the endgame.
* ``immediate``: the next ply decided: +1 when the player is to move and has a winning cell it can play at once,
  or when the opponent is to move, cannot win at once and faces two or more such cells of the player's (it can
  block only one); -1 for the same the other way round; 0 otherwise. At a depth limit this is what the next ply
  would show (the search's horizon falls on alternate sides at odd and even depths).
* ``centre``: stones in the centre column 4 (the column on most lines of four: its cells lie on 7 to 13 of the
  69 lines, from the bottom and top cells to the middle ones).

Units: counts of lines, cells or stones. ``textbook`` is the course's function itself (``100 * three + 10 * two +
one``); ``default`` adds the threats, their parity and the centre (weights measured in matches, docs/strength.md).
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Final, Mapping

from ai.agents.agent_base import AgentError, GameProfile
from ai.kernel.core import WIN
from ai.kernel.evaluation import canonical_weights
from ai.kernel.numbers import value_label
from gameplay.rules.bits import popcount
from gameplay.rules.connect4 import BOARD_MASK, BOTTOM, CELLS, LINE_MASKS, ROWS, Connect4State

if TYPE_CHECKING:
    from ai.connect4.connect4_book import SolvedBook

FEATURES: Final = ("three", "two", "one", "threats", "parity", "immediate", "centre")
"""Every feature name, in the order of the module docstring."""

_ODD_ROWS: Final = sum(BOTTOM << r for r in range(0, ROWS, 2))
"""Rows 1, 3, 5 counted from the bottom (0-based 0, 2, 4): the first player's good rows."""
_EVEN_ROWS: Final = BOARD_MASK ^ _ODD_ROWS
"""Rows 2, 4, 6 counted from the bottom: the second player's good rows."""
_CENTRE: Final = ((1 << ROWS) - 1) << (7 * 3)
"""The cells of column 4."""
_H1: Final = ROWS + 1
"""Bits per column (six cells and the sentinel)."""


def winning_cells(stones: int, mask: int) -> int:
    """The empty cells that would complete a four for ``stones`` (one player's bitboard; ``mask`` every stone),
    as a bitboard: shifts along each direction, after P. Pons's solver (``compute_winning_position``)."""
    r = (stones << 1) & (stones << 2) & (stones << 3)  # vertical: three below
    for s in (_H1, _H1 - 1, _H1 + 1):  # horizontal and the two diagonals
        p = (stones << s) & (stones << (2 * s))
        r |= p & (stones << (3 * s))
        r |= p & (stones >> s)
        p = (stones >> s) & (stones >> (2 * s))
        r |= p & (stones << s)
        r |= p & (stones >> (3 * s))
    return r & (BOARD_MASK ^ mask)


def _line_counts(mine: int, theirs: int) -> tuple[int, int, int]:
    """Lines holding 3, 2 and 1 of ``mine`` and none of ``theirs``, minus the same for ``theirs``."""
    three = two = one = 0
    for m in LINE_MASKS:
        a = mine & m
        b = theirs & m
        if b == 0:
            if a:
                n = popcount(a)
                if n == 3:
                    three += 1
                elif n == 2:
                    two += 1
                elif n == 1:
                    one += 1
        elif a == 0:
            n = popcount(b)
            if n == 3:
                three -= 1
            elif n == 2:
                two -= 1
            elif n == 1:
                one -= 1
    return three, two, one


def _threat_terms(red: int, yellow: int, mask: int, red_to_move: bool) -> tuple[int, int, int]:
    """``(threats, parity, immediate)`` as Red's figure minus Yellow's."""
    wr = winning_cells(red, mask)
    wy = winning_cells(yellow, mask)
    playable = (mask + BOTTOM) & BOARD_MASK  # the cell each column's next stone lands on
    parity = (popcount(wr & ~playable & _ODD_ROWS)
              - popcount(wy & ~playable & _EVEN_ROWS))
    mover, other = (wr, wy) if red_to_move else (wy, wr)
    if mover & playable:
        immediate = 1
    elif popcount(other & playable) >= 2:
        immediate = -1
    else:
        immediate = 0
    return popcount(wr) - popcount(wy), parity, immediate if red_to_move else -immediate


def feature_values(state: Connect4State, needed: frozenset[str] = frozenset(FEATURES)) -> dict[str, float]:
    """Every feature in ``needed`` as Red's figure minus Yellow's (the ``feature_pass`` of
    :mod:`ai.connect4.connect4_agents`; the evaluation negates them for Yellow).

    Args:
        state: a :class:`gameplay.rules.connect4.Connect4State`.
        needed: the feature names to compute (others are left out).

    Returns:
        name -> value, in counts of lines, cells or stones.
    """
    red = state.first
    yellow = state.first ^ state.mask
    out: dict[str, float] = {}
    if needed & {"three", "two", "one"}:
        three, two, one = _line_counts(red, yellow)
        out.update(three=three, two=two, one=one)
    if needed & {"threats", "parity", "immediate"}:
        threats, parity, immediate = _threat_terms(red, yellow, state.mask, len(state.moves) % 2 == 0)
        out.update(threats=threats, parity=parity, immediate=immediate)
    if "centre" in needed:
        out["centre"] = popcount(red & _CENTRE) - popcount(yellow & _CENTRE)
    return {n: v for n, v in out.items() if n in needed}


class Connect4Evaluation:
    """The weighted evaluation as a callable ``(state, player) -> float`` (only features with a non-zero weight
    are computed; exact unit weights times one scale, as :func:`ai.kernel.evaluation.canonical_weights`).

    Raises:
        AgentError: a weight names no feature.
    """

    def __init__(self, weights: Mapping[str, float]) -> None:
        unknown = sorted(set(weights) - set(FEATURES))
        if unknown:
            raise AgentError(f"unknown Connect Four feature(s) {', '.join(unknown)}; expected some of "
                             f"{', '.join(FEATURES)}")
        self.user_weights = {n: float(v) for n, v in weights.items() if v}
        """The weights as given (for the feature breakdown)."""
        unit, self.scale = canonical_weights(self.user_weights)
        g = unit.get
        self.w3, self.w2, self.w1 = g("three", 0.0), g("two", 0.0), g("one", 0.0)
        self.wt, self.wp, self.wi = g("threats", 0.0), g("parity", 0.0), g("immediate", 0.0)
        self.wc = g("centre", 0.0)
        self.lines = bool(self.w3 or self.w2 or self.w1)
        self.threats = bool(self.wt or self.wp or self.wi)

    def __call__(self, state: Connect4State, player: int) -> float:
        red = state.first
        yellow = state.first ^ state.mask
        v = 0.0
        if self.lines:
            three, two, one = _line_counts(red, yellow)
            v += self.w3 * three + self.w2 * two + self.w1 * one
        if self.threats:
            threats, parity, immediate = _threat_terms(red, yellow, state.mask, len(state.moves) % 2 == 0)
            v += self.wt * threats + self.wp * parity + self.wi * immediate
        if self.wc:
            v += self.wc * (popcount(red & _CENTRE) - popcount(yellow & _CENTRE))
        v *= self.scale
        return v if player == 0 else -v

    def breakdown(self, state: Connect4State, player: int) -> dict[str, tuple[float, float]]:
        """Per feature ``(value for player, weighted contribution)``."""
        f = feature_values(state)
        s = 1.0 if player == 0 else -1.0
        return {n: (s * f[n], s * f[n] * self.user_weights.get(n, 0.0)) for n in FEATURES}


def _feature_fn(name: str) -> Callable[[Any, int], float]:
    def f(state: Any, player: int) -> float:
        v = feature_values(state, frozenset({name}))[name]
        return v if player == 0 else -v
    f.__name__ = name
    return f


WEIGHT_PRESETS: dict[str, dict[str, float]] = {
    # f = 100A + 10B + C - (100D + 10E + F) over the lines of four (S. Tanimoto, CSE 415; ai.kernel.evaluation).
    "textbook": {"three": 100.0, "two": 10.0, "one": 1.0},
    # Measured against textbook at depth 4 over the 49 two-ply openings, both colours (docs/strength.md): 0.571.
    # ``immediate`` is left at 0: with it at 500, depth 4 scored 0.49 against depth 2 (no gain measured).
    "default": {"three": 10.0, "two": 3.0, "one": 1.0, "threats": 20.0, "parity": 30.0, "immediate": 0.0,
                "centre": 4.0},
}


# ----- the opening book: the first move of the solved game and the solved positions of the first plies -------------
@dataclass(frozen=True)
class BookEntry:
    """One book move: its notation, its value for the side to move (search units) and the depth that proved it."""

    move: str
    value: float
    depth: int
    source: str = "the solved game"
    """Where the proof comes from: ``the solved game`` (the literature's result of the empty board) or ``the book``
    (a position ``tools/build_c4_book.py`` solved)."""

    def origin(self) -> str:
        """Where the entry comes from, in words (the window and the command line show it): ``"the solved game:
        win in 41"``, ``"the book (solved): loss in 30"``."""
        return f"{self.source}: {value_label(self.value)}"


SOLVED_START_PLIES: Final = 41
"""Connect Four is a first-player win (J. D. Allen and V. Allis, independently, 1988; J. Tromp's database,
1995; P. Pons's solver, 2019): from the empty board, with perfect play, the first player wins with the 41st stone
(Pons's score +1: the winner's 21st stone), and only by playing the centre column first. The project's own solver
proves it too, in the book's build (``tools/build_c4_book.py --empty``); this published result stands in when the
book has no entry for the empty board."""


class OpeningBook:
    """The book ``expert`` plays from (the ``book`` key): the positions the project's own solver solved for the book
    (:mod:`ai.connect4.connect4_book`, built by ``tools/build_c4_book.py``: the empty board and the positions
    ``expert`` meets in its first plies), each with its proven result; the start position's one winning move,
    column 4 (a proven win in :data:`SOLVED_START_PLIES` plies, from the literature), when the book lacks the empty
    board. Any other position is left to the solver or the search.

    Args:
        solved: the solved positions (default: the shipped book, :func:`ai.connect4.connect4_book.load_book`, read
            at the first lookup).
    """

    def __init__(self, solved: SolvedBook | None = None) -> None:
        self.solved = solved

    def lookup(self, state: Any) -> list[BookEntry]:
        """The book's entries at ``state`` (``[]`` when not in the book)."""
        if not isinstance(state, Connect4State):
            return []
        from ai.connect4.connect4_exact import search_value
        from gameplay.rules.connect4_bits import from_state_bits
        if self.solved is None:
            from ai.connect4.connect4_book import load_book
            self.solved = load_book()
        position, mask = from_state_bits(state.first, state.mask, state.plies)
        found = self.solved.probe(position, mask)
        if found is None:
            if state.mask == 0:
                return [BookEntry("4", WIN - SOLVED_START_PLIES, SOLVED_START_PLIES)]
            return []
        score, column = found
        value = search_value(score, state.plies)
        return [BookEntry(str(column), value, int(round(WIN - abs(value))) if value else CELLS - state.plies,
                          "the book (solved)")]

    def choose(self, state: Any, rng: random.Random | None = None) -> int | None:
        """The book move at ``state`` (a column), or ``None`` when the position is not in the book."""
        entries = self.lookup(state)
        return int(entries[0].move) if entries else None


_BOOK: Final = OpeningBook()


def _load_book() -> OpeningBook:
    return _BOOK


def _exact_play(book: bool = True) -> Any:
    from ai.connect4.connect4_exact import ExactPlay
    return ExactPlay(book=book)


def make_profile() -> GameProfile:
    """The Connect Four profile (its registry record's ``profile``): the line-and-threat evaluation, alpha-beta
    with centre-first ordering and the table, presets ``beginner`` .. ``expert`` (a measured ladder,
    docs/strength.md).

    ``expert`` plays perfectly: it opens with the solved game's winning first move, the centre, and plays the
    book's solved positions (:class:`OpeningBook`); any other position the exact solver proves within 1 s a move
    (``exact=on``: :mod:`ai.connect4.connect4_exact`), giving the proven result with its distance (``stop_reason``
    ``proven``).
    """
    # imported by name so that a broken install is reported as such (ai.agents.profiles.profile_for)
    rules = importlib.import_module("gameplay.rules.connect4")
    return GameProfile(
        game=rules.Connect4(),
        features={n: _feature_fn(n) for n in FEATURES},
        weight_presets={k: dict(v) for k, v in WEIGHT_PRESETS.items()},
        # Odd depths: the horizon falls after the agent's own move (even depths measured weaker, docs/strength.md:
        # depth 4 scored 0.413 against depth 2).
        presets={
            "beginner": {"algorithm": "alphabeta", "depth": 1},
            "easy": {"algorithm": "alphabeta", "depth": 3},
            "medium": {"algorithm": "alphabeta", "depth": 5},
            "hard": {"algorithm": "alphabeta", "depth": 7},
            "expert": {"algorithm": "alphabeta", "time": 1.0, "book": True, "exact": True},
        },
        defaults={"alphabeta": {"time": 1.0}, "minimax": {"depth": 4}},
        evaluator_factory=Connect4Evaluation,
        book_loader=_load_book,
        exact_play=_exact_play,
    )
