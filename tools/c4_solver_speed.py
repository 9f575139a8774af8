"""Our Connect Four solver against an outside exact solver, P. Pons's ``connect4`` (github.com/PascalPons/connect4,
C++, AGPL: built outside this repository), on one set of positions, each side's CPU time in the same run.

Usage::

    python tools/c4_solver_speed.py --pons-src DIR [--positions N] [--seed S] [--plies 8-20] [--expert-time 1.0]
                                    [--positions-file FILE] [--games G [--opponent SPEC] [--noise P]
                                    [--min-plies N]] [--empty-board] [--analyze] [--json]

``--pons-src`` is a checkout of Pons's repository (``git clone https://github.com/PascalPons/connect4``); the tool
compiles a small timing driver of its own against his ``Solver.cpp`` with ``g++ -O3`` in a temporary folder (the
driver resets his table before each position, outside the timing, and reads the process's CPU clock around his
``solve``; his opening book is not loaded). With ``--analyze`` the driver also scores every move of each position
(his ``analyze``), to check that our best move is one of his best.

The positions: ``--positions`` positions (1 or more) of ``--plies`` stones (a range ``N-M``, or ``N``, with
``0 <= N <= M <= 41``: a position of 42 stones is always over) reached by seeded random play, games over left out
(or the positions of ``--positions-file``, one a line, columns 1-7, blank lines skipped); or, with ``--games``, the
positions ``expert`` meets: ``G`` games of ``expert`` (a new agent each game, its table kept from move to move as in
play) against ``--opponent`` (``random``, seeded by ``--seed`` and the game's number, or an agent spec, which plays a
seeded random move instead of its own with probability ``--noise``), ``expert`` first in the even games and second
in the odd ones, every position where ``expert`` is to move (``--min-plies``: those of at least N stones). For each:

* Pons's score, nodes and CPU time;
* our solver's (:class:`ai.connect4.connect4_solver.Solver`, its table cleared before each position outside the
  timing, no book: the same conditions), compiled when the install compiled it (the first line says);
* ``expert`` (``alphabeta:time=T,book=on,exact=on,clock=cpu``): proved or not, its outcome and distance against the
  ones Pons's score gives, its move among Pons's best moves (with ``--analyze``); with ``--games``, its answer in the
  game.

Bad input is refused before anything runs, with one line ``error: ...`` on standard error and exit status 2: no
positions to compare (``--positions`` below 1, an empty file, ``--games`` whose positions all have fewer than
``--min-plies`` stones: that one after the games), a ``--plies`` that is not such a range, a ``--positions-file``
that is missing, a folder or not UTF-8 text, a line of it that is not a position (the line number and why: not a
column digit 1-7, a full column, a game already over, text after the position), an unknown ``--opponent``, ``--noise``
or ``--min-plies`` without ``--games``, ``--plies`` with ``--positions-file`` or ``--games``, ``--noise`` with the
random opponent (they would have no effect). The empty board (``-`` in the file, ``--plies``
from 0, ``--games`` without ``--min-plies``) is refused too unless ``--empty-board`` allows it: Pons's solver without
his opening book needs far too long for it (minutes to hours). A line on standard error says when Pons's solver
starts (its results come all at once when it has finished every position).

Prints one line per position, then: the positions both solved with the same score, the median CPU time of each and
the median of the per-position ratio (ours / Pons's), and the same over the positions Pons needs at least 1 ms for;
``expert``'s proofs. Exits 1 when a score differs.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.agents.agents import make_agent  # noqa: E402
from ai.connect4.connect4_solver import Solver, outcome_of  # noqa: E402
from ai.kernel.core import SearchResult  # noqa: E402
from gameplay.rules.base import GameError  # noqa: E402
from gameplay.rules.compiled import status_line  # noqa: E402
from gameplay.rules.connect4 import Connect4  # noqa: E402
from gameplay.rules.connect4_bits import from_state_bits  # noqa: E402

DRIVER = r"""
// Timing driver for P. Pons's connect4 solver (written for tools/c4_solver_speed.py): one position per line on
// standard input (columns 1-7, "-" the empty board); prints "position score nodes cpu_us" (and with -a the 7 move
// scores, 100 = full).
#include "Solver.hpp"
#include <iostream>
#include <string>
#include <ctime>
using namespace GameSolver::Connect4;
static double cpu() {
  timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}
int main(int argc, char** argv) {
  bool analyze = argc > 1 && std::string(argv[1]) == "-a";
  Solver solver;
  std::string line;
  while (std::getline(std::cin, line)) {
    Position P;
    std::string moves = line == "-" ? "" : line;
    if (P.play(moves) != moves.size()) { std::cout << line << " invalid" << std::endl; continue; }
    solver.reset();
    double t0 = cpu();
    int score = solver.solve(P, false);
    double t1 = cpu();
    std::cout << line << " " << score << " " << solver.getNodeCount() << " " << (t1 - t0);
    if (analyze) {
      solver.reset();
      for (int s : solver.analyze(P, false)) std::cout << " " << (s == Solver::INVALID_MOVE ? 100 : s);
    }
    std::cout << std::endl;
  }
}
"""


FULL = 100
"""The driver's score of a full column (``-a``): no move, never a best one."""


def build_driver(src: Path, out_dir: Path) -> Path:
    """Compile the timing driver against Pons's sources in ``src``; the binary's path.

    Raises:
        SystemExit: ``src`` has no ``Solver.cpp`` or g++ fails.
    """
    if not (src / "Solver.cpp").is_file():
        raise SystemExit(f"--pons-src {src}: no Solver.cpp there (a checkout of github.com/PascalPons/connect4)")
    driver = out_dir / "pons_driver.cpp"
    driver.write_text(DRIVER, encoding="utf-8")
    binary = out_dir / "pons_driver"
    cmd = ["g++", "--std=c++11", "-O3", "-DNDEBUG", "-I", str(src), "-o", str(binary), str(driver),
           str(src / "Solver.cpp")]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"g++ failed:\n{done.stderr}")
    return binary


def random_positions(n: int, plies: tuple[int, int], seed: int) -> list[str]:
    """``n`` positions of ``plies`` stones (a range) by seeded random play, games over left out."""
    game = Connect4()
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < n:
        s = game.initial_state()
        target = rng.randint(*plies)
        while s.plies < target and not game.is_terminal(s):
            s = game.successor(s, rng.choice(game.actions(s)))
        if not game.is_terminal(s):
            out.append(s.moves)
    return out


def expert_games(games: int, opponent: str, seed: int, expert_time: float,
                 noise: float = 0.0) -> dict[str, SearchResult]:
    """``expert``'s answer at every position where it was to move in ``games`` games against ``opponent`` (module
    docstring; an agent opponent plays a random move instead of its own with probability ``noise``), by position
    (the first answer when a position comes again)."""
    game = Connect4()
    met: dict[str, SearchResult] = {}
    for g in range(games):
        expert = make_agent("connect4", f"expert:time={expert_time},clock=cpu")
        other = None if opponent == "random" else make_agent("connect4", opponent)
        rng = random.Random(seed * 1000 + g)
        s = game.initial_state()
        while not game.is_terminal(s):
            if s.plies % 2 == g % 2:
                res = expert.choose(s)
                met.setdefault(s.moves, res)
                move = res.move
            else:
                move = (rng.choice(game.actions(s)) if other is None or rng.random() < noise
                        else other.choose(s).move)
            s = game.result(s, move)
        print(f"game {g + 1}/{games}: expert {'first' if g % 2 == 0 else 'second'}, {s.moves}", file=sys.stderr,
              flush=True)
    return met


class Refused(Exception):
    """Bad input, said in one line before anything runs (:func:`main` prints ``error: ...`` and exits 2)."""


NO_EMPTY_BOARD = ("Pons's solver without his opening book needs far too long for it (minutes to hours); pass "
                  "--empty-board to include it anyway")
"""Why the empty board is left to an explicit ``--empty-board``."""


def parse_plies(text: str) -> tuple[int, int]:
    """``"8-20"`` -> ``(8, 20)``, ``"12"`` -> ``(12, 12)``: the stones of the random positions.

    Raises:
        Refused: not ``N-M`` or ``N`` with ``0 <= N <= M <= 41`` (a position of 42 stones is always over).
    """
    lo, dash, hi = text.strip().partition("-")
    want = "expected N-M or N with 0 <= N <= M <= 41 (stones; a position of 42 stones is always over)"
    try:
        n, m = int(lo), int(hi if dash else lo)
    except ValueError:
        raise Refused(f"--plies {text!r}: {want}") from None
    if not 0 <= n <= m <= 41:
        raise Refused(f"--plies {text!r}: {want}")
    return n, m


def read_positions(path: Path) -> list[str]:
    """The positions of a ``--positions-file``: one a line (the columns played, 1-7; ``-`` the empty board, as
    ``""``), blank lines skipped, each checked by the rules.

    Raises:
        Refused: the file is missing, a folder or not UTF-8 text; a line is not a position the game goes on from (its
            number and why: not a column digit 1-7, a full column, the game already over, text after the position).
    """
    if not path.exists():
        raise Refused(f"--positions-file {path}: no such file")
    if path.is_dir():
        raise Refused(f"--positions-file {path}: it is a folder; expected a file of positions, one a line")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise Refused(f"--positions-file {path}: not UTF-8 text (byte {e.start}); expected positions, one a "
                      f"line") from None
    except OSError as e:
        raise Refused(f"--positions-file {path}: cannot be read: {e.strerror or e}") from None
    game = Connect4()
    out: list[str] = []
    bad: list[str] = []
    for n, line in enumerate(text.splitlines(), 1):
        words = line.split()
        if not words:
            continue
        why = None
        moves = "" if words[0] == "-" else words[0]
        if len(words) > 1:
            why = f"text after the position ({' '.join(words[1:])!r}); expected one position a line"
        else:
            try:
                if game.is_terminal(game.parse_position(moves)):
                    why = f"the game is already over at {words[0]}; there is nothing to solve"
            except GameError as e:
                why = str(e)
        if why is not None:
            bad.append(f"line {n}: {why}")
        else:
            out.append(moves)
    if bad:
        more = f"; and {len(bad) - 5} more bad lines" if len(bad) > 5 else ""
        raise Refused(f"--positions-file {path}: {len(bad)} bad line{'s' if len(bad) > 1 else ''}, nothing run: "
                      + "; ".join(bad[:5]) + more)
    return out


def _expert_text(row: dict[str, Any]) -> str:
    """``expert``'s answer on a table line: ``proven win in 9: plays 4, one of Pons's best``, ``book loss in 30: plays
    3`` (no ``--analyze``) or ``not proved (time): plays 5, NOT one of Pons's best``."""
    best = ("" if "expert_best" not in row else
            ", one of Pons's best" if row["expert_best"] else ", NOT one of Pons's best")
    played = f": plays {row['expert_move']}{best}"
    if row["expert_outcome"] is None:
        return f"  expert not proved ({row['expert_reason']}){played}"
    wrong = "" if row["expert_exact"] else " (NOT Pons's result)"
    return f"  expert {row['expert_reason']} {row['expert_outcome']} in {row['expert_plies']}{wrong}{played}"


def chosen_positions(a: argparse.Namespace) -> tuple[list[str], dict[str, SearchResult]]:
    """The positions to compare (module docstring), and with ``--games`` expert's answers in the games by position;
    the options are checked first, the games played (with ``--games``) after that.

    Raises:
        Refused: bad options or positions, or no positions (module docstring).
    """
    if a.games < 0:
        raise Refused(f"--games {a.games}: expected 1 or more games (or none: random positions)")
    if a.games == 0:
        for name, value in (("--noise", a.noise), ("--min-plies", a.min_plies)):
            if value is not None:
                raise Refused(f"{name} applies to the games of --games only; without --games it would have no "
                              f"effect")
        if a.opponent is not None:
            raise Refused("--opponent applies to the games of --games only; without --games it would have no effect")
    if a.positions is not None and (a.positions_file is not None or a.games > 0):
        raise Refused("--positions is the number of random positions; not with --positions-file or --games")
    if a.plies is not None and (a.positions_file is not None or a.games > 0):
        raise Refused("--plies is the stones of the random positions; not with --positions-file or --games (it "
                      "would have no effect)")
    played: dict[str, SearchResult] = {}
    if a.games > 0:
        opponent = a.opponent or "random"
        noise = 0.0 if a.noise is None else a.noise
        min_plies = 0 if a.min_plies is None else a.min_plies
        if a.expert_time <= 0:
            raise Refused("--games plays expert: --expert-time must be above 0")
        if not 0.0 <= noise <= 1.0:
            raise Refused(f"--noise {noise:g}: a probability, expected 0 to 1")
        if a.noise is not None and opponent == "random":
            raise Refused("--noise is the chance an agent --opponent plays a random move; the random opponent always "
                          "does (give --opponent SPEC, or leave out --noise)")
        if min_plies <= 0 and not a.empty_board:
            raise Refused(f"--games without --min-plies: expert's first games start from the empty board, and "
                          f"{NO_EMPTY_BOARD} (or give --min-plies, e.g. 11)")
        if opponent != "random":
            try:
                make_agent("connect4", opponent)
            except GameError as e:
                raise Refused(f"--opponent {opponent}: {e}") from None
        print(status_line(), file=sys.stderr)
        played = expert_games(a.games, opponent, a.seed, a.expert_time, noise)
        positions = [p for p in played if len(p) >= min_plies]
        if not positions:
            raise Refused(f"no positions to compare: none of the {len(played)} positions where expert was to move in "
                          f"{a.games} games has {min_plies} stones or more (lower --min-plies, or more --games)")
        return positions, played
    if a.positions_file is not None:
        positions = read_positions(a.positions_file)
        if not positions:
            raise Refused(f"no positions to compare: --positions-file {a.positions_file} has none (one a line)")
        source = f"--positions-file {a.positions_file}"
    else:
        count = 60 if a.positions is None else a.positions
        if count < 1:
            raise Refused(f"no positions to compare: --positions {count} (expected 1 or more)")
        plies_text = DEFAULT_PLIES if a.plies is None else a.plies
        plies = parse_plies(plies_text)
        if plies[0] == 0 and not a.empty_board:
            raise Refused(f"--plies {plies_text}: from 0 stones the empty board would be among the positions, and "
                          f"{NO_EMPTY_BOARD}")
        print(status_line(), file=sys.stderr)
        return random_positions(count, plies, a.seed), played
    if "" in positions and not a.empty_board:
        raise Refused(f"{source}: the empty board ('-') is among the positions, and {NO_EMPTY_BOARD}")
    print(status_line(), file=sys.stderr)
    return positions, played


DEFAULT_PLIES = "8-20"
"""The stones of the random positions without ``--plies``."""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pons-src", type=Path, required=True, help="a checkout of github.com/PascalPons/connect4")
    ap.add_argument("--positions", type=int, default=None, help="the number of random positions (default 60)")
    ap.add_argument("--seed", type=int, default=49)
    ap.add_argument("--plies", default=None, help=f"stones of the random positions, a range (default {DEFAULT_PLIES})")
    ap.add_argument("--positions-file", type=Path, help="positions to use instead, one a line")
    ap.add_argument("--expert-time", type=float, default=1.0, help="expert's CPU seconds a move (0: skip it)")
    ap.add_argument("--games", type=int, default=0, help="the positions expert meets in G games instead")
    ap.add_argument("--opponent", default=None, help="expert's opponent in --games: random (default) or an agent "
                    "spec")
    ap.add_argument("--noise", type=float, default=None, help="with --games and an agent --opponent, the chance it "
                    "plays a random move instead (seeded; games differ; default 0)")
    ap.add_argument("--min-plies", type=int, default=None, help="with --games, leave out positions of fewer stones "
                    "(Pons's solver, without its book, needs minutes for the first plies)")
    ap.add_argument("--empty-board", action="store_true", help="allow the empty board among the positions (Pons's "
                    "solver without his book needs far too long for it)")
    ap.add_argument("--analyze", action="store_true", help="check expert's move against Pons's move scores")
    ap.add_argument("--json", action="store_true", help="one JSON record at the end instead of the summary")
    a = ap.parse_args(argv)
    try:
        positions, played = chosen_positions(a)
        if not (a.pons_src / "Solver.cpp").is_file():
            raise Refused(f"--pons-src {a.pons_src}: no Solver.cpp there (a checkout of "
                          f"github.com/PascalPons/connect4)")
    except Refused as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        binary = build_driver(a.pons_src, Path(tmp))
        print(f"Pons's solver: {len(positions)} positions" + (" with every move scored (--analyze)" if a.analyze
              else "") + "; its results come when it has finished them all", file=sys.stderr, flush=True)
        run = subprocess.run([str(binary)] + (["-a"] if a.analyze else []),
                             input="\n".join(p or "-" for p in positions) + "\n",
                             capture_output=True, text=True, check=True)
    pons: dict[str, tuple[int, int, float, list[int]]] = {}
    for line in run.stdout.splitlines():
        f = line.split()
        if len(f) >= 4 and f[1] != "invalid":
            pons[f[0]] = (int(f[1]), int(f[2]), float(f[3]) / 1e6, [int(x) for x in f[4:]])
    game = Connect4()
    solver = Solver(time.process_time)
    expert = make_agent("connect4", f"expert:time={a.expert_time},clock=cpu") if a.expert_time > 0 else None
    rows: list[dict[str, Any]] = []
    for moves in positions:
        if (moves or "-") not in pons:
            continue
        p_score, p_nodes, p_cpu, p_moves = pons[moves or "-"]
        s = game.parse_position(moves)
        position, mask = from_state_bits(s.first, s.mask, s.plies)
        from_book = moves in played and str(played[moves].stop_reason) == "book"
        row: dict[str, Any] = {"position": moves, "pons_score": p_score, "pons_nodes": p_nodes,
                                  "pons_cpu_s": p_cpu, "score": None, "nodes": None, "cpu_s": None}
        if not from_book:  # a book position of a game is not solved again (a few stones: minutes each)
            solver.clear()
            t0 = time.process_time()
            sol = solver.solve(position, mask)
            row.update(score=sol.score, nodes=sol.nodes, cpu_s=time.process_time() - t0)
        if expert is not None:
            res = played[moves] if moves in played else expert.choose(s)
            word, distance = outcome_of(p_score, s.plies)
            row.update(expert_reason=str(res.stop_reason), expert_outcome=res.outcome,
                       expert_plies=res.plies_to_end, expert_move=res.move,
                       expert_exact=(res.outcome, res.plies_to_end) == (word, distance))
            if p_moves:
                row["expert_best"] = p_moves[res.move - 1] == max(x for x in p_moves if x != FULL)
        rows.append(row)
        if not a.json:
            ours = ("(book position: not solved again)" if from_book else
                    f"score {row['score']:+3d} (Pons {p_score:+3d}) nodes {row['nodes']:>10,} / {p_nodes:>10,} "
                    f"CPU {row['cpu_s'] * 1e3:9.3f} ms / {p_cpu * 1e3:9.3f} ms")
            print(f"{moves or '-':22} {ours}" + (_expert_text(row) if expert is not None else ""), flush=True)
    timed = [r for r in rows if r["score"] is not None]
    same = [r for r in timed if r["score"] == r["pons_score"]]
    ratios = [r["cpu_s"] / max(r["pons_cpu_s"], 1e-7) for r in same]
    slow = [r for r in same if r["pons_cpu_s"] >= 1e-3]
    summary = {
        "positions": len(rows), "solved_by_both": len(timed), "same_score": len(same),
        "median_cpu_s": statistics.median(r["cpu_s"] for r in same) if same else None,
        "pons_median_cpu_s": statistics.median(r["pons_cpu_s"] for r in same) if same else None,
        "median_ratio": statistics.median(ratios) if ratios else None,
        "ratio_of_medians": (statistics.median(r["cpu_s"] for r in same)
                             / statistics.median(r["pons_cpu_s"] for r in same)) if same else None,
        "over_1ms": len(slow),
        "median_ratio_over_1ms": statistics.median(r["cpu_s"] / r["pons_cpu_s"] for r in slow) if slow else None,
        "nodes_ratio": (sum(r["nodes"] for r in same) / max(1, sum(r["pons_nodes"] for r in same))),
        "max_cpu_s": max((r["cpu_s"] for r in same), default=None),
        "pons_max_cpu_s": max((r["pons_cpu_s"] for r in same), default=None),
    }
    if same:
        slowest = max(same, key=lambda r: r["cpu_s"])
        summary.update(slowest=slowest["position"], slowest_cpu_s=slowest["cpu_s"],
                       slowest_pons_cpu_s=slowest["pons_cpu_s"])
    if played:  # every position of the games, those below --min-plies too
        summary.update(games_positions=len(played),
                       games_book=sum(str(r.stop_reason) == "book" for r in played.values()),
                       games_proven=sum(str(r.stop_reason) == "proven" for r in played.values()))
    if expert is not None:
        summary.update(expert_proved=sum(r["expert_reason"] in ("proven", "book") and r["expert_exact"]
                                         for r in rows),
                       expert_book=sum(r["expert_reason"] == "book" for r in rows))
        if a.analyze:
            summary["expert_best_move"] = sum(bool(r.get("expert_best")) for r in rows)
    if a.json:
        print(json.dumps({"summary": summary, "rows": rows}, indent=1))
    else:
        print(json.dumps(summary, indent=1))
    return 0 if len(same) == len(timed) else 1


if __name__ == "__main__":
    raise SystemExit(main())
