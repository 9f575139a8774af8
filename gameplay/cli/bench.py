"""``python main.py bench [SUITE ...] [--json]``: the benchmark suites whose figures the README quotes.

Suites: ``ui`` (frame times while a search runs on the worker thread), ``perft`` (checkers move generation),
``search`` (checkers alpha-beta), ``pig`` (expectimax against the optimal policy), ``mcts`` (Monte Carlo tree
search's simulations per second and time control), ``pdn`` (reading a PDN archive: games per second, on a generated
archive of the Open Checkers Archive's shape, ``gameplay.cli.pdn_bench``). Each returns a dict of
figures. A suite that cannot import what it measures fails loudly (a broken install is never "skipped").
"""

from __future__ import annotations

import json
import platform
import sys
import time
from datetime import date
from typing import Any, Callable


def _suite_ui() -> dict[str, Any]:
    from gameplay.ui.shell.bench_ui import bench_ui
    return bench_ui()


def _suite_perft() -> dict[str, Any]:
    from gameplay.rules.perft import perft
    from gameplay.rules.registry import make_game
    game = make_game("checkers")
    state = game.initial_state()
    depth = 9
    t0 = time.perf_counter()
    nodes = perft(game, state, depth)
    el = time.perf_counter() - t0
    return {"game": "checkers", "depth": depth, "nodes": nodes, "elapsed_s": el, "leaves_per_s": nodes / el,
            "method": "bulk counting at the last ply (the moves at depth 8 are counted, not played)"}


def _suite_search() -> dict[str, Any]:
    from ai.checkers.checkers_bench import bench_search
    return bench_search()


def _suite_pig() -> dict[str, Any]:
    from ai.pig.pig_bench import bench_pig
    return bench_pig()


def _suite_mcts() -> dict[str, Any]:
    from ai.bench.mcts_bench import bench_mcts
    return bench_mcts()


def _suite_pdn() -> dict[str, Any]:
    from gameplay.cli.pdn_bench import bench_pdn
    return bench_pdn()


SUITES: dict[str, Callable[[], dict[str, Any]]] = {
    "ui": _suite_ui, "perft": _suite_perft, "search": _suite_search, "pig": _suite_pig, "mcts": _suite_mcts,
    "pdn": _suite_pdn,
}


def run_bench(names: list[str], as_json: bool) -> int:
    """Run the named suites (all when empty); print figures or one JSON object. Returns the exit code."""
    from gameplay.cli.common import UsageError
    chosen = names or list(SUITES)
    for n in chosen:
        if n not in SUITES:
            raise UsageError(f"unknown bench suite {n!r}; expected some of {', '.join(SUITES)}")
    from gameplay.rules.compiled import all_compiled, compiled_modules, status_line
    out: dict[str, Any] = {"machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
                           "python": sys.version.split()[0], "date": date.today().isoformat(),
                           "compiled": all_compiled(), "compiled_modules": compiled_modules(),
                           "build": status_line()}
    if not as_json:
        print(status_line())  # always say which code runs: compiled or pure Python
    for n in chosen:
        out[n] = SUITES[n]()  # an ImportError propagates: a broken install must not pass for a skipped suite
        if not as_json:
            print(f"[{n}]")
            for k, v in out[n].items():
                if isinstance(v, float):
                    v = f"{v:,.3f}" if v < 1000 else f"{v:,.0f}"
                print(f"  {k}: {v}")
            sys.stdout.flush()
    if as_json:
        sys.stdout.write(json.dumps(out) + "\n")
    return 0
