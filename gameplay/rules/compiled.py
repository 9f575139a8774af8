"""Which hot modules run compiled (mypyc) and which run as pure Python, in one line for the window and ``bench``.

The install (``pip install -r requirements.txt``, which installs this project with ``-e .``) runs ``setup.py``,
which compiles :data:`COMPILED_MODULES` with mypyc (part of mypy) when a C compiler exists. The compiled
extension module sits beside its ``.py`` source and Python imports it first; the source is the same typed Python,
so compiled and pure runs search the same nodes (the bench signature is the same), only at different speeds.

``ARCADE_PURE=1`` in the environment makes ``main.py`` and the tests run the pure-Python source even where the
compiled modules exist (:func:`force_pure`), so both can be checked on one machine.

Standard library only (it sits with the rules so that ``gameplay`` and ``ai`` can both ask it before they import
anything compiled); cheap to import (it only inspects the modules' files).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from gameplay.rules.registry import GAMES
from gameplay.rules.shipped import installed_copy

CORE_COMPILED: tuple[str, ...] = (
    "gameplay/rules/bits.py",
    "ai/kernel/move_order.py",
    "ai/kernel/search.py",
    "ai/kernel/search_setup.py",
    "ai/kernel/search_stats.py",
    "ai/kernel/tt.py",
    "ai/kernel/mcts_tree.py",
)
"""The hot modules every game shares: the bit count of the boards (``gameplay.rules.bits``), the search, its resolved
switches, its counters, its move ordering and its table, and Monte Carlo tree search's core (each game's rules for
it are the game's own: ``GameInfo.compiled``)."""

COMPILED_MODULES: tuple[str, ...] = tuple(
    path for info in GAMES for path in info.compiled) + CORE_COMPILED
"""The source files ``setup.py`` compiles: each built-in game's own (its record's ``compiled``: checkers' board,
perft, notation, moves, evaluation and features; ...), then the search's (:data:`CORE_COMPILED`)."""

PURE_HINT = "run the README's install command on a machine with a C compiler (gcc or clang) to compile it"
"""What to do about a pure-Python install (the one-line notice ends with it)."""
FROZEN_PURE_HINT = "this app was built without them: build it after the README's install with a C compiler"
"""The same for the one-folder app (``packaging/build_app.py``), which has no install command of its own."""


def pure_hint() -> str:
    """:data:`PURE_HINT`, or :data:`FROZEN_PURE_HINT` in the one-folder app (``sys.frozen``)."""
    return FROZEN_PURE_HINT if getattr(sys, "frozen", False) else PURE_HINT


def module_names() -> tuple[str, ...]:
    """The dotted names of :data:`COMPILED_MODULES` (``ai.kernel.search`` ...)."""
    return tuple(p[:-3].replace("/", ".") for p in COMPILED_MODULES)


def is_compiled(module_name: str) -> bool:
    """True when ``module_name`` runs (or, not yet imported, would run) from an extension module (mypyc's
    build), not from its source. Never imports the module itself; a module that cannot be found is not
    compiled (its own import reports the problem where it is used)."""
    module = sys.modules.get(module_name)
    if module is not None:
        path = getattr(module, "__file__", None) or ""
    else:
        try:
            spec = importlib.util.find_spec(module_name)
        except (ImportError, ValueError):
            return False
        path = (spec.origin if spec is not None else None) or ""
    return any(path.endswith(suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def compiled_modules() -> dict[str, bool]:
    """``{dotted name: compiled?}`` for every hot module."""
    return {name: is_compiled(name) for name in module_names()}


def all_compiled() -> bool:
    """True when every hot module runs compiled."""
    return all(compiled_modules().values())


def status_line() -> str:
    """One line saying what runs: ``search: compiled with mypyc (5 modules)`` or the pure-Python notice.

    A partial build (some modules compiled, some not) names the pure ones.
    """
    status = compiled_modules()
    pure = [name for name, ok in status.items() if not ok]
    if not pure:
        return f"search: compiled with mypyc ({len(status)} modules)"
    if len(pure) == len(status):
        if pure_requested():
            return "search: pure Python (ARCADE_PURE is set; the compiled modules are not used)"
        if stale_modules():
            return ("search: pure Python (the compiled modules are older than their source; run the README's "
                    "install command again to rebuild them)")
        return f"search: pure Python (not compiled, 2-3x slower); {pure_hint()}"
    return f"search: partly compiled; pure Python for {', '.join(pure)}; {pure_hint()}"


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Finds the hot modules' ``.py`` source, ahead of the extension module beside it."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = frozenset(names)

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        for folder in path or sys.path:
            source = os.path.join(folder, fullname.rpartition(".")[2] + ".py")
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def force_pure() -> None:
    """Import the hot modules from their ``.py`` source from now on (``ARCADE_PURE=1``).

    Call it before anything imports them (``main.py`` and ``tests/conftest.py`` do, when the variable is set).

    Raises:
        RuntimeError: one of them is already imported compiled (too late to switch).
    """
    names = module_names()
    late = [n for n in names if n in sys.modules and is_compiled(n)]
    if late:
        raise RuntimeError(f"ARCADE_PURE: {', '.join(late)} already imported compiled; set it before the imports")
    if not any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirst(names))


def stale_modules() -> list[str]:
    """The hot modules whose ``.py`` source is newer than the compiled extension module beside it (edited or
    updated since the install built it): the program then runs all of them from source (``ai/__init__.py``),
    as a compiled module would hide the edit. None in a copy that ``pip install .`` put in site-packages: pip writes
    the wheel's files in its own order (a source after its compiled module), and that copy is not edited."""
    if installed_copy():
        return []
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = []
    for rel in COMPILED_MODULES:
        source = os.path.join(root, rel)
        stem = source[:-3]
        try:
            built = [os.path.getmtime(stem + suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES
                     if os.path.exists(stem + suffix)]
            if built and os.path.getmtime(source) > max(built):
                out.append(rel[:-3].replace("/", "."))
        except OSError:  # no source beside it (a frozen build): nothing to compare
            continue
    return out


def use_source_if_needed() -> None:
    """Run the hot modules from source when ``ARCADE_PURE`` asks for it or their compiled build is stale
    (the package ``__init__`` files call this before anything imports them)."""
    if pure_requested() or stale_modules():
        force_pure()


def pure_requested() -> bool:
    """True when ``ARCADE_PURE`` is set to something other than ``""`` or ``0``."""
    return os.environ.get("ARCADE_PURE", "") not in ("", "0")
