"""MCTS simulations per CPU second from the start: OpenSpiel's C++ bot (and its Python one) beside ours, in one run.

Run it in a separate virtual environment with OpenSpiel (not a dependency of the arcade), naming the arcade's Python
(whose install, compiled or not, is what is measured)::

    python3 -m venv /tmp/ospiel && /tmp/ospiel/bin/pip install open_spiel
    /tmp/ospiel/bin/python tools/openspiel_speed.py --ours .venv/bin/python [--python-bot] [--repeats 3]
    /tmp/ospiel/bin/python tools/openspiel_speed.py --ours .venv/bin/python --minimax

Per game (each of the arcade's games that OpenSpiel has: ``GameInfo.openspiel``, asked of ``--ours``) and per
repeat, the sides run one after the other (interleaved,
so a machine loaded by others slows both alike), each timed on its own process's CPU clock
(``time.process_time``), and the table gives the medians:

* C++ bot: ``pyspiel.MCTSBot``, timed ``bot.step(state)`` (the search from the start).
* Python bot (``--python-bot``): ``open_spiel.python.algorithms.mcts.MCTSBot``, timed ``bot.mcts_search(state)``.
* ours: ``ai.kernel.mcts.MCTS`` with seed 1, timed ``search`` in a child process of ``--ours`` (the arcade's Python,
  run from this checkout), its import not timed.

All: ``uct_c = sqrt(2)``, uniform random rollouts (one per leaf), no solver, the same number of simulations per side:
as many as ours does in about :data:`TARGET_CPU_S` (a first search of :data:`PROBE_SIMS` measures its rate), rounded;
OpenSpiel's Python bot does a fiftieth of them.

``--minimax``: full minimax from the empty tic-tac-toe board instead, OpenSpiel's Python
``open_spiel.python.algorithms.minimax.expectiminimax`` (depth 9, no value function) against our ``minimax`` agent
(no depth, no time: one pass to the end), CPU seconds, interleaved, medians.
"""
import argparse
import datetime
import json
import math
import os
import statistics
import subprocess
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET_CPU_S = 1.5
"""CPU seconds one search of ours should last (the simulations of every side are sized from it)."""
PROBE_SIMS = 2_000
"""Simulations of the first search of ours that measures its rate."""

GAMES_OF_OURS = """
import json
from gameplay.rules.registry import games
print(json.dumps({g.openspiel: g.name for g in games() if g.openspiel}))
"""
UCT_C = math.sqrt(2)
MAX_MEMORY_MB = 4000

OURS = """
import json, random, sys, time
from ai.kernel.core import SearchLimits
from ai.agents.game_parts import agent_parts
from ai.kernel.mcts import MCTS
from gameplay.rules.compiled import status_line
from gameplay.rules.registry import make_game
g = make_game(sys.argv[1])
m = MCTS(g, rng=random.Random(1), c=2 ** 0.5, fast_rules=agent_parts(g.name).mcts_rules)
t0 = time.process_time()
r = m.search(g.initial_state(), SearchLimits(nodes=int(sys.argv[2])))
dt = time.process_time() - t0
print(json.dumps({"cpu": dt, "sims": r.extra["simulations"], "rules": r.extra["rules"], "move": str(r.move),
                  "status": status_line()}))
"""


OURS_MINIMAX = """
import json, time
from ai.agents.agents import make_agent
from gameplay.rules.compiled import status_line
a = make_agent("tictactoe", "minimax")
t0 = time.process_time()
r = a.choose(a.game.initial_state())
dt = time.process_time() - t0
print(json.dumps({"cpu": dt, "nodes": r.nodes, "value": r.value, "move": str(r.move), "status": status_line()}))
"""


def minimax_run(python, repeats):
    """Full minimax from the empty tic-tac-toe board: OpenSpiel's Python expectiminimax and ours, CPU seconds."""
    from open_spiel.python.algorithms import minimax
    game = pyspiel.load_game("tic_tac_toe")
    theirs, ours_s = [], []
    for r in range(repeats):
        t0 = time.process_time()
        value, action = minimax.expectiminimax(game.new_initial_state(), 9, None, 0)
        theirs.append(time.process_time() - t0)
        out = subprocess.run([python, "-c", OURS_MINIMAX], cwd=ROOT, capture_output=True, text=True, check=True,
                             env=dict(os.environ, PYTHONPATH=ROOT))
        o = json.loads(out.stdout)
        ours_s.append(o["cpu"])
        print(f"  run {r}: OpenSpiel Python expectiminimax {theirs[-1]:.3f} CPU s (value {value}, action {action}); "
              f"ours {o['cpu']:.3f} CPU s ({o['nodes']:,} nodes, value {o['value']}, move {o['move']}; "
              f"{o['status']})")
    a, b = statistics.median(theirs), statistics.median(ours_s)
    print(f"\n| full minimax, empty tic-tac-toe | OpenSpiel Python {a:.3f} CPU s | ours {b:.3f} CPU s | "
          f"ours / OpenSpiel {b / a:.2f}x |")


def py_bot(game, n):
    return mcts.MCTSBot(
        game, uct_c=UCT_C, max_simulations=n,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1)),
        random_state=np.random.RandomState(1), solve=False)


def cpp_bot(game, n, seed):
    return pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), UCT_C, n, MAX_MEMORY_MB, False, seed, False)


def our_games(python):
    """OpenSpiel's name -> ours, for every game of the arcade that OpenSpiel has (``GameInfo.openspiel``)."""
    out = subprocess.run([python, "-c", GAMES_OF_OURS], cwd=ROOT, capture_output=True, text=True, check=True,
                         env=dict(os.environ, PYTHONPATH=ROOT))
    return json.loads(out.stdout)


def simulations(python, name):
    """Simulations a search of every side makes: about :data:`TARGET_CPU_S` of ours, two significant digits."""
    probe = ours(python, name, PROBE_SIMS)
    n = probe["sims"] / max(probe["cpu"], 1e-3) * TARGET_CPU_S
    digits = 10 ** max(0, len(str(int(n))) - 2)
    return max(1_000, int(round(n / digits) * digits))


def ours(python, name, n):
    out = subprocess.run([python, "-c", OURS, name, str(n)], cwd=ROOT, capture_output=True, text=True, check=True,
                         env=dict(os.environ, PYTHONPATH=ROOT))
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ours", default=os.path.join(ROOT, ".venv", "bin", "python"), help="the arcade's Python")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--python-bot", action="store_true", help="also OpenSpiel's Python MCTSBot")
    ap.add_argument("--games", nargs="*", default=None, help="OpenSpiel's names (default: every game both have)")
    ap.add_argument("--minimax", action="store_true", help="full tic-tac-toe minimax instead of MCTS")
    args = ap.parse_args()
    print("python", sys.version.split()[0], "| start UTC",
          datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"))
    if args.minimax:
        minimax_run(args.ours, args.repeats)
        return
    mapping = our_games(args.ours)
    unknown = [g for g in args.games or () if g not in mapping]
    if unknown:
        ap.error(f"--games: {', '.join(unknown)} not among {', '.join(mapping)}")
    rows = []
    for name in args.games or list(mapping):
        game = pyspiel.load_game(name)
        state = game.new_initial_state()
        n = simulations(args.ours, mapping[name])
        n_py = max(100, n // 50)
        print(f"\n{name}: params={game.get_parameters()}, {n} simulations a search")
        rates = {"C++": [], "ours": [], "python": []}
        for r in range(args.repeats):
            bot = cpp_bot(game, n, seed=1 + r)
            t0 = time.process_time()
            action = bot.step(state)
            dt = time.process_time() - t0
            rates["C++"].append(n / dt)
            o = ours(args.ours, mapping[name], n)
            rates["ours"].append(o["sims"] / o["cpu"])
            print(f"  run {r}: C++ {n / dt:,.0f} sims/CPU s (action {action}); ours {o['sims'] / o['cpu']:,.0f} "
                  f"({o['rules']} rules, move {o['move']}; {o['status']})")
            if args.python_bot:
                bot = py_bot(game, n_py)
                t0 = time.process_time()
                bot.mcts_search(state)
                dt = time.process_time() - t0
                rates["python"].append(n_py / dt)
                print(f"  run {r}: OpenSpiel Python {n_py / dt:,.0f} sims/CPU s")
        root = cpp_bot(game, n, seed=1).mcts_search(state)  # untimed: the C++ search really did n simulations
        print(f"  C++ check: root explore_count={root.explore_count} (expected {n})")
        rows.append((name, n, {k: statistics.median(v) for k, v in rates.items() if v}))
    print("\nend UTC", datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"))
    print("\n| game | simulations | OpenSpiel C++ sims/CPU s | ours sims/CPU s | ours / C++ |"
          + (" OpenSpiel Python |" if args.python_bot else ""))
    print("|---|---|---|---|---|" + ("---|" if args.python_bot else ""))
    for name, n, med in rows:
        extra = f" {med['python']:,.0f} |" if "python" in med else ""
        print(f"| {name} | {n:,} | {med['C++']:,.0f} | {med['ours']:,.0f} | {med['ours'] / med['C++']:.2f}x |{extra}")


if __name__ == "__main__":
    main()
