"""The buzzer: short sound patterns played in the background.

Two kinds of buzzer exist and people confuse them:

* **active**: has its own oscillator; power it and it beeps at its one pitch. Driven by
  ``gpiozero.Buzzer`` (on/off). Frequencies in a pattern are ignored, so patterns must differ
  by the number and length of beeps, which they do.
* **passive**: a bare piezo/magnetic transducer that needs a square wave; driven by
  ``gpiozero.TonalBuzzer`` (PWM at the note's frequency), so it plays the melody.

``"none"`` makes every call a silent no-op.

A :data:`Pattern` is data: a tuple of ``(frequency_hz or None for a rest, duration_s)`` steps.
:meth:`BuzzerOut.play` returns at once; one background thread plays, and a new pattern cuts
the previous one short. What was really played can be read back from a simulated pin with
:func:`heard`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.core.errors import ConfigError, DeviceError
from companion.devices.pins import describe_pin

log = logging.getLogger(__name__)

Step = tuple[float | None, float]
Pattern = tuple[Step, ...]

# Notes (Hz). A piezo is loudest around 2-4 kHz and weak below ~400 Hz.
_C6, _E6, _G6, _C7 = 1047.0, 1319.0, 1568.0, 2093.0
_A5, _E7 = 880.0, 2637.0
_LOW = 330.0

PATTERNS: dict[str, Pattern] = {
    # one short high blip: "got it"
    "roll_accepted": ((_C7, 0.07),),
    # two rising beeps, the second longer: "goal!"
    "goal_reached": ((_C6, 0.10), (None, 0.07), (_G6, 0.22)),
    # a little fanfare: three quick rising notes, a pause, a long top note
    "winner": (
        (_C6, 0.10), (None, 0.05), (_E6, 0.10), (None, 0.05), (_G6, 0.10), (None, 0.12),
        (_C7, 0.45),
    ),
    # one low long tone: "no"
    "error": ((_LOW, 0.60),),
    # the supersonic detector: four quick identical pings, like a sonar
    "detector": (
        (_E7, 0.04), (None, 0.07), (_E7, 0.04), (None, 0.07), (_E7, 0.04), (None, 0.07),
        (_E7, 0.04),
    ),
    # a soft two-note "pay attention" for timers and prompts
    "attention": ((_A5, 0.08), (None, 0.08), (_A5, 0.08)),
}  # fmt: skip
"""Named patterns. Sounding steps are always separated by rests so that an active buzzer
(which ignores pitch) still plays them as separate beeps."""

BUZZER_KINDS = ("active", "passive", "none")

# TonalBuzzer's playable range is mid_tone / 2**octaves .. mid_tone * 2**octaves.
_MID_TONE_HZ = 880.0
_OCTAVES = 3  # 110 Hz .. 7040 Hz


def validate_pattern(pattern: Sequence[Sequence[Any]]) -> Pattern:
    """The pattern as a tuple of ``(frequency or None, duration)``; ValueError if malformed."""
    steps: list[Step] = []
    for step in pattern:
        try:
            frequency, duration = step
        except (TypeError, ValueError):
            raise ValueError(
                f"pattern step {step!r} is not (frequency_hz or None, seconds)"
            ) from None
        if frequency is not None and not (
            _MID_TONE_HZ / 2**_OCTAVES <= float(frequency) <= _MID_TONE_HZ * 2**_OCTAVES
        ):
            raise ValueError(
                f"pattern frequency {frequency!r} Hz is out of range; use "
                f"{_MID_TONE_HZ / 2**_OCTAVES:.0f} to {_MID_TONE_HZ * 2**_OCTAVES:.0f} Hz"
            )
        if not 0 < float(duration) <= 10:
            raise ValueError(f"pattern duration {duration!r} s is not between 0 and 10 s")
        steps.append((None if frequency is None else float(frequency), float(duration)))
    return tuple(steps)


class BuzzerOut:
    """Plays patterns on an active or passive buzzer (or nothing) without blocking."""

    def __init__(self, kind: str, pin: int | None, factory: Any, muted: bool = False) -> None:
        normalised = kind.strip().lower() if isinstance(kind, str) else kind
        if normalised not in BUZZER_KINDS:
            shown = f'"{kind}"' if isinstance(kind, str) else repr(kind)
            raise ConfigError(
                f'devices.buzzer = {shown} is not a buzzer kind; write "active", "passive" '
                'or "none"'
            )
        self.kind: str = normalised
        self.pin = pin
        self._muted = bool(muted)
        self._device: Any = None
        self._cond = threading.Condition()
        self._pending: Pattern | None = None
        self._generation = 0
        self._playing = False
        self._closed = False
        self._thread: threading.Thread | None = None
        if self.kind == "none":
            return
        if pin is None:
            raise ConfigError("pins.buzzer is missing; write a BCM number from 2 to 27")
        try:
            if self.kind == "active":
                from gpiozero import Buzzer

                self._device = Buzzer(pin, initial_value=False, pin_factory=factory)
            else:
                from gpiozero import TonalBuzzer
                from gpiozero.tones import Tone

                self._device = TonalBuzzer(
                    pin,
                    mid_tone=Tone.from_frequency(_MID_TONE_HZ),
                    octaves=_OCTAVES,
                    pin_factory=factory,
                )
        except Exception as err:
            raise DeviceError(
                f"the {self.kind} buzzer on {describe_pin(pin)} could not be set up "
                f"({type(err).__name__}: {err}); check that nothing else uses that pin"
            ) from err

    # -- muting -----------------------------------------------------------------------------
    @property
    def muted(self) -> bool:
        return self._muted

    @muted.setter
    def muted(self, value: bool) -> None:
        self._muted = bool(value)
        if self._muted:
            self.stop()

    @property
    def is_playing(self) -> bool:
        with self._cond:
            return self._playing or self._pending is not None

    # -- playing ----------------------------------------------------------------------------
    def play(self, pattern: str | Sequence[Sequence[Any]]) -> None:
        """Start ``pattern`` (a name from :data:`PATTERNS` or steps) and return at once.

        Interrupts whatever was playing. Silent when muted or when the kind is ``"none"``.
        ValueError for an unknown name or a malformed pattern.
        """
        if isinstance(pattern, str):
            try:
                steps = PATTERNS[pattern]
            except KeyError:
                raise ValueError(
                    f'unknown buzzer pattern "{pattern}": use one of {", ".join(PATTERNS)}'
                ) from None
        else:
            steps = validate_pattern(pattern)
        if self._device is None or self._muted or self._closed or not steps:
            return
        with self._cond:
            self._pending = steps
            self._generation += 1
            self._cond.notify_all()
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name=f"buzzer-{self.pin}", daemon=True
                )
                self._thread.start()

    def stop(self) -> None:
        """Silence now (cuts the current pattern short)."""
        with self._cond:
            self._pending = None
            self._generation += 1
            self._cond.notify_all()
        if self._thread is None:
            self._off()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until nothing is playing; False if ``timeout`` ran out first."""
        with self._cond:
            return self._cond.wait_for(
                lambda: not self._playing and self._pending is None, timeout=timeout
            )

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._pending is not None or self._closed)
                if self._closed:
                    break
                steps, generation = self._pending, self._generation
                self._pending = None
                self._playing = True
            try:
                self._play_steps(steps or (), generation)
            except Exception:  # a buzzer failure must never take the app down
                log.exception("buzzer failed while playing")
            finally:
                self._off()
                with self._cond:
                    self._playing = False
                    self._cond.notify_all()
        self._off()

    def _play_steps(self, steps: Pattern, generation: int) -> None:
        for frequency, duration in steps:
            if frequency is None:
                self._off()
            else:
                self._on(frequency)
            with self._cond:
                interrupted = self._cond.wait_for(
                    lambda: self._generation != generation or self._closed, timeout=duration
                )
            if interrupted:
                return

    def _on(self, frequency: float) -> None:
        if self.kind == "active":
            self._device.on()
        else:
            from gpiozero.tones import Tone

            self._device.play(Tone.from_frequency(frequency))

    def _off(self) -> None:
        device = self._device
        if device is None:
            return
        try:
            if self.kind == "active":
                device.off()
            else:
                device.stop()
        except Exception:  # closed device or vanished pin: silence is all we wanted
            pass

    # -- lifetime ---------------------------------------------------------------------------
    def close(self) -> None:
        """Stop sound, end the thread, release the pin. Safe to call twice."""
        with self._cond:
            self._closed = True
            self._pending = None
            self._cond.notify_all()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=1.0)
        self._off()
        if self._device is not None:
            try:
                self._device.close()
            except Exception:
                pass
            self._device = None

    def __enter__(self) -> BuzzerOut:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class Heard:
    """One sound reconstructed from a pin's recorded transitions."""

    frequency: float | None  # Hz for a passive buzzer; None for an active (on/off) one
    start: float  # seconds after the first recorded change
    duration: float


def heard(pin: Any, until: float | None = None) -> list[Heard]:
    """The sounds a simulated buzzer pin really made, from its ``history``
    (a :class:`~companion.devices.factory.RecordingPWMPin`).

    A sound is a stretch where the pin is on (state > 0); for a PWM pin, a change of frequency
    while on starts a new sound. ``until`` (a time.monotonic()) closes a sound still playing.
    """
    history = list(pin.history)
    if not history:
        return []
    origin = history[0].at
    sounds: list[Heard] = []
    current: tuple[float | None, float] | None = None  # (frequency, start)

    def sounding(change: Any) -> tuple[bool, float | None]:
        on = change.state > 0
        pwm = on and change.state < 1 and change.frequency is not None
        return on, (change.frequency if pwm else None)

    for change in history:
        on, frequency = sounding(change)
        if current is not None and (not on or frequency != current[0]):
            sounds.append(Heard(current[0], current[1] - origin, change.at - current[1]))
            current = None
        if on and current is None:
            current = (frequency, change.at)
    if current is not None and until is not None:
        sounds.append(Heard(current[0], current[1] - origin, until - current[1]))
    return sounds
