"""The arcade's user settings: the model, with its defaults and its reading from TOML data (pure Python, no pygame).

The window keeps one :class:`Settings` object as ``App.settings`` (``gameplay.ui.shell.app``); code that wants a
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
  at; it opens at it again, shrunk to fit the display (``gameplay.ui.widgets.projector.window_size_for``). ``None`` (not
  in the file): the default size. Allowed ``settings_fields.WINDOW_MIN`` to ``WINDOW_MAX`` in each direction.
* ``fullscreen: bool`` -- the window was closed fullscreen: it opens fullscreen again (default ``False``).
* ``games: dict[str, GameSettings]`` -- per game (``tictactoe``, ``checkers``, ``pig``) the two sides,
  ``games[name].sides[0]`` for the first player and ``[1]`` for the second, each a :class:`SideSettings`:
  ``agent`` (``human``, ``random``, a difficulty preset ``beginner`` .. ``expert``, ``custom``, or ``file``: an
  agent file, its path in ``file``, played from a worker process of its own: ``ai.agents.agent_file``) and, for
  ``custom``, ``algorithm``, ``depth`` (plies or ``None``; 0 in the file), ``time_budget_s`` (the key ``time``
  in the file: seconds per move or ``None``; 0 in the file), ``weights`` (feature -> weight, or ``None`` for the
  game's ``default`` preset);
  ``prune`` (``ge``/``gt``, the alpha-beta cutoff test) applies to alpha-beta presets and custom agents alike
  (kept, unused, for the others: ``gameplay.files.settings_agents.side_agent``);
  ``enhancements`` (custom alpha-beta only, default ``True``): move ordering, the transposition table and
  principal-variation search (and checkers' capture search at the depth limit); ``False`` gives AIMA's
  ALPHA-BETA-SEARCH exactly (spec ``ordering=off,tt=off,quiescence=off``: the values equal minimax's).
* ``extra: dict[str, Any]`` -- top-level keys of the file this version does not know; kept and written back, as
  are the unknown keys of a game's table (``GameSettings.extra``, e.g. ``sides = 3`` in ``[games.checkers]``), of
  a side's (``SideSettings.extra``) and the names of a side's weights that are no feature of the game
  (``SideSettings.weights_extra``): nothing written in the file is lost (Defaults in the settings panel keeps them
  too: :meth:`Settings.defaults_keeping_unknown`), and ``LoadResult.unknown`` (:mod:`gameplay.files.settings_file`)
  names them (the title screen says they are not used).

Where the rest lives: each value's check (:mod:`gameplay.files.settings_fields`: numbers may be written with or
without quotes), the file (:mod:`gameplay.files.settings_file`: where it is, reading it without ever raising for a
bad file, writing it atomically) and the agent a side builds (:mod:`gameplay.files.settings_agents`).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from gameplay.files.settings_fields import (
    SettingsError,
    check_animation_speed,
    check_bool,
    check_depth,
    check_file,
    check_theme,
    check_time,
    check_ui_scale,
    check_window_size,
    choice,
    parse_weight,
)
from gameplay.rules.base import quoted
from gameplay.rules.registry import game_info, game_names

SCHEMA_VERSION = 1
"""Version number written to the file (``version = 1``)."""
PRESETS: tuple[str, ...] = ("beginner", "easy", "medium", "hard", "expert")
AGENT_CHOICES: tuple[str, ...] = ("human",) + PRESETS + ("random", "custom", "file")
"""Values of :attr:`SideSettings.agent`."""
CUSTOM_ALGORITHMS: tuple[str, ...] = ("minimax", "alphabeta", "expectimax", "mcts", "optimal", "random")
"""Algorithms a custom side may name (each game accepts a subset: ``ai.agents.profiles``)."""
PRUNE_RULES: tuple[str, ...] = ("ge", "gt")


def custom_defaults(game: str) -> dict[str, Any]:
    """The custom agent a side of ``game`` starts from before it is edited: ``{"algorithm", "depth",
    "time_budget_s"}`` (:class:`SideSettings` fields)
    from the game's registry record (tic-tac-toe: a full search; checkers: alpha-beta, depth 6, 1 s).

    Raises:
        UnknownGameError: not a registered game.
    """
    info = game_info(game)
    return {"algorithm": info.custom_algorithm, "depth": info.custom_depth, "time_budget_s": info.custom_time}


TOP_FIELDS: dict[str, Any] = {
    "sound": check_bool, "animation_speed": check_animation_speed, "theme": check_theme,
    "overlay": check_bool, "board_numbers": check_bool, "ui_scale": check_ui_scale,
    "window_size": check_window_size, "fullscreen": check_bool,
}
"""The top-level fields of the file -> the check of each value (:mod:`gameplay.files.settings_fields`)."""


# ----- the model ----------------------------------------------------------------------------------------------------
SIDE_FIELD_OF_KEY: dict[str, str] = {"time": "time_budget_s"}
"""The :class:`SideSettings` field of a side's key in the file where the two names differ (the file keeps ``time``,
so files written before still load)."""


@dataclass
class SideSettings:
    """Who plays one side of a game, and how."""

    agent: str = "human"
    """``human``, ``random``, a preset (``beginner`` .. ``expert``), ``custom`` or ``file``."""
    algorithm: str = "alphabeta"
    """Custom only: ``minimax``, ``alphabeta``, ``expectimax``, ``optimal`` or ``random``."""
    depth: int | None = None
    """Custom only: depth limit in plies; ``None``: as deep as the time allows (or to the end)."""
    time_budget_s: float | None = None
    """Custom only: the time budget, seconds per move (the file's key ``time``); ``None``: no time limit."""
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
                         time=float(side.time_budget_s or 0.0), enhancements=side.enhancements)
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
        for name, check in TOP_FIELDS.items():
            if name in data:
                try:
                    setattr(s, name, check(data[name]))
                except SettingsError as e:
                    problems.extend((name, m) for _, m in e.problems)
        known = set(TOP_FIELDS) | {"version", "games"}
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


# ----- reading a side -----------------------------------------------------------------------------------------------
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
    checks: dict[str, Any] = {"agent": choice(AGENT_CHOICES), "algorithm": choice(CUSTOM_ALGORITHMS),
                              "prune": choice(PRUNE_RULES), "depth": check_depth, "time": check_time,
                              "enhancements": check_bool, "file": check_file}
    for key, check in checks.items():
        if key in data:
            name = SIDE_FIELD_OF_KEY.get(key, key)
            try:
                setattr(side, name, check(data[key]))
            except SettingsError as e:
                problems.extend((f"{where}.{key}", m) for _, m in e.problems)
                setattr(side, name, getattr(default_side(game, player), name))
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
        game: the game name (its features and ``default`` preset: ``ai.agents.profiles``).
        data: the TOML table (feature -> number).
        where: the dotted path of the table, e.g. ``games.checkers.p2.weights``.

    Returns:
        ``(weights, unknown, problems)``: ``weights`` feature -> float, ``None`` when no feature was given (the
        default preset); ``unknown`` the names that are no feature, with their values as written; ``problems`` as
        ``(field, message)`` pairs.
    """
    from ai.agents.profiles import profile_for
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
