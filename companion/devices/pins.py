"""The one pin map: which BCM GPIO each button and the buzzer use.

Defaults (BCM numbering, physical header pin in brackets; see hardware/README.md):

====================  ======  ===========  =============================
role                  BCM     header pin   nearest ground
====================  ======  ===========  =============================
yes button            17      11           9
no button             27      13           14
detector button       22      15           14 (or 20)
undo button           23      16           14 (or 20)
buzzer                12      32           34 (or 30)
====================  ======  ===========  =============================

Why these: they are plain GPIOs that no common add-on claims. We keep off I2C (2, 3), SPI0
(7-11), UART (14, 15) and PCM/I2S audio (18-21, used by audio HATs; the Pimoroni Fan SHIM also
drives 18). GPIO 12 can be a hardware PWM output (PWM0) should a future pin factory use it;
with lgpio the tone is software PWM, which is fine for a buzzer. The DSI display and the camera
use their own ribbon connectors, and only 5 V/GND header pins (2, 4, 6) if the display is
powered from the header.

Overrides come from the config file's ``[pins]`` table; :func:`pin_map` validates them.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.core.errors import ConfigError

DEFAULT_PINS: dict[str, int] = {
    "yes": 17,
    "no": 27,
    "detector": 22,
    "undo": 23,
    "buzzer": 12,
}
"""BCM GPIO numbers for each role (keys: yes, no, detector, undo, buzzer)."""

BUTTON_KEYS: tuple[str, ...] = ("yes", "no", "detector", "undo")

FIRST_GPIO = 2
LAST_GPIO = 27

# BCM GPIO -> physical pin on the 40-pin header (same on every 40-pin Raspberry Pi).
HEADER_PIN: dict[int, int] = {
    2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32, 13: 33,
    14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16, 24: 18,
    25: 22, 26: 37, 27: 13,
}  # fmt: skip

GROUND_HEADER_PINS: tuple[int, ...] = (6, 9, 14, 20, 25, 30, 34, 39)

# Pins that work but that some add-on board may want; `companion doctor` can warn about them.
SHARED_FUNCTION: dict[int, str] = {
    2: "I2C SDA", 3: "I2C SCL", 7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO",
    10: "SPI0 MOSI", 11: "SPI0 SCLK", 14: "UART TX", 15: "UART RX", 18: "PCM CLK",
    19: "PCM FS", 20: "PCM DIN", 21: "PCM DOUT",
}  # fmt: skip


def describe_pin(bcm: int) -> str:
    """``"GPIO17 (header pin 11)"``: how a person finds the pin on the board."""
    header = HEADER_PIN.get(bcm)
    return f"GPIO{bcm} (header pin {header})" if header else f"GPIO{bcm}"


def _show(value: object) -> str:
    """A value the way the user wrote it in TOML."""
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def _as_gpio(key: str, value: object) -> int:
    fix = f"write a BCM number from {FIRST_GPIO} to {LAST_GPIO}"
    number: int | None = None
    if isinstance(value, bool):  # bool is an int subclass: `yes = true` is not a pin
        number = None
    elif isinstance(value, int):
        number = value
    elif isinstance(value, str) and value.strip().isdigit():
        number = int(value.strip())
    if number is None:
        raise ConfigError(f"pins.{key} = {_show(value)} is not a GPIO number; {fix}")
    if not FIRST_GPIO <= number <= LAST_GPIO:
        raise ConfigError(
            f"pins.{key} = {_show(value)} is not a usable GPIO; {fix} "
            "(BCM numbering, not the header pin number)"
        )
    return number


def pin_map(overrides: Mapping[str, object] | None = None) -> dict[str, int]:
    """The defaults merged with ``overrides`` (the config's ``[pins]`` table), validated.

    Raises :class:`ConfigError` with a one-line message naming the key, the bad value and
    what to write, for an unknown key, a value that is not a BCM GPIO from 2 to 27, or two
    roles on the same GPIO.
    """
    merged = dict(DEFAULT_PINS)
    for key, value in (overrides or {}).items():
        if key not in DEFAULT_PINS:
            raise ConfigError(
                f"pins.{key} is not a known pin; use one of {', '.join(DEFAULT_PINS)}"
            )
        merged[key] = _as_gpio(key, value)
    owner: dict[int, str] = {}
    # Report the duplicate on the key the user changed, not on the untouched default.
    order = [k for k in DEFAULT_PINS if k not in (overrides or {})] + [
        k for k in DEFAULT_PINS if k in (overrides or {})
    ]
    for key in order:
        number = merged[key]
        if number in owner:
            raise ConfigError(
                f"pins.{key} = {number} is already used by pins.{owner[number]}; "
                "give each button and the buzzer its own GPIO"
            )
        owner[number] = key
    return merged
