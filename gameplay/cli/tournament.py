"""``python main.py tournament GAME (--agents A B ... | --agents-dir DIR) ...`` (CLI.md): a class tournament.

Every pair of agents plays ``--games-per-pair`` games (round robin; or ``--format swiss`` rounds paired by
points), each game in its own worker processes (``ai.agents.arena``), locally (``--jobs`` processes) or on a Dask
cluster (``--engine dask``, ``--scheduler tcp://HOST:8786``). Each finished game is appended to the journal at
once (``gameplay.tournament.journal``): rerunning the same command after an interruption plays only the games
that are missing. The final table has points, wins/draws/losses, forfeits and Bradley-Terry ratings
(``ai.bench.ratings``); ``--report FILE.html`` writes the page a teacher projects (``gameplay.tournament.report``).

Exit codes: 0 when every game is in the journal; 1 when some game could not be played this time (a worker died;
rerun the same command to play it); 2 for bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from gameplay.rules.base import GameError, quoted_path
from gameplay.rules.registry import game_title
from gameplay.tournament.model import (
    DEFAULT_GAMES_PER_PAIR,
    Entrant,
    TournamentError,
    TournamentSpec,
    default_rounds,
    entrants_from_dir,
    make_entrant,
)


def register(sub: Any) -> None:
    """Add the ``tournament`` subcommand to the CLI's subparsers."""
    from gameplay.rules.limits import GAMES_PER_PAIR, JOBS, MATCH_PLIES, MAX_PLIES, MOVE_TIME, SEED, SWISS_ROUNDS
    from gameplay.rules.registry import game_names
    sp = sub.add_parser("tournament", help="a tournament among agents (agent files included), resumable")
    from gameplay.cli.common import add_game_argument, openings_help
    add_game_argument(sp, game_names())
    sp.add_argument("--agents", nargs="+", default=[], metavar="AGENT",
                    help="agent specs (alphabeta:depth=3, file:alice.py, bob.toml, ...)")
    sp.add_argument("--agents-dir", default=None, metavar="DIR",
                    help="every *.py (an agent file) and *.toml agent in this folder")
    sp.add_argument("--format", default="roundrobin", help="roundrobin (default) or swiss")
    sp.add_argument("--rounds", type=SWISS_ROUNDS.arg("--rounds"), default=None, metavar="R",
                    help=SWISS_ROUNDS.help("swiss: rounds (default ceil(log2 agents) + 2, at most a round robin's "
                                           "rounds)"))
    sp.add_argument("--openings", default=None, help=openings_help("the deck in order, each opening twice"))
    sp.add_argument("--games-per-pair", type=GAMES_PER_PAIR.arg("--games-per-pair"), default=DEFAULT_GAMES_PER_PAIR,
                    metavar="N", help=GAMES_PER_PAIR.help(f"games each pair plays (default {DEFAULT_GAMES_PER_PAIR}; "
                                                          "even with ballots)"))
    sp.add_argument("--time", type=MOVE_TIME.arg("--time"), default=None, metavar="T",
                    help=MOVE_TIME.help("every agent's limit per move, seconds"))
    sp.add_argument("--max-plies", type=MATCH_PLIES.arg("--max-plies"), default=MAX_PLIES, metavar="N",
                    help=MATCH_PLIES.help(f"stop a game still going after N plies as a draw, termination 'move "
                                          f"limit' (default {MAX_PLIES:,})"))
    sp.add_argument("--jobs", type=JOBS.arg("--jobs"), default=1, metavar="J",
                    help=JOBS.help("games at once: local processes, or the workers of a local Dask cluster "
                                   "(default 1)"))
    sp.add_argument("--seed", type=SEED.arg("--seed"), default=1, metavar="S",
                    help=SEED.help("seed of dice, seeded agents and Swiss tie-breaks (default 1)"))
    sp.add_argument("--engine", default="local", help="local (processes on this machine, default) or dask")
    sp.add_argument("--scheduler", default=None, metavar="ADDRESS",
                    help="dask: the scheduler, e.g. tcp://10.0.0.5:8786 (default: a local cluster of --jobs)")
    sp.add_argument("--journal", default=None, metavar="FILE",
                    help="the results journal (default: the data folder, tournaments/, named by the definition); "
                         "rerun with the same one to resume")
    sp.add_argument("--pdn-dir", "--games-dir", dest="games_dir", default=None, metavar="DIR",
                    help="where every game is saved, in the game's archive format (checkers: PDN; default: "
                         "<journal>-games/ beside the journal)")
    sp.add_argument("--report", default=None, metavar="FILE.html", help="write the HTML report here")
    sp.add_argument("--quiet", action="store_true", help="no progress bar")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.set_defaults(func=cmd_tournament)


def build_spec(a: argparse.Namespace) -> tuple[TournamentSpec, dict[str, tuple[str, str]]]:
    """The tournament from the parsed arguments, each agent checked, and the agents of ``--agents-dir`` that
    cannot be read (name -> ``("crash", why)``: disqualified from the start, with a warning).

    Raises:
        TournamentError: no or too few agents, an agent that cannot play the game (or is ``human``), a file
            agent that cannot be read, or a bad format, opening, count or time (exit 2).
    """
    from ai.agents.agent_file import inspect_agent_file, is_file_spec, split_file_spec
    from ai.agents.agents import make_agent
    entrants: list[Entrant] = []
    unloadable: dict[str, tuple[str, str]] = {}
    if a.agents_dir is not None:
        folder = Path(a.agents_dir)
        if not folder.is_dir():
            raise TournamentError(f"--agents-dir: {quoted_path(a.agents_dir)} is not a folder")
        found = entrants_from_dir(folder)
        if not found:
            raise TournamentError(f"--agents-dir: no *.py or *.toml agent in {quoted_path(a.agents_dir)}")
        entrants.extend(found)
    for spec in a.agents:
        entrants.append(make_entrant(spec))
    if not entrants:
        raise TournamentError("give the agents: --agents A B ... or --agents-dir DIR")
    from_dir = len(entrants) - len(a.agents)  # the first ``from_dir`` came from --agents-dir
    for k, e in enumerate(entrants):
        # a file agent is read, never run, here (a student's code runs only in its worker process). A broken
        # agent given by name is bad input; one found in --agents-dir is disqualified (it forfeits its games without
        # being started), with a warning
        try:
            if is_file_spec(e.spec):
                inspect_agent_file(split_file_spec(e.spec)[0])
            elif make_agent(a.game, e.spec).is_human:
                raise TournamentError("a tournament needs AI agents, not human")
        except GameError as err:
            if k >= from_dir:
                raise
            sys.stderr.write(f"warning: {e.name}: {err}; disqualified: it will forfeit its games\n")
            unloadable[e.name] = ("crash", f"cannot build the agent: {err}")
    rounds = a.rounds
    if a.format == "swiss" and rounds is None:
        rounds = default_rounds(len(entrants))
    return (TournamentSpec(a.game, tuple(entrants), a.format, a.openings, a.games_per_pair, a.time, a.seed, rounds,
                           a.max_plies),
            unloadable)


def _check_extra(a: argparse.Namespace) -> None:
    """Refuse, in one line naming the ``tournaments`` extra, a tournament whose packages are missing: numpy (every
    table's ratings), networkx (``--format swiss``), dask[distributed] (``--engine dask``)."""
    from gameplay.rules.extras import need
    checks = [("tournaments", ("numpy",))]
    if a.format == "swiss":
        checks.append(("Swiss tournaments", ("networkx",)))
    if a.engine == "dask":
        checks.append(("tournaments on Dask", ("distributed",)))
    for what, modules in checks:
        problem = need("tournaments", what, modules)
        if problem is not None:
            raise TournamentError(problem)


def cmd_tournament(a: argparse.Namespace) -> int:
    """Run the ``tournament`` subcommand."""
    from gameplay.tournament.run import default_journal, make_engine, run_tournament
    spec, unloadable = build_spec(a)
    _check_extra(a)
    make_engine(a.engine, a.jobs, a.scheduler, "")  # checks --engine, --jobs, --scheduler before anything starts
    if a.report is not None and not a.report.lower().endswith((".html", ".htm")):
        raise TournamentError(f"--report must name an .html file, got {quoted_path(a.report)}")
    from gameplay.rules.outfile import check_target
    for given in (a.report, a.journal):  # a file given in a folder that does not exist: refused before any game
        if given is not None:
            check_target(given)
    if a.games_dir and not Path(a.games_dir).parent.is_dir():
        raise TournamentError(f"--games-dir: the folder {quoted_path(str(Path(a.games_dir).parent))} does not "
                              "exist (make it first)")
    journal = Path(a.journal) if a.journal else default_journal(spec)
    games_dir = Path(a.games_dir) if a.games_dir else None
    if not a.quiet:
        sys.stderr.write(f"journal: {journal}\n")
    try:
        run = run_tournament(spec, journal, engine=a.engine, jobs=a.jobs, scheduler=a.scheduler,
                             games_dir=games_dir, progress=not a.quiet, unloadable=unloadable)
    except KeyboardInterrupt:  # every finished game is already in the journal (a line, flushed and fsync'd)
        from gameplay.cli.common import Interrupted
        raise Interrupted(f"interrupted; the journal {journal} keeps every finished game: rerun the same command "
                          "to play the rest") from None
    report = None
    if a.report is not None:
        from gameplay.tournament.report import write_report
        report = str(write_report(Path(a.report), run))
    obj = run_json(run, report)
    obj.update({"engine": a.engine, "jobs": a.jobs})
    if a.json:
        sys.stdout.write(json.dumps(obj) + "\n")
    else:
        print_table(run, report)
    if run.failed:
        sys.stderr.write(f"{len(run.failed)} game(s) could not be played this time (a worker died); rerun the same "
                         "command to play them\n")
        return 1
    return 0


def entrant_clocks(spec: Any) -> dict[str, str]:
    """Each entrant's time-budget clock by name (``wall`` or ``cpu``: ``ai.agents.agents.clock_of_spec``)."""
    from ai.agents.agents import clock_of_spec
    return {e.name: clock_of_spec(spec.game, e.spec) for e in spec.entrants}


def entrant_judges(spec: Any) -> dict[str, Any]:
    """How the referee judges each entrant's moves, by name (``ai.agents.arena.judged_by``: a
    ``ai.agents.move_clock.TimeControl`` on the agent's own clock, or ``None`` without a limit)."""
    from ai.agents.arena import judged_by
    return {e.name: judged_by(spec.game, e.spec, spec.time_limit_s) for e in spec.entrants}


def judged_json(judges: dict[str, Any]) -> dict[str, dict[str, Any] | None]:
    """``{name: {"clock", "limit_s", "grace_s", "wall_cap_s"} | null}``: the clock that judged each agent, its
    per-move limit and grace on that clock, and the wall-clock seconds after which it loses whatever its clock says
    (``ai.agents.move_clock``)."""
    return {n: None if c is None else {"clock": c.clock.value, "limit_s": c.limit_s, "grace_s": c.grace_s,
                                       "wall_cap_s": c.wall_limit_s}
            for n, c in judges.items()}


def judged_lines(judges: dict[str, Any]) -> list[str]:
    """The printed table's time line(s): ``time: every agent judged on wall time, 0.5 s + 0.25 s grace`` when one
    judgement fits all, else ``time: the referee judges each agent on its own clock`` and a line per judgement with
    the agents it judges."""
    groups: dict[str, list[str]] = {}
    for name, c in judges.items():
        groups.setdefault("no per-move limit" if c is None else c.judged(), []).append(name)
    if len(groups) == 1:
        return [f"time: every agent judged on {next(iter(groups))}"]
    return ["time: the referee judges each agent on its own clock"] + [
        f"  {', '.join(names)}: {how}" for how, names in groups.items()]


def clock_column(judge: Any) -> str:
    """The standings' ``clock`` cell: the clock that judged the agent (``cpu``, ``wall``), ``-`` without a limit."""
    return "-" if judge is None else str(judge.clock.value)


def run_json(run: Any, report: str | None) -> dict[str, Any]:
    """The ``tournament --json`` object: ``{"game", "format", "agents", "games", "scheduled", "table",
    "standings", "crosstable", "failures", "disqualified", "output_hidden", "byes", "unplayed", "journal",
    "games_dir", "report", ...}`` (``standings`` is ``table`` under CLI.md's name; every forfeit is in
    ``failures``, its ``reason`` one of CLI.md's words and its ``detail`` the rest: the signal, the exception)."""
    judges = entrant_judges(run.spec)
    table = [{**r.to_json(), "clock": None if judges.get(r.agent) is None else clock_column(judges[r.agent])}
             for r in run.table.rows]
    return {
        "game": run.spec.game, "format": run.spec.format, "agents": run.spec.names,
        "specs": {e.name: e.spec for e in run.spec.entrants}, "clocks": entrant_clocks(run.spec),
        "judged_by": judged_json(judges),
        "games": len(run.records),
        "scheduled": run.scheduled, "played_now": run.played_now, "complete": run.complete,
        "games_per_pair": run.spec.games_per_pair, "openings": run.spec.openings, "time": run.spec.time_limit_s,
        "seed": run.spec.seed, "rounds": run.spec.rounds, "max_plies": run.spec.max_plies,
        "move_limit_games": move_limit_games(run),
        "table": table, "standings": table, "crosstable": run.table.crosstable, "failures": run.table.failures,
        "disqualified": [{"agent": n, **d} for n, d in run.disqualified.items()],
        "output_hidden": run.output_hidden,
        "byes": [{"round": r, "agent": n} for r, n in run.byes],
        "unplayed": [{"key": k, "error": e} for k, e in run.failed],
        "journal": str(run.journal), "games_dir": str(run.games_dir), "report": report,
        "elapsed_s": round(run.elapsed_s, 3),
    }


def move_limit_games(run: Any) -> int:
    """Games of the journal stopped at the move limit (termination ``move limit``, :attr:`TournamentSpec.max_plies`),
    each a draw."""
    return sum(1 for rec in run.records if rec.get("termination") == "move limit")


FORFEITS_SHOWN = 20
"""Forfeits listed one by one in the printed table; the rest are counted (``--json`` and the report list all)."""


def forfeit_lines(run: Any, shown: int = FORFEITS_SHOWN) -> list[str]:
    """The printed table's forfeits: each disqualified agent with the reason and its count of forfeits, then
    ``forfeits: N``, a line per forfeit of the agents not disqualified (agent, opponent, reason, detail) for the
    first ``shown``, and ``and N more ...`` for the others: every forfeit is counted, none left out silently."""
    out: list[str] = []
    failures = run.table.failures
    if run.disqualified or failures:
        out.append("")
    for name, d in run.disqualified.items():
        where = "before the first game" if d["game"] is None else f"in game {d['game']}"
        count = sum(f["agent"] == name for f in failures)
        out.append(f"disqualified: {name}: it could not start {where} ({d['reason']}: {_short(d['detail'], 120)}); "
                   f"{count} forfeit{'' if count == 1 else 's'}")
    if failures:
        others = [f for f in failures if f["agent"] not in run.disqualified]
        by_disqualified = len(failures) - len(others)
        out.append(f"forfeits: {len(failures)}" + (f" ({by_disqualified} of them by the disqualified agents above)"
                                                   if by_disqualified else ""))
        for f in others[:shown]:
            detail = f" ({_short(f['detail'], 100)})" if f.get("detail") and f["detail"] != f["reason"] else ""
            out.append(f"  {f['agent']} against {f['opponent']}: {f['reason']}{detail}")
        if len(others) > shown:
            out.append(f"  and {len(others) - shown} more (tournament --json and the report list every one)")
    return out


def _short(text: str, n: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[:n - 1] + "…"


def print_table(run: Any, report: str | None) -> None:
    """The final table and the crosstable as text."""
    spec = run.spec
    rows = run.table.rows
    w = max(8, *(len(r.agent) for r in rows))
    kind = "round robin" if spec.format == "roundrobin" else f"Swiss, {spec.rounds} rounds"
    print(f"{game_title(spec.game)} {kind}: {len(spec.entrants)} agents, {len(run.records)}/{run.scheduled} games "
          f"({run.played_now} played now, {run.elapsed_s:.1f} s)")
    judges = entrant_judges(spec)
    for line in judged_lines(judges):
        print(line)
    print(f"{'#':>2}  {'agent':<{w}}  {'clock':>5}  {'points':>6}  {'games':>5}  {'+':>4} {'=':>4} {'-':>4}  "
          f"{'forf':>4}  {'rating':>7}  {'+/-95%':>6}")
    for k, r in enumerate(rows, 1):
        print(f"{k:>2}  {r.agent:<{w}}  {clock_column(judges.get(r.agent)):>5}  {r.points:>6g}  {r.games:>5}  "
              f"{r.wins:>4} {r.draws:>4} {r.losses:>4}  {r.forfeits:>4}  {r.rating:>+7.0f}  {r.rating_error_95:>6.0f}")
    print("\ncrosstable (points of the row's agent against the column's):")
    print(f"{'':>2}  {'':<{w}}  " + " ".join(f"{k:>6}" for k in range(1, len(rows) + 1)))
    for k, r in enumerate(rows, 1):
        cells = []
        for o in rows:
            c = run.table.crosstable[r.agent].get(o.agent)
            cells.append(f"{'-':>6}" if c is None else f"{c['points']:>6g}" if c["games"] else f"{'.':>6}")
        print(f"{k:>2}  {r.agent:<{w}}  " + " ".join(cells))
    for line in forfeit_lines(run):
        print(line)
    stopped = move_limit_games(run)
    if stopped:
        print(f"move limit: {stopped:,} of the {len(run.records):,} games reached {spec.max_plies:,} plies without an "
              "end and count as draws (--max-plies N sets the limit)")
    for r_no, name in run.byes:
        print(f"round {r_no}: {name} had a bye")
    print(f"\njournal: {run.journal}\ngames: {run.games_dir}")
    if report:
        print(f"report: {report}")
