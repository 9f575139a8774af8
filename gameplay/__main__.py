"""The program's entry: ``python main.py``, the installed ``arcade`` command (``pyproject.toml``'s
``[project.scripts]``) and ``python -m gameplay`` all call :func:`main`.

``main.py`` is the checkout's (and the one-folder app's) script around it; an installed copy has no ``main.py``
(a top-level module of that name in site-packages would clash with any other), so the function lives here.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, then run the window or a headless subcommand; returns the process exit code (2 for bad
    input). ``argv`` defaults to ``sys.argv[1:]``."""
    from gameplay.cli import run
    return run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
