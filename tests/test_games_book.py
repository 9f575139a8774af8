"""tools/games_book.py: an opening book from archive games (positions, moves played, results)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ai.checkers.book import load_book
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.checkers.checkers_notation import format_fen
from tools.games_book import build, pdn_games, transcript_games, transcript_square

ROOT = Path(__file__).resolve().parent.parent
START = format_fen(Checkers().initial_state())


def _pdn(games: list[tuple[str, str]]) -> str:
    return "\n\n".join(f'[Event "t{i}"]\n[Result "{r}"]\n\n{moves} {r}' for i, (moves, r) in enumerate(games))


def test_transcript_squares_are_the_pdn_squares_mirrored_in_each_row() -> None:
    # REF.png: 0 is the first mover's single corner (A1), 3 is G1; rows of four upwards
    assert [transcript_square(d) for d in (0, 3, 8, 9, 10, 31)] == [4, 1, 12, 11, 10, 29]
    with pytest.raises(ValueError, match="0-31"):
        transcript_square(32)


def test_transcripts_read_as_legal_games_and_bad_lines_are_skipped() -> None:
    text = "10-14 21-17\t1-0\n9-13 21-17\t0-1\n10-14 21-17\n10-14 0-4\t1-0\n"
    games = list(transcript_games(text))
    assert games[2] is None and games[3] is None  # no result; an illegal move
    first = games[0]
    assert first is not None
    assert [str(m) for _, m in first[0]] == ["10-14", "23-19"] and first[1] == 1.0
    assert games[1] is not None and [str(m) for _, m in games[1][0]] == ["11-15", "23-19"]


def test_moves_are_scored_by_results_with_one_draw_added_and_rare_moves_dropped() -> None:
    games = [("1. 11-15 23-19", "1-0")] * 3 + [("1. 11-15 22-18", "1/2-1/2"), ("1. 11-15 22-17", "0-1"),
                                                ("1. 9-13 22-18", "1-0"), ("1. 9-13 22-17", "0-1"),
                                                ("1. 10-14 22-17", "1-0"), ("1. 10-15 22-17", "bad")]
    positions, counts = build(pdn_games(_pdn(games)), max_ply=30, min_games=4)
    assert counts == {"games": 9, "used": 8, "positions": 2}
    entries = positions[START]
    # 11-15: 5 games, Black scored 3.5 -> (3.5 + 0.5) / 6 = 2/3 -> +33.3; 9-13: 2 games, 1 point -> 0.0;
    # 10-14: one game, under 2 games: not kept
    assert [(e.move, e.value, e.depth, e.weight) for e in entries] == [("11-15", 33.3, 0, 5), ("9-13", 0.0, 0, 2)]
    g = Checkers()
    s0 = g.initial_state()
    after = format_fen(g.successor(s0, next(m for m in g.actions(s0) if str(m) == "11-15")))
    # White's moves after 11-15, from White's side: 23-19 3 games lost (0 + 0.5) / 4 -> -75.0
    assert [(e.move, e.value) for e in positions[after]] == [("23-19", -75.0)]
    only_first = build(pdn_games(_pdn(games)), max_ply=1, min_games=4)[0]
    assert list(only_first) == [START]


def test_the_command_writes_a_book_that_chooses_the_games_move(tmp_path: Path) -> None:
    games = [("1. 9-14 22-18", "1-0")] * 4
    pdn = tmp_path / "g.pdn"
    pdn.write_text(_pdn(games), encoding="utf-8")
    out = tmp_path / "book.json"
    r = subprocess.run([sys.executable, "tools/games_book.py", "--pdn", str(pdn), "--merge", "none", "--out", str(out)],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "4 games read, 4 used; 2 positions from the games" in r.stdout
    book = load_book(out)
    state = Checkers().initial_state()
    assert str(book.choose(state)) == "9-14"
    assert book.meta["games_book"]["used"] == 4
    merged = tmp_path / "merged.json"
    r = subprocess.run([sys.executable, "tools/games_book.py", "--pdn", str(pdn), "--out", str(merged)],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert len(load_book(merged).to_json()["positions"]) > 2  # the shipped book's other positions kept
    # built again over that book from other games: its earlier games layer (depth 0) is left out first, so the result
    # is the book built over the searched positions alone
    pdn2 = tmp_path / "g2.pdn"
    pdn2.write_text(_pdn([("1. 11-15 23-19", "0-1")] * 4), encoding="utf-8")
    again, fresh = tmp_path / "again.json", tmp_path / "fresh.json"
    for base, out2 in ((merged, again), (ROOT / "assets" / "book" / "checkers_book.json", fresh)):
        r = subprocess.run([sys.executable, "tools/games_book.py", "--pdn", str(pdn2), "--merge", str(base),
                            "--source", "four test games (CC0)", "--out", str(out2)],
                           cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        # the games left out are said (a user merging their own games over the shipped book must not lose them
        # silently)
        assert "entries from games of" in r.stdout and "left out" in r.stdout
    assert load_book(again).to_json()["positions"] == load_book(fresh).to_json()["positions"]
    rebuilt = load_book(again)
    assert str(rebuilt.choose(state)) == "11-15" and rebuilt.meta["games_book"]["source"] == "four test games (CC0)"
    from_games = {fen for fen in rebuilt.fens()
                  if any(e.from_games for e in rebuilt.lookup(Checkers().parse_position(fen)))}
    assert from_games == set(build(pdn_games(pdn2.read_text(encoding="utf-8")))[0])  # the 9-14 games are gone


def test_bad_arguments_and_unreadable_files_exit_2(tmp_path: Path) -> None:
    for args in (["--pdn", str(tmp_path / "missing.pdn"), "--out", str(tmp_path / "b.json")],
                 ["--pdn", str(tmp_path / "missing.pdn"), "--max-ply", "0", "--out", str(tmp_path / "b.json")]):
        r = subprocess.run([sys.executable, "tools/games_book.py", *args], cwd=ROOT, capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 2 and r.stderr.startswith("error:"), r.stderr
        assert not (tmp_path / "b.json").exists()


def test_no_usable_game_or_an_unwritable_out_writes_nothing_and_keeps_the_old_file(tmp_path: Path) -> None:
    old = tmp_path / "old.json"
    old.write_text("my book", encoding="utf-8")
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    pdn = tmp_path / "g.pdn"
    pdn.write_text(_pdn([("1. 9-14 22-18", "1-0")] * 4), encoding="utf-8")
    transcripts = tmp_path / "t.txt"
    transcripts.write_text("8-12 21-17\t1-0\n" * 4, encoding="utf-8")  # 12-16 23-19: not legal read as PDN squares
    folder = tmp_path / "adir"
    folder.mkdir()
    cases = (
        (["--transcripts", str(empty), "--out", str(old)], "none of its 0 games read with a result"),
        (["--pdn", str(transcripts), "--merge", "none", "--out", str(old)],
         "expected PDN games with a result (is it --transcripts rather?)"),
        (["--transcripts", str(pdn), "--out", str(old)], "expected transcripts"),
        (["--pdn", str(pdn), "--min-games", "5", "--out", str(old)], "try a smaller --min-games"),
        (["--pdn", str(pdn), "--merge", "none", "--out", str(folder)], "cannot write the opening book"),
        (["--pdn", str(pdn), "--merge", "none", "--out", str(old / "book.json")], "cannot write the opening book"),
    )
    for args, words in cases:
        r = subprocess.run([sys.executable, "tools/games_book.py", *args], cwd=ROOT, capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 2 and r.stderr.startswith("error:") and words in r.stderr, (args, r.stderr)
        assert "Traceback" not in r.stderr
    assert old.read_text(encoding="utf-8") == "my book"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["adir", "empty.txt", "g.pdn", "old.json", "t.txt"]
    assert not list(folder.iterdir())  # no NAME.tmp left behind
    # the transcripts themselves build
    r = subprocess.run([sys.executable, "tools/games_book.py", "--transcripts", str(transcripts), "--merge", "none",
                        "--out", str(tmp_path / "new" / "b.json")], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and "4 games read, 4 used; 2 positions" in r.stdout, r.stderr
