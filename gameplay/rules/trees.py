"""Explicit game trees for the Tree Lab (CLI.md, "Tree Lab trees").

A tree is JSON: a number is a leaf (its utility for MAX); a list is a decision node; an object
``{"chance": [[p, subtree], ...]}`` is a chance node whose probabilities sum to 1. Decision nodes alternate
between MAX and MIN, the root decision node being MAX; chance nodes are transparent to that alternation (the
decision node below a chance node belongs to the other player than the decision node above it).

A state is the path from the root: a tuple of child indices (immutable and hashable). A move is a child
index (``int``); at a chance node the outcome is also a child index, with its probability.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence, TypeAlias

from gameplay.rules.base import (
    GameError,
    GameTraits,
    IllegalMoveError,
    MoveError,
    Outcome,
    PositionError,
    Termination,
    quoted,
    quoted_path,
)
from gameplay.rules.limits import TREE_LEVELS, TREE_NODES, TREE_VALUE, RangeError
from gameplay.rules.textfile import NotTextError, json_problem, read_text_file

TreeSpec: TypeAlias = "float | list[TreeSpec] | dict[str, Any]"


class TreeError(PositionError):
    """A Tree Lab tree is malformed (the message says where and what was expected)."""


@dataclass(frozen=True)
class TreeNode:
    """One node of a parsed tree: a leaf (``value``), a decision node or a chance node (``probs``)."""

    value: float | None
    children: tuple[TreeNode, ...]
    probs: tuple[float, ...] | None
    player: int
    """0 for MAX, 1 for MIN: who decides here (for a leaf or chance node, who decides at the next decision)."""

    @property
    def is_leaf(self) -> bool:
        return self.value is not None

    @property
    def is_chance(self) -> bool:
        return self.probs is not None


def parse_tree(spec: TreeSpec | str) -> TreeNode:
    """Read a tree from JSON text or an already-decoded value.

    Raises:
        TreeError: not JSON, an empty decision node, a chance node without ``[[p, subtree], ...]``,
            probabilities outside [0, 1] or not summing to 1, a leaf that is not a number in
            :data:`gameplay.rules.limits.TREE_VALUE` (-1e12 to 1e12), more than :data:`MAX_TREE_DEPTH` levels or
            :data:`MAX_TREE_NODES` nodes. The message gives the path (child indices) of the problem.
    """
    if isinstance(spec, str):
        try:
            spec = json.loads(spec)
        except json.JSONDecodeError as e:
            raise TreeError(f"tree is {json_problem(e)}; expected e.g. "
                            "[[3,12,8],[2,4,6],[14,5,2]]") from None
        except RecursionError:
            raise TreeError(f"tree is nested too deeply; at most {MAX_TREE_DEPTH} levels") from None
        except ValueError:  # a number of more than 4,300 digits (Python's limit on int conversion)
            raise TreeError(f"tree has a number thousands of digits long; a leaf must be {TREE_VALUE.describe()}"
                            ) from None
    _check_size(spec)
    return _build(spec, (), 0)


MAX_TREE_DEPTH = TREE_LEVELS
"""Deepest explicit tree accepted (levels below the root): far beyond any textbook tree, well inside Python's
recursion limit (:data:`gameplay.rules.limits.TREE_LEVELS`)."""
MAX_TREE_NODES = TREE_NODES
"""Most nodes accepted in an explicit tree (:data:`gameplay.rules.limits.TREE_NODES`)."""


def _check_size(spec: Any) -> None:
    """Refuse trees too deep or too large before building them (iteratively, so no recursion limit is hit).

    Raises:
        TreeError: more than ``MAX_TREE_DEPTH`` levels or ``MAX_TREE_NODES`` nodes.
    """
    stack: list[tuple[Any, int]] = [(spec, 0)]
    count = 0
    while stack:
        node, depth = stack.pop()
        count += 1
        if depth > MAX_TREE_DEPTH:
            raise TreeError(f"tree is nested too deeply; at most {MAX_TREE_DEPTH} levels")
        if count > MAX_TREE_NODES:
            raise TreeError(f"tree is too large; at most {MAX_TREE_NODES:,} nodes")
        if isinstance(node, list):
            stack.extend((c, depth + 1) for c in node)
        elif isinstance(node, dict) and isinstance(node.get("chance"), list):
            stack.extend((pair[1], depth + 1) for pair in node["chance"]
                         if isinstance(pair, list) and len(pair) == 2)


def _where(path: tuple[int, ...]) -> str:
    return "at the root" if not path else f"at path {list(path)}"


def _build(spec: Any, path: tuple[int, ...], player: int) -> TreeNode:
    if isinstance(spec, bool):
        raise TreeError(f"tree leaf {_where(path)} is {quoted(spec)}; expected a number")
    if isinstance(spec, (int, float)):
        try:
            v = float(TREE_VALUE.read(spec, f"tree leaf {_where(path)}"))
        except RangeError as e:
            raise TreeError(str(e)) from None
        return TreeNode(v, (), None, player)
    if isinstance(spec, list):
        if not spec:
            raise TreeError(f"decision node {_where(path)} has no children; expected a number or a non-empty list")
        kids = tuple(_build(c, path + (i,), 1 - player) for i, c in enumerate(spec))
        return TreeNode(None, kids, None, player)
    if isinstance(spec, dict):
        if set(spec) != {"chance"} or not isinstance(spec["chance"], list) or not spec["chance"]:
            raise TreeError(f"object {_where(path)} must be {{\"chance\": [[p, subtree], ...]}}")
        probs = []
        kids_l = []
        for i, pair in enumerate(spec["chance"]):
            if (not isinstance(pair, list) or len(pair) != 2 or isinstance(pair[0], bool)
                    or not isinstance(pair[0], (int, float))):
                raise TreeError(f"chance outcome {_where(path + (i,))} must be [probability, subtree]")
            p = float(pair[0])
            if not 0.0 <= p <= 1.0:
                raise TreeError(f"probability {_where(path + (i,))} is {p}; expected a number in [0, 1]")
            probs.append(p)
            kids_l.append(_build(pair[1], path + (i,), player))
        if abs(sum(probs) - 1.0) > 1e-6:
            raise TreeError(f"chance node {_where(path)}: probabilities sum to {sum(probs):g}; expected 1")
        return TreeNode(None, tuple(kids_l), tuple(probs), player)
    raise TreeError(f"tree node {_where(path)} is {type(spec).__name__}; expected a number, a list or "
                    "{\"chance\": ...}")


def tree_to_spec(node: TreeNode) -> TreeSpec:
    """Back to the JSON-ready form (for the Tree Lab editor and export)."""
    if node.value is not None:
        v = node.value
        return int(v) if v.is_integer() else v
    if node.probs is not None:
        return {"chance": [[p, tree_to_spec(c)] for p, c in zip(node.probs, node.children)]}
    return [tree_to_spec(c) for c in node.children]


class ExplicitTreeGame:
    """An explicit tree as a :class:`~gameplay.rules.base.Game`: states are paths, moves child indices.

    ``utility(state, player)`` is the leaf value for MAX (player 0) and its negation for MIN, unscaled
    (``traits.proven_terminals`` is False), so search values are the leaf values themselves; moves are child
    indices, which mean nothing across nodes (``traits.global_moves`` is False: no killer moves or history).
    """

    name = "tree"
    player_names = ("MAX", "MIN")

    def __init__(self, root: TreeNode) -> None:
        self.root = root
        self.traits = GameTraits(stochastic=_has_chance(root), global_moves=False, proven_terminals=False)

    def node(self, state: tuple[int, ...]) -> TreeNode:
        """The tree node at a path.

        Raises:
            PositionError: the path leaves the tree.
        """
        n = self.root
        for i in state:
            if not 0 <= i < len(n.children):
                raise PositionError(f"path {list(state)} is not in the tree")
            n = n.children[i]
        return n

    def order_key(self, state: Any, move: Any) -> float:
        """No static move ordering (``traits.move_order`` is False)."""
        return 0.0

    def draw_context(self, state: Any) -> None:
        """Positions never repeat in a way a rule reads (``traits.repetition`` is False)."""
        return None

    def initial_state(self) -> tuple[int, ...]:
        return ()

    def to_move(self, state: tuple[int, ...]) -> int:
        return self.node(state).player

    def actions(self, state: tuple[int, ...]) -> list[int]:
        n = self.node(state)
        if n.is_leaf or n.is_chance:
            return []
        return list(range(len(n.children)))

    def result(self, state: tuple[int, ...], move: int) -> tuple[int, ...]:
        n = self.node(state)
        if not isinstance(move, int) or not 0 <= move < len(n.children):
            raise IllegalMoveError(f"node {list(state)} has no child {quoted(move)}")
        return state + (move,)

    def successor(self, state: tuple[int, ...], move: int) -> tuple[int, ...]:
        return state + (move,)

    def is_terminal(self, state: tuple[int, ...]) -> bool:
        return self.node(state).is_leaf

    def outcome(self, state: tuple[int, ...]) -> Outcome | None:
        n = self.node(state)
        if not n.is_leaf:
            return None
        assert n.value is not None
        return Outcome(None if n.value == 0 else (0 if n.value > 0 else 1), Termination.LEAF, f"{n.value:g}")

    def utility(self, state: tuple[int, ...], player: int) -> float:
        v = self.node(state).value
        if v is None:
            raise GameError(f"node {list(state)} is not a leaf")
        return v if player == 0 else -v

    def is_chance(self, state: tuple[int, ...]) -> bool:
        return self.node(state).is_chance

    def chance_outcomes(self, state: tuple[int, ...]) -> Sequence[tuple[int, float]]:
        n = self.node(state)
        if n.probs is None:
            raise GameError(f"node {list(state)} is not a chance node")
        return list(enumerate(n.probs))

    def parse_position(self, text: str) -> tuple[int, ...]:
        """Read a path like ``0,1`` (empty for the root).

        Raises:
            PositionError: not comma-separated child indices inside the tree.
        """
        t = text.strip()
        try:
            path = tuple(int(x) for x in t.split(",")) if t else ()
        except ValueError:
            raise PositionError(f"tree position must be child indices like 0,1; got {quoted(text)}") from None
        self.node(path)
        return path

    def format_position(self, state: tuple[int, ...]) -> str:
        return ",".join(map(str, state))

    def parse_move(self, state: tuple[int, ...], text: str) -> int:
        try:
            m = int(text)
        except ValueError:
            raise MoveError(f"tree move must be a child index, got {quoted(text)}") from None
        self.result(state, m)
        return m

    def format_move(self, state: tuple[int, ...], move: int) -> str:
        return str(move)

    def leaf_count(self) -> int:
        """Number of leaves in the whole tree."""
        def count(n: TreeNode) -> int:
            return 1 if n.is_leaf else sum(count(c) for c in n.children)
        return count(self.root)

    def node_count(self) -> int:
        """Number of nodes in the whole tree (what plain minimax visits)."""
        def count(n: TreeNode) -> int:
            return 1 + sum(count(c) for c in n.children)
        return count(self.root)


def _has_chance(n: TreeNode) -> bool:
    return n.is_chance or any(_has_chance(c) for c in n.children)


TEXTBOOK_TREES: dict[str, str] = {
    "AIMA figure 5.2 (3 / 12 / 8)": "[[3,12,8],[2,4,6],[14,5,2]]",
    "Two-level prune (value 3)": "[[[2,3],[5,9]],[[0,1],[7,5]]]",
    "Negative leaves (value 4)": "[[[-1,4],[2,6]],[[-3,-5],[0,7]]]",
    "Pricing game (value 4)": "[[8,6,4],[3,7,5],[2,9,1]]",
    "Expectimax (value 10)": '{"chance": [[0.5, 8], [0.3333333333333333, 24], [0.16666666666666666, -12]]}',
}
"""The course material's worked trees (CLI.md), by display name, as JSON text."""


def tree_text(arg: str) -> str:
    """The tree's JSON: ``arg`` itself, or the text of the file it names (CLI.md: inline JSON or a
    path), as ``tree --tree`` and ``shot --tree`` take it.

    Raises:
        GameError: the file cannot be read, is larger than :data:`gameplay.rules.limits.FILE_BYTES` (refused
            unread) or is not UTF-8 text (a binary file: the message names the first byte that is not).
    """
    text = arg.strip()
    if text[:1] in ("[", "{") or text.lstrip("-").replace(".", "", 1).isdigit():
        return arg
    path = Path(text)
    try:
        return read_text_file(path, f"tree file {quoted_path(text)}").text  # a BOM, CRLF or Windows-1252 as meant
    except FileNotFoundError:
        raise GameError(f"--tree {quoted(text)} is neither tree JSON nor an existing file; expected e.g. "
                        "[[3,12,8],[2,4,6],[14,5,2]] or a path to a .json file") from None
    except NotTextError as e:
        raise GameError(f"cannot read tree file {quoted_path(text)}: {e}; a tree file is JSON text such as "
                        "[[3,12,8],[2,4,6],[14,5,2]]") from None
    except OSError as e:
        raise GameError(f"cannot read tree file {quoted_path(text)}: "
                        f"{getattr(e, 'strerror', None) or type(e).__name__}") from None
