"""``main.py check``: a student's search graded against the reference (issue 26).

The correct searches (tests/data/exercises/correct_all.py) are written from the course's pseudocode; each typical
fault is its own file there, and each must fail with its first difference named in words.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ai.grader.exercise import reference, run_check
from ai.grader.exercise_cases import ALGORITHMS, builtin_cases
from ai.grader.exercise_faults import FAULTS
from gameplay.cli.main import run
from gameplay.rules.trees import parse_tree

DATA = Path(__file__).parent / "data" / "exercises"
TEMPLATES = Path(__file__).resolve().parents[1] / "examples" / "exercises"


def check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any], str]:
    """Run ``main.py check ARGS --json``: (exit code, the JSON object or {}, standard error)."""
    code = run(["check", *args, "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else {}), err


def differences(obj: dict[str, Any]) -> list[str]:
    return [c["first_difference"] for c in obj["cases"] if not c["ok"]]


@pytest.mark.parametrize("name", ["correct_all.py", "correct_aima4.py"])
def test_correct_searches_pass_every_case(capsys: pytest.CaptureFixture[str], name: str) -> None:
    """AIMA 3rd edition's figures, and its 4th edition's style returning (action, value) (the value is graded)."""
    code, obj, _ = check(capsys, str(DATA / name))
    assert code == 0, differences(obj)
    assert obj["failed"] == 0 and obj["passed"] == len(obj["cases"])
    assert {c["algorithm"] for c in obj["cases"]} == set(ALGORITHMS)
    assert any("game" in c for c in obj["cases"]) and any("tree" in c for c in obj["cases"])
    for c in obj["cases"]:
        assert c["got_move"] == c["expected_move"] and c["got_leaves"] == c["expected_leaves"]


def test_a_wrong_root_value_is_told(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """(action, value) with the right action and a wrong value: the value is the first difference."""
    src = (DATA / "correct_aima4.py").read_text().replace("    return move, value\n", "    return move, value + 1\n")
    f = tmp_path / "off_by_one.py"
    f.write_text(src)
    code, obj, _ = check(capsys, str(f), "--algorithm", "minimax")
    assert code == 1
    assert differences(obj)[0] == "your minimax returned the root value 4; the reference's is 3"


def test_a_search_out_of_memory_loses_its_case() -> None:
    src = "def minimax_decision(state, game):\n    hog = [0] * (10 ** 10)\n    return 0\n"
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "hog.py"
        f.write_text(src)
        report = run_check(str(f))
    assert report.cases[0].first_difference is not None
    assert report.cases[0].first_difference.startswith("your minimax ran out of memory: MemoryError")
    assert report.cases[1].first_difference == ("not run: minimax_decision ran out of memory on case "
                                                "'AIMA figure 5.2 (3 / 12 / 8)'")


def test_the_reference_is_the_course_s(capsys: pytest.CaptureFixture[str]) -> None:
    """The course's worked tree: alpha-beta evaluates 3, 12, 8, 2, 14, 5, 2 and plays the first move."""
    case = next(c for c in builtin_cases("alphabeta") if c.name.startswith("AIMA figure 5.2"))
    ref = reference(case)
    assert [case.root.children[p[0]].children[p[1]].value for p in ref.leaves] == [3, 12, 8, 2, 14, 5, 2]
    assert ref.best == 0 and ref.value == 3


def test_alpha_not_carried_across_the_root(capsys: pytest.CaptureFixture[str]) -> None:
    code, obj, _ = check(capsys, str(DATA / "ab_no_alpha_carry.py"))
    assert code == 1
    first = differences(obj)[0]
    assert first.startswith("your alpha-beta evaluated leaf 4 under C (your leaf 5); the reference prunes it: "
                            "at C (MIN) alpha = 3 >= beta = 2")
    assert "alpha is not carried across the root's children" in first


def test_strict_cutoff_caught_at_a_tie(capsys: pytest.CaptureFixture[str]) -> None:
    code, obj, _ = check(capsys, str(DATA / "ab_gt.py"))
    assert code == 1
    tie = next(c for c in obj["cases"] if c["name"] == "tie at a cut-off")
    assert tie["first_difference"].startswith("your alpha-beta evaluated leaf 9 under C (your leaf 4); the "
                                              "reference prunes it: at C (MIN) alpha = 3 >= beta = 3")
    assert tie["got_leaves"] == [3, 5, 3, 9] and tie["expected_leaves"] == [3, 5, 3]
    assert tie["expected_pruned"] == [[1, 1]] and tie["got_pruned"] == []
    assert any(d.endswith("(likely cause: it prunes only when alpha > beta; the course prunes when alpha >= beta)")
               for d in differences(obj))


def test_strict_cutoff_declared_is_graded_by_its_rule(capsys: pytest.CaptureFixture[str]) -> None:
    code, obj, _ = check(capsys, str(DATA / "ab_gt_declared.py"))
    assert code == 0, differences(obj)


def test_returning_the_value_instead_of_the_action(capsys: pytest.CaptureFixture[str]) -> None:
    code, obj, _ = check(capsys, str(DATA / "mm_returns_value.py"))
    assert code == 1 and obj["passed"] == 0
    first = obj["cases"][0]
    assert first["first_difference"] == ("your minimax returned 3, the root's value, not an action; return the "
                                         "action (the reference plays 0 (B), worth 3) (likely cause: it returns the "
                                         "root's value, not the action)")
    assert first["got_move"] is None and first["expected_move"] == "0"


@pytest.mark.parametrize("name, word", [("mm_swapped.py", "minimax"), ("ab_swapped.py", "alpha-beta")])
def test_min_and_max_swapped_below_the_root(capsys: pytest.CaptureFixture[str], name: str, word: str) -> None:
    code, obj, _ = check(capsys, str(DATA / name))
    assert code == 1
    assert all(d.endswith("(likely cause: MIN and MAX are swapped below the root)") for d in differences(obj)
               if "tic-tac-toe" not in d and "after" not in d and "likely" in d)
    assert any("MIN and MAX are swapped below the root" in d for d in differences(obj))
    if word == "minimax":
        assert differences(obj)[0].startswith("your minimax chose 2 (D); the reference chooses 0 (B), worth 3; "
                                              "2 (D) is worth 2")
    else:  # the example: the swapped MAX node E keeps the leaf the reference prunes
        two = next(c for c in obj["cases"] if c["name"].startswith("Two-level prune"))
        assert two["first_difference"].startswith("your alpha-beta evaluated leaf 9 under E (your leaf 4); the "
                                                  "reference prunes it: at E (MAX) alpha = 5 >= beta = 3")


@pytest.mark.parametrize("name, cause", [
    ("ex_mean.py", "it averages the outcomes without their probabilities"),
    ("ex_double.py", "it divides the probability-weighted sum by the number of outcomes again"),
])
def test_expectimax_probability_faults(capsys: pytest.CaptureFixture[str], name: str, cause: str) -> None:
    code, obj, _ = check(capsys, str(DATA / name))
    assert code == 1
    course = obj["cases"][0]
    assert course["first_difference"].startswith("your expectimax chose 1 (leaf 9); the reference chooses 0 (B), "
                                                 "worth 10; 1 (leaf 9) is worth 9")
    assert all(cause in d for d in differences(obj))


def test_a_search_that_mutates_the_state(capsys: pytest.CaptureFixture[str]) -> None:
    code, obj, _ = check(capsys, str(DATA / "mutates.py"))
    assert code == 1 and obj["passed"] == 0
    ttt = next(c for c in obj["cases"] if c["name"].startswith("tic-tac-toe XOX.O...."))
    assert ttt["first_difference"].startswith("your search changed a state in place: the root position was "
                                              "XOX.O...., and game.is_terminal was given it as 'XOXXO....'")
    tree = obj["cases"][0]
    assert "'TreeState' object does not support item assignment" in tree["first_difference"]  # a tuple
    assert tree["first_difference"].endswith("; your search changes a state in place: game.result(state, action) "
                                             "gives the next one")


def test_a_state_the_game_never_gave(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Building the next state by hand (a tree's path + (a,)) instead of game.result is told."""
    src = (DATA / "correct_all.py").read_text().replace("min_value(game.result(s, a))", "min_value(s + (a,))")
    f = tmp_path / "by_hand.py"
    f.write_text(src)
    code, obj, _ = check(capsys, str(f), "--algorithm", "minimax")
    assert code == 1
    two = next(c for c in obj["cases"] if c["name"].startswith("Two-level prune"))
    assert two["first_difference"] == ("game.is_terminal was given '(0, 0, 0)', a state the game never gave your "
                                       "search; make states only with game.result(state, action) (leaves "
                                       "evaluated before: none yet)")


def test_a_crash_is_named_with_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, obj, _ = check(capsys, str(DATA / "crashes.py"))
    assert code == 1
    assert differences(obj)[0] == ("your minimax crashed after 0 leaves: TypeError: unsupported operand type(s) "
                                   "for /: 'int' and 'NoneType' (crashes.py, line 6)")


def test_a_loop_loses_only_its_own_check() -> None:
    looping = run_check(str(DATA / "loops.py"), limit_s=1.0)
    assert looping.passed == 0
    assert looping.cases[0].first_difference == ("your minimax ran out of time: no answer within 1 s (does the "
                                                 "search end?)")
    assert all(c.first_difference == "not run: minimax_decision ran out of time on case 'AIMA figure 5.2 (3 / 12 / 8)'"
               for c in looping.cases[1:])
    after = run_check(str(DATA / "correct_all.py"), "minimax")
    assert after.failed == 0 and after.passed > 0


def test_flooding_output_stays_out_of_the_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, obj, err = check(capsys, str(DATA / "floods.py"))
    assert code == 0 and obj["failed"] == 0
    assert obj["printed_lines"] > 100_000
    assert "printed" in err and "visiting" not in err


def test_a_file_that_cannot_run_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, obj, err = check(capsys, str(DATA / "load_fails.py"))
    assert code == 2 and obj == {}
    assert err.strip() == ("error: exercise file load_fails.py cannot run: loading failed: ModuleNotFoundError: "
                           "No module named 'this_module_does_not_exist' (load_fails.py, line 3)")
    bad = tmp_path / "bad.py"
    bad.write_text("def minimax_decision(state, game)\n    return 0\n")
    code, _, err = check(capsys, str(bad))
    assert code == 2 and "syntax error on line 1" in err and len(err.strip().splitlines()) == 1
    none = tmp_path / "none.py"
    none.write_text("def search(state, game):\n    return 0\n")
    code, _, err = check(capsys, str(none))
    assert code == 2 and "defines none of minimax_decision(state, game), minmax_decision(state, game)" in err
    assert "alpha_beta_cutoff_search(state, game, d, cutoff_test, eval_fn)" in err
    code, _, err = check(capsys, str(DATA / "crashes.py"), "--algorithm", "alphabeta")
    assert code == 2 and "defines no alpha-beta function (alphabeta_decision(state, game), " in err
    assert err.strip().endswith("it defines minimax_decision(state, game)")


@pytest.mark.parametrize("name", ["minimax.py", "alphabeta.py", "expectimax.py"])
def test_templates_say_not_written_yet(capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, obj, _ = check(capsys, str(TEMPLATES / name))
    assert code == 1 and obj["passed"] == 0
    assert all(d.startswith("not written yet: ") for d in differences(obj))


def test_teachers_trees_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "a_mine.json").write_text("[[1,7],[6,2],[5,5]]")
    (tmp_path / "b_dice.json").write_text('[{"chance": [[0.25, 4], [0.75, 0]]}, 2]')
    code, obj, _ = check(capsys, str(DATA / "correct_all.py"), "--trees", str(tmp_path))
    assert code == 0
    mine = [c for c in obj["cases"] if c["name"] == "a_mine.json"]
    assert {c["algorithm"] for c in mine} == {"minimax", "alphabeta"}
    assert mine[1]["expected_leaves"] == [1, 7, 6, 2, 5, 5] and mine[1]["expected_move"] == "2"
    dice = [c for c in obj["cases"] if c["name"] == "b_dice.json"]
    assert [c["algorithm"] for c in dice] == ["expectimax"] and dice[0]["expected_move"] == "1"
    code, _, err = check(capsys, str(DATA / "correct_all.py"), "--trees", str(tmp_path / "missing"))
    assert code == 2 and "is not a folder" in err


def test_fault_simulations_differ_from_the_reference() -> None:
    """Each simulated fault differs from the right search on some built-in case (so it can be named)."""
    from ai.grader.exercise_cases import FUNCTIONS, function_cases
    from ai.grader.exercise_faults import matches, observe
    for fault in FAULTS:
        prune = "gt" if fault.key == "non-strict-cutoff" else "ge"
        name = "alpha_beta_cutoff_search" if fault.deeper else next(
            f for f in FUNCTIONS.values() if f.algorithm == fault.algorithm).name
        cases = function_cases(FUNCTIONS[name], prune)
        assert any(not matches(None, case, observe(case, fault)) for case in cases), fault.description


def test_random_cases_are_seeded() -> None:
    a = [c.root for c in builtin_cases("alphabeta")]
    b = [c.root for c in builtin_cases("alphabeta")]
    assert a == b
    assert parse_tree("[[3,5],[3,9]]") in a
