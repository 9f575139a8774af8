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

from dataclasses import dataclass

from ai.kernel.numbers import INF, value_label

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
