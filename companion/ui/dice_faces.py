"""Dice drawn as dice: a face with its pips, and the touch targets that show one (the tiles
of the confirmation strip and the keys of the dice pad)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from . import theme as th
from .theme import Colour, Theme
from .widgets import Button, draw_text, panel

IVORY: Colour = (246, 240, 226)
PIP: Colour = (34, 34, 44)

#: Where the pips sit on a face, in thirds of the face (column, row), per value.
PIP_SPOTS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


def draw_face(
    surface: pygame.Surface,
    rect: pygame.Rect,
    value: int,
    colour: Colour = IVORY,
    pip: Colour = PIP,
) -> None:
    """A die's top face showing ``value`` (1..6) as pips, filling the square ``rect``."""
    side = min(rect.width, rect.height)
    face = pygame.Rect(0, 0, side, side)
    face.center = rect.center
    pygame.draw.rect(surface, colour, face, border_radius=max(3, side // 6))
    spots = PIP_SPOTS.get(value)
    if not spots:
        return
    step = side * 0.27
    radius = max(2, round(side * 0.095))
    cx, cy = face.center
    for col, row in spots:
        pygame.draw.circle(surface, pip, (round(cx + (col - 1) * step),
                                          round(cy + (row - 1) * step)), radius)


@dataclass
class DieButton(Button):
    """A touch target drawn as a die face: a tile of the strip or a key of the pad.

    ``value`` None draws an empty slot with a question mark. ``doubt`` (the camera was not
    sure, the player has not confirmed yet) draws a thick warning border."""

    value: int | None = None
    doubt: bool = False
    caption: str = ""

    def draw(self, surface: pygame.Surface, theme: Theme, flash: bool = False) -> None:
        r = self.rect
        radius = max(8, r.height // 6)
        base = th.PANEL_LIGHT if self.enabled else th.PANEL
        if self.doubt:
            base = th.mix(base, th.DANGER, 0.4)
        if flash:
            base = th.mix(base, (255, 255, 255), 0.35)
        border: Colour | None = None
        if self.doubt:
            border = th.DANGER
        elif self.selected:
            border = th.ACCENT
        panel(surface, r, base, radius, shadow=max(2, r.height // 18), border=border)
        cap_h = round(r.height * 0.22) if self.caption else 0
        pad = max(4, r.height // 10) + (max(2, r.height // 24) if border else 0)
        body = pygame.Rect(r.x, r.y, r.width, r.height - cap_h).inflate(-2 * pad, -2 * pad)
        if self.value is None:
            draw_text(surface, theme, "?", body.center, max(12, body.height * 3 // 4),
                      th.TEXT if self.doubt else th.TEXT_MUTED, bold=True, anchor="center")
        else:
            face = IVORY if self.enabled else th.mix(IVORY, th.PANEL, 0.5)
            draw_face(surface, body, self.value, face)
        if self.caption:
            draw_text(surface, theme, self.caption, (r.centerx, r.bottom - pad // 2),
                      max(11, cap_h * 3 // 4), th.TEXT,
                      bold=True, anchor="midbottom", max_width=r.width - 4)


@dataclass
class CountdownButton(Button):
    """A button with a bar that empties as its countdown runs (``progress`` gives the
    remaining fraction 0..1, or None when no countdown runs)."""

    progress: Callable[[], float | None] | None = None

    def draw(self, surface: pygame.Surface, theme: Theme, flash: bool = False) -> None:
        super().draw(surface, theme, flash)
        left = self.progress() if self.progress is not None else None
        if left is None or not self.enabled:
            return
        r = self.rect
        h = max(4, r.height // 10)
        track = pygame.Rect(r.x + r.height // 6, r.bottom - h - max(3, h // 2),
                            r.width - r.height // 3, h)
        pygame.draw.rect(surface, th.mix(self.colour, th.SHADOW, 0.5), track,
                         border_radius=h // 2)
        bar = track.copy()
        bar.width = round(track.width * max(0.0, min(1.0, left)))
        if bar.width > 0:
            pygame.draw.rect(surface, th.TEXT, bar, border_radius=h // 2)
