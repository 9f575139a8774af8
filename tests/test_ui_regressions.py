"""Headless regression tests of UI fixes: typing in dialogs, the match panel at large scales, the Tree Lab view, glyphs,
the settings weights, the decision panel after undo."""

from __future__ import annotations

import os
import time

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import html
from collections.abc import Iterator

import pygame
import pygame_gui
import pytest

from gameplay.ui.app import App
from gameplay.ui.checkers_view import CheckersTools


@pytest.fixture
def app(tmp_path, monkeypatch) -> Iterator[App]:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("ARCADE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("ARCADE_DATA_DIR", str(tmp_path / "data"))
    a = App(size=(1280, 800), fps=1000)
    a.autosave = False
    yield a
    a.close()


def press(app: App, ch: str, *, text: bool = True) -> None:
    """A real key press: KEYDOWN, then the TEXTINPUT SDL makes for it, then KEYUP (in one frame)."""
    k = pygame.key.key_code(ch.lower()) if ch not in ":-" else ord(ch)
    mod = pygame.KMOD_SHIFT if ch.isupper() or ch == ":" else 0
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=ch, scancode=0))
    if text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode=ch, scancode=0))
    app.run(max_frames=1)


def checkers(app: App) -> tuple[object, CheckersTools]:
    scene = app.start_match("checkers", "human", "human")
    app.run(max_frames=2)
    assert isinstance(scene.tools, CheckersTools)
    scene.tools.use_clipboard = False
    return scene, scene.tools


def test_typing_a_fen_runs_no_shortcut(app: App) -> None:
    scene, tools = checkers(app)
    hints: list[bool] = []
    scene.aids.request_hint = lambda: hints.append(True) or True  # type: ignore[attr-defined, method-assign]
    tools.paste_fen()
    app.run(max_frames=1)
    assert tools.modal and tools._entry is not None and app._text_entry_focused()
    flipped = scene.view.flipped  # type: ignore[attr-defined]
    for ch in "B:W21-32:B1-12hfmnu":
        press(app, ch)
    assert tools._entry.get_text() == "B:W21-32:B1-12hfmnu"
    assert not app.blanked and not hints and tools.modal
    assert scene.view.flipped == flipped and scene.games_started == 1  # type: ignore[attr-defined]


def test_the_key_that_opens_a_dialog_is_not_typed_into_it(app: App) -> None:
    scene, tools = checkers(app)
    press(app, "v")  # Paste FEN (no clipboard): the dialog opens with an empty field
    assert tools.modal and tools._entry is not None
    assert tools._entry.get_text() == ""
    press(app, "B")
    assert tools._entry.get_text() == "B" and not app.blanked
    tools.close()
    app.run(max_frames=1)
    press(app, "s")  # Save PDN: the file dialog keeps its proposed file name
    assert tools.modal
    entry = tools.dialog.file_path_text_line  # type: ignore[union-attr]
    assert entry.get_text().endswith(".pdn")


def test_b_blanks_the_screen_when_not_typing(app: App) -> None:
    checkers(app)
    press(app, "b")
    assert app.blanked


@pytest.mark.parametrize(("size", "steps"), [((1920, 1080), 3), ((1280, 800), 1)])
def test_checkers_panel_keeps_the_moves_list_and_whole_labels(app: App, size: tuple[int, int], steps: int) -> None:
    from gameplay.ui import projector
    from gameplay.ui.match import MOVES_MIN_H
    app.resize(size)
    scene = app.start_match("checkers", "human", "medium")
    for _ in range(steps):
        app.zoom(1)
    app.run(max_frames=2)
    ui = scene._ui  # type: ignore[attr-defined]
    assert ui["moves"].rect.height >= projector.px(MOVES_MIN_H) - 1
    panel = ui["panel"].rect
    buttons = [b for b, _ in scene._extra_buttons] + [ui[k] for k in ("new", "undo", "redo", "menu")]  # type: ignore[attr-defined]
    for b in buttons:
        assert "…" not in b.text and panel.contains(b.rect), b.text
    assert ui["moves"].rect.bottom <= min(b.rect.top for b in buttons)


# ----- Tree Lab -------------------------------------------------------------------------------------------------------
def test_tree_lab_fit_shows_the_whole_tree(app: App) -> None:
    scene = app.open_tree_lab()
    app.run(max_frames=2)
    ov = scene.overlay  # type: ignore[attr-defined]
    pic = ov._picture()[0]
    c = ov.canvas_rect
    ov.set_zoom(2.0)
    ov._press("fit")
    left, w = ov.offset[0], pic.width * ov.zoom
    assert left >= 0 and left + w <= c.width and pic.height * ov.zoom <= c.height
    ov.set_zoom(ov.zoom / 1.2)  # zooming out from a Fit below the usual minimum is allowed
    assert pic.width * ov.zoom < w


def test_tree_lab_default_view_shows_the_principal_variation(app: App) -> None:
    scene = app.open_tree_lab()
    app.run(max_frames=2)
    ov = scene.overlay  # type: ignore[attr-defined]
    pic, lay = ov._picture()
    c = ov.canvas_rect
    assert ov.zoom >= 0.9 - 1e-9  # labels stay >= 18 px by default
    pv = sorted((r[1], r[0], r[2]) for nid, r in ((h[0], h[1]) for h in pic.hits)
                if 0 <= nid < len(lay.nodes) and getattr(lay.nodes[nid], "on_pv", False))
    assert len(pv) >= 2
    for _y, x, w in pv[:2]:  # the root and its best child at least
        assert 0 <= ov.offset[0] + x * ov.zoom and ov.offset[0] + (x + w) * ov.zoom <= c.width


def test_tree_lab_keeps_rejected_json_and_the_whole_error(app: App) -> None:
    scene = app.open_tree_lab()
    app.run(max_frames=2)
    ui = scene._ui  # type: ignore[attr-defined]
    bad = "[[3, 12, 8], [2, 4"
    ui["json"].set_text(bad)
    ui["json"].unfocus()
    ui["apply"].focus()
    pygame.event.post(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=ui["apply"]))
    app.run(max_frames=3)
    assert ui["json"].get_text() == bad
    assert scene.message and scene.message in html.unescape(ui["message"].html_text)  # type: ignore[attr-defined]
    scene.apply_json("[1, 2]")  # type: ignore[attr-defined]
    app.run(max_frames=1)
    assert ui["json"].get_text() == "[1, 2]" and not scene.message  # type: ignore[attr-defined]


def test_missing_glyphs_are_replaced() -> None:
    from gameplay.pictures.tree_png import has_glyph, safe_text
    from gameplay.ui.overlay import _text
    pygame.font.init()
    for s in ("≈ 1.2 million", "α=−∞ β=+∞", "b ≈ 3.1 → done"):
        for t in (_text(s), safe_text(s)):
            assert "≈" not in t and "∞" not in t and all(has_glyph(ch) for ch in t), t


# ----- settings ---------------------------------------------------------------------------------------------------
def test_pig_medium_shows_its_own_weights(app: App) -> None:
    from ai.profiles import profile_for
    from gameplay.files.settings import side_agent_settings
    scene = app.open_settings("pig")
    app.run(max_frames=2)
    for p in (0, 1):
        scene.side(p).agent = "medium"  # type: ignore[attr-defined]
    scene.layout(app.size)
    app.run(max_frames=1)
    name = side_agent_settings("pig", scene.side(0)).weights  # type: ignore[attr-defined]
    assert name != "default" and scene.weights_name(0) == name  # type: ignore[attr-defined]
    assert scene._ui["wpreset0"].selected_option[0] == name  # type: ignore[attr-defined]
    preset = profile_for("pig").weight_presets[name]
    for f in profile_for("pig").features:
        assert float(scene._ui[f"weight0.{f}"].get_text() or 0) == pytest.approx(preset.get(f, 0.0))  # type: ignore[attr-defined]


# ----- the decision panel after undo -------------------------------------------------------------------------------
def test_undo_clears_the_undone_ai_decision(app: App) -> None:
    scene = app.start_match("tictactoe", "human", "medium")
    scene.ai_delay_s = 0.0
    app.run(max_frames=2)
    scene.play(scene.game.actions(scene.record.state)[0], "human")
    for _ in range(600):
        if scene.record.ply == 2:
            break
        app.run(max_frames=1)
    assert scene.last_decision is not None and "played" in scene.decision_html()
    scene.undo()
    app.run(max_frames=1)
    assert scene.record.ply == 0 and scene.last_decision is None and "No AI move yet" in scene.decision_html()
    scene.redo()
    assert scene.record.ply == 2 and scene.last_decision is not None


def test_the_overlay_follows_undo_redo_and_new_game(app: App) -> None:
    """The overlay shows the tree of the decision the side panel names: none after undo or a new game, the
    same again after redo (two screens never disagree)."""
    scene = app.start_match("tictactoe", "human", "medium")
    scene.ai_delay_s = 0.0
    app.run(max_frames=2)
    scene.play(4, "human")
    t0 = time.perf_counter()
    while scene.record.ply < 2 and time.perf_counter() - t0 < 30:
        app.run(max_frames=1)
    assert scene.record.ply == 2 and scene.overlay.tree is not None
    tree = scene.overlay.tree
    assert tree.total_nodes == scene.last_decision[2].nodes  # type: ignore[index]
    scene.undo()
    app.run(max_frames=1)
    assert scene.last_decision is None and scene.overlay.tree is None and not scene.overlay.visible
    scene.redo()
    app.run(max_frames=1)
    assert scene.last_decision is not None and scene.overlay.tree is tree
    scene.new_game()
    app.run(max_frames=1)
    assert scene.last_decision is None and scene.overlay.tree is None
