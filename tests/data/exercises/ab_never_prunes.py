"""Fault: alpha and beta are not passed down (each call starts again at -inf/+inf), and the root searches each child
with alpha = -inf: nothing is ever pruned."""

import math


def alphabeta_decision(state, game):
    player = game.to_move(state)

    def max_value(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        v = -math.inf
        for a in game.actions(s):
            v = max(v, min_value(game.result(s, a), -math.inf, math.inf))
            alpha = max(alpha, v)
            if alpha >= beta:
                break
        return v

    def min_value(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        v = math.inf
        for a in game.actions(s):
            v = min(v, max_value(game.result(s, a), -math.inf, math.inf))
            beta = min(beta, v)
            if alpha >= beta:
                break
        return v

    best_score, best_action = -math.inf, None
    for a in game.actions(state):
        v = min_value(game.result(state, a), -math.inf, math.inf)
        if v > best_score:
            best_score, best_action = v, a
    return best_action
