"""The dice input on the touchscreen: the manual pad, the camera path with a real DiceWorker
over the synthetic camera (a demo roll is read by the real pips reader and offered with the
values the synthetic camera rendered), the confirmation strip (uncertain dice, corrections,
the auto-accept countdown, YES), and the messages when the camera is missing or fails."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.devices.events import ButtonName
from companion.ui.context import AppContext
from companion.ui.dice_input import AUTO_ACCEPT, DiceInput, DiceResult
from companion.ui.intents import (
    CameraFailed,
    DiceMoving,
    DiceSettled,
    InputMap,
    Press,
    RollRequested,
    UIIntent,
    VisionTrouble,
    to_intent,
)
from companion.ui.scenes.base import Scene
from companion.ui.widgets import Button, draw_background
from companion.vision.observation import DiceObservation, DieReading
from tests.ui.conftest import Rig, mean_colour

SHOTS = Path(os.environ.get("DICE_SHOTS", "/tmp/shots-dice"))


class HostScene(Scene):
    """A scene that embeds a DiceInput the way the game scenes do."""

    name = "dice-host"

    def __init__(self, ctx: AppContext, count: int = 2,
                 area: Callable[[tuple[int, int]], pygame.Rect] | None = None) -> None:
        super().__init__(ctx)
        self.dice = DiceInput(ctx, count, prompt="")
        self.results: list[DiceResult] = []
        self.area = area

    def layout_state(self) -> object:
        return self.dice.layout_state()

    def build(self, size: tuple[int, int]) -> None:
        m = self.u(16)
        rect = self.area(size) if self.area else pygame.Rect(m, m, size[0] - 2 * m,
                                                             size[1] - 2 * m)
        self.dice.build(rect, self)

    def _took(self, result: DiceResult | None) -> None:
        if result is not None:
            self.results.append(result)

    def handle(self, intent: UIIntent) -> Scene | None:
        self._took(self.dice.handle(intent))
        return super().handle(intent)

    def on_button(self, button: Button) -> Scene | None:
        if button.key.startswith("dice:"):
            self._took(self.dice.on_button(button))
        return None

    def update(self, dt: float) -> Scene | None:
        self._took(self.dice.update(dt))
        return None

    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        self.dice.draw(surface)
        self.buttons.draw(surface, self.ctx.theme, self.ctx.now())


def host(make_rig: Callable[..., Rig], count: int = 2, **kw: Any) -> tuple[Rig, HostScene]:
    rig = make_rig(first=lambda ctx: HostScene(ctx, count), **kw)
    scene = rig.scene
    assert isinstance(scene, HostScene)
    return rig, scene


def reading(value: int, x: float, y: float, uncertain: bool = False) -> DieReading:
    return DieReading(value, x, y, 0.6 if uncertain else 0.97, uncertain, 60.0)


def obs(*dice: DieReading) -> DiceObservation:
    return DiceObservation("pips", tuple(dice), 640, 480)


def shot(rig: Rig, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    w, h = rig.display.get_size()
    pygame.image.save(rig.display, str(SHOTS / f"{name}-{w}x{h}-{rig.ctx.tr.language}.png"))


def keys(rig: Rig) -> list[str]:
    return [b.key for b in rig.scene.buttons]


class FakeDice:
    """Stands for a running DiceWorker where only its presence matters."""

    def stop(self) -> None:
        pass


def with_fake_worker(ctx: AppContext) -> HostScene:
    ctx.hardware.dice = FakeDice()
    return HostScene(ctx)


# -- the manual pad ---------------------------------------------------------------------------
@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_no_camera_shows_the_pad_with_a_message_and_taps_give_a_manual_result(
    make_rig: Callable[..., Rig], size: tuple[int, int]
) -> None:
    rig, scene = host(make_rig, size=size)
    assert scene.dice.mode == "pad"
    assert "saisissez-les à la main" in rig.text()
    for v in range(1, 7):
        b = scene.buttons.get(f"dice:key:{v}")
        assert b is not None and b.rect.width >= 48 * size[1] / 480 - 1
    assert not scene.buttons.get("dice:ok").enabled  # type: ignore[union-attr]
    shot(rig, "pad-empty")
    rig.tap_button("dice:key:5")
    rig.tap_button("dice:key:2")
    assert scene.results == []
    assert scene.dice.busy
    assert [s.value for s in scene.dice.slots] == [5, 2]
    shot(rig, "pad-full")
    rig.tap_button("dice:ok")
    assert scene.results == [DiceResult((5, 2), "manual", False)]
    assert not scene.dice.busy


def test_pad_slot_can_be_retyped_and_no_erases_and_yes_accepts(
    make_rig: Callable[..., Rig]
) -> None:
    rig, scene = host(make_rig, language="en")
    rig.tap_button("dice:key:3")
    rig.tap_button("dice:key:4")
    rig.tap_button("dice:tile:0")  # choose the first die again
    rig.tap_button("dice:key:6")
    assert [s.value for s in scene.dice.slots] == [6, 4]
    rig.loop.dispatch(Press(ButtonName.NO))  # erases the last die
    rig.step()
    assert [s.value for s in scene.dice.slots] == [6, None]
    rig.loop.dispatch(Press(ButtonName.YES))  # not complete: nothing taken
    rig.step()
    assert scene.results == []
    rig.tap_button("dice:key:1")
    rig.loop.dispatch(Press(ButtonName.YES))
    rig.step()
    assert scene.results == [DiceResult((6, 1), "manual", False)]


def test_pad_draws_the_entered_values_as_pips(make_rig: Callable[..., Rig]) -> None:
    rig, scene = host(make_rig)
    tile = scene.buttons.get("dice:tile:0")
    assert tile is not None
    empty = rig.display.subsurface(tile.rect).copy()
    rig.tap_button("dice:key:6")
    tile = scene.buttons.get("dice:tile:0")
    assert tile is not None
    # a six: the ivory face with dark pips, the left pip column dark, the centre column light
    face = tile.rect.inflate(-tile.rect.width // 3, -tile.rect.height // 3)
    assert mean_colour(rig.display, face)[0] > 150
    before = mean_colour(empty, pygame.Rect(0, 0, *tile.rect.size))
    assert before[0] < 120
    side = min(tile.rect.width, tile.rect.height - tile.rect.height * 22 // 100)
    cx, cy = tile.rect.centerx, tile.rect.y + (tile.rect.height - tile.rect.height * 22 // 100) // 2
    step = round(side * 0.8 * 0.27)
    assert sum(rig.display.get_at((cx - step, cy))[:3]) < 200  # a pip
    assert sum(rig.display.get_at((cx, cy))[:3]) > 500  # no pip in the middle of a six


# -- the strip, with readings given directly ----------------------------------------------------
def test_settled_roll_is_offered_and_auto_accepted_after_the_countdown(
    make_rig: Callable[..., Rig]
) -> None:
    rig = make_rig(first=with_fake_worker)
    scene = rig.scene
    assert isinstance(scene, HostScene)
    assert scene.dice.mode == "camera"
    rig.loop.dispatch(DiceMoving())
    rig.step()
    assert "Les dés roulent" in rig.text()
    rig.loop.dispatch(DiceSettled(obs(reading(4, 400, 200), reading(2, 100, 300)), False))
    rig.step()
    assert scene.dice.busy
    assert [s.value for s in scene.dice.slots] == [2, 4]  # left to right on the table
    assert scene.dice.countdown == pytest.approx(AUTO_ACCEPT)
    rig.clock.advance(AUTO_ACCEPT - 0.1)
    rig.step()
    assert scene.results == []
    rig.clock.advance(0.2)
    rig.step()
    assert scene.results == [DiceResult((2, 4), "camera", False)]
    assert "2 + 4 = 6" in rig.text()


def test_uncertain_die_blocks_acceptance_until_confirmed(make_rig: Callable[..., Rig]) -> None:
    rig = make_rig(first=with_fake_worker)
    scene = rig.scene
    assert isinstance(scene, HostScene)
    rig.loop.dispatch(DiceSettled(obs(reading(3, 100, 200), reading(5, 400, 200, True)), False))
    rig.step()
    assert scene.dice.countdown is None
    ok = scene.buttons.get("dice:ok")
    assert ok is not None and not ok.enabled
    rig.clock.advance(10)
    rig.loop.dispatch(Press(ButtonName.YES))
    rig.step()
    rig.tap_button("dice:ok")
    assert scene.results == []
    assert "encadré de rouge" in rig.text()
    tile = scene.buttons.get("dice:tile:1")
    assert tile is not None
    # the doubtful tile has a red border
    border = rig.display.get_at((tile.rect.centerx, tile.rect.y + 1))[:3]
    assert border[0] > 180 and border[1] < 120
    rig.tap_button("dice:tile:1")
    assert "Dé 2" in rig.text()
    rig.tap_button("dice:key:5")  # confirms the value the camera read
    assert scene.dice.can_accept
    rig.loop.dispatch(Press(ButtonName.YES))
    rig.step()
    assert scene.results == [DiceResult((3, 5), "camera", False)]


def test_correction_changes_the_value_and_marks_the_result_corrected(
    make_rig: Callable[..., Rig]
) -> None:
    rig = make_rig(first=with_fake_worker, language="en")
    scene = rig.scene
    assert isinstance(scene, HostScene)
    rig.loop.dispatch(DiceSettled(obs(reading(3, 100, 200), reading(5, 400, 200)), False))
    rig.step()
    rig.tap_button("dice:tile:0")
    assert scene.dice.countdown is None  # no auto-accept while a die is being corrected
    rig.clock.advance(AUTO_ACCEPT * 2)
    rig.step()
    assert scene.results == []
    rig.tap_button("dice:key:1")
    assert scene.dice.countdown == pytest.approx(AUTO_ACCEPT)
    rig.tap_button("dice:ok")
    assert scene.results == [DiceResult((1, 5), "camera", True)]


def test_wrong_number_of_dice_is_said_and_can_be_fixed(make_rig: Callable[..., Rig]) -> None:
    rig = make_rig(first=with_fake_worker, language="en")
    scene = rig.scene
    assert isinstance(scene, HostScene)
    rig.loop.dispatch(DiceSettled(obs(reading(6, 300, 200)), False))
    rig.step()
    assert "Dice seen: 1 of 2" in rig.text()
    assert [s.value for s in scene.dice.slots] == [6, None]
    assert not scene.dice.can_accept
    rig.tap_button("dice:tile:0")
    rig.tap_button("dice:key:6")
    rig.tap_button("dice:tile:1")
    rig.tap_button("dice:key:2")
    rig.tap_button("dice:ok")
    assert scene.results == [DiceResult((6, 2), "camera", True)]

    scene.dice.reset()
    rig.loop.dispatch(DiceSettled(obs(reading(1, 100, 100), reading(2, 300, 100),
                                      reading(3, 500, 100)), False))
    rig.step()
    assert "3 dice seen, 2 needed" in rig.text()
    assert all(s.doubt for s in scene.dice.slots)
    rig.tap_button("dice:hand")  # or enter them by hand
    assert scene.dice.mode == "pad"
    rig.tap_button("dice:key:4")
    rig.tap_button("dice:key:4")
    rig.tap_button("dice:ok")
    assert scene.results[-1] == DiceResult((4, 4), "manual", False)


def test_knocked_die_from_the_worker_updates_the_strip(make_rig: Callable[..., Rig]) -> None:
    rig = make_rig(first=with_fake_worker, language="en")
    scene = rig.scene
    assert isinstance(scene, HostScene)
    rig.loop.dispatch(DiceSettled(obs(reading(3, 100, 200), reading(5, 400, 200, True)), False))
    rig.step()
    rig.tap_button("dice:tile:1")
    rig.tap_button("dice:key:5")  # the player confirmed die 2
    rig.loop.dispatch(DiceMoving())
    rig.loop.dispatch(DiceSettled(obs(reading(4, 130, 220), reading(5, 400, 200)), True))
    rig.step()
    assert [s.value for s in scene.dice.slots] == [4, 5]
    assert "A die moved" in rig.text()
    rig.loop.dispatch(Press(ButtonName.YES))
    rig.step()
    assert scene.results == [DiceResult((4, 5), "camera", False)]


@pytest.mark.parametrize("intent", [VisionTrouble("reader crashed"),
                                    CameraFailed("camera unplugged")])
def test_camera_or_vision_trouble_shows_a_message_and_the_pad(
    make_rig: Callable[..., Rig], intent: VisionTrouble | CameraFailed
) -> None:
    rig = make_rig(first=with_fake_worker, language="en")
    scene = rig.scene
    assert isinstance(scene, HostScene)
    assert "dice:key:1" not in keys(rig)
    rig.loop.dispatch(intent)
    rig.step()
    assert scene.dice.mode == "pad"
    assert "dice:key:1" in keys(rig)
    text = rig.text()
    assert intent.message in text
    assert "by hand" in text
    rig.tap_button("dice:camera")  # back to the camera with one tap
    assert scene.dice.mode == "camera"


# -- the mapping of the worker's events -----------------------------------------------------------
def test_input_map_turns_dice_worker_events_into_intents() -> None:
    from companion.vision.settle import DiceMoving as WorkerMoving
    from companion.vision.settle import DiceRolled, Roll, VisionProblem

    inputs = InputMap((800, 480))
    o = obs(reading(2, 10, 10))
    assert to_intent(WorkerMoving(1.0), inputs) == DiceMoving()
    assert to_intent(DiceRolled(Roll(1, o, 0.0, 0.4, 3), 0.5), inputs) == DiceSettled(o, False)
    knocked = DiceRolled(Roll(2, o, 0.0, 0.4, 3, correction_of=1, changed=(0,)), 0.5)
    assert to_intent(knocked, inputs) == DiceSettled(o, True)
    assert to_intent(VisionProblem("no light", 1.0), inputs) == VisionTrouble("no light")


# -- end to end: the synthetic camera, the real worker and reader --------------------------------
def wait_until(rig: Rig, done: Callable[[], bool], timeout: float = 8.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rig.step()
        if done():
            return True
        time.sleep(0.01)
    return done()


def start_dice_worker(rig: Rig) -> Any:
    from companion.vision.dice import read_pips
    from companion.vision.worker import DiceWorker

    worker = DiceWorker(read_pips, rig.events, camera=rig.ctx.hardware.worker)
    rig.ctx.hardware.dice = worker
    worker.start()
    return worker


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_demo_roll_is_read_by_the_real_pipeline_and_offered(
    make_rig: Callable[..., Rig], size: tuple[int, int]
) -> None:
    rig = make_rig(camera=True, size=size, first=lambda ctx: HostScene(ctx))
    start_dice_worker(rig)
    scene = rig.scene
    assert isinstance(scene, HostScene)
    scene.dice.reset()
    rig.wait_for_frame()
    # the dice lying there at start are reported once: wait for that, then roll
    wait_until(rig, lambda: scene.dice.phase == "confirm", 5)
    assert rig.source is not None
    rig.loop.dispatch(to_intent_key_r(rig))
    rig.step()
    assert scene.dice.phase in ("moving", "confirm")
    truth = sorted(rig.source.truth, key=lambda d: d.x)
    assert wait_until(rig, lambda: scene.dice.phase == "confirm"
                      and [s.read for s in scene.dice.slots] == [d.value for d in truth])
    shot(rig, "camera-confirm")
    # the outline of the first die is drawn where that die lies on the preview
    first = scene.dice.slots[0]
    assert first.reading is not None
    box = scene.dice.die_box(first.reading)
    edge = rig.display.get_at((box.centerx, box.bottom - 1))[:3]
    assert edge[1] > 150 and edge[0] < 150  # the green "read" outline
    assert box.collidepoint(scene.dice.to_preview(truth[0].x, truth[0].y))
    # ... and a die is really drawn there: a white face with dark pips inside the outline
    inner = box.inflate(-box.width // 3, -box.height // 3)
    levels = [sum(rig.display.get_at((x, y))[:3]) for x in range(inner.left, inner.right)
              for y in range(inner.top, inner.bottom)]
    assert max(levels) > 680 and min(levels) < 250
    if not any(s.doubt for s in scene.dice.slots):
        rig.clock.advance(AUTO_ACCEPT + 0.1)
        rig.step()
        assert scene.results[-1] == DiceResult(tuple(d.value for d in truth), "camera", False)


def to_intent_key_r(rig: Rig) -> UIIntent:
    event = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_r, mod=0)
    intent = to_intent(event, rig.loop.inputs)
    assert intent == RollRequested()
    return intent


# -- every state, as the players see it ----------------------------------------------------------
def truth_observation(rig: Rig, doubt: int | None = None) -> DiceObservation:
    assert rig.source is not None
    dice = tuple(DieReading(d.value, d.x, d.y, 0.9, i == doubt, d.size)
                 for i, d in enumerate(rig.source.truth))
    w, h = rig.source.size
    return DiceObservation("pips", dice, w, h)


def check_layout(rig: Rig) -> None:
    from companion.ui.widgets import rects_overlap

    unit = rig.ctx.theme.unit(rig.display.get_size())
    dice_buttons = [b for b in rig.scene.buttons if b.key.startswith("dice:")]
    keys_ = [b.rect for b in dice_buttons if b.key.startswith("dice:key:")]
    others = [b.rect for b in dice_buttons if not b.key.startswith("dice:key:")]
    assert not rects_overlap(keys_) and not rects_overlap(others)
    screen = rig.display.get_rect()
    for b in dice_buttons:
        assert screen.contains(b.rect), b.key
        assert min(b.rect.size) >= 48 * unit - 1, (b.key, b.rect)


@pytest.mark.parametrize("size,language", [((800, 480), "fr"), ((1280, 720), "fr"),
                                           ((800, 480), "en"), ((1280, 720), "en")])
def test_tour_of_the_states(
    make_rig: Callable[..., Rig], size: tuple[int, int], language: str
) -> None:
    def first(ctx: AppContext) -> HostScene:
        ctx.hardware.dice = FakeDice()
        return HostScene(ctx)

    rig = make_rig(camera=True, size=size, language=language, first=first)
    scene = rig.scene
    assert isinstance(scene, HostScene)
    rig.wait_for_frame()
    rig.step()
    check_layout(rig)
    shot(rig, "1-wait")
    rig.loop.dispatch(DiceMoving())
    rig.step()
    shot(rig, "2-moving")
    rig.loop.dispatch(DiceSettled(truth_observation(rig, doubt=1), False))
    rig.step()
    check_layout(rig)
    shot(rig, "3-doubt")
    rig.tap_button("dice:tile:1")
    check_layout(rig)
    shot(rig, "4-edit")
    rig.tap_button("dice:key:6")
    rig.clock.advance(1.0)
    rig.step()
    shot(rig, "5-countdown")
    rig.clock.advance(AUTO_ACCEPT)
    rig.step()
    assert scene.results and scene.results[0].values[1] == 6
    shot(rig, "6-done")
    scene.dice.reset()
    obs3 = truth_observation(rig)
    extra = DieReading(2, 40, 40, 0.5, False, obs3.dice[0].size)
    rig.loop.dispatch(DiceSettled(DiceObservation("pips", (*obs3.dice, extra), obs3.width,
                                                  obs3.height), False))
    rig.step()
    check_layout(rig)
    shot(rig, "7-too-many")
    rig.tap_button("dice:again")
    assert scene.dice.phase == "wait"
    rig.loop.dispatch(VisionTrouble("OpenCV is missing"))
    rig.step()
    check_layout(rig)
    shot(rig, "8-trouble-pad")


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_a_small_area_keeps_touch_targets_big_enough(
    make_rig: Callable[..., Rig], size: tuple[int, int]
) -> None:
    """The Docte Rat play scene gives the dice the right part of the screen under its prompt
    (about 470 x 250 at 800x480)."""
    def area(s: tuple[int, int]) -> pygame.Rect:
        k = s[1] / 480
        return pygame.Rect(round(300 * k), round(210 * k), round(474 * k), round(250 * k))

    def first(ctx: AppContext) -> HostScene:
        return HostScene(ctx, area=area)

    rig = make_rig(size=size, first=first, language="en")
    check_layout(rig)
    shot(rig, "small-pad")
    scene = rig.scene
    assert isinstance(scene, HostScene)
    rig.tap_button("dice:key:3")
    rig.tap_button("dice:key:1")
    rig.tap_button("dice:ok")
    assert scene.results == [DiceResult((3, 1), "manual", False)]
    for b in scene.buttons:
        assert area(size).contains(b.rect), b.key


def test_vision_trouble_keeps_a_roll_on_offer_and_is_remembered_for_next_turns(
    make_rig: Callable[..., Rig]
) -> None:
    rig = make_rig(first=with_fake_worker, language="en")
    scene = rig.scene
    assert isinstance(scene, HostScene)
    rig.loop.dispatch(DiceSettled(obs(reading(3, 100, 200), reading(5, 400, 200)), False))
    rig.loop.dispatch(VisionTrouble("dice reader failed"))
    rig.step()
    assert scene.dice.mode == "camera" and scene.dice.busy  # the read roll is still offered
    assert "dice reader failed" in rig.text()
    rig.loop.dispatch(Press(ButtonName.YES))
    rig.step()
    assert scene.results == [DiceResult((3, 5), "camera", False)]
    scene.dice.reset()  # the next turn: the worker will not repeat its message
    rig.step()
    assert scene.dice.mode == "pad" and "dice reader failed" in rig.text()
    rig.tap_button("dice:camera")
    scene.dice.reset()
    rig.step()
    assert scene.dice.mode == "camera"
