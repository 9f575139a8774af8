"""Dice race, a dice game in the shape of aima-python's StochasticGame: two players, W and B, race to land exactly
on square 4. Each turn begins with a roll of a three-sided die (1, 2 or 3, each 1/3); then the player chooses to
"go" (move forward by the roll; passing square 4 bounces back: from 3 a roll of 2 ends on 3) or to "stay". The
first to land on 4 wins; after three turns each nobody has, and it is a draw.

The state is a RaceState namedtuple (to_move, utility, board, moves, chance, left): the board a dict of the two
squares, moves the choices once the die is rolled (chance), left the turns still to play. As in aima-python, the
program asks chances(state) for the rolls before every move, outcome(state, chance) for the state after one and
probability(chance) for its odds; expectiminimax weighs them.
"""

from collections import namedtuple

RaceState = namedtuple("RaceState", "to_move, utility, board, moves, chance, left")

GOAL = 4
TURNS = 6


class StochasticGame:
    """The interface of aima-python's StochasticGame: a Game whose moves each follow a chance (the dice)."""

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

    def chances(self, state):
        raise NotImplementedError

    def outcome(self, state, chance):
        raise NotImplementedError

    def probability(self, chance):
        raise NotImplementedError


class DiceRace(StochasticGame):
    initial = RaceState(to_move="W", utility=0, board={"W": 0, "B": 0}, moves=[], chance=None, left=TURNS)

    def chances(self, state):
        return [1, 2, 3]

    def probability(self, chance):
        return 1 / 3

    def outcome(self, state, chance):
        return state._replace(chance=chance, moves=["go", "stay"])

    def actions(self, state):
        return state.moves

    def result(self, state, move):
        player = state.to_move
        board = dict(state.board)
        if move == "go":
            square = board[player] + state.chance
            board[player] = square if square <= GOAL else 2 * GOAL - square
        utility = (1 if player == "W" else -1) if board[player] == GOAL else 0
        return RaceState(to_move="B" if player == "W" else "W", utility=utility, board=board, moves=[],
                         chance=None, left=state.left - 1)

    def utility(self, state, player):
        return state.utility if player == "W" else -state.utility

    def terminal_test(self, state):
        return state.utility != 0 or state.left == 0

    def display(self, state):
        for player in ("W", "B"):
            track = "".join(player if square == state.board[player] else "." for square in range(GOAL + 1))
            print(f"{player}  {track}")
        rolled = "" if state.chance is None else f", rolled {state.chance}"
        print(f"{state.left} turns left, {state.to_move} to play{rolled}")
