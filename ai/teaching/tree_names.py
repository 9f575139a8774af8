"""What the nodes of a recorded search are called, in the narration, the pictures and the exports (no pygame).

In a Tree Lab tree (an explicit tree: raw payoffs, every move a child index, :func:`is_lab_tree`) inner nodes are
lettered ``A``, ``B``, ``C``... in breadth-first order and leaves named by their value (``leaf 5``), as in the
textbook figures (Russell & Norvig, *AIMA* 4th ed., figure 5.5); a child is placed among its siblings as
``left``/``middle``/``right`` or ``first``, ``second``... (:func:`child_place`). In a game tree a node is named by
the moves from the root (``root``, ``4``, ``4 > 0``). :func:`node_names` gives every recorded node's name.
"""

from __future__ import annotations

from typing import Any

from ai.kernel.numbers import number_text
from ai.kernel.recording import RecordedNode, SearchTree


def is_lab_tree(tree: SearchTree) -> bool:
    """True for a Tree Lab tree: raw payoffs (``tree.proofs`` False) and every move a child index."""
    return (not tree.proofs and all(n.move is None or n.move.isdigit() for n in tree.nodes)
            and all(s.isdigit() for n in tree.nodes for s in n.skipped))


def _letters(i: int) -> str:
    """0 -> ``A``, 25 -> ``Z``, 26 -> ``AA`` (spreadsheet columns)."""
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(ord("A") + r) + out
    return out


def lab_paths(tree: SearchTree) -> dict[int, tuple[int, ...]]:
    """Each recorded node's path of child indices from the root."""
    paths: dict[int, tuple[int, ...]] = {}
    for n in sorted(tree.nodes, key=lambda n: n.enter_order):
        up = () if n.parent is None else paths.get(n.parent, ())
        paths[n.id] = up if n.parent is None else up + (int(n.move or 0),)
    return paths


def is_leaf(n: RecordedNode) -> bool:
    return n.note in ("leaf", "terminal") or (not n.children and not n.skipped and not n.note)


def lab_path_names(tree: SearchTree | None, root: Any = None) -> dict[tuple[int, ...], str]:
    """Names by path (child indices) in a Tree Lab tree: inner nodes ``A``, ``B``... breadth first, leaves
    ``leaf 5``; pruned children included.

    Args:
        tree: the recorded search of an explicit tree (``None`` when ``root`` is given: the names then come from
            the tree alone, e.g. to letter a tree no search has recorded).
        root: the explicit tree (:class:`gameplay.rules.trees.TreeNode`: ``value``, ``children``); with it the
            letters follow the whole tree, pruned subtrees included, exactly as the textbook letters them.
            Without it they follow the recorded nodes and their pruned children (the same unless a pruned
            subtree hides inner nodes above the deepest level searched), and a pruned leaf is named by position.
    """
    names: dict[tuple[int, ...], str] = {}
    if root is not None:
        level: list[tuple[tuple[int, ...], Any]] = [((), root)]
        k = 0
        while level:
            nxt: list[tuple[tuple[int, ...], Any]] = []
            for path, node in level:
                if getattr(node, "value", None) is not None:
                    names[path] = f"leaf {number_text(float(node.value))}"
                    continue
                names[path] = _letters(k)
                k += 1
                nxt += [(path + (i,), c) for i, c in enumerate(node.children)]
            level = nxt
        return names
    if tree is None:
        raise ValueError("lab_path_names needs the recorded search or the explicit tree")
    paths = lab_paths(tree)
    by_path = {paths[n.id]: n for n in tree.nodes if n.id in paths}
    known: dict[tuple[int, ...], bool | None] = {p: not is_leaf(n) for p, n in by_path.items()}
    by_id = {n.id: n for n in tree.nodes}
    for p, n in by_path.items():
        inner_sibling = any(not is_leaf(by_id[k]) for k in n.children if k in by_id)
        for s in n.skipped:
            known.setdefault(p + (int(s),), True if inner_sibling else None)
    k = 0
    for p in sorted(known, key=lambda p: (len(p), p)):
        inner = known[p]
        if inner:
            names[p] = _letters(k)
            k += 1
        elif inner is None:
            # a pruned child of unknown kind: named by its place (see ai.teaching.narration.Narrator.child_phrase)
            names[p] = ""
        else:
            names[p] = f"leaf {number_text(by_path[p].value)}"
    return names


def node_names(tree: SearchTree, root: Any = None, *, lab: bool | None = None) -> dict[int, str]:
    """The name of every recorded node, by id.

    Args:
        tree: the recorded search.
        root: for a Tree Lab tree, the explicit tree (see :func:`lab_path_names`); ignored otherwise.
        lab: name as a Tree Lab tree (letters) or a game tree (moves); ``None``: :func:`is_lab_tree` decides.

    Returns:
        ``{id: name}``: ``A``, ``B``... and ``leaf 9`` in a Tree Lab tree; ``root``, ``4``, ``4 > 0`` in a game.
    """
    if lab if lab is not None else is_lab_tree(tree):
        paths = lab_paths(tree)
        by_path = lab_path_names(tree, root)
        return {i: by_path.get(p) or "?" for i, p in paths.items()}
    out: dict[int, str] = {}
    for n in sorted(tree.nodes, key=lambda n: n.enter_order):
        if n.parent is None:
            out[n.id] = "root"
        else:
            up = out.get(n.parent, "root")
            mv = n.move or "?"
            out[n.id] = mv if up == "root" else f"{up} > {mv}"
    return out


def child_place(i: int, total: int) -> str:
    """``left``/``right`` among two, ``left``/``middle``/``right`` among three, else ``first``, ``second``..."""
    if total == 2 and i in (0, 1):
        return ("left", "right")[i]
    if total == 3 and i in (0, 1, 2):
        return ("left", "middle", "right")[i]
    words = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
    return words[i] if 0 <= i < len(words) else f"{i + 1}th"

