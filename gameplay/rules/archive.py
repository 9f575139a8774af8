"""Archive formats as a hook a game provides: how a game's finished games are written to (and read from) text.

A game's record names its format (:attr:`gameplay.rules.registry.GameInfo.archive`, e.g. checkers' PDN); a game
without one is archived by nobody (matches write no file, a tournament keeps a plain-text record, the window saves
its own JSON). The arena, the match and the tournament describe a game as an :class:`ArchivedGame` (moves in the
game's notation, the players, the result) and ask the format for its text; only the format knows its syntax.

Rules layer: standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

__all__ = ["ArchiveFormat", "ArchivedGame"]


@dataclass(frozen=True)
class ArchivedGame:
    """One game as an archive keeps it, in the game's own terms (its notation, its players in move order)."""

    moves: tuple[str, ...]
    """The moves played, in the game's notation (``Game.format_move``)."""
    start: str | None = None
    """The start position in the game's notation; ``None``: the game's standard start."""
    event: str = ""
    """What the game was part of (``arena``, ``match random vs medium``); empty: not said."""
    round: str = ""
    """The game's place in that event (a match's game number, a tournament game's key); empty: not said."""
    players: tuple[str, str] = ("", "")
    """Who played, the first mover (player 0) first."""
    opening: str | None = None
    """The opening's label (:attr:`gameplay.rules.openings.Opening.label`) or another name of the start; ``None``:
    not recorded."""
    termination: str | None = None
    """How the game ended, in words (``Outcome.termination_text``, ``move limit``); ``None``: not recorded."""
    winner: int | None = None
    """The player who won (0 moved first); ``None``: a draw, or no result when :attr:`finished` is false."""
    finished: bool = True
    """False for a game stopped before its end (a move limit): no result is recorded."""


@runtime_checkable
class ArchiveFormat(Protocol):
    """A game's archive format (checkers: PDN). Its objects must be picklable (a record travels to workers)."""

    name: str
    """The format's name in a sentence (``PDN``)."""
    suffix: str
    """The file name suffix without the dot (``pdn``): a match's archive file, a tournament's game files."""

    def write_games(self, games: Sequence[ArchivedGame]) -> str:
        """The games as one text in the format, in order.

        Raises:
            GameError: a game cannot be written (a move or a start position the format cannot express).
        """
        ...

    def read_games(self, text: str) -> list[ArchivedGame]:
        """Every game of a text in the format, in order (what :meth:`write_games` wrote reads back equal, except
        what the format does not keep).

        Raises:
            GameError: the text is not in the format.
        """
        ...
