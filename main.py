"""The arcade's composition root: parse arguments, then run the window or a headless subcommand.

``python main.py --help`` works without a display and without importing pygame. The installed ``arcade`` command
(``pip install .``) runs the same :func:`main` (``gameplay/__main__.py``).
"""

from __future__ import annotations

import sys

from gameplay.__main__ import main

__all__ = ["main"]

if __name__ == "__main__":
    import multiprocessing

    multiprocessing.freeze_support()  # lets `match --jobs` start worker processes from a PyInstaller build
    sys.exit(main())
