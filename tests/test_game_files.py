"""A game from a file (issue 25, item 4): ``game:PATH.py`` / ``--game-file PATH`` loads a teacher's game written
against the course's interface, checks it, and offers it like the built-in games: the command line (moves, perft,
analyze, tree with its narration, match and tournament with worker processes), the agents that fit its traits.
A broken file, of each kind, is refused with one line naming the file, the function and the line. (The window's
side: ``tests/test_game_files_window.py``.)"""

from __future__ import annotations

import json
import subprocess
import sys
from functools import reduce
from operator import xor
from pathlib import Path

import pytest

from ai.agents.agent_base import AgentError
from ai.agents.agents import make_agent
from ai.agents.profiles import profile_for
from gameplay import cli
from gameplay.rules import game_file
from gameplay.rules.base import GameError, IllegalMoveError, MoveError, PositionError
from gameplay.rules.game_file import FileGame, GameFileError, load_game_file
from gameplay.rules.registry import (
    game_info,
    game_names,
    make_game,
    normalize_name,
    portable_name,
    register_file,
)

ROOT = Path(__file__).resolve().parent.parent
NIM = ROOT / "examples" / "games" / "nim.py"
NIM_DOC = NIM.read_text(encoding="utf-8").split('"""')[1].strip()
"""The file's docstring."""
DOMINEERING = ROOT / "examples" / "games" / "domineering.py"


pytestmark = pytest.mark.usefixtures("only_builtin_games")
"""Each test ends with the built-in games only (tests/conftest.py)."""


def nim_perft(heaps: tuple[int, ...], depth: int) -> int:
    """Positions exactly ``depth`` plies down from ``heaps``, counted by hand (an empty table has no move)."""
    if depth == 0:
        return 1
    return sum(nim_perft(heaps[:h] + (heaps[h] - n,) + heaps[h + 1:], depth - 1)
               for h in range(len(heaps)) for n in range(1, heaps[h] + 1))


def call(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# -- loading the examples ------------------------------------------------------------------------------------------
def test_the_examples_load_as_games_with_their_names_and_players() -> None:
    nim = load_game_file(str(NIM))
    assert (nim.name, nim.title, nim.player_names) == ("nim", "Nim", ("Ann", "Bob"))
    assert not nim.has_board and not nim.has_evaluate and not nim.traits.stochastic
    start = nim.initial_state()
    assert nim.format_position(start) == "((1, 3, 5), 0)" and nim.parse_position("((1, 3, 5), 0)") == start
    assert [nim.format_move(start, m) for m in nim.actions(start)] == [
        "1:1", "2:1", "2:2", "2:3", "3:1", "3:2", "3:3", "3:4", "3:5"]
    assert nim.parse_move(start, "3:3") == (2, 3)
    with pytest.raises(MoveError, match="'3:6' is not a legal move here; the moves are 1:1, 2:1"):
        nim.parse_move(start, "3:6")
    with pytest.raises(IllegalMoveError):
        nim.result(start, (2, 6))
    with pytest.raises(PositionError, match="a Nim position is a state as Python writes it"):
        nim.parse_position("heaps 1 3 5")
    end = ((0, 0, 0), 1)  # Ann took the last object: Bob, to move, has lost
    assert nim.is_terminal(end) and nim.utility(end, 0) == 1.0 and nim.utility(end, 1) == -1.0
    out = nim.outcome(end)
    assert out is not None and out.winner == 0 and out.termination_text == "game over"
    assert nim.to_move(start) == 0 and nim.to_move(nim.result(start, (0, 1))) == 1

    dom = load_game_file(str(DOMINEERING))  # a GAME object in AIMA's class style, with board, move_at, evaluate
    assert (dom.name, dom.player_names) == ("domineering", ("Vertical", "Horizontal"))
    assert dom.has_board and dom.has_evaluate
    s = dom.result(dom.initial_state(), dom.move_at(0, 0))
    assert dom.board(s)[0][0] == dom.board(s)[1][0] == "V" and dom.format_move(s, (0, 0)) == "a4"
    s = dom.result(s, dom.move_at(0, 1))  # Horizontal covers b4 and c4
    grid = dom.board(s)
    free = {(r, c) for r in range(4) for c in range(4) if grid[r][c] == "."}
    vertical = sum((r + 1, c) in free for r, c in free)
    horizontal = sum((r, c + 1) in free for r, c in free)
    assert dom.evaluation(s, 0) == pytest.approx((vertical - horizontal) / 16) == -dom.evaluation(s, 1)


def test_the_same_file_twice_is_the_same_game_and_game_names_load_it() -> None:
    assert normalize_name(f"game:{NIM}") == "nim" == normalize_name(f"  GAME:{NIM}  ")
    info = game_info("nim")
    assert info.source_file == str(NIM) and game_names()[-1] == "nim"
    assert register_file(str(NIM)) == info and game_names().count("nim") == 1
    assert portable_name("nim") == f"game:{NIM}" and portable_name("pig") == "pig"
    assert isinstance(make_game("nim"), FileGame) and make_game("nim").name == "nim"
    assert info.rules_text == NIM_DOC and info.rules_text.startswith("Nim with heaps")  # the help's rules, as text


def test_a_file_whose_name_is_taken_gets_another(tmp_path: Path) -> None:
    copy = tmp_path / "pig.py"  # a teacher's file named like a built-in game
    copy.write_text(NIM.read_text(encoding="utf-8").replace('NAME = "Nim"', 'NAME = "Pig"'), encoding="utf-8")
    assert register_file(str(copy)).name == "pig_2" and game_info("pig").source_file == ""


# -- broken files: each kind refused with the file, the function and the line ---------------------------------------
GOOD = '''\
"""Take 1 or 2 sticks; the last stick wins."""


def initial_state():
    return (4, 0)


def to_move(state):
    return state[1]


def actions(state):
    return [n for n in (1, 2) if n <= state[0]]


def result(state, move):
    return (state[0] - move, 1 - state[1])


def is_terminal(state):
    return state[0] == 0


def utility(state, player):
    return -1 if player == state[1] else 1
'''


def variant(replace: str, by: str) -> str:
    assert replace in GOOD
    return GOOD.replace(replace, by)


BROKEN = {
    "missing function": (variant("def actions(state):\n    return [n for n in (1, 2) if n <= state[0]]\n", ""),
                         r"^sticks\.py: missing function actions\(state\)$"),
    "wrong arguments": (variant("def actions(state):", "def actions():  # HERE"),
                        r"^sticks\.py line {line}: actions takes 0 arguments; it must be actions\(state\)$"),
    "state that cannot be made hashable": (
        variant("def initial_state():\n    return (4, 0)",
                "def initial_state():  # HERE\n    return (4, 0, bytearray(2))"),
        r"^sticks\.py line {line}: initial_state\(\) returned \"\(4, 0, bytearray\(.*\)\)\", which cannot "
        r"be made hashable for the search's tables: it holds a bytearray, which is not hashable and has no fields"),
    "result mutates": (variant("def result(state, move):\n    return (state[0] - move, 1 - state[1])",
                               "def result(state, move):  # HERE\n    state[0] -= move\n    state[1] = 1 - state[1]\n"
                               "    return state").replace("return (4, 0)", "return [4, 0]"),
                       r"^sticks\.py line {line}: result\(state, move\) changed its argument state"),
    "utility not a number": (variant("def utility(state, player):\n    return -1 if player == state[1] else 1",
                                     "def utility(state, player):  # HERE\n    return 'lost'"),
                             r"^sticks\.py line {line}: utility\(state, player\) returned 'lost'; it must return a "
                             r"number"),
    "utility a bool": (variant("def utility(state, player):\n    return -1 if player == state[1] else 1",
                               "def utility(state, player):  # HERE\n    return player != state[1]"),
                       r"^sticks\.py line {line}: utility\(state, player\) returned (True|False); it must return"),
    "utility not a number (NaN)": (variant("    return -1 if player == state[1] else 1",
                                           "    return float('nan')  # HERE"),
                                   r"^sticks\.py line \d+: utility\(state, player\) returned nan"),
    "not zero-sum": (variant("def utility(state, player):\n    return -1 if player == state[1] else 1",
                             "def utility(state, player):  # HERE\n    return 0 if player == state[1] else 1"),
                     r"^sticks\.py line {line}: utility\(state, player\) gives .* zero-sum"),
    "exception inside": (variant("    return [n for n in (1, 2) if n <= state[0]]",
                                 "    return [n for n in (1, 2) if n <= state[0] / (state[0] - 3)]  # HERE"),
                         r"^sticks\.py line {line}: actions\(\) raised ZeroDivisionError: division by zero$"),
    "no move before the end": (variant("    return state[0] == 0", "    return state[0] < 0"),
                               r"^sticks\.py line \d+: actions\(state\) returned no move at '\(0, \d\)', which is "
                               r"not terminal"),
    "syntax error": (variant("def result(state, move):", "def result(state, move)  # HERE"),
                     r"^sticks\.py line {line}: syntax error: "),
    "raises when loaded": (GOOD + "\nHEAPS = [1, 2][5]  # HERE\n",
                           r"^sticks\.py line {line}: the file raised IndexError when loaded: list index out of "
                           r"range$"),
    "to_move names one player only": (variant("    return state[1]\n", "    return 'first'  # HERE\n"),
                                      r"^sticks\.py line \d+: to_move\(state\) returned 'first' at every state the "
                                      r"random games from the start reached; a game has two players"),
    "to_move names a third player": (variant("    return state[1]\n", "    return state[1] if state[0] > 1 else 'C'\n"),
                                     r"^sticks\.py line \d+: to_move\(state\) returned 'C'; it must return 0 or 1 "
                                     r"\(the players, the first to move first\)$"),
    "to_move not hashable": (variant("    return state[1]\n", "    return [state[1]]\n"),
                             r"^sticks\.py line \d+: to_move\(state\) returned \[0\], which is not hashable; a "
                             r"player is a label such as 0, 'X' or 'MAX'$"),
    "a state that cannot travel to a worker": (
        variant("def initial_state():\n    return (4, 0)", "def initial_state():  # HERE\n    return (4, 0, lambda: 0)")
        .replace("return (state[0] - move, 1 - state[1])", "return (state[0] - move, 1 - state[1], state[2])"),
        r"^sticks\.py line {line}: initial_state\(\) returned a state that cannot be pickled "
        r"\((Pickling|Attribute)Error: .*\): build states from Python's values"),
    "an endless loop in a function": (
        variant("def actions(state):\n", "def actions(state):\n    while state[0] == 1: pass  # HERE\n"),
        r"^sticks\.py line {line}: actions\(\) did not return within 0\.5 s while the file was loaded and checked "
        r"\(an endless loop\?\)$"),
    "an endless loop when loaded": (GOOD + "\nwhile True: pass  # HERE\n",
                                    r"^sticks\.py line {line}: the file's top-level code did not return within 0\.5 s"),
    "dice that do not add up": (GOOD + "\n\ndef is_chance(state):\n    return state[0] == 4\n\n\n"
                                "def chance_outcomes(state):  # HERE\n    return [(1, 0.5), (2, 0.25)]\n",
                                r"^sticks\.py line {line}: chance_outcomes\(state\) probabilities sum to 0\.75, not 1"),
}


def marked_line(source: str) -> int:
    return next(i for i, line in enumerate(source.splitlines(), 1) if "# HERE" in line)


@pytest.mark.parametrize("kind", list(BROKEN))
def test_each_kind_of_broken_file_is_refused_with_its_function_and_line(kind: str, tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_file, "LOOP_SECONDS", 0.5)  # an endless loop is stopped sooner than the 5 s
    source, pattern = BROKEN[kind]
    path = tmp_path / "sticks.py"
    path.write_text(source, encoding="utf-8")
    want = pattern.format(line=marked_line(source) if "{line}" in pattern else 0)
    with pytest.raises(GameFileError) as e:
        load_game_file(str(path))
    assert e.match(want), (kind, str(e.value))
    assert "\n" not in str(e.value) and "sticks" not in game_names()
    # the command line: the same one line, exit 2, no traceback; and it goes on with the next command
    code, out, err = call(capsys, "moves", f"game:{path}")
    assert code == 2 and out == "" and err.startswith("error: sticks.py") and err.count("\n") == 1
    assert "Traceback" not in err
    assert call(capsys, "moves", "tictactoe")[0] == 0


def test_the_good_variant_loads_and_a_missing_file_or_a_non_python_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "sticks.py"
    path.write_text(GOOD, encoding="utf-8")
    game = load_game_file(str(path))
    assert game.name == "sticks" and game.player_names == ("Player 1", "Player 2")
    with pytest.raises(GameFileError, match="cannot read the game file '.*nowhere.py'"):
        load_game_file(str(tmp_path / "nowhere.py"))
    with pytest.raises(GameFileError, match=r"a game file is a Python file \(\.py\)"):
        load_game_file(str(tmp_path / "sticks.txt"))


def test_an_error_while_playing_names_the_function_and_the_line(tmp_path: Path) -> None:
    """A fault the check's playouts did not meet (here only at one position) is still one GameFileError."""
    path = tmp_path / "sticks.py"
    source = variant("def actions(state):\n", "def actions(state):\n    if state == (3, 1): 1 / 0  # HERE\n")
    path.write_text(source, encoding="utf-8")
    with pytest.raises(GameFileError, match=rf"sticks\.py line {marked_line(source)}: actions\(\) raised"):
        load_game_file(str(path))  # the seeded playouts reach (3, 1)
    game = load_game_file(str(path.with_name("fine.py"))) if path.with_name("fine.py").write_text(GOOD) else None
    assert game is not None
    broken = FileGame(str(path), game.module)  # the good functions, then one that fails in play
    broken.fns["actions"] = lambda state: 1 / 0
    with pytest.raises(GameFileError, match=r"^sticks\.py line \d+: actions\(\) raised ZeroDivisionError"):
        broken.actions((3, 1))


# -- agents that fit the traits ---------------------------------------------------------------------------------------
DICE = '''\
"""Race to 5: on your turn choose "safe" (roll 1 or 2, even odds) or "bold" (roll 0 or 4), then add the roll to
your score; the first to 5 wins."""


def initial_state():
    return (0, 0, 0, None)  # scores, player to move, the choice waiting for its roll


def to_move(state):
    return state[2]


def is_chance(state):
    return state[3] is not None


def chance_outcomes(state):
    return [(1, 0.5), (2, 0.5)] if state[3] == "safe" else [(0, 0.5), (4, 0.5)]


def actions(state):
    return [] if is_terminal(state) else ["safe", "bold"]


def result(state, move):
    a, b, p, choice = state
    if choice is None:
        return (a, b, p, move)
    if p == 0:
        a += move
    else:
        b += move
    return (a, b, 1 - p, None)


def is_terminal(state):
    return state[3] is None and max(state[0], state[1]) >= 5


def utility(state, player):
    won = 0 if state[0] >= 5 else 1
    return 1 if player == won else -1


def evaluate(state, player):
    mine, theirs = (state[0], state[1]) if player == 0 else (state[1], state[0])
    return (mine - theirs) / 10
'''


def test_expectimax_where_there_is_chance_and_only_there(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "dice_race.py"
    path.write_text(DICE, encoding="utf-8")
    name = normalize_name(f"game:{path}")
    assert name == "dice_race" and make_game(name).traits.stochastic and not game_info(name).growth
    profile = profile_for(name)
    assert "expectimax" in profile.algorithms and "alphabeta" not in profile.algorithms
    with pytest.raises(AgentError, match="cannot play dice_race"):
        make_agent(name, "alphabeta")
    code, out, err = call(capsys, "analyze", name, "--agent", "expectimax:depth=4", "--json", "--quiet")
    assert code == 0, err
    assert json.loads(out)["move"] in ("safe", "bold")
    assert call(capsys, "moves", name, "--position", "(0, 0, 0, 'bold')", "--json")[1].count('"move"') == 2

    normalize_name(f"game:{NIM}")
    assert "expectimax" not in profile_for("nim").algorithms
    with pytest.raises(AgentError, match="expectimax is for games with chance nodes"):
        make_agent("nim", "expectimax")


def test_the_file_s_evaluate_is_the_depth_limited_search_s_evaluation() -> None:
    normalize_name(f"game:{DOMINEERING}")
    agent = make_agent("domineering", "alphabeta:depth=1")
    game = agent.game
    start = game.initial_state()
    res = agent.choose(start)
    # depth 1: the best value is the file's evaluate after the best move, for Vertical
    best = max(game.evaluation(game.result(start, m), 0) for m in game.actions(start))
    assert res.value == pytest.approx(best) and best != 0


# -- the command line ------------------------------------------------------------------------------------------------
def test_the_command_line_plays_nim(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = call(capsys, "moves", "--game-file", str(NIM), "--json")
    assert code == 0, err
    moves = json.loads(out)
    assert moves["game"] == "nim" and moves["to_move"] == "Ann" and len(moves["moves"]) == 9
    assert moves["moves"][6] == {"move": "3:3", "position": "((1, 3, 2), 1)"}
    assert call(capsys, "moves", f"game:{NIM}", "--position", "((0, 0, 0), 1)", "--json")[1].count("game over") == 1

    for depth in (1, 3, 5):
        code, out, err = call(capsys, "perft", f"game:{NIM}", "--depth", str(depth))
        assert code == 0 and out.strip() == str(nim_perft((1, 3, 5), depth))

    # heaps 1, 3, 5: the nim-sum is 7; the only move that leaves a nim-sum of 0 takes 3 from the heap of 5
    code, out, err = call(capsys, "analyze", f"game:{NIM}", "--agent", "alphabeta:depth=20", "--json", "--quiet")
    found = json.loads(out)
    assert found["move"] == "3:3" and found["outcome"] == "win"
    after = json.loads(call(capsys, "moves", f"game:{NIM}", "--json")[1])["moves"][6]
    assert after["move"] == "3:3" and reduce(xor, (1, 3, 2)) == 0 and after["position"].startswith("((1, 3, 2)")

    code, out, err = call(capsys, "moves", "nim", "--game-file", str(NIM))
    assert code == 2 and err.strip() == "error: give GAME or --game-file PATH, not both"
    code, out, err = call(capsys, "moves")
    assert code == 2 and "the following arguments are required: GAME (or --game-file PATH)" in err


def test_the_tree_command_narrates_a_nim_decision(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Heaps 0, 1, 2: taking one from the heap of 2 leaves 1 and 1, a win; the narration walks the whole search."""
    code, out, err = call(capsys, "tree", f"game:{NIM}", "--position", "((0, 1, 2), 0)", "--agent",
                          "alphabeta:depth=6", "--narrate", "--json", "--out", str(tmp_path / "nim.svg"))
    assert code == 0, err
    obj = json.loads(out)
    assert obj["move"] == "3:1" and len(obj["narration"]) == 2 * obj["recorded_nodes"]
    assert obj["narration"][0].startswith("Start at root (MAX)")
    assert any("3:1" in line for line in obj["narration"])
    assert (tmp_path / "nim.svg").read_text(encoding="utf-8").lstrip().startswith("<")


def test_match_and_tournament_play_the_examples_in_worker_processes(tmp_path: Path) -> None:
    """``--jobs 2``: each game in a process of the pool, each agent of the tournament in a process of its own;
    every one of them loads the file again (``game:PATH``: the record's portable name)."""
    env_cmd = [sys.executable, "main.py"]
    match = subprocess.run(env_cmd + ["match", f"game:{NIM}", "--p1", "alphabeta:depth=20", "--p2", "random",
                                      "--games", "4", "--jobs", "2", "--seed", "3", "--json"],
                           cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert match.returncode == 0, match.stderr
    m = json.loads(match.stdout)
    assert m["game"] == "nim" and m["games"] == 4
    first = [g for g in m["games_list"] if g["p1_first"]]
    assert first and all(g["winner"] == "p1" for g in first)  # the first player's win, played perfectly

    agent = tmp_path / "greedy.py"  # an agent file: isolated in its own process, which loads the game file too
    agent.write_text("def choose_move(state, time_left_s):\n    return game.actions(state)[-1]\n", encoding="utf-8")
    tour = subprocess.run(env_cmd + ["tournament", "--game-file", str(DOMINEERING), "--agents", "alphabeta:depth=3",
                                     "random", f"file:{agent}", "--games-per-pair", "2", "--jobs", "2", "--journal",
                                     str(tmp_path / "t.jsonl"), "--json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert tour.returncode == 0, tour.stderr
    t = json.loads(tour.stdout)
    assert t["game"] == "domineering" and t["complete"] and t["games"] == 6
    assert sum(row["forfeits"] for row in t["table"]) == 0 and len(t["table"]) == 3


def test_the_window_s_decision_worker_loads_the_file(tmp_path: Path) -> None:
    """The window searches in a spawned worker process; the record (with its file) travels with the decision."""
    import threading

    from ai.agents import worker
    normalize_name(f"game:{NIM}")
    agent = make_agent("nim", "alphabeta:depth=20")
    res = worker.choose_remote(agent, agent.game.initial_state(), threading.Event(), None, None)
    assert agent.game.format_move(agent.game.initial_state(), res.move) == "3:3" and res.outcome == "win"


def test_a_game_error_is_a_game_error() -> None:
    assert issubclass(GameFileError, GameError)


AIMA_TICTACTOE = '''\
"""Tic-tac-toe as AIMA's games.py writes it: actions() lists the empty squares even after a win."""
NAME = "aima_ttt"
PLAYERS = ("X", "O")
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def initial_state():
    return "." * 9


def to_move(state):
    return "X" if state.count("X") == state.count("O") else "O"


def actions(state):
    return [i for i, c in enumerate(state) if c == "."]


def result(state, move):
    return state[:move] + to_move(state) + state[move + 1:]


def winner(state):
    for a, b, c in LINES:
        if state[a] != "." and state[a] == state[b] == state[c]:
            return state[a]
    return None


def is_terminal(state):
    return winner(state) is not None or "." not in state


def utility(state, player):
    w = winner(state)
    return 0 if w is None else (1 if w == player else -1)
'''


def test_moves_listed_after_the_end_are_never_played(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file whose actions() goes on after a win (AIMA's tic-tac-toe): the search, perft, moves and the referee
    stop at is_terminal, so its values and counts equal the built-in tic-tac-toe's."""
    path = tmp_path / "aima_ttt.py"
    path.write_text(AIMA_TICTACTOE, encoding="utf-8")
    game = load_game_file(str(path))
    won = "'XXXOO....'"
    assert game.actions(game.parse_position(won)) == []
    code, out, _ = call(capsys, "perft", f"game:{path}", "--depth", "6")
    assert code == 0 and out.strip() == "54720"  # python main.py perft tictactoe --depth 6
    code, out, _ = call(capsys, "moves", f"game:{path}", "--position", won, "--json")
    assert code == 0 and json.loads(out)["moves"] == []
    # O to move wins at once with square 2 (a full search used to play on past X's wins and call it lost)
    code, out, _ = call(capsys, "analyze", f"game:{path}", "--position", "'.O.XXOXXO'", "--agent",
                        "alphabeta:depth=9", "--json", "--quiet")
    found = json.loads(out)
    assert code == 0 and (found["move"], found["outcome"], found["plies_to_end"]) == ("2", "win", 1)
    code, out, _ = call(capsys, "analyze", f"game:{path}", "--position", "'XX.OO....'", "--agent",
                        "alphabeta:depth=9", "--json", "--quiet")
    found = json.loads(out)
    assert (found["move"], found["outcome"], found["plies_to_end"]) == ("2", "win", 1)
