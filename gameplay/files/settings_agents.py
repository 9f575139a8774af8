"""A side of the settings as the agent that plays it: its spec, its agent settings, the agent, a preset made custom.

:func:`build_side_agent` turns a side into the agent of a match through ``ai.agents.agents`` (``agent_settings`` built
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
    from ai.agents.agent_base import Agent, AgentSettings


SEARCHING = ("minimax", "alphabeta", "expectimax")
"""The custom algorithms that search to a depth or a time budget (a side's ``depth`` and ``time_budget_s``)."""


def side_agent(game: str, side: SideSettings) -> tuple[str, dict[str, Any]]:
    """What a side of ``game`` plays, encoded once: the agent's name (``human``, ``random``, a preset, an algorithm)
    and its settings by spec key (CLI.md, "Agents"), in the order a spec writes them; both :func:`side_spec` and
    :func:`side_agent_settings` read it. Custom weights and an agent file's path are not in it (the callers add
    them). A custom searching side sets exactly the limits chosen (``depth``/``time`` only when set: the other is
    left open, not filled from the game's defaults). The side's cutoff test (``prune``) is written only for an
    agent it applies to (alpha-beta: a preset of the game's that plays it, or a custom one); the settings keep it
    for the others, which never took it (``ai.agents.agent_base.APPLIES_TO``)."""
    from ai.agents.agent_base import applies
    if side.agent in ("human", "random", "file"):
        return side.agent, {}
    if side.agent != "custom":
        from ai.agents.profiles import profile_for
        algorithm = str(profile_for(game).presets.get(side.agent, {}).get("algorithm", ""))
        return side.agent, ({"prune": side.prune} if side.prune != "ge" and applies("prune", algorithm) else {})
    values: dict[str, Any] = {}
    if side.algorithm in SEARCHING:
        values.update((k, v) for k, v in (("depth", side.depth), ("time", side.time_budget_s)) if v is not None)
        if applies("prune", side.algorithm):
            values["prune"] = side.prune
        if side.algorithm == "alphabeta" and not side.enhancements:
            values.update(ordering=False, tt=False, quiescence=False)
    elif side.algorithm == "mcts" and side.time_budget_s is not None:  # its budget; none: 1,000 simulations
        values["time"] = side.time_budget_s
    return side.algorithm, values


def _spec_value(v: Any) -> str:
    """One value as a spec writes it: ``on``/``off``, seconds as ``%g``, the rest as text."""
    if isinstance(v, bool):
        return "on" if v else "off"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def side_spec(game: str, side: SideSettings) -> str:
    """The agent spec of a side (CLI.md, "Agents"), without custom weights: what the side plays, as text
    (:func:`side_agent` written out; the side's agent is built from the same values by
    :func:`side_agent_settings`, not from this text).

    Examples: ``human``, ``medium``, ``medium:prune=gt``, ``alphabeta:depth=4,time=1,prune=gt``; a custom
    alpha-beta side with :attr:`SideSettings.enhancements` off adds ``ordering=off,tt=off,quiescence=off``
    (plain alpha-beta: no principal-variation search either, it needs the ordering).
    """
    if side.agent == "file":
        return f"file:{side.file or ''}"
    name, values = side_agent(game, side)
    return name + (":" + ",".join(f"{k}={_spec_value(v)}" for k, v in values.items()) if values else "")


def side_agent_settings(game: str, side: SideSettings) -> AgentSettings:
    """The validated ``ai.agents.agents.AgentSettings`` of a side (custom weights as ``custom_weights``), built from the
    side's fields by ``ai.agents.agents.agent_settings`` (``ai.agents.agent_file.file_settings`` for an agent file),
    with no spec text in between; the same settings as :func:`side_spec` read by ``ai.agents.agents.parse_settings``.

    Raises:
        SettingsError: a combination the game refuses or that would never finish (one clear message per
            problem, e.g. no depth and no time limit for checkers, all weights zero, an unknown feature).
    """
    from ai.agents.agent_file import file_settings
    from ai.agents.agents import agent_settings
    from ai.agents.profiles import profile_for
    from gameplay.rules.base import GameError
    profile = profile_for(game)
    problems: list[tuple[str, str]] = []
    if side.agent == "file" and not side.file:
        problems.append(("file", "choose the agent's .py file"))
    if side.agent == "custom":
        if side.algorithm not in profile.algorithms:
            problems.append(("algorithm", f"{side.algorithm} cannot play {game}; choose "
                             + ", ".join(a for a in profile.algorithms if a != "human")))
        searching = side.algorithm in SEARCHING
        if searching and side.depth is None and side.time_budget_s is None and not game_info(game).search_ends:
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
    searching = side.agent == "custom" and side.algorithm in SEARCHING
    try:
        if side.agent == "file":
            return file_settings(profile, (side.file or "").strip())
        name, values = side_agent(game, side)
        return agent_settings(profile, name, values, side.weights if searching else None,
                              limits_as_given=searching)
    except GameError as e:
        raise SettingsError([("agent", str(e))]) from None


def build_side_agent(game: str, side: SideSettings) -> Agent:
    """The agent that plays a side in a match (``ai.agents.agents.build_agent`` on :func:`side_agent_settings`).

    Raises:
        SettingsError: see :func:`side_agent_settings`, or the agent cannot be built.
    """
    from ai.agents.agents import build_agent
    from ai.agents.profiles import profile_for
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
    from ai.agents.profiles import profile_for
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
            if s.algorithm in SEARCHING and s.weights in profile.weight_presets:
                weights = dict(profile.weight_presets[s.weights]) if s.weights != "default" else None
            return replace(base, algorithm=s.algorithm, depth=s.depth, time_budget_s=s.time_budget_s,
                           weights=weights)
    d = custom_defaults(game)
    return replace(base, algorithm=d.get("algorithm", "alphabeta"), depth=d.get("depth"),
                   time_budget_s=d.get("time_budget_s"),
                   weights=None)
