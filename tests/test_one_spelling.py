"""One spelling of the search's signs in the window (issue 47): :mod:`ai.kernel.spelling` is the one module that
writes a bound, an infinity or the cut-off test's sign, and the widgets that show them (the cut-off rule's
drop-downs in the Tree Lab and Settings, the Tree Lab's comparison box) draw them in the bundled DejaVu Sans,
which has ``α β ≤ ≥ ∞`` (pygame_gui's Noto Sans lacks ``≤ ≥ ∞``: the drop-downs wrote ``α >= β`` and ``alpha >=
beta``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from ai.kernel.spelling import ASCII, UNICODE, cut_rule, cut_test
from gameplay.ui.widgets import projector

ROOT = Path(__file__).resolve().parent.parent
GLYPHS = "≤≥∞"
"""A bound's and an infinity's signs in the window's spelling."""
ASCII_SIGNS = (">=", "<=", "-inf", "+inf")
"""The same in ASCII, which the window's widgets (``gameplay/ui``) must not write either."""
ALLOWED = {
    ("gameplay/pictures/tree_png.py", "∞"): "the fallback table of a font without the glyph (∞ -> inf)",
    ("gameplay/pictures/tree_png.py", "≤"): "the same table (≤ -> <=)",
    ("gameplay/pictures/tree_png.py", "≥"): "the same table (≥ -> >=)",
    ("gameplay/pictures/tree_picture.py", "≥≤∞±−=+<>×·"): "the width estimate's wide characters",
}
"""String constants that hold a sign without writing a bound, with why."""


def strings(path: Path) -> Iterator[tuple[int, str]]:
    """Every string constant of a module that is not a docstring, with its line (f-strings' literal parts too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            docs.add(id(node.value))  # an attribute's docstring
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            yield node.lineno, node.value


def sources(*rooms: str) -> Iterator[Path]:
    for room in rooms:
        yield from sorted((ROOT / room).rglob("*.py"))


def sign_writers(files: list[tuple[str, Path]] | None = None) -> list[str]:
    """Each string (not a docstring) that writes a sign itself, as ``path:line: text``: of ``files`` (``(the path
    it stands for, the file)``; default every module of ``ai`` and ``gameplay``)."""
    found = []
    if files is None:
        files = [(p.relative_to(ROOT).as_posix(), p) for p in sources("ai", "gameplay")]
    for rel, path in files:
        if rel == "ai/kernel/spelling.py":
            continue
        for line, text in strings(path):
            if any(g in text for g in GLYPHS) and (rel, text) not in ALLOWED:
                found.append(f"{rel}:{line}: {text!r}")
            if rel.startswith("gameplay/ui/") and any(a in text for a in ASCII_SIGNS):
                found.append(f"{rel}:{line}: {text!r}")
    return found


def test_no_module_but_spelling_writes_a_bound_or_an_infinity_for_the_window() -> None:
    assert sign_writers() == []


def test_the_scan_finds_a_sign_written_by_hand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scan can fail: the old cut_reason (``'≥'`` in an f-string) and the old Tree Lab rule label are found."""
    bad = tmp_path / "_spelling_probe.py"  # read as if it were in gameplay/ui/ (the source tree is never written)
    bad.write_text('def rule(prune: str, a: str, b: str) -> str:\n'
                   '    """≥ in a docstring is fine."""\n'
                   '    x = "α >= β (ge)"\n'
                   '    return f"α={a} {\'≥\' if prune != \'gt\' else \'>\'} β={b}"\n', encoding="utf-8")
    found = sign_writers([("gameplay/ui/_spelling_probe.py", bad)])
    assert [f.split(":")[1] for f in found if "_spelling_probe" in f] == ["3", "4"], found


def test_the_cutoff_rule_and_test_are_spelt_by_spelling() -> None:
    assert cut_rule("ge", UNICODE) == "α ≥ β" and cut_rule("gt", UNICODE) == "α > β"
    assert cut_rule("ge", ASCII) == "alpha >= beta"
    assert cut_test(3, float("inf"), "ge", spelling=UNICODE) == "α=3 ≥ β=+∞"
    assert cut_test(float("-inf"), 2, "gt", spelling=ASCII) == "alpha=-inf > beta=2"
    with pytest.raises(ValueError, match="prune must be one of ge, gt"):
        cut_rule("gte", UNICODE)


def _draws(font: object, glyph: str) -> bool:
    """True when ``font`` (pygame_gui's) draws ``glyph`` unlike a character no font has (its missing-glyph box)."""
    def pixels(text: str) -> bytes:
        surf = font.render_premul(text, pygame.Color("white"))  # type: ignore[attr-defined]
        return pygame.image.tobytes(surf, "RGBA")
    return pixels(glyph) != pixels("\ue000")


@pytest.mark.parametrize("object_id, element", [(projector.CUTOFF_RULE, "drop_down_menu"),
                                                (projector.COUNTS, "text_box")])
def test_the_widgets_that_write_the_signs_have_them(object_id: str, element: str) -> None:
    pygame.init()
    pygame.display.set_mode((640, 480))
    manager = projector.make_manager((640, 480), projector.Display())
    font = projector.theme_font(manager, object_id, element)
    assert all(_draws(font, g) for g in "≥≤∞αβ")
    plain = projector.theme_font(manager, None, element)  # Noto Sans: the test can fail
    assert not _draws(plain, "≥")


def test_the_tree_lab_and_settings_write_the_rule_with_the_glyphs(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARCADE_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("ARCADE_DATA_DIR", str(tmp_path))
    from gameplay.ui.scenes.settings_columns import PRUNE_CHOICES
    from gameplay.ui.scenes.treelab_panel import RULES
    from gameplay.ui.shell.app import App
    assert [t for t, _ in RULES] == ["α ≥ β (ge)", "α > β (gt)"]
    assert [t for t, _ in PRUNE_CHOICES] == ["α ≥ β (AIMA)", "α > β (strict)"]
    app = App(size=(1280, 720), fps=1000)
    try:
        lab = app.open_tree_lab()
        assert lab.load_preset("Two-level prune (value 3)")
        app.run(max_frames=2)
        assert "cutting when α ≥ β" in lab.counts_html()
    finally:
        app.close()
        projector.set_current(projector.Display())
