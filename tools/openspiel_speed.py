"""Single-threaded OpenSpiel MCTS speed, for scale beside ``python main.py bench mcts``: sims/s from the start.

Run it in a separate virtual environment with OpenSpiel (not a dependency of the arcade)::

    python3 -m venv /tmp/ospiel && /tmp/ospiel/bin/pip install open_spiel
    /tmp/ospiel/bin/python tools/openspiel_speed.py

Python bot: open_spiel.python.algorithms.mcts.MCTSBot, timed bot.mcts_search(state).
C++ bot:    pyspiel.MCTSBot, timed bot.step(state).
Both: uct_c=sqrt(2), uniform random rollouts (1 rollout per leaf), solve=False.
"""
import datetime
import math
import os
import statistics
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

GAMES = ["tic_tac_toe", "checkers", "pig"]
# simulations per search, chosen so one search lasts ~1-3 s on this machine
N_PY = {"tic_tac_toe": 30000, "checkers": 3000, "pig": 1500}
N_CPP = {"tic_tac_toe": 1500000, "checkers": 12000, "pig": 200000}
REPEATS = 3
UCT_C = math.sqrt(2)
MAX_MEMORY_MB = 4000


def py_bot(game, n):
    return mcts.MCTSBot(
        game, uct_c=UCT_C, max_simulations=n,
        evaluator=mcts.RandomRolloutEvaluator(
            n_rollouts=1, random_state=np.random.RandomState(1)),
        random_state=np.random.RandomState(1), solve=False)


def cpp_bot(game, n, seed):
    return pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed),
                           UCT_C, n, MAX_MEMORY_MB, False, seed, False)


def main():
    print("python", sys.version.split()[0], "| start UTC",
          datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"))
    rows = []
    for name in GAMES:
        game = pyspiel.load_game(name)
        print(f"\n{name}: params={game.get_parameters()}")
        state = game.new_initial_state()

        # Python bot
        n = N_PY[name]
        times = []
        for r in range(REPEATS):
            bot = py_bot(game, n)
            t0 = time.perf_counter()
            root = bot.mcts_search(state)
            dt = time.perf_counter() - t0
            times.append(dt)
            print(f"  python run {r}: {n} sims in {dt:.3f} s = {n / dt:.0f} sims/s "
                  f"(root explore_count={root.explore_count})")
        rows.append((name, "python", n, times))

        # C++ bot (timed via step)
        n = N_CPP[name]
        times = []
        for r in range(REPEATS):
            bot = cpp_bot(game, n, seed=1 + r)
            t0 = time.perf_counter()
            action = bot.step(state)
            dt = time.perf_counter() - t0
            times.append(dt)
            print(f"  C++ run {r}: {n} sims in {dt:.3f} s = {n / dt:.0f} sims/s "
                  f"(action={action})")
        rows.append((name, "C++", n, times))
        # untimed check that the C++ search really did n simulations
        # (max_memory_mb could otherwise stop it early)
        root = cpp_bot(game, n, seed=1).mcts_search(state)
        print(f"  C++ check: root explore_count={root.explore_count} (expected {n})")

    print("\nend UTC",
          datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"))
    print("\n| game | bot | sims/search | s/search (3 runs) | sims/s median |")
    print("|---|---|---|---|---|")
    for name, kind, n, times in rows:
        med = statistics.median(n / t for t in times)
        ts = ", ".join(f"{t:.2f}" for t in times)
        print(f"| {name} | {kind} | {n} | {ts} | {med:,.0f} |")


if __name__ == "__main__":
    main()
