"""Tree recording: an observer a search calls at every node, giving the overlay an immutable snapshot.

The search (``ai.search.Searcher`` in negamax form, ``ai.expectimax``) calls ``enter`` when it reaches a node
and ``leave`` when it has its value, plus ``cutoff`` with the sibling moves it skipped. The recorder converts
every value and window to MAX's point of view (MAX = the side to move at the root), so the picture reads like
the textbook (AIMA figure 5.5): alpha and beta as MAX and MIN see them, values as exact numbers or bounds.

Bounds are derived honestly by interval arithmetic over the children: a node whose later children were cut off
is shown "at most v" (MIN) or "at least v" (MAX), never as a false exact value. A recorder is bounded in nodes
(``max_nodes``); past the bound nodes are still counted but not stored (``truncated``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from ai.search import MATE_BOUND, WIN

MAX, MIN, CHANCE = "MAX", "MIN", "CHANCE"
INF = math.inf


@dataclass(frozen=True)
class RecordedNode:
    """One node of a recorded search tree (values and windows from MAX's point of view)."""

    id: int
    parent: int | None
    kind: str
    """``MAX``, ``MIN`` or ``CHANCE``."""
    move: str | None
    """The move or chance outcome on the edge from the parent (game notation)."""
    probability: float | None
    """Edge probability when the parent is a chance node."""
    depth: int
    """Plies below the root."""
    alpha_in: float
    beta_in: float
    alpha_out: float
    beta_out: float
    lo: float
    """Lower end of what the search proved about the value (``-inf``: nothing)."""
    hi: float
    """Upper end (``+inf``: nothing)."""
    value: float
    """The value the search returned here (MAX's view)."""
    enter_order: int
    """Visit order (0 = root)."""
    leave_order: int
    children: tuple[int, ...]
    skipped: tuple[str, ...]
    """Moves of the children never searched because of a cut-off here."""
    note: str
    """``leaf``, ``terminal``, ``tt`` (transposition-table hit), ``repetition``, ``cutoff`` or ``""``."""
    on_pv: bool
    state: Any = None
    """The position (immutable), for the overlay's mini-board."""

    @property
    def exact(self) -> bool:
        return self.lo == self.hi

    def label(self) -> str:
        """``3``, ``<= 2`` or ``>= 5`` (bounds shown as bounds)."""
        if self.lo == self.hi:
            return _fmt(self.value)
        if self.lo == -INF and self.hi < INF:
            return f"<= {_fmt(self.hi)}"
        if self.hi == INF and self.lo > -INF:
            return f">= {_fmt(self.lo)}"
        return f"[{_fmt(self.lo)}, {_fmt(self.hi)}]"


def _fmt(v: float) -> str:
    if v == INF:
        return "+inf"
    if v == -INF:
        return "-inf"
    if abs(v) >= MATE_BOUND:  # a proven result: MAX wins (or loses) this many plies below the root
        return f"{'win' if v > 0 else 'loss'} in {int(round(WIN - abs(v)))}"
    if float(v).is_integer():
        return str(int(v))
    return f"{v:.3g}"


@dataclass(frozen=True)
class SearchTree:
    """Immutable snapshot of one decision's search."""

    nodes: tuple[RecordedNode, ...]
    """Stored nodes, indexed by id (root is 0)."""
    visited: int
    """Nodes visited (stored or not)."""
    leaves: int
    """Leaves evaluated (depth-limit evaluations and terminal positions)."""
    cutoffs: int
    tt_hits: int
    truncated: bool
    algorithm: str
    prune: str
    """Cutoff rule in force: ``ge`` (alpha >= beta) or ``gt``."""
    pv: tuple[str, ...]

    def text(self) -> str:
        """A plain-text trace in visiting order, one line per node (for handouts and tests)."""
        windows = self.algorithm == "alphabeta"
        rule = f" (cut-off when alpha {'>=' if self.prune == 'ge' else '>'} beta)" if windows else ""
        lines = [f"{self.algorithm}{rule}: {self.visited} nodes, {self.leaves} leaves, {self.cutoffs} cut-offs"]
        for n in sorted(self.nodes, key=lambda n: n.enter_order):
            ind = "  " * n.depth
            edge = "" if n.move is None else f"{n.move}" + (f" (p={n.probability:.3g})" if n.probability else "")
            win = f"a={_fmt(n.alpha_in)} b={_fmt(n.beta_in)}" if windows and n.kind != CHANCE else ""
            extra = f" pruned: {', '.join(n.skipped)}" if n.skipped else ""
            note = f" [{n.note}]" if n.note else ""
            kind = "leaf" if n.note in ("leaf", "terminal") else n.kind
            lines.append(f"{ind}{edge} {kind} {win} -> {n.label()}{note}{extra}".replace("  -> ", " -> "))
        if self.truncated:
            lines.append(f"... {self.visited - len(self.nodes)} more nodes not stored")
        return "\n".join(lines)


@dataclass
class _Open:
    id: int
    kids: list[int] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


class TreeRecorder:
    """Records a search. Pass it as ``recorder=`` to a search; call :meth:`snapshot` afterwards.

    Args:
        game: the game (for ``to_move``, ``is_chance``, ``format_move``).
        root_player: the player to move at the root (MAX).
        max_nodes: store at most this many nodes.
        keep_states: store each node's position (for mini-boards).
        algorithm: label for the counter panel.
        prune: the cutoff rule in force.
        negamax: the search reports values for the side to move at each node (``ai.search``); False when it
            reports them for the root player already (``ai.expectimax``).
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
        self._done: tuple[list[dict[str, Any]], int, int, int, int, bool] | None = None
        self._reset()

    def _reset(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self.stack: list[_Open | None] = []
        self.visited = 0
        self.leaves = 0
        self.cutoffs = 0
        self.tt_hits = 0
        self.order = 0
        self.truncated = False
        self._parent_states: list[Any] = []

    def begin_iteration(self) -> None:
        """Forget what was recorded (iterative deepening keeps only the last iteration)."""
        self._reset()

    # -- hooks the searches call ------------------------------------------------------------------------------
    def enter(self, state: Any, move: Any, alpha: float, beta: float, ply: int, *,
              kind: str | None = None, probability: float | None = None) -> None:
        """A node is reached. ``alpha``/``beta`` in the searching side's (negamax) view, or MAX's for CHANCE."""
        if ply == 0:
            self._reset()  # a new iteration (or search) starts at the root
        self.visited += 1
        g = self.game
        if kind is None:
            kind = CHANCE if g.is_chance(state) else (MAX if g.to_move(state) == self.root_player else MIN)
        if kind == MIN and self.negamax:
            a, b = -beta, -alpha
        else:
            a, b = alpha, beta
        parent_state = self._parent_states[-1] if self._parent_states else None
        self._parent_states.append(state)
        if len(self.rows) >= self.max_nodes or (self.stack and self.stack[-1] is None):
            self.truncated = True
            self.stack.append(None)
            return
        label = None
        if move is not None and parent_state is not None:
            try:
                label = g.format_move(parent_state, move)
            except Exception:  # noqa: BLE001 - a label is never worth failing a search for
                label = str(move)
        nid = len(self.rows)
        parent = self.stack[-1].id if self.stack and self.stack[-1] is not None else None
        if parent is not None:
            self.stack[-1].kids.append(nid)  # type: ignore[union-attr]
        self.rows.append({"id": nid, "parent": parent, "kind": kind, "move": label, "raw_move": move,
                          "probability": probability, "depth": ply, "alpha_in": a, "beta_in": b,
                          "enter_order": self.order, "state": state if self.keep_states else None})
        self.order += 1
        self.stack.append(_Open(nid))

    def cutoff(self, skipped_moves: list[Any]) -> None:
        """The node being searched stopped early; ``skipped_moves`` were never searched."""
        self.cutoffs += 1
        top = self.stack[-1] if self.stack else None
        if top is None:
            return
        st = self._parent_states[-1]
        for m in skipped_moves:
            try:
                top.skipped.append(self.game.format_move(st, m))
            except Exception:  # noqa: BLE001
                top.skipped.append(str(m))

    def leave(self, value: float, flag: int, alpha: float, beta: float, *, note: str = "",
              best_move: Any = None) -> None:
        """The node's value is known. ``value``/``alpha``/``beta`` in the searching side's view (MAX's for
        CHANCE); ``flag`` is the search's own bound flag (0 exact, 1 lower, 2 upper), used for table hits."""
        self._parent_states.pop()
        top = self.stack.pop()
        if note in ("leaf", "terminal"):
            self.leaves += 1
        if note == "tt":
            self.tt_hits += 1
        if top is None:
            return
        row = self.rows[top.id]
        kind = row["kind"]
        neg = kind == MIN and self.negamax
        v = -value if neg else value
        a, b = (-beta, -alpha) if neg else (alpha, beta)
        lo, hi = self._interval(row, top, v, flag, note, neg)
        row.update({"value": v, "alpha_out": a, "beta_out": b, "lo": lo, "hi": hi, "leave_order": self.order,
                    "children": tuple(top.kids), "skipped": tuple(top.skipped),
                    "note": note or ("cutoff" if top.skipped else ""), "best_move": best_move})
        self.order += 1
        if top.id == 0:  # the root is done: this iteration is complete
            self._done = (self.rows, self.visited, self.leaves, self.cutoffs, self.tt_hits, self.truncated)

    def _interval(self, row: dict[str, Any], top: _Open, v: float, flag: int, note: str, neg: bool
                  ) -> tuple[float, float]:
        kind = row["kind"]
        if note in ("leaf", "terminal", "repetition"):
            return v, v
        if note == "tt" or not top.kids:
            if flag == 0:
                return v, v
            lower = (flag == 1) != neg  # a negamax lower bound at a MIN node is an upper bound for MAX
            return (v, INF) if lower else (-INF, v)
        kids = [self.rows[k] for k in top.kids]
        if kind == CHANCE:
            probs = [k["probability"] or 0.0 for k in kids]
            lo = sum(p * k["lo"] for p, k in zip(probs, kids)) if all(k["lo"] > -INF for k in kids) else -INF
            hi = sum(p * k["hi"] for p, k in zip(probs, kids)) if all(k["hi"] < INF for k in kids) else INF
            return lo, hi
        los = [k["lo"] for k in kids]
        his = [k["hi"] for k in kids]
        if top.skipped:
            (los if kind == MIN else his).append(-INF if kind == MIN else INF)
        if kind == MAX:
            return max(los), max(his)
        return min(los), min(his)

    # -- result -------------------------------------------------------------------------------------------------
    def snapshot(self, pv: tuple[Any, ...] = ()) -> SearchTree:
        """The immutable tree of the last completed search (iteration), with the principal variation marked."""
        if self._done is not None:
            self.rows, self.visited, self.leaves, self.cutoffs, self.tt_hits, self.truncated = self._done
        on_pv: set[int] = set()
        pv_labels: list[str] = []
        if self.rows and "value" in self.rows[0]:
            on_pv.add(0)
            cur = self.rows[0]
            for m in pv:
                nxt = next((self.rows[k] for k in cur.get("children", ()) if self.rows[k]["raw_move"] == m), None)
                if nxt is None:
                    break
                on_pv.add(nxt["id"])
                pv_labels.append(nxt["move"] or str(m))
                cur = nxt
        nodes = []
        for r in self.rows:
            if "value" not in r:  # interrupted before it finished: not part of a completed search
                continue
            nodes.append(RecordedNode(
                r["id"], r["parent"], r["kind"], r["move"], r["probability"], r["depth"], r["alpha_in"],
                r["beta_in"], r["alpha_out"], r["beta_out"], r["lo"], r["hi"], r["value"], r["enter_order"],
                r["leave_order"], r["children"], r["skipped"], r["note"], r["id"] in on_pv, r["state"]))
        return SearchTree(tuple(nodes), self.visited, self.leaves, self.cutoffs, self.tt_hits, self.truncated,
                          self.algorithm, self.prune, tuple(pv_labels))


def pruned_paths(tree: SearchTree, move_key: Callable[[RecordedNode], Any] = lambda n: n.move) -> list[list[str]]:
    """Paths (edge labels from the root) of the subtrees cut off, in visiting order."""
    by_id = {n.id: n for n in tree.nodes}

    def path(n: RecordedNode) -> list[str]:
        out: list[str] = []
        while n.parent is not None:
            out.append(str(move_key(n)))
            n = by_id[n.parent]
        return out[::-1]

    res: list[list[str]] = []
    for n in sorted(tree.nodes, key=lambda n: n.enter_order):
        for s in n.skipped:
            res.append(path(n) + [s])
    return res
