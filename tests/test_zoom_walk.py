"""Projector zoom walk (headless): every zoom step the window offers, from the smallest to the largest, at 1280x800
and 1920x1080, in every scene (title, settings, the three matches, the search-tree overlay, the help window, the
Tree Lab, the resume prompt).

At each step the layout must hold: no two pygame_gui widgets overlap (containers excepted), no widget leaves the
window or its panel, no label or button text is cut (too wide for its rect, or shortened with an ellipsis by our
own fitting), no "Label Rect is too small" warning, the overlay's step-through text is drawn inside its panel, and
the board's area never shrinks as the zoom grows.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygame
import pygame_gui
import pytest
from pygame_gui.core.interfaces import IContainerLikeInterface
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UIHorizontalSlider,
    UILabel,
    UIScrollingContainer,
    UITextBox,
    UITextEntryLine,
    UITooltip,
    UIWindow,
)

from ai.agents import make_agent
from gameplay.ui import projector
from gameplay.ui.app import App
from gameplay.ui.match import MatchScene

COMPOSITES = (UIDropDownMenu, UIHorizontalSlider, UITextBox, UITextEntryLine)
"""Widgets made of other widgets: checked as one."""
SIZES = ((1280, 800), (1920, 1080))
SCENES = ("menu", "settings", "tictactoe", "checkers", "pig", "overlay", "help", "treelab", "resume")


# ----- what is on screen ----------------------------------------------------------------------------------------------
def _leaves(manager: pygame_gui.UIManager) -> list[Any]:
    """The visible widgets that are not containers, panels, windows or parts of a composite widget."""
    out = []
    for e in manager.get_sprite_group().sprites():
        if not getattr(e, "visible", True) or not e.alive() or isinstance(e, (IContainerLikeInterface, UITooltip)):
            continue
        if getattr(e, "parent_element", None) is not None and not isinstance(e.parent_element,
                                                                                 IContainerLikeInterface):
            continue  # a drop-down's button, a text box's scroll bar, a window's title bar...
        if isinstance(getattr(e, "parent_element", None), UIWindow):
            continue  # the window's title bar and close button
        out.append(e)
    return out


def _chain(e: Any) -> list[Any]:
    """The containers around ``e``, innermost first (the root container excluded)."""
    out = []
    c = e.ui_container
    while c is not None and getattr(c, "ui_container", None) not in (None, c) and len(out) < 20:
        out.append(c)
        c = c.ui_container
    return out


def _visible_rect(e: Any, problems: list[str], where: str, views: dict[int, Any]) -> pygame.Rect | None:
    """``e``'s rectangle clipped by the scrolling views around it (``None`` when scrolled out of sight); a widget
    sticking out of a plain panel or window is a problem."""
    r = pygame.Rect(e.rect)
    chain = _chain(e)
    scrolled = [i for i, c in enumerate(chain) if id(c) in views]
    for i, c in enumerate(chain):
        if scrolled and i < scrolled[-1]:
            continue  # the scrolled area itself is bigger than its view
        if id(c) in views:
            r = r.clip(c.get_rect())
            if r.width <= 0 or r.height <= 0:
                return None
        elif c.get_rect().width > 0 and not c.get_rect().contains(r):
            problems.append(f"{where}: {_name(e)} {tuple(e.rect)} outside its panel {tuple(c.get_rect())}")
    return r


def _name(e: Any) -> str:
    text = getattr(e, "text", None)
    return f"{type(e).__name__}({text!r})" if isinstance(text, str) else type(e).__name__


def _root(e: Any) -> Any:
    """The window ``e`` is in (``None``: the screen)."""
    for c in _chain(e):
        if isinstance(getattr(c, "parent_element", None), UIWindow):
            return c.parent_element
    return None


def _text_problems(e: Any, where: str) -> list[str]:
    out = []
    text = getattr(e, "text", None)
    if isinstance(e, (UILabel, UIButton)) and isinstance(text, str) and text:
        if "…" in text:
            out.append(f"{where}: {_name(e)} is shortened")
        font = e.font
        w, h = font.get_rect(text).size if isinstance(e, UILabel) else font.size(text)
        room_w = e.rect.width - (4 if isinstance(e, UIButton) else 0)  # a button's borders
        if w > room_w or h > e.rect.height:
            out.append(f"{where}: {_name(e)} text {w}x{h} does not fit {e.rect.width}x{e.rect.height}")
    if isinstance(e, UIDropDownMenu):
        chosen = e.selected_option[0] if isinstance(e.selected_option, tuple) else str(e.selected_option)
        button = getattr(e.current_state, "selected_option_button", None)
        if button is not None:
            w = button.font.size(chosen)[0]
            if w > button.rect.width - 4:
                out.append(f"{where}: drop-down {chosen!r} {w} px does not fit {button.rect.width}")
    return out


def layout_problems(app: App, where: str) -> list[str]:
    """Overlaps, widgets outside the window or their panel, and cut texts of what the App shows now."""
    problems: list[str] = []
    screen = pygame.Rect((0, 0), app.size)
    shown: list[tuple[Any, Any, pygame.Rect]] = []
    views = {id(s._view_container): s for s in app.manager.get_sprite_group().sprites()
             if isinstance(s, UIScrollingContainer)}
    for e in _leaves(app.manager):
        if e.rect.width <= 0 or e.rect.height <= 0:
            continue  # an unused scroll bar
        r = _visible_rect(e, problems, where, views)
        if r is None:
            continue
        if not screen.contains(r):
            problems.append(f"{where}: {_name(e)} {tuple(e.rect)} outside the window {app.size}")
        if _root(e) is None or screen.contains(_root(e).rect):
            problems += _text_problems(e, where)
        shown.append((e, _root(e), r))
    for e in app.manager.get_sprite_group().sprites():
        if isinstance(e, UIWindow) and e.visible and not screen.contains(e.rect):
            problems.append(f"{where}: window {tuple(e.rect)} outside the window {app.size}")
    for i, (a, ra, rect_a) in enumerate(shown):
        for b, rb, rect_b in shown[i + 1:]:
            if ra is rb and rect_a.clip(rect_b).width > 0 and rect_a.clip(rect_b).height > 0:
                problems.append(f"{where}: {_name(a)} {tuple(a.rect)} overlaps {_name(b)} {tuple(b.rect)}")
    return problems


# ----- the overlay's side panel ---------------------------------------------------------------------------------------
class _Recorder(pygame.Surface):
    """A surface that remembers where each blit went."""

    def __init__(self, size: tuple[int, int]) -> None:
        super().__init__(size)
        self.blits: list[tuple[int, pygame.Rect]] = []

    def blit(self, source: Any, dest: Any, *args: Any, **kwargs: Any) -> pygame.Rect:  # type: ignore[override]
        r = source.get_rect(topleft=dest[:2] if not isinstance(dest, pygame.Rect) else dest.topleft)
        self.blits.append((id(source), r))
        return super().blit(source, dest, *args, **kwargs)


def overlay_problems(scene: MatchScene, where: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The step-through heading and its first line must be drawn inside the overlay's side panel."""
    from gameplay.ui import overlay_draw as draw_module  # draw_side looks ``_font`` up in its own module
    ov = scene.overlay
    rendered: dict[int, str] = {}
    keep: list[pygame.Surface] = []  # every rendered image stays alive: no id is reused for another text
    real_font = draw_module._font

    class _Font:
        def __init__(self, font: pygame.font.Font) -> None:
            self._f = font

        def __getattr__(self, name: str) -> Any:
            return getattr(self._f, name)

        def render(self, text: str, *args: Any) -> pygame.Surface:
            img = self._f.render(text, *args)
            rendered[id(img)] = text
            keep.append(img)
            return img

    monkeypatch.setattr(draw_module, "_font", lambda px, bold=False: _Font(real_font(px, bold)))
    try:
        surface = _Recorder(pygame.display.get_surface().get_size())
        ov.draw(surface)
    finally:
        monkeypatch.setattr(draw_module, "_font", real_font)
    side = ov.side_rect
    texts = [(rendered[i], r) for i, r in surface.blits if i in rendered]
    problems = []
    heading = [r for t, r in texts if t == "Step-through"]
    if not heading or not side.contains(heading[0]):
        problems.append(f"{where}: overlay step-through heading not inside the side panel {tuple(side)}")
    else:
        after = [(t, r) for t, r in texts if r.top > heading[0].top and side.colliderect(r)]
        if not after or not side.contains(after[0][1]):
            problems.append(f"{where}: overlay step-through text hidden (side panel {tuple(side)})")
    for t, r in texts:
        if not ov.rect.contains(r):
            problems.append(f"{where}: overlay text {t!r} {tuple(r)} outside the overlay {tuple(ov.rect)}")
    for name, r, _label in ov._buttons:
        if not ov.bar_rect.contains(r):
            problems.append(f"{where}: overlay button {name} {tuple(r)} outside its bar {tuple(ov.bar_rect)}")
    return problems


# ----- the walk -----------------------------------------------------------------------------------------------------
def frames(app: App, n: int = 1) -> None:
    app.run(max_frames=n)


def _open(app: App, which: str) -> Callable[[], Any]:
    """Open scene ``which``; returns what to look at after each zoom step (the board rect, or ``None``)."""
    if which == "menu":
        app.open_menu()
    elif which == "settings":
        app.open_settings("checkers")
    elif which == "treelab":
        app.open_tree_lab()
    elif which in ("tictactoe", "checkers", "pig"):
        app.start_match(which, make_agent(which, "human"), make_agent(which, "medium"))
    elif which == "help":
        app.start_match("checkers", make_agent("checkers", "human"), make_agent("checkers", "human"))
        scene = app.scene
        assert isinstance(scene, MatchScene)
        scene.aids.toggle_help()
    elif which == "overlay":
        scene = app.start_match("tictactoe", make_agent("tictactoe", "human"),
                                make_agent("tictactoe", "beginner"))
        scene.ai_delay_s = 0.0
        frames(app, 2)
        scene.play(4, "human")
        for _ in range(3000):
            if scene.last_decision is not None and scene.runner.idle():
                break
            frames(app)
        assert scene.last_decision is not None
        scene.toggle_overlay()
        scene.overlay.next_step()
        scene.overlay.next_step()
    elif which == "resume":
        app.open_menu()
        scene = app.start_match("checkers", make_agent("checkers", "human"), make_agent("checkers", "human"))
        scene.play(scene.game.actions(scene.record.state)[0], "human")  # autosaved
        app.open_menu()
        assert app.offer_autosave() is not None
    frames(app, 2)
    scene = app.scene
    return lambda: pygame.Rect(scene.board_rect) if isinstance(scene, MatchScene) else None


def _check_help(app: App, where: str) -> list[str]:
    scene = app.scene
    if not isinstance(scene, MatchScene):
        return []
    help_window = scene.aids.help
    if help_window is None or not help_window.alive or help_window.window.ui_manager is not app.manager:
        return [f"{where}: the help window is gone"]
    return []


def walk(sizes: tuple[tuple[int, int], ...] = SIZES, scenes: tuple[str, ...] | list[str] | None = None,
         shots: str | None = None, monkeypatch: pytest.MonkeyPatch | None = None) -> list[str]:
    """Every zoom step of every scene at every size; returns the problems found."""
    problems: list[str] = []
    mp = monkeypatch or pytest.MonkeyPatch()
    from gameplay.ui import pig_view
    real_text = pig_view.PigView._text
    cut: list[str] = []

    def spy_text(self: Any, surf: Any, text: str, pos: Any, size: int, colour: Any, *, bold: bool = False,
                 anchor: str = "topleft", max_width: int | None = None) -> pygame.Rect:
        if max_width is not None and self._font(size, bold).size(text)[0] > max_width:
            cut.append(text)
        return real_text(self, surf, text, pos, size, colour, bold=bold, anchor=anchor, max_width=max_width)

    mp.setattr(pig_view.PigView, "_text", spy_text)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _walk(sizes, scenes, shots, mp, problems, cut, caught)
    if monkeypatch is None:
        mp.undo()
    return problems


def _walk(sizes: Any, scenes: Any, shots: str | None, mp: pytest.MonkeyPatch, problems: list[str],
          cut: list[str], caught: list[Any]) -> None:
    for size in sizes:
        app = App(size=size, fps=1000)
        try:
            for which in scenes or SCENES:
                board = _open(app, which)
                app.zoom(0)
                while True:  # down to the smallest step
                    before = app.display.zoom
                    app.zoom(-1)
                    if app.display.zoom == before:
                        break
                last_area = 0
                steps = []
                while True:
                    frames(app)
                    where = f"{size[0]}x{size[1]} {which} zoom {app.display.zoom:g} (scale {projector.scale():g})"
                    steps.append(app.display.zoom)
                    problems += [f"{where}: warning {w.message}" for w in caught
                                 if "Label Rect is too small" in str(w.message)]
                    caught.clear()
                    problems += layout_problems(app, where)
                    if cut:
                        problems.append(f"{where}: drawn text shortened: {cut[:3]}")
                        cut.clear()
                    if which == "overlay":
                        assert isinstance(app.scene, MatchScene)
                        problems += overlay_problems(app.scene, where, mp)
                    if which == "help":
                        problems += _check_help(app, where)
                    if which == "resume" and (app.resume_prompt is None or not app.resume_prompt.alive):
                        problems.append(f"{where}: the resume prompt is gone")
                    rect = board()
                    if rect is not None:
                        area = rect.width * rect.height
                        if area < last_area:
                            problems.append(f"{where}: the board shrank to {tuple(rect)}")
                        last_area = area
                    if shots and (app.display.zoom in (steps[0],) or app.display.zoom >= 1.0):
                        Path(shots).mkdir(parents=True, exist_ok=True)
                        name = f"{shots}/{which}_{size[0]}x{size[1]}_{app.display.zoom:g}.png"
                        pygame.image.save(pygame.display.get_surface(), name)
                    before = app.display.zoom
                    app.zoom(1)
                    if app.display.zoom == before:
                        break
                if len(steps) < 3:
                    problems.append(f"{size} {which}: only the zoom steps {steps}")
                app.zoom(0)
                if which == "resume":
                    app._close_resume_prompt()
        finally:
            app.close()
            projector.set_current(projector.Display())


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("ARCADE_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("ARCADE_DATA_DIR", str(tmp_path))
    yield
    projector.set_current(projector.Display())


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_zoom_step_of_every_scene_lays_out_cleanly(size: tuple[int, int],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    problems = walk((size,), monkeypatch=monkeypatch)
    assert not problems, "\n".join(problems[:40]) + f"\n({len(problems)} problems)"
