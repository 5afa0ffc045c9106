"""The speaker: short sounds that match the buzzer's patterns (filled in by the sound work)."""

from __future__ import annotations

from typing import Any


def open_speaker(config: Any) -> Any:
    """The speaker for this config, or None when there is none."""
    return None
