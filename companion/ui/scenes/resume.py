"""Resume the last unfinished session through the referee (state = fold of the journal).

If the game's screen exists, it opens. Otherwise (no engine or no scene yet, or a journal
problem) the player reads a clear message and may abandon the session; it never crashes.
"""

from __future__ import annotations

from collections.abc import Hashable

import pygame

from ...core.errors import JournalError
from ...session.journal import SessionInfo
from ...session.referee import Accepted, RejectCode
from .. import theme as th
from ..widgets import Button, draw_block, draw_text, panel
from . import GAME_SCENES
from .base import PageScene, Scene
from .home import format_date


class ResumeScene(PageScene):
    name = "resume"
    title_key = "resume.title"

    def __init__(self, ctx, info: SessionInfo) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self.info = info
        self.message = ""
        self.can_abandon = False
        self.next_scene: Scene | None = None

    def enter(self) -> None:
        info = self.info
        title = self.ctx.game_title(info.game)
        verdict = self.ctx.referee.resume(info.id)
        if isinstance(verdict, Accepted):
            factory = GAME_SCENES.get(info.game)
            if factory is not None:
                self.next_scene = factory(self.ctx)
                return
            self.message = (self.tr("resume.ok", game=title, state=verdict.state_id) + " "
                            + self.tr("resume.no_scene", game=title))
            self.ctx.referee.close_session()
        elif verdict.code is RejectCode.UNKNOWN_GAME:
            self.message = self.tr("resume.unknown_game", game=info.game)
            self.can_abandon = True
        else:
            self.message = self.tr("resume.problem", message=verdict.message)
            self.can_abandon = True

    def layout_state(self) -> Hashable:
        return self.can_abandon

    def update(self, dt: float) -> Scene | None:
        return self.next_scene

    def build(self, size: tuple[int, int]) -> None:
        super().build(size)
        if self.can_abandon:
            c = self.content_rect()
            rect = pygame.Rect(0, 0, min(c.width, self.u(420)), self.u(64))
            rect.midbottom = (c.centerx, c.bottom)
            self.buttons.add(Button("abandon", rect, self.tr("resume.abandon"), th.DANGER,
                                    size=self.u(22)))

    def on_button(self, button: Button) -> Scene | None:
        if button.key == "abandon":
            try:
                self.ctx.journal.abandon(self.info.id)
            except JournalError as exc:
                self.ctx.notify(str(exc), error=True)
                return None
            self.ctx.notify(self.tr("resume.abandoned"))
            return self.home()
        return super().on_button(button)

    def draw_content(self, surface: pygame.Surface) -> None:
        theme = self.ctx.theme
        c = self.content_rect()
        abandon = self.buttons.get("abandon")
        bottom = abandon.rect.top - self.u(16) if abandon else c.bottom
        card = pygame.Rect(c.x, c.y, c.width, bottom - c.y)
        panel(surface, card, th.PANEL, radius=self.u(20), shadow=self.u(4))
        inner = card.inflate(-self.u(48), -self.u(36))
        info = self.info
        draw_text(surface, theme, self.ctx.game_title(info.game), inner.topleft, self.u(28),
                  th.GAME_COLOURS.get(info.game, th.ACCENT), bold=True, max_width=inner.width)
        players = ", ".join(info.player_names) or self.tr("history.no_players")
        draw_text(surface, theme, f"{format_date(info.created_at, self.tr.language)} · {players}",
                  (inner.x, inner.y + self.u(40)), self.u(18), th.TEXT_MUTED,
                  max_width=inner.width)
        body = pygame.Rect(inner.x, inner.y + self.u(76), inner.width, inner.height - self.u(76))
        draw_block(surface, theme, self.message, body, self.u(22), th.TEXT, align="left",
                   valign="top")
