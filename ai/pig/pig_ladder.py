"""The exact ladder of Pig's difficulty presets: each preset's exact score against the optimal policy and against
the preset below it (policy evaluation, no dice: :func:`ai.pig.pig_agents.exact_match`), and its command
``python -m ai.pig.pig_ladder [--target N] [--faces F]``.

Builds the presets with :mod:`ai.agents.agents` (so it sits above it; :mod:`ai.pig.pig_agents`, which the agents'
factory reaches through the game's profile, does not import the factory back).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ai.agents.agents import build_agent, parse_settings
from ai.pig.pig_agents import DEFAULT_TARGET, PRESET_LADDER, HoldRule, exact_match, hold_rule, make_profile


def exact_ladder(target: int = DEFAULT_TARGET, faces: int = 6,
                 presets: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Each preset's exact score against ``optimal`` and against the preset below it
    (:func:`ai.pig.pig_agents.exact_match`).

    Args:
        target: the game's target (the presets are built for ``make_profile(target, faces)``).
        faces: die faces.
        presets: label -> agent spec, weakest first (default: the difficulty presets, :data:`PRESET_LADDER`).

    Returns:
        One dict per preset: ``name``, ``spec``, ``vs_optimal`` (mean of the two seats), ``vs_optimal_first`` and
        ``vs_optimal_second`` (the preset moves first / second), and ``vs_below`` (``None`` for the first).
    """
    profile = make_profile(target, faces)
    specs = dict(presets) if presets is not None else {name: name for name in PRESET_LADDER}
    optimal = hold_rule(build_agent(profile, parse_settings("optimal", profile)))
    rows: list[dict[str, Any]] = []
    below: HoldRule | None = None
    for name, spec in specs.items():
        # one preset's rule at a time beside the one below it: a search preset's rule remembers its answers and its
        # searches' values for every position asked (about 505,000), so keeping all five held about 1 GB at once
        rule = hold_rule(build_agent(profile, parse_settings(spec, profile)))
        p1, p2 = exact_match(rule, optimal, target, faces)
        vs_below = None
        if below is not None:
            q1, q2 = exact_match(rule, below, target, faces)
            vs_below = (q1 + q2) / 2
        rows.append({"name": name, "spec": spec, "vs_optimal": (p1 + p2) / 2, "vs_optimal_first": p1,
                     "vs_optimal_second": p2, "vs_below": vs_below})
        below = rule
    return rows


def main(argv: list[str] | None = None) -> int:
    """``python -m ai.pig.pig_ladder [--target N] [--faces F]``: print :func:`exact_ladder` (about 40 s for target
    100)."""
    import argparse
    import time

    parser = argparse.ArgumentParser(prog="python -m ai.pig.pig_ladder",
                                     description="Exact score of each Pig difficulty preset against the optimal "
                                                 "policy and against the preset below it (no sampling).")
    parser.add_argument("--target", type=int, default=DEFAULT_TARGET)
    parser.add_argument("--faces", type=int, default=6)
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    rows = exact_ladder(args.target, args.faces)
    print(f"{'preset':10s} {'vs optimal':>10s} {'(first':>8s} {'second)':>8s} {'vs below':>9s}")
    for r in rows:
        below = "" if r["vs_below"] is None else f"{r['vs_below']:.4f}"
        print(f"{r['name']:10s} {r['vs_optimal']:10.4f} {r['vs_optimal_first']:8.4f} {r['vs_optimal_second']:8.4f} "
              f"{below:>9s}")
    print(f"target {args.target}, {args.faces} faces; {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
