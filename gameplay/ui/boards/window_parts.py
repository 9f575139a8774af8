"""The window's per-game parts: what the window knows of a game beyond its rules record.

A game's record (:class:`gameplay.rules.registry.GameInfo`) is the rules layer's and names nothing above it. What the
window needs of a game lives here, in a :class:`WindowParts` (defined in :mod:`gameplay.ui.boards.board`, re-exported
here): its board view, its title screen card's picture, its help (rules, keys, a figure) and its place in the attract
show. Every field has a default, so a game with no parts of its own is played with the generic view and help.

How a game's parts are found (no central list a new game edits): the module ``gameplay.ui.boards.<game>_view`` (by the
game's command-line name: ``gameplay.ui.boards.checkers_view``, ``gameplay.ui.boards.pig_view``), when it exists,
defines ``WINDOW_PARTS``; a game registered at run time (a test's game) calls :func:`register_window_parts` in its own
process. Any other game gets :func:`generic_parts`: the generic view, the record's plain-text ``rules_text`` as the
help's rules (a game file's docstring, with the file's path), and one key row that says what a click does. One
convention rather than a list because a list in a shared module would have to name every game (and be edited by the
next one); the convention is this module's :data:`VIEW_MODULE` to change when the views move. The convention's import
is the window's own (``boards`` importing ``boards``), so it points the right way (``tests/test_imports.py`` counts it
like any other import).

A view module builds its ``WINDOW_PARTS`` with :class:`gameplay.ui.boards.board.WindowParts`, never from this module:
this module imports the view modules, so importing it from one would make an import cycle.

A help figure (Pig's "Policy picture") is a :class:`gameplay.ui.boards.board.HelpFigure`: the headless functions that
compute and draw it (``ai``, ``gameplay.pictures``), which the play room's figure scene shows
(:func:`gameplay.ui.play.growth_scene.open_help_figure`). The parts describe the figure rather than name the function
that opens it because that function is in the play room, above the boards: naming it would import upward.

Looked up on first use and kept for the game's record (a record replaced by ``registry.replaced`` or reloaded from
its file is looked up again).
"""

from __future__ import annotations

import html
import importlib.util
from collections.abc import Iterator
from contextlib import contextmanager

from gameplay.rules.registry import GameInfo, game_info, import_module, make_game
from gameplay.ui.boards.board import HelpFigure, WindowParts

__all__ = ["DEFAULT_PARTS", "VIEW_MODULE", "HelpFigure", "WindowParts", "generic_parts", "register_window_parts",
           "replaced_window_parts", "unregister_window_parts", "window_parts"]

VIEW_MODULE = "gameplay.ui.boards.{game}_view"
"""The module whose ``WINDOW_PARTS`` are a game's parts, by the game's command-line name."""

DEFAULT_PARTS = WindowParts()
"""Every default: the generic view, the generic help line, no keys of its own, no figure, not in the show."""

_registered: dict[str, WindowParts] = {}
"""Game name -> parts given by :func:`register_window_parts` (or by :func:`replaced_window_parts`)."""
_found: dict[str, tuple[GameInfo, WindowParts]] = {}
"""Game name -> (the record looked up, its parts found by the convention or made by :func:`generic_parts`)."""


def window_parts(game_name: str) -> WindowParts:
    """The window's parts of a game by its command-line name (module docstring: registered, else the game's
    ``gameplay.ui.boards.<game>_view.WINDOW_PARTS``, else :func:`generic_parts`).

    Raises:
        UnknownGameError: not a registered game.
        GameLoadError: the game's view module exists but cannot be imported (a broken install).
        TypeError: the view module's ``WINDOW_PARTS`` is not a :class:`WindowParts`.
        GameFileError: a game file without parts that no longer loads.
    """
    info = game_info(game_name)
    if info.name in _registered:
        return _registered[info.name]
    found = _found.get(info.name)
    if found is None or found[0] is not info:
        found = (info, _look_up(info))
        _found[info.name] = found
    return found[1]


def _look_up(info: GameInfo) -> WindowParts:
    module = VIEW_MODULE.format(game=info.name)
    if not info.source_file and importlib.util.find_spec(module) is not None:  # a game file has no view module
        parts = getattr(import_module(module, f"the {info.name} window parts"), "WINDOW_PARTS", None)
        if parts is not None:
            if not isinstance(parts, WindowParts):
                raise TypeError(f"{module}.WINDOW_PARTS must be a WindowParts, got {type(parts).__name__}")
            return parts
    return generic_parts(info)


def generic_parts(info: GameInfo) -> WindowParts:
    """The parts of a game that offers none, made from its record and its game: :data:`DEFAULT_PARTS` with the
    record's ``rules_text`` as the help's rules (paragraphs kept), a game file's path under them, and the key row of
    the generic view (a click on a cell of a game with ``has_board``, else on a move's button).

    Raises:
        GameLoadError, GameFileError: the game cannot be made (``registry.make_game``).
    """
    rules = html.escape(info.rules_text.strip()).replace("\n\n", "<br>").replace("\n", " ")
    if info.source_file:
        rules = (rules + "<br>" if rules else "") + f"<i>A game file: {html.escape(info.source_file)}</i>"
    has_board = bool(getattr(make_game(info.name), "has_board", False))
    return WindowParts(rules_html=rules,
                       keys=(("click", "a cell of the board" if has_board else "a move's button"),))


def register_window_parts(game_name: str, parts: WindowParts) -> WindowParts:
    """Give a game registered at run time its window parts in this process; returns ``parts``.

    Raises:
        UnknownGameError: not a registered game.
        TypeError: ``parts`` is not a :class:`WindowParts`.
    """
    if not isinstance(parts, WindowParts):
        raise TypeError(f"window parts must be a WindowParts, got {type(parts).__name__}")
    _registered[game_info(game_name).name] = parts
    return parts


def unregister_window_parts(game_name: str) -> None:
    """Forget the parts :func:`register_window_parts` gave (nothing when none were given)."""
    _registered.pop(game_name.strip().lower(), None)


@contextmanager
def replaced_window_parts(game_name: str, parts: WindowParts) -> Iterator[WindowParts]:
    """Make ``parts`` the game's window parts inside a ``with`` block, then put back what was there (an experiment
    or a test on a variant of a game, a built-in one included: the generic view for checkers). Yields ``parts``.

    Raises:
        UnknownGameError: not a registered game.
        TypeError: ``parts`` is not a :class:`WindowParts`.
    """
    if not isinstance(parts, WindowParts):
        raise TypeError(f"window parts must be a WindowParts, got {type(parts).__name__}")
    name = game_info(game_name).name
    old = _registered.get(name)
    _registered[name] = parts
    try:
        yield parts
    finally:
        if old is None:
            _registered.pop(name, None)
        else:
            _registered[name] = old
