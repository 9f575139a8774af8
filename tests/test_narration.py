"""The search told in words (ai.teaching.narration): one sentence per step, the seed's worked example, minimax,
expectimax."""

from __future__ import annotations

import re
from fractions import Fraction

import pygame
import pytest
from ui_driver import overlay_texts

from ai.agents.agents import make_agent
from ai.kernel.recording import CHANCE, MAX, MIN, SearchTree
from ai.teaching.decision_tree import iteration_words, record_decision_model
from ai.teaching.narration import Narrator, narration, numbered
from ai.teaching.trace import step_events
from ai.teaching.tree_names import node_names
from ai.teaching.treelab import parse_tree_agent, search_tree
from gameplay.rules.trees import TreeNode, parse_tree
from gameplay.ui.overlay.overlay import TreeOverlay, make_recorder, show_decision

SEED_TREE = "[[[2,3],[5,9]],[[0,1],[7,5]]]"
"""The course material's "Working of Alpha-Beta Pruning" tree (Steps 1-8)."""


def lab(spec: str, agent: str) -> tuple[SearchTree, TreeNode]:
    root = parse_tree(spec)
    return search_tree(root, parse_tree_agent(agent)).tree, root


def game_tree(game: str, position: str | None, agent: str) -> SearchTree:
    _, _, result, rec = record_decision_model(game, position, agent)
    return rec.snapshot(tuple(result.pv))


def in_order(sentences: list[str], patterns: list[str]) -> list[int]:
    """Index of the sentence matching each pattern, each after the previous one (fails if one is missing)."""
    found: list[int] = []
    start = 0
    for pat in patterns:
        hit = next((i for i in range(start, len(sentences)) if re.search(pat, sentences[i])), None)
        assert hit is not None, f"no sentence after step {start} matches {pat!r}:\n" + "\n".join(numbered(sentences))
        found.append(hit)
        start = hit + 1
    return found


# The seed's eight steps, as facts in the order the text gives them.
SEED_FACTS = [
    r"^Start at A \(MAX\) with alpha = -inf, beta = \+inf",                                     # Step 1
    r"Go down from B to D \(MAX\) with alpha = -inf, beta = \+inf",                             # Step 1
    r"at D \(MAX\), alpha = max\(-inf, 2\) = 2",                                               # Step 2
    r"at D \(MAX\), alpha = max\(2, 3\) = 3",                                                  # Step 2
    r"^D \(MAX\) = max\(2, 3\) = 3, with alpha = 3.*at B \(MIN\), beta = min\(\+inf, 3\) = 3",  # Steps 2-3
    r"Go down from B to E \(MAX\) with alpha = -inf, beta = 3",                                 # Step 3
    r"at E \(MAX\), alpha = max\(-inf, 5\) = 5 >= beta = 3: E's right child \(leaf 9\) is pruned",  # Step 4
    r"^E \(MAX\) = max\(5, \.\.\.\) = at least 5 .*at B \(MIN\), beta = min\(3, 5\) = 3",         # Step 4
    r"^B \(MIN\) = min\(3, >= 5\) = 3.*at A \(MAX\), alpha = max\(-inf, 3\) = 3",               # Step 5
    r"Go down from A to C \(MIN\) with alpha = 3, beta = \+inf",                                # Step 5
    r"Go down from C to F \(MAX\) with alpha = 3, beta = \+inf",                                # Step 5
    r"at F \(MAX\), alpha = max\(3, 0\) = 3",                                                  # Step 6
    r"at F \(MAX\), alpha = max\(3, 1\) = 3",                                                  # Step 6
    r"^F \(MAX\) = max\(0, 1\) = 1, with alpha still = 3.*at C \(MIN\), beta = min\(\+inf, 1\) = 1, "
    r"and alpha = 3 >= beta = 1: C's right child G is pruned",                                  # Step 7
    r"^C \(MIN\) = min\(1, \.\.\.\) = at most 1 .*at A \(MAX\), alpha = max\(3, 1\) = 3",        # Step 8
    r"^A \(MAX\) = max\(3, <= 1\) = 3.*the value of the tree is 3",                             # Step 8
]


def test_seed_worked_example_narrates_the_eight_steps_in_order() -> None:
    tree, root = lab(SEED_TREE, "alphabeta")
    s = narration(tree, root)
    assert len(s) == len(step_events(tree)) == 2 * len(tree.nodes)
    in_order(s, SEED_FACTS)
    # exactly the two cut-offs of the text, nothing else pruned
    assert [x for x in s if "pruned (" in x] == [s[i] for i in in_order(s, [SEED_FACTS[6], SEED_FACTS[13]])]
    # the same facts when the names come from the recorded tree alone (no explicit tree given)
    in_order(narration(tree), [p.replace(r" \(leaf 9\)", "") for p in SEED_FACTS])


def test_seed_names_are_breadth_first_letters_and_leaf_values() -> None:
    tree, root = lab(SEED_TREE, "alphabeta")
    names = node_names(tree, root)
    by_path = {n.state: names[n.id] for n in tree.nodes}
    assert by_path[()] == "A" and by_path[(0,)] == "B" and by_path[(1,)] == "C"
    assert by_path[(0, 0)] == "D" and by_path[(0, 1)] == "E" and by_path[(1, 0)] == "F"
    assert by_path[(0, 0, 1)] == "leaf 3" and by_path[(1, 0, 0)] == "leaf 0"
    assert node_names(tree) == names


def test_narration_follows_the_tree_not_a_script() -> None:
    # F's leaves raised to 4 and 6: F = 4 > alpha 3, C's beta becomes 4, no cut-off at C, G is searched
    tree, root = lab("[[[2,3],[5,9]],[[4,6],[7,5]]]", "alphabeta")
    s = narration(tree, root)
    in_order(s, [r"^F \(MAX\) = max\(4, 6\) = 6, .*at C \(MIN\), beta = min\(\+inf, 6\) = 6\.$",
                 r"Go down from C to G \(MAX\) with alpha = 3, beta = 6"])
    assert not any("C's right child" in x for x in s)


def test_gt_rule_prunes_only_on_strict_inequality() -> None:
    spec = "[[[2,3],[3,9]],[[0,1],[7,5]]]"  # at E alpha reaches 3 = beta: a cut-off under >=, none under >
    ge = narration(*lab(spec, "alphabeta"))
    gt = narration(*lab(spec, "alphabeta:prune=gt"))
    in_order(ge, [r"at E \(MAX\), alpha = max\(-inf, 3\) = 3 >= beta = 3: E's right child \(leaf 9\) is pruned"])
    in_order(gt, [r"at E \(MAX\), alpha = max\(-inf, 3\) = 3\.$", r"Reach leaf 9, E's right child",
                  r"at C \(MIN\), beta = min\(\+inf, 1\) = 1, and alpha = 3 > beta = 1: C's right child G"])


def test_minimax_never_speaks_of_alpha_or_beta() -> None:
    tree, root = lab(SEED_TREE, "minimax")
    s = narration(tree, root)
    assert len(s) == len(step_events(tree)) == 30
    assert not any(re.search(r"alpha|beta|prun", x) for x in s)
    in_order(s, [r"^D \(MAX\) = max\(2, 3\) = 3", r"^E \(MAX\) = max\(5, 9\) = 9", r"^B \(MIN\) = min\(3, 9\) = 3",
                 r"^A \(MAX\) = max\(3, 1\) = 3"])
    g = game_tree("tictactoe", "X.O.X...O", "minimax:depth=2")
    gs = narration(g)
    assert g.algorithm == "minimax" and len(gs) == len(step_events(g))
    assert not any(re.search(r"alpha|beta|α|β", x) for x in gs)


def test_alphabeta_game_tree_one_sentence_per_step_named_by_moves() -> None:
    tree = game_tree("tictactoe", "X.O.X...O", "alphabeta:depth=3")
    s = narration(tree)
    events = step_events(tree)
    assert len(s) == len(events) and all(x.strip() for x in s)
    names = node_names(tree)
    by_id = {n.id: n for n in tree.nodes}
    assert names[0] == "root"
    for e, text in zip(events, s):
        n = by_id[e.node]
        assert names[n.id].lower() in text.lower()  # each step names its node
        if n.parent is not None and n.parent != 0:
            assert names[n.id] == f"{names[n.parent]} > {n.move}"
    # every cut-off is told where it happens, naming the moves pruned
    for n in tree.nodes:
        if n.skipped:
            assert any(f"{names[n.id]}'s remaining move" in x and ", ".join(n.skipped) in x for x in s), n.skipped
    # principal-variation search: a failed null-window test is searched again, the same node (one of its passes
    # each), and the narration says so; the re-search's leaving gives the node the value both passes proved
    again = [n for n in tree.nodes if n.re_searched]
    assert again, "this position has a PVS re-search at depth 3"
    assert all(len({by_id[k].move for k in n.children}) == len(n.children) for n in tree.nodes)  # each move once
    at = {(ev.node, ev.search, ev.leaving): i for i, ev in enumerate(events)}
    for n in again:
        assert [p.kind for p in n.passes] == ["null-window test", "re-search"]
        assert "null window" in s[at[n.id, 0, False]]
        assert "fails" in s[at[n.id, 0, True]] and "searched again" in s[at[n.id, 0, True]]
        assert "again with the full window" in s[at[n.id, 1, False]]
        assert at[n.id, 0, True] < at[n.id, 1, False] < at[n.id, 1, True]
    # proven results read "win in N", never the raw proof score
    assert any("win in" in x or "loss in" in x for x in s) and not any("1000000000" in x for x in s)


def test_transposition_table_hits_are_told() -> None:
    tree = game_tree("tictactoe", None, "alphabeta:depth=4")
    hits = [n for n in tree.nodes if n.note == "tt"]
    assert hits, "a depth-4 tic-tac-toe search reaches transpositions"
    s = narration(tree)
    leave_of = {ev.node: i for i, ev in enumerate(step_events(tree)) if ev.leaving}
    for n in hits:
        assert "transposition table" in s[leave_of[n.id]]


_TERM = re.compile(r"(\d+)/(\d+)\*\(?(-?[\d.]+)\)?")


def _weighted_sums(sentence: str) -> tuple[float, float]:
    """The sum printed in ``X (chance) = 1/2*3 + 1/2*(-1) = 1``: (the terms added up, the printed total)."""
    lhs, total = sentence.split(";")[0].rsplit(" = ", 1)
    terms = _TERM.findall(lhs.split("(chance) = ", 1)[1])
    assert terms, sentence
    return float(sum(Fraction(int(a), int(b)) * Fraction(v) for a, b, v in terms)), float(total.rstrip("."))


def test_expectimax_lab_tree_prints_the_weighted_sum_equal_to_the_value() -> None:
    spec = '[{"chance":[[0.5,[3,5]],[0.5,[1,9]]]},{"chance":[[0.25,2],[0.75,8]]}]'
    tree, root = lab(spec, "expectimax")
    s = narration(tree, root)
    assert len(s) == len(step_events(tree))
    assert not any(re.search(r"alpha|beta", x) for x in s)
    leave_of = {ev.node: i for i, ev in enumerate(step_events(tree)) if ev.leaving}
    chance = [n for n in tree.nodes if n.kind == CHANCE]
    assert len(chance) == 2
    for n in chance:
        text = s[leave_of[n.id]]
        added, printed = _weighted_sums(text)
        assert added == pytest.approx(n.value) and printed == pytest.approx(n.value)
    assert any(x.startswith("C (chance) = 1/4*2 + 3/4*8 = 6.5") for x in s)
    assert s[-1].startswith("A (MAX) = max(2, 6.5) = 6.5")


def test_expectimax_pig_chance_nodes_print_their_weighted_sum() -> None:
    tree = game_tree("pig", None, "expectimax:depth=1")
    s = narration(tree)
    events = step_events(tree)
    assert len(s) == len(events)
    leave_of = {ev.node: i for i, ev in enumerate(events) if ev.leaving}
    chance = [n for n in tree.nodes if n.kind == CHANCE and n.children]
    assert chance
    for n in chance:
        text = s[leave_of[n.id]]
        assert "1/6*" in text
        added, printed = _weighted_sums(text)
        assert printed == pytest.approx(n.value, rel=5e-3, abs=5e-4)
        assert added == pytest.approx(n.value, rel=2e-2, abs=2e-3)  # terms print to 3 significant digits


def test_unicode_symbols_for_the_window() -> None:
    tree, root = lab(SEED_TREE, "alphabeta")
    s = narration(tree, root, symbols="unicode")
    in_order(s, [r"at E \(MAX\), α = max\(−∞, 5\) = 5 ≥ β = 3: E's right child"])
    assert not any(re.search(r"alpha =|beta =|inf", x) for x in s)  # the terms "alpha cut-off" stay words
    with pytest.raises(ValueError):
        narration(tree, root, symbols="latex")


# ----- backed-up values: a bound is written as a bound ----------------------------------------------------------------
_BACKED = re.compile(r"^(?P<who>.+?) = (?P<f>max|min)\((?P<terms>.*?)\) = (?P<result>.+?)(?:,| \(|;|:|\.$|$)")


def _check_backed_up_sentences(tree: SearchTree) -> int:
    """Every backed-up sentence lists its children's labels and states an exact value only for an exact node."""
    narrator = Narrator(tree)
    s = narrator.sentences()
    leave_of = {e.node: i for i, e in enumerate(step_events(tree)) if e.leaving}
    checked = 0
    for node in tree.nodes:
        last = max(0, len(node.passes) - 1)
        n = narrator.view(node, last)  # the re-search of a re-searched node: what it backed up itself
        kids = narrator.searched(n)
        if n.kind not in (MAX, MIN) or narrator.is_test(n, last) or n.note in ("tt", "memo", "repetition"):
            continue
        if len(kids) < 2 and not (kids and n.skipped):
            continue
        text = s[leave_of[n.id]]
        m = _BACKED.match(text)
        assert m, text
        want = [c.label() for c in kids] + (["..."] if n.skipped else [])
        assert m["terms"].split(", ") == want, text
        if n.exact:
            assert m["result"] == n.label(), text
        else:
            assert m["result"].startswith(("at least ", "at most ", "between ")), text
        checked += 1
    return checked


def _drawn(ov: TreeOverlay, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    from gameplay.ui.widgets import projector
    projector.set_current(projector.Display())  # scale 1: the counter panel has its room beside the tree
    return overlay_texts(ov, monkeypatch)


@pytest.mark.parametrize("game,position,agent", [
    ("tictactoe", "X...O....", "alphabeta:depth=2"),
    ("tictactoe", None, "medium"),
    ("checkers", None, "alphabeta:depth=3"),
])
def test_backed_up_values_write_bounds_as_bounds(game: str, position: str | None, agent: str) -> None:
    tree = game_tree(game, position, agent)
    assert any(not n.exact for n in tree.nodes)  # the search proved bounds somewhere
    assert _check_backed_up_sentences(tree) > 0
    last = narration(tree)[-1]
    root = tree.nodes[0]
    assert root.exact and f") = {root.label()}, " in last
    assert "<= " in last.split(" = max(")[1].split(") = ")[0]  # cut-off children: upper bounds, written so


def test_the_teachers_position_reads_as_the_tree_shows_it() -> None:
    tree = game_tree("tictactoe", "X...O....", "alphabeta:depth=2")
    root = tree.nodes[0]
    kids = [c for c in tree.nodes if c.parent == 0]
    labels = ", ".join(c.label() for c in kids)  # a re-searched child once, with what its passes proved
    assert narration(tree)[-1].startswith(f"Root (MAX) = max({labels}) = {root.label()}, ")
    assert any(c.label().startswith("<= ") for c in kids)


def test_cut_off_node_says_at_least_not_equals() -> None:
    root = parse_tree("[[[2,3],[5,9]],[[0,1],[7,5]]]")
    tree = search_tree(root, parse_tree_agent("alphabeta")).tree
    s = narration(tree, root)
    assert any(x.startswith("E (MAX) = max(5, ...) = at least 5 (its other child was pruned)") for x in s)
    assert any(x.startswith("C (MIN) = min(1, ...) = at most 1 (its other child was pruned)") for x in s)
    assert any(x.startswith("B (MIN) = min(3, >= 5) = 3,") for x in s)
    assert s[-1].startswith("A (MAX) = max(3, <= 1) = 3,")
    uni = narration(tree, root, symbols="unicode")
    assert uni[-1].startswith("A (MAX) = max(3, ≤ 1) = 3,")
    assert _check_backed_up_sentences(tree) == 6  # D, E, B, F, C and A


def test_minimax_sentences_are_unchanged() -> None:
    root = parse_tree("[[[2,3],[5,9]],[[0,1],[7,5]]]")
    s = narration(search_tree(root, parse_tree_agent("minimax")).tree, root)
    assert s[-1].startswith("A (MAX) = max(3, 1) = 3")  # every value exact: no bound is written
    assert not any("at least" in x or "at most" in x for x in s)


# ----- expectimax's counters in its own words -------------------------------------------------------------------------
def test_iteration_words() -> None:
    assert iteration_words("alphabeta", 5) == "depth 5 iteration"
    assert iteration_words("expectimax", 1) == "depth 1: one decision"
    assert iteration_words("expectimax", 2) == "depth 2: two decisions"
    assert iteration_words("expectimax", 12) == "depth 12: 12 decisions"


@pytest.mark.parametrize("depth", [1, 2])
def test_expectimax_counters_read_naturally(monkeypatch: pytest.MonkeyPatch, depth: int) -> None:
    pygame.init()
    agent = make_agent("pig", f"expectimax:depth={depth}")
    game = agent.game
    state = game.parse_position("10,20,5,1")
    rec = make_recorder(game, agent, state)
    res = agent.choose(state, recorder=rec)
    ov = TreeOverlay()
    ov.set_rect(pygame.Rect(0, 0, 1400, 980))
    assert rec is not None and show_decision(ov, game, state, agent, res, rec, player_name="1",
                                             move_text=game.format_move(state, res.move))
    drawn = _drawn(ov, monkeypatch)
    words = "one decision" if depth == 1 else "two decisions"
    assert f"Nodes in this tree (depth {depth}: {words})" in drawn
    assert not any("(decisions)" in x or "iteration (" in x for x in drawn)
    assert not any(x.startswith("Plain minimax") for x in drawn)  # nothing to compare: expectimax prunes nothing
    assert not any(x.startswith("Table hits") for x in drawn)
    if ov.tree is not None and ov.tree.tt_hits:
        assert "Memo hits in this tree" in drawn


def test_alphabeta_counters_keep_the_minimax_comparison(monkeypatch: pytest.MonkeyPatch) -> None:
    pygame.init()
    agent = make_agent("tictactoe", "alphabeta:depth=2")
    game = agent.game
    state = game.initial_state()
    rec = make_recorder(game, agent, state)
    res = agent.choose(state, recorder=rec)
    ov = TreeOverlay()
    assert rec is not None and show_decision(ov, game, state, agent, res, rec, player_name="X",
                                             move_text=game.format_move(state, res.move))
    drawn = _drawn(ov, monkeypatch)
    assert "Nodes in this tree (depth 2 iteration)" in drawn
    assert any(x.startswith("Plain minimax, depth 2") for x in drawn)
