"""A bouncing button is one press: contact chatter on a real gpiozero Button (MockFactory,
which does not debounce by itself) becomes exactly one Press intent."""

from __future__ import annotations

import queue
import time

from companion.devices.buttons import Buttons
from companion.devices.events import ButtonName
from companion.devices.factory import make_pin_factory
from companion.devices.pins import DEFAULT_PINS
from companion.ui.intents import InputMap, Press, Release, to_intent


def drain(events: queue.Queue, inputs: InputMap) -> list:
    out = []
    while not events.empty():
        intent = to_intent(events.get_nowait(), inputs)
        if intent is not None:
            out.append(intent)
    return out


def test_contact_chatter_is_one_press_and_a_later_press_counts_again() -> None:
    factory = make_pin_factory("simulated")
    events: queue.Queue = queue.Queue()
    buttons = Buttons(events, DEFAULT_PINS, factory, bounce_time=0.05)
    try:
        inputs = InputMap((800, 480), bounce_time=0.05)
        pin = factory.pin(DEFAULT_PINS["yes"])
        for _ in range(4):  # the contacts bounce a few times within a few milliseconds
            pin.drive_low()
            pin.drive_high()
        pin.drive_low()  # ...and settle down
        assert events.qsize() >= 9, "the mock should report every edge (no debounce of its own)"
        assert drain(events, inputs) == [Press(ButtonName.YES), Release(ButtonName.YES)]
        time.sleep(0.06)
        pin.drive_high()  # the real release, after the chatter: nothing more to report
        assert drain(events, inputs) == []
        time.sleep(0.06)
        buttons.tap("yes")  # a second, clean press a moment later counts
        assert drain(events, inputs) == [Press(ButtonName.YES), Release(ButtonName.YES)]
    finally:
        buttons.close()
        factory.close()


def test_without_bounce_filter_every_chatter_edge_would_be_a_press() -> None:
    factory = make_pin_factory("simulated")
    events: queue.Queue = queue.Queue()
    buttons = Buttons(events, DEFAULT_PINS, factory)
    try:
        inputs = InputMap((800, 480), bounce_time=0.0)
        pin = factory.pin(DEFAULT_PINS["no"])
        for _ in range(3):
            pin.drive_low()
            pin.drive_high()
        presses = [i for i in drain(events, inputs) if isinstance(i, Press)]
        assert presses == [Press(ButtonName.NO)] * 3
    finally:
        buttons.close()
        factory.close()
