"""The race view: several agents search the match's position, side by side (issue 13; ``compare`` in a window).

:class:`RaceScene` runs :func:`ai.teaching.race.run_race` on a background thread (the window never waits: the thread
hands over immutable :class:`ai.teaching.race.Race` snapshots, the scene picks up the latest once per frame) and draws
it with :mod:`gameplay.ui.play.race_draw`: a title, a table with one column per agent, "choice over time" (a lane per
agent) and "nodes visited" (bars on a log scale). Under it, the progress line and the buttons: Run again (R), the time
budget (a drop-down: the same 0.1, 0.3, 1 or 3 s for every agent, or each agent's own limits; a change runs the
race again), Export (E: the race area as ``race-YYYYmmdd-HHMMSS.png`` and the table and timelines as ``.csv`` in
the overlay's export folder, :func:`gameplay.pictures.tree_export.default_export_dir`) and Back (Esc). Leaving the scene
cancels the race.

:func:`open_race` is the match's "Race (K)" action: it opens the view on the match's current position (states are
immutable: the match is not changed; an AI-vs-AI match pauses, as for the search tree), or says why not (the game
is over, or the die is about to be rolled).
"""

from __future__ import annotations

import datetime
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel

from ai.agents.profiles import profile_for
from ai.teaching.race import BUDGET_CHOICES, Race, race_agents, race_budget, run_race
from gameplay.ui.play import race_draw as draw
from gameplay.ui.widgets import projector
from gameplay.ui.widgets.scene import Scene

if TYPE_CHECKING:
    from gameplay.ui.boards.match_host import MatchHost

OWN = "own"
"""The drop-down's id for "each agent keeps its own limits"."""
REDRAW_S = 0.1
"""Seconds between two redraws of the race area while an agent searches (the running lane grows)."""
_DEFAULT: Any = object()


def budget_label(budget: float | None) -> str:
    """The drop-down's text of a budget: ``"1 s each"`` or ``"own limits"``."""
    return "own limits" if budget is None else f"{budget:g} s each"


def budget_id(budget: float | None) -> str:
    """The drop-down's option id of a budget (``"0.3"``, ``"own"``)."""
    return OWN if budget is None else f"{budget:g}"


class RaceScene(Scene):
    """Runs and shows a race of agents on one position.

    Args:
        game_name: ``tictactoe``, ``checkers`` or ``pig``.
        state: the position (immutable; never changed).
        specs: agent specs (default: :func:`ai.teaching.race.race_agents` of the game).
        budget: seconds for every agent, or ``None`` for each agent's own limits (default:
            :func:`ai.teaching.race.race_budget` of the game).
        export_dir: where Export writes (default: :func:`gameplay.pictures.tree_export.default_export_dir`, read at
        export).

    Raises:
        GameError: unknown game.
    """

    def __init__(self, game_name: str, state: Any, specs: tuple[str, ...] | list[str] | None = None,
                 budget: float | None = _DEFAULT, *, export_dir: str | Path | None = None) -> None:
        super().__init__()
        self.game_name = game_name
        self.game = profile_for(game_name).game
        self.state = state
        self.specs = tuple(specs) if specs is not None else race_agents(game_name)
        self.budget: float | None = race_budget(game_name) if budget is _DEFAULT else budget
        self.export_dir = Path(export_dir) if export_dir is not None else None
        self.race = self._empty()
        """The latest snapshot of the race (the model the view draws)."""
        self.message: tuple[str, bool] | None = None
        """A line under the race (export paths, or an error when ``True``), or ``None``."""
        self.exported: list[Path] = []
        """The files the last Export wrote."""
        self.race_rect = pygame.Rect(0, 0, 0, 0)
        """The race area in the window (what Export saves as PNG)."""
        self._latest: Race = self.race
        self._generation = 0
        self._stop: threading.Event | None = None
        self._thread: threading.Thread | None = None
        self._canvas: pygame.Surface | None = None
        self._drawn: tuple[Any, ...] | None = None
        self._drawn_at = 0.0
        self.started = False

    # -- the race ------------------------------------------------------------------------------------------------
    def _empty(self) -> Race:
        g, s = self.game, self.state
        who = "nobody" if g.is_terminal(s) else ("chance" if g.is_chance(s) else str(g.player_names[g.to_move(s)]))
        return Race(self.game_name, g.format_position(s), who, self.budget, self.specs)

    @property
    def running(self) -> bool:
        """True while the race's thread works."""
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        """Run the race (again) with the current budget; a race still running is cancelled first."""
        self.cancel()
        self._generation += 1
        gen, stop, budget = self._generation, threading.Event(), self.budget
        self._stop = stop
        self.race = self._latest = self._empty()
        self.started = True

        def publish(race: Race) -> None:
            if gen == self._generation:  # a cancelled race's late snapshots are dropped
                self._latest = race

        def work() -> None:
            try:
                run_race(self.game, self.state, self.specs, budget, stop_event=stop, on_progress=publish)
            except Exception as e:  # noqa: BLE001 - shown in the view, never a crash of the window
                publish(replace(self._latest, done=True, crashed=f"{type(e).__name__}: {e}",
                                entries=tuple(replace(x, running=False) for x in self._latest.entries)))

        self._thread = threading.Thread(target=work, name="race", daemon=True)
        self._thread.start()

    def cancel(self) -> None:
        """Stop the race: the running agent returns at its next check, the rest are not started (never waits)."""
        if self._stop is not None:
            self._stop.set()

    @property
    def cancelled(self) -> bool:
        """True when the race last started was cancelled (:meth:`cancel`, or leaving the scene); False before the
        first race."""
        return self._stop is not None and self._stop.is_set()

    def set_budget(self, budget: float | None) -> None:
        """Use ``budget`` seconds for every agent (``None``: each its own limits) and run the race again."""
        self.budget = budget
        self.start()

    # -- export ----------------------------------------------------------------------------------------------------
    def export(self, folder: str | Path | None = None) -> list[Path]:
        """Write the race area as ``race-YYYYmmdd-HHMMSS.png`` and the race as ``.csv`` beside it.

        Args:
            folder: the folder (default: ``export_dir``, else the overlay's export folder).

        Returns:
            The two paths written (also shown under the race); ``[]`` when writing failed (the reason is shown).
        """
        from gameplay.pictures.tree_export import default_export_dir
        d = Path(folder) if folder is not None else (self.export_dir or default_export_dir())
        stem = "race-" + datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        size = self.race_rect.size if self.race_rect.width > 0 else (1280, 640)
        canvas = pygame.Surface(size)
        draw.draw_race(canvas, canvas.get_rect(), self.race, time.perf_counter())
        try:
            d.mkdir(parents=True, exist_ok=True)
            png, csv_path = d / f"{stem}.png", d / f"{stem}.csv"
            pygame.image.save(canvas, str(png))
            csv_path.write_text(self.race.to_csv(), encoding="utf-8")
        except (OSError, pygame.error) as e:
            self.message = (f"Not exported: {e}", True)
            return []
        partial = "" if self.race.done else " (partial: the race is still running)"
        self.exported = [png, csv_path]
        self.message = (f"Exported{partial}: {png}  and  {csv_path.name}", False)
        return self.exported

    # -- Scene -----------------------------------------------------------------------------------------------------
    def on_enter(self, app: Any) -> None:
        """Lay out the widgets and start the race the first time."""
        super().on_enter(app)
        if not self.started:
            self.start()

    def on_exit(self) -> None:
        """Cancel the race and kill the widgets."""
        self.cancel()
        self.kill_widgets()

    def close_dialog(self) -> bool:
        """Esc (the App asks the scene first): back to the scene below (the match). Returns True."""
        self.back()
        return True

    def back(self) -> None:
        """Back (Esc): cancel the race and show the scene below."""
        self.cancel()
        if self.app is not None and self.app.scene is self:
            self.app.pop()

    def layout(self, size: tuple[int, int]) -> None:
        """The race area above, the progress line and the buttons along the bottom."""
        assert self.app is not None
        self.kill_widgets()
        manager = self.app.manager
        px = projector.px
        w, h = size
        m = max(10, px(12))
        bh = max(px(40), projector.text_height(manager, None, "button") + px(8))
        by = h - m - bh
        self.race_rect = pygame.Rect(m, m, w - 2 * m, by - px(34) - m)
        ui = self._ui

        def button(key: str, text: str, x: int, tip: str) -> int:
            bw = projector.text_width(manager, text, None, "button") + px(32)
            ui[key] = UIButton(pygame.Rect(x, by, bw, bh), text, manager, tool_tip_text=tip)
            return x + bw + px(10)

        x = button("again", "Run again (R)", m, "Run every agent again on this position")
        label_w = projector.text_width(manager, "Time budget", "#field_label") + px(14)
        ui["budget_label"] = UILabel(pygame.Rect(x, by, label_w, bh), "Time budget", manager,
                                     object_id="#field_label")
        x += label_w
        choices = [(budget_label(b), budget_id(b)) for b in BUDGET_CHOICES]
        current = (budget_label(self.budget), budget_id(self.budget))
        if current not in choices:
            choices.insert(0, current)
        dw = max(projector.text_width(manager, t, None, "button") for t, _ in choices) + px(56)
        options: list[str | tuple[str, str]] = list(choices)
        dd = UIDropDownMenu(options, current, pygame.Rect(x, by, dw, bh), manager)
        dd.expand_direction = "up"  # at the bottom of the window (the theme says "down" for every drop-down)
        for state in dd.menu_states.values():
            state.expand_direction = "up"
        dd.rebuild()
        ui["budget"] = dd
        x += dw + px(10)
        button("export", "Export (E)", x, "Save the race as PNG and CSV in the export folder")
        back = "Back (Esc)"
        bw = projector.text_width(manager, back, None, "button") + px(32)
        ui["back"] = UIButton(pygame.Rect(w - m - bw, by, bw, bh), back, manager,
                              tool_tip_text="Back to the match (Esc)")
        self._drawn = None

    def handle_event(self, event: pygame.event.Event) -> bool:
        """The buttons, the budget drop-down, and the keys R (run again) and E (export); Esc is Back."""
        ui = self._ui
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            return self.run_button(event.ui_element, {"again": self.start, "export": self.export, "back": self.back})
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element is ui.get("budget"):
            option = getattr(event, "selected_option_id", None) or event.text
            self.set_budget(None if option in (OWN, budget_label(None)) else float(str(option).split()[0]))
            return True
        if event.type == pygame.KEYDOWN and not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
            if event.key == pygame.K_r:
                self.start()
                return True
            if event.key == pygame.K_e:
                self.export()
                return True
        return False

    def update(self, dt: float) -> None:
        """Pick up the race's latest snapshot (once per frame; never waits)."""
        latest = self._latest
        if latest is not self.race:
            self.race = latest

    def progress_text(self) -> str:
        """The line under the race: the progress (``"running 2 of 5: alphabeta..."``) and the budget."""
        return self.race.progress_text()

    def draw(self, surface: pygame.Surface) -> None:
        """The race area (redrawn when the snapshot changes, and 10 times a second while an agent searches),
        the progress line and the last message."""
        pal = projector.palette()
        surface.fill(pal.background)
        now = time.perf_counter()
        key = (id(self.race), self.race_rect.size, projector.current())
        live = self.race.running is not None and now - self._drawn_at >= REDRAW_S
        if self._canvas is None or self._canvas.get_size() != self.race_rect.size:
            self._canvas = pygame.Surface(self.race_rect.size)
            self._drawn = None
        if key != self._drawn or live:
            draw.draw_race(self._canvas, self._canvas.get_rect(), self.race, now)
            self._drawn, self._drawn_at = key, now
        surface.blit(self._canvas, self.race_rect)
        f = draw.font(15)
        y = self.race_rect.bottom + projector.px(6)
        x = self.race_rect.x + projector.px(8)
        colour = draw.ERROR if self.race.crashed else (pal.accent if not self.race.done else pal.muted)
        r = draw.blit(surface, self.progress_text(), f, colour, (x, y))
        if self.message is not None:
            text, bad = self.message
            room = self.race_rect.right - r.right - projector.px(24)
            draw.blit(surface, draw.fit(text, f, room), f, draw.ERROR if bad else (143, 227, 168),
                      (r.right + projector.px(24), y))


def open_race(scene: MatchHost) -> RaceScene | None:
    """The match's Race action (key K, the panel's Race button): show the race on the current position.

    The match is not changed (its state is immutable and only passed on); an AI-vs-AI match pauses as it does
    for the search tree (:meth:`MatchScene.toggle_overlay`). When the game is over or the die is about to be
    rolled, the panel says so instead and nothing opens.

    Returns:
        The race scene pushed, or ``None``.
    """
    game, state = scene.game, scene.record.state
    if game.is_terminal(state):
        scene.notify("The game is over: there is no move to race. Undo or start a new game first.")
        return None
    if game.is_chance(state):
        scene.notify("The die is about to be rolled: open the race when a player is to move.")
        return None
    if scene.app is None:
        return None
    if not scene.has_human and not scene.paused and not scene.overlay_on_start:
        scene.toggle_pause()
    race = RaceScene(scene.game_name, state)
    scene.app.push(race)
    return race
