"""The search kernel's shared vocabulary: scores, limits, progress reports, results and the stop test, and the
seams a search is plugged into: what it calls on its recorder (:class:`Recorder`, :class:`IterationRecorder`)
and on an endgame database (:class:`EndgameProbe`).

Every search (``ai.kernel.search`` alpha-beta and minimax, ``ai.kernel.expectimax``) and the anytime loop
(``ai.kernel.deepen``) speak these types, so the window, the command line and the Tree Lab read one shape of answer.

Scores (RULES.md, scoring): values are from the point of view of the side to move at the root. A won terminal
position reached ``p`` plies below the root scores ``WIN - p`` (a shorter win beats a longer one), a lost one
``-(WIN - p)``, a draw 0. ``WIN`` is 10**15 so that the proof band ``|v| >= MATE_BOUND`` lies far beyond any
heuristic value: evaluations are clamped into ``[-HEURISTIC_BOUND, HEURISTIC_BOUND]`` by the search (a
heuristic can never read as a proof), and the agents refuse weights that could reach that bound. Floats hold
``WIN - p`` exactly (the spacing of doubles near 10**15 is 0.125).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable, Final, Hashable, Protocol, TypeVar, runtime_checkable

from ai.kernel.timeman import Clock, stop_time
from gameplay.rules.base import Game, GameError

S_contra = TypeVar("S_contra", bound=Hashable, contravariant=True)

WIN: Final = 1e15
"""Score of a win at the root itself; a win ``p`` plies away scores ``WIN - p``."""
MAX_PLY: Final = 10_000
"""Deepest ply a search may reach (bounds the proof band)."""
MATE_BOUND: Final = WIN - MAX_PLY
"""Any score with absolute value at least this is a proven win or loss."""
HEURISTIC_BOUND: Final = 1e12
"""Heuristic (depth-limit) values are clamped into ``[-HEURISTIC_BOUND, HEURISTIC_BOUND]``, far below the proofs."""
DB_WIN: Final = WIN - 3 * MAX_PLY
"""Base score of an endgame-database win (``db_score``): inside the proven band, below every win the search
proved with its distance (those score at least ``MATE_BOUND``)."""
DB_HEURISTIC: Final = 0.5 * MAX_PLY
"""Largest magnitude of the evaluation term added to a database result (so the search still makes progress
toward converting a database win; ``db_score``)."""
DB_BOUND: Final = DB_WIN - MAX_PLY - DB_HEURISTIC
"""Every proven value, search proof or database result, has ``|v| >= DB_BOUND``; database results lie in
``[DB_BOUND, MATE_BOUND)``."""


class SearchError(GameError):
    """A search was asked of a game it does not fit (e.g. alpha-beta on a game with chance nodes)."""


class StopReason(StrEnum):
    """Why a decision stopped (``SearchResult.stop_reason``). A ``str``: its value is what the JSON outputs and
    the command line print (``CLI.md``), and it compares equal to that text."""

    DEPTH = "depth"
    """The depth limit (or the deepest iteration) was searched."""
    TIME = "time"
    """The time budget ran out."""
    NODES = "nodes"
    """The node budget ran out."""
    SIMULATIONS = "simulations"
    """MCTS ran its simulations."""
    PROVEN = "proven"
    """The value is proven: deeper search cannot change it."""
    CANCELLED = "cancelled"
    """The cancel event was set."""
    RANDOM = "random"
    """A random agent's pick (no search)."""
    TABLE = "table"
    """A lookup in a precomputed policy (Pig's ``optimal``)."""
    BOOK = "book"
    """A move from the opening book (no search)."""
    FILE = "file"
    """An agent process that reported no reason of its own."""

    @classmethod
    def read(cls, text: object) -> StopReason:
        """The reason called ``text`` (what an agent process reports), :attr:`FILE` when none is."""
        try:
            return cls(str(text))
        except ValueError:
            return cls.FILE


class SearchStopped(Exception):
    """Raised inside a search when the hard deadline passes or the search is cancelled (never escapes).

    Args:
        reason: :attr:`StopReason.TIME`, :attr:`StopReason.NODES` or :attr:`StopReason.CANCELLED`.
    """

    def __init__(self, reason: StopReason) -> None:
        super().__init__(reason.value)
        self.reason = reason


@dataclass(frozen=True)
class SearchLimits:
    """When a search stops. ``None`` means no limit of that kind; all ``None`` means search to the end."""

    depth: int | None = None
    """Maximum depth in plies (decisions)."""
    time_budget_s: float | None = None
    """Time budget per move in seconds (the hard deadline, :meth:`Interruptible.start_budget`), on the ``clock``;
    when to stop starting iterations is ``timeman``'s (``ai.kernel.timeman``)."""
    nodes: int | None = None
    """Node budget (states visited)."""
    timeman: bool = False
    """True: engine-style time management (``ai.kernel.timeman.TimeManager``: a target time that grows when the best
    move changes or the score falls, no iteration predicted to end past the budget); False: no iteration starts
    after half the budget (``ai.kernel.timeman.HalfBudget``)."""
    clock: Clock = Clock.WALL
    """The budget's clock (``ai.kernel.timeman.Clock``): ``wall`` (elapsed real time) or ``cpu`` (CPU time of the
    searching thread)."""
    unit: float = 1.0
    """The scale of the values for ``timeman``'s falling-score test (the evaluation's weight of a man), above 0."""
    partial: bool = False
    """True: a stopped iteration is not all lost. When the budget stops one in which a root move was proved better
    than the previous iteration's best (alpha-beta's ``Searcher.root_partial``), that move is played, and with
    ``timeman`` an iteration starts whenever the target time has not passed, even one predicted to end past the
    budget (``ai.kernel.deepen.deepen``). False: an interrupted iteration is thrown away."""
    latency_s: float | None = None
    """``None``: no referee waits for the answer, the search may use the whole budget (``analyze``, the window).
    Seconds: a referee judges the answer (an agent in a worker process), and this is the latency it learned from
    the search's stop to the answer's arrival (``ai.kernel.timeman.LatencyEstimate``); the search's hard limit is
    then ``ai.kernel.timeman.stop_time(time_budget_s, latency_s)``, the budget less a margin."""

    def stop_s(self) -> float | None:
        """The search's hard limit in seconds on the budget's clock: the budget, less the margin when a referee
        judges the answer (:attr:`latency_s`); ``None`` without a time budget."""
        if self.time_budget_s is None:
            return None
        if self.latency_s is None:
            return self.time_budget_s
        return stop_time(self.time_budget_s, self.latency_s)


@dataclass(frozen=True)
class SearchInfo:
    """Progress report after each completed iteration of iterative deepening."""

    depth: int
    """Depth in plies of the completed iteration."""
    value: float
    """Backed-up value for the side to move at the root."""
    pv: tuple[Any, ...]
    """Principal variation (moves from the root)."""
    nodes: int
    """Nodes visited so far in this search (all iterations)."""
    elapsed: float
    """Seconds since the search started."""
    move: Any = None
    """Best root move of the iteration."""
    iteration_nodes: int = 0
    """Nodes visited by this iteration alone."""


@dataclass(frozen=True)
class SearchResult:
    """The answer of one decision."""

    move: Any
    """The chosen move (``None`` only when the position is over)."""
    value: float
    """Value for the side to move at the root, in the agent's units."""
    outcome: str | None
    """``"win"``, ``"loss"`` or ``"draw"`` when the value is proven, else ``None``."""
    plies_to_end: int | None
    """Plies to the end of the game under best play when ``outcome`` is set."""
    depth: int
    """Deepest completed iteration in plies."""
    nodes: int
    """Nodes visited in total: every iteration, the interrupted one and quiescence nodes included."""
    pv: tuple[Any, ...]
    """Principal variation of the last completed iteration."""
    elapsed: float
    """Wall-clock seconds."""
    stop_reason: StopReason
    """Why the decision stopped (:class:`StopReason`: ``"depth"``, ``"time"``, ``"nodes"``, ``"proven"``,
    ``"cancelled"``, ``"random"``, ``"table"``, ...)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Game- or algorithm-specific figures (e.g. ``win_probability`` for Pig, cut-offs, TT hits, and
    ``iterations``: one ``{"depth", "nodes", "value", "move"}`` record per completed iteration)."""

    @property
    def without_tree(self) -> bool:
        """True for a move chosen without a search tree by design: from the opening book (stop reason ``book``) or
        proved by a game's exact solver (``extra["solver"]`` True). Such a decision never had a tree to record or
        save; the teaching views say why instead (``gameplay.ui.play.match_panel.no_search_message``)."""
        return self.stop_reason == StopReason.BOOK or self.extra.get("solver") is True


def classify(value: float) -> tuple[str | None, int | None]:
    """Split a search value into a proven outcome and plies to the end, or ``(None, None)``.

    A database result (``DB_BOUND <= |value| < MATE_BOUND``) is a win or loss with no known length (``None``).
    """
    if value >= MATE_BOUND:
        return "win", int(round(WIN - value))
    if value <= -MATE_BOUND:
        return "loss", int(round(WIN + value))
    if value >= DB_BOUND:
        return "win", None
    if value <= -DB_BOUND:
        return "loss", None
    return None, None


def db_score(result: int, ply: int, heuristic: float) -> float:
    """The search value of a position an endgame database decides, for its side to move.

    Args:
        result: the database's answer, +1 the side to move wins, 0 draw, -1 it loses.
        ply: plies below the root (a nearer database win scores higher, like a nearer proven win).
        heuristic: the static evaluation for the side to move, clamped to ``[-DB_HEURISTIC, DB_HEURISTIC]``
            (among database wins the search prefers the one the evaluation likes: progress toward conversion).

    Returns:
        ``0.0`` for a draw; ``DB_WIN - ply + h`` for a win and ``-(DB_WIN - ply) + h`` for a loss, which lie in
        ``[DB_BOUND, MATE_BOUND)`` in absolute value: proven, but below every win the search proved.
    """
    if result == 0:
        return 0.0
    h = max(-DB_HEURISTIC, min(DB_HEURISTIC, heuristic))
    return (DB_WIN - ply + h) if result > 0 else (-(DB_WIN - ply) + h)


def is_db_value(value: float) -> bool:
    """True for a database result (proven by the endgame tables, not by the search with its distance)."""
    return DB_BOUND <= abs(value) < MATE_BOUND


def require_deterministic(game: Game[Any, Any], algorithm: str) -> None:
    """Refuse a game with chance nodes for a search that has no chance nodes.

    Raises:
        SearchError: the game is stochastic.
    """
    if game.traits.stochastic:
        raise SearchError(f"{algorithm} does not handle chance nodes; use expectimax for {game.name}")


# ----- the seams: what a search calls, and what calls a search --------------------------------------------------
class NodeCounter(Protocol):
    """A search's counters as the stop test, the anytime loop and a recorder read them."""

    @property
    def nodes(self) -> int:
        """Nodes visited so far in this decision (every iteration)."""
        ...


@runtime_checkable
class Recorder(Protocol):
    """What a search calls on its tree recorder at every node (``ai.kernel.recording``: :data:`NULL_RECORDER
    <ai.kernel.recording.NULL_RECORDER>`, the do-nothing default, and the recorders that keep a tree).

    ``enter`` when the search reaches a node, ``leave`` when it has the node's value, ``cutoff`` with the moves a
    cut-off skipped. Values and windows are the searching side's (negamax, ``ai.kernel.search``) or the root player's
    (``ai.kernel.expectimax``); ``flag`` is the search's bound flag (``ai.kernel.tt``: 0 exact, 1 lower, 2 upper).
    Recording never changes what is searched.
    """

    def enter(self, state: object, move: object, alpha: float, beta: float, ply: int, *,
              kind: str | None = None, probability: float | None = None, reduced: int = 0) -> None:
        """A node is reached: ``move`` led here (``None`` at the root), ``ply`` plies below the root; ``kind``
        ``MAX``/``MIN``/``CHANCE`` when the search knows better than the game, ``probability`` the edge's
        chance, ``reduced`` the plies a late-move reduction took off."""
        ...

    def leave(self, value: float, flag: int, alpha: float, beta: float, *, note: str = "",
              best_move: object = None) -> None:
        """The node entered last has its value; ``note`` says how (``leaf``, ``terminal``, ``tt``, ``memo``,
        ``etc``, ``database``, ``repetition`` or ``""`` for a searched node)."""
        ...

    def cutoff(self, skipped_moves: Sequence[object]) -> None:
        """The node being searched stopped early; ``skipped_moves`` were never searched."""
        ...

    def depth_changed(self, plies: int, reason: str) -> None:
        """The node entered last is searched ``plies`` plies deeper (positive) or shallower (negative) than one
        less than its parent: ``reason`` is ``truncation`` (material truncation,
        ``ai.kernel.search_stats.truncated_depth``), ``given back`` (plies truncated above it restored) or ``extension``
        (a forced reply searched a ply deeper). Called before any of its children is entered, only when the depth
        changes."""
        ...


class RecordedSearch(Protocol):
    """A search as its recorder sees it: the node counter each log entry keeps, and the observer slot ``rec``
    that the recorder empties (sets to the do-nothing recorder) when its node bound is reached."""

    rec: Recorder

    @property
    def stats(self) -> NodeCounter:
        """The search's counters."""
        ...


@runtime_checkable
class IterationRecorder(Recorder, Protocol):
    """A recorder the anytime loop (:func:`ai.kernel.deepen.deepen`) tells where each iteration begins and ends
    (``ai.teaching.tree_recorder.TreeRecorder`` and ``DecisionRecorder``)."""

    def begin_iteration(self, depth: int, search: RecordedSearch | None = None) -> Recorder:
        """An iteration starts: the observer the search calls during it (this recorder, or the do-nothing one)."""
        ...

    def end_iteration(self, depth: int, nodes: int, completed: bool) -> None:
        """An iteration ended after ``nodes`` nodes (``completed`` False: interrupted, its log is dropped)."""
        ...


@runtime_checkable
class EndgameProbe(Protocol[S_contra]):
    """An endgame database as the search probes it (checkers: ``ai.checkers.endgame_db.EndgameDB``). The game counts the
    pieces (``GameTraits.piece_count``); the database answers positions with at most ``max_pieces``."""

    @property
    def max_pieces(self) -> int:
        """The most pieces (both sides) of a position the database covers."""
        ...

    def probe_state(self, state: S_contra) -> int | None:
        """+1 the side to move wins, 0 draw, -1 it loses (the draw rules ignored); ``None`` when not covered."""
        ...


def db_root_moves(endgame: EndgameProbe[Any], game: Game[Any, Any], state: Any, moves: list[Any]
                  ) -> tuple[list[Any], int | None]:
    """At a root the tables cover (``state``): ``(the moves that keep the tables' verdict, the root's verdict)``.

    A win stays a win: of the ``moves`` whose successor the tables cover, only those with the best verdict for the
    mover are kept (moves the tables do not cover are kept too), so the search itself finds the way to convert.
    """
    verdicts: list[int | None] = []
    for m in moves:
        r = endgame.probe_state(game.successor(state, m))
        verdicts.append(None if r is None else -r)
    root = endgame.probe_state(state)
    known = [v for v in verdicts if v is not None]
    if not known:
        return moves, root
    best = max(known)
    return [m for m, v in zip(moves, verdicts) if v is None or v == best], root


class Interruptible:
    """The stop test shared by the searches: the cancel event, the hard deadline and the node budget.

    The search calls :meth:`_check_stop` every ``check_every`` nodes. The budget is started by
    :meth:`start_budget`, the one place the deadline is computed (the anytime loop ``ai.kernel.deepen.deepen`` and MCTS
    call it when a decision starts); :meth:`set_interruptible` says whether the running iteration may be stopped.
    """

    stop_event: threading.Event | None
    stats: NodeCounter
    _clock: Callable[[], float] = time.perf_counter
    _deadline: float | None = None
    _node_limit: int | None = None
    _interruptible: bool = True

    @property
    def clock(self) -> Callable[[], float]:
        """The clock the deadline is read on (``ai.kernel.timeman.CLOCKS``: wall or the searching thread's CPU time)."""
        return self._clock

    @property
    def deadline(self) -> float | None:
        """The hard deadline (seconds on :attr:`clock`), or ``None``."""
        return self._deadline

    @property
    def node_limit(self) -> int | None:
        """The node budget (nodes of the whole decision), or ``None``."""
        return self._node_limit

    @property
    def interruptible(self) -> bool:
        """False while an iteration that must complete runs (the first: there is always a move)."""
        return self._interruptible

    def start_budget(self, clock: Callable[[], float], started: float, time_budget_s: float | None,
                     node_limit: int | None) -> None:
        """Start the decision's budget: the deadline is ``started + time_budget_s`` seconds on ``clock``
        (``None``: no deadline), the node budget ``node_limit`` (``None``: none)."""
        self._clock = clock
        self._deadline = started + time_budget_s if time_budget_s is not None else None
        self._node_limit = node_limit

    def set_interruptible(self, interruptible: bool) -> None:
        """Whether the search may be stopped now (False while an iteration that must complete runs)."""
        self._interruptible = interruptible

    def _check_stop(self) -> None:
        """Raise :class:`SearchStopped` when the search must stop (never during an uninterruptible iteration)."""
        if not self._interruptible:
            return
        if self.stop_event is not None and self.stop_event.is_set():
            raise SearchStopped(StopReason.CANCELLED)
        if self._deadline is not None and self._clock() >= self._deadline:
            raise SearchStopped(StopReason.TIME)
        if self._node_limit is not None and self.stats.nodes >= self._node_limit:
            raise SearchStopped(StopReason.NODES)
