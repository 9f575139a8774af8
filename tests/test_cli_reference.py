"""docs/cli.md is the parsers' own ``--help``: it fails when an option changes and the page is not regenerated."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import cli_reference  # noqa: E402  (tools/ is not a package)


def test_the_reference_is_what_the_parsers_print() -> None:
    written = cli_reference.OUT.read_text(encoding="utf-8")
    assert written == cli_reference.render(), f"docs/cli.md differs from the parsers: run `{cli_reference.COMMAND}`"


def test_every_subcommand_has_its_section() -> None:
    from gameplay.cli import build_parser
    from gameplay.cli.main import subcommands
    text = cli_reference.render()
    names = [name for name, _ in subcommands(build_parser())]
    assert len(names) >= 13 and "tournament" in names and "plot" in names
    for name in names:
        assert f"\n## main.py {name}\n" in text, name
    assert "\n## main.py plot growth\n" in text  # nested subcommands too


def test_the_width_is_fixed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")  # a narrow terminal changes nothing in the page
    text = cli_reference.render()
    assert text == cli_reference.OUT.read_text(encoding="utf-8")
    assert max(len(line) for line in text.splitlines()) <= cli_reference.WIDTH
    assert os.environ["COLUMNS"] == "60"  # and the terminal's setting is restored
