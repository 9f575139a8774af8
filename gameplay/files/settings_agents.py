"""A side of the settings as the agent that plays it: its spec, its agent settings, the agent, a preset made custom.

:func:`build_side_agent` turns a side into the agent of a match through ``ai.agents`` (``agent_settings`` built
from the side's fields, then ``build_agent``; custom weights become ``AgentSettings.custom_weights``); ``ai`` is
imported only when called.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from gameplay.files.settings import CUSTOM_ALGORITHMS, PRESETS, SideSettings, custom_defaults
from gameplay.files.settings_fields import SettingsError
from gameplay.rules.registry import game_info

if TYPE_CHECKING:
    from ai.agent_base import Agent, AgentSettings


def side_spec(game: str, side: SideSettings) -> str:
    """The agent spec of a side (CLI.md, "Agents"), without custom weights: what the side plays, as text (the
    side's agent is built from its fields by :func:`side_agent_settings`, not from this text).

    Examples: ``human``, ``medium``, ``medium:prune=gt``, ``alphabeta:depth=4,time=1.0,prune=gt``; a custom
    alpha-beta side with :attr:`SideSettings.enhancements` off adds ``ordering=off,tt=off,quiescence=off``
    (plain alpha-beta: no principal-variation search either, it needs the ordering).
    """
    if side.agent in ("human", "random"):
        return side.agent
    if side.agent == "file":
        return f"file:{side.file or ''}"
    if side.agent != "custom":
        return side.agent + (f":prune={side.prune}" if side.prune != "ge" else "")
    parts = []
    if side.algorithm in ("minimax", "alphabeta", "expectimax"):
        if side.depth is not None:
            parts.append(f"depth={side.depth}")
        if side.time is not None:
            parts.append(f"time={side.time:g}")
        parts.append(f"prune={side.prune}")
        if side.algorithm == "alphabeta" and not side.enhancements:
            parts.append("ordering=off,tt=off,quiescence=off")
    elif side.algorithm == "mcts" and side.time is not None:  # its time per move; none: 1,000 simulations
        parts.append(f"time={side.time:g}")
    return side.algorithm + (":" + ",".join(parts) if parts else "")


def side_agent_settings(game: str, side: SideSettings) -> AgentSettings:
    """The validated ``ai.agents.AgentSettings`` of a side (custom weights as ``custom_weights``), built from the
    side's fields by ``ai.agents.agent_settings`` (``ai.agent_file.file_settings`` for an agent file), with no spec
    text in between; the same settings as :func:`side_spec` read by ``ai.agents.parse_settings``.

    Raises:
        SettingsError: a combination the game refuses or that would never finish (one clear message per
            problem, e.g. no depth and no time limit for checkers, all weights zero, an unknown feature).
    """
    from ai.agent_file import file_settings
    from ai.agents import agent_settings
    from ai.profiles import profile_for
    from gameplay.rules.base import GameError
    profile = profile_for(game)
    problems: list[tuple[str, str]] = []
    if side.agent == "file" and not side.file:
        problems.append(("file", "choose the agent's .py file"))
    if side.agent == "custom":
        if side.algorithm not in profile.algorithms:
            problems.append(("algorithm", f"{side.algorithm} cannot play {game}; choose "
                             + ", ".join(a for a in profile.algorithms if a != "human")))
        searching = side.algorithm in ("minimax", "alphabeta", "expectimax")
        if searching and side.depth is None and side.time is None and not game_info(game).search_ends:
            problems.append(("depth", "set a depth or a time limit (an unlimited search never ends)"))
        if searching and side.weights is not None:
            unknown = sorted(set(side.weights) - set(profile.features))
            if unknown:
                problems.append(("weights", f"unknown feature(s) {', '.join(unknown)}; expected some of "
                                 + ", ".join(profile.features)))
            elif not any(side.weights.values()):
                problems.append(("weights", "all weights are 0: the agent could not tell positions apart"))
    if problems:
        raise SettingsError(problems)
    searching = side.agent == "custom" and side.algorithm in ("minimax", "alphabeta", "expectimax")
    try:
        if side.agent == "file":
            settings: AgentSettings = file_settings(profile, (side.file or "").strip())
        elif side.agent != "custom":
            keep = side.agent in ("human", "random") or side.prune == "ge"
            settings = agent_settings(profile, side.agent, {} if keep else {"prune": side.prune})
        else:
            settings = agent_settings(profile, side.algorithm, _custom_values(side),
                                      side.weights if searching else None)
    except GameError as e:
        raise SettingsError([("agent", str(e))]) from None
    if searching:
        # exactly the limits chosen (the game's defaults would fill in a limit left open)
        settings = replace(settings, depth=side.depth, time=side.time)
    return settings


def _custom_values(side: SideSettings) -> dict[str, Any]:
    """A custom side's agent settings by key (what :func:`side_spec` writes after the algorithm's name)."""
    values: dict[str, Any] = {}
    if side.algorithm in ("minimax", "alphabeta", "expectimax"):
        values.update({k: v for k, v in (("depth", side.depth), ("time", side.time)) if v is not None})
        values["prune"] = side.prune
        if side.algorithm == "alphabeta" and not side.enhancements:
            values.update(ordering=False, tt=False, quiescence=False)
    elif side.algorithm == "mcts" and side.time is not None:  # its time per move; none: 1,000 simulations
        values["time"] = side.time
    return values


def build_side_agent(game: str, side: SideSettings) -> Agent:
    """The agent that plays a side in a match (``ai.agents.build_agent`` on :func:`side_agent_settings`).

    Raises:
        SettingsError: see :func:`side_agent_settings`, or the agent cannot be built.
    """
    from ai.agents import build_agent
    from ai.profiles import profile_for
    from gameplay.rules.base import GameError
    settings = side_agent_settings(game, side)
    try:
        return build_agent(profile_for(game), settings)
    except GameError as e:
        raise SettingsError([("agent", str(e))]) from None


def custom_from(game: str, side: SideSettings) -> SideSettings:
    """A ``custom`` side equal to what ``side`` plays now (a preset opened for editing keeps its values).

    Human and random sides give the game's :func:`custom_defaults` with the game's default weights.
    """
    from ai.profiles import profile_for
    profile = profile_for(game)
    base = replace(side, agent="custom")
    if side.agent == "custom":
        return base
    if side.agent in PRESETS:
        try:
            s = side_agent_settings(game, side)
        except SettingsError:
            s = None
        if s is not None and s.algorithm in CUSTOM_ALGORITHMS:
            weights = None
            if s.algorithm in ("minimax", "alphabeta", "expectimax") and s.weights in profile.weight_presets:
                weights = dict(profile.weight_presets[s.weights]) if s.weights != "default" else None
            return replace(base, algorithm=s.algorithm, depth=s.depth, time=s.time, weights=weights)
    d = custom_defaults(game)
    return replace(base, algorithm=d.get("algorithm", "alphabeta"), depth=d.get("depth"), time=d.get("time"),
                   weights=None)
