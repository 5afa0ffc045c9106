"""An on-screen keyboard for names: there is no physical keyboard at a real table (and in
demo mode the letters Y N D U R Q already stand for the box's buttons).

French first: AZERTY in French, QWERTY in English, and in both the digits (Table 2), a row
of the accents French names need (é è ê à ç ï ô ù â ë), the hyphen (Jean-Luc), the
apostrophe (D'Artagnan) and a space. A name starts with a capital, and so does each part
after a space or a hyphen; the shift key (⇧) flips the case of the next letter. Every key
is a ``Button`` whose key is ``"kb:<id>"``; the scene passes taps to ``press`` and draws
with ``draw``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from . import theme as th
from .widgets import Button, draw_text, panel

if TYPE_CHECKING:
    from .theme import Theme

PREFIX = "kb:"
SHIFT, BACKSPACE, SPACE, OK, CANCEL = "shift", "back", "space", "ok", "cancel"
DIGITS = "1234567890"
ACCENTS = ("é", "è", "ê", "à", "ç", "ï", "ô", "ù", "â", "ë")

#: rows of (key id, width weight); a one-character id types itself
_LAYOUTS: dict[str, list[list[tuple[str, float]]]] = {
    "azerty": [
        [(c, 1.0) for c in "azertyuiop"],
        [(c, 1.0) for c in "qsdfghjklm"],
        [(SHIFT, 1.5)] + [(c, 1.0) for c in "wxcvbn'-"] + [(BACKSPACE, 1.5)],
    ],
    "qwerty": [
        [(c, 1.0) for c in "qwertyuiop"],
        [(c, 1.0) for c in "asdfghjkl'"],
        [(SHIFT, 1.5)] + [(c, 1.0) for c in "zxcvbnm-"] + [(BACKSPACE, 1.5)],
    ],
}
_BOTTOM = [(CANCEL, 2.5), (SPACE, 5.0), (OK, 2.5)]
_CAPITAL_AFTER = (" ", "-")


class Keyboard:
    """The text being typed and the keys that type it.

    ``press(key_id)`` returns ``"ok"`` or ``"cancel"`` when the keyboard should close (the
    scene reads ``text``), otherwise None. ``labels`` maps the function keys to words in
    the current language (``ok``, ``cancel``, ``space``)."""

    def __init__(self, text: str = "", *, prompt: str = "", layout: str = "azerty",
                 max_length: int = 20, labels: dict[str, str] | None = None) -> None:
        self.text = text
        self.prompt = prompt
        self.layout = layout if layout in _LAYOUTS else "azerty"
        self.max_length = max_length
        self.shift = False
        self.labels = labels or {}

    # -- typing ----------------------------------------------------------------------------
    def capital_next(self) -> bool:
        """Would the next letter be a capital? (start of a word, flipped by shift)"""
        auto = not self.text or self.text.endswith(_CAPITAL_AFTER)
        return auto != self.shift

    def press(self, key_id: str) -> str | None:
        if key_id.startswith(PREFIX):
            key_id = key_id[len(PREFIX):]
        if key_id == OK:
            self.text = " ".join(self.text.split())  # no stray spaces around a name
            return OK
        if key_id == CANCEL:
            return CANCEL
        if key_id == SHIFT:
            self.shift = not self.shift
        elif key_id == BACKSPACE:
            self.text = self.text[:-1]
            self.shift = False
        elif key_id == SPACE:
            if self.text and not self.text.endswith(" "):
                self._type(" ")
        elif len(key_id) == 1:
            char = key_id.upper() if key_id.isalpha() and self.capital_next() else key_id
            self._type(char)
            self.shift = False
        return None

    def _type(self, char: str) -> None:
        if len(self.text) < self.max_length:
            self.text += char

    def type_text(self, text: str) -> None:
        """Type ``text`` key by key (what a finger would do; tests use it)."""
        for char in text:
            self.press(SPACE if char == " " else char.lower())

    # -- layout and drawing ------------------------------------------------------------------
    def key_label(self, key_id: str) -> str:
        if key_id == SHIFT:
            return "⇧"
        if key_id == BACKSPACE:
            return "⌫"
        if key_id in (SPACE, OK, CANCEL):
            return self.labels.get(key_id, key_id)
        return key_id.upper() if key_id.isalpha() and self.capital_next() else key_id

    def field_rect(self, rect: pygame.Rect, unit: float) -> pygame.Rect:
        top = round(28 * unit)
        return pygame.Rect(rect.x, rect.y + top, rect.width, round(54 * unit))

    def buttons(self, rect: pygame.Rect, unit: float) -> list[Button]:
        """The keys filling ``rect`` under the text field (call again after every press:
        the letters' case and the shift key's look change)."""
        field = self.field_rect(rect, unit)
        gap = max(4, round(6 * unit))
        rows = ([[(d, 1.0) for d in DIGITS]] + _LAYOUTS[self.layout]
                + [[(a, 1.0) for a in ACCENTS], _BOTTOM])
        top = field.bottom + round(8 * unit)
        key_h = (rect.bottom - top - gap * (len(rows) - 1)) // len(rows)
        out: list[Button] = []
        for r, row in enumerate(rows):
            weights = sum(w for _, w in row)
            unit_w = (rect.width - gap * (len(row) - 1)) / weights
            x = float(rect.x)
            y = top + r * (key_h + gap)
            for key_id, weight in row:
                width = round(unit_w * weight)
                key_rect = pygame.Rect(round(x), y, width, key_h)
                x += unit_w * weight + gap
                colour = th.PANEL_LIGHT
                if key_id == OK:
                    colour = th.OK
                elif key_id in (CANCEL, BACKSPACE):
                    colour = th.mix(th.PANEL_LIGHT, th.DANGER, 0.35)
                elif key_id in ACCENTS:
                    colour = th.mix(th.PANEL_LIGHT, th.ACCENT, 0.18)
                out.append(Button(PREFIX + key_id, key_rect, self.key_label(key_id), colour,
                                  size=round(26 * unit), selected=key_id == SHIFT and self.shift))
        return out

    def draw(self, surface: pygame.Surface, theme: Theme, rect: pygame.Rect, unit: float,
             caret: bool = True) -> None:
        """The prompt and the text field (the scene draws the key buttons over it)."""
        draw_text(surface, theme, self.prompt, (rect.x + round(4 * unit), rect.y),
                  round(22 * unit), th.ACCENT, bold=True, max_width=rect.width)
        field = self.field_rect(rect, unit)
        panel(surface, field, th.TEXT, radius=round(12 * unit), shadow=0, border=th.ACCENT)
        pad = round(16 * unit)
        shown = self.text + ("|" if caret else "")
        draw_text(surface, theme, shown, (field.x + pad, field.centery), round(32 * unit),
                  th.TEXT_DARK, bold=True, anchor="midleft",
                  max_width=field.width - 2 * pad - round(56 * unit))
        count = f"{len(self.text)}/{self.max_length}"
        draw_text(surface, theme, count, (field.right - pad, field.centery), round(14 * unit),
                  th.TEXT_MUTED, anchor="midright")
