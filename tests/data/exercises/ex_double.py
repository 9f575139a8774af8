"""Fault: expectimax divides the probability-weighted sum by the number of outcomes again."""


def expectimax_decision(state, game):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.is_chance(s):
            outs = game.chance_outcomes(s)
            return sum(p * value(game.result(s, o)) for o, p in outs) / len(outs)
        vals = [value(game.result(s, a)) for a in game.actions(s)]
        return max(vals) if game.to_move(s) == player else min(vals)

    return max(game.actions(state), key=lambda a: value(game.result(state, a)))
