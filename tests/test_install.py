"""``pip install .`` as Python projects do it: pyproject.toml declares the packages, the dependencies and the
extras, requirements.txt pins them all, the shipped data travel in the wheel, a missing extra names itself, and
(slow: it builds a virtual environment) a fresh install runs the ``arcade`` command from another folder."""

from __future__ import annotations

import ast
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from gameplay.rules import extras, shipped
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.perft import perft

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _declared(extra: str | None) -> dict[str, Requirement]:
    """{normalized distribution name: requirement} of the base dependencies (``None``) or of one extra, with the
    project's own ``adversarial-arcade[...]`` references expanded; ``dask[distributed]`` stands for both names."""
    lines = PROJECT["dependencies"] if extra is None else PROJECT["optional-dependencies"][extra]
    out: dict[str, Requirement] = {}
    for line in lines:
        req = Requirement(line)
        if _norm(req.name) == _norm(PROJECT["name"]):
            for inner in req.extras:
                out.update(_declared(inner))
        else:  # dask[distributed]: dask and the distribution its extra names
            for name in (req.name, *req.extras):
                out[_norm(name)] = req
    return out


def _pins() -> dict[str, str]:
    """{normalized distribution name: pinned version} of requirements.txt."""
    out = {}
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith("-"):
            req = Requirement(line)
            (spec,) = req.specifier
            assert spec.operator == "==", f"requirements.txt: not pinned: {line}"
            for name in (req.name, *req.extras):
                out[_norm(name)] = spec.version
    return out


def _third_party_imports() -> dict[str, str]:
    """{top-level module: a file importing it} for every import of a third-party module in ai/ and gameplay/ (lazy
    imports included)."""
    out: dict[str, str] = {}
    for package in ("ai", "gameplay"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                         [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
                         else [])
                for name in names:
                    top = name.split(".")[0]
                    if top not in sys.stdlib_module_names and top not in ("ai", "gameplay", "__future__"):
                        out.setdefault(top, str(path.relative_to(ROOT)))
    return out


def test_every_imported_package_is_declared() -> None:
    """Each third-party module the code imports comes from a declared distribution: a base dependency, or an extra
    that gameplay/rules/extras.py names for it (mypy_extensions was once imported and declared nowhere)."""
    distributions = importlib.metadata.packages_distributions()
    base = _declared(None)
    in_extras = {name: extra for extra in extras.EXTRAS for name in _declared(extra)}
    undeclared = {}
    for top, where in _third_party_imports().items():
        dists = {_norm(d) for d in distributions.get(top, [top])}
        if dists & set(base):
            continue
        hits = [in_extras[d] for d in dists if d in in_extras]
        if not hits or top not in extras.EXTRAS[hits[0]]:
            undeclared[top] = where
    assert undeclared == {}
    assert "mypy-extensions" in base and "pygame-ce" in base and "pygame-gui" in base
    assert "pygame" not in base  # never plain pygame: it installs the same import package as pygame-ce


def test_extras_of_pyproject_and_of_the_messages_agree() -> None:
    declared = PROJECT["optional-dependencies"]
    assert set(extras.EXTRAS) <= set(declared)
    assert set(declared) - set(extras.EXTRAS) == {"all", "dev"}
    distributions = importlib.metadata.packages_distributions()
    for extra, modules in extras.EXTRAS.items():
        names = set(_declared(extra))
        for module in modules:
            assert {_norm(d) for d in distributions[module]} & names, (extra, module)
    assert set(_declared("all")) == set(_declared("figures")) | set(_declared("tournaments"))
    assert {"pytest", "hypothesis", "ruff", "mypy"} <= set(_declared("dev"))


def test_requirements_pin_every_declared_package_within_its_range() -> None:
    """requirements.txt (the README's install) stays the pinned set: every dependency of every extra is pinned there,
    at a version the declared range admits, and it still installs this project (``-e .``) and compiles it."""
    pins = _pins()
    for extra in (None, *PROJECT["optional-dependencies"]):
        for name, req in _declared(extra).items():
            assert name in pins, f"{req} ({extra or 'base'}) is not pinned in requirements.txt"
            assert req.specifier.contains(pins[name]), f"requirements.txt pins {name}=={pins[name]}, outside {req}"
    lines = (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
    assert "-e ." in lines
    build = PYPROJECT["build-system"]["requires"]
    assert f"mypy=={pins['mypy']}" in build  # the compiler of the wheel is the checkout's mypy


def test_the_arcade_command_is_main_py() -> None:
    import main
    from gameplay.__main__ import main as entry
    assert PROJECT["scripts"] == {"arcade": "gameplay.__main__:main"}
    assert main.main is entry


def test_packages_and_package_data_are_declared() -> None:
    find = PYPROJECT["tool"]["setuptools"]["packages"]["find"]
    assert set(find["include"]) == {"gameplay", "gameplay.*", "ai", "ai.*"}
    assert PYPROJECT["tool"]["setuptools"]["package-data"] == {"gameplay.ui": ["theme.json"]}
    text = (ROOT / "setup.py").read_text(encoding="utf-8")
    assert "from gameplay.rules.shipped import SHIPPED" in text


def test_shipped_files_cover_what_the_app_bundles() -> None:
    """Every data file the one-folder app bundles beside the code is shipped in the wheel too (or is package data)."""
    sys.path.insert(0, str(ROOT / "packaging"))
    import app_contents
    for rel in shipped.SHIPPED:
        assert (ROOT / rel).exists(), rel
    bundled = {source.replace(os.sep, "/") for source, _folder in app_contents.DATA}
    assert bundled == set(shipped.SHIPPED) | {"gameplay/ui/theme.json"}


def test_shipped_path_prefers_the_package_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert not shipped.installed_copy()  # a checkout has no gameplay/shipped/
    assert shipped.shipped_path("assets", "icon.png") == ROOT / "assets" / "icon.png"
    copy = tmp_path / "shipped"
    copy.mkdir()
    monkeypatch.setattr(shipped, "PACKAGE_COPY", copy)
    assert shipped.installed_copy()
    assert shipped.shipped_path("assets", "icon.png") == copy / "assets" / "icon.png"
    assert extras.install_hint("figures") == "pip install '.[figures]' in the arcade's project folder"
    with pytest.raises(ValueError, match="unknown extra"):
        extras.install_hint("fonts")


def test_program_name_of_the_arcade_command(monkeypatch: pytest.MonkeyPatch) -> None:
    from gameplay.cli import build_parser, program_name
    monkeypatch.setattr(sys, "argv", ["/home/me/.venv/bin/arcade", "--help"])
    assert program_name() == "arcade"
    assert build_parser().format_usage().startswith("usage: arcade ")
    monkeypatch.setattr(sys, "argv", [str(ROOT / "gameplay" / "__main__.py")])
    assert program_name() == "python -m gameplay"
    monkeypatch.setattr(sys, "argv", ["main.py"])
    assert program_name() == "main.py"


def _run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    from gameplay.cli import run
    code = run(args)
    return code, capsys.readouterr().err


@pytest.mark.parametrize(("missing", "args", "line"), [
    ("matplotlib", ["plot", "ladder", "--out", "{tmp}/l.png"], "figures need matplotlib: "),
    ("numpy", ["tournament", "tictactoe", "--agents", "random", "expert"], "tournaments need numpy: "),
    ("networkx", ["tournament", "tictactoe", "--agents", "random", "expert", "random:seed=2", "--format", "swiss"],
     "Swiss tournaments need networkx: "),
    ("distributed", ["tournament", "tictactoe", "--agents", "random", "expert", "--engine", "dask"],
     "tournaments on Dask need distributed: "),
])
def test_a_missing_extra_is_one_line_naming_it(missing: str, args: list[str], line: str, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("ARCADE_DATA_DIR", str(tmp_path))
    monkeypatch.setitem(sys.modules, missing, None)  # import and find_spec both see it as not installed
    code, err = _run_cli([a.replace("{tmp}", str(tmp_path)) for a in args], capsys)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("error: " + line), err
    assert err.rstrip().endswith(".venv/bin/pip install -r requirements.txt")  # a checkout: the README's command
    assert not any(tmp_path.rglob("*.png"))


# ----- a fresh virtual environment (slow) ---------------------------------------------------------------------------
SOURCE_IGNORED = shutil.ignore_patterns(".git", ".venv", "build", "dist", "__pycache__", "*.so", "*.egg-info",
                                        ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis", "tests",
                                        "out*.png")


@pytest.mark.slow
def test_pip_install_gives_a_working_arcade_command(tmp_path: Path) -> None:
    """``pip install .`` (of a copy of the checkout, without a C compiler: ``CC=false``) into a fresh virtual
    environment, then the ``arcade`` command run from another folder (the checkout is not on ``sys.path``): its
    help, ``analyze`` (tic-tac-toe; checkers from the shipped opening book), a match from the shipped ballots,
    ``perft`` (the table's count), a missing extra's message, and the window headless (``demo`` with a
    screenshot)."""
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=SOURCE_IGNORED)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "ARCADE_PURE")}
    r = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(source)],
                       env={**env, "CC": "false"}, capture_output=True, text=True, timeout=1200, check=False)
    assert r.returncode == 0, r.stdout + r.stderr

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run_env = {**env, "ARCADE_CONFIG_DIR": str(tmp_path / "config"), "ARCADE_DATA_DIR": str(tmp_path / "data"),
               "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    arcade = str(venv / "bin" / "arcade")

    def arc(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([arcade, *args], cwd=elsewhere, env=run_env, capture_output=True, text=True,
                              timeout=300, check=False)

    where = subprocess.run([str(venv / "bin" / "python"), "-c", "import gameplay, ai; print(gameplay.__file__); "
                            "print(ai.__file__)"], cwd=elsewhere, env=run_env, capture_output=True, text=True,
                           check=True)
    assert all(str(venv) in line for line in where.stdout.splitlines()), where.stdout  # not the source tree
    fonts = subprocess.run([str(venv / "bin" / "python"), "-c", "from gameplay.pictures.fonts import font_file; "
                            "print(font_file(False)); print(font_file(True))"], cwd=elsewhere, env=run_env,
                           capture_output=True, text=True, check=True).stdout.split()
    assert len(fonts) == 2 and all(str(venv) in f for f in fonts), fonts  # the pictures' font, from the wheel
    assert (Path(fonts[0]).parent / "LICENSE-DejaVu.txt").is_file()  # with its licence beside it

    r = arc("--help")
    assert r.returncode == 0 and r.stdout.startswith("usage: arcade "), r.stderr
    r = arc("analyze", "tictactoe", "--agent", "expert")
    assert r.returncode == 0 and "value 0 (a draw with best play)" in r.stdout, r.stdout + r.stderr
    r = arc("analyze", "checkers", "--agent", "expert", "--quiet")
    assert r.returncode == 0 and "from the opening book" in r.stdout, r.stdout + r.stderr  # assets/book shipped
    r = arc("match", "checkers", "--p1", "random:seed=1", "--p2", "random:seed=2", "--games", "2", "--openings",
            "ballots", "--quiet", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["games"] == 2, r.stderr  # assets/ballots-english.tsv shipped
    r = arc("perft", "checkers", "--depth", "4", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["nodes"] == perft(Checkers(), Checkers().initial_state(), 4)  # this checkout's count
    r = arc("plot", "ladder", "--out", str(elsewhere / "ladder.png"))  # the base install has no matplotlib
    assert r.returncode == 2
    assert r.stderr == "error: figures need matplotlib: pip install '.[figures]' in the arcade's project folder\n"
    shot = elsewhere / "demo.png"
    r = arc("demo", "tictactoe", "--frames", "10", "--screenshot", str(shot))
    assert r.returncode == 0 and shot.stat().st_size > 1000, r.stdout + r.stderr
