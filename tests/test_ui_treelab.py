"""Headless tests of the Tree Lab scene: presets, bounds, editing, random trees, the cut-off rule."""

from __future__ import annotations

import html
import json
import random
from pathlib import Path

import pygame
import pygame_gui
import pytest
from ui_driver import click, frames

from gameplay.rules.trees import TEXTBOOK_TREES, parse_tree
from gameplay.ui.scenes.menu import MenuScene
from gameplay.ui.scenes.treelab_scene import TreeLabScene
from gameplay.ui.scenes.treelab_tree import random_tree
from gameplay.ui.shell.app import App


def lab(app: App, **kw: object) -> TreeLabScene:
    scene = TreeLabScene(**kw)  # type: ignore[arg-type]
    app.push(scene)
    app.run(max_frames=1)
    return scene


def root_child_labels(scene: TreeLabScene) -> list[str]:
    tree = scene.overlay.tree
    assert tree is not None
    return [tree.nodes[k].label() for k in tree.nodes[0].children]


def test_menu_opens_the_tree_lab(app: App) -> None:
    app.push(MenuScene())
    app.run(max_frames=1)
    button = app.scene.widget("treelab")  # type: ignore[union-attr]
    pygame.event.post(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button))
    app.run(max_frames=2)
    assert isinstance(app.scene, TreeLabScene)


def test_aima_tree_shows_bounds_for_the_cut_child(app: App) -> None:
    scene = lab(app)
    assert scene.preset.startswith("AIMA")
    assert root_child_labels(scene) == ["3", "<= 2", "2"]
    pic, _ = scene.overlay.picture()
    texts = [it.text for it in pic.items if it.op == "text"]  # type: ignore[union-attr]
    assert "≤ 2" in texts and "2" in texts  # the picture writes the bound sign (the label's "<= 2")
    assert scene.counts["minimax"].nodes == 13 and scene.counts["alphabeta"].nodes == 11
    assert "13 nodes" in scene.counts_html() and "11 nodes" in scene.counts_html()
    # the step-through works in the lab too
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_PAGEDOWN, mod=0, unicode="", scancode=0))
    app.run(max_frames=1)
    assert scene.overlay.current_node() is not None and scene.overlay.current_node().id == 0  # type: ignore[union-attr]


def test_editing_a_leaf_searches_again(app: App) -> None:
    scene = lab(app)
    assert scene.result is not None and scene.result.value == 3
    assert scene.set_leaf((1, 0), 7)  # the middle MIN node is now worth min(7, 4, 6) = 4
    assert scene.result.value == 4 and scene.result.best == 1
    assert scene.set_leaf((0, 0), 1)
    assert scene.result.value == 4
    assert scene.add_child((2,))
    assert len(parse_tree(scene.spec).children[2].children) == 4
    assert scene.remove((2, 3))
    assert len(parse_tree(scene.spec).children[2].children) == 3
    assert not scene.remove(())  # the root stays


def test_clicking_a_node_selects_it_for_the_editor(app: App) -> None:
    scene = lab(app)
    ov = scene.overlay
    app.run(max_frames=1)
    rect, _ = next((r, it) for r, it in ov.hits if it.node is not None and it.node.state == (1, 0))
    c = ov.canvas_rect
    pos = (c.x + rect.centerx, c.y + rect.centery)
    for etype in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(etype, pos=pos, button=1))
    app.run(max_frames=1)
    assert scene.selected == (1, 0)
    assert "1/0" in scene.selection_text()


def test_random_tree_by_branching_and_depth(app: App) -> None:
    spec = random_tree(3, 3, random.Random(5))
    root = parse_tree(spec)
    assert len(root.children) == 3 and all(len(c.children) == 3 for c in root.children)
    scene = lab(app)
    assert scene.random(2, 4)
    assert scene.counts["minimax"].nodes == 1 + 2 + 4 + 8 + 16
    assert scene.counts["alphabeta"].nodes <= scene.counts["minimax"].nodes
    assert scene.set_algorithm("expectimax")  # a random tree with chance nodes
    assert scene.has_chance and scene.result is not None and scene.result.tree.algorithm == "expectimax"


def test_the_cutoff_rule_changes_node_counts(app: App) -> None:
    scene = lab(app)
    assert scene.set_tree("[[3,5],[3,1,0]]")
    ge = scene.counts["alphabeta"]
    assert scene.set_prune("gt")
    gt = scene.counts["alphabeta"]
    assert ge.value == gt.value == 3
    assert ge.nodes < gt.nodes
    assert list(ge.leaves_visited) == [3, 5, 3] and list(gt.leaves_visited) == [3, 5, 3, 1]


def test_every_preset_searches(app: App) -> None:
    scene = lab(app)
    for name in TEXTBOOK_TREES:
        assert scene.load_preset(name), scene.message
    assert scene.algorithm == "expectimax" and scene.result is not None and scene.result.value == 10


# ----- a bad JSON tree is explained, and its message overlaps nothing ------------------------------------------------
def _visible(w: object) -> bool:
    return bool(getattr(w, "visible", False))


@pytest.mark.parametrize("size", [(1280, 800), (1024, 700), (3000, 1000)])
def test_tree_lab_bad_json_is_explained_and_overlaps_nothing(size: tuple[int, int]) -> None:
    app = App(size=size, fps=1000)
    try:
        scene = app.open_tree_lab()
        app.run(max_frames=2)
        ui = scene.widgets  # type: ignore[attr-defined]
        full = ui["counts"].rect.copy()
        bad = "[[3,12,8],x]"
        with pytest.raises(json.JSONDecodeError) as err:
            json.loads(bad)
        assert err.value.pos == 10
        ui["json"].set_text(bad)
        pygame.event.post(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=ui["apply"]))
        app.run(max_frames=3)
        ui = scene.widgets  # type: ignore[attr-defined]
        message = scene.message  # type: ignore[attr-defined]
        assert message == ("The tree is not valid JSON (line 1, column 11): expected a list of subtrees like "
                           "[[3,12,8],[2,4,6]] or {\"chance\": [[p, subtree], ...]}")
        assert "Expecting value" not in message and "char 10" not in message
        box = ui["message"]
        assert _visible(box) and "not valid JSON" in box.html_text
        panel = ui["panel"].rect
        assert panel.contains(box.rect) and box.rect.bottom <= ui["menu"].rect.top
        for key in ("counts", "counts_label", "random", "set", "add", "remove", "selection", "json", "apply"):
            w = ui.get(key)
            if w is not None and _visible(w):
                assert not w.rect.colliderect(box.rect), (key, w.rect, box.rect)
        # the whole message fits (no scroll bar) when the panel has room for it
        if size[1] >= 800:
            assert box.scroll_bar is None or not box.scroll_bar.alive()
        # a good tree: the message goes, the counts come back whole
        scene.apply_json("[[3,12,8],[2,4,6]]")  # type: ignore[attr-defined]
        app.run(max_frames=2)
        ui = scene.widgets  # type: ignore[attr-defined]
        assert not scene.message and not _visible(ui["message"])  # type: ignore[attr-defined]
        assert _visible(ui["counts"]) and ui["counts"].rect == full
    finally:
        app.close()


# ----- the random tree's limits show in the fields and the message ------------------------------------------------
def test_random_tree_limits_show_in_the_fields_and_the_message(app: App, data_dir: Path) -> None:
    scene = app.open_tree_lab()
    frames(app, 2)
    ui = scene.widgets  # type: ignore[attr-defined]
    ui["branching"].set_text("10")
    ui["depth"].set_text("10")
    click(app, ui["random"].get_abs_rect().center)
    assert (scene.branching, scene.depth) == (6, 3)  # type: ignore[attr-defined]
    assert (ui["branching"].get_text(), ui["depth"].get_text()) == ("6", "3")
    message = scene.message  # type: ignore[attr-defined]
    assert "6 x 3" in message and "10 x 10" in message and "does not fit the screen" in message
    ui["branching"].set_text("2")
    ui["depth"].set_text("3")
    click(app, ui["random"].get_abs_rect().center)
    assert scene.message == ""  # type: ignore[attr-defined]
    assert (ui["branching"].get_text(), ui["depth"].get_text()) == ("2", "3")


# ----- the view: Fit, the principal variation, a rejected JSON tree kept ----------------------------------------------
def test_tree_lab_fit_shows_the_whole_tree(app: App) -> None:
    scene = app.open_tree_lab()
    app.run(max_frames=2)
    ov = scene.overlay  # type: ignore[attr-defined]
    pic = ov.picture()[0]
    c = ov.canvas_rect
    ov.set_zoom(2.0)
    ov.press("fit")
    left, w = ov.offset[0], pic.width * ov.zoom
    assert left >= 0 and left + w <= c.width and pic.height * ov.zoom <= c.height
    ov.set_zoom(ov.zoom / 1.2)  # zooming out from a Fit below the usual minimum is allowed
    assert pic.width * ov.zoom < w


def test_tree_lab_default_view_shows_the_principal_variation(app: App) -> None:
    scene = app.open_tree_lab()
    app.run(max_frames=2)
    ov = scene.overlay  # type: ignore[attr-defined]
    pic, lay = ov.picture()
    c = ov.canvas_rect
    assert ov.zoom >= 0.9 - 1e-9  # labels stay >= 18 px by default
    pv = sorted((r[1], r[0], r[2]) for nid, r in ((h[0], h[1]) for h in pic.hits)
                if 0 <= nid < len(lay.nodes) and getattr(lay.nodes[nid], "on_pv", False))
    assert len(pv) >= 2
    for _y, x, w in pv[:2]:  # the root and its best child at least
        assert 0 <= ov.offset[0] + x * ov.zoom and ov.offset[0] + (x + w) * ov.zoom <= c.width


def test_tree_lab_keeps_rejected_json_and_the_whole_error(app: App) -> None:
    scene = app.open_tree_lab()
    app.run(max_frames=2)
    ui = scene.widgets  # type: ignore[attr-defined]
    bad = "[[3, 12, 8], [2, 4"
    ui["json"].set_text(bad)
    ui["json"].unfocus()
    ui["apply"].focus()
    pygame.event.post(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=ui["apply"]))
    app.run(max_frames=3)
    assert ui["json"].get_text() == bad
    assert scene.message and scene.message in html.unescape(ui["message"].html_text)  # type: ignore[attr-defined]
    scene.apply_json("[1, 2]")  # type: ignore[attr-defined]
    app.run(max_frames=1)
    assert ui["json"].get_text() == "[1, 2]" and not scene.message  # type: ignore[attr-defined]
