"""Drawing of the race view (:mod:`gameplay.ui.play.race_scene`): the title, the table, the lanes and the bar chart.

:func:`draw_race` paints one :class:`ai.teaching.race.Race` snapshot into a rectangle: the title (game, position,
budget), a table with one column per agent (:func:`table_cells`: move, value, depth, simulations, nodes, time, why it
stopped, or the agent's error in red), "choice over time" (one lane per agent on a shared axis in seconds, split
into segments coloured by the move the agent would have played at that moment, each labelled with the move) and
"nodes visited" (one bar per agent on a logarithmic axis labelled with real numbers). The view only draws the
model; the export writes the same picture. Sizes follow the interface scale (:func:`gameplay.ui.widgets.projector.px`).
"""

from __future__ import annotations

import math
from typing import Any

import pygame

from ai.kernel.core import StopReason
from ai.kernel.numbers import stop_text
from ai.teaching.race import Race, RaceEntry
from gameplay.rules.registry import game_info, game_title
from gameplay.ui.widgets import projector

RGB = tuple[int, int, int]
ERROR: RGB = (255, 122, 122)
"""Colour of an agent's error (the panel's error red)."""
BAR: RGB = (79, 195, 247)
"""Colour of the node bars."""
GRID: RGB = (52, 60, 82)
"""Grid lines and axes."""
MOVE_COLOURS: tuple[RGB, ...] = (
    (79, 195, 247), (255, 167, 38), (102, 187, 106), (240, 98, 146), (171, 130, 255), (255, 235, 59),
    (38, 166, 154), (188, 143, 110), (239, 83, 80), (205, 220, 57), (200, 200, 200), (92, 107, 192))
"""Colours of the moves on the lanes, handed out in order of first appearance (a move has one colour in every
lane, so agents that agree show it)."""
HEAD_LINES = 3
"""Lines an agent's name may take at the head of its column (a long description wraps; never shortened at the
sizes the window offers)."""
ROW_NAMES: tuple[str, ...] = ("Move", "Value", "Depth", "Simulations", "Nodes", "Time", "Stopped by")
"""The table's rows under the agents' names (``Simulations`` only when an ``mcts`` agent is in the race)."""
font = projector.scaled_ui_font
"""The UI font at a size in design pixels (:func:`gameplay.ui.widgets.projector.scaled_ui_font`)."""
fit = projector.fit_text
"""Text shortened with an ellipsis to a width (:func:`gameplay.ui.widgets.projector.fit_text`)."""


def wrap(text: str, f: pygame.font.Font, width: int, max_lines: int) -> list[str]:
    """``text`` broken at spaces into at most ``max_lines`` lines of ``width`` pixels (the last one shortened
    with an ellipsis when the text goes on)."""
    lines: list[str] = []
    for word in text.split():
        if lines and f.size(f"{lines[-1]} {word}")[0] <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) > max_lines:  # the last line takes the rest, shortened with an ellipsis
        lines = lines[:max_lines - 1] + [" ".join(lines[max_lines - 1:])]
    return [fit(line, f, width) for line in lines]


def blit(surface: pygame.Surface, text: str, f: pygame.font.Font, colour: RGB, pos: tuple[int, int], *,
         anchor: str = "topleft") -> pygame.Rect:
    """Draw ``text`` with its ``anchor`` point (a ``pygame.Rect`` attribute name) at ``pos``; returns its rect."""
    img = f.render(text, True, colour)
    r = img.get_rect(**{anchor: pos})
    surface.blit(img, r)
    return r


# ----- texts ------------------------------------------------------------------------------------------------------
def number(v: float) -> str:
    """A value as the views print it: whole numbers in full, others to 3 significant digits."""
    if float(v).is_integer():
        return f"{int(v):+d}" if v else "0"
    return f"{v:+.3g}" if abs(v) < 1000 else f"{v:+,.1f}"


def value_text(e: RaceEntry, game: str) -> str:
    """The value of an agent's choice for the side to move: a proven outcome, an MCTS mean, Pig's expected
    utility with the win chance, or the heuristic number."""
    if e.value is None:
        return "—"
    if e.outcome == "win":
        return f"win in {e.plies_to_end} plies" if e.plies_to_end is not None else "proven win"
    if e.outcome == "loss":
        return f"loss in {e.plies_to_end} plies" if e.plies_to_end is not None else "proven loss"
    if e.outcome == "draw":
        return "draw (proven)"
    if e.simulations is not None:
        return f"{e.value:+.3f} (mean, -1..1)"
    if game_info(game).value_as_win_chance:  # Pig: a value of -1..1 is a win chance
        return f"{e.value:+.3f} (win {50.0 * (e.value + 1.0):.1f}%)"
    return number(e.value)


def nodes_text(e: RaceEntry) -> str:
    """The bar's label: ``"57,398 nodes"``, or for ``mcts`` ``"7,113 tree nodes, 7,112 simulations"``."""
    if e.nodes is None:
        return ""
    if e.simulations is not None:
        return f"{e.nodes:,} tree nodes, {e.simulations:,} simulations"
    return f"{e.nodes:,} nodes" + (" (a table lookup)" if e.nodes == 0 and e.stop_reason == StopReason.TABLE else "")


def table_cells(race: Race) -> list[list[str]]:
    """The table as text, one list per agent in race order: name, then one cell per row of :func:`row_names`
    (an agent that could not run: ``["name", "cannot run: ..."]``; one not run yet: ``[name, "waiting"]`` or
    ``[name, "not run (cancelled)"]``; the one searching: ``[name, "searching..."]`` and its latest choice)."""
    rows = row_names(race)
    out: list[list[str]] = []
    for i, spec in enumerate(race.specs):
        e = race.entries[i] if i < len(race.entries) else None
        if e is None:
            waiting = "not run (cancelled)" if race.done else "waiting"
            name, opts = lane_label(spec)
            out.append([f"{name} ({opts})" if opts else name, waiting])
            continue
        name = e.agent_description or e.description or " ".join(lane_label(spec))
        if e.error is not None:
            out.append([name, f"cannot run: {e.error}"])
            continue
        if e.running:
            last = e.timeline[-1] if e.timeline else None
            cells = [name, "searching..."]
            if last is not None:
                cells += [f"so far {last.move}", f"depth {last.depth}", f"{last.nodes:,} nodes"]
            out.append(cells)
            continue
        by_row = {
            "Move": e.move or "—",
            "Value": value_text(e, race.game),
            "Depth": (f"{e.depth} (deepest node)" if e.simulations is not None
                      else "— (no search)" if e.stop_reason in (StopReason.TABLE, StopReason.BOOK) else str(e.depth)),
            "Simulations": f"{e.simulations:,}" if e.simulations is not None else "—",
            "Nodes": (f"{e.nodes:,} tree nodes" if e.simulations is not None else f"{e.nodes:,}")
            if e.nodes is not None else "—",
            "Time": f"{e.elapsed_s:.3f} s" if e.elapsed_s is not None else "—",
            "Stopped by": stop_text(e.stop_reason),
        }
        out.append([name] + [by_row[r] for r in rows])
    return out


def row_names(race: Race) -> list[str]:
    """The table's row names for this race (:data:`ROW_NAMES`, ``Simulations`` only with an ``mcts`` agent)."""
    mcts = any(e.algorithm == "mcts" for e in race.entries) or any(s.split(":")[0].strip().lower() == "mcts"
                                                                   for s in race.specs)
    return [r for r in ROW_NAMES if r != "Simulations" or mcts]


def lane_label(spec: str) -> tuple[str, str]:
    """An agent spec as two short lines for a lane: the name, then its settings (``ordering=off, tt=off``)."""
    name, _, rest = spec.partition(":")
    return name.strip(), rest.replace(",", ", ").strip()


def title_text(race: Race) -> tuple[str, str]:
    """The title and the line under it: game, position, budget; who is to move."""
    game = game_title(race.game)
    budget = f"{race.budget:g} s each (the same budget)" if race.budget is not None else "each agent's own limits"
    side = f"Player {race.to_move}" if race.to_move.isdigit() else race.to_move  # Pig's players are 1 and 2
    return (f"Race: {game}  ·  {budget}",
            f"Position {race.position}  ·  {side} to move, values for {side}  ·  the agents search it one after "
            "the other")


def move_colours(race: Race) -> dict[str, RGB]:
    """Each move of the race -> its colour on the lanes, handed out in the order the moves first appear (agent by
    agent, each one's timeline then its answer), so a colour never changes while the race runs (the agents run one
    after the other, and each only adds moves at the end)."""
    moves: list[str] = []
    for e in race.entries:
        for m in [p.move for p in e.timeline] + [e.move]:
            if m and m not in moves:
                moves.append(m)
    return {m: MOVE_COLOURS[i % len(MOVE_COLOURS)] for i, m in enumerate(moves)}


def nice_step(span: float, count: int = 5) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) giving about ``count`` ticks over ``span``."""
    if span <= 0:
        return 1.0
    raw = span / count
    p = 10 ** math.floor(math.log10(raw))
    return float(next(k * p for k in (1, 2, 5, 10) if k * p >= raw))


def seconds_text(t: float, step: float) -> str:
    """A tick label in seconds with as many decimals as the step needs."""
    decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if step < 1 else 0
    return f"{t:.{decimals}f}"


def time_axis(race: Race, now: float | None) -> float:
    """The shared time axis' length in seconds: the budget, or the longest agent (the running one to ``now``)."""
    longest = 0.0
    for e in race.entries:
        if e.elapsed_s is not None:
            longest = max(longest, e.elapsed_s)
        elif e.running and e.started_at is not None and now is not None:
            longest = max(longest, now - e.started_at)
        if e.timeline:
            longest = max(longest, e.timeline[-1].elapsed_s)
    return max(longest, race.budget or 0.0, 1e-3)


# ----- drawing ------------------------------------------------------------------------------------------------------
def draw_race(surface: pygame.Surface, rect: pygame.Rect, race: Race, now: float | None = None) -> None:
    """Draw the whole race view of ``race`` into ``rect`` of ``surface`` (background included).

    Args:
        surface: the target (the window, or an off-screen surface for the PNG export).
        rect: the area in pixels.
        race: the snapshot to draw.
        now: ``time.perf_counter()`` now, to extend the running agent's lane; ``None`` draws only what was reported.
    """
    pal = projector.palette()
    px = projector.px
    surface.fill(pal.background, rect)
    x, y, w = rect.x + px(8), rect.y + px(4), rect.width - px(16)
    title, sub = title_text(race)
    blit(surface, fit(title, font(21, True), w), font(21, True), pal.text, (x, y))
    y += font(21, True).get_linesize()
    for line in wrap(sub, font(14), w, 2):  # the position of checkers is long: two lines on a narrow window
        blit(surface, line, font(14), pal.muted, (x, y))
        y += font(14).get_linesize()
    y += px(8)
    table_h = draw_table(surface, pygame.Rect(x, y, w, rect.bottom - y), race)
    y += table_h + px(14)
    charts = pygame.Rect(x, y, w, rect.bottom - y - px(4))
    if charts.height < px(80):
        return
    label_w = min(px(170), charts.width // 6)
    lanes_w = int((charts.width - label_w) * 0.58)
    draw_lanes(surface, pygame.Rect(charts.x, charts.y, label_w + lanes_w, charts.height), label_w, race, now)
    bars = pygame.Rect(charts.x + label_w + lanes_w + px(24), charts.y, 0, charts.height)
    bars.width = charts.right - bars.x
    draw_bars(surface, bars, race)


def draw_table(surface: pygame.Surface, rect: pygame.Rect, race: Race) -> int:
    """The table, one column per agent; returns the height used in pixels."""
    pal = projector.palette()
    px = projector.px
    rows = row_names(race)
    cells = table_cells(race)
    n = max(1, len(cells))
    label_w = px(104)
    col_w = (rect.width - label_w) // n
    head_f, cell_f, row_f = font(14, True), font(15), font(14)
    line = cell_f.get_linesize()
    inner = col_w - px(12)
    heads = [wrap(f"{i + 1}. {col[0]}", head_f, inner, HEAD_LINES) for i, col in enumerate(cells)]
    head_h = max([2] + [len(h) for h in heads]) * head_f.get_linesize() + px(4)
    row_h = line + px(3)
    height = head_h + row_h * len(rows) + px(6)
    pygame.draw.rect(surface, pal.board, pygame.Rect(rect.x, rect.y, rect.width, height), border_radius=px(6))
    for r, name in enumerate(rows):
        ry = rect.y + head_h + r * row_h
        if r % 2 == 0:
            pygame.draw.rect(surface, pal.tile, pygame.Rect(rect.x, ry, rect.width, row_h))
        blit(surface, name, row_f, pal.muted, (rect.x + px(8), ry + (row_h - row_f.get_linesize()) // 2))
    colours = move_colours(race)
    for i, col in enumerate(cells):
        cx = rect.x + label_w + i * col_w
        inner = col_w - px(12)
        if i:
            pygame.draw.line(surface, GRID, (cx, rect.y + px(4)), (cx, rect.y + height - px(4)))
        for k, text in enumerate(heads[i]):
            blit(surface, text, head_f, pal.text, (cx + px(6), rect.y + px(3) + k * head_f.get_linesize()))
        body = pygame.Rect(cx + px(6), rect.y + head_h, inner, row_h * len(rows))
        entry = race.entries[i] if i < len(race.entries) else None
        if entry is not None and entry.error is not None or len(col) == 2:
            colour = ERROR if entry is not None and entry.error is not None else pal.muted
            max_lines = max(1, body.height // line)
            for k, text in enumerate(wrap(col[1], cell_f, inner, max_lines)):
                blit(surface, text, cell_f, colour, (body.x, body.y + k * line + px(2)))
            continue
        for r, text in enumerate(col[1:]):
            ry = body.y + r * row_h + (row_h - line) // 2
            tx = body.x
            if r == 0 and entry is not None and text in colours:  # the move, with its lane colour
                chip = pygame.Rect(tx, ry + line // 4, px(10), line // 2)
                pygame.draw.rect(surface, colours[text], chip, border_radius=px(2))
                tx += px(16)
            blit(surface, fit(text, cell_f, body.right - tx), cell_f, pal.text, (tx, ry))
    return height


def draw_lanes(surface: pygame.Surface, rect: pygame.Rect, label_w: int, race: Race, now: float | None) -> None:
    """"Choice over time": one lane per agent along a shared axis in seconds, coloured by the move chosen."""
    pal = projector.palette()
    px = projector.px
    head_f, f, small = font(16, True), font(14), font(12)
    blit(surface, "Choice over time", head_f, pal.text, (rect.x, rect.y))
    blit(surface, "the move each agent would play, by seconds since it started", small, pal.muted,
         (rect.x + label_w, rect.y + head_f.get_linesize() - small.get_linesize()))
    top = rect.y + head_f.get_linesize() + px(6)
    axis_h = small.get_linesize() + px(8)
    n = max(1, len(race.specs))
    row_h = min(px(72), (rect.bottom - top - axis_h) // n)
    lane_h = max(px(10), min(px(32), row_h - px(12)))
    x0, x1 = rect.x + label_w, rect.right - px(4)
    total = time_axis(race, now)

    def xat(t: float) -> int:
        return x0 + round((x1 - x0) * max(0.0, min(1.0, t / total)))

    step = nice_step(total)
    t = 0.0
    bottom = top + n * row_h
    while t <= total + 1e-9:
        tx = xat(t)
        pygame.draw.line(surface, GRID, (tx, top), (tx, bottom))
        anchor = "topleft" if t == 0 else ("topright" if tx > x1 - px(20) else "midtop")
        blit(surface, seconds_text(t, step) + " s", small, pal.muted, (tx, bottom + px(3)), anchor=anchor)
        t += step
    colours = move_colours(race)
    for i, spec in enumerate(race.specs):
        ry = top + i * row_h
        name, opts = lane_label(spec)
        text_w = label_w - px(10)
        blit(surface, fit(f"{i + 1}. {name}", f, text_w), f, pal.text, (rect.x, ry + px(2)))
        if opts and row_h >= f.get_linesize() + small.get_linesize() + px(4):
            blit(surface, fit(opts, small, text_w), small, pal.muted, (rect.x + px(14), ry + px(2) + f.get_linesize()))
        lane = pygame.Rect(x0, ry + (row_h - lane_h) // 2, x1 - x0, lane_h)
        e = race.entries[i] if i < len(race.entries) else None
        if e is None or e.error is not None:
            msg = ("not run (cancelled)" if race.done else "waiting") if e is None else f"cannot run: {e.error}"
            blit(surface, fit(msg, f, lane.width - px(8)), f, ERROR if e is not None else pal.muted,
                 (lane.x + px(4), lane.centery), anchor="midleft")
            continue
        _draw_lane(surface, lane, e, colours, xat, now, small)


def _draw_lane(surface: pygame.Surface, lane: pygame.Rect, e: RaceEntry, colours: dict[str, RGB], xat: Any,
               now: float | None, small: pygame.font.Font) -> None:
    """One agent's lane: a segment per stretch of time with the same choice, labelled with the move."""
    pal = projector.palette()
    px = projector.px
    points = list(e.timeline)
    end = e.elapsed_s
    if end is None:
        end = (now - e.started_at) if (now is not None and e.started_at is not None) else \
            (points[-1].elapsed_s if points else 0.0)
    start_x = lane.x
    first = points[0].elapsed_s if points else end
    if xat(first) > start_x:  # before the first report: no choice yet
        pygame.draw.rect(surface, pal.tile, pygame.Rect(start_x, lane.y, xat(first) - start_x, lane.height))
    segments: list[tuple[float, float, str]] = []
    for k, p in enumerate(points):
        t1 = points[k + 1].elapsed_s if k + 1 < len(points) else end
        if segments and segments[-1][2] == p.move:
            segments[-1] = (segments[-1][0], t1, p.move)
        else:
            segments.append((p.elapsed_s, t1, p.move))
    f = font(14, True)
    labelled = False
    for t0, t1, move in segments:
        a, b = xat(t0), max(xat(t1), xat(t0) + 2)
        seg = pygame.Rect(a, lane.y, b - a, lane.height)
        pygame.draw.rect(surface, colours.get(move, pal.muted), seg)
        labelled = seg.width >= f.size(move)[0] + px(6)
        if labelled:
            blit(surface, move, f, (18, 22, 30), seg.center, anchor="center")
    for p in points[:-1] if e.running is False else points:  # a tick at each report (iteration, 1024 simulations)
        tx = xat(p.elapsed_s)
        pygame.draw.line(surface, pal.text, (tx, lane.bottom - px(5)), (tx, lane.bottom - 1))
    if points and not e.running:  # the answer: a bar at the end of the lane
        ex = xat(end)
        pygame.draw.rect(surface, pal.text, pygame.Rect(ex - 1, lane.y - px(3), px(3), lane.height + px(6)))
        if not segments or not labelled:  # the last choice's stretch is too short to hold its name: beside it
            move = points[-1].move
            room_right = lane.right - ex - px(8)
            if f.size(move)[0] <= room_right:
                blit(surface, move, f, colours.get(move, pal.text), (ex + px(8), lane.centery), anchor="midleft")
            else:  # inside the lane, on a dark chip so it reads over any segment
                img = f.render(move, True, colours.get(move, pal.text))
                box = img.get_rect(midright=(ex - px(8), lane.centery))
                pygame.draw.rect(surface, pal.background, box.inflate(px(8), px(2)), border_radius=px(3))
                surface.blit(img, box)
    if e.running:
        blit(surface, "searching...", small, pal.muted, (xat(end) + px(6), lane.centery), anchor="midleft")


def log_ticks(lo: float, hi: float) -> list[float]:
    """Powers of ten from ``lo`` to ``hi`` (both powers of ten) for a logarithmic axis."""
    out = []
    v = lo
    while v <= hi * 1.0001:
        out.append(v)
        v *= 10
    return out


def draw_bars(surface: pygame.Surface, rect: pygame.Rect, race: Race) -> None:
    """"Nodes visited": one bar per agent on a logarithmic axis labelled with real numbers; each bar labelled
    with its count (``mcts``: tree nodes and simulations)."""
    pal = projector.palette()
    px = projector.px
    head_f, f, small = font(16, True), font(14), font(12)
    blit(surface, "Nodes visited", head_f, pal.text, (rect.x, rect.y))
    blit(surface, "log scale", small, pal.muted, (rect.right, rect.y + head_f.get_linesize() - small.get_linesize()),
         anchor="topright")
    top = rect.y + head_f.get_linesize() + px(6)
    axis_h = small.get_linesize() + px(8)
    n = max(1, len(race.specs))
    row_h = min(px(72), (rect.bottom - top - axis_h) // n)
    counts = [e.nodes for e in race.entries if e.ok and e.nodes]
    hi_v = max(counts, default=10)
    lo_v = min(counts, default=1)
    lo = 10.0 ** math.floor(math.log10(lo_v))
    if lo_v / lo < 2 and lo > 1:
        lo /= 10
    hi = 10.0 ** math.ceil(math.log10(max(hi_v, lo * 10)))
    x0, x1 = rect.x, rect.right - px(4)

    def xat(v: float) -> int:
        return x0 + round((x1 - x0) * math.log10(max(v, lo) / lo) / math.log10(hi / lo))

    bottom = top + n * row_h
    ticks = log_ticks(lo, hi)
    for k, v in enumerate(ticks):
        tx = xat(v)
        pygame.draw.line(surface, GRID, (tx, top), (tx, bottom))
        anchor = "topleft" if k == 0 else ("topright" if k == len(ticks) - 1 else "midtop")
        blit(surface, f"{int(v):,}", small, pal.muted, (tx, bottom + px(3)), anchor=anchor)
    bar_h = max(px(8), min(px(22), row_h - f.get_linesize() - px(12)))
    for i, spec in enumerate(race.specs):
        ry = top + i * row_h
        e = race.entries[i] if i < len(race.entries) else None
        name = lane_label(spec)[0]
        if e is None or not e.ok:
            why = "—" if e is None or e.error is None else "cannot run"
            blit(surface, fit(f"{i + 1}. {name}: {why}", f, rect.width), f, pal.muted, (x0, ry + px(2)))
            continue
        blit(surface, fit(f"{i + 1}. {name}: {nodes_text(e)}", f, rect.width), f, pal.text, (x0, ry + px(2)))
        if e.nodes:
            bar = pygame.Rect(x0, ry + px(2) + f.get_linesize() + px(2), max(2, xat(e.nodes) - x0), bar_h)
            pygame.draw.rect(surface, BAR, bar, border_radius=px(3))
