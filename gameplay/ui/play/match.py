"""The match scene: a board view, a side panel, and the AI playing through :class:`ai.agents.runner.AgentRunner`.

Written for any game of the :class:`~gameplay.rules.base.Game` protocol: the board is drawn and clicked
through the game's :class:`~gameplay.ui.boards.board.BoardView` and input controller
(``gameplay.ui.boards.views.view_for``), chance outcomes (Pig's die) are sampled by the scene as referee with a seeded
generator, and the AI searches on the runner's worker thread while the window keeps drawing. Every request is tagged
with ``GameRecord.tag`` (match identity and ply); new game, undo and redo cancel the pending search, so its move never
appears.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from concurrent.futures import Executor
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from ai.agents.agent_base import Agent
from ai.agents.agents import make_agent
from ai.agents.profiles import profile_for
from ai.agents.runner import AgentRunner
from ai.kernel.search import SearchResult
from gameplay.rules.base import GameError, shortened
from gameplay.rules.referee import GameRecord, sample_chance
from gameplay.ui.boards.board import ExtraAction, ViewState, ViewTools
from gameplay.ui.boards.match_host import describe_agent as describe_agent
from gameplay.ui.boards.views import view_for
from gameplay.ui.overlay.overlay import FONT_SIZE as OVERLAY_FONT_SIZE
from gameplay.ui.overlay.overlay import (
    TreeOverlay,
    make_recorder,
    show_decision,
)
from gameplay.ui.play import match_keys
from gameplay.ui.play import match_panel as panel
from gameplay.ui.play.decision_store import DecisionStore, Message, TreeReader, restore, tree_shown
from gameplay.ui.play.match_confirm import AskBeforeReplacing
from gameplay.ui.play.match_panel import MOVES_MIN_H as MOVES_MIN_H
from gameplay.ui.play.match_panel import button_label as button_label
from gameplay.ui.play.match_panel import fit_text as fit_text
from gameplay.ui.play.match_panel import format_nodes as format_nodes
from gameplay.ui.play.match_panel import format_seconds as format_seconds
from gameplay.ui.play.match_panel import format_value as format_value
from gameplay.ui.play.match_panel import match_areas as match_areas
from gameplay.ui.play.match_panel import no_search_message
from gameplay.ui.play.move_entry import read_typed_move
from gameplay.ui.widgets import events, projector
from gameplay.ui.widgets.scene import Scene

BACKGROUND = (22, 26, 36)
MOVE_ANIMATION_S = 1.0
"""Seconds after a move during which the board may animate it at animation speed 1 (the longest slide of a
multiple jump, the die settling): the scene counts as busy that long (longer at slower animation speeds)."""
CUE_S = 4.0
"""Seconds a board's cue (a flashing square, a message across the board after a wrong click) may animate."""



class MatchScene(AskBeforeReplacing, Scene):
    """One match between two sides (humans or agents).

    Args:
        game_name: ``tictactoe``, ``checkers`` or ``pig``.
        agents: the agents of players 0 and 1 (``agent.is_human`` for a person).
        ai_delay_s: minimum seconds between a position appearing and the AI's move being shown (watchable
            AI-vs-AI); the search itself starts at once.
        auto_restart_s: seconds after the end before a new game starts by itself (demos), or ``None``.
        chance_delay_s: seconds before the referee rolls the die at a chance node.
        seed: seed of the referee's random generator (dice).
        runner: the agent runner (a new one by default).
        overlay_on_start: show the search-tree overlay with each AI decision (``demo --overlay``, the settings'
            overlay); the agents keep playing.
        board_numbers: the user's "square numbers" setting, for a view that draws them (checkers': its
            ``show_square_numbers``); ``None`` leaves the view's own default.
        tree_reader: what reads a resumed game's saved tree in the background (a ``concurrent.futures.Executor``;
            default a daemon thread per read: :class:`gameplay.ui.play.decision_store.TreeReader`).

    Raises:
        GameError: unknown game.
    """

    def __init__(self, game_name: str, agents: tuple[Agent, Agent], *, ai_delay_s: float = 0.3,
                 auto_restart_s: float | None = None, chance_delay_s: float = 0.4, seed: int = 0,
                 runner: AgentRunner | None = None, overlay_on_start: bool = False,
                 board_numbers: bool | None = None, tree_reader: Executor | None = None) -> None:
        super().__init__()
        self.game_name = game_name
        self.game = profile_for(game_name).game
        self.agents = agents
        self.ai_delay_s = ai_delay_s
        self.auto_restart_s = auto_restart_s
        self.chance_delay_s = chance_delay_s
        self.rng = random.Random(seed)
        self.runner = runner if runner is not None else AgentRunner(processes=True)
        self.view = view_for(self.game)
        show_numbers = getattr(self.view, "show_square_numbers", None)
        if board_numbers is not None and show_numbers is not None:
            show_numbers(board_numbers)
        self.controller = self.view.make_controller()
        self.record = GameRecord(self.game, self.game.initial_state())
        self.games_started = 1
        self.hover: Any = None
        self.clock = 0.0
        self.turn_clock = 0.0
        """Seconds since the current position appeared."""
        self.pending: tuple[Hashable, SearchResult] | None = None
        """A finished AI decision waiting for ``ai_delay_s`` (tag, result)."""
        self.last_decision: tuple[int, str, SearchResult] | None = None
        """(player, move text, result) of the last AI move played on the way to the current position."""
        self._decisions: dict[int, tuple[int, str, SearchResult]] = {}
        """The AI decisions of this game by the ply they led to (undo shows the one before, redo the one again)."""
        self._trees: dict[int, tuple[Any, Any]] = {}
        """The recorded tree (and its overlay info) of each decision in ``_decisions``, by the same ply."""
        self._missing: dict[int, Message] = {}
        """A resumed game's AI moves whose tree the save did not hold (or could not give back), by ply: what the tree
        view says there (:func:`gameplay.ui.play.decision_store.restore`)."""
        self._store = DecisionStore(self.game)
        """The decisions' records for the saved games (:class:`gameplay.ui.play.decision_store.DecisionStore`)."""
        self._reader = TreeReader(self.game, self.view, tree_reader)
        """Reads a resumed game's saved tree on a thread; only this scene installs what it hands over."""
        self.paused = False
        """AI-vs-AI only: the agents wait (after an undo or redo, or Space) until resumed."""
        self.error: str | None = None
        self.error_tag: Hashable | None = None
        """Position where the AI failed; it is not asked again there (undo or new game to go on)."""
        self.board_rect = pygame.Rect(0, 0, 0, 0)
        self.panel = panel.MatchPanel(self, self._ui)
        """The side panel, status line and result banner (:class:`gameplay.ui.play.match_panel.MatchPanel`)."""
        from gameplay.ui.overlay.mcts_overlay import MCTSOverlay
        from gameplay.ui.overlay.overlay_switch import OverlaySwitch
        self.overlay = OverlaySwitch(TreeOverlay(on_presenter=self._on_presenter),
                                     MCTSOverlay(on_presenter=self._on_presenter))
        """The search-tree overlay of the last AI decision (key T, the panel's Tree button): the minimax-family
        tree or the Monte Carlo tree, whichever the decision grew."""
        from gameplay.ui.play.growth_scene import attach_growth
        attach_growth(self)  # the overlay's Growth button (not in Pig)
        self.overlay_on_start = overlay_on_start
        """``demo --overlay``: show the overlay with each decision (the agents keep playing)."""
        self._recorder: tuple[Hashable, Any] | None = None
        self.notice: tuple[str, bool] | None = None
        """A message for the panel (text, is_error), e.g. "Saved game.pdn" or a PDN error; cleared by a move."""
        make_tools = getattr(self.view, "make_tools", None)
        self.tools: ViewTools | None = make_tools(self) if make_tools is not None else None
        """The board view's extra commands and dialogs (checkers: flip, numbers, PDN, FEN), or ``None``."""
        self.moved_at: float | None = None
        """``clock`` when the last move was played (cosmetic move animations); ``None`` after undo, redo, load."""
        from gameplay.ui.play.play_aids import PlayAids
        self.aids = PlayAids(self)
        """Hint, help, JSON save/load, autosave, AI-failure recovery (``gameplay.ui.play.play_aids``)."""
        self._cue_seen: Any = None
        self._cue_at = 0.0
        """The board's cue last seen by :meth:`busy`, and ``clock`` when it appeared."""
        self._init_question()

    # -- sides -------------------------------------------------------------------------------------------------------
    def is_human(self, player: int) -> bool:
        """True when ``player`` (0 or 1) is played by a person."""
        return self.agents[player].is_human

    @property
    def has_human(self) -> bool:
        """True when at least one side is a person."""
        return self.is_human(0) or self.is_human(1)

    def hand_side_to_human(self, player: int) -> None:
        """A person plays ``player`` (0 or 1) from now on, at the same position (a failed AI's side taken over): the
        AI's failure is forgotten (:meth:`clear_error`) and an AI-against-AI pause ends.

        Raises:
            ValueError: ``player`` is not 0 or 1.
        """
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, not {player!r}")
        agents = list(self.agents)
        agents[player] = make_agent(self.game_name, "human")
        self.agents = (agents[0], agents[1])
        self.clear_error()
        self.paused = False

    def clear_error(self) -> None:
        """Forget the AI's failure (:attr:`error` and :attr:`error_tag`), so that the AI is asked again at this
        position."""
        self.error = self.error_tag = None

    def human_to_move(self) -> bool:
        """True when the game goes on, the position is a decision, and a person decides it."""
        s = self.record.state
        return (not self.game.is_terminal(s) and not self.game.is_chance(s)
                and self.is_human(self.game.to_move(s)))

    @property
    def decisions(self) -> Mapping[int, tuple[int, str, SearchResult]]:
        """The AI decisions of this game still on its record (undone ones until a new move drops them), by the ply
        they led to: ``{ply: (player, move text, result)}``. Read-only."""
        return MappingProxyType(self._decisions)

    # -- the side panel's buttons ------------------------------------------------------------------------------------
    @property
    def action_buttons(self) -> list[tuple[UIButton, Any]]:
        """``[(button, move)]``: the side panel's move buttons (a game whose board takes no clicks for them), in the
        input controller's order, row by row; empty when every move is played on the board. A copy."""
        return self.panel.action_buttons

    @property
    def extra_buttons(self) -> list[tuple[UIButton, ExtraAction]]:
        """``[(button, command)]``: the side panel's buttons for the board view's extra commands (checkers: Flip,
        Numbers, Save PDN...) and the play aids' (Save / Load; Hint, Help and Race when the board leaves no room
        under it), row by row. A copy."""
        return self.panel.extra_buttons

    # -- commands ----------------------------------------------------------------------------------------------------
    def _position_changed(self) -> None:
        """Forget everything tied to the previous position (the pending search first)."""
        ply = self.record.ply
        reach = ply + len(self.record.redo_stack)  # a new move drops the undone decisions
        self._decisions = {k: v for k, v in self._decisions.items() if k <= reach}
        self._missing = {k: v for k, v in self._missing.items() if k <= reach}
        last = max((k for k in self._decisions if k <= ply), default=None)
        self.last_decision = self._decisions[last] if last is not None else None
        # the overlay shows the tree of the decision the side panel names (after undo, redo or a new game too), or
        # says that a resumed game's AI move at or after it has no tree saved
        self._trees = {k: v for k, v in self._trees.items() if k in self._decisions}
        self._store.forget(self._decisions)
        if not self._reader.belongs_to(self._decisions):  # the resumed decision was dropped: so is its late tree
            self._reader.drop()
        self._show_decision_tree()
        self.runner.cancel()
        self.pending = None
        self.controller.reset()
        self.turn_clock = 0.0
        self.notice = None
        self.moved_at = None
        self.panel.forget_shown("moves")

    @property
    def decision_unsaved(self) -> bool:
        """See :attr:`gameplay.ui.play.match_panel.MatchModel.decision_unsaved`."""
        latest = self._latest_shown()
        return latest is not None and latest not in self._decisions and latest in self._missing

    def _latest_shown(self) -> int | None:
        """The ply whose tree (or word about its tree) the tree view shows at the current position."""
        ply = self.record.ply
        last = max((k for k in self._decisions if k <= ply), default=None)
        return max([k for k in self._missing if k <= ply] + ([last] if last is not None else []), default=None)

    def _show_decision_tree(self) -> None:
        """Show in the overlay the tree of the decision the side panel names (after undo, redo or a new game too),
        or say that a resumed game's AI move at or after it has no tree saved (or that it is being read)."""
        latest = self._latest_shown()
        shown = self._trees.get(latest) if latest is not None else None
        if shown is None:
            message = self._missing.get(latest) if latest is not None else None
            message = message or no_search_message(self.game, self.last_decision)
            if self.overlay.tree is not None or self.overlay.no_tree_message != message:
                self.overlay.clear(message)
        elif self.overlay.tree is not shown[0]:
            self.overlay.set_tree(*shown)

    def _take_tree(self) -> None:
        """Install a resumed decision's tree once its background read is done (on the window's thread, once a
        frame): the tree view, open or not, shows it when its decision is the current one (no second T), or says
        why it could not be read. A read whose decision was dropped meanwhile is never handed over; one of a
        decision still on the record (undone, or followed by newer ones) is kept for its own ply only."""
        done = self._reader.take()
        if done is None or self._decisions.get(done.ply) is not done.decision:
            return
        shown, message, note = tree_shown(done.saved)
        self._missing.pop(done.ply, None)
        if shown is not None:
            self._trees[done.ply] = shown
        elif message is not None:
            self._missing[done.ply] = message
        visible = self.overlay.visible
        self._show_decision_tree()
        if visible and not self.overlay.visible:  # an open tree view stays open to say why
            self.overlay.show()
        if note and self._latest_shown() == done.ply:
            self.notify(note if self.notice is None else f"{self.notice[0]} {note}",
                        error=self.notice is not None and self.notice[1])

    @property
    def reading_tree(self) -> int | None:
        """The ply of the resumed decision whose saved tree is still being read in the background, or ``None``."""
        return self._reader.reading

    def notify(self, text: str, error: bool = False) -> None:
        """Show ``text`` at the top of the panel's message box (red when ``error``) until the next move."""
        self.notice = (text, error)

    def autosave_to(self, path: Path | None) -> None:
        """Autosave this match to ``path``: the saved game it goes on, or the one it replaces with the player's
        consent (``None``: a free slot of its game, claimed at the first write; the play aids write it)."""
        self.aids.autosave_to(path)

    def load_game(self, start: Any, moves: Sequence[Any] = ()) -> None:
        """Replace the game by the one from ``start`` with ``moves`` played (a loaded PDN, a pasted position).

        Raises:
            GameError: a move is illegal (the current game is kept unchanged then).
        """
        record = GameRecord(self.game, start)
        for m in moves:
            record.play(m)
        self.record = record
        self.games_started += 1
        self.paused = not self.has_human
        self.error = self.error_tag = None
        self.last_decision = None
        self._decisions, self._missing = {}, {}
        self._position_changed()

    def restore_decision(self, saved: Any) -> str:
        """Put back a resumed game's last AI decision (a saved game's ``decision``, ``None`` for none), after
        :meth:`load_game`: the side panel names it and the tree view (T) shows its recorded tree as it was before
        the save. The AI moves whose tree the save does not hold (an older version's save, the earlier moves, a
        tree too large to save, a damaged record) are said to be so in the tree view; the game is resumed in every
        case (:func:`gameplay.ui.play.decision_store.restore`).

        The decision's words are read at once; its tree is read on a background thread (the tree view says
        "Reading the tree of the AI's last move..." meanwhile and shows the tree when it is ready:
        :attr:`reading_tree`), so the window never stops. A save made meanwhile holds the record as it was read.

        Returns:
            A sentence for the panel when the saved tree was left out or could not be read, else ``""`` (a tree that
            turns out unreadable in the background is said in the panel when its read ends).
        """
        back = restore(self.game, self.view, self.record.states, self.record.moves, self.agents, saved)
        self._missing = dict(back.missing)
        if back.ply is not None and back.decision is not None:
            self._decisions[back.ply] = back.decision
            if back.shown is not None:
                self._trees[back.ply] = back.shown
            if back.record is not None:
                self._store.keep(back.ply, back.record)
                if back.unread is not None:
                    self._reader.start(back.ply, back.decision, back.record, back.unread)
        self._position_changed()
        return back.note

    def saved_decision(self, wait_s: float = 0.0) -> dict[str, Any] | None:
        """The record a save of the game now holds: the last AI decision on the way to the current position
        (:mod:`ai.teaching.decision_file`), its words alone while its tree is still being written (waited for up
        to ``wait_s`` seconds), ``None`` without one."""
        last = max((k for k in self._decisions if k <= self.record.ply), default=None)
        return None if last is None else self._store.record(last, wait_s)

    @property
    def decisions_saved(self) -> int:
        """How many decision records have been finished (the autosave writes again when this grows)."""
        return self._store.finished

    def new_game(self) -> None:
        """Start a new game with the same sides (a pending search is cancelled and its move dropped)."""
        self.record = GameRecord(self.game, self.game.initial_state())
        self.games_started += 1
        self.paused = False
        self.error = self.error_tag = None
        self.last_decision = None
        self._decisions, self._missing = {}, {}
        self._position_changed()

    def undo(self) -> int:
        """Take back to the last human decision; with no human side, one ply (and pause). Returns plies undone."""
        if self.has_human:
            n = self.record.undo_to_human(self.is_human)
        else:
            n = self.record.undo(1)
            self.paused = self.paused or n > 0
        if n:
            self.error = self.error_tag = None
            self._position_changed()
        return n

    def redo(self) -> int:
        """Replay undone plies up to the next human decision (one ply when no side is human)."""
        n = self.record.redo(1)
        while n and self.has_human and self.record.redo_stack and not self.human_to_move():
            n += self.record.redo(1)
        if not self.has_human:
            self.paused = self.paused or n > 0
        if n:
            self.error = self.error_tag = None
            self._position_changed()
        return n

    def play(self, move: Any, by: str) -> bool:
        """Play ``move`` at the current position and announce it (``MOVE_PLAYED``).

        Args:
            move: a legal move (or chance outcome).
            by: ``"human"``, ``"ai"`` or ``"chance"``.

        Returns:
            True when played; False (with a message) when the move is not legal.
        """
        before = self.record.state
        try:
            text = self.game.format_move(before, move)
            self.record.play(move)
        except GameError as e:
            self.error = f"illegal move {move!r}: {e}"
            self.error_tag = self.record.tag
            return False
        self._position_changed()
        self.moved_at = self.clock
        events.post("MOVE_PLAYED", game=self.game_name, ply=self.record.ply, move=text, by=by)
        return True

    def play_typed(self, text: str) -> bool:
        """Play the move typed into the panel's move field (Enter there): the legal move written so, or the one
        the text begins (:func:`gameplay.ui.play.move_entry.read_typed_move`); the field is emptied. An illegal,
        ambiguous or untimely text plays nothing: the panel's message box says why and which moves there are, and
        the field keeps the text to be corrected.

        Returns:
            True when a move was played.
        """
        if not self.human_to_move():
            self.notify("Not your move: wait for the AI" if not self.game.is_terminal(self.record.state)
                        else "The game is over: N starts a new one", error=True)
            return False
        typed = read_typed_move(self.game, self.record.state, text)
        if typed.move is None:
            self.notify(typed.error, error=True)
            return False
        entry = self.panel.move_entry
        if entry is not None:
            entry.set_text("")
        return self.play(typed.move, "human")

    def focus_move_entry(self) -> None:
        """Put the keyboard in the panel's move field (Enter): the letters typed then go there, no shortcut runs,
        until Esc."""
        entry = self.panel.move_entry
        if entry is not None and self.app is not None:
            self.app.manager.set_focus_set(entry)

    def close_dialog(self) -> bool:
        """Esc: leave the move field when it has the keyboard (the match stays), else close the confirm dialog or
        the presenter view (:meth:`gameplay.ui.play.match_confirm.AskBeforeReplacing.close_dialog`). Returns True
        when Esc was used."""
        entry = self.panel.move_entry
        if entry is not None and entry.is_focused and self.app is not None:
            self.app.manager.set_focus_set(None)  # the entry loses the keyboard (pygame_gui unfocuses it)
            return True
        return super().close_dialog()

    def toggle_pause(self) -> None:
        """AI-vs-AI: stop or resume the agents (a pending search is cancelled on pause)."""
        if self.has_human:
            return
        self.paused = not self.paused
        if self.paused:
            self.runner.cancel()
            self.pending = None

    def toggle_overlay(self) -> bool:
        """Show or hide the search-tree overlay (key T); opening it pauses an AI-vs-AI match so the tree stays
        put (``demo --overlay`` keeps playing). Returns the new visibility."""
        shown: bool = self.overlay.toggle()
        if shown and not self.has_human and not self.paused and not self.overlay_on_start:
            self.toggle_pause()
        return shown

    def open_presenter(self) -> None:
        """Open the search tree of the last decision in the presenter view (key P with the tree closed)."""
        self.toggle_overlay()
        self.overlay.set_presenter(True)

    def close_top(self) -> bool:
        """Esc over the match (after the App closed any dialog or window): leave the search tree's presenter view,
        else close the open search tree (as T does). Returns True when one was closed; False: nothing is open, Esc
        leaves the match."""
        if self.overlay.presenter:
            self.overlay.set_presenter(False)
            return True
        if self.overlay.visible:
            self.toggle_overlay()
            return True
        return False

    def go_to_menu(self) -> None:
        """Ask the App for the start menu."""
        events.post("OPEN_MENU")

    def _run_extra(self, extra: ExtraAction) -> None:
        """An extra command of the panel; one that replaces the game (Load, Paste FEN) asks first."""
        if getattr(extra, "replaces_game", False):
            self.confirm_replace(extra.label.split(" (")[0], extra.callback)
        else:
            extra.callback()

    # -- Scene -------------------------------------------------------------------------------------------------------
    def on_enter(self, app: Any) -> None:
        """Build the widgets; back from a scene above (race, help), the overlay finishes what it was counting."""
        super().on_enter(app)
        self.overlay.resume()

    def on_exit(self) -> None:
        """Cancel the search, close the view's dialogs and kill the widgets."""
        self.close_dialog()
        self.runner.cancel()
        self.pending = None
        self._reader.drop()  # a resumed tree still being read is never installed in a match left
        self.overlay.close()
        if self.tools is not None:
            self.tools.close()
        self.aids.shutdown()
        self._kill_widgets()

    def _kill_widgets(self) -> None:
        self.panel.kill()
        self.kill_widgets()

    def layout(self, size: tuple[int, int]) -> None:
        """Place the board (:func:`gameplay.ui.play.match_panel.board_place`) and the overlay's text size, build the
        panel (:meth:`gameplay.ui.play.match_panel.MatchPanel.layout`), then the presenter view; a dialog or the help
        left in the old UI manager (a zoom step, a theme change) is opened again at the new scale."""
        assert self.app is not None
        self._kill_widgets()
        self.overlay.set_font_size(OVERLAY_FONT_SIZE * projector.scale())
        self.board_rect = panel.board_place(size, getattr(self.view, "aspect", None))
        self.panel.layout(size, self.app.manager)
        self._apply_presenter()
        help_window = self.aids.help
        if help_window is not None and help_window.alive and help_window.window.ui_manager is not self.app.manager:
            self.aids.toggle_help()  # the help was in the old manager (a zoom step): open it again at this scale
            self.aids.toggle_help()
        self._question_relayout()
        reopen = getattr(self.tools, "reopen", None)
        if callable(reopen):
            reopen(self.app.manager)
        self.aids.reopen(self.app.manager)  # the JSON save / load dialog

    def _on_presenter(self, on: bool) -> None:
        """The overlay's presenter view opened or closed (key P, its button, Esc): lay the window out again."""
        if self.app is not None:
            self.layout(self.app.size)

    def _apply_presenter(self) -> None:
        """In the presenter view the overlay takes the whole window; the panel and the status line hide."""
        if not self.overlay.presenter or self.app is None:
            return
        for key in ("panel", "status", "banner"):
            if key in self._ui:
                self._ui[key].hide()
        self.overlay.set_rect(pygame.Rect((0, 0), self.app.size))

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Board clicks and hover, the panel's buttons (:data:`~gameplay.ui.play.match_keys.PANEL_BUTTONS`) and the keys
        of :data:`~gameplay.ui.play.match_keys.MATCH_KEYS` (N, U / Ctrl+Z / Page Up, R / Ctrl+Y / Page Down, Space, T,
        P).

        Keys in the input controller's optional ``shortcuts`` (key -> move) play that move for the human and
        take precedence: in Pig, R rolls and H holds, so Redo is Ctrl+Y only there.

        The view's tools (dialogs) see every event first; while one of their dialogs is open, board clicks and
        keys go to the dialog only. The tools' extra commands have their own keys.
        """
        if self._question_event(event):  # "throw the game in progress away?": its buttons, or it waits
            return True
        if self.aids.handle_event(event):  # hint, help, JSON save/load, AI-failure buttons
            return True
        if self.tools is not None and (self.tools.handle_event(event) or (
                self.tools.modal and event.type in (pygame.KEYDOWN, pygame.KEYUP, pygame.MOUSEBUTTONDOWN))):
            return True
        if self._run_key(event, before_tree=True):  # T, and P with the tree closed
            return True
        if self.overlay.visible and self.overlay.handle_event(event):
            return True
        if event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN):
            return self._board_event(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            return self._on_button(event.ui_element)
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.panel.move_entry:
            self.play_typed(event.text)
            return True
        if event.type == pygame.KEYDOWN:
            return self._key_event(event)
        return False

    def _board_event(self, event: pygame.event.Event) -> bool:
        """Hover (never used up) and a left click on the board: the input controller turns clicks into a move."""
        if event.type == pygame.MOUSEMOTION:
            self.hover = self.view.hit_test(self.board_rect, self.record.state, event.pos)
            return False
        if event.button != 1 or not self.board_rect.collidepoint(event.pos) or not self.human_to_move():
            return False
        state = self.record.state
        target = self.view.hit_test(self.board_rect, state, event.pos)
        if target is None:
            return False
        move = self.controller.click(state, target)
        if move is not None:
            self.play(move, "human")
        return True

    def _key_event(self, event: pygame.event.Event) -> bool:
        """A key: a move key of the input controller, else the match's key table, else a board view's command."""
        shortcuts = getattr(self.controller, "shortcuts", {})  # move keys (Pig: R rolls, H holds)
        if event.key in shortcuts and not event.mod & pygame.KMOD_CTRL:
            move = shortcuts[event.key]
            if self.human_to_move() and move in self.game.actions(self.record.state):
                self.play(move, "human")
            return True
        if self._run_key(event, before_tree=False):
            return True
        for _, extra in self.panel.extra_buttons:
            if extra.key is not None and event.key == extra.key:
                self._run_extra(extra)
                return True
        return False

    def _run_key(self, event: pygame.event.Event, *, before_tree: bool) -> bool:
        """Run the command :data:`gameplay.ui.play.match_keys.MATCH_KEYS` binds to a key press. Returns True when one
        ran."""
        if event.type != pygame.KEYDOWN:
            return False
        binding = match_keys.binding_for(event.key, bool(event.mod & pygame.KMOD_CTRL), before_tree=before_tree,
                                         claimed=getattr(self.controller, "shortcuts", {}))
        if binding is None or (binding.when is not None and not binding.when(self)):
            return False
        getattr(self, binding.command)()
        return True

    def _on_button(self, element: Any) -> bool:
        """A button of the panel (:data:`gameplay.ui.play.match_keys.PANEL_BUTTONS`), of the board view's extra commands
        or a move button. Returns True when it was one of them."""
        panel_buttons = {name: getattr(self, command) for name, command in match_keys.PANEL_BUTTONS.items()}
        if self.run_button(element, panel_buttons):
            return True
        for button, extra in self.panel.extra_buttons:
            if element is button:
                self._run_extra(extra)
                return True
        for button, move in self.panel.action_buttons:
            if element is button:
                if self.human_to_move():
                    self.play(move, "human")
                return True
        return False
    # -- per frame ---------------------------------------------------------------------------------------------------
    def busy(self) -> bool:
        """True while the match changes by itself, so the App keeps drawing it at full frame rate: the AI to move
        or thinking (or the hint's search), the die about to roll, a move or a cue animating, the pulsing hint, the
        search-tree overlay open (its step-through, its counts), a demo's next game coming. False on a static board
        (a person to move, a finished game, a pause, a failed AI waiting for the player): only input changes it."""
        if (self.overlay.visible or not self.runner.idle() or self.pending is not None or self.aids.hint_pending
                or self._reader.reading is not None):  # a resumed tree being read: installed when it is ready
            return True
        if self.aids.hint is not None and self.aids.hint_tag == self.record.tag:
            return True
        speed = float(getattr(getattr(self.app, "settings", None), "animation_speed", 1.0))
        if self.moved_at is not None and self.clock - self.moved_at < MOVE_ANIMATION_S / max(speed, 0.25):
            return True
        cue = getattr(self.controller, "cue", None)
        if cue != self._cue_seen:
            self._cue_seen, self._cue_at = cue, self.clock
        if cue is not None and self.clock - self._cue_at < CUE_S:
            return True
        game, state = self.game, self.record.state
        if game.is_terminal(state):
            return self.auto_restart_s is not None
        if self.paused or self.error_tag == self.record.tag:
            return False
        return game.is_chance(state) or not self.is_human(game.to_move(state))

    def update(self, dt: float) -> None:
        """Run the referee and the AI (poll the runner once), then refresh the panel."""
        self.clock += dt
        self.turn_clock += dt
        self._question_tick()
        self._take_tree()
        self._step_game()
        self.overlay.update(dt)
        self.aids.update(dt)
        self._refresh_widgets()

    def _step_game(self) -> None:
        game, state = self.game, self.record.state
        if game.is_terminal(state):
            if self.auto_restart_s is not None and self.turn_clock >= self.auto_restart_s:
                self.new_game()
            return
        if self.paused:
            return
        if game.is_chance(state):
            if self.turn_clock >= self.chance_delay_s:
                self.play(sample_chance(game, state, self.rng), "chance")
            return
        player = game.to_move(state)
        agent = self.agents[player]
        tag = self.record.tag
        if agent.is_human or self.error_tag == tag:
            return
        if self.pending is None:
            if self.runner.idle():
                rec = make_recorder(game, agent, state)
                self._recorder = (tag, rec)
                self.runner.submit(agent, state, tag, recorder=rec)
            try:
                res = self.runner.poll(tag)
            except Exception as e:  # noqa: BLE001 - the worker's failure is shown, the match goes on
                self._ai_failed(player, e)
                return
            if res is not None:
                self.pending = (tag, res)
        if self.pending is not None and self.turn_clock >= self.ai_delay_s:
            ptag, res = self.pending
            self.pending = None
            if ptag != tag:
                return
            text = game.format_move(state, res.move) if res.move in game.actions(state) else repr(res.move)
            if self.play(res.move, "ai"):
                self.last_decision = (player, text, res)
                self._decisions[self.record.ply] = self.last_decision
                rec = self._recorder[1] if self._recorder is not None and self._recorder[0] == ptag else None
                if show_decision(self.overlay, game, state, agent, res, rec, player_name=game.player_names[player],
                                 move_text=text, view=self.view):
                    assert self.overlay.tree is not None and self.overlay.info is not None
                    self._trees[self.record.ply] = (self.overlay.tree, self.overlay.info)
                    if self.overlay_on_start:
                        self.overlay.show()
                else:  # no tree for this move (the opening book, a proof): never leave an older decision's tree
                    # up; an open tree view stays open to say why there is none (as --overlay opens it), a closed
                    # one stays closed
                    visible = self.overlay.visible
                    self.overlay.clear(no_search_message(game, self.last_decision))
                    if visible or self.overlay_on_start:
                        self.overlay.show()
                if self.auto_restart_s is None and not getattr(self, "attract", False):  # a save keeps it (its
                    # tree is written on a thread; a demo's games are never saved)
                    self._store.encode(self.record.ply, state, player, text, res, self._trees.get(self.record.ply))
            else:
                self.error = f"{describe_agent(agent)} played an illegal move {text}"

    def _ai_failed(self, player: int, exc: BaseException) -> None:
        name = panel.player_label(self.game, player)  # "Black", "X", "Player 1"
        # an agent's exception may carry any text: cut, so the panel's text box never lays out 100 KB
        self.error = shortened(f"{name}'s AI failed: {type(exc).__name__}: {exc}")
        self.error_tag = self.record.tag
        events.post("AI_ERROR", message=self.error)

    # -- text ------------------------------------------------------------------------------------------------------
    def result_text(self) -> str | None:
        """See :func:`gameplay.ui.play.match_panel.result_text`."""
        return panel.result_text(self)

    def status_variants(self) -> list[str]:
        """See :func:`gameplay.ui.play.match_panel.status_variants` (longest first, each whole)."""
        return panel.status_variants(self)

    def status_text(self) -> str:
        """The status line in full: the first of :meth:`status_variants`."""
        return self.status_variants()[0]

    def moves_html(self) -> str:
        """See :func:`gameplay.ui.play.match_panel.moves_html`."""
        return panel.moves_html(self)

    def decision_html(self) -> str:
        """See :func:`gameplay.ui.play.match_panel.decision_html`."""
        return panel.decision_html(self)

    def _refresh_widgets(self) -> None:
        """See :meth:`gameplay.ui.play.match_panel.MatchPanel.refresh`."""
        self.panel.refresh()

    def view_state(self) -> ViewState:
        """What the board view needs this frame (hover, last move, who is to move...)."""
        rec = self.record
        return ViewState(hover=self.hover, interactive=self.human_to_move(),
                         last_move=rec.moves[-1] if rec.moves else None, selected=self.controller.selected,
                         to_move=self.game.to_move(rec.state), clock=self.clock,
                         cue=getattr(self.controller, "cue", None), decision=self.last_decision,
                         history=tuple(zip(rec.states, rec.moves)),
                         sides=(describe_agent(self.agents[0]), describe_agent(self.agents[1])),
                         move_age=float("inf") if self.moved_at is None else self.clock - self.moved_at,
                         animation_speed=float(getattr(getattr(self.app, "settings", None), "animation_speed", 1.0)))

    def draw(self, surface: pygame.Surface) -> None:
        """Clear the window and draw the board (the widgets are drawn by the App afterwards)."""
        surface.fill(projector.palette().background)
        self.view.draw(surface, self.board_rect, self.record.state, self.view_state())
        self.aids.draw(surface)
        self.overlay.draw(surface)

