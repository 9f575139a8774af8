"""The search tree for a room: the presenter view (key P, the overlay's Presenter button, Esc or P to leave) at
1920x1080 draws node values >= 32 px, alpha-beta windows and move labels >= 24 px in near-black, and the
narration line >= 28 px; the Tree Lab opens every preset in view; Fit never shrinks text under 16 / 24 px and
follows the current step on a big tree. "px" is the height (``Font.get_height()``) of the font each text item is
really drawn with at the overlay's zoom, recorded while drawing."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pygame
import pytest

from ai.agents.agents import make_agent
from gameplay.pictures import tree_png
from gameplay.pictures.tree_layout import NODE
from gameplay.pictures.tree_picture import Item, value_text
from gameplay.rules.trees import TEXTBOOK_TREES
from gameplay.ui.overlay.overlay import TreeOverlay
from gameplay.ui.play.match import MatchScene
from gameplay.ui.scenes.treelab_scene import TreeLabScene
from gameplay.ui.scenes.treelab_tree import random_tree
from gameplay.ui.shell.app import App
from tests.ui_driver import frames, key, pump

Drawn = list[tuple[Item, int, float]]
"""(text item, Font.get_height() of the font drawn, item size x zoom) of every text the picture drew."""


def record_text(monkeypatch: pytest.MonkeyPatch) -> Drawn:
    """Spy on the picture's text drawing: the font height each text item is rendered with."""
    drawn: Drawn = []
    real = tree_png.draw_text

    def spy(surface: pygame.Surface, it: Item, at: Any, zoom: float, clip: pygame.Rect) -> None:
        size = it.size * zoom
        if size >= 4:
            drawn.append((it, tree_png.font_at(size, it.bold).get_height(), size))
        real(surface, it, at, zoom, clip)

    monkeypatch.setattr(tree_png, "draw_text", spy)
    return drawn


def redraw(app: App, ov: TreeOverlay, drawn: Drawn) -> None:
    drawn.clear()
    ov.canvas_cache.forget()  # draw the cached canvas again
    frames(app, 1)
    assert drawn, "nothing drawn"


def values_and_labels(ov: TreeOverlay, drawn: Drawn) -> tuple[list[int], list[int]]:
    """Heights of the node values, and of every other text of the tree (windows, edge labels, legend)."""
    values = {value_text(it.node) for it in (ov.pic_lay.nodes if ov.pic_lay else []) if it.kind == NODE and it.node}
    v = [h for it, h, _ in drawn if it.bold and it.text in values]
    rest = [h for it, h, _ in drawn if not (it.bold and it.text in values)]
    return v, rest


def assert_room_sizes(app: App, ov: TreeOverlay, drawn: Drawn) -> None:
    """Presenter view at 1920x1080: the tree on the whole window, values >= 32 px, the rest >= 24 px, alpha-beta
    windows in near-black, the narration >= 28 px under the tree."""
    assert ov.presenter and ov.rect == pygame.Rect(0, 0, 1920, 1080)
    assert not ov.show_side and ov.canvas_rect.width >= 1900
    redraw(app, ov, drawn)
    values, rest = values_and_labels(ov, drawn)
    assert values and rest
    assert min(values) >= 32, sorted(values)[:5]
    assert min(rest) >= 24, sorted(rest)[:5]
    windows = [it for it, _, _ in drawn if it.text.startswith("α=")]
    for it in windows:
        c = pygame.Color(it.fill or "#000000")
        assert max(c.r, c.g, c.b) <= 0x33, it.fill  # INK-like, not grey
    lines, height = ov.drawn_narration
    print(f"presenter view at 1920x1080: node values >= {min(values)} px, other tree text >= {min(rest)} px, "
          f"narration {height} px")  # the figures the README quotes (pytest -s)
    assert lines and height >= 28
    assert ov.narration_rect.top >= ov.canvas_rect.bottom


@pytest.fixture
def big_app() -> Any:
    a = App(size=(1920, 1080), fps=1000)
    yield a
    a.close()


def ai_decision(app: App, game: str, spec: str) -> MatchScene:
    scene = app.start_match(game, make_agent(game, spec), make_agent(game, "human"))
    scene.ai_delay_s = 0.0
    pump(app, lambda: scene.overlay.tree is not None, timeout_s=120)
    return scene


@pytest.mark.slow
def test_presenter_view_checkers_alpha_beta(big_app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    scene = ai_decision(big_app, "checkers", "alphabeta:depth=4")
    ov = scene.overlay
    assert ov.tree is not None and ov.tree.algorithm == "alphabeta" and not ov.visible
    drawn = record_text(monkeypatch)
    key(big_app, pygame.K_p)  # P with the tree closed opens it in the presenter view
    assert ov.visible and ov.presenter
    assert not scene.widget("panel").visible and not scene.widget("status").visible
    assert_room_sizes(big_app, ov, drawn)
    # the clicker steps through the search; the narration follows
    key(big_app, pygame.K_PAGEDOWN)
    key(big_app, pygame.K_PAGEDOWN)
    assert ov.step == 1
    redraw(big_app, ov, drawn)
    assert ov.drawn_narration[0][0].startswith("Step 2 of")
    key(big_app, pygame.K_PAGEUP)
    assert ov.step == 0
    # Esc leaves the presenter view (not the game), P again too
    key(big_app, pygame.K_ESCAPE)
    assert big_app.scene is scene and not ov.presenter and ov.visible
    assert scene.widget("panel").visible and ov.rect.width < 1920
    key(big_app, pygame.K_p)
    assert ov.presenter
    key(big_app, pygame.K_p)
    assert not ov.presenter


@pytest.mark.slow
def test_presenter_view_pig_expectimax(big_app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    scene = ai_decision(big_app, "pig", "expectimax:depth=2")
    ov = scene.overlay
    assert ov.tree is not None and ov.tree.algorithm == "expectimax"
    drawn = record_text(monkeypatch)
    key(big_app, pygame.K_t)
    ov.press("presenter")  # the overlay's Presenter button
    assert ov.presenter
    assert_room_sizes(big_app, ov, drawn)


@pytest.mark.slow
def test_presenter_view_tree_lab(big_app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    scene = big_app.open_tree_lab()
    frames(big_app, 2)
    ov = scene.overlay
    drawn = record_text(monkeypatch)
    key(big_app, pygame.K_p)
    assert ov.presenter and not scene.widget("panel").visible
    assert_room_sizes(big_app, ov, drawn)
    whole_in_canvas(ov)
    key(big_app, pygame.K_ESCAPE)
    assert big_app.scene is scene and not ov.presenter and scene.widget("panel").visible


def whole_in_canvas(ov: TreeOverlay) -> None:
    """Every node's box, and the whole picture (so the legend), inside the canvas."""
    pic, _ = ov.picture()
    assert pic is not None
    c = pygame.Rect((0, 0), ov.canvas_rect.size)
    for r, it in ov.hits:
        assert c.contains(r), (it.kind, r, c)
    ox, oy = ov.offset
    whole = pygame.Rect(round(ox), round(oy), int(pic.width * ov.zoom), int(pic.height * ov.zoom))
    assert c.contains(whole), (whole, c)


@pytest.mark.slow
@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
@pytest.mark.parametrize("presenter", [False, True])
def test_tree_lab_opens_every_preset_in_view(size: tuple[int, int], presenter: bool,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    a = App(size=size, fps=1000)
    try:
        scene = a.open_tree_lab()
        frames(a, 2)
        ov = scene.overlay
        if presenter:
            ov.set_presenter(True)
        drawn = record_text(monkeypatch)
        least = 24 if presenter else 16
        for name in TEXTBOOK_TREES:
            scene.load_preset(name)
            redraw(a, ov, drawn)
            assert min(h for _, h, _ in drawn) >= least, name
            if presenter and size == (1280, 800):
                # 24 px text (the presenter view is sized for 1920x1080): these trees are taller than a laptop's
                # screen; fit follows the root and the principal variation at the least readable zoom instead of
                # shrinking the text
                c = pygame.Rect((0, 0), ov.canvas_rect.size)
                root = next(r for r, it in ov.hits if it.index == 0)
                assert c.contains(root), name
                continue
            whole_in_canvas(ov)
    finally:
        a.close()


@pytest.mark.slow
@pytest.mark.parametrize("presenter", [False, True])
def test_fit_keeps_text_readable_and_follows_the_step_on_a_big_tree(presenter: bool,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    a = App(size=(1280, 800), fps=1000)
    try:
        scene: TreeLabScene = a.open_tree_lab()
        frames(a, 2)
        ov = scene.overlay
        if presenter:
            ov.set_presenter(True)
        scene.set_tree(random_tree(6, 4, random.Random(3)), "big")
        drawn = record_text(monkeypatch)
        least = 24 if presenter else 16
        ov.press("fit")
        redraw(a, ov, drawn)
        assert min(h for _, h, _ in drawn) >= least  # too big to fit whole: never shrunk under readable text
        pic, lay = ov.picture()
        # 1,296 leaves cannot be read whole: the levels below the root and its best child are folded
        assert pic is not None and lay is not None and any(it.kind == "collapsed" for it in lay.nodes)
        assert lay.shown < len(ov.tree.nodes)
        stepped: Callable[[], None] = ov.next_step
        for n in range(len(ov.events)):
            stepped()
            if n % 97 == 0 or n == len(ov.events) - 1:
                redraw(a, ov, drawn)
                cur = ov.current_node()
                assert cur is not None
                rects = {it.node.id: r for r, it in ov.hits if it.node is not None}
                assert cur.id in rects and pygame.Rect((0, 0), ov.canvas_rect.size).contains(rects[cur.id])
                assert min(h for _, h, _ in drawn) >= least
    finally:
        a.close()


@pytest.mark.parametrize("game, spec", [("checkers", "alphabeta:depth=6"), ("tictactoe", "medium"),
                                        ("pig", "expectimax:depth=2")])
def test_live_overlay_opens_in_view(big_app: App, game: str, spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The overlay of a real decision opens with its default view whole in the canvas at >= 16 px text (the
    budget of shown nodes shrinks until it fits; the clicks open the rest)."""
    scene = ai_decision(big_app, game, spec)
    ov = scene.overlay
    drawn = record_text(monkeypatch)
    key(big_app, pygame.K_t)
    assert ov.visible
    redraw(big_app, ov, drawn)
    assert min(h for _, h, _ in drawn) >= 16
    whole_in_canvas(ov)


@pytest.mark.slow
@pytest.mark.parametrize("presenter", [False, True])
def test_the_step_through_always_draws_the_current_node(big_app: App, presenter: bool) -> None:
    """Stepping into a collapsed part opens its path: the picture always holds the node the step is at (the
    teacher's fault: dozens of Page Downs inside hidden parts while the picture stood still)."""
    scene = ai_decision(big_app, "tictactoe", "medium")
    ov = scene.overlay
    key(big_app, pygame.K_t)
    if presenter:
        ov.set_presenter(True)
    frames(big_app, 1)
    hidden_at_start = {n.id for n in ov.tree.nodes} - set(ov.lay.by_node_id())  # type: ignore[union-attr]
    assert hidden_at_start, "the default view collapses part of the tree"
    reached_hidden = False
    for _ in range(120):
        key(big_app, pygame.K_PAGEDOWN)
        cur = ov.current_node()
        assert cur is not None
        _, lay = ov.picture()
        assert lay is not None
        assert cur.id in {it.node.id for it in lay.nodes if it.node is not None}, ov.step
        reached_hidden = reached_hidden or cur.id in hidden_at_start
        # on screen: the current node, and its parent (whose alpha or beta the step updates)
        canvas = pygame.Rect((0, 0), ov.canvas_rect.size)
        rects = {it.node.id: r for r, it in ov.hits if it.node is not None}
        assert canvas.contains(rects[cur.id]), ov.step
        if cur.parent is not None and cur.parent in rects:
            both = rects[cur.id].union(rects[cur.parent])
            if both.width <= canvas.width - 120 and both.height <= canvas.height - 120:
                assert canvas.contains(rects[cur.parent]), ov.step
    assert reached_hidden, "the walk went into a part the default view had collapsed"


def test_a_leaf_shows_its_value_the_step_it_is_reached(big_app: App) -> None:
    """The narration says "Reach leaf 3" at the step the search enters the leaf: the picture shows the 3 then,
    not "?" (a leaf is evaluated when it is reached)."""
    scene = big_app.open_tree_lab()
    scene.load_preset("AIMA figure 5.2 (3 / 12 / 8)")
    frames(big_app, 2)
    ov = scene.overlay
    leaf_enters = [i for i, e in enumerate(ov.events)
                   if not e.leaving and ov.by_id[e.node].note in ("leaf", "terminal")]
    assert leaf_enters
    for i in leaf_enters:
        ov.go_to_step(i)
        _, lay = ov.picture()
        assert lay is not None
        leaf = ov.by_id[ov.events[i].node]
        drawn = next(it.node for it in lay.nodes if it.node is not None and it.node.id == leaf.id)
        assert drawn.label() == leaf.label() != "?"


def test_pruned_moves_appear_the_step_the_narration_prunes_them(big_app: App) -> None:
    """The pruned placeholder was drawn one step after the sentence "E's right child (leaf 9) is pruned"
    (second teacher trial): it appears at the step whose sentence says so, and not before."""
    from ai.teaching.narration import narration
    scene = big_app.open_tree_lab()
    scene.load_preset("Two-level prune (value 3)")
    frames(big_app, 2)
    ov = scene.overlay
    assert ov.tree is not None
    said = narration(ov.tree)
    for i, sentence in enumerate(said):
        ov.go_to_step(i)
        _, lay = ov.picture()
        assert lay is not None
        pruned_now = sum(1 for it in lay.nodes if it.kind == "pruned")
        ov.go_to_step(max(0, i - 1))
        _, before = ov.picture()
        assert before is not None
        pruned_before = sum(1 for it in before.nodes if it.kind == "pruned") if i else 0
        if "is pruned" in sentence or "are pruned" in sentence:
            assert pruned_now == pruned_before + 1, (i, sentence)
        else:
            assert pruned_now == pruned_before, (i, sentence)


def test_proven_results_never_print_as_raw_numbers_while_stepping(big_app: App) -> None:
    """A node being searched read "<= -999999999999996" while the narration said "loss in 4" (second trial)."""
    import re

    from ai.teaching.decision_model import TreeInfo
    from ai.teaching.decision_tree import record_decision
    _, _, _, tree = record_decision("tictactoe", "X.O.X.O..", "alphabeta:depth=5")
    ov = TreeOverlay()
    ov.set_rect(pygame.Rect(0, 0, 1920, 1080))
    ov.set_tree(tree, TreeInfo("proofs"))
    ov.show()
    raw = re.compile(r"\d{10,}")
    seen_proof = False
    for i in range(len(ov.events)):
        ov.go_to_step(i)
        pic, _ = ov.picture()
        assert pic is not None
        texts = [it.text for it in pic.items if it.op == "text" and it.text]
        assert not [t for t in texts if raw.search(t)], (i, [t for t in texts if raw.search(t)])
        seen_proof = seen_proof or any(t.startswith(("≤ ", "≥ ")) and " in " in t for t in texts)
    assert seen_proof, "the walk met a bound on a proven result"


@pytest.mark.parametrize("size", [(871, 700), (1280, 800)])
def test_the_roll_chance_node_shows_its_faces_even_when_the_ai_holds(size: tuple[int, int]) -> None:
    """Pig's roll is a chance node whether or not the AI rolled: at normal size it showed "+6 nodes" when it was
    not on the principal variation (second teacher trial)."""
    from ai.kernel.recording import CHANCE
    from ai.teaching.decision_model import TreeInfo
    from ai.teaching.decision_tree import record_decision
    _, _, res, tree = record_decision("pig", "60,10,30,1", "expectimax:depth=2")
    assert res.move == "hold"
    ov = TreeOverlay()
    ov.set_rect(pygame.Rect(0, 0, *size))
    ov.set_tree(tree, TreeInfo("pig"))
    ov.show()
    lay = ov.lay
    assert lay is not None
    chance = [it for it in lay.nodes if it.node is not None and it.node.kind == CHANCE and it.node.depth == 1]
    assert chance
    for it in chance:
        faces = [lay.nodes[c] for c in it.children if lay.nodes[c].kind == "node"]
        assert len(faces) == len(it.node.children) == 6  # type: ignore[union-attr]


def test_a_null_window_reads_as_the_narration_says_it() -> None:
    """The picture printed a principal-variation search's null window as "α=1 β=1" while the narration said
    "alpha = 1-eps, beta = 1" (second teacher trial)."""
    import math

    from gameplay.pictures.tree_picture import window_line
    assert window_line(1.0, math.nextafter(1.0, math.inf)) == "α=1 β=1+ε"
    assert window_line(math.nextafter(-12.0, -math.inf), -12.0) == "α=-12-ε β=-12"
    assert window_line(3.0, math.inf) == "α=3 β=+∞"
