"""tools/spar_turns.py: the turning move of a lost game found from the engine's values (the largest rise up to its
first +100), the position before it replayed from the ballot, games won or failed left out, bad lines refused, and
each agent's move there with the summary."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gameplay.rules.checkers.checkers import Checkers  # noqa: E402
from tools import spar_turns as turns  # noqa: E402

G = Checkers()
START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


def _game(plies: int, our_side: int, engine_values: list[int | None], winner: str = "engine") -> tuple[dict[str, Any],
                                                                                                     list[str]]:
    s = G.parse_position(START)
    moves, fens = [], []
    for _ in range(plies):
        m = sorted(G.actions(s), key=lambda m: G.format_move(s, m))[0]
        fens.append(G.format_position(s))
        moves.append(G.format_move(s, m))
        s = G.successor(s, m)
    rec = {"index": 7, "opening": "test", "our_side": our_side, "winner": winner, "plies": plies,
           "termination": "test", "moves": moves, "start": START, "engine_values": engine_values}
    return rec, fens


def test_the_turn_is_our_move_before_the_largest_rise(tmp_path: Path) -> None:
    # we are Black and Black moves first: our moves at plies 0, 2, 4 ..., the engine's k-th at ply 2k + 1
    rec, fens = _game(8, 0, [None, 10, 30, 150])
    assert turns.turning_ply(rec) == (6, 30, 150)  # the rise 30 -> 150 is the largest: our move at ply 6
    # the engine first (we are White): its k-th move at ply 2k, ours between k - 1 and k at ply 2k - 1
    rec2, _ = _game(8, 1, [5, 90, 95, 160])
    assert turns.turning_ply(rec2) == (1, 5, 90)
    won, _ = _game(8, 0, [0, 0, 0, 0], winner="agent")
    book, _ = _game(8, 0, [None, None, 200, 300])  # +100 with no value of its own before it: no turn
    assert turns.turning_ply(book) is None
    f = tmp_path / "j.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in (rec, won, book, {**rec, "failure": "broken"})) + "\n")
    got = turns.read_turns([f])
    assert len(got) == 1 and got[0].fen == fens[6] and got[0].played == rec["moves"][6] and got[0].ply == 6
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"winner": "engine"}\n')
    with pytest.raises(ValueError, match="bad.jsonl:1: not a game record"):
        turns.read_turns([bad])


def test_the_command_searches_each_turn_with_each_agent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec, fens = _game(8, 0, [None, 10, 30, 150])
    f = tmp_path / "j.jsonl"
    f.write_text(json.dumps(rec) + "\n")
    assert turns.main([str(f), "--agent", "alphabeta:depth=1", "--agent", "alphabeta:depth=3", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (t,) = doc["turns"]
    legal = {G.format_move(G.parse_position(fens[6]), m) for m in G.actions(G.parse_position(fens[6]))}
    assert {v[0] for v in t["searched"].values()} <= legal and t["searched"]["alphabeta:depth=3"][2] == 3
    row = doc["summary"]["alphabeta:depth=1"]
    assert row["positions"] == 1 and row["as_reference"] in (0, 1) and row["other_than_played"] in (0, 1)
    assert turns.main([str(f), "--agent", "nosuch:depth=1"]) == 2
    assert capsys.readouterr().err.startswith("error: ")
