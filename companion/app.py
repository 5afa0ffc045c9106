"""The composition root: config, journal, referee, devices (real or simulated), display, loop.

``run(options)`` is what ``companion run`` calls. Every CompanionError raised while
starting (a wrong config value, an unknown camera source, a missing library, a damaged
journal, no display) ends with ONE line on stderr and exit code 2, never a traceback. Once
running, a failing camera is shown on screen (and retried by its worker), and a failing
scene is replaced by the failsafe scene.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import sdnotify
from .config import Config, load_config
from .core.errors import CompanionError, DeviceError

log = logging.getLogger(__name__)

#: Frames per second the camera worker reads (the UI draws at config.display.fps).
CAMERA_FPS = 15


@dataclass(frozen=True)
class RunOptions:
    """What ``companion run`` was asked for (the CLI fills it in from its flags)."""

    demo: bool = False  # simulated buttons (keyboard), synthetic camera, a window
    camera: str | None = None  # camera source; beats $COMPANION_CAMERA and the config
    fullscreen: bool = False
    exit_after: float | None = None  # seconds, then quit cleanly (smoke tests, demos)
    screenshots: Path | None = None  # save a PNG of every new screen there
    config: Path | None = None  # config file; default: see companion.config


def run(options: RunOptions) -> int:
    """Run the companion until quit; 0 on a normal exit, 2 when it cannot start."""
    _setup_logging()
    try:
        return _run(options)
    except CompanionError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2


def _setup_logging() -> None:
    root = logging.getLogger()
    if not root.handlers:
        logging.basicConfig(
            level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
        )


def camera_spec(options: RunOptions, config: Config) -> str:
    """--camera, else the synthetic camera in demo, else $COMPANION_CAMERA / the config."""
    if options.camera:
        return options.camera
    return "synthetic" if options.demo else config.devices.camera


def buttons_kind(options: RunOptions, config: Config) -> str:
    return "simulated" if options.demo else config.devices.buttons


def _run(options: RunOptions) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    config = load_config(options.config)
    log.debug("settings from %s, journal in %s", config.path, config.journal_path)

    from .devices.buttons import Buttons
    from .devices.buzzer import BuzzerOut
    from .devices.factory import is_simulated, make_pin_factory
    from .devices.frames import open_source, rotated
    from .devices.worker import CameraWorker
    from .games.registry import default_registry
    from .session.journal import Journal
    from .session.referee import Referee

    with contextlib.ExitStack() as stack:
        stack.callback(sdnotify.stopping)
        journal = Journal.open(config.journal_path)
        stack.callback(journal.close)
        registry = default_registry()
        referee = Referee(journal, registry)

        events: queue.Queue[Any] = queue.Queue()
        factory = make_pin_factory(buttons_kind(options, config))
        stack.callback(_close_quietly, factory)
        simulated = is_simulated(factory)
        buttons = Buttons(events, config.pins, factory, bounce_time=config.devices.bounce_time,
                          hold_time=config.devices.hold_time)
        stack.callback(buttons.close)
        buzzer = BuzzerOut(config.devices.buzzer, config.pins["buzzer"], factory,
                           muted=not config.sound.enabled)
        stack.callback(buzzer.close)

        source = rotated(open_source(camera_spec(options, config)),
                         config.devices.camera_rotation)
        worker = CameraWorker(source, events, fps=CAMERA_FPS)
        worker.start()
        stack.callback(worker.stop)
        dice = start_dice_worker(worker, events)
        if dice is not None:
            stack.callback(dice.stop)

        display = _open_display(config, options)
        stack.callback(_quit_pygame)

        from .ui.context import AppContext, Hardware
        from .ui.i18n import Translator
        from .ui.intents import InputMap
        from .ui.loop import Loop
        from .ui.scenes.start import first_scene
        from .ui.sound import open_speaker

        speaker = open_speaker(config)
        hardware = Hardware(
            buttons=buttons,
            buttons_kind="simulated" if simulated else "real",
            buzzer=buzzer,
            buzzer_kind=config.devices.buzzer,
            source=source,
            worker=worker,
            muted=not config.sound.enabled,
            sound=speaker,
            dice=dice,
            pin_factory=factory,
        )
        ctx = AppContext(config=config, journal=journal, registry=registry, referee=referee,
                         hardware=hardware, tr=Translator(config.ui.language), demo=options.demo)
        inputs = InputMap(
            display.get_size(),
            config.display.rotation,
            demo=options.demo,
            buttons=hardware.simulated_buttons,
            roll=hardware.roll if hardware.can_roll else None,
            bounce_time=config.devices.bounce_time,
        )
        watchdog = sdnotify.Watchdog()
        loop = Loop(
            ctx, display, events=events, inputs=inputs, first=first_scene(ctx),
            fps=config.display.fps,
            rotation=config.display.rotation, exit_after=options.exit_after,
            screenshots=options.screenshots, watchdog=watchdog,
            on_first_frame=lambda: sdnotify.ready() or True,
        )
        _on_signals(loop.request_quit)
        sdnotify.status(f"running ({'demo' if options.demo else 'table'})")
        log.info("Table Companion running: settings %s, journal %s, buttons %s, camera %s, "
                 "buzzer %s, dice %s", config.path, config.journal_path, hardware.buttons_kind,
                 source.name, config.devices.buzzer,
                 "read by the camera" if dice is not None else "entered by hand")
        code = loop.run()
        log.info("Table Companion stopping")
        return code
    return 0  # pragma: no cover - the with block always returns


def start_dice_worker(camera: Any, events: queue.Queue[Any]) -> Any:
    """The DiceWorker reading the dice on the camera worker's frames (started), posting on
    ``events``; None when the pips reader cannot run (OpenCV or numpy missing): the screens
    then offer the dice pad. A camera that fails later is reported by the camera worker
    (CameraProblem) and the screens fall back to the pad too."""
    try:
        import cv2  # noqa: F401
        import numpy  # noqa: F401

        from .vision.dice import read_pips
        from .vision.worker import DiceWorker
    except ImportError as exc:
        log.warning("dice are entered by hand: the dice reader needs %s (%s); run ./setup.sh",
                    "OpenCV" if exc.name == "cv2" else exc.name or "a library", exc)
        return None
    dice = DiceWorker(read_pips, events, camera=camera)
    dice.start()
    return dice


def _open_display(config: Config, options: RunOptions) -> Any:
    import pygame

    fullscreen = options.fullscreen or (config.display.fullscreen and not options.demo)
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    try:
        pygame.display.init()
        pygame.font.init()
        if fullscreen:
            display = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        else:
            display = pygame.display.set_mode((config.display.width, config.display.height))
        pygame.display.set_caption("Table Companion")
    except pygame.error as exc:
        shown = f"SDL_VIDEODRIVER={driver}" if driver else "the default video driver"
        raise DeviceError(
            f"cannot open the display with {shown} ({exc}); on the Pi run it from the console "
            "or as the service (kmsdrm), with a desktop session use a window, headless set "
            "SDL_VIDEODRIVER=dummy"
        ) from None
    if fullscreen:
        pygame.mouse.set_visible(False)  # a touchscreen: no arrow in the middle of the board
    log.info("display %s %dx%d%s", pygame.display.get_driver(), *display.get_size(),
             " fullscreen" if fullscreen else "")
    return display


def _quit_pygame() -> None:
    import pygame

    pygame.quit()


def _close_quietly(thing: Any) -> None:
    try:
        thing.close()
    except Exception:
        log.exception("closing %s failed", type(thing).__name__)


def _on_signals(stop: Any) -> None:
    """SIGTERM (systemctl stop) and SIGINT (Ctrl+C) end the loop cleanly after this frame."""

    def handler(signum: int, frame: Any) -> None:
        log.info("signal %s received", signal.Signals(signum).name)
        stop()

    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            signal.signal(sig, handler)
        except (ValueError, OSError):  # not the main thread (tests): nothing to install
            pass
