"""The speaker: short sounds that match the buzzer's patterns, played through pygame.mixer.

The sounds are synthesised at start-up from the buzzer's own :data:`PATTERNS` (the same
notes, the same lengths, the same rests), so the speaker and the buzzer can never drift
apart: change a pattern in ``companion/devices/buzzer.py`` and both follow. No WAV files
to regenerate and commit, no numpy: each note is a sine with a touch of its octave (softer
than a piezo's square wave), with a short fade in and out so it never clicks. All six
patterns together are under three seconds of 16-bit mono audio, made in a few tens of
milliseconds. The samples are wrapped in an in-memory WAV, so SDL converts them to
whatever format the audio device really opened with.

:func:`open_speaker` returns None (logged, never raised) when there is no audio device or
no mixer; :meth:`Speaker.play` never blocks (SDL mixes in its own thread), a new sound
cuts the previous one short like the buzzer does, and an unknown name is logged and
ignored.
"""

from __future__ import annotations

import array
import io
import logging
import math
import sys
import wave
from collections import deque
from typing import Any

from ..devices.buzzer import PATTERNS, Pattern

log = logging.getLogger(__name__)

#: Samples per second of the synthesised sounds (SDL resamples to the device's own rate).
RATE = 22050
#: Seconds of fade in and fade out on every note (against clicks).
FADE_IN = 0.004
FADE_OUT = 0.012
#: Loudest sample at volume 100 %, as a fraction of full scale (headroom for the octave).
PEAK = 0.8


def pattern_length(pattern: Pattern) -> float:
    """Seconds the pattern lasts, rests included."""
    return sum(duration for _, duration in pattern)


def synthesise(pattern: Pattern, rate: int = RATE, amplitude: float = 1.0) -> array.array[int]:
    """Signed 16-bit mono samples for ``pattern``: one soft tone per note, silence for a
    rest. The length is exactly the pattern's length (boundaries come from the running
    total, so rounding never accumulates)."""
    samples = array.array("h")
    scale = 32767 * PEAK * max(0.0, min(1.0, amplitude))
    elapsed = 0.0
    for frequency, duration in pattern:
        start = round(elapsed * rate)
        elapsed += duration
        count = round(elapsed * rate) - start
        if frequency is None:
            samples.extend(array.array("h", bytes(2 * count)))
            continue
        fade_in = max(1, min(round(FADE_IN * rate), count // 4))
        fade_out = max(1, min(round(FADE_OUT * rate), count // 3))
        step = 2 * math.pi * frequency / rate
        for i in range(count):
            envelope = 1.0
            if i < fade_in:
                envelope = i / fade_in
            elif i >= count - fade_out:
                envelope = (count - 1 - i) / fade_out
            # a raised-cosine edge is gentler on the ear than a straight ramp
            envelope = 0.5 - 0.5 * math.cos(math.pi * envelope)
            phase = step * i
            value = 0.8 * math.sin(phase) + 0.2 * math.sin(2 * phase)
            samples.append(round(scale * envelope * value))
    return samples


def to_wav(samples: array.array[int], rate: int = RATE) -> bytes:
    """The samples as a complete mono 16-bit WAV file in memory."""
    data = samples
    if sys.byteorder == "big":  # WAV is little-endian
        data = array.array("h", samples)
        data.byteswap()
    out = io.BytesIO()
    with wave.open(out, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(data.tobytes())
    return out.getvalue()


class Speaker:
    """The patterns as pygame Sounds on one reserved mixer channel."""

    def __init__(self, mixer: Any, volume: int = 70, enabled: bool = True) -> None:
        self._mixer = mixer
        self.enabled = enabled
        #: the names of the last sounds really started, oldest first (for logs and tests)
        self.started: deque[str] = deque(maxlen=32)
        self.sounds: dict[str, Any] = {}
        for name, pattern in PATTERNS.items():
            wav = to_wav(synthesise(pattern))
            self.sounds[name] = mixer.Sound(file=io.BytesIO(wav))
        mixer.set_reserved(1)
        self._channel = mixer.Channel(0)
        self.volume = volume
        self._closed = False

    @property
    def volume(self) -> int:
        return self._volume

    @volume.setter
    def volume(self, percent: int) -> None:
        self._volume = max(0, min(100, int(percent)))
        for sound in self.sounds.values():
            sound.set_volume(self._volume / 100)

    def play(self, name: str) -> None:
        """Start the sound of pattern ``name`` and return at once (cuts the previous one)."""
        sound = self.sounds.get(name)
        if sound is None:
            log.warning("no speaker sound named %r (known: %s)", name, ", ".join(self.sounds))
            return
        if not self.enabled or self._closed:
            return
        try:
            self._channel.play(sound)
            self.started.append(name)
        except Exception:
            log.exception("the speaker failed to play %s", name)

    @property
    def is_playing(self) -> bool:
        try:
            return bool(self._channel.get_busy())
        except Exception:
            return False

    def stop(self) -> None:
        try:
            self._channel.stop()
        except Exception:
            pass

    def close(self) -> None:
        """Stop and release the audio device. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        self.stop()
        try:
            self._mixer.quit()
        except Exception:
            log.exception("closing the audio device failed")


def open_speaker(config: Any) -> Speaker | None:
    """The speaker for this config, or None when there is no audio device (logged).

    pygame.mixer is imported and the audio device opened only here (never at import time).
    The speaker is opened even when ``sound.speaker`` is false, so turning it back on in the
    Settings screen works at once; it then stays silent until enabled.
    """
    sound = getattr(config, "sound", None)
    volume = int(getattr(sound, "volume", 70))
    enabled = bool(getattr(sound, "speaker", True))
    try:
        import pygame

        mixer = pygame.mixer
        if mixer.get_init() is None:
            mixer.pre_init(RATE, -16, 1, 512)
            mixer.init()
    except Exception as exc:  # no device, no ALSA, no SDL_mixer: the buzzer is enough
        log.info("no speaker (%s); the buzzer alone will beep", exc)
        return None
    try:
        speaker = Speaker(mixer, volume=volume, enabled=enabled)
    except Exception as exc:
        log.warning("the speaker's sounds could not be prepared (%s); no speaker", exc)
        try:
            mixer.quit()
        except Exception:
            pass
        return None
    log.info("speaker ready: %s, volume %d %%%s", mixer.get_init(), volume,
             "" if enabled else " (silenced in the settings)")
    return speaker
