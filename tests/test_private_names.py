"""One owner for each piece of state (issue 46): no module reads or writes another object's private names.

The rule, read from the syntax tree: an attribute ``x._name`` (one leading underscore; dunders are public) where
``x`` is neither ``self`` nor ``cls`` is a reach into another object's private state, and so is an import of a
private name, ``from x import _name``, or of a private module, ``import a._b`` / ``from a._b import c`` (the same
reach written at the top of the file; ``import x`` then ``x._name`` is an attribute and counted as above). A
relative import from the module's own package (``from . import _part``) is a package's own business and allowed.
Program code (``gameplay``, ``ai``, ``main.py``) has none but the standard library's documented ``os._exit``
(:data:`STANDARD_LIBRARY`); the tests have at most :data:`MAX_IN_TESTS`, each listed in :data:`TEST_REACHES` with
its reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = ("gameplay", "ai", "main.py")
MAX_IN_TESTS = 10
TEST_REACHES: dict[tuple[str, str], str] = {
    ("tests/test_determinism.py", "_hypothesis_internal_use_settings"):
        "a property test's own @settings: hypothesis has no public reader, and derandomize must be checked",
    ("tests/test_determinism.py", "_hypothesis_internal_use_seed"):
        "what @seed set: hypothesis has no public reader, and no test may pin its own seed",
}
"""(file, private name) -> why the test reads it."""
STANDARD_LIBRARY: dict[tuple[str, str], str] = {
    ("ai/agents/agent_watch.py", "_exit"):
        "os._exit, documented public API despite its underscore (the exit without cleanup handlers); the one place",
}
"""(file, private name) -> why program code may name it: a standard-library name its documentation makes public."""


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def reaches(source: str) -> list[tuple[int, str]]:
    """``[(line, name)]`` of every ``x._name`` in ``source`` where ``x`` is neither ``self`` nor ``cls``, and of every
    private name or private module part an ``import``/``from ... import`` names (relative ``from . import`` aside)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, part) for alias in node.names for part in alias.name.split(".") if _private(part)]
        elif isinstance(node, ast.ImportFrom) and not (node.level and not node.module):
            found += [(node.lineno, part) for part in (node.module or "").split(".") if _private(part)]
            found += [(node.lineno, alias.name) for alias in node.names if _private(alias.name)]
    return sorted(found)


def reaches_in(*roots: str) -> list[tuple[str, int, str]]:
    """``[(file, line, name)]`` of every reach in the Python files under ``roots`` (paths from the checkout)."""
    out = []
    for root in roots:
        path = ROOT / root
        for f in [path] if path.is_file() else sorted(path.rglob("*.py")):
            rel = f.relative_to(ROOT).as_posix()
            out += [(rel, line, name) for line, name in reaches(f.read_text(encoding="utf-8"))]
    return out


def test_the_rule_counts_reaches_into_other_objects_only() -> None:
    source = (
        "class A:\n"
        "    def f(self, other):\n"
        "        self._mine = other._theirs\n"         # 3: one reach (other's); self's own is fine
        "        return cls._kind, other.__dict__\n"   # 4: a class's own, a dunder: none
        "os._exit(0)\n"                                # 5: a module's private name is a reach too
        "make()._cache.clear()\n"                      # 6: a call's result's as well
    )
    assert reaches(source) == [(3, "_theirs"), (5, "_exit"), (6, "_cache")]


def test_the_rule_counts_imports_of_private_names() -> None:
    source = (
        "from ai.agents.agent_file import _bound_names, parse_python_file\n"  # 1: the private one only
        "from os import _exit as leave\n"                                    # 2: renamed, still a reach
        "import pkg._private.mod\n"                                         # 3: a private module
        "from pkg._impl import helper\n"                                    # 4: from a private module
        "from . import _sibling\n"                                          # 5: the package's own part: fine
        "from __future__ import annotations\n"                              # 6: dunders are public
        "import mod\n"
        "mod._helper()\n"                                                   # 8: import, then an attribute
    )
    assert reaches(source) == [(1, "_bound_names"), (2, "_exit"), (3, "_private"), (4, "_impl"), (8, "_helper")]


def test_program_code_reaches_into_no_other_objects_private_names() -> None:
    found = [(f, line, name) for f, line, name in reaches_in(*PROGRAM) if (f, name) not in STANDARD_LIBRARY]
    assert not found, "\n".join(f"{f}:{line}: .{name}" for f, line, name in found)


def test_the_tests_reach_into_few_private_names_each_with_its_reason() -> None:
    found = reaches_in("tests")
    unexplained = [f"{f}:{line}: .{name}" for f, line, name in found if (f, name) not in TEST_REACHES]
    assert not unexplained, "a test reaches into a private name; use a public interface, or list it with its " \
                            "reason in TEST_REACHES:\n" + "\n".join(unexplained)
    assert len(found) <= MAX_IN_TESTS, found
