"""The arcade's composition root: parse arguments, then run the window or a headless subcommand.

``python main.py --help`` works without a display and without importing pygame.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code (2 for bad input)."""
    from gameplay.cli import run
    return run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    import multiprocessing

    multiprocessing.freeze_support()  # lets `match --jobs` start worker processes from a PyInstaller build
    sys.exit(main())
