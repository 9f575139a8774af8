"""The race: several agents search the same position one after the other, each with its progress recorded.

One model for the two screens that show it, ``python main.py compare`` (:mod:`gameplay.cli.compare`) and the
window's race view (:mod:`gameplay.ui.play.race_scene`), so they can never disagree. :func:`run_race` runs each agent
spec in turn on the position and returns a :class:`Race`: per agent its move, value, depth, nodes (for ``mcts``
tree nodes and simulations), time and why it stopped, or the error that kept it from running (a bad spec, a
human, an agent that does not fit the game such as expectimax on tic-tac-toe); the others still run. Each
agent's **timeline** is every progress report of its search (``ai.kernel.core.SearchInfo``: alpha-beta and minimax
after each completed iteration of iterative deepening, expectimax likewise, ``mcts`` every
``ai.kernel.mcts.MCTS.info_every`` simulations and once at the end, Pig's ``optimal`` once) plus its final answer, so
"how the choice evolved over time" is data the views draw and the exports write.

With a budget (``compare --time T``, the window's "Time budget") every agent gets the same ``T`` seconds: its own
depth and simulation limits are dropped (an agent file's ``SETTINGS`` too: its worker process is built from the
settings resolved here), so each goes as far as the time allows; without one each keeps its own
limits. This is the picture the course draws in words: minimax against alpha-beta against alpha-beta with move
ordering and a transposition table (the same value at equal depth, far fewer nodes, so deeper in equal time),
and Monte Carlo tree search beside them.

Never imports pygame or the window: ``ai`` and ``gameplay.rules`` only.
"""

from __future__ import annotations

import csv
import io
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ai.agents.agent_base import Agent, AgentError
from ai.agents.agents import build_agent, describe_spec, parse_settings
from ai.agents.game_parts import agent_parts
from ai.agents.profiles import profile_for
from ai.kernel.core import SearchInfo, SearchResult, StopReason
from gameplay.rules.base import Game, GameError


def race_agents(game_name: str) -> tuple[str, ...]:
    """The window's default line-up of ``game_name`` (its agents' parts' ``race_agents``, :mod:`ai.agents.game_parts`):
    tic- tac-toe and checkers race minimax, plain alpha-beta (AIMA's, no ordering, table or PVS), alpha-beta with
    ordering, table and PVS, (checkers) the ``expert`` preset with its opening book off (a book move is no search: no
    nodes, no depth, nothing to race), and Monte Carlo tree search, seeded; Pig: expectimax, MCTS and the exact optimal
    policy.

    Raises: UnknownGameError: not a registered game."""
    return agent_parts(game_name).race_agents


def race_budget(game_name: str) -> float:
    """The window's default budget of ``game_name`` in seconds, the same for every agent (``compare --time``; the
    agents' parts' ``race_budget``).

    Raises:
        UnknownGameError: not a registered game.
    """
    return agent_parts(game_name).race_budget


BUDGET_CHOICES: tuple[float | None, ...] = (0.1, 0.3, 1.0, 3.0, None)
"""The budgets the window offers, in seconds; ``None`` is "own" (each agent keeps its own limits)."""


@dataclass(frozen=True)
class TimelinePoint:
    """One progress report of an agent's search: its choice at that moment."""

    elapsed_s: float
    """Seconds since this agent's search started."""
    move: str
    """The move the agent would play then, in the game's notation (``""`` when the report named none)."""
    value: float
    """Its value then, for the side to move, in the agent's units (``mcts``: a mean in ``[-1, 1]``)."""
    depth: int
    """Depth in plies of the completed iteration (``mcts``: the deepest tree node so far)."""
    nodes: int
    """Nodes visited so far (``mcts``: tree nodes)."""

    def to_json(self) -> dict[str, Any]:
        """The point as a JSON-ready dict with the field names above."""
        return {"elapsed_s": self.elapsed_s, "move": self.move, "value": self.value, "depth": self.depth,
                "nodes": self.nodes}


@dataclass(frozen=True)
class RaceEntry:
    """One agent of a race: its answer, its timeline, or the error that kept it from running.

    While the agent runs (``running``), the answer fields are ``None`` and the timeline grows; afterwards exactly
    one of ``error`` and ``move`` is set.
    """

    spec: str
    """The agent spec as given (``NAME[:key=value,...]``, CLI.md "Agents")."""
    description: str = ""
    """The agent's own description (``Agent.describe()``, budget included) with the settings its spec gives
    (:func:`ai.agents.agents.describe_spec`: ``expert:book=off (alphabeta), 1 s/move``), or the spec when it could
    not be built."""
    agent_description: str = ""
    """``Agent.describe()`` alone (``""`` when the spec could not be built): the window's column heads, whose lanes
    already show the spec's settings (:func:`gameplay.ui.play.race_draw.lane_label`), so the head need not repeat
    them."""
    settings: dict[str, Any] | None = None
    """The agent's settings as JSON (``AgentSettings.to_json()``), ``None`` when the spec did not parse."""
    move: str | None = None
    """The chosen move in the game's notation."""
    value: float | None = None
    """The value of the choice for the side to move, in the agent's units (``mcts``: the root's mean in
    ``[-1, 1]``; Pig's searches: expected utility in ``[-1, 1]``)."""
    outcome: str | None = None
    """``"win"``, ``"loss"`` or ``"draw"`` when the value is proven, else ``None``."""
    plies_to_end: int | None = None
    """Plies to the end under best play when ``outcome`` is set and its length known."""
    depth: int | None = None
    """Deepest completed iteration in plies (``mcts``: the deepest tree node)."""
    nodes: int | None = None
    """Nodes visited in all (``mcts``: tree nodes created)."""
    simulations: int | None = None
    """``mcts`` only: simulations run."""
    elapsed_s: float | None = None
    """Wall-clock seconds the agent took."""
    stop_reason: StopReason | None = None
    """Why it stopped (``SearchResult.stop_reason``: ``"depth"``, ``"time"``, ``"simulations"``, ``"proven"``,
    ``"cancelled"``, ``"table"``...)."""
    book_origin: str | None = None
    """For a move from the opening book (``stop_reason`` ``"book"``): where it comes from, in words
    (``SearchResult.extra["book_origin"]``); else ``None``."""
    book_read_s: float | None = None
    """Seconds of ``elapsed_s`` spent reading the opening book file (its first use in the process), else ``None``."""
    exact: dict[str, Any] | None = None
    """The exact solver's figures of the answer (agent key ``exact``): ``SearchResult.extra``'s ``solver`` (True: it
    proved the position; False: it did not, and the search had the rest), and those there are of
    ``null_window_tests``, ``book_hits``, ``exact_score`` (a proof) or ``solver_s``, ``solver_nodes``,
    ``solver_book_hits``, ``search_s`` (an unfinished try: ``nodes`` are then the search's alone,
    ``elapsed_s`` the whole decision's); ``None`` when the agent has no solver."""
    timeline: tuple[TimelinePoint, ...] = ()
    """Every progress report in order, then the final answer as the last point."""
    error: str | None = None
    """Why the agent could not run (one line), else ``None``."""
    running: bool = False
    """True while the agent is searching (a snapshot handed to ``on_progress``)."""
    started_at: float | None = None
    """``time.perf_counter()`` when its search started (a view extends a running lane to now); ``None`` before."""

    @property
    def ok(self) -> bool:
        """True when the agent ran to an answer."""
        return self.error is None and not self.running and self.move is not None

    @property
    def algorithm(self) -> str | None:
        """The agent's algorithm (``"minimax"``, ``"mcts"``...), ``None`` when the spec did not parse."""
        return None if self.settings is None else str(self.settings.get("algorithm"))

    def to_json(self) -> dict[str, Any]:
        """The ``compare --json`` result row: ``agent`` (settings), ``spec``, ``description``, ``move``,
        ``value``, ``depth``, ``nodes``, ``elapsed_s``, ``stop_reason``, ``simulations`` for ``mcts``,
        ``book_origin`` for a move from the opening book (``book_read_s`` when reading the book took some of its
        time), the exact solver's figures (:attr:`exact`'s keys) for an agent with ``exact=on``, and ``timeline``
        (a list of :meth:`TimelinePoint.to_json`)."""
        row: dict[str, Any] = {
            "agent": self.settings, "spec": self.spec, "description": self.description, "move": self.move,
            "value": self.value, "depth": self.depth, "nodes": self.nodes, "elapsed_s": self.elapsed_s,
            "stop_reason": self.stop_reason}
        if self.simulations is not None:
            row["simulations"] = self.simulations
        if self.book_origin is not None:
            row["book_origin"] = self.book_origin
        if self.book_read_s is not None:
            row["book_read_s"] = self.book_read_s
        if self.exact is not None:
            row.update(self.exact)
        row["timeline"] = [p.to_json() for p in self.timeline]
        return row


@dataclass(frozen=True)
class Race:
    """A race at one position: the agents' entries in the order given (a snapshot; never changed)."""

    game: str
    """The game's command-line name."""
    position: str
    """The position in the game's notation (RULES.md)."""
    to_move: str
    """The name of the side to move (values are from its point of view)."""
    budget: float | None
    """Seconds every agent got, or ``None`` when each kept its own limits."""
    specs: tuple[str, ...]
    """Every agent spec of the race, in order (``entries`` holds those started so far)."""
    entries: tuple[RaceEntry, ...] = ()
    """The agents started so far, in order: finished, failed, or the one running."""
    cancelled: bool = False
    """True when the race was stopped before every agent had run (the stop event)."""
    done: bool = False
    """True once the race is over (every agent ran, or it was cancelled)."""
    crashed: str | None = None
    """Set by a view when the race's thread died of an unexpected exception (the text), else ``None``."""

    @property
    def results(self) -> list[RaceEntry]:
        """The agents that ran to an answer, in order."""
        return [e for e in self.entries if e.ok]

    @property
    def errors(self) -> list[RaceEntry]:
        """The agents that could not run, in order."""
        return [e for e in self.entries if e.error is not None]

    @property
    def running(self) -> RaceEntry | None:
        """The agent searching now, or ``None``."""
        return next((e for e in self.entries if e.running), None)

    def progress_text(self) -> str:
        """One line for a progress display: ``"running 2 of 5: alphabeta..."``, ``"done"``, ``"cancelled"``."""
        if self.crashed is not None:
            return f"the race stopped: {self.crashed}"
        if self.cancelled:
            return f"cancelled after {len(self.results)} of {len(self.specs)} agents"
        if self.done:
            return f"done: {len(self.results)} of {len(self.specs)} agents ran"
        run = self.running
        if run is None:
            return "starting..."
        return f"running {len(self.entries)} of {len(self.specs)}: {run.spec}..."

    def to_json(self) -> dict[str, Any]:
        """The ``compare --json`` object: ``game``, ``position``, ``time`` (the budget or ``null``),
        ``results`` (:meth:`RaceEntry.to_json` of each agent that ran), ``errors`` (``{"agent": spec,
        "error": text}``) and ``cancelled``."""
        return {"game": self.game, "position": self.position, "time": self.budget,
                "results": [e.to_json() for e in self.results],
                "errors": [{"agent": e.spec, "error": e.error} for e in self.errors],
                "cancelled": self.cancelled}

    def to_csv(self) -> str:
        """The race as CSV text: a header and one row per agent (``agent`` (the spec), ``move``, ``value``,
        ``depth``, ``simulations``, ``nodes``, ``time_s``, ``stop_reason``, ``error``; empty cells where a
        figure does not apply), a blank line, then a header and one row per timeline point (``agent``,
        ``elapsed_s``, ``move``, ``value``, ``depth``, ``nodes``). Seconds, plies and node counts."""
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["agent", "move", "value", "depth", "simulations", "nodes", "time_s", "stop_reason", "error"])

        def cell(v: Any) -> Any:
            return "" if v is None else v

        for e in self.entries:
            w.writerow([e.spec, cell(e.move), cell(e.value), cell(e.depth), cell(e.simulations), cell(e.nodes),
                        cell(e.elapsed_s), cell(e.stop_reason), cell(e.error)])
        w.writerow([])
        w.writerow(["agent", "elapsed_s", "move", "value", "depth", "nodes"])
        for e in self.entries:
            for p in e.timeline:
                w.writerow([e.spec, p.elapsed_s, p.move, p.value, p.depth, p.nodes])
        return out.getvalue()


def race_agent(game_name: str, spec: str, budget: float | None) -> Agent:
    """The agent of ``spec`` for the game, with ``budget`` seconds replacing its own limits when given.

    Args:
        game_name: the game's command-line name.
        spec: ``NAME[:key=value,...]`` (CLI.md "Agents").
        budget: seconds for every agent (its ``depth`` and ``simulations`` dropped), or ``None``.

    Raises:
        AgentError: the spec is bad, names a human, or an agent the game does not take.
        GameError: unknown game.
    """
    profile = profile_for(game_name)
    settings = parse_settings(spec, profile)
    if settings.algorithm == "human":
        raise AgentError("a human does not search; a race runs AI agents")
    if budget is not None:
        settings = settings.with_keys({"time": budget, "depth": None, "simulations": None})
    return build_agent(profile, settings)


def _move_text(game: Game[Any, Any], state: Any, move: Any) -> str:
    if move is None:
        return ""
    try:
        return game.format_move(state, move)
    except GameError:
        return repr(move)


def _finished(entry: RaceEntry, game: Game[Any, Any], state: Any, res: SearchResult) -> RaceEntry:
    """``entry`` with the agent's answer ``res`` and the answer as the timeline's last point."""
    move = _move_text(game, state, res.move)
    value = float(res.value) + 0.0
    last = TimelinePoint(res.elapsed, move, value, res.depth, res.nodes)
    sims = res.extra.get("simulations") if res.extra else None
    return replace(entry, move=move, value=value, outcome=res.outcome, plies_to_end=res.plies_to_end,
                   depth=res.depth, nodes=res.nodes, simulations=int(sims) if sims is not None else None,
                   elapsed_s=res.elapsed, stop_reason=res.stop_reason,
                   book_origin=(res.extra or {}).get("book_origin"), book_read_s=(res.extra or {}).get("book_read_s"),
                   exact=_exact_figures(res.extra or {}), timeline=entry.timeline + (last,),
                   running=False)


EXACT_KEYS = ("solver", "null_window_tests", "book_hits", "exact_score", "solver_s", "solver_nodes",
              "solver_book_hits", "search_s")
"""The keys of ``SearchResult.extra`` that say what the exact solver did (:attr:`RaceEntry.exact`)."""


def _exact_figures(extra: dict[str, Any]) -> dict[str, Any] | None:
    if "solver" not in extra:
        return None
    return {k: extra[k] for k in EXACT_KEYS if k in extra}


def run_race(game: Game[Any, Any], state: Any, specs: Sequence[str], budget: float | None, *,
             stop_event: threading.Event | None = None,
             on_progress: Callable[[Race], None] | None = None) -> Race:
    """Run each agent of ``specs`` at ``state`` in turn, recording each one's timeline.

    Args:
        game: the game (its ``name`` picks the agents' profile).
        state: the position; never changed. Each agent must be able to decide it (an agent that cannot, e.g.
            at a chance node or when the game is over, becomes an error entry).
        specs: agent specs, in the order to run them.
        budget: seconds for every agent (``compare --time``; their depth and simulation limits dropped), or
            ``None`` for each agent's own limits.
        stop_event: set from another thread to cancel: the running agent stops (the agents honour it, returning
            their best so far with ``stop_reason == "cancelled"``), the rest are not started, and the race
            says ``cancelled``.
        on_progress: called with a fresh immutable :class:`Race` snapshot when an agent starts, at each of its
            progress reports, and when it ends (on the calling thread: the one running the searches).

    Returns:
        The finished (or cancelled) race.

    Raises:
        Exception: whatever an agent raises that is not a ``GameError`` (a bug, not an unfit agent).
    """
    race = Race(game.name, game.format_position(state), _to_move_name(game, state), budget, tuple(specs))

    def publish() -> None:
        if on_progress is not None:
            on_progress(race)

    for spec in specs:
        if stop_event is not None and stop_event.is_set():
            race = replace(race, cancelled=True)
            break
        try:
            agent = race_agent(game.name, spec, budget)
        except GameError as e:
            race = replace(race, entries=race.entries + (RaceEntry(spec, description=spec, error=str(e)),))
            publish()
            continue
        entry = RaceEntry(spec, description=describe_spec(agent, spec), agent_description=agent.describe(),
                          settings=agent.settings.to_json(), running=True, started_at=time.perf_counter())
        index = len(race.entries)
        race = replace(race, entries=race.entries + (entry,))
        publish()

        def on_info(info: SearchInfo, index: int = index) -> None:
            nonlocal race
            cur = race.entries[index]
            point = TimelinePoint(info.elapsed, _move_text(game, state, info.move if info.move is not None
                                                            else (info.pv[0] if info.pv else None)),
                                  float(info.value) + 0.0, info.depth, info.nodes)
            cur = replace(cur, timeline=cur.timeline + (point,))
            race = replace(race, entries=race.entries[:index] + (cur,) + race.entries[index + 1:])
            publish()

        try:
            res = agent.choose(state, stop_event, on_info)
        except GameError as e:
            done = replace(race.entries[index], running=False, error=str(e))
        else:
            done = _finished(race.entries[index], game, state, res)
        race = replace(race, entries=race.entries[:index] + (done,) + race.entries[index + 1:])
        if stop_event is not None and stop_event.is_set():
            race = replace(race, cancelled=len(race.entries) < len(specs) or done.stop_reason == StopReason.CANCELLED)
            if race.cancelled:
                break
        publish()
    race = replace(race, done=True)
    publish()
    return race


def _to_move_name(game: Game[Any, Any], state: Any) -> str:
    """The side to move's name (``"X"``, ``"Black"``, ``"1"``), or ``"chance"`` / ``"nobody"``."""
    if game.is_terminal(state):
        return "nobody"
    if game.is_chance(state):
        return "chance"
    return str(game.player_names[game.to_move(state)])


__all__ = ["BUDGET_CHOICES", "Race", "RaceEntry", "TimelinePoint", "race_agent", "race_agents", "race_budget",
           "run_race"]
