"""The student's side of ``main.py check`` (runs in the exercise's worker process, never in the caller's): the
instrumented game a student's search is handed, and the worker's loop.

:class:`RecordingGame` offers the course's Game interface (``actions``, ``result``, ``is_terminal``, ``utility``,
``to_move``, ``is_chance``, ``chance_outcomes``; ``terminal_test`` as AIMA's 3rd edition calls it) over an
explicit tree or a game position, and logs what the search asks: each ``utility`` (a leaf evaluated, by its path of
child indices from the root) and each ``result`` (a successor asked for: the parent's path and the child's index).
The caller (:mod:`ai.grader.exercise`) compares the log with the reference search.

States: in a tree a state is its path, a tuple of child indices (immutable, hashable); an action is a child index.
In a game position a state is a :class:`Position`, a list of the position's characters (tic-tac-toe: the nine
cells) that only the game reads. The game remembers every state it handed out (with a copy of its contents): a
state changed in place, or a state the game never gave (built by the student's code), stops the search with a
message saying so (:class:`Stop`), as does ``utility`` asked of a state that is not over, an action that is not
legal, or ``chance_outcomes`` asked where no chance node is.
"""

from __future__ import annotations

import math
import os
from typing import Any, Callable

from gameplay.rules.base import quoted

FUNCTIONS = ("minimax_decision", "alphabeta_decision", "expectimax_decision")
"""The functions an exercise file may define (AIMA's names; each ``f(state, game) -> action``)."""


class Stop(BaseException):
    """The student's search broke the game's contract (a BaseException, so a broad ``except Exception`` in the
    student's code does not swallow it)."""


class Position(list[str]):
    """A game position as the student's search sees it: a list of its characters (tic-tac-toe: the nine cells
    ``X``, ``O``, ``.``). Never change one: ``game.result(state, action)`` returns a new one."""

    __slots__ = ("path",)

    def __init__(self, cells: str, path: tuple[int, ...]) -> None:
        super().__init__(cells)
        self.path = path

    def __repr__(self) -> str:
        return f"Position({''.join(self)!r})"


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
        """``("u", path)`` a leaf evaluated; ``("r", path, index)`` a successor asked."""
        self._given: dict[int, tuple[Position, Any, str]] = {}
        """Game positions handed out: id -> (the object, the game's state, its contents when handed out)."""
        self._paths: set[tuple[int, ...]] = {()}
        """Tree states handed out."""
        self.root: Any = () if tree is not None else self._hand_out(position, ())

    # -- states ----------------------------------------------------------------------------------------------------
    def _hand_out(self, state: Any, path: tuple[int, ...]) -> Position:
        cells = str(self.game.format_position(state))
        pos = Position(cells, path)
        self._given[id(pos)] = (pos, state, cells)
        return pos

    def _node(self, s: Any, asked: str) -> tuple[Any, tuple[int, ...]]:
        """``(tree node or game state, path)`` of a state the search passed to ``game.<asked>``."""
        if self.tree is not None:
            if isinstance(s, tuple) and s in self._paths:
                node = self.tree
                for i in s:
                    node = node.children[i]
                return node, s
            raise Stop(f"game.{asked} was given {quoted(repr(s), 40)}, a state the game never gave your search; "
                       "make states only with game.result(state, action)")
        entry = self._given.get(id(s))
        if entry is None or entry[0] is not s:
            raise Stop(f"game.{asked} was given {quoted(repr(s), 40)}, a state the game never gave your search "
                       "(a copy or one built by your code); make states only with game.result(state, action)")
        pos, state, cells = entry
        now = "".join(str(c) for c in pos) if all(isinstance(c, str) for c in pos) else repr(list(pos))
        if now != cells:
            where = "the root position" if not pos.path else f"the position after {self._moves_text(pos.path)}"
            raise Stop(f"your search changed a state in place: {where} was {cells}, and game.{asked} was given it "
                       f"as {quoted(now, 40)}; never change a state: game.result(state, action) returns a new one")
        return state, pos.path

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
            self._node(self.root, "(after the search: the root)")

    # -- the Game interface ----------------------------------------------------------------------------------------
    def to_move(self, state: Any) -> int:
        """0 (MAX, the player to move at the root) or 1 (MIN) at a decision node; at a chance node, who decides next."""
        node, _ = self._node(state, "to_move")
        return int(node.player) if self.tree is not None else int(self.game.to_move(node))

    def actions(self, state: Any) -> list[Any]:
        """The legal actions (a tree's: child indices 0, 1, ...), in order; empty at a leaf or a chance node."""
        node, _ = self._node(state, "actions")
        return self._actions_of(node)

    def result(self, state: Any, action: Any) -> Any:
        """The state after ``action`` (or after a chance outcome of :meth:`chance_outcomes`); a new state.

        Stops the search (:class:`Stop`) when ``action`` is not legal at ``state``."""
        node, path = self._node(state, "result")
        if self.tree is not None:
            if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < len(node.children):
                raise Stop(f"game.result was given action {quoted(repr(action), 30)}, which is not a child of that "
                           f"node; its actions are {list(range(len(node.children)))}")
            self.log.append(("r", path, action))
            child = path + (action,)
            self._paths.add(child)
            return child
        legal = list(self.game.actions(node))
        if action not in legal:
            raise Stop(f"game.result was given action {quoted(repr(action), 30)}, which is not legal there; "
                       f"the legal actions are {legal}")
        index = legal.index(action)
        self.log.append(("r", path, index))
        return self._hand_out(self.game.result(node, action), path + (index,))

    def is_terminal(self, state: Any) -> bool:
        """True at a leaf (the game is over)."""
        node, _ = self._node(state, "is_terminal")
        return bool(node.is_leaf) if self.tree is not None else bool(self.game.is_terminal(node))

    terminal_test = is_terminal

    def utility(self, state: Any, player: int) -> float:
        """A leaf's payoff for ``player`` (0: MAX, the player to move at the root; 1: MIN): a tree's leaf value for
        MAX and its negation for MIN; a game's +1 win, 0 draw, -1 loss. Stops the search at a state not over."""
        node, path = self._node(state, "utility")
        if player not in (0, 1):
            raise Stop(f"game.utility was given player {quoted(repr(player), 20)}; expected 0 or 1 "
                       "(game.to_move(state) at the root)")
        if self.tree is not None:
            if not node.is_leaf:
                raise Stop("game.utility was asked about a state that is not a leaf (only a terminal state has a "
                           "utility; test game.is_terminal(state) first)")
            self.log.append(("u", path))
            v = float(node.value)
            return v if player == 0 else -v
        if not self.game.is_terminal(node):
            raise Stop("game.utility was asked about a position that is not over (only a terminal state has a "
                       "utility; test game.is_terminal(state) first)")
        self.log.append(("u", path))
        return float(self.game.utility(node, player))

    def is_chance(self, state: Any) -> bool:
        """True at a chance node (only in trees with chance nodes)."""
        node, _ = self._node(state, "is_chance")
        return bool(node.is_chance) if self.tree is not None else False

    def chance_outcomes(self, state: Any) -> list[tuple[int, float]]:
        """``[(outcome, probability)]`` at a chance node (outcomes are child indices, played with ``result``)."""
        node, _ = self._node(state, "chance_outcomes")
        if self.tree is None or not node.is_chance:
            raise Stop("game.chance_outcomes was asked about a state that is not a chance node "
                       "(test game.is_chance(state) first)")
        return list(enumerate(node.probs))


def _answer(game: RecordingGame, answer: Any) -> tuple[Any, ...]:
    """What the student's function returned, as the caller grades it: ``("move", index, value or None)``,
    ``("number", x)``, ``("none",)`` or ``("other", text)``."""
    legal = game.root_actions()

    def index_of(a: Any) -> int | None:
        if isinstance(a, bool) or isinstance(a, float):
            return None
        for i, m in enumerate(legal):
            if type(a) is type(m) and a == m:
                return i
        return None

    i = index_of(answer)
    if i is not None:
        return ("move", i, None)
    if isinstance(answer, tuple) and len(answer) == 2:
        j = index_of(answer[0])
        v = answer[1]
        if j is not None and isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(float(v)):
            return ("move", j, float(v))
    if answer is None:
        return ("none",)
    if isinstance(answer, (int, float)) and not isinstance(answer, bool):
        return ("number", float(answer))
    return ("other", f"{type(answer).__name__} {repr(answer)[:40]}")


def run_case(module: Any, case: dict[str, Any], path: str) -> tuple[Any, ...]:
    """Run the student's function on one case (``{"function": name, "tree": spec}`` or
    ``{"function": name, "game": name, "position": text}``) and answer
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
    try:
        answer = fn(game.root, game)
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
            reason += "; a state is never changed: game.result(state, action) gives the next one"
        return ("crashed", reason, game.log)
    try:
        game.check_root()
    except Stop as e:
        return ("done", game.log, None, str(e))
    return ("done", game.log, _answer(game, answer), None)


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
    """Run the student's file as a module (its folder appended to ``sys.path``; no globals set)."""
    from ai.agents.agent_file import load_agent_module

    def no_features(*_args: Any, **_kwargs: Any) -> dict[str, float]:
        raise RuntimeError("features() is for agent files; an exercise's search uses only game")

    return load_agent_module(path, None, no_features)
