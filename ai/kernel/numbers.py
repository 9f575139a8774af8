"""How every screen prints a number of a search: values, shares and counts (no pygame).

One function per kind of number, used by the overlay (header, counters, the tree's node labels), the match's side
panel, the Tree Lab, ``analyze``, ``tree`` and the exports, so the same number reads the same everywhere:

* :func:`value_label`: a search value in the evaluation's own units as the tree's nodes show it (``3``, ``-0.25``,
  ``win in 5``, ``database: loss``); :func:`number_text` is its plain-number part;
* :func:`value_text`: a decision's value for the side panel and ``analyze``: :func:`value_label`, and a word on a
  proven result or the win chance (``win in 5 (proven)``, ``0 (a draw with best play)``,
  ``0.0641 (win chance 53.2%)``);
* :func:`percent_text`: a share as a percentage that never rounds a nonzero share to ``0.0%`` nor a partial one
  to ``100.0%`` (``< 0.1%``, ``> 99.9%``);
* :func:`stop_text`: why a search stopped (``SearchResult.stop_reason``) in words, as the race's table and
  ``analyze`` say it (``proven result``, ``time budget``);
* :func:`exact_text`, :func:`exact_search_seconds`: what the exact solver (agent key ``exact``) did in a decision:
  its proof with its counts, or its unfinished try before the search had the rest, so every surface (``analyze``,
  ``compare``, the decision box, the overlay's header) says it alike;
* :func:`cutoff_text`: the cut-offs of a search, counted as the picture draws them (a node where a cut-off pruned
  at least one of its moves), with the subtrees they pruned;
* :func:`iteration_nodes_text`, :func:`recorded_text`, :func:`shown_iteration_words`: which iteration a tree shows
  and which of its visited nodes it holds (the capture search below the leaves is counted, never recorded).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ai.kernel.core import DB_BOUND, MATE_BOUND, WIN, StopReason

INF = math.inf


def number_text(v: float) -> str:
    """A value as the views print it: whole numbers in full (``1000000``), others to 3 significant digits below
    1,000 (``0.0612``, ``-0.00000104``: never in e-notation) and to 2 decimals above (``1234567.5``), so two
    different large values never print alike through rounding to 3 digits."""
    if float(v).is_integer():
        return str(int(v))
    if abs(v) >= 1000:
        return f"{v:.2f}".rstrip("0").rstrip(".")
    if abs(v) < 1e-3:  # 3 significant digits in positional notation, never "-1.04e-06"
        digits = min(15, 2 - math.floor(math.log10(abs(v))))
        return f"{v:.{digits}f}".rstrip("0").rstrip(".")
    return f"{v:.3g}"


def value_label(v: float, proofs: bool = True) -> str:
    """A search value as the tree's nodes show it: ``+inf``/``-inf``, a proven result (``proofs``) as ``win in 3``
    / ``loss in 4`` (plies below the root), an endgame-database result as ``database: win``, else
    :func:`number_text` (the evaluation's units, no sign for a positive value)."""
    if v == INF:
        return "+inf"
    if v == -INF:
        return "-inf"
    if proofs and abs(v) >= MATE_BOUND:  # a proven result: MAX wins (or loses) this many plies below the root
        return f"{'win' if v > 0 else 'loss'} in {int(round(WIN - abs(v)))}"
    if proofs and abs(v) >= DB_BOUND:  # an endgame-database result: a win or loss of unknown length
        return f"database: {'win' if v > 0 else 'loss'}"
    return number_text(v)


def value_text(value: float, outcome: str | None = None, win_probability: float | None = None) -> str:
    """A decision's value for the side panel and ``analyze``: :func:`value_label` (the number the tree's root shows
    for the same iteration), then what it means when that is known.

    Args:
        value: the value for the side to move (``SearchResult.value``).
        outcome: ``win``, ``loss`` or ``draw`` when the search proved it (``SearchResult.outcome``), else ``None``.
        win_probability: a chance game's win probability in ``[0, 1]`` (Pig), else ``None``.

    Returns:
        e.g. ``2``, ``win in 5 (proven)``, ``database: win``, ``0 (a draw with best play)`` or
        ``0.0641 (win chance 53.2%)``.
    """
    text = value_label(value)
    if win_probability is not None:
        return f"{text} (win chance {probability_text(win_probability)})"
    if outcome == "draw" and value == 0:
        return f"{text} (a draw with best play)"
    if outcome in ("win", "loss") and abs(value) >= MATE_BOUND:
        return f"{text} (proven)"
    if outcome in ("win", "loss", "draw") and abs(value) < DB_BOUND:  # the tables decide the root, not the number
        return f"{text} (the endgame tables: a {outcome})"
    return text


def percent_text(part: float, whole: float) -> str:
    """``part`` of ``whole`` as a percentage with one decimal, never rounded to a false extreme: a nonzero share
    below 0.05% reads ``< 0.1%`` (not ``0.0%``), a share short of the whole above 99.95% reads ``> 99.9%`` (not
    ``100.0%``); exactly none is ``0%`` and exactly all ``100%``.

    Raises:
        ValueError: ``whole`` is not positive.
    """
    if whole <= 0:
        raise ValueError(f"a share needs a positive whole, got {whole!r}")
    if part <= 0:
        return "0%"
    if part >= whole:
        return "100%" if part == whole else f"{100.0 * part / whole:.1f}%"
    share = 100.0 * part / whole
    text = f"{share:.1f}"
    if text == "0.0":
        return "< 0.1%"
    if text == "100.0":
        return "> 99.9%"
    return f"{text}%"


def probability_text(p: float) -> str:
    """A probability in ``[0, 1]`` as a percentage (:func:`percent_text`): ``53.1%``, ``< 0.1%``, ``> 99.9%``."""
    return percent_text(p, 1.0)


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """``1 cut-off``, ``2 cut-offs``, ``1,234 nodes`` (thousands separated)."""
    return f"{n:,} {noun if n == 1 else (nouns or noun + 's')}"


STOP_WORDS: dict[StopReason, str] = {
    StopReason.DEPTH: "depth limit", StopReason.TIME: "time budget", StopReason.SIMULATIONS: "simulation limit",
    StopReason.PROVEN: "proven result", StopReason.CANCELLED: "cancelled", StopReason.TABLE: "table lookup",
    StopReason.BOOK: "opening book", StopReason.NODES: "node limit", StopReason.RANDOM: "random move"}
"""``SearchResult.stop_reason`` in words."""


def stop_text(reason: StopReason | str | None) -> str:
    """Why a search stopped, in words (``"proven"`` -> ``proven result``); a reason without words (an agent
    file's own) as it is, none as ``—``."""
    if not reason:
        return "—"
    return STOP_WORDS.get(StopReason.read(reason), str(reason))


def seconds_text(s: float) -> str:
    """Seconds as the solver's words give them: ``0.90 s``, ``0.004 s`` below a tenth, ``12.3 s`` from ten,
    ``under 0.001 s`` for what would print as ``0.000 s``."""
    if s < 0.0005:
        return "under 0.001 s"
    return f"{s:.1f} s" if s >= 10 else (f"{s:.2f} s" if s >= 0.1 else f"{s:.3f} s")


def exact_text(extra: Mapping[str, Any], nodes: int, elapsed: float) -> str | None:
    """What the exact solver did in a decision (``SearchResult.extra``, its ``nodes`` and ``elapsed``; or a
    ``compare --json`` row's same keys), in words, or ``None`` when the solver had no part in it:

    * a proof (``extra["solver"]`` True): ``proved by the exact solver: 12,794 nodes, 3 null-window tests, 0.41 s``,
      with ``8 positions from the book`` before the time when the opening book answered some inside the search;
    * an unfinished try (``solver`` False with ``solver_s``): ``the exact solver did not prove it in 0.90 s (4,096
      solver nodes); alpha-beta searched the rest`` (the book's answers inside an unfinished solve,
      ``solver_book_hits``, are left to the JSON; the caller adds the search's own figures after a colon: its
      depth, its nodes, which are the search's alone, and :func:`exact_search_seconds`).
    """
    solver = extra.get("solver")
    if solver is True:
        parts = [plural(int(nodes), "node"), plural(int(extra.get("null_window_tests", 0)), "null-window test")]
        hits = int(extra.get("book_hits", 0))
        if hits:
            parts.append(plural(hits, "position") + " from the book")
        return f"proved by the exact solver: {', '.join(parts)}, {seconds_text(elapsed)}"
    if solver is False and "solver_s" in extra:
        nodes_text = plural(int(extra.get("solver_nodes", 0)), "solver node")
        return (f"the exact solver did not prove it in {seconds_text(float(extra['solver_s']))} ({nodes_text}); "
                "alpha-beta searched the rest")
    return None


def exact_search_seconds(extra: Mapping[str, Any], elapsed: float) -> str:
    """The seconds a search's figures end with: ``elapsed`` as it is, or after an unfinished exact solve
    (:func:`exact_text`) the search's own seconds and the decision's in all: ``0.08 s, 1.16 s in all``."""
    if extra.get("solver") is False and "search_s" in extra:
        return f"{seconds_text(float(extra['search_s']))}, {seconds_text(elapsed)} in all"
    return seconds_text(elapsed)


CUTOFF_MEANING = "a cut-off: a node whose remaining moves were pruned"
"""What :func:`cutoff_text` counts, in words (the picture draws each with its pruned subtrees)."""


def cutoff_text(cutoffs: int, pruned: int | None = None) -> str:
    """The cut-offs as every screen names them: ``1 cut-off (2 subtrees pruned)``. A cut-off is a node where the
    search stopped before its last move, pruning the rest (:data:`CUTOFF_MEANING`; a cut-off test met at the
    last move prunes nothing and is not counted); ``pruned`` the subtrees those cut-offs pruned (``None``: not
    known, left out)."""
    text = plural(cutoffs, "cut-off")
    if pruned is not None and cutoffs:
        text += f" ({plural(pruned, 'subtree')} pruned)"
    return text


_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def iteration_words(algorithm: str, depth: int) -> str:
    """How the counters name the shown iteration: ``depth 5 iteration`` (plies of minimax or alpha-beta), or for
    expectimax, whose depth counts decisions (chance nodes in between are not counted), ``depth 1: one decision``,
    ``depth 2: two decisions``."""
    if algorithm != "expectimax":
        return f"depth {depth} iteration"
    n = _NUMBER_WORDS[depth] if 0 <= depth < len(_NUMBER_WORDS) else str(depth)
    return f"depth {depth}: {n} decision{'' if depth == 1 else 's'}"


def iteration_nodes_text(visited: int, recorded: int, depth: int | None, *, capture: int = 0,
                         truncated: bool = False, algorithm: str = "alphabeta") -> str:
    """The shown iteration's node count, saying which of them the picture has:
    ``48 nodes visited in this depth 3 iteration (40 recorded; the other 8 are the capture search below the
    leaves, counted but not recorded)``; ``depth`` ``None`` for a Tree Lab tree (one search: ``11 nodes
    visited``)."""
    where = f" in this {iteration_words(algorithm, depth)}" if depth else ""
    text = f"{plural(visited, 'node')} visited{where}"
    part = recorded_text(recorded, capture=capture, truncated=truncated)
    return f"{text} ({part})" if part else text


def recorded_text(recorded: int, *, capture: int = 0, truncated: bool = False) -> str:
    """Which of an iteration's visited nodes the tree holds, when not all: ``only the first 300 recorded`` or
    ``40 recorded; the other 8 are the capture search below the leaves, counted but not recorded``; empty when
    the tree holds every node visited."""
    if truncated:
        return f"only the first {recorded:,} recorded"
    if capture:
        return (f"{recorded:,} recorded; the other {capture:,} are the capture search below the leaves, counted but "
                "not recorded")
    return ""


def shown_iteration_words(depth: int, value: float, move: str | None, final_depth: int, final_value: float,
                          final_move: str | None, *, recorded: int | None = None, proofs: bool = True,
                          unfinished: int | None = None) -> str:
    """``Depth 13 shown: value -3, best move 11-15 (the move came from depth 14)``: the shown iteration's depth,
    root value (:func:`ai.kernel.numbers.value_label`) and best move where it differs from the decision's; ``recorded``
    (a truncated iteration) the nodes recorded of it; ``unfinished`` the depth of the stopped iteration the move
    came from (``partial``: ``... (the move came from depth 15, stopped before its end)``)."""
    what = [f"value {value_label(value, proofs)}"]
    if move is not None and (move != final_move or unfinished is not None):
        what.append(f"best move {move}")
    if recorded is not None:
        what.append(f"only its first {recorded:,} nodes recorded")
    if unfinished is not None:
        why = f"the move came from depth {unfinished}, stopped before its end"
    elif depth == final_depth and value == final_value:
        why = "the iteration the move came from"  # only part of it recorded
    elif depth == final_depth:
        why = f"the decision's value is {value_label(final_value, proofs)}"  # the same depth, another value
    else:
        why = f"the move came from depth {final_depth}"
    return f"Depth {depth} shown: {', '.join(what)} ({why})"
