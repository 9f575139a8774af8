"""Fault, in aima-python's style: expect_minmax divides the probability-weighted sum by the number of outcomes
again."""


def expect_minmax(state, game):
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
        chances = game.chances(rolled)
        for chance in chances:
            next_state = game.outcome(rolled, chance)
            util = max_value(next_state) if next_state.to_move == player else min_value(next_state)
            total += util * game.probability(chance)
        return total / len(chances)

    return max(game.actions(state), key=lambda a: chance_node(state, a), default=None)
