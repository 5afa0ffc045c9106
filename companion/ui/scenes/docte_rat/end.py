"""The end of a game of Le Docte Rat: the winner, the final Bulletins, back home.

The referee already wrote the finished game to the journal (the history screen lists it);
this screen only reads the referee's view. A mistaken last answer can still be undone: the
play screen comes back.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

import pygame

from ....devices.events import ButtonName
from ....session.referee import Accepted, Intent
from ... import theme as th
from ...intents import Back, Press, UIIntent
from ...widgets import Button, draw_background, draw_text, grid, panel
from ..base import Scene
from .play_bulletin import draw_bulletin, seat_colour, visible

if TYPE_CHECKING:
    from ...context import AppContext

TRACK_ORDER = {"school": 0, "college": 1, "university": 2}


def ranking(seats: list[dict[str, Any]], winner: int | None) -> list[int]:
    """Seats from the winner down: furthest track first, then the highest Bulletin."""
    order = sorted(range(len(seats)), key=lambda i: (
        i != winner, -TRACK_ORDER.get(str(seats[i]["track"]), 0), -int(seats[i]["bulletin"])))
    return order


class EndScene(Scene):
    name = "docte-rat-end"

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        self.info = ctx.referee.view()
        self.started = ctx.now()
        self.number_rects: dict[int, pygame.Rect] = {}

    @property
    def seats(self) -> list[dict[str, Any]]:
        return list((self.info.get("view") or {}).get("seats", []))

    @property
    def winner(self) -> int | None:
        w = (self.info.get("view") or {}).get("winner")
        return w if isinstance(w, int) else None

    def winner_text(self) -> str:
        w = self.winner
        if w is None or w >= len(self.seats):
            return self.tr("dr.end.title")
        return self.tr("dr.end.winner", name=self.seats[w]["name"])

    def layout_state(self) -> Hashable:
        return self.info.get("state_id")

    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        m = self.u(16)
        bh = self.u(60)
        home = pygame.Rect(w - m - self.u(300), h - m - bh, self.u(300), bh)
        undo = pygame.Rect(m, h - m - bh, self.u(280), bh)
        self.buttons.add(Button("home", home, self.tr("dr.end.home"), th.ACCENT,
                                size=self.u(22)))
        self.buttons.add(Button("undo", undo, self.tr("dr.end.undo"), th.PANEL_LIGHT,
                                enabled=bool(self.info.get("can_undo")), size=self.u(18)))

    def handle(self, intent: UIIntent) -> Scene | None:
        if isinstance(intent, Press) and intent.button is ButtonName.UNDO:
            return self._undo()
        if isinstance(intent, Back):
            return self._home()
        return super().handle(intent)

    def on_button(self, button: Button) -> Scene | None:
        if button.key == "home":
            return self._home()
        if button.key == "undo":
            return self._undo()
        return None

    def _home(self) -> Scene:
        from ..home import HomeScene

        self.ctx.referee.close_session()
        return HomeScene(self.ctx)

    def _undo(self) -> Scene | None:
        verdict = self.ctx.referee.submit(Intent("undo", state_id=self.info.get("state_id")))
        if isinstance(verdict, Accepted):
            from .play import PlayScene

            self.ctx.notify(self.tr("dr.undone"))
            return PlayScene(self.ctx)
        self.ctx.notify(self.tr("dr.rejected.nothing_to_undo"), error=True)
        return None

    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        theme, now = self.ctx.theme, self.ctx.now()
        w, h = surface.get_size()
        seats = self.seats
        winner = self.winner
        colour = seat_colour(seats[winner], winner) if winner is not None and winner < len(
            seats) else th.ACCENT
        self._confetti(surface, now - self.started)
        m = self.u(16)
        head = pygame.Rect(m, m, w - 2 * m, self.u(132))
        panel(surface, head, th.mix(th.PANEL, visible(colour), 0.3), self.u(20), shadow=self.u(4),
              border=th.ACCENT)
        draw_text(surface, theme, self.tr("dr.end.title"), (head.centerx, head.y + self.u(10)),
                  self.u(26), th.ACCENT, bold=True, anchor="midtop", max_width=head.width - m)
        draw_text(surface, theme, self.winner_text(), (head.centerx, head.y + self.u(40)),
                  self.u(44), th.TEXT, bold=True, anchor="midtop",
                  max_width=head.width - 2 * m)
        draw_text(surface, theme, self.tr("dr.end.saved"), (head.centerx, head.bottom - self.u(8)),
                  self.u(15), th.TEXT_MUTED, anchor="midbottom", max_width=head.width - 2 * m)
        area = pygame.Rect(m, head.bottom + m, w - 2 * m,
                           h - head.bottom - 2 * m - self.u(60) - m)
        order = ranking(seats, winner)
        cols = min(3, max(1, len(order)))
        rows = -(-len(order) // cols)
        self.number_rects = {}
        for rank, (i, rect) in enumerate(zip(order, grid(area, cols, rows, self.u(10)),
                                             strict=False), start=1):
            card = rect.inflate(-self.u(2), 0)
            self.number_rects[i] = draw_bulletin(
                surface, theme, self.tr, card, seats[i], seat_colour(seats[i], i),
                int(seats[i]["bulletin"]), unit=self.unit, playing=i == winner,
                badge=self.tr("dr.end.rank", rank=rank))
        self.buttons.draw(surface, theme, now)

    def _confetti(self, surface: pygame.Surface, t: float) -> None:
        """A few falling paper squares in the pawns' colours (cheap: 40 rects)."""
        w, h = surface.get_size()
        seats = self.seats
        colours = [seat_colour(s, i) for i, s in enumerate(seats)] or [th.ACCENT]
        size = self.u(8)
        for k in range(40):
            speed = 40 + (k * 37) % 60
            x = (k * 97 + round(30 * ((k % 5) - 2) * (t % 3) / 3)) % w
            y = round((k * 53 + t * speed * self.unit) % (h + size)) - size
            pygame.draw.rect(surface, colours[k % len(colours)],
                             pygame.Rect(x, y, size, size + (k % 3) * self.u(3)))

    def screen_key(self) -> Hashable:
        return (self.name, self.tr.language, self.info.get("state_id"))
