"""``bench pdn``: how fast a PDN archive is read, on a generated archive of the Open Checkers Archive's shape.

The Open Checkers Archive 2.0 (``OCA_2.0.pdn``: 22,621 master games from 1841 on, 11.5 MB) is the archive users
open; its licence is not stated, so it is not shipped. :func:`generate_archive` writes one of the same shape
instead: 22,621 games of legal random moves from the start, each with Event, Date, Black, White, Result tags (Site
in a quarter of them, Round in a sixth), a length drawn around the archive's (mean 51 plies, 10% under 35, 10%
over 71), the result token agreeing with the Result tag, lines wrapped at 79 characters (about 500 bytes a game,
as in the archive). Point ``ARCADE_BENCH_PDN`` at a real archive to time it as well.

Figures: ``games_per_s`` of :func:`gameplay.rules.checkers.pdn_read.iter_records` (the reader the window and ``pdn``
use), and of the exact token-by-token reader alone (``exact_games_per_s``, the algorithm every game went through
before the fast reader; about the old reader's speed). Which build ran (compiled or pure Python) is the bench's
first line; ``ARCADE_PURE=1 python main.py bench pdn`` gives the pure-Python figures.
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import Any

ARCHIVE_GAMES = 22_621
"""Games in the Open Checkers Archive 2.0 (and in the generated archive)."""
_FIRST = ("Ann", "Bob", "Cara", "Dev", "Eli", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lou", "Max", "Nia")
_LAST = ("Moorhead", "Wyllie", "Anderson", "Dunne", "Ferrie", "Tonar", "Long", "Fuller", "Rex", "King", "Walcott",
         "Lafferty", "Hay", "Oldbury", "Banks", "Jordan", "Stearns", "Hellman", "Ryan", "Case")


def generate_archive(games: int = ARCHIVE_GAMES, seed: int = 16) -> str:
    """A PDN archive of ``games`` legal random games with the shape of the Open Checkers Archive 2.0.

    Args:
        games: how many games.
        seed: the random generator's seed (the same text for the same arguments).

    Returns:
        The PDN text (games separated by blank lines).
    """
    from gameplay.rules.checkers.checkers import Checkers
    from gameplay.rules.checkers.pdn import PDNGame, result_token, write_game
    game = Checkers()
    rng = random.Random(seed)
    start = game.initial_state()
    names = [f"{last}, {first[0]}." for last in _LAST for first in _FIRST]
    out = []
    for i in range(games):
        target = min(239, max(6, int(rng.gauss(51, 15))))
        s, moves = start, list[Any]()
        while len(moves) < target:
            legal = game.actions(s)
            if not legal:
                break
            m = rng.choice(legal)
            moves.append(m)
            s = game.successor(s, m)
        outcome = game.outcome(s)
        result = result_token(outcome) if outcome is not None else rng.choices(
            ("1/2-1/2", "0-1", "1-0"), (63, 21, 16))[0]
        year = 1841 + (i * 180) // max(1, games)
        tags = {"Event": f"Generated club {year}, round {i % 40 + 1}", "Date": f"{year}-??-??",
                "Black": rng.choice(names), "White": rng.choice(names)}
        if rng.random() < 0.27:
            tags["Site"] = rng.choice(("Glasgow", "Manchester", "Boston", "Petal", "London"))
        if rng.random() < 0.16:
            tags["Round"] = str(rng.randrange(1, 12))
        out.append(write_game(PDNGame(tags, start, moves, result)))
    return "\n".join(out)


def time_reading(text: str, *, exact: bool = False) -> dict[str, Any]:
    """Read ``text`` once (all games) and return ``games``, ``bad_games``, ``plies``, ``elapsed_s``,
    ``games_per_s`` and ``mb_per_s``."""
    from gameplay.rules.checkers.pdn_read import iter_records
    t0 = time.perf_counter()
    records = list(iter_records(text, exact=exact))
    elapsed = time.perf_counter() - t0
    return {"games": len(records), "bad_games": sum(1 for r in records if r.error is not None),
            "plies": sum(r.plies for r in records), "elapsed_s": elapsed,
            "games_per_s": len(records) / elapsed if elapsed > 0 else 0.0,
            "mb_per_s": len(text) / 1e6 / elapsed if elapsed > 0 else 0.0}


def bench_pdn(games: int = ARCHIVE_GAMES) -> dict[str, Any]:
    """The ``bench pdn`` figures (see the module's description)."""
    text = generate_archive(games)
    fast = time_reading(text)
    exact = time_reading(text, exact=True)
    out: dict[str, Any] = {"archive": f"generated: {games:,} legal random games, {len(text) / 1e6:.1f} MB",
                           "games": fast["games"], "plies": fast["plies"], "elapsed_s": fast["elapsed_s"],
                           "games_per_s": fast["games_per_s"], "mb_per_s": fast["mb_per_s"],
                           "exact_elapsed_s": exact["elapsed_s"], "exact_games_per_s": exact["games_per_s"],
                           "speedup": exact["elapsed_s"] / fast["elapsed_s"] if fast["elapsed_s"] > 0 else 0.0}
    real = os.environ.get("ARCADE_BENCH_PDN")
    if real:
        from gameplay.rules.checkers.pdn_archive import read_pdn_file
        path = Path(real)
        rtext = read_pdn_file(path)
        r = time_reading(rtext)
        out.update({"real_archive": f"{path.name}, {len(rtext) / 1e6:.1f} MB", "real_games": r["games"],
                    "real_bad_games": r["bad_games"], "real_elapsed_s": r["elapsed_s"],
                    "real_games_per_s": r["games_per_s"]})
    return out
