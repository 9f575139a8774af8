"""A new game through its registry record alone (issue 24): a throwaway "take 1 or 2 sticks" game, written here
against the ``Game`` protocol, is registered with ``register(GameInfo(...))``, played in the window (menu card,
match with the generic view, help, settings tab, race) and on the command line (``moves``, ``perft``,
``analyze``), then unregistered. Nothing else in the program is told about it. Given its own window parts
(``register_window_parts``, issue 46), the window uses them: its view, card picture, help and place in the show."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pygame
import pytest
from ui_driver import click, frames, key, pump

from ai.agents.game_parts import DEFAULT_PARTS
from gameplay import cli
from gameplay.rules.archive import ArchivedGame, ArchiveFormat
from gameplay.rules.base import DeterministicGame, GameError, IllegalMoveError, MoveError, Outcome, PositionError
from gameplay.rules.openings import Opening, OpeningDeck
from gameplay.rules.registry import (
    GAME_NAMES,
    GameInfo,
    UnknownGameError,
    game_info,
    game_names,
    make_game,
    opening_deck_names,
    register,
    unregister,
)

PILE = 7
"""Sticks at the start."""


class Sticks(DeterministicGame[tuple[int, int], int]):
    """Take 1 or 2 sticks from one pile; whoever takes the last stick wins. A position is ``"<sticks>,<player>"``
    (``"7,Ann"``); a move is the number of sticks taken (``"1"`` or ``"2"``). Leaving a multiple of 3 wins."""

    name = "sticks"
    player_names = ("Ann", "Bob")

    def initial_state(self) -> tuple[int, int]:
        return (PILE, 0)

    def to_move(self, state: tuple[int, int]) -> int:
        return state[1]

    def actions(self, state: tuple[int, int]) -> list[int]:
        return [n for n in (1, 2) if n <= state[0]]

    def result(self, state: tuple[int, int], move: int) -> tuple[int, int]:
        if move not in self.actions(state):
            raise IllegalMoveError(f"cannot take {move} of {state[0]} sticks")
        return (state[0] - move, 1 - state[1])

    def outcome(self, state: tuple[int, int]) -> Outcome | None:
        return Outcome(1 - state[1], "last stick taken") if state[0] == 0 else None

    def parse_position(self, text: str) -> tuple[int, int]:
        sticks, _, who = text.partition(",")
        if not sticks.strip().isdigit() or who.strip() not in self.player_names:
            raise PositionError(f"a sticks position is '<sticks>,Ann' or '<sticks>,Bob', got {text!r}")
        return (int(sticks), self.player_names.index(who.strip()))

    def format_position(self, state: tuple[int, int]) -> str:
        return f"{state[0]},{self.player_names[state[1]]}"

    def parse_move(self, state: tuple[int, int], text: str) -> int:
        if text.strip() not in ("1", "2") or int(text) not in self.actions(state):
            raise MoveError(f"take 1 or 2 sticks (at most {state[0]}), got {text!r}")
        return int(text)

    def format_move(self, state: tuple[int, int], move: int) -> str:
        return str(move)


def count(sticks: int, depth: int) -> int:
    """Perft by hand: positions exactly ``depth`` plies down (a finished game has no moves)."""
    if depth == 0:
        return 1
    return sum(count(sticks - n, depth - 1) for n in (1, 2) if n <= sticks and sticks > 0)


@pytest.fixture
def sticks() -> Iterator[GameInfo]:
    """The game registered by its record alone (every other field keeps its default), then removed."""
    info = register(GameInfo("sticks", "Sticks", "sticks", __name__, "Sticks",
                             blurb="Take 1 or 2; the last stick wins"))
    try:
        yield info
    finally:
        unregister("sticks")


def test_register_and_unregister_change_only_the_live_list(sticks: GameInfo) -> None:
    assert game_names()[-1] == "sticks" and game_info(" Sticks ") is sticks
    assert isinstance(make_game("sticks"), Sticks)
    with pytest.raises(ValueError, match="already registered"):
        register(sticks)
    with pytest.raises(ValueError, match="built-in"):
        unregister("pig")
    with pytest.raises(ValueError, match="lower case"):
        register(GameInfo("Bad Name", "x", "x", __name__, "Sticks"))


def test_the_record_is_gone_after_unregister() -> None:
    info = register(GameInfo("sticks", "Sticks", "sticks", __name__, "Sticks"))
    assert unregister("sticks") is info
    assert "sticks" not in game_names()
    with pytest.raises(UnknownGameError):
        make_game("sticks")


def test_the_command_line_plays_it(sticks: GameInfo, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.run(["moves", "sticks", "--json"]) == 0
    moves = json.loads(capsys.readouterr().out)
    assert moves["to_move"] == "Ann" and [m["move"] for m in moves["moves"]] == ["1", "2"]
    assert [m["position"] for m in moves["moves"]] == ["6,Bob", "5,Bob"]

    assert cli.run(["perft", "sticks", "--depth", "5"]) == 0
    assert capsys.readouterr().out.strip() == str(count(PILE, 5))

    # 7 sticks: taking 1 leaves 6 (a multiple of 3), a proven win in 5 plies at the most; a full search finds it
    assert cli.run(["analyze", "sticks", "--agent", "alphabeta:depth=9", "--json", "--quiet"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["move"] == "1" and found["outcome"] == "win"
    assert cli.run(["analyze", "sticks", "--position", "4,Bob", "--agent", "medium", "--json", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["move"] == "1"  # leaves 3

    assert cli.run(["moves", "nope"]) == 2  # bad input names the new game among the choices
    assert f"expected one of {', '.join(GAME_NAMES)}, sticks or game:PATH.py" in capsys.readouterr().err


def test_the_window_plays_it(sticks: GameInfo, tmp_path: Any) -> None:
    from gameplay.ui.boards.board import GenericView
    from gameplay.ui.play.match import MatchScene
    from gameplay.ui.scenes.menu import MenuScene
    from gameplay.ui.shell.app import App

    app = App(size=(1280, 800), fps=1000)
    try:
        app.open_menu()
        frames(app, 2)
        menu = app.scene
        assert isinstance(menu, MenuScene) and "sticks" in menu.games
        key(app, pygame.K_LEFT)  # round the row to the last card (on the next page when five do not fit)
        assert menu.game == "sticks" and menu.widget("name.sticks").text == "Sticks"
        click(app, menu.widget("play.sticks").get_abs_rect().center)  # human against medium, the record's defaults
        scene = app.scene
        assert isinstance(scene, MatchScene) and scene.game_name == "sticks"
        assert isinstance(scene.view, GenericView)
        scene.ai_delay_s = 0.0  # the test's frames are short: no pause before the AI's move
        buttons = scene.action_buttons
        assert [move for _, move in buttons] == [1, 2]
        click(app, buttons[0][0].get_abs_rect().center)  # Ann takes one stick
        pump(app, lambda: scene.record.ply >= 2)  # Bob (medium: the generic profile's alpha-beta) answers
        assert scene.record.moves[0] == 1
        key(app, pygame.K_F1)  # the help: the generic rules line and the common keys
        help_window = scene.aids.help
        assert help_window is not None and "Play by clicking" in help_window.text.html_text
        key(app, pygame.K_F1)
        key(app, pygame.K_k)  # the race: the default line-up and budget (the game offers no agents' parts)
        race = app.scene
        assert getattr(race, "specs", None) == DEFAULT_PARTS.race_agents and race.budget == DEFAULT_PARTS.race_budget
        pygame.image.save(pygame.display.get_surface(), str(tmp_path / "race.png"))
        app.open_settings("sticks")  # the settings panel has the game's tab, with the record's defaults
        frames(app, 2)
        assert app.settings.games["sticks"].sides[1].agent == "medium"
        assert app.settings.games["sticks"].sides[1].depth == sticks.custom_depth
    finally:
        app.close()


def test_the_window_s_worker_process_learns_the_game(sticks: GameInfo) -> None:
    """The window searches in a spawned worker process (a fresh interpreter): the record travels with the
    decision, so the worker knows a game registered after it started."""
    import threading

    from ai.agents import worker
    from ai.agents.agents import make_agent
    agent = make_agent("sticks", "alphabeta:depth=9")
    assert agent.portable
    res = worker.choose_remote(agent, agent.game.initial_state(), threading.Event(), None, None)
    assert res.move == 1 and res.outcome == "win"


# ----- a game's own window parts (issue 46) ---------------------------------------------------------------------
class SticksView:
    """The stand-in's own board view: a row of sticks, one button per move (what it drew is kept for the test)."""

    def __init__(self, game: Any) -> None:
        from gameplay.ui.boards.board import ButtonController
        self.game = game
        self.controller = ButtonController
        self.drawn: list[int] = []
        """The sticks left in each position drawn."""

    def draw(self, surface: Any, rect: Any, state: tuple[int, int], view: Any) -> None:
        self.drawn.append(state[0])
        for i in range(state[0]):
            pygame.draw.line(surface, (200, 170, 90), (rect.x + 20 + 14 * i, rect.y + 20),
                             (rect.x + 20 + 14 * i, rect.y + 90), 5)

    def hit_test(self, rect: Any, state: Any, pos: tuple[int, int]) -> None:
        return None

    def make_controller(self) -> Any:
        return self.controller(self.game)


CARDS: list[tuple[int, int]] = []
"""The sizes of the card pictures :func:`sticks_card` drew."""


def sticks_card(surface: Any, rect: Any) -> None:
    """The stand-in's card picture: three sticks."""
    CARDS.append(rect.size)
    for i in range(3):
        x = rect.x + 10 + 12 * i
        pygame.draw.line(surface, (200, 170, 90), (x, rect.y + 5), (x, rect.bottom - 5), 4)


def test_a_registered_game_s_window_parts_are_used(sticks: GameInfo) -> None:
    from gameplay.ui.boards.window_parts import (
        WindowParts,
        register_window_parts,
        unregister_window_parts,
        window_parts,
    )
    from gameplay.ui.play.help_scene import help_html
    from gameplay.ui.play.match import MatchScene
    from gameplay.ui.scenes.menu import MenuScene
    from gameplay.ui.shell import attract
    from gameplay.ui.shell.app import App

    generic = window_parts("sticks")  # no parts of its own: the generic view and help
    assert generic.view is None and generic.attract is None and generic.keys == (("click", "a move's button"),)
    parts = WindowParts(view=SticksView, card_picture=sticks_card,
                        rules_html="Take <b>1 or 2</b> sticks; whoever takes the last one wins.",
                        keys=(("1 / 2", "take one or two sticks"),), hidden_keys=("T",),
                        attract=("random", "medium"))
    assert register_window_parts("sticks", parts) is parts and window_parts(" Sticks ") is parts
    with pytest.raises(TypeError, match="WindowParts"):
        register_window_parts("sticks", "gameplay.ui.boards.board:GenericView")  # type: ignore[arg-type]
    with pytest.raises(UnknownGameError):
        register_window_parts("nope", parts)
    app = App(size=(1280, 800), fps=1000)
    try:
        text = help_html("sticks", "Sticks")
        assert "Take <b>1 or 2</b> sticks" in text and "take one or two sticks" in text
        assert "search tree" not in text and "Play by clicking" not in text  # T hidden; its own rules
        assert attract.show()[-1] == ("sticks", "random", "medium")
        CARDS.clear()
        app.open_menu()
        frames(app, 2)
        menu = app.scene
        assert isinstance(menu, MenuScene)
        key(app, pygame.K_LEFT)  # the last card: its picture is the game's own
        frames(app, 1)
        assert CARDS and "pic.sticks" in menu.widgets
        scene = app.start_match("sticks", "human", "human")
        frames(app, 2)
        assert isinstance(scene, MatchScene) and isinstance(scene.view, SticksView)
        assert scene.view.drawn[-1] == PILE
        click(app, scene.action_buttons[1][0].get_abs_rect().center)  # take two: the view draws five sticks
        frames(app, 2)
        assert scene.record.moves == [2] and scene.view.drawn[-1] == PILE - 2
        key(app, pygame.K_F1)
        assert scene.aids.help is not None and "take one or two sticks" in scene.aids.help.html()
        assert scene.aids.help.policy_button is None  # no figure in its parts
    finally:
        app.close()
        unregister_window_parts("sticks")
    assert window_parts("sticks") == generic and attract.show()[-1][0] != "sticks"


def test_the_parts_of_a_built_in_game_can_be_replaced_for_a_while() -> None:
    from gameplay.ui.boards.board import GenericView
    from gameplay.ui.boards.checkers_view import CheckersView
    from gameplay.ui.boards.views import view_for
    from gameplay.ui.boards.window_parts import DEFAULT_PARTS, replaced_window_parts, window_parts
    from gameplay.ui.play.help_scene import GENERIC_RULES, help_html

    checkers = make_game("checkers")
    assert isinstance(view_for(checkers), CheckersView) and "Captures are compulsory" in help_html("checkers", "x")
    with replaced_window_parts("checkers", DEFAULT_PARTS):
        assert isinstance(view_for(checkers), GenericView) and GENERIC_RULES in help_html("checkers", "x")
    assert window_parts("checkers").view is CheckersView


# ----- a game's own openings and archive format (issue 46) ----------------------------------------------------------
def pile_openings() -> tuple[Opening, ...]:
    """The stand-in deck: Ann to move with 4, 5 and 8 sticks (keys ``"4"``, ``"5"``, ``"8"``)."""
    return tuple(Opening(str(n), f"{n} sticks", f"pile {n}", f"{n},Ann", (f"{n} sticks", str(n))) for n in (4, 5, 8))


PILES = OpeningDeck("piles", "sticks piles", "a pile: '4', '5' or '8'", pile_openings)


class SticksLines:
    """The stand-in archive format: one game a line, ``event|round|first|second|opening|start|moves|result``."""

    name = "sticks lines"
    suffix = "sticks"

    def write_games(self, games: Any) -> str:
        out = []
        for g in games:
            if any("|" in f for f in (g.event, g.round, *g.players)):
                raise GameError("a sticks line cannot hold '|'")
            result = "*" if not g.finished else "draw" if g.winner is None else str(g.winner)
            out.append("|".join((g.event, g.round, *g.players, g.opening or "", g.start or "", " ".join(g.moves),
                                 result)))
        return "\n".join(out) + "\n"

    def read_games(self, text: str) -> list[ArchivedGame]:
        games = []
        for line in text.splitlines():
            event, rnd, first, second, opening, start, moves, result = line.split("|")
            games.append(ArchivedGame(tuple(moves.split()), start or None, event, rnd, (first, second),
                                      opening or None, None, int(result) if result.isdigit() else None,
                                      result != "*"))
        return games


@pytest.fixture
def sticks_with_hooks() -> Iterator[GameInfo]:
    """Sticks with its own opening deck (``piles``) and its own archive format, registered by its record."""
    info = register(GameInfo("sticks", "Sticks", "sticks", __name__, "Sticks", openings=(PILES,),
                             archive=SticksLines()))
    try:
        yield info
    finally:
        unregister("sticks")


def test_a_game_s_own_openings_and_archive_reach_the_match(sticks_with_hooks: GameInfo, tmp_path: Any,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """``match --openings piles`` plays the stand-in's deck, each opening twice with colours swapped, and saves the
    games in its own format: no shared module knows either."""
    assert isinstance(sticks_with_hooks.archive, ArchiveFormat)
    out = tmp_path / "games.sticks"
    assert cli.run(["match", "sticks", "--p1", "random:seed=1", "--p2", "random:seed=2", "--openings", "piles",
                    "--pdn", str(out), "--quiet", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [g["opening"] for g in report["games_list"]] == ["4 sticks", "4 sticks", "5 sticks", "5 sticks",
                                                            "8 sticks", "8 sticks"]
    games = SticksLines().read_games(out.read_text(encoding="utf-8"))
    assert [g.start for g in games] == ["4,Ann", "4,Ann", "5,Ann", "5,Ann", "8,Ann", "8,Ann"]
    assert [g.players for g in games[:2]] == [("random:seed=1", "random:seed=2"),
                                              ("random:seed=2", "random:seed=1")]
    game = make_game("sticks")
    for g, row in zip(games, report["games_list"], strict=True):  # each game replays to its recorded end
        state = game.parse_position(g.start or "")
        for move in g.moves:
            state = game.result(state, game.parse_move(state, move))
        assert game.is_terminal(state) and g.finished and g.winner in (0, 1)
        assert (row["winner"] == "p1") == ((g.winner == 0) == row["p1_first"])  # the archive's 0 moved first

    assert cli.run(["match", "sticks", "--p1", "random", "--p2", "random", "--openings", "ballots"]) == 2
    assert "--openings ballots is for checkers" in capsys.readouterr().err
    assert cli.run(["match", "checkers", "--p1", "random", "--p2", "random", "--openings", "piles"]) == 2
    assert "--openings piles is for sticks" in capsys.readouterr().err
    assert cli.run(["match", "sticks", "--p1", "random", "--p2", "random", "--openings", "nope"]) == 2
    decks = " or ".join(f"'{d}'" for d in opening_deck_names())  # every game's decks, the built-ins' first
    assert decks.startswith("'ballots' or ") and decks.endswith(" or 'piles'")
    assert f"--openings must be {decks}, got 'nope'" in capsys.readouterr().err


def test_the_command_line_s_help_names_every_game_s_decks(sticks_with_hooks: GameInfo,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("match", "tournament"):
        with pytest.raises(SystemExit):
            cli.run([command, "--help"])
        shown = " ".join(capsys.readouterr().out.split())  # argparse wraps the help's lines
        assert "--openings OPENINGS 'ballots': ACF ballots (checkers); " in shown
        assert "; 'piles': sticks piles (sticks); " in shown


def test_a_game_s_own_openings_reach_the_tournament_and_the_arena(sticks_with_hooks: GameInfo) -> None:
    from ai.agents.arena import find_opening
    from gameplay.tournament.model import Entrant, TournamentSpec, round_robin
    spec = TournamentSpec("sticks", (Entrant("A", "random"), Entrant("B", "random")), openings="piles",
                          games_per_pair=4)
    games = round_robin(spec)
    assert [g.key for g in games] == ["A|B|pile 4|A first", "A|B|pile 4|B first", "A|B|pile 5|A first",
                                      "A|B|pile 5|B first"]
    assert [(g.opening, g.opening_label) for g in games[::2]] == [("4", "4 sticks"), ("5", "5 sticks")]
    assert find_opening("sticks", " 8 ").position == "8,Ann"
    with pytest.raises(GameError, match="unknown opening '9'; expected a pile"):
        find_opening("sticks", "9")
    with pytest.raises(GameError, match="openings are checkers ballots and (.* and )?sticks piles; pig has none"):
        find_opening("pig", "4")


def test_the_stand_in_archive_writes_and_reads_back(sticks_with_hooks: GameInfo) -> None:
    archive = sticks_with_hooks.archive
    assert archive is not None
    games = [ArchivedGame(("1", "2"), "4,Ann", "e", "1", ("a", "b"), "4 sticks", None, 0),
             ArchivedGame((), None, "e", "2", ("b", "a"), None, None, None, finished=False)]
    assert archive.read_games(archive.write_games(games)) == games
    with pytest.raises(GameError):
        archive.write_games([ArchivedGame((), players=("a|b", "c"))])
