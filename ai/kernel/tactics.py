"""Tactical tests of the alpha-beta search (issue 27, lever 2): which moves are too sharp to reduce, and which
quiet moves quiescence should also try. Pure functions over a game's tactical hooks.

A game offers the hooks by having two methods (:class:`TacticalGame`; English checkers does, on bitboards):

* ``threatens(state, player) -> bool``: ``player`` could capture in ``state``'s position if it were to move;
* ``is_promotion(state, move) -> bool``: ``move`` (legal in ``state``) promotes a piece;
* ``gives_capture(state, move) -> bool``: after the quiet ``move`` the opponent has a capture.

A game that also has ``material(state) -> float`` (the side to move's balance in men) and ``pieces(state) -> int``
(:class:`MaterialGame`) can be searched with material truncation (``SearchOptions.truncate``).

A game whose captures are compulsory may also list them alone, ``noisy_actions(state)`` (:class:`NoisyGame`):
quiescence then generates no move at a quiet node (most of its nodes), only the captures where there are some.

A game without them gets no tactical tests (every quiet move counts as quiet), so the switches that use them
(``ai.kernel.search_options.SearchOptions.lmr_safe`` and ``shots``) change nothing there.
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence, runtime_checkable


@runtime_checkable
class TacticalGame(Protocol):
    """A game that can tell capture threats and promotions cheaply."""

    def threatens(self, state: Any, player: int) -> bool: ...

    def is_promotion(self, state: Any, move: Any) -> bool: ...

    def gives_capture(self, state: Any, move: Any) -> bool: ...


@runtime_checkable
class MaterialGame(Protocol):
    """A game that can tell its material balance and count its pieces cheaply (``SearchOptions.truncate``)."""

    def material(self, state: Any) -> float:
        """The side to move's material balance in men (a man = 1.0)."""
        ...

    def pieces(self, state: Any) -> int:
        """The pieces of both sides on the board."""
        ...


@runtime_checkable
class NoisyGame(Protocol):
    """A game with compulsory captures that can list them without generating its quiet moves."""

    def noisy_actions(self, state: Any) -> Sequence[Any]:
        """The legal moves when they are captures (then all of ``actions(state)``, in its order), else an empty
        sequence: also when the side to move has no capture, no move at all, or the game is over."""
        ...


def is_tactical(game: TacticalGame, state: Any, move: Any, child: Any, mover: int) -> bool:
    """True when the quiet ``move`` of ``mover`` from ``state`` (giving ``child``) is sharp: it promotes, it
    leaves the opponent a capture in ``child`` (a move into a threat, or one that leaves a man hanging), or the
    mover had a piece under attack before it (a move out of a threat: the move may be the one that saves it).

    Three bitboard tests in checkers; a late-move reduction must not shorten such a move (``ai.kernel.search``).
    """
    other = 1 - mover
    return game.is_promotion(state, move) or game.threatens(child, other) or game.threatens(state, other)


def offering_moves(game: TacticalGame, state: Any, moves: Sequence[Any]) -> list[Any]:
    """The quiet ``moves`` after which the opponent has a capture: each offers material, the first step of a
    two-for-one or three-for-one shot (quiescence with ``shots`` tries them)."""
    return [m for m in moves if game.gives_capture(state, m)]
