"""Tic-tac-toe evaluation: open lines, weighted by how full they are (a template to copy and change).

Play it:   python main.py match tictactoe --p1 file:examples/agents/tictactoe_eval.py --p2 easy --games 10
Try it:    python main.py analyze tictactoe --position "X...O...." --agent file:examples/agents/tictactoe_eval.py

An *evaluation file* defines ``evaluate(state, player)``. The arcade's own alpha-beta search plays the game and
calls your function at its depth limit, so you only say how good a position looks; the search does the rest.

The position (``state``) is a string of 9 characters, the cells 0..8 row by row from the top-left:
``"X"``, ``"O"`` or ``"."`` (empty). ``"X...O...."`` has an X in the corner and an O in the centre.
``player`` is 0 (X, moves first) or 1 (O). Return a number: the higher, the better the position is for
``player`` (the opponent's view is minus yours). Wins, losses and draws are scored by the game itself, so
you are only asked about positions that are not over.

Two names are set for you before this file runs (don't use them for anything else):
* ``game``: the game's rules: ``game.actions(state)`` (the legal moves, here the empty cells as ints),
  ``game.result(state, move)`` (the position after it), ``game.to_move(state)``, ``game.is_terminal(state)``,
  ``game.utility(state, player)`` (+1 win, 0 draw, -1 loss, once the game is over).
* ``features(state, player)``: the project's own named features for ``player`` as a dict, here
  ``{"three": ..., "two": ..., "one": ..., "centre": ...}`` (open lines with 3, 2, 1 of your marks, minus the
  opponent's; +1 if you hold the centre). ``features(state, player, ["two"])`` computes only those.

Time: each move has a time limit (1 s unless the match sets one; ``time`` below), plus a 0.25 s grace; a move
later than that loses the game. The search stops in time by itself; keep ``evaluate`` fast (it is called
thousands of times per move).
"""

# How the search runs (all optional): depth in plies, time in seconds per move. Remove "depth" to let the search
# go as deep as the time allows (tic-tac-toe is then solved outright, and the evaluation hardly matters).
SETTINGS = {"depth": 2}

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def evaluate(state, player):
    """Open lines for ``player`` minus open lines for the opponent, a line with two marks worth ten with one."""
    me = "X" if player == 0 else "O"
    them = "O" if player == 0 else "X"
    score = 0.0
    for a, b, c in LINES:
        cells = state[a] + state[b] + state[c]
        mine, theirs = cells.count(me), cells.count(them)
        if theirs == 0 and mine > 0:  # a line only I can still complete
            score += 10 ** (mine - 1)
        elif mine == 0 and theirs > 0:
            score -= 10 ** (theirs - 1)
    if state[4] == me:  # the centre is on four lines
        score += 0.5
    return score
