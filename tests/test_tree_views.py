"""The tree views (the match's search-tree overlay, the Tree Lab, ``shot``) as a projector shows them, each fault
a new user met with its right value (headless).

The walk over every step at five resolutions is ``tests/test_projector_walk.py``; here are the single faults: the
window's narration drops what the command line says, Fit that changes nothing, the checkers picture without the
root the narration speaks of, the Preset box naming a tree not shown, high contrast that stops at the tree,
Pig's edge labels running together, the legend clipped, and the ``shot`` command's contract.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from ai.agents.agents import make_agent
from ai.teaching.decision_tree import record_decision_model
from ai.teaching.narration import narration
from ai.teaching.treelab import TreeSettings, search_tree
from gameplay.pictures.picture_build import build_picture
from gameplay.pictures.tree_layout import layout
from gameplay.pictures.tree_picture import HIGH_CONTRAST_PALETTE, edge_text, item_box
from gameplay.rules.trees import TEXTBOOK_TREES, parse_tree
from gameplay.ui.overlay import overlay_draw as draw
from gameplay.ui.overlay import overlay_view as view
from gameplay.ui.overlay.overlay import show_decision
from gameplay.ui.shell.app import App
from gameplay.ui.widgets import projector

ROOT = Path(__file__).resolve().parent.parent
TWO_LEVEL = "Two-level prune (value 3)"


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("ARCADE_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("ARCADE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("ARCADE_EXPORT_DIR", str(tmp_path / "exports"))
    yield
    projector.set_current(projector.Display())



def inner(ov: Any) -> Any:
    return getattr(ov, "active", ov)


# -- the narration: one text in the window, the command line and the exports ---------------------------------------
def test_the_window_narrates_the_course_example_as_the_command_line_does(app: App) -> None:
    lab = app.open_tree_lab()
    assert lab.load_preset(TWO_LEVEL)
    o = inner(lab.overlay)
    window = [s.text for s in o.narrated()]  # the very words, in the window's spelling (ai.kernel.spelling)
    searched = search_tree(parse_tree(TEXTBOOK_TREES[TWO_LEVEL]), TreeSettings("alphabeta")).tree
    assert window == narration(searched, parse_tree(TEXTBOOK_TREES[TWO_LEVEL]), symbols="unicode")
    cli = narration(searched, parse_tree(TEXTBOOK_TREES[TWO_LEVEL]))  # the terminal's: ASCII
    signs = {"α": "alpha", "β": "beta", "≤": "<=", "≥": ">=", "−∞": "-inf", "+∞": "+inf", "ε": "eps"}

    def spelt_ascii(text: str) -> str:
        for glyph, word in signs.items():
            text = text.replace(glyph, word)
        return text
    assert [spelt_ascii(t) for t in window] == cli and window != cli  # one sentence, two spellings
    o.stepper.go_to(10)  # step 11
    assert "E's right child (leaf 9) is pruned" in draw.narration_text(o)
    out = subprocess.run([sys.executable, "main.py", "tree", "--tree", TEXTBOOK_TREES[TWO_LEVEL], "--agent",
                          "alphabeta", "--narrate"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0
    assert f"Step 11: {cli[10]}" in out.stdout


# -- Fit always gives the fitted view ------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [(1280, 720), (1280, 800)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_fit_always_returns_to_the_fitted_view(size: tuple[int, int]) -> None:
    """At 1280x720 Fit changed nothing and two Zoom - left the leaves cut with 150 px empty above."""
    a = App(size=size, fps=1000)
    try:
        lab = a.open_tree_lab()
        assert lab.load_preset(TWO_LEVEL)
        o = inner(lab.overlay)
        o.set_presenter(True)
        a.run(max_frames=2)
        fitted = (o.zoom, o.offset)
        assert all(ok for _, _, ok in view.drawn_nodes(o))  # the whole course example, readable
        o.press("zoom_out")
        o.press("zoom_out")
        o.pan((o.offset[0] + 130, o.offset[1] - 90))  # a drag
        a.run(max_frames=1)
        assert (o.zoom, o.offset) != fitted
        o.press("fit")
        a.run(max_frames=1)
        assert o.zoom == pytest.approx(fitted[0]) and o.offset == pytest.approx(fitted[1])
        assert all(ok for _, _, ok in view.drawn_nodes(o))
    finally:
        a.close()


# -- checkers: the picture shows what the narration speaks of -----------------------------------------------------
def test_checkers_presenter_end_shows_the_root_and_the_best_move_the_narration_names(app: App) -> None:
    """Against ``expert``: T, Page Down x5, P, End. The narration spoke of the root and its best move while the
    picture showed a deep node and no root."""
    position = "B:W14,20,22,23,26,27,28,30,31,32:B1,2,3,4,5,7,9,11,13,16"
    spec = "expert:depth=6,book=off"
    scene = app.start_match("checkers", make_agent("checkers", "human"), make_agent("checkers", "human"))
    g, state, result, rec = record_decision_model("checkers", position, spec)
    assert show_decision(scene.overlay, g, state, make_agent("checkers", spec), result, rec,
                         player_name="Black", move_text=g.format_move(state, result.move), view=scene.view)
    scene.overlay.show()
    o = inner(scene.overlay)
    for _ in range(5):
        o.next_step()
        app.run(max_frames=1)
        about, missing = view.about_items(o, o.pic_lay)
        inside = {i: ok for i, _, ok in view.drawn_nodes(o)}
        assert not missing and all(inside[i] for i in about), o.step
    o.set_presenter(True)
    o.finish()
    app.run(max_frames=2)
    st = o.narrated_step()
    best = next(n for n in o.tree.nodes if n.parent == 0 and n.on_pv)
    assert st.node == 0 and best.id in st.named and f"best move {best.move}" in st.text
    shown = o.pic_lay.by_node_id()
    inside = {i: ok for i, _, ok in view.drawn_nodes(o)}
    assert inside[shown[0].index] and inside[shown[best.id].index]


# -- the Tree Lab's Preset box ----------------------------------------------------------------------------------------
def test_the_preset_box_names_the_tree_shown(app: App) -> None:
    lab = app.open_tree_lab()
    app.run(max_frames=1)
    assert lab.widget("preset").selected_option[1] == next(iter(TEXTBOOK_TREES))
    assert lab.random(3, 3)
    app.run(max_frames=1)
    assert lab.widget("preset").selected_option[1] == "Random tree (b=3, d=3)" == lab.preset
    assert lab.set_leaf((0, 0, 0), 7)
    app.run(max_frames=1)
    assert lab.widget("preset").selected_option[1] == "Edited tree"
    assert lab.load_preset(TWO_LEVEL)
    app.run(max_frames=1)
    assert lab.widget("preset").selected_option[1] == TWO_LEVEL


# -- high contrast reaches the tree ------------------------------------------------------------------------------------
def test_high_contrast_reaches_the_tree_canvas_and_its_exports(app: App, tmp_path: Path) -> None:
    lab = app.open_tree_lab()
    assert lab.load_preset(TWO_LEVEL)
    app.toggle_high_contrast()
    app.run(max_frames=2)
    o = inner(lab.overlay)
    assert view.picture_palette(o) is HIGH_CONTRAST_PALETTE and o.pic.background == "#000000"
    surface = pygame.display.get_surface()
    for name in ("canvas_rect", "legend_rect", "narration_rect", "bar_rect", "header_rect"):
        r = getattr(o, name)
        if r.height <= 0:
            continue
        corner = surface.get_at((r.x + 3, r.bottom - 4))[:3]
        assert corner == (0, 0, 0), (name, corner)  # no white or mid-grey band left
    # the picture's own greys: every text and line light on the black
    for it in o.pic.items:
        colour = it.fill if it.op == "text" else it.stroke
        if colour and colour != HIGH_CONTRAST_PALETTE.pv_core:  # the best line's core is black on its yellow
            c = pygame.Color(colour)
            assert max(c.r, c.g, c.b) >= 150, (it.op, it.text, colour)
    files = o.export(tmp_path / "ex")
    svg = next(f for f in files if f.suffix == ".svg").read_text(encoding="utf-8")
    assert 'fill="#000000"' in svg.split("\n", 3)[1] or "#000000" in svg[:400]
    png = pygame.image.load(str(next(f for f in files if f.suffix == ".png")))
    assert png.get_at((2, 2))[:3] == (0, 0, 0)


# -- Pig: the chance node's edge labels ----------------------------------------------------------------------------
def test_pig_chance_edge_labels_never_run_together() -> None:
    """"1 (1/6) 2 (1/6)" ran together under Pig's roll."""
    pygame.font.init()
    from gameplay.pictures.tree_png import measure_text
    _, _, _, tree = record_decision_model_tree("pig", "20,30,8,1", "expectimax:depth=2")
    lay = layout(tree, max_depth=3, collapse=None, max_width=None, max_children=None)
    for compact, f, fv in ((True, 20.0, 20.0), (True, 25.0, 33.0), (False, 20.0, 20.0)):
        pic = build_picture(lay, font_size=f, value_size=fv, compact=compact, header=False, legend=False,
                            measure=measure_text)
        labels = {edge_text(it, lay.nodes[it.parent]) for it in lay.nodes if it.parent is not None}
        boxes = [item_box(it, measure_text) for it in pic.items if it.op == "text" and it.text in labels
                 and "(" in it.text]
        assert len(boxes) >= 6
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert a is not None and b is not None
                apart = a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]
                assert apart, (compact, f)


def record_decision_model_tree(game: str, position: str, spec: str) -> tuple[Any, Any, Any, Any]:
    g, state, result, rec = record_decision_model(game, position, spec)
    return g, state, result, rec.snapshot(tuple(result.pv))


# -- the legend --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [(1024, 768), (1280, 800)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_legend_is_never_clipped(size: tuple[int, int]) -> None:
    """The windowed legend was clipped ("AX", "+N hidd"): it is a strip of its own, its rows wrapped to the width."""
    from gameplay.pictures.tree_png import measure_text
    a = App(size=size, fps=1000)
    try:
        scene = a.start_match("tictactoe", make_agent("tictactoe", "human"), make_agent("tictactoe", "human"))
        g, state, result, rec = record_decision_model("tictactoe", "X...O....", "medium")
        assert show_decision(scene.overlay, g, state, make_agent("tictactoe", "medium"), result, rec,
                             player_name="X", move_text=g.format_move(state, result.move), view=scene.view)
        scene.overlay.show()
        a.run(max_frames=2)
        o = inner(scene.overlay)
        r = o.legend_rect
        items, h = draw.legend_layout(o, r.width)
        words = {it.text for it in items if it.op == "text"}
        assert {"MAX", "MIN", "leaf", "hidden"} <= words
        for it in items:
            b = item_box(it, measure_text)
            if b is not None:
                assert 0 <= b[0] and b[0] + b[2] <= r.width and 0 <= b[1] and b[1] + b[3] <= r.height, it.text
    finally:
        a.close()


# -- shot --------------------------------------------------------------------------------------------------------
def run_main(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYGAME_HIDE_SUPPORT_PROMPT="1")
    return subprocess.run([sys.executable, "main.py", *args], cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env=env)


def test_shot_renders_the_course_example_and_lists_what_it_drew(tmp_path: Path) -> None:
    png = tmp_path / "slide.png"
    out = run_main("shot", "treelab", "--size", "1024x768", "--preset", TWO_LEVEL, "--presenter", "--step", "11",
                   "--out", str(png), "--json")
    assert out.returncode == 0, out.stderr
    obj = json.loads(out.stdout)
    assert {"view", "size", "file", "canvas", "nodes", "narration", "named", "all_inside"} <= set(obj)
    assert obj["view"] == "treelab" and obj["size"] == [1024, 768] and Path(obj["file"]) == png
    assert pygame.image.load(str(png)).get_size() == (1024, 768)
    labels = [n["label"] for n in obj["nodes"]]
    assert labels[:3] == ["A", "B", "D"] and "leaf 9 (pruned)" in labels
    assert obj["narrated"] == "leaf 5" and "E" in obj["named"] and "leaf 9 (pruned)" in obj["named"]
    assert "(leaf 9) is pruned" in obj["narration"] and obj["all_inside"] and obj["about_inside"]
    x, y, w, h = obj["canvas"]
    for n in obj["nodes"]:
        nx, ny, nw, nh = n["rect"]
        assert n["inside"] == (nx >= x and ny >= y and nx + nw <= x + w and ny + nh <= y + h)


@pytest.mark.slow
def test_shot_of_a_game_decision_menu_and_contrast(tmp_path: Path) -> None:
    out = run_main("shot", "overlay", "--game", "tictactoe", "--position", "X...O....", "--agent", "medium",
                   "--size", "1280x720", "--presenter", "--step", "5", "--contrast", "--out",
                   str(tmp_path / "o.png"), "--json")
    assert out.returncode == 0, out.stderr
    obj = json.loads(out.stdout)
    assert obj["theme"] == "high_contrast" and obj["nodes"] and obj["about_inside"]
    assert obj["narration"].startswith("Step 5 of ")
    out = run_main("shot", "menu", "--size", "1366x768", "--out", str(tmp_path / "m.png"), "--json")
    assert out.returncode == 0, out.stderr
    obj = json.loads(out.stdout)
    assert obj["canvas"] is None and obj["nodes"] == [] and obj["narration"] is None


@pytest.mark.parametrize("args, words", [
    (("treelab", "--size", "1280", "--out", "x.png"), "--size must be WIDTHxHEIGHT"),
    (("treelab", "--size", "100x100", "--out", "x.png"), "out of range"),
    (("garden", "--size", "1280x800", "--out", "x.png"), "unknown view 'garden'"),
    (("treelab", "--size", "1280x800", "--step", "0", "--out", "x.png"), "--step must be a step number"),
    (("treelab", "--size", "1280x800", "--step", "500", "--out", "x.png"), "past the last step: this search has 22"),
    (("treelab", "--size", "1024x768", "--zoom", "1.4", "--out", "x.png"), "not offered at 1024x768"),
    (("treelab", "--size", "1280x800", "--preset", "nope", "--out", "x.png"), "unknown preset 'nope'"),
    (("treelab", "--size", "1280x800", "--out", "x.jpg"), "--out must name a .png file"),
    (("menu", "--size", "1280x800", "--step", "3", "--out", "x.png"), "--step is for the treelab and overlay views"),
    (("menu", "--size", "1280x800", "--game", "checkers", "--out", "x.png"),
     "--game is for the overlay, match, race and settings views, not menu"),
    (("treelab", "--size", "1280x800", "--tree", "[1,2]", "--agent", "expectimax", "--out", "x.png"),
     "expectimax needs a tree with chance nodes"),
    (("treelab", "--size", "1280x800", "--out", "no/such/folder/x.png"), "does not exist"),
    # (a decision without a tree, a book move or a proof, is drawn with its header: test_exact_truth.py)
])
def test_shot_refuses_bad_input_in_one_line(tmp_path: Path, args: tuple[str, ...], words: str) -> None:
    args = tuple(str(tmp_path / a) if a.startswith(("x.", "no/")) else a for a in args)
    if "--step" in args and "500" in args:
        args = args + ("--preset", TWO_LEVEL)
    out = run_main("shot", *args)
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert words in out.stderr and "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert not list(tmp_path.glob("*.png"))
