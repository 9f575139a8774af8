"""What a Monte Carlo tree search did, simulation by simulation: the record the MCTS overlay and the Tree Lab show.

:class:`MCTSRecorder` is handed to :meth:`ai.kernel.mcts.MCTS.search` (``recorder=``). The search calls it once when it
starts (:meth:`~MCTSRecorder.begin`: the root, and the subtree an adopted tree brings with its statistics), once
after every simulation (:meth:`~MCTSRecorder.simulation`: the path selected, whether its last node was expanded in
this simulation, how the leaf was scored and the reward backed up) and once at the end (:meth:`~MCTSRecorder.end`:
the search's own final ``N``, ``W`` and proofs of every recorded node, and the move chosen).

:meth:`MCTSRecorder.snapshot` gives an immutable :class:`MCTSTrace`. Its :meth:`~MCTSTrace.stats_at` replays the
recorded simulations: after ``k`` of them every node's visit count ``N``, total ``W`` and proof are exactly what the
search held after its ``k``-th simulation (the four phases of Browne et al. 2012: selection by UCB1, expansion,
simulation, backpropagation), so a step-through shows the real search, not a re-run. After the last recorded
simulation the replay equals the search's final statistics (:attr:`MCTSTrace.final`; a test checks it) unless the
recorder's bound was reached (:attr:`MCTSTrace.truncated`): then the step-through covers the first
``max_simulations`` simulations and the final view shows the search's own figures.

Rewards are kept as the search keeps them (:mod:`ai.kernel.mcts`): ``W`` of a node from the view of the player who moved
into it, rewards of a simulation from the root player's view, in ``[-1, 1]``.

No pygame here.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import Any

CHECKPOINT_EVERY = 1024
"""Simulations between two stored replay states (stepping backwards replays at most this many)."""


@dataclass(frozen=True)
class MCTSRecNode:
    """One node of the recorded Monte Carlo tree."""

    id: int
    """0 for the root, then in order of creation."""
    parent: int | None
    move: str | None
    """The move (or chance outcome, e.g. ``die=3``) on the edge from the parent, in the game's notation."""
    kind: str
    """``decision``, ``chance`` or ``terminal`` (:mod:`ai.kernel.mcts`)."""
    player: int
    """The player who moved into the node: ``W`` and ``Q`` are from this player's view."""
    to_move: int
    depth: int
    """Decisions below the root (chance outcomes do not count)."""
    created: int
    """The simulation that expanded it (1-based); 0 when it existed before the search (the root, a reused tree)."""
    probability: float | None
    """The outcome's probability when the parent is a chance node."""
    state: Any = None
    """The position (immutable), for mini-boards."""
    utility: float | None = None
    """A finished game's utility for the root player (a Tree Lab leaf's value), else ``None``."""


@dataclass(frozen=True)
class SimulationRec:
    """One simulation as the search ran it."""

    number: int
    """1-based."""
    path: tuple[int, ...]
    """Node ids from the root to the leaf (selection, then the expanded node when ``expanded``)."""
    expanded: bool
    """The leaf was created by this simulation (expansion)."""
    leaf: str
    """How the leaf was scored: ``playout``, ``terminal`` (the game is over there) or ``proven`` (solver)."""
    playout_plies: int
    """Plies of the playout (chance outcomes included); 0 without one."""
    playout_end: str
    """``terminal`` (played to the end), ``eval`` (cut after N plies and evaluated), ``cap`` (too long, scored 0)
    or ``""``."""
    reward: float
    """The value backed up, from the root player's view, in ``[-1, 1]``."""
    proofs: tuple[tuple[int, float], ...] = ()
    """Nodes the solver proved in this simulation: ``(id, value)`` from the node's player's view."""
    end: Any = None
    """The position the simulation was scored at (the leaf, or where its playout ended); kept only with
    :attr:`MCTSRecorder.keep_ends` (the Tree Lab's ``leaves_visited``)."""
    end_value: float | None = None
    """With ``keep_ends``: the game's utility there for the root player when the game is over, else ``None``."""


Stats = tuple[tuple[int, ...], tuple[float, ...], tuple[float | None, ...]]
"""``(N, W, proven)`` per node id."""


@dataclass(frozen=True)
class MCTSTrace:
    """Immutable record of one MCTS decision (see the module docstring)."""

    nodes: tuple[MCTSRecNode, ...]
    simulations: tuple[SimulationRec, ...]
    base: Stats
    """``N``, ``W`` and proofs before the first simulation (nonzero only for a reused tree)."""
    final: Stats
    """The search's own statistics when it stopped (recorded nodes only)."""
    c: float
    """UCB1's exploration constant."""
    root_player: int
    player_names: tuple[str, ...]
    playout: str
    solver: bool
    total_simulations: int
    """Simulations the search ran (recorded or not)."""
    total_nodes: int
    """Tree nodes the search created (``SearchResult.nodes``)."""
    truncated: bool
    """More simulations ran than were recorded (:attr:`MCTSRecorder.max_simulations`)."""
    best: int | None
    """Node id of the root child the search chose."""
    game_name: str = ""
    algorithm: str = "mcts"
    payoffs: bool = False
    """Leaves carry payoffs, not win / loss / draw (the Tree Lab's trees): the sentences name the leaf's value."""

    # -- structure --------------------------------------------------------------------------------------------------
    def children(self, node_id: int) -> list[int]:
        """Child ids of ``node_id`` in creation order."""
        return self._kids().get(node_id, [])

    def _kids(self) -> dict[int, list[int]]:
        kids = self.__dict__.get("_kid_cache")
        if kids is None:
            kids = {}
            for n in self.nodes:
                if n.parent is not None:
                    kids.setdefault(n.parent, []).append(n.id)
            object.__setattr__(self, "_kid_cache", kids)
        return kids

    # -- replay -----------------------------------------------------------------------------------------------------
    def stats_at(self, k: int | None = None) -> Stats:
        """``(N, W, proven)`` per node after the first ``k`` recorded simulations (``None``: :attr:`final`).

        Raises:
            ValueError: ``k`` outside ``0 .. len(simulations)``.
        """
        if k is None:
            return self.final
        if not 0 <= k <= len(self.simulations):
            raise ValueError(f"simulation {k} is not recorded: 0 to {len(self.simulations)}")
        cache: dict[int, Stats] = self.__dict__.setdefault("_checkpoints", {})
        last = self.__dict__.get("_last")
        start_k, start = 0, self.base
        if last is not None and last[0] <= k:
            start_k, start = last
        cp = (k // CHECKPOINT_EVERY) * CHECKPOINT_EVERY
        if cp > start_k and cp in cache:
            start_k, start = cp, cache[cp]
        n, w, p = list(start[0]), list(start[1]), list(start[2])
        rp = self.root_player
        players = [nd.player for nd in self.nodes]
        for i in range(start_k, k):
            sim = self.simulations[i]
            r = sim.reward
            for nid in sim.path:
                n[nid] += 1
                w[nid] += r if players[nid] == rp else -r
            for nid, v in sim.proofs:
                p[nid] = v
            if (i + 1) % CHECKPOINT_EVERY == 0 and (i + 1) not in cache:
                cache[i + 1] = (tuple(n), tuple(w), tuple(p))
        out: Stats = (tuple(n), tuple(w), tuple(p))
        object.__setattr__(self, "_last", (k, out))
        return out

    def q(self, stats: Stats, node_id: int) -> float:
        """Mean value ``W / N`` of ``node_id`` from its player's view (the proven value once proven; 0 unvisited)."""
        n, w, p = stats
        if p[node_id] is not None:
            return float(p[node_id])  # type: ignore[arg-type]
        return w[node_id] / n[node_id] if n[node_id] else 0.0

    def ucb(self, stats: Stats, node_id: int) -> float | None:
        """UCB1 of ``node_id`` as its parent's selection sees it (``None`` for the root and chance outcomes;
        ``inf`` unvisited). Same formula as :func:`ai.kernel.mcts.ucb1`."""
        from ai.kernel.mcts import ucb1
        nd = self.nodes[node_id]
        if nd.parent is None or self.nodes[nd.parent].kind == "chance":
            return None
        return ucb1(self.q(stats, node_id), stats[0][nd.parent], stats[0][node_id], self.c)

    def terminal_value(self, node_id: int) -> float | None:
        """A finished game's result at ``node_id`` from its player's view (the sign of the utility: +1, 0, -1);
        ``None`` for other nodes and for payoff leaves (:attr:`payoffs`: the Tree Lab's trees)."""
        nd = self.nodes[node_id]
        if nd.kind != "terminal" or nd.utility is None or self.payoffs:
            return None
        u = nd.utility if nd.player == self.root_player else -nd.utility
        return 1.0 if u > 0 else (-1.0 if u < 0 else 0.0)

    def most_visited(self, stats: Stats, node_id: int = 0) -> int | None:
        """The child of ``node_id`` the search would play at ``stats``, by the search's own rule
        (:func:`ai.kernel.mcts_choice.choose`, as :meth:`ai.kernel.mcts.MCTS._choice`): a move that wins at once, then a
        proven win, then the most visited child, ties broken by ``Q``, then the shorter proven distance, then move
        order; proven losses last. ``None`` without children."""
        from ai.kernel.mcts_choice import choice_rank, choose, proof_plies
        kids = self.children(node_id)
        if not kids:
            return None
        p = stats[2]

        def known(i: int) -> float | None:
            v = p[i]
            return v if v is not None else self.terminal_value(i)

        def key(i: int) -> tuple[int, int, float]:
            return choice_rank(p[i], self.terminal_value(i)), stats[0][i], self.q(stats, i)

        def plies(i: int) -> float:
            return proof_plies(i, self.children, known, lambda j: self.nodes[j].kind == "terminal")
        return choose(kids, key, plies)

    def choice_words(self, stats: Stats, node_id: int = 0) -> str:
        """Why :meth:`most_visited` picks its child, in a few words: ``most visited``, ``wins at once``, ``a proven
        win`` or ``most visited of the moves not proven lost``; ``""`` without children."""
        best = self.most_visited(stats, node_id)
        if best is None:
            return ""
        from ai.kernel.mcts_choice import RANK_DECISIVE, RANK_PROVEN_WIN, choice_rank
        rank = choice_rank(stats[2][best], self.terminal_value(best))
        if rank == RANK_DECISIVE:
            return "wins at once"
        most = max(stats[0][i] for i in self.children(node_id))
        if stats[0][best] == most:
            return "most visited"
        return "a proven win" if rank == RANK_PROVEN_WIN else "most visited of the moves not proven lost"

    # -- words ------------------------------------------------------------------------------------------------------
    def side_name(self, player: int) -> str:
        name = self.player_names[player] if 0 <= player < len(self.player_names) else str(player + 1)
        return f"Player {name}" if name.isdigit() else name

    def _outcome_words(self, reward: float) -> str:
        if reward > 0:
            return f"{self.side_name(self.root_player)} wins"
        if reward < 0:
            return f"{self.side_name(1 - self.root_player)} wins"
        return "a draw"

    def narrate(self, k: int) -> str:
        """The sentence of simulation ``k`` (1-based), e.g. ``simulation 37: selected 4 -> 0 by UCB, expanded 8,
        random playout (3 plies): X wins, +1 backed up``.

        Raises:
            ValueError: ``k`` is not a recorded simulation.
        """
        if not 1 <= k <= len(self.simulations):
            raise ValueError(f"simulation {k} is not recorded: 1 to {len(self.simulations)}")
        sim = self.simulations[k - 1]
        nodes = self.nodes
        moves = [nodes[i].move or "" for i in sim.path[1:]]
        selected = moves[:-1] if sim.expanded else moves
        parts = [f"simulation {k}:"]
        if selected:
            tags = []
            for i, m in zip(sim.path[1:], selected):
                tags.append(f"{m} (sampled)" if nodes[nodes[i].parent or 0].kind == "chance" else m)
            parts.append(f"selected {' -> '.join(tags)} by UCB" + ("," if sim.expanded or sim.leaf else ""))
        if sim.expanded:
            leaf = nodes[sim.path[-1]]
            sampled = leaf.parent is not None and nodes[leaf.parent].kind == "chance"
            decisive = leaf.parent == 0 and (self.terminal_value(leaf.id) or 0.0) > 0
            parts.append(f"expanded {moves[-1]}" + (" (sampled)" if sampled else "")
                         + (" (a move that wins at once is tried first)" if decisive else "") + ",")
        num = _signed(sim.reward)
        who = f"for {self.side_name(self.root_player)}"
        plies = f"{sim.playout_plies} {'ply' if sim.playout_plies == 1 else 'plies'}"
        if self.payoffs and sim.end_value is not None:
            where = (f"a leaf: {_plain(sim.end_value)}" if sim.leaf == "terminal"
                     else f"random playout ({plies}) to leaf {_plain(sim.end_value)}")
            parts.append(f"{where}, scaled {num} {who} backed up")
        elif sim.leaf == "proven":
            parts.append(f"proven {'win' if sim.reward > 0 else ('loss' if sim.reward < 0 else 'draw')} "
                         f"for {self.side_name(self.root_player)} reached, {num} backed up")
        elif sim.leaf == "terminal":
            parts.append(f"the game is over there: {self._outcome_words(sim.reward)}, {num} {who} backed up")
        elif sim.playout_end == "eval":
            parts.append(f"playout of {sim.playout_plies} random plies, then the evaluation: {num} {who} backed up")
        elif sim.playout_end == "cap":
            parts.append(f"playout stopped after {sim.playout_plies} plies (scored as a draw), {num} backed up")
        else:
            parts.append(f"random playout ({plies}): {self._outcome_words(sim.reward)}, "
                         f"{num} {who} backed up")
        if sim.proofs:
            words = []
            for nid, v in sim.proofs:
                nd = nodes[nid]
                what = "win" if v > 0 else ("loss" if v < 0 else "draw")
                words.append(f"{'the root' if nd.parent is None else nd.move} proven a {what} for "
                             f"{self.side_name(nd.player)}")
            parts.append("; " + ", ".join(words))
        return " ".join(parts).replace(", ;", ";")

    def phases(self, k: int) -> list[str]:
        """The phases simulation ``k`` (1-based) went through, each with what it did: ``["selection 4 -> 0",
        "expansion 8", "playout (3 plies)", "backpropagation +1"]`` (no expansion at a node already in the tree, no
        playout where the game is over or the solver had proved the result).

        Raises:
            ValueError: ``k`` is not a recorded simulation.
        """
        if not 1 <= k <= len(self.simulations):
            raise ValueError(f"simulation {k} is not recorded: 1 to {len(self.simulations)}")
        sim = self.simulations[k - 1]
        moves = [self.nodes[i].move or "" for i in sim.path[1:]]
        selected = moves[:-1] if sim.expanded else moves
        out = [f"selection {' -> '.join(selected)}" if selected else "selection (at the root)"]
        if sim.expanded:
            out.append(f"expansion {moves[-1]}")
        if sim.leaf == "playout":
            out.append(f"playout ({sim.playout_plies} {'ply' if sim.playout_plies == 1 else 'plies'})")
        else:
            out.append("no playout (" + ("the game is over there" if sim.leaf == "terminal" else "proven") + ")")
        out.append(f"backpropagation {_signed(sim.reward)}")
        return out

    def step_header(self, k: int) -> tuple[str, str]:
        """The header of step ``k`` of the step-through (simulation ``k``, 1-based), two lines: which simulation and
        its phases (:meth:`phases`), then the counts once it is backed up: the root's ``N``, the tree's nodes (those
        visited by then) and the root move the search would play then (:meth:`most_visited`) with its ``N`` and
        ``Q``.

        Raises:
            ValueError: ``k`` is not a recorded simulation.
        """
        phases = self.phases(k)
        stats = self.stats_at(k)
        n = stats[0]
        first = f"Simulation {k:,} of {len(self.simulations):,}: {', '.join(phases)}"
        nodes = sum(1 for x in n if x > 0)
        second = f"after it: root N = {n[0]:,}, {nodes:,} tree node{'' if nodes == 1 else 's'}"
        best = self.most_visited(stats)
        if best is not None and n[best] > 0:
            why = self.choice_words(stats)
            words = f"most visited so far {self.nodes[best].move}" if why == "most visited" else \
                f"it would play {self.nodes[best].move} now ({why})"
            second += f"; {words}: N = {n[best]:,}, Q = {_signed(self.q(stats, best))}"
        return first, second

    def summary(self) -> str:
        """One line: simulations, tree nodes, the move chosen and its ``N`` and ``Q``."""
        f = self.final
        best = self.nodes[self.best] if self.best is not None else None
        line = (f"{self.algorithm}: {self.total_simulations:,} simulations, {self.total_nodes:,} tree nodes, "
                f"c = {self.c:g}, playout {self.playout}")
        if best is not None:
            why = self.choice_words(f)
            words = f"most visited {best.move}" if why == "most visited" else f"plays {best.move} ({why})"
            line += f"; {words}: N = {f[0][best.id]:,}, Q = {_signed(self.q(f, best.id))}"
        if self.truncated:
            line += f" (the first {len(self.simulations):,} simulations recorded)"
        return line

    def text(self) -> str:
        """A plain-text trace: the summary, the root's children with ``N``, ``Q`` and UCB at the end of the search,
        then one sentence per recorded simulation (handouts and tests)."""
        f = self.final
        lines = [self.summary(), "root children (N, Q, UCB1 at the end):"]
        for cid in self.children(0):
            u = self.ucb(f, cid)
            mark = f" <- {self.choice_words(f)}" if cid == self.best else ""
            proof = f" proven {_proof_word(f[2][cid])}" if f[2][cid] is not None else ""
            lines.append(f"  {self.nodes[cid].move}: N={f[0][cid]} Q={_signed(self.q(f, cid))}"
                         + (f" UCB={_ucb_text(u)}" if u is not None else "") + proof + mark)
        lines.extend(self.narrate(k) for k in range(1, len(self.simulations) + 1))
        return "\n".join(lines)


def _proof_word(v: float | None) -> str:
    return "" if v is None else ("win" if v > 0 else ("loss" if v < 0 else "draw"))


def _signed(v: float) -> str:
    """``+1``, ``-1``, ``0``, ``+0.31`` (3 significant digits)."""
    if v == 0:
        return "0"
    if float(v).is_integer():
        return f"{int(v):+d}"
    return f"{v:+.3g}"


def _plain(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:.3g}"


def _ucb_text(u: float | None) -> str:
    if u is None:
        return ""
    return "inf" if math.isinf(u) else f"{u:.3g}"


def trace_json(trace: MCTSTrace) -> dict[str, Any]:
    """The trace as JSON data: ``nodes`` (id, parent, move, kind, player, depth, created, and the final ``N``,
    ``Q``, UCB1 and proof), ``simulations`` (number, path of node ids, expanded, leaf, playout plies and end,
    reward, proofs, sentence), ``pv`` (the most visited line's moves) and the summary fields."""
    f = trace.final
    nodes = []
    for nd in trace.nodes:
        u = trace.ucb(f, nd.id)
        nodes.append({"id": nd.id, "parent": nd.parent, "move": nd.move, "kind": nd.kind, "player": nd.player,
                      "depth": nd.depth, "created": nd.created, "visits": f[0][nd.id], "q": trace.q(f, nd.id),
                      "ucb": None if u is None or math.isinf(u) else u, "proven": f[2][nd.id]})
    sims = [{"number": s.number, "path": list(s.path), "expanded": s.expanded, "leaf": s.leaf,
             "playout_plies": s.playout_plies, "playout_end": s.playout_end, "reward": s.reward,
             "proofs": [list(p) for p in s.proofs], "sentence": trace.narrate(s.number)} for s in trace.simulations]
    pv: list[str] = []
    node: int | None = 0
    while node is not None and trace.nodes[node].kind == "decision":
        node = trace.most_visited(f, node)
        if node is not None:
            pv.append(trace.nodes[node].move or "")
    return {"algorithm": trace.algorithm, "c": trace.c, "playout": trace.playout, "solver": trace.solver,
            "simulations_total": trace.total_simulations, "nodes_total": trace.total_nodes,
            "truncated": trace.truncated, "best": trace.best, "pv": pv, "nodes": nodes, "simulations": sims}


class MCTSRecorder:
    """Records an :class:`ai.kernel.mcts.MCTS` search; pass it as ``recorder=`` and call :meth:`snapshot` afterwards.

    Args:
        game: the game (notation, player names).
        max_simulations: record at most this many simulations (and the nodes they create); the search itself is
            never limited by the recorder.
        keep_states: keep each node's position (mini-boards).
        keep_ends: keep the position each simulation was scored at (:attr:`SimulationRec.end`).

    The recorder holds the search's node objects only while the search runs; :meth:`end` turns everything into
    plain records, so a finished recorder pickles (the decision worker process sends it back).
    """

    kind = "mcts"

    def __init__(self, game: Any, *, max_simulations: int = 20_000, keep_states: bool = True,
                 keep_ends: bool = False) -> None:
        self.game = game
        self.keep_ends = keep_ends
        self.max_simulations = max_simulations
        self.keep_states = keep_states
        self._ids: dict[Any, int] | None = {}
        self._nodes: list[MCTSRecNode] = []
        self._proven: list[float | None] = []
        self._initial_proven: list[float | None] = []
        self._sims: list[SimulationRec] = []
        self._base: Stats = ((), (), ())
        self._final: Stats = ((), (), ())
        self._trace: MCTSTrace | None = None
        self._meta: dict[str, Any] = {}

    def _label(self, state: Any, move: Any) -> str:
        try:
            return str(self.game.format_move(state, move))
        except Exception:  # noqa: BLE001 - a label is never worth failing a search for
            return str(move)

    def _add(self, node: Any, created: int) -> int:
        assert self._ids is not None
        nid = len(self._nodes)
        self._ids[node] = nid
        parent = node.parent
        pid = None if parent is None else self._ids[parent]
        prob = None
        if parent is not None and parent.kind == "chance":
            prob = dict(self.game.chance_outcomes(parent.state)).get(node.move)
        self._nodes.append(MCTSRecNode(
            nid, pid, None if parent is None else self._label(parent.state, node.move), node.kind, node.player,
            node.to_move, node.depth, created, prob, node.state if self.keep_states else None,
            float(self.game.utility(node.state, self._root_player)) if node.kind == "terminal" else None))
        self._proven.append(node.proven)
        self._initial_proven.append(node.proven)
        return nid

    def begin(self, search: Any, root: Any) -> None:
        """The search starts at ``root`` (called by the search; a reused subtree is registered with its values)."""
        self._root_player: int = search.root_player
        self._ids, self._nodes, self._sims, self._trace = {}, [], [], None
        self._proven, self._initial_proven = [], []
        queue = deque([root])
        order: list[Any] = []
        while queue:  # breadth-first keeps the ids in tree order (a reused tree can hold thousands of nodes)
            n = queue.popleft()
            if len(order) >= self.max_simulations:
                break
            self._add(n, 0)
            order.append(n)
            queue.extend(n.children)
        self._base = (tuple(n.visits for n in order), tuple(n.total for n in order),
                      tuple(n.proven for n in order))

    def simulation(self, search: Any, leaf: Any, leaf_kind: str, playout_plies: int, playout_end: str,
                   reward: float, end_state: Any = None) -> None:
        """Simulation number ``len(recorded) + 1`` ended at ``leaf`` and backed up ``reward`` (root player's view);
        called after the backpropagation."""
        ids = self._ids
        if ids is None or len(self._sims) >= self.max_simulations:
            return
        expanded = leaf not in ids
        path_nodes = []
        n = leaf.parent if expanded else leaf
        while n is not None:
            if n not in ids:  # below a reused node the recorder's bound left out: the record stops here
                self.max_simulations = len(self._sims)
                return
            path_nodes.append(n)
            n = n.parent
        path_nodes.reverse()
        number = len(self._sims) + 1
        if expanded:
            self._add(leaf, number)
            path_nodes.append(leaf)
        path = tuple(ids[x] for x in path_nodes)
        proofs: list[tuple[int, float]] = []
        if search.solver:
            for x, nid in zip(path_nodes, path):
                if x.proven != self._proven[nid]:
                    self._proven[nid] = x.proven
                    proofs.append((nid, x.proven))
        self._sims.append(SimulationRec(number, path, expanded, leaf_kind, playout_plies, playout_end, reward,
                                        tuple(proofs), *self._end(end_state)))

    def _end(self, end_state: Any) -> tuple[Any, float | None]:
        if not self.keep_ends or end_state is None:
            return None, None
        if not self.game.is_terminal(end_state):
            return end_state, None
        return end_state, float(self.game.utility(end_state, self._root_player))

    def end(self, search: Any, root: Any, best: Any, result: Any) -> None:
        """The search stopped: keep its final statistics of the recorded nodes and drop the live tree."""
        ids = self._ids or {}
        by_id = sorted(ids.items(), key=lambda kv: kv[1])
        self._final = (tuple(n.visits for n, _ in by_id), tuple(n.total for n, _ in by_id),
                       tuple(n.proven for n, _ in by_id))
        game = self.game
        self._meta = {
            "c": search.c, "root_player": search.root_player,
            "player_names": tuple(getattr(game, "player_names", ())), "playout": search.playout,
            "solver": search.solver, "total_simulations": search.stats.simulations,
            "total_nodes": result.nodes, "truncated": search.stats.simulations > len(self._sims),
            "best": ids.get(best), "game_name": getattr(game, "name", ""),
            "algorithm": "mcts-solver" if search.solver else "mcts",
            "payoffs": not getattr(getattr(game, "traits", None), "proven_terminals", True)}
        self._ids = None

    def snapshot(self, pv: Any = None) -> MCTSTrace:
        """The immutable record (``pv`` is accepted for the recorders' common call shape and not used).

        Raises:
            RuntimeError: the search has not finished (:meth:`end` not called).
        """
        if self._ids is not None or not self._meta:
            raise RuntimeError("the MCTS search has not finished: nothing to snapshot yet")
        if self._trace is None:
            extra = len(self._nodes) - len(self._base[0])
            base: Stats = (self._base[0] + (0,) * extra, self._base[1] + (0.0,) * extra,
                           self._base[2] + tuple(self._initial_proven[len(self._base[0]):]))
            self._trace = MCTSTrace(tuple(self._nodes), tuple(self._sims), base, self._final, **self._meta)
        return self._trace
