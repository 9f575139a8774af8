"""Fault: after searching, the search plays its chosen move into the root position it was given (a list in a game
position): a state changed in place, which the game finds once the search has returned."""

import math


def minimax_decision(state, game):
    player = game.to_move(state)

    def max_value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        v = -math.inf
        for a in game.actions(s):
            v = max(v, min_value(game.result(s, a)))
        return v

    def min_value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        v = math.inf
        for a in game.actions(s):
            v = min(v, max_value(game.result(s, a)))
        return v

    best = max(game.actions(state), key=lambda a: min_value(game.result(state, a)))
    if isinstance(state, list):  # a tree's states are tuples: only a game position can be changed
        state[best] = "X"
    return best
