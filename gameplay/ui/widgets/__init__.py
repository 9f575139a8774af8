"""What every part of the window builds on: the Scene base class and its named widgets, and the Window protocol scenes
see the App through (scene), what the App's own parts see of it (window_controls), the interface's scale, theme and
palette (projector), the window's custom events, its sound board, and pygame_gui's stock dialogs at the interface's
scale.

May import ``gameplay.rules``, ``ai``, ``gameplay.files``, ``gameplay.pictures`` and ``gameplay.tournament``; no other
room of the window."""
