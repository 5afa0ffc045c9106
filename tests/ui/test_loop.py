"""The loop: rotation, failsafe, keyboard emulation through gpiozero, screenshots, quitting."""

from __future__ import annotations

import logging
from pathlib import Path

import pygame

from companion.devices.events import ButtonAction, ButtonEvent, ButtonName
from companion.ui.intents import Press, Quit, Tap, UIIntent
from companion.ui.scenes.base import Scene
from companion.ui.scenes.failsafe import FailsafeScene
from companion.ui.scenes.home import HomeScene
from companion.ui.scenes.settings import SettingsScene

RED = (255, 0, 0)


class Marker(Scene):
    """Draws one red pixel at the top-left corner and remembers the intents it got."""

    name = "marker"

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self.got: list[UIIntent] = []

    def handle(self, intent: UIIntent) -> Scene | None:
        self.got.append(intent)
        return None

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill((0, 0, 0))
        surface.set_at((0, 0), RED)


class Exploding(Scene):
    name = "exploding"

    def __init__(self, ctx, where: str) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self.where = where

    def handle(self, intent: UIIntent) -> Scene | None:
        if self.where == "handle" and isinstance(intent, Tap):
            raise ZeroDivisionError("secret internals")
        return None

    def update(self, dt: float) -> Scene | None:
        if self.where == "update":
            raise KeyError("secret internals")
        return None

    def draw(self, surface: pygame.Surface) -> None:
        if self.where == "draw":
            raise RuntimeError("secret internals")
        surface.fill((0, 0, 0))


def keydown(key: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0)


def test_rotation_180_turns_the_picture_and_the_touches(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = make_rig(rotation=180, first=Marker)
    w, h = rig.display.get_size()
    assert tuple(rig.display.get_at((w - 1, h - 1)))[:3] == RED
    assert tuple(rig.display.get_at((0, 0)))[:3] == (0, 0, 0)
    # a finger on the physical top-left corner touched the drawn bottom-right one
    finger = pygame.event.Event(pygame.FINGERDOWN, x=0.0, y=0.0, touch_id=1, finger_id=0,
                                dx=0.0, dy=0.0, pressure=1.0)
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(10, 20), button=1, touch=False)
    rig.step(raw=[finger, click])
    taps = [i for i in rig.scene.got if isinstance(i, Tap)]
    assert taps == [Tap((w - 1, h - 1)), Tap((w - 11, h - 21))]


def test_without_rotation_touches_are_scaled_to_the_screen(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = make_rig(first=Marker)
    finger = pygame.event.Event(pygame.FINGERDOWN, x=0.5, y=0.25, touch_id=1, finger_id=0,
                                dx=0.0, dy=0.0, pressure=1.0)
    copy_of_finger = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(400, 120), button=1,
                                        touch=True)
    rig.step(raw=[finger, copy_of_finger])
    assert [i for i in rig.scene.got if isinstance(i, Tap)] == [Tap((400, 120))]
    assert tuple(rig.display.get_at((0, 0)))[:3] == RED


def test_demo_keys_press_the_simulated_gpio_buttons_not_the_scene(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = make_rig(first=Marker)
    rig.loop.step(0.03, [keydown(pygame.K_y)])
    # the key itself became no intent: gpiozero's callbacks queued the press and release
    queued = list(rig.events.queue)
    assert [(e.button, e.action) for e in queued if isinstance(e, ButtonEvent)] == [
        (ButtonName.YES, ButtonAction.PRESSED), (ButtonName.YES, ButtonAction.RELEASED)]
    assert not any(isinstance(i, Press) for i in rig.scene.got)
    rig.step()
    assert Press(ButtonName.YES) in rig.scene.got
    assert rig.ctx.status.presses == {ButtonName.YES: 1}
    rig.step(raw=[keydown(pygame.K_3)])
    rig.step()
    assert rig.ctx.status.last_button is ButtonName.DETECTOR


def test_q_quits_in_demo(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = make_rig(first=Marker)
    assert rig.loop.step(0.03, [keydown(pygame.K_q)]) is False
    assert not rig.loop.running


def test_escape_goes_back_outside_demo(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = make_rig(demo=False, first=SettingsScene)
    rig.step(raw=[keydown(pygame.K_ESCAPE)])
    assert rig.loop.running and isinstance(rig.scene, HomeScene)
    assert rig.loop.step(0.03, [keydown(pygame.K_q, pygame.KMOD_LCTRL)]) is False


def test_a_scene_that_raises_leads_to_the_failsafe_and_the_app_keeps_running(
    make_rig, caplog
) -> None:  # type: ignore[no-untyped-def]
    for where in ("draw", "update", "handle"):
        caplog.clear()
        with caplog.at_level(logging.ERROR):
            rig = make_rig(first=lambda ctx, w=where: Exploding(ctx, w))
            rig.tap((5, 5))
            rig.step(3)
        assert isinstance(rig.scene, FailsafeScene), where
        assert rig.loop.running and rig.loop.failures == 1
        # the player reads a calm message, never the exception
        shown = rig.text()
        assert "Continuer depuis le journal" in shown
        assert "secret internals" not in shown and "Traceback" not in shown
        # the traceback went to the log
        assert any(r.exc_info and "secret internals" in str(r.exc_info[1])
                   for r in caplog.records)
        rig.tap_button("continue")
        assert isinstance(rig.scene, HomeScene)


def test_continue_from_the_journal_rebuilds_the_referee(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = make_rig(first=lambda ctx: Exploding(ctx, "draw"))
    old = rig.ctx.referee
    rig.tap_button("continue")
    assert rig.ctx.referee is not old
    assert isinstance(rig.scene, HomeScene)


def test_screenshots_one_png_per_screen(make_rig, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    shots = tmp_path / "shots"
    rig = make_rig(screenshots=shots)
    rig.step(2)
    rig.tap_button("settings")
    rig.step(2)
    rig.tap_button("back")
    rig.loop.flush_screenshot()
    names = sorted(p.name for p in shots.glob("*.png"))
    assert names == ["001-home.png", "002-settings.png", "003-home.png"]
    image = pygame.image.load(str(shots / "001-home.png"))
    assert image.get_size() == (800, 480)


def test_run_stops_after_exit_after_seconds(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = make_rig(first=Marker)
    rig.loop.exit_after = 0.2
    assert rig.loop.run() == 0
    assert rig.loop.frames >= 3


def test_quit_intent_stops_the_loop(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = make_rig(first=Marker)
    rig.loop.dispatch(Quit())
    assert not rig.loop.running
    assert rig.loop.run() == 0
