"""The .desktop entry (quoted Exec, validated when desktop-file-validate exists) and clean --json from bench."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "packaging"))

import install_desktop_entry  # noqa: E402


def test_exec_is_quoted_for_a_path_with_spaces() -> None:
    text = install_desktop_entry.render(Path("/tmp/my games"))
    assert 'Exec="/tmp/my games/packaging/launch.sh"' in text
    plain = install_desktop_entry.render(Path("/opt/arcade"))
    assert "Exec=/opt/arcade/packaging/launch.sh" in plain


def test_installed_entry_validates(tmp_path: Path) -> None:
    out = install_desktop_entry.install(tmp_path)  # raises if desktop-file-validate (when installed) complains
    assert out.read_text(encoding="utf-8").startswith("[Desktop Entry]")
    if shutil.which("desktop-file-validate"):
        r = subprocess.run(["desktop-file-validate", str(out)], capture_output=True, text=True, check=False)
        assert r.returncode == 0 and not r.stdout.strip()


def test_bench_json_is_one_object() -> None:
    r = subprocess.run([sys.executable, "main.py", "bench", "perft", "--json"], cwd=ROOT, capture_output=True,
                       text=True, timeout=300, check=False)
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)
    assert obj["perft"]["nodes"] == 3_963_680
