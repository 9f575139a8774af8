"""The size the window opens at: the desktop's size (none on a headless driver) and the remembered size fitted to it."""

from __future__ import annotations

import pygame

from gameplay.ui.widgets import projector

HEADLESS_DRIVERS = ("dummy", "offscreen")
"""SDL video drivers without a real display: their desktop size is a placeholder, so nothing is fitted to it."""


def desktop_size() -> tuple[int, int] | None:
    """The size in pixels of the desktop the window opens on (SDL's first display), or ``None`` when there is no
    real display (:data:`HEADLESS_DRIVERS`) or SDL does not know it. Needs ``pygame.init()``."""
    try:
        if pygame.display.get_driver() in HEADLESS_DRIVERS:
            return None
        sizes = pygame.display.get_desktop_sizes()
    except pygame.error:
        return None
    if not sizes or sizes[0][0] <= 0 or sizes[0][1] <= 0:
        return None
    return int(sizes[0][0]), int(sizes[0][1])


def opening_size(remembered: tuple[int, int] | None) -> tuple[int, int]:
    """The windowed size the App opens at: ``remembered`` (the settings' ``window_size``) or
    :data:`gameplay.ui.widgets.projector.DEFAULT_WINDOW`, fitted to the desktop (:func:`desktop_size`,
    :func:`gameplay.ui.widgets.projector.window_size_for`)."""
    return projector.window_size_for(desktop_size(), remembered)
