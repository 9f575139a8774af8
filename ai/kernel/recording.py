"""The recorded search tree: the immutable snapshot a recorder hands the overlay, the side panel, the exports.

A search (``ai.kernel.search.Searcher`` in negamax form, ``ai.kernel.expectimax``) calls a recorder at every node (the
hooks of :class:`ai.kernel.core.Recorder`); the recorders that keep a tree (:mod:`ai.teaching.tree_recorder`) log those
calls and build from the log the :class:`SearchTree` of this module: one :class:`RecordedNode` per stored node, every
value and window converted to MAX's point of view (MAX = the side to move at the root), so the picture reads like the
textbook (AIMA figure 5.5): alpha and beta as MAX and MIN see them, values as exact numbers or bounds
(:meth:`RecordedNode.label`: ``3``, ``<= 2``, ``>= 5``). Moves are in the game's notation.

One truth per node: a node the search searched more than once (principal-variation search's null-window test and,
when it fails high inside the window, its re-search; a late-move reduction's shallower test first) is ONE
:class:`RecordedNode` whose :attr:`~RecordedNode.passes` (:class:`SearchPass`) keep each search, with its window,
its bound, its moments and the children it searched; the node's value is what the passes proved together
(:func:`merged_bounds`: a test's ``>= 0`` and a re-search's ``<= 0`` make ``0``). The step-through
(:func:`ai.teaching.trace.step_events`), the narration and the picture all read the passes from the node.

Recording never changes what the search does: the same algorithm runs (principal-variation search, the table,
quiescence) whether a recorder observes it or :data:`NULL_RECORDER` stands in (the alpha-beta search then skips the
calls altogether: two calls a node cost it 11% of its speed, measured 2026-12-04).

Nothing the search counted is lost from the picture's arithmetic: each recorded node knows how many nodes were
visited below it and not stored. Those split in two: :attr:`RecordedNode.unrecorded`, nodes the search visited
below it after the recorder's bound stopped recording (their capture search included), and
:attr:`RecordedNode.capture`, the capture (quiescence) search below a recorded leaf, which is never recorded by
design (the leaf's value is its result). For every snapshot ``recorded_visits + sum(unrecorded) + sum(capture) ==
visited`` (:attr:`SearchTree.recorded_visits`: one per stored node, one per pass of a node searched several
times); for a whole iteration ``sum(capture)`` is :attr:`ai.teaching.decision_tree.DecisionCounts.capture_nodes`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Callable

from ai.kernel.numbers import cutoff_text, plural
from ai.kernel.numbers import number_text as number_text  # the number forms live in ai.kernel.numbers (re-exported)
from ai.kernel.numbers import value_label as value_label
from ai.kernel.spelling import ASCII, bound_text

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


REDUCED_TEST, NULL_TEST, SEARCH, RE_SEARCH = "reduced test", "null-window test", "search", "re-search"
"""The kinds of :class:`SearchPass`: a late-move reduction's shallower null-window test, principal-variation search's
null-window test, a first search with a wider window (an aspiration round at the root), and a search again of the
same node with the window (after a test that failed high, or an aspiration window that failed)."""
PASS_WORDS = {REDUCED_TEST: "LMR test", NULL_TEST: "test", SEARCH: "search", RE_SEARCH: "re-search"}
"""How the picture's line under a node and the trace name its passes (:meth:`RecordedNode.passes_text`)."""


@dataclass(frozen=True)
class SearchPass:
    """One of the searches of a node the search searched more than once (principal-variation search: a null-window
    test, then, when it fails high inside the window, a re-search; with late-move reductions first a shallower
    test). Values and windows are MAX's view, like the node's.

    The node (:class:`RecordedNode`) is one: its fields are those of its last pass (the search whose value the
    parent used), except ``enter_order`` (its first pass's: when the search first reached it) and ``lo``/``hi``
    (what all the passes proved together: :func:`merged_bounds`)."""

    kind: str
    """:data:`REDUCED_TEST`, :data:`NULL_TEST`, :data:`SEARCH` or :data:`RE_SEARCH`."""
    alpha_in: float
    beta_in: float
    alpha_out: float
    beta_out: float
    lo: float
    """What this pass proved: lower end (``-inf``: nothing)."""
    hi: float
    """Upper end (``+inf``: nothing)."""
    value: float
    """The value this pass returned."""
    enter_order: int
    leave_order: int
    children: tuple[int, ...]
    """The node's children this pass searched (ids; the last pass's are the node's own ``children``)."""
    skipped: tuple[str, ...]
    note: str
    reduced: int = 0
    """Plies a late-move reduction took off this pass (0: the full depth)."""
    depth_change: int = 0
    """As :attr:`RecordedNode.depth_change`, for this pass (material truncation depends on the window)."""
    depth_reasons: tuple[str, ...] = ()
    """As :attr:`RecordedNode.depth_reasons`, for this pass."""

    def label(self, proofs: bool = True, spelling: str = ASCII) -> str:
        """What this pass proved: ``3``, ``<= 2``, ``>= 5`` (as :meth:`RecordedNode.label`)."""
        return bound_text(self.lo, self.hi, self.value, proofs, spelling)


def null_window(alpha: float, beta: float) -> bool:
    """A principal-variation search's null window: finite and one floating-point step wide."""
    return math.isfinite(alpha) and math.isfinite(beta) and beta > alpha and math.nextafter(alpha, INF) == beta


def pass_kind(index: int, alpha: float, beta: float, reduced: int) -> str:
    """The kind of the ``index``-th search of a node (0 = the first) with window ``(alpha, beta)`` and
    ``reduced`` plies taken off (:class:`SearchPass`)."""
    if reduced:
        return REDUCED_TEST
    if null_window(alpha, beta):
        return NULL_TEST
    return RE_SEARCH if index else SEARCH


def merged_bounds(passes: Sequence[SearchPass]) -> tuple[float, float]:
    """What the searches of one node proved together: the last pass's ``(lo, hi)`` narrowed by every earlier pass
    searched at the same depth (a reduced test or one at another depth proves nothing about this search's value),
    as long as they agree: a null-window test that proved ``>= 0`` and a re-search that proved ``<= 0`` make ``0``.
    When they disagree (the table or a repetition gave another answer the second time: search instability) the
    last pass's stands, as it does for the search."""
    last = passes[-1]
    lo, hi = last.lo, last.hi
    for p in passes[:-1]:
        if p.reduced or p.depth_change != last.depth_change:
            continue
        a, b = max(lo, p.lo), min(hi, p.hi)
        if a <= b:
            lo, hi = a, b
    return lo, hi


def bounds_label(lo: float, hi: float, value: float, proofs: bool = True, spelling: str = ASCII) -> str:
    """``3``, ``<= 2``, ``>= 5`` or ``[1, 4]`` for what a search proved (``value`` when it is exact), in
    ``spelling`` (:func:`ai.kernel.spelling.bound_text`)."""
    return bound_text(lo, hi, value, proofs, spelling)


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
    passes: tuple[SearchPass, ...] = ()
    """Every search of this node, in order, when there were several (principal-variation search's null-window test
    and its re-search, :class:`SearchPass`); empty for a node searched once. The node's own fields are its last
    pass's, except ``enter_order`` (the first pass's) and ``lo``/``hi`` (:func:`merged_bounds`)."""

    @property
    def visits(self) -> int:
        """The search's visits of this node that it stands for: one per pass (1 for a node searched once)."""
        return len(self.passes) or 1

    @property
    def re_searched(self) -> bool:
        """Searched more than once (:attr:`passes`)."""
        return len(self.passes) > 1

    def depth_text(self) -> str:
        """The depth change in words for the picture's line under the node (``truncated: 2 plies shallower``,
        ``2 plies given back``, ``extended 1 ply (forced)``, or joined when several apply); ``""`` when none."""
        return depth_change_text(self.depth_change, self.depth_reasons)

    @property
    def exact(self) -> bool:
        return self.lo == self.hi

    def label(self, spelling: str = ASCII) -> str:
        """``3``, ``<= 2`` or ``>= 5`` (bounds shown as bounds; ``≤ 2``, ``≥ 5`` in the window's ``spelling``:
        :mod:`ai.kernel.spelling`)."""
        return bound_text(self.lo, self.hi, self.value, self.proofs, spelling)

    def passes_text(self, spelling: str = ASCII) -> str:
        """The passes of a node searched more than once, for the trace and the exports: ``test >= 0, re-search
        <= 0`` (``LMR test`` for a reduced one; ``≥``, ``≤`` in the window's ``spelling``); ``""`` for a node
        searched once."""
        if not self.re_searched:
            return ""
        return ", ".join(f"{PASS_WORDS.get(p.kind, p.kind)} {p.label(self.proofs, spelling)}" for p in self.passes)


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
    def recorded_visits(self) -> int:
        """The search's visits the stored nodes stand for (a node searched in several passes counts each:
        :attr:`RecordedNode.visits`); ``recorded_visits + sum(unrecorded) + sum(capture) == visited``."""
        return sum(n.visits for n in self.nodes)

    @property
    def pruned_subtrees(self) -> int:
        """Subtrees the cut-offs pruned (moves never searched; ``len`` of ``tree --json``'s ``pruned``), those of a
        re-searched node's null-window test included."""
        return sum(len(n.skipped) + sum(len(p.skipped) for p in n.passes[:-1]) for n in self.nodes)

    def final_ids(self) -> frozenset[int]:
        """The nodes of the finished search's picture: the root and, below each node, the children its last pass
        searched. The nodes a re-searched node's null-window test searched below it are left out: the step-through
        shows them while the test runs (:func:`ai.teaching.trace.node_at`), then the re-search's take their place."""
        by_id = {n.id: n for n in self.nodes}
        out: set[int] = set()
        todo = [0] if 0 in by_id else []
        while todo:
            i = todo.pop()
            out.add(i)
            todo += [k for k in by_id[i].children if k in by_id]
        return frozenset(out)

    def text(self) -> str:
        """A plain-text trace in visiting order, one line per node (for handouts and tests), and one where a node
        searched again (a re-search) starts its new search."""
        windows = self.algorithm == "alphabeta"
        rule = f" (cut-off when alpha {'>=' if self.prune == 'ge' else '>'} beta)" if windows else ""
        lines = [f"{self.algorithm}{rule}: {self.visited:,} nodes visited in this iteration, {self.leaves:,} leaves, "
                 f"{cutoff_text(self.cutoffs, self.pruned_subtrees)}"]
        rows: list[tuple[int, str]] = []
        p = self.proofs
        for n in self.nodes:
            ind = "  " * n.depth
            edge = "" if n.move is None else f"{n.move}" + (f" (p={n.probability:.3g})" if n.probability else "")
            win = (f"a={value_label(n.alpha_in, p)} b={value_label(n.beta_in, p)}"
                   if windows and n.kind != CHANCE else "")
            extra = f" pruned: {', '.join(n.skipped)}" if n.skipped else ""
            note = f" [{n.note}]" if n.note else ""
            if n.depth_change:
                note += f" [{n.depth_text()}]"
            if n.re_searched:
                note += f" [{n.passes_text()}]"
            kind = "leaf" if n.note in ("leaf", "terminal") else n.kind
            line = f"{ind}{edge} {kind} {win} -> {n.label()}{note}{extra}"
            rows.append((n.enter_order, line.replace("  -> ", " -> ")))
            for s in n.passes[1:]:  # the same node searched again: where its re-search's subtree starts
                again = f"a={value_label(s.alpha_in, p)} b={value_label(s.beta_in, p)}" if windows else ""
                rows.append((s.enter_order, f"{ind}{edge} {s.kind} {again} -> {s.label(p)}".replace("  -> ", " -> ")))
        lines += [line for _, line in sorted(rows)]
        if self.truncated:
            lines.append(f"... {self.visited - self.recorded_visits:,} more nodes not stored")
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
    """Paths (edge labels from the root) of the subtrees cut off, in visiting order (those of a re-searched node's
    null-window test included: :attr:`SearchTree.pruned_subtrees`)."""
    by_id = {n.id: n for n in tree.nodes}

    def path(n: RecordedNode) -> list[str]:
        out: list[str] = []
        while n.parent is not None:
            out.append(str(move_key(n)))
            n = by_id[n.parent]
        return out[::-1]

    res: list[list[str]] = []
    for n in sorted(tree.nodes, key=lambda n: n.enter_order):
        for s in [m for p in n.passes[:-1] for m in p.skipped] + list(n.skipped):  # a failed test's cut-offs first
            res.append(path(n) + [s])
    return res
