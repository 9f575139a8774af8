"""Where the games we lost to the outside engine turned, and what other searches would have played there.

Usage::

    python tools/spar_turns.py JOURNAL [JOURNAL ...] [--agent SPEC ...] [--json]

Input: the journals of ``tools/spar.py`` (one JSON game record a line). For each game our agent lost, the **turning
move** is ours: of the engine's printed values (a man = 100, its own view) up to the first that reaches +100, the
pair of consecutive values with the largest rise is taken, and our move between the two is the one after which the
engine saw its win (typically from 0-20 to +100 or more). That is the method of ``docs/strength.md`` ("Material
truncation"): a move our 1 s search liked and a longer search would not play is a depth miss; one a longer search
plays too is a judgement (evaluation) miss.

Each ``--agent SPEC`` (repeatable; say ``clock=cpu`` and ``time=`` for a fair budget) searches every turning
position once, in this process, and the table gives its move, value (a man = 100 with the shipped weights) and
depth. The summary counts, for each agent, the positions where it plays another move than the one played, and, when
two or more agents are given, where it agrees with the last (give the longest search last: the reference).

Exit code 0; 2 with one ``error:`` line on bad arguments or a journal line that is not a game record.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gameplay.rules.base import GameError  # noqa: E402
from gameplay.rules.checkers.checkers import Checkers  # noqa: E402

TURN = 100
"""A man: the engine's value at which a lost game has turned (``tools/spar.py``'s ``TURN``)."""


@dataclass
class Turn:
    """One lost game's turning move: the position before it (FEN), the move played, the engine's values around it,
    and each agent's ``(move, value, depth)`` there."""

    journal: str
    index: int
    ply: int
    """Plies after the ballot's start position."""
    fen: str
    played: str
    engine_before: int
    engine_after: int
    searched: dict[str, tuple[str, float | None, int | None]] = field(default_factory=dict)


def turning_ply(rec: dict[str, Any]) -> tuple[int, int, int] | None:
    """``(ply of our turning move, the engine's value before it, after it)`` of one lost game record, or ``None``
    when the engine never printed +100 after a value of its own before it (the game turned in its book)."""
    ev: list[int | None] = rec["engine_values"]
    first = next((k for k, v in enumerate(ev) if v is not None and v >= TURN), None)
    if first is None:
        return None
    pairs = [(ev[k] - ev[k - 1], k) for k in range(1, first + 1)  # type: ignore[operator]
             if ev[k] is not None and ev[k - 1] is not None]
    if not pairs:
        return None
    _, k = max(pairs)
    # the engine's k-th move is at ply 2k + 1 when we move first from the ballot's start, else at 2k
    we_first = rec["start"][:1] == "BW"[rec["our_side"]]
    ply = 2 * k if we_first else 2 * k - 1
    return ply, int(ev[k - 1]), int(ev[k])  # type: ignore[arg-type]


def read_turns(paths: list[Path]) -> list[Turn]:
    """The turning move of every lost game in the journals (games that failed are left out).

    Raises:
        OSError: a file cannot be read. ValueError: a line is not a game record of ``tools/spar.py`` or its moves do
            not replay from its start position.
    """
    g = Checkers()
    out: list[Turn] = []
    for path in paths:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
                if rec.get("failure") or rec["winner"] != "engine":
                    continue
                t = turning_ply(rec)
                if t is None:
                    continue
                ply, before, after = t
                s = g.parse_position(rec["start"])
                for m in rec["moves"][:ply]:
                    s = g.successor(s, g.parse_move(s, m))
                out.append(Turn(str(path), int(rec["index"]), ply, g.format_position(s), rec["moves"][ply],
                                before, after))
            except (ValueError, KeyError, TypeError, IndexError, GameError) as e:
                raise ValueError(f"{path}:{n}: not a game record of tools/spar.py ({e})") from None
    return out


def search_turns(turns: list[Turn], agents: list[str]) -> None:
    """Fill each turn's ``searched`` with every agent's ``(move, value, depth)`` (one search each, in order).

    Raises:
        GameError: a bad agent spec.
    """
    from ai.agents.agents import make_agent
    g = Checkers()
    made = [(spec, make_agent("checkers", spec)) for spec in agents]
    for t in turns:
        s = g.parse_position(t.fen)
        for spec, agent in made:
            r = agent.choose(s)
            move = g.format_move(s, r.move) if r.move is not None else "-"
            t.searched[spec] = (move, r.value, r.depth)


def summary(turns: list[Turn], agents: list[str]) -> dict[str, Any]:
    """Per agent: the positions searched, those where it plays another move than the one played, and (two agents
    or more) those where it plays the last agent's move."""
    out: dict[str, Any] = {}
    ref = agents[-1] if len(agents) > 1 else None
    for spec in agents:
        moves = [(t.searched[spec][0], t.played, t.searched[ref][0] if ref else None) for t in turns]
        row: dict[str, Any] = {"positions": len(moves), "other_than_played": sum(m != p for m, p, _ in moves)}
        if ref is not None and spec != ref:
            row["as_reference"] = sum(m == r for m, _, r in moves)
        out[spec] = row
    return out


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="tools/spar_turns.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("journals", nargs="+", type=Path, help="journals of tools/spar.py")
    ap.add_argument("--agent", action="append", default=[],
                    help="search each turning position with this agent (repeatable; the last is the reference)")
    ap.add_argument("--json", action="store_true", help="print exactly one JSON object")
    return ap


def main(argv: list[str] | None = None) -> int:
    a = build_parser().parse_args(argv)
    try:
        turns = read_turns(a.journals)
        search_turns(turns, a.agent)
    except (OSError, ValueError, GameError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    summ = summary(turns, a.agent)
    if a.json:
        print(json.dumps({"turns": [asdict(t) for t in turns], "summary": summ}))
        return 0
    for t in turns:
        cells = [f"{m} {'' if v is None else round(v)} d{d}" for m, v, d in t.searched.values()]
        print(" | ".join([f"{Path(t.journal).name} game {t.index} ply {t.ply}: {t.fen} played {t.played} "
                          f"(engine {t.engine_before} -> {t.engine_after})"] + cells))
    print(f"{len(turns)} lost games with a turning move")
    for spec, row in summ.items():
        extra = f", the reference's move in {row['as_reference']}" if "as_reference" in row else ""
        print(f"{spec}: another move than played in {row['other_than_played']} of {row['positions']}{extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
