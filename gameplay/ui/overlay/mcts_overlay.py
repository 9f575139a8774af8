"""The Monte Carlo tree search overlay: the tree of visit counts an MCTS decision grew, simulation by simulation.

What it shows (issue 13, "its overlay"), all read from the search's own record
(:class:`ai.teaching.mcts_record.MCTSTrace`, replayed exactly: after step ``k`` every number is what the search held
after its ``k``-th simulation):

* the top of the tree: the root, its children, and below the most visited ones (and along the current
  simulation's path) their most visited children; each node with its visit count ``N``, its mean value ``Q``
  (from the view of the player who moved into it) and the UCB1 score its parent's selection reads
  (``Q + c sqrt(ln N_parent / N)``; chance outcomes show their probability instead: they are sampled);
* the move the search would play at that moment (the search's own rule, :mod:`ai.kernel.mcts_choice`: a move that wins
  at once, else a proven win, else the most visited root child) in a gold frame; the current
  simulation's path in colour, its expanded node marked "new";
* a side panel: the simulation number, the tree's size, and every root child's ``N`` as a bar, ``Q`` and UCB1:
  the visit counts concentrating is the picture of MCTS;
* the narration sentence of the current simulation ("simulation 37: selected 4 -> 0 by UCB, expanded 8, random
  playout (3 plies): X wins, +1 for X backed up");
* step-through by simulation (the same keys and buttons as the minimax overlay: Page Down / Page Up, arrows, Space,
  Home, End, ``[`` ``]``), the presenter view (P: bigger text), export of the trace as ``.txt``, ``.json``,
  ``.dot``, ``.svg`` and ``.png`` (E).

It offers the same methods as :class:`gameplay.ui.overlay.overlay.TreeOverlay` that the scenes call, so
:class:`gameplay.ui.overlay.overlay_switch.OverlaySwitch` shows whichever the last decision needs.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pygame

from ai.teaching.mcts_record import MCTSTrace, Stats
from gameplay.pictures.mcts_picture import export_mcts, node_lines, rows, shown_nodes
from gameplay.pictures.tree_png import ensure_fonts, safe_text
from gameplay.ui.overlay.overlay_draw import (
    chrome,
    screen_font,
    ui_font,
    wrap,
)
from gameplay.ui.overlay.overlay_shown import NoTreeText
from gameplay.ui.overlay.stepper import SteppedView, Stepper
from gameplay.ui.widgets import projector

GOLD = (230, 159, 0)
"""The move the search would play (:meth:`ai.teaching.mcts_record.MCTSTrace.most_visited`)."""
MOVER = ((0, 114, 178), (213, 94, 0))
"""Node outline by the player who moved into it (Okabe-Ito blue / vermillion)."""
CHANCE_INK = (0, 158, 115)
MIN_NODE_PX = 16.0
"""Smallest node text in screen pixels (fewer nodes are drawn a level rather than smaller text)."""


@dataclass(frozen=True)
class MCTSInfo:
    """The words around one recorded MCTS decision."""

    title: str
    """``X played 4 by Monte Carlo tree search``."""
    stem: str
    """File name stem of exports (``mcts-tictactoe``)."""


def mcts_info(game: Any, trace: MCTSTrace, *, player_name: str, move_text: str) -> MCTSInfo:
    """The header of a decision ``player_name`` played as ``move_text``."""
    who = f"Player {player_name}" if player_name.isdigit() else player_name
    return MCTSInfo(f"{who} played {move_text} by Monte Carlo tree search",
                    f"{trace.algorithm}-{getattr(game, 'name', 'tree')}")


class MCTSOverlay(SteppedView):
    """Draws an :class:`~ai.teaching.mcts_record.MCTSTrace` into a rectangle with its step-through (see the module).

    Args:
        closable: show the Close button (the match overlay).
        export_dir: folder the Export button writes to (default: the tree exports' folder).
        on_presenter: called with True / False when the presenter view opens / closes.
    """

    def __init__(self, *, closable: bool = True, export_dir: str | Path | None = None,
                 on_presenter: Callable[[bool], None] | None = None, picture_only: bool = False) -> None:
        self._visible = False
        self._closable = closable
        self._export_dir = Path(export_dir) if export_dir is not None else None
        self._on_presenter = on_presenter
        self._tree: MCTSTrace | None = None
        self._info: MCTSInfo | None = None
        self._no_tree_message: NoTreeText | None = None
        self._rect = pygame.Rect(0, 0, 0, 0)
        self._presenter = False
        self.stepper = Stepper()
        self._message = ""
        self._selected_id: int | None = None
        self._font_size = 18.0
        self._buttons: list[tuple[str, pygame.Rect]] = []
        self._hits: list[tuple[pygame.Rect, int]] = []
        self._mouse: tuple[int, int] = (0, 0)
        self._picture_only = picture_only

    # -- read ------------------------------------------------------------------------------------------------------
    @property
    def closable(self) -> bool:
        """The bar has a Close button (the match overlay)."""
        return self._closable

    @property
    def export_dir(self) -> Path | None:
        """Folder the Export button writes to (``None``: the tree exports' folder)."""
        return self._export_dir

    @property
    def on_presenter(self) -> Callable[[bool], None] | None:
        """Called with True / False when the presenter view opens / closes."""
        return self._on_presenter

    @property
    def tree(self) -> MCTSTrace | None:
        """The trace shown, or ``None``."""
        return self._tree

    @property
    def info(self) -> MCTSInfo | None:
        """The words around the trace, or ``None``."""
        return self._info

    @property
    def no_tree_message(self) -> NoTreeText | None:
        """What the header says without a tree (``None``: "No AI decision yet")."""
        return self._no_tree_message

    @property
    def rect(self) -> pygame.Rect:
        """Where it is drawn, window pixels (a copy)."""
        return pygame.Rect(self._rect)

    @property
    def message(self) -> str:
        """The line under the buttons (where the export went)."""
        return self._message

    @property
    def selected_id(self) -> int | None:
        """The Tree Lab's selection (not drawn here)."""
        return self._selected_id

    @property
    def font_size(self) -> float:
        """The scene's tree text size (the MCTS picture sizes its own text)."""
        return self._font_size

    @property
    def lay(self) -> None:
        """No layout: the MCTS picture places its own boxes."""
        return None

    @property
    def buttons(self) -> list[tuple[str, pygame.Rect]]:
        """``(name, window rectangle)`` of the bar's buttons, as last drawn."""
        return list(self._buttons)

    @property
    def hits(self) -> list[tuple[pygame.Rect, int]]:
        """``(window rectangle, node id)`` of the nodes drawn."""
        return list(self._hits)

    @property
    def mouse(self) -> tuple[int, int]:
        """The pointer, window pixels."""
        return self._mouse

    @property
    def picture_only(self) -> bool:
        """Draw no buttons and no key hints (an exported picture)."""
        return self._picture_only

    def set_font_size(self, size: float) -> None:
        """The scene's tree text size (kept; the MCTS picture sizes its own text)."""
        self._font_size = size

    def select(self, node_id: int | None) -> None:
        """The Tree Lab's selection (kept; not drawn here)."""
        self._selected_id = node_id

    def say(self, message: str) -> None:
        """Show ``message`` on the line under the buttons."""
        self._message = message

    def _place(self, rect: pygame.Rect) -> None:
        self._rect = pygame.Rect(rect)

    # -- the interface the scenes use ---------------------------------------------------------------------------
    def set_rect(self, rect: pygame.Rect) -> None:
        """Place the overlay (on enter and resize)."""
        self._rect = pygame.Rect(rect)

    def set_tree(self, tree: MCTSTrace, info: MCTSInfo, *, keep_view: bool = False) -> None:
        """Show ``tree`` (the finished search first)."""
        self._tree, self._info, self._no_tree_message = tree, info, None
        self.stepper.reset(cast(Any, tree.simulations))

    def clear(self, message: NoTreeText | None = None) -> None:
        """Show no tree and hide (a new game, everything undone)."""
        self._tree, self._info, self._no_tree_message = None, None, message
        self.stepper.reset(())
        self.hide()

    def close(self) -> None:
        """Nothing runs in the background here."""

    def resume(self) -> None:
        """Nothing to resume (no background count)."""

    def set_presenter(self, on: bool) -> None:
        """Open or close the presenter view (bigger text; the scene gives it the whole window)."""
        if on == self._presenter:
            return
        self._presenter = on
        if on and not self._visible:
            self.show()
        if self._on_presenter is not None:
            self._on_presenter(on)

    # -- what is shown -------------------------------------------------------------------------------------------
    def shown_simulations(self) -> int | None:
        """Simulations replayed in the current view (``None``: the finished search's own figures)."""
        return None if self.step is None else self.step + 1

    def stats(self) -> Stats:
        """``(N, W, proven)`` per node in the current view."""
        assert self.tree is not None
        return self.tree.stats_at(self.shown_simulations())

    def sentence(self) -> str:
        """The narration line of the current view."""
        if self.tree is None:
            return ""
        k = self.shown_simulations()
        if k is None:
            hint = "" if self.picture_only else " Page Down steps through the simulations."
            return "The finished search: " + self.tree.summary() + "." + hint
        return self.tree.narrate(k)

    def header(self) -> tuple[str, str]:
        """The header's two lines: at a step, which simulation, its phases and the counts after it
        (:meth:`ai.teaching.mcts_record.MCTSTrace.step_header`); at the end, the decision and the finished search's
        summary. ``("", "")`` without a tree."""
        if self.tree is None or self.info is None:
            return "", ""
        k = self.shown_simulations()
        if k is None or k < 1:
            return self.info.title, self.tree.summary()
        return self.tree.step_header(k)

    def visible_nodes(self, stats: Stats, max_row: int | None = None) -> list[int]:
        """Node ids drawn (:func:`gameplay.pictures.mcts_picture.shown_nodes` at the current step, at most ``max_row`` a
        level)."""
        assert self.tree is not None
        return shown_nodes(self.tree, stats, self.shown_simulations(), max_row)

    def node_fonts(self) -> tuple[pygame.font.Font, pygame.font.Font]:
        """Regular and bold node text: the interface's 15 px (scaled) but never under :data:`MIN_NODE_PX` screen
        pixels, half as big again in the presenter view (fewer nodes a level are drawn rather than smaller text)."""
        grow = 1.5 if self.presenter else 1.0
        scaled, floor = ui_font(15 * grow), screen_font(MIN_NODE_PX * grow)
        if floor.get_height() > scaled.get_height():
            return floor, screen_font(MIN_NODE_PX * grow, bold=True)
        return scaled, ui_font(15 * grow, bold=True)

    # -- export --------------------------------------------------------------------------------------------------
    def export(self, folder: str | Path | None = None) -> list[Path]:
        """Write the trace as ``.txt`` (summary, root children, one sentence per simulation), ``.json``, ``.dot``,
        ``.svg`` and ``.png`` (:func:`gameplay.pictures.mcts_picture.export_mcts`) and say where in :attr:`message`."""
        if self.tree is None or self.info is None:
            self._message = "Nothing to export yet"
            return []
        from gameplay.pictures.tree_export import default_export_dir
        from gameplay.rules.base import GameError
        d = Path(folder) if folder is not None else (self.export_dir or default_export_dir())
        stem = f"{self.info.stem}-{time.strftime('%Y%m%d-%H%M%S')}"
        files = [d / f"{stem}{suffix}" for suffix in (".txt", ".json", ".dot", ".svg", ".png")]
        try:
            d.mkdir(parents=True, exist_ok=True)
            for f in files:
                export_mcts(self.tree, f, self.info.title, png=render_png)
        except (OSError, GameError) as e:
            self._message = f"Export failed: {getattr(e, 'strerror', None) or e}"
            return []
        self._message = f"Saved {stem}.txt/.json/.dot/.svg/.png in {d}"
        return files

    # -- events --------------------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        """Keys and clicks while visible (see the module docstring). Returns True when the event was used."""
        if not self.visible or self.tree is None:
            return False
        if event.type == pygame.KEYDOWN:
            return self.stepper.key(event) or self.view_key(event)
        if event.type == pygame.MOUSEMOTION:
            self._mouse = event.pos
            return bool(self.rect.collidepoint(event.pos))
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if not self.rect.collidepoint(event.pos):
                return False
            for name, r in self._buttons:
                if r.collidepoint(event.pos):
                    self.press(name)
                    return True
            for r, nid in self._hits:
                if r.collidepoint(event.pos):
                    self._jump_to_node(nid)
                    return True
            return True
        return event.type in (pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL) and self.rect.collidepoint(self.mouse)

    def _jump_to_node(self, nid: int) -> None:
        """A click on a node: go to the simulation that expanded it (the finished view for the root)."""
        assert self.tree is not None
        created = self.tree.nodes[nid].created
        if created > 0:
            self.stepper.go_to(created - 1)

    def press(self, name: str) -> None:
        """Act as the bar's button ``name`` does."""
        def by_hand(step: Callable[[], None]) -> Callable[[], None]:
            def go() -> None:
                self.pause()  # a step by hand stops the play
                step()
            return go

        actions: dict[str, Callable[[], Any]] = {
            "first": self.first_step, "prev": by_hand(self.prev_step),
            "play": self.toggle_play, "next": by_hand(self.next_step),
            "end": self.finish, "speed": self.stepper.cycle_speed, "export": self.export,
            "presenter": self.toggle_presenter, "close": self.hide}
        fn = actions.get(name)
        if fn is not None:
            fn()

    # -- drawing -------------------------------------------------------------------------------------------------
    def _px(self, size: float) -> float:
        return size * (1.5 if self.presenter else 1.0)

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the overlay (when visible) into :attr:`rect` of ``surface``."""
        if not self.visible or self.rect.width <= 0:
            return
        ensure_fonts()
        r = self.rect
        pygame.draw.rect(surface, chrome().bg, r)
        title_f, body_f = ui_font(self._px(22), bold=True), ui_font(self._px(17))
        y = r.y + 8
        if self.tree is None or self.info is None:
            said = self.no_tree_message or NoTreeText("No AI decision yet")
            y = self._lines(surface, [said.title], title_f, chrome().ink, r.x + 12, y, r.width - 24)
            if said.lines:
                y = self._lines(surface, list(said.lines), body_f, chrome().ink, r.x + 12, y + 4, r.width - 24)
            self._lines(surface, list(said.notes), body_f, chrome().muted, r.x + 12, y + 4, r.width - 24)
            self._draw_bar(surface, body_f)
            pygame.draw.rect(surface, chrome().ink, r, 2)
            return
        title, line = self.header()
        y = self._lines(surface, [title], title_f, chrome().ink, r.x + 12, y, r.width - 24)
        y = self._lines(surface, [line], body_f, chrome().muted, r.x + 12, y + 2, r.width - 24) + 6
        bar_top = self._draw_bar(surface, body_f)
        narr = wrap(safe_text(self.sentence()), ui_font(self._px(18)), r.width - 24)[:3]
        nh = len(narr) * ui_font(self._px(18)).get_height() + 10
        side_w = int(min(projector.px(380), max(projector.px(260), r.width * 0.3)))
        stats = self.stats()
        canvas = pygame.Rect(r.x, y, r.width - side_w, bar_top - nh - y)
        side = pygame.Rect(canvas.right, y, side_w, canvas.height)
        self._draw_tree(surface, canvas, stats)
        self._draw_side(surface, side, stats)
        ny = bar_top - nh + 4
        for line in narr:
            surface.blit(ui_font(self._px(18)).render(line, True, chrome().ink), (r.x + 12, ny))
            ny += ui_font(self._px(18)).get_height()
        pygame.draw.rect(surface, chrome().ink, r, 2)

    def _lines(self, surface: pygame.Surface, texts: list[str], font: pygame.font.Font, colour: tuple[int, ...],
               x: int, y: int, width: int) -> int:
        for t in texts:
            for line in wrap(safe_text(t), font, width):
                surface.blit(font.render(line, True, colour), (x, y))
                y += font.get_height()
        return y

    def _rows(self, ids: list[int]) -> list[list[int]]:
        assert self.tree is not None
        return rows(self.tree, ids)

    def box_lines(self, stats: Stats, i: int) -> list[str]:
        assert self.tree is not None
        return node_lines(self.tree, stats, i)

    def _draw_tree(self, surface: pygame.Surface, area: pygame.Rect, stats: Stats) -> None:
        t = self.tree
        assert t is not None
        self._hits = []
        f, fb = self.node_fonts()
        line_h = f.get_height()
        col_need = f.size("UCB -0.888")[0] + 24  # the widest usual line, the frame and a gap
        ids = self.visible_nodes(stats, max(1, area.width // col_need))
        rows = self._rows(ids)
        col_w = area.width / max(len(r) for r in rows)
        texts = {i: self.box_lines(stats, i) for i in ids}
        widths = {i: max(f.size(safe_text(x))[0] for x in texts[i]) + 16 for i in ids}
        box_w = min(int(col_w) - 8, max(w for i, w in widths.items() if i != 0) if len(ids) > 1 else widths[0])
        widths = {i: (widths[0] if i == 0 else box_w) for i in ids}
        box_h = 3 * line_h + 12
        gap = max(box_h + 2 * line_h, int((area.height - 20 - line_h) / max(1, len(rows))))
        k = self.shown_simulations()
        path: tuple[int, ...] = tuple(t.simulations[k - 1].path) if k else ()
        new = path[-1] if k and t.simulations[k - 1].expanded else None
        best = t.most_visited(stats)
        where: dict[int, tuple[int, int]] = {}
        for d, row in enumerate(rows):
            for j, i in enumerate(row):
                where[i] = (int(area.x + (j + 0.5) * area.width / len(row)), int(area.y + 10 + line_h + d * gap
                                                                                 + box_h / 2))

        def centre(i: int) -> tuple[int, int]:
            return where[i]

        pos = where
        for i in ids:  # edges first, with the move on each
            nd = t.nodes[i]
            if nd.parent is None or nd.parent not in pos:
                continue
            a, b = centre(nd.parent), centre(i)
            on_path = i in path and nd.parent in path
            pygame.draw.line(surface, chrome().path if on_path else chrome().rule, (a[0], a[1] + box_h // 2),
                             (b[0], b[1] - box_h // 2), 4 if on_path else 2)
            ink = CHANCE_INK if t.nodes[nd.parent].kind == "chance" else chrome().ink
            label = fb.render(safe_text(nd.move or ""), True, ink)
            surface.blit(label, (b[0] - label.get_width() // 2, b[1] - box_h // 2 - line_h - 1))
        for i in ids:
            nd = t.nodes[i]
            cx, cy = centre(i)
            box = pygame.Rect(cx - widths[i] // 2, cy - box_h // 2, widths[i], box_h)
            fill = chrome().panel_bg if nd.kind != "chance" else (225, 245, 238)
            pygame.draw.rect(surface, fill, box, border_radius=6)
            lines = texts[i]
            for j, s in enumerate(lines):
                img = f.render(safe_text(s), True, chrome().ink)
                surface.blit(img, (cx - img.get_width() // 2, box.y + 6 + j * line_h))
            colour = MOVER[nd.player % 2] if nd.kind != "chance" else CHANCE_INK
            pygame.draw.rect(surface, colour, box, 2, border_radius=6)
            if i == best and nd.parent == 0:  # the move it would play: a gold frame around the box, off the text
                pygame.draw.rect(surface, GOLD, box.inflate(8, 8), 4, border_radius=8)
            if i in path:
                pygame.draw.rect(surface, chrome().path, box.inflate(16, 16), 3, border_radius=10)
            if i == new:
                tag = fb.render("new", True, chrome().path)
                surface.blit(tag, (box.right - tag.get_width(), box.bottom + 2))
            self._hits.append((box, i))
        hidden = sum(1 for c in t.children(0) if c not in pos and (k is None or t.nodes[c].created <= k))
        if hidden:
            note = f.render(f"+{hidden} more root children (in the panel)", True, chrome().muted)
            surface.blit(note, (area.x + 8, area.bottom - line_h - 2))

    def _draw_side(self, surface: pygame.Surface, area: pygame.Rect, stats: Stats) -> None:
        t = self.tree
        assert t is not None
        pygame.draw.rect(surface, chrome().panel_bg, area)
        f, fb = self.node_fonts()
        lh = f.get_height()
        x, y, w = area.x + 8, area.y + 6, area.width - 16
        k = self.shown_simulations()
        total = len(t.simulations)
        made = sum(1 for nd in t.nodes if k is None or nd.created <= k)
        head = (f"Simulation {k:,} of {total:,}" if k is not None
                else f"Finished: {t.total_simulations:,} simulations")
        y = self._lines(surface, [head], fb, chrome().ink, x, y, w)
        y = self._lines(surface, [f"Tree nodes: {made if k is not None else t.total_nodes:,}",
                                  f"c = {t.c:g}, playout {t.playout}"], f, chrome().muted, x, y, w) + 6
        y = self._lines(surface, ["Root children: N (bar), Q, UCB1"], fb, chrome().ink, x, y, w) + 2
        legend = (f"Q is the mean value for the player who moved into the node: blue frame {t.side_name(0)}, "
                  f"orange {t.side_name(1)}" + ("; green: a chance outcome (sampled, p)" if any(
                      nd.kind == "chance" for nd in t.nodes) else "") + ". Gold: the move it would play now.")
        legend_lines = wrap(safe_text(legend), f, w)
        bottom = area.bottom - len(legend_lines) * lh - 4
        self._lines(surface, [legend], f, chrome().muted, x, bottom, w)
        kids = [c for c in t.children(0) if k is None or t.nodes[c].created <= k]
        best = t.most_visited(stats)
        top_n = max([stats[0][c] for c in kids] or [1]) or 1
        cells: list[tuple[int, str, str, str, str]] = []
        for c in kids:
            u = t.ucb(stats, c)
            extra = (f"p {t.nodes[c].probability:.2g}" if t.nodes[c].probability is not None
                     else ("inf" if u is None or math.isinf(u) else f"{u:.2f}"))
            cells.append((c, safe_text(t.nodes[c].move or ""), f"{stats[0][c]:,}", _signed(t.q(stats, c)), extra))
        gap = max(6, lh // 3)
        widths = [max([f.size(str(row[j]))[0] for row in cells] or [0]) for j in range(1, 5)]
        num_w = widths[1] + widths[2] + widths[3] + 3 * gap
        bar_w = max(12, w - widths[0] - gap - num_w)
        for c, move, n_txt, q_txt, u_txt in cells:
            if y + lh > bottom - 4:
                break
            surface.blit(f.render(move, True, chrome().ink), (x, y))
            bx = x + widths[0] + gap
            pygame.draw.rect(surface, GOLD if c == best else chrome().button_on,
                             (bx, y + 3, max(1, int(bar_w * stats[0][c] / top_n)), lh - 6))
            rx = bx + bar_w + gap
            for txt, cw in ((n_txt, widths[1]), (q_txt, widths[2]), (u_txt, widths[3])):
                img = f.render(txt, True, chrome().ink)
                surface.blit(img, (rx + cw - img.get_width(), y))  # right-aligned in its column
                rx += cw + gap
            y += lh

    def _draw_bar(self, surface: pygame.Surface, font: pygame.font.Font) -> int:
        """The buttons at the bottom; returns their top."""
        r = self.rect
        if self._picture_only:
            self._buttons = []
            return r.bottom - 4
        specs = [("first", "|<"), ("prev", "<"), ("play", "Pause" if self.playing else "Play"), ("next", ">"),
                 ("end", ">|"), ("speed", f"{self.stepper.speed:g}/s"), ("export", "Export"),
                 ("presenter", "Exit presenter (P)" if self.presenter else "Presenter (P)")]
        if self.closable:
            specs.append(("close", "Close"))
        h = font.get_height() + 10
        msg_h = font.get_height() + 4 if self.message else 0
        top = r.bottom - h - 8 - msg_h
        x = r.x + 8
        self._buttons = []
        for name, label in specs:
            img = font.render(label, True, chrome().ink)
            b = pygame.Rect(x, top, img.get_width() + 18, h)
            if b.right > r.right - 8:
                break
            pygame.draw.rect(surface, chrome().button_bg, b, border_radius=4)
            surface.blit(img, (b.x + 9, b.y + 5))
            self._buttons.append((name, b))
            x = b.right + 6
        if self.message:
            surface.blit(font.render(safe_text(self.message), True, chrome().muted), (r.x + 8, top + h + 2))
        return top - 4


def _signed(v: float) -> str:
    if v == 0:
        return "0"
    return f"{v:+.2f}"


def render_png(trace: MCTSTrace, title: str, path: Path, size: tuple[int, int] = (1280, 800)) -> None:
    """Draw the finished search as the overlay shows it (no buttons' actions) into a ``size`` PNG at ``path``.

    Raises:
        OSError: the file cannot be written.
    """
    if not pygame.font.get_init():
        pygame.font.init()
    ov = MCTSOverlay(closable=False, picture_only=True)
    ov.set_tree(trace, MCTSInfo(title or "Monte Carlo tree search", "mcts"))
    ov.set_rect(pygame.Rect((0, 0), size))
    ov.show()
    surface = pygame.Surface(size)
    ov.draw(surface)
    try:
        pygame.image.save(surface, str(path))
    except pygame.error as e:
        raise OSError(str(e)) from None
