"""The settings file: where it lives, reading it (never raising for a bad file), and writing it atomically.

The file is ``settings.toml`` in :func:`config_dir` (``platformdirs.user_config_dir("adversarial-arcade")``, or
the folder named by the environment variable ``ARCADE_CONFIG_DIR``). It is read with :mod:`tomllib` and written
with ``tomli_w`` atomically (a temporary file in the same folder, then :func:`os.replace`). :func:`load_settings`
never raises for a bad file: an unreadable or corrupt file gives the defaults, an invalid value gives that field's
default (the others are kept); either way a copy of the bad file is kept as ``settings.toml.bad-YYYYmmdd-HHMMSS``
and the one-line :attr:`LoadResult.message` says so (the title screen shows it). Keys this version does not know
are kept (and written back) and named in the message too.
"""

from __future__ import annotations

import os
import shutil
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

from gameplay.files.settings import Settings
from gameplay.rules.textfile import NotTextError, read_text_file

APP_NAME = "adversarial-arcade"
"""Name of the folder under the user's config directory."""
CONFIG_ENV = "ARCADE_CONFIG_DIR"
"""Environment variable that overrides the config folder (tests point it at a temporary folder)."""
FILE_NAME = "settings.toml"


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

    from gameplay.rules.outfile import write_text
    path = settings_path() if path is None else path
    write_text(path, tomli_w.dumps(settings.to_dict()), make_folders=True)
    return path


def unknown_note(settings: Settings) -> str:
    """What the load message says of the keys kept but not used (``""`` when there are none): their dotted paths,
    and for an unknown weight name the game's features (``checkers weights are men, kings, ...``)."""
    unknown = settings.unknown_keys()
    if not unknown:
        return ""
    from ai.agents.profiles import profile_for
    note = f"unknown settings kept in the file but not used: {', '.join(unknown)}"
    games = dict.fromkeys(name for name, gs in settings.games.items() for side in gs.sides if side.weights_extra)
    for name in games:
        note += f" ({name} weights are {', '.join(profile_for(name).features)})"
    return note
