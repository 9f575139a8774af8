"""Checkers shot positions: build the set, and score how many of them an agent solves.

Usage::

    python tools/shots.py generate [--games N] [--plies A:B] [--deep-time S] [--shallow-depth D]
        [--swing CENTIMEN] [--max N] [--budget S] [--seed S] [--out FILE]
    python tools/shots.py generate --spar JOURNAL.jsonl [--before N] [--deep-time S] [--deep-spec SPEC]
        [--swing CENTIMEN] [--out FILE]
    python tools/shots.py score --agent SPEC [--file FILE] [--first N] [--json]

A *shot* is a position where a deep search finds that the side to move wins (or must avoid losing) material that
a shallow search misses: the shallow search's move, searched deeply, is worth at least ``--swing`` hundredths of
a man (default 80) less than the deep search's best. The set is the measuring stick of the search's tactical
soundness (issue 27, lever 2): ``score`` prints how many positions the agent solves, i.e. plays one of the
recorded best moves (the moves whose deep value is within ``GOOD_MARGIN`` of the best) in its own budget.

Where the positions come from (``generate``): games of ``expert:time=0.1`` against itself, one per ACF ballot
of the deck (``gameplay.rules.checkers.ballots``), seeded by the ballot's number; positions of plies ``--plies``
(default 8:60, the early middle game where issue 27's losses turned) with at least 12 pieces. Each position is screened
by a depth-``--shallow-depth`` search and a 0.3 s search; where they disagree, the deep verdict is a
``--deep-time`` second search without late-move reductions (quiescence, table, endgame databases), and every
root move is then searched to the deep depth minus one (at most ``--deep-time`` seconds each) to find the set of
best moves. The ``depth`` column is
the first iteration of the deep search from which on its move stayed in that set.

From games against an outside engine (``--spar``, a ``tools/spar.py`` journal): in each game our agent lost, its
last ``--before`` decisions (default 6) before the engine's score first reached 0.8 of a man; the move the agent
played stands for the shallow move, and the deep verdict alone screens the position (a 0.3 s screen would miss
what a 1 s search missed).

The file (``tests/data/checkers_shots.tsv``) has one tab-separated row per position: ``fen``, ``side`` (Black or
White to move), ``best`` (the best moves, space-separated, PDN), ``swing`` (centi-men the shallow move loses),
``depth``, ``shallow`` (the shallow search's move), ``source`` (ballot, seed and ply). Lines starting with ``#``
are comments.

Speed: the searches run on whatever ``ai``/``gameplay`` import; by default this worktree's (pure Python unless
compiled); with the environment variable ``ARCADE_SHOTS_INSTALLED=1`` the installed (possibly mypyc-compiled)
package is used instead, which makes ``generate`` several times faster. Exit codes: 0 done, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if not os.environ.get("ARCADE_SHOTS_INSTALLED"):
    sys.path.insert(0, str(ROOT))

from ai.agents.agents import make_agent  # noqa: E402
from ai.kernel.core import SearchLimits  # noqa: E402
from ai.kernel.deepen import iterative_deepening  # noqa: E402
from gameplay.rules.base import GameError  # noqa: E402
from gameplay.rules.checkers.ballots import load_ballots  # noqa: E402
from gameplay.rules.checkers.checkers import Checkers  # noqa: E402

DEFAULT_FILE = ROOT / "tests" / "data" / "checkers_shots.tsv"
COLUMNS = ("fen", "side", "best", "swing", "depth", "shallow", "source")
GOOD_MARGIN = 40.0
"""A root move whose deep value is within this many centi-men of the best counts as a best move."""
DEEP_SPEC = "alphabeta:quiescence=on,tt=on,db=on,lmr=off"
"""The deep verdict's search: no late-move reductions (the switch whose safety is measured)."""


@dataclass(frozen=True)
class Shot:
    """One row of the shot file."""

    fen: str
    side: str
    best: tuple[str, ...]
    swing: int
    depth: int
    shallow: str
    source: str

    def row(self) -> str:
        return "\t".join((self.fen, self.side, " ".join(self.best), str(self.swing), str(self.depth), self.shallow,
                          self.source))


def read_shots(path: Path = DEFAULT_FILE) -> list[Shot]:
    """The shots of ``path``.

    Raises:
        GameError: the file is missing or a row is malformed (with its line number).
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise GameError(f"cannot read the shot file {path}: {e.strerror or e}") from None
    out: list[Shot] = []
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) != len(COLUMNS):
            raise GameError(f"{path}:{n}: expected {len(COLUMNS)} tab-separated columns, got {len(cols)}")
        fen, side, best, swing, depth, shallow, source = cols
        if side not in ("Black", "White") or not best.split():
            raise GameError(f"{path}:{n}: side must be Black or White and best must name a move")
        try:
            out.append(Shot(fen, side, tuple(best.split()), int(swing), int(depth), shallow, source))
        except ValueError:
            raise GameError(f"{path}:{n}: swing and depth must be whole numbers") from None
    return out


def _searcher_result(spec: str, state: Any, depth: int | None, seconds: float | None) -> Any:
    agent = make_agent("checkers", spec)
    searcher = agent.make_searcher()  # type: ignore[attr-defined]
    st = agent.settings
    limits = SearchLimits(depth if depth is not None else st.depth,
                          seconds if seconds is not None else st.time_budget_s)
    return iterative_deepening(agent.game, state, searcher, limits)


def _examine(game: Checkers, state: Any, args: argparse.Namespace, played: Any = None
             ) -> tuple[list[str], int, int, str] | None:
    """``(best moves, swing, depth found, shallow move)`` when ``state`` is a shot, else ``None``; the "shallow"
    move is the depth-``--shallow-depth`` search's, or ``played`` (the move a game's agent played) when given."""
    if played is None:
        shallow_move = _searcher_result(f"alphabeta:quiescence=on,tt=on,depth={args.shallow_depth},time=60", state,
                                        None, None).move
    else:
        shallow_move = played
    after = game.successor(state, shallow_move)
    if played is None:  # a cheap screen; a move a 1 s search played is screened by the deep search alone
        medium = _searcher_result(args.deep_spec, state, None, 0.3)
        if medium.move == shallow_move:
            return None
        if medium.value + _searcher_result(args.deep_spec, after, None, 0.3).value < 0.75 * args.swing:
            return None
    deep = _searcher_result(args.deep_spec, state, None, args.deep_time)
    if deep.move == shallow_move:
        return None
    d = max(deep.depth - 1, 1)
    if deep.value + _searcher_result(args.deep_spec, after, d, args.deep_time).value < args.swing:
        return None
    values: dict[str, float] = {}
    for m in game.actions(state):
        r = _searcher_result(args.deep_spec, game.successor(state, m), d, args.deep_time)
        values[game.format_move(state, m)] = -r.value
    top = max(values.values())
    if abs(top) >= 5000:  # a proven or database result: keep only if the shallow move throws it away
        top = max(min(top, 1000.0), -1000.0)
    clipped = {k: max(min(v, 1000.0), -1000.0) for k, v in values.items()}
    best = sorted(k for k, v in clipped.items() if v >= top - GOOD_MARGIN)
    sm = game.format_move(state, shallow_move)
    swing = top - clipped[sm]
    if swing < args.swing or sm in best or len(best) == len(values):
        return None
    found = deep.depth
    for it in reversed(deep.extra.get("iterations", [])):
        mv = it["move"]
        if (mv if isinstance(mv, str) else game.format_move(state, mv)) not in best:
            break
        found = it["depth"]
    return best, int(round(swing)), found, sm


def spar_positions(path: Path, before: int) -> list[tuple[str, str, str]]:
    """``(fen, move played, source)`` of our agent's last ``before`` decisions before each lost game of a
    ``tools/spar.py`` journal turned: before the outside engine's score first reached 80 (0.8 of a man, its view).

    Raises:
        GameError: the journal cannot be read or a line is not a game record.
    """
    game = Checkers()
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise GameError(f"cannot read the journal {path}: {e.strerror or e}") from None
    out: list[tuple[str, str, str]] = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
            moves, start, ours, values = r["moves"], r["start"], r["our_side"], r["engine_values"]
        except (ValueError, KeyError) as e:
            raise GameError(f"{path}:{n}: not a game record of tools/spar.py ({e})") from None
        if r.get("winner") != "engine":
            continue
        turned = next((k for k, v in enumerate(values) if v is not None and v >= 80), None)
        if turned is None:
            continue
        state = game.parse_position(start)
        ours_seen: list[tuple[str, str, int]] = []
        engine_moves = 0
        for ply, text in enumerate(moves):
            if game.to_move(state) == ours:
                ours_seen.append((game.format_position(state), text, ply))
            else:
                if engine_moves == turned:
                    break
                engine_moves += 1
            state = game.result(state, game.parse_move(state, text))
        for fen, text, ply in ours_seen[-before:]:
            out.append((fen, text, f"spar game {r['index'] + 1} ({r['opening']}) ply {ply}"))
    return out


def generate_from_spar(args: argparse.Namespace) -> int:
    """The shots among our agent's decisions before its losses to the outside engine (``--spar``)."""
    game = Checkers()
    found: list[Shot] = []
    t0 = time.perf_counter()
    out = Path(args.out)
    with out.open("w", encoding="utf-8") as f:
        f.write(f"# Checkers shot positions (tools/shots.py generate --spar {Path(args.spar).name}: our decisions "
                f"before the games lost to the outside engine turned). Columns: " + " ".join(COLUMNS) + "\n")
        for fen, text, source in spar_positions(Path(args.spar), args.before):
            if len(found) >= args.max or time.perf_counter() - t0 > args.budget:
                break
            state = game.parse_position(fen)
            if len(game.actions(state)) < 2:
                continue
            hit = _examine(game, state, args, game.parse_move(state, text))
            if hit is None:
                continue
            best, swing, depth, sm = hit
            shot = Shot(fen, game.player_names[game.to_move(state)], tuple(best), swing, depth, sm,
                        source + " (the move played)")
            found.append(shot)
            f.write(shot.row() + "\n")
            f.flush()
            print(f"{len(found):3d} {shot.row()}", flush=True)
    print(f"{len(found)} shots in {time.perf_counter() - t0:.0f} s -> {out}")
    return 0


def generate(args: argparse.Namespace) -> int:
    if args.spar:
        return generate_from_spar(args)
    game = Checkers()
    lo, _, hi = args.plies.partition(":")
    first, last = int(lo), int(hi)
    shots: list[Shot] = []
    t0 = time.perf_counter()
    out = Path(args.out)
    ballots = load_ballots()[args.skip:args.skip + args.games]
    with out.open("w", encoding="utf-8") as f:
        f.write("# Checkers shot positions (tools/shots.py generate; see its docstring). Columns: "
                + " ".join(COLUMNS) + "\n")
        for b in ballots:
            if len(shots) >= args.max or time.perf_counter() - t0 > args.budget:
                break
            state = game.parse_position(b.fen)
            player = make_agent("checkers", f"expert:time=0.1,seed={args.seed + b.number},book=off")
            for ply in range(3, last):
                if game.is_terminal(state) or time.perf_counter() - t0 > args.budget:
                    break
                if ply >= first and game.pieces(state) >= 12 and len(game.actions(state)) > 1:
                    found = _examine(game, state, args)
                    if found is not None:
                        best, swing, depth, sm = found
                        shot = Shot(game.format_position(state), game.player_names[game.to_move(state)],
                                    tuple(best), swing, depth, sm, f"ballot {b.number} seed {args.seed + b.number} "
                                    f"ply {ply} shallow depth {args.shallow_depth}")
                        shots.append(shot)
                        f.write(shot.row() + "\n")
                        f.flush()
                        print(f"{len(shots):3d} {shot.row()}", flush=True)
                        if len(shots) >= args.max:
                            break
                state = game.successor(state, player.choose(state).move)
    print(f"{len(shots)} shots in {time.perf_counter() - t0:.0f} s -> {out}")
    return 0


def score(args: argparse.Namespace) -> int:
    game = Checkers()
    shots = read_shots(Path(args.file))
    if args.first:
        shots = shots[:args.first]
    solved = 0
    rows = []
    t0 = time.perf_counter()
    for s in shots:
        agent = make_agent("checkers", args.agent)
        state = game.parse_position(s.fen)
        r = agent.choose(state)
        mv = game.format_move(state, r.move)
        ok = mv in s.best
        solved += ok
        rows.append({"fen": s.fen, "move": mv, "solved": ok, "depth": r.depth, "nodes": r.nodes,
                     "best": list(s.best), "swing": s.swing})
        if not args.json:
            print(f"{'ok  ' if ok else 'MISS'} {mv:>10} best {' '.join(s.best):<20} depth {r.depth:2d} "
                  f"swing {s.swing:4d}  {s.source}", flush=True)
    summary = {"agent": args.agent, "file": str(args.file), "positions": len(shots), "solved": solved,
               "seconds": round(time.perf_counter() - t0, 1), "rows": rows}
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{args.agent}: solved {solved}/{len(shots)} shots ({summary['seconds']} s)")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="shots.py", description="Checkers shot positions: generate and score.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate", help="build the shot file from self-play games from the ACF ballots")
    g.add_argument("--games", type=int, default=156, help="ballots to play from (default all 156)")
    g.add_argument("--skip", type=int, default=0, help="ballots of the deck to skip first")
    g.add_argument("--plies", default="8:60", help="plies of each game to examine, A:B (default 8:60)")
    g.add_argument("--deep-time", type=float, default=3.0, help="seconds of the deep verdict (default 3)")
    g.add_argument("--shallow-depth", type=int, default=6, help="depth of the shallow search (default 6)")
    g.add_argument("--swing", type=float, default=80.0, help="centi-men the shallow move must lose (default 80)")
    g.add_argument("--max", type=int, default=80, help="stop after this many shots (default 80)")
    g.add_argument("--budget", type=float, default=1800.0, help="stop after this many seconds (default 1800)")
    g.add_argument("--deep-spec", default=DEEP_SPEC, help=f"the deep verdict's agent (default {DEEP_SPEC})")
    g.add_argument("--spar", default=None,
                   help="a tools/spar.py journal: examine our decisions before each lost game turned instead")
    g.add_argument("--before", type=int, default=6,
                   help="--spar: how many of our decisions before the turn to examine (default 6)")
    g.add_argument("--seed", type=int, default=0, help="seed offset of the self-play agents (default 0)")
    g.add_argument("--out", default=str(DEFAULT_FILE), help="output file (default tests/data/checkers_shots.tsv)")
    s = sub.add_parser("score", help="how many shots an agent solves in its budget")
    s.add_argument("--agent", required=True, help="agent spec, e.g. expert or expert:time=1")
    s.add_argument("--file", default=str(DEFAULT_FILE), help="the shot file")
    s.add_argument("--first", type=int, default=0, help="only the first N positions")
    s.add_argument("--json", action="store_true", help="one JSON object")
    args = ap.parse_args(argv)
    try:
        return generate(args) if args.cmd == "generate" else score(args)
    except GameError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
