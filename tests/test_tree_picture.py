"""The search-tree picture: the Tree Lab's node letters on the tree (as the narration names them), the alpha-beta
line under each node at the step shown, and a step callout that covers nothing else."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from ai.kernel.recording import INF, SearchTree
from ai.teaching.decision_model import MinimaxCount, TreeInfo
from ai.teaching.narration import narration
from ai.teaching.trace import live_window, number_text, step_events
from ai.teaching.tree_names import node_names
from ai.teaching.treelab import TreeSettings, search_tree
from gameplay.pictures.picture_build import build_picture
from gameplay.pictures.tree_export import tree_svg
from gameplay.pictures.tree_layout import NODE, PRUNED, TreeLayout, layout
from gameplay.pictures.tree_picture import WINDOW_LEGEND, Picture, lab_names
from gameplay.rules.trees import TEXTBOOK_TREES, parse_tree
from gameplay.ui.overlay import overlay_canvas as cv
from gameplay.ui.overlay.overlay import TreeOverlay
from gameplay.ui.overlay.stepper import step_layout

TWO_LEVEL = "Two-level prune (value 3)"
AIMA = "AIMA figure 5.2 (3 / 12 / 8)"


def tree_of(preset: str) -> SearchTree:
    return search_tree(parse_tree(TEXTBOOK_TREES[preset]), TreeSettings("alphabeta")).tree


def overlay(tree: SearchTree, size: tuple[int, int] = (1400, 980)) -> TreeOverlay:
    pygame.font.init()
    ov = TreeOverlay(whole=True)
    ov.set_rect(pygame.Rect(0, 0, *size))
    ov.set_tree(tree, TreeInfo("lab", minimax=MinimaxCount(13, True, "exact")))
    ov.show()
    return ov


def hit_box(pic: Picture, lay: TreeLayout, pred: object) -> tuple[float, float, float, float]:
    boxes = [b for i, b in pic.hits if pred(lay.nodes[i])]  # type: ignore[operator]
    assert len(boxes) == 1
    return boxes[0]


def name_beside(pic: Picture, box: tuple[float, float, float, float]) -> list[str]:
    """Bold texts anchored just left of the node's box, at its middle height."""
    x, y, w, h = box
    return [it.text for it in pic.items if it.op == "text" and it.bold and it.anchor == "end"
            and x - 40 <= it.pts[0][0] <= x and abs(it.pts[0][1] - (y + h / 2)) < 2]


def window_under(pic: Picture, box: tuple[float, float, float, float]) -> str:
    """The alpha-beta line under the node of hit box ``box``: drawn for it (:attr:`Picture.owners`), just under
    it, centred under it or moved across beside the best line that leaves it."""
    x, y, w, h = box
    idx = next(i for i, b in pic.hits if b == box)
    lines = [it for k, it in enumerate(pic.items) if it.op == "text" and it.text.startswith("α=")
             and pic.owners[k] == idx and y + h < it.pts[0][1] < y + h + 40]
    assert len(lines) == 1, [it.text for it in lines]
    return lines[0].text


# -- 1. the narration's names on the tree ---------------------------------------------------------------------------
def test_two_level_prune_picture_letters_its_nodes_as_the_narration_does() -> None:
    tree = tree_of(TWO_LEVEL)
    names, pruned = lab_names(tree)
    assert pruned == {(7, "1"): "G"}  # "C's right child G is pruned"
    lay = layout(tree)
    pic = build_picture(lay, names=names, pruned_names=pruned)
    by_name = {v: k for k, v in node_names(tree).items()}
    for letter in "ABCDEF":
        nid = by_name[letter]
        box = hit_box(pic, lay, lambda it, nid=nid: it.node is not None and it.node.id == nid)
        assert name_beside(pic, box) == [letter], letter
    g = hit_box(pic, lay, lambda it: it.kind == PRUNED and it.parent is not None
                and lay.nodes[it.parent].node_id == by_name["C"])
    # the pruned child's name is on its own label, over its dashed shape: "G pruned"
    gx, gy, gw, gh = g
    assert [it.text for it in pic.items if it.op == "text" and gx <= it.pts[0][0] <= gx + gw
            and gy <= it.pts[0][1] <= gy + gh and it.bold] == ["G pruned"]
    sentences = " ".join(narration(tree))
    assert "C's right child G" in sentences and "at E (MAX)" in sentences
    # the letters stay clear of the values inside and the windows under the nodes
    texts = [it for it in pic.items if it.op == "text"]
    named = [it for it in texts if it.text and it.text in "ABCDEFG" and it.anchor == "end"]
    from gameplay.pictures.tree_picture import item_box
    others = [item_box(it) for it in texts if it not in named]
    for it in named:
        x, y, w, h = item_box(it)  # type: ignore[misc]
        for o in others:
            assert o is not None
            assert x + w <= o[0] or o[0] + o[2] <= x or y + h <= o[1] or o[1] + o[3] <= y, (it.text, o)
    # no names without them (a game tree), and none for leaves (their box shows the value)
    plain = build_picture(lay)
    assert not [it for it in plain.items if it.op == "text" and it.text in "ABCDEFG" and it.text]
    assert not [it for it in pic.items if it.op == "text" and it.text.startswith("leaf ")]


def test_exports_and_overlay_letter_tree_lab_trees_only(tmp_path: Path) -> None:
    tree = tree_of(TWO_LEVEL)
    svg = tree_svg(tree)
    for letter in "ABCDEF":
        assert f'font-weight="bold">{letter}</text>' in svg, letter
    assert 'font-weight="bold">G pruned</text>' in svg
    ov = overlay(tree)
    pic, _ = ov.picture()
    assert pic is not None
    assert {"A", "E", "G pruned"} <= {it.text for it in pic.items if it.op == "text"}
    assert lab_names(game_tree()) == ({}, {})


def game_tree() -> SearchTree:
    from ai.agents.agents import make_agent
    from gameplay.ui.overlay.overlay import make_recorder
    agent = make_agent("tictactoe", "alphabeta:depth=2")
    game = agent.game
    state = game.initial_state()
    rec = make_recorder(game, agent, state)
    assert rec is not None
    res = agent.choose(state, recorder=rec)
    return rec.snapshot(res.pv)


def test_callout_and_hover_name_the_node() -> None:
    tree = tree_of(TWO_LEVEL)
    ov = overlay(tree)
    by_name = {v: k for k, v in node_names(tree).items()}
    ov.go_to_step(next(i for i, e in enumerate(ov.events) if e.node == by_name["E"] and not e.leaving))
    cur = ov.current_node()
    assert cur is not None
    assert cv.callout_text(ov, cur).startswith("entering E ")
    ov.go_to_step(next(i for i, e in enumerate(ov.events) if e.node == by_name["C"] and e.leaving))
    cur = ov.current_node()
    assert cur is not None
    assert cv.callout_text(ov, cur).startswith("leaving C ")
    ov.go_to_step(0)
    assert cv.callout_text(ov, tree.nodes[0]).startswith("entering A ")
    # the hover box names the node (and a pruned child the narration names) before its moves
    lines: list[str] = []
    real = cv.ui_font

    class Spy:
        def __init__(self, f: pygame.font.Font) -> None:
            self.f = f

        def size(self, t: str) -> tuple[int, int]:
            return self.f.size(t)

        def get_linesize(self) -> int:
            return self.f.get_linesize()

        def render(self, t: str, *a: object) -> pygame.Surface:
            lines.append(t)
            return self.f.render(t, *a)  # type: ignore[arg-type]

    surface = pygame.Surface(ov.rect.size)
    ov.go_to_step(None)
    ov.draw(surface)
    cv.ui_font = lambda px, bold=False: Spy(real(px, bold))  # type: ignore[assignment,return-value]
    try:
        for it in (ov.pic_lay.nodes if ov.pic_lay else []):
            if it.node_id == by_name["E"] or it.kind == PRUNED and it.moves == ("1",) and it.depth == 2:
                box = next(r for r, hit in ov.hits if hit is it)  # the pointer over the item, as drawn
                ov.point((ov.canvas_rect.x + box.centerx, ov.canvas_rect.y + box.centery), hover=True)
                assert ov.hover_item is it
                cv.draw_hover(ov, surface)
    finally:
        cv.ui_font = real  # type: ignore[assignment]
    assert "E (root > 0 > 1)" in lines and "left with α=5 β=3" in lines
    assert "never searched: 1 (G)" in lines


# -- 2. the alpha-beta line under each node at the step shown ---------------------------------------------------------
def aima_step_where_c_beta_is_2(tree: SearchTree) -> int:
    names = {v: k for k, v in node_names(tree).items()}
    c = tree.nodes[names["C"]]
    first = tree.nodes[c.children[0]]
    step = next(i for i, e in enumerate(step_events(tree)) if e.node == first.id and e.leaving)
    assert "at C (MIN), beta = min(+inf, 2) = 2, and alpha = 3 >= beta = 2" in narration(tree)[step]
    return step


def test_windows_under_the_nodes_follow_the_step() -> None:
    tree = tree_of(AIMA)
    step = aima_step_where_c_beta_is_2(tree)
    assert step == 11  # the teacher's "step 12"
    order = step_events(tree)[step].order
    by_id = {n.id: n for n in tree.nodes}
    full = layout(tree)
    lay = step_layout(full, by_id, order)
    pic = build_picture(lay, frame=full)
    c = node_names(tree)
    cid = next(k for k, v in c.items() if v == "C")
    assert window_under(pic, hit_box(pic, lay, lambda it: it.node_id == cid)) == "α=3 β=2"
    assert window_under(pic, hit_box(pic, lay, lambda it: it.node_id == 0)) == "α=3 β=+∞"
    legend = [it.text for it in pic.items if it.text in WINDOW_LEGEND]
    assert legend == [WINDOW_LEGEND[1]]
    # at the step entering C its window is the one it was searched with
    enter_c = next(e.order for e in step_events(tree) if e.node == cid and not e.leaving)
    lay2 = step_layout(full, by_id, enter_c)
    pic2 = build_picture(lay2, frame=full)
    assert window_under(pic2, hit_box(pic2, lay2, lambda it: it.node_id == cid)) == "α=3 β=+∞"
    # the same in the overlay at that step
    ov = overlay(tree)
    ov.go_to_step(step)
    opic, olay = ov.picture()
    assert opic is not None and olay is not None
    assert window_under(opic, hit_box(opic, olay, lambda it: it.node_id == cid)) == "α=3 β=2"
    assert window_under(opic, hit_box(opic, olay, lambda it: it.node_id == 0)) == "α=3 β=+∞"


def test_finished_picture_shows_windows_on_leaving_as_the_narration() -> None:
    tree = tree_of(AIMA)
    lay = layout(tree)
    pic = build_picture(lay)
    assert [it.text for it in pic.items if it.text in WINDOW_LEGEND] == [WINDOW_LEGEND[0]]
    # the narration's last words: "A (MAX) = max(3, 2, 2) = 3, with alpha = 3, beta = +inf"
    assert "with alpha = 3, beta = +inf" in narration(tree)[-1]
    assert window_under(pic, hit_box(pic, lay, lambda it: it.node_id == 0)) == "α=3 β=+∞"
    cid = next(k for k, v in node_names(tree).items() if v == "C")
    assert window_under(pic, hit_box(pic, lay, lambda it: it.node_id == cid)) == "α=3 β=2"
    # the root's recorded window on leaving is the full one; the window on leaving folds its children in
    root = tree.nodes[0]
    assert (root.alpha_out, root.beta_out) == (-INF, INF)
    assert live_window({n.id: n for n in tree.nodes}, root, root.leave_order) == (3.0, INF)


# -- 3. the step callout covers nothing else --------------------------------------------------------------------
def test_callout_keeps_clear_of_the_legend_other_nodes_and_its_own_lines() -> None:
    tree = tree_of(AIMA)
    ov = overlay(tree)
    ov.go_to_step(0)  # entering the root
    surface = pygame.Surface(ov.rect.size)
    ov.draw(surface)
    pic, lay = ov.picture()
    assert pic is not None and lay is not None
    # the legend is a strip of its own above the canvas: the tree (and its callout) never run under it
    assert pic.legend is None and ov.legend_rect.height > 0 and ov.legend_rect.bottom <= ov.canvas_rect.top
    rects = {it.node.id: r for r, it in ov.hits if it.node is not None}
    r = rects[0].inflate(26, 26)
    cur = ov.current_node()
    assert cur is not None
    canvas = pygame.Surface(ov.canvas_rect.size)
    model = ov.step_view()
    assert model is not None
    hard, _ = cv.callout_obstacles(model, ov.hits, r, [0])
    z, (ox, oy) = ov.zoom, ov.offset
    bx, by, bw, bh = pic.boxes[0]
    own = pygame.Rect(round(bx * z + ox), round(by * z + oy), round(bw * z), round(bh * z))  # A and its window
    box = cv.draw_callout(canvas, model, r, ov.hits, cv.callout_font(ov))
    back = box.inflate(12, 8)
    assert back.collidelist(hard) < 0 and not back.colliderect(own)
    assert canvas.get_rect().contains(back)
    assert not back.colliderect(r)


def test_place_callout_tries_right_left_above_below() -> None:
    node = pygame.Rect(200, 200, 60, 60)
    bounds = pygame.Rect(0, 0, 800, 600)
    size = (120, 20)
    right = cv.place_callout(size, node, bounds, [])
    assert right.left > node.right
    blocked_right = pygame.Rect(node.right + 2, node.top - 2, 300, 10)
    left = cv.place_callout(size, node, bounds, [blocked_right])
    assert left.right < node.left
    blocked_left = pygame.Rect(0, node.top - 2, node.left - 2, 10)
    above = cv.place_callout(size, node, bounds, [blocked_right, blocked_left])
    assert above.bottom < node.top
    blocked_above = pygame.Rect(0, 0, 800, node.top)
    below = cv.place_callout(size, node, bounds, [blocked_right, blocked_left, blocked_above])
    assert below.top > node.bottom
    # a label in the way (soft) is avoided when a free spot exists, else the callout still avoids nodes
    label = pygame.Rect(node.right + 4, node.top - 20, 200, 40)
    assert cv.place_callout(size, node, bounds, [], [label]).right < node.left
    everything = [blocked_right, blocked_left, blocked_above, pygame.Rect(0, node.bottom, 800, 400)]
    box = cv.place_callout(size, node, bounds, everything)
    assert bounds.contains(box.inflate(12, 8))


@pytest.mark.parametrize("preset", [TWO_LEVEL, AIMA])
def test_every_step_draws_with_names_and_windows(preset: str) -> None:
    tree = tree_of(preset)
    ov = overlay(tree)
    surface = pygame.Surface(ov.rect.size)
    for i in range(len(ov.events)):
        ov.go_to_step(i)
        ov.draw(surface)
        pic, lay = ov.picture()
        assert pic is not None and lay is not None
        for it in lay.nodes:
            if it.kind == NODE and it.node is not None and it.shape in ("MAX", "MIN"):
                box = hit_box(pic, lay, lambda x, it=it: x is it)
                a, b = live_window(ov.by_id, ov.by_id[it.node.id], ov.events[i].order)
                assert window_under(pic, box).startswith("α=")
                assert window_under(pic, box) == f"α={number_text(a)} β={number_text(b)}"
