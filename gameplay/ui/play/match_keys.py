"""The match's keys and panel buttons as tables: which key or button runs which
:class:`~gameplay.ui.play.match.MatchScene` command.

:data:`MATCH_KEYS` lists every key of the match scene itself (the board view's extra commands, the play aids' and
the open search tree's keys are theirs: see :mod:`gameplay.ui.boards.board`, :mod:`gameplay.ui.play.play_aids` and
:mod:`gameplay.ui.overlay.overlay`); :data:`PANEL_BUTTONS` maps the side panel's buttons (by widget name) to commands;
the help window's key list (:mod:`gameplay.ui.play.help_scene`) takes its rows from :func:`help_rows`. pygame constants
only: importing this module opens nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Container
from dataclasses import dataclass
from typing import Any

import pygame


@dataclass(frozen=True)
class Chord:
    """One key, with or without Ctrl."""

    key: int
    """The ``pygame.K_*`` key."""
    ctrl: bool | None = None
    """True: only with Ctrl held; False: only without Ctrl; None: either."""

    def matches(self, key: int, ctrl: bool) -> bool:
        """True when a press of ``key`` (``ctrl``: Ctrl held) is this chord."""
        return key == self.key and (self.ctrl is None or self.ctrl == ctrl)


@dataclass(frozen=True)
class KeyBinding:
    """Keys that run one command of the match scene."""

    command: str
    """The :class:`~gameplay.ui.play.match.MatchScene` method called (no arguments)."""
    chords: tuple[Chord, ...]
    """The keys that run it."""
    help_keys: str = ""
    """How the help window names the keys (``"U / Ctrl+Z"``); ``""``: the help does not list this binding."""
    help: str = ""
    """What the help window says the keys do."""
    when: Callable[[Any], bool] | None = None
    """A condition on the scene; while it is false the keys are not taken (the event goes on to others)."""
    before_tree: bool = False
    """True: the scene takes the key before the open search-tree overlay sees it (T closes the tree, P opens its
    presenter view); False: the open tree's own keys (arrows, Page Up / Down steps...) come first."""


MATCH_KEYS: tuple[KeyBinding, ...] = (
    KeyBinding("ask_new_game", (Chord(pygame.K_n, ctrl=False),),
               "N", "new game with the same players"),
    KeyBinding("undo", (Chord(pygame.K_u), Chord(pygame.K_z, ctrl=True), Chord(pygame.K_PAGEUP)),
               "U / Ctrl+Z", "undo (back to your last move)"),  # Page Up / Down: a presenter's clicker
    KeyBinding("redo", (Chord(pygame.K_r), Chord(pygame.K_y, ctrl=True), Chord(pygame.K_PAGEDOWN)),
               "R / Ctrl+Y", "redo"),
    KeyBinding("toggle_overlay", (Chord(pygame.K_t, ctrl=False),),
               "T", "search tree of the last AI decision", before_tree=True),
    KeyBinding("open_presenter", (Chord(pygame.K_p, ctrl=False),),  # a tree, or why there is none (a proof's tests)
               when=lambda scene: not scene.overlay.visible and (scene.overlay.tree is not None
                                                                 or scene.overlay.no_tree_message is not None),
               before_tree=True),
    KeyBinding("toggle_pause", (Chord(pygame.K_SPACE),),
               when=lambda scene: not scene.has_human),
    KeyBinding("focus_move_entry", (Chord(pygame.K_RETURN, ctrl=False), Chord(pygame.K_KP_ENTER, ctrl=False)),
               "Enter", "type a move in the panel's field (Tab completes it, Enter plays it, Esc leaves)",
               when=lambda scene: scene.panel.move_entry is not None and scene.human_to_move()),
)
"""Every key of the match scene. A key the game's input controller claims as a move (``controller.shortcuts``:
Pig's R rolls, H holds) plays that move instead and is not looked up here, with or without Ctrl (so Redo is
Ctrl+Y only in Pig)."""

PANEL_BUTTONS: dict[str, str] = {
    "new": "ask_new_game",
    "undo": "undo",
    "redo": "redo",
    "menu": "go_to_menu",
    "pause": "toggle_pause",
    "tree": "toggle_overlay",
}
"""The side panel's buttons: widget name -> the :class:`~gameplay.ui.play.match.MatchScene` method a press calls (the
board view's extra buttons and the move buttons are matched by the scene's own lists)."""


def binding_for(key: int, ctrl: bool, *, before_tree: bool, claimed: Container[int] = ()) -> KeyBinding | None:
    """The binding of a press of ``key`` (``ctrl``: Ctrl held) among those with this ``before_tree``, or ``None``.

    ``claimed``: keys the input controller plays as moves; they have no binding here.
    """
    if key in claimed:
        return None
    for binding in MATCH_KEYS:
        if binding.before_tree == before_tree and any(c.matches(key, ctrl) for c in binding.chords):
            return binding
    return None


def help_rows() -> list[tuple[str, str]]:
    """The help window's rows for the match's keys, in table order: ``[("N", "new game with the same players"),
    ...]``."""
    return [(b.help_keys, b.help) for b in MATCH_KEYS if b.help_keys]
