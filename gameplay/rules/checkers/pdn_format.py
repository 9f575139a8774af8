"""PDN as checkers' archive format (:class:`gameplay.rules.archive.ArchiveFormat`): what its record offers
matches, tournaments and the window (``GameInfo.archive``).

Cheap to import (the registry builds checkers' record with it): the PDN writer and reader
(:mod:`gameplay.rules.checkers.pdn`, :mod:`gameplay.rules.checkers.pdn_read`) are imported when a game is first written
or read.
"""

from __future__ import annotations

from collections.abc import Sequence

from gameplay.rules.archive import ArchivedGame

__all__ = ["PDN_FORMAT", "PDNFormat"]


class PDNFormat:
    """Portable Draughts Notation: tags ``Event``, ``Round``, ``Black`` (the first mover), ``White``, then
    ``Opening`` and ``Termination`` when given, and the result token (``*`` for a game stopped unfinished)."""

    name = "PDN"
    suffix = "pdn"

    def write_games(self, games: Sequence[ArchivedGame]) -> str:
        """The games as PDN text, separated by blank lines (:func:`gameplay.rules.checkers.pdn.write_games`).

        Raises:
            GameError: a malformed start (``PositionError``), an illegal move (``MoveError``) or a tag PDN cannot
                store (``PDNError``).
        """
        from gameplay.rules.checkers.pdn import game_from_moves, write_games
        return write_games([game_from_moves(list(g.moves), g.start, _tags(g), _result(g)) for g in games])

    def read_games(self, text: str) -> list[ArchivedGame]:
        """Every game of a PDN text (:func:`gameplay.rules.checkers.pdn_read.read_games`); the start is ``None`` when
        the game starts from the standard position.

        Raises:
            PDNError: the first bad game's problem, with its line and column.
        """
        from gameplay.rules.checkers.checkers import Checkers
        from gameplay.rules.checkers.checkers_notation import format_fen
        from gameplay.rules.checkers.pdn_read import read_games
        standard = Checkers().initial_state()
        out = []
        for game in read_games(text):
            tags = game.tags
            winner = {"1-0": 0, "0-1": 1}.get(game.result)
            out.append(ArchivedGame(
                tuple(game.move_texts()), None if game.start == standard else format_fen(game.start),
                tags.get("Event", ""), tags.get("Round", ""), (tags.get("Black", ""), tags.get("White", "")),
                tags.get("Opening"), tags.get("Termination"), winner, game.result != "*"))
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PDNFormat)

    def __hash__(self) -> int:
        return hash(PDNFormat)


def _tags(game: ArchivedGame) -> dict[str, str]:
    tags = {"Event": game.event, "Round": game.round, "Black": game.players[0], "White": game.players[1]}
    if game.opening is not None:
        tags["Opening"] = game.opening
    if game.termination is not None:
        tags["Termination"] = game.termination
    return tags


def _result(game: ArchivedGame) -> str:
    if not game.finished:
        return "*"
    return "1/2-1/2" if game.winner is None else ("1-0" if game.winner == 0 else "0-1")


PDN_FORMAT = PDNFormat()
"""The one PDN format object (checkers' record's ``archive``)."""
