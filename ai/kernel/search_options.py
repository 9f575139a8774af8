"""The switches of alpha-beta's :class:`ai.kernel.search.Searcher`, in one record with their defaults.

A teacher turns each on and off and compares node counts (``python main.py bench search`` quotes what each
addition saves); an agent builds its record from its settings (``ai.agents.agents.SearchAgent.search_options``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ai.kernel.core import SearchError


@dataclass(frozen=True)
class SearchOptions:
    """The switches of one :class:`ai.kernel.search.Searcher`, each on or off so a teacher can compare node counts.

    The defaults are alpha-beta with move ordering and principal-variation search, and nothing else. Which
    switches apply also depends on the game's ``traits`` (see :class:`ai.kernel.search.Searcher`) and on each other,
    as each field says.

    Raises:
        SearchError: ``prune`` is not ``"ge"``/``"gt"``, or ``aspiration`` is negative.
    """

    pruning: bool = True
    """True: alpha-beta; False: plain minimax (every node searched)."""
    prune: str = "ge"
    """The cut-off test: ``"ge"`` cuts when alpha >= beta (AIMA), ``"gt"`` only when alpha > beta."""
    ordering: bool = True
    """Move ordering: the hash move first, then the game's static order key (captures first), killer moves and
    the history heuristic."""
    tt: bool = False
    """A transposition table (``ai.kernel.tt``): a new one, or the one handed to the
    :class:`ai.kernel.search.Searcher`."""
    quiescence: bool = False
    """Extend the depth limit with captures (``order_key > 0``) until quiet (needs an ordering key)."""
    pvs: bool = True
    """Principal-variation search (null-window tests of the later moves); used with pruning, ordering and the
    ``ge`` rule."""
    lmr: bool = False
    """Late-move reductions (with principal-variation search): a quiet move tried late at a node at least
    ``ai.kernel.search_stats.LMR_MIN_DEPTH`` plies from the horizon is first searched 1 ply shallower (2 after the
    ``ai.kernel.search_stats.LMR_DEEPER``-th move) with the null window, and again at full depth only when it fails
    high; table entries searched deeper then also answer shallower nodes. The value is no longer minimax's at that
    depth (the nominal depth is reported, as engines do)."""
    aspiration: float | None = None
    """Aspiration windows: the half-width (evaluation units) of the root window around the last iteration's
    value; a value outside it is searched again with the window opened on that side. ``None``: full windows.
    The value found is the same (only the node count changes). Used with pruning."""
    etc: bool = False
    """Enhanced transposition cutoffs (Plaat et al. 1996): before searching a node's moves, look every child up
    in the table and cut off at once when one already proves a fail-high. Same value. Used with the table and
    pruning."""

    lmr_safe: bool = False
    """With late-move reductions: never reduce a sharp move (a capture, a promotion, a move into or out of a
    capture threat: ``ai.kernel.tactics.is_tactical``) nor any move at a node such a move reached. Needs the game's
    tactical hooks (``ai.kernel.tactics.TacticalGame``)."""
    extend: bool = False
    """Forcing-line extensions: a node with a single legal move (a forced reply, a forced capture) is searched
    1 ply deeper, at most ``depth // 2`` plies in all along one path (``depth``: the iteration's nominal depth),
    so the tree cannot explode. Used with pruning."""
    shots: bool = False
    """Quiescence also tries, in its first ``ai.kernel.search_stats.SHOT_PLIES`` plies and when the side to move has no
    capture, the quiet moves that offer the opponent a capture (``ai.kernel.tactics.offers``): a two-for-one or
    three-for-one shot is then seen at the horizon; the side to move keeps its stand-pat. Needs quiescence and
    the game's tactical hooks."""

    threats: float | None = None
    """Threat resolution at the horizon (Cake's ``EXTENDALL``, M. Fierz, Cake 1.20): in quiescence's first
    ``ai.kernel.search_stats.THREAT_PLIES`` plies, a quiet node whose side to move has no capture but is under a capture
    threat (the opponent could capture if it were to move) does not stand pat when its static value lies within this
    margin (evaluation units) of the window; it searches every move, so a man left hanging at the horizon is
    counted lost unless a move saves it. ``None``: off. Needs quiescence and the game's tactical hooks."""
    truncate: float | None = None
    """Material truncation (Cake's truncation, M. Fierz, Cake 1.20's ``DOEXTENSIONS``): the value of a man in
    evaluation units, or ``None`` (off). A node whose material balance (``ai.kernel.tactics.MaterialGame.material``, in
    men) lies more than ``ai.kernel.search_stats.TRUNCATE_MEN`` men outside the window is searched
    ``ai.kernel.search_stats.TRUNCATE_PLIES`` plies shallower; the plies taken along a path are given back at the first
    node below whose material is inside the window again, so only lines that stay a man or more off the window
    are cut short. Off once the root has ``ai.kernel.search_stats.TRUNCATE_MIN_PIECES`` pieces or fewer (endings need
    their full depth). Needs pruning and the game's material hook."""

    def __post_init__(self) -> None:
        if self.prune not in ("ge", "gt"):
            raise SearchError(f"prune must be 'ge' or 'gt', got {self.prune!r}")
        if self.aspiration is not None and not self.aspiration >= 0:
            raise SearchError(f"aspiration must be a half-width >= 0 or None, got {self.aspiration!r}")


DEFAULT_OPTIONS = SearchOptions()
"""Alpha-beta with move ordering and principal-variation search."""
