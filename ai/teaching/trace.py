"""A recorded search replayed step by step (no pygame): the events, the live window, paths and node kinds.

The search visits nodes depth first; the recorder gives each node the moment it was entered and the moment it
was left (``enter_order``, ``leave_order``). :func:`step_events` turns a :class:`~ai.kernel.recording.SearchTree` into
that sequence of enter and leave events (the step-through of the overlay and the Tree Lab, and the steps
:mod:`ai.teaching.narration` narrates); :func:`live_window` gives the alpha-beta window at a node at any moment of it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from ai.kernel.recording import CHANCE, INF, MAX, MIN, RecordedNode, SearchTree, value_label


@dataclass(frozen=True)
class StepEvent:
    """One step of the replay: the search enters or leaves a node."""

    order: int
    node: int
    """Recorded node id."""
    leaving: bool


def step_events(tree: SearchTree) -> list[StepEvent]:
    """Enter and leave events of every stored node in the order the search made them."""
    ev = [StepEvent(n.enter_order, n.id, False) for n in tree.nodes]
    ev += [StepEvent(n.leave_order, n.id, True) for n in tree.nodes]
    ev.sort(key=lambda e: e.order)
    return ev


@dataclass(frozen=True)
class PartialNode(RecordedNode):
    """A node seen part-way through the replay: its label is what is known so far (``?``, ``>= 3``)."""

    pending: bool = False
    window: tuple[float, float] | None = None
    """The alpha-beta window (MAX's view) at the moment shown (:func:`live_window`), for the picture's line under
    the node; ``None``: not a moment of the replay."""

    def label(self) -> str:
        """What is known so far: ``?``, ``>= 3`` or ``<= 2`` (the finished label once the node is left)."""
        if not self.pending:
            return super().label()
        if self.lo > -INF and self.hi < INF and self.lo == self.hi:
            return f"= {number_text(self.lo, self.proofs)}?"
        if self.lo > -INF:
            return f">= {number_text(self.lo, self.proofs)}"
        if self.hi < INF:
            return f"<= {number_text(self.hi, self.proofs)}"
        return "?"


def number_text(v: float, proofs: bool = False) -> str:
    """The picture's number format: integers plain, +/-inf as the infinity sign, and with ``proofs`` (a game
    tree: :attr:`~ai.kernel.recording.RecordedNode.proofs`) a proven result as ``win in 3`` / ``loss in 4``."""
    if v == INF:
        return "+∞"
    if v == -INF:
        return "−∞"
    return value_label(v, proofs)


def live_window(tree_nodes: Mapping[int, RecordedNode], n: RecordedNode, order: int) -> tuple[float, float]:
    """The alpha-beta window (MAX's view) at node ``n`` at moment ``order`` of the search: the entry window
    tightened by the children finished so far (MAX raises alpha, MIN lowers beta); once ``n`` is left, its
    window on leaving (:func:`left_window`)."""
    if n.leave_order <= order:
        return left_window(tree_nodes, n)
    return folded_window(tree_nodes, n, order)


def left_window(tree_nodes: Mapping[int, RecordedNode], n: RecordedNode) -> tuple[float, float]:
    """The window at ``n`` when the search left it: the recorded ``alpha_out``/``beta_out``, never looser than
    the entry window tightened by every child (the narration's "with alpha = 3, beta = 2"; the root's recorded
    window on leaving is the full one, as the search returns from it without a window)."""
    a, b = folded_window(tree_nodes, n, None)
    return max(a, n.alpha_out), min(b, n.beta_out)


def window_history(tree_nodes: Mapping[int, RecordedNode], n: RecordedNode) -> list[tuple[float, float]]:
    """Every window ``n`` shows during the replay: on entering, after each child left, and on leaving."""
    out = [(n.alpha_in, n.beta_in)]
    kids = sorted((c for c in (tree_nodes.get(k) for k in n.children) if c is not None),
                  key=lambda c: c.leave_order)
    out += [folded_window(tree_nodes, n, c.leave_order) for c in kids]
    out.append(left_window(tree_nodes, n))
    return out


def folded_window(tree_nodes: Mapping[int, RecordedNode], n: RecordedNode, order: int | None,
                  skip: Collection[int] = ()) -> tuple[float, float]:
    """The entry window of ``n`` tightened by its children left by moment ``order`` (all of them when ``None``):
    MAX raises alpha, MIN lowers beta. ``skip``: children whose values do not count (a failed null-window test
    replaced by its re-search, for :mod:`ai.teaching.narration`)."""
    a, b = n.alpha_in, n.beta_in
    for k in n.children:
        c = tree_nodes.get(k)
        if c is None or k in skip or (order is not None and c.leave_order > order):
            continue
        if n.kind == MAX:
            a = max(a, c.value)
        elif n.kind == MIN:
            b = min(b, c.value)
    return a, b


def node_path(tree_nodes: dict[int, RecordedNode], nid: int) -> list[RecordedNode]:
    """Recorded nodes from the root down to ``nid``."""
    out: list[RecordedNode] = []
    cur: int | None = nid
    while cur is not None and cur in tree_nodes:
        out.append(tree_nodes[cur])
        cur = tree_nodes[cur].parent
    return out[::-1]


def path_text(path: Sequence[RecordedNode]) -> str:
    """``root > 4 > 0`` (the moves from the root)."""
    moves = [p.move or "?" for p in path[1:]]
    return "root" + "".join(f" > {m}" for m in moves)


def kind_text(n: RecordedNode) -> str:
    """``MAX node``, ``MIN node``, ``chance node`` or ``leaf``."""
    if n.note in ("leaf", "terminal") or (not n.children and not n.skipped and not n.note):
        return "terminal position" if n.note == "terminal" else "leaf"
    return {MAX: "MAX node", MIN: "MIN node", CHANCE: "chance node"}.get(n.kind, n.kind)
