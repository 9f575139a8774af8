"""A game file's states and moves made hashable, and read back from their text (:mod:`gameplay.rules.game_file`).

aima-python writes its games' states as it likes: ``GameState = namedtuple('GameState', 'to_move, utility, board,
moves')`` with a dict ``board`` and a list ``moves``, strings (figure 5.2's ``'A'``..``'D'``), moves as tuples or
lists. The searches' tables, the referee's repetition count and the move list need hashable values, so each state
or move gets a *key* (:func:`freeze`): the same value built of hashable parts only, equal for equal values. The game's
own functions never see the key: they are given the state as the game made it.

:func:`read_value` reads a state back from its ``repr`` (a position on the command line, a saved game's start):
Python's literals, ``frozenset({...})`` and ``set()``, and calls of the file's own namedtuple and dataclass types
with literal arguments (``GameState(to_move='X', utility=0, board={}, moves=[(1, 1)])``); nothing else runs.

Standard library only (the rules layer).
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
from collections.abc import Mapping
from types import ModuleType
from typing import Any

__all__ = ["ATOMS", "MAX_DEPTH", "FreezeError", "freeze", "readable_names", "read_value"]

ATOMS: frozenset[type] = frozenset({type(None), bool, int, float, complex, str, bytes})
"""Types whose values are their own key."""

MAX_DEPTH = 64
"""How deeply containers may nest in a state or move (deeper: :class:`FreezeError`, a cycle most likely)."""


class FreezeError(ValueError):
    """A value that cannot be made hashable (the message says which part, e.g. ``a generator``)."""


def freeze(value: Any, module_name: str, depth: int = 0) -> tuple[Any, bool]:
    """The hashable key of ``value`` and whether ``value`` needs one.

    Tuples, frozensets and Python's atoms (numbers, strings, ``None``) are their own key; lists, dicts and sets
    become tuples and frozensets tagged with their type (``[1, 2]`` and ``(1, 2)`` differ, as they do to ``==``);
    namedtuples and other objects of a class the file defines are tagged with their class (a class with its own
    ``__eq__`` and ``__hash__`` is its own key, any other by its fields, ``vars(obj)``).

    Args:
        value: a state or a move, as the game made it.
        module_name: the name the game file is loaded under (its classes' ``__module__``).
        depth: how deep in the value this part is (callers leave it 0).

    Returns:
        ``(key, needs)``: ``needs`` is True when ``value`` is not hashable as it is, or when it holds an object of a
        class defined in the file (pickled, such a value names the file's module, which a worker process loads
        first: the caller wraps it).

    Raises:
        FreezeError: a part that is neither hashable nor a container nor an object with fields (a generator, a
            numpy array...), or nesting deeper than :data:`MAX_DEPTH`.
    """
    kind = type(value)
    if kind in ATOMS:
        return value, False
    if depth >= MAX_DEPTH:
        raise FreezeError(f"it nests deeper than {MAX_DEPTH} levels (does it contain itself?)")
    if kind is tuple:
        keys, needs = _freeze_all(value, module_name, depth)
        return tuple(keys), needs
    if kind is frozenset:
        keys, needs = _freeze_all(value, module_name, depth)
        return (frozenset(keys) if needs else value), needs
    if kind is list:
        keys, _ = _freeze_all(value, module_name, depth)
        return (list, tuple(keys)), True
    if kind is set:
        keys, _ = _freeze_all(value, module_name, depth)
        return (set, frozenset(keys)), True
    if kind is dict:
        pairs, _ = _freeze_all(value.items(), module_name, depth)
        return (dict, frozenset(pairs)), True
    own = getattr(kind, "__module__", None) == module_name
    if isinstance(value, tuple):  # a namedtuple (or another tuple subclass)
        keys, needs = _freeze_all(value, module_name, depth)
        return (kind, tuple(keys)), needs or own
    if isinstance(value, dict):  # an OrderedDict, a defaultdict...
        pairs, _ = _freeze_all(value.items(), module_name, depth)
        return (kind, frozenset(pairs)), True
    if isinstance(value, (list, set, frozenset)):
        keys, _ = _freeze_all(value, module_name, depth)
        return (kind, tuple(keys) if isinstance(value, list) else frozenset(keys)), True
    hashable = kind.__hash__ is not None
    eq: Any = kind.__eq__
    if hashable and (not own or eq is not object.__eq__):
        return value, own  # a Fraction, an enum member, the file's own value class with __eq__ and __hash__
    fields = getattr(value, "__dict__", None)
    if isinstance(fields, dict):
        pairs, _ = _freeze_all(fields.items(), module_name, depth)
        return (kind, frozenset(pairs)), True
    raise FreezeError(f"it holds {_a(kind.__name__)}, which is not hashable and has no fields to compare")


def _freeze_all(values: Any, module_name: str, depth: int) -> tuple[list[Any], bool]:
    keys: list[Any] = []
    needs = False
    for v in values:
        k, n = freeze(v, module_name, depth + 1)
        keys.append(k)
        needs = needs or n
    return keys, needs


def _a(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def readable_names(module: ModuleType) -> dict[str, Any]:
    """The names :func:`read_value` may call: the file's namedtuple and dataclass types, ``frozenset``, ``set``."""
    names: dict[str, Any] = {"frozenset": frozenset, "set": set}
    for name, value in vars(module).items():
        if inspect.isclass(value) and value.__module__ == module.__name__ and (
                (issubclass(value, tuple) and hasattr(value, "_fields")) or dataclasses.is_dataclass(value)):
            names[name] = value
    return names


def read_value(text: str, names: Mapping[str, Any]) -> Any:
    """The value a state's ``repr`` describes.

    Args:
        text: e.g. ``"((1, 3, 5), 0)"`` or ``"GameState(to_move='X', utility=0, board={}, moves=[])"``.
        names: the callables allowed (:func:`readable_names`).

    Raises:
        ValueError: anything else than literals and calls of ``names`` with literal arguments (or a call that
            fails).
    """
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, MemoryError, RecursionError) as e:
        raise ValueError(f"not a Python value ({type(e).__name__})") from None
    try:
        return _build(tree.body, names)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def _build(node: ast.AST, names: Mapping[str, Any]) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Tuple):
        return tuple(_build(e, names) for e in node.elts)
    if isinstance(node, ast.List):
        return [_build(e, names) for e in node.elts]
    if isinstance(node, ast.Set):
        return {_build(e, names) for e in node.elts}
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise ValueError("'**' in a dict")
        return {_build(k, names): _build(v, names) for k, v in zip(node.keys, node.values) if k is not None}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        operand = _build(node.operand, names)
        if isinstance(operand, bool) or not isinstance(operand, (int, float, complex)):
            raise ValueError("a sign before something else than a number")
        return -operand if isinstance(node.op, ast.USub) else +operand
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):  # complex numbers: 1+2j
        left, right = _build(node.left, names), _build(node.right, names)
        if not (isinstance(left, (int, float)) and isinstance(right, complex)):
            raise ValueError("arithmetic")
        return left + right if isinstance(node.op, ast.Add) else left - right
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names:
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            raise ValueError("'*' or '**' in a call")
        args = [_build(a, names) for a in node.args]
        kwargs = {str(k.arg): _build(k.value, names) for k in node.keywords}
        try:
            return names[node.func.id](*args, **kwargs)
        except Exception as e:  # the file's type refused its arguments
            raise ValueError(f"{node.func.id}(...) raised {type(e).__name__}: {e}") from None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        raise ValueError(f"a call of {node.func.id!r} (only the file's namedtuple types, frozenset and set)")
    if isinstance(node, ast.Name):
        raise ValueError(f"the name {node.id!r} (only literals and the file's namedtuple types)")
    raise ValueError(f"{type(node).__name__} (only literals and the file's namedtuple types)")
