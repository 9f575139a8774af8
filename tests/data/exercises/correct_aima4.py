"""Correct searches in the style of AIMA 4th edition's Python (value and move returned together; the course's
alphabeta(state, alpha, beta, maximizing) recursion for alpha-beta's inner nodes)."""

import math


def minimax_decision(state, game):
    player = game.to_move(state)

    def max_value(s):
        if game.is_terminal(s):
            return game.utility(s, player), None
        v, move = -math.inf, None
        for a in game.actions(s):
            v2, _ = min_value(game.result(s, a))
            if v2 > v:
                v, move = v2, a
        return v, move

    def min_value(s):
        if game.is_terminal(s):
            return game.utility(s, player), None
        v, move = math.inf, None
        for a in game.actions(s):
            v2, _ = max_value(game.result(s, a))
            if v2 < v:
                v, move = v2, a
        return v, move

    value, move = max_value(state)
    return move, value


def alphabeta_decision(state, game):
    player = game.to_move(state)

    def alphabeta(s, alpha, beta, maximizing):
        if game.is_terminal(s):
            return game.utility(s, player)
        if maximizing:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, alphabeta(game.result(s, a), alpha, beta, False))
                alpha = max(alpha, v)
                if alpha >= beta:
                    break
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, alphabeta(game.result(s, a), alpha, beta, True))
            beta = min(beta, v)
            if alpha >= beta:
                break
        return v

    alpha, best = -math.inf, None
    for a in game.actions(state):
        v = alphabeta(game.result(state, a), alpha, math.inf, False)
        if v > alpha:
            alpha, best = v, a
    return best, alpha


def expectimax_decision(state, game):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.is_chance(s):
            total = 0.0
            for outcome, p in game.chance_outcomes(s):
                total += p * value(game.result(s, outcome))
            return total
        best = None
        for a in game.actions(s):
            v = value(game.result(s, a))
            if best is None or (v > best if game.to_move(s) == player else v < best):
                best = v
        return best

    best_a, best_v = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a))
        if v > best_v:
            best_a, best_v = a, v
    return best_a, best_v
