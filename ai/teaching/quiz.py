"""Predict the next step: a quiz over a recorded search (no pygame).

Before a step of the step-through is shown, the class is asked what comes next; the answer is taken from that very
step of the recorded trace (:func:`ai.teaching.trace.step_events`) and its sentence (:mod:`ai.teaching.narration`) is
the reveal, so the questions are right by construction. What a step asks (:func:`questions`):

* entering a node (not the root): ``Which node does the search visit next?``; the choices are children of its
  parent not entered yet (the pruned ones too; a seeded few when there are more than four), in the order of the
  moves (a Tree Lab tree: left to right; with move ordering the search may take another first);
* leaving an inner node: ``What value does D (MAX) back up?`` (``What is the value of the tree?`` at the root); the
  choices are the value as the narration states it (``3``, ``at least 5``) and up to three others drawn from the
  values nearby (its children's, the other player's choice, the bound read the other way), in a seeded order;
* leaving a leaf whose parent has children left (alpha-beta): ``Leaf 5 returns 5: is the rest of E pruned?``;
* leaving a leaf that is its parent's last child: ``What is alpha at D (MAX) now?`` (beta at a MIN node; minimax:
  the best value so far).

The first step (entering the root), a chance node's outcomes, and a node's failed null-window test of
principal-variation search and the entering of its re-search (the same node searched again) ask nothing.
:class:`QuizRun` keeps a running quiz: the question posed, the highlighted choice, the score.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ai.kernel.recording import CHANCE, MAX, MIN, RecordedNode, SearchTree
from ai.teaching.narration import Narrator
from ai.teaching.trace import step_events
from ai.teaching.tree_names import child_place, is_leaf

VISIT, VALUE, PRUNE, UPDATE = "visit", "value", "prune", "update"
"""The kinds of question."""
MAX_CHOICES = 4
"""Most choices a question offers (keys 1-4)."""
YES, NO = "Yes: the rest is pruned", "No: the search goes on"


@dataclass(frozen=True)
class Question:
    """What the class is asked before step :attr:`step` is shown."""

    step: int
    """Index of the step (into :func:`ai.teaching.trace.step_events`) the question is about."""
    kind: str
    """:data:`VISIT`, :data:`VALUE`, :data:`PRUNE` or :data:`UPDATE`."""
    prompt: str
    choices: tuple[str, ...]
    """Two to :data:`MAX_CHOICES` distinct texts, shown numbered 1, 2, ..."""
    answer: int
    """Index into :attr:`choices` of the right one."""
    reveal: str
    """The step's sentence (:func:`ai.teaching.narration.narration`), shown once answered."""
    node: int
    """Id of the recorded node the step enters or leaves."""

    @property
    def answer_text(self) -> str:
        """The right choice's text."""
        return self.choices[self.answer]


def questions(tree: SearchTree, root: Any = None, *, seed: int = 0, symbols: str = "ascii") -> list[Question | None]:
    """One entry per step of :func:`ai.teaching.trace.step_events`: the question asked before the step, or ``None``.

    Args:
        tree: the recorded search.
        root: for a Tree Lab tree, the explicit tree (names pruned children as the narration does), or ``None``.
        seed: orders a value question's choices (the same seed, the same quiz).
        symbols: ``ascii`` or ``unicode`` (as :func:`ai.teaching.narration.narration`; the window uses ``unicode``).

    Raises:
        ValueError: ``symbols`` is not one of :data:`ai.teaching.narration.SYMBOLS`.
    """
    nar = Narrator(tree, root, symbols=symbols)
    sentences = nar.sentences()
    events = step_events(tree)
    out: list[Question | None] = []
    for i, e in enumerate(events):
        n = nar.by_id[e.node]
        rng = random.Random(seed * 1_000_003 + i)
        try:
            q = _leave(nar, n, i, rng, e.search) if e.leaving else _enter(nar, n, i, rng, e.search)
        except (KeyError, ValueError, IndexError):  # a tree shape the quiz does not know: the step asks nothing
            q = None
        out.append(None if q is None else Question(i, q[0], q[1], tuple(q[2]), q[3], sentences[i], n.id))
    return out


_Q = tuple[str, str, list[str], int]


def _kids(nar: Narrator, p: RecordedNode) -> list[RecordedNode]:
    return [nar.by_id[k] for k in p.children if k in nar.by_id]


def _child_name(nar: Narrator, p: RecordedNode, move: str) -> str:
    """The name of ``p``'s child reached by ``move`` (a pruned one too)."""
    if nar.lab:
        return nar.path_names.get(nar.paths.get(p.id, ()) + (int(move),), f"child {move}")
    pn = nar.names.get(p.id, "?")
    return move if pn == "root" else f"{pn} > {move}"


def _enter(nar: Narrator, n: RecordedNode, i: int, rng: random.Random, search: int = 0) -> _Q | None:
    p = nar.parent_at(n)
    if p is None or p.kind == CHANCE or search:  # a node searched again: the same node, nothing to predict
        return None
    later = [c for c in _kids(nar, p) if c.enter_order >= n.enter_order]
    moves: list[tuple[str, str]] = [(c.move or "?", nar.names.get(c.id, "?")) for c in later]
    moves += [(m, _child_name(nar, p, m)) for m in p.skipped]
    # in the order of the moves (a Tree Lab tree: left to right), not the order searched: that is the question
    moves.sort(key=lambda t: (int(t[0]), "") if t[0].isdigit() else (0, t[0]))
    if nar.lab:
        total = nar.child_count(p)
        counts: dict[str, int] = {}
        for _, nm in moves:
            counts[nm] = counts.get(nm, 0) + 1
        moves = [(m, nm if counts[nm] == 1 else f"{nm} ({child_place(int(m), total)} child)") for m, nm in moves]
    right = next(k for k, (m, _) in enumerate(moves) if m == (n.move or "?"))
    others = [k for k in range(len(moves)) if k != right]
    keep = sorted(rng.sample(others, min(len(others), MAX_CHOICES - 1)) + [right])  # a seeded few, in move order
    choices = list(dict.fromkeys(moves[k][1] for k in keep))
    answer = choices.index(moves[right][1])
    if len(choices) < 2:
        choices.append(f"None: {nar.names.get(p.id, '?')} is done, back up")
    return VISIT, "Which node does the search visit next?", choices, answer


def _values(nar: Narrator) -> list[float]:
    return sorted({c.value for c in nar.tree.nodes if is_leaf(c)})


def _pick(answer: str, others: Sequence[str], rng: random.Random) -> tuple[list[str], int]:
    """The answer and up to three distinct others, in a seeded order."""
    pool = [o for o in dict.fromkeys(others) if o != answer]
    rng.shuffle(pool)
    choices = pool[:MAX_CHOICES - 1] + [answer]
    rng.shuffle(choices)
    return choices, choices.index(answer)


def _leave(nar: Narrator, n: RecordedNode, i: int, rng: random.Random, search: int = 0) -> _Q | None:
    p = nar.parent_at(n)
    if nar.superseded(n, search) or p is not None and p.kind == CHANCE and is_leaf(n):
        return None
    if not is_leaf(n):
        return _value(nar, n, p, rng)
    if p is None:
        return None
    searched = nar.searched(p)
    rest = [c for c in searched if c.enter_order > n.enter_order]
    if nar.windows and (rest or p.skipped):
        yes = bool(p.children) and p.children[-1] == n.id and bool(p.skipped)
        prompt = (f"{nar.names.get(n.id, '?')} returns {nar.num(n.value)}: is the rest of "
                  f"{nar.names.get(p.id, '?')} pruned?")
        return PRUNE, prompt[0].upper() + prompt[1:], [YES, NO], 0 if yes else 1
    return _update(nar, n, p, rng)


def _value(nar: Narrator, n: RecordedNode, p: RecordedNode | None, rng: random.Random) -> _Q:
    answer = nar.bound(n).removeprefix("value ")
    v = n.value
    kids = nar.searched(n)
    others = [nar.num(c.value) for c in kids]
    if kids and n.kind in (MAX, MIN):
        other = min if n.kind == MAX else max
        others.append(nar.num(other(c.value for c in kids)))
    if answer == nar.num(v):
        others += [f"at least {nar.num(v)}", f"at most {nar.num(v)}"]
    else:
        others.append(nar.num(v))
    others += [nar.num(x) for x in _values(nar)]
    choices, k = _pick(answer, others, rng)
    if p is None:
        what = "tree" if nar.lab else "position"
        return VALUE, f"What is the value of the {what}?", choices, k
    return VALUE, f"What value does {nar.names.get(n.id, '?')} ({nar.kind(n)}) back up?", choices, k


def _update(nar: Narrator, n: RecordedNode, p: RecordedNode, rng: random.Random) -> _Q | None:
    if p.kind not in (MAX, MIN):
        return None
    v = n.value
    if nar.windows:
        a0, b0 = nar.fold(p, n.leave_order)
        a1, b1 = nar.fold(p, n.leave_order + 1)
        word, before, after = (nar.w.alpha, a0, a1) if p.kind == MAX else (nar.w.beta, b0, b1)
        prompt = f"{nar.names.get(n.id, '?')} returns {nar.num(v)}: what is {word} at {nar.names.get(p.id, '?')} " \
                 f"({nar.kind(p)}) now?"
    else:
        done = [c.value for c in nar.searched(p) if c.leave_order <= n.leave_order]
        f = max if p.kind == MAX else min
        before, after = (f(done[:-1]) if len(done) > 1 else v), f(done)
        prompt = f"{nar.names.get(n.id, '?')} returns {nar.num(v)}: what is the best value so far at " \
                 f"{nar.names.get(p.id, '?')} ({nar.kind(p)})?"
    others = [nar.num(before), nar.num(v)] + [nar.num(x) for x in _values(nar)]
    choices, k = _pick(nar.num(after), others, rng)
    if len(choices) < 2:
        return None
    return UPDATE, prompt[0].upper() + prompt[1:], choices, k


@dataclass
class QuizRun:
    """A running quiz over one tree's steps (the step-through asks, the class answers, the score is kept).

    The step-through calls :meth:`forward` where it would step on: when the next step has a question not answered
    yet, the question is posed (:attr:`pending`) and the step waits; :meth:`answer` (or :meth:`commit`, the
    highlighted choice) records the answer and returns the step to show (the reveal: the step, its sentence and
    :attr:`verdict`).
    """

    questions: list[Question | None]
    pending: Question | None = None
    """The question posed now (``None``: none waits)."""
    highlight: int = 0
    """Index of the highlighted choice of :attr:`pending` (the clicker's Page Up moves it)."""
    verdict: tuple[Question, int] | None = None
    """The question last answered and the choice given (shown with the reveal until the next step)."""
    answers: dict[int, bool] = field(default_factory=dict)
    """Step index -> answered right."""

    @property
    def right(self) -> int:
        """Questions answered right."""
        return sum(self.answers.values())

    @property
    def asked(self) -> int:
        """Questions answered."""
        return len(self.answers)

    def forward(self, step: int | None) -> int | None:
        """The class wants the step after ``step`` (``None``: the finished search; the next is the first step).
        Returns the step to show now, or ``None`` when a question is posed instead (or the last step is shown)."""
        if self.pending is not None:
            return self.commit()
        target = 0 if step is None else step + 1
        if target >= len(self.questions):
            return None
        self.verdict = None
        q = self.questions[target]
        if q is not None and target not in self.answers:
            self.pending, self.highlight = q, 0
            return None
        return target

    def move(self, delta: int) -> None:
        """Move the highlight by ``delta`` choices (wrapping round)."""
        if self.pending is not None:
            self.highlight = (self.highlight + delta) % len(self.pending.choices)

    def commit(self) -> int | None:
        """Answer with the highlighted choice (see :meth:`answer`)."""
        return self.answer(self.highlight)

    def answer(self, choice: int) -> int | None:
        """Answer the posed question with ``choice`` (0-based). Returns its step (to show, the reveal), or ``None``
        when no question waits or ``choice`` is not one of its choices."""
        q = self.pending
        if q is None or not 0 <= choice < len(q.choices):
            return None
        self.answers[q.step] = choice == q.answer
        self.verdict = (q, choice)
        self.pending = None
        return q.step

    def withdraw(self) -> bool:
        """Take the posed question back (the step before stays shown). Returns True when one was posed."""
        posed = self.pending is not None
        self.pending = None
        return posed

    def reset(self) -> None:
        """Start again: no question posed, no answers."""
        self.pending, self.verdict, self.highlight = None, None, 0
        self.answers.clear()
