"""What every agent shares, below any concrete agent: the settings record and its keys, the errors, the game's
profile and the :class:`Agent` base class, and reading one setting's value (:func:`coerce_setting`).

The concrete agents (:mod:`ai.agents.agents`, :mod:`ai.agents.mcts_agent`, :mod:`ai.pig.pig_agents`, the file agent of
:mod:`ai.agents.agent_process`) and the game profiles (:mod:`ai.checkers.checkers_eval`, :mod:`ai.agents.profiles`)
import this module; it imports none of them, so the agents' modules form no import cycle (``tests/test_imports.py``).
"""

from __future__ import annotations

import math
import threading
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Callable, Mapping, Self

from ai.kernel.evaluation import Feature, WeightedEvaluation
from ai.kernel.search import SearchInfo, SearchLimits, SearchResult
from ai.kernel.timeman import Clock, clock_named
from gameplay.rules import limits
from gameplay.rules.base import Game, GameError, quoted

ALGORITHMS = ("human", "random", "minimax", "alphabeta", "expectimax", "optimal", "mcts")
PRESETS = ("beginner", "easy", "medium", "hard", "expert")
KEYS = ("depth", "time", "ordering", "tt", "quiescence", "weights", "prune", "seed", "lmr", "aspiration", "etc", "db",
        "book", "lmrsafe", "extend", "shots", "threats", "truncate", "timeman", "partial", "clock", "simulations", "c",
        "playout", "reuse", "solver", "exact")
"""Every spec key (CLI.md, "Agents"): the common ones (:data:`COMMON_KEYS`), the alpha-beta family's
(:class:`SearchSwitches`) and MCTS's (:class:`MCTSSettings`)."""
SWITCHES = ("ordering", "tt", "quiescence", "lmr", "aspiration", "etc", "db", "book", "lmrsafe", "extend", "shots",
            "threats", "truncate", "timeman", "partial", "reuse", "solver", "exact")
"""The on/off keys, in the order :meth:`AgentSettings.spec` writes them."""
CLOCK_NAMES = tuple(c.value for c in Clock)
"""The values of the ``clock`` key: ``wall`` (elapsed real time) and ``cpu`` (CPU time of the searching thread)."""
FIELD_OF_KEY: dict[str, str] = {"time": "time_budget_s"}
"""The :class:`AgentSettings` field of a spec key where the two names differ (the spec key ``time`` is the
contract, CLI.md; inside the program the budget is ``time_budget_s`` from the settings screen to the deadline)."""
KEY_RANGES: dict[str, limits.Range] = limits.AGENT_KEY_RANGES
"""The range of each numeric key (:mod:`gameplay.rules.limits`; ``playout=eval:N`` takes
:data:`~gameplay.rules.limits.PLAYOUT_PLIES`): a value outside it is bad input, refused before any search."""
MAX_SIMULATIONS = int(limits.SIMULATIONS.hi)
"""Largest ``simulations`` an ``mcts`` spec takes (a larger one is refused rather than run for hours)."""
ASPIRATION_MEN = 0.25
"""Half-width of the aspiration window in men (times the evaluation's weight of a man)."""
THREAT_MEN = 1.3
"""``threats``: the margin around the window, in men, within which a threatened quiet node searches its moves instead
of standing pat (Cake 1.20's ``QLEVEL``, 130 with a man worth 100)."""
MAX_WEIGHT = limits.EVAL_WEIGHT.hi
"""Largest magnitude of an evaluation weight: with features counted in pieces and squares, a weighted sum stays
far below ``ai.kernel.core.HEURISTIC_BOUND`` (the search also clamps it there)."""


class AgentError(GameError):
    """An agent spec or setting is malformed, unknown, or does not fit the game."""


@dataclass(frozen=True)
class SearchSwitches:
    """The alpha-beta family's switches (spec keys of the same names, CLI.md "Agents"): read by
    :class:`ai.agents.agents.SearchAgent` (``minimax``, ``alphabeta``) into an
    :class:`ai.kernel.search_options.SearchOptions` and a :class:`~ai.kernel.core.SearchLimits`; ``expectimax``
    (:class:`ai.agents.profiles.ChanceSearchAgent`, Pig's ``ai.pig.pig_agents.ExpectimaxAgent``, and Pig's ``minimax``
    with the dice as adversary) reads ``tt`` (its memo) and ``timeman`` only. Which algorithm each key applies to:
    :data:`APPLIES_TO` (a key that does not apply is refused unless it has its default here).
    """

    ordering: bool = True
    """Move ordering: hash move, captures, killer moves, history (principal-variation search needs it).
    ``alphabeta``; ``minimax`` (an agent's plain minimax searches in the game's order whatever it says; the Tree
    Lab's orders the children by their mean leaf)."""
    tt: bool = True
    """Transposition table keyed by the state's Zobrist key (or the state itself): ``alphabeta`` (an agent's plain
    ``minimax`` has none); expectimax's ``(state, depth)`` memo (and Pig's ``minimax``, the same search with the dice
    as adversary)."""
    quiescence: bool = False
    """Quiescence search over captures below the depth limit. ``minimax`` and ``alphabeta``."""
    prune: str = "ge"
    """Alpha-beta's cut-off test: ``ge`` (cut when alpha >= beta, AIMA) or ``gt`` (only when alpha > beta).
    ``alphabeta``."""
    lmr: bool = False
    """Late-move reductions (``ai.kernel.search.Searcher``, with principal-variation search). ``alphabeta``."""
    aspiration: bool = False
    """Aspiration windows at the root, :data:`ASPIRATION_MEN` of a man wide on each side. ``alphabeta``."""
    etc: bool = False
    """Enhanced transposition cutoffs (with the table). ``alphabeta``."""
    db: bool = False
    """Probe the endgame databases (checkers: ``ai.checkers.endgame_db``; the profile's ``endgame_loader``).
    ``minimax`` and ``alphabeta``."""
    book: bool = False
    """Play from the opening book while it has the position (the profile's ``book_loader``; checkers:
    ``ai.checkers.book``). ``minimax`` and ``alphabeta``."""
    lmrsafe: bool = False
    """With ``lmr``: never reduce captures, promotions, moves into or out of a capture threat, nor the replies to
    them (``ai.kernel.search_options.SearchOptions.lmr_safe``). ``alphabeta``."""
    extend: bool = False
    """Search a forced reply (a single legal move) a ply deeper, at most half the depth along a path
    (``SearchOptions.extend``). ``alphabeta``."""
    shots: bool = False
    """With ``quiescence``: also try the quiet moves that offer a capture near the horizon, so two-for-one shots
    are seen (``SearchOptions.shots``). ``alphabeta``."""
    threats: bool = False
    """With ``quiescence``: a side left under a capture threat at the horizon searches its moves instead of standing
    pat, within :data:`THREAT_MEN` men of the window (``SearchOptions.threats``; Cake 1.20's ``EXTENDALL``).
    ``alphabeta``."""
    truncate: bool = False
    """Material truncation: a node whose material lies more than 1.1 men outside the window is searched 2 plies
    shallower, the plies given back when the line comes inside the window again (``SearchOptions.truncate``; Cake
    1.20's truncation). ``alphabeta``."""
    timeman: bool = False
    """Engine-style time management of the ``time`` budget (``ai.kernel.timeman.TimeManager``: a target time that
    grows when the best move changes or the score falls, and no iteration started that is predicted to end past the
    budget); off: no iteration starts after half the budget. ``minimax``, ``alphabeta`` and ``expectimax`` (not
    ``mcts``, which uses its whole budget)."""
    partial: bool = False
    """Play what a stopped iteration proved: when the ``time`` (or node) budget stops an iteration in which a root
    move was proved better than the last completed iteration's best, play it; with ``timeman``, start an iteration
    when its first root move is predicted to fit (``SearchLimits.partial``); off: an interrupted iteration is thrown
    away. ``minimax`` and ``alphabeta``."""
    exact: bool = False
    """Prove each position with the game's exact solver, where it has one (the profile's ``exact_play``), within the
    ``time`` budget: the move comes back with its proven outcome
    and distance (reason ``proven``); a position the solver does not finish within 0.9 of the budget is
    searched as without it for the rest. ``alphabeta``; a game without a solver ignores it (as ``db`` and ``book``)."""


@dataclass(frozen=True)
class MCTSSettings:
    """The ``mcts`` agent's own settings (spec keys of the same names, CLI.md "Agents"; read by
    :class:`ai.agents.mcts_agent.MCTSAgent` into :class:`ai.kernel.mcts.MCTS`). They apply to ``mcts`` only."""

    simulations: int | None = None
    """Simulations per move, :data:`gameplay.rules.limits.SIMULATIONS` (with ``time``, whichever ends first);
    ``None``: the ``time`` budget alone, or ``ai.agents.mcts_agent.DEFAULT_SIMULATIONS`` without one."""
    c: float = math.sqrt(2)
    """The UCB1 exploration constant, :data:`gameplay.rules.limits.UCB_C` (sqrt 2: Kocsis and Szepesvari 2006, for
    rewards in [0, 1])."""
    playout: str = "random"
    """``random`` (uniformly random moves to the end) or ``eval:N`` (N random plies,
    :data:`gameplay.rules.limits.PLAYOUT_PLIES`, then the evaluation squashed into [-1, 1])."""
    reuse: bool = False
    """Keep the subtree of the move played for the next decision (same process only)."""
    solver: bool = False
    """MCTS-Solver: proven wins and losses propagate up the tree (Winands et al. 2008)."""


COMMON_KEYS = ("depth", "time", "weights", "seed", "clock")
"""The spec keys every algorithm takes (:class:`AgentSettings`' own fields)."""
SEARCH_KEYS = tuple(f.name for f in fields(SearchSwitches))
"""The spec keys of :class:`SearchSwitches` (its field names)."""
MCTS_KEYS = tuple(f.name for f in fields(MCTSSettings))
"""The spec keys of :class:`MCTSSettings` (its field names)."""
APPLIES_TO: dict[str, tuple[str, ...]] = {
    **{k: ("alphabeta",) for k in SEARCH_KEYS},
    "ordering": ("minimax", "alphabeta"),
    "tt": ("minimax", "alphabeta", "expectimax"),
    "quiescence": ("minimax", "alphabeta"),
    "db": ("minimax", "alphabeta"),
    "book": ("minimax", "alphabeta"),
    "timeman": ("minimax", "alphabeta", "expectimax"),
    "partial": ("minimax", "alphabeta"),
    **{k: ("mcts",) for k in MCTS_KEYS},
}
"""The algorithms each key of :class:`SearchSwitches` and :class:`MCTSSettings` applies to (the common keys,
:data:`COMMON_KEYS`, apply to all). Read from the agents: :class:`ai.agents.agents.SearchAgent` reads ``quiescence``,
``db``, ``book``, ``timeman`` and ``partial`` for ``minimax`` and ``alphabeta``, and ``prune`` and the strength
additions (``lmr`` ... ``truncate``) for ``alphabeta`` only (``minimax`` has no cut-off to test, reduce or widen);
``ordering`` and ``tt`` are the family's own: plain ``minimax`` plays with neither, ``minimax:ordering=on`` orders
the Tree Lab's children and ``tt`` is the memo of Pig's ``minimax``; the expectimax searches read ``tt`` and
``timeman``; ``mcts`` none of them. On a game with chance nodes (Pig) ``minimax`` is expectimax with the dice as
adversary: of the keys it takes, ``tt`` and ``timeman`` act there, the others have no effect."""
_SEARCH_DEFAULTS = SearchSwitches()
_MCTS_DEFAULTS = MCTSSettings()


def applies(key: str, algorithm: str) -> bool:
    """True when the spec key ``key`` configures ``algorithm`` (a common key configures every one)."""
    return algorithm in APPLIES_TO.get(key, (algorithm,))


def _words(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def not_applying(algorithm: str, search: SearchSwitches, mcts: MCTSSettings) -> str | None:
    """The one-line refusal of a setting that does not apply to ``algorithm`` and differs from its default
    (``quiescence applies to minimax and alphabeta, not mcts``), or ``None`` when there is none. A key at its
    default is accepted whatever the algorithm: the specs of saved games and reports carry every switch."""
    for record, defaults in ((search, _SEARCH_DEFAULTS), (mcts, _MCTS_DEFAULTS)):
        for f in fields(record):
            if getattr(record, f.name) != getattr(defaults, f.name) and not applies(f.name, algorithm):
                return f"{f.name} applies to {_words(APPLIES_TO[f.name])}, not {algorithm}"
    return None


@dataclass(frozen=True)
class AgentSettings:
    """Everything that configures an agent: the settings every algorithm has, the alpha-beta family's switches
    (:attr:`search`) and MCTS's own (:attr:`mcts`). ``None`` fields take the game's documented default.

    A setting of :attr:`search` or :attr:`mcts` that does not apply to :attr:`algorithm` (:data:`APPLIES_TO`) keeps
    its default: constructing one otherwise raises :class:`AgentError` (``quiescence applies to minimax and
    alphabeta, not mcts``). The spec keys (CLI.md) name the fields (``time``: :attr:`time_budget_s`); the JSON
    (:meth:`to_json`) keeps every key flat.
    """

    name: str
    """The name the agent was asked for (an algorithm or a preset)."""
    algorithm: str
    """One of ``ALGORITHMS`` (``file`` for an agent file: :class:`ai.agents.agent_file.FileAgentSettings`)."""
    depth: int | None = None
    """Depth limit in plies (decisions), :data:`gameplay.rules.limits.SEARCH_DEPTH`; ``None``: as deep as the time
    allows (or to the end). The searches' (``mcts`` stops on ``simulations`` and ``time``)."""
    time_budget_s: float | None = None
    """The time budget: seconds per move (spec key ``time``), :data:`gameplay.rules.limits.MOVE_TIME`, on
    :attr:`clock`; ``None``: no time limit."""
    weights: str = "default"
    """Name of the evaluation weight preset (``textbook``, ``default``, ...) or ``custom``; Pig's ``optimal``:
    ``default`` or ``holdN``."""
    custom_weights: Mapping[str, float] | None = None
    """Explicit feature weights (from a TOML file or the settings panel); overrides ``weights``."""
    seed: int | None = None
    """Seed of the agent's random generator, :data:`gameplay.rules.limits.SEED`: a random agent's choices; for a
    searching agent, the order in which equally good root moves are tried (so a seeded agent varies its play among
    equal moves); MCTS's playouts."""
    clock: Clock = Clock.WALL
    """The clock of the ``time`` budget: ``wall`` (elapsed real time) or ``cpu`` (the CPU time of the searching
    thread, ``time.thread_time``: what a program on a shared machine is entitled to)."""
    search: SearchSwitches = field(default_factory=SearchSwitches)
    """The alpha-beta family's switches (defaults for an algorithm they do not apply to)."""
    mcts: MCTSSettings = field(default_factory=MCTSSettings)
    """MCTS's settings (defaults for every other algorithm)."""

    def __post_init__(self) -> None:
        if self.algorithm in ALGORITHMS:
            problem = not_applying(self.algorithm, self.search, self.mcts)
            if problem is not None:
                raise AgentError(problem)

    @classmethod
    def from_keys(cls, name: str, algorithm: str, values: Mapping[str, Any],
                  custom_weights: Mapping[str, float] | None = None) -> AgentSettings:
        """The settings of checked values by spec key (:data:`KEYS`, values as :func:`coerce_setting` returns
        them; a key not given keeps its default).

        Raises:
            AgentError: a key that is no spec key, or a setting that does not apply to ``algorithm`` with another
                value than its default.
        """
        unknown = [k for k in values if k not in KEYS]
        if unknown:
            raise AgentError(f"unknown agent setting {quoted(unknown[0])}; expected one of {', '.join(KEYS)}")
        return cls(name=name, algorithm=algorithm, custom_weights=custom_weights, **_grouped(values))

    def value_of(self, key: str) -> Any:
        """The value of spec key ``key`` (``time``: :attr:`time_budget_s`; a switch: its sub-record's field)."""
        if key in SEARCH_KEYS:
            return getattr(self.search, key)
        if key in MCTS_KEYS:
            return getattr(self.mcts, key)
        return getattr(self, FIELD_OF_KEY.get(key, key))

    def with_keys(self, values: Mapping[str, Any]) -> Self:
        """A copy with the fields of ``values`` (by spec key, or a field's own name: ``custom_weights``) replaced,
        the values as given (checked by the caller: :func:`coerce_setting`).

        Raises:
            AgentError: the result has a setting that does not apply to its algorithm with another value than its
                default.
            TypeError: a key that names no field.
        """
        return replace(self, **_grouped(values, self.search, self.mcts))

    def to_json(self) -> dict[str, Any]:
        """The settings as a JSON-ready dict (CLI ``{settings}``): every key flat, as the spec names it (``time``,
        the switches, MCTS's keys; ``clock`` as its text), for every algorithm."""
        d: dict[str, Any] = {"name": self.name, "algorithm": self.algorithm, "depth": self.depth,
                             "time": self.time_budget_s, "weights": self.weights,
                             "custom_weights": None if self.custom_weights is None else dict(self.custom_weights),
                             "seed": self.seed, "clock": self.clock.value}
        d.update(asdict(self.search))
        d.update(asdict(self.mcts))
        return d

    def search_limits(self, unit: float = 1.0, nodes: int | None = None,
                      latency_s: float | None = None) -> SearchLimits:
        """The limits of one decision: ``depth``, ``time`` on its ``clock`` with its ``timeman`` policy, ``nodes``
        (``unit``: the evaluation's weight of a man, for the policy's falling-score test; ``latency_s``: a referee's
        learned latency, ``SearchLimits.latency_s``, or ``None`` when no referee judges the answer)."""
        return SearchLimits(self.depth, self.time_budget_s, nodes, timeman=self.search.timeman, clock=self.clock,
                            unit=unit, partial=self.search.partial, latency_s=latency_s)

    def clock_text(self) -> str:
        """The time budget in words, for match and tournament reports: ``0.3 s/move, wall clock, timeman on``,
        ``depth 2 (plies) within 1 s/move, wall clock`` when a depth cap ends the search first, or ``no time budget``
        (``depth 4, no time budget`` with a cap)."""
        cap = f"depth {self.depth} (plies)" if self.depth is not None else ""
        if self.time_budget_s is None:
            return f"{cap}, no time budget" if cap else "no time budget"
        budget = f"{self.time_budget_s:g} s/move, {self.clock} clock" + \
            (", timeman on" if self.search.timeman else "") + (", partial on" if self.search.partial else "")
        return f"{cap} within {budget}" if cap else budget

    def spec(self) -> str:
        """A spec string that rebuilds these settings (for saved games and match reports): the limits and the seed
        when set, every key that applies to the algorithm (:data:`APPLIES_TO`), the clock when not ``wall``, the
        weights' name unless custom."""
        parts = []
        for k in ("depth", "time", "seed"):
            v = self.value_of(k)
            if v is not None:
                parts.append(f"{k}={v}")
        for k in SWITCHES:
            if applies(k, self.algorithm):
                parts.append(f"{k}={'on' if self.value_of(k) else 'off'}")
        if self.algorithm == "mcts":
            if self.mcts.simulations is not None:
                parts.append(f"simulations={self.mcts.simulations}")
            parts.append(f"c={self.mcts.c!r}")
            parts.append(f"playout={self.mcts.playout}")
        if self.clock != Clock.WALL:
            parts.append(f"clock={self.clock}")
        if self.custom_weights is None:
            parts.append(f"weights={self.weights}")
        if applies("prune", self.algorithm):
            parts.append(f"prune={self.search.prune}")
        return f"{self.algorithm}:{','.join(parts)}"


def _grouped(values: Mapping[str, Any], search: SearchSwitches = _SEARCH_DEFAULTS,
             mcts: MCTSSettings = _MCTS_DEFAULTS) -> dict[str, Any]:
    """``values`` by spec key as :class:`AgentSettings`' fields: the common ones by name (``time``:
    ``time_budget_s``), the switches into ``search`` and MCTS's keys into ``mcts`` (only the records changed)."""
    out: dict[str, Any] = {}
    switches = {k: v for k, v in values.items() if k in SEARCH_KEYS}
    mine = {k: v for k, v in values.items() if k in MCTS_KEYS}
    for k, v in values.items():
        if k not in switches and k not in mine:
            out[FIELD_OF_KEY.get(k, k)] = v
    if switches:
        out["search"] = replace(search, **switches)
    if mine:
        out["mcts"] = replace(mcts, **mine)
    return out


@dataclass
class GameProfile:
    """How the agents of one game are configured.

    Attributes:
        game: the game object.
        features: evaluation features by name (empty for games without a weighted evaluation).
        weight_presets: name -> weights; must include ``textbook`` when the course material gives one.
        presets: difficulty name -> settings overrides (``algorithm`` included).
        defaults: algorithm -> default settings overrides (e.g. ``{"alphabeta": {"time": 1.0}}``).
        algorithms: algorithms this game accepts; others are refused with a clear message.
        builders: algorithm -> custom agent factory ``(profile, settings) -> Agent`` (e.g. Pig's expectimax).
        evaluator_factory: optional ``(weights) -> evaluator`` replacing the generic weighted sum (speed).
        endgame_loader: optional ``() -> database | None``: the endgame tables the ``db`` key probes.
        endgame_describe: optional ``() -> str``: which tables ``endgame_loader`` gives, in a few words (checkers:
            ``"endgame tables up to 5 pieces"``, of the tables that load; ``Agent.tables_note``).
        book_loader: optional ``() -> book | None``: the opening book the ``book`` key plays from (its
            ``choose(state, rng) -> move | None``).
        exact_play: optional ``(book: bool) -> solver``: a fresh exact solver for the ``exact`` key, one per agent,
            reading the opening book inside its search when ``book`` (the agent's ``book`` key); its
            ``decide(state, budget_s, clock, stop_event) -> SearchResult | None`` is ``None`` when it did not finish
            in the budget, and its ``attempt`` then has the ``seconds``, ``nodes`` and ``book_hits`` it spent.
    """

    game: Game[Any, Any]
    features: dict[str, Feature] = field(default_factory=dict)
    weight_presets: dict[str, dict[str, float]] = field(default_factory=dict)
    presets: dict[str, dict[str, Any]] = field(default_factory=dict)
    defaults: dict[str, dict[str, Any]] = field(default_factory=dict)
    algorithms: tuple[str, ...] = ("human", "random", "minimax", "alphabeta", "mcts")
    builders: dict[str, Callable[[GameProfile, AgentSettings], Agent]] = field(default_factory=dict)
    evaluator_factory: Callable[[Mapping[str, float]], Callable[[Any, int], float]] | None = None
    endgame_loader: Callable[[], Any] | None = None
    endgame_describe: Callable[[], str] | None = None
    book_loader: Callable[[], Any] | None = None
    exact_play: Callable[[bool], Any] | None = None

    def weights_of(self, settings: AgentSettings) -> dict[str, float]:
        """The feature weights an agent uses.

        Raises:
            AgentError: the preset name is unknown.
        """
        if settings.custom_weights is not None:
            weights = dict(settings.custom_weights)
            for k, w in weights.items():
                weights[k] = parse_weight(k, w)
            return weights
        if settings.weights not in self.weight_presets:
            raise AgentError(f"unknown weights {quoted(settings.weights)} for {self.game.name}; "
                             f"expected one of {', '.join(self.weight_presets) or '(none)'}")
        return dict(self.weight_presets[settings.weights])

    def evaluator(self, settings: AgentSettings) -> Callable[[Any, int], float]:
        """The static evaluation ``f(state, player)`` for these settings."""
        weights = self.weights_of(settings)
        if self.evaluator_factory is not None:
            return self.evaluator_factory(weights)
        try:
            return WeightedEvaluation(self.features, weights)
        except GameError as e:
            raise AgentError(str(e)) from None


class Agent:
    """Base class: an opponent that chooses moves. Subclasses implement :meth:`choose`."""

    is_human = False
    portable = False
    """True when the agent can be rebuilt from ``settings`` alone (``build_agent``), so its search may run in
    the decision worker process (``ai.agents.worker``)."""
    _latency_s: float | None = None

    def __init__(self, profile: GameProfile, settings: AgentSettings) -> None:
        self.profile = profile
        self.game = profile.game
        self.settings = settings
        self._latency_s: float | None = None

    @property
    def latency_s(self) -> float | None:
        """The latency a referee expects between the search's stop and the answer's arrival (seconds), which the
        search keeps a margin for (``ai.kernel.timeman.stop_time``); ``None`` (the default): no referee judges
        this agent's answers, the whole budget is the search's."""
        return self._latency_s

    def expect_latency(self, seconds: float | None) -> None:
        """Set :attr:`latency_s` for the next decisions (the worker process of ``ai.agents.agent_process`` sets it
        from the referee's estimate before each move).

        Raises:
            ValueError: a negative or non-finite number of seconds.
        """
        if seconds is not None and not (seconds >= 0 and math.isfinite(seconds)):
            raise ValueError(f"latency must be a finite number of seconds >= 0, got {seconds}")
        self._latency_s = seconds

    def choose(self, state: Any, stop_event: threading.Event | None = None,
               on_info: Callable[[SearchInfo], None] | None = None, recorder: Any = None) -> SearchResult:
        """Choose a move at ``state`` (not over).

        Args:
            state: the position; never changed.
            stop_event: set from another thread to stop early (the best move found so far is returned).
            on_info: progress callback, called on the worker thread after each completed iteration.
            recorder: optional search-tree recorder (``ai.kernel.recording``).

        Raises:
            GameError: the position is over.
        """
        raise NotImplementedError

    def describe(self) -> str:
        """A short human-readable description, e.g. ``alphabeta, depth 5`` (the settings; what the searches read
        besides them: :meth:`tables_note`)."""
        s = self.settings
        bits = [s.name if s.name == s.algorithm else f"{s.name} ({s.algorithm})"]
        if s.algorithm == "alphabeta" and not s.search.ordering and not s.search.tt:
            bits[0] += " (plain: no ordering, table or PVS)"
        elif s.algorithm == "alphabeta" and not s.search.ordering:
            bits[0] += " (no move ordering)"
        elif s.algorithm == "alphabeta" and not s.search.tt:
            bits[0] += " (no transposition table)"
        if s.depth is not None:
            bits.append(f"depth {s.depth}")
        if s.time_budget_s is not None:
            bits.append(f"{s.time_budget_s:g} s/move" + (" (CPU)" if s.clock == Clock.CPU else ""))
        return ", ".join(bits)

    def tables_note(self) -> str | None:
        """Which endgame tables this agent's searches probe, in a few words, e.g. ``"endgame tables up to 5
        pieces"`` (the profile's ``endgame_describe``: the tables the search loads); ``None`` when the ``db`` switch
        is off or the game has no tables. The window's side label shows it in its tool tip, ``analyze`` after the
        description."""
        s = self.settings
        describe = self.profile.endgame_describe
        if describe is None or s.algorithm not in ("minimax", "alphabeta") or not s.search.db:
            return None
        return describe()


def _parse_bool(key: str, v: Any) -> bool:
    if isinstance(v, bool):
        return v
    t = str(v).strip().lower()
    if t in ("on", "true", "yes", "1"):
        return True
    if t in ("off", "false", "no", "0"):
        return False
    raise AgentError(f"agent setting {key} must be on or off, got {quoted(v)}")


def parse_weight(feature: str, w: Any) -> float:
    """One evaluation weight, in :data:`gameplay.rules.limits.EVAL_WEIGHT` (so a heuristic value never reaches the
    scores of proven wins).

    Raises:
        AgentError: not a finite number of magnitude at most :data:`MAX_WEIGHT`.
    """
    try:
        return float(limits.EVAL_WEIGHT.read(w, f"evaluation weight {feature}"))
    except limits.RangeError as e:
        raise AgentError(str(e)) from None


def coerce_setting(key: str, v: Any) -> Any:
    """One agent setting, checked and converted (a spec's text or a value decoded from TOML or a literal).

    Raises:
        AgentError: an unknown key, or a value of the wrong kind or outside its range (:data:`KEY_RANGES`).
    """
    if key in KEY_RANGES:
        try:
            return KEY_RANGES[key].read(v, f"agent setting {key}")
        except limits.RangeError as e:
            raise AgentError(str(e)) from None
    if key in SWITCHES:
        return _parse_bool(key, v)
    if key == "prune":
        rule = str(v).strip().lower()
        if rule not in ("ge", "gt"):
            raise AgentError(f"agent setting prune must be ge or gt, got {quoted(v)}")
        return rule
    if key == "weights":
        return str(v).strip()
    if key == "clock":
        try:
            return clock_named(str(v).strip().lower())
        except ValueError:
            raise AgentError(f"agent setting clock must be {' or '.join(CLOCK_NAMES)} (the time budget's clock: "
                             f"elapsed time or the search's CPU time), got {quoted(v)}") from None
    if key == "playout":
        text = str(v).strip().lower()
        head, _, plies = text.partition(":")
        if head == "eval" and plies.strip().lstrip("+-").isdigit():
            try:
                return f"eval:{limits.PLAYOUT_PLIES.read(plies, 'agent setting playout eval:N')}"
            except limits.RangeError as e:
                raise AgentError(str(e)) from None
        if text == "random":
            return text
        raise AgentError(f"agent setting playout must be random or eval:N (N random plies, "
                         f"{limits.PLAYOUT_PLIES.text()}, then the evaluation), got {quoted(v)}")
    raise AgentError(f"unknown agent setting {quoted(key)}; expected one of {', '.join(KEYS)}")


@dataclass(frozen=True)
class AgentFactory:
    """The two steps that make an agent from a spec (:data:`ai.agents.agents.FACTORY`), handed to the code below
    :mod:`ai.agents.agents` that must build agents: the worker process of :class:`ai.agents.agent_process.AgentProcess`.
    Picklable (module-level functions), so it travels to a ``spawn`` process."""

    parse: Callable[[str, GameProfile], AgentSettings]
    """``parse(spec, profile)``: the settings of an agent spec (``AgentError`` on bad input)."""
    build: Callable[[GameProfile, AgentSettings], Agent]
    """``build(profile, settings)``: the agent for validated settings."""
