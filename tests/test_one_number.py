"""One number, one place: a decision's value, depth, node counts, cut-offs and shares read the same on every
panel (the side panel, the overlay's header and counters, the tree's root, the Tree Lab, the exports, ``analyze``
and ``tree``), printed by :mod:`ai.kernel.numbers`; a panel showing another iteration says so at the numbers' size; the
growth figure's legend says what each curve counts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ai.kernel.numbers import cutoff_text, percent_text, value_label
from ai.kernel.recording import SearchTree
from ai.teaching.decision_model import MinimaxCount, TreeInfo
from ai.teaching.decision_tree import decision_counts, decision_summary, record_decision_model
from ai.teaching.growth import deepening_nodes, reference_curves, tree_growth
from ai.teaching.treelab import TreeSettings, search_tree
from gameplay.cli import run
from gameplay.pictures.tree_export import export_tree
from gameplay.pictures.tree_layout import PRUNED, layout
from gameplay.pictures.tree_picture import header_lines
from gameplay.rules.trees import parse_tree
from gameplay.ui.overlay import overlay_draw
from gameplay.ui.overlay.overlay import TreeOverlay
from gameplay.ui.play.match import MatchScene
from gameplay.ui.shell.app import App

AIMA = "[[3,12,8],[2,4,6],[14,5,2]]"



def _cli_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert run(argv) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


# -- shares ----------------------------------------------------------------------------------------------------
def test_a_share_of_one_in_ten_thousand_is_not_zero_and_a_partial_saving_is_not_all() -> None:
    assert percent_text(1, 10_000) == "< 0.1%"
    assert percent_text(9_999, 10_000) == "> 99.9%"
    assert percent_text(0, 10_000) == "0%" and percent_text(10_000, 10_000) == "100%"
    assert percent_text(2, 13) == "15.4%"


@given(st.integers(1, 10**9), st.integers(1, 10**9))
def test_no_share_rounds_to_a_false_extreme(a: int, b: int) -> None:
    part, whole = min(a, b), max(a, b)
    text = percent_text(part, whole)
    if part < whole:
        assert text not in ("0.0%", "100.0%", "0%", "100%")
        assert text in ("< 0.1%", "> 99.9%") or 0.0 < float(text[:-1]) < 100.0


@pytest.mark.parametrize("visited,shown", [(1, ("visited < 0.1%", "saved > 99.9%")),
                                           (9_999, ("visited > 99.9%", "saved < 0.1%"))])
def test_the_overlay_counters_print_the_saving_with_the_one_helper(visited: int, shown: tuple[str, str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    tree = SearchTree((), visited, 0, 0, 0, False, "alphabeta", "ge", ())
    info = TreeInfo("t", depth=5, minimax=MinimaxCount(10_000, True, "exact", depth=5))
    text = info.saving_text(tree)
    assert text is not None and all(s in text for s in shown)
    # the side panel draws that text, never its own rounding (figure 5.2 against a million-node minimax)
    res = search_tree(parse_tree(AIMA), TreeSettings("alphabeta"))
    ov = TreeOverlay()
    ov.set_rect(pygame.Rect(0, 0, 1400, 980))
    lab = TreeInfo("lab", depth=0, minimax=MinimaxCount(1_000_000, True, "exact"))
    ov.set_tree(res.tree, lab)
    drawn: list[str] = []
    real = overlay_draw.wrap

    def spy(text: str, *a: Any, **k: Any) -> list[str]:
        drawn.append(text)
        return real(text, *a, **k)

    monkeypatch.setattr(overlay_draw, "wrap", spy)
    ov.show()
    ov.draw(pygame.Surface((1400, 980)))
    assert lab.saving_text(res.tree) in drawn
    assert any("visited < 0.1%" in t and "saved > 99.9%" in t for t in drawn)
    assert not any("0.0%" in t or "100.0%" in t for t in drawn)


# -- cut-offs ----------------------------------------------------------------------------------------------------
def test_figure_5_2_has_one_cut_off_pruning_two_leaves_everywhere(app: App, capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    res = search_tree(parse_tree(AIMA), TreeSettings("alphabeta"))
    tree = res.tree
    # the picture: one node (C, the second MIN node) with pruned children, standing for the leaves 4 and 6
    lay = layout(tree)
    pruned = [it for it in lay.nodes if it.kind == PRUNED]
    parents = {it.parent for it in pruned}
    assert len(parents) == 1 and sum(len(it.moves) for it in pruned) == 2
    assert tree.cutoffs == len(parents) == 1 and tree.pruned_subtrees == 2
    # tree --json
    obj = _cli_json(capsys, ["tree", "--tree", AIMA, "--agent", "alphabeta", "--json"])
    assert obj["cutoffs"] == 1 and obj["pruned_subtrees"] == len(obj["pruned"]) == 2
    assert obj["pruned"] == [[1, 1], [1, 2]]  # CLI.md's paths of the cut subtrees, unchanged
    # the exports: the header of the picture and the text trace
    svg = export_tree(tree, tmp_path / "t.svg", summary=res.to_json())
    assert "1 cut-off (2 subtrees pruned)" in svg.read_text(encoding="utf-8")
    assert "1 cut-off (2 subtrees pruned)" in tree.text().splitlines()[0]
    # the Tree Lab's counts
    from gameplay.ui.scenes.treelab_scene import TreeLabScene
    lab = TreeLabScene()
    app.push(lab)
    app.run(max_frames=1)
    assert lab.preset.startswith("AIMA")
    assert "<b>Alpha-beta</b>: 11 nodes, 7 leaves, 1 cut-off (2 subtrees pruned)" in lab.counts_html()
    assert "(15.4%)" in lab.counts_html()  # 2 of 13 nodes, with the one share helper


def test_the_search_counts_the_cut_offs_the_tree_draws() -> None:
    """A cut-off test met at a node's last move prunes nothing: neither the search's counter (analyze's
    ``cutoffs``) nor the recorded tree counts it, so both count the nodes the picture draws pruned children at."""
    trees: dict[int, SearchTree] = {}
    for d in (1, 2, 3):
        _, _, res, rec = record_decision_model("tictactoe", "....X....", f"alphabeta:depth={d}")
        trees[d] = rec.snapshot()
        assert trees[d].depth == d and not trees[d].truncated
        assert trees[d].cutoffs == sum(1 for n in trees[d].nodes if n.skipped)
    last_move_tests = sum(1 for n in trees[3].nodes if n.children and not n.skipped and n.alpha_out >= n.beta_out)
    assert last_move_tests > 0  # the case this test is about: cut-off tests that prune nothing
    # the search to depth 3 runs the iterations 1, 2, 3 (the same ones as above): its counter is their sum
    assert res.extra["cutoffs"] == sum(t.cutoffs for t in trees.values())


def test_cut_offs_keep_one_name_in_analyze_tree_and_the_overlay(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--position", "....X....", "--agent", "alphabeta:depth=3"]
    analyzed = _cli_json(capsys, ["analyze", "tictactoe", *argv, "--json"])
    obj = _cli_json(capsys, ["tree", "tictactoe", *argv, "--json"])
    assert obj["cutoffs"] == analyzed["cutoffs"]  # every iteration, as analyze counts them
    game, state, res, rec = record_decision_model("tictactoe", "....X....", "alphabeta:depth=3")
    tree = rec.snapshot(tuple(res.pv))
    c = decision_counts(game, state, res, rec, tree)
    assert obj["iteration_cutoffs"] == c.shown_cutoffs == tree.cutoffs
    assert obj["iteration_pruned_subtrees"] == c.shown_pruned == tree.pruned_subtrees
    assert c.total_cutoffs == analyzed["cutoffs"]
    s = decision_summary(game, state, c, tree.algorithm)
    assert cutoff_text(tree.cutoffs, tree.pruned_subtrees) in " ".join(header_lines(tree, s))
    assert capsys.readouterr().out == ""
    assert run(["analyze", "tictactoe", *argv]) == 0
    assert f"({cutoff_text(analyzed['cutoffs'])})" in capsys.readouterr().out


# -- the export header ---------------------------------------------------------------------------------------------
def test_the_export_header_says_which_visited_nodes_are_not_recorded() -> None:
    game, state, res, rec = record_decision_model("checkers", None, "alphabeta:depth=3")
    tree = rec.snapshot(tuple(res.pv))
    c = decision_counts(game, state, res, rec, tree)
    capture = sum(n.capture for n in tree.nodes)
    assert capture > 0 and tree.visited == len(tree.nodes) + capture == c.shown_nodes  # the case of the issue
    lay = layout(tree, max_children=12)
    head = header_lines(tree, decision_summary(game, state, c, tree.algorithm), lay)
    text = "\n".join(head)
    assert (f"{tree.visited:,} nodes visited in this depth 3 iteration ({len(tree.nodes):,} recorded; the other "
            f"{capture:,} are the capture search below the leaves, counted but not recorded)") in text
    if lay.hidden:
        assert f"showing {lay.shown:,} of the {len(tree.nodes):,} recorded nodes" in text


# -- value and depth: the window -----------------------------------------------------------------------------------
def _window_decision(app: App, spec: str) -> MatchScene:
    from ai.agents.agents import make_agent
    scene = MatchScene("checkers", (make_agent("checkers", spec), make_agent("checkers", "human")), ai_delay_s=0.0)
    app.push(scene)
    from ui_driver import pump
    pump(app, lambda: scene.last_decision is not None and scene.overlay.tree is not None, 60.0)
    assert scene.last_decision is not None and scene.overlay.tree is not None
    return scene


@pytest.mark.parametrize("bound", [300, None])
def test_the_side_panel_header_and_root_agree_or_name_their_iterations(app: App, bound: int | None) -> None:
    """The issue's checkers example: the side panel's value, the overlay header's depth and the tree root's value
    are the same number in the same units for the same iteration, or the header names both iterations at the
    title's size (with a 300-node recorder the window shows the depth-5 iteration of a depth-6 decision)."""
    import contextlib
    import dataclasses

    from ai.agents.game_parts import agent_parts, replaced_agent_parts
    recorder_bound: contextlib.AbstractContextManager[object] = contextlib.nullcontext()
    if bound is not None:  # checkers' agents' parts with a smaller tree bound while the test runs
        checkers = dataclasses.replace(agent_parts("checkers"), tree_max_nodes=bound)
        recorder_bound = replaced_agent_parts("checkers", checkers)
    with recorder_bound:
        scene = _window_decision(app, "alphabeta:depth=6")
        _, move, res = scene.last_decision  # type: ignore[misc]
        ov = scene.overlay
        assert ov.tree is not None and ov.info is not None
        root = ov.tree.nodes[0]
        decided = value_label(res.value)
        assert f"value: {decided}, depth {res.depth}<br>" in scene.decision_html()  # the side panel
        assert ov.info.title.endswith(f"depth {res.depth}, value {decided}")  # the overlay header
        lines, _ = overlay_draw.header_layout(ov, 1000)
        title_font = lines[0][1]
        if bound is None:  # the tree is the decision's iteration: its root prints the side panel's number
            assert ov.tree.depth == res.depth and root.label() == decided and not ov.info.headline
        else:
            assert ov.tree.depth == 5 < res.depth
            headline = ov.info.headline[0]
            assert headline.startswith(f"Depth 5 shown: value {root.label()}")
            assert headline.endswith(f"(the move came from depth {res.depth})")
            drawn = [(t, f) for t, f, _ in lines if t in headline]
            assert drawn and all(f.get_height() == title_font.get_height() for _, f in drawn)  # not small print
            notes = [f for t, f, _ in lines if t in " ".join(ov.info.notes)]
            assert notes and all(f.get_height() < title_font.get_height() for f in notes)
            ov.set_presenter(True)  # the presenter view keeps it too
            assert any(t in headline for t, _, _ in overlay_draw.header_layout(ov, 1000)[0])
            ov.set_presenter(False)


def test_analyze_tree_and_the_root_print_a_proven_value_alike(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--position", "XX.OO....", "--agent", "alphabeta:depth=3"]
    obj = _cli_json(capsys, ["tree", "tictactoe", *argv, "--json"])
    _, _, _, rec = record_decision_model("tictactoe", "XX.OO....", "alphabeta:depth=3")
    root = rec.snapshot().nodes[0]
    assert root.label() == value_label(obj["tree_value"]) == value_label(obj["value"]) == "win in 1"
    assert run(["analyze", "tictactoe", *argv]) == 0
    assert "value win in 1 (proven)" in capsys.readouterr().out


def test_tree_refuses_a_book_move_instead_of_an_empty_tree(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    assert run(["tree", "checkers", "--agent", "expert", "--out", str(tmp_path / "t.png")]) == 2
    err = capsys.readouterr().err
    assert "opening book" in err and "expert:book=off" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "t.png").exists()


# -- the growth figure's legend --------------------------------------------------------------------------------
def test_growth_legend_says_what_each_curve_counts() -> None:
    g = tree_growth(2, 8, trees=2)
    minimax = g.series[0]
    refs = {r.key: r for r in reference_curves(g)}
    assert minimax.nodes[-1] == 511 == refs["nodes"].value(2, 8)  # every node of the uniform tree
    assert refs["leaves"].value(2, 8) == 256 and "every node" not in refs["leaves"].label
    assert refs["nodes"].label.startswith("1 + b + ... + b^d") and "every node" in refs["nodes"].label
    # iterative deepening (a game, as analyze counts): every node of iterations 1..d
    assert deepening_nodes(2, 8) == sum(minimax.nodes)
    from gameplay.pictures.plots import growth_figure
    fig = growth_figure(g, size=(1280, 720), base_px=14, command="test")
    labels = [t.get_text() for ax in fig.axes for lg in [ax.get_legend()] if lg is not None for t in lg.get_texts()]
    assert refs["nodes"].label in labels and refs["leaves"].label in labels
    assert not any(t.startswith("b^d") and "every node" in t for t in labels)


def test_the_shown_iteration_is_named_with_the_decisions_numbers() -> None:
    from ai.kernel.numbers import shown_iteration_words
    assert (shown_iteration_words(13, -3.0, "11-15", 14, 1.0, "9-14")
            == "Depth 13 shown: value -3, best move 11-15 (the move came from depth 14)")
    assert (shown_iteration_words(6, 2.0, "9-14", 6, 2.0, "9-14", recorded=300)
            == "Depth 6 shown: value 2, only its first 300 nodes recorded (the iteration the move came from)")
    assert shown_iteration_words(6, 2.0, None, 6, 3.0, None) == "Depth 6 shown: value 2 (the decision's value is 3)"


def test_a_move_from_a_stopped_iteration_is_named_on_every_panel(monkeypatch: pytest.MonkeyPatch) -> None:
    """``partial``: the middlegame at 0.3 fake seconds plays 26-23, proved by the stopped depth 10 (the completed
    depth 9 preferred 27-23). The recorded tree is a completed iteration, so the headline, the notes' model, the
    export summary and its header say the move came from depth 10, stopped before its end; ``depth`` stays 9."""
    from test_timeman import MIDDLEGAME, NODE_SECONDS

    from ai.agents.agents import make_agent
    from ai.kernel import timeman
    from ai.kernel.search import SearchLimits, iterative_deepening
    from ai.teaching.decision_tree import make_recorder, shown_iteration_text
    agent = make_agent("checkers", "alphabeta:quiescence=on,timeman=on,partial=on")
    game = agent.game
    state = game.parse_position(MIDDLEGAME)
    rec = make_recorder(game, agent, state)
    from ai.teaching.tree_recorder import DecisionRecorder
    assert isinstance(rec, DecisionRecorder)
    searcher = agent.make_searcher(recorder=rec)  # type: ignore[attr-defined]
    monkeypatch.setitem(timeman.CLOCKS, "fake", lambda: searcher.stats.nodes * NODE_SECONDS)
    limits = SearchLimits(None, 0.3, timeman=True, clock="fake", unit=agent.value_unit(),  # type: ignore
                          partial=True)
    res = iterative_deepening(game, state, searcher, limits)
    tree = rec.snapshot(tuple(res.pv))
    c = decision_counts(game, state, res, rec, tree)
    assert c.unfinished is not None and c.unfinished[0] == 10 and c.final_depth == res.depth == 9
    assert c.final_move == "26-23" and not c.tells_the_decision
    words = shown_iteration_text(c)
    assert words is not None and words.endswith("(the move came from depth 10, stopped before its end)")
    s = decision_summary(game, state, c, tree.algorithm)
    assert s["final_unfinished_depth"] == 10 and s["final_move"] == "26-23" and s["final_depth"] == 9
    head = "\n".join(header_lines(tree, s))
    assert "move 26-23" in head and "depth 9 (the move from depth 10, unfinished)" in head
    assert "stopped before its end" in head
    from ai.teaching.decision_model import decision_info
    info = decision_info(game, state, agent, res, rec, tree, player_name="White", move_text="26-23")
    assert info.title.startswith("White played 26-23: alpha-beta, depth 9 (the move from depth 10, unfinished), value")
    assert any(n.startswith("The move came from depth 10, stopped by the budget after ") for n in info.notes)
