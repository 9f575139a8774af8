"""tools/texel.py's real-game source: the quiet positions of a PDN archive labelled with each game's result (games
without a result or with an error skipped), the seeded sample, the held-out games, and the command line."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.checkers.checkers_board import CheckersState

ROOT = Path(__file__).resolve().parent.parent
G = Checkers()


@pytest.fixture(scope="module")
def texel() -> Any:
    spec = importlib.util.spec_from_file_location("texel_tool", ROOT / "tools" / "texel.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules["texel_tool"] = mod
    spec.loader.exec_module(mod)
    return mod


# A: plies 0..7; 10x17 (ply 6) and 21x14 (ply 7) are captures, so from ply 2 on the quiet positions are the ones
#    before plies 2, 3, 4, 5: 4 positions, Black won (1).
# B: plies 0..3, from ply 2 on: 2 quiet positions, White won (0).
# C: no result (*): skipped.  D: 11-16 is not a move after 11-15 (11 is empty): a bad game, skipped.
# E: the position before ply 2 (6-10; Black's 14 cannot jump 17, 21 is held): 1 position, a draw (0.5).
PDN = """[Event "A"]
[Result "1-0"]
1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 1-0

[Event "B"]
[Result "0-1"]
1. 11-15 24-20 2. 8-11 28-24 0-1

[Event "C"]
1. 9-13 22-18 *

[Event "D"]
[Result "1-0"]
1. 11-15 11-16 1-0

[Event "E"]
[Result "1/2-1/2"]
1. 10-14 22-17 2. 6-10 1/2-1/2
"""


@pytest.fixture
def pdn(tmp_path: Path) -> Path:
    f = tmp_path / "games.pdn"
    f.write_text(PDN, encoding="utf-8")
    return f


def test_pdn_positions(texel: Any, pdn: Path) -> None:
    pos, y, ids, st = texel.pdn_positions(pdn, skip_plies=2, quiet=True)
    assert (st["games"], st["used"], st["no_result"], st["bad"]) == (5, 3, 1, 1)
    assert (st["black_wins"], st["draws"], st["white_wins"]) == (1, 1, 1)
    assert st["candidates"] == st["kept"] == 7
    assert y.tolist() == [1.0] * 4 + [0.0] * 2 + [0.5]
    assert ids.tolist() == [0, 0, 0, 0, 1, 1, 4]
    # the first position taken is game A after 11-15 23-19, Black to move; every one is quiet
    first = G.parse_position("B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15")
    assert tuple(pos[0]) == (first.black, first.white, first.kings, first.turn)
    for b, w, k, t in pos.tolist():
        assert not G.noisy_actions(CheckersState(b, w, k, t))


def test_pdn_sample_is_seeded(texel: Any, pdn: Path) -> None:
    full, _, _, _ = texel.pdn_positions(pdn, skip_plies=2, quiet=True)
    a, ya, _, st = texel.pdn_positions(pdn, skip_plies=2, positions=3, seed=5, quiet=True)
    b, _, _, _ = texel.pdn_positions(pdn, skip_plies=2, positions=3, seed=5, quiet=True)
    assert (st["candidates"], st["kept"]) == (7, 3) and len(ya) == 3
    assert np.array_equal(a, b)
    rows = [tuple(r) for r in full.tolist()]
    assert all(tuple(r) in rows for r in a.tolist())


def test_holdout_keeps_games_whole(texel: Any) -> None:
    ids = np.array([0, 0, 0, 0, 1, 1, 4])
    held = texel.holdout_mask(ids, 0.5, 1)
    assert len({g for g, h in zip(ids.tolist(), held.tolist()) if h}) == 2  # round(0.5 * 3 games)
    for g in (0, 1, 4):
        assert len(set(held[ids == g].tolist())) == 1
    assert np.array_equal(held, texel.holdout_mask(ids, 0.5, 1))
    assert not texel.holdout_mask(ids, 0.0, 1).any()


def test_command_line(texel: Any, pdn: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "w.toml"
    assert texel.main(["--pdn", str(pdn), "--skip-plies", "2", "--exclude", "mobility", "--out", str(out),
                       "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "5 games read, 3 used" in text and "7 quiet positions from ply 2 on, 7 kept" in text
    assert 'name = "alphabeta"' in out.read_text() and "dominated_kings = " in out.read_text()
    assert texel.main(["--pdn", str(tmp_path / "missing.pdn"), "--quiet"]) == 2
    assert "cannot read" in capsys.readouterr().err


# tools/spar.py journal lines: game 0, ours Black, so the engine (Cake) is White and moves first from START;
# its three positions are before 22-17 (quiet), before 17-14 (quiet) and before 21x14 (a capture: not taken).
START = "W:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12,15"
MOVES = ["22-17", "9-13", "17-14", "10x17", "21x14"]


def _line(index: int, our_side: int, moves: list[str], values: list[int | None], start: str = START) -> str:
    import json
    return json.dumps({"index": index, "our_side": our_side, "start": start, "moves": moves,
                       "engine_values": values, "agent": "expert"})


def test_journal_positions_take_the_engines_quiet_positions_with_its_value_from_blacks_side(
        texel: Any, tmp_path: Path) -> None:
    f = tmp_path / "spar.jsonl"
    f.write_text("\n".join([
        _line(0, 0, MOVES, [999, 999, 999]),         # replaced by the next line of the same game
        _line(0, 0, MOVES, [100, -40, 30]),
        # game 3, ours White: the engine is Black; 9-13 is a book move (None), then a quiet position with its 70;
        # then a move that does not replay (12-8: a man moving back), so the positions before it are kept and the
        # game is counted as broken
        _line(3, 1, ["26-23", "9-13", "30-26", "12-8"], [None, 70]),
    ]) + "\n", encoding="utf-8")
    pos, y, ids, st = texel.journal_positions([f], label_k=0.5)
    assert (st["games"], st["values"], st["noisy"], st["kept"], st["broken"]) == (2, 4, 1, 3, 1)
    s0 = G.parse_position(START)
    s1 = s0
    for text in MOVES[:2]:
        s1 = G.result(s1, G.parse_move(s1, text))
    assert [tuple(r) for r in pos.tolist()[:2]] == [(s.black, s.white, s.kings, s.turn) for s in (s0, s1)]
    sig = lambda v: 1.0 / (1.0 + np.exp(-0.5 * v / 100.0))  # noqa: E731
    # White's +100 is Black's -100; White's -40 is Black's +40; the engine as Black: +70 is Black's +70
    assert y.tolist() == pytest.approx([sig(-100), sig(40), sig(70)])
    assert ids.tolist() == [0, 0, 3]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"index": 1}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="bad.jsonl:1: not a game record"):
        texel.journal_positions([bad])


def test_journal_command_line_fits_and_refuses_two_sources(texel: Any, pdn: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "spar.jsonl"
    f.write_text(_line(0, 0, MOVES, [100, -40, 30]) + "\n" + _line(1, 0, MOVES, [-20, 10, 5]) + "\n",
                 encoding="utf-8")
    assert texel.main(["--journal", str(f), "--exclude", "mobility", "--quiet"]) == 0
    assert "2 games, 6 engine values, 2 of them at a capture (not taken), 4 kept" in capsys.readouterr().out
    assert texel.main(["--journal", str(f), "--pdn", str(pdn), "--quiet"]) == 2
    assert "one of --pdn, --journal, --load" in capsys.readouterr().err
    assert texel.main(["--journal", str(tmp_path / "none.jsonl"), "--quiet"]) == 2
    assert "cannot read the journal" in capsys.readouterr().err


def test_test_journal_prints_the_loss_on_games_not_fitted(texel: Any, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    fit, test = tmp_path / "fit.jsonl", tmp_path / "test.jsonl"
    fit.write_text(_line(0, 0, MOVES, [100, -40, 30]) + "\n" + _line(1, 0, MOVES, [-20, 10, 5]) + "\n")
    test.write_text(_line(5, 0, MOVES, [60, 20, None]) + "\n")
    assert texel.main(["--journal", str(fit), "--test-journal", str(test), "--exclude", "mobility", "--quiet"]) == 0
    assert "test journals (1 games, 2 positions) MSE" in capsys.readouterr().out
    test.write_text(_line(6, 0, MOVES, [None, None, None]) + "\n")  # book moves only: nothing to test on
    assert texel.main(["--journal", str(fit), "--test-journal", str(test), "--exclude", "mobility", "--quiet"]) == 0
    assert "test journals (1 games): no quiet position with an engine value" in capsys.readouterr().out


def test_an_unreadable_test_journal_is_refused_before_the_fit(texel: Any, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    fit = tmp_path / "fit.jsonl"
    fit.write_text(_line(0, 0, MOVES, [100, -40, 30]) + "\n")
    assert texel.main(["--journal", str(fit), "--test-journal", str(tmp_path / "gone.jsonl"), "--quiet"]) == 2
    captured = capsys.readouterr()
    assert "cannot read the test journal" in captured.err and "K = " not in captured.out
