"""Saved games: the saved-game format, and games saved to or loaded from a file (the autosaves: autosave.py).

Pure Python (no pygame): the window calls these functions, and tests use them directly.

A saved game is one JSON object (format version :data:`VERSION`)::

    {"format": "adversarial-arcade-game", "version": 1, "game": "pig", "start": "0,0,0,1",
     "moves": ["roll", "die=4", "hold"], "agents": ["human", "medium"], "saved_at": "2025-01-31T12:00:00"}

``start`` is the start position in the game's notation (``format_position``) and ``moves`` are the moves in
the game's notation (``format_move``), dice outcomes of Pig included (``die=N``), so a game is restored by
replaying them with ``parse_move``. ``agents`` are the agent specs of both sides (``human``, a preset such as
``medium``, or a full spec such as ``alphabeta:depth=4,...``).

``decision`` (optional) is the last AI decision on the way to the position: its move, its search's result and the
tree the window recorded, so that after a resume the tree view shows exactly what the search did (format
``adversarial-arcade-decision``, its own version number: :mod:`ai.teaching.decision_file`; the tree's data is capped
at :data:`ai.teaching.decision_file.MAX_TREE_BYTES`, over it the tree is left out and the decision's words are kept).
A save without it (an older version's, a game no AI has moved in) loads as before; one whose record cannot be read
loads too: the game is never lost for its tree (the window says the tree could not be read).

Every write is atomic (:func:`gameplay.rules.outfile.write_text`): a temporary file in the same folder, fsync, then
:func:`os.replace`,
so a crash or a kill mid-write leaves either the old file or the new one, never half a file. The autosaves of the
games in progress, in their slots of the user's data folder, are :mod:`gameplay.files.autosave`'s.
"""

from __future__ import annotations

import datetime
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gameplay.rules.base import quoted
from gameplay.rules.limits import EVAL_WEIGHT, SAVE_PLIES, RangeError, shown
from gameplay.rules.outfile import OutputError, write_text
from gameplay.rules.registry import game_names, game_title, make_game
from gameplay.rules.textfile import NotTextError, json_problem, read_text_file

FORMAT = "adversarial-arcade-game"
"""The ``format`` field of a saved game."""
VERSION = 1
"""The current format version; files with a higher version are refused with a clear message."""


class SaveError(Exception):
    """A saved game cannot be written, read or replayed; the message is ready to show to the user."""


@dataclass(frozen=True)
class SavedGame:
    """One game as saved: enough to rebuild the match exactly (position and both sides)."""

    game: str
    """Game name: ``tictactoe``, ``checkers`` or ``pig``."""
    start: str
    """The start position in the game's notation (``Game.format_position``)."""
    moves: tuple[str, ...] = ()
    """The moves and chance outcomes played, in the game's notation (``Game.format_move``)."""
    agents: tuple[str, str] = ("human", "human")
    """Agent specs of player 1 and player 2 (``make_agent`` accepts them)."""
    saved_at: str = ""
    """ISO local time of the save (information only)."""
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    """Unknown fields of a newer writer, kept as read (information only)."""
    sides: tuple[dict[str, Any] | None, dict[str, Any] | None] = (None, None)
    """Every field of both sides' ``AgentSettings`` (``AgentSettings.to_json``; ``None``: only the spec is known,
    or a human). Custom weights included."""
    path: Path | None = field(default=None, compare=False)
    """The file this game was read from (autosaves: its slot), or ``None``."""
    decision: Any = None
    """The last AI decision's record as written (:func:`ai.teaching.decision_file.encode_decision`'s JSON object),
    ``None`` when the save has none. Kept as read: it is checked when the window restores it
    (:func:`ai.teaching.decision_file.decode_decision`), so a damaged one never stops the game from loading."""

    @property
    def ply(self) -> int:
        """Moves (and chance outcomes) played."""
        return len(self.moves)

    @property
    def title(self) -> str:
        """The game's name for messages (its record's ``noun``), e.g. ``"checkers"``."""
        return game_title(self.game, "noun")

    def progress(self) -> str:
        """Where the game stands, for a player (:func:`gameplay.rules.move_numbers.progress`): ``"move 12"`` in the
        moves list's numbering (the move pair its next ply belongs to), or the game's own words (Pig: ``"turn 2, Player
        2 to play"``). A game that does not replay is described by its ply count the same way."""
        from gameplay.rules import move_numbers
        try:
            game = make_game(self.game)
            start, moves = self.replay(game)
            return move_numbers.progress(game, start, moves)
        except Exception:  # noqa: BLE001 - a description only: number from the usual start
            return f"move {move_numbers.move_number(self.ply)}"

    def describe(self, now: datetime.datetime | None = None) -> str:
        """What this saved game is, in one phrase for a list of them: ``"checkers, move 12, yesterday 14:02"``
        (:meth:`progress`, then :func:`when_text` of :attr:`saved_at`; no time when it is unknown)."""
        return ", ".join(t for t in (self.title, self.progress(), when_text(self.saved_at, now)) if t)

    def prompt(self) -> str:
        """The resume question, e.g. ``"Resume your checkers game (move 12)?"`` (22 or 23 plies played), or for Pig
        ``"Resume your Pig game (turn 2, Player 2 to play)?"``."""
        return f"Resume your {self.title} game ({self.progress()})?"

    def to_json(self) -> dict[str, Any]:
        """The JSON object written to disk."""
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": self.game, "start": self.start,
                               "moves": list(self.moves), "agents": list(self.agents), "saved_at": self.saved_at}
        if any(side is not None for side in self.sides):
            out["sides"] = [dict(side) if side is not None else None for side in self.sides]
        if self.decision is not None:
            out["decision"] = self.decision
        return out

    def dumps(self) -> str:
        """The JSON text written to disk (indented, one move per line would be too long: moves on one line)."""
        return json.dumps(self.to_json(), indent=1) + "\n"

    @classmethod
    def from_json(cls, obj: Any) -> SavedGame:
        """Check and read a decoded JSON object.

        Raises:
            SaveError: not a saved game of this program, a newer format version, or a missing or mistyped field.
        """
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise SaveError(f"not a saved game of this arcade (expected \"format\": \"{FORMAT}\")")
        version = obj.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise SaveError("the saved game has no format version")
        if version > VERSION:
            raise SaveError(f"the saved game has format version {version}; this arcade reads up to {VERSION}")
        game, start, moves, agents = obj.get("game"), obj.get("start"), obj.get("moves"), obj.get("agents")
        if game not in game_names():  # the games a save may hold: the registry's
            raise SaveError(f"unknown game {game!r} in the saved game; expected one of {', '.join(game_names())}")
        if not isinstance(start, str):
            raise SaveError("the saved game has no start position (\"start\" must be a string)")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise SaveError("the saved game's \"moves\" must be a list of strings")
        if len(moves) > SAVE_PLIES:
            raise SaveError(f"the saved game has {len(moves):,} moves; at most {SAVE_PLIES:,} are read")
        if (not isinstance(agents, list) or len(agents) != 2
                or not all(isinstance(a, str) and a for a in agents)):
            raise SaveError("the saved game's \"agents\" must be two agent specs")
        sides = obj.get("sides", [None, None])
        if (not isinstance(sides, list) or len(sides) != 2
                or not all(side is None or isinstance(side, dict) for side in sides)):
            raise SaveError("the saved game's \"sides\" must be two agent settings (objects or null)")
        saved_at = obj.get("saved_at", "")
        known = {"format", "version", "game", "start", "moves", "agents", "saved_at", "sides", "decision"}
        return cls(game, start, tuple(moves), (agents[0], agents[1]), str(saved_at),
                   {k: v for k, v in obj.items() if k not in known}, (sides[0], sides[1]),
                   decision=obj.get("decision"))

    @classmethod
    def loads(cls, text: str) -> SavedGame:
        """Read a saved game from JSON text.

        Raises:
            SaveError: not JSON, or as :meth:`from_json`.
        """
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            raise SaveError(json_problem(e)) from None
        except (ValueError, RecursionError):  # a number thousands of digits long; arrays nested thousands deep
            raise SaveError("not a saved game: a number or a nesting far beyond any saved game's") from None
        return cls.from_json(obj)

    def replay(self, game: Any) -> tuple[Any, list[Any]]:
        """Rebuild the start state and the moves with the game's own parsers (each move checked in turn).

        Args:
            game: the game object (``parse_position``, ``parse_move``, ``result``).

        Returns:
            ``(start_state, moves)``, ready for ``GameRecord`` or ``MatchScene.load_game``.

        Raises:
            SaveError: the start position or a move does not parse or is illegal (the message names the move).
        """
        from gameplay.rules.base import GameError
        try:
            state = game.parse_position(self.start)
        except GameError as e:
            raise SaveError(f"the start position {quoted(self.start)} is not valid: {e}") from None
        start = state
        out: list[Any] = []
        for i, text in enumerate(self.moves):
            try:
                move = game.parse_move(state, text)
                state = game.result(state, move)
            except GameError as e:
                raise SaveError(f"ply {i + 1} of the saved moves ({text!r}) cannot be played: {e}") from None
            out.append(move)
        return start, out


def when_text(saved_at: str, now: datetime.datetime | None = None) -> str:
    """When a game was saved, as a player says it: ``"today 14:02"``, ``"yesterday 14:02"``, ``"Monday 14:02"``
    (the last week), ``"3 Mar 14:02"`` (this year), else ``"3 Mar 2024"``.

    Args:
        saved_at: an ISO local time (:attr:`SavedGame.saved_at`).
        now: the present (default: the local time now).

    Returns:
        The phrase, or ``""`` when ``saved_at`` is not an ISO time.
    """
    try:
        t = datetime.datetime.fromisoformat(saved_at)
    except (TypeError, ValueError):
        return ""
    now = now or datetime.datetime.now()
    days = (now.date() - t.date()).days
    hm = f"{t.hour:02d}:{t.minute:02d}"
    month = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")[t.month - 1]
    if days == 0:
        return f"today {hm}"
    if days == 1:
        return f"yesterday {hm}"
    if 1 < days < 7:
        weekday = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")[t.weekday()]
        return f"{weekday} {hm}"
    if t.year == now.year and days > 0:
        return f"{t.day} {month} {hm}"
    return f"{t.day} {month} {t.year}"


def agent_spec(agent: Any) -> str:
    """The spec of ``agent`` (an :class:`ai.agents.agents.Agent`): its preset name, ``human``, or the full settings spec
    (without custom evaluation weights: :func:`agent_settings_json` keeps every field)."""
    settings = agent.settings
    if getattr(agent, "is_human", False) or settings.algorithm == "human":
        return "human"
    from ai.agents.agent_base import PRESETS
    if settings.name in PRESETS:
        return str(settings.name)
    return str(settings.spec())


def agent_settings_json(agent: Any) -> dict[str, Any] | None:
    """Every field of ``agent``'s ``AgentSettings`` as JSON-ready data (custom weights included), ``None`` for a
    human."""
    settings = agent.settings
    if getattr(agent, "is_human", False) or settings.algorithm == "human":
        return None
    return dict(settings.to_json())


def restore_agent(game: str, spec: str, side: dict[str, Any] | None) -> tuple[Any, list[str]]:
    """Rebuild a saved side: the agent of ``spec`` with every field of ``side`` (``AgentSettings.to_json``).

    A field that cannot be restored (unknown here, a bad value, a weight of an unknown feature) keeps the spec's
    value and is named in the notes; a spec that cannot be built gives a human (said in the notes). A setting that
    does not apply to the algorithm (``ai.agents.agent_base.APPLIES_TO``), which an older version wrote into the spec
    or kept in the side (a side's cutoff test for ``expectimax``: ``prune=gt``), is dropped and named in the notes
    when it was not at its default (``ai.agents.agents.applying_spec``); the command line refuses such a spec.

    Args:
        game: the game name.
        spec: the saved agent spec (``human``, ``medium``, ``alphabeta:depth=4,...``).
        side: the saved settings, or ``None`` (only the spec is known).

    Returns:
        ``(agent, notes)``: notes are sentences for the player, empty when everything was restored.
    """
    from ai.agents.agent_base import applies
    from ai.agents.agents import applying_spec, build_agent, make_agent, parse_settings
    from ai.agents.profiles import profile_for
    from gameplay.rules.base import GameError
    profile = profile_for(game)
    notes: list[str] = []
    dropped: tuple[str, ...] = ()
    try:
        settings = parse_settings(spec, profile)
    except GameError as e:
        try:  # an older version wrote settings its algorithm does not take (expectimax:...,prune=gt): drop them
            legacy, dropped = applying_spec(spec, profile)
            settings = parse_settings(legacy, profile)
            spec = legacy
        except GameError:
            dropped = ()
        if not dropped:
            return make_agent(game, "human"), [f"its agent {quoted(spec)} cannot be used here ({e}); a human plays it"]
        notes.append(f"its {', '.join(dropped)} did not apply to {settings.algorithm} and "
                     f"{'was' if len(dropped) == 1 else 'were'} dropped")
    if side:
        known = set(settings.to_json())  # the saved side's keys (an agent file's add path, kind and search)
        for key in side:
            if key not in known:
                notes.append(f"its setting {quoted(key)} is unknown here and was ignored")
        for key in _restored_keys():
            if key not in side or side[key] == settings.value_of(key):
                continue
            if not applies(key, settings.algorithm):  # an older version kept it (prune for expectimax): dropped
                if not any(d.startswith(f"{key}=") for d in dropped):  # not already said with the spec's
                    notes.append(f"its {key} {shown(side[key])} did not apply to {settings.algorithm} and was "
                                 "dropped")
                continue
            value = side[key]
            try:
                value = _check_setting(key, value, profile)
                trial = settings.with_keys({key: value})  # AgentError: a setting its algorithm does not take
                if key in ("algorithm", "weights", "custom_weights"):
                    build_agent(profile, trial)
                    if trial.algorithm in ("minimax", "alphabeta", "expectimax") and profile.weight_presets:
                        profile.weights_of(trial)
                settings = trial
            except (GameError, TypeError, ValueError, KeyError) as e:
                notes.append(f"its {key} {shown(value)} could not be restored ({e}); it plays with "
                             f"{setting_words(key, settings.value_of(key))}")
    try:
        return build_agent(profile, settings), notes
    except GameError as e:
        return make_agent(game, spec), notes + [f"its saved settings could not be restored ({e})"]


NONE_WORDS: dict[str, str] = {"depth": "no depth limit", "time": "no time limit", "seed": "no seed",
                              "simulations": "no simulation limit", "custom_weights": "the preset's weights"}
"""What ``None`` means for an ``AgentSettings`` field, in words (a field not named here: ``none``)."""


def setting_words(key: str, value: Any) -> str:
    """An ``AgentSettings`` field's value as a note says it: ``None`` in words (:data:`NONE_WORDS`: ``no time
    limit``), ``true``/``false``, a number or a name as written (``1.5 s``, ``4 plies``, ``alphabeta``), weights as
    ``men 100, kings 130``."""
    if value is None:
        return NONE_WORDS.get(key, "none")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict) or hasattr(value, "items"):
        return ", ".join(f"{k} {v:g}" if isinstance(v, (int, float)) else f"{k} {v}" for k, v in value.items())
    unit = {"time": " s", "depth": " ply" if value == 1 else " plies"}.get(key, "")
    if isinstance(value, float):
        return f"{value:g}{unit}"
    return f"{value}{unit}"


def _restored_keys() -> tuple[str, ...]:
    """The keys of a saved side's ``AgentSettings`` (its JSON keys, ``ai.agents.agent_base.FIELD_OF_KEY``) it restores,
    the algorithm first: every on/off switch
    (``ai.agents.agent_base.SWITCHES``, so a new one is never dropped), the clock and the numbers."""
    from ai.agents.agent_base import SWITCHES
    return ("name", "algorithm", "depth", "time", "clock", "prune", "seed", "custom_weights", "weights", *SWITCHES,
            "simulations", "c", "playout")


def _check_setting(key: str, value: Any, profile: Any) -> Any:
    """One saved ``AgentSettings`` field, checked; raises ``ValueError`` with a reason."""
    from ai.agents.agent_base import CLOCK_NAMES, SWITCHES
    if key in SWITCHES:
        if not isinstance(value, bool):
            raise ValueError("expected true or false")
        return value
    if key == "clock":
        if value not in CLOCK_NAMES:
            raise ValueError(f"expected {' or '.join(CLOCK_NAMES)}")
        return value
    if key in ("depth", "seed", "time", "simulations", "c", "playout"):
        # checked as a spec's value would be, in its range (gameplay.rules.limits): a number, never text
        if value is None and key in ("depth", "seed", "time", "simulations"):
            return None
        if isinstance(value, str) and key != "playout":
            raise ValueError("expected a number, not text")
        from ai.agents.agent_base import AgentError, coerce_setting
        try:
            return coerce_setting(key, value)
        except AgentError as e:
            raise ValueError(str(e)) from None
    if key == "prune":
        if value not in ("ge", "gt"):
            raise ValueError("expected ge or gt")
        return value
    if key in ("name", "algorithm", "weights"):
        if not isinstance(value, str) or not value:
            raise ValueError("expected a name")
        if key == "algorithm" and value not in profile.algorithms:
            raise ValueError(f"this game plays {', '.join(profile.algorithms)}")
        return value
    if key == "custom_weights":
        if value is None:
            return None
        if not isinstance(value, dict) or not value:
            raise ValueError("expected feature weights")
        out: dict[str, float] = {}
        for k, v in value.items():
            if isinstance(v, str) or v not in EVAL_WEIGHT:
                raise ValueError(f"the weight of {k} is not {EVAL_WEIGHT.describe()}")
            out[str(k)] = float(v)
        unknown = sorted(set(out) - set(profile.features))
        if unknown:
            raise ValueError(f"unknown feature(s) {', '.join(unknown)}")
        return out
    raise ValueError("unknown setting")


def from_record(game_name: str, game: Any, start: Any, moves: Sequence[Any], agents: Sequence[Any],
                decision: dict[str, Any] | None = None) -> SavedGame:
    """A :class:`SavedGame` of a game in progress.

    Args:
        game_name: ``tictactoe``, ``checkers`` or ``pig``.
        game: the game object (for its notation).
        start: the start state.
        moves: moves and chance outcomes played from ``start``.
        agents: the two agents (``ai.agents.agents.Agent``: spec and every setting are kept), or their specs.
        decision: the last AI decision's record (:func:`ai.teaching.decision_file.encode_decision`), or ``None``.

    Returns:
        The saved game, stamped with the local time.
    """
    texts: list[str] = []
    state = start
    for m in moves:
        texts.append(game.format_move(state, m))
        state = game.result(state, m)
    stamp = datetime.datetime.now().isoformat(timespec="seconds")
    specs = [a if isinstance(a, str) else agent_spec(a) for a in agents]
    sides = [None if isinstance(a, str) else agent_settings_json(a) for a in agents]
    return SavedGame(game_name, game.format_position(start), tuple(texts), (specs[0], specs[1]), stamp,
                     sides=(sides[0], sides[1]), decision=decision)


# ----- files --------------------------------------------------------------------------------------------------------
def documents_dir() -> Path:
    """Where Save and Load dialogs open: ``$ARCADE_GAMES_DIR`` if set, else the user's documents folder
    (``platformdirs.user_documents_dir``), else the home folder; never the program's own folder. Not created."""
    override = os.environ.get("ARCADE_GAMES_DIR")
    if override:
        return Path(override)
    import platformdirs
    docs = Path(platformdirs.user_documents_dir())
    return docs if docs.is_dir() else Path.home()


def save_game(saved: SavedGame, path: str | Path) -> Path:
    """Write ``saved`` to ``path`` as JSON (atomically). Returns the path.

    Raises:
        SaveError: the file cannot be written (the message names it).
    """
    p = Path(path)
    try:
        write_text(p, saved.dumps(), make_folders=True)
    except OutputError as e:  # "cannot write 'x.json': Permission denied"
        raise SaveError(str(e)) from None
    return p


def load_game(path: str | Path, games: Callable[[str], Any] | None = None) -> SavedGame:
    """Read a saved game from ``path`` and check that its moves replay (the file is never changed).

    Args:
        path: a JSON file written by :func:`save_game` (or the autosave).
        games: game name -> game object used to check the moves (default: ``gameplay.rules.registry.make_game``).

    Raises:
        SaveError: unreadable, not a saved game, a newer version, or an illegal move.
    """
    p = Path(path)
    try:
        text = read_text_file(p, f"the saved game {p.name}").text  # refused unread when too large; a BOM, CRLF or
        # Windows-1252 (a save edited in Notepad) read as meant
    except RangeError as e:
        raise SaveError(str(e)) from None
    except (OSError, NotTextError) as e:
        raise SaveError(f"could not read {p.name}: {getattr(e, 'strerror', None) or e}") from None
    saved = SavedGame.loads(text)
    saved.replay(_game(saved.game, games))
    return saved


def _game(name: str, games: Callable[[str], Any] | None) -> Any:
    return (games or make_game)(name)
