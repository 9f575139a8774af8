"""The sentences of a search with aspiration windows (an agent setting, off in the presets) say what happened at the
root: the window failed low or high, the root was searched again with the window opened on that side, and from
then on alpha (beta) is the new round's, not the failed window's ("alpha still = 25.8" after a failed window was
the issue's sentence)."""

from __future__ import annotations

import re

import pytest

from ai.kernel.recording import INF, number_text
from ai.teaching.decision_tree import record_decision_model
from ai.teaching.narration import narration, root_rounds
from ai.teaching.trace import live_window, step_events

NUMBER = r"(-?[0-9.]+|-inf|\+inf)"
AT_ROOT = re.compile(rf"at root \(MAX\), alpha = max\({NUMBER}, {NUMBER}\) = {NUMBER}")


def _num(text: str) -> float:
    return {"-inf": -INF, "+inf": INF}.get(text, float(text.rstrip(".")))


@pytest.mark.parametrize("depth, side", [(6, "low"), (5, "high")])
def test_a_failed_aspiration_window_is_said_and_the_next_round_starts_from_its_own_window(depth: int,
                                                                                          side: str) -> None:
    _, _, result, rec = record_decision_model("connect4", None, f"alphabeta:depth={depth},aspiration=on")
    tree = rec.snapshot(tuple(result.pv))
    rounds = root_rounds(tree)
    assert len(rounds) == 2  # Connect Four's start: the window fails once, on this side
    (_, lo, hi), (start, lo2, hi2) = rounds
    assert (lo2, hi2) == ((-INF, hi) if side == "low" else (lo, INF))
    steps = narration(tree)
    failed = f"aspiration window alpha = {number_text(lo)}, beta = {number_text(hi)} failed {side}"
    said = [i for i, s in enumerate(steps) if failed in s]
    assert said and "aspiration re-search" in steps[said[0]] and "Search 4 (MIN) again" in steps[said[0]]
    # the root's alpha, step by step: each update starts from the last one, and the new round from its own alpha
    alpha = lo
    for i, s in enumerate(steps):
        if i == said[0]:
            alpha = lo2
        for old, value, new in AT_ROOT.findall(s):
            assert _num(old) == pytest.approx(alpha, abs=0.06), (i, s)  # the sentence rounds to 0.1
            assert _num(new) == pytest.approx(max(alpha, _num(value)), abs=0.06), (i, s)
            alpha = max(alpha, _num(value))
    final = steps[-1]
    assert " still " not in final and f"failed {side}, the root was searched again from" in final
    value = tree.nodes[0].value
    shown = number_text(value)
    assert f"with alpha = {shown}," in final and f"the value of the position is {shown}" in final


def test_without_aspiration_the_root_has_one_round_and_says_nothing_of_windows() -> None:
    _, _, result, rec = record_decision_model("connect4", None, "alphabeta:depth=5")
    tree = rec.snapshot(tuple(result.pv))
    assert root_rounds(tree) == [(0, -INF, INF)]
    assert not any("aspiration" in s for s in narration(tree))


@pytest.mark.parametrize("depth, side", [(6, "low"), (5, "high")])
def test_the_line_under_the_root_shows_the_window_of_the_round_under_way(depth: int, side: str) -> None:
    """The picture's line under the root (``live_window``) during an aspiration re-search is the new round's window,
    tightened by that round's children only, and agrees with the sentences' alpha at every step; before, it showed
    the failed first window (tightened by the first round's values) all through the second round."""
    _, _, result, rec = record_decision_model("connect4", None, f"alphabeta:depth={depth},aspiration=on")
    tree = rec.snapshot(tuple(result.pv))
    by_id = {n.id: n for n in tree.nodes}
    root = tree.nodes[0]
    (_, lo, hi), (start, lo2, hi2) = root_rounds(tree)
    assert live_window(by_id, root, start - 1 if start > root.enter_order else start)[0] >= lo
    assert live_window(by_id, root, start) == (lo2, hi2)  # the round begins with its own window, nothing folded in
    events = step_events(tree)
    steps = narration(tree)
    checked = 0
    for ev, s in zip(events, steps, strict=True):
        if ev.order >= root.leave_order:
            continue
        a, b = live_window(by_id, root, ev.order)
        if ev.order >= start:
            assert (a >= lo2, b) == (True, hi2), (ev, s)
        for _, _, new in AT_ROOT.findall(s):  # the sentence's alpha after this step is the line's
            assert a == pytest.approx(_num(new), abs=0.06), (ev.order, s, a)
            checked += 1
    assert checked >= 2
