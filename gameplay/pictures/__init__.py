"""The pictures both the window and the files draw (tree layout and picture, exports, the MCTS picture, plots), as
data or files. May import ``gameplay.rules``, ``ai`` and ``gameplay.files``; never ``gameplay.cli``,
``gameplay.tournament``, ``gameplay.ui``, pygame or pygame_gui (the pygame painters live in ``gameplay.ui``)."""
