"""tools/cake_label.py: real games' positions labelled with the outside engine's value, against a stand-in of its
console program (tests/data/fake_cake.py), and read back by tools/texel.py."""

from __future__ import annotations

import json
import math
import stat
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ai.agents.profiles import game_for  # noqa: E402
from tests.data.fake_cake import fake_value  # noqa: E402
from tools import cake_label, texel  # noqa: E402

GAME = game_for("checkers")
FAKE = ROOT / "tests" / "data" / "fake_cake.py"
MOVES = "11-15 23-19 8-11 22-17 9-13 17-14 10x17 21x14 15-18 24-20 6-10 26-23"
"""A real opening (10x17 21x14 is an exchange, so material changes on the way)."""


@pytest.fixture()
def fake_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    exe = tmp_path / "fake-cake"
    exe.write_text(f"#!/bin/sh\nexec {sys.executable} {FAKE} \"$@\"\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("FAKE_CAKE_MATERIAL", "1")
    return str(exe)


@pytest.fixture()
def archive(tmp_path: Path) -> Path:
    moves = MOVES.split()
    body = " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves))
    p = tmp_path / "games.pdn"
    p.write_text(f'[Event "one"]\n[Result "1/2-1/2"]\n{body} 1/2-1/2\n\n[Event "two"]\n[Result "1-0"]\n'
                 f'1. 11-15 23-19 2. 8-11 1-0\n', encoding="utf-8")
    return p


def _positions() -> list:
    s = GAME.initial_state()
    out = [s]
    for text in MOVES.split():
        s = GAME.result(s, GAME.parse_move(s, text))
        out.append(s)
    return out


def test_quiet_positions_of_the_chosen_plies_are_candidates(archive: Path) -> None:
    from tools.games_book import pdn_games
    games = list(pdn_games(archive.read_text()))
    tasks = cake_label.candidates(games, 2, 8)
    pos = _positions()
    want = [p for p in range(2, 9) if not GAME.noisy_actions(pos[p])]
    assert [(g, ply) for g, ply, *_ in tasks if g == 0] == [(0, p) for p in want]
    assert 6 not in want and 7 not in want  # 10x17 and 21x14 are forced: not candidates
    g, ply, before, move, s = tasks[0]
    assert GAME.result(before, move) == s == pos[ply]
    # game two has 3 plies: its candidates stop at its last position
    assert [ply for g, ply, *_ in tasks if g == 1] == [2]
    # a larger sample with the same seed extends a smaller one
    assert cake_label.pick(tasks, 3, 5) == cake_label.pick(tasks, 5, 5)[:3]


def test_labels_are_the_engines_values_from_blacks_side_and_resume(fake_engine: str, archive: Path,
                                                                    tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "labels.jsonl"
    args = ["--pdn", str(archive), "--out", str(out), "--engine", fake_engine, "--plies", "1-12", "--quiet"]
    assert cake_label.main([*args, "--positions", "4", "--jobs", "2"]) == 0
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(recs) == 4
    pos = _positions()
    for r in recs:
        s = GAME.parse_position(r["position"])
        if r["game"] == 0:
            assert s == pos[r["ply"]]
        # the stand-in's value is one of the position it is to move in, its side's view
        black = fake_value(s.black, s.white)
        assert black != 0 and r["value_black"] == black
        assert r["value"] == (black if s.turn == 0 else -black)
    assert {GAME.parse_position(r["position"]).turn for r in recs} == {0, 1}  # both sides' views were turned
    capsys.readouterr()
    # run again with more: the four are skipped, the rest labelled, nothing twice
    assert cake_label.main([*args, "--positions", "50"]) == 0
    assert "4 already in" in capsys.readouterr().out
    keys = [(json.loads(x)["game"], json.loads(x)["ply"]) for x in out.read_text().splitlines()]
    # game one's quiet positions of plies 1-11 (its last position ends the game: no move from it is recorded)
    # and game two's plies 1 and 2
    quiet = [p for p in range(1, 12) if not GAME.noisy_actions(pos[p])]
    assert sorted(keys) == [(0, p) for p in quiet] + [(1, 1), (1, 2)]
    # texel reads the labels as positions with the engine's value, from Black's side
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    pos_arr, labels, ids, st = texel.journal_positions([out])
    assert st["kept"] == len(recs) and list(ids) == [texel.FILE_IDS * 0 + r["game"] for r in recs]
    assert labels == pytest.approx([1 / (1 + math.exp(-texel.LABEL_K * r["value_black"] / 100)) for r in recs])


def test_a_book_move_or_bad_input_is_refused(fake_engine: str, archive: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "labels.jsonl"
    base = ["--pdn", str(archive), "--out", str(out), "--quiet"]
    monkeypatch.setenv("FAKE_CAKE_BOOK", "1")
    assert cake_label.main([*base, "--engine", fake_engine, "--positions", "2"]) == 2
    assert "book" in capsys.readouterr().err
    assert not out.exists() or out.read_text() == ""
    monkeypatch.delenv("FAKE_CAKE_BOOK")
    monkeypatch.delenv("ARCADE_SPAR_ENGINE", raising=False)
    assert cake_label.main(base) == 2
    assert "no engine program" in capsys.readouterr().err
    for bad in (["--plies", "9-3"], ["--plies", "x"], ["--positions", "0"], ["--jobs", "0"]):
        assert cake_label.main([*base, "--engine", fake_engine, *bad]) == 2
        assert capsys.readouterr().err.startswith("error:")
    out.write_text("{not a label}\n")
    assert cake_label.main([*base, "--engine", fake_engine]) == 2
    assert out.read_text() == "{not a label}\n"  # what was there is kept


def test_agreement_counts_the_men_each_side_sees() -> None:
    from tools.cake_agree import agreement
    cake, ours = [150.0, -200.0, 20.0, 0.0, 900.0], [80.0, -20.0, 30.0, 120.0, 1e15]
    got = agreement(cake, ours)
    assert got["positions"] == 5
    assert (got["cake_sees_man"], got["we_agree"], got["we_see_man"], got["cake_agrees"]) == (3, 2, 2, 1)
    # a proven win counts as 5 men: it does not swamp the correlation
    assert got["mean_abs_diff"] == pytest.approx((70 + 180 + 10 + 120 + 0) / 5)  # 900 and 1e15 both clip to 500
    assert got["pearson"] == pytest.approx(float(np.corrcoef([150, -200, 20, 0, 500], [80, -20, 30, 120, 500])[0, 1]))


def test_cake_agree_searches_the_labelled_positions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tools import cake_agree
    pos = _positions()
    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(json.dumps({"game": 0, "ply": p, "position": GAME.format_position(pos[p]),
                                          "value": 10 * p, "value_black": 10 * p}) + "\n" for p in (1, 2, 3, 4)))
    args = ["--labels", str(labels), "--agent", "alphabeta:depth=2", "--positions", "3", "--json"]
    assert cake_agree.main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["positions"] == out["sampled"] == 3 and out["book"] == 0 and out["median_depth"] == 2
    assert cake_agree.main([*args[:-1], "--worst", "2"]) == 0
    listed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]
    assert len(listed) == 2 and all("Cake" in line and "ours" in line for line in listed)
    assert cake_agree.main(["--labels", str(tmp_path / "missing.jsonl")]) == 2
    assert cake_agree.main(["--labels", str(labels), "--agent", "alphabeta:depth=x"]) == 2
    labels.write_text('{"game": 1}\n')
    assert cake_agree.main(["--labels", str(labels)]) == 2
    assert "not a label" in capsys.readouterr().err
