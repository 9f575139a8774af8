"""A recorded search replayed step by step (no pygame): the events, the live window, paths and node kinds.

The search visits nodes depth first; the recorder gives each node the moment it was entered and the moment it
was left (``enter_order``, ``leave_order``). :func:`step_events` turns a :class:`~ai.kernel.recording.SearchTree` into
that sequence of enter and leave events (the step-through of the overlay and the Tree Lab, and the steps
:mod:`ai.teaching.narration` narrates); :func:`live_window` gives the alpha-beta window at a node at any moment of it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from ai.kernel.recording import CHANCE, INF, MAX, MIN, RecordedNode, SearchTree, null_window
from ai.kernel.spelling import ASCII, UNICODE, known_text, value_word


@dataclass(frozen=True)
class StepEvent:
    """One step of the replay: the search enters or leaves a node (in one of its passes, when it searched the
    node more than once: :attr:`ai.kernel.recording.RecordedNode.passes`)."""

    order: int
    node: int
    """Recorded node id."""
    leaving: bool
    search: int = 0
    """Which pass of the node (index into its ``passes``; 0 for a node searched once)."""


def step_events(tree: SearchTree) -> list[StepEvent]:
    """Enter and leave events of every stored node in the order the search made them: a node searched in several
    passes (a null-window test, then its re-search) is entered and left once per pass, the same node each time."""
    ev: list[StepEvent] = []
    for n in tree.nodes:
        if n.passes:
            for i, p in enumerate(n.passes):
                ev += [StepEvent(p.enter_order, n.id, False, i), StepEvent(p.leave_order, n.id, True, i)]
        else:
            ev += [StepEvent(n.enter_order, n.id, False), StepEvent(n.leave_order, n.id, True)]
    ev.sort(key=lambda e: e.order)
    return ev


def pass_index(n: RecordedNode, order: int | None) -> int:
    """The pass of ``n`` at moment ``order`` (index into its ``passes``): the one in progress, or the last one begun
    by then (the first before the node is reached); ``None``: the finished search, its last pass. 0 for a node
    searched once."""
    if not n.passes:
        return 0
    if order is None:
        return len(n.passes) - 1
    return max(0, sum(1 for p in n.passes if p.enter_order <= order) - 1)


def pass_node(n: RecordedNode, index: int) -> RecordedNode:
    """``n`` as its ``index``-th pass searched it (:class:`~ai.kernel.recording.SearchPass`): that pass's window,
    bound, value, moments, children, pruned moves and note; the node itself for its last pass when it proved
    nothing more than that pass (and for a node searched once). The node's earlier passes are kept in ``passes``."""
    if not n.passes or index == len(n.passes) - 1 and (n.lo, n.hi) == (n.passes[-1].lo, n.passes[-1].hi):
        return n
    p = n.passes[index]
    return dataclasses.replace(n, alpha_in=p.alpha_in, beta_in=p.beta_in, alpha_out=p.alpha_out,
                               beta_out=p.beta_out, lo=p.lo, hi=p.hi, value=p.value, enter_order=p.enter_order,
                               leave_order=p.leave_order, children=p.children, skipped=p.skipped, note=p.note,
                               reduced=p.reduced, depth_change=p.depth_change, depth_reasons=p.depth_reasons,
                               on_pv=n.on_pv and index == len(n.passes) - 1)


def node_at(n: RecordedNode, order: int | None) -> RecordedNode:
    """``n`` as the search stood at moment ``order`` (``None``: the finished search, ``n`` itself): for a node
    searched in several passes, the pass in progress or last begun (:func:`pass_node`); once its last pass is left,
    the node with what all its passes proved."""
    if not n.passes or order is None or order >= n.leave_order:
        return n
    return pass_node(n, pass_index(n, order))


def known_before(n: RecordedNode, index: int) -> tuple[float, float]:
    """What the passes of ``n`` before its ``index``-th proved about the value that pass searches for
    (:func:`ai.kernel.recording.merged_bounds` of those at its depth): ``(-inf, +inf)`` when nothing."""
    if not n.passes or index == 0:
        return -INF, INF
    ps = n.passes
    known = [p for p in ps[:index] if not p.reduced and p.depth_change == ps[index].depth_change]
    return (max((p.lo for p in known), default=-INF), min((p.hi for p in known), default=INF))


@dataclass(frozen=True)
class PartialNode(RecordedNode):
    """A node seen part-way through the replay: its label is what is known so far (``?``, ``>= 3``)."""

    pending: bool = False
    window: tuple[float, float] | None = None
    """The alpha-beta window (MAX's view) at the moment shown (:func:`live_window`), for the picture's line under
    the node; ``None``: not a moment of the replay."""

    def label(self, spelling: str = ASCII) -> str:
        """What is known so far: ``?``, ``>= 3`` or ``<= 2`` (``≥``, ``≤`` in the window's ``spelling``;
        :func:`ai.kernel.spelling.known_text`), the finished label once the node is left."""
        if not self.pending:
            return super().label(spelling)
        return known_text(self.lo, self.hi, self.proofs, spelling)


def number_text(v: float, proofs: bool = False) -> str:
    """The picture's number format: integers plain, +/-inf as the infinity sign, and with ``proofs`` (a game
    tree: :attr:`~ai.kernel.recording.RecordedNode.proofs`) a proven result as ``win in 3`` / ``loss in 4``
    (:func:`ai.kernel.spelling.value_word` in the window's spelling)."""
    return value_word(v, proofs, UNICODE)


def live_window(tree_nodes: Mapping[int, RecordedNode], n: RecordedNode, order: int) -> tuple[float, float]:
    """The alpha-beta window (MAX's view) at node ``n`` at moment ``order`` of the search: the entry window
    tightened by the children finished so far (MAX raises alpha, MIN lowers beta); once ``n`` is left, its
    window on leaving (:func:`left_window`). A node searched in several passes: the window of the pass at that
    moment (:func:`node_at`)."""
    v = node_at(n, order)
    if v.leave_order <= order:
        return left_window(tree_nodes, v)
    rounds = aspiration_rounds(tree_nodes, v) if v.parent is None else []
    if len(rounds) > 1:
        return round_window(tree_nodes, v, rounds, order)
    return folded_window(tree_nodes, v, order)


def aspiration_rounds(tree_nodes: Mapping[int, RecordedNode], root: RecordedNode) -> list[tuple[int, float, float]]:
    """The root's aspiration rounds: ``[(the moment it began, alpha, beta)]``, the first the root's own window.

    With aspiration windows (:attr:`ai.kernel.search_options.SearchOptions.aspiration`) the root is searched in a
    narrow window around the last iteration's value; when the value falls outside, all its moves are searched again
    with the window opened on that side. A round begins where a root child's pass is searched with a full (not
    null) window wider than the round's: a lower alpha (it failed low) or a higher beta (it failed high). One round
    (the root's window) for a search without aspiration windows."""
    rounds = [(root.enter_order, root.alpha_in, root.beta_in)]
    passes = sorted((q for k in root.children if k in tree_nodes for q in (tree_nodes[k].passes or (tree_nodes[k],))),
                    key=lambda q: q.enter_order)
    for q in passes:
        _, lo, hi = rounds[-1]
        if not null_window(q.alpha_in, q.beta_in) and (q.alpha_in < lo or q.beta_in > hi):
            rounds.append((q.enter_order, min(lo, q.alpha_in), max(hi, q.beta_in)))
    return rounds


def round_window(tree_nodes: Mapping[int, RecordedNode], root: RecordedNode, rounds: Sequence[tuple[int, float, float]],
                 order: int) -> tuple[float, float]:
    """The root's window at moment ``order`` of a search in aspiration ``rounds`` (:func:`aspiration_rounds`): the
    window of the round under way, tightened by the children's passes of that round finished by ``order`` (each
    child's last one: MAX raises alpha, MIN lowers beta); the passes of a failed round no longer count."""
    begin, a, b = max((r for r in rounds if r[0] <= order), key=lambda r: r[0], default=rounds[0])
    for k in root.children:
        c = tree_nodes.get(k)
        if c is None:
            continue
        done = [q for q in (c.passes or (c,)) if begin <= q.enter_order and q.leave_order <= order]
        if not done:
            continue
        v = max(done, key=lambda q: q.leave_order).value
        if root.kind == MAX:
            a = max(a, v)
        elif root.kind == MIN:
            b = min(b, v)
    return a, b


def left_window(tree_nodes: Mapping[int, RecordedNode], n: RecordedNode) -> tuple[float, float]:
    """The window at ``n`` when the search left it: the recorded ``alpha_out``/``beta_out``, never looser than
    the entry window tightened by every child (the narration's "with alpha = 3, beta = 2"; the root's recorded
    window on leaving is the full one, as the search returns from it without a window)."""
    a, b = folded_window(tree_nodes, n, None)
    return max(a, n.alpha_out), min(b, n.beta_out)


def window_history(tree_nodes: Mapping[int, RecordedNode], n: RecordedNode) -> list[tuple[float, float]]:
    """Every window ``n`` shows during the replay: on entering, after each child left, and on leaving (in each of
    its passes, for a node searched more than once)."""
    out: list[tuple[float, float]] = []
    for v in [pass_node(n, i) for i in range(len(n.passes))] if n.passes else [n]:
        out.append((v.alpha_in, v.beta_in))
        kids = sorted((c for c in (tree_nodes.get(k) for k in v.children) if c is not None),
                      key=lambda c: c.leave_order)
        out += [folded_window(tree_nodes, v, c.leave_order) for c in kids]
        out.append(left_window(tree_nodes, v))
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
