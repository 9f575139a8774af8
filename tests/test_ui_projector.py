"""Projector mode (headless): interface scale with Ctrl+plus / Ctrl+minus / Ctrl+0, the high-contrast theme,
B to blank the screen, the clicker's Page Up / Page Down, and the font-size acceptance at 1920x1080."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pygame
import pytest
import ui_driver

from ai.agents.agents import make_agent
from gameplay.ui.play.match import MatchScene
from gameplay.ui.shell.app import App
from gameplay.ui.widgets import projector

BODY_ELEMENTS = (["defaults"], ["label"], ["text_box"], ["button"], ["#player", "label"], ["#hint", "label"],
                 ["#field_label", "label"], ["#status", "label"], ["drop_down_menu"], ["text_entry_line"])
"""pygame_gui elements whose text is body text (titles are bigger anyway)."""


@pytest.fixture(autouse=True)
def _isolated(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("ARCADE_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("ARCADE_DATA_DIR", str(tmp_path))
    yield
    projector.set_current(projector.Display())



def frames(app: App, n: int = 1) -> None:
    app.run(max_frames=n)


def key(app: App, k: int, mod: int = 0, n: int = 2) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0))
    frames(app, n)


def pump(app: App, until: Callable[[], bool], timeout_s: float = 60.0) -> None:
    """Frames until ``until()``: ``ui_driver.pump``'s wall-clock bound (a count of frames ran out before a pure-Python
    search on a loaded machine answered)."""
    ui_driver.pump(app, until, timeout_s)


def body_size(app: App) -> int:
    """The font size pygame_gui uses for a text box (body text) with the theme in use."""
    return projector.theme_font_sizes(app.manager, ["text_box"])


def _open_scene(app: App, which: str) -> None:
    if which == "menu":
        app.open_menu()
    elif which == "treelab":
        app.open_tree_lab()
    else:
        app.start_match(which, make_agent(which, "human"), make_agent(which, "human"))
    frames(app, 2)


# ----- pure functions -----------------------------------------------------------------------------------------------
def test_default_scale_follows_the_window_height() -> None:
    assert projector.default_scale(600) == 1.0
    assert projector.default_scale(800) == 1.0
    assert projector.default_scale(1080) == pytest.approx(1.35)
    assert 1.0 < projector.default_scale(900) < 1.35
    assert projector.is_projector((1920, 1080), False) and projector.is_projector((1280, 800), True)
    assert not projector.is_projector((1280, 800), False)


def test_scaled_theme_scales_fonts_paddings_and_borders() -> None:
    base = projector.load_base_theme()
    t = projector.scaled_theme(base, 1.5)
    assert t["defaults"]["font"]["size"] == str(round(float(base["defaults"]["font"]["size"]) * 1.5))
    assert t["text_box"]["misc"]["padding"] == "15,12"
    assert t["button"]["misc"]["border_width"] == "2"
    assert base["text_box"]["misc"]["padding"] == "10,8"  # the base is not changed
    hc = projector.scaled_theme(base, 1.0, "high_contrast")
    assert hc["defaults"]["colours"]["normal_bg"] == projector.HC_BLACK
    assert hc["defaults"]["colours"]["normal_text"] == projector.HC_WHITE
    assert hc["defaults"]["colours"]["hovered_bg"] == projector.HC_YELLOW
    assert hc["#banner"]["colours"]["dark_bg"] == projector.HC_YELLOW
    assert int(hc["button"]["misc"]["border_width"]) >= 2


def test_zoom_steps() -> None:
    d = projector.Display(auto=1.0)
    assert d.zoomed(1).scale > d.scale > d.zoomed(-1).scale
    assert d.zoomed(1).zoomed(1).zoomed(0).scale == d.scale
    big = d
    for _ in range(30):
        big = big.zoomed(1)
    assert big.scale <= projector.MAX_SCALE


def test_a_1080p_projector_offers_the_zoom_step_that_fits_exactly() -> None:
    """At 1920x1080 (automatic scale 1.35) the 125% step is 1.6875, exactly 1080 / 640: rounded up to 1.69 it was
    refused and Ctrl+plus stopped at 110% (a new user's finding). Scales are cut down to 2 decimals, so it fits."""
    auto = projector.default_scale(1080)
    assert auto == 1.35
    assert projector.max_zoom_for((1920, 1080), auto) == 1.25
    top = projector.fitted_display(projector.Display(zoom=2.0), (1920, 1080))
    assert top.zoom == 1.25 and top.scale == 1.68
    assert projector.FIT_WINDOW[1] * top.scale <= 1080 and projector.FIT_WINDOW[0] * top.scale <= 1920
    for size in ((1024, 768), (1280, 720), (1280, 800), (1366, 768), (1920, 1080)):  # never past the fit
        d = projector.fitted_display(projector.Display(zoom=2.0), size)
        assert d.scale <= projector.max_scale_for(size) + 1e-9, size


# ----- the window -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("which", ["menu", "tictactoe", "checkers", "pig", "treelab"])
def test_ctrl_plus_and_minus_rebuild_the_theme_and_relayout(app: App, which: str) -> None:
    _open_scene(app, which)
    size0 = body_size(app)
    scene = app.scene
    key(app, pygame.K_EQUALS, pygame.KMOD_CTRL)
    assert body_size(app) > size0 and projector.scale() > 1.0
    assert app.scene is scene  # the same scene, laid out again
    if isinstance(scene, MatchScene):
        assert scene.widget("status").ui_manager is app.manager  # widgets rebuilt in the new manager
    key(app, pygame.K_KP_PLUS, pygame.KMOD_CTRL)
    bigger = body_size(app)
    key(app, pygame.K_MINUS, pygame.KMOD_CTRL)
    assert body_size(app) < bigger
    key(app, pygame.K_0, pygame.KMOD_CTRL)
    assert body_size(app) == size0 and projector.scale() == 1.0
    key(app, pygame.K_MINUS, pygame.KMOD_CTRL)
    assert body_size(app) < size0


def test_zoom_with_the_overlay_open(app: App) -> None:
    scene = app.start_match("tictactoe", make_agent("tictactoe", "human"), make_agent("tictactoe", "beginner"))
    scene.ai_delay_s = 0.0
    frames(app, 2)
    scene.play(4, "human")
    pump(app, lambda: scene.last_decision is not None)
    key(app, pygame.K_t)
    assert scene.overlay.visible
    font0 = scene.overlay.font_size
    header0 = scene.overlay.header_rect.height
    key(app, pygame.K_EQUALS, pygame.KMOD_CTRL)
    assert scene.overlay.visible and scene.overlay.font_size > font0
    assert scene.overlay.header_rect.height > header0
    key(app, pygame.K_0, pygame.KMOD_CTRL)
    assert scene.overlay.font_size == font0


def test_high_contrast_switches_the_theme_and_palette(app: App) -> None:
    _open_scene(app, "tictactoe")
    assert projector.palette() is projector.NORMAL
    key(app, pygame.K_h, pygame.KMOD_CTRL)
    assert app.display.theme == "high_contrast" and projector.palette() is projector.HIGH_CONTRAST
    colour = app.manager.get_theme().get_colour("normal_bg", ["button"])
    assert (colour.r, colour.g, colour.b) == (0, 0, 0)
    surface = pygame.display.get_surface()
    assert surface.get_at((2, 2))[:3] == projector.HIGH_CONTRAST.background
    key(app, pygame.K_h, pygame.KMOD_CTRL)
    assert projector.palette() is projector.NORMAL
    assert surface.get_at((2, 2))[:3] == projector.NORMAL.background


def test_b_blanks_the_screen_and_any_key_restores(app: App) -> None:
    _open_scene(app, "tictactoe")
    scene = app.scene
    assert isinstance(scene, MatchScene)
    key(app, pygame.K_b)
    assert app.blanked
    surface = pygame.display.get_surface()
    assert pygame.transform.average_color(surface)[:3] == (0, 0, 0)
    key(app, pygame.K_n)  # restores the screen and does nothing else (no new game)
    assert not app.blanked and scene.games_started == 1
    assert pygame.transform.average_color(surface)[:3] != (0, 0, 0)


def test_b_types_into_a_focused_text_field(app: App) -> None:
    _open_scene(app, "treelab")
    field = app.scene.widget("json")  # type: ignore[union-attr]
    app.manager.set_focus_set(field)
    key(app, pygame.K_b)
    assert not app.blanked


def test_page_up_and_down_undo_and_redo_when_the_overlay_is_closed(app: App) -> None:
    scene = app.start_match("tictactoe", make_agent("tictactoe", "human"), make_agent("tictactoe", "human"))
    frames(app, 2)
    scene.play(4, "human")
    scene.play(0, "human")
    key(app, pygame.K_PAGEUP)
    assert scene.record.ply == 1
    key(app, pygame.K_PAGEDOWN)
    assert scene.record.ply == 2


# ----- acceptance: 1920x1080 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["tictactoe", "checkers", "pig"])
def test_font_sizes_at_1920x1080(game: str) -> None:
    """Projector mode at 1920x1080: pygame_gui body text >= 24 px, the board view's labels >= 20 px."""
    from gameplay.pictures import tree_png
    a = App(size=(1920, 1080), fps=1000)
    try:
        assert projector.is_projector(a.size, a.fullscreen) and projector.scale() >= 1.35
        scene = a.start_match(game, make_agent(game, "human"), make_agent(game, "human"))
        frames(a, 3)
        for ids in BODY_ELEMENTS:
            assert projector.theme_font_sizes(a.manager, ids) >= 24, ids
        widgets = [w for w in scene.widgets.values() if getattr(w, "font", None) is not None]
        widgets += [b for b, _ in scene.extra_buttons]
        assert len(widgets) >= 8
        for w in widgets:  # the fonts the panel's labels and buttons really render with
            assert w.font.get_point_size() >= 24, w.combined_element_ids
        view = scene.view
        if game == "pig":
            used = [f.point_size for f in view.fonts]  # type: ignore[attr-defined]
        else:
            used = [view.label_font.point_size]  # type: ignore[attr-defined]
        assert used and min(used) >= 20, used
        tree_png.FONTS.clear()  # the one font cache, which the overlay draws with
        scene.overlay.show()
        frames(a, 2)
        assert min(f.get_height() for f in tree_png.FONTS.fonts()) >= 20  # lines at least 20 px tall
    finally:
        a.close()


@pytest.mark.slow
def test_zoom_says_its_size_and_when_it_is_the_largest(app: App) -> None:
    """Ctrl+plus past the largest step that fits the window changed nothing without a word (teacher's trial)."""
    from ui_driver import key
    seen = []
    for _ in range(12):
        key(app, pygame.K_EQUALS, pygame.KMOD_CTRL)
        seen.append(app.notice[0])
    assert seen[0].startswith("Interface size ") and seen[0].endswith("%")
    assert seen[-1].endswith(": the largest that fits this window")
    largest = app.display.zoom
    key(app, pygame.K_EQUALS, pygame.KMOD_CTRL)
    assert app.display.zoom == largest and f"{round(largest * 100)}%" in app.notice[0]
    key(app, pygame.K_MINUS, pygame.KMOD_CTRL)
    assert app.display.zoom < largest and "largest" not in app.notice[0]


def test_the_pictures_font_has_the_signs_and_replaces_what_it_lacks() -> None:
    """The tree pictures draw with the bundled DejaVu Sans (its licence beside it), which has every sign the
    pictures write: pygame's own font lacks "∞", so "+∞" read "+inf" beside "α" and "β" (issue 47). A character the
    font lacks is still replaced, never drawn as a box."""
    from gameplay.pictures.fonts import font_file
    from gameplay.pictures.tree_png import font_at, has_glyph, safe_text
    pygame.font.init()
    for bold in (False, True):
        path = font_file(bold)
        assert path is not None and path.parent.name == "fonts"
        assert (path.parent / "LICENSE-DejaVu.txt").is_file()
        for ch in "αβ≤≥∞Σ·≈→−":
            assert has_glyph(ch, font_at(25, bold)), (ch, bold)
    for s in ("≈ 1.2 million", "α=−∞ β=+∞", "≤ 3, ≥ 5", "b ≈ 3.1 → done"):
        assert safe_text(s) == s
    assert not has_glyph("∞", pygame.font.Font(None, 24))  # why the font is bundled
    lacking = "\u6f22"  # a Han character: DejaVu Sans has none
    assert not has_glyph(lacking) and safe_text(f"a {lacking} b") == "a ? b"


def test_a_number_stays_with_its_word_when_a_line_wraps(app: App) -> None:
    """"White: medium (alphabeta), depth 4, 1 s/move" broke as "... depth" / "4, 1 s/move" and "... 1" / "s/move"
    in the side panel at 1024x768 (a new user's finding): a number keeps the word after it, a word the number after
    it, unless punctuation ends the first."""
    units = [" ".join(u) for u in projector.word_groups("White: medium (alphabeta), depth 4, 1 s/move")]
    assert units == ["White:", "medium", "(alphabeta),", "depth 4,", "1 s/move"]
    played = "Player 1 played 12,345 nodes"
    assert [" ".join(u) for u in projector.word_groups(played)] == [played]
    text = "White: medium (alphabeta), depth 4, 1 s/move"
    font = projector.theme_font(app.manager, "#player")
    widest = max(font.get_rect(u).width for u in units)
    for width in range(widest, font.get_rect(text).width + 1, 7):
        lines = projector.wrap_text(app.manager, text, width, "#player")
        assert " ".join(lines) == text
        assert all(font.get_rect(line).width <= width for line in lines)
        assert not any(line.endswith(("depth", " 1")) or line.startswith(("4", "s/move")) for line in lines), lines
