"""The picture of a Monte Carlo tree search (headless): which nodes are drawn, their words, and the DOT, SVG,
text and JSON files of ``main.py tree ... --agent mcts --out FILE`` and the MCTS overlay's Export.

The same model serves the window (:mod:`gameplay.ui.overlay.mcts_overlay`) and the files, so they show the same nodes
with the same numbers: the root; its most visited children (at most :data:`MAX_KIDS`); under the three most visited of
those their most visited children (at most :data:`MAX_GRANDKIDS` each); and the path of the simulation shown.
Each node reads ``N`` (visits), ``Q`` (mean value for the player who moved into it) and the UCB1 score its
parent's selection reads (a chance outcome: its probability; a Tree Lab leaf: its value). A ``.png`` is drawn by
the overlay itself, a painter its callers hand in (:func:`export_mcts`): this module never imports the window.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from xml.sax.saxutils import escape

from ai.teaching.mcts_record import MCTSTrace, Stats, trace_json
from gameplay.rules.base import GameError

MAX_KIDS = 9
"""Children drawn under the root (the most visited)."""
MAX_GRANDKIDS = 3
"""Children drawn under each of the three most visited root children."""
MCTS_SUFFIXES = (".txt", ".json", ".dot", ".svg", ".png")


def shown_nodes(trace: MCTSTrace, stats: Stats, k: int | None, max_row: int | None = None) -> list[int]:
    """Node ids drawn after ``k`` simulations (``None``: the finished search): see the module docstring; nodes not
    created yet at step ``k`` are left out; with ``max_row``, at most that many per depth (the current path first,
    then the most visited), so a narrow window keeps its text readable."""
    t = trace

    def alive(i: int) -> bool:
        return k is None or t.nodes[i].created <= k

    path = set(t.simulations[k - 1].path) if k else set()

    def best(ids: list[int], n: int) -> list[int]:
        ids = [i for i in ids if alive(i)]
        top = sorted(ids, key=lambda i: -stats[0][i])[:n]
        return [i for i in ids if i in top or i in path]

    def trim(level: list[int]) -> list[int]:
        if max_row is None or len(level) <= max_row:
            return level
        on_path = [i for i in level if i in path]
        rest = sorted((i for i in level if i not in path), key=lambda i: -stats[0][i])
        keep = set(on_path[:max_row] + rest[:max(0, max_row - len(on_path))])
        return [i for i in level if i in keep]

    shown = [0]
    level = trim(best(t.children(0), MAX_KIDS))
    depth = 1
    while level and depth <= 6:
        shown.extend(level)
        top = sorted(level, key=lambda i: -stats[0][i])[:3] if depth == 1 else []
        nxt: list[int] = []
        for i in level:
            if i in top or i in path:
                nxt.extend(best(t.children(i), MAX_GRANDKIDS if i in top else 0))
        level, depth = trim(nxt), depth + 1
    return shown


def rows(trace: MCTSTrace, ids: list[int]) -> list[list[int]]:
    """The drawn nodes by depth, each row in its parents' order, then in creation order."""
    shown = set(ids)
    out = [[0]]
    while True:
        nxt = [c for p in out[-1] for c in trace.children(p) if c in shown]
        if not nxt:
            return out
        out.append(nxt)


def node_lines(trace: MCTSTrace, stats: Stats, i: int) -> list[str]:
    """The three lines in node ``i``'s box: ``N 12``, ``Q +0.33`` (or ``proven win``), ``UCB 0.91`` (the root:
    who moves; a chance outcome: ``p 0.167``; a Tree Lab leaf starts ``leaf 3, N 4``)."""
    nd = trace.nodes[i]
    n, q, u = stats[0][i], trace.q(stats, i), trace.ucb(stats, i)
    proof = stats[2][i]
    lines = [f"N {n:,}", f"Q {signed(q)}" if n or proof is not None else "Q -"]
    if proof is not None:
        lines[1] = "proven " + ("win" if proof > 0 else ("loss" if proof < 0 else "draw"))
    if trace.payoffs and nd.utility is not None:
        lines[0] = f"leaf {plain(nd.utility)}, N {n:,}"
    if nd.parent is None:
        lines.append(f"{trace.side_name(nd.to_move)} to move")
    elif nd.probability is not None:
        lines.append(f"p {nd.probability:.3g}")
    else:
        lines.append("UCB " + ("inf" if u is None or math.isinf(u) else f"{u:.3g}"))
    return lines


def plain(v: float) -> str:
    """``3``, ``2.5``, ``0.333``."""
    return str(int(v)) if float(v).is_integer() else f"{v:.3g}"


def signed(v: float) -> str:
    """``0``, ``+0.33``, ``-1.00``."""
    return "0" if v == 0 else f"{v:+.2f}"


def to_dot(trace: MCTSTrace, title: str = "") -> str:
    """Graphviz DOT of the finished search's drawn nodes (the most visited root child drawn thick)."""
    f = trace.final
    ids = shown_nodes(trace, f, None)
    best = trace.most_visited(f)
    out = ["digraph mcts {", f'  label="{_dot(title or trace.summary())}"; labelloc=t;',
           "  node [shape=box, fontname=Helvetica];"]
    for i in ids:
        nd = trace.nodes[i]
        style = ", penwidth=3, color=orange" if i == best else (", style=rounded" if nd.kind == "chance" else "")
        out.append(f'  n{i} [label="{_dot(chr(10).join(node_lines(trace, f, i)))}"{style}];')
        if nd.parent is not None:
            out.append(f'  n{nd.parent} -> n{i} [label="{_dot(nd.move or "")}"];')
    out.append("}")
    return "\n".join(out) + "\n"


def _dot(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def to_svg(trace: MCTSTrace, title: str = "") -> str:
    """An SVG picture of the finished search's drawn nodes (rows by depth, N / Q / UCB1 in each box)."""
    f = trace.final
    ids = shown_nodes(trace, f, None)
    rs = rows(trace, ids)
    box_w, box_h, gap_x, gap_y, top = 110, 52, 12, 70, 60
    width = max(len(r) for r in rs) * (box_w + gap_x) + gap_x
    height = top + len(rs) * (box_h + gap_y)
    best = trace.most_visited(f)
    pos: dict[int, tuple[float, float]] = {}
    for d, r in enumerate(rs):
        for j, i in enumerate(r):
            pos[i] = ((j + 0.5) * width / len(r), top + d * (box_h + gap_y) + box_h / 2)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="Helvetica, Arial, sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             '<text x="8" y="20" font-size="14" font-weight="bold">'
             f'{escape(title or "Monte Carlo tree search")}</text>',
             f'<text x="8" y="38">{escape(trace.summary())}</text>']
    for i in ids:
        nd = trace.nodes[i]
        if nd.parent is not None and nd.parent in pos:
            (x0, y0), (x1, y1) = pos[nd.parent], pos[i]
            parts.append(f'<line x1="{x0:.1f}" y1="{y0 + box_h / 2:.1f}" x2="{x1:.1f}" y2="{y1 - box_h / 2:.1f}" '
                         'stroke="#bebebe" stroke-width="1.5"/>')
            parts.append(f'<text x="{x1:.1f}" y="{y1 - box_h / 2 - 4:.1f}" text-anchor="middle" '
                         f'font-weight="bold">{escape(nd.move or "")}</text>')
    for i in ids:
        x, y = pos[i]
        nd = trace.nodes[i]
        colour = "#e69f00" if i == best else ("#009e73" if nd.kind == "chance" else
                                              ("#0072b2" if nd.player % 2 == 0 else "#d55e00"))
        parts.append(f'<rect x="{x - box_w / 2:.1f}" y="{y - box_h / 2:.1f}" width="{box_w}" height="{box_h}" '
                     f'rx="6" fill="#f2f2f2" stroke="{colour}" stroke-width="{4 if i == best else 2}"/>')
        for j, line in enumerate(node_lines(trace, f, i)):
            parts.append(f'<text x="{x:.1f}" y="{y - box_h / 2 + 15 + 15 * j:.1f}" text-anchor="middle">'
                         f'{escape(line)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def export_mcts(trace: MCTSTrace, path: Path, title: str = "",
                png: Callable[[MCTSTrace, str, Path], None] | None = None) -> None:
    """Write ``trace`` to ``path`` by its suffix (:data:`MCTS_SUFFIXES`).

    A ``.png`` is drawn by ``png(trace, title, path)``, the window's painter
    (:func:`gameplay.ui.overlay.mcts_overlay.render_png`), which its callers hand in: this module never imports the
    window.

    Raises:
        GameError: an unknown suffix, a ``.png`` without a painter, or the file cannot be written.
    """
    suffix = path.suffix.lower()
    if suffix not in MCTS_SUFFIXES:
        raise GameError(f"--out {path}: an mcts search is written as {', '.join(MCTS_SUFFIXES)}")
    try:
        if suffix == ".png":
            from gameplay.rules.outfile import replacing
            if png is None:
                raise GameError(f"--out {path}: a PNG of an mcts search needs the window's painter")
            with replacing(path) as tmp:
                png(trace, title, tmp)
            return
        if suffix == ".json":
            text = json.dumps({"title": title, **trace_json(trace)}, indent=1) + "\n"
        elif suffix == ".dot":
            text = to_dot(trace, title)
        elif suffix == ".svg":
            text = to_svg(trace, title)
        else:
            text = (title + "\n" if title else "") + trace.text() + "\n"
        from gameplay.rules.outfile import write_text
        write_text(path, text)
    except OSError as e:
        raise GameError(f"cannot write {path}: {e.strerror or e}") from None
