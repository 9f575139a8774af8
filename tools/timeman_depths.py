"""Completed depth and budget share of checkers ``expert`` with its time management off and on, position by position.

Usage: ``python tools/timeman_depths.py [--time S] [--positions N] [--clock cpu|wall] [--partial]``. Each of the
first N ACF ballot positions (White to move after the three-move ballot; the opening book off, so the search runs)
is searched once with ``timeman=off`` (no iteration after half the budget) and once with ``timeman=on``
(``ai.kernel.timeman``), on the CPU-time clock by default so that a shared machine's load moves the figures less.
Prints, for each policy, the mean completed depth, the median and 90th-percentile share of the budget spent and the
worst overshoot, and how many positions the managed search finished deeper, as deep and shallower (``docs/strength.md``,
"The clock").
With ``--partial`` both searches run with ``partial=on`` and each policy's line also says how many moves came from a
stopped iteration (``docs/strength.md``, "Stopped iterations").
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.agents.agents import make_agent  # noqa: E402
from gameplay.rules import limits  # noqa: E402
from gameplay.rules.checkers.ballots import load_ballots  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--time", type=limits.MOVE_TIME.arg("--time"), default=0.3, help="seconds per move (default 0.3)")
    p.add_argument("--positions", type=limits.Range(1, 156, "positions").arg("--positions"), default=40,
                   help="the first N ballots of the 156-opening deck (default 40)")
    p.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="the budget's clock (default cpu)")
    p.add_argument("--partial", action="store_true", help="search with partial=on and count its moves")
    try:
        a = p.parse_args(argv)
    except limits.OptionValueError as e:
        p.error(str(e))  # one line, exit 2
    fens = [b.fen for b in load_ballots()[:a.positions]]
    runs: dict[str, list[tuple[int, float]]] = {"off": [], "on": []}
    stopped = {"off": 0, "on": 0}
    extra = ",partial=on" if a.partial else ""
    for fen in fens:
        for policy in ("off", "on"):
            agent = make_agent("checkers", f"expert:book=off,time={a.time},timeman={policy},clock={a.clock}{extra}")
            r = agent.choose(agent.game.parse_position(fen))
            runs[policy].append((r.depth, float(r.extra["clock_s"]) / a.time))
            stopped[policy] += "partial" in r.extra
    print(f"{len(fens)} ballot positions, expert:book=off,time={a.time:g},clock={a.clock}{extra}")
    for policy, rs in runs.items():
        shares = sorted(s for _, s in rs)
        p90 = shares[max(0, -(-9 * len(shares) // 10) - 1)]
        late = f", {stopped[policy]} moves from a stopped iteration" if a.partial else ""
        print(f"timeman={policy}: mean depth {statistics.mean(d for d, _ in rs):.2f}, budget share median "
              f"{statistics.median(shares):.3f}, p90 {p90:.3f}, worst overshoot "
              f"{max(0.0, shares[-1] - 1.0) * a.time * 1000:.1f} ms{late}")
    pairs = [(on[0], off[0]) for on, off in zip(runs["on"], runs["off"])]
    print(f"timeman=on deeper in {sum(x > y for x, y in pairs)}, as deep in {sum(x == y for x, y in pairs)}, "
          f"shallower in {sum(x < y for x, y in pairs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
