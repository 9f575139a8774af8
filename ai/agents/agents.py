"""Configurable AI opponents built from a settings record, and the per-game profiles that configure them.

An agent spec on the command line is ``NAME[:key=value,...]`` (CLI.md, "Agents") or the path of a TOML file
with the same keys (plus an optional ``[weights]`` table of feature weights). Names: ``human``, ``random``,
``minimax``, ``alphabeta``, ``expectimax``, ``optimal`` and the difficulty presets ``beginner``, ``easy``,
``medium``, ``hard``, ``expert`` that each game maps to a configured agent; ``file:PATH.py[:key=value,...]`` is an
agent or an evaluation written in a Python file (:mod:`ai.agents.agent_file`), played from a worker process of its own.
"""

from __future__ import annotations

import random
import threading
import time
import tomllib
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from ai.agents.agent_base import (
    ALGORITHMS,
    ASPIRATION_MEN,
    KEYS,
    PRESETS,
    THREAT_MEN,
    Agent,
    AgentError,
    AgentFactory,
    AgentSettings,
    GameProfile,
    applies,
    coerce_setting,
    parse_weight,
)
from ai.agents.game_parts import agent_parts
from ai.kernel.core import IterationRecorder, StopReason, classify
from ai.kernel.search import Searcher, SearchInfo, SearchOptions, SearchResult, iterative_deepening
from ai.kernel.timeman import Clock, clock_of
from gameplay.rules import limits
from gameplay.rules.base import GameError, quoted, quoted_path
from gameplay.rules.textfile import NotTextError, read_text_file

EXACT_SHARE = 0.9
"""The share of the ``time`` budget the exact solver (``exact=on``) gets; a position it does not prove in it is
searched without the solver for the rest."""
BOOK_READ_SHOWN_S = 0.05
"""Seconds of reading the opening book worth reporting beside a book move (the shipped checkers book: 0.6 s
compiled, 1.6 s pure, once a process); a book already read answers in microseconds."""

class HumanAgent(Agent):
    """Marks a side played by a person; the window asks for clicks instead of calling :meth:`choose`."""

    is_human = True

    def choose(self, state: Any, stop_event: threading.Event | None = None,
               on_info: Callable[[SearchInfo], None] | None = None, recorder: Any = None) -> SearchResult:
        raise AgentError("a human agent does not choose moves by itself")


class RandomAgent(Agent):
    """Plays a uniformly random legal move (seeded: the same seed and position give the same move sequence)."""

    def __init__(self, profile: GameProfile, settings: AgentSettings) -> None:
        super().__init__(profile, settings)
        self.rng = random.Random(settings.seed)

    def choose(self, state: Any, stop_event: threading.Event | None = None,
               on_info: Callable[[SearchInfo], None] | None = None, recorder: Any = None) -> SearchResult:
        moves = list(self.game.actions(state))
        if not moves:
            raise GameError("the position is over: there is no move to choose")
        m = self.rng.choice(moves)
        return SearchResult(m, 0.0, None, None, 0, 0, (m,), 0.0, StopReason.RANDOM)


class SearchAgent(Agent):
    """Minimax or alpha-beta with iterative deepening (``ai.kernel.search``), configured by the settings.

    With neither ``depth`` nor ``time``, it searches to the end of the game (only sensible for tic-tac-toe): to the
    game's bound on the plies left (its agents' parts' ``plies_left``) when it has one, in one pass for ``minimax``
    (:func:`ai.kernel.deepen.iterative_deepening`).

    With ``exact`` (a game with an exact solver), the solver has :data:`EXACT_SHARE` of the budget first: a proof is
    the result (``extra["solver"]`` True, no tree); otherwise the search has the rest and its result says so:
    ``extra["solver"]`` False, ``solver_s`` and ``solver_nodes`` (the unfinished solve's wall seconds and nodes),
    ``solver_book_hits`` (positions the book answered inside it) and ``search_s`` (the search's own seconds);
    ``elapsed`` is the whole decision's, and so are ``clock_s`` and ``stop_s`` (the time control's figures on the
    budget's clock: the solver's try included), ``nodes`` the search's alone
    (:func:`ai.kernel.numbers.exact_text` words it).
    """

    portable = True
    """Rebuilt from its settings in the decision worker process (``ai.agents.worker``)."""

    def __init__(self, profile: GameProfile, settings: AgentSettings) -> None:
        super().__init__(profile, settings)
        self.evaluate = profile.evaluator(settings)
        self.rng = random.Random(settings.seed)
        self._exact: Any = None

    def search_options(self) -> SearchOptions:
        """The search switches of these settings (``minimax``: no pruning, ordering, table or additions)."""
        s = self.settings.search
        minimax = self.settings.algorithm == "minimax"
        aspiration = None
        if s.aspiration:
            aspiration = ASPIRATION_MEN * self.value_unit()
        return SearchOptions(pruning=not minimax, prune=s.prune, ordering=s.ordering and not minimax,
                             tt=s.tt and not minimax, quiescence=s.quiescence, lmr=s.lmr and not minimax,
                             aspiration=aspiration, etc=s.etc and not minimax, lmr_safe=s.lmrsafe and not minimax,
                             extend=s.extend and not minimax, shots=s.shots and not minimax,
                             threats=THREAT_MEN * self.value_unit() if s.threats and not minimax else None,
                             truncate=self.value_unit() if s.truncate and not minimax else None)

    def make_searcher(self, stop_event: threading.Event | None = None,
                      recorder: IterationRecorder | None = None) -> Searcher[Any, Any]:
        """A fresh :class:`Searcher` with a new transposition table (if on)."""
        s = self.settings
        loader = self.profile.endgame_loader
        endgame = loader() if s.search.db and loader is not None else None
        searcher = Searcher(self.game, self.evaluate, self.search_options(), stop_event=stop_event,
                            recorder=recorder, endgame=endgame)
        if s.seed is not None:
            searcher.root_rng = self.rng
        return searcher

    def choose(self, state: Any, stop_event: threading.Event | None = None,
               on_info: Callable[[SearchInfo], None] | None = None, recorder: Any = None) -> SearchResult:
        s = self.settings
        t_start = time.perf_counter()
        if s.search.book and self.profile.book_loader is not None:
            res = self.book_move(state)
            if res is not None:
                return res
        limits_ = s.search_limits(self.value_unit(), latency_s=self.latency_s)
        attempt: Any = None
        if s.search.exact and self.profile.exact_play is not None:
            if self.game.is_terminal(state):
                raise GameError("the position is over: there is no move to choose")
            budget = limits_.stop_s()  # the budget less the referee's margin (ai.kernel.timeman.stop_time)
            read = clock_of(s.clock)
            c0 = read()
            share = None if budget is None else EXACT_SHARE * budget
            exact = self.exact_solver()
            proof: SearchResult | None = exact.decide(state, share, read, stop_event)
            if proof is not None:
                if on_info is not None:
                    on_info(SearchInfo(proof.depth, proof.value, proof.pv, proof.nodes, proof.elapsed, proof.move))
                return proof
            if stop_event is not None and stop_event.is_set():
                raise GameError("the search was cancelled before the solver finished")
            attempt = exact.attempt
            solver_clock_s = read() - c0  # the solver's try on the budget's clock
            if limits_.time_budget_s is not None:  # the rest of the budget, on the budget's clock, to the search
                # without the solver (its stop keeps the referee's margin: SearchLimits.stop_s)
                limits_ = replace(limits_, time_budget_s=max(limits_.time_budget_s - solver_clock_s, 0.01))
        searcher = self.make_searcher(stop_event, recorder)
        if limits_.depth is None and limits_.time_budget_s is None:  # to the end: the game's bound on the plies left
            plies_left = agent_parts(self.game.name).plies_left
            if plies_left is not None:
                limits_ = replace(limits_, depth=max(1, plies_left(state)))
        res = iterative_deepening(self.game, state, searcher, limits_, on_info)
        if s.search.exact and self.profile.exact_play is not None:
            extra: dict[str, Any] = {**res.extra, "solver": False}
            if attempt is not None:  # the solver's unfinished try: its own seconds and nodes (res.nodes: the search's)
                extra.update(solver_s=attempt.seconds, solver_nodes=attempt.nodes, solver_book_hits=attempt.book_hits,
                             search_s=res.elapsed)
                if "clock_s" in extra:  # the time control's figures are the whole decision's (the solver's try and
                    # the search, against the decision's own stop), not the search's rest: a referee learning its
                    # latency from them (ai.agents.agent_process) would take the solver's try for latency
                    extra.update(clock_s=float(extra["clock_s"]) + solver_clock_s, stop_s=budget)
            res = replace(res, elapsed=time.perf_counter() - t_start, extra=extra)
        return res

    def exact_solver(self) -> Any:
        """The game's exact solver for this agent (made on first use, kept for the game: its table carries over from
        move to move), reading the opening book inside its search only when the agent's ``book`` key is on."""
        if self._exact is None and self.profile.exact_play is not None:
            self._exact = self.profile.exact_play(self.settings.search.book)
        return self._exact

    def value_unit(self) -> float:
        """The evaluation's weight of a man (1 when it has none): the scale of a falling score
        (``ai.kernel.timeman``)."""
        return abs(self.profile.weights_of(self.settings).get("men", 1.0)) or 1.0

    def book_move(self, state: Any) -> SearchResult | None:
        """The opening book's move at ``state`` as a result with no search (reason ``"book"``, depth 0, 0 nodes;
        ``value`` is the book entry's value, also in ``extra["book_value"]`` with its depth, 0 for a move from real
        games; ``extra["book_origin"]`` says in words where it comes from, ``ai.checkers.book.BookEntry.origin``, and
        for a move from games ``extra["book_games"]`` and ``extra["book_points"]`` are the games and the mover's points;
        ``extra["book_read_s"]``: the seconds of ``elapsed`` spent reading the book file, when this call read it
        and it took at least :data:`BOOK_READ_SHOWN_S`), or
        ``None`` when the book does not have the position (or there is no book)."""
        t0 = time.perf_counter()
        loader = self.profile.book_loader
        book = loader() if loader is not None else None
        read_s = time.perf_counter() - t0  # the first call of a process reads the file (seconds); later ones are free
        if book is None:
            return None
        move = book.choose(state, self.rng if self.settings.seed is not None else None)
        if move is None:
            return None
        extra: dict[str, Any] = {"book": True}
        if read_s >= BOOK_READ_SHOWN_S:
            extra["book_read_s"] = read_s
        value = 0.0
        for entry in book.lookup(state):
            if entry.move == str(move):
                extra.update(book_value=entry.value, book_depth=entry.depth, book_origin=entry.origin())
                if getattr(entry, "from_games", False):  # checkers' entries from games: the counts behind the words
                    extra.update(book_games=entry.weight, book_points=entry.games_points)
                value = float(entry.value)
        outcome, plies = classify(value)  # a book of proofs (solved positions) says the result
        return SearchResult(move, value, outcome, plies, 0, 0, (move,), time.perf_counter() - t0, StopReason.BOOK,
                            extra)


# ----- parsing -------------------------------------------------------------------------------------------------
def split_spec(spec: str) -> tuple[str, dict[str, Any], dict[str, float] | None]:
    """``(name, settings, custom weights)`` from an agent spec ``NAME[:key=value,...]`` or a ``.toml`` file path
    (the values still text, checked by :func:`parse_settings`; the weights ``None`` unless the file has any).

    Raises:
        AgentError: an empty spec, or a file that cannot be read, is not TOML or has no ``name``.
    """
    text = spec.strip()
    if text.lower().endswith(".toml"):
        path = Path(text)
        try:
            # refused unread when too large; a BOM, CRLF or Windows-1252 read as meant
            data = tomllib.loads(read_text_file(path, f"agent file {quoted_path(text)}").text)
        except FileNotFoundError:
            raise AgentError(f"agent file {text} not found") from None
        except (OSError, NotTextError) as e:
            raise AgentError(f"cannot read agent file {text}: {getattr(e, 'strerror', None) or e}") from None
        except tomllib.TOMLDecodeError as e:
            raise AgentError(f"agent file {text} is not valid TOML: {e}") from None
        except limits.RangeError as e:
            raise AgentError(str(e)) from None
        name = data.pop("name", data.pop("algorithm", None))
        if not isinstance(name, str):
            raise AgentError(f"agent file {text} needs name = \"alphabeta\" (or another agent name)")
        weights = data.pop("weights", None)
        custom = None
        if isinstance(weights, dict):
            try:
                custom = {str(k): parse_weight(str(k), v) for k, v in weights.items()}
            except AgentError as e:
                raise AgentError(f"agent file {quoted_path(text)}: [weights]: {e}") from None
        elif weights is not None:
            data["weights"] = weights
        return name.strip().lower(), data, custom
    name, _, rest = text.partition(":")
    name = name.strip().lower()
    if not name:
        raise AgentError(f"agent spec {quoted(spec)} is empty; expected NAME[:key=value,...], e.g. alphabeta:depth=4")
    opts: dict[str, Any] = {}
    if rest.strip():
        for part in rest.split(","):
            k, eq, v = part.partition("=")
            k = k.strip().lower()
            if not eq or not k or not v.strip():
                raise AgentError(f"agent setting {quoted(part.strip())} in {quoted(spec)} is not key=value "
                                 f"(keys: {', '.join(KEYS)})")
            if k in opts:
                raise AgentError(f"agent setting {k} given twice in {quoted(spec)}")
            opts[k] = v.strip()
    return name, opts, None


def parse_settings(spec: str, profile: GameProfile) -> AgentSettings:
    """Read an agent spec for the profile's game.

    Args:
        spec: ``NAME[:key=value,...]`` or the path of a ``.toml`` file (CLI.md, "Agents").
        profile: the game's profile (presets, defaults, accepted algorithms).

    Returns:
        The settings with the game's defaults filled in.

    Raises:
        AgentError: unknown name, key or value, a value of the wrong type, an algorithm the game refuses
            (e.g. expectimax on checkers, alpha-beta on Pig), or a key that does not apply to the algorithm given
            another value than its default (``mcts:quiescence=on``: ``quiescence applies to minimax and alphabeta,
            not mcts``; at its default it is accepted, as old specs carry every switch); for ``file:`` specs, a
            file that is missing, does not parse or does not define one of the expected functions
            (``ai.agents.agent_file.inspect_agent_file``).
    """
    from ai.agents.agent_file import is_file_spec, parse_file_settings
    if is_file_spec(spec):
        return parse_file_settings(spec, profile)
    name, opts, custom = split_spec(spec)
    return agent_settings(profile, name, opts, custom)


def applying_spec(spec: str, profile: GameProfile) -> tuple[str, tuple[str, ...]]:
    """An old spec without the settings that do not apply to its algorithm (:data:`ai.agents.agent_base.APPLIES_TO`),
    for the files an older version wrote (it wrote every switch for every algorithm, and a side's cutoff test for
    every searching one: ``expectimax:...,prune=gt``): ``(the spec rebuilt, the dropped settings whose value was not
    their default, as ``key=value`` texts)``; ``(spec, ())`` when nothing was dropped, or for a spec that names no
    algorithm or preset of the profile (an agent file, a ``.toml`` file).

    Raises:
        AgentError: the spec is malformed (:func:`split_spec`), or a dropped value is bad.
    """
    from ai.agents.agent_file import is_file_spec
    if is_file_spec(spec) or spec.strip().lower().endswith(".toml"):
        return spec, ()
    name, opts, _ = split_spec(spec)
    algorithm = name if name in ALGORITHMS else str(profile.presets.get(name, {}).get("algorithm", ""))
    if not algorithm:
        return spec, ()
    kept = {k: v for k, v in opts.items() if k not in KEYS or applies(k, algorithm)}
    if len(kept) == len(opts):
        return spec, ()
    default = AgentSettings(name="", algorithm="")
    dropped = tuple(f"{k}={v}" for k, v in opts.items()
                    if k not in kept and coerce_setting(k, v) != default.value_of(k))
    return name + (":" + ",".join(f"{k}={v}" for k, v in kept.items()) if kept else ""), dropped


def agent_settings(profile: GameProfile, name: str, values: Mapping[str, Any] | None = None,
                   custom_weights: Mapping[str, float] | None = None, *, limits_as_given: bool = False
                   ) -> AgentSettings:
    """The settings of agent ``name`` for the profile's game: its preset or algorithm, then ``values``, the game's
    defaults filling the rest (what a spec ``NAME:key=value,...`` gives, built without the text; the window's
    settings use it).

    Args:
        profile: the game's profile (presets, defaults, accepted algorithms).
        name: an algorithm (``ALGORITHMS``) or a preset (``PRESETS``), lower case.
        values: settings by key (``KEYS``), as text or as values, each checked as a spec's; a depth without a
            time drops the default time.
        custom_weights: explicit evaluation weights by feature (then ``weights`` is ``custom``).
        limits_as_given: the depth and the time budget are exactly ``values``' (a limit not in them is open, not
            the game's default): the window's custom side, whose limits the user chose.

    Raises:
        AgentError: as :func:`parse_settings`.
    """
    opts = dict(values or {})
    custom = None if custom_weights is None else dict(custom_weights)
    game = profile.game.name
    base: dict[str, Any]
    if name in PRESETS:
        if name not in profile.presets:
            raise AgentError(f"preset {quoted(name)} is not defined for {game}")
        base = dict(profile.presets[name])
    elif name in ALGORITHMS:
        base = {"algorithm": name}
    else:
        raise AgentError(f"unknown agent {quoted(name)}; expected one of {', '.join(ALGORITHMS + PRESETS)}, "
                         "file:PATH.py or a .toml file")
    algorithm = base.pop("algorithm")
    if algorithm not in profile.algorithms:
        hint = {"expectimax": "expectimax is for games with chance nodes (pig)",
                "alphabeta": "alpha-beta has no chance nodes; use expectimax (or minimax: dice as adversary)",
                "optimal": "the optimal policy exists only for pig"}.get(algorithm, "")
        raise AgentError(f"agent {quoted(algorithm)} cannot play {game}" + (f": {hint}" if hint else "")
                         + f"; expected one of {', '.join(profile.algorithms)}")
    merged: dict[str, Any] = dict(profile.defaults.get(algorithm, {}))
    if limits_as_given:
        merged.pop("depth", None)
        merged.pop("time", None)
    elif "depth" in opts and "time" not in opts and "time" not in base:
        merged.pop("time", None)  # an explicit depth with no time searches to that depth (CLI.md)
    merged.update(base)
    for k, v in opts.items():
        merged[k] = coerce_setting(k, v)
    checked = {k: coerce_setting(k, v) for k, v in merged.items()}
    if custom is not None:
        checked["weights"] = "custom"
    settings = AgentSettings.from_keys(name, algorithm, checked, custom)
    if algorithm in ("minimax", "alphabeta", "expectimax") and profile.weight_presets:
        profile.weights_of(settings)  # validate the preset name now
        if custom is not None:
            unknown = sorted(set(custom) - set(profile.features))
            if unknown and profile.features:
                raise AgentError(f"unknown evaluation feature(s) {', '.join(unknown)} for {game}; "
                                 f"expected some of {', '.join(profile.features)}")
    return settings


def build_agent(profile: GameProfile, settings: AgentSettings) -> Agent:
    """Make the agent object for validated settings."""
    if settings.algorithm in profile.builders:
        return profile.builders[settings.algorithm](profile, settings)
    if settings.algorithm == "human":
        return HumanAgent(profile, settings)
    if settings.algorithm == "random":
        return RandomAgent(profile, settings)
    if settings.algorithm in ("minimax", "alphabeta"):
        return SearchAgent(profile, settings)
    if settings.algorithm == "mcts":
        from ai.agents.mcts_agent import MCTSAgent
        return MCTSAgent(profile, settings)
    if settings.algorithm == "file":
        from ai.agents.agent_process import FileAgent
        return FileAgent(profile, settings, FACTORY)
    raise AgentError(f"agent {settings.algorithm!r} cannot play {profile.game.name}")


def make_agent(game_name: str, spec: str) -> Agent:
    """Parse ``spec`` for the named game and build the agent (the one-call form used by the CLI and the UI).

    Raises:
        AgentError: see :func:`parse_settings`; ``GameError`` for an unknown game.
    """
    from ai.agents.profiles import profile_for
    profile = profile_for(game_name)
    return build_agent(profile, parse_settings(spec, profile))


def describe_spec(agent: Agent, spec: str) -> str:
    """``agent.describe()`` with the settings its spec gives after the name, so agents of one preset or algorithm
    that differ tell apart: ``expert:book=off,exact=off (alphabeta), 1 s/move`` for the spec
    ``expert:book=off,exact=off`` (``compare``'s rows and the race view's lanes; ``match`` names its sides by the
    spec).
    A spec without settings, a ``.toml`` file or an agent file: ``agent.describe()`` as it is."""
    text = agent.describe()
    from ai.agents.agent_file import is_file_spec
    if is_file_spec(spec) or spec.strip().lower().endswith(".toml"):
        return text
    try:
        name, opts, _ = split_spec(spec)
    except AgentError:
        return text
    if not opts or not text.startswith(name):
        return text
    return name + ":" + ",".join(f"{k}={v}" for k, v in opts.items()) + text[len(name):]


def clock_of_spec(game_name: str, spec: str) -> Clock:
    """The clock of an agent spec's time budget (``wall`` or ``cpu``); ``wall`` for a spec that cannot be built
    here (a file agent's budget is the wall time its process is given)."""
    try:
        return make_agent(game_name, spec).settings.clock
    except (GameError, OSError):
        return Clock.WALL


def with_overrides(settings: AgentSettings, **changes: Any) -> AgentSettings:
    """A copy of ``settings`` with some settings changed, by spec key (validated like a spec's; another name, such as
    ``custom_weights``, names a field and is taken as given).

    Raises:
        AgentError: a bad value, or a setting that does not apply to the algorithm with another value than its
            default (:data:`ai.agents.agent_base.APPLIES_TO`).
    """
    return settings.with_keys({k: (coerce_setting(k, v) if k in KEYS else v) for k, v in changes.items()})


FACTORY = AgentFactory(parse_settings, build_agent)
"""The factory handed to code below this module: a file agent's worker process builds its agent with it
(:class:`ai.agents.agent_process.AgentProcess`)."""
