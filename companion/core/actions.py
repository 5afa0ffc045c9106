"""Actions (what a player or a sensor asks a game to do) and their JSON form.

An action is a frozen record ``Action(type, args, player)``. ``args`` holds only JSON
values (str, int, float, bool, None, lists and dicts of them), so every action survives a
JSON round trip unchanged: that is what the journal stores and what replays read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import InvalidAction

#: Version of the action/event JSON layout. Bump it when the layout changes; the journal
#: refuses rows whose schema is newer than the code reading them.
SCHEMA_VERSION = 1

JSONValue = Any


def _freeze(value: Any, where: str) -> Any:
    """Check that ``value`` is plain JSON and return an immutable copy of it."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise InvalidAction(f"{where}: {value!r} is not a finite number")
        return value
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v, f"{where}[{i}]") for i, v in enumerate(value))
    if isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise InvalidAction(f"{where}: key {k!r} must be a string")
            out[k] = _freeze(v, f"{where}.{k}")
        return FrozenArgs(out)
    raise InvalidAction(f"{where}: {value!r} ({type(value).__name__}) is not a JSON value")


def freeze_json(value: Any, where: str = "value") -> Any:
    """Check that ``value`` is plain JSON; return it with lists as tuples, dicts frozen."""
    return _freeze(value, where)


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    if isinstance(value, FrozenArgs):
        return {k: _thaw(v) for k, v in value.items()}
    return value


class FrozenArgs(Mapping[str, Any]):
    """An immutable, hashable mapping of JSON values."""

    __slots__ = ("_d", "_h")

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        self._d = dict(data or {})
        self._h: int | None = None

    def __getitem__(self, key: str) -> Any:
        return self._d[key]

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __hash__(self) -> int:
        if self._h is None:
            self._h = hash(tuple(sorted(self._d.items())))
        return self._h

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenArgs):
            return self._d == other._d
        if isinstance(other, Mapping):
            return self._d == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"{self._d!r}"


@dataclass(frozen=True)
class Action:
    """One thing a player (or the camera, as the chance player) does.

    ``type`` is a short snake_case verb from the game's vocabulary (``roll``, ``answer``...);
    ``player`` is the seat index acting, or None for the table/chance.
    """

    type: str
    args: Mapping[str, Any] = field(default_factory=FrozenArgs)
    player: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.type, str) or not self.type:
            raise InvalidAction(f"action type must be a non-empty string, got {self.type!r}")
        if self.player is not None and (
            not isinstance(self.player, int) or isinstance(self.player, bool)
        ):
            raise InvalidAction(f"action player must be a seat number, got {self.player!r}")
        object.__setattr__(self, "args", _freeze(dict(self.args), f"{self.type}.args"))

    def arg(self, name: str, default: Any = None) -> Any:
        return self.args.get(name, default)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.args:
            out["args"] = _thaw(self.args)
        if self.player is not None:
            out["player"] = self.player
        return out

    @classmethod
    def from_json(cls, data: Any) -> Action:
        if not isinstance(data, Mapping):
            raise InvalidAction(f"an action must be a JSON object, got {data!r}")
        unknown = set(data) - {"type", "args", "player"}
        if unknown:
            raise InvalidAction(
                f"unknown action field(s) {sorted(unknown)}; expected type, args, player"
            )
        if "type" not in data:
            raise InvalidAction(f"action {dict(data)!r} has no 'type'")
        args = data.get("args", {})
        if not isinstance(args, Mapping):
            raise InvalidAction(f"action args must be an object, got {args!r}")
        return cls(type=data["type"], args=args, player=data.get("player"))

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))


def roll_action(dice: tuple[int, ...] | list[int], player: int | None = None) -> Action:
    """The chance player's action: dice values read by the camera or typed by a person."""
    return Action("roll", {"dice": list(dice)}, player)
