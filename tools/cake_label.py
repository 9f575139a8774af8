"""Label real games' positions with an outside engine's value: Cake 1.20's search, for Texel tuning.

Usage::

    python tools/cake_label.py (--transcripts ACF.txt | --pdn GAMES.pdn) --out LABELS.jsonl [--engine PATH]
        [--engine-time SECONDS] [--plies A-B] [--positions N] [--seed S] [--jobs J] [--quiet]

What it makes: ``--positions`` positions (default 2,000) drawn from the games of a real archive, each with the value
Cake 1.20 (Martin Fierz, GPL; ``tools/cake_engine.py``) gave it after a search of ``--engine-time`` CPU seconds
(default 1; a man = 100). ``tools/texel.py --journal LABELS.jsonl`` then fits the evaluation to those values
(labels ``sigmoid(K * value / 100)``, the "deep-search labels" of Texel's method with a search we did not write).
Positions come from plies ``A``-``B`` of each game (default 10-44: the early middle game, where the lost games of
``tools/spar.py`` turned, and which games of the engine's own book give no value for); a position is a candidate
when it is quiet (the side to move has no capture). The candidates of every game are shuffled with ``--seed``
and the first ``N`` taken, so a larger ``N`` with the same seed extends a smaller run.

The engine: the same program ``tools/spar.py`` drives (``--engine`` or ``$ARCADE_SPAR_ENGINE``). Cake plays a
move from its opening book without searching, so its book must be out of the way: build a second copy with
``XBOOK`` naming no file and run it from a folder without ``xbook.bin`` (docs/strength.md, "Against an outside
engine", the build's last lines); the tool refuses a program that prints a book move. Each position is given to
Cake as the position before it with the move the game played (Cake's save file, then the move), so Cake is the
side to move in the labelled position; one process per job answers position after position (Cake's ``load``).

Input: a PDN archive (``--pdn``; a game that reads with an error is skipped and counted) or the one-game-a-line
transcripts of EricCJoyce/Datasets ``Checkers/ACF.txt`` (``--transcripts``, as ``tools/games_book.py`` reads
them); the archive is never shipped. The game's result is not used.

Output: ``--out``, JSON lines, one a position: ``game`` (0-based index in the archive), ``ply``, ``position``
(FEN), ``value`` (Cake's, the side to move's view), ``value_black`` (Black's view), ``seconds`` (wall). The
file is appended to, and positions already in it are skipped, so an interrupted run goes on where it stopped.
A position where Cake resigns (it saw a forced loss) is recorded at -5000; one the driver cannot finish (the
program died, was silent, or answered with a board no legal move gives) is counted and left out. Prints the
candidates, the positions labelled and skipped, and the seconds a position; exit code 0, 2 with one ``error:``
line on bad arguments, an unreadable archive, an unwritable ``--out`` or no engine, 130 when interrupted
(what was written is kept).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tqdm import tqdm  # noqa: E402

from gameplay.rules.checkers.checkers_notation import format_fen  # noqa: E402
from tools.cake_engine import ENV_VAR, CakeEngine, EngineFailure, EngineResigned  # noqa: E402
from tools.games_book import GAME, Game, pdn_games, transcript_games  # noqa: E402

RESIGNED = -5000
"""The value recorded when Cake resigns in the labelled position (it saw a forced loss)."""

Task = tuple[int, int, Any, Any, Any]
"""One position to label: ``(game index, ply, position before, move played, position)``."""


class BookMove(EngineFailure):
    """The engine answered from its opening book: no value to label with."""


def candidates(games: list[Game | None], first: int, last: int) -> list[Task]:
    """The quiet positions of plies ``first``-``last`` (``first >= 1``) of each game, in archive order.

    Args:
        games: the archive's games (``None`` for one that could not be read).
        first, last: the plies (0 = the start) whose positions are candidates.
    """
    out: list[Task] = []
    for g, rec in enumerate(games):
        if rec is None:
            continue
        played, _ = rec
        for ply in range(max(first, 1), min(last, len(played) - 1) + 1):
            before, move = played[ply - 1]
            s = played[ply][0]
            if not GAME.noisy_actions(s):
                out.append((g, ply, before, move, s))
    return out


def pick(tasks: list[Task], positions: int, seed: int) -> list[Task]:
    """``positions`` of ``tasks``: the first of a seeded shuffle (a larger count extends a smaller one)."""
    order = list(range(len(tasks)))
    random.Random(seed).shuffle(order)
    return [tasks[i] for i in order[:positions]]


class Labeller:
    """Cake processes, one per thread, each answering position after position."""

    def __init__(self, program: str, seconds: int) -> None:
        self.program = program
        self.seconds = seconds
        self.local = threading.local()
        self.engines: list[CakeEngine] = []
        self.lock = threading.Lock()

    def _engine(self) -> CakeEngine:
        eng = getattr(self.local, "engine", None)
        if eng is None:
            eng = CakeEngine(self.program, self.seconds)
            with self.lock:
                self.engines.append(eng)
            self.local.engine = eng
        return eng

    def _drop(self) -> None:
        eng = getattr(self.local, "engine", None)
        self.local.engine = None
        if eng is not None:
            eng.close()

    def label(self, task: Task) -> dict[str, Any]:
        """Cake's value of one position, as the output line (module doc).

        Raises:
            EngineFailure: as :meth:`CakeEngine.move` (the thread's engine is then replaced).
            BookMove: the engine played from its book.
        """
        g, ply, before, move, s = task
        eng = self._engine()
        t0 = time.perf_counter()
        try:
            eng.load(before)
            value = eng.move(GAME, before, move, s).value
        except EngineResigned:
            value = RESIGNED
        except EngineFailure:
            self._drop()
            raise
        if value is None:
            raise BookMove("the engine played a book move: build it without its book (tools/cake_label.py doc)")
        seconds = time.perf_counter() - t0
        black = value if s.turn == 0 else -value
        return {"game": g, "ply": ply, "position": format_fen(s), "value": value, "value_black": black,
                "seconds": round(seconds, 3)}

    def close(self) -> None:
        for eng in self.engines:
            eng.close()


def done_keys(path: Path) -> set[tuple[int, int]]:
    """The ``(game, ply)`` of the positions already in ``path`` (none if it does not exist).

    Raises:
        OSError: it cannot be read. ValueError: a line is not a label record.
    """
    if not path.exists():
        return set()
    keys = set()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            rec = json.loads(line)
            if not isinstance(rec, dict) or not {"game", "ply", "value_black"} <= rec.keys():
                raise ValueError(f"{path}:{n}: not a label record of tools/cake_label.py")
            keys.add((int(rec["game"]), int(rec["ply"])))
    return keys


def _plies(text: str) -> tuple[int, int]:
    a, sep, b = text.partition("-")
    first, last = int(a), int(b if sep else a)
    if not 1 <= first <= last:
        raise ValueError(text)
    return first, last


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    ap = argparse.ArgumentParser(description="Label real games' positions with Cake 1.20's value (for texel).")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--transcripts", type=Path, help="the one-game-a-line transcripts of github.com/EricCJoyce/"
                     "Datasets, file Checkers/ACF.txt (MIT)")
    src.add_argument("--pdn", type=Path, help="a PDN archive")
    ap.add_argument("--out", type=Path, required=True, help="JSON lines, appended to (done positions skipped)")
    ap.add_argument("--engine", help=f"Cake's console program built without its book (default ${ENV_VAR})")
    ap.add_argument("--engine-time", type=int, default=1, help="Cake's CPU seconds a position (whole, >= 1; default 1)")
    ap.add_argument("--plies", default="10-44",
                    help="the plies whose positions are candidates, as A-B with 1 <= A <= B (default 10-44)")
    ap.add_argument("--positions", type=int, default=2000, help="how many positions to label (default 2000)")
    ap.add_argument("--seed", type=int, default=1, help="the sample's seed (default 1)")
    ap.add_argument("--jobs", type=int, default=1, help="engine processes at once (default 1)")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    a = ap.parse_args(argv)
    try:
        first, last = _plies(a.plies)
    except ValueError:
        print(f"error: --plies must be A-B with 1 <= A <= B, got {a.plies!r}", file=sys.stderr)
        return 2
    if a.positions < 1 or a.jobs < 1 or not 1 <= a.engine_time <= 600:
        print("error: --positions >= 1, --jobs >= 1 and 1 <= --engine-time <= 600", file=sys.stderr)
        return 2
    program = a.engine or os.environ.get(ENV_VAR)
    if not program or not Path(program).is_file():
        print(f"error: no engine program: give --engine PATH or set ${ENV_VAR} (docs/strength.md, \"Against an "
              f"outside engine\")", file=sys.stderr)
        return 2
    path = a.pdn or a.transcripts
    try:
        text = path.read_text(encoding="utf-8", errors="strict")
        done = done_keys(a.out)
        a.out.parent.mkdir(parents=True, exist_ok=True)
        out = a.out.open("a", encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    games = list(pdn_games(text) if a.pdn else transcript_games(text))
    bad = sum(g is None for g in games)
    tasks = candidates(games, first, last)
    chosen = pick(tasks, a.positions, a.seed)
    todo = [t for t in chosen if (t[0], t[1]) not in done]
    print(f"{len(games)} games read ({bad} skipped: unreadable or no result), {len(tasks)} quiet positions in plies "
          f"{first}-{last}; {len(chosen)} chosen, {len(chosen) - len(todo)} already in {a.out}, {len(todo)} to label")
    lab = Labeller(program, a.engine_time)
    seconds: list[float] = []
    failed = 0
    pool = ThreadPoolExecutor(max_workers=a.jobs)
    try:
        futures = [pool.submit(lab.label, t) for t in todo]
        for fut in tqdm(as_completed(futures), total=len(futures), unit="pos", disable=a.quiet):
            try:
                rec = fut.result()
            except BookMove as e:
                print(f"error: {e}", file=sys.stderr)
                return 2
            except EngineFailure as e:
                failed += 1
                if not a.quiet:
                    tqdm.write(f"not labelled: {e}")
                continue
            out.write(json.dumps(rec) + "\n")
            out.flush()
            seconds.append(rec["seconds"])
    except KeyboardInterrupt:
        print(f"interrupted: {len(seconds)} positions written to {a.out}", file=sys.stderr)
        return 130
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        lab.close()
        out.close()
    med = f"{statistics.median(seconds):.2f}" if seconds else "-"
    print(f"labelled {len(seconds)} positions ({failed} the driver could not finish), wall seconds a position: "
          f"median {med}; written to {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
