"""The recorders that keep a tree: an observer a search calls at every node, logging, and the tree built from it.

The search (``ai.kernel.search.Searcher`` in negamax form, ``ai.kernel.expectimax``) calls ``enter`` when it reaches a
node and ``leave`` when it has its value, plus ``cutoff`` with the sibling moves it skipped and ``depth_changed`` when a
node is searched deeper or shallower than its parent less one (the hooks of
:class:`ai.kernel.core.Recorder`). :class:`TreeRecorder` appends one record per hook to a :class:`Log` (a fraction of a
microsecond) and builds the immutable :class:`ai.kernel.recording.SearchTree` from the log only when a snapshot is asked
for, converting every value and window to MAX's point of view (MAX = the side to move at the root).

A move searched again under the same node (principal-variation search's re-search after its null-window test failed
high, a late-move reduction's full-depth search after its shallower test, an aspiration round at the root) is one
node: the snapshot merges the rows of its passes into one :class:`~ai.kernel.recording.RecordedNode` with its
``passes`` (:class:`~ai.kernel.recording.SearchPass`), whose bound is what they proved together
(:func:`~ai.kernel.recording.merged_bounds`), and its parent's bound is computed from that.

Bounds are derived honestly by interval arithmetic over the children: a node whose later children were cut off
is shown "at most v" (MIN) or "at least v" (MAX), never as a false exact value. A recorder is bounded in nodes
(``max_nodes``); past the bound it hands the search the do-nothing recorder (:data:`ai.kernel.recording.NULL_RECORDER`)
for the rest of the iteration (``truncated``), so recording costs at most ``max_nodes`` node visits' worth of
bookkeeping per iteration. Moves are written in the game's notation only when the snapshot is taken.

Every hook logs the search's own node counter (``search.stats.nodes`` of the search handed to
``begin_iteration``; the recorder's own count of ``enter`` calls without one), so each recorded node knows how
many nodes were visited below it and not stored (:attr:`ai.kernel.recording.RecordedNode.unrecorded` and
:attr:`~ai.kernel.recording.RecordedNode.capture`).

:class:`DecisionRecorder` is the one recorded model of a decision that the overlay, the side panel, ``analyze``,
``tree`` and the exports present: which iterations the search completed and how many nodes each visited, which
one is shown (the deepest that was recorded whole), and the totals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple, get_type_hints

from ai.kernel.core import RecordedSearch, Recorder
from ai.kernel.recording import (
    CHANCE,
    INF,
    MAX,
    MIN,
    NULL_RECORDER,
    RecordedNode,
    SearchPass,
    SearchTree,
    merged_bounds,
    pass_kind,
)


@dataclass
class _Open:
    id: int
    kids: list[int] = field(default_factory=list)
    skipped: list[Any] = field(default_factory=list)


class Entered(NamedTuple):
    """Log entry of ``enter``: the search reached a node (arguments as the search gave them)."""

    state: Any
    move: Any
    alpha: float
    beta: float
    ply: int
    kind: str | None
    probability: float | None
    node_count: int
    """The search's node counter at the hook (the node itself counted)."""
    reduced: int


class Left(NamedTuple):
    """Log entry of ``leave``: the node entered last has its value."""

    value: float
    flag: int
    alpha: float
    beta: float
    note: str
    best_move: Any
    node_count: int
    """The search's node counter at the hook."""


class Cut(NamedTuple):
    """Log entry of ``cutoff``: the node being searched stopped before these moves."""

    skipped: Sequence[Any]


class Deepened(NamedTuple):
    """Log entry of ``depth_changed``: the node entered last is searched ``plies`` deeper (negative: shallower)."""

    plies: int
    reason: str


class Log(list[Entered | Left | Cut | Deepened]):
    """An iteration as the search reported it, hook by hook in order.

    Pickled as plain tuples (the decision worker process sends its recorder back after every decision, and
    named records pickle several times slower than tuples); read back as the same records.
    """

    def __reduce__(self) -> tuple[Callable[[list[tuple[Any, ...]]], Log], tuple[list[tuple[Any, ...]]]]:
        return _unpickle_log, ([tuple(e) for e in self],)


_RECORDS: dict[int, type[Entered | Left | Cut | Deepened]] = {
    len(get_type_hints(r)): r for r in (Entered, Left, Cut, Deepened)}
"""Each log record by its number of fields (all differ)."""
_new_record = tuple.__new__


def _unpickle_log(rows: list[tuple[Any, ...]]) -> Log:
    """A :class:`Log` from the plain tuples :meth:`Log.__reduce__` wrote."""
    return Log(_new_record(_RECORDS[len(r)], r) for r in rows)


class TreeRecorder:
    """Records a search (an :class:`ai.kernel.core.IterationRecorder`). Pass it as ``recorder=`` to a search; call
    :meth:`snapshot` afterwards.

    During the search each hook appends one tuple to a log (a fraction of a microsecond); the tree is built
    from the log only when a snapshot is asked for, so recording costs the search little.

    Args:
        game: the game (for ``to_move``, ``is_chance``, ``format_move``, ``traits``).
        root_player: the player to move at the root (MAX).
        max_nodes: store at most this many nodes per iteration.
        keep_states: store each node's position (for mini-boards).
        algorithm: label for the counter panel.
        prune: the cutoff rule in force.
        negamax: the search reports values for the side to move at each node (``ai.kernel.search``); False when it
            reports them for the root player already (``ai.kernel.expectimax``).
    """

    def __init__(self, game: Any, root_player: int, *, max_nodes: int = 20_000, keep_states: bool = True,
                 algorithm: str = "alphabeta", prune: str = "ge", negamax: bool = True) -> None:
        self.game = game
        self.root_player = root_player
        self.max_nodes = max_nodes
        self.keep_states = keep_states
        self.algorithm = algorithm
        self.prune = prune
        self.negamax = negamax
        self.proofs = bool(getattr(getattr(game, "traits", None), "proven_terminals", True))
        self._search: RecordedSearch | None = None
        """The search of the running iteration, when ``begin_iteration`` was given it (its counters, ``stats.nodes``,
        are what the log keeps)."""
        self._done: tuple[Log, int, bool] | None = None
        """The last completed iteration: its log, the nodes the search visited in it, whether it was cut short."""
        self._done_depth = 0
        self._reset()

    def _reset(self) -> None:
        self.log = Log()
        self.visited = 0
        """Nodes entered in the current iteration (recorded or not)."""
        self.truncated = False
        self._ignored = 0
        self._logged = 0
        self._open = 0

    # -- iterations (called by ai.kernel.deepen) -----------------------------------------------------------------------
    def begin_iteration(self, depth: int, search: RecordedSearch | None = None) -> Recorder:
        """An iteration starts: forget the log of an unfinished one and return the observer for it (this
        recorder; a subclass may return :data:`NULL_RECORDER` to skip the iteration). ``search`` is the search
        object, whose ``rec`` is set to the do-nothing recorder when this one fills up, and whose node counter
        ``stats.nodes`` the log keeps (for the nodes below each recorded one that were not stored)."""
        self._reset()
        self._search = search
        return self

    def end_iteration(self, depth: int, nodes: int, completed: bool) -> None:
        """An iteration ended (``completed`` False: interrupted, its log is dropped). ``nodes`` is the
        search's own count of the iteration (quiescence included), which the snapshot reports as ``visited``."""
        if completed and self._done is not None and self._done[0] is self.log:
            self._done = (self.log, nodes, self._done[2])
            self._done_depth = depth
        self._search = None

    # -- hooks the searches call ------------------------------------------------------------------------------
    def enter(self, state: object, move: object, alpha: float, beta: float, ply: int, *,
              kind: str | None = None, probability: float | None = None, reduced: int = 0) -> None:
        """A node is reached. ``alpha``/``beta`` in the searching side's (negamax) view, or MAX's for CHANCE."""
        if ply == 0:
            self._reset()  # a new iteration (or search) starts at the root
        self.visited += 1
        if self._ignored or self._logged >= self.max_nodes:
            self._ignored += 1
            if not self.truncated:
                self.truncated = True
                if self._search is not None:
                    self._search.rec = NULL_RECORDER  # deeper nodes of this iteration are not observed
            return
        self._logged += 1
        self._open += 1
        search = self._search
        self.log.append(Entered(state, move, alpha, beta, ply, kind, probability,
                                self.visited if search is None else search.stats.nodes, reduced))

    def cutoff(self, skipped_moves: Sequence[object]) -> None:
        """The node being searched stopped early; ``skipped_moves`` were never searched."""
        if self._ignored:
            return
        self.log.append(Cut(skipped_moves))

    def depth_changed(self, plies: int, reason: str) -> None:
        """The node entered last is searched ``plies`` deeper (negative: shallower); ``reason`` says why."""
        if not self._ignored:
            self.log.append(Deepened(plies, reason))

    def leave(self, value: float, flag: int, alpha: float, beta: float, *, note: str = "",
              best_move: object = None) -> None:
        """The node's value is known. ``value``/``alpha``/``beta`` in the searching side's view (MAX's for
        CHANCE); ``flag`` is the search's own bound flag (0 exact, 1 lower, 2 upper), used for table hits."""
        if self._ignored:
            self._ignored -= 1
            return
        search = self._search
        self.log.append(Left(value, flag, alpha, beta, note, best_move,
                             self.visited if search is None else search.stats.nodes))
        self._open -= 1
        if not self._open:  # the root has just been left: the iteration is complete
            self._done = (self.log, self.visited, self.truncated)

    # -- building the tree from a log ---------------------------------------------------------------------------
    def build(self, log: Log) -> tuple[list[dict[str, Any]], int, int, int]:
        """The rows of a logged iteration (one dict per node, ids in visiting order) and its counts
        ``(leaves, cut-offs, table or memo hits)``."""
        rows: list[dict[str, Any]] = []
        stack: list[_Open] = []
        states: list[Any] = []
        leaves = cutoffs = hits = order = 0
        g = self.game
        for e in log:
            if isinstance(e, Entered):
                state, move, alpha, beta, ply, kind, probability, count, reduced = e
                if kind is None:
                    kind = CHANCE if g.is_chance(state) else (MAX if g.to_move(state) == self.root_player else MIN)
                a, b = (-beta, -alpha) if kind == MIN and self.negamax else (alpha, beta)
                nid = len(rows)
                top = stack[-1] if stack else None
                first = None
                if top is not None:
                    # the same move searched again under the same node (principal-variation search's re-search
                    # after its null-window test, an aspiration round): another pass of that child, not a new one
                    first = next((k for k in reversed(top.kids) if move is not None
                                  and rows[k]["raw_move"] == move), None)
                    if first is None:
                        top.kids.append(nid)
                    else:
                        rows[first]["passes"].append(nid)
                rows.append({"id": nid, "parent": None if top is None else top.id, "kind": kind, "move": None,
                             "raw_move": move, "parent_state": states[-1] if states else None,
                             "probability": probability, "depth": ply, "alpha_in": a, "beta_in": b,
                             "enter_order": order, "state": state if self.keep_states else None,
                             "count_in": count, "reduced": reduced, "depth_change": 0, "depth_reasons": (),
                             "pass_of": first, "passes": [nid]})
                order += 1
                stack.append(_Open(nid))
                states.append(state)
            elif isinstance(e, Deepened):
                row = rows[stack[-1].id]
                row["depth_change"] += e.plies
                row["depth_reasons"] += (e.reason,)
            elif isinstance(e, Cut):
                if e.skipped:
                    cutoffs += 1  # a cut-off at the last move prunes nothing: the picture draws none
                if e.skipped and stack:
                    stack[-1].skipped.append((states[-1], e.skipped))
            else:
                value, flag, alpha, beta, note, best_move, count = e
                top = stack.pop()
                states.pop()
                if note in ("leaf", "terminal", "database"):
                    leaves += 1
                elif note in ("tt", "memo", "etc"):
                    hits += 1
                row = rows[top.id]
                neg = row["kind"] == MIN and self.negamax
                v = -value if neg else value
                a, b = (-beta, -alpha) if neg else (alpha, beta)
                lo, hi = self._interval(rows, row, top, v, flag, note, neg)
                row.update({"value": v, "alpha_out": a, "beta_out": b, "lo": lo, "hi": hi, "leave_order": order,
                            "children": tuple(top.kids), "skipped": tuple(top.skipped),
                            "note": note or ("cutoff" if top.skipped else ""),
                            "best_move": best_move, "count_out": count})
                node = rows[row["pass_of"] if row["pass_of"] is not None else top.id]
                if len(node["passes"]) > 1:  # another pass of a node: what its passes proved together
                    node["merged"] = merged_bounds([_pass(rows[k], i) for i, k in enumerate(node["passes"])
                                                    if "value" in rows[k]])
                order += 1
        return rows, leaves, cutoffs, hits

    def _interval(self, rows: list[dict[str, Any]], row: dict[str, Any], top: _Open, v: float, flag: int,
                  note: str, neg: bool) -> tuple[float, float]:
        kind = row["kind"]
        if note in ("leaf", "terminal", "repetition", "database"):
            return v, v
        if flag == 0 and row["alpha_in"] < v < row["beta_in"]:
            return v, v  # fail-soft alpha-beta: a value strictly inside the node's window is exact
        if note in ("tt", "memo", "etc") or not top.kids:
            if flag == 0:
                return v, v
            lower = (flag == 1) != neg  # a negamax lower bound at a MIN node is an upper bound for MAX
            return (v, INF) if lower else (-INF, v)
        kids = [rows[k] for k in top.kids if "value" in rows[k]]
        bounds = [k.get("merged", (k["lo"], k["hi"])) for k in kids]  # a re-searched child: all its passes proved
        if kind == CHANCE:
            probs = [k["probability"] or 0.0 for k in kids]
            lo = sum(p * b[0] for p, b in zip(probs, bounds)) if all(b[0] > -INF for b in bounds) else -INF
            hi = sum(p * b[1] for p, b in zip(probs, bounds)) if all(b[1] < INF for b in bounds) else INF
            return lo, hi
        los = [b[0] for b in bounds]
        his = [b[1] for b in bounds]
        if top.skipped:
            (los if kind == MIN else his).append(-INF if kind == MIN else INF)
        if kind == MAX:
            return max(los), max(his)
        return min(los), min(his)

    # -- result -------------------------------------------------------------------------------------------------
    def _label(self, state: Any, move: Any) -> str:
        try:
            return str(self.game.format_move(state, move))
        except Exception:  # noqa: BLE001 - a label is never worth failing a snapshot for
            return str(move)

    def _tree(self, done: tuple[Log, int, bool], pv: tuple[Any, ...] | None, depth: int, total: int) -> SearchTree:
        log, visited, truncated = done
        rows, leaves, cutoffs, hits = self.build(log)
        # one node per child searched: the rows of its passes (a null-window test, its re-search) make one node
        firsts = [r for r in rows if r["pass_of"] is None and "value" in r]
        new_id = {r["id"]: i for i, r in enumerate(firsts)}
        node_of = {k: new_id[r["id"]] for r in firsts for k in r["passes"]}  # any pass's row -> its node's id
        last = {r["id"]: rows[[k for k in r["passes"] if "value" in rows[k]][-1]] for r in firsts}
        if pv is None:
            pv = best_line(rows, last)
        on_pv: set[int] = set()
        pv_labels: list[str] = []
        if firsts and firsts[0]["id"] == 0:
            on_pv.add(0)
            cur = last[0]
            for m in pv:
                nxt = next((rows[k] for k in reversed(cur.get("children", ())) if rows[k]["raw_move"] == m
                            and k in last), None)
                if nxt is None:
                    break
                on_pv.add(nxt["id"])
                pv_labels.append(self._row_label(nxt) or str(m))
                cur = last[nxt["id"]]
        # nodes the search counted in each finished pass's subtree, the pass itself included, and in each node's
        below = {r["id"]: r["count_out"] - r["count_in"] + 1 for r in rows if "value" in r}
        below_node = {r["id"]: sum(below.get(k, 0) for k in r["passes"]) for r in firsts}
        nodes = []
        for r in firsts:
            passes = [rows[k] for k in r["passes"] if "value" in rows[k]]
            unrecorded = capture = 0
            for p in passes:
                # counted below it but stored nowhere: a leaf's capture search, or what the bound cut from recording
                extra = below[p["id"]] - 1 - sum(below_node[k] for k in p["children"] if k in below_node)
                if p["note"] == "leaf":
                    capture += extra
                else:
                    unrecorded += extra
            f = last[r["id"]]
            kept = tuple(new_id[k] for k in f["children"] if k in new_id)
            skipped = self._skipped(f)
            lo, hi, value = f["lo"], f["hi"], f["value"]
            searches: tuple[SearchPass, ...] = ()
            if len(passes) > 1:
                searches = tuple(_pass(p, i, tuple(new_id[k] for k in p["children"] if k in new_id),
                                       self._skipped(p)) for i, p in enumerate(passes))
                lo, hi = merged_bounds(searches)
                value = lo if lo == hi else value
            parent = None if r["parent"] is None else node_of.get(r["parent"])
            nodes.append(RecordedNode(
                new_id[r["id"]], parent, r["kind"], self._row_label(r), r["probability"], r["depth"],
                f["alpha_in"], f["beta_in"], f["alpha_out"], f["beta_out"], lo, hi, value, r["enter_order"],
                f["leave_order"], kept, skipped, f["note"], r["id"] in on_pv, f["state"], self.proofs,
                unrecorded, capture, f["reduced"], f["depth_change"], f["depth_reasons"], passes=searches))
        return SearchTree(tuple(nodes), visited, leaves, cutoffs, hits, truncated, self.algorithm, self.prune,
                          tuple(pv_labels), depth, total, self.proofs)

    def _skipped(self, row: dict[str, Any]) -> tuple[str, ...]:
        """The moves a pass's cut-off skipped, in the game's notation."""
        return tuple(self._label(st, m) for st, ms in row["skipped"] for m in ms)

    def _row_label(self, r: dict[str, Any]) -> str | None:
        if r["move"] is None and r["raw_move"] is not None and r["parent_state"] is not None:
            r["move"] = self._label(r["parent_state"], r["raw_move"])
        return r["move"]  # type: ignore[no-any-return]

    def snapshot(self, pv: tuple[Any, ...] = (), total_nodes: int = 0) -> SearchTree:
        """The immutable tree of the last completed search (iteration), with the principal variation ``pv``
        marked."""
        done = self._done if self._done is not None else (self.log, self.visited, self.truncated)
        return self._tree(done, pv, self._done_depth, total_nodes)


@dataclass(frozen=True)
class IterationRecord:
    """One iteration of a decision as the recorder saw it."""

    depth: int
    """Plies (decisions for expectimax)."""
    nodes: int
    """Nodes the search visited in this iteration (quiescence included); for an interrupted one, until then."""
    status: str
    """``whole`` (recorded completely), ``truncated`` (more nodes than ``max_nodes``), ``skipped`` (not
    recorded: predicted to be larger than the recorder keeps) or ``interrupted`` (the time ran out)."""


class DecisionRecorder(TreeRecorder):
    """The recorded model of one AI decision: every iteration's node count, and the tree of the deepest
    iteration that was recorded whole.

    Iterative deepening runs depth 1, 2, ...; a deeper iteration usually visits more nodes than the recorder
    may store. The recorder predicts an iteration's size from the last two (the effective branching factor) and
    records it only when it may fit (``skip_factor`` times ``max_nodes``), so in a long search almost every node
    runs with the do-nothing recorder; an iteration that overflows anyway is abandoned at ``max_nodes``.

    Attributes:
        iteration_records: one :class:`IterationRecord` per iteration begun, in order.
        iterations: completed iterations.
        fit_iteration: depth of the iteration the snapshot shows (0: none was recorded whole; then the first
            ``max_nodes`` nodes of the first iteration are shown).
    """

    skip_factor = 2.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.iteration_records: list[IterationRecord] = []
        self.iterations = 0
        self.fit_iteration = 0
        self._fit: tuple[Log, int, bool] | None = None
        self._partial: tuple[Log, int, bool] | None = None
        self._recording = False

    def begin_iteration(self, depth: int, search: RecordedSearch | None = None) -> Recorder:
        done = [r for r in self.iteration_records if r.status != "interrupted"]
        if any(r.status in ("truncated", "skipped") for r in done):
            self._recording = False
            return NULL_RECORDER  # a deeper iteration will not fit either
        if len(done) >= 2:
            growth = max(1.0, done[-1].nodes / max(1, done[-2].nodes))
            if done[-1].nodes * growth > self.skip_factor * self.max_nodes:
                self._recording = False
                return NULL_RECORDER
        self._recording = True
        return super().begin_iteration(depth, search)

    def end_iteration(self, depth: int, nodes: int, completed: bool) -> None:
        recording = self._recording
        self._recording = False
        if not completed:
            self.iteration_records.append(IterationRecord(depth, nodes, "interrupted"))
            self._search = None
            return
        self.iterations += 1
        if not recording:
            self.iteration_records.append(IterationRecord(depth, nodes, "skipped"))
            return
        super().end_iteration(depth, nodes, completed)
        assert self._done is not None
        if self.truncated:
            self.iteration_records.append(IterationRecord(depth, nodes, "truncated"))
            if self._fit is None and self._partial is None:
                self._partial = self._done
        else:
            self.iteration_records.append(IterationRecord(depth, nodes, "whole"))
            self._fit = self._done
            self.fit_iteration = depth

    @property
    def total_nodes(self) -> int:
        """Nodes of the whole decision so far (every iteration, the interrupted one included)."""
        return sum(r.nodes for r in self.iteration_records)

    def iteration_nodes(self, depth: int) -> int:
        """Nodes the search visited in the completed iteration at ``depth`` (0 if there is none)."""
        return next((r.nodes for r in self.iteration_records if r.depth == depth and r.status != "interrupted"), 0)

    def snapshot(self, pv: tuple[Any, ...] = (), total_nodes: int = 0) -> SearchTree:
        """The tree of the deepest iteration recorded whole, its principal variation marked from its own best
        moves; ``total_nodes`` defaults to the decision's own total."""
        total = total_nodes or self.total_nodes
        if self._fit is not None:
            return self._tree(self._fit, None, self.fit_iteration, total)
        if self._partial is not None:
            first = next((r.depth for r in self.iteration_records if r.status == "truncated"), 0)
            return self._tree(self._partial, None, first, total)
        return super().snapshot(pv, total)


def best_line(rows: Any, last: dict[int, Any] | None = None) -> tuple[Any, ...]:
    """Follow each recorded node's best move from the root (the iteration's own principal variation); ``last``:
    the row of each node's last pass by the node's first row id (a re-searched node continues from its re-search)."""
    out: list[Any] = []
    if not rows or "value" not in rows[0]:
        return ()
    cur = rows[0]
    while cur.get("best_move") is not None:
        nxt = next((rows[k] for k in reversed(cur.get("children", ())) if rows[k]["raw_move"] == cur["best_move"]),
                   None)
        if nxt is None or "value" not in nxt:
            break
        out.append(cur["best_move"])
        cur = last.get(nxt["id"], nxt) if last is not None else nxt
    return tuple(out)


def _pass(row: dict[str, Any], index: int, children: tuple[int, ...] = (), skipped: tuple[str, ...] = ()
          ) -> SearchPass:
    """One search of a node (:class:`ai.kernel.recording.SearchPass`) from its row (``index``: 0 for the first);
    ``children`` the node ids of its children, ``skipped`` its pruned moves in the game's notation."""
    a, b, reduced = row["alpha_in"], row["beta_in"], row["reduced"]
    return SearchPass(pass_kind(index, a, b, reduced), a, b, row["alpha_out"], row["beta_out"], row["lo"], row["hi"],
                      row["value"], row["enter_order"], row["leave_order"], children, skipped, row["note"], reduced,
                      row["depth_change"], row["depth_reasons"])
