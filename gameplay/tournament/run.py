"""Running a tournament: the engines that play its games (local processes or a Dask cluster), the journal, the
saved games and the progress bar.

The engines only carry games: each game is one call ``play(task)`` (``ai.agents.arena.play_isolated`` by default, which
starts each agent in its own worker process and turns time-outs, crashes and illegal moves into forfeits).
``local`` runs them in a ``concurrent.futures.ProcessPoolExecutor`` of ``jobs`` processes (``jobs=1``: in this
process, one after the other); ``dask`` submits each game as one task (``retries=0``, ``pure=False``) to a Dask
distributed cluster, the scheduler at ``scheduler`` (``tcp://HOST:8786``) or, without one, a
``LocalCluster`` of ``jobs`` single-threaded worker processes on this machine. Games are handed out as slots
free up (``jobs`` at a time locally, one per worker thread on Dask), so what a finished game teaches applies to
the next ones. Results are journaled in the order they arrive, here in the controlling process, and a game is
journaled once: a game whose worker dies (``KilledWorker``, a broken process pool) is reported as not played and
is played by the next run.

Disqualification: an agent that cannot start (its file fails to load, raises or loops at its top level past the
load timeout, or cannot even be read: ``ArenaResult.load_failed``) is disqualified once, with the reason, and its
remaining games are journaled as forfeits by the same reason without starting it again. A journal remembers it
(``load_failed`` in the record of the game where it failed), so a resumed run does not try it again either.

Agents' output: each game's record in the journal keeps what each agent printed, capped
(:mod:`ai.agents.agent_watch`); the terminal shows at most :data:`ai.agents.agent_watch.OUTPUT_LINES` lines of each
agent in the whole tournament and, at the end, how many more there were.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections import deque
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

from ai.agents.agent_process import FAULTS
from ai.agents.agent_watch import children_ignore_sigint, end_with_parent
from gameplay.rules.registry import game_info
from gameplay.tournament.faults import Disqualified, OutputShown
from gameplay.tournament.journal import Journal, check_keys, open_journal
from gameplay.tournament.model import (
    ScheduledGame,
    Standings,
    TournamentError,
    TournamentSpec,
    round_robin,
    standings,
    swiss_games,
)

ENGINES = ("local", "dask")
FAULT_REASONS = {f: f for f in FAULTS}
"""The runner's forfeit terminations (``ai.agents.agent_process.FAULTS``: the reasons CLI.md's ``failures`` lists,
``time``, ``crash``, ``illegal move``, ``malformed answer``, ``memory``), one vocabulary for ``match`` and
``tournament``."""
Play = Callable[[Any], Any]
NextTask = Callable[[], "tuple[str, Any] | None"]
"""Hands an engine the next game to play, ``(key, task)``, or ``None`` when there is none (yet)."""


@dataclass
class TournamentRun:
    """What :func:`run_tournament` returns."""

    spec: TournamentSpec
    journal: Path
    games_dir: Path
    records: list[dict[str, Any]]
    """Every finished game (journal order)."""
    table: Standings
    scheduled: int
    """Games in the whole tournament."""
    played_now: int
    """Games played by this run (the others came from the journal)."""
    elapsed_s: float
    failed: list[tuple[str, str]] = field(default_factory=list)
    """``(key, error)`` of games that could not be played this time (a worker died): rerun to play them."""
    byes: list[tuple[int, str]] = field(default_factory=list)
    """Swiss: ``(round, agent)`` for each bye."""
    disqualified: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Agents that could not start: name -> ``{"reason", "detail", "game"}`` (``game``: the number of the game where
    it failed, ``None`` when its file could not even be read before the first game)."""
    output_hidden: dict[str, int] = field(default_factory=dict)
    """Lines each agent printed that the terminal did not show (the journal keeps each game's first lines)."""

    @property
    def complete(self) -> bool:
        """Every scheduled game is in the journal."""
        return len(self.records) >= self.scheduled and not self.failed


# ----- engines --------------------------------------------------------------------------------------------------
class LocalEngine:
    """Games in ``jobs`` local processes (``jobs=1``: in this process)."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self._pool: Any = None

    def __enter__(self) -> LocalEngine:
        if self.jobs > 1:
            import multiprocessing as mp
            from concurrent.futures import ProcessPoolExecutor
            self._pool = ProcessPoolExecutor(self.jobs, mp_context=mp.get_context("spawn"),
                                             initializer=exit_with_parent)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is None:
            return
        if exc[0] is not None:  # interrupted (Ctrl-C) or failed: stop the games in progress now
            for proc in list(getattr(self._pool, "_processes", {}).values()):
                proc.terminate()
        self._pool.shutdown(wait=exc[0] is None, cancel_futures=True)

    def run(self, play: Play, next_task: NextTask) -> Iterator[tuple[str, Any]]:
        """Yield ``(key, result)`` per game as it finishes (``result`` is the exception when the game failed),
        asking ``next_task`` for a game whenever one of the ``jobs`` slots is free."""
        if self._pool is None:
            while (item := next_task()) is not None:
                key, task = item
                try:
                    result = play(task)
                except Exception as e:  # noqa: BLE001 - reported as a game not played
                    result = e
                yield key, result
            return
        from concurrent.futures import FIRST_COMPLETED, wait
        running: dict[Any, str] = {}
        submitted = [0]

        def fill() -> None:
            while len(running) < self.jobs and (item := next_task()) is not None:
                if submitted[0] < self.jobs:
                    # the pool starts a worker at a submission while it has fewer than ``jobs`` (and never
                    # replaces one): only those submissions start processes, so only they ignore Ctrl+C (a Ctrl+C
                    # pressed while it is ignored is lost: with a block around every game, the Ctrl+C test's
                    # interrupt fell in one and the tournament played all its 2,000 games)
                    with children_ignore_sigint():
                        running[self._pool.submit(play, item[1])] = item[0]
                else:
                    running[self._pool.submit(play, item[1])] = item[0]
                submitted[0] += 1

        fill()
        while running:
            done, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for fut in done:
                key = running.pop(fut)
                try:
                    result = fut.result()
                except Exception as e:  # noqa: BLE001 - includes BrokenProcessPool: the game is not journaled
                    result = e
                yield key, result
            fill()


def exit_with_parent() -> None:
    """A pool worker's initializer: end this process when the tournament's process is gone (killed), instead
    of waiting forever for games that will never come (its running game's agents go with it); and leave Ctrl-C
    to the tournament's process, which stops the workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_with_parent(1, "watch-tournament")


class DaskEngine:
    """Games as Dask tasks: one task a game, no retries, on the cluster at ``scheduler`` or a local cluster."""

    def __init__(self, jobs: int, scheduler: str | None, prefix: str) -> None:
        self.jobs = jobs
        self.scheduler = scheduler
        self.prefix = prefix
        """Prepended to every task key (the journal's id), so two tournaments on one cluster never share a key."""
        self._stack = ExitStack()
        self.client: Any = None

    def __enter__(self) -> DaskEngine:
        try:
            from distributed import Client, LocalCluster
        except ImportError as e:
            from gameplay.rules.extras import install_hint
            raise TournamentError(f"--engine dask needs dask[distributed] ({e.name} is missing): "
                                  f"{install_hint('tournaments')}") from None
        try:
            if self.scheduler is None:
                # the cluster's processes inherit an ignored Ctrl-C: it is this process's to handle (it closes
                # the cluster), not theirs to die of with a traceback each
                with children_ignore_sigint():
                    cluster = self._stack.enter_context(LocalCluster(
                        n_workers=self.jobs, threads_per_worker=1, processes=True, dashboard_address=None,
                        silence_logs=40))
                self.client = self._stack.enter_context(Client(cluster))
            else:
                self.client = self._stack.enter_context(Client(self.scheduler, timeout="20s"))
        except OSError as e:
            self._stack.close()
            raise TournamentError(f"cannot reach the Dask scheduler {self.scheduler}: {e}") from None
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def slots(self) -> int:
        """Games to keep on the cluster at once: one per worker thread (at least ``jobs``)."""
        try:
            threads = sum(self.client.nthreads().values())
        except Exception:  # noqa: BLE001 - the scheduler did not answer: keep going with what is known
            threads = 0
        return max(1, self.jobs, int(threads))

    def run(self, play: Play, next_task: NextTask) -> Iterator[tuple[str, Any]]:
        """Yield ``(key, result)`` per game as it finishes (``result`` is the exception when the game failed),
        asking ``next_task`` for a game whenever a worker thread is free (:meth:`slots`, asked again every
        few seconds as workers come and go)."""
        from distributed import as_completed
        running: dict[Any, str] = {}
        pending = as_completed()
        slots, asked = self.slots(), time.monotonic()

        def fill() -> None:
            nonlocal slots, asked
            if time.monotonic() - asked > 5.0:
                slots, asked = self.slots(), time.monotonic()
            while len(running) < slots and (item := next_task()) is not None:
                fut = self.client.submit(play, item[1], key=f"{self.prefix}:{item[0]}", retries=0, pure=False)
                running[fut] = item[0]
                pending.add(fut)

        try:
            fill()
            for fut in pending:
                key = running.pop(fut)
                try:
                    result = fut.result()
                except Exception as e:  # noqa: BLE001 - KilledWorker and the like: the game is not journaled
                    result = e
                yield key, result
                fill()
        finally:
            for fut in running:
                fut.cancel()


def make_engine(engine: str, jobs: int, scheduler: str | None, prefix: str) -> LocalEngine | DaskEngine:
    """The engine called ``engine`` (``local`` or ``dask``).

    Raises:
        TournamentError: an unknown engine, ``jobs < 1``, or ``scheduler`` without ``dask``.
    """
    if engine not in ENGINES:
        raise TournamentError(f"--engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if jobs < 1:
        raise TournamentError(f"--jobs must be >= 1, got {jobs}")
    if engine == "local":
        if scheduler is not None:
            raise TournamentError("--scheduler is for --engine dask")
        return LocalEngine(jobs)
    return DaskEngine(jobs, scheduler, prefix)


# ----- the run --------------------------------------------------------------------------------------------------
def default_journal(spec: TournamentSpec) -> Path:
    """``<data folder>/tournaments/<game>-<format>-<digest>.jsonl``: the same definition, the same file, so
    rerunning the same command resumes (the data folder honours ``ARCADE_DATA_DIR``)."""
    try:
        from gameplay.files.autosave import data_dir
        base = data_dir()
    except ImportError:  # platformdirs missing: the current folder
        base = Path.cwd()
    return base / "tournaments" / f"{spec.game}-{spec.format}-{spec.digest()}.jsonl"


def games_dir_for(journal: Path) -> Path:
    """Where the games are saved by default: ``<journal stem>-games/`` beside the journal."""
    return journal.with_name(journal.stem + "-games")


def run_tournament(spec: TournamentSpec, journal: Path, *, play: Play | None = None, engine: str = "local",
                   jobs: int = 1, scheduler: str | None = None, games_dir: Path | None = None,
                   progress: bool = True, task_factory: Any = None,
                   unloadable: Mapping[str, tuple[str, str]] | None = None) -> TournamentRun:
    """Play every game of ``spec`` that its journal does not have yet, journaling each as it ends.

    Args:
        spec: the tournament.
        journal: its journal (created, or resumed).
        play: the game runner, ``task -> result`` (default ``ai.agents.arena.play_isolated``); top-level, so it pickles.
        engine: ``local`` or ``dask``.
        jobs: local processes, or the workers of a local Dask cluster.
        scheduler: a Dask scheduler address (``tcp://HOST:8786``); ``None``: a local cluster.
        games_dir: where each game's record is saved (default: :func:`games_dir_for`).
        progress: show a progress bar (tqdm) on standard error.
        task_factory: builds the runner's task (default ``ai.agents.arena.ArenaTask``).
        unloadable: agents known before the first game not to start (a file that cannot be read): name ->
            ``(reason, detail)``; disqualified from the start (:mod:`gameplay.tournament.faults`).

    Returns:
        The finished games, the table, what could not be played, the disqualified agents.

    Raises:
        TournamentError: see :func:`gameplay.tournament.journal.open_journal` and :func:`make_engine`; a game
            file that cannot be written.
    """
    if play is None:
        from ai.agents.arena import play_isolated
        play = play_isolated
    t0 = time.perf_counter()
    games_dir = games_dir_for(journal) if games_dir is None else games_dir
    rr = round_robin(spec) if spec.format == "roundrobin" else None
    failed: list[tuple[str, str]] = []
    byes: list[tuple[int, str]] = []
    played = 0
    with ExitStack() as stack:
        book = stack.enter_context(open_journal(journal, spec, None if rr is None else [g.key for g in rr]))
        if rr is None:
            check_swiss_journal(spec, book)
        eng = make_engine(engine, jobs, scheduler, book.tournament_id)
        stack.enter_context(eng)
        bar = stack.enter_context(_Bar(spec.total_games(), len(book.games), progress))
        disq = Disqualified(book.games.values(), unloadable)
        shown = OutputShown(bar.write)

        def journal_game(g: ScheduledGame, result: Any, disqualified: bool = False) -> None:
            nonlocal played
            rec = journal_record(spec, g, result, games_dir, journal.parent, disqualified)
            book.append(rec)
            played += 1
            bar.update(1)
            for name in disq.note(rec):
                bar.write(disq.line(name))
            shown.game(g.number, rec.get("output") or {})

        for r_no in range(1, (spec.rounds or 1) + 1):
            if rr is not None:
                todo_games = rr
            else:
                todo_games, bye = swiss_games(spec, r_no, book.games.values())
                if bye is not None:
                    byes.append((r_no, bye))
            pending = deque(g for g in todo_games if g.key not in book.games)
            by_key: dict[str, ScheduledGame] = {}

            def next_task(pending: deque[ScheduledGame] = pending, by_key: dict[str, ScheduledGame] = by_key
                          ) -> tuple[str, Any] | None:
                while pending:
                    g = pending.popleft()
                    if g.key in book.games:
                        continue
                    if disq.out(g.first, g.second):  # journaled at once: no process is started
                        journal_game(g, disq.result(g.key, g.first, g.second), disqualified=True)
                        continue
                    by_key[g.key] = g
                    return g.key, g.task(spec, task_factory)
                return None

            for key, result in eng.run(play, next_task):
                if isinstance(result, BaseException):
                    failed.append((key, f"{type(result).__name__}: {result}"))
                    bar.write(f"game {key} not played: {type(result).__name__}: {str(result)[:200]}")
                    continue
                if key in book.games:  # never counted twice, whatever an engine delivers
                    continue
                journal_game(by_key[key], result)
            if failed:
                break  # a later Swiss round needs every result of this one
        shown.summary()
        records = list(book.games.values())
    return TournamentRun(spec, journal, games_dir, records, standings(spec, records), spec.total_games(), played,
                         time.perf_counter() - t0, failed, byes, disq.agents, dict(shown.hidden))


def check_swiss_journal(spec: TournamentSpec, book: Journal) -> None:
    """Raise :class:`TournamentError` when a journaled game is not in the Swiss schedule that the journal's own
    earlier rounds give (each round's pairings follow from the results before it)."""
    remaining = dict(book.games)
    for r_no in range(1, (spec.rounds or 0) + 1):
        if not remaining:
            return
        keys = {g.key for g in swiss_games(spec, r_no, book.games.values())[0]}
        check_keys(book.path, {k: v for k, v in remaining.items() if int(v["round"]) == r_no}, keys)
        remaining = {k: v for k, v in remaining.items() if int(v["round"]) != r_no}
        if not keys <= set(book.games):
            break  # round r_no is not finished: no later round can have games yet
    check_keys(book.path, remaining, set())


def journal_record(spec: TournamentSpec, g: ScheduledGame, result: Any, games_dir: Path, base: Path,
                   disqualified: bool = False) -> dict[str, Any]:
    """The journal line of a finished game (its record file written first, named ``game-NNNN.<suffix>`` in the
    game's archive format, ``GameInfo.archive``: ``.pdn`` for checkers, and ``game-NNNN.txt`` otherwise; ``file``
    is relative to the journal's folder).

    ``result`` is the runner's ``ArenaResult`` (``winner`` and ``forfeit_by`` as player indices, 0 moving first;
    ``load_failed`` and ``output`` by player, both optional). The record names the agents that could not start
    (``load_failed``), keeps what each agent printed (``output``: name -> text, capped, only those that printed)
    and the clock the referee judged each by (``judged_by``: name -> ``wall``, ``cpu`` or ``None``), and says
    whether the game was not played because of a disqualification (``disqualified``).

    Raises:
        TournamentError: the record file cannot be written.
    """
    names = (g.first, g.second)
    winner = result.winner
    if winner is None and result.forfeit_by is not None:
        winner = 1 - result.forfeit_by
    archive = game_info(spec.game).archive if result.record else None
    path = games_dir / f"game-{g.number:04d}.{archive.suffix if archive is not None else 'txt'}"
    text = result.record if result.record else _text_record(spec, g, result)
    try:
        games_dir.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        raise TournamentError(f"cannot save the game to {path}: {e.strerror or e}") from None
    faulted = result.forfeit_by is not None or result.termination in FAULT_REASONS
    output = getattr(result, "output", ("", ""))
    return {"key": g.key, "number": g.number, "round": g.round, "first": g.first, "second": g.second,
            "opening": g.opening_label, "winner": None if winner is None else names[winner],
            "termination": result.termination,
            "forfeit_by": None if result.forfeit_by is None else names[result.forfeit_by],
            "reason": FAULT_REASONS.get(result.termination, result.termination) if faulted else "",
            "detail": str(result.reason) if faulted else "",
            "plies": result.plies, "elapsed_s": round(float(result.elapsed_s), 3), "moves": list(result.moves),
            "load_failed": [names[i] for i in getattr(result, "load_failed", ())], "disqualified": disqualified,
            "output": {names[i]: text for i, text in enumerate(output) if text},
            "judged_by": {names[i]: clock for i, clock in enumerate(getattr(result, "judged_by", (None, None)))},
            "file": os.path.relpath(path, base), "finished": time.strftime("%Y-%m-%dT%H:%M:%S")}


def _text_record(spec: TournamentSpec, g: ScheduledGame, result: Any) -> str:
    """A plain-text record for games without an archive format (tic-tac-toe, Pig)."""
    who = "draw" if result.winner is None else f"{(g.first, g.second)[result.winner]} wins"
    lines = [f"# {spec.game} tournament game {g.number}: {g.key}", f"first: {g.first}", f"second: {g.second}",
             f"seed: {g.seed}", f"result: {who} ({result.termination})"]
    if result.forfeit_by is not None:
        lines.append(f"forfeit by {(g.first, g.second)[result.forfeit_by]}: {result.termination}: {result.reason}")
    lines.append(f"moves ({result.plies} plies): {' '.join(result.moves)}")
    return "\n".join(lines) + "\n"


class _Bar:
    """tqdm on standard error (games done, elapsed, time left), or nothing."""

    def __init__(self, total: int, done: int, show: bool) -> None:
        self._bar: Any = None
        if show:
            from tqdm import tqdm
            self._bar = tqdm(total=total, initial=done, unit="game", file=sys.stderr, dynamic_ncols=True,
                             desc="tournament", smoothing=0.1,
                             mininterval=0.5 if sys.stderr.isatty() else 30.0)

    def update(self, n: int) -> None:
        if self._bar is not None:
            self._bar.update(n)

    def write(self, text: str) -> None:
        if self._bar is not None:
            self._bar.write(text, file=sys.stderr)
        else:
            sys.stderr.write(text + "\n")

    def __enter__(self) -> _Bar:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.close()
