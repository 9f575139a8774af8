"""Tic-tac-toe agent: win, else block, else the best free cell (a template to copy and change).

Play it:   python main.py match tictactoe --p1 file:examples/agents/tictactoe_agent.py --p2 easy --games 10

An *agent file* defines ``choose_move(state, time_left_s)`` and returns the move it plays.

The position (``state``) is a string of 9 characters, the cells 0..8 row by row from the top-left:
``"X"``, ``"O"`` or ``"."`` (empty). A move is a cell number, an int 0..8 (the text ``"4"`` is accepted too).
``time_left_s`` is the time you have for this move, in seconds. Answer within it: a move later than the limit
plus a 0.25 s grace loses the game, as does a move that is not legal, a value that is not a move, an exception,
or going over the memory limit (1 GiB).

Two names are set for you before this file runs (don't use them for anything else):
* ``game``: the rules: ``game.actions(state)`` lists the legal moves, ``game.result(state, move)`` gives the
  position after a move (it never changes ``state``), ``game.to_move(state)`` is 0 (X) or 1 (O),
  ``game.is_terminal(state)`` and ``game.utility(state, player)`` (+1 win, 0 draw, -1 loss) tell how a game ended,
  ``game.format_move(state, move)`` writes a move as text.
* ``features(state, player)``: the project's evaluation features for ``player``, a dict (see tictactoe_eval.py).
"""

import random

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
PREFERENCE = (4, 0, 2, 6, 8, 1, 3, 5, 7)  # centre, corners, edges


def wins(board, mark):
    """True when ``mark`` holds a whole line of ``board``."""
    return any(board[a] == board[b] == board[c] == mark for a, b, c in LINES)


def choose_move(state, time_left_s):
    me = game.to_move(state)
    them = "O" if me == 0 else "X"
    moves = game.actions(state)
    # 1. a move that wins at once
    for m in moves:
        after = game.result(state, m)
        if game.is_terminal(after) and game.utility(after, me) > 0:
            return m
    # 2. a cell where the opponent would win next: take it first
    for m in moves:
        if wins(state[:m] + them + state[m + 1:], them):
            return m
    # 3. the best free cell; among equal ones, a random choice (the match seeds the generator)
    free = [m for m in PREFERENCE if m in moves]
    best = [m for m in free if m == free[0] or (m in (0, 2, 6, 8) and free[0] in (0, 2, 6, 8))]
    return random.choice(best)
