"""The size the window opens at and the fullscreen window: the desktop's size (none on a headless driver), the display
the window is on, the remembered size fitted to it, and a fullscreen window that covers exactly that display."""

from __future__ import annotations

import os
from collections.abc import Sequence

import pygame

from gameplay.ui.widgets import projector

HEADLESS_DRIVERS = ("dummy", "offscreen")
"""SDL video drivers without a real display: their desktop size is a placeholder, so nothing is fitted to it."""


def display_at(point: tuple[int, int], desktops: Sequence[tuple[int, int]]) -> int:
    """The index of the display that holds ``point`` (desktop pixels), the displays' sizes ``desktops`` in SDL's
    order (``pygame.display.get_desktop_sizes()``) taken as side by side from left to right, their tops aligned
    (the layout SDL and xrandr give by default: pygame-ce 2.5 tells neither a display's origin nor a window's
    display); a point left of them all is on the first display, right of them all on the last. 0 without
    displays.

    Raises:
        ValueError: a display's size is not positive.
    """
    if any(w <= 0 or h <= 0 for w, h in desktops):
        raise ValueError(f"every display needs a positive size, got {list(desktops)}")
    left = 0
    for i, (w, _) in enumerate(desktops):
        if point[0] < left + w:
            return i
        left += w
    return max(0, len(desktops) - 1)


def window_display() -> int:
    """The index of the display the window's centre is on (:func:`display_at`); 0 when SDL cannot say (a headless
    driver, no window yet, one display). Needs ``pygame.init()``."""
    try:
        if pygame.display.get_driver() in HEADLESS_DRIVERS or pygame.display.get_num_displays() < 2:
            return 0
        surface = pygame.display.get_surface()
        if surface is None:
            return 0
        x, y = pygame.display.get_window_position()
        w, h = surface.get_size()
        return display_at((x + w // 2, y + h // 2), pygame.display.get_desktop_sizes())
    except (pygame.error, ValueError):
        return 0


def desktop_size(display: int = 0) -> tuple[int, int] | None:
    """The size in pixels of the desktop of ``display`` (SDL's index; the window opens on the first), or ``None``
    when there is no real display (:data:`HEADLESS_DRIVERS`), no such display, or SDL does not know its size.
    Needs ``pygame.init()``."""
    try:
        if pygame.display.get_driver() in HEADLESS_DRIVERS:
            return None
        sizes = pygame.display.get_desktop_sizes()
    except pygame.error:
        return None
    if not 0 <= display < len(sizes) or sizes[display][0] <= 0 or sizes[display][1] <= 0:
        return None
    return int(sizes[display][0]), int(sizes[display][1])


def opening_size(remembered: tuple[int, int] | None) -> tuple[int, int]:
    """The windowed size the App opens at: ``remembered`` (the settings' ``window_size``) or
    :data:`gameplay.ui.widgets.projector.DEFAULT_WINDOW`, fitted to the desktop (:func:`desktop_size`,
    :func:`gameplay.ui.widgets.projector.window_size_for`)."""
    return projector.window_size_for(desktop_size(), remembered)


def fullscreen_mode() -> pygame.Surface:
    """Make the window fullscreen on the display it is on (:func:`window_display`): the size of that display's
    desktop, its top-left corner on the display's (SDL centres a window of the display's size on it). Returns the
    window's new surface.

    SDL's fullscreen asks the window manager to place the window; with none (a bare X server, a kiosk), the
    window stayed where the windowed one was (a 1920x1080 window at +320+140 on a 1920x1080 screen, its side
    panel cut off), so it is placed here. On a headless driver: SDL's own fullscreen size. Needs a window.
    """
    display = window_display()
    size = desktop_size(display) or (0, 0)
    before = os.environ.get("SDL_VIDEO_CENTERED")
    os.environ["SDL_VIDEO_CENTERED"] = "1"  # pygame-ce reads it when it makes the window: centred on `display`
    try:
        return pygame.display.set_mode(size, pygame.FULLSCREEN, display=display)
    finally:
        if before is None:
            del os.environ["SDL_VIDEO_CENTERED"]
        else:
            os.environ["SDL_VIDEO_CENTERED"] = before
