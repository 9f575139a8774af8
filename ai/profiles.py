"""The agent profiles of the registered games (evaluation features, weight presets, difficulty presets).

The games and their names come from the one registry, :mod:`gameplay.rules.registry`; this module adds, per
registered name, the profile factory (:data:`PROFILE_FACTORIES`). Profiles are built on first use, never at
import time. Each game's agent module contributes a ``make_profile()`` function.
"""

from __future__ import annotations

from typing import Any

from ai.agent_base import GameProfile
from gameplay.rules.base import Game
from gameplay.rules.registry import GAME_NAMES, GameLoadError, import_module, normalize_name

GAMES = GAME_NAMES
"""The registered game names, in menu order (:data:`gameplay.rules.registry.GAME_NAMES`)."""
PROFILE_FACTORIES: dict[str, str] = {
    "tictactoe": "ai.profiles:_tictactoe",
    "checkers": "ai.checkers_eval:make_profile",
    "pig": "ai.pig_agents:make_profile",
}
"""Registered game name -> ``"module:function"`` building its :class:`~ai.agents.GameProfile`."""
_cache: dict[str, GameProfile] = {}


def _tictactoe() -> GameProfile:
    from ai.evaluation import TICTACTOE_FEATURES, TICTACTOE_WEIGHTS
    from gameplay.rules.tictactoe import TicTacToe
    return GameProfile(
        game=TicTacToe(),
        features=dict(TICTACTOE_FEATURES),
        weight_presets={k: dict(v) for k, v in TICTACTOE_WEIGHTS.items()},
        presets={
            "beginner": {"algorithm": "alphabeta", "depth": 1},
            # Depths 1 and 3 can be beaten (they miss forks); with these weights depth 2 and every depth >= 4
            # never lose. Exact score against uniform random moves: 0.964 < 0.969 < 0.971 = 0.971 = 0.971
            # (tests/test_ladder.py; README "Difficulty ladder").
            "easy": {"algorithm": "alphabeta", "depth": 3},
            "medium": {"algorithm": "alphabeta", "depth": 4},
            "hard": {"algorithm": "alphabeta", "depth": 5},
            "expert": {"algorithm": "alphabeta", "depth": 9},
        },
        # With no depth and no time the search runs to the end of the game (at most 9 plies).
        defaults={"minimax": {}, "alphabeta": {}},
    )




def available_games() -> tuple[str, ...]:
    """The registered games, in menu order (every one is installed; a broken one fails when first used)."""
    return GAME_NAMES


def profile_for(game_name: str) -> GameProfile:
    """The profile of a game by its command-line name (surrounding spaces and case ignored).

    Raises:
        GameError: unknown game name (``gameplay.rules.registry.UnknownGameError``).
        GameLoadError: the game's agent module or rules cannot be imported (a broken install; the message names
            the module and the underlying ``ImportError``).
    """
    key = normalize_name(game_name)
    if key in _cache:
        return _cache[key]
    module, _, function = PROFILE_FACTORIES[key].partition(":")
    what = f"the {key} profile"
    factory: Any = getattr(import_module(module, what), function)
    try:
        profile: GameProfile = factory()
    except ImportError as e:  # a module the factory imports (the game's rules) is broken
        raise GameLoadError(getattr(e, "name", None) or module, e, what) from e
    _cache[key] = profile
    return profile


def game_for(game_name: str) -> Game[Any, Any]:
    """The game object by command-line name (see :func:`profile_for`)."""
    return profile_for(game_name).game
