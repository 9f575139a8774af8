"""``main.py match``: JSON shape, colours alternate, Elo figures, ballots deck."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gameplay.cli.match import elo
from gameplay.rules.checkers.ballots import load_ballots

ROOT = Path(__file__).resolve().parent.parent


def test_match_json_shape_and_alternation() -> None:
    r = subprocess.run([sys.executable, "main.py", "match", "tictactoe", "--p1", "expert", "--p2", "random:seed=3",
                        "--games", "8", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)
    for k in ("game", "games", "p1", "p2", "p1_wins", "p2_wins", "draws", "p1_score", "elo_diff", "elo_error_95",
              "elapsed_s", "games_list"):
        assert k in obj
    assert obj["games"] == 8 and obj["p2_wins"] == 0  # the expert never loses
    assert obj["p1_wins"] + obj["draws"] == 8
    assert [g["p1_first"] for g in obj["games_list"]] == [True, False] * 4
    assert obj["p1_score"] == (obj["p1_wins"] + obj["draws"] / 2) / 8


def test_elo_figures() -> None:
    assert elo(0.5, 4, [1, 0, 1, 0])[0] == 0
    d, e = elo(0.75, 4, [1, 1, 1, 0])
    assert round(d) == 191 and e > 0
    d1, _ = elo(1.0, 10, [1.0] * 10)  # clamped, finite
    assert 0 < d1 < 1000


def test_ballot_deck_has_156_openings() -> None:
    deck = load_ballots()
    assert len(deck) == 156
    assert len({b.number for b in deck}) == 156
    assert all(len(b.moves) == 3 and b.fen.startswith("W:") for b in deck)
    assert 26 not in {b.number for b in deck}  # barred (see the file's header)
    assert len(load_ballots(deck_only=False)) == 174


def test_match_refuses_humans_and_bad_counts() -> None:
    for args, needle in ((("--p1", "human", "--p2", "expert"), "human"),
                         (("--p1", "expert", "--p2", "expert", "--games", "0"), "--games")):
        r = subprocess.run([sys.executable, "main.py", "match", "tictactoe", *args], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and needle in r.stderr and "Traceback" not in r.stderr


def test_match_from_a_finished_position_is_refused() -> None:
    r = subprocess.run([sys.executable, "main.py", "match", "tictactoe", "--p1", "expert", "--p2", "random",
                        "--position", "XXXOO...."], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "is over" in r.stderr


def test_match_pdn_goes_to_the_data_folder(tmp_path: Path) -> None:
    import os
    env = dict(os.environ, ARCADE_DATA_DIR=str(tmp_path))
    r = subprocess.run([sys.executable, "main.py", "match", "checkers", "--p1", "beginner", "--p2", "beginner",
                        "--games", "2", "--quiet", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=120,
                       env=env)
    assert r.returncode == 0, r.stderr
    saved = Path(json.loads(r.stdout)["saved"])
    assert saved.parent == tmp_path / "matches" and saved.exists()
    from gameplay.rules.checkers.pdn_read import read_games
    assert len(read_games(saved.read_text(encoding="utf-8"))) == 2


def test_elo_text_says_when_there_is_no_spread() -> None:
    """A sweep or all draws gave "Elo -191 +/- 0" and "Elo -0" (found by a new user)."""
    from gameplay.cli.match import elo_text
    assert elo_text(-190.8, 0.0, 0, 2, 0) == "Elo below -191 (every game lost: no lower bound from these games)"
    assert elo_text(190.8, 0.0, 2, 0, 0).startswith("Elo above +191")
    assert elo_text(-0.0, 0.0, 0, 0, 4) == "Elo +0 (every game drawn: no spread to measure an error from)"
    assert elo_text(-0.3, 120.0, 1, 1, 0) == "Elo +0 +/- 120 (95%)"
    assert elo_text(35.2, 60.4, 6, 4, 2) == "Elo +35 +/- 60 (95%)"


def test_a_match_says_when_its_games_repeat(capsys: pytest.CaptureFixture[str]) -> None:
    """Two fixed-depth searches from the same start play two games (one per colour) however many are asked for;
    the summary says so, and the JSON counts the distinct games."""
    from gameplay import cli
    assert cli.run(["match", "connect4", "--p1", "alphabeta:depth=1", "--p2", "alphabeta:depth=2", "--games", "4",
                    "--quiet"]) == 0
    assert "note: only 2 of the 4 games differ" in capsys.readouterr().out
    assert cli.run(["match", "connect4", "--p1", "alphabeta:depth=1", "--p2", "alphabeta:depth=2", "--games", "4",
                    "--quiet", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["distinct_games"] == 2
