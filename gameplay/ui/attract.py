"""Attract mode: an endless AI-vs-AI show cycling through the three games (``App.start_attract_mode``).

Each game of the show is an :class:`AttractScene` (a match scene between two agents, paced to be watchable).
When a game ends (or runs longer than :data:`MAX_GAME_S`) the next game of :data:`SHOW` replaces it. The
search-tree overlay follows ``settings.overlay``. Any key or click returns to the title screen (the App checks
the scene's ``attract`` flag before anything else). Nothing is autosaved during the show.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai.agents import make_agent
from gameplay.ui.match import MatchScene

if TYPE_CHECKING:
    from gameplay.ui.app import App

SHOW: tuple[tuple[str, str, str], ...] = (
    ("tictactoe", "medium", "hard"),
    ("checkers", "easy", "medium"),
    ("pig", "medium", "expert"),
)
"""The show, in order: (game, agent spec of player 1, agent spec of player 2)."""
AI_DELAY_S = 0.7
"""Minimum seconds between moves (watchable)."""
END_PAUSE_S = 3.0
"""Seconds the result stays on screen before the next game."""
MAX_GAME_S = 90.0
"""A game still going after this many seconds gives way to the next one."""


class AttractScene(MatchScene):
    """One game of the attract show.

    Args:
        index: position in the show (any int: taken modulo ``len(SHOW)``; it also seeds the agents and dice,
            so each round differs).
    """

    attract = True
    """Marks the show for the App (any key or click returns to the title) and for the autosave (never)."""

    def __init__(self, index: int) -> None:
        game, p1, p2 = SHOW[index % len(SHOW)]
        agents = (make_agent(game, f"{p1}:seed={index}"), make_agent(game, f"{p2}:seed={index + 1}"))
        super().__init__(game, agents, ai_delay_s=AI_DELAY_S, chance_delay_s=0.5, seed=index)
        self.index = index
        self.elapsed = 0.0
        """Seconds this game of the show has run."""

    def status_text(self) -> str:
        """The usual status, with the way out."""
        return "Demo: any key returns to the title  ·  " + super().status_text()

    def update(self, dt: float) -> None:
        """Play on; after the end (or :data:`MAX_GAME_S`, or an AI error) go on to the next game of the show."""
        super().update(dt)
        self.elapsed += dt
        over = self.record.outcome() is not None and self.turn_clock >= END_PAUSE_S
        if (over or self.elapsed >= MAX_GAME_S or self.error is not None) and self.app is not None:
            next_game(self.app, self)


def start_attract(app: App, index: int = 0) -> AttractScene:
    """Show game ``index`` of the show above the title screen (see ``App.start_attract_mode``)."""
    app.open_menu()
    scene = _make(app, index)
    app.push(scene)
    return scene


def _make(app: App, index: int) -> AttractScene:
    scene = AttractScene(index)
    scene.overlay_on_start = bool(getattr(getattr(app, "settings", None), "overlay", False))
    return scene


def next_game(app: App, current: AttractScene) -> AttractScene:
    """Replace ``current`` (the top scene) by the next game of the show, without re-entering the title screen."""
    scene = _make(app, current.index + 1)
    if app.scenes and app.scenes[-1] is current:
        app.scenes.pop()
        current.on_exit()
    app.scenes.append(scene)  # the title screen below stays as it is (not entered again)
    scene.on_enter(app)
    return scene
