"""Nim with heaps of 1, 3, 5 and 7: 16 legal moves at the start, and no board (test data: every move must be
reachable in the window's panel, issue 48). A move "4:7" takes 7 objects from heap 4; the last object wins."""

NAME = "Nim 16"
PLAYERS = ("Ann", "Bob")

HEAPS = (1, 3, 5, 7)


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
    return (heaps[:h] + (heaps[h] - n,) + heaps[h + 1:], 1 - player)


def is_terminal(state):
    return sum(state[0]) == 0


def utility(state, player):
    return -1 if player == to_move(state) else 1


def move_text(move):
    h, n = move
    return f"{h + 1}:{n}"
