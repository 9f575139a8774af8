"""The agents' per-game parts: what the search layer knows of a game beyond its rules record.

A game's record (:class:`gameplay.rules.registry.GameInfo`) is the rules layer's and names nothing above it. What the
agents need of a game lives here, in an :class:`AgentParts` the game's own module of this layer offers: its agent
profile (features, weight and difficulty presets), its features in one pass, its bound on the plies left, the race's
line-up and budget, the growth and decision-tree bounds, the MCTS bench's line-up, the grader's exercise positions.

How a game's parts are found (no central list a new game edits): the module ``ai.<game>.<game>_agents`` (by the game's
command-line name: ``ai.checkers.checkers_agents``, ``ai.pig.pig_agents``), when it exists, defines ``AGENT_PARTS``; a
game registered at run time (a test's game) calls :func:`register_agent_parts` in its own process; a game file with dice
races expectimax and MCTS. Any other game gets :data:`DEFAULT_PARTS` (the generic profile, the default line-ups). One
convention rather than a list because a list in a shared module would have to name every game (and be edited by the next
one); the convention is this module's one line (:func:`agent_parts`) to change when the game modules move.

Looked up on first use and kept (a game's module is imported when a profile or a line-up is first asked for).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gameplay.rules.registry import game_info, import_module, make_game

if TYPE_CHECKING:
    from ai.agents.agent_base import GameProfile

__all__ = ["DEFAULT_PARTS", "AgentParts", "agent_parts", "register_agent_parts", "replaced_agent_parts",
           "unregister_agent_parts"]


@dataclass(frozen=True)
class AgentParts:
    """What the agents know of one game (every field has the default a new game gets)."""

    profile: Callable[[], GameProfile] | None = None
    """Returns the game's ``ai.agents.agent_base.GameProfile`` (features, weight presets, difficulty presets, defaults);
    ``None``: ``ai.agents.profiles.generic_profile`` (searches with no evaluation features)."""
    mcts_rules: Callable[[Any], Any] | None = None
    """``mcts_rules(game)``: the game's compiled rules for MCTS's random playouts (an ``ai.kernel.mcts_tree.Rules``,
    or ``None`` for a variant they do not cover), handed to ``ai.kernel.mcts.MCTS(fast_rules=)``; ``None``: MCTS runs
    over the game object (as fast as the game's own rules)."""
    feature_pass: Callable[[Any, frozenset[str]], dict[str, float]] | None = None
    """``feature_pass(state, names) -> {name: value for player 0}``: several features in one pass (an agent file's
    ``features``); ``None``: each feature is called on its own."""
    plies_left: Callable[[Any], int] | None = None
    """``plies_left(state)``: an upper bound on the plies left (the growth measurement never asks for more);
    ``None``: no bound."""
    growth_depth: int = 6
    """Default deepest depth of the growth measurement, in plies."""
    tree_max_nodes: int = 15_000
    """Nodes the decision recorder stores per iteration (the tree overlay and ``main.py tree``)."""
    race_agents: tuple[str, ...] = ("minimax", "alphabeta", "mcts:seed=1")
    """The race's default line-up (agent specs)."""
    race_budget: float = 1.0
    """The race's default budget per agent, in seconds."""
    mcts_bench: tuple[tuple[str, str], ...] = (("random", "mcts:seed=1"),)
    """``bench mcts``: ``(label, agent spec)`` measured from the start."""
    exercise_positions: tuple[str, ...] = ()
    """Positions a few plies from the end (the game's notation) on which ``main.py check`` grades a student's
    minimax and alpha-beta, searched to the end (so each stays small: a few hundred nodes); empty: none."""


DEFAULT_PARTS = AgentParts()
"""The parts of a game that offers none (a game file, a test's game)."""

_registered: dict[str, AgentParts] = {}
"""Game name -> parts given by :func:`register_agent_parts` (or by :func:`replaced_agent_parts`)."""
_found: dict[tuple[str, str, str], AgentParts] = {}
"""(Game name, rules module, source file) -> parts found by the convention (looked up once a process)."""


def agent_parts(game_name: str) -> AgentParts:
    """The agents' parts of a game by its command-line name (module docstring: registered, else the game's
    ``ai.<game>.<game>_agents.AGENT_PARTS``, else :data:`DEFAULT_PARTS`).

    Raises:
        UnknownGameError: not a registered game.
        GameLoadError: the game's agents module exists but cannot be imported (a broken install).
    """
    info = game_info(game_name)
    if info.name in _registered:
        return _registered[info.name]
    key = (info.name, info.module, info.source_file)
    if key not in _found:
        parts = DEFAULT_PARTS
        module = f"ai.{info.name}.{info.name}_agents"
        if info.source_file:  # a game file: a game with dice races expectimax and MCTS
            if make_game(info.name).traits.stochastic:
                parts = AgentParts(race_agents=("expectimax", "mcts:seed=1"))
        elif importlib.util.find_spec(f"ai.{info.name}") is not None \
                and importlib.util.find_spec(module) is not None:  # the game's room, then its agents' module
            parts = getattr(import_module(module, f"the {info.name} agents"), "AGENT_PARTS", DEFAULT_PARTS)
        _found[key] = parts
    return _found[key]


def register_agent_parts(game_name: str, parts: AgentParts) -> AgentParts:
    """Give a game registered at run time its agents' parts in this process (a worker process that learns the game
    gets the defaults); returns ``parts``.

    Raises:
        UnknownGameError: not a registered game.
    """
    _registered[game_info(game_name).name] = parts
    return parts


def unregister_agent_parts(game_name: str) -> None:
    """Forget the parts :func:`register_agent_parts` gave (nothing when none were given)."""
    _registered.pop(game_name.strip().lower(), None)


@contextmanager
def replaced_agent_parts(game_name: str, parts: AgentParts) -> Iterator[AgentParts]:
    """Make ``parts`` the game's agents' parts inside a ``with`` block, then put back what was there (an experiment
    or a test on a variant: another profile, another tree bound). Yields ``parts``. ``ai.agents.profiles`` builds the
    game's profile again when the profile factory differs.

    Raises:
        UnknownGameError: not a registered game.
    """
    name = game_info(game_name).name
    old = _registered.get(name)
    _registered[name] = parts
    try:
        yield parts
    finally:
        if old is None:
            _registered.pop(name, None)
        else:
            _registered[name] = old
