"""Which board view draws which game: the view its registry record names (``GameInfo.view``, a ``module:Class``).

The record names each view by a dotted path, imported when a view is first asked for, so the views (which import
:mod:`gameplay.ui.boards.board`'s base classes) and the board module form no import cycle. A game whose record names no
view (or a game object the registry does not know) is played with :class:`gameplay.ui.boards.board.GenericView` (buttons
for its moves).
"""

from __future__ import annotations

from typing import Any, Callable

from gameplay.rules.base import Game
from gameplay.rules.registry import UnknownGameError, game_info, resolve
from gameplay.ui.boards.board import BoardView, GenericView


def view_for(game: Game[Any, Any]) -> BoardView:
    """The board view its registry record names for ``game.name`` (``GameInfo.view``), or a :class:`GenericView`.

    Raises:
        GameLoadError: the record's view cannot be imported (a broken install).
    """
    try:
        info = game_info(game.name)
    except UnknownGameError:  # a game object the registry does not know (a test's variant): the generic view
        return GenericView(game)
    if not info.view:
        return GenericView(game)
    factory: Callable[[Game[Any, Any]], BoardView] = resolve(info.view, f"the {info.name} view")
    return factory(game)
