"""``main.py tree``: search an explicit Tree Lab tree, or record one decision of a game, and export it."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ai.kernel.numbers import iteration_nodes_text, number_text, value_label
from gameplay.rules.base import GameError
from gameplay.rules.registry import game_names
from gameplay.rules.trees import tree_text


def register(sub: Any) -> None:
    """Add the ``tree`` subcommand to the CLI's subparsers."""
    sp = sub.add_parser("tree", help="search an explicit tree (--tree JSON) or record a game decision")
    from gameplay.cli.common import add_game_argument
    add_game_argument(sp, game_names(), optional=True, extra=" (leave out with --tree)")
    sp.add_argument("--tree", default=None, help="an explicit tree as JSON, e.g. '[[3,12,8],[2,4,6],[14,5,2]]'")
    sp.add_argument("--position", default=None, help="position (with GAME)")
    sp.add_argument("--agent", required=True,
                    help="minimax, alphabeta[:prune=gt,ordering=on], expectimax or mcts[:simulations=N,c=C,seed=S]")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.add_argument("--out", default=None, help="write the tree to .json, .dot, .txt, .md, .svg or .png")
    sp.add_argument("--contrast", action="store_true",
                    help="draw the .svg or .png picture in the window's high-contrast colours (white on black)")
    sp.add_argument("--narrate", action="store_true",
                    help="tell the search step by step in words (one numbered line per step; with --json a "
                         "\"narration\" list)")
    sp.set_defaults(func=cmd_tree)


def _mcts_painter() -> Any:
    """The window's painter of an MCTS picture (``tree --mcts --out FILE.png`` draws the overlay as the window
    shows it): one of the command line's doors into the window, imported only here, when a PNG is asked for."""
    from gameplay.ui.overlay.mcts_overlay import render_png
    return render_png


def cmd_tree(a: argparse.Namespace) -> int:
    """Run the ``tree`` subcommand."""
    from gameplay.cli.common import UsageError
    if a.tree is not None and a.game is not None:
        raise UsageError("tree: give either GAME or --tree, not both")
    if a.tree is None and a.game is None:
        raise UsageError(f"tree: give GAME ({', '.join(game_names())}) or --tree JSON")
    if a.out:  # a folder that does not exist, or a folder given as the file: refused before the search
        from gameplay.rules.outfile import check_target
        check_target(a.out)
    lab_root: Any = None
    if _is_mcts(a.agent):
        return _cmd_tree_mcts(a)
    if a.tree is not None:
        from ai.teaching.treelab import parse_tree_agent, search_tree
        from gameplay.rules.trees import parse_tree
        lab_root = parse_tree(tree_text(a.tree))
        res = search_tree(lab_root, parse_tree_agent(a.agent))
        obj: dict[str, Any] = res.to_json()
        tree = res.tree
        game: Any = None
        summary: dict[str, Any] = obj
    else:
        from ai.teaching.decision_tree import decision_counts, decision_summary, record_decision_model
        game, state, result, rec = record_decision_model(a.game, a.position, a.agent)
        tree = rec.snapshot(tuple(result.pv))
        counts = decision_counts(game, state, result, rec, tree)
        # move/value/depth/nodes: the decision (as analyze prints them); the tree_* keys and iteration_nodes: the
        # iteration the tree shows (the deepest recorded whole, as in the window's overlay)
        # cutoffs: every iteration's (as analyze's); iteration_cutoffs and iteration_pruned_subtrees: the tree's
        obj = {"game": game.name, "position": game.format_position(state), "move": game.format_move(state, result.move),
               "value": result.value, "depth": result.depth, "nodes": result.nodes,
               "recorded_nodes": tree.recorded_visits, "truncated": tree.truncated, "pv": list(tree.pv),
               "tree_depth": counts.shown_depth, "tree_value": counts.shown_value, "tree_move": counts.shown_move,
               "iteration_nodes": counts.shown_nodes, "capture_nodes": counts.capture_nodes,
               "total_nodes": counts.total_nodes, "cutoffs": counts.total_cutoffs,
               "iteration_cutoffs": counts.shown_cutoffs, "iteration_pruned_subtrees": counts.shown_pruned,
               "iterations": result.extra.get("iterations", [])}
        summary = decision_summary(game, state, counts, tree.algorithm)
        decided = counts
    steps: list[str] = []
    if getattr(a, "narrate", False):
        from ai.teaching.narration import narration, numbered
        steps = narration(tree, lab_root, lab=game is None)
        obj["narration"] = steps
    if a.contrast and not (a.out and Path(a.out).suffix.lower() in (".svg", ".png")):
        raise UsageError("--contrast draws the .svg or .png picture in high contrast; give --out FILE.svg or .png")
    if a.out:
        _export(tree, Path(a.out), summary, lab_root, contrast=a.contrast)
    if a.json:
        sys.stdout.write(json.dumps(obj) + "\n")
    elif steps:
        print("\n".join(numbered(steps)))
        if a.out:
            print(f"wrote {a.out}")
    elif not a.out:
        print(tree.text())
        if game is None:
            print(f"value {value_label(obj['value'], tree.proofs)}"
                  + (f", best child {obj['best']}" if "best" in obj else ""))
        else:
            from ai.teaching.decision_tree import shown_iteration_text
            print(f"the tree above: depth {decided.shown_depth}, value {decided.value(shown=True)}; "
                  + iteration_nodes_text(decided.shown_nodes, decided.drawn_nodes, decided.shown_depth,
                                         capture=decided.capture_nodes, truncated=not decided.shown_whole,
                                         algorithm=tree.algorithm))
            print(f"the decision: {obj['move']}, value {decided.value()}, depth {obj['depth']}, "
                  f"{obj['nodes']:,} nodes searched in all iterations")
            other = shown_iteration_text(decided)
            if other is not None:
                print(other)
    elif a.out:
        print(f"wrote {a.out}")
    return 0


def _export(tree: Any, path: Path, obj: dict[str, Any], root: Any = None, *, contrast: bool = False) -> None:
    from gameplay.pictures.tree_export import export_tree
    from gameplay.pictures.tree_picture import HIGH_CONTRAST_PALETTE, PALETTE
    from gameplay.rules.outfile import OutputError
    try:
        export_tree(tree, path, summary=obj, root=root, palette=HIGH_CONTRAST_PALETTE if contrast else PALETTE)
    except OutputError:
        raise  # its one line names the file and why
    except OSError as e:
        raise GameError(f"cannot write {path}: {e.strerror or e}") from None


def _is_mcts(spec: str) -> bool:
    return spec.strip().lower().split(":", 1)[0] == "mcts"


def _cmd_tree_mcts(a: argparse.Namespace) -> int:
    """``tree --tree T --agent mcts...`` and ``tree GAME --agent mcts...``: the search recorded simulation by
    simulation (:mod:`ai.teaching.mcts_record`); ``--out`` writes it as ``.txt``, ``.json``, ``.dot``, ``.svg`` or
    ``.png`` (:func:`gameplay.pictures.mcts_picture.export_mcts`)."""
    from ai.teaching.mcts_record import trace_json
    from gameplay.pictures.mcts_picture import MCTS_SUFFIXES, export_mcts
    if a.out and Path(a.out).suffix.lower() not in MCTS_SUFFIXES:
        raise GameError(f"--out {a.out}: an mcts search is written as {', '.join(MCTS_SUFFIXES)}")
    if a.tree is not None:
        from ai.teaching.treelab import parse_tree_agent
        from ai.teaching.treelab_mcts import search_tree_mcts
        from gameplay.rules.trees import parse_tree
        res = search_tree_mcts(parse_tree(tree_text(a.tree)), parse_tree_agent(a.agent))
        trace = res.trace
        obj: dict[str, Any] = res.to_json()
        tail = f"value {number_text(res.value)} (mean backed-up leaf value), best child {res.best}"
    else:
        from ai.teaching.decision_tree import record_mcts_decision
        game, state, result, trace = record_mcts_decision(a.game, a.position, a.agent)
        obj = {"game": game.name, "position": game.format_position(state),
               "move": game.format_move(state, result.move), "value": result.value, "depth": result.depth,
               "nodes": result.nodes, "simulations": result.extra["simulations"], "pv": list(trace_json(trace)["pv"]),
               "root_children": result.extra["root_children"], "algorithm": trace.algorithm}
        tail = (f"the decision: {obj['move']}, value {number_text(result.value)} (root mean), "
                f"{obj['simulations']:,} simulations, {obj['nodes']:,} tree nodes")
    steps = [trace.narrate(k) for k in range(1, len(trace.simulations) + 1)] if a.narrate else []
    if steps:
        obj["narration"] = steps
    if a.out:
        path = Path(a.out)
        if path.suffix.lower() == ".json":
            try:
                from gameplay.rules.outfile import write_text
                write_text(path, json.dumps({**obj, "trace": trace_json(trace)}, indent=1) + "\n")
            except OSError as e:
                raise GameError(f"cannot write {path}: {e.strerror or e}") from None
        else:
            export_mcts(trace, path, tail, png=_mcts_painter() if path.suffix.lower() == ".png" else None)
    if a.json:
        sys.stdout.write(json.dumps(obj) + "\n")
    elif steps:
        from ai.teaching.narration import numbered
        print("\n".join(numbered(steps)))
    elif a.out:
        print(f"wrote {a.out}")
    else:
        print(trace.text())
        print(tail)
    return 0
