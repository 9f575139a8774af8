"""Tic-tac-toe (RULES.md): 3x3, cells 0..8 row-major from the top-left, X moves first.

A state is the 9-character board string over ``X``, ``O`` and ``.`` (immutable and hashable); the side to
move is inferred from the piece counts. A move is a cell index 0..8.
"""

from __future__ import annotations

from typing import Sequence

from gameplay.rules.base import (
    DeterministicGame,
    GameError,
    IllegalMoveError,
    MoveError,
    Outcome,
    PositionError,
    Termination,
    quoted,
)

LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
)
"""The eight winning lines (rows, columns, diagonals) as cell triples."""

EMPTY = "." * 9


def _winner_mark(board: str) -> str | None:
    for a, b, c in LINES:
        m = board[a]
        if m != "." and m == board[b] == board[c]:
            return m
    return None


class _Facts:
    """What the rules read of one board, worked out once (:func:`_facts`)."""

    __slots__ = ("winner", "over", "to_move", "mark", "moves")

    def __init__(self, board: str) -> None:
        self.winner = _winner_mark(board)
        """``"X"``, ``"O"`` or ``None``."""
        self.over = self.winner is not None or "." not in board
        self.to_move = 0 if board.count("X") == board.count("O") else 1
        self.mark = "XO"[self.to_move]
        """The mark the player to move places."""
        self.moves: tuple[int, ...] = () if self.over else tuple(i for i in range(9) if board[i] == ".")


_FACTS: dict[str, _Facts] = {}
"""Board -> its :class:`_Facts`: at most 3**9 boards (5,478 reachable), so the searches' millions of calls read a
dictionary instead of eight lines each (full minimax from the empty board: 549,946 nodes, 5,478 boards)."""


def _facts(board: str) -> _Facts:
    f = _FACTS.get(board)
    if f is None:
        f = _FACTS[board] = _Facts(board)
    return f


class TicTacToe(DeterministicGame[str, int]):
    """The tic-tac-toe game object (stateless; all state lives in the board strings)."""

    name = "tictactoe"
    player_names = ("X", "O")

    def initial_state(self) -> str:
        return EMPTY

    def to_move(self, state: str) -> int:
        return _facts(state).to_move

    def actions(self, state: str) -> list[int]:
        return list(_facts(state).moves)

    def successor(self, state: str, move: int) -> str:
        return state[:move] + _facts(state).mark + state[move + 1:]

    def result(self, state: str, move: int) -> str:
        if not isinstance(move, int) or not 0 <= move <= 8:
            raise IllegalMoveError(f"tic-tac-toe move must be a cell 0..8, got {quoted(move)}")
        if state[move] != ".":
            raise IllegalMoveError(f"cell {move} is already taken")
        if self.outcome(state) is not None:
            raise IllegalMoveError("the game is over")
        return self.successor(state, move)

    def outcome(self, state: str) -> Outcome | None:
        f = _facts(state)
        if f.winner is not None:
            return Outcome(0 if f.winner == "X" else 1, Termination.THREE_IN_A_ROW)
        if f.over:
            return Outcome(None, Termination.BOARD_FULL)
        return None

    def utility(self, state: str, player: int) -> float:
        """+1 if ``player`` completed a line, -1 if the other did, 0 for a full board without one.

        Raises:
            GameError: the game is not over.
        """
        f = _facts(state)
        w = f.winner
        if w is None:
            if not f.over:
                raise GameError("utility() of a position that is not over")
            return 0.0
        return 1.0 if (w == "X") == (player == 0) else -1.0

    def is_terminal(self, state: str) -> bool:
        return _facts(state).over

    def parse_position(self, text: str) -> str:
        """Read a 9-character position (``X``, ``O``, ``.`` or ``-``; any case).

        Raises:
            PositionError: wrong length or characters, impossible piece counts, or both sides holding a line.
        """
        t = text.strip().upper().replace("-", ".")
        if len(t) != 9 or any(c not in "XO." for c in t):
            raise PositionError(
                f"tic-tac-toe position must be 9 characters over X, O and '.', e.g. 'XOX.O.X..'; got {quoted(text)}")
        nx, no = t.count("X"), t.count("O")
        if nx - no not in (0, 1):
            raise PositionError(f"impossible tic-tac-toe position {quoted(text)}: X has {nx} marks and O {no} "
                                "(X must have as many as O, or one more)")
        xwin = any(t[a] == t[b] == t[c] == "X" for a, b, c in LINES)
        owin = any(t[a] == t[b] == t[c] == "O" for a, b, c in LINES)
        if xwin and owin:
            raise PositionError(f"impossible tic-tac-toe position {quoted(text)}: both sides hold a line")
        if xwin and nx == no:
            raise PositionError(f"impossible tic-tac-toe position {quoted(text)}: X has a line but O moved after it")
        if owin and nx != no:
            raise PositionError(f"impossible tic-tac-toe position {quoted(text)}: O has a line but X moved after it")
        return t

    def format_position(self, state: str) -> str:
        return state

    def parse_move(self, state: str, text: str) -> int:
        """Read a cell index ``0``..``8`` and check it is legal.

        Raises:
            MoveError: not a digit 0..8, or the cell is taken / the game is over.
        """
        t = text.strip()
        if len(t) != 1 or not t.isdigit() or t == "9":
            raise MoveError(f"tic-tac-toe move must be a cell number 0..8, got {quoted(text)}")
        move = int(t)
        if move not in self.actions(state):
            raise MoveError(f"cell {move} is not a legal move in {state}")
        return move

    def format_move(self, state: str, move: int) -> str:
        return str(move)

    # ----- evaluation (used by depth-limited agents) --------------------------------------------------------
    def line_counts(self, state: str, mark: str) -> tuple[int, int, int]:
        """Lines holding exactly three, two and one ``mark`` and none of the other mark: (A, B, C)."""
        other = "O" if mark == "X" else "X"
        counts = [0, 0, 0, 0]
        for a, b, c in LINES:
            cells = (state[a], state[b], state[c])
            if other not in cells:
                counts[cells.count(mark)] += 1
        return counts[3], counts[2], counts[1]


def all_lines() -> Sequence[tuple[int, int, int]]:
    """The eight lines (for board views that highlight a win)."""
    return LINES


def winning_line(state: str) -> tuple[int, int, int] | None:
    """The first completed line on ``state``, or ``None``."""
    for a, b, c in LINES:
        if state[a] != "." and state[a] == state[b] == state[c]:
            return (a, b, c)
    return None


def plies_left(state: str) -> int:
    """At most how many plies the game has left from ``state`` (its empty cells: the growth
    measurement's bound)."""
    return state.count(".")
