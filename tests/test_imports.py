"""Imports point one way, with no cycle at any depth (ARCHITECTURE.md, extended to the rooms of ``gameplay/``).

The checker reads every module of ``gameplay``, ``ai`` and ``main.py`` with :mod:`ast` (nothing is imported) and
builds the module graph from every import it finds, wherever it is written:

* ``import x`` and ``from x import y`` at the top of a module *and inside functions* (lazy imports count: they
  close cycles that module-level imports hide); ``from x import y`` where ``x.y`` is a module is an edge to
  ``x.y``; relative imports are resolved;
* ``importlib.import_module("x")`` and ``__import__("x")`` with a constant string;
* a whole string constant that is a dotted module path of the project (the registry's
  ``"gameplay.rules.checkers.checkers"``, ``COMMAND_MODULES``): names looked up at run time are imports too;
* a module found by a naming convention (:data:`CONVENTIONS`: the window's parts in
  ``gameplay.ui.boards.<game>_view``): an edge from the module that looks it up to every module the pattern names.

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

Inside ``ai`` and the window the rooms are layered too (:data:`SUB_ROOMS`, the table docs/architecture.md lists
under its diagram): ``ai.kernel`` at the bottom, then ``ai.agents``, each game's room, ``ai.teaching``, ``ai.bench``
and ``ai.grader``; ``gameplay.ui.widgets`` the floor, then ``boards``, ``overlay``, ``play``, ``scenes``, ``shell``
the roof.
A room imports only the rooms its row names (lazy and type-checking imports included); the few upward imports left
are listed with their reasons in :data:`SUB_ROOM_EXCEPTIONS`.

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

from gameplay.rules.registry import game_names

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
CONVENTIONS: dict[str, re.Pattern[str]] = {
    "gameplay.ui.boards.window_parts": re.compile(r"gameplay\.ui\.boards\.[a-z][a-z0-9_]*_view"),  # WINDOW_PARTS
}
"""A module that imports modules by a naming convention (``importlib`` on a name made from a game's name) -> the
modules it may import that way: each is an edge, lazy (looked up on first use)."""
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


def build_graph(root: Path, extra: tuple[str, ...] = ("main.py",)) -> Graph:
    """The import graph of the checkout at ``root`` (its ``gameplay`` and ``ai`` packages and ``extra`` files)."""
    g = Graph(root)
    files = [f for pkg in PACKAGES if (root / pkg).is_dir() for f in sorted((root / pkg).rglob("*.py"))]
    files += [root / e for e in extra if (root / e).is_file()]
    for f in files:
        g.modules[module_name(root, f)] = f
    for name, f in g.modules.items():
        text = f.read_text(encoding="utf-8")
        if name in CONVENTIONS:
            g.edges.extend(Edge(name, m, 0, True, False) for m in g.modules if CONVENTIONS[name].fullmatch(m))
        for target, line, lazy, typed in imports_of(text, name, f.name == "__init__.py"):
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
    # the window's parts, found by the convention: every game's view module, lazy
    found = {e.target for e in GRAPH.edges if e.source == "gameplay.ui.boards.window_parts" and e.lazy}
    assert {"gameplay.ui.boards.checkers_view", "gameplay.ui.boards.pig_view"} <= found
    assert not any(e.source == "gameplay.rules.registry" and e.target.startswith("gameplay.ui") for e in GRAPH.edges)


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


# ----- the rooms inside ai/ and the window --------------------------------------------------------------------------
GAME_ROOM = "ai.<game>"
"""The row of every game's room in ``ai`` (``ai.checkers``, ``ai.pig`` ...: a room named by a registered game's
name), so that a new game's room needs no row of its own."""
SUB_ROOMS: dict[str, frozenset[str]] = {
    # ai/: the kernel at the bottom; agents on it; each game's room, teaching and bench on the agents; grader on top
    "ai.kernel": frozenset(),
    "ai.agents": frozenset({"ai.kernel"}),
    GAME_ROOM: frozenset({"ai.kernel", "ai.agents"}),
    "ai.teaching": frozenset({"ai.kernel", "ai.agents"}),
    "ai.grader": frozenset({"ai.kernel", "ai.agents", "ai.teaching"}),
    "ai.bench": frozenset({"ai.kernel", "ai.agents"}),
    # gameplay/ui/: widgets the floor, shell the roof; each room sees every room below it
    "gameplay.ui.widgets": frozenset(),
    "gameplay.ui.boards": frozenset({"gameplay.ui.widgets"}),
    "gameplay.ui.overlay": frozenset({"gameplay.ui.widgets", "gameplay.ui.boards"}),
    "gameplay.ui.play": frozenset({"gameplay.ui.widgets", "gameplay.ui.boards", "gameplay.ui.overlay"}),
    "gameplay.ui.scenes": frozenset({"gameplay.ui.widgets", "gameplay.ui.boards", "gameplay.ui.overlay",
                                     "gameplay.ui.play"}),
    "gameplay.ui.shell": frozenset({"gameplay.ui.widgets", "gameplay.ui.boards", "gameplay.ui.overlay",
                                    "gameplay.ui.play", "gameplay.ui.scenes"}),
}
"""The rooms inside ``ai`` and ``gameplay.ui`` -> the rooms of the same package their modules may import besides their
own (docs/architecture.md, "The rooms of ai/ and the window", draws them and lists this table). A game's room never
imports another game's room. Imports leaving the package (``ai`` -> ``gameplay.rules``, the window -> ``ai``) are
:func:`wrong_way`'s; the package's own ``__init__`` belongs to no room."""
SUB_ROOM_PACKAGES = ("ai", "gameplay.ui")
"""The packages split into the rooms of :data:`SUB_ROOMS`."""
SUB_ROOM_EXCEPTIONS: dict[tuple[str, str], str] = {}
"""The upward imports still allowed, each (module, module it imports) -> why; each must be inside a function, and one no
longer written must go (this table only shrinks)."""


def sub_room_of(module: str) -> str | None:
    """The room of :data:`SUB_ROOMS` a module is in by its name (``ai.kernel.search`` -> ``ai.kernel``,
    ``gameplay.ui.play.match`` -> ``gameplay.ui.play``); ``None`` outside :data:`SUB_ROOM_PACKAGES` and for those
    packages' own ``__init__``."""
    for pkg in SUB_ROOM_PACKAGES:
        if module.startswith(pkg + "."):
            return pkg + "." + module[len(pkg) + 1:].split(".")[0]
    return None


def sub_room_row(room: str, games: tuple[str, ...], rooms: dict[str, frozenset[str]] | None = None) -> str | None:
    """The row of the table ``rooms`` (default :data:`SUB_ROOMS`) that rules ``room``: its own, :data:`GAME_ROOM` for
    ``ai.<a name in games>``, else ``None`` (a room the table does not know)."""
    rooms = SUB_ROOMS if rooms is None else rooms
    if room in rooms:
        return room
    if room.startswith("ai.") and room[3:] in games and GAME_ROOM in rooms:
        return GAME_ROOM
    return None


def sub_room_problems(g: Graph, games: tuple[str, ...],
                      rooms: dict[str, frozenset[str]] | None = None,
                      exceptions: dict[tuple[str, str], str] | None = None) -> list[str]:
    """Every import between two rooms of one package of :data:`SUB_ROOM_PACKAGES` that the table ``rooms`` (default
    :data:`SUB_ROOMS`) does not allow, lazy and type-checking ones included, and every import written in a room the
    table does not know, as ``file:line: a imports b (why)``. An import in ``exceptions`` (default
    :data:`SUB_ROOM_EXCEPTIONS`) passes when it is inside a function. ``games``: the registered games' names (their
    rooms in ``ai`` take the :data:`GAME_ROOM` row)."""
    rooms = SUB_ROOMS if rooms is None else rooms
    exceptions = SUB_ROOM_EXCEPTIONS if exceptions is None else exceptions
    unknown = "a room the table does not know: add its row to SUB_ROOMS, or move the module into a room"
    problems = []
    for e in g.edges:
        src = sub_room_of(e.source)
        if src is None:
            continue
        where = f"{g.modules[e.source].relative_to(g.root)}:{e.line}: {e.source} imports {e.target}"
        src_row = sub_room_row(src, games, rooms)
        if src_row is None:
            problems.append(f"{where} ({src} is {unknown})")
            continue
        dst = sub_room_of(e.target) if e.target in g.modules else None
        if dst is None or dst == src or dst.rpartition(".")[0] != src.rpartition(".")[0]:
            continue  # not a room of the same package (wrong_way rules those), or the same room
        dst_row = sub_room_row(dst, games, rooms)
        if dst_row is None:
            problems.append(f"{where} ({dst} is {unknown})")
        elif dst not in rooms[src_row] and not ((e.source, e.target) in exceptions and e.lazy):
            why = "a game's room may not import another game's" if src_row == dst_row == GAME_ROOM \
                else f"{src} may not import {dst}"
            problems.append(f"{where} ({why})")
    return sorted(set(problems))


def test_the_rooms_of_ai_and_the_window_import_only_rooms_below() -> None:
    problems = sub_room_problems(GRAPH, game_names())
    assert not problems, "\n".join(problems)


def test_every_room_exception_is_an_import_still_written_inside_a_function() -> None:
    found = {(e.source, e.target): e for e in GRAPH.edges if (e.source, e.target) in SUB_ROOM_EXCEPTIONS}
    assert set(found) == set(SUB_ROOM_EXCEPTIONS), \
        f"no longer imported (remove from SUB_ROOM_EXCEPTIONS): {sorted(set(SUB_ROOM_EXCEPTIONS) - set(found))}"
    assert all(e.lazy for e in GRAPH.edges if (e.source, e.target) in SUB_ROOM_EXCEPTIONS)


def docs_room_table(text: str) -> dict[str, frozenset[str]]:
    """The rooms table of docs/architecture.md (rows ``| `room` | `a`, `b` |``; ``—``: none), as :data:`SUB_ROOMS`."""
    rows: dict[str, frozenset[str]] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and re.fullmatch(r"`[\w.<>]+`", cells[0]):
            rows[cells[0].strip("`")] = frozenset(re.findall(r"`([\w.<>]+)`", cells[1]))
    return rows


def test_the_docs_draw_the_table_the_test_checks() -> None:
    docs = docs_room_table((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8"))
    assert docs == SUB_ROOMS, "docs/architecture.md's rooms table and SUB_ROOMS differ: " \
        f"{ {k: sorted(v) for k, v in docs.items() if SUB_ROOMS.get(k) != v} } vs " \
        f"{ {k: sorted(v) for k, v in SUB_ROOMS.items() if docs.get(k) != v} }"
    assert docs_room_table("| `ai.x` | — |\n| `ai.y` | `ai.x`, `ai.z` |\n| room | may import |") == {
        "ai.x": frozenset(), "ai.y": frozenset({"ai.x", "ai.z"})}


def test_every_room_of_ai_and_the_window_has_a_row() -> None:
    rooms = {r for m in GRAPH.modules if (r := sub_room_of(m)) is not None}
    assert {"ai.kernel", "ai.checkers", "gameplay.ui.widgets", "gameplay.ui.shell"} <= rooms
    assert not [r for r in rooms if sub_room_row(r, game_names()) is None]
    assert {sub_room_row(r, game_names()) for r in rooms} == set(SUB_ROOMS)  # no row for a room that is gone


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


def test_the_checker_finds_planted_imports_between_the_wrong_rooms(tmp_path: Path) -> None:
    g = _plant(tmp_path, {
        "ai/__init__.py": "", "ai/kernel/__init__.py": "", "ai/kernel/k.py": "from ai.agents import a\n",
        "ai/agents/__init__.py": "", "ai/agents/a.py": "import ai.kernel.k\n",
        "ai/checkers/__init__.py": "", "ai/checkers/c.py": "def f():\n    from ai.pig import p\n",
        "ai/pig/__init__.py": "", "ai/pig/p.py": "from ai.agents.a import make\nfrom ai.kernel import k\n",
        "ai/teaching/__init__.py": "",
        "ai/teaching/t.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ai.grader.g import G\n",
        "ai/grader/__init__.py": "", "ai/grader/g.py": "from ai.teaching import t\n",
        "ai/stray/__init__.py": "", "ai/stray/s.py": "import ai.kernel.k\n",
        "gameplay/__init__.py": "", "gameplay/ui/__init__.py": "",
        "gameplay/ui/widgets/__init__.py": "",
        "gameplay/ui/widgets/w.py": ("def f():\n    import importlib\n"
                                     "    importlib.import_module('gameplay.ui.shell.app')\n"),
        "gameplay/ui/shell/__init__.py": "", "gameplay/ui/shell/app.py": "from gameplay.ui.play import match\n",
        "gameplay/ui/play/__init__.py": "", "gameplay/ui/play/match_panel.py": "",
        "gameplay/ui/play/match.py": "from gameplay.ui.boards import checkers_tools\nfrom ai.kernel import k\n",
        "gameplay/ui/boards/__init__.py": "",
        "gameplay/ui/boards/checkers_tools.py": ("from gameplay.ui.widgets import w\n"
                                                 "def f():\n    from gameplay.ui.play.match_panel import x\n"),
        "gameplay/ui/boards/pig_view.py": "def f():\n    from gameplay.ui.play.match_panel import x\n",
    })
    planted_exception = {("gameplay.ui.boards.checkers_tools", "gameplay.ui.play.match_panel"): "planted"}
    problems = sub_room_problems(g, ("checkers", "pig"), exceptions=planted_exception)
    assert sorted(p.split(": ", 1)[1] for p in problems) == [
        "ai.checkers.c imports ai.pig (a game's room may not import another game's)",
        "ai.checkers.c imports ai.pig.p (a game's room may not import another game's)",
        "ai.kernel.k imports ai.agents (ai.kernel may not import ai.agents)",
        "ai.kernel.k imports ai.agents.a (ai.kernel may not import ai.agents)",
        "ai.stray.s imports ai.kernel.k (ai.stray is a room the table does not know: add its row to SUB_ROOMS, or "
        "move the module into a room)",
        "ai.teaching.t imports ai.grader.g (ai.teaching may not import ai.grader)",
        "gameplay.ui.boards.pig_view imports gameplay.ui.play.match_panel (gameplay.ui.boards may not import "
        "gameplay.ui.play)",
        "gameplay.ui.widgets.w imports gameplay.ui.shell.app (gameplay.ui.widgets may not import gameplay.ui.shell)",
    ], problems  # checkers_tools' lazy import is the listed exception; ai.grader -> ai.teaching and the rest go down
    eager = _plant(tmp_path, {"gameplay/ui/boards/checkers_tools.py": "from gameplay.ui.play.match_panel import x\n"})
    assert [p.split(": ", 1)[1] for p in sub_room_problems(eager, ("checkers", "pig"), exceptions=planted_exception)
            if "checkers_tools" in p] == [
        "gameplay.ui.boards.checkers_tools imports gameplay.ui.play.match_panel (gameplay.ui.boards may not import "
        "gameplay.ui.play)"]  # the exception holds inside a function only


def test_the_real_tree_fails_with_a_wrong_way_edge_or_without_its_exception() -> None:
    made_up = [Edge("ai.kernel.core", "ai.teaching.trace", 7, lazy=True, type_only=False),
               Edge("gameplay.ui.widgets.scene", "gameplay.ui.shell.app", 9, lazy=False, type_only=True)]
    planted = Graph(GRAPH.root, GRAPH.modules, [*GRAPH.edges, *made_up])
    assert [p.split(": ", 1)[1] for p in sub_room_problems(planted, game_names())] == [
        "ai.kernel.core imports ai.teaching.trace (ai.kernel may not import ai.teaching)",
        "gameplay.ui.widgets.scene imports gameplay.ui.shell.app (gameplay.ui.widgets may not import "
        "gameplay.ui.shell)"]
    assert sub_room_problems(GRAPH, game_names(), exceptions={}) == []  # no upward import left to excuse


def test_the_checker_counts_the_window_parts_convention(tmp_path: Path) -> None:
    """``window_parts`` imports every ``boards/<game>_view`` module: a view module that imported ``window_parts`` back
    would close a cycle, and one that imported the play room would point upward."""
    g = _plant(tmp_path, {
        "gameplay/__init__.py": "", "gameplay/ui/__init__.py": "", "gameplay/ui/boards/__init__.py": "",
        "gameplay/ui/play/__init__.py": "", "gameplay/ui/play/figures.py": "",
        "gameplay/ui/boards/window_parts.py": "import importlib\n",
        "gameplay/ui/boards/dots_view.py": "from gameplay.ui.boards.window_parts import WindowParts\n",
        "gameplay/ui/boards/nim_view.py": "def f():\n    from gameplay.ui.play import figures\n",
        "gameplay/ui/boards/board.py": "",
    })
    assert {(e.source, e.target) for e in g.edges if e.lazy and e.source.endswith("window_parts")} == {
        ("gameplay.ui.boards.window_parts", "gameplay.ui.boards.dots_view"),
        ("gameplay.ui.boards.window_parts", "gameplay.ui.boards.nim_view")}  # board.py is no view module
    assert sorted(cycles(g)) == [["gameplay.ui.boards.dots_view", "gameplay.ui.boards.window_parts",
                                  "gameplay.ui.boards.dots_view"]]
    assert [p.split(": ", 1)[1] for p in sub_room_problems(g, ())] == [
        "gameplay.ui.boards.nim_view imports gameplay.ui.play (gameplay.ui.boards may not import gameplay.ui.play)",
        "gameplay.ui.boards.nim_view imports gameplay.ui.play.figures (gameplay.ui.boards may not import "
        "gameplay.ui.play)"]
