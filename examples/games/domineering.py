"""Domineering on a 4x4 board: Vertical places a domino on two free cells one above the other, Horizontal on two
free cells side by side. Whoever cannot place a domino loses.

Click a free cell: Vertical's domino covers it and the cell below, Horizontal's covers it and the cell to its
right. The first player (Vertical) wins with perfect play.

A game file for the arcade (python main.py play game:examples/games/domineering.py), written as a class in the
style of AIMA's games.py and offered as GAME. A state is (cells, player): 16 characters row by row ("." free,
"V" or "H" covered) and whose turn it is (0 Vertical, 1 Horizontal). evaluate() counts the places left to each
side, so a depth-limited search has something to go by.
"""

SIZE = 4


class Domineering:
    NAME = "Domineering"
    PLAYERS = ("Vertical", "Horizontal")

    def initial_state(self):
        return ("." * (SIZE * SIZE), 0)

    def to_move(self, state):
        return state[1]

    def places(self, cells, player):
        """The anchor cells (row, col) where ``player`` can put a domino."""
        dr, dc = (1, 0) if player == 0 else (0, 1)
        return [(r, c) for r in range(SIZE - dr) for c in range(SIZE - dc)
                if cells[r * SIZE + c] == "." and cells[(r + dr) * SIZE + c + dc] == "."]

    def actions(self, state):
        return self.places(state[0], state[1])

    def result(self, state, move):
        cells, player = state
        r, c = move
        dr, dc = (1, 0) if player == 0 else (0, 1)
        covered = list(cells)
        covered[r * SIZE + c] = covered[(r + dr) * SIZE + c + dc] = "VH"[player]
        return ("".join(covered), 1 - player)

    def is_terminal(self, state):
        return not self.actions(state)

    def utility(self, state, player):
        # the player to move cannot place a domino: that player has lost
        return -1 if player == state[1] else 1

    def evaluate(self, state, player):
        mine = len(self.places(state[0], player))
        theirs = len(self.places(state[0], 1 - player))
        return (mine - theirs) / (SIZE * SIZE)

    def board(self, state):
        cells = state[0]
        return [list(cells[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE)]

    def move_at(self, row, col):
        return (row, col)

    def move_text(self, move):
        r, c = move
        return "abcd"[c] + str(SIZE - r)


GAME = Domineering()
NAME = GAME.NAME
PLAYERS = GAME.PLAYERS
