"""``python main.py compare GAME [--position P] [--moves M] --agents A B ... [--time T] [--json]`` (CLI.md).

Runs several agents on the same position, one after the other, and reports each one's move, value, depth (for
``mcts`` the deepest tree node), nodes (for ``mcts`` tree nodes, plus its simulations) and time: the headless half
of the race the course draws in words (minimax against alpha-beta against alpha-beta with ordering and a table,
and Monte Carlo tree search). ``--time T`` gives every agent the same budget of ``T`` seconds (its depth and
simulation limits dropped, so each goes as far as the time allows); without it each keeps its own. An agent
that does not fit the game (expectimax on checkers, a human) is reported with its error and the others still
run; the exit code is 2 only when none can run. The running and the recording are :mod:`ai.teaching.race`'s (the model
the window's race view draws too); ``--json`` adds each agent's ``timeline`` (every progress report, then its
answer).
"""

from __future__ import annotations

import argparse
from typing import Any

from gameplay.rules.base import GameError


def register(sub: Any) -> None:
    """Add the ``compare`` subcommand to the CLI's subparsers."""
    from gameplay.rules.limits import MOVE_TIME
    from gameplay.rules.registry import game_names
    sp = sub.add_parser("compare", help="run several agents on one position and compare their choices")
    from gameplay.cli.common import add_game_argument
    add_game_argument(sp, game_names())
    sp.add_argument("--position", default=None, help="position (default: the start)")
    sp.add_argument("--moves", default=None, metavar='"M1 M2 ..."', help="moves played from the position first")
    sp.add_argument("--agents", nargs="+", required=True, metavar="AGENT",
                    help="agent specs, e.g. minimax:depth=4 alphabeta:depth=4 mcts:simulations=2000")
    sp.add_argument("--time", type=MOVE_TIME.arg("--time"), default=None, metavar="T",
                    help=MOVE_TIME.help("the same budget for every agent, in seconds (default: each its own)"))
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.set_defaults(func=cmd_compare)


def compare(game: Any, state: Any, specs: list[str], budget: float | None) -> dict[str, Any]:
    """Run each agent of ``specs`` at ``state`` (:func:`ai.teaching.race.run_race`); returns ``{"results": [...],
    "errors": [...]}`` as ``compare --json`` prints them.

    Each result: ``agent`` (its settings), ``spec``, ``description``, ``move``, ``value``, ``depth``, ``nodes``,
    ``elapsed_s``, ``stop_reason`` (and ``simulations`` for ``mcts``; the exact solver's figures for ``exact=on``:
    :meth:`ai.teaching.race.RaceEntry.to_json`), ``timeline``; each error: ``agent`` (the spec) and ``error``.
    """
    from ai.teaching.race import run_race
    obj = run_race(game, state, specs, budget).to_json()
    return {"results": obj["results"], "errors": obj["errors"]}


def cmd_compare(a: argparse.Namespace) -> int:
    from ai.kernel.core import StopReason
    from ai.kernel.numbers import exact_search_seconds, exact_text, value_label
    from ai.teaching.race import run_race
    from gameplay.cli.common import emit, game_named, play_moves, state_at
    game = game_named(a.game)
    state = play_moves(game, state_at(game, a.position), a.moves)
    if not game.actions(state) and not game.is_chance(state):
        raise GameError(f"the position {game.format_position(state)} is over: there is no move to compare")
    obj = run_race(game, state, list(a.agents), a.time).to_json()
    if not obj["results"]:
        raise GameError("no agent could run: " + "; ".join(f"{e['agent']}: {e['error']}" for e in obj["errors"]))
    if a.json:
        emit(obj)
        return 0
    where = f"at {obj['position']}" if obj["position"] else "at the start (empty position)"
    print(f"{game.name} {where}" + (f", {a.time:g} s each" if a.time is not None else ""))
    for r in obj["results"]:
        if r["stop_reason"] == StopReason.BOOK:  # no search: its value is the book's, not an evaluation at some depth
            found = f": {r['book_origin']}" if r.get("book_origin") else ""
            read = f", {r['book_read_s']:.3f} s of it reading the book" if r.get("book_read_s") else ""
            print(f"  {r['description']}: {r['move']} from the opening book (no search{found}), "
                  f"{r['elapsed_s']:.3f} s{read}")
            continue
        exact = exact_text(r, r["nodes"], r["elapsed_s"])  # what the exact solver did (agent key exact)
        if r.get("solver") is True:
            print(f"  {r['description']}: {r['move']}, value {value_label(r['value'])}, {exact}")
            continue
        size = (f"{r['simulations']:,} simulations, {r['nodes']:,} tree nodes" if "simulations" in r
                else f"{r['nodes']:,} nodes")
        took = f"{r['elapsed_s']:.3f} s" if exact is None else exact_search_seconds(r, r["elapsed_s"])
        print(f"  {r['description']}: {r['move']}, value {value_label(r['value'])}, "
              + (f"{exact}: " if exact is not None else "") + f"depth {r['depth']}, {size}, {took}")
    for e in obj["errors"]:
        print(f"  {e['agent']}: cannot run: {e['error']}")
    return 0
