"""``main.py shot VIEW --size WxH ... --out FILE.png [--json]``: render one view of the window at a resolution to
PNG without a display (``../shared/CLI.md``), for slides and for checking what a projector shows.

The view is drawn by the window's own code (:mod:`gameplay.ui.shell.shot` opens the App on SDL's dummy video driver), so
the picture is what the window would show at that size: ``treelab`` (an explicit tree: ``--tree`` JSON or a file,
or ``--preset`` one of the course's trees), ``overlay`` (a game decision's search tree: ``--game``, ``--position``
and ``--agent``, the agent deciding at that position as the window's AI does), ``match``, ``menu``, ``race``,
``settings``; ``--presenter`` the presenter view, ``--step N`` the N-th step of the step-through (1 = the search
enters the root; ``end``: the finished search), ``--zoom`` the interface size (Ctrl+plus / Ctrl+minus), ``--contrast``
the high-contrast theme. With ``--json`` one object::

    {"view": str, "size": [w, h], "file": str, "canvas": [x, y, w, h] | null,
     "nodes": [{"label": str, "kind": str, "rect": [x, y, w, h], "inside": bool, "value": str, "parent": str}],
     "narration": str | null, "named": [str], "narrated": str | null, "all_inside": bool, "about_inside": bool}

``nodes`` are the tree's items drawn (recorded nodes, pruned moves, ``+N`` markers), ``rect`` in window pixels
around everything drawn for the item, ``inside`` True when it lies wholly inside the tree's canvas (not under a
panel, the legend or the narration bar); a recorded node also has ``value``, what its shape shows at that step
(``?``, ``>= 0``, ``0``), and ``parent``, its parent's label (``null`` for the root); ``narration`` is the current
step's sentence, ``named`` the labels of the nodes it names and ``narrated`` the label of the node it is about;
``about_inside`` says that node, its parent and every named one are drawn inside the canvas; ``all_inside`` that
every item drawn is. An ``overlay`` decision without a tree (a book move, a proof of a game's exact solver) is
drawn as the window shows it then, its header saying why: ``nodes`` is empty, ``header`` lists the header's title and,
for a proof, the solver's null-window tests at the root; ``all_inside`` and ``about_inside`` say the header is drawn
whole; ``--step`` is refused (there is no tree to step through).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from gameplay.rules.limits import SHOT_HEIGHT, SHOT_STEP, SHOT_WIDTH, ZOOM, NumberArg, RangeError

VIEWS = ("treelab", "overlay", "match", "menu", "race", "settings")
"""The views ``shot`` renders."""
SIZE_RANGE = ((int(SHOT_WIDTH.lo), int(SHOT_WIDTH.hi)), (int(SHOT_HEIGHT.lo), int(SHOT_HEIGHT.hi)))
"""Accepted widths and heights in pixels (the window's own minimum, 640x480, up to 8K:
:data:`gameplay.rules.limits.SHOT_WIDTH`, :data:`~gameplay.rules.limits.SHOT_HEIGHT`)."""
OPTION_VIEWS: dict[str, tuple[str, ...]] = {
    "--game": ("overlay", "match", "race", "settings"), "--position": ("overlay", "match", "race"),
    "--agent": ("treelab", "overlay"), "--tree": ("treelab",), "--preset": ("treelab",),
    "--presenter": ("treelab", "overlay"), "--step": ("treelab", "overlay"),
}
"""The views each view-specific option applies to (given to another view, it is bad input)."""
MAX_STEP = int(SHOT_STEP.hi)
"""The largest ``--step`` accepted (a step past the tree's last is refused with the tree's count)."""


def register(sub: Any) -> None:
    """Add the ``shot`` subcommand to the CLI's subparsers."""
    sp = sub.add_parser("shot", help="render a view at a resolution to PNG without a display (slides, checks)")
    sp.add_argument("view", metavar="VIEW", help=f"one of {', '.join(VIEWS)}")
    sp.add_argument("--size", required=True, metavar="WxH", type=NumberArg(SHOT_WIDTH, "--size", parse_size),
                    help=f"window size in pixels, e.g. 1280x800; range: width {SHOT_WIDTH.text()}, height "
                         f"{SHOT_HEIGHT.text()}")
    sp.add_argument("--game", help="overlay, match, race, settings: the game (default tictactoe)")
    sp.add_argument("--position", help="overlay, match, race: the position (the game's notation; default the start)")
    sp.add_argument("--agent", help="overlay: the agent that decides at the position (default the game's 'medium'); "
                                    "treelab: the search (minimax, alphabeta, expectimax, mcts, with keys such as "
                                    "ordering=on, prune=gt, simulations=N)")
    sp.add_argument("--tree", metavar="JSON_OR_FILE", help="treelab: an explicit tree (inline JSON or a file)")
    sp.add_argument("--preset", metavar="NAME", help="treelab: one of the course's trees (the Tree Lab's presets)")
    sp.add_argument("--presenter", action="store_true", help="treelab, overlay: the presenter view")
    sp.add_argument("--step", default="end", metavar="N|end", type=NumberArg(SHOT_STEP, "--step", parse_step),
                    help=SHOT_STEP.help("treelab, overlay: the step of the step-through (1: the search enters the "
                                        "root), or 'end' for the finished search (default)"))
    sp.add_argument("--zoom", type=ZOOM.arg("--zoom"), metavar="Z",
                    help=ZOOM.help("the interface size (Ctrl+plus / Ctrl+minus): one of the zoom steps the size "
                                   "offers"))
    sp.add_argument("--contrast", action="store_true", help="the high-contrast theme (Ctrl+H)")
    sp.add_argument("--out", required=True, metavar="FILE.png", help="the PNG file to write")
    sp.add_argument("--json", action="store_true", help="print one JSON object (see the module's description)")
    sp.set_defaults(func=cmd_shot)


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x800"`` -> ``(1280, 800)``.

    Raises:
        RangeError: not ``WxH`` or outside :data:`SIZE_RANGE`.
    """
    from gameplay.rules.base import quoted
    m = re.fullmatch(r"\s*(\d{1,6})\s*[xX×]\s*(\d{1,6})\s*", text or "")
    if m is None:
        raise RangeError(f"--size must be WIDTHxHEIGHT in pixels like 1280x800, got {quoted(text)}")
    w, h = int(m.group(1)), int(m.group(2))
    (w0, w1), (h0, h1) = SIZE_RANGE
    if not (w0 <= w <= w1 and h0 <= h <= h1):
        raise RangeError(f"--size {w}x{h} is out of range: width {w0}-{w1}, height {h0}-{h1} pixels")
    return w, h


def parse_step(text: str) -> int | None:
    """``"end"`` -> ``None`` (the finished search); ``"12"`` -> 12.

    Raises:
        RangeError: neither ``end`` nor a whole number in 1..:data:`MAX_STEP`.
    """
    from gameplay.rules.base import quoted
    t = (text or "").strip().lower()
    if t == "end":
        return None
    if not re.fullmatch(r"\d{1,8}", t) or not 1 <= int(t) <= MAX_STEP:
        raise RangeError(f"--step must be a step number 1-{MAX_STEP:,} or 'end', got {quoted(text)}")
    return int(t)


def cmd_shot(a: argparse.Namespace) -> int:
    from gameplay.cli.common import UsageError
    from gameplay.rules.base import quoted, quoted_path
    view = (a.view or "").strip().lower()
    if view not in VIEWS:
        raise UsageError(f"unknown view {quoted(a.view)}; expected one of {', '.join(VIEWS)}")
    size, step = a.size, a.step  # read by parse_size and parse_step (the options' types)
    if not a.out.lower().endswith(".png"):
        raise UsageError(f"--out must name a .png file, got {quoted_path(a.out)}")
    if a.tree is not None and a.preset is not None:
        raise UsageError("give --tree or --preset, not both")
    given = {"--game": a.game, "--position": a.position, "--agent": a.agent, "--tree": a.tree,
             "--preset": a.preset, "--presenter": a.presenter or None,
             "--step": None if step is None else a.step}
    wrong = [flag for flag, value in given.items() if value is not None and view not in OPTION_VIEWS[flag]]
    if wrong:
        flag, views = wrong[0], OPTION_VIEWS[wrong[0]]
        names = views[0] if len(views) == 1 else f"{', '.join(views[:-1])} and {views[-1]}"
        raise UsageError(f"{flag} is for the {names} view{'s' if len(views) > 1 else ''}, not {view}")
    if a.preset is not None:  # refused before the window opens and searches (a step past the end needs the search)
        from gameplay.rules.trees import TEXTBOOK_TREES
        if not any(n.lower() == a.preset.strip().lower() for n in TEXTBOOK_TREES):
            raise UsageError(f"unknown preset {quoted(a.preset)}; expected one of "
                             + ", ".join(f"'{n}'" for n in TEXTBOOK_TREES))
    folder = Path(a.out).expanduser().parent
    if not folder.is_dir():
        raise UsageError(f"cannot write {quoted_path(a.out)}: the folder {quoted_path(str(folder))} does not exist")
    try:
        import pygame  # noqa: F401
        import pygame_gui  # noqa: F401
    except ImportError:
        from gameplay.cli.common import SETUP_HINT
        raise UsageError(f"shot needs pygame-ce and pygame_gui; set them up with: {SETUP_HINT}") from None
    from gameplay.ui.shell.shot import ShotRequest, render
    req = ShotRequest(view=view, size=size, game=a.game, position=a.position, agent=a.agent, tree=a.tree,
                      preset=a.preset, presenter=bool(a.presenter), step=step, zoom=a.zoom,
                      contrast=bool(a.contrast), out=a.out)
    obj = render(req)
    if a.json:
        sys.stdout.write(json.dumps(obj) + "\n")
    else:
        print(f"wrote {obj['file']} ({size[0]}x{size[1]}, {view}{', presenter' if a.presenter else ''})")
        if obj.get("narration"):
            print(obj["narration"])
        if obj["nodes"]:
            outside = [n["label"] for n in obj["nodes"] if not n["inside"]]
            print(f"{len(obj['nodes'])} tree items drawn, {len(outside)} not wholly inside the canvas"
                  + (f": {', '.join(outside[:8])}{' ...' if len(outside) > 8 else ''}" if outside else ""))
            if not obj["about_inside"]:
                print("the node the sentence is about, its parent or a node it names is not wholly in view")
    return 0
