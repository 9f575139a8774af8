"""The move a Monte Carlo tree search plays, and its decisive-move check: one rule for the search
(:meth:`ai.kernel.mcts.MCTS._choice`) and for its record (:meth:`ai.teaching.mcts_record.MCTSTrace.most_visited`), so
the overlay's gold frame is always the move the search plays.

The rule, among the children of a decision node (the root when choosing the move):

1. **Rank** (:func:`choice_rank`): a move that ends the game with a win for the player making it (a *decisive
   move*), then a proven win (MCTS-Solver), then every other move, then proven losses and moves that end the game
   with a loss. A terminal child's value is exact even with the solver off, so a search that can win now always
   wins now: a child watching never sees the AI pass over a win in one for a win in three (issue 23: plain UCT
   gave the win in one and a win in three of ``...O.OX.X`` 487 visits and a perfect score each, and move order
   chose the win in three).
2. **Visits** ``N`` (the robust child of Browne et al. 2012), then the **mean value** ``Q``.
3. **Distance** (:func:`proof_plies`): the shorter proven line to the game's end (a longer one among losses:
   resist), then move order (the first of equals).

Decisive moves (Teytaud and Teytaud, "On the huge benefit of decisive moves in Monte-Carlo tree search
algorithms", IEEE Conference on Computational Intelligence and Games 2010): a move that wins at once is played
whenever one exists. The search applies it at the root only (:func:`decisive_first`: one successor per root move,
once per search): such a move is expanded by the first simulation, so rule 1 finds it whatever the budget.
Teytaud and Teytaud also use the check inside playouts; this search keeps its playouts uniformly random (the
rate of its simulations and the figures measured with it stay as they were).

No pygame here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

RANK_DECISIVE = 2
"""The move ends the game with a win for the player making it."""
RANK_PROVEN_WIN = 1
RANK_OTHER = 0
RANK_LOSS = -1
"""A proven loss, or a move that ends the game with a loss."""


def choice_rank(proven: float | None, terminal_value: float | None) -> int:
    """The rank of a child (rule 1 of the module docstring), both values from the view of the player who moved
    into it.

    Args:
        proven: the solver's value (+1, 0, -1) or ``None``.
        terminal_value: the child's game result when the move ends the game (+1 win, 0 draw, -1 loss; only the
            sign is read), ``None`` when it does not, or when leaves are payoffs rather than results (Tree Lab).
    """
    if terminal_value is not None:
        return RANK_DECISIVE if terminal_value > 0 else (RANK_LOSS if terminal_value < 0 else RANK_OTHER)
    if proven is None or proven == 0:
        return RANK_OTHER
    return RANK_PROVEN_WIN if proven > 0 else RANK_LOSS


def proof_plies(node: T, children: Callable[[T], Sequence[T]], known: Callable[[T], float | None],
                terminal: Callable[[T], bool]) -> float:
    """Plies from ``node``'s position to the end of the game along its proof; ``inf`` when it has none.

    A terminal node is 0. A node whose value is known (``known``: proven, from the view of the player who moved
    into it) is one more than its best children's distance, the best children being those whose value is the
    highest known one for the player to move there: the shortest of them when that value is a win or a draw,
    the longest when every move loses (a loss is resisted). A node without a known value, or whose children
    hold none, is ``inf``.
    """
    if terminal(node):
        return 0.0
    if known(node) is None:
        return math.inf
    kids = [(v, c) for c in children(node) if (v := known(c)) is not None]
    if not kids:
        return math.inf
    target = max(v for v, _ in kids)
    plies = [proof_plies(c, children, known, terminal) for v, c in kids if v == target]
    return 1.0 + (max(plies) if target < 0 else min(plies))


def choose(kids: Sequence[T], key: Callable[[T], tuple[int, int, float]], plies: Callable[[T], float]) -> T:
    """The child to play (the module docstring's rule): the highest ``key`` = ``(rank, visits, q)``; among equals
    the shortest ``plies`` (the longest when they are losses), then the first in ``kids``' order.

    Raises:
        ValueError: ``kids`` is empty.
    """
    if not kids:
        raise ValueError("no children to choose from")
    keys = [key(k) for k in kids]
    top = max(keys)
    tied = [k for k, kk in zip(kids, keys) if kk == top]
    if len(tied) == 1:
        return tied[0]
    sign = -1.0 if top[0] < 0 else 1.0
    return min(tied, key=lambda k: sign * plies(k))  # min keeps the first of equals


def decisive_first(untried: list[Any], wins: Callable[[Any], bool]) -> bool:
    """Move the first move of ``untried`` that ``wins`` (ends the game with a win for the player making it) to
    the front, in place, so the next expansion adds it. Returns True when there is one."""
    for i, m in enumerate(untried):
        if wins(m):
            if i:
                untried.insert(0, untried.pop(i))
            return True
    return False
