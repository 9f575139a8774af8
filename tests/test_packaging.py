"""The .desktop entry (quoted Exec, validated when desktop-file-validate exists) and clean --json from bench."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "packaging"))

import install_desktop_entry  # noqa: E402


def test_exec_is_quoted_for_a_path_with_spaces() -> None:
    text = install_desktop_entry.render(Path("/tmp/my games"))
    assert 'Exec="/tmp/my games/packaging/launch.sh"' in text
    plain = install_desktop_entry.render(Path("/opt/arcade"))
    assert "Exec=/opt/arcade/packaging/launch.sh" in plain


def _validator() -> str:
    tool = shutil.which("desktop-file-validate")
    if tool is None:
        pytest.skip("desktop-file-validate is not installed (apt-get install desktop-file-utils)")
    return tool


def test_installed_entry_is_written(tmp_path: Path) -> None:
    out = install_desktop_entry.install(tmp_path)  # raises if desktop-file-validate (when installed) complains
    text = out.read_text(encoding="utf-8")
    assert text.startswith("[Desktop Entry]") and "@LAUNCHER@" not in text and "@ICON@" not in text
    assert str(ROOT / "packaging" / "launch.sh") in text  # this checkout's launcher (quoted or not)


def test_installed_entry_validates(tmp_path: Path) -> None:
    tool = _validator()
    out = install_desktop_entry.install(tmp_path)
    r = subprocess.run([tool, str(out)], capture_output=True, text=True, check=False)
    assert r.returncode == 0 and not r.stdout.strip(), r.stdout + r.stderr


def test_entry_for_a_path_with_spaces_validates(tmp_path: Path) -> None:
    tool = _validator()
    out = tmp_path / "adversarial-arcade.desktop"
    out.write_text(install_desktop_entry.render(Path("/tmp/my games")), encoding="utf-8")
    r = subprocess.run([tool, str(out)], capture_output=True, text=True, check=False)
    assert r.returncode == 0 and not r.stdout.strip(), r.stdout + r.stderr


@pytest.mark.slow
def test_bench_json_is_one_object() -> None:
    r = subprocess.run([sys.executable, "main.py", "bench", "perft", "--json"], cwd=ROOT, capture_output=True,
                       text=True, timeout=300, check=False)
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)
    assert obj["perft"]["nodes"] == 3_963_680


# ----- the one-folder app (packaging/arcade.spec, packaging/build_app.py) -------------------------------------------
import app_contents  # noqa: E402
import build_app  # noqa: E402

from gameplay.cli import COMMAND_MODULES, build_parser, program_name  # noqa: E402


def _module_names_on_disk() -> set[str]:
    """Every module of ai/ and gameplay/ as a dotted name, found with a glob (not app_contents' own walk)."""
    out = set()
    for package in app_contents.PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "__pycache__" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            out.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return out


def test_spec_hidden_imports_cover_every_module_and_command() -> None:
    hidden = set(app_contents.hidden_imports(str(ROOT)))
    assert set(COMMAND_MODULES) <= hidden
    on_disk = _module_names_on_disk()
    assert {"gameplay.ui.shell.app", "gameplay.ui.scenes.menu", "gameplay.rules.checkers.checkers",
            "ai.kernel.search"} <= on_disk
    assert on_disk - hidden == set()
    assert set(app_contents.mypyc_libraries(str(ROOT))) <= hidden  # empty in a pure-Python checkout
    assert {"random", "math", "heapq", "statistics"} <= hidden and "tkinter" not in hidden  # for agent files


def test_mypyc_library_is_found_by_its_file_name(tmp_path: Path) -> None:
    import importlib.machinery
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (tmp_path / f"5af954fa804328b0988d__mypyc{suffix}").write_bytes(b"")
    (tmp_path / "unrelated.so.txt").write_bytes(b"")
    assert app_contents.mypyc_libraries(str(tmp_path)) == ["5af954fa804328b0988d__mypyc"]


def test_spec_has_no_hand_list_of_our_modules() -> None:
    """The spec reads its hidden imports from app_contents: no module name of ours is written in it."""
    import ast
    text = (ROOT / "packaging" / "arcade.spec").read_text(encoding="utf-8")
    strings = [n.value for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    ours = [s for s in strings if s.split(".")[0] in app_contents.PACKAGES and "." in s]
    assert ours == []
    assert "hiddenimports=app_contents.hidden_imports(ROOT)" in text


def test_data_files_exist_and_unused_fonts_are_dropped() -> None:
    for source, _target in app_contents.data_files(str(ROOT)):
        assert Path(source).exists()
    assert app_contents.is_unused_data("pygame_gui/data/NotoSansJP-Regular.otf")
    assert not app_contents.is_unused_data("pygame_gui/data/NotoSans-Regular.ttf")
    # the tree pictures' font (DejaVu Sans, with its licence) travels in assets/, which the app bundles whole
    fonts = ROOT / "assets" / "fonts"
    assert ("assets", "assets") in app_contents.DATA
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "LICENSE-DejaVu.txt"):
        assert (fonts / name).is_file() and not app_contents.is_unused_data(f"assets/fonts/{name}"), name


def test_elf_sections_are_read(tmp_path: Path) -> None:
    assert ".text" in app_contents.elf_section_names(sys.executable) or not sys.platform.startswith("linux")
    (tmp_path / "not-elf").write_bytes(b"MZ" + bytes(100))
    assert app_contents.elf_section_names(str(tmp_path / "not-elf")) == []


def _requirements(path: Path) -> dict[str, str]:
    """{normalized name (extras apart): the whole pinned line} of a requirements file."""
    import re
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if not line or line.startswith("-"):
            continue
        m = re.match(r"([A-Za-z0-9_.-]+)(?:\[([^\]]*)\])?", line)
        assert m and "==" in line, f"{path.name}: not pinned: {line}"
        for name in [m.group(1), *(m.group(2) or "").split(",")]:
            if name.strip():
                out[re.sub(r"[-_.]+", "-", name.strip()).lower()] = line
    return out


def test_app_requirements_are_pinned_as_the_project() -> None:
    app = _requirements(ROOT / "packaging" / "requirements-app.txt")
    project = _requirements(ROOT / "requirements.txt")
    for name, line in app.items():
        if not name.startswith("pyinstaller"):
            assert project.get(name) == line, f"requirements-app.txt: {line}; requirements.txt: {project.get(name)}"


def test_app_requirements_hold_every_package_the_program_imports() -> None:
    """Every third-party module imported anywhere in ai/ and gameplay/ (at any depth: a figure, a tournament engine)
    comes from a distribution the app's build installs (mypy_extensions was missing once: checkers failed)."""
    import ast
    import importlib.metadata
    import re
    app = _requirements(ROOT / "packaging" / "requirements-app.txt")
    distributions = importlib.metadata.packages_distributions()
    missing = {}
    for package in app_contents.PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                         [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
                         else [])
                for name in names:
                    top = name.split(".")[0]
                    if top in sys.stdlib_module_names or top in app_contents.PACKAGES or top == "__future__":
                        continue
                    dists = [re.sub(r"[-_.]+", "-", d).lower() for d in distributions.get(top, [top])]
                    if not any(d in app for d in dists):
                        missing[top] = str(path.relative_to(ROOT))
    assert missing == {}


def test_the_app_leaves_scipy_out() -> None:
    """The program does not import scipy (the ratings' fit is numpy's): the app's build does not install it and the
    spec excludes it, so no optional import (networkx's, matplotlib's) brings its 72 MiB back."""
    app = _requirements(ROOT / "packaging" / "requirements-app.txt")
    assert "scipy" not in app and "numpy" in app
    assert "scipy" in app_contents.EXCLUDES
    assert "scipy" in _requirements(ROOT / "requirements.txt")  # the developers' set keeps it, for tools/

class _RecordingSmoke(build_app.Smoke):
    """The smoke test's checks recorded instead of run (the app's --help is the checkout's)."""

    def __init__(self, out: Path) -> None:
        super().__init__(out / "app", sys.executable, out)
        self.commands: list[list[str]] = []

    def run(self, args: object, **kw: object) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess([], 0, build_parser().format_help(), "")

    def check(self, name: str, args: object, **kw: object) -> str | None:
        self.commands.append(list(args))  # type: ignore[call-overload]
        return ""


def _subcommand_names() -> list[str]:
    from gameplay.cli.main import subcommands
    return [name for name, _ in subcommands(build_parser())]  # build_parser registers every subcommand module


def test_smoke_script_reads_every_subcommand_from_the_help() -> None:
    names = _subcommand_names()
    assert {"tournament", "analyze", "pdn", "plot"} <= set(names)
    assert build_app.subcommands(build_parser().format_help()) == names


def test_smoke_script_checks_every_subcommand(tmp_path: Path) -> None:
    """Every subcommand's --help, and a feature check of each (the window's commands: under Xvfb). A new subcommand
    fails here until packaging/build_app.py runs it."""
    names = _subcommand_names()
    smoke = _RecordingSmoke(tmp_path)
    build_app.smoke_commands(smoke, names, "search: ...")
    helped = {c[0] for c in smoke.commands if c[1:] == ["--help"]}
    assert helped == set(names)
    run = {c[0] for c in smoke.commands if c and c[0] in names and "--help" not in c}
    unchecked = set(names) - run - set(build_app.CHECKED_IN_THE_WINDOW)
    assert unchecked == set(), f"no feature check in packaging/build_app.py for {sorted(unchecked)}"
    matches = [c for c in smoke.commands if c[0] == "match"]
    assert any(any(a.startswith("file:") for a in c) and "--jobs" in c for c in matches)  # worker processes
    assert any(c[0] == "tournament" and "dask" in c for c in smoke.commands)


def test_program_name_in_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    assert program_name() == "main.py"
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", "/opt/adversarial-arcade/adversarial-arcade")
    assert program_name() == "adversarial-arcade"
    assert build_parser().format_usage().startswith("usage: adversarial-arcade ")


def test_every_examples_folder_ships() -> None:
    """The templates and examples the docs and the window point to (agents, exercises, game files) reach an
    installed package and the one-folder app: every folder under examples/ is in SHIPPED."""
    from gameplay.rules.shipped import PROJECT_ROOT, SHIPPED
    folders = {f"examples/{p.name}" for p in (PROJECT_ROOT / "examples").iterdir() if p.is_dir()}
    assert folders and folders <= set(SHIPPED), sorted(folders - set(SHIPPED))
