"""The four physical buttons (yes, no, detector, undo) as gpiozero Buttons.

Each button is wired between its GPIO and ground, with the Pi's internal pull-up: released
reads high, pressed reads low. gpiozero's callbacks run on its own threads and do one thing:
put a :class:`ButtonEvent` on the app's input queue. Everything else (what a press means) is
decided once, in the UI loop.

On a simulated factory, :meth:`Buttons.press` / :meth:`Buttons.release` / :meth:`Buttons.tap`
drive the mock pins, so demo mode's keyboard goes through exactly the same gpiozero path
(edges, hold timer, callbacks) as a finger on a real button.

Bounce: ``bounce_time`` is handed to the pin. On a Pi, lgpio applies it as a debounce filter
(a level must be stable that long before an edge is reported). gpiozero's MockPin stores the
value but ignores it ("XXX Need to implement this" in gpiozero/pins/mock.py), so simulated
pins report every edge; see tests/devices/test_buttons.py. A stray second press is harmless
anyway: intents carry the state id they were made against and a stale one is dropped.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from gpiozero import Button
from gpiozero.pins.mock import MockPin

from companion.core.errors import ConfigError, DeviceError
from companion.devices.events import ButtonAction, ButtonEvent, ButtonName
from companion.devices.factory import is_simulated
from companion.devices.pins import describe_pin


def button_name(name: ButtonName | str) -> ButtonName:
    """``ButtonName.YES`` from ``ButtonName.YES``, ``"yes"`` or ``"YES"``."""
    if isinstance(name, ButtonName):
        return name
    try:
        return ButtonName(str(name).strip().lower())
    except ValueError:
        known = ", ".join(b.value for b in ButtonName)
        raise ValueError(f'unknown button "{name}": use one of {known}') from None


class Buttons:
    """Real gpiozero Buttons, one per :class:`ButtonName`, posting events on ``events``."""

    def __init__(
        self,
        events: queue.Queue,
        pins: Mapping[str, int],
        factory: Any,
        bounce_time: float = 0.05,
        hold_time: float = 1.0,
    ) -> None:
        self._events = events
        self._factory = factory
        self._buttons: dict[ButtonName, Button] = {}
        self._lock = threading.Lock()
        try:
            for name in ButtonName:
                if name.value not in pins:
                    raise ConfigError(
                        f"pins.{name.value} is missing; write a BCM number from 2 to 27"
                    )
                self._buttons[name] = self._make_button(
                    name, pins[name.value], bounce_time, hold_time
                )
        except BaseException:
            self.close()
            raise

    def _make_button(
        self, name: ButtonName, pin: int, bounce_time: float, hold_time: float
    ) -> Button:
        try:
            button = Button(
                pin,
                pull_up=True,
                bounce_time=bounce_time,
                hold_time=hold_time,
                pin_factory=self._factory,
            )
        except Exception as err:  # GPIOPinInUse, PinInvalidPin, lgpio errors...
            raise DeviceError(
                f"the {name.value} button on {describe_pin(pin)} could not be set up "
                f"({type(err).__name__}: {err}); check that nothing else uses that pin"
            ) from err
        button.when_pressed = self._poster(name, ButtonAction.PRESSED)
        button.when_released = self._poster(name, ButtonAction.RELEASED)
        button.when_held = self._poster(name, ButtonAction.HELD)
        return button

    def _poster(self, name: ButtonName, action: ButtonAction) -> Callable[[], None]:
        events = self._events

        def post() -> None:
            events.put(ButtonEvent(name, action, time.monotonic()))

        return post

    def _button(self, name: ButtonName | str) -> Button:
        key = button_name(name)
        try:
            return self._buttons[key]
        except KeyError:
            raise DeviceError(f"the {key.value} button is closed") from None

    def _mock_pin(self, name: ButtonName | str) -> MockPin:
        button = self._button(name)
        pin = button.pin
        if not is_simulated(self._factory) or not isinstance(pin, MockPin):
            raise DeviceError(
                f"cannot press the {button_name(name).value} button from software: the buttons "
                'are real GPIO; use buttons = "simulated" for keyboard emulation'
            )
        return pin

    def press(self, name: ButtonName | str) -> None:
        """Push the simulated button down (drives its pin low). Pressing an already pressed
        button does nothing, so keyboard auto-repeat is harmless."""
        pin = self._mock_pin(name)
        with self._lock:
            pin.drive_low()

    def release(self, name: ButtonName | str) -> None:
        """Let the simulated button go (drives its pin high)."""
        pin = self._mock_pin(name)
        with self._lock:
            pin.drive_high()

    def tap(self, name: ButtonName | str) -> None:
        """Press and release at once: PRESSED then RELEASED, no HELD."""
        self.press(name)
        self.release(name)

    def is_pressed(self, name: ButtonName | str) -> bool:
        return bool(self._button(name).is_pressed)

    def close(self) -> None:
        """Release the pins. Safe to call twice."""
        buttons, self._buttons = self._buttons, {}
        # Each Button's hold thread polls every 0.1 s and close() joins it; signal them all
        # first so closing four buttons takes ~0.1 s, not ~0.4 s (private, hence getattr).
        for button in buttons.values():
            stopping = getattr(getattr(button, "_hold_thread", None), "stopping", None)
            if stopping is not None:
                stopping.set()
        for button in buttons.values():
            try:
                button.when_pressed = None
                button.when_released = None
                button.when_held = None
                button.close()
            except Exception:  # closing must never fail shutdown
                pass

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
