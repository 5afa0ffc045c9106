"""What the camera reports: every die it sees, with a value, a confidence and an
``uncertain`` flag the reader decided. A wrong value reported as certain is the worst
failure of the whole product, so readers flag rather than guess."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Kind = Literal["pips", "rats"]


@dataclass(frozen=True)
class DieReading:
    value: int  # 1..6 for pips; 0, 1 or 2 rats for rat dice
    x: float  # centre of the die's top face, in pixels of the input image
    y: float
    confidence: float  # 0..1
    uncertain: bool  # True: the players must confirm or correct this die
    size: float = 0.0  # approximate side of the die's top face in pixels (0: unknown)
    # why an uncertain die is asked: a key of companion.vision.doubts ("side", "light"...),
    # for the touchscreen; "" for a die read for sure (not in to_json: the JSON is fixed)
    doubt: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "x": round(self.x, 1),
            "y": round(self.y, 1),
            "confidence": round(self.confidence, 3),
            "uncertain": self.uncertain,
        }


@dataclass(frozen=True)
class DiceObservation:
    kind: Kind
    dice: tuple[DieReading, ...]
    width: int
    height: int
    notes: tuple[str, ...] = field(default=())  # why something is uncertain, for the logs

    @property
    def total(self) -> int:
        return sum(d.value for d in self.dice)

    @property
    def uncertain(self) -> bool:
        return any(d.uncertain for d in self.dice)

    def values(self) -> list[int]:
        return [d.value for d in self.dice]

    def to_json(self, image: str) -> dict[str, Any]:
        """The ``companion read-dice --json`` line for one image."""
        return {
            "image": image,
            "dice": [d.to_json() for d in self.dice],
            "total": self.total,
        }
