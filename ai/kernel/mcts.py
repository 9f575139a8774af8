"""Monte Carlo tree search (UCT) with optional MCTS-Solver proofs and open-loop chance nodes.

Sources:
    * UCT: Kocsis and Szepesvari, "Bandit based Monte-Carlo Planning", ECML 2006 (UCB1 applied at every
      tree node: ``Q + c * sqrt(ln N_parent / N_child)``).
    * The four phases as named by Browne et al., "A Survey of Monte Carlo Tree Search Methods", *IEEE Trans.
      Computational Intelligence and AI in Games* 4(1), 2012: **selection** (descend by UCB1 while the node is
      fully expanded), **expansion** (add one child per simulation, untried moves in ``game.actions`` order,
      except that at the root a move winning at once comes first: :mod:`ai.kernel.mcts_choice`),
      **simulation** or playout (finish the game with random moves, or play a few and evaluate), and
      **backpropagation** (add the result to every node on the path).
    * MCTS-Solver: Winands, Bjornsson and Saito, "Monte-Carlo Tree Search Solver", *Computers and Games* 2008:
      game-theoretic values are proven in the tree and backed up like minimax.

Conventions:
    * Every node keeps its total value ``W`` and visit count ``N`` from the point of view of the player who
      **moved into** it (``node.player``, the ``to_move`` of its parent; for the root, its own side to move),
      so a parent picks the child with the highest ``Q = W / N``. Results are converted per node by comparing
      ``node.player`` with the root player (two-player zero-sum), never by depth parity, since a player may move
      twice in a row (Pig, passes).
    * Rewards lie in ``[-1, 1]``: ``random`` playouts score +1/-1/0 by the sign of ``game.utility``;
      ``eval:N`` playouts play ``N`` random decisions (chance outcomes are sampled on the way and do not count),
      resolve any pending chance node, and score ``tanh(evaluate(state, root_player) / eval_scale)`` (a terminal
      position reached earlier scores by its utility). Playouts longer than ``max_playout`` plies score 0.
    * Chance nodes (``game.is_chance``) sit in the tree as ``kind == "chance"`` nodes. Selection there samples
      an outcome by its probability (``game.chance_outcomes``, the API ``ai.kernel.expectimax`` enumerates) and
      continues into the child **keyed by the sampled outcome**, creating it on first sight (that is the
      simulation's one expansion). Values are thus averaged over the die's frequencies, as expectimax averages
      over its probabilities. Chance nodes are never proven by the solver.
    * Solver: a proven node holds ``proven`` in ``{-1, 0, +1}`` (its player's view; the ``+/-inf`` of
      Winands et al., kept separate from ``W``). A decision node is proven when a child is a proven win for the
      player to move there, or when every move is expanded and every child is proven (value: their maximum, so
      all-losses proves a loss). Proven-loss children are never selected; a proven node is never simulated again
      (reaching it backs up its proven value). The search stops with ``"proven"`` when the root is proven.
    * Tree reuse: :meth:`MCTS.adopt` hands a later search the subtree of an earlier one at the new position.
    * The move played (:mod:`ai.kernel.mcts_choice`): a move that wins at once (a terminal child won by the mover: its
      value is exact, solver or not), then a proven win, then the most visited child, ties broken by the mean
      value, then by the shorter proven distance, then by move order; proven losses last. Decisive moves after
      Teytaud and Teytaud, CIG 2010.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ai.kernel.collector import collector_paused
from ai.kernel.core import Interruptible, SearchError, SearchInfo, SearchLimits, SearchResult, SearchStopped, StopReason
from ai.kernel.deepen import clock_json
from ai.kernel.mcts_choice import choice_rank, choose, decisive_first, proof_plies
from ai.kernel.timeman import clock_of
from gameplay.rules.base import Game, GameError
from gameplay.rules.referee import draw_outcome

DECISION = "decision"
CHANCE = "chance"
TERMINAL = "terminal"

DEFAULT_SIMULATIONS = 1000
"""Simulations when ``limits`` sets neither ``nodes`` nor ``time_budget_s``."""


def ucb1(q: float, n_parent: int, n_child: int, c: float) -> float:
    """UCB1 score ``q + c * sqrt(ln n_parent / n_child)`` (Kocsis and Szepesvari 2006); ``inf`` when unvisited.

    With rewards in ``[-1, 1]`` (a range of 2) the textbook ``c = sqrt(2)`` for ``[0, 1]`` rewards explores
    relatively less; it is kept as the default since it plays well here.
    """
    if n_child <= 0:
        return math.inf
    return q + c * math.sqrt(math.log(n_parent) / n_child) if n_parent > 1 else q


class MCTSNode:
    """One node of the search tree.

    Attributes:
        state: the position.
        parent: the node above (``None`` at the root).
        move: the move (or chance outcome) that led here from ``parent``.
        player: the player from whose view ``W`` is kept: the one who moved into the node.
        to_move: ``game.to_move(state)`` (for a chance node, the player who decides next).
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

    __slots__ = ("state", "parent", "move", "player", "to_move", "kind", "children", "outcome_child", "untried",
                 "visits", "total", "proven", "depth")
    kind: str
    depth: int
    to_move: int

    def __init__(self, state: Any, parent: MCTSNode | None, move: Any, player: int, game: Game[Any, Any]) -> None:
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
        self.depth = 0 if parent is None else parent.depth + (0 if parent.kind == CHANCE else 1)
        if game.is_terminal(state):
            self.kind = TERMINAL
            self.to_move = player
        elif game.is_chance(state):
            self.kind = CHANCE
            self.to_move = game.to_move(state)
        else:
            self.kind = DECISION
            self.to_move = game.to_move(state)
            self.untried = list(game.actions(state))

    @property
    def q(self) -> float:
        """Mean value ``W / N`` from ``player``'s view (the proven value once proven; 0 when unvisited)."""
        if self.proven is not None:
            return self.proven
        return self.total / self.visits if self.visits else 0.0


@dataclass
class MCTSStats:
    """Counters of one search: tree nodes created (root included, adopted ones not), completed simulations,
    plies played in playouts (chance outcomes included)."""

    nodes: int = 0
    simulations: int = 0
    playout_plies: int = 0


class MCTS(Interruptible):
    """UCT search for one decision (not thread-safe: one object per decision, on one worker thread).

    Args:
        game: a two-player zero-sum game (chance nodes allowed).
        c: UCB1 exploration constant.
        playout: ``"random"`` (random moves to the end) or ``"eval:N"`` (``N`` random decisions, then
            ``tanh(evaluate(state, root_player) / eval_scale)``).
        evaluate: ``evaluate(state, player)``, needed by ``eval:N``.
        eval_scale: divides the evaluation before ``tanh`` (its units per "clearly winning").
        solver: prove wins, losses and draws in the tree (MCTS-Solver).
        rng: the random source (seed it for reproducible searches).
        stop_event: set from another thread to cancel (checked after every simulation).
        terminal_reward: ``terminal_reward(state, player)`` in ``[-1, 1]`` for a finished game (default: the
            sign of ``game.utility``, +1 win, -1 loss, 0 draw); the Tree Lab passes leaf utilities scaled by the
            tree's range (then the solver is not used: its proofs need win, loss or draw leaves; and no move
            counts as decisive, since a leaf is a payoff, not a win).

    Raises:
        SearchError: a game with more than two players or not zero-sum, a bad ``playout`` spec, ``eval:N``
            without ``evaluate``, ``c`` negative or not finite, ``eval_scale`` not a finite positive number.
    """

    max_playout = 5000
    """Plies after which a playout gives up and scores 0 (a draw)."""
    info_every = 1024
    """Simulations between two ``on_info`` reports."""

    def __init__(self, game: Game[Any, Any], *, c: float = 1.4142135623730951, playout: str = "random",
                 evaluate: Callable[[Any, int], float] | None = None, eval_scale: float = 1.0,
                 solver: bool = False, rng: random.Random, stop_event: threading.Event | None = None,
                 terminal_reward: Callable[[Any, int], float] | None = None) -> None:
        if game.traits.players != 2 or not game.traits.zero_sum:
            raise SearchError(f"mcts needs a two-player zero-sum game; {game.name} is not")
        if not (math.isfinite(c) and c >= 0):
            raise SearchError(f"mcts exploration constant c must be a finite number >= 0, got {c!r}")
        if not (math.isfinite(eval_scale) and eval_scale > 0):
            raise SearchError(f"mcts eval_scale must be a finite positive number, got {eval_scale!r}")
        kind, _, arg = playout.strip().lower().partition(":")
        if kind == "random" and not arg:
            self.eval_plies: int | None = None
        elif kind == "eval" and arg.isdigit():
            if evaluate is None:
                raise SearchError("mcts playout eval:N needs an evaluate(state, player) function")
            self.eval_plies = int(arg)
        else:
            raise SearchError(f"mcts playout must be 'random' or 'eval:N' (N >= 0 plies), got {playout!r}")
        self.game = game
        self.c = c
        self.playout = playout
        self.evaluate = evaluate
        self.eval_scale = eval_scale
        self.solver = solver
        self.terminal_reward = terminal_reward
        self.decisive = terminal_reward is None
        """Terminal children are wins, losses and draws: the root expands a move that wins at once first and the
        choice ranks it first (:mod:`ai.kernel.mcts_choice`)."""
        self.rng = rng
        self.stop_event = stop_event
        self.stats: MCTSStats = MCTSStats()
        self.root_player = 0
        self.max_depth = 0
        self.root: MCTSNode | None = None
        """The tree of the last :meth:`search` (for inspection: tests, the Tree Lab)."""
        self._adopted: MCTSNode | None = None
        self.playout_state: Any = None
        """Where the last playout ended (terminal or evaluated), for the recorder."""
        self.playout_end = ""
        """How the last playout ended: ``terminal``, ``eval`` or ``cap`` (for the recorder)."""

    # -- the four phases ------------------------------------------------------------------------------------
    def _new_node(self, state: Any, parent: MCTSNode, move: Any) -> MCTSNode:
        node = MCTSNode(state, parent, move, parent.to_move, self.game)
        self.stats.nodes += 1
        if node.depth > self.max_depth:
            self.max_depth = node.depth
        if node.kind == TERMINAL and self.solver:
            node.proven = self._terminal_reward(state, node.player)
        return node

    def _select_child(self, node: MCTSNode) -> MCTSNode:
        """The child of a fully expanded decision node with the best UCB1 (first in move order on a tie),
        proven losses skipped (unless nothing else is left)."""
        best: MCTSNode | None = None
        best_score = -math.inf
        n = node.visits
        for ch in node.children:
            if ch.proven is not None and ch.proven < 0:
                continue
            s = ucb1(ch.q, n, ch.visits, self.c)
            if best is None or s > best_score:
                best, best_score = ch, s
        return best if best is not None else node.children[0]

    def _tree_policy(self, root: MCTSNode) -> tuple[MCTSNode, bool]:
        """Selection and expansion: ``(leaf, needs_playout)``; the leaf is new, terminal or proven."""
        game = self.game
        node = root
        while True:
            if node.proven is not None or node.kind == TERMINAL:
                return node, False
            if node.kind == CHANCE:
                o = draw_outcome(game.chance_outcomes(node.state), self.rng)
                ch = node.outcome_child.get(o)
                if ch is None:
                    ch = self._new_node(game.successor(node.state, o), node, o)
                    node.outcome_child[o] = ch
                    node.children.append(ch)
                    return ch, ch.kind != TERMINAL
                node = ch
                continue
            if node.untried:
                m = node.untried.pop(0)
                ch = self._new_node(game.successor(node.state, m), node, m)
                node.children.append(ch)
                return ch, ch.kind != TERMINAL
            node = self._select_child(node)

    def _terminal_reward(self, state: Any, player: int) -> float:
        if self.terminal_reward is not None:
            return self.terminal_reward(state, player)
        u = self.game.utility(state, player)
        return 1.0 if u > 0 else (-1.0 if u < 0 else 0.0)

    def _simulate(self, state: Any) -> float:
        """The playout from ``state``: its reward for the root player, in ``[-1, 1]``."""
        game, rng, st = self.game, self.rng, self.stats
        budget = self.eval_plies
        plies = 0
        while not game.is_terminal(state):
            if plies >= self.max_playout:
                self.playout_end = "cap"
                return 0.0
            if game.is_chance(state):
                state = game.successor(state, draw_outcome(game.chance_outcomes(state), rng))
            else:
                if budget is not None:
                    if budget <= 0:
                        assert self.evaluate is not None
                        self.playout_end = "eval"
                        self.playout_state = state
                        return math.tanh(self.evaluate(state, self.root_player) / self.eval_scale)
                    budget -= 1
                moves = game.actions(state)
                state = game.successor(state, moves[rng.randrange(len(moves))])
            plies += 1
            st.playout_plies += 1
        self.playout_end = "terminal"
        self.playout_state = state
        return self._terminal_reward(state, self.root_player)

    def _backpropagate(self, leaf: MCTSNode, reward: float) -> None:
        """Add ``reward`` (root player's view) to every node from ``leaf`` up, then update the solver's proofs."""
        rp = self.root_player
        node: MCTSNode | None = leaf
        while node is not None:
            node.visits += 1
            node.total += reward if node.player == rp else -reward
            node = node.parent
        if self.solver:
            node = leaf.parent
            while node is not None and self._prove(node):
                node = node.parent

    def _prove(self, node: MCTSNode) -> bool:
        """Try to prove a decision node from its children (MCTS-Solver); True when it is (newly) proven."""
        if node.kind != DECISION or node.proven is not None:
            return False
        best: float | None = None
        complete = not node.untried
        for ch in node.children:  # each child's value is from node.to_move's view (it moved into it)
            if ch.proven is None:
                complete = False
            elif ch.proven > 0:
                best = 1.0
                complete = True
                break
            elif best is None or ch.proven > best:
                best = ch.proven
        if not complete or best is None:
            return False
        node.proven = best if node.player == node.to_move else -best
        return True

    # -- tree reuse -----------------------------------------------------------------------------------------
    def adopt(self, previous: MCTS, state: Any, max_plies: int = 4) -> bool:
        """Offer the next :meth:`search` of ``state`` the subtree of ``previous`` (an earlier search) at ``state``.

        The top ``max_plies`` levels of the old tree are searched breadth-first for a decision node with an equal
        state (and an equal ``draw_context`` for games with repetition rules, whose states compare without their
        draw counters). That node's statistics (``N``, ``W``, proofs) are kept; the new search's ``nodes`` and
        ``simulations`` count its own work only (``extra["reused_nodes"]`` counts the adopted ones).

        Returns:
            True when such a node was found.
        """
        game = self.game
        rep = game.traits.repetition
        frontier = [previous.root] if previous.root is not None else []
        for _ in range(max_plies + 1):
            for n in frontier:
                if (n.kind == DECISION and n.state == state
                        and (not rep or game.draw_context(n.state) == game.draw_context(state))):
                    self._adopted = n
                    return True
            frontier = [ch for n in frontier for ch in n.children]
        return False

    def _reroot(self, node: MCTSNode) -> int:
        """Make an adopted node the root (its values turned to its side to move's view); its subtree's size."""
        node.parent, node.move = None, None
        if node.player != node.to_move:
            node.total = -node.total
            node.proven = None if node.proven is None else -node.proven
            node.player = node.to_move
        d0, count, stack = node.depth, 0, [node]
        while stack:
            n = stack.pop()
            n.depth -= d0
            count += 1
            self.max_depth = max(self.max_depth, n.depth)
            stack.extend(n.children)
        return count

    # -- the driver -----------------------------------------------------------------------------------------
    def _leaf_reward(self, leaf: MCTSNode, playout: bool) -> float:
        if leaf.proven is not None:
            return leaf.proven if leaf.player == self.root_player else -leaf.proven
        if leaf.kind == TERMINAL:
            return self._terminal_reward(leaf.state, self.root_player)
        assert playout
        return self._simulate(leaf.state)

    def _terminal_value(self, node: MCTSNode) -> float | None:
        """A terminal node's game result from its player's view (+1, 0, -1); ``None`` for other nodes and when
        leaves are payoffs (``terminal_reward`` given)."""
        if node.kind != TERMINAL or not self.decisive:
            return None
        return node.proven if node.proven is not None else self._terminal_reward(node.state, node.player)

    def _known(self, node: MCTSNode) -> float | None:
        return node.proven if node.proven is not None else self._terminal_value(node)

    def _choice(self, root: MCTSNode) -> MCTSNode:
        """The child of a decision node to play (:func:`ai.kernel.mcts_choice.choose`): a move that wins at once, then a
        proven win, then the most visited child, ties broken by ``Q``, then the shorter proven distance, then move
        order; proven losses last."""
        def key(ch: MCTSNode) -> tuple[int, int, float]:
            return choice_rank(ch.proven, self._terminal_value(ch)), ch.visits, ch.q

        def plies(ch: MCTSNode) -> float:
            return proof_plies(ch, lambda n: n.children, self._known, lambda n: n.kind == TERMINAL)
        return choose(root.children, key, plies)

    def _decisive_root(self, root: MCTSNode) -> None:
        """Decisive moves at the root (Teytaud and Teytaud 2010): when a move not expanded yet wins at once, it is
        expanded first (and :meth:`_choice` plays it). One successor per untried root move; nothing when an
        expanded child already wins at once."""
        if not self.decisive or root.kind != DECISION or not root.untried:
            return
        if any((self._terminal_value(ch) or 0.0) > 0 for ch in root.children):
            return
        game, mover = self.game, root.to_move

        def wins(m: Any) -> bool:
            st = game.successor(root.state, m)
            return game.is_terminal(st) and self._terminal_reward(st, mover) > 0
        decisive_first(root.untried, wins)

    def principal_variation(self, root: MCTSNode) -> tuple[Any, ...]:
        """The line :meth:`_choice` picks from the root down (the most visited, wins at once first; stops at a
        chance node or an unexpanded node)."""
        pv: list[Any] = []
        node = root
        while node.kind == DECISION and node.children:
            node = self._choice(node)
            pv.append(node.move)
        return tuple(pv)

    def search(self, state: Any, limits: SearchLimits,
               on_info: Callable[[SearchInfo], None] | None = None, recorder: Any = None) -> SearchResult:
        """Run simulations from ``state`` until a limit; the root move :meth:`_choice` picks (a move that wins at
        once, else a proven win, else the most visited).

        Args:
            state: a decision node, not over.
            limits: ``nodes`` = simulations, ``time_budget_s`` = seconds (hard deadline); ``depth`` is not used.
                With neither, ``DEFAULT_SIMULATIONS`` simulations. At least one simulation always completes.
            on_info: called every ``info_every`` simulations and once at the end (on the caller's thread).
            recorder: an :class:`ai.teaching.mcts_record.MCTSRecorder` (or ``None``): told of the start, of every
                simulation (its path, expansion, playout and reward) and of the end; it never changes the search.

        Automatic garbage collection is paused during the search (:func:`collector_paused`).

        Returns:
            A :class:`SearchResult`: ``value`` is the root's mean backed-up value in ``[-1, 1]`` for the side to
            move (the proven value when the solver proved the root, then ``outcome`` is set), ``depth`` the
            deepest decision depth in the tree, ``nodes`` the tree nodes created, ``stop_reason`` one of
            ``"simulations"``, ``"time"``, ``"cancelled"``, ``"proven"``; ``extra`` holds ``simulations``,
            ``root_children`` (``move`` text, ``visits``, ``q``, ``ucb``, ``proven``), ``playout_plies``,
            ``reused_nodes`` (see :meth:`adopt`; an adopted root already proven returns with 0 simulations) and
            ``algorithm``.

        Raises:
            GameError: the position is over or a chance node.
        """
        with collector_paused():
            return self._search(state, limits, on_info, recorder)

    def _search(self, state: Any, limits: SearchLimits, on_info: Callable[[SearchInfo], None] | None,
                recorder: Any) -> SearchResult:
        t0 = time.perf_counter()
        game = self.game
        if game.is_chance(state):
            raise GameError("the position is a chance node: the die decides (the referee samples it), "
                            "there is no move to choose")
        if game.is_terminal(state) or not game.actions(state):
            raise GameError("the position is over: there is no move to choose")
        sims_limit = limits.nodes
        if sims_limit is None and limits.time_budget_s is None:
            sims_limit = DEFAULT_SIMULATIONS
        clock = clock_of(limits.clock)  # the budget's clock: wall, or this thread's CPU time
        c0 = clock()
        self.start_budget(clock, c0, limits.stop_s(), None)  # less the margin when a referee waits
        self.root_player = game.to_move(state)
        self.stats = MCTSStats()
        self.max_depth = reused = 0
        adopted, self._adopted = self._adopted, None
        if adopted is not None and adopted.state == state and adopted.to_move == self.root_player:
            root = adopted
            reused = self._reroot(root)
        else:
            root = MCTSNode(state, None, None, self.root_player, game)
            self.stats.nodes = 1
        self.root = root
        self._decisive_root(root)
        reason = StopReason.SIMULATIONS
        st = self.stats
        if recorder is not None:
            recorder.begin(self, root)
        while True:
            self.set_interruptible(st.simulations > 0)
            try:
                self._check_stop()
            except SearchStopped as stop:
                reason = stop.reason
                break
            if sims_limit is not None and st.simulations >= max(1, sims_limit):
                break
            if root.proven is not None and root.children:
                reason = StopReason.PROVEN
                break
            leaf, playout = self._tree_policy(root)
            if recorder is None:
                self._backpropagate(leaf, self._leaf_reward(leaf, playout))
            else:
                plies0 = st.playout_plies
                kind = "terminal" if leaf.kind == TERMINAL else ("proven" if leaf.proven is not None else "playout")
                self.playout_end, self.playout_state = "", leaf.state
                reward = self._leaf_reward(leaf, playout)
                self._backpropagate(leaf, reward)
                recorder.simulation(self, leaf, kind, st.playout_plies - plies0, self.playout_end, reward,
                                    self.playout_state)
            st.simulations += 1
            if on_info is not None and st.simulations % self.info_every == 0:
                on_info(self._info(root, t0))
        best = self._choice(root)
        value = root.q + 0.0
        outcome = None
        if root.proven is not None:
            outcome = "win" if root.proven > 0 else ("loss" if root.proven < 0 else "draw")
        if on_info is not None:
            on_info(self._info(root, t0))
        children = [{"move": game.format_move(state, ch.move), "visits": ch.visits, "q": ch.q,
                     "ucb": ucb1(ch.q, root.visits, ch.visits, self.c), "proven": ch.proven}
                    for ch in root.children]
        extra: dict[str, Any] = {"simulations": st.simulations, "root_children": children,
                                 "playout_plies": st.playout_plies, "reused_nodes": reused,
                                 "algorithm": "mcts-solver" if self.solver else "mcts"}
        extra.update(clock_json(limits, clock() - c0))
        result = SearchResult(best.move, value, outcome, None, self.max_depth, st.nodes,
                              self.principal_variation(root), time.perf_counter() - t0, reason, extra)
        if recorder is not None:
            recorder.end(self, root, best, result)
        return result

    def _info(self, root: MCTSNode, t0: float) -> SearchInfo:
        pv = self.principal_variation(root)
        return SearchInfo(self.max_depth, root.q + 0.0, pv, self.stats.nodes, time.perf_counter() - t0,
                          pv[0] if pv else None, 0)
