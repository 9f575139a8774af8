"""Record the search tree of one AI decision in a game (``main.py tree GAME`` and the overlay).

One model of a decision for every screen: :class:`~ai.teaching.tree_recorder.DecisionRecorder` holds the iterations the
search completed and their node counts, and the tree of the deepest iteration it recorded whole. :func:`decision_counts`
reads it into named counts (the shown iteration's nodes, the whole decision's nodes, ...) and
:func:`decision_summary` into the summary the exports print in their header, so the overlay, the side panel,
``analyze``, ``tree`` and the exported files show the same numbers under the same names. No pygame here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ai.agents.agents import make_agent
from ai.agents.game_parts import agent_parts
from ai.kernel.core import StopReason
from ai.kernel.numbers import iteration_words as iteration_words  # re-exported: the counters name iterations
from ai.kernel.numbers import shown_iteration_words, value_label
from ai.kernel.recording import SearchTree
from ai.kernel.search import SearchResult
from ai.teaching.mcts_record import MCTSRecorder, MCTSTrace
from ai.teaching.tree_recorder import DecisionRecorder
from gameplay.rules.base import GameError
from gameplay.rules.registry import UnknownGameError

FALLBACK_MAX_NODES = 15_000
"""Recorder bound of a game the registry does not know (a test's variant of a game)."""


def recorder_bound(game_name: str) -> int:
    """The recorder bound for ``game_name`` (nodes stored per iteration, the same in the window and for ``main.py
    tree``): its agents' parts' ``tree_max_nodes`` (:func:`ai.agents.game_parts.agent_parts`) (30,000 for tic-tac-toe,
    15,000 for checkers and Pig)."""
    try:
        return agent_parts(game_name).tree_max_nodes
    except UnknownGameError:
        return FALLBACK_MAX_NODES


def make_recorder(game: Any, agent: Any, state: Any, max_nodes: int | None = None
                  ) -> DecisionRecorder | MCTSRecorder | None:
    """A recorder for ``agent``'s decision at ``state``, or ``None`` when the agent does not search a tree: a
    :class:`~ai.teaching.tree_recorder.DecisionRecorder` for the minimax family, an
    :class:`~ai.teaching.mcts_record.MCTSRecorder` for ``mcts`` (every simulation, up to its bound).

    Args:
        game: the game.
        agent: the agent about to choose (``ai.agents.agents.Agent``).
        state: the position it decides.
        max_nodes: recorder bound (default per game, :func:`recorder_bound`).
    """
    settings = getattr(agent, "settings", None)
    if agent is None or getattr(agent, "is_human", False) or settings is None:
        return None
    if settings.algorithm in ("random", "optimal", "human", "file"):  # a file agent searches in its own process
        return None
    if settings.algorithm == "mcts":
        return MCTSRecorder(game)
    stochastic = bool(getattr(getattr(game, "traits", None), "stochastic", False))
    bound = max_nodes if max_nodes is not None else recorder_bound(getattr(game, "name", ""))
    try:
        root = game.to_move(state)
    except Exception:  # noqa: BLE001 - a position nobody decides records nothing
        return None
    # ai.kernel.expectimax reports values for the root player already (not negamax)
    return DecisionRecorder(game, root, max_nodes=bound, algorithm=settings.algorithm,
                            prune=getattr(getattr(settings, "search", None), "prune", "ge"),
                            negamax=not stochastic)


@dataclass(frozen=True)
class DecisionCounts:
    """The named counts of one recorded decision (what every screen shows, under these names)."""

    shown_depth: int
    """Depth of the iteration the tree shows (plies; decisions for expectimax)."""
    shown_nodes: int
    """Nodes the search visited in that iteration (``tree.visited``; capture search included)."""
    drawn_nodes: int
    """Nodes stored in the tree (the capture search below the leaves is counted, not drawn)."""
    shown_whole: bool
    """The shown iteration was recorded completely (False: only its first ``drawn_nodes`` were)."""
    shown_value: float
    """The shown tree's root value (MAX's view = the mover's)."""
    shown_move: str | None
    """The shown iteration's best move (game notation)."""
    total_nodes: int
    """Nodes of the whole decision: every iteration, the interrupted one included (= ``SearchResult.nodes``)."""
    iterations: int
    """Iterations the search completed."""
    final_depth: int
    """Depth of the iteration the move came from (``SearchResult.depth``)."""
    final_value: float
    final_move: str | None
    max_nodes: int
    """The recorder bound."""
    shown_cutoffs: int = 0
    """Cut-offs in the shown tree: nodes where a cut-off pruned moves
    (:attr:`ai.kernel.recording.SearchTree.cutoffs`)."""
    shown_pruned: int = 0
    """Subtrees those cut-offs pruned (:attr:`ai.kernel.recording.SearchTree.pruned_subtrees`)."""
    total_cutoffs: int | None = None
    """Cut-offs of the whole decision, every iteration (``analyze``'s ``cutoffs``); ``None`` when not reported."""
    proofs: bool = True
    """Values in the proof band read "win in N" (:func:`ai.kernel.numbers.value_label`)."""
    unfinished: tuple[int, int, int] | None = None
    """When the move came from an iteration the budget stopped (``partial``): its depth, the root moves it searched
    and the root's moves in all (``SearchResult.extra["partial"]``); ``None`` otherwise."""

    @property
    def capture_nodes(self) -> int:
        """Nodes of the shown iteration that are counted but not drawn (the capture search; 0 when truncated)."""
        return self.shown_nodes - self.drawn_nodes if self.shown_whole else 0

    @property
    def same_as_final(self) -> bool:
        """The tree shows the iteration the move came from."""
        return self.shown_depth == self.final_depth

    @property
    def tells_the_decision(self) -> bool:
        """The tree's root says what the decision was: the iteration the move came from, recorded whole, with the
        decision's value at its root (else :func:`shown_iteration_text` says what the tree shows instead)."""
        return (self.same_as_final and self.shown_whole and self.shown_value == self.final_value
                and self.unfinished is None)

    def value(self, shown: bool = False) -> str:
        """The decision's value (``shown``: the shown tree's root value) as the tree's nodes print it."""
        return value_label(self.shown_value if shown else self.final_value, self.proofs)


def decision_counts(game: Any, state: Any, result: Any, recorder: DecisionRecorder, tree: SearchTree
                    ) -> DecisionCounts:
    """The named counts of a decision from its recorder, its snapshot ``tree`` and the search's ``result``."""
    final_depth = int(getattr(result, "depth", 0) or tree.depth)
    move = getattr(result, "move", None)
    try:
        final_move: str | None = None if move is None else str(game.format_move(state, move))
    except Exception:  # noqa: BLE001 - a label is never worth failing a screen for
        final_move = str(move)
    root = tree.nodes[0] if tree.nodes else None
    total = tree.total_nodes or recorder.total_nodes or int(getattr(result, "nodes", 0))
    extra = getattr(result, "extra", None) or {}
    cut = extra.get("cutoffs")
    part = extra.get("partial")
    unfinished = (int(part["depth"]), int(part["root_moves"]), int(part["of"])) if isinstance(part, dict) else None
    return DecisionCounts(
        shown_depth=tree.depth or final_depth, shown_nodes=tree.visited, drawn_nodes=tree.recorded_visits,
        shown_whole=not tree.truncated, shown_value=float(root.value) + 0.0 if root is not None else 0.0,
        shown_move=tree.pv[0] if tree.pv else None, total_nodes=total, iterations=recorder.iterations,
        final_depth=final_depth, final_value=float(getattr(result, "value", 0.0)) + 0.0, final_move=final_move,
        max_nodes=recorder.max_nodes, shown_cutoffs=tree.cutoffs, shown_pruned=tree.pruned_subtrees,
        total_cutoffs=cut if isinstance(cut, int) else None, proofs=tree.proofs, unfinished=unfinished)


def shown_iteration_text(c: DecisionCounts) -> str | None:
    """What the tree shows when it is not simply the decision (``None`` when it is, :attr:`DecisionCounts.
    tells_the_decision`): ``Depth 13 shown: value -3, best move 11-15 (the move came from depth 14)``. The
    overlay's header prints it at the size of the title's numbers; the exports' header as one of its lines
    (:func:`shown_iteration_words`)."""
    if c.tells_the_decision:
        return None
    return shown_iteration_words(c.shown_depth, c.shown_value, c.shown_move, c.final_depth, c.final_value,
                                 c.final_move, recorded=None if c.shown_whole else c.drawn_nodes, proofs=c.proofs,
                                 unfinished=c.unfinished[0] if c.unfinished else None)


def decision_summary(game: Any, state: Any, counts: DecisionCounts, algorithm: str) -> dict[str, Any]:
    """The exports' summary of a recorded decision (the header of the SVG/PNG/DOT and ``"summary"`` in JSON).

    ``move``, ``value`` and ``depth`` are the SHOWN iteration's (its best move, its root's value, its depth), so
    the header agrees with the picture; ``iteration_nodes`` is that iteration's node count (``recorded_nodes`` of
    them stored, ``capture_nodes`` the capture search below its leaves, counted and never stored),
    ``total_nodes`` the whole decision's (all iterations); ``cutoffs`` and ``pruned_subtrees`` the shown
    iteration's (:func:`ai.kernel.numbers.cutoff_text`), ``total_cutoffs`` every iteration's (``analyze``'s). When the
    move came from a deeper iteration, ``final_move``, ``final_value`` and ``final_depth`` say what the decision
    was; ``final_unfinished_depth`` the depth of the stopped iteration it came from (``partial``).
    """
    s: dict[str, Any] = {"game": game.name, "position": game.format_position(state),
                         "move": counts.shown_move if counts.shown_move is not None else counts.final_move,
                         "value": counts.shown_value, "depth": counts.shown_depth, "algorithm": algorithm,
                         "iteration_nodes": counts.shown_nodes, "recorded_nodes": counts.drawn_nodes,
                         "total_nodes": counts.total_nodes, "iterations": counts.iterations,
                         "cutoffs": counts.shown_cutoffs, "pruned_subtrees": counts.shown_pruned}
    if counts.capture_nodes:
        s["capture_nodes"] = counts.capture_nodes
    if counts.total_cutoffs is not None:
        s["total_cutoffs"] = counts.total_cutoffs
    if (not counts.same_as_final or counts.shown_move != counts.final_move
            or counts.shown_value != counts.final_value or counts.unfinished is not None):
        s.update({"final_move": counts.final_move, "final_value": counts.final_value,
                  "final_depth": counts.final_depth})
    if counts.unfinished is not None:
        s["final_unfinished_depth"] = counts.unfinished[0]
    return s


def record_decision(game_name: str, position: str | None, spec: str, max_nodes: int | None = None
                    ) -> tuple[Any, Any, SearchResult, SearchTree]:
    """Run one agent decision with the window's :class:`~ai.teaching.tree_recorder.DecisionRecorder` attached.

    Args:
        game_name: a registered game (``tictactoe``, ``checkers``, ``pig`` ...).
        position: the position in the game's notation, or ``None`` for the start.
        spec: the agent spec (a searching agent: minimax, alphabeta, expectimax or a preset).
        max_nodes: recorder bound (default: the overlay's, :func:`recorder_bound`).

    Returns:
        ``(game, state, result, tree)``; the tree is the iteration the overlay would show (the deepest recorded
        whole), with its ``depth`` and the decision's ``total_nodes``.

    Raises:
        GameError: bad game, position or agent, an agent that does not search, or a move from the opening book
            (no search ran).
    """
    game, state, result, rec = record_decision_model(game_name, position, spec, max_nodes)
    return game, state, result, rec.snapshot(tuple(result.pv))


def record_decision_model(game_name: str, position: str | None, spec: str, max_nodes: int | None = None
                          ) -> tuple[Any, Any, SearchResult, DecisionRecorder]:
    """As :func:`record_decision`, returning the recorder itself (the decision's model) instead of its tree."""
    agent = make_agent(game_name, spec)
    game = agent.game
    state = game.initial_state() if position is None else game.parse_position(position)
    if agent.is_human or agent.settings.algorithm in ("random", "optimal"):
        raise GameError(f"agent {agent.settings.algorithm!r} does not search a tree; use minimax, alphabeta "
                        "or expectimax")
    if not game.is_chance(state) and not game.actions(state):
        raise GameError("the position is over: there is no decision to record")
    rec = make_recorder(game, agent, state, max_nodes)
    if not isinstance(rec, DecisionRecorder):
        raise GameError(f"agent {agent.settings.algorithm!r} does not search a minimax tree"
                        + (" (record_mcts_decision records mcts)" if isinstance(rec, MCTSRecorder) else ""))
    result = agent.choose(state, recorder=rec)
    if result.stop_reason == StopReason.BOOK:  # no search ran: an empty tree would print value 0 at depth 0
        off = f"{spec},book=off" if ":" in spec else f"{spec}:book=off"
        raise GameError(f"{spec} plays {game.format_move(state, result.move)} from the opening book here, so there "
                        f"is no search tree to record; {off} records its search")
    if result.extra.get("solver") is True:  # the exact solver proved it: no tree was recorded
        off = f"{spec},exact=off" if ":" in spec else f"{spec}:exact=off"
        raise GameError(f"{spec} plays {game.format_move(state, result.move)} as proved by the exact solver "
                        f"({result.outcome} in {result.plies_to_end}), which records no search tree; {off} records "
                        "its search")
    return game, state, result, rec


def record_mcts_decision(game_name: str, position: str | None, spec: str
                         ) -> tuple[Any, Any, SearchResult, MCTSTrace]:
    """Run one ``mcts`` decision with an :class:`~ai.teaching.mcts_record.MCTSRecorder` attached (``main.py tree GAME
    --agent mcts...``): ``(game, state, result, trace)``.

    Raises:
        GameError: bad game, position or agent, an agent other than ``mcts``, or a position that is over or a
            chance node.
    """
    agent = make_agent(game_name, spec)
    game = agent.game
    state = game.initial_state() if position is None else game.parse_position(position)
    if agent.settings.algorithm != "mcts":
        raise GameError(f"agent {agent.settings.algorithm!r} is not mcts")
    rec = MCTSRecorder(game)
    result = agent.choose(state, recorder=rec)
    return game, state, result, rec.snapshot()
