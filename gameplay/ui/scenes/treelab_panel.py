"""The Tree Lab's control panel: its widgets laid out, in full or compact, and the drop-downs' choices."""

from __future__ import annotations

from dataclasses import dataclass

import pygame
import pygame_gui
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UILabel,
    UIPanel,
    UITextBox,
    UITextEntryLine,
)

from ai.kernel.spelling import PRUNES, UNICODE, cut_rule
from gameplay.rules.trees import TEXTBOOK_TREES
from gameplay.ui.widgets import projector
from gameplay.ui.widgets.scene import WidgetTable

ALGORITHMS: tuple[tuple[str, str], ...] = (
    ("Minimax", "minimax"), ("Alpha-beta", "alphabeta"), ("Alpha-beta, ordered", "ordered"),
    ("Expectimax", "expectimax"), ("MCTS (100)", "mcts:100"), ("MCTS (1,000)", "mcts:1000"),
)
"""(label, id) of the algorithm drop-down (``mcts:N``, "MCTS (N)": Monte Carlo tree search, N simulations, seed 1)."""
RULES: tuple[tuple[str, str], ...] = tuple((f"{cut_rule(p, UNICODE)} ({p})", p) for p in PRUNES)
"""(label, id) of the cut-off rule drop-down."""
RANDOM = "Random tree"
MARGIN = 12
"""Pixels between the window's edge, the panel and the tree."""


@dataclass(frozen=True)
class PanelPlace:
    """Where :func:`lay_out_panel` put the panel (pixels)."""

    width: int
    """The panel's width (the tree is drawn right of it)."""
    counts_height: int
    """The counts box's full height; the scene shortens it while a message shows."""
    message_end: int
    """Where the message box ends, in the panel (its top depends on its text)."""


def lay_out_panel(ui: WidgetTable, manager: pygame_gui.UIManager, size: tuple[int, int], compact: bool, *,
                  preset: str, algorithm: str, prune: str, tree_json: str, branching: int,
                  depth: int) -> PanelPlace:
    """Build the panel's widgets into ``ui`` (the scene's widget table) for a window of ``size`` pixels.

    Args:
        ui: the scene's widget table (filled with ``panel``, ``preset``, ``algorithm``, ``rule``, ``json``,
            ``apply``, ``branching``, ``depth``, ``random``, ``selection``, ``value``, ``set``, ``add``,
            ``remove``, ``counts``, ``message``, ``check``, ``menu`` and their labels).
        manager: the window's pygame_gui manager.
        size: the window's size in pixels.
        compact: leave out the "Node counts" and "Edit" headings, less air, a lower Menu button.
        preset: the tree's name in the Preset drop-down (a course tree, or the random or edited tree shown).
        algorithm: the chosen id of :data:`ALGORITHMS`.
        prune: the chosen id of :data:`RULES`.
        tree_json: the text of the JSON field.
        branching: the Branching field.
        depth: the Depth field.

    Returns:
        Where the panel and its counts and message boxes are.
    """
    w, h = size
    px = projector.px  # design pixels at the interface scale (projector mode)
    m = MARGIN
    air = 0.5 if compact else 1.0  # the gaps between rows
    pw = int(min(px(420), max(px(360), w * 0.21), w * 0.4))
    panel = UIPanel(pygame.Rect(m, m, pw, h - 2 * m), manager=manager, object_id="#side_panel")
    ui["panel"] = panel
    inner = pw - 36
    x, y = 16, 10
    rh = px(40)

    def label(key: str, text: str, height: int = 28, oid: str = "#field_label") -> None:
        nonlocal y
        ui[key] = UILabel(pygame.Rect(x, y, inner, px(height)), text, manager, container=panel, object_id=oid)
        y += px(height) + 2

    label("title", "Tree Lab", 40, "#panel_title")
    label("preset_label", "Preset")
    start = preset  # the course tree's name, or the random or edited tree shown: never another's
    names = [*TEXTBOOK_TREES, RANDOM] + ([start] if start not in TEXTBOOK_TREES and start != RANDOM else [])
    options: list[str | tuple[str, str]] = [(n, n) for n in names]
    ui["preset"] = UIDropDownMenu(options, (start, start), pygame.Rect(x, y, inner, rh), manager,
                                  container=panel)
    y += round((rh + 8) if not compact else rh + 4)
    half = (inner - 10) // 2
    rule = next(r for r in RULES if r[1] == prune)
    rule_w = max(projector.text_width(manager, t, projector.CUTOFF_RULE, "drop_down_menu") for t, _ in RULES)
    rule_w += px(16) + 24
    own_row = rule_w > half  # the cut-off rule does not fit beside the algorithm: on its own row, labelled
    ui["alg_label"] = UILabel(pygame.Rect(x, y, half if not own_row else inner, px(28)), "Algorithm", manager,
                              container=panel, object_id="#field_label")
    if not own_row:
        ui["rule_label"] = UILabel(pygame.Rect(x + half + 10, y, half, px(28)), "Cut-off rule", manager,
                                   container=panel, object_id="#field_label")
    y += px(30)
    alg = next(a for a in ALGORITHMS if a[1] == algorithm)
    ui["algorithm"] = UIDropDownMenu(list(ALGORITHMS), alg, pygame.Rect(x, y, half if not own_row else inner,
                                                                         rh), manager, container=panel)
    if own_row:
        y += rh + round(6 * air)
        label_w = projector.text_width(manager, "Cut-off rule", "#field_label", "label") + px(12)
        ui["rule_label"] = UILabel(pygame.Rect(x, y, label_w, rh), "Cut-off rule", manager, container=panel,
                                   object_id="#field_label")
        ui["rule"] = UIDropDownMenu(list(RULES), rule, pygame.Rect(x + label_w + 8, y, inner - label_w - 8, rh),
                                    manager, container=panel, object_id=projector.CUTOFF_RULE)
    else:
        ui["rule"] = UIDropDownMenu(list(RULES), rule, pygame.Rect(x + half + 10, y, half, rh), manager,
                                    container=panel, object_id=projector.CUTOFF_RULE)
    y += rh + round(10 * air)
    label("json_label", "Tree as JSON")
    ui["json"] = json_entry = UITextEntryLine(pygame.Rect(x, y, inner - px(100), rh), manager, container=panel)
    json_entry.set_text(tree_json)
    ui["apply"] = UIButton(pygame.Rect(x + inner - px(92), y, px(92), rh), "Apply", manager, container=panel,
                           tool_tip_text="Search the tree typed on the left (Enter)")
    y += rh + round(10 * air)
    label("random_label", "Random: branching, depth")
    q = (inner - 20) // 4
    ui["branching"] = branching_entry = UITextEntryLine(pygame.Rect(x, y, q, rh), manager, container=panel)
    branching_entry.set_text(str(branching))
    ui["depth"] = depth_entry = UITextEntryLine(pygame.Rect(x + q + 10, y, q, rh), manager, container=panel)
    depth_entry.set_text(str(depth))
    ui["random"] = UIButton(pygame.Rect(x + 2 * q + 20, y, inner - 2 * q - 20, rh), "Random",
                            manager, container=panel)
    y += rh + round(12 * air)
    if not compact:
        label("edit_label", "Edit the selected node")
    ui["selection"] = UILabel(pygame.Rect(x, y, inner, px(28)), "", manager, container=panel,
                              object_id="#player")
    y += px(30)
    need = max(projector.text_width(manager, t, None, "button") for t in ("Set", "+ child", "Delete")) + px(16)
    if need <= q - 8:  # value, Set, + child, Delete on one row
        ui["value"] = UITextEntryLine(pygame.Rect(x, y, q, rh), manager, container=panel)
        ui["set"] = UIButton(pygame.Rect(x + q + 10, y, q + 6, rh), "Set", manager, container=panel,
                             tool_tip_text="Make it a leaf with this value")
        ui["add"] = UIButton(pygame.Rect(x + 2 * q + 22, y, q + 10, rh), "+ child", manager, container=panel)
        ui["remove"] = UIButton(pygame.Rect(x + 3 * q + 38, y, inner - 3 * q - 38, rh), "Delete", manager,
                                container=panel)
    else:  # two rows: value and Set, then + child and Delete
        hw = (inner - 10) // 2
        ui["value"] = UITextEntryLine(pygame.Rect(x, y, hw, rh), manager, container=panel)
        ui["set"] = UIButton(pygame.Rect(x + hw + 10, y, inner - hw - 10, rh), "Set", manager,
                             container=panel, tool_tip_text="Make it a leaf with this value")
        y += rh + round(6 * air)
        ui["add"] = UIButton(pygame.Rect(x, y, hw, rh), "+ child", manager, container=panel)
        ui["remove"] = UIButton(pygame.Rect(x + hw + 10, y, inner - hw - 10, rh), "Delete", manager,
                                container=panel)
    y += rh + round(12 * air)
    if not compact:
        label("counts_label", "Node counts on this tree")
    menu_h = px(48) if not compact else rh
    menu_top = h - 2 * m - 14 - menu_h
    bottom = menu_top - 10 - (px(34) if not compact else 0)
    ui["counts"] = UITextBox("", pygame.Rect(x, y, inner, max(px(30), bottom - y)), manager, container=panel,
                             object_id=projector.COUNTS)  # in the bundled font: the cut-off rule's sign
    # a message (a rejected tree...) is wrapped over several lines, never cut; shown over the counts' end
    message_end = bottom + px(30) if not compact else bottom
    message_h = min(px(110), max(px(40), message_end - y))
    ui["message"] = UITextBox("", pygame.Rect(x, message_end - message_h, inner, message_h), manager,
                              container=panel, object_id="#message", visible=0)
    # Menu takes what its label needs, Check the rest, with the longest labels that fit: "Check my file..." (the
    # README's name) first, the Menu button shortened to "Menu" to make room before Check is ("Check file...",
    # then "Check...": zoomed out, a narrow panel)
    pad = px(16) + 24

    def button_w(text: str) -> int:
        return projector.text_width(manager, text, None, "button") + pad

    pairs = [(c, mt) for c in ("Check my file...", "Check file...", "Check...") for mt in ("Menu (Esc)", "Menu")]
    check_label, menu_label = next(((c, mt) for c, mt in pairs
                                    if button_w(c) <= inner - 10 - min(inner // 2, button_w(mt))), ("Check...", "Menu"))
    half = inner - 10 - min(inner // 2, button_w(menu_label))
    ui["check"] = UIButton(pygame.Rect(x, menu_top, half, menu_h), check_label, manager, container=panel,
                           tool_tip_text="Grade your own minimax, alpha-beta or expectimax (a .py file: "
                                         "minimax_decision, alphabeta_decision, expectimax_decision, or "
                                         "aima-python's names) against the reference, both searches side by side")
    ui["menu"] = UIButton(pygame.Rect(x + half + 10, menu_top, inner - half - 10, menu_h), menu_label, manager,
                          container=panel, tool_tip_text="Back to the start menu (Esc)")
    return PanelPlace(pw, int(ui["counts"].relative_rect.height), message_end)
