"""The one registry of games: command-line names, display titles and the game classes behind them.

The menu, the command line, the settings file, saved games and the agent profiles (``ai.profiles``) all read the
game names from here, in this order (the title screen's order). A game's module is imported only when the game
is first asked for, so ``main.py --help`` stays fast; a module that fails to import raises
:class:`GameLoadError` (a broken install), never the "unknown game" of bad input.

Standard library only (the rules layer): never imports ``ai`` or pygame.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from gameplay.rules.base import Game, GameError

__all__ = ["GAMES", "GAME_NAMES", "GameInfo", "GameLoadError", "UnknownGameError", "game_class", "game_info",
           "game_names", "import_module", "make_game", "normalize_name"]


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


@dataclass(frozen=True)
class GameInfo:
    """One registered game."""

    name: str
    """Command-line name, e.g. ``checkers`` (lower case, the key everywhere)."""
    title: str
    """Display title for the menu and the match panel, e.g. ``English checkers``."""
    noun: str
    """The name inside a sentence, e.g. "Resume your ``checkers`` game"."""
    module: str
    """Dotted module that defines the game class, e.g. ``gameplay.rules.checkers``."""
    class_name: str
    """Name of the game class in :attr:`module`; ``cls()`` builds the game with the rules of RULES.md."""


GAMES: tuple[GameInfo, ...] = (
    GameInfo("tictactoe", "Tic-tac-toe", "tic-tac-toe", "gameplay.rules.tictactoe", "TicTacToe"),
    GameInfo("checkers", "English checkers", "checkers", "gameplay.rules.checkers", "Checkers"),
    GameInfo("pig", "Pig", "Pig", "gameplay.rules.pig", "Pig"),
)
"""Every game, in menu order."""

GAME_NAMES: tuple[str, ...] = tuple(g.name for g in GAMES)
"""The command-line names, in menu order: ``("tictactoe", "checkers", "pig")``."""

_BY_NAME: dict[str, GameInfo] = {g.name: g for g in GAMES}


def game_names() -> tuple[str, ...]:
    """The registered game names, in menu order."""
    return GAME_NAMES


def normalize_name(name: str) -> str:
    """The registered name for ``name`` (surrounding spaces and case ignored).

    Raises:
        UnknownGameError: not a registered game (the message lists the names).
    """
    key = name.strip().lower()
    if key not in _BY_NAME:
        shown = name if len(name) <= 80 else name[:77] + "..."
        raise UnknownGameError(f"unknown game {shown!r}; expected one of {', '.join(GAME_NAMES)}")
    return key


def game_info(name: str) -> GameInfo:
    """The registry entry of a game.

    Raises:
        UnknownGameError: not a registered game.
    """
    return _BY_NAME[normalize_name(name)]


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
    """
    game: Game[Any, Any] = game_class(name)()
    return game
