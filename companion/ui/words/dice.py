"""Words of the dice screens (French first: the games' own language)."""

from __future__ import annotations

FR: dict[str, str] = {}

EN: dict[str, str] = {}
