"""Agents written in a Python file: the ``file:PATH.py`` agent spec (CLI.md, "Agents"; README, "Writing your own
agent").

A file defines exactly one of:

* ``evaluate(state, player) -> float``: a position evaluation, a number for ``player`` (0 or 1; higher is better
  for ``player``). The project's own search uses it at its depth limit: alpha-beta for tic-tac-toe and checkers
  (values clamped into the heuristic band, so they never read as a proven win), expectimax for Pig (values
  clamped into ``[-1, 1]``, the expected-result scale of Pig's terminal utilities). The search is configured by
  the file's optional module-level ``SETTINGS = {"depth": 4, "time": 1.0}`` (keys :data:`EVAL_KEYS`), overridden
  by the spec's keys (``file:my.py:depth=3``).
* ``choose_move(state, time_left_s) -> move``: picks the move itself, within ``time_left_s`` seconds (the
  per-move limit). It returns one of ``game.actions(state)`` or its text in the game's notation. Keys
  :data:`AGENT_KEYS` (``time``: its per-move limit; ``seed``: the seed of Python's ``random`` in its process).

Before the file's code runs (and again before the first call) the arcade sets two module globals: ``game``, the
game object (``actions``, ``result``, ``is_terminal``, ``to_move``, ``utility``, ``format_move``, ``parse_move``,
...: :class:`gameplay.rules.base.Game`), and ``features(state, player, names=None) -> dict[str, float]``, the
named features of the project's own evaluation for ``player`` (:data:`ai.agents.agents.GameProfile.features`).

This module reads and checks a file *without running it* (:func:`inspect_agent_file` parses it with :mod:`ast`):
student code never runs in the window's process or a tournament's. :class:`ai.agents.agent_process.FileAgent` plays the
file from a worker process of its own, which loads it with :func:`load_agent_module`.
"""

from __future__ import annotations

import ast
import importlib.util
import linecache
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Mapping

from ai.agents.agent_base import (
    AgentError,
    AgentSettings,
    GameProfile,
    SearchSwitches,
    coerce_setting,
    not_applying,
)
from ai.agents.game_parts import agent_parts
from gameplay.rules.base import quoted, quoted_path
from gameplay.rules.limits import RangeError
from gameplay.rules.registry import game_names
from gameplay.rules.textfile import NotTextError, decode_text, read_file_bytes
from gameplay.rules.textfile import position as text_position

FILE_PREFIX = "file:"
"""The spec prefix of an agent file."""
DEFAULT_FILE_TIME_S = 1.0
"""Per-move limit (seconds) of a file agent whose spec, ``SETTINGS`` and match give none."""
EVAL_KEYS = ("depth", "time", "ordering", "tt", "quiescence", "prune", "seed", "lmr", "etc")
"""Keys an evaluation file's ``SETTINGS`` (or its spec) may set: the search that uses the evaluation."""
AGENT_KEYS = ("time", "seed")
"""Keys a ``choose_move`` file's ``SETTINGS`` (or its spec) may set."""
KINDS = {"evaluate": "evaluation", "choose_move": "agent"}
"""Function name -> kind of file."""
SIGNATURES = {"evaluate": "evaluate(state, player)", "choose_move": "choose_move(state, time_left_s)"}
_PATH_END = re.compile(r"\.py(?=:|$)", re.IGNORECASE)


@dataclass(frozen=True)
class AgentFileInfo:
    """What a checked agent file defines (found by reading it, never by running it)."""

    path: str
    """The file's absolute path."""
    kind: str
    """``evaluation`` (it defines ``evaluate``) or ``agent`` (``choose_move``)."""
    settings: dict[str, Any]
    """Its module-level ``SETTINGS`` (validated; empty when it has none)."""
    doc: str
    """The first line of its module docstring (empty when it has none)."""


def is_file_spec(spec: str) -> bool:
    """True when ``spec`` is ``file:PATH.py[:key=value,...]``."""
    return spec.strip().lower().startswith(FILE_PREFIX)


def split_file_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``(path text, {key: value text})`` of ``file:PATH.py[:key=value,...]``.

    Raises:
        AgentError: no ``.py`` path, or a setting that is not ``key=value`` (or given twice).
    """
    text = spec.strip()
    body = text[len(FILE_PREFIX):]
    m = _PATH_END.search(body)
    if not body.strip() or m is None:
        raise AgentError(f"agent spec {quoted(spec)} must name a Python file: file:PATH.py[:key=value,...]")
    path, rest = body[:m.end()].strip(), body[m.end() + 1:]
    opts: dict[str, str] = {}
    for part in (rest.split(",") if rest.strip() else []):
        k, eq, v = part.partition("=")
        k = k.strip().lower()
        if not eq or not k or not v.strip():
            raise AgentError(f"agent setting {quoted(part.strip())} in {quoted(spec)} is not key=value")
        if k in opts:
            raise AgentError(f"agent setting {k} given twice in {quoted(spec)}")
        opts[k] = v.strip()
    return path, opts


def bound_names(body: list[ast.stmt]) -> dict[str, ast.AST]:
    """``{name: the statement that binds it}`` for the names a module's top-level statements bind.

    ``body`` is a parsed module's ``tree.body``; names bound inside top-level ``if``/``try`` blocks count too
    (a later binding wins, as at run time); ``import a.b`` binds ``a``. Used by the agent-file loader and the grader
    (``ai.grader.exercise``) to find a file's functions without running it.
    """
    names: dict[str, ast.AST] = {}
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    names[t.id] = node
        elif isinstance(node, ast.AnnAssign) and node.value is not None and isinstance(node.target, ast.Name):
            names[node.target.id] = node
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                names[(a.asname or a.name).split(".")[0]] = node
        elif isinstance(node, ast.If):
            names.update(bound_names(node.body + node.orelse))
        elif isinstance(node, ast.Try):
            names.update(bound_names(node.body + node.orelse + node.finalbody))
    return names


def _check_signature(where: str, node: ast.AST, name: str) -> None:
    """A ``def`` must accept exactly two positional arguments (extra ones need defaults)."""
    if isinstance(node, ast.AsyncFunctionDef):
        raise AgentError(f"{where}: {name} must be a plain def, not async def")
    if not isinstance(node, ast.FunctionDef):
        return  # bound another way (import, assignment): checked when the worker loads it
    a = node.args
    positional = a.posonlyargs + a.args
    required = len(positional) - len(a.defaults)
    kw_required = [k.arg for k, d in zip(a.kwonlyargs, a.kw_defaults) if d is None]
    if required <= 2 and (len(positional) >= 2 or a.vararg is not None) and not kw_required:
        return
    got = ", ".join([p.arg for p in positional] + ([f"*{a.vararg.arg}"] if a.vararg else []) + kw_required)
    raise AgentError(f"{where}: {name} must take two arguments, {SIGNATURES[name]}; "
                     f"yours (line {node.lineno}) takes ({got})")


_CODING = re.compile(rb"[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")
"""PEP 263's encoding declaration (``# -*- coding: latin-1 -*-``), on the first or second line."""
_COMMENT_OR_BLANK = re.compile(rb"[ \t\f]*(?:#.*)?")


def read_agent_source(path: str | Path) -> str:
    """The source text of an agent file as its author meant it and as Python would read it: the encoding its
    first two lines declare (PEP 263), else as every text file (:func:`gameplay.rules.textfile.decode_text`: a
    byte-order mark, UTF-8, Windows-1252 for a line saved by an older Windows editor), line ends ``\\n``.

    Raises:
        OSError: the file cannot be read.
        RangeError: it is larger than :data:`gameplay.rules.limits.FILE_BYTES` (refused unread).
        NotTextError: it is not a text file.
    """
    data = read_file_bytes(path, f"agent file {Path(path).name}")
    declared = None
    for line in data.splitlines()[:2]:
        m = _CODING.match(line)
        if m is not None:
            declared = m.group(1).decode("ascii")
            break
        if not _COMMENT_OR_BLANK.fullmatch(line):
            break
    return decode_text(data, declared).text


def parse_python_file(path: str | Path, kind: str) -> tuple[Path, ast.Module]:
    """Read a student's Python file and parse it without running it (an agent file, an exercise file).

    Args:
        path: the ``.py`` file.
        kind: what the file is, for the messages (``"agent file"``, ``"exercise file"``).

    Returns:
        The path (``~`` expanded) and the parsed module.

    Raises:
        AgentError: missing or unreadable, not ``.py``, not text (a NUL character: its line and column), too large,
            or a syntax error (its line and column).
    """
    p = Path(path).expanduser()
    if p.suffix.lower() != ".py":
        raise AgentError(f"{kind} {quoted_path(str(path))} must be a Python file ending in .py")
    try:
        text = read_agent_source(p)
    except RangeError as e:
        raise AgentError(str(e)) from None
    except FileNotFoundError:
        raise AgentError(f"{kind} {quoted_path(str(path))} not found") from None
    except NotTextError as e:
        raise AgentError(f"{kind} {p.name}: {e}; an {kind} is Python source text") from None
    except OSError as e:
        raise AgentError(f"cannot read {kind} {quoted_path(str(path))}: {e.strerror or e}") from None
    where = f"{kind} {p.name}"
    if "\0" in text:  # Python refuses NUL characters; say where it is
        line, column = text_position(text, text.index("\0"))
        raise AgentError(f"{where}: not Python source (a NUL character on line {line}, column {column})")
    try:
        return p, ast.parse(text, filename=str(p))
    except SyntaxError as e:
        raise AgentError(_syntax_error(where, e)) from None


def inspect_agent_file(path: str | Path) -> AgentFileInfo:
    """Read and check an agent file without running it (its syntax, its one function, its ``SETTINGS``).

    Args:
        path: the ``.py`` file.

    Returns:
        What it defines.

    Raises:
        AgentError: the file is missing or unreadable, not ``.py``, not text, has a syntax error (the line and
            column are named),
            defines neither or both of ``evaluate`` and ``choose_move``, one with the wrong number of
            arguments, or a ``SETTINGS`` that is not a literal dict of known keys and valid values.
    """
    p, tree = parse_python_file(path, "agent file")
    where = f"agent file {p.name}"
    names = bound_names(tree.body)
    found = [n for n in KINDS if n in names]
    if not found:
        raise AgentError(f"{where} defines neither {SIGNATURES['evaluate']} -> float nor "
                         f"{SIGNATURES['choose_move']} -> move; expected one of them (templates: examples/agents/)")
    if len(found) == 2:
        raise AgentError(f"{where} defines both evaluate and choose_move; keep one: evaluate for an evaluation "
                         "our search uses, choose_move to pick the moves yourself")
    func = found[0]
    _check_signature(where, names[func], func)
    kind = KINDS[func]
    settings: dict[str, Any] = {}
    node = names.get("SETTINGS")
    if node is not None:
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        try:
            raw = ast.literal_eval(value) if value is not None else None
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            raw = None
        if not isinstance(raw, dict):
            raise AgentError(f"{where}: SETTINGS must be a literal dict such as {{\"depth\": 4, \"time\": 1.0}}")
        settings = check_keys(where, kind, raw)
    doc = (ast.get_docstring(tree) or "").strip().splitlines()
    return AgentFileInfo(str(p.resolve()), kind, settings, doc[0] if doc else "")


def check_keys(where: str, kind: str, raw: dict[Any, Any]) -> dict[str, Any]:
    """Validate settings of an agent file of ``kind`` (``SETTINGS`` or spec keys).

    Raises:
        AgentError: an unknown key for the kind, or a bad value (as in ``ai.agents.agents``).
    """
    allowed = EVAL_KEYS if kind == "evaluation" else AGENT_KEYS
    out: dict[str, Any] = {}
    for k, v in raw.items():
        key = str(k).strip().lower()
        if key not in allowed:
            raise AgentError(f"{where}: unknown setting {quoted(k)} for an {kind} file; expected some of "
                             f"{', '.join(allowed)}")
        try:
            out[key] = coerce_setting(key, v)
        except AgentError as e:
            raise AgentError(f"{where}: {e}") from None
    return out


# ----- settings and the agent (the calling process) ------------------------------------------------------------
@dataclass(frozen=True)
class FileAgentSettings(AgentSettings):
    """Settings of a ``file:`` agent (``algorithm`` is ``"file"``); the limits, the seed and :attr:`search` (the keys
    of :data:`EVAL_KEYS`) configure the search of an evaluation file, :attr:`searched_by`."""

    path: str = ""
    """The file's absolute path."""
    kind: str = "agent"
    """``evaluation`` or ``agent``."""
    searched_by: str | None = None
    """Evaluation files: the search that uses the evaluation (``alphabeta``, or ``expectimax`` for Pig: of the
    switches it reads ``tt`` only); ``None`` for a ``choose_move`` file. The JSON key ``search`` (:meth:`to_json`)."""

    def __post_init__(self) -> None:
        problem = not_applying(self.searched_by, self.search, self.mcts) if self.searched_by else None
        if problem is not None:
            raise AgentError(f"agent file {Path(self.path).name}: {problem} (the search of this game's "
                             "evaluation files)")

    def to_json(self) -> dict[str, Any]:
        """:meth:`AgentSettings.to_json` and the file's ``path``, ``kind`` and ``search`` (its searched_by)."""
        return {**super().to_json(), "path": self.path, "kind": self.kind, "search": self.searched_by}

    def spec(self) -> str:
        """``file:PATH.py[:key=value,...]`` rebuilding these settings (given the same file)."""
        limits = (("depth", self.depth), ("time", self.time_budget_s), ("seed", self.seed))
        parts = [f"{k}={v}" for k, v in limits if v is not None]
        if self.kind == "evaluation":
            base = SearchSwitches()
            for k in ("ordering", "tt", "quiescence", "lmr", "etc"):
                if getattr(self.search, k) != getattr(base, k):
                    parts.append(f"{k}={'on' if getattr(self.search, k) else 'off'}")
            if self.search.prune != base.prune:
                parts.append(f"prune={self.search.prune}")
        return FILE_PREFIX + self.path + (":" + ",".join(parts) if parts else "")


def search_of(profile: GameProfile) -> str:
    """The search an evaluation file of this game plugs into: ``expectimax`` with chance nodes, else ``alphabeta``."""
    return "expectimax" if profile.game.traits.stochastic else "alphabeta"


def parse_file_settings(spec: str, profile: GameProfile) -> FileAgentSettings:
    """Read a ``file:PATH.py[:key=value,...]`` spec for the profile's game (the file is read, never run).

    Evaluation files start from the game's defaults for their search (checkers: 1 s per move, quiescence on;
    Pig: depth 2, 0.3 s), then the file's ``SETTINGS``, then the spec's keys; a depth given without a time drops
    the default time.

    Raises:
        AgentError: see :func:`split_file_spec` and :func:`inspect_agent_file`; a spec key the kind refuses.
    """
    path, opts = split_file_spec(spec)
    return file_settings(profile, path, opts)


def file_settings(profile: GameProfile, path: str, values: Mapping[str, Any] | None = None) -> FileAgentSettings:
    """The settings of the agent file at ``path`` for the profile's game, with ``values`` (settings by key, text
    or values) over the file's ``SETTINGS``: what ``file:PATH.py[:key=value,...]`` gives, built without the text
    (the window's settings use it).

    Raises:
        AgentError: see :func:`inspect_agent_file`; a key the kind refuses.
    """
    info = inspect_agent_file(path)
    where = f"agent file {Path(info.path).name}"
    given = check_keys(where, info.kind, dict(values or {}))
    fields: dict[str, Any] = {}
    search = None
    if info.kind == "evaluation":
        search = search_of(profile)
        fields.update(profile.defaults.get(search, {}))
        chosen = {**info.settings, **given}
        if "depth" in chosen and "time" not in chosen:
            fields.pop("time", None)
    fields.update(info.settings)
    fields.update(given)
    base = FileAgentSettings(name=FILE_PREFIX + path, algorithm="file", path=info.path, kind=info.kind,
                             searched_by=search)
    return base.with_keys({k: coerce_setting(k, v) for k, v in fields.items() if k in EVAL_KEYS})


def move_limit_s(settings: AgentSettings, limit_s: float | None = None) -> float | None:
    """The per-move time limit (seconds) an agent plays under: ``limit_s`` when given, else its own ``time``; a
    file agent with neither gets :data:`DEFAULT_FILE_TIME_S`, another agent ``None`` (no limit)."""
    if limit_s is not None:
        return limit_s
    if settings.time_budget_s is not None:
        return settings.time_budget_s
    return DEFAULT_FILE_TIME_S if settings.algorithm == "file" else None


# ----- loading (the worker process only) --------------------------------------------------------------------------
def features_function(profile: GameProfile) -> Callable[..., dict[str, float]]:
    """``features(state, player, names=None) -> {name: value}``: the game's evaluation features for ``player``
    (all of them, or only ``names``), as the module global an agent file calls.

    Raises (when called):
        KeyError: a name that is not a feature of the game.
    """
    table = profile.features
    game_name = profile.game.name
    feature_pass = agent_parts(game_name).feature_pass if game_name in game_names() else None

    def features(state: Any, player: int, names: Any = None) -> dict[str, float]:
        wanted = list(table) if names is None else [str(n) for n in names]
        for n in wanted:
            if n not in table:
                raise KeyError(f"{n!r} is not a {game_name} feature; expected some of {', '.join(table)}")
        if feature_pass is not None:  # one pass for all of them (checkers: over the bitboards)
            values = feature_pass(state, frozenset(wanted))
            sign = 1.0 if player == 0 else -1.0
            return {n: sign * float(values[n]) for n in wanted}
        return {n: float(table[n](state, player)) for n in wanted}

    return features


def _syntax_error(where: str, e: SyntaxError) -> str:
    """``agent file bot.py: syntax error on line 5, column 9: '(' was never closed`` (as an editor counts)."""
    at = f", column {e.offset}" if e.offset else ""
    return f"{where}: syntax error on line {e.lineno}{at}: {e.msg}"


def load_agent_module(path: str, game: Any, features: Callable[..., dict[str, float]]) -> ModuleType:
    """Run an agent file as a module (in the worker process: this runs student code) with the globals ``game``
    and ``features`` set before its code runs and again after; its folder is appended to ``sys.path`` (helpers
    beside it can be imported).

    Raises:
        AgentError: the file cannot be compiled (a syntax error named with its line and column, as
            :func:`inspect_agent_file` says it: the file may have changed since it was inspected).
        Exception: whatever the file's module-level code raises.
    """
    p = Path(path)
    name = f"arcade_agent_file_{abs(hash(str(p))):x}"
    spec = importlib.util.spec_from_file_location(name, p)
    if spec is None or spec.loader is None:
        raise AgentError(f"cannot load agent file {p.name}")
    text = read_agent_source(p)  # as inspected: a Windows-1252 file runs as its author wrote it
    try:
        code = compile(text, str(p), "exec")
    except SyntaxError as e:
        raise AgentError(_syntax_error(f"agent file {p.name}", e)) from None
    linecache.cache[str(p)] = (len(text), None, text.splitlines(keepends=True), str(p))  # tracebacks show it
    module = importlib.util.module_from_spec(spec)
    module.__dict__.update(game=game, features=features)
    if str(p.parent) not in sys.path:
        sys.path.append(str(p.parent))
    sys.modules[name] = module
    exec(code, module.__dict__)  # noqa: S102 - the worker process runs the student's file, as import would
    module.__dict__.update(game=game, features=features)
    return module


def checked_evaluation(fn: Callable[..., Any], stochastic: bool) -> Callable[[Any, int], float]:
    """The file's ``evaluate`` as the search calls it: the result must be a finite number (Pig: clamped into
    ``[-1, 1]``).

    Raises (when called):
        TypeError: the file's function returned something else than a number.
        ValueError: it returned NaN or an infinity.
    """
    def evaluate(state: Any, player: int) -> float:
        v = fn(state, player)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"evaluate returned {type(v).__name__} {quoted(repr(v), 40)}; expected a float")
        x = float(v)
        if x != x or x in (float("inf"), float("-inf")):
            raise ValueError(f"evaluate returned {x}; expected a finite float")
        return max(-1.0, min(1.0, x)) if stochastic else x

    return evaluate


def with_search_time(settings: AgentSettings, limit_s: float | None) -> AgentSettings:
    """``settings`` whose search stops within ``limit_s``: its ``time`` becomes ``min(time, limit_s)`` (or
    ``limit_s`` when it had none); unchanged when there is no limit."""
    if limit_s is None:
        return settings
    own = settings.time_budget_s
    return replace(settings, time_budget_s=limit_s if own is None else min(own, limit_s))
