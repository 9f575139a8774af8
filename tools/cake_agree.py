"""How far our search agrees with an outside engine's: our agent's value of positions Cake 1.20 has labelled.

Usage::

    python tools/cake_agree.py --labels LABELS.jsonl [--labels ...] [--agent SPEC] [--positions N] [--seed S]
        [--jobs J] [--worst K] [--json]

Input: the labelled positions of ``tools/cake_label.py`` (real games' positions, each with the value Cake's search
gave it, a man = 100, the side to move's view). ``--positions N`` (default 200) takes a seeded sample of them;
``--agent`` (default ``expert:clock=cpu,book=off``: the opening book would answer many of them without a value)
searches each one once, in ``--jobs`` worker processes (``concurrent.futures``), each with its own agent.

What it prints, over the positions our agent searched (a book move, which has no value, is counted and left out):

* the correlation of our value with Cake's (Pearson on values clipped to +/-500, i.e. 5 men, so a found win
  does not dominate; Spearman on ranks), and the mean absolute difference of the clipped values;
* **a man seen**: of the positions where Cake's value is at least a man either way, the share where ours is at
  least half a man the same way; and of those where ours is at least a man, the share where Cake's agrees so;
* our search's median depth and seconds;
* with ``--worst K``, the K positions where the two values differ most (FEN, Cake's value, ours), to be looked at.

It is a diagnostic for issue 27 (strength against an outside engine): run it with more time (``time=3``) or
another evaluation (``weights=...``) to see whether what separates our view from Cake's is depth or knowledge.
Exit code 0; 2 with one ``error:`` line on bad arguments, an unreadable labels file or none with a position.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from scipy.stats import pearsonr, spearmanr  # noqa: E402

from ai.agents.agents import make_agent  # noqa: E402
from gameplay.rules.checkers.checkers import Checkers  # noqa: E402

CLIP = 500.0
"""Values are clipped to +/- this many centi-men (5 men) before the correlation and the mean difference."""
MAN = 100.0
DEFAULT_AGENT = "expert:clock=cpu,book=off"

_AGENT: dict[str, Any] = {}


def read_labels(paths: list[Path]) -> list[tuple[str, float]]:
    """``(position FEN, Cake's value from the side to move's view)`` of every line of ``paths``.

    Raises:
        OSError: a file cannot be read. ValueError: a line is not a label of ``tools/cake_label.py``.
    """
    out = []
    for path in paths:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                rec = json.loads(line)
                if not isinstance(rec, dict) or not {"position", "value"} <= rec.keys():
                    raise ValueError(f"{path}:{n}: not a label of tools/cake_label.py")
                out.append((str(rec["position"]), float(rec["value"])))
    return out


def _init(spec: str) -> None:
    _AGENT["agent"] = make_agent("checkers", spec)
    _AGENT["game"] = Checkers()


def _search(fen: str) -> tuple[float | None, int | None, float]:
    game = _AGENT["game"]
    res = _AGENT["agent"].choose(game.parse_position(fen))
    if getattr(res, "stop_reason", None) == "book" or res.value is None:
        return None, None, 0.0
    spent = (getattr(res, "extra", None) or {}).get("clock_s") or getattr(res, "elapsed", 0.0) or 0.0
    return float(res.value), getattr(res, "depth", None), float(spent)


def agreement(cake: list[float], ours: list[float]) -> dict[str, Any]:
    """The figures of the module doc for paired values (centi-men, the side to move's view)."""
    c = np.clip(np.array(cake, dtype=np.float64), -CLIP, CLIP)
    o = np.clip(np.array(ours, dtype=np.float64), -CLIP, CLIP)
    out: dict[str, Any] = {"positions": len(c), "mean_abs_diff": float(np.mean(np.abs(c - o))) if len(c) else None}
    out["pearson"] = float(pearsonr(c, o)[0]) if len(c) > 2 and c.std() > 0 and o.std() > 0 else None
    out["spearman"] = float(spearmanr(c, o)[0]) if len(c) > 2 and c.std() > 0 and o.std() > 0 else None
    cake_man = np.abs(c) >= MAN
    ours_man = np.abs(o) >= MAN
    out["cake_sees_man"] = int(cake_man.sum())
    out["we_agree"] = int((cake_man & (np.sign(o) == np.sign(c)) & (np.abs(o) >= MAN / 2)).sum())
    out["we_see_man"] = int(ours_man.sum())
    out["cake_agrees"] = int((ours_man & (np.sign(o) == np.sign(c)) & (np.abs(c) >= MAN / 2)).sum())
    return out


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    ap = argparse.ArgumentParser(description="Our agent's values of positions Cake 1.20 has labelled.")
    ap.add_argument("--labels", type=Path, action="append", required=True,
                    help="a labels file written by tools/cake_label.py (repeatable)")
    ap.add_argument("--agent", default=DEFAULT_AGENT,
                    help=f"our checkers agent, NAME[:key=value,...] as in the README (default {DEFAULT_AGENT})")
    ap.add_argument("--positions", type=int, default=200,
                    help="how many labelled positions to search, a sample (default 200)")
    ap.add_argument("--seed", type=int, default=1, help="the sample's seed (default 1)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes, each with its own agent (default 1)")
    ap.add_argument("--worst", type=int, default=0, help="also list the K positions where the values differ most")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    a = ap.parse_args(argv)
    if a.positions < 1 or a.jobs < 1 or a.worst < 0:
        print("error: --positions >= 1, --jobs >= 1 and --worst >= 0", file=sys.stderr)
        return 2
    try:
        make_agent("checkers", a.agent)
        labels = read_labels(a.labels)
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if not labels:
        print("error: the labels files hold no position", file=sys.stderr)
        return 2
    sample = random.Random(a.seed).sample(labels, min(a.positions, len(labels)))
    with ProcessPoolExecutor(max_workers=a.jobs, initializer=_init, initargs=(a.agent,)) as pool:
        results = list(pool.map(_search, [fen for fen, _ in sample], chunksize=4))
    cake = [v for (_, v), (ours, _, _) in zip(sample, results) if ours is not None]
    ours = [r[0] for r in results if r[0] is not None]
    out = agreement(cake, ours)
    depths = [r[1] for r in results if r[0] is not None and r[1] is not None]
    out.update(agent=a.agent, sampled=len(sample), book=len(sample) - len(ours),
               median_depth=statistics.median(depths) if depths else None,
               median_seconds=statistics.median([r[2] for r in results if r[0] is not None]) if ours else None)
    searched = [(fen, v, r[0]) for (fen, v), r in zip(sample, results) if r[0] is not None]
    searched.sort(key=lambda x: -abs(max(-CLIP, min(CLIP, x[1])) - max(-CLIP, min(CLIP, x[2]))))
    out["worst"] = [{"position": fen, "cake": v, "ours": o} for fen, v, o in searched[:a.worst]]
    if a.json:
        print(json.dumps(out))
        return 0
    print(f"{a.agent}: {out['positions']} of {len(sample)} positions searched ({out['book']} book moves left out); "
          f"median depth {out['median_depth']}, {out['median_seconds'] or 0:.2f} s")
    if out["positions"]:
        pe, sp = out["pearson"], out["spearman"]
        print(f"correlation with Cake's values (clipped to +/-{CLIP / MAN:g} men): Pearson "
              f"{'-' if pe is None else f'{pe:.3f}'}, Spearman {'-' if sp is None else f'{sp:.3f}'}; mean absolute "
              f"difference {out['mean_abs_diff']:.1f} (a man = 100)")
        print(f"a man seen: Cake {out['cake_sees_man']} positions, we agree (half a man or more, the same way) in "
              f"{out['we_agree']}; we {out['we_see_man']}, Cake agrees in {out['cake_agrees']}")
    for w in out["worst"]:
        print(f"  {w['position']}  Cake {w['cake']:+.0f}, ours {w['ours']:+.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
