"""The tournament (``main.py tournament``): its model, the run and its engines, the journal, faults, Swiss pairings and
the report. May import ``gameplay.rules``, ``ai`` and ``gameplay.files``; never ``gameplay.cli``, ``gameplay.ui``,
pygame or pygame_gui."""
