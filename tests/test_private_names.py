"""One owner for each piece of state (issue 46): no module reads or writes another object's private names.

The rule, read from the syntax tree: an attribute ``x._name`` (one leading underscore; dunders are public) where
``x`` is neither ``self`` nor ``cls`` is a reach into another object's private state. Program code (``gameplay``,
``ai``, ``main.py``) has none; the tests have at most :data:`MAX_IN_TESTS`, each listed in :data:`TEST_REACHES`
with its reason.
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


def reaches(source: str) -> list[tuple[int, str]]:
    """``[(line, name)]`` of every ``x._name`` in ``source`` where ``x`` is neither ``self`` nor ``cls``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            found.append((node.lineno, node.attr))
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


def test_program_code_reaches_into_no_other_objects_private_names() -> None:
    found = reaches_in(*PROGRAM)
    assert not found, "\n".join(f"{f}:{line}: .{name}" for f, line, name in found)


def test_the_tests_reach_into_few_private_names_each_with_its_reason() -> None:
    found = reaches_in("tests")
    unexplained = [f"{f}:{line}: .{name}" for f, line, name in found if (f, name) not in TEST_REACHES]
    assert not unexplained, "a test reaches into a private name; use a public interface, or list it with its " \
                            "reason in TEST_REACHES:\n" + "\n".join(unexplained)
    assert len(found) <= MAX_IN_TESTS, found
