"""Play aids of a match: hint, help, JSON save/load, autosave, and taking over a side whose AI failed.

:class:`PlayAids` is owned by the :class:`~gameplay.ui.play.match.MatchScene` (``scene.aids``). The scene calls
:meth:`PlayAids.handle_event` first for each event, :meth:`update` and :meth:`draw` each frame, adds
:meth:`actions` to its panel buttons, and :meth:`close` on exit.

* **Hint** (H in tic-tac-toe and checkers, ``?`` in every game, the panel's Hint button): the ``expert``
  preset searches the position on its own :class:`~ai.agents.runner.AgentRunner` thread (the window never waits);
  the suggested move is highlighted on the board until the position changes.
* **Help** (F1, the Help button): :class:`~gameplay.ui.play.help_scene.HelpWindow`.
* **Save / Load** (S / L) for tic-tac-toe and Pig as JSON (:mod:`gameplay.files.savegame`); checkers has PDN.
* **Autosave**: after every change of the position (move, undo, redo, load) the game is written atomically to
  the data folder, unless the match is a demo or the attract show, or the App is still asking whether to
  resume the previous game. A finished game removes its autosave (there is nothing left to resume).
* **Race** (K, the panel's Race button): several agents search the current position side by side
  (:func:`gameplay.ui.play.race_scene.open_race`); at the end of a game the panel says there is nothing to race.
* **AI failure**: when the worker raised, two buttons appear in the strip under the board (never over it; Race,
  Hint and Help hide meanwhile): "Play this side yourself" (the side becomes human and the game goes on) and
  "Try the AI again".
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton
from pygame_gui.windows import UIFileDialog

from ai.agents.agent_base import Agent
from ai.agents.agents import make_agent
from ai.agents.runner import AgentRunner
from gameplay.files import autosave, savegame
from gameplay.rules.base import GameError
from gameplay.rules.registry import game_info, game_title
from gameplay.ui.boards.board import ExtraAction
from gameplay.ui.boards.window_parts import window_parts
from gameplay.ui.play.decision_store import SAVE_WAIT_S
from gameplay.ui.play.growth_scene import open_help_figure
from gameplay.ui.play.help_scene import HelpWindow
from gameplay.ui.play.match_panel import match_areas
from gameplay.ui.widgets import projector
from gameplay.ui.widgets.dialogs import file_dialog

if TYPE_CHECKING:
    from gameplay.ui.boards.match_host import MatchHost

HINT_AGENT = "expert"
"""Agent spec that computes hints."""
HINT_COLOUR = (120, 235, 140)
"""Colour of the hint highlight."""
RACE_TIP = "Race several agents on this position: move, value, depth, nodes, time side by side"
"""Tool tip of the Race button."""


def setting(app: Any, name: str, default: Any) -> Any:
    """``app.settings.<name>`` when the App has settings (``gameplay.files.settings``), else ``default``."""
    return getattr(getattr(app, "settings", None), name, default)


def sounds_of(app: Any) -> Any:
    """The App's :class:`~gameplay.ui.widgets.sounds.SoundBoard`, or ``None``."""
    return getattr(app, "sounds", None)


class PlayAids:
    """Hint, help, save/load, autosave and AI-failure recovery for one match scene.

    Args:
        scene: the match scene.
        autosave_dir: folder of the autosave (default: :func:`gameplay.files.autosave.data_dir`, read at each write).
    """

    def __init__(self, scene: MatchHost, autosave_dir: str | Path | None = None) -> None:
        self.scene = scene
        self.autosave_dir = autosave_dir
        self.runner = AgentRunner(processes=True)
        """The hint's own worker (the match's runner stays free for the opponent)."""
        self.hint_tag: Any = None
        """Record tag of the position the hint is for (pending or shown), or ``None``."""
        self.hint: Any = None
        """The suggested move at ``hint_tag`` once found, or ``None``."""
        self.hint_text = ""
        self._hint_agent: Agent | None = None
        self.help: HelpWindow | None = None
        self.dialog: UIFileDialog | None = None
        self._on_path: Any = None
        self._asked: tuple[str, Any, bool] | None = None
        """The open file dialog's title, callback and ``existing`` (:meth:`reopen` asks it again)."""
        self._error_buttons: dict[str, UIButton] = {}
        self._error_key: Any = None
        self._side_buttons: dict[str, UIButton] = {}
        self._side_key: Any = None
        self._side_shown = True
        self._saved_key: Any = None
        self._wrote = False
        self.autosave_problem: str | None = None
        """Why the last autosave failed (shown once), or ``None``."""
        self.autosaves = 0
        """Autosaves written (tests)."""
        self.autosave_slot: Path | None = None
        """The file this match autosaves to: the slot it was resumed from (or took over with the player's
        consent), else the first free slot of its game, claimed at the first write (another game in progress is
        never overwritten)."""

    # -- panel -------------------------------------------------------------------------------------------------------
    @property
    def hint_key(self) -> int | None:
        """H, unless the game's controller uses H for a move (Pig: hold); ``?`` works in every game."""
        shortcuts = getattr(self.scene.controller, "shortcuts", {})
        return None if pygame.K_h in shortcuts else pygame.K_h

    def _side_rect(self) -> pygame.Rect | None:
        """Where Race, Hint and Help go: the strip under the board, centred under it like the drawn board (the result
        banner's place, so they hide at the end of a game), or ``None`` when the window leaves no room (then they
        are panel buttons)."""
        app = self.scene.app
        r = self.scene.board_rect
        if app is None or r.width <= 0:
            return None
        h, w = projector.px(44), projector.px(130)
        room = app.size[1] - r.bottom - 8
        if room < h + 8 or r.width < 3 * w + 20 + projector.px(120):
            return None
        return pygame.Rect(r.centerx - (3 * w + 20) // 2, r.bottom + 10, 3 * w + 20, h)

    def actions(self) -> Sequence[ExtraAction]:
        """Hint, Help and Race (unless beside the board), and (tic-tac-toe, Pig) Save / Load: extra panel
        buttons."""
        out: list[ExtraAction] = []
        if self._side_rect() is None:
            out += [ExtraAction(self.hint_label, self.hint_key, self.request_hint, "The expert's suggested move"),
                    ExtraAction("Help (F1)", pygame.K_F1, self.toggle_help, "Rules and keys of this game"),
                    ExtraAction("Race (K)", pygame.K_k, self.open_race, RACE_TIP)]
        if game_info(self.scene.game_name).archive is None:  # else the game's own tools save it in its format
            out += [ExtraAction("Save (S)", pygame.K_s, self.ask_save, "Save the game to a file (JSON)"),
                    ExtraAction("Load (L)", pygame.K_l, self.ask_load, "Load a game from a file (JSON)",
                                replaces_game=True)]
        return out

    def open_race(self) -> None:
        """Race (K): several agents search the current position side by side (:mod:`gameplay.ui.play.race_scene`);
        the panel says why not when the game is over."""
        from gameplay.ui.play.race_scene import open_race
        open_race(self.scene)

    @property
    def modal(self) -> bool:
        """True while the help window or a file dialog is open (Esc closes it; board input waits)."""
        return (self.help is not None and self.help.alive) or (self.dialog is not None and self.dialog.alive())

    def close(self) -> None:
        """Close the help window and dialogs (Esc, leaving the scene)."""
        if self.help is not None:
            self.help.close()
        self.help = None
        if self.dialog is not None and self.dialog.alive():
            self.dialog.kill()
        self.dialog = None
        self._on_path = None
        self._asked = None

    def shutdown(self) -> None:
        """Leaving the scene: close windows, stop the hint search, remove the error buttons."""
        self.close()
        self.runner.cancel()
        if self.hint is None:  # a hint still searching is dropped: asked again after a return (the race view)
            self.hint_tag = None
        self._set_error_buttons(False)
        for b in self._side_buttons.values():
            b.kill()
        self._side_buttons = {}
        self._side_key = None

    @property
    def side_buttons(self) -> dict[str, UIButton]:
        """``{"race" | "hint" | "help": button}``: Race, Hint and Help in the strip under the board, left to right;
        empty when the board leaves no room there (they are then panel buttons: ``MatchScene.extra_buttons``)."""
        return dict(self._side_buttons)

    @property
    def error_buttons(self) -> dict[str, UIButton]:
        """``{"take" | "retry": button}``: the two buttons under the board while the AI to move has failed here
        (play its side yourself, ask it again); empty otherwise."""
        return dict(self._error_buttons)

    # -- events ------------------------------------------------------------------------------------------------------
    @property
    def hint_label(self) -> str:
        """``"Hint (H)"``, or ``"Hint (?)"`` where H is a move key."""
        return "Hint (H)" if self.hint_key is not None else "Hint (?)"

    def _place_side_buttons(self) -> None:
        """(Re)build the Race, Hint and Help buttons beside the board when there is room (after each layout)."""
        app = self.scene.app
        rect = self._side_rect() if app is not None else None
        key = (tuple(rect) if rect is not None else None, id(app.manager) if app is not None else 0)
        if key == self._side_key:
            return
        self._side_key = key
        for b in self._side_buttons.values():
            b.kill()
        self._side_buttons = {}
        if rect is None or app is None:
            return
        w = (rect.width - 20) // 3
        self._side_buttons = {
            "race": UIButton(pygame.Rect(rect.x, rect.y, w, rect.height), "Race (K)", app.manager,
                             tool_tip_text=RACE_TIP),
            "hint": UIButton(pygame.Rect(rect.x + w + 10, rect.y, w, rect.height), self.hint_label, app.manager,
                             tool_tip_text="The expert's suggested move"),
            "help": UIButton(pygame.Rect(rect.right - w, rect.y, w, rect.height), "Help (F1)", app.manager,
                             tool_tip_text="Rules and keys of this game"),
        }
        self._side_shown = True

    def _show_side_buttons(self) -> None:
        """Hide Race, Hint and Help while the result banner or the search-tree overlay covers their place."""
        scene = self.scene
        shown = scene.record.outcome() is None and not scene.overlay.visible and not self._error_buttons
        if shown == self._side_shown or not self._side_buttons:
            return
        self._side_shown = shown
        for b in self._side_buttons.values():
            if shown:
                b.show()
            else:
                b.hide()

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Help and file-dialog events, the ``?``, F1 and K keys, the side and error buttons. Returns True when used.

        While the help or a dialog is open, keys and clicks stop here (the board waits).
        """
        if self.help is not None and self.help.handle_event(event):
            self.help = None
            return True
        if self.dialog is not None:
            if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and event.ui_element is self.dialog:
                on_path = self._on_path
                self.close()
                if on_path is not None:
                    on_path(event.text)
                return True
            if event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.dialog:
                self.dialog = None
                self._on_path = None
                self._asked = None
                return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F1:
            self.toggle_help()
            return True
        if self.modal:
            return event.type in (pygame.KEYDOWN, pygame.KEYUP, pygame.MOUSEBUTTONDOWN)
        if event.type == pygame.KEYDOWN and (getattr(event, "unicode", "") == "?" or (
                self._side_buttons and event.key == self.hint_key and not event.mod & pygame.KMOD_CTRL)):
            self.request_hint()
            return True
        if (event.type == pygame.KEYDOWN and self._side_buttons and event.key == pygame.K_k
                and not event.mod & pygame.KMOD_CTRL):
            self.open_race()
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self._side_buttons.get("race"):
                self.open_race()
                return True
            if event.ui_element is self._side_buttons.get("hint"):
                self.request_hint()
                return True
            if event.ui_element is self._side_buttons.get("help"):
                self.toggle_help()
                return True
            if event.ui_element is self._error_buttons.get("take"):
                self.take_over()
                return True
            if event.ui_element is self._error_buttons.get("retry"):
                self.retry()
                return True
        return False

    # -- help --------------------------------------------------------------------------------------------------------
    def toggle_help(self) -> None:
        """Open the help window of the game, or close it (F1)."""
        if self.help is not None and self.help.alive:
            self.close()
            return
        app = self.scene.app
        if app is None:
            return
        self.close()
        policy = None
        figure = window_parts(self.scene.game_name).help_figure
        if figure is not None:  # the help's figure button (Pig's "Policy picture", issue 15)
            policy = lambda: (open_help_figure(app, figure), None)[-1]  # noqa: E731
        self.help = HelpWindow(app.manager, app.size, self.scene.game_name,
                               game_title(self.scene.game_name), policy)

    # -- hint --------------------------------------------------------------------------------------------------------
    def hint_agent(self) -> Agent:
        """The agent that computes hints (made on first use: :data:`HINT_AGENT`, unless :meth:`use_hint_agent`
        chose another)."""
        if self._hint_agent is None:
            self._hint_agent = make_agent(self.scene.game_name, HINT_AGENT)
        return self._hint_agent

    def use_hint_agent(self, agent: Agent) -> None:
        """Compute the next hints with ``agent`` instead of :data:`HINT_AGENT` (a stronger or a scripted one)."""
        self._hint_agent = agent

    @property
    def hint_pending(self) -> bool:
        """True while the hint search runs."""
        return not self.runner.idle()

    def request_hint(self) -> bool:
        """Start the expert's search of the current position on the hint thread (H / ?). Returns True if started
        (or already found for this position); False when it is not a human's turn."""
        scene = self.scene
        if not scene.human_to_move():
            scene.notify("Hints are for your own move.")
            return False
        tag = scene.record.tag
        if self.hint_tag == tag:
            return True
        self.hint_tag, self.hint, self.hint_text = tag, None, ""
        try:
            agent = self.hint_agent()
        except GameError as e:
            scene.notify(f"No hint: {e}", error=True)
            return False
        self.runner.submit(agent, scene.record.state, ("hint", tag))
        return True

    def _poll_hint(self) -> None:
        scene = self.scene
        tag = scene.record.tag
        if self.hint_tag is not None and self.hint_tag != tag:
            self.runner.cancel()
            self.hint_tag, self.hint, self.hint_text = None, None, ""
            return
        if self.hint_tag is None or self.runner.idle():
            return
        try:
            res = self.runner.poll(("hint", tag))
        except Exception as e:  # noqa: BLE001 - a failed hint is a message, never a crash
            self.hint_tag = None
            scene.notify(f"No hint: {type(e).__name__}: {e}", error=True)
            return
        if res is None:
            return
        state = scene.record.state
        if res.move not in scene.game.actions(state):
            self.hint_tag = None
            return
        self.hint = res.move
        self.hint_text = scene.game.format_move(state, res.move)
        scene.notify(f"Hint: the expert plays {self.hint_text}")
        sounds = sounds_of(scene.app)
        if sounds is not None:
            sounds.play("hint")

    # -- save / load (JSON) ------------------------------------------------------------------------------------------
    def saved_game(self, wait_s: float = 0.0) -> savegame.SavedGame:
        """The current game as a :class:`~gameplay.files.savegame.SavedGame` (start, moves, both agent specs, the
        last AI decision with its tree: ``MatchHost.saved_decision``, waited for up to ``wait_s`` seconds while its
        tree is being written)."""
        scene = self.scene
        rec = scene.record
        return savegame.from_record(scene.game_name, scene.game, rec.start, rec.moves, list(scene.agents),
                                    scene.saved_decision(wait_s))

    def _open_file_dialog(self, title: str, on_path: Any, *, existing: bool, initial: Path) -> None:
        """The file dialog of the checkers' PDN and the agent files (:func:`gameplay.ui.widgets.dialogs.file_dialog`:
        rows fitted to the interface scale, folders first, hidden entries left out)."""
        app = self.scene.app
        if app is None:
            return
        self.close()
        self.dialog = file_dialog(app.manager, app.size, title, initial, existing=existing)
        self._on_path = on_path
        self._asked = (title, on_path, existing)

    def reopen(self, manager: pygame_gui.UIManager) -> None:
        """Ask again at the new scale when the open file dialog was left in an old UI manager (a zoom step, a
        theme change; the match calls this after each layout), at the file or folder it showed (the name typed
        for a save is kept)."""
        dialog, asked = self.dialog, self._asked
        if dialog is None or not dialog.alive() or dialog.ui_manager is manager or asked is None:
            return
        shown = getattr(dialog, "current_file_path", None) or getattr(dialog, "current_directory_path", "")
        self._open_file_dialog(asked[0], asked[1], existing=asked[2], initial=Path(str(shown)))

    def ask_save(self) -> None:
        """Pick a file name and save the game as JSON (S)."""
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        self._open_file_dialog("Save the game", self.save_to, existing=False,
                               initial=savegame.documents_dir() / f"{self.scene.game_name}-{stamp}.json")

    def ask_load(self) -> None:
        """Pick a saved game (JSON) and load it (L)."""
        self._open_file_dialog("Load a saved game", self.load_from, existing=True, initial=savegame.documents_dir())

    def save_to(self, path: str | Path) -> bool:
        """Save the game to ``path``; the panel says where, or why not. Returns success."""
        try:
            p = savegame.save_game(self.saved_game(SAVE_WAIT_S), path)
        except savegame.SaveError as e:
            self.scene.notify(f"Not saved: {e}", error=True)
            return False
        self.scene.notify(f"Saved the game ({self.scene.progress_text()}) to {p}")
        return True

    def load_from(self, path: str | Path) -> bool:
        """Load the saved game at ``path`` (its game and both sides); on any error the current game is kept and
        one message says why. Returns success."""
        from gameplay.ui.play.resume import open_saved_game
        scene = self.scene
        try:
            saved = savegame.load_game(path)
        except savegame.SaveError as e:
            scene.notify(f"Could not load {Path(path).name}: {e}. The current game is kept.", error=True)
            return False
        if scene.app is None:
            return False
        new = open_saved_game(scene.app, saved, f"Loaded {Path(path).name} ({saved.progress()}).")
        if new is not None and new.game_name == scene.game_name:
            new.autosave_to(self.autosave_slot)  # replaces the game the player agreed to replace
        return new is not None

    def autosave_to(self, path: Path | None) -> None:
        """Autosave to ``path`` from now on (the saved game this match goes on, or replaces; ``None``: a free slot
        of the game, claimed at the first write)."""
        self.autosave_slot = path

    # -- AI failure ----------------------------------------------------------------------------------------------------
    def ai_failed_here(self) -> bool:
        """True when the AI to move failed at the current position (the match waits for the human)."""
        scene = self.scene
        s = scene.record.state
        return (scene.error is not None and scene.error_tag == scene.record.tag
                and not scene.game.is_terminal(s) and not scene.game.is_chance(s)
                and not scene.is_human(scene.game.to_move(s)))

    def take_over(self) -> None:
        """The failed AI's side becomes human: the game goes on from the same position."""
        scene = self.scene
        player = scene.game.to_move(scene.record.state)
        scene.hand_side_to_human(player)
        self._set_error_buttons(False)
        if scene.app is not None:
            scene.layout(scene.app.size)
        scene.notify(f"You play {scene.game.player_names[player]} now.")

    def retry(self) -> None:
        """Ask the failed AI again at the same position."""
        self.scene.clear_error()
        self._set_error_buttons(False)

    def error_button_rects(self) -> list[tuple[str, str, pygame.Rect]] | None:
        """Where "Play this side yourself" and "Try the AI again" go: side by side in the strip under the board
        (Race, Hint and Help hide meanwhile), never over the board, sized to their labels at the interface scale
        (shorter labels when the column is narrow). ``(key, label, rect)`` each, or ``None`` without a window."""
        app = self.scene.app
        if app is None:
            return None
        manager, px = app.manager, projector.px
        r = self.scene.board_rect
        _panel, left, _status_h, _banner_h, _area = match_areas(app.size, projector.scale(),
                                                          getattr(self.scene.view, "aspect", None))
        gap = px(12)
        h = max(px(30), min(px(48), app.size[1] - r.bottom - px(8) - px(4)))
        labels = [("Play this side yourself", "Try the AI again"), ("Play it yourself", "Try again")]
        for take, retry in labels:
            widths = [projector.text_width(manager, t, None, "button") + px(36) for t in (take, retry)]
            if sum(widths) + gap <= left.width:
                break
        widths = [min(wi, (left.width - gap) // 2) for wi in widths]
        total = sum(widths) + gap
        x = max(left.x, min(r.centerx - total // 2, left.right - total))
        y = r.bottom + px(8)
        return [("take", take, pygame.Rect(x, y, widths[0], h)),
                ("retry", retry, pygame.Rect(x + widths[0] + gap, y, widths[1], h))]

    def _set_error_buttons(self, on: bool) -> None:
        """Show the two AI-failure buttons (made again when the layout or the interface scale changed), or remove
        them."""
        app = self.scene.app
        places = self.error_button_rects() if on else None
        key = (tuple((k, label, tuple(rect)) for k, label, rect in places), id(app.manager)) \
            if places is not None and app is not None else None
        if key == self._error_key:
            return
        self._error_key = key
        for b in self._error_buttons.values():
            b.kill()
        self._error_buttons = {}
        if places is None or app is None:
            return
        tips = {"take": "The AI failed: take over its side and go on", "retry": "Ask the AI for this move again"}
        self._error_buttons = {k: UIButton(rect, label, app.manager, tool_tip_text=tips[k])
                               for k, label, rect in places}

    # -- autosave ------------------------------------------------------------------------------------------------------
    def autosave_enabled(self) -> bool:
        """True unless the match is a demo or the attract show, or the App is asking about the last autosave."""
        scene = self.scene
        app = scene.app
        if scene.auto_restart_s is not None or getattr(scene, "attract", False) or app is None:
            return False
        prompt = getattr(app, "resume_prompt", None)
        if prompt is not None:
            if prompt.alive:
                return False
            app.close_resume_prompt()  # its window went with an old UI manager (new scale or theme)
        return bool(getattr(app, "autosave", True))

    def autosave_now(self) -> None:
        """Write the autosave if the position changed since the last write (or remove it once the game ended)."""
        if not self.autosave_enabled():
            return
        scene = self.scene
        rec = scene.record
        # written again when the last decision's tree has been written (it was saved with its words alone)
        key = (rec.match_id, rec.ply, tuple(id(a) for a in scene.agents), scene.decisions_saved)
        if key == self._saved_key:
            return
        self._saved_key = key
        try:
            if rec.outcome() is not None or rec.ply == 0:
                if self._wrote and self.autosave_slot is not None:
                    autosave.clear_autosave(path=self.autosave_slot)
                    self._wrote = False
                return
            if self.autosave_slot is None:
                self.autosave_slot = autosave.free_autosave_path(scene.game_name, self.autosave_dir)
            autosave.write_autosave(self.saved_game(), path=self.autosave_slot)
        except (savegame.SaveError, GameError, OSError) as e:
            if self.autosave_problem is None:
                scene.notify(f"Autosave failed: {e}", error=True)
            self.autosave_problem = str(e)
            return
        self._wrote = True
        self.autosaves += 1
        self.autosave_problem = None

    # -- per frame -----------------------------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Poll the hint, show or hide the AI-failure buttons, autosave a changed position."""
        self._poll_hint()
        self._place_side_buttons()
        self._set_error_buttons(self.ai_failed_here())
        self._show_side_buttons()
        self.autosave_now()

    def draw(self, surface: pygame.Surface) -> None:
        """Highlight the hinted move on the board (a pulsing ring; the path of a checkers move)."""
        scene = self.scene
        if self.hint is None or self.hint_tag != scene.record.tag:
            return
        rect, move, view = scene.board_rect, self.hint, scene.view
        pulse = 0.5 + 0.5 * math.sin(scene.clock * 5.0)
        width = 3 + round(3 * pulse)
        draw_hint = getattr(view, "draw_hint", None)  # the game's view draws the move on its board, if it can
        if draw_hint is None or not draw_hint(surface, rect, move, width, HINT_COLOUR):
            self._draw_label(surface, rect, f"Hint: {self.hint_text}")  # Pig: under the table (the panel too)

    def _draw_label(self, surface: pygame.Surface, rect: pygame.Rect, text: str) -> None:
        img = projector.default_font(projector.px(34)).render(text, True, (20, 30, 24))
        box = img.get_rect().inflate(24, 12)
        box.midleft = (rect.x + 8, rect.bottom + 10 + projector.px(44) // 2)
        pygame.draw.rect(surface, HINT_COLOUR, box, border_radius=10)
        surface.blit(img, img.get_rect(center=box.center))
