"""tools/spar.py and tools/cake_engine.py: the driver of the outside engine, checked against Cake's own output and
played end to end against a stand-in of its console program (tests/data/fake_cake.py); the real Cake plays one
game when $ARCADE_SPAR_ENGINE names it (it is never shipped, so CI skips that one)."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ai.agents.profiles import game_for  # noqa: E402
from tools import spar  # noqa: E402
from tools.cake_engine import (  # noqa: E402
    CakeEngine,
    EngineFailure,
    EngineResigned,
    board_text,
    cake_bit,
    parse_board,
    state_pieces,
)

GAME = game_for("checkers")
FAKE = ROOT / "tests" / "data" / "fake_cake.py"

# What Cake 1.20 printed (Black's view, White to move) after the user played 11-15 from the start position
CAKE_AFTER_11_15 = """
.  ~~~~~~~~~~~~~~~ 
     w   w   w   w 
   w   w   w   w   
     w   w   w   w 
   -   -   -   -   
     -   b   -   - 
   b   -   b   b   
     b   b   b   b 
   b   b   b   b   
"""  # noqa: W291 - Cake's rows end with a space


@pytest.fixture()
def fake_engine(tmp_path: Path) -> str:
    """An executable that runs the stand-in with this interpreter."""
    exe = tmp_path / "fake-cake"
    exe.write_text(f"#!/bin/sh\nexec {sys.executable} {FAKE} \"$@\"\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return str(exe)


def test_squares_map_to_cakes_bits_as_its_own_board_shows() -> None:
    # Cake's 11-15 emptied bit 9 and filled bit 13 (its board above): b[2][2] and b[3][3]
    assert cake_bit(11) == 9 and cake_bit(15) == 13
    assert sorted(cake_bit(s) for s in range(1, 33)) == list(range(32))
    with pytest.raises(ValueError):
        cake_bit(33)


def test_cakes_printed_board_reads_as_the_position_after_11_15() -> None:
    s = GAME.initial_state()
    after = GAME.result(s, GAME.parse_move(s, "11-15"))
    assert parse_board(CAKE_AFTER_11_15.splitlines()) == state_pieces(after)


def test_board_text_round_trips_in_both_views() -> None:
    s = GAME.parse_position("W:WK2,17,19,21:B12,16,K18")
    for black_view in (True, False):
        text = board_text(state_pieces(s), black_view)
        assert parse_board(text.splitlines()) == state_pieces(s)
        assert text.splitlines()[1].startswith(" " if black_view else "*")


@pytest.mark.parametrize("mode, timeout, words", [("FAKE_CAKE_BAD_BOARD", 30, "matches none of the legal moves"),
                                                  ("FAKE_CAKE_SILENT", 1, "said nothing")])
def test_a_board_no_move_gives_or_silence_is_a_failure_not_a_guess(fake_engine: str, mode: str, timeout: float,
                                                                   words: str, monkeypatch: pytest.MonkeyPatch
                                                                   ) -> None:
    monkeypatch.setenv(mode, "1")
    eng = CakeEngine(fake_engine, 1, timeout=60)  # starting and loading: a cap only a hang reaches
    try:
        s = GAME.initial_state()
        m = GAME.parse_move(s, "11-15")
        eng.load(s)
        eng.timeout = timeout  # only the answer to our move is timed by the case's limit
        with pytest.raises(EngineFailure, match=words):
            eng.move(GAME, s, m, GAME.result(s, m))
    finally:
        eng.close()


def test_resignation_is_reported(fake_engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_CAKE_RESIGN_AFTER", "2")
    eng = CakeEngine(fake_engine, 1, timeout=30)
    try:
        s = GAME.initial_state()
        m = GAME.parse_move(s, "11-15")
        after = GAME.result(s, m)
        reply = eng.move(GAME, s, m, after)
        s = GAME.result(after, reply.move)
        m = GAME.actions(s)[0]
        with pytest.raises(EngineResigned):
            eng.move(GAME, s, m, GAME.result(s, m))
    finally:
        eng.close()


def test_missing_engine_is_one_clear_line(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    monkeypatch.delenv("ARCADE_SPAR_ENGINE", raising=False)
    assert spar.main(["--first", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no outside engine" in err and "--engine" in err
    assert spar.main(["--engine", "/nonexistent/cake", "--first", "1", "--quiet"]) == 2
    assert "not an executable program" in capsys.readouterr().err


@pytest.mark.parametrize("args, words", [(["--first", "0"], "--first"), (["--skip", "156"], "--skip"),
                                         (["--engine-time", "0"], "whole seconds"),
                                         (["--engine-time", "100000"], "whole seconds"), (["--agent", "nobody"], ""),
                                         (["--journal", "/nonexistent/dir/j.jsonl"], "cannot write the journal"),
                                         (["--pdn-dir", str(FAKE)], "PDN folder")])
def test_bad_input_is_refused_before_any_game(fake_engine: str, args: list[str], words: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert spar.main(["--engine", fake_engine, "--quiet", *args]) == 2
    assert words in capsys.readouterr().err


def test_a_part_of_the_deck_is_played_both_colours_refereed_and_journaled(fake_engine: str, tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]
                                                                          ) -> None:
    journal = tmp_path / "spar.jsonl"
    args = ["--engine", fake_engine, "--agent", "alphabeta:depth=2,time=5,clock=cpu", "--skip", "3", "--first", "1",
            "--journal", str(journal), "--pdn-dir", str(tmp_path), "--json"]
    assert spar.main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 2 and out["wins"] + out["draws"] + out["losses"] == 2 and not out["failures"]
    assert out["ballots"] == [3, 4] and out["engine"] == "Cake 1.20"
    from gameplay.rules.compiled import status_line
    assert out["build"] == status_line() and out["build"].startswith("search: ")  # which search ran: compiled or pure
    lines = [json.loads(x) for x in journal.read_text().splitlines()]
    assert sorted(r["index"] for r in lines) == [6, 7] and {r["our_side"] for r in lines} == {0, 1}
    from gameplay.rules.checkers.ballots import load_ballots
    ballot = load_ballots()[3]
    for r in lines:
        # every move recorded is legal from the ballot's position, replayed by our rules
        s = GAME.parse_position(r["start"])
        assert r["start"] == ballot.fen or GAME.format_position(s) == GAME.format_position(
            GAME.parse_position(ballot.fen))
        for text in r["moves"]:
            s = GAME.result(s, GAME.parse_move(s, text))
        assert len(r["moves"]) == r["plies"] and r["termination"]
        assert len(r["our_seconds"]) == sum(1 for i in range(r["plies"]) if (i % 2 == 0) == (r["our_side"] == 1))
        # each decision's seconds on the agent's own clock (CPU time here), its depth and value
        assert len(r["our_clock_seconds"]) == len(r["our_depths"]) == len(r["our_seconds"])
        assert all(t is not None and 0 <= t < 5 for t in r["our_clock_seconds"])
        assert all(1 <= d <= 2 for d in r["our_depths"]) and 2 in r["our_depths"]
    assert out["agent_budget_clock"] == "agent's clock" and out["agent_budget_share"]["max"] < 1
    pdn = Path(out["pdn"]).read_text()
    assert pdn.count("[Event ") == 2 and "Cake 1.20" in pdn
    assert all(r["build"] == status_line() for r in lines)  # each game says which search played it
    assert all(r["source"] == spar.source_commit() for r in lines)  # and the commit it was played from
    assert out["source"] == spar.source_commit()
    # a second run finds both games in the journal and plays none
    assert spar.main(args) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["from_journal"] == 2 and again["score"] == out["score"]
    # the summary of a journal says the games' build, not the replaying process's
    for r in lines:
        r["build"] = "search: pure Python (a test's build)"
    journal.write_text("".join(json.dumps(r) + "\n" for r in lines))
    assert spar.main(args) == 0
    assert json.loads(capsys.readouterr().out)["build"] == "search: pure Python (a test's build)"
    lines[0]["build"] = ""  # a line written before builds were recorded
    journal.write_text("".join(json.dumps(r) + "\n" for r in lines))
    assert spar.main(args) == 0
    assert json.loads(capsys.readouterr().out)["build"] == (
        "search: pure Python (a test's build) (1 game); build not recorded (1 game)")


def test_a_program_that_is_not_cake_is_refused_before_any_game(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert spar.main(["--engine", str(tmp_path), "--first", "1", "--quiet"]) == 2  # a folder
    assert "not an executable program" in capsys.readouterr().err
    silent = tmp_path / "silent"
    silent.write_text("#!/bin/sh\nexec cat\n")
    silent.chmod(0o755)
    journal = tmp_path / "j.jsonl"
    assert spar.main(["--engine", str(silent), "--first", "1", "--quiet", "--move-timeout", "2",
                      "--journal", str(journal)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not answer as Cake" in err
    assert journal.read_text() == ""  # no game was played or journaled


def test_a_game_the_engine_failed_is_played_again_on_resume(fake_engine: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "j.jsonl"
    failed = {"index": 0, "opening": "x", "our_side": 0, "winner": None, "plies": 0, "termination": "engine failure",
              "moves": [], "start": "", "our_seconds": [], "engine_seconds": [], "engine_values": [],
              "failure": "Cake said nothing for 60 s", "agent": "alphabeta:depth=1", "engine_time": 1}
    journal.write_text(json.dumps(failed) + "\n")
    assert spar.main(["--engine", fake_engine, "--agent", "alphabeta:depth=1", "--first", "1", "--journal",
                      str(journal), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 2 and not out["failures"] and "from_journal" not in out
    lines = [json.loads(x) for x in journal.read_text().splitlines()]
    assert sorted(r["index"] for r in lines) == [0, 0, 1]
    assert spar.read_journal(journal, "alphabeta:depth=1", 1)[0].failure is None  # the replay replaces it


def test_a_corrupt_journal_is_refused_with_its_line(fake_engine: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "spar.jsonl"
    journal.write_text("{not json\n")
    assert spar.main(["--engine", fake_engine, "--first", "1", "--journal", str(journal), "--quiet"]) == 2
    assert "spar.jsonl:1" in capsys.readouterr().err
    assert journal.read_text() == "{not json\n"


@pytest.mark.skipif(not os.environ.get("ARCADE_SPAR_ENGINE"), reason="set ARCADE_SPAR_ENGINE to Cake's program")
def test_the_real_cake_plays_a_whole_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert spar.main(["--agent", "alphabeta:depth=4,quiescence=on", "--first", "1", "--skip", "10", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 2 and not out["failures"]


def _lost(our_side: int, start: str, engine_values: list[int | None],
          our_values: list[float | None]) -> spar.SparReport:
    return spar.SparReport(0, "ACF #1", our_side, "engine", 40, "no legal move", [], start, [], [], engine_values,
                      our_values=our_values)


def test_where_the_losses_turned_counts_from_our_reply() -> None:
    # the engine (White) moves first after the ballot: our move 3 answers its move 3, where it saw +120
    a = _lost(0, "W:W21:B1", [None, 10, 40, 120, 150], [None, 0.0, -5.0, -20.0, -60.0, -130.0])
    # we (White) move first: our move 2 answers its move 1 (+100); we saw -100 at once
    b = _lost(1, "W:W21:B1", [30, 100, 160], [0.0, -10.0, -110.0, -200.0])
    # never saw it
    c = _lost(1, "W:W21:B1", [100], [0.0, -20.0, -30.0])
    won = spar.SparReport(0, "ACF #2", 0, "agent", 40, "no legal move", [], "W:W21:B1", [], [], [500],
                          our_values=[-500.0])
    t = spar.losses_turned([a, b, c, won])
    assert t is not None
    assert t["games"] == 3 and t["never_seen"] == 1
    assert t["engine_move"]["median"] == 2  # moves 4, 2 and 1
    assert t["our_lag"]["median"] == 1  # lags 2 (a) and 0 (b)
    assert spar.losses_turned([won]) is None
    assert spar.summarize([a, b, c, won], 1.0)["losses_turned"] == t


def test_a_journal_is_summarized_without_the_engine(fake_engine: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    journal = tmp_path / "j.jsonl"
    agent = ["--agent", "alphabeta:depth=1"]
    assert spar.main(["--engine", fake_engine, *agent, "--skip", "5", "--first", "1", "--journal", str(journal),
                      "--json"]) == 0
    played = json.loads(capsys.readouterr().out)
    before = journal.read_text()
    monkeypatch.delenv("ARCADE_SPAR_ENGINE", raising=False)
    # the range of two ballots: the one played is summarized, the other is said to be missing; nothing is played
    assert spar.main([*agent, "--skip", "5", "--first", "2", "--journal", str(journal), "--summary", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 2 and out["missing"] == 2 and out["from_journal"] == 2
    assert (out["wins"], out["draws"], out["losses"], out["score"]) == (
        played["wins"], played["draws"], played["losses"], played["score"])
    assert journal.read_text() == before  # the journal is only read
    assert spar.main([*agent, "--skip", "5", "--first", "2", "--journal", str(journal), "--summary"]) == 0
    text = capsys.readouterr().out
    assert "from the journal only: 2 of the range's 4 games scored; 2 not played yet" in text
    # the journal's games can be saved as PDN from a summary too, into a folder it makes
    assert spar.main([*agent, "--skip", "5", "--first", "1", "--journal", str(journal), "--summary", "--json",
                      "--pdn-dir", str(tmp_path / "pdn")]) == 0
    assert Path(json.loads(capsys.readouterr().out)["pdn"]).read_text().count("[Event ") == 2
    assert spar.main([*agent, "--journal", str(journal), "--summary", "--pdn-dir", str(journal)]) == 2
    assert "PDN folder" in capsys.readouterr().err
    # a summary needs a journal that exists; it is refused in one line, before anything else
    for args in ([], ["--journal", str(tmp_path / "none.jsonl")]):
        assert spar.main([*agent, "--summary", *args]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--summary reads the games of a journal" in err
