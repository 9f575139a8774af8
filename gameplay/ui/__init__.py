"""The window: pygame-ce + pygame_gui (App, scenes, board views, the search overlay)."""
