"""Settings: the language (fr/en) and sound on/off. Each change applies at once and is
written into the config file when it can be (comments kept); otherwise it is kept until
the next restart and the player is told why."""

from __future__ import annotations

import pygame

from ...config import LANGUAGES
from .. import theme as th
from ..i18n import TABLES
from ..widgets import Button, draw_text, panel
from .base import PageScene, Scene


class SettingsScene(PageScene):
    name = "settings"
    title_key = "settings.title"

    def layout_state(self) -> object:
        return (self.ctx.config.sound.enabled,)

    def _rows(self) -> tuple[pygame.Rect, pygame.Rect]:
        c = self.content_rect()
        h = self.u(110)
        return (pygame.Rect(c.x, c.y, c.width, h),
                pygame.Rect(c.x, c.y + h + self.u(16), c.width, h))

    def build(self, size: tuple[int, int]) -> None:
        super().build(size)
        lang_row, sound_row = self._rows()
        bw, bh = self.u(170), self.u(64)
        for i, code in enumerate(reversed(LANGUAGES)):
            rect = pygame.Rect(0, 0, bw, bh)
            rect.midright = (lang_row.right - self.u(20) - i * (bw + self.u(12)), lang_row.centery)
            self.buttons.add(Button(f"lang:{code}", rect, TABLES[code]["settings.language_value"],
                                    th.ACCENT if code == self.tr.language else th.PANEL_LIGHT,
                                    selected=code == self.tr.language, size=self.u(22)))
        enabled = self.ctx.config.sound.enabled
        for i, (value, key) in enumerate(((False, "common.off"), (True, "common.on"))):
            rect = pygame.Rect(0, 0, bw, bh)
            rect.midright = (sound_row.right - self.u(20) - i * (bw + self.u(12)),
                             sound_row.centery)
            self.buttons.add(Button(f"sound:{int(value)}", rect, self.tr(key),
                                    th.ACCENT if value == enabled else th.PANEL_LIGHT,
                                    selected=value == enabled, size=self.u(22)))

    def on_button(self, button: Button) -> Scene | None:
        key = button.key
        if key.startswith("lang:"):
            code = key.split(":", 1)[1]
            if code != self.tr.language:
                self.tr.language = code
                _, message = self.ctx.save_setting("ui", "language", code)
                self.ctx.notify(message)
            return None
        if key.startswith("sound:"):
            enabled = key.endswith("1")
            if enabled != self.ctx.config.sound.enabled:
                self.ctx.hardware.set_muted(not enabled)
                _, message = self.ctx.save_setting("sound", "enabled", enabled)
                self.ctx.notify(message)
                if enabled:
                    self.ctx.hardware.beep("roll_accepted")
            return None
        return super().on_button(button)

    def draw_content(self, surface: pygame.Surface) -> None:
        theme = self.ctx.theme
        for row, key in zip(self._rows(), ("settings.language", "settings.sound"), strict=True):
            panel(surface, row, th.PANEL, radius=self.u(18), shadow=self.u(3))
            draw_text(surface, theme, self.tr(key), (row.x + self.u(24), row.centery),
                      self.u(26), th.TEXT, bold=True, anchor="midleft",
                      max_width=row.width - self.u(420))
