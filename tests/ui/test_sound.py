"""The speaker: one sound per buzzer pattern, as long as the pattern, at the pattern's
pitches, without clicks; it never blocks, never crashes, and is silent when told to be."""

from __future__ import annotations

import array
import logging
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from companion.config import SoundConfig
from companion.devices.buzzer import PATTERNS
from companion.ui.context import Hardware
from companion.ui.sound import (
    FADE_IN,
    RATE,
    Speaker,
    open_speaker,
    pattern_length,
    synthesise,
)


def config(**sound: object) -> SimpleNamespace:
    return SimpleNamespace(sound=SoundConfig(**sound))  # type: ignore[arg-type]


@pytest.fixture
def speaker() -> Iterator[Speaker]:
    assert os.environ.get("SDL_AUDIODRIVER") == "dummy"  # conftest: no real sound in tests
    got = open_speaker(config())
    assert got is not None, "the dummy audio driver must give a speaker"
    yield got
    got.close()


def segments(pattern) -> Iterator[tuple[float | None, int, int]]:  # type: ignore[no-untyped-def]
    """(frequency, first sample, end sample) of each step, as the synthesiser cuts them."""
    elapsed = 0.0
    for frequency, duration in pattern:
        start = round(elapsed * RATE)
        elapsed += duration
        yield frequency, start, round(elapsed * RATE)


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_each_pattern_has_a_sound_as_long_as_its_beeps(name: str, speaker: Speaker) -> None:
    pattern = PATTERNS[name]
    samples = synthesise(pattern)
    assert len(samples) == round(pattern_length(pattern) * RATE)
    # and what the mixer really holds (after SDL's conversion) lasts the same
    assert speaker.sounds[name].get_length() == pytest.approx(pattern_length(pattern),
                                                              abs=0.005)


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_notes_sound_at_the_buzzer_pitch_and_rests_are_silent(name: str) -> None:
    samples = synthesise(PATTERNS[name])
    for frequency, start, end in segments(PATTERNS[name]):
        part = samples[start:end]
        if frequency is None:
            assert max(abs(v) for v in part) == 0, "a rest is silence"
            continue
        # the tone crosses zero twice per period (its octave never adds crossings)
        crossings = sum(1 for a, b in zip(part, part[1:], strict=False)
                        if (a < 0) != (b < 0) and a != 0 and b != 0)
        measured = crossings / 2 / ((end - start) / RATE)
        assert measured == pytest.approx(frequency, rel=0.12)
        # soft edges: starts and ends near silence, loud in the middle
        edge = max(abs(part[0]), abs(part[-1]))
        loud = max(abs(v) for v in part)
        assert edge < 0.05 * loud and loud > 15000
        ramp = part[: max(2, round(FADE_IN * RATE) // 2)]
        assert max(abs(v) for v in ramp) < 0.6 * loud


def test_the_patterns_sound_different_to_the_ear() -> None:
    sounds = {name: synthesise(p).tobytes() for name, p in PATTERNS.items()}
    assert len(set(sounds.values())) == len(PATTERNS)
    lengths = {name: len(s) for name, s in sounds.items()}
    assert lengths["winner"] > lengths["goal_reached"] > lengths["roll_accepted"]


def test_volume_scales_the_samples() -> None:
    full = synthesise(PATTERNS["error"], amplitude=1.0)
    half = synthesise(PATTERNS["error"], amplitude=0.5)
    assert max(half) == pytest.approx(max(full) / 2, rel=0.01)
    assert isinstance(full, array.array) and full.typecode == "h"


def test_play_never_blocks_and_a_new_sound_cuts_the_old(speaker: Speaker) -> None:
    started = time.monotonic()
    speaker.play("winner")
    assert time.monotonic() - started < 0.05
    assert speaker.is_playing
    speaker.play("roll_accepted")  # same channel: replaces the fanfare
    assert speaker.is_playing
    assert list(speaker.started) == ["winner", "roll_accepted"]
    speaker.stop()
    assert not speaker.is_playing


def test_unknown_name_is_logged_and_ignored(speaker: Speaker,
                                            caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        speaker.play("fanfare")
    assert "fanfare" in caplog.text
    assert not speaker.started


def test_speaker_setting_and_volume_are_honoured(speaker: Speaker) -> None:
    quiet = open_speaker(config(speaker=False, volume=30))
    assert quiet is not None
    assert quiet.volume == 30
    assert all(s.get_volume() == pytest.approx(0.3, abs=0.01) for s in quiet.sounds.values())
    quiet.play("winner")
    assert not quiet.started and not quiet.is_playing, "speaker = false: silent"
    quiet.enabled = True
    quiet.play("winner")
    assert list(quiet.started) == ["winner"] and quiet.is_playing
    quiet.stop()


def test_muted_hardware_plays_nothing_on_the_speaker(speaker: Speaker) -> None:
    hardware = Hardware(sound=speaker, muted=True)
    hardware.beep("goal_reached")
    assert not speaker.started and not speaker.is_playing
    hardware.set_muted(False)
    hardware.beep("goal_reached")
    assert list(speaker.started) == ["goal_reached"]


def test_close_is_safe_twice_and_play_after_close_is_silent(speaker: Speaker) -> None:
    speaker.close()
    speaker.close()
    speaker.play("winner")  # no exception, no sound
    assert not speaker.started


def test_no_audio_device_gives_no_speaker_and_no_crash() -> None:
    """A Pi without any sound output: open_speaker says so in the log and returns None."""
    code = ("import logging, sys; logging.basicConfig(level=logging.INFO);"
            "from companion.ui.sound import open_speaker;"
            "print('SPEAKER', open_speaker(None))")
    env = {**os.environ, "SDL_AUDIODRIVER": "no-such-audio-driver",
           "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "SPEAKER None" in done.stdout
    assert "no speaker" in done.stderr and "Traceback" not in done.stderr


def test_a_mixer_that_fails_to_open_gives_none(monkeypatch: pytest.MonkeyPatch) -> None:
    import pygame

    def refuse(*args: object, **kwargs: object) -> None:
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", refuse)
    assert open_speaker(config()) is None
