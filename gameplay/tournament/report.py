"""The tournament report: one self-contained HTML file a teacher projects (no scripts, no fetched files).

It holds the table (points, wins/draws/losses, forfeits, rating with its 95% error), the ratings drawn as an
inline SVG (each agent a point with its error bar), the crosstable, the forfeits with their reasons, and links to
every game's saved record (relative paths, so the report and the games folder can be copied together). Fonts are
large (22 px text, 24 px table figures, a page about 1300 px wide) for the back of a classroom.
"""

from __future__ import annotations

import html
import math
import os
import time
from pathlib import Path
from typing import Any

from gameplay.rules.outfile import write_text
from gameplay.rules.registry import game_info, game_names
from gameplay.tournament.model import TournamentError

CSS = """
body { font-family: "DejaVu Sans", "Segoe UI", Arial, sans-serif; font-size: 22px; margin: 24px 32px;
       color: #1a1a1a; background: #fff; }
h1 { font-size: 40px; margin: 0 0 4px 0; }
h2 { font-size: 30px; margin: 36px 0 12px 0; border-bottom: 3px solid #2b5797; padding-bottom: 4px; }
.sub { color: #444; font-size: 22px; margin-bottom: 8px; }
table { border-collapse: collapse; }
th, td { padding: 6px 12px; text-align: right; }
th { background: #2b5797; color: #fff; font-weight: 600; }
td.name, th.name { text-align: left; }
tr:nth-child(even) td { background: #f1f4f9; }
.standings td { font-size: 24px; }
.standings td.rank { font-weight: 700; }
.cross td { text-align: center; min-width: 64px; }
.cross td.name { text-align: left; }
.cross td.self { background: #ccc !important; }
.good { background: #c8e6c9 !important; } .bad { background: #ffcdd2 !important; }
.even { background: #eee !important; }
.games td { text-align: left; font-size: 18px; }
.games td.name { white-space: nowrap; }
.games a { display: inline-block; min-width: 34px; margin: 2px; padding: 2px 4px; text-align: center;
           border-radius: 4px; text-decoration: none; color: #000; font-size: 17px; }
a.w { background: #a5d6a7; } a.d { background: #e0e0e0; } a.l { background: #ef9a9a; }
a.f { outline: 3px solid #d32f2f; }
.note { color: #555; font-size: 18px; }
svg text { font-family: "DejaVu Sans", Arial, sans-serif; }
"""


def write_report(path: Path, run: Any) -> Path:
    """Write the report of a tournament run (``gameplay.tournament.run.TournamentRun``) to ``path``.

    Returns:
        ``path``.

    Raises:
        TournamentError: the file cannot be written.
    """
    text = report_html(run, path.parent)
    try:
        write_text(path, text)  # whole or not at all, fsync'd, a temporary name of its own
    except OSError as e:
        raise TournamentError(f"cannot write the report {path}: {e.strerror or e}") from None
    return path


def report_html(run: Any, folder: Path) -> str:
    """The report's HTML; game links are relative to ``folder`` (where the report is saved)."""
    spec = run.spec
    rows = run.table.rows
    kind = "round robin" if spec.format == "roundrobin" else f"Swiss system, {spec.rounds} rounds"
    title = f"{_game_title(spec.game)} tournament"
    deck = game_info(spec.game).opening_deck(spec.openings) if spec.openings is not None else None
    facts = [kind, f"{len(spec.entrants)} agents",
             f"{len(run.records)} of {run.scheduled} games played",
             f"{spec.games_per_pair} games per pairing"
             + (f", {deck.title} in order, each twice with colours swapped" if deck is not None else ""),
             "each agent's own time per move" if spec.time_limit_s is None else f"{spec.time_limit_s:g} s per move"]
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{_e(title)}</title>", f"<style>{CSS}</style></head><body>",
             f"<h1>{_e(title)}</h1>", f'<div class="sub">{_e(" · ".join(facts))}</div>',
             f'<div class="note">{_e(time.strftime("%Y-%m-%d %H:%M"))}; journal {_e(run.journal.name)}</div>']
    if not run.complete:
        parts.append('<p class="note"><b>Not finished:</b> rerun the same command to play the missing games.</p>')
    from ai.agents.arena import judged_by
    judges = {e.name: judged_by(spec.game, e.spec, spec.time_limit_s) for e in spec.entrants}
    parts += ["<h2>Standings</h2>", standings_html(rows, judges),
              '<p class="note">Rating: Bradley-Terry maximum likelihood (a draw is half a point), Elo scale, mean 0; '
              "&plusmn; the half-width of the 95% interval. Clock: the one the referee judged the agent's time by, "
              "its own (wall time, or the CPU time of its process with a wall-clock cap).</p>",
              "<h2>Ratings</h2>", ratings_svg([(r.agent, r.rating, r.rating_error_95) for r in rows]),
              "<h2>Crosstable</h2>", _crosstable(rows, run.table.crosstable)]
    if run.table.failures:
        parts.append("<h2>Forfeits</h2>")
        for name, d in getattr(run, "disqualified", {}).items():
            where = "before the first game" if d["game"] is None else f"in game {d['game']}"
            parts.append(f"<p><b>{_e(name)} is disqualified:</b> it could not start {_e(where)} "
                         f"(<b>{_e(d['reason'])}</b>: {_e(str(d['detail'])[:200])}); its remaining games are "
                         "forfeits, played without starting it.</p>")
        parts.append(_forfeits(run, folder))
    if run.byes:
        parts.append("<p>" + "; ".join(f"round {r}: {_e(n)} had a bye" for r, n in run.byes) + "</p>")
    parts += ["<h2>Games</h2>", _games(run, folder), "</body></html>"]
    return "\n".join(parts) + "\n"


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _game_title(game: str) -> str:
    """The report's title of ``game`` (its record's ``table_title``, e.g. ``Checkers``)."""
    return game_info(game).table_title if game in game_names() else game.capitalize()


def standings_html(rows: list[Any], judges: dict[str, Any] | None = None) -> str:
    """The standings table; ``judges``: each agent's ``ai.agents.move_clock.TimeControl`` (or ``None``), for the
    clock column (the judgement in words as its title)."""
    judges = judges or {}
    out = ['<table class="standings"><tr><th>#</th><th class="name">agent</th><th>clock</th><th>points</th>'
           "<th>games</th><th>won</th><th>drawn</th><th>lost</th><th>forfeits</th><th>rating</th><th>&plusmn;95%</th>"
           "</tr>"]
    for k, r in enumerate(rows, 1):
        err = "&infin;" if math.isinf(r.rating_error_95) else f"{r.rating_error_95:.0f}"
        judge = judges.get(r.agent)
        clock = ("<td>-</td>" if judge is None else
                 f'<td title="{_e(judge.judged())}">{_e(judge.clock.value)}</td>')
        out.append(f'<tr><td class="rank">{k}</td><td class="name">{_e(r.agent)}</td>{clock}<td>{r.points:g}</td>'
                   f"<td>{r.games}</td><td>{r.wins}</td><td>{r.draws}</td><td>{r.losses}</td><td>{r.forfeits}</td>"
                   f"<td><b>{r.rating:+.0f}</b></td><td>{err}</td></tr>")
    out.append("</table>")
    return "\n".join(out)


def ratings_svg(points: list[tuple[str, float, float]], width: int = 1200) -> str:
    """An inline SVG: one row per agent (best at the top), its rating as a dot and its 95% interval as a bar,
    on an Elo axis with grid lines every 50, 100 or 200 points.

    Args:
        points: ``(agent, rating, error_95)`` per agent.
        width: the drawing's width in pixels.
    """
    pts = sorted(points, key=lambda p: -p[1])
    row_h, top, bottom = 54, 20, 60
    label_w = min(460, 60 + 13 * max((len(p[0]) for p in pts), default=8))
    left, right = label_w + 20, width - 40
    lo = min((r - (e if math.isfinite(e) else 0) for _, r, e in pts), default=-100.0)
    hi = max((r + (e if math.isfinite(e) else 0) for _, r, e in pts), default=100.0)
    lo, hi = min(lo, -50.0), max(hi, 50.0)
    step = next(s for s in (25, 50, 100, 200, 400, 800, 1600, 1e9) if (hi - lo) / s <= 8)
    lo, hi = math.floor(lo / step) * step, math.ceil(hi / step) * step
    height = top + row_h * len(pts) + bottom

    def x(v: float) -> float:
        return left + (v - lo) / (hi - lo) * (right - left)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="ratings with 95% intervals">',
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>']
    v = lo
    while v <= hi + 1e-9:
        xv = x(v)
        colour = "#555" if v == 0 else "#ddd"
        out.append(f'<line x1="{xv:.1f}" y1="{top - 6}" x2="{xv:.1f}" y2="{height - bottom + 6}" '
                   f'stroke="{colour}" stroke-width="{2 if v == 0 else 1}"/>')
        tick = f"{v:+.0f}" if v else "0"
        out.append(f'<text x="{xv:.1f}" y="{height - bottom + 32}" font-size="20" text-anchor="middle" '
                   f'fill="#333">{tick}</text>')
        v += step
    out.append(f'<text x="{(left + right) / 2:.0f}" y="{height - 6}" font-size="20" text-anchor="middle" '
               'fill="#333">rating (Elo, mean 0), bar: 95% interval</text>')
    for k, (name, r, e) in enumerate(pts):
        y = top + row_h * k + row_h / 2
        if k % 2:
            out.append(f'<rect x="0" y="{y - row_h / 2:.1f}" width="{width}" height="{row_h}" fill="#f1f4f9" '
                       'fill-opacity="0.7"/>')
        label = name if len(name) <= 34 else name[:33] + "…"
        out.append(f'<text x="{label_w}" y="{y + 8:.1f}" font-size="22" text-anchor="end">{_e(label)}</text>')
        if math.isfinite(e):
            x0, x1 = x(max(lo, r - e)), x(min(hi, r + e))
            out.append(f'<line x1="{x0:.1f}" y1="{y:.1f}" x2="{x1:.1f}" y2="{y:.1f}" stroke="#2b5797" '
                       'stroke-width="4"/>')
            for xe in (x0, x1):
                out.append(f'<line x1="{xe:.1f}" y1="{y - 12:.1f}" x2="{xe:.1f}" y2="{y + 12:.1f}" '
                           'stroke="#2b5797" stroke-width="4"/>')
        out.append(f'<circle cx="{x(r):.1f}" cy="{y:.1f}" r="10" fill="#d35400" stroke="#000" stroke-width="1.5"/>')
        # the figure beside the bar, on the side with more room
        reach = e if math.isfinite(e) else 0.0
        right_side = x(r) < (left + right) / 2
        tx = x(min(hi, r + reach)) + 14 if right_side else x(max(lo, r - reach)) - 14
        anchor = "start" if right_side else "end"
        out.append(f'<text x="{tx:.1f}" y="{y + 7:.1f}" font-size="20" font-weight="bold" text-anchor="{anchor}" '
                   f'fill="#000">{r:+.0f}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _crosstable(rows: list[Any], cross: dict[str, dict[str, dict[str, float]]]) -> str:
    head = "".join(f"<th>{k}</th>" for k in range(1, len(rows) + 1))
    out = [f'<table class="cross"><tr><th>#</th><th class="name">agent</th>{head}</tr>']
    for k, r in enumerate(rows, 1):
        cells = []
        for o in rows:
            if o.agent == r.agent:
                cells.append('<td class="self"></td>')
                continue
            c = cross[r.agent][o.agent]
            if not c["games"]:
                cells.append("<td></td>")
                continue
            frac = c["points"] / c["games"]
            cls = "good" if frac > 0.5 else "bad" if frac < 0.5 else "even"
            cells.append(f'<td class="{cls}" title="{_e(r.agent)} against {_e(o.agent)}">'
                         f'{c["points"]:g}/{c["games"]:g}</td>')
        out.append(f'<tr><td>{k}</td><td class="name">{_e(r.agent)}</td>{"".join(cells)}</tr>')
    out.append("</table>")
    out.append('<p class="note">Each cell: points of the row\'s agent against the column\'s / games played.</p>')
    return "\n".join(out)


def _link(run: Any, rec: dict[str, Any], folder: Path) -> str:
    target = run.journal.parent / rec["file"]
    return os.path.relpath(target, folder).replace(os.sep, "/")


def _forfeits(run: Any, folder: Path) -> str:
    recs = {r["key"]: r for r in run.records}
    out = ['<table class="games"><tr><th class="name">agent</th><th class="name">against</th>'
           '<th class="name">reason</th><th class="name">game</th></tr>']
    order = run.spec.names
    for f in sorted(run.table.failures, key=lambda f: (order.index(f["agent"]),
                                                       recs.get(f["key"], {}).get("number", 0))):
        rec = recs.get(f["key"])
        game = "" if rec is None else (f'<a href="{_e(_link(run, rec, folder))}">game {rec.get("number", "")}'
                                       "</a>")
        detail = f["detail"] if f["detail"] and f["detail"] != f["reason"] else ""
        out.append(f"<tr><td>{_e(f['agent'])}</td><td>{_e(f['opponent'])}</td>"
                   f"<td><b>{_e(f['reason'])}</b>{(': ' + _e(detail[:200])) if detail else ''}</td>"
                   f"<td>{game}</td></tr>")
    out.append("</table>")
    return "\n".join(out)


def _games(run: Any, folder: Path) -> str:
    by_pair: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for rec in sorted(run.records, key=lambda r: r.get("number", 0)):
        pair = tuple(sorted((rec["first"], rec["second"]), key=run.spec.names.index))
        by_pair.setdefault((pair[0], pair[1]), []).append(rec)
    out = ['<table class="games"><tr><th class="name">pairing</th><th class="name">games (number; colour: result '
           "for the first-named agent; red frame: a forfeit)</th></tr>"]
    for (a, b), recs in by_pair.items():
        links = []
        for rec in recs:
            s = 0.5 if rec["winner"] is None else (1.0 if rec["winner"] == a else 0.0)
            cls = {1.0: "w", 0.5: "d", 0.0: "l"}[s] + (" f" if rec.get("forfeit_by") else "")
            tip = f"{rec['key']}: " + ("draw" if rec["winner"] is None else f"{rec['winner']} won") + \
                  f" ({rec.get('termination', '')}, {rec.get('plies', 0)} plies)"
            links.append(f'<a class="{cls}" href="{_e(_link(run, rec, folder))}" title="{_e(tip)}">'
                         f"{rec.get('number', '')}</a>")
        out.append(f'<tr><td class="name">{_e(a)} &ndash; {_e(b)}</td><td>{"".join(links)}</td></tr>')
    out.append("</table>")
    return "\n".join(out)
