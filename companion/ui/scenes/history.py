"""History: finished and abandoned sessions from the journal, newest first, page by page."""

from __future__ import annotations

from collections.abc import Hashable

import pygame

from ...core.errors import JournalError
from ...session.journal import SessionInfo
from .. import theme as th
from ..widgets import Button, draw_block, draw_text, panel
from .base import PageScene, Scene
from .home import format_date


class HistoryScene(PageScene):
    name = "history"
    title_key = "history.title"

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self.sessions: list[SessionInfo] = []
        self.page = 0
        self.problem: str | None = None

    def enter(self) -> None:
        try:
            self.sessions = [
                s for s in self.ctx.journal.sessions() if s.status in ("finished", "abandoned")
            ]
        except JournalError as exc:
            self.problem = self.tr("home.journal_problem", message=str(exc))

    # -- paging ----------------------------------------------------------------------------
    def row_height(self) -> int:
        return self.u(64)

    def per_page(self) -> int:
        c = self.content_rect()
        usable = c.height - self.u(72)  # the pager row
        return max(1, (usable + self.u(8)) // (self.row_height() + self.u(8)))

    def pages(self) -> int:
        return max(1, -(-len(self.sessions) // self.per_page()))

    def layout_state(self) -> Hashable:
        return (self.page, len(self.sessions))

    def build(self, size: tuple[int, int]) -> None:
        super().build(size)
        self.page = min(self.page, self.pages() - 1)
        if self.pages() > 1:
            c = self.content_rect()
            bw, bh = self.u(190), self.u(60)
            prev = pygame.Rect(c.x, c.bottom - bh, bw, bh)
            nxt = pygame.Rect(c.right - bw, c.bottom - bh, bw, bh)
            self.buttons.add(Button("previous", prev, "‹ " + self.tr("common.previous"),
                                    th.PANEL_LIGHT, enabled=self.page > 0, size=self.u(20)))
            self.buttons.add(Button("next", nxt, self.tr("common.next") + " ›", th.PANEL_LIGHT,
                                    enabled=self.page < self.pages() - 1, size=self.u(20)))

    def on_button(self, button: Button) -> Scene | None:
        if button.key == "previous" and self.page > 0:
            self.page -= 1
            return None
        if button.key == "next" and self.page < self.pages() - 1:
            self.page += 1
            return None
        return super().on_button(button)

    # -- drawing ---------------------------------------------------------------------------
    def draw_content(self, surface: pygame.Surface) -> None:
        theme = self.ctx.theme
        c = self.content_rect()
        if self.problem or not self.sessions:
            draw_block(surface, theme, self.problem or self.tr("history.empty"),
                       c.inflate(0, -self.u(80)), self.u(24),
                       th.DANGER if self.problem else th.TEXT_MUTED)
            return
        n = self.per_page()
        shown = self.sessions[self.page * n:(self.page + 1) * n]
        y = c.y
        for info in shown:
            row = pygame.Rect(c.x, y, c.width, self.row_height())
            self._draw_row(surface, info, row)
            y += self.row_height() + self.u(8)
        if self.pages() > 1:
            draw_text(surface, theme,
                      self.tr("common.page", page=self.page + 1, pages=self.pages()),
                      (c.centerx, c.bottom - self.u(30)), self.u(18), th.TEXT_MUTED,
                      anchor="center")

    def _draw_row(self, surface: pygame.Surface, info: SessionInfo, row: pygame.Rect) -> None:
        theme = self.ctx.theme
        colour = th.GAME_COLOURS.get(info.game, th.GAME_DEFAULT)
        panel(surface, row, th.PANEL, radius=self.u(12), shadow=self.u(3))
        band = pygame.Rect(row.x, row.y, self.u(10), row.height)
        pygame.draw.rect(surface, colour, band, border_top_left_radius=self.u(12),
                         border_bottom_left_radius=self.u(12))
        pad = self.u(18)
        date_w = self.u(200)
        draw_text(surface, theme, format_date(info.created_at, self.tr.language),
                  (row.x + pad, row.centery), self.u(18), th.TEXT_MUTED, anchor="midleft",
                  max_width=date_w - pad)
        status = self.tr(f"history.{info.status}")
        status_img = draw_text(surface, theme, status, (row.right - pad, row.centery),
                               self.u(16), th.OK if info.status == "finished" else th.TEXT_MUTED,
                               bold=True, anchor="midright")
        x = row.x + date_w
        width = status_img.x - pad - x
        draw_text(surface, theme, self.ctx.game_title(info.game), (x, row.y + self.u(8)),
                  self.u(20), th.TEXT, bold=True, max_width=width)
        players = ", ".join(info.player_names) or self.tr("history.no_players")
        winners = winner_names(info)
        line = (self.tr("history.players_won", players=players, winners=", ".join(winners))
                if winners else self.tr("history.players", players=players))
        draw_text(surface, theme, line,
                  (x, row.y + self.u(36)), self.u(16), th.TEXT_MUTED, max_width=width)


def winner_names(info: SessionInfo) -> list[str]:
    """Who won a finished game, by name (the journal keeps the winning seats)."""
    if info.status != "finished" or not isinstance(info.outcome, dict):
        return []
    names = info.player_names
    seats = info.outcome.get("winners") or ()
    return [names[i] for i in seats if isinstance(i, int) and 0 <= i < len(names)]
