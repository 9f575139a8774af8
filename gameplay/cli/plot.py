"""``main.py plot``: figures as files (``.png`` or ``.svg``), drawn by :mod:`gameplay.pictures.plots` (issue 15).

* ``plot growth GAME [--position P] [--max-depth D] --out FILE``: nodes and seconds against depth for minimax,
  alpha-beta without ordering, with ordering, with ordering and the table, and MCTS, beside every node of a
  uniform tree's iterations, its leaves ``b^d`` and ``b^(d/2)`` (:func:`ai.teaching.growth.measure_growth`,
  :func:`ai.teaching.growth.reference_curves`; a count is every node, inner ones too, and includes the shallower
  iterations, as ``analyze``'s).
* ``plot pig-policy [--agent AGENT] --out FILE``: the optimal hold boundary, the agent's difference from it
  (default ``expectimax``; ``none`` for no comparison) and the win probabilities
  (:func:`ai.pig.pig_policy_data.policy_map`).
* ``plot ladder [--data CSV] --out FILE``: the difficulty ladder as measured (default ``docs/figures/ladder.csv``,
  the README's tables).

``match ... --plot FILE`` uses :func:`write_match_plot`. Each figure's caption repeats the command that made it.
Bad input (a suffix other than ``.png``/``.svg``, an unknown game or agent) exits 2 with one line; nothing is
computed before the output name is checked. Without matplotlib the command says how to install it (exit 2).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any, Sequence

from gameplay.cli.progress import CountProgress, progress_bar
from gameplay.rules.limits import GROWTH_DEPTH
from gameplay.rules.registry import game_info, game_names, game_title


def _usage(msg: str) -> Exception:
    from gameplay.cli.common import UsageError
    return UsageError(msg)


def out_path(path: str, flag: str = "--out") -> Path:
    """The checked output path (``.png`` or ``.svg``), and matplotlib importable.

    Raises:
        UsageError: another suffix, or matplotlib missing.
    """
    from gameplay.pictures.plots import check_path, load_matplotlib
    try:
        p = check_path(path)
    except ValueError as e:
        raise _usage(f"{flag}: {e}") from None
    try:
        load_matplotlib()
    except ImportError:
        from gameplay.rules.extras import install_hint
        raise _usage(f"figures need matplotlib: {install_hint('figures')}") from None
    return p


def command_text(args: Sequence[str]) -> str:
    """``python main.py`` and the arguments, quoted for a shell (the figures' captions)."""
    return "python main.py " + " ".join(shlex.quote(a) for a in args)


def _written(p: Path) -> int:
    sys.stdout.write(f"wrote {p}\n")
    return 0


def cmd_growth(a: argparse.Namespace) -> int:
    """``plot growth``: measure (:func:`ai.teaching.growth.measure_growth`) and write the figure; exit 0."""
    from ai.agents.profiles import profile_for
    from ai.teaching.growth import measure_growth
    from gameplay.pictures.plots import growth_figure, save
    out = out_path(a.out)
    game = profile_for(a.game).game
    state = None if a.position is None else game.parse_position(a.position)

    # on a terminal: what is being measured now and the time so far (no total is known in advance)
    with progress_bar(None, "measuring", "", not a.quiet and sys.stderr.isatty(),
                      bar_format="{desc} [{elapsed}]") as bar:
        g = measure_growth(game.name, state, a.max_depth,
                           progress=lambda text: bar.set_description_str(f"measuring: {text}"))
    args = ["plot", "growth", game.name] + (["--position", a.position] if a.position else []) + (
        ["--max-depth", str(a.max_depth)] if a.max_depth is not None else []) + ["--out", a.out]
    start = "the start" if a.position is None else f"position {g.position}"
    subject = f"{game_title(game.name, 'noun')} from {start}"
    return _written(save(growth_figure(g, command=command_text(args), subject=subject), out))


def cmd_pig_policy(a: argparse.Namespace) -> int:
    """``plot pig-policy``: the policy map (:func:`ai.pig.pig_policy_data.policy_map`) as a figure; exit 0."""
    from ai.pig.pig_policy_data import policy_map
    from gameplay.pictures.plots import pig_policy_figure, save
    out = out_path(a.out)
    agent = None if a.agent == "none" else a.agent

    # on a terminal: the own scores (the map's rows) the agent has been asked about
    progress = CountProgress(f"asking {agent}: own score", "", not a.quiet and sys.stderr.isatty(),
                             bar_format="{desc} {n_fmt}/{total_fmt} {bar} [{elapsed}<{remaining}]")
    pm = policy_map(agent, progress=progress)  # the bar closes itself at the last row
    args = ["plot", "pig-policy"] + (["--agent", a.agent] if a.agent != "expectimax" else []) + ["--out", a.out]
    return _written(save(pig_policy_figure(pm, command=command_text(args)), out))


def cmd_ladder(a: argparse.Namespace) -> int:
    """``plot ladder``: the ladder CSV (:func:`gameplay.pictures.plots.read_ladder`) as a figure; exit 0."""
    from gameplay.pictures.plots import LADDER_CSV, ladder_figure, read_ladder, save
    out = out_path(a.out)
    data = Path(a.data) if a.data else LADDER_CSV
    try:
        rows = read_ladder(data)
    except (OSError, ValueError) as e:
        raise _usage(f"--data: cannot read the ladder: {e}") from None
    if not rows:
        raise _usage(f"--data: {data} has no rows")
    args = ["plot", "ladder"] + (["--data", a.data] if a.data else []) + ["--out", a.out]
    source = (f"Data: {data.name}, transcribed from README 'Difficulty ladder' (measured 2026-11-30; each row's "
              "match command is in the CSV and the README). Pig's expert is the optimal policy (0.5 by "
              "definition); tic-tac-toe's medium, hard and expert play perfectly.")
    return _written(save(ladder_figure(rows, command=command_text(args), source=source), out))


def match_plot_args(a: argparse.Namespace) -> list[str]:
    """The ``match`` arguments of the caption, rebuilt from the parsed options."""
    args = ["match", a.game, "--p1", a.p1, "--p2", a.p2]
    for flag, v in (("--games", a.games), ("--openings", a.openings), ("--position", a.position),
                    ("--jobs", a.jobs if a.jobs != 1 else None), ("--seed", a.seed)):
        if v is not None:
            args += [flag, str(v)]
    return args + ["--plot", a.plot]


def write_match_plot(a: argparse.Namespace, per_game: Sequence[float]) -> Path:
    """``match --plot FILE``: the running score and Elo of the first agent
    (:func:`gameplay.pictures.plots.match_figure`).

    Raises:
        UsageError: a bad file name (checked by :func:`out_path` before the match). OSError: cannot write.
    """
    from gameplay.pictures.plots import match_figure, save
    fig = match_figure(per_game, p1=a.p1, p2=a.p2, game=a.game, command=command_text(match_plot_args(a)))
    return save(fig, out_path(a.plot, "--plot"))


def register(sub: Any) -> None:
    """Add the ``plot`` subcommand and its three figures."""
    sp = sub.add_parser("plot", help="write a figure: tree growth, the Pig policy, the difficulty ladder")
    figs = sp.add_subparsers(dest="figure", metavar="FIGURE", required=True, parser_class=type(sp))
    g = figs.add_parser("growth", help="nodes and seconds against depth for each search, with b^d and b^(d/2)")
    from gameplay.cli.common import add_game_argument
    add_game_argument(g, [n for n in game_names() if game_info(n).growth])
    g.add_argument("--position", default=None, help="position (default: the start)")
    g.add_argument("--max-depth", type=GROWTH_DEPTH.arg("--max-depth"), default=None, metavar="D",
                   help=GROWTH_DEPTH.help("the deepest depth (default: 9 plies for tic-tac-toe, 7 for checkers)"))
    g.add_argument("--out", required=True, help="FILE.png or FILE.svg")
    g.add_argument("--quiet", action="store_true", help="no progress on standard error")
    g.set_defaults(func=cmd_growth)
    p = figs.add_parser("pig-policy", help="the optimal Pig hold boundary, an agent's differences, win chances")
    p.add_argument("--agent", default="expectimax", help="Pig agent compared with the optimal policy ('none': "
                   "no comparison; default: expectimax)")
    p.add_argument("--out", required=True, help="FILE.png or FILE.svg")
    p.add_argument("--quiet", action="store_true", help="no progress on standard error")
    p.set_defaults(func=cmd_pig_policy)
    ld = figs.add_parser("ladder", help="the difficulty ladder as measured (README), with 95%% intervals")
    ld.add_argument("--data", default=None, help="ladder CSV (default: docs/figures/ladder.csv)")
    ld.add_argument("--out", required=True, help="FILE.png or FILE.svg")
    ld.set_defaults(func=cmd_ladder)
