"""One truth per node with the window's default search (issue 47).

The window's presets search with principal-variation search: a move after the first is tested with a null window,
and searched again when the test fails high inside the window. The picture drew such a move twice (the test's
``>= 0`` beside the re-search's ``<= 0``) and the root's sentence listed both bounds, so nobody could get its
``= 0`` from it. Now the recorded tree holds the move once, with its passes (:attr:`RecordedNode.passes`), and the
picture and the narration read that one node:

* every node appears once in the picture at every step (no two items for one node, no two children by one move);
* the numbers a sentence quotes for a node's children (``max(...)``, ``min(...)``, a chance node's weighted sum)
  are the values the picture shows for those children at that step, and the root's sentence contains its value
  as a child's exact value;
* the step-through still shows the test, then the re-search, on the same node.

Each game's decision is recorded with the window's default agent (the AI side of the record's ``default_sides``),
limited by depth (its preset's, checkers' the depth 6 the issue's 1 s search reached): the time budget is set out
of reach so that the depth alone stops the search.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from ai.kernel.recording import CHANCE, NULL_TEST, RE_SEARCH, SearchTree
from ai.kernel.spelling import UNICODE
from ai.teaching.decision_model import TreeInfo
from ai.teaching.decision_tree import record_decision
from ai.teaching.narration import NarratedStep, narration_steps
from ai.teaching.trace import pass_index, step_events
from gameplay.pictures.step_view import step_layout
from gameplay.pictures.tree_export import tree_json
from gameplay.pictures.tree_layout import NODE, TreeLayout, layout
from gameplay.pictures.tree_picture import passes_line, value_text
from gameplay.rules.registry import game_info
from gameplay.ui.overlay.overlay import TreeOverlay
from gameplay.ui.overlay.overlay_canvas import node_hover_lines

ROOT = Path(__file__).resolve().parents[1]


def default_agent(game: str) -> str:
    """The agent the window plays ``game`` with by default: the side of ``default_sides`` that is not human."""
    return next(a for a in game_info(game).default_sides if a != "human")


DECISIONS = [  # (game, position, depth: None = the preset's own)
    ("tictactoe", None, None),
    ("checkers", None, 6),  # the start: max(-2, <= 0, <= 0, ...) = 0 at depth 6
    ("pig", "60,10,30,1", None),  # expectimax, a chance node: its sentence is a weighted sum
    ("connect4", "4", None),  # the position: max(-5, <= 0, <= -5, ...) = 0
]


def spec_of(game: str, depth: int | None) -> str:
    """The default agent, stopped by its depth: the time budget out of reach (no real-time wait)."""
    return f"{default_agent(game)}:" + (f"depth={depth}," if depth else "") + "time=3600"


def terms(text: str) -> list[str] | None:
    """The children's terms of a backed-up sentence ``X (MAX) = max(3, <= 2, ...) = 3`` (``...`` left out), or
    ``None`` when the sentence backs up no max or min."""
    m = re.search(r"\((?:MAX|MIN)\) = (?:max|min)\(", text)
    if m is None:
        return None
    out, depth, cur = [], 0, ""
    for ch in text[m.end():]:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            if depth == 0:
                break
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return [t for t in out + [cur.strip()] if t != "..."]


def weighted_terms(text: str) -> list[str] | None:
    """The values of a chance node's sum ``X (chance) = 1/6*3 + 1/6*(-1) = 0.333`` (``["3", "-1"]``), or ``None``."""
    if " (chance) = " not in text:
        return None
    lhs = text.split(";")[0].split(" (chance) = ", 1)[1].rsplit(" = ", 1)[0]
    if "*" not in lhs:
        return None
    return [re.sub(r"^\((.*)\)$", r"\1", t.split("*", 1)[1]) for t in lhs.split(" + ")]


def kids_shown(lay: TreeLayout, node_id: int) -> list[str]:
    """The values the picture shows in the children of node ``node_id`` (in the search's order)."""
    me = next(it for it in lay.nodes if it.kind == NODE and it.node is not None and it.node.id == node_id)
    return [value_text(c.node) for c in (lay.nodes[k] for k in me.children)
            if c.kind == NODE and c.node is not None]


def walk(tree: SearchTree) -> tuple[int, int]:
    """Every step of ``tree``: each node once in the picture (as the overlay lays it out: the pass at the step,
    what the search had reached), and each backed-up sentence's numbers are the values drawn in the node's
    children. Returns ``(steps, sentences checked)``."""
    by_id = {n.id: n for n in tree.nodes}
    events = step_events(tree)
    steps = narration_steps(tree, symbols=UNICODE)  # as the window writes them, the picture's very signs
    assert len(steps) == len(events)
    again = [n for n in tree.nodes if n.re_searched]
    layouts: dict[tuple[int, ...], TreeLayout] = {}
    checked = 0
    for i, (e, st) in enumerate(zip(events, steps)):
        key = tuple(pass_index(n, e.order) for n in again)  # the overlay lays out again when this changes
        if key not in layouts:
            full = layout(tree, max_depth=None, max_children=None, collapse=None, max_width=None, at=e.order)
            ids = [it.node.id for it in full.nodes if it.node is not None]
            assert len(ids) == len(set(ids)), f"step {i}: a node drawn twice"
            layouts[key] = full
        lay = step_layout(layouts[key], by_id, e.order)
        items = [it for it in lay.nodes if it.kind == NODE and it.node is not None]
        edges = [(it.parent, it.node.move) for it in items if it.parent is not None]  # type: ignore[union-attr]
        assert len(edges) == len(set(edges)), f"step {i}: one move drawn twice under a node"
        assert st.node == e.node and any(it.node.id == e.node for it in items)  # type: ignore[union-attr]
        if not e.leaving:
            continue
        quoted = terms(st.text)
        if quoted is None:
            quoted = weighted_terms(st.text)
        if quoted is not None:
            assert quoted == kids_shown(lay, e.node), f"step {i + 1}: {st.text}"
            checked += 1
    return len(events), checked


def root_sentence_has_its_value(tree: SearchTree, last: NarratedStep) -> None:
    """The root's sentence lists its children as the picture labels them, and its value is one child's exact value
    (the chosen child's)."""
    root = tree.nodes[0]
    kids = [c for c in tree.nodes if c.parent == 0 and c.id in root.children]
    assert len({c.move for c in kids}) == len(kids)  # each root move once
    quoted = terms(last.text) if root.kind != CHANCE else weighted_terms(last.text)
    assert quoted == [c.label(UNICODE) for c in kids], last.text
    assert root.exact and root.label(UNICODE) in [c.label(UNICODE) for c in kids if c.exact], last.text
    best = next(c for c in kids if c.on_pv)
    assert best.exact and best.value == root.value


@pytest.mark.parametrize(("game", "position", "depth"), DECISIONS, ids=[d[0] for d in DECISIONS])
def test_every_step_of_a_default_decision_shows_each_node_once_and_reads_as_drawn(
        game: str, position: str | None, depth: int | None) -> None:
    _, _, res, tree = record_decision(game, position, spec_of(game, depth))
    assert not tree.truncated and tree.depth == res.depth
    again = [n for n in tree.nodes if n.re_searched]
    if game != "pig":  # alpha-beta with principal-variation search: this decision re-searches
        assert again, "the decision has a null-window test that failed high"
        assert all([p.kind for p in n.passes][-1] == RE_SEARCH for n in again)
    steps, checked = walk(tree)
    assert steps == 2 * tree.recorded_visits and checked > 0
    root_sentence_has_its_value(tree, narration_steps(tree, symbols=UNICODE)[-1])


def test_a_re_searched_child_is_one_node_carrying_both_bounds() -> None:
    """connect4 4 (the issue's position): the root's move 4 was tested (``>= 0``) and re-searched (``<= 0``);
    together exactly 0, the root's value, which its sentence can now show."""
    _, _, res, tree = record_decision("connect4", "4", spec_of("connect4", None))
    root = tree.nodes[0]
    four = next(tree.nodes[k] for k in root.children if tree.nodes[k].move == "4")
    assert [(p.kind, p.label()) for p in four.passes] == [(NULL_TEST, ">= 0"), (RE_SEARCH, "<= 0")]
    assert four.label() == "0" and four.on_pv and res.value == root.value == 0
    assert four.passes[0].leave_order < four.passes[1].enter_order and four.enter_order == four.passes[0].enter_order
    # the test's children and the re-search's are each their own nodes, under the one node 4
    assert four.children == four.passes[1].children and not set(four.passes[0].children) & set(four.children)
    assert all(tree.nodes[k].parent == four.id for p in four.passes for k in p.children)
    text = narration_steps(tree)[-1].text
    assert text.startswith("Root (MAX) = max(-5, 0, <= -5, <= -5, <= 0, <= -3, <= -1) = 0,"), text
    # the exports say the same: the JSON's passes, the text trace's line for 4 and where its re-search starts
    node = json.loads(tree_json(tree))["nodes"][four.id]
    assert node["label"] == "0" and [(p["kind"], p["label"]) for p in node["passes"]] == [
        (NULL_TEST, ">= 0"), (RE_SEARCH, "<= 0")]
    trace = tree.text()
    assert "  4 MIN a=0 b=+inf -> 0 [cutoff] [test >= 0, re-search <= 0]" in trace and "  4 re-search a=0" in trace


def overlay_for(tree: SearchTree, size: tuple[int, int] = (1280, 720)) -> TreeOverlay:
    ov = TreeOverlay()
    ov.set_rect(pygame.Rect(0, 0, *size))
    ov.set_tree(tree, TreeInfo("decision"))
    ov.show()
    ov.set_presenter(True)
    return ov


def test_the_step_through_shows_the_test_then_the_re_search_on_the_same_node() -> None:
    """What a teacher explains: first we only test whether 4 can beat alpha; it does, so we search it again with
    the full window. Four steps of the window's overlay, one node 4 drawn under the root each time."""
    _, _, _, tree = record_decision("connect4", "4", spec_of("connect4", None))
    four = next(tree.nodes[k] for k in tree.nodes[0].children if tree.nodes[k].move == "4")
    ov = overlay_for(tree)
    ov.draw(pygame.Surface(ov.rect.size))
    at = {(e.node, e.search, e.leaving): i for i, e in enumerate(ov.events)}
    for (search, leaving), value, words, line in [
            ((0, False), "?", "Test 4 (MIN) with the null window", "test"),
            ((0, True), "≥ 0", "fails high (value at least 0): MAX may do better than α = -5, so it is searched "
                                "again with the full window", "test ≥ 0"),
            ((1, False), "≥ 0", "Search 4 (MIN) again with the full window α = 0", "test ≥ 0, re-search"),
            ((1, True), "0", "its null-window test proved at least 0, so its value is 0; at root (MAX), α = "
                             "max(-5, 0) = 0", "test ≥ 0, re-search ≤ 0")]:
        ov.go_to_step(at[four.id, search, leaving])
        ov.draw(pygame.Surface(ov.rect.size))
        view = ov.step_view()
        assert view is not None and words in view.narration
        under_root = [it for it in view.layout.nodes if it.kind == NODE and it.parent == 0 and it.node is not None]
        assert len({it.node.move for it in under_root}) == len(under_root)  # type: ignore[union-attr]
        drawn = [it for it in under_root if it.node.id == four.id]  # type: ignore[union-attr]
        assert len(drawn) == 1
        assert value_text(drawn[0].node) == value  # type: ignore[arg-type]
        assert passes_line(drawn[0].node) == line  # type: ignore[arg-type]
        assert f"searches: {line}" in node_hover_lines(ov, drawn[0].node)  # type: ignore[arg-type]
        assert kids_of(view.layout, four.id) <= set(four.passes[search].children)  # that pass's, never the other's
    # going down into each pass: the test's children under 4, then the re-search's in their place
    for search in (0, 1):
        first = four.passes[search].children[0]
        ov.go_to_step(at[first, 0, False])
        ov.draw(pygame.Surface(ov.rect.size))
        view = ov.step_view()
        assert view is not None
        kids = kids_of(view.layout, four.id)
        assert first in kids and kids <= set(four.passes[search].children)


def kids_of(lay: TreeLayout, node_id: int) -> set[int]:
    """The recorded children drawn under node ``node_id``."""
    me = next(it for it in lay.nodes if it.kind == NODE and it.node is not None and it.node.id == node_id)
    return {c.node.id for c in (lay.nodes[k] for k in me.children) if c.kind == NODE and c.node is not None}


def _shot(tmp_path: Path, *args: str) -> dict[str, object]:
    env = dict(os.environ, PYGAME_HIDE_SUPPORT_PROMPT="1", SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    out = subprocess.run([sys.executable, "main.py", "shot", "overlay", *args, "--presenter", "--size", "1280x720",
                          "--out", str(tmp_path / "o.png"), "--json"], cwd=ROOT, capture_output=True, text=True,
                         timeout=600, env=env)
    assert out.returncode == 0, out.stderr
    obj: dict[str, object] = json.loads(out.stdout)
    return obj


@pytest.mark.parametrize("args", [("--game", "connect4", "--position", "4"),
                                  ("--game", "checkers", "--agent", spec_of("checkers", 6))],
                         ids=["connect4", "checkers"])
def test_shot_json_each_root_child_once_and_the_root_value_is_a_childs(tmp_path: Path, args: tuple[str, ...]
                                                                        ) -> None:
    """The issue's commands: ``shot overlay --game connect4 --position 4 --presenter --size 1280x720 --json`` and
    the checkers start (its default agent to depth 6, the depth its 1 s search reached)."""
    obj = _shot(tmp_path, *args)
    nodes = [n for n in obj["nodes"] if isinstance(n, dict) and n["kind"] == "node"]  # type: ignore[union-attr]
    root = next(n for n in nodes if n["label"] == "root")
    children = [n for n in nodes if n["parent"] == "root"]
    assert children and len({n["label"] for n in children}) == len(children)  # each root child once
    narration = str(obj["narration"])
    quoted = terms(narration)
    assert quoted is not None and str(root["value"]) in quoted, narration  # the root's value, a child's exact one
    assert narration.split(" = max(")[1].split(") = ")[1].startswith(f"{root['value']},")
    # the children drawn read as the sentence says
    assert [str(n["value"]) for n in children] == quoted[:len(children)]


def test_the_tree_lab_searches_once_each_node() -> None:
    """The Tree Lab's textbook alpha-beta has no principal-variation search: no node has passes, so its course
    examples read exactly as before."""
    from ai.teaching.treelab import parse_tree_agent, search_tree
    from gameplay.rules.trees import TEXTBOOK_TREES, parse_tree
    for spec in (s for s in TEXTBOOK_TREES.values() if "chance" not in s):
        tree = search_tree(parse_tree(spec), parse_tree_agent("alphabeta:ordering=on")).tree
        assert not any(n.passes for n in tree.nodes)
        assert len(step_events(tree)) == 2 * len(tree.nodes)


ASCII_SIGNS = re.compile(r"\balpha\b(?! cut-off)|\bbeta\b(?! cut-off)|<=|>=|-inf|\+inf|\beps\b")
"""The ASCII signs (an "alpha cut-off" is the kind's name, in words everywhere)."""


def test_the_window_writes_the_pictures_signs_and_the_command_line_ascii() -> None:
    """One spelling per place (:mod:`ai.kernel.spelling`): every sentence the window draws under the tree, the pass
    line and the values use ``α β ≤ ≥ −∞ ε`` as the picture does (the narration wrote ``alpha``, ``<= 3``, ``-inf``
    beside the picture's ``≤ 3``); ``tree --narrate`` and the trace stay ASCII for a terminal."""
    from ai.teaching.narration import narration
    _, _, _, tree = record_decision("connect4", "4", spec_of("connect4", None))
    ov = overlay_for(tree)
    windowed = 0
    for i in range(len(ov.events)):
        ov.go_to_step(i)
        view = ov.step_view()
        assert view is not None
        assert not ASCII_SIGNS.search(view.narration), (i, view.narration)
        windowed += any(sign in view.narration for sign in "αβ≤≥∞")
        for it in view.layout.nodes:
            if it.kind == NODE and it.node is not None:
                assert not ASCII_SIGNS.search(value_text(it.node) + passes_line(it.node))
    assert windowed > len(ov.events) // 2
    text = narration(tree)
    assert all(s.isascii() for s in text) and any(">=" in s or "alpha" in s for s in text)
    assert tree.text().isascii()
