"""Buttons are real gpiozero Buttons on MockFactory pins; we check what lands on the queue."""

from __future__ import annotations

import queue
import time

import pytest

from companion.core.errors import ConfigError, DeviceError
from companion.devices import buttons as buttons_module
from companion.devices.buttons import Buttons
from companion.devices.events import ButtonAction, ButtonEvent, ButtonName
from companion.devices.pins import pin_map

from .conftest import drain

PRESSED, RELEASED, HELD = ButtonAction.PRESSED, ButtonAction.RELEASED, ButtonAction.HELD


def actions(q: queue.Queue) -> list[tuple[ButtonName, ButtonAction]]:
    out = []
    for event in drain(q):
        assert isinstance(event, ButtonEvent)
        out.append((event.button, event.action))
    return out


@pytest.fixture
def buttons(factory, events):
    b = Buttons(events, pin_map(), factory, bounce_time=0.05, hold_time=0.15)
    yield b
    b.close()


def test_a_press_posts_pressed_then_released(buttons, factory, events) -> None:
    pin = factory.pin(pin_map()["yes"])
    before = time.monotonic()
    pin.drive_low()  # a finger closes the switch to ground
    assert buttons.is_pressed("yes")
    pin.drive_high()
    posted = drain(events)
    assert [(e.button, e.action) for e in posted] == [
        (ButtonName.YES, PRESSED),
        (ButtonName.YES, RELEASED),
    ]
    assert before <= posted[0].at <= posted[1].at <= time.monotonic()
    assert not buttons.is_pressed(ButtonName.YES)


def test_each_button_is_on_its_own_pin(buttons, factory, events) -> None:
    pins = pin_map()
    for name in ("no", "detector", "undo"):
        factory.pin(pins[name]).drive_low()
        factory.pin(pins[name]).drive_high()
    assert actions(events) == [
        (ButtonName.NO, PRESSED), (ButtonName.NO, RELEASED),
        (ButtonName.DETECTOR, PRESSED), (ButtonName.DETECTOR, RELEASED),
        (ButtonName.UNDO, PRESSED), (ButtonName.UNDO, RELEASED),
    ]  # fmt: skip


def test_holding_longer_than_hold_time_posts_held_once(buttons, events) -> None:
    buttons.press("undo")
    time.sleep(0.45)  # three hold_times: still only one HELD (no hold_repeat)
    buttons.release("undo")
    assert actions(events) == [
        (ButtonName.UNDO, PRESSED),
        (ButtonName.UNDO, HELD),
        (ButtonName.UNDO, RELEASED),
    ]


def test_a_short_press_is_not_held(buttons, events) -> None:
    buttons.press("yes")
    time.sleep(0.05)
    buttons.release("yes")
    time.sleep(0.2)  # past hold_time after the release: the hold timer must not fire
    assert actions(events) == [(ButtonName.YES, PRESSED), (ButtonName.YES, RELEASED)]


def test_bounce_time_reaches_the_pin(buttons, factory) -> None:
    # On a Pi, lgpio applies this as its debounce filter.
    assert factory.pin(pin_map()["yes"]).bounce == pytest.approx(0.05)


def test_mock_pins_do_not_debounce(buttons, factory, events) -> None:
    """What really happens off the Pi: gpiozero's MockPin stores bounce_time but ignores it
    ("XXX Need to implement this" in gpiozero/pins/mock.py), so a contact chattering three
    times within 50 ms gives three PRESSED events. On a Pi, lgpio's debounce filter would
    report one. The app copes either way: intents made against a stale state id are dropped.
    If this test starts failing, gpiozero has implemented mock debounce: rejoice and flip it."""
    pin = factory.pin(pin_map()["no"])
    start = time.monotonic()
    for _ in range(3):
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    assert time.monotonic() - start < 0.05  # all edges well within bounce_time
    pin.drive_high()
    got = actions(events)
    assert got.count((ButtonName.NO, PRESSED)) == 4
    assert got.count((ButtonName.NO, RELEASED)) == 4


def test_tap_goes_through_the_same_gpiozero_path(buttons, factory, events) -> None:
    pin = factory.pin(pin_map()["detector"])
    pin.clear_states()
    buttons.tap(ButtonName.DETECTOR)
    assert actions(events) == [
        (ButtonName.DETECTOR, PRESSED),
        (ButtonName.DETECTOR, RELEASED),
    ]
    # the pin itself went low then high, like a real switch
    assert [s.state for s in pin.states] == [True, False, True]


def test_keyboard_auto_repeat_does_not_repeat_presses(buttons, events) -> None:
    for _ in range(5):
        buttons.press("yes")  # a held key sends KEYDOWN again and again
    buttons.release("yes")
    buttons.release("yes")
    assert actions(events) == [(ButtonName.YES, PRESSED), (ButtonName.YES, RELEASED)]


def test_names_are_forgiving_but_not_guessed(buttons) -> None:
    buttons.tap("YES")
    buttons.tap(ButtonName.NO)
    with pytest.raises(ValueError, match='unknown button "maybe": use one of yes, no'):
        buttons.tap("maybe")


def test_software_presses_need_a_simulated_factory(buttons, monkeypatch) -> None:
    monkeypatch.setattr(buttons_module, "is_simulated", lambda factory: False)
    with pytest.raises(DeviceError, match='the buttons are real GPIO; use buttons = "simulated"'):
        buttons.press("yes")


def test_close_stops_events_and_frees_the_pins(factory, events) -> None:
    pins = pin_map()
    first = Buttons(events, pins, factory)
    first.close()
    first.close()  # twice is fine
    factory.pin(pins["yes"]).drive_low()
    factory.pin(pins["yes"]).drive_high()
    assert drain(events) == []
    second = Buttons(events, pins, factory)  # the pins are free again
    second.tap("yes")
    assert len(drain(events)) == 2
    second.close()
    with pytest.raises(DeviceError, match="closed"):
        second.tap("yes")


def test_a_pin_already_in_use_names_the_button(buttons, factory, events) -> None:
    with pytest.raises(DeviceError) as err:
        Buttons(events, pin_map(), factory)
    assert str(err.value).startswith("the yes button on GPIO17 (header pin 11) could not be set up")
    buttons.tap("yes")  # the first set still works after the failed second one
    assert len(drain(events)) == 2


def test_missing_pin_is_a_config_error(factory, events) -> None:
    pins = dict(pin_map())
    del pins["undo"]
    with pytest.raises(ConfigError, match="pins.undo is missing"):
        Buttons(events, pins, factory)
    Buttons(events, pin_map(), factory).close()  # nothing was left reserved
