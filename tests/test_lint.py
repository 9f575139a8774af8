"""House habits (ARCHITECTURE.md): ``ruff check`` is clean, ``mypy --strict`` passes on all of gameplay and ai and on
main.py (pyproject.toml's [tool.mypy] files)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool(name: str) -> list[str]:
    exe = Path(sys.executable).with_name(name)
    if exe.exists():
        return [str(exe)]
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (it is in requirements.txt)")
    return [found]


def test_ruff_is_clean() -> None:
    r = subprocess.run([*_tool("ruff"), "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict_on_all_program_code() -> None:
    r = subprocess.run([*_tool("mypy"), "--no-incremental", "--cache-dir", "/dev/null"], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
