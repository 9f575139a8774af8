"""Nim with heaps of 1, 3 and 5 and players A and B: take any number of objects from one heap; whoever takes the
last object wins. A moves first and wins with perfect play (leave heaps whose XOR is 0: take 3 from the heap of 5).

In the shape of aima-python's games: a class, a NimState namedtuple (to_move, heaps) whose heaps are a list, moves
the lists [heap, count] (heaps counted from 1: [3, 3] takes 3 from the third heap). The players are the labels 'A'
and 'B' (no PLAYERS): the program learns them from the game, the first to move first. The file makes its game as
an object, nim, which the program finds.
"""

from collections import namedtuple

NimState = namedtuple("NimState", "to_move, heaps")


class Nim:
    def __init__(self, heaps=(1, 3, 5)):
        self.initial = NimState(to_move="A", heaps=list(heaps))

    def actions(self, state):
        return [[h, n] for h, size in enumerate(state.heaps, 1) for n in range(1, size + 1)]

    def result(self, state, move):
        h, n = move
        heaps = list(state.heaps)
        heaps[h - 1] -= n
        return NimState(to_move="B" if state.to_move == "A" else "A", heaps=heaps)

    def utility(self, state, player):
        # over: the player to move has nothing to take, so the other one took the last object
        return -1 if player == state.to_move else 1

    def terminal_test(self, state):
        return sum(state.heaps) == 0

    def to_move(self, state):
        return state.to_move

    def display(self, state):
        for h, size in enumerate(state.heaps, 1):
            print(f"heap {h}: {'|' * size or '-'}")
        print(f"{state.to_move} to move")


nim = Nim()
