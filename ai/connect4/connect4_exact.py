"""Connect Four's exact play for the agents: the solver (:mod:`ai.connect4.connect4_solver`) with the opening book
(:mod:`ai.connect4.connect4_book`), answering in the project's result shape.

``expert`` (``alphabeta:exact=on``, ``ai.agents.agents.SearchAgent``) asks :meth:`ExactPlay.decide` for each move: the
solver proves the position within the time budget and the answer is a :class:`ai.kernel.core.SearchResult` whose
``outcome`` and ``plies_to_end`` say the proven result (``win`` in 41 plies ...), ``value`` the search value of the
same (``WIN - 41``: what ``analyze``, ``shot --json`` and the window print as ``win in 41 (proven)``), ``move`` a best
move, ``stop_reason`` ``proven``, and ``extra`` the solver's own figures (``exact_score``: Pons's score;
``null_window_tests``; ``book_hits``: positions the book answered inside the search, 0 with the book off;
``proof_tests``: what each null-window test searched at the root, :func:`proof_tests`, which the window shows in
place of a tree, with ``proof_shortcut`` or ``proof_unsearched``, :func:`root_shortcuts`; ``solver``: ``True``). A
position it does not prove in the budget gives ``None``, and :attr:`ExactPlay.attempt` says what the unfinished solve
spent (its seconds and nodes), for the agent's result to say. The solver's table lives as long as the
:class:`ExactPlay` (one per agent), so each move of a game starts from what the last one proved.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from ai.connect4.connect4_book import load_book
from ai.connect4.connect4_solver import CELLS, Solver, SolverStopped, outcome_of
from ai.kernel.core import WIN, SearchResult, StopReason
from gameplay.rules.connect4 import Connect4State
from gameplay.rules.connect4_bits import can_win_next, column_mask, from_state_bits, non_losing_moves, possible

__all__ = ["ExactAttempt", "ExactPlay", "proof_tests", "root_shortcuts", "search_value"]


def search_value(score: int, plies: int) -> float:
    """The search value (:mod:`ai.kernel.core`: ``WIN - p`` for a win ``p`` plies away, ``-(WIN - p)`` for a loss,
    0 a draw) of Pons's ``score`` at a position of ``plies`` stones."""
    word, distance = outcome_of(score, plies)
    return 0.0 if word == "draw" else (WIN - distance if word == "win" else -(WIN - distance))


@dataclass(frozen=True)
class ExactAttempt:
    """What one :meth:`ExactPlay.decide` call spent, proved or not.

    Attributes:
        seconds: wall-clock seconds of the call (:func:`time.perf_counter`), reading the book included.
        nodes: nodes the solver searched (an unfinished solve's too).
        book_hits: positions the opening book answered inside the search (0 with the book off).
        proved: whether the solve finished (``decide`` returned a result).
    """

    seconds: float
    nodes: int
    book_hits: int
    proved: bool


class ExactPlay:
    """The exact solver as an agent's helper (module docstring). Not shared between threads.

    Args:
        book: read the opening book's solved positions inside the search (the agent key ``book``); off, every
            position is searched (``book_hits`` stays 0).
    """

    def __init__(self, book: bool = True) -> None:
        self.solver: Solver | None = None
        self.book = book
        self.attempt: ExactAttempt | None = None
        """What the last :meth:`decide` spent (``None`` before the first)."""

    def decide(self, state: Any, budget_s: float | None, clock: Callable[[], float],
               stop_event: threading.Event | None = None) -> SearchResult | None:
        """The proven result at ``state`` (a :class:`gameplay.rules.connect4.Connect4State`, not over), or ``None``
        when the solver did not finish within ``budget_s`` seconds on ``clock`` (``None``: no budget) or
        ``stop_event`` was set. Either way :attr:`attempt` then says what the call spent.

        Raises:
            ValueError: ``state`` is not a Connect Four position before the end.
        """
        if not isinstance(state, Connect4State):
            raise ValueError(f"the exact solver plays Connect Four positions, got {type(state).__name__}")
        t0 = time.perf_counter()
        if self.solver is None:
            self.solver = Solver(clock)
            if self.book:
                book = load_book()
                self.solver.use_book(book.scores, book.max_plies)
        solver = self.solver
        solver.clock = clock
        position, mask = from_state_bits(state.first, state.mask, state.plies)
        deadline = clock() + budget_s if budget_s is not None else None
        stop = stop_event.is_set if stop_event is not None else None
        try:
            sol = solver.solve(position, mask, deadline=deadline, stop=stop)
        except SolverStopped:
            self.attempt = ExactAttempt(time.perf_counter() - t0, int(solver.nodes), int(solver.book_hits), False)
            return None
        elapsed = time.perf_counter() - t0
        self.attempt = ExactAttempt(elapsed, sol.nodes, int(solver.book_hits), True)
        word, distance = outcome_of(sol.score, state.plies)
        extra: dict[str, Any] = {"solver": True, "exact_score": sol.score, "null_window_tests": sol.tests,
                                 "book_hits": int(solver.book_hits),
                                 "proof_tests": proof_tests(solver.root_log, state.plies)}
        extra.update(root_shortcuts(position, mask, state.plies))
        return SearchResult(sol.column, search_value(sol.score, state.plies), word, distance, distance, sol.nodes,
                            (sol.column,), elapsed, StopReason.PROVEN, extra)


def root_shortcuts(position: int, mask: int, plies: int) -> dict[str, Any]:
    """What the solver decides at the root without a search (:meth:`ai.connect4.connect4_solver.Solver.solve`), for
    the teaching views beside :func:`proof_tests`: ``{"proof_shortcut": words}`` when no null-window test is made
    (the side to move wins with its next stone; every move lets the opponent win with its next; 40 stones or more
    are down), else ``{"proof_unsearched": [columns]}`` for the columns 1-7 the tests never search because they lose
    at once (the opponent then wins with its next stone), when there are some; ``{}`` otherwise. ``position`` and
    ``mask`` as the solver takes them, ``plies`` the stones down."""
    legal = possible(mask)
    if can_win_next(position, mask):
        return {"proof_shortcut": "the move wins at once"}
    free = non_losing_moves(position, mask)
    if free == 0:
        return {"proof_shortcut": "every move lets the opponent win with its next stone"}
    if plies >= CELLS - 2:
        return {"proof_shortcut": f"{plies} stones are down: the last stones cannot make a four"}
    lost = [c + 1 for c in range(7) if legal & column_mask(c) and not free & column_mask(c)]
    return {"proof_unsearched": lost} if lost else {}


def proof_tests(root_log: list[tuple[int, int, int, int]], plies: int) -> list[list[Any]]:
    """The root's null-window tests of a solve (:attr:`ai.connect4.connect4_solver.Solver.root_log`) as
    ``SearchResult.extra["proof_tests"]`` holds them for the teaching views
    (:func:`ai.kernel.spelling.proof_test_lines`): one ``[threshold, result, nodes, columns]`` a test, in order,
    ``threshold`` and ``result`` search values from the root's side (the test asked "is the value above
    ``threshold``?"; ``result`` above it: yes, a lower bound; else an upper bound), ``nodes`` the test's, and
    ``columns`` one ``[move, value, nodes]`` per column it searched, in its order (``move`` the column 1-7, ``value``
    the bound that column's search gave, read like ``result``). Plain lists, so they pickle and print as JSON.
    ``plies``: the stones of the root position."""
    tests: list[list[Any]] = []
    columns: list[list[Any]] = []
    for m, col, score, nodes in root_log:
        if col >= 0:
            columns.append([col + 1, search_value(score, plies), nodes])
        else:
            tests.append([search_value(m, plies), search_value(score, plies), nodes, columns])
            columns = []
    return tests
