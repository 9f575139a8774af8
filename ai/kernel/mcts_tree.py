"""The compiled core of Monte Carlo tree search: the tree's nodes, the four phases and the solver's proofs, over a
game's rules (:class:`Rules`), for :class:`ai.kernel.mcts.MCTS` (which drives it: budgets, reports, the result).

The algorithm, its sources and its conventions are :mod:`ai.kernel.mcts`'s docstring; this module is the part that
runs once per simulation, written in typed Python that mypyc compiles (``gameplay/rules/compiled.py``), so a node is a
native object whose counts are machine numbers (``visits``, ``total``), and a simulation is a loop of native calls.

Rules: the kernel asks the game through a :class:`Rules` object. :class:`GameRules` wraps any
:class:`~gameplay.rules.base.Game` (its states are the game's, so a recorder can show every node's position; the
Tree Lab's payoffs and ``eval:N`` playouts go through it); each game's room may have compiled rules on integer
states and bitboards (``ai.<game>.<game>_mcts``, handed to the search by the game's agents: ``AgentParts.mcts_rules``),
whose playouts run as one native loop. Every rules object
gives the moves in the game's ``actions`` order and draws its random numbers the way the generic code does
(:func:`randbelow` is ``random.Random.randrange(n)``; a chance outcome is ``random.Random.choices``), so for one seed
every rules object of a game builds the same tree and plays the same move (tested).

No pygame here; standard library and ``gameplay.rules`` only.
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable, Final

from ai.kernel.mcts_choice import decisive_first
from gameplay.rules.base import Game
from gameplay.rules.referee import draw_outcome

DECISION: Final = "decision"
CHANCE: Final = "chance"
TERMINAL: Final = "terminal"

K_DECISION: Final = 0
"""A node where a player chooses (:meth:`Rules.kind`)."""
K_CHANCE: Final = 1
"""A node where the dice decide."""
K_TERMINAL: Final = 2
"""A finished game."""
_KIND_NAMES: Final = (DECISION, CHANCE, TERMINAL)

MAX_PLAYOUT: Final = 5000
"""Plies after which a playout gives up and scores 0 (a draw)."""


def randbelow(rng: random.Random, n: int) -> int:
    """A uniform integer ``0 <= r < n`` drawn exactly as ``rng.randrange(n)`` draws it (CPython's
    ``_randbelow_with_getrandbits``: ``k = n.bit_length()`` bits, again until below ``n``), so the compiled playouts
    take the same numbers from a seeded generator as the generic ones, without ``randrange``'s Python-level checks.

    Raises:
        ValueError: ``n < 1``.
    """
    if n < 1:
        raise ValueError(f"randbelow needs n >= 1, got {n}")
    k = n.bit_length()
    r: int = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def ucb1(q: float, n_parent: int, n_child: int, c: float) -> float:
    """UCB1 score ``q + c * sqrt(ln n_parent / n_child)`` (Kocsis and Szepesvari 2006); ``inf`` when unvisited.

    With rewards in ``[-1, 1]`` (a range of 2) the textbook ``c = sqrt(2)`` for ``[0, 1]`` rewards explores
    relatively less; it is kept as the default since it plays well here.
    """
    if n_child <= 0:
        return math.inf
    return q + c * math.sqrt(math.log(n_parent) / n_child) if n_parent > 1 else q


class Rules:
    """What the kernel asks of a game (an abstract base: :class:`GameRules` or a game's own, e.g.
    ``ai.tictactoe.tictactoe_mcts.TicTacToeRules``).

    States are whatever the rules keep (the game's own for :class:`GameRules`, integers or tuples of bitboards for
    the compiled rules: :meth:`pack` and :meth:`unpack` convert); moves and chance outcomes are the game's own.
    """

    playout_plies: int
    """Plies of the last :meth:`playout` (chance outcomes included)."""
    playout_end: str
    """How the last playout ended: ``terminal``, ``eval`` or ``cap``."""
    playout_state: Any
    """Where the last playout ended (the rules' state)."""

    def __init__(self) -> None:
        self.playout_plies = 0
        self.playout_end = ""
        self.playout_state = None

    def pack(self, state: Any) -> Any:
        """The rules' state for the game's ``state``."""
        return state

    def unpack(self, state: Any) -> Any:
        """The game's state for the rules' ``state``."""
        return state

    def kind(self, state: Any) -> int:
        """:data:`K_DECISION`, :data:`K_CHANCE` or :data:`K_TERMINAL`."""
        raise NotImplementedError

    def to_move(self, state: Any) -> int:
        """The player to decide (at a chance node: the one who decides next)."""
        raise NotImplementedError

    def actions(self, state: Any) -> list[Any]:
        """The legal moves of a decision node, in the game's ``actions`` order."""
        raise NotImplementedError

    def successor(self, state: Any, move: Any) -> Any:
        """The state after a legal move or chance outcome."""
        raise NotImplementedError

    def draw(self, state: Any, rng: random.Random) -> Any:
        """A chance node's outcome drawn by its probability (one ``rng.random()``, as ``random.Random.choices``)."""
        raise NotImplementedError

    def reward(self, state: Any, player: int) -> float:
        """A finished game's result for ``player``: +1, -1 or 0 (the sign of ``game.utility``)."""
        raise NotImplementedError

    def playout(self, state: Any, rng: random.Random, root_player: int) -> float:
        """Finish the game from ``state`` with uniformly random moves (``rng``: :func:`randbelow` over the moves,
        :meth:`draw` at chance nodes); the reward for ``root_player`` in ``[-1, 1]`` (0 after :data:`MAX_PLAYOUT`
        plies). Sets :attr:`playout_plies`, :attr:`playout_end` and :attr:`playout_state`."""
        raise NotImplementedError


class GameRules(Rules):
    """:class:`Rules` over any game object: its states, moves and methods as they are (the generic path: a game
    without compiled rules, a recorded search, the Tree Lab's payoffs, ``eval:N`` playouts).

    Args:
        game: the game.
        eval_plies: ``None`` for random playouts to the end; ``N`` for ``eval:N`` (``N`` random decisions, then
            ``tanh(evaluate(state, root_player) / eval_scale)``).
        evaluate: ``evaluate(state, player)``, needed with ``eval_plies``.
        eval_scale: divides the evaluation before ``tanh``.
        terminal_reward: ``terminal_reward(state, player)`` in ``[-1, 1]`` for a finished game (default: the sign of
            ``game.utility``).
    """

    def __init__(self, game: Game[Any, Any], eval_plies: int | None = None,
                 evaluate: Callable[[Any, int], float] | None = None, eval_scale: float = 1.0,
                 terminal_reward: Callable[[Any, int], float] | None = None) -> None:
        super().__init__()
        self.game = game
        self.eval_plies = eval_plies
        self.evaluate = evaluate
        self.eval_scale = eval_scale
        self.terminal_reward = terminal_reward

    def kind(self, state: Any) -> int:
        game = self.game
        if game.is_terminal(state):
            return K_TERMINAL
        return K_CHANCE if game.is_chance(state) else K_DECISION

    def to_move(self, state: Any) -> int:
        return self.game.to_move(state)

    def actions(self, state: Any) -> list[Any]:
        return list(self.game.actions(state))

    def successor(self, state: Any, move: Any) -> Any:
        return self.game.successor(state, move)

    def draw(self, state: Any, rng: random.Random) -> Any:
        return draw_outcome(self.game.chance_outcomes(state), rng)

    def reward(self, state: Any, player: int) -> float:
        if self.terminal_reward is not None:
            return self.terminal_reward(state, player)
        u = self.game.utility(state, player)
        return 1.0 if u > 0 else (-1.0 if u < 0 else 0.0)

    def playout(self, state: Any, rng: random.Random, root_player: int) -> float:
        game = self.game
        budget = self.eval_plies
        plies = 0
        self.playout_plies = 0
        while not game.is_terminal(state):
            if plies >= MAX_PLAYOUT:
                self.playout_end = "cap"
                self.playout_plies = plies
                return 0.0
            if game.is_chance(state):
                state = game.successor(state, draw_outcome(game.chance_outcomes(state), rng))
            else:
                if budget is not None:
                    if budget <= 0:
                        evaluate = self.evaluate
                        assert evaluate is not None
                        self.playout_end = "eval"
                        self.playout_state = state
                        self.playout_plies = plies
                        return math.tanh(evaluate(state, root_player) / self.eval_scale)
                    budget -= 1
                moves = game.actions(state)
                state = game.successor(state, moves[randbelow(rng, len(moves))])
            plies += 1
        self.playout_plies = plies
        self.playout_end = "terminal"
        self.playout_state = state
        return self.reward(state, root_player)


class MCTSNode:
    """One node of the search tree.

    Attributes:
        state: the position (the rules' state: the game's own under :class:`GameRules`).
        parent: the node above (``None`` at the root).
        move: the move (or chance outcome) that led here from ``parent``.
        player: the player from whose view ``W`` is kept: the one who moved into the node.
        to_move: the player to decide there (for a chance node, the player who decides next).
        kind: ``"decision"``, ``"chance"`` or ``"terminal"``.
        children: expanded children in expansion order (decision nodes: ``game.actions`` order).
        outcome_child: chance nodes only: sampled outcome -> child.
        untried: moves not expanded yet (decision nodes), in ``game.actions`` order (at the root of a search, a
            move winning at once first).
        visits: ``N``.
        total: ``W``, summed rewards from ``player``'s view.
        proven: solver result from ``player``'s view (+1 win, 0 draw, -1 loss) or ``None``.
        depth: decisions from the root (chance outcomes do not count).
    """

    kind_id: int
    depth: int
    to_move: int

    def __init__(self, state: Any, parent: MCTSNode | None, move: Any, player: int, rules: Rules) -> None:
        self.state = state
        self.parent = parent
        self.move = move
        self.player = player
        self.children: list[MCTSNode] = []
        self.outcome_child: dict[Any, MCTSNode] = {}
        self.untried: list[Any] = []
        self.visits = 0
        self.total = 0.0
        self.proven: float | None = None
        if parent is None:
            self.depth = 0
        else:
            self.depth = parent.depth + (0 if parent.kind_id == K_CHANCE else 1)
        k = rules.kind(state)
        self.kind_id = k
        if k == K_TERMINAL:
            self.to_move = player
        else:
            self.to_move = rules.to_move(state)
            if k == K_DECISION:
                self.untried = rules.actions(state)

    @property
    def kind(self) -> str:
        """``"decision"``, ``"chance"`` or ``"terminal"``."""
        return _KIND_NAMES[self.kind_id]

    @property
    def q(self) -> float:
        """Mean value ``W / N`` from ``player``'s view (the proven value once proven; 0 when unvisited)."""
        if self.proven is not None:
            return self.proven
        return self.total / self.visits if self.visits else 0.0


class MCTSStats:
    """Counters of one search: tree nodes created (root included, adopted ones not), completed simulations,
    plies played in playouts (chance outcomes included)."""

    def __init__(self, nodes: int = 0, simulations: int = 0, playout_plies: int = 0) -> None:
        self.nodes = nodes
        self.simulations = simulations
        self.playout_plies = playout_plies

    def __repr__(self) -> str:
        return f"MCTSStats(nodes={self.nodes}, simulations={self.simulations}, playout_plies={self.playout_plies})"


class Kernel:
    """The four phases and the solver over one :class:`Rules` (one search at a time; :class:`ai.kernel.mcts.MCTS`
    owns it).

    Args:
        rules: the game's rules.
        c: UCB1's exploration constant.
        solver: prove wins, losses and draws in the tree (MCTS-Solver).
        rng: the random source.
        decisive: terminal children are wins, losses and draws (not payoffs): the root expands a move that wins
            at once first.
    """

    def __init__(self, rules: Rules, c: float, solver: bool, rng: random.Random, decisive: bool) -> None:
        self.rules = rules
        self.c = c
        self.solver = solver
        self.rng = rng
        self.decisive = decisive
        self.stats = MCTSStats()
        self.root_player = 0
        self.max_depth = 0
        self.last_reward = 0.0
        """The reward (root player's view) of the last simulation."""
        self.last_playout = False
        """Whether the last simulation played a playout."""

    def begin(self, root_player: int) -> None:
        """Start a search: counters to zero."""
        self.root_player = root_player
        self.stats = MCTSStats()
        self.max_depth = 0

    def new_root(self, state: Any) -> MCTSNode:
        """A fresh root for the rules' ``state`` (counted as a created node)."""
        self.stats.nodes += 1
        return MCTSNode(state, None, None, self.root_player, self.rules)

    # -- the four phases ------------------------------------------------------------------------------------------
    def _new_node(self, state: Any, parent: MCTSNode, move: Any) -> MCTSNode:
        node = MCTSNode(state, parent, move, parent.to_move, self.rules)
        self.stats.nodes += 1
        if node.depth > self.max_depth:
            self.max_depth = node.depth
        if node.kind_id == K_TERMINAL and self.solver:
            node.proven = self.rules.reward(state, node.player)
        return node

    def select_child(self, node: MCTSNode) -> MCTSNode:
        """The child of a fully expanded decision node with the best UCB1 (first in move order on a tie), proven
        losses skipped (unless nothing else is left)."""
        best: MCTSNode | None = None
        best_score = -math.inf
        n = node.visits
        c = self.c
        log_n = math.log(n) if n > 1 else 0.0
        for ch in node.children:
            p = ch.proven
            if p is not None:
                if p < 0:
                    continue
                q: float = p
            else:
                q = ch.total / ch.visits if ch.visits else 0.0
            v = ch.visits
            if v <= 0:
                s = math.inf
            elif n > 1:
                s = q + c * math.sqrt(log_n / v)
            else:
                s = q
            if best is None or s > best_score:
                best, best_score = ch, s
        return best if best is not None else node.children[0]

    def tree_policy(self, root: MCTSNode) -> MCTSNode:
        """Selection and expansion: the leaf (new, terminal or proven); :attr:`last_playout` says whether it needs a
        playout."""
        rules = self.rules
        node = root
        while True:
            if node.proven is not None or node.kind_id == K_TERMINAL:
                self.last_playout = False
                return node
            if node.kind_id == K_CHANCE:
                o = rules.draw(node.state, self.rng)
                ch = node.outcome_child.get(o)
                if ch is None:
                    ch = self._new_node(rules.successor(node.state, o), node, o)
                    node.outcome_child[o] = ch
                    node.children.append(ch)
                    self.last_playout = ch.kind_id != K_TERMINAL
                    return ch
                node = ch
                continue
            if node.untried:
                m = node.untried.pop(0)
                ch = self._new_node(rules.successor(node.state, m), node, m)
                node.children.append(ch)
                self.last_playout = ch.kind_id != K_TERMINAL
                return ch
            node = self.select_child(node)

    def leaf_reward(self, leaf: MCTSNode, playout: bool) -> float:
        """The leaf's reward for the root player: its proof, its result, or a playout from it."""
        if leaf.proven is not None:
            p: float = leaf.proven
            return p if leaf.player == self.root_player else -p
        if leaf.kind_id == K_TERMINAL:
            return self.rules.reward(leaf.state, self.root_player)
        assert playout
        r = self.rules.playout(leaf.state, self.rng, self.root_player)
        self.stats.playout_plies += self.rules.playout_plies
        return r

    def backpropagate(self, leaf: MCTSNode, reward: float) -> None:
        """Add ``reward`` (root player's view) to every node from ``leaf`` up, then update the solver's proofs."""
        rp = self.root_player
        node: MCTSNode | None = leaf
        while node is not None:
            node.visits += 1
            node.total += reward if node.player == rp else -reward
            node = node.parent
        if self.solver:
            node = leaf.parent
            while node is not None and self.prove(node):
                node = node.parent

    def prove(self, node: MCTSNode) -> bool:
        """Try to prove a decision node from its children (MCTS-Solver); True when it is (newly) proven."""
        if node.kind_id != K_DECISION or node.proven is not None:
            return False
        best: float | None = None
        complete = not node.untried
        for ch in node.children:  # each child's value is from node.to_move's view (it moved into it)
            p = ch.proven
            if p is None:
                complete = False
            elif p > 0:
                best = 1.0
                complete = True
                break
            elif best is None or p > best:
                best = p
        if not complete or best is None:
            return False
        node.proven = best if node.player == node.to_move else -best
        return True

    def simulate(self, root: MCTSNode) -> MCTSNode:
        """One simulation (selection, expansion, playout, backpropagation); its leaf. The reward is
        :attr:`last_reward`; :attr:`stats` counts it."""
        leaf = self.tree_policy(root)
        reward = self.leaf_reward(leaf, self.last_playout)
        self.backpropagate(leaf, reward)
        self.last_reward = reward
        self.stats.simulations += 1
        return leaf

    def run(self, root: MCTSNode, n: int) -> int:
        """Up to ``n`` simulations, stopping before one when the root is proven (and has children); how many ran."""
        done = 0
        while done < n:
            if root.proven is not None and root.children:
                break
            self.simulate(root)
            done += 1
        return done

    # -- the root -------------------------------------------------------------------------------------------------
    def terminal_value(self, node: MCTSNode) -> float | None:
        """A terminal node's game result from its player's view (+1, 0, -1); ``None`` for other nodes and when leaves
        are payoffs."""
        if node.kind_id != K_TERMINAL or not self.decisive:
            return None
        p = node.proven
        return p if p is not None else self.rules.reward(node.state, node.player)

    def decisive_root(self, root: MCTSNode) -> None:
        """Decisive moves at the root (Teytaud and Teytaud 2010): when a move not expanded yet wins at once, it is
        expanded first. One successor per untried root move; nothing when an expanded child already wins at once."""
        if not self.decisive or root.kind_id != K_DECISION or not root.untried:
            return
        for ch in root.children:
            v = self.terminal_value(ch)
            if v is not None and v > 0:
                return
        rules, mover, state = self.rules, root.to_move, root.state

        def wins(m: Any) -> bool:
            st = rules.successor(state, m)
            return rules.kind(st) == K_TERMINAL and rules.reward(st, mover) > 0
        decisive_first(root.untried, wins)

    def reroot(self, node: MCTSNode) -> int:
        """Make an adopted node the root (its values turned to its side to move's view); its subtree's size."""
        node.parent, node.move = None, None
        if node.player != node.to_move:
            node.total = -node.total
            p = node.proven
            node.proven = None if p is None else -p
            node.player = node.to_move
        d0, count, stack = node.depth, 0, [node]
        while stack:
            n = stack.pop()
            n.depth -= d0
            count += 1
            if n.depth > self.max_depth:
                self.max_depth = n.depth
            stack.extend(n.children)
        return count
