"""The search-tree view as a model and a painter (issue 24, item 3).

The model of what the view shows at a step (:mod:`gameplay.pictures.step_view`) is pygame-free; the window's
painter draws exactly that model; the tree's layout and picture are built by small functions; no overlay module
reaches into another object's private attributes, and ``gameplay.ui.overlay.overlay`` re-exports nothing private.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from ai.kernel.recording import SearchTree
from ai.teaching.decision_model import MinimaxCount, TreeInfo
from ai.teaching.narration import narration_steps
from ai.teaching.trace import step_events
from ai.teaching.tree_names import node_names
from ai.teaching.treelab import TreeSettings, search_tree
from gameplay.pictures.step_view import StepStory
from gameplay.pictures.tidy import tidy_x
from gameplay.rules.trees import TEXTBOOK_TREES, parse_tree
from gameplay.ui.overlay import overlay_canvas, overlay_view
from gameplay.ui.overlay.overlay import TreeOverlay
from gameplay.ui.overlay.overlay_draw import chrome

ROOT = Path(__file__).resolve().parent.parent
TWO_LEVEL = "Two-level prune (value 3)"
VIEW_MODULES = sorted({*ROOT.glob("gameplay/ui/overlay/overlay*.py"), *ROOT.glob("gameplay/pictures/*.py"),
                       *(ROOT / p for p in ("gameplay/ui/overlay/mcts_overlay.py", "gameplay/pictures/tree_png.py",
                                            "gameplay/ui/shell/shot.py", "gameplay/cli/shot.py",
                                            "gameplay/pictures/tree_layout.py",
                                            "gameplay/pictures/tree_picture.py", "gameplay/pictures/tree_export.py",
                                            "gameplay/pictures/mcts_picture.py"))})
"""The modules of the tree view and its pictures (where the rules below hold)."""


def tree_of(preset: str) -> SearchTree:
    return search_tree(parse_tree(TEXTBOOK_TREES[preset]), TreeSettings("alphabeta")).tree


def overlay(tree: SearchTree) -> TreeOverlay:
    pygame.font.init()
    ov = TreeOverlay(whole=True)
    ov.set_rect(pygame.Rect(0, 0, 1400, 980))
    ov.set_tree(tree, TreeInfo("lab", minimax=MinimaxCount(13, True, "exact")))
    ov.show()
    return ov


# -- the model ------------------------------------------------------------------------------------------------
def test_the_step_model_says_what_the_canvas_shows_and_the_painter_draws_exactly_it() -> None:
    tree = tree_of(TWO_LEVEL)
    ov = overlay(tree)
    by_name = {v: k for k, v in node_names(tree).items()}
    ov.go_to_step(next(i for i, e in enumerate(ov.events) if e.node == by_name["E"] and not e.leaving))
    surface = pygame.Surface(ov.rect.size)
    ov.draw(surface)
    model = ov.step_view()
    assert model is not None
    # the path from the root to the step's node, the node framed, its words and the sentence
    assert [node_names(tree)[i] for i in model.path] == ["A", "B", "E"]
    assert model.framed == by_name["E"] and not model.hidden
    assert model.callout.startswith("entering E ")
    assert model.narration.startswith(f"Step {ov.step + 1} of {len(ov.events)}: ")
    assert (model.zoom, model.offset, model.canvas) == (ov.zoom, ov.offset, ov.canvas_rect.size)
    # the painter draws the model: the same pixels as the overlay's own canvas
    again = pygame.Surface(ov.canvas_rect.size)
    placed = overlay_canvas.paint(again, model, ov.hits, background="#FFFFFF",
                                  callout_font=overlay_canvas.callout_font(ov))
    assert ov.canvas_cache.surface is not None and placed == ov.callout_rect
    assert pygame.image.tobytes(again, "RGB") == pygame.image.tobytes(ov.canvas_cache.surface, "RGB")
    # ... with the step's node framed in the frame's colour
    frame = next(r for r, it in ov.hits if it.node is not None and it.node.id == by_name["E"]).inflate(26, 26)
    assert again.get_at((frame.centerx, frame.top + 1))[:3] == chrome().current
    # the items reported (shot --json) are the model's
    assert overlay_view.drawn_nodes(ov) == model.drawn_items()
    assert all(inside for _, _, inside in model.drawn_items())


def test_the_finished_search_frames_nothing() -> None:
    ov = overlay(tree_of(TWO_LEVEL))
    ov.finish()
    ov.draw(pygame.Surface(ov.rect.size))
    model = ov.step_view()
    assert model is not None and model.current is None and model.framed is None and model.callout == ""
    assert model.path == () and ov.callout_rect is None
    assert model.narration.endswith(f"The finished search: {len(ov.events)} steps. "
                                    "Page Down (or the clicker) steps through it in visiting order.")


def test_the_story_tells_the_narration_and_what_each_sentence_is_about() -> None:
    tree = tree_of(TWO_LEVEL)
    events = step_events(tree)
    story = StepStory(tree, None, events)
    steps = narration_steps(tree, symbols="unicode")  # the window writes the picture's signs
    assert [s.text for s in story.steps] == [s.text for s in steps] and len(steps) == len(events)
    by_name = {v: k for k, v in node_names(tree).items()}
    k = next(i for i, s in enumerate(steps) if s.named_pruned)  # "E's right child (leaf 9) is pruned"
    about, pruned = story.about(k, None)
    assert pruned == steps[k].named_pruned and set(steps[k].about) <= set(about)
    assert story.about(k, None, pinned=by_name["F"])[0][-1] == by_name["F"]  # a node the user opened stays
    assert story.at(None) == steps[-1]
    # what a sentence quotes is shown only once the search has reached it
    about = story.about(None, None)[0]
    assert set(story.context(None, about, None)) == set(steps[-1].quoted) - set(about) != set()
    assert story.context(0, story.about(0, None)[0], events[0].order) == ()
    # a narration that does not fit the steps is not used
    assert StepStory(tree, None, events[:-1]).steps == []


def test_the_tidy_drawing_centres_parents_and_keeps_subtrees_apart() -> None:
    # root with three leaves
    assert tidy_x([[1, 2, 3], [], [], []], [None, 0, 0, 0]) == [1.0, 0.0, 1.0, 2.0]
    # root -> (a -> two leaves), (b leaf): a centred over its leaves, b one separation right of a, the root over both
    xs = tidy_x([[1, 4], [2, 3], [], [], []], [None, 0, 1, 1, 0])
    assert xs[1] == (xs[2] + xs[3]) / 2 and xs[4] - xs[1] == 1.0 and xs[0] == (xs[1] + xs[4]) / 2
    # two subtrees side by side: their facing leaves a subtree separation apart
    xs = tidy_x([[1, 4], [2, 3], [], [], [5, 6], [], []], [None, 0, 1, 1, 0, 4, 4], 1.0, 2.0)
    assert xs[5] - xs[3] == 2.0 and xs[0] == (xs[1] + xs[4]) / 2
    assert tidy_x([], []) == []


# -- the pictures are headless --------------------------------------------------------------------------------
def test_the_pictures_never_import_pygame_or_the_window() -> None:
    code = ("import sys; sys.modules['pygame'] = None\n"
            "import gameplay.pictures.picture_build, gameplay.pictures.step_view, gameplay.pictures.tidy\n"
            "assert not [m for m in sys.modules if m.startswith('gameplay.ui')], 'imports the window'\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


# -- the code's shape -----------------------------------------------------------------------------------------
def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


@pytest.mark.parametrize("path", VIEW_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_reach_into_another_objects_private_names(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    reaches = [f"line {n.lineno}: {ast.unparse(n)}" for n in ast.walk(tree)
               if isinstance(n, ast.Attribute) and _private(n.attr)
               and not (isinstance(n.value, ast.Name) and n.value.id in ("self", "cls"))]
    imports = [f"line {n.lineno}: {a.name}" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
               for a in n.names if _private(a.name)]
    assert not reaches and not imports, reaches + imports


def test_the_overlay_re_exports_nothing_private() -> None:
    tree = ast.parse((ROOT / "gameplay/ui/overlay/overlay.py").read_text(encoding="utf-8"))
    again = [a.name for n in tree.body if isinstance(n, ast.ImportFrom) for a in n.names if a.asname == a.name]
    assert again and not [a for a in again if _private(a)]


def test_layout_and_picture_are_built_by_small_functions() -> None:
    ruff = Path(sys.executable).with_name("ruff")
    if not ruff.exists():
        pytest.skip("ruff is not installed (it is in requirements.txt)")
    r = subprocess.run([str(ruff), "check", "--no-cache", "--select", "C901", "--config",
                        "lint.mccabe.max-complexity=15", *map(str, VIEW_MODULES)], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
