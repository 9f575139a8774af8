"""A correct minimax that prints every state it visits (far too much output)."""


def minimax_decision(state, game):
    player = game.to_move(state)

    def value(s, maximize):
        for _ in range(200):
            print("visiting", s)
        if game.is_terminal(s):
            return game.utility(s, player)
        vals = [value(game.result(s, a), not maximize) for a in game.actions(s)]
        return max(vals) if maximize else min(vals)

    return max(game.actions(state), key=lambda a: value(game.result(state, a), False))
