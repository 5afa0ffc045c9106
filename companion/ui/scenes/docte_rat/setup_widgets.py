"""The setup screen's own widget: a setting shown as a card (what it is, its value, a line
of detail, and a chevron that says "tap to change")."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from ... import theme as th
from ...theme import Theme
from ...widgets import Button, draw_text, panel


@dataclass
class OptionButton(Button):
    """``caption`` names the setting ("Who starts?"), ``label`` is its value and
    ``sublabel`` a detail line."""

    caption: str = ""

    def draw(self, surface: pygame.Surface, theme: Theme, flash: bool = False) -> None:
        r = self.rect
        radius = max(10, r.height // 5)
        base = self.colour if self.enabled else th.mix(self.colour, th.PANEL, 0.7)
        if flash:
            base = th.mix(base, (255, 255, 255), 0.35)
        panel(surface, r, base, radius, shadow=max(2, r.height // 16))
        ink = th.readable_on(base) if self.enabled else th.TEXT_MUTED
        pad = max(8, r.height // 7)
        chevron = max(12, self.size)
        text_w = r.width - 2 * pad - chevron
        small = max(11, self.size * 13 // 20)
        y = r.y + pad // 2 + 1
        if self.caption:
            cap = draw_text(surface, theme, self.caption, (r.x + pad, y), small, th.ACCENT,
                            bold=True, max_width=text_w)
            y = cap.bottom
        rest = r.bottom - pad // 2 - y
        label_size = self.size
        line = theme.font(label_size, True).get_linesize()
        sub = theme.font(small).get_linesize() if self.sublabel else 0
        y += max(0, (rest - line - sub) // 2)
        draw_text(surface, theme, self.label, (r.x + pad, y), label_size, ink, bold=True,
                  max_width=text_w)
        if self.sublabel:
            draw_text(surface, theme, self.sublabel, (r.x + pad, y + line), small,
                      th.mix(ink, base, 0.25), max_width=text_w)
        if self.enabled:
            draw_text(surface, theme, "›", (r.right - pad, r.centery), chevron + 8, ink,
                      bold=True, anchor="midright")
