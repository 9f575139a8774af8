"""The projector walk's detectors (``tests/zoom_walk.py``): what a layout problem is in the widgets, the text the
scenes draw themselves and the tree overlay's panel, at one zoom step."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pygame
import pygame_gui
import pytest
from pygame_gui.core.interfaces import IContainerLikeInterface
from pygame_gui.core.utility import translate
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

from gameplay.ui.play.match import MatchScene
from gameplay.ui.shell.app import App
from gameplay.ui.widgets import projector

COMPOSITES = (UIDropDownMenu, UIHorizontalSlider, UITextBox, UITextEntryLine)
"""Widgets made of other widgets: checked as one."""



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
            clipped = r.clip(c.get_rect())
            if clipped.width <= 0 or clipped.height <= 0:
                return None
            if clipped.width < r.width and getattr(views[id(c)], "horiz_scroll_bar", None) is None:
                # cut at the side of a view that does not scroll sideways (under its vertical scroll bar)
                problems.append(f"{where}: {_name(e)} {tuple(e.rect)} cut by the side of its scrolled view "
                                f"{tuple(c.get_rect())}")
            r = clipped
        elif c.get_rect().width > 0 and not c.get_rect().contains(r):
            problems.append(f"{where}: {_name(e)} {tuple(e.rect)} outside its panel {tuple(c.get_rect())}")
    return r


def _name(e: Any) -> str:
    text = getattr(e, "text", None)
    if not isinstance(text, str):
        return type(e).__name__
    return f"{type(e).__name__}({translate(text, **getattr(e, 'text_kwargs', {}))!r})"


def _root(e: Any) -> Any:
    """The window ``e`` is in (``None``: the screen)."""
    for c in _chain(e):
        if isinstance(getattr(c, "parent_element", None), UIWindow):
            return c.parent_element
    return None


def _text_problems(e: Any, where: str) -> list[str]:
    out = []
    text = getattr(e, "text", None)
    if isinstance(text, str):
        text = translate(text, **getattr(e, "text_kwargs", {}))  # pygame_gui's own dialogs: "pygame-gui.Cancel"
    if isinstance(e, (UILabel, UIButton)) and isinstance(text, str) and text:
        if "…" in text:
            out.append(f"{where}: {_name(e)} is shortened")
        font = e.font
        w, h = font.get_rect(text).size if isinstance(e, UILabel) else font.size(text)
        room_w = e.rect.width - (4 if isinstance(e, UIButton) else 0)  # a button's borders
        if w > room_w or h > e.rect.height:
            out.append(f"{where}: {_name(e)} text {w}x{h} does not fit {e.rect.width}x{e.rect.height}")
    if isinstance(e, UITextEntryLine) and not e.get_text() and e.placeholder_text:  # the hint in an empty field
        hint = translate(e.placeholder_text)
        room = e.rect.width - 2 * (e.padding[0] + e.shadow_width + 2)
        if e.font.size(hint)[0] > room:
            out.append(f"{where}: text field hint {hint!r} does not fit {e.rect.width} px")
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
    # each scrolling container by its view (the clipping container its scrolled area sits in)
    views = {id(s.get_container().ui_container): s for s in app.manager.get_sprite_group().sprites()
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


# ----- text the scenes draw themselves ------------------------------------------------------------------------------
@dataclass
class DrawnText:
    """Texts the scenes drew shortened (an ellipsis from ``projector.fit_text``, or Pig's ``max_width``)."""

    cut: list[str] = field(default_factory=list)
    allowed: Callable[[str], bool] = lambda text: False
    """Texts that may be shortened in the scene walked now (a file's data in a list cell, a long message)."""

    def take(self) -> list[str]:
        out, self.cut = self.cut, []
        return out


@contextmanager
def spy_drawn_text(mp: pytest.MonkeyPatch) -> Iterator[DrawnText]:
    """Record every drawn text shortened to fit (the modules that draw their own text)."""
    from gameplay.ui.boards import pig_view
    from gameplay.ui.play import race_draw
    from gameplay.ui.scenes import pdn_browser, pdn_list
    seen = DrawnText()
    real_fit = projector.fit_text

    def fit(text: str, f: Any, width: int) -> str:
        out = real_fit(text, f, width)
        if out != text and not seen.allowed(text):
            seen.cut.append(text)
        return out
    for module in (projector, race_draw, pdn_list, pdn_browser):
        mp.setattr(module, "fit_text" if module is projector else "fit", fit)
    real_text = pig_view.PigView.draw_text

    def spy_text(self: Any, surf: Any, text: str, pos: Any, size: int, colour: Any, *, bold: bool = False,
                 anchor: str = "topleft", max_width: int | None = None) -> pygame.Rect:
        if max_width is not None and self.font(size, bold).size(text)[0] > max_width:
            seen.cut.append(text)
        return real_text(self, surf, text, pos, size, colour, bold=bold, anchor=anchor, max_width=max_width)

    mp.setattr(pig_view.PigView, "draw_text", spy_text)
    yield seen


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
    from gameplay.ui.overlay import overlay_draw as draw_module  # draw_side looks ``ui_font`` up in its own module
    ov = scene.overlay
    rendered: dict[int, str] = {}
    keep: list[pygame.Surface] = []  # every rendered image stays alive: no id is reused for another text
    real_font = draw_module.ui_font

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

    monkeypatch.setattr(draw_module, "ui_font", lambda px, bold=False: _Font(real_font(px, bold)))
    try:
        surface = _Recorder(pygame.display.get_surface().get_size())
        ov.draw(surface)
    finally:
        monkeypatch.setattr(draw_module, "ui_font", real_font)
    side = ov.side_rect
    texts = [(rendered[i], r) for i, r in surface.blits if i in rendered]
    problems = []
    if ov.show_side:  # the counter panel beside the tree: its step-through part drawn in it
        heading = [r for t, r in texts if t == "Step-through"]
        if not heading or not side.contains(heading[0]):
            problems.append(f"{where}: overlay step-through heading not inside the side panel {tuple(side)}")
        else:
            after = [(t, r) for t, r in texts if r.top > heading[0].top and side.colliderect(r)]
            if not after or not side.contains(after[0][1]):
                problems.append(f"{where}: overlay step-through text hidden (side panel {tuple(side)})")
    else:  # no room for it: the step's sentence in the band under the tree, whole
        lines, height = ov.drawn_narration
        band = ov.narration_rect
        if not lines or band.height < len(lines) * height or not ov.rect.contains(band):
            problems.append(f"{where}: overlay narration {lines!r} does not fit its band {tuple(band)}")
    for t, r in texts:
        if not ov.rect.contains(r):
            problems.append(f"{where}: overlay text {t!r} {tuple(r)} outside the overlay {tuple(ov.rect)}")
    for name, r, _label in ov.buttons:
        if not ov.bar_rect.contains(r):
            problems.append(f"{where}: overlay button {name} {tuple(r)} outside its bar {tuple(ov.bar_rect)}")
    return problems
