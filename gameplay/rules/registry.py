"""The one registry of games: one :class:`GameInfo` record per game, what every layer needs to know of it.

The record holds the game's rules-level facts: command-line name, titles, rules module and class, the menu card's
line, a plain-text rules summary (a game file's docstring), the settings' defaults and depth bound, growth, its archive
format (:mod:`gameplay.rules.archive`) and its opening decks (:mod:`gameplay.rules.openings`), the modules ``setup.py``
compiles. What the agents know of a game (profile, race and bench line-ups, bounds, exercises) is not here: it is the
game's own ``ai/<game>/<game>_agents.py`` (:mod:`ai.agents.game_parts`); nor what the window knows (view, card picture,
the help's HTML and keys, help figure, attract show): the game's own ``gameplay/ui/boards/<game>_view.py``
(:mod:`gameplay.ui.boards.window_parts`). Code outside a game's own modules asks the record
(``game_info(name).max_depth``) and never compares a game's name with a literal one.

Design: this module is the rules layer (standard library only: never imports ``ai``, pygame or the window), and the
record holds data and rules-layer objects only: no field names a module above it. A game's module is imported when
the game is first used, so ``main.py --help`` stays fast, and a broken module raises :class:`GameLoadError` (a broken
install), never the "unknown game" of bad input.

Adding a game: write its rules class (the ``Game`` protocol of :mod:`gameplay.rules.base`), then either add its
record to :data:`GAMES` (a built-in game) or call :func:`register` with it (a game from elsewhere, a test's
throwaway game). A teacher's game in a Python file comes in through :func:`register_file` (``game:PATH.py``: the
record's ``source_file`` names the file, loaded by :mod:`gameplay.rules.game_file` in any process that asks).
Every field but the first five has a default that works: JSON saves, no openings, the settings' common defaults; the
window and the agents fall back to their generic parts (the generic view: the position as text and the legal moves as
buttons).

The menu, the command line, the settings file, saved games and the agent profiles read the names from
:func:`game_names` (the live list, in menu order).
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from gameplay.rules.archive import ArchiveFormat
from gameplay.rules.base import Game, GameError
from gameplay.rules.checkers.ballots import BALLOTS
from gameplay.rules.checkers.pdn_format import PDN_FORMAT
from gameplay.rules.openings import OpeningDeck

__all__ = ["FILE_PREFIX", "GAMES", "GAME_NAMES", "NAME_PATTERN", "GameInfo", "GameLoadError", "UnknownGameError",
           "adopt", "game_class", "game_info", "game_names", "game_title", "games", "games_with_openings",
           "import_module", "make_game", "normalize_name", "opening_deck_names", "portable_name", "register",
           "register_file", "replaced", "unregister"]


class UnknownGameError(GameError):
    """A game name that is not in the registry (bad input: the CLI prints it as one line and exits 2)."""


class GameLoadError(RuntimeError):
    """A registered game (or its agent profile) cannot be imported: the install is broken, not the input.

    Deliberately not an ``ImportError`` (so no ``except ImportError`` meant for an optional dependency hides
    it) and not a :class:`GameError` (so it is never reported as bad input). The message names the module and
    the underlying ``ImportError``, which is also the exception's ``__cause__``.

    Attributes:
        module: the dotted name of the module that failed to import.
    """

    def __init__(self, module: str, error: ImportError, what: str = "") -> None:
        self.module = module
        for_what = f" ({what})" if what else ""
        super().__init__(f"cannot import {module}{for_what}: {type(error).__name__}: {error}")


NAME_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,31}")
"""What a game's command-line name looks like: lower case letters, digits and ``_``, starting with a letter."""


@dataclass(frozen=True)
class GameInfo:
    """What the rules layer knows about one game: the one door a game comes in by.

    Only ``name`` .. ``class_name`` are required; every other field has the default a new game gets (JSON saves, no
    openings, the settings' common defaults). Every field is data or a rules-layer object: the agents' parts
    (:mod:`ai.agents.game_parts`) and the window's (:mod:`gameplay.ui.boards.window_parts`) are found from the
    game's name by their own layers.
    """

    name: str
    """Command-line name, e.g. ``checkers`` (lower case, the key everywhere; :data:`NAME_PATTERN`)."""
    title: str
    """Display title for the menu and the match panel, e.g. ``English checkers``."""
    noun: str
    """The name inside a sentence, e.g. "Resume your ``checkers`` game"; also the figures' name of the game."""
    module: str
    """Dotted module that defines the game class, e.g. ``gameplay.rules.checkers.checkers``."""
    class_name: str
    """Name of the game class in :attr:`module`; ``cls()`` builds the game with the rules of RULES.md."""
    short_title: str = ""
    """Title in a table's column (the tournament report), e.g. ``Checkers``; empty: :attr:`title`."""
    blurb: str = ""
    """One line under the title on the menu card, e.g. "Three in a row wins; perfect play draws"."""
    rules_text: str = ""
    """The rules in short as plain text, paragraphs separated by a blank line (a game file's docstring); the help
    shows it when the window has no rules of its own for the game; empty: none."""
    default_sides: tuple[str, str] = ("human", "medium")
    """Who plays each side in a fresh settings file (``SideSettings.agent`` values)."""
    custom_algorithm: str = "alphabeta"
    """The settings' custom agent before it is edited: its algorithm, ..."""
    custom_depth: int | None = 6
    """... its depth in plies (``None``: no limit), ..."""
    custom_time: float | None = 1.0
    """... and its time per move in seconds (``None``: no limit)."""
    search_ends: bool = False
    """True when a search with no depth and no time limit ends (tic-tac-toe): the settings accept it."""
    max_depth: int = 12
    """The deepest depth the settings' depth field offers, in plies."""
    growth: bool = True
    """``plot growth`` and the window's growth figure apply (a game without dice)."""
    value_as_win_chance: bool = False
    """A value in -1..1 reads as a win chance (Pig: ``(v + 1) / 2``); the race says it so."""
    archive: ArchiveFormat | None = None
    """The game's archive format (:mod:`gameplay.rules.archive`; checkers: PDN): matches and tournaments write
    their games in it, and the window leaves saving to the game's own tools; ``None``: matches write no archive,
    a tournament keeps a plain-text record of each game, the window saves and loads JSON."""
    openings: tuple[OpeningDeck, ...] = ()
    """The game's opening decks (:mod:`gameplay.rules.openings`), by the name matches and tournaments accept
    (``--openings NAME``); empty: none."""
    compiled: tuple[str, ...] = ()
    """The game's own hot source files that ``setup.py`` compiles with mypyc (paths from the project root, e.g.
    ``"gameplay/rules/checkers/checkers.py"``; :data:`gameplay.rules.compiled.COMPILED_MODULES` adds the search's). Only
    a built-in game's are compiled (a game registered later is never built)."""
    openspiel: str = ""
    """The game's name in OpenSpiel (``pyspiel.load_game``; ``tic_tac_toe``), for the tools that measure the search
    beside OpenSpiel's (``tools/openspiel_speed.py``); ``""``: OpenSpiel has no such game."""
    tools: tuple[str, ...] = ()
    """The game's own scripts under ``tools/`` (builders and measurements of this game alone, paths from the project
    root): not part of the program, listed so that every file of the game's is named by its record."""
    source_file: str = ""
    """A game from a file (:mod:`gameplay.rules.game_file`): the file's absolute path, which :func:`make_game`
    loads (in any process that adopts the record); empty: the game class of :attr:`module`."""

    @property
    def table_title(self) -> str:
        """:attr:`short_title`, or :attr:`title` when the record gives none."""
        return self.short_title or self.title

    def opening_deck(self, name: str) -> OpeningDeck | None:
        """The game's deck called ``name`` (:attr:`openings`), or ``None`` when it has none of that name."""
        return next((d for d in self.openings if d.name == name), None)


_TICTACTOE = GameInfo(
    "tictactoe", "Tic-tac-toe", "tic-tac-toe", "gameplay.rules.tictactoe", "TicTacToe",
    blurb="Three in a row wins; perfect play draws",
    custom_depth=None, custom_time=None, search_ends=True, max_depth=9,
    compiled=("ai/tictactoe/tictactoe_mcts.py",), openspiel="tic_tac_toe",
)
_CHECKERS = GameInfo(
    "checkers", "English checkers", "checkers", "gameplay.rules.checkers.checkers", "Checkers",
    short_title="Checkers",
    blurb="8x8 draughts; captures are compulsory",
    max_depth=20,
    archive=PDN_FORMAT, openings=(BALLOTS,),
    compiled=("gameplay/rules/checkers/checkers_board.py", "gameplay/rules/checkers/checkers_perft.py",
              "gameplay/rules/checkers/checkers_notation.py", "gameplay/rules/checkers/checkers.py",
              "ai/checkers/checkers_eval.py",
              "ai/checkers/checkers_features.py", "ai/checkers/endgame_build.py"),
    openspiel="checkers",
)
_PIG = GameInfo(
    "pig", "Pig", "Pig", "gameplay.rules.pig", "Pig",
    blurb="Roll or hold; a 1 loses the turn; 100 wins",
    custom_algorithm="expectimax", custom_depth=2, custom_time=0.3, max_depth=10,
    growth=False, value_as_win_chance=True,
    compiled=("ai/pig/pig_mcts.py",), openspiel="pig",
)

_CONNECT4 = GameInfo(
    "connect4", "Connect Four", "Connect Four", "gameplay.rules.connect4", "Connect4",
    blurb="Drop pieces; four in a row wins",
    custom_depth=8, max_depth=42,
    compiled=("gameplay/rules/connect4.py", "gameplay/rules/connect4_bits.py", "ai/connect4/connect4_eval.py",
              "ai/connect4/connect4_solver.py", "ai/connect4/connect4_book.py", "ai/connect4/connect4_exact.py",
              "ai/connect4/connect4_mcts.py"),
    tools=("tools/build_c4_book.py", "tools/c4_solver_speed.py"), openspiel="connect_four",
)

GAMES: tuple[GameInfo, ...] = (_TICTACTOE, _CHECKERS, _PIG, _CONNECT4)
"""The built-in games, in menu order (:func:`games` is the live list, with any game added by :func:`register`)."""

GAME_NAMES: tuple[str, ...] = tuple(g.name for g in GAMES)
"""The built-in command-line names, in menu order: ``("tictactoe", "checkers", "pig", "connect4")``
(:func:`game_names` is the live list)."""

_BY_NAME: dict[str, GameInfo] = {g.name: g for g in GAMES}


def games() -> tuple[GameInfo, ...]:
    """Every registered game's record, in menu order (the built-in ones first, then those registered later)."""
    return tuple(_BY_NAME.values())


def register(info: GameInfo) -> GameInfo:
    """Add a game: its record is all the program needs (menu card, match, settings, help, race, command line).

    The rules module is imported only when the game is first used. The next menu, settings panel and command
    line built list the game (those already on screen keep their cards).

    Returns:
        ``info``.

    Raises:
        ValueError: the name is taken or is not a command-line name (:data:`NAME_PATTERN`).
    """
    if not NAME_PATTERN.fullmatch(info.name):
        raise ValueError(f"game name {info.name!r} must be lower case letters, digits or _, starting with a letter")
    if info.name in _BY_NAME:
        raise ValueError(f"a game named {info.name!r} is already registered")
    _BY_NAME[info.name] = info
    return info


def adopt(info: GameInfo | None) -> None:
    """Make ``info`` its game's record in this process: a worker process (``spawn``: a fresh interpreter) learns a
    game its parent registered. A built-in game's record stays as it is; ``None`` does nothing.

    Raises:
        ValueError: as :func:`register`.
    """
    if info is None or info.name in GAME_NAMES or _BY_NAME.get(info.name) == info:
        return
    _BY_NAME.pop(info.name, None)
    register(info)


def unregister(name: str) -> GameInfo:
    """Remove a game added by :func:`register` (a test's throwaway game); returns its record.

    Raises:
        UnknownGameError: not a registered game.
        ValueError: a built-in game (:data:`GAMES`), which stays.
    """
    info = game_info(name)
    if info.name in GAME_NAMES:
        raise ValueError(f"{info.name} is a built-in game and cannot be unregistered")
    del _BY_NAME[info.name]
    return info


@contextmanager
def replaced(info: GameInfo) -> Iterator[GameInfo]:
    """Make ``info`` the record of the registered game of its name inside a ``with`` block, then put the record it
    replaced back (an experiment or a test on a variant of a game, a built-in one included: another depth bound,
    another archive format, no openings). Yields ``info``. The agents' and the window's parts of a game are their own
    layers' (``ai.agents.game_parts.replaced_agent_parts``, ``gameplay.ui.boards.window_parts.replaced_window_parts``).

    Raises:
        UnknownGameError: no game of that name is registered (:func:`register` adds one).
    """
    old = game_info(info.name)
    _BY_NAME[old.name] = info
    try:
        yield info
    finally:
        _BY_NAME[old.name] = old


def game_names() -> tuple[str, ...]:
    """The registered game names, in menu order (the live list: :func:`register` adds to it)."""
    return tuple(_BY_NAME)


FILE_PREFIX = "game:"
"""A game name ``game:PATH.py`` is a game file (:func:`register_file`)."""


def register_file(path: str, *, reload: bool = False) -> GameInfo:
    """Load, check and register a game file (:mod:`gameplay.rules.game_file`); the same file again is the same
    game (its record, reloaded when the file changed on disk or ``reload`` is given).

    The record's name is the file's ``NAME`` (or its stem) made a command-line name, with ``_2``, ``_3``... when
    another game has it; a chance game gets expectimax as its custom agent and no growth figure.

    Returns:
        The game's record.

    Raises:
        GameFileError: the file is missing, fails to run, or fails a check (``gameplay.rules.game_file``; a
            :class:`GameError`, so bad input: one line).
    """
    from gameplay.rules.game_file import load_game_file
    full = os.path.abspath(os.path.expanduser(path.strip()))
    existing = next((g for g in _BY_NAME.values() if g.source_file and g.source_file == full), None)
    game = load_game_file(full, name=existing.name if existing is not None else "", reload=reload)
    name = game.name
    if existing is None:
        n = 2
        while name in _BY_NAME:
            name = f"{game.name[:28]}_{n}"
            n += 1
        game.name = name
    doc = (game.module.__doc__ or "").strip()
    blurb = doc.split("\n\n")[0].replace("\n", " ")
    blurb = (blurb if len(blurb) <= 60 else blurb[:57] + "...") if blurb else f"A game from {os.path.basename(full)}"
    stochastic = game.traits.stochastic
    info = GameInfo(
        name, game.title, game.title, "gameplay.rules.game_file", "FileGame", blurb=blurb, rules_text=doc,
        custom_algorithm="expectimax" if stochastic else "alphabeta", custom_depth=4 if stochastic else 6,
        growth=not stochastic, source_file=full)
    if existing is not None:
        _BY_NAME[name] = info  # the same place in the menu
    else:
        register(info)
    return info


def portable_name(name: str) -> str:
    """The name by which another process (``spawn``: a fresh interpreter) finds a game: ``game:PATH.py`` for a
    game file (it loads the file), the name itself for any other game.

    A name no game has comes back as it is (the other process reports it).
    """
    info = _BY_NAME.get(name.strip().lower())
    return FILE_PREFIX + info.source_file if info is not None and info.source_file else name


def normalize_name(name: str) -> str:
    """The registered name for ``name`` (surrounding spaces and case ignored); ``game:PATH.py`` loads and
    registers the game file (:func:`register_file`) and returns its name.

    Raises:
        UnknownGameError: not a registered game (the message lists the names).
        GameFileError: ``game:PATH.py`` names a file that cannot be played (the message says why).
    """
    if name.strip().lower().startswith(FILE_PREFIX):
        return register_file(name.strip()[len(FILE_PREFIX):]).name
    key = name.strip().lower()
    if key not in _BY_NAME:
        shown = name if len(name) <= 80 else name[:77] + "..."
        raise UnknownGameError(f"unknown game {shown!r}; expected one of {', '.join(_BY_NAME)} or "
                               f"{FILE_PREFIX}PATH.py")
    return key


def game_info(name: str) -> GameInfo:
    """The registry entry of a game.

    Raises:
        UnknownGameError: not a registered game.
    """
    return _BY_NAME[normalize_name(name)]


def game_title(name: str, kind: str = "title") -> str:
    """A game's title for a screen or a sentence; the name itself when no game has it (an old save, a test's game).

    Args:
        name: command-line name.
        kind: which of the record's names: ``"title"`` (``English checkers``), ``"noun"`` (``checkers``) or
            ``"table_title"`` (``Checkers``).
    """
    info = _BY_NAME.get(name.strip().lower())
    return str(getattr(info, kind)) if info is not None else name


def games_with_openings(deck: str) -> tuple[str, ...]:
    """The registered games that have an opening deck called ``deck`` (``GameInfo.openings``), in menu order:
    ``("checkers",)`` for ``"ballots"``."""
    return tuple(g.name for g in _BY_NAME.values() if g.opening_deck(deck) is not None)


def opening_deck_names() -> tuple[str, ...]:
    """Every registered game's opening decks' names, once each, in menu order: ``("ballots",)``."""
    return tuple(dict.fromkeys(d.name for g in _BY_NAME.values() for d in g.openings))


def import_module(module: str, what: str = "") -> Any:
    """Import a module a registered game needs (its rules, its agent profile), failing loudly.

    Args:
        module: dotted module name.
        what: what the module is for, shown in the error (e.g. ``"the checkers profile"``).

    Raises:
        GameLoadError: the import failed (the underlying ``ImportError`` is the cause).
    """
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise GameLoadError(module, e, what) from e


def game_class(name: str) -> type[Any]:
    """The class of a registered game (imports its module on first use).

    Raises:
        UnknownGameError: not a registered game.
        GameLoadError: the game's module cannot be imported, or lacks the class.
    """
    info = game_info(name)
    if info.source_file:
        from gameplay.rules.game_file import FileGame
        return FileGame
    mod = import_module(info.module, f"the {info.name} rules")
    cls = getattr(mod, info.class_name, None)
    if not isinstance(cls, type):
        err = ImportError(f"cannot import name {info.class_name!r} from {info.module!r}")
        raise GameLoadError(info.module, err, f"the {info.name} rules")
    return cls


def make_game(name: str) -> Game[Any, Any]:
    """A game object by command-line name, with the rules of RULES.md (games are stateless and immutable).

    Raises:
        UnknownGameError: not a registered game ("unknown game 'x'; expected one of tictactoe, checkers, pig").
        GameLoadError: the game's module cannot be imported.
        GameFileError: a game file that no longer loads.
    """
    info = game_info(name)
    if info.source_file:
        from gameplay.rules.game_file import load_game_file
        file_game: Game[Any, Any] = load_game_file(info.source_file, name=info.name)
        return file_game
    game: Game[Any, Any] = game_class(name)()
    return game

