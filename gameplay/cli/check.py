"""``main.py check FILE.py [--algorithm NAME] [--trees DIR] [--json]``: grade a student's own search (issue 26;
``../shared/CLI.md``; the grading is :mod:`ai.grader.exercise`).

The text output has a line per case (``ok`` or ``FAIL`` with the first difference), then a summary line; with
``--json`` one object::

    {"file": str, "passed": int, "failed": int, "printed_lines": int,
     "cases": [{"name": str, "algorithm": str, "function": str, "ok": bool, "expected_move": str,
                "got_move": str | null, "expected_leaves": [number], "got_leaves": [number],
                "first_difference": str | null, "expected_pruned": [[int]], "got_pruned": [[int]],
                "d": int (a cut-off search's depth, only for one),
                "tree": tree JSON (a tree case) | "game": str, "position": str (a game position)}],
     "causes": {function: [{"key": str, "description": str}]}}

``causes`` has each function with a failing case: the typical mistakes that explain every one of its cases (an
empty list when none does). In the text output, a function with failing cases ends with a line naming them.

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
                                    "alphabeta_decision, expectimax_decision in FILE.py, or aima-python's "
                                    "minmax_decision, alpha_beta_search, alpha_beta_cutoff_search, "
                                    "expect_minmax and their older spellings) against the reference "
                                    "on the course's trees, seeded random trees and small game positions: the "
                                    "action, the leaves in the order evaluated, the pruned subtrees. Exit 0 all "
                                    "pass, 1 a difference, 2 a file that cannot run. Templates: "
                                    "examples/exercises/.")
    sp.add_argument("file", metavar="FILE.py", help="the student's exercise file")
    sp.add_argument("--algorithm", choices=ALGORITHMS, default=None,
                    help="grade only this algorithm's functions (default: every one the file defines)")
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
        labels = {c.function: _label(c.function, c.algorithm) for c in report.cases}
        column = max([10, *(len(t) for t in labels.values())])
        for i, c in enumerate(report.cases):
            mark = "ok  " if c.ok else "FAIL"
            line = f"{mark}  {labels[c.function]:<{column}} {c.name:<{width}}"
            print(line.rstrip() if c.ok else f"{line.rstrip()}\n        {c.first_difference}")
            last = i + 1 == len(report.cases) or report.cases[i + 1].function != c.function
            if last and c.function in report.causes:
                failed = sum(1 for r in report.cases if r.function == c.function and not r.ok)
                print(_cause_line(c.function, failed, report.causes[c.function]))
        total = len(report.cases)
        print(f"{report.passed} of {total} cases passed" + (f", {report.failed} failed" if report.failed else ""))
    return 0 if report.failed == 0 else 1


def _label(function: str, algorithm: str) -> str:
    """The case lines' column: the algorithm (``alphabeta``) for the course's function name, else the function's
    own (``alpha_beta_search``)."""
    from ai.grader.exercise_cases import FUNCTION_OF
    return algorithm if FUNCTION_OF[algorithm] == function else function


def _cause_line(function: str, failed: int, causes: list[Any]) -> str:
    """``alphabeta_decision: likely cause of its 10 failing cases: ...``, or that no typical mistake explains
    them."""
    cases = f"its {failed} failing case{'s' if failed != 1 else ''}"
    if not causes:
        return f"{function}: no typical mistake the grader knows explains all its cases"
    return (f"{function}: likely cause of {cases}: {'; or '.join(c.description for c in causes)} (on every case "
            "it finished, your search evaluates the same leaves and returns the same as the reference with that "
            "mistake)")
