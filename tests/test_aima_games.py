"""Game files written as aima-python writes its games (issue 48): a ``Game`` subclass with ``initial``,
``actions``, ``result``, ``utility``, ``terminal_test``, ``to_move`` and ``display``, a ``StochasticGame`` with
``chances``, ``outcome`` and ``probability``; players named by any two labels ('MAX'/'MIN', 'X'/'O', 'A'/'B');
states that are namedtuples with a dict board and a list of moves; moves that are lists. The sample files
(``examples/games/aima_*.py``, ``tests/data/aima_games/``) load unmodified, are searched right (figure 5.2: a1
worth 3; tic-tac-toe: a draw; Connect Three and the dice race: the values an independent search of the file's own
class finds), play in ``match`` (in worker processes too) and keep their states as the game made them. A file whose
class is not a game is refused in aima-python's words. (The window: ``tests/test_aima_games_window.py``.)"""

from __future__ import annotations

import functools
import importlib.util
import json
import pickle
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from gameplay import cli
from gameplay.rules import game_file
from gameplay.rules.file_states import FreezeError, freeze, read_value
from gameplay.rules.game_file import GameFileError, Held, load_game_file
from gameplay.rules.registry import normalize_name

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "examples" / "games"
FIG52 = GAMES / "aima_fig52.py"
TICTACTOE = GAMES / "aima_tictactoe.py"
CONNECT_FOUR = GAMES / "aima_connect_four.py"
DICE = GAMES / "aima_dice_race.py"
NIM = GAMES / "aima_nim.py"
CONNECT_SMALL = ROOT / "tests" / "data" / "aima_games" / "connect_small.py"
SAMPLES = [FIG52, TICTACTOE, CONNECT_FOUR, DICE, NIM, CONNECT_SMALL]


pytestmark = pytest.mark.usefixtures("only_builtin_games")
"""Each test ends with the built-in games only (tests/conftest.py)."""


def call(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def analyze(capsys: pytest.CaptureFixture[str], path: Path, agent: str, position: str = "") -> dict[str, Any]:
    extra = ["--position", position] if position else []
    code, out, err = call(capsys, "analyze", f"game:{path}", *extra, "--agent", agent, "--json", "--quiet")
    assert code == 0, err
    found: dict[str, Any] = json.loads(out)
    return found


def own_module(path: Path) -> ModuleType:
    """The file run on its own, apart from the program's copy: the independent searches below use its class."""
    spec = importlib.util.spec_from_file_location(f"independent_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- loading: each sample unmodified, its players learned ------------------------------------------------------------
@pytest.mark.parametrize("path, labels, stochastic, proven", [
    (FIG52, ("MAX", "MIN"), False, False), (TICTACTOE, ("X", "O"), False, True),
    (CONNECT_FOUR, ("X", "O"), False, True), (DICE, ("W", "B"), True, True), (NIM, ("A", "B"), False, True),
    (CONNECT_SMALL, ("X", "O"), False, True)])
def test_each_sample_loads_unmodified_with_the_players_it_names(path: Path, labels: tuple[str, str],
                                                                stochastic: bool, proven: bool) -> None:
    game = load_game_file(str(path))
    assert game.aima and game.name == path.stem and game.player_names == labels
    assert game.traits.stochastic == stochastic and game.rolls == stochastic
    assert game.traits.proven_terminals == proven  # figure 5.2's utilities (3, 12, 8...) are payoffs, not wins
    start = game.initial_state()
    assert game.is_chance(start) == stochastic
    if not stochastic:
        assert game.to_move(start) == 0 and game.to_move(game.result(start, game.actions(start)[0])) == 1
    assert game.has_display
    assert game.shown["is_terminal"] == "terminal_test" and game.shown["initial_state"] == "initial"


def test_module_functions_with_players_a_and_b_and_no_players_load(tmp_path: Path) -> None:
    """The labels 'A' and 'B' without PLAYERS (refused before: "to_move(state) returned 'A'; it must return 0 or
    1"); the first to move is the first player, whichever label it has."""
    path = tmp_path / "sticks.py"
    path.write_text(
        "def initial_state():\n    return (5, 'B')\n\n\n"
        "def to_move(state):\n    return state[1]\n\n\n"
        "def actions(state):\n    return [n for n in (1, 2) if n <= state[0]]\n\n\n"
        "def result(state, move):\n    return (state[0] - move, 'A' if state[1] == 'B' else 'B')\n\n\n"
        "def is_terminal(state):\n    return state[0] == 0\n\n\n"
        "def utility(state, player):\n    return -1 if player == state[1] else 1\n", encoding="utf-8")
    game = load_game_file(str(path))
    assert game.player_names == ("B", "A")  # B moves first: the first player
    start = game.initial_state()
    assert start == (5, "B") and not isinstance(start, Held)  # a hashable state of Python's own stays as it is
    assert game.to_move(start) == 0 and game.utility((0, "A"), 0) == 1.0 and game.utility((0, "A"), 1) == -1.0


# -- searched right -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("agent", ["minimax:depth=2", "alphabeta:depth=2", "alphabeta:depth=9"])
def test_figure_5_2_max_plays_a1_worth_3(capsys: pytest.CaptureFixture[str], agent: str) -> None:
    found = analyze(capsys, FIG52, agent)
    assert (found["move"], found["value"], found["outcome"]) == ("a1", 3.0, None)
    assert found["pv"][0] == "a1"
    for position, move, value in (("'B'", "b1", -3.0), ("'C'", "c1", -2.0), ("'D'", "d3", -2.0)):
        found = analyze(capsys, FIG52, "minimax:depth=1", position)  # MIN's value: minus MAX's
        assert (found["move"], found["value"]) == (move, value)


def test_the_dict_board_tictactoe_is_a_draw_from_the_start_and_the_file_sees_its_own_states(
        capsys: pytest.CaptureFixture[str]) -> None:
    found = analyze(capsys, TICTACTOE, "alphabeta:depth=9")
    assert (found["value"], found["outcome"], found["plies_to_end"]) == (0.0, "draw", 9)
    assert found["position"].startswith("GameState(to_move='X', utility=0, board={}, moves=[(1, 1), (1, 2)")
    # a won position: X to play (1, 3) completes the top row
    won = ("GameState(to_move='X', utility=0, board={(1, 1): 'X', (1, 2): 'X', (2, 1): 'O', (2, 2): 'O'}, "
           "moves=[(1, 3), (2, 3), (3, 1), (3, 2), (3, 3)])")
    found = analyze(capsys, TICTACTOE, "alphabeta:depth=9", won)
    assert (found["move"], found["outcome"], found["plies_to_end"]) == ("(1,3)", "win", 1)

    game = load_game_file(str(TICTACTOE))
    seen: list[Any] = []
    own_result = game.fns["result"]

    def spy(state: Any, move: Any) -> Any:
        seen.append((state, move))
        return own_result(state, move)

    game.fns["result"] = spy  # what the file's result() is given: the GameState as it made it, a tuple move
    try:
        state = game.initial_state()
        for move in ((2, 2), (1, 1), (3, 3)):
            state = game.result(state, move)
    finally:
        game.fns["result"] = own_result
    module = game.module
    assert [type(s) for s, _ in seen] == [module.GameState] * 3 and all(isinstance(s.board, dict) for s, _ in seen)
    assert [m for _, m in seen] == [(2, 2), (1, 1), (3, 3)]
    assert isinstance(state, Held) and state.value.board == {(2, 2): "X", (1, 1): "O", (3, 3): "X"}
    assert game.display_text(state).splitlines() == ["O . .", ". X .", ". . X"]


@functools.cache
def _small_connect() -> Any:
    return own_module(CONNECT_SMALL).connect


def _negamax(g: Any, state: Any, memo: dict[Any, int] | None = None) -> int:
    """The small Connect Three's value for the side to move, searched on the file's own class (+1, 0, -1)."""
    memo = {} if memo is None else memo
    k = (tuple(sorted(state.board.items())), state.to_move)
    if k in memo:
        return memo[k]
    if g.terminal_test(state):
        v = int(g.utility(state, state.to_move))
    else:
        v = max(-_negamax(g, g.result(state, m), memo) for m in g.actions(state))
    memo[k] = v
    return v


def test_connect_three_on_x_y_moves_is_searched_to_the_value_the_file_s_own_class_gives(
        capsys: pytest.CaptureFixture[str]) -> None:
    g = _small_connect()
    truth = _negamax(g, g.initial)
    found = analyze(capsys, CONNECT_SMALL, "alphabeta:depth=12")
    assert {1: "win", 0: "draw", -1: "loss"}[truth] == found["outcome"]
    x, y = (int(v) for v in found["move"].strip("()").split(","))
    assert -_negamax(g, g.result(g.initial, (x, y))) == truth  # the move found keeps the value
    # positions off the start, read back from their text: the program's value equals the class's every time
    game = load_game_file(str(CONNECT_SMALL))
    rng = random.Random(5)
    state = game.initial_state()
    for _ in range(4):
        state = game.result(state, rng.choice(game.actions(state)))
    if not game.is_terminal(state):
        found = analyze(capsys, CONNECT_SMALL, "alphabeta:depth=12", game.format_position(state))
        expected = _negamax(g, game.raw(state))
        assert {1: "win", 0: "draw", -1: "loss"}[expected] == found["outcome"]


def test_the_full_connect_four_finds_the_winning_drop(capsys: pytest.CaptureFixture[str]) -> None:
    game = load_game_file(str(CONNECT_FOUR))
    state = game.initial_state()
    for move in ((1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2)):  # X: three on the bottom row, O above
        state = game.result(state, move)
    assert len(game.actions(state)) == 7 and game.parse_move(state, "(4, 1)") == (4, 1)
    found = analyze(capsys, CONNECT_FOUR, "alphabeta:depth=3", game.format_position(state))
    assert (found["move"], found["outcome"], found["plies_to_end"]) == ("(4,1)", "win", 1)
    assert game.display_text(state).splitlines()[-3:] == [
        "O O O . . . .", "X X X . . . .", "1 2 3 4 5 6 7"]


def _expectation(g: Any, state: Any, rolled: bool) -> float:
    """The dice race's value for W, by expectiminimax written here on the file's own class."""
    if g.terminal_test(state):
        return float(g.utility(state, "W"))
    if not rolled:
        return sum(g.probability(c) * _expectation(g, g.outcome(state, c), True) for c in g.chances(state))
    values = [_expectation(g, g.result(state, m), False) for m in g.actions(state)]
    return max(values) if state.to_move == "W" else min(values)


def test_the_dice_race_is_searched_by_expectiminimax_to_the_expectation_of_its_own_class(
        capsys: pytest.CaptureFixture[str]) -> None:
    g = own_module(DICE).DiceRace()
    game = load_game_file(str(DICE))
    start = game.initial_state()
    assert game.is_chance(start) and game.format_position(start).startswith("chance: RaceState(")
    outcomes = game.chance_outcomes(start)
    assert [o for o, _ in outcomes] == [1, 2, 3] and [p for _, p in outcomes] == pytest.approx([1 / 3] * 3)
    for roll, _ in outcomes:
        rolled = game.result(start, roll)
        assert not game.is_chance(rolled) and game.actions(rolled) == ["go", "stay"]
        truth = _expectation(g, g.outcome(g.initial, roll), True)
        found = analyze(capsys, DICE, "expectimax:depth=20", game.format_position(rolled))
        assert found["value"] == pytest.approx(truth, abs=1e-9), roll
        best = max(("go", "stay"), key=lambda m: _expectation(g, g.result(g.outcome(g.initial, roll), m), False))
        assert found["move"] == best
    assert abs(_expectation(g, g.initial, False)) < 1  # and the start's value is a real expectation (not +-1)
    # after a move the next player's chance comes first, as aima-python's play_game rolls before each move
    after = game.result(game.result(start, 3), "go")
    assert game.is_chance(after) and game.to_move(after) == 1 and game.raw(after).board == {"W": 3, "B": 0}


def test_nim_with_list_moves_plays_its_winning_move(capsys: pytest.CaptureFixture[str]) -> None:
    game = load_game_file(str(NIM))
    start = game.initial_state()
    moves = game.actions(start)
    assert all(isinstance(m, Held) and isinstance(m.value, list) for m in moves)  # a list move, kept hashable
    assert [game.format_move(start, m) for m in moves][:3] == ["[1,1]", "[2,1]", "[2,2]"]
    take = game.parse_move(start, "[3, 3]")  # typed with a space, as Python writes it
    assert take.value == [3, 3] and take == Held([3, 3], freeze([3, 3], "")[0], "") and hash(take) == hash(moves[6])
    after = game.result(start, take)
    assert game.raw(after).heaps == [1, 3, 2] and game.raw(start).heaps == [1, 3, 5]
    found = analyze(capsys, NIM, "alphabeta:depth=20")
    assert (found["move"], found["outcome"]) == ("[3,3]", "win")


# -- states kept hashable, sent to workers as they are ----------------------------------------------------------------
def test_equal_states_made_apart_are_one_key_and_a_dict_s_order_does_not_matter() -> None:
    game = load_game_file(str(TICTACTOE))
    def play(*moves: tuple[int, int]) -> Any:
        state = game.initial_state()
        for move in moves:
            state = game.result(state, move)
        return state

    a, b = play((1, 1), (2, 2), (3, 3)), play((3, 3), (2, 2), (1, 1))  # the same position, reached two ways
    assert game.raw(a) is not game.raw(b) and game.raw(a).board == game.raw(b).board
    assert list(game.raw(a).board) != list(game.raw(b).board)  # the dicts' order differs, not their contents
    assert a == b and hash(a) == hash(b) and len({a, b, play((1, 1), (3, 3), (2, 2))}) == 2
    assert freeze({"x": [1, 2]}, "m") == freeze({"x": [1, 2]}, "m") and freeze([1, 2], "m")[0] != freeze((1, 2), "m")[0]
    with pytest.raises(FreezeError, match="a bytearray"):
        freeze((1, bytearray(1)), "m")
    assert read_value("frozenset({1, 2})", {"frozenset": frozenset}) == frozenset({1, 2})
    with pytest.raises(ValueError, match="a call of 'open'"):
        read_value("open('x')", {})


def test_a_held_state_travels_to_a_fresh_process_as_the_game_made_it(tmp_path: Path) -> None:
    """Pickled, a state of the file's namedtuple is its file and its own pickle: a process that has never loaded
    the file (a worker) loads it, then the state, which compares equal to the one sent."""
    game = load_game_file(str(TICTACTOE))
    state = game.result(game.initial_state(), (2, 2))
    data = pickle.dumps((state, game.actions(state)[0]))
    blob = tmp_path / "state.pickle"
    blob.write_bytes(data)
    code = ("import pickle, sys; s, m = pickle.loads(open(sys.argv[1], 'rb').read()); "
            "print(type(s.value).__name__, s.value.board, s.value.to_move, m, hash(s) == hash(pickle.loads("
            "pickle.dumps(s))))")
    out = subprocess.run([sys.executable, "-c", code, str(blob)], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["GameState", "{(2,", "2):", "'X'}", "O", "(1,", "1)", "True"]
    assert pickle.loads(data)[0] == state


def test_match_plays_each_sample_and_the_workers_load_it(capsys: pytest.CaptureFixture[str]) -> None:
    for path in SAMPLES:
        first = "expectimax:depth=2" if path == DICE else "alphabeta:depth=2"
        code, out, err = call(capsys, "match", f"game:{path}", "--p1", first, "--p2", "random", "--games", "2",
                              "--seed", "1", "--json")
        assert code == 0, (path.name, err)
        m = json.loads(out)
        assert m["games"] == 2 and len(m["games_list"]) == 2, path.name
    result = subprocess.run([sys.executable, "main.py", "match", f"game:{TICTACTOE}", "--p1", "alphabeta:depth=9",
                             "--p2", "alphabeta:depth=9", "--games", "2", "--jobs", "2", "--json"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    m = json.loads(result.stdout)
    assert [g["winner"] for g in m["games_list"]] == [None, None]  # perfect play: two draws


def test_positions_are_written_and_read_back_along_random_games() -> None:
    for path in SAMPLES:
        game = load_game_file(str(path))
        rng = random.Random(path.name)
        state = game.initial_state()
        while True:
            text = game.format_position(state)
            again = game.parse_position(text)
            assert again == state and hash(again) == hash(state) and game.format_position(again) == text, text
            if game.is_terminal(state):
                break
            if game.is_chance(state):
                state = game.result(state, rng.choice([o for o, _ in game.chance_outcomes(state)]))
            else:
                move = rng.choice(game.actions(state))
                assert game.parse_move(state, game.format_move(state, move)) == move
                state = game.result(state, move)


# -- errors in aima-python's words ------------------------------------------------------------------------------------
BASE = '''\
from collections import namedtuple

State = namedtuple("State", "to_move, sticks")


class Game:
    def actions(self, state):
        raise NotImplementedError

    def result(self, state, move):
        raise NotImplementedError

    def utility(self, state, player):
        raise NotImplementedError

    def terminal_test(self, state):
        return not self.actions(state)

    def to_move(self, state):
        return state.to_move


class Sticks(Game):  # HERE
    initial = State("MAX", 4)

    def actions(self, state):
        return [n for n in (1, 2) if n <= state.sticks]

    def result(self, state, move):
        return State("MIN" if state.to_move == "MAX" else "MAX", state.sticks - move)

    def utility(self, state, player):
        return 1 if player != state.to_move else -1
'''


def variant(old: str, new: str) -> str:
    assert old in BASE
    return BASE.replace(old, new)


AIMA_ERRORS = {
    "the class lacks a method": (
        variant("class Sticks(Game):", "class Sticks:"),
        r"^sticks\.py line {line}: the game class Sticks has no to_move\(state\) and terminal_test\(state\): "
        r"aima-python's Game has "
        r"initial, actions\(state\), result\(state, move\), utility\(state, player\), terminal_test\(state\) and "
        r"to_move\(state\)$"),
    "the class lacks initial": (
        variant('    initial = State("MAX", 4)\n', ""),
        r"^sticks\.py line {line}: the game class Sticks has no initial: aima-python's Game has initial, "),
    "a method left to the subclass": (
        variant('    def utility(self, state, player):\n        return 1 if', '    def utility_(self, state, player):'
                                                                               '\n        return 1 if'),
        r"^sticks\.py line \d+: utility\(\) raised NotImplementedError: the game class must define it "
        r"\(aima-python's Game leaves it to each game\)$"),
    "two game classes": (
        BASE + "\n\nclass MoreSticks(Sticks):\n    initial = State('MAX', 7)\n",
        r"^sticks\.py: the file has several game classes \(Sticks, MoreSticks\); name the one to play: "
        r"GAME = MoreSticks\(\)$"),
    "a class that takes arguments": (
        variant('    initial = State("MAX", 4)\n',
                '    def __init__(self, n):\n        self.initial = State("MAX", n)\n'),
        r"^sticks\.py line {line}: the game class Sticks takes arguments; make the game in the file, e\.g\. "
        r"GAME = Sticks\(\.\.\.\)$"),
    "two game objects": (
        BASE + "\n\nsmall = Sticks()\nlarge = Sticks()\n",
        r"^sticks\.py: the file has several games \(small, large\); name the one to play: GAME = small$"),
    "initial as a method": (
        variant('    initial = State("MAX", 4)\n', '    def initial(self):\n        return State("MAX", 4)\n'),
        r"^sticks\.py line \d+: initial is a function; in aima-python's Game it is the start state itself "
        r"\(self\.initial = \.\.\.\)$"),
    "dice without probability": (
        variant("class Sticks(Game):  # HERE", "class Sticks(Game):  # HERE\n    def chances(self, state):\n"
                "        return [1]\n\n    def outcome(self, state, chance):\n        return state\n"),
        r"^sticks\.py line {line}: the game has chances but no probability\(chance\): aima-python's StochasticGame "
        r"needs chances\(state\), outcome\(state, chance\) and probability\(chance\)$"),
    "nothing that is a game": (
        "X = 1\n\n\ndef helper(state):  # HERE\n    return state\n",
        r"^sticks\.py: no game in the file: write the functions initial_state\(\), to_move\(state\), .* at the top "
        r"level, or a game class as aima-python's games4e\.py does \(initial, actions\(state\)"),
}


@pytest.mark.parametrize("kind", list(AIMA_ERRORS))
def test_a_file_whose_class_is_not_a_game_is_refused_in_aima_python_s_words(kind: str, tmp_path: Path,
                                                                            capsys: pytest.CaptureFixture[str]) -> None:
    source, pattern = AIMA_ERRORS[kind]
    path = tmp_path / "sticks.py"
    path.write_text(source, encoding="utf-8")
    line = next(i for i, text in enumerate(source.splitlines(), 1) if "# HERE" in text)
    with pytest.raises(GameFileError) as e:
        load_game_file(str(path))
    assert e.match(pattern.format(line=line)), (kind, str(e.value))
    code, out, err = call(capsys, "moves", f"game:{path}")
    assert code == 2 and err.startswith("error: sticks.py") and err.count("\n") == 1


def test_the_good_base_loads_as_its_one_class_or_as_game(tmp_path: Path) -> None:
    path = tmp_path / "sticks.py"
    path.write_text(BASE, encoding="utf-8")
    game = load_game_file(str(path))
    assert game.player_names == ("MAX", "MIN") and type(game.raw(game.initial_state())).__name__ == "State"
    path.write_text(BASE + "\n\nclass MoreSticks(Sticks):\n    initial = State('MAX', 7)\n\n\nGAME = MoreSticks\n",
                    encoding="utf-8")
    game = load_game_file(str(path), reload=True)  # GAME names a class: made with no arguments
    assert game.raw(game.initial_state()).sticks == 7


def test_the_same_file_under_another_name_keeps_its_classes(tmp_path: Path) -> None:
    """A worker asks for the file by its registered name after a state of it was unpickled: the module is not run
    again, so the state's namedtuple class is still the file's."""
    game = load_game_file(str(TICTACTOE))
    other = load_game_file(str(TICTACTOE), name="ttt_again")
    assert other is not game and other.module is game.module and other.name == "ttt_again"
    assert other.initial_state() == game.initial_state()
    again = game_file.load_game_file(str(TICTACTOE))  # no name: the file's own game, not the last name asked for
    assert again is game and again.name == "aima_tictactoe"


def test_a_saved_game_of_each_sample_replays_to_the_same_state(tmp_path: Path) -> None:
    """The save file holds the start as the state's text and the moves as their texts; replayed, the states equal
    the ones played (a dict board, a list of moves, the dice race's rolls)."""
    from ai.agents.agents import make_agent
    from gameplay.files.savegame import SavedGame, from_record
    for path in SAMPLES:
        game = load_game_file(str(path))
        name = normalize_name(f"game:{path}")
        rng = random.Random(2)
        start = state = game.initial_state()
        moves = []
        for _ in range(5):
            if game.is_terminal(state):
                break
            choices = [o for o, _ in game.chance_outcomes(state)] if game.is_chance(state) else game.actions(state)
            move = rng.choice(choices)
            moves.append(move)
            state = game.result(state, move)
        agents = [make_agent(name, "human"), make_agent(name, "random")]
        saved = SavedGame.loads(from_record(name, game, start, moves, agents).dumps())
        again, played = saved.replay(game)
        assert again == start and played == moves, path.name
        for move in played:
            again = game.result(again, move)
        assert again == state and game.raw(again) == game.raw(state)


def test_a_module_helper_named_display_with_other_arguments_is_left_alone(tmp_path: Path) -> None:
    """``display`` is aima-python's optional method; a file of functions whose own ``display()`` takes no state
    (written before display(state) meant anything here) still loads, and its card shows the position."""
    source = (ROOT / "examples" / "games" / "nim.py").read_text(encoding="utf-8")
    path = tmp_path / "heaps.py"
    path.write_text(source + "\n\ndef display():\n    return 'not a state'\n", encoding="utf-8")
    game = load_game_file(str(path))
    assert not game.has_display and game.display_text(game.initial_state()) == "((1, 3, 5), 0)"
    path.write_text(source + "\n\ndef display(state):\n    print('heaps', *state[0])\n", encoding="utf-8")
    game = load_game_file(str(path), reload=True)
    assert game.has_display and game.display_text(game.initial_state()) == "heaps 1 3 5"


def test_a_held_value_that_cannot_be_pickled_says_which_file_and_value(tmp_path: Path) -> None:
    game = load_game_file(str(TICTACTOE))
    held = game.held({"square": (1, 1), "note": lambda: 0})  # a value met in play, after the check's games
    with pytest.raises(pickle.PicklingError, match=r"^aima_tictactoe\.py: the value .*'square'.* cannot be sent to "
                                                   r"the AI's worker process \("):
        pickle.dumps(held)


def test_a_dice_game_of_functions_that_names_nobody_at_its_first_roll_loads(tmp_path: Path) -> None:
    """A file of functions whose game starts with a roll and whose to_move says None there: the first player is
    the one to move after the roll."""
    path = tmp_path / "roll_first.py"
    path.write_text(
        "def initial_state():\n    return (0, 0, 'W', None)\n\n\n"
        "def to_move(state):\n    return None if state[3] is None else state[2]\n\n\n"
        "def is_chance(state):\n    return state[3] is None\n\n\n"
        "def chance_outcomes(state):\n    return [(1, 0.5), (2, 0.5)]\n\n\n"
        "def actions(state):\n    return ['add', 'pass']\n\n\n"
        "def result(state, move):\n    w, b, p, roll = state\n    if roll is None:\n        return (w, b, p, move)\n"
        "    gain = roll if move == 'add' else 0\n    w, b = (w + gain, b) if p == 'W' else (w, b + gain)\n"
        "    return (w, b, 'B' if p == 'W' else 'W', None)\n\n\n"
        "def is_terminal(state):\n    return max(state[0], state[1]) >= 3\n\n\n"
        "def utility(state, player):\n    return (1 if state[0] >= 3 else -1) * (1 if player == 'W' else -1)\n",
        encoding="utf-8")
    game = load_game_file(str(path))
    assert game.player_names == ("W", "B") and game.traits.stochastic and not game.rolls
    assert game.to_move(game.result(game.initial_state(), 2)) == 0
