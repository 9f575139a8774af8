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


def test_bench_json_is_one_object() -> None:
    r = subprocess.run([sys.executable, "main.py", "bench", "perft", "--json"], cwd=ROOT, capture_output=True,
                       text=True, timeout=300, check=False)
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)
    assert obj["perft"]["nodes"] == 3_963_680
