"""Fonts made once and shared: :class:`FontCache`, and :func:`release_fonts` before ``pygame.quit()``.

pygame-ce frees a ``pygame.font.Font``'s FreeType face only while its font module is running: a font still referenced
when ``pygame.quit()`` runs is never freed. A window that kept its fonts to the end left 9.3 MB of live memory behind
each time it closed (the start menu at 1280x800, ``mallinfo2``, 2026-12-07). So every cache of fonts in the program is
a :class:`FontCache`, and the window (``gameplay.ui.shell.app.App.close``) calls :func:`release_fonts` and drops its
widget manager before it shuts pygame down.

This module is one of the two outside the window that use pygame (``tests/test_imports.py``): the command line's PNG
export (``gameplay.pictures.tree_png``) draws text with the same fonts as the window.

The tree pictures' typeface is DejaVu Sans (:func:`font_file`), bundled in ``assets/fonts`` with its licence: it has
every sign the pictures write (``α β ≤ ≥ ∞ Σ ·``), which pygame's own font lacks in part, and no dependency ships it
(pygame_gui's Noto Sans has no ``≤ ≥ ∞``; matplotlib's copy is an optional extra's).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import TYPE_CHECKING

from gameplay.rules.shipped import shipped_path

if TYPE_CHECKING:  # pygame is imported when the first font is made: importing a cache needs no pygame
    import pygame

PICTURE_FONTS = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
"""The tree pictures' font files in ``assets/fonts`` (regular, bold), with ``LICENSE-DejaVu.txt`` beside them."""


def font_file(bold: bool = False) -> Path | None:
    """The bundled font file of the tree pictures (:data:`PICTURE_FONTS`; ``bold``: the bold face), or ``None`` when
    this copy has none (pygame's default font is drawn then)."""
    path = shipped_path("assets", "fonts", PICTURE_FONTS[bold])
    return path if path.is_file() else None


_CACHES: weakref.WeakSet[FontCache] = weakref.WeakSet()
"""Every live :class:`FontCache` (weakly: a cache dropped with its owner is forgotten)."""


class FontCache:
    """Fonts by key (``(size_px, bold)`` for instance), each made once by the ``make`` a caller gives.

    A font made before a ``pygame.quit()`` cannot be used after it (pygame raises "font module quit since font
    created"): :meth:`get` notices and makes the cache's fonts again. :func:`release_fonts` empties every cache.
    """

    def __init__(self) -> None:
        self._fonts: dict[Hashable, pygame.font.Font] = {}
        _CACHES.add(self)

    def get(self, key: Hashable, make: Callable[[], pygame.font.Font]) -> pygame.font.Font:
        """The font stored under ``key``, made with ``make()`` (after starting ``pygame.font`` if needed) the first
        time it is asked for, and again when the stored one dates from before a ``pygame.quit()``."""
        import pygame
        f = self._fonts.get(key)
        if f is not None:
            try:
                f.get_height()
            except pygame.error:  # made before a pygame.quit(): every font here is as old
                self._fonts.clear()
                f = None
        if f is None:
            if not pygame.font.get_init():
                pygame.font.init()
            f = self._fonts[key] = make()
        return f

    def clear(self) -> None:
        """Forget every font of this cache (each is freed when nothing else holds it)."""
        self._fonts.clear()

    def fonts(self) -> list[pygame.font.Font]:
        """The fonts made so far (a test checks their sizes)."""
        return list(self._fonts.values())

    def __len__(self) -> int:
        return len(self._fonts)


def release_fonts() -> int:
    """Empty every :class:`FontCache`; returns how many fonts were let go. Call it before ``pygame.quit()``, with
    the widgets that hold fonts of their own dropped, so that each font's memory is freed."""
    released = 0
    for cache in list(_CACHES):
        released += len(cache)
        cache.clear()
    return released
