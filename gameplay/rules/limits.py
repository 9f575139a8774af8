"""The range of every number the program reads: one named :class:`Range` per kind of number, and one check.

Every count, depth, time, size and seed taken from the command line, an agent spec, an agent or settings file, a
saved game or a tree file is read through one of the ranges below, so the same number has the same bounds and
the same one-line refusal everywhere (``../shared/CLI.md``: "Every number an option or an agent key takes has a
documented range ...; outside it, the input is bad input (exit 2, one line), checked before any work starts").

* :meth:`Range.read` reads a value as given (the text of a spec or an option, or a number decoded from TOML,
  JSON or a Python literal) and returns it as ``int`` or ``float``, or raises :class:`RangeError` naming what was
  read, the range and the value (quoted to at most ~80 characters);
* :meth:`Range.arg` is the same check as an ``argparse`` ``type=`` (refused: :class:`OptionValueError`, which the
  command line prints as one line, exit 2);
* :meth:`Range.text` is the range as ``--help`` and the README print it (``0-30 plies``).

Rules shared by every range: ``nan`` and infinities are refused everywhere; a whole-number range refuses
fractions, booleans and text that is not a whole number; text longer than :data:`MAX_NUMBER_TEXT` characters is
refused before it is converted (a 100 KB string costs nothing). The bounds are generous (far beyond any use the
program was made for) but finite, each with its reason in its docstring, so a typo or an extra digit is refused
at once instead of running until killed, filling memory or overflowing the stack.

Standard library only (the rules layer): imported by the rules, ``ai`` and the command line alike.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Callable

from gameplay.rules.base import GameError, quoted

__all__ = ["RangeError", "OptionValueError", "Range", "NumberArg", "MAX_NUMBER_TEXT", "shown"]

MAX_NUMBER_TEXT = 64
"""Longest text read as a number (characters); longer text is refused unread. The largest number of any range,
``2**63 - 1``, has 19 digits."""

_INT_TEXT = re.compile(r"[+-]?\d[\d_]*", re.ASCII)  # ASCII only: int() reads any script's digits ("٣" is 3)
_FLOAT_TEXT = re.compile(r"[+-]?(\d[\d_]*\.?\d*|\.\d+)([eE][+-]?\d+)?", re.ASCII)


class RangeError(GameError):
    """A number outside its range, or not a number of the kind expected (one line: what, the range, the value)."""


def _fmt(x: float) -> str:
    """A bound as the messages print it: ``3,600``, ``0.6``, ``1e12``, ``9,223,372,036,854,775,807``."""
    if isinstance(x, int) or float(x).is_integer():
        n = int(x)
        if abs(n) >= 10 ** 9 and n % 10 ** 9 == 0:
            mantissa, exponent = f"{float(n):e}".split("e")
            return f"{mantissa.rstrip('0').rstrip('.')}e{int(exponent)}"
        return f"{n:,}"
    return f"{x:g}"


@dataclass(frozen=True)
class Range:
    """The accepted values of one kind of number: ``lo``-``hi`` inclusive (``lo`` excluded when ``lo_open``).

    Attributes:
        lo, hi: the bounds, finite.
        unit: the unit in words, plural (``plies``, ``games``, ``seconds``; empty for a pure number).
        whole: True for whole numbers (``int``), False for real numbers (``float``).
        lo_open: True when ``lo`` itself is refused (a time limit above 0).
    """

    lo: float
    hi: float
    unit: str = ""
    whole: bool = True
    lo_open: bool = False

    def text(self) -> str:
        """The range as ``--help`` and the README print it: ``0-30 plies``, ``above 0, at most 3,600 seconds``."""
        unit = f" {self.unit}" if self.unit else ""
        if self.lo_open:
            return f"above {_fmt(self.lo)}, at most {_fmt(self.hi)}{unit}"
        if self.lo < 0:
            return f"{_fmt(self.lo)} to {_fmt(self.hi)}{unit}"
        if self.hi == 2 ** 63 - 1:
            return f"{_fmt(self.lo)}-{_fmt(self.hi)} (2^63 - 1){unit}"
        return f"{_fmt(self.lo)}-{_fmt(self.hi)}{unit}"

    def describe(self) -> str:
        """What is expected, in words: ``a whole number of plies from 0 to 30``."""
        kind = "a whole number" if self.whole else "a number"
        of = f" of {self.unit}" if self.unit else ""
        if self.lo_open:
            return f"{kind}{of} above {_fmt(self.lo)} and at most {_fmt(self.hi)}"
        return f"{kind}{of} from {_fmt(self.lo)} to {_fmt(self.hi)}"

    def __contains__(self, value: object) -> bool:
        try:
            self.read(value)
        except RangeError:
            return False
        return True

    def read(self, value: Any, what: str = "") -> Any:
        """``value`` checked: an ``int`` for a whole-number range (an integral float such as ``4.0`` from TOML is
        accepted), else a ``float``.

        Args:
            value: text (an option or a spec's ``key=value``) or a number decoded from a file.
            what: the name in the message (``--depth``, ``agent setting depth``); empty for the argparse form
                (``expected ..., got ...``, argparse naming the option).

        Raises:
            RangeError: not a number of the expected kind, ``nan`` or infinite, or outside the range.
        """
        number = self._number(value)
        if number is None or not self._inside(number):
            head = f"{what} must be" if what else "expected"
            raise RangeError(f"{head} {self.describe()}, got {shown(value)}")
        return number

    def _inside(self, x: float) -> bool:
        above = x > self.lo if self.lo_open else x >= self.lo
        return above and x <= self.hi

    def _number(self, value: Any) -> int | float | None:
        """The value as a number of the range's kind, or ``None`` when it is not one."""
        if isinstance(value, bool):
            return None
        if isinstance(value, str):
            t = value.strip()
            if len(t) > MAX_NUMBER_TEXT:
                return None
            if self.whole:
                return int(t) if _INT_TEXT.fullmatch(t) and "__" not in t and not t.endswith("_") else None
            if t.lower() in ("nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"):
                return None
            if not _FLOAT_TEXT.fullmatch(t):
                return None
            value = float(t)
        if isinstance(value, int):
            return value if self.whole else (float(value) if abs(value) <= 1e300 else None)
        if isinstance(value, float):
            if not math.isfinite(value):
                return None
            if self.whole:
                return int(value) if value.is_integer() else None
            return value
        return None

    def arg(self, option: str) -> NumberArg:
        """This range as the ``argparse`` ``type=`` of ``option`` (``--depth``): the text checked, the number
        returned, a refusal raised as :class:`OptionValueError` naming the option."""
        return NumberArg(self, option)

    def help(self, text: str) -> str:
        """An option's ``--help`` text with the range appended: ``the depth; range: 0-30 plies``."""
        return f"{text}; range: {self.text()}"


def shown(value: Any) -> str:
    """A refused value for the message: quoted and cut (:func:`gameplay.rules.base.quoted`); a number too long to
    print in full (``10**5000``) is named by its size."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** MAX_NUMBER_TEXT:
        return f"a number of about {len(format(value, 'x')) * 4} bits"
    if isinstance(value, str):
        return quoted(value.strip() or value)
    try:
        return quoted(value)
    except ValueError:  # a list holding such a number: Python refuses to print it
        return f"a {type(value).__name__} holding a number thousands of digits long"


class OptionValueError(Exception):
    """An option's number refused by its :class:`NumberArg`. Deliberately not a ``ValueError``: ``argparse`` passes
    it on unchanged, and the command line prints it as its one-line bad-input error (``error: --depth must be a
    whole number of plies from 0 to 30, got '2000'``, exit 2) before any work starts."""


class NumberArg:
    """An ``argparse`` ``type=`` reading one number of a :class:`Range` for the option ``option``.

    ``range`` lets the tests find every numeric option of the parser; ``parse`` replaces the plain reading for an
    option with a form of its own (``--size WxH``, ``--step N|end``), raising :class:`RangeError`.
    """

    def __init__(self, rng: Range, option: str, parse: Callable[[str], Any] | None = None) -> None:
        self.range = rng
        self.option = option
        self._parse = parse
        self.__name__ = "whole number" if rng.whole else "number"

    def __call__(self, text: str) -> Any:
        try:
            if self._parse is not None:
                return self._parse(text)
            return self.range.read(text, self.option)
        except RangeError as e:
            raise OptionValueError(str(e)) from None

    def __repr__(self) -> str:
        return f"NumberArg({self.option!r}, {self.range.text()!r})"


# ----- the ranges ---------------------------------------------------------------------------------------------
# Searches and games

SEARCH_DEPTH = Range(1, 64, "plies")
"""An agent's depth limit (``depth=``, the settings file's ``depth``, a saved side's): 1-64 plies. Tic-tac-toe
ends in 9 plies, a checkers search grows about fourfold a ply (``plot growth``), Pig's expectimax counts decisions
and caps itself at 64; the search's recursion stays far inside Python's stack."""
PERFT_DEPTH = Range(0, 30, "plies")
"""``perft --depth``: 0-30 plies (0 counts the root, 1). Checkers' published counts stop near 28 plies (years of
computing), tic-tac-toe's tree ends at 9; 30 keeps the walk's recursion far inside Python's stack."""
GROWTH_DEPTH = Range(1, 30, "plies")
"""``plot growth --max-depth``: 1-30 plies. Every series also stops at its node budget (3 million nodes), and
b^d for the branching factors here stays a finite float to 30 plies (999 overflowed the curve)."""
MOVE_TIME = Range(0.001, 3600, "seconds", whole=False)
"""A time limit per move (``time=``, ``--time``): 0.001-3,600 seconds. An hour a move is beyond any game in a class
or a tournament; ``1e308`` would wait forever; a millisecond is the least a search can be given (the clock's
checks and a move's bookkeeping take about that), and ``1e-320`` was shown as "9.99989e-321 s/move"."""
SIMULATIONS = Range(1, 50_000_000)
"""``mcts`` ``simulations=``: 1-50,000,000 (about 20 minutes of tic-tac-toe; ``time=`` bounds longer searches)."""
UCB_C = Range(0, 100, whole=False)
"""``mcts`` ``c=`` (UCB1's exploration constant): 0-100. Values used in practice lie within 0-5 (sqrt 2 by
default); beyond 100 the tree search is a uniform sampler and larger numbers change nothing."""
PLAYOUT_PLIES = Range(0, 1000, "plies")
"""``mcts`` ``playout=eval:N``: N random plies before the evaluation, 0-1,000 (a game here ends long before: the
checkers referee's limit is 2,000 plies, tic-tac-toe's 9)."""
MAX_PLIES = 2000
"""The default move limit (``match --max-plies``, ``tournament --max-plies``, ``ai.agents.arena.ArenaTask``):
plies, chance outcomes counted, after which a game still going is stopped as a draw, termination ``move limit``."""
MATCH_PLIES = Range(1, 1_000_000, "plies")
"""``match --max-plies`` and ``tournament --max-plies``: a game still going after this many plies (chance outcomes
counted) stops as a draw, termination ``move limit`` (default :data:`MAX_PLIES`: a checkers game between the agents
ends long before; a game file that never ends would otherwise never stop). A million plies of the fastest game take
minutes, not a lifetime."""
HOLD_AT = Range(1, 1000, "points")
"""Pig's ``optimal`` agent ``weights=holdN``: hold once the turn total reaches N, 1-1,000 points (the target is
100: anything above it means "never hold")."""
SEED = Range(0, 2 ** 63 - 1)
"""A seed (``seed=``, ``--seed``): 0-9,223,372,036,854,775,807 (2^63 - 1, the largest seed a 64-bit generator
state takes; every seed of the README fits)."""
EVAL_WEIGHT = Range(-1e9, 1e9, whole=False)
"""An evaluation weight (an agent file's ``[weights]``, the settings file's): -1e9 to 1e9. With features counted
in pieces and squares a weighted sum stays far below the search's scores of proven wins (``ai.kernel.core``)."""

AGENT_KEY_RANGES: dict[str, Range] = {"depth": SEARCH_DEPTH, "time": MOVE_TIME, "simulations": SIMULATIONS,
                                      "c": UCB_C, "seed": SEED}
"""The range of each numeric key of an agent spec (``NAME:key=value,...``), an agent file's ``SETTINGS`` or a
``.toml`` agent (``ai.agents.agents``)."""


def agent_ranges_text() -> str:
    """The agent keys' ranges in one sentence, for ``--help``: ``Agent keys: depth 1-64 plies, time above 0, at
    most 3,600 seconds, ...``."""
    parts = [f"{k} {r.text()}" for k, r in AGENT_KEY_RANGES.items()]
    parts.insert(4, f"playout=eval:N with N {PLAYOUT_PLIES.text()}")
    return ("Agent keys take numbers in these ranges: " + "; ".join(parts)
            + f"; evaluation weights {EVAL_WEIGHT.text()}; Pig's optimal weights=holdN with N {HOLD_AT.text()}. "
            "Outside them the agent is refused before any search.")


PIG_POINTS = Range(0, 1_000_000, "points")
"""A Pig position's scores and turn total (``S1,S2,T,P``): 0-1,000,000 points, far beyond any game to 100 (a
finished game's score is at most the target plus one turn's total)."""

# Matches, tournaments and the window

MATCH_GAMES = Range(1, 100_000, "games")
"""``match --games``: 1-100,000. The report keeps every game (its moves, for the PDN file and ``--json``): about
1 KB each, measured, so 100,000 games stay near 100 MB; 10^20 filled 2 GB in 16 s before a game was played."""
JOBS = Range(1, 256, "processes")
"""``--jobs`` (match, tournament): 1-256 processes at once (more than the cores of any machine this runs on;
each is a Python process of some tens of MB)."""
GAMES_PER_PAIR = Range(1, 10_000, "games")
"""``tournament --games-per-pair``: 1-10,000 (each game is a line of the journal and a file in its games folder;
a class tournament plays tens)."""
SWISS_ROUNDS = Range(1, 1000, "rounds")
"""``tournament --rounds`` (Swiss): 1-1,000 (a Swiss tournament plays about log2 of the agents; more rounds than
agents only repeat pairings)."""
FRAMES = Range(1, 10_000_000, "frames")
"""``demo --frames``: 1-10,000,000 (about 46 hours of the window at 60 frames a second)."""
SHOT_WIDTH = Range(640, 7680, "pixels")
"""``shot --size`` width: the window's own minimum, 640, up to 8K, 7,680."""
SHOT_HEIGHT = Range(480, 4320, "pixels")
"""``shot --size`` height: the window's own minimum, 480, up to 8K, 4,320."""
SHOT_STEP = Range(1, 10_000_000, "steps")
"""``shot --step``: 1-10,000,000 (a step past the tree's last is refused with the tree's own count)."""
ZOOM = Range(0.6, 2.0, whole=False)
"""``shot --zoom`` (the interface size, Ctrl+plus / Ctrl+minus): 0.6-2.0, the window's zoom steps."""

# Files

TREE_VALUE = Range(-1e12, 1e12, whole=False)
"""A Tree Lab leaf's value: -1e12 to 1e12, far beyond any textbook utility, every whole number in it exact as a
float, and below the search's scores of proven wins (``ai.kernel.core``) so a leaf never reads as a proof."""
TREE_LEVELS = 64
"""Deepest explicit tree (levels below the root): far beyond any textbook tree, well inside Python's stack."""
TREE_NODES = 200_000
"""Most nodes in an explicit tree (about 2 MB of JSON; the Tree Lab draws a few hundred)."""
FILE_BYTES = 16 * 1024 * 1024
"""Largest tree, agent (``.toml``) or saved-game file read (16 MB): a tree at :data:`TREE_NODES` and a saved
game at :data:`SAVE_PLIES` take a few MB; a larger file is refused before it is read."""
SAVE_PLIES = 100_000
"""Most moves in a saved game (a checkers game is drawn by the 80-ply rule, the referee stops at 2,000 plies;
Pig's longest games run to a few thousand rolls)."""
UI_SCALE = Range(0.5, 3.0, whole=False)
"""The settings file's ``ui_scale``: 0.5-3.0."""
ANIMATION_SPEED = Range(0.0, 4.0, whole=False)
"""The settings file's ``animation_speed`` multiplier: 0 (off) to 4."""
WINDOW_WIDTH = Range(640, 16384, "pixels")
"""The settings file's ``window_size`` width: the window's minimum, 640, to 16,384."""
WINDOW_HEIGHT = Range(480, 16384, "pixels")
"""The settings file's ``window_size`` height: the window's minimum, 480, to 16,384."""


def check_file_size(size: int, what: str) -> None:
    """Refuse a file larger than :data:`FILE_BYTES` before reading it.

    Raises:
        RangeError: ``size`` (bytes) is above the limit; the message names ``what`` (e.g. ``tree file 'x.json'``).
    """
    if size > FILE_BYTES:
        raise RangeError(f"{what} is too large: {size / 1e6:,.1f} MB; at most {FILE_BYTES // (1024 * 1024)} MB")
