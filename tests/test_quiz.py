"""Predict the next step (ai.teaching.quiz): every question's right answer is what the narration of that step says."""

from __future__ import annotations

import re
from typing import Any

import pygame
import pytest

from ai.kernel.recording import SearchTree
from ai.teaching.decision_tree import record_decision_model
from ai.teaching.narration import narration
from ai.teaching.quiz import NO, PRUNE, UPDATE, VALUE, VISIT, YES, QuizRun, questions
from ai.teaching.trace import step_events
from ai.teaching.treelab import parse_tree_agent, search_tree
from gameplay.rules.trees import TreeNode, parse_tree

COURSE = "[[[2,3],[5,9]],[[0,1],[7,5]]]"
"""The course material's worked example ("Working of Alpha-Beta Pruning")."""
AIMA = "[[3,12,8],[2,4,6],[14,5,2]]"
"""AIMA figure 5.2."""


def lab(spec: str, agent: str = "alphabeta") -> tuple[SearchTree, TreeNode]:
    root = parse_tree(spec)
    return search_tree(root, parse_tree_agent(agent)).tree, root


def check_against_narration(tree: SearchTree, root: TreeNode | None) -> dict[str, int]:
    """Every question agrees with its step's sentence; returns how many of each kind there were."""
    qs = questions(tree, root)
    sentences = narration(tree, root)
    assert len(qs) == len(sentences) == len(step_events(tree))
    kinds: dict[str, int] = {}
    for i, (q, s) in enumerate(zip(qs, sentences)):
        if q is None:
            continue
        kinds[q.kind] = kinds.get(q.kind, 0) + 1
        assert q.step == i and q.reveal == s
        assert 2 <= len(q.choices) <= 4 and len(set(q.choices)) == len(q.choices), q
        a = q.answer_text
        if q.kind == VISIT:  # the node entered is the one the sentence goes down to / reaches
            name, _, place = a.partition(" (")  # twin leaves are told apart by their place: "leaf 2 (left child)"
            assert re.match(rf"(Go down from .+? to|Reach|Search|Test) {re.escape(name)}\b", s), (a, s)
            assert place.rstrip(")") in s, (a, s)
        elif q.kind == VALUE:  # the value backed up, as the sentence states it
            own = s.split("; at ")[0]  # "E (MAX) = max(5, ...) = at least 5 ...", "... fails high (value at least 16)"
            m = re.search(r"(?:\) = |^\S+ \S+ = |value |the tree is |the position is )(?!max\(|min\()"
                          r"(at least \S+|at most \S+|[^,;:( ]+)", own)
            assert m is not None and m.group(1).rstrip(".,):") == a, (a, s)
        elif q.kind == PRUNE:
            assert (a == YES) == ("pruned" in s), (a, s)
            assert a in (YES, NO)
        elif q.kind == UPDATE:  # alpha / beta / the best value so far after the update
            assert re.search(rf"(\) = |so far is ){re.escape(a)}(\.|,|$| >=)", s), (a, s)
    return kinds


@pytest.mark.parametrize("spec", [COURSE, AIMA])
def test_course_examples_alphabeta_answers_equal_the_narration(spec: str) -> None:
    kinds = check_against_narration(*lab(spec))
    assert set(kinds) == {VISIT, VALUE, PRUNE, UPDATE}


def test_course_example_asks_about_the_pruning_and_the_values() -> None:
    tree, root = lab(COURSE)
    qs = [q for q in questions(tree, root) if q is not None]
    pruned = [q.prompt for q in qs if q.kind == PRUNE and q.answer_text == YES]
    assert pruned == ["Leaf 5 returns 5: is the rest of E pruned?"]
    values = {q.prompt: q.answer_text for q in qs if q.kind == VALUE}
    assert values["What value does E (MAX) back up?"] == "at least 5"
    assert values["What value does C (MIN) back up?"] == "at most 1"
    assert values["What is the value of the tree?"] == "3"
    visit = next(q for q in qs if q.kind == VISIT and "leaf 9" in q.choices)
    assert visit.answer_text == "leaf 5"


@pytest.mark.parametrize("agent", ["minimax", "alphabeta:prune=gt", "alphabeta:ordering=on"])
def test_other_agents_on_the_examples(agent: str) -> None:
    for spec in (COURSE, AIMA, "[[2,2],[1,[4,4,1]]]"):
        check_against_narration(*lab(spec, agent))


@pytest.mark.parametrize("game,position,agent", [("tictactoe", None, "alphabeta:depth=3"),
                                                 ("tictactoe", None, "minimax:depth=2")])
def test_game_trees(game: str, position: str | None, agent: str) -> None:
    _, _, result, rec = record_decision_model(game, position, agent)
    kinds = check_against_narration(rec.snapshot(tuple(result.pv)), None)
    assert kinds.get(VISIT, 0) > 0 and kinds.get(VALUE, 0) > 0


def test_seeded_choices_are_the_same_quiz_twice() -> None:
    tree, root = lab(AIMA)
    assert questions(tree, root, seed=3) == questions(tree, root, seed=3)


def test_run_poses_answers_and_scores() -> None:
    tree, root = lab(COURSE)
    run = QuizRun(questions(tree, root))
    step: int | None = None
    assert run.forward(step) == 0  # entering the root asks nothing
    step = 0
    assert run.forward(step) is None and run.pending is not None and run.pending.step == 1
    run.move(1)
    run.move(1)  # wraps round the two choices
    assert run.highlight == 0
    assert run.commit() == 1 and run.right == 1 and run.asked == 1
    step = 1
    q = run.questions[2]
    assert q is not None
    assert run.forward(step) is None
    assert run.answer(1 - q.answer) == 2 and run.right == 1 and run.asked == 2
    assert run.verdict == (q, 1 - q.answer)
    assert run.forward(0) == 1  # an answered step is not asked again
    assert run.forward(None) == 0
    assert run.forward(2) is None and run.withdraw() and run.pending is None
    assert run.forward(len(run.questions) - 1) is None and run.pending is None


# -- the window: the Tree Lab's presenter view answered with a clicker's keys ----------------------------------------
def _press(app: Any, k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0))
    app.run(max_frames=2)


@pytest.mark.parametrize("spec", [COURSE, AIMA])
def test_presenter_view_clicker_walks_the_whole_example(make_app: Any, spec: str) -> None:
    """Page Up moves the highlight, Page Down answers and goes on: every question of the example is posed in
    order, its step is shown with its sentence once answered, and the score counts the right and wrong answers."""
    from gameplay.ui.scenes.treelab_scene import TreeLabScene

    app = make_app((1024, 768))
    scene = TreeLabScene(tree=spec)
    app.push(scene)
    app.run(max_frames=2)
    _press(app, pygame.K_p)
    ov = scene.overlay
    assert ov.presenter
    _press(app, pygame.K_q)
    assert ov.quiz.on and ov.quiz.run is not None
    expected = [q for q in ov.quiz.run.questions if q is not None]
    tree, root = lab(spec)
    assert [q.reveal for q in expected] == [q.reveal for q in questions(tree, root, symbols="unicode") if q is not None]
    right = wrong = 0
    posed = []
    for _ in range(200):
        run = ov.quiz.run
        assert run is not None
        if ov.step == len(ov.events) - 1:
            break
        _press(app, pygame.K_PAGEDOWN)
        q = run.pending
        if q is None:  # a step that asks nothing: it is shown
            continue
        posed.append(q)
        assert ov.step == q.step - 1 if q.step else ov.step is None
        pick = q.answer if len(posed) % 3 else (q.answer + 1) % len(q.choices)  # every third answered wrong
        for _ in range((run.highlight - pick) % len(q.choices)):
            _press(app, pygame.K_PAGEUP)
        assert run.highlight == pick
        _press(app, pygame.K_PAGEDOWN)
        right, wrong = right + (pick == q.answer), wrong + (pick != q.answer)
        assert run.pending is None and ov.step == q.step
        assert ov.narrated_step().text == q.reveal
        assert (run.right, run.asked) == (right, right + wrong)
    assert posed == expected and wrong > 0 and right > 0
    surface = pygame.display.get_surface()
    assert ov.quiz_rect.height > 0 and ov.quiz_rect.bottom <= ov.narration_rect.top <= surface.get_height()


def test_keys_one_to_four_and_taking_a_question_back(make_app: Any) -> None:
    from gameplay.ui.scenes.treelab_scene import TreeLabScene

    app = make_app((1280, 800))
    scene = TreeLabScene(tree=AIMA)
    app.push(scene)
    app.run(max_frames=2)
    ov = scene.overlay
    _press(app, pygame.K_q)
    _press(app, pygame.K_PAGEDOWN)  # step 1: entering the root asks nothing
    _press(app, pygame.K_PAGEDOWN)
    run = ov.quiz.run
    assert run is not None and run.pending is not None and run.pending.choices == ("B", "C", "D")
    _press(app, pygame.K_LEFT)  # taken back: the first step stays shown
    assert run.pending is None and ov.step == 0
    _press(app, pygame.K_RIGHT)
    _press(app, pygame.K_2)  # C: wrong
    assert ov.step == 1 and (run.right, run.asked) == (0, 1)
    ov.press("quiz")  # the bar's button turns it off; the step keys step again
    assert not ov.quiz.on
    _press(app, pygame.K_PAGEDOWN)
    assert ov.step == 2


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_with_the_quiz_on_every_step_stays_in_view(size: tuple[int, int]) -> None:
    """The band takes its room from the canvas: at every step of the course example, windowed and presenter, what the
    sentence is about is still wholly in view (the projector walk's checks), the band keeps its full height, and every
    question's choices lie inside it."""
    from test_projector_walk import walk_steps

    from gameplay.ui.overlay.overlay_draw import wrap
    from gameplay.ui.overlay.overlay_quiz import box_height, choice_rows
    from gameplay.ui.shell.app import App

    app = App(size=size, fps=1000)
    surface = pygame.display.get_surface()
    problems: list[str] = []
    try:
        lab = app.open_tree_lab()
        assert lab.load_preset("Two-level prune (value 3)")
        ov = lab.overlay
        ov.quiz.toggle(ov)
        for presenter in (False, True):
            ov.set_presenter(presenter)
            app.run(max_frames=1)
            problems += walk_steps(ov, surface, f"{size} quiz{' presenter' if presenter else ''}")
            band = ov.quiz_rect
            assert band.height == ov.quiz.height(ov, band.width) > 0
            assert ov.canvas_rect.bottom <= band.top and band.bottom <= ov.narration_rect.top + 1
            f = ov.quiz.font(ov)
            run = ov.quiz.run
            assert run is not None
            for q in run.questions:
                if q is None:
                    continue
                rows = choice_rows(q, f, band.width)
                lines = min(2, len(wrap(q.prompt, f, band.width - 28)))  # as QuizMode.draw sets it
                top = band.y + 6 + f.get_height() * (1 + lines) + 4
                for row in rows:
                    for i, x, w in row:
                        assert band.x + x + w <= band.right and w >= f.size(q.choices[i])[0]
                assert top + len(rows) * (box_height(f) + 6) <= band.bottom + 1
    finally:
        app.close()
    assert not problems, "\n".join(problems[:20])
