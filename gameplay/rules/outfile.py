"""Output files written whole or not at all: a half-written PNG, JSON or PDN never stays behind.

Every file the program writes (``match --pdn`` and ``--plot``, ``plot --out``, ``tree --out``, ``shot --out``, the
tournament's report, the endgame tables, the Pig policy's cache) is written to a temporary file beside it with a
name no other writer uses, flushed to the disk (``os.fsync``), then renamed over the target with
:func:`os.replace` (atomic on one file system). When the writing fails or is interrupted (Ctrl+C:
``KeyboardInterrupt``), the temporary file is removed and the target is untouched: an old file keeps its content,
a new one does not appear; a power cut after the rename leaves the new file whole.

Standard library only, beside the rules (``ai`` writes its tables through it too).

A target that cannot be written is refused in one line (:class:`OutputError`, a ``GameError``: exit 2), by
:func:`check_target` before any work starts, and by :func:`replacing` when the writing itself fails (a full
disk). A folder that does not exist is refused too (a mistyped ``--out`` never leaves folders behind, anywhere on
the disk): only the program's own files (settings, saves, tables, its data folder) are written with
``make_folders=True``.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path
from typing import Iterator

from gameplay.rules.base import GameError, quoted_path

__all__ = ["OutputError", "check_target", "replacing", "write_bytes", "write_text"]


class OutputError(GameError, OSError):
    """An output file that cannot be written: ``cannot write 'a/x.png': 'a' is a file, not a folder`` (bad input
    to the command line, exit 2; an ``OSError`` too, for callers that treat any failed write alike)."""


def _cannot(path: Path, why: str) -> OutputError:
    return OutputError(f"cannot write {quoted_path(str(path))}: {why}")


def check_target(path: str | Path, *, make_folders: bool = False) -> Path:
    """``path`` checked as a file to write, before the work that makes it: not a folder, and its folder exists and
    is writable (with ``make_folders``: or can be made, no part of it being a file). Returns the path.

    Raises:
        OutputError: one of these does not hold (the message says which).
    """
    p = Path(path)
    if p.is_dir():
        raise _cannot(p, "it is a folder; expected a file name")
    if not make_folders and not p.parent.is_dir() and not (p.parent.exists() or p.parent == p.parent.parent):
        raise _cannot(p, f"the folder {quoted_path(str(p.parent))} does not exist (make it first)")
    parent = p.parent
    while not parent.exists():  # the nearest part of the path that exists must be a writable folder
        if parent == parent.parent:
            break
        parent = parent.parent
    if parent.exists() and not parent.is_dir():
        raise _cannot(p, f"{quoted_path(str(parent))} is a file, not a folder")
    if parent.is_dir() and not os.access(parent, os.W_OK | os.X_OK):
        raise _cannot(p, f"no permission to write in the folder {quoted_path(str(parent))}")
    return p


@contextlib.contextmanager
def replacing(path: str | Path, *, make_folders: bool = False) -> Iterator[Path]:
    """Yield a temporary path beside ``path`` (same suffix, so writers that go by the suffix pick the same format:
    matplotlib, ``pygame.image.save``); when the block ends normally it replaces ``path``, otherwise it is removed.

    The temporary file is created (empty) with the permissions a new file gets (``0o666`` less the umask); the
    folder of ``path`` must exist, or with ``make_folders`` is made (:func:`check_target`).

    Raises:
        OutputError: the folder or the file cannot be made, written or renamed (the target is untouched); the
            message names the path and the system's reason.
    """
    p = check_target(path, make_folders=make_folders)
    try:
        if make_folders:
            p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(f".{p.stem}.{os.getpid()}-{secrets.token_hex(4)}.part{p.suffix}")
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except OSError as e:
        raise _cannot(p, e.strerror or type(e).__name__) from None
    try:
        yield tmp
        fd = os.open(tmp, os.O_RDONLY)  # the writer closed its own handle: flush the file's data to the disk
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, p)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError):  # the writing failed (a full disk, a file system gone): one line
            raise _cannot(p, e.strerror or str(e) or type(e).__name__) from None
        raise


def write_text(path: str | Path, text: str, *, make_folders: bool = False) -> Path:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all (:func:`replacing`; ``make_folders`` as there). Returns
    the path.

    Raises:
        OutputError: the file cannot be written (the target is untouched).
    """
    p = Path(path)
    with replacing(p, make_folders=make_folders) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return p


def write_bytes(path: str | Path, data: bytes, *, make_folders: bool = False) -> Path:
    """Write ``data`` to ``path`` whole or not at all (:func:`replacing`; ``make_folders`` as there). Returns the
    path.

    Raises:
        OutputError: the file cannot be written (the target is untouched).
    """
    p = Path(path)
    with replacing(p, make_folders=make_folders) as tmp:
        tmp.write_bytes(data)
    return p
