"""Output files written whole or not at all: a half-written PNG, JSON or PDN never stays behind.

Every file a command writes (``match --pdn`` and ``--plot``, ``plot --out``, ``tree --out``, ``shot --out``) is
written to a temporary file beside it, then renamed over the target with :func:`os.replace` (atomic on one file
system). When the writing fails or is interrupted (Ctrl+C: ``KeyboardInterrupt``), the temporary file is removed
and the target is untouched: an old file keeps its content, a new one does not appear.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path
from typing import Iterator

__all__ = ["replacing", "write_text"]


@contextlib.contextmanager
def replacing(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path`` (same suffix, so writers that go by the suffix pick the same format:
    matplotlib, ``pygame.image.save``); when the block ends normally it replaces ``path``, otherwise it is removed.

    The temporary file is created (empty) with the permissions a new file gets (``0o666`` less the umask), and the
    folder of ``path`` is made if missing.

    Raises:
        OSError: the folder or the file cannot be made or renamed (the target is untouched).
    """
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f".{p.stem}.{os.getpid()}-{secrets.token_hex(4)}.part{p.suffix}")
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    try:
        yield tmp
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_text(path: str | Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all (:func:`replacing`). Returns the path.

    Raises:
        OSError: the file cannot be written (the target is untouched).
    """
    p = Path(path)
    with replacing(p) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return p
