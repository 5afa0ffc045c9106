"""Colours, sizes and fonts. Nothing is loaded at import time: fonts load on first use.

Sizes scale with the screen: ``Theme.unit(size)`` is 1.0 on the official 800x480 screen
and 1.5 on 1280x720, and every scene multiplies its measures by it.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from io import BytesIO
from typing import TYPE_CHECKING

from ..devices.events import ButtonName

if TYPE_CHECKING:
    import pygame

log = logging.getLogger(__name__)

Colour = tuple[int, int, int]

# -- palette: a warm wooden table at night -----------------------------------------------
BACKGROUND: Colour = (27, 31, 48)
BACKGROUND_TOP: Colour = (38, 43, 66)
PANEL: Colour = (44, 50, 76)
PANEL_LIGHT: Colour = (60, 68, 100)
TEXT: Colour = (248, 242, 230)
TEXT_MUTED: Colour = (170, 178, 202)
TEXT_DARK: Colour = (30, 30, 40)
ACCENT: Colour = (255, 196, 84)
ACCENT_DARK: Colour = (196, 140, 40)
DANGER: Colour = (230, 90, 80)
OK: Colour = (92, 200, 120)
SHADOW: Colour = (14, 16, 26)
TOAST: Colour = (16, 18, 30)

#: One colour per game card (the catalogue order); unknown games get the last one.
GAME_COLOURS: dict[str, Colour] = {
    "docte-rat": (226, 160, 50),
    "rats-in-the-walls": (196, 72, 64),
    "ratjack": (46, 160, 140),
    "debrouille": (98, 110, 220),
}
GAME_DEFAULT: Colour = (120, 130, 160)

#: How the pawn colours the games name ("red", "blue"...) are drawn.
PAWN_RGB: dict[str, Colour] = {
    "red": (214, 58, 50),
    "blue": (52, 108, 222),
    "green": (58, 168, 84),
    "yellow": (246, 206, 56),
    "white": (242, 240, 232),
    "black": (22, 22, 28),
    "orange": (244, 138, 38),
    "purple": (146, 80, 190),
}

#: The physical buttons' colours (the caps on the box).
BUTTON_COLOURS: dict[ButtonName, Colour] = {
    ButtonName.YES: (70, 200, 110),
    ButtonName.NO: (232, 84, 84),
    ButtonName.DETECTOR: (250, 190, 50),
    ButtonName.UNDO: (110, 160, 240),
}

FONT_REGULAR = "DejaVuSans.ttf"
FONT_BOLD = "DejaVuSans-Bold.ttf"
MIN_TOUCH = 48  # px: the smallest touch target at any resolution


def mix(a: Colour, b: Colour, amount: float) -> Colour:
    """``a`` moved ``amount`` (0..1) towards ``b``."""
    return tuple(round(x + (y - x) * amount) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def dim(colour: Colour, amount: float = 0.65) -> Colour:
    return mix(colour, BACKGROUND, amount)


def readable_on(colour: Colour) -> Colour:
    """Dark text on light colours, light text on dark ones."""
    r, g, b = colour
    return TEXT_DARK if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else TEXT


class Theme:
    """Fonts (loaded lazily from assets/fonts, pygame's default font as a fallback) and a
    cache of rendered text. ``drawn`` lists the strings rendered in the current frame, so
    tests can check what a player would read."""

    def __init__(self, cache_size: int = 256) -> None:
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._font_bytes: dict[bool, bytes | None] = {}
        self._texts: OrderedDict[tuple[str, int, bool, tuple[int, ...]], pygame.Surface] = (
            OrderedDict()
        )
        self._cache_size = cache_size
        self.drawn: list[str] = []

    @staticmethod
    def unit(size: tuple[int, int]) -> float:
        w, h = size
        return max(0.5, min(w / 800, h / 480))

    def begin_frame(self) -> None:
        self.drawn.clear()

    def _font_data(self, bold: bool) -> bytes | None:
        if bold not in self._font_bytes:
            from ..core.errors import CompanionError
            from ..resources import asset

            name = FONT_BOLD if bold else FONT_REGULAR
            try:
                self._font_bytes[bold] = asset("fonts", name).read_bytes()
            except (CompanionError, OSError) as exc:
                log.warning("font missing, using pygame's default font: %s", exc)
                self._font_bytes[bold] = None
        return self._font_bytes[bold]

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        import pygame

        size = max(8, int(size))
        key = (size, bold)
        if key not in self._fonts:
            if not pygame.font.get_init():
                pygame.font.init()
            data = self._font_data(bold)
            if data is None:
                font = pygame.font.Font(None, round(size * 1.3))
                font.bold = bold
            else:
                font = pygame.font.Font(BytesIO(data), size)
            self._fonts[key] = font
        return self._fonts[key]

    def render(self, text: str, size: int, colour: Colour, bold: bool = False) -> pygame.Surface:
        self.drawn.append(text)
        key = (text, int(size), bold, tuple(colour))
        surf = self._texts.get(key)
        if surf is None:
            surf = self.font(size, bold).render(text, True, colour)
            self._texts[key] = surf
            if len(self._texts) > self._cache_size:
                self._texts.popitem(last=False)
        else:
            self._texts.move_to_end(key)
        return surf

