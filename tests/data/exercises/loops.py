"""Fault: a search that never ends."""


def minimax_decision(state, game):
    while True:
        pass
