"""Headless UI rig: the dummy SDL video driver, a real journal, simulated gpiozero buttons,
optionally the synthetic camera behind a real CameraWorker, and a Loop drawing onto a plain
surface. Time for the scenes is a fake clock the test moves."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import queue  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Iterator  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from companion.config import Config, load_config  # noqa: E402
from companion.devices.buttons import Buttons  # noqa: E402
from companion.devices.factory import make_pin_factory  # noqa: E402
from companion.devices.synthetic import SyntheticSource  # noqa: E402
from companion.devices.worker import CameraWorker  # noqa: E402
from companion.games.registry import Registry, default_registry  # noqa: E402
from companion.session.journal import Journal  # noqa: E402
from companion.session.referee import Referee  # noqa: E402
from companion.ui.context import AppContext, Hardware  # noqa: E402
from companion.ui.i18n import Translator  # noqa: E402
from companion.ui.intents import InputMap, Tap  # noqa: E402
from companion.ui.loop import Loop  # noqa: E402
from companion.ui.scenes.base import Scene  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def headless_pygame() -> Iterator[None]:
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.quit()


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@dataclass
class Rig:
    ctx: AppContext
    loop: Loop
    events: queue.Queue[Any]
    buttons: Buttons
    clock: FakeClock
    display: pygame.Surface
    source: SyntheticSource | None = None
    closers: list[Callable[[], Any]] = field(default_factory=list)

    @property
    def scene(self) -> Scene:
        return self.loop.scene

    def step(self, frames: int = 1, raw: list[Any] | None = None) -> None:
        for i in range(frames):
            self.loop.step(1 / 30, raw if i == 0 and raw is not None else [])

    def tap(self, pos: tuple[int, int]) -> None:
        self.loop.dispatch(Tap(pos))
        self.step()

    def tap_button(self, key: str) -> None:
        button = self.scene.buttons.get(key)
        assert button is not None, f"no button {key!r} on {self.scene.name}: " + ", ".join(
            b.key for b in self.scene.buttons)
        self.tap(button.rect.center)

    def text(self) -> str:
        """Everything the last frame wrote, as one string (spaces normalised)."""
        return " ".join(self.ctx.theme.drawn).replace("\u00a0", " ")

    def wait_for_frame(self, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while self.ctx.status.frames == 0 and time.monotonic() < deadline:
            self.step()
            time.sleep(0.01)
        assert self.ctx.status.frames > 0, "the camera worker sent no frame"


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return load_config(env={"COMPANION_CONFIG": str(tmp_path / "config.toml"),
                            "COMPANION_STATE_DIR": str(tmp_path / "state")})


@pytest.fixture
def make_rig(config: Config) -> Iterator[Callable[..., Rig]]:
    rigs: list[Rig] = []

    def make(
        size: tuple[int, int] = (800, 480),
        language: str = "fr",
        journal: Journal | None = None,
        registry: Registry | None = None,
        rotation: int = 0,
        camera: bool = False,
        first: Callable[[AppContext], Scene] | None = None,
        screenshots: Path | None = None,
        demo: bool = True,
    ) -> Rig:
        events: queue.Queue[Any] = queue.Queue()
        factory = make_pin_factory("simulated")
        buttons = Buttons(events, config.pins, factory)
        source = worker = None
        if camera:
            source = SyntheticSource(1)
            worker = CameraWorker(source, events, fps=30)
            worker.start()
        journal = journal or Journal.open(":memory:")
        registry = registry or default_registry()
        hardware = Hardware(buttons=buttons, buttons_kind="simulated", source=source,
                            worker=worker, buzzer_kind="none", pin_factory=factory)
        clock = FakeClock()
        ctx = AppContext(config=config, journal=journal, registry=registry,
                         referee=Referee(journal, registry), hardware=hardware,
                         tr=Translator(language), demo=demo, clock=clock)
        display = pygame.Surface(size)
        inputs = InputMap(size, rotation, demo=demo, buttons=buttons,
                          roll=hardware.roll if hardware.can_roll else None)
        loop = Loop(ctx, display, events=events, inputs=inputs, rotation=rotation,
                    first=first(ctx) if first else None, screenshots=screenshots,
                    present=False)
        rig = Rig(ctx, loop, events, buttons, clock, display, source,
                  [hardware.close, factory.close, journal.close])
        rigs.append(rig)
        rig.step()
        return rig

    yield make
    for rig in rigs:
        for close in rig.closers:
            try:
                close()
            except Exception:
                pass


def mean_colour(surface: pygame.Surface, rect: pygame.Rect) -> tuple[int, int, int]:
    r, g, b, *_ = pygame.transform.average_color(surface, rect)
    return (r, g, b)


def distinct_colours(surface: pygame.Surface, rect: pygame.Rect, step: int = 3) -> int:
    return len({tuple(surface.get_at((x, y)))
                for x in range(rect.left, rect.right, step)
                for y in range(rect.top, rect.bottom, step)})
