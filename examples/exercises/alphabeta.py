"""Exercise: alpha-beta pruning (AIMA figure 5.7). Write alphabeta_decision, then check it:

    python main.py check examples/exercises/alphabeta.py

``alphabeta_decision(state, game)`` returns the same action as minimax (on a tie, the first best action), but
skips the subtrees that cannot change the decision. Prune as the course does: at a MAX node after
``alpha = max(alpha, v)``, at a MIN node after ``beta = min(beta, v)``, stop when ``alpha >= beta``. The root is a
MAX node too: carry alpha from one of its children to the next. (If your course prunes only when ``alpha > beta``,
write ``PRUNE = "gt"`` at the top of this file and the reference does the same.)

The game (see minimax.py): ``game.to_move(state)``, ``game.actions(state)``, ``game.result(state, action)`` (a new
state; never change one), ``game.is_terminal(state)``, ``game.utility(state, player)``.

The check compares the leaves you evaluate, in order, and the subtrees you prune with the reference's: visit the
children in the order ``game.actions`` gives them. It may return ``(action, value)``; the value is then checked.

Code written for aima-python's games.py is checked as it is: its names ``alpha_beta_search(state, game)`` and
``alpha_beta_cutoff_search(state, game, d, cutoff_test, eval_fn)`` (and their older spellings without the middle
underscore), its ``game.terminal_test(state)`` and ``state.to_move`` work too (docs/teaching.md).
"""

import math  # noqa: F401  (math.inf is handy)


def alphabeta_decision(state, game):
    """The minimax action for the player to move at ``state``, found with alpha-beta pruning."""
    raise NotImplementedError("alphabeta_decision: write your alpha-beta search here")
