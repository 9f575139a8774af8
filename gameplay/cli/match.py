"""``main.py match``: two agents play N games (in parallel processes), with the score and an Elo estimate.

When either agent is an agent file (``file:PATH.py``), every game is played in isolation (``ai.agents.arena``): each
agent from a worker process of its own, with a per-move limit and a memory limit; a failing agent loses that game, with
the termination and its reason in the report, and the match goes on (the games are played in a pool of ``--jobs``
worker processes, one at least, each starting its games' agent processes; they all ignore Ctrl+C, which this
process answers by stopping the pool).

Checkers openings come from the ACF 156-opening deck, each ballot played twice with colours swapped. Dice are
sampled by the referee with a generator seeded from ``--seed`` and the game number, so a match is repeatable.
The Elo difference uses the logistic model ``D = -400 log10(1/s - 1)`` (``ai.bench.ratings.elo_estimate``); its 95%
error comes from the standard error of the per-game score (normal approximation), as in the usual engine-testing
practice (e.g. cutechess-cli).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing as mp
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from gameplay.rules.archive import ArchivedGame
from gameplay.rules.base import GameError, quoted
from gameplay.rules.limits import JOBS, MATCH_GAMES, MATCH_PLIES, MAX_PLIES, SEED
from gameplay.rules.registry import game_info, game_names, games_with_openings, opening_deck_names, portable_name


@dataclass(frozen=True)
class GameTask:
    """One game of a match, picklable for worker processes."""

    index: int
    game: str
    p1: str
    p2: str
    p1_first: bool
    start: str | None
    opening: str
    seed: int
    max_plies: int = MAX_PLIES
    """Plies after which the game stops as a draw (termination ``move limit``)."""


@dataclass(frozen=True)
class GameReport:
    """What a worker sends back."""

    index: int
    opening: str
    p1_first: bool
    winner: str | None
    plies: int
    termination: str
    moves: tuple[str, ...]
    start: str
    final: str
    reason: str = ""
    """Why the game ended by a forfeit (``ai.agents.arena``), else empty."""
    forfeit_by: str | None = None
    """``"p1"`` or ``"p2"``: the agent whose failure ended the game, else ``None``."""
    output: tuple[str, str] = ("", "")
    """What ``p1`` and ``p2`` printed (isolated games: capped by ``ai.agents.agent_watch``), else empty."""


def is_isolated(task: GameTask) -> bool:
    """True when the game must be played in isolation (an agent file plays in it)."""
    from ai.agents.agent_file import is_file_spec
    return is_file_spec(task.p1) or is_file_spec(task.p2)


def play_task(task: GameTask) -> GameReport:
    """Play one game (agents are rebuilt from their specs): in this process, or in isolation when an agent file
    plays (:func:`play_isolated_task`)."""
    if is_isolated(task):
        return play_isolated_task(task)
    from ai.agents.agents import make_agent
    from gameplay.rules.referee import play_game
    a1 = make_agent(task.game, task.p1)
    a2 = make_agent(task.game, task.p2)
    for k, agent in enumerate((a1, a2)):  # --seed also seeds an agent's own generator when its spec gives none
        rng = getattr(agent, "rng", None)
        if agent.settings.seed is None and isinstance(rng, random.Random):
            rng.seed(task.seed * 2 + k + 1)
    game = a1.game
    start = game.initial_state() if task.start is None else game.parse_position(task.start)
    agents = (a1, a2) if task.p1_first else (a2, a1)
    res = play_game(game, agents, start, rng=random.Random(task.seed), max_plies=task.max_plies)
    winner = None
    if res.outcome is not None and res.outcome.winner is not None:
        first_won = res.outcome.winner == 0
        winner = "p1" if first_won == task.p1_first else "p2"
    # notation of the moves, replayed from the start
    s = start
    notes = []
    for m in res.moves:
        notes.append(game.format_move(s, m))
        s = game.result(s, m)
    return GameReport(task.index, task.opening, task.p1_first, winner, res.plies,
                      res.outcome.termination_text if res.outcome else "move limit", tuple(notes),
                      game.format_position(start), game.format_position(res.final))


def match_judges(game: str, task: GameTask) -> dict[str, Any]:
    """How the referee judges each side's moves: ``{"p1": TimeControl | None, "p2": ...}``
    (``ai.agents.arena.judged_by``, each agent on its own clock) when the games are played in isolation (an agent
    file plays), else ``None`` for both: the games run in this process, and each agent stops by its own budget."""
    if not is_isolated(task):
        return {"p1": None, "p2": None}
    from ai.agents.arena import judged_by
    return {"p1": judged_by(game, task.p1, None), "p2": judged_by(game, task.p2, None)}


def judged_text(judges: dict[str, Any]) -> str:
    """The match report's line on the referee's clock: ``referee: p1 judged on CPU time, 0.5 s + 0.25 s grace
    (wall-clock cap 5.25 s); p2 judged on wall time, 1 s + 0.25 s grace``, or that no referee times the moves."""
    if all(j is None for j in judges.values()):
        return ("referee: no time judged (no agent file plays: the games run in this process and each agent stops "
                "by its own budget, on its own clock)")
    return "referee: " + "; ".join(f"{side} judged on {j.judged()}" if j is not None else f"{side} has no time limit"
                                   for side, j in judges.items())


def play_isolated_task(task: GameTask) -> GameReport:
    """Play one game with each agent in a worker process of its own (``ai.agents.arena.play_isolated``)."""
    from ai.agents.arena import ArenaTask, play_isolated
    from ai.agents.profiles import game_for
    agents = (task.p1, task.p2) if task.p1_first else (task.p2, task.p1)
    res = play_isolated(ArenaTask(str(task.index), task.game, agents, position=task.start, seed=task.seed,
                                  max_plies=task.max_plies))
    game = game_for(task.game)
    start = game.initial_state() if task.start is None else game.parse_position(task.start)
    final = start
    for text in res.moves:
        final = game.result(final, game.parse_move(final, text))

    def side(player: int | None) -> str | None:
        return None if player is None else ("p1" if (player == 0) == task.p1_first else "p2")
    first, second = res.output
    return GameReport(task.index, task.opening, task.p1_first, side(res.winner), res.plies, res.termination,
                      res.moves, game.format_position(start), game.format_position(final), res.reason,
                      side(res.forfeit_by), (first, second) if task.p1_first else (second, first))


def elo(score: float, n: int, per_game: list[float]) -> tuple[float, float]:
    """Elo difference and its 95% error from a score fraction over ``n`` games (:func:`ai.bench.ratings.elo_estimate`
    with the standard error of ``per_game``, the points of each game).

    A score of 0 or 1 is clamped to half a game from the edge so the figures stay finite.
    """
    from ai.bench.ratings import elo_estimate
    if n == 0:
        return 0.0, 0.0
    mean = sum(per_game) / n
    var = sum((x - mean) ** 2 for x in per_game) / max(1, n - 1)
    return elo_estimate(score, math.sqrt(var / n), n)


def elo_text(diff: float, err: float, wins: int, losses: int, draws: int) -> str:
    """``Elo +35 +/- 60 (95%)``; when every game had the same result there is no spread to measure, and a clean
    sweep's figure is only the clamp of :func:`elo`: both are said instead of printing a false "+/- 0"."""
    n = wins + losses + draws
    if n and wins == n:
        return f"Elo above {round(diff):+d} (every game won: no upper bound from these games)"
    if n and losses == n:
        return f"Elo below {round(diff):+d} (every game lost: no lower bound from these games)"
    if n and draws == n:
        return "Elo +0 (every game drawn: no spread to measure an error from)"
    return f"Elo {round(diff):+d} +/- {err:.0f} (95%)"


def build_tasks(a: argparse.Namespace) -> list[GameTask]:
    """The games to play: ballots twice each with colours swapped, or alternating first player."""
    from gameplay.cli.common import UsageError
    seed = a.seed if a.seed is not None else 1
    game = portable_name(a.game)  # a game file is loaded again in each worker process
    tasks: list[GameTask] = []
    if a.openings is not None:
        names = opening_deck_names()
        if a.openings not in names:
            raise UsageError(f"--openings must be {' or '.join(repr(n) for n in names)}, got {quoted(a.openings)}")
        found = game_info(a.game).opening_deck(a.openings)
        if found is None:
            raise UsageError(f"--openings {a.openings} is for {' and '.join(games_with_openings(a.openings))}")
        if a.position is not None:
            raise UsageError("give --openings or --position, not both")
        deck = found.openings()
        n = a.games if a.games is not None else 2 * len(deck)
        for i in range(n):
            o = deck[(i // 2) % len(deck)]
            tasks.append(GameTask(i, game, a.p1, a.p2, i % 2 == 0, o.position, o.label, seed * 100_003 + i,
                                  a.max_plies))
        return tasks
    n = a.games if a.games is not None else 10
    for i in range(n):
        tasks.append(GameTask(i, game, a.p1, a.p2, i % 2 == 0, a.position, "start" if a.position is None
                              else a.position, seed * 100_003 + i, a.max_plies))
    return tasks


def cmd_match(a: argparse.Namespace) -> int:
    """Run the ``match`` subcommand."""
    from ai.agents.agents import make_agent
    from gameplay.cli.common import UsageError
    p1 = make_agent(a.game, a.p1)
    p2 = make_agent(a.game, a.p2)
    for ag, flag in ((p1, "--p1"), (p2, "--p2")):
        if ag.is_human:
            raise UsageError(f"{flag}: a match needs AI agents, not human")
    if a.position is not None:
        start = p1.game.parse_position(a.position)
        if p1.game.is_terminal(start):
            raise GameError(f"the position {quoted(a.position)} is over: there is no game to play from it")
    if a.plot is not None:  # a bad figure name fails now, not after the games
        from gameplay.cli.plot import out_path
        out_path(a.plot, "--plot")
    if a.pdn is not None and a.pdn != "none":  # nor a --pdn in a folder that does not exist
        from gameplay.rules.outfile import check_target
        check_target(a.pdn)
    tasks = build_tasks(a)
    t0 = time.perf_counter()
    reports: list[GameReport] = []
    from gameplay.tournament.faults import OutputShown
    try:
        with score_bar(len(tasks), "match", not a.quiet) as progress:
            # an agent's capped output, on a line of its own above the progress bar
            printed = OutputShown(progress.write, kept_in=None)

            def done(report: GameReport) -> None:
                """A finished game: what its agents printed (capped per agent over the match), the bar."""
                reports.append(report)
                printed.game(report.index + 1, {f"p1 ({a.p1})": report.output[0], f"p2 ({a.p2})": report.output[1]})
                progress.game(report.winner)

            _play(a, tasks, done)
    except KeyboardInterrupt:
        from gameplay.cli.common import Interrupted
        raise Interrupted(f"interrupted after {len(reports):,} of {len(tasks):,} games; nothing was saved") from None
    printed.summary()
    reports.sort(key=lambda r: r.index)
    w1 = sum(r.winner == "p1" for r in reports)
    w2 = sum(r.winner == "p2" for r in reports)
    dr = len(reports) - w1 - w2
    per = [1.0 if r.winner == "p1" else 0.0 if r.winner == "p2" else 0.5 for r in reports]
    score = sum(per) / len(per)
    diff, err = elo(score, len(per), per)
    saved = _save_games(a, p1.game, reports)
    if a.plot is not None:  # the running score and Elo with their 95% bands (issue 15)
        from gameplay.cli.plot import write_match_plot
        write_match_plot(a, per)
    distinct = len({(r.start, r.moves) for r in reports})
    judges = match_judges(a.game, tasks[0]) if tasks else {"p1": None, "p2": None}
    from gameplay.cli.tournament import judged_json
    obj: dict[str, Any] = {
        "game": a.game, "games": len(reports), "distinct_games": distinct, "p1": p1.settings.to_json(),
        "p2": p2.settings.to_json(),
        "p1_wins": w1, "p2_wins": w2, "draws": dr, "p1_score": score, "elo_diff": diff, "elo_error_95": err,
        "elapsed_s": time.perf_counter() - t0, "saved": saved, "max_plies": a.max_plies,
        "judged_by": judged_json(judges),
        "games_list": [{"opening": r.opening, "p1_first": r.p1_first, "winner": r.winner, "plies": r.plies,
                        "termination": r.termination, "reason": r.reason, "forfeit_by": r.forfeit_by}
                       for r in reports],
    }
    if a.json:
        sys.stdout.write(json.dumps(obj) + "\n")
    else:
        games = f"{len(reports):,} game{'' if len(reports) == 1 else 's'}"
        print(f"{a.p1} vs {a.p2}: {games}, +{w1} -{w2} ={dr}, score {score:.3f}, "
              f"{elo_text(diff, err, w1, w2, dr)}, {obj['elapsed_s']:.1f} s")
        if p1.settings.time_budget_s is not None or p2.settings.time_budget_s is not None:  # each side's budget's clock
            print(f"time: p1 {p1.settings.clock_text()}; p2 {p2.settings.clock_text()}")
        print(judged_text(judges))
        for r in reports:
            if r.forfeit_by is not None:
                print(f"game {r.index + 1}: {r.forfeit_by} ({a.p1 if r.forfeit_by == 'p1' else a.p2}) lost by "
                      f"{r.termination}: {r.reason}")
        stopped = sum(r.termination == "move limit" for r in reports)
        if stopped:
            print(f"move limit: {stopped:,} of the {len(reports):,} games reached {a.max_plies:,} plies without an end "
                  "and count as draws (--max-plies N sets the limit)")
        if distinct < len(reports):
            print(f"note: only {distinct:,} of the {len(reports):,} games differ (from the same start, agents "
                  "that always choose alike play the same game again): vary the starts with --openings or --position")
        if saved:
            print(f"games saved to {saved}")
    return 0


def _play(a: argparse.Namespace, tasks: list[GameTask], done: Callable[[GameReport], None]) -> None:
    """Play the games, calling ``done`` with each report as its game ends (in this process, or in a pool of
    ``--jobs`` processes: always when an agent file plays, so its agent processes start from a worker). Ctrl+C
    raises ``KeyboardInterrupt`` here only: the pool's workers, and the agent processes they start, ignore it and
    are stopped with the pool (an agent process ends with its parent)."""
    jobs = min(a.jobs, len(tasks))
    if jobs == 1 and not is_isolated(tasks[0]):
        for t in tasks:
            done(play_task(t))
    else:
        ctx = mp.get_context("spawn")
        from ai.agents.agent_watch import children_ignore_sigint
        with children_ignore_sigint():  # they start with Ctrl+C ignored: none prints a traceback while starting
            pool = ctx.Pool(jobs, initializer=_ignore_sigint)
        with pool:
            for r in pool.imap_unordered(play_task, tasks):
                done(r)


def _ignore_sigint() -> None:
    """A pool worker's start: Ctrl+C is the parent's to handle (it stops the pool), so no worker prints a
    traceback of its own."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class ScoreBar:
    """A match's progress bar: games played of the total and the first agent's score so far (``p1 score``)."""

    def __init__(self, bar: Any) -> None:
        self._bar = bar
        self._points = 0.0

    def game(self, winner: str | None) -> None:
        """One more game, won by ``p1``, ``p2`` or drawn (``None``)."""
        self._points += 1.0 if winner == "p1" else 0.0 if winner == "p2" else 0.5
        self._bar.set_postfix_str(f"p1 score {self._points / (self._bar.n + 1):.3f}", refresh=False)
        self._bar.update(1)

    def write(self, text: str) -> None:
        """A line of text on standard error, above the bar (tqdm's ``write``)."""
        self._bar.write(text, file=sys.stderr)


@contextlib.contextmanager
def score_bar(total: int, desc: str, show: bool) -> Iterator[ScoreBar]:
    """A :class:`ScoreBar` on standard error for ``total`` games (``gameplay.cli.progress``: a live bar on a terminal,
    about ten lines in a log; nothing when ``show`` is false), closed when the block ends."""
    from gameplay.cli.progress import progress_bar
    with progress_bar(total, desc, "game", show) as bar:
        yield ScoreBar(bar)


def _save_games(a: argparse.Namespace, game: Any, reports: list[GameReport]) -> str | None:
    """Write the games in the game's archive format (``GameInfo.archive``) to ``--pdn`` or the default file; the
    path written, or ``None`` (a game without one, or ``--pdn none``)."""
    archive = game_info(a.game).archive
    if archive is None or a.pdn == "none":
        return None
    path = Path(a.pdn) if a.pdn else _default_pdn_path(archive.suffix)
    games = [ArchivedGame(r.moves, r.start, f"match {a.p1} vs {a.p2}", str(r.index + 1),
                          (a.p1, a.p2) if r.p1_first else (a.p2, a.p1), r.opening,
                          winner=None if r.winner is None else (0 if (r.winner == "p1") == r.p1_first else 1),
                          finished=r.termination != "move limit")
             for r in reports]
    text = archive.write_games(games)
    try:
        from gameplay.rules.outfile import write_text
        write_text(path, text, make_folders=not a.pdn)  # the data folder's matches/ is made; a --pdn folder is not
    except OSError as e:
        raise GameError(f"cannot save the games to {path}: {e.strerror or e}") from None
    return str(path)


def _default_pdn_path(suffix: str) -> Path:
    """``<data folder>/matches/match-<date>-<time>-<pid>.<suffix>`` (the data folder honours ``ARCADE_DATA_DIR``;
    ``suffix``: the archive format's, ``pdn`` for checkers)."""
    try:
        from gameplay.files.autosave import data_dir
        base = data_dir()
    except ImportError:  # platformdirs missing: the current folder
        base = Path.cwd()
    return base / "matches" / time.strftime(f"match-%Y%m%d-%H%M%S-{os.getpid()}.{suffix}")


def register(sub: Any) -> None:
    """Add the ``match`` subcommand."""
    sp = sub.add_parser("match", help="two agents play N games; score and Elo difference")
    from gameplay.cli.common import add_game_argument, openings_help
    add_game_argument(sp, game_names())
    sp.add_argument("--p1", required=True, help="first agent (its score is reported)")
    sp.add_argument("--p2", required=True, help="second agent")
    sp.add_argument("--games", type=MATCH_GAMES.arg("--games"), default=None, metavar="N",
                    help=MATCH_GAMES.help("number of games (default: 312 with ballots = 156 openings x 2 colours, "
                                          "else 10)"))
    sp.add_argument("--openings", default=None, help=openings_help("each opening twice, colours swapped"))
    sp.add_argument("--position", default=None, help="start every game from this position")
    sp.add_argument("--jobs", type=JOBS.arg("--jobs"), default=1, metavar="J",
                    help=JOBS.help("games in parallel processes (default 1)"))
    sp.add_argument("--seed", type=SEED.arg("--seed"), default=None, metavar="S",
                    help=SEED.help("seed for dice and random agents (default 1)"))
    sp.add_argument("--pdn", default=None,
                    help="save the games to this file in the game's archive format (checkers: PDN; 'none' to "
                         "skip; default: the user data folder, matches/)")
    sp.add_argument("--plot", default=None, metavar="FILE",
                    help="draw the score and Elo estimate after each game into FILE.png or FILE.svg")
    sp.add_argument("--max-plies", type=MATCH_PLIES.arg("--max-plies"), default=MAX_PLIES, metavar="N",
                    help=MATCH_PLIES.help(f"stop a game still going after N plies as a draw, termination 'move "
                                          f"limit' (default {MAX_PLIES:,})"))
    sp.add_argument("--quiet", action="store_true", help="no progress bar")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.set_defaults(func=cmd_match)
