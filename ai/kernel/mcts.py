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
    * Compiled: the tree, the four phases and the solver run in :mod:`ai.kernel.mcts_tree` (mypyc), over a game's
      compiled rules when the caller gives them (``fast_rules``: the game's agents' ``AgentParts.mcts_rules``, kept
      in the game's room: bitboards, a packed integer), the playouts are random and nothing records, else over the
      game object. Both draw the random numbers the
      same way (``randrange(len(moves))`` as ``getrandbits``, a die as ``choices``' one ``random()``), so the seeded
      random stream, the tree and the move are the ones the interpreted search gave (``tests/test_mcts_fast.py``).
      Simulations run in batches of about :data:`BATCH_SECONDS` between two looks at the clock and the cancel event.
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
from typing import Any

from ai.kernel.collector import collector_paused
from ai.kernel.core import Interruptible, SearchError, SearchInfo, SearchLimits, SearchResult, SearchStopped, StopReason
from ai.kernel.deepen import clock_json
from ai.kernel.mcts_choice import choice_rank, choose, proof_plies
from ai.kernel.mcts_tree import (
    CHANCE,
    DECISION,
    K_TERMINAL,
    MAX_PLAYOUT,
    TERMINAL,
    GameRules,
    Kernel,
    MCTSNode,
    MCTSStats,
    Rules,
    ucb1,
)
from ai.kernel.timeman import clock_of
from gameplay.rules.base import Game, GameError

__all__ = ["CHANCE", "DECISION", "DEFAULT_SIMULATIONS", "MCTS", "MCTSNode", "MCTSStats", "TERMINAL", "ucb1"]

DEFAULT_SIMULATIONS = 1000
"""Simulations when ``limits`` sets neither ``nodes`` nor ``time_budget_s``."""

BATCH_SECONDS = 0.002
"""How long a batch of simulations run without a look at the clock and the cancel event may last (seconds, on the
budget's clock): the batch's size follows the rate measured so far, so the stop comes within about this much of the
deadline."""
MAX_BATCH = 1024
"""The most simulations in one batch (also :attr:`MCTS.info_every`, so the reports fall between batches)."""


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
        fast_rules: ``fast_rules(game)`` gives the game's compiled rules (a :class:`~ai.kernel.mcts_tree.Rules`) or
            ``None``; the search runs over them when the playouts are random and nothing records. ``None`` (the
            default): over the game object (the same tree for the same seed, slower; the tests compare the two).
            The kernel knows no game: each game's agents give theirs (``ai.agents.game_parts.AgentParts.mcts_rules``).

    Raises:
        SearchError: a game with more than two players or not zero-sum, a bad ``playout`` spec, ``eval:N``
            without ``evaluate``, ``c`` negative or not finite, ``eval_scale`` not a finite positive number.
    """

    max_playout = MAX_PLAYOUT
    """Plies after which a playout gives up and scores 0 (a draw)."""
    info_every = MAX_BATCH
    """Simulations between two ``on_info`` reports."""

    def __init__(self, game: Game[Any, Any], *, c: float = 1.4142135623730951, playout: str = "random",
                 evaluate: Callable[[Any, int], float] | None = None, eval_scale: float = 1.0,
                 solver: bool = False, rng: random.Random, stop_event: threading.Event | None = None,
                 terminal_reward: Callable[[Any, int], float] | None = None,
                 fast_rules: Callable[[Game[Any, Any]], Rules | None] | None = None) -> None:
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
        self.fast_rules = fast_rules
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
        self._adopted: tuple[MCTSNode, Rules] | None = None
        self.rules: Rules = GameRules(game)
        """The rules the last :meth:`search` ran over (its tree's states are this object's)."""
        self.kernel: Kernel | None = None
        """The compiled core of the last :meth:`search`."""
        self.playout_state: Any = None
        """Where the last playout ended (terminal or evaluated), for the recorder."""
        self.playout_end = ""
        """How the last playout ended: ``terminal``, ``eval`` or ``cap`` (for the recorder)."""

    def _rules_for(self, recording: bool) -> Rules:
        """The game's compiled rules (``fast_rules``) for random playouts when it has them; otherwise
        (and always when a recorder watches, so it sees the game's own positions) the game object itself."""
        if self.fast_rules is not None and not recording and self.eval_plies is None and self.terminal_reward is None:
            fast = self.fast_rules(self.game)
            if fast is not None:
                return fast
        return GameRules(self.game, self.eval_plies, self.evaluate, self.eval_scale, self.terminal_reward)

    # -- tree reuse -----------------------------------------------------------------------------------------
    def adopt(self, previous: MCTS, state: Any, max_plies: int = 4) -> bool:
        """Offer the next :meth:`search` of ``state`` the subtree of ``previous`` (an earlier search) at ``state``.

        The top ``max_plies`` levels of the old tree are searched breadth-first for a decision node with an equal
        state (and an equal ``draw_context`` for games with repetition rules, whose states compare without their
        draw counters). That node's statistics (``N``, ``W``, proofs) are kept; the new search's ``nodes`` and
        ``simulations`` count its own work only (``extra["reused_nodes"]`` counts the adopted ones). A search that
        runs over other rules than ``previous`` did (a recorded one after a compiled one) takes the subtree with its
        positions rewritten in its own rules' terms.

        Returns:
            True when such a node was found.
        """
        game = self.game
        rules = previous.rules
        rep = game.traits.repetition
        packed = rules.pack(state)
        frontier = [previous.root] if previous.root is not None else []
        for _ in range(max_plies + 1):
            for n in frontier:
                if (n.kind == DECISION and n.state == packed
                        and (not rep or game.draw_context(rules.unpack(n.state)) == game.draw_context(state))):
                    self._adopted = (n, rules)
                    return True
            frontier = [ch for n in frontier for ch in n.children]
        return False

    # -- the move -------------------------------------------------------------------------------------------
    def _terminal_value(self, node: MCTSNode) -> float | None:
        """A terminal node's game result from its player's view (+1, 0, -1); ``None`` for other nodes and when
        leaves are payoffs (``terminal_reward`` given)."""
        assert self.kernel is not None
        return self.kernel.terminal_value(node)

    def _known(self, node: MCTSNode) -> float | None:
        return node.proven if node.proven is not None else self._terminal_value(node)

    def _choice(self, root: MCTSNode) -> MCTSNode:
        """The child of a decision node to play (:func:`ai.kernel.mcts_choice.choose`): a move that wins at once, then a
        proven win, then the most visited child, ties broken by ``Q``, then the shorter proven distance, then move
        order; proven losses last."""
        def key(ch: MCTSNode) -> tuple[int, int, float]:
            return choice_rank(ch.proven, self._terminal_value(ch)), ch.visits, ch.q

        def plies(ch: MCTSNode) -> float:
            return proof_plies(ch, lambda n: n.children, self._known, lambda n: n.kind_id == K_TERMINAL)
        return choose(root.children, key, plies)

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

        The simulations run in the compiled kernel (:mod:`ai.kernel.mcts_tree`), in batches between two looks at
        the clock and the cancel event (:data:`BATCH_SECONDS`), over the game's compiled rules (``fast_rules``)
        when the game has them and the playouts are random. With a recorder, the search runs one simulation at a
        time over the game object (:class:`~ai.kernel.mcts_tree.GameRules`: the recorder sees the game's own
        positions): slower, and the same tree, counts and move for the same seed.

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
            ``reused_nodes`` (see :meth:`adopt`; an adopted root already proven returns with 0 simulations),
            ``algorithm`` and ``rules`` (``compiled`` or ``game``: which rules the simulations ran over).

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
        rules = self._rules_for(recorder is not None)
        self.rules = rules
        kernel = Kernel(rules, self.c, self.solver, self.rng, self.decisive)
        self.kernel = kernel
        kernel.begin(self.root_player)
        self.stats = kernel.stats
        reused = 0
        adopted, self._adopted = self._adopted, None
        packed = rules.pack(state)
        if adopted is not None and type(adopted[1]) is not type(rules):
            _restate(adopted[0], adopted[1], rules)
        if adopted is not None and adopted[0].state == packed and adopted[0].to_move == self.root_player:
            root = adopted[0]
            reused = kernel.reroot(root)
        else:
            root = kernel.new_root(packed)
        self.root = root
        kernel.decisive_root(root)
        reason = StopReason.SIMULATIONS
        st = kernel.stats
        if recorder is not None:
            recorder.begin(self, root)
        batch = 1
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
            if recorder is not None:
                self._recorded_simulation(kernel, root, recorder)
            else:
                n = min(batch, self.info_every - st.simulations % self.info_every)
                if sims_limit is not None:
                    n = min(n, max(1, sims_limit) - st.simulations)
                started = clock()
                done = kernel.run(root, n)
                if done == n:
                    spent = clock() - started
                    rate = BATCH_SECONDS * done / spent if spent > 0 else 2.0 * done
                    batch = max(1, min(MAX_BATCH, int(rate), 2 * done))
            if on_info is not None and st.simulations % self.info_every == 0:
                on_info(self._info(root, t0))
        self.playout_end, self.playout_state = rules.playout_end, rules.playout_state
        self.max_depth = kernel.max_depth
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
                                 "algorithm": "mcts-solver" if self.solver else "mcts",
                                 "rules": "game" if isinstance(rules, GameRules) else "compiled"}
        extra.update(clock_json(limits, clock() - c0))
        result = SearchResult(best.move, value, outcome, None, self.max_depth, st.nodes,
                              self.principal_variation(root), time.perf_counter() - t0, reason, extra)
        if recorder is not None:
            recorder.end(self, root, best, result)
        return result

    def _recorded_simulation(self, kernel: Kernel, root: MCTSNode, recorder: Any) -> None:
        """One simulation, told to the recorder (its leaf's kind, playout and reward)."""
        st = kernel.stats
        leaf = kernel.tree_policy(root)
        playout = kernel.last_playout
        plies0 = st.playout_plies
        kind = "terminal" if leaf.kind_id == K_TERMINAL else ("proven" if leaf.proven is not None else "playout")
        rules = kernel.rules
        rules.playout_end, rules.playout_state = "", leaf.state
        reward = kernel.leaf_reward(leaf, playout)
        kernel.backpropagate(leaf, reward)
        st.simulations += 1
        self.playout_end, self.playout_state = rules.playout_end, rules.playout_state
        self.max_depth = kernel.max_depth
        recorder.simulation(self, leaf, kind, st.playout_plies - plies0, self.playout_end, reward,
                            self.playout_state)

    def _info(self, root: MCTSNode, t0: float) -> SearchInfo:
        assert self.kernel is not None
        self.max_depth = self.kernel.max_depth
        pv = self.principal_variation(root)
        return SearchInfo(self.max_depth, root.q + 0.0, pv, self.stats.nodes, time.perf_counter() - t0,
                          pv[0] if pv else None, 0)


def _restate(top: MCTSNode, old: Rules, new: Rules) -> None:
    """Rewrite the positions of the subtree under ``top`` from ``old`` rules' terms into ``new``'s."""
    stack = [top]
    while stack:
        n = stack.pop()
        n.state = new.pack(old.unpack(n.state))
        stack.extend(n.children)
