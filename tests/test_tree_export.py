"""The search-tree pictures and files: tidy layout, collapsing, JSON/DOT/TXT/SVG/PNG export (headless)."""

from __future__ import annotations

import itertools
import json
import math
import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from ai.kernel.recording import CHANCE, MAX, RecordedNode, SearchTree
from ai.teaching.treelab import TreeSearch, parse_tree_agent, search_tree
from gameplay.pictures.picture_build import build_picture
from gameplay.pictures.tree_export import export_tree, tree_dot, tree_svg
from gameplay.pictures.tree_layout import COLLAPSED, NODE, PRUNED, TreeLayout, layout
from gameplay.rules.base import GameError
from gameplay.rules.trees import parse_tree

ROOT = Path(__file__).resolve().parent.parent
AIMA = "[[3,12,8],[2,4,6],[14,5,2]]"
SVG_NS = "{http://www.w3.org/2000/svg}"


def _search(spec: Any, agent: str = "alphabeta") -> TreeSearch:
    return search_tree(parse_tree(json.dumps(spec) if not isinstance(spec, str) else spec), parse_tree_agent(agent))


def _random_tree(rng: random.Random, depth: int, branching: tuple[int, int]) -> Any:
    if depth == 0:
        return rng.randint(-20, 20)
    return [_random_tree(rng, depth - 1, branching) for _ in range(rng.randint(*branching))]


def _chance_tree() -> SearchTree:
    """The expectimax example of CLI.md recorded by hand: a chance root over three leaves, value 10."""
    inf = math.inf
    probs = [0.5, 1 / 3, 1 / 6]
    vals = [8.0, 24.0, -12.0]
    leaves = [RecordedNode(i + 1, 0, MAX, str(i), p, 1, -inf, inf, -inf, inf, v, v, v, i + 1, i + 1, (), (),
                           "terminal", False) for i, (p, v) in enumerate(zip(probs, vals))]
    root = RecordedNode(0, None, CHANCE, None, None, 0, -inf, inf, -inf, inf, 10.0, 10.0, 10.0, 0, 4, (1, 2, 3), (),
                        "", True)
    return SearchTree((root, *leaves), 4, 3, 0, 0, False, "expectimax", "ge", ())


def _check_tidy(lay: TreeLayout) -> None:
    seen: set[tuple[float, float]] = set()
    for it in lay.nodes:
        key = (round(it.x, 6), it.y)
        assert key not in seen, f"two nodes at {key}"
        seen.add(key)
        if it.children:
            xs = [lay.nodes[c].x for c in it.children]
            assert all(b - a >= 1.0 - 1e-9 for a, b in itertools.pairwise(xs)), "children out of order or too close"
            assert math.isclose(it.x, (xs[0] + xs[-1]) / 2, abs_tol=1e-9), "parent not centred over its children"
            assert all(lay.nodes[c].depth == it.depth + 1 for c in it.children)
    # the contour at each depth is separated by at least one unit
    by_depth: dict[int, list[float]] = {}
    for it in lay.nodes:
        by_depth.setdefault(it.depth, []).append(it.x)
    for xs in by_depth.values():
        xs.sort()
        assert all(b - a >= 1.0 - 1e-9 for a, b in itertools.pairwise(xs))


# -- layout ------------------------------------------------------------------------------------------------------
def test_aima_layout_is_tidy_and_shows_the_pruned_moves() -> None:
    res = _search(AIMA)
    lay = layout(res.tree)
    _check_tidy(lay)
    root = lay.nodes[0]
    kids = [lay.nodes[c] for c in root.children]
    assert [k.node.label() for k in kids if k.node] == ["3", "<= 2", "2"]
    second = kids[1]
    pruned = [lay.nodes[c] for c in second.children if lay.nodes[c].kind == PRUNED]
    assert [p.moves for p in pruned] == [("1",), ("2",)]
    assert all(p.reason == "α=3 ≥ β=2" for p in pruned)
    assert all(p.shape == MAX for p in pruned)
    assert lay.nodes[second.children[0]].kind == NODE  # the searched child comes before the pruned ones
    assert lay.shown == len(res.tree.nodes) and lay.hidden == 0
    assert min(it.x for it in lay.nodes) == 0.0


def test_gt_rule_reason_and_minimax_has_no_placeholders() -> None:
    lay = layout(_search(AIMA, "alphabeta:prune=gt").tree)
    reasons = {it.reason for it in lay.nodes if it.kind == PRUNED}
    assert reasons == {"α=3 > β=2"}
    mm = layout(_search(AIMA, "minimax").tree)
    assert not any(it.kind == PRUNED for it in mm.nodes) and not mm.show_window
    _check_tidy(mm)


@pytest.mark.parametrize("seed", range(6))
def test_random_trees_lay_out_tidily(seed: int) -> None:
    rng = random.Random(seed)
    res = _search(_random_tree(rng, rng.randint(2, 5), (1, 4)))
    lay = layout(res.tree, collapse=None, max_width=None)
    _check_tidy(lay)
    assert lay.shown == len(res.tree.nodes)
    expected = sum(len(n.skipped) if len(n.skipped) <= 3 else 1 for n in res.tree.nodes)
    assert sum(1 for it in lay.nodes if it.kind == PRUNED) == expected


def test_a_few_thousand_nodes_collapse_to_the_budget() -> None:
    rng = random.Random(7)
    res = _search(_random_tree(rng, 6, (4, 4)), "minimax")
    assert len(res.tree.nodes) > 5000
    full = layout(res.tree, collapse=None, max_width=None)
    _check_tidy(full)
    assert full.shown == len(res.tree.nodes)
    lay = layout(res.tree, collapse=120, max_width=None)
    _check_tidy(lay)
    assert len(lay.nodes) <= 120
    assert lay.shown + lay.hidden == len(res.tree.nodes)
    markers = [it for it in lay.nodes if it.kind == COLLAPSED]
    assert markers and sum(m.hidden for m in markers) == lay.hidden
    narrow = layout(res.tree, collapse=None, max_width=20)
    assert max(sum(1 for it in narrow.nodes if it.depth == d) for d in range(narrow.depth + 1)) <= 20
    # the principal variation stays visible to the bottom
    assert any(it.on_pv and it.depth == res.tree.nodes[-1].depth for it in lay.nodes)


def test_max_children_folds_the_rest_but_keeps_the_pv_child() -> None:
    res = _search([[1], [2], [3], [9], [4], [5]], "minimax")  # best child is index 3
    lay = layout(res.tree, max_children=3)
    kids = [lay.nodes[c] for c in lay.nodes[0].children]
    assert [k.kind for k in kids] == [NODE, NODE, COLLAPSED]
    assert kids[1].on_pv and kids[1].node is not None and kids[1].node.move == "3"
    assert kids[2].hidden == 8  # four MIN nodes with a leaf each
    _check_tidy(lay)


def test_expand_and_fold_override_the_budget() -> None:
    res = _search(AIMA)
    folded = layout(res.tree, fold=[1])
    first = folded.nodes[folded.nodes[0].children[0]]
    assert [folded.nodes[c].kind for c in first.children] == [COLLAPSED]
    tiny = layout(res.tree, collapse=1, expand=[7])
    third = next(it for it in tiny.nodes if it.node_id == 7)
    assert len(third.children) == 3


def test_chance_layout_and_picture() -> None:
    tree = _chance_tree()
    lay = layout(tree)
    _check_tidy(lay)
    texts = [i.text for i in build_picture(lay).items if i.op == "text"]
    assert "10" in texts and "p=1/2" in texts and "p=1/6" in texts and "Σ p·v" in texts


# -- export ------------------------------------------------------------------------------------------------------
def _svg_texts(path: Path) -> list[str]:
    root = ET.parse(path).getroot()
    assert root.tag == SVG_NS + "svg"
    return [t.text or "" for t in root.iter(SVG_NS + "text")]


def test_every_format_writes_a_file(tmp_path: Path) -> None:
    res = _search(AIMA)
    summary = res.to_json()
    for suffix in (".json", ".dot", ".txt", ".svg"):
        p = export_tree(res.tree, tmp_path / f"t{suffix}", summary=summary)
        assert p.exists() and p.stat().st_size > 100, suffix
    doc = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    # one cut-off (at the second MIN node), pruning two subtrees: what the picture draws
    assert doc["summary"]["minimax_nodes"] == 13 and doc["cutoffs"] == 1 and doc["summary"]["pruned_subtrees"] == 2
    assert len(doc["nodes"]) == 11 and all("state" not in n for n in doc["nodes"])
    assert doc["nodes"][5]["label"] == "<= 2" and doc["nodes"][5]["lo"] is None and doc["nodes"][5]["hi"] == 2
    assert doc["nodes"][5]["skipped"] == ["1", "2"]
    assert (tmp_path / "t.txt").read_text(encoding="utf-8").startswith("alphabeta (cut-off when alpha >= beta)")


def test_aima_svg_shows_bounds_header_and_pruned_note(tmp_path: Path) -> None:
    res = _search(AIMA)
    p = export_tree(res.tree, tmp_path / "aima.svg", summary=res.to_json())
    texts = _svg_texts(p)
    assert "≤ 2" in texts and "2" in texts and "3" in texts  # the picture's bound sign, as its windows write α β
    assert "pruned" in texts and "α=3 ≥ β=2" in texts
    assert texts[0].startswith("alpha-beta: cut-off when α ≥ β")
    assert any("11 nodes visited" in t and "7 leaves" in t and "1 cut-off (2 subtrees pruned)" in t
               and "minimax visits 13" in t for t in texts)
    body = p.read_text(encoding="utf-8")
    assert "stroke-dasharray" in body and "#0072B2" in body and "#D55E00" in body
    sizes = [float(t.get("font-size", "0")) for t in ET.parse(p).getroot().iter(SVG_NS + "text")]
    assert min(sizes) >= 18


def test_big_game_tree_svg_is_collapsed(tmp_path: Path) -> None:
    from ai.teaching.decision_tree import record_decision
    _, _, _, tree = record_decision("tictactoe", None, "minimax:depth=3")
    assert len(tree.nodes) > 300
    svg = tree_svg(tree)
    assert "nodes" in svg and svg.count("<polygon") <= 130
    texts = [t.text or "" for t in ET.fromstring(svg).iter(SVG_NS + "text")]
    assert any(t.startswith("+") and t.endswith("nodes") for t in texts)


def test_dot_is_plausible() -> None:
    res = _search(AIMA)
    dot = tree_dot(res.tree, res.to_json())
    assert dot.startswith("digraph")
    depth = 0
    for ch in dot:
        depth += ch == "{"
        depth -= ch == "}"
        assert depth >= 0
    assert depth == 0
    assert "shape=triangle" in dot and "shape=invtriangle" in dot and "shape=box" in dot
    assert "style=dashed" in dot and "penwidth=5" in dot
    assert dot.count("->") == 10 + 2  # ten searched edges, two pruned
    assert '"<= 2\\nalpha=3 beta=+inf"' in dot  # a text file: ASCII (ai.kernel.spelling)
    chance = tree_dot(_chance_tree())
    assert "shape=circle" in chance and "p=1/3" in chance


def test_unknown_suffix_is_a_clear_error(tmp_path: Path) -> None:
    res = _search(AIMA)
    with pytest.raises(GameError, match=r"\.bmp.*\.json, \.dot, \.txt, \.svg, \.png"):
        export_tree(res.tree, tmp_path / "t.bmp")
    assert not (tmp_path / "t.bmp").exists()


def test_cli_writes_svg(tmp_path: Path) -> None:
    out = tmp_path / "X.svg"
    r = subprocess.run([sys.executable, "main.py", "tree", "--tree", AIMA, "--agent", "alphabeta", "--out", str(out)],
                       check=False, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "≤ 2" in _svg_texts(out)
    bad = subprocess.run([sys.executable, "main.py", "tree", "--tree", AIMA, "--agent", "alphabeta", "--out",
                          str(tmp_path / "X.gif")], check=False, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and ".svg" in bad.stderr


# -- PNG (pygame-ce) -----------------------------------------------------------------------------------------------
def test_png_export_and_overlay_drawing(tmp_path: Path) -> None:
    pygame = pytest.importorskip("pygame")
    from gameplay.pictures.tree_png import draw_tree

    res = _search(AIMA)
    p = export_tree(res.tree, tmp_path / "aima.png", summary=res.to_json())
    img = pygame.image.load(str(p))
    assert img.get_width() > 400 and img.get_height() > 200
    surf = pygame.Surface((800, 600))
    lay = layout(res.tree)
    hits = draw_tree(surf, lay, zoom=0.5, offset=(10, 20), font_size=18, header=False)
    assert len(hits) == len(lay.nodes)
    root_rect, root = next((r, n) for r, n in hits if n.index == 0)
    assert root.node is not None and root.node.id == 0
    assert surf.get_rect().colliderect(root_rect)
    p2 = export_tree(_chance_tree(), tmp_path / "chance.png")
    assert p2.stat().st_size > 1000


def test_png_without_pygame_is_a_clear_error(tmp_path: Path) -> None:
    code = ("import sys; sys.modules['pygame'] = None\n"
            "from ai.teaching.treelab import parse_tree_agent, search_tree\n"
            "from gameplay.rules.trees import parse_tree\n"
            "from gameplay.pictures.tree_export import export_tree\n"
            "from gameplay.rules.base import GameError\n"
            f"t = search_tree(parse_tree({AIMA!r}), parse_tree_agent('alphabeta')).tree\n"
            "try:\n"
            f"    export_tree(t, {str(tmp_path / 'x.png')!r})\n"
            "except GameError as e:\n"
            "    print('ERR', e)\n")
    r = subprocess.run([sys.executable, "-c", code], check=False, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.stdout.startswith("ERR PNG export needs pygame-ce"), r.stdout + r.stderr


def test_layout_module_and_export_need_no_pygame() -> None:
    code = ("import sys; sys.modules['pygame'] = None\n"
            "import gameplay.pictures.tree_layout, gameplay.pictures.tree_export\n"
            "print('ok')\n")
    r = subprocess.run([sys.executable, "-c", code], check=False, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.stdout.strip() == "ok", r.stderr
