"""Headless tests of the Tree Lab scene: presets, bounds, editing, random trees, the cut-off rule."""

from __future__ import annotations

import random

import pygame
import pygame_gui

from gameplay.rules.trees import TEXTBOOK_TREES, parse_tree
from gameplay.ui.app import App
from gameplay.ui.menu import MenuScene
from gameplay.ui.treelab_scene import TreeLabScene, random_tree


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
    pic, _ = scene.overlay._picture()
    texts = [it.text for it in pic.items if it.op == "text"]  # type: ignore[union-attr]
    assert "<= 2" in texts and "2" in texts
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
    rect, _ = next((r, it) for r, it in ov._hits if it.node is not None and it.node.state == (1, 0))
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
