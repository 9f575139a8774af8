"""The registry of games and their agent profiles (evaluation features, weight presets, difficulty presets).

Built on first use, never at import time. Each game module contributes a ``make_profile()`` function.
"""

from __future__ import annotations

from typing import Any

from ai.agents import GameProfile
from gameplay.rules.base import Game, GameError

GAMES = ("tictactoe", "checkers", "pig")
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
            "easy": {"algorithm": "alphabeta", "depth": 2},
            "medium": {"algorithm": "alphabeta", "depth": 3},
            "hard": {"algorithm": "alphabeta", "depth": 5},
            "expert": {"algorithm": "alphabeta", "depth": 9},
        },
        # With no depth and no time the search runs to the end of the game (at most 9 plies).
        defaults={"minimax": {}, "alphabeta": {}},
    )




def available_games() -> tuple[str, ...]:
    """Games whose rules are installed, in menu order."""
    out = []
    for name in GAMES:
        try:
            profile_for(name)
        except GameError:
            continue
        out.append(name)
    return tuple(out)


def profile_for(game_name: str) -> GameProfile:
    """The profile of a game by its command-line name.

    Raises:
        GameError: unknown game name.
    """
    key = game_name.strip().lower()
    if key in _cache:
        return _cache[key]
    factory: Any = None
    if key == "tictactoe":
        factory = _tictactoe
    elif key == "checkers":
        try:
            from ai.checkers_eval import make_profile as factory
        except ImportError:
            factory = None
    elif key == "pig":
        try:
            from ai.pig_agents import make_profile as factory
        except ImportError:
            factory = None
    if factory is None:
        raise GameError(f"unknown game {game_name!r}; expected one of {', '.join(GAMES)}")
    profile: GameProfile = factory()
    _cache[key] = profile
    return profile


def game_for(game_name: str) -> Game[Any, Any]:
    """The game object by command-line name (see :func:`profile_for`)."""
    return profile_for(game_name).game
