"""One decision, one set of counts: the window (side panel and overlay), ``analyze``, ``tree`` and the exports
agree, and each names what it counts (issue 10, fault 4)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pygame
import pytest
from ui_driver import overlay_texts

from ai.agents.agents import make_agent
from ai.teaching.decision_tree import record_decision, recorder_bound
from ai.teaching.trace import number_text
from gameplay.cli import run
from gameplay.pictures.tree_picture import header_lines
from gameplay.ui.overlay.overlay import TreeOverlay, make_recorder, show_decision
from gameplay.ui.play.match import MatchScene
from gameplay.ui.shell.app import App

# (game, agent spec, moves before the decision or None, the same position for ``tree --position``)
CASES = [
    ("tictactoe", "medium", "4", "....X...."),
    ("checkers", "alphabeta:depth=6", None, None),
]



def _cli_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert run(argv) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def _window_decision(app: App, game: str, spec: str, moves: str | None) -> MatchScene:
    """The decision as the window makes it: the match scene records it on its runner thread."""
    ai, human = make_agent(game, spec), make_agent(game, "human")
    scene = MatchScene(game, (human, ai) if moves else (ai, human), ai_delay_s=0.0)
    app.push(scene)
    app.run(max_frames=1)
    for m in (moves or "").split():
        assert scene.play(scene.game.parse_move(scene.record.state, m), "human")
    from ui_driver import pump
    pump(app, lambda: scene.last_decision is not None and scene.overlay.tree is not None, 60.0)
    assert scene.last_decision is not None and scene.overlay.tree is not None
    return scene


@pytest.mark.parametrize("game,spec,moves,position", CASES)
def test_every_screen_shows_the_same_counts(app: App, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch, tmp_path: Path, game: str, spec: str,
                                             moves: str | None, position: str | None) -> None:
    scene = _window_decision(app, game, spec, moves)
    _, move_text, res = scene.last_decision  # type: ignore[misc]
    ov = scene.overlay
    tree, info = ov.tree, ov.info
    assert tree is not None and info is not None and info.counts is not None

    # analyze: the same decision without a recorder
    argv = ["analyze", game, "--agent", spec, "--json"] + (["--moves", moves] if moves else [])
    analyzed = _cli_json(capsys, argv)
    assert analyzed["nodes"] == res.nodes and analyzed["move"] == move_text and analyzed["depth"] == res.depth
    assert analyzed["iterations"] == res.extra["iterations"]

    # the side panel names its count: all iterations, equal to analyze's
    assert f"{res.nodes:,} nodes in all iterations" in scene.decision_html()

    # the overlay: the tree's own iteration, and the whole decision
    c = info.counts
    iteration = next(it for it in res.extra["iterations"] if it["depth"] == tree.depth)
    assert tree.visited == c.shown_nodes == iteration["nodes"]
    assert c.total_nodes == tree.total_nodes == res.nodes == analyzed["nodes"]
    drawn = overlay_texts(ov, monkeypatch)
    label = f"Nodes in this tree (depth {tree.depth} iteration)"
    assert label in drawn and drawn[drawn.index(label) + 1] == f"{tree.visited:,}"
    assert "Nodes, all iterations" in drawn
    assert drawn[drawn.index("Nodes, all iterations") + 1] == f"{analyzed['nodes']:,}"
    assert "the whole search" in info.notes[0] and f"{res.nodes:,} nodes" in info.notes[0]

    # the exported header: the shown iteration's root value and depth
    root = tree.nodes[0]
    assert info.summary["value"] == root.value and info.summary["depth"] == tree.depth
    head = " ".join(header_lines(tree, info.summary))
    assert f"value {number_text(root.value)} · depth {tree.depth}" in head
    assert f"{tree.visited:,} nodes visited in this depth {tree.depth} iteration" in head
    assert f"{res.nodes:,} in all iterations" in head

    # main.py tree: the same recorder bound, so the same iteration, named the same way
    targs = ["tree", game, "--agent", spec] + (["--position", position] if position else [])
    obj = _cli_json(capsys, targs + ["--json"])
    assert obj["nodes"] == obj["total_nodes"] == res.nodes
    assert obj["tree_depth"] == tree.depth and obj["iteration_nodes"] == tree.visited
    assert obj["tree_value"] == root.value and obj["recorded_nodes"] == tree.recorded_visits
    out = tmp_path / "t.json"
    assert run(targs + ["--out", str(out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["visited"] == tree.visited and doc["depth"] == tree.depth and doc["total_nodes"] == res.nodes
    assert doc["summary"]["value"] == doc["nodes"][0]["value"] == root.value
    assert doc["summary"]["iteration_nodes"] == tree.visited and doc["summary"]["total_nodes"] == res.nodes


def test_tree_uses_the_overlays_recorder_bound() -> None:
    game_name = "checkers"
    _, _, res, tree = record_decision(game_name, None, "alphabeta:depth=6")
    agent = make_agent(game_name, "alphabeta:depth=6")
    rec = make_recorder(agent.game, agent, agent.game.initial_state())
    assert rec is not None and rec.max_nodes == recorder_bound(game_name) == 15_000
    agent.choose(agent.game.initial_state(), recorder=rec)
    window = rec.snapshot()
    assert (tree.depth, tree.visited, len(tree.nodes)) == (window.depth, window.visited, len(window.nodes))


def test_a_shallower_shown_iteration_says_so_and_its_header_matches_its_root() -> None:
    agent = make_agent("checkers", "alphabeta:depth=6")
    game = agent.game
    state = game.initial_state()
    rec = make_recorder(game, agent, state, max_nodes=300)
    assert rec is not None
    res = agent.choose(state, recorder=rec)
    ov = TreeOverlay()
    ov.set_rect(pygame.Rect(0, 0, 1400, 980))
    assert show_decision(ov, game, state, agent, res, rec, player_name="Black",
                         move_text=game.format_move(state, res.move))
    tree, info = ov.tree, ov.info
    assert tree is not None and info is not None and info.counts is not None
    assert 0 < tree.depth < res.depth == 6 and info.depth == tree.depth
    # said at the title's size, not in the small grey notes
    assert info.headline[0].startswith(f"Depth {tree.depth} shown: value {number_text(tree.nodes[0].value)}")
    assert info.headline[0].endswith(f"(the move came from depth {res.depth})")
    assert f"depth {tree.depth}, recorded whole" in info.notes[0]
    root = tree.nodes[0]
    s = info.summary
    assert s["value"] == root.value and s["depth"] == tree.depth
    assert s["final_depth"] == res.depth and s["final_value"] == res.value
    shown = next(it for it in res.extra["iterations"] if it["depth"] == tree.depth)
    assert s["iteration_nodes"] == tree.visited == shown["nodes"] and s["total_nodes"] == res.nodes
    head = header_lines(tree, s)
    assert f"value {number_text(res.value)} · depth {res.depth}" in head[1]  # the decision, as the title says it
    assert head[2] == info.headline[0]  # then the shown iteration, the overlay's words, at the numbers' size
    # like with like: the minimax comparison is at the shown iteration's depth
    assert info.minimax.depth == tree.depth


@pytest.mark.parametrize("game,spec,position", [
    ("checkers", "alphabeta:depth=6", None),
    ("pig", "expectimax:depth=2", "10,20,5,1"),
])
def test_recording_changes_nothing(game: str, spec: str, position: str | None) -> None:
    plain = make_agent(game, spec)
    g = plain.game
    state = g.initial_state() if position is None else g.parse_position(position)
    a = plain.choose(state)
    recorded = make_agent(game, spec)
    rec = make_recorder(g, recorded, state)
    assert rec is not None
    b = recorded.choose(state, recorder=rec)
    assert (a.move, a.value, a.depth, a.nodes) == (b.move, b.value, b.depth, b.nodes)
    assert a.extra["iterations"] == b.extra["iterations"]
    assert rec.total_nodes == b.nodes
    assert [r.nodes for r in rec.iteration_records] == [it["nodes"] for it in b.extra["iterations"]]
