"""Drawing one side of a checked case: the case's tree with a search's steps up to a step index (issue 26).

Used twice side by side by :mod:`gameplay.ui.scenes.check_scene` (the student's search and the reference's on the same
tree). The tree is laid out with its leaves evenly spaced (a parent centred over its children, a level per depth);
MAX nodes are up-pointing triangles, MIN nodes down-pointing, chance nodes circles (their probabilities on their
edges), leaves squares with their values. Nodes entered up to the step shown are bright (the leaves evaluated
numbered in their order under them), the rest dim; the node of the current step has a yellow ring; the subtrees
the search left out are crossed; the node where the two searches part has a red ring.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from ai.grader.exercise_trace import Path, Trace
from ai.kernel.numbers import number_text
from ai.teaching.tree_names import lab_path_names
from gameplay.rules.trees import TreeNode
from gameplay.ui.widgets import projector

RGB = tuple[int, int, int]
DIFF: RGB = (255, 90, 90)
"""The ring of the first difference (the panel's error red)."""
EDGE_DIM: RGB = (60, 68, 92)
MAX_DRAWN_LEAVES = 250
"""Most leaves drawn; a bigger tree (a game position's) is described in words only."""
font = projector.scaled_ui_font


@dataclass(frozen=True)
class Placed:
    """A node's place on the canvas."""

    node: TreeNode
    path: Path
    x: float
    y: float


def leaf_count(n: TreeNode) -> int:
    """Leaves under ``n`` (1 for a leaf)."""
    return 1 if not n.children else sum(leaf_count(c) for c in n.children)


def place_tree(root: TreeNode, rect: pygame.Rect) -> dict[Path, Placed]:
    """Every node's centre in ``rect`` (pixels), by path."""
    out: dict[Path, Placed] = {}
    total = max(1, leaf_count(root))

    def depth(n: TreeNode) -> int:
        return 0 if not n.children else 1 + max(depth(c) for c in n.children)

    levels = max(1, depth(root))
    dx = rect.width / total
    dy = rect.height / levels
    nxt = [0]

    def walk(n: TreeNode, path: Path, d: int) -> float:
        if not n.children:
            x = rect.left + dx * (nxt[0] + 0.5)
            nxt[0] += 1
        else:
            xs = [walk(c, path + (i,), d + 1) for i, c in enumerate(n.children)]
            x = (xs[0] + xs[-1]) / 2
        out[path] = Placed(n, path, x, rect.top + dy * d if levels else rect.top)
        return x

    walk(root, (), 0)
    return out


def draw_trace(surface: pygame.Surface, rect: pygame.Rect, root: TreeNode, trace: Trace, upto: int,
               mark: Path | None, title: str) -> None:
    """Draw ``root`` in ``rect`` with ``trace``'s first ``upto`` steps entered, ``mark`` (a node's path, or
    ``None``) ringed red, ``title`` above it."""
    pal = projector.palette()
    px = projector.px
    pygame.draw.rect(surface, pal.board, rect, border_radius=px(6))
    tf = font(16, True)
    title_img = tf.render(title, True, pal.text)
    surface.blit(title_img, (rect.left + px(10), rect.top + px(6)))
    leaves = leaf_count(root)
    inner = rect.inflate(-px(24), 0)
    inner.top = rect.top + title_img.get_height() + px(20)
    inner.height = rect.bottom - px(48) - inner.top
    if leaves > MAX_DRAWN_LEAVES or inner.width < 40 or inner.height < 20:
        f = font(14)
        img = f.render(f"{leaves:,} leaves: too many to draw here", True, pal.muted)
        surface.blit(img, img.get_rect(center=rect.center))
        return
    places = place_tree(root, inner)
    r = max(3.0, min(px(13), inner.width / leaves * 0.38))
    entered: dict[Path, int] = {}
    order: dict[Path, list[int]] = {}
    k = 0
    for i, s in enumerate(trace.steps[:upto]):
        entered.setdefault(s.path, i)
        if s.leaf:
            k += 1
            order.setdefault(s.path, []).append(k)
    current = trace.steps[upto - 1].path if 0 < upto <= len(trace.steps) else None
    entered[()] = -1
    cut = set(trace.pruned)
    lw = max(1, round(r / 6)) * pal.line_width
    for p, pl in places.items():  # the edges first
        if p:
            par = places[p[:-1]]
            on = p in entered
            pygame.draw.line(surface, pal.text if on else EDGE_DIM, (par.x, par.y), (pl.x, pl.y), lw)
            if p in cut:
                mx, my = (par.x + pl.x) / 2, (par.y + pl.y) / 2
                half = r * 0.6  # the cross's half width
                for sx in (-1, 1):
                    pygame.draw.line(surface, pal.muted, (mx - half, my - half * sx), (mx + half, my + half * sx),
                                     lw + 1)
    vf = font(max(9, min(15, int(r * 1.1 / max(1.0, projector.scale())))))
    for p, pl in places.items():  # a chance node's probabilities on its edges
        probs = pl.node.probs
        if probs is not None and r >= 6:
            for i, q in enumerate(probs):
                ch = places[p + (i,)]
                img = vf.render(number_text(round(q, 3)), True, pal.muted)
                surface.blit(img, img.get_rect(center=((pl.x + 2 * ch.x) / 3 + r, (pl.y + 2 * ch.y) / 3)))
    of = font(max(9, min(13, int(r / max(1.0, projector.scale())))), True)
    nf = font(max(10, min(16, int(r * 1.2 / max(1.0, projector.scale())))), True)
    letters = lab_path_names(None, root) if r >= 6 else {}  # the letters the sentences name (A, B, C ...)
    for p, pl in places.items():
        n = pl.node
        on = p in entered
        fill = (pal.players[0] if n.player == 0 else pal.players[1]) if on else pal.tile
        edge = pal.text if on else EDGE_DIM
        c = (pl.x, pl.y)
        if n.value is not None:
            box = pygame.Rect(0, 0, 2 * r, 2 * r)
            box.center = (round(pl.x), round(pl.y))
            pygame.draw.rect(surface, pal.tile_last if on else pal.tile, box)
            pygame.draw.rect(surface, edge, box, lw)
            img = vf.render(number_text(n.value), True, pal.text if on else pal.muted)
            if img.get_width() <= 2.6 * r:
                surface.blit(img, img.get_rect(center=box.center))
            if p in order:
                lab = of.render(",".join(str(x) for x in order[p]), True, pal.accent)
                surface.blit(lab, lab.get_rect(midtop=(box.centerx, box.bottom + 11)))
        elif n.probs is not None:
            pygame.draw.circle(surface, pal.tile_last if on else pal.tile, c, r)
            pygame.draw.circle(surface, edge, c, r, lw)
        else:
            up = n.player == 0
            pts = ([(pl.x, pl.y - r), (pl.x - r, pl.y + r * 0.8), (pl.x + r, pl.y + r * 0.8)] if up else
                   [(pl.x, pl.y + r), (pl.x - r, pl.y - r * 0.8), (pl.x + r, pl.y - r * 0.8)])
            pygame.draw.polygon(surface, fill, pts)
            pygame.draw.polygon(surface, edge, pts, lw)
        name = letters.get(p, "") if n.value is None else ""
        if name:
            img = nf.render(name, True, pal.text if on else pal.muted)
            surface.blit(img, img.get_rect(midright=(round(pl.x - r - 3), round(pl.y))))
        if p == current:
            pygame.draw.circle(surface, pal.accent, c, r + 4, max(2, lw + 1))
        if p == mark:
            pygame.draw.circle(surface, DIFF, c, r + 9, max(3, lw + 2))
