"""Pin factories: real GPIO on a Raspberry Pi (lgpio), gpiozero's MockFactory elsewhere.

Simulated buttons and buzzers are *real* gpiozero devices on a :class:`MockFactory`; only the
pins are pretend. The mock pins are :class:`RecordingPWMPin`, a :class:`MockPWMPin` (so
``TonalBuzzer`` works) that also records every state *and frequency* change, because the stock
mock pin records only states and a passive buzzer's melody lives in the frequency.

Choosing the kind from an environment variable is the config's job, not this module's.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, NamedTuple

from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.core.errors import ConfigError, DeviceError

MODEL_PATH = Path("/proc/device-tree/model")
"""Where the Linux device tree names the board ("Raspberry Pi 5 Model B Rev 1.0")."""

FACTORY_KINDS = ("real", "simulated", "auto")


def on_raspberry_pi() -> bool:
    """True when the device tree says this board is a Raspberry Pi."""
    try:
        model = MODEL_PATH.read_bytes()
    except OSError:
        return False
    return model.rstrip(b"\x00").decode("ascii", "replace").startswith("Raspberry Pi")


class PinChange(NamedTuple):
    at: float  # time.monotonic()
    state: float  # 0.0 (low) .. 1.0 (high); 0.5 is a PWM square wave
    frequency: float | None  # PWM frequency in Hz, None when PWM is off


class RecordingPWMPin(MockPWMPin):
    """A :class:`MockPWMPin` that keeps ``history``: every change of state or frequency.

    ``states`` (gpiozero's own record) still works as usual; ``history`` adds the frequency
    and absolute times so tests and demo mode can tell what a buzzer really played.
    """

    def __init__(self, factory: Any, info: Any) -> None:
        self._history_lock = threading.Lock()
        self.history: list[PinChange] = []
        super().__init__(factory, info)
        self._record()

    def _record(self) -> None:
        change = PinChange(time.monotonic(), float(self._state), self._frequency)
        with self._history_lock:
            if not self.history or self.history[-1][1:] != change[1:]:
                self.history.append(change)

    def clear_history(self) -> None:
        with self._history_lock:
            self.history = []
        self._record()

    def _change_state(self, value: Any) -> bool:
        changed = super()._change_state(value)
        if changed and hasattr(self, "_frequency"):
            self._record()
        return changed

    def _set_frequency(self, value: Any) -> None:
        super()._set_frequency(value)
        self._record()


def _simulated_factory() -> MockFactory:
    return MockFactory(pin_class=RecordingPWMPin)


def _real_factory() -> Any:
    pi = on_raspberry_pi()
    not_a_pi = 'not a Raspberry Pi: use buttons = "simulated"'
    try:
        from gpiozero.pins.lgpio import LGPIOFactory
    except ImportError as err:
        if not pi:
            raise DeviceError(f"{not_a_pi} (lgpio is not installed either)") from err
        raise DeviceError(
            "lgpio is missing: install python3-lgpio: sudo apt install python3-lgpio"
        ) from err
    try:
        return LGPIOFactory()
    except Exception as err:  # lgpio.error, OSError, gpiozero's own: never let them escape
        if not pi:
            raise DeviceError(f"{not_a_pi} ({type(err).__name__}: {err})") from err
        raise DeviceError(
            f"cannot open the GPIO chip ({type(err).__name__}: {err}): add your user to the "
            "gpio group (sudo usermod -aG gpio $USER) and log in again"
        ) from err


def make_pin_factory(kind: str) -> Any:
    """A gpiozero pin factory: ``"real"`` (lgpio), ``"simulated"`` (MockFactory with PWM
    pins) or ``"auto"`` (real on a Raspberry Pi, simulated elsewhere).

    Raises :class:`ConfigError` for another kind, :class:`DeviceError` when real GPIO is not
    available (with the fix in the message).
    """
    normalised = kind.strip().lower() if isinstance(kind, str) else kind
    if normalised == "simulated":
        return _simulated_factory()
    if normalised == "real":
        return _real_factory()
    if normalised == "auto":
        return _real_factory() if on_raspberry_pi() else _simulated_factory()
    shown = f'"{kind}"' if isinstance(kind, str) else repr(kind)
    raise ConfigError(
        f'devices.buttons = {shown} is not a pin factory; write "real", "simulated" or "auto"'
    )


def is_simulated(factory: Any) -> bool:
    """True for a gpiozero MockFactory (its pins can be driven by software)."""
    return isinstance(factory, MockFactory)
