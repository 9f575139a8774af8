"""Text files written by other programs on other systems, read as their authors meant: the one decoding path of
every reader of a file a person or another program wrote (PDN archives, TOML settings and agent specs, JSON saves,
trees and books, Python agent files).

:func:`decode_text` turns a file's bytes into text:

1. A byte-order mark names the encoding: UTF-8 (``EF BB BF``, as Windows Notepad writes it), UTF-16 (``FF FE``,
   ``FE FF``: Notepad's "Unicode", PowerShell 5's ``>``) or UTF-32. Without one, UTF-16 whose every other byte is
   NUL (text of Latin letters) is recognised too.
2. Otherwise a NUL byte among the first :data:`SNIFF_BYTES` bytes means it is not a text file (an image, a zip, a
   program; the rule git uses), and :class:`NotTextError` says so. A NUL further on is kept as a character: the
   format's reader then names its line and column, and the rest of the file is read.
3. Otherwise the text is UTF-8; a line that is not UTF-8 is read as Windows-1252 (what Windows programs write in
   Western Europe: ``é`` is one byte ``E9``), each line on its own, so a UTF-8 archive with one game pasted from an
   older program keeps both right. :attr:`TextFile.warning` names the first such line and column. The five bytes
   Windows-1252 leaves undefined (``81 8D 8F 90 9D``) are read as the Latin-1 characters Windows maps them to.
4. Line ends become ``\\n`` (Windows ``\\r\\n``, old Mac ``\\r``), and byte-order marks inside the text (where two
   files were joined with ``copy a+b``) are dropped, so line and column numbers count as an editor shows them.

Standard library only (:mod:`codecs`); a detector of any encoding (charset-normalizer) would guess among dozens of
encodings where these files come in three.
"""

from __future__ import annotations

import codecs
import json
import re
from dataclasses import dataclass
from pathlib import Path

from gameplay.rules.base import GameError, quoted
from gameplay.rules.limits import check_file_size

SNIFF_BYTES = 8000
"""A NUL byte among the first this many bytes makes a file binary (git's rule)."""

_BOMS = (  # longest first: the UTF-32 little-endian mark begins with the UTF-16 one
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_NAMES = {"utf-8": "UTF-8", "utf-16-le": "UTF-16", "utf-16-be": "UTF-16", "utf-32-le": "UTF-32",
          "utf-32-be": "UTF-32"}
_LINE_ENDS = re.compile(r"\r\n?")


class NotTextError(GameError):
    """The bytes are not text (NUL bytes near the start, or a byte-order mark the rest does not follow).

    The message is one line that says why (``it is not a text file (a NUL byte at byte 12)``); readers add what
    the file should have been."""


@dataclass(frozen=True)
class TextFile:
    """A file's text as its author meant it, and how it was read."""

    text: str
    """The text: line ends ``\\n``, no byte-order mark."""
    encoding: str
    """``"utf-8"``, ``"utf-16-le"``, ``"utf-16-be"``, ``"utf-32-le"``, ``"utf-32-be"``, ``"windows-1252"`` (no
    line was UTF-8 where the two differ) or ``"utf-8+windows-1252"`` (some lines each)."""
    bom: bool = False
    """True when the file began with a byte-order mark."""
    windows_1252_lines: tuple[int, ...] = ()
    """1-based lines read as Windows-1252 (they were not UTF-8)."""
    warning: str | None = None
    """One line when some lines were not UTF-8 (``"line 3 is not UTF-8 (byte 0xE9 at column 12): read as
    Windows-1252"``), else ``None``."""


def _cp1252_undefined(err: UnicodeError) -> tuple[str, int]:
    """Codec error handler: the bytes Windows-1252 leaves undefined are read as Windows reads them (U+0081...)."""
    if not isinstance(err, UnicodeDecodeError):
        raise err
    return err.object[err.start:err.end].decode("latin-1"), err.end


codecs.register_error("arcade-cp1252", _cp1252_undefined)


def _finish(text: str) -> str:
    if "\r" in text:
        text = _LINE_ENDS.sub("\n", text)
    return text.replace("\ufeff", "") if "\ufeff" in text else text


def _utf16_without_bom(head: bytes) -> str | None:
    """``"utf-16-le"`` / ``"utf-16-be"`` when ``head`` looks like UTF-16 text with no byte-order mark (every NUL
    on one parity, and at least half of that parity NUL: mostly Latin text), else ``None``."""
    if len(head) < 4:
        return None
    even, odd = head[0::2], head[1::2]
    for zeros, other, name in ((odd, even, "utf-16-le"), (even, odd, "utf-16-be")):
        if b"\0" not in other and zeros.count(0) * 2 >= len(zeros):
            return name
    return None


def decode_text(data: bytes, declared: str | None = None) -> TextFile:
    """The text of a file's bytes (see the module's description for the rules).

    Args:
        data: the whole file.
        declared: the encoding the file itself declares (a Python file's ``# -*- coding: latin-1 -*-``, PEP 263),
            used when there is no byte-order mark and the start holds no NUL byte; an unknown name, or bytes it
            cannot decode, leave the rules to decide.

    Returns:
        The :class:`TextFile`.

    Raises:
        NotTextError: NUL bytes among the first :data:`SNIFF_BYTES` bytes (and not UTF-16 or UTF-32), or a
            UTF-16/UTF-32 byte-order mark followed by bytes that are not in that encoding.
    """
    encoding, bom = None, b""
    for mark, name in _BOMS:
        if data.startswith(mark):
            encoding, bom = name, mark
            break
    if encoding is None and b"\0" in data[:SNIFF_BYTES]:
        head = data[:SNIFF_BYTES]
        encoding = _utf16_without_bom(head[:len(head) - len(head) % 2])
        if encoding is None:
            nul = data.index(0) + 1
            raise NotTextError(f"it is not a text file (it holds NUL bytes, the first at byte {nul:,})")
    if encoding is not None and encoding != "utf-8":
        try:
            text = data[len(bom):].decode(encoding)
        except UnicodeDecodeError as e:
            raise NotTextError(f"it is not a text file (it begins as {_NAMES[encoding]} text"
                               f"{' with a byte-order mark' if bom else ''}, but byte {e.start + len(bom) + 1:,} "
                               f"is not {_NAMES[encoding]})") from None
        if "\0" in text[:SNIFF_BYTES]:
            nul = text.index("\0") + 1
            raise NotTextError(f"it is not a text file (it holds NUL characters, the first at character {nul:,})")
        return TextFile(_finish(text), encoding, bool(bom))
    body = data[len(bom):]
    if declared is not None and not bom:
        try:
            return TextFile(_finish(body.decode(declared)), codecs.lookup(declared).name)
        except (LookupError, UnicodeDecodeError):
            pass
    try:
        return TextFile(_finish(body.decode("utf-8")), "utf-8", bool(bom))
    except UnicodeDecodeError:
        pass
    return _decode_lines(body, bool(bom))


def _decode_lines(body: bytes, bom: bool) -> TextFile:
    """UTF-8 line by line, Windows-1252 for the lines that are not."""
    parts: list[str] = []
    bad: list[int] = []
    first = ""
    utf8_lines = 0
    for number, line in enumerate(body.splitlines(keepends=True), 1):
        try:
            parts.append(line.decode("utf-8"))
            if not line.isascii():
                utf8_lines += 1
        except UnicodeDecodeError as e:
            parts.append(line.decode("cp1252", errors="arcade-cp1252"))
            if not bad:
                column = len(line[:e.start].decode("utf-8")) + 1
                first = f"byte 0x{line[e.start]:02X} at column {column}"
            bad.append(number)
    if len(bad) == 1:
        warning = f"line {bad[0]} is not UTF-8 ({first}): read as Windows-1252"
    else:
        warning = (f"{len(bad):,} lines are not UTF-8 (the first: line {bad[0]}, {first}): read as "
                   "Windows-1252")
    return TextFile(_finish("".join(parts)), "utf-8+windows-1252" if utf8_lines else "windows-1252", bom,
                    tuple(bad), warning)


def read_file_bytes(path: str | Path, what: str | None = None) -> bytes:
    """The bytes of the file ``path``, refused unread when larger than :data:`gameplay.rules.limits.FILE_BYTES`.

    Args:
        what: how an error names the file (e.g. ``"tree file 'x.json'"``); default ``file 'name'``.

    Raises:
        OSError: the file cannot be read (missing, a folder, no permission).
        RangeError: it is too large (one line: its size and the limit).
    """
    p = Path(path)
    check_file_size(p.stat().st_size, what or f"file {quoted(p.name)}")
    return p.read_bytes()


def read_text_file(path: str | Path, what: str | None = None) -> TextFile:
    """Read and decode the file ``path`` (see :func:`decode_text`), refused unread when too large
    (:func:`read_file_bytes`).

    Raises:
        OSError: the file cannot be read (missing, a folder, no permission).
        RangeError: it is larger than :data:`gameplay.rules.limits.FILE_BYTES`.
        NotTextError: it is not a text file.
    """
    return decode_text(read_file_bytes(path, what))


def json_place(e: json.JSONDecodeError) -> str:
    """Where a JSON document is wrong, as every message about a JSON file says it: ``"line 1, column 11"`` (1-based,
    as an editor counts; the line is named for a document of one line too)."""
    return f"line {e.lineno}, column {e.colno}"


def json_problem(e: json.JSONDecodeError) -> str:
    """The one form of a JSON decoding error in a message about a file (a tree, a save, a book):
    ``"not valid JSON (line 1, column 11: Expecting value)"``."""
    return f"not valid JSON ({json_place(e)}: {e.msg})"


def position(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of the character at ``offset`` of ``text`` (as an editor counts them)."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1
