"""One AI decision as a saved game keeps it: the tree the window recorded, the words around it and the search's
result, written to JSON and read back exactly (issue 47: after Resume, T shows the last decision's tree).

The tree shown after a resume must be the search the AI really ran: a timed search is not reproducible, so the
recorded tree is saved, never searched again. :func:`encode_decision` turns one decision into a JSON object
(format :data:`FORMAT`, version :data:`VERSION`); :func:`decode_decision` reads it back into a
:class:`SavedDecision` whose tree equals the recorded one field for field (``==`` on the dataclasses, every node's
position included), whose :class:`~ai.teaching.decision_model.TreeInfo` says the same title, notes and counts, and
whose :class:`~ai.kernel.search.SearchResult` gives the side panel's "Last AI decision" the same words.

The object::

    {"format": "adversarial-arcade-decision", "version": 1, "ply": 7, "player": 1, "move": "4",
     "position": "X...O....", "result": {"move": "4", "value": 0.0, ...},
     "tree": {"kind": "minimax", "encoding": "zlib+base64", "bytes": 18234, "data": "eJzt..."}}

* ``ply``: the moves played when the decision's move had been played (its move is the ``ply``-th of the game's
  moves); ``player`` the side that decided; ``move`` its move in the game's notation; ``position`` the position it
  decided, in the game's notation (``format_position``).
* ``result``: the :class:`~ai.kernel.search.SearchResult`, its move and principal variation in the game's notation,
  ``extra`` kept when it is plain JSON (an entry that is not is left out).
* ``tree`` (absent when no tree was recorded, e.g. an opening-book move): ``kind`` ``minimax`` (a
  :class:`~ai.kernel.recording.SearchTree` and its :class:`~ai.teaching.decision_model.TreeInfo`) or ``mcts`` (an
  :class:`~ai.teaching.mcts_record.MCTSTrace` and its header); ``data`` is the tree's JSON (:func:`tree_payload`),
  compressed with zlib and written in base64, ``bytes`` its length. Each node is a row of its fields in the order
  ``fields`` names; infinite values are the strings ``"inf"`` and ``"-inf"``. A node's position is not written: it is
  the parent's position after the node's move (``parse_move`` then ``result``); the few whose position is not
  (none in the shipped games, checked when written) are written in ``positions`` in the game's notation.
* ``tree_left_out`` instead of ``tree``: the tree's data was over :data:`MAX_TREE_BYTES` (the cap that keeps a
  saved game small, and the autosave written after every move quick), so only the decision's words were saved; the
  value says why.

A tree that cannot be read (a damaged file, a hand edit) never stops the game from loading: :func:`decode_decision`
raises :class:`DecisionFileError` with the reason, and the window says the tree could not be read.

No pygame here.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import json
import math
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ai.kernel.core import SearchResult, StopReason
from ai.kernel.recording import RecordedNode, SearchPass, SearchTree
from ai.teaching.decision_model import MinimaxCount, TreeInfo
from ai.teaching.decision_tree import DecisionCounts
from ai.teaching.mcts_record import MCTSRecNode, MCTSTrace, SimulationRec

FORMAT = "adversarial-arcade-decision"
"""The ``format`` field of a saved decision."""
VERSION = 1
"""The format version written; a saved decision with a higher one is refused (the game still loads)."""
MAX_TREE_BYTES = 1024 * 1024
"""The cap of a saved tree: its compressed data in base64 (``len(data)``) at most 1 MB. A checkers decision of the
window's 15,000 recorded nodes (its recorder's bound) takes about 0.3 MB; over the cap the tree is left out and the
decision's words are saved alone (``tree_left_out``)."""
MAX_TREE_JSON_BYTES = 64 * 1024 * 1024
"""A saved tree's data is refused when it unpacks to more than this (a damaged or forged file cannot make the reader
unpack gigabytes)."""
MINIMAX, MCTS = "minimax", "mcts"
"""The kinds of saved tree."""


class DecisionFileError(Exception):
    """A saved decision cannot be read; the message says why, ready to show after "the tree could not be read"."""


@dataclass(frozen=True)
class SavedDecision:
    """One AI decision read back from a saved game."""

    ply: int
    """Moves played once the decision's move was played (the move is the ``ply``-th; 1-based)."""
    player: int
    """The side that decided (0 or 1)."""
    move_text: str
    """Its move in the game's notation."""
    state: Any
    """The position it decided."""
    result: SearchResult
    """The search's result (its move and principal variation as move objects again)."""
    tree: SearchTree | MCTSTrace | None = None
    """The recorded tree, ``None`` when none was recorded or it was left out (:attr:`left_out`)."""
    info: TreeInfo | None = None
    """The minimax family's tree's words and counts (``None`` for MCTS and without a tree)."""
    title: str = ""
    """An MCTS tree's header title (``X played 4 by Monte Carlo tree search``)."""
    stem: str = ""
    """An MCTS tree's export file name stem."""
    left_out: str = ""
    """Why the tree was not saved (over :data:`MAX_TREE_BYTES`), or ``""``."""
    tree_error: str = ""
    """Why the saved tree could not be read (the decision's words were), or ``""``."""


# ----- numbers -------------------------------------------------------------------------------------------------------
def _num(x: float) -> float | str:
    """A float as JSON takes it: infinities as ``"inf"`` / ``"-inf"`` (NaN never occurs in a tree)."""
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if math.isnan(x):
        raise DecisionFileError("a value of the tree is not a number")
    return x


def _float(v: Any, what: str) -> float:
    if v == "inf":
        return math.inf
    if v == "-inf":
        return -math.inf
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise DecisionFileError(f"{what} is not a number")
    return float(v)


def _opt_float(v: Any, what: str) -> float | None:
    return None if v is None else _float(v, what)


def _int(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise DecisionFileError(f"{what} is not a whole number")
    return v


def _opt_int(v: Any, what: str) -> int | None:
    return None if v is None else _int(v, what)


def _str(v: Any, what: str) -> str:
    if not isinstance(v, str):
        raise DecisionFileError(f"{what} is not text")
    return v


def _opt_str(v: Any, what: str) -> str | None:
    return None if v is None else _str(v, what)


def _bool(v: Any, what: str) -> bool:
    if not isinstance(v, bool):
        raise DecisionFileError(f"{what} is not true or false")
    return v


def _ints(v: Any, what: str) -> tuple[int, ...]:
    if not isinstance(v, list):
        raise DecisionFileError(f"{what} is not a list")
    return tuple(_int(x, what) for x in v)


def _strs(v: Any, what: str) -> tuple[str, ...]:
    if not isinstance(v, list):
        raise DecisionFileError(f"{what} is not a list")
    return tuple(_str(x, what) for x in v)


def _plain(v: Any) -> bool:
    """True when ``v`` is plain JSON that reads back equal (finite numbers, text, lists, objects with text keys)."""
    if v is None or isinstance(v, (bool, int, str)):
        return True
    if isinstance(v, float):
        return math.isfinite(v)
    if isinstance(v, list):
        return all(_plain(x) for x in v)
    if isinstance(v, dict):
        return all(isinstance(k, str) and _plain(x) for k, x in v.items())
    return False


# ----- rows: one dataclass as a list of its fields ------------------------------------------------------------------
_Codec = tuple[Callable[[Any], Any], Callable[[Any, str], Any]]
_F: _Codec = (_num, _float)
_OF: _Codec = (lambda x: None if x is None else _num(x), _opt_float)
_I: _Codec = (lambda x: x, _int)
_OI: _Codec = (lambda x: x, _opt_int)
_S: _Codec = (lambda x: x, _str)
_OS: _Codec = (lambda x: x, _opt_str)
_B: _Codec = (lambda x: x, _bool)
_IS: _Codec = (list, _ints)
_SS: _Codec = (list, _strs)

PASS_FIELDS: dict[str, _Codec] = {
    "kind": _S, "alpha_in": _F, "beta_in": _F, "alpha_out": _F, "beta_out": _F, "lo": _F, "hi": _F, "value": _F,
    "enter_order": _I, "leave_order": _I, "children": _IS, "skipped": _SS, "note": _S, "reduced": _I,
    "depth_change": _I, "depth_reasons": _SS}
""":class:`~ai.kernel.recording.SearchPass`'s fields and how each is written and read."""
NODE_FIELDS: dict[str, _Codec] = {
    "id": _I, "parent": _OI, "kind": _S, "move": _OS, "probability": _OF, "depth": _I, "alpha_in": _F,
    "beta_in": _F, "alpha_out": _F, "beta_out": _F, "lo": _F, "hi": _F, "value": _F, "enter_order": _I,
    "leave_order": _I, "children": _IS, "skipped": _SS, "note": _S, "on_pv": _B, "proofs": _B, "unrecorded": _I,
    "capture": _I, "reduced": _I, "depth_change": _I, "depth_reasons": _SS}
""":class:`~ai.kernel.recording.RecordedNode`'s fields but ``state`` (derived) and ``passes`` (rows of
:data:`PASS_FIELDS` after these)."""
MCTS_NODE_FIELDS: dict[str, _Codec] = {
    "id": _I, "parent": _OI, "move": _OS, "kind": _S, "player": _I, "to_move": _I, "depth": _I, "created": _I,
    "probability": _OF, "utility": _OF}
""":class:`~ai.teaching.mcts_record.MCTSRecNode`'s fields but ``state`` (derived)."""
SIM_FIELDS: dict[str, _Codec] = {
    "number": _I, "path": _IS, "expanded": _B, "leaf": _S, "playout_plies": _I, "playout_end": _S, "reward": _F,
    "end_value": _OF}
""":class:`~ai.teaching.mcts_record.SimulationRec`'s fields but ``proofs`` (pairs after these) and ``end`` (a
position, after them: ``null`` unless the recorder kept it)."""


def _row(obj: Any, fields: Mapping[str, _Codec]) -> list[Any]:
    return [write(getattr(obj, name)) for name, (write, _read) in fields.items()]


def _unrow(row: Any, names: list[str], fields: Mapping[str, _Codec], what: str) -> dict[str, Any]:
    if not isinstance(row, list) or len(row) < len(names):
        raise DecisionFileError(f"{what} is not a row of {len(names)} fields")
    return {name: fields[name][1](value, f"{what}'s {name}") for name, value in zip(names, row)}


def _names(doc: Mapping[str, Any], key: str, fields: Mapping[str, _Codec]) -> list[str]:
    """The field names a saved tree lists under ``key``: every one known, every field written (a newer writer's
    extra fields are refused: their meaning is unknown)."""
    names = doc.get(key)
    if not isinstance(names, list) or sorted(map(str, names)) != sorted(fields):
        raise DecisionFileError(f"its {key} are not those of this version")
    return [str(n) for n in names]


# ----- positions ---------------------------------------------------------------------------------------------------
def _child_state(game: Any, parent: Any, move: str | None) -> Any:
    """The position after ``move`` (the game's notation) at ``parent``, or ``None`` when it does not play there."""
    if parent is None or move is None:
        return None
    try:
        return game.result(parent, game.parse_move(parent, move))
    except Exception:  # noqa: BLE001 - any failure means: write this node's position out
        return None


def _positions(game: Any, root: Any, nodes: Any) -> dict[str, str | None]:
    """The nodes whose position is not their parent's after their move (``{id: position or None}``; ``None``: the
    recorder kept no position). Nodes come parents first."""
    states: dict[int, Any] = {}
    out: dict[str, str | None] = {}
    for n in nodes:
        derived = root if n.parent is None else _child_state(game, states.get(n.parent), n.move)
        if n.state is None:
            if derived is not None:
                out[str(n.id)] = None
        elif derived is None or derived != n.state:
            out[str(n.id)] = game.format_position(n.state)
        states[n.id] = n.state
    return out


def _states(game: Any, root: Any, rows: list[tuple[int, int | None, str | None]], positions: Any) -> dict[int, Any]:
    """Every node's position from ``(id, parent id, move)`` rows (parents first) and the written ``positions``."""
    if not isinstance(positions, dict):
        raise DecisionFileError("its positions are not an object")
    states: dict[int, Any] = {}
    for nid, parent, move in rows:
        written = positions.get(str(nid), ...)
        if written is None:
            states[nid] = None
        elif written is not ...:
            try:
                states[nid] = game.parse_position(_str(written, f"node {nid}'s position"))
            except DecisionFileError:
                raise
            except Exception as e:  # noqa: BLE001 - a game's parser raises its own errors
                raise DecisionFileError(f"node {nid}'s position does not read: {e}") from None
        elif parent is None:
            states[nid] = root
        else:
            if parent not in states:
                raise DecisionFileError(f"node {nid} comes before its parent {parent}")
            s = _child_state(game, states[parent], move)
            if s is None:
                raise DecisionFileError(f"node {nid}'s move {move!r} does not play at its parent's position")
            states[nid] = s
    return states


# ----- the minimax family's tree ------------------------------------------------------------------------------------
def _search_tree_json(game: Any, root: Any, tree: SearchTree, info: TreeInfo) -> dict[str, Any]:
    c = info.counts
    return {
        "fields": list(NODE_FIELDS), "pass_fields": list(PASS_FIELDS),
        "nodes": [_row(n, NODE_FIELDS) + [[_row(p, PASS_FIELDS) for p in n.passes]] for n in tree.nodes],
        "positions": _positions(game, root, tree.nodes),
        "tree": {"visited": tree.visited, "leaves": tree.leaves, "cutoffs": tree.cutoffs, "tt_hits": tree.tt_hits,
                 "truncated": tree.truncated, "algorithm": tree.algorithm, "prune": tree.prune, "pv": list(tree.pv),
                 "depth": tree.depth, "total_nodes": tree.total_nodes, "proofs": tree.proofs},
        "info": {"title": info.title, "notes": list(info.notes), "headline": list(info.headline),
                 "depth": info.depth, "stem": info.stem,
                 "summary": {k: v for k, v in info.summary.items() if k != "minimax_nodes" and _plain(v)},
                 "counts": None if c is None else {
                     f.name: (list(getattr(c, f.name)) if f.name == "unfinished" and c.unfinished is not None
                              else getattr(c, f.name)) for f in dataclasses.fields(c)}},
    }


def _counts(v: Any) -> DecisionCounts | None:
    if v is None:
        return None
    if not isinstance(v, dict):
        raise DecisionFileError("its counts are not an object")
    kinds = {"shown_depth": _int, "shown_nodes": _int, "drawn_nodes": _int, "shown_whole": _bool,
             "shown_value": _float, "shown_move": _opt_str, "total_nodes": _int, "iterations": _int,
             "final_depth": _int, "final_value": _float, "final_move": _opt_str, "max_nodes": _int,
             "shown_cutoffs": _int, "shown_pruned": _int, "total_cutoffs": _opt_int, "proofs": _bool}
    out: dict[str, Any] = {}
    for name, read in kinds.items():
        if name not in v:
            raise DecisionFileError(f"its counts lack {name}")
        out[name] = read(v[name], f"the count {name}")
    u = v.get("unfinished")
    out["unfinished"] = None if u is None else _ints(u, "the unfinished iteration")
    if out["unfinished"] is not None and len(out["unfinished"]) != 3:
        raise DecisionFileError("the unfinished iteration is not (depth, searched, of)")
    return DecisionCounts(**out)


def _read_search_tree(game: Any, root: Any, view: Any, doc: Mapping[str, Any]) -> tuple[SearchTree, TreeInfo]:
    names = _names(doc, "fields", NODE_FIELDS)
    pass_names = _names(doc, "pass_fields", PASS_FIELDS)
    raw = doc.get("nodes")
    if not isinstance(raw, list) or not raw:
        raise DecisionFileError("it has no nodes")
    rows: list[dict[str, Any]] = []
    for i, row in enumerate(raw):
        fields = _unrow(row, names, NODE_FIELDS, f"node {i}")
        passes = row[len(names)] if len(row) > len(names) else []
        if not isinstance(passes, list):
            raise DecisionFileError(f"node {i}'s passes are not a list")
        fields["passes"] = tuple(SearchPass(**_unrow(p, pass_names, PASS_FIELDS, f"node {i}'s pass"))
                                 for p in passes)
        if fields["id"] != i:
            raise DecisionFileError(f"node {i} has the id {fields['id']}")
        rows.append(fields)
    states = _states(game, root, [(r["id"], r["parent"], r["move"]) for r in rows], doc.get("positions", {}))
    nodes = tuple(RecordedNode(**r, state=states[r["id"]]) for r in rows)
    t = doc.get("tree")
    if not isinstance(t, dict):
        raise DecisionFileError("its tree's figures are missing")
    tree = SearchTree(nodes, _int(t.get("visited"), "visited"), _int(t.get("leaves"), "leaves"),
                      _int(t.get("cutoffs"), "cutoffs"), _int(t.get("tt_hits"), "tt_hits"),
                      _bool(t.get("truncated"), "truncated"), _str(t.get("algorithm"), "algorithm"),
                      _str(t.get("prune"), "prune"), _strs(t.get("pv"), "pv"), _int(t.get("depth"), "depth"),
                      _int(t.get("total_nodes"), "total_nodes"), _bool(t.get("proofs"), "proofs"))
    words = doc.get("info")
    if not isinstance(words, dict) or not isinstance(words.get("summary"), dict):
        raise DecisionFileError("its words are missing")
    info = TreeInfo(_str(words.get("title"), "the title"), _strs(words.get("notes"), "the notes"), game, view, root,
                    _int(words.get("depth"), "the depth"), dict(words["summary"]), MinimaxCount(),
                    _str(words.get("stem"), "the file name stem"), _counts(words.get("counts")),
                    headline=_strs(words.get("headline"), "the headline"))
    return tree, info


# ----- the Monte Carlo tree -----------------------------------------------------------------------------------------
def _stats_json(stats: Any) -> list[Any]:
    n, w, proven = stats
    return [list(n), [_num(x) for x in w], [None if p is None else _num(p) for p in proven]]


def _read_stats(v: Any, what: str) -> Any:
    if not isinstance(v, list) or len(v) != 3 or not all(isinstance(x, list) for x in v):
        raise DecisionFileError(f"its {what} statistics are not (N, W, proven)")
    return (_ints(v[0], f"{what} N"), tuple(_float(x, f"{what} W") for x in v[1]),
            tuple(_opt_float(x, f"{what} proof") for x in v[2]))


def _mcts_json(game: Any, root: Any, trace: MCTSTrace, title: str, stem: str) -> dict[str, Any]:
    return {
        "fields": list(MCTS_NODE_FIELDS), "sim_fields": list(SIM_FIELDS),
        "nodes": [_row(n, MCTS_NODE_FIELDS) for n in trace.nodes],
        "positions": _positions(game, root, trace.nodes),
        "simulations": [_row(s, SIM_FIELDS) + [[[i, _num(v)] for i, v in s.proofs],
                                               None if s.end is None else game.format_position(s.end)]
                        for s in trace.simulations],
        "base": _stats_json(trace.base), "final": _stats_json(trace.final),
        "trace": {"c": _num(trace.c), "root_player": trace.root_player, "player_names": list(trace.player_names),
                  "playout": trace.playout, "solver": trace.solver, "total_simulations": trace.total_simulations,
                  "total_nodes": trace.total_nodes, "truncated": trace.truncated, "best": trace.best,
                  "game_name": trace.game_name, "algorithm": trace.algorithm, "payoffs": trace.payoffs},
        "info": {"title": title, "stem": stem},
    }


def _read_mcts(game: Any, root: Any, doc: Mapping[str, Any]) -> tuple[MCTSTrace, str, str]:
    names = _names(doc, "fields", MCTS_NODE_FIELDS)
    sim_names = _names(doc, "sim_fields", SIM_FIELDS)
    raw, sims_raw = doc.get("nodes"), doc.get("simulations")
    if not isinstance(raw, list) or not raw or not isinstance(sims_raw, list):
        raise DecisionFileError("it has no nodes or no simulations")
    rows = [_unrow(row, names, MCTS_NODE_FIELDS, f"node {i}") for i, row in enumerate(raw)]
    for i, r in enumerate(rows):
        if r["id"] != i:
            raise DecisionFileError(f"node {i} has the id {r['id']}")
    states = _states(game, root, [(r["id"], r["parent"], r["move"]) for r in rows], doc.get("positions", {}))
    nodes = tuple(MCTSRecNode(**r, state=states[r["id"]]) for r in rows)
    sims: list[SimulationRec] = []
    for k, row in enumerate(sims_raw):
        fields = _unrow(row, sim_names, SIM_FIELDS, f"simulation {k + 1}")
        if len(row) != len(sim_names) + 2 or not isinstance(row[-2], list):
            raise DecisionFileError(f"simulation {k + 1} lacks its proofs or its end")
        proofs = []
        for pair in row[-2]:
            if not isinstance(pair, list) or len(pair) != 2:
                raise DecisionFileError(f"simulation {k + 1}'s proofs are not (node, value) pairs")
            proofs.append((_int(pair[0], "a proof's node"), _float(pair[1], "a proof's value")))
        end = row[-1]
        try:
            end_state = None if end is None else game.parse_position(_str(end, "a simulation's end"))
        except DecisionFileError:
            raise
        except Exception as e:  # noqa: BLE001 - a game's parser raises its own errors
            raise DecisionFileError(f"simulation {k + 1}'s end does not read: {e}") from None
        sims.append(SimulationRec(**{**fields, "proofs": tuple(proofs), "end": end_state}))
        if any(not 0 <= n < len(nodes) for n in sims[-1].path):
            raise DecisionFileError(f"simulation {k + 1}'s path leaves the tree")
    t, words = doc.get("trace"), doc.get("info")
    if not isinstance(t, dict) or not isinstance(words, dict):
        raise DecisionFileError("its figures are missing")
    base, final = _read_stats(doc.get("base"), "starting"), _read_stats(doc.get("final"), "final")
    if any(len(s) != len(nodes) for s in (*base, *final)):
        raise DecisionFileError("its statistics do not cover its nodes")
    trace = MCTSTrace(nodes, tuple(sims), base, final, _float(t.get("c"), "c"),
                      _int(t.get("root_player"), "the root player"), _strs(t.get("player_names"), "the players"),
                      _str(t.get("playout"), "the playout"), _bool(t.get("solver"), "solver"),
                      _int(t.get("total_simulations"), "the simulations"), _int(t.get("total_nodes"), "the nodes"),
                      _bool(t.get("truncated"), "truncated"), _opt_int(t.get("best"), "the best child"),
                      _str(t.get("game_name"), "the game"), _str(t.get("algorithm"), "the algorithm"),
                      _bool(t.get("payoffs"), "payoffs"))
    return trace, _str(words.get("title"), "the title"), _str(words.get("stem"), "the file name stem")


# ----- the result ---------------------------------------------------------------------------------------------------
def _line_text(game: Any, state: Any, moves: Any) -> list[str] | None:
    """Moves played in turn from ``state`` in the game's notation, or ``None`` when one does not format."""
    out: list[str] = []
    try:
        for m in moves:
            out.append(str(game.format_move(state, m)))
            state = game.result(state, m)
    except Exception:  # noqa: BLE001 - a line that does not format is left out
        return None
    return out


def _line(game: Any, state: Any, texts: list[str]) -> tuple[Any, ...]:
    out = []
    for t in texts:
        m = game.parse_move(state, t)
        out.append(m)
        state = game.result(state, m)
    return tuple(out)


def _result_json(game: Any, state: Any, res: SearchResult) -> dict[str, Any]:
    move = _line_text(game, state, () if res.move is None else (res.move,))
    return {"move": None if not move else move[0], "value": _num(res.value), "outcome": res.outcome,
            "plies_to_end": res.plies_to_end, "depth": res.depth, "nodes": res.nodes,
            "pv": _line_text(game, state, res.pv), "elapsed": _num(res.elapsed), "stop_reason": str(res.stop_reason),
            "extra": {k: v for k, v in (res.extra or {}).items() if _plain(v)}}


def _read_result(game: Any, state: Any, v: Any) -> SearchResult:
    if not isinstance(v, dict):
        raise DecisionFileError("its result is not an object")
    try:
        stop = StopReason(_str(v.get("stop_reason"), "the stop reason"))
    except ValueError:
        raise DecisionFileError(f"the stop reason {v.get('stop_reason')!r} is unknown here") from None
    move_text, pv = _opt_str(v.get("move"), "the move"), v.get("pv")
    try:
        move = None if move_text is None else _line(game, state, [move_text])[0]
        line = () if pv is None else _line(game, state, list(_strs(pv, "the principal variation")))
    except DecisionFileError:
        raise
    except Exception as e:  # noqa: BLE001 - a game's parser raises its own errors
        raise DecisionFileError(f"its move does not play at its position: {e}") from None
    extra = v.get("extra", {})
    if not isinstance(extra, dict):
        raise DecisionFileError("its extra figures are not an object")
    return SearchResult(move, _float(v.get("value"), "the value"), _opt_str(v.get("outcome"), "the outcome"),
                        _opt_int(v.get("plies_to_end"), "the plies to the end"), _int(v.get("depth"), "the depth"),
                        _int(v.get("nodes"), "the nodes"), line, _float(v.get("elapsed"), "the time"), stop,
                        dict(extra))


# ----- the saved decision -------------------------------------------------------------------------------------------
def tree_payload(game: Any, state: Any, tree: SearchTree | MCTSTrace, info: TreeInfo | None = None, *,
                 title: str = "", stem: str = "") -> tuple[str, dict[str, Any]]:
    """The JSON data of a recorded tree: ``(kind, data)``.

    Args:
        game: the game (notation).
        state: the root position.
        tree: the recorded tree (:class:`SearchTree`, with its ``info``) or an :class:`MCTSTrace` (with its header's
            ``title`` and ``stem``).

    Raises:
        DecisionFileError: a minimax tree without its ``info``, or a value that is not a number.
    """
    if isinstance(tree, MCTSTrace):
        return MCTS, _mcts_json(game, state, tree, title, stem)
    if info is None:
        raise DecisionFileError("a minimax tree is saved with its TreeInfo")
    return MINIMAX, _search_tree_json(game, state, tree, info)


def encode_decision(game: Any, state: Any, ply: int, player: int, move_text: str, result: SearchResult,
                    tree: SearchTree | MCTSTrace | None = None, info: TreeInfo | None = None, *,
                    title: str = "", stem: str = "", max_tree_bytes: int | None = None) -> dict[str, Any]:
    """One decision as the JSON object a saved game holds (see the module; plain JSON, no infinities).

    Args:
        game: the game (notation).
        state: the position decided.
        ply: the moves played once its move was played (>= 1).
        player: the side that decided (0 or 1).
        move_text: its move in the game's notation.
        result: the search's result.
        tree: the recorded tree, or ``None`` (no search: a book move).
        info: a :class:`SearchTree`'s words and counts.
        title: an :class:`MCTSTrace`'s header title.
        stem: an :class:`MCTSTrace`'s export file name stem.
        max_tree_bytes: the tree's cap (``None``: :data:`MAX_TREE_BYTES`): over it the tree is left out, said in
            ``tree_left_out``.

    Raises:
        ValueError: ``ply`` < 1 or ``player`` not 0 or 1.
        DecisionFileError: as :func:`tree_payload`.
    """
    if ply < 1:
        raise ValueError(f"ply must be at least 1 (the decision's move is played), not {ply}")
    if player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, not {player!r}")
    out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "ply": ply, "player": player, "move": move_text,
                           "position": game.format_position(state), "result": _result_json(game, state, result)}
    if tree is None:
        return out
    kind, payload = tree_payload(game, state, tree, info, title=title, stem=stem)
    raw = json.dumps(payload, separators=(",", ":"), allow_nan=False).encode()
    data = base64.b64encode(zlib.compress(raw, 6)).decode("ascii")
    cap = MAX_TREE_BYTES if max_tree_bytes is None else max_tree_bytes
    if len(data) > cap:
        out["tree_left_out"] = f"its {_size(len(data))} are over the {_size(cap)} a saved game keeps"
    else:
        out["tree"] = {"kind": kind, "encoding": "zlib+base64", "bytes": len(raw), "data": data}
    return out


def _size(n: int) -> str:
    """``"1.2 MB"`` or ``"640 KB"``."""
    return f"{n / 2**20:.1f} MB" if n >= 2**20 else f"{max(1, round(n / 1024))} KB"


def decode_decision(obj: Any, game: Any, view: Any = None, state: Any = None, *,
                    tree: bool = True) -> SavedDecision:
    """Read a saved decision (:func:`encode_decision`'s object) back.

    A tree that cannot be read leaves the decision's words readable: :attr:`SavedDecision.tree` is ``None`` and
    :attr:`SavedDecision.tree_error` says why.

    Reading the words is quick; reading the tree is most of the work (about a second for a 12,000-node checkers
    tree in pure Python). With ``tree=False`` the words alone are read (:attr:`SavedDecision.left_out` included);
    :func:`decode_tree` reads the tree afterwards, e.g. on another thread.

    Args:
        obj: the decoded JSON object.
        game: the game (notation; the restored :class:`TreeInfo` holds it).
        view: the board view the restored :class:`TreeInfo` draws mini-boards with (``None``: none).
        state: the position decided as the caller has it (a replayed game's, with the bookkeeping the notation does
            not write, such as checkers' repetition history), or ``None`` to read it from the record. It must be
            the record's ``position``.
        tree: read the tree too (``False``: the words only; :func:`decode_tree` reads it).

    Raises:
        DecisionFileError: not a saved decision, a newer version, a field missing or of the wrong type, its
            position or move does not read, or ``state`` is another position.
    """
    if not isinstance(obj, dict) or obj.get("format") != FORMAT:
        raise DecisionFileError(f"it is not a saved decision (expected \"format\": \"{FORMAT}\")")
    version = _int(obj.get("version"), "its version")
    if version > VERSION:
        raise DecisionFileError(f"it has format version {version}; this arcade reads up to {VERSION}")
    ply, player = _int(obj.get("ply"), "its ply"), _int(obj.get("player"), "its player")
    if ply < 1 or player not in (0, 1):
        raise DecisionFileError(f"its ply {ply} or player {player} is out of range")
    position = _str(obj.get("position"), "its position")
    if state is not None:
        if game.format_position(state) != position:
            raise DecisionFileError(f"it was made at another position ({position}) than its move's in the game")
    else:
        try:
            state = game.parse_position(position)
        except Exception as e:  # noqa: BLE001 - a game's parser raises its own errors
            raise DecisionFileError(f"its position does not read: {e}") from None
    result = _read_result(game, state, obj.get("result"))
    base = SavedDecision(ply, player, _str(obj.get("move"), "its move"), state, result)
    if "tree_left_out" in obj:
        return dataclasses.replace(base, left_out=str(obj["tree_left_out"]))
    return decode_tree(obj, base, game, view) if tree else base


def has_tree(obj: Any) -> bool:
    """True when a saved decision's object holds a tree to read (``tree`` and no ``tree_left_out``)."""
    return isinstance(obj, dict) and "tree" in obj and "tree_left_out" not in obj


def decode_tree(obj: Any, saved: SavedDecision, game: Any, view: Any = None) -> SavedDecision:
    """Read the tree of a saved decision whose words were read (:func:`decode_decision` with ``tree=False``).

    Touches neither ``obj`` nor ``saved`` (a thread may run it while the window keeps both).

    Args:
        obj: the decoded JSON object ``saved`` was read from.
        saved: its words.
        game: the game.
        view: the board view the restored :class:`TreeInfo` draws mini-boards with (``None``: none).

    Returns:
        ``saved`` with its tree (and the minimax family's :class:`TreeInfo`, or an MCTS tree's title and stem);
        ``saved`` itself when ``obj`` holds no tree (:func:`has_tree`). Never raises for a damaged tree: the
        result's :attr:`SavedDecision.tree_error` says why it could not be read.
    """
    if not has_tree(obj):
        return saved
    try:
        kind, doc = _unpack(obj["tree"])
        if kind == MINIMAX:
            tree, info = _read_search_tree(game, saved.state, view, doc)
            return dataclasses.replace(saved, tree=tree, info=info)
        trace, title, stem = _read_mcts(game, saved.state, doc)
        return dataclasses.replace(saved, tree=trace, title=title, stem=stem)
    except DecisionFileError as e:
        return dataclasses.replace(saved, tree_error=str(e))
    except (TypeError, ValueError, KeyError, IndexError, RecursionError) as e:  # a row of the wrong shape
        return dataclasses.replace(saved, tree_error=f"its data is damaged ({type(e).__name__})")


def _unpack(t: Any) -> tuple[str, dict[str, Any]]:
    """A saved tree's kind and JSON data (unpacked, at most :data:`MAX_TREE_JSON_BYTES`)."""
    if not isinstance(t, dict) or t.get("kind") not in (MINIMAX, MCTS) or t.get("encoding") != "zlib+base64":
        raise DecisionFileError("its tree is not a minimax or MCTS tree in zlib+base64")
    try:
        packed = base64.b64decode(_str(t.get("data"), "its data"), validate=True)
        unpacker = zlib.decompressobj()
        raw = unpacker.decompress(packed, MAX_TREE_JSON_BYTES)
        if unpacker.unconsumed_tail:
            raise DecisionFileError(f"its data unpacks to more than {MAX_TREE_JSON_BYTES // 2**20} MB")
        doc = json.loads(raw)
    except (binascii.Error, zlib.error, UnicodeDecodeError):
        raise DecisionFileError("its data is damaged (not zlib in base64)") from None
    except json.JSONDecodeError as e:
        raise DecisionFileError(f"its data is damaged (not JSON: {e.msg})") from None
    if not isinstance(doc, dict):
        raise DecisionFileError("its data is not an object")
    return str(t["kind"]), doc
