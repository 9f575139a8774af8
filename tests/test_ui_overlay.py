"""Headless tests of the search-tree overlay: toggling it in a game, the step-through, bounds, counts, export."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame
import ui_driver

from ai.agents.agents import make_agent
from ai.kernel.recording import MIN
from ai.teaching.decision_model import MinimaxCount, TreeInfo, count_full_tree
from ai.teaching.trace import step_events
from ai.teaching.treelab import TreeSettings, search_tree
from gameplay.rules.trees import parse_tree
from gameplay.ui.overlay.overlay import TreeOverlay, make_recorder, show_decision
from gameplay.ui.play.match import MatchScene
from gameplay.ui.shell.app import App


def pump(app: App, until: Callable[[], bool], timeout_s: float = 60.0) -> None:
    """Frames until ``until()``: ``ui_driver.pump``'s wall-clock bound (a count of frames ran out before a pure-Python
    search on a loaded machine answered)."""
    ui_driver.pump(app, until, timeout_s)


def key(app: App, k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    app.run(max_frames=1)


def tictactoe_match(app: App) -> MatchScene:
    human, ai = make_agent("tictactoe", "human"), make_agent("tictactoe", "alphabeta:depth=3")
    scene = MatchScene("tictactoe", (human, ai), ai_delay_s=0.0)
    app.push(scene)
    app.run(max_frames=1)
    scene.play(4, "human")
    pump(app, lambda: scene.last_decision is not None)
    return scene


def test_overlay_toggles_during_a_game_and_shows_the_last_decision(app: App) -> None:
    scene = tictactoe_match(app)
    assert not scene.overlay.visible
    key(app, pygame.K_t)
    ov = scene.overlay
    assert ov.visible and ov.tree is not None and ov.info is not None
    _, move, _ = scene.last_decision  # type: ignore[misc]
    assert ov.info.title.startswith(f"O played {move}")
    root = ov.tree.nodes[0]
    assert root.kind == "MAX" and root.depth == 0
    assert len(root.children) + len(root.skipped) == 8  # O had 8 replies to X in the centre
    pv_child = next(ov.tree.nodes[k] for k in root.children if ov.tree.nodes[k].on_pv)
    assert pv_child.move == move
    assert ov.tree.algorithm == "alphabeta" and ov.info.depth == 3
    # drawn, the node labels no smaller than the least Fit allows (16 px tall glyphs: the default view shows the
    # layout with the most nodes that reads at that size, here the best line to depth 3 at 17.5 px)
    from gameplay.ui.overlay import overlay_view
    assert ov.font_size * ov.zoom >= overlay_view.MIN_TEXT_PX
    assert ov.hits
    # the toolbar button hides it again
    ui_driver.click(app, scene.widget("tree").get_abs_rect().center)
    assert not ov.visible


def test_step_through_follows_the_visiting_order_with_page_keys(app: App) -> None:
    scene = tictactoe_match(app)
    key(app, pygame.K_t)
    ov = scene.overlay
    assert ov.tree is not None
    order = step_events(ov.tree)
    assert ov.current_node() is None  # the finished search first
    seen = []
    for _ in range(6):
        key(app, pygame.K_PAGEDOWN)
        ev = ov.current_event()
        assert ev is not None
        seen.append((ev.node, ev.leaving))
    assert seen == [(e.node, e.leaving) for e in order[:6]]
    assert seen[0] == (0, False)  # the root is entered first
    key(app, pygame.K_PAGEUP)
    assert ov.step == 4
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_RIGHT)
    assert ov.step == 6
    key(app, pygame.K_LEFT)
    assert ov.step == 5
    key(app, pygame.K_HOME)
    assert ov.step == 0
    key(app, pygame.K_SPACE)
    assert ov.playing
    ov.update(1.0)
    assert ov.step is not None and ov.step > 0
    key(app, pygame.K_END)
    assert ov.step is None and not ov.playing


def test_minimax_count_is_exact_for_a_small_search() -> None:
    agent = make_agent("tictactoe", "alphabeta:depth=4")
    game = agent.game
    state = game.parse_position("X........")
    rec = make_recorder(game, agent, state)
    res = agent.choose(state, recorder=rec)
    ov = TreeOverlay()
    ov.set_rect(pygame.Rect(0, 0, 1400, 980))
    assert show_decision(ov, game, state, agent, res, rec, player_name="O", move_text=str(res.move))
    mm = ov.info.minimax  # type: ignore[union-attr]
    if mm.thread is not None:
        mm.thread.join(10)
    assert mm.status == "exact" and mm.exact
    assert mm.nodes == count_full_tree(game, state, 4) == 1 + 8 + 8 * 7 + 8 * 7 * 6 + 8 * 7 * 6 * 5
    assert ov.tree is not None and ov.tree.visited < mm.nodes


def test_recorder_keeps_the_deepest_iteration_that_fits() -> None:
    agent = make_agent("tictactoe", "minimax:depth=4")
    game = agent.game
    state = game.initial_state()
    rec = make_recorder(game, agent, state, max_nodes=200)
    res = agent.choose(state, recorder=rec)
    tree = rec.snapshot(res.pv)  # type: ignore[union-attr]
    # minimax with a depth and no time searches as the textbook does (issue 49): a depth-1 pass (a cancel always has
    # a move), then one pass at depth 4 (3,610 nodes), which does not fit 200: the depth-1 pass is kept
    assert rec.iterations == 2 and rec.fit_iteration == 1  # type: ignore[union-attr]
    assert not tree.truncated and len(tree.nodes) == 1 + 9
    rec = make_recorder(game, agent, state, max_nodes=200)
    res = make_agent("tictactoe", "minimax:depth=4,time=60").choose(state, recorder=rec)  # deepening: 1, 2, 3, 4
    tree = rec.snapshot(res.pv)  # type: ignore[union-attr]
    assert rec.iterations == 4 and rec.fit_iteration == 2  # type: ignore[union-attr]
    assert not tree.truncated and len(tree.nodes) == 1 + 9 + 72


def test_pig_values_stay_in_the_root_players_view() -> None:
    agent = make_agent("pig", "expectimax:depth=2")
    game = agent.game
    state = game.parse_position("10,20,5,1")
    rec = make_recorder(game, agent, state)
    res = agent.choose(state, recorder=rec)
    tree = rec.snapshot(res.pv)  # type: ignore[union-attr]
    by_id = {n.id: n for n in tree.nodes}
    chance = [n for n in tree.nodes if n.kind == "CHANCE"]
    assert chance
    for n in tree.nodes:
        if n.kind == MIN and n.children:  # the opponent's turn after a rolled 1: its roll is its worst case for us
            assert n.value == min(by_id[k].value for k in n.children)
    for c in chance:
        kids = [by_id[k] for k in c.children]
        assert abs(c.value - sum(k.probability * k.value for k in kids)) < 1e-9  # type: ignore[operator]


def test_bounds_not_false_exact_values_in_the_overlay() -> None:
    res = search_tree(parse_tree("[[3,12,8],[2,4,6],[14,5,2]]"), TreeSettings("alphabeta"))
    ov = TreeOverlay(whole=True)
    ov.set_rect(pygame.Rect(0, 0, 1400, 980))
    ov.set_tree(res.tree, TreeInfo("AIMA", minimax=MinimaxCount(13, True, "exact")))
    kids = [res.tree.nodes[k] for k in res.tree.nodes[0].children]
    assert [k.label() for k in kids] == ["3", "<= 2", "2"]
    pic, _ = ov.picture()
    texts = {it.text for it in pic.items if it.op == "text"}  # type: ignore[union-attr]
    assert {"3", "≤ 2", "2"} <= texts  # the picture writes the bound sign
    assert any(t.startswith("α=3 ≥ β=2") for t in texts)  # the pruned subtree says why
    # a replay step inside the second MIN node shows what is known so far: "<= 2" after its first leaf
    ov.show()
    second = kids[1]
    leaf = res.tree.nodes[second.children[0]]
    ov.go_to_step(next(i for i, e in enumerate(ov.events) if e.node == leaf.id and e.leaving))
    lay = ov.reached_layout()
    shown = {it.node.id: it.node.label() for it in lay.nodes if it.node is not None}  # type: ignore[union-attr]
    assert shown[second.id] == "<= 2" and shown[0] == ">= 3"
    assert kids[2].id not in shown  # not reached yet


def test_export_writes_every_format(tmp_path: Path) -> None:
    res = search_tree(parse_tree("[[3,12,8],[2,4,6],[14,5,2]]"), TreeSettings("alphabeta"))
    ov = TreeOverlay(export_dir=tmp_path)
    ov.set_tree(res.tree, TreeInfo("AIMA", stem="aima"))
    files = ov.export()
    assert sorted(p.suffix for p in files) == sorted([".svg", ".png", ".dot", ".json", ".txt", ".md"])
    assert all(p.exists() and p.stat().st_size > 0 for p in files)
    assert str(tmp_path) in ov.message


def test_demo_overlay_shows_itself_and_draws(app: App) -> None:
    scene = app.start_match("tictactoe", "alphabeta:depth=2", "alphabeta:depth=2")
    scene.ai_delay_s = 0.0
    scene.overlay_on_start = True
    pump(app, lambda: scene.overlay.tree is not None)
    app.run(max_frames=2)
    assert scene.overlay.visible and not scene.paused


def test_a_stopped_minimax_count_is_finished_when_shown_again() -> None:
    """Leaving the match (race, help) or showing another decision stops the count; showing it again (or coming
    back) restarts it, so the counter never stays at "counting..." (found by the race's author)."""
    agent = make_agent("tictactoe", "alphabeta:depth=4")
    game = agent.game
    state = game.parse_position("X........")
    rec = make_recorder(game, agent, state)
    res = agent.choose(state, recorder=rec)
    ov = TreeOverlay()
    ov.set_rect(pygame.Rect(0, 0, 1400, 980))
    assert show_decision(ov, game, state, agent, res, rec, player_name="O", move_text=str(res.move))
    mm = ov.info.minimax  # type: ignore[union-attr]
    if mm.thread is not None:
        mm.thread.join(10)
    for again in (ov.resume, lambda: ov.set_tree(ov.tree, ov.info)):  # back to the match; the decision re-shown
        mm.stop.set()  # what close() does when the match leaves the screen...
        mm.status, mm.nodes, mm.exact, mm.thread = "counting", None, False, None  # ...before the count finished
        again()
        assert mm.thread is not None and not mm.stop.is_set()
        mm.thread.join(10)
        assert mm.status == "exact" and mm.nodes == count_full_tree(game, state, 4)
