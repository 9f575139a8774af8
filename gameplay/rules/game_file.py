"""A game from a file: a teacher's game written against the course's interface, loaded, checked and wrapped as
a :class:`~gameplay.rules.base.Game` (``game:PATH.py`` on the command line, "Open a game file..." in the window).

The file defines, at module level (or as the methods of an object it names ``GAME``)::

    initial_state()            the start state (any of Python's values: see "States" below)
    to_move(state)             the player who moves: one of two hashable labels (0/1, 'X'/'O', 'MAX'/'MIN'...)
    actions(state)             the legal moves, a list or tuple (not empty while the game goes on; once
                               is_terminal(state) is True the program asks no more, as AIMA's games.py)
    result(state, move)        the new state (never changes ``state``)
    is_terminal(state)         True when the game is over
    utility(state, player)     a number at an end: +1 win, 0 draw, -1 loss (other numbers: payoffs), zero-sum
    is_chance(state)           optional, with chance_outcomes: True at a chance node (a roll of the dice)
    chance_outcomes(state)     [(outcome, probability), ...] summing to 1; ``result(state, outcome)`` plays one
    evaluate(state, player)    optional: a heuristic value for depth-limited search (same scale as utility)
    board(state)               optional: a grid (rows of short strings) for the window's grid view, ...
    move_at(row, col)          ... and the move a click on a cell means (None: no move there)
    move_text(move)            optional: how a move is written (default ``str(move)``); one word, no spaces
    display(state)             optional: print the state (aima-python's); the window shows what it prints
    NAME, PLAYERS              optional: the game's name and its two players' names (default: the file's name,
                               the labels, or ``("Player 1", "Player 2")`` for 0 and 1); a ``GAME`` object's own
                               ``NAME`` (or ``name``) and ``PLAYERS`` win, the module's are used where it has none

or a game as aima-python's ``games4e.py`` writes it (:func:`_find_game`: ``GAME``, else the file's one game object,
else its one game class made with no arguments): ``initial`` (the start state, an attribute) for
``initial_state()``, ``terminal_test`` for ``is_terminal``; a ``StochasticGame``'s ``chances(state)``,
``outcome(state, chance)`` and ``probability(chance)`` for the dice, rolled before every move (each state is then
held with :attr:`Held.rolls`, the chance node).

Players: the first is ``to_move`` at the start, the second the other label met in seeded random games
(:meth:`FileGame.learn_players`); ``utility`` and ``evaluate`` get the labels, the rest of the program 0 and 1.

States and moves: kept as they are when they are hashable values of Python's own; otherwise (dicts, lists,
namedtuples or objects of the file's classes) as :class:`Held`, equal and hashed by a key
(:func:`gameplay.rules.file_states.freeze`), always given back to the file as the game made them, pickled as the
file's path and the value's own pickle.

The file is checked when it is loaded (:func:`load_game_file`): the functions present and taking the right
arguments, then seeded random playouts from the start (bounded in plies and time) check that states can be kept
and survive the trip to a worker process, that ``result`` leaves its argument alone, that ``actions`` is a
non-empty sequence while the game goes on, that ``to_move`` names one of the two players, that utilities are real
numbers and zero-sum (and whether they are all +1/0/-1: otherwise payoffs, :meth:`FileGame.learn_payoffs`), and
that chance probabilities sum to 1. Any failure, or an exception inside the file's code, is one
:class:`GameFileError` naming the file, the function and the line.

Positions: a file's game has no notation of its own; a position is its state as Python writes it (``repr``),
read back by :func:`gameplay.rules.file_states.read_value` (literals and the file's namedtuple types:
``"((1, 3, 5), 0)"``, ``"GameState(to_move='X', utility=0, board={}, moves=[(1, 1)])"``); an aima-python dice
game's state before its roll is written ``chance: <state>``.

The file runs in the program's own process, like a plug-in (and in the worker processes that search it): only
open files you trust. Standard library only (the rules layer).
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import importlib.util
import inspect
import io
import math
import os
import pickle
import random
import sys
import time
import traceback
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar

from gameplay.rules.base import (
    GameError,
    GameTraits,
    IllegalMoveError,
    MoveError,
    Outcome,
    PositionError,
    Termination,
    quoted,
    quoted_path,
)
from gameplay.rules.file_states import FreezeError, freeze, read_value, readable_names

__all__ = ["AIMA_GAME", "CHECK_PLAYOUTS", "CHECK_SECONDS", "FileGame", "GameFileError", "Held", "LOOP_SECONDS",
           "REQUIRED", "OPTIONAL", "game_name_of", "load_game_file", "nul_place", "run_with_start_limit"]

_T = TypeVar("_T")

REQUIRED: dict[str, tuple[str, ...]] = {
    "initial_state": (), "to_move": ("state",), "actions": ("state",), "result": ("state", "move"),
    "is_terminal": ("state",), "utility": ("state", "player")}
"""The functions every game file defines, with their arguments."""

OPTIONAL: dict[str, tuple[str, ...]] = {
    "is_chance": ("state",), "chance_outcomes": ("state",), "evaluate": ("state", "player"),
    "board": ("state",), "move_at": ("row", "col"), "move_text": ("move",), "display": ("state",)}
"""The functions a game file may define, with their arguments."""

CHECK_PLAYOUTS = 24
"""Seeded random playouts run from the start when a file is loaded."""
CHECK_PLIES = 300
"""Plies per check playout at most."""
CHECK_SECONDS = 2.0
"""Wall-clock seconds the playouts may take in all (they stop early, never fail, past it)."""
LOOP_SECONDS = 5.0
"""Seconds the file's own code may run without returning while it is loaded and checked (the top-level code, then
each call of the playouts); past them the load fails with the line it was running (an endless loop)."""
PROBABILITY_TOLERANCE = 1e-6
"""How far from 1 the chance probabilities may sum."""


class GameFileError(GameError):
    """A game file that cannot be played: one line naming the file, the function and the line
    (``nim.py line 12: actions(state) returned None; it must return a list of the legal moves``)."""


def _where(path: str, line: int | None) -> str:
    name = os.path.basename(path)
    return f"{name} line {line}" if line else name


def _def_line(fn: Any) -> int | None:
    code = getattr(fn, "__code__", None) or getattr(getattr(fn, "__func__", None), "__code__", None)
    return int(code.co_firstlineno) if code is not None else None


def _error_line(path: str, error: BaseException) -> int | None:
    """The line of the file where ``error`` was raised (the innermost frame in the file), or ``None``."""
    real = os.path.realpath(path)
    line = None
    for frame in traceback.extract_tb(error.__traceback__):
        if os.path.realpath(frame.filename) == real:
            line = frame.lineno
    return line


def _exit_code(e: SystemExit) -> str:
    """The argument of the ``sys.exit`` call that raised ``e``, as written (``3``, ``'bye'``, or nothing)."""
    return "" if e.code is None else repr(e.code)


def nul_place(path: str) -> tuple[int, int, int] | None:
    """Where the file's first NUL byte is: (line, column, byte offset), each counted from 1 (the line and column
    by the bytes before it: a NUL means a binary file, whose text has no other meaning); ``None``: no NUL, or the
    file cannot be read."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    at = data.find(b"\0")
    if at < 0:
        return None
    line_start = data.rfind(b"\n", 0, at) + 1
    return data.count(b"\n", 0, at) + 1, at - line_start + 1, at + 1


def game_name_of(path: str, declared: object = None) -> str:
    """The command-line name of a game file: its ``NAME`` (or its file's stem) in lower case, every other
    character than letters, digits and ``_`` turned into ``_``, starting with a letter, at most 32 characters."""
    text = declared if isinstance(declared, str) and declared.strip() else os.path.splitext(os.path.basename(path))[0]
    name = "".join(c if c.isascii() and (c.isalnum() or c == "_") else "_" for c in text.strip().lower())
    name = name.strip("_") or "game"
    if not name[0].isalpha():
        name = "g_" + name
    return name[:32]


def _module_name(path: str) -> str:
    """The module name a file is loaded under: the same in every process, unique to the file."""
    return "arcade_game_file_" + hashlib.sha1(path.encode("utf-8")).hexdigest()[:16]


AIMA_GAME = ("initial, actions(state), result(state, move), utility(state, player), terminal_test(state) and "
             "to_move(state)")
"""What aima-python's ``Game`` defines, in its words (the error of a class that lacks one)."""

AIMA_ALIASES: dict[str, str] = {"initial_state": "initial", "is_terminal": "terminal_test"}
"""The program's name -> aima-python's, where they differ (``initial`` is the start state itself, not a function)."""

AIMA_DICE: dict[str, tuple[str, ...]] = {"chances": ("state",), "outcome": ("state", "chance"),
                                         "probability": ("chance",)}
"""aima-python's ``StochasticGame``: the chances before each move, the state after one, its probability."""

DICE_PREFIX = "chance: "
"""How the position of an aima-python dice game's state written before its roll begins (``chance: <state>``)."""


class Held:
    """A state or a move of a game file kept with its hashable key (:func:`~gameplay.rules.file_states.freeze`):
    equal and hashed by the key, given back to the file's functions as the game made it (:attr:`value`).

    A state is held when it is not hashable as it is (a dict board, a list of moves), holds an object of a class
    the file defines (a ``GameState`` namedtuple), or belongs to an aima-python ``StochasticGame`` (:attr:`rolls`:
    the state waits for its chance, the dice, before the player to move chooses). Pickled (to a worker process), a
    held value is its file and the value's own pickle: the worker loads the file, then the value.

    Attributes:
        value: the state or move as the game made it (never changed here).
        key: the hashable key.
        source: the game file's absolute path.
        rolls: True at an aima-python dice game's chance node (before the roll).
    """

    __slots__ = ("value", "key", "source", "rolls", "hash_value")

    def __init__(self, value: Any, key: Any, source: str, rolls: bool = False) -> None:
        self.value = value
        self.key = key
        self.source = source
        self.rolls = rolls
        self.hash_value = hash((key, rolls))

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Held) and self.hash_value == other.hash_value and self.rolls == other.rolls
                and self.key == other.key)

    def __hash__(self) -> int:
        return self.hash_value

    def __repr__(self) -> str:
        return f"{DICE_PREFIX if self.rolls else ''}{self.value!r}"

    def __reduce__(self) -> tuple[Any, tuple[str, bytes, bool]]:
        """Pickled as the file and the value's own pickle (:func:`_thawed` loads the file first).

        Raises:
            pickle.PicklingError: the value cannot be pickled (the message names the file and the value).
        """
        try:
            data = pickle.dumps(self.value)
        except Exception as e:  # noqa: BLE001 - whatever the value holds
            raise pickle.PicklingError(f"{os.path.basename(self.source)}: the value {_short(self.value)} cannot be "
                                       f"sent to the AI's worker process ({type(e).__name__}: {e})") from e
        return (_thawed, (self.source, data, self.rolls))


def _thawed(source: str, data: bytes, rolls: bool) -> Held:
    """A :class:`Held` value in this process: its file loaded first (the value's classes are the file's)."""
    game = load_game_file(source)
    return game.held(pickle.loads(data), rolls)


def _class_line(obj: Any) -> int | None:
    try:
        return inspect.getsourcelines(obj if inspect.isclass(obj) else type(obj))[1]
    except (OSError, TypeError):
        return None


def _is_game_object(value: Any) -> bool:
    """An object with ``actions`` and ``result`` methods (not a class, a module or a function)."""
    if inspect.isclass(value) or isinstance(value, ModuleType) or inspect.isroutine(value):
        return False
    try:
        return callable(getattr(value, "actions", None)) and callable(getattr(value, "result", None))
    except Exception:  # noqa: BLE001 - an object whose __getattr__ fails is no game
        return False


def _made(path: str, cls: type) -> Any:
    """An instance of the file's game class ``cls``, made with no arguments.

    Raises:
        GameFileError: the class needs arguments, or its ``__init__`` raised.
    """
    try:
        inspect.signature(cls).bind()
    except TypeError:
        raise GameFileError(f"{_where(path, _class_line(cls))}: the game class {cls.__name__} takes arguments; make "
                            f"the game in the file, e.g. GAME = {cls.__name__}(...)") from None
    except ValueError:
        pass
    try:
        return cls()
    except Exception as e:  # the teacher's __init__
        raise GameFileError(f"{_where(path, _error_line(path, e) or _class_line(cls))}: {cls.__name__}() raised "
                            f"{type(e).__name__}: {e}") from e


def _takes(fn: Any, args: tuple[str, ...]) -> bool:
    """``fn`` is a function that can be called with ``args`` (or whose signature cannot be read)."""
    if not callable(fn):
        return False
    try:
        inspect.signature(fn).bind(*args)
    except TypeError:
        return False
    except ValueError:
        pass
    return True


def _find_game(path: str, module: ModuleType) -> tuple[Any, bool]:
    """Where a file's game is: ``GAME`` (an object, or a class made with no arguments); else the module's own
    functions when it has any of :data:`REQUIRED`; else the file's one game object (``game = TicTacToe()``); else
    the file's one game class, made with no arguments (aima-python's ``class TicTacToe(Game)``, no instance).

    Returns:
        ``(source, aima)``: the object whose attributes are the game, and whether it is a class instance found or
        named in aima-python's shape (its errors then name aima-python's ``Game``).

    Raises:
        GameFileError: no game, or several objects or classes that could be it (the message says to name one
            ``GAME``).
    """
    named = getattr(module, "GAME", None)
    if named is not None and not isinstance(named, ModuleType):
        if inspect.isclass(named):
            return _made(path, named), True
        return named, any(hasattr(named, n) for n in ("initial", "terminal_test", "chances"))
    if any(hasattr(module, f) for f in REQUIRED):
        return module, False
    objects: dict[int, tuple[str, Any]] = {}
    for var, value in vars(module).items():
        if not var.startswith("__") and _is_game_object(value):
            objects.setdefault(id(value), (var, value))
    if len(objects) == 1:
        return next(iter(objects.values()))[1], True
    if len(objects) > 1:
        names = ", ".join(var for var, _ in objects.values())
        raise GameFileError(f"{_where(path, None)}: the file has several games ({names}); name the one to play: "
                            f"GAME = {next(iter(objects.values()))[0]}")
    classes = [c for c in vars(module).values()
               if inspect.isclass(c) and c.__module__ == module.__name__ and callable(getattr(c, "actions", None))
               and callable(getattr(c, "result", None))]
    leaves = [c for c in classes if not any(o is not c and issubclass(o, c) for o in classes)]
    made: list[tuple[type, Any]] = []
    for cls in classes:
        try:
            inspect.signature(cls).bind()
        except TypeError:
            continue
        except ValueError:
            pass
        obj = _made(path, cls)
        if hasattr(obj, "initial") or hasattr(obj, "initial_state"):
            made.append((cls, obj))
    if len(made) == 1:
        return made[0][1], True
    if len(made) > 1 or len(leaves) > 1:
        names = ", ".join(c.__name__ for c, _ in made) if len(made) > 1 else ", ".join(c.__name__ for c in leaves)
        raise GameFileError(f"{_where(path, None)}: the file has several game classes ({names}); name the one to "
                            f"play: GAME = {names.split(', ')[-1]}()")
    if len(leaves) == 1:
        return _made(path, leaves[0]), True
    functions = ", ".join(f"{f}({', '.join(a)})" for f, a in REQUIRED.items())
    raise GameFileError(f"{_where(path, None)}: no game in the file: write the functions {functions} at the top "
                        f"level, or a game class as aima-python's games4e.py does ({AIMA_GAME})")


class FileGame:
    """A game file's functions as a :class:`~gameplay.rules.base.Game` (see the module docstring).

    Every call into the file goes through :meth:`call`, so an exception inside the file's code becomes a
    :class:`GameFileError` naming the function and the line.

    States and moves the program keeps are the file's own when they are hashable values of Python's (tuples,
    strings, numbers), else :class:`Held` (dict boards, lists, the file's namedtuples, aima-python's dice games);
    the file's functions are always given the value the game made (:meth:`raw`).

    Attributes:
        path: the file's absolute path.
        title: the game's display name (``NAME`` or the file's stem).
        has_board: the file gives ``board`` and ``move_at`` (the window's grid view).
        has_evaluate: the file gives ``evaluate`` (depth-limited searches use it).
        has_display: the file gives ``display(state)`` (aima-python's: it prints the state; the window shows what
            it prints, :meth:`display_text`).
        rolls: the game is an aima-python ``StochasticGame`` (``chances``, ``outcome``, ``probability``): a chance
            node comes before each move.
        aima: the game is a class instance in aima-python's shape (its errors name aima-python's ``Game``).
        shown: the file's name of each function the program calls (``is_terminal`` -> ``terminal_test``).
    """

    def __init__(self, path: str, module: ModuleType, name: str = "") -> None:
        self.path = path
        self.module = module
        self._source, self.aima = _find_game(path, module)
        declared = self._declared("NAME") or self._declared("name")
        self.title = declared.strip() if isinstance(declared, str) and declared.strip() else \
            os.path.splitext(os.path.basename(path))[0].replace("_", " ").capitalize()
        self.name = name or game_name_of(path, declared)
        players = self._declared("PLAYERS")
        self._player_values: tuple[Any, Any] = (0, 1)
        """The file's labels of the players (``to_move``'s answers, ``utility``'s argument), the first to move
        first: learned from the game (:meth:`learn_players`)."""
        self._names: tuple[Any, Any] | None = None
        self.player_names: tuple[str, str] = ("Player 1", "Player 2")
        if players is not None:
            if not isinstance(players, (list, tuple)) or len(players) != 2 or players[0] == players[1]:
                raise GameFileError(f"{_where(path, None)}: PLAYERS must name two different players, got "
                                    f"{quoted(players)}")
            self._names = (players[0], players[1])
            self.player_names = (str(players[0]), str(players[1]))
        self.fns: dict[str, Callable[..., Any]] = {}
        self.shown: dict[str, str] = {}
        self._lines: dict[str, int | None] = {}
        missing: list[str] = []
        for fname, args in {**REQUIRED, **OPTIONAL}.items():
            fn = self._attr(fname)
            alias = AIMA_ALIASES.get(fname, "")
            if fn is None and alias and self._attr(alias) is not None:
                self._take_alias(fname, alias)
                continue
            if fn is None:
                if fname in REQUIRED:
                    missing.append(fname)
                continue
            if fname == "display" and not self.aima and not _takes(fn, args):
                continue  # a helper of the file's own that happens to be called display: not aima-python's
            self._check_signature(fname, fn, args)
            self._take(fname, fname, fn)
        if missing:
            raise self._missing(missing)
        chance = [f for f in ("is_chance", "chance_outcomes") if f in self.fns]
        if len(chance) == 1:
            other = "chance_outcomes(state)" if chance[0] == "is_chance" else "is_chance(state)"
            raise GameFileError(f"{_where(path, self._lines[chance[0]])}: {chance[0]} needs {other} too "
                                "(a game with dice gives both)")
        dice = [f for f in AIMA_DICE if self._attr(f) is not None]
        self.rolls = bool(dice) and not chance
        if self.rolls:
            lacking = [f"{f}({', '.join(a)})" for f, a in AIMA_DICE.items() if f not in dice]
            if lacking:
                raise GameFileError(f"{_where(path, _class_line(self._source))}: the game has {dice[0]} but no "
                                    f"{' or '.join(lacking)}: aima-python's StochasticGame needs chances(state), "
                                    "outcome(state, chance) and probability(chance)")
            for fname, args in AIMA_DICE.items():
                self._check_signature(fname, self._attr(fname), args)
                self._take(fname, fname, self._attr(fname))
        grid = [f for f in ("board", "move_at") if f in self.fns]
        if len(grid) == 1:
            other = "move_at(row, col)" if grid[0] == "board" else "board(state)"
            raise GameFileError(f"{_where(path, self._lines[grid[0]])}: {grid[0]} needs {other} too "
                                "(the grid view draws the board and maps a click to a move)")
        self.has_board = bool(grid)
        self.has_evaluate = "evaluate" in self.fns
        self.has_display = "display" in self.fns
        self.traits = GameTraits(stochastic=bool(chance) or self.rolls)
        self._shown_text: tuple[Any, str] | None = None

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        """Pickled as its file and name: another process (a worker) loads the file again."""
        return (_reloaded, (self.path, self.name))

    # -- the file ---------------------------------------------------------------------------------------------
    def _attr(self, name: str) -> Any:
        return getattr(self._source, name, None)

    def _declared(self, name: str) -> Any:
        """A declaration (``NAME``, ``PLAYERS``): the ``GAME`` object's own, else the module's (a file that names a
        ``GAME`` object and writes ``NAME = ...`` at its top means it for the game)."""
        value = self._attr(name)
        return value if value is not None else getattr(self.module, name, None)

    def _take(self, fname: str, shown: str, fn: Callable[..., Any]) -> None:
        self.fns[fname] = fn
        self.shown[fname] = shown
        self._lines[fname] = _def_line(fn)

    def _take_alias(self, fname: str, alias: str) -> None:
        """aima-python's name for one of the program's: ``terminal_test`` (a method) or ``initial`` (the state)."""
        value = self._attr(alias)
        if fname == "initial_state":
            if callable(value):
                raise GameFileError(f"{_where(self.path, _def_line(value))}: initial is a function; in "
                                    "aima-python's Game it is the start state itself (self.initial = ...)")
            source = self._source
            self.fns[fname] = lambda: source.initial
            self.shown[fname] = alias
            self._lines[fname] = _class_line(source)
            return
        self._check_signature(alias, value, REQUIRED[fname])
        self._take(fname, alias, value)

    def _missing(self, fnames: list[str]) -> GameFileError:
        """The error for the required functions ``fnames`` missing: the first one for a file of functions, every
        one in aima-python's names for a game class."""
        if not self.aima:
            return GameFileError(f"{_where(self.path, None)}: missing function {fnames[0]}"
                                 f"({', '.join(REQUIRED[fnames[0]])})")
        wanted = [AIMA_ALIASES.get(f, f) for f in fnames]
        shown = [w if w == "initial" else f"{w}({', '.join(REQUIRED[f])})" for f, w in zip(fnames, wanted)]
        listed = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"
        return GameFileError(f"{_where(self.path, _class_line(self._source))}: the game class "
                             f"{type(self._source).__name__} has no {listed}: aima-python's Game has {AIMA_GAME}")

    def _check_signature(self, fname: str, fn: Any, args: tuple[str, ...]) -> None:
        shown = f"{fname}({', '.join(args)})"
        if not callable(fn):
            raise GameFileError(f"{_where(self.path, None)}: {fname} must be a function {shown}, got "
                                f"{type(fn).__name__}")
        try:
            sig = inspect.signature(fn)
        except (TypeError, ValueError):
            return
        try:
            sig.bind(*args)
        except TypeError:
            takes = len([p for p in sig.parameters.values()
                         if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)])
            raise GameFileError(f"{_where(self.path, _def_line(fn))}: {fname} takes {takes} argument"
                                f"{'' if takes == 1 else 's'}; it must be {shown}") from None

    def call(self, fname: str, *args: Any) -> Any:
        """Call the file's function ``fname`` (the program's name: ``is_terminal`` calls ``terminal_test`` in an
        aima-python class) with the values as the game made them.

        Raises:
            GameFileError: it raised (the message names the function, the line and the exception).
        """
        try:
            return self.fns[fname](*args)
        except GameError:
            raise
        except SystemExit as e:  # sys.exit() inside a function: the program goes on, the file is at fault
            raise GameFileError(f"{_where(self.path, _error_line(self.path, e) or _def_line(self.fns[fname]))}: "
                                f"{fname}() called sys.exit({_exit_code(e)}); a game file's functions return, they "
                                "never end the program") from None
        except NotImplementedError as e:  # aima-python's Game leaves actions, result, utility to each game
            raise GameFileError(f"{_where(self.path, self._lines.get(fname))}: {self.shown.get(fname, fname)}() "
                                "raised NotImplementedError: the game class must define it (aima-python's Game "
                                "leaves it to each game)") from e
        except Exception as e:  # the teacher's code: anything can happen
            raise GameFileError(f"{_where(self.path, _error_line(self.path, e) or self._lines.get(fname))}: "
                                f"{self.shown.get(fname, fname)}() raised {type(e).__name__}: {e}") from e

    def fail(self, fname: str, what: str) -> GameFileError:
        """The error "``fname`` did something wrong", at the function's first line."""
        return GameFileError(f"{_where(self.path, self._lines.get(fname))}: {what}")

    # -- states and moves as the program keeps them ------------------------------------------------------------
    def raw(self, value: Any) -> Any:
        """A state or move as the game made it (a :class:`Held` value's own, any other as it is)."""
        return value.value if isinstance(value, Held) else value

    def held(self, value: Any, rolls: bool = False) -> Held:
        """``value`` kept with its hashable key.

        Raises:
            GameFileError: ``value`` cannot be made hashable (:class:`~gameplay.rules.file_states.FreezeError`).
        """
        try:
            key, _ = freeze(value, self.module.__name__)
        except FreezeError as e:
            raise GameFileError(f"{_where(self.path, None)}: the value {_short(value)} cannot be kept: {e}") from None
        return Held(value, key, self.path, rolls)

    def keep(self, value: Any, fname: str, rolls: bool = False) -> Any:
        """A state or move the file's ``fname`` made, as the program keeps it: itself when it is a hashable value
        of Python's own, else :class:`Held`; in a dice game of aima-python's shape (:attr:`rolls`) a state waiting
        for its roll is always held (``rolls`` True: :attr:`Held.rolls` marks the chance node).

        Raises:
            GameFileError: it cannot be made hashable (it holds a generator, ...), naming ``fname``.
        """
        try:
            key, needs = freeze(value, self.module.__name__)
        except FreezeError as e:
            raise self.fail(fname, f"{self.shown.get(fname, fname)}() returned {_short(value)}, which cannot be "
                                   f"made hashable for the search's tables: {e}") from None
        rolls = rolls and self.rolls
        return Held(value, key, self.path, rolls) if needs or rolls else value

    def learn_players(self) -> None:
        """Learn the file's two player labels from the game (any two hashable values: ``0``/``1``, ``'X'``/``'O'``,
        ``'MAX'``/``'MIN'``): the first is ``to_move`` at the start (after the dice of a game that rolls first: a file
        may name nobody at a chance node), the second the first other answer met in
        seeded random games from the start. Names for the window: ``PLAYERS`` (by position, or the labels' order
        when the labels are its names), else the labels themselves (``Player 1``/``Player 2`` for 0 and 1).

        Raises:
            GameFileError: ``to_move`` gave something not hashable, or the same player everywhere the games went.
        """
        start = state = self.initial_state()
        for _ in range(CHECK_PLIES):  # a game that rolls first: its first player is the one who moves after
            if self.is_terminal(state) or not self.is_chance(state):
                break
            state = self.successor(state, self.chance_outcomes(state)[0][0])
        first = self._label(state)
        second = self._second_label(start, first)
        if second is None:
            if self._names is not None and first in self._names:
                second = self._names[1] if first == self._names[0] else self._names[0]
            elif isinstance(first, int) and first in (0, 1):
                second = 1 - first
            else:
                raise self.fail("to_move", f"to_move(state) returned {quoted(first)} at every state the random games "
                                           "from the start reached; a game has two players: to_move must name the "
                                           "other one when it is their turn")
        self._player_values = (first, second)
        labels = {first, second}
        if self._names is not None:
            if labels == set(self._names):
                self.player_names = (str(first), str(second))
            elif labels == {0, 1}:
                self.player_names = (str(self._names[first]), str(self._names[second]))
        elif labels == {0, 1}:
            self.player_names = (f"Player {int(first) + 1}", f"Player {int(second) + 1}")
        else:
            self.player_names = (str(first), str(second))

    def learn_payoffs(self, ends: set[float]) -> None:
        """Read the utilities the check's games ended with: only +1, 0 and -1 are results (a search scores a win
        sooner above a win later, "win in 7"); any other number (figure 5.2's 3, 12, 8...) makes every utility a
        payoff, searched as it is (``traits.proven_terminals`` False)."""
        payoffs = any(u not in (-1.0, 0.0, 1.0) for u in ends)
        self.traits = GameTraits(stochastic=self.traits.stochastic, proven_terminals=not payoffs)

    def _label(self, state: Any) -> Any:
        who = self.call("to_move", self.raw(state))
        try:
            hash(who)
        except TypeError:
            raise self.fail("to_move", f"to_move(state) returned {quoted(who)}, which is not hashable; a player is a "
                                       "label such as 0, 'X' or 'MAX'") from None
        return who

    def _second_label(self, start: Any, first: Any) -> Any:
        rng = random.Random(0)
        deadline = time.monotonic() + CHECK_SECONDS
        for _ in range(CHECK_PLAYOUTS):
            state = start
            for _ in range(CHECK_PLIES):
                if time.monotonic() > deadline:
                    return None
                if self.is_chance(state):
                    move = rng.choice([o for o, _ in self.chance_outcomes(state)] or [None])
                else:
                    who = self._label(state)
                    if who != first:
                        return who
                    moves = self.actions(state)
                    if not moves:
                        break
                    move = rng.choice(moves)
                if move is None:
                    break
                state = self.successor(state, move)
        return None

    # -- the Game protocol ------------------------------------------------------------------------------------
    def initial_state(self) -> Any:
        return self.keep(self.call("initial_state"), "initial_state", rolls=True)

    def to_move(self, state: Any) -> int:
        who = self.call("to_move", self.raw(state))
        for i, value in enumerate(self._player_values):
            if who == value and type(who) is type(value):
                return i
        for i, value in enumerate(self._player_values):
            if who == value:
                return i
        names = " or ".join(repr(v) for v in self._player_values)
        raise self.fail("to_move", f"to_move(state) returned {quoted(who)}; it must return {names} (the players, "
                                   "the first to move first)")

    def actions(self, state: Any) -> list[Any]:
        """The file's moves, or ``[]`` once ``is_terminal(state)``: a file may go on listing moves after the end
        (AIMA's tic-tac-toe lists its empty squares), and no search, count or referee may play them."""
        if self.is_terminal(state):
            return []
        moves = self.call("actions", self.raw(state))
        if moves is None or isinstance(moves, (str, bytes, dict)) or not hasattr(moves, "__iter__"):
            raise self.fail("actions", f"actions(state) returned {quoted(moves)}; it must return a list of the legal "
                                       "moves")
        return [self.keep(m, "actions") for m in moves]

    def result(self, state: Any, move: Any) -> Any:
        legal = [o for o, _ in self.chance_outcomes(state)] if self.is_chance(state) else self.actions(state)
        if move not in legal:
            raise IllegalMoveError(f"{self.format_move(state, move)} is not a legal move here")
        return self.successor(state, move)

    def successor(self, state: Any, move: Any) -> Any:
        if self.rolls and isinstance(state, Held) and state.rolls:
            return self.keep(self.call("outcome", state.value, self.raw(move)), "outcome")
        return self.keep(self.call("result", self.raw(state), self.raw(move)), "result", rolls=True)

    def is_terminal(self, state: Any) -> bool:
        return bool(self.call("is_terminal", self.raw(state)))

    def utility(self, state: Any, player: int) -> float:
        value = self.call("utility", self.raw(state), self._player_values[player])
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self.fail("utility", f"utility(state, player) returned {quoted(value)}; it must return a number "
                                       "(+1 win, 0 draw, -1 loss)")
        return float(value)

    def outcome(self, state: Any) -> Outcome | None:
        if not self.is_terminal(state):
            return None
        u = self.utility(state, 0)
        winner = 0 if u > 0 else 1 if u < 0 else None
        detail = "" if u in (-1.0, 0.0, 1.0) else f"{u:g}"
        return Outcome(winner, Termination.GAME_OVER, detail)

    def is_chance(self, state: Any) -> bool:
        if self.rolls:
            return isinstance(state, Held) and state.rolls and not self.is_terminal(state)
        return "is_chance" in self.fns and bool(self.call("is_chance", self.raw(state)))

    def chance_outcomes(self, state: Any) -> list[tuple[Any, float]]:
        if self.rolls:
            return [(self.keep(c, "chances"), self._probability(c)) for c in self._chances(state)]
        if "chance_outcomes" not in self.fns:
            raise GameError(f"{self.title} has no chance nodes")
        pairs = self.call("chance_outcomes", self.raw(state))
        try:
            out = [(o, float(p)) for o, p in pairs]
        except (TypeError, ValueError):
            raise self.fail("chance_outcomes", "chance_outcomes(state) must return [(outcome, probability), ...], "
                                               f"got {quoted(pairs)}") from None
        return [(self.keep(o, "chance_outcomes"), p) for o, p in out]

    def _chances(self, state: Any) -> list[Any]:
        chances = self.call("chances", self.raw(state))
        if chances is None or isinstance(chances, (str, bytes, dict)) or not hasattr(chances, "__iter__"):
            raise self.fail("chances", f"chances(state) returned {quoted(chances)}; it must return a list of the "
                                       "chances (the rolls of the dice)")
        return list(chances)

    def _probability(self, chance: Any) -> float:
        p = self.call("probability", chance)
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not math.isfinite(p):
            raise self.fail("probability", f"probability(chance) returned {quoted(p)} for {quoted(chance)}; it must "
                                           "return a number from 0 to 1")
        return float(p)

    def evaluation(self, state: Any, player: int) -> float:
        """The file's ``evaluate(state, player)`` (a real number; 0 when it returns something else)."""
        value = self.call("evaluate", self.raw(state), self._player_values[player])
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self.fail("evaluate", f"evaluate(state, player) returned {quoted(value)}; it must return a number")
        return float(value)

    def board(self, state: Any) -> list[list[str]]:
        """The file's ``board(state)`` as rows of strings.

        Raises:
            GameFileError: no ``board``, or it returned something else than rows of cells.
        """
        if "board" not in self.fns:
            raise GameError(f"{self.title} has no board")
        rows = self.call("board", self.raw(state))
        try:
            grid = [[str(c) for c in row] if not isinstance(row, str) else list(row) for row in rows]
        except TypeError:
            raise self.fail("board", f"board(state) must return rows of short strings, got {quoted(rows)}") from None
        if not grid or not grid[0]:
            raise self.fail("board", "board(state) returned no rows")
        return grid

    def move_at(self, row: int, col: int) -> Any:
        """The move a click on cell (``row``, ``col``) means, or ``None``."""
        if "move_at" not in self.fns:
            return None
        move = self.call("move_at", row, col)
        return None if move is None else self.keep(move, "move_at")

    def display_text(self, state: Any) -> str:
        """What the file's ``display(state)`` prints (aima-python's way to show a state), without its trailing
        blank; the position's text when the file has no ``display`` or it prints nothing. The last state's text is
        kept (the window asks at every frame)."""
        if self._shown_text is not None and self._shown_text[0] == state:
            return self._shown_text[1]
        text = ""
        if "display" in self.fns:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.call("display", self.raw(state))
            text = out.getvalue().rstrip()
        text = text or self.format_position(state)
        self._shown_text = (state, text)
        return text

    def order_key(self, state: Any, move: Any) -> float:
        return 0.0

    def draw_context(self, state: Any) -> None:
        return None

    def format_move(self, state: Any, move: Any) -> str:
        """``move_text(move)``, or the move as Python writes it without spaces (``(3,1)`` for a tuple)."""
        raw = self.raw(move)
        text = self.call("move_text", raw) if "move_text" in self.fns else None
        if text is None:
            text = str(raw).replace(" ", "")
        return str(text)

    def parse_move(self, state: Any, text: str) -> Any:
        """The legal move written ``text`` (spaces ignored: ``(3, 1)`` is ``(3,1)``)."""
        want = "".join(text.split())
        choices = ([o for o, _ in self.chance_outcomes(state)] if self.is_chance(state) else self.actions(state))
        for move in choices:
            if "".join(self.format_move(state, move).split()) == want:
                return move
        shown = ", ".join(self.format_move(state, m) for m in choices[:20]) or "none: the game is over"
        raise MoveError(f"{quoted(text)} is not a legal move here; the moves are {shown}")

    def format_position(self, state: Any) -> str:
        """The state as Python writes it (``repr``); an aima-python dice game's state before its roll begins
        ``chance: ``."""
        return repr(state) if isinstance(state, Held) else repr(self.raw(state))

    def parse_position(self, text: str) -> Any:
        """A state from its text (:meth:`format_position`): Python's literals and the file's namedtuple types
        (:func:`~gameplay.rules.file_states.read_value`)."""
        body = text.strip()
        rolls = self.rolls and body.startswith(DICE_PREFIX)
        if rolls:
            body = body[len(DICE_PREFIX):]
        try:
            state = read_value(body, readable_names(self.module))
        except ValueError as e:
            raise PositionError(f"a {self.title} position is a state as Python writes it, e.g. "
                                f"{self.format_position(self.initial_state())}; got {quoted(text)} ({e})") from None
        try:
            return self.keep(state, "initial_state", rolls=rolls)
        except GameFileError as e:
            raise PositionError(f"a {self.title} position must be made of Python's values: {e}") from None


def _short(value: Any) -> str:
    text = repr(value)
    return quoted(text if len(text) <= 60 else text[:57] + "...")


def _unpicklable(state: Any, module_name: str) -> str:
    """Why ``state`` cannot travel to a worker process (``""``: it can). A :class:`Held` value pickles as its file
    and its own pickle; any other names no class of the file (:func:`~gameplay.rules.file_states.freeze`), but a
    function of the file inside it would."""
    try:
        data = pickle.dumps(state)
    except Exception as e:  # noqa: BLE001 - any failure to pickle
        return f"cannot be pickled ({type(e).__name__}: {e})"
    if not isinstance(state, Held) and module_name.encode() in data:
        return f"holds {type(state).__name__} values defined in the file"
    return ""


def _check(game: FileGame, seed: int = 1) -> None:
    """Probe the file by seeded random playouts (see the module docstring). A state's own check (it can travel to
    a worker) comes after ``result`` has been tried on it, so a list state that ``result`` changes is reported as
    the change (the deeper fault).

    Raises:
        GameFileError: the first fault found.
    """
    ends: set[float] = set()
    try:
        _playouts(game, seed, ends)
    finally:
        game.learn_payoffs(ends)


def _playouts(game: FileGame, seed: int, ends: set[float]) -> None:
    """:func:`_check`'s random games; each end's utility for the first player is added to ``ends``."""
    rng = random.Random(seed)
    deadline = time.monotonic() + CHECK_SECONDS
    start = game.initial_state()
    for _ in range(CHECK_PLAYOUTS):
        state = start
        for _ in range(CHECK_PLIES):
            made_by = ("initial_state", "initial_state()") if state is start else ("result", "result(state, move)")
            if time.monotonic() > deadline:
                _check_state(game, state, *made_by)
                return
            rolled = game.is_chance(state)
            if rolled:
                pairs = game.chance_outcomes(state)
                total = sum(p for _, p in pairs)
                if not pairs or any(p < 0 for _, p in pairs) or abs(total - 1.0) > PROBABILITY_TOLERANCE:
                    fname, what = (("probability", "probability(chance) over chances(state) sums")
                                   if game.rolls else ("chance_outcomes", "chance_outcomes(state) probabilities sum"))
                    raise game.fail(fname, f"{what} to {total:g}, not 1 (at {quoted(game.format_position(state))})")
                move = rng.choices([o for o, _ in pairs], weights=[p for _, p in pairs])[0]
            else:
                game.to_move(state)
                if game.is_terminal(state):
                    _check_state(game, state, *made_by)
                    ends.add(_check_end(game, state))
                    break
                move = rng.choice(_checked_moves(game, state))
            raw = game.raw(state)
            before = copy.deepcopy(raw)
            child = game.successor(state, move)
            if not _same(raw, before):
                fname, arg = ("outcome", "chance") if rolled and game.rolls else ("result", "move")
                raise game.fail(fname, f"{fname}(state, {arg}) changed its argument state; it must return a new "
                                       "state and leave the old one as it was")
            _check_state(game, state, *made_by)
            state = child


def _same(state: Any, before: Any) -> bool:
    """True when ``state`` still equals its copy ``before``: by ``==`` (and ``repr`` where it means something), or,
    for a class without ``__eq__`` (identity), by its pickle (its contents)."""
    kind: Any = type(state)
    if kind.__eq__ is not object.__eq__:
        return bool(state == before) and (kind.__repr__ is object.__repr__ or repr(state) == repr(before))
    try:
        return pickle.dumps(state) == pickle.dumps(before)
    except Exception:  # noqa: BLE001 - not picklable: reported by the state's own check
        return True


def _checked_moves(game: FileGame, state: Any) -> list[Any]:
    """The legal moves at a state that is not over, checked: some, each written as one word."""
    moves = game.actions(state)
    if not moves:
        raise game.fail("actions", f"actions(state) returned no move at {quoted(game.format_position(state))}, which "
                                   "is not terminal: is_terminal(state) must be True when no move is left")
    for m in moves:
        text = game.format_move(state, m)
        if not text or any(c.isspace() for c in text):
            raise game.fail("move_text" if "move_text" in game.fns else "actions",
                            f"the move {quoted(repr(game.raw(m)))} is written {quoted(text)}; a move's text is one "
                            "word (no spaces)")
    return moves


def _check_state(game: FileGame, state: Any, fname: str, call: str) -> None:
    why = _unpicklable(state, game.module.__name__)
    if why:
        raise game.fail(fname, f"{call} returned a state that {why}: build states from Python's values (tuples, "
                               "lists, dicts, numbers, strings, the file's namedtuples) so they can travel to the AI's "
                               "worker process")


def _check_end(game: FileGame, state: Any) -> float:
    """The first player's utility at an end, checked: a number, the second player's its opposite."""
    u = [game.utility(state, p) for p in (0, 1)]
    if u[0] + u[1] != 0:
        raise game.fail("utility", f"utility(state, player) gives {u[0]:g} and {u[1]:g} to the two players at the same "
                                   "end; the games here are zero-sum (a loss is minus the win: +1 / -1, 0 a draw)")
    return u[0]


class _Endless(BaseException):
    """The file's code ran past :data:`LOOP_SECONDS` (a ``BaseException``: :meth:`FileGame.call` never wraps it)."""

    def __init__(self, function: str, line: int) -> None:
        super().__init__(function, line)
        self.function = function
        self.line = line


class _LoopGuard:
    """Stops the file's code after :data:`LOOP_SECONDS`: a tracer (``sys.settrace``, this thread only) that looks
    at the clock every 256 instructions the file runs (opcode events: a one-line ``while True: pass`` gives no line
    events), and at nothing else's; restores the tracer it found (a debugger's, coverage's) when it leaves."""

    def __init__(self, path: str, seconds: float | None = None) -> None:
        self.path = os.path.realpath(path)
        self.seconds = LOOP_SECONDS if seconds is None else seconds
        self.deadline = 0.0
        self._before: Any = None
        self._mine: dict[str, bool] = {}
        self._count = 0

    def __enter__(self) -> _LoopGuard:
        self.deadline = time.monotonic() + self.seconds
        self._before = sys.gettrace()
        sys.settrace(self._call)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.settrace(self._before)

    def _call(self, frame: Any, event: str, arg: Any) -> Any:
        name = frame.f_code.co_filename
        mine = self._mine.get(name)
        if mine is None:
            mine = self._mine[name] = os.path.realpath(name) == self.path
        if not mine:
            return None
        frame.f_trace_opcodes = True
        return self._step

    def _step(self, frame: Any, event: str, arg: Any) -> Any:
        self._count += 1
        if self._count & 255 == 0 and time.monotonic() > self.deadline:
            raise _Endless(frame.f_code.co_name, frame.f_lineno)
        return self._step


def _endless(path: str, e: _Endless) -> GameFileError:
    where = "the file's top-level code" if e.function == "<module>" else f"{e.function}()"
    return GameFileError(f"{_where(path, e.line)}: {where} did not return within {LOOP_SECONDS:g} s while the file "
                         "was loaded and checked (an endless loop?)")


def run_with_start_limit(path: str, run: Callable[[], _T], seconds: float | None = None) -> _T:
    """Run ``run()``, which runs the file ``path``'s top-level code (a game file's, or ``check``'s exercise file's
    in its worker), stopping that file's own code after ``seconds`` (default :data:`LOOP_SECONDS`, the one start-up
    limit of a file the program loads).

    Raises:
        GameFileError: the file's code was still running past the limit (the message names its line: an endless
            loop at the top level).
    """
    try:
        with _LoopGuard(path, seconds):
            return run()
    except _Endless as e:
        raise _endless(path, e) from None


def _reloaded(path: str, name: str) -> FileGame:
    """A pickled :class:`FileGame` in this process: its file loaded (once) under its name."""
    return load_game_file(path, name=name)


_loaded: dict[str, tuple[float, dict[str, FileGame]]] = {}
"""Each loaded file (absolute path) -> its modification time and its games by the name asked for (``""``: the
file's own name): one run of the module, one checked game per name."""


def load_game_file(path: str, *, name: str = "", reload: bool = False) -> FileGame:
    """Load, check and wrap a game file (the same file again is the same game, until it changes on disk).

    Args:
        path: the file (``.py``); made absolute.
        name: the command-line name to give the game (default: from its ``NAME`` or its stem,
            :func:`game_name_of`).
        reload: run the file again even if it did not change.

    Raises:
        GameFileError: no such file, not a ``.py`` file, the file fails to run (syntax error, exception at
            import), or a check fails (the message names the file, the function and the line).
    """
    full = os.path.abspath(os.path.expanduser(path))
    shown = os.path.basename(full) or quoted_path(path)
    if not full.endswith(".py"):
        raise GameFileError(f"a game file is a Python file (.py), got {quoted_path(path)}")
    try:
        mtime = os.stat(full).st_mtime
    except OSError as e:
        raise GameFileError(f"cannot read the game file {quoted_path(path)}: {e.strerror or e}") from None
    cached = _loaded.get(full)
    if cached is not None and cached[0] == mtime and not reload:
        games = cached[1]
        if name in games:
            return games[name]
        return _checked(full, next(iter(games.values())).module, name, mtime)  # another name: the module ran once
    module_name = _module_name(full)
    spec = importlib.util.spec_from_file_location(module_name, full)
    if spec is None or spec.loader is None:
        raise GameFileError(f"cannot load the game file {quoted_path(path)}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # states pickled in a worker find their module by this name
    try:
        with _LoopGuard(full):
            spec.loader.exec_module(module)
    except _Endless as e:
        sys.modules.pop(module_name, None)
        raise _endless(full, e) from None
    except SyntaxError as e:
        sys.modules.pop(module_name, None)
        nul = nul_place(full) if e.lineno is None else None
        if nul is not None:  # Python names no line for a NUL byte
            raise GameFileError(f"{shown} line {nul[0]}: a NUL byte at column {nul[1]} (byte {nul[2]:,}): this is a "
                                "binary file, not Python source") from None
        raise GameFileError(f"{_where(full, e.lineno)}: syntax error: {e.msg}") from None
    except SystemExit as e:  # sys.exit() in the top-level code: refused like any other fault, the program goes on
        sys.modules.pop(module_name, None)
        raise GameFileError(f"{_where(full, _error_line(full, e))}: the file called sys.exit({_exit_code(e)}) when "
                            "loaded; a game file defines the game's functions and never ends the program") from None
    except Exception as e:  # the teacher's top-level code
        sys.modules.pop(module_name, None)
        raise GameFileError(f"{_where(full, _error_line(full, e))}: the file raised {type(e).__name__} when "
                            f"loaded: {e}") from e
    return _checked(full, module, name, mtime)


def _checked(full: str, module: ModuleType, name: str, mtime: float) -> FileGame:
    """The game of a file run as ``module``: found, its players learned, checked (the file's code stopped after
    :data:`LOOP_SECONDS`, a class's ``__init__`` included), kept for the next load."""
    try:
        with _LoopGuard(full):
            game = FileGame(full, module, name)
            game.learn_players()
            _check(game)
    except _Endless as e:
        raise _endless(full, e) from None
    cached = _loaded.get(full)
    games = cached[1] if cached is not None and cached[0] == mtime and next(iter(cached[1].values())).module is module \
        else {}
    games[name] = game
    _loaded[full] = (mtime, games)
    return game
