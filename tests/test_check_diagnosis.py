"""``main.py check`` names each typical mistake by the evidence of all a function's cases, and accepts aima-python's
names and interface (issue 47).

Each fault file in tests/data/exercises/ is a correct search with one mistake; it must fail with its own cause
named, and only that one. A file with two mistakes, or one that breaks the game's contract, gets no "likely cause".
Files written against aima-python's games.py (its names, arguments and Game interface) pass.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from ai.grader.exercise import CheckReport, grade, name_causes, reference
from ai.grader.exercise_cases import CUTOFF_CASES, FUNCTIONS, function_cases
from ai.grader.exercise_faults import FAULTS, candidates, diagnose, observe
from ai.grader.exercise_game import STOP_MESSAGES, Chance, RecordingGame, Stop, stop
from gameplay.cli.main import run
from gameplay.rules.trees import TEXTBOOK_TREES, parse_tree

DATA = Path(__file__).parent / "data" / "exercises"
ROOT = Path(__file__).resolve().parents[1]


def check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = run(["check", *args, "--json"])
    out, _ = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else {})


def description(key: str) -> str:
    return next(f.description for f in FAULTS if f.key == key)


FAULT_FILES = [
    ("ab_bounds_reset.py", "alphabeta_decision", "bounds-reset"),
    ("ab_never_prunes.py", "alphabeta_decision", "never-prunes"),
    ("ab_no_alpha_carry.py", "alphabeta_decision", "alpha-not-carried"),
    ("ab_gt.py", "alphabeta_decision", "strict-cutoff"),
    ("ab_ge_declared_gt.py", "alphabeta_decision", "non-strict-cutoff"),
    ("ab_swapped.py", "alphabeta_decision", "swapped"),
    ("mm_swapped.py", "minimax_decision", "swapped"),
    ("mm_returns_value.py", "minimax_decision", "returns-value"),
    ("ab_value_action.py", "alphabeta_decision", "value-action"),
    ("ex_mean.py", "expectimax_decision", "unweighted"),
    ("ex_double.py", "expectimax_decision", "divided-again"),
    ("aima_expect_divided.py", "expect_minmax", "divided-again"),
    ("aima_cutoff_depth0.py", "alpha_beta_cutoff_search", "depth-from-0"),
]


@pytest.mark.parametrize("name, function, key", FAULT_FILES)
def test_each_fault_file_fails_with_its_own_cause_named(capsys: pytest.CaptureFixture[str], name: str,
                                                       function: str, key: str) -> None:
    code, obj = check(capsys, str(DATA / name))
    assert code == 1 and obj["failed"] > 0
    assert obj["causes"] == {function: [{"key": key, "description": description(key)}]}
    mine = description(key)
    others = {f.description for f in FAULTS} - {mine}
    for c in obj["cases"]:
        if c["ok"]:
            continue
        assert c["first_difference"].endswith(f" (likely cause: {mine})"), c["first_difference"]
        assert c["first_difference"].count("likely cause") == 1
        assert not any(o in c["first_difference"] for o in others), c["first_difference"]


def test_the_issue_s_alpha_beta_is_not_called_swapped(capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's student: alpha and beta restarted at -inf/+inf in the recursive calls fails 10 of 17 cases; the
    cause named is that, never "MIN and MAX are swapped", which one case alone matched before."""
    code, obj = check(capsys, str(DATA / "ab_bounds_reset.py"))
    assert code == 1 and (obj["passed"], obj["failed"]) == (7, 10)
    assert not any("swapped" in (c["first_difference"] or "") for c in obj["cases"])
    run(["check", str(DATA / "ab_bounds_reset.py")])
    text = capsys.readouterr().out
    assert ("alphabeta_decision: likely cause of its 10 failing cases: alpha and beta are not passed down: each "
            "recursive call starts again at alpha = -inf, beta = +inf (on every case it finished") in text


def test_two_mistakes_at_once_are_not_guessed(capsys: pytest.CaptureFixture[str]) -> None:
    code, obj = check(capsys, str(DATA / "ab_two_faults.py"))
    assert code == 1 and obj["failed"] > 0
    assert obj["causes"] == {"alphabeta_decision": []}
    assert not any("likely cause" in (c["first_difference"] or "") for c in obj["cases"])
    run(["check", str(DATA / "ab_two_faults.py")])
    assert "alphabeta_decision: no typical mistake the grader knows explains all its cases" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["mutates.py", "mutates_root_after.py"])
def test_a_state_changed_in_place_is_named_as_such(capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, obj = check(capsys, str(DATA / name))
    assert code == 1 and obj["failed"] > 0 and obj["causes"] == {}
    for c in obj["cases"]:
        if not c["ok"]:
            d = c["first_difference"]
            assert "changed a state in place" in d or "changes a state in place" in d, d
            assert "likely cause" not in d and "game.(" not in d and "{" not in d


def test_a_state_changed_after_the_search_is_said_in_full(capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's unfilled sentence ("game.(after the search: the root) was given it as ...") is a whole one."""
    code, obj = check(capsys, str(DATA / "mutates_root_after.py"))
    ttt = next(c for c in obj["cases"] if c["name"].startswith("tic-tac-toe XOX.O...."))
    assert ttt["first_difference"] == (
        "your search changed a state in place: the root position was XOX.O.... and is 'XOX.O..X.' after your "
        "search returned; never change a state: game.result(state, action) returns a new one (leaves evaluated "
        "before: all 92 the same as the reference's)")
    assert all(c["ok"] for c in obj["cases"] if "game" not in c)  # a tree's states cannot be changed


def test_aima_pythons_own_expect_minmax_is_told_it_overwrites_the_chance_nodes_state(
        capsys: pytest.CaptureFixture[str]) -> None:
    """games4e.py's expect_minmax copied as it is: ``res_state = game.outcome(res_state, chance)`` inside the loop
    over the outcomes plays each outcome after the one before; every case stops there and says so (the sum it then
    divides by the number of outcomes again is named once the loop is right: aima_expect_divided.py)."""
    code, obj = check(capsys, str(DATA / "aima_expect_minmax_verbatim.py"))
    assert code == 1 and (obj["passed"], obj["failed"]) == (0, 7) and obj["causes"] == {}
    for c in obj["cases"]:
        assert c["first_difference"].startswith("game.outcome was given outcome 1 (p = "), c["first_difference"]
        assert "overwrites the chance node's state inside its loop over the outcomes" in c["first_difference"]


# ----- the diagnosis tells every fault apart ------------------------------------------------------------------------
def _function_for(algorithm: str, cutoff: bool) -> str:
    return next(f.name for f in FUNCTIONS.values() if f.algorithm == algorithm and f.cutoff == cutoff)


@pytest.mark.parametrize("algorithm, prune, cutoff", [
    ("minimax", "ge", False), ("alphabeta", "ge", False), ("alphabeta", "gt", False), ("alphabeta", "ge", True),
    ("expectimax", "ge", False)])
def test_the_cases_tell_every_fault_apart(algorithm: str, prune: str, cutoff: bool) -> None:
    """A search with one fault, as the game observes it on every built-in case, is diagnosed as that fault and no
    other; the right search as none."""
    cases = function_cases(FUNCTIONS[_function_for(algorithm, cutoff)], prune)
    assert diagnose([(c, observe(c, None)) for c in cases]) == []
    faults = candidates(algorithm, prune, cutoff)
    assert len(faults) >= 3
    for fault in faults:
        assert diagnose([(c, observe(c, fault)) for c in cases]) == [fault], fault.key


def test_the_right_simulation_is_the_reference() -> None:
    """The fault-free simulation evaluates the reference's leaves and picks its action on every built-in case (the
    simulations are the reference with one change)."""
    for f in FUNCTIONS.values():
        for case in function_cases(f, "ge"):
            seen, ref = observe(case, None), reference(case)
            assert list(seen.leaves) == ref.leaves and seen.answer[1] == ref.best, (f.name, case.name)


def test_every_fault_s_cause_is_written_after_each_failing_case() -> None:
    """The cause's sentence, rendered through the grading for every fault: its description, filled, after each
    case it explains."""
    for fault in FAULTS:
        function = FUNCTIONS[_function_for(fault.algorithm, bool(fault.deeper))]
        prune = "gt" if fault.key == "non-strict-cutoff" else "ge"
        cases = function_cases(function, prune)
        results = []
        for case in cases:
            seen = observe(case, fault)
            log = [("u", p) for p in seen.leaves]
            results.append(grade(case, reference(case), ("done", log, seen.answer, None)))
        report = CheckReport("x.py")
        name_causes(report, results)
        assert [c.key for c in report.causes[function.name]] == [fault.key]
        failing = [r.first_difference for r in results if not r.ok]
        assert failing, fault.key
        for text in failing:
            assert text is not None and text.endswith(f" (likely cause: {fault.description})")
            assert not re.search(r"[{}]|game\.\(|None", text), text


# ----- every sentence the game stops a search with is filled -------------------------------------------------------
def test_every_stop_message_is_filled() -> None:
    """Each of the game's sentences, brought about by a search that breaks the contract that way."""
    from ai.agents.profiles import game_for
    said: dict[str, str] = {}

    def expect(kind: str, action: Any) -> None:
        with pytest.raises(Stop) as e:
            action()
        said[kind] = str(e.value)

    tree = RecordingGame(tree=parse_tree(TEXTBOOK_TREES["AIMA figure 5.2 (3 / 12 / 8)"]))
    dice = RecordingGame(tree=parse_tree(f"[{TEXTBOOK_TREES['Expectimax (value 10)']}, 9]"))
    g = game_for("tictactoe")
    board = RecordingGame(game=g, position=g.parse_position("XOX.O...."))
    root, pos = tree.root, board.root
    expect("never given", lambda: tree.actions((5, 5)))
    expect("never given position", lambda: board.actions(list(pos)))
    expect("not a child", lambda: tree.result(root, 7))
    expect("not legal", lambda: board.result(pos, 0))
    expect("not a player", lambda: tree.utility(tree.result(tree.result(root, 0), 0), 2))
    expect("utility of an inner node", lambda: tree.utility(root, 0))
    expect("utility of a position not over", lambda: board.utility(pos, 0))
    expect("not a chance node", lambda: tree.chance_outcomes(root))
    chance = dice.result(dice.root, 0)
    expect("not its chance", lambda: dice.outcome(chance, Chance((1,), 0, 0.5)))
    first = dice.outcome(chance, dice.chances(chance)[0])
    expect("outcome of an outcome", lambda: dice.outcome(first, dice.chances(chance)[1]))
    expect("not a chance", lambda: dice.probability(0.5))
    expect("not a depth", lambda: tree.cutoff_test_for(1)(root, "1"))
    expect("evaluation of a position not over", lambda: board.eval_fn_for(3)(pos))
    moved = board.result(pos, 3)
    moved[0] = "O"
    expect("changed in place", lambda: board.is_terminal(moved))
    pos[5] = "X"
    expect("root changed in place", board.check_root)
    assert set(said) == set(STOP_MESSAGES)
    for kind, text in said.items():
        assert not re.search(r"[{}]|game\.\(|None", text), (kind, text)
        assert text.startswith(("game.", "your search", "cutoff_test", "eval_fn")), (kind, text)
    assert said["changed in place"].startswith("your search changed a state in place: the position after 3 was "
                                               "XOXXO...., and game.is_terminal was given it as 'OOXXO....'")
    with pytest.raises(ValueError, match="blanks"):
        stop("not a child", action="1")


# ----- aima-python's names and interface --------------------------------------------------------------------------
@pytest.mark.parametrize("name, functions", [
    ("aima_games.py", ["minmax_decision", "alpha_beta_search", "alpha_beta_cutoff_search", "expect_minmax"]),
    ("aima_games_2016.py", ["minimax_decision", "alphabeta_search", "alphabeta_cutoff_search", "expectiminimax"]),
])
def test_aima_python_style_files_pass(capsys: pytest.CaptureFixture[str], name: str, functions: list[str]) -> None:
    """Searches written against aima-python's games.py, with its names (today's and before 2019), its arguments
    (the cut-off search's d, cutoff_test and eval_fn) and its Game interface (terminal_test; chances, outcome,
    probability; state.to_move) pass every case: minimax, alpha-beta, alpha-beta cut off, expectiminimax."""
    code, obj = check(capsys, str(DATA / name))
    assert code == 0, [c["first_difference"] for c in obj["cases"] if not c["ok"]]
    assert [f for f in dict.fromkeys(c["function"] for c in obj["cases"])] == functions
    assert obj["causes"] == {}
    cutoff = [c for c in obj["cases"] if "d" in c]
    assert {c["function"] for c in cutoff} == {functions[2]}
    cut = {c["name"]: c for c in cutoff if "cut off" in c["name"]}
    assert list(cut) == [n for n, _, _ in CUTOFF_CASES]
    fig = cut["AIMA figure 5.2 cut off at d = 0"]
    assert fig["d"] == 0 and fig["got_leaves"] == fig["expected_leaves"] == [7.67, 4, 7]  # the means below B, C, D
    assert cut["Two-level prune cut off at d = 1"]["expected_pruned"] == [[1, 1]]


def test_the_issue_s_aima_python_names_are_accepted(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A file defining only alphabeta_search(state, game) is graded (the issue: it was refused)."""
    src = (DATA / "aima_games_2016.py").read_text()
    f = tmp_path / "mine.py"
    f.write_text(src[:src.index("def alphabeta_cutoff_search")])
    code, obj = check(capsys, str(f), "--algorithm", "alphabeta")
    assert code == 0 and {c["function"] for c in obj["cases"]} == {"alphabeta_search"} and obj["passed"] == 17


def test_a_cut_off_search_must_take_aima_python_s_arguments(capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    f = tmp_path / "short.py"
    f.write_text("def alpha_beta_cutoff_search(state, game):\n    return 0\n")
    assert run(["check", str(f)]) == 2
    assert capsys.readouterr().err.strip() == (
        "error: exercise file short.py: alpha_beta_cutoff_search must take (state, game, d, cutoff_test, eval_fn), "
        "as aima-python's does; it takes (state, game)")


def test_the_docs_list_the_faults_and_the_names() -> None:
    text = " ".join((ROOT / "docs" / "teaching.md").read_text().split())
    for name in FUNCTIONS:
        assert f"`{name}" in text, name
    for fault in FAULTS:
        assert f"`{fault.key}`" in text, fault.key
