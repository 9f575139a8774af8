"""Reading PDN archives, each fault (issue 16) with its example: a bad game never blocks the others, a tag given
twice and a Result tag that disagrees are read with a warning, and a large file is read in the background while
the window keeps drawing. Also: the fast reader gives what the exact (token-by-token) reader gives."""

from __future__ import annotations

import itertools
import threading
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.cli.pdn_bench import generate_archive
from gameplay.rules.checkers.pdn import PDNError, write_fen
from gameplay.rules.checkers.pdn_archive import BackgroundRead, decode_pdn
from gameplay.rules.checkers.pdn_read import PDNRecord, iter_records, read_archive, read_games

MIXED = ('[Event "good"]\n1. 11-15 23-19 *\n\n'
         '[Event "bad"]\n1. 11-15 24-20 2. 15-18 20-16 *\n')
"""Fault 1's file: a good first game and a second whose fourth ply is illegal (White must take 22x15 or 23x14)."""
TWICE = """[Event "PDN 3.0 example"]
[Date "1997.10.30"]
[Black "Ann"]
[White "Bob"]
[Black "Cy"]
[Result "1-0"]
1. 11-15 23-19 2. 8-11 22-17 1-0
"""
"""Fault 2's game: ``[Black]`` given twice in one tag section (a repeated ``[Event]`` begins the next game)."""
DISAGREE = '[Result "1/2-1/2"]\n1. 11-15 23-19 2. 8-11 22-17 0-1\n'
"""Fault 3's game: the Result tag says a draw, the moves end with White's win."""
_GENERATED: dict[int, str] = {}


def generated(games: int) -> str:
    """A generated archive of ``games`` legal random games (cached for the module)."""
    if games not in _GENERATED:
        _GENERATED[games] = generate_archive(games, seed=7)
    return _GENERATED[games]


def same(a: list[PDNRecord], b: list[PDNRecord]) -> None:
    """The two readings hold the same games, tags, errors, warnings and final positions."""
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert (x.index, x.game, x.tags, x.warnings, x.final) == (y.index, y.game, y.tags, y.warnings, y.final)
        assert str(x.error) == str(y.error)


# ----- fault 1: one bad game blocked the whole file ------------------------------------------------------------------
def test_a_bad_game_does_not_block_the_others() -> None:
    good, bad = read_archive(MIXED)
    assert good.ok and good.tags == {"Event": "good"} and good.result == "*"
    assert good.game.move_texts() == ["11-15", "23-19"] and good.plies == 2
    assert write_fen(good.final) == "B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"
    assert not bad.ok and bad.final is None and bad.tags == {"Event": "bad"}
    assert bad.game.move_texts() == ["11-15", "24-20", "15-18"]  # the moves before the problem
    assert bad.error is not None and (bad.error.line, bad.error.column) == (5, 25)
    text = str(bad.error)
    assert "illegal move '20-16'" in text and "(ply 4)" in text and "22x15, 23x14 (captures are compulsory)" in text
    assert (good.line, bad.line) == (1, 4)
    with pytest.raises(PDNError, match="illegal move '20-16'"):  # the strict reader still names the first problem
        read_games(MIXED)


def test_every_kind_of_bad_game_is_reported_and_reading_goes_on() -> None:
    bad_ones = ['[Event "x"\n1. 11-15 *',                     # malformed tag pair
                '[FEN "B:W1-40:B5"]\n1. 11-15 *',              # bad FEN tag
                "1. 11-15 hello 23-19 *",                      # unexpected word
                "1. 11-15 (2. 9-13 *\n",                       # variation never closed (ends at the next tag line)
                "1. 11-15 {never closed\n",                    # comment never closed (likewise)
                '[SetUp "1"]\n[FEN "B:W14,15,22,23:BK26"]\n1. 26x26 *']  # ambiguous short form
    text = "\n".join(f'{b}\n[Event "ok {i}"]\n1. 9-13 22-18 *\n' for i, b in enumerate(bad_ones))
    records = read_archive(text)
    assert [r.ok for r in records] == [False, True] * len(bad_ones)
    assert [r.tags.get("Event") for r in records if r.ok] == [f"ok {i}" for i in range(len(bad_ones))]
    reasons = [str(r.error) for r in records if not r.ok]
    for fragment, reason in zip(("malformed tag pair", "bad FEN tag", "unexpected 'hello'", "never closed",
                                 "never closed", "ambiguous"), reasons):
        assert fragment in reason and reason.startswith("PDN line ")


# ----- fault 2: a tag given twice ------------------------------------------------------------------------------------
def test_a_tag_given_twice_keeps_its_first_value_with_a_warning() -> None:
    (rec,) = read_archive(TWICE)
    assert rec.ok and rec.result == "1-0" and rec.game.move_texts() == ["11-15", "23-19", "8-11", "22-17"]
    assert rec.tags["Black"] == "Ann" and rec.game.tags["Black"] == "Ann"
    assert rec.warnings == ["line 5, column 1: tag Black is given twice: kept 'Ann' (line 3), ignored 'Cy'"]
    assert rec.game.warnings == rec.warnings
    assert read_games(TWICE)[0].tags["Black"] == "Ann"  # the strict reader reads it too


# ----- fault 3: the Result tag and the result token disagree ----------------------------------------------------------
def test_the_result_token_wins_over_a_disagreeing_result_tag() -> None:
    (rec,) = read_archive(DISAGREE)
    assert rec.ok and rec.result == "0-1" and rec.plies == 4
    assert rec.warnings == ["line 2, column 30: the moves end with 0-1 but the Result tag (line 1) says 1/2-1/2: "
                            "kept 0-1"]
    assert rec.tags["Result"] == "1/2-1/2"  # the tags as read
    assert read_archive('[Result "1-0"]\n1. 11-15 *')[0].result == "1-0"  # "*" defers to the tag, no warning
    assert read_archive('[Result "1-0"]\n1. 11-15 *')[0].warnings == []


# ----- fault 4: reading froze the window ------------------------------------------------------------------------------
def test_the_reader_yields_game_by_game_with_progress() -> None:
    text = generated(300)
    first = list(itertools.islice(iter_records(text), 5))  # lazy: five games, not the whole file
    assert [r.index for r in first] == [0, 1, 2, 3, 4]
    ends = [r.end for r in first]
    assert ends == sorted(ends) and 0 < ends[-1] < len(text) // 10


def test_background_reading_reports_progress_and_stops_on_cancel() -> None:
    text = generated(300)
    gate, seen = threading.Event(), threading.Event()

    def hold(rec: PDNRecord) -> None:
        if rec.index == 10:  # the reading waits here until the test has looked and cancelled
            seen.set()
            gate.wait(10)

    reading = BackgroundRead(text, on_record=hold).start()
    assert seen.wait(10)
    assert not reading.done and 0 < reading.progress < 1 and reading.count == 10
    reading.cancel()
    gate.set()
    assert reading.wait(10) and reading.cancelled and reading.failure is None
    assert reading.count <= 11 and reading.progress == 1.0  # stopped, not read to the end (300 games)
    whole = BackgroundRead(text).start()
    assert whole.wait(60) and whole.count == 300 and not whole.cancelled


@pytest.mark.slow
def test_the_window_keeps_drawing_while_a_large_file_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader is held after its first game until the window has drawn 5 more frames: frames go on while a
    file loads (no timing: a fast machine finished the 3,000 games before 5 frames, and the test failed)."""
    import threading

    from ui_driver import frames

    from gameplay.rules.checkers import pdn_archive
    from gameplay.ui.scenes import pdn_browser
    from gameplay.ui.scenes.pdn_browser import PDNBrowserScene
    from gameplay.ui.shell.app import App
    gate = threading.Event()

    class HeldRead(pdn_archive.BackgroundRead):
        def __init__(self, text: str, on_record: Any = None) -> None:
            def held(rec: Any) -> None:
                if on_record is not None:
                    on_record(rec)
                if not self.records:  # after the first game: wait for the window
                    gate.wait(30)
            super().__init__(text, held)

    monkeypatch.setattr(pdn_browser, "BackgroundRead", HeldRead)
    text = generated(3000)
    app = App(size=(1280, 800), fps=1000)
    try:
        match = app.start_match("checkers", "human", "medium")
        frames(app, 2)
        assert match.tools is not None and match.tools.load_pdn_text(text, "big.pdn")  # type: ignore[attr-defined]
        browser = app.scene
        assert isinstance(browser, PDNBrowserScene) and browser.loading
        drawn = app.frames
        frames(app, 5)
        assert browser.loading and app.frames - drawn >= 5  # the window draws while the file is being read
        gate.set()
        while browser.loading:
            frames(app, 1)
        frames(app, 2)
        assert browser.frames_while_loading >= 5
        assert len(browser.rows) == 3000 and len(browser.list.rows) == 3000
        assert match.record.ply == 0  # the match below is untouched
    finally:
        gate.set()
        app.close()


# ----- the fast reader agrees with the exact one ----------------------------------------------------------------------
def test_fast_and_exact_readers_agree_on_a_generated_archive() -> None:
    text = generated(300) + "\n" + MIXED + TWICE + DISAGREE
    fast, exact = read_archive(text), list(iter_records(text, exact=True))
    same(fast, exact)
    assert [(r.offset, r.end, r.line) for r in fast] == [(r.offset, r.end, r.line) for r in exact]
    assert sum(r.ok for r in fast) == 303 and len(fast) == 304


FRAGMENTS = ['[Event "a"]', '[Event "b"]', '[Black "a"]', '[Black "b"]', '[Site "C:\\g\\"]', '[Site "C:\\g\\x"]',
             '[Black "X \\"q\\""]',
             '[Result "1-0"]', '[Result "won"]',
             '[FEN "B:W18,24:B12,16"]', '[FEN "bad"]', '[Event "x"', '1.', '2.', '1...', '11-15', '23-19', '8-11',
             '22-17', '9-13', '24-20', '15-18', '20-16', '16x23', '7x32', '26x17', '$1', '!?', '11-15!', '{c}',
             '{open', '(2. 9-13)', '(open', '; line\n', '1-0', '0-1', '1/2-1/2', '*', 'hello', '1.11-15', '11-15*',
             '}', ')', '[', '33-28', '0-1.']


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(FRAGMENTS), st.sampled_from([" ", "\n", "", "\n\n"])), max_size=14))
def test_fast_and_exact_readers_agree_on_any_text(parts: list[tuple[str, str]]) -> None:
    text = "".join(a + b for a, b in parts)
    same(read_archive(text), list(iter_records(text, exact=True)))


def test_decoding_a_windows_file() -> None:
    assert decode_pdn('[Event "Caf\u00e9"]'.encode("cp1252")) == '[Event "Caf\u00e9"]'
    assert decode_pdn("\ufeff[Event \"x\"]".encode()) == '[Event "x"]'
    assert decode_pdn(bytes([0x81, 0x8d])) == "\x81\x8d"  # Latin-1 reads any byte
