"""Pin factories: simulated off the Pi, real with a fix in the message when impossible."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.core.errors import ConfigError, DeviceError
from companion.devices import factory as factory_module
from companion.devices.factory import make_pin_factory, on_raspberry_pi


def test_simulated_is_a_mock_factory_with_pwm_pins() -> None:
    pin_factory = make_pin_factory("simulated")
    try:
        assert isinstance(pin_factory, MockFactory)
        pin = pin_factory.pin(12)
        assert isinstance(pin, MockPWMPin)
        pin.function = "output"
        pin.frequency = 440  # a plain MockPin would raise PinPWMUnsupported
        assert pin.frequency == 440
    finally:
        pin_factory.close()


def test_unknown_kind_is_a_config_error() -> None:
    with pytest.raises(ConfigError) as err:
        make_pin_factory("pigpio")
    assert str(err.value) == (
        'devices.buttons = "pigpio" is not a pin factory; write "real", "simulated" or "auto"'
    )


def test_kind_is_case_and_space_tolerant() -> None:
    make_pin_factory(" Simulated ").close()


def test_model_file_decides_raspberry_pi(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = tmp_path / "model"
    monkeypatch.setattr(factory_module, "MODEL_PATH", model)
    assert on_raspberry_pi() is False  # no file at all (a laptop)
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert on_raspberry_pi() is True
    model.write_bytes(b"Pine64 RockPro64\x00")
    assert on_raspberry_pi() is False


def test_real_off_a_pi_says_use_simulated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(factory_module, "on_raspberry_pi", lambda: False)
    with pytest.raises(DeviceError) as err:
        make_pin_factory("real")
    assert str(err.value).startswith('not a Raspberry Pi: use buttons = "simulated"')


def test_real_on_a_pi_without_lgpio_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(factory_module, "on_raspberry_pi", lambda: True)
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", None)  # import fails
    with pytest.raises(DeviceError) as err:
        make_pin_factory("real")
    assert "sudo apt install python3-lgpio" in str(err.value)
    with pytest.raises(DeviceError, match="python3-lgpio"):
        make_pin_factory("auto")  # auto on a Pi means real, and says why it failed


def test_auto_off_a_pi_is_simulated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(factory_module, "on_raspberry_pi", lambda: False)
    pin_factory = make_pin_factory("auto")
    assert isinstance(pin_factory, MockFactory)
    pin_factory.close()
