"""The Tree Lab's "Check my file" (issue 26): a student's search graded in the window, both searches side by side.

Opened from the Tree Lab with the exercise file picked in its file dialog. The grading
(:func:`ai.grader.exercise.run_check`, the file in a worker process of its own) runs in a thread, never in the window's:
the view says "Checking case 3 of 41" meanwhile. Then the cases are listed on the left (``ok`` / ``FAIL``; the
first failing case is opened); the opened case is drawn twice on the right on the same tree
(:mod:`gameplay.ui.scenes.check_tree`): the student's search on the left, the reference's on the right, the node where
they first part ringed red on both, and the grader's sentence under them.

The step-through moves both sides together: step ``i`` shows the first ``i`` nodes each search entered (the
student's: the successors it asked for with ``game.result``, in order; the reference's: the nodes the Tree Lab's
search entered, in order; :mod:`ai.grader.exercise_trace`). Buttons and keys: Left / Right one step, Home / End the
start / the end, "Go to the difference" (D) the step where they part. A file that cannot run (a syntax error, none of
the functions, module code that raises) goes back to the Tree Lab, its reason in the Tree Lab's message line.
"""

from __future__ import annotations

import html
import threading
from pathlib import Path
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UISelectionList, UITextBox

from ai.grader.exercise import WORDS, CaseResult, CheckReport
from ai.grader.exercise_trace import Difference, Trace, first_difference, reference_trace, student_trace
from gameplay.ui.scenes.check_tree import draw_trace
from gameplay.ui.widgets import projector
from gameplay.ui.widgets.scene import Scene

STEP_HELP = ("A step is one node entered: yours, a successor your search asked for (game.result); the reference's, "
             "the next node its search enters. Numbers under leaves: the order they were evaluated.")


class _Cancelled(Exception):
    """The scene was left while the check ran: the check stops."""


class CheckScene(Scene):
    """Grade an exercise file and show its cases.

    Args:
        path: the student's ``.py`` file.
        lab: the scene below (the Tree Lab): a file that cannot run goes back to it with its reason on its message
            line (its ``say``).
    """

    def __init__(self, path: str | Path, lab: Any = None) -> None:
        super().__init__()
        self.path = str(path)
        self.lab = lab
        self.progress = (0, 0)
        """(cases graded, cases in all) so far."""
        self.report: CheckReport | None = None
        self.error: str | None = None
        self._outcome: tuple[CheckReport | None, str | None] | None = None
        self._thread: threading.Thread | None = None
        self._cancel = threading.Event()
        self.selected: int | None = None
        """Index of the opened case in ``report.cases``."""
        self._difference_shown: tuple[UITextBox, str] | None = None
        """The difference box and the text it was last given (set again only when it changes)."""
        self.step = 0
        self.traces: tuple[Trace, Trace, Difference | None] | None = None
        """(student's, reference's, where they part) of the opened case (``None``: not drawable)."""
        self._rows: dict[str, int] = {}
        self.tree_rect = pygame.Rect(0, 0, 0, 0)

    # -- the check ---------------------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        """True while the check's thread works."""
        return self._thread is not None and self._thread.is_alive()

    def wait(self, timeout: float = 60.0) -> bool:
        """Wait at most ``timeout`` seconds for the check's thread to end (a stopped check ends at its next case).
        Returns True when no check runs any more."""
        if self._thread is not None:
            self._thread.join(timeout)
        return not self.running

    def start(self) -> None:
        """Grade the file in a thread (returns at once)."""
        cancel = self._cancel

        def progress(done: int, total: int) -> None:
            self.progress = (done, total)
            if cancel.is_set():
                raise _Cancelled

        def work() -> None:
            from ai.agents.agent_base import AgentError
            from ai.grader.exercise import run_check
            from gameplay.rules.base import GameError
            try:
                self._outcome = (run_check(self.path, progress=progress), None)
            except _Cancelled:
                self._outcome = (None, "cancelled")
            except (AgentError, GameError) as e:
                self._outcome = (None, str(e))
            except Exception as e:  # noqa: BLE001 - shown in the Tree Lab, never a crash of the window
                self._outcome = (None, f"the check failed: {type(e).__name__}: {e}")

        self._thread = threading.Thread(target=work, name="check", daemon=True)
        self._thread.start()

    def update(self, dt: float) -> None:
        """Pick up the check's outcome when its thread ends (never waits)."""
        outcome = self._outcome
        if outcome is None or self.running:
            return
        self._outcome = None
        report, error = outcome
        if report is None:
            self.error = error
            if self.lab is not None:
                self.lab.say(f"Check my file: {error}")
            self.back()
            return
        self.report = report
        failing = next((i for i, c in enumerate(report.cases) if not c.ok), None)
        self.open_case(failing if failing is not None else 0)
        if self.app is not None:
            self.layout(self.app.size)

    # -- the opened case ---------------------------------------------------------------------------------------
    @property
    def case(self) -> CaseResult | None:
        """The opened case's result."""
        if self.report is None or self.selected is None or not self.report.cases:
            return None
        return self.report.cases[self.selected]

    def open_case(self, index: int) -> None:
        """Open case ``index``: both traces built, the step at the first difference (the end for a passed case)."""
        if self.report is None or not 0 <= index < len(self.report.cases):
            return
        self.selected = index
        c = self.report.cases[index]
        self.traces = None
        if c.case is not None:
            try:
                ref = reference_trace(c.case.root, c.algorithm, c.case.prune)
            except Exception:  # noqa: BLE001 - a tree too big to search again: the sentence only
                ref = None
            if ref is not None:
                mine = student_trace(c)
                self.traces = (mine, ref, first_difference(c, mine, ref))
        self.step = self.difference_step()
        self._refresh_text()

    @property
    def steps(self) -> int:
        """The step-through's last step: the longer search's step count."""
        if self.traces is None:
            return 0
        return max(len(self.traces[0].steps), len(self.traces[1].steps))

    def difference_step(self) -> int:
        """The step showing the first difference (both sides up to and including it), else the last step."""
        if self.traces is None:
            return 0
        d = self.traces[2]
        if d is None:
            return self.steps
        marks = [i for i in (d.student_step, d.reference_step) if i is not None]
        return max(marks) + 1 if marks else self.steps

    def set_step(self, step: int) -> None:
        """Show ``step`` (clamped to 0 .. :attr:`steps`) on both sides."""
        self.step = max(0, min(self.steps, step))
        self._refresh_text()

    # -- Scene -------------------------------------------------------------------------------------------------
    def on_enter(self, app: Any) -> None:
        """Lay out and start the check the first time."""
        super().on_enter(app)
        if self._thread is None:
            self.start()

    def on_exit(self) -> None:
        """Kill the widgets (a running check is stopped by :meth:`back`)."""
        self.kill_widgets()

    def close_dialog(self) -> bool:
        """Esc (the App asks the scene first): :meth:`back`. Returns True."""
        self.back()
        return True

    def back(self) -> None:
        """Back to the Tree Lab (Esc); a running check stops at its next case."""
        self._cancel.set()
        if self.app is not None and self.app.scene is self:
            self.app.pop()

    def layout(self, size: tuple[int, int]) -> None:
        """The cases on the left, the two trees on the right, the sentence and the step buttons under them."""
        assert self.app is not None
        self.kill_widgets()
        manager = self.app.manager
        px = projector.px
        w, h = size
        m = max(10, px(12))
        bh = max(px(36), projector.text_height(manager, None, "button") + px(8))
        lw = int(min(px(380), max(px(250), w * 0.26)))
        ui = self._ui
        r = self.report
        ui["back"] = UIButton(pygame.Rect(m, h - m - bh, lw, bh),
                              "Back to the Tree Lab (Esc)" if r is not None else "Stop (Esc)", manager,
                              tool_tip_text="Back to the Tree Lab" + (" (the check stops)" if r is None else ""))
        name = Path(self.path).name
        head = f"<b>{html.escape(name)}</b><br>" + (
            f"{r.passed} of {len(r.cases)} passed" + (f", {r.failed} failed" if r.failed else "")
            if r is not None else "checking...")
        th = 2 * projector.text_height(manager, None, "text_box") + px(20)
        ui["title"] = UITextBox(head, pygame.Rect(m, m, lw, th), manager)
        self._rows = {}
        if r is not None:
            items: list[str | tuple[str, str]] = []
            several = len({c.function for c in r.cases}) > 1
            one_each = len({c.function for c in r.cases}) == len({c.algorithm for c in r.cases})
            for i, c in enumerate(r.cases):
                who = (WORDS[c.algorithm] if one_each else c.function) + ": " if several else ""
                row = f"{i + 1}. {'ok' if c.ok else 'FAIL'}  {who}{c.name}"
                self._rows[row] = i
                items.append(row)
            chosen = items[self.selected] if self.selected is not None and self.selected < len(items) else None
            row_h = projector.text_height(manager, None, "text_box") + px(8)
            lst = UISelectionList(pygame.Rect(m, m + th + px(6), lw, h - 3 * m - bh - th - px(6)), [], manager)
            lst.list_item_height = row_h  # pygame_gui's rows are 20 pixels at every text size
            lst.set_item_list(items)
            for item in lst.item_list:
                if item["text"] == chosen:
                    item["selected"] = True
                    if item["button_element"] is not None:
                        item["button_element"].select()
            ui["cases"] = lst
        x = lw + 2 * m
        rw = w - x - m
        if r is None:  # checking: the progress is drawn where the trees will be
            self.tree_rect = pygame.Rect(x, m, rw, h - 2 * m)
            return
        text_h = min(4 * projector.text_height(manager, None, "text_box") + px(20), h // 4)
        by = h - m - bh
        self.tree_rect = pygame.Rect(x, m, rw, by - text_h - 2 * px(8) - m)
        ui["difference"] = UITextBox("", pygame.Rect(x, by - text_h - px(8), rw, text_h), manager)
        bx = x
        for key, text in (("first", "|<"), ("prev", "< Step"), ("next", "Step >"), ("last", ">|"),
                          ("diff", "Go to the difference (D)")):
            bw = projector.text_width(manager, text, None, "button") + px(28)
            ui[key] = UIButton(pygame.Rect(bx, by, bw, bh), text, manager)
            bx += bw + px(8)
        self._step_x = bx + px(6)
        self._refresh_text(force=True)

    def _refresh_text(self, force: bool = False) -> None:
        box = self._ui.find("difference", UITextBox)
        if box is None:
            return
        c = self.case
        if c is None:
            return
        elif c.ok:
            text = f"<b>{html.escape(c.name)}</b>: the same as the reference (move {html.escape(c.expected_move)})."
        else:
            text = (f"<b>{html.escape(c.name)}</b>: <font color='#FF7A7A'>{html.escape(c.first_difference or '')}"
                    f"</font>")
        if c is not None and self.traces is None:
            text += "<br>(this tree is not drawn: too big to search again here)"
        text += f"<br><font color='#8590AA'>{html.escape(STEP_HELP)}</font>"
        if force or self._difference_shown != (box, text):
            box.set_text(text)
            self._difference_shown = (box, text)

    def handle_event(self, event: pygame.event.Event) -> bool:
        """The case list, the step buttons and keys (Left, Right, Home, End, D)."""
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and event.ui_element is self._ui.get("cases"):
            index = self._rows.get(str(event.text))
            if index is not None and index != self.selected:
                self.open_case(index)
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            return self.run_button(event.ui_element, {
                "back": self.back, "first": lambda: self.set_step(0), "prev": lambda: self.set_step(self.step - 1),
                "next": lambda: self.set_step(self.step + 1), "last": lambda: self.set_step(self.steps),
                "diff": lambda: self.set_step(self.difference_step())})
        if event.type == pygame.KEYDOWN and not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
            keys = {pygame.K_LEFT: self.step - 1, pygame.K_RIGHT: self.step + 1, pygame.K_HOME: 0,
                    pygame.K_END: self.steps, pygame.K_d: self.difference_step()}
            if event.key in keys:
                self.set_step(keys[event.key])
                return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        """The two trees (or the progress while the check runs) and the step line."""
        pal = projector.palette()
        surface.fill(pal.background)
        f = projector.scaled_ui_font(16)
        if self.report is None:
            f = projector.scaled_ui_font(22, True)
            done, total = self.progress
            text = f"Checking case {min(done + 1, total)} of {total}..." if total else "Starting the file..."
            img = f.render(text, True, pal.accent)
            surface.blit(img, img.get_rect(center=self.tree_rect.center))
            return
        c = self.case
        if c is None or c.case is None or self.traces is None:
            return
        mine, ref, diff = self.traces
        gap = projector.px(10)
        half = (self.tree_rect.width - gap) // 2
        left = pygame.Rect(self.tree_rect.left, self.tree_rect.top, half, self.tree_rect.height)
        right = pygame.Rect(left.right + gap, self.tree_rect.top, half, self.tree_rect.height)
        word = WORDS[c.algorithm]
        draw_trace(surface, left, c.case.root, mine, self.step, diff.student_path if diff else None,
                   f"Your {word}: step {min(self.step, len(mine.steps))} of {len(mine.steps)}, "
                   f"move {c.got_move or '-'}")
        draw_trace(surface, right, c.case.root, ref, self.step, diff.reference_path if diff else None,
                   f"Reference: step {min(self.step, len(ref.steps))} of {len(ref.steps)}, move {c.expected_move}")
        line = f"Step {self.step} of {self.steps}"
        back = self._ui.get("back")
        y = back.rect.centery if back is not None else self.tree_rect.bottom
        img = f.render(line, True, pal.text)
        surface.blit(img, img.get_rect(midleft=(getattr(self, "_step_x", self.tree_rect.left), y)))
