"""Isolated play: one game between two agents, each in a worker process of its own (:mod:`ai.agents.agent_process`).

The contract a match or a tournament calls (:func:`play_isolated` on an :class:`ArenaTask`); both are top-level and
picklable, so a task can run in this process, a ``ProcessPoolExecutor`` worker or a Dask worker. Each agent plays from
its own ``spawn`` process, started for the game and kept until it ends; the referee (this function) keeps the position,
samples the dice with the task's seed and checks every move again. A failure costs the agent at fault that game and
nothing else: a move later than the per-move limit plus :data:`ai.agents.agent_process.GRACE_S` on the agent's own clock
(``"time"``: wall time, or for an agent with ``clock=cpu`` its process's CPU time with a wall-clock cap,
:mod:`ai.agents.move_clock`), an exception or a dead process (``"crash"``), an illegal move (``"illegal move"``), an
answer that is not a move (``"malformed answer"``), going over the memory limit (``"memory"``). The game ends there, the
opponent wins, and the reason is recorded. An agent that cannot even be read (a missing file, a syntax error) loses with
``"crash"``; one that cannot start (its file fails to load, or its top-level code runs past the load timeout) is named
in the result's ``load_failed``, so a tournament can disqualify it instead of paying the timeout in every game. What
each agent prints is collected, capped (``ai.agents.agent_watch``), in ``output``.

Per-move limit: the task's ``time_limit_s`` for every agent; without one, each agent's own ``time`` setting (a file
agent without one: :data:`ai.agents.agent_file.DEFAULT_FILE_TIME_S`; the project's agents without one have no limit and
stop by their depth). A searching agent of the project's gets ``time = min(time, limit)``, so it plays within the limit
by itself.
"""

from __future__ import annotations

import random
import time
from dataclasses import asdict, dataclass
from typing import Any

from ai.agents.agent_base import AgentSettings
from ai.agents.agent_file import move_limit_s
from ai.agents.agent_process import DEFAULT_MEMORY_MB, AgentFault, AgentProcess
from ai.agents.agents import FACTORY
from ai.agents.move_clock import TimeControl
from gameplay.rules.archive import ArchivedGame
from gameplay.rules.base import GameError
from gameplay.rules.limits import MAX_PLIES
from gameplay.rules.openings import Opening
from gameplay.rules.referee import sample_chance
from gameplay.rules.registry import game_info, games


@dataclass(frozen=True)
class ArenaTask:
    """One game to play in isolation (picklable)."""

    key: str
    """Unique id of the game in its tournament or match."""
    game: str
    """``"tictactoe"``, ``"checkers"`` or ``"pig"``."""
    agents: tuple[str, str]
    """Agent specs (CLI.md, "Agents"); ``agents[0]`` plays player 0 (moves first), ``agents[1]`` player 1."""
    opening: str | None = None
    """An opening of one of the game's decks (``GameInfo.openings``), by any of its names (checkers: a ballot's
    label ``ACF #5 9-13 22-18 6-9 (...)``, ``ACF #5`` or ``5``), or ``None``."""
    position: str | None = None
    """A start position in the game's notation, or ``None`` (the start; not with ``opening``)."""
    time_limit_s: float | None = None
    """Per-move limit in seconds for every agent (``None``: each agent's own, see the module docstring)."""
    seed: int = 1
    """Seeds the dice (Pig) and the agents' generators (agent ``i`` gets ``2 * seed + i + 1``)."""
    memory_limit_mb: int | None = DEFAULT_MEMORY_MB
    """Address-space cap of each agent's process in MiB (``None``: none; no cap where ``resource`` is missing)."""
    max_plies: int = MAX_PLIES
    """Plies after which the game is stopped as a draw (``"move limit"``; ``match --max-plies``)."""


@dataclass(frozen=True)
class ArenaResult:
    """How one isolated game went (picklable, JSON-ready with :meth:`to_json`)."""

    key: str
    """The task's key."""
    winner: int | None
    """0, 1, or ``None`` for a draw."""
    termination: str
    """The game's own (``"three in a row"``, ``"no legal move"``, ``"40-move rule"``, ...), ``"move limit"``, or
    one of :data:`ai.agents.agent_process.FAULTS`."""
    forfeit_by: int | None
    """The player at fault, or ``None``."""
    reason: str
    """The detail of a forfeit (exception text, the illegal move, the seconds used, exit code); empty otherwise."""
    plies: int
    """Plies played (chance outcomes included)."""
    moves: tuple[str, ...]
    """The moves in the game's notation (Pig's dice as ``die=N``)."""
    record: str | None
    """The game in its game's archive format (``GameInfo.archive``; event ``arena``, round the task's key, the
    players, the opening's label, the termination), or ``None`` for a game without one."""
    elapsed_s: float
    """Wall-clock seconds for the whole game (starting the processes included)."""
    load_failed: tuple[int, ...] = ()
    """The players whose agent could not start: a bad spec, a file that failed to load or went past the load
    timeout (``ai.agents.agent_process.LOAD_TIMEOUT_S``)."""
    output: tuple[str, str] = ("", "")
    """What each player's agent printed: the first lines, then ``... N more lines not shown``
    (``ai.agents.agent_watch``)."""
    judged_by: tuple[str | None, str | None] = (None, None)
    """The clock the referee judged each player's moves on (``wall`` or ``cpu``: the agent's own clock), ``None``
    for a player without a per-move limit or whose agent could not be built."""

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON-ready dict (every field; ``moves``, ``load_failed`` and ``output`` as lists)."""
        d = asdict(self)
        d["moves"] = list(self.moves)
        d["load_failed"] = list(self.load_failed)
        d["output"] = list(self.output)
        d["judged_by"] = list(self.judged_by)
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ArenaResult:
        """The result written by :meth:`to_json` (a tournament journal's line).

        Raises:
            KeyError: a field is missing.
        """
        out = d.get("output") or ("", "")
        judged = d.get("judged_by") or (None, None)
        return cls(str(d["key"]), d["winner"], str(d["termination"]), d["forfeit_by"], str(d["reason"]),
                   int(d["plies"]), tuple(str(m) for m in d["moves"]), d["record"], float(d["elapsed_s"]),
                   tuple(int(i) for i in d.get("load_failed", ())), (str(out[0]), str(out[1])),
                   (None if judged[0] is None else str(judged[0]), None if judged[1] is None else str(judged[1])))


def time_control(settings: AgentSettings, time_limit_s: float | None) -> TimeControl | None:
    """How the referee judges the moves of an agent with ``settings`` in a game whose per-move limit is
    ``time_limit_s`` (``None``: each agent's own, module docstring): on the agent's own clock, with the limit of
    :func:`ai.agents.agent_file.move_limit_s`; ``None`` when the agent has no limit."""
    limit = move_limit_s(settings, time_limit_s)
    return None if limit is None else TimeControl(settings.clock, limit)


def judged_by(game_name: str, spec: str, time_limit_s: float | None) -> TimeControl | None:
    """:func:`time_control` of an agent spec (for the reports: ``tournament``, ``match``); ``None`` also for a spec
    that cannot be read here (that agent loses its games by ``crash`` before any move is timed)."""
    from ai.agents.agents import parse_settings
    from ai.agents.profiles import profile_for
    try:
        return time_control(parse_settings(spec, profile_for(game_name)), time_limit_s)
    except (GameError, OSError):
        return None


def find_opening(game_name: str, name: str) -> Opening:
    """The opening ``name`` names among the game's decks (``GameInfo.openings``, the first deck that has it).

    Raises:
        GameError: the game has no decks, or none of them has an opening of that name (the first deck's message).
    """
    decks = game_info(game_name).openings
    if not decks:
        have = " and ".join(f"{g.name} {d.name}" for g in games() for d in g.openings)
        raise GameError(f"openings are {have}; {game_name} has none")
    for deck in decks[1:]:
        try:
            return deck.find(name)
        except GameError:
            continue
    return decks[0].find(name)


def start_of(game: Any, task: ArenaTask) -> tuple[Any, str | None]:
    """The start position of a task and its opening label.

    Raises:
        GameError: an opening for a game without opening decks, both an opening and a position, an unknown
            opening, a malformed position, or a position that is over.
    """
    label = None
    if task.opening is not None:
        if not game_info(game.name).openings:
            find_opening(game.name, task.opening)  # raises: the game has none
        if task.position is not None:
            raise GameError("give an opening or a position, not both")
        opening = find_opening(game.name, task.opening)
        state, label = game.parse_position(opening.position), opening.label
    else:
        state = game.initial_state() if task.position is None else game.parse_position(task.position)
    if game.is_terminal(state):
        raise GameError(f"the start position {game.format_position(state)} is over: there is no game to play")
    return state, label


def play_isolated(task: ArenaTask) -> ArenaResult:
    """Play one game, each agent in a worker process of its own (see the module docstring).

    Args:
        task: the game to play.

    Returns:
        The result; a failing agent loses it (``forfeit_by``), with the reason. When both agents fail before
        the first move, the game is a draw with both reasons.

    Raises:
        GameError: the task itself is wrong (unknown game, opening or malformed position). A bad agent spec is the
            agent's fault, never an exception.
    """
    from ai.agents.agents import parse_settings
    from ai.agents.profiles import profile_for
    profile = profile_for(task.game)
    game = profile.game
    start, label = start_of(game, task)
    t0 = time.perf_counter()
    procs: list[AgentProcess | None] = []
    faults: list[AgentFault | None] = []
    for i, spec in enumerate(task.agents):
        try:
            settings = parse_settings(spec, profile)
            if settings.algorithm == "human":
                raise GameError("a human cannot play an isolated game")
        except GameError as e:
            procs.append(None)
            faults.append(AgentFault("crash", f"cannot build the agent: {e}"))
            continue
        control = time_control(settings, task.time_limit_s)
        worker = AgentProcess(game.name, spec, FACTORY, seed=2 * task.seed + i + 1,
                              limit_s=None if control is None else control.limit_s, clock=settings.clock,
                              memory_limit_mb=task.memory_limit_mb, echo=False)
        worker.start()
        procs.append(worker)
        faults.append(None)
    state = start
    texts: list[str] = []
    fault: tuple[int | None, AgentFault] | None = None
    load_failed: tuple[int, ...] = ()
    try:
        for i, ready in enumerate(procs):
            if ready is not None:
                try:
                    ready.wait_ready()
                except AgentFault as e:
                    faults[i] = e
        failed = [i for i in (0, 1) if faults[i] is not None]
        load_failed = tuple(failed)
        if len(failed) == 2:
            f0, f1 = faults[0], faults[1]
            assert f0 is not None and f1 is not None
            fault = (None, AgentFault(f0.termination, f"both agents failed: player 1: {f0.reason}; player 2: "
                                                      f"{f1.reason}"))
        elif failed:
            first = faults[failed[0]]
            assert first is not None
            fault = (failed[0], first)
        rng = random.Random(task.seed)
        while fault is None and len(texts) < task.max_plies:
            if game.is_chance(state):
                outcome = sample_chance(game, state, rng)
                texts.append(game.format_move(state, outcome))
                state = game.result(state, outcome)
                continue
            if game.is_terminal(state):
                break
            player = game.to_move(state)
            mover = procs[player]
            assert mover is not None
            try:
                answer = mover.ask(state)
            except AgentFault as e:
                fault = (player, e)
                break
            texts.append(answer.text)
            state = game.result(state, answer.move)
    finally:
        for proc in procs:
            if proc is not None:
                proc.close()
    at: int | None = None
    if fault is not None:
        at, why = fault
        winner, termination, reason = (None if at is None else 1 - at), why.termination, why.reason
    else:
        out = game.outcome(state)
        reason = ""
        winner, termination = (out.winner, out.termination_text) if out is not None else (None, "move limit")
    record = _archived(game, task, start, texts, label, winner, termination)
    output = tuple("" if p is None else p.output.text() for p in procs)
    judged = tuple(None if p is None or p.time_control is None else p.time_control.clock.value for p in procs)
    return ArenaResult(task.key, winner, termination, at, reason, len(texts), tuple(texts), record,
                       time.perf_counter() - t0, load_failed, (output[0], output[1]), (judged[0], judged[1]))


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _archived(game: Any, task: ArenaTask, start: Any, texts: list[str], label: str | None, winner: int | None,
              termination: str) -> str | None:
    """The game in its archive format (``None`` for a game without one, or if it cannot be written, which a legal
    game never causes); tag values on one line."""
    archive = game_info(game.name).archive
    if archive is None:
        return None
    one_line = _one_line
    played = ArchivedGame(tuple(texts), game.format_position(start), "arena", one_line(task.key),
                          (one_line(task.agents[0]), one_line(task.agents[1])),
                          one_line(label) if label else None, one_line(termination), winner,
                          finished=termination != "move limit")
    try:
        return archive.write_games([played])
    except GameError:
        return None
