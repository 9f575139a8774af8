"""Attract mode: an endless AI-vs-AI show cycling through the games whose window parts name their agents
(``App.start_attract_mode``).

Each game of the show is an :class:`AttractScene` (a match scene between two agents, paced to be watchable).
When a game ends (or runs longer than :data:`MAX_GAME_S`) the next game of :func:`show` replaces it. The
search-tree overlay follows ``settings.overlay``. Nothing is autosaved during the show.

Two ways to leave: the unattended show (``App.start_attract_mode()``) returns to the title screen on any key or
click (the App checks the scene's ``exits_on_any_key`` before anything else); the menu's "Watch AI vs AI"
(``watch=True``) is a match to watch: only Esc (and closing the window) leave, Space pauses, T shows the search
tree, and the other keys and buttons do what they do in a match. A paused game is not cut short by
:data:`MAX_GAME_S`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai.agents.agents import make_agent
from gameplay.rules.registry import game_names
from gameplay.ui.boards.window_parts import window_parts
from gameplay.ui.play.match import MatchScene

if TYPE_CHECKING:
    from gameplay.ui.widgets.scene import Window

def show() -> tuple[tuple[str, str, str], ...]:
    """The show, in menu order: ``(game, agent spec of player 1, agent spec of player 2)`` of every game whose
    window parts name its agents (``WindowParts.attract``, :mod:`gameplay.ui.boards.window_parts`)."""
    return tuple((name, *pair) for name in game_names() if (pair := window_parts(name).attract) is not None)
AI_DELAY_S = 0.7
"""Minimum seconds between moves (watchable)."""
END_PAUSE_S = 3.0
"""Seconds the result stays on screen before the next game."""
MAX_GAME_S = 90.0
"""A game still going after this many seconds gives way to the next one."""


class AttractScene(MatchScene):
    """One game of the attract show.

    Args:
        index: position in the show (any int: taken modulo the length of :func:`show`; it also seeds the agents
            and dice, so each round differs).
        watch: the menu's "Watch AI vs AI" (only Esc leaves).
        overlay_on_start: show the search-tree overlay with each decision (the settings' ``overlay``).
    """

    attract = True
    """Marks the show for the autosave (never) and the App."""

    def __init__(self, index: int, watch: bool = False, overlay_on_start: bool = False) -> None:
        shown = show()
        game, p1, p2 = shown[index % len(shown)]
        agents = (make_agent(game, f"{p1}:seed={index}"), make_agent(game, f"{p2}:seed={index + 1}"))
        super().__init__(game, agents, ai_delay_s=AI_DELAY_S, chance_delay_s=0.5, seed=index,
                         overlay_on_start=overlay_on_start)
        self.index = index
        self.watch = watch
        """The menu's "Watch AI vs AI": only Esc leaves; keys and clicks work as in a match."""
        self.elapsed = 0.0
        """Seconds this game of the show has run (not counting pauses)."""

    @property
    def exits_on_any_key(self) -> bool:
        """True for the unattended show (any key or click returns to the title), False when watching."""
        return not self.watch

    def status_variants(self) -> list[str]:
        """The usual status with the way out first, then (a narrow window) the usual status alone."""
        way_out = "Esc: back to the title" if self.watch else "Demo: any key returns to the title"
        plain = super().status_variants()
        return [f"{way_out}  ·  {text}" for text in plain] + plain

    def update(self, dt: float) -> None:
        """Play on; after the end (or :data:`MAX_GAME_S`, or an AI error) go on to the next game of the show."""
        super().update(dt)
        if self.paused:  # Space, or the tree opened (T): the game waits, and is not cut short
            return
        self.elapsed += dt
        over = self.record.outcome() is not None and self.turn_clock >= END_PAUSE_S
        if (over or self.elapsed >= MAX_GAME_S or self.error is not None) and self.app is not None:
            next_game(self.app, self)


def start_attract(app: Window, index: int = 0, watch: bool = False) -> AttractScene:
    """Show game ``index`` of the show above the title screen (see ``App.start_attract_mode``); ``watch``: the
    menu's "Watch AI vs AI" (only Esc leaves)."""
    app.open_menu()
    scene = _make(app, index, watch)
    app.push(scene)
    return scene


def _make(app: Window, index: int, watch: bool = False) -> AttractScene:
    overlay = bool(getattr(getattr(app, "settings", None), "overlay", False))
    return AttractScene(index, watch, overlay_on_start=overlay)


def next_game(app: Window, current: AttractScene) -> AttractScene:
    """Replace ``current`` (the top scene) by the next game of the show, without re-entering the title screen
    (``Window.replace_top``); when ``current`` is no longer on top, the next game is shown above what is."""
    scene = _make(app, current.index + 1, current.watch)
    if app.scene is current:
        app.replace_top(scene)  # the title screen below stays as it is (not entered again)
    else:
        app.push(scene)
    return scene
