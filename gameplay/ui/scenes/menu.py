"""The title screen: the games as cards (paged when more than fit the width), and the ways out (Settings, Tree Lab,
Watch AI vs AI, Open a game file..., Quit); :mod:`gameplay.ui.scenes.menu_cards` plans the cards' room.

Each card shows the game's name, a small picture of its board (drawn by the game's own board view), a one-line
description, who plays each side (a drop-down: a person, a difficulty preset, a random mover, or the custom
agent of the settings panel) with a description of that agent, and a Play button. The choices are the
``App.settings`` sides of the game (``gameplay.files.settings``) and are saved when changed.

Keys: Left / Right choose the highlighted card, Enter plays it, S opens the settings, Esc quits (the App).

Play on a game that has autosaved games in progress asks first (:class:`gameplay.ui.play.resume.SavedGameQuestion`):
resume or discard any of them, start a New game (which replaces the only one once a move is played), or Cancel
(Esc, the close box); nothing is lost unasked.
A message under the buttons reports a bad settings file (``App.settings_message``: every field reset, the
bad file's copy and the unknown keys kept), a pure-Python install (``App.build_notice``, once at start) or an
agent that cannot be built. It is shown whole in a text box: as many wrapped lines as fit the window
(:func:`message_rows`), the rest a scroll away (wheel or scroll bar), never cut.

"Open a game file..." picks a ``.py`` file (a game written against the course's interface,
:mod:`gameplay.rules.game_file`; it starts in ``examples/games``): the file is loaded, checked and registered,
and its card appears, highlighted; a file that cannot be played puts its one-line reason in the message box and
the menu goes on as it was.
"""

from __future__ import annotations

import html
import os
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UIImage, UILabel, UIPanel, UITextBox

from ai.agents.profiles import profile_for
from gameplay.files.settings import AGENT_CHOICES, SideSettings
from gameplay.files.settings_agents import build_side_agent
from gameplay.files.settings_fields import SettingsError
from gameplay.rules.base import GameError
from gameplay.rules.registry import game_info, game_names, game_title
from gameplay.rules.shipped import shipped_path
from gameplay.ui.boards.board import ViewState
from gameplay.ui.boards.views import view_for
from gameplay.ui.boards.window_parts import window_parts
from gameplay.ui.scenes.menu_cards import CardPlan, cards_per_row, min_card_width, plan_cards
from gameplay.ui.widgets import events, projector
from gameplay.ui.widgets.scene import Scene

GAME_FILES_DIR = shipped_path("examples", "games")
"""Where "Open a game file..." starts: the example game files."""

if TYPE_CHECKING:
    from gameplay.ui.play.resume import SavedGameQuestion

SIDE_CHOICES: tuple[tuple[str, str], ...] = (
    ("Human", "human"), ("Beginner", "beginner"), ("Easy", "easy"), ("Medium", "medium"),
    ("Hard", "hard"), ("Expert", "expert"), ("Random", "random"), ("Custom (settings)", "custom"),
    ("Agent file (.py)", "file"),
)
"""(label, value of ``SideSettings.agent``) of each choice in a side's drop-down."""

def side_names(game: str) -> tuple[str, str]:
    """Labels of the two sides, e.g. ``("X (first)", "O")`` or ``("P1 (first)", "P2")``."""
    names = profile_for(game).game.player_names
    labels = [f"P{n}" if n.isdigit() else n for n in names]
    return f"{labels[0]} (first)", labels[1]


ALGORITHM_LABELS: dict[str, str] = {"minimax": "minimax", "alphabeta": "alpha-beta", "expectimax": "expectimax",
                                    "optimal": "optimal policy", "random": "random moves",
                                    "mcts": "Monte Carlo tree search"}
"""How the algorithms are named on screen."""


def message_rows(manager: pygame_gui.UIManager, text: str, width: int, window_h: int) -> tuple[int, int]:
    """How the title screen's message box is sized: ``(rows, height)``, the lines of ``text`` it shows at once and
    its height in pixels for a box ``width`` pixels wide in a window ``window_h`` pixels high.

    Every wrapped line is shown while the lines take at most a sixth of the window's height (at least two lines);
    a longer text scrolls in the box. No text: no box, one line's height kept (the layout does not jump).
    """
    px = projector.px
    line_h = projector.text_height(manager, "#error_message")
    if not text:
        return 0, line_h
    room = width - 2 * px(10) - px(24) - 4  # the box's padding, its scroll bar and borders
    lines = len(projector.wrap_text(manager, text, max(1, room), "#error_message"))
    rows = min(lines, max(2, window_h // 6 // line_h))
    return rows, rows * line_h + 2 * px(8) + 8  # the box's padding and borders (thicker in high contrast)


def short_description(agent: Any) -> str:
    """A compact agent description for a card, e.g. ``alpha-beta, depth 3`` or ``expectimax, depth 1, 0.3 s``."""
    s = agent.settings
    if s.algorithm == "file":  # an agent file: its name and what it defines
        kind = getattr(s, "kind", "agent")
        return f"{os.path.basename(getattr(s, 'path', s.name))}: " + ("evaluation" if kind == "evaluation" else
                                                                       "agent (choose_move)")
    if s.algorithm == "optimal" and s.weights.startswith("hold") and s.weights[4:].isdigit():
        return f"hold at {int(s.weights[4:])}"  # Pig's fixed "hold at N" rule
    bits = [ALGORITHM_LABELS.get(s.algorithm, s.algorithm)]
    if s.algorithm in ("minimax", "alphabeta", "expectimax"):
        bits.append(f"depth {s.depth}" if s.depth is not None else "any depth")
        if s.time_budget_s is not None:
            bits.append(f"{s.time_budget_s:g} s")
        if s.custom_weights is not None:
            bits.append("own weights")
        if s.search.prune == "gt":
            bits.append("cutoff >")
    elif s.algorithm == "mcts":
        budget = s.time_budget_s
        bits = ["MCTS", f"{budget:g} s" if budget is not None else f"{s.mcts.simulations or 1000:,} simulations"]
    return ", ".join(bits)


def _label_of(agent: str) -> str:
    for label, value in SIDE_CHOICES:
        if value == agent:
            return label
    return agent


def describe_side(game: str, side: SideSettings) -> str:
    """What plays a side: ``played with the mouse``, the agent's description, or why it cannot play."""
    if side.is_human:
        return "played with the mouse"
    try:
        return short_description(build_side_agent(game, side))
    except SettingsError as e:
        return f"cannot play: {e.problems[0][1]}"


class MenuScene(Scene):
    """The title screen.

    Args:
        game: the card highlighted at first (default: the first game).
        p1: optional agent choice (:data:`gameplay.files.settings.AGENT_CHOICES`) for the first side of ``game``.
        p2: optional agent choice for the second side of ``game``.
    """

    def __init__(self, game: str | None = None, p1: str | None = None, p2: str | None = None) -> None:
        super().__init__()
        self.games = game_names()
        self.game = game if game in self.games else self.games[0]
        """The highlighted card's game (Enter plays it)."""
        self._overrides = (p1, p2)
        self.message = ""
        """A one-line message under the buttons (a bad settings file, an agent that cannot play)."""
        self.question: SavedGameQuestion | None = None
        """The open "you have a game in progress" question (Play on a game with an autosave), or ``None``."""
        self._pictures: dict[tuple[str, int, int], pygame.Surface] = {}
        self._cards: dict[str, pygame.Rect] = {}
        """The cards on screen: game -> rectangle (a page of them when they do not all fit the width)."""
        self._first = 0
        """Index in :attr:`games` of the first card on screen."""
        self._message_rect: pygame.Rect | None = None
        self._message_rows = 0
        """Lines of the message the box shows at once in the current layout (0: no message)."""
        self.file_dialog: Any = None
        """The open "Open a game file..." dialog, or ``None``."""

    # -- model -------------------------------------------------------------------------------------------------------
    def side(self, game: str, player: int) -> SideSettings:
        """The settings of side ``player`` of ``game`` (the App's settings)."""
        assert self.app is not None
        return self.app.settings.side(game, player)

    @property
    def sides(self) -> list[str]:
        """The agent choices of the highlighted game's two sides, e.g. ``["human", "medium"]``."""
        return [self.side(self.game, p).agent for p in (0, 1)]

    @property
    def shown_games(self) -> list[str]:
        """The games whose cards are on screen (the page of them shown), left to right."""
        return list(self._cards)

    # -- Scene -------------------------------------------------------------------------------------------------------
    def on_enter(self, app: Any) -> None:
        """Apply the constructor's side choices once, pick up a settings-file message, then lay out."""
        self.app = app
        for p, choice in enumerate(self._overrides):
            if choice in AGENT_CHOICES:
                app.settings.side(self.game, p).agent = choice
        self._overrides = (None, None)
        if getattr(app, "settings_message", None):
            self.message = str(app.settings_message)
            app.settings_message = None
        elif getattr(app, "build_notice", None):  # the install runs pure Python (gameplay.rules.compiled), said once
            self.message = str(app.build_notice)
            app.build_notice = None
        self.layout(app.size)

    def on_exit(self) -> None:
        """Kill the widgets."""
        self.close_dialog()
        self.kill_widgets()

    def close_dialog(self) -> bool:
        """Close the game-file dialog or the saved-game question (Esc: Cancel). Returns True when one was open."""
        if self.file_dialog is not None:
            dialog, self.file_dialog = self.file_dialog, None
            dialog.kill()
            return True
        if self.question is None:
            return False
        question, self.question = self.question, None
        question.close()
        return True

    def layout(self, size: tuple[int, int]) -> None:
        """Title, one card per game side by side, the bottom buttons, the message and the key hint.

        Every height comes from the theme's fonts at the current scale (``projector.text_height``) and long texts
        wrap (``projector.wrap_text``), so each zoom step the window offers lays out without overlaps or cut text.
        """
        assert self.app is not None
        self.kill_widgets()
        manager = self.app.manager
        px = projector.px
        w, h = size
        ui = self._ui
        n = len(self.games)
        margin = max(px(16), w // 60) if n <= 3 else px(12)  # four cards or more: each pixel for the cards
        y = px(10)
        title_h = max(px(60), projector.text_height(manager, "#title"))
        ui["title"] = UILabel(pygame.Rect(0, y, w, title_h), "Adversarial-Search Arcade", manager, object_id="#title")
        y += title_h
        sub_h = projector.text_height(manager, "#subtitle")
        ui["subtitle"] = UILabel(pygame.Rect(0, y, w, sub_h),
                                 "Play classic games against minimax, alpha-beta and expectimax", manager,
                                 object_id="#subtitle")
        y += sub_h + px(10)
        button_h = max(px(48), projector.text_height(manager, None, "button") + px(8))
        hint_h = projector.text_height(manager, "#hint")
        rows, box_h = message_rows(manager, self.message, w - 2 * margin, h)
        bottom_h = px(12) + button_h + px(6) + box_h + hint_h + px(6)
        cards_h = max(px(200), h - y - bottom_h)
        gap = px(20) if n <= 3 else px(8)
        choice_w = max(projector.text_width(manager, t, None, "button") for t, _ in SIDE_CHOICES) + px(16) + 24
        arrow_w = px(34)
        shown, cw = cards_per_row(n, w - 2 * margin, gap, min_card_width(choice_w), px(520), arrow_w + gap)
        index = self.games.index(self.game)
        self._first = min(max(0, n - shown), max(index - shown + 1, min(self._first, index)))
        page = self.games[self._first:self._first + shown]
        x = (w - (shown * cw + (shown - 1) * gap)) // 2
        self._cards = {}
        plan = plan_cards(manager, page, cw, cards_h, side_names, choice_w,
                          lambda g, p: describe_side(g, self.side(g, p)))
        if shown < n:  # more games than fit: arrows page through them (Left / Right too)
            for name, text, left, more in (("prev_cards", "<", x - gap - arrow_w, self._first > 0),
                                           ("next_cards", ">", x + shown * (cw + gap), self._first + shown < n)):
                ui[name] = UIButton(pygame.Rect(left, y, arrow_w, cards_h), text, manager,
                                    tool_tip_text=f"{'Earlier' if text == '<' else 'More'} games (Left / Right)")
                if not more:
                    ui[name].disable()
        for g in page:
            self._card(g, pygame.Rect(x, y, cw, cards_h), plan)
            x += cw + gap
        y += cards_h + px(12)
        labels = (("settings", "Settings (S)", "Sides, algorithms, depth, time, weights, sound, theme"),
                  ("treelab", "Tree Lab", "Textbook game trees: minimax, alpha-beta and expectimax step by step"),
                  ("watch", "Watch AI vs AI", "Two agents play each other, game after game"),
                  ("gamefile", "Open a game file...", "Play a game written in a Python file against the course's "
                   "interface (examples/games); it runs inside the program, like a plug-in: open only files you "
                   "trust"),
                  ("quit", "Quit", "Close the arcade (Esc)"))
        gap_b = px(12)
        room = w - 2 * margin - (len(labels) - 1) * gap_b
        # each button as wide as its text needs, the room left shared out equally (at most 250 px each)
        need = [projector.text_width(manager, text, None, "button") + px(20) for _, text, _ in labels]
        extra = max(0, min(len(labels) * px(250), room) - sum(need)) // len(labels)
        widths = [n + extra for n in need] if sum(need) <= room else [room // len(labels)] * len(labels)
        x = (w - (sum(widths) + (len(labels) - 1) * gap_b)) // 2
        for (key, text, tip), bw in zip(labels, widths):
            ui[key] = UIButton(pygame.Rect(x, y, bw, button_h), text, manager, tool_tip_text=tip)
            x += bw + gap_b
        y += button_h + px(6)
        self._message_rect, self._message_rows = pygame.Rect(margin, y, w - 2 * margin, box_h), rows
        self._show_message()
        ui["hint"] = UILabel(pygame.Rect(0, h - hint_h - px(6), w, hint_h),
                             "Left/Right: choose a game    Enter: play    S: settings    F11: fullscreen    Esc: quit",
                             manager, object_id="#hint")
        self._set_focus(self.game)
        dialog = self.file_dialog
        if dialog is not None and dialog.alive() and dialog.ui_manager is not manager:
            path = getattr(dialog, "current_file_path", None) or getattr(dialog, "current_directory_path", None)
            dialog.kill()  # it was in the old UI manager (a zoom step): opened again at this scale
            self.file_dialog = None
            self.open_game_file(Path(str(path)) if path else None)
        question = self.question
        if question is not None and question.window.alive() and question.window.ui_manager is not manager:
            from gameplay.ui.play.resume import SavedGameQuestion
            question.close()  # it was in the old UI manager (a zoom step): asked again at this scale
            self.question = SavedGameQuestion(self, question.saves)

    def _show_message(self) -> None:
        """The message under the buttons in a text box (``_ui["message"]``; none without a message): the whole
        text, scrolling when it has more lines than the box shows."""
        assert self.app is not None
        if "message" in self._ui:
            self._ui.pop("message").kill()
        if self.message and self._message_rect is not None:
            self._ui["message"] = UITextBox(html.escape(self.message), self._message_rect, self.app.manager,
                                            object_id="#error_message")

    def message_shown(self) -> str:
        """The text of the message box as written (``""`` without one)."""
        box = self._ui.find("message", UITextBox)
        return html.unescape(box.html_text) if box is not None else ""

    def _card(self, game: str, rect: pygame.Rect, plan: CardPlan) -> None:
        """One game's card laid out by the row's ``plan`` (:func:`gameplay.ui.scenes.menu_cards.plan_cards`): title,
        picture, blurb, the two sides, Play."""
        assert self.app is not None
        manager = self.app.manager
        px = projector.px
        ui = self._ui
        self._cards[game] = rect
        panel = UIPanel(rect, manager=manager, object_id="#game_card")
        ui[f"card.{game}"] = panel
        pad = plan.pad
        inner = plan.inner
        name_h = projector.text_height(manager, "#card_title")
        y = px(6)
        for i, line in enumerate(plan.titles[game]):
            ui[f"name.{game}" + (f".{i}" if i else "")] = UILabel(pygame.Rect(pad, y, inner, name_h), line, manager,
                                                                 container=panel, object_id="#card_title")
            y += name_h
        y = px(6) + plan.title_rows * name_h + px(4)
        if plan.picture_h:
            pic = self._picture(game, inner, plan.picture_h)
            ui[f"pic.{game}"] = UIImage(pygame.Rect(pad, y, inner, plan.picture_h), pic, manager, container=panel)
            y += plan.picture_h + px(4)
        blurb_h = projector.text_height(manager, "#hint")
        for i, line in enumerate(plan.blurbs.get(game, [])):
            ui[f"blurb.{game}" + (f".{i}" if i else "")] = UILabel(pygame.Rect(pad, y + i * blurb_h, inner, blurb_h),
                                                                  line, manager, container=panel, object_id="#hint")
        if plan.blurb_rows:
            y += plan.blurb_rows * blurb_h + px(6)
        field_h = max(px(40), projector.text_height(manager, None, "drop_down_menu") + px(6))
        desc_h = projector.text_height(manager, "#card_hint")
        label_h = projector.text_height(manager, "#field_label")
        stacked, names, label_w = plan.stacked[game], plan.side_names[game], plan.label_w[game]
        for p in (0, 1):
            side = self.side(game, p)
            ui[f"side_label{p}.{game}"] = UILabel(pygame.Rect(pad, y, label_w, label_h if stacked else field_h),
                                                  names[p], manager, container=panel, object_id="#field_label")
            x = pad if stacked else pad + label_w
            if stacked:
                y += label_h
            ui[f"side{p}.{game}"] = UIDropDownMenu(list(SIDE_CHOICES), (_label_of(side.agent), side.agent),
                                                   pygame.Rect(x, y, pad + inner - x, field_h), manager,
                                                   container=panel)
            y += field_h + px(2)
            for i, line in enumerate(plan.descriptions[game][p]):  # the side's agent, wrapped
                ui[f"desc{p}.{game}" + (f".{i}" if i else "")] = UILabel(
                    pygame.Rect(x, y, pad + inner - x, desc_h), line, manager, container=panel, object_id="#card_hint")
                y += desc_h
            y += px(6)
        title = game_title(game)
        play = plan.play_labels[game]
        play_h = max(px(48), projector.text_height(manager, plan.play_font, "button") + px(8))
        blurb = game_info(game).blurb
        hidden = [f"{names[p]}: {describe_side(game, self.side(game, p))}" for p in (0, 1)
                  if not plan.descriptions[game][p]]  # no room on the card for these sides' agents
        tip = "<br>".join(html.escape(line) for line in [
            f"Start {title} (Enter)" + (f": {blurb}" if blurb and not plan.blurb_rows else ""), *hidden])
        ui[f"play.{game}"] = UIButton(pygame.Rect(pad, rect.height - 4 - pad - play_h, inner, play_h),
                                      play, manager, container=panel, object_id=plan.play_font, tool_tip_text=tip)

    def _picture(self, game: str, width: int, height: int) -> pygame.Surface:
        """The game's board drawn by its own view at a sample position (cached per size)."""
        key = (game, width, height)
        if key not in self._pictures:
            surface = pygame.Surface((width, height), pygame.SRCALPHA)
            g = profile_for(game).game
            state = g.initial_state()
            try:
                parts = window_parts(game)
                for m in parts.card_moves:
                    if m in g.actions(state):
                        state = g.result(state, m)
                if parts.card_picture is not None:  # the game's own picture (Pig: three dice, its table is too busy)
                    parts.card_picture(surface, surface.get_rect())
                else:
                    view_for(g).draw(surface, surface.get_rect(), state, ViewState(to_move=g.to_move(state)))
            except Exception:  # noqa: BLE001 - a picture is decoration: the card works without it
                surface.fill((0, 0, 0, 0))
            self._pictures[key] = surface
        return self._pictures[key]

    def _set_focus(self, game: str) -> None:
        """Highlight ``game``'s card; ``side0``/``side1``/``desc0``/``desc1``/``start`` name its widgets."""
        self.game = game
        if self.app is not None and self._cards and game not in self._cards:  # on another page of cards
            self.layout(self.app.size)
            return
        for alias, key in (("side0", "side0"), ("side1", "side1"), ("desc0", "desc0"), ("desc1", "desc1"),
                           ("start", "play")):
            widget = self._ui.get(f"{key}.{game}")
            if widget is not None:
                self._ui[alias] = widget

    def _set_message(self, text: str) -> None:
        self.message = text
        if self.app is None or self._message_rect is None:
            return
        rows, _ = message_rows(self.app.manager, text, self._message_rect.width, self.app.size[1])
        if rows != self._message_rows:
            self.layout(self.app.size)  # more (or fewer) lines: the cards make room for them
        else:
            self._show_message()

    # -- events ------------------------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        """Side drop-downs, the Play and bottom buttons (:meth:`buttons`), a click on a card, and the keys
        Left / Right / Enter / S (:meth:`key_command`)."""
        assert self.app is not None
        if self.question is not None:
            if self.question.handle_event(event):
                return True
            if not self.question.alive:
                self.question = None
        if self.file_dialog is not None and getattr(event, "ui_element", None) is self.file_dialog:
            if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
                self.close_dialog()
                self.load_game_file(event.text)
                return True
            if event.type == pygame_gui.UI_WINDOW_CLOSE:
                self.file_dialog = None
                return True
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            return self._side_chosen(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            return self.run_button(event.ui_element, self.buttons())
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for g, rect in self._cards.items():
                if rect.collidepoint(event.pos):
                    self._set_focus(g)
            return False
        if event.type == pygame.KEYDOWN:
            command = self.key_command(event.key, event.mod)
            if command is not None:
                command()
                return True
        return False

    def buttons(self) -> dict[str, Callable[[], object]]:
        """The title screen's button table: widget name -> what its button does (the Play of each card on screen,
        the arrows that page the cards, the bottom row)."""
        assert self.app is not None
        app = self.app
        table: dict[str, Callable[[], object]] = {f"play.{g}": partial(self.start, g) for g in self._cards}
        table.update({
            "settings": lambda: app.open_settings(self.game),
            "treelab": app.open_tree_lab,
            "watch": self.watch,
            "gamefile": self.open_game_file,
            "quit": lambda: events.post("QUIT_APP"),
        })
        if "prev_cards" in self._ui:  # the cards page (more games than fit the width)
            table["prev_cards"] = lambda: self._set_focus(self.games[max(0, self._first - 1)])
            table["next_cards"] = lambda: self._set_focus(
                self.games[min(len(self.games) - 1, self._first + len(self._cards))])
        return table

    def key_command(self, key: int, mod: int = 0) -> Callable[[], object] | None:
        """What a key does on the title screen (``None``: nothing): Enter plays the highlighted card, Left / Right
        move the highlight (round the row), S opens the settings (not with Ctrl or Alt)."""
        assert self.app is not None
        app = self.app
        step = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1}.get(key)
        if step is not None:
            return lambda: self._set_focus(self.games[(self.games.index(self.game) + step) % len(self.games)])
        table: dict[int, Callable[[], object]] = {
            pygame.K_RETURN: self.start,
            pygame.K_KP_ENTER: self.start,
        }
        if not mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
            table[pygame.K_s] = lambda: app.open_settings(self.game)
        return table.get(key)

    def open_game_file(self, start: Path | None = None) -> None:
        """Open the "Open a game file..." dialog (``.py`` files) at ``start``, else the shipped examples
        (``examples/games``); a pick loads the game (:meth:`load_game_file`)."""
        assert self.app is not None
        from gameplay.ui.widgets.dialogs import file_dialog
        self.close_dialog()
        initial = start or (GAME_FILES_DIR if GAME_FILES_DIR.is_dir() else Path.cwd())
        self.file_dialog = file_dialog(self.app.manager, self.app.size, "Open a game file (.py)", initial,
                                       existing=True, suffixes={".py"})

    def load_game_file(self, path: str | Path) -> bool:
        """Load, check and register the game file ``path`` (again if it changed) and show its card, highlighted;
        a file that cannot be played leaves the menu as it was, its one-line reason in the message box.

        Returns:
            True when the game was loaded.
        """
        assert self.app is not None
        from gameplay.rules.registry import register_file
        try:
            info = register_file(str(path), reload=True)
        except GameError as e:
            self._set_message(f"Cannot open the game file: {e}")
            return False
        self.games = game_names()
        self.game = info.name
        self.message = f"Loaded {info.title} from {Path(info.source_file).name}: press Play on its card"
        self.layout(self.app.size)
        return True

    def _side_chosen(self, event: pygame.event.Event) -> bool:
        """A side's drop-down changed: highlight its card and set the side (saved at once)."""
        option = getattr(event, "selected_option_id", None) or event.text
        for g in self.games:
            for p in (0, 1):
                if event.ui_element is self._ui.get(f"side{p}.{g}"):
                    self._set_focus(g)
                    self.set_side(g, p, option)
                    return True
        return False

    def set_side(self, game: str, player: int, agent: str) -> None:
        """Choose who plays a side (saved at once) and describe it on the card."""
        assert self.app is not None
        if agent not in AGENT_CHOICES:
            return
        self.side(game, player).agent = agent
        error = self.app.save_settings()
        if agent == "file" and not self.side(game, player).file:  # no file chosen yet: the settings panel picks it
            self.app.open_settings(game)
            return
        self.message = error or ""
        self.layout(self.app.size)  # the new description may take more (or fewer) lines

    def start(self, game: str | None = None, *, replace: Any = None) -> None:
        """Build both agents of ``game`` (default: the highlighted card) and start the match, or say why not.

        When ``game`` has autosaved games in progress, ask first (a row per saved game with Resume / Discard, then
        New game / Cancel: :class:`gameplay.ui.play.resume.SavedGameQuestion`); ``replace`` is the saved game the
        player agreed to replace (the new match autosaves over it once a move is played), or
        ``gameplay.ui.play.resume.NEW_SLOT`` (start without asking, in an autosave slot of its own).
        """
        assert self.app is not None
        game = game or self.game
        if replace is None:
            from gameplay.files import autosave
            saves, problems = autosave.load_autosaves()
            if problems:
                self._set_message(str(problems[0]))
            mine = autosave.games_of(saves, game)
            if mine:
                self._set_focus(game)
                self.close_dialog()
                from gameplay.ui.play.resume import SavedGameQuestion
                self.question = SavedGameQuestion(self, mine)  # every saved game of it, newest first
                return
        self._set_focus(game)
        agents = []
        for p in (0, 1):
            try:
                agents.append(build_side_agent(game, self.side(game, p)))
            except SettingsError as e:
                name = side_names(game)[p].replace(" (first)", "")
                self._set_message(f"{game_title(game)}, {name}: {e.problems[0][1]} (open Settings)")
                return
        scene = self.app.start_match(game, agents[0], agents[1])
        if replace is not None and getattr(replace, "path", None) is not None:
            scene.aids.autosave_slot = replace.path

    def watch(self) -> None:
        """Watch AI vs AI: the App's attract mode if it has one, else a demo of two ``medium`` agents."""
        assert self.app is not None
        attract = getattr(self.app, "start_attract_mode", None)
        if callable(attract):
            attract(watch=True)  # only Esc leaves: Space pauses, T shows the tree
            return
        self.app.start_match(self.game, "medium", "medium", demo=True)

    def busy(self) -> bool:
        """The title screen changes only with input: the App may wait for it (``gameplay.ui.shell.idle``)."""
        return False

    def draw(self, surface: pygame.Surface) -> None:
        """The background and a ring around the highlighted card (the widgets are drawn by the App)."""
        pal = projector.palette()
        surface.fill(pal.background)
        rect = self._cards.get(self.game)
        if rect is not None:
            pygame.draw.rect(surface, pal.accent, rect.inflate(projector.px(8), projector.px(8)),
                             width=max(2, projector.px(3)), border_radius=projector.px(16))
