"""The referee: a game record with undo/redo, and the loop that plays two agents against each other.

A :class:`GameRecord` holds the start state and the moves played; every state is derived by replaying (states
are immutable, so the window and the worker never share a mutable board). Its ``tag`` (record identity and
ply) labels AI requests so a result that arrives after undo or a new game is recognised as stale.
Chance outcomes (dice) are sampled by the referee with a seeded :class:`random.Random`, never by an agent.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Sequence

from gameplay.rules.base import Game, GameError, Outcome

_ids = itertools.count(1)


@dataclass
class GameRecord:
    """A game in progress: start state, the moves (or chance outcomes) played, and a redo stack.

    Attributes:
        game: the game.
        start: the start state.
        moves: moves and chance outcomes in order (``len(moves)`` is the ply count).
        states: ``states[i]`` is the state before ``moves[i]``; ``states[-1]`` is the current state.
        match_id: identity of this game (a new game gets a new id).
    """

    game: Game[Any, Any]
    start: Any
    moves: list[Any] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)
    redo_stack: list[Any] = field(default_factory=list)
    match_id: int = field(default_factory=lambda: next(_ids))

    def __post_init__(self) -> None:
        if not self.states:
            self.states = [self.start]

    @property
    def state(self) -> Any:
        """The current state."""
        return self.states[-1]

    @property
    def ply(self) -> int:
        """Moves (and chance outcomes) played so far."""
        return len(self.moves)

    @property
    def tag(self) -> Hashable:
        """``(match_id, ply)``: labels an AI request for the current position."""
        return (self.match_id, len(self.moves))

    def outcome(self) -> Outcome | None:
        """The result of the game so far, or ``None`` while it goes on."""
        return self.game.outcome(self.state)

    def play(self, move: Any) -> Any:
        """Play a legal move (or a chance outcome at a chance node); clears the redo stack.

        Raises:
            IllegalMoveError: not legal here (the record is unchanged).
        """
        new = self.game.result(self.state, move)
        self.moves.append(move)
        self.states.append(new)
        self.redo_stack.clear()
        return new

    def undo(self, plies: int = 1) -> int:
        """Take back up to ``plies`` plies; returns how many were taken back."""
        n = 0
        while n < plies and self.moves:
            self.redo_stack.append(self.moves.pop())
            self.states.pop()
            n += 1
        return n

    def redo(self, plies: int = 1) -> int:
        """Replay up to ``plies`` undone plies; returns how many were replayed."""
        n = 0
        while n < plies and self.redo_stack:
            m = self.redo_stack.pop()
            self.states.append(self.game.result(self.state, m))
            self.moves.append(m)
            n += 1
        return n

    def undo_to_human(self, is_human: Callable[[int], bool]) -> int:
        """Take back to the last position where a human was to move (before their last move).

        Chance outcomes are undone together with the decision that caused them. Returns plies taken back
        (0 when there is no earlier human decision).
        """
        g = self.game
        for i in range(len(self.moves) - 1, -1, -1):
            s = self.states[i]
            if not g.is_chance(s) and is_human(g.to_move(s)):
                return self.undo(len(self.moves) - i)
        return 0

    def notation(self) -> list[str]:
        """The moves in the game's notation (chance outcomes as the game formats them)."""
        return [self.game.format_move(self.states[i], m) for i, m in enumerate(self.moves)]


def draw_outcome(outcomes: Sequence[tuple[Any, float]], rng: random.Random) -> Any:
    """One outcome of ``[(outcome, probability)]`` drawn by its probability (``rng.choices``).

    A draw takes one ``rng.random()`` and picks the first outcome whose running sum of probabilities exceeds it
    (the last when rounding leaves the sum short of 1), so a seeded generator gives the same outcomes as a
    cumulative loop would, except when the number lands exactly on a boundary (about 2**-53 per draw; see
    ``tests/test_pig.py``).

    Raises:
        IndexError: no outcomes. ValueError: the probabilities do not sum to a positive finite number.
    """
    return rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]


def sample_chance(game: Game[Any, Any], state: Any, rng: random.Random) -> Any:
    """Draw one chance outcome at a chance node with the outcome probabilities (the referee's dice)."""
    return draw_outcome(game.chance_outcomes(state), rng)


@dataclass(frozen=True)
class PlayedGame:
    """One finished (or abandoned) game between two agents."""

    moves: tuple[Any, ...]
    outcome: Outcome | None
    plies: int
    final: Any


def play_game(game: Game[Any, Any], agents: tuple[Any, Any], start: Any | None = None, *,
              rng: random.Random | None = None, max_plies: int = 10_000,
              on_move: Callable[[Any, Any], None] | None = None) -> PlayedGame:
    """Play one game: ``agents[p].choose(state)`` for player ``p``; dice sampled with ``rng`` (seeded).

    Raises:
        GameError: an agent returned an illegal move.
    """
    rng = rng or random.Random(0)
    record = GameRecord(game, game.initial_state() if start is None else start)
    while record.ply < max_plies:
        s = record.state
        if game.is_chance(s):
            record.play(sample_chance(game, s, rng))
            continue
        if game.is_terminal(s):
            break
        res = agents[game.to_move(s)].choose(s)
        try:
            record.play(res.move)
        except GameError as e:
            raise GameError(f"agent for player {game.to_move(s) + 1} played an illegal move: {e}") from None
        if on_move is not None:
            on_move(s, res)
    return PlayedGame(tuple(record.moves), record.outcome(), record.ply, record.state)
