"""Exercise: minimax (AIMA figure 5.3). Write minimax_decision, then check it:

    python main.py check examples/exercises/minimax.py

``minimax_decision(state, game)`` returns the action MAX (the player to move at ``state``) should play: the one
whose minimax value is highest (on a tie, the first such action in ``game.actions(state)``). It may return
``(action, value)`` instead; the root's value is then checked too.

The game (the same interface for every case: textbook trees, random trees, tic-tac-toe, Connect Four):
* ``game.to_move(state)``: 0 or 1, the player who decides at ``state`` (0 at the root is "you", MAX);
* ``game.actions(state)``: the legal actions, in order (in a tree: the child indices 0, 1, 2...);
* ``game.result(state, action)``: the state after ``action``, a NEW state (never change a state yourself);
* ``game.is_terminal(state)``: True when the game is over (a leaf);
* ``game.utility(state, player)``: a terminal state's payoff for ``player`` (a tree's leaf value for MAX).

The check watches which leaves your search asks ``game.utility`` about, in which order, and which states it asks
``game.result`` to expand, and compares them with the reference: visit the children in the order
``game.actions`` gives them, and evaluate each leaf once.

Code written for aima-python's games.py is checked as it is: its name ``minmax_decision(state, game)`` and its
``game.terminal_test(state)`` and ``state.to_move`` work too (docs/teaching.md).
"""

import math  # noqa: F401  (math.inf is handy)


def minimax_decision(state, game):
    """The action with the highest minimax value for the player to move at ``state``."""
    raise NotImplementedError("minimax_decision: write your minimax here")
