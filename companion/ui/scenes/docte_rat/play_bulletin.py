"""The Bulletin cards: one per pawn, the heart of the Le Docte Rat screens.

A card shows the pawn's colour and name, its track, the Bulletin in large figures with the
goal of its track, and a progress bar. Numbers are drawn from the value the scene passes
(the animated one while points land), so the drawing never reads the journal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pygame

from ... import theme as th
from ...i18n import Translator
from ...theme import Colour, Theme
from ...widgets import draw_text, panel

#: Pawn colours when a session does not say (older sessions): by seat index, in the
#: engine's palette order.
PALETTE: tuple[Colour, ...] = tuple(th.PAWN_RGB.values())


def visible(colour: Colour) -> Colour:
    """The colour for bars and outlines on the dark screen (a black pawn turns grey)."""
    r, g, b = colour
    if 0.299 * r + 0.587 * g + 0.114 * b < 70:
        return th.mix(colour, (255, 255, 255), 0.45)
    return colour


def seat_colour(seat: Mapping[str, Any], index: int) -> Colour:
    """The pawn's colour from the public view ("#rrggbb", [r, g, b] or a name), else the
    palette by seat index."""
    raw = seat.get("colour", seat.get("color"))
    try:
        if isinstance(raw, str):
            text = raw.strip().lower()
            if text in th.PAWN_RGB:
                return th.PAWN_RGB[text]
            if text.startswith("#") and len(text) == 7:
                return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))
        elif isinstance(raw, (list, tuple)) and len(raw) >= 3:
            r, g, b = (max(0, min(255, int(v))) for v in raw[:3])
            return (r, g, b)
    except (TypeError, ValueError):
        pass
    return PALETTE[index % len(PALETTE)]


def members_text(seat: Mapping[str, Any]) -> str:
    """A team's members, "Zoé · Paul · Max" ("" for a player alone)."""
    members = [str(m).strip() for m in seat.get("members") or () if str(m).strip()]
    return " · ".join(members)


def bulletin_layout(area: pygame.Rect, count: int, gap: int) -> list[pygame.Rect]:
    """Cards for ``count`` pawns: one column up to 3, two columns beyond."""
    count = max(1, count)
    cols = 1 if count <= 3 else 2
    rows = -(-count // cols)
    w = (area.width - gap * (cols - 1)) // cols
    h = min((area.height - gap * (rows - 1)) // rows, round(area.width * 0.62))
    return [
        pygame.Rect(area.x + (i % cols) * (w + gap), area.y + (i // cols) * (h + gap), w, h)
        for i in range(count)
    ]


def draw_bulletin(
    surface: pygame.Surface,
    theme: Theme,
    tr: Translator,
    rect: pygame.Rect,
    seat: Mapping[str, Any],
    colour: Colour,
    shown: int,
    *,
    unit: float,
    playing: bool = False,
    answering: bool = False,
    glow: float = 0.0,
    badge: str | None = None,
) -> pygame.Rect:
    """One pawn's Bulletin; returns the rectangle of the big number (for tests)."""

    def u(v: float) -> int:
        return round(v * unit)

    bright = visible(colour)
    base = th.mix(th.PANEL, bright, 0.12)
    if glow > 0:
        base = th.mix(base, bright, 0.45 * glow)
    border = th.ACCENT if (playing or answering) else th.mix(bright, th.PANEL, 0.35)
    radius = u(14)
    panel(surface, rect, base, radius, shadow=u(3), border=border)
    if playing or answering:
        pygame.draw.rect(surface, th.ACCENT, rect, width=u(4), border_radius=radius)
    pad = u(10)
    narrow = rect.width < u(190)
    # colour chip and name
    chip = pygame.Rect(rect.x + pad, rect.y + pad, u(20), u(20))
    pygame.draw.ellipse(surface, colour, chip)
    pygame.draw.ellipse(surface, th.mix(bright, (255, 255, 255), 0.5), chip, width=max(1, u(2)))
    name_size = u(17) if narrow else u(20)
    name_x = chip.right + u(8)
    right_edge = rect.right - pad
    if badge:
        b = draw_text(surface, theme, badge, (right_edge, chip.centery), u(13),
                      th.ACCENT if (playing or answering) else th.TEXT_MUTED, bold=True,
                      anchor="midright", max_width=rect.width // 2)
        right_edge = b.x - u(6)
    draw_text(surface, theme, str(seat.get("name", "?")), (name_x, chip.centery), name_size,
              th.TEXT, bold=True, anchor="midleft", max_width=max(10, right_edge - name_x))
    y = chip.bottom + u(5)
    members = members_text(seat)
    if members:  # a team: who is in it, small, under its name
        m = draw_text(surface, theme, members, (name_x, chip.bottom + u(1)),
                      u(12) if narrow else u(14), th.TEXT, max_width=rect.right - pad - name_x)
        y = m.bottom + u(2)
    track = str(seat.get("track", "school"))
    t = draw_text(surface, theme, tr(f"dr.track.{track}"), (rect.x + pad, y),
                  u(13) if narrow else u(15), th.mix(bright, th.TEXT, 0.55),
                  max_width=rect.width - 2 * pad)
    # the Bulletin: large figures, the goal beside them
    goal = int(seat.get("goal", 0) or 0)
    bar_h = u(10)
    bar = pygame.Rect(rect.x + pad, rect.bottom - pad - bar_h, rect.width - 2 * pad, bar_h)
    top = max(chip.bottom + u(24), t.bottom + (0 if members else u(4)))
    number_h = bar.y - u(4) - top
    # a font's line box is taller than its digits: the figures may use the band's slack
    big = max(u(22), min(u(64), round(number_h * (1.25 if members else 0.95)),
                         round(rect.width * 0.30)))
    goal_text = tr("dr.goal", goal=goal)
    goal_size = max(u(13), big * 2 // 5)
    goal_w = theme.font(goal_size, True).size(goal_text)[0]
    num_w = theme.font(big, True).size(str(shown))[0]
    total_w = num_w + u(6) + goal_w
    x = rect.centerx - total_w // 2
    mid = top + number_h // 2
    num_rect = draw_text(surface, theme, str(shown), (x, mid), big,
                         th.ACCENT if glow > 0 else th.TEXT, bold=True, anchor="midleft")
    draw_text(surface, theme, goal_text, (num_rect.right + u(6), num_rect.bottom - u(4)),
              goal_size, th.TEXT_MUTED, bold=True, anchor="bottomleft")
    # progress towards the track's goal
    pygame.draw.rect(surface, th.SHADOW, bar, border_radius=bar_h // 2)
    frac = 0.0 if goal <= 0 else max(0.0, min(1.0, shown / goal))
    if frac > 0:
        fill = pygame.Rect(bar.x, bar.y, max(bar_h, round(bar.width * frac)), bar_h)
        pygame.draw.rect(surface, bright, fill, border_radius=bar_h // 2)
    return num_rect


def draw_bulletin_row(
    surface: pygame.Surface,
    theme: Theme,
    tr: Translator,
    rect: pygame.Rect,
    seat: Mapping[str, Any],
    colour: Colour,
    shown: int,
    *,
    unit: float,
    playing: bool = False,
    badge: str | None = None,
) -> pygame.Rect:
    """A pawn's Bulletin in one short row (while the dice take the room): colour, name, the
    number and the goal of its track, a thin progress bar. Returns the number's rectangle."""

    def u(v: float) -> int:
        return round(v * unit)

    bright = visible(colour)
    radius = u(10)
    border = th.ACCENT if playing else th.mix(bright, th.PANEL, 0.35)
    panel(surface, rect, th.mix(th.PANEL, bright, 0.12), radius, shadow=u(2), border=border)
    if playing:
        pygame.draw.rect(surface, th.ACCENT, rect, width=u(3), border_radius=radius)
    pad = u(8)
    bar_h = u(6)
    bar = pygame.Rect(rect.x + pad, rect.bottom - u(5) - bar_h, rect.width - 2 * pad, bar_h)
    body = pygame.Rect(rect.x + pad, rect.y + u(4), rect.width - 2 * pad, bar.y - rect.y - u(5))
    name_size = u(15) if body.height < u(70) else u(18)
    d = u(14) if body.height < u(70) else u(18)
    name_h = theme.font(name_size, True).get_linesize()
    chip = pygame.Rect(body.x, body.y + (name_h - d) // 2, d, d)
    pygame.draw.ellipse(surface, colour, chip)
    pygame.draw.ellipse(surface, th.mix(bright, (255, 255, 255), 0.5), chip, width=max(1, u(2)))
    right = body.right
    if badge:
        b = draw_text(surface, theme, badge, (right, chip.centery), u(12),
                      th.ACCENT if playing else th.TEXT_MUTED, bold=True, anchor="midright",
                      max_width=body.width // 3)
        right = b.x - u(4)
    x = chip.right + u(6)
    draw_text(surface, theme, str(seat.get("name", "?")), (x, body.y), name_size, th.TEXT,
              bold=True, max_width=max(10, right - x))
    goal = int(seat.get("goal", 0) or 0)
    num_top = body.y + name_h
    if body.height >= u(96):  # room to spare (three pawns or fewer): members and track
        members = members_text(seat)
        if members:
            m = draw_text(surface, theme, members, (x, num_top), u(13), th.TEXT,
                          max_width=max(10, body.right - x))
            num_top = m.bottom
        track = str(seat.get("track", "school"))
        t = draw_text(surface, theme, tr(f"dr.track.{track}"), (body.x, num_top), u(13),
                      th.mix(bright, th.TEXT, 0.55), max_width=body.width)
        num_top = t.bottom
    big = max(u(20), min(u(52), round((body.bottom - num_top) * 0.95)))
    goal_text = tr("dr.goal", goal=goal)
    goal_size = max(u(13), big * 1 // 2)
    num_rect = draw_text(surface, theme, str(shown), (body.x, body.bottom + u(2)), big,
                         th.TEXT, bold=True, anchor="bottomleft")
    draw_text(surface, theme, goal_text, (num_rect.right + u(5), num_rect.bottom - u(3)),
              goal_size, th.TEXT_MUTED, bold=True, anchor="bottomleft")
    pygame.draw.rect(surface, th.SHADOW, bar, border_radius=bar_h // 2)
    frac = 0.0 if goal <= 0 else max(0.0, min(1.0, shown / goal))
    if frac > 0:
        fill = pygame.Rect(bar.x, bar.y, max(bar_h, round(bar.width * frac)), bar_h)
        pygame.draw.rect(surface, bright, fill, border_radius=bar_h // 2)
    return num_rect
