"""The home screen: the four games, Resume / History / Settings / Camera & buttons, and the
device strip (the box's buttons lighting up, the camera's live thumbnail)."""

from __future__ import annotations

from collections.abc import Hashable
from datetime import datetime

import pygame

from ...core.errors import JournalError
from ...session.journal import SessionInfo
from .. import theme as th
from ..widgets import (
    Button,
    draw_background,
    draw_badge,
    draw_block,
    draw_device_strip,
    draw_text,
    grid,
    panel,
    stack,
    strip_layout,
)
from . import GAME_SCENES
from .base import Scene


def format_date(iso: str, language: str) -> str:
    """A journal timestamp (ISO, UTC) in local time, the way each language writes it."""
    try:
        when = datetime.fromisoformat(iso).astimezone()
    except (TypeError, ValueError):
        return str(iso)
    return when.strftime("%d/%m/%Y %H:%M" if language == "fr" else "%Y-%m-%d %H:%M")


class HomeScene(Scene):
    name = "home"

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self.unfinished: SessionInfo | None = None

    def enter(self) -> None:
        try:
            self.unfinished = self.ctx.journal.last_unfinished()
        except JournalError as exc:
            self.unfinished = None
            self.ctx.notify(self.tr("home.journal_problem", message=str(exc)), error=True)

    def layout_state(self) -> Hashable:
        return self.unfinished.id if self.unfinished else None

    # -- layout ----------------------------------------------------------------------------
    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        m = self.u(16)
        header = self.u(80)
        strip = pygame.Rect(m, h - m - self.u(96), w - 2 * m, self.u(96))
        self.strip = strip_layout(strip, self.unit)
        content = pygame.Rect(m, header, w - 2 * m, strip.top - self.u(14) - header)
        side_w = max(self.u(230), round(w * 0.3))
        side = pygame.Rect(content.right - side_w, content.y, side_w, content.height)
        games = pygame.Rect(content.x, content.y, content.width - side_w - self.u(16),
                            content.height)

        catalogue = self.ctx.catalogue()[:4]
        for info, rect in zip(catalogue, grid(games, 2, 2, self.u(14)), strict=False):
            # playable = its rules engine is registered AND its screen exists
            playable = info.available and info.id in GAME_SCENES
            self.buttons.add(Button(
                f"game:{info.id}", rect, info.title,
                th.GAME_COLOURS.get(info.id, th.GAME_DEFAULT), enabled=playable,
                size=self.u(25), badge=None if playable else self.tr("home.soon"),
            ))

        side_keys = ["history", "settings", "devices"]
        if self.unfinished is not None:
            side_keys.insert(0, "resume")
        for key, rect in zip(side_keys, stack(side, len(side_keys), self.u(10)), strict=True):
            if key == "resume":
                session = self.unfinished
                assert session is not None
                self.buttons.add(Button(
                    "resume", rect, "▶ " + self.tr("home.resume"), th.ACCENT,
                    sublabel=self.tr("home.resume_detail", game=self.ctx.game_title(session.game),
                                     date=format_date(session.created_at, self.tr.language)),
                    size=self.u(24),
                ))
            else:
                self.buttons.add(Button(key, rect, self.tr(f"home.{key}"), th.PANEL_LIGHT,
                                        size=self.u(22)))

    # -- input -----------------------------------------------------------------------------
    def on_button(self, button: Button) -> Scene | None:
        key = button.key
        if key.startswith("game:"):
            game_id = key.split(":", 1)[1]
            title = self.ctx.game_title(game_id)
            if not button.enabled:
                self.ctx.notify(self.tr("home.game_soon", game=title))
                return None
            factory = GAME_SCENES.get(game_id)
            if factory is None:
                self.ctx.notify(self.tr("home.game_no_scene", game=title))
                return None
            return factory(self.ctx)
        if key == "resume" and self.unfinished is not None:
            from .resume import ResumeScene

            return ResumeScene(self.ctx, self.unfinished)
        if key == "history":
            from .history import HistoryScene

            return HistoryScene(self.ctx)
        if key == "settings":
            from .settings import SettingsScene

            return SettingsScene(self.ctx)
        if key == "devices":
            from .devices import DevicesScene

            return DevicesScene(self.ctx)
        return None

    # -- drawing ---------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        theme, tr = self.ctx.theme, self.tr
        draw_background(surface)
        w, _ = surface.get_size()
        m = self.u(16)
        title = draw_text(surface, theme, tr("app.title"), (m + self.u(4), self.u(12)),
                          self.u(36), th.ACCENT, bold=True)
        draw_text(surface, theme, tr("app.subtitle"), (title.x, title.bottom + self.u(2)),
                  self.u(16), th.TEXT_MUTED, max_width=w // 2)
        if self.ctx.demo:
            draw_text(surface, theme, tr("demo.keys"), (w - m, title.centery), self.u(14),
                      th.TEXT_MUTED, anchor="midright", max_width=w - title.right - 3 * m)

        now = self.ctx.now()
        for number, button in enumerate(self.buttons, start=1):
            if button.key.startswith("game:"):
                self._draw_card(surface, button, number, now)
        for button in self.buttons:
            if not button.key.startswith("game:"):
                button.draw(surface, theme, self._flashing(button, now))
        draw_device_strip(surface, self.ctx, self.strip)

    def _flashing(self, button: Button, now: float) -> bool:
        return self.buttons.is_flashing(button.key, now)

    def _draw_card(self, surface: pygame.Surface, b: Button, number: int, now: float) -> None:
        theme = self.ctx.theme
        colour = b.colour if b.enabled else th.mix(b.colour, th.PANEL, 0.55)
        if self._flashing(b, now):
            colour = th.mix(colour, (255, 255, 255), 0.3)
        radius = self.u(20)
        panel(surface, b.rect, colour, radius, shadow=self.u(5))
        # a die face in the corner: the table's own vocabulary
        d = min(self.u(38), b.rect.height // 3)
        die = pygame.Rect(0, 0, d, d)
        die.topright = (b.rect.right - self.u(14), b.rect.y + self.u(14))
        pip_colour = th.mix(colour, (255, 255, 255), 0.6)
        pygame.draw.rect(surface, th.mix(colour, th.SHADOW, 0.25), die, border_radius=d // 5)
        for px, py in _PIPS[min(number, 6)]:
            pygame.draw.circle(surface, pip_colour,
                               (die.x + round(px * d), die.y + round(py * d)), max(2, d // 10))
        ink = th.readable_on(colour) if b.enabled else th.TEXT
        text_box = pygame.Rect(b.rect.x + self.u(18), b.rect.y + self.u(12),
                               die.x - self.u(10) - b.rect.x - self.u(18),
                               b.rect.height - self.u(12) - self.u(40))
        draw_block(surface, theme, b.label, text_box, b.size, ink, bold=True, align="left",
                   valign="center")
        if b.badge:
            draw_badge(surface, theme, b.badge, b.rect, self.u(15))


_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.28, 0.28), (0.72, 0.72)],
    3: [(0.26, 0.26), (0.5, 0.5), (0.74, 0.74)],
    4: [(0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)],
    5: [(0.26, 0.26), (0.74, 0.26), (0.5, 0.5), (0.26, 0.74), (0.74, 0.74)],
    6: [(0.28, 0.24), (0.72, 0.24), (0.28, 0.5), (0.72, 0.5), (0.28, 0.76), (0.72, 0.76)],
}
