"""Connect Four as aima-python's games4e.py writes it: 7 columns, 6 rows; a disc drops to the lowest free cell of
its column; four in a row (across, up or diagonal) wins. X moves first.

The state is a GameState namedtuple (to_move, utility, board, moves): the board a dict from (x, y) cells to 'X' or
'O', x the column (1 to 7) and y the height (1 is the bottom row), moves a list of the empty cells. A move is the
cell (x, y) the disc lands in: (4, 1) is the middle column's bottom. Searched to the end the game is too big;
a depth-limited search scores an unfinished position 0 (the file gives no evaluation), so the AI plays for
immediate wins and against immediate losses.

The file names its game GAME (its ConnectFour, made with the default size).
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


class ConnectFour(Game):
    """k in a row on h columns of v cells, discs dropped from the top."""

    def __init__(self, h=7, v=6, k=4):
        self.h, self.v, self.k = h, v, k
        cells = [(x, y) for x in range(1, h + 1) for y in range(1, v + 1)]
        self.initial = GameState(to_move="X", utility=0, board={}, moves=cells)

    def actions(self, state):
        return [(x, y) for (x, y) in state.moves if y == 1 or (x, y - 1) in state.board]

    def result(self, state, move):
        if move not in self.actions(state):
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
        for y in range(self.v, 0, -1):
            print(" ".join(state.board.get((x, y), ".") for x in range(1, self.h + 1)))
        print(" ".join(str(x) for x in range(1, self.h + 1)))

    def score(self, board, move, player):
        """+1 if X's move made k in a row, -1 if O's did, else 0."""
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            if self.run(board, move, player, dx, dy) + self.run(board, move, player, -dx, -dy) - 1 >= self.k:
                return 1 if player == "X" else -1
        return 0

    def run(self, board, move, player, dx, dy):
        x, y = move
        n = 0
        while board.get((x, y)) == player:
            n += 1
            x, y = x + dx, y + dy
        return n


GAME = ConnectFour()
