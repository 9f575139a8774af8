"""The share of an iteration's nodes that its first root move takes, for checkers ``expert`` (the figure behind
``ai.kernel.timeman.FIRST_MOVE_SHARE``: with ``partial`` a stopped iteration proves something only once its first root
move, the previous iteration's best, is searched).

Usage: ``python tools/first_move_share.py [--depth D] [--positions N] [--spec SPEC]``. Each of N ballot positions,
spread evenly over the 156-opening deck (White to move after the three-move ballot), is searched to depth D with
the opening book off; for every iteration from depth 6 the nodes below the first root move are divided by the
iteration's nodes. Prints, per depth, the median, mean, smallest and largest share. Node counts do not depend on
the machine or on the compiled build, so the tool runs the pure-Python source (it wraps the search's per-move
method to count).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path
from typing import Any

os.environ["ARCADE_PURE"] = "1"  # the compiled search cannot be wrapped; its node counts are the same
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.agents.agents import make_agent  # noqa: E402
from ai.kernel.search import SearchLimits, iterative_deepening  # noqa: E402
from gameplay.rules import limits  # noqa: E402
from gameplay.rules.checkers.ballots import load_ballots  # noqa: E402

FROM_DEPTH = 6
"""Shallower iterations are too small for their shares to mean anything."""


def shares(spec: str, fen: str, depth: int) -> dict[int, float]:
    """``{iteration depth: first root move's nodes / iteration's root-move nodes}`` for one position."""
    agent = make_agent("checkers", spec)
    game = agent.game
    searcher: Any = agent.make_searcher()  # type: ignore[attr-defined]
    inner = searcher._child_value
    rows: list[tuple[int, int, int]] = []

    def counted(state: Any, m: Any, i: int, d: int, alpha: float, beta: float, ply: int) -> float:
        n0 = searcher.stats.nodes
        v: float = inner(state, m, i, d, alpha, beta, ply)
        if ply == 0:
            rows.append((d, i, searcher.stats.nodes - n0))
        return v

    searcher._child_value = counted
    iterative_deepening(game, game.parse_position(fen), searcher, SearchLimits(depth, None, unit=agent.value_unit()))
    out = {}
    for d in range(FROM_DEPTH, depth + 1):
        total = sum(n for dd, _, n in rows if dd == d)
        if total:
            out[d] = sum(n for dd, i, n in rows if dd == d and i == 0) / total
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--depth", type=limits.Range(FROM_DEPTH, 14, "depth").arg("--depth"), default=10,
                   help="the deepest iteration (plies, default 10)")
    p.add_argument("--positions", type=limits.Range(1, 156, "positions").arg("--positions"), default=10,
                   help="ballot positions, spread over the deck (default 10)")
    p.add_argument("--spec", default="expert:book=off", help="the agent (default expert:book=off)")
    try:
        a = p.parse_args(argv)
    except limits.OptionValueError as e:
        p.error(str(e))  # one line, exit 2
    deck = load_ballots()
    step = max(1, len(deck) // a.positions)
    by_depth: dict[int, list[float]] = {}
    for b in deck[::step][:a.positions]:
        for d, share in shares(a.spec, b.fen, a.depth).items():
            by_depth.setdefault(d, []).append(share)
    print(f"first root move's share of the iteration's nodes, {a.spec}, {a.positions} ballot positions")
    for d, v in sorted(by_depth.items()):
        print(f"depth {d}: median {statistics.median(v):.2f}, mean {statistics.mean(v):.2f}, "
              f"min {min(v):.2f}, max {max(v):.2f} ({len(v)} positions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
