"""The settings panel: per game, who plays each side and how; and the window's display and sound settings.

One page per game (the tabs at the top). For each side: who plays (a person, a difficulty preset, random, or a
custom agent), the algorithm the game allows, the depth limit and the time per move (sliders; the left end of
each is "no limit"), the alpha-beta cutoff test (``ge``: alpha >= beta, AIMA; ``gt``: strict), alpha-beta's
search enhancements (move ordering, transposition table, principal-variation search; off: AIMA's
ALPHA-BETA-SEARCH exactly, see ``settings_columns.ENHANCEMENTS_TIP``), and the weights
of the weighted evaluation (one number field per feature, filled from a weight preset with Reset). Changing any
agent field of a preset side turns it into a custom agent that starts from the preset's values. Under each side,
the agent it builds is described, or the reason it cannot play (an unlimited search on checkers, all weights 0,
a number that is not a number); Save refuses to write while a side cannot play.

The general column: overlay after each AI decision, sound, animation speed (0 = off), theme (applied at once as
a preview; Cancel restores it) and board numbers. The columns' widgets are built by
:mod:`gameplay.ui.scenes.settings_columns`.

The panel edits a copy of ``App.settings``; Save (Ctrl+S) copies it into ``App.settings``, writes the file
(``App.save_settings``) and goes back to the title screen; Cancel (or Esc) goes back without changes.
"""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIScrollingContainer, UITextEntryLine

from ai.agents.profiles import profile_for
from gameplay.files.settings import AGENT_CHOICES, PRESETS, Settings, SideSettings
from gameplay.files.settings_agents import build_side_agent, custom_from
from gameplay.files.settings_fields import SettingsError, parse_weight
from gameplay.rules.registry import game_names, game_title
from gameplay.ui.scenes.agent_file_picker import AgentFilePicker
from gameplay.ui.scenes.menu import short_description, side_names
from gameplay.ui.scenes.settings_columns import (
    ANIMATION_STEPS,
    TIME_STEPS,
    depth_text,
    enh_text,
    general_column,
    number_text,
    side_column,
    speed_text,
    time_text,
)
from gameplay.ui.widgets import projector
from gameplay.ui.widgets.scene import Scene

SCROLL_BAR_W = 20
"""Width (pixels, at every scale) of the vertical scroll bar pygame_gui 0.6 puts over the page's right side."""


def tab_label(manager: pygame_gui.UIManager, game: str, width: int) -> str:
    """The label of ``game``'s tab ``width`` pixels wide: its title (``English checkers``), else its short title
    (``Checkers``) when the title does not fit (many games share the row), else the short title cut with an
    ellipsis; the tab's tool tip keeps the title."""
    room = width - max(4, projector.px(6))  # the button's borders
    for text in dict.fromkeys((game_title(game), game_title(game, "table_title"))):
        if projector.text_width(manager, text, None, "button") <= room:
            return text
    return projector.fit_text(game_title(game, "table_title"), projector.theme_font(manager, None, "button"), room)


class SettingsScene(Scene):
    """The settings panel.

    Args:
        game: the page shown first (default: the first game).
    """

    def __init__(self, game: str | None = None) -> None:
        super().__init__()
        self.games = game_names()
        self.game = game if game in self.games else self.games[0]
        """The game whose page is shown."""
        self.draft: Settings | None = None
        """The settings being edited (a copy of ``App.settings`` until Save)."""
        self.original_theme = "normal"
        self.message = ""
        """The bottom line: what Save did or why it refused."""
        self.message_is_error = False
        self._message_strip = 0
        """Pixels the bottom message takes above the bottom bar in the current layout (0: beside the buttons)."""
        self.weight_text: dict[tuple[str, int, str], str] = {}
        """Text of each weight field, by (game, player, feature), as typed."""
        self.weight_errors: dict[tuple[str, int], str] = {}
        """Sides whose weight fields do not parse, with the first problem."""
        self.weight_preset: dict[tuple[str, int], str] = {}
        """The weight preset chosen for Reset, by (game, player) (``default`` until chosen)."""
        self.files = AgentFilePicker(self)
        """The "Agent file (.py)" choice: its file dialog and button (``gameplay.ui.scenes.agent_file_picker``)."""

    # -- model ---------------------------------------------------------------------------------------------------
    def side(self, player: int, game: str | None = None) -> SideSettings:
        """The draft settings of side ``player`` of ``game`` (default: the page's game)."""
        assert self.draft is not None
        return self.draft.side(game or self.game, player)

    def shown(self, player: int) -> SideSettings:
        """What the agent fields show for a side: its own values, or a preset's as a custom agent."""
        side = self.side(player)
        return side if side.agent == "custom" else custom_from(self.game, side)

    def weights_shown(self, player: int) -> dict[str, float]:
        """The weights the fields show: the side's own, else the game's ``default`` preset (0 for the rest)."""
        profile = profile_for(self.game)
        w = self.shown(player).weights
        if w is None:
            w = profile.weight_presets.get("default", {})
        return {f: float(w.get(f, 0.0)) for f in profile.features}

    def weights_name(self, player: int) -> str:
        """The name of the weight preset side ``player`` plays with: a difficulty preset's own (Pig's Medium:
        ``simple``), or the preset equal to a custom side's weights; ``default`` otherwise."""
        from gameplay.files.settings_agents import side_agent_settings
        profile = profile_for(self.game)
        side = self.side(player)
        if side.agent in PRESETS:
            try:
                name = side_agent_settings(self.game, side).weights
            except SettingsError:
                name = None
            if name in profile.weight_presets:
                return str(name)
        shown = self.weights_shown(player)
        for name, preset in profile.weight_presets.items():
            if shown == {f: float(preset.get(f, 0.0)) for f in profile.features}:
                return name
        return "default"

    def problem(self, player: int, game: str | None = None) -> str | None:
        """Why side ``player`` cannot play (a one-line message), or ``None`` when it can."""
        game = game or self.game
        if (game, player) in self.weight_errors:
            return self.weight_errors[(game, player)]
        side = self.side(player, game)
        if side.is_human:
            return None
        try:
            build_side_agent(game, side)
        except SettingsError as e:
            return "; ".join(m for _, m in e.problems)
        return None

    def describe(self, player: int) -> str:
        """The side's status line: the agent it builds, or why it cannot play."""
        side = self.side(player)
        if side.is_human:
            return "Played with the mouse."
        problem = self.problem(player)
        if problem is not None:
            return f"Cannot play: {problem}"
        agent = build_side_agent(self.game, side)
        switches = agent.settings.search
        plain = agent.settings.algorithm == "alphabeta" and not switches.ordering and not switches.tt
        return f"Plays: {'plain ' if plain else ''}{short_description(agent)}"  # plain: no search enhancements

    def _make_custom(self, player: int) -> SideSettings:
        """Turn a preset (or human / random) side into the custom agent it shows, and return it."""
        game_sides = self.draft.game(self.game).sides if self.draft is not None else []
        side = self.side(player)
        if side.agent != "custom":
            side = custom_from(self.game, side)
            game_sides[player] = side
            widget = self._ui.get(f"who{player}")
            if widget is not None:
                self.rebuild()
        return side

    # -- Scene ---------------------------------------------------------------------------------------------------
    def on_enter(self, app: Any) -> None:
        """Copy the App's settings into the draft (first time only), then lay out."""
        self.app = app
        if self.draft is None:
            self.draft = app.settings.copy()
            self.original_theme = self.draft.theme
        self.layout(app.size)

    def on_exit(self) -> None:
        """Undo an unsaved theme preview and kill the widgets."""
        self.files.close()
        self.kill_widgets()
        if self.app is not None and self.draft is not None:
            self._apply_theme(self.original_theme)

    def rebuild(self) -> None:
        """Lay the panel out again at the window's size (after a change that shows or hides fields)."""
        if self.app is not None:
            self.layout(self.app.size)

    def layout(self, size: tuple[int, int]) -> None:
        """Title, game tabs, the scrolling page (two side columns and the general column) and the bottom bar."""
        assert self.app is not None and self.draft is not None
        self.kill_widgets()
        display = getattr(self.app, "display", None)
        if display is not None:  # Ctrl+H may have switched the theme while the panel is open
            self.draft.theme = display.theme
        manager = self.app.manager
        px = projector.px
        w, h = size
        ui = self._ui
        margin = max(px(16), w // 60)
        ui["title"] = UILabel(pygame.Rect(margin, px(12), px(200), px(44)), "Settings", manager,
                              object_id="#panel_title")
        tab_w = min(px(230), (w - 2 * margin - px(210)) // len(self.games) - px(8))
        x = margin + px(210)
        for g in self.games:
            tab = UIButton(pygame.Rect(x, px(12), tab_w, px(44)), tab_label(manager, g, tab_w), manager,
                           tool_tip_text=f"Who plays {game_title(g)}, and how")
            if g == self.game:
                tab.select()
            ui[f"tab.{g}"] = tab
            x += tab_w + px(8)
        top = px(12) + px(44) + px(12)
        bar_h = px(52)
        _lines, _area, strip_h = self._message_place(self.message, self.message_is_error)
        bottom = h - px(12) - bar_h - px(10) - strip_h  # a message too long for the bar: its lines above it
        scroller = UIScrollingContainer(pygame.Rect(margin, top, w - 2 * margin, bottom - top), manager,
                                        allow_scroll_x=False)
        ui["page"] = scroller
        inner_w = w - 2 * margin - max(px(24), SCROLL_BAR_W + px(4))  # the page's scroll bar is not scaled
        gap = px(24)
        wide = inner_w >= px(1150)
        col_w = int((inner_w - 2 * gap) * 0.36) if wide else (inner_w - gap) // 2
        heights = []
        for p in (0, 1):
            heights.append(side_column(self, self._ui, p, pygame.Rect(p * (col_w + gap), 0, col_w, 0), scroller))
            self._refresh_status(p)  # its status lines, filled in whole
        if wide:
            gen_w = inner_w - 2 * (col_w + gap)
            gen_h = general_column(self, self._ui, pygame.Rect(2 * (col_w + gap), 0, gen_w, 0), scroller)
            content_h = max(heights + [gen_h])
        else:
            y0 = max(heights) + px(16)
            gen_h = y0 + general_column(self, self._ui, pygame.Rect(0, y0, col_w, 0), scroller)
            content_h = gen_h
        scroller.set_scrollable_area_dimensions((inner_w, content_h + px(8)))
        # bottom bar
        y = h - px(12) - bar_h
        bw = px(170)
        ui["save"] = UIButton(pygame.Rect(w - margin - bw, y, bw, bar_h), "Save", manager,
                              object_id="#start_button", tool_tip_text="Keep these settings (Ctrl+S)")
        ui["cancel"] = UIButton(pygame.Rect(w - margin - 2 * bw - px(10), y, bw, bar_h), "Cancel", manager,
                                tool_tip_text="Back to the title screen without saving (Esc)")
        ui["defaults"] = UIButton(pygame.Rect(w - margin - 3 * bw - px(20), y, bw, bar_h), "Defaults", manager,
                                  tool_tip_text="Every setting back to its default (Save to keep)")
        self._message_strip = strip_h
        self._set_message(self.message, self.message_is_error)
        self.files.reopen(manager)  # an open file dialog, asked again at a new scale

    # -- status and message --------------------------------------------------------------------------------------
    def status_step(self) -> int:
        """Pixels from one line of a side's status to the next."""
        assert self.app is not None
        return projector.text_height(self.app.manager, "#card_hint") - projector.px(4)

    def status_lines(self, p: int, width: int) -> list[str]:
        """Side ``p``'s status (:meth:`describe`) wrapped to ``width`` pixels, never shortened."""
        assert self.app is not None
        return projector.wrap_text(self.app.manager, self.describe(p), width - 8, "#card_hint") or [""]

    def _refresh_status(self, p: int) -> None:
        """Show side ``p``'s status whole; a status longer than its lines lays the page out again (keeping its
        scroll position)."""
        label = self._ui.find(f"status{p}", UILabel)
        if label is None or self.app is None:
            return
        lines = self.status_lines(p, int(label.relative_rect.width))
        labels = [label] + [self._ui.typed(k, UILabel) for i in range(1, 50) if (k := f"status{p}.{i}") in self._ui]
        if len(lines) > len(labels):
            page = self._ui.get("page")
            bar = getattr(page, "vert_scroll_bar", None)
            where = bar.start_percentage if bar is not None else 0.0
            self.rebuild()
            bar = getattr(self._ui.get("page"), "vert_scroll_bar", None)
            if bar is not None:
                bar.set_scroll_from_start_percentage(where)
            return
        for i, widget in enumerate(labels):
            widget.set_text(lines[i] if i < len(lines) else "")

    def _message_place(self, text: str, error: bool) -> tuple[list[str], pygame.Rect, int]:
        """Where the bottom message goes, wrapped whole: beside the bottom bar's buttons when it fits there, else on
        lines of the window's width just above the bar (the page gives them room).

        Returns:
            (its lines, the rectangle they fill, the height taken above the bar: 0 when beside the buttons).
        """
        assert self.app is not None
        manager, px = self.app.manager, projector.px
        w, h = self.app.size
        margin = max(px(16), w // 60)
        bar_h, bw = px(52), px(170)
        oid = "#error_message" if error else "#value_label"
        step = projector.text_height(manager, oid) - px(4)
        y = h - px(12) - bar_h
        msg_w = w - 2 * margin - 3 * bw - px(40)
        lines = projector.wrap_text(manager, text, msg_w - 8, oid) if text else []
        if len(lines) * step <= bar_h:
            return lines, pygame.Rect(margin, y + (bar_h - len(lines) * step) // 2, msg_w, len(lines) * step), 0
        lines = projector.wrap_text(manager, text, w - 2 * margin - 8, oid)
        strip = len(lines) * step + px(8)
        return lines, pygame.Rect(margin, y - strip, w - 2 * margin, len(lines) * step), strip

    def _set_message(self, text: str, error: bool = False) -> None:
        """Show the bottom message whole (:meth:`_message_place`); one that needs more or less room above the bar
        than the layout gave lays the page out again (keeping its scroll position)."""
        self.message, self.message_is_error = text, error
        if self.app is None or "save" not in self._ui:
            return
        lines, area, strip = self._message_place(text, error)
        if strip != getattr(self, "_message_strip", 0):
            bar = getattr(self._ui.get("page"), "vert_scroll_bar", None)
            where = bar.start_percentage if bar is not None else 0.0
            self.rebuild()
            bar = getattr(self._ui.get("page"), "vert_scroll_bar", None)
            if bar is not None:
                bar.set_scroll_from_start_percentage(where)
            return
        for key in [k for k in self._ui if k == "message" or k.startswith("message.")]:
            self._ui.pop(key).kill()
        oid = "#error_message" if error else "#value_label"
        step = area.height // max(1, len(lines))
        for i, line in enumerate(lines or [""]):
            self._ui["message" + (f".{i}" if i else "")] = UILabel(
                pygame.Rect(area.x, area.y + i * step, area.width, projector.text_height(self.app.manager, oid)),
                line, self.app.manager, object_id=oid)

    # -- events --------------------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        """Tabs, drop-downs, sliders, weight fields, toggles, Save / Cancel / Defaults, and Ctrl+S."""
        assert self.app is not None and self.draft is not None
        ui = self._ui
        element = getattr(event, "ui_element", None)
        if self.files.handle_event(event):
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            return self._on_button(element)
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            option = getattr(event, "selected_option_id", None) or event.text
            return self._on_choice(element, option)
        if event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED:
            value = int(round(float(event.value)))
            for p in (0, 1):
                if element is ui.get(f"depth{p}"):
                    self.set_depth(p, value or None)
                    return True
                if element is ui.get(f"time{p}"):
                    self.set_time(p, TIME_STEPS[max(0, min(value, len(TIME_STEPS) - 1))] or None)
                    return True
            if element is ui.get("animation"):
                self.draft.animation_speed = ANIMATION_STEPS[max(0, min(value, len(ANIMATION_STEPS) - 1))]
                ui.typed("animation_value", UILabel).set_text(speed_text(self.draft.animation_speed))
                return True
            return False
        if event.type in (pygame_gui.UI_TEXT_ENTRY_CHANGED, pygame_gui.UI_TEXT_ENTRY_FINISHED):
            name = self.widget_name(element)
            for p in (0, 1):
                for f in profile_for(self.game).features:
                    if name == f"weight{p}.{f}":
                        self.set_weight_text(p, f, ui.typed(name, UITextEntryLine).get_text())
                        return True
            return False
        if event.type == pygame.KEYDOWN and event.key == pygame.K_s and event.mod & pygame.KMOD_CTRL:
            self.save()
            return True
        return False

    def _on_button(self, element: Any) -> bool:
        assert self.draft is not None
        ui = self._ui
        for g in self.games:
            if element is ui.get(f"tab.{g}"):
                self.game = g
                self.rebuild()
                return True
        if element is ui.get("save"):
            self.save()
        elif element is ui.get("cancel"):
            self.cancel()
        elif element is ui.get("defaults"):
            self.restore_defaults()
        elif element in (ui.get("overlay"), ui.get("sound"), ui.get("board_numbers")):
            name = next(k for k in ("overlay", "sound", "board_numbers") if ui.get(k) is element)
            setattr(self.draft, name, not getattr(self.draft, name))
            element.set_text("On" if getattr(self.draft, name) else "Off")
        else:
            for p in (0, 1):
                if element is ui.get(f"enh{p}"):
                    self.set_enhancements(p, not self.shown(p).enhancements)
                    return True
                if element is ui.get(f"wreset{p}"):
                    self.reset_weights(p, self.weight_preset.get((self.game, p)) or self.weights_name(p))
                    return True
            return False
        return True

    def _on_choice(self, element: Any, option: str) -> bool:
        assert self.draft is not None
        ui = self._ui
        for p in (0, 1):
            if element is ui.get(f"who{p}"):
                self.set_agent(p, option)
                return True
            if element is ui.get(f"algo{p}"):
                self.set_algorithm(p, option)
                return True
            if element is ui.get(f"prune{p}"):
                self.side(p).prune = option if option in ("ge", "gt") else "ge"
                self._refresh_status(p)
                return True
            if element is ui.get(f"wpreset{p}"):
                self.weight_preset[(self.game, p)] = option  # chosen; Reset applies it
                return True
        if element is ui.get("theme"):
            self.set_theme(option)
            return True
        return False

    # -- commands (also used by tests) -----------------------------------------------------------------------
    def set_agent(self, p: int, agent: str) -> None:
        """Choose who plays side ``p`` (``human``, a preset, ``random``, ``custom``, or ``file``: the file dialog
        opens when the side has no file yet)."""
        if agent not in AGENT_CHOICES:
            return
        side = self.side(p)
        if agent == "file" and not side.file:
            self.files.open(p)
            return
        if agent == "custom" and side.agent in PRESETS:
            side = custom_from(self.game, side)
            assert self.draft is not None
            self.draft.game(self.game).sides[p] = side
        side.agent = agent
        self.rebuild()

    def use_agent_file(self, p: int, path: str | Path) -> None:
        """Side ``p`` plays the agent file ``path`` (the panel is laid out again: its status line says what the file
        defines, or its error)."""
        side = self.side(p)
        side.file = str(path)
        side.agent = "file"
        self.rebuild()

    def set_algorithm(self, p: int, algorithm: str) -> None:
        """Custom agent of side ``p``: choose the algorithm (the side becomes custom)."""
        side = self._make_custom(p)
        side.algorithm = algorithm
        self.rebuild()

    def set_depth(self, p: int, depth: int | None) -> None:
        """Custom agent of side ``p``: the depth limit in plies (``None``: no limit)."""
        was_custom = self.side(p).agent == "custom"
        side = self._make_custom(p)
        side.depth = depth
        if was_custom:
            self._ui.typed(f"depth_value{p}", UILabel).set_text(depth_text(depth))
            self._refresh_status(p)
        else:
            self.rebuild()

    def set_time(self, p: int, t: float | None) -> None:
        """Custom agent of side ``p``: seconds per move (``None``: no limit)."""
        was_custom = self.side(p).agent == "custom"
        side = self._make_custom(p)
        side.time_budget_s = t
        if was_custom:
            self._ui.typed(f"time_value{p}", UILabel).set_text(time_text(t))
            self._refresh_status(p)
        else:
            self.rebuild()

    def set_enhancements(self, p: int, on: bool) -> None:
        """Custom alpha-beta of side ``p``: search enhancements on or off (off: plain alpha-beta, AIMA's
        ALPHA-BETA-SEARCH; the side becomes custom)."""
        was_custom = self.side(p).agent == "custom"
        side = self._make_custom(p)
        side.enhancements = on
        if was_custom:
            widget = self._ui.find(f"enh{p}", UIButton)
            if widget is not None:
                assert self.app is not None
                widget.set_text(enh_text(self.app.manager, on, int(widget.relative_rect.width)))
            self._refresh_status(p)
        else:
            self.rebuild()

    def set_weight_text(self, p: int, feature: str, text: str) -> None:
        """A weight field of side ``p`` was edited: parse every field of the side; keep them if all parse."""
        self.weight_text[(self.game, p, feature)] = text
        was_custom = self.side(p).agent == "custom"
        side = self._make_custom(p)
        shown = self.weights_shown(p)
        weights: dict[str, float] = {}
        problem = None
        for f in profile_for(self.game).features:
            raw = self.weight_text.get((self.game, p, f), number_text(shown[f]))
            try:
                weights[f] = parse_weight(raw)
            except SettingsError as e:
                problem = problem or f"weight {f}: {e.problems[0][1]}"
        if problem is None:
            side.weights = weights
            self.weight_errors.pop((self.game, p), None)
        else:
            self.weight_errors[(self.game, p)] = problem
        if was_custom:
            self._refresh_status(p)

    def reset_weights(self, p: int, preset: str) -> None:
        """Fill the weights of side ``p`` from a preset of the game (the side becomes custom)."""
        profile = profile_for(self.game)
        if preset not in profile.weight_presets:
            return
        side = self._make_custom(p)
        side.weights = None if preset == "default" else dict(profile.weight_presets[preset])
        for f in profile.features:
            self.weight_text.pop((self.game, p, f), None)
        self.weight_errors.pop((self.game, p), None)
        self.rebuild()

    def set_theme(self, theme: str) -> None:
        """Choose the theme; it is applied at once (a preview: Cancel restores the one before)."""
        assert self.draft is not None and self.app is not None
        if theme not in ("normal", "high_contrast"):
            return
        self.draft.theme = theme
        self._apply_theme(theme)

    def _apply_theme(self, theme: str) -> None:
        assert self.app is not None
        display = getattr(self.app, "display", None)
        if display is not None and display.theme != theme and hasattr(self.app, "set_display"):
            self.app.set_display(projector.Display(auto=display.auto, zoom=display.zoom, theme=theme))

    def restore_defaults(self) -> None:
        """Every setting of the draft back to its default (the interface scale and the keys this version does not
        know are kept: ``Settings.defaults_keeping_unknown``); Save to keep them."""
        assert self.draft is not None
        self.draft = self.draft.defaults_keeping_unknown()
        self.weight_text.clear()
        self.weight_errors.clear()
        self._set_message("Defaults restored: Save to keep them, Cancel to go back.")
        self._apply_theme(self.draft.theme)
        self.rebuild()

    def save(self) -> bool:
        """Check every side of every game, copy the draft into ``App.settings``, write the file, go back.

        Returns:
            True when saved; False with the reason in the message line (nothing changes then).
        """
        assert self.draft is not None and self.app is not None
        for g in self.games:
            for p in (0, 1):
                problem = self.problem(p, g)
                if problem is not None:
                    who = side_names(g)[p].replace(" (first)", "")
                    self._set_message(f"Not saved: {game_title(g)}, {who}: {problem}", error=True)
                    return False
        target = self.app.settings
        for name in ("ui_scale", "window_size", "fullscreen"):  # Ctrl+plus / Ctrl+minus and the window own them
            setattr(self.draft, name, getattr(target, name))
        for f in fields(Settings):
            setattr(target, f.name, getattr(self.draft.copy(), f.name))
        self.original_theme = target.theme
        error = self.app.save_settings()
        if error:
            self._set_message(f"Settings in use but {error}", error=True)
            return False
        self._set_message("Saved.")
        self.app.open_menu()
        return True

    def cancel(self) -> None:
        """Leave without saving (the theme preview is undone on exit)."""
        assert self.app is not None
        self.app.open_menu()

    def draw(self, surface: pygame.Surface) -> None:
        """The background (the widgets are drawn by the App)."""
        surface.fill(projector.palette().background)
