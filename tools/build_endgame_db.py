"""Build the checkers WLD endgame tables by retrograde analysis and write the table file.

Usage: ``python tools/build_endgame_db.py [--max-pieces N] [--out PATH] [--format lzma|raw] [--fresh]``.

``N`` is 2..5 (default 4). Every size goes by default to the user's data folder (``$ARCADE_DATA_DIR`` or the
platform's, ``endgame/checkers-wld.bin``), never into the install: ``ai.checkers.endgame_db.load_default`` takes the
largest tables it finds there or shipped (``assets/endgame/checkers-wld.bin``, 4 pieces), so a smaller build in the
data folder does not replace the shipped tables in play. Up to 4 pieces the file is lzma-compressed (the 4-piece
tables about 280 KB); with 5 pieces it is not compressed (46.8 MB, memory-mapped when loaded). ``--format`` overrides
that choice of format. Rebuilding the shipped file takes an explicit ``--out assets/endgame/checkers-wld.bin``.

Shows a tqdm progress bar over the work (each entry once in the forward pass and once in the backward pass), then
prints, per material signature, the positions with Black to move (the stored side; a White-to-move position is the
mirror image of the colour-swapped signature) that are wins, draws and losses for the side to move, the time of
each group and in all, the memory peak, and the size of the file.

Stopping (Ctrl+C) writes no table file: each finished group is kept in ``PATH.parts/`` and the same command goes on
from there (``--fresh`` starts again); the folder is removed once the file is written. (On Windows a memory-mapped
file cannot be replaced: close the program before building over its tables.) The builder
(``ai/checkers/endgame_build.py``) runs compiled after the README's install (5 pieces: 112 s of CPU, memory peak
248 MB), or as pure Python without a C compiler (670 s).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tqdm import tqdm  # noqa: E402

from ai.checkers.endgame_build import build, groups, total_work, verify  # noqa: E402
from ai.checkers.endgame_db import (  # noqa: E402
    FORMAT_LZMA,
    FORMAT_RAW,
    MAX_PIECES,
    SHIPPED_PIECES,
    Material,
    built_file,
    label,
    save,
    shipped_file,
    signatures,
    table_size,
)
from gameplay.rules.compiled import is_compiled  # noqa: E402
from gameplay.rules.outfile import OutputError, check_target  # noqa: E402


def _peak_mb() -> float | None:
    """The process's memory peak in MB (``ru_maxrss``), where the platform reports it."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--max-pieces", type=int, default=SHIPPED_PIECES, choices=range(2, MAX_PIECES + 1),
                    help=f"most pieces in all (default {SHIPPED_PIECES})")
    ap.add_argument("--out", type=Path, default=None,
                    help=f"the table file to write (default, every size: the data folder's {built_file()}; the "
                         f"shipped {shipped_file()} only when given here)")
    ap.add_argument("--format", choices=("lzma", "raw"), default=None,
                    help="lzma: compressed, read whole (default up to 4 pieces); raw: memory-mapped (default for 5)")
    ap.add_argument("--fresh", action="store_true", help="forget the groups a stopped build kept; start again")
    ap.add_argument("--verify", type=int, default=20000, metavar="N",
                    help="check N random positions with the most pieces against the game's own move generator "
                         "(default 20000; 0: skip)")
    a = ap.parse_args(argv)
    out: Path = a.out or built_file()
    file_format = {"lzma": FORMAT_LZMA, "raw": FORMAT_RAW}[a.format] if a.format else (
        FORMAT_LZMA if a.max_pieces <= SHIPPED_PIECES else FORMAT_RAW)
    try:
        check_target(out, make_folders=True)
    except OutputError as e:
        print(f"build_endgame_db: {e}", file=sys.stderr)
        return 2
    parts = out.with_name(out.name + ".parts")
    if a.fresh and parts.exists():
        shutil.rmtree(parts)
    kept = sum(1 for p in parts.glob("*.part")) if parts.is_dir() else 0
    print(f"builder: {'compiled' if is_compiled('ai.checkers.endgame_build') else 'pure Python'}; "
          f"{len(groups(a.max_pieces))} groups, {total_work(a.max_pieces) // 2:,} entries; writing {out}"
          + (f"; {kept} groups kept in {parts} are read back" if kept else ""))
    total = total_work(a.max_pieces)
    times: dict[Material, float] = {}
    t0 = time.perf_counter()
    c0 = time.process_time()
    try:
        with tqdm(total=total, unit="pos", unit_scale=True, desc=f"retrograde <= {a.max_pieces} pieces") as bar:
            def progress(done: int, _total: int) -> None:
                bar.update(done - bar.n)

            def on_group(group: list[Material], seconds: float) -> None:
                for m in group:
                    times[m] = seconds
                bar.set_postfix_str(" + ".join(label(m) for m in group))

            db = build(a.max_pieces, progress, on_group, parts)
        elapsed = time.perf_counter() - t0
        cpu = time.process_time() - c0
        if a.verify:
            checked, wrong = verify(db, a.verify, seed=1)
            print(f"checked {checked} random {a.max_pieces}-piece positions against the game's move generator: "
                  f"{len(wrong)} disagree" + "".join(f"\n  {w}" for w in wrong[:10]))
            if wrong:
                print("build_endgame_db: the tables disagree with the game's moves; no file written", file=sys.stderr)
                return 1
        size = save(db, out, file_format)  # whole or not at all
    except KeyboardInterrupt:
        kept = sum(1 for p in parts.glob("*.part")) if parts.is_dir() else 0
        print(f"\nstopped: no table file written; {kept} finished groups kept in {parts}: run the same command "
              f"again to go on", file=sys.stderr)
        return 130
    shutil.rmtree(parts, ignore_errors=True)
    print(f"{'signature (Black to move)':<26}{'entries':>12}{'wins':>12}{'draws':>12}{'losses':>12}"
          f"{'group s':>9}")
    sums = [0, 0, 0, 0]
    for m in signatures(a.max_pieces):
        w, d, los = db.counts(m)
        sums[0] += table_size(m)
        sums[1] += w
        sums[2] += d
        sums[3] += los
        print(f"{label(m):<26}{table_size(m):>12}{w:>12}{d:>12}{los:>12}{times[m]:>9.1f}")
    print(f"{'all':<26}{sums[0]:>12}{sums[1]:>12}{sums[2]:>12}{sums[3]:>12}")
    peak = _peak_mb()
    print(f"built in {elapsed:.1f} s ({cpu:.1f} s of CPU"
          + (f", memory peak {peak:.0f} MB" if peak is not None else "") + f"); wrote {out} ({size} bytes, "
          f"{'lzma' if file_format == FORMAT_LZMA else 'raw'}, {len(db.packed)} bytes unpacked)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
