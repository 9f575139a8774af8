"""F11 switches fullscreen once a press (issue 47): the press SDL replays to the window a switch made anew (the key
still down, or its release lost with the old window) is not a new press; and the display a window is on. Headless
(SDL's dummy driver); the real X server's side is tests/test_xvfb_fullscreen.py."""

from __future__ import annotations

import pygame
import pytest

from gameplay.ui.shell.app import App
from gameplay.ui.shell.app_events import ECHO_FRAMES
from gameplay.ui.shell.window_size import display_at
from tests.ui_driver import frames, hot_seat


def post(*events: pygame.event.Event) -> None:
    for e in events:
        pygame.event.post(e)


def f11(kind: int = pygame.KEYDOWN) -> pygame.event.Event:
    return pygame.event.Event(kind, key=pygame.K_F11, mod=0, unicode="", scancode=0)


def test_the_replayed_press_of_the_new_window_does_not_switch_back(app: App) -> None:
    hot_seat(app)
    post(f11())
    frames(app, 1)
    assert app.fullscreen
    # what SDL sends the new window (the loop of the issue): the key released with the old window's focus, the focus
    # gained, the key "pressed" again
    post(f11(pygame.KEYUP), pygame.event.Event(pygame.WINDOWFOCUSGAINED), f11())
    frames(app, 1)
    assert app.fullscreen
    post(pygame.event.Event(pygame.WINDOWFOCUSGAINED), f11())  # again, a few frames on: the same echo
    frames(app, 3)
    assert app.fullscreen
    frames(app, 2)
    post(f11(), f11(pygame.KEYUP))  # a press of the user's, frames later: back to the window
    frames(app, 1)
    assert not app.fullscreen


def test_a_press_with_a_focus_gain_long_after_the_switch_counts(app: App) -> None:
    hot_seat(app)
    post(f11())
    frames(app, 1)
    frames(app, ECHO_FRAMES + 1)
    post(pygame.event.Event(pygame.WINDOWFOCUSGAINED), f11())  # the user came back to the window and pressed F11
    frames(app, 1)
    assert not app.fullscreen


def test_a_late_resize_from_before_the_switch_keeps_the_window_size(app: App) -> None:
    hot_seat(app)
    post(f11())
    frames(app, 1)
    post(f11())
    frames(app, 3)
    assert app.fullscreen  # the echo frame: ignored
    frames(app, ECHO_FRAMES)
    post(f11())
    frames(app, 1)
    assert not app.fullscreen and app.size == (1280, 800)
    post(pygame.event.Event(pygame.VIDEORESIZE, w=1024, h=768, size=(1024, 768)))  # the fullscreen size, late
    frames(app, 1)
    assert app.size == (1280, 800)


@pytest.mark.parametrize(("point", "desktops", "expected"), [
    ((960, 540), [(1920, 1080)], 0),
    ((2000, 100), [(1920, 1080), (1280, 1024)], 1),
    ((1919, 100), [(1920, 1080), (1280, 1024)], 0),
    ((-50, 0), [(1920, 1080), (1280, 1024)], 0),
    ((9000, 0), [(1920, 1080), (1280, 1024)], 1),
    ((10, 10), [], 0),
])
def test_display_at(point: tuple[int, int], desktops: list[tuple[int, int]], expected: int) -> None:
    assert display_at(point, desktops) == expected


def test_display_at_refuses_a_display_without_size() -> None:
    with pytest.raises(ValueError, match="positive size"):
        display_at((0, 0), [(1920, 1080), (0, 768)])
