"""Figure 5.2 of AIMA (Artificial Intelligence: A Modern Approach): the two-ply game tree. MAX chooses a1, a2 or a3;
MIN answers with one of three moves; the nine leaves are worth 3, 12, 8 / 2, 4, 6 / 14, 5, 2 to MAX.

Minimax: MIN would answer a1 with b1 (3), a2 with c1 (2) and a3 with d3 (2), so MAX plays a1 and the game is worth 3.

A game file in the shape of aima-python's games4e.py: a class with initial, actions, result, utility,
terminal_test and to_move, states the strings 'A' to 'D' and the leaves 'B1' to 'D3', players 'MAX' and 'MIN'.
The file makes no instance: the program finds the class and makes it.
"""


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


class Figure52(Game):
    """MAX at the root 'A'; MIN at 'B', 'C' and 'D'; a leaf is its parent's letter and the move's digit."""

    leaves = {"B": (3, 12, 8), "C": (2, 4, 6), "D": (14, 5, 2)}
    initial = "A"

    def actions(self, state):
        if state == "A":
            return ["a1", "a2", "a3"]
        if state in self.leaves:
            return [state.lower() + digit for digit in "123"]
        return []

    def result(self, state, move):
        if state == "A":
            return "BCD"[int(move[1]) - 1]
        return state + move[1]

    def utility(self, state, player):
        value = self.leaves[state[0]][int(state[1]) - 1]
        return value if player == "MAX" else -value

    def terminal_test(self, state):
        return len(state) == 2

    def to_move(self, state):
        return "MIN" if state in self.leaves else "MAX"

    def display(self, state):
        print(f"node {state}" + (f" (worth {self.utility(state, 'MAX')} to MAX)" if self.terminal_test(state) else ""))
