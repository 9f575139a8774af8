"""The alpha-beta search's counters (:class:`SearchStats`) and its tuning constants: how late a move is reduced,
from which depth aspiration windows and enhanced transposition cutoffs start, how many quiescence plies the
tactical switches act in (``ai.kernel.search_options`` says what each switch does; ``ai.kernel.search`` uses these).

Compiled with mypyc beside ``ai.kernel.search`` (``gameplay/rules/compiled.py``): the counters change at every node, and
the ``Final`` constants are C constants there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

LMR_FIRST: Final = 2
"""Moves tried at full depth before late-move reductions start (the hash move, captures and killers come first)."""
LMR_DEEPER: Final = 4
"""From this move on a reduction is 2 plies instead of 1."""
LMR_MIN_DEPTH: Final = 3
"""Nodes nearer the horizon than this are never reduced."""
ASPIRATION_MIN_DEPTH: Final = 4
"""Iterations shallower than this search the root with the full window."""
SHOT_PLIES: Final = 2  # with shots: the quiescence plies (from the horizon) that also try moves offering a capture
THREAT_PLIES: Final = 1
"""With ``threats``: the quiescence plies (from the horizon) in which a threatened quiet node does not stand pat (4
plies measured 2.1x the nodes at depth 14 and 0.412 in 40 games at 0.1 s; 1 ply 1.08x and 0.487: docs/strength.md)."""
TRUNCATE_MEN: Final = 1.1
"""With ``truncate``: how far outside the window (in men) a node's material must lie to be searched shallower (Cake
1.20's ``TRUNCATEVALUE``, 110 with a man worth 100)."""
TRUNCATE_PLIES: Final = 2
"""With ``truncate``: plies a truncated node is searched shallower (Cake 1.20: 1.5 plies, in tenths of a ply)."""
TRUNCATE_MIN_PIECES: Final = 8
"""With ``truncate``: a root with this many pieces or fewer is searched without truncation (Cake 1.20's rule)."""
ETC_MIN_DEPTH: Final = 3
"""Enhanced transposition cutoffs are tried at nodes at least this far from the horizon (the children's
successors cost more than they save nearer the leaves)."""


@dataclass
class SearchStats:
    """Counters of one search (all iterations)."""

    nodes: int = 0
    """Nodes visited: the root, every negamax node and every quiescence node."""
    leaves: int = 0
    """Depth-limit evaluations and finished positions."""
    cutoffs: int = 0
    """Cut-offs that pruned at least one move (a cut-off test met at a node's last move prunes nothing and is
    not counted): the count the recorded tree and its picture show (:attr:`ai.kernel.recording.SearchTree.cutoffs`)."""
    tt_hits: int = 0
    """Nodes answered from the transposition table."""
    qnodes: int = 0
    """Quiescence nodes (included in ``nodes``)."""
    reductions: int = 0
    """Late-move reductions made (shallower null-window tests)."""
    etc_cutoffs: int = 0
    """Nodes cut off by an enhanced transposition cutoff."""
    db_hits: int = 0
    """Nodes answered by the endgame database."""
    aspiration_fails: int = 0
    """Root iterations searched again because the value fell outside the aspiration window."""
    extensions: int = 0  # forcing-line extensions made (``extend``; not in figures())
    truncations: int = 0  # nodes searched shallower for material far outside the window (``truncate``)
    threat_nodes: int = 0  # threatened quiet quiescence nodes that searched every move (``threats``; not in figures())

    def figures(self) -> dict[str, int]:
        """The counters a :class:`SearchResult` reports in ``extra`` (all but ``nodes``, which it has itself)."""
        return {"cutoffs": self.cutoffs, "tt_hits": self.tt_hits, "leaves": self.leaves, "qnodes": self.qnodes,
                "reductions": self.reductions, "etc_cutoffs": self.etc_cutoffs, "db_hits": self.db_hits,
                "aspiration_fails": self.aspiration_fails}


def truncated_depth(material: float, depth: int, alpha: float, beta: float, taken: int, unit: float
                    ) -> tuple[int, int, int]:
    """Material truncation at one node (Cake 1.20's rule, M. Fierz): ``(depth, plies taken on the path, 1 if cut)``.

    Args:
        material: the side to move's material balance in men (``ai.kernel.tactics.MaterialGame.material``).
        depth: the node's remaining depth in plies; ``alpha``, ``beta``: its window.
        taken: the plies truncated along the path above it and not yet given back.
        unit: a man in evaluation units.

    Returns:
        Outside the window by more than ``TRUNCATE_MEN`` men: ``TRUNCATE_PLIES`` plies shallower and taken along;
        inside it: the taken plies given back (the line is interesting again) and none left taken.
    """
    margin, v = TRUNCATE_MEN * unit, material * unit
    if v < alpha - margin or v > beta + margin:
        return depth - TRUNCATE_PLIES, taken + TRUNCATE_PLIES, 1
    return depth + taken, 0, 0
