"""Which board view draws which game: the view its window parts name (:mod:`gameplay.ui.boards.window_parts`).

A game whose parts name no view (or a game object the registry does not know) is played with
:class:`gameplay.ui.boards.board.GenericView` (buttons for its moves, or the grid of a game with ``has_board``).
"""

from __future__ import annotations

from typing import Any

from gameplay.rules.base import Game
from gameplay.rules.registry import UnknownGameError
from gameplay.ui.boards.board import BoardView, GenericView
from gameplay.ui.boards.window_parts import window_parts


def view_for(game: Game[Any, Any]) -> BoardView:
    """The board view the window parts of ``game.name`` name (``WindowParts.view``), or a :class:`GenericView`.

    Raises:
        GameLoadError: the game's view module cannot be imported (a broken install).
    """
    try:
        factory = window_parts(game.name).view
    except UnknownGameError:  # a game object the registry does not know (a test's variant): the generic view
        return GenericView(game)
    return GenericView(game) if factory is None else factory(game)
