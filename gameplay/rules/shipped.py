"""Where the files the program ships with are found: the checkout's folders, or the installed package's copy.

In a checkout (``python main.py``, the editable install of ``requirements.txt``) and in the one-folder app
(``packaging/arcade.spec`` bundles them the same way) the data sits where the repository keeps it, at the project's
root: ``assets/`` (ballots, opening book, endgame tables, icon), ``examples/agents/`` (the agent-file templates),
``examples/exercises/`` and ``examples/games/`` (the exercise templates, the game-file examples) and
``docs/figures/ladder.csv`` (the data of ``plot ladder``). ``pip install .`` has no project root to put them in, so
``setup.py`` copies :data:`SHIPPED` into the package as ``gameplay/shipped/`` (same layout below it), and
:func:`shipped_path` reads them there. The window's theme (``gameplay/ui/theme.json``) is ordinary package data.

Standard library only (``gameplay.rules`` and ``ai`` both read shipped files).
"""

from __future__ import annotations

from pathlib import Path

SHIPPED: tuple[str, ...] = ("assets", "examples/agents", "examples/exercises", "examples/games",
                             "docs/figures/ladder.csv")
"""The files and folders the program reads beside its code, relative to the project's root (folders whole)."""
PACKAGE_COPY = Path(__file__).resolve().parents[1] / "shipped"
"""Where an installed package keeps its copy of :data:`SHIPPED` (``setup.py`` writes it; a checkout has none)."""
PROJECT_ROOT = Path(__file__).resolve().parents[2]
"""The checkout's (or the one-folder app's) root folder."""


def shipped_path(*parts: str) -> Path:
    """The path of a shipped file or folder, ``parts`` relative to the project's root (e.g. ``"assets", "icon.png"``).

    The installed package's copy when there is one, else the checkout's; the path is returned whether or not the
    file exists (callers report a missing file in their own words).
    """
    return (PACKAGE_COPY if PACKAGE_COPY.is_dir() else PROJECT_ROOT).joinpath(*parts)


def installed_copy() -> bool:
    """True in a copy that ``pip install .`` (not ``-e``) put in site-packages: it has :data:`PACKAGE_COPY`."""
    return PACKAGE_COPY.is_dir()
