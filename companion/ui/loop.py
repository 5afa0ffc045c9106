"""The main loop: input -> intents -> scene, then draw, at a fixed frame rate.

Each frame it drains the device queue without blocking and pygame's events, maps every raw
input once (``intents.to_intent``), updates the device strip's status, hands each intent
to the current scene, updates and draws it (upside down when the screen is mounted at 180
degrees), feeds the systemd watchdog and, with ``screenshots``, saves a PNG of every new
screen. Any exception raised by a scene is logged with its traceback and replaced by the
failsafe scene: the companion keeps running and the screen never shows a traceback.
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

import pygame

from .context import AppContext
from .intents import CameraFrame, InputMap, Quit, RollRequested, Tap, UIIntent, to_intent
from .scenes.base import Scene
from .scenes.failsafe import FailsafeScene, emergency_draw
from .widgets import draw_toast

log = logging.getLogger(__name__)

#: Seconds a new screen is left to settle (camera thumbnail, fonts) before its screenshot.
SCREENSHOT_SETTLE = 0.5
#: Device events handled per frame at most (the rest wait for the next frame).
MAX_DEVICE_EVENTS = 256


class Loop:
    def __init__(
        self,
        ctx: AppContext,
        display: pygame.Surface,
        *,
        events: queue.Queue[Any] | None = None,
        inputs: InputMap | None = None,
        first: Scene | None = None,
        fps: int = 30,
        rotation: int = 0,
        exit_after: float | None = None,
        screenshots: Path | None = None,
        watchdog: Any = None,
        on_first_frame: Callable[[], Any] | None = None,
        present: bool = True,
    ) -> None:
        self.ctx = ctx
        self.display = display
        self.events: queue.Queue[Any] = events if events is not None else queue.Queue()
        size = display.get_size()
        self.rotation = rotation
        self.inputs = inputs if inputs is not None else InputMap(size)
        self.inputs.size = size
        self.canvas = display
        self.set_rotation(rotation)
        # the Settings screen changes display.rotation: follow it live (only its changes,
        # so an explicit ``rotation`` argument stands until the setting is touched)
        self._config_rotation = self._configured_rotation()
        self.fps = max(30, int(fps))
        self.exit_after = exit_after
        self.screenshots = screenshots
        self.watchdog = watchdog
        self.on_first_frame = on_first_frame
        self.present_to_display = present
        self.running = True
        self.frames = 0
        self.failures = 0
        self.saved: list[Path] = []
        self._emergency = False
        self._shot_key: Hashable = None
        self._shot_pending: tuple[str, float] | None = None
        self._shot_copy: pygame.Surface | None = None
        if first is None:
            from .scenes.home import HomeScene

            first = HomeScene(ctx)
        self._scene = first
        self._guard("enter", self._scene.enter)

    # -- scenes --------------------------------------------------------------------------
    @property
    def scene(self) -> Scene:
        return self._scene

    def switch(self, scene: Scene) -> None:
        if scene is self._scene:
            return
        old = self._scene
        self._scene = scene
        self._emergency = False
        try:
            old.leave()
        except Exception:
            log.exception("scene %s failed while leaving", old.name)
        self._guard("enter", scene.enter)

    def _fail(self, where: str) -> None:
        self.failures += 1
        if isinstance(self._scene, FailsafeScene):
            self._emergency = True  # the failsafe itself failed: pygame's bare font only
            return
        self._scene = FailsafeScene(self.ctx, where)

    def _guard(self, step: str, fn: Callable[..., Any], *args: Any) -> Any:
        scene = self._scene
        try:
            return fn(*args)
        except Exception:
            log.exception("scene %s failed in %s; showing the failsafe screen", scene.name, step)
            self._fail(f"{scene.name}.{step}")
            return None

    # -- rotation ------------------------------------------------------------------------
    def set_rotation(self, rotation: int) -> None:
        """Draw upside down (180) or not (0) from the next frame on; touch follows."""
        self.rotation = 180 if rotation == 180 else 0
        self.inputs.rotation = self.rotation
        size = self.display.get_size()
        if self.rotation == 0:
            self.canvas = self.display
        elif self.canvas is self.display or self.canvas.get_size() != size:
            self.canvas = pygame.Surface(size)

    def _configured_rotation(self) -> int:
        display = getattr(self.ctx.config, "display", None)
        return int(getattr(display, "rotation", 0) or 0)

    def follow_config(self) -> None:
        """Apply a rotation changed in the settings since the last frame."""
        wanted = self._configured_rotation()
        if wanted != self._config_rotation:
            self._config_rotation = wanted
            if wanted != self.rotation:
                log.info("screen rotation now %d", wanted)
                self.set_rotation(wanted)

    # -- input ---------------------------------------------------------------------------
    def request_quit(self) -> None:
        """Stop after the current frame (SIGTERM, tests). Safe from a signal handler."""
        self.running = False

    def collect(self, raw_events: list[Any] | None = None) -> list[UIIntent]:
        raw = list(pygame.event.get()) if raw_events is None else list(raw_events)
        for _ in range(MAX_DEVICE_EVENTS):
            try:
                raw.append(self.events.get_nowait())
            except queue.Empty:
                break
        intents = []
        for item in raw:
            intent = to_intent(item, self.inputs)
            if intent is not None:
                intents.append(intent)
        return intents

    def dispatch(self, intent: UIIntent) -> None:
        ctx = self.ctx
        ctx.status.on_intent(intent, ctx.now())
        if isinstance(intent, Quit):
            self.running = False
            return
        if isinstance(intent, CameraFrame):
            ctx.camera.poll()
        elif isinstance(intent, RollRequested):
            ctx.hardware.beep("roll_accepted")
        if self._emergency:
            if isinstance(intent, Tap):
                self._recover()
            return
        nxt = self._guard("handle", self._scene.handle, intent)
        if isinstance(nxt, Scene):
            self.switch(nxt)

    def _recover(self) -> None:
        from .scenes.home import HomeScene

        self._emergency = False
        try:
            self.ctx.reload_referee()
        except Exception:
            log.exception("reloading from the journal failed")
        self.switch(HomeScene(self.ctx))

    # -- one frame -----------------------------------------------------------------------
    def step(self, dt: float, raw_events: list[Any] | None = None) -> bool:
        """Run one frame; False once the loop should stop."""
        for intent in self.collect(raw_events):
            self.dispatch(intent)
            if not self.running:
                return False
        self.follow_config()
        if not self._emergency:
            nxt = self._guard("update", self._scene.update, dt)
            if isinstance(nxt, Scene):
                self.switch(nxt)
        self.draw()
        self.present()
        self.frames += 1
        if self.frames == 1 and self.on_first_frame is not None:
            self.on_first_frame()
        if self.watchdog is not None:
            self.watchdog.kick()
        return self.running

    def draw(self) -> None:
        canvas, size = self.canvas, self.canvas.get_size()
        self.ctx.theme.begin_frame()
        for _attempt in range(2):  # the scene, then (if it failed) the failsafe
            if self._emergency:
                break
            scene = self._scene
            self._guard("layout", scene.ensure_layout, size)
            if self._scene is scene and not self._emergency:
                try:
                    scene.draw(canvas)
                    draw_toast(canvas, self.ctx)
                    break
                except Exception:
                    log.exception("scene %s failed in draw; showing the failsafe screen",
                                  scene.name)
                    self._fail(f"{scene.name}.draw")
        if self._emergency:
            try:
                message = self.ctx.tr("failsafe.title")
            except Exception:
                message = "Table Companion"
            emergency_draw(canvas, message)
        self._screenshot()

    def present(self) -> None:
        if self.rotation == 180:
            self.display.blit(pygame.transform.flip(self.canvas, True, True), (0, 0))
        if self.present_to_display:
            try:
                pygame.display.flip()
            except pygame.error:  # no display mode set (tests drawing on a plain surface)
                pass

    # -- screenshots ---------------------------------------------------------------------
    def _screenshot(self) -> None:
        if self.screenshots is None:
            return
        now = time.monotonic()
        scene = self._scene
        name = "emergency" if self._emergency else scene.name
        try:
            key: Hashable = (id(scene), self._emergency, scene.screen_key())
        except Exception:
            key = (id(scene), self._emergency)
        if key != self._shot_key:
            self.flush_screenshot()
            self._shot_key = key
            self._shot_pending = (name, now + SCREENSHOT_SETTLE)
        if self._shot_pending is not None:
            self._shot_copy = self.canvas.copy()
            if now >= self._shot_pending[1]:
                self.flush_screenshot()

    def flush_screenshot(self) -> None:
        """Save the pending screen now (before a change of screen, and at exit)."""
        if self._shot_pending is None or self._shot_copy is None or self.screenshots is None:
            return
        name = self._shot_pending[0]
        self._shot_pending = None
        path = self.screenshots / f"{len(self.saved) + 1:03d}-{name}.png"
        try:
            self.screenshots.mkdir(parents=True, exist_ok=True)
            pygame.image.save(self._shot_copy, str(path))
        except (OSError, pygame.error) as exc:
            log.warning("could not save the screenshot %s: %s", path, exc)
            return
        self.saved.append(path)
        log.info("screenshot %s", path)

    # -- the loop ------------------------------------------------------------------------
    def run(self) -> int:
        clock = pygame.time.Clock()
        started = time.monotonic()
        dt = 0.0
        try:
            while self.running:
                if not self.step(dt):
                    break
                if self.exit_after is not None and time.monotonic() - started >= self.exit_after:
                    log.info("--exit-after %.1f s reached", self.exit_after)
                    break
                dt = clock.tick(self.fps) / 1000.0
        finally:
            self.flush_screenshot()
        return 0
