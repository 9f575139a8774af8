"""A game being played and what it opens: the match scene (match, its keys, panel, question before a game is thrown away
and play aids), the match opened from the game browser, the help window, the saved and autosaved games resumed (and
the last AI decision's tree they keep: decision_store), the race
from its position, the growth figure and the scene of a game's help figure (described by its window parts).

May import the headless rooms, ``gameplay.ui.widgets``, ``gameplay.ui.boards`` and ``gameplay.ui.overlay``."""
