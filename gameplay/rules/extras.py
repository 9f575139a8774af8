"""The optional features and the packages they need: ``pyproject.toml``'s extras, and the one-line message a
feature gives when its extra is not installed.

``pip install .`` (in the project folder) brings the window, the games, the agents and every
headless subcommand but two families of features, each an extra of ``pyproject.toml``:

* ``figures``: matplotlib (``plot``, ``match --plot``, the window's Growth and Pig policy views);
* ``tournaments``: numpy (the table's Bradley-Terry ratings), networkx (Swiss pairings) and dask[distributed]
  (``--engine dask``).

The checkout's ``requirements.txt`` installs them all (and the developers' tools), so its hint is that command.
Standard library only; cheap (it looks modules up without importing them).
"""

from __future__ import annotations

import importlib.util

from gameplay.rules.shipped import installed_copy

EXTRAS: dict[str, tuple[str, ...]] = {
    "figures": ("matplotlib", "numpy"),
    "tournaments": ("numpy", "networkx", "distributed"),
}
"""Each extra's import names (``pyproject.toml``'s ``[project.optional-dependencies]`` installs them;
``tests/test_packaging.py`` checks that the two agree)."""


def install_hint(extra: str) -> str:
    """The command that installs ``extra``: ``pip install '.[EXTRA]'`` run in the project folder for an installed
    copy (the project is installed from its folder, not from an index), the README's
    ``.venv/bin/pip install -r requirements.txt`` in a checkout (which installs every extra)."""
    if extra not in EXTRAS:
        raise ValueError(f"unknown extra {extra!r}; the extras are {', '.join(EXTRAS)}")
    if installed_copy():
        return f"pip install '.[{extra}]' in the arcade's project folder"
    return ".venv/bin/pip install -r requirements.txt"


def missing(extra: str, modules: tuple[str, ...] | None = None) -> str | None:
    """The first of ``modules`` (default: all of ``extra``'s) that is not installed, or ``None``."""
    for name in modules if modules is not None else EXTRAS[extra]:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a broken parent package counts as missing
            found = False
        if not found:
            return name
    return None


def need(extra: str, what: str, modules: tuple[str, ...] | None = None) -> str | None:
    """``None`` when ``modules`` (default: all of ``extra``'s) are installed, else the one line to show, e.g.
    ``"figures need matplotlib: pip install '.[figures]' in the arcade's project folder"`` (``what`` is the plural
    subject: ``"figures"``, ``"Swiss tournaments"``)."""
    name = missing(extra, modules)
    return None if name is None else f"{what} need {name}: {install_hint(extra)}"
