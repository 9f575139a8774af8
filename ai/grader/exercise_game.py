"""The student's side of ``main.py check`` (runs in the exercise's worker process, never in the caller's): the
instrumented game a student's search is handed, and the worker's loop.

:class:`RecordingGame` offers the course's Game interface (``actions``, ``result``, ``is_terminal``, ``utility``,
``to_move``, ``is_chance``, ``chance_outcomes``) and aima-python's (``terminal_test``; for chance nodes ``chances``,
``outcome``, ``probability``; ``state.to_move``) over an explicit tree or a game position, and logs what the search
asks: each ``utility`` (a leaf evaluated, by its path of child indices from the root) and each ``result`` or
``outcome`` (a successor asked for: the parent's path and the child's index). A cut-off search
(``alpha_beta_cutoff_search(state, game, d, cutoff_test, eval_fn)``) is handed the game's ``cutoff_test`` and
``eval_fn`` (:meth:`RecordingGame.cutoff_test_for`, :meth:`RecordingGame.eval_fn`); each ``eval_fn`` is logged as a
leaf evaluated. The caller (:mod:`ai.grader.exercise`) compares the log with the reference search.

States: in a tree a state is its path, a tuple of child indices (immutable, hashable: a :class:`TreeState`); an
action is a child index. In a game position a state is a :class:`Position`, a list of the position's characters
(tic-tac-toe: the nine cells) that only the game reads. Both carry ``state.to_move`` as aima-python's ``GameState``
does. The game remembers every state it handed out (with a copy of its contents): a state changed in place, or a
state the game never gave (built by the student's code), stops the search with a message saying so (:class:`Stop`,
its sentence one of :data:`STOP_MESSAGES`), as does ``utility`` asked of a state that is not over, an action that
is not legal, or ``chance_outcomes`` asked where no chance node is.

aima-python's stochastic games roll before every move, so ``chances(state)`` of a state that is not a chance node
is one sure outcome (probability 1) whose ``outcome`` is the state itself: a search written as aima-python's
``expect_minmax`` (MAX or MIN, then a roll, then the next player) searches any tree.
"""

from __future__ import annotations

import math
import os
import string
from dataclasses import dataclass
from typing import Any, Callable

from gameplay.rules.base import quoted


class Stop(BaseException):
    """The student's search broke the game's contract (a BaseException, so a broad ``except Exception`` in the
    student's code does not swallow it)."""


STOP_MESSAGES: dict[str, str] = {
    "never given": "{callee} was given {state}, a state the game never gave your search; make states only with "
                   "game.result(state, action)",
    "never given position": "{callee} was given {state}, a state the game never gave your search (a copy or one "
                            "built by your code); make states only with game.result(state, action)",
    "changed in place": "your search changed a state in place: {where} was {was}, and {callee} was given it as "
                        "{now}; never change a state: game.result(state, action) returns a new one",
    "root changed in place": "your search changed a state in place: the root position was {was} and is {now} "
                             "after your search returned; never change a state: game.result(state, action) "
                             "returns a new one",
    "not a child": "game.result was given action {action}, which is not a child of that node; its actions are "
                   "{legal}",
    "not legal": "game.result was given action {action}, which is not legal there; the legal actions are {legal}",
    "not a player": "game.utility was given player {player}; expected 0 or 1 (game.to_move(state) at the root)",
    "utility of an inner node": "game.utility was asked about a state that is not a leaf (only a terminal state "
                                "has a utility; test game.is_terminal(state), or aima-python's "
                                "game.terminal_test(state), first)",
    "utility of a position not over": "game.utility was asked about a position that is not over (only a terminal "
                                      "state has a utility; test game.is_terminal(state), or aima-python's "
                                      "game.terminal_test(state), first)",
    "not a chance node": "game.chance_outcomes was asked about a state that is not a chance node (test "
                         "game.is_chance(state) first)",
    "not its chance": "game.outcome was given {chance}, which is not one of game.chances(state) of that state",
    "outcome of an outcome": "game.outcome was given {chance} of a chance node with the state its outcome {earlier} "
                             "gave: your search overwrites the chance node's state inside its loop over the outcomes "
                             "(state = game.outcome(state, chance), as aima-python's expect_minmax does); keep it "
                             "and name the outcome's state apart: next_state = game.outcome(state, chance)",
    "not a chance": "game.probability was given {chance}; expected one of the chances game.chances(state) gives",
    "not a depth": "cutoff_test was given depth {depth}; expected the state's depth, an int (the root's children "
                   "are at depth 1)",
    "evaluation of a position not over": "eval_fn was asked about a position that is not over; here d = {d}, so "
                                         "cutoff_test(state, depth) is true only at the end of the game",
}
"""Every sentence a :class:`Stop` says, by kind (:func:`stop`), its blanks named in braces."""


def stop(kind: str, **blanks: str) -> Stop:
    """The :class:`Stop` of ``kind`` with its sentence's blanks filled.

    Raises:
        KeyError: an unknown kind.
        ValueError: a blank of the sentence not given, or one given that it does not have.
    """
    template = STOP_MESSAGES[kind]
    names = {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}
    if names != set(blanks):
        raise ValueError(f"stop {kind!r}: blanks {sorted(names)}, given {sorted(blanks)}")
    return Stop(template.format(**blanks))


class TreeState(tuple[int, ...]):
    """A tree's state: its path of child indices from the root (a tuple: equal to and hashed as the plain tuple),
    with ``to_move`` (0 MAX, 1 MIN) as aima-python's ``GameState`` has it."""

    _player: int

    def __new__(cls, path: tuple[int, ...], player: int) -> TreeState:
        self = super().__new__(cls, path)
        self._player = player
        return self

    @property
    def to_move(self) -> int:
        """The player who decides here (at a chance node or a leaf: who decides next)."""
        return self._player


class Position(list[str]):
    """A game position as the student's search sees it: a list of its characters (tic-tac-toe: the nine cells
    ``X``, ``O``, ``.``). Never change one: ``game.result(state, action)`` returns a new one."""

    __slots__ = ("path", "player")

    def __init__(self, cells: str, path: tuple[int, ...], player: int) -> None:
        super().__init__(cells)
        self.path = path
        self.player = player

    @property
    def to_move(self) -> int:
        """The player to move (0: the player to move at the root, 1: the other), as ``game.to_move(state)``."""
        return self.player

    def __repr__(self) -> str:
        return f"Position({''.join(self)!r})"


@dataclass(frozen=True)
class Chance:
    """One outcome of a roll, as aima-python's ``StochasticGame`` names it: ``game.chances(state)`` lists them,
    ``game.outcome(state, chance)`` plays one, ``game.probability(chance)`` is its probability."""

    node: tuple[int, ...]
    """The path of the state rolled at."""
    index: int | None
    """The outcome's child index at a chance node; ``None``: the sure outcome of a state that is not one."""
    p: float

    def __repr__(self) -> str:
        return "the sure outcome (p = 1)" if self.index is None else f"outcome {self.index} (p = {self.p:g})"


class RecordingGame:
    """The instrumented game of one case (see the module docstring).

    Args:
        tree: the explicit tree (:class:`gameplay.rules.trees.TreeNode`), or ``None`` for a game position.
        game: the game (a :class:`gameplay.rules.base.Game`) when ``tree`` is ``None``.
        position: the game's root state when ``tree`` is ``None``.
    """

    def __init__(self, tree: Any = None, game: Any = None, position: Any = None) -> None:
        self.tree = tree
        self.game = game
        self.log: list[tuple[Any, ...]] = []
        """``("u", path)`` a leaf evaluated; ``("r", path, index)`` a successor asked (paths plain tuples)."""
        self._given: dict[int, tuple[Position, Any, str]] = {}
        """Game positions handed out: id -> (the object, the game's state, its contents when handed out)."""
        self._paths: set[tuple[int, ...]] = {()}
        """Tree states handed out."""
        self._me = 0 if tree is not None else int(game.to_move(position))
        self.root: Any = TreeState((), int(tree.player)) if tree is not None else self._hand_out(position, ())

    # -- states ----------------------------------------------------------------------------------------------------
    def _hand_out(self, state: Any, path: tuple[int, ...]) -> Position:
        cells = str(self.game.format_position(state))
        pos = Position(cells, path, 0 if int(self.game.to_move(state)) == self._me else 1)
        self._given[id(pos)] = (pos, state, cells)
        return pos

    def _node(self, s: Any, callee: str) -> tuple[Any, tuple[int, ...]]:
        """``(tree node or game state, path)`` of a state the search passed to ``callee`` (``game.result``,
        ``cutoff_test`` ...: the name the messages say)."""
        if self.tree is not None:
            if isinstance(s, tuple) and s in self._paths:
                node = self.tree
                for i in s:
                    node = node.children[i]
                return node, tuple(s)
            raise stop("never given", callee=callee, state=quoted(repr(s), 40))
        entry = self._given.get(id(s))
        if entry is None or entry[0] is not s:
            raise stop("never given position", callee=callee, state=quoted(repr(s), 40))
        pos, state, cells = entry
        now = self._contents(pos)
        if now != cells:
            where = "the root position" if not pos.path else f"the position after {self._moves_text(pos.path)}"
            raise stop("changed in place", where=where, was=cells, callee=callee, now=quoted(now, 40))
        return state, pos.path

    @staticmethod
    def _contents(pos: Position) -> str:
        return "".join(str(c) for c in pos) if all(isinstance(c, str) for c in pos) else repr(list(pos))

    def _moves_text(self, path: tuple[int, ...]) -> str:
        s = self._given_root_state()
        out = []
        for i in path:
            m = self.game.actions(s)[i]
            out.append(str(self.game.format_move(s, m)))
            s = self.game.result(s, m)
        return " ".join(out)

    def _given_root_state(self) -> Any:
        return self._given[id(self.root)][1]

    def _actions_of(self, node: Any) -> list[Any]:
        if self.tree is not None:
            return [] if node.is_leaf or node.is_chance else list(range(len(node.children)))
        return list(self.game.actions(node))

    def _child(self, node: Any, path: tuple[int, ...], index: int) -> TreeState:
        """The tree's child ``index`` of ``node`` (at ``path``), logged as a successor asked for."""
        self.log.append(("r", path, index))
        child = path + (index,)
        self._paths.add(child)
        return TreeState(child, int(node.children[index].player))

    # -- for the grader, after the search ------------------------------------------------------------------------
    def root_actions(self) -> list[Any]:
        """The root's legal actions, in the order the grader numbers them: child indices in a tree, the game's
        moves in a game position (not part of the Game interface: the worker grades the answer with it)."""
        return self._actions_of(self.tree if self.tree is not None else self._given_root_state())

    def check_root(self) -> None:
        """Raise :class:`Stop` when the search changed the root position in place (a game position; a tree's
        states are tuples and cannot change). Not part of the Game interface: the worker calls it after the
        search."""
        if self.tree is None:
            pos, _, cells = self._given[id(self.root)]
            now = self._contents(pos)
            if now != cells:
                raise stop("root changed in place", was=cells, now=quoted(now, 40))

    # -- the Game interface ----------------------------------------------------------------------------------------
    def to_move(self, state: Any) -> int:
        """0 (MAX, the player to move at the root) or 1 (MIN) at a decision node; at a chance node, who decides next."""
        node, _ = self._node(state, "game.to_move")
        if self.tree is not None:
            return int(node.player)
        return 0 if int(self.game.to_move(node)) == self._me else 1

    def actions(self, state: Any) -> list[Any]:
        """The legal actions (a tree's: child indices 0, 1, ...), in order; empty at a leaf or a chance node."""
        node, _ = self._node(state, "game.actions")
        return self._actions_of(node)

    def result(self, state: Any, action: Any) -> Any:
        """The state after ``action`` (or after a chance outcome of :meth:`chance_outcomes`); a new state.

        Stops the search (:class:`Stop`) when ``action`` is not legal at ``state``."""
        node, path = self._node(state, "game.result")
        if self.tree is not None:
            if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < len(node.children):
                raise stop("not a child", action=quoted(repr(action), 30), legal=str(list(range(len(node.children)))))
            return self._child(node, path, action)
        legal = list(self.game.actions(node))
        if action not in legal:
            raise stop("not legal", action=quoted(repr(action), 30), legal=str(legal))
        index = legal.index(action)
        self.log.append(("r", path, index))
        return self._hand_out(self.game.result(node, action), path + (index,))

    def is_terminal(self, state: Any) -> bool:
        """True at a leaf (the game is over)."""
        node, _ = self._node(state, "game.is_terminal")
        return bool(node.is_leaf) if self.tree is not None else bool(self.game.is_terminal(node))

    def terminal_test(self, state: Any) -> bool:
        """aima-python's name of :meth:`is_terminal`."""
        node, _ = self._node(state, "game.terminal_test")
        return bool(node.is_leaf) if self.tree is not None else bool(self.game.is_terminal(node))

    def utility(self, state: Any, player: int) -> float:
        """A leaf's payoff for ``player`` (0: MAX, the player to move at the root; 1: MIN): a tree's leaf value for
        MAX and its negation for MIN; a game's +1 win, 0 draw, -1 loss. Stops the search at a state not over."""
        node, path = self._node(state, "game.utility")
        if player not in (0, 1):
            raise stop("not a player", player=quoted(repr(player), 20))
        if self.tree is not None:
            if not node.is_leaf:
                raise stop("utility of an inner node")
            self.log.append(("u", path))
            v = float(node.value)
            return v if player == 0 else -v
        if not self.game.is_terminal(node):
            raise stop("utility of a position not over")
        self.log.append(("u", path))
        me = self._me if player == 0 else 1 - self._me
        return float(self.game.utility(node, me))

    def is_chance(self, state: Any) -> bool:
        """True at a chance node (only in trees with chance nodes)."""
        node, _ = self._node(state, "game.is_chance")
        return bool(node.is_chance) if self.tree is not None else False

    def chance_outcomes(self, state: Any) -> list[tuple[int, float]]:
        """``[(outcome, probability)]`` at a chance node (outcomes are child indices, played with ``result``)."""
        node, _ = self._node(state, "game.chance_outcomes")
        if self.tree is None or not node.is_chance:
            raise stop("not a chance node")
        return list(enumerate(node.probs))

    # -- aima-python's stochastic game -----------------------------------------------------------------------------
    def chances(self, state: Any) -> list[Chance]:
        """aima-python's rolls at ``state``: a chance node's outcomes, else one sure outcome (see the module
        docstring)."""
        node, path = self._node(state, "game.chances")
        if self.tree is not None and node.is_chance:
            return [Chance(path, i, float(p)) for i, p in enumerate(node.probs)]
        return [Chance(path, None, 1.0)]

    def outcome(self, state: Any, chance: Any) -> Any:
        """The state after ``chance`` (one of ``chances(state)``): a chance node's child, or the state itself for
        the sure outcome.

        Stops the search (:class:`Stop`) when ``chance`` is not one of ``chances(state)``; named apart when
        ``state`` is an earlier outcome of ``chance``'s own node (the node's state overwritten in the loop)."""
        node, path = self._node(state, "game.outcome")
        if isinstance(chance, Chance) and path[:-1] == chance.node and len(path) == len(chance.node) + 1:
            raise stop("outcome of an outcome", chance=repr(chance), earlier=str(path[-1]))
        if not isinstance(chance, Chance) or chance.node != path:
            raise stop("not its chance", chance=quoted(repr(chance), 40))
        if chance.index is None:
            return state
        return self._child(node, path, chance.index)

    def probability(self, chance: Any) -> float:
        """The probability of ``chance`` (one of ``chances(state)``)."""
        if not isinstance(chance, Chance):
            raise stop("not a chance", chance=quoted(repr(chance), 40))
        return chance.p

    # -- a cut-off search's arguments ------------------------------------------------------------------------------
    def cutoff_test_for(self, d: int) -> Callable[[Any, int], bool]:
        """aima-python's default ``cutoff_test(state, depth)`` for ``d``: true when ``depth > d`` (the root's
        children are at depth 1) or the state is terminal."""
        def cutoff_test(state: Any, depth: int) -> bool:
            node, _ = self._node(state, "cutoff_test")
            if isinstance(depth, bool) or not isinstance(depth, int):
                raise stop("not a depth", depth=quoted(repr(depth), 20))
            over = bool(node.is_leaf) if self.tree is not None else bool(self.game.is_terminal(node))
            return depth > d or over
        return cutoff_test

    def eval_fn_for(self, d: int) -> Callable[[Any], float]:
        """The ``eval_fn(state)`` a cut-off search is handed: MAX's value of ``state``, logged as a leaf evaluated
        (a tree's leaf value, or its inner node's :func:`ai.grader.exercise_cases.evaluation`; a game position's
        utility at the end)."""
        from ai.grader.exercise_cases import evaluation

        def eval_fn(state: Any) -> float:
            node, path = self._node(state, "eval_fn")
            if self.tree is None and not self.game.is_terminal(node):
                raise stop("evaluation of a position not over", d=str(d))
            self.log.append(("u", path))
            if self.tree is not None:
                return evaluation(node)
            return float(self.game.utility(node, self._me))
        return eval_fn


def describe_answer(game: RecordingGame, answer: Any) -> tuple[Any, ...]:
    """What the student's function returned, described for the caller (:func:`ai.grader.exercise.read_answer`):
    ``("action", index, number)`` one of the root's actions (``number``: the action as a number when it is one,
    else ``None``), ``("pair", first, second, text)`` a 2-tuple (each item ``(index, number)`` as above, ``index``
    ``None`` when it is no action, ``number`` ``None`` when it is no finite number), ``("number", x)`` a number
    that is no action, ``("none",)`` or ``("other", text)``."""
    legal = game.root_actions()

    def index_of(a: Any) -> int | None:
        if isinstance(a, bool) or isinstance(a, float):
            return None
        for i, m in enumerate(legal):
            if type(a) is type(m) and a == m:
                return i
        return None

    def number(a: Any) -> float | None:
        if isinstance(a, bool) or not isinstance(a, (int, float)):
            return None
        try:
            x = float(a)
        except (OverflowError, ValueError):
            return None
        return x if math.isfinite(x) else None

    i = index_of(answer)
    if i is not None:
        return ("action", i, number(answer))
    if isinstance(answer, tuple) and len(answer) == 2:
        return ("pair", (index_of(answer[0]), number(answer[0])), (index_of(answer[1]), number(answer[1])),
                repr(answer)[:40])
    if answer is None:
        return ("none",)
    if isinstance(answer, (int, float)) and not isinstance(answer, bool):
        return ("number", float(answer))
    return ("other", f"{type(answer).__name__} {repr(answer)[:40]}")


def run_case(module: Any, case: dict[str, Any], path: str) -> tuple[Any, ...]:
    """Run the student's function on one case (``{"function": name, "depth": d or None, "tree": spec}`` or
    ``{"function": name, "depth": d or None, "game": name, "position": text}``; with a ``depth`` the function is
    called ``f(state, game, d, cutoff_test, eval_fn)``, else ``f(state, game)``) and answer
    ``("done", log, answer, stopped or None)`` or ``("crashed", reason, log)``."""
    from ai.agents.agent_child import last_line
    fn = getattr(module, case["function"], None)
    if not callable(fn):
        return ("crashed", f"{case['function']} is not a function", [])
    if "tree" in case:
        from gameplay.rules.trees import parse_tree
        game = RecordingGame(tree=parse_tree(case["tree"]))
    else:
        from ai.agents.profiles import game_for
        g = game_for(case["game"])
        game = RecordingGame(game=g, position=g.parse_position(case["position"]))
    d = case.get("depth")
    try:
        if d is None:
            answer = fn(game.root, game)
        else:
            answer = fn(game.root, game, d, game.cutoff_test_for(d), game.eval_fn_for(d))
    except Stop as e:
        return ("done", game.log, None, str(e))
    except NotImplementedError as e:
        return ("crashed", "not written yet: " + (str(e) or "it raises NotImplementedError"), game.log)
    except MemoryError:
        raise  # the worker answers "memory" once the student's allocations are freed
    except RecursionError:
        return ("crashed", "RecursionError: maximum recursion depth exceeded (does your search stop at terminal "
                           "states?)", game.log)
    except Exception as e:  # noqa: BLE001 - the student's failure is this case's result
        reason = last_line(e, path)
        if isinstance(e, TypeError) and "does not support item assignment" in str(e):
            reason += "; your search changes a state in place: game.result(state, action) gives the next one"
        return ("crashed", reason, game.log)
    try:
        game.check_root()
    except Stop as e:
        return ("done", game.log, None, str(e))
    return ("done", game.log, describe_answer(game, answer), None)


def exercise_main(conn: Any, path: str, memory_limit_mb: int | None, out: Any = None) -> None:
    """The worker process of :class:`ai.grader.exercise.ExerciseProcess`: load the student's file, then answer
    ``("case", case)`` with :func:`run_case`'s message until ``("quit",)``.

    Messages sent: ``("ready", description)``, ``("fault", "crash", reason)`` when loading fails, then one answer
    per case.
    """
    from ai.agents.agent_child import last_line, prepare_child
    prepare_child(memory_limit_mb, out)
    try:
        module = _load(path)
    except MemoryError:
        conn.send(("fault", "memory", "MemoryError while loading: the file went over its memory limit"))
        return
    except BaseException as e:  # noqa: BLE001 - a file that fails to load loses its check, never the caller
        conn.send(("fault", "crash", "loading failed: " + last_line(e, path)))
        return
    conn.send(("ready", os.path.basename(path)))
    handler: Callable[[dict[str, Any]], tuple[Any, ...]] = lambda case: run_case(module, case, path)  # noqa: E731
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if not isinstance(msg, tuple) or not msg or msg[0] != "case":
            return
        try:
            reply = handler(msg[1])
        except MemoryError:
            reply = ("fault", "memory", "MemoryError: the search went over its memory limit")
        conn.send(reply)


def _load(path: str) -> Any:
    """Run the student's file as a module (its folder appended to ``sys.path``; no globals set), its top-level code
    stopped after the start-up limit of every file the program loads
    (:data:`gameplay.rules.game_file.LOOP_SECONDS`, 5 s: an endless loop is named by its line)."""
    from ai.agents.agent_file import load_agent_module
    from gameplay.rules.game_file import run_with_start_limit

    def no_features(*_args: Any, **_kwargs: Any) -> dict[str, float]:
        raise RuntimeError("features() is for agent files; an exercise's search uses only game")

    return run_with_start_limit(path, lambda: load_agent_module(path, None, no_features))
