"""What the surfaces say when Connect Four's exact solver is on is what happened (issue 49): a solve that did not
finish is said, with its own seconds and nodes, before the search's figures, and the decision's time is the whole
decision's; ``book=off`` turns the book off inside the solver too; ``compare`` tells apart agents of one preset by
their settings; the window's tree view stays open over a move without a tree and the decision box counts with nouns.

The solver's budget is read on a fake CPU clock that moves 0.3 s at each reading (``ai.kernel.timeman.CLOCKS``, the
clock the agent's budget is read on): the solver stops at its third check (12,288 nodes) and the search gets the
least rest, on any machine, however busy."""

from __future__ import annotations

import itertools
import json
import math
from typing import Any

import pygame
import pytest
import ui_driver

from ai.agents.agents import make_agent
from ai.kernel import timeman
from ai.kernel.core import WIN, StopReason
from ai.kernel.spelling import ASCII, UNICODE, proof_test_lines
from gameplay.cli import run
from gameplay.ui.overlay import overlay_draw
from gameplay.ui.play import match_panel
from gameplay.ui.shell.app import App

UNPROVED = "44444326"
"""8 stones: the pure-Python solver needs seconds, so 0.9 s of the fake clock (three checks) never prove it."""
BOOK_PROOF = "444443253"
"""9 stones, not in the agents' book; with the book inside the search, proved in 10 nodes, 8 of them the book's."""
LATE = "27777155774513144"
"""17 stones, Yellow to move: proved without a book in 12,794 nodes (a fraction of a second)."""
FAKE = "alphabeta:exact=on,time=1,clock=cpu"


@pytest.fixture
def fake_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    readings = itertools.count()
    monkeypatch.setitem(timeman.CLOCKS, "cpu", lambda: next(readings) * 0.3)


def _choose(spec: str, position: str) -> Any:
    agent = make_agent("connect4", spec)
    return agent.choose(agent.game.parse_position(position))


def test_an_unfinished_solve_is_in_the_result(fake_cpu: None) -> None:
    res = _choose(FAKE + ",book=off", UNPROVED)
    x = res.extra
    assert x["solver"] is False and res.stop_reason != StopReason.PROVEN
    assert x["solver_nodes"] == 12_288 and x["solver_book_hits"] == 0  # the solver's own nodes, stopped at a check
    assert res.nodes != x["solver_nodes"] and res.depth >= 1  # res.nodes: the search's
    # the whole decision's seconds: the solver's and the search's both inside it
    assert res.elapsed >= x["solver_s"] + x["search_s"] > x["solver_s"] > 0


def test_an_unfinished_solve_is_in_the_time_controls_figures(fake_cpu: None) -> None:
    # clock_s and stop_s (what a referee learns its latency from, ai.agents.agent_process) are the whole decision's
    # on the budget's clock: the solver ran its share of the decision's stop, then the search the rest
    agent = make_agent("connect4", FAKE + ",book=off")
    stop = agent.settings.search_limits(agent.value_unit()).stop_s()
    res = agent.choose(agent.game.parse_position(UNPROVED))
    assert res.extra["clock"] == "cpu" and res.extra["stop_s"] == stop
    assert res.extra["clock_s"] >= 0.9 * stop


def test_book_off_reaches_the_solver_and_book_on_is_said(fake_cpu: None) -> None:
    on = _choose(FAKE + ",book=on", BOOK_PROOF)
    assert on.stop_reason == StopReason.PROVEN and on.extra["book_hits"] == 8 and on.nodes == 10
    off = _choose(FAKE + ",book=off", BOOK_PROOF)
    hits = off.extra["book_hits"] if off.extra["solver"] else off.extra["solver_book_hits"]
    assert hits == 0
    from ai.kernel.numbers import exact_text, seconds_text
    assert exact_text(on.extra, on.nodes, on.elapsed) == (
        f"proved by the exact solver: 10 nodes, {on.extra['null_window_tests']} null-window tests, "
        f"8 positions from the book, {seconds_text(on.elapsed)}")
    assert [seconds_text(s) for s in (0.0004, 0.0006, 0.5)] == ["under 0.001 s", "0.001 s", "0.50 s"]


def test_a_one_node_proof_counts_in_the_singular() -> None:
    res = _choose("alphabeta:exact=on,book=off,depth=1", "121212")  # Red wins at once in column 1
    assert res.extra["solver"] is True and res.nodes == 1 and res.extra["null_window_tests"] == 0
    box = match_panel.decision_text("Red", "1", res)
    assert "proved by the exact solver: 1 node, 0 null-window tests, " in box
    assert "1 nodes" not in box and box.count("prove") == 1  # "proven" no longer beside "proved"


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> Any:
    capsys.readouterr()
    assert run(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_analyze_says_the_solver_tried(fake_cpu: None, capsys: pytest.CaptureFixture[str]) -> None:
    obj = _json(capsys, ["analyze", "connect4", "--position", UNPROVED, "--agent", FAKE + ",book=off", "--json"])
    assert obj["solver"] is False and obj["solver_nodes"] == 12_288 and obj["solver_book_hits"] == 0
    assert obj["elapsed_s"] >= obj["solver_s"] + obj["search_s"]
    capsys.readouterr()
    assert run(["analyze", "connect4", "--position", UNPROVED, "--agent", FAKE + ",book=off"]) == 0
    out = capsys.readouterr().out
    line = next(t for t in out.splitlines() if t.startswith("the exact solver"))
    assert line.startswith("the exact solver did not prove it in ")
    assert "(12,288 solver nodes); alpha-beta searched the rest: depth " in line
    assert " s in all, stopped by " in line


def test_analyze_says_the_book_inside_a_proof(fake_cpu: None, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert run(["analyze", "connect4", "--position", BOOK_PROOF, "--agent", FAKE + ",book=on"]) == 0
    out = capsys.readouterr().out
    assert "proved by the exact solver: 10 nodes, " in out and "8 positions from the book" in out


def test_compare_tells_the_rows_apart_and_says_the_solver(fake_cpu: None, capsys: pytest.CaptureFixture[str]) -> None:
    specs = ["expert:clock=cpu", "expert:book=off,clock=cpu", "expert:exact=off,depth=1",
             "expert:book=off,exact=off,depth=1"]
    obj = _json(capsys, ["compare", "connect4", "--position", UNPROVED, "--agents", *specs, "--json"])
    rows = obj["results"]
    described = [r["description"] for r in rows]
    assert len(set(described)) == 4, described
    assert described[1].startswith("expert:book=off,clock=cpu (alphabeta)")
    assert rows[0]["solver"] is False and rows[0]["solver_nodes"] == 12_288
    assert "solver" not in rows[2]  # exact off: no solver figures
    capsys.readouterr()
    assert run(["compare", "connect4", "--position", UNPROVED, "--agents", *specs[:2]]) == 0
    out = capsys.readouterr().out
    assert out.count("the exact solver did not prove it in ") == 2 and "(12,288 solver nodes)" in out


def _decide(app: App, spec: str, position: str, *, open_first: bool) -> Any:
    game = make_agent("connect4", "human").game
    state = game.parse_position(position)
    sides = ["human", "human"]
    sides[game.to_move(state)] = spec
    scene = app.start_match("connect4", sides[0], sides[1], ai_delay_s=0.0)
    scene.load_game(state)
    if open_first:
        scene.toggle_overlay()
        ui_driver.frames(app, 2)
        assert scene.overlay.visible
    ui_driver.pump(app, lambda: scene.last_decision is not None or scene.error is not None, 120)
    ui_driver.frames(app, 2)
    assert scene.error is None
    return scene


@pytest.mark.parametrize("open_first", [True, False])
def test_an_open_tree_view_stays_open_over_a_proof(app: App, open_first: bool) -> None:
    scene = _decide(app, "alphabeta:exact=on,depth=42", LATE, open_first=open_first)
    assert scene.overlay.tree is None and scene.overlay.visible is open_first
    said = scene.overlay.no_tree_message
    assert said is not None and said.title == "Yellow played 3: win in 21, proved by the exact solver"
    assert said.notes[0].startswith("Proved by the exact solver: 12,794 nodes, ")
    # the root's null-window tests, at the title's size: what the class reads instead of a tree
    tests = scene.last_decision[2].extra["proof_tests"]
    assert said.lines == tuple(proof_test_lines(tests, str, UNICODE, "\u00a0")) and len(said.lines) == len(tests) >= 2
    lines, height = overlay_draw.header_layout(scene.overlay, scene.overlay.header_rect.width)
    drawn = " ".join(text for text, font, _ in lines if font.get_height() >= lines[0][1].get_height() - 6)
    assert all(word in drawn.split(" ") for line in said.lines for word in line.split(" "))  # each bound unbroken
    assert height <= scene.overlay.rect.height // 2  # the tests leave room: nothing is cut
    # without a tree the bar keeps the buttons that do something: the presenter view (the header, larger) and Close
    buttons = [name for name, _, _ in overlay_draw.bar_geometry(scene.overlay, scene.overlay.rect.width)[0]]
    assert buttons == ["presenter", "close"]
    assert "proved by the exact solver: 12,794 nodes, " in scene.decision_html()


def test_an_open_tree_view_stays_open_over_a_book_move(app: App) -> None:
    scene = _decide(app, "expert", "", open_first=True)
    said = scene.overlay.no_tree_message
    assert scene.overlay.visible and said is not None and said[0] == "Red played 4 from the opening book"


@pytest.mark.parametrize("size", [(1024, 768), (1280, 800)])
def test_the_solver_words_fit_the_decision_box(app: App, size: tuple[int, int]) -> None:
    app.resize(size)
    scene = app.start_match("connect4", "human", "expert")
    app.run(max_frames=2)
    samples = match_panel.decision_samples(scene)
    exact = [s for s in samples if "exact solver" in s]
    assert len(exact) == 2  # a proof and an unfinished try, with wide figures
    box = scene.widgets["decision"]
    for text in samples:
        box.set_text(text)
        box.rebuild()
        assert box.scroll_bar is None, (size, text)


# -- the proof's null-window tests: what the window shows instead of a tree ----------------------------------------
@pytest.mark.parametrize(("position", "book"), [("4455", False), (LATE, False), (BOOK_PROOF, True), (UNPROVED, True),
                                                ("75135141261475643133", False), ("4632647772242532235417", True)])
def test_the_proofs_tests_are_what_the_solver_searched(position: str, book: bool) -> None:
    # each test asks "value > threshold?": a yes ends at the one column above it, a no searched every column the
    # root tries (its non-losing moves) and each is at most the threshold; the tests' nodes add up to the proof's,
    # and the last answers meet at the proven value
    res = _choose(f"alphabeta:exact=on,depth=42,book={'on' if book else 'off'}", position)
    tests = res.extra["proof_tests"]
    game = make_agent("connect4", "human").game
    legal = set(game.actions(game.parse_position(position)))
    unsearched = set(res.extra.get("proof_unsearched", ()))  # the moves that lose at once: no test searches them
    assert res.extra["solver"] is True and len(tests) == res.extra["null_window_tests"] >= 1
    assert sum(t[2] for t in tests) == res.nodes
    lo, hi = -math.inf, math.inf
    for threshold, result, nodes, columns in tests:
        assert lo <= threshold < hi and nodes >= len(columns)
        above = [c for c in columns if c[1] > threshold]
        if result > threshold:
            assert columns[-1] == above[-1] and len(above) == 1 and result == columns[-1][1]
            lo = result
        else:
            assert not above and len({c[0] for c in columns}) == len(columns)
            assert {c[0] for c in columns} | unsearched == legal and not unsearched & {c[0] for c in columns}
            assert result == max((c[1] for c in columns), default=result)  # fail-soft: the best bound
            hi = result
        assert sum(c[2] for c in columns) < nodes  # the root itself is one of the test's nodes
    assert lo == hi == res.value
    yes = [t for t in tests if t[1] > t[0]]
    if yes:  # the move played is the one that answered the last yes
        assert res.move == yes[-1][3][-1][0]


def test_the_proofs_tests_in_words() -> None:
    # 4455: Red wins in 3 plies with 3 or 6 (an open three); the second test proves no quicker win: the example of
    # issue 49's picture, each column's fail-soft bound as the solver returned it
    res = _choose("alphabeta:exact=on,depth=42,book=off", "4455")
    assert (res.move, res.outcome, res.plies_to_end) == (3, "win", 3)
    assert proof_test_lines(res.extra["proof_tests"], str, UNICODE) == [
        "Test 1, better than draw? yes: 3 ≥ win in 3 (2 nodes)",
        "Test 2, better than win in 3? no: 3, 6 ≤ win in 3, 2, 7, 4, 5, 1 ≤ win in 5 (8 nodes)"]
    # ASCII for a terminal; a no-break space keeps each group of moves with its bound where the window wraps
    assert proof_test_lines(res.extra["proof_tests"][1:], spelling=ASCII, space="~") == [
        "Test 1, better than win in 3? no: 3,~6~<=~win~in~3, 2,~7,~4,~5,~1~<=~win~in~5 (8~nodes)"]
    with pytest.raises(ValueError, match=r"test 1: expected \[threshold, result, nodes"):
        proof_test_lines([[0.0, 1.0, 3]])


def test_analyze_prints_the_proofs_tests(capsys: pytest.CaptureFixture[str]) -> None:
    # the terminal gets the same tests as the window, in ASCII, under the proof's line; the JSON the columns in the
    # game's notation
    spec = "alphabeta:exact=on,depth=42,book=off"
    capsys.readouterr()
    assert run(["analyze", "connect4", "--position", "4455", "--agent", spec]) == 0
    out = capsys.readouterr().out.splitlines()
    at = next(i for i, t in enumerate(out) if t.startswith("proved by the exact solver: 10 nodes, 2 null-window"))
    assert out[at + 1:at + 3] == ["  Test 1, better than draw? yes: 3 >= win in 3 (2 nodes)",
                                  "  Test 2, better than win in 3? no: 3, 6 <= win in 3, 2, 7, 4, 5, 1 <= win in 5 "
                                  "(8 nodes)"]
    obj = _json(capsys, ["analyze", "connect4", "--position", "4455", "--agent", spec, "--json"])
    assert [c[0] for c in obj["proof_tests"][1][3]] == ["3", "6", "2", "7", "4", "5", "1"]
    assert [t[2] for t in obj["proof_tests"]] == [2, 8] and obj["nodes"] == 10


def test_shot_draws_a_proof_and_refuses_its_steps(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    # the tree view of a proof, as the window shows it: the header with the tests, drawn whole at 1024x768 (depth 42
    # and no time budget: the solver always finishes, however busy the machine)
    out = tmp_path / "proof.png"
    solver = "alphabeta:exact=on,depth=42"
    obj = _json(capsys, ["shot", "overlay", "--size", "1024x768", "--game", "connect4", "--position", LATE,
                         "--agent", solver, "--out", str(out), "--json"])
    assert out.stat().st_size > 0 and obj["nodes"] == [] and obj["all_inside"] is True
    assert obj["header"][0] == "Yellow played 3: win in 21, proved by the exact solver"
    assert obj["header"][3] == "Test 3, better than win in 13? no: 3, 4, 5, 2, 6, 1 ≤ win in 13 (551 nodes)"
    capsys.readouterr()
    assert run(["shot", "overlay", "--size", "1024x768", "--game", "connect4", "--position", LATE, "--agent",
                solver, "--step", "3", "--out", str(tmp_path / "step.png")]) == 2
    assert "--step: this decision has no tree to step through (Yellow played 3" in capsys.readouterr().err
    assert not (tmp_path / "step.png").exists()
    # a book move: the header says where it comes from
    obj = _json(capsys, ["shot", "overlay", "--size", "1280x720", "--game", "connect4", "--position", "44444221",
                         "--agent", "expert", "--out", str(tmp_path / "book.png"), "--json"])
    assert obj["header"] == ["Red played 2 from the opening book"] and obj["all_inside"] is True


def test_a_proof_without_a_search_at_the_root_says_so() -> None:
    # Yellow faces two threats (every move loses at once), Red wins with its next stone: no test at all, and the
    # tree view says why no test was needed instead of explaining tests
    game = make_agent("connect4", "human").game
    for position, outcome, why in (("4455661", ("loss", 2), "every move lets the opponent win with its next stone"),
                                   ("445566", ("win", 1), "the move wins at once")):
        res = _choose("alphabeta:exact=on,depth=42,book=off", position)
        assert (res.outcome, res.plies_to_end) == outcome and res.nodes == 1
        assert res.extra["proof_tests"] == [] and res.extra["null_window_tests"] == 0
        said = match_panel.no_search_message(game, (0, str(res.move), res))
        assert said is not None and said.lines == ()
        assert f"No null-window test was needed: {why}." in said.notes[0] and "Each null-window" not in said.notes[0]
    # a test the root answers by its own bound (no move to search) is worded so, should a solver make one
    assert proof_test_lines([[0.0, -(WIN - 2), 1, []]]) == [
        "Test 1, better than draw? no: <= loss in 2, no move needed a search (1 node)"]


def test_the_moves_no_test_searched_are_named() -> None:
    # column 6 lets Yellow win at once: the tests never search it, and the last line says so (a "no" over five
    # columns of six would be a riddle)
    res = _choose("alphabeta:exact=on,depth=42,book=off", "75135141261475643133")
    assert res.extra["proof_unsearched"] == [6]
    lines = proof_test_lines(res.extra["proof_tests"], unsearched=res.extra["proof_unsearched"])
    assert lines[1] == "Test 2, better than win in 3? no: 4, 2 <= win in 3, 7, 3, 5, 1 <= win in 5 (7 nodes)"
    assert lines[-1] == "Never searched: 6, each losing at once (the opponent wins with its next move)"


def test_the_buttons_and_keys_of_a_proofs_view_work(app: App) -> None:
    # without a tree the view keeps Presenter and Close, and both act, by click and by key (P, Esc, T); P with the
    # view closed opens the presenter view of the proof too
    scene = _decide(app, "alphabeta:exact=on,depth=42", LATE, open_first=True)
    ov = scene.overlay
    assert ov.tree is None and ov.visible and not ov.presenter
    ply = scene.record.ply

    def button(name: str) -> tuple[int, int]:
        ui_driver.frames(app, 2)
        buttons, _ = overlay_draw.bar_geometry(ov, ov.bar_rect.width)
        rect = next(r for n, _, r in buttons if n == name).move(ov.bar_rect.x, ov.bar_rect.y)
        return rect.center

    ui_driver.click(app, button("presenter"))
    assert ov.presenter and ov.rect.size == app.screen.get_size()
    ui_driver.key(app, pygame.K_ESCAPE)
    assert not ov.presenter and ov.visible
    ui_driver.key(app, pygame.K_p)
    assert ov.presenter
    ui_driver.key(app, pygame.K_p)
    assert not ov.presenter
    ui_driver.click(app, button("close"))
    assert not ov.visible and scene.record.ply == ply  # the click closed the view and played nothing
    ui_driver.key(app, pygame.K_p)
    assert ov.visible and ov.presenter and ov.tree is None
