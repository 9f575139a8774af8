"""Checks of the settings file's values, one field at a time: each returns the value read or raises SettingsError.

Numbers may be written with or without quotes (``depth = 5`` or ``depth = "5"``): each is read through its range
in :mod:`gameplay.rules.limits` exactly as a ``.toml`` agent's and a spec's ``key=value`` are.
"""

from __future__ import annotations

from typing import Any

from gameplay.rules import limits
from gameplay.rules.base import quoted

THEMES: tuple[str, ...] = ("normal", "high_contrast")
MAX_DEPTH = int(limits.SEARCH_DEPTH.hi)
"""Largest depth limit (plies) accepted in the file (an agent's, :data:`gameplay.rules.limits.SEARCH_DEPTH`)."""
MAX_TIME_S = limits.MOVE_TIME.hi
"""Largest time per move (seconds) accepted in the file (an agent's, :data:`gameplay.rules.limits.MOVE_TIME`)."""
ANIMATION_RANGE = (limits.ANIMATION_SPEED.lo, limits.ANIMATION_SPEED.hi)
UI_SCALE_RANGE = (limits.UI_SCALE.lo, limits.UI_SCALE.hi)
WINDOW_MIN = (int(limits.WINDOW_WIDTH.lo), int(limits.WINDOW_HEIGHT.lo))
"""The smallest window (pixels) the App allows, and the smallest size accepted in the file."""
WINDOW_MAX = int(limits.WINDOW_WIDTH.hi)
"""The largest width or height (pixels) accepted in the file."""


class SettingsError(ValueError):
    """One or more settings are invalid.

    Attributes:
        problems: ``(field, message)`` pairs, the field as a dotted path (``theme``, ``games.pig.p2.depth``).
    """

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{f}: {m}" for f, m in problems))


def _fail(message: str) -> SettingsError:
    return SettingsError([("", message)])


def check_bool(v: Any) -> bool:
    """A TOML boolean.

    Raises:
        SettingsError: not ``true`` or ``false``.
    """
    if not isinstance(v, bool):
        raise _fail(f"expected true or false, got {quoted(v)}")
    return v


def _read(rng: limits.Range, v: Any, none: str = "") -> Any:
    """``v`` read in the range ``rng`` (:mod:`gameplay.rules.limits`) as a ``.toml`` agent's value is read: a
    number, or a number written in quotes (``"5"``); with ``none`` (what 0 means, e.g. ``no limit``), 0 is
    accepted too.

    Raises:
        SettingsError: text that is no number, a boolean, nan or an infinity, or a number outside the range (one
            line).
    """
    if none:
        try:
            return limits.Range(0, 0, whole=rng.whole).read(v)
        except limits.RangeError:
            pass
    try:
        return rng.read(v)
    except limits.RangeError:
        pass
    raise _fail(f"expected {f'0 ({none}) or ' if none else ''}{rng.describe()}, got {limits.shown(v)}")


def _check_number(v: Any, rng: limits.Range) -> float:
    return float(_read(rng, v))


def check_animation_speed(v: Any) -> float:
    """An animation speed multiplier in :data:`ANIMATION_RANGE` (0 = off).

    Raises:
        SettingsError: not a number in range.
    """
    return _check_number(v, limits.ANIMATION_SPEED)


def check_ui_scale(v: Any) -> float:
    """A UI scale factor in :data:`UI_SCALE_RANGE`.

    Raises:
        SettingsError: not a number in range.
    """
    return _check_number(v, limits.UI_SCALE)


def check_window_size(v: Any) -> tuple[int, int]:
    """A window size: two whole numbers ``[width, height]`` in pixels, from :data:`WINDOW_MIN` to
    :data:`WINDOW_MAX`.

    Raises:
        SettingsError: not a list of two whole numbers in range.
    """
    ok = (isinstance(v, (list, tuple)) and len(v) == 2
          and all(n in rng for n, rng in zip(v, (limits.WINDOW_WIDTH, limits.WINDOW_HEIGHT))))
    if not ok:
        raise _fail(f"expected [width, height] in pixels, at least {WINDOW_MIN[0]} x {WINDOW_MIN[1]} and at most "
                    f"{WINDOW_MAX:,} each, got {limits.shown(v)}")
    return int(limits.WINDOW_WIDTH.read(v[0])), int(limits.WINDOW_HEIGHT.read(v[1]))


def choice(options: tuple[str, ...]) -> Any:
    """The check of a name among ``options``: it returns the name, or raises :class:`SettingsError` (one line)."""
    def check(v: Any) -> str:
        if not isinstance(v, str) or v not in options:
            raise _fail(f"expected one of {', '.join(options)}, got {quoted(v)}")
        return v
    return check


check_theme = choice(THEMES)
"""A theme name (:data:`THEMES`); raises :class:`SettingsError` otherwise."""


def check_depth(v: Any) -> int | None:
    """A depth limit in plies, 1 to :data:`MAX_DEPTH`; 0 (the file's "no limit") gives ``None``.

    Raises:
        SettingsError: not a whole number in range.
    """
    return int(_read(limits.SEARCH_DEPTH, v, "no limit")) or None


def check_time(v: Any) -> float | None:
    """Seconds per move, at most :data:`MAX_TIME_S`; 0 (the file's "no limit") gives ``None``.

    Raises:
        SettingsError: not a number in range.
    """
    return float(_read(limits.MOVE_TIME, v, "no limit")) or None


def check_file(v: Any) -> str:
    """The path of an agent file: a non-empty string ending in ``.py`` (whether it exists is checked when the
    side's agent is built).

    Raises:
        SettingsError: not a string naming a ``.py`` file.
    """
    if not isinstance(v, str) or not v.strip() or not v.strip().lower().endswith(".py"):
        raise _fail(f"expected the path of a .py agent file, got {quoted(v)}")
    return v.strip()


def parse_weight(text: Any) -> float:
    """One evaluation weight from the file or a text field (``"1.5"``, ``-3``).

    Raises:
        SettingsError: not a number from -1e9 to 1e9 (:data:`gameplay.rules.limits.EVAL_WEIGHT`).
    """
    try:
        return float(limits.EVAL_WEIGHT.read(text))
    except limits.RangeError as e:
        raise _fail(str(e)) from None
