"""Two faults at once: MIN and MAX swapped below the root, and pruning only when alpha > beta. No one typical
mistake explains it: the grader names none."""

import math


def alphabeta_decision(state, game):
    player = game.to_move(state)

    def max_value(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        v = -math.inf
        for a in game.actions(s):
            v = max(v, min_value(game.result(s, a), alpha, beta))
            alpha = max(alpha, v)
            if alpha > beta:
                break
        return v

    def min_value(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        v = math.inf
        for a in game.actions(s):
            v = min(v, max_value(game.result(s, a), alpha, beta))
            beta = min(beta, v)
            if alpha > beta:
                break
        return v

    best_score, best_action = -math.inf, None
    for a in game.actions(state):
        v = max_value(game.result(state, a), best_score, math.inf)
        if v > best_score:
            best_score, best_action = v, a
    return best_action
