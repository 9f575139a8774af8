"""The game-file and output faults of issue 48, each with its case: a GAME object's file and its module's NAME and
PLAYERS, the display name on the command line, sys.exit in a game file, a binary file's first NUL, the move limit
named and settable, check's start-up limit, shot's preset checked before the window, and an output folder that
does not exist refused in one line."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from gameplay.cli import run
from gameplay.rules.game_file import LOOP_SECONDS, GameFileError, load_game_file, nul_place

ROOT = Path(__file__).resolve().parent.parent
NIM = ROOT / "examples" / "games" / "nim.py"

CLASS_GAME = '''
NAME = "Take-away"
PLAYERS = ("Ann", "Bob")


class TakeAway:
    def initial_state(self):
        return (5, "Ann")

    def to_move(self, state):
        return state[1]

    def actions(self, state):
        return [n for n in (1, 2) if n <= state[0]]

    def result(self, state, move):
        return (state[0] - move, "Bob" if state[1] == "Ann" else "Ann")

    def is_terminal(self, state):
        return state[0] == 0

    def utility(self, state, player):
        return -1 if player == state[1] else 1


GAME = TakeAway()
'''


def call(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_game_objects_file_honours_the_modules_name_and_players(tmp_path: Path) -> None:
    path = tmp_path / "take_away_class.py"
    path.write_text(CLASS_GAME, encoding="utf-8")
    game = load_game_file(str(path))
    assert game.title == "Take-away" and game.name == "take_away"
    assert game.player_names == ("Ann", "Bob") and game.to_move(game.initial_state()) == 0
    own = tmp_path / "own.py"  # the object's own NAME and PLAYERS win over the module's
    own.write_text(CLASS_GAME.replace("GAME = TakeAway()", "TakeAway.NAME = 'Own'\nGAME = TakeAway()"),
                   encoding="utf-8")
    assert load_game_file(str(own)).title == "Own"


def test_the_display_name_is_shown_and_the_id_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "takeaway.py"
    path.write_text(NIM.read_text(encoding="utf-8").replace('NAME = "Nim"', 'NAME = "Take-away"'), encoding="utf-8")
    code, out, _ = call(capsys, "tournament", f"game:{path}", "--agents", "random", "easy", "--games-per-pair", "1",
                        "--journal", str(tmp_path / "j.jsonl"), "--quiet")
    assert code == 0 and out.splitlines()[0].startswith("Take-away round robin: 2 agents")
    code, out, _ = call(capsys, "tournament", f"game:{path}", "--agents", "random", "easy", "--games-per-pair", "1",
                        "--journal", str(tmp_path / "j.jsonl"), "--quiet", "--json")
    assert code == 0 and "Take-away" not in json.loads(out)["game"]  # JSON keeps the id


def test_sys_exit_in_a_game_file_is_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "leaves.py"
    path.write_text("import sys\n\nsys.exit(3)\n", encoding="utf-8")
    with pytest.raises(GameFileError, match=r"^leaves.py line 3: the file called sys.exit\(3\) when loaded"):
        load_game_file(str(path))
    code, out, err = call(capsys, "moves", f"game:{path}")
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("error: leaves.py line 3: the file "
                                                                                "called sys.exit(3)")
    inside = tmp_path / "inside.py"  # in a function the program calls: the same, named by the function
    inside.write_text(NIM.read_text(encoding="utf-8").replace("def actions(state):\n",
                                                              "def actions(state):\n    import sys; sys.exit()\n"),
                      encoding="utf-8")
    with pytest.raises(GameFileError, match=r"actions\(\) called sys.exit\(\); a game file's functions return"):
        load_game_file(str(inside))


def test_a_binary_file_names_its_first_nul(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "binary.py"
    path.write_bytes(b"x = 1\nab\x00cd\x00\n")
    assert nul_place(str(path)) == (2, 3, 9)
    code, _, err = call(capsys, "moves", f"game:{path}")
    assert code == 2 and err == ("error: binary.py line 2: a NUL byte at column 3 (byte 9): this is a binary file, "
                                 "not Python source\n")


ENDLESS = '''"""Two players pass for ever."""
NAME = "Endless"


def initial_state():
    return 0


def to_move(state):
    return state


def actions(state):
    return ["pass"]


def result(state, move):
    return 1 - state


def is_terminal(state):
    return False


def utility(state, player):
    return 0
'''


def test_the_move_limit_is_named_and_settable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "endless.py"
    path.write_text(ENDLESS, encoding="utf-8")
    code, out, _ = call(capsys, "match", f"game:{path}", "--p1", "random", "--p2", "random", "--games", "2",
                        "--max-plies", "40", "--quiet")
    assert code == 0 and ("move limit: 2 of the 2 games reached 40 plies without an end and count as draws "
                          "(--max-plies N sets the limit)") in out
    code, out, _ = call(capsys, "match", f"game:{path}", "--p1", "random", "--p2", "random", "--games", "1",
                        "--quiet", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["max_plies"] == 2000 and obj["games_list"][0]["plies"] == 2000
    assert obj["games_list"][0]["termination"] == "move limit" and obj["draws"] == 1
    code, _, err = call(capsys, "match", f"game:{path}", "--p1", "random", "--p2", "random", "--max-plies", "0")
    assert code == 2 and err.startswith("error: --max-plies must be")


def test_a_tournament_names_and_sets_its_move_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The tournament's games stop at ``--max-plies`` (2,000 before, with no option), the text names how many did,
    ``--json`` gives the limit and the count; the journal of a tournament at the default limit reads as before."""
    path = tmp_path / "endless.py"
    path.write_text(ENDLESS, encoding="utf-8")
    code, out, _ = call(capsys, "tournament", f"game:{path}", "--agents", "random", "random:seed=2",
                        "--games-per-pair", "2", "--max-plies", "30", "--quiet",
                        "--journal", str(tmp_path / "t.jsonl"), "--games-dir", str(tmp_path))
    assert code == 0, out
    assert ("move limit: 2 of the 2 games reached 30 plies without an end and count as draws "
            "(--max-plies N sets the limit)") in out
    code, out, _ = call(capsys, "tournament", f"game:{path}", "--agents", "random", "random:seed=2",
                        "--games-per-pair", "2", "--max-plies", "30", "--quiet", "--json",
                        "--journal", str(tmp_path / "t.jsonl"), "--games-dir", str(tmp_path))
    obj = json.loads(out)
    assert code == 0 and obj["max_plies"] == 30 and obj["move_limit_games"] == 2 and obj["played_now"] == 0
    code, _, err = call(capsys, "tournament", f"game:{path}", "--agents", "random", "random:seed=2",
                        "--max-plies", "0")
    assert code == 2 and err.startswith("error: --max-plies must be")


@pytest.mark.slow
def test_checks_start_up_limit_is_the_game_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "loops.py"
    path.write_text("def minimax_decision(state, game):\n    return None\n\nwhile True:\n    pass\n",
                    encoding="utf-8")
    t0 = time.monotonic()
    code, _, err = call(capsys, "check", str(path))
    took = time.monotonic() - t0
    assert code == 2 and f"loops.py line 5: the file's top-level code did not return within {LOOP_SECONDS:g} s" in err
    assert took < LOOP_SECONDS + 10  # 30 s before (the worker's whole start-up limit)


def test_a_bad_shot_preset_is_refused_before_the_window(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    import gameplay.ui.shell.shot as shot

    def no_window(*_args: object) -> None:
        raise AssertionError("the window was opened for a bad preset")

    monkeypatch.setattr(shot, "render", no_window)
    code, _, err = call(capsys, "shot", "treelab", "--preset", "nope", "--size", "800x600", "--out",
                        str(tmp_path / "x.png"))
    assert code == 2 and err.startswith("error: unknown preset 'nope'; expected one of 'AIMA figure 5.2")


@pytest.mark.parametrize("args", [
    ("plot", "pig-policy", "--out", "{d}/x.png"),
    ("tree", "tictactoe", "--agent", "alphabeta:depth=2", "--out", "{d}/x.svg"),
    ("tree", "tictactoe", "--agent", "mcts:simulations=50", "--out", "{d}/x.png"),
    ("shot", "menu", "--size", "800x600", "--out", "{d}/x.png"),
    ("match", "tictactoe", "--p1", "random", "--p2", "random", "--games", "2", "--pdn", "{d}/x.pdn", "--quiet"),
    ("match", "tictactoe", "--p1", "random", "--p2", "random", "--games", "2", "--plot", "{d}/x.png", "--quiet"),
    ("tournament", "tictactoe", "--agents", "random", "easy", "--report", "{d}/r.html", "--quiet"),
    ("tournament", "tictactoe", "--agents", "random", "easy", "--journal", "{d}/j.jsonl", "--quiet"),
], ids=lambda a: " ".join(a[:2]) + " " + a[-2 if a[-1] == "--quiet" else -1].split("/")[-1])
def test_an_output_folder_that_does_not_exist_is_refused(args: tuple[str, ...], tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "no" / "such"
    code, out, err = call(capsys, *(a.replace("{d}", str(missing)) for a in args))
    assert code == 2 and err.count("\n") == 1 and err.startswith("error: ") and "does not exist" in err, err
    assert not (tmp_path / "no").exists()  # no folder made
