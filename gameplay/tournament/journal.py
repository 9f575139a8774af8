"""The tournament journal: one JSON line per finished game, written as each game ends, so nothing is lost.

The file's first line is the header, ``{"type": "tournament", "version": 1, "id": ..., "created": ...,
<definition>}`` (``gameplay.tournament.model.TournamentSpec.definition``); every other line is one finished game,
``{"type": "game", "key": ..., "round", "first", "second", "winner", "termination", "forfeit_by", "reason",
"detail", "plies", "elapsed_s", "moves", "load_failed", "disqualified", "output", "file", "opening", "number",
"finished"}`` (``winner`` and ``forfeit_by`` are agent names or ``null``; ``load_failed`` the agents that could not
start, ``disqualified`` true for a game not played because of that, ``output`` what each agent printed, capped:
``gameplay.tournament.faults``). Each line is written whole, then flushed and ``os.fsync``'d before the next game is
counted, so a killed tournament (even SIGKILL or a power cut) keeps every game it reported; a line cut short by
the kill is dropped when the journal is read again (its game is simply played again).

A journal belongs to one tournament: opening it with a different definition (other agents, an agent file that
changed, another format, game count, time limit or seed) is an error, and so is a game line whose key is not in
the schedule. The journal is keyed by game: a key already in it is never played or counted again (a duplicate
line, which only a hand edit could make, is ignored with a warning). While a tournament runs, the file is
locked (``fcntl.flock``, where the platform has it), so two runs cannot write the same journal.
"""

from __future__ import annotations

import json
import os
import sys
import time
import uuid
from pathlib import Path
from typing import IO, Any, Iterable

from gameplay.rules.base import quoted, quoted_path
from gameplay.tournament.model import TournamentError, TournamentSpec

VERSION = 1


class Journal:
    """An open journal: the games already finished (:attr:`games`, key -> record) and :meth:`append`.

    Use :func:`open_journal`; close it (or use it as a context manager) to release the lock.
    """

    def __init__(self, path: Path, header: dict[str, Any], games: dict[str, dict[str, Any]], handle: IO[str]
                 ) -> None:
        self.path = path
        self.header = header
        self.games = games
        """Finished games, in journal order: key -> record."""
        self._handle = handle

    @property
    def tournament_id(self) -> str:
        """The random id written in the header when the journal was created."""
        return str(self.header.get("id", ""))

    def append(self, record: dict[str, Any]) -> None:
        """Write one finished game (a line, flushed and fsync'd) and add it to :attr:`games`.

        Raises:
            TournamentError: the key is already in the journal (a game is never counted twice), or the write
                fails (disk full, ...).
        """
        key = record["key"]
        if key in self.games:
            raise TournamentError(f"game {quoted(key)} is already in the journal")
        line = json.dumps({"type": "game", **record}, ensure_ascii=False) + "\n"
        try:
            self._handle.write(line)
            self._handle.flush()
            os.fsync(self._handle.fileno())
        except OSError as e:
            raise TournamentError(f"cannot write the journal {self.path}: {e.strerror or e}") from None
        self.games[key] = dict(record)

    def close(self) -> None:
        """Release the lock and close the file."""
        if not self._handle.closed:
            self._handle.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_journal(path: Path, spec: TournamentSpec, schedule_keys: Iterable[str] | None = None) -> Journal:
    """Open (or create) the journal of ``spec`` at ``path`` and read the games already finished.

    Args:
        path: the journal file (created with its folder when missing or empty).
        spec: the tournament it must belong to.
        schedule_keys: every key the tournament can have (round robin), to refuse a foreign game line; ``None``
            (Swiss, whose later rounds depend on results) checks the keys later (:func:`check_keys`).

    Returns:
        The open, locked journal.

    Raises:
        TournamentError: the file cannot be read or written, is locked by another running tournament, is not a
            journal, belongs to another tournament (the message names the first difference), or holds a game
            that is not in the schedule, or a malformed line (with its line number).
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - kept open (and locked) while the run lasts
    except OSError as e:
        raise TournamentError(f"cannot open the journal {quoted_path(str(path))}: {e.strerror or e}") from None
    try:
        _lock(handle, path)
        handle.seek(0)
        text = handle.read()
        header, games = _parse(path, text, spec)
        if header is None:
            header = {"type": "tournament", "version": VERSION, "id": uuid.uuid4().hex[:12],
                      "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"), **spec.definition()}
            handle.seek(0)
            handle.truncate()
            handle.write(json.dumps(header, ensure_ascii=False) + "\n")
        else:
            complete = text.rfind("\n") + 1
            if complete < len(text):  # a line cut short by a kill: drop it, its game is played again
                handle.truncate(len(text[:complete].encode("utf-8")))
        handle.flush()
        os.fsync(handle.fileno())
        handle.seek(0, os.SEEK_END)
        if schedule_keys is not None:
            check_keys(path, games, set(schedule_keys))
    except BaseException:
        handle.close()
        raise
    return Journal(path, header, games, handle)


def check_keys(path: Path, games: dict[str, dict[str, Any]], allowed: set[str]) -> None:
    """Raise :class:`TournamentError` when a journaled game's key is not among ``allowed``."""
    for key in games:
        if key not in allowed:
            raise TournamentError(f"the journal {path} has a game that is not in this tournament's schedule: "
                                  f"{quoted(key)} (was it edited, or written by another version?)")


def read_journal(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the game records of a journal file, without a tournament to check them against (for a
    report of a finished tournament).

    Raises:
        TournamentError: the file cannot be read, or is not a journal.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise TournamentError(f"cannot read the journal {quoted_path(str(path))}: {e.strerror or e}") from None
    header, games = _parse(path, text, None)
    if header is None:
        raise TournamentError(f"{path} is empty: not a tournament journal")
    return header, list(games.values())


def _lock(handle: IO[str], path: Path) -> None:
    try:
        import fcntl
    except ImportError:  # Windows: no advisory lock
        return
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise TournamentError(f"the journal {path} is in use by another running tournament") from None


def _parse(path: Path, text: str, spec: TournamentSpec | None
           ) -> tuple[dict[str, Any] | None, dict[str, dict[str, Any]]]:
    lines = text.split("\n")
    if not text.endswith("\n"):
        lines = lines[:-1]  # the unfinished last line (or "" for an empty file)
    header: dict[str, Any] | None = None
    games: dict[str, dict[str, Any]] = {}
    duplicates = 0
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise TournamentError(f"{path}:{lineno}: not a JSON line (column {e.colno}: {e.msg}): {quoted(line)}"
                                  ) from None
        if not isinstance(obj, dict):
            raise TournamentError(f"{path}:{lineno}: expected a JSON object, got {quoted(line)}")
        if header is None:
            if obj.get("type") != "tournament":
                raise TournamentError(f"{path} is not a tournament journal (its first line has no "
                                      "\"type\": \"tournament\")")
            header = obj
            if spec is not None:
                _check_header(path, header, spec)
            continue
        if obj.get("type") != "game" or not isinstance(obj.get("key"), str):
            raise TournamentError(f"{path}:{lineno}: expected a game line with a \"key\", got {quoted(line)}")
        missing = [k for k in ("round", "first", "second", "winner") if k not in obj]
        if missing:
            raise TournamentError(f"{path}:{lineno}: the game line lacks {', '.join(missing)}")
        if spec is not None:
            for k in ("first", "second"):
                if obj[k] not in spec.names:
                    raise TournamentError(f"{path}:{lineno}: agent {quoted(str(obj[k]))} is not in this tournament")
        if obj["key"] in games:
            duplicates += 1
            continue
        games[obj["key"]] = obj
    if duplicates:
        sys.stderr.write(f"warning: {path}: {duplicates} duplicate game line(s) ignored (each game counts once)\n")
    return header, games


def _check_header(path: Path, header: dict[str, Any], spec: TournamentSpec) -> None:
    want = spec.definition()
    for k, v in want.items():
        have = header.get(k)
        if have == v:
            continue
        if k == "agents" and isinstance(have, list):
            old = {a.get("name"): a for a in have if isinstance(a, dict)}
            new = {a["name"]: a for a in v}
            if set(old) != set(new):
                diff = sorted(set(old) ^ set(new), key=str)
                what = f"the agents differ ({', '.join(map(str, diff[:4]))})"
            else:
                changed = next(n for n in new if old[n] != new[n])
                if old[changed].get("spec") != new[changed]["spec"]:
                    what = f"agent {changed} has another spec"
                elif old[changed].get("fingerprint") != new[changed]["fingerprint"]:
                    what = f"the file of agent {changed} changed since the tournament started"
                else:
                    what = "the agents are in another order"
        else:
            what = f"{k} is {json.dumps(have)} there, {json.dumps(v)} here"
        raise TournamentError(f"the journal {path} belongs to another tournament: {what}; "
                              "rerun with the same arguments to resume it, or give another --journal")
