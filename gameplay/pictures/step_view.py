"""What the search-tree view shows at one step of the step-through, as a model without pygame.

* :class:`StepStory`: the narration of a recorded tree (:func:`ai.teaching.narration.narration_steps`, the very
  sentences of ``tree --narrate`` and the exports) and, at a step, what its sentence is about (the nodes the picture
  must show) and what it quotes (the nodes it shows too when there is room).
* :func:`step_layout`: a layout as the search stood at one step (what it had reached, nodes still being searched
  with what is known so far; a node searched in several passes as the pass at that step searched it);
* :class:`StepView`: one frame of the tree view: the picture (:class:`gameplay.pictures.tree_picture.Picture`) and the
  layout it draws, the camera (zoom and offset over a canvas), the current step's path and node, the callout's
  words, the selected node and the narration. The window's painter (``gameplay.ui.overlay.overlay_canvas``) draws it and
  ``shot --json`` reports it (:meth:`StepView.drawn_items`).

Boxes are ``(x, y, w, h)``: picture pixels in a :class:`~gameplay.pictures.tree_picture.Picture`, canvas pixels (from
the
canvas's top-left corner) once the camera is applied.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ai.kernel.recording import CHANCE, INF, MAX, MIN, RecordedNode, SearchTree
from ai.kernel.spelling import UNICODE
from ai.teaching.trace import PartialNode, StepEvent, known_before, live_window, node_at, pass_index
from gameplay.pictures.tree_layout import NODE, PRUNED, LayoutNode, TreeLayout
from gameplay.pictures.tree_picture import Picture

Box = tuple[float, float, float, float]
About = tuple[tuple[int, ...], tuple[tuple[int, str], ...]]
"""The recorded ids a sentence is about, and the ``(parent id, move)`` of the pruned children it names."""


class StepStory:
    """The narration of ``tree`` step by step, and what each step's sentence is about.

    Args:
        tree: the recorded search.
        root: the explicit tree of a Tree Lab search (its nodes are lettered as the command line letters them), or
            ``None``.
        events: the steps of the step-through (:func:`ai.teaching.trace.step_events`); a narration with another number
            of sentences is not used (the views fall back on the step's own description).
    """

    def __init__(self, tree: SearchTree, root: Any, events: Sequence[StepEvent]) -> None:
        self.tree = tree
        self.root = root
        self.by_id: dict[int, RecordedNode] = {n.id: n for n in tree.nodes}
        self._events = len(events)
        self._steps: list[Any] | None = None

    @property
    def steps(self) -> list[Any]:
        """One :class:`ai.teaching.narration.NarratedStep` per step (computed once), or ``[]`` when the narration cannot
        tell this tree."""
        if self._steps is None:
            try:
                from ai.teaching.narration import narration_steps
                # the window's spelling (α, β, −∞, ≥: ai.kernel.spelling), as the picture writes its values
                steps = narration_steps(self.tree, self.root, symbols=UNICODE)
            except Exception:  # noqa: BLE001 - a tree the narration cannot tell: the step's own description
                steps = []
            self._steps = steps if len(steps) == self._events else []
        return self._steps

    def at(self, step: int | None) -> Any:
        """The :class:`ai.teaching.narration.NarratedStep` of ``step`` (the root's last one for the finished search,
        ``None``), or ``None`` without a narration."""
        steps = self.steps
        if not steps:
            return None
        return steps[-1] if step is None else steps[step]

    def about(self, step: int | None, current: RecordedNode | None, pinned: int | None = None) -> About:
        """What the picture must show at ``step``: the node of the sentence, its parent, every node it names (and
        ``pinned``, a node the user just opened), and the pruned children it names. Without a narration: the
        step's node (``current``) and its parent, or the root for the finished search."""
        st = self.at(step)
        pin = (pinned,) if pinned is not None else ()
        if st is not None:
            return tuple(dict.fromkeys(st.about + pin)), st.named_pruned
        if current is None:
            return ((0,) if 0 in self.by_id else ()), ()
        return tuple(i for i in (current.id, current.parent) if i is not None), ()

    def context(self, step: int | None, about: tuple[int, ...], order: int | None) -> tuple[int, ...]:
        """What the picture shows too when there is room (after :meth:`about`): the children whose values the
        sentence quotes ("max(3, 12, 8)", a chance node's weighted sum), and every outcome of a chance node it is
        about or quotes, those the search had reached at moment ``order`` (``None``: the finished search)."""
        st = self.at(step)
        by_id = self.by_id
        quoted = tuple(st.quoted) if st is not None else ()
        outcomes = tuple(k for i in about + quoted if (n := by_id.get(i)) is not None and n.kind == CHANCE
                         for k in n.children if k in by_id)
        return tuple(i for i in dict.fromkeys(outcomes + quoted)
                     if i not in about and (order is None or by_id[i].enter_order <= order))


@dataclass(frozen=True)
class StepView:
    """One frame of the tree view (see the module docstring)."""

    picture: Picture
    layout: TreeLayout
    """The layout :attr:`picture` draws (at a step, what the search had reached)."""
    zoom: float
    """Canvas pixels per picture pixel."""
    offset: tuple[float, float]
    """Where the picture's top-left corner lies on the canvas (pixels)."""
    canvas: tuple[int, int]
    """The canvas's width and height in pixels."""
    path: tuple[int, ...] = ()
    """Recorded ids of the current step's path from the root that are drawn (root first)."""
    current: RecordedNode | None = None
    """The node of the current step (``None``: the finished search)."""
    callout: str = ""
    """The words beside the current node: ``entering E  α=3 β=+∞`` (empty without a step)."""
    selected: int | None = None
    """A recorded node drawn with a selection ring (the Tree Lab's editor), or ``None``."""
    narration: str = ""
    """The sentence of the step, as the band under the tree says it."""

    @property
    def framed(self) -> int | None:
        """The recorded id framed as the current step: its node, or its deepest ancestor drawn."""
        return self.path[-1] if self.current is not None and self.path else None

    @property
    def hidden(self) -> bool:
        """The step's node is not drawn (further down, hidden): its deepest drawn ancestor is framed instead."""
        return self.current is not None and self.framed != self.current.id

    def on_canvas(self, box: Box) -> Box:
        """A picture box in canvas pixels."""
        z, (ox, oy) = self.zoom, self.offset
        return box[0] * z + ox, box[1] * z + oy, box[2] * z, box[3] * z

    def inside(self, box: Box) -> bool:
        """True when a canvas box lies wholly inside the canvas (half a pixel of slack)."""
        w, h = self.canvas
        return box[0] >= -0.5 and box[1] >= -0.5 and box[0] + box[2] <= w + 0.5 and box[1] + box[3] <= h + 0.5

    def drawn_items(self) -> list[tuple[int, Box, bool]]:
        """Every item of the picture shown now: ``(layout index, canvas box, inside)`` where ``inside`` says
        everything drawn for the item lies wholly inside the canvas."""
        out = []
        for it in self.layout.nodes:
            b = self.picture.boxes.get(it.index)
            if b is None or it.kind not in (NODE, PRUNED) and it.kind is None:
                continue
            sb = self.on_canvas(b)
            out.append((it.index, sb, self.inside(sb)))
        return out


def visible_path(path_ids: Sequence[int], drawn: Mapping[int, Any]) -> tuple[int, ...]:
    """The ids of ``path_ids`` (root first) that are drawn (keys of ``drawn``)."""
    return tuple(i for i in path_ids if i in drawn)


def step_layout(lay: TreeLayout, by_id: Mapping[int, RecordedNode], order: int) -> TreeLayout:
    """``lay`` as the search stood at visiting order ``order``: only the items it had reached, at the same
    positions; nodes still being searched are :class:`ai.teaching.trace.PartialNode` with the bound proved so far and
    the window at that moment, nodes already left are the recorded nodes (the picture shows their window on leaving,
    :func:`gameplay.pictures.tree_picture.shown_window`). A node searched in several passes (a null-window test, then
    its re-search) is shown as the pass at that moment searched it (:func:`ai.teaching.trace.node_at`): its test's
    bound once the test is left, the re-search with what the test proved while it runs, all it proved once left;
    ``lay`` is best laid out at the same moment (:func:`gameplay.pictures.tree_layout.layout`'s ``at``), so the
    children drawn are that pass's."""
    o = order
    keep: list[LayoutNode] = []
    new_index: dict[int, int] = {}
    for it in lay.nodes:
        par = lay.nodes[it.parent] if it.parent is not None else None
        if par is not None and par.index not in new_index:
            continue
        if it.kind == NODE:
            assert it.node is not None
            n = by_id.get(it.node.id, it.node)
            if n.enter_order > o:
                continue
            node: RecordedNode = node_at(n, o)
            # a leaf is evaluated the moment it is reached (the narration names it by its value): drawn with it
            if node.leave_order > o and node.note not in ("leaf", "terminal"):
                node = partial_node(node, by_id, o)
            left = n.leave_order <= o
        elif it.kind == PRUNED:
            pn = par.node if par is not None else None
            if pn is None or cut_moment(node_at(by_id.get(pn.id, pn), o), by_id) > o:
                continue
            node = None  # type: ignore[assignment]
            left = True
        else:
            pn = par.node if par is not None else None
            if pn is None or pn.enter_order > o:
                continue
            node = None  # type: ignore[assignment]
            left = True
        idx = len(keep)
        new_index[it.index] = idx
        keep.append(LayoutNode(idx, it.kind, new_index[it.parent] if it.parent is not None else None,
                               it.depth, it.shape, node if it.kind == NODE else None, it.moves, it.hidden,
                               it.hidden_pruned, it.reason, it.on_pv and (it.node is None or left), it.x, []))
    for it in keep:
        if it.parent is not None:
            keep[it.parent].children.append(it.index)
    return TreeLayout(lay.tree, keep, lay.width, lay.depth, lay.shown, lay.hidden, lay.show_window)


def cut_moment(n: RecordedNode, by_id: Mapping[int, RecordedNode]) -> int:
    """The moment (visiting order) the cut-off at ``n`` happened: when its last searched child returned (the
    narration says "... is pruned" at that step), or when ``n`` was left if no child was recorded."""
    done = [by_id[k].leave_order for k in n.children if k in by_id]
    return max(done) if done else n.leave_order


def partial_node(n: RecordedNode, by_id: Mapping[int, RecordedNode], order: int) -> PartialNode:
    """``n`` while the search is still below it: the bound its finished children prove so far (and, in a re-search,
    what its earlier passes proved: :func:`ai.teaching.trace.known_before`), and its alpha-beta window at that moment
    (:func:`ai.teaching.trace.live_window`; the picture draws it under the node)."""
    done = [by_id[k] for k in n.children if k in by_id and by_id[k].leave_order <= order]
    lo, hi = known_before(n, pass_index(n, order))
    if done and n.kind == MAX:
        lo = max(lo, max(c.lo for c in done))
    elif done and n.kind == MIN:
        hi = min(hi, min(c.hi for c in done))
    if lo > hi:  # the re-search disagrees with the test (search instability): what it found so far
        lo, hi = -INF, INF
        if done and n.kind == MAX:
            lo = max(c.lo for c in done)
        elif done and n.kind == MIN:
            hi = min(c.hi for c in done)
    fields = {f.name: getattr(n, f.name) for f in dataclasses.fields(RecordedNode)}
    fields.update(lo=lo, hi=hi, skipped=(), note="", on_pv=False,
                  children=tuple(c.id for c in done))
    return PartialNode(**fields, pending=True, window=live_window(by_id, by_id.get(n.id, n), order))
