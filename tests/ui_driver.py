"""Synthetic input for the headless window tests: run frames, wait for a condition, press keys, click."""

from __future__ import annotations

from typing import Any, Callable

import pygame


def frames(app: Any, n: int = 1) -> None:
    """Run ``n`` frames of the App."""
    app.run(max_frames=n)


def pump(app: Any, until: Callable[[], bool], max_frames: int = 900) -> None:
    """Run frames until ``until()`` holds; fail the test if it never does."""
    for _ in range(max_frames):
        if until():
            return
        app.run(max_frames=1)
    assert until(), "condition not reached"


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
