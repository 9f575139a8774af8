"""Which board view draws which game: the table the match scene and the menu look a game's view up in.

The table names each view by a dotted path (``module:Class``), imported when a view is first asked for, so the
views (which import :mod:`gameplay.ui.board`'s base classes) and the board module form no import cycle. A game
without an entry is played with :class:`gameplay.ui.board.GenericView` (buttons for its moves).
"""

from __future__ import annotations

import importlib
from typing import Any

from gameplay.rules.base import Game
from gameplay.ui.board import BoardView, GenericView

VIEWS: dict[str, str] = {
    "tictactoe": "gameplay.ui.tictactoe_view:TicTacToeView",
    "checkers": "gameplay.ui.checkers_view:CheckersView",
    "pig": "gameplay.ui.pig_view:PigView",
}
"""Game name -> its board view's class as ``module:Class`` (built as ``Class(game)``)."""


def view_for(game: Game[Any, Any]) -> BoardView:
    """The board view registered for ``game.name`` (:data:`VIEWS`), or a :class:`~gameplay.ui.board.GenericView`."""
    path = VIEWS.get(game.name)
    if path is None:
        return GenericView(game)
    module, _, name = path.partition(":")
    view: BoardView = getattr(importlib.import_module(module), name)(game)
    return view
