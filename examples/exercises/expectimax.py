"""Exercise: expectimax (decisions against chance). Write expectimax_decision, then check it:

    python main.py check examples/exercises/expectimax.py

``expectimax_decision(state, game)`` returns the action with the highest expected value for the player to move
at ``state`` (MAX; on a tie, the first such action). The trees have three kinds of nodes:
* a chance node (``game.is_chance(state)``): its value is the sum of probability * value over
  ``game.chance_outcomes(state)``, a list of ``(outcome, probability)``; the outcome is played like an action:
  ``game.result(state, outcome)``;
* a decision node: MAX (``game.to_move(state)`` is the root's player) takes the highest value, MIN the lowest;
* a leaf (``game.is_terminal(state)``): ``game.utility(state, player)``.

Example from the course: 1/2 * 8 + 1/3 * 24 + 1/6 * (-12) = 10.

The check compares the action, the leaves you evaluate and their order with the reference (it visits every child
in the order given, so evaluate every outcome, each leaf once). It may return ``(action, value)``.

Code written for aima-python's games.py is checked as it is: its name ``expect_minmax(state, game)`` (or
``expectiminimax``) and its interface, ``game.terminal_test(state)``, ``game.chances(state)``,
``game.outcome(state, chance)``, ``game.probability(chance)`` and ``state.to_move``, work too (docs/teaching.md).
"""

import math  # noqa: F401  (math.inf is handy)


def expectimax_decision(state, game):
    """The action with the highest expected value for the player to move at ``state``."""
    raise NotImplementedError("expectimax_decision: write your expectimax here")
