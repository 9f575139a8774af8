"""How well an agent plays endgames the tables can judge: does its move keep the table's value?

Usage: ``python tools/endgame_measure.py [--positions N] [--seed S] [--agent SPEC] [--pieces P] [--small Q]
[--hard] [--jobs J] [--json FILE] [--proofs N]``.

What it measures. ``N`` positions of ``P`` pieces (default 5) drawn with the seed: a signature of ``P`` pieces
(uniformly), a placement and a side to move at random, kept only when the side to move has a legal move and some
legal move would change the table's value (a win thrown to a draw or a loss, a draw to a loss): where any move
keeps the value, every agent does (``--hard``: only where exactly one move keeps it). On each, ``SPEC`` (default
``expert:clock=cpu``: 1 s of CPU a move) chooses a move twice: (a) probing only the tables of up to ``Q`` pieces
(default ``P - 1``: the shipped 4-piece tables, as a user has without building), (a+) probing the tables of up to
``P`` pieces. A move *keeps the value* when the position after it has the table's value of the position before
(seen from the mover): a win stays a win, a draw a draw. Printed: kept / all with its 95% Wilson interval, split by
the table's value (won and drawn positions: a lost one is never sampled, as every move keeps a loss), for (a) and
(a+), and the values lost by material; and (b) how often the agent's value agrees with the table's (won: above 0,
lost: below 0, drawn: within half a man): its static evaluation on every position drawn at random with no capture
to make (won, drawn and lost ones), and the value its search returned with the smaller tables on the measured
positions with no capture.

The oracle is :func:`ai.checkers.endgame_db.load_default` (it must cover ``P`` pieces: the 5-piece tables built by
``python tools/build_endgame_db.py --max-pieces 5``); the values ignore the draw rules (the tables' own meaning).
The smaller tables of (a) are the first entries of the same file (``EndgameDB.limited``), exactly the shipped
4-piece tables. Each decision is a fresh agent's (no table or history carried between positions).

``--proofs N`` checks the tables instead: ``N`` random positions of ``P`` pieces searched without tables (alpha-beta,
depth 20, ``--proof-nodes`` nodes each); every win or loss the search proves must be the table's value.

Exit codes: 0 done, 1 a proof disagrees with the table, 2 no tables of ``P`` pieces (one line), 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import platform
import random
import sys
import time
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.checkers import endgame_db as edb  # noqa: E402
from gameplay.rules.checkers.checkers import Checkers  # noqa: E402
from gameplay.rules.checkers.checkers_board import CheckersState  # noqa: E402
from gameplay.rules.checkers.checkers_notation import format_fen, parse_fen  # noqa: E402
from gameplay.rules.outfile import write_text  # noqa: E402

G = Checkers()
NAMES = {1: "won", 0: "drawn", -1: "lost"}


def after(tables: edb.EndgameDB, state: CheckersState, move: Any) -> int:
    """The table's value of the position after ``move``, seen from the mover (+1 win, 0 draw, -1 loss)."""
    child = G.successor(state, move)
    if not (child.black if child.turn == 0 else child.white):
        return 1  # took the last piece
    v = tables.probe_state(child)
    if v is None:
        raise edb.EndgameDBError(f"the tables do not cover {format_fen(child)}")
    return -v


def sample(tables: edb.EndgameDB, n: int, pieces: int, seed: int, hard: bool = False
           ) -> tuple[list[str], list[CheckersState]]:
    """``n`` FENs of ``pieces``-piece positions where some move changes the value (``hard``: where exactly one
    move keeps it), and every position drawn on the way (a random signature of ``pieces`` pieces, placement and
    side to move; a placement with two pieces on one square is drawn again)."""
    rng = random.Random(seed)
    sigs = [m for m in edb.signatures(pieces) if sum(m) == pieces]
    out: list[str] = []
    drawn: list[CheckersState] = []
    while len(out) < n:
        m = sigs[rng.randrange(len(sigs))]
        pos = edb.position_of(m, rng.randrange(edb.table_size(m)))
        if pos is None:
            continue
        state = CheckersState(*pos, rng.randrange(2))
        drawn.append(state)
        moves = G.legal_moves(state)
        value = tables.probe_state(state)
        if not moves or value is None:
            continue
        keeping = sum(after(tables, state, mv) == value for mv in moves)
        if keeping < len(moves) and (keeping == 1 or not hard):
            out.append(format_fen(state))
    return out, drawn


_AGENTS: dict[int, Any] = {}
_ORACLE: list[edb.EndgameDB] = []


def _init(spec: str, small: int, pieces: int) -> None:
    """A worker's agents (one per table size) and the oracle, built once per process."""
    from ai.agents.agents import build_agent, parse_settings
    from ai.agents.profiles import profile_for
    oracle = edb.load_default()
    assert oracle is not None
    _ORACLE[:] = [oracle]
    base = profile_for("checkers")
    for n in (small, pieces):
        tables = oracle.limited(n)
        profile = replace(base, endgame_loader=lambda t=tables: t,  # type: ignore[misc]
                          endgame_describe=lambda n=n: f"endgame tables up to {n} pieces")  # type: ignore[misc]
        _AGENTS[n] = (profile, parse_settings(spec, profile), build_agent)


def _decide(job: tuple[str, int]) -> dict[str, Any]:
    """One decision: the FEN, the table size, the move, whether it keeps the value, the search's value and the
    static evaluation (both for the mover), CPU seconds."""
    fen, n = job
    profile, settings, build_agent = _AGENTS[n]
    agent = build_agent(profile, settings)  # fresh: no table carried from another position
    oracle = _ORACLE[0]
    state = parse_fen(fen)
    value = oracle.probe_state(state)
    c0 = time.process_time()
    res = agent.choose(state)
    cpu = time.process_time() - c0
    got = after(oracle, state, res.move)
    quiet = not any(m.captures for m in G.legal_moves(state))
    return {"fen": fen, "tables": n, "value": value, "move": str(res.move), "after": got, "kept": got == value,
            "search_value": float(res.value), "quiet": quiet, "depth": res.depth, "cpu_s": cpu,
            "unit": agent.value_unit()}


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of ``k`` successes in ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def _share(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k}/{n} = {k / n:.3f} [{lo:.3f}, {hi:.3f}]" if n else "0/0"


def _agrees(value: int, x: float, unit: float) -> bool:
    return x > 0 if value == 1 else x < 0 if value == -1 else abs(x) <= unit / 2


def proofs(tables: edb.EndgameDB, n: int, pieces: int, seed: int, nodes: int) -> tuple[int, list[str]]:
    """``n`` random positions of ``pieces`` pieces (as :func:`sample` draws them, any value), each searched by
    ``alphabeta:depth=20,quiescence=off`` (no tables) with a budget of ``nodes`` nodes: where the search proves a win
    or a loss (under the draw rules: always a table win or loss too), the table must say the same.

    Returns ``(positions proven, each disagreement as text)``.
    """
    from ai.agents.agents import make_agent
    from ai.kernel.search import iterative_deepening
    agent: Any = make_agent("checkers", "alphabeta:depth=20,quiescence=off")
    limits = agent.settings.search_limits(agent.value_unit(), nodes=nodes)
    rng = random.Random(seed)
    sigs = [m for m in edb.signatures(pieces) if sum(m) == pieces]
    proven = 0
    wrong: list[str] = []
    done = 0
    while done < n:
        m = sigs[rng.randrange(len(sigs))]
        pos = edb.position_of(m, rng.randrange(edb.table_size(m)))
        if pos is None:
            continue
        state = CheckersState(*pos, rng.randrange(2))
        if not G.legal_moves(state):
            continue
        done += 1
        r = iterative_deepening(agent.game, state, agent.make_searcher(), limits)
        if r.outcome in ("win", "loss"):
            proven += 1
            if tables.probe_state(state) != (1 if r.outcome == "win" else -1):
                wrong.append(f"{format_fen(state)}: search {r.outcome} in {r.plies_to_end} plies, table "
                             f"{tables.probe_state(state)}")
    return proven, wrong


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--positions", type=int, default=200, help="positions to measure (default 200)")
    ap.add_argument("--seed", type=int, default=1, help="the sample's seed (default 1)")
    ap.add_argument("--agent", default="expert:clock=cpu", help="the agent spec (default expert:clock=cpu)")
    ap.add_argument("--pieces", type=int, default=5, choices=range(3, edb.MAX_PIECES + 1),
                    help="pieces of the sampled positions (default 5)")
    ap.add_argument("--small", type=int, default=None, help="the smaller tables' most pieces (default pieces - 1)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--hard", action="store_true", help="only positions where exactly one move keeps the value")
    ap.add_argument("--json", type=Path, default=None, metavar="FILE",
                    help="also write every decision and the figures to FILE as JSON")
    ap.add_argument("--proofs", type=int, default=0, metavar="N",
                    help="instead: N random positions searched without tables (depth 20); every win or loss the "
                         "search proves must be the table's value")
    ap.add_argument("--proof-nodes", type=int, default=200_000, metavar="K",
                    help="the node budget of each --proofs search (default 200,000)")
    a = ap.parse_args(argv)
    small = a.small if a.small is not None else a.pieces - 1
    oracle = edb.load_default()
    if oracle is None or oracle.max_pieces < a.pieces or not 2 <= small < a.pieces:
        have = "no tables" if oracle is None else f"tables of up to {oracle.max_pieces} pieces"
        print(f"endgame_measure: needs tables of {a.pieces} pieces and 2 <= --small < {a.pieces}; found {have} "
              f"(build them: python tools/build_endgame_db.py --max-pieces {a.pieces})", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    if a.proofs:
        proven, wrong = proofs(oracle, a.proofs, a.pieces, a.seed, a.proof_nodes)
        print(f"{a.proofs} random {a.pieces}-piece positions (seed {a.seed}) searched without tables to "
              f"{a.proof_nodes:,} nodes: {proven} proven "
              f"won or lost, {len(wrong)} disagree with the table ({time.perf_counter() - t0:.0f} s)"
              + "".join(f"\n  {w}" for w in wrong))
        return 1 if wrong else 0
    fens, drawn = sample(oracle, a.positions, a.pieces, a.seed, a.hard)
    from ai.agents.agents import parse_settings
    from ai.agents.profiles import profile_for
    profile = profile_for("checkers")
    settings = parse_settings(a.agent, profile)
    evaluate = profile.evaluator(settings)
    unit = abs(profile.weights_of(settings).get("men", 1.0)) or 1.0
    statics = [{"value": oracle.probe_state(s), "eval": float(evaluate(s, s.turn)), "unit": unit} for s in drawn
               if not any(m.captures for m in G.legal_moves(s))]
    jobs = [(f, n) for f in fens for n in (small, a.pieces)]
    try:
        if a.jobs > 1:
            with mp.get_context("spawn").Pool(a.jobs, _init, (a.agent, small, a.pieces)) as pool:
                rows = pool.map(_decide, jobs, chunksize=1)
        else:
            _init(a.agent, small, a.pieces)
            rows = [_decide(j) for j in jobs]
    except KeyboardInterrupt:
        print("endgame_measure: interrupted", file=sys.stderr)
        return 130
    from gameplay.rules.compiled import status_line
    figures: dict[str, Any] = {
        "command": "python tools/endgame_measure.py " + " ".join(sys.argv[1:] if argv is None else argv),
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(), "date": date.today().isoformat(),
        "build": status_line(), "oracle": oracle.describe(), "positions": len(fens), "drawn_at_random": len(drawn),
        "wall_s": time.perf_counter() - t0}
    lines = [f"{len(fens)} positions of {a.pieces} pieces where "
             f"{'exactly one move keeps' if a.hard else 'some move changes'} the table's value "
             f"(of {len(drawn)} drawn at random, seed {a.seed}); agent {a.agent}; {figures['build']}"]
    for n in (small, a.pieces):
        mine = [r for r in rows if r["tables"] == n]
        kept = sum(r["kept"] for r in mine)
        figures[f"kept_{n}"] = [kept, len(mine)]
        split = []
        for v in (1, 0):  # a lost position is never sampled: every move keeps a loss
            part = [r for r in mine if r["value"] == v]
            figures[f"kept_{n}_{NAMES[v]}"] = [sum(r["kept"] for r in part), len(part)]
            split.append(f"{NAMES[v]} {sum(r['kept'] for r in part)}/{len(part)}")
        depths = sorted(r["depth"] for r in mine)
        cpu = sorted(r["cpu_s"] for r in mine)
        lines.append(f"(a{'' if n == small else '+'}) tables up to {n} pieces: kept the value {_share(kept, len(mine))}"
                     f" ({', '.join(split)}); depth median {depths[len(depths) // 2]}, CPU s median "
                     f"{cpu[len(cpu) // 2]:.2f}")
        lost: dict[str, int] = {}
        for r in mine:
            if not r["kept"]:
                st = parse_fen(r["fen"])
                key = f"{NAMES[r['value']]}->{NAMES[r['after']]} " + edb.label(
                    edb.material_of(st.black, st.white, st.kings) if st.turn == 0
                    else edb.swap(edb.material_of(st.black, st.white, st.kings)))
                lost[key] = lost.get(key, 0) + 1
        if lost:
            lines.append("    values lost (mover's pieces first): " + ", ".join(
                f"{k} x{v}" for k, v in sorted(lost.items(), key=lambda kv: -kv[1])))
    quiet = [r for r in rows if r["tables"] == small and r["quiet"]]
    for key, what, of in (("eval", "static evaluation", statics),
                          ("search_value", f"search value (tables up to {small})", quiet)):
        ok = sum(_agrees(r["value"], r[key], r["unit"]) for r in of)
        figures[f"sign_{key}"] = [ok, len(of)]
        split = [f"{NAMES[v]} {sum(_agrees(v, r[key], r['unit']) for r in of if r['value'] == v)}/"
                 f"{sum(r['value'] == v for r in of)}" for v in (1, 0, -1)]
        where = "drawn at random" if key == "eval" else "measured"
        lines.append(f"(b) {what} agrees with the table on the {len(of)} quiet positions {where}: "
                     f"{_share(ok, len(of))} ({', '.join(split)})")
    lines.append(f"wall {figures['wall_s']:.0f} s; {figures['machine']}, {figures['date']}")
    print("\n".join(lines))
    if a.json is not None:
        write_text(a.json, json.dumps({"figures": figures, "decisions": rows}) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
