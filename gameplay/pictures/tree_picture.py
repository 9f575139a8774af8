"""The picture of a laid-out search tree: a display list in pixels (no pygame), its items, colours and texts.

:func:`gameplay.pictures.picture_build.build_picture` turns a :class:`~gameplay.pictures.tree_layout.TreeLayout` into a
:class:`Picture` of lines, polygons, circles, rectangles and text, with a header and a legend, from the pieces
defined here (the texts under and beside a node, the legend, the shapes). The SVG writer
(``gameplay.pictures.tree_export``)
serialises it; the pygame renderer (``gameplay.pictures.tree_png``) draws it with a zoom and an offset. Colours are the
Okabe-Ito colour-blind-safe palette, and every colour distinction is doubled by a shape or a line style (MAX
triangle up, MIN triangle down, CHANCE circle, leaf box, pruned dashed, principal variation thick).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ai.kernel.numbers import plural
from ai.kernel.recording import CHANCE, MAX, MIN, PASS_WORDS, RecordedNode, SearchTree
from ai.kernel.spelling import UNICODE, cut_rule, signs, value_word
from ai.teaching.trace import PartialNode, left_window
from gameplay.pictures.tree_layout import (
    COLLAPSED,
    LEAF,
    NODE,
    PRUNED,
    UNRECORDED,
    LayoutNode,
    TreeLayout,
)

# ----------------------------------------------------------------------------------------------------------------
# The picture: a display list in pixels
# ----------------------------------------------------------------------------------------------------------------
OKABE_ITO: Mapping[str, str] = {
    "black": "#000000", "orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73", "yellow": "#F0E442",
    "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#CC79A7",
}
"""Okabe and Ito, "Color Universal Design" (2008): distinguishable with every common colour-vision deficiency."""


@dataclass(frozen=True)
class Palette:
    """Colours of the picture (hex ``#RRGGBB``)."""

    background: str = "#FFFFFF"
    text: str = "#111111"
    muted: str = "#4D4D4D"
    edge: str = "#5A5A5A"
    max_stroke: str = OKABE_ITO["blue"]
    max_fill: str = "#D5E8F5"
    min_stroke: str = OKABE_ITO["vermillion"]
    min_fill: str = "#F9DFCC"
    chance_stroke: str = OKABE_ITO["green"]
    chance_fill: str = "#CCEDE3"
    leaf_stroke: str = "#222222"
    leaf_fill: str = "#F2F2F2"
    pruned: str = "#8C8C8C"
    pruned_fill: str = "#F7F7F7"
    pv: str = OKABE_ITO["orange"]
    pv_core: str = "#000000"


PALETTE = Palette()
HIGH_CONTRAST_PALETTE = Palette(
    background="#000000", text="#FFFFFF", muted="#E6E6E6", edge="#D0D0D0", max_stroke=OKABE_ITO["sky"],
    max_fill="#00263D", min_stroke=OKABE_ITO["orange"], min_fill="#3D2600", chance_stroke="#3DDC97",
    chance_fill="#00301F", leaf_stroke="#FFFFFF", leaf_fill="#1A1A1A", pruned="#C8C8C8", pruned_fill="#000000",
    pv="#FFE600", pv_core="#000000")
"""The picture in the window's high-contrast theme (Ctrl+H) and in exports that ask for it: white text and
lines on black, the shapes' colours kept (Okabe-Ito sky blue, orange, green) but bright on dark fills, the best
line yellow; every colour distinction still doubled by a shape or a dash."""


@dataclass(frozen=True)
class Item:
    """One drawing primitive (pixels, y down).

    ``op`` is ``line`` (``pts`` = two points), ``poly`` (closed polygon), ``circle`` (``pts`` = centre, ``r``),
    ``rect`` (``pts`` = top-left and bottom-right, ``r`` = corner radius) or ``text`` (``pts`` = anchor point,
    vertically centred; ``anchor`` ``start``/``middle``/``end``).
    """

    op: str
    pts: tuple[tuple[float, float], ...]
    stroke: str | None = None
    fill: str | None = None
    width: float = 1.0
    dash: tuple[float, float] | None = None
    r: float = 0.0
    text: str = ""
    size: float = 18.0
    bold: bool = False
    anchor: str = "middle"
    role: str = ""
    """What the item is in the tree, for the overlap checks (:mod:`gameplay.pictures.label_check`): ``shape`` (a
    node's outline), ``best`` (the best line's band), or a label: ``value`` (inside its shape), ``note`` (a line
    under a node), ``edge`` (the move or probability on the edge into a node), ``name`` (a Tree Lab letter),
    ``marker`` (the words of a placeholder); a label drawn on a background rectangle has the role on the rectangle
    (it holds the text). ``""``: anything else (edges, the text on a background, the header and the legend)."""


@dataclass
class Picture:
    """A display list with its size and the nodes' hit boxes."""

    width: float
    height: float
    items: list[Item]
    hits: list[tuple[int, tuple[float, float, float, float]]]
    """``(layout index, (x, y, w, h))`` for every visible item that a pointer can act on (all but the
    ``unrecorded`` boxes, which nothing opens), in picture pixels."""
    title: str = ""
    background: str = PALETTE.background
    legend: tuple[float, float, float, float] | None = None
    """``(x, y, w, h)`` of the legend row in picture pixels (``None``: no legend), so the overlay's step callout
    can keep clear of it."""
    boxes: dict[int, tuple[float, float, float, float]] = field(default_factory=dict)
    """Layout index -> ``(x, y, w, h)`` around everything drawn for that item (its shape, value, name, the lines
    under it and the label of the edge into it), in picture pixels: what must be on screen for the item to be
    seen whole."""
    owners: list[int] = field(default_factory=list)
    """The layout index each of :attr:`items` is drawn for, position by position (``-1``: the header, the legend);
    empty for a picture that is not a tree's (the legend strip)."""


def item_box(it: Item, measure: Callable[[str, float, bool], float] | None = None
             ) -> tuple[float, float, float, float] | None:
    """``(x, y, w, h)`` around a drawn item in picture pixels (``None`` for lines: edges may be crossed).

    Args:
        it: the item.
        measure: ``(text, size, bold) -> width`` of the renderer's font (default: :func:`text_width`).
    """
    if it.op == "line" or not it.pts:
        return None
    if it.op == "text":
        (x, y), = it.pts
        w = (measure or text_width)(it.text, it.size, it.bold)
        left = x - w / 2 if it.anchor == "middle" else x - w if it.anchor == "end" else x
        return left, y - it.size * 0.6, w, it.size * 1.2
    if it.op == "circle":
        (x, y), = it.pts
        return x - it.r, y - it.r, 2 * it.r, 2 * it.r
    xs = [p[0] for p in it.pts]
    ys = [p[1] for p in it.pts]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def text_width(s: str, size: float, bold: bool = False) -> float:
    """An estimate of the rendered width of ``s`` in a sans-serif font (pixels); generous on purpose."""
    w = 0.0
    for ch in s:
        if ch in "il.,:;|!'1 ":
            w += 0.34
        elif ch in "mwMW":
            w += 0.86
        elif ch.isupper() or ch in "≥≤∞±−=+<>×·":
            w += 0.68
        else:
            w += 0.58
    return w * size * (1.06 if bold else 1.0)


def prob_text(p: float) -> str:
    """A probability for an edge label: a small fraction when it is one (``1/6``), else 3 digits."""
    f = Fraction(p).limit_denominator(36)
    if abs(float(f) - p) < 1e-9 and f.denominator > 1:
        return f"{f.numerator}/{f.denominator}"
    return f"{p:.3g}"


def value_text(n: RecordedNode) -> str:
    """The value as the picture shows it: exact (``3``) or a bound (``≤ 2``, ``≥ 5``): the node's label in the
    window's spelling (:mod:`ai.kernel.spelling`)."""
    return n.label(UNICODE)


def window_text(n: RecordedNode, spelling: str = UNICODE) -> str:
    """The alpha-beta window the node was searched with (MAX's view; the DOT export's label in ASCII)."""
    return window_line(n.alpha_in, n.beta_in, n.proofs, spelling)


def window_line(a: float, b: float, proofs: bool = False, spelling: str = UNICODE) -> str:
    """``α=3 β=+∞``: a window as the line under a node reads (``proofs``: proven results as ``win in 3``;
    ``spelling``: :mod:`ai.kernel.spelling`, ``alpha=3 beta=+inf`` in ASCII). A principal-variation search's null
    window reads ``α=3 β=3+ε`` (or ``α=3-ε β=3``), as the narration says it."""
    s = signs(spelling)

    def num(v: float) -> str:
        return value_word(v, proofs, spelling)
    if math.isfinite(a) and math.isfinite(b) and b > a and math.nextafter(a, math.inf) == b:
        if len(repr(a)) <= len(repr(b)):  # the round end is the bound tested; the other is one step off
            return f"{s.alpha}={num(a)} {s.beta}={num(a)}+{s.eps}"
        return f"{s.alpha}={num(b)}-{s.eps} {s.beta}={num(b)}"
    return f"{s.alpha}={num(a)} {s.beta}={num(b)}"


WINDOW_LEGEND = ("α β: on leaving", "α β: at this step")
"""The legend's words for the window line under the nodes: in the finished picture the window each node had
when the search left it, in the step-through the window at the step shown (:func:`shown_window`)."""


def shown_window(n: RecordedNode, by_id: Mapping[int, RecordedNode]) -> tuple[float, float]:
    """The window the picture draws under ``n`` (MAX's view), as the narration tells it: a node still being
    searched at a step of the replay (:class:`ai.teaching.trace.PartialNode` with its ``window``) shows its window at
    that step; a node the search has left shows its window on leaving (:func:`ai.teaching.trace.left_window`, the
    narration's "C (MIN) = 2 ..., with alpha = 3, beta = 2"), in the step-through and the finished picture."""
    if isinstance(n, PartialNode) and n.window is not None:
        return n.window
    return left_window(by_id, n)


def node_notes(it: LayoutNode, show_window: bool, by_id: Mapping[int, RecordedNode] | None = None) -> list[str]:
    """The lines under a recorded node: its alpha-beta window (:func:`shown_window`; ``by_id``: the tree's
    recorded nodes by id), and a depth the search changed there (a late-move reduction, material truncation, plies
    given back, a forced-reply extension), or else a table hit, ETC, database verdict, repetition or chance
    average."""
    n = it.node
    if n is None:
        return []
    sub: list[str] = []
    if show_window and it.shape in (MAX, MIN):
        sub.append(window_line(*shown_window(n, by_id or {}), n.proofs))
    passes = passes_line(n)
    if passes:  # a node searched again: its test's bound, then its re-search's (one node, its passes in order)
        sub.append(passes)
    depth = [f"LMR: {plural(n.reduced, 'ply', 'plies')} shallower"] if n.reduced else []
    if n.depth_change:
        depth.append(n.depth_text())  # material truncation, plies given back, a forced-reply extension
    if depth:
        sub.append("; ".join(depth))
    elif n.note == "tt":
        sub.append("table hit")
    elif n.note == "etc":
        sub.append("ETC: child in table")
    elif n.note == "database":
        sub.append("endgame database")
    elif n.note == "repetition":
        sub.append("repetition")
    elif it.shape == CHANCE and n.children:
        sub.append("Σ p·v")
    return sub[:3] if passes else sub[:2]


def passes_line(n: RecordedNode) -> str:
    """The line under a node the search searched more than once, as far as the step shown has gone: each pass
    left with what it proved, the pass in progress by its name (``test >= 0, re-search <= 0``, as the node's value
    reads; during the re-search ``test >= 0, re-search``; while the test runs ``test``); ``""`` for a node searched
    once. ``n`` is the node as the step shows it (:func:`ai.teaching.trace.node_at`, a
    :class:`ai.teaching.trace.PartialNode` while a pass runs), so the line never tells what the search has not done
    yet."""
    if not n.re_searched:
        return ""
    pending = isinstance(n, PartialNode) and n.pending
    now = n.enter_order if pending else n.leave_order  # the moment the shown node stands for
    parts = []
    for p in n.passes:
        word = PASS_WORDS.get(p.kind, p.kind)
        if p.leave_order <= now:
            parts.append(f"{word} {p.label(n.proofs, UNICODE)}")
        elif p.enter_order <= now:
            parts.append(word)
    return ", ".join(parts)


def edge_text(it: LayoutNode, parent: LayoutNode) -> str:
    """The label on the edge from ``parent`` to ``it``."""
    if it.kind == PRUNED:
        return it.moves[0] if len(it.moves) == 1 else f"{len(it.moves)} moves"
    if it.kind in (COLLAPSED, UNRECORDED):
        return ""
    assert it.node is not None
    move = it.node.move or ""
    if it.node.probability is not None and parent.node is not None and parent.node.kind == CHANCE:
        p = prob_text(it.node.probability)
        face = move.split("=")[-1]  # "die=3" -> "3": the edge is crowded under a chance node
        return f"p={p}" if (move.isdigit() or not move) else f"{face} ({p})"
    return move


def header_lines(tree: SearchTree, summary: Mapping[str, Any] | None = None, lay: TreeLayout | None = None
                 ) -> list[str]:
    """The header: algorithm and cut-off rule; what was decided (move, value, depth: the decision's); which
    iteration the picture shows when it is another (its depth, root value and best move, in the same size as the
    numbers above); the counters; then what the picture leaves out. Every number is the recorded decision's
    model (:func:`ai.teaching.decision_tree.decision_summary`), printed by :mod:`ai.kernel.numbers`."""
    from ai.kernel.numbers import shown_iteration_words
    s = dict(summary or {})
    alg = str(s.get("algorithm", tree.algorithm))
    other = "final_depth" in s or "final_move" in s
    lines = [header_title(tree, alg, bool(s.get("ordering"))), decided_line(tree, s, other)]
    depth = s.get("depth", tree.depth or None)
    if other and depth is not None and s.get("value") is not None:
        lines.append(shown_iteration_words(
            int(depth), float(s["value"]), s.get("move"), int(s.get("final_depth", depth)),
            float(s.get("final_value", s["value"])), s.get("final_move", s.get("move")),
            recorded=tree.recorded_visits if tree.truncated else None, proofs=tree.proofs,
            unfinished=s.get("final_unfinished_depth")))
    lines.append(counts_line(tree, s, alg, depth))
    notes = left_out_notes(tree, lay)
    if notes:
        lines.append("; ".join(notes))
    return lines


def header_title(tree: SearchTree, alg: str, ordering: bool) -> str:
    """The header's first line: the algorithm and its cut-off rule (``, ordered moves`` with ``ordering``)."""
    rule = f"cut-off when {cut_rule(tree.prune, UNICODE)}"
    title = {"alphabeta": f"alpha-beta: {rule}", "minimax": "minimax (no pruning)",
             "expectimax": "expectimax: chance nodes take the probability-weighted average"}.get(alg, f"{alg}: {rule}")
    return title + (", ordered moves" if ordering else "")


def decided_line(tree: SearchTree, s: Mapping[str, Any], other: bool) -> str:
    """What was decided: the game and position, the move (or the best child), the value and the depth (the
    decision's ``final_`` ones when the picture shows another iteration, ``other``)."""
    from ai.kernel.numbers import value_label
    final = {k: s.get(f"final_{k}" if other else k) for k in ("move", "value", "depth")}
    what = []
    if "game" in s:
        what.append(f"{s['game']} {s.get('position', '')}".strip())
    if final["move"] is not None:
        what.append(f"move {final['move']}")
    elif "best" in s:
        what.append(f"best child {s['best']}")
    if final["value"] is not None:
        what.append(f"value {value_label(float(final['value']), tree.proofs)}")
    if final["depth"] is not None:
        late = s.get("final_unfinished_depth") if other else None
        what.append(f"depth {final['depth']}" + (f" (the move from depth {late}, unfinished)" if late else ""))
    return " · ".join(what)


def counts_line(tree: SearchTree, s: Mapping[str, Any], alg: str, depth: Any) -> str:
    """The counters: the nodes of the iteration shown (and of all iterations, for a game decision), leaves,
    cut-offs, table hits, and plain minimax's count when known."""
    from ai.kernel.numbers import cutoff_text, iteration_nodes_text, plural
    total = int(s.get("total_nodes", tree.total_nodes) or 0)
    game = bool(depth and total)  # a game decision: name the iteration the counts are of
    counts = [iteration_nodes_text(tree.visited, tree.recorded_visits, int(depth) if game and depth else None,
                                   capture=int(s.get("capture_nodes", 0) or 0), truncated=tree.truncated,
                                   algorithm=alg)]
    if game:
        counts.append(f"{total:,} in all iterations")
    counts.append(plural(tree.leaves, "leaf", "leaves"))
    if alg != "expectimax":
        counts.append(cutoff_text(tree.cutoffs, tree.pruned_subtrees))
    if tree.tt_hits:
        counts.append(plural(tree.tt_hits, "table hit"))
    if "minimax_nodes" in s:
        mm = int(s["minimax_nodes"])
        counts.append(f"plain minimax visits {mm:,} at depth {depth}" if game else f"minimax visits {mm:,}")
    return " · ".join(counts)


def left_out_notes(tree: SearchTree, lay: TreeLayout | None) -> list[str]:
    """What the picture of ``lay`` leaves out: nodes visited after the recording stopped, nodes behind ``+N``."""
    notes = []
    if tree.truncated and lay is not None and lay.unrecorded:
        notes.append("dotted boxes count the nodes visited after the recording stopped")
    if lay is not None and lay.hidden:
        notes.append(f"showing {lay.shown:,} of the {len(tree.final_ids()):,} recorded nodes; +N boxes hold the rest")
    return notes


def pruned_text(n: int) -> str:
    """The word on a pruned placeholder: ``pruned`` or ``pruned ×3``."""
    return f"pruned ×{n}" if n > 1 else "pruned"


def legend_entries(geo: TreeLayout, lay: TreeLayout | None = None, stepping: bool | None = None
                   ) -> list[tuple[str, str]]:
    """``(key, words)`` of the legend for a picture of ``geo``: the shapes present, pruned moves, the best line,
    hidden and unrecorded parts, and what the line under the nodes is (``stepping``: the window at the step shown;
    ``None``: decided by ``lay``, the part drawn at a step)."""
    present = {it.shape for it in geo.nodes if it.kind == NODE}
    entries: list[tuple[str, str]] = [(MAX, "MAX"), (MIN, "MIN")]
    if CHANCE in present:
        entries.append((CHANCE, "chance"))
    entries.append((LEAF, "leaf"))
    if any(it.kind == PRUNED for it in geo.nodes):
        entries.append((PRUNED, "pruned"))
    if any(it.on_pv for it in geo.nodes[1:]):
        entries.append(("PV", "best line"))
    if any(it.kind == COLLAPSED for it in geo.nodes):
        entries.append((COLLAPSED, "hidden"))
    if any(it.kind == UNRECORDED for it in geo.nodes):
        entries.append((UNRECORDED, "not recorded"))
    if geo.show_window and any(it.kind == NODE and it.shape in (MAX, MIN) for it in geo.nodes):
        if stepping is None:
            stepping = any(isinstance(it.node, PartialNode) for it in (lay or geo).nodes)
        entries.append(("WINDOW", WINDOW_LEGEND[1 if stepping else 0]))
    return entries


def legend_items(geo: TreeLayout, lay: TreeLayout | None, x: float, y: float, f: float, pal: Palette,
                 measure: Callable[[str, float, bool], float] = text_width, max_width: float | None = None,
                 stepping: bool | None = None) -> tuple[list[Item], float, float]:
    """The legend (:func:`legend_entries`) drawn from ``(x, y)`` (its top-left corner), ``f`` px text, in rows no
    wider than ``max_width`` (``None``: one row).

    Returns:
        ``(items, width, height)`` in pixels.
    """
    s = f / 20.0
    row_h = 1.35 * f
    out: list[Item] = []
    lx, top, widest = x, y, 0.0

    def widths(key: str, name: str) -> tuple[float, float]:
        """The entry's mark and words, in pixels (the window line's words as wide at every step)."""
        mark_w = {"PV": 56 * s, COLLAPSED: 48 * s, UNRECORDED: 48 * s, "WINDOW": 0.0}.get(key, 38 * s)
        words = max(measure(t, f, False) for t in WINDOW_LEGEND) if key == "WINDOW" else measure(name, f, False)
        return mark_w, words

    for key, name in legend_entries(geo, lay, stepping):
        mark_w, words = widths(key, name)
        if max_width is not None and lx > x and lx + mark_w + words > x + max_width:
            lx, top = x, top + row_h + 6 * s
        cy = top + row_h / 2
        if key == "PV":
            out += edge_items((lx + 6 * s, cy), (lx + 40 * s, cy), pal, s, pv=True)
        elif key == COLLAPSED:
            out.append(Item("rect", ((lx, cy - 13 * s), (lx + 40 * s, cy + 13 * s)), stroke=pal.muted,
                            fill=pal.background, width=2 * s, dash=(3 * s, 4 * s), r=6 * s))
            out.append(Item("text", ((lx + 20 * s, cy),), fill=pal.text, text="+N", size=f, bold=True))
        elif key == UNRECORDED:
            out.append(Item("rect", ((lx, cy - 13 * s), (lx + 40 * s, cy + 13 * s)), stroke=pal.pruned,
                            fill=pal.pruned_fill, width=2 * s, dash=unrecorded_dash(s), r=2 * s))
            out.append(Item("text", ((lx + 20 * s, cy),), fill=pal.muted, text="N", size=f))
        elif key == LEAF:  # a small leaf box, as tall as the triangles beside it
            out.append(Item("rect", ((lx + 2 * s, cy - 12 * s), (lx + 30 * s, cy + 12 * s)), stroke=pal.leaf_stroke,
                            fill=pal.leaf_fill, width=3 * s, r=4 * s))
        elif key != "WINDOW":
            out += shape_items(MIN if key == PRUNED else key, lx + 16 * s, cy, 15 * s, 12 * s, 13 * s, pal, s,
                                pruned=key == PRUNED, leaf_w=28 * s)
        lx += mark_w
        out.append(Item("text", ((lx, cy),), fill=pal.text, text=name, size=f, anchor="start"))
        lx += words
        widest = max(widest, lx - x)
        lx += 26 * s
    return out, widest, top + row_h - y


def lab_names(tree: SearchTree, root: Any = None) -> tuple[dict[int, str], dict[tuple[int, str], str]]:
    """The names the narration gives a Tree Lab tree's nodes, for
    :func:`gameplay.pictures.picture_build.build_picture`: ``{id: name}`` (:func:`ai.teaching.tree_names.node_names`:
    ``A``, ``B``... breadth first, leaves ``leaf 5``) and ``{(parent id, move): name}`` of the pruned children it names
    (:func:`ai.teaching.tree_names.lab_path_names`, "C's right child G"). A game tree (not
    :func:`ai.teaching.tree_names.is_lab_tree`) gets none: its nodes are named by their moves, on the edges.

    Args:
        tree: the recorded search.
        root: the explicit tree, when the narration letters the whole tree (see
        :func:`ai.teaching.narration.narration`).
    """
    from ai.teaching.tree_names import is_lab_tree, lab_path_names, node_names
    if not tree.nodes or not is_lab_tree(tree):
        return {}, {}
    names = node_names(tree, root, lab=True)
    by_path = lab_path_names(tree, root)
    paths: dict[int, tuple[int, ...]] = {}
    for n in sorted(tree.nodes, key=lambda n: n.enter_order):
        up = paths.get(n.parent, ()) if n.parent is not None else ()
        paths[n.id] = up + (int(n.move or 0),) if n.parent is not None else ()
    pruned = {(n.id, m): by_path[paths[n.id] + (int(m),)] for n in tree.nodes for m in n.skipped
              if by_path.get(paths[n.id] + (int(m),))}
    return names, pruned


def unrecorded_lines(n: int) -> tuple[str, str, str]:
    """The text of an ``unrecorded`` box, one line each: ``N nodes`` / ``searched,`` / ``not recorded``."""
    return (f"{n} node{'s' if n != 1 else ''}", "searched,", "not recorded")


def unrecorded_half_height(f: float, s: float) -> float:
    """Half the height in pixels of an ``unrecorded`` box (three lines at the font size ``f``)."""
    return 1.5 * 1.15 * f + 8 * s


def unrecorded_dash(s: float) -> tuple[float, float]:
    """The dotted stroke (on, off in pixels at scale ``s``) of ``unrecorded`` boxes and their edges: short dots,
    unlike the dashes of ``+N`` markers."""
    return (1.5 * s, 4.5 * s)


def edge_items(a: tuple[float, float], b: tuple[float, float], pal: Palette, s: float, *, pv: bool = False,
                pruned: bool = False, collapsed: bool = False, unrecorded: bool = False) -> list[Item]:
    if pv:
        return [Item("line", (a, b), stroke=pal.pv, width=13 * s, role="best"),
                Item("line", (a, b), stroke=pal.pv_core, width=4.5 * s)]
    if pruned:
        return [Item("line", (a, b), stroke=pal.pruned, width=3 * s, dash=(9 * s, 7 * s))]
    if collapsed:
        return [Item("line", (a, b), stroke=pal.muted, width=2.5 * s, dash=(3 * s, 5 * s))]
    if unrecorded:
        return [Item("line", (a, b), stroke=pal.pruned, width=2.5 * s, dash=unrecorded_dash(s))]
    return [Item("line", (a, b), stroke=pal.edge, width=2.5 * s)]


def label_items(t: str, x: float, y: float, f: float, color: str, pal: Palette, s: float, *, bold: bool = False,
                 measure: Callable[[str, float, bool], float] = text_width, role: str = "") -> list[Item]:
    """``t`` centred at ``(x, y)`` on a rectangle of the background (:func:`label_size`), the rectangle tagged
    ``role`` (:attr:`Item.role`)."""
    w, h = label_size(t, f, s, bold, measure)
    return [Item("rect", ((x - w / 2, y - h / 2), (x + w / 2, y + h / 2)), fill=pal.background, r=4 * s, role=role),
            Item("text", ((x, y),), fill=color, text=t, size=f, bold=bold)]


def label_size(t: str, f: float, s: float, bold: bool = False,
               measure: Callable[[str, float, bool], float] = text_width) -> tuple[float, float]:
    """``(width, height)`` in pixels of the background rectangle of :func:`label_items`: the text and 4 px of air
    each side (at scale ``s``), 1.15 lines tall."""
    return measure(t, f, bold) + 8 * s, f * 1.15


def shape_items(shape: str, cx: float, cy: float, hw: float, hh: float, cr: float, pal: Palette, s: float, *,
                 pv: bool = False, pruned: bool = False, leaf_w: float = 60.0) -> list[Item]:
    width = (5.5 if pv else 3.0) * s
    dash = (8 * s, 6 * s) if pruned else None
    if shape == MAX:
        stroke, fill = pal.max_stroke, pal.max_fill
        pts: tuple[tuple[float, float], ...] = ((cx, cy - hh), (cx + hw, cy + hh), (cx - hw, cy + hh))
    elif shape == MIN:
        stroke, fill = pal.min_stroke, pal.min_fill
        pts = ((cx - hw, cy - hh), (cx + hw, cy - hh), (cx, cy + hh))
    elif shape == CHANCE:
        stroke, fill = pal.chance_stroke, pal.chance_fill
        pts = ()
    else:
        stroke, fill = pal.leaf_stroke, pal.leaf_fill
        pts = ()
    if pruned:
        stroke, fill = pal.pruned, pal.pruned_fill
    if shape == CHANCE:
        return [Item("circle", ((cx, cy),), stroke=stroke, fill=fill, width=width, r=cr, dash=dash, role="shape")]
    if shape == LEAF:
        h = 22 * s
        return [Item("rect", ((cx - leaf_w / 2, cy - h), (cx + leaf_w / 2, cy + h)), stroke=stroke, fill=fill,
                     width=width, r=5 * s, dash=dash, role="shape")]
    return [Item("poly", pts, stroke=stroke, fill=fill, width=width, dash=dash, role="shape")]
