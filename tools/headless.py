"""The companion assembled without a screen, for tools (benchmarks, README screenshots):
the real Loop, scenes, referee and journal, simulated gpiozero buttons, the synthetic camera
behind a real CameraWorker and, optionally, the real dice reader (DiceWorker)."""

from __future__ import annotations

import os
import queue
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from companion.app import start_dice_worker  # noqa: E402
from companion.config import load_config  # noqa: E402
from companion.devices.buttons import Buttons  # noqa: E402
from companion.devices.factory import make_pin_factory  # noqa: E402
from companion.devices.synthetic import SyntheticSource  # noqa: E402
from companion.devices.worker import CameraWorker  # noqa: E402
from companion.games.registry import default_registry  # noqa: E402
from companion.session.journal import Journal  # noqa: E402
from companion.session.referee import Referee  # noqa: E402
from companion.ui.context import AppContext, Hardware  # noqa: E402
from companion.ui.i18n import Translator  # noqa: E402
from companion.ui.intents import InputMap  # noqa: E402
from companion.ui.loop import Loop  # noqa: E402


@dataclass
class Headless:
    ctx: AppContext
    loop: Loop
    source: SyntheticSource
    display: pygame.Surface
    closers: list[Callable[[], Any]] = field(default_factory=list)

    def close(self) -> None:
        for close in reversed(self.closers):
            try:
                close()
            except Exception:
                pass


def headless(
    state: Path,
    size: tuple[int, int] = (800, 480),
    language: str = "fr",
    first: Callable[[AppContext], Any] | None = None,
    dice_reader: bool = False,
    screenshots: Path | None = None,
    seed: int = 7,
) -> Headless:
    """A running companion on a plain surface; ``first(ctx)`` makes the first scene."""
    pygame.display.init()
    pygame.font.init()
    events: queue.Queue[Any] = queue.Queue()
    config = load_config(env={"COMPANION_CONFIG": str(state / "config.toml"),
                              "COMPANION_STATE_DIR": str(state / "state")})
    factory = make_pin_factory("simulated")
    buttons = Buttons(events, config.pins, factory)
    source = SyntheticSource(seed)
    camera = CameraWorker(source, events, fps=30)
    camera.start()
    dice = start_dice_worker(camera, events) if dice_reader else None
    journal = Journal.open(":memory:")
    registry = default_registry()
    hardware = Hardware(buttons=buttons, buttons_kind="simulated", source=source, worker=camera,
                        buzzer_kind="none", pin_factory=factory, dice=dice)
    ctx = AppContext(config=config, journal=journal, registry=registry,
                     referee=Referee(journal, registry), hardware=hardware,
                     tr=Translator(language), demo=True)
    display = pygame.Surface(size)
    inputs = InputMap(size, 0, demo=True, buttons=buttons, roll=hardware.roll)
    loop = Loop(ctx, display, events=events, inputs=inputs,
                first=first(ctx) if first else None, screenshots=screenshots, present=False)
    return Headless(ctx, loop, source, display, [factory.close, journal.close, hardware.close])
