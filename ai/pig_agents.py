"""Pig's agent profile: the weighted evaluation, expectimax, minimax with the dice as adversary, the optimal policy.

Algorithms (``../shared/CLI.md``): ``human``, ``random``, ``minimax``, ``expectimax``, ``optimal``. Alpha-beta is
refused by :func:`ai.agents.parse_settings` (it has no chance nodes).

* ``expectimax`` (:class:`ExpectimaxAgent`): :mod:`ai.expectimax` with the weighted evaluation below at the
  depth limit. Defaults: ``depth=2`` decisions, ``time=0.3`` s (the depth is the limit that binds; a decision
  takes well under a millisecond). The depth was chosen by measurement (``ai.pig_bench``): with the fitted
  evaluation, depth 2 agreed with the optimal move more often than depths 3..9. ``tt=off`` turns the
  ``(state, depth)`` memo off; ``ordering``, ``quiescence`` and ``prune`` have no effect.
* ``minimax`` (:class:`ExpectimaxAgent` with ``chance="adversary"``): the classroom foil; the die is the
  adversary of the player to move at the root (a chance node takes the outcome worst for that player).
  Default ``depth=4``. It holds as soon as its turn total is positive.
* ``optimal`` (:class:`PolicyAgent`): the exact optimal policy by dynamic programming (:mod:`ai.pig_optimal`,
  Neller and Presser 2004); its value is the exact win probability mapped to ``[-1, 1]``. The ``weights``
  setting selects the policy: ``default`` (or ``optimal``) the optimal one, ``holdN`` (e.g. ``optimal:weights=
  hold20``) the fixed policy "hold as soon as the turn total is at least N", whose reported win probability is
  exact when both players follow it.

Values are expected utilities in ``[-1, 1]`` from the player to move (win +1, loss -1); ``extra`` carries
``win_probability = (value + 1) / 2`` and ``values`` (each root move's value).

Difficulty presets, weakest to strongest, with the measured score against ``optimal`` (fraction of games won,
``python -m ai.pig_bench --agent NAME --games N --jobs 2``; 95% error about 0.03 at 1000 games, 0.015 at 4000):
    * ``beginner``: ``minimax`` depth 4 (dice as adversary: banks every first good roll): 0.028 (4000 games).
    * ``easy``: ``expectimax`` depth 2 with ``weights=score_diff`` (banked scores only): 0.46 (1000 games).
    * ``medium``: ``expectimax`` depth 1 with ``weights=simple``: 0.46 (1000 games).
    * ``hard``: ``expectimax`` with the defaults (depth 2, fitted weights): 0.486 (4000 games).
    * ``expert``: ``optimal`` (the exact optimal policy): 0.5 by definition.
(For reference, "hold at 20" scores 0.462 over 4000 games.) Past the beginner, Pig leaves little room between
good policies, so easy..hard differ by a few percent only.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Mapping
from typing import Any

from ai.agents import Agent, AgentError, AgentSettings, GameProfile
from ai.expectimax import Expectimax, iterative_expectimax
from ai.search import SearchInfo, SearchLimits, SearchResult
from gameplay.rules.base import GameError
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
    # Fitted by logistic regression of the exact optimal win probabilities (ai.pig_optimal) on 20,000 random
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

    def __init__(self, profile: GameProfile, settings: AgentSettings, chance: str = "expect") -> None:
        super().__init__(profile, settings)
        self.pig = _pig_of(profile)
        self.chance = chance
        self.evaluate = PigEvaluation(profile.weights_of(settings), self.pig.target)

    def choose(self, state: Any, stop_event: threading.Event | None = None,
               on_info: Callable[[SearchInfo], None] | None = None, recorder: Any = None) -> SearchResult:
        s = self.settings
        searcher = Expectimax(self.game, self.evaluate, chance=self.chance, memo=s.tt, stop_event=stop_event,
                              recorder=recorder)
        return iterative_expectimax(self.game, state, searcher, SearchLimits(s.depth, s.time), on_info,
                                    max_depth=64)


def _policy_of(settings: AgentSettings) -> int | None:
    """``None`` for the optimal policy, ``N`` for ``weights=holdN``.

    Raises:
        AgentError: another weights name.
    """
    w = settings.weights.strip().lower()
    if w in ("default", "optimal"):
        return None
    if w.startswith("hold") and w[4:].isdigit() and int(w[4:]) >= 1:
        return int(w[4:])
    raise AgentError(f"optimal agent: weights must be default (the optimal policy) or holdN (hold at N, e.g. "
                     f"hold20), got {settings.weights!r}")


class PolicyAgent(Agent):
    """Plays a policy solved exactly by :mod:`ai.pig_optimal`: the optimal one or "hold at N".

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

    def __init__(self, profile: GameProfile, settings: AgentSettings, hold_at: int | None = None,
                 progress: Callable[[int, int], None] | None = None) -> None:
        super().__init__(profile, settings)
        self.pig = _pig_of(profile)
        self.hold_at = hold_at if hold_at is not None else _policy_of(settings)
        self.progress = progress

    def table(self) -> Any:
        """The :class:`ai.pig_optimal.PigTable` of this policy (loaded or computed on first use)."""
        from ai.pig_optimal import load_table
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
        return SearchResult(move, value, None, None, 0, 0, (move,), elapsed, "table",
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
    """Pig's :class:`ai.agents.GameProfile` (algorithms, builders, weight and difficulty presets, defaults).

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
            "easy": {"algorithm": "expectimax", "depth": 2, "weights": "score_diff"},
            "medium": {"algorithm": "expectimax", "depth": 1, "weights": "simple"},
            "hard": {"algorithm": "expectimax"},
            "expert": {"algorithm": "optimal"},
        },
        defaults={"expectimax": {"depth": 2, "time": 0.3}, "minimax": {"depth": 4, "time": 0.3}, "optimal": {}},
        algorithms=("human", "random", "minimax", "expectimax", "optimal"),
        builders={"expectimax": _build_expectimax, "minimax": _build_minimax, "optimal": _build_optimal},
        evaluator_factory=lambda w: PigEvaluation(w, target),
    )
