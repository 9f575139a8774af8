"""Pig evaluation: banked lead and points at risk (a template to copy and change).

Play it:   python main.py match pig --p1 file:examples/agents/pig_eval.py --p2 easy --games 20
Try it:    python main.py analyze pig --position "40,50,12,1" --agent file:examples/agents/pig_eval.py

An *evaluation file* defines ``evaluate(state, player)``. The arcade's own expectimax search (dice averaged by
their probabilities) plays the game and calls your function at its depth limit.

Pig is scored as an expected result: return a number from -1 (``player`` surely loses) to +1 (surely wins);
0 is an even game. Values outside are clamped. ``math.tanh`` squashes any number into that range.

The position (``state``) has ``state.s1`` and ``state.s2`` (players 1's and 2's banked points), ``state.turn`` (the
turn total of the player rolling, lost on a 1), ``state.player`` (0 or 1, who is rolling). ``player`` is 0 or 1.
The game is won by the first player whose banked points plus turn total reach ``game.target`` (100).

Two names are set for you before this file runs (don't use them for anything else):
* ``features(state, player)``: the project's features for ``player``, fractions of the target: ``score_diff``
  (banked lead), ``turn_total`` (points at risk, positive when ``player`` is rolling), ``tempo`` (+1 when it is
  ``player``'s turn), ``race`` and ``tempo_close``.
* ``game``: the rules (``game.actions(state)``: ``("roll",)`` or ``("roll", "hold")``; ``game.target``).

Time: ``SETTINGS`` sets the search; it stops in time by itself. A move later than the limit plus a 0.25 s grace
loses the game.
"""

import math

# The search (all optional): "depth" in decisions (the dice in between are averaged), "time" in seconds per move.
SETTINGS = {"depth": 2, "time": 0.3}


def evaluate(state, player):
    """tanh of a weighted sum: the banked lead, the points at risk, and having the turn."""
    f = features(state, player, ("score_diff", "turn_total", "tempo"))
    return math.tanh(2.3 * f["score_diff"] + 1.4 * f["turn_total"] + 0.2 * f["tempo"])
