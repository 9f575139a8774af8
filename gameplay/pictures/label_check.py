"""Whether a tree picture's labels keep clear of each other and of the shapes (no pygame): :func:`overlaps`.

Read from the display list alone (:class:`gameplay.pictures.tree_picture.Picture`: every item's
:attr:`~gameplay.pictures.tree_picture.Item.role` and :attr:`~gameplay.pictures.tree_picture.Picture.owners`), so a
test can walk every step of a tree at several screen sizes without drawing a pixel. :func:`overlaps` finds three
faults:

* ``label over label``: two labels' boxes meet (edge labels, values, the alpha-beta lines under the nodes, names, a
  placeholder's words);
* ``label over shape``: a label's box meets the outline of a node it does not belong to (a label over its own
  node, the words of a ``+N`` box inside it, is the drawing);
* ``value outside its shape``: a node's value runs over its own outline.

:func:`best_line_crossings` lists the labels the best line (drawn over the labels) crosses: the picture keeps it at
none (:func:`gameplay.pictures.picture_build.steep_drop`, :func:`gameplay.pictures.picture_build.clear_spot`) and
the projector walk counts them.

Boxes are picture pixels ``(x, y, w, h)``. A label drawn on a background rectangle is that rectangle; a text
without one is its measured width by its line height (a value: by its ink height,
:data:`gameplay.pictures.picture_style.CAP_HEIGHT`, as it is fitted into its shape).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gameplay.pictures.overlap_geometry import band_meets, boxes_meet, shape_holds, shape_meets
from gameplay.pictures.picture_style import CAP_HEIGHT
from gameplay.pictures.tree_picture import Item, Picture, item_box, text_width

Box = tuple[float, float, float, float]
Measure = Callable[[str, float, bool], float]
LABEL_ROLES = ("value", "note", "edge", "name", "marker")
"""The roles of :attr:`gameplay.pictures.tree_picture.Item.role` that are labels."""


@dataclass(frozen=True)
class Label:
    """One label of a picture: its owner (layout index), role, words and box (picture pixels)."""

    owner: int
    role: str
    text: str
    box: Box


@dataclass(frozen=True)
class Overlap:
    """A fault (see the module docstring): what, and the two parts (a label, and a label, shape or line)."""

    what: str
    label: Label
    other: Label

    def __str__(self) -> str:
        a, b = self.label, self.other
        return (f"{self.what}: {a.role} {a.text!r} of item {a.owner} and {b.role} {b.text!r} of item {b.owner} "
                f"at ({a.box[0]:.0f}, {a.box[1]:.0f})")


def labels(pic: Picture, measure: Measure = text_width) -> list[Label]:
    """Every label of ``pic`` with its box (see the module docstring). ``measure``: the renderer's ``(text, size,
    bold) -> width``, as the picture was built with."""
    out: list[Label] = []
    items = pic.items
    for k, it in enumerate(items):
        owner = pic.owners[k] if k < len(pic.owners) else -1
        if owner < 0 or it.role not in LABEL_ROLES:
            continue
        if it.op == "rect":  # a background: the text drawn on it is the next item
            words = items[k + 1].text if k + 1 < len(items) and items[k + 1].op == "text" else ""
            (x0, y0), (x1, y1) = it.pts
            out.append(Label(owner, it.role, words, (x0, y0, x1 - x0, y1 - y0)))
        elif it.op == "text":
            out.append(Label(owner, it.role, it.text, text_box(it, measure)))
    return out


def text_box(it: Item, measure: Measure = text_width) -> Box:
    """A text item's box: its width by its line height (its ink height for a value)."""
    (x, y), = it.pts
    w = measure(it.text, it.size, it.bold)
    h = it.size * (CAP_HEIGHT if it.role == "value" else 1.0)
    left = x - w / 2 if it.anchor == "middle" else x - w if it.anchor == "end" else x
    return left, y - h / 2, w, h


def overlaps(pic: Picture, measure: Measure = text_width) -> list[Overlap]:
    """Every fault of ``pic`` (see the module docstring), each pair once; ``[]`` when its labels keep clear."""
    found: list[Overlap] = []
    labs = labels(pic, measure)
    for i, a in enumerate(labs):
        for b in labs[i + 1:]:
            if boxes_meet(a.box, b.box):
                found.append(Overlap("label over label", a, b))
    shapes = [(pic.owners[k], it) for k, it in enumerate(pic.items)
              if k < len(pic.owners) and pic.owners[k] >= 0 and it.role == "shape"]
    for a in labs:
        for owner, sh in shapes:
            if owner != a.owner and shape_meets(sh, a.box):
                found.append(Overlap("label over shape", a, Label(owner, "shape", sh.op, _bounds(sh))))
        if a.role == "value":
            own = [sh for owner, sh in shapes if owner == a.owner]
            if own and not any(shape_holds(sh, a.box) for sh in own):
                found.append(Overlap("value outside its shape", a, Label(a.owner, "shape", own[0].op,
                                                                           _bounds(own[0]))))
    return found


def best_line_crossings(pic: Picture, measure: Measure = text_width) -> list[Overlap]:
    """The labels the best line crosses (it is drawn over them, so such a label is hidden): a flat line from a parent
    far across to its child passes over its siblings' edge labels unless the level under the parent is steep enough
    (:func:`gameplay.pictures.picture_build.steep_drop`) or the label moves out of its way
    (:func:`gameplay.pictures.picture_build.clear_spot`). Kept apart from :func:`overlaps`, which is about labels
    over labels and shapes."""
    labs = labels(pic, measure)
    best = [(pic.owners[k], it) for k, it in enumerate(pic.items)
            if k < len(pic.owners) and pic.owners[k] >= 0 and it.role == "best"]
    return [Overlap("label under the best line", a, Label(owner, "best", "", _bounds(line)))
            for owner, line in best for a in labs if band_meets(line, a.box)]


def _bounds(it: Item) -> Box:
    b = item_box(it)
    if b is not None:
        return b
    xs = [p[0] for p in it.pts]
    ys = [p[1] for p in it.pts]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)
