"""Install the double-click entry for Linux desktops: writes ``adversarial-arcade.desktop`` (with this project's
absolute launcher path) into ``~/.local/share/applications`` (or the folder given), and validates it with
``desktop-file-validate`` when that tool is installed.

Usage: ``python3 packaging/install_desktop_entry.py [FOLDER]``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def render(root: Path) -> str:
    """The .desktop text for a project checked out at ``root``."""
    text = (HERE / "adversarial-arcade.desktop.in").read_text(encoding="utf-8")
    launcher = str(root / "packaging" / "launch.sh")
    if any(c in launcher for c in ' \t"`$\\'):
        # Desktop Entry spec, "The Exec key": quote the argument, escaping ", `, $ and \ inside the quotes
        escaped = "".join("\\" + c if c in '"`$\\' else c for c in launcher)
        launcher = f'"{escaped}"'
    return text.replace("@LAUNCHER@", launcher).replace("@ICON@", str(root / "assets" / "icon.png"))


def install(folder: Path) -> Path:
    """Write the entry into ``folder``; returns its path. Raises ``RuntimeError`` if validation fails."""
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / "adversarial-arcade.desktop"
    out.write_text(render(HERE.parent), encoding="utf-8")
    out.chmod(0o755)
    tool = shutil.which("desktop-file-validate")
    if tool:
        r = subprocess.run([tool, str(out)], capture_output=True, text=True)
        if r.returncode != 0 or r.stdout.strip():
            raise RuntimeError(f"desktop-file-validate: {r.stdout.strip() or r.stderr.strip()}")
    return out


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description="Install the arcade's .desktop entry (Linux double-click start).")
    ap.add_argument("folder", nargs="?", default=str(Path.home() / ".local" / "share" / "applications"),
                    help="where to write it (default: ~/.local/share/applications)")
    try:
        print(f"installed {install(Path(ap.parse_args().folder))}")
    except (OSError, RuntimeError) as e:
        sys.exit(f"error: {e}")
