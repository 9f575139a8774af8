"""Stand-ins for the game runner (``ai.arena``) in the tournament tests: fast, deterministic and picklable.

An agent spec ``s<rating>`` (``s0``, ``s200``, ``s-300``) is an agent of that Elo rating: a game's result is
drawn from the logistic Elo curve with a generator seeded by the task's seed, so the same task always gives the
same result in any process. A spec containing ``forfeit`` loses every game by forfeit (``"time"``, as
``ai.arena`` reports it).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class FakeTask:
    """The fields of ``ai.arena.ArenaTask``."""

    key: str
    game: str
    agents: tuple[str, str]
    opening: str | None = None
    position: str | None = None
    time_limit_s: float | None = None
    seed: int = 1
    memory_limit_mb: int | None = 1024


@dataclass(frozen=True)
class FakeResult:
    """The fields of ``ai.arena.ArenaResult``."""

    key: str
    winner: int | None
    termination: str
    forfeit_by: int | None
    reason: str
    plies: int
    moves: tuple[str, ...]
    record: str | None
    elapsed_s: float


def strength(spec: str) -> float:
    """The rating an ``s<rating>`` spec stands for (0 for anything else)."""
    try:
        return float(spec.split(":")[0].lstrip("s").replace("forfeit", ""))
    except ValueError:
        return 0.0


def fake_play(task: FakeTask) -> FakeResult:
    """A game between two ``s<rating>`` agents: win, draw or loss from the Elo curve (draws 20% of the close
    games), seeded by ``task.seed``."""
    rng = random.Random(task.seed)
    for k in (0, 1):
        if "forfeit" in task.agents[k]:
            return FakeResult(task.key, 1 - k, "time", k, "took 12.5 s, limit 10 s", 3, ("a", "b", "c"),
                              None, 0.01)
    p = 1.0 / (1.0 + 10.0 ** ((strength(task.agents[1]) - strength(task.agents[0])) / 400.0))
    d = 0.4 * min(p, 1.0 - p)
    u = rng.random()
    winner = 0 if u < p - d / 2 else (None if u < p + d / 2 else 1)
    moves = tuple(f"m{rng.randrange(9)}" for _ in range(5))
    record = None
    if task.game == "checkers":
        result = "1/2-1/2" if winner is None else ("1-0" if winner == 0 else "0-1")
        record = f'[Event "{task.key}"]\n[Result "{result}"]\n[Opening "{task.opening}"]\n\n1. 9-13 22-18 {result}\n'
    return FakeResult(task.key, winner, "win" if winner is not None else "draw", None, "", 5, moves, record, 0.001)


def slow_play(task: FakeTask) -> FakeResult:
    """:func:`fake_play` after 0.25 s (for the tests that kill a tournament while it runs)."""
    time.sleep(0.25)
    return fake_play(task)


def crashing_play(task: FakeTask) -> FakeResult:
    """:func:`fake_play`, except that games whose key ends in ``game 2|...`` raise (a worker that died)."""
    if "|game 2|" in task.key:
        raise RuntimeError("worker lost")
    return fake_play(task)
