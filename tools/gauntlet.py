"""Strength gauntlet: an agent of the working tree against an agent of a pinned reference commit.

Usage::

    python tools/gauntlet.py --ref COMMIT [--agent SPEC] [--ref-agent SPEC] [--game checkers]
        [--openings ballots|start] [--first N] [--jobs J] [--seed S] [--move-timeout S]
        [--cache-dir DIR] [--cleanup] [--pdn-dir DIR] [--quiet] [--json]

What it measures: the score, and from it the Elo difference, of the current tree's agent (``--agent``, default
``expert:time=0.5``) against the reference agent (``--ref-agent``, default the same spec) as the code was at
``--ref``. It shows that a search-kernel change costs no strength (expect a score near 0.5 with an error bar
that covers 0) and measures the gain of strength work. Checkers plays every opening of the ACF 156-opening
ballot deck (``--first N``: the first N) twice, colours swapped; other games play ``--first`` pairs from the
start position (dice seeded per game as in ``match``).

How: the reference side runs from a ``git worktree add --detach`` of the commit, kept in a cache folder
(``--cache-dir``, else ``$ARCADE_GAUNTLET_CACHE``, else the user cache folder ``adversarial-arcade/gauntlet``;
one folder per commit, reused by later runs; ``--cleanup`` removes it at the end). Each worker process
(``--jobs``) plays its games in-process for the current agent and keeps one reference subprocess (this venv's
Python, cwd = the worktree, so its ``ai``/``gameplay`` are the reference ones) alive for all its games; the
subprocess and its line-based JSON protocol are ``tools/gauntlet_ref.py``. Only committed files are in the
worktree (an untracked endgame database or book is not).

Every game is refereed by the current tree's rules (``gameplay.rules.referee.play_game``, the automatic draws
of the rules, and the ply cap ``match`` uses). A reference subprocess that crashes, times out, answers
malformed text or an illegal move loses that game (the reason is reported); the next game gets a fresh one.

The Elo difference is ``gameplay.cli.match.elo``: the logistic model ``D = -400 log10(1/s - 1)`` with a 95%
error from the standard error of the per-game score (normal approximation), the usual engine-testing practice
(e.g. cutechess-cli). Exit codes: 0 done, 1 a worker process died, 2 bad input (one line), 130 interrupted.
"""

from __future__ import annotations

import argparse
import atexit
import hashlib
import json
import multiprocessing as mp
import os
import random
import signal
import subprocess
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gameplay.cli.match import elo, score_bar  # noqa: E402
from gameplay.rules.base import GameError  # noqa: E402
from tools.gauntlet_ref import RefAgent, RefEngine, RefFailure  # noqa: E402

DEFAULT_AGENT = "expert:time=0.5"
MAX_PLIES = 2000
"""The ply cap of a game: the one ``main.py match`` passes to ``play_game`` (a capped game is a draw)."""


class GauntletError(Exception):
    """Bad input or set-up (a bad commit, agent spec, option): one line on stderr, exit code 2."""


# ----- git ------------------------------------------------------------------------------------------------------
def _git(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=300)
    except FileNotFoundError:
        raise GauntletError("git is not available (the reference side runs from a git worktree)") from None


def resolve_commit(ref: str) -> str:
    """The full hash of ``ref`` in this checkout.

    Raises:
        GauntletError: git is missing, this is not a git checkout, or ``ref`` names no commit.
    """
    top = _git("rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise GauntletError(f"{ROOT} is not a git checkout: {top.stderr.strip()[:80]}")
    r = _git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    if r.returncode != 0 or not r.stdout.strip():
        raise GauntletError(f"--ref {ref[:80]!r} is not a commit of this repository (try a hash, tag or HEAD~N)")
    return r.stdout.strip()


def default_cache_dir() -> Path:
    """``$ARCADE_GAUNTLET_CACHE``, else ``<user cache folder>/adversarial-arcade/gauntlet``."""
    env = os.environ.get("ARCADE_GAUNTLET_CACHE")
    if env:
        return Path(env)
    try:
        import platformdirs
        return Path(platformdirs.user_cache_dir("adversarial-arcade", appauthor=False)) / "gauntlet"
    except ImportError:
        return Path.home() / ".cache" / "adversarial-arcade" / "gauntlet"


def worktree_path(cache: Path, sha: str) -> Path:
    """One folder per checkout (several clones may share the cache) and per commit."""
    tag = hashlib.sha256(str(ROOT).encode()).hexdigest()[:8]
    return cache / f"{ROOT.name}-{tag}" / sha[:12]


def ensure_worktree(sha: str, cache: Path) -> tuple[Path, bool]:
    """The worktree of ``sha`` (created with ``git worktree add --detach``); returns it and whether it was reused.

    A cached folder is reused only when it is a clean checkout of ``sha``; otherwise it is made again.
    """
    path = worktree_path(cache, sha)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise GauntletError(f"cannot create the cache folder {path.parent}: {e.strerror or e}") from None
    with _Lock(path.parent / f"{sha[:12]}.lock"):
        if path.exists():
            head = _git("rev-parse", "HEAD", cwd=path)
            dirty = _git("status", "--porcelain", "--untracked-files=no", cwd=path)
            if head.returncode == 0 and head.stdout.strip() == sha and dirty.returncode == 0 \
                    and not dirty.stdout.strip():
                return path, True
            _git("worktree", "remove", "--force", str(path))
            import shutil
            shutil.rmtree(path, ignore_errors=True)
        r = _git("worktree", "add", "--force", "--detach", str(path), sha)
        if r.returncode != 0:
            raise GauntletError(f"git worktree add {path} failed: {r.stderr.strip().splitlines()[-1][:120]}")
    return path, False


def remove_worktree(path: Path) -> None:
    """``git worktree remove --force`` (best effort: a failure only leaves the folder behind)."""
    _git("worktree", "remove", "--force", str(path))


class _Lock:
    """An exclusive file lock (POSIX ``flock``; nothing where it is missing), so two gauntlets do not race."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd: int | None = None

    def __enter__(self) -> _Lock:
        try:
            import fcntl
        except ImportError:
            return self
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing releases the lock


# ----- one game, in a worker process -----------------------------------------------------------------------------
@dataclass(frozen=True)
class GameTask:
    """One game, picklable for the workers."""

    index: int
    opening: str
    start: str | None
    current_player: int
    seed: int


@dataclass(frozen=True)
class GameReport:
    """What a worker sends back; ``winner`` is ``p1`` (the current agent), ``p2`` (the reference) or None, the
    form ``match``'s progress bar reads."""

    index: int
    opening: str
    current_player: int
    winner: str | None
    plies: int
    termination: str
    failure: dict[str, str] | None
    moves: tuple[str, ...]
    start: str
    think_s: tuple[float, float]
    """Seconds spent choosing, current and reference (the reference's includes the protocol round trip)."""
    moves_by: tuple[int, int]


_WORKER: dict[str, Any] = {}


def _game_for(name: str, agent: Any) -> Any:
    """The game object: the registry's (``game_for`` or ``make_game``), else ``ai.agents.profiles.game_for``, else the
    agent's (the function is moving into ``gameplay.rules.registry``)."""
    import importlib
    for mod, fn in (("gameplay.rules.registry", "game_for"), ("gameplay.rules.registry", "make_game"),
                    ("ai.agents.profiles", "game_for")):
        try:
            f = getattr(importlib.import_module(mod), fn)
        except (ImportError, AttributeError):
            continue
        return f(name)
    return agent.game


def setup_worker(worktree: str | Path, game: str, agent: str, ref_agent: str, move_timeout: float) -> None:
    """Make this process play :func:`play_one` games: ``agent`` (a spec) in-process against ``ref_agent`` run from
    the reference ``worktree`` in a subprocess (started at the first game), each reference move within
    ``move_timeout`` seconds. The pool's workers call it (:func:`_init_worker`); a one-process run calls it
    directly, then :func:`close_engine` at the end."""
    _WORKER.update(worktree=Path(worktree), game=game, agent=agent, ref_agent=ref_agent,
                   move_timeout=move_timeout, engine=None)


def _init_worker(worktree: str, game: str, agent: str, ref_agent: str, move_timeout: float) -> None:
    """Worker set-up: Ctrl+C is the parent's to handle; SIGTERM also ends the reference subprocess."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    setup_worker(worktree, game, agent, ref_agent, move_timeout)

    def on_term(signum: int, frame: Any) -> None:
        close_engine()
        os._exit(143)

    signal.signal(signal.SIGTERM, on_term)
    atexit.register(close_engine)


def close_engine() -> None:
    """End this process's reference subprocess, if one runs (the next :func:`play_one` starts a fresh one)."""
    eng = _WORKER.get("engine")
    _WORKER["engine"] = None
    if eng is not None:
        eng.close()


def _engine() -> RefEngine:
    eng: RefEngine | None = _WORKER.get("engine")
    if eng is None or not eng.alive():
        close_engine()
        eng = RefEngine(_WORKER["worktree"], _WORKER["game"], _WORKER["ref_agent"], _WORKER["move_timeout"])
        _WORKER["engine"] = eng
        eng.handshake()
    return eng


def play_one(task: GameTask) -> GameReport:
    """Play one game in this worker: the current agent in-process, the reference through the subprocess."""
    from ai.agents.agents import make_agent
    from gameplay.rules.referee import play_game
    cur = make_agent(_WORKER["game"], _WORKER["agent"])
    game = _game_for(_WORKER["game"], cur)
    start = game.initial_state() if task.start is None else game.parse_position(task.start)
    start_text = game.format_position(start)
    notes: list[str] = []
    think = [0.0, 0.0]
    count = [0, 0]
    last = [time.perf_counter()]

    def on_move(s: Any, res: Any) -> None:
        now = time.perf_counter()
        side = 0 if game.to_move(s) == task.current_player else 1
        think[side] += now - last[0]
        count[side] += 1
        notes.append(game.format_move(s, res.move))
        last[0] = time.perf_counter()

    failure: dict[str, str] | None = None
    winner: str | None = None
    moves: tuple[str, ...] = ()
    try:
        ref = RefAgent(_engine(), game, task.index, start_text, notes, not game.traits.stochastic)
        agents: tuple[Any, Any] = (cur, ref) if task.current_player == 0 else (ref, cur)
        last[0] = time.perf_counter()
        res = play_game(game, agents, start, rng=random.Random(task.seed), max_plies=MAX_PLIES, on_move=on_move)
        plies = res.plies
        termination = res.outcome.termination_text if res.outcome else "move limit"
        if res.outcome is not None and res.outcome.winner is not None:
            winner = "p1" if res.outcome.winner == task.current_player else "p2"
        s = start
        out = []
        for m in res.moves:  # replayed: includes the dice of a stochastic game
            out.append(game.format_move(s, m))
            s = game.result(s, m)
        moves = tuple(out)
    except RefFailure as e:
        close_engine()  # the next game gets a fresh subprocess
        winner, plies, termination = "p1", len(notes), f"reference {e.kind}"
        failure = {"side": "reference", "reason": str(e)}
        moves = tuple(notes)
    except Exception as e:  # the current tree's agent failed (e.g. an illegal move): its loss, reported
        winner, plies, termination = "p2", len(notes), "current failure"
        failure = {"side": "current", "reason": f"{type(e).__name__}: {e}"[:200]}
        moves = tuple(notes)
    return GameReport(task.index, task.opening, task.current_player, winner, plies, termination, failure, moves,
                      start_text, (think[0], think[1]), (count[0], count[1]))


# ----- the run ---------------------------------------------------------------------------------------------------
def build_tasks(game_name: str, openings: str, first: int | None, seed: int, skip: int = 0) -> list[GameTask]:
    """Each opening twice, the current agent first playing player 0 (Black in checkers), then player 1; ballots
    ``skip`` .. ``skip + first`` of the deck (so a long gauntlet can be played in parts)."""
    tasks: list[GameTask] = []
    if openings == "ballots":
        from gameplay.rules.checkers.ballots import load_ballots
        deck = load_ballots()
        if not 0 <= skip < len(deck):
            raise GauntletError(f"--skip must be between 0 and {len(deck) - 1}, got {skip}")
        n = len(deck) - skip if first is None else first
        if not 1 <= n <= len(deck) - skip:
            raise GauntletError(f"--first must be between 1 and {len(deck) - skip}, got {first}")
        starts: list[tuple[str, str | None]] = [(b.label(), b.fen) for b in deck[skip:skip + n]]
    else:
        n = 10 if first is None else first
        if n < 1:
            raise GauntletError(f"--first must be >= 1, got {first}")
        starts = [("start", None)] * n
    for k, (label, fen) in enumerate(starts, skip):
        for side in (0, 1):
            i = 2 * k + side
            tasks.append(GameTask(i, label, fen, side, seed * 100_003 + i))
    return tasks


def run_games(tasks: list[GameTask], jobs: int, initargs: tuple[Any, ...], show: bool) -> list[GameReport]:
    """Play the tasks on ``jobs`` worker processes; Ctrl+C ends the workers (and their subprocesses) at once."""
    reports: list[GameReport] = []
    ex = ProcessPoolExecutor(jobs, mp_context=mp.get_context("spawn"), initializer=_init_worker, initargs=initargs)
    try:
        with score_bar(len(tasks), "gauntlet", show) as progress:  # ``match``'s bar: p1 is the current agent
            pending: set[Future[GameReport]] = {ex.submit(play_one, t) for t in tasks}
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in done:
                    reports.append(f.result())
                    progress.game(reports[-1].winner)
    except BaseException:
        for p in list(getattr(ex, "_processes", {}).values()):  # no public terminate before Python 3.14
            if p.is_alive():
                p.terminate()
        ex.shutdown(wait=False, cancel_futures=True)
        if show and sys.stderr.isatty():
            sys.stderr.write("\n")
        _PARTIAL[:] = reports
        raise
    ex.shutdown()
    return sorted(reports, key=lambda r: r.index)


_PARTIAL: list[GameReport] = []


def summarize(reports: list[GameReport]) -> dict[str, Any]:
    """Wins, losses, draws and score of the current agent, and the Elo difference with its 95% error."""
    w = sum(r.winner == "p1" for r in reports)
    lo = sum(r.winner == "p2" for r in reports)
    per = [1.0 if r.winner == "p1" else 0.0 if r.winner == "p2" else 0.5 for r in reports]
    n = len(per)
    score = sum(per) / n if n else 0.0
    diff, err = elo(score, n, per)
    return {"games": n, "wins": w, "losses": lo, "draws": n - w - lo, "score": score, "elo_diff": diff + 0.0,
            "elo_error_95": err}


def save_pdn(directory: Path, sha: str, agent: str, ref_agent: str, game: Any,
             reports: list[GameReport]) -> str:
    """Write the games to ``DIR/gauntlet-<commit>-<date>-<time>.pdn``; returns the path."""
    from gameplay.rules.checkers.pdn import game_from_moves, write_games
    cur_name, ref_name = f"{agent} (current)", f"{ref_agent} (ref {sha[:12]})"
    games = []
    for r in reports:
        names = (cur_name, ref_name) if r.current_player == 0 else (ref_name, cur_name)
        result = "*"
        if r.termination != "move limit":
            won0 = (r.winner == "p1") == (r.current_player == 0)
            result = "1/2-1/2" if r.winner is None else ("1-0" if won0 else "0-1")
        tags = {"Event": f"gauntlet {agent} vs {ref_agent}@{sha[:12]}", "Round": str(r.index + 1),
                game.player_names[0]: names[0], game.player_names[1]: names[1], "Opening": r.opening,
                "Termination": r.termination}
        games.append(game_from_moves(list(r.moves), r.start, tags, result))
    path = directory / time.strftime(f"gauntlet-{sha[:12]}-%Y%m%d-%H%M%S.pdn")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        path.write_text(write_games(games), encoding="utf-8")
    except OSError as e:
        raise GauntletError(f"cannot save the games to {path}: {e.strerror or e}") from None
    return str(path)


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="tools/gauntlet.py", description=__doc__.split("\n\n")[0],
                                 epilog="The progress bar's 'p1 score' is the current agent's score.")
    ap.add_argument("--ref", required=True, help="the reference commit (hash, tag, HEAD~N, ...)")
    ap.add_argument("--agent", default=DEFAULT_AGENT, help=f"the current tree's agent (default {DEFAULT_AGENT})")
    ap.add_argument("--ref-agent", default=None, help="the reference tree's agent (default: the --agent spec)")
    ap.add_argument("--game", default="checkers", help="tictactoe, checkers or pig (default checkers)")
    ap.add_argument("--openings", default=None, choices=("ballots", "start"),
                    help="ballots: the ACF 156-opening deck (checkers' default); start: the start position")
    ap.add_argument("--first", type=int, default=None,
                    help="play only the first N openings (with 'start': N pairs of games, default 10)")
    ap.add_argument("--skip", type=int, default=0,
                    help="ballots: start after the first N openings (play a long gauntlet in parts)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1; at most the cores)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the dice (default 1)")
    ap.add_argument("--move-timeout", type=float, default=300.0,
                    help="seconds the reference may take for one move before it loses the game (default 300)")
    ap.add_argument("--cache-dir", default=None, help="folder of the reference worktrees (see the docstring)")
    ap.add_argument("--cleanup", action="store_true", help="remove the reference worktree at the end")
    ap.add_argument("--pdn-dir", default=None, help="checkers: save the games as PDN in this folder")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    ap.add_argument("--json", action="store_true", help="print exactly one JSON object on standard output")
    return ap


def main(argv: list[str] | None = None) -> int:
    """Run the gauntlet; returns the exit code."""
    a = build_parser().parse_args(argv)
    try:
        return _run(a)
    except (GauntletError, GameError) as e:
        sys.stderr.write(f"error: {e}\n")
        return 2
    except KeyboardInterrupt:
        s = summarize(_PARTIAL)
        sys.stderr.write(f"interrupted after {s['games']} games (+{s['wins']} -{s['losses']} ={s['draws']})\n")
        return 130
    except BrokenProcessPool:
        sys.stderr.write("error: a worker process died (out of memory?); no result\n")
        return 1
    finally:
        if a.cleanup and _WORKTREE:
            remove_worktree(_WORKTREE[0])


_WORKTREE: list[Path] = []


def _run(a: argparse.Namespace) -> int:
    from ai.agents.agents import make_agent
    game_name = a.game.strip().lower()
    ref_spec = a.ref_agent if a.ref_agent is not None else a.agent
    if a.jobs < 1:
        raise GauntletError(f"--jobs must be >= 1, got {a.jobs}")
    if a.move_timeout <= 0:
        raise GauntletError(f"--move-timeout must be > 0, got {a.move_timeout:g}")
    openings = a.openings or ("ballots" if game_name == "checkers" else "start")
    if openings == "ballots" and game_name != "checkers":
        raise GauntletError("--openings ballots is for checkers")
    if a.pdn_dir is not None and game_name != "checkers":
        raise GauntletError("--pdn-dir is for checkers")
    cur = make_agent(game_name, a.agent)  # AgentError (a GameError) for a bad spec or game
    if cur.is_human:
        raise GauntletError("--agent: a gauntlet needs AI agents, not human")
    game = _game_for(game_name, cur)
    tasks = build_tasks(game_name, openings, a.first, a.seed, a.skip)
    sha = resolve_commit(a.ref)
    cache = Path(a.cache_dir) if a.cache_dir else default_cache_dir()
    worktree, reused = ensure_worktree(sha, cache)
    _WORKTREE[:] = [worktree]
    probe = RefEngine(worktree, game_name, ref_spec, a.move_timeout)
    try:
        ref_settings = probe.handshake()
    except RefFailure as e:
        raise GauntletError(f"--ref-agent {ref_spec[:80]!r} at {sha[:12]}: {str(e).split(': ', 1)[-1]}") from None
    finally:
        probe.close()
    t0 = time.perf_counter()
    jobs = min(a.jobs, len(tasks))
    reports = run_games(tasks, jobs, (str(worktree), game_name, a.agent, ref_spec, a.move_timeout),
                        not a.quiet)
    elapsed = time.perf_counter() - t0
    summary = summarize(reports)
    saved = save_pdn(Path(a.pdn_dir), sha, a.agent, ref_spec, game, reports) if a.pdn_dir else None
    think = [sum(r.think_s[i] for r in reports) for i in (0, 1)]
    count = [sum(r.moves_by[i] for r in reports) for i in (0, 1)]
    failures = [{"index": r.index, "opening": r.opening, **r.failure} for r in reports if r.failure]
    plies = [r.plies for r in reports]
    who = {"p1": "current", "p2": "reference", None: None}
    obj: dict[str, Any] = {
        "game": game_name, "ref": sha, "worktree": None if a.cleanup else str(worktree), "worktree_reused": reused,
        "agent": cur.settings.to_json(), "ref_agent": ref_settings, "agent_spec": a.agent, "ref_agent_spec": ref_spec,
        "openings": openings, **summary, "elapsed_s": elapsed, "jobs": jobs,
        "plies_mean": sum(plies) / len(plies), "plies_max": max(plies),
        "move_s": {"current": think[0] / max(1, count[0]), "reference": think[1] / max(1, count[1])},
        "failures": failures, "saved": saved,
        "games_list": [{"index": r.index, "opening": r.opening, "current_side": game.player_names[r.current_player],
                        "winner": who[r.winner], "plies": r.plies, "termination": r.termination}
                       for r in reports],
    }
    if a.json:
        sys.stdout.write(json.dumps(obj) + "\n")
        return 0
    print(f"{game_name}: {a.agent} (current tree) vs {ref_spec} (ref {sha[:12]}), {summary['games']} games "
          f"({len(tasks) // 2} {'openings' if openings == 'ballots' else 'pairs'} x 2 colours)")
    print(f"current: +{summary['wins']} -{summary['losses']} ={summary['draws']}, score {summary['score']:.3f}, "
          f"Elo {summary['elo_diff']:+.0f} +/- {summary['elo_error_95']:.0f} (95%), {elapsed:.1f} s")
    print(f"plies per game: mean {obj['plies_mean']:.1f}, max {obj['plies_max']}; time per move: current "
          f"{1000 * obj['move_s']['current']:.1f} ms, reference {1000 * obj['move_s']['reference']:.1f} ms "
          "(with the protocol's round trip)")
    for f in failures:
        print(f"failure in game {f['index'] + 1} ({f['opening']}): {f['side']} {f['reason']}")
    if saved:
        print(f"games saved to {saved}")
    print(f"reference worktree: {'removed' if a.cleanup else worktree}" + (" (reused)" if reused else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
