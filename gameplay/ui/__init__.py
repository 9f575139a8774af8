"""The window: pygame-ce + pygame_gui (App, scenes, board views, the search overlay). May import ``gameplay.rules``,
``ai``, ``gameplay.files``, ``gameplay.pictures`` and ``gameplay.tournament``; never ``gameplay.cli`` (the command
line opens the window, not the other way round)."""
