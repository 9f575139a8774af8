"""Build the Connect Four opening book (``assets/book/connect4_book.txt``) with the project's own exact solver.

Usage::

    python tools/build_c4_book.py [--plies 6-9] [--positions N] [--seed S] [--min-seconds T] [--max-seconds M]
                                  [--out FILE] [--resume]

The book holds solved positions of the first plies that the solver needs longest for: positions of ``--plies``
stones (a range, e.g. ``6-9``) reached by seeded random play (``--seed``; ``--positions`` of them), each solved by
:class:`ai.connect4.connect4_solver.Solver` (compiled when the install compiled it: run this after the README's
install) within ``--max-seconds`` CPU seconds; a position whose solve took at least ``--min-seconds`` is stored
with its exact score (Pons's: :mod:`ai.connect4.connect4_solver`) and a best move. A position and its mirror image
are one entry. Positions the solver cannot finish within ``--max-seconds`` are left out (counted in the summary).

The solver of ``expert`` reads the book at the root (a book move, said as such) and inside its search (a stored
score ends the search below that position, as in P. Pons's solver), so a book position helps every search that
passes through it.

The file is plain text, one entry a line: the position (the columns played, 1-7), the score, the best column
(1-7); ``#`` lines are comments (the build's parameters). It is written whole after every stored entry, so an
interrupted build keeps what it solved; ``--resume`` keeps an existing file's entries and skips their positions.

Prints the entries stored, the positions solved, the positions left out and the CPU time.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.connect4.connect4_book import BOOK_PATH, read_book_lines  # noqa: E402
from ai.connect4.connect4_solver import Solver, SolverStopped  # noqa: E402
from gameplay.rules.compiled import status_line  # noqa: E402
from gameplay.rules.connect4 import Connect4  # noqa: E402
from gameplay.rules.connect4_bits import from_state_bits, key, mirror  # noqa: E402
from gameplay.rules.outfile import write_text  # noqa: E402


def _plies(text: str) -> tuple[int, int]:
    lo, _, hi = text.partition("-")
    a, b = int(lo), int(hi or lo)
    if not 0 <= a <= b <= 20:
        raise argparse.ArgumentTypeError(f"--plies is a range within 0-20 (e.g. 6-9), got {text!r}")
    return a, b


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plies", type=_plies, default=(6, 9), help="stones on the board, a range (default 6-9)")
    ap.add_argument("--positions", type=int, default=400, help="positions to solve (default 400)")
    ap.add_argument("--seed", type=int, default=2049, help="the random play's seed (default 2049)")
    ap.add_argument("--min-seconds", type=float, default=0.25, help="store a solve that took this long (CPU s)")
    ap.add_argument("--max-seconds", type=float, default=120.0, help="give up a solve after this long (CPU s)")
    ap.add_argument("--out", type=Path, default=BOOK_PATH, help=f"the book file (default {BOOK_PATH})")
    ap.add_argument("--resume", action="store_true", help="keep the existing file's entries and skip them")
    a = ap.parse_args(argv)
    if a.positions < 1 or a.min_seconds < 0 or a.max_seconds <= 0:
        ap.error("--positions must be at least 1, --min-seconds at least 0 and --max-seconds above 0")
    game = Connect4()
    entries: dict[int, str] = {}
    if a.resume and a.out.exists():
        for moves, score, column in read_book_lines(a.out.read_text(encoding="utf-8"), str(a.out)):
            s = game.parse_position(moves)
            p, m = from_state_bits(s.first, s.mask, s.plies)
            entries[min(key(p, m), mirror(key(p, m)))] = f"{moves} {score} {column}"
    head = (f"# Connect Four opening book: built by tools/build_c4_book.py --plies {a.plies[0]}-{a.plies[1]} "
            f"--positions {a.positions} --seed {a.seed} --min-seconds {a.min_seconds} --max-seconds {a.max_seconds}\n"
            "# position (columns 1-7) | exact score (Pons: +n the side to move wins with its (22-n)th stone) | "
            "best column\n")
    rng = random.Random(a.seed)
    solver = Solver(time.process_time)
    print(status_line(), file=sys.stderr)
    solved = skipped = 0
    t_all = time.process_time()
    for i in range(a.positions):
        s = game.initial_state()
        n = rng.randint(a.plies[0], a.plies[1])
        while s.plies < n and not game.is_terminal(s):
            s = game.successor(s, rng.choice(game.actions(s)))
        if game.is_terminal(s):
            continue
        p, m = from_state_bits(s.first, s.mask, s.plies)
        k = min(key(p, m), mirror(key(p, m)))
        if k in entries:
            continue
        t0 = time.process_time()
        try:
            sol = solver.solve(p, m, deadline=t0 + a.max_seconds)
        except SolverStopped:
            skipped += 1
            print(f"{i + 1}/{a.positions} {s.moves}: not solved in {a.max_seconds:g} s", file=sys.stderr)
            continue
        spent = time.process_time() - t0
        solved += 1
        if spent >= a.min_seconds:
            entries[k] = f"{s.moves} {sol.score} {sol.column}"
            write_text(a.out, head + "".join(line + "\n" for line in sorted(entries.values(), key=len)))
            print(f"{i + 1}/{a.positions} {s.moves}: score {sol.score}, column {sol.column}, {spent:.2f} s, "
                  f"{sol.nodes:,} nodes", file=sys.stderr)
    print(f"{len(entries)} entries in {a.out}; {solved} positions solved, {skipped} left out (over "
          f"{a.max_seconds:g} s); {time.process_time() - t_all:.0f} CPU s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
