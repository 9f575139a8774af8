"""``main.py check``: grade a student's own search against the reference (issue 26; CLI.md, ``check``).

An *exercise file* defines one or more of ``minimax_decision(state, game)``, ``alphabeta_decision(state, game)``
and ``expectimax_decision(state, game)`` (AIMA's names and argument order), or aima-python's names for them
(``minmax_decision``, ``alpha_beta_search``, ``expect_minmax``, their older spellings, and
``alpha_beta_cutoff_search(state, game, d, cutoff_test, eval_fn)``: :data:`ai.grader.exercise_cases.FUNCTIONS`),
each returning the action it plays (or ``(action, value)``: the root's value is then graded too), written against
the course's Game interface or aima-python's (:class:`ai.grader.exercise_game.RecordingGame`). Each function it
defines is graded on its own. An optional module-level ``PRUNE = "gt"`` says the file's alpha-beta prunes only
when ``alpha > beta`` (the default ``"ge"`` is AIMA's ``alpha >= beta``).

The file runs in a worker process of its own (:class:`ExerciseProcess`, the agent files' sandbox:
:class:`ai.agents.agent_process.WorkerProcess`): its memory capped, its output collected, each case answered within
:data:`CASE_LIMIT_S` seconds. On each case (:mod:`ai.grader.exercise_cases`) the instrumented game records which leaves
the search evaluates and which successors it asks for; here they are compared with the Tree Lab's reference search
(:func:`ai.teaching.treelab.search_tree`: ordering off, the same cut-off rule): the leaves in order, the pruned
subtrees, the action chosen and the root's value when returned. A case passes when they agree; the first difference is
told in the narration's words (``your alpha-beta evaluated leaf 9 under E; the reference prunes it: at E alpha = 5 >=
beta = 3``). Once all of a function's cases are graded, the typical mistake that explains every one of them, when
one does, is named after each failing case's difference (:func:`ai.grader.exercise_faults.diagnose`) and in
:attr:`CheckReport.causes`.

An exception in the student's code fails its case (the exception's last line and the file's line); a search that
runs out of time or memory fails its case and the process is stopped, and that function's remaining cases are not
run (each would wait as long again).
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from ai.agents.agent_base import AgentError
from ai.agents.agent_file import bound_names, parse_python_file
from ai.agents.agent_process import DEFAULT_MEMORY_MB, AgentFault, WorkerProcess
from ai.grader.exercise_cases import ALGORITHMS, FUNCTIONS, Case, Function, evaluation, function_cases
from ai.grader.exercise_faults import Observation, diagnose
from ai.grader.exercise_game import exercise_main
from ai.kernel.numbers import number_text
from ai.teaching.treelab import TreeSettings, search_tree
from gameplay.rules.trees import TreeNode

CASE_LIMIT_S = 5.0
"""Seconds a student's search may take on one case (every case is small: a loop is what runs out)."""
WORDS = {"minimax": "minimax", "alphabeta": "alpha-beta", "expectimax": "expectimax"}


@dataclass(frozen=True)
class ExerciseFile:
    """What an exercise file defines (read with :mod:`ast`, never run)."""

    path: str
    functions: tuple[Function, ...]
    """The functions it defines that ``check`` grades, in :data:`ai.grader.exercise_cases.FUNCTIONS` order."""
    prune: str
    """``ge`` or ``gt``: its ``PRUNE`` (``ge`` when it has none)."""

    @property
    def algorithms(self) -> tuple[str, ...]:
        """The algorithms of its functions, in :data:`ai.grader.exercise_cases.ALGORITHMS` order."""
        return tuple(a for a in ALGORITHMS if any(f.algorithm == a for f in self.functions))


def accepted_names(algorithm: str | None = None) -> str:
    """``minimax_decision(state, game), minmax_decision(state, game), ...``: the functions ``check`` grades (of
    ``algorithm`` only, when given), as the messages list them."""
    return ", ".join(f"{f.name}{f.arguments}" for f in FUNCTIONS.values()
                     if algorithm is None or f.algorithm == algorithm)


def _check_arguments(where: str, node: ast.AST, f: Function) -> None:
    """A ``def`` of ``f`` must take its arguments positionally (more need defaults)."""
    if isinstance(node, ast.AsyncFunctionDef):
        raise AgentError(f"{where}: {f.name} must be a plain def, not async def")
    if not isinstance(node, ast.FunctionDef):
        return  # bound another way (import, assignment): a wrong call fails its cases with the TypeError
    a = node.args
    positional = a.posonlyargs + a.args
    required = len(positional) - len(a.defaults)
    wanted = 5 if f.cutoff else 2
    if required > wanted or (len(positional) < wanted and a.vararg is None):
        raise AgentError(f"{where}: {f.name} must take {f.arguments}, as aima-python's does; it takes "
                         f"({', '.join(x.arg for x in positional)})")


def inspect_exercise_file(path: str | Path) -> ExerciseFile:
    """Read an exercise file without running it.

    Raises:
        AgentError: missing, unreadable, not ``.py`` or not text; a syntax error (line and column named); none of
            the functions of :data:`ai.grader.exercise_cases.FUNCTIONS`, or one whose ``def`` cannot take its
            arguments; ``PRUNE`` that is not ``"ge"`` or ``"gt"``.
    """
    p, tree = parse_python_file(path, "exercise file")
    where = f"exercise file {p.name}"
    names = bound_names(tree.body)
    found = tuple(f for f in FUNCTIONS.values() if f.name in names)
    if not found:
        raise AgentError(f"{where} defines none of {accepted_names()}; templates: examples/exercises/")
    for f in found:
        _check_arguments(where, names[f.name], f)
    prune = "ge"
    node = names.get("PRUNE")
    if isinstance(node, ast.Assign):
        try:
            prune = str(ast.literal_eval(node.value))
        except (ValueError, TypeError, SyntaxError):
            prune = "?"
        if prune not in ("ge", "gt"):
            raise AgentError(f"{where}: PRUNE must be \"ge\" (prune when alpha >= beta) or \"gt\" (alpha > beta)")
    return ExerciseFile(str(p.resolve()), found, prune)


class ExerciseProcess(WorkerProcess):
    """A student's exercise file loaded in a worker process of its own
    (:func:`ai.grader.exercise_game.exercise_main`)."""

    role = "exercise file"

    def __init__(self, path: str, *, limit_s: float = CASE_LIMIT_S,
                 memory_limit_mb: int | None = DEFAULT_MEMORY_MB) -> None:
        super().__init__(memory_limit_mb=memory_limit_mb, echo=False)
        self.path = path
        self.limit_s = limit_s

    def start(self) -> None:
        """Start the worker (returns at once)."""
        self._spawn(exercise_main, (self.path, self.memory_limit_mb), "exercise")

    def run(self, case: Case) -> tuple[Any, ...]:
        """The worker's answer to one case (:func:`ai.grader.exercise_game.run_case`).

        Raises:
            AgentFault: out of time or memory, the process died, or the file failed to load; the process is
                stopped.
        """
        if self._proc is None:
            self.start()
        return self.request(("case", case.message()), self.limit_s,
                            f"no answer within {self.limit_s:g} s (does the search end?)")


@dataclass
class CaseResult:
    """One graded case (CLI.md, ``check --json``'s ``cases``)."""

    name: str
    algorithm: str
    ok: bool
    expected_move: str
    got_move: str | None
    expected_leaves: list[float]
    got_leaves: list[float]
    first_difference: str | None
    function: str = ""
    """The student's function graded (``alphabeta_decision``, ``alpha_beta_search`` ...)."""
    depth: int | None = None
    """A cut-off search's ``d`` (``None`` for a function called ``f(state, game)``)."""
    game: str | None = None
    position: str | None = None
    tree: Any = None
    expected_pruned: list[tuple[int, ...]] = field(default_factory=list)
    """The reference's pruned subtrees (paths of child indices from the root)."""
    got_pruned: list[tuple[int, ...]] = field(default_factory=list)
    """The subtrees the student's search left out: children of the states it expanded that it never entered."""
    got_log: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    """The student's visits in order: ``("r", path + (i,))`` a successor asked for (``game.result``), ``("u",
    path)`` a leaf evaluated (``game.utility``); paths of child indices from the root. Not in the JSON."""
    case: Case | None = field(default=None, repr=False)
    """The case graded (its tree, to draw both searches on: :mod:`ai.grader.exercise_trace`). Not in the JSON."""
    observation: Observation | None = field(default=None, repr=False)
    """What the student's search did, when it finished the case (the evidence of
    :func:`ai.grader.exercise_faults.diagnose`). Not in the JSON."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "algorithm": self.algorithm, "function": self.function,
                               "ok": self.ok,
                               "expected_move": self.expected_move, "got_move": self.got_move,
                               "expected_leaves": [_num(v) for v in self.expected_leaves],
                               "got_leaves": [_num(v) for v in self.got_leaves],
                               "first_difference": self.first_difference,
                               "expected_pruned": [list(p) for p in self.expected_pruned],
                               "got_pruned": [list(p) for p in self.got_pruned]}
        if self.depth is not None:
            out["d"] = self.depth
        if self.game is not None:
            out.update(game=self.game, position=self.position)
        else:
            out["tree"] = self.tree
        return out


@dataclass(frozen=True)
class Cause:
    """A typical mistake that explains every case of one function (:func:`ai.grader.exercise_faults.diagnose`)."""

    key: str
    """The mistake's short name (:attr:`ai.grader.exercise_faults.Fault.key`)."""
    description: str

    def to_json(self) -> dict[str, str]:
        return {"key": self.key, "description": self.description}


@dataclass
class CheckReport:
    """The whole check (CLI.md, ``check --json``)."""

    file: str
    cases: list[CaseResult] = field(default_factory=list)
    output_lines: int = 0
    """Lines the student's file printed (kept out of standard output)."""
    output_head: list[str] = field(default_factory=list)
    causes: dict[str, list[Cause]] = field(default_factory=dict)
    """Each function with a failing case -> the typical mistakes that explain all its cases (empty: none does)."""

    @property
    def passed(self) -> int:
        return sum(1 for c in self.cases if c.ok)

    @property
    def failed(self) -> int:
        return sum(1 for c in self.cases if not c.ok)

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "passed": self.passed, "failed": self.failed,
                "cases": [c.to_json() for c in self.cases], "printed_lines": self.output_lines,
                "causes": {f: [c.to_json() for c in found] for f, found in self.causes.items()}}


def _num(v: float) -> float | int | None:
    """A value as the JSON writes it: a whole number as an int, NaN (no value) as null."""
    return None if math.isnan(v) else int(v) if float(v).is_integer() else v


# ----- naming -------------------------------------------------------------------------------------------------------
class Namer:
    """Names of a case's nodes: a tree's as the Tree Lab letters them (``B``, ``leaf 9``); a game position's by
    the moves from it (``the position after 4 8``)."""

    def __init__(self, case: Case, letters: dict[tuple[int, ...], str]) -> None:
        self.case = case
        self.letters = letters
        self._game: Any = None
        if case.game is not None:
            from ai.agents.profiles import game_for
            self._game = game_for(case.game)

    def moves(self, path: tuple[int, ...]) -> list[str]:
        g = self._game
        s = g.parse_position(self.case.position)
        out = []
        for i in path:
            m = g.actions(s)[i]
            out.append(str(g.format_move(s, m)))
            s = g.result(s, m)
        return out

    def node(self, path: tuple[int, ...]) -> str:
        if self._game is None:
            return self.letters.get(path, "?")
        return "the root position" if not path else f"the position after {' '.join(self.moves(path))}"

    def leaf(self, path: tuple[int, ...]) -> str:
        """``leaf 9 under E``; ``the end after 4 8 2 (utility 1)``."""
        if self._game is None:
            return f"{self.node(path)} under {self.node(path[:-1])}" if path else self.node(path)
        return f"the end after {' '.join(self.moves(path))} (utility {number_text(_leaf_value(self.case, path))})"

    def move(self, index: int) -> str:
        """The root action ``index`` as the student sees it: ``1 (C)``; a game's move in its notation."""
        if self._game is None:
            return f"{index} ({self.node((index,))})"
        return self.moves((index,))[0]

    def move_text(self, index: int) -> str:
        """The JSON's move: a tree's child index, a game's move."""
        return str(index) if self._game is None else self.moves((index,))[0]


def _leaf_value(case: Case, path: tuple[int, ...]) -> float:
    """The value the search got at ``path``: the case's leaf there; below a cut-off case's leaves (a cut-off
    search that searched too deep), the whole tree's node's :func:`ai.grader.exercise_cases.evaluation`; NaN
    where the tree has no node."""
    n = _node_at(case.root, path)
    if n is not None and n.value is not None:
        return float(n.value)
    whole = _node_at(case.full, path) if case.full is not None else None
    return evaluation(whole) if whole is not None else math.nan


def _exact(n: TreeNode) -> float:
    """The exact (expecti)minimax value of a tree node."""
    if n.value is not None:
        return float(n.value)
    vals = [_exact(c) for c in n.children]
    if n.probs is not None:
        return float(sum(p * v for p, v in zip(n.probs, vals)))
    return max(vals) if n.player == 0 else min(vals)


# ----- grading ------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Reference:
    """The reference search of one case."""

    value: float
    best: int
    leaves: list[tuple[int, ...]]
    pruned: list[tuple[int, ...]]
    cuts: dict[tuple[int, ...], tuple[str, float, float]]
    """Pruned path's parent -> (its kind, alpha, beta) at the cut-off."""
    windows: dict[tuple[int, ...], tuple[float, float]]
    """Each visited node's path -> (alpha, beta) it was searched with."""
    letters: dict[tuple[int, ...], str]


def reference(case: Case) -> Reference:
    """The Tree Lab's search of the case (ordering off, the case's cut-off rule)."""
    from ai.teaching.tree_names import lab_path_names
    res = search_tree(case.root, TreeSettings(case.algorithm, prune=case.prune), max_nodes=50_000)
    nodes = sorted(res.tree.nodes, key=lambda n: n.enter_order)
    leaves = [tuple(n.state) for n in nodes if n.note in ("leaf", "terminal")]
    cuts = {tuple(n.state): (n.kind, n.alpha_out, n.beta_out) for n in nodes if n.skipped}
    windows = {tuple(n.state): (n.alpha_in, n.beta_in) for n in nodes}
    return Reference(res.value, res.best, leaves, [tuple(p) for p in res.pruned], cuts, windows,
                     lab_path_names(res.tree, case.root))


def _under(path: tuple[int, ...], top: tuple[int, ...]) -> bool:
    return path[:len(top)] == top


def read_answer(answer: tuple[Any, ...] | None) -> tuple[int | None, float | None]:
    """``(move, value)`` as the course reads what the function returned (the worker's description,
    :func:`ai.grader.exercise_game.describe_answer`): an action alone, or ``(action, value)``; ``(None, None)`` for
    anything else."""
    if answer is None:
        return None, None
    if answer[0] == "action":
        return int(answer[1]), None
    if answer[0] == "pair":
        (i, _), (_, v) = answer[1], answer[2]
        if i is not None and v is not None:
            return int(i), float(v)
    return None, None


def grade(case: Case, ref: Reference, reply: tuple[Any, ...] | None, fault: AgentFault | None = None) -> CaseResult:
    """Compare the student's run of ``case`` (the worker's ``reply``, or the ``fault`` that ended it) with the
    reference."""
    names = Namer(case, ref.letters)
    word = WORDS[case.algorithm]
    expected_leaves = [_leaf_value(case, p) for p in ref.leaves]
    out = CaseResult(case.name, case.algorithm, False, names.move_text(ref.best), None, expected_leaves, [],
                     None, case.function, case.depth, case.game, case.position,
                     None if case.game is not None else _spec(case), list(ref.pruned), case=case)
    if fault is not None:
        what = {"time": "ran out of time", "memory": "ran out of memory", "crash": "crashed"}.get(
            fault.termination, fault.termination)
        out.first_difference = f"your {word} {what}: {fault.reason}"
        return out
    assert reply is not None
    if reply[0] == "crashed":
        log = reply[2]
        out.got_log = _visits(log)
        out.got_leaves = [_leaf_value(case, tuple(e[1])) for e in log if e[0] == "u"]
        reason = str(reply[1])
        out.first_difference = (reason if reason.startswith("not written yet")
                                else f"your {word} crashed after {len(out.got_leaves)} leaves: {reason}")
        return out
    _, log, answer, stopped = reply
    out.got_log = _visits(log)
    got = [tuple(e[1]) for e in log if e[0] == "u"]
    out.got_pruned = _left_out(case, log)
    out.got_leaves = [_leaf_value(case, p) for p in got]
    move, _ = read_answer(answer)
    if move is not None:
        out.got_move = names.move_text(move)
    if stopped is None:
        out.observation = Observation(tuple(got), tuple(answer))
    diff = _beyond_cutoff(case, word, log) if case.depth is not None else None
    if diff is not None:
        pass
    elif stopped is not None:  # the search broke the game's contract: the leaves before that must still agree
        diff = _leaf_difference(case, replace(ref, leaves=ref.leaves[:len(got)]), names, word, got)
        if diff is None:
            same = (f"all {len(got)} the same as the reference's" if got and len(got) == len(ref.leaves) else
                    f"the first {len(got)} the same as the reference's" if got else "none yet")
            out.first_difference = f"{stopped} (leaves evaluated before: {same})"
            return out
    else:
        diff = _leaf_difference(case, ref, names, word, got)
        if diff is None:
            diff = _expanded_pruned(case, ref, names, word, log)
    if diff is None:
        diff = _answer_difference(case, ref, names, word, answer)
    if diff is not None:
        out.first_difference = diff
        return out
    out.ok = True
    return out


def _node_at(root: TreeNode, path: tuple[int, ...]) -> TreeNode | None:
    """The node at ``path`` below ``root``, or ``None`` when the path leaves the tree."""
    n = root
    for i in path:
        if not 0 <= i < len(n.children):
            return None
        n = n.children[i]
    return n


def _beyond_cutoff(case: Case, word: str, log: list[Any]) -> str | None:
    """A cut-off search's first visit the cut-off tree does not have: a state expanded where the search is cut
    off, or a node evaluated where it goes on (nodes named by the whole tree's letters)."""
    from ai.teaching.tree_names import lab_path_names
    d = case.depth
    letters = lab_path_names(None, case.full if case.full is not None else case.root)
    for e in log:
        path = tuple(e[1])
        node = _node_at(case.root, path)
        if e[0] == "r" and (node is None or node.is_leaf):
            top = next(path[:k] for k in range(len(path) + 1) if (m := _node_at(case.root, path[:k])) is not None
                       and m.is_leaf)
            worth = _node_at(case.root, top)
            assert worth is not None and worth.value is not None
            return (f"your {word} asked game.result below {letters.get(top, '?')}, where the search is cut off: "
                    f"with d = {d}, cutoff_test(state, {len(top)}) is true there (the root's children are at depth "
                    f"1), and eval_fn gives {number_text(worth.value)}")
        if e[0] == "u" and node is not None and not node.is_leaf:
            return (f"your {word} evaluated {letters.get(path, '?')} with eval_fn, where the search goes on: with "
                    f"d = {d}, cutoff_test(state, {len(path)}) is false there")
    return None


def _visits(log: list[Any]) -> list[tuple[str, tuple[int, ...]]]:
    """The worker's log as :attr:`CaseResult.got_log`: a successor asked for names the child entered."""
    return [("r", tuple(e[1]) + (int(e[2]),)) if e[0] == "r" else ("u", tuple(e[1])) for e in log
            if e[0] in ("r", "u")]


def _left_out(case: Case, log: list[Any]) -> list[tuple[int, ...]]:
    """Children of the decision nodes the student expanded that it never entered (its pruned subtrees), in tree
    order."""
    entered = {tuple(e[1]) for e in log}  # a state expanded or a leaf evaluated
    expanded = sorted({tuple(e[1]) for e in log if e[0] == "r"})
    out = []
    for path in expanded:
        node = _node_at(case.root, path)
        if node is not None and node.probs is None:
            out += [path + (i,) for i in range(len(node.children)) if path + (i,) not in entered]
    return out


def _spec(case: Case) -> Any:
    from gameplay.rules.trees import tree_to_spec
    return tree_to_spec(case.root)


def _cut_text(ref: Reference, names: Namer, parent: tuple[int, ...], prune: str) -> str:
    kind, a, b = ref.cuts[parent]
    return f"at {names.node(parent)} ({kind}) alpha = {number_text(a)} {'>' if prune == 'gt' else '>='} " \
           f"beta = {number_text(b)}"


def _pruned_top(ref: Reference, path: tuple[int, ...]) -> tuple[int, ...] | None:
    for p in ref.pruned:
        if _under(path, p):
            return p
    return None


def _leaf_difference(case: Case, ref: Reference, names: Namer, word: str,
                     got: list[tuple[int, ...]]) -> str | None:
    """The first leaf evaluated out of the reference's order, said in words."""
    for i in range(max(len(got), len(ref.leaves))):
        mine = got[i] if i < len(got) else None
        theirs = ref.leaves[i] if i < len(ref.leaves) else None
        if mine == theirs:
            continue
        nth = f"(your leaf {i + 1})"
        if mine is None:
            assert theirs is not None
            return (f"your {word} stopped after {len(got)} leaves; the reference goes on to evaluate "
                    f"{names.leaf(theirs)}{_no_cut(case, ref, names, theirs)}")
        if mine in got[:i]:
            return f"your {word} evaluated {names.leaf(mine)} a second time {nth}; the reference evaluates each " \
                   "leaf once"
        top = _pruned_top(ref, mine)
        if top is not None:
            what = "it" if top == mine else f"{names.node(top)}, above it"
            return (f"your {word} evaluated {names.leaf(mine)} {nth}; the reference prunes {what}: "
                    f"{_cut_text(ref, names, top[:-1], case.prune)}")
        if theirs is None:
            return f"your {word} evaluated {names.leaf(mine)} {nth} after the reference had finished"
        if mine in ref.leaves and ref.leaves.index(mine) > i:
            return (f"your {word} skipped {names.leaf(theirs)} {nth}, which the reference evaluates next"
                    f"{_no_cut(case, ref, names, theirs)}")
        return f"your {word} evaluated {names.leaf(mine)} {nth} where the reference evaluates {names.leaf(theirs)}"
    return None


def _no_cut(case: Case, ref: Reference, names: Namer, leaf: tuple[int, ...]) -> str:
    """``: at C (MIN) alpha = 3 < beta = 5, no cut-off`` (alpha-beta), or why minimax evaluates every leaf."""
    if case.algorithm != "alphabeta":
        return f" ({WORDS[case.algorithm]} evaluates every leaf)"
    a, b = ref.windows.get(leaf, (-math.inf, math.inf))
    sign = "<=" if case.prune == "gt" else "<"
    return f": at {names.node(leaf[:-1])} alpha = {number_text(a)} {sign} beta = {number_text(b)}, no cut-off"


def _expanded_pruned(case: Case, ref: Reference, names: Namer, word: str, log: list[Any]) -> str | None:
    """A pruned subtree the student's search still expanded (asked the successors of a state in it)."""
    for e in log:
        if e[0] != "r":
            continue
        path = tuple(e[1])
        top = _pruned_top(ref, path)
        if top is not None:
            return (f"your {word} expanded {names.node(path)} (asked game.result below it); the reference prunes "
                    f"it: {_cut_text(ref, names, top[:-1], case.prune)}")
    return None


def _answer_difference(case: Case, ref: Reference, names: Namer, word: str, answer: Any) -> str | None:
    best = names.move(ref.best)
    value = number_text(ref.value)
    legal = [names.move_text(i) for i in range(len(case.root.children))]
    if answer is None or answer[0] == "none":
        return f"your {word} returned None; return the action to play (the reference plays {best})"
    if answer[0] == "number":
        x = float(answer[1])
        if math.isclose(x, ref.value):
            return (f"your {word} returned {number_text(x)}, the root's value, not an action; return the action "
                    f"(the reference plays {best}, worth {value})")
        return (f"your {word} returned {number_text(x)}, which is none of the root's actions {legal}; the "
                f"reference plays {best}")
    if answer[0] == "other":
        return (f"your {word} returned {answer[1]}; expected one of game.actions(state) {legal} (the reference "
                f"plays {best})")
    move, got_value = read_answer(answer)
    if move is None:  # a pair that is not (action, value)
        (_, v), (j, _) = answer[1], answer[2]
        order = " (the value first, then the action)" if v is not None and j is not None else ""
        return (f"your {word} returned {answer[3]}{order}; expected the action, or (action, value), the action one "
                f"of game.actions(state) {legal} (the reference plays {best}, worth {value})")
    if move != ref.best:
        mine = _exact(case.root.children[move])
        text = (f"your {word} chose {names.move(move)}; the reference chooses {best}, worth {value}; "
                f"{names.move(move)} is worth {number_text(mine)}")
        if math.isclose(mine, ref.value):
            text += " too: on a tie the first action found is kept (only a strictly better value replaces it)"
        return text
    if got_value is not None and not math.isclose(got_value, ref.value, abs_tol=1e-9):
        return f"your {word} returned the root value {number_text(got_value)}; the reference's is {value}"
    return None


# ----- the check --------------------------------------------------------------------------------------------------
def name_causes(report: CheckReport, results: list[CaseResult]) -> None:
    """Name the typical mistakes that explain all of one function's ``results`` after each failing case's
    difference, and in ``report.causes`` (nothing when no case the search finished failed: a crash, a broken
    contract or a timeout is said by its own message)."""
    if not any(not r.ok and r.observation is not None for r in results):
        return
    found = diagnose([(r.case, r.observation) for r in results if r.case is not None])
    report.causes[results[0].function] = [Cause(f.key, f.description) for f in found]
    if found:
        text = "; or ".join(f.description for f in found)
        for r in results:
            if not r.ok and r.observation is not None and r.first_difference is not None:
                r.first_difference += f" (likely cause: {text})"


def run_check(path: str, algorithm: str | None = None, trees: str | None = None,
              limit_s: float = CASE_LIMIT_S,
              progress: Callable[[int, int], None] | None = None) -> CheckReport:
    """Grade the exercise file at ``path`` on every function it defines (or only ``algorithm``'s).

    ``progress(done, total)``, when given, is called before each case (``done`` cases graded of ``total``) and
    once at the end; an exception it raises stops the check (the worker process is closed) and propagates.

    Raises:
        AgentError: the file cannot be read, defines none of the functions (or none of ``algorithm``'s), or fails
            to load (its module-level code raises, runs out of time or memory): the reason.
        GameError: a bad ``trees`` folder.
    """
    info = inspect_exercise_file(path)
    functions = info.functions
    if algorithm is not None:
        functions = tuple(f for f in info.functions if f.algorithm == algorithm)
        if not functions:
            raise AgentError(f"exercise file {Path(path).name} defines no {WORDS.get(algorithm, algorithm)} "
                             f"function ({accepted_names(algorithm)}); it defines "
                             f"{', '.join(f.name + f.arguments for f in info.functions)}")
    plan = [(f, function_cases(f, info.prune if f.algorithm == "alphabeta" else "ge", trees)) for f in functions]
    total = sum(len(cases) for _, cases in plan)
    report = CheckReport(info.path)
    proc = ExerciseProcess(info.path, limit_s=limit_s)
    try:
        try:
            proc.start()
            proc.wait_ready()
        except AgentFault as e:
            raise AgentError(f"exercise file {Path(path).name} cannot run: {e.reason}") from None
        for function, cases in plan:
            stopped: str | None = None
            results: list[CaseResult] = []
            for case in cases:
                if progress is not None:
                    progress(len(report.cases) + len(results), total)
                ref = reference(case)
                if stopped is not None:
                    r = grade(case, ref, None, AgentFault("not run", stopped))
                    r.first_difference = f"not run: {stopped}"
                    results.append(r)
                    continue
                try:
                    reply = proc.run(case)
                except AgentFault as e:
                    results.append(grade(case, ref, None, e))
                    if e.termination in ("time", "memory"):
                        stopped = f"{function.name} ran out of {e.termination} on case {case.name!r}"
                    continue
                results.append(grade(case, ref, reply))
            name_causes(report, results)
            report.cases += results
        if progress is not None:
            progress(len(report.cases), total)
    finally:
        proc.close()
        report.output_lines = proc.output.lines
        report.output_head = proc.output.kept.decode("utf-8", "replace").splitlines()[:5]
    return report
