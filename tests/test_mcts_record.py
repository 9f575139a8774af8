"""The MCTS record (``ai.teaching.mcts_record``): what the overlay, the Tree Lab and ``tree --agent mcts`` show is
exactly what the search did, simulation by simulation."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from ai.agents.agents import make_agent
from ai.teaching.mcts_record import MCTSRecorder, trace_json
from ai.teaching.treelab import parse_tree_agent
from ai.teaching.treelab_mcts import search_tree_mcts
from gameplay.cli import run
from gameplay.rules.trees import parse_tree

FIG52 = "[[3,12,8],[2,4,6],[14,5,2]]"
"""AIMA figure 5.2: minimax value 3, best child 0."""


@pytest.mark.parametrize(("game", "spec", "moves"), [
    ("tictactoe", "mcts:seed=1,simulations=300", 0),
    ("tictactoe", "mcts:seed=3,simulations=400,solver=on", 4),
    ("pig", "mcts:seed=2,simulations=200", 0),
    ("checkers", "mcts:seed=1,simulations=150,playout=eval:4", 0),
])
def test_the_replay_is_the_search(game: str, spec: str, moves: int) -> None:
    """Replaying every recorded simulation gives the search's own N, W and proofs for every node, and recording
    changes nothing the search does (same move, same root statistics as without a recorder)."""
    a, b = make_agent(game, spec), make_agent(game, spec)
    state = a.game.initial_state()
    for _ in range(moves):
        state = a.game.result(state, a.game.actions(state)[0])
    rec = MCTSRecorder(a.game)
    with_rec = a.choose(state, None, None, rec)
    without = b.choose(state)
    assert with_rec.move == without.move
    assert with_rec.extra["root_children"] == without.extra["root_children"]
    trace = rec.snapshot()
    assert len(trace.simulations) == trace.total_simulations == with_rec.extra["simulations"]
    assert trace.stats_at(len(trace.simulations)) == trace.final
    assert len(trace.nodes) == with_rec.nodes
    # stepping backwards (through the replay checkpoints) gives the same as replaying from the start
    mid = len(trace.simulations) // 2
    later = trace.stats_at(len(trace.simulations))
    assert later == trace.final
    fresh = type(trace)(**{f: getattr(trace, f) for f in trace.__dataclass_fields__})
    assert trace.stats_at(mid) == fresh.stats_at(mid)
    root_n = trace.stats_at(mid)[0][0]
    assert root_n == mid + trace.base[0][0]
    kids = {trace.nodes[c].move: trace.final[0][c] for c in trace.children(0)}
    assert kids == {c["move"]: c["visits"] for c in with_rec.extra["root_children"]}


def test_solver_proofs_are_recorded() -> None:
    """A won position for X: the solver proves the root, and the simulation that did it says so."""
    a = make_agent("tictactoe", "mcts:seed=1,simulations=2000,solver=on")
    state = a.game.parse_position("XX.OO....")
    rec = MCTSRecorder(a.game)
    res = a.choose(state, None, None, rec)
    trace = rec.snapshot()
    assert res.outcome == "win" and res.stop_reason == "proven"
    proofs = [(s.number, p) for s in trace.simulations for p in s.proofs]
    assert (0, 1.0) in [p for _, p in proofs]  # the root proven a win for X, from X's view
    last = trace.narrate(proofs[-1][0])
    assert "the root proven a win for X" in last
    assert trace.stats_at(len(trace.simulations)) == trace.final


def test_reused_tree_starts_from_its_statistics() -> None:
    """With reuse the second search starts from the adopted subtree: the record's base holds its N and W, and the
    replay still ends at the search's own figures."""
    a = make_agent("tictactoe", "mcts:seed=1,simulations=300,reuse=on")
    g = a.game
    s0 = g.initial_state()
    first = a.choose(s0)
    s1 = g.result(g.result(s0, first.move), g.actions(g.result(s0, first.move))[0])
    rec = MCTSRecorder(g)
    second = a.choose(s1, None, None, rec)
    trace = rec.snapshot()
    assert second.extra["reused_nodes"] > 1
    assert trace.base[0][0] > 0
    assert trace.stats_at(len(trace.simulations)) == trace.final


def test_a_bounded_record_says_it_is_cut() -> None:
    a = make_agent("tictactoe", "mcts:seed=1,simulations=200")
    rec = MCTSRecorder(a.game, max_simulations=50)
    a.choose(a.game.initial_state(), None, None, rec)
    trace = rec.snapshot()
    assert trace.truncated and len(trace.simulations) == 50 and trace.total_simulations == 200
    assert "the first 50 simulations recorded" in trace.summary()
    assert trace.final[0][0] == 200 and trace.stats_at(50)[0][0] == 50
    with pytest.raises(ValueError, match="0 to 50"):
        trace.stats_at(51)


def test_ucb_and_narration_pinned_on_figure_5_2() -> None:
    """12 simulations (seed 1) on AIMA figure 5.2, leaves scaled by the range 2..14: child 0 has N = 2 and
    Q = -5/6 (leaves 3 and 3: 2 (3 - 2) / 12 - 1), so its UCB1 under the root's N = 12 is
    -5/6 + sqrt(2) sqrt(ln 12 / 2) = 0.7430."""
    res = search_tree_mcts(parse_tree(FIG52), parse_tree_agent("mcts:simulations=12"))
    t = res.trace
    f = t.final
    c0 = t.children(0)[0]
    assert (f[0][0], f[0][c0]) == (12, 2)
    assert t.q(f, c0) == pytest.approx(-5 / 6)
    expected = -5 / 6 + math.sqrt(2) * math.sqrt(math.log(12) / 2)
    assert t.ucb(f, c0) == pytest.approx(expected) and expected == pytest.approx(0.7430, abs=1e-4)
    assert t.narrate(1) == "simulation 1: expanded 0, random playout (1 ply) to leaf 3, scaled -0.833 for MAX backed up"
    assert t.narrate(4) == "simulation 4: selected 2 by UCB, expanded 0, a leaf: 14, scaled +1 for MAX backed up"


def test_tree_lab_mcts_finds_the_minimax_choice() -> None:
    """With enough simulations the visits concentrate on the minimax choice (child 0, value 3)."""
    res = search_tree_mcts(parse_tree(FIG52), parse_tree_agent("mcts:simulations=1000"))
    j = res.to_json()
    assert j["best"] == 0 and j["pruned"] == [] and j["nodes"] == 13
    assert sorted(j["leaves_visited"]) == sorted([3, 12, 8, 2, 4, 6, 14, 5, 2])
    visits = [c["visits"] for c in j["root_children"]]
    assert visits[0] > 2 * max(visits[1:])
    # the mean backed-up value in the tree's units, and the same in [-1, 1]
    assert j["value"] == pytest.approx(2 + (j["value_scaled"] + 1) / 2 * 12)
    assert 2 < j["value"] < 4


@pytest.mark.parametrize(("spec", "message"), [
    ("mcts:depth=3", "not used by mcts"),
    ("mcts:simulations=0", "simulations must be a whole number from 1 to 50,000,000, got '0'"),
])
def test_tree_lab_mcts_refuses_bad_settings(spec: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["tree", "--tree", FIG52, "--agent", spec]) == 2
    assert message in capsys.readouterr().err


def test_tree_command_with_mcts(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert run(["tree", "--tree", FIG52, "--agent", "mcts:simulations=200", "--json", "--narrate"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["algorithm"] == "mcts" and obj["simulations"] == 200 and len(obj["narration"]) == 200
    assert run(["tree", "tictactoe", "--agent", "mcts:simulations=100,seed=1", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["simulations"] == 100 and obj["nodes"] == 101 and len(obj["root_children"]) == 9
    out = tmp_path / "t.json"
    assert run(["tree", "tictactoe", "--agent", "mcts:simulations=50,seed=1", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert len(data["trace"]["simulations"]) == 50 and data["trace"]["nodes"][0]["visits"] == 50
    for suffix in (".svg", ".dot", ".png", ".txt"):
        f = tmp_path / f"t{suffix}"
        assert run(["tree", "tictactoe", "--agent", "mcts:simulations=50,seed=1", "--out", str(f)]) == 0
        assert f.stat().st_size > 100
    assert (tmp_path / "t.svg").read_text().startswith("<svg") and "N 50" in (tmp_path / "t.svg").read_text()
    assert "digraph mcts" in (tmp_path / "t.dot").read_text()
    assert (tmp_path / "t.png").read_bytes()[:4] == b"\x89PNG"
    capsys.readouterr()
    assert run(["tree", "tictactoe", "--agent", "mcts:simulations=50", "--out", str(tmp_path / "t.gif")]) == 2
    assert ".txt, .json, .dot, .svg, .png" in capsys.readouterr().err


def test_trace_json_matches_the_trace() -> None:
    a = make_agent("pig", "mcts:seed=1,simulations=100")
    rec = MCTSRecorder(a.game)
    a.choose(a.game.initial_state(), None, None, rec)
    t = rec.snapshot()
    j = trace_json(t)
    assert [n["visits"] for n in j["nodes"]] == list(t.final[0])
    chance = [n for n in j["nodes"] if n["kind"] == "chance"]
    assert chance and all(n["ucb"] is None for n in j["nodes"] if n["parent"] in {c["id"] for c in chance})
    assert j["simulations"][9]["sentence"] == t.narrate(10)


# -- the window -------------------------------------------------------------------------------------------------
def _decide(app: object, scene: object) -> None:
    from ui_driver import pump
    pump(app, lambda: scene.last_decision is not None, 60.0)  # type: ignore[attr-defined]


def test_overlay_steps_through_simulations_and_exports(app: object, tmp_path: Path) -> None:
    import pygame

    from gameplay.ui.play.match import MatchScene
    ai, human = make_agent("tictactoe", "mcts:simulations=120,seed=1"), make_agent("tictactoe", "human")
    scene = MatchScene("tictactoe", (ai, human), ai_delay_s=0.0)
    app.push(scene)  # type: ignore[attr-defined]
    _decide(app, scene)
    scene.toggle_overlay()
    ov = scene.overlay
    assert type(ov.active).__name__ == "MCTSOverlay" and ov.visible
    assert ov.sentence().startswith("The finished search: mcts: 120 simulations")
    for _ in range(3):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_PAGEDOWN, mod=0, unicode=""))
    app.run(max_frames=2)  # type: ignore[attr-defined]
    assert ov.shown_simulations() == 3
    assert ov.sentence() == ov.tree.narrate(3) and ov.sentence().startswith("simulation 3: expanded 2")
    assert ov.stats()[0][0] == 3
    ov.set_export_dir(tmp_path)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_e, mod=0, unicode="e"))
    app.run(max_frames=2)  # type: ignore[attr-defined]
    files = sorted(p.suffix for p in tmp_path.iterdir())
    assert files == [".dot", ".json", ".png", ".svg", ".txt"]
    surf = pygame.Surface((1280, 800))
    ov.draw(surf)  # draws without error at every step kind: a step, then the finished search
    ov.finish()
    ov.draw(surf)
    assert ov.hits and ov.buttons


def test_overlay_switches_between_mcts_and_alphabeta(app: object) -> None:
    """AI against AI: an alpha-beta decision shows the minimax overlay, the MCTS one the MCTS overlay, and undo
    brings the earlier one back: never the other decision's picture."""
    from gameplay.ui.play.match import MatchScene
    a = make_agent("tictactoe", "alphabeta:depth=2")
    m = make_agent("tictactoe", "mcts:simulations=60,seed=1")
    scene = MatchScene("tictactoe", (a, m), ai_delay_s=0.0)
    app.push(scene)  # type: ignore[attr-defined]
    from ui_driver import pump
    pump(app, lambda: scene.record.ply >= 2, 60.0)  # type: ignore[attr-defined]
    scene.paused = True
    assert scene.record.ply == 2
    assert type(scene.overlay.active).__name__ == "MCTSOverlay"
    scene.toggle_overlay()
    scene.undo()
    assert type(scene.overlay.active).__name__ == "TreeOverlay"
    assert scene.overlay.tree is not None and scene.overlay.visible


def test_tree_lab_window_runs_mcts(app: object) -> None:
    """The Tree Lab's MCTS choice: the MCTS overlay shows the recorded search of the tree; leaves show their
    value; back to alpha-beta shows the minimax overlay again."""
    from gameplay.ui.scenes.treelab_scene import TreeLabScene
    scene = TreeLabScene()
    app.push(scene)  # type: ignore[attr-defined]
    app.run(max_frames=1)  # type: ignore[attr-defined]
    assert scene.set_algorithm("mcts:1000")
    assert type(scene.overlay.active).__name__ == "MCTSOverlay"
    assert scene.mcts_result.best == 0 and scene.overlay.tree.total_simulations == 1000
    leaf = next(n.id for n in scene.overlay.tree.nodes if n.utility is not None)
    assert scene.overlay.box_lines(scene.overlay.stats(), leaf)[0].startswith("leaf ")
    app.run(max_frames=2)  # type: ignore[attr-defined]
    assert scene.set_algorithm("alphabeta")
    assert type(scene.overlay.active).__name__ == "TreeOverlay" and scene.overlay.visible


def test_each_steps_header_says_its_simulation_its_phases_and_the_counts_then() -> None:
    """The MCTS slide's header described the finished search at every step ("mcts: 120 simulations, ..."): at step
    k it says simulation k of all, its phases (selection, expansion, playout or none, backpropagation) and the
    root's N, the tree's nodes and the leading move after it; the finished search's summary only at the end."""
    a = make_agent("tictactoe", "mcts:simulations=60,seed=1,solver=on")
    rec = MCTSRecorder(a.game)
    state = a.game.initial_state()
    for m in (4, 0, 8):
        state = a.game.result(state, m)
    a.choose(state, None, None, rec)
    t = rec.snapshot()
    total = len(t.simulations)
    assert total == 60
    seen_phases = set()
    for k in range(1, total + 1):
        first, second = t.step_header(k)
        sim, stats = t.simulations[k - 1], t.stats_at(k)
        phases = t.phases(k)
        assert first == f"Simulation {k} of {total}: " + ", ".join(phases)
        assert phases[0].startswith("selection") and phases[-1].startswith("backpropagation")
        assert ("expansion " + (t.nodes[sim.path[-1]].move or "") in phases) == sim.expanded
        assert any(p.startswith("playout (") for p in phases) == (sim.leaf == "playout")
        seen_phases |= {p.split(" ")[0] for p in phases}
        assert second.startswith(f"after it: root N = {stats[0][0]}, {sum(1 for x in stats[0] if x)} tree node")
        assert t.summary() not in (first, second)
        best = t.most_visited(stats)
        assert best is not None and f" {t.nodes[best].move}: N = {stats[0][best]}, " in second
    assert {"selection", "expansion", "playout", "no", "backpropagation"} <= seen_phases  # every kind of step met
    with pytest.raises(ValueError):
        t.step_header(total + 1)


def test_the_overlay_header_follows_the_step(app: object) -> None:
    from gameplay.ui.overlay.mcts_overlay import MCTSInfo, MCTSOverlay
    a = make_agent("tictactoe", "mcts:simulations=30,seed=2")
    rec = MCTSRecorder(a.game)
    a.choose(a.game.initial_state(), None, None, rec)
    t = rec.snapshot()
    ov = MCTSOverlay()
    ov.set_tree(t, MCTSInfo("X played 4 by Monte Carlo tree search", "mcts-tictactoe"))
    ov.finish()
    assert ov.header() == ("X played 4 by Monte Carlo tree search", t.summary())
    for k in range(1, 31):
        ov.go_to_step(k - 1)
        assert ov.shown_simulations() == k and ov.header() == t.step_header(k)
