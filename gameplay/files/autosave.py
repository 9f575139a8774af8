"""The autosaves of the games in progress: their slots in the user's data folder, written, read and cleared.

Autosaves live in the user's data folder (``platformdirs.user_data_dir("adversarial-arcade")``), or in the
folder named by the environment variable ``ARCADE_DATA_DIR`` (tests always set it), one file per game in
progress: ``autosave-checkers.json``, ``autosave-pig.json``... (a second game of the same kind started while one
is saved, e.g. by ``play checkers``, takes ``autosave-checkers-2.json``: starting a game never overwrites another
one in progress). The single ``autosave.json`` of earlier versions is still read. Every write is atomic
(:func:`gameplay.rules.outfile.write_text`: a temporary file in the same folder, then :func:`os.replace`),
so a crash or a kill mid-write leaves either the old autosave or the new one, never half a file. A file that
cannot be read is moved aside (renamed ``autosave-pig.corrupt-YYYYmmdd-HHMMSS.json``) and reported once;
nothing else is lost.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from gameplay.files.savegame import SavedGame, SaveError, load_game, save_game
from gameplay.rules.registry import game_names
from gameplay.rules.textfile import NotTextError, read_text_file

APP_NAME = "adversarial-arcade"
"""The application name of the user's data folder."""
DATA_DIR_ENV = "ARCADE_DATA_DIR"
"""Environment variable that overrides the data folder (tests, portable installs)."""
AUTOSAVE_NAME = "autosave.json"
"""File name of the single autosave of earlier versions (still read; see :func:`autosave_path`)."""
AUTOSAVE_PREFIX = "autosave-"
"""Autosaves of games in progress are ``autosave-<game>.json`` (then ``autosave-<game>-2.json``...)."""


class CorruptSaveError(SaveError):
    """The autosave could not be read; it was moved aside to :attr:`kept_at` (``None`` if even that failed).

    Args:
        message: what was wrong, ready to show.
        kept_at: where the bad file now is.
    """

    def __init__(self, message: str, kept_at: Path | None) -> None:
        super().__init__(message)
        self.kept_at = kept_at


def data_dir() -> Path:
    """The folder of the autosave: ``$ARCADE_DATA_DIR`` if set, else the user's data folder (not created here)."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    import platformdirs
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def autosave_path(directory: str | Path | None = None, game: str | None = None, n: int = 1) -> Path:
    """Path of an autosave in ``directory`` (default :func:`data_dir`).

    Args:
        directory: the data folder.
        game: the game; ``None`` gives the single ``autosave.json`` of earlier versions.
        n: the slot: 1 is ``autosave-<game>.json``, 2 is ``autosave-<game>-2.json``...
    """
    folder = Path(directory if directory is not None else data_dir())
    if game is None:
        return folder / AUTOSAVE_NAME
    return folder / (f"{AUTOSAVE_PREFIX}{game}.json" if n == 1 else f"{AUTOSAVE_PREFIX}{game}-{n}.json")


def autosave_files(directory: str | Path | None = None, game: str | None = None) -> list[Path]:
    """The autosave files in the folder (of ``game`` only, when given; the old ``autosave.json`` included)."""
    folder = Path(directory if directory is not None else data_dir())
    if not folder.is_dir():
        return []
    out = []
    for p in sorted(folder.iterdir()):
        if p.suffix != ".json" or ".corrupt-" in p.name or not p.is_file():
            continue
        if p.name == AUTOSAVE_NAME:
            out.append(p)
            continue
        stem = p.stem.removeprefix(AUTOSAVE_PREFIX)
        if stem == p.stem:
            continue
        name, _, n = stem.rpartition("-")
        slot_game = name if name and n.isdigit() else stem
        if slot_game in game_names() and game in (None, slot_game):
            out.append(p)
    if game is not None and (folder / AUTOSAVE_NAME) in out:
        try:
            if SavedGame.loads(read_text_file(folder / AUTOSAVE_NAME).text).game != game:
                out.remove(folder / AUTOSAVE_NAME)
        except (OSError, NotTextError, SaveError):
            out.remove(folder / AUTOSAVE_NAME)
    return out


def free_autosave_path(game: str, directory: str | Path | None = None) -> Path:
    """The first free autosave slot of ``game``: ``autosave-<game>.json``, else ``-2``, ``-3``..."""
    n = 1
    while autosave_path(directory, game, n).exists():
        n += 1
    return autosave_path(directory, game, n)


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


def write_autosave(saved: SavedGame, directory: str | Path | None = None, path: str | Path | None = None) -> Path:
    """Write the autosave of ``saved`` (atomically) to ``path``, by default its game's first slot
    (``autosave-<game>.json``). Returns the path.

    Raises:
        SaveError: the data folder cannot be written.
    """
    return save_game(saved, path if path is not None else autosave_path(directory, saved.game))


def load_autosaves(directory: str | Path | None = None, games: Callable[[str], Any] | None = None
                   ) -> tuple[list[SavedGame], list[CorruptSaveError]]:
    """Every autosaved game in progress, newest first, and the problems of those that could not be read.

    A file that cannot be read or replayed is moved aside (``kept_at``), so the next start is clean.

    Returns:
        ``(saved games, problems)``: each saved game's :attr:`SavedGame.path` is its file.
    """
    from dataclasses import replace
    found: list[SavedGame] = []
    problems: list[CorruptSaveError] = []
    for p in autosave_files(directory):
        try:
            found.append(replace(load_game(p, games), path=p))
        except SaveError as e:
            kept = keep_aside(p)
            where = f" It was kept aside as {kept.name}." if kept is not None else ""
            problems.append(CorruptSaveError(f"The autosaved game {p.name} could not be restored: {e}.{where}",
                                             kept))
    found.sort(key=lambda s: s.saved_at, reverse=True)
    return found, problems


def load_autosave(directory: str | Path | None = None, games: Callable[[str], Any] | None = None,
                  game: str | None = None) -> SavedGame | None:
    """The newest autosaved game in progress (of ``game`` when given), or ``None`` when there is none.

    Args:
        directory: the data folder (default :func:`data_dir`).
        games: game name -> game object used to check the moves (default: ``gameplay.rules.registry.make_game``).
        game: only this game's autosaves.

    Returns:
        The saved game (its moves replay legally), or ``None``.

    Raises:
        CorruptSaveError: an autosave exists but cannot be read or replayed; it has been moved aside
            (``kept_at``), so the next start is clean. Show the message once and go on.
    """
    found, problems = load_autosaves(directory, games)
    if problems:
        raise problems[0]
    found = games_of(found, game)
    return found[0] if found else None


def games_of(saves: Sequence[SavedGame], name: str | None) -> list[SavedGame]:
    """The saved games of the game called ``name`` (all of them when ``None``), in the order given."""
    return [s for s in saves if name in (None, s.game)]


def clear_autosave(directory: str | Path | None = None, game: str | None = None, path: str | Path | None = None
                   ) -> bool:
    """Delete autosaves (the game ended, or the player discarded it): the file ``path`` when given, else every
    autosave of ``game``, else every autosave. Returns True when a file was removed."""
    targets = [Path(path)] if path is not None else autosave_files(directory, game)
    removed = False
    for p in targets:
        try:
            p.unlink()
            removed = True
        except OSError:
            pass
    return removed
