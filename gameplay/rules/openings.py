"""Opening decks as a hook a game provides: named lists of start positions that matches and tournaments accept.

A game's record (:attr:`gameplay.rules.registry.GameInfo.openings`) lists its decks; ``match --openings NAME`` and
``tournament --openings NAME`` look the deck up by its name among the game's, and play each opening twice with
colours swapped. Nothing outside the game's own modules knows what a deck holds: the arena, the match and the
tournament ask the deck for its openings (in order) and for one opening by a name a user or a journal gives.

Rules layer: standard library only. A deck's openings are read on first use (:attr:`OpeningDeck.load`), so a
record that lists a deck costs nothing until a match asks for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gameplay.rules.base import GameError, quoted

__all__ = ["Opening", "OpeningDeck"]


@dataclass(frozen=True)
class Opening:
    """One start position of a deck.

    Example (checkers' ballots): ``Opening(key="5", label="ACF #5 9-13 22-18 6-9 (Dreaded Edinburgh)",
    place="ACF 5", position="W:W18,21,...:B1,...", names=("ACF #5 9-13 ...", "ACF #5", "5", "Dreaded Edinburgh"))``.
    """

    key: str
    """The short name a scheduled game hands to the arena (``ai.agents.arena.ArenaTask.opening``); one of
    :attr:`names`."""
    label: str
    """The name shown in reports and saved records (a match's ``opening``, the archive's ``Opening`` tag)."""
    place: str
    """The opening's part of a tournament game's stable key (``A|B|ACF 5|A first``): never changes once journals
    hold it."""
    position: str
    """The start position in the game's notation (``Game.parse_position`` reads it)."""
    names: tuple[str, ...]
    """Every name :meth:`OpeningDeck.find` accepts for it (compared after stripping surrounding spaces)."""


@dataclass(frozen=True)
class OpeningDeck:
    """A named list of openings (a game's ``--openings`` value).

    Picklable when :attr:`load` is a module-level function (a record travels to worker processes).
    """

    name: str
    """The command line's name of the deck (``--openings ballots``): lower case, no spaces."""
    title: str
    """The deck in a sentence of the tournament report (``ACF ballots`` -> "ACF ballots in order, each twice ...")."""
    expected: str
    """What :meth:`find` says a name should be when none matches (``a ballot of the deck: its label, ACF #N or N``)."""
    load: Callable[[], Sequence[Opening]]
    """Returns the openings in the deck's order (called on each :meth:`openings`; cache there if reading is slow).

    Raises:
        GameError: the deck's data cannot be read."""

    def openings(self) -> tuple[Opening, ...]:
        """The deck's openings, in order (a match and a tournament take them in this order, wrapping around).

        Raises:
            GameError: the deck's data cannot be read (as :attr:`load`).
        """
        return tuple(self.load())

    def find(self, name: str) -> Opening:
        """The opening ``name`` names (any of its :attr:`Opening.names`, surrounding spaces ignored).

        Raises:
            GameError: no opening of the deck has that name (the message quotes it and says what is expected).
        """
        key = name.strip()
        for opening in self.openings():
            if key in opening.names:
                return opening
        raise GameError(f"unknown opening {quoted(name)}; expected {self.expected}")
