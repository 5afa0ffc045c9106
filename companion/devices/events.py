"""The small event objects devices put on the app's one input queue.

gpiozero callbacks and the camera worker do nothing else than ``queue.put(event)``; the UI
loop drains the queue and maps each event to an intent once.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class ButtonName(enum.Enum):
    YES = "yes"
    NO = "no"
    DETECTOR = "detector"
    UNDO = "undo"


class ButtonAction(enum.Enum):
    PRESSED = "pressed"
    RELEASED = "released"
    HELD = "held"


@dataclass(frozen=True)
class ButtonEvent:
    button: ButtonName
    action: ButtonAction
    at: float  # time.monotonic() when the callback ran


@dataclass(frozen=True)
class FrameEvent:
    """A new frame is available from the camera worker (the pixels stay in the worker's
    latest-frame slot; the event itself stays small)."""

    seq: int
    width: int
    height: int
    at: float


@dataclass(frozen=True)
class CameraProblem:
    """The frame source failed or vanished; ``message`` says what to do."""

    message: str
    at: float


DeviceEvent = ButtonEvent | FrameEvent | CameraProblem
