"""Play two kings against one from every placement (up to the board's symmetries) and count the wins.

Usage: ``python tools/kings_sweep.py [--strong AGENT] [--weak AGENT] [--jobs J] [--limit N]``. The board's
kings-only symmetries are the 180-degree turn and the two diagonal reflections, so each class of placements is
played once. Prints the number of placements, wins, and the longest win in plies.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing as mp
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gameplay.rules.checkers.checkers import Checkers  # noqa: E402
from gameplay.rules.checkers.checkers_board import rowcol_to_square, square_to_rowcol  # noqa: E402

G = Checkers()


def _maps() -> list[dict[int, int]]:
    out = []
    for f in (lambda r, c: (7 - r, 7 - c), lambda r, c: (c, r), lambda r, c: (7 - c, 7 - r)):
        m = {}
        for s in range(1, 33):
            t = rowcol_to_square(*f(*square_to_rowcol(s)))
            assert t is not None
            m[s] = t
        out.append(m)
    return out


def placements() -> list[str]:
    """One FEN per symmetry class: Black has two kings, White one, either side to move; placements where the
    lone king is to move and can capture at once are left out (they are one king against one)."""
    maps = _maps()
    seen: set[tuple[str, frozenset[int], int]] = set()
    out = []
    for side in "BW":
        for strong in itertools.combinations(range(1, 33), 2):
            for weak in range(1, 33):
                if weak in strong:
                    continue
                key = (side, frozenset(strong), weak)
                if key in seen:
                    continue
                seen.add(key)
                for m in maps:
                    seen.add((side, frozenset(m[s] for s in strong), m[weak]))
                fen = f"{side}:WK{weak}:BK{strong[0]},K{strong[1]}"
                st = G.parse_position(fen)
                if side == "W" and any(m.is_capture for m in G.actions(st)):
                    continue  # the lone king captures at once: one king against one, no longer a win
                out.append(fen)
    return out


def play(args: tuple[str, str, str]) -> tuple[str, bool, int, str]:
    from ai.agents.agents import make_agent
    from gameplay.rules.referee import play_game
    fen, strong, weak = args
    s = G.parse_position(fen)
    res = play_game(G, (make_agent("checkers", strong), make_agent("checkers", weak)), s, max_plies=400)
    won = res.outcome is not None and res.outcome.winner == 0
    return fen, won, res.plies, res.outcome.termination_text if res.outcome else "move limit"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--strong", default="expert")
    ap.add_argument("--weak", default="alphabeta:depth=8")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--limit", type=int, default=None)
    a = ap.parse_args()
    todo = placements()[: a.limit]
    t0 = time.time()
    wins = 0
    longest = 0
    failed = []
    with mp.get_context("spawn").Pool(a.jobs) as pool:
        for i, (fen, won, plies, why) in enumerate(pool.imap_unordered(play, [(f, a.strong, a.weak) for f in todo])):
            wins += won
            if won:
                longest = max(longest, plies)
            else:
                failed.append(f"{fen} ({why}, {plies} plies)")
            if (i + 1) % 200 == 0:
                print(f"{i + 1}/{len(todo)} played, {wins} won, {time.time() - t0:.0f} s", file=sys.stderr)
    print(f"{len(todo)} placements, {wins} won by the two kings, longest win {longest} plies, "
          f"{time.time() - t0:.0f} s ({a.strong} vs {a.weak})")
    for f in failed:
        print("not won:", f)


if __name__ == "__main__":
    main()
