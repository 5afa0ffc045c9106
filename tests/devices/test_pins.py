"""The pin map: defaults a person can wire, overrides with messages that say what to write."""

from __future__ import annotations

import pytest

from companion.core.errors import ConfigError
from companion.devices.pins import (
    DEFAULT_PINS,
    GROUND_HEADER_PINS,
    HEADER_PIN,
    SHARED_FUNCTION,
    describe_pin,
    pin_map,
)


def test_defaults_are_distinct_plain_gpios_clear_of_hats() -> None:
    assert set(DEFAULT_PINS) == {"yes", "no", "detector", "undo", "buzzer"}
    assert len(set(DEFAULT_PINS.values())) == len(DEFAULT_PINS)
    for key, pin in DEFAULT_PINS.items():
        assert 2 <= pin <= 27, key
        assert pin not in SHARED_FUNCTION, f"{key} on {SHARED_FUNCTION.get(pin)}"
    assert pin_map() == DEFAULT_PINS


def test_header_table_is_a_bijection_onto_non_power_pins() -> None:
    assert sorted(HEADER_PIN) == list(range(2, 28))
    assert len(set(HEADER_PIN.values())) == 26
    assert not set(HEADER_PIN.values()) & set(GROUND_HEADER_PINS)
    assert describe_pin(17) == "GPIO17 (header pin 11)"


def test_override_merges_with_defaults() -> None:
    pins = pin_map({"yes": 5, "buzzer": "13"})
    assert pins == {**DEFAULT_PINS, "yes": 5, "buzzer": 13}


def test_non_number_names_key_value_and_fix() -> None:
    with pytest.raises(ConfigError) as err:
        pin_map({"yes": "abc"})
    assert str(err.value) == (
        'pins.yes = "abc" is not a GPIO number; write a BCM number from 2 to 27'
    )


@pytest.mark.parametrize("value", [True, 3.5, None, [17]])
def test_other_non_numbers_are_refused(value: object) -> None:
    with pytest.raises(ConfigError, match=r"^pins\.no = .* is not a GPIO number; write a BCM"):
        pin_map({"no": value})


@pytest.mark.parametrize("value", [0, 1, 28, 40, -3])
def test_out_of_range_says_bcm_not_header(value: int) -> None:
    with pytest.raises(ConfigError) as err:
        pin_map({"undo": value})
    message = str(err.value)
    assert message.startswith(f"pins.undo = {value} is not a usable GPIO")
    assert "from 2 to 27" in message and "not the header pin number" in message
    assert "\n" not in message


def test_duplicate_blames_the_key_the_user_changed() -> None:
    with pytest.raises(ConfigError) as err:
        pin_map({"detector": 17})
    assert str(err.value) == (
        "pins.detector = 17 is already used by pins.yes; "
        "give each button and the buzzer its own GPIO"
    )


def test_duplicate_between_two_overrides() -> None:
    with pytest.raises(ConfigError, match=r"pins\.no = 5 is already used by pins\.yes"):
        pin_map({"yes": 5, "no": 5})


def test_swapping_two_pins_is_fine() -> None:
    assert pin_map({"yes": 27, "no": 17})["yes"] == 27


def test_unknown_key_lists_the_known_ones() -> None:
    with pytest.raises(ConfigError) as err:
        pin_map({"yess": 5})
    assert str(err.value) == (
        "pins.yess is not a known pin; use one of yes, no, detector, undo, buzzer"
    )
