"""Saved games: the autosave of the game in progress, and games saved to or loaded from a file.

Pure Python (no pygame): the window calls these functions, and tests use them directly.

A saved game is one JSON object (format version :data:`VERSION`)::

    {"format": "adversarial-arcade-game", "version": 1, "game": "pig", "start": "0,0,0,1",
     "moves": ["roll", "die=4", "hold"], "agents": ["human", "medium"], "saved_at": "2025-01-31T12:00:00"}

``start`` is the start position in the game's notation (``format_position``) and ``moves`` are the moves in
the game's notation (``format_move``), dice outcomes of Pig included (``die=N``), so a game is restored by
replaying them with ``parse_move``. ``agents`` are the agent specs of both sides (``human``, a preset such as
``medium``, or a full spec such as ``alphabeta:depth=4,...``).

The autosave lives in the user's data folder (``platformdirs.user_data_dir("adversarial-arcade")``), or in the
folder named by the environment variable ``ARCADE_DATA_DIR`` (tests always set it). Every write is atomic: a
temporary file in the same folder, then :func:`os.replace`, so a crash or a kill mid-write leaves either the old
autosave or the new one, never half a file. A file that cannot be read is moved aside (renamed
``autosave.corrupt-YYYYmmdd-HHMMSS.json``) and reported once; nothing else is lost.
"""

from __future__ import annotations

import datetime
import json
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gameplay.rules.registry import GAME_NAMES, make_game
from gameplay.rules.registry import GAMES as REGISTERED_GAMES

FORMAT = "adversarial-arcade-game"
"""The ``format`` field of a saved game."""
VERSION = 1
"""The current format version; files with a higher version are refused with a clear message."""
APP_NAME = "adversarial-arcade"
"""The application name of the user's data folder."""
DATA_DIR_ENV = "ARCADE_DATA_DIR"
"""Environment variable that overrides the data folder (tests, portable installs)."""
AUTOSAVE_NAME = "autosave.json"
"""File name of the autosave inside the data folder."""
GAMES: tuple[str, ...] = GAME_NAMES
"""Games a save may hold (the registry's, :mod:`gameplay.rules.registry`)."""
GAME_TITLES: dict[str, str] = {g.name: g.noun for g in REGISTERED_GAMES}
"""Names of the games in messages (``GameInfo.noun``), e.g. ``checkers``."""


class SaveError(Exception):
    """A saved game cannot be written, read or replayed; the message is ready to show to the user."""


class CorruptSaveError(SaveError):
    """The autosave could not be read; it was moved aside to :attr:`kept_at` (``None`` if even that failed).

    Args:
        message: what was wrong, ready to show.
        kept_at: where the bad file now is.
    """

    def __init__(self, message: str, kept_at: Path | None) -> None:
        super().__init__(message)
        self.kept_at = kept_at


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

    @property
    def ply(self) -> int:
        """Moves (and chance outcomes) played."""
        return len(self.moves)

    @property
    def title(self) -> str:
        """The game's name for messages, e.g. ``"checkers"``."""
        return GAME_TITLES.get(self.game, self.game)

    def prompt(self) -> str:
        """The resume question, e.g. ``"Resume your checkers game (move 12)?"`` (12 moves played)."""
        return f"Resume your {self.title} game (move {self.ply})?"

    def to_json(self) -> dict[str, Any]:
        """The JSON object written to disk."""
        return {"format": FORMAT, "version": VERSION, "game": self.game, "start": self.start,
                "moves": list(self.moves), "agents": list(self.agents), "saved_at": self.saved_at}

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
        if game not in GAMES:
            raise SaveError(f"unknown game {game!r} in the saved game; expected one of {', '.join(GAMES)}")
        if not isinstance(start, str):
            raise SaveError("the saved game has no start position (\"start\" must be a string)")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise SaveError("the saved game's \"moves\" must be a list of strings")
        if (not isinstance(agents, list) or len(agents) != 2
                or not all(isinstance(a, str) and a for a in agents)):
            raise SaveError("the saved game's \"agents\" must be two agent specs")
        saved_at = obj.get("saved_at", "")
        known = {"format", "version", "game", "start", "moves", "agents", "saved_at"}
        return cls(game, start, tuple(moves), (agents[0], agents[1]), str(saved_at),
                   {k: v for k, v in obj.items() if k not in known})

    @classmethod
    def loads(cls, text: str) -> SavedGame:
        """Read a saved game from JSON text.

        Raises:
            SaveError: not JSON, or as :meth:`from_json`.
        """
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            raise SaveError(f"not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
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
            raise SaveError(f"the start position {self.start!r} is not valid: {e}") from None
        start = state
        out: list[Any] = []
        for i, text in enumerate(self.moves):
            try:
                move = game.parse_move(state, text)
                state = game.result(state, move)
            except GameError as e:
                raise SaveError(f"move {i + 1} ({text!r}) cannot be played: {e}") from None
            out.append(move)
        return start, out


def agent_spec(agent: Any) -> str:
    """The spec that rebuilds ``agent`` (an :class:`ai.agents.Agent`): its preset name, ``human``, or the full
    settings spec (custom evaluation weights are not kept)."""
    settings = agent.settings
    if getattr(agent, "is_human", False) or settings.algorithm == "human":
        return "human"
    from ai.agents import PRESETS
    if settings.name in PRESETS:
        return str(settings.name)
    return str(settings.spec())


def from_record(game_name: str, game: Any, start: Any, moves: Sequence[Any], agents: Sequence[str]) -> SavedGame:
    """A :class:`SavedGame` of a game in progress.

    Args:
        game_name: ``tictactoe``, ``checkers`` or ``pig``.
        game: the game object (for its notation).
        start: the start state.
        moves: moves and chance outcomes played from ``start``.
        agents: the two agent specs (see :func:`agent_spec`).

    Returns:
        The saved game, stamped with the local time.
    """
    texts: list[str] = []
    state = start
    for m in moves:
        texts.append(game.format_move(state, m))
        state = game.result(state, m)
    stamp = datetime.datetime.now().isoformat(timespec="seconds")
    return SavedGame(game_name, game.format_position(start), tuple(texts), (agents[0], agents[1]), stamp)


# ----- files ---------------------------------------------------------------------------------------------------------
def data_dir() -> Path:
    """The folder of the autosave: ``$ARCADE_DATA_DIR`` if set, else the user's data folder (not created here)."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    import platformdirs
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def autosave_path(directory: str | Path | None = None) -> Path:
    """Path of the autosave file in ``directory`` (default :func:`data_dir`)."""
    return Path(directory if directory is not None else data_dir()) / AUTOSAVE_NAME


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file in the same folder, flushed, then ``os.replace``.

    Raises:
        OSError: the folder cannot be created or written (the old file, if any, is untouched).
    """
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=p.name + ".", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def keep_aside(path: str | Path) -> Path | None:
    """Rename a bad file to ``NAME.corrupt-YYYYmmdd-HHMMSS.EXT`` next to it; returns the new path (``None`` when
    the rename failed)."""
    p = Path(path)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    target = p.with_name(f"{p.stem}.corrupt-{stamp}{p.suffix}")
    n = 1
    while target.exists():
        n += 1
        target = p.with_name(f"{p.stem}.corrupt-{stamp}-{n}{p.suffix}")
    try:
        os.replace(p, target)
    except OSError:
        return None
    return target


def save_game(saved: SavedGame, path: str | Path) -> Path:
    """Write ``saved`` to ``path`` as JSON (atomically). Returns the path.

    Raises:
        SaveError: the file cannot be written (the message names it).
    """
    p = Path(path)
    try:
        atomic_write_text(p, saved.dumps())
    except OSError as e:
        raise SaveError(f"could not write {p}: {e.strerror or e}") from None
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
        text = p.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise SaveError(f"could not read {p.name}: {getattr(e, 'strerror', None) or e}") from None
    saved = SavedGame.loads(text)
    saved.replay(_game(saved.game, games))
    return saved


def _game(name: str, games: Callable[[str], Any] | None) -> Any:
    return (games or make_game)(name)


def write_autosave(saved: SavedGame, directory: str | Path | None = None) -> Path:
    """Replace the autosave with ``saved`` (atomically). Returns its path.

    Raises:
        SaveError: the data folder cannot be written.
    """
    return save_game(saved, autosave_path(directory))


def load_autosave(directory: str | Path | None = None, games: Callable[[str], Any] | None = None
                  ) -> SavedGame | None:
    """The autosaved game in progress, or ``None`` when there is none.

    Args:
        directory: the data folder (default :func:`data_dir`).
        games: game name -> game object used to check the moves (default: ``gameplay.rules.registry.make_game``).

    Returns:
        The saved game (its moves replay legally), or ``None``.

    Raises:
        CorruptSaveError: the autosave exists but cannot be read or replayed; it has been moved aside
            (``kept_at``), so the next start is clean. Show the message once and go on.
    """
    p = autosave_path(directory)
    if not p.exists():
        return None
    try:
        return load_game(p, games)
    except SaveError as e:
        kept = keep_aside(p)
        where = f" It was kept aside as {kept.name}." if kept is not None else ""
        raise CorruptSaveError(f"The autosaved game could not be restored: {e}.{where}", kept) from None


def clear_autosave(directory: str | Path | None = None) -> bool:
    """Delete the autosave (the game ended, or the player discarded it). Returns True when a file was removed."""
    try:
        autosave_path(directory).unlink()
    except FileNotFoundError:
        return False
    except OSError:
        return False
    return True
