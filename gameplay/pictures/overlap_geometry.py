"""Whether boxes, node shapes and the best line's band meet (no pygame): the geometry of the picture's overlap
checks (:mod:`gameplay.pictures.label_check`) and of the labels kept clear of the best line
(:func:`gameplay.pictures.picture_build.edge_layer`). Boxes are ``(x, y, w, h)`` in picture pixels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from gameplay.pictures.tree_picture import Item

Box = tuple[float, float, float, float]
Point = tuple[float, float]
SLACK = 0.5
"""Pixels two boxes may share before they count as meeting (anti-aliased edges touch)."""


def boxes_meet(a: Box, b: Box, slack: float = SLACK) -> bool:
    """True when two boxes share more than ``slack`` pixels each way."""
    return (a[0] + slack < b[0] + b[2] and b[0] + slack < a[0] + a[2]
            and a[1] + slack < b[1] + b[3] and b[1] + slack < a[1] + a[3])


def _corners(box: Box, inset: float = 0.0) -> list[Point]:
    x, y, w, h = box
    return [(x + inset, y + inset), (x + w - inset, y + inset), (x + w - inset, y + h - inset),
            (x + inset, y + h - inset)]


def _convex_meet(p: Sequence[Point], q: Sequence[Point]) -> bool:
    """Separating-axis test of two convex polygons (points in order): True when their insides meet."""
    for poly in (p, q):
        for k, (x1, y1) in enumerate(poly):
            x2, y2 = poly[(k + 1) % len(poly)]
            nx, ny = y1 - y2, x2 - x1
            pa = [nx * x + ny * y for x, y in p]
            qa = [nx * x + ny * y for x, y in q]
            if max(pa) <= min(qa) or max(qa) <= min(pa):
                return False
    return True


def shape_meets(sh: Item, box: Box, slack: float = SLACK) -> bool:
    """True when ``box`` (less ``slack`` all round) meets the shape ``sh`` (a polygon, circle or rectangle)."""
    inner = _corners(box, slack)
    if box[2] <= 2 * slack or box[3] <= 2 * slack:
        return False
    if sh.op == "circle":
        (cx, cy), = sh.pts
        x0, y0 = inner[0]
        x1, y1 = inner[2]
        dx = max(x0 - cx, 0.0, cx - x1)
        dy = max(y0 - cy, 0.0, cy - y1)
        return math.hypot(dx, dy) < sh.r
    if sh.op == "rect":
        (x0, y0), (x1, y1) = sh.pts
        return boxes_meet(box, (x0, y0, x1 - x0, y1 - y0), slack)
    return _convex_meet(list(sh.pts), inner)


def shape_holds(sh: Item, box: Box) -> bool:
    """True when ``box`` lies wholly inside the shape ``sh``."""
    pts = _corners(box)
    if sh.op == "circle":
        (cx, cy), = sh.pts
        return all(math.hypot(x - cx, y - cy) <= sh.r for x, y in pts)
    if sh.op == "rect":
        (x0, y0), (x1, y1) = sh.pts
        return all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in pts)
    poly = list(sh.pts)
    area = sum(poly[k][0] * poly[(k + 1) % len(poly)][1] - poly[(k + 1) % len(poly)][0] * poly[k][1]
               for k in range(len(poly)))
    sign = 1.0 if area > 0 else -1.0
    for k, (x1, y1) in enumerate(poly):
        x2, y2 = poly[(k + 1) % len(poly)]
        for x, y in pts:
            if sign * ((x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)) < 0:
                return False
    return True


def band_meets(line: Item, box: Box, slack: float = SLACK) -> bool:
    """True when the band of ``line`` (its stroke width about the segment) meets ``box``."""
    (ax, ay), (bx, by) = line.pts
    length = math.hypot(bx - ax, by - ay)
    if length == 0:
        return False
    half = line.width / 2
    nx, ny = -(by - ay) / length * half, (bx - ax) / length * half
    if box[2] <= 2 * slack or box[3] <= 2 * slack:
        return False
    reach = abs(nx) + abs(ny)  # the band's bounding box first: most labels are nowhere near the line
    if (max(ax, bx) + reach <= box[0] + slack or min(ax, bx) - reach >= box[0] + box[2] - slack
            or max(ay, by) + reach <= box[1] + slack or min(ay, by) - reach >= box[1] + box[3] - slack):
        return False
    band = [(ax + nx, ay + ny), (bx + nx, by + ny), (bx - nx, by - ny), (ax - nx, ay - ny)]
    return _convex_meet(band, _corners(box, slack))
