"""Write ``docs/cli.md``, the command-line reference, from the argument parsers themselves.

Usage: ``python tools/cli_reference.py`` (writes the file) or ``python tools/cli_reference.py --check`` (exit 1 when
the file differs from what the parsers give now). ``tests/test_cli_reference.py`` runs the check, so the reference
cannot drift from ``gameplay.cli.build_parser()``: change an option, then run this script and commit both.

The page is each subcommand's ``--help`` (``format_help()``), nested subcommands (``plot growth``) included, in the
order the parser lists them, at a fixed width of :data:`WIDTH` columns so the text does not depend on the terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "cli.md"
WIDTH = 120
"""Columns the help is wrapped to (argparse reads ``COLUMNS`` through :func:`shutil.get_terminal_size`)."""
COMMAND = "python tools/cli_reference.py"
"""The command that regenerates the page (quoted in the page and in the drift test's message)."""


@contextlib.contextmanager
def _columns(width: int) -> Iterator[None]:
    """``COLUMNS`` set to ``width`` inside the block, restored after (argparse sizes its help from it)."""
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(width)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old


def _walk(path: list[str], parser: argparse.ArgumentParser) -> Iterator[tuple[list[str], argparse.ArgumentParser]]:
    from gameplay.cli.main import subcommands
    yield path, parser
    for name, sub in subcommands(parser):
        yield from _walk([*path, name], sub)


def anchor(title: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation but ``-`` and ``_`` dropped, spaces as ``-``."""
    kept = "".join(c for c in title.lower() if c.isalnum() or c in " -_")
    return kept.replace(" ", "-")


def render() -> str:
    """The whole page as text (ends with one newline)."""
    sys.path.insert(0, str(ROOT))
    from gameplay.cli import build_parser
    with _columns(WIDTH):
        root = build_parser()
        sections = [(" ".join([root.prog, *path]), p.format_help()) for path, p in _walk([], root)]
    lines = [
        "# Command-line reference",
        "",
        f"Generated from the parsers by `{COMMAND}`: do not edit it by hand (`tests/test_cli_reference.py`",
        "fails when it differs from the parsers). Each section is the command's `--help`. After `pip install .` the",
        "`arcade` command takes the same arguments as `python main.py`. Examples and what each command prints: [the",
        "command-line guide](command-line.md).",
        "",
    ]
    lines += [f"- [`{title}`](#{anchor(title)})" for title, _ in sections]
    for title, text in sections:
        lines += ["", f"## {title}", "", "```text", *text.rstrip("\n").splitlines(), "```"]
    return "\n".join(line.rstrip() for line in lines) + "\n"


def main(argv: list[str]) -> int:
    """Write the page, or with ``--check`` compare it; returns the exit code."""
    text = render()
    if "--check" in argv:
        if OUT.exists() and OUT.read_text(encoding="utf-8") == text:
            return 0
        print(f"{OUT.relative_to(ROOT)} differs from the parsers: run `{COMMAND}`", file=sys.stderr)
        return 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)} ({len(text):,} characters)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
