"""Build the checkers WLD endgame tables by retrograde analysis and write the table file.

Usage: ``python tools/build_endgame_db.py [--max-pieces N] [--out PATH]``. ``N`` is 2..4 (default 4); ``PATH``
defaults to ``assets/endgame/checkers-wld.bin`` (the file ``ai.checkers.endgame_db.load_default`` reads first). Shows a
tqdm progress bar over the table entries, then prints, per material signature, the positions with Black to move
(the stored side; a White-to-move position is the mirror image of the colour-swapped signature) that are wins,
draws and losses for the side to move, the time of each group and in all, and the size of the file.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tqdm import tqdm

from ai.checkers.endgame_build import build, total_entries
from ai.checkers.endgame_db import ASSET_DIR, DEFAULT_NAME, Material, label, save, signatures, table_size


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max-pieces", type=int, default=4, choices=(2, 3, 4), help="most pieces in all (default 4)")
    ap.add_argument("--out", type=Path, default=ASSET_DIR / DEFAULT_NAME, help="the table file to write")
    a = ap.parse_args(argv)
    total = total_entries(a.max_pieces)
    times: dict[Material, float] = {}
    t0 = time.perf_counter()
    with tqdm(total=total, unit="pos", unit_scale=True, desc=f"retrograde <= {a.max_pieces} pieces") as bar:
        def progress(done: int, _total: int) -> None:
            bar.update(done - bar.n)

        def on_group(group: list[Material], seconds: float) -> None:
            for m in group:
                times[m] = seconds
            bar.set_postfix_str(" + ".join(label(m) for m in group))

        db = build(a.max_pieces, progress, on_group)
    elapsed = time.perf_counter() - t0
    size = save(db, a.out)
    print(f"{'signature (Black to move)':<26}{'entries':>10}{'wins':>10}{'draws':>10}{'losses':>10}"
          f"{'group s':>9}")
    sums = [0, 0, 0, 0]
    for m in signatures(a.max_pieces):
        w, d, los = db.counts(m)
        sums[0] += table_size(m)
        sums[1] += w
        sums[2] += d
        sums[3] += los
        print(f"{label(m):<26}{table_size(m):>10}{w:>10}{d:>10}{los:>10}{times[m]:>9.1f}")
    print(f"{'all':<26}{sums[0]:>10}{sums[1]:>10}{sums[2]:>10}{sums[3]:>10}")
    print(f"built in {elapsed:.1f} s; wrote {a.out} ({size} bytes, {len(db.packed)} bytes unpacked)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
