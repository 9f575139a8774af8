"""Both searches of a graded case, step by step, to draw side by side (issue 26, the Tree Lab's "Check my file").

A *step* is one node entered, on both sides:

* the student's: one successor its search asked for (``game.result``, the child it leads to), in the order asked;
  a leaf's evaluation (``game.utility``) marks the step that entered it (a leaf evaluated without being entered
  through ``game.result``, e.g. a root that is a leaf, or a leaf evaluated twice, is a step of its own);
* the reference's: the next node its search (:func:`ai.teaching.treelab.search_tree`, the case's algorithm and cut-off
  rule, ordering off) enters, in its entering order (the root is not a step on either side).

So step ``i`` of both sides is the ``i``-th node each entered; the leaves evaluated are numbered in their order.
The first difference (:func:`first_difference`) is where the graded comparison parts: the first leaf evaluated
out of the reference's order, else the first node entered inside a subtree the reference prunes, else the root's
child chosen.
"""

from __future__ import annotations

from dataclasses import dataclass

from ai.grader.exercise import CaseResult
from ai.teaching.treelab import TreeSettings, search_tree
from gameplay.rules.trees import TreeNode

Path = tuple[int, ...]


@dataclass(frozen=True)
class Step:
    """One node entered: its path (child indices from the root) and whether the search evaluated it as a leaf."""

    path: Path
    leaf: bool


@dataclass(frozen=True)
class Trace:
    """One side's search of the case: its steps and the subtrees it left out (paths of their tops)."""

    steps: tuple[Step, ...]
    pruned: tuple[Path, ...]

    def leaves(self) -> list[tuple[int, Path]]:
        """(step index, path) of each leaf evaluated, in order."""
        return [(i, s.path) for i, s in enumerate(self.steps) if s.leaf]

    def index_of(self, path: Path) -> int | None:
        """The first step entering ``path``, or ``None``."""
        return next((i for i, s in enumerate(self.steps) if s.path == path), None)


def student_trace(result: CaseResult) -> Trace:
    """The student's steps (from :attr:`ai.grader.exercise.CaseResult.got_log`)."""
    steps: list[Step] = []
    for kind, path in result.got_log:
        if kind == "u" and steps and steps[-1].path == path and not steps[-1].leaf:
            steps[-1] = Step(path, True)
        else:
            steps.append(Step(path, kind == "u"))
    return Trace(tuple(steps), tuple(result.got_pruned))


def reference_trace(root: TreeNode, algorithm: str, prune: str = "ge") -> Trace:
    """The reference's steps: the Tree Lab's search of ``root`` (``algorithm``: ``minimax``, ``alphabeta`` or
    ``expectimax``; ``prune``: ``ge`` or ``gt``).

    Raises:
        ai.kernel.search.SearchError: a tree past the search's node cap (50,000 nodes).
    """
    res = search_tree(root, TreeSettings(algorithm, prune=prune), max_nodes=50_000)
    nodes = sorted(res.tree.nodes, key=lambda n: n.enter_order)
    steps = tuple(Step(tuple(n.state), n.note in ("leaf", "terminal")) for n in nodes if tuple(n.state))
    return Trace(steps, tuple(tuple(p) for p in res.pruned))


@dataclass(frozen=True)
class Difference:
    """Where the two searches part: the step of each side to mark (``None``: that side has no such step, e.g. it
    stopped earlier), and the node each marks."""

    student_step: int | None
    reference_step: int | None
    student_path: Path | None
    reference_path: Path | None


def first_difference(result: CaseResult, student: Trace, ref: Trace) -> Difference | None:
    """Where the graded comparison first parts (``None`` for a passed case or when nothing can be pointed at: a
    search that crashed before entering anything)."""
    if result.ok:
        return None
    mine, theirs = student.leaves(), ref.leaves()
    for k in range(max(len(mine), len(theirs))):
        a = mine[k] if k < len(mine) else None
        b = theirs[k] if k < len(theirs) else None
        if a is not None and b is not None and a[1] == b[1]:
            continue
        return Difference(a[0] if a else None, b[0] if b else None, a[1] if a else None, b[1] if b else None)
    for i, s in enumerate(student.steps):  # entered a subtree the reference prunes
        if any(s.path[:len(p)] == p for p in ref.pruned):
            return Difference(i, None, s.path, None)
    if result.game is None and result.got_move is not None and result.got_move.isdigit():
        a_path, b_path = (int(result.got_move),), (int(result.expected_move),)
        return Difference(student.index_of(a_path), ref.index_of(b_path), a_path, b_path)
    if student.steps:
        last = len(student.steps) - 1
        return Difference(last, None, student.steps[last].path, None)
    return None
