"""The buzzer plays patterns in the background; we listen on the mock pin itself."""

from __future__ import annotations

import time

import pytest

from companion.core.errors import ConfigError, DeviceError
from companion.devices.buzzer import PATTERNS, BuzzerOut, heard, validate_pattern
from companion.devices.pins import pin_map

PIN = pin_map()["buzzer"]


def sounds(pattern):
    return [step for step in pattern if step[0] is not None]


@pytest.mark.parametrize("name", sorted(PATTERNS))
@pytest.mark.parametrize("kind", ["active", "passive"])
def test_each_pattern_is_heard_on_the_pin(kind: str, name: str, factory) -> None:
    buzzer = BuzzerOut(kind, PIN, factory)
    pin = factory.pin(PIN)
    pin.clear_history()
    started = time.monotonic()
    buzzer.play(name)
    assert time.monotonic() - started < 0.05, "play() must not block"
    assert buzzer.wait(timeout=3)
    got = heard(pin)
    expected = sounds(PATTERNS[name])
    assert len(got) == len(expected)
    for sound, (frequency, duration) in zip(got, expected, strict=True):
        if kind == "passive":
            assert sound.frequency == pytest.approx(frequency, rel=1e-6)
        else:
            assert sound.frequency is None  # on/off only
        assert sound.duration == pytest.approx(duration, abs=0.05)
    assert pin.state == 0  # silent at the end
    buzzer.close()


def test_patterns_are_told_apart_even_by_an_active_buzzer() -> None:
    """An active buzzer has one pitch: each pattern needs its own rhythm."""

    def rhythm(pattern):
        return tuple((f is not None, round(d, 2)) for f, d in pattern)

    rhythms = {name: rhythm(p) for name, p in PATTERNS.items()}
    assert len(set(rhythms.values())) == len(PATTERNS)
    for name in ("roll_accepted", "goal_reached", "winner", "error", "detector"):
        assert name in PATTERNS
    assert len(sounds(PATTERNS["roll_accepted"])) == 1
    assert len(sounds(PATTERNS["goal_reached"])) == 2
    first, second = sounds(PATTERNS["goal_reached"])
    assert second[0] > first[0], "goal_reached rises"
    assert len(sounds(PATTERNS["error"])) == 1
    assert PATTERNS["error"][0][1] > 3 * PATTERNS["roll_accepted"][0][1], "error is long"
    assert PATTERNS["error"][0][0] < min(f for f, _ in sounds(PATTERNS["winner"])), "and low"
    assert len(sounds(PATTERNS["winner"])) >= 3
    for name, pattern in PATTERNS.items():
        assert validate_pattern(pattern) == pattern, name
        for a, b in zip(pattern, pattern[1:], strict=False):
            assert a[0] is None or b[0] is None, f"{name}: notes need a rest between them"


def test_a_new_pattern_interrupts_the_previous_one(factory) -> None:
    buzzer = BuzzerOut("passive", PIN, factory)
    pin = factory.pin(PIN)
    pin.clear_history()
    buzzer.play("error")  # 0.6 s
    time.sleep(0.1)
    buzzer.play("roll_accepted")
    assert buzzer.wait(timeout=2)
    got = heard(pin)
    assert [s.frequency for s in got] == [PATTERNS["error"][0][0], PATTERNS["roll_accepted"][0][0]]
    assert got[0].duration < 0.3, "error was cut short"
    buzzer.close()


def test_muted_plays_nothing(factory) -> None:
    buzzer = BuzzerOut("active", PIN, factory, muted=True)
    pin = factory.pin(PIN)
    pin.clear_history()
    buzzer.play("winner")
    time.sleep(0.1)
    assert heard(pin, until=time.monotonic()) == []
    buzzer.muted = False
    buzzer.play("roll_accepted")
    assert buzzer.wait(timeout=2)
    assert len(heard(pin)) == 1
    buzzer.close()


def test_muting_while_playing_silences_at_once(factory) -> None:
    buzzer = BuzzerOut("active", PIN, factory)
    pin = factory.pin(PIN)
    buzzer.play("error")
    time.sleep(0.05)
    assert pin.state == 1
    buzzer.muted = True
    assert buzzer.wait(timeout=0.2)
    assert pin.state == 0
    buzzer.close()


def test_kind_none_is_silent_and_safe(factory) -> None:
    buzzer = BuzzerOut("none", None, factory)
    for name in PATTERNS:
        buzzer.play(name)
    assert buzzer.wait(timeout=0.01)
    buzzer.stop()
    buzzer.muted = True
    buzzer.close()
    buzzer.close()
    # it never claimed the buzzer pin
    other = BuzzerOut("active", PIN, factory)
    other.close()


def test_unknown_kind_and_pattern(factory) -> None:
    with pytest.raises(ConfigError) as err:
        BuzzerOut("loud", PIN, factory)
    assert str(err.value) == (
        'devices.buzzer = "loud" is not a buzzer kind; write "active", "passive" or "none"'
    )
    buzzer = BuzzerOut("passive", PIN, factory)
    with pytest.raises(ValueError, match='unknown buzzer pattern "tada"'):
        buzzer.play("tada")
    with pytest.raises(ValueError, match="out of range"):
        buzzer.play([(20000, 0.1)])
    buzzer.close()


def test_custom_pattern_as_data(factory) -> None:
    buzzer = BuzzerOut("passive", PIN, factory)
    pin = factory.pin(PIN)
    pin.clear_history()
    buzzer.play([(440, 0.05), (None, 0.05), (660, 0.05)])
    assert buzzer.wait(timeout=1)
    assert [s.frequency for s in heard(pin)] == [440, 660]
    buzzer.close()


def test_pin_in_use_is_a_device_error(factory) -> None:
    first = BuzzerOut("active", PIN, factory)
    with pytest.raises(DeviceError, match=r"the passive buzzer on GPIO12 \(header pin 32\)"):
        BuzzerOut("passive", PIN, factory)
    first.close()


def test_close_leaves_the_pin_silent_and_free(factory) -> None:
    buzzer = BuzzerOut("active", PIN, factory)
    buzzer.play("error")
    time.sleep(0.05)
    started = time.monotonic()
    buzzer.close()
    assert time.monotonic() - started < 0.5
    assert factory.pin(PIN).state == 0
    buzzer.play("winner")  # after close: ignored, no exception
    BuzzerOut("passive", PIN, factory).close()  # the pin is free again
