"""The settings panel's columns: one side's agent, its limits and weights, and the window's general settings.

:class:`gameplay.ui.scenes.settings_scene.SettingsScene` lays the page out and calls :func:`side_column` for each side
and :func:`general_column` once; each builds its widgets into the scene's widget table and returns its height. The
texts the scene updates in place afterwards (a slider's value, the enhancements toggle) come from the functions
here. They read the panel through :class:`SettingsPage` (the panel imports this module, never the other way).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import pygame
from pygame_gui.elements import UIButton, UIDropDownMenu, UIHorizontalSlider, UILabel, UITextEntryLine

from ai.agents.profiles import profile_for
from ai.kernel.spelling import UNICODE, cut_rule
from gameplay.files.settings import AGENT_CHOICES
from gameplay.rules.registry import game_info
from gameplay.ui.play.match import button_label, fit_text
from gameplay.ui.scenes.menu import ALGORITHM_LABELS, SIDE_CHOICES, side_names
from gameplay.ui.widgets import projector

if TYPE_CHECKING:
    import pygame_gui

    from gameplay.files.settings import Settings, SideSettings
    from gameplay.ui.scenes.agent_file_picker import AgentFilePicker
    from gameplay.ui.widgets.scene import WidgetTable, Window

TIME_STEPS: tuple[float, ...] = (0.0, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0, 30.0)
"""Positions of the time slider (seconds per move; 0 = no limit)."""
ANIMATION_STEPS: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0)
"""Positions of the animation-speed slider (0 = off)."""
PRUNE_CHOICES: tuple[tuple[str, str], ...] = ((f"{cut_rule('ge', UNICODE)} (AIMA)", "ge"),
                                               (f"{cut_rule('gt', UNICODE)} (strict)", "gt"))
THEME_CHOICES: tuple[tuple[str, str], ...] = (("Normal", "normal"), ("High contrast", "high_contrast"))
ENHANCEMENTS_LABEL = "Search"
"""The label of the search-enhancements row (the toggle's text says which search; its tip says what it means)."""
ENHANCEMENTS_TEXT: dict[bool, str] = {True: "Ordering, table, PVS", False: "Plain alpha-beta (AIMA)"}
"""The text of the search-enhancements toggle of a custom alpha-beta side (``SideSettings.enhancements``)."""


class SettingsPage(Protocol):
    """What the columns read of the settings panel (:class:`gameplay.ui.scenes.settings_scene.SettingsScene` satisfies
    it): the page's game, the draft settings and the texts typed so far. Players are 0 and 1."""

    @property
    def app(self) -> Window | None:
        """The window the panel is shown in."""
        ...

    @property
    def game(self) -> str:
        """The game whose page is shown (its registry name)."""
        ...

    @property
    def draft(self) -> Settings | None:
        """The settings being edited (``None`` before the panel is shown)."""
        ...

    @property
    def files(self) -> AgentFilePicker:
        """The agent-file parts of the panel (a side's file button)."""
        ...

    @property
    def weight_text(self) -> dict[tuple[str, int, str], str]:
        """The weight fields' texts as typed, by (game, player, feature)."""
        ...

    @property
    def weight_preset(self) -> dict[tuple[str, int], str]:
        """The weight preset chosen in a side's drop-down, by (game, player)."""
        ...

    def side(self, player: int, game: str | None = None) -> SideSettings:
        """The draft settings of side ``player`` of ``game`` (default: the page's game)."""
        ...

    def shown(self, player: int) -> SideSettings:
        """What the agent fields show for a side."""
        ...

    def weights_shown(self, player: int) -> dict[str, float]:
        """The weights the fields show, by feature."""
        ...

    def weights_name(self, player: int) -> str:
        """The name of the weight preset side ``player`` plays with."""
        ...

    def status_step(self) -> int:
        """Pixels from one line of a side's status to the next."""
        ...

    def status_lines(self, p: int, width: int) -> list[str]:
        """Side ``p``'s status wrapped to ``width`` pixels."""
        ...
ENHANCEMENTS_TIP = ("Search enhancements (on): move ordering, transposition table, principal-variation search "
                    "(null-window tests and re-searches; in checkers also the capture search at the depth limit). "
                    "Off: AIMA's ALPHA-BETA-SEARCH exactly, each move searched once in the game's order; "
                    "the values equal minimax's.")
"""The tool tip of the search-enhancements toggle."""
SEARCHING = ("minimax", "alphabeta", "expectimax")


def nearest(steps: tuple[float, ...], value: float | None) -> int:
    """The index of the slider position in ``steps`` nearest to ``value`` (``None``: 0)."""
    v = value or 0.0
    return min(range(len(steps)), key=lambda i: abs(steps[i] - v))


def number_text(w: float) -> str:
    """A weight as the text of its field: ``100``, ``1.5``, ``-0.4166``."""
    return f"{w:g}" if abs(w) < 1e6 else repr(w)


def depth_text(depth: int | None) -> str:
    """The depth slider's value: ``no limit``, ``1 ply``, ``6 plies``."""
    return "no limit" if not depth else f"{depth} {'ply' if depth == 1 else 'plies'}"


def time_text(t: float | None) -> str:
    """The time slider's value: ``no limit`` or ``1.5 s``."""
    return "no limit" if not t else f"{t:g} s"


def speed_text(s: float) -> str:
    """The animation slider's value: ``off`` or ``1.5x``."""
    return "off" if s == 0 else f"{s:g}x"


def enh_text(manager: pygame_gui.UIManager, on: bool, width: int) -> str:
    """The search-enhancements toggle's text (:data:`ENHANCEMENTS_TEXT`), shortened with an ellipsis to fit a
    button ``width`` pixels wide."""
    return button_label(manager, ENHANCEMENTS_TEXT[on], width - projector.px(16))


def row_label(manager: pygame_gui.UIManager, table: WidgetTable, key: str, text: str, rect: pygame.Rect,
              container: Any) -> None:
    """A row's label at ``rect`` (its text shortened to fit), stored in ``table`` as ``key``."""
    table[key] = UILabel(rect, fit_text(manager, text, rect.width - 4), manager, container=container,
                         object_id="#field_label")


def side_column(scene: SettingsPage, ui: WidgetTable, p: int, col: pygame.Rect, container: Any) -> int:
    """The widgets of side ``p`` of the panel's game in column ``col`` of ``container``, stored in ``ui`` (the
    scene's): its title, status lines (left empty: the scene fills them), who plays, the algorithm or the agent
    file, depth, time, cutoff test, search enhancements and the evaluation weights. Returns the column's height.
    """
    assert scene.app is not None
    manager = scene.app.manager
    px = projector.px
    profile = profile_for(scene.game)
    side = scene.side(p)
    shown = scene.shown(p)
    agent_on = not side.is_human and side.agent not in ("random", "file")
    searching = agent_on and shown.algorithm in SEARCHING
    row, step = px(40), px(48)
    label_w = min(px(150), col.width * 2 // 5)
    field_x, field_w = col.x + label_w, col.width - label_w
    value_w = px(96)
    y = col.y
    ui[f"side_title{p}"] = UILabel(pygame.Rect(col.x, y, col.width, px(36)), side_names(scene.game)[p], manager,
                                   container=container, object_id="#section_title")
    y += px(36)
    # The side's status (what it plays, or why it cannot: an agent file's "syntax error on line 12: ..."):
    # wrapped whole on as many lines as it takes (the scene fills them in).
    lines = max((scene.status_lines(q, col.width) for q in (0, 1)), key=len)  # both columns keep in step
    line_h = scene.status_step()
    for i in range(len(lines)):
        ui[f"status{p}" + (f".{i}" if i else "")] = UILabel(
            pygame.Rect(col.x, y + i * line_h, col.width, projector.text_height(manager, "#card_hint")), "",
            manager, container=container, object_id="#card_hint")
    y += max(px(28), len(lines) * line_h) + px(6)
    row_label(manager, ui, f"who_label{p}", "Who plays", pygame.Rect(col.x, y, label_w, row), container)
    choice = dict((v, k) for k, v in SIDE_CHOICES)
    ui[f"who{p}"] = UIDropDownMenu([(k, v) for k, v in SIDE_CHOICES if v in AGENT_CHOICES],
                                   (choice.get(side.agent, side.agent), side.agent),
                                   pygame.Rect(field_x, y, field_w, row), manager, container=container)
    y += step
    algos = [a for a in profile.algorithms if a != "human"]
    row_label(manager, ui, f"algo_label{p}", "Agent file" if side.agent == "file" else "Algorithm",
              pygame.Rect(col.x, y, label_w, row), container)
    current = shown.algorithm if shown.algorithm in algos else algos[0]
    if side.agent == "file":  # the file's button in place of the algorithm
        ui[f"file{p}"] = scene.files.button(p, pygame.Rect(field_x, y, field_w, row), container)
    else:
        ui[f"algo{p}"] = UIDropDownMenu([(ALGORITHM_LABELS.get(a, a), a) for a in algos],
                                        (ALGORITHM_LABELS.get(current, current), current),
                                        pygame.Rect(field_x, y, field_w, row), manager, container=container)
    y += step
    slider_w = field_w - value_w - px(8)
    row_label(manager, ui, f"depth_label{p}", "Depth", pygame.Rect(col.x, y, label_w, row), container)
    max_depth = game_info(scene.game).max_depth
    ui[f"depth{p}"] = UIHorizontalSlider(pygame.Rect(field_x, y + px(4), slider_w, row - px(8)),
                                         min(shown.depth or 0, max_depth), (0, max_depth), manager,
                                         container=container, click_increment=1)
    ui[f"depth_value{p}"] = UILabel(pygame.Rect(field_x + slider_w + px(8), y, value_w, row),
                                    depth_text(shown.depth), manager, container=container,
                                    object_id="#value_label")
    y += step
    row_label(manager, ui, f"time_label{p}", "Time limit", pygame.Rect(col.x, y, label_w, row), container)
    ui[f"time{p}"] = UIHorizontalSlider(pygame.Rect(field_x, y + px(4), slider_w, row - px(8)),
                                        nearest(TIME_STEPS, shown.time_budget_s), (0, len(TIME_STEPS) - 1), manager,
                                        container=container, click_increment=1)
    ui[f"time_value{p}"] = UILabel(pygame.Rect(field_x + slider_w + px(8), y, value_w, row),
                                   time_text(shown.time_budget_s), manager, container=container,
                                   object_id="#value_label")
    y += step
    row_label(manager, ui, f"prune_label{p}", "Cutoff test", pygame.Rect(col.x, y, label_w, row), container)
    prune = dict((v, k) for k, v in PRUNE_CHOICES)
    ui[f"prune{p}"] = UIDropDownMenu(list(PRUNE_CHOICES), (prune[side.prune], side.prune),
                                     pygame.Rect(field_x, y, field_w, row), manager, container=container,
                                     object_id=projector.CUTOFF_RULE)
    y += step
    row_label(manager, ui, f"enh_label{p}", ENHANCEMENTS_LABEL, pygame.Rect(col.x, y, label_w, row), container)
    ui[f"enh{p}"] = UIButton(pygame.Rect(field_x, y, field_w, row), enh_text(manager, shown.enhancements, field_w),
                             manager, container=container, tool_tip_text=ENHANCEMENTS_TIP)
    y += step + px(6)
    # evaluation weights
    presets: list[str | tuple[str, str]] = list(profile.weight_presets)
    ui[f"weights_title{p}"] = UILabel(pygame.Rect(col.x, y, field_x - col.x - px(2), row), "Weights", manager,
                                      container=container, object_id="#section_title")
    if presets:
        reset_w = px(90)
        chosen = scene.weight_preset.get((scene.game, p)) or scene.weights_name(p)
        ui[f"wpreset{p}"] = UIDropDownMenu(presets, chosen if chosen in presets else presets[0],
                                           pygame.Rect(field_x, y, field_w - reset_w - px(8), row), manager,
                                           container=container)
        ui[f"wreset{p}"] = UIButton(pygame.Rect(col.right - reset_w, y, reset_w, row), "Reset", manager,
                                    container=container,
                                    tool_tip_text="Fill the weights from the preset chosen on the left")
    y += step
    feats = list(profile.features)
    font = manager.get_theme().get_font_dictionary().find_font(px(18), "noto_sans")
    name_w = max((font.size(f)[0] for f in feats), default=0) + px(12)
    cols = 2 if 2 * (name_w + px(70)) + px(16) <= col.width else 1
    cell_w = (col.width - (cols - 1) * px(16)) // cols
    shown_w = scene.weights_shown(p)
    for i, f in enumerate(feats):
        r, c = divmod(i, cols)
        x = col.x + c * (cell_w + px(16))
        yy = y + r * px(42)
        ui[f"wlabel{p}.{f}"] = UILabel(pygame.Rect(x, yy, name_w, px(36)), f, manager, container=container,
                                       object_id="#value_label")
        text = scene.weight_text.get((scene.game, p, f), number_text(shown_w[f]))
        entry = UITextEntryLine(pygame.Rect(x + name_w, yy, cell_w - name_w, px(36)), manager,
                                container=container, initial_text=text)
        entry.set_allowed_characters(list("0123456789.-+eE"))
        ui[f"weight{p}.{f}"] = entry
        if not searching:
            entry.disable()
    y += -(-len(feats) // cols) * px(42)
    if not feats:
        ui[f"noweights{p}"] = UILabel(pygame.Rect(col.x, y, col.width, px(30)), "no weighted evaluation",
                                      manager, container=container, object_id="#hint")
        y += px(34)
    y += px(6)
    for key in (f"algo{p}", f"depth{p}", f"time{p}", f"prune{p}", f"enh{p}", f"wpreset{p}", f"wreset{p}"):
        widget = ui.get(key)
        if widget is None:
            continue
        if key == f"algo{p}" and not agent_on:
            widget.disable()
        elif key == f"time{p}" and agent_on and shown.algorithm == "mcts":
            continue  # MCTS: its time per move (no limit: 1,000 simulations); no depth, no weights
        elif key != f"algo{p}" and not searching:
            widget.disable()
        elif key in (f"prune{p}", f"enh{p}") and shown.algorithm != "alphabeta":  # alpha-beta's own
            widget.disable()
    return y - col.y


def general_column(scene: SettingsPage, ui: WidgetTable, col: pygame.Rect, container: Any) -> int:
    """The window's settings of the draft in column ``col`` of ``container``, stored in ``ui``: overlay, sound,
    animation speed, theme, board numbers. Returns the column's height."""
    assert scene.app is not None and scene.draft is not None
    manager = scene.app.manager
    px = projector.px
    d = scene.draft
    row, step = px(40), px(48)
    label_w = min(px(170), col.width // 2)
    field_x, field_w = col.x + label_w + px(10), col.width - label_w - px(10)
    y = col.y
    ui["general_title"] = UILabel(pygame.Rect(col.x, y, col.width, px(36)), "Window", manager,
                                  container=container, object_id="#section_title")
    y += px(42)
    toggles = (("overlay", "Tree overlay", "Open the search tree after each AI move (T toggles it)"),
               ("sound", "Sound", "Sound effects"),
               ("board_numbers", "Board numbers", "Square numbers on the checkers board"))
    for name, text, tip in toggles[:2]:
        row_label(manager, ui, f"{name}_label", text, pygame.Rect(col.x, y, label_w, row), container)
        ui[name] = UIButton(pygame.Rect(field_x, y, min(field_w, px(120)), row),
                            "On" if getattr(d, name) else "Off", manager, container=container, tool_tip_text=tip)
        y += step
    value_w = px(52)
    slider_w = field_w - value_w - px(8)
    row_label(manager, ui, "animation_label", "Animation", pygame.Rect(col.x, y, label_w, row), container)
    ui["animation"] = UIHorizontalSlider(pygame.Rect(field_x, y + px(4), slider_w, row - px(8)),
                                         nearest(ANIMATION_STEPS, d.animation_speed),
                                         (0, len(ANIMATION_STEPS) - 1), manager, container=container,
                                         click_increment=1)
    ui["animation_value"] = UILabel(pygame.Rect(field_x + slider_w + px(8), y, value_w, row),
                                    speed_text(d.animation_speed), manager, container=container,
                                    object_id="#value_label")
    y += step
    row_label(manager, ui, "theme_label", "Theme", pygame.Rect(col.x, y, label_w, row), container)
    themes = dict((v, k) for k, v in THEME_CHOICES)
    ui["theme"] = UIDropDownMenu(list(THEME_CHOICES), (themes.get(d.theme, d.theme), d.theme),
                                 pygame.Rect(field_x, y, field_w, row), manager, container=container)
    y += step
    name, text, tip = toggles[2]
    row_label(manager, ui, f"{name}_label", text, pygame.Rect(col.x, y, label_w, row), container)
    ui[name] = UIButton(pygame.Rect(field_x, y, min(field_w, px(120)), row),
                        "On" if getattr(d, name) else "Off", manager, container=container, tool_tip_text=tip)
    y += step
    return y - col.y
