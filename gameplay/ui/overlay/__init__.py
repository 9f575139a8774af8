"""The search-tree overlay and the Monte Carlo overlay: the model, its step-through (stepper), what it shows (budget,
view), its painter (canvas, draw, panel), its input, its quiz, and the switch between the two pictures.

May import the headless rooms, ``gameplay.ui.widgets`` and ``gameplay.ui.boards``."""
