"""The confirmation strip says why the camera asks a die (``DieReading.doubt``): a real photo
read by the real reader, whose side face and unproven 1 are asked, shows one line per asked
die in the players' language, and none for the dice read for sure; the line fits the 800x480
touchscreen, a bigger window and the Docte Rat play screen's dice area."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from companion.ui import theme as th
from companion.ui.context import AppContext
from companion.ui.dice_input import WHY_LINES
from companion.ui.i18n import TABLES, Translator, placeholders
from companion.ui.intents import DiceSettled
from companion.vision.doubts import KEYS, OFFERED, SIDE
from companion.vision.observation import DiceObservation, DieReading
from tests.ui.conftest import Rig
from tests.ui.test_dice_input import FakeDice, HostScene, check_layout, shot

PHOTOS = Path(__file__).parents[1] / "vision" / "data" / "webcam-white"


def why(language: str, key: str, n: int) -> str:
    return Translator(language)(f"dice.why.{key}", n=n)


def camera_host(count: int, area: Callable[[tuple[int, int]], pygame.Rect] | None = None
                ) -> Callable[[AppContext], HostScene]:  # fmt: skip
    def first(ctx: AppContext) -> HostScene:
        ctx.hardware.dice = FakeDice()  # a dice worker runs: the strip waits for the camera
        return HostScene(ctx, count, area=area)

    return first


def offer(rig: Rig, observation: DiceObservation) -> HostScene:
    scene = rig.scene
    assert isinstance(scene, HostScene)
    rig.loop.dispatch(DiceSettled(observation, False))
    rig.step()
    return scene


def test_a_real_side_face_and_an_unproven_one_say_why_they_are_asked(
    make_rig: Callable[..., Rig]
) -> None:
    """train_dice_42: the front face of a die whose top shows a 1 is read as a 5 and asked as
    a side face; a 1 whose die body the pips did not prove is offered by the face model. Each
    gets its line; the four dice read for sure get none; a confirmed die's line goes."""
    import cv2

    from companion.vision.dice import read_pips

    photo = read_pips(cv2.imread(str(PHOTOS / "side-faces" / "train_dice_42.jpg")))

    def at(x: float, y: float) -> DieReading:
        return min(photo.dice, key=lambda d: math.hypot(d.x - x, d.y - y))

    front, lone = at(448, 141), at(298, 97)  # the front face of the right die, the 1 at top
    assert (front.value, front.uncertain, front.doubt) == (5, True, SIDE)
    assert (lone.value, lone.uncertain, lone.doubt) == (1, True, OFFERED)
    assert all(d.doubt == "" for d in photo.dice if not d.uncertain)
    assert all(d.doubt in KEYS for d in photo.dice if d.uncertain)

    # these two alone asked: each has its line, the dice read for sure none
    rig = make_rig(first=camera_host(len(photo.dice)), language="en")
    scene = offer(rig, DiceObservation(
        "pips", tuple(d if d in (front, lone) else dataclasses.replace(d, uncertain=False,
                                                                        doubt="")
                      for d in photo.dice), photo.width, photo.height))
    order = [s.reading for s in scene.dice.slots]  # the strip's order: left to right
    side = next(i for i, r in enumerate(order) if r is not None and r.doubt == SIDE) + 1
    found = next(i for i, r in enumerate(order) if r is not None and r.doubt == OFFERED) + 1
    text = rig.text()
    assert why("en", SIDE, side) in text
    assert why("en", OFFERED, found) in text
    for n in set(range(1, len(order) + 1)) - {side, found}:
        assert f"Die {n}:" not in text
    assert "framed in red" not in text  # the reasons stand for the general instruction

    rig.tap_button(f"dice:tile:{side - 1}")  # the players lay it flat and confirm it: a 1
    rig.tap_button("dice:key:1")
    text = rig.text()
    assert why("en", SIDE, side) not in text
    assert why("en", OFFERED, found) in text


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_die_read_for_sure_has_no_reason_and_an_unexplained_doubt_the_usual_line(
    make_rig: Callable[..., Rig], language: str
) -> None:
    rig = make_rig(first=camera_host(2), language=language)
    offer(rig, DiceObservation("pips", (DieReading(3, 100, 200, 0.97, False, 60.0),
                                        DieReading(5, 400, 200, 0.97, False, 60.0)), 640, 480))
    text = rig.text()
    assert not any(why(language, key, n) in text for key in KEYS for n in (1, 2))
    # a reader that did not say why (an older journal's roll, a test's reading): the strip
    # asks as before
    rig.scene.dice.reset()  # type: ignore[attr-defined]
    offer(rig, DiceObservation("pips", (DieReading(3, 100, 200, 0.97, False, 60.0),
                                        DieReading(5, 400, 200, 0.5, True, 60.0)), 640, 480))
    text = rig.text()
    assert Translator(language)("dice.check_doubt") in text
    assert not any(why(language, key, 2) in text for key in KEYS)


def test_more_asked_dice_than_lines_say_why_for_the_first_and_the_next_once_confirmed(
    make_rig: Callable[..., Rig]
) -> None:
    dice = tuple(DieReading(v, 80 + 120 * v, 200, 0.5, True, 50.0, doubt=SIDE)
                 for v in range(1, WHY_LINES + 2))
    rig = make_rig(first=camera_host(len(dice)), language="en")
    offer(rig, DiceObservation("pips", dice, 640, 480))
    text = rig.text()
    for n in range(1, WHY_LINES + 1):
        assert why("en", SIDE, n) in text
    last = why("en", SIDE, WHY_LINES + 1)
    assert last not in text
    rig.tap_button("dice:tile:0")  # one confirmed: the next asked die says why
    rig.tap_button("dice:key:1")
    text = rig.text()
    assert why("en", SIDE, 1) not in text
    assert last in text


def test_an_unknown_reason_reads_as_the_camera_being_unsure(
    make_rig: Callable[..., Rig]
) -> None:
    rig = make_rig(first=camera_host(1), language="fr")
    offer(rig, DiceObservation("pips", (DieReading(4, 300, 200, 0.5, True, 60.0,
                                                   doubt="a key from a newer reader"),), 640, 480))
    assert why("fr", "other", 1) in rig.text()


def test_every_reason_has_its_words_in_both_languages() -> None:
    for key in KEYS:
        for table in TABLES.values():
            assert placeholders(table[f"dice.why.{key}"]) == {"n"}, key


def docte_rat_area(size: tuple[int, int]) -> pygame.Rect:
    """The Docte Rat play screen's dice area (right of the Bulletins, under the prompt)."""
    k = size[1] / 480
    return pygame.Rect(round(300 * k), round(210 * k), round(474 * k), round(250 * k))


@pytest.mark.parametrize("size,language,compact", [
    ((800, 480), "fr", False), ((800, 480), "en", False), ((1280, 720), "fr", False),
    ((800, 480), "fr", True), ((800, 480), "en", True), ((1280, 720), "fr", True),
])
def test_the_reasons_fit_the_screen_with_the_camera_picture(
    make_rig: Callable[..., Rig], size: tuple[int, int], language: str, compact: bool
) -> None:
    """Two asked dice, the longest reasons of each language, over the synthetic camera's
    picture: every button stays on the screen and big enough, the lines are drawn (the first
    die's only in the play screen's short area), the picture keeps most of its room
    (screenshots in $DICE_SHOTS to look at)."""
    rig = make_rig(camera=True, size=size, language=language,
                   first=camera_host(2, docte_rat_area if compact else None))
    rig.wait_for_frame()
    rig.step()
    assert rig.source is not None
    tr = Translator(language)
    longest = sorted(KEYS, key=lambda k: -len(tr(f"dice.why.{k}", n=1)))
    truth = sorted(rig.source.truth, key=lambda d: d.x)[:2]
    dice = tuple(DieReading(d.value, d.x, d.y, 0.5, True, d.size, doubt=longest[i])
                 for i, d in enumerate(truth))
    w, h = rig.source.size
    scene = offer(rig, DiceObservation("pips", dice, w, h))
    check_layout(rig)
    text = rig.text()
    assert why(language, longest[0], 1) in text
    assert (why(language, longest[1], 2) in text) is not compact
    head, main, _bar = scene.dice._parts()
    assert main.height >= 0.45 * scene.dice.rect.height  # the picture keeps its room
    # the lines are drawn in the status line's place, in the asked dice's red
    red = sum(
        1 for x in range(head.left, head.right, 2) for y in range(head.top, head.bottom, 2)
        if sum(abs(a - b) for a, b in zip(rig.display.get_at((x, y))[:3], th.DANGER,
                                          strict=True)) < 30
    )  # fmt: skip
    assert red > 0.02 * head.width * head.height / 4
    shot(rig, f"why-{'play' if compact else 'full'}")
