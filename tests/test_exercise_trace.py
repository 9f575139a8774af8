"""Both searches of a checked case as steps (ai/grader/exercise_trace.py, issue 26): a correct search's steps are the
reference's one for one; a faulty one parts where the grader says."""

from __future__ import annotations

from pathlib import Path

from ai.grader.exercise import run_check
from ai.grader.exercise_trace import first_difference, reference_trace, student_trace

EXERCISES = Path(__file__).parent / "data" / "exercises"


def test_a_correct_search_enters_the_reference_nodes_in_its_order() -> None:
    report = run_check(str(EXERCISES / "correct_all.py"))
    assert report.failed == 0
    for c in report.cases:
        assert c.case is not None
        mine = student_trace(c)
        ref = reference_trace(c.case.root, c.algorithm, c.case.prune)
        assert mine.steps == ref.steps, c.name
        assert [p for _, p in mine.leaves()] == [p for _, p in ref.leaves()]
        assert first_difference(c, mine, ref) is None


def test_a_search_that_prunes_too_little_parts_at_the_leaf_the_grader_names() -> None:
    report = run_check(str(EXERCISES / "ab_no_alpha_carry.py"), "alphabeta")
    c = report.cases[0]  # AIMA figure 5.2: leaf 4 under C is evaluated where the reference prunes it
    assert c.case is not None and not c.ok
    mine, ref = student_trace(c), reference_trace(c.case.root, c.algorithm, c.case.prune)
    d = first_difference(c, mine, ref)
    assert d is not None and d.student_path == (1, 1) and d.reference_path == (2, 0)
    assert d.student_step is not None and mine.steps[d.student_step].leaf
    assert "leaf 4 under C" in (c.first_difference or "")
    assert (1, 1) in ref.pruned and (1, 1) not in mine.pruned


def test_the_drawn_trees_carry_the_letters_the_sentences_name() -> None:
    """The side-by-side trees letter their inner nodes as the grader's sentences do ("leaf 4 under C")."""
    import pytest

    from ai.teaching.tree_names import lab_path_names
    from gameplay.rules.trees import parse_tree

    names = lab_path_names(None, parse_tree("[[3,12,8],[2,4,6],[14,5,2]]"))
    assert [names[p] for p in ((), (0,), (1,), (2,))] == ["A", "B", "C", "D"]
    assert names[(1, 1)] == "leaf 4"
    with pytest.raises(ValueError):
        lab_path_names(None)
