"""Tree Lab: the course material's textbook trees with exact values, leaf orders, pruned paths and bounds."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai.teaching.treelab import TreeSettings, parse_tree_agent, search_tree
from gameplay.rules.trees import TEXTBOOK_TREES, TreeError, parse_tree

ROOT = Path(__file__).resolve().parent.parent
AIMA = "[[3,12,8],[2,4,6],[14,5,2]]"


def run(tree: str, agent: str) -> dict:
    return search_tree(parse_tree(tree), parse_tree_agent(agent)).to_json()


def test_aima_figure_5_2_alphabeta() -> None:
    obj = run(AIMA, "alphabeta")
    assert obj["value"] == 3 and obj["best"] == 0
    assert obj["leaves_visited"] == [3, 12, 8, 2, 14, 5, 2]
    assert obj["pruned"] == [[1, 1], [1, 2]]
    assert obj["minimax_nodes"] == 13 and obj["nodes"] == 11


def test_cli_json_matches() -> None:
    r = subprocess.run([sys.executable, "main.py", "tree", "--tree", AIMA, "--agent", "alphabeta", "--json"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    obj = json.loads(r.stdout)
    assert (obj["value"], obj["best"], obj["leaves_visited"], obj["pruned"]) == (
        3, 0, [3, 12, 8, 2, 14, 5, 2], [[1, 1], [1, 2]])


def test_bounds_not_false_exact_values() -> None:
    res = search_tree(parse_tree(AIMA), parse_tree_agent("alphabeta"))
    kids = [n for n in res.tree.nodes if n.parent == 0]
    assert [k.label() for k in kids] == ["3", "<= 2", "2"]
    assert not kids[1].exact and kids[2].exact
    root = res.tree.nodes[0]
    assert root.label() == "3" and root.on_pv and kids[0].on_pv


@pytest.mark.parametrize("tree,value", [
    ("[[[2,3],[5,9]],[[0,1],[7,5]]]", 3),
    ("[[[-1,4],[2,6]],[[-3,-5],[0,7]]]", 4),
    ("[[8,6,4],[3,7,5],[2,9,1]]", 4),
])
def test_course_examples(tree: str, value: float) -> None:
    a = run(tree, "alphabeta")
    m = run(tree, "minimax")
    assert a["value"] == m["value"] == value
    assert a["nodes"] < m["nodes"] == m["minimax_nodes"]
    assert m["pruned"] == []


def test_second_example_prunes_the_9_and_the_right_subtree() -> None:
    obj = run("[[[2,3],[5,9]],[[0,1],[7,5]]]", "alphabeta")
    assert obj["pruned"] == [[0, 1, 1], [1, 1]]
    assert 9 not in obj["leaves_visited"] and obj["leaves_visited"] == [2, 3, 5, 0, 1]


def test_pricing_game_first_strategy() -> None:
    assert run("[[8,6,4],[3,7,5],[2,9,1]]", "alphabeta")["best"] == 0


def test_strict_cutoff_rule() -> None:
    # With equal values, >= prunes where > does not: MIN's first child equals alpha.
    tree = "[[3,5],[3,1,0]]"
    ge = run(tree, "alphabeta:prune=ge")
    gt = run(tree, "alphabeta:prune=gt")
    assert ge["value"] == gt["value"] == 3
    assert ge["pruned"] == [[1, 1], [1, 2]] and ge["leaves_visited"] == [3, 5, 3]
    assert gt["pruned"] == [[1, 2]] and gt["leaves_visited"] == [3, 5, 3, 1]


def test_textbook_presets_parse_and_expectimax_refusals() -> None:
    for text in TEXTBOOK_TREES.values():
        parse_tree(text)
    from ai.kernel.search import SearchError
    with pytest.raises(SearchError, match="chance"):
        search_tree(parse_tree(TEXTBOOK_TREES["Expectimax (value 10)"]), TreeSettings("alphabeta"))


@pytest.mark.parametrize("bad,needle", [
    ("[]", "no children"), ("[[1,2],[]]", "path [1]"), ("[1, true]", "expected a number"),
    ('{"chance": [[0.5, 1], [0.4, 2]]}', "sum to 0.9"), ('{"chance": [[2, 1]]}', "[0, 1]"),
    ("[1,", "not valid JSON"), ('{"x": 1}', "chance"), ('[1, "a"]', "expected a number"),
])
def test_malformed_trees_are_refused(bad: str, needle: str) -> None:
    with pytest.raises(TreeError, match=needle.replace("[", r"\[").replace("]", r"\]")):
        parse_tree(bad)


def _random_tree(rng: random.Random, depth: int, branching: int) -> object:
    if depth == 0:
        return rng.randint(-9, 9)
    return [_random_tree(rng, depth - 1, branching) for _ in range(rng.randint(1, branching))]


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 4), st.integers(1, 4), st.sampled_from(["ge", "gt"]),
       st.booleans())
def test_random_trees_minimax_equals_alphabeta(seed: int, depth: int, branching: int, prune: str,
                                               ordering: bool) -> None:
    text = json.dumps(_random_tree(random.Random(seed), depth, branching))
    if text.lstrip("-").isdigit():
        return
    m = search_tree(parse_tree(text), TreeSettings("minimax"))
    a = search_tree(parse_tree(text), TreeSettings("alphabeta", ordering=ordering, prune=prune))
    assert a.value == m.value and a.nodes <= m.nodes
    # every recorded bound contains the true (minimax) value of its node
    true = {n.state: n.value for n in m.tree.nodes}
    for n in a.tree.nodes:
        assert n.lo <= true[n.state] <= n.hi


def test_absurdly_deep_or_large_trees_are_refused_cleanly() -> None:
    deep = "[" * 400 + "1,2" + "]" * 400
    with pytest.raises(TreeError, match="nested too deeply"):
        parse_tree(deep)
    with pytest.raises(TreeError, match="nested too deeply"):
        parse_tree("[" * 1200 + "1" + "]" * 1200)  # deeper than json's own recursion limit
    r = subprocess.run([sys.executable, "main.py", "tree", "--tree", deep, "--agent", "alphabeta"], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
