"""Writing a recorded search tree to a file: JSON, Graphviz DOT, plain text, SVG or PNG (no pygame here).

The SVG is written by hand from the shared picture (:func:`gameplay.pictures.picture_build.build_picture`), so it
matches the PNG and the in-window overlay; big trees are collapsed to about
:data:`~gameplay.pictures.tree_layout.DEFAULT_MAX_VISIBLE` items with ``+N nodes`` markers. The PNG is drawn by
``gameplay.pictures.tree_png`` (pygame-ce), imported only when a PNG is asked for.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from ai.kernel.recording import CHANCE, MAX, RecordedNode, SearchTree
from ai.kernel.spelling import ASCII
from gameplay.pictures.picture_build import build_picture
from gameplay.pictures.tree_layout import DEFAULT_MAX_VISIBLE, cut_reason, layout
from gameplay.pictures.tree_picture import PALETTE, Palette, Picture, lab_names, prob_text, window_text
from gameplay.rules.base import GameError

SUFFIXES = (".json", ".dot", ".txt", ".svg", ".png", ".md")
"""File types :func:`export_tree` writes."""
DEFAULT_MAX_CHILDREN = 12
"""Searched children shown per node in pictures before the rest are folded into one ``+N`` marker."""


def export_tree(tree: SearchTree, path: str | Path, summary: Mapping[str, Any] | None = None, *,
                max_nodes: int | None = DEFAULT_MAX_VISIBLE, font_size: float = 20.0, root: Any = None,
                palette: Palette = PALETTE) -> Path:
    """Write ``tree`` to ``path``, the format chosen by the suffix.

    ``.json``: every recorded node with all its fields but the position, plus the tree's counters and
    ``summary``; ``.dot``: Graphviz; ``.txt``: :meth:`SearchTree.text` and a "Narration" section (the search
    in words, one numbered sentence per step, :func:`ai.teaching.narration.narration`); ``.md``: a Markdown handout (a
    title, the summary, the numbered steps); ``.svg`` and ``.png``: the picture.

    Args:
        tree: the recorded search.
        path: the file to write (overwritten).
        summary: the CLI's result object (value, best move, ``minimax_nodes`` ...), shown in the header and
            stored in the JSON.
        max_nodes: pictures show at most about this many items (``None``: all).
        font_size: picture body text in pixels.
        root: for a Tree Lab tree, the explicit tree (:class:`gameplay.rules.trees.TreeNode`), so the narration
            and the picture letter its nodes over the whole tree (optional; without it they letter the nodes
            searched and their pruned children).
        palette: the picture's colours (:data:`gameplay.pictures.tree_picture.HIGH_CONTRAST_PALETTE` for the
            high-contrast theme).

    Returns:
        The path written.

    Raises:
        GameError: an unknown suffix, or a PNG without pygame-ce installed.
        OSError: the file cannot be written.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    writers: dict[str, Callable[[], str | None]] = {
        ".json": lambda: tree_json(tree, summary),
        ".dot": lambda: tree_dot(tree, summary),
        ".txt": lambda: tree_text(tree, root),
        ".md": lambda: tree_markdown(tree, summary, root),
        ".svg": lambda: tree_svg(tree, summary, max_nodes=max_nodes, font_size=font_size, root=root,
                                 palette=palette),
    }
    if suffix == ".png":
        try:
            os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
            from gameplay.pictures.tree_png import render_png
        except ImportError as e:
            raise GameError(f"PNG export needs pygame-ce (pip install pygame-ce), which is not installed ({e}); "
                            "write .svg, .dot, .json or .txt instead") from None
        from gameplay.rules.outfile import replacing
        with replacing(p) as tmp:
            render_png(tree, tmp, summary, max_nodes=max_nodes, font_size=font_size, root=root, palette=palette)
        return p
    if suffix not in writers:
        raise GameError(f"cannot write a tree to {p.name!r}: unknown file type {suffix or '(none)'!r}; "
                        f"expected one of {', '.join(SUFFIXES)}")
    text = writers[suffix]()
    assert text is not None
    from gameplay.rules.outfile import write_text
    return write_text(p, text)


# -- text and Markdown ----------------------------------------------------------------------------------------------
def tree_text(tree: SearchTree, root: Any = None) -> str:
    """The plain-text trace (:meth:`SearchTree.text`) followed by a "Narration" section: ``Step 1: ...``."""
    from ai.teaching.narration import narration, numbered
    steps = numbered(narration(tree, root))
    return tree.text() + "\n\nNarration\n=========\n" + "\n".join(steps) + "\n"


def _md(s: str) -> str:
    """Escape the characters Markdown would read as emphasis or markup (``*`` in ``1/6*3``, ``>``, ``_``)."""
    out = s
    for ch in ("\\", "*", "_", "`", "<"):
        out = out.replace(ch, "\\" + ch)
    return out


def tree_markdown(tree: SearchTree, summary: Mapping[str, Any] | None = None, root: Any = None) -> str:
    """A Markdown handout of the search: a title, the summary (the picture's header lines) and the numbered
    steps of the narration (:func:`ai.teaching.narration.narration`), one list item per step of the step-through."""
    from ai.teaching.narration import narration
    from gameplay.pictures.tree_picture import header_lines
    s = dict(summary or {})
    alg = {"alphabeta": "Alpha-beta", "minimax": "Minimax", "expectimax": "Expectimax"}.get(
        tree.algorithm, tree.algorithm)
    what = f" on {s['game']} {s.get('position', '')}".rstrip() if "game" in s else " on a Tree Lab tree"
    lines = [f"# {alg} search{_md(what)}", ""]
    lines += [f"- {_md(h)}" for h in header_lines(tree, summary)]
    if tree.pv:
        lines.append(f"- principal variation: {_md(' '.join(tree.pv))}")
    lines += ["", "## The search step by step", ""]
    lines += [f"{i}. {_md(t)}" for i, t in enumerate(narration(tree, root), 1)]
    return "\n".join(lines) + "\n"


# -- JSON ----------------------------------------------------------------------------------------------------------
def _clean(v: Any) -> Any:
    """JSON-safe: infinities become ``null`` (no bound), tuples lists, other objects their ``str``."""
    if isinstance(v, bool) or v is None or isinstance(v, (int, str)):
        return v
    if isinstance(v, float):
        if math.isinf(v) or math.isnan(v):
            return None
        return int(v) if v.is_integer() else v
    if isinstance(v, Mapping):
        return {str(k): _clean(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_clean(x) for x in v]
    return str(v)


def node_dict(n: RecordedNode) -> dict[str, Any]:
    """All fields of a recorded node but ``state``, plus ``label``; infinite bounds and windows are ``null``.
    ``unrecorded``: nodes searched below it that the recorder's bound left out; ``capture``: a leaf's capture
    (quiescence) search nodes, counted and never drawn; ``reduced``: plies a late-move reduction took off;
    ``depth_change`` and ``depth_reasons``: plies the search added or took off there and why (``truncation``,
    ``given back``, ``extension``); ``passes``: each search of a node searched more than once (principal-variation
    search's null-window test, then its re-search: ``kind``, its window, bound, value, moments, children and pruned
    moves), empty for a node searched once."""
    return {"id": n.id, "parent": n.parent, "kind": n.kind, "move": n.move, "probability": n.probability,
            "depth": n.depth, "alpha_in": _clean(n.alpha_in), "beta_in": _clean(n.beta_in),
            "alpha_out": _clean(n.alpha_out), "beta_out": _clean(n.beta_out), "lo": _clean(n.lo),
            "hi": _clean(n.hi), "value": _clean(n.value), "label": n.label(), "exact": n.exact,
            "enter_order": n.enter_order, "leave_order": n.leave_order, "children": list(n.children),
            "skipped": list(n.skipped), "note": n.note, "on_pv": n.on_pv, "unrecorded": n.unrecorded,
            "capture": n.capture, "reduced": n.reduced, "depth_change": n.depth_change,
            "depth_reasons": list(n.depth_reasons),
            "passes": [{"kind": p.kind, "alpha_in": _clean(p.alpha_in), "beta_in": _clean(p.beta_in),
                        "lo": _clean(p.lo), "hi": _clean(p.hi), "value": _clean(p.value), "label": p.label(n.proofs),
                        "enter_order": p.enter_order, "leave_order": p.leave_order, "children": list(p.children),
                        "skipped": list(p.skipped), "note": p.note, "reduced": p.reduced,
                        "depth_change": p.depth_change, "depth_reasons": list(p.depth_reasons)} for p in n.passes]}


def tree_json(tree: SearchTree, summary: Mapping[str, Any] | None = None) -> str:
    """The tree as a JSON document: ``{"algorithm", "prune", "visited", "depth", "total_nodes", "leaves",
    "cutoffs", "tt_hits", "truncated", "pv", "summary", "nodes": [...]}`` (infinite values written as ``null``).

    ``visited`` counts the nodes the search visited in the iteration drawn (``depth``; 0 for a Tree Lab tree),
    ``total_nodes`` the whole decision's (every iteration; 0 when unknown), ``nodes`` the nodes stored;
    ``cutoffs`` the nodes of the tree where a cut-off pruned moves (:attr:`ai.kernel.recording.SearchTree.cutoffs`; the
    pruned moves are each node's ``skipped``)."""
    doc = {"algorithm": tree.algorithm, "prune": tree.prune, "visited": tree.visited, "depth": tree.depth,
           "total_nodes": tree.total_nodes, "leaves": tree.leaves, "cutoffs": tree.cutoffs,
           "tt_hits": tree.tt_hits, "truncated": tree.truncated, "pv": list(tree.pv),
           "summary": _clean(dict(summary or {})), "nodes": [node_dict(n) for n in tree.nodes]}
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


# -- DOT -----------------------------------------------------------------------------------------------------------
def _dq(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def tree_dot(tree: SearchTree, summary: Mapping[str, Any] | None = None) -> str:
    """Graphviz DOT of every recorded node plus the pruned moves (``dot -Tsvg tree.dot``).

    MAX nodes are up-triangles, MIN ``invtriangle``, CHANCE circles, leaves boxes; pruned moves dashed grey;
    principal-variation edges bold. Labels give the value or bound and the alpha-beta window, and for a node searched
    more than once what each pass proved (``test >= 0, re-search <= 0``). The finished search is drawn, each node
    once (:meth:`ai.kernel.recording.SearchTree.final_ids`: what a failed null-window test searched below its node is
    in the JSON and the text trace).
    """
    from gameplay.pictures.tree_picture import header_lines
    pal = PALETTE
    title = " | ".join(header_lines(tree, summary))
    out = ["digraph search_tree {",
           f"  label={_dq(title)}; labelloc=t; fontsize=20; fontname=\"Helvetica\";",
           "  node [fontname=\"Helvetica\", fontsize=16, style=filled, penwidth=2];",
           "  edge [fontname=\"Helvetica\", fontsize=14, arrowhead=none, color=\"#5A5A5A\"];"]
    windows = any(n.alpha_in > -math.inf or n.beta_in < math.inf for n in tree.nodes)
    ids = tree.final_ids()
    drawn = [n for n in tree.nodes if n.id in ids]
    for n in drawn:
        leaf = n.note in ("leaf", "terminal") or (not n.children and not n.skipped and not n.note)
        label = n.label()
        if windows and not leaf and n.kind != CHANCE:
            label += "\n" + window_text(n, ASCII)
        if n.re_searched:
            label += "\n" + n.passes_text()
        if n.note in ("tt", "repetition", "etc", "database"):
            label += f"\n({n.note})"
        if leaf:
            shape, color, fill = "box", pal.leaf_stroke, pal.leaf_fill
        elif n.kind == MAX:
            shape, color, fill = "triangle", pal.max_stroke, pal.max_fill
        elif n.kind == CHANCE:
            shape, color, fill = "circle", pal.chance_stroke, pal.chance_fill
        else:
            shape, color, fill = "invtriangle", pal.min_stroke, pal.min_fill
        extra = ", penwidth=4" if n.on_pv else ""
        out.append(f"  n{n.id} [label={_dq(label)}, shape={shape}, color=\"{color}\", fillcolor=\"{fill}\"{extra}];")
    for n in drawn:
        if n.parent is None or n.parent not in ids:
            continue
        elabel = n.move or ""
        if n.probability is not None:
            elabel = (elabel + " " if elabel and not elabel.isdigit() else "") + f"p={prob_text(n.probability)}"
        style = ", penwidth=5, color=\"#000000\", style=bold" if n.on_pv else ""
        out.append(f"  n{n.parent} -> n{n.id} [label={_dq(elabel)}{style}];")
    for n in drawn:
        if not n.skipped:
            continue
        reason = cut_reason(n, tree.prune, ASCII)
        shape = "triangle" if n.kind != MAX else "invtriangle"
        for k, m in enumerate(n.skipped):
            pid = f"p{n.id}_{k}"
            out.append(f"  {pid} [label={_dq('pruned' + (chr(10) + reason if reason else ''))}, shape={shape}, "
                       f"style=\"dashed,filled\", color=\"{pal.pruned}\", fillcolor=\"{pal.pruned_fill}\", "
                       f"fontcolor=\"#4D4D4D\"];")
            out.append(f"  n{n.id} -> {pid} [label={_dq(m)}, style=dashed, color=\"{pal.pruned}\", "
                       f"fontcolor=\"#4D4D4D\"];")
    out.append("}")
    return "\n".join(out) + "\n"


# -- SVG -----------------------------------------------------------------------------------------------------------
def _n(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def picture_svg(pic: Picture) -> str:
    """Serialise a picture as a standalone SVG document (sans-serif text, no external resources)."""
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(pic.width)}" height="{_n(pic.height)}" '
            f'viewBox="0 0 {_n(pic.width)} {_n(pic.height)}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">')
    out = [head,
           f"<title>{escape(pic.title)}</title>",
           f'<rect x="0" y="0" width="{_n(pic.width)}" height="{_n(pic.height)}" fill="{pic.background}"/>']
    for it in pic.items:
        paint = (f' stroke="{it.stroke}" stroke-width="{_n(it.width)}"' if it.stroke else ' stroke="none"') + \
                f' fill="{it.fill or "none"}"'
        if it.dash:
            paint += f' stroke-dasharray="{_n(it.dash[0])} {_n(it.dash[1])}"'
        if it.op == "line":
            (x1, y1), (x2, y2) = it.pts
            out.append(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" stroke="{it.stroke}" '
                       f'stroke-width="{_n(it.width)}" stroke-linecap="round"'
                       + (f' stroke-dasharray="{_n(it.dash[0])} {_n(it.dash[1])}"' if it.dash else "") + "/>")
        elif it.op == "poly":
            pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in it.pts)
            out.append(f'<polygon points="{pts}"{paint} stroke-linejoin="round"/>')
        elif it.op == "circle":
            (cx, cy), = it.pts
            out.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(it.r)}"{paint}/>')
        elif it.op == "rect":
            (x1, y1), (x2, y2) = it.pts
            out.append(f'<rect x="{_n(x1)}" y="{_n(y1)}" width="{_n(x2 - x1)}" height="{_n(y2 - y1)}" '
                       f'rx="{_n(it.r)}"{paint}/>')
        elif it.op == "text":
            (x, y), = it.pts
            weight = ' font-weight="bold"' if it.bold else ""
            out.append(f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(it.size)}" fill="{it.fill}" '
                       f'text-anchor="{it.anchor}" dominant-baseline="central"{weight}>{escape(it.text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def tree_svg(tree: SearchTree, summary: Mapping[str, Any] | None = None, *,
             max_nodes: int | None = DEFAULT_MAX_VISIBLE, max_children: int | None = DEFAULT_MAX_CHILDREN,
             font_size: float = 20.0, root: Any = None, palette: Palette = PALETTE) -> str:
    """The tree as an SVG picture for a projector (see :func:`gameplay.pictures.picture_build.build_picture`); a
    Tree Lab tree's nodes carry the narration's names (``A``, ``B``...,
    :func:`gameplay.pictures.tree_picture.lab_names`).

    Args:
        tree: the recorded search.
        summary: the CLI's result object, for the header.
        max_nodes: the most items shown (collapsed levels get ``+N nodes`` markers); ``None``: all.
        max_children: searched children shown per node; ``None``: all.
        font_size: body text in pixels (>= 18 recommended).
        root: for a Tree Lab tree, the explicit tree the narration letters (optional).
        palette: the picture's colours.

    Returns:
        The SVG document.
    """
    lay = layout(tree, max_children=max_children, collapse=max_nodes)
    names, pruned = lab_names(tree, root)
    return picture_svg(build_picture(lay, summary, font_size=font_size, names=names, pruned_names=pruned,
                                     palette=palette))


# -- the overlay's Export button ----------------------------------------------------------------------------------
EXPORT_SUFFIXES = (".svg", ".png", ".dot", ".json", ".txt", ".md")
"""What the overlay's Export button writes, one file each."""


def default_export_dir() -> Path:
    """Where the Export button writes: ``$ARCADE_EXPORT_DIR``, else ``~/Documents/search-trees`` (or
    ``~/search-trees`` without a Documents folder)."""
    env = os.environ.get("ARCADE_EXPORT_DIR")
    if env:
        return Path(env).expanduser()
    home = Path.home()
    docs = home / "Documents"
    return (docs if docs.is_dir() else home) / "search-trees"


def export_all(tree: SearchTree, folder: str | Path, stem: str, summary: dict[str, Any] | None = None, *,
               root: Any = None, palette: Palette = PALETTE) -> list[Path]:
    """Write ``tree`` as SVG, PNG, DOT, JSON, a text trace with the narration and a Markdown handout of the
    narration (:func:`ai.teaching.narration.narration`) into ``folder`` (created if missing); ``root`` and ``palette``
    as :func:`export_tree` takes them (the window passes its Tree Lab tree and its theme's colours).

    Returns:
        The files written.

    Raises:
        OSError: the folder or a file cannot be written.
        GameError: the PNG writer is unavailable.
    """
    d = Path(folder)
    d.mkdir(parents=True, exist_ok=True)
    return [export_tree(tree, d / f"{stem}{suffix}", summary, root=root, palette=palette)
            for suffix in EXPORT_SUFFIXES]
