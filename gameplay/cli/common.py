"""What every subcommand of the command line shares: the errors it prints (one line, exit 2 or 130), the JSON
output, and reading a game, a position and its moves from the arguments. Imports ``gameplay.rules`` only, so a
subcommand module imports this, never the parser (``gameplay.cli.main``) that imports the subcommands."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from gameplay.rules.base import GameError, shortened
from gameplay.rules.registry import games, make_game

SETUP_HINT = "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/arcade"
"""The README's Play command, run in the project folder (what a player needs: the window and every command)."""


class UsageError(Exception):
    """Bad command-line input: printed as one line, exit code 2."""


class ArgumentsError(UsageError):
    """argparse's own usage error (``main.py analyze: the following arguments are required: --agent``): printed
    in argparse's form, the program name first, rather than with the ``error:`` prefix of every other error."""


class Interrupted(KeyboardInterrupt):
    """Ctrl+C, with the one line that says what was kept (``interrupted after 37 of 1,000 games; nothing was
    saved``): a command catches ``KeyboardInterrupt`` where it knows that and raises this; :func:`run` prints the
    line and exits 130."""


def add_game_argument(sp: Any, names: Sequence[str], *, optional: bool = False, extra: str = "") -> None:
    """Add GAME (``names``, or ``game:PATH.py``) and ``--game-file PATH`` (the same as ``game:PATH``) to a
    subcommand's parser; :func:`resolve_game_argument` checks that one of them is given (unless ``optional``)."""
    listed = ", ".join(names)
    sp.add_argument("game", nargs="?", metavar="GAME", default=None,
                    help=f"{listed}, or game:PATH.py (a game file){extra}")
    sp.add_argument("--game-file", default=None, metavar="PATH",
                    help="a game written in a Python file against the course's interface (instead of GAME)")
    sp.set_defaults(game_prog=None if optional else sp.prog)


def openings_help(how: str) -> str:
    """The ``--openings`` help: every registered game's decks (``GameInfo.openings``) as ``'NAME': TITLE (game)``,
    then ``how`` they are played (``"'ballots': ACF ballots (checkers); each twice, colours swapped"``); no deck is
    loaded."""
    decks = [f"'{d.name}': {d.title} ({g.name})" for g in games() for d in g.openings]
    return "; ".join([*decks, how]) if decks else f"a game's opening deck ({how}); no game has one"


def resolve_game_argument(a: Any) -> None:
    """Turn ``--game-file PATH`` into GAME ``game:PATH`` on parsed arguments ``a``.

    Raises:
        UsageError: both GAME and ``--game-file`` given.
        ArgumentsError: neither, where the subcommand needs a game.
    """
    path = getattr(a, "game_file", None)
    if path is not None:
        if getattr(a, "game", None) is not None:
            raise UsageError("give GAME or --game-file PATH, not both")
        a.game = "game:" + path
    prog = getattr(a, "game_prog", None)
    if prog and getattr(a, "game", None) is None:
        raise ArgumentsError(f"{prog}: the following arguments are required: GAME (or --game-file PATH) "
                             f"(see '{prog} --help')")


def error_line(e: BaseException) -> str:
    """The one line a bad-input error prints on standard error: ``error: ...`` (argparse's usage errors too:
    ``error: main.py perft: the following arguments are required: GAME (see 'main.py perft --help')``)."""
    msg = shortened(str(e))
    return msg if msg.startswith("error: ") else f"error: {msg}"


def emit(obj: dict[str, Any]) -> None:
    """Print ``obj`` as one line of JSON on standard output."""
    sys.stdout.write(json.dumps(obj) + "\n")


def game_named(name: str) -> Any:
    """The game object for a registered name (``GameError`` for an unknown one)."""
    return make_game(name)


def state_at(game: Any, position: str | None) -> Any:
    """The initial state, or the state ``--position`` writes (``GameError`` when it is malformed)."""
    return game.initial_state() if position is None else game.parse_position(position)


def play_moves(game: Any, state: Any, moves: str | None) -> Any:
    """``state`` after the moves of ``--moves`` (the game so far, so its history reaches the search).

    Raises:
        GameError: a move is malformed or illegal (the message names it and its number).
    """
    for i, text in enumerate((moves or "").split(), 1):
        try:
            state = game.result(state, game.parse_move(state, text))
        except GameError as e:
            raise GameError(f"--moves: move {i} ({text[:40]!r}): {e}") from None
    return state
