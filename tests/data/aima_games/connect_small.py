"""Connect Three on 4 columns of 3 cells, in the shape of aima-python's ConnectFour (a test game: searched to the
end in well under a second). X moves first; a move is the cell (x, y) a disc lands in, x the column, y the height.
The file makes its game as an object (connect), which the program finds."""

from collections import namedtuple

GameState = namedtuple("GameState", "to_move, utility, board, moves")


class ConnectFour:
    def __init__(self, h=7, v=6, k=4):
        self.h, self.v, self.k = h, v, k
        self.initial = GameState(to_move="X", utility=0, board={},
                                 moves=[(x, y) for x in range(1, h + 1) for y in range(1, v + 1)])

    def actions(self, state):
        return [(x, y) for (x, y) in state.moves if y == 1 or (x, y - 1) in state.board]

    def result(self, state, move):
        board = {**state.board, move: state.to_move}
        won = any(self.line(board, move, dx, dy) >= self.k for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)))
        return GameState(to_move="O" if state.to_move == "X" else "X",
                         utility=(1 if state.to_move == "X" else -1) if won else 0,
                         board=board, moves=[m for m in state.moves if m != move])

    def line(self, board, move, dx, dy):
        """The length of the line of move's player through move in direction (dx, dy)."""
        player, n = board[move], 1
        for sign in (1, -1):
            x, y = move[0] + sign * dx, move[1] + sign * dy
            while board.get((x, y)) == player:
                n, x, y = n + 1, x + sign * dx, y + sign * dy
        return n

    def utility(self, state, player):
        return state.utility if player == "X" else -state.utility

    def terminal_test(self, state):
        return state.utility != 0 or not state.moves

    def to_move(self, state):
        return state.to_move

    def display(self, state):
        for y in range(self.v, 0, -1):
            print(" ".join(state.board.get((x, y), ".") for x in range(1, self.h + 1)))


connect = ConnectFour(h=4, v=3, k=3)
