"""The pictures both the window and the files draw (tree layout and picture, exports, the MCTS picture, plots), as
data, files or (``tree_png``) pygame drawing. May import ``gameplay.rules``, ``ai`` and ``gameplay.files``, and pygame
(only ``tree_png``: the command line's PNG export draws the same picture as the window without the window); never
``gameplay.cli``, ``gameplay.tournament``, ``gameplay.ui`` or pygame_gui."""
