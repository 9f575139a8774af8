"""Imports point one way, with no cycle at any depth (ARCHITECTURE.md, extended to the rooms of ``gameplay/``).

The checker reads every module of ``gameplay``, ``ai`` and ``main.py`` with :mod:`ast` (nothing is imported) and
builds the module graph from every import it finds, wherever it is written:

* ``import x`` and ``from x import y`` at the top of a module *and inside functions* (lazy imports count: they
  close cycles that module-level imports hide); ``from x import y`` where ``x.y`` is a module is an edge to
  ``x.y``; relative imports are resolved;
* ``importlib.import_module("x")`` and ``__import__("x")`` with a constant string;
* a whole string constant that is a dotted module path of the project (``"gameplay.ui.boards.pig_view:PigView"``, the
  registry's ``"ai.checkers.checkers_eval:make_profile"``, ``COMMAND_MODULES``): names looked up at run time are imports
  too. A game record's field (``GameInfo(view="gameplay.ui.boards.pig_view:PigView")``) is data in the rules room: it is
  imported by the module that resolves that field (:data:`RECORD_RESOLVERS`), so the edge is that module's.

Imports under ``if TYPE_CHECKING:`` never run, but they count like any other, in the cycle check and for the
direction: a module that names another's class for a type depends on it as much as one that calls it (a scene
types its window with the :class:`gameplay.ui.widgets.scene.Window` protocol the App satisfies, never with the App).
:data:`CYCLES_BEING_UNDONE` names the cycles still being taken apart; a cycle outside them fails, and so does an
entry with no cycle left in it.

The rooms, lowest first (a module may import its own room and the rooms listed for it, nothing above)::

    rules       gameplay.rules (and the ``gameplay`` package itself): standard library only
    ai          ai: rules
    files       gameplay.files (settings, saved games): rules, ai
    pictures    gameplay.pictures (layout, pictures, exports, plots): rules, ai, files
    tournament  gameplay.tournament: rules, ai, files
    cli         gameplay.cli (the command line): rules, ai, files, pictures, tournament; gameplay.ui only
                through the DOORS below, inside a function
    ui          gameplay.ui (the window): rules, ai, files, pictures, tournament
    main        main.py: everything

Third-party: pygame_gui only in ui (and the cli's doors, inside a function, to say it is missing); pygame only in
ui, in ``gameplay.pictures.tree_png`` and ``gameplay.pictures.fonts`` (the tree's PNG painter and its fonts, shared
by the window and the command line's export) and inside the cli's doors; matplotlib never in rules or ai.

A module is as long as its responsibility: no line count is enforced (a long module says at its top why it stays
whole). A package folder holds at most :data:`MAX_MODULES` modules, so that its name says what they are for.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("gameplay", "ai")
MAX_MODULES = 25
"""The most modules (``.py`` files beside a package's ``__init__.py``) one package folder may hold."""
ROOMS_ALLOWED: dict[str, frozenset[str]] = {
    "rules": frozenset({"rules"}),
    "ai": frozenset({"rules", "ai"}),
    "files": frozenset({"rules", "ai", "files"}),
    "pictures": frozenset({"rules", "ai", "files", "pictures"}),
    "tournament": frozenset({"rules", "ai", "files", "tournament"}),
    "cli": frozenset({"rules", "ai", "files", "pictures", "tournament", "cli"}),
    "ui": frozenset({"rules", "ai", "files", "pictures", "tournament", "ui"}),
    "main": frozenset({"rules", "ai", "files", "pictures", "tournament", "cli", "ui", "main"}),
}
"""Room -> the rooms its modules may import (see the module's docstring)."""
DOORS: frozenset[tuple[str, str]] = frozenset({
    ("gameplay.cli.main", "gameplay.ui.shell.app"),              # play, demo and no command: the window itself
    ("gameplay.cli.shot", "gameplay.ui.shell.shot"),             # shot: one view of the window drawn to a PNG
    ("gameplay.cli.bench", "gameplay.ui.shell.bench_ui"),        # bench ui: the window's frame rate
    # tree --agent mcts --out FILE.png: the overlay's picture
    ("gameplay.cli.tree", "gameplay.ui.overlay.mcts_overlay"),
})
"""The command line's only ways into the window: (cli module, ui module), imported inside a function."""
THIRD_PARTY: dict[str, frozenset[str]] = {
    "pygame_gui": frozenset({"ui", "main"}),
    "pygame": frozenset({"ui", "main"}),
    "matplotlib": frozenset({"files", "pictures", "tournament", "cli", "ui", "main"}),
}
"""Third-party package -> the rooms that may import it anywhere (plus :data:`PYGAME_MODULES` and the doors)."""
PYGAME_MODULES = frozenset({"gameplay.pictures.tree_png", "gameplay.pictures.fonts"})
"""Modules outside the window that draw with pygame (never pygame_gui): the tree's PNG painter and the fonts it
shares with the window."""
CYCLES_BEING_UNDONE: dict[frozenset[str], str] = {}
"""Import cycles (counting type-checking imports) still being taken apart, each as the modules it may run through ->
what undoes it. A cycle must lie inside one entry; an entry with no cycle left in it must go (this set only
shrinks)."""
RECORD_RESOLVERS: dict[str, str] = {
    "view": "gameplay.ui.boards.views",             # view_for
    "card_picture": "gameplay.ui.scenes.menu",      # the menu card's picture
    "help_figure": "gameplay.ui.play.play_aids",  # the help window's figure button
}
"""A ``GameInfo`` field holding a ``"module:attribute"`` -> the module that resolves it (``registry.resolve``)."""
REGISTRY = "gameplay.rules.registry"
DOTTED = re.compile(r"^(?:gameplay|ai)(?:\.[A-Za-z_]\w*)+(?::[A-Za-z_]\w*)?$")


@dataclass(frozen=True)
class Edge:
    """One import found in a module."""

    source: str
    """The importing module (dotted)."""
    target: str
    """The imported name as written, resolved to the longest module prefix that exists for the project's own."""
    line: int
    lazy: bool
    """Inside a function (it runs when the function is called)."""
    type_only: bool
    """Under ``if TYPE_CHECKING:`` (never runs)."""


@dataclass
class Graph:
    """The project's import graph: its modules (dotted name -> path) and every import found."""

    root: Path
    modules: dict[str, Path] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)

    def resolve(self, name: str) -> str | None:
        """The longest prefix of ``name`` that is one of the project's modules (``None``: not the project's)."""
        while name:
            if name in self.modules:
                return name
            name = name.rpartition(".")[0]
        return None


def module_name(root: Path, path: Path) -> str:
    """``gameplay/cli/main.py`` -> ``gameplay.cli.main``; a package's ``__init__.py`` is the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    ids: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for sub in node.body:
                ids.update(id(n) for n in ast.walk(sub))
    return ids


def _lazy_nodes(tree: ast.Module) -> set[int]:
    ids: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            ids.update(id(n) for n in ast.walk(node))
    return ids


def imports_of(source: str, module: str, is_package: bool) -> list[tuple[str, int, bool, bool]]:
    """Every name ``source`` imports: ``(dotted name, line, lazy, type_only)``, as the module docstring says."""
    tree = ast.parse(source)
    typed, lazy = _type_checking_nodes(tree), _lazy_nodes(tree)
    out: list[tuple[str, int, bool, bool]] = []

    def add(name: str, node: ast.AST) -> None:
        out.append((name, getattr(node, "lineno", 0), id(node) in lazy, id(node) in typed))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                add(a.name, node)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[:len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            add(mod, node)
            for a in node.names:
                add(f"{mod}.{a.name}", node)
        elif isinstance(node, ast.Call) and node.args:
            fn = node.func
            called = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else ""
            arg = node.args[0]
            if called in ("import_module", "__import__") and isinstance(arg, ast.Constant) \
                    and isinstance(arg.value, str):
                add(arg.value, node)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and DOTTED.match(node.value):
            add(node.value.partition(":")[0], node)
    return out


def record_fields(source: str) -> dict[tuple[str, int], str]:
    """``(module named, line) -> field`` for every ``"module:attribute"`` keyword of a ``GameInfo(...)`` call."""
    out: dict[tuple[str, int], str] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "GameInfo":
            for kw in node.keywords:
                v = kw.value
                if kw.arg and isinstance(v, ast.Constant) and isinstance(v.value, str) and DOTTED.match(v.value):
                    out[(v.value.partition(":")[0], v.lineno)] = kw.arg
    return out


def build_graph(root: Path, extra: tuple[str, ...] = ("main.py",)) -> Graph:
    """The import graph of the checkout at ``root`` (its ``gameplay`` and ``ai`` packages and ``extra`` files)."""
    g = Graph(root)
    files = [f for pkg in PACKAGES if (root / pkg).is_dir() for f in sorted((root / pkg).rglob("*.py"))]
    files += [root / e for e in extra if (root / e).is_file()]
    for f in files:
        g.modules[module_name(root, f)] = f
    for name, f in g.modules.items():
        text = f.read_text(encoding="utf-8")
        fields = record_fields(text) if name == REGISTRY else {}
        for target, line, lazy, typed in imports_of(text, name, f.name == "__init__.py"):
            field_name = fields.get((target, line))
            if field_name in RECORD_RESOLVERS:  # a record's field: the resolver's import, lazy (on first use)
                g.edges.append(Edge(RECORD_RESOLVERS[field_name], g.resolve(target) or target, line, True, typed))
                continue
            resolved = g.resolve(target) if target.split(".")[0] in PACKAGES else None
            if resolved is None:
                top = target.split(".")[0]
                if top and top not in PACKAGES:
                    g.edges.append(Edge(name, target, line, lazy, typed))
            elif resolved != name:
                g.edges.append(Edge(name, resolved, line, lazy, typed))
    return g


def cycles(g: Graph) -> list[list[str]]:
    """One cycle (as a closed path of modules) per strongly connected component that has one, every import counted
    (``TYPE_CHECKING`` ones included)."""
    adj = _adjacency(g)
    return [_a_cycle(adj, set(comp)) for comp in tangles(g)]


def tangles(g: Graph) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan): each module of one reaches every other
    through imports (every import counted, ``TYPE_CHECKING`` ones included)."""
    adj = _adjacency(g)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[frozenset[str]] = []

    def strong(v: str) -> None:  # iterative enough for this graph's depth
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(adj[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(frozenset(comp))

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 10_000))
    try:
        for v in sorted(adj):
            if v not in index:
                strong(v)
    finally:
        sys.setrecursionlimit(old)
    return found


def _adjacency(g: Graph) -> dict[str, set[str]]:
    adj: dict[str, set[str]] = {m: set() for m in g.modules}
    for e in g.edges:
        if e.target in adj:
            adj[e.source].add(e.target)
    return adj


def _a_cycle(adj: dict[str, set[str]], comp: set[str]) -> list[str]:
    start = min(comp)
    prev: dict[str, str] = {}
    todo = [start]
    while todo:  # breadth first from start, back to start
        v = todo.pop(0)
        for w in sorted(adj[v] & comp):
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(prev[path[-1]])
                return [start, *reversed(path[:-1]), start] if len(path) > 1 else [start, v, start]
            if w not in prev:
                prev[w] = v
                todo.append(w)
    return sorted(comp)


def room_of(module: str) -> str:
    """The room of a project module (module docstring); ``main`` for main.py."""
    parts = module.split(".")
    if module == "gameplay.__main__":
        return "main"  # the composition root of ``arcade`` and ``python -m gameplay`` (main.py imports it)
    if parts[0] == "ai":
        return "ai"
    if parts[0] == "gameplay":
        if len(parts) == 1:
            return "rules"  # the package itself: it only asks gameplay.rules.compiled
        return parts[1] if parts[1] in ROOMS_ALLOWED else "unknown"
    return "main"


def wrong_way(g: Graph) -> list[str]:
    """Every import that breaks the one-way rule (module docstring), as ``file:line: a imports b (why)``."""
    problems = []
    for e in g.edges:
        src_room = room_of(e.source)
        where = f"{g.modules[e.source].relative_to(g.root)}:{e.line}: {e.source} imports {e.target}"
        if e.target in g.modules:
            to_room = room_of(e.target)
            if src_room == "unknown" or to_room == "unknown":
                problems.append(f"{where} (a module outside the rooms: put it in one)")
            elif to_room not in ROOMS_ALLOWED[src_room]:
                if (e.source, e.target) in DOORS and e.lazy:
                    continue
                problems.append(f"{where} ({src_room} may not import {to_room})")
            continue
        top = e.target.split(".")[0]
        rooms = THIRD_PARTY.get(top)
        if rooms is None or src_room in rooms:
            continue
        if top == "pygame" and e.source in PYGAME_MODULES:
            continue
        if top in ("pygame", "pygame_gui") and e.lazy and any(src == e.source for src, _ in DOORS):
            continue
        problems.append(f"{where} ({src_room} may not import {top})")
    return sorted(set(problems))


def crowded_folders(root: Path) -> list[str]:
    """Package folders of :data:`PACKAGES` holding more than :data:`MAX_MODULES` modules (``__init__.py`` not
    counted), as ``folder: N modules``."""
    out = []
    for pkg in PACKAGES:
        for init in sorted((root / pkg).rglob("__init__.py")):
            n = sum(1 for f in init.parent.glob("*.py") if f.name != "__init__.py")
            if n > MAX_MODULES:
                out.append(f"{init.parent.relative_to(root).as_posix()}: {n} modules")
    return out


# ----- the checks ------------------------------------------------------------------------------------------------
GRAPH = build_graph(ROOT)


def test_the_graph_sees_every_module_and_lazy_imports() -> None:
    assert {"gameplay.cli", "gameplay.cli.main", "gameplay.ui.shell.app", "ai.kernel.search",
            "gameplay.rules.checkers.checkers",
            "main"} <= set(GRAPH.modules)
    lazy = {(e.source, e.target) for e in GRAPH.edges if e.lazy}
    assert ("gameplay.cli.main", "gameplay.ui.shell.app") in lazy  # the window door, inside _window
    strings = {(e.source, e.target) for e in GRAPH.edges}
    assert ("gameplay.rules.registry", "gameplay.rules.checkers.checkers") in strings  # the registry's dotted names
    assert ("gameplay.ui.boards.views", "gameplay.ui.boards.checkers_view") in strings


def test_no_import_cycle_at_any_depth() -> None:
    found = tangles(GRAPH)
    adj = _adjacency(GRAPH)
    new = [c for c in found if not any(c <= allowed for allowed in CYCLES_BEING_UNDONE)]
    assert not new, "import cycles (type-checking imports count), one path through each tangle of modules:\n" \
        + "\n".join(f"{' -> '.join(_a_cycle(adj, set(c)))} ({len(c)} modules: {', '.join(sorted(c))})"
                    for c in new)
    undone = [sorted(allowed) for allowed in CYCLES_BEING_UNDONE if not any(c <= allowed for c in found)]
    assert not undone, f"no cycle left there (remove from CYCLES_BEING_UNDONE): {undone}"


def test_type_checking_imports_close_cycles_too() -> None:
    assert any(e.type_only for e in GRAPH.edges)  # the graph sees them
    typed = {(e.source, e.target) for e in GRAPH.edges if e.type_only}
    # a scene sees the App through the Window protocol
    assert ("gameplay.ui.widgets.scene", "gameplay.ui.shell.app") not in typed


def test_imports_point_one_way() -> None:
    problems = wrong_way(GRAPH)
    assert not problems, "\n".join(problems)


def test_every_door_is_an_import_inside_a_function() -> None:
    found = {(e.source, e.target): e for e in GRAPH.edges if (e.source, e.target) in DOORS}
    assert set(found) == set(DOORS), f"doors no longer used (remove them): {sorted(set(DOORS) - set(found))}"
    assert all(e.lazy for e in GRAPH.edges if (e.source, e.target) in DOORS)


def package_folders(root: Path) -> list[str]:
    """Every package folder of :data:`PACKAGES` under ``root`` but the top ``gameplay`` one, rooms inside rooms
    included (``ai/kernel``, ``gameplay/ui/overlay``), as paths from ``root``."""
    return sorted({init.parent.relative_to(root).as_posix() for pkg in PACKAGES
                   for init in (root / pkg).rglob("__init__.py")} - {"gameplay"})


def test_each_room_says_what_it_may_import() -> None:
    rooms = package_folders(ROOT)
    assert {"ai", "ai/kernel", "gameplay/rules", "gameplay/ui", "gameplay/ui/overlay"} <= set(rooms)
    for pkg in rooms:
        doc = ast.get_docstring(ast.parse((ROOT / pkg / "__init__.py").read_text(encoding="utf-8"))) or ""
        assert "import" in doc, f"{pkg}/__init__.py: say what the room holds and what it may import"


def test_no_folder_holds_more_than_25_modules() -> None:
    crowded = crowded_folders(ROOT)
    assert not crowded, f"more than {MAX_MODULES} modules in one folder (rooms by responsibility):\n" \
        + "\n".join(crowded)


# ----- the checker finds what it should ----------------------------------------------------------------------------
def _plant(tmp_path: Path, files: dict[str, str]) -> Graph:
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return build_graph(tmp_path)


def test_the_checker_finds_a_planted_lazy_cycle(tmp_path: Path) -> None:
    g = _plant(tmp_path, {
        "gameplay/__init__.py": "", "gameplay/rules/__init__.py": "",
        "gameplay/rules/a.py": "from gameplay.rules import b\n",
        "gameplay/rules/b.py": ("def f():\n    import importlib\n"
                                "    return importlib.import_module('gameplay.rules.c')\n"),
        "gameplay/rules/c.py": "def g():\n    from gameplay.rules.a import x\n",
        "gameplay/rules/d.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                "    from gameplay.rules import a\n"),
        "ai/__init__.py": "", "ai/e.py": "REG = {'x': 'ai.f:make'}\n", "ai/f.py": "def make():\n    import ai.e\n",
        "ai/g.py": "import ai.h\n",
        "ai/h.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ai.g import G\n",
    })
    found = sorted(cycles(g))
    assert found == [["ai.e", "ai.f", "ai.e"], ["ai.g", "ai.h", "ai.g"],
                     ["gameplay.rules.a", "gameplay.rules.b", "gameplay.rules.c", "gameplay.rules.a"]]


def test_the_checker_finds_a_crowded_folder(tmp_path: Path) -> None:
    _plant(tmp_path, {"ai/__init__.py": "", **{f"ai/m{i}.py": "" for i in range(MAX_MODULES)},
                      "ai/room/__init__.py": "", **{f"ai/room/r{i}.py": "" for i in range(MAX_MODULES + 1)}})
    assert crowded_folders(tmp_path) == [f"ai/room: {MAX_MODULES + 1} modules"]


def test_every_package_folder_is_a_room_to_describe(tmp_path: Path) -> None:
    _plant(tmp_path, {"gameplay/__init__.py": "", "gameplay/ui/__init__.py": "", "gameplay/ui/boards/__init__.py": "",
                      "gameplay/ui/notes/readme.txt": "", "ai/__init__.py": "", "ai/kernel/__init__.py": ""})
    assert package_folders(tmp_path) == ["ai", "ai/kernel", "gameplay/ui", "gameplay/ui/boards"]


def test_the_checker_finds_a_planted_lazy_wrong_way_import(tmp_path: Path) -> None:
    g = _plant(tmp_path, {
        "gameplay/__init__.py": "", "gameplay/ui/__init__.py": "", "gameplay/ui/shell/app.py": "",
        "gameplay/pictures/__init__.py": "",
        "gameplay/pictures/p.py": "def png():\n    from gameplay.ui.shell.app import draw\n",
        "gameplay/cli/__init__.py": "",
        "gameplay/cli/main.py": "def window():\n    import pygame\n    from gameplay.ui.shell.app import run_app\n",
        "gameplay/cli/other.py": "def f():\n    __import__('gameplay.ui.shell.app')\n",
        "ai/__init__.py": "", "ai/x.py": "def f():\n    import pygame\n    from gameplay.files import s\n",
        "gameplay/files/__init__.py": "", "gameplay/files/s.py": "",
    })
    problems = wrong_way(g)
    assert sorted(p.split(": ", 1)[1] for p in problems) == [
        "ai.x imports gameplay.files (ai may not import files)",
        "ai.x imports gameplay.files.s (ai may not import files)",
        "ai.x imports pygame (ai may not import pygame)",
        "gameplay.cli.other imports gameplay.ui.shell.app (cli may not import ui)",
        "gameplay.pictures.p imports gameplay.ui.shell.app (pictures may not import ui)",
    ], problems  # the door in gameplay.cli.main, inside a function, is allowed


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
