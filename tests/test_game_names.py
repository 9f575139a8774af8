"""The registry record is the one door a game needs (issue 25): outside the game's own modules, no source file
of the program names Connect Four. A game's own modules are its record's (``gameplay.rules.registry``): the rules
module and the modules its ``compiled`` list names; its agents' module and its window's view module (found by their
names: ``ai.<game>.<game>_agents``, ``gameplay.ui.boards.<game>_view``) and the modules their parts' functions come
from, with the package file of a folder that holds nothing else (its room in ``ai``). Tests, documents and data may
name it."""

from __future__ import annotations

import re
from pathlib import Path

from gameplay.rules.registry import GameInfo, game_info

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [p for top in ("gameplay", "ai", "tools", "packaging") for p in (ROOT / top).rglob("*.py")] + [
    ROOT / "main.py", ROOT / "setup.py"]
NAMES = re.compile(r"connect[ _-]?(4|four)", re.IGNORECASE)


def own_files(info: GameInfo) -> set[Path]:
    """The record's module and every module its ``compiled`` list names, the game's agents' module
    (``ai.<game>.<game>_agents``, :mod:`ai.agents.game_parts`) and its view module (``gameplay.ui.boards.<game>_view``,
    :mod:`gameplay.ui.boards.window_parts`) and the modules their parts' functions come from, the record's own
    tools (``tools``), plus the registry."""
    import dataclasses

    from ai.agents.game_parts import agent_parts
    from gameplay.ui.boards.window_parts import VIEW_MODULE, window_parts
    modules = [info.module, f"ai.{info.name}.{info.name}_agents", VIEW_MODULE.format(game=info.name)]
    for parts in (agent_parts(info.name), window_parts(info.name)):
        values = [getattr(parts, f.name) for f in dataclasses.fields(parts)]
        values += [getattr(v, f.name) for v in values if dataclasses.is_dataclass(v) and not isinstance(v, type)
                   for f in dataclasses.fields(v)]  # a help figure's functions
        modules += [getattr(v, "__module__", "") for v in values if callable(v)]
    files = {ROOT / (m.replace(".", "/") + ".py") for m in modules}
    files |= {ROOT / p for p in info.compiled}
    files |= {ROOT / p for p in info.tools}  # the game's own builders and measurements
    # a folder of the game's own modules alone (its room in ai/, issue 46) is its own, its package file too
    files |= {f.parent / "__init__.py" for f in set(files)
              if all(p in files for p in f.parent.glob("*.py") if p.name != "__init__.py")}
    return files | {ROOT / "gameplay" / "rules" / "registry.py"}


def test_only_the_record_and_the_games_own_modules_name_connect_four() -> None:
    own = own_files(game_info("connect4"))
    assert all(p.exists() for p in own), sorted(str(p) for p in own if not p.exists())
    naming = []
    for path in SOURCES:
        if path in own or "__pycache__" in path.parts:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if NAMES.search(line):
                naming.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:90]}")
    assert naming == [], "the game is named outside its record and its own modules:\n" + "\n".join(naming)


def test_the_check_would_catch_a_name() -> None:
    assert NAMES.search('if game == "connect4":') and NAMES.search("Connect Four") and NAMES.search("connect_four")
    assert not NAMES.search("connected")
