"""Camera & buttons check: a big live camera picture, the four box buttons lighting up
with their press counts, what each device is, a buzzer test and (simulated camera) a roll."""

from __future__ import annotations

import pygame

from .. import theme as th
from ..widgets import BUTTON_ORDER, Button, draw_block, draw_indicator, draw_text, grid, panel
from .base import PageScene, Scene

BEEP_PATTERNS = ("roll_accepted", "goal_reached", "winner", "error", "detector")


class DevicesScene(PageScene):
    name = "devices"
    title_key = "devices.title"

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self._beeps = 0

    def _areas(self) -> tuple[pygame.Rect, pygame.Rect]:
        c = self.content_rect()
        cam_w = round(c.width * 0.56)
        return (pygame.Rect(c.x, c.y, cam_w, c.height),
                pygame.Rect(c.x + cam_w + self.u(16), c.y, c.width - cam_w - self.u(16),
                            c.height))

    def build(self, size: tuple[int, int]) -> None:
        super().build(size)
        _, side = self._areas()
        bh = self.u(60)
        keys = ["beep"] + (["roll"] if self.ctx.hardware.can_roll else [])
        bw = (side.width - self.u(12) * (len(keys) - 1)) // len(keys)
        for i, key in enumerate(keys):
            rect = pygame.Rect(side.x + i * (bw + self.u(12)), side.bottom - bh, bw, bh)
            self.buttons.add(Button(key, rect, self.tr(f"devices.{key}"),
                                    th.ACCENT if key == "roll" else th.PANEL_LIGHT,
                                    size=self.u(19)))

    def on_button(self, button: Button) -> Scene | None:
        if button.key == "beep":
            self.ctx.hardware.beep(BEEP_PATTERNS[self._beeps % len(BEEP_PATTERNS)])
            self._beeps += 1
            return None
        if button.key == "roll":
            if self.ctx.hardware.roll():
                self.ctx.hardware.beep("roll_accepted")
            return None
        return super().on_button(button)

    def draw_content(self, surface: pygame.Surface) -> None:
        theme, tr, hw, status = self.ctx.theme, self.tr, self.ctx.hardware, self.ctx.status
        now = self.ctx.now()
        cam, side = self._areas()

        # the camera
        pygame.draw.rect(surface, th.SHADOW, cam, border_radius=self.u(16))
        image = self.ctx.camera.fitted(cam.inflate(-self.u(12), -self.u(12)).size)
        if image is not None:
            surface.blit(image, image.get_rect(center=cam.center))
        else:
            draw_text(surface, theme, tr("devices.no_frame"), cam.center, self.u(20),
                      th.TEXT_MUTED, anchor="center", max_width=cam.width - self.u(20))
        if status.camera_problem:
            pygame.draw.rect(surface, th.DANGER, cam, width=self.u(4), border_radius=self.u(16))
            box = pygame.Rect(cam.x + self.u(12), cam.bottom - self.u(96), cam.width - self.u(24),
                              self.u(84))
            panel(surface, box, th.mix(th.TOAST, th.DANGER, 0.3), radius=self.u(10), shadow=0)
            draw_block(surface, theme, tr("strip.camera_problem", message=status.camera_problem),
                       box.inflate(-self.u(16), -self.u(10)), self.u(16), th.TEXT)

        # the buttons
        beep = self.buttons.get("beep")
        bottom = beep.rect.top if beep else side.bottom
        info_h = self.u(92)
        lights_area = pygame.Rect(side.x, side.y, side.width,
                                  bottom - side.y - info_h - self.u(10))
        panel(surface, lights_area, th.PANEL, radius=self.u(16), shadow=0)
        draw_text(surface, theme, tr("devices.press_hint"),
                  (lights_area.centerx, lights_area.y + self.u(8)), self.u(15), th.TEXT_MUTED,
                  anchor="midtop", max_width=lights_area.width - self.u(16))
        cells = grid(pygame.Rect(lights_area.x + self.u(8), lights_area.y + self.u(32),
                                 lights_area.width - self.u(16),
                                 lights_area.height - self.u(40)), 2, 2, self.u(8))
        for name, cell in zip(BUTTON_ORDER, cells, strict=True):
            draw_indicator(surface, self.ctx, name, cell.inflate(-self.u(6), -self.u(12)),
                           status.is_lit(name, now), self.u(14),
                           count=status.presses.get(name, 0))

        # what each device is
        y = lights_area.bottom + self.u(8)
        kind = tr("kind.simulated") if hw.buttons_kind == "simulated" else tr("kind.real")
        lines = [
            tr("devices.buttons", kind=kind),
            tr("devices.buzzer", kind=tr(f"kind.{hw.buzzer_kind}")),
            tr("devices.camera", name=hw.camera_name),
        ]
        if status.frame_size:
            w, h = status.frame_size
            lines.append(tr("devices.frames", count=status.frames, width=w, height=h))
        line_h = info_h // 4
        for line in lines:
            draw_text(surface, theme, line, (side.x + self.u(4), y), self.u(15), th.TEXT,
                      max_width=side.width - self.u(8))
            y += line_h
