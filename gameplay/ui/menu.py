"""The start menu: choose the game and who plays each side (a person or an agent preset), then Start."""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel

from ai.agents import make_agent
from ai.profiles import available_games, profile_for
from gameplay.rules.base import GameError
from gameplay.ui import events
from gameplay.ui.match import BACKGROUND, GAME_TITLES, describe_agent
from gameplay.ui.scene import Scene

SIDE_CHOICES: tuple[tuple[str, str], ...] = (
    ("Human", "human"), ("Beginner", "beginner"), ("Easy", "easy"), ("Medium", "medium"),
    ("Hard", "hard"), ("Expert", "expert"), ("Random", "random"),
)
"""(label, agent spec) of each choice in a side's drop-down."""


def _label_of(spec: str) -> str:
    for label, s in SIDE_CHOICES:
        if s == spec:
            return label
    return spec


class MenuScene(Scene):
    """The start menu.

    Args:
        game: the game selected at first (falls back to the first available game).
        p1: agent spec of the first player (default ``human``).
        p2: agent spec of the second player (default ``medium``).
    """

    def __init__(self, game: str = "tictactoe", p1: str = "human", p2: str = "medium") -> None:
        super().__init__()
        self.games = available_games() or ("tictactoe",)
        self.game = game if game in self.games else self.games[0]
        specs = {s for _, s in SIDE_CHOICES}
        self.sides = [p1 if p1 in specs else "human", p2 if p2 in specs else "medium"]
        self.message = ""
        self._ui: dict[str, Any] = {}

    # -- Scene -------------------------------------------------------------------------------------------------------
    def on_exit(self) -> None:
        """Kill the widgets."""
        self._kill()

    def _kill(self) -> None:
        for w in self._ui.values():
            w.kill()
        self._ui = {}

    def layout(self, size: tuple[int, int]) -> None:
        """Title, the game and side drop-downs with a description of each agent, Start and Quit."""
        assert self.app is not None
        self._kill()
        manager = self.app.manager
        w, h = size
        col_w = min(620, w - 40)
        x0 = (w - col_w) // 2
        y = max(20, h // 2 - 330)
        ui = self._ui
        ui["title"] = UILabel(pygame.Rect(0, y, w, 84), "Adversarial-Search Arcade", manager,
                              object_id="#title")
        y += 80
        ui["subtitle"] = UILabel(pygame.Rect(0, y, w, 34),
                                 "Play classic games against minimax and alpha-beta opponents", manager,
                                 object_id="#subtitle")
        y += 64
        label_w = 200
        field_w = col_w - label_w - 12
        row_h = 46
        game_opts = [(GAME_TITLES.get(g, g), g) for g in self.games]
        ui["game_label"] = UILabel(pygame.Rect(x0, y, label_w, row_h), "Game", manager, object_id="#field_label")
        ui["game"] = UIDropDownMenu(game_opts, (GAME_TITLES.get(self.game, self.game), self.game),
                                    pygame.Rect(x0 + label_w + 12, y, field_w, row_h), manager)
        y += row_h + 26
        names = profile_for(self.game).game.player_names
        for p in (0, 1):
            suffix = " (moves first)" if p == 0 else ""
            ui[f"side_label{p}"] = UILabel(pygame.Rect(x0, y, label_w, row_h), f"{names[p]}{suffix}", manager,
                                           object_id="#field_label")
            ui[f"side{p}"] = UIDropDownMenu(list(SIDE_CHOICES), (_label_of(self.sides[p]), self.sides[p]),
                                            pygame.Rect(x0 + label_w + 12, y, field_w, row_h), manager)
            y += row_h + 2
            ui[f"desc{p}"] = UILabel(pygame.Rect(x0 + label_w + 12, y, field_w, 30), self._describe(p), manager,
                                     object_id="#hint")
            y += 30 + 22
        y += 10
        ui["start"] = UIButton(pygame.Rect(x0, y, col_w, 64), "Start", manager, object_id="#start_button",
                               tool_tip_text="Start the match (Enter)")
        y += 64 + 14
        half = (col_w - 12) // 2
        ui["treelab"] = UIButton(pygame.Rect(x0, y, half, 48), "Tree Lab", manager,
                                 tool_tip_text="Textbook game trees: minimax, alpha-beta and expectimax step by step")
        ui["quit"] = UIButton(pygame.Rect(x0 + half + 12, y, col_w - half - 12, 48), "Quit", manager,
                              tool_tip_text="Close the arcade (Esc)")
        y += 48 + 14
        ui["message"] = UILabel(pygame.Rect(x0, y, col_w, 30), self.message, manager, object_id="#hint")
        ui["hint"] = UILabel(pygame.Rect(0, h - 44, w, 30),
                             "Enter: start    F11: fullscreen    Esc: quit", manager, object_id="#hint")

    def _describe(self, p: int) -> str:
        """What the chosen agent of side ``p`` is, e.g. ``medium (alphabeta), depth 3``."""
        try:
            agent = make_agent(self.game, self.sides[p])
        except GameError as e:
            return f"not available: {e}"
        return "played with the mouse" if agent.is_human else describe_agent(agent)

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Drop-down changes, Start / Quit, and Enter to start."""
        ui = self._ui
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            option = getattr(event, "selected_option_id", None) or event.text
            if event.ui_element is ui.get("game"):
                self.game = option if option in self.games else self.game
                self.message = ""
                assert self.app is not None
                self.layout(self.app.size)
                return True
            for p in (0, 1):
                if event.ui_element is ui.get(f"side{p}"):
                    self.sides[p] = option
                    ui[f"desc{p}"].set_text(self._describe(p))
                    return True
            return False
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is ui.get("start"):
                self.start()
                return True
            if event.ui_element is ui.get("treelab") and self.app is not None:
                self.app.open_tree_lab()
                return True
            if event.ui_element is ui.get("quit"):
                events.post("QUIT_APP")
                return True
            return False
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.start()
            return True
        return False

    def start(self) -> None:
        """Check both agents and ask the App for the match (``START_MATCH``); show a message if one is bad."""
        try:
            for p in (0, 1):
                make_agent(self.game, self.sides[p])
        except GameError as e:
            self.message = str(e)
            if "message" in self._ui:
                self._ui["message"].set_text(self.message)
            return
        events.post("START_MATCH", game=self.game, p1=self.sides[0], p2=self.sides[1])

    def draw(self, surface: pygame.Surface) -> None:
        """A plain background (the widgets are drawn by the App)."""
        surface.fill(BACKGROUND)
