"""Build the checkers opening book (``assets/book/checkers_book.json``) from the project's own deep searches.

Usage::

    python tools/build_book.py [--time T] [--plies P] [--per-root N] [--start-per-root M] [--top K]
                               [--first N] [--no-start] [--expand-margin U] [--out FILE] [--resume]

Roots: the start position and the position after each ballot of the ACF 156-opening deck
(``gameplay.rules.checkers.ballots.load_ballots``; ``--first N`` keeps the first N ballots). From each root the builder
searches positions best-first: a position ``p`` plies below the root that was reached through ``d`` second-best
(or worse) moves costs ``p + 2 d``, so the principal variation is followed deepest and the plausible
alternatives a little less deep. At most ``--per-root`` new positions are searched per root (``--start-per-root``
for the start position), none deeper than ``--plies`` plies below the root.

Each position is searched with alpha-beta as ``expert`` searched when the book was built (``alphabeta:time=T,
quiescence=on``, ``default`` weights; today's ``expert`` plays ``acf``;
iterative deepening, transposition table, PVS, quiescence): the best move, its value and the completed depth D.
Then the K-1 next-best moves are found by searching again with the moves already found excluded at the root, to
the same depth D (a time cap of 3 T), so the stored values of one position are comparable. The alternatives are
expanded only when their value is within ``--expand-margin`` units (100 = one man) of the best.

The book is written after every root (atomically), and ``--resume`` skips the roots an existing ``--out`` file
already lists as done, so an interrupted build continues where it stopped. Prints the positions stored, the
positions searched by this run, the elapsed time and the file size.
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.agents.agents import SearchAgent, make_agent  # noqa: E402
from ai.checkers.book import DEFAULT_PATH, BookEntry, OpeningBook, load_book, save_book  # noqa: E402
from ai.kernel.search import Searcher, SearchLimits, SearchOptions, TranspositionTable, iterative_deepening  # noqa: E402
from gameplay.rules.checkers.ballots import load_ballots  # noqa: E402
from gameplay.rules.checkers.checkers import Checkers  # noqa: E402
from gameplay.rules.checkers.checkers_board import CheckersMove, CheckersState  # noqa: E402
from gameplay.rules.checkers.checkers_notation import format_fen, match_move  # noqa: E402

GAME = Checkers()
DEVIATION_COST = 2
"""Extra cost (in plies) of following a move other than the best one."""


class _RootExcluded(Checkers):
    """Checkers whose root position (that very object) lacks some moves: a search of it finds the next-best."""

    def __init__(self, root: CheckersState, excluded: set[CheckersMove]) -> None:
        self.root = root
        self.excluded = excluded

    def actions(self, state: CheckersState) -> list[CheckersMove]:
        moves = Checkers.actions(self, state)
        if state is self.root:
            return [m for m in moves if m not in self.excluded]
        return moves


def agent_spec(time_s: float) -> str:
    """The agent spec of the book searches (``expert``'s search of the book's day, ``default`` weights, at ``time_s``
    seconds per position)."""
    return f"alphabeta:time={time_s:g},quiescence=on,weights=default"


def search_top(state: CheckersState, time_s: float, top: int, tt: TranspositionTable,
               agent: SearchAgent) -> list[tuple[CheckersMove, float, int]]:
    """The ``top`` best moves of ``state`` as ``(move, value, depth)``, best first.

    The first comes from an iterative-deepening search of ``time_s`` seconds; each next one from a search to the
    same depth with the moves found so far excluded at the root (``tt`` is shared; the root entry of the restricted
    searches is thrown away so the table stays true for the whole position).
    """
    s = agent.settings.search
    searcher = agent.make_searcher()
    searcher.tt = tt
    r = iterative_deepening(GAME, state, searcher, SearchLimits(time_budget_s=time_s))
    found = [(r.move, r.value, r.depth)]
    n_legal = len(GAME.actions(state))
    root_key = searcher._tt_key(state)
    kept = tt.get(root_key)
    while len(found) < min(top, n_legal):
        game = _RootExcluded(state, {m for m, _, _ in found})
        options = SearchOptions(prune=s.prune, ordering=s.ordering, tt=True, quiescence=s.quiescence)
        sub = Searcher(game, agent.evaluate, options, table=tt)
        r2 = iterative_deepening(game, state, sub, SearchLimits(depth=r.depth, time_budget_s=3 * time_s))
        found.append((r2.move, r2.value, r2.depth))
    if kept is not None:
        tt.store(root_key, kept)
    found.sort(key=lambda t: -t[1])  # stable: equal values keep the search's order
    return found


@dataclass
class Builder:
    """The book under construction: FEN -> entries, weights, and the roots done."""

    time_s: float
    plies: int
    per_root: int
    top: int = 2
    expand_margin: float = 50.0
    positions: dict[str, list[BookEntry]] = field(default_factory=dict)
    weights: dict[str, int] = field(default_factory=dict)
    roots_done: list[str] = field(default_factory=list)
    searched: int = 0
    """Positions searched by this run."""

    def __post_init__(self) -> None:
        self.agent = make_agent("checkers", agent_spec(self.time_s))
        assert isinstance(self.agent, SearchAgent)

    def expand_root(self, state: CheckersState, budget: int) -> int:
        """Search up to ``budget`` new positions below ``state`` (best-first, see the module docstring).

        Returns:
            How many positions were searched.
        """
        tt = TranspositionTable()
        seq = itertools.count()
        heap: list[tuple[int, int, int, CheckersState]] = [(0, next(seq), 0, state)]
        seen: set[str] = set()
        searched = 0
        while heap and searched < budget:
            cost, _, ply, st = heapq.heappop(heap)
            fen = format_fen(st)
            if fen in seen:
                continue
            seen.add(fen)
            entries = self.positions.get(fen)
            if entries is None:
                if not GAME.actions(st):
                    continue
                top = search_top(st, self.time_s, self.top, tt, self.agent)
                entries = [BookEntry(GAME.format_move(st, m), float(v) + 0.0, d, 1) for m, v, d in top]
                self.positions[fen] = entries
                searched += 1
            self.weights[fen] = self.weights.get(fen, 0) + 1
            if ply + 1 >= self.plies:
                continue
            legal = GAME.actions(st)
            best = entries[0].value
            for rank, e in enumerate(entries):
                if rank and e.value < best - self.expand_margin:
                    continue
                child = GAME.successor(st, match_move(legal, e.move))
                heapq.heappush(heap, (cost + 1 + (DEVIATION_COST if rank else 0), next(seq), ply + 1, child))
        self.searched += searched
        return searched

    def book(self, meta: dict[str, Any]) -> OpeningBook:
        """The book so far (weights filled in)."""
        pos = {fen: [BookEntry(e.move, e.value, e.depth, self.weights.get(fen, 1)) for e in es]
               for fen, es in self.positions.items()}
        return OpeningBook(pos, meta)


def roots(first: int | None, start: bool) -> list[tuple[str, CheckersState]]:
    """``(label, position)`` of the start (if ``start``) and of the first ``first`` ballots (all when None)."""
    out: list[tuple[str, CheckersState]] = []
    if start:
        out.append(("start", GAME.initial_state()))
    ballots = load_ballots()
    for b in ballots[:first] if first is not None else ballots:
        out.append((f"ACF #{b.number} {' '.join(b.moves)}", GAME.parse_position(b.fen)))
    return out


def build(out: Path, *, time_s: float, plies: int, per_root: int, start_per_root: int | None = None,
          top: int = 2, first: int | None = None, start: bool = True, expand_margin: float = 50.0,
          resume: bool = False, progress: bool = True) -> dict[str, Any]:
    """Build (or continue) the book at ``out``.

    Args:
        out: the JSON file (written after every root).
        time_s: seconds of search for the best move of each position (the alternatives get up to 3x that).
        plies: positions up to ``plies - 1`` plies below each root are searched (so the book plays ``plies``
            plies after the root).
        per_root: new positions searched per ballot root; ``start_per_root`` for the start (default 3x).
        top: moves stored per position (best first).
        first: keep only the first ``first`` ballots (None: all 156).
        start: include the start position as a root.
        expand_margin: alternatives within this many units (100 = one man) of the best are expanded.
        resume: continue the roots not yet done in an existing ``out``.
        progress: show a tqdm progress bar.

    Returns:
        ``{"positions", "searched", "roots", "elapsed_s", "bytes"}``.
    """
    from tqdm import tqdm

    t0 = time.perf_counter()
    b = Builder(time_s, plies, per_root, top, expand_margin)
    prior_elapsed = 0.0
    if resume and out.exists():
        old = load_book(out)
        for fen in old.fens():
            st = GAME.parse_position(fen)
            es = old.lookup(st)
            b.positions[fen] = es
            b.weights[fen] = es[0].weight if es else 1
        b.roots_done = list(old.meta.get("roots_done", []))
        prior_elapsed = float(old.meta.get("build_seconds", 0.0))
    todo = [(label, st) for label, st in roots(first, start) if label not in b.roots_done]
    meta: dict[str, Any] = {}
    bar = tqdm(todo, desc="book", unit="root", disable=not progress)
    for label, st in bar:
        b.expand_root(st, (start_per_root or 3 * per_root) if label == "start" else per_root)
        b.roots_done.append(label)
        meta = {"built_by": "tools/build_book.py", "agent": agent_spec(time_s), "time_per_position_s": time_s,
                "plies": plies, "per_root": per_root, "start_per_root": start_per_root or 3 * per_root,
                "top": top, "expand_margin": expand_margin, "deviation_cost": DEVIATION_COST,
                "build_seconds": round(prior_elapsed + time.perf_counter() - t0, 1), "roots_done": b.roots_done,
                "units": "checkers evaluation units for the side to move (100 = one man)"}
        save_book(b.book(meta), out)
        bar.set_postfix(positions=len(b.positions), searched=b.searched)
    bar.close()
    if not todo and not out.exists():
        save_book(b.book(meta), out)
    return {"positions": len(b.positions), "searched": b.searched, "roots": len(b.roots_done),
            "elapsed_s": time.perf_counter() - t0, "bytes": out.stat().st_size if out.exists() else 0}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--time", type=float, default=0.5, help="seconds per position (best move); default 0.5")
    ap.add_argument("--plies", type=int, default=8, help="plies of book after each root; default 8")
    ap.add_argument("--per-root", type=int, default=8, help="new positions searched per ballot; default 8")
    ap.add_argument("--start-per-root", type=int, default=None, help="for the start position; default 3x")
    ap.add_argument("--top", type=int, default=2, help="moves stored per position; default 2")
    ap.add_argument("--first", type=int, default=None, help="only the first N ballots")
    ap.add_argument("--no-start", action="store_true", help="leave out the start position")
    ap.add_argument("--expand-margin", type=float, default=50.0, help="expand alternatives within U units")
    ap.add_argument("--out", type=Path, default=DEFAULT_PATH, help=f"output file (default {DEFAULT_PATH})")
    ap.add_argument("--resume", action="store_true", help="skip the roots already done in --out")
    a = ap.parse_args(argv)
    if a.time <= 0 or a.plies < 1 or a.per_root < 1 or a.top < 1:
        ap.error("--time must be > 0 and --plies, --per-root, --top at least 1")
    r = build(a.out, time_s=a.time, plies=a.plies, per_root=a.per_root, start_per_root=a.start_per_root,
              top=a.top, first=a.first, start=not a.no_start, expand_margin=a.expand_margin, resume=a.resume)
    print(f"{r['positions']} positions stored ({r['searched']} searched by this run, {r['roots']} roots done) in "
          f"{r['elapsed_s']:.1f} s; {a.out} is {r['bytes']} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
