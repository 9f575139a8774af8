"""The Tree Lab's tree as its JSON value: random trees, and a node found, replaced, given a child or removed by path.

A tree is the value :func:`gameplay.rules.trees.parse_tree` reads: a number (a leaf), a list of subtrees (a MAX or
MIN node) or ``{"chance": [[p, subtree], ...]}`` (a chance node). A path is the tuple of child indices from the
root (``()``: the root). Nothing here changes a tree in place: every edit returns a new value.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from gameplay.rules.textfile import json_place
from gameplay.rules.trees import TreeSpec


def random_tree(branching: int, depth: int, rng: random.Random, *, chance: bool = False, lo: int = 0,
                hi: int = 20) -> TreeSpec:
    """A uniform random tree: ``branching`` children per node, ``depth`` levels, integer leaves in [lo, hi].

    Args:
        branching: children per inner node (>= 1).
        depth: levels below the root (>= 1).
        rng: the random generator (seeded by the caller).
        chance: odd levels are chance nodes with equal probabilities (for expectimax) instead of MIN nodes.
        lo: smallest leaf value.
        hi: largest leaf value.
    """
    def build(level: int) -> TreeSpec:
        if level == depth:
            return rng.randint(lo, hi)
        kids = [build(level + 1) for _ in range(branching)]
        if chance and level % 2 == 1:
            return {"chance": [[1.0 / branching, k] for k in kids]}
        return kids

    return build(0)


def children_of(spec: Any) -> list[Any] | None:
    """The child list of a decision node, the ``[p, subtree]`` list of a chance node, ``None`` for a leaf."""
    if isinstance(spec, list):
        return spec
    if isinstance(spec, dict):
        chance: list[Any] = spec["chance"]
        return chance
    return None


def node_at(spec: Any, path: tuple[int, ...]) -> Any:
    """The subtree of ``spec`` at ``path``.

    Raises:
        IndexError, KeyError, TypeError: ``path`` leads nowhere in ``spec``.
    """
    for i in path:
        if isinstance(spec, dict):
            spec = spec["chance"][i][1]
        else:
            spec = spec[i]
    return spec


def replace_at(spec: Any, path: tuple[int, ...], value: Any) -> Any:
    """``spec`` with the subtree at ``path`` replaced (a new structure; the root when ``path`` is empty)."""
    if not path:
        return value
    out = copy.deepcopy(spec)
    parent = node_at(out, path[:-1])
    i = path[-1]
    if isinstance(parent, dict):
        parent["chance"][i][1] = value
    else:
        parent[i] = value
    return out


def with_child(node: Any) -> Any:
    """``node`` with one more child, a leaf worth 0 (a leaf becomes a MAX/MIN node over itself and the 0; a chance
    node's probabilities become equal)."""
    kids = children_of(node)
    if kids is None:
        return [node, 0]
    if isinstance(node, dict):
        n = len(kids) + 1
        return {"chance": [[1.0 / n, k[1]] for k in kids] + [[1.0 / n, 0]]}
    return list(kids) + [0]


def without_child(node: Any, index: int) -> Any:
    """A copy of the inner ``node`` without its child ``index`` (a chance node's probabilities rescaled to sum 1)."""
    parent = copy.deepcopy(node)
    kids = children_of(parent)
    assert kids is not None
    del kids[index]
    if isinstance(parent, dict):
        total = sum(k[0] for k in kids) or 1.0
        for k in kids:
            k[0] = k[0] / total
    return parent


def json_error_text(e: json.JSONDecodeError) -> str:
    """A rejected tree's JSON error in the Tree Lab's words: where it is wrong and what a tree looks like."""
    return (f"The tree is not valid JSON ({json_place(e)}): expected a list of subtrees like "
            f"[[3,12,8],[2,4,6]] or {{\"chance\": [[p, subtree], ...]}}")


def number_text(v: Any) -> str:
    """A leaf's value as the Tree Lab writes it: ``3`` for 3.0, three significant digits for other floats."""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, float):
        return f"{v:.3g}"
    return str(v)
