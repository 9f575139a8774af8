"""The tree views on the classroom's projectors (headless): every step of the course's trees (every Tree Lab preset,
a 3x3 and a 4x3 random tree) and of one recorded decision in each game, at 1024x768, 1280x720, 1280x800, 1366x768
and 1920x1080, in the windowed view and the presenter view.

At every step (and at the finished search) the walk (:func:`step_problems`) fails when:

* the node the sentence is about, its parent or a node the sentence names is not drawn wholly inside the canvas
  (not under the narration band, the legend, a panel or off the window);
* the picture drawn fits the canvas at the least readable zoom and an item of it is not wholly inside the canvas
  (a tree that fits is whole: the view frames it first and moves only when it is larger than the screen);
* two labels of the picture meet, a label lies over a shape it does not belong to, or a value runs over its
  shape's outline (:func:`gameplay.pictures.label_check.overlaps`: edge labels, values, alpha-beta lines, names,
  a placeholder's words), or the step's callout covers a label or a shape;
* the best line passes over an edge label (:func:`gameplay.pictures.label_check.best_line_crossings`: the line is
  drawn over the labels, so a label under it is hidden; before, a flat best line from a wide parent hid its
  siblings' labels in 1,219 of the overlap walk's 5,110 pictures);
* text in the tree is smaller than 16 px (24 px in the presenter view at 1280x720, more on a larger screen);
* the step callout leaves the canvas, or covers the node's own lines;
* the narration does not fit its band (it is never cut), or the canvas, legend, narration, side panel and button
  bar overlap or leave the window, or a button leaves the bar (these, and the callout as drawn, only when the walk
  draws: ``surface`` given).

The labels and the framing are read from the display list and the step's model
(:class:`gameplay.pictures.step_view.StepView`), not from pixels, so the walk over the five Tree Lab presets and a
decision in each game at five sizes (:func:`test_no_label_over_another_and_a_tree_that_fits_is_whole`) needs no
drawing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from ai.agents.agents import make_agent
from ai.teaching.decision_tree import record_decision_model
from gameplay.pictures.label_check import best_line_crossings, labels, overlaps
from gameplay.pictures.overlap_geometry import boxes_meet
from gameplay.pictures.tree_png import hit_rects, measure_text
from gameplay.rules.trees import TEXTBOOK_TREES
from gameplay.ui.overlay import overlay_canvas as canvas
from gameplay.ui.overlay import overlay_view as view
from gameplay.ui.overlay.overlay import show_decision
from gameplay.ui.scenes.treelab_tree import random_tree
from gameplay.ui.shell.app import App
from gameplay.ui.widgets import projector

SIZES = ((1024, 768), (1280, 720), (1280, 800), (1366, 768), (1920, 1080))
LAB_TREES: list[tuple[str, Any]] = [(name, None) for name in TEXTBOOK_TREES] + [
    ("random 3x3", random_tree(3, 3, random.Random(7))), ("random 4x3", random_tree(4, 3, random.Random(11)))]
DECISIONS = (("tictactoe", "X...O....", "medium"), ("checkers", None, "alphabeta:depth=4"),
             ("pig", "20,30,8,1", "expectimax:depth=2"), ("connect4", None, "alphabeta:depth=4"))
"""One recorded decision in each game: 338, 186, 126 and 316 steps."""
SMALL_DECISIONS = (("tictactoe", "X...O....", "alphabeta:depth=2"), ("checkers", None, "alphabeta:depth=3"),
                   ("pig", "20,30,8,1", "expectimax:depth=2"), ("connect4", None, "alphabeta:depth=3"))
"""One recorded decision in each game by a depth-limited agent (no time limit: the same tree on every machine): 50,
80, 126 (Pig's roll and its six faces) and 152 steps."""


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("ARCADE_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("ARCADE_DATA_DIR", str(tmp_path))
    yield
    projector.set_current(projector.Display())


def inner(ov: Any) -> Any:
    return getattr(ov, "active", ov)


def step_problems(ov: Any, surface: pygame.Surface | None, where: str) -> list[str]:
    """What is wrong with the overlay's picture at its current step (see the module's list); ``surface``: draw the
    overlay there and check what was drawn too (``None``: the model only)."""
    o = inner(ov)
    if surface is not None:
        ov.draw(surface)
    else:
        o.ensure_framed()
    out: list[str] = []
    pic, lay = o.picture()
    assert pic is not None and lay is not None
    c = o.canvas_rect
    model = o.step_view()
    # what the sentence is about: drawn, wholly inside
    about, missing = view.about_items(o, lay)
    inside = {i: ok for i, _, ok in model.drawn_items()}
    if missing:
        out.append(f"{where}: {missing} of the sentence's nodes not drawn")
    bad = [i for i in about if not inside.get(i, False)]
    if bad:
        out.append(f"{where}: the sentence's nodes {bad} not wholly in the canvas")
    # a picture that fits the canvas at the least readable zoom is drawn whole
    z_min = view.min_fit_zoom(o, pic)
    if view.whole_zoom(o, pic) >= z_min - 1e-9:
        cut = [i for i, ok in inside.items() if not ok]
        if cut:
            out.append(f"{where}: the tree fits but items {cut} are cut (zoom {o.zoom:.3f}, offset {o.offset})")
    # no label over another, nor over a shape it does not belong to; values inside their shapes
    faults = overlaps(pic, measure_text)
    if faults:
        out += [f"{where}: {f}" for f in faults[:3]]
    crossed = best_line_crossings(pic, measure_text)
    if crossed:
        out += [f"{where}: {c}" for c in crossed[:3]]
    # readable text
    least = view.PRESENTER_TEXT_PX * view.presenter_scale(o) if o.presenter else view.MIN_TEXT_PX
    smallest = min((it.size for it in pic.items if it.op == "text"), default=least) * o.zoom
    if smallest < least - 1e-6:
        out.append(f"{where}: text {smallest:.1f} px < {least:g}")
    # the callout: inside the canvas, clear of the node's own lines, of every label and shape
    hits = hit_rects(pic, lay, zoom=o.zoom, offset=o.offset)
    box = (getattr(o, "callout_rect", None) if surface is not None else
           canvas.step_callout(model, hits, canvas.callout_font(o), c.size) if o.step is not None else None)
    if o.step is not None and box is not None:
        back = box.inflate(12, 8)
        if not pygame.Rect((0, 0), c.size).contains(back):
            out.append(f"{where}: the callout {tuple(back)} leaves the canvas {c.size}")
        cur = o.current_node()
        shown = lay.by_node_id()
        if cur is not None and cur.id in shown and shown[cur.id].index in pic.boxes:
            b = pic.boxes[shown[cur.id].index]
            z, (ox, oy) = o.zoom, o.offset
            own = pygame.Rect(round(b[0] * z + ox), round(b[1] * z + oy), round(b[2] * z), round(b[3] * z))
            if back.colliderect(own.inflate(-4, -4)):
                out.append(f"{where}: the callout covers the node's own lines")
        covered = [lab.text for lab in labels(pic, measure_text)
                   if boxes_meet(tuple(back), model.on_canvas(lab.box))]  # type: ignore[arg-type]
        if covered:
            out.append(f"{where}: the callout covers the labels {covered[:3]}")
    if surface is None:
        return out
    # the narration: never cut
    n = o.narration_rect
    if n.height > 0:
        lines, h = o.drawn_narration
        if len(lines) * h > n.height - 10 or any("..." in line and line.endswith("...") for line in lines):
            out.append(f"{where}: the narration does not fit its band: {lines}")
    # the parts of the window
    window = surface.get_rect()
    parts = {"canvas": c, "legend": o.legend_rect, "narration": n, "bar": o.bar_rect, "header": o.header_rect}
    if o.show_side:
        parts["side"] = o.side_rect
    for name, r in parts.items():
        if r.height > 0 and not window.contains(r):
            out.append(f"{where}: the {name} {tuple(r)} leaves the window")
    names = [k for k, r in parts.items() if r.height > 0 and r.width > 0]
    for i, a in enumerate(names):
        for b2 in names[i + 1:]:
            if parts[a].colliderect(parts[b2]):
                out.append(f"{where}: the {a} {tuple(parts[a])} overlaps the {b2} {tuple(parts[b2])}")
    for name, r, _ in o.buttons:
        if not o.bar_rect.contains(r):
            out.append(f"{where}: button {name} {tuple(r)} outside the bar {tuple(o.bar_rect)}")
    return out


def walk_steps(ov: Any, surface: pygame.Surface | None, where: str) -> list[str]:
    """Every step of the step-through, then the finished search (:func:`step_problems`; ``surface``: drawn)."""
    o = inner(ov)
    problems: list[str] = []
    for i in range(len(o.events)):
        o.stepper.go_to(i)
        problems += step_problems(ov, surface, f"{where} step {i + 1}/{len(o.events)}")
    o.finish()
    problems += step_problems(ov, surface, f"{where} finished")
    return problems


def decision_scene(app: App, game: str, position: str | None, spec: str) -> Any:
    """A match showing ``spec``'s recorded decision at ``position`` in its overlay (recorded here, as the window's
    worker records it)."""
    scene = app.start_match(game, make_agent(game, "human"), make_agent(game, "human"))
    g, state, result, rec = record_decision_model(game, position, spec)
    agent = make_agent(game, spec)
    assert show_decision(scene.overlay, g, state, agent, result, rec, player_name=g.player_names[g.to_move(state)],
                         move_text=g.format_move(state, result.move), view=scene.view)
    scene.overlay.show()
    app.run(max_frames=1)
    return scene


def walk_views(app: App, trees: list[tuple[str, Any]], decisions: tuple[tuple[str, str | None, str], ...],
               surface: pygame.Surface | None, label: str) -> list[str]:
    """:func:`walk_steps` over the Tree Lab's ``trees`` (a preset's name and ``None``, or a name and a tree) and a
    match showing each of ``decisions``, in the windowed view and the presenter view."""
    problems: list[str] = []
    lab = app.open_tree_lab()
    for name, spec in trees:
        if spec is None:
            assert lab.load_preset(name)
        else:
            assert lab.set_tree(spec, name)
        for presenter in (False, True):
            lab.overlay.set_presenter(presenter)
            app.run(max_frames=1)
            problems += walk_steps(lab.overlay, surface, f"{label} Tree Lab {name}{' presenter' if presenter else ''}")
        lab.overlay.set_presenter(False)
    for game, position, spec in decisions:
        scene = decision_scene(app, game, position, spec)
        for presenter in (False, True):
            scene.overlay.set_presenter(presenter)
            app.run(max_frames=1)
            problems += walk_steps(scene.overlay, surface, f"{label} {game} {spec}{' presenter' if presenter else ''}")
        scene.overlay.set_presenter(False)
    return problems


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_step_of_the_course_trees_and_a_decision_in_each_game_is_in_view(size: tuple[int, int]) -> None:
    app = App(size=size, fps=1000)
    try:
        problems = walk_views(app, LAB_TREES, DECISIONS, pygame.display.get_surface(), f"{size[0]}x{size[1]}")
    finally:
        app.close()
    assert not problems, "\n".join(problems[:30]) + f"\n({len(problems)} problems)"


@pytest.mark.slow
def test_no_label_over_another_and_a_tree_that_fits_is_whole() -> None:
    """The overlap walk (issue 47): every step of the five Tree Lab presets and of a depth-limited decision in each
    game, at the five sizes, windowed and presenter, read from the display list (no drawing): 0 labels over
    another or over a shape, every value inside its shape, 0 labels under the best line (1,219 of its 5,110
    pictures before), the callout over none, and every item inside the canvas whenever the picture fits it at the
    least readable zoom. About 40 s of one core (pure Python)."""
    problems: list[str] = []
    for size in SIZES:
        app = App(size=size, fps=1000)
        try:
            problems += walk_views(app, [(name, None) for name in TEXTBOOK_TREES], SMALL_DECISIONS, None,
                                   f"{size[0]}x{size[1]}")
        finally:
            app.close()
    assert not problems, "\n".join(problems[:30]) + f"\n({len(problems)} problems)"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("presenter", [False, True], ids=["window", "presenter"])
def test_the_course_example_is_whole_at_every_step(size: tuple[int, int], presenter: bool) -> None:
    """The course's worked example ("Two-level prune (value 3)") reads whole at every classroom resolution: its
    13 items (A-G, the six leaves searched, leaf 9 pruned) wholly inside the canvas at every one of its 22 steps,
    where the finished search puts them (nothing moves from step to step), and at the end. Before: at 1280x720 in
    the presenter view the picture was 4 px too tall, so each step was laid out on its own and panned, and at step
    11 the root A was above the canvas with an empty band 80 px tall under the tree."""
    app = App(size=size, fps=1000)
    try:
        lab = app.open_tree_lab()
        assert lab.load_preset("Two-level prune (value 3)")
        lab.overlay.set_presenter(presenter)
        app.run(max_frames=2)
        o = inner(lab.overlay)
        assert o.lay is not None and len(o.lay.nodes) == 13 and len(o.events) == 22
        for step in [*range(22), None]:
            if step is None:
                o.finish()
            else:
                o.stepper.go_to(step)
            o.ensure_framed()
            assert not o.steps_relaid, (size, step)
            whole = o.whole_picture()  # the finished picture the step draws a part of
            model = o.step_view()
            boxes = [model.on_canvas(b) for b in whole.boxes.values()]
            assert len(boxes) == 13 and all(model.inside(b) for b in boxes), (size, step)
            assert o.zoom >= view.min_fit_zoom(o, whole) - 1e-9
        assert all(ok for _, _, ok in view.drawn_nodes(o)) and len(view.drawn_nodes(o)) == 13
    finally:
        app.close()


def test_the_walk_finds_a_label_over_another_and_a_tree_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk can fail: edge labels put at their child's centre (over its shape, and onto each other's row) and a
    camera that leaves a fitting tree half out of the canvas are both reported."""
    from gameplay.pictures import picture_build
    from gameplay.ui.overlay import overlay_budget
    app = App(size=(1280, 720), fps=1000)
    try:
        lab = app.open_tree_lab()
        assert lab.load_preset("Two-level prune (value 3)")
        app.run(max_frames=1)
        o = inner(lab.overlay)
        o.finish()
        assert walk_steps(lab.overlay, None, "good") == []

        def on_the_child(st: Any, it: Any, nodes: Any, t: str, top: Any, end: Any, row: float,
                         size: Any = None) -> tuple[float, float]:
            return end[0], end[1] + 10.0  # over the child's shape

        monkeypatch.setattr(picture_build, "edge_label_at", on_the_child)
        o.invalidate_picture()
        problems = step_problems(lab.overlay, None, "labels")
        assert any("label over" in p for p in problems), problems
        monkeypatch.undo()
        real = overlay_budget.ViewPlanner.frame

        def half_out(self: Any, ov: Any, *, centre: bool = False) -> Any:
            zoom, (ox, oy) = real(self, ov, centre=centre)
            return zoom, (ox, oy - ov.canvas_rect.height / 2)

        monkeypatch.setattr(overlay_budget.ViewPlanner, "frame", half_out)
        o.fit()
        problems = step_problems(lab.overlay, None, "camera")
        assert any("the tree fits but items" in p for p in problems), problems
    finally:
        app.close()


def plus_boxes_cut(ov: Any, surface: pygame.Surface, where: str) -> list[str]:
    """Every step of the overlay's decision drawn on ``surface``: each ``+N nodes`` box drawn is wholly inside the
    canvas at its bottom edge (not cut by the narration band under it, nor drawn over the band)."""
    from gameplay.pictures.tree_layout import COLLAPSED
    o = inner(ov)
    out: list[str] = []
    for i in [*range(len(o.events)), None]:
        if i is None:
            o.finish()
        else:
            o.stepper.go_to(i)
        ov.draw(surface)
        pic, lay = o.picture()
        model = o.step_view()
        c, band = o.canvas_rect, o.narration_rect
        for it in lay.nodes:
            b = pic.boxes.get(it.index)
            if it.kind != COLLAPSED or b is None:
                continue
            x, y, w, h = model.on_canvas(b)
            r = pygame.Rect(round(x + c.x), round(y + c.y), round(w), round(h))
            if r.colliderect(c) and r.bottom > c.bottom:
                out.append(f"{where} step {i}: +N box {tuple(r)} cut by the narration band {tuple(band)}")
    return out


@pytest.mark.parametrize("presenter", [False, True], ids=["window", "presenter"])
def test_no_plus_n_box_is_cut_by_the_narration_band_at_1280x640(presenter: bool) -> None:
    """In the real 1280x640 window (its canvas about 230 px tall, the tree panned) every step of a checkers and a
    Connect Four decision: no ``+N nodes`` box crosses the canvas's bottom edge, the narration band's top
    (:func:`gameplay.ui.overlay.overlay_view.uncut` moves the view a few pixels). Before: 99 boxes cut in the
    window view and 70 in the presenter view over these two decisions' steps."""
    app = App(size=(1280, 640), fps=1000)
    try:
        problems: list[str] = []
        for game, position, spec in SMALL_DECISIONS:
            if game not in ("checkers", "connect4"):
                continue
            scene = decision_scene(app, game, position, spec)
            scene.overlay.set_presenter(presenter)
            app.run(max_frames=1)
            problems += plus_boxes_cut(scene.overlay, pygame.display.get_surface(), f"{game} {spec}")
    finally:
        app.close()
    assert not problems, "\n".join(problems[:20]) + f"\n({len(problems)} problems)"
