"""Stand-ins for the game runner (``ai.agents.arena``) in the tournament tests: fast, deterministic and picklable.

An agent spec ``s<rating>`` (``s0``, ``s200``, ``s-300``) is an agent of that Elo rating: a game's result is
drawn from the logistic Elo curve with a generator seeded by the task's seed, so the same task always gives the
same result in any process. A spec containing ``forfeit`` loses every game by forfeit (``"time"``, as
``ai.agents.arena`` reports it).
"""

from __future__ import annotations

import os
import random
import uuid
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class FakeTask:
    """The fields of ``ai.agents.arena.ArenaTask``."""

    key: str
    game: str
    agents: tuple[str, str]
    opening: str | None = None
    position: str | None = None
    time_limit_s: float | None = None
    seed: int = 1
    memory_limit_mb: int | None = 1024
    max_plies: int = 2000


@dataclass(frozen=True)
class FakeResult:
    """The fields of ``ai.agents.arena.ArenaResult``."""

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


GATE_ENV = "TOURNAMENT_FAKES_GATE"
"""The folder of :func:`gated_play`'s gate (an environment variable, so a tournament's worker processes see it)."""
FREE_ENV = "TOURNAMENT_FAKES_FREE"
"""How many games :func:`gated_play` plays before it holds the next ones at the gate."""


def gated_play(task: FakeTask) -> FakeResult:
    """:func:`fake_play` for the first games, then held (for the tests that kill a tournament while it runs).

    Each game leaves a mark in the folder ``$TOURNAMENT_FAKES_GATE``, then counts the marks: at most
    ``$TOURNAMENT_FAKES_FREE`` games are played (at least that many less the games started at the same moment, one
    per worker but one); a later game waits for a shared lock on the folder's ``lock`` file, which the test holds
    exclusively until it has killed the tournament. So the tournament is caught with games in progress and at
    most that many played, however fast or slow the machine.
    """
    import fcntl  # POSIX, as the tests that kill a tournament are

    gate = Path(os.environ[GATE_ENV])
    os.close(os.open(gate / f"game-{uuid.uuid4().hex}", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    if sum(1 for p in gate.iterdir() if p.name.startswith("game-")) > int(os.environ[FREE_ENV]):
        with open(gate / "lock", "rb") as lock:
            fcntl.flock(lock, fcntl.LOCK_SH)  # until the test lets go
    return fake_play(task)


def crashing_play(task: FakeTask) -> FakeResult:
    """:func:`fake_play`, except that games whose key ends in ``game 2|...`` raise (a worker that died)."""
    if "|game 2|" in task.key:
        raise RuntimeError("worker lost")
    return fake_play(task)
