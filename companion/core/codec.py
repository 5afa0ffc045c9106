"""Plain-JSON encoding of frozen-dataclass game states, driven by type hints.

``dump(obj)`` turns dataclasses, enums, tuples, frozensets and mappings into JSON values;
``load(cls, data)`` rebuilds them, checking types on the way. Engines use it for
``state_to_json``/``state_from_json`` so that no game hand-writes a serializer, and a state
is never pickled.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

from .actions import Action, FrozenArgs
from .errors import InvalidAction

T = TypeVar("T")


def dump(obj: Any) -> Any:
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, Action):
        return obj.to_json()
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: dump(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (tuple, list)):
        return [dump(v) for v in obj]
    if isinstance(obj, frozenset | set):
        return sorted((dump(v) for v in obj), key=repr)
    if isinstance(obj, Mapping):
        return {str(k): dump(v) for k, v in obj.items()}
    raise TypeError(f"cannot encode {type(obj).__name__} {obj!r} as JSON")


_hints_cache: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _hints_cache:
        _hints_cache[cls] = typing.get_type_hints(cls)
    return _hints_cache[cls]


def load(tp: Any, data: Any, where: str = "state") -> Any:
    """Rebuild a value of type ``tp`` from its JSON form; raise InvalidAction on a mismatch."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return _freeze_any(data)
    if origin in (typing.Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        errors = []
        for alt in args:
            if alt is type(None):
                continue
            try:
                return load(alt, data, where)
            except (InvalidAction, TypeError, ValueError) as exc:
                errors.append(str(exc))
        raise InvalidAction(f"{where}: {data!r} matches none of {tp}: {'; '.join(errors)}")
    if origin is typing.Literal:
        if data not in args:
            raise InvalidAction(f"{where}: {data!r} is not one of {args}")
        return data
    if tp is Action:
        return Action.from_json(data)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        try:
            return tp(data)
        except ValueError:
            raise InvalidAction(
                f"{where}: {data!r} is not a {tp.__name__} "
                f"(expected one of {[m.value for m in tp]})"
            ) from None
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, Mapping):
            raise InvalidAction(f"{where}: expected an object for {tp.__name__}, got {data!r}")
        hints = _hints(tp)
        names = {f.name for f in dataclasses.fields(tp)}
        unknown = sorted(str(k) for k in data if k not in names)
        if unknown:
            raise InvalidAction(
                f"{where}: unknown field(s) {', '.join(unknown)} for {tp.__name__}; "
                f"expected {', '.join(sorted(names))}"
            )
        kwargs = {}
        for f in dataclasses.fields(tp):
            if f.name in data:
                kwargs[f.name] = load(hints[f.name], data[f.name], f"{where}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise InvalidAction(f"{where}: missing field {f.name!r} of {tp.__name__}")
        return tp(**kwargs)
    if origin is tuple:
        if not isinstance(data, list | tuple):
            raise InvalidAction(f"{where}: expected a list, got {data!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(load(args[0], v, f"{where}[{i}]") for i, v in enumerate(data))
        if len(args) != len(data):
            raise InvalidAction(f"{where}: expected {len(args)} items, got {len(data)}")
        return tuple(
            load(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, data, strict=False))
        )
    if origin is frozenset:
        if not isinstance(data, list | tuple):
            raise InvalidAction(f"{where}: expected a list, got {data!r}")
        return frozenset(load(args[0], v, f"{where}[]") for v in data)
    if origin in (Mapping, dict, typing.Mapping) or tp is FrozenArgs:
        if not isinstance(data, Mapping):
            raise InvalidAction(f"{where}: expected an object, got {data!r}")
        vt = args[1] if len(args) == 2 else Any
        return FrozenArgs({str(k): load(vt, v, f"{where}.{k}") for k, v in data.items()})
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise InvalidAction(f"{where}: expected a number, got {data!r}")
        return float(data)
    if tp in (int, str, bool):
        if type(data) is not tp:
            raise InvalidAction(f"{where}: expected {tp.__name__}, got {data!r}")
        return data
    if tp is type(None):
        if data is not None:
            raise InvalidAction(f"{where}: expected null, got {data!r}")
        return None
    raise TypeError(f"{where}: cannot decode type {tp!r}")


def _freeze_any(data: Any) -> Any:
    if isinstance(data, list):
        return tuple(_freeze_any(v) for v in data)
    if isinstance(data, Mapping):
        return FrozenArgs({k: _freeze_any(v) for k, v in data.items()})
    return data
