"""Projector mode: interface scale, high-contrast theme and the palette the board views read.

A teacher drives the arcade on a projector: text must be readable from the back of the room, and a presenter's
clicker only sends Page Up / Page Down / B. This module holds the display settings and turns them into what the
window uses:

* :class:`Display`: the interface scale (an automatic part chosen from the window height, times the user's zoom
  set with Ctrl+plus / Ctrl+minus / Ctrl+0) and the theme name (``"normal"`` or ``"high_contrast"``).
* :func:`scaled_theme`: the pygame_gui theme (``theme.json``) with every font size, padding, border width,
  corner radius and list-item height multiplied by the scale, and for high contrast the colours replaced by
  black / white / yellow with thicker borders. :func:`make_manager` loads it into a fresh ``UIManager``, so text
  is re-rendered at its new size (crisp), never pixel-scaled.
* :class:`Palette`: the colours the board views and the match background read (:func:`palette`), and
  :func:`px` / :func:`scale`: how the views, the overlay and the scenes size their own text and rows.

The current display is a module-level value (:func:`current`, :func:`set_current`) because board views are made
without a reference to the App; the App sets it whenever the scale or theme changes.

Projector mode, as tested: fullscreen, or a window at least :data:`PROJECTOR_HEIGHT` pixels high, where the
automatic scale is at least 1.35 (pygame_gui body text >= 24 px, board labels >= 20 px).

Nothing happens at import time: pygame_gui is imported by :func:`make_manager` only.
"""

from __future__ import annotations

import copy
import json
import math
import re
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gameplay.files.settings_fields import WINDOW_MIN
from gameplay.pictures.fonts import FontCache, font_file

if TYPE_CHECKING:
    import pygame
    import pygame_gui
    from pygame_gui.core.interfaces import IGUIFontInterface

RGB = tuple[int, int, int]
THEME_PATH = Path(__file__).parent.parent / "theme.json"
"""The base pygame_gui theme (scale 1, normal colours)."""
THEMES = ("normal", "high_contrast")
"""Theme names (the ``theme`` field of the settings)."""
BASE_HEIGHT = 800
"""Window height (pixels) at which the automatic scale is 1.0."""
PROJECTOR_HEIGHT = 1080
"""Window height (pixels) at which the automatic scale is :data:`PROJECTOR_SCALE`."""
PROJECTOR_SCALE = 1.35
"""Automatic scale at 1080 pixels: the theme's 18-20 px body text becomes 24-27 px."""
MIN_SCALE, MAX_SCALE = 0.6, 3.0
"""Bounds of the total scale (automatic x zoom)."""
ZOOM_STEPS = (0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.25, 1.4, 1.6, 1.8, 2.0)
"""The user's zoom factors, stepped through with Ctrl+plus / Ctrl+minus (Ctrl+0: 1.0)."""
FIT_WINDOW = (1024, 640)
"""The smallest window (design pixels, i.e. at scale 1) every scene lays out in without overlaps or cut text.

A window of ``w`` x ``h`` pixels therefore takes a total scale up to ``min(w / 1024, h / 640)``
(:func:`max_scale_for`): the zoom steps beyond it are not offered (:func:`zoom_steps_for`), and a saved zoom is
clamped to them on load. ``tests/test_zoom_walk.py`` walks every offered step of every scene."""
DEFAULT_WINDOW = (1280, 800)
"""The window's size (pixels) when the display has room for it and no other size was remembered."""
MIN_WINDOW = WINDOW_MIN
"""The smallest window (pixels) the App lets itself be resized to (the settings file's smallest window size)."""
DECORATIONS = (0, 80)
"""Pixels of the desktop a window leaves to the rest of the screen: its title bar and the taskbar, dock or top
bar (about 30-40 px each on Windows, GNOME and macOS). A window opens at most the desktop size minus these."""
BOLD_TEXT_BOX_PX = 19
"""Font size (scale 1) of the text boxes' ``<b>`` text, the one font the theme does not load itself."""
HC_BLACK, HC_WHITE, HC_YELLOW, HC_GREY = "#000000", "#FFFFFF", "#FFE600", "#B8B8B8"
"""High-contrast theme colours: black background, white text and borders, yellow for focus and highlights."""


# ----------------------------------------------------------------------------------------------------------------
# Palette
# ----------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Palette:
    """Colours (RGB) the board views and the match background read; one per theme."""

    name: str
    """Theme name: ``"normal"`` or ``"high_contrast"``."""
    background: RGB
    """Window background behind the board and panel."""
    board: RGB
    """Board frame / card background (tic-tac-toe board, Pig cards)."""
    edge: RGB
    """Card and frame outlines."""
    tile: RGB
    """An empty tic-tac-toe cell."""
    tile_last: RGB
    """The cell of the last move."""
    tile_win: RGB
    """Cells of the winning line."""
    tile_hover: RGB
    """The cell under the mouse."""
    text: RGB
    """Main text."""
    muted: RGB
    """Secondary text (hints, captions)."""
    label: RGB
    """Board labels: cell indices, square numbers."""
    accent: RGB
    """Highlights: the winning line, the player to move."""
    outline: RGB
    """Outline of the last move's cell and of the tiles (high contrast)."""
    players: tuple[RGB, RGB]
    """Colours of player 1 and player 2 (X and O, Pig's P1 and P2)."""
    line_width: int
    """Outline width multiplier (2 in high contrast: thicker borders)."""


NORMAL = Palette(name="normal", background=(22, 26, 36), board=(30, 35, 50), edge=(46, 53, 72),
                 tile=(42, 48, 68), tile_last=(55, 64, 92), tile_win=(78, 70, 44), tile_hover=(58, 67, 96),
                 text=(232, 236, 244), muted=(133, 144, 170), label=(92, 102, 130), accent=(255, 213, 79),
                 outline=(96, 112, 160), players=((79, 195, 247), (255, 138, 101)), line_width=1)
"""The arcade's dark-blue look."""
HIGH_CONTRAST = Palette(name="high_contrast", background=(0, 0, 0), board=(0, 0, 0), edge=(255, 255, 255),
                        tile=(0, 0, 0), tile_last=(40, 40, 40), tile_win=(90, 80, 0), tile_hover=(60, 60, 60),
                        text=(255, 255, 255), muted=(220, 220, 220), label=(255, 255, 255),
                        accent=(255, 230, 0), outline=(255, 255, 255), players=((0, 200, 255), (255, 230, 0)),
                        line_width=2)
"""Black, white and yellow with thicker outlines (the players stay distinguishable without colour: X / O)."""
PALETTES = {"normal": NORMAL, "high_contrast": HIGH_CONTRAST}


# ----------------------------------------------------------------------------------------------------------------
# Display settings
# ----------------------------------------------------------------------------------------------------------------
def default_scale(height: int) -> float:
    """The automatic interface scale for a window ``height`` pixels high.

    Linear through (800 px, 1.0) and (1080 px, 1.35), never under 1.0 (small windows keep the designed size),
    rounded to 0.05 so that resizing a window does not rebuild the theme on every pixel.

    Args:
        height: window height in pixels.

    Returns:
        The scale, in [1.0, :data:`MAX_SCALE`].
    """
    slope = (PROJECTOR_SCALE - 1.0) / (PROJECTOR_HEIGHT - BASE_HEIGHT)
    s = 1.0 + max(0, height - BASE_HEIGHT) * slope
    return min(MAX_SCALE, round(s * 20) / 20)


@dataclass(frozen=True)
class Display:
    """What the interface looks like: the total scale and the theme.

    Args:
        auto: the automatic scale from the window height (:func:`default_scale`).
        zoom: the user's factor (Ctrl+plus / Ctrl+minus; 1.0 after Ctrl+0); the settings' ``ui_scale``.
        theme: ``"normal"`` or ``"high_contrast"``.
    """

    auto: float = 1.0
    zoom: float = 1.0
    theme: str = "normal"
    max_zoom: float = ZOOM_STEPS[-1]
    """The largest zoom step the window has room for (:func:`max_zoom_for`); Ctrl+plus stops there."""

    @property
    def scale(self) -> float:
        """The total scale ``auto * zoom``, clamped to [:data:`MIN_SCALE`, :data:`MAX_SCALE`], 2 decimals rounded
        down (:func:`total_scale`)."""
        return total_scale(self.auto, self.zoom)

    @property
    def palette(self) -> Palette:
        """The views' colours for :attr:`theme` (normal when unknown)."""
        return PALETTES.get(self.theme, NORMAL)

    @property
    def high_contrast(self) -> bool:
        """True for the high-contrast theme."""
        return self.theme == "high_contrast"

    def zoomed(self, direction: int) -> Display:
        """The display one zoom step larger (``direction`` > 0), smaller (< 0) or reset to 1.0 (0)."""
        steps = [z for z in ZOOM_STEPS if z <= self.max_zoom + 1e-6] or [ZOOM_STEPS[0]]
        if direction == 0:
            return replace(self, zoom=min(1.0, steps[-1]))
        if direction > 0:
            bigger = [z for z in steps if z > self.zoom + 1e-6]
            return replace(self, zoom=bigger[0] if bigger else steps[-1])
        smaller = [z for z in steps if z < self.zoom - 1e-6]
        return replace(self, zoom=smaller[-1] if smaller else steps[0])


def window_size_for(desktop: tuple[int, int] | None,
                    wanted: tuple[int, int] | None = None) -> tuple[int, int]:
    """The size a window opens at: ``wanted`` (a remembered size), else :data:`DEFAULT_WINDOW`, shrunk to the room
    the desktop leaves (the desktop minus :data:`DECORATIONS`).

    Never smaller than :data:`MIN_WINDOW` (the smallest the interface lays out in), unless the desktop itself is
    smaller; never larger than the desktop.

    Args:
        desktop: the desktop's size in pixels (``pygame.display.get_desktop_sizes()[0]``), or ``None`` when there
            is no display to fit (SDL's dummy driver): then ``wanted`` or the default, at least the minimum.
        wanted: the size asked for (width, height), or ``None`` for the default.

    Returns:
        (width, height) in pixels, e.g. ``(1280, 640)`` on a 1280x720 desktop, ``(1280, 800)`` on 1920x1080.
    """
    w, h = wanted if wanted is not None else DEFAULT_WINDOW
    if desktop is not None:
        w, h = min(w, desktop[0] - DECORATIONS[0]), min(h, desktop[1] - DECORATIONS[1])
    w, h = max(MIN_WINDOW[0], w), max(MIN_WINDOW[1], h)
    if desktop is not None:
        w, h = min(w, desktop[0]), min(h, desktop[1])
    return w, h


def total_scale(auto: float, zoom: float) -> float:
    """``auto * zoom`` clamped to [:data:`MIN_SCALE`, :data:`MAX_SCALE`] and cut to 2 decimals, rounded down: a
    step that fits exactly stays offered (1.35 x 1.25 = 1.6875 at 1920x1080 is 1.68, which fits 1080 / 640; rounded
    up to 1.69 it did not, and a 1080p projector got only one zoom step)."""
    return math.floor(min(MAX_SCALE, max(MIN_SCALE, auto * zoom)) * 100 + 1e-6) / 100


def max_scale_for(size: tuple[int, int]) -> float:
    """The largest total scale at which every scene fits a window of ``size`` pixels (see :data:`FIT_WINDOW`)."""
    return min(MAX_SCALE, size[0] / FIT_WINDOW[0], size[1] / FIT_WINDOW[1])


def max_zoom_for(size: tuple[int, int], auto: float) -> float:
    """The largest zoom step (:data:`ZOOM_STEPS`) whose total scale ``auto * zoom`` fits a window of ``size``.

    The smallest step is always allowed (a window too small for it is as small as the App lets it get).
    """
    limit = max_scale_for(size) + 1e-6
    fitting = [z for z in ZOOM_STEPS if total_scale(auto, z) <= limit]
    return fitting[-1] if fitting else ZOOM_STEPS[0]


def fitted_display(display: Display, size: tuple[int, int]) -> Display:
    """``display`` for a window of ``size``: its automatic scale from the height, its largest zoom step from the
    room, and its zoom clamped to that step (and snapped to the nearest step at or below it)."""
    auto = default_scale(size[1])
    top = max_zoom_for(size, auto)
    zoom = min(float(display.zoom), top)
    snapped = [z for z in ZOOM_STEPS if z <= zoom + 1e-6]
    return replace(display, auto=auto, zoom=snapped[-1] if snapped else ZOOM_STEPS[0], max_zoom=top)


_CURRENT: list[Display] = [Display()]


def current() -> Display:
    """The display the window uses now (scale 1, normal theme until the App sets one)."""
    return _CURRENT[0]


def set_current(display: Display) -> None:
    """Make ``display`` current (the App calls it; views read it on their next draw)."""
    _CURRENT[0] = display


def scale() -> float:
    """The current interface scale (1.0 = the designed sizes at 1280x800)."""
    return current().scale


def px(n: float) -> int:
    """``n`` design pixels at the current scale, rounded (at least 1 for a positive ``n``)."""
    v = round(n * current().scale)
    return max(1, v) if n > 0 else v


def palette() -> Palette:
    """The current views' palette."""
    return current().palette


_UI_FONTS = FontCache()
"""The fonts of :func:`ui_font` and :func:`default_font`, by (kind, pixel size, bold)."""


def ui_font(size_px: int, bold: bool = False) -> pygame.font.Font:
    """The window's UI font (Noto Sans, shipped with pygame_gui) at ``size_px`` pixels, for views' labels.

    Falls back to pygame's default font at the same effective size (its ``point_size`` is ``size_px`` too) when the
    file is missing. Cached here (:class:`gameplay.pictures.fonts.FontCache`, let go when the window closes): a view
    asks for its font when it draws and keeps only the size, never the font.
    """
    def make() -> pygame.font.Font:
        import pygame
        import pygame_gui
        name = "NotoSans-Bold.ttf" if bold else "NotoSans-Regular.ttf"
        path = Path(pygame_gui.__file__).parent / "data" / name
        try:
            return pygame.font.Font(str(path), size_px)
        except (OSError, pygame.error):
            font = pygame.font.Font(None, round(size_px / 0.6875))  # the default font is drawn at 0.6875 x size
            font.set_bold(bold)
            return font

    return _UI_FONTS.get(("ui", size_px, bold), make)


def default_font(size: int) -> pygame.font.Font:
    """pygame's default font (FreeSans Bold) as ``pygame.font.Font(None, size)`` makes it, cached as :func:`ui_font`."""
    def make() -> pygame.font.Font:
        import pygame
        return pygame.font.Font(None, size)

    return _UI_FONTS.get(("default", size, False), make)


def is_projector(size: tuple[int, int], fullscreen: bool) -> bool:
    """Projector mode: fullscreen, or a window at least :data:`PROJECTOR_HEIGHT` pixels high."""
    return fullscreen or size[1] >= PROJECTOR_HEIGHT


# ----------------------------------------------------------------------------------------------------------------
# The pygame_gui theme
# ----------------------------------------------------------------------------------------------------------------
@cache
def _base_theme_text(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")


def load_base_theme(path: str | Path = THEME_PATH) -> dict[str, Any]:
    """The base theme as a fresh dictionary (the file is read once).

    Raises:
        OSError: the file cannot be read.
        json.JSONDecodeError: the file is not JSON.
    """
    data: dict[str, Any] = json.loads(_base_theme_text(str(path)))
    return with_bundled_font(data)


BUNDLED_FONT = "dejavu_sans"
"""The theme's name of the bundled DejaVu Sans (:func:`gameplay.pictures.fonts.font_file`): the widgets that write
the search's signs (``α β ≤ ≥ ∞``: the cut-off rule's drop-downs, the Tree Lab's comparison box) use it, because
pygame_gui's own Noto Sans lacks ``≤ ≥ ∞``."""


CUTOFF_RULE = "#cutoff_rule"
"""The object id of the cut-off rule's drop-downs (the Tree Lab's, Settings'): in :data:`BUNDLED_FONT`."""
COUNTS = "#counts"
"""The object id of the Tree Lab's comparison box (it names the cut-off rule): in :data:`BUNDLED_FONT`."""


def with_bundled_font(theme: dict[str, Any]) -> dict[str, Any]:
    """``theme`` (changed in place and returned) with the files of every font named :data:`BUNDLED_FONT`: the
    bundled DejaVu Sans, regular and bold (italic as regular); a copy without the font files gets Noto Sans
    instead."""
    regular, bold = font_file(False), font_file(True)
    for block in theme.values():
        font = block.get("font") if isinstance(block, dict) else None
        if not isinstance(font, dict) or font.get("name") != BUNDLED_FONT:
            continue
        if regular is None or bold is None:
            font["name"] = "noto_sans"
            continue
        font.update(regular_path=str(regular), bold_path=str(bold), italic_path=str(regular),
                    bold_italic_path=str(bold))
    return theme


def _scale_number_text(text: str, k: float, minimum: int = 0) -> str:
    """Scale each integer in ``text`` (``"20"``, ``"10,8"``) by ``k``."""
    return re.sub(r"\d+(?:\.\d+)?", lambda m: str(max(minimum, round(float(m.group()) * k))), text)


_SCALED_MISC = ("shape_corner_radius", "padding", "list_item_height", "text_box_padding", "tool_tip_delay_px")
_BORDER_KEYS = ("border_width",)


def _hc_colour(block: str, key: str, value: str) -> str:
    """The high-contrast replacement for colour ``key`` of theme block ``block`` (transparent stays so)."""
    if isinstance(value, str) and value.startswith("#") and len(value) == 9 and value[-2:] == "00":
        return value  # a transparent background stays transparent
    if block == "#banner":
        return {"dark_bg": HC_YELLOW, "normal_text": HC_BLACK}.get(key, value)
    if key.endswith("_bg"):
        return HC_YELLOW if key.split("_")[0] in ("hovered", "selected", "active") else HC_BLACK
    if key.endswith("_text") or key == "text_cursor":
        if key.startswith("disabled"):
            return HC_GREY
        if key.startswith(("hovered", "selected", "active")):
            return HC_BLACK
        if key.startswith("link"):
            return HC_YELLOW
        return HC_WHITE
    if key.endswith("_border"):
        if key.startswith("disabled"):
            return HC_GREY
        return HC_YELLOW if key.startswith(("hovered", "selected", "active")) else HC_WHITE
    if key.startswith("link"):
        return HC_YELLOW if key == "link_text" else HC_WHITE
    return value


_HC_EXTRA_BLOCKS = ("button", "drop_down_menu", "text_entry_line", "text_box", "panel", "tool_tip",
                    "horizontal_slider", "selection_list", "window")
"""Blocks given explicit high-contrast colours (and thick borders) even when the base theme leaves them out."""


def scaled_theme(base: dict[str, Any], scale: float, theme: str = "normal") -> dict[str, Any]:
    """The pygame_gui theme ``base`` at ``scale``, in ``theme`` colours.

    Font sizes, paddings, corner radii, list-item heights and border widths are multiplied by ``scale``
    (rounded; borders at least 1 px, and in high contrast at least 2 px and twice as thick). High contrast replaces
    every colour: black backgrounds, white text and borders, yellow hover / selection / focus (black text on it).

    Args:
        base: the theme dictionary (:func:`load_base_theme`); not changed.
        scale: interface scale (1.0 = as designed).
        theme: ``"normal"`` or ``"high_contrast"``.

    Returns:
        A new theme dictionary (what ``UIManager(size, theme)`` and ``load_theme`` accept).
    """
    hc = theme == "high_contrast"
    out = copy.deepcopy(base)
    if hc:
        defaults = out.setdefault("defaults", {})
        colours = defaults.setdefault("colours", {})
        for key in ("normal_bg", "hovered_bg", "disabled_bg", "selected_bg", "active_bg", "dark_bg",
                    "normal_text", "hovered_text", "disabled_text", "selected_text", "active_text",
                    "normal_border", "hovered_border", "disabled_border", "selected_border", "active_border",
                    "link_text", "link_hover", "link_selected", "text_cursor"):
            colours.setdefault(key, "#000000")
        for block in _HC_EXTRA_BLOCKS:
            misc = out.setdefault(block, {}).setdefault("misc", {})
            misc.setdefault("border_width", "1")
    for block, data in out.items():
        if not isinstance(data, dict):
            continue
        font = data.get("font")
        if isinstance(font, dict) and "size" in font:
            font["size"] = str(max(8, round(float(font["size"]) * scale)))
        misc = data.get("misc")
        if isinstance(misc, dict):
            for key in _SCALED_MISC:
                if key in misc:
                    misc[key] = _scale_number_text(str(misc[key]), scale)
            for key in _BORDER_KEYS:
                if key in misc:
                    width = float(misc[key])
                    if width > 0 or hc:
                        width = max(1, round(width * scale))
                        if hc:
                            width = max(2, 2 * width)
                        misc[key] = str(width)
        if hc and isinstance(data.get("colours"), dict):
            data["colours"] = {k: _hc_colour(block, k, v) for k, v in data["colours"].items()}
    if hc:
        for block in out.values():
            if isinstance(block, dict) and isinstance(block.get("colours"), dict):
                block["colours"].setdefault("text_shadow", "#00000000")
    return out


def write_theme(folder: str | Path, scale: float, theme: str = "normal") -> Path:
    """Write the scaled theme as ``theme_<theme>_<scale>.json`` in ``folder`` (for inspection and other tools).

    Returns:
        The file written.

    Raises:
        OSError: the folder cannot be written.
    """
    d = Path(folder)
    d.mkdir(parents=True, exist_ok=True)
    path = d / f"theme_{theme}_{scale:.2f}.json"
    path.write_text(json.dumps(scaled_theme(load_base_theme(), scale, theme), indent=2), encoding="utf-8")
    return path


def make_manager(size: tuple[int, int], display: Display) -> pygame_gui.UIManager:
    """A fresh pygame_gui ``UIManager`` for a window of ``size`` with the theme of ``display``.

    Also preloads the bold text-box fonts at the scaled size (the ``<b>`` in the panels' text boxes, and in the
    Tree Lab's comparison box, in :data:`BUNDLED_FONT`).
    """
    import pygame_gui
    s = display.scale
    manager = pygame_gui.UIManager(size, scaled_theme(load_base_theme(), s, display.theme))
    bold: list[dict[str, str | int | float]] = [
        {"name": name, "point_size": max(8, round(BOLD_TEXT_BOX_PX * s)), "style": "bold"}
        for name in ("noto_sans", BUNDLED_FONT) if name == "noto_sans" or font_file(True) is not None]
    manager.preload_fonts(bold)
    return manager


def theme_font_sizes(manager: pygame_gui.UIManager, element_ids: list[str]) -> int:
    """The point size (pixels at 72 dpi) of the font pygame_gui uses for ``element_ids``.

    Args:
        manager: the UI manager in use.
        element_ids: combined element ids, most specific first, e.g. ``["text_box", "defaults"]``.

    Returns:
        The font's point size.
    """
    font = manager.get_theme().get_font(element_ids)
    return int(font.get_point_size())


# ----------------------------------------------------------------------------------------------------------------
# Layout helpers: sizes from the theme's real fonts at the current scale
# ----------------------------------------------------------------------------------------------------------------
def theme_font(manager: pygame_gui.UIManager, object_id: str | None = None,
               element: str = "label") -> IGUIFontInterface:
    """The font pygame_gui renders an ``element`` with ``object_id`` (e.g. ``"#hint"``) in, with the theme in use."""
    return manager.get_theme().get_font([object_id, element] if object_id else [element])


def text_height(manager: pygame_gui.UIManager, object_id: str | None = None, element: str = "label") -> int:
    """Pixels a one-line label of ``object_id`` needs in height (what pygame_gui checks, plus a little air)."""
    font = theme_font(manager, object_id, element)
    return int(font.get_rect("Ayg(|").height) + px(6)


def text_width(manager: pygame_gui.UIManager, text: str, object_id: str | None = None,
               element: str = "label") -> int:
    """Pixels ``text`` takes in width in the font of ``element`` / ``object_id``."""
    return int(theme_font(manager, object_id, element).get_rect(text).width)


_NUMBER = re.compile(r"\d[\d.,]*[,;:)]?")
"""A word that is a number (``4``, ``0.3``, ``1,234,567``, ``4,``): :func:`wrap_text` keeps it beside its
neighbours."""
_OPEN_END = ",;:)"
"""What ends a word that may end a line: a number keeps no word after such a one with it."""


def word_groups(text: str) -> list[list[str]]:
    """``text``'s words in the groups :func:`wrap_text` never breaks a line in, in order: a number and the word after
    it (``1 s/move``, ``12 ms``), and a word and the number after it (``depth 4``, ``Player 1``), unless punctuation
    ends the first (``4, 1`` breaks)."""
    units: list[list[str]] = []
    for word in text.split():
        prev = units[-1][-1] if units else ""
        numeric, after_number = bool(_NUMBER.fullmatch(word)), bool(_NUMBER.fullmatch(prev))
        if prev and prev[-1] not in _OPEN_END and (numeric or after_number):
            units[-1].append(word)
        else:
            units.append([word])
    return units


def wrap_text(manager: pygame_gui.UIManager, text: str, width: int, object_id: str | None = None,
              element: str = "label") -> list[str]:
    """``text`` broken at spaces into lines that each fit ``width`` pixels, never between a number and the word
    it goes with (``1 s/move``, ``depth 4``: :func:`word_groups`) unless the pair alone is too wide; a single word wider
    than that (a long file name) is broken too, after a ``_``, ``/``, ``.`` or ``-`` when it can be, else between
    letters."""
    font = theme_font(manager, object_id, element)
    lines: list[str] = []
    for unit in word_groups(text):
        group = " ".join(unit)
        if lines and font.get_rect(f"{lines[-1]} {group}").width <= width:
            lines[-1] = f"{lines[-1]} {group}"
        elif font.get_rect(group).width <= width:
            lines.append(group)
        else:  # the pair does not fit a line: its words one by one
            for word in unit:
                if lines and font.get_rect(f"{lines[-1]} {word}").width <= width:
                    lines[-1] = f"{lines[-1]} {word}"
                else:
                    lines += _break_word(font, word, width)
    return lines


def window_chrome(manager: pygame_gui.UIManager, object_id: str | None = None) -> tuple[int, int]:
    """Pixels a pygame_gui window (``UIWindow`` of ``object_id``, e.g. ``"#resume_window"``) takes around its
    container, in width and height: its borders, title bar and shadow with the theme in use. A dialog
    ``content_w + dw`` by ``content_h + dh`` pixels holds exactly ``content_w`` by ``content_h`` of widgets."""
    import pygame
    from pygame_gui.elements import UIWindow
    asked = pygame.Rect(-1000, -1000, 400, 300)  # the size given to the constructor (its shadow included)
    probe = UIWindow(asked, manager, window_display_title="", object_id=object_id)
    inner = probe.get_container().get_rect()
    probe.kill()
    return asked.width - inner.width, asked.height - inner.height


def _break_word(font: IGUIFontInterface, word: str, width: int) -> list[str]:
    """``word`` in pieces that each fit ``width`` pixels (the word itself when it fits, or a piece is one letter)."""
    pieces: list[str] = []
    while font.get_rect(word).width > width and len(word) > 1:
        cut = max(1, next((n for n in range(len(word) - 1, 0, -1) if font.get_rect(word[:n]).width <= width), 1))
        soft = max((word.rfind(c, 0, cut) + 1 for c in "_/.-"), default=0)
        cut = soft if soft > cut // 2 else cut
        pieces.append(word[:cut])
        word = word[cut:]
    return pieces + [word]


_SCALED_FONTS = FontCache()
""":func:`scaled_ui_font`'s fonts by (pixel size, bold)."""


def scaled_ui_font(size: float, bold: bool = False) -> pygame.font.Font:
    """:func:`ui_font` at ``size`` design pixels at the interface scale (:func:`px`), cached and made again after a
    ``pygame.quit()`` (the race and the game browser draw their text with it)."""
    key = (max(6, px(size)), bold)
    return _SCALED_FONTS.get(key, lambda: ui_font(key[0], bold))


def fit_text(text: str, f: pygame.font.Font | IGUIFontInterface, width: int) -> str:
    """``text`` shortened with an ellipsis to fit ``width`` pixels in font ``f`` (the longest prefix that fits)."""
    if f.size(text)[0] <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if f.size(text[:mid].rstrip() + "\u2026")[0] <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "\u2026"
