"""The scene protocol: small objects that handle intents, update, and draw.

The loop calls, every frame: ``handle(intent)`` for each intent (a returned scene replaces
this one), ``update(dt)``, ``ensure_layout(size)`` then ``draw(surface)``. Layout (the
button rectangles) is rebuilt whenever the screen size, the language or the scene's own
``layout_state()`` changes, so hit testing always matches what is drawn.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

import pygame

from .. import theme as th
from ..intents import Back, Tap, UIIntent
from ..widgets import Button, ButtonSet, draw_background, draw_text

if TYPE_CHECKING:
    from ..context import AppContext


class Scene:
    #: short name used in screenshots (``001-home.png``) and logs
    name = "scene"

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self.tr = ctx.tr
        self.buttons = ButtonSet()
        self.size: tuple[int, int] = (0, 0)
        self.unit = 1.0
        self._layout_key: Hashable = None

    # -- life cycle ----------------------------------------------------------------------
    def enter(self) -> None:
        """Called once when the scene becomes current (read the journal here)."""

    def leave(self) -> None:
        """Called once when another scene replaces this one."""

    def layout_state(self) -> Hashable:
        """Anything besides size and language whose change needs new button rectangles."""
        return None

    def ensure_layout(self, size: tuple[int, int]) -> None:
        key = (size, self.tr.language, self.layout_state())
        if key != self._layout_key:
            self.size = size
            self.unit = self.ctx.theme.unit(size)
            self.buttons.clear()
            self.build(size)
            self._layout_key = key

    def build(self, size: tuple[int, int]) -> None:
        """Create ``self.buttons`` for this size (labels in the current language)."""

    def u(self, value: float) -> int:
        """A measure at the 800x480 reference, scaled to this screen."""
        return round(value * self.unit)

    # -- input ---------------------------------------------------------------------------
    def handle(self, intent: UIIntent) -> Scene | None:
        if isinstance(intent, Tap):
            button = self.buttons.hit(intent.pos, self.ctx.now())
            if button is not None:
                return self.on_button(button)
            return None
        if isinstance(intent, Back):
            return self.on_back()
        return None

    def on_button(self, button: Button) -> Scene | None:
        return None

    def on_back(self) -> Scene | None:
        return None

    # -- time and drawing ----------------------------------------------------------------
    def update(self, dt: float) -> Scene | None:
        return None

    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        self.buttons.draw(surface, self.ctx.theme, self.ctx.now())

    def screen_key(self) -> Hashable:
        """Changes when the screen shows something new (the loop saves a screenshot)."""
        return (self.name, self.tr.language, self.layout_state())


class PageScene(Scene):
    """A screen with a title bar and a Back button leading home."""

    title_key = "app.title"

    def home(self) -> Scene:
        from .home import HomeScene

        return HomeScene(self.ctx)

    def on_back(self) -> Scene | None:
        return self.home()

    def header_height(self) -> int:
        return self.u(76)

    def content_rect(self) -> pygame.Rect:
        w, h = self.size
        m = self.u(16)
        top = self.header_height()
        return pygame.Rect(m, top, w - 2 * m, h - top - m)

    def build(self, size: tuple[int, int]) -> None:
        m = self.u(14)
        back = pygame.Rect(m, m, self.u(150), self.header_height() - 2 * m)
        self.buttons.add(Button("back", back, "‹ " + self.tr("common.back"), th.PANEL_LIGHT,
                                size=self.u(22)))

    def on_button(self, button: Button) -> Scene | None:
        if button.key == "back":
            return self.home()
        return None

    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        back = self.buttons.get("back")
        x = (back.rect.right if back else 0) + self.u(20)
        draw_text(surface, self.ctx.theme, self.tr(self.title_key),
                  (x, self.header_height() // 2), self.u(30), th.TEXT, bold=True,
                  anchor="midleft", max_width=self.size[0] - x - self.u(16))
        self.draw_content(surface)
        self.buttons.draw(surface, self.ctx.theme, self.ctx.now())

    def draw_content(self, surface: pygame.Surface) -> None:
        """The page's own drawing, under its buttons."""
