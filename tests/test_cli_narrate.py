"""``main.py tree ... --narrate`` (CLI.md): one numbered line per step; ``"narration"`` in the JSON; the exports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ai.teaching.narration import narration
from ai.teaching.trace import step_events
from ai.teaching.treelab import parse_tree_agent, search_tree
from gameplay.cli import run
from gameplay.pictures.tree_export import export_tree
from gameplay.rules.trees import parse_tree

SEED_TREE = "[[[2,3],[5,9]],[[0,1],[7,5]]]"


def call(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_tree_narrate_prints_numbered_steps(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = call(capsys, "tree", "--tree", SEED_TREE, "--agent", "alphabeta", "--narrate")
    assert code == 0, err
    lines = out.strip().splitlines()
    res = search_tree(parse_tree(SEED_TREE), parse_tree_agent("alphabeta"))
    assert len(lines) == len(step_events(res.tree)) == 22
    assert [ln.split(":", 1)[0] for ln in lines] == [f"Step {i}" for i in range(1, 23)]
    assert any("E's right child (leaf 9) is pruned" in ln for ln in lines)
    assert any("C's right child G is pruned" in ln for ln in lines)


def test_tree_narrate_json_adds_one_entry_per_step(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(capsys, "tree", "--tree", SEED_TREE, "--agent", "alphabeta", "--narrate", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["value"] == 3 and obj["nodes"] == 11
    assert isinstance(obj["narration"], list) and len(obj["narration"]) == 2 * obj["nodes"]
    root = parse_tree(SEED_TREE)
    assert obj["narration"] == narration(search_tree(root, parse_tree_agent("alphabeta")).tree, root)
    code, out, _ = call(capsys, "tree", "--tree", SEED_TREE, "--agent", "alphabeta", "--json")
    assert "narration" not in json.loads(out)


def test_tree_game_narrate(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = call(capsys, "tree", "tictactoe", "--position", "X.O.X...O", "--agent", "alphabeta:depth=2",
                          "--narrate", "--json")
    obj = json.loads(out)
    assert code == 0, err
    assert len(obj["narration"]) == 2 * obj["recorded_nodes"]
    assert obj["narration"][0].startswith("Start at root (MAX)")


@pytest.mark.parametrize("agent", ["minimax", "expectimax"])
def test_tree_narrate_other_algorithms(capsys: pytest.CaptureFixture[str], agent: str) -> None:
    spec = SEED_TREE if agent == "minimax" else '{"chance": [[0.5, 8], [0.3333333333333333, 24], ' \
        '[0.16666666666666666, -12]]}'
    code, out, err = call(capsys, "tree", "--tree", spec, "--agent", agent, "--narrate", "--json")
    obj = json.loads(out)
    assert code == 0, err
    assert len(obj["narration"]) == 2 * obj["nodes"]
    assert not any("alpha" in s for s in obj["narration"])
    if agent == "expectimax":
        assert obj["narration"][-1] == "A (chance) = 1/2*8 + 1/3*24 + 1/6*(-12) = 10: the value of the tree is 10."


def test_exports_carry_the_narration(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = parse_tree(SEED_TREE)
    res = search_tree(root, parse_tree_agent("alphabeta"))
    steps = narration(res.tree, root)
    txt = export_tree(res.tree, tmp_path / "t.txt", res.to_json(), root=root).read_text(encoding="utf-8")
    head, _, tail = txt.partition("\nNarration\n")
    assert head.startswith("alphabeta (cut-off when alpha >= beta)")
    assert tail.strip().splitlines()[1:] == [f"Step {i}: {s}" for i, s in enumerate(steps, 1)]
    md = export_tree(res.tree, tmp_path / "t.md", res.to_json(), root=root).read_text(encoding="utf-8")
    lines = md.splitlines()
    assert lines[0].startswith("# Alpha-beta search")
    assert any("value 3" in ln for ln in lines[:6])
    items = [ln for ln in lines if ln[:1].isdigit()]
    assert len(items) == len(steps) == 22
    assert items[0] == "1. Start at A (MAX) with alpha = -inf, beta = +inf."
    assert items[-1].startswith(r"22. A (MAX) = max(3, \<= 1) = 3")  # C was cut off: at most 1 (< escaped)
    # the CLI writes the same handout (with the explicit tree, so pruned nodes keep their letters)
    code, out, err = call(capsys, "tree", "--tree", SEED_TREE, "--agent", "alphabeta", "--out", str(tmp_path / "c.md"))
    assert code == 0 and "wrote" in out, err
    assert (tmp_path / "c.md").read_text(encoding="utf-8") == md


def test_markdown_escapes_emphasis_in_weighted_sums(tmp_path: Path) -> None:
    spec = '{"chance": [[0.5, 8], [0.5, 2]]}'
    root = parse_tree(spec)
    res = search_tree(root, parse_tree_agent("expectimax"))
    md = export_tree(res.tree, tmp_path / "c.md", res.to_json(), root=root).read_text(encoding="utf-8")
    assert r"1/2\*8 + 1/2\*2 = 5" in md and "1/2*8" not in md
