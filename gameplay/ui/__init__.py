"""The window: pygame-ce + pygame_gui (App, scenes, board views, the search overlay). May import ``gameplay.rules``,
``ai``, ``gameplay.files``, ``gameplay.pictures`` and ``gameplay.tournament``; never ``gameplay.cli`` (the command
line opens the window, not the other way round).

In rooms, lowest first (each one's ``__init__`` says what it may import; docs/architecture.md draws them):
``widgets`` (what every screen builds on), ``boards`` (board views), ``overlay`` (the search-tree overlays),
``play`` (the match and what it opens), ``scenes`` (the other screens) and ``shell`` (the App itself). The theme
(``theme.json``) stays here, beside them.
"""
