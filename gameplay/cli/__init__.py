"""The command line (``python main.py COMMAND``): the parser and ``run`` (:mod:`gameplay.cli.main`), one module per
subcommand, what they share (:mod:`gameplay.cli.common`) and the benches. May import ``gameplay.rules``, ``ai``,
``gameplay.pictures``, ``gameplay.files`` and ``gameplay.tournament``; never pygame_gui, and ``gameplay.ui`` only
inside the functions that open the window (``play``/``demo``, ``shot``, ``bench ui``, ``tree`` drawing an MCTS
tree to a PNG; see tests/test_imports.py).
"""

from gameplay.cli.main import COMMAND_MODULES, build_parser, program_name, run

__all__ = ["COMMAND_MODULES", "build_parser", "program_name", "run"]
