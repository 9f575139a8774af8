"""The Game protocol shared by every game, and the value types around it.

The names follow Russell and Norvig, *Artificial Intelligence: A Modern Approach* (AIMA), chapter 5
(``initial_state``, ``to_move``, ``actions``, ``result``, ``is_terminal``, ``utility``) and OpenSpiel's shape
for chance (``is_chance``, ``chance_outcomes``). States are immutable and hashable; ``result`` never mutates
and raises :class:`IllegalMoveError` on a move that is not legal.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, Hashable, Protocol, Sequence, TypeVar, runtime_checkable

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)
S_contra = TypeVar("S_contra", bound=Hashable, contravariant=True)


QUOTE_LIMIT = 80
"""Characters of the user's input an error message quotes at most (CLI.md: "quoting at most ~80 characters")."""


def quoted(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``text`` quoted for an error message (``repr``), cut to ``limit`` characters with its length named, so a
    100 KB position or agent spec never fills the terminal: ``'WWWW...' (100000 characters)``."""
    s = text if isinstance(text, str) else str(text)
    if len(s) <= limit:
        return repr(s) if isinstance(text, str) else repr(text)
    return f"{s[:max(1, limit - 3)]!r}... ({len(s):,} characters)"


def quoted_path(path: object, limit: int = QUOTE_LIMIT) -> str:
    """A file or folder path quoted for an error message: whole when it is at most ``limit`` characters, else its
    end (the file's name and the folders just above it, which say which file it is) after ``...``, with its length
    named: ``'.../exports/run-3/tree.png' (a path of 143 characters)``."""
    s = str(path)
    if len(s) <= limit:
        return repr(s)
    return f"{'...' + s[-max(1, limit - 6):]!r} (a path of {len(s):,} characters)"


MESSAGE_LIMIT = 400
"""Characters of one error message at most (:func:`shortened`): the last guard behind :func:`quoted`, so a message
that quotes a 100 KB input whole by mistake neither floods a terminal nor freezes the window's text box."""


def shortened(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """``message`` on one line (newlines folded) of at most about ``limit`` characters: a longer one is cut, with
    its length named (``... (100,222 characters in all)``)."""
    line = " ".join(message.split("\n"))
    if len(line) <= limit:
        return line
    return f"{line[:max(1, limit - 40)]}... ({len(line):,} characters in all)"


class GameError(ValueError):
    """Base class of the errors a game raises for bad input (a clear one-line message, at most
    :data:`MESSAGE_LIMIT` characters however much of the input it quotes)."""

    def __str__(self) -> str:
        return shortened(super().__str__())


class PositionError(GameError):
    """A position string (or state) is malformed or describes an impossible position."""


class MoveError(GameError):
    """A move string is malformed, or names no legal move in the position."""


class IllegalMoveError(MoveError):
    """``result()`` was handed a move that is not in ``actions(state)``."""


class Termination(StrEnum):
    """Why a game ended (python-chess's ``Termination``). Each value is the words the program prints (in the
    command line's ``termination`` field, the window and the PDN ``Termination`` tag); a member compares equal to
    its words."""

    THREE_IN_A_ROW = "three in a row"
    """Tic-tac-toe: a line of three marks."""
    BOARD_FULL = "board full"
    """Tic-tac-toe, and any board game that fills up: no empty cell left, no line (a draw)."""
    FOUR_IN_A_ROW = "four in a row"
    """A line of four pieces (horizontal, vertical or diagonal)."""
    NO_LEGAL_MOVE = "no legal move"
    """Checkers: the side to move has no legal move (it loses)."""
    THREEFOLD_REPETITION = "threefold repetition"
    """Checkers: the same position with the same side to move for the third time (a draw)."""
    FORTY_MOVE_RULE = "40-move rule"
    """Checkers: 80 plies without a capture or a man move (a draw)."""
    REACHED = "reached"
    """Pig: a banked score reached the target (``Outcome.detail`` is the target: ``reached 100``)."""
    LEAF = "leaf"
    """A Tree Lab tree: the game reached a leaf (``Outcome.detail`` is its payoff: ``leaf 3``)."""
    GAME_OVER = "game over"
    """A game from a file: its ``is_terminal`` said so (``Outcome.detail``: the payoff when it is not +1/0/-1)."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, as data (python-chess's ``Outcome`` shape)."""

    winner: int | None
    """Index of the winning player (0 = first player), or ``None`` for a draw."""
    termination: Termination
    """Why it ended (compare it with the members: ``out.termination is Termination.NO_LEGAL_MOVE``)."""
    detail: str = ""
    """The number that completes the words of some terminations (Pig's target ``100``, a tree leaf's ``3``), or
    ``""``."""

    @property
    def termination_text(self) -> str:
        """Why it ended, in the words the program prints: ``"three in a row"``, ``"reached 100"``."""
        words = str(self.termination)
        return f"{words} {self.detail}" if self.detail else words


@dataclass(frozen=True)
class GameTraits:
    """What kind of game this is; each search checks these before it starts."""

    players: int = 2
    """Number of players (all games here have two)."""
    stochastic: bool = False
    """True when the game has chance nodes (dice)."""
    zero_sum: bool = True
    """True when one player's gain is the other's loss."""
    move_order: bool = False
    """The game offers a static move-ordering key ``order_key(state, move)`` (> 0 for captures)."""
    compulsory_captures: bool = False
    """A capture, when one exists, must be played (quiescence search then has no stand-pat option)."""
    repetition: bool = False
    """Positions can repeat: the searches track their path and key tables with ``draw_context(state)``."""
    global_moves: bool = True
    """A move means the same in every position (killer moves and the history heuristic apply); False for the
    Tree Lab's trees, whose moves are child indices."""
    proven_terminals: bool = True
    """Terminal utilities are game results, scored by distance (``WIN - ply``: "win in N"); False when they
    are raw payoffs (the Tree Lab's leaves)."""
    fast_perft: bool = False
    """True when the game counts its own move tree: it has ``perft(state, depth, count_terminal)``
    (:class:`gameplay.rules.perft.FastPerft`), which :func:`gameplay.rules.perft.perft` then calls."""
    piece_count: bool = False
    """True when a position's pieces can be counted: the game has ``pieces(state)`` (:class:`PieceCount`), by
    which endgame databases are indexed (the search probes a database only for such a game)."""


@runtime_checkable
class PieceCount(Protocol[S_contra]):
    """The capability a game declares with ``traits.piece_count``: how many pieces a position holds."""

    def pieces(self, state: S_contra) -> int:
        """Pieces on the board in ``state`` (both sides, kings included)."""
        ...


@runtime_checkable
class Game(Protocol, Generic[S, M]):
    """A two-player game: the interface every search and the referee use.

    Players are numbered 0 (first player: X, Black, player 1) and 1.
    """

    name: str
    """Command-line name: ``tictactoe``, ``checkers``, ``pig``."""
    traits: GameTraits
    player_names: tuple[str, str]
    """Display names of players 0 and 1, e.g. ``("X", "O")``."""

    def initial_state(self) -> S:
        """The start position."""
        ...

    def to_move(self, state: S) -> int:
        """The player (0 or 1) who decides at ``state``; for a chance node, the player who decides next."""
        ...

    def actions(self, state: S) -> Sequence[M]:
        """The legal moves at ``state`` (empty when the game is over), in a fixed order."""
        ...

    def result(self, state: S, move: M) -> S:
        """The state after ``move``.

        Raises:
            IllegalMoveError: ``move`` is not legal at ``state``.
        """
        ...

    def successor(self, state: S, move: M) -> S:
        """Like ``result`` but trusts that ``move`` came from ``actions(state)`` (the search's fast path)."""
        ...

    def is_terminal(self, state: S) -> bool:
        """True when the game is over."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """The result as data, or ``None`` while the game goes on."""
        ...

    def utility(self, state: S, player: int) -> float:
        """Terminal payoff for ``player``: +1 win, 0 draw, -1 loss."""
        ...

    def is_chance(self, state: S) -> bool:
        """True at a chance node (only stochastic games)."""
        ...

    def chance_outcomes(self, state: S) -> Sequence[tuple[M, float]]:
        """``[(outcome, probability)]`` at a chance node; probabilities sum to 1 (an outcome is played like a
        move: ``result(state, outcome)``)."""
        ...

    def parse_position(self, text: str) -> S:
        """Read a position in the notation of RULES.md.

        Raises:
            PositionError: the text is malformed or the position impossible.
        """
        ...

    def format_position(self, state: S) -> str:
        """Write a position in the notation of RULES.md."""
        ...

    def parse_move(self, state: S, text: str) -> M:
        """Read a move in the game's notation and check it is legal at ``state``.

        Raises:
            MoveError: malformed, or not a legal move here.
        """
        ...

    def format_move(self, state: S, move: M) -> str:
        """Write a move in the game's notation."""
        ...

    def order_key(self, state: S | None, move: M) -> float:
        """Static move-ordering key, higher tried first (read only when ``traits.move_order``)."""
        ...

    def draw_context(self, state: S) -> Hashable | None:
        """What a draw rule reads besides the position (read only when ``traits.repetition``)."""
        ...


class DeterministicGame(Generic[S, M]):
    """Defaults shared by games without chance nodes."""

    traits = GameTraits()

    def order_key(self, state: S | None, move: M) -> float:
        """Static move-ordering key (higher first); 0 for every move unless ``traits.move_order``."""
        return 0.0

    def draw_context(self, state: S) -> Hashable | None:
        """What, besides the position, a draw rule reads (history, counters); ``None`` when nothing does."""
        return None

    def successor(self, state: S, move: M) -> S:
        return self.result(state, move)  # type: ignore[attr-defined,no-any-return]

    def is_chance(self, state: S) -> bool:
        return False

    def chance_outcomes(self, state: S) -> Sequence[tuple[M, float]]:
        raise GameError(f"{type(self).__name__} has no chance nodes")

    def is_terminal(self, state: S) -> bool:
        return self.outcome(state) is not None  # type: ignore[attr-defined]

    def utility(self, state: S, player: int) -> float:
        out = self.outcome(state)  # type: ignore[attr-defined]
        if out is None:
            raise GameError("utility() of a position that is not over")
        if out.winner is None:
            return 0.0
        return 1.0 if out.winner == player else -1.0
