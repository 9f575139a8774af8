"""Tic-tac-toe as aima-python's games4e.py writes it: X moves first; three in a row wins. Perfect play is a draw.

The state is a GameState namedtuple (to_move, utility, board, moves): the board a dict from (x, y) squares to 'X'
or 'O', moves a list of the empty squares, utility +1 when X has won, -1 when O has, 0 otherwise. A move is a
square (x, y), x the row and y the column, both from 1. The file makes no instance: the program makes the class with
its default arguments (3 by 3, three in a row).
"""

from collections import namedtuple

GameState = namedtuple("GameState", "to_move, utility, board, moves")


class Game:
    """The interface of aima-python's Game: a subclass sets initial and writes the methods."""

    def actions(self, state):
        raise NotImplementedError

    def result(self, state, move):
        raise NotImplementedError

    def utility(self, state, player):
        raise NotImplementedError

    def terminal_test(self, state):
        return not self.actions(state)

    def to_move(self, state):
        return state.to_move

    def display(self, state):
        print(state)


class TicTacToe(Game):
    """k in a row on an h by v board."""

    def __init__(self, h=3, v=3, k=3):
        self.h, self.v, self.k = h, v, k
        squares = [(x, y) for x in range(1, h + 1) for y in range(1, v + 1)]
        self.initial = GameState(to_move="X", utility=0, board={}, moves=squares)

    def actions(self, state):
        return state.moves

    def result(self, state, move):
        if move not in state.moves:
            return state
        board = dict(state.board)
        board[move] = state.to_move
        return GameState(to_move="O" if state.to_move == "X" else "X",
                         utility=self.score(board, move, state.to_move),
                         board=board, moves=[m for m in state.moves if m != move])

    def utility(self, state, player):
        return state.utility if player == "X" else -state.utility

    def terminal_test(self, state):
        return state.utility != 0 or not state.moves

    def display(self, state):
        for x in range(1, self.h + 1):
            print(" ".join(state.board.get((x, y), ".") for y in range(1, self.v + 1)))

    def score(self, board, move, player):
        """+1 if X's move made k in a row, -1 if O's did, else 0."""
        for dx, dy in ((0, 1), (1, 0), (1, 1), (1, -1)):
            if self.run(board, move, player, dx, dy) + self.run(board, move, player, -dx, -dy) - 1 >= self.k:
                return 1 if player == "X" else -1
        return 0

    def run(self, board, move, player, dx, dy):
        """How many of player's marks in a line from move (itself included) going (dx, dy)."""
        x, y = move
        n = 0
        while board.get((x, y)) == player:
            n += 1
            x, y = x + dx, y + dy
        return n
