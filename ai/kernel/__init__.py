"""The search kernel: scores, limits and results (core), alpha-beta (search, its options, counters, move ordering,
tactical tests, transposition table), iterative deepening and its time management, expectimax, Monte Carlo tree search
and its move choice, weighted evaluations, the recorded tree a search hands its recorder (recording) and how its numbers
read (numbers).

May import ``gameplay.rules`` only: no other room of ``ai``, never pygame or matplotlib. The hot modules here are
compiled with mypyc (``gameplay.rules.compiled``)."""
