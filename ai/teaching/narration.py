"""A recorded search told in words: one sentence per step of the step-through (no pygame).

The course material narrates alpha-beta by hand (``Working of Alpha-Beta Pruning``, Steps 1-8, on the tree
``[[[2,3],[5,9]],[[0,1],[7,5]]]``; Russell & Norvig, *AIMA* 4th ed., section 5.3, figure 5.5): at each node it says
which player decides, what alpha and beta are, how a returned value updates them (a MAX node raises
``alpha = max(alpha, v)``, a MIN node lowers ``beta = min(beta, v)``) and why a subtree is pruned (``alpha >= beta``).
:func:`narration` writes those sentences from a :class:`~ai.kernel.recording.SearchTree`: exactly one per step of
:func:`ai.teaching.trace.step_events` (the same length and order), so the overlay, the Tree Lab, ``main.py tree
--narrate`` and the exports can show the sentence of the step on screen.

What a step says:

* entering a node: who decides there (MAX, MIN or chance), the window passed down (alpha-beta only), a
  principal-variation search's null-window test or full-window re-search, and a depth the search changed there
  (material truncation, plies given back, a forced-reply extension:
  :attr:`~ai.kernel.recording.RecordedNode.depth_change`);
* leaving a leaf, a terminal position, a transposition-table hit or a repetition: its value and why it has it;
* leaving an inner node: its value backed up (``max(...)``/``min(...)``; a chance node's weighted sum
  ``1/6*3 + 1/6*5 + ... = 4.2`` as in expectiminimax, *AIMA* section 5.5), each child written as what the search
  proved about it, as the tree labels it (``max(3, <= 2, ...)``: a cut-off child is a bound, ``...`` the children
  pruned), and the result as a value only when it is exact (``= at least 5``, ``= at most 1`` otherwise);
* then, at the parent, the update of alpha or beta (or of the best value so far for minimax, of the running
  sum at a chance node) and the cut-off, naming the children pruned.

Minimax and expectimax have no window, so their sentences never mention alpha or beta. Values are MAX's (the
side to move at the root), printed with :func:`ai.kernel.recording.number_text`; proven results read ``win in N``.

Names (:func:`ai.teaching.tree_names.node_names`): in a Tree Lab tree (an explicit tree, moves are child indices) inner
nodes are lettered ``A``, ``B``, ``C``... in breadth-first order and leaves named by their value, as in the
textbook figures; in a game tree a node is named by the moves from the root (``root``, ``4``, ``4 > 0``).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ai.kernel.core import DB_BOUND
from ai.kernel.numbers import plural
from ai.kernel.recording import (
    CHANCE,
    INF,
    MAX,
    MIN,
    NULL_TEST,
    REDUCED_TEST,
    RecordedNode,
    SearchTree,
    null_window,
    number_text,
    value_label,
)
from ai.kernel.search_stats import TRUNCATE_MEN
from ai.kernel.spelling import SPELLINGS, signs
from ai.teaching.trace import aspiration_rounds, folded_window, node_at, pass_node, step_events
from ai.teaching.tree_names import child_place, is_lab_tree, is_leaf, lab_path_names, lab_paths, node_names

SYMBOLS = SPELLINGS
"""The two spellings (:mod:`ai.kernel.spelling`): ``alpha``, ``beta``, ``-inf``, ``+inf``, ``>=`` for a terminal
or ``α``, ``β``, ``−∞``, ``+∞``, ``≥`` as the window and its pictures write them."""


# -- numbers -----------------------------------------------------------------------------------------------------
def _frac(p: float) -> str:
    """A probability as a small fraction when it is one (``1/6``), else its number."""
    f = Fraction(p).limit_denominator(36)
    if f.denominator > 1 and math.isclose(float(f), p, rel_tol=1e-9, abs_tol=1e-12):
        return f"{f.numerator}/{f.denominator}"
    return number_text(p)


class Narrator:
    """Writes the sentences of one recorded search (see :func:`narration`)."""

    def __init__(self, tree: SearchTree, root: Any = None, *, symbols: str = "ascii", lab: bool | None = None,
                 names: Mapping[int, str] | None = None) -> None:
        if symbols not in SYMBOLS:
            raise ValueError(f"symbols must be one of {', '.join(SYMBOLS)}, got {symbols!r}")
        self.tree = tree
        self.w = signs(symbols)
        self.lab = lab if lab is not None else is_lab_tree(tree)
        self.root = root
        self.by_id = {n.id: n for n in tree.nodes}
        self.names = dict(names) if names is not None else node_names(tree, root, lab=self.lab)
        self.windows = tree.algorithm not in ("minimax", "expectimax")
        self.strict = tree.prune == "gt"
        self.paths = lab_paths(tree) if self.lab else {}
        self.path_names = lab_path_names(tree, root) if self.lab else {}
        self.named: list[int] = []
        """Ids of the recorded nodes the sentence being written names (:meth:`name` appends; :meth:`steps`)."""
        self.named_pruned: list[tuple[int, str]] = []
        """``(parent id, move)`` of the pruned children the sentence being written names (:meth:`child_phrase`)."""
        self.quoted: list[int] = []
        """Ids of the children whose values the sentence being written quotes (``max(3, 12, 8)``, a weighted sum)."""
        self.rounds = root_rounds(tree) if self.windows else []
        """The root's aspiration rounds: ``[(moment it began, alpha, beta)]`` (:func:`root_rounds`)."""
        self.round_starts = {start for start, _, _ in self.rounds[1:]}

    # -- small words ----------------------------------------------------------------------------------------------
    def num(self, v: float) -> str:
        """A value: ``3``, ``0.25``, ``-inf``/``+inf`` (or ``−∞``/``+∞``), ``win in 5`` for a proof."""
        if v == INF:
            return self.w.pos_inf
        if v == -INF:
            return self.w.neg_inf
        if self.tree.proofs and abs(v) >= DB_BOUND:
            return value_label(v)
        return number_text(v)

    def ge(self) -> str:
        return ">" if self.strict else self.w.ge

    def kind(self, n: RecordedNode) -> str:
        return {MAX: "MAX", MIN: "MIN", CHANCE: "chance"}.get(n.kind, n.kind)

    def name(self, n: RecordedNode) -> str:
        self.named.append(n.id)
        return self.names.get(n.id, "?")

    def who(self, n: RecordedNode) -> str:
        """``D (MAX)``, ``leaf 5``, ``4 > 0 (MIN)``."""
        nm = self.name(n)
        if is_leaf(n) and (self.lab or n.note in ("leaf", "terminal")):
            return nm if self.lab else f"{nm} ({'game over' if n.note == 'terminal' else 'depth limit'})"
        return f"{nm} ({self.kind(n)})"

    def window(self, a: float, b: float) -> str:
        """``alpha = 3, beta = +inf``; a null window reads ``alpha = 3, beta = 3+eps`` (or ``3-eps, 3``)."""
        eps = self.w.eps
        if math.isfinite(a) and math.isfinite(b) and b > a and math.nextafter(a, INF) == b:
            if len(repr(a)) <= len(repr(b)):  # the round end is the bound tested; the other is one step off
                return f"{self.w.alpha} = {self.num(a)}, {self.w.beta} = {self.num(a)}+{eps}"
            return f"{self.w.alpha} = {self.num(b)}-{eps}, {self.w.beta} = {self.num(b)}"
        return f"{self.w.alpha} = {self.num(a)}, {self.w.beta} = {self.num(b)}"

    def cut(self, a: float, b: float) -> bool:
        return a > b if self.strict else a >= b

    def searched(self, n: RecordedNode) -> list[RecordedNode]:
        """The children of ``n`` (of the pass ``n`` stands for: :func:`ai.teaching.trace.pass_node`), each one node
        whatever its passes, with what they proved together."""
        return [self.by_id[k] for k in n.children if k in self.by_id]

    def fold(self, n: RecordedNode, upto: int | None = None) -> tuple[float, float]:
        """The window at ``n`` after its children left before moment ``upto`` (all when ``None``); a node searched
        in several passes: in the pass at that moment."""
        if n.parent is None and len(self.rounds) > 1:
            return self._root_window(n, upto)
        v = n if upto is None else node_at(n, upto - 1)
        return folded_window(self.by_id, v, None if upto is None else upto - 1)

    def round_at(self, order: int | None) -> int:
        """The index of the root's aspiration round in progress at moment ``order`` (``None``: the last)."""
        if order is None:
            return len(self.rounds) - 1
        return max((i for i, (start, _, _) in enumerate(self.rounds) if start <= order), default=0)

    def _root_window(self, root: RecordedNode, upto: int | None) -> tuple[float, float]:
        """The root's window before moment ``upto`` in the round then in progress: the round's own window
        tightened by the children's passes of that round left by then (an aspiration round starts again)."""
        r = self.round_at(None if upto is None else upto - 1)
        start = self.rounds[r][0]
        a, b = self.rounds[r][1], self.rounds[r][2]
        for k in root.children:
            c = self.by_id.get(k)
            if c is None:
                continue
            for q in c.passes or (c,):
                if q.enter_order >= start and (upto is None or q.leave_order < upto):
                    if root.kind == MAX:
                        a = max(a, q.value)
                    elif root.kind == MIN:
                        b = min(b, q.value)
        return a, b

    # -- principal-variation search's passes --------------------------------------------------------------------
    def view(self, n: RecordedNode, search: int) -> RecordedNode:
        """``n`` as its pass ``search`` searched it (:func:`ai.teaching.trace.pass_node`)."""
        return pass_node(n, search) if n.passes else n

    def parent_at(self, n: RecordedNode) -> RecordedNode | None:
        """The parent of ``n`` (a node or one of its passes) as it stood when ``n`` was entered: the pass of the
        parent that searched ``n``."""
        p = self.parent_of(n)
        return None if p is None else node_at(p, n.enter_order)

    def is_test(self, v: RecordedNode, search: int = 0) -> bool:
        """True when pass ``search`` of a node (``v``: :meth:`view`) is principal-variation search's null-window
        test: a null window (or a late-move reduction's shallower one) under a parent searched with a wider one."""
        p = self.parent_at(v)
        if p is None or not self.windows:
            return False
        if v.passes and v.passes[search].kind == REDUCED_TEST:
            return True
        return _null_window(v) and not _null_window(p)

    def superseded(self, n: RecordedNode, search: int) -> bool:
        """True when pass ``search`` of ``n`` is followed by another search of the same node (a failed test) in
        the same aspiration round at the root."""
        if search >= len(n.passes) - 1:
            return False
        return self.round_at(n.passes[search + 1].enter_order) == self.round_at(n.passes[search].enter_order)

    @staticmethod
    def entered(n: RecordedNode, search: int) -> int:
        """The moment pass ``search`` of ``n`` began (``n.enter_order`` is its first pass's)."""
        return n.passes[search].enter_order if n.passes and search < len(n.passes) else n.enter_order

    def new_round(self, n: RecordedNode, search: int) -> int:
        """The aspiration round (1, 2 ...) that pass ``search`` of ``n`` begins, or 0 when it begins none."""
        if not n.passes or search >= len(n.passes) or n.passes[search].enter_order not in self.round_starts:
            return 0
        return self.round_at(n.passes[search].enter_order)

    def failed_window(self, r: int) -> str:
        """Why round ``r`` (>= 1) began: ``the window alpha = 20.8, beta = 21.2 failed low (...)``."""
        (_, lo, hi), (_, lo2, hi2) = self.rounds[r - 1], self.rounds[r]
        low = lo2 < lo
        side = "low" if low else "high"
        why = (f"no root move scored above {self.w.alpha} = {self.num(lo)}, so the value is at most that"
               if low else f"a root move scored at least {self.w.beta} = {self.num(hi)}, so the value is at least "
               f"that")
        opened = "below" if low else "above"
        return (f"the aspiration window {self.window(lo, hi)} failed {side} ({why}): the root is searched again "
                f"with the window opened {opened}, {self.window(lo2, hi2)} (an aspiration re-search)")

    def is_research(self, n: RecordedNode, search: int) -> bool:
        """True when pass ``search`` of ``n`` searches it again after a null-window test that failed."""
        return 0 < search < len(n.passes) and n.passes[search - 1].kind == NULL_TEST

    def after_reduced(self, n: RecordedNode, search: int) -> bool:
        """True when pass ``search`` of ``n`` repeats at full depth a late-move reduction's test that failed."""
        return 0 < search < len(n.passes) and n.passes[search - 1].kind == REDUCED_TEST

    def child_phrase(self, parent: RecordedNode, moves: Sequence[str]) -> str:
        """``E's right child (leaf 9)``, ``C's right child G``, ``4's remaining moves 3, 5``."""
        pn = self.name(parent)
        self.named_pruned += [(parent.id, m) for m in moves]
        if not self.lab:
            return f"{pn}'s remaining move{'s' if len(moves) > 1 else ''} {', '.join(moves)}"
        path = self.paths.get(parent.id, ())
        total = self.child_count(parent)
        parts = []
        for m in moves:
            i = int(m)
            place = child_place(i, total)
            nm = self.path_names.get(path + (i,), "")
            parts.append(f"{place} child" + (f" ({nm})" if nm.startswith("leaf") else f" {nm}" if nm else ""))
        if len(parts) == 1:
            return f"{pn}'s {parts[0]}"
        return f"{pn}'s " + ", ".join(parts[:-1]) + f" and {parts[-1]}"

    def child_count(self, n: RecordedNode) -> int:
        """How many children ``n`` has: in the explicit tree when there is one, else those searched and pruned."""
        if self.root is not None:
            node = self.root
            for i in self.paths.get(n.id, ()):
                node = node.children[i]
            return len(node.children)
        return len({c.move for c in self.searched(n)}) + len(n.skipped)

    def parent_of(self, n: RecordedNode) -> RecordedNode | None:
        return None if n.parent is None else self.by_id.get(n.parent)

    # -- the two kinds of step ---------------------------------------------------------------------------------------
    def enter(self, n: RecordedNode, search: int = 0) -> str:
        """The sentence of entering ``n`` (in its pass ``search``, for a node searched more than once), with what
        the search did to its depth (:func:`depth_sentences`)."""
        v = self.view(n, search)
        s, more = self._enter(n, v, search), depth_sentences(v)
        return s + ("" if not more or s.endswith(".") else ".") + more

    def _enter(self, node: RecordedNode, n: RecordedNode, search: int) -> str:
        p = self.parent_at(n)
        who = self.who(n)
        if p is None:
            if n.kind == CHANCE:
                return (f"Start at {who}: its value is the probability-weighted average of its outcomes "
                        f"(expectiminimax).")
            role = "the largest" if n.kind == MAX else "the smallest"
            if not self.windows:
                alg = "expectiminimax" if self.tree.algorithm == "expectimax" else "minimax"
                return f"Start at {who}: its value is {role} of its children's values ({alg})."
            return f"Start at {who} with {self.window(n.alpha_in, n.beta_in)}."
        edge = ""
        if p.kind == CHANCE and n.probability is not None:
            edge = f" (p = {_frac(n.probability)})"
        if is_leaf(n) and n.note != "repetition" and self.lab:
            return f"Reach {who}, {self.name(p)}'s {child_place(int(n.move or 0), self.child_count(p))} child{edge}."
        if not self.windows or n.kind == CHANCE and p.kind == CHANCE:
            return f"Go down from {self.name(p)} to {who}{edge}."
        r = self.new_round(node, search)
        if r:
            return f"{self.failed_window(r)[0].upper()}{self.failed_window(r)[1:]}. Search {who} again."
        if self.after_reduced(node, search):
            return (f"Search {who} again at full depth with {self.window(n.alpha_in, n.beta_in)} (the shallower, "
                    f"reduced test failed {'high' if p.kind == MAX else 'low'}).")
        if self.is_test(n, search):
            bound = self._pvs_bound(node, p, search)
            test = (f"can MAX do better than {self.w.alpha} = {bound} there?" if p.kind == MAX else
                    f"can MIN do better than {self.w.beta} = {bound} there?")
            if n.reduced:
                return (f"Test {who} with the null window {self.window(n.alpha_in, n.beta_in)}, {n.reduced} "
                        f"{'ply' if n.reduced == 1 else 'plies'} shallower than its siblings (late-move reduction: "
                        f"a move ordered this late is rarely best; {test})")
            return (f"Test {who} with the null window {self.window(n.alpha_in, n.beta_in)} "
                    f"(principal-variation search: {test})")
        if self.is_research(node, search):
            return (f"Search {who} again with the full window {self.window(n.alpha_in, n.beta_in)} (re-search: "
                    f"the null-window test failed {'high' if p.kind == MAX else 'low'}: same node, a new search).")
        null = "the null window " if _null_window(n) else ""
        return f"Go down from {self.name(p)} to {who}{edge} with {null}{self.window(n.alpha_in, n.beta_in)}."

    def leave(self, n: RecordedNode, search: int = 0) -> str:
        """The sentence of leaving ``n`` (its pass ``search``): its value, then what the parent does with it. A failed
        null-window test says that the node is searched again; the re-search then says what the test and the
        re-search proved together (the node's value), and the parent takes that value."""
        v = self.view(n, search)
        own = self._own(v, search)
        p = self.parent_at(v)
        if p is None:
            return own + self._final(n)
        if self.superseded(n, search):
            return own + "."
        if n.passes and search < len(n.passes) - 1:  # a pass the root's next aspiration round searches again
            return own + self._at_parent(v, p)
        if n.re_searched and (n.lo, n.hi) != (v.lo, v.hi):
            own += self._together(n)
        return own + self._at_parent(n, p)

    def _together(self, n: RecordedNode) -> str:
        """``; its null-window test proved at least 0, so its value is 0``: what the passes of ``n`` proved
        together, when more than its last pass alone (:func:`ai.kernel.recording.merged_bounds`)."""
        first = next((p for p in n.passes[:-1] if p.kind == NULL_TEST), n.passes[0])
        what = self.bound(dataclasses.replace(n, lo=first.lo, hi=first.hi, value=first.value)).removeprefix("value ")
        test = "null-window test" if first.kind == NULL_TEST else "first search"
        return f"; its {test} proved {what}, so its value is {self.bound(n).removeprefix('value ')}"

    def _own(self, n: RecordedNode, search: int = 0) -> str:
        who = self.who(n)
        v = self.num(n.value)
        if n.note == "repetition":
            return f"{who} repeats a position on the path: scored {v} (a draw by the search's rule)"
        if n.note in ("tt", "memo"):
            src = "transposition table" if n.note == "tt" else "memo (already computed)"
            return f"{who} is found in the {src}: {self.bound(n)}, no search below it"
        if n.note == "database":
            return f"{who} is in the endgame database: {v}, no search below it"
        if n.note == "etc":
            return (f"a child of {who} is found in the transposition table with a value that already fails high "
                    f"({self.bound(n)}): an enhanced transposition cutoff, no search below it")
        p = self.parent_at(n)
        node = self.by_id.get(n.id, n)
        if p is not None and self.is_test(n, search):
            bound = self._pvs_bound(node, p, search)
            side, ab = ("MAX", self.w.alpha) if p.kind == MAX else ("MIN", self.w.beta)
            if self.superseded(node, search):
                how = "high" if p.kind == MAX else "low"
                then = "at full depth" if n.reduced else "with the full window"
                return (f"{who} fails {how} ({self.bound(n)}): {side} may do better than {ab} = {bound}, so it is "
                        f"searched again {then}")
            a, b = self.fold(p, self.entered(node, search))
            if (n.value >= b) if p.kind == MAX else (n.value <= a):  # beyond the parent's other bound: no need
                how, other = ("high", f"{self.w.beta} = {self.num(b)}") if p.kind == MAX else \
                    ("low", f"{self.w.alpha} = {self.num(a)}")
                return (f"{who} fails {how} ({self.bound(n)}): {side} does at least as well as {other} there, so "
                        f"its exact value does not matter: no re-search")
            how = "low" if p.kind == MAX else "high"
            return f"{who} fails {how} ({self.bound(n)}): {side} does no better than {ab} = {bound}, no re-search"
        if p is not None and self.superseded(node, search):  # an aspiration round that failed
            return f"{who}: {self.bound(n)}, outside the window; it is searched again"
        if is_leaf(n):
            if self.lab:
                return f"{who[0].upper()}{who[1:]} returns {v}"
            how = "the game is over" if n.note == "terminal" else "evaluated at the depth limit"
            return f"{who}: {how}, value {v}"
        kids = self.searched(n)
        if n.kind == CHANCE:
            return f"{who} = {self._weighted(n, kids)}"
        text = f"{who} = {self._backed_up(n, kids)}"
        if self.windows and n.kind in (MAX, MIN):
            a, b = self.fold(n)
            a_in, b_in = (self.rounds[-1][1:] if n.parent is None and len(self.rounds) > 1
                          else (n.alpha_in, n.beta_in))
            still = " still" if (n.kind == MAX and a == a_in or n.kind == MIN and b == b_in) and kids else ""
            which = (f"{self.w.alpha}{still} = {self.num(a)}, {self.w.beta} = {self.num(b)}" if n.kind == MAX
                     else f"{self.w.alpha} = {self.num(a)}, {self.w.beta}{still} = {self.num(b)}")
            text += f", with {which}"
        return text

    def _pvs_bound(self, n: RecordedNode, p: RecordedNode, search: int) -> str:
        """The parent's bound the null-window test (pass ``search`` of ``n``) is about: alpha at a MAX parent, beta
        at a MIN parent."""
        a, b = self.fold(p, self.entered(n, search))
        return self.num(a if p.kind == MAX else b)

    def bound(self, n: RecordedNode) -> str:
        """``value 3``, ``value at least 3`` or ``value at most 3``."""
        if n.exact or (n.lo == -INF and n.hi == INF):
            return f"value {self.num(n.value)}"
        if n.hi == INF:
            return f"value at least {self.num(n.lo)}"
        if n.lo == -INF:
            return f"value at most {self.num(n.hi)}"
        return f"value between {self.num(n.lo)} and {self.num(n.hi)}"

    def term(self, n: RecordedNode) -> str:
        """What the search proved about ``n``, as the tree labels it (:meth:`RecordedNode.label`): ``3``,
        ``<= 2``, ``>= 5`` (``≤``/``≥`` in unicode), ``[1, 4]``; proofs read ``win in N``."""
        if n.exact or (n.lo == -INF and n.hi == INF):
            return self.num(n.value)
        if n.hi == INF:
            return f"{self.w.ge} {self.num(n.lo)}"
        if n.lo == -INF:
            return f"{self.w.le} {self.num(n.hi)}"
        return f"[{self.num(n.lo)}, {self.num(n.hi)}]"

    def _backed_up(self, n: RecordedNode, kids: list[RecordedNode]) -> str:
        """``max(3, <= 2) = 3``; ``max(5, ...) = at least 5 (its other child was pruned)``: the children's terms
        (bounds written as bounds, pruned children as ``...``), then what is proved about ``n``: its value only
        when it is exact, else ``at least``/``at most``/``between``."""
        result = self.bound(n).removeprefix("value ")
        if n.kind in (MAX, MIN) and (len(kids) >= 2 or kids and n.skipped):
            self.quoted += [c.id for c in kids]
            terms = [self.term(c) for c in kids] + (["..."] if n.skipped else [])
            result = f"{'max' if n.kind == MAX else 'min'}({', '.join(terms)}) = {result}"
        if n.skipped:
            result += " (its other children were pruned)" if len(n.skipped) > 1 else " (its other child was pruned)"
        elif not n.exact and not (n.lo == -INF and n.hi == INF):
            result += " (a bound, not an exact value)"
        return result

    def _weighted(self, n: RecordedNode, kids: list[RecordedNode]) -> str:
        """``1/2*8 + 1/3*24 + 1/6*(-12) = 10`` (the expectiminimax sum), or the value alone if it is not one."""
        v = self.num(n.value)
        probs = [c.probability for c in kids]
        self.quoted += [c.id for c in kids]
        if not kids or any(p is None for p in probs):
            return v
        total = sum((p or 0.0) * c.value for p, c in zip(probs, kids))
        if math.isclose(total, n.value, rel_tol=1e-9, abs_tol=1e-9):
            terms = " + ".join(f"{_frac(p or 0.0)}*{self._paren(c.value)}" for p, c in zip(probs, kids))
            return f"{terms} = {v}"
        vals = [c.value for c in kids]
        if min(vals) == n.value:
            return f"min({', '.join(self.num(x) for x in vals)}) = {v} (the worst outcome)"
        return v

    def _paren(self, v: float) -> str:
        s = self.num(v)
        return f"({s})" if v < 0 else s

    def _at_parent(self, n: RecordedNode, p: RecordedNode) -> str:
        """What ``p`` (as it stood then: :meth:`parent_at`) does with the value of its child ``n``."""
        pn = self.who(p)
        if p.kind == CHANCE:
            kids = [c for c in self.searched(p) if c.leave_order <= n.leave_order]
            so_far = sum((c.probability or 0.0) * c.value for c in kids)
            terms = " + ".join(f"{_frac(c.probability or 0.0)}*{self._paren(c.value)}" for c in kids)
            return f"; at {pn} the weighted sum so far is {terms} = {self.num(so_far)}."
        if not self.windows:
            kids = [c for c in self.searched(p) if c.leave_order <= n.leave_order]
            f, fn = (max, "max") if p.kind == MAX else (min, "min")
            vals = [c.value for c in kids]
            best = f(vals)
            if len(vals) == 1:
                return f"; at {pn} the best value so far is {self.num(best)}."
            prev = f(vals[:-1])
            return f"; at {pn} the best value so far is {fn}({self.num(prev)}, {self.num(vals[-1])}) = " \
                   f"{self.num(best)}."
        a0, b0 = self.fold(p, n.leave_order)
        a1, b1 = self.fold(p, n.leave_order + 1)
        v = self.num(n.value)
        if p.kind == MAX:
            upd = f"{self.w.alpha} = max({self.num(a0)}, {v}) = {self.num(a1)}"
        else:
            upd = f"{self.w.beta} = min({self.num(b0)}, {v}) = {self.num(b1)}"
        text = f"; at {pn}, {upd}"
        last = bool(p.children) and p.children[-1] == n.id
        if last and p.skipped:
            if self.cut(a1, b1):
                test = f"{self.w.alpha} = {self.num(a1)} {self.ge()} {self.w.beta} = {self.num(b1)}"
                text += f" {self.ge()} {self.w.beta} = {self.num(b1)}" if p.kind == MAX else f", and {test}"
                kind = "a beta cut-off, fail-high" if p.kind == MAX else "an alpha cut-off, fail-low"
                text += f": {self.child_phrase(p, p.skipped)} {'is' if len(p.skipped) == 1 else 'are'} pruned ({kind})."
            else:
                text += f"; the search cuts off here: {self.child_phrase(p, p.skipped)} " \
                        f"{'is' if len(p.skipped) == 1 else 'are'} pruned."
            return text
        if p.parent is None and len(self.rounds) > 1 and self.cut(a1, b1):  # the round's window failed high
            return text + (f", and {self.w.alpha} = {self.num(a1)} {self.ge()} {self.w.beta} = {self.num(b1)}: "
                           f"the aspiration window fails high.")
        if last and self.cut(a1, b1) and p.parent is not None:
            text += (f", and {self.w.alpha} = {self.num(a1)} {self.ge()} {self.w.beta} = {self.num(b1)} "
                     f"(no child is left to prune)")
        return text + "."

    def _final(self, n: RecordedNode) -> str:
        """The root's closing words: its value and best move."""
        best = next((self.by_id[k] for k in reversed(n.children) if k in self.by_id and self.by_id[k].on_pv), None)
        if best is None and n.kind != CHANCE:
            kids = self.searched(n)
            best = next((c for c in kids if c.value == n.value and c.exact), None)
        text = ""
        if len(self.rounds) > 1:
            failed = " and ".join(f"{self.window(lo, hi)} failed {'low' if nxt[1] < lo else 'high'}"
                                  for (_, lo, hi), nxt in zip(self.rounds, self.rounds[1:]))
            text = (f" (after the aspiration window {failed}, the root was searched again from "
                    f"{self.window(*self.rounds[-1][1:])})")
        text += f": the value of the {'tree' if self.lab else 'position'} is {self.bound(n).removeprefix('value ')}"
        if best is not None and n.kind != CHANCE:
            if self.lab:
                i = int(best.move or 0)
                text += f", reached by the {child_place(i, self.child_count(n))} child {self.name(best)}"
            else:
                self.named.append(best.id)
                text += f", best move {best.move}"
                if self.tree.pv:
                    text += f" (principal variation {' '.join(self.tree.pv)})"
        return text + "."

    def sentences(self) -> list[str]:
        """One sentence per step of :func:`ai.teaching.trace.step_events`."""
        return [step.text for step in self.steps()]

    def steps(self) -> list[NarratedStep]:
        """One :class:`NarratedStep` per step of :func:`ai.teaching.trace.step_events`: the sentence and what it
        names."""
        out = []
        for e in step_events(self.tree):
            n = self.by_id[e.node]
            self.named, self.named_pruned, self.quoted = [], [], []
            s = self.leave(n, e.search) if e.leaving else self.enter(n, e.search)
            text = s[0].upper() + s[1:] if s.startswith(("root", "leaf")) else s
            named = tuple(dict.fromkeys(i for i in self.named if i != n.id))
            out.append(NarratedStep(text, n.id, n.parent, named, tuple(dict.fromkeys(self.named_pruned)),
                                    tuple(dict.fromkeys(self.quoted))))
        return out


@dataclass(frozen=True)
class NarratedStep:
    """One step of the narration: its sentence and the nodes the sentence is about, so a picture can show them."""

    text: str
    """The sentence (as :func:`narration` returns it)."""
    node: int
    """Id of the recorded node the step enters or leaves."""
    parent: int | None
    """Id of its parent (``None`` at the root)."""
    named: tuple[int, ...]
    """Ids of the other recorded nodes the sentence names (in order of mention)."""
    named_pruned: tuple[tuple[int, str], ...]
    """``(parent id, move)`` of the pruned children the sentence names ("E's right child (leaf 9) is pruned")."""
    quoted: tuple[int, ...] = ()
    """Ids of the children whose values the sentence quotes ("B (MIN) = min(3, 12, 8)", a weighted sum)."""

    @property
    def about(self) -> tuple[int, ...]:
        """The recorded nodes a picture must show for this sentence: the node, its parent, the named ones."""
        ids = (self.node,) + ((self.parent,) if self.parent is not None else ()) + self.named
        return tuple(dict.fromkeys(ids))


def _plies(k: int) -> str:
    return "a ply" if k == 1 else plural(k, "ply", "plies")


def depth_sentences(n: RecordedNode) -> str:
    """The sentences (each after a space) telling how the search changed ``n``'s depth before searching it
    (:attr:`~ai.kernel.recording.RecordedNode.depth_change` and ``depth_reasons``), ``""`` when it did not: material
    truncation (Cake 1.20's rule, ``ai.kernel.search_stats.truncated_depth``), plies truncated above given back, a
    forced-reply extension of one ply."""
    if not n.depth_change:
        return ""
    ext = 1 if "extension" in n.depth_reasons else 0
    rest = n.depth_change - ext
    out = ""
    if "truncation" in n.depth_reasons:
        out += (f" Its material is more than {TRUNCATE_MEN:g} men outside the window, so it is searched "
                f"{_plies(-rest)} shallower (material truncation: a line this lopsided rarely matters).")
    elif "given back" in n.depth_reasons:
        out += (f" Its material is within {TRUNCATE_MEN:g} men of the window again, so the {_plies(rest)} "
                f"truncated above it are given back.")
    if ext:
        out += " It has a single legal move, so it is searched a ply deeper (forced-reply extension)."
    return out


def root_rounds(tree: SearchTree) -> list[tuple[int, float, float]]:
    """The root's aspiration rounds of ``tree``: ``[(the moment it began, alpha, beta)]``, the first the root's own
    window (:func:`ai.teaching.trace.aspiration_rounds`); ``[]`` for an empty tree."""
    root = next((n for n in tree.nodes if n.parent is None), None)
    if root is None:
        return []
    return aspiration_rounds({n.id: n for n in tree.nodes}, root)


def _null_window(n: RecordedNode) -> bool:
    """A principal-variation search's null window: finite and one floating-point step wide."""
    return null_window(n.alpha_in, n.beta_in)


def narration(tree: SearchTree, root: Any = None, *, symbols: str = "ascii", lab: bool | None = None,
              names: Mapping[int, str] | None = None) -> list[str]:
    """The search told in words: one sentence per step of :func:`ai.teaching.trace.step_events` (same length, same
    order).

    Args:
        tree: the recorded search (:class:`~ai.kernel.recording.SearchTree`).
        root: for a Tree Lab tree, the explicit tree (:class:`gameplay.rules.trees.TreeNode`), so nodes are
            lettered over the whole tree, pruned subtrees included (optional; see
            :func:`ai.teaching.tree_names.lab_path_names`).
        symbols: ``ascii`` (``alpha``, ``beta``, ``-inf``, ``+inf``, ``>=``: the CLI and the files) or
            ``unicode`` (``α``, ``β``, ``−∞``, ``+∞``, ``≥``: the window).
        lab: name nodes as a Tree Lab tree (``A``, ``B``...) or a game tree (moves); ``None``: decided by
            :func:`~ai.teaching.tree_names.is_lab_tree`.
        names: node names to use instead of :func:`~ai.teaching.tree_names.node_names` (``{id: name}``).

    Returns:
        ``len(step_events(tree))`` sentences, e.g. ``Leaf 5 returns 5; at E (MAX), alpha = max(-inf, 5) = 5 >=
        beta = 3: E's right child (leaf 9) is pruned (a beta cut-off, fail-high).``

    Raises:
        ValueError: ``symbols`` is not one of :data:`SYMBOLS`.
    """
    return Narrator(tree, root, symbols=symbols, lab=lab, names=names).sentences()


def narration_steps(tree: SearchTree, root: Any = None, *, symbols: str = "ascii", lab: bool | None = None,
                    names: Mapping[int, str] | None = None) -> list[NarratedStep]:
    """:func:`narration` with, for each sentence, the nodes it is about (:class:`NarratedStep`): the same sentences,
    for the views that must show what the sentence names (the overlay's follow, ``shot --json``).

    Args and Raises: as :func:`narration`.
    """
    return Narrator(tree, root, symbols=symbols, lab=lab, names=names).steps()


def numbered(sentences: Sequence[str]) -> list[str]:
    """``Step 1: ...``, ``Step 2: ...`` (the CLI's lines)."""
    return [f"Step {i}: {s}" for i, s in enumerate(sentences, 1)]
