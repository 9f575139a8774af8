"""Fault: the search plays each move into the board itself (and takes it back) instead of asking game.result."""


def minimax_decision(state, game):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        vals = []
        for a in game.actions(s):
            mark = "X" if game.to_move(s) == 0 else "O"
            s[a] = mark  # changes the state the game gave (a tuple in a tree: a TypeError)
            vals.append(value(s))
            s[a] = "."
        return max(vals) if game.to_move(s) == player else min(vals)

    best, best_v = None, -2
    for a in game.actions(state):
        state[a] = "X" if player == 0 else "O"
        v = value(state)
        state[a] = "."
        if v > best_v:
            best, best_v = a, v
    return best
