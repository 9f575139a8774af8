"""Every recorded node can be seen in the search-tree overlay, and every node the search visited is accounted for.

* each ``+N nodes`` marker opens when clicked (a collapsed subtree, or the siblings past ``max_children``), and
  clicking markers until none is left shows every recorded node;
* where the recorder's bound stopped recording, a box counts the nodes searched but not recorded; it opens
  nothing, and recorded + not recorded + capture search = the nodes the iteration visited;
* a chance node never hides some of its outcomes behind a marker;
* right-click or A on a node shows all its children.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pygame
import pytest
from ui_driver import pump

from ai.agents.agents import make_agent
from ai.kernel.recording import CHANCE, RecordedNode, SearchTree
from ai.teaching.decision_model import TreeInfo
from ai.teaching.decision_tree import decision_counts, make_recorder, record_decision, record_decision_model
from ai.teaching.tree_recorder import TreeRecorder
from gameplay.pictures.picture_build import build_picture
from gameplay.pictures.tree_layout import COLLAPSED, NODE, UNRECORDED, TreeLayout, layout
from gameplay.pictures.tree_picture import unrecorded_dash
from gameplay.ui.overlay.overlay import TreeOverlay
from gameplay.ui.play.match import MatchScene
from gameplay.ui.shell.app import App

DECISIONS = [
    ("tictactoe", "....X....", "medium"),  # O answers X in the centre: alpha-beta, depth 4
    ("checkers", None, "alphabeta:depth=4"),  # with the capture (quiescence) search below the leaves
    ("pig", "10,20,8,1", "expectimax:depth=3"),  # chance nodes: six die faces
]
IDS = ["tictactoe", "checkers", "pig"]


def shown_ids(lay: TreeLayout) -> set[int]:
    return {it.node.id for it in lay.nodes if it.node is not None}


def markers(lay: TreeLayout) -> list[Any]:
    return [it for it in lay.nodes if it.kind == COLLAPSED]


def overlay_for(tree: SearchTree, size: tuple[int, int] = (1280, 800)) -> TreeOverlay:
    ov = TreeOverlay()
    ov.set_rect(pygame.Rect(0, 0, *size))
    ov.set_tree(tree, TreeInfo("decision"))
    ov.show()
    return ov


def draw(ov: TreeOverlay) -> None:
    ov.draw(pygame.Surface(ov.rect.size))


def screen_pos(ov: TreeOverlay, index: int) -> tuple[int, int] | None:
    """Where the layout item ``index`` is drawn (window pixels), if it is inside the canvas."""
    c = ov.canvas_rect
    for r, it in ov.hits:
        if it.index == index and c.collidepoint(c.x + r.centerx, c.y + r.centery):
            return c.x + r.centerx, c.y + r.centery
    return None


def open_everything(ov: TreeOverlay, tree: SearchTree, click: Callable[[Any], object]) -> int:
    """Open the first marker until none is left; each opening must add recorded nodes. Returns the clicks."""
    clicks = 0
    assert ov.lay is not None
    while markers(ov.lay):
        before = shown_ids(ov.lay)
        click(markers(ov.lay)[0])
        after = shown_ids(ov.lay)
        assert after > before  # more recorded nodes, none taken away
        clicks += 1
        assert clicks <= len(tree.nodes)
    # every node of the finished search (a re-searched node once, with its re-search's children; what its failed
    # null-window test searched is shown by the step-through while the test runs: test_pvs_one_truth.py)
    final = tree.final_ids()
    assert shown_ids(ov.lay) == final
    assert ov.lay.hidden == 0 and ov.lay.shown == len(final)
    return clicks


# -- 1. every "+N nodes" box opens ----------------------------------------------------------------------------
@pytest.mark.parametrize(("game", "position", "spec"), DECISIONS, ids=IDS)
def test_every_marker_opens_and_every_recorded_node_can_be_shown(game: str, position: str | None,
                                                                 spec: str) -> None:
    _, _, _, tree = record_decision(game, position, spec)
    assert not tree.truncated
    ov = overlay_for(tree)
    draw(ov)
    lay = ov.lay
    assert lay is not None and markers(lay), "the default view hides something"
    clicked = 0
    for m in markers(lay):
        before = shown_ids(lay)
        pos = screen_pos(ov, m.index)
        if pos is not None:  # the real click, at the marker's hit box
            assert ov.click(pos) is not None
            clicked += 1
        else:  # off the canvas: what the click calls
            assert ov.open_item(m, lay)
        after = shown_ids(ov.lay)
        assert after > before, f"+{m.hidden} nodes did not open"
        # the marker's promise: a subtree marker shows its node's children, a siblings marker all the siblings
        parent = lay.nodes[m.parent].node
        assert parent is not None
        if m.siblings:
            assert set(parent.children) <= after
        else:
            assert set(parent.children) & (after - before)
        ov.reset_requests()
        ov.relayout()
        draw(ov)
        lay = ov.lay
        assert shown_ids(lay) == before
    assert clicked
    opened = open_everything(ov, tree, ov.open_item)
    assert opened >= 1


def test_the_root_siblings_marker_opens_in_a_game() -> None:
    """Tic-tac-toe, O on ``medium``: X plays the centre, T, click the ``+N nodes`` beside the root's children."""
    app = App(size=(1280, 800), fps=1000)
    try:
        human, ai = make_agent("tictactoe", "human"), make_agent("tictactoe", "medium")
        scene = MatchScene("tictactoe", (human, ai), ai_delay_s=0.0)
        app.push(scene)
        app.run(max_frames=1)
        scene.play(4, "human")
        # wall-clock bound, not a frame count: 400 frames (0.4 s at the tests' 1000 fps) ran out before a pure-Python
        # search on a loaded machine answered (CI of the install without a compiler, 2026-12-02)
        pump(app, lambda: scene.last_decision is not None, 60.0)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_t, mod=0, unicode="t", scancode=0))
        app.run(max_frames=2)
        ov = scene.overlay
        assert ov.visible and ov.tree is not None and ov.lay is not None
        root = ov.tree.nodes[0]
        lay = ov.lay
        rest = next(m for m in markers(lay) if m.siblings and lay.nodes[m.parent].node_id == 0)
        assert len(root.children) == 8 and rest.hidden > 0
        r = next(r for r, it in ov.hits if it.index == rest.index)
        c = ov.canvas_rect
        if screen_pos(ov, rest.index) is None:  # beside the fitted view: drag the tree until it is in sight
            p0 = c.center
            p1 = (p0[0] + c.width // 2 - r.centerx, p0[1] + c.height // 2 - r.centery)
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=p0, button=1))
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=p1, rel=(p1[0] - p0[0], p1[1] - p0[1]),
                                                 buttons=(1, 0, 0)))
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=p1, button=1))
            app.run(max_frames=2)
        assert ov.lay is lay  # dragging opened nothing
        pos = screen_pos(ov, rest.index)
        assert pos is not None
        before = shown_ids(lay)
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            pygame.event.post(pygame.event.Event(kind, pos=pos, button=1))
        app.run(max_frames=2)
        after = shown_ids(ov.lay)
        assert set(root.children) <= after and after > before
        assert not any(m.siblings and ov.lay.nodes[m.parent].node_id == 0 for m in markers(ov.lay))
        newly = set(root.children) - before  # the siblings the marker stood for, each now with its own marker
        assert after - before == newly and len(newly) == len(rest.moves)
        assert rest.hidden == sum(len(_descendants(ov.tree, k)) for k in newly)
    finally:
        app.close()


def _descendants(tree: SearchTree, i: int) -> list[int]:
    by = {n.id: n for n in tree.nodes}
    out, stack = [], [i]
    while stack:
        j = stack.pop()
        out.append(j)
        stack.extend(by[j].children)
    return out


# -- 2. nodes searched but not recorded -----------------------------------------------------------------------
def _subtotals(tree: SearchTree) -> dict[int, int]:
    """Nodes the search counted in each recorded node's subtree: itself (once per pass: a null-window test and its
    re-search), its capture search, what was not recorded below it, and the subtotals of the children each of its
    passes searched."""
    by = {n.id: n for n in tree.nodes}
    tot: dict[int, int] = {}
    for n in sorted(tree.nodes, key=lambda n: -n.id):
        kids = [k for p in n.passes for k in p.children] if n.passes else list(n.children)
        tot[n.id] = n.visits + n.capture + n.unrecorded + sum(tot[k] for k in kids if k in by)
    return tot


def _record(game_name: str, position: str | None, spec: str, max_nodes: int) -> tuple[SearchTree, int]:
    """The last iteration of ``spec``'s decision recorded by a plain TreeRecorder; and the search's own node
    count of that iteration."""
    agent = make_agent(game_name, spec)
    game = agent.game
    state = game.initial_state() if position is None else game.parse_position(position)
    rec = TreeRecorder(game, game.to_move(state), max_nodes=max_nodes, algorithm=agent.settings.algorithm,
                       negamax=game_name != "pig")
    res = agent.choose(state, recorder=rec)
    return rec.snapshot(), int(res.extra["iterations"][-1]["nodes"])


@pytest.mark.parametrize(("game", "position", "spec"), DECISIONS, ids=IDS)
def test_nodes_not_recorded_are_counted_where_the_recording_stopped(game: str, position: str | None,
                                                                   spec: str) -> None:
    whole, visited = _record(game, position, spec, 1_000_000)
    cut, visited_cut = _record(game, position, spec, 50)
    assert not whole.truncated and cut.truncated and cut.recorded_visits == 50
    assert whole.visited == cut.visited == visited == visited_cut  # the search's own count of the iteration
    # recorded + not recorded + capture search = visited, for the whole and for the truncated recording
    for t in (whole, cut):
        assert t.recorded_visits + sum(n.unrecorded for n in t.nodes) + sum(n.capture for n in t.nodes) == t.visited
    assert sum(n.unrecorded for n in whole.nodes) == 0
    assert sum(n.unrecorded for n in cut.nodes) > 0
    # node by node: what the truncated recording accounts for below a node is what the whole one recorded there
    full = _subtotals(whole)
    visits = {n.id: n.visits for n in whole.nodes}
    cut_visits = {n.id: n.visits for n in cut.nodes}
    # (a node whose re-search came after the recording stopped has it counted at its parent, as not recorded)
    assert all(full[i] == v for i, v in _subtotals(cut).items() if cut_visits[i] == visits[i])
    # only the nodes open when the recording stopped (one path from the root) have unrecorded nodes
    by = {n.id: n for n in cut.nodes}
    open_ids = sorted(n.id for n in cut.nodes if n.unrecorded)
    def ancestors(i: int) -> set[int]:
        out: set[int] = set()
        p = by[i].parent
        while p is not None:
            out.add(p)
            p = by[p].parent
        return out

    assert open_ids[0] == 0 and all(a in ancestors(b) for a, b in zip(open_ids, open_ids[1:]))


@pytest.mark.parametrize(("game", "position", "spec"), DECISIONS, ids=IDS)
def test_capture_search_matches_the_decision_counts(game: str, position: str | None, spec: str) -> None:
    g, state, res, rec = record_decision_model(game, position, spec)
    tree = rec.snapshot(tuple(res.pv))
    counts = decision_counts(g, state, res, rec, tree)
    assert counts.shown_whole
    assert sum(n.capture for n in tree.nodes) == counts.capture_nodes == tree.visited - tree.recorded_visits
    assert all(n.capture == 0 for n in tree.nodes if n.note != "leaf")
    if game == "checkers":
        assert counts.capture_nodes > 0  # the capture search ran below some leaves
    else:
        assert counts.capture_nodes == 0


@pytest.mark.parametrize(("game", "position", "spec"), DECISIONS, ids=IDS)
def test_unrecorded_boxes_show_the_count_and_open_nothing(game: str, position: str | None, spec: str) -> None:
    tree, _ = _record(game, position, spec, 50)
    ov = overlay_for(tree)
    open_everything(ov, tree, ov.open_item)
    lay = ov.lay
    assert lay is not None
    boxes = [it for it in lay.nodes if it.kind == UNRECORDED]
    # one box under each node with unrecorded nodes, saying how many
    assert sorted((lay.nodes[b.parent].node_id, b.hidden) for b in boxes) == sorted(
        (n.id, n.unrecorded) for n in tree.nodes if n.unrecorded and n.id in tree.final_ids())
    final = tree.final_ids()
    assert lay.unrecorded == sum(n.unrecorded for n in tree.nodes if n.id in final)
    # the nodes drawn, the passes before a re-search and what those tests searched below them (the step-through's),
    # the boxes and the capture search: every node the iteration visited
    earlier = sum(n.visits - 1 for n in tree.nodes if n.id in final)
    tests = sum(n.visits + n.unrecorded for n in tree.nodes if n.id not in final)
    assert lay.shown + earlier + tests + lay.unrecorded + sum(n.capture for n in tree.nodes) == tree.visited
    # drawn with its count, and without a hit box: a click there, or the action, opens nothing
    pic = build_picture(lay)
    texts = [i.text for i in pic.items if i.op == "text"]
    for b in boxes:
        assert f"{b.hidden} node{'s' if b.hidden != 1 else ''}" in texts
        assert not ov.open_item(b, lay)
        assert not ov.open_item(b, lay, everything=True)
    assert "not recorded" in texts and "searched," in texts
    assert not any(lay.nodes[i].kind == UNRECORDED for i, _ in pic.hits)
    draw(ov)
    assert ov.hits and not any(it.kind == UNRECORDED for _, it in ov.hits)
    version = ov.layout_version
    centers = _box_centers(ov)
    assert len(centers) == len(boxes)
    c = ov.canvas_rect
    for x, y in centers:  # bring the box to the middle of the canvas, and click it
        ov.pan((c.width / 2 - x * ov.zoom, c.height / 2 - y * ov.zoom))
        draw(ov)
        assert ov.click(c.center) is None and ov.click(c.center, show_all=True) is None
    assert ov.layout_version == version and ov.lay is lay


def _box_centers(ov: TreeOverlay) -> list[tuple[float, float]]:
    """Picture coordinates of the drawn ``unrecorded`` boxes, in layout order (the legend's sample left out)."""
    pic = ov.picture()[0]
    assert pic is not None
    dash = unrecorded_dash(ov.font_size / 20.0)
    return [((i.pts[0][0] + i.pts[1][0]) / 2, (i.pts[0][1] + i.pts[1][1]) / 2) for i in pic.items
            if i.op == "rect" and i.dash == dash and i.pts[1][1] - i.pts[0][1] > 40]


def test_a_truncated_decision_of_the_window_says_what_was_not_recorded() -> None:
    """The window's recorder (``make_recorder``) with a bound smaller than the first iteration."""
    agent = make_agent("tictactoe", "medium")
    game = agent.game
    state = game.parse_position("....X....")
    rec = make_recorder(game, agent, state, max_nodes=5)
    assert rec is not None
    res = agent.choose(state, recorder=rec)
    tree = rec.snapshot(tuple(res.pv))
    assert tree.truncated and len(tree.nodes) == 5 and tree.visited == 1 + 8  # depth 1: the root and 8 replies
    assert [(n.id, n.unrecorded) for n in tree.nodes if n.unrecorded] == [(0, 4)]
    lay = layout(tree)
    box = next(it for it in lay.nodes if it.kind == UNRECORDED)
    assert box.hidden == 4 and lay.nodes[box.parent].node_id == 0
    assert not markers(lay)


# -- 3. chance nodes show every outcome ------------------------------------------------------------------------
@pytest.mark.parametrize("size", [(1280, 800), (1000, 700), (1900, 1000)])
def test_expanded_chance_nodes_show_every_outcome(size: tuple[int, int]) -> None:
    _, _, _, tree = record_decision("pig", "10,20,8,1", "expectimax:depth=3")
    ov = overlay_for(tree, size)
    lay = ov.lay
    assert lay is not None
    by = {n.id: n for n in tree.nodes}
    expanded = [it for it in lay.nodes if it.node is not None and it.node.kind == CHANCE and it.children
                and lay.nodes[it.children[0]].kind != COLLAPSED]
    assert expanded, "the principal variation's chance node is expanded"
    for it in expanded:
        n: RecordedNode = it.node  # type: ignore[assignment]
        shown = [lay.nodes[c].node_id for c in it.children if lay.nodes[c].kind == NODE]
        assert shown == list(n.children) and len(shown) == 6
        assert not any(lay.nodes[c].kind == COLLAPSED for c in it.children)
        # the class can check the expected value: the sum of p * v over the six faces
        assert sum((by[k].probability or 0.0) * by[k].value for k in n.children) == pytest.approx(n.value)
    # max_children never splits a chance node, whatever the budget
    small = layout(tree, max_children=3, max_width=4, collapse=30)
    for it in small.nodes:
        if it.node is not None and it.node.kind == CHANCE and it.children:
            assert not any(small.nodes[c].siblings for c in it.children)


# -- 4. show all children --------------------------------------------------------------------------------------
def test_right_click_and_a_show_all_children() -> None:
    _, _, _, tree = record_decision("tictactoe", "....X....", "medium")
    ov = overlay_for(tree, (1000, 700))
    draw(ov)
    lay = ov.lay
    assert lay is not None
    # a node with recorded children that are not all shown
    def partly_shown(lay: TreeLayout) -> list[Any]:
        ids = shown_ids(lay)
        return [it for it in lay.nodes if it.node is not None and it.node.children
                and not set(it.node.children) <= ids and screen_pos(ov, it.index) is not None]

    first = partly_shown(lay)
    assert first
    target = first[0]
    pos = screen_pos(ov, target.index)
    assert pos is not None
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        assert ov.handle_event(pygame.event.Event(kind, pos=pos, button=3))
    assert target.node is not None and target.node.id in ov.show_all
    assert set(target.node.children) <= shown_ids(ov.lay)
    # A over another node does the same
    draw(ov)
    second = partly_shown(ov.lay)
    assert second
    pos = screen_pos(ov, second[0].index)
    assert pos is not None and second[0].node is not None
    ov.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    assert ov.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=0, unicode="a", scancode=0))
    assert set(second[0].node.children) <= shown_ids(ov.lay)
    # a new decision starts from the default view again
    ov.set_tree(tree, TreeInfo("again"))
    assert not ov.show_all and not ov.expand


@pytest.fixture(autouse=True)
def _fonts() -> Iterator[None]:
    pygame.font.init()
    yield
