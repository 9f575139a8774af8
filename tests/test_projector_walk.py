"""The tree views on the classroom's projectors (headless): every step of the course's trees (every Tree Lab preset,
a 3x3 and a 4x3 random tree) and of one recorded decision in each game, at 1024x768, 1280x720, 1280x800, 1366x768
and 1920x1080, in the windowed view and the presenter view.

At every step (and at the finished search) the test fails when:

* the node the sentence is about, its parent or a node the sentence names is not drawn wholly inside the canvas
  (not under the narration band, the legend, a panel or off the window);
* the tree shows whole (it reads at the least readable zoom) and an item of it is not wholly inside the canvas;
* text in the tree is smaller than 16 px (24 px in the presenter view);
* the step callout leaves the canvas, or covers the node's own lines;
* the narration does not fit its band (it is never cut), or the canvas, legend, narration, side panel and button
  bar overlap or leave the window, or a button leaves the bar.
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
from gameplay.rules.trees import TEXTBOOK_TREES
from gameplay.ui.overlay import overlay_view as view
from gameplay.ui.overlay.overlay import show_decision
from gameplay.ui.scenes.treelab_tree import random_tree
from gameplay.ui.shell.app import App
from gameplay.ui.widgets import projector

SIZES = ((1024, 768), (1280, 720), (1280, 800), (1366, 768), (1920, 1080))
LAB_TREES: list[tuple[str, Any]] = [(name, None) for name in TEXTBOOK_TREES] + [
    ("random 3x3", random_tree(3, 3, random.Random(7))), ("random 4x3", random_tree(4, 3, random.Random(11)))]
DECISIONS = (("tictactoe", "X...O....", "medium"), ("checkers", None, "alphabeta:depth=4"),
             ("pig", "20,30,8,1", "expectimax:depth=2"))
"""One recorded decision in each game: 338, 186 and 126 steps."""


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("ARCADE_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("ARCADE_DATA_DIR", str(tmp_path))
    yield
    projector.set_current(projector.Display())


def inner(ov: Any) -> Any:
    return getattr(ov, "active", ov)


def step_problems(ov: Any, surface: pygame.Surface, where: str) -> list[str]:
    """What is wrong with the overlay's picture at its current step (see the module's list)."""
    ov.draw(surface)
    o = inner(ov)
    out: list[str] = []
    pic, lay = o.pic, o.pic_lay
    assert pic is not None and lay is not None
    c = o.canvas_rect
    window = surface.get_rect()
    # what the sentence is about: drawn, wholly inside
    about, missing = view.about_items(o, lay)
    inside = {i: ok for i, _, ok in view.drawn_nodes(o)}
    if missing:
        out.append(f"{where}: {missing} of the sentence's nodes not drawn")
    bad = [i for i in about if not inside.get(i, False)]
    if bad:
        out.append(f"{where}: the sentence's nodes {bad} not wholly in the canvas")
    # a picture that reads whole is drawn whole
    z_min = view.min_fit_zoom(o, pic)
    if o.zoom >= z_min - 1e-9 and pic.width * o.zoom <= c.width and pic.height * o.zoom <= c.height:
        cut = [i for i, ok in inside.items() if not ok]
        if cut:
            out.append(f"{where}: the tree fits but items {cut} are cut")
    # readable text
    least = view.PRESENTER_TEXT_PX if o.presenter else view.MIN_TEXT_PX
    smallest = min((it.size for it in pic.items if it.op == "text"), default=least) * o.zoom
    if smallest < least - 1e-6:
        out.append(f"{where}: text {smallest:.1f} px < {least:g}")
    # the callout
    box = getattr(o, "callout_rect", None)
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
    # the narration: never cut
    n = o.narration_rect
    if n.height > 0:
        lines, h = o.drawn_narration
        if len(lines) * h > n.height - 10 or any("..." in line and line.endswith("...") for line in lines):
            out.append(f"{where}: the narration does not fit its band: {lines}")
    # the parts of the window
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


def walk_steps(ov: Any, surface: pygame.Surface, where: str) -> list[str]:
    """Every step of the step-through, then the finished search."""
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


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_step_of_the_course_trees_and_a_decision_in_each_game_is_in_view(size: tuple[int, int]) -> None:
    app = App(size=size, fps=1000)
    surface = pygame.display.get_surface()
    problems: list[str] = []
    try:
        lab = app.open_tree_lab()
        for name, spec in LAB_TREES:
            if spec is None:
                assert lab.load_preset(name)
            else:
                assert lab.set_tree(spec, name)
            for presenter in (False, True):
                lab.overlay.set_presenter(presenter)
                app.run(max_frames=1)
                problems += walk_steps(lab.overlay, surface,
                                       f"{size[0]}x{size[1]} Tree Lab {name}{' presenter' if presenter else ''}")
            lab.overlay.set_presenter(False)
        for game, position, spec in DECISIONS:
            scene = decision_scene(app, game, position, spec)
            for presenter in (False, True):
                scene.overlay.set_presenter(presenter)
                app.run(max_frames=1)
                problems += walk_steps(scene.overlay, surface,
                                       f"{size[0]}x{size[1]} {game} {spec}{' presenter' if presenter else ''}")
            scene.overlay.set_presenter(False)
    finally:
        app.close()
    assert not problems, "\n".join(problems[:30]) + f"\n({len(problems)} problems)"


@pytest.mark.parametrize("size", [(1280, 800), (1024, 768), (1280, 720)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_course_example_reads_whole_in_the_presenter_view(size: tuple[int, int]) -> None:
    """The course's worked example ("Two-level prune (value 3)") fits the presenter view whole at 24 px text on the
    projectors' resolutions (at 1280x800 its leaves 2, 3, 5, 0, 1 were behind the narration and G was clipped)."""
    app = App(size=size, fps=1000)
    try:
        lab = app.open_tree_lab()
        assert lab.load_preset("Two-level prune (value 3)")
        lab.overlay.set_presenter(True)
        app.run(max_frames=2)
        o = inner(lab.overlay)
        assert o.zoom >= view.PRESENTER_TEXT_PX / 25.0 - 1e-9
        drawn = view.drawn_nodes(o)
        assert len(drawn) == 13 and all(ok for _, _, ok in drawn)  # A-G, the six leaves searched, leaf 9 pruned
    finally:
        app.close()
