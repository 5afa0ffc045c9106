"""One roll of dice on the touchscreen: the camera reads it, the players confirm it, or they
enter it by hand.

A scene embeds a :class:`DiceInput` in a rectangle of its screen and forwards to it its
intents (``handle``), its ``dice:*`` buttons (``on_button``), ``update(dt)`` and ``draw``. The
widget returns a :class:`DiceResult` from one of those calls once the players accepted a roll.

Camera mode (a dice worker runs): the live preview and the prompt; while the worker reports
motion, "dice moving…"; once the dice settle, every die is outlined on the preview with its
value, and a confirmation strip shows one big tile per die. A tap on a tile opens a small
pad 1-6 to correct that die. A die the reader was unsure of is framed in red and must be
confirmed (tap it, tap its value) before the roll can be accepted; the status line says why
each such die is asked, when the reader said it (``DieReading.doubt``: "Die 2: leaning, or
seen from the side? Check it, or lay it flat"), for the first ``WHY_LINES`` such dice (one in
a short rect). When nothing is in doubt an auto-accept countdown runs (``AUTO_ACCEPT``
seconds, shown as a bar on OK), and OK or the YES button accepts at once. Too many or too
few dice seen: a message, every tile must be confirmed, the missing ones entered. A knocked
die reported by the worker while the strip is shown updates the strip.

Pad mode (no camera, a camera failure, or "enter by hand", one tap away at any time): one
slot per die and the keys 1-6; OK (or YES) accepts once every slot is filled, NO erases.

Taps are NOT read from ``handle``: the scene hit-tests its buttons and forwards the ``dice:*``
ones to ``on_button``.
"""

from __future__ import annotations

import logging
from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from ..devices.events import ButtonName
from ..vision.doubts import KEYS, OTHER
from . import theme as th
from .dice_faces import CountdownButton, DieButton, draw_face
from .intents import (
    CameraFailed,
    DiceMoving,
    DiceSettled,
    Press,
    RollRequested,
    UIIntent,
    VisionTrouble,
)
from .widgets import Button, draw_block, draw_text, grid, panel

if TYPE_CHECKING:
    from ..vision.observation import DiceObservation, DieReading
    from .context import AppContext
    from .scenes.base import Scene

log = logging.getLogger(__name__)

#: Seconds the confirmation strip waits before taking a roll nobody doubts.
AUTO_ACCEPT = 2.5
#: At most this many asked dice have their reason on the status line, the first ones (one
#: in a short rect); the next shows once one is confirmed.
WHY_LINES = 2

CAMERA, PAD = "camera", "pad"
WAIT, MOVING, CONFIRM, DONE = "wait", "moving", "confirm", "done"


@dataclass(frozen=True)
class DiceResult:
    values: tuple[int, ...]  # what the players confirmed, 1..6 each
    source: str  # "camera" or "manual"
    corrected: bool  # True if a player changed a value the camera read


@dataclass
class Slot:
    """One die of the roll being confirmed (a tile of the strip)."""

    value: int | None  # what will be taken (None: still to enter)
    read: int | None = None  # what the camera read (None: not seen, or entered by hand)
    doubt: bool = False  # must be confirmed by a tap before the roll can be accepted
    reading: DieReading | None = None


class DiceInput:
    """One roll of ``count`` dice: the live camera preview (dice outlined with their values),
    the roll taken automatically once the dice settle, a short confirmation strip that allows
    a correction (an uncertain die must be confirmed by a tap), and a manual dice pad."""

    def __init__(self, ctx: AppContext, count: int = 2, *, prompt: str = "") -> None:
        if count < 1:
            raise ValueError(f"a roll needs at least one die, not {count}")
        self.ctx = ctx
        self.tr = ctx.tr
        self.count = count
        self.prompt = prompt
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.unit = 1.0
        self.mode = CAMERA
        self.phase = WAIT
        self.slots: list[Slot] = []
        self.observation: DiceObservation | None = None
        self.editing: int | None = None
        self.message: str | None = None
        self.message_error = False
        self.accept_at: float | None = None
        self.result: DiceResult | None = None
        self._trouble: str | None = None  # the dice reader's last failure, until it reads
        self._scene: Scene | None = None
        self._buttons: list[Button] = []
        self._main = pygame.Rect(0, 0, 0, 0)
        # where the preview was last drawn, the camera window it showed, the frame size
        self._where = pygame.Rect(0, 0, 1, 1)
        self._window = pygame.Rect(0, 0, 1, 1)
        self._frame: tuple[int, int] = (1, 1)
        self._zoom: tuple[Hashable, pygame.Surface] | None = None
        self._keys: list[pygame.Rect] = []
        self.reset(prompt)

    # -- state ---------------------------------------------------------------------------
    @property
    def has_camera(self) -> bool:
        return self.ctx.hardware.dice is not None

    def reset(self, prompt: str | None = None) -> None:
        """Start waiting for a new roll (camera mode when a dice worker runs, else the pad)."""
        if prompt is not None:
            self.prompt = prompt
        self._demo_dice_count()
        self.result = None
        self.observation = None
        self.editing = None
        self.accept_at = None
        self.message, self.message_error = None, False
        self.phase = WAIT
        if not self.has_camera:
            self._to_pad(self.tr("dice.no_camera"), error=False)
        elif self.ctx.status.camera_problem:
            self._to_pad(self.tr("dice.camera_trouble", message=self.ctx.status.camera_problem))
        elif self._trouble:
            self._to_pad(self._trouble)
        else:
            self.mode = CAMERA
            self.slots = []

    def _demo_dice_count(self) -> None:
        """Demo: the simulated camera throws as many dice as this roll needs (R key)."""
        source = self.ctx.hardware.source
        if self.ctx.demo and callable(getattr(source, "roll", None)) and isinstance(
                getattr(source, "dice", None), int):
            source.dice = self.count

    def _to_pad(self, message: str | None = None, error: bool = True) -> None:
        self.mode = PAD
        self.phase = WAIT
        self.observation = None
        self.accept_at = None
        self.slots = [Slot(None) for _ in range(self.count)]
        self.editing = 0
        self.message, self.message_error = message, error and message is not None

    def _to_camera(self) -> None:
        self.mode = CAMERA
        self.phase = WAIT
        self.slots = []
        self.observation = None
        self.editing = None
        self.accept_at = None
        self.message, self.message_error = None, False

    @property
    def busy(self) -> bool:
        """True while a roll is shown for confirmation (or half entered on the pad): the
        scene should then route YES/NO presses here first."""
        if self.phase == DONE:
            return False
        if self.mode == CAMERA:
            return self.phase == CONFIRM
        return any(s.value is not None for s in self.slots)

    @property
    def can_accept(self) -> bool:
        if self.phase == DONE or not self.slots:
            return False
        if self.mode == CAMERA and self.phase != CONFIRM:
            return False
        return all(s.value is not None and not s.doubt for s in self.slots)

    @property
    def countdown(self) -> float | None:
        """Seconds left before the roll is taken automatically (None: no countdown)."""
        if self.accept_at is None:
            return None
        return max(0.0, self.accept_at - self.ctx.now())

    def layout_state(self) -> Hashable:
        return (self.mode, self.phase, self.editing, self.count, self.has_camera,
                self.can_accept, tuple((s.value, s.doubt) for s in self.slots),
                self._tall_head)

    def reasons(self) -> list[str]:
        """Why the camera asks each die still to be confirmed, one line per die ("Die 2:
        leaning, or seen from the side? Check it, or lay it flat"), for the dice whose reader
        said why (``DieReading.doubt``, a key of :mod:`companion.vision.doubts`)."""
        if self.mode != CAMERA or self.phase != CONFIRM:
            return []
        out = []
        for i, slot in enumerate(self.slots):
            r = slot.reading
            if slot.doubt and r is not None and r.uncertain and r.doubt:
                key = r.doubt if r.doubt in KEYS else OTHER
                out.append(self.tr(f"dice.why.{key}", n=i + 1))
        return out

    def why_text(self) -> str | None:
        """The status line's reasons while asked dice wait for a tap, the first ``WHY_LINES``
        (None: not shown: another message, a die being corrected, or no reason known)."""
        if self.message or self.editing is not None:
            return None
        why = self.reasons()
        return "\n".join(why[: 1 if self.compact else WHY_LINES]) or None

    @property
    def _tall_head(self) -> bool:
        """Room for the reasons on the status line (kept while a die is corrected, so that
        the picture does not jump)."""
        return not self.message and bool(self.reasons())

    # -- the camera's readings -------------------------------------------------------------
    def _radius(self, obs: DiceObservation, a: DieReading) -> float:
        return max(a.size, 0.06 * min(obs.width, obs.height))

    def _offer(self, obs: DiceObservation, correction: bool) -> None:
        dice = sorted(obs.dice, key=lambda d: (d.x, d.y))
        seen = len(dice)
        if seen > self.count:  # keep the dice the reader is surest of, in table order
            kept = sorted(dice, key=lambda d: -d.confidence)[: self.count]
            dice = sorted(kept, key=lambda d: (d.x, d.y))
        wrong = seen != self.count
        slots = [Slot(d.value, d.value, d.uncertain or wrong, d) for d in dice]
        slots += [Slot(None, None, True) for _ in range(self.count - len(slots))]
        if correction and self.phase == CONFIRM and self.observation is not None:
            # keep what the players already settled for the dice that did not change
            for new in slots:
                if new.reading is None:
                    continue
                for old in self.slots:
                    r = old.reading
                    if (r is not None and old.read == new.read
                            and abs(r.x - new.reading.x) + abs(r.y - new.reading.y)
                            <= self._radius(obs, r)):
                        new.value, new.doubt = old.value, old.doubt and new.doubt
                        break
        self.observation = obs
        self.slots = slots
        self.phase = CONFIRM
        self.editing = None
        if wrong:
            key = "dice.too_many" if seen > self.count else "dice.too_few"
            self.message, self.message_error = self.tr(key, seen=seen, count=self.count), True
        elif correction:
            self.message, self.message_error = self.tr("dice.knocked"), False
        else:
            self.message, self.message_error = None, False
        if any(s.doubt for s in slots):
            self.ctx.hardware.beep("attention")
        self._restart_countdown()

    def _restart_countdown(self) -> None:
        ok = self.mode == CAMERA and self.can_accept and self.editing is None
        self.accept_at = self.ctx.now() + AUTO_ACCEPT if ok else None

    def _accept(self) -> DiceResult | None:
        if not self.can_accept:
            return None
        values = tuple(int(s.value) for s in self.slots if s.value is not None)
        if self.mode == CAMERA:
            corrected = any(s.value != s.read for s in self.slots)
            result = DiceResult(values, "camera", corrected)
        else:
            result = DiceResult(values, "manual", False)
        self.result = result
        self.phase = DONE
        self.editing = None
        self.accept_at = None
        self.message, self.message_error = None, False
        log.info("dice accepted: %s", result)
        return result

    # -- input -----------------------------------------------------------------------------
    def handle(self, intent: UIIntent) -> DiceResult | None:
        """Every intent of the scene (taps excepted: see ``on_button``)."""
        if isinstance(intent, DiceSettled):
            self._trouble = None  # the reader works again
            if self.mode != CAMERA or self.phase == DONE:
                return None
            if intent.correction and self.phase != CONFIRM:
                return None  # amends a roll already taken: the scene's business, not ours
            self._offer(intent.observation, intent.correction)
            return None
        if isinstance(intent, DiceMoving | RollRequested):
            if self.mode != CAMERA or self.phase == DONE:
                return None
            if self.phase == CONFIRM:
                if isinstance(intent, RollRequested):  # demo: a new throw replaces this one
                    self._to_camera()
                    self.phase = MOVING
                elif self.accept_at is not None:  # a hand or a knocked die: wait a bit more
                    self._restart_countdown()
                return None
            self.phase = MOVING
            self.message = None
            return None
        if isinstance(intent, CameraFailed | VisionTrouble):
            key = "dice.camera_trouble" if isinstance(intent, CameraFailed) else \
                "dice.vision_trouble"
            text = self.tr(key, message=intent.message)
            if isinstance(intent, VisionTrouble):
                self._trouble = text  # the worker says it once: remember it for next turns
            if self.phase == DONE or self.mode == PAD:
                return None
            if self.phase == CONFIRM:  # the roll already read stays on offer
                self.message, self.message_error = text, True
                return None
            self._to_pad(text)
            self.ctx.hardware.beep("error")
            return None
        if isinstance(intent, Press) and self.busy:
            if intent.button is ButtonName.YES:
                result = self._accept()
                if result is None:
                    self.ctx.hardware.beep("error")
                return result
            if intent.button is ButtonName.NO:
                if self.mode == CAMERA:
                    self._to_camera()
                else:
                    self._erase()
        return None

    def on_button(self, button: Button) -> DiceResult | None:
        key = button.key
        if not key.startswith("dice:") or not button.enabled:
            return None
        parts = key.split(":")
        if parts[1] == "tile" and self.phase != DONE:
            i = int(parts[2])
            if i < len(self.slots):
                self.editing = None if (self.editing == i and self.mode == CAMERA) else i
                self._restart_countdown()
            return None
        if parts[1] == "key" and self.editing is not None and self.phase != DONE:
            self._set(self.editing, int(parts[2]))
            return None
        if parts[1] == "ok":
            return self._accept()
        if parts[1] == "hand":
            self._to_pad()
            return None
        if parts[1] == "camera" and self.has_camera:
            self._trouble = None  # the players want to try the camera again
            self._to_camera()
            return None
        if parts[1] == "again":
            self._to_camera()
            return None
        if parts[1] == "erase":
            self._erase()
        return None

    def _set(self, index: int, value: int) -> None:
        slot = self.slots[index]
        slot.value, slot.doubt = value, False
        if self.mode == PAD:
            empty = [i for i, s in enumerate(self.slots) if s.value is None]
            self.editing = empty[0] if empty else None
        else:
            self.editing = None
            if not any(s.doubt for s in self.slots) and self.message_error:
                self.message, self.message_error = None, False
        self._restart_countdown()

    def _erase(self) -> None:
        if self.mode != PAD:
            return
        if self.editing is not None and self.slots[self.editing].value is not None:
            self.slots[self.editing].value = None
            return
        filled = [i for i, s in enumerate(self.slots) if s.value is not None]
        if filled:
            self.slots[filled[-1]].value = None
            self.editing = filled[-1]

    def update(self, dt: float) -> DiceResult | None:
        """Runs the auto-accept countdown."""
        if self.accept_at is not None and self.ctx.now() >= self.accept_at:
            self.accept_at = None
            if self.mode == CAMERA and self.editing is None:
                return self._accept()
        return None

    # -- layout ----------------------------------------------------------------------------
    def u(self, value: float) -> int:
        return round(value * self.unit)

    def _parts(self) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
        """(header line, main area, bottom bar) inside ``self.rect``. In a short rect the
        camera preview takes the header's place too (the line is drawn over its top)."""
        r = self.rect
        head_h = min(self.u(44), r.height // 6)
        if self._tall_head:  # a reason or two: room for two lines or more
            head_h = min(self.u(72), r.height // 4)
        bar_h = min(self.u(100), r.height // 3)
        gap = self.u(8)
        head = pygame.Rect(r.x, r.y, r.width, head_h)
        bar = pygame.Rect(r.x, r.bottom - bar_h, r.width, bar_h)
        top = head.bottom + gap
        if self.compact:
            top = r.y
        main = pygame.Rect(r.x, top, r.width, bar.y - gap - top)
        return head, main, bar

    @property
    def compact(self) -> bool:
        """Camera mode in a short rect: the status line is drawn over the preview."""
        return self.mode == CAMERA and self.rect.height < self.u(330)

    def _actions(self) -> list[tuple[str, str, th.Colour]]:
        """(key, label, colour) of the action buttons right of the tiles."""
        ok_colour = th.BUTTON_COLOURS[ButtonName.YES]
        if self.phase == DONE:
            return []
        if self.mode == PAD:
            acts = [("ok", self.tr("dice.ok"), ok_colour), ("erase", self.tr("dice.erase"),
                                                            th.PANEL_LIGHT)]
            if self.has_camera:
                acts.append(("camera", self.tr("dice.camera"), th.PANEL_LIGHT))
            return acts
        if self.phase == CONFIRM:
            return [("ok", self.tr("dice.ok"), ok_colour),
                    ("again", self.tr("dice.again"), th.PANEL_LIGHT),
                    ("hand", self.tr("dice.by_hand"), th.PANEL_LIGHT)]
        return [("hand", self.tr("dice.by_hand"), th.PANEL_LIGHT)]

    def build(self, rect: pygame.Rect, scene: Scene) -> None:
        """Add the buttons (keys ``dice:*``) to ``scene.buttons`` for ``rect``."""
        self.rect = pygame.Rect(rect)
        self.unit = scene.unit
        self._scene = scene
        self._buttons = []
        self._keys = []
        _, main, bar = self._parts()
        self._main = main
        gap = self.u(10)

        # the tiles (one per die) on the left of the bar, the actions on the right
        actions = self._actions()
        act_w = self.u(132)
        tiles_w = bar.width - len(actions) * (act_w + gap)
        tile_w = min(self.u(92), (tiles_w - gap * (len(self.slots) - 1)) // max(1, len(self.slots)))
        if tile_w < self.u(64):  # a narrow rect: thinner action buttons
            act_w = max(self.u(84), (bar.width - len(self.slots) * (self.u(64) + gap))
                        // max(1, len(actions)) - gap)
            tiles_w = bar.width - len(actions) * (act_w + gap)
            tile_w = max(self.u(48), (tiles_w - gap * (len(self.slots) - 1))
                         // max(1, len(self.slots)))
        for i, slot in enumerate(self.slots):
            r = pygame.Rect(bar.x + i * (tile_w + gap), bar.y, tile_w, bar.height)
            doubt = slot.doubt and self.mode == CAMERA
            caption = self.tr("dice.confirm") if doubt else self.tr("dice.die", n=i + 1)
            self._add(DieButton(f"dice:tile:{i}", r, "", selected=self.editing == i,
                                value=slot.value, doubt=doubt, caption=caption), scene)
        x = bar.right
        for key, label, colour in actions:
            r = pygame.Rect(x - act_w, bar.y, act_w, bar.height)
            x = r.x - gap
            enabled = self.can_accept if key == "ok" else True
            if key == "ok":
                self._add(CountdownButton(f"dice:{key}", r, label, colour, enabled=enabled,
                                          size=self.u(26), progress=self._progress), scene)
            else:
                self._add(Button(f"dice:{key}", r, label, colour, enabled=enabled,
                                 size=self.u(19)), scene)

        # the keys 1-6: always in pad mode, over the preview while a tile is corrected
        editing = self.editing is not None and self.phase != DONE
        if editing or (self.mode == PAD and self.phase != DONE):
            current = self.slots[self.editing].value if self.editing is not None else None
            self._keys = self._key_rects(main)
            for value, r in enumerate(self._keys, start=1):
                self._add(DieButton(f"dice:key:{value}", r, str(value), value=value,
                                    enabled=editing, selected=current == value), scene)

    def _key_rects(self, main: pygame.Rect) -> list[pygame.Rect]:
        """The keys 1-6: one row when they are big enough so (over the preview, at its bottom,
        next to the strip, leaving most of the picture visible), else two rows."""
        gap = min(self.u(12), main.height // 10)
        inset = min(self.u(14), main.height // 10)

        def side_for(cols: int) -> int:
            rows = 6 // cols
            return min(self.u(120), (main.width - 2 * inset - gap * (cols - 1)) // cols,
                       (main.height - 2 * inset - gap * (rows - 1)) // rows)

        one_row, two_rows = side_for(6), side_for(3)
        prefer_row = self.mode == CAMERA and one_row >= self.u(64)
        cols = 6 if prefer_row or one_row * 1.25 >= two_rows else 3
        rows = 6 // cols
        side = side_for(cols)
        area = pygame.Rect(0, 0, cols * side + gap * (cols - 1), rows * side + gap * (rows - 1))
        area.center = main.center
        if self.mode == CAMERA:  # away from the die being corrected
            area.bottom = main.bottom - inset
            slot = self.slots[self.editing] if self.editing is not None else None
            if slot is not None and slot.reading is not None and not self.compact:
                if self.to_preview(slot.reading.x, slot.reading.y)[1] > main.centery:
                    area.top = main.top + inset
        return grid(area, cols, rows, gap)

    def _add(self, button: Button, scene: Scene) -> None:
        scene.buttons.add(button)
        self._buttons.append(button)

    def _progress(self) -> float | None:
        left = self.countdown
        return None if left is None else left / AUTO_ACCEPT

    # -- drawing ---------------------------------------------------------------------------
    def status_text(self) -> tuple[str, bool]:
        """The line above the preview: (text, is an error)."""
        if self.mode == PAD and self.phase != DONE:
            if self.can_accept:
                return self.tr("dice.pad_full"), False
            if self.message:
                return self.message, self.message_error
            return self.prompt or self.tr("dice.pad_prompt"), False
        if self.message:
            return self.message, self.message_error
        if self.phase == DONE and self.result is not None:
            return self.tr("dice.done", values=" + ".join(map(str, self.result.values))
                           + f" = {sum(self.result.values)}"), False
        if self.editing is not None and self.mode == CAMERA:
            return self.tr("dice.pick_value", n=self.editing + 1), False
        if self.phase == MOVING:
            return self.tr("dice.moving"), False
        if self.phase == CONFIRM:
            if any(s.doubt for s in self.slots):
                return self.why_text() or self.tr("dice.check_doubt"), True
            return self.tr("dice.check"), False
        return self.prompt or self.tr("dice.roll"), False

    def draw(self, surface: pygame.Surface) -> None:
        if self.rect.width <= 0:
            return
        theme = self.ctx.theme
        head, main, bar = self._parts()
        text, error = self.status_text()
        if self.mode == CAMERA:
            self._draw_preview(surface, main)
        else:
            panel(surface, main, th.PANEL, radius=self.u(16), shadow=0)
        if self.compact:
            band = head.inflate(-self.u(8), 0)
            pygame.draw.rect(surface, th.TOAST, band, border_radius=self.u(10))
            head = band.inflate(-self.u(12), -self.u(4))
        draw_block(surface, theme, text, head, self.u(24), th.DANGER if error else th.TEXT,
                   bold=True)
        keys = self._keys
        if self.editing is not None and self.mode == CAMERA and self.phase != DONE and keys:
            back = keys[0].unionall(keys[1:]).inflate(self.u(24), self.u(24))
            panel(surface, back, th.TOAST, radius=self.u(16), shadow=self.u(4),
                  border=th.ACCENT)
        now = self.ctx.now()
        for b in self._buttons:  # on top of the preview, whatever order the scene draws in
            flash = self._scene.buttons.is_flashing(b.key, now) if self._scene else False
            b.draw(surface, theme, flash)
        if self.phase == DONE and self.result is not None and not self._buttons:
            self._draw_result(surface, bar)
        if self.mode == CAMERA and self.phase in (WAIT, MOVING):
            self._draw_hint(surface, bar)

    def _draw_hint(self, surface: pygame.Surface, bar: pygame.Rect) -> None:
        """How the camera takes the roll (and the demo's R key), left of the buttons."""
        right = min((b.rect.x for b in self._buttons), default=bar.right)
        area = pygame.Rect(bar.x + self.u(8), bar.y, right - bar.x - self.u(24), bar.height)
        if area.width < self.u(120):
            return
        text = self.tr("dice.hint")
        if self.ctx.demo and self.ctx.hardware.can_roll:
            text += "\n" + self.tr("dice.hint_demo")
        draw_block(surface, self.ctx.theme, text, area, self.u(18), th.TEXT_MUTED,
                   align="left")

    def _draw_result(self, surface: pygame.Surface, bar: pygame.Rect) -> None:
        side = bar.height
        for i, value in enumerate(self.result.values if self.result else ()):
            draw_face(surface, pygame.Rect(bar.x + i * (side + self.u(10)), bar.y, side, side),
                      value)

    def view_window(self, frame: tuple[int, int]) -> pygame.Rect:
        """The part of the camera picture (camera pixels) the preview shows: all of it, or,
        while a roll is confirmed, the dice and their surroundings when that is clearly
        smaller (so small dice stay readable on a small preview)."""
        fw, fh = frame
        full = pygame.Rect(0, 0, fw, fh)
        obs = self.observation
        if self.phase != CONFIRM or obs is None or not obs.dice or self._main.height <= 0:
            return full
        kx = fw / obs.width if obs.width else 1.0
        ky = fh / obs.height if obs.height else 1.0
        side = max((d.size for d in obs.dice), default=0.0) or 0.1 * min(obs.width, obs.height)
        margin = 1.6 * side
        x0 = (min(d.x for d in obs.dice) - margin) * kx
        x1 = (max(d.x for d in obs.dice) + margin) * kx
        y0 = (min(d.y for d in obs.dice) - margin) * ky
        y1 = (max(d.y for d in obs.dice) + margin) * ky
        mw, mh = self._main.size
        w, h = x1 - x0, y1 - y0
        if w / h < mw / mh:  # the preview's shape, as far as the picture allows
            w = h * mw / mh
        else:
            h = w * mh / mw
        w, h = min(w, fw), min(h, fh)
        if min(mw / w, mh / h) < 1.25 * min(mw / fw, mh / fh):
            return full  # hardly bigger: keep the whole table in view
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        window = pygame.Rect(round(cx - w / 2), round(cy - h / 2), round(w), round(h))
        return window.clamp(full)

    def _preview_image(self, main: pygame.Rect) -> tuple[pygame.Surface, pygame.Rect] | None:
        """The picture to draw in ``main`` and the camera window it shows; cached per frame."""
        seq = self.ctx.camera.poll()
        src = self.ctx.camera.surface()
        if src is None:
            return None
        window = self.view_window(src.get_size())
        if window.size == src.get_size():
            image = self.ctx.camera.fitted(main.size)
            return (image, window) if image is not None else None
        scale = min(main.width / window.width, main.height / window.height)
        size = (max(1, round(window.width * scale)), max(1, round(window.height * scale)))
        key = (seq, tuple(window), size)
        if self._zoom is None or self._zoom[0] != key:
            self._zoom = (key, pygame.transform.smoothscale(src.subsurface(window), size))
        return self._zoom[1], window

    def to_preview(self, x: float, y: float) -> tuple[int, int]:
        """A point of the observation (camera pixels) on the screen, as last drawn."""
        obs = self.observation
        where, window, frame = self._where, self._window, self._frame
        kx = frame[0] / obs.width if obs is not None and obs.width else 1.0
        ky = frame[1] / obs.height if obs is not None and obs.height else 1.0
        sx = where.width / max(1, window.width)
        sy = where.height / max(1, window.height)
        return (round(where.x + (x * kx - window.x) * sx),
                round(where.y + (y * ky - window.y) * sy))

    def die_box(self, reading: DieReading) -> pygame.Rect:
        """The outline of a die on the preview, as last drawn."""
        obs = self.observation
        short = min(obs.width, obs.height) if obs is not None else min(self._frame)
        side = reading.size if reading.size > 0 else 0.1 * short
        sx = self._where.width / max(1, self._window.width)
        k = self._frame[0] / obs.width if obs is not None and obs.width else 1.0
        px = max(self.u(20), round(side * k * sx * 1.35))
        box = pygame.Rect(0, 0, px, px)
        box.center = self.to_preview(reading.x, reading.y)
        return box

    def _draw_preview(self, surface: pygame.Surface, main: pygame.Rect) -> None:
        theme = self.ctx.theme
        pygame.draw.rect(surface, th.SHADOW, main, border_radius=self.u(12))
        shown = self._preview_image(main)
        if shown is None:
            draw_text(surface, theme, self.tr("dice.waiting_picture"), main.center,
                      self.u(22), th.TEXT_MUTED, anchor="center", max_width=main.width - 16)
            return
        image, window = shown
        where = image.get_rect(center=main.center)
        if self.compact:  # leave the status line's band free above the picture
            where.bottom = main.bottom
        src = self.ctx.camera.surface()
        self._where, self._window = where, window
        self._frame = src.get_size() if src is not None else window.size
        surface.blit(image, where)
        if self.phase == MOVING:
            pygame.draw.rect(surface, th.ACCENT, where, width=self.u(3))
        obs = self.observation
        if self.phase != CONFIRM or obs is None:
            return
        slot_of = {id(s.reading): i for i, s in enumerate(self.slots) if s.reading is not None}
        top = max(where.top, self._parts()[0].bottom) if self.compact else where.top
        clip = surface.get_clip()
        surface.set_clip(where)
        for reading in obs.dice:
            box = self.die_box(reading)
            i = slot_of.get(id(reading))
            if i is None:  # a die seen but not counted (too many dice)
                colour, label = th.TEXT_MUTED, "×"
            else:
                slot = self.slots[i]
                fixed = self.editing == i or slot.value != slot.read  # a player's value
                colour = th.DANGER if slot.doubt else th.ACCENT if fixed else th.OK
                label = str(slot.value) if slot.value is not None else "?"
            pygame.draw.rect(surface, colour, box, width=max(2, self.u(3)),
                             border_radius=self.u(6))
            r = max(self.u(13), min(self.u(20), box.width // 2))  # readable from a metre
            # above the die's right corner; below it when the status line would hide it
            y = box.top - r // 2
            if y - r < top:
                y = box.bottom + r // 2
            badge = (min(box.right + r // 2, where.right - r),
                     min(max(y, top + r), where.bottom - r))
            pygame.draw.circle(surface, colour, badge, r)
            draw_text(surface, theme, label, badge, round(r * 1.3), th.readable_on(colour),
                      bold=True, anchor="center")
        surface.set_clip(clip)
