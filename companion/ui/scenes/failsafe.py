"""The failsafe scene: shown when another scene raised. A calm message, never a traceback
(that goes to the log), and one big button: Continue from the journal."""

from __future__ import annotations

import logging

import pygame

from .. import theme as th
from ..widgets import Button, draw_background, draw_block, draw_text, panel
from .base import Scene

log = logging.getLogger(__name__)


class FailsafeScene(Scene):
    name = "failsafe"

    def __init__(self, ctx, where: str = "") -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self.where = where  # e.g. "home.draw": which scene and step failed

    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        card = self._card(size)
        button = pygame.Rect(0, 0, min(card.width - self.u(60), self.u(440)), self.u(72))
        button.midbottom = (card.centerx, card.bottom - self.u(28))
        self.buttons.add(Button("continue", button, self.tr("failsafe.continue"), th.ACCENT,
                                size=self.u(26)))

    def _card(self, size: tuple[int, int]) -> pygame.Rect:
        w, h = size
        card = pygame.Rect(0, 0, min(w - self.u(40), self.u(680)), min(h - self.u(40), self.u(400)))
        card.center = (w // 2, h // 2)
        return card

    def on_button(self, button: Button) -> Scene | None:
        if button.key == "continue":
            return self.recover()
        return None

    def on_back(self) -> Scene | None:
        return self.recover()

    def recover(self) -> Scene:
        """Rebuild the referee from the journal and go back into the unfinished game (at its
        last written move) when its screen exists; otherwise home."""
        from . import GAME_SCENES
        from .home import HomeScene

        self.ctx.reload_referee()
        game = self.ctx.referee.view().get("game")
        factory = GAME_SCENES.get(game) if isinstance(game, str) else None
        if factory is not None:
            try:
                return factory(self.ctx)
            except Exception:
                log.exception("the %s screen failed again while recovering", game)
        return HomeScene(self.ctx)

    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        theme = self.ctx.theme
        card = self._card(surface.get_size())
        panel(surface, card, th.PANEL, radius=self.u(24), shadow=self.u(6), border=th.ACCENT)
        draw_text(surface, theme, self.tr("failsafe.title"),
                  (card.centerx, card.y + self.u(28)), self.u(32), th.ACCENT, bold=True,
                  anchor="midtop", max_width=card.width - self.u(40))
        button = self.buttons.get("continue")
        body_bottom = (button.rect.top if button else card.bottom) - self.u(40)
        body = pygame.Rect(card.x + self.u(36), card.y + self.u(84), card.width - self.u(72),
                           body_bottom - card.y - self.u(84))
        draw_block(surface, theme, self.tr("failsafe.body"), body, self.u(22), th.TEXT)
        if self.where:
            draw_text(surface, theme, self.tr("failsafe.detail", where=self.where),
                      (card.centerx, body.bottom + self.u(8)), self.u(14), th.TEXT_MUTED,
                      anchor="midtop", max_width=card.width - self.u(40))
        self.buttons.draw(surface, theme, self.ctx.now())


def emergency_draw(surface: pygame.Surface, message: str = "Table Companion") -> None:
    """Last resort when even the failsafe scene cannot draw: pygame's own font, no assets."""
    surface.fill(th.BACKGROUND)
    try:
        if not pygame.font.get_init():
            pygame.font.init()
        font = pygame.font.Font(None, max(24, surface.get_height() // 12))
        img = font.render(message, True, th.TEXT)
        surface.blit(img, img.get_rect(center=surface.get_rect().center))
    except Exception:  # nothing more can be done on screen; the log has the details
        log.exception("emergency screen failed")
