"""Nim with heaps of 1, 3 and 5: take any number of objects from one heap; whoever takes the last object wins.

A move "2:3" takes 3 objects from heap 2. The first player wins with perfect play: leave heaps whose
binary digits cancel out (their XOR, the nim-sum, is 0).

A game file for the arcade (python main.py play game:examples/games/nim.py): module-level functions with the
course's names. A state is (heaps, player): a tuple of heap sizes and whose turn it is (0 or 1).
"""

NAME = "Nim"
PLAYERS = ("Ann", "Bob")

HEAPS = (1, 3, 5)


def initial_state():
    return (HEAPS, 0)


def to_move(state):
    return PLAYERS[state[1]]


def actions(state):
    heaps, _ = state
    return [(h, n) for h, size in enumerate(heaps) for n in range(1, size + 1)]


def result(state, move):
    heaps, player = state
    h, n = move
    new_heaps = heaps[:h] + (heaps[h] - n,) + heaps[h + 1:]
    return (new_heaps, 1 - player)


def is_terminal(state):
    return sum(state[0]) == 0


def utility(state, player):
    # the game is over: the player to move has nothing left to take, so the other one took the last object
    return -1 if player == to_move(state) else 1


def move_text(move):
    h, n = move
    return f"{h + 1}:{n}"
