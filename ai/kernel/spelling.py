"""How the search's signs are spelt: the one place a bound, an infinity, alpha, beta and a null window's epsilon get
their letters.

Two spellings, one rule: **the window and its pictures** (the tree, its narration, the pass line under a node, the
step text, the quiz, the PNG and SVG pictures, ``shot``'s report of what it drew) write the glyphs, ``α β ≤ ≥ −∞ +∞
ε`` (the bundled DejaVu Sans has them: :mod:`gameplay.pictures.fonts`); **text for a terminal or a text file**
(``tree --narrate``, ``analyze``, the trace, the text and Markdown exports, DOT labels) writes ASCII, ``alpha beta
<= >= -inf +inf eps``, because a terminal's font may lack the glyphs. :data:`UNICODE` names the first, :data:`ASCII`
the second; every function that writes a bound takes the spelling and asks :func:`signs` for its letters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ai.kernel.numbers import INF, plural, value_label

ASCII = "ascii"
"""Text for a terminal or a text file."""
UNICODE = "unicode"
"""What the window and its pictures draw."""
SPELLINGS = (ASCII, UNICODE)


@dataclass(frozen=True)
class Signs:
    """The letters of one spelling."""

    alpha: str
    beta: str
    neg_inf: str
    pos_inf: str
    ge: str
    le: str
    eps: str


_SIGNS = {ASCII: Signs("alpha", "beta", "-inf", "+inf", ">=", "<=", "eps"),
          UNICODE: Signs("α", "β", "−∞", "+∞", "≥", "≤", "ε")}


def signs(spelling: str) -> Signs:
    """The letters of ``spelling`` (:data:`ASCII` or :data:`UNICODE`).

    Raises:
        ValueError: another spelling.
    """
    try:
        return _SIGNS[spelling]
    except KeyError:
        raise ValueError(f"spelling must be one of {', '.join(SPELLINGS)}, got {spelling!r}") from None


def value_word(v: float, proofs: bool = True, spelling: str = ASCII) -> str:
    """A value: infinities in ``spelling`` (``-inf`` / ``−∞``), else :func:`ai.kernel.numbers.value_label`
    (``3``, ``win in 5`` with ``proofs``)."""
    if v == INF:
        return signs(spelling).pos_inf
    if v == -INF:
        return signs(spelling).neg_inf
    return value_label(v, proofs)


def bound_text(lo: float, hi: float, value: float, proofs: bool = True, spelling: str = ASCII) -> str:
    """What a search proved about a value, as a node is labelled: ``3`` (exact: ``lo == hi``, written as ``value``),
    ``<= 2`` / ``≤ 2``, ``>= 5`` / ``≥ 5``, or ``[1, 4]``; the bound's number by :func:`value_word`."""
    s = signs(spelling)
    if lo == hi:
        return value_word(value, proofs, spelling)
    if lo == -INF and hi < INF:
        return f"{s.le} {value_word(hi, proofs, spelling)}"
    if hi == INF and lo > -INF:
        return f"{s.ge} {value_word(lo, proofs, spelling)}"
    return f"[{value_word(lo, proofs, spelling)}, {value_word(hi, proofs, spelling)}]"


def known_text(lo: float, hi: float, proofs: bool = True, spelling: str = ASCII) -> str:
    """What is known of a value while its search runs: ``?`` (nothing), ``>= 3`` / ``≥ 3``, ``<= 2`` / ``≤ 2``, or
    ``= 3?`` (both ends met, the search not yet back)."""
    s = signs(spelling)
    if lo > -INF and hi < INF and lo == hi:
        return f"= {value_word(lo, proofs, spelling)}?"
    if lo > -INF:
        return f"{s.ge} {value_word(lo, proofs, spelling)}"
    if hi < INF:
        return f"{s.le} {value_word(hi, proofs, spelling)}"
    return "?"


PRUNES = ("ge", "gt")
"""Alpha-beta's cut-off tests: ``ge`` cuts when alpha >= beta (AIMA's), ``gt`` only when alpha > beta."""


def cut_sign(prune: str = "ge", spelling: str = ASCII) -> str:
    """The comparison of the cut-off test ``prune`` (:data:`PRUNES`): ``>=`` / ``≥`` for ``ge``, ``>`` for ``gt``.

    Raises:
        ValueError: another prune or spelling.
    """
    if prune not in PRUNES:
        raise ValueError(f"prune must be one of {', '.join(PRUNES)}, got {prune!r}")
    return signs(spelling).ge if prune == "ge" else ">"


def cut_rule(prune: str = "ge", spelling: str = ASCII) -> str:
    """The cut-off test as a rule: ``alpha >= beta`` / ``α ≥ β`` (``ge``), ``alpha > beta`` / ``α > β`` (``gt``).

    Raises:
        ValueError: another prune or spelling.
    """
    s = signs(spelling)
    return f"{s.alpha} {cut_sign(prune, spelling)} {s.beta}"


def cut_test(a: float, b: float, prune: str = "ge", proofs: bool = False, spelling: str = ASCII) -> str:
    """The cut-off test that fired, with its numbers: ``alpha=3 >= beta=2`` / ``α=3 ≥ β=2`` (alpha ``a``, beta
    ``b``, each by :func:`value_word`; ``gt``: ``>``).

    Raises:
        ValueError: another prune or spelling.
    """
    s = signs(spelling)
    return (f"{s.alpha}={value_word(a, proofs, spelling)} {cut_sign(prune, spelling)} "
            f"{s.beta}={value_word(b, proofs, spelling)}")


def proof_test_lines(tests: Sequence[Sequence[Any]], label: Callable[[Any], str] = str,
                     spelling: str = ASCII, space: str = " ", unsearched: Sequence[Any] = ()) -> list[str]:
    """An exact solver's null-window tests at the root, one line each, as the teaching views show a proof that has
    no recorded tree: ``Test 2, better than win in 13? no: 4 <= win in 13, 3, 5 <= draw (5,602 nodes)`` (moves searched
    one after the other with one bound share it).

    Args:
        tests: ``SearchResult.extra["proof_tests"]`` (the ``proof_tests`` of the game's exact play module): per test
            ``[threshold, result, nodes, columns]``, search values from the root's side (the test asked "is the
            value above ``threshold``?"; a ``result`` above it says yes), each column ``[move, value, nodes]`` in
            the order the test searched them: ``value`` a lower bound when above ``threshold`` (the test stopped
            there: the moves after it were not needed), else an upper bound.
        label: a move in the game's notation (``game.format_move`` with the root position).
        spelling: :data:`ASCII` (``<=``) or :data:`UNICODE` (``≤``).
        space: the space inside one move's bound (``"\u00a0"``, a no-break space, keeps ``3 ≤ win in 13`` on one
            line where the text is wrapped at spaces).
        unsearched: the root's moves no test searched because each loses at once (``extra["proof_unsearched"]``):
            a last line names them, so a "no" over fewer moves than the position has is not a riddle.

    Raises:
        ValueError: a test or a column not of that shape, or another spelling.
    """
    s = signs(spelling)

    def word(v: float) -> str:  # an exact solver's 0 is a proven draw
        return "draw" if v == 0 else value_word(v, True, spelling)

    lines = []
    for i, test in enumerate(tests, 1):
        try:
            threshold, result, nodes, columns = test
            bounds = [(label(move), f"{s.ge if value > threshold else s.le} {word(value)}")
                      for move, value, _ in columns]
        except (TypeError, ValueError):
            raise ValueError(f"test {i}: expected [threshold, result, nodes, [[move, value, nodes], ...]], "
                             f"got {test!r}") from None
        groups: list[tuple[list[str], str]] = []  # moves in a row with one bound share it: "3, 6 <= win in 3"
        for move_text, bound in bounds:
            if groups and groups[-1][1] == bound:
                groups[-1][0].append(move_text)
            else:
                groups.append(([move_text], bound))
        answer = "yes" if result > threshold else "no"
        said = ", ".join(f",{space}".join(moves) + space + bound.replace(" ", space) for moves, bound in groups)
        if not groups:  # the root had no move to search (every one loses at once): the test's own bound
            said = f"{s.ge if result > threshold else s.le} {word(result)}, no move needed a search"
        count = plural(int(nodes), "node").replace(" ", space)
        lines.append(f"Test {i}, better than {word(threshold)}? {answer}: {said} ({count})")
    if unsearched and lines:
        lines.append(f"Never searched: {', '.join(label(m) for m in unsearched)}, each losing at once (the opponent "
                     "wins with its next move)")
    return lines
