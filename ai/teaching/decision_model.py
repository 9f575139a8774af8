"""The recorded-decision model the overlay, the Tree Lab and the command line present (no pygame).

* :class:`TreeInfo`: titles, notes, the named counts and the summary of one recorded decision
  (:func:`decision_info` builds it from an agent's result and its :class:`~ai.teaching.tree_recorder.DecisionRecorder`);
* :class:`MinimaxCount`: the nodes plain minimax would visit at the shown depth, counted exactly on a background
  thread when affordable (:func:`count_full_tree`), otherwise estimated as ``1 + b + ... + b^d`` from the
  measured branching factor (:func:`measured_branching`, :func:`estimate_full_tree`).

The step-through of a recorded trace (enter/leave events, the live alpha-beta window) is :mod:`ai.teaching.trace`.
"""

from __future__ import annotations

import dataclasses
import threading
from dataclasses import dataclass
from typing import Any

from ai.kernel.numbers import exact_search_seconds, exact_text, percent_text
from ai.kernel.recording import CHANCE, SearchTree
from ai.teaching.decision_tree import DecisionCounts, decision_counts, decision_summary, shown_iteration_text
from ai.teaching.tree_recorder import DecisionRecorder

AFFORDABLE_MINIMAX = 300_000
"""Plain-minimax trees estimated at most this big are counted exactly (on a background thread)."""
COUNT_LIMIT = 2_000_000
"""The exact count gives up (falls back to the estimate) past this many nodes."""

def count_full_tree(game: Any, state: Any, depth: int, limit: int = COUNT_LIMIT,
                    stop: threading.Event | None = None) -> int | None:
    """Nodes plain minimax visits searching ``state`` to ``depth`` plies: every position down to the depth
    limit, a finished game ending its line (root included).

    Returns:
        The count, or ``None`` when it passed ``limit`` or ``stop`` was set.
    """
    count = 0
    stack: list[tuple[Any, int]] = [(state, depth)]
    succ = game.successor
    while stack:
        s, d = stack.pop()
        count += 1
        if count > limit or (stop is not None and not count & 4095 and stop.is_set()):
            return None
        if d <= 0 or game.is_terminal(s):
            continue
        for m in game.actions(s):
            stack.append((succ(s, m), d - 1))
    return count


def measured_branching(tree: SearchTree) -> float:
    """The mean number of legal moves at the recorded decision nodes that were expanded (searched children
    plus the moves a cut-off skipped)."""
    total = n = 0
    for node in tree.nodes:
        if node.kind == CHANCE or node.note in ("leaf", "terminal", "tt", "repetition", "database", "etc"):
            continue
        k = len(node.children) + len(node.skipped)
        if k:
            total += k
            n += 1
    return total / n if n else 1.0


def estimate_full_tree(b: float, depth: int) -> int:
    """Nodes of a uniform tree of branching ``b`` and ``depth`` levels below the root: ``1 + b + ... + b^d``."""
    if b <= 1.0:
        return depth + 1
    return round((b ** (depth + 1) - 1) / (b - 1))


@dataclass
class MinimaxCount:
    """The plain-minimax node count shown beside the alpha-beta counters."""

    nodes: int | None = None
    """The count (exact or estimated), ``None`` while it is being counted or when unknown."""
    exact: bool = False
    status: str = ""
    """``counting``, ``exact``, ``estimate``, ``same`` (the search itself prunes nothing) or ``""``."""
    branching: float = 0.0
    depth: int = 0
    stop: threading.Event = dataclasses.field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    def text(self) -> str:
        """``8,232``, ``≈ 1.2 million`` or ``counting...``."""
        if self.status == "counting":
            return "counting..."
        if self.nodes is None:
            return "unknown"
        if self.exact:
            return f"{self.nodes:,}"
        return f"≈ {_approx(self.nodes)}"


def _approx(n: int) -> str:
    if n >= 10 ** 9:
        return f"{n / 1e9:.1f} billion"
    if n >= 10 ** 6:
        return f"{n / 1e6:.1f} million"
    if n >= 10_000:
        return f"{n / 1e3:.0f} thousand"
    return f"{n:,}"


@dataclass
class TreeInfo:
    """Everything about a tree besides the nodes: titles, the game (for mini-boards), the comparison."""

    title: str
    """First header line, e.g. ``O played 4: alpha-beta, depth 5, value 0`` (the decision's depth and value)."""
    notes: tuple[str, ...] = ()
    """Further header lines, in small print (the whole search's size, the capture search)."""
    game: Any = None
    """The game (``None`` for a Tree Lab tree: no mini-board)."""
    view: Any = None
    """The board view that draws mini-boards (``BoardView``), or ``None``."""
    state: Any = None
    """The root position."""
    depth: int = 0
    """Depth of the shown search (plies; decisions for Pig)."""
    summary: dict[str, Any] = dataclasses.field(default_factory=dict)
    """Written to the exported JSON and SVG header (game, position, move, value, depth, minimax_nodes)."""
    minimax: MinimaxCount = dataclasses.field(default_factory=MinimaxCount)
    stem: str = "tree"
    """File name stem for the export."""
    counts: DecisionCounts | None = None
    """The decision's named counts (``None`` for a Tree Lab tree: one search, ``tree.visited`` is all)."""
    root: Any = None
    """A Tree Lab search's explicit tree (:class:`gameplay.rules.trees.TreeNode`): the narration and the picture
    letter its nodes over the whole tree, pruned subtrees included, as the command line does (``None`` for a game)."""
    headline: tuple[str, ...] = ()
    """Lines said at the title's size after it: which iteration the tree shows when it is not the decision's
    (:func:`ai.teaching.decision_tree.shown_iteration_text`), so its root's value and depth are never read as the
    decision's."""

    def saving_text(self, tree: SearchTree) -> str | None:
        """The shown search against plain minimax at the same depth, as shares of minimax's count
        (:func:`ai.kernel.numbers.percent_text`): ``alpha-beta visited < 0.1% of them at depth 10 (3,746 without the
        capture search): saved > 99.9%``; ``None`` while minimax's count is unknown or when it is no larger."""
        mm = self.minimax
        ab = self.compared_nodes(tree)
        if not mm.nodes or mm.status not in ("exact", "estimate") or ab > mm.nodes:
            return None
        at = f" at depth {self.depth}" if self.depth else ""
        without = f" ({ab:,} without the capture search)" if ab != tree.visited else ""
        name = {"alphabeta": "alpha-beta"}.get(tree.algorithm, tree.algorithm)
        return (f"{name} visited {percent_text(ab, mm.nodes)} of them{at}{without}: "
                f"saved {percent_text(mm.nodes - ab, mm.nodes)}")

    def compared_nodes(self, tree: SearchTree) -> int:
        """The shown search's nodes to compare with plain minimax at the same depth: the main search of the
        shown iteration (the capture search below the leaves, which plain minimax does not do, left out)."""
        c = self.counts
        return c.drawn_nodes if c is not None and c.capture_nodes else tree.visited


def decision_info(game: Any, state: Any, agent: Any, result: Any, recorder: DecisionRecorder, tree: SearchTree,
                  *, player_name: str, move_text: str, view: Any = None) -> TreeInfo:
    """Titles, notes, the named counts and the minimax comparison for one AI decision (the count is started by
    :func:`start_minimax_count`). The title names the decision (its move, depth and value); when the tree shows
    another iteration (or only part of one), the headline says which, with its root's value, at the title's
    size; the notes the whole search's size; the summary (for the exports' header) the shown iteration's move,
    root value and depth, and the decision's own when they differ."""
    alg = tree.algorithm
    alg_name = {"alphabeta": "alpha-beta", "minimax": "minimax", "expectimax": "expectimax"}.get(alg, alg)
    settings = getattr(agent, "settings", None)
    if alg == "alphabeta" and settings is not None and not settings.search.ordering and not settings.search.tt:
        alg_name = "plain alpha-beta"  # no ordering, table or principal-variation search: AIMA's ALPHA-BETA-SEARCH
    c = decision_counts(game, state, result, recorder, tree)
    shown, final = c.shown_depth, c.final_depth
    who = f"Player {player_name}" if player_name.isdigit() else player_name  # Pig's players are 1 and 2
    late = f" (the move from depth {c.unfinished[0]}, unfinished)" if c.unfinished is not None else ""
    title = f"{who} played {move_text}: {alg_name}, depth {final}{late}, value {c.value()}"
    other = shown_iteration_text(c)
    its = f"{c.iterations} iteration{'s' if c.iterations != 1 else ''}"
    notes: list[str] = []
    if other is None:
        notes.append(f"Showing depth {shown}, the iteration the move came from; the whole search: {its}, "
                     f"{c.total_nodes:,} nodes.")
    else:
        whole = "recorded whole; " if c.shown_whole else ""
        notes.append(f"The tree: depth {shown}, {whole}the whole search: {its} to depth {final}, "
                     f"{c.total_nodes:,} nodes.")
    exact = exact_text(result.extra or {}, result.nodes, result.elapsed)  # the exact solver tried first (exact=on)
    if exact is not None:
        notes.insert(0, f"{exact[0].upper()}{exact[1:]}: this tree is that search's, its nodes the search's alone "
                        f"({exact_search_seconds(result.extra, result.elapsed)}).")
    if c.unfinished is not None:
        d, searched, of = c.unfinished
        notes.append(f"The move came from depth {d}, stopped by the budget after {searched} of {of} root moves: "
                     f"by then it had proved {c.final_move} better than depth {final}'s best (partial).")
    if getattr(getattr(agent.settings, "search", None), "quiescence", False) and not game.traits.stochastic:
        notes.append("Leaves include a capture (quiescence) search.")
    summary = decision_summary(game, state, c, alg)
    return TreeInfo(title, tuple(notes), game, view, state, shown, summary, MinimaxCount(),
                    f"tree-{game.name}", c, headline=() if other is None else (other,))


def start_minimax_count(info: TreeInfo, tree: SearchTree) -> MinimaxCount:
    """Fill ``info.minimax``: the same tree when the search prunes nothing, an exact count on a background
    thread when the estimate is affordable, otherwise the estimate."""
    mm = info.minimax
    mm.depth = info.depth
    mm.branching = measured_branching(tree)
    game = info.game
    if tree.algorithm != "alphabeta" or game is None or game.traits.stochastic:
        mm.nodes, mm.exact, mm.status = info.compared_nodes(tree), True, "same"
        info.summary["minimax_nodes"] = mm.nodes
        return mm
    est = estimate_full_tree(mm.branching, mm.depth)
    if est > AFFORDABLE_MINIMAX:
        mm.nodes, mm.exact, mm.status = est, False, "estimate"
        return mm
    mm.status = "counting"

    def work() -> None:
        n = count_full_tree(game, info.state, mm.depth, COUNT_LIMIT, mm.stop)
        if mm.stop.is_set():
            return
        if n is None:
            mm.nodes, mm.exact, mm.status = est, False, "estimate"
        else:
            mm.nodes, mm.exact, mm.status = n, True, "exact"
            info.summary["minimax_nodes"] = n

    mm.thread = threading.Thread(target=work, name="minimax-count", daemon=True)
    mm.thread.start()
    return mm


def resume_minimax_count(info: TreeInfo, tree: SearchTree) -> None:
    """Start again a count that was stopped before it finished (the overlay showed another decision, or the match
    left the screen for the race, the help or the settings): a count is never left at "counting..." for good."""
    mm = info.minimax
    if mm.status == "counting" and (mm.thread is None or not mm.thread.is_alive()):
        mm.stop = threading.Event()
        start_minimax_count(info, tree)
