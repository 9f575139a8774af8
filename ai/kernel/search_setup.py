"""The switches one alpha-beta search runs with, resolved once for its game (:class:`SearchSetup`).

:class:`ai.kernel.search_options.SearchOptions` holds the switches asked for; which of them apply depends on the game's
``traits`` and hooks and on each other (principal-variation search needs pruning, ordering and the ``ge`` rule;
late-move reductions need principal-variation search; threats and shots need quiescence and the tactical hooks;
...). :meth:`SearchSetup.build` decides that once, before the search starts; :class:`ai.kernel.search.Searcher` reads
the record at every node and never changes it. Compiled with the search (``gameplay.rules.compiled``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ai.kernel.search_options import SearchOptions
from gameplay.rules.base import GameTraits


@dataclass(frozen=True)
class SearchSetup:
    """The switches one :class:`Searcher` runs with, resolved once from its :class:`SearchOptions` and the game's
    ``traits`` (:meth:`build`): what each switch does is :class:`SearchOptions`' docstring; here each is on only
    where it applies (principal-variation search needs pruning, ordering and the ``ge`` rule; late-move reductions
    need principal-variation search; ...). Read by the search at every node; never changed during a decision.
    """

    pruning: bool
    """Alpha-beta (False: plain minimax)."""
    strict: bool
    """The cut-off test is ``alpha > beta`` (``prune="gt"``) rather than ``alpha >= beta``."""
    ordering: bool
    """Move ordering (hash move, static key, killers and history)."""
    quiescence: bool
    """Quiescence below the depth limit (needs an ordering key)."""
    forced_noisy: bool
    """Captures are compulsory (``traits.compulsory_captures``): quiescence has no stand-pat when one exists."""
    pvs: bool
    """Principal-variation search."""
    lmr: bool
    """Late-move reductions (with principal-variation search); table entries searched deeper then answer too."""
    aspiration: float | None
    """The aspiration window's half-width (evaluation units), or ``None`` (full windows)."""
    etc: bool
    """Enhanced transposition cutoffs (with the table and pruning)."""
    repetition: bool
    """The draw rules read repetitions (``traits.repetition``): the search path is tracked, the table keyed with
    the draw history."""
    proven_terminals: bool
    """Terminal utilities are game results scored by distance (``traits.proven_terminals``)."""
    lmr_safe: bool
    """Late-move reductions spare sharp moves (needs the game's tactical hooks)."""
    extend: bool
    """Forcing-line extensions (with pruning)."""
    shots: bool
    """Quiescence tries the moves that offer a capture (with quiescence and the tactical hooks)."""
    captures_first: bool
    """Quiescence asks the game for its captures alone (``ai.kernel.tactics.NoisyGame``) and generates no move at a
    quiet node: captures are compulsory, the game's own ordering key tells them, and neither shots nor threats read a
    quiet node's moves. The same nodes and values as generating every move; only faster."""
    threats: float
    """Threat resolution's margin around the window (evaluation units), or ``-1`` (off)."""
    truncate_unit: float
    """Material truncation's man in evaluation units, or ``0`` (off)."""
    db_pieces: int
    """The endgame database's most pieces (0: no database)."""

    @property
    def path_flags(self) -> bool:
        """The search keeps per-ply flags along its path (sharp moves, extensions, truncated plies)."""
        return self.lmr_safe or self.extend or self.truncate_unit > 0

    @staticmethod
    def build(options: SearchOptions, traits: GameTraits, *, ordered: bool, table: bool, tactical: bool,
              material: bool, db_pieces: int, noisy_hook: bool = False) -> SearchSetup:
        """The switches that apply, from the asked ``options`` and the game's ``traits``.

        Args:
            options: the switches asked for.
            traits: the game's traits.
            ordered: the search has a static ordering key (the game's or one handed in).
            table: the search has a transposition table.
            tactical: the game gives the tactical hooks (``ai.kernel.tactics.TacticalGame``).
            material: the game counts material (``ai.kernel.tactics.MaterialGame``).
            db_pieces: the endgame database's most pieces, 0 without one.
            noisy_hook: the game lists its captures alone (``ai.kernel.tactics.NoisyGame``) and the static ordering
                key is the game's own (so its captures are the moves the key calls noisy).
        """
        pruning = options.pruning
        quiescence = options.quiescence and ordered
        pvs = options.pvs and pruning and options.ordering and options.prune == "ge"
        lmr = options.lmr and pvs
        threats = options.threats if options.threats is not None and quiescence and tactical else -1.0
        truncate = options.truncate if options.truncate is not None and pruning and material else 0.0
        shots = options.shots and quiescence and tactical
        return SearchSetup(
            pruning=pruning, strict=options.prune == "gt", ordering=options.ordering, quiescence=quiescence,
            forced_noisy=traits.compulsory_captures, pvs=pvs, lmr=lmr,
            aspiration=options.aspiration if options.aspiration and pruning else None,
            etc=options.etc and table and pruning, repetition=traits.repetition,
            proven_terminals=traits.proven_terminals, lmr_safe=options.lmr_safe and lmr and tactical,
            extend=options.extend and pruning, shots=shots, threats=threats,
            captures_first=quiescence and noisy_hook and traits.compulsory_captures and not shots and threats < 0,
            truncate_unit=truncate, db_pieces=db_pieces)
