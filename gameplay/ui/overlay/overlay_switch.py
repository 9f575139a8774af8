"""One overlay slot, two pictures: the minimax-family tree or the Monte Carlo tree, whichever the decision grew.

The match scene (and the Tree Lab) hold one overlay; :class:`OverlaySwitch` keeps a
:class:`~gameplay.ui.overlay.overlay.TreeOverlay` and a :class:`~gameplay.ui.overlay.mcts_overlay.MCTSOverlay` and
forwards every attribute to the one in use. :meth:`OverlaySwitch.set_tree` picks it by what it is given (an
:class:`~ai.teaching.mcts_record.MCTSTrace` goes to the MCTS overlay) and hands over the place, the visibility and the
presenter view, so switching between an alpha-beta decision and an MCTS one (undo, redo, AI against AI) never
leaves the other picture on screen. The switch reads through to the overlay in use and writes none of its
fields: assignments to it raise, state changes go through the overlays' methods.
"""

from __future__ import annotations

from typing import Any

import pygame

from ai.teaching.mcts_record import MCTSTrace
from gameplay.ui.overlay.overlay_shown import NoTreeText


class OverlaySwitch:
    """Forwards reads and calls to :attr:`active` (see the module docstring).

    Args:
        tree_overlay: the minimax / alpha-beta / expectimax overlay.
        mcts_overlay: the Monte Carlo tree search overlay.
    """

    def __init__(self, tree_overlay: Any, mcts_overlay: Any) -> None:
        object.__setattr__(self, "tree_overlay", tree_overlay)
        object.__setattr__(self, "mcts_overlay", mcts_overlay)
        object.__setattr__(self, "active", tree_overlay)

    def __getattr__(self, name: str) -> Any:
        return getattr(object.__getattribute__(self, "active"), name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{name}: the overlay's state changes through its methods, not by assignment")

    def _use(self, target: Any) -> None:
        old = self.active
        if target is old:
            return
        # the scene's layout stays as it is: no callback
        target.take_over(pygame.Rect(old.rect), old.visible, old.presenter)
        old.step_aside()
        object.__setattr__(self, "active", target)

    def set_tree(self, tree: Any, info: Any, *, keep_view: bool = False) -> None:
        """Show ``tree`` in the overlay made for it (keeping the place, visibility and presenter view)."""
        self._use(self.mcts_overlay if isinstance(tree, MCTSTrace) else self.tree_overlay)
        self.active.set_tree(tree, info, keep_view=keep_view)

    def set_rect(self, rect: pygame.Rect) -> None:
        """Place both (the hidden one is ready when it is needed)."""
        self.tree_overlay.set_rect(rect)
        self.mcts_overlay.set_rect(rect)

    def clear(self, message: NoTreeText | None = None) -> None:
        """No tree in either; the tree overlay says ``message``."""
        self.mcts_overlay.clear(None)
        self._use(self.tree_overlay)
        self.tree_overlay.clear(message)

    def close(self) -> None:
        """Stop background work in both."""
        self.tree_overlay.close()
        self.mcts_overlay.close()
