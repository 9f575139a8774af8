"""The ACF three-move opening ballots for English checkers (``assets/ballots-english.tsv``).

The 156-opening tournament deck is the 144 "crossboard" openings plus the 12 formerly barred openings the ACF
added in 2003 ("mailplay"); the 18 barred/lost openings are left out. Source and provenance are in the file's
header (CheckerBoard's ``three_move_table``, cross-checked against pydraughts).

:data:`BALLOTS` is the deck as checkers' record offers it (``match --openings ballots``,
:class:`gameplay.rules.openings.OpeningDeck`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from gameplay.rules.base import GameError
from gameplay.rules.openings import Opening, OpeningDeck
from gameplay.rules.shipped import shipped_path

DEFAULT_PATH = shipped_path("assets", "ballots-english.tsv")
DECK_CATEGORIES = ("crossboard(144)", "mailplay(+12,2003)")


@dataclass(frozen=True)
class Ballot:
    """One three-move opening."""

    number: int
    """ACF number (1..174)."""
    moves: tuple[str, ...]
    """The three moves in PDN, e.g. ``("9-13", "22-18", "6-9")``."""
    category: str
    name: str
    fen: str
    """PDN FEN after the three moves (White to move)."""

    def label(self) -> str:
        """``ACF #5 9-13 22-18 6-9 (Dreaded Edinburgh)``."""
        return f"ACF #{self.number} {' '.join(self.moves)}" + (f" ({self.name})" if self.name else "")


def load_ballots(path: Path | None = None, deck_only: bool = True) -> list[Ballot]:
    """Read the three-move ballots.

    Args:
        path: the TSV file (default: the one shipped in ``assets/``).
        deck_only: keep only the 156-opening deck.

    Returns:
        Ballots in ACF order.

    Raises:
        GameError: the file is missing or a row is malformed (with its line number).
    """
    p = path or DEFAULT_PATH
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise GameError(f"cannot read the opening ballots {p}: {e.strerror or e}") from None
    out: list[Ballot] = []
    for lineno, line in enumerate(lines, 1):
        if line.startswith("# PART 2"):
            break
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) < 7:
            raise GameError(f"{p}:{lineno}: expected 7 tab-separated columns, got {len(cols)}")
        try:
            number = int(cols[0])
        except ValueError:
            raise GameError(f"{p}:{lineno}: ACF number {cols[0]!r} is not a whole number") from None
        moves = tuple(cols[1].split())
        if len(moves) != 3:
            raise GameError(f"{p}:{lineno}: expected three moves, got {cols[1]!r}")
        b = Ballot(number, moves, cols[2], cols[4], cols[6])
        if not deck_only or b.category in DECK_CATEGORIES:
            out.append(b)
    return out


@cache
def deck_openings() -> tuple[Opening, ...]:
    """The 156-opening deck as :class:`~gameplay.rules.openings.Opening` values, in ACF order (read once a
    process): key ``"5"``, label ``ACF #5 9-13 22-18 6-9 (Dreaded Edinburgh)``, place ``ACF 5``, the FEN after
    the three moves, and the names a user may give (the label, ``ACF #5``, ``5`` and the opening's name).

    Raises:
        GameError: as :func:`load_ballots`.
    """
    return tuple(Opening(str(b.number), b.label(), f"ACF {b.number}", b.fen,
                         (b.label(), f"ACF #{b.number}", str(b.number)) + ((b.name,) if b.name else ()))
                 for b in load_ballots())


BALLOTS = OpeningDeck("ballots", "ACF ballots", "a ballot of the deck: its label, ACF #N or N", deck_openings)
"""Checkers' one opening deck: ``--openings ballots`` (the ACF 156-opening deck, each ballot twice)."""
