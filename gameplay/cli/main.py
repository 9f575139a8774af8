"""The headless command line (``../shared/CLI.md``): moves, perft, analyze, tree, match, bench, and the
window commands (play, demo) which import pygame only when run.

Bad input prints one line on standard error naming what was wrong and what was expected, and exits 2.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
import time
from typing import Any, Callable, Iterator, Mapping, NoReturn, Sequence

from gameplay.cli.common import (
    SETUP_HINT,
    ArgumentsError,
    Interrupted,
    UsageError,
    add_game_argument,
    emit,
    error_line,
    game_named,
    play_moves,
    resolve_game_argument,
    state_at,
)
from gameplay.rules import limits
from gameplay.rules.base import GameError, quoted_path, shortened
from gameplay.rules.registry import game_names, games, normalize_name


class _Parser(argparse.ArgumentParser):
    """The arcade's argument parser: a usage error raises :class:`ArgumentsError` (one line), and the parser keeps
    its own record of the arguments and subcommand tables it defines (:func:`arguments`, :func:`subcommands`),
    which argparse keeps private."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.defined: list[argparse.Action] = []
        """The arguments this parser defines (``--help`` included), in the order they were added."""
        self.subcommand_tables: list[Mapping[str, argparse.ArgumentParser]] = []
        """Name -> parser of each set of subcommands added (:meth:`add_subparsers`; aliases included)."""
        super().__init__(*args, **kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        action = super().add_argument(*args, **kwargs)
        self.defined.append(action)
        return action

    def add_subparsers(self, **kwargs: Any) -> Any:
        action = super().add_subparsers(**kwargs)
        self.subcommand_tables.append(action.choices)
        return action

    def error(self, message: str) -> NoReturn:
        m = re.fullmatch(r"argument (--[\w-]+)(?:/\S+)?: expected one argument", message)
        if m:  # argparse reads "--depth -inf" as two options: the value must be joined to its option
            message += f"; a value that starts with '-' is written {m.group(1)}=VALUE"
        raise ArgumentsError(f"{self.prog}: {shortened(message)} (see '{self.prog} --help')")


def _outcome_json(game: Any, state: Any) -> dict[str, Any] | None:
    out = game.outcome(state)
    if out is None:
        return None
    return {"winner": None if out.winner is None else game.player_names[out.winner],
            "termination": out.termination_text}


def _to_move_name(game: Any, state: Any) -> str:
    if game.is_chance(state):
        return "chance"
    names = getattr(game, "to_move_names", None)
    return str(names[game.to_move(state)] if names else game.player_names[game.to_move(state)])


# ----- subcommands ---------------------------------------------------------------------------------------------
def cmd_moves(a: argparse.Namespace) -> int:
    game = game_named(a.game)
    state = state_at(game, a.position)
    rows: list[dict[str, Any]] = []
    if game.is_chance(state):
        for outcome, p in game.chance_outcomes(state):
            child = game.result(state, outcome)
            rows.append({"move": game.format_move(state, outcome), "position": game.format_position(child),
                         "probability": p})
    else:
        for m in game.actions(state):
            rows.append({"move": game.format_move(state, m),
                         "position": game.format_position(game.result(state, m))})
    obj = {"game": game.name, "position": game.format_position(state), "to_move": _to_move_name(game, state),
           "moves": rows, "outcome": _outcome_json(game, state)}
    if a.json:
        emit(obj)
        return 0
    print(f"{game.name} {obj['position'] or '(the start: empty position)'}  to move: {obj['to_move']}")
    if obj["outcome"] is not None:
        o = obj["outcome"]
        print(f"game over: {'draw' if o['winner'] is None else o['winner'] + ' wins'} ({o['termination']})")
    for r in rows:
        extra = f"  p={r['probability']:.4f}" if "probability" in r else ""
        print(f"  {r['move']:<14} -> {r['position']}{extra}")
    print(f"{len(rows)} move(s)")
    return 0


def cmd_perft(a: argparse.Namespace) -> int:
    from gameplay.rules.perft import perft, perft_divide
    game = game_named(a.game)
    if game.traits.stochastic:
        raise GameError(f"perft counts a deterministic move tree; {game.name} has chance nodes")
    state = state_at(game, a.position)
    t0 = time.perf_counter()
    divide: dict[str, int] | None = None
    with _perft_progress(a.depth, a.depth >= PERFT_PROGRESS_DEPTH and sys.stderr.isatty()) as progress:
        if a.divide and a.depth >= 1:
            divide = perft_divide(game, state, a.depth, a.count_terminal, progress)
            nodes = sum(divide.values()) if divide else perft(game, state, a.depth, a.count_terminal)
        else:
            nodes = perft(game, state, a.depth, a.count_terminal, progress)
    elapsed = time.perf_counter() - t0
    if a.json:
        emit({"game": game.name, "position": game.format_position(state), "depth": a.depth, "nodes": nodes,
               "elapsed_s": elapsed, "divide": divide})
        return 0
    if divide:
        for k, v in divide.items():
            print(f"{k}: {v}")
    print(nodes)
    return 0


PERFT_PROGRESS_DEPTH = 6
"""From this depth ``perft`` on a terminal shows a progress bar (positions counted): a deep count can take
hours; Ctrl+C stops it (exit 130)."""


class _PerftProgress:
    """A count's progress for :func:`gameplay.rules.perft.perft` (called with the positions counted so far): a
    tqdm counter on standard error, or nothing."""

    def __init__(self, depth: int, show: bool) -> None:
        self._bar: Any = None
        if show:
            from tqdm import tqdm
            self._bar = tqdm(desc=f"perft depth {depth}", unit=" positions", unit_scale=True, file=sys.stderr,
                             dynamic_ncols=True, leave=False)

    def __call__(self, counted: int) -> None:
        if self._bar is not None:
            self._bar.update(counted - self._bar.n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


@contextlib.contextmanager
def _perft_progress(depth: int, show: bool) -> Iterator[_PerftProgress]:
    """:class:`_PerftProgress`, its bar closed however the count ends (Ctrl+C included)."""
    progress = _PerftProgress(depth, show)
    try:
        yield progress
    finally:
        progress.close()


def cmd_analyze(a: argparse.Namespace) -> int:
    from ai.agents.agents import make_agent
    game = game_named(a.game)
    state = play_moves(game, state_at(game, a.position), a.moves)
    agent = make_agent(game.name, a.agent)
    if agent.is_human:
        raise UsageError("analyze needs an AI agent, not human")
    if not game.actions(state) and not game.is_chance(state):
        raise GameError(f"the position {game.format_position(state)} is over: there is no move to analyze")
    if hasattr(agent, "progress") and agent.progress is None:  # Pig's optimal policy: computed on first use
        from gameplay.cli.progress import CountProgress
        agent.progress = CountProgress("computing the optimal policy (value iteration)", "state", unit_scale=True)
    res = agent.choose(state, on_info=None if a.quiet else _progress_printer(game, state))
    obj: dict[str, Any] = {
        "game": game.name, "position": game.format_position(state), "agent": agent.settings.to_json(),
        "move": game.format_move(state, res.move), "value": float(res.value), "outcome": res.outcome,
        "plies_to_end": res.plies_to_end, "depth": res.depth, "nodes": res.nodes, "elapsed_s": res.elapsed,
        "pv": _format_pv(game, state, res.pv), "stop_reason": res.stop_reason,
    }
    obj.update({k: v for k, v in res.extra.items() if isinstance(v, (int, float, str, bool, type(None)))})
    if "iterations" in res.extra:
        obj["iterations"] = res.extra["iterations"]
    if "partial" in res.extra:  # the move came from an iteration the budget stopped (agent key partial)
        obj["partial"] = res.extra["partial"]
    if "proof_tests" in res.extra:  # the exact solver's null-window tests at the root (agent key exact)
        obj["proof_tests"] = [[t, r, n, [[game.format_move(state, m), v, k] for m, v, k in cols]]
                              for t, r, n, cols in res.extra["proof_tests"]]
        obj["proof_unsearched"] = [game.format_move(state, m) for m in res.extra.get("proof_unsearched", ())]
    if a.json:
        emit(obj)
        return 0
    plies = res.plies_to_end
    from ai.kernel.core import StopReason, is_db_value
    from ai.kernel.numbers import cutoff_text, exact_search_seconds, exact_text, number_text, stop_text, value_text
    mover = _to_move_name(game, state)  # whose move it is: the value is from this side's point of view
    note = agent.tables_note()  # which endgame tables it probes (the largest found), when it probes some
    who = agent.describe() + (f" ({note})" if note else "")
    print(f"{'player ' + mover if mover.isdigit() else mover} to move ({obj['position'] or 'the start'})")
    if res.stop_reason == StopReason.BOOK:
        found = f" ({res.extra['book_origin']})" if "book_origin" in res.extra else ""
        print(f"{who}: plays {obj['move']} from the opening book{found}")
        read = (f", {res.extra['book_read_s']:.3f} s of it reading the book, once a process"
                if "book_read_s" in res.extra else "")
        print(f"no search ({res.elapsed:.3f} s{read}); book=off makes it search")
    elif "simulations" in res.extra:  # Monte Carlo tree search: a mean value in [-1, 1], a tree, simulations
        proof = (f", {res.outcome} in {plies} {'ply' if plies == 1 else 'plies'}" if res.outcome and plies is not None
                 else (f", {res.outcome}" if res.outcome and not is_db_value(res.value) else ""))
        print(f"{who}: plays {obj['move']} (mean value {number_text(res.value)}{proof})")
        print(f"{res.extra['simulations']:,} simulations, {res.nodes:,} tree nodes, depth {res.depth}, "
              f"{res.elapsed:.3f} s, stopped by {stop_text(res.stop_reason)}")
    else:  # the value as the search tree's root prints it (main.py tree, the overlay), with what it means
        wp = res.extra.get("win_probability")
        ends = (f", the game ends in {plies} {'ply' if plies == 1 else 'plies'}"
                if res.outcome == "draw" and plies is not None else "")
        print(f"{who}: plays {obj['move']}, value "
              f"{value_text(res.value, res.outcome, wp if isinstance(wp, float) else None)}{ends}")
        cut = res.extra.get("cutoffs")
        cuts = (f" ({cutoff_text(cut)})" if isinstance(cut, int) and agent.settings.algorithm == "alphabeta"
                else "")
        exact = exact_text(res.extra, res.nodes, res.elapsed)  # what the exact solver did (agent key exact)
        if res.extra.get("solver") is True:  # its proof: its own figures
            print(f"{exact} (exact score {res.extra.get('exact_score')})")
            from ai.kernel.spelling import proof_test_lines
            for line in proof_test_lines(res.extra.get("proof_tests", ()), lambda m: game.format_move(state, m),
                                         unsearched=res.extra.get("proof_unsearched", ())):
                print(f"  {line}")
            if "proof_shortcut" in res.extra:
                print(f"  no null-window test was needed: {res.extra['proof_shortcut']}")
        elif exact is not None:  # its unfinished try, then the search's own figures
            print(f"{exact}: depth {res.depth}, {res.nodes:,} nodes searched in all iterations{cuts}, "
                  f"{exact_search_seconds(res.extra, res.elapsed)}, stopped by {stop_text(res.stop_reason)}")
        else:
            print(f"depth {res.depth}, {res.nodes:,} nodes searched in all iterations{cuts}, {res.elapsed:.3f} s, "
                  f"stopped by {stop_text(res.stop_reason)}")
        part = res.extra.get("partial")
        if isinstance(part, dict):
            print(f"the move came from depth {part['depth']}, stopped after {part['root_moves']} of {part['of']} "
                  f"root moves: it proved {part['move']} better than depth {res.depth}'s best")
    if obj["pv"]:
        print("principal variation: " + " ".join(obj["pv"]))
    if "win_probability" in obj:
        print(f"win probability: {obj['win_probability']:.4f}")
    return 0


def _progress_printer(game: Any, state: Any) -> Callable[[Any], None]:
    """The ``analyze`` progress: one line on standard error per completed iteration of iterative deepening
    (``depth 7: value 0.25, best 11-15, 48,213 nodes, 1.27 s``), never on standard output, so ``--json`` stays
    one object and a deep search without a time limit is never silent."""

    def show(info: Any) -> None:
        try:
            best = "-" if info.move is None else game.format_move(state, info.move)
        except Exception:  # noqa: BLE001 - a progress line is never worth failing the search for
            best = str(info.move)
        from ai.kernel.numbers import value_label
        sys.stderr.write(f"depth {info.depth}: value {value_label(info.value)}, best {best}, "
                         f"{info.nodes:,} nodes, {info.elapsed:.2f} s\n")
        sys.stderr.flush()
    return show


def _format_pv(game: Any, state: Any, pv: Sequence[Any]) -> list[str]:
    out = []
    s = state
    for m in pv:
        if game.is_chance(s):
            break
        try:
            out.append(game.format_move(s, m))
            s = game.result(s, m)
        except GameError:
            break
    return out


def _window(a: argparse.Namespace) -> int:
    import os
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame  # noqa: F401
        import pygame_gui  # noqa: F401
    except ImportError as e:
        sys.stderr.write(f"error: the window needs pygame-ce and pygame_gui ({e.name} is missing). "
                         f"Set them up with: {SETUP_HINT}\n")
        return 2
    if (sys.platform.startswith("linux") and not os.environ.get("DISPLAY")
            and not os.environ.get("WAYLAND_DISPLAY") and not os.environ.get("SDL_VIDEODRIVER")):
        sys.stderr.write("error: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set); "
                         "run it in a desktop session, or set SDL_VIDEODRIVER=dummy for a headless run\n")
        return 2
    from gameplay.ui.shell.app import run_app
    return run_app(a)


def cmd_bench(a: argparse.Namespace) -> int:
    from gameplay.cli.bench import run_bench
    return run_bench(a.suites, a.json)


# ----- parser ---------------------------------------------------------------------------------------------------
def program_name() -> str:
    """The program's name in usage and error lines: ``main.py``, the installed ``arcade`` command (``pip install
    .``), ``python -m gameplay``, or the app's program (``adversarial-arcade``) in the one-folder build
    (``packaging/arcade.spec``), where there is no ``main.py`` to type."""
    import os
    if getattr(sys, "frozen", False):
        return os.path.basename(sys.executable)
    script = sys.argv[0] if sys.argv and sys.argv[0] else ""
    if os.path.splitext(os.path.basename(script))[0] == "arcade":
        return "arcade"
    return "python -m gameplay" if script.endswith(os.path.join("gameplay", "__main__.py")) else "main.py"


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (shared by ``--help`` and the tests), every subcommand's module registered."""
    _register_extras()
    titles = [g.title for g in games()]
    listed = ", ".join(titles[:-1]) + f" and {titles[-1]}" if len(titles) > 1 else "".join(titles)
    p = _Parser(prog=program_name(), description=f"Adversarial-search arcade: {listed} (and a game of your own from "
                "a file, game:PATH.py) against minimax, alpha-beta, expectimax and MCTS opponents. With no subcommand, "
                "opens the window.")
    sub = p.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")

    def game_arg(sp: argparse.ArgumentParser) -> None:
        add_game_argument(sp, game_names())  # the registry's, read when the parser is built

    sp = sub.add_parser("play", help="open the window straight into a game")
    game_arg(sp)
    sp.add_argument("--p1", default="human", help="agent for the first player (default: human)")
    sp.add_argument("--p2", default="medium", help="agent for the second player (default: medium)")
    sp.add_argument("--fullscreen", action="store_true", help="start in fullscreen")
    sp.set_defaults(func=_window, frames=None, screenshot=None, overlay=False)

    sp = sub.add_parser("demo", help="agents play each other in the window")
    game_arg(sp)
    sp.add_argument("--p1", default="medium", help="agent for the first player")
    sp.add_argument("--p2", default="medium", help="agent for the second player")
    sp.add_argument("--frames", type=limits.FRAMES.arg("--frames"), default=None, metavar="N",
                    help=limits.FRAMES.help("quit after N frames"))
    sp.add_argument("--screenshot", default=None, help="save the last frame to this PNG")
    sp.add_argument("--overlay", action="store_true", help="show the search-tree overlay")
    sp.set_defaults(func=_window, fullscreen=False)

    sp = sub.add_parser("moves", help="the legal moves, each with the position it leads to")
    game_arg(sp)
    sp.add_argument("--position", default=None, help="position in the game's notation (default: the start)")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.set_defaults(func=cmd_moves)

    sp = sub.add_parser("perft", help="count the positions exactly N plies down the legal-move tree")
    game_arg(sp)
    sp.add_argument("--depth", type=limits.PERFT_DEPTH.arg("--depth"), required=True, metavar="N",
                    help=limits.PERFT_DEPTH.help("the depth"))
    sp.add_argument("--position", default=None, help="position (default: the start)")
    sp.add_argument("--divide", action="store_true", help="count per root move")
    sp.add_argument("--count-terminal", action="store_true",
                    help="also count each game-over position above the depth once (tic-tac-toe depth 9: 255168 "
                         "games); by default such a position counts 0, as in chess and draughts perft")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.set_defaults(func=cmd_perft)

    sp = sub.add_parser("analyze", help="run one agent's search and report its choice")
    game_arg(sp)
    sp.add_argument("--position", default=None, help="position (default: the start)")
    sp.add_argument("--moves", default=None, metavar='"M1 M2 ..."',
                    help="moves played from the position first (the game so far: repetitions, draw counters)")
    sp.add_argument("--agent", required=True, help="NAME[:key=value,...], e.g. alphabeta:depth=6,time=1.5")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.add_argument("--quiet", action="store_true",
                    help="no progress lines on standard error (by default one per completed iteration)")
    sp.set_defaults(func=cmd_analyze)

    sp = sub.add_parser("bench", help="benchmark suites (ui, perft, search, pig, mcts; all when none is named)")
    sp.add_argument("suites", nargs="*", metavar="SUITE",
                    help="ui, perft, search, pig or mcts (several may be named; all when none is)")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.set_defaults(func=cmd_bench)

    for extra in EXTRA_COMMANDS:
        extra(sub)
    _agent_ranges_epilog(sub)
    return p


def _agent_ranges_epilog(sub: Any) -> None:
    """Every subcommand that takes an agent spec ends its ``--help`` with the agent keys' ranges (CLI.md: every
    number an agent key takes has a documented range in its ``--help``)."""
    agent_options = {"agent", "agents", "p1", "p2"}
    parsers = list(sub.choices.values())
    while parsers:
        sp = parsers.pop()
        parsers.extend(p for _, p in subcommands(sp))
        if any(act.dest in agent_options for act in arguments(sp)) and not sp.epilog:
            sp.epilog = limits.agent_ranges_text()


def subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    """``[(name, parser)]`` of each direct subcommand of ``parser`` (one built here, :func:`build_parser`), in the
    order its ``--help`` lists them (an alias is left out): from the record the parser keeps, as argparse offers
    no public walk.

    Raises:
        TypeError: ``parser`` was not built here (a plain ``argparse.ArgumentParser`` keeps no record).
    """
    found: list[tuple[str, argparse.ArgumentParser]] = []
    seen: set[int] = set()
    for table in _recorded(parser).subcommand_tables:
        for name, sub in table.items():
            if id(sub) not in seen:
                seen.add(id(sub))
                found.append((name, sub))
    return found


def arguments(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The arguments ``parser`` (one built here, :func:`build_parser`) itself defines (options and positionals,
    ``--help`` included), in the order they were added; its subcommands' own are reached through
    :func:`subcommands`.

    Raises:
        TypeError: ``parser`` was not built here.
    """
    return list(_recorded(parser).defined)


def _recorded(parser: argparse.ArgumentParser) -> _Parser:
    if not isinstance(parser, _Parser):
        raise TypeError(f"{parser.prog}: not a parser of gameplay.cli.main (only those record their arguments)")
    return parser


EXTRA_COMMANDS: list[Callable[[Any], None]] = []
"""Hooks that add subcommands (tree, match) from their own modules."""
COMMAND_MODULES: tuple[str, ...] = (
    "gameplay.cli.match", "gameplay.cli.tree", "gameplay.cli.compare", "gameplay.cli.tournament",
    "gameplay.cli.plot", "gameplay.cli.pdn", "gameplay.cli.shot", "gameplay.cli.check",
)
"""The modules that add subcommands (each has ``register(subparsers)``): the one list the parser and the
one-folder app's build (``packaging/arcade.spec``: what to bundle) read."""


def _register_extras() -> None:
    # No ``except ImportError`` here: a broken module must fail loudly, not make its subcommand vanish.
    for mod in COMMAND_MODULES:
        m = __import__(mod, fromlist=["register"])
        if m.register not in EXTRA_COMMANDS:
            EXTRA_COMMANDS.append(m.register)


def run(argv: Sequence[str]) -> int:
    """Run the command line; returns the exit code.

    With no arguments the window opens. Bad input prints one line and returns 2.
    """
    import os
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # keeps --json output (bench ui) clean
    _register_extras()
    parser = build_parser()
    try:
        if not argv:
            ns = argparse.Namespace(command=None, game=None, p1=None, p2=None, fullscreen=False, frames=None,
                                    screenshot=None, overlay=False)
            return _window(ns)
        a = parser.parse_args(list(argv))
        if a.command is None:
            return _window(a)
        shot = getattr(a, "screenshot", None)
        if shot is not None and not shot.lower().endswith(".png"):
            raise UsageError(f"--screenshot must name a .png file, got {quoted_path(shot)}")
        resolve_game_argument(a)
        if getattr(a, "game", None) is not None:
            try:
                a.game = normalize_name(a.game)
            except GameError as e:
                raise UsageError(str(e)) from None
        return int(a.func(a))
    except (UsageError, GameError, limits.OptionValueError) as e:
        sys.stderr.write(error_line(e) + "\n")
        return 2
    except KeyboardInterrupt as e:  # Ctrl+C: one line (on a line of its own after a progress bar), exit 130
        lead = "\n" if sys.stderr.isatty() else ""
        sys.stderr.write(f"{lead}{shortened(str(e)) if isinstance(e, Interrupted) else 'interrupted'}\n")
        return 130
    except BrokenPipeError:  # e.g. `main.py tree ... | head`: the reader left; not an error of ours
        import os
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
