"""Synthetic input for the headless window tests: run frames, wait for a condition, press keys, click."""

from __future__ import annotations

import time
from typing import Any, Callable

import pygame

PUMP_GAP_S = 0.002
"""Seconds :func:`pump` sleeps between frames (the GIL free for the background threads it waits for)."""


def frames(app: Any, n: int = 1) -> None:
    """Run ``n`` frames of the App."""
    app.run(max_frames=n)


def pump(app: Any, until: Callable[[], bool], timeout_s: float = 30.0, frames_per_step: int = 1) -> None:
    """Run frames until ``until()`` holds; fail the test if it does not within ``timeout_s`` seconds.

    The bound is wall-clock time, not a frame count: an AI on a busy machine may need more frames than usual.
    Between frames the test sleeps :data:`PUMP_GAP_S`, as the window's 60 fps frame cap does: the tests' windows
    run at 1000 fps, and a loop of frames with no gap starves the thread it waits for of the GIL (the Tree Lab's
    growth figure, 3.6 s at 60 fps, took 57 s pumped without a gap on 2026-12-02 and timed out in CI).

    ``frames_per_step``: frames each ``App.run`` call runs between checks. The first frame of a call steps the scene
    with ``dt`` 0, so a condition that needs the scene's own clocks to move (a die's tumble, an AI's delay) needs 2.
    """
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if until():
            return
        app.run(max_frames=frames_per_step)
        time.sleep(PUMP_GAP_S)
    assert until(), f"condition not reached within {timeout_s} s"


def key(app: Any, k: int, mod: int = 0, unicode: str = "") -> None:
    """Press and release a key, then run two frames."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode, scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode=unicode, scancode=0))
    frames(app, 2)


def click(app: Any, pos: tuple[int, int]) -> None:
    """Move to ``pos`` and click the left button; three frames: the click, pygame_gui's event, the scene's."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    frames(app, 3)


def hot_seat(app: Any, game: str = "tictactoe") -> Any:
    """Start a match of ``game`` between two humans in ``app`` and draw it; returns the MatchScene."""
    from ai.agents.agents import make_agent
    scene = app.start_match(game, make_agent(game, "human"), make_agent(game, "human"))
    frames(app, 2)
    return scene


def play_first_moves(app: Any, scene: Any, n: int) -> None:
    """Play ``n`` moves of ``scene``'s game, the first legal move each time (Pig: the die shows 4), then let the
    scene autosave."""
    for _ in range(n):
        state = scene.record.state
        if scene.game.is_chance(state):
            assert scene.play(4, "chance")
        else:
            assert scene.play(scene.game.actions(state)[0], "human")
    frames(app, 2)


def overlay_texts(ov: Any, monkeypatch: Any) -> list[str]:
    """Every string the tree overlay ``ov`` draws (labels and values, in drawing order), drawn once at 1400x980."""
    from gameplay.ui.overlay import overlay_draw, overlay_panel
    drawn: list[str] = []
    real = overlay_draw.safe_text

    def spy(s: str) -> str:
        drawn.append(s)
        return real(s)

    monkeypatch.setattr(overlay_draw, "safe_text", spy)  # the side panel's labels
    monkeypatch.setattr(overlay_panel, "safe_text", spy)  # the values beside the labels
    ov.set_rect(pygame.Rect(0, 0, 1400, 980))
    ov.show()
    ov.draw(pygame.Surface((1400, 980)))
    monkeypatch.setattr(overlay_draw, "safe_text", real)
    monkeypatch.setattr(overlay_panel, "safe_text", real)
    return drawn
