"""``main.py check FILE.py [--algorithm NAME] [--trees DIR] [--json]``: grade a student's own search (issue 26;
``../shared/CLI.md``; the grading is :mod:`ai.grader.exercise`).

The text output has a line per case (``ok`` or ``FAIL`` with the first difference), then a summary line; with
``--json`` one object::

    {"file": str, "passed": int, "failed": int, "printed_lines": int,
     "cases": [{"name": str, "algorithm": str, "ok": bool, "expected_move": str, "got_move": str | null,
                "expected_leaves": [number], "got_leaves": [number], "first_difference": str | null,
                "tree": tree JSON (a tree case) | "game": str, "position": str (a game position)}]}

Exit code 0 when every case passes, 1 when one differs (or fails: an exception, out of time or memory), 2 for a
file that cannot run (not found, a syntax error, none of the functions, module code that raises): one line naming
why. What the student's file prints never reaches standard output; its line count is reported.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ai.grader.exercise_cases import ALGORITHMS


def register(sub: Any) -> None:
    """Add the ``check`` subcommand to the CLI's subparsers."""
    sp = sub.add_parser("check", help="grade a student's minimax / alpha-beta / expectimax against the reference",
                        description="Grade a student's own search (minimax_decision(state, game), "
                                    "alphabeta_decision, expectimax_decision in FILE.py) against the reference "
                                    "on the course's trees, seeded random trees and small game positions: the "
                                    "action, the leaves in the order evaluated, the pruned subtrees. Exit 0 all "
                                    "pass, 1 a difference, 2 a file that cannot run. Templates: "
                                    "examples/exercises/.")
    sp.add_argument("file", metavar="FILE.py", help="the student's exercise file")
    sp.add_argument("--algorithm", choices=ALGORITHMS, default=None,
                    help="grade only this function (default: every one the file defines)")
    sp.add_argument("--trees", metavar="DIR", default=None,
                    help="also grade on the trees of this folder (each *.json file a Tree Lab tree)")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.set_defaults(func=cmd_check)


def cmd_check(a: argparse.Namespace) -> int:
    """Run the ``check`` subcommand."""
    from ai.grader.exercise import run_check
    from gameplay.cli.common import emit
    report = run_check(a.file, a.algorithm, a.trees)
    if report.output_lines:
        sys.stderr.write(f"(the file printed {report.output_lines:,} line{'s' if report.output_lines != 1 else ''}, "
                         "not shown)\n")
    if a.json:
        emit(report.to_json())
    else:
        width = max((len(c.name) for c in report.cases), default=0)
        for c in report.cases:
            mark = "ok  " if c.ok else "FAIL"
            line = f"{mark}  {c.algorithm:<10} {c.name:<{width}}"
            print(line.rstrip() if c.ok else f"{line.rstrip()}\n        {c.first_difference}")
        total = len(report.cases)
        print(f"{report.passed} of {total} cases passed" + (f", {report.failed} failed" if report.failed else ""))
    return 0 if report.failed == 0 else 1
