"""Figures that teach (issue 15): tree growth, the Pig policy, the difficulty ladder and a match's score.

One plotting library, matplotlib, through its object API and the non-interactive Agg canvas (no ``pyplot``: no
global figure state, so a figure can be drawn on the window's background thread). Every figure:

* is sized in pixels (``size``) with text sized in pixels (``base_px``, the smallest text: tick labels, legend
  and caption; labels are 1.1 and titles 1.3 times it). Files are 1920x1080 with ``base_px = 24``, so on a
  projector at 1920x1080 no text is under 24 px; the window passes its own size and a base that scales with it.
* uses the Okabe-Ito colour-blind-safe palette (Okabe and Ito, "Color Universal Design", 2008), each series also
  told apart by its marker and line style, and the perceptually uniform ``viridis`` / ``cividis`` maps (and the
  diverging ``PuOr``) for heat maps;
* has a title that says what was measured and a caption naming the command that produced it and the date.

The data come from :mod:`ai.teaching.growth`, :mod:`ai.pig.pig_policy_data`, ``docs/figures/ladder.csv`` (the README's
ladder tables) and ``match`` (:func:`match_figure`). :func:`save` writes ``.png`` or ``.svg``; :func:`render_rgba` gives
the pixels for a pygame surface. matplotlib is imported inside the functions, so importing this module is cheap,
and always through :func:`load_matplotlib`, which makes every figure render on the file (Agg) backend whatever the
environment says (a Jupyter ``MPLBACKEND`` left in the shell, or a nonsense one, would otherwise stop the import).
"""

from __future__ import annotations

import csv
import datetime
import math
import os
import sys
import textwrap
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

from ai.bench.ratings import elo_estimate  # the one Elo formula (the match figure's curve and band)
from gameplay.rules.registry import game_title
from gameplay.rules.shipped import shipped_path

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ai.pig.pig_policy_data import PolicyMap
    from ai.teaching.growth import Growth

DPI = 100
"""Figure resolution: 1 point = DPI / 72 pixels."""
FILE_SIZE = (1920, 1080)
"""Pixel size of the figures the command line writes."""
FILE_BASE_PX = 24
"""Smallest text of those figures, in pixels (projector-readable at 1920x1080)."""
OKABE_ITO = {"black": "#000000", "orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73",
             "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#CC79A7"}
"""Okabe and Ito (2008): distinguishable with every common colour-vision deficiency."""
SERIES_STYLE = (("vermillion", "o", "-"), ("orange", "s", "--"), ("sky", "^", "-."), ("blue", "D", "-"),
                ("purple", "v", ":"))
"""``(colour, marker, line style)`` of the growth series in order (the MCTS points use ``green``, ``*``)."""
FORMATS = (".png", ".svg")
"""File types :func:`save` writes."""
LADDER_CSV = shipped_path("docs", "figures", "ladder.csv")
"""The difficulty ladder's measured rows, transcribed from README "Difficulty ladder"."""


FILE_BACKEND = "agg"
"""The backend every figure is drawn with (a file backend: no window, no pyplot)."""
_IMPORT_LOCK = threading.Lock()


def load_matplotlib() -> ModuleType:
    """matplotlib, imported so that nothing in the environment can stop a figure: the one way this program
    imports it (every figure function calls it first; the command line calls it to check matplotlib is there).

    ``MPLBACKEND`` is read by matplotlib once, when it is first imported, and a value it cannot use (a Jupyter
    ``module://matplotlib_inline.backend_inline`` left in a shell where that module is missing, or a nonsense
    name) makes the import itself raise. So the first import runs with ``MPLBACKEND`` set aside (it is put back
    at once: child processes see the user's environment unchanged), and the backend is then set to
    :data:`FILE_BACKEND`. The figures never consult the backend anyway (each is a ``Figure`` on its own
    ``FigureCanvasAgg``; ``pyplot`` is never imported); the backend is set only when no ``pyplot`` is loaded,
    so a host program's (a notebook's) own figures are left alone.

    Raises:
        ImportError: matplotlib is not installed.
    """
    with _IMPORT_LOCK:
        if "matplotlib" not in sys.modules:
            saved = os.environ.pop("MPLBACKEND", None)
            try:
                import matplotlib
            finally:
                if saved is not None:
                    os.environ["MPLBACKEND"] = saved
        import matplotlib
        if "matplotlib.pyplot" not in sys.modules:  # then use() only sets the rcParam (reading it would not)
            matplotlib.use(FILE_BACKEND, force=True)
        return matplotlib


def pt(px: float) -> float:
    """Points for a text ``px`` pixels tall at :data:`DPI`."""
    return px * 72.0 / DPI


def today() -> str:
    """Today's date as ``YYYY-MM-DD`` (captions)."""
    return datetime.date.today().isoformat()


def check_path(path: str | Path) -> Path:
    """The path of a figure to write, checked before any work.

    Raises:
        ValueError: the name does not end in ``.png`` or ``.svg``.
        OutputError: it cannot be written there (a folder, a file where a folder is expected, no permission).
    """
    from gameplay.rules.outfile import check_target
    p = Path(path)
    if p.suffix.lower() not in FORMATS:
        raise ValueError(f"a figure is written as .png or .svg, got {str(path)[:80]!r}")
    return check_target(p)


def new_figure(size: tuple[int, int], base_px: float, layout: Literal["constrained", "compressed"] = "constrained"
               ) -> Figure:
    """An empty figure ``size`` pixels large on an Agg canvas, with constrained layout (``"compressed"`` for
    grids of square maps)."""
    load_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=(size[0] / DPI, size[1] / DPI), dpi=DPI, layout=layout)
    FigureCanvasAgg(fig)
    engine: Any = fig.get_layout_engine()
    engine.set(w_pad=base_px / 2 / DPI, h_pad=base_px / 2 / DPI)
    return fig


def title(fig: Figure, text: str, base_px: float) -> None:
    """The figure's title (what was measured), wrapped to the figure's width."""
    chars = max(20, int(fig.get_figwidth() * DPI / (0.62 * 1.3 * base_px)))
    fig.suptitle("\n".join(textwrap.wrap(text, chars)), fontsize=pt(1.3 * base_px), fontweight="bold")


def caption(fig: Figure, text: str, base_px: float) -> None:
    """The caption along the bottom (the command that made the figure and its date), wrapped to the width; the
    layout keeps room for it."""
    w_px = fig.get_figwidth() * DPI
    chars = max(30, int((w_px - base_px) / (0.52 * base_px)))
    lines = textwrap.wrap(text, chars) or [""]
    fig.text(base_px / 2 / w_px, 0.004, "\n".join(lines), fontsize=pt(base_px), va="bottom", ha="left",
             color="#333333", family="monospace" if len(lines) == 1 and text.startswith("python") else None)
    h_px = fig.get_figheight() * DPI
    frac = min(0.4, (len(lines) * 1.25 * base_px + base_px) / h_px)
    engine: Any = fig.get_layout_engine()
    engine.set(rect=(0, frac, 1, 1 - frac))


def style_axes(ax: Any, base_px: float, xlabel: str, ylabel: str, subtitle: str | None = None) -> None:
    """Labels, tick sizes, a light grid and a subtitle."""
    ax.set_xlabel(xlabel, fontsize=pt(1.1 * base_px))
    ax.set_ylabel(ylabel, fontsize=pt(1.1 * base_px))
    ax.tick_params(labelsize=pt(base_px))
    ax.grid(True, which="major", color="#cccccc", linewidth=0.8)
    if subtitle:
        ax.set_title(subtitle, fontsize=pt(1.1 * base_px))


def save(fig: Figure, path: str | Path) -> Path:
    """Write ``fig`` as PNG or SVG (by the name's suffix); makes the folder. The file is written whole or not at
    all (:func:`gameplay.rules.outfile.replacing`: an error or Ctrl+C leaves no half-written figure).

    Raises:
        ValueError: another suffix. OSError: the file cannot be written.
    """
    from gameplay.rules.outfile import replacing
    matplotlib = load_matplotlib()
    p = check_path(path)
    with replacing(p) as tmp, matplotlib.rc_context({"svg.fonttype": "none"}):  # SVG text stays text
        fig.savefig(tmp, format=p.suffix.lower()[1:], dpi=DPI, facecolor="white")
    return p


def render_rgba(fig: Figure) -> tuple[bytes, tuple[int, int]]:
    """Draw ``fig`` on its Agg canvas: the RGBA bytes and the size in pixels (for ``pygame.image.frombuffer``)."""
    canvas: Any = fig.canvas
    canvas.draw()
    buf = canvas.buffer_rgba()
    return bytes(buf), (int(buf.shape[1]), int(buf.shape[0]))


def _ticks_int(ax: Any) -> None:
    load_matplotlib()
    from matplotlib.ticker import MaxNLocator
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))


# ----- 1. tree growth -------------------------------------------------------------------------------------------
def growth_figure(g: Growth, *, size: tuple[int, int] = FILE_SIZE, base_px: float = FILE_BASE_PX,
                  command: str | None = None, subject: str | None = None) -> Figure:
    """Nodes against depth (log scale) for each search, with the reference curves of
    :func:`ai.teaching.growth.reference_curves` (every node of a uniform tree, its leaves ``b^d``, and ``b^(d/2)``),
    each named in the legend by what it counts; seconds on the right.

    Args:
        g: the measurement (:func:`ai.teaching.growth.measure_growth` or :func:`ai.teaching.growth.tree_growth`).
        size: pixels. base_px: smallest text in pixels.
        command: the command line for the caption (``None``: the caption names the data only).
        subject: what was searched, for the title (default: the game and position).
    """
    fig = new_figure(size, base_px)
    cols = 3 if size[0] >= 75 * base_px else 2  # the legend's columns fit the width
    from ai.teaching.growth import reference_curves
    refs = reference_curves(g)
    rows = math.ceil((len(g.series) + (g.mcts is not None)) / cols)  # the searches, in columns
    legend_px, refs_px = rows * 1.45 * base_px, len(refs) * 1.45 * base_px  # under them a reference a line
    gs = fig.add_gridspec(3, 2, width_ratios=(3, 2),
                          height_ratios=(max(1.0, size[1] - legend_px - refs_px - 7 * base_px), legend_px,
                                         max(1.0, refs_px)))
    ax, ax_t = fig.add_subplot(gs[0, 0]), fig.add_subplot(gs[0, 1])
    lax, rax = fig.add_subplot(gs[1, :]), fig.add_subplot(gs[2, :])
    lax.axis("off")
    rax.axis("off")
    what = subject or f"{game_title(g.game, 'noun')}, position {g.position}"
    title(fig, f"Search tree growth: nodes visited against depth ({what})", base_px)
    lw, ms = base_px / 8, base_px / 2.4
    for s, (colour, marker, ls) in zip(g.series, SERIES_STYLE):
        kw: dict[str, Any] = dict(color=OKABE_ITO[colour], marker=marker, linestyle=ls, linewidth=lw, markersize=ms)
        ax.plot(s.depths, s.nodes, label=s.label, **kw)
        ax_t.plot(s.depths, [max(x, 1e-5) for x in s.seconds], **kw)
    if g.mcts is not None and g.mcts.depths:
        m = g.mcts
        kw = dict(color=OKABE_ITO["green"], marker="*", linestyle=":", linewidth=lw, markersize=ms * 1.6)
        ax.plot(m.depths, m.nodes, label=f"MCTS, {m.simulations[0]:,}-{m.simulations[-1]:,} simulations: tree "
                "nodes, depth reached", **kw)
        ax_t.plot(m.depths, m.seconds, **kw)
    b = g.branching
    random_trees = g.mcts is None and g.game.startswith("random trees")
    styles = {"nodes": ("#000000", (0, (1, 0))), "deepening": ("#000000", (0, (1, 0))),
              "leaves": ("#000000", (0, (6, 3))), "ordered": ("#777777", (0, (2, 2)))}
    d = [x / 4 for x in range(4, 4 * g.max_depth + 1)]
    for ref in refs:
        colour, dash = styles[ref.key]
        ax.plot(d, [ref.value(b, x) for x in d], color=colour, linestyle=dash, linewidth=lw * 0.6, label=ref.label)
    ax.set_yscale("log")
    ax_t.set_yscale("log")
    counted = ("one search to depth d: root, inner nodes and leaves" if random_trees
               else "root, inner nodes and leaves of iterations 1..d, as analyze reports")
    style_axes(ax, base_px, "depth d (plies)", "nodes visited (log scale)", f"Nodes ({counted})")
    style_axes(ax_t, base_px, "depth d (plies)", "seconds (log scale)", "Time per depth")
    _ticks_int(ax)
    _ticks_int(ax_t)
    handles, labels = ax.get_legend_handles_labels()
    k = len(handles) - len(refs)  # the searches, in columns; under them the reference curves, one a line
    lax.legend(handles[:k], labels[:k], fontsize=pt(base_px), loc="center", ncols=cols, frameon=False,
               borderaxespad=0, handlelength=3)
    if refs:
        rax.legend(handles[k:], labels[k:], fontsize=pt(base_px), loc="center", ncols=1, frameon=False,
                   borderaxespad=0, handlelength=3)
    notes = [f"{s.label}: {s.note}" for s in g.series if s.note]
    text = (f"b = N_D^(1/D) with N_D = {g.level_counts[-1]:,} positions D = {g.branching_depth} plies down; "
            f"positions per ply, counted by minimax's own iterations: {', '.join(f'{n:,}' for n in g.level_counts)}."
            if g.level_counts and not random_trees else
            f"b = {b:g}: every inner node has {b:g} children." if math.isfinite(b) else "")
    if notes:
        text += " " + "; ".join(notes) + "."
    cap = f"{text} Made by: {command or 'the window'} on {today()}."
    caption(fig, cap.strip(), base_px)
    return fig


# ----- 2. the Pig policy ---------------------------------------------------------------------------------------
def pig_policy_figure(pm: PolicyMap, *, size: tuple[int, int] = FILE_SIZE, base_px: float = FILE_BASE_PX,
                      command: str | None = None) -> Figure:
    """Three maps over (opponent's score, own score): the optimal hold boundary, the agent's difference from it,
    and the win probability ``P(i, j, 0)`` with its 0.25 / 0.5 / 0.75 contours."""
    import numpy as np
    load_matplotlib()
    from matplotlib import colormaps
    fig = new_figure(size, base_px, "compressed")
    tg = pm.target
    panels = 3 if pm.agent_boundary is not None else 2
    axes = [fig.add_subplot(1, panels, k + 1) for k in range(panels)]
    title(fig, f"Optimal Pig (target {tg}): when to hold, and the chance of winning", base_px)
    bound = np.array([[np.nan if v is None else v for v in row] for row in pm.boundary], dtype=float)
    extent = (-0.5, tg - 0.5, -0.5, tg - 0.5)
    im = axes[0].imshow(np.ma.masked_invalid(bound), origin="lower", extent=extent, vmin=0,
                        vmax=float(np.nanmax(bound)), interpolation="nearest",
                        cmap=colormaps["viridis"].with_extremes(bad="#d9d9d9"))
    _colorbar(fig, im, axes[0], base_px, "hold at turn total")
    style_axes(axes[0], base_px, "opponent's score j", "own score i", "Optimal: hold at turn total")
    parts = [f"Left: the smallest turn total at which the optimal player holds (grey: it rolls on to {tg}; in "
             f"{pm.not_threshold:,} score pairs it rolls again at some higher totals, e.g. at (41, 49) it holds "
             "at 22 but rolls at 27)."]
    k = 1
    if pm.agent_boundary is not None:
        def filled(b: Any, i: int) -> float:
            return float(tg - i if b is None else b)  # "never holds" = holds at the goal
        diff = np.array([[filled(a, i) - filled(o, i) for a, o in zip(ra, ro)]
                         for i, (ra, ro) in enumerate(zip(pm.agent_boundary, pm.boundary))])
        im2 = axes[1].imshow(diff, origin="lower", cmap="PuOr_r", extent=extent, vmin=-10, vmax=10,
                             interpolation="nearest")
        _colorbar(fig, im2, axes[1], base_px, "holds later (+) / earlier (-)")
        style_axes(axes[1], base_px, "opponent's score j", "own score i", f"{pm.agent} minus optimal")
        small = int(np.count_nonzero((np.abs(diff) <= 2) & (diff != 0)))
        parts.append(f"Middle: {pm.agent}'s hold boundary minus the optimal one: different in "
                     f"{len(pm.disagreements):,} of {tg * tg:,} score pairs ({small:,} of them by 1 or 2).")
        k = 2
    win = np.array(pm.win)
    im3 = axes[k].imshow(win, origin="lower", cmap="cividis", extent=extent, vmin=0, vmax=1,
                         interpolation="nearest")
    cs = axes[k].contour(win, levels=(0.25, 0.5, 0.75), colors=["white", "white", "black"],
                         linewidths=base_px / 10, origin="lower", extent=extent)
    axes[k].clabel(cs, fontsize=pt(base_px * 0.9), fmt="%.2f")
    _colorbar(fig, im3, axes[k], base_px, "P(win)")
    style_axes(axes[k], base_px, "opponent's score j", "own score i", "Win probability P(i, j, 0)")
    parts.append(f"Right: the chance of winning for the player about to start a turn (P(0, 0) = "
                 f"{pm.first_player_win:.6f}).")
    for ax in axes:
        ax.grid(False)
    parts.append(f"Exact table of ai/pig/pig_optimal.py (Neller and Presser 2004). Made by: {command or 'the window'} "
                 f"on {today()}.")
    caption(fig, " ".join(parts), base_px)
    return fig


def _colorbar(fig: Figure, im: Any, ax: Any, base_px: float, label: str) -> None:
    cb = fig.colorbar(im, ax=ax, location="bottom", shrink=0.9, aspect=25)
    cb.set_label(label, fontsize=pt(base_px))
    cb.ax.tick_params(labelsize=pt(base_px))


# ----- 3. the difficulty ladder --------------------------------------------------------------------------------
@dataclass(frozen=True)
class LadderRow:
    """One measured rung: ``preset`` against ``opponent`` over ``games`` games."""

    game: str
    preset: str
    opponent: str
    games: int
    won: int
    lost: int
    drawn: int
    exact: float | None
    command: str

    @property
    def score(self) -> float:
        """Points per game (win 1, draw 1/2)."""
        return (self.won + self.drawn / 2) / self.games

    @property
    def interval(self) -> tuple[float, float]:
        """95% interval: score +/- 1.96 sd / sqrt(n), sd the per-game score's standard deviation (README)."""
        n, s = self.games, self.score
        var = (self.won * (1 - s) ** 2 + self.drawn * (0.5 - s) ** 2 + self.lost * s ** 2) / n
        half = 1.96 * math.sqrt(var / n)
        return s - half, s + half


def read_ladder(path: str | Path = LADDER_CSV) -> list[LadderRow]:
    """The rows of a ladder CSV (columns ``game, preset, opponent, games, won, lost, drawn, exact, command``).

    Raises:
        ValueError: a missing column or a number that does not read. OSError: the file cannot be read.
    """
    rows: list[LadderRow] = []
    with open(path, encoding="utf-8", newline="") as f:
        for k, r in enumerate(csv.DictReader(f), 2):
            try:
                rows.append(LadderRow(r["game"], r["preset"], r["opponent"], int(r["games"]), int(r["won"]),
                                      int(r["lost"]), int(r["drawn"]), float(r["exact"]) if r["exact"] else None,
                                      r["command"]))
            except (KeyError, ValueError, TypeError) as e:
                raise ValueError(f"{path}: line {k}: {e}") from None
    return rows


def ladder_figure(rows: Sequence[LadderRow], *, size: tuple[int, int] = FILE_SIZE,
                  base_px: float = FILE_BASE_PX, command: str | None = None, source: str = "") -> Figure:
    """One panel per game: each preset's score with its 95% interval, the exact score as a diamond."""
    by_game: dict[str, list[LadderRow]] = {}
    for r in rows:
        by_game.setdefault(r.game, []).append(r)
    fig = new_figure(size, base_px)
    title(fig, "Difficulty ladder: each preset's score per game (95% interval), as measured", base_px)
    lw, ms = base_px / 8, base_px / 2.2
    for k, (game, rs) in enumerate(by_game.items()):
        ax = fig.add_subplot(1, len(by_game), k + 1)
        xs = list(range(len(rs)))
        lo = [r.score - r.interval[0] for r in rs]
        hi = [r.interval[1] - r.score for r in rs]
        ax.errorbar(xs, [r.score for r in rs], yerr=[lo, hi], fmt="o", color=OKABE_ITO["blue"], markersize=ms,
                    elinewidth=lw, capsize=base_px / 3, capthick=lw, label="match score, 95% interval")
        ex = [(x, r.exact) for x, r in zip(xs, rs) if r.exact is not None]
        if ex:
            ax.plot([x for x, _ in ex], [e for _, e in ex], "D", color=OKABE_ITO["orange"], markersize=ms * 0.8,
                    markerfacecolor="none", markeredgewidth=lw, label="exact (no sampling)")
        opps = {r.opponent for r in rs}
        against = f"against {next(iter(opps))}" if len(opps) == 1 else "against the preset below"
        ax.set_xticks(xs, [f"{r.preset}\n{r.games:,}" for r in rs])
        style_axes(ax, base_px, "preset, games", "score", f"{game} {against}")
        if min(r.interval[0] for r in rs) < 0.6:  # the even line, unless it would squash a close ladder
            ax.axhline(0.5, color="#777777", linestyle=(0, (2, 2)), linewidth=lw * 0.7)
        if k == 0:
            ax.legend(fontsize=pt(base_px), loc="lower right", framealpha=0.92)
    cap = (f"{source} Intervals: score +/- 1.96 sd/sqrt(n) from the counts. Made by: {command or 'the window'} on "
           f"{today()}.")
    caption(fig, cap.strip(), base_px)
    return fig


# ----- 4. a match's score over time ----------------------------------------------------------------------------
def match_figure(per_game: Sequence[float], *, p1: str, p2: str, game: str, size: tuple[int, int] = FILE_SIZE,
                 base_px: float = FILE_BASE_PX, command: str | None = None) -> Figure:
    """The first agent's running score and its Elo estimate, each with its 95% band, against games played.

    Args:
        per_game: the first agent's points in each game in the order played (1, 1/2 or 0).
        p1, p2: the agents' specs. game: the game's name.

    Raises:
        ValueError: no games.
    """
    if not per_game:
        raise ValueError("a match figure needs at least one game")
    n_all = len(per_game)
    xs = list(range(1, n_all + 1))
    score: list[float] = []
    s_lo: list[float] = []
    s_hi: list[float] = []
    el: list[float] = []
    e_lo: list[float] = []
    e_hi: list[float] = []
    total = total2 = 0.0
    for n in xs:
        x = per_game[n - 1]
        total += x
        total2 += x * x
        s = total / n
        var = max(0.0, total2 - n * s * s) / max(1, n - 1)
        se = math.sqrt(var / n)
        score.append(s)
        s_lo.append(max(0.0, s - 1.96 * se))
        s_hi.append(min(1.0, s + 1.96 * se))
        d, err = elo_estimate(s, se, n)
        el.append(d)
        e_lo.append(d - err)
        e_hi.append(d + err)
    fig = new_figure(size, base_px)
    title(fig, f"{game_title(game, 'noun')}: {p1} against {p2}, score after each game ({n_all:,} games)",
          base_px)
    ax1, ax2 = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    lw = base_px / 8
    ax1.fill_between(xs, s_lo, s_hi, color=OKABE_ITO["sky"], alpha=0.35, linewidth=0, label="95% interval")
    ax1.plot(xs, score, color=OKABE_ITO["blue"], linewidth=lw, label=f"score of {p1}")
    ax1.axhline(0.5, color="#777777", linestyle=(0, (2, 2)), linewidth=lw * 0.7)
    ax1.set_ylim(0, 1)
    style_axes(ax1, base_px, "games played", "score per game", "Running score (win 1, draw 1/2)")
    ax1.legend(fontsize=pt(base_px), loc="lower right", framealpha=0.92)
    k0 = 1 if n_all > 1 else 0  # after one game the clamped score says nothing: the Elo curve starts at game 2
    ax2.fill_between(xs[k0:], e_lo[k0:], e_hi[k0:], color=OKABE_ITO["orange"], alpha=0.35, linewidth=0,
                     label="95% interval")
    ax2.plot(xs[k0:], el[k0:], color=OKABE_ITO["vermillion"], linewidth=lw, label="Elo difference")
    ax2.axhline(0.0, color="#777777", linestyle=(0, (2, 2)), linewidth=lw * 0.7)
    style_axes(ax2, base_px, "games played", "Elo difference", "Elo estimate: -400 log10(1/s - 1)")
    ax2.legend(fontsize=pt(base_px), loc="lower right", framealpha=0.92)
    final = f"final: score {score[-1]:.3f}, Elo {el[-1]:+.0f} +/- {(e_hi[-1] - e_lo[-1]) / 2:.0f}."
    caption(fig, f"{final} Made by: {command or 'match --plot'} on {today()}.", base_px)
    return fig
