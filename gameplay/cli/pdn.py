"""``main.py pdn FILE [--json]``: read a PDN file of checkers games, every game with its own error and warnings.

A bad game never stops the others (:func:`gameplay.rules.checkers.pdn_read.iter_records`). The text output has one line
per game (number, players, event, date, result, plies), then its error or warnings indented, then a summary; with
``--json`` one object (``../shared/CLI.md``)::

    {"file": str, "encoding": str, "warnings": [str],
     "games": [{"index": int, "number": int, "tags": {str: str}, "plies": int, "result": str,
                "final_position": str | null, "warnings": [str], "error": str | null}]}

Games are numbered from 1 in file order, as a person counts them: the text's ``#3`` and the window's game list
show the third game, whose JSON ``number`` is 3; its ``index`` (CLI.md) is its place in the ``games`` list, from 0
(2). ``encoding`` is how the file was read (:mod:`gameplay.rules.textfile`: ``utf-8``, ``windows-1252``...) and the
top-level ``warnings`` say what about the file was read leniently (lines that were not UTF-8); ``tags`` are the
tags as read (the first value of a tag given twice, ``Result``, ``SetUp`` and ``FEN`` included); each warning
begins with the line and column it is about (``line 6, column 1: tag Black is given twice: ...``); ``plies`` are the
moves read (before the error, for a bad game); ``final_position`` is the PDN FEN after them, null exactly when
``error`` is set. Exit code 0 when at least one game reads, 2 when none does or the file cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the rules are imported when the command runs (a broken install fails there, loudly)
    from gameplay.rules.checkers.pdn_read import PDNRecord


def register(sub: Any) -> None:
    """Add the ``pdn`` subcommand to the CLI's subparsers."""
    sp = sub.add_parser("pdn", help="read a PDN file of checkers games: each game's tags, result, errors",
                        description="Read a PDN file of checkers games: a line per game, numbered from 1 (#1 is "
                                    "the first game, as in the window's game list), with its error or warnings. "
                                    "--json gives each game's number (from 1) and its index in the games list "
                                    "(from 0).")
    sp.add_argument("file", metavar="FILE", help="a .pdn file (one game or a whole archive)")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.set_defaults(func=cmd_pdn)


def record_json(rec: PDNRecord) -> dict[str, Any]:
    """One game of ``pdn --json`` (see the module's description)."""
    from gameplay.rules.checkers.pdn import write_fen
    return {"index": rec.index, "number": rec.index + 1, "tags": dict(rec.tags), "plies": rec.plies,
            "result": rec.result,
            "final_position": write_fen(rec.final) if rec.error is None and rec.final is not None else None,
            "warnings": list(rec.warnings), "error": str(rec.error) if rec.error is not None else None}


def record_line(rec: PDNRecord) -> str:
    """One game as a line of text: ``#12  Black - White  Event  Date  Result  51 plies`` (``#12``: the twelfth
    game, JSON ``number`` 12 and ``index`` 11)."""
    t = rec.tags
    who = f"{t.get('Black', '?')} - {t.get('White', '?')}"
    parts = [f"#{rec.index + 1}", who, t.get("Event", ""), t.get("Date", ""), rec.result,
             _count(rec.plies, "ply", "plies") + (" read" if rec.error is not None else "")]
    return "  ".join(p for p in parts if p)


def cmd_pdn(a: argparse.Namespace) -> int:
    from gameplay.cli.common import UsageError
    from gameplay.rules.base import quoted_path
    from gameplay.rules.checkers.pdn_archive import read_pdn_text
    from gameplay.rules.checkers.pdn_read import iter_records
    try:
        decoded = read_pdn_text(a.file)
    except OSError as e:
        raise UsageError(f"cannot read the PDN file {quoted_path(a.file)}: {e.strerror or e}") from None
    except ValueError as e:
        raise UsageError(f"cannot read the PDN file {quoted_path(a.file)}: {e}") from None
    text = decoded.text
    file_warnings = [decoded.warning] if decoded.warning is not None else []
    t0 = time.perf_counter()
    records = list(iter_records(text))
    elapsed = time.perf_counter() - t0
    good = sum(1 for r in records if r.error is None)
    if a.json:
        sys.stdout.write(json.dumps({"file": str(a.file), "encoding": decoded.encoding, "warnings": file_warnings,
                                     "games": [record_json(r) for r in records]}) + "\n")
    else:
        out = sys.stdout
        for w in file_warnings:
            out.write(f"{a.file}: warning: {w}\n")
        for r in records:
            out.write(record_line(r) + "\n")
            if r.error is not None:
                out.write(f"    error: {r.error}\n")
            for w in r.warnings:
                out.write(f"    warning: {w}\n")  # each names its own line and column
        warned = sum(1 for r in records if r.warnings)
        rate = f", {len(records) / elapsed:,.0f} games/s" if elapsed > 0 and records else ""
        out.write(f"{a.file}: {_count(len(records), 'game')}: {good:,} read, {len(records) - good:,} with an error, "
                  f"{warned:,} with warnings ({elapsed:.2f} s{rate})\n")
    if good == 0:
        from gameplay.cli.common import error_line
        why = f"the first problem: {records[0].error}" if records else "no game in it"
        error = UsageError(f"no game could be read from {quoted_path(str(a.file))} ({why})")
        sys.stderr.write(error_line(error) + "\n")
        return 2
    return 0


def _count(n: int, word: str, plural: str | None = None) -> str:
    """``1 game``, ``2 games``, ``1 ply``, ``3 plies``."""
    return f"{n:,} {word if n == 1 else (plural or word + 's')}"
