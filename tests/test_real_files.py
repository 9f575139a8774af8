"""Files written by other programs on other systems are read as their authors meant (issue 23, kind 2), and the
small position / PDN faults found with them.

Every case writes its file as bytes, the way a Windows editor or another checkers program writes it (a UTF-8 or
UTF-16 byte-order mark, CRLF or CR line ends, Windows-1252 names, backslashes of Windows paths in tag values, games
with tags and no moves, moves with no tags), and checks the values read, and that what cannot be read is named with
its line and column without taking its neighbours down.
"""

from __future__ import annotations

import json
import multiprocessing
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from ai.agents.agent_base import AgentError
from ai.agents.agent_file import inspect_agent_file, load_agent_module
from ai.agents.agents import make_agent, parse_settings
from ai.agents.profiles import profile_for
from ai.checkers.book import BookError, load_book
from gameplay.cli import run
from gameplay.files import settings as st
from gameplay.files import settings_file as sfile
from gameplay.files.savegame import SavedGame, SaveError, load_game, save_game
from gameplay.rules.base import PositionError
from gameplay.rules.checkers.checkers_notation import parse_fen
from gameplay.rules.checkers.pdn_archive import BackgroundRead, make_row, read_pdn_text
from gameplay.rules.checkers.pdn_read import iter_records, read_archive
from gameplay.rules.pig import Pig
from gameplay.rules.textfile import NotTextError, decode_text, read_text_file
from gameplay.rules.trees import TreeError, parse_tree
from gameplay.ui.scenes.treelab_tree import json_error_text


def call(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = run(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


# ----- the decoding path ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("data, text, encoding", [
    (b"\xef\xbb\xbfa\r\nb\r\n", "a\nb\n", "utf-8"),                         # Notepad's UTF-8: BOM and CRLF
    (b"a\rb\r", "a\nb\n", "utf-8"),                                         # old Mac line ends
    ("Caf\u00e9\r\n".encode("utf-16"), "Caf\u00e9\n", "utf-16-le"),          # Notepad's "Unicode"
    ("Caf\u00e9\n".encode("utf-16-be"), "Caf\u00e9\n", "utf-16-be"),         # UTF-16 without a BOM
    ("x\u00e9\n".encode("utf-32"), "x\u00e9\n", "utf-32-le"),
    ("M\u00fcller\n".encode("cp1252"), "M\u00fcller\n", "windows-1252"),     # Windows "ANSI"
    (b"a\n\xef\xbb\xbfb\n", "a\nb\n", "utf-8"),                             # two files joined (copy a+b)
])
def test_bytes_are_decoded_as_written(data: bytes, text: str, encoding: str) -> None:
    got = decode_text(data)
    assert (got.text, got.encoding) == (text, encoding)


def test_a_line_that_is_not_utf8_is_windows_1252_with_a_warning_and_the_others_stay_utf8() -> None:
    data = "Jos\u00e9 \u2014 UTF-8\n".encode() + "Ren\u00e9e, M\u00fcller\n".encode("cp1252") + b"ok\n"
    got = decode_text(data)
    assert got.text == "Jos\u00e9 \u2014 UTF-8\nRen\u00e9e, M\u00fcller\nok\n"  # neither line garbled
    assert got.encoding == "utf-8+windows-1252" and got.windows_1252_lines == (2,)
    assert got.warning == "line 2 is not UTF-8 (byte 0xE9 at column 4): read as Windows-1252"
    assert decode_text(b"plain\n").warning is None


def test_binary_is_not_text_but_a_late_nul_is_left_to_the_reader() -> None:
    with pytest.raises(NotTextError, match=r"not a text file \(it holds NUL bytes, the first at byte 3\)"):
        decode_text(b"PK\x00\x03zip")
    with pytest.raises(NotTextError, match="byte-order mark, but byte 5 is not UTF-16"):
        decode_text(b"\xff\xfeA\x00B")  # an odd byte after UTF-16
    late = b"x" * 9000 + b"\x00y"
    assert decode_text(late).text.endswith("\x00y")  # a damaged spot deep in a text file: the reader names it


# ----- PDN ---------------------------------------------------------------------------------------------------------
FOUR = ('[Event "Tags only"]\n[Black "Ann"]\n[White "Bob"]\n[Result "*"]\n\n'
        '[Event "Second"]\n[Black "Cy"]\n[White "Di"]\n[Result "1-0"]\n\n1. 11-15 23-19 1-0\n\n'
        '[Event "Third"]\n\n1. 9-13 *\n\n'
        '[Event "Fourth"]\n1. 11-16 22-18 *\n')
"""The issue's file: four games, the first with tags and no moves (it took the second's moves and warned "tag
Event is given twice", and three games were read)."""


def test_a_game_of_tags_alone_ends_at_the_next_tag_section(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    for exact in (False, True):  # the fast reader and the exact one (the reference) agree
        records = list(iter_records(FOUR, exact=exact))
        assert [r.tags["Event"] for r in records] == ["Tags only", "Second", "Third", "Fourth"]
        assert [r.plies for r in records] == [0, 2, 1, 2]
        assert [r.result for r in records] == ["*", "1-0", "*", "*"]
        assert all(r.ok and r.warnings == [] for r in records)
        assert [r.line for r in records] == [1, 6, 13, 17]
    path = tmp_path / "four.pdn"
    path.write_bytes(crlf(FOUR).encode())
    code, out, _ = call(capsys, "pdn", str(path))
    assert code == 0 and "4 games: 4 read, 0 with an error, 0 with warnings" in out and "given twice" not in out
    # without the blank line, a tag other than Event given twice is still one game's, with a warning at its line
    (one,) = read_archive('[Event "a"]\n[Black "x"]\n[Black "y"]\n1. 11-15 *\n')
    assert one.warnings == ["line 3, column 1: tag Black is given twice: kept 'x' (line 2), ignored 'y'"]


NO_BLANK = '[Event "A"]\n[Result "*"]\n[Event "B"]\n[Result "*"]\n1. 11-15 *\n'
"""A tag section that repeats its tags with no blank line between (some programs write two ``Event`` tags): one
game, the first values kept, a warning for each tag given again (issue 48; issue 46's reading, two games, split a
real game in two)."""
TWO_EVENTS = ('[Event "Club match"]\n[Event "Round 3"]\n[Black "Ann"]\n[White "Bob"]\n[Result "1-0"]\n\n'
              '1. 11-15 23-19 1-0\n')
"""The issue's case: two ``Event`` tags, as some programs write them, then the game."""


def test_a_tag_given_twice_without_a_blank_line_stays_one_games(capsys: pytest.CaptureFixture[str],
                                                                 tmp_path: Path) -> None:
    for exact in (False, True):
        (one,) = iter_records(TWO_EVENTS, exact=exact)
        assert (one.tags["Event"], one.tags["Black"], one.plies, one.result, one.ok) == ("Club match", "Ann", 2,
                                                                                          "1-0", True)
        assert one.warnings == ["line 2, column 1: tag Event is given twice: kept 'Club match' (line 1), ignored "
                                "'Round 3'"]
        records = list(iter_records(NO_BLANK, exact=exact))
        assert [(r.index, r.tags, r.plies, r.result, r.line) for r in records] == [
            (0, {"Event": "A", "Result": "*"}, 1, "*", 1)]
        assert records[0].warnings == ["line 3, column 1: tag Event is given twice: kept 'A' (line 1), ignored 'B'",
                                       "line 4, column 1: tag Result is given twice (the same value '*' on line 2)"]
        # a game of tags alone still ends at a blank line
        records = list(iter_records(NO_BLANK.replace('"*"]\n[Event "B"', '"*"]\n\n[Event "B"'), exact=exact))
        assert [(r.tags["Event"], r.plies, r.warnings) for r in records] == [("A", 0, []), ("B", 1, [])]
    path = tmp_path / "twoevents.pdn"
    path.write_bytes(crlf(TWO_EVENTS).encode())
    code, out, _ = call(capsys, "pdn", str(path))
    assert code == 0 and "1 game: 1 read, 0 with an error, 1 with warnings" in out
    code, out, _ = call(capsys, "pdn", str(path), "--json")
    games = json.loads(out)["games"]
    assert [(g["number"], g["tags"]["Event"], g["plies"]) for g in games] == [(1, "Club match", 2)]
    # the window's game list shows one row
    read = BackgroundRead(read_pdn_text(path).text).start()
    assert read.wait(30)
    assert [(make_row(r).cells[0], make_row(r).cells[1]) for r in read.records] == [("1", "Club match")]


WARNED = ('[Event "one"]\n[Black "Ann"]\n[White "Bob"]\n[Result "1/2-1/2"]\n\n1. 11-15 23-19 1-0\n\n'
          '[Event "two"]\n[Date "2024"]\n[Site "x"]\n[White "Cy"]\n[Date "2025"]\n[Result "won"]\n'
          '1. 9-13 *\n')
"""Three kinds of warning, each about a place after its game's first line: a Result tag the moves contradict
(game 1, token on line 6), a tag given again on line 12 (game 2 begins on line 8) and a Result tag that is no
result (line 13)."""


def test_each_warning_names_its_own_line_and_column(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    first_warnings = ["line 6, column 16: the moves end with 1-0 but the Result tag (line 4) says 1/2-1/2: kept 1-0"]
    second_warnings = ["line 12, column 1: tag Date is given twice: kept '2024' (line 9), ignored '2025'",
                       "line 13, column 1: Result tag 'won' is not one of 1-0, 0-1, 1/2-1/2, *: ignored"]
    for exact in (False, True):  # the fast reader and the exact one name the same places
        first, second = iter_records(WARNED, exact=exact)
        assert (first.line, second.line) == (1, 8)
        assert first.warnings == first_warnings and second.warnings == second_warnings
    path = tmp_path / "warned.pdn"
    path.write_bytes(crlf(WARNED).encode("utf-16"))  # line and column count as an editor shows them
    code, out, _ = call(capsys, "pdn", str(path))
    assert code == 0 and "warning (line" not in out
    assert [line.strip() for line in out.splitlines() if "warning" in line and not line.startswith(str(path))] == [
        f"warning: {w}" for w in first_warnings + second_warnings]
    code, out, _ = call(capsys, "pdn", str(path), "--json")
    assert [g["warnings"] for g in json.loads(out)["games"]] == [first_warnings, second_warnings]


def test_movetext_with_no_tags() -> None:
    text = "1. 11-15 23-19 2. 8-11 *\n\n1. 9-13 22-18 1/2-1/2\n1. 11-16\n\n[Event \"tagged\"]\n1. 10-14 *\n"
    records = read_archive(text)
    assert [(r.tags, r.plies, r.result) for r in records] == [
        ({}, 3, "*"), ({}, 2, "1/2-1/2"), ({}, 1, "*"), ({"Event": "tagged"}, 1, "*")]


def test_backslashes_in_tag_values_are_windows_paths() -> None:
    text = ('[Event "C:\\games\\x"]\n'          # a Windows path written as it is
            '[Site "C:\\games\\"]\n'            # ... ending with a backslash
            '[Annotator "a \\"q\\" \\\\ b"]\n'  # PDN's escapes: \" and \\
            '1. 11-15 *\n')
    (rec,) = read_archive(text)
    assert rec.ok and rec.tags == {"Event": "C:\\games\\x", "Site": "C:\\games\\", "Annotator": 'a "q" \\ b'}


WINDOWS_ARCHIVE = ('[Event "Championnat de France"]\n[Black "Ren\u00e9 Dupr\u00e9"]\n'
                   '[White "J\u00fcrgen M\u00fcller"]\n'
                   '[Site "C:\\Dames\\parties"]\n[Result "0-1"]\n\n1. 11-15 23-19 2. 8-11 22-17 0-1\n\n'
                   '[Event "Bad"]\n\n1. 11-15 24-20 2. 15-18 20-16 *\n\n'
                   '[Event "Last"]\n[Black "Fran\u00e7ois"]\n\n1. 9-13 *\n')


@pytest.mark.parametrize("encode", [
    lambda t: crlf(t).encode("cp1252"),                     # an older Windows program
    lambda t: b"\xef\xbb\xbf" + crlf(t).encode("utf-8"),    # Notepad's UTF-8
    lambda t: crlf(t).encode("utf-16"),                     # Notepad's "Unicode"
    lambda t: t.replace("\n", "\r").encode("utf-8"),        # an old Mac
], ids=["windows-1252", "utf8-bom-crlf", "utf16", "cr"])
def test_a_windows_archive_reads_its_names_and_the_bad_game_names_its_line_and_column(
        tmp_path: Path, encode: Callable[[str], bytes]) -> None:
    path = tmp_path / "windows.pdn"
    path.write_bytes(encode(WINDOWS_ARCHIVE))
    first, bad, last = read_archive(read_pdn_text(path).text)
    assert first.ok and first.tags["Black"] == "Ren\u00e9 Dupr\u00e9"
    assert first.tags["White"] == "J\u00fcrgen M\u00fcller"
    assert first.tags["Site"] == "C:\\Dames\\parties" and first.result == "0-1" and first.plies == 4
    assert not bad.ok and bad.error is not None and (bad.error.line, bad.error.column) == (11, 25)
    assert "illegal move '20-16'" in str(bad.error)
    assert last.ok and last.tags["Black"] == "Fran\u00e7ois" and last.plies == 1  # the bad game took nothing down


def test_pdn_command_names_the_windows_1252_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ansi.pdn"
    path.write_bytes(crlf(WINDOWS_ARCHIVE).encode("cp1252"))
    code, out, _ = call(capsys, "pdn", str(path))
    assert code == 0 and out.splitlines()[0] == (f"{path}: warning: 3 lines are not UTF-8 (the first: line 2, byte "
                                                 "0xE9 at column 12): read as Windows-1252")
    assert "#1  Ren\u00e9 Dupr\u00e9 - J\u00fcrgen M\u00fcller" in out
    code, out, _ = call(capsys, "pdn", str(path), "--json")
    obj = json.loads(out)
    assert obj["encoding"] == "windows-1252" and len(obj["warnings"]) == 1
    assert obj["games"][2]["tags"]["Black"] == "Fran\u00e7ois"


def test_a_nul_deep_in_an_archive_spoils_one_game_only(tmp_path: Path) -> None:
    good = '[Event "g{}"]\n1. 11-15 23-19 *\n\n'
    text = "".join(good.format(i) for i in range(300)) + '[Event "damaged"]\n1. 11-15 \x00 *\n\n' + good.format("end")
    path = tmp_path / "damaged.pdn"
    path.write_bytes(text.encode())
    records = read_archive(read_pdn_text(path).text)
    assert len(records) == 302 and [r.ok for r in records].count(False) == 1
    bad = records[300]
    assert bad.error is not None and (bad.error.line, bad.error.column) == (902, 10) and records[301].ok


def test_a_binary_file_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "photo.pdn"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    code, out, err = call(capsys, "pdn", str(path))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "it is not a text file (it holds NUL bytes, the first at byte 9)" in err


# ----- the game numbers of pdn ------------------------------------------------------------------------------------
def test_pdn_numbers_games_from_one_in_text_and_json_and_index_is_the_place_in_the_list(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "four.pdn"
    path.write_text(FOUR, encoding="utf-8")
    _, out, _ = call(capsys, "pdn", str(path))
    shown = [int(line.split()[0][1:]) for line in out.splitlines() if line.startswith("#")]
    _, out, _ = call(capsys, "pdn", str(path), "--json")
    games = json.loads(out)["games"]
    assert shown == [g["number"] for g in games] == [1, 2, 3, 4]
    assert [g["index"] for g in games] == [0, 1, 2, 3]  # CLI.md's index: the place in "games"
    with pytest.raises(SystemExit):
        run(["pdn", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "numbered from 1 (#1 is the first game" in help_text and "index in the games list (from 0)" in help_text


# ----- positions ---------------------------------------------------------------------------------------------------
def test_pig_position_is_echoed_as_given_or_refused_with_the_range(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = call(capsys, "moves", "pig", "--position", "0,0,500,1")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "impossible pig position 0,0,500,1" in err and "turn total is at most 99" in err
    code, out, err = call(capsys, "moves", "pig", "--position", "95,40,5,1")
    assert code == 2 and "the finished game is written 100,40,0,1" in err
    code, out, err = call(capsys, "moves", "pig", "--position", "500,0,0,1")
    assert code == 2 and "a winning score is at most 105" in err
    code, out, _ = call(capsys, "moves", "pig", "--position", "105,0,0,1", "--json")
    assert code == 0 and json.loads(out)["position"] == "105,0,0,1"
    code, out, _ = call(capsys, "moves", "pig", "--position", "0,0,99,1", "--json")
    assert code == 0 and json.loads(out)["position"] == "0,0,99,1"
    for text in ("\u00b2,0,0,1", "9" * 5000 + ",0,0,1"):  # no traceback for a superscript or a huge number
        with pytest.raises(PositionError):
            Pig().parse_position(text)
    small = Pig(target=20, faces=4)  # the range follows the game's options
    assert small.format_position(small.parse_position("22,3,0,1")) == "22,3,0,1"
    with pytest.raises(PositionError, match="at most 23"):
        small.parse_position("24,3,0,1")


def test_a_checkers_position_with_no_piece_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = call(capsys, "moves", "checkers", "--position", "W:W:B")
    assert code == 2 and out == "" and "no piece on the board" in err and "wins" not in err
    with pytest.raises(PositionError, match="no piece on the board"):
        parse_fen("B:W:B")
    code, out, _ = call(capsys, "moves", "checkers", "--position", "B:WK22:B", "--json")  # one side: finished
    assert code == 0 and json.loads(out)["outcome"]["winner"] == "White"
    (rec,) = read_archive('[SetUp "1"]\n[FEN "W:W:B"]\n*\n')
    assert rec.error is not None and "bad FEN tag" in str(rec.error) and (rec.error.line, rec.error.column) == (2, 1)


# ----- TOML, JSON and Python files ---------------------------------------------------------------------------------
def test_a_settings_file_saved_by_notepad(tmp_path: Path) -> None:
    agent = tmp_path / "Jos\u00e9" / "my_agent.py"
    agent.parent.mkdir()
    agent.write_text("def evaluate(state, player):\n    return 0.0\n", encoding="utf-8")
    text = (f"# r\u00e9glages\nsound = false\n[games.pig.p2]\nagent = \"file\"\nfile = '{agent}'\n")
    for data in (b"\xef\xbb\xbf" + crlf(text).encode(), crlf(text).encode("cp1252"), text.encode("utf-16")):
        path = tmp_path / "settings.toml"
        path.write_bytes(data)
        res = sfile.load_settings(path)
        assert res.message is None and res.backup is None  # read as meant: nothing reset, nothing kept aside
        assert res.settings.sound is False and res.settings.side("pig", 1).file == str(agent)
    path.write_bytes(crlf("sound = false\ntheme = [unclosed\n").encode("cp1252"))
    res = sfile.load_settings(path)
    assert res.message is not None and "line 2, column" in res.message


def test_an_agent_toml_file_saved_by_notepad(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_bytes(crlf('# mon agent pr\u00e9f\u00e9r\u00e9\nname = "alphabeta"\ndepth = 3\n').encode("cp1252"))
    assert parse_settings(str(path), profile_for("tictactoe")).depth == 3
    path.write_bytes(b"\xef\xbb\xbf" + b'name = "alphabeta"\r\ndepth = = 3\r\n')
    with pytest.raises(AgentError, match=r"line 2, column 9"):
        parse_settings(str(path), profile_for("tictactoe"))


def test_unknown_settings_are_named_and_kept_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    text = ('sond = false\n[games.checkers]\nsides = 3\n[games.checkers.p2]\nagent = "easy"\ndept = 4\n'
            '[games.checkers.p2.notes]\nwho = "me"\n')
    path.write_text(text, encoding="utf-8")
    res = sfile.load_settings(path)
    unknown = ("sond", "games.checkers.sides", "games.checkers.p2.dept", "games.checkers.p2.notes")
    assert res.unknown == unknown and res.problems == () and res.backup is None
    assert res.message == "Unknown settings kept in the file but not used: " + ", ".join(unknown)
    assert res.settings.side("checkers", 1).agent == "easy"  # the known keys beside them are used
    assert path.read_text(encoding="utf-8") == text  # nothing was rewritten
    sfile.save_settings(res.settings, path)  # saving from the window writes them back
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data["sond"] is False and data["games"]["checkers"]["sides"] == 3
    assert data["games"]["checkers"]["p2"]["dept"] == 4 and data["games"]["checkers"]["p2"]["notes"] == {"who": "me"}
    assert sfile.load_settings(path).unknown == unknown
    # beside an invalid value: the bad file is kept aside, and the rewritten one still holds the unknown keys
    path.write_text('theme = "purple"\n' + text, encoding="utf-8")
    res = sfile.load_settings(path)
    assert [f for f, _ in res.problems] == ["theme"] and res.backup is not None
    assert res.message is not None and res.message.endswith(
        "; unknown settings kept in the file but not used: " + ", ".join(unknown))
    assert tomllib.loads(path.read_text(encoding="utf-8"))["games"]["checkers"]["sides"] == 3


@pytest.mark.parametrize("written, depth", [('5', 5), ('"5"', 5), ('" 5 "', 5), ('5.0', 5)])
def test_a_number_in_quotes_reads_the_same_in_settings_and_agent_files(tmp_path: Path, written: str,
                                                                        depth: int) -> None:
    settings = tmp_path / "settings.toml"
    settings.write_text(f'[games.checkers.p2]\nagent = "custom"\ndepth = {written}\ntime = {written}\n',
                        encoding="utf-8")
    res = sfile.load_settings(settings)
    assert res.message is None and res.settings.side("checkers", 1).depth == depth
    assert res.settings.side("checkers", 1).time_budget_s == float(depth)
    agent = tmp_path / "mine.toml"
    agent.write_text(f'name = "alphabeta"\ndepth = {written}\ntime = {written}\n', encoding="utf-8")
    got = parse_settings(str(agent), profile_for("checkers"))
    assert (got.depth, got.time_budget_s) == (depth, float(depth))


def test_a_quoted_zero_is_no_limit_and_text_that_is_no_number_is_refused_alike(tmp_path: Path) -> None:
    side, problems = st.side_from_dict("checkers", 1, {"agent": "custom", "depth": "0", "time": "0"}, "p")
    assert problems == [] and (side.depth, side.time_budget_s) == (None, None)
    settings = tmp_path / "settings.toml"
    settings.write_text('[games.checkers.p2]\nagent = "custom"\ndepth = "five"\n', encoding="utf-8")
    res = sfile.load_settings(settings)
    assert res.problems == (("games.checkers.p2.depth", "expected 0 (no limit) or a whole number of plies from 1 to "
                                                        "64, got 'five'"),)
    agent = tmp_path / "mine.toml"
    agent.write_text('name = "alphabeta"\ndepth = "five"\n', encoding="utf-8")
    with pytest.raises(AgentError, match="depth must be a whole number of plies from 1 to 64, got 'five'"):
        parse_settings(str(agent), profile_for("checkers"))


def test_a_save_edited_in_notepad(tmp_path: Path) -> None:
    saved = SavedGame("tictactoe", ".........", ("4", "0"), ("human", "medium"))
    path = save_game(saved, tmp_path / "game.json")
    obj = json.loads(path.read_text(encoding="utf-8"))
    obj["saved_at"] = "apr\u00e8s-midi"
    for data in (crlf(json.dumps(obj, ensure_ascii=False, indent=1)).encode("cp1252"),
                 b"\xef\xbb\xbf" + crlf(json.dumps(obj, indent=1)).encode()):
        path.write_bytes(data)
        back = load_game(path)
        assert back.moves == ("4", "0") and back.saved_at == "apr\u00e8s-midi"
    path.write_bytes(b'{\r\n "format": "adversarial-arcade-game",\r\n "version": 1,\r\n "game" "pig"\r\n}')
    with pytest.raises(SaveError, match=r"line 4, column 9"):
        load_game(path)


def test_a_tree_file_saved_by_notepad(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tree.json"
    path.write_bytes(b"\xef\xbb\xbf[[3, 12, 8],\r\n [2, 4, 6],\r\n [14, 5, 2]]\r\n")
    code, out, _ = call(capsys, "tree", "--tree", str(path), "--agent", "alphabeta", "--json")
    assert code == 0 and json.loads(out)["value"] == 3
    path.write_bytes(b"[[3, 12, 8],\r\n [2, 4 6],\r\n [14, 5, 2]]\r\n")
    code, _, err = call(capsys, "tree", "--tree", str(path), "--agent", "alphabeta")
    assert code == 2 and "line 2, column 8" in err
    path.write_bytes(b"\x00\x01\x02binary")
    code, _, err = call(capsys, "tree", "--tree", str(path), "--agent", "alphabeta")
    assert code == 2 and "not a text file" in err and err.count("\n") == 1


@pytest.mark.parametrize("data, place", [
    (b"[[3,12,8], x]", "line 1, column 12: Expecting value"),          # one line: the line is named too
    (b"", "line 1, column 1: Expecting value"),                          # an empty file
    (b"\xef\xbb\xbf[[3,12,8],\r\n [2,4,6],\r\n [1,2,x]]\r\n", "line 3, column 7: Expecting value"),
])
def test_every_json_file_names_line_and_column_in_one_form(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            data: bytes, place: str) -> None:
    expected = f"not valid JSON ({place})"
    tree = tmp_path / "tree.json"
    tree.write_bytes(data)
    code, out, err = call(capsys, "tree", "--tree", str(tree), "--agent", "minimax")
    assert code == 2 and out == "" and err.count("\n") == 1 and f"tree is {expected}; expected e.g. [[" in err
    with pytest.raises(TreeError) as tree_error:
        parse_tree(read_text_file(tree).text)
    assert f"tree is {expected}" in str(tree_error.value)
    save = tmp_path / "game.json"
    save.write_bytes(data)
    with pytest.raises(SaveError) as save_error:
        load_game(save)
    assert expected in str(save_error.value)
    with pytest.raises(BookError) as book_error:
        load_book(save)
    assert f"is {expected}; expected a JSON object" in str(book_error.value)
    with pytest.raises(json.JSONDecodeError) as decode_error:  # the Tree Lab's words: the same place, no jargon
        json.loads(read_text_file(tree).text)
    lab = json_error_text(decode_error.value)
    assert lab.startswith(f"The tree is not valid JSON ({place.split(': ')[0]}): expected a list of subtrees")


def test_an_opening_book_with_a_bom(tmp_path: Path) -> None:
    path = tmp_path / "book.json"
    path.write_bytes(b"\x00\x00binary")
    with pytest.raises(BookError, match="not a text file"):
        load_book(path)
    path.write_bytes(b"\xef\xbb\xbf{\r\n\"format\": 1,\r\n}")
    with pytest.raises(BookError, match="line 3, column 1"):
        load_book(path)


AGENT = ('"""Mon agent: pr\u00e9f\u00e8re la premi\u00e8re case."""\n'
         'NAME = "caf\u00e9"\n'
         "def choose_move(state, time_left_s):\n"
         "    # len('caf\u00e9') is 4 only when the file was read as written\n"
         "    return game.format_move(state, game.actions(state)[len(NAME) - 4])\n")


@pytest.mark.parametrize("data", [
    crlf(AGENT).encode("cp1252"),                                   # Notepad's "ANSI"
    b"\xef\xbb\xbf" + crlf(AGENT).encode(),                         # Notepad's UTF-8
    ("# -*- coding: latin-1 -*-\n" + AGENT).encode("latin-1"),      # PEP 263 declaration
], ids=["cp1252", "utf8-bom", "latin1-cookie"])
def test_an_agent_file_from_a_windows_editor_is_checked_and_runs_as_written(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "mon_agent.py"
    path.write_bytes(data)
    info = inspect_agent_file(path)
    assert info.kind == "agent" and info.doc.startswith("Mon agent: pr\u00e9f\u00e8re")
    module = load_agent_module(str(path), None, lambda *a: {})
    assert module.NAME == "caf\u00e9"


def test_an_agent_file_from_a_windows_editor_plays_from_its_worker(tmp_path: Path) -> None:
    path = tmp_path / "mon_agent.py"
    path.write_bytes(crlf(AGENT).encode("cp1252"))  # Python's own import refused it (not UTF-8)
    agent = make_agent("tictactoe", f"file:{path}")
    try:
        assert agent.choose(agent.game.initial_state()).move == 0  # type: ignore[attr-defined]
    finally:
        agent.close()  # type: ignore[attr-defined]
    assert not [p for p in multiprocessing.active_children() if p.name.startswith("agent-")]


def test_agent_file_errors_name_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.py"
    path.write_bytes(b"def choose_move(state, time_left_s):\r\n    return (1 +\r\n")
    with pytest.raises(Exception, match=r"syntax error on line 2, column 12"):
        inspect_agent_file(path)
    path.write_bytes(b"x = 1\n" * 2000 + b"y = \x00\n")  # a NUL past the binary sniff
    with pytest.raises(Exception, match=r"a NUL character on line 2001, column 5"):
        inspect_agent_file(path)


def test_read_text_file_reads_from_disk(tmp_path: Path) -> None:
    path = tmp_path / "x.txt"
    path.write_bytes(b"\xef\xbb\xbfa\r\n")
    assert read_text_file(path).text == "a\n" and read_text_file(path).bom
