"""Win/loss/draw (WLD) endgame databases for English checkers: indexing, the table file, loading and probing.

Source: the tables are built by retrograde analysis (K. Thompson, "Retrograde analysis of certain endgames",
ICCA Journal 9(3), 1986; for checkers the Chinook endgame databases: J. Schaeffer and R. Lake, "Solving the game
of checkers", Games of No Chance, MSRI Publications 29, 1996, and J. Schaeffer et al., "Checkers is solved",
Science 317, 2007) in :mod:`ai.checkers.endgame_build`, with the game's own
move generator (:class:`gameplay.rules.checkers.checkers.Checkers`), so the rules are exactly those of RULES.md.

What a value means. ``+1``: the side to move wins with best play; ``-1``: it loses; ``0``: neither side can force
a win. The values are *theoretical*: the draw rules (threefold repetition, the 80-ply / 40-move rule) are
ignored, so a table win may take longer than 80 quiet plies over the board; a win or loss proven by a search
under the draw rules is always a table win or loss too.

Material signature. ``(bk, bm, wk, wm)``: Black's kings and men, White's kings and men. Every signature with
each side holding at least one piece and at most ``max_pieces`` pieces in total is covered.

Colour symmetry. Turning the board through 180 degrees (square ``s`` to ``33 - s``, i.e. reversing the 32-bit
bitboard) and swapping the colours maps a position with White to move onto one with Black to move. The tables
hold only positions with **Black to move**; a White-to-move position is probed through its mirror image. So the
table of signature ``(bk, bm, wk, wm)`` also answers the White-to-move positions of ``(wk, wm, bk, bm)``.

Index. Within a signature, ``index = ((r_bm * C(28, wm) + r_wm) * C(32, bk) + r_bk) * C(32, wk) + r_wk`` where
``r_bm`` is the rank (combinatorial number system, colex order) of the set of Black men among squares 1..28
(a Black man is never on 29..32), ``r_wm`` that of the White men among squares 5..32, and ``r_bk``, ``r_wk``
those of the kings among all 32 squares. Placements with two pieces on one square get an index too; they hold
the code "no position". Signatures are laid out one after another in :func:`signatures` order.

Where. The tables up to 4 pieces (7,455,300 entries, 41 signatures) are shipped as
``assets/endgame/checkers-wld.bin`` (about 280 KB); :func:`load_default` also looks in the user's data folder
(``$ARCADE_DATA_DIR`` or ``platformdirs.user_data_dir("adversarial-arcade")``, subfolder ``endgame``). Built by
``python tools/build_endgame_db.py`` (about 100 s of CPU in CPython). Loading takes about 0.05 s; a probe about
2-4 microseconds, and 0.3 microseconds for a position with more pieces than the tables cover.

File format (the header is UTF-8 JSON):

* the 20-byte magic ``b"ARCADE-CHECKERS-WLD\\n"``;
* one line of JSON: ``{"format": 1, "max_pieces": N, "entries": E, "packed_bytes": P, "sha256": HEX,
  "signatures": [[bk, bm, wk, wm, size], ...]}``;
* the payload: ``lzma``-compressed packed table, 2 bits per entry (4 entries per byte, entry ``i`` in bits
  ``2 * (i % 4)`` of byte ``i // 4``): 0 no position, 1 loss, 2 draw, 3 win for the side to move (Black).
  ``sha256`` is that of the packed (decompressed) bytes.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import lzma
import os
from dataclasses import dataclass
from math import comb
from pathlib import Path

from gameplay.rules.checkers.checkers_board import CheckersState
from gameplay.rules.outfile import write_bytes
from gameplay.rules.shipped import shipped_path

Material = tuple[int, int, int, int]
"""A material signature: ``(black kings, black men, white kings, white men)``."""

MAGIC = b"ARCADE-CHECKERS-WLD\n"
"""The first bytes of a table file."""
FORMAT_VERSION = 1
"""The version of the file format written by :func:`save` and read by :func:`load`."""
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

MAX_SIDE = 3
"""Most pieces one side can have in a covered position (4 in total, the other side at least one)."""


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
        ValueError: ``max_pieces`` is not in 2..4 (the index allows at most 3 pieces a side).
    """
    if not 2 <= max_pieces <= MAX_SIDE + 1:
        raise ValueError(f"max_pieces must be 2..{MAX_SIDE + 1}, got {max_pieces}")
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
        KeyError: a man on its crown row (a Black man on 29..32, a White man on 1..4) or more than 3 pieces of
            a kind.
    """
    bkm, wkm, bmm, wmm, bk, bm, wk, wm = split_pieces(black, white, kings)
    if bk > MAX_SIDE or bm > MAX_SIDE or wk > MAX_SIDE or wm > MAX_SIDE:
        raise KeyError("more than 3 pieces of a kind")
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


@dataclass
class EndgameDB:
    """Loaded WLD tables of every signature with up to ``max_pieces`` pieces.

    Attributes:
        max_pieces: the most pieces (both sides) of a covered position.
        packed: the 2-bit packed table (see the module docstring), all signatures one after another.
        offsets: signature -> ``(offset of its first entry, C(28, wm), C(32, bk), C(32, wk))``.
        source: the file it came from (``None`` when built in memory).
    """

    max_pieces: int
    packed: bytes
    offsets: dict[Material, tuple[int, int, int, int]]
    source: Path | None = None

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

    def counts(self, m: Material) -> tuple[int, int, int]:
        """``(wins, draws, losses)`` of the side to move (Black) over the positions of signature ``m``."""
        n = [0, 0, 0, 0]
        off = self.offsets[m][0]
        for i in range(off, off + table_size(m)):
            n[(self.packed[i >> 2] >> ((i & 3) << 1)) & 3] += 1
        return n[WIN], n[DRAW], n[LOSS]


def pack(max_pieces: int, tables: dict[Material, bytearray]) -> tuple[bytes, dict[Material, tuple[int, int, int,
                                                                                                     int]]]:
    """Pack per-signature code tables (one byte per entry) into the 2-bit layout, in :func:`signatures` order.

    Returns the packed bytes and the offsets (see :class:`EndgameDB`).

    Raises:
        ValueError: a signature is missing or has the wrong size.
    """
    offsets: dict[Material, tuple[int, int, int, int]] = {}
    out = bytearray()
    total = 0
    for m in signatures(max_pieces):
        t = tables.get(m)
        if t is None or len(t) != table_size(m):
            raise ValueError(f"table of {label(m)} missing or of the wrong size")
        offsets[m] = (total, comb(28, m[3]), comb(32, m[0]), comb(32, m[2]))
        total += len(t)
        out += t
    # pad to a multiple of 4, then fold 4 codes into each byte
    out += bytes(-len(out) % 4)
    packed = bytearray(len(out) // 4)
    for j in range(4):
        lane = out[j::4]
        shift = 2 * j
        for k in range(len(lane)):
            c = lane[k]
            if c:
                packed[k] |= c << shift
    return bytes(packed), offsets


def save(db: EndgameDB, path: str | Path) -> int:
    """Write ``db`` to ``path`` in the format of the module docstring (atomically); return the bytes written."""
    path = Path(path)
    sigs = signatures(db.max_pieces)
    header = {
        "format": FORMAT_VERSION, "max_pieces": db.max_pieces,
        "entries": sum(table_size(m) for m in sigs), "packed_bytes": len(db.packed),
        "sha256": hashlib.sha256(db.packed).hexdigest(),
        "signatures": [[*m, table_size(m)] for m in sigs],
    }
    blob = MAGIC + json.dumps(header).encode() + b"\n" + lzma.compress(db.packed, preset=9 | lzma.PRESET_EXTREME)
    write_bytes(path, blob, make_folders=True)  # whole or not at all, fsync'd, a temporary name of its own
    return len(blob)


def load(path: str | Path) -> EndgameDB:
    """Read a table file.

    Raises:
        OSError: the file cannot be read (e.g. missing).
        EndgameDBError: the file is not a table of this format or is damaged; the message names the file and
            what was expected.
    """
    path = Path(path)
    data = path.read_bytes()

    def bad(what: str) -> EndgameDBError:
        return EndgameDBError(f"{path}: not a valid checkers endgame table ({what})")

    if not data.startswith(MAGIC):
        raise bad(f"expected the magic {MAGIC!r} at the start")
    end = data.find(b"\n", len(MAGIC))
    if end < 0:
        raise bad("expected a JSON header line after the magic; the file is truncated")
    try:
        header = json.loads(data[len(MAGIC):end])
        version = int(header["format"])
        max_pieces = int(header["max_pieces"])
        entries = int(header["entries"])
        packed_bytes = int(header["packed_bytes"])
        digest = str(header["sha256"])
        listed = [tuple(int(x) for x in s) for s in header["signatures"]]
    except (ValueError, KeyError, TypeError) as e:
        raise bad(f"expected a JSON header with format, max_pieces, entries, packed_bytes, sha256, signatures: "
                  f"{e}") from None
    if version != FORMAT_VERSION:
        raise bad(f"expected format {FORMAT_VERSION}, found {version}")
    if not 2 <= max_pieces <= MAX_SIDE + 1:
        raise bad(f"expected max_pieces 2..{MAX_SIDE + 1}, found {max_pieces}")
    sigs = signatures(max_pieces)
    want = [(*m, table_size(m)) for m in sigs]
    if listed != want:
        raise bad(f"expected the {len(want)} signatures of up to {max_pieces} pieces with their sizes")
    total = sum(table_size(m) for m in sigs)
    if entries != total or packed_bytes != (total + 3) // 4:
        raise bad(f"expected {total} entries in {(total + 3) // 4} packed bytes")
    try:
        packed = lzma.decompress(data[end + 1:])
    except lzma.LZMAError as e:
        raise bad(f"expected a complete lzma-compressed table after the header; it is damaged or truncated: {e}") \
            from None
    if len(packed) != packed_bytes:
        raise bad(f"expected {packed_bytes} bytes of table, found {len(packed)}")
    if hashlib.sha256(packed).hexdigest() != digest:
        raise bad(f"expected the SHA-256 of the header, {digest}; the table is damaged")
    offsets: dict[Material, tuple[int, int, int, int]] = {}
    off = 0
    for m in sigs:
        offsets[m] = (off, comb(28, m[3]), comb(32, m[0]), comb(32, m[2]))
        off += table_size(m)
    return EndgameDB(max_pieces, packed, offsets, path)


def data_dir() -> Path:
    """The user's data folder: ``$ARCADE_DATA_DIR`` if set, else ``platformdirs.user_data_dir`` (the same lookup
    as ``gameplay.files.autosave.data_dir``, repeated here so that ``ai`` does not import ``gameplay``)."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    import platformdirs
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def default_paths() -> list[Path]:
    """Where :func:`load_default` looks, in order: ``assets/endgame/``, then ``<data dir>/endgame/``."""
    return [ASSET_DIR / DEFAULT_NAME, data_dir() / "endgame" / DEFAULT_NAME]


_cache: dict[Path, EndgameDB] = {}


def load_default() -> EndgameDB | None:
    """The shipped/built tables (first of :func:`default_paths` that exists), or ``None`` when absent.

    Loaded once per file and cached.

    Raises:
        EndgameDBError: the file exists but is damaged (the message names the file and what was expected).
    """
    for p in default_paths():
        if p.is_file():
            if p not in _cache:
                _cache[p] = load(p)
            return _cache[p]
    return None
