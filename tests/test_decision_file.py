"""A saved decision reads back exactly (``ai.teaching.decision_file``): the recorded tree equal field for field,
positions included, for the minimax family (alpha-beta with its re-searches, expectimax's chance nodes) and MCTS
(with the solver's proofs); the file is plain JSON; the cap leaves the tree out; damaged, forged and newer
records are refused with a reason and never raise past ``decode_decision``."""

from __future__ import annotations

import base64
import dataclasses
import json
import zlib
from typing import Any

import pytest

from ai.agents.agents import make_agent
from ai.teaching.decision_file import (
    VERSION,
    DecisionFileError,
    decode_decision,
    decode_tree,
    encode_decision,
    has_tree,
)
from ai.teaching.decision_model import decision_info
from ai.teaching.decision_tree import record_decision_model, record_mcts_decision


def _minimax(game_name: str, spec: str, position: str | None = None) -> tuple[Any, ...]:
    game, state, res, rec = record_decision_model(game_name, position, spec)
    tree = rec.snapshot(tuple(res.pv))
    move = game.format_move(state, res.move)
    info = decision_info(game, state, make_agent(game_name, spec), res, rec, tree,
                         player_name=game.player_names[game.to_move(state)], move_text=move)
    return game, state, res, tree, info, move


def _through_json(obj: dict[str, Any]) -> Any:
    return json.loads(json.dumps(obj, allow_nan=False))  # plain JSON: no Infinity, no NaN


@pytest.mark.parametrize(("game_name", "spec", "position"), [
    ("tictactoe", "alphabeta:depth=6", "X...O...."),
    ("checkers", "alphabeta:depth=5,book=off", None),
    ("connect4", "alphabeta:depth=5,book=off", None),
    ("pig", "expectimax:depth=3", None),
])
def test_a_minimax_tree_reads_back_equal(game_name: str, spec: str, position: str | None) -> None:
    game, state, res, tree, info, move = _minimax(game_name, spec, position)
    back = decode_decision(_through_json(encode_decision(game, state, 3, 1, move, res, tree, info)), game)
    assert back.tree_error == "" and back.left_out == ""
    assert back.tree == tree  # every node's every field, its position and its passes included
    assert all(n.state is not None for n in back.tree.nodes)
    assert back.result == res and (back.ply, back.player, back.move_text) == (3, 1, move)
    assert back.info is not None
    assert (back.info.title, back.info.notes, back.info.headline, back.info.depth, back.info.counts, back.info.stem) \
        == (info.title, info.notes, info.headline, info.depth, info.counts, info.stem)
    assert back.info.summary == {k: v for k, v in info.summary.items() if k != "minimax_nodes"}


def test_the_trees_tested_hold_re_searches_and_chance_nodes() -> None:
    # the cases above are not vacuous: principal-variation search's passes and expectimax's probabilities occur
    tree = _minimax("checkers", "alphabeta:depth=5,book=off")[3]
    assert any(n.re_searched for n in tree.nodes)
    pig = _minimax("pig", "expectimax:depth=3")[3]
    assert any(n.probability is not None for n in pig.nodes)


@pytest.mark.parametrize(("game_name", "spec"), [("tictactoe", "mcts:simulations=600,solver=on,seed=2"),
                                                 ("pig", "mcts:simulations=300,seed=1")])
def test_an_mcts_trace_reads_back_equal(game_name: str, spec: str) -> None:
    game, state, res, trace = record_mcts_decision(game_name, None, spec)
    obj = encode_decision(game, state, 1, 0, game.format_move(state, res.move), res, trace, title="T", stem="s")
    back = decode_decision(_through_json(obj), game)
    assert back.tree == trace and (back.title, back.stem) == ("T", "s") and back.result == res
    assert back.tree.narrate(len(trace.simulations)) == trace.narrate(len(trace.simulations))


def test_the_solver_case_holds_proofs() -> None:
    trace = record_mcts_decision("tictactoe", None, "mcts:simulations=600,solver=on,seed=2")[3]
    assert any(s.proofs for s in trace.simulations)


def test_a_position_that_is_not_the_parents_after_the_move_is_written_out() -> None:
    game, state, res, tree, info, move = _minimax("tictactoe", "alphabeta:depth=3", "X...O....")
    odd = game.parse_position("XO.......")
    leaf = next(n.id for n in tree.nodes if not n.children and n.parent is not None)
    nodes = tuple(dataclasses.replace(n, state=odd) if n.id == leaf else n for n in tree.nodes)
    tree = dataclasses.replace(tree, nodes=nodes)
    obj = encode_decision(game, state, 1, 0, move, res, tree, info)
    doc = json.loads(zlib.decompress(base64.b64decode(obj["tree"]["data"])))
    assert doc["positions"] == {str(leaf): "XO......."}
    assert decode_decision(obj, game).tree == tree


def test_over_the_cap_the_words_are_kept_without_the_tree() -> None:
    game, state, res, tree, info, move = _minimax("tictactoe", "alphabeta:depth=6", "X...O....")
    obj = encode_decision(game, state, 2, 1, move, res, tree, info, max_tree_bytes=100)
    assert "tree" not in obj and "100 bytes" not in obj["tree_left_out"] and "KB" in obj["tree_left_out"]
    back = decode_decision(obj, game)
    assert back.tree is None and back.left_out and back.result == res


def test_the_callers_position_is_used_and_must_be_the_records() -> None:
    game, state, res, tree, info, move = _minimax("tictactoe", "alphabeta:depth=3", "X...O....")
    obj = encode_decision(game, state, 2, 1, move, res, tree, info)
    assert decode_decision(obj, game, state=state).tree == tree
    with pytest.raises(DecisionFileError, match="another position"):
        decode_decision(obj, game, state=game.parse_position("........."))


def test_bad_arguments_are_refused() -> None:
    game, state, res, tree, info, move = _minimax("tictactoe", "alphabeta:depth=2", "X...O....")
    with pytest.raises(ValueError, match="ply"):
        encode_decision(game, state, 0, 0, move, res)
    with pytest.raises(ValueError, match="player"):
        encode_decision(game, state, 1, 2, move, res)
    with pytest.raises(DecisionFileError, match="TreeInfo"):
        encode_decision(game, state, 1, 0, move, res, tree)


def _with_doc(obj: dict[str, Any], change: Any) -> dict[str, Any]:
    doc = json.loads(zlib.decompress(base64.b64decode(obj["tree"]["data"])))
    change(doc)
    data = base64.b64encode(zlib.compress(json.dumps(doc).encode())).decode()
    return dict(obj, tree=dict(obj["tree"], data=data))


def _set(doc: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    for k in path[:-1]:
        doc = doc[k]
    doc[path[-1]] = value


@pytest.mark.parametrize(("path", "value", "reason"), [
    (("nodes", 1, 0), 7, "has the id"),
    (("nodes", 3, 6), "big", "not a number"),
    (("nodes", 2, 3), "99", "does not play"),
    (("fields",), ["id"], "not those of this version"),
    (("info", "counts", "shown_depth"), None, "not a whole number"),
    (("tree",), None, "figures are missing"),
])
def test_a_damaged_tree_leaves_the_words_readable(path: tuple[Any, ...], value: Any, reason: str) -> None:
    game, state, res, tree, info, move = _minimax("tictactoe", "alphabeta:depth=3", "X...O....")
    obj = encode_decision(game, state, 2, 1, move, res, tree, info)
    back = decode_decision(_with_doc(obj, lambda d: _set(d, path, value)), game)
    assert back.tree is None and reason in back.tree_error
    assert back.result == res  # the side panel still names the decision


def test_damaged_bytes_and_a_bomb_are_refused() -> None:
    game, state, res, tree, info, move = _minimax("tictactoe", "alphabeta:depth=2", "X...O....")
    obj = encode_decision(game, state, 2, 1, move, res, tree, info)
    bad = dict(obj, tree=dict(obj["tree"], data="!!" + obj["tree"]["data"]))
    assert "not zlib in base64" in decode_decision(bad, game).tree_error
    bomb = base64.b64encode(zlib.compress(b" " * (80 * 2**20), 9)).decode()  # 80 MB of spaces in 80 KB
    assert "more than 64 MB" in decode_decision(dict(obj, tree=dict(obj["tree"], data=bomb)), game).tree_error


@pytest.mark.parametrize(("change", "reason"), [
    ({"format": "x"}, "not a saved decision"),
    ({"version": VERSION + 1}, "reads up to"),
    ({"ply": 0}, "out of range"),
    ({"position": "??"}, "position does not read"),
    ({"result": {"stop_reason": "depth"}}, "not a number"),
    ({"result": None}, "not an object"),
])
def test_a_record_that_cannot_be_read_raises_with_its_reason(change: dict[str, Any], reason: str) -> None:
    game, state, res, tree, info, move = _minimax("tictactoe", "alphabeta:depth=2", "X...O....")
    obj = dict(encode_decision(game, state, 2, 1, move, res, tree, info), **change)
    with pytest.raises(DecisionFileError, match=reason):
        decode_decision(obj, game)


def test_the_words_read_alone_then_the_tree_equal_one_read_whole() -> None:
    # restore() reads the words at once and the tree on a thread (decision_store.TreeReader): the two steps must
    # give what one read gives, and the words alone must hold no tree
    game, state, res, tree, info, move = _minimax("tictactoe", "alphabeta:depth=6", "X...O....")
    obj = _through_json(encode_decision(game, state, 3, 1, move, res, tree, info))
    words = decode_decision(obj, game, tree=False)
    assert has_tree(obj) and words.tree is None and words.info is None and words.tree_error == ""
    assert words.result == res and words.move_text == move
    whole, later = decode_decision(obj, game), decode_tree(obj, words, game)
    assert later.tree == whole.tree == tree and later.result == whole.result
    damaged = dict(obj, tree=dict(obj["tree"], data="A" * 40 + obj["tree"]["data"][40:]))
    assert decode_tree(damaged, words, game).tree_error == decode_decision(damaged, game).tree_error != ""
    no_tree = {k: v for k, v in obj.items() if k != "tree"}
    assert not has_tree(no_tree) and decode_tree(no_tree, words, game) is words
