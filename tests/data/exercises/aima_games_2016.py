"""Correct searches with aima-python's names before 2019 (minimax_decision, alphabeta_search,
alphabeta_cutoff_search with d, cutoff_test and eval_fn, expectiminimax), written against aima-python's Game
interface (game.terminal_test; for chance: game.chances, game.outcome, game.probability; state.to_move).
Our own code, in its style: MAX-VALUE and MIN-VALUE return as soon as v passes beta (or alpha)."""

import math


def minimax_decision(state, game):
    player = game.to_move(state)

    def max_value(state):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = -math.inf
        for a in game.actions(state):
            v = max(v, min_value(game.result(state, a)))
        return v

    def min_value(state):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = math.inf
        for a in game.actions(state):
            v = min(v, max_value(game.result(state, a)))
        return v

    return max(game.actions(state), key=lambda a: min_value(game.result(state, a)))


def alphabeta_search(state, game):
    player = game.to_move(state)

    def max_value(state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = -math.inf
        for a in game.actions(state):
            v = max(v, min_value(game.result(state, a), alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = math.inf
        for a in game.actions(state):
            v = min(v, max_value(game.result(state, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best_score, best_action = -math.inf, None
    for a in game.actions(state):
        v = min_value(game.result(state, a), best_score, math.inf)
        if v > best_score:
            best_score, best_action = v, a
    return best_action


def alphabeta_cutoff_search(state, game, d=4, cutoff_test=None, eval_fn=None):
    player = game.to_move(state)
    cutoff_test = cutoff_test or (lambda state, depth: depth > d or game.terminal_test(state))
    eval_fn = eval_fn or (lambda state: game.utility(state, player))

    def max_value(state, alpha, beta, depth):
        if cutoff_test(state, depth):
            return eval_fn(state)
        v = -math.inf
        for a in game.actions(state):
            v = max(v, min_value(game.result(state, a), alpha, beta, depth + 1))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(state, alpha, beta, depth):
        if cutoff_test(state, depth):
            return eval_fn(state)
        v = math.inf
        for a in game.actions(state):
            v = min(v, max_value(game.result(state, a), alpha, beta, depth + 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best_score, best_action = -math.inf, None
    for a in game.actions(state):
        v = min_value(game.result(state, a), best_score, math.inf, 1)
        if v > best_score:
            best_score, best_action = v, a
    return best_action


def expectiminimax(state, game):
    player = game.to_move(state)

    def max_value(state):
        if game.terminal_test(state):
            return game.utility(state, player)
        return max(chance_node(state, a) for a in game.actions(state))

    def min_value(state):
        if game.terminal_test(state):
            return game.utility(state, player)
        return min(chance_node(state, a) for a in game.actions(state))

    def chance_node(state, action):
        rolled = game.result(state, action)
        if game.terminal_test(rolled):
            return game.utility(rolled, player)
        total = 0
        for chance in game.chances(rolled):
            next_state = game.outcome(rolled, chance)
            util = max_value(next_state) if next_state.to_move == player else min_value(next_state)
            total += util * game.probability(chance)
        return total

    return max(game.actions(state), key=lambda a: chance_node(state, a), default=None)
