"""The window's custom pygame event types, all in one place.

The types are fixed numbers counted down from the top of pygame's user-event range (``pygame.NUMEVENTS - 1``),
not :func:`pygame.event.custom_type` numbers: ``pygame.quit()`` resets pygame's custom-type counter, after which
``custom_type()`` hands out the numbers pygame_gui took for its own events at import. Importing this module does
no pygame work. Scenes talk to the :class:`~gameplay.ui.shell.app.App` (and tests observe the
match) through these events:

* ``START_MATCH`` (``game``: str, ``p1``: str, ``p2``: str agent specs): the menu asks for a match.
* ``OPEN_MENU``: go back to the start menu (the match scene's Menu button).
* ``QUIT_APP``: close the window (the menu's Quit button).
* ``MOVE_PLAYED`` (``game``, ``ply``: int, ``move``: str in the game's notation, ``by``: ``"human"``, ``"ai"``
  or ``"chance"``): a move was added to the record.
* ``AI_ERROR`` (``message``: str): the worker thread raised; the match goes on.
"""

from __future__ import annotations

from typing import Any

import pygame

NAMES: tuple[str, ...] = ("START_MATCH", "OPEN_MENU", "QUIT_APP", "MOVE_PLAYED", "AI_ERROR")
"""Every custom event name the window uses."""



def event_type(name: str) -> int:
    """The pygame event type number of a custom event .

    Args:
        name: one of :data:`NAMES`.

    Returns:
        The event type (an int between ``pygame.USEREVENT`` and ``pygame.NUMEVENTS``), fixed per name.

    Raises:
        KeyError: ``name`` is not one of :data:`NAMES`.
    """
    if name not in NAMES:
        raise KeyError(f"unknown window event {name!r}; expected one of {', '.join(NAMES)}")
    return int(pygame.NUMEVENTS) - 1 - NAMES.index(name)


def post(name: str, **attrs: Any) -> None:
    """Post a custom event with the given attributes on pygame's event queue.

    Args:
        name: one of :data:`NAMES`.
        **attrs: the event's attributes (see the module docstring).
    """
    pygame.event.post(pygame.event.Event(event_type(name), attrs))


def is_event(event: pygame.event.Event, name: str) -> bool:
    """True when ``event`` is the custom event ``name``."""
    return event.type == event_type(name)
