"""Imports point one way (ARCHITECTURE.md): rules <- ai <- cli/ui <- main. Checked by walking the ``ast``."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__" and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                names.add(arg.value)
    return names


def _bad(names: set[str], forbidden: tuple[str, ...]) -> list[str]:
    return sorted(n for n in names if any(n == f or n.startswith(f + ".") for f in forbidden))


def test_rules_and_ai_never_import_pygame_or_ui() -> None:
    problems = []
    for pkg, forbidden in (("gameplay/rules", ("pygame", "pygame_gui", "gameplay.ui", "ai", "gameplay.cli",
                                               "matplotlib")),
                           ("ai", ("pygame", "pygame_gui", "gameplay.ui", "gameplay.cli", "matplotlib"))):
        files = sorted((ROOT / pkg).rglob("*.py"))
        assert files, pkg
        for f in files:
            bad = _bad(_imports(f), forbidden)
            if bad:
                problems.append(f"{f.relative_to(ROOT)} imports {', '.join(bad)}")
    assert not problems, "\n".join(problems)


def test_cli_module_never_imports_pygame_at_top_level() -> None:
    tree = ast.parse((ROOT / "gameplay/cli/main.py").read_text(encoding="utf-8"))
    top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    names = {a.name for n in top if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module for n in top if isinstance(n, ast.ImportFrom) and n.module}
    assert not _bad(names, ("pygame", "pygame_gui", "gameplay.ui"))


def test_the_checker_finds_a_wrong_way_import(tmp_path: Path) -> None:
    f = tmp_path / "x.py"
    f.write_text("import os\nfrom pygame import Rect\n__import__('gameplay.ui.app')\n")
    assert _bad(_imports(f), ("pygame", "gameplay.ui")) == ["gameplay.ui.app", "pygame"]


def test_help_needs_no_display_and_no_pygame() -> None:
    code = ("import sys, runpy; sys.argv=['main.py','--help']\n"
            "try:\n    runpy.run_path('main.py', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "assert 'pygame' not in sys.modules, 'pygame was imported'\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       env={"PATH": "/usr/bin:/bin"}, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "usage: main.py" in r.stdout


def test_headless_subcommands_do_not_import_pygame() -> None:
    code = ("import sys; sys.path.insert(0, '.')\nfrom gameplay.cli import run\n"
            "assert run(['perft','tictactoe','--depth','3']) == 0\n"
            "assert run(['analyze','tictactoe','--agent','expert','--json']) == 0\n"
            "assert 'pygame' not in sys.modules\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
