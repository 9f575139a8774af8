"""Checkers agent: a two-ply material search written by hand (a template to copy and change).

Play it:   python main.py match checkers --p1 file:examples/agents/checkers_agent.py --p2 beginner --games 2

An *agent file* defines ``choose_move(state, time_left_s)`` and returns the move it plays: one of
``game.actions(state)`` (or its text, ``"11-15"``, ``"22x15"``, ``"7x16x23"``).

The position (``state``) is a ``CheckersState`` (see checkers_eval.py for its fields). ``game.to_move(state)`` is 0
for Black (moves first) and 1 for White. Captures are compulsory: when one exists, ``game.actions`` lists only
captures, and a multiple jump is one move.

``time_left_s`` is the time you have for this move, in seconds. Answer within it: a move later than the limit
plus a 0.25 s grace loses the game, as does a move that is not legal, a value that is not a move, an exception,
or going over the memory limit (1 GiB). This agent looks at the clock and answers with the best move found so
far when half its time is gone.

Two names are set for you before this file runs (don't use them for anything else):
* ``game``: the rules: ``game.actions(state)``, ``game.result(state, move)`` (the position after a move; ``state``
  is never changed), ``game.to_move(state)``, ``game.is_terminal(state)``, ``game.utility(state, player)`` (+1 win,
  0 draw, -1 loss, once the game is over), ``game.format_move(state, move)``.
* ``features(state, player, names=None)``: the project's evaluation features for ``player`` (see checkers_eval.py).
"""

import random
import time


def material(state, player):
    """Men and kings of ``player`` minus the opponent's, a king worth one and a half men."""
    f = features(state, player, ("men", "kings"))
    return f["men"] + 1.5 * f["kings"]


def score(state, me):
    """How good ``state`` is for ``me``: the result when the game is over, else the material."""
    if game.is_terminal(state):
        return 1000.0 * game.utility(state, me)
    return material(state, me)


def choose_move(state, time_left_s):
    deadline = time.perf_counter() + time_left_s / 2
    me = game.to_move(state)
    moves = list(game.actions(state))
    random.shuffle(moves)  # equal moves in a varied order (the match seeds the generator)
    best, best_score = moves[0], float("-inf")
    for m in moves:
        after = game.result(state, m)
        if game.is_terminal(after):
            value = score(after, me)
        else:  # the opponent answers with the reply that is worst for me
            value = min(score(game.result(after, r), me) for r in game.actions(after))
        if value > best_score:
            best, best_score = m, value
        if time.perf_counter() > deadline:
            break
    return best
