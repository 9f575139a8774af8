"""The agent profiles of the registered games (evaluation features, weight presets, difficulty presets).

The games and their names come from the one registry, :mod:`gameplay.rules.registry`; each game's agents' parts
(:func:`ai.agents.game_parts.agent_parts`: its ``ai.<game>.<game>_agents`` module) give its profile factory, or none for
:func:`generic_profile`. Profiles are built on first use, never at
import time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from ai.agents.agent_base import Agent, AgentSettings, GameProfile
from ai.agents.game_parts import agent_parts
from ai.kernel.search import SearchInfo, SearchResult
from gameplay.rules.base import Game
from gameplay.rules.registry import GameLoadError, game_info, game_names, make_game

_cache: dict[str, GameProfile] = {}
"""Game name -> its profile, built on first use."""
_built_from: dict[str, tuple[object, ...]] = {}
"""Game name -> the rules module, class and profile factory its cached profile was built from (a game registered
again with other ones is rebuilt)."""


def generic_profile(game: Game[Any, Any]) -> GameProfile:
    """The profile of a game whose record names none: alpha-beta presets ``beginner`` .. ``hard`` at depths 1, 2,
    4 and 6 and ``expert`` searching 1 s a move, minimax and alpha-beta at depth 4 by default. A game with chance
    nodes (``traits.stochastic``) gets expectimax instead (presets at depths 1 .. 4, minimax with the dice as
    adversary, no alpha-beta). The evaluation at the depth limit is the game's own ``evaluation(state, player)``
    when it offers one (a game file's ``evaluate``: ``has_evaluate``), else none (a search scores only the ends
    it reaches)."""
    own: Callable[[Any, int], float] | None = getattr(game, "evaluation", None) \
        if getattr(game, "has_evaluate", False) else None
    factory = None if own is None else (lambda weights: own)
    if game.traits.stochastic:
        return GameProfile(
            game=game,
            weight_presets={"default": {}},
            presets={
                "beginner": {"algorithm": "expectimax", "depth": 1},
                "easy": {"algorithm": "expectimax", "depth": 2},
                "medium": {"algorithm": "expectimax", "depth": 3},
                "hard": {"algorithm": "expectimax", "depth": 4},
                "expert": {"algorithm": "expectimax", "time": 1.0},
            },
            defaults={"expectimax": {"depth": 3}, "minimax": {"depth": 3}},
            algorithms=("human", "random", "minimax", "expectimax", "mcts"),
            builders={"expectimax": _chance_agent("expect"), "minimax": _chance_agent("adversary")},
            evaluator_factory=factory,
        )
    return GameProfile(
        game=game,
        weight_presets={"default": {}},
        presets={
            "beginner": {"algorithm": "alphabeta", "depth": 1},
            "easy": {"algorithm": "alphabeta", "depth": 2},
            "medium": {"algorithm": "alphabeta", "depth": 4},
            "hard": {"algorithm": "alphabeta", "depth": 6},
            "expert": {"algorithm": "alphabeta", "time": 1.0},
        },
        defaults={"minimax": {"depth": 4}, "alphabeta": {"depth": 4}},
        evaluator_factory=factory,
    )


class ChanceSearchAgent(Agent):
    """Expectimax (``chance="expect"``) or minimax with the dice as adversary (``"adversary"``), deepening one
    decision at a time, with the profile's evaluation at the depth limit: the generic agent of a game with chance
    nodes (Pig has its own, :mod:`ai.pig.pig_agents`)."""

    portable = True
    """Rebuilt from its settings in the decision worker process (``ai.agents.worker``)."""

    def __init__(self, profile: GameProfile, settings: AgentSettings, chance: str = "expect") -> None:
        super().__init__(profile, settings)
        self.chance = chance
        self.evaluate = profile.evaluator(settings)

    def choose(self, state: Any, stop_event: threading.Event | None = None,
               on_info: Callable[[SearchInfo], None] | None = None, recorder: Any = None) -> SearchResult:
        from ai.kernel.expectimax import Expectimax, iterative_expectimax
        s = self.settings
        searcher = Expectimax(self.game, self.evaluate, chance=self.chance, memo=s.search.tt, stop_event=stop_event,
                              recorder=recorder)
        return iterative_expectimax(self.game, state, searcher, s.search_limits(latency_s=self.latency_s), on_info,
                                    max_depth=64)


def _chance_agent(chance: str) -> Callable[[GameProfile, AgentSettings], Agent]:
    def build(profile: GameProfile, settings: AgentSettings) -> Agent:
        return ChanceSearchAgent(profile, settings, chance)
    return build


def available_games() -> tuple[str, ...]:
    """The registered games, in menu order (every one is installed; a broken one fails when first used)."""
    return game_names()


def profile_for(game_name: str) -> GameProfile:
    """The profile of a game by its command-line name (surrounding spaces and case ignored).

    Raises:
        GameError: unknown game name (``gameplay.rules.registry.UnknownGameError``).
        GameLoadError: the game's agent module or rules cannot be imported (a broken install; the message names
            the module and the underlying ``ImportError``).
    """
    info = game_info(game_name)
    factory = agent_parts(info.name).profile
    source = (info.module, info.class_name, factory, info.source_file)
    if info.name in _cache and _built_from.get(info.name, source) == source:
        return _cache[info.name]
    what = f"the {info.name} profile"
    try:
        if factory is not None:
            profile: GameProfile = factory()
        else:
            profile = generic_profile(make_game(info.name))
    except ImportError as e:  # a module the factory imports (the game's rules) is broken
        raise GameLoadError(getattr(e, "name", None) or f"ai.{info.name}.{info.name}_agents", e, what) from e
    _cache[info.name] = profile
    _built_from[info.name] = source
    return profile


def game_for(game_name: str) -> Game[Any, Any]:
    """The game object by command-line name (see :func:`profile_for`)."""
    return profile_for(game_name).game
