"""The recorded search tree: the immutable snapshot a recorder hands the overlay, the side panel, the exports.

A search (``ai.kernel.search.Searcher`` in negamax form, ``ai.kernel.expectimax``) calls a recorder at every node (the
hooks of :class:`ai.kernel.core.Recorder`); the recorders that keep a tree (:mod:`ai.teaching.tree_recorder`) log those
calls and build from the log the :class:`SearchTree` of this module: one :class:`RecordedNode` per stored node, every
value and window converted to MAX's point of view (MAX = the side to move at the root), so the picture reads like the
textbook (AIMA figure 5.5): alpha and beta as MAX and MIN see them, values as exact numbers or bounds
(:meth:`RecordedNode.label`: ``3``, ``<= 2``, ``>= 5``). Moves are in the game's notation.

Recording never changes what the search does: the same algorithm runs (principal-variation search, the table,
quiescence) whether a recorder observes it or :data:`NULL_RECORDER` stands in (the alpha-beta search then skips the
calls altogether: two calls a node cost it 11% of its speed, measured 2026-12-04).

Nothing the search counted is lost from the picture's arithmetic: each recorded node knows how many nodes were
visited below it and not stored. Those split in two: :attr:`RecordedNode.unrecorded`, nodes the search visited
below it after the recorder's bound stopped recording (their capture search included), and
:attr:`RecordedNode.capture`, the capture (quiescence) search below a recorded leaf, which is never recorded by
design (the leaf's value is its result). For every snapshot ``len(nodes) + sum(unrecorded) + sum(capture) ==
visited``; for a whole iteration ``sum(capture)`` is :attr:`ai.teaching.decision_tree.DecisionCounts.capture_nodes`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Callable

from ai.kernel.numbers import cutoff_text, plural
from ai.kernel.numbers import number_text as number_text  # the number forms live in ai.kernel.numbers (re-exported)
from ai.kernel.numbers import value_label as value_label

MAX, MIN, CHANCE = "MAX", "MIN", "CHANCE"
INF = math.inf


class NullRecorder:
    """The do-nothing recorder (an :class:`ai.kernel.core.Recorder`): what a search holds when nothing records
    (expectimax calls it at every node; ``ai.kernel.search.Searcher`` recognises it and makes no call)."""

    active = False

    def enter(self, state: object, move: object, alpha: float, beta: float, ply: int, *,
              kind: str | None = None, probability: float | None = None, reduced: int = 0) -> None:
        """A node is reached (ignored)."""

    def leave(self, value: float, flag: int, alpha: float, beta: float, *, note: str = "",
              best_move: object = None) -> None:
        """A node's value is known (ignored)."""

    def cutoff(self, skipped_moves: Sequence[object]) -> None:
        """A cut-off happened (ignored)."""

    def depth_changed(self, plies: int, reason: str) -> None:
        """A node's depth was changed (ignored)."""


NULL_RECORDER = NullRecorder()
"""The shared do-nothing recorder."""


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
    proofs: bool = True
    """Values in the proof band read "win in N" (False for the Tree Lab's raw payoffs)."""
    unrecorded: int = 0
    """Nodes the search visited below this one that were not stored because the recorder's bound
    (``max_nodes``) was reached (their capture search included); 0 in a tree recorded whole."""
    capture: int = 0
    """A leaf's capture (quiescence) search: nodes the search counted below it, never recorded by design."""
    reduced: int = 0
    """Plies a late-move reduction took off this null-window test (0: searched at the full depth)."""
    depth_change: int = 0
    """Plies this node was searched deeper (positive) or shallower (negative) than one less than its parent, besides
    a late-move reduction: material truncation (``truncate``), plies truncated above given back, a forced-reply
    extension (``extend``); 0: the nominal depth."""
    depth_reasons: tuple[str, ...] = ()
    """Why, in order: ``truncation``, ``given back``, ``extension`` (empty when ``depth_change`` is 0)."""

    def depth_text(self) -> str:
        """The depth change in words for the picture's line under the node (``truncated: 2 plies shallower``,
        ``2 plies given back``, ``extended 1 ply (forced)``, or joined when several apply); ``""`` when none."""
        return depth_change_text(self.depth_change, self.depth_reasons)

    @property
    def exact(self) -> bool:
        return self.lo == self.hi

    def label(self) -> str:
        """``3``, ``<= 2`` or ``>= 5`` (bounds shown as bounds)."""
        p = self.proofs
        if self.lo == self.hi:
            return value_label(self.value, p)
        if self.lo == -INF and self.hi < INF:
            return f"<= {value_label(self.hi, p)}"
        if self.hi == INF and self.lo > -INF:
            return f">= {value_label(self.lo, p)}"
        return f"[{value_label(self.lo, p)}, {value_label(self.hi, p)}]"


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
    """Cut-offs as the picture draws them: recorded nodes where the search stopped before the last move, pruning
    the rest (:data:`ai.kernel.numbers.CUTOFF_MEANING`); a cut-off test met at a node's last move prunes nothing and is
    not counted. The subtrees they pruned are :attr:`pruned_subtrees`."""
    tt_hits: int
    truncated: bool
    algorithm: str
    prune: str
    """Cutoff rule in force: ``ge`` (alpha >= beta) or ``gt``."""
    pv: tuple[str, ...]
    depth: int = 0
    """The iteration's depth (plies, or decisions for expectimax); 0 when unknown."""
    total_nodes: int = 0
    """Nodes the whole decision visited (every iteration, quiescence included); 0 when unknown."""
    proofs: bool = True
    """Values in the proof band read "win in N" (False for the Tree Lab's raw payoffs)."""

    @property
    def pruned_subtrees(self) -> int:
        """Subtrees the cut-offs pruned (moves never searched; ``len`` of ``tree --json``'s ``pruned``)."""
        return sum(len(n.skipped) for n in self.nodes)

    def text(self) -> str:
        """A plain-text trace in visiting order, one line per node (for handouts and tests)."""
        windows = self.algorithm == "alphabeta"
        rule = f" (cut-off when alpha {'>=' if self.prune == 'ge' else '>'} beta)" if windows else ""
        lines = [f"{self.algorithm}{rule}: {self.visited:,} nodes visited in this iteration, {self.leaves:,} leaves, "
                 f"{cutoff_text(self.cutoffs, self.pruned_subtrees)}"]
        for n in sorted(self.nodes, key=lambda n: n.enter_order):
            ind = "  " * n.depth
            edge = "" if n.move is None else f"{n.move}" + (f" (p={n.probability:.3g})" if n.probability else "")
            p = self.proofs
            win = (f"a={value_label(n.alpha_in, p)} b={value_label(n.beta_in, p)}"
                   if windows and n.kind != CHANCE else "")
            extra = f" pruned: {', '.join(n.skipped)}" if n.skipped else ""
            note = f" [{n.note}]" if n.note else ""
            if n.depth_change:
                note += f" [{n.depth_text()}]"
            kind = "leaf" if n.note in ("leaf", "terminal") else n.kind
            lines.append(f"{ind}{edge} {kind} {win} -> {n.label()}{note}{extra}".replace("  -> ", " -> "))
        if self.truncated:
            lines.append(f"... {self.visited - len(self.nodes):,} more nodes not stored")
        return "\n".join(lines)


def depth_change_text(change: int, reasons: Sequence[str]) -> str:
    """Words for a node's depth change (:attr:`RecordedNode.depth_change`) and its ``reasons``: one reason gives
    ``truncated: 2 plies shallower``, ``2 plies given back`` or ``extended 1 ply (forced)``; several give the net
    change with the reasons (``depth +3: given back, extension``); ``""`` for no change."""
    if not change:
        return ""
    if len(reasons) == 1:
        if reasons[0] == "truncation":
            return f"truncated: {plural(-change, 'ply', 'plies')} shallower"
        if reasons[0] == "given back":
            return f"{plural(change, 'ply', 'plies')} given back"
        if reasons[0] == "extension":
            return f"extended {plural(change, 'ply', 'plies')} (forced)"
    return f"depth {change:+d}: {', '.join(reasons)}"


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
