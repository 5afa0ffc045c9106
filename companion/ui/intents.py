"""The UI's intent vocabulary and the ONE function that maps raw inputs to intents.

Raw inputs are pygame events (touch, mouse, keyboard, window close) and the device events
gpiozero callbacks and the camera worker put on the input queue. Scenes only ever see the
small frozen intents below.

Keyboard emulation of the box: when the buttons are simulated (demo mode, or no Pi), the
keys Y N D U (and 1 2 3 4) do NOT become intents directly. They tap the simulated gpiozero
buttons, whose callbacks put ButtonEvents on the queue, which become ``Press`` intents on
the next frame: exactly the path a real GPIO press takes. R asks the simulated camera for a
fresh random roll (and yields ``RollRequested``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..devices.events import ButtonAction, ButtonEvent, ButtonName, CameraProblem, FrameEvent

if TYPE_CHECKING:
    from ..vision.observation import DiceObservation

log = logging.getLogger(__name__)


# -- the vocabulary ----------------------------------------------------------------------


@dataclass(frozen=True)
class Press:
    """A box button went down (YES / NO / DETECTOR / UNDO)."""

    button: ButtonName


@dataclass(frozen=True)
class Release:
    button: ButtonName


@dataclass(frozen=True)
class Hold:
    """A box button stayed down for ``devices.hold_time`` seconds."""

    button: ButtonName


@dataclass(frozen=True)
class Tap:
    """A finger or a click at ``pos``, in the coordinates of the drawn (logical) screen."""

    pos: tuple[int, int]


@dataclass(frozen=True)
class RollRequested:
    """Someone asked for a roll (R in demo: the simulated camera has rendered one)."""


@dataclass(frozen=True)
class Back:
    """Leave the current screen (Escape or Backspace on a keyboard)."""


@dataclass(frozen=True)
class Quit:
    """Close the companion (window closed, Q/Escape in demo, Ctrl+Q)."""


@dataclass(frozen=True)
class CameraFrame:
    """A new camera frame is in the worker's latest-frame slot."""

    seq: int
    width: int
    height: int


@dataclass(frozen=True)
class CameraFailed:
    """The camera failed or vanished; ``message`` says what to do."""

    message: str


@dataclass(frozen=True)
class DiceMoving:
    """Something moves on the table (the dice worker saw a roll start, or a hand)."""


@dataclass(frozen=True)
class DiceSettled:
    """The dice worker read a settled roll. ``correction``: it amends the previous roll (a
    knocked die), it is not a new throw."""

    observation: DiceObservation
    correction: bool = False


@dataclass(frozen=True)
class VisionTrouble:
    """The dice reader failed; ``message`` says why (the dice pad still works)."""

    message: str


UIIntent = (
    Press | Release | Hold | Tap | RollRequested | Back | Quit | CameraFrame | CameraFailed
    | DiceMoving | DiceSettled | VisionTrouble
)


# -- the mapping ---------------------------------------------------------------------------


class Tappable(Protocol):
    def tap(self, name: ButtonName) -> Any: ...


#: Keys that press a box button when the buttons are simulated.
BUTTON_KEYS: dict[str, ButtonName] = {
    "y": ButtonName.YES,
    "1": ButtonName.YES,
    "n": ButtonName.NO,
    "2": ButtonName.NO,
    "d": ButtonName.DETECTOR,
    "3": ButtonName.DETECTOR,
    "u": ButtonName.UNDO,
    "4": ButtonName.UNDO,
}

_BUTTON_ACTIONS: dict[ButtonAction, Callable[[ButtonName], UIIntent]] = {
    ButtonAction.PRESSED: Press,
    ButtonAction.RELEASED: Release,
    ButtonAction.HELD: Hold,
}


@dataclass
class InputMap:
    """What the mapping needs to know about the running app.

    ``size`` is the drawn screen's size; ``rotation`` 180 means the picture is shown upside
    down, so touch coordinates are turned back. ``buttons`` is the simulated Buttons object
    (None with real GPIO buttons); ``roll`` renders a new simulated roll (None when the
    camera is real).
    """

    size: tuple[int, int]
    rotation: int = 0
    demo: bool = False
    buttons: Tappable | None = None
    roll: Callable[[], Any] | None = None
    #: seconds a button edge must be apart from the previous edge of that button to count
    bounce_time: float = 0.0
    _last_edge: dict[ButtonName, float] = field(default_factory=dict, repr=False)
    _down: set[ButtonName] = field(default_factory=set, repr=False)

    def debounced(self, event: ButtonEvent) -> bool:
        """True when ``event`` is contact chatter and must be ignored.

        lgpio filters bounce on a Pi, but gpiozero's mock pins (demo mode, tests) and other
        pin factories report every edge, and a menu tap is not protected by the referee's
        state id. So: a press counts only when the button is up and the previous edge of
        that button (kept or not) is at least ``bounce_time`` old; a release counts only
        after a press that counted. One physical press is then one Press, whatever the
        contacts do.
        """
        if event.action is ButtonAction.HELD:
            return False
        last = self._last_edge.get(event.button)
        self._last_edge[event.button] = event.at
        if event.action is ButtonAction.RELEASED:
            if event.button not in self._down:
                return True
            self._down.discard(event.button)
            return False
        if event.button in self._down:
            return True
        if last is not None and event.at - last < self.bounce_time:
            return True
        self._down.add(event.button)
        return False

    def to_logical(self, pos: tuple[float, float]) -> tuple[int, int]:
        w, h = self.size
        x = min(max(int(pos[0]), 0), w - 1)
        y = min(max(int(pos[1]), 0), h - 1)
        if self.rotation == 180:
            return (w - 1 - x, h - 1 - y)
        return (x, y)


def _key_name(event: Any) -> str:
    import pygame

    return pygame.key.name(event.key).lower()


def to_intent(raw: Any, inputs: InputMap) -> UIIntent | None:
    """Map one raw input (a pygame event or a device event) to an intent, or None."""
    # device events from the queue
    if isinstance(raw, ButtonEvent):
        if inputs.debounced(raw):
            return None
        return _BUTTON_ACTIONS[raw.action](raw.button)
    if isinstance(raw, FrameEvent):
        return CameraFrame(raw.seq, raw.width, raw.height)
    if isinstance(raw, CameraProblem):
        return CameraFailed(raw.message)
    vision = _vision_intent(raw)
    if vision is not None:
        return vision

    import pygame

    kind = getattr(raw, "type", None)
    if kind == pygame.QUIT:
        return Quit()
    if kind == pygame.FINGERDOWN:
        w, h = inputs.size
        return Tap(inputs.to_logical((raw.x * w, raw.y * h)))
    if kind == pygame.MOUSEBUTTONDOWN:
        if getattr(raw, "touch", False):  # SDL's copy of a finger: FINGERDOWN handles it
            return None
        if raw.button != 1:
            return None
        return Tap(inputs.to_logical(raw.pos))
    if kind == pygame.KEYDOWN:
        return _key(raw, inputs)
    return None


def _vision_intent(raw: Any) -> UIIntent | None:
    """The dice worker's events (companion.vision.settle; that module imports numpy and
    OpenCV lazily, so importing its event classes here costs nothing)."""
    module = type(raw).__module__
    if not module.startswith("companion.vision"):
        return None
    from ..vision.settle import DiceMoving as WorkerMoving
    from ..vision.settle import DiceRolled, VisionProblem

    if isinstance(raw, WorkerMoving):
        return DiceMoving()
    if isinstance(raw, DiceRolled):
        return DiceSettled(raw.roll.observation, raw.roll.correction_of is not None)
    if isinstance(raw, VisionProblem):
        return VisionTrouble(raw.message)
    return None


def _key(event: Any, inputs: InputMap) -> UIIntent | None:
    import pygame

    name = _key_name(event)
    ctrl = bool(event.mod & pygame.KMOD_CTRL)
    if ctrl and name == "q":
        return Quit()
    if inputs.demo and name in ("escape", "q"):
        return Quit()
    if name in ("escape", "backspace"):
        return Back()
    if name in BUTTON_KEYS and inputs.buttons is not None:
        try:
            inputs.buttons.tap(BUTTON_KEYS[name])  # -> ButtonEvent on the queue -> Press
        except Exception:
            log.exception("simulated button %s failed", name)
        return None
    if name == "r" and inputs.roll is not None:
        try:
            inputs.roll()
        except Exception:
            log.exception("simulated roll failed")
            return None
        return RollRequested()
    return None
