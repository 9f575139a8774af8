"""Sparring against an outside engine: the program's checkers agent against Cake 1.20 over the ACF ballot deck.

Usage::

    python tools/spar.py [--engine PATH] [--agent SPEC] [--engine-time SECONDS] [--first N] [--skip K]
        [--jobs J] [--journal FILE.jsonl] [--summary] [--pdn-dir DIR] [--move-timeout S] [--quiet] [--json]

What it measures: the score of ``--agent`` (default ``expert``: 1 s a move) against an engine we did not write,
over the ACF 156-opening deck (``gameplay.rules.checkers.ballots``; ``--skip``/``--first`` choose a part of it), each
ballot twice with colours swapped; the score's 95% interval and the Elo difference (``gameplay.cli.match.elo``:
normal approximation from the per-game points, as engine testers such as cutechess-cli report it), and the time
each side took per move (median, 90th percentile, maximum; ours also as a share of the agent's budget), and whether
our search ran compiled or as pure Python (``gameplay.rules.compiled.status_line``: a build older than its source runs
pure, several times slower, so a result says which ran).

The engine: Cake 1.20 (Martin Fierz, GPL), driven through its console program (``tools/cake_engine.py``). It is
never committed or shipped: build it outside the repository as docs/strength.md says ("Against an outside
engine") and give its path with ``--engine`` or ``$ARCADE_SPAR_ENGINE``. Without it the tool says so and exits
with code 2; nothing else in the project needs it.

Every game is refereed by our rules (``gameplay.rules.referee.play_game``: the automatic draws of the rules and
``match``'s ply cap). Cake starts each game in a fresh process from the ballot's position (loaded from its save
file, so for the game where it plays White it is given the position before the ballot's third move and that
move). A game where Cake resigns (it saw a forced loss) is our win; a game where the engine fails (crash,
silence past ``--move-timeout``, an answer the driver cannot read) is reported and not scored.

``--journal`` appends each finished game as one JSON line and skips the games already in it, so the 312 games
can be played in parts (an interrupted run loses only the games in progress); the summary covers every game
of the journal played with the same agent spec and engine time. ``--summary`` prints that summary for the range
without playing (no engine needed) and says how many of its games the journal lacks. Each game records the
commit it was played from (``source``), so a deck played in parts over several days says which code played it.
A spec names settings, not what a preset meant on the day: `expert` played `default` weights until 2026-12-03 and
`acf` since, so give a new journal (or the weights in the spec, ``expert:weights=acf``) when a preset changes.

Exit codes: 0 done, 1 a worker process died, 2 bad input or no engine (one line), 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gameplay.cli.match import elo, elo_text, score_bar  # noqa: E402
from gameplay.rules.base import GameError  # noqa: E402
from gameplay.rules.compiled import status_line  # noqa: E402
from tools.cake_engine import ENV_VAR, CakeEngine, EngineFailure, EngineResigned  # noqa: E402

DEFAULT_AGENT = "expert"
MAX_ENGINE_TIME = 600
"""Largest ``--engine-time`` (seconds a move): Cake may take four times it."""
MAX_PLIES = 2000
"""``match``'s ply cap (the rules' own draws end a game long before)."""


class SparError(Exception):
    """Bad input (exit code 2)."""


@dataclass(frozen=True)
class SparTask:
    """One game: ballot ``opening`` (its index in the deck), our agent playing ``our_side`` (0 Black, 1 White)."""

    index: int
    opening: int
    our_side: int


@dataclass
class SparReport:
    """One finished game, as the journal keeps it; ``winner`` is ``agent``, ``engine`` or ``None`` (a draw)."""

    index: int
    opening: str
    our_side: int
    winner: str | None
    plies: int
    termination: str
    moves: list[str]
    start: str
    our_seconds: list[float]
    """Wall-clock seconds of each of our decisions."""
    engine_seconds: list[float]
    """Wall-clock seconds from our move to the engine's board (its own clock is CPU time)."""
    engine_values: list[int | None]
    """The engine's score after each of its moves (a man = 100, its view; ``None``: a book move)."""
    failure: str | None = None
    agent: str = ""
    our_values: list[float | None] = field(default_factory=list)
    """Our search's value after each of our moves (a man = 100 with the default weights; ``None``: a book move)."""
    our_clock_seconds: list[float | None] = field(default_factory=list)
    """Seconds of each of our decisions on the agent's own clock (``clock=cpu``: CPU time; ``None``: a book move
    or no time budget)."""
    our_depths: list[int | None] = field(default_factory=list)
    """The depth of our last completed iteration for each of our moves (``None``: a book move)."""
    engine_time: int = 1
    build: str = ""
    """How our search ran in the process that played the game (``gameplay.rules.compiled.status_line``); empty in
    a journal line written before it was recorded."""
    source: str = ""
    """The commit our agent's code came from (:func:`source_commit`); empty outside a git checkout or in a journal
    line written before it was recorded."""


def build_tasks(first: int | None, skip: int) -> list[SparTask]:
    """Ballots ``skip`` .. ``skip + first - 1`` of the deck, each twice (our agent Black, then White).

    Raises:
        SparError: the range is outside the 156-ballot deck.
    """
    from gameplay.rules.checkers.ballots import load_ballots
    n_deck = len(load_ballots())
    if not 0 <= skip < n_deck:
        raise SparError(f"--skip must be between 0 and {n_deck - 1}, got {skip}")
    n = n_deck - skip if first is None else first
    if not 1 <= n <= n_deck - skip:
        raise SparError(f"--first must be between 1 and {n_deck - skip}, got {first}")
    return [SparTask(2 * k + side, k, side) for k in range(skip, skip + n) for side in (0, 1)]


# ----- one game, in a worker process -----------------------------------------------------------------------------
_WORKER: dict[str, Any] = {}


def _init_worker(agent: str, engine: str, engine_time: int, move_timeout: float, source: str = "") -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER.update(agent=agent, engine=engine, engine_time=engine_time, move_timeout=move_timeout, source=source)


def source_commit() -> str:
    """The commit this copy of the project runs from: ``git rev-parse --short=7 HEAD``, with ``+modified`` when
    tracked files differ from it; ``""`` outside a git checkout (an installed copy) or without git."""
    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout.strip() if done.returncode == 0 else None
    head = git("rev-parse", "--short=7", "HEAD")
    if not head:
        return ""
    changed = git("status", "--porcelain", "--untracked-files=no")
    return head + ("+modified" if changed else "")


class _EngineAgent:
    """The engine as a referee's agent: ``choose(state)`` finds our last move and asks the engine for its reply."""

    def __init__(self, game: Any, eng: CakeEngine, before: Any, report: SparReport) -> None:
        self.game, self.eng, self.known, self.report = game, eng, before, report

    def choose(self, state: Any) -> Any:
        game = self.game
        ours = next((m for m in game.actions(self.known) if game.result(self.known, m) == state), None)
        if ours is None:
            raise EngineFailure("the driver lost track of the game (no move leads to the position)")
        reply = self.eng.move(game, self.known, ours, state)
        self.report.engine_seconds.append(reply.seconds)
        self.report.engine_values.append(reply.value)
        self.known = game.result(state, reply.move)
        return reply


def play_one(task: SparTask) -> SparReport:
    """Play one game in this worker: our agent in-process, the engine in its own process."""
    from ai.agents.agents import make_agent
    from ai.agents.profiles import game_for
    from gameplay.rules.checkers.ballots import load_ballots
    from gameplay.rules.referee import play_game
    game = game_for("checkers")
    ballot = load_ballots()[task.opening]
    before = game.initial_state()
    for text in ballot.moves[:-1]:
        before = game.result(before, game.parse_move(before, text))
    start = game.result(before, game.parse_move(before, ballot.moves[-1]))
    # the engine is first given a position with our side to move: the ballot's start when we play White, else
    # the position before the ballot's last (Black) move, which is then played as "ours"
    known = start if task.our_side == 1 else before
    report = SparReport(task.index, ballot.label(), task.our_side, None, 0, "", [], game.format_position(start),
                        [], [], [], agent=_WORKER["agent"], engine_time=_WORKER["engine_time"],
                        build=status_line(), source=_WORKER.get("source", ""))
    cur = make_agent("checkers", _WORKER["agent"])
    notes: list[str] = []
    last = [time.perf_counter()]

    def on_move(s: Any, res: Any) -> None:
        if game.to_move(s) == task.our_side:
            report.our_seconds.append(time.perf_counter() - last[0])
            searched = getattr(res, "stop_reason", None) != "book"
            value, depth = getattr(res, "value", None), getattr(res, "depth", None)
            report.our_values.append(float(value) if searched and value is not None else None)
            report.our_depths.append(int(depth) if searched and depth is not None else None)
            spent = (getattr(res, "extra", None) or {}).get("clock_s")
            report.our_clock_seconds.append(float(spent) if searched and spent is not None else None)
        notes.append(game.format_move(s, res.move))
        last[0] = time.perf_counter()

    eng: CakeEngine | None = None
    try:
        eng = CakeEngine(_WORKER["engine"], _WORKER["engine_time"], _WORKER["move_timeout"])
        them = _EngineAgent(game, eng, known, report)
        agents: tuple[Any, Any] = (cur, them) if task.our_side == 0 else (them, cur)
        last[0] = time.perf_counter()
        res = play_game(game, agents, start, rng=random.Random(task.index), max_plies=MAX_PLIES, on_move=on_move)
        report.plies = res.plies
        report.termination = res.outcome.termination_text if res.outcome else "move limit"
        if res.outcome is not None and res.outcome.winner is not None:
            report.winner = "agent" if res.outcome.winner == task.our_side else "engine"
    except EngineResigned:
        report.winner, report.plies, report.termination = "agent", len(notes), "Cake resigned"
    except EngineFailure as e:
        report.failure, report.plies, report.termination = str(e)[:300], len(notes), "engine failure"
    except GameError as e:  # our agent played an illegal move: its loss, reported
        report.winner, report.plies, report.termination = "engine", len(notes), "agent failure"
        report.failure = str(e)[:300]
    finally:
        if eng is not None:
            eng.close()
    report.moves = notes
    return report


# ----- the run ---------------------------------------------------------------------------------------------------
def run_games(tasks: list[SparTask], jobs: int, initargs: tuple[Any, ...], show: bool,
              journal: Path | None) -> list[SparReport]:
    """Play the tasks on ``jobs`` worker processes, appending each finished game to the journal."""
    reports: list[SparReport] = []
    ex = ProcessPoolExecutor(jobs, mp_context=mp.get_context("spawn"), initializer=_init_worker, initargs=initargs)
    try:
        with score_bar(len(tasks), "spar", show) as progress:
            pending: set[Future[SparReport]] = {ex.submit(play_one, t) for t in tasks}
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in done:
                    r = f.result()
                    reports.append(r)
                    if journal is not None:
                        with journal.open("a", encoding="utf-8") as fh:
                            fh.write(json.dumps(asdict(r)) + "\n")
                    progress.game({"agent": "p1", "engine": "p2"}.get(r.winner or "", None))
    except BaseException:
        for p in list(getattr(ex, "_processes", {}).values()):
            if p.is_alive():
                p.terminate()
        ex.shutdown(wait=False, cancel_futures=True)
        raise
    ex.shutdown()
    return sorted(reports, key=lambda r: r.index)


def read_journal(path: Path, agent: str, engine_time: int) -> list[SparReport]:
    """The games of the journal played with ``agent`` at ``engine_time`` (later lines replace earlier ones).

    Raises:
        SparError: a line is not a game record.
    """
    if not path.exists():
        return []
    out: dict[int, SparReport] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            r = SparReport(**json.loads(line))
        except (ValueError, TypeError) as e:
            raise SparError(f"{path}:{n}: not a game record of tools/spar.py ({e})") from None
        if r.agent == agent and r.engine_time == engine_time:
            out[r.index] = r
    return [out[k] for k in sorted(out)]


def _tally(labels: list[str], unknown: str) -> str:
    """One label when all agree, else each with its count, most games first and ``unknown`` (empty labels) last."""
    counts = Counter(x or unknown for x in labels)
    if len(counts) == 1:
        return next(iter(counts))
    order = sorted(counts.items(), key=lambda bn: (bn[0] == unknown, -bn[1], bn[0]))
    return "; ".join(f"{b} ({n} {'game' if n == 1 else 'games'})" for b, n in order)


def games_build(reports: list[SparReport]) -> str:
    """How our search ran in these games, from the games themselves (a journal replayed by another build says the
    games' build, not its own): ``"search: compiled with mypyc (11 modules)"``, several with their counts, or
    this process's when no game recorded it."""
    if not reports or all(not r.build for r in reports):
        return status_line() + (" (this process; the games did not record theirs)" if reports else "")
    return _tally([r.build for r in reports], "build not recorded")


def games_source(reports: list[SparReport]) -> str:
    """The commits these games were played from (``"839411e"``, or several with their counts); ``""`` when no
    game recorded one."""
    if all(not r.source for r in reports):
        return ""
    return _tally([r.source for r in reports], "commit not recorded")


def _spread(xs: list[float]) -> dict[str, float] | None:
    if not xs:
        return None
    ys = sorted(xs)
    return {"median": statistics.median(ys), "p90": ys[min(len(ys) - 1, int(0.9 * len(ys)))], "max": ys[-1],
            "moves": len(ys)}


TURN = 100
"""A man (both sides' scale): a lost game "turned" when the engine's value first reached ``+TURN``."""


def losses_turned(reports: list[SparReport]) -> dict[str, Any] | None:
    """Where the games we lost turned, and how late our search saw it (``None``: no game lost).

    For each lost game: the engine's move (1 = its first move after the ballot) at which its own value first
    reached ``+TURN`` (a man up in its eyes), and how many of our moves after our reply to it (0: that reply) ours
    first fell to ``-TURN`` (never: counted in ``never_seen``). A lag of a move or two is our horizon; many moves is
    our evaluation. Returns ``{"games", "engine_move": {"median", "q1", "q3"}, "our_lag": {...} | None,
    "never_seen"}`` in moves, ``games`` being the lost games whose engine value reached ``+TURN``.
    """
    moves: list[int] = []
    lags: list[int] = []
    never = 0
    for r in reports:
        if r.winner != "engine" or r.failure is not None:
            continue
        e = next((i for i, v in enumerate(r.engine_values) if v is not None and v >= TURN), None)
        if e is None:
            continue
        moves.append(e + 1)
        # our reply to the engine's move e: our move e when the engine moves first after the ballot, else e + 1
        reply = e + (1 if r.start[:1] == "BW"[r.our_side] else 0)
        o = next((i for i, v in enumerate(r.our_values) if i >= reply and v is not None and v <= -TURN), None)
        if o is None:
            never += 1
        else:
            lags.append(o - reply)

    def quartiles(xs: list[int]) -> dict[str, float] | None:
        if not xs:
            return None
        q = statistics.quantiles(xs, n=4) if len(xs) > 1 else [xs[0]] * 3
        return {"median": statistics.median(xs), "q1": q[0], "q3": q[2]}
    if not moves:
        return None
    return {"games": len(moves), "engine_move": quartiles(moves), "our_lag": quartiles(lags), "never_seen": never}


def summarize(reports: list[SparReport], budget: float | None) -> dict[str, Any]:
    """Score, its 95% interval, Elo, failures, and the time per move of each side."""
    scored = [r for r in reports if r.failure is None or r.termination == "agent failure"]
    per = [1.0 if r.winner == "agent" else 0.0 if r.winner == "engine" else 0.5 for r in scored]
    n = len(per)
    score = sum(per) / n if n else 0.0
    sd = statistics.pstdev(per) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n else 0.0
    diff, err = elo(score, n, per) if n else (0.0, 0.0)
    ours = [t for r in scored for t in r.our_seconds]
    out: dict[str, Any] = {
        "games": n, "wins": sum(p == 1.0 for p in per), "draws": sum(p == 0.5 for p in per),
        "losses": sum(p == 0.0 for p in per), "score": score,
        "score_interval_95": [max(0.0, score - half), min(1.0, score + half)],
        "elo_diff": diff + 0.0, "elo_error_95": err,
        "failures": [{"index": r.index, "opening": r.opening, "reason": r.failure,
                      "lost": r.termination == "agent failure"} for r in reports if r.failure is not None],
        "agent_seconds": _spread(ours),
        "engine_seconds": _spread([t for r in scored for t in r.engine_seconds]),
        "resigned": sum(r.termination == "Cake resigned" for r in scored),
        "losses_turned": losses_turned(scored),
    }
    if budget:
        # the share on the agent's own clock where every searched move has it (clock=cpu: CPU time), else wall time
        on_clock = [t for r in scored for t in r.our_clock_seconds if t is not None]
        out["agent_budget_share"] = _spread([t / budget for t in (on_clock or ours)])
        out["agent_budget_clock"] = "agent's clock" if on_clock else "wall"
    return out


def save_pdn(directory: Path, reports: list[SparReport]) -> str:
    """Write the games to ``DIR/spar-<date>-<time>.pdn``; returns the path."""
    from gameplay.rules.checkers.pdn import game_from_moves, write_games
    games = []
    for r in reports:
        names = (r.agent, "Cake 1.20")
        black, white = names if r.our_side == 0 else names[::-1]
        result = "*"
        if r.failure is None or r.termination == "agent failure":
            won_black = (r.winner == "agent") == (r.our_side == 0)
            result = "1/2-1/2" if r.winner is None else ("1-0" if won_black else "0-1")
        tags = {"Event": f"spar {r.agent} vs Cake 1.20 ({r.engine_time} s)", "Round": str(r.index + 1),
                "Black": black, "White": white, "Opening": r.opening, "Termination": r.termination}
        games.append(game_from_moves(list(r.moves), r.start, tags, result))
    path = directory / time.strftime("spar-%Y%m%d-%H%M%S.pdn")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        path.write_text(write_games(games), encoding="utf-8")
    except OSError as e:
        raise SparError(f"cannot save the games to {path}: {e.strerror or e}") from None
    return str(path)


def find_engine(given: str | None) -> str:
    """The engine program: ``--engine``, else ``$ARCADE_SPAR_ENGINE``.

    Raises:
        SparError: neither names a program that exists.
    """
    path = given or os.environ.get(ENV_VAR)
    if not path:
        raise SparError(f"no outside engine: build Cake 1.20 as docs/strength.md says (\"Against an outside "
                        f"engine\") and pass --engine PATH or set {ENV_VAR}")
    found = shutil.which(path) if os.sep not in path else (
        path if os.path.isfile(path) and os.access(path, os.X_OK) else None)
    if not found:
        raise SparError(f"the engine {path!r} is not an executable program (see docs/strength.md, \"Against an "
                        f"outside engine\")")
    return str(Path(found).resolve())


def probe_engine(program: str, seconds: int, timeout: float) -> None:
    """Start the engine once and see Cake's first prompt, so a wrong program is refused before any game.

    Raises:
        SparError: the program does not answer as Cake's console does.
    """
    try:
        CakeEngine(program, seconds, min(timeout, 30.0)).close()
    except EngineFailure as e:
        raise SparError(f"{program} does not answer as Cake 1.20's console program does: {e}") from None


def check_outputs(journal: Path | None, pdn_dir: Path | None) -> None:
    """Refuse a journal or PDN folder that cannot be written, before any game is played.

    Raises:
        SparError: the journal is a folder or its folder is missing or not writable; the PDN folder is a file.
    """
    if journal is not None:
        try:
            with journal.open("a", encoding="utf-8"):
                pass
        except OSError as e:
            raise SparError(f"cannot write the journal {journal}: {e.strerror or e}") from None
    if pdn_dir is not None:
        try:
            pdn_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise SparError(f"cannot use {pdn_dir} as the PDN folder: {e.strerror or e}") from None


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="tools/spar.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default=None, help=f"Cake's console program (default ${ENV_VAR})")
    ap.add_argument("--agent", default=DEFAULT_AGENT, help=f"our checkers agent (default {DEFAULT_AGENT})")
    ap.add_argument("--engine-time", type=int, default=1, help="Cake's seconds per move, whole (default 1)")
    ap.add_argument("--first", type=int, default=None,
                    help="play only FIRST ballots (default: the rest of the deck)")
    ap.add_argument("--skip", type=int, default=0, help="start after the first SKIP ballots of the deck")
    ap.add_argument("--jobs", type=int, default=1,
                    help="games played at once (default 1; more than the cores slows both sides' wall clocks)")
    ap.add_argument("--journal", default=None, help="append each game to this JSON-lines file; skip those in it")
    ap.add_argument("--summary", action="store_true",
                    help="only summarize the journal's games of the range: play none, no engine needed")
    ap.add_argument("--pdn-dir", default=None, help="save the games as PDN in this folder")
    ap.add_argument("--move-timeout", type=float, default=60.0,
                    help="seconds the engine may take for one answer before the game is a failure (default 60)")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    ap.add_argument("--json", action="store_true", help="print exactly one JSON object on standard output")
    return ap


def _budget(agent: str) -> float | None:
    from ai.agents.agents import make_agent
    settings = make_agent("checkers", agent).settings  # AgentError (a GameError) for a bad spec
    return settings.time_budget_s


def _run(a: argparse.Namespace) -> int:
    if a.jobs < 1:
        raise SparError(f"--jobs must be >= 1, got {a.jobs}")
    if not 1 <= a.engine_time <= MAX_ENGINE_TIME:
        raise SparError(f"--engine-time is whole seconds from 1 to {MAX_ENGINE_TIME} (Cake's unit), got "
                        f"{a.engine_time}")
    if a.move_timeout <= 0:
        raise SparError(f"--move-timeout must be > 0, got {a.move_timeout:g}")
    budget = _budget(a.agent)
    tasks = build_tasks(a.first, a.skip)
    journal = Path(a.journal) if a.journal else None
    if a.summary and (journal is None or not journal.is_file()):
        raise SparError("--summary reads the games of a journal: give --journal FILE, an existing file"
                        + (f" ({journal} is not one)" if journal is not None else ""))
    engine = "" if a.summary else find_engine(a.engine)
    done = read_journal(journal, a.agent, a.engine_time) if journal else []
    # a summary only reads the journal; it may still save the games as PDN
    check_outputs(None if a.summary else journal, Path(a.pdn_dir) if a.pdn_dir else None)
    if not a.summary:
        probe_engine(engine, a.engine_time, a.move_timeout)
    # a game the engine failed is played again (the new record replaces it in the journal)
    scored = [r for r in done if r.failure is None or r.termination == "agent failure"]
    have = {r.index for r in scored}
    todo = [t for t in tasks if t.index not in have]
    show = not a.quiet and not a.json
    t0 = time.perf_counter()
    new: list[SparReport] = []
    if todo and not a.summary:
        new = run_games(todo, a.jobs, (a.agent, engine, a.engine_time, a.move_timeout, source_commit()), show,
                        journal)
    wanted = {t.index for t in tasks}
    kept = done if a.summary else scored  # the summary lists the engine's failures the journal holds
    reports = sorted([r for r in kept if r.index in wanted] + new, key=lambda r: r.index)
    summary = summarize(reports, budget)
    summary.update(agent=a.agent, engine="Cake 1.20", engine_time=a.engine_time, seconds=time.perf_counter() - t0,
                   ballots=[a.skip, a.skip + len(tasks) // 2], build=games_build(reports),
                   source=games_source(reports))
    if journal is not None and todo != tasks:
        summary["from_journal"] = len(reports) - len(new)
    if a.summary:
        summary["missing"] = len(todo)  # the range's games the journal lacks or the engine failed
    if a.pdn_dir:
        summary["pdn"] = save_pdn(Path(a.pdn_dir), reports)
    if a.json:
        print(json.dumps(summary))
        return 0
    lo, hi = summary["score_interval_95"]
    print(f"{a.agent} vs Cake 1.20 ({a.engine_time} s a move), ballots {a.skip + 1}-{a.skip + len(tasks) // 2} "
          f"of the deck, both colours: +{summary['wins']} ={summary['draws']} -{summary['losses']} "
          f"score {summary['score']:.3f} (95% {lo:.3f}-{hi:.3f}), "
          + elo_text(summary["elo_diff"], summary["elo_error_95"], summary["wins"], summary["losses"],
                     summary["draws"]))
    print(f"  our {summary['build']}")  # a stale build runs pure Python, several times slower: say which ran
    if summary["source"]:
        print(f"  played from commit {summary['source']}")
    for side in ("agent", "engine"):
        s = summary[f"{side}_seconds"]
        if s:
            print(f"  {side} seconds a move on the wall: median {s['median']:.2f}, p90 {s['p90']:.2f}, "
                  f"max {s['max']:.2f} ({s['moves']} moves)")
    if summary.get("agent_budget_share"):
        s = summary["agent_budget_share"]
        print(f"  agent's share of its budget ({summary['agent_budget_clock']}): median {s['median']:.2f}, "
              f"p90 {s['p90']:.2f}, max {s['max']:.2f}")
    t = summary["losses_turned"]
    if t:
        e, lag = t["engine_move"], t["our_lag"]
        seen = (f"ours first fell to -{TURN} {lag['median']:g} of our moves later (median, quartiles "
                f"{lag['q1']:g}-{lag['q3']:g})" if lag else f"ours never fell to -{TURN}")
        print(f"  where the {t['games']} lost games turned: Cake's value first reached +{TURN} (a man) at its move "
              f"{e['median']:g} (median, quartiles {e['q1']:g}-{e['q3']:g}); {seen}"
              + (f"; ours never did in {t['never_seen']}" if lag and t["never_seen"] else ""))
    for f in summary["failures"]:
        scored = f["reason"] is not None and f.get("lost")
        print(f"  {'lost (our agent failed)' if scored else 'not scored'}: game {f['index'] + 1} ({f['opening']}): "
              f"{f['reason']}")
    if a.summary:
        print(f"  from the journal only: {summary['games']} of the range's {len(tasks)} games scored"
              + (f"; {summary['missing']} not played yet or not scored (play them without --summary)"
                 if summary["missing"] else ""))
    elif summary.get("from_journal"):
        print(f"  {summary['from_journal']} of these games were already in the journal")
    if "pdn" in summary:
        print(f"  games saved to {summary['pdn']}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the sparring match; returns the exit code."""
    a = build_parser().parse_args(argv)
    try:
        return _run(a)
    except (SparError, GameError) as e:
        sys.stderr.write(f"error: {e}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("interrupted (the journal keeps the finished games)\n")
        return 130
    except BrokenProcessPool:
        sys.stderr.write("error: a worker process died (out of memory?); no result\n")
        return 1


if __name__ == "__main__":
    sys.exit(main())
