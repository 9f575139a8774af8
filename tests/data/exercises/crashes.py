"""Fault: a search that raises."""


def minimax_decision(state, game):
    best = None
    return game.actions(state)[0] / best
