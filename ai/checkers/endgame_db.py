"""Win/loss/draw (WLD) endgame databases for English checkers: indexing, the table file, loading and probing.

Source: the tables are built by retrograde analysis (K. Thompson, "Retrograde analysis of certain endgames",
ICCA Journal 9(3), 1986; for checkers the Chinook endgame databases: J. Schaeffer and R. Lake, "Solving the game
of checkers", Games of No Chance, MSRI Publications 29, 1996, and J. Schaeffer et al., "Checkers is solved",
Science 317, 2007) in :mod:`ai.checkers.endgame_build`, on the move generator's own bitboards and checked against
the game's move generator (:class:`gameplay.rules.checkers.checkers.Checkers`), so the rules are exactly those of
RULES.md.

What a value means. ``+1``: the side to move wins with best play; ``-1``: it loses; ``0``: neither side can force
a win. The values are *theoretical*: the draw rules (threefold repetition, the 80-ply / 40-move rule) are
ignored, so a table win may take longer than 80 quiet plies over the board; a win or loss proven by a search
under the draw rules is always a table win or loss too.

Material signature. ``(bk, bm, wk, wm)``: Black's kings and men, White's kings and men. Every signature with
each side holding at least one piece and at most ``max_pieces`` pieces in total (2..5) is covered.

Colour symmetry. Turning the board through 180 degrees (square ``s`` to ``33 - s``, i.e. reversing the 32-bit
bitboard) and swapping the colours maps a position with White to move onto one with Black to move. The tables
hold only positions with **Black to move**; a White-to-move position is probed through its mirror image. So the
table of signature ``(bk, bm, wk, wm)`` also answers the White-to-move positions of ``(wk, wm, bk, bm)``.

Index. Within a signature, ``index = ((r_bm * C(28, wm) + r_wm) * C(32, bk) + r_bk) * C(32, wk) + r_wk`` where
``r_bm`` is the rank (combinatorial number system, colex order) of the set of Black men among squares 1..28
(a Black man is never on 29..32), ``r_wm`` that of the White men among squares 5..32, and ``r_bk``, ``r_wk``
those of the kings among all 32 squares. Placements with two pieces on one square get an index too; they hold
the code "no position". Signatures are laid out one after another in :func:`signatures` order, so the tables of
up to 4 pieces are the first 7,455,300 entries of the 5-piece tables too.

Sizes. Up to 4 pieces: 7,455,300 entries in 41 signatures (1.9 MB packed); up to 5 pieces: 187,110,300 entries
in 85 signatures (46.8 MB packed; one side may then have 4 pieces, :data:`MAX_SIDE`); 6 pieces would be
3,739,728,040 entries (20 times as many; 935 MB packed, and groups of 336 million entries needing 0.7 GB of working
arrays beside the solved tables) with this index: not built.

Where. The tables up to 4 pieces are shipped as ``assets/endgame/checkers-wld.bin`` (279,267 bytes, lzma); the
5-piece tables are built into the user's data folder (``$ARCADE_DATA_DIR`` or
``platformdirs.user_data_dir("adversarial-arcade")``, subfolder ``endgame``, the same file name) by ``python
tools/build_endgame_db.py --max-pieces 5`` (46,779,657 bytes, format 2 below; the tool writes every size there
unless ``--out`` names another file, the shipped one included). :func:`load_default` takes the largest tables that
load, and falls back to the shipped ones with a message when a larger file is damaged. Loading
the shipped file takes about 0.05 s; mapping the 5-piece file 0.03-0.1 s (its checksum read through once), with no
private copy; a probe 1-4 microseconds, and 0.3 microseconds for a position with more pieces than the tables cover.

File format (the header is UTF-8 JSON):

* the 20-byte magic ``b"ARCADE-CHECKERS-WLD\\n"``;
* one line of JSON: ``{"format": F, "max_pieces": N, "entries": E, "packed_bytes": P, "sha256": HEX,
  "signatures": [[bk, bm, wk, wm, size], ...]}``;
* the payload, the packed table, 2 bits per entry (4 entries per byte, entry ``i`` in bits ``2 * (i % 4)`` of byte
  ``i // 4``): 0 no position, 1 loss, 2 draw, 3 win for the side to move (Black). Format 1: ``lzma``-compressed
  (the shipped file: small in the repository, read whole into memory); format 2: the ``P`` bytes as they are,
  memory-mapped when loaded (no decompression, and the pages are shared by every process that maps the file:
  the window, its decision workers, a tournament's engines). ``sha256`` is that of the packed bytes.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import lzma
import mmap
import os
import sys
from dataclasses import dataclass, replace
from math import comb
from pathlib import Path
from typing import Final

from gameplay.rules.checkers.checkers_board import CheckersState
from gameplay.rules.outfile import replacing, write_bytes
from gameplay.rules.shipped import shipped_path

Material = tuple[int, int, int, int]
"""A material signature: ``(black kings, black men, white kings, white men)``."""

MAGIC = b"ARCADE-CHECKERS-WLD\n"
"""The first bytes of a table file."""
FORMAT_LZMA = 1
"""File format 1: the packed table lzma-compressed (the shipped 4-piece file)."""
FORMAT_RAW = 2
"""File format 2: the packed table as it is, memory-mapped when loaded (the 5-piece file)."""
FORMAT_VERSION = FORMAT_LZMA
"""The format :func:`save` writes unless told otherwise."""
FORMATS = (FORMAT_LZMA, FORMAT_RAW)
"""The formats :func:`load` reads."""
DEFAULT_NAME = "checkers-wld.bin"
"""File name of the tables, in ``assets/endgame/`` (shipped) or the user's data folder."""
ASSET_DIR = shipped_path("assets", "endgame")
"""Where the shipped tables live (``assets/endgame/`` of the project)."""
APP_NAME = "adversarial-arcade"
DATA_DIR_ENV = "ARCADE_DATA_DIR"

NONE, LOSS, DRAW, WIN = 0, 1, 2, 3
"""Entry codes: no position (two pieces on one square), loss, draw, win for the side to move."""

BLACK_MEN_SQUARES = (1 << 28) - 1
"""Squares 1..28: where a Black man can stand (bits 0..27)."""
WHITE_MEN_SQUARES = ((1 << 28) - 1) << 4
"""Squares 5..32: where a White man can stand (bits 4..31)."""
ALL_SQUARES = (1 << 32) - 1

MAX_PIECES = 5
"""Most pieces (both sides) of the largest tables the builder makes."""
MAX_SIDE = MAX_PIECES - 1
"""Most pieces one side can have in a covered position (the other side has at least one)."""
SHIPPED_PIECES = 4
"""Most pieces of the shipped tables (``assets/endgame/``)."""


class EndgameDBError(ValueError):
    """A table file that cannot be read: wrong magic, header, size, checksum or compressed payload."""


def _combos(squares: list[int], n: int) -> tuple[list[int], dict[int, int]]:
    """All ``n``-subsets of ``squares`` (bit numbers) as bitboards in colex order, and bitboard -> rank."""
    sets = sorted(itertools.combinations(squares, n), key=lambda c: c[::-1])
    masks = [sum(1 << q for q in c) for c in sets]
    return masks, {m: r for r, m in enumerate(masks)}


_BM = [_combos(list(range(28)), n) for n in range(MAX_SIDE + 1)]
_WM = [_combos(list(range(4, 32)), n) for n in range(MAX_SIDE + 1)]
_KG = [_combos(list(range(32)), n) for n in range(MAX_SIDE + 1)]

_REV8 = [int(f"{b:08b}"[::-1], 2) for b in range(256)]


def mirror(mask: int) -> int:
    """The bitboard turned through 180 degrees: square ``s`` goes to ``33 - s`` (32-bit bit reversal)."""
    r = _REV8
    return (r[mask & 255] << 24) | (r[(mask >> 8) & 255] << 16) | (r[(mask >> 16) & 255] << 8) | r[mask >> 24]


def material_of(black: int, white: int, kings: int) -> Material:
    """The material signature ``(bk, bm, wk, wm)`` of a position (bitboards as in ``CheckersState``)."""
    bk = (black & kings).bit_count()
    wk = (white & kings).bit_count()
    return bk, black.bit_count() - bk, wk, white.bit_count() - wk


def swap(m: Material) -> Material:
    """The signature with the colours exchanged: ``(wk, wm, bk, bm)``."""
    return m[2], m[3], m[0], m[1]


def table_size(m: Material) -> int:
    """Entries of the table of signature ``m`` (Black to move), placements with a shared square included."""
    bk, bm, wk, wm = m
    return comb(28, bm) * comb(28, wm) * comb(32, bk) * comb(32, wk)


def signatures(max_pieces: int) -> list[Material]:
    """Every covered signature with 2..``max_pieces`` pieces, in solving order.

    The order is by total pieces, then by total men, then lexicographic: a capture leaves fewer pieces and a
    crowning one man fewer, so every successor signature of a signature comes before it (or is itself, or its
    colour swap, which has the same totals and is solved together with it).

    Raises:
        ValueError: ``max_pieces`` is not in 2..5 (:data:`MAX_PIECES`).
    """
    if not 2 <= max_pieces <= MAX_PIECES:
        raise ValueError(f"max_pieces must be 2..{MAX_PIECES}, got {max_pieces}")
    out: list[Material] = []
    r = range(MAX_SIDE + 1)
    for bk in r:
        for bm in r:
            for wk in r:
                for wm in r:
                    if 1 <= bk + bm and 1 <= wk + wm and bk + bm + wk + wm <= max_pieces:
                        out.append((bk, bm, wk, wm))
    out.sort(key=lambda m: (sum(m), m[1] + m[3], m))
    return out


def split_pieces(black: int, white: int, kings: int) -> tuple[int, int, int, int, int, int, int, int]:
    """``(black kings, white kings, black men, white men)`` as bitboards, then their four counts."""
    bkm = black & kings
    wkm = white & kings
    bmm = black ^ bkm
    wmm = white ^ wkm
    return bkm, wkm, bmm, wmm, bkm.bit_count(), bmm.bit_count(), wkm.bit_count(), wmm.bit_count()


def index_of(black: int, white: int, kings: int) -> tuple[Material, int]:
    """The signature and index of a Black-to-move position.

    Raises:
        KeyError: a man on its crown row (a Black man on 29..32, a White man on 1..4) or more than
            :data:`MAX_SIDE` pieces of a kind.
    """
    bkm, wkm, bmm, wmm, bk, bm, wk, wm = split_pieces(black, white, kings)
    if bk > MAX_SIDE or bm > MAX_SIDE or wk > MAX_SIDE or wm > MAX_SIDE:
        raise KeyError(f"more than {MAX_SIDE} pieces of a kind")
    idx = ((_BM[bm][1][bmm] * len(_WM[wm][0]) + _WM[wm][1][wmm]) * len(_KG[bk][0])
           + _KG[bk][1][bkm]) * len(_KG[wk][0]) + _KG[wk][1][wkm]
    return (bk, bm, wk, wm), idx


def position_of(m: Material, index: int) -> tuple[int, int, int] | None:
    """The Black-to-move position ``(black, white, kings)`` at ``index`` of signature ``m``, or ``None`` when
    that index is a placement with two pieces on one square (the inverse of :func:`index_of`).

    Raises:
        IndexError: ``index`` is outside ``0 .. table_size(m) - 1``.
    """
    if not 0 <= index < table_size(m):
        raise IndexError(f"index {index} outside the table of {label(m)} (size {table_size(m)})")
    bk, bm, wk, wm = m
    rest, r_wk = divmod(index, len(_KG[wk][0]))
    rest, r_bk = divmod(rest, len(_KG[bk][0]))
    r_bm, r_wm = divmod(rest, len(_WM[wm][0]))
    bmm = _BM[bm][0][r_bm]
    wmm = _WM[wm][0][r_wm]
    bkm = _KG[bk][0][r_bk]
    wkm = _KG[wk][0][r_wk]
    if (bmm & wmm) or (bkm & (bmm | wmm)) or (wkm & (bmm | wmm | bkm)):
        return None
    return bmm | bkm, wmm | wkm, bkm | wkm


def placements(m: Material) -> list[tuple[int, int, int]]:
    """``(black, white, kings)`` of every index of signature ``m``, in index order (what :func:`position_of`
    gives for each index, faster); ``(0, 0, 0)`` marks a placement with two pieces on one square."""
    bk, bm, wk, wm = m
    out: list[tuple[int, int, int]] = []
    bks = _KG[bk][0]
    wks = _KG[wk][0]
    for bmm in _BM[bm][0]:
        for wmm in _WM[wm][0]:
            men = bmm | wmm
            clash = bmm & wmm
            for bkm in bks:
                black = bmm | bkm
                c1 = clash or (bkm & men)
                for wkm in wks:
                    if c1 or (wkm & (men | bkm)):
                        out.append((0, 0, 0))
                    else:
                        out.append((black, wmm | wkm, bkm | wkm))
    return out


def label(m: Material) -> str:
    """A readable signature, e.g. ``"2K0M v 1K0M"`` (Black's kings and men, then White's)."""
    return f"{m[0]}K{m[1]}M v {m[2]}K{m[3]}M"


Packed = bytes | memoryview
"""A packed table: the bytes read from a format-1 file, or a view of a memory-mapped format-2 file."""


@dataclass
class EndgameDB:
    """Loaded WLD tables of every signature with up to ``max_pieces`` pieces.

    Attributes:
        max_pieces: the most pieces (both sides) of a covered position.
        packed: the 2-bit packed table (see the module docstring), all signatures one after another (bytes, or a
            read-only view of the memory-mapped file).
        offsets: signature -> ``(offset of its first entry, C(28, wm), C(32, bk), C(32, wk))``.
        source: the file it came from (``None`` when built in memory).
    """

    max_pieces: int
    packed: Packed
    offsets: dict[Material, tuple[int, int, int, int]]
    source: Path | None = None

    def limited(self, max_pieces: int) -> EndgameDB:
        """The same tables answering only positions of up to ``max_pieces`` pieces (no copy: the smaller tables
        are the first entries of the larger ones), e.g. to measure play with 4-piece tables beside 5-piece ones.

        Raises:
            ValueError: ``max_pieces`` is not in 2..:attr:`max_pieces`.
        """
        if not 2 <= max_pieces <= self.max_pieces:
            raise ValueError(f"these tables cover 2..{self.max_pieces} pieces, not {max_pieces}")
        keep = set(signatures(max_pieces))
        return replace(self, max_pieces=max_pieces, offsets={m: o for m, o in self.offsets.items() if m in keep})

    def describe(self) -> str:
        """``"up to 5 pieces (/home/.../endgame/checkers-wld.bin)"`` or ``"up to 4 pieces (shipped)"``."""
        where = "built in memory" if self.source is None else (
            "shipped" if self.source.parent == ASSET_DIR else str(self.source))
        return f"up to {self.max_pieces} pieces ({where})"

    def probe(self, black: int, white: int, kings: int, turn: int) -> int | None:
        """+1 the side to move wins, 0 draw, -1 it loses; None when the position is not covered.

        Args:
            black, white, kings: 32-bit bitboards as in ``CheckersState`` (bit ``s - 1`` is square ``s``).
            turn: 0 Black to move, 1 White.

        Not covered: more than ``max_pieces`` pieces (answered after one popcount), a side without pieces, a man
        on its crown row. The value ignores the draw rules (see the module docstring).
        """
        if (black | white).bit_count() > self.max_pieces or not black or not white:
            return None
        if turn:
            r = _REV8
            black, white, kings = (
                (r[white & 255] << 24) | (r[(white >> 8) & 255] << 16) | (r[(white >> 16) & 255] << 8)
                | r[white >> 24],
                (r[black & 255] << 24) | (r[(black >> 8) & 255] << 16) | (r[(black >> 16) & 255] << 8)
                | r[black >> 24],
                (r[kings & 255] << 24) | (r[(kings >> 8) & 255] << 16) | (r[(kings >> 16) & 255] << 8)
                | r[kings >> 24])
        bkm, wkm, bmm, wmm, bk, bm, wk, wm = split_pieces(black, white, kings)
        entry = self.offsets.get((bk, bm, wk, wm))
        if entry is None:
            return None
        off, n_wm, n_bk, n_wk = entry
        r_bm = _BM[bm][1].get(bmm)
        r_wm = _WM[wm][1].get(wmm)
        if r_bm is None or r_wm is None:
            return None
        i = off + ((r_bm * n_wm + r_wm) * n_bk + _KG[bk][1][bkm]) * n_wk + _KG[wk][1][wkm]
        code = (self.packed[i >> 2] >> ((i & 3) << 1)) & 3
        return code - 2 if code else None

    def probe_state(self, state: CheckersState) -> int | None:
        """:meth:`probe` of a position (``ai.kernel.core.EndgameProbe``, what the search calls)."""
        return self.probe(state.black, state.white, state.kings, state.turn)

    def code_at(self, m: Material, index: int) -> int:
        """The raw entry code (0 none, 1 loss, 2 draw, 3 win for Black to move) at ``index`` of signature ``m``.

        Raises:
            KeyError: ``m`` is not covered.
        """
        i = self.offsets[m][0] + index
        return (self.packed[i >> 2] >> ((i & 3) << 1)) & 3

    def codes(self, m: Material) -> bytes:
        """The table of signature ``m``, one code per entry (0 none, 1 loss, 2 draw, 3 win for Black to move).

        Raises:
            KeyError: ``m`` is not covered.
        """
        off = self.offsets[m][0]
        size = table_size(m)
        first = off >> 2
        return unpack_codes(self.packed[first:(off + size + 3) >> 2], off + size - 4 * first)[off & 3:]

    def counts(self, m: Material) -> tuple[int, int, int]:
        """``(wins, draws, losses)`` of the side to move (Black) over the positions of signature ``m``."""
        codes = self.codes(m)
        return codes.count(WIN), codes.count(DRAW), codes.count(LOSS)


_TO_LANE: Final = [bytes((x & 3) << (2 * j) for x in range(256)) for j in range(4)]
_FROM_LANE: Final = [bytes((x >> (2 * j)) & 3 for x in range(256)) for j in range(4)]


def pack_codes(codes: bytes) -> bytes:
    """Codes (one byte each, 0..3) packed 4 to a byte, entry ``i`` in bits ``2 * (i % 4)`` of byte ``i // 4``.

    Four strided slices, each shifted into place by ``bytes.translate`` and OR-ed as one big integer: linear, C
    speed in the pure-Python build too.

    Raises:
        ValueError: a code above 3.
    """
    if codes and max(codes) > 3:
        raise ValueError(f"a table code must be 0..3, found {max(codes)}")
    padded = bytes(codes) + bytes(-len(codes) % 4)
    total = 0
    for j in range(4):
        total |= int.from_bytes(padded[j::4].translate(_TO_LANE[j]), "little")
    return total.to_bytes(len(padded) // 4, "little")


def unpack_codes(packed: bytes | memoryview, n: int) -> bytes:
    """The first ``n`` codes of a packed table (the inverse of :func:`pack_codes`).

    Raises:
        ValueError: ``packed`` holds fewer than ``n`` entries.
    """
    if n > 4 * len(packed):
        raise ValueError(f"{len(packed)} packed bytes hold at most {4 * len(packed)} entries, not {n}")
    src = bytes(packed[:(n + 3) // 4])
    out = bytearray(4 * len(src))
    for j in range(4):
        out[j::4] = src.translate(_FROM_LANE[j])
    return bytes(out[:n])


def pack_tables(max_pieces: int, tables: dict[Material, bytes]) -> tuple[bytes, dict[Material, tuple[int, int, int,
                                                                                                       int]]]:
    """Lay the packed table of each signature (:func:`pack_codes`) one after another in :func:`signatures` order, as
    one packed table. Every table size up to 5 pieces is a multiple of 4 (a factor ``C(32, k)`` or ``C(28, n)``
    divisible by 4, or two factors ``C(28, 2) = 378``), so each signature starts on a byte of its own.

    Returns the packed bytes and the offsets (see :class:`EndgameDB`).

    Raises:
        ValueError: a signature is missing or has the wrong size.
    """
    out = bytearray()
    for m in signatures(max_pieces):
        size = table_size(m)
        t = tables.get(m)
        if t is None or size % 4 or len(t) != size // 4:
            raise ValueError(f"table of {label(m)} missing or of the wrong size")
        out += t
    return bytes(out), offsets_of(max_pieces)


def save(db: EndgameDB, path: str | Path, file_format: int = FORMAT_VERSION) -> int:
    """Write ``db`` to ``path`` in the format of the module docstring (whole or not at all); return the bytes
    written.

    Args:
        file_format: :data:`FORMAT_LZMA` (compressed 11 to 1, read whole; 31 s of CPU and 565 MB to write the
            5-piece tables) or :data:`FORMAT_RAW` (the packed bytes as they are, memory-mapped when loaded).

    Raises:
        ValueError: an unknown ``file_format``.
        gameplay.rules.outfile.OutputError: the file cannot be written (nothing is left behind).
    """
    if file_format not in FORMATS:
        raise ValueError(f"file format must be one of {FORMATS}, got {file_format}")
    sigs = signatures(db.max_pieces)
    header = {
        "format": file_format, "max_pieces": db.max_pieces,
        "entries": sum(table_size(m) for m in sigs), "packed_bytes": len(db.packed),
        "sha256": hashlib.sha256(db.packed).hexdigest(),
        "signatures": [[*m, table_size(m)] for m in sigs],
    }
    head = MAGIC + json.dumps(header).encode() + b"\n"
    if file_format == FORMAT_LZMA:
        blob = head + lzma.compress(db.packed, preset=9 | lzma.PRESET_EXTREME)
        write_bytes(path, blob, make_folders=True)  # whole or not at all, fsync'd, a temporary name of its own
        return len(blob)
    with replacing(path, make_folders=True) as tmp, open(tmp, "wb") as f:
        f.write(head)
        f.write(db.packed)
    return len(head) + len(db.packed)


def _bad(path: Path, what: str) -> EndgameDBError:
    return EndgameDBError(f"{path}: not a valid checkers endgame table ({what})")


def read_header(path: str | Path) -> tuple[dict[str, int | str], int]:
    """The header of a table file, checked (with the file's size, for format 2), and the offset of its payload; reads
    the first bytes only.

    Returns:
        ``({"format", "max_pieces", "entries", "packed_bytes", "sha256"}, payload offset)``.

    Raises:
        OSError: the file cannot be read (e.g. missing).
        EndgameDBError: not a table file of a known format, or its header disagrees with the index.
    """
    path = Path(path)
    with open(path, "rb") as f:
        data = f.read(len(MAGIC) + 16384)
    if not data.startswith(MAGIC):
        raise _bad(path, f"expected the magic {MAGIC!r} at the start")
    end = data.find(b"\n", len(MAGIC))
    if end < 0:
        raise _bad(path, "expected a JSON header line after the magic; the file is truncated")
    try:
        header = json.loads(data[len(MAGIC):end])
        version = int(header["format"])
        max_pieces = int(header["max_pieces"])
        entries = int(header["entries"])
        packed_bytes = int(header["packed_bytes"])
        digest = str(header["sha256"])
        listed = [tuple(int(x) for x in s) for s in header["signatures"]]
    except (ValueError, KeyError, TypeError) as e:
        raise _bad(path, f"expected a JSON header with format, max_pieces, entries, packed_bytes, sha256, "
                         f"signatures: {e}") from None
    if version not in FORMATS:
        raise _bad(path, f"expected format {' or '.join(map(str, FORMATS))}, found {version}")
    if not 2 <= max_pieces <= MAX_PIECES:
        raise _bad(path, f"expected max_pieces 2..{MAX_PIECES}, found {max_pieces}")
    sigs = signatures(max_pieces)
    want = [(*m, table_size(m)) for m in sigs]
    if listed != want:
        raise _bad(path, f"expected the {len(want)} signatures of up to {max_pieces} pieces with their sizes")
    total = sum(table_size(m) for m in sigs)
    if entries != total or packed_bytes != (total + 3) // 4:
        raise _bad(path, f"expected {total} entries in {(total + 3) // 4} packed bytes")
    if version == FORMAT_RAW:
        size = path.stat().st_size
        whole = end + 1 + packed_bytes
        if size != whole:
            raise _bad(path, f"expected {whole} bytes ({packed_bytes} of table after the header), found {size}; "
                             f"the file is {'truncated' if size < whole else 'too long'}")
    return ({"format": version, "max_pieces": max_pieces, "entries": entries, "packed_bytes": packed_bytes,
             "sha256": digest}, end + 1)


def load(path: str | Path) -> EndgameDB:
    """Read a table file: format 1 decompressed into memory, format 2 memory-mapped (read-only); either way the
    packed table's SHA-256 is checked against the checksum the header records.

    Raises:
        OSError: the file cannot be read (e.g. missing).
        EndgameDBError: the file is not a table of this format or is damaged (truncated, a changed byte); the
            message names the file and what was expected.
    """
    path = Path(path)
    header, start = read_header(path)
    packed_bytes = int(header["packed_bytes"])
    max_pieces = int(header["max_pieces"])
    packed: Packed
    if header["format"] == FORMAT_LZMA:
        try:
            packed = lzma.decompress(path.read_bytes()[start:])
        except lzma.LZMAError as e:
            raise _bad(path, f"expected a complete lzma-compressed table after the header; it is damaged or "
                             f"truncated: {e}") from None
        if len(packed) != packed_bytes:
            raise _bad(path, f"expected {packed_bytes} bytes of table, found {len(packed)}")
    else:  # its size was checked with the header
        with open(path, "rb") as f:
            mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        packed = memoryview(mapped)[start:]
    digest = hashlib.sha256(packed).hexdigest()
    if digest != header["sha256"]:
        raise _bad(path, f"expected the table's SHA-256 to be the checksum its header records, {header['sha256']}, "
                         f"found {digest}; the table is damaged")
    return EndgameDB(max_pieces, packed, offsets_of(max_pieces), path)


def offsets_of(max_pieces: int) -> dict[Material, tuple[int, int, int, int]]:
    """The offsets of :class:`EndgameDB` for the tables of up to ``max_pieces`` pieces."""
    offsets: dict[Material, tuple[int, int, int, int]] = {}
    off = 0
    for m in signatures(max_pieces):
        offsets[m] = (off, comb(28, m[3]), comb(32, m[0]), comb(32, m[2]))
        off += table_size(m)
    return offsets


def data_dir() -> Path:
    """The user's data folder: ``$ARCADE_DATA_DIR`` if set, else ``platformdirs.user_data_dir`` (the same lookup
    as ``gameplay.files.autosave.data_dir``, repeated here so that ``ai`` does not import ``gameplay``)."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    import platformdirs
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def shipped_file() -> Path:
    """The shipped tables: ``assets/endgame/checkers-wld.bin``."""
    return ASSET_DIR / DEFAULT_NAME


def built_file() -> Path:
    """Where ``tools/build_endgame_db.py --max-pieces 5`` writes by default: ``<data dir>/endgame/checkers-wld.bin``."""
    return data_dir() / "endgame" / DEFAULT_NAME


def default_paths() -> list[Path]:
    """Where :func:`load_default` looks: :func:`shipped_file`, then :func:`built_file`."""
    return [shipped_file(), built_file()]


@dataclass(frozen=True)
class Found:
    """One table file :func:`find_tables` looked at.

    Attributes:
        path: the file.
        max_pieces: its header's most pieces (0 when the header cannot be read).
        problem: why it cannot be used (``None``: its header is sound; the payload is checked when loaded).
    """

    path: Path
    max_pieces: int
    problem: str | None = None


def find_tables() -> list[Found]:
    """The table files of :func:`default_paths` that exist, largest first (headers and sizes read, payloads not: a
    changed byte inside is found when the file is loaded, :func:`load_default`)."""
    out: list[Found] = []
    for p in default_paths():
        if not p.is_file():
            continue
        try:
            header, _start = read_header(p)
        except (OSError, EndgameDBError) as e:
            out.append(Found(p, 0, str(e)))
            continue
        out.append(Found(p, int(header["max_pieces"]), None))
    out.sort(key=lambda f: -f.max_pieces)
    return out


_cache: dict[Path, EndgameDB] = {}
_problems: dict[Path, str] = {}


def load_default() -> EndgameDB | None:
    """The largest tables found (:func:`find_tables`: the data folder's 5-piece file over the shipped 4-piece one),
    loaded once per file and cached; ``None`` when there are none.

    A file that cannot be loaded (damaged, truncated, of another format) is reported once on ``stderr``, with its
    path and what was wrong, and the next largest is taken (:func:`load_problems` keeps the messages).

    Raises:
        EndgameDBError: every table file found is damaged (the message names each and what was expected).
    """
    found = find_tables()

    def report(path: Path, problem: str) -> None:
        _problems[path] = problem
        rest = [g.path for g in found if g.problem is None and g.path not in _problems]
        print(f"endgame tables: {problem}" + (f"; using {rest[0]} instead" if rest else ""), file=sys.stderr)

    for f in found:
        if f.problem is not None and f.path not in _problems:
            report(f.path, f.problem)
    for f in found:
        if f.path in _cache:
            return _cache[f.path]
        if f.path in _problems:
            continue
        try:
            _cache[f.path] = load(f.path)
            return _cache[f.path]
        except (OSError, EndgameDBError) as e:
            report(f.path, str(e))
    if found:
        raise EndgameDBError("; ".join(_problems[f.path] for f in found if f.path in _problems))
    return None


def load_problems() -> dict[Path, str]:
    """The table files :func:`load_default` could not load in this process, with the reason (a copy)."""
    return dict(_problems)


def describe_default(short: bool = False) -> str:
    """Which tables :func:`load_default` gives, in a few words: ``"endgame tables up to 5 pieces
    (/home/.../checkers-wld.bin)"``, ``"endgame tables up to 4 pieces (shipped)"``, ``"no endgame tables"``, or
    ``"no usable endgame tables"`` when every file found is damaged; ``short``: without the parenthesis (an agent's
    label).

    The tables described are those actually used: this loads them through :func:`load_default` (checksum included,
    so a file whose header is sound but whose payload is damaged is passed over, as the search passes it over;
    0.03-0.1 s the first time, cached after), reporting a damaged file on ``stderr`` once.
    """
    try:
        db = load_default()
    except EndgameDBError:
        return "no usable endgame tables"
    if db is None:
        return "no endgame tables"
    return f"endgame tables up to {db.max_pieces} pieces" if short else f"endgame tables {db.describe()}"
