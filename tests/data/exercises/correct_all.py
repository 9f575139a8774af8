"""Correct searches written from the course's pseudocode (AIMA figures 5.3, 5.7 and the expectimax rule)."""

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

    return max(game.actions(state), key=lambda a: min_value(game.result(state, a)))


def alphabeta_decision(state, game):
    player = game.to_move(state)

    def max_value(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        v = -math.inf
        for a in game.actions(s):
            v = max(v, min_value(game.result(s, a), alpha, beta))
            alpha = max(alpha, v)
            if alpha >= beta:
                break
        return v

    def min_value(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        v = math.inf
        for a in game.actions(s):
            v = min(v, max_value(game.result(s, a), alpha, beta))
            beta = min(beta, v)
            if alpha >= beta:
                break
        return v

    best_score, best_action = -math.inf, None
    for a in game.actions(state):
        v = min_value(game.result(state, a), best_score, math.inf)
        if v > best_score:
            best_score, best_action = v, a
    return best_action


def expectimax_decision(state, game):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.is_chance(s):
            return sum(p * value(game.result(s, o)) for o, p in game.chance_outcomes(s))
        vals = [value(game.result(s, a)) for a in game.actions(s)]
        return max(vals) if game.to_move(s) == player else min(vals)

    return max(game.actions(state), key=lambda a: value(game.result(state, a)))
