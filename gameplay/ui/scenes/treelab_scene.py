"""The Tree Lab scene: textbook trees, an editor, random trees, and the searches side by side.

Left, a panel of controls (pygame_gui): the course's worked trees as presets (``TEXTBOOK_TREES``), the tree as
JSON text, random trees by branching and depth, the algorithm (minimax, alpha-beta, alpha-beta with ordering,
expectimax) and the cut-off rule (``ge``: alpha >= beta, ``gt``: alpha > beta), the node counts of minimax and
alpha-beta on the same tree, and the editor of the selected node (click a node in the tree: set a leaf's value,
add a child, remove it). Right, the tree as the search overlay draws it
(:class:`~gameplay.ui.overlay.overlay.TreeOverlay`) with the step-through. Every change searches the tree again
(``ai.teaching.treelab.search_tree``).

The panel's widgets are laid out by :mod:`gameplay.ui.scenes.treelab_panel`; the tree's edits (a node by its path,
random trees) are :mod:`gameplay.ui.scenes.treelab_tree`.
"""

# Over 600 lines because the scene is the one owner of the Tree Lab's state (the tree, its searches, the selection,
# the panel's texts and the check dialog) and of the events that change it; the layout and the tree edits are apart.

from __future__ import annotations

import html
import json
import random
from typing import Any
from weakref import WeakKeyDictionary, WeakSet

import pygame
import pygame_gui
from pygame_gui.core import UIElement
from pygame_gui.elements import UIDropDownMenu, UILabel, UIPanel, UITextBox, UITextEntryLine

from ai.kernel.numbers import value_label
from ai.kernel.search import SearchError
from ai.kernel.spelling import UNICODE, cut_rule
from ai.teaching.decision_model import MinimaxCount, TreeInfo
from ai.teaching.treelab import TreeSearch, TreeSettings, search_tree
from gameplay.pictures.tree_layout import NODE, PRUNED, LayoutNode
from gameplay.rules.base import GameError
from gameplay.rules.trees import TEXTBOOK_TREES, parse_tree
from gameplay.ui.overlay.overlay import FONT_SIZE as OVERLAY_FONT_SIZE
from gameplay.ui.overlay.overlay import TreeOverlay
from gameplay.ui.scenes.treelab_panel import ALGORITHMS, MARGIN, RANDOM, lay_out_panel
from gameplay.ui.scenes.treelab_tree import (
    children_of,
    json_error_text,
    node_at,
    number_text,
    random_tree,
    replace_at,
    with_child,
    without_child,
)
from gameplay.ui.widgets import events, projector
from gameplay.ui.widgets.dialogs import FileDialog
from gameplay.ui.widgets.scene import Scene

BACKGROUND = (22, 26, 36)
COUNTS_MIN_LINES = 3
"""Lines of text the counts box shows at least before the panel is laid out compact (more scroll)."""
MAX_RANDOM_LEAVES = 400
"""Most leaves of a random tree (branching ** depth) the Tree Lab draws legibly."""


def _start_path(last: str, default: Any) -> Any:
    """Where a file dialog starts: the ``last`` file when its folder still exists, else ``default``."""
    from pathlib import Path
    p = Path(last).expanduser()
    return p if p.parent.is_dir() else default


class TreeLabScene(Scene):
    """The Tree Lab.

    Args:
        tree: the first tree (JSON text); default the AIMA figure 5.2 tree.
        algorithm: ``minimax``, ``alphabeta``, ``ordered`` or ``expectimax``.
        prune: ``ge`` or ``gt``.
        seed: seed of the random-tree generator.
    """

    def __init__(self, tree: str | None = None, algorithm: str = "alphabeta", prune: str = "ge",
                 seed: int = 1) -> None:
        super().__init__()
        first = next(iter(TEXTBOOK_TREES))
        self.preset = first if tree is None else RANDOM
        self.spec: Any = json.loads(tree if tree is not None else TEXTBOOK_TREES[first])
        self.algorithm = algorithm
        self.prune = prune
        self.rng = random.Random(seed)
        self.branching = 3
        self.depth = 3
        self.selected: tuple[int, ...] | None = None
        self.message = ""
        self.result: TreeSearch | None = None
        self.mcts_result: Any = None
        """The MCTS answer (:class:`ai.teaching.treelab_mcts.MCTSTreeSearch`) when the algorithm is ``mcts:N``."""
        self.counts: dict[str, TreeSearch] = {}
        self.compact = False
        """Whether the panel is laid out compact (:meth:`layout`)."""
        from gameplay.ui.overlay.mcts_overlay import MCTSOverlay
        from gameplay.ui.overlay.overlay_switch import OverlaySwitch
        self.overlay = OverlaySwitch(TreeOverlay(closable=False, on_click=self._clicked, whole=True,
                                                 on_presenter=self._on_presenter),
                                     MCTSOverlay(closable=False, on_presenter=self._on_presenter))
        self.overlay.show()
        from gameplay.ui.play.growth_scene import attach_growth
        attach_growth(self)  # the overlay's Growth button: random trees with this tree's branching factor
        self.dialog: FileDialog | None = None
        """The open "Check my file" file dialog, or ``None``."""
        self._shown_texts: WeakKeyDictionary[UIElement, str] = WeakKeyDictionary()
        """The text each of the panel's text widgets was last given (set again only when it changes)."""
        self._hidden_for_message: WeakSet[UIElement] = WeakSet()
        """The counts and their heading while a message takes their place (:meth:`_show_message`)."""
        self._counts_h = 0
        """The counts box's full height in pixels (set by each layout); it is shortened while a message shows."""
        self._message_end = 0
        """Where the message box ends in pixels (set by each layout; its top depends on its text)."""
        self.exercise_path: str | None = None
        """The exercise file checked last (the file dialog starts there)."""
        self.json_draft: str | None = None
        """The JSON text the user typed when it was rejected (kept in the field to be corrected), else ``None``."""
        self.research()

    # -- the model ---------------------------------------------------------------------------------------------
    def settings(self, algorithm: str | None = None) -> TreeSettings:
        """The search settings for ``algorithm`` (default the chosen one) and the chosen cut-off rule."""
        alg = algorithm or self.algorithm
        if alg == "ordered":
            return TreeSettings("alphabeta", ordering=True, prune=self.prune)
        return TreeSettings(alg, prune=self.prune)

    @property
    def has_chance(self) -> bool:
        """True when the tree has chance nodes (only expectimax applies)."""
        return "chance" in json.dumps(self.spec)

    def research(self) -> bool:
        """Search the tree again with the settings and refresh everything. Returns False on an error (shown)."""
        if self.algorithm.startswith("mcts:"):
            return self._research_mcts()
        try:
            root = parse_tree(self.spec)
            if self.has_chance and self.algorithm != "expectimax":
                self.algorithm = "expectimax"
            elif not self.has_chance and self.algorithm == "expectimax":
                self.algorithm = "alphabeta"
            self.result = search_tree(root, self.settings())
            self.counts = {}
            algs = ("expectimax",) if self.has_chance else ("minimax", "alphabeta", "ordered")
            for a in algs:
                self.counts[a] = search_tree(root, self.settings(a))
        except (GameError, SearchError) as e:
            self.message = str(e)
            self._refresh()
            return False
        res = self.result
        tree = res.tree
        alg_name = {i: lab for lab, i in ALGORITHMS}.get(self.algorithm, self.algorithm)
        best = "" if res.best < 0 else f", best child {res.best}"
        title = f"{self.preset}: {alg_name}, value {value_label(res.value, tree.proofs)}{best}"
        leaves = ", ".join(value_label(v, tree.proofs) for v in res.leaves_visited)
        notes = (f"Leaves in the order evaluated: {leaves}",)
        mm = MinimaxCount(res.minimax_nodes, True, "exact" if tree.algorithm == "alphabeta" else "same")
        info = TreeInfo(title, notes, None, None, None, 0,
                        {"tree": json.dumps(self.spec), **res.to_json()}, mm, "treelab", root=root)
        self.overlay.set_tree(tree, info)
        self._select(self.selected)
        self._refresh()
        return True

    def _research_mcts(self) -> bool:
        """Monte Carlo tree search on the tree (:func:`ai.teaching.treelab_mcts.search_tree_mcts`), shown in the MCTS
        overlay; the counts of the minimax family stay beside it for comparison."""
        from ai.teaching.treelab_mcts import search_tree_mcts
        from gameplay.ui.overlay.mcts_overlay import MCTSInfo
        sims = int(self.algorithm.split(":", 1)[1])
        try:
            root = parse_tree(self.spec)
            res = search_tree_mcts(root, TreeSettings("mcts", simulations=sims))
            self.counts = {} if self.has_chance else {a: search_tree(root, self.settings(a))
                                                      for a in ("minimax", "alphabeta", "ordered")}
        except (GameError, SearchError) as e:
            self.message = str(e)
            self._refresh()
            return False
        self.mcts_result = res
        title = (f"{self.preset}: MCTS, {sims:,} simulations, most visited child {res.best}, mean backed-up "
                 f"value {number_text(round(res.value, 3))}")
        self.overlay.set_tree(res.trace, MCTSInfo(title, "treelab-mcts"))
        self._refresh()
        return True

    def set_tree(self, text_or_spec: Any, preset: str | None = None) -> bool:
        """Replace the tree (JSON text or a decoded value) and search it. Returns False when it is malformed."""
        try:
            spec = json.loads(text_or_spec) if isinstance(text_or_spec, str) else text_or_spec
            parse_tree(spec)
        except json.JSONDecodeError as e:
            self.message = json_error_text(e)
            self._refresh()
            return False
        except (GameError, ValueError) as e:
            self.message = str(e)
            self._refresh()
            return False
        self.spec = spec
        self.json_draft = None
        self.preset = preset or "Edited tree"
        self.selected = None
        self.message = ""
        return self.research()

    def load_preset(self, name: str) -> bool:
        """Load one of ``TEXTBOOK_TREES`` by its display name."""
        return self.set_tree(TEXTBOOK_TREES[name], name)

    def random(self, branching: int | None = None, depth: int | None = None) -> bool:
        """A new random tree (chance nodes when the algorithm is expectimax).

        Branching and depth are kept to what fits the screen (branching 1 to 6, depth 1 to 6, at most
        :data:`MAX_RANDOM_LEAVES` leaves); when they are cut down, the Branching and Depth fields show the values
        used and the message line says why.
        """
        asked_b = branching if branching is not None else self.branching
        asked_d = depth if depth is not None else self.depth
        b, d = max(1, min(6, asked_b)), max(1, min(6, asked_d))
        while b ** d > MAX_RANDOM_LEAVES and d > 1:
            d -= 1
        self.branching, self.depth = b, d
        spec = random_tree(b, d, self.rng, chance=self.algorithm == "expectimax")
        ok = self.set_tree(spec, f"{RANDOM} (b={b}, d={d})")
        for name, value in (("branching", b), ("depth", d)):
            field = self._ui.find(name, UITextEntryLine)
            if field is not None and field.get_text() != str(value):
                field.set_text(str(value))  # the fields say what was built
        if (b, d) != (asked_b, asked_d):
            if min(asked_b, asked_d) < 1:
                why = "branching and depth start at 1"
            else:
                why = f"a bigger tree does not fit the screen (branching and depth at most 6, at most " \
                      f"{MAX_RANDOM_LEAVES} leaves)"
            self.message = f"Made a {b} x {d} tree instead of {asked_b} x {asked_d}: {why}"
            self._refresh()
        return ok

    def set_algorithm(self, algorithm: str) -> bool:
        """Choose the algorithm (``minimax``, ``alphabeta``, ``ordered``, ``expectimax``) and search again."""
        if algorithm == "expectimax" and not self.has_chance:
            self.message = "Expectimax needs chance nodes: pick the expectimax preset or a random tree"
            self.algorithm = algorithm
            return self.random()
        if algorithm != "expectimax" and not algorithm.startswith("mcts:") and self.has_chance:
            self.message = f"{algorithm} has no chance nodes: pick a tree without them"
            self._refresh()
            return False
        self.algorithm = algorithm
        self.message = ""
        return self.research()

    def set_prune(self, prune: str) -> bool:
        """Choose the cut-off rule (``ge`` or ``gt``) and search again."""
        self.prune = prune
        return self.research()

    def set_leaf(self, path: tuple[int, ...], value: float) -> bool:
        """Make the node at ``path`` a leaf worth ``value`` and search again."""
        return self._edit(replace_at(self.spec, path, value), path)

    def add_child(self, path: tuple[int, ...]) -> bool:
        """Give the node at ``path`` one more child (a leaf worth 0; a leaf becomes a MAX/MIN node)."""
        return self._edit(replace_at(self.spec, path, with_child(node_at(self.spec, path))), path)

    def remove(self, path: tuple[int, ...]) -> bool:
        """Remove the node at ``path`` (its parent keeps at least one child; chance probabilities rescaled)."""
        if not path:
            self.message = "The root cannot be removed"
            self._refresh()
            return False
        parent = node_at(self.spec, path[:-1])
        kids = children_of(parent)
        assert kids is not None
        if len(kids) <= 1:
            self.message = "A node needs at least one child: remove its parent, or set it to a value"
            self._refresh()
            return False
        return self._edit(replace_at(self.spec, path[:-1], without_child(parent, path[-1])), path[:-1])

    def _edit(self, spec: Any, select: tuple[int, ...]) -> bool:
        ok = self.set_tree(spec, "Edited tree")
        if ok:
            self._select(select)
            self._refresh()
        return ok

    def _clicked(self, item: LayoutNode) -> None:
        """A click in the tree selects the node for the editor (a pruned move: the first one it stands for)."""
        if item.kind == NODE and item.node is not None:
            self._select(tuple(item.node.state))
        elif item.kind == PRUNED and item.parent is not None:
            lay = self.overlay.lay
            par = lay.nodes[item.parent].node if lay is not None else None
            if par is not None and item.moves:
                self._select(tuple(par.state) + (int(item.moves[0]),))
        self._refresh()

    def _select(self, path: tuple[int, ...] | None) -> None:
        try:
            if path is not None:
                node_at(self.spec, path)
        except (IndexError, KeyError, TypeError):
            path = None
        self.selected = path
        tree = self.overlay.tree
        self.overlay.select(None)
        if path is not None and tree is not None:
            self.overlay.select(next((n.id for n in tree.nodes if tuple(n.state) == path), None))
        if "value" in self._ui and path is not None:
            node = node_at(self.spec, path)
            self._ui.typed("value", UITextEntryLine).set_text(number_text(node) if isinstance(node, (int, float))
                                                              else "")

    # -- text ------------------------------------------------------------------------------------------------
    def counts_html(self) -> str:
        """The comparison: nodes, leaves and cut-offs of each algorithm on this tree, side by side."""
        if not self.counts:
            return ""
        names = {"minimax": "Minimax", "alphabeta": "Alpha-beta", "ordered": "Alpha-beta, ordered",
                 "expectimax": "Expectimax"}
        rule = cut_rule(self.prune, UNICODE)
        from ai.kernel.numbers import cutoff_text, percent_text, plural
        rows = []
        for a, r in self.counts.items():
            cut = f", {cutoff_text(r.tree.cutoffs, r.tree.pruned_subtrees)}" if a in ("alphabeta", "ordered") else ""
            rows.append(f"<b>{names[a]}</b>: {plural(r.nodes, 'node')}, "
                        f"{plural(len(r.leaves_visited), 'leaf', 'leaves')}{cut}")
        base = self.counts.get("minimax")
        ab = self.counts.get("alphabeta")
        if base is not None and ab is not None and base.nodes:
            rows.append(f"alpha-beta saves {base.nodes - ab.nodes:,} of {base.nodes:,} nodes "
                        f"({percent_text(base.nodes - ab.nodes, base.nodes)}), cutting when {html.escape(rule)}")
        elif "expectimax" in self.counts:
            rows.append("expectimax cuts nothing: every outcome of a chance node counts")
        return "<br>".join(rows)

    def selection_text(self) -> str:
        """What the editor acts on."""
        if self.selected is None:
            return "Click a node in the tree to edit it"
        node = node_at(self.spec, self.selected)
        where = "root" if not self.selected else "path " + "/".join(str(i) for i in self.selected)
        what = f"leaf {number_text(node)}" if isinstance(node, (int, float)) else (
            "chance node" if isinstance(node, dict) else f"{len(node)}-child node")
        return f"Selected: {where}, {what}"

    # -- Scene ----------------------------------------------------------------------------------------------
    def on_exit(self) -> None:
        """Kill the widgets."""
        self.kill_widgets()

    def layout(self, size: tuple[int, int]) -> None:
        """The control panel on the left, the tree on the right.

        The panel's rows are laid out once; when that leaves the counts box less than :data:`COUNTS_MIN_LINES` lines
        (large text on a short window) the panel is laid out again compact: no "Node counts" and "Edit" headings
        (each count line names its algorithm, the selection line names what is edited), less air, a lower Menu
        button, and the counts box (it scrolls) down to the Menu button (a message is shown over its end)."""
        assert self.app is not None
        self._layout(size, compact=False)
        line = projector.text_height(self.app.manager, None, "text_box")
        if self._ui.typed("counts", UITextBox).rect.height < COUNTS_MIN_LINES * line + projector.px(12):
            self._layout(size, compact=True)

    def _layout(self, size: tuple[int, int], compact: bool) -> None:
        assert self.app is not None
        self.kill_widgets()
        self.compact = compact
        w, h = size
        self.overlay.set_font_size(OVERLAY_FONT_SIZE * projector.scale())
        place = lay_out_panel(self._ui, self.app.manager, size, compact, preset=self.preset,
                              algorithm=self.algorithm, prune=self.prune, tree_json=json.dumps(self.spec),
                              branching=self.branching, depth=self.depth)
        self._counts_h, self._message_end = place.counts_height, place.message_end
        m, pw = MARGIN, place.width
        self.overlay.set_rect(pygame.Rect(pw + 2 * m, m, w - pw - 3 * m, h - 2 * m))
        self._select(self.selected)
        self._refresh(force=True)
        if self.overlay.presenter:  # the presenter view: the tree on the whole window, the panel hidden
            self._ui.typed("panel", UIPanel).hide()
            self.overlay.set_rect(pygame.Rect(0, 0, w, h))

    def _on_presenter(self, on: bool) -> None:
        """The overlay's presenter view opened or closed (key P, its button, Esc): lay the window out again."""
        if self.app is not None:
            self.layout(self.app.size)

    def close_dialog(self) -> bool:
        """Esc (the App asks first): close the file dialog, else leave the presenter view. Returns True when one
        was open."""
        if self.dialog is not None:
            self.dialog.kill()
            self.dialog = None
            return True
        if not self.overlay.presenter:
            return False
        self.overlay.set_presenter(False)
        return True

    def _refresh(self, force: bool = False) -> None:
        ui = self._ui
        if not ui:
            return
        message = f"<font color='#FF7A7A'>{html.escape(self.message)}</font>" if self.message else ""
        texts = {"counts": self.counts_html(), "message": message, "selection": self.selection_text()}
        for k, v in texts.items():
            if force or self._shown_texts.get(ui[k]) != v:
                if k == "message":
                    self._show_message(v)
                    continue
                if k == "counts":
                    ui.typed(k, UITextBox).set_text(v)
                else:
                    ui.typed(k, UILabel).set_text(v)
                self._shown_texts[ui[k]] = v
        alg, preset = ui.find("algorithm", UIDropDownMenu), ui.find("preset", UIDropDownMenu)
        if self.app is not None and ((alg is not None and alg.selected_option[1] != self.algorithm) or (
                preset is not None and preset.selected_option[1] != self.preset)):
            self.layout(self.app.size)  # chosen in code (or forced by the tree): the drop-downs show it
            return
        json_entry = ui.typed("json", UITextEntryLine)
        if not json_entry.is_focused:
            # a rejected text stays as typed (to be corrected), else the tree searched
            t = self.json_draft if self.json_draft is not None else json.dumps(self.spec)
            if json_entry.get_text() != t:
                json_entry.set_text(t)

    def say(self, text: str) -> None:
        """Show ``text`` (plain text: a problem, drawn in red) on the message line until the next edit clears it
        ("Check my file" going back with its file's reason)."""
        self.message = text
        self._refresh()

    def _show_message(self, text: str) -> None:
        """Show the message (HTML; empty: none) below the counts so they never overlap: the message box takes the
        height its text needs, the counts box (it scrolls) ends above it. When not one line of counts would fit
        above, the counts and their heading are hidden while the message shows and the message takes their place
        (it scrolls if even that is too little). Without a message the counts have their full height again."""
        assert self.app is not None
        px = projector.px
        ui = self._ui
        counts, heading = ui.typed("counts", UITextBox), ui.find("counts_label", UILabel)
        full = self._counts_h
        top = int(counts.relative_rect.top)
        end = self._message_end
        height, show = full, True
        if text:
            lowest = int(heading.relative_rect.top) if heading is not None else top  # the counts' whole place
            box = self._message_box(text, end - lowest, end)  # measured where it has the most room
            pad = box.rect.height - box.text_wrap_rect.height + px(2)  # border, padding, corners
            layout = box.text_box_layout  # its rect fills the box: the text ends where its last row does
            assert layout is not None  # a text box with text has its layout
            text_h = max((row.bottom for row in layout.layout_rows), default=layout.layout_rect.height)
            need = max(px(40), min(int(text_h) + pad, end - lowest))
            line = projector.text_height(self.app.manager, None, "text_box")
            height = end - need - px(6) - top
            show = height >= 2 * line + px(12)  # two lines of counts at least, else none
            if show and need != box.relative_rect.height:
                self._message_box(text, need, end)
        else:
            box = ui.typed("message", UITextBox)
            box.set_text("")
            box.hide()
        self._shown_texts[ui["message"]] = text
        beside: list[UIElement | None] = [counts, heading]
        for w in beside:
            if w is not None and (w in self._hidden_for_message) == show:
                if show:
                    w.show()
                    self._hidden_for_message.discard(w)
                else:
                    w.hide()
                    self._hidden_for_message.add(w)
        if show and counts.relative_rect.height != min(full, height):
            counts.set_dimensions((counts.relative_rect.width, min(full, height)))

    def _message_box(self, text: str, height: int, end: int) -> UITextBox:
        """A new message box (the old one killed) showing ``text``, ``height`` pixels high, ending at ``end``."""
        assert self.app is not None
        old = self._ui.typed("message", UITextBox)
        rect = pygame.Rect(old.relative_rect.left, end - height, old.relative_rect.width, height)
        container = old.ui_container
        old.kill()
        box = UITextBox(text, rect, self.app.manager, container=container, object_id="#message")
        self._ui["message"] = box
        return box

    def apply_json(self, text: str) -> bool:
        """Search the tree typed in the JSON field; when it is rejected the typed text is kept and the error shown."""
        ok = self.set_tree(text)
        self.json_draft = None if ok else text
        self._refresh()
        return ok

    def _any_focused(self) -> bool:
        return any(isinstance(w, UITextEntryLine) and w.is_focused for w in self._ui.values())

    # -- Check my file ----------------------------------------------------------------------------------------
    def open_check_dialog(self) -> None:
        """Open the file dialog of "Check my file" (``.py`` files; it starts at the last file checked, else the
        exercise templates' folder)."""
        if self.app is None:
            return
        from gameplay.rules.shipped import shipped_path
        from gameplay.ui.widgets.dialogs import file_dialog
        start = shipped_path("examples", "exercises")
        if self.exercise_path is not None:
            start = _start_path(self.exercise_path, start)
        if self.dialog is not None:
            self.dialog.kill()
        self.dialog = file_dialog(self.app.manager, self.app.size, "Check my file: your search (.py)", start,
                                  existing=True, suffixes={".py"})

    def check_file(self, path: str) -> Any:
        """Grade the exercise file ``path``: the check's view opens above the Tree Lab
        (:class:`gameplay.ui.scenes.check_scene.CheckScene`). Returns it."""
        from gameplay.ui.scenes.check_scene import CheckScene
        self.exercise_path = str(path)
        self.message = ""
        scene = CheckScene(path, lab=self)
        if self.app is not None:
            self.app.push(scene)
        return scene

    def _dialog_event(self, event: pygame.event.Event) -> bool:
        dialog = self.dialog
        from_dialog = dialog is not None and getattr(event, "ui_element", None) is dialog
        if dialog is None or not from_dialog:
            return False
        if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
            dialog.kill()
            self.dialog = None
            self.check_file(str(event.text))
            return True
        if event.type == pygame_gui.UI_WINDOW_CLOSE:
            self.dialog = None
            return True
        return False

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Widgets, the tree's clicks and keys (when no text field has the focus)."""
        ui = self._ui
        if self._dialog_event(event):
            return True
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            option = getattr(event, "selected_option_id", None) or event.text
            if event.ui_element is ui.get("preset"):
                if option == RANDOM:
                    return self.random() or True
                if option not in TEXTBOOK_TREES:
                    return True  # the tree shown now (random or edited): nothing to load
                return self.load_preset(option) or True
            if event.ui_element is ui.get("algorithm"):
                return self.set_algorithm(option) or True
            if event.ui_element is ui.get("rule"):
                return self.set_prune(option) or True
            return False
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            return self._button(event.ui_element)
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED:
            if event.ui_element is ui.get("json"):
                return self.apply_json(ui.typed("json", UITextEntryLine).get_text()) or True
            if event.ui_element is ui.get("value"):
                return self._button(ui.get("set"))
            if event.ui_element in (ui.get("branching"), ui.get("depth")):
                return self._button(ui.get("random"))
            return False
        if event.type == pygame.KEYDOWN and self._any_focused():
            return False
        return bool(self.overlay.handle_event(event))

    def _button(self, element: object) -> bool:
        ui = self._ui
        if element is ui.get("apply"):
            self.apply_json(ui.typed("json", UITextEntryLine).get_text())
        elif element is ui.get("random"):
            try:
                b = int(ui.typed("branching", UITextEntryLine).get_text())
                d = int(ui.typed("depth", UITextEntryLine).get_text())
            except ValueError:
                self.message = "Branching and depth must be whole numbers, e.g. 3 and 3"
                self._refresh()
                return True
            self.random(b, d)
        elif element is ui.get("menu"):
            events.post("OPEN_MENU")
        elif element is ui.get("check"):
            self.open_check_dialog()
        elif element in (ui.get("set"), ui.get("add"), ui.get("remove")):
            if self.selected is None:
                self.message = "Click a node in the tree first"
                self._refresh()
                return True
            if element is ui.get("set"):
                try:
                    v = float(ui.typed("value", UITextEntryLine).get_text())
                except ValueError:
                    self.message = "The value must be a number"
                    self._refresh()
                    return True
                self.set_leaf(self.selected, int(v) if v.is_integer() else v)
            elif element is ui.get("add"):
                self.add_child(self.selected)
            else:
                self.remove(self.selected)
        else:
            return False
        return True

    def update(self, dt: float) -> None:
        """Run the replay."""
        self.overlay.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        """The background and the tree (the widgets are drawn by the App)."""
        surface.fill(projector.palette().background)
        self.overlay.draw(surface)

