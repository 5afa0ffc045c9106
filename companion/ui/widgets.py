"""Drawing helpers shared by the scenes: text that fits, buttons, indicators, the device
strip, toasts and the camera frame conversion. Every visible string arrives already
translated (scenes call ``ctx.tr``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

from ..devices.events import ButtonName
from . import theme as th
from .theme import Colour, Theme

if TYPE_CHECKING:
    from .context import AppContext

# -- text --------------------------------------------------------------------------------


def fit_text(
    theme: Theme, text: str, size: int, max_width: int | None, bold: bool = False
) -> tuple[str, int]:
    """Shrink (down to 70 %) then shorten with an ellipsis until ``text`` fits."""
    if max_width is None or max_width <= 0:
        return text, size
    floor = max(10, int(size * 0.7))
    s = size
    while s > floor and theme.font(s, bold).size(text)[0] > max_width:
        s -= 1
    font = theme.font(s, bold)
    if font.size(text)[0] <= max_width:
        return text, s
    while len(text) > 1 and font.size(text + "…")[0] > max_width:
        text = text[:-1]
    return text.rstrip() + "…", s


def draw_text(
    surface: pygame.Surface,
    theme: Theme,
    text: str,
    pos: tuple[int, int],
    size: int,
    colour: Colour = th.TEXT,
    *,
    bold: bool = False,
    anchor: str = "topleft",
    max_width: int | None = None,
) -> pygame.Rect:
    text, size = fit_text(theme, text, size, max_width, bold)
    img = theme.render(text, size, colour, bold)
    rect = img.get_rect(**{anchor: pos})
    surface.blit(img, rect)
    return rect


_NBSP = "\u00a0"
#: French typography: these never start or end a line away from their word.
_GLUE = ((" !", _NBSP + "!"), (" ?", _NBSP + "?"), (" :", _NBSP + ":"), (" ;", _NBSP + ";"),
         ("« ", "«" + _NBSP), (" »", _NBSP + "»"))


def wrap(theme: Theme, text: str, size: int, width: int, bold: bool = False) -> list[str]:
    font = theme.font(size, bold)
    lines: list[str] = []
    for loose, kept in _GLUE:
        text = text.replace(loose, kept)
    for paragraph in text.split("\n"):
        words: list[tuple[str, bool]] = []  # (word, glued to the previous one)
        for token in (w for w in paragraph.split(" ") if w):
            if "-" in token.strip("-") and font.size(token)[0] > width:  # Débrouille-|toi
                parts = token.split("-")
                words += [(p + ("-" if i < len(parts) - 1 else ""), i > 0)
                          for i, p in enumerate(parts)]
            else:
                words.append((token, False))
        line = ""
        for word, glued in words:
            candidate = line + word if glued else f"{line} {word}".strip()
            if not line or font.size(candidate)[0] <= width:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def draw_block(
    surface: pygame.Surface,
    theme: Theme,
    text: str,
    rect: pygame.Rect,
    size: int,
    colour: Colour = th.TEXT,
    *,
    bold: bool = False,
    align: str = "center",
    valign: str = "center",
    spacing: float = 1.2,
) -> pygame.Rect:
    """Wrapped text inside ``rect``; the size shrinks until every line fits."""
    s = size
    while True:
        lines = wrap(theme, text, s, rect.width, bold)
        line_h = round(theme.font(s, bold).get_linesize() * spacing / 1.2)
        total = line_h * len(lines)
        if total <= rect.height or s <= 10:
            break
        s -= 1
    if valign == "center":
        y = rect.y + (rect.height - total) // 2
    elif valign == "bottom":
        y = rect.bottom - total
    else:
        y = rect.y
    used = pygame.Rect(rect.x, y, 0, 0)
    for line in lines:
        if align == "center":
            r = draw_text(surface, theme, line, (rect.centerx, y), s, colour, bold=bold,
                          anchor="midtop", max_width=rect.width)
        else:
            r = draw_text(surface, theme, line, (rect.x, y), s, colour, bold=bold,
                          max_width=rect.width)
        used.union_ip(r)
        y += line_h
    return used


# -- surfaces ----------------------------------------------------------------------------

_BACKGROUNDS: dict[tuple[int, int], pygame.Surface] = {}


def draw_background(surface: pygame.Surface) -> None:
    """A soft vertical gradient (rendered once per screen size)."""
    size = surface.get_size()
    bg = _BACKGROUNDS.get(size)
    if bg is None:
        bg = pygame.Surface(size)
        w, h = size
        for y in range(h):
            pygame.draw.line(bg, th.mix(th.BACKGROUND_TOP, th.BACKGROUND, y / max(1, h - 1)),
                             (0, y), (w, y))
        _BACKGROUNDS.clear()
        _BACKGROUNDS[size] = bg
    surface.blit(bg, (0, 0))


def panel(
    surface: pygame.Surface,
    rect: pygame.Rect,
    colour: Colour,
    radius: int = 16,
    shadow: int = 4,
    border: Colour | None = None,
) -> None:
    if shadow:
        pygame.draw.rect(surface, th.SHADOW, rect.move(0, shadow), border_radius=radius)
    pygame.draw.rect(surface, colour, rect, border_radius=radius)
    if border is not None:
        pygame.draw.rect(surface, border, rect, width=max(2, radius // 6), border_radius=radius)


def frame_to_surface(frame: Any) -> pygame.Surface:
    """A camera frame (BGR uint8 array, H x W x 3, or grey H x W) as a pygame Surface."""
    if frame.ndim == 2:  # grey: repeat the channel
        frame = frame[:, :, None].repeat(3, axis=2)
    h, w = frame.shape[:2]
    data = frame[:, :, :3].tobytes()  # tobytes() copies into C order
    return pygame.image.frombuffer(data, (w, h), "BGR").copy()


# -- buttons -----------------------------------------------------------------------------


@dataclass
class Button:
    """A touch target. ``key`` names it for the scene; the label is already translated."""

    key: str
    rect: pygame.Rect
    label: str
    colour: Colour = th.PANEL_LIGHT
    sublabel: str | None = None
    enabled: bool = True
    size: int = 24
    badge: str | None = None
    selected: bool = False

    def hit(self, pos: tuple[int, int]) -> bool:
        return self.rect.collidepoint(pos)

    def draw(self, surface: pygame.Surface, theme: Theme, flash: bool = False) -> None:
        radius = max(10, self.rect.height // 5)
        base = self.colour if self.enabled else th.mix(self.colour, th.PANEL, 0.7)
        if flash:
            base = th.mix(base, (255, 255, 255), 0.35)
        border = th.ACCENT if self.selected else None
        panel(surface, self.rect, base, radius, shadow=max(2, self.rect.height // 16),
              border=border)
        ink = th.readable_on(base) if self.enabled else th.TEXT_MUTED
        pad = max(8, self.rect.height // 6)
        inner = self.rect.inflate(-2 * pad, -pad)
        if self.sublabel:
            top = pygame.Rect(inner.x, inner.y, inner.width, inner.height * 58 // 100)
            bottom = pygame.Rect(inner.x, top.bottom, inner.width, inner.height - top.height)
            draw_block(surface, theme, self.label, top, self.size, ink, bold=True, valign="bottom")
            draw_text(surface, theme, self.sublabel, (bottom.centerx, bottom.y + 2),
                      max(12, self.size * 2 // 3), th.mix(ink, base, 0.25), anchor="midtop",
                      max_width=bottom.width)
        else:
            draw_block(surface, theme, self.label, inner, self.size, ink, bold=True)
        if self.badge:
            draw_badge(surface, theme, self.badge, self.rect, max(12, self.size * 3 // 5))


def draw_badge(
    surface: pygame.Surface, theme: Theme, text: str, rect: pygame.Rect, size: int
) -> None:
    """A small pill in the bottom-right corner of ``rect`` (e.g. "bientôt")."""
    img = theme.render(text, size, th.TEXT_DARK, True)
    pad = size // 2
    pill = pygame.Rect(0, 0, img.get_width() + 2 * pad, img.get_height() + pad // 2)
    pill.bottomright = (rect.right - pad, rect.bottom - pad)
    pygame.draw.rect(surface, th.ACCENT, pill, border_radius=pill.height // 2)
    surface.blit(img, img.get_rect(center=pill.center))


class ButtonSet:
    """The buttons of one scene: hit testing and a short flash where a finger landed."""

    FLASH = 0.15

    def __init__(self) -> None:
        self.buttons: list[Button] = []
        self._flash: tuple[str, float] | None = None

    def clear(self) -> None:
        self.buttons.clear()

    def add(self, button: Button) -> Button:
        self.buttons.append(button)
        return button

    def get(self, key: str) -> Button | None:
        return next((b for b in self.buttons if b.key == key), None)

    def hit(self, pos: tuple[int, int], now: float) -> Button | None:
        for b in reversed(self.buttons):
            if b.hit(pos):
                self._flash = (b.key, now + self.FLASH)
                return b
        return None

    def is_flashing(self, key: str, now: float) -> bool:
        return self._flash is not None and self._flash[0] == key and now < self._flash[1]

    def draw(self, surface: pygame.Surface, theme: Theme, now: float) -> None:
        for b in self.buttons:
            b.draw(surface, theme, self.is_flashing(b.key, now))

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.buttons)


# -- device strip ----------------------------------------------------------------------------

BUTTON_ORDER = (ButtonName.YES, ButtonName.NO, ButtonName.DETECTOR, ButtonName.UNDO)


def button_label(ctx: AppContext, name: ButtonName) -> str:
    return ctx.tr(f"button.{name.value}")


def draw_indicator(
    surface: pygame.Surface,
    ctx: AppContext,
    name: ButtonName,
    rect: pygame.Rect,
    lit: bool,
    label_size: int,
    count: int | None = None,
) -> pygame.Rect:
    """A round light in the button's colour over its label; returns the light's rect."""
    colour = th.BUTTON_COLOURS[name]
    label_h = round(label_size * 1.4)
    d = min(rect.width, rect.height - label_h)
    light = pygame.Rect(0, 0, d, d)
    light.midtop = (rect.centerx, rect.y)
    if lit:
        glow = light.inflate(d // 3, d // 3)
        pygame.draw.ellipse(surface, th.mix(colour, th.BACKGROUND, 0.55), glow)
        pygame.draw.ellipse(surface, colour, light)
        pygame.draw.ellipse(surface, th.mix(colour, (255, 255, 255), 0.55),
                            light.inflate(-d // 2, -d // 2).move(-d // 10, -d // 10))
    else:
        pygame.draw.ellipse(surface, th.dim(colour, 0.75), light)
        pygame.draw.ellipse(surface, th.dim(colour, 0.45), light, width=max(2, d // 14))
    if count is not None:
        draw_text(surface, ctx.theme, str(count), light.center, max(12, d // 3),
                  th.readable_on(colour) if lit else th.TEXT_MUTED, bold=True, anchor="center")
    draw_text(surface, ctx.theme, button_label(ctx, name), (rect.centerx, light.bottom + 4),
              label_size, th.TEXT if lit else th.TEXT_MUTED, bold=True, anchor="midtop",
              max_width=rect.width + 8)
    return light


@dataclass
class StripLayout:
    rect: pygame.Rect
    lights: dict[ButtonName, pygame.Rect]
    thumbnail: pygame.Rect
    status: pygame.Rect


def strip_layout(rect: pygame.Rect, unit: float) -> StripLayout:
    pad = round(10 * unit)
    inner = rect.inflate(-2 * pad, -2 * pad)
    thumb_h = inner.height
    thumb = pygame.Rect(0, 0, thumb_h * 4 // 3, thumb_h)
    thumb.topright = inner.topright
    slot_w = round(92 * unit)
    lights = {}
    for i, name in enumerate(BUTTON_ORDER):
        lights[name] = pygame.Rect(inner.x + i * slot_w, inner.y, slot_w, inner.height)
    status_x = inner.x + 4 * slot_w + pad
    status = pygame.Rect(status_x, inner.y, thumb.x - pad - status_x, inner.height)
    return StripLayout(rect, lights, thumb, status)


def draw_device_strip(surface: pygame.Surface, ctx: AppContext, layout: StripLayout) -> None:
    """The box at a glance: the four buttons (lit while pressed), the last one pressed,
    the camera's state and a live thumbnail."""
    unit = ctx.theme.unit(surface.get_size())
    now = ctx.now()
    panel(surface, layout.rect, th.PANEL, radius=round(18 * unit), shadow=0)
    label_size = round(13 * unit)
    for name, rect in layout.lights.items():
        draw_indicator(surface, ctx, name, rect, ctx.status.is_lit(name, now), label_size)

    # status lines: the last button (or a hint) above, the camera below
    st = layout.status
    big, small = round(18 * unit), round(15 * unit)
    top = pygame.Rect(st.x, st.y, st.width, st.height // 2)
    bottom = pygame.Rect(st.x, top.bottom, st.width, st.height - top.height)
    last = ctx.status.last_button
    if last is not None:
        draw_text(surface, ctx.theme, ctx.tr("strip.last_button", button=button_label(ctx, last)),
                  (top.x, top.centery), big, th.BUTTON_COLOURS[last], bold=True,
                  anchor="midleft", max_width=top.width)
    else:
        draw_block(surface, ctx.theme, ctx.tr("strip.no_button"), top, small, th.TEXT,
                   align="left")
    problem = ctx.status.camera_problem
    if problem:
        text, colour = ctx.tr("strip.camera_problem", message=problem), th.DANGER
    elif ctx.status.frames:
        text, colour = ctx.tr("strip.camera_ok", name=ctx.hardware.camera_name), th.TEXT_MUTED
    else:
        text, colour = ctx.tr("strip.camera_wait"), th.TEXT_MUTED
    draw_block(surface, ctx.theme, text, bottom, small, colour, align="left")

    # camera thumbnail
    tb = layout.thumbnail
    pygame.draw.rect(surface, th.SHADOW, tb, border_radius=round(8 * unit))
    image = ctx.camera.fitted(tb.size)
    if image is not None:
        surface.blit(image, image.get_rect(center=tb.center))
    else:
        draw_text(surface, ctx.theme, ctx.tr("strip.camera"), tb.center, small, th.TEXT_MUTED,
                  anchor="center", max_width=tb.width - 8)
    if problem:
        pygame.draw.rect(surface, th.DANGER, tb, width=max(2, round(3 * unit)),
                         border_radius=round(8 * unit))


# -- toast ---------------------------------------------------------------------------------


def draw_toast(surface: pygame.Surface, ctx: AppContext) -> None:
    message = ctx.toast.current(ctx.now())
    if not message:
        return
    w, h = surface.get_size()
    unit = ctx.theme.unit((w, h))
    size = round(20 * unit)
    width = min(w - round(40 * unit), round(640 * unit))
    lines = wrap(ctx.theme, message, size, width - round(40 * unit))
    line_h = ctx.theme.font(size).get_linesize()
    box = pygame.Rect(0, 0, width, line_h * len(lines) + round(28 * unit))
    box.midtop = (w // 2, round(14 * unit))
    colour = th.mix(th.TOAST, th.DANGER, 0.35) if ctx.toast.error else th.TOAST
    panel(surface, box, colour, radius=round(14 * unit), shadow=round(4 * unit),
          border=th.DANGER if ctx.toast.error else th.ACCENT)
    draw_block(surface, ctx.theme, message, box.inflate(-round(40 * unit), -round(20 * unit)),
               size, th.TEXT)


def stack(rect: pygame.Rect, count: int, gap: int) -> list[pygame.Rect]:
    """``count`` rows of equal height filling ``rect`` with ``gap`` between them."""
    if count <= 0:
        return []
    h = (rect.height - gap * (count - 1)) // count
    return [pygame.Rect(rect.x, rect.y + i * (h + gap), rect.width, h) for i in range(count)]


def grid(rect: pygame.Rect, cols: int, rows: int, gap: int) -> list[pygame.Rect]:
    w = (rect.width - gap * (cols - 1)) // cols
    h = (rect.height - gap * (rows - 1)) // rows
    return [
        pygame.Rect(rect.x + c * (w + gap), rect.y + r * (h + gap), w, h)
        for r in range(rows)
        for c in range(cols)
    ]


def rects_overlap(rects: Sequence[pygame.Rect] | Iterable[pygame.Rect]) -> bool:
    rs = list(rects)
    return any(a.colliderect(b) for i, a in enumerate(rs) for b in rs[i + 1:])
