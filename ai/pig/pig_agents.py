"""Pig's agent profile: the weighted evaluation, expectimax, minimax with the dice as adversary, the optimal policy.

Algorithms (``../shared/CLI.md``): ``human``, ``random``, ``minimax``, ``expectimax``, ``optimal``. Alpha-beta is
refused by :func:`ai.agents.agents.parse_settings` (it has no chance nodes).

* ``expectimax`` (:class:`ExpectimaxAgent`): :mod:`ai.kernel.expectimax` with the weighted evaluation below at the
  depth limit. Defaults: ``depth=2`` decisions, ``time=0.3`` s (the depth is the limit that binds; a decision
  takes well under a millisecond). The depth was chosen by measurement (``ai.pig.pig_bench``): with the fitted
  evaluation, depth 2 agreed with the optimal move more often than depths 3..9. ``tt=off`` turns the
  ``(state, depth)`` memo off; ``ordering``, ``quiescence`` and ``prune`` have no effect.
* ``minimax`` (:class:`ExpectimaxAgent` with ``chance="adversary"``): the classroom foil; the die is the
  adversary of the player to move at the root (a chance node takes the outcome worst for that player).
  Default ``depth=4``. It holds as soon as its turn total is positive.
* ``optimal`` (:class:`PolicyAgent`): the exact optimal policy by dynamic programming (:mod:`ai.pig.pig_optimal`,
  Neller and Presser 2004); its value is the exact win probability mapped to ``[-1, 1]``. The ``weights``
  setting selects the policy: ``default`` (or ``optimal``) the optimal one, ``holdN`` (e.g. ``optimal:weights=
  hold20``) the fixed policy "hold as soon as the turn total is at least N", whose reported win probability is
  exact when both players follow it.

Values are expected utilities in ``[-1, 1]`` from the player to move (win +1, loss -1); ``extra`` carries
``win_probability = (value + 1) / 2`` and ``values`` (each root move's value).

Difficulty presets, weakest to strongest, with the exact score against ``optimal`` (the expected fraction of
games won, the two seats averaged): each preset's policy evaluated against the optimal one by
:func:`exact_match`, no sampling (``python -m ai.pig.pig_ladder``: the whole ladder in about 40 s). Each preset also
beats the one below it (exact score in brackets):
    * ``beginner``: ``minimax`` depth 4 (dice as adversary: banks almost every roll): 0.0307.
    * ``easy``: "hold at 10" (``optimal:weights=hold10``, a fixed rule): 0.2989 (0.843 against beginner).
    * ``medium``: ``expectimax`` depth 1 with ``weights=simple``: 0.4616 (0.629 against easy).
    * ``hard``: ``expectimax`` with the defaults (depth 2, fitted weights): 0.4933 (0.533 against medium).
    * ``expert``: ``optimal`` (the exact optimal policy): 0.5 by definition (0.507 against hard).
Sampled matches agree: ``python main.py match pig --p1 hard --p2 optimal --games 4000 --jobs 1 --seed 1`` gives
2,026 - 1,974, score 0.5065 +/- 0.015 (95%), whose interval holds 0.4933; README "Difficulty ladder" has the
runs for every preset. For reference "hold at 20" scores 0.4601 and "hold at 25" 0.4789. Past the beginner
every sensible policy wins 45-49% against perfect play, so only a fixed rule far from optimal (hold at 10) makes
a clearly easier step.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Mapping
from typing import Any

from ai.agents.agent_base import Agent, AgentError, AgentSettings, GameProfile
from ai.agents.game_parts import AgentParts
from ai.kernel.core import StopReason
from ai.kernel.expectimax import Expectimax, iterative_expectimax
from ai.kernel.search import SearchInfo, SearchResult
from ai.pig.pig_mcts import mcts_rules
from gameplay.rules.base import GameError
from gameplay.rules.limits import HOLD_AT, RangeError
from gameplay.rules.pig import HOLD, ROLL, Pig, PigState

DEFAULT_TARGET = 100
"""Target of the profile's game (RULES.md)."""

_SHIFT = 0.05
"""Keeps ``sqrt(d_me + d_opp + _SHIFT)`` away from 0 in the race features (fraction of the target)."""


# ----- evaluation features --------------------------------------------------------------------------------------
def _mover_view(state: PigState, target: int) -> tuple[float, float, float]:
    """(own banked, opponent banked, turn total) of the player to move, as fractions of the target."""
    if state.player == 0:
        return state.s1 / target, state.s2 / target, state.turn / target
    return state.s2 / target, state.s1 / target, state.turn / target


def feature_values(state: PigState, player: int, target: int = DEFAULT_TARGET) -> dict[str, float]:
    """All evaluation features of ``state`` for ``player`` (dimensionless; see :data:`FEATURE_DOCS`).

    Every feature is antisymmetric: its value for one player is minus its value for the other, so the
    evaluation of a zero-sum game can be read from either side.
    """
    own, opp, t = _mover_view(state, target)
    d_me = max(0.0, 1.0 - own - t)
    d_opp = max(0.0, 1.0 - opp)
    scale = 1.0 / math.sqrt(d_me + d_opp + _SHIFT)
    sign = 1.0 if state.player == player else -1.0
    return {
        "score_diff": sign * (own - opp),
        "turn_total": sign * t,
        "tempo": sign,
        "race": sign * (d_opp - d_me) * scale,
        "tempo_close": sign * scale,
    }


FEATURE_DOCS: dict[str, str] = {
    "score_diff": "banked score difference (own - opponent) / target",
    "turn_total": "turn total / target, positive when the player is the one rolling (points at risk)",
    "tempo": "+1 when the player is to move, -1 otherwise",
    "race": "(d_opp - d_own) / sqrt(d_own + d_opp + 0.05): distance-to-target difference, d in fractions of "
            "the target, the turn total counted for the roller; scaled by the remaining distance",
    "tempo_close": "+-1 / sqrt(d_own + d_opp + 0.05): having the turn matters more near the end",
}
"""What each feature measures (units: fractions of the target, or +-1)."""

WEIGHT_PRESETS: dict[str, dict[str, float]] = {
    # Fitted by logistic regression of the exact optimal win probabilities (ai.pig.pig_optimal) on 20,000 random
    # (i, j, k) states, target 100, six faces: (value + 1) / 2 = sigmoid(2 * z); RMS error 0.037.
    "default": {"race": 1.6298, "tempo_close": 0.1962, "score_diff": 0.5861, "turn_total": -0.4166},
    # The same fit with the three plainest features (RMS error 0.066).
    "simple": {"score_diff": 2.3054, "turn_total": 1.415, "tempo": 0.1922},
    # Banked score difference alone (the OpenSpiel test's evaluation, squashed into [-1, 1]).
    "score_diff": {"score_diff": 2.0},
}
"""Named weight presets of the evaluation ``tanh(sum w_i * f_i)``. Pig has no textbook evaluation (RULES.md)."""


class PigEvaluation:
    """``tanh(sum_i w_i * f_i(state, player))``: an estimate of the expected utility in ``(-1, 1)``.

    ``(value + 1) / 2 = sigmoid(2 * z)`` is then an estimate of the win probability, which is how the
    ``default`` weights were fitted. A finished position is scored by the game, not by this function.

    Args:
        weights: feature name -> weight (see :data:`FEATURE_DOCS`); missing features weigh 0.
        target: the game's target (features are fractions of it).

    Raises:
        AgentError: a weight names no feature.
    """

    def __init__(self, weights: Mapping[str, float], target: int = DEFAULT_TARGET) -> None:
        unknown = sorted(set(weights) - set(FEATURE_DOCS))
        if unknown:
            raise AgentError(f"unknown pig evaluation feature(s) {', '.join(unknown)}; "
                             f"expected some of {', '.join(FEATURE_DOCS)}")
        self.weights = {k: float(v) for k, v in weights.items()}
        self.target = target
        w = self.weights
        self._w = (w.get("score_diff", 0.0), w.get("turn_total", 0.0), w.get("tempo", 0.0), w.get("race", 0.0),
                   w.get("tempo_close", 0.0))
        self._need_scale = bool(self._w[3] or self._w[4])

    def __call__(self, state: PigState, player: int) -> float:
        w_sd, w_tt, w_tp, w_race, w_tc = self._w
        own, opp, t = _mover_view(state, self.target)
        z = w_sd * (own - opp) + w_tt * t + w_tp
        if self._need_scale:
            d_me = max(0.0, 1.0 - own - t)
            d_opp = max(0.0, 1.0 - opp)
            scale = 1.0 / math.sqrt(d_me + d_opp + _SHIFT)
            z += (w_race * (d_opp - d_me) + w_tc) * scale
        v = math.tanh(z)
        return v if state.player == player else -v

    def breakdown(self, state: PigState, player: int) -> dict[str, tuple[float, float]]:
        """Per feature: (value, weighted contribution to ``z``) for the settings panel and teaching views."""
        f = feature_values(state, player, self.target)
        return {k: (v, self.weights.get(k, 0.0) * v) for k, v in f.items()}


def score_difference(state: PigState, player: int) -> float:
    """Banked score difference in points (own - opponent): the evaluation of OpenSpiel's expectiminimax test.

    Unlike :class:`PigEvaluation` it is in score points, not in ``[-1, 1]``.
    """
    return float(state.s1 - state.s2 if player == 0 else state.s2 - state.s1)


def _feature(name: str) -> Callable[[Any, int], float]:
    def f(state: Any, player: int) -> float:
        return feature_values(state, player)[name]
    f.__name__ = name
    f.__doc__ = FEATURE_DOCS[name]
    return f


# ----- agents ---------------------------------------------------------------------------------------------------
def _pig_of(profile: GameProfile) -> Pig:
    game = profile.game
    if not isinstance(game, Pig):
        raise AgentError(f"pig agents need a Pig game, got {game.name}")
    return game


class ExpectimaxAgent(Agent):
    """Expectimax (or, with ``chance="adversary"``, minimax with the dice as adversary) with iterative deepening.

    Args:
        profile: Pig's profile.
        settings: ``depth`` (decisions), ``time`` (seconds), ``tt`` (the memo), ``weights``.
        chance: ``"expect"`` or ``"adversary"``.

    Raises:
        AgentError: unknown weights.
    """

    portable = True
    """Rebuilt from its settings in the decision worker process (``ai.agents.worker``)."""

    def __init__(self, profile: GameProfile, settings: AgentSettings, chance: str = "expect") -> None:
        super().__init__(profile, settings)
        self.pig = _pig_of(profile)
        self.chance = chance
        self.evaluate = PigEvaluation(profile.weights_of(settings), self.pig.target)

    def choose(self, state: Any, stop_event: threading.Event | None = None,
               on_info: Callable[[SearchInfo], None] | None = None, recorder: Any = None) -> SearchResult:
        s = self.settings
        searcher = Expectimax(self.game, self.evaluate, chance=self.chance, memo=s.search.tt, stop_event=stop_event,
                              recorder=recorder)
        return iterative_expectimax(self.game, state, searcher, s.search_limits(latency_s=self.latency_s), on_info,
                                    max_depth=64)


def _policy_of(settings: AgentSettings) -> int | None:
    """``None`` for the optimal policy, ``N`` for ``weights=holdN``.

    Raises:
        AgentError: another weights name.
    """
    w = settings.weights.strip().lower()
    if w in ("default", "optimal"):
        return None
    if w.startswith("hold") and w[4:].strip():
        try:
            return int(HOLD_AT.read(w[4:], "optimal agent: the N of weights=holdN"))
        except RangeError as e:
            raise AgentError(str(e)) from None
    raise AgentError(f"optimal agent: weights must be default (the optimal policy) or holdN (hold at N, e.g. "
                     f"hold20), got {settings.weights!r}")


class PolicyAgent(Agent):
    """Plays a policy solved exactly by :mod:`ai.pig.pig_optimal`: the optimal one or "hold at N".

    The table for the game's (target, faces) is loaded on the first decision (computed and cached on disk the
    first time: about 0.5 s for target 100). ``value`` is ``2 * P - 1`` with ``P`` the exact win probability
    of the player to move when both players follow the policy.

    Args:
        profile: Pig's profile.
        settings: ``weights`` selects the policy (``default`` or ``holdN``).
        hold_at: overrides the settings' policy (``None``: take it from the settings).
        progress: ``progress(done, total)`` while the table is computed.

    Raises:
        AgentError: unknown policy name.
    """

    portable = True
    """Rebuilt from its settings in the decision worker process (``ai.agents.worker``)."""

    def __init__(self, profile: GameProfile, settings: AgentSettings, hold_at: int | None = None,
                 progress: Callable[[int, int], None] | None = None) -> None:
        super().__init__(profile, settings)
        self.pig = _pig_of(profile)
        self.hold_at = hold_at if hold_at is not None else _policy_of(settings)
        self.progress = progress

    def table(self) -> Any:
        """The :class:`ai.pig.pig_optimal.PigTable` of this policy (loaded or computed on first use)."""
        from ai.pig.pig_optimal import load_table
        return load_table(self.pig.target, self.pig.faces, self.hold_at, progress=self.progress)

    def choose(self, state: Any, stop_event: threading.Event | None = None,
               on_info: Callable[[SearchInfo], None] | None = None, recorder: Any = None) -> SearchResult:
        import time
        t0 = time.perf_counter()
        game = self.pig
        if game.is_chance(state):
            raise GameError("the position is a chance node: the die decides (the referee samples it), "
                            "there is no move to choose")
        if not game.actions(state):
            raise GameError("the position is over: there is no move to choose")
        table = self.table()
        own, opp, k = game.scores(state, state.player)
        roll = table.roll_value(own, opp, k)
        values: dict[Any, float] = {ROLL: 2.0 * roll - 1.0}
        if k > 0:
            values[HOLD] = 2.0 * table.hold_value(own, opp, k) - 1.0
        move = HOLD if table.holds(own, opp, k) else ROLL
        p = (values[move] + 1.0) / 2.0
        value = values[move] + 0.0
        elapsed = time.perf_counter() - t0
        if on_info is not None:
            on_info(SearchInfo(0, value, (move,), 0, elapsed, move))
        policy = "optimal" if self.hold_at is None else f"hold at {self.hold_at}"
        return SearchResult(move, value, None, None, 0, 0, (move,), elapsed, StopReason.TABLE,
                            {"win_probability": p, "values": values, "policy": policy})

    def describe(self) -> str:
        return "optimal policy" if self.hold_at is None else f"hold at {self.hold_at}"


def hold_at_agent(n: int, profile: GameProfile | None = None) -> PolicyAgent:
    """A "hold at ``n``" agent (rolls until the turn total is at least ``n`` or the game is won)."""
    prof = profile if profile is not None else make_profile()
    return PolicyAgent(prof, AgentSettings(name="optimal", algorithm="optimal", weights=f"hold{n}"), hold_at=n)


def _build_expectimax(profile: GameProfile, settings: AgentSettings) -> Agent:
    return ExpectimaxAgent(profile, settings, "expect")


def _build_minimax(profile: GameProfile, settings: AgentSettings) -> Agent:
    return ExpectimaxAgent(profile, settings, "adversary")


def _build_optimal(profile: GameProfile, settings: AgentSettings) -> Agent:
    return PolicyAgent(profile, settings)


def make_profile(target: int = DEFAULT_TARGET, faces: int = 6) -> GameProfile:
    """Pig's :class:`ai.agents.agents.GameProfile` (algorithms, builders, weight and difficulty presets, defaults).

    Args:
        target: points needed to win (RULES.md: 100).
        faces: die faces (RULES.md: 6).
    """
    game = Pig(target, faces)
    return GameProfile(
        game=game,
        features={name: _feature(name) for name in FEATURE_DOCS},
        weight_presets={k: dict(v) for k, v in WEIGHT_PRESETS.items()},
        presets={
            "beginner": {"algorithm": "minimax", "depth": 4},
            # Exact scores against optimal rise 0.031 < 0.299 < 0.462 < 0.493 < 0.5 (module docstring). The old
            # easy, expectimax depth 2 with weights=score_diff, scored 0.478: above medium.
            "easy": {"algorithm": "optimal", "weights": "hold10"},
            "medium": {"algorithm": "expectimax", "depth": 1, "weights": "simple"},
            "hard": {"algorithm": "expectimax"},
            "expert": {"algorithm": "optimal"},
        },
        defaults={"expectimax": {"depth": 2, "time": 0.3}, "minimax": {"depth": 4, "time": 0.3}, "optimal": {}},
        algorithms=("human", "random", "minimax", "expectimax", "optimal", "mcts"),
        builders={"expectimax": _build_expectimax, "minimax": _build_minimax, "optimal": _build_optimal},
        evaluator_factory=lambda w: PigEvaluation(w, target),
    )


# ----- exact strength: policy evaluation of one policy against another ----------------------------------------
HoldRule = Callable[[int, int, int], bool]
"""``holds(own, opp, turn) -> bool``: a Pig policy (True to hold) for a turn total ``turn >= 1``."""


def hold_rule(agent: Agent) -> HoldRule:
    """The policy an agent plays, as a :data:`HoldRule` (the same move :meth:`Agent.choose` returns).

    A :class:`PolicyAgent` gives its table's rule. An :class:`ExpectimaxAgent` is asked lazily, one search per
    position, with the move it plays at its full depth (what ``choose`` returns whenever the depth, not the
    time, is the limit that binds: a Pig decision takes well under a millisecond). The searches share one
    memo, which is sound because the positions are always seen from player 1 (the memo stores values for the
    root player). Answers are remembered.

    Raises:
        AgentError: another kind of agent (human, random).
    """
    if isinstance(agent, PolicyAgent):
        if agent.hold_at is None:
            optimal: HoldRule = agent.table().holds
            return optimal
        n = agent.hold_at
        return lambda own, opp, turn: turn >= n
    if not isinstance(agent, ExpectimaxAgent):
        raise AgentError(f"no fixed policy to evaluate for the {agent.settings.algorithm} agent")
    depth = agent.settings.depth
    if depth is None:
        raise AgentError("an expectimax agent needs a depth for its policy to be evaluated exactly")
    searcher = Expectimax(agent.pig, agent.evaluate, chance=agent.chance, memo=agent.settings.search.tt)
    known: dict[tuple[int, int, int], bool] = {}

    def holds(own: int, opp: int, turn: int) -> bool:
        key = (own, opp, turn)
        h = known.get(key)
        if h is None:
            move, _, _ = searcher.search_root(PigState(own, opp, turn, 0), depth)
            h = known[key] = move == HOLD
        return h
    return holds


def exact_match(first: HoldRule, second: HoldRule, target: int = DEFAULT_TARGET,
                faces: int = 6) -> tuple[float, float]:
    """Exact win probabilities of policy ``first`` against policy ``second`` (policy evaluation, no sampling).

    Both rules are fixed, so the win probabilities satisfy linear equations of the same shape as the optimal
    policy's (:mod:`ai.pig.pig_optimal`): with ``A(i, j, k)`` the probability that ``first`` wins when it is to move
    (own banked ``i``, opponent ``j``, turn total ``k``) and ``B(i, j, k)`` the same probability when ``second``
    is to move (its own banked ``i``),

        A(i, j, k) = B(j, i + k, 0) if first holds, else (1/f) [B(j, i, 0) + sum_{r=2..f} A(i, j, k + r)]
        B(i, j, k) = A(j, i + k, 0) if second holds, else (1/f) [A(j, i, 0) + sum_{r=2..f} B(i, j, k + r)]

    with ``A = 1`` and ``B = 0`` once the mover's ``i + k`` reaches the target. Holding raises the banked sum
    ``i + j``, so states are solved by decreasing sum; within a sum, the columns ``A(a, b, .)`` and
    ``B(b, a, .)`` depend on each other only through ``A(a, b, 0)`` and ``B(b, a, 0)``: a 2x2 linear system,
    solved exactly. Each rule is asked once per position (about 505,000 positions for target 100); about 1 s
    of arithmetic in CPython, plus the rules' own cost.

    Returns:
        ``(p_first_starts, p_second_starts)``: ``first``'s win probability when it moves first and when
        ``second`` does. A match alternating the first move scores their mean.
    """
    tg, f = target, faces
    inv = 1.0 / f
    a_row0 = [[0.0] * tg for _ in range(tg)]  # a_row0[i][j] = A(i, j, 0)
    b_row0 = [[0.0] * tg for _ in range(tg)]  # b_row0[i][j] = B(i, j, 0)

    def column(i: int, j: int, rule: HoldRule, win: float, hold_row: list[float]) -> tuple[float, float]:
        """k = 0 of the column (i, j, .) of the mover with ``rule`` as c + d * z, z its partner's k = 0 value.

        ``win`` is the value once the mover reaches the target (1 for A, 0 for B); ``hold_row[i + k]`` the
        value after holding ``k``."""
        kk = tg - i
        holds = [False] * kk  # the rule, asked only where the mover can be (k = 0, or reached by rolling)
        rolled = [False] * (kk + f + 1)
        rolled[0] = True
        for k in range(kk):
            if rolled[k] and not (k > 0 and rule(i, j, k)):
                for r in range(2, f + 1):
                    rolled[k + r] = True
            elif rolled[k]:
                holds[k] = True
        c = [win] * (kk + f + 1)
        d = [0.0] * (kk + f + 1)
        sc = win * (f - 1)
        sd = 0.0
        for k in range(kk - 1, -1, -1):
            sc += c[k + 2] - c[k + f + 1]
            sd += d[k + 2] - d[k + f + 1]
            if holds[k]:
                c[k], d[k] = hold_row[i + k], 0.0
            else:  # rolls (an unreachable k is filled as a roll: no reachable value depends on it)
                c[k], d[k] = sc * inv, (sd + 1.0) * inv
        return c[0], d[0]

    for total in range(2 * tg - 2, -1, -1):
        for a in range(max(0, total - tg + 1), min(total, tg - 1) + 1):
            b = total - a
            # A(a, b, .) with z = B(b, a, 0); B(b, a, .) with z = A(a, b, 0)
            c0, d0 = column(a, b, first, 1.0, b_row0[b])
            e0, g0 = column(b, a, second, 0.0, a_row0[a])
            x = (c0 + d0 * e0) / (1.0 - d0 * g0)
            a_row0[a][b] = x
            b_row0[b][a] = e0 + g0 * x
    return a_row0[0][0], b_row0[0][0]


PRESET_LADDER = ("beginner", "easy", "medium", "hard", "expert")
"""Pig's difficulty presets, weakest first."""


AGENT_PARTS = AgentParts(profile=make_profile, race_agents=("expectimax", "mcts:seed=1", "optimal"), race_budget=0.3,
                         mcts_rules=mcts_rules)
"""Pig's parts for the agents (``ai.agents.game_parts.agent_parts("pig")``): its profile and the race's line-up."""
