"""Predict the next step: the step-through's quiz mode (:class:`QuizMode`), in the overlay and the Tree Lab.

Q (or the bar's Quiz button) turns it on and off. While it is on, stepping on (Page Down, Right, Down, Space,
Enter, the Next button) first asks what the next step does (:mod:`ai.teaching.quiz`: which node is visited, the value
backed up, whether the rest of a node is pruned, alpha or beta after a leaf returns) in a band above the narration;
the step is shown (the reveal: the tree, its sentence and the verdict) once the question is answered:

* keys 1-4 answer with that choice;
* Page Down (a presenter's clicker), Enter or Space answer with the highlighted choice; Page Up and Up move the
  highlight back, Down and Tab forward (wrapping round), so a clicker with only Page Up / Page Down answers;
* Left or Backspace take the question back (the step before stays shown).

Page Up with no question posed steps back as usual; a step already answered is not asked again. The score
(right / asked) stays in the band's title line until the quiz is turned off or another tree is shown.
"""

from __future__ import annotations

from typing import Any, Protocol

import pygame

from ai.kernel.spelling import UNICODE
from ai.teaching.quiz import Question, QuizRun, questions
from gameplay.pictures.tree_png import safe_text
from gameplay.ui.overlay import overlay_draw as draw
from gameplay.ui.overlay.overlay_shown import ShownOverlay


class QuizHost(ShownOverlay, Protocol):
    """The overlay as the quiz drives it: read, paused and moved to a step through its own methods."""

    def pause(self) -> None: ...
    def next_step(self) -> None: ...
    def go_to_step(self, index: int | None) -> None: ...

RIGHT_RGB = (30, 130, 60)
WRONG_RGB = (190, 40, 40)
ANSWER_KEYS = {pygame.K_1: 0, pygame.K_2: 1, pygame.K_3: 2, pygame.K_4: 3,
               pygame.K_KP1: 0, pygame.K_KP2: 1, pygame.K_KP3: 2, pygame.K_KP4: 3}
NEXT_KEYS = (pygame.K_PAGEDOWN, pygame.K_RIGHT, pygame.K_DOWN, pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER)
HINT = "1-4, or Page Up: choose · Page Down: answer"
"""The keys, beside the band's title while a question is posed (when there is room)."""


class QuizMode:
    """The overlay's quiz (see the module docstring): off until :meth:`toggle`."""

    def __init__(self) -> None:
        self._on = False
        self._run: QuizRun | None = None
        self._tree: Any = None
        self._height: tuple[Any, int] | None = None

    @property
    def on(self) -> bool:
        """The quiz is on (:meth:`toggle`)."""
        return self._on

    @property
    def run(self) -> QuizRun | None:
        """The quiz over the tree shown (made when the quiz is turned on or the tree changes)."""
        return self._run

    # -- state -------------------------------------------------------------------------------------------------------
    def sync(self, ov: ShownOverlay) -> QuizRun | None:
        """The run for the tree ``ov`` shows (a new tree: a new quiz, the score from zero); a posed question whose
        step is no longer the next one (a click on a node, Home, End) is taken back."""
        if not self._on or ov.tree is None:
            return None
        if self._run is None or self._tree is not ov.tree:
            self._tree = ov.tree
            self._run = QuizRun(questions(ov.tree, getattr(ov.info, "root", None), symbols=UNICODE))
        run = self._run
        if run.pending is not None and run.pending.step != (0 if ov.step is None else ov.step + 1):
            run.withdraw()
        return run

    def toggle(self, ov: QuizHost) -> bool:
        """Turn the quiz on or off (the replay pauses; off forgets the score). Returns True when it is on."""
        self._on = not self._on
        ov.pause()
        if not self._on:
            self._run, self._tree = None, None
        else:
            self.sync(ov)
        return self._on

    def forward(self, ov: QuizHost) -> None:
        """Step on: pose the next step's question, answer the posed one with the highlighted choice, or show the
        next step when it asks nothing (or was answered)."""
        run = self.sync(ov)
        if run is None:
            ov.next_step()
            return
        ov.pause()
        target = run.forward(ov.step)
        if target is not None:
            ov.go_to_step(target)

    def answer(self, ov: QuizHost, choice: int) -> bool:
        """Answer the posed question with ``choice`` (0-based) and show its step. False: none posed, or no such
        choice."""
        run = self.sync(ov)
        target = None if run is None else run.answer(choice)
        if target is not None:
            ov.go_to_step(target)
        return target is not None

    # -- keys ----------------------------------------------------------------------------------------------------------
    def key(self, ov: QuizHost, event: pygame.event.Event) -> bool:
        """Q toggles the quiz; while it is on, the keys of the module docstring. Returns True when used."""
        k = event.key
        if k == pygame.K_q and not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META):
            self.toggle(ov)
            return True
        run = self.sync(ov)
        if run is None:
            return False
        if run.pending is not None:
            if k in ANSWER_KEYS:
                self.answer(ov, ANSWER_KEYS[k])
            elif k in (pygame.K_PAGEUP, pygame.K_UP):
                run.move(-1)
            elif k in (pygame.K_DOWN, pygame.K_TAB):
                run.move(1)
            elif k in NEXT_KEYS:
                self.forward(ov)
            elif k in (pygame.K_LEFT, pygame.K_BACKSPACE):
                run.withdraw()
            else:
                return False
            return True
        if k in NEXT_KEYS:
            self.forward(ov)
            return True
        return False

    # -- drawing -------------------------------------------------------------------------------------------------------
    def font(self, ov: ShownOverlay, bold: bool = False) -> pygame.font.Font:
        """The band's font: the narration's size (the presenter view's projector size there, growing with the
        screen)."""
        return (draw.screen_font(draw.presenter_px(ov, draw.PRESENTER_NARRATION_PX), bold) if ov.presenter
                else draw.ui_font(19, bold))

    def height(self, ov: ShownOverlay, width: int) -> int:
        """Pixels the band needs at ``width`` (0 while the quiz is off): the title line, two lines of question,
        and the most rows of choices any question of the tree needs; one height for the whole tree."""
        run = self.sync(ov)
        if run is None:
            return 0
        f = self.font(ov)
        key = (id(run), width, f.get_height(), ov.presenter)
        if self._height is not None and self._height[0] == key:
            return self._height[1]
        rows = max([1] + [len(choice_rows(q, f, width)) for q in run.questions if q is not None])
        prompt = max([1] + [len(draw.wrap(q.prompt, f, width - 28)) for q in run.questions if q is not None])
        h = f.get_height() * (1 + min(prompt, 2)) + rows * (box_height(f) + 6) + 20
        self._height = (key, h)
        return h

    def band(self, ov: ShownOverlay) -> pygame.Rect:
        """Where the band goes (:attr:`TreeOverlay.quiz_rect`): under the tree, above the narration, left of the
        side panel; at most half the room under the legend; none while the quiz is off."""
        w = max(50, ov.side_rect.left - ov.rect.x)
        bottom = ov.narration_rect.top if not ov.show_side else ov.bar_rect.top
        h = min(self.height(ov, w), max(0, (bottom - ov.legend_rect.bottom) // 2))
        return pygame.Rect(ov.rect.x, bottom - h, w, h)

    def draw(self, ov: ShownOverlay, surface: pygame.Surface) -> None:
        """The band (:attr:`TreeOverlay.quiz_rect`): title and score, the question and its numbered choices, or
        the verdict on the question just answered (the right choice green, a wrong one red)."""
        run = self.sync(ov)
        r = ov.quiz_rect
        if run is None or r.height <= 0:
            return
        c = draw.chrome()
        pygame.draw.rect(surface, c.panel_bg, r)
        pygame.draw.line(surface, c.rule, r.topleft, (r.right - 1, r.top), 2)
        f, fb = self.font(ov), self.font(ov, bold=True)
        x, y = r.x + 14, r.y + 6
        score = f"Score {run.right} / {run.asked}"
        surface.blit(fb.render(score, True, c.ink), (r.right - 14 - fb.size(score)[0], y))
        shown = run.verdict if run.verdict is not None and run.verdict[0].step == ov.step else None
        q: Question | None = run.pending if run.pending is not None else shown[0] if shown is not None else None
        if q is None:  # the title, and under it what Page Down does (wrapped clear of nothing: the line is its own)
            surface.blit(fb.render("Predict the next step", True, c.ink), (x, y))
            over = ov.step is not None and ov.step >= len(ov.events) - 1
            line = "The search is over." if over else "Page Down (or Next) asks the next question."
            for text in draw.wrap(line, f, r.width - 28)[:2]:
                y += f.get_height()
                surface.blit(f.render(text, True, c.ink), (x, y))
            return
        if shown is not None:
            ok = shown[1] == q.answer
            title = f"Right: {q.answer + 1}" if ok else f"Not quite: the answer is {q.answer + 1}"
            surface.blit(fb.render(safe_text(title), True, RIGHT_RGB if ok else WRONG_RGB), (x, y))
        else:
            title = "Predict the next step"
            surface.blit(fb.render(title, True, c.ink), (x, y))
            small = draw.screen_font(20) if ov.presenter else draw.ui_font(14)
            hint_x = x + fb.size(title)[0] + 24
            if hint_x + small.size(HINT)[0] + 24 <= r.right - 14 - fb.size(score)[0]:
                surface.blit(small.render(HINT, True, c.ink), (hint_x, y + fb.get_height() - small.get_height()))
        y += f.get_height()
        for line in draw.wrap(q.prompt, f, r.width - 28)[:2]:
            surface.blit(f.render(line, True, c.ink), (x, y))
            y += f.get_height()
        y += 4
        for row in choice_rows(q, f, r.width):
            for i, bx, bw in row:
                box = pygame.Rect(bx + r.x, y, bw, box_height(f))
                edge, width = c.ink, 1
                if shown is not None and i == q.answer:
                    edge, width = RIGHT_RGB, 4
                elif shown is not None and i == shown[1]:
                    edge, width = WRONG_RGB, 4
                elif shown is None and i == run.highlight:
                    edge, width = c.ink, 4
                pygame.draw.rect(surface, c.bg, box)
                pygame.draw.rect(surface, edge, box, width)
                # the key in a filled badge, apart from the choice's words (a move "0" is not the key "1")
                badge = pygame.Rect(box.x + 5, box.y + 5, badge_width(f), box.height - 10)
                pygame.draw.rect(surface, c.ink, badge, border_radius=4)
                num = fb.render(str(i + 1), True, c.bg)
                surface.blit(num, num.get_rect(center=badge.center))
                font = fb if shown is None and i == run.highlight else f
                surface.blit(font.render(safe_text(q.choices[i]), True, c.ink),
                             (badge.right + 10, box.y + (box.height - f.get_height()) // 2))
            y += box_height(f) + 6


def box_height(f: pygame.font.Font) -> int:
    """A choice's box: its line and some air."""
    return f.get_height() + 12


def badge_width(f: pygame.font.Font) -> int:
    """The key's badge in a choice's box."""
    return f.size("4")[0] + 14


def choice_rows(q: Question, f: pygame.font.Font, width: int) -> list[list[tuple[int, int, int]]]:
    """The choices of ``q`` laid out in a band ``width`` pixels wide: rows of ``(index, x, box width)`` (``x``
    from the band's left edge); all on one row when they fit, else two to a row, else one."""
    need = [f.size(safe_text(t))[0] + badge_width(f) + 30 for t in q.choices]
    avail = width - 28
    gap = 10
    for per in (len(need), 2, 1):
        bw = (avail - gap * (per - 1)) // per
        if max(need) <= bw or per == 1:
            rows: list[list[tuple[int, int, int]]] = []
            for i in range(len(need)):
                if i % per == 0:
                    rows.append([])
                rows[-1].append((i, 14 + (i % per) * (bw + gap), bw))
            return rows
    return []
