"""The arcade's user settings: the model, its validation, and its TOML file (pure Python, no pygame).

The window keeps one :class:`Settings` object as ``App.settings`` (``gameplay.ui.app``); code that wants a
setting reads it there, and code that changes one calls ``App.save_settings()`` (which writes the file and tells
the listeners in ``App.settings_listeners``). The fields other parts of the window read:

* ``sound: bool`` -- play sounds (default ``True``).
* ``animation_speed: float`` -- multiplier of animation speed; ``0.0`` means animations off (default ``1.0``,
  allowed ``0.0`` to ``4.0``).
* ``theme: str`` -- ``"normal"`` or ``"high_contrast"`` (default ``"normal"``).
* ``overlay: bool`` -- open the search-tree overlay after each AI decision of a match (default ``False``).
* ``board_numbers: bool`` -- draw square numbers on boards that have them (checkers' PDN numbers; default
  ``True``).
* ``ui_scale: float`` -- scale factor of the whole interface (projector mode; default ``1.0``, allowed ``0.5``
  to ``3.0``).
* ``window_size: tuple[int, int] | None`` -- the last windowed size (width, height in pixels) the window was closed
  at; it opens at it again, shrunk to fit the display (``gameplay.ui.projector.window_size_for``). ``None`` (not in
  the file): the default size. Allowed :data:`WINDOW_MIN` to :data:`WINDOW_MAX` in each direction.
* ``fullscreen: bool`` -- the window was closed fullscreen: it opens fullscreen again (default ``False``).
* ``games: dict[str, GameSettings]`` -- per game (``tictactoe``, ``checkers``, ``pig``) the two sides,
  ``games[name].sides[0]`` for the first player and ``[1]`` for the second, each a :class:`SideSettings`:
  ``agent`` (``human``, ``random``, a difficulty preset ``beginner`` .. ``expert``, ``custom``, or ``file``: an
  agent file, its path in ``file``, played from a worker process of its own: ``ai.agent_file``) and, for
  ``custom``, ``algorithm``, ``depth`` (plies or ``None``; 0 in the file), ``time`` (seconds per move or
  ``None``; 0 in the file), ``weights`` (feature -> weight, or ``None`` for the game's ``default`` preset);
  ``prune`` (``ge``/``gt``, the alpha-beta cutoff test) applies to presets and custom agents alike;
  ``enhancements`` (custom alpha-beta only, default ``True``): move ordering, the transposition table and
  principal-variation search (and checkers' capture search at the depth limit); ``False`` gives AIMA's
  ALPHA-BETA-SEARCH exactly (spec ``ordering=off,tt=off,quiescence=off``: the values equal minimax's).
* ``extra: dict[str, Any]`` -- top-level keys of the file this version does not know; kept and written back, as
  are the unknown keys of a game's table (``GameSettings.extra``, e.g. ``sides = 3`` in ``[games.checkers]``), of
  a side's (``SideSettings.extra``) and the names of a side's weights that are no feature of the game
  (``SideSettings.weights_extra``): nothing written in the file is lost (Defaults in the settings panel keeps them
  too: :meth:`Settings.defaults_keeping_unknown`), and :attr:`LoadResult.unknown` names them (the title screen
  says they are not used).

Numbers may be written with or without quotes (``depth = 5`` or ``depth = "5"``): each is read through its range
in :mod:`gameplay.rules.limits` exactly as a ``.toml`` agent's and a spec's ``key=value`` are.

The file is ``settings.toml`` in :func:`config_dir` (``platformdirs.user_config_dir("adversarial-arcade")``, or
the folder named by the environment variable ``ARCADE_CONFIG_DIR``). It is read with :mod:`tomllib` and written
with ``tomli_w`` atomically (a temporary file in the same folder, then :func:`os.replace`). :func:`load_settings`
never raises for a bad file: an unreadable or corrupt file gives the defaults, an invalid value gives that field's
default (the others are kept); either way a copy of the bad file is kept as ``settings.toml.bad-YYYYmmdd-HHMMSS``
and the one-line :attr:`LoadResult.message` says so (the title screen shows it). Keys this version does not know
are kept (and written back) and named in the message too.

:func:`build_side_agent` turns a side into the agent of a match through ``ai.agents`` (``agent_settings`` built
from the side's fields, then ``build_agent``; custom weights become ``AgentSettings.custom_weights``); ``ai`` is
imported only when called.
"""

from __future__ import annotations

import copy
import os
import shutil
import time
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gameplay.rules import limits
from gameplay.rules.base import quoted
from gameplay.rules.registry import game_info, game_names
from gameplay.rules.textfile import NotTextError, read_text_file

if TYPE_CHECKING:
    from ai.agent_base import Agent, AgentSettings

SCHEMA_VERSION = 1
"""Version number written to the file (``version = 1``)."""
APP_NAME = "adversarial-arcade"
"""Name of the folder under the user's config directory."""
CONFIG_ENV = "ARCADE_CONFIG_DIR"
"""Environment variable that overrides the config folder (tests point it at a temporary folder)."""
FILE_NAME = "settings.toml"

PRESETS: tuple[str, ...] = ("beginner", "easy", "medium", "hard", "expert")
AGENT_CHOICES: tuple[str, ...] = ("human",) + PRESETS + ("random", "custom", "file")
"""Values of :attr:`SideSettings.agent`."""
CUSTOM_ALGORITHMS: tuple[str, ...] = ("minimax", "alphabeta", "expectimax", "mcts", "optimal", "random")
"""Algorithms a custom side may name (each game accepts a subset: ``ai.profiles``)."""
THEMES: tuple[str, ...] = ("normal", "high_contrast")
PRUNE_RULES: tuple[str, ...] = ("ge", "gt")
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

def custom_defaults(game: str) -> dict[str, Any]:
    """The custom agent a side of ``game`` starts from before it is edited: ``{"algorithm", "depth", "time"}``
    from the game's registry record (tic-tac-toe: a full search; checkers: alpha-beta, depth 6, 1 s).

    Raises:
        UnknownGameError: not a registered game.
    """
    info = game_info(game)
    return {"algorithm": info.custom_algorithm, "depth": info.custom_depth, "time": info.custom_time}


class SettingsError(ValueError):
    """One or more settings are invalid.

    Attributes:
        problems: ``(field, message)`` pairs, the field as a dotted path (``theme``, ``games.pig.p2.depth``).
    """

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{f}: {m}" for f, m in problems))


# ----- the model ----------------------------------------------------------------------------------------------------
@dataclass
class SideSettings:
    """Who plays one side of a game, and how."""

    agent: str = "human"
    """``human``, ``random``, a preset (``beginner`` .. ``expert``), ``custom`` or ``file``."""
    algorithm: str = "alphabeta"
    """Custom only: ``minimax``, ``alphabeta``, ``expectimax``, ``optimal`` or ``random``."""
    depth: int | None = None
    """Custom only: depth limit in plies; ``None``: as deep as the time allows (or to the end)."""
    time: float | None = None
    """Custom only: seconds per move; ``None``: no time limit."""
    prune: str = "ge"
    """Alpha-beta cutoff test: ``ge`` (alpha >= beta, AIMA) or ``gt`` (strict)."""
    weights: dict[str, float] | None = None
    """Custom only: evaluation feature weights; ``None``: the game's ``default`` weight preset."""
    enhancements: bool = True
    """Custom alpha-beta only: search enhancements on (move ordering, transposition table, principal-variation
    search, and in checkers the capture search at the depth limit). ``False``: AIMA's ALPHA-BETA-SEARCH exactly,
    each move searched once in the game's order, its values equal to minimax's (see :func:`side_spec`)."""
    file: str | None = None
    """The agent file (``.py``) a ``file`` side plays (kept when the side changes, so it can be chosen again)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Keys of the side's table this version does not know, written back unchanged."""
    weights_extra: dict[str, Any] = field(default_factory=dict)
    """Names in the side's ``weights`` table that are no feature of the game (a misspelt ``man`` for checkers'
    ``men``): not used, written back unchanged (named on load with the game's features)."""

    @property
    def is_human(self) -> bool:
        """True when a person plays this side."""
        return self.agent == "human"


def default_side(game: str, player: int) -> SideSettings:
    """The default settings of side ``player`` (0 or 1) of ``game``: who plays it (the record's ``default_sides``)
    and the custom fields (:func:`custom_defaults`)."""
    agent = game_info(game).default_sides[player]
    return SideSettings(agent=agent, **custom_defaults(game))


@dataclass
class GameSettings:
    """The two sides of one game."""

    sides: list[SideSettings]
    """``sides[0]`` moves first (X, Black, player 1), ``sides[1]`` second."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Keys of the game's table other than ``p1`` and ``p2`` (this version does not know them), written back
    unchanged."""


def default_game(game: str) -> GameSettings:
    """The default sides of ``game``."""
    return GameSettings([default_side(game, 0), default_side(game, 1)])


@dataclass
class Settings:
    """Every user setting (see the module docstring for who reads which field)."""

    sound: bool = True
    """Play sounds."""
    animation_speed: float = 1.0
    """Animation speed multiplier; 0 turns animations off."""
    theme: str = "normal"
    """``normal`` or ``high_contrast``."""
    overlay: bool = False
    """Open the search-tree overlay after each AI decision."""
    board_numbers: bool = True
    """Draw square numbers on boards that have them (checkers)."""
    ui_scale: float = 1.0
    """Interface scale factor (projector mode)."""
    window_size: tuple[int, int] | None = None
    """The last windowed size (width, height) in pixels, or ``None`` for the default (the App writes it on close)."""
    fullscreen: bool = False
    """The window was last closed fullscreen (the App opens fullscreen again)."""
    games: dict[str, GameSettings] = field(default_factory=lambda: {g: default_game(g) for g in game_names()})
    """Per-game sides, by game name."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Unknown top-level keys from the file, written back unchanged."""

    def game(self, name: str) -> GameSettings:
        """The sides of game ``name`` (made with the defaults if missing)."""
        if name not in self.games:
            self.games[name] = default_game(name)
        return self.games[name]

    def side(self, game: str, player: int) -> SideSettings:
        """The settings of side ``player`` (0 or 1) of ``game``."""
        return self.game(game).sides[player]

    def unknown_keys(self) -> list[str]:
        """The dotted paths of the keys kept but not used (``extra`` of the settings, each game and each side):
        ``["sond", "games.checkers.sides", "games.pig.p2.dept"]``."""
        out = list(self.extra)
        for name, gs in self.games.items():
            out += [f"games.{name}.{k}" for k in gs.extra]
            for p, side in enumerate(gs.sides):
                out += [f"games.{name}.p{p + 1}.{k}" for k in side.extra]
                out += [f"games.{name}.p{p + 1}.weights.{k}" for k in side.weights_extra]
        return out

    def defaults_keeping_unknown(self) -> Settings:
        """The default settings with this one's interface scale and every key it keeps but does not know (the
        top level's, each game's, each side's, each side's unknown weight names): Defaults in the settings panel
        loses nothing the user wrote that this version cannot show."""
        out = Settings(ui_scale=self.ui_scale, extra=copy.deepcopy(self.extra))
        for name, gs in self.games.items():
            target = out.game(name)
            target.extra = copy.deepcopy(gs.extra)
            for p, side in enumerate(gs.sides[:2]):
                target.sides[p].extra = copy.deepcopy(side.extra)
                target.sides[p].weights_extra = copy.deepcopy(side.weights_extra)
        return out

    def copy(self) -> Settings:
        """A deep copy (the settings panel edits a copy until Save)."""
        return copy.deepcopy(self)

    def to_dict(self) -> dict[str, Any]:
        """The settings as TOML-ready data (``None`` fields left out: TOML has no null)."""
        out: dict[str, Any] = {"version": SCHEMA_VERSION}
        for k, v in self.extra.items():
            out.setdefault(k, v)
        out.update(sound=self.sound, animation_speed=float(self.animation_speed), theme=self.theme,
                   overlay=self.overlay, board_numbers=self.board_numbers, ui_scale=float(self.ui_scale),
                   fullscreen=self.fullscreen)
        if self.window_size is not None:
            out["window_size"] = [int(self.window_size[0]), int(self.window_size[1])]
        games: dict[str, Any] = {}
        for name, gs in self.games.items():
            g: dict[str, Any] = dict(gs.extra)
            for p, side in enumerate(gs.sides):
                d: dict[str, Any] = dict(side.extra)
                d.update(agent=side.agent, algorithm=side.algorithm, prune=side.prune, depth=side.depth or 0,
                         time=float(side.time or 0.0), enhancements=side.enhancements)
                if side.weights is not None or side.weights_extra:
                    d["weights"] = dict(side.weights_extra)  # unknown names first, kept as written
                    d["weights"].update({k: float(v) for k, v in (side.weights or {}).items()})
                if side.file is not None:
                    d["file"] = side.file
                g[f"p{p + 1}"] = d
            games[name] = g
        out["games"] = games
        return out

    @classmethod
    def from_dict(cls, data: Any, *, strict: bool = False) -> tuple[Settings, list[tuple[str, str]]]:
        """Read settings field by field: a bad field takes its default and is reported, the others are kept.

        Args:
            data: the parsed TOML (a dict).
            strict: raise instead of returning problems.

        Returns:
            ``(settings, problems)``, problems as ``(field, message)`` pairs (empty when all is well).

        Raises:
            SettingsError: ``strict`` and at least one field is invalid.
        """
        problems: list[tuple[str, str]] = []
        s = cls()
        if not isinstance(data, dict):
            problems.append(("(file)", "expected a table of settings"))
            data = {}
        version = data.get("version", SCHEMA_VERSION)
        if version != SCHEMA_VERSION:
            problems.append(("version", f"expected {SCHEMA_VERSION}, got {quoted(version)}"))
        for name, check in _TOP_FIELDS.items():
            if name in data:
                try:
                    setattr(s, name, check(data[name]))
                except SettingsError as e:
                    problems.extend((name, m) for _, m in e.problems)
        known = set(_TOP_FIELDS) | {"version", "games"}
        s.extra = {k: v for k, v in data.items() if k not in known}
        games = data.get("games", {})
        if not isinstance(games, dict):
            problems.append(("games", "expected a table of games"))
            games = {}
        for gname, gdata in games.items():
            if gname not in game_names():
                problems.append((f"games.{gname}", f"unknown game; expected one of {', '.join(game_names())}"))
                continue
            if not isinstance(gdata, dict):
                problems.append((f"games.{gname}", "expected a table with p1 and p2"))
                continue
            for p in (0, 1):
                key = f"p{p + 1}"
                if key in gdata:
                    side, side_problems = side_from_dict(gname, p, gdata[key], f"games.{gname}.{key}")
                    s.game(gname).sides[p] = side
                    problems.extend(side_problems)
            s.game(gname).extra = {k: v for k, v in gdata.items() if k not in ("p1", "p2")}
        if strict and problems:
            raise SettingsError(problems)
        return s, problems


# ----- field validation ---------------------------------------------------------------------------------------------
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


def _choice(options: tuple[str, ...]) -> Any:
    def check(v: Any) -> str:
        if not isinstance(v, str) or v not in options:
            raise _fail(f"expected one of {', '.join(options)}, got {quoted(v)}")
        return v
    return check


check_theme = _choice(THEMES)
"""A theme name (:data:`THEMES`); raises :class:`SettingsError` otherwise."""

_TOP_FIELDS: dict[str, Any] = {
    "sound": check_bool, "animation_speed": check_animation_speed, "theme": check_theme,
    "overlay": check_bool, "board_numbers": check_bool, "ui_scale": check_ui_scale,
    "window_size": check_window_size, "fullscreen": check_bool,
}


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


def side_from_dict(game: str, player: int, data: Any, where: str) -> tuple[SideSettings, list[tuple[str, str]]]:
    """Read one side field by field (bad fields take the default side's value).

    Args:
        game: the game name (for the defaults).
        player: 0 or 1.
        data: the side's TOML table.
        where: the dotted path of the table (for messages), e.g. ``games.pig.p2``.

    Returns:
        ``(side, problems)``.
    """
    side = default_side(game, player)
    problems: list[tuple[str, str]] = []
    if not isinstance(data, dict):
        return side, [(where, "expected a table")]
    checks: dict[str, Any] = {"agent": _choice(AGENT_CHOICES), "algorithm": _choice(CUSTOM_ALGORITHMS),
                              "prune": _choice(PRUNE_RULES), "depth": check_depth, "time": check_time,
                              "enhancements": check_bool, "file": check_file}
    for key, check in checks.items():
        if key in data:
            try:
                setattr(side, key, check(data[key]))
            except SettingsError as e:
                problems.extend((f"{where}.{key}", m) for _, m in e.problems)
                setattr(side, key, getattr(default_side(game, player), key))
    side.extra = {k: v for k, v in data.items() if k not in checks and k != "weights"}  # kept, named on load
    if "weights" in data:
        side.weights, side.weights_extra, weight_problems = weights_from_dict(game, data["weights"],
                                                                             f"{where}.weights")
        problems += weight_problems
    return side, problems


def weights_from_dict(game: str, data: Any, where: str
                      ) -> tuple[dict[str, float] | None, dict[str, Any], list[tuple[str, str]]]:
    """Read a side's ``weights`` table field by field, as every other setting is read.

    A weight out of range or not a number takes its default, the game's ``default`` preset value, and is reported;
    the others are kept. A name that is no feature of the game is kept aside (written back, not used).

    Args:
        game: the game name (its features and ``default`` preset: ``ai.profiles``).
        data: the TOML table (feature -> number).
        where: the dotted path of the table, e.g. ``games.checkers.p2.weights``.

    Returns:
        ``(weights, unknown, problems)``: ``weights`` feature -> float, ``None`` when no feature was given (the
        default preset); ``unknown`` the names that are no feature, with their values as written; ``problems`` as
        ``(field, message)`` pairs.
    """
    from ai.profiles import profile_for
    if not isinstance(data, dict) or not data:
        return None, {}, [(where, "expected a table of feature = number")]
    profile = profile_for(game)
    default = profile.weight_presets.get("default", {})
    weights: dict[str, float] = {}
    unknown: dict[str, Any] = {}
    problems: list[tuple[str, str]] = []
    for k, v in data.items():
        if k not in profile.features:
            unknown[k] = v
            continue
        try:
            weights[k] = parse_weight(v)
        except SettingsError as e:
            problems.extend((f"{where}.{k}", m) for _, m in e.problems)
            weights[k] = float(default.get(k, 0.0))
    return (weights or None), unknown, problems


def unknown_note(settings: Settings) -> str:
    """What the load message says of the keys kept but not used (``""`` when there are none): their dotted paths,
    and for an unknown weight name the game's features (``checkers weights are men, kings, ...``)."""
    unknown = settings.unknown_keys()
    if not unknown:
        return ""
    from ai.profiles import profile_for
    note = f"unknown settings kept in the file but not used: {', '.join(unknown)}"
    games = dict.fromkeys(name for name, gs in settings.games.items() for side in gs.sides if side.weights_extra)
    for name in games:
        note += f" ({name} weights are {', '.join(profile_for(name).features)})"
    return note


# ----- the file -----------------------------------------------------------------------------------------------------
def config_dir() -> Path:
    """The folder of the settings file: ``$ARCADE_CONFIG_DIR`` if set, else the user's config directory."""
    override = os.environ.get(CONFIG_ENV, "").strip()
    if override:
        return Path(override).expanduser()
    import platformdirs
    return Path(platformdirs.user_config_dir(APP_NAME))


def settings_path() -> Path:
    """The settings file, ``config_dir() / "settings.toml"``."""
    return config_dir() / FILE_NAME


@dataclass(frozen=True)
class LoadResult:
    """What :func:`load_settings` found."""

    settings: Settings
    """The settings to use (defaults for anything missing or bad)."""
    message: str | None = None
    """One line for the title screen when the file was bad, else ``None``."""
    backup: Path | None = None
    """Where the bad file was kept, if it was."""
    problems: tuple[tuple[str, str], ...] = ()
    """Invalid fields as ``(field, message)`` pairs."""
    unknown: tuple[str, ...] = ()
    """Keys this version does not know (dotted paths, :meth:`Settings.unknown_keys`): kept in the file, not used."""


def _backup(path: Path) -> Path | None:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.bad-{stamp}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.bad-{stamp}-{n}")
        n += 1
    try:
        shutil.copy2(path, target)
    except OSError:
        try:
            os.replace(path, target)
        except OSError:
            return None
    return target


def load_settings(path: Path | None = None) -> LoadResult:
    """Read the settings file; never raises for a bad file.

    A missing file gives the defaults quietly. An unreadable or corrupt file gives the defaults; a file with
    invalid values keeps its valid ones. In both cases the bad file is copied to ``settings.toml.bad-<time>``,
    replaced by the settings in use, and :attr:`LoadResult.message` says what happened in one line.

    Args:
        path: the file (default :func:`settings_path`).
    """
    path = settings_path() if path is None else path
    if not path.exists():
        return LoadResult(Settings())
    try:
        data = tomllib.loads(read_text_file(path).text)  # as Notepad may save it: a BOM, CRLF, Windows-1252
    except (OSError, NotTextError, tomllib.TOMLDecodeError) as e:
        reason = f"is not valid TOML ({e})" if isinstance(e, tomllib.TOMLDecodeError) else f"is unreadable ({e})"
        settings, problems = Settings(), [("(file)", reason)]
        what = f"Settings file {reason}; using the defaults"
    else:
        settings, problems = Settings.from_dict(data)
        unknown = tuple(settings.unknown_keys())
        note = unknown_note(settings)
        if not problems:
            return LoadResult(settings, note[:1].upper() + note[1:] or None, unknown=unknown)
        names = ", ".join(dict.fromkeys(f for f, _ in problems))
        what = f"Invalid settings reset to defaults: {names}"
    backup = _backup(path)
    try:
        save_settings(settings, path)
    except OSError:
        pass
    kept = f" (bad file kept as {backup.name})" if backup is not None else ""
    unknown = tuple(settings.unknown_keys())
    also = f"; {unknown_note(settings)}" if unknown else ""
    return LoadResult(settings, what.replace("\n", " ") + kept + also, backup, tuple(problems), unknown)


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write the settings atomically: a temporary file in the same folder, then :func:`os.replace`.

    Args:
        settings: what to write.
        path: the file (default :func:`settings_path`); its folder is created if needed.

    Returns:
        The path written.

    Raises:
        OSError: the folder or file cannot be written (no temporary file is left behind).
    """
    import tomli_w

    from gameplay.files.savegame import atomic_write_text
    path = settings_path() if path is None else path
    atomic_write_text(path, tomli_w.dumps(settings.to_dict()))
    return path


# ----- agents -------------------------------------------------------------------------------------------------------
def side_spec(game: str, side: SideSettings) -> str:
    """The agent spec of a side (CLI.md, "Agents"), without custom weights: what the side plays, as text (the
    side's agent is built from its fields by :func:`side_agent_settings`, not from this text).

    Examples: ``human``, ``medium``, ``medium:prune=gt``, ``alphabeta:depth=4,time=1.0,prune=gt``; a custom
    alpha-beta side with :attr:`SideSettings.enhancements` off adds ``ordering=off,tt=off,quiescence=off``
    (plain alpha-beta: no principal-variation search either, it needs the ordering).
    """
    if side.agent in ("human", "random"):
        return side.agent
    if side.agent == "file":
        return f"file:{side.file or ''}"
    if side.agent != "custom":
        return side.agent + (f":prune={side.prune}" if side.prune != "ge" else "")
    parts = []
    if side.algorithm in ("minimax", "alphabeta", "expectimax"):
        if side.depth is not None:
            parts.append(f"depth={side.depth}")
        if side.time is not None:
            parts.append(f"time={side.time:g}")
        parts.append(f"prune={side.prune}")
        if side.algorithm == "alphabeta" and not side.enhancements:
            parts.append("ordering=off,tt=off,quiescence=off")
    elif side.algorithm == "mcts" and side.time is not None:  # its time per move; none: 1,000 simulations
        parts.append(f"time={side.time:g}")
    return side.algorithm + (":" + ",".join(parts) if parts else "")


def side_agent_settings(game: str, side: SideSettings) -> AgentSettings:
    """The validated ``ai.agents.AgentSettings`` of a side (custom weights as ``custom_weights``), built from the
    side's fields by ``ai.agents.agent_settings`` (``ai.agent_file.file_settings`` for an agent file), with no spec
    text in between; the same settings as :func:`side_spec` read by ``ai.agents.parse_settings``.

    Raises:
        SettingsError: a combination the game refuses or that would never finish (one clear message per
            problem, e.g. no depth and no time limit for checkers, all weights zero, an unknown feature).
    """
    from ai.agent_file import file_settings
    from ai.agents import agent_settings
    from ai.profiles import profile_for
    from gameplay.rules.base import GameError
    profile = profile_for(game)
    problems: list[tuple[str, str]] = []
    if side.agent == "file" and not side.file:
        problems.append(("file", "choose the agent's .py file"))
    if side.agent == "custom":
        if side.algorithm not in profile.algorithms:
            problems.append(("algorithm", f"{side.algorithm} cannot play {game}; choose "
                             + ", ".join(a for a in profile.algorithms if a != "human")))
        searching = side.algorithm in ("minimax", "alphabeta", "expectimax")
        if searching and side.depth is None and side.time is None and not game_info(game).search_ends:
            problems.append(("depth", "set a depth or a time limit (an unlimited search never ends)"))
        if searching and side.weights is not None:
            unknown = sorted(set(side.weights) - set(profile.features))
            if unknown:
                problems.append(("weights", f"unknown feature(s) {', '.join(unknown)}; expected some of "
                                 + ", ".join(profile.features)))
            elif not any(side.weights.values()):
                problems.append(("weights", "all weights are 0: the agent could not tell positions apart"))
    if problems:
        raise SettingsError(problems)
    searching = side.agent == "custom" and side.algorithm in ("minimax", "alphabeta", "expectimax")
    try:
        if side.agent == "file":
            settings: AgentSettings = file_settings(profile, (side.file or "").strip())
        elif side.agent != "custom":
            keep = side.agent in ("human", "random") or side.prune == "ge"
            settings = agent_settings(profile, side.agent, {} if keep else {"prune": side.prune})
        else:
            settings = agent_settings(profile, side.algorithm, _custom_values(side),
                                      side.weights if searching else None)
    except GameError as e:
        raise SettingsError([("agent", str(e))]) from None
    if searching:
        # exactly the limits chosen (the game's defaults would fill in a limit left open)
        settings = replace(settings, depth=side.depth, time=side.time)
    return settings


def _custom_values(side: SideSettings) -> dict[str, Any]:
    """A custom side's agent settings by key (what :func:`side_spec` writes after the algorithm's name)."""
    values: dict[str, Any] = {}
    if side.algorithm in ("minimax", "alphabeta", "expectimax"):
        values.update({k: v for k, v in (("depth", side.depth), ("time", side.time)) if v is not None})
        values["prune"] = side.prune
        if side.algorithm == "alphabeta" and not side.enhancements:
            values.update(ordering=False, tt=False, quiescence=False)
    elif side.algorithm == "mcts" and side.time is not None:  # its time per move; none: 1,000 simulations
        values["time"] = side.time
    return values


def build_side_agent(game: str, side: SideSettings) -> Agent:
    """The agent that plays a side in a match (``ai.agents.build_agent`` on :func:`side_agent_settings`).

    Raises:
        SettingsError: see :func:`side_agent_settings`, or the agent cannot be built.
    """
    from ai.agents import build_agent
    from ai.profiles import profile_for
    from gameplay.rules.base import GameError
    settings = side_agent_settings(game, side)
    try:
        return build_agent(profile_for(game), settings)
    except GameError as e:
        raise SettingsError([("agent", str(e))]) from None


def custom_from(game: str, side: SideSettings) -> SideSettings:
    """A ``custom`` side equal to what ``side`` plays now (a preset opened for editing keeps its values).

    Human and random sides give the game's :func:`custom_defaults` with the game's default weights.
    """
    from ai.profiles import profile_for
    profile = profile_for(game)
    base = replace(side, agent="custom")
    if side.agent == "custom":
        return base
    if side.agent in PRESETS:
        try:
            s = side_agent_settings(game, side)
        except SettingsError:
            s = None
        if s is not None and s.algorithm in CUSTOM_ALGORITHMS:
            weights = None
            if s.algorithm in ("minimax", "alphabeta", "expectimax") and s.weights in profile.weight_presets:
                weights = dict(profile.weight_presets[s.weights]) if s.weights != "default" else None
            return replace(base, algorithm=s.algorithm, depth=s.depth, time=s.time, weights=weights)
    d = custom_defaults(game)
    return replace(base, algorithm=d.get("algorithm", "alphabeta"), depth=d.get("depth"), time=d.get("time"),
                   weights=None)
