"""What every scene may use: the config, journal, referee, devices, words and theme.

Built once by the composition root (app.py) or by a test; scenes receive it and never
create devices, open files or initialise pygame themselves.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..config import Config, ConfigError, save_setting
from ..devices.events import ButtonName
from ..games.registry import GameInfo, Registry
from ..session.journal import Journal
from ..session.referee import Referee
from .i18n import Translator
from .intents import CameraFailed, CameraFrame, Hold, Press, Release, UIIntent
from .theme import Theme

if TYPE_CHECKING:
    import pygame

log = logging.getLogger(__name__)

#: Seconds a button indicator stays lit after a short tap (so a quick press is seen).
LIT_AFTER_PRESS = 0.4


class Hardware:
    """The devices as the screens see them. Every part is optional (None: not present) and
    every call is guarded: a device failing never takes a scene down."""

    def __init__(
        self,
        *,
        buttons: Any = None,
        buttons_kind: str = "simulated",
        buzzer: Any = None,
        buzzer_kind: str = "none",
        source: Any = None,
        worker: Any = None,
        muted: bool = False,
        sound: Any = None,
        dice: Any = None,
        pin_factory: Any = None,
    ) -> None:
        self.buttons = buttons
        self.buttons_kind = buttons_kind  # "simulated" or "real"
        self.buzzer = buzzer
        self.buzzer_kind = buzzer_kind
        self.source = source
        self.worker = worker
        self.muted = muted
        self.sound = sound  # the speaker (companion.ui.sound), None: no speaker
        self.dice = dice  # the DiceWorker (companion.vision.worker), None: no dice reading
        self.pin_factory = pin_factory  # gpiozero's, to rebuild the buzzer when its kind changes

    @property
    def simulated_buttons(self) -> Any:
        """The Buttons object when the keyboard may tap it, else None."""
        return self.buttons if self.buttons_kind == "simulated" else None

    @property
    def camera_name(self) -> str:
        return str(getattr(self.source, "name", "") or "—")

    @property
    def can_roll(self) -> bool:
        return callable(getattr(self.source, "roll", None))

    def roll(self) -> bool:
        if not self.can_roll:
            return False
        self.source.roll()
        return True

    def beep(self, pattern: str) -> None:
        """Play a named pattern on the buzzer and the matching sound on the speaker."""
        if self.muted:
            return
        for part in (self.buzzer, self.sound):
            if part is None:
                continue
            try:
                part.play(pattern)
            except Exception:
                log.exception("%s pattern %s failed", type(part).__name__, pattern)

    def set_muted(self, muted: bool) -> None:
        self.muted = muted
        if self.buzzer is not None and hasattr(self.buzzer, "muted"):
            try:
                self.buzzer.muted = muted
            except Exception:
                log.exception("could not mute the buzzer")

    def latest(self) -> tuple[int, Any]:
        """(seq, BGR frame or None) from the camera worker; never blocks."""
        if self.worker is None:
            return (0, None)
        try:
            return self.worker.latest()
        except Exception:
            log.exception("camera worker failed")
            return (0, None)

    def close(self) -> None:
        parts = ((self.dice, "stop"), (self.worker, "stop"), (self.buttons, "close"),
                 (self.buzzer, "close"), (self.sound, "close"))
        for part, method in parts:
            if part is None:
                continue
            try:
                getattr(part, method)()
            except Exception:
                log.exception("closing %s failed", type(part).__name__)


@dataclass
class DeviceStatus:
    """What the device strip shows, updated from intents (never from raw events)."""

    held: set[ButtonName] = field(default_factory=set)
    lit_until: dict[ButtonName, float] = field(default_factory=dict)
    last_button: ButtonName | None = None
    presses: dict[ButtonName, int] = field(default_factory=dict)
    camera_problem: str | None = None
    frames: int = 0
    frame_size: tuple[int, int] | None = None

    def on_intent(self, intent: UIIntent, now: float) -> None:
        if isinstance(intent, Press):
            self.held.add(intent.button)
            self.lit_until[intent.button] = now + LIT_AFTER_PRESS
            self.last_button = intent.button
            self.presses[intent.button] = self.presses.get(intent.button, 0) + 1
        elif isinstance(intent, Release):
            self.held.discard(intent.button)
        elif isinstance(intent, Hold):
            self.held.add(intent.button)
        elif isinstance(intent, CameraFrame):
            self.frames += 1
            self.frame_size = (intent.width, intent.height)
            self.camera_problem = None
        elif isinstance(intent, CameraFailed):
            self.camera_problem = intent.message

    def is_lit(self, button: ButtonName, now: float) -> bool:
        return button in self.held or now < self.lit_until.get(button, 0.0)


class CameraView:
    """Turns the worker's latest BGR frame into pygame surfaces, only when it changed."""

    def __init__(self, hardware: Hardware) -> None:
        self.hardware = hardware
        self._latest: tuple[int, Any] = (0, None)
        self._seq = -1
        self._surface: pygame.Surface | None = None
        self._scaled: dict[tuple[int, int], pygame.Surface] = {}

    def poll(self) -> int:
        """Take the newest frame from the worker (cheap: no conversion); returns its seq.
        The loop calls this on every CameraFrame, which also lets the worker post the next
        FrameEvent (it posts one at a time)."""
        seq, frame = self.hardware.latest()
        if frame is not None:
            self._latest = (seq, frame)
        return self._latest[0]

    def surface(self) -> pygame.Surface | None:
        self.poll()
        seq, frame = self._latest
        if frame is not None and seq != self._seq:
            from .widgets import frame_to_surface

            self._surface = frame_to_surface(frame)
            self._seq = seq
            self._scaled.clear()
        return self._surface

    def fitted(self, box: tuple[int, int]) -> pygame.Surface | None:
        """The latest frame scaled to fit ``box`` (aspect kept)."""
        import pygame

        src = self.surface()
        if src is None:
            return None
        w, h = src.get_size()
        scale = min(box[0] / w, box[1] / h)
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        if size not in self._scaled:
            self._scaled.clear()
            self._scaled[size] = pygame.transform.smoothscale(src, size)
        return self._scaled[size]


@dataclass
class Toast:
    """A short message shown over any scene for a few seconds."""

    message: str | None = None
    until: float = 0.0
    error: bool = False

    def show(self, message: str, now: float, seconds: float = 3.5, error: bool = False) -> None:
        self.message, self.until, self.error = message, now + seconds, error

    def current(self, now: float) -> str | None:
        return self.message if self.message and now < self.until else None


@dataclass
class AppContext:
    config: Config
    journal: Journal
    registry: Registry
    referee: Referee
    hardware: Hardware = field(default_factory=Hardware)
    tr: Translator = field(default_factory=Translator)
    theme: Theme = field(default_factory=Theme)
    demo: bool = False
    clock: Callable[[], float] = time.monotonic
    status: DeviceStatus = field(default_factory=DeviceStatus)
    toast: Toast = field(default_factory=Toast)
    camera: CameraView = field(init=False)

    def __post_init__(self) -> None:
        self.camera = CameraView(self.hardware)

    def now(self) -> float:
        return self.clock()

    def notify(self, message: str, error: bool = False, seconds: float = 3.5) -> None:
        self.toast.show(message, self.now(), seconds, error)

    def catalogue(self) -> list[GameInfo]:
        return self.registry.catalogue()

    def game_title(self, game_id: str) -> str:
        for info in self.catalogue():
            if info.id == game_id:
                return info.title
        return game_id

    def reload_referee(self) -> None:
        """Forget the live state and rebuild the referee from the journal (the failsafe's
        "Continue from the journal"): the last unfinished session is folded again."""
        self.referee.close_session()
        self.referee = Referee(self.journal, self.registry)
        try:
            info = self.journal.last_unfinished()
        except Exception:
            log.exception("journal unreadable while reloading")
            return
        if info is not None and info.game in self.registry.ids():
            verdict = self.referee.resume(info.id)
            log.info("reloaded session %s from the journal: %s", info.id, verdict)

    def save_setting(self, section: str, key: str, value: Any) -> tuple[bool, str]:
        """Apply a setting now and try to keep it in the config file.

        Returns (saved, message for the player)."""
        try:
            self.config = save_setting(self.config, section, key, value)
        except ConfigError as exc:
            log.warning("setting %s.%s kept in memory only: %s", section, key, exc)
            part = dataclasses.replace(getattr(self.config, section), **{key: value})
            self.config = self.config.replace(**{section: part})
            return False, self.tr("settings.not_saved", message=str(exc))
        return True, self.tr("settings.saved", path=str(self.config.path))
