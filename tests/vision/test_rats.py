"""The rat-dice reader (The Rats in the Walls): each face kind, many dice, touching and turned
dice, uneven light, an empty table, a hidden die, teaching the table's own dice, and never a
certain wrong value on held-out renders."""

from __future__ import annotations

import json
import math
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.observation import DiceObservation, DieReading
from companion.vision.rat_render import (
    LIGHTINGS,
    RatStyle,
    RatTruth,
    random_scene,
    render_rat_dice,
)
from companion.vision.rats import (
    MIN_SHARP,
    RatModel,
    _along_outline,
    _Die,
    _find_dice,
    _Mark,
    _refit_square,
    _specks,
    decide_default,
    measure_face,
    read_rats,
    teach,
)

TOOLS = Path(__file__).resolve().parents[2] / "tools"
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))
from benchmark_rats import standard_model  # noqa: E402

# another dice design than the built-in rules expect: dark-grey engraved marks barely lighter
# than the wood, and the two rats merged into one shape
ENGRAVED = RatStyle(mark_colour=(62, 66, 72), rat_scale=1.1, two_layout="side", two_scale=0.85,
                    two_gap=0.3)  # fmt: skip


def match(obs: DiceObservation, truths: list[RatTruth]) -> list[DieReading | None]:
    """The reading of each die (its centre within 0.6 side of the truth), or None."""
    out: list[DieReading | None] = []
    for t in truths:
        near = [d for d in obs.dice if math.hypot(d.x - t.x, d.y - t.y) <= 0.6 * t.size]
        out.append(min(near, key=lambda d: math.hypot(d.x - t.x, d.y - t.y)) if near else None)
    return out


def assert_read(obs: DiceObservation, truths: list[RatTruth]) -> None:
    readings = match(obs, truths)
    got = [(r.value, r.uncertain) if r else None for r in readings]
    assert got == [(t.value, False) for t in truths], obs.notes
    assert len(obs.dice) == len(truths), "no ghost dice"


@pytest.mark.parametrize("value", [0, 1, 2])
@pytest.mark.parametrize("table", ["wood", "felt", "white"])
def test_each_face_kind_is_read(value: int, table: str) -> None:
    image, truths = render_rat_dice([value] * 3, seed=10 + value, table=table)
    obs = read_rats(image)
    assert obs.kind == "rats" and (obs.width, obs.height) == (640, 480)
    assert_read(obs, truths)
    assert obs.total == 3 * value
    assert all(d.confidence >= 0.9 and abs(d.size - 58) < 10 for d in obs.dice)


def test_five_dice_together() -> None:
    values = [0, 1, 2, 2, 0]
    image, truths = render_rat_dice(values, seed=7, table="board", die_px=62)
    obs = read_rats(image)
    assert_read(obs, truths)
    assert obs.total == 5 and not obs.uncertain


def test_dice_touching_face_against_face() -> None:
    s = 60.0
    positions = [(200, 200, 20), (200 + s * math.cos(math.radians(20)),
                                  200 + s * math.sin(math.radians(20)), 21),
                 (450, 330, 65)]  # fmt: skip
    image, truths = render_rat_dice([2, 1, 0], seed=3, die_px=s, positions=positions)
    assert_read(read_rats(image), truths)
    # a touching pair only (no single die to learn the size from)
    image, truths = render_rat_dice([1, 2], seed=4, die_px=s, positions=positions[:2])
    assert_read(read_rats(image), truths)


@pytest.mark.parametrize("angle", [0.0, 22.5, 45.0, 67.5, 80.0])
def test_rotated_dice(angle: float) -> None:
    positions = [(160, 150, angle), (470, 150, angle + 90), (320, 340, angle + 180)]
    image, truths = render_rat_dice([1, 2, 0], seed=int(angle), table="felt",
                                    positions=positions)  # fmt: skip
    assert_read(read_rats(image), truths)


@pytest.mark.parametrize("size, die_px", [((1280, 960), 116.0), ((320, 240), 30.0)])
def test_other_picture_sizes(size: tuple[int, int], die_px: float) -> None:
    image, truths = render_rat_dice([0, 1, 2], seed=31, size=size, die_px=die_px)
    obs = read_rats(image)
    assert (obs.width, obs.height) == size
    assert_read(obs, truths)
    assert all(abs(d.size - die_px) < 0.15 * die_px for d in obs.dice)


@pytest.mark.parametrize("lighting", ["uneven", "lamp", "dim"])
def test_uneven_light(lighting: str) -> None:
    image, truths = render_rat_dice([2, 1, 0, 1], seed=21, table="wood", lighting=lighting)
    assert_read(read_rats(image), truths)


@pytest.mark.parametrize("table", ["wood", "felt", "board", "white", "dark"])
def test_empty_table_has_no_dice(table: str) -> None:
    for lighting in ("soft", "lamp"):
        image, truths = render_rat_dice([], seed=5, table=table, lighting=lighting)
        obs = read_rats(image)
        assert truths == [] and obs.dice == () and obs.total == 0


def test_a_partly_hidden_die_is_asked_not_guessed() -> None:
    # a finger over the two-rat die
    positions = [(200, 240, 10), (440, 240, 30)]
    image, truths = render_rat_dice([2, 1], seed=8, positions=positions, cover=(200, 212, 22))
    hidden, free = match(read_rats(image), truths)
    assert hidden is not None and hidden.uncertain
    assert free is not None and (free.value, free.uncertain) == (1, False)
    # a die cut by the picture's edge
    image, truths = render_rat_dice([2, 0], seed=9, positions=[(10, 240, 30), (400, 240, 0)])
    cut, whole = match(read_rats(image), truths)
    assert cut is None or cut.uncertain
    assert whole is not None and (whole.value, whole.uncertain) == (0, False)


def test_black_dice_on_a_dark_mat_are_never_guessed() -> None:
    for seed in range(3):
        image, truths = render_rat_dice([1, 2, 0], seed=400 + seed, table="dark")
        obs = read_rats(image)
        assert all(d.uncertain for d in obs.dice)
        if not obs.dice:
            assert any("table is dark" in n for n in obs.notes)


def test_glare_on_the_varnish_is_never_read_as_a_rat() -> None:
    for seed in range(4):
        image, truths = render_rat_dice([0, 0, 1, 2], seed=300 + seed, glare=1.0)
        for t, r in zip(truths, match(read_rats(image), truths), strict=True):
            assert r is None or r.uncertain or r.value == t.value


def engraved_examples() -> list[tuple[np.ndarray, int]]:
    """Four pictures of one die per face, as the "teach your dice" screen takes them."""
    out = []
    for k in range(4):
        for v in (0, 1, 2):
            image, _ = render_rat_dice([v], seed=50_000 + 10 * k + v, style=ENGRAVED,
                                       table=("wood", "felt")[k % 2])  # fmt: skip
            out.append((image, v))
    return out


def test_teaching_reads_dice_the_defaults_doubt() -> None:
    model = teach(engraved_examples())
    before = after = 0
    marked = 0
    for seed in range(3):
        image, truths = render_rat_dice([2, 1, 0, 2, 1], seed=900 + seed, style=ENGRAVED,
                                        table=("wood", "felt", "white")[seed])  # fmt: skip
        default = match(read_rats(image), truths)
        taught = match(read_rats(image, model), truths)
        for t, d, m in zip(truths, default, taught, strict=True):
            assert m is not None and (m.value, m.uncertain) == (t.value, False)
            after += 1
            if t.value:
                marked += 1
                before += d is not None and not d.uncertain and d.value == t.value
    assert after == 15
    assert before <= marked // 2, "the built-in rules should doubt these dice"


def test_a_taught_model_survives_json() -> None:
    model = teach(engraved_examples())
    text = model.to_json()
    assert json.loads(text)["version"] == 1  # plain JSON, no pickle
    again = RatModel.from_json(text)
    assert again.to_json() == text
    assert set(again.classes) == {0, 1, 2} and again.die_size > 0
    image, _ = render_rat_dice([2, 1, 0], seed=77, style=ENGRAVED)
    assert read_rats(image, again) == read_rats(image, model)
    with pytest.raises(ValueError, match="teach the dice again"):
        RatModel.from_json(json.dumps({"version": 2}))


def test_teaching_needs_labels_and_a_die() -> None:
    with pytest.raises(ValueError, match="at least one"):
        teach([])
    image, _ = render_rat_dice([1], seed=1)
    with pytest.raises(ValueError, match="0, 1 or 2 rats, not 3"):
        teach([(image, 3)])
    empty, _ = render_rat_dice([], seed=1, table="white")
    with pytest.raises(ValueError, match="no die found"):
        teach([(empty, 0)])


def test_a_close_up_of_one_die_teaches_too() -> None:
    image, truths = render_rat_dice([1], seed=2, positions=[(320, 240, 15)], die_px=120)
    t = truths[0]
    crop = image[int(t.y - 75) : int(t.y + 75), int(t.x - 75) : int(t.x + 75)]
    model = teach([(crop, 1)])
    assert model.classes[1].mean[3] == 1.0  # one mark


def test_never_a_certain_wrong_value_on_held_out_renders() -> None:
    dice = right = 0
    for seed in range(2_000_000, 2_000_030):
        image, truths, _ = random_scene(seed)
        for t, r in zip(truths, match(read_rats(image), truths), strict=True):
            dice += 1
            if r is not None and not r.uncertain:
                assert r.value == t.value, (seed, t, r)
                right += 1
    assert right >= 0.85 * dice


def test_renders_are_reproducible_and_checked() -> None:
    a, ta = render_rat_dice([0, 1, 2], seed=11, lighting="lamp", glare=0.5)
    b, tb = render_rat_dice([0, 1, 2], seed=11, lighting="lamp", glare=0.5)
    c, _ = render_rat_dice([0, 1, 2], seed=12, lighting="lamp", glare=0.5)
    assert np.array_equal(a, b) and ta == tb and not np.array_equal(a, c)
    assert a.shape == (480, 640, 3) and a.dtype == np.uint8
    for t in ta:  # the die is dark where the truth says
        assert a[int(t.y), int(t.x)].max() < 120 or t.value > 0
    with pytest.raises(ValueError, match="0, 1 or 2 rats, not 3"):
        render_rat_dice([3], seed=0)
    with pytest.raises(ValueError, match='unknown lighting "disco"'):
        render_rat_dice([1], seed=0, lighting="disco")


def _light(image: np.ndarray, xs: tuple[int, int], ys: tuple[int, int], add: np.ndarray
           ) -> np.ndarray:  # fmt: skip
    """``image`` with ``add`` grey levels (broadcast over the box) added in a box."""
    out = image.astype(np.float32)
    out[ys[0] : ys[1], xs[0] : xs[1]] += add[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def _fading(n: int, peak: float, axis: int) -> np.ndarray:
    """A light band fading over ``n`` pixels from the outline inwards (a lit bevel)."""
    ramp = peak * (1 - np.arange(n, dtype=np.float32) / n) ** 2
    return ramp[:, None] if axis == 0 else ramp[None, :]


def test_light_along_a_blank_die_s_outline_is_rim_not_a_rat() -> None:
    # the lit rounded rim of a blank die runs into its outline and stays in a thin band along
    # it: before, "marks run into the die's edge" asked about a 1 here
    image, truths = render_rat_dice([0], seed=3, table="wood", die_px=60, lean=0.0,
                                    positions=[(320, 240, 0)])  # fmt: skip
    top, x = int(round(truths[0].y - 30)), int(truths[0].x)
    rim = _light(image, (x - 14, x + 14), (top, top + 11), _fading(11, 110, axis=0))
    assert_read(read_rats(rim), truths)


def test_rat_sized_crisp_light_at_the_outline_is_asked() -> None:
    # as big and crisp as print, touching the outline: a rat whose die outline came out too
    # small looks like this, so it must not vanish as rim
    image, truths = render_rat_dice([0], seed=3, table="wood", die_px=60, lean=0.0,
                                    positions=[(320, 240, 0)])  # fmt: skip
    top, x = int(round(truths[0].y - 30)), int(truths[0].x)
    band = _light(image, (x - 14, x + 20), (top + 3, top + 11), np.full((8, 1), 130.0))
    (r,) = match(read_rats(band), truths)
    assert r is not None and r.uncertain
    assert any("print cut off" in n for n in read_rats(band).notes)


def test_light_on_the_line_between_touching_dice_is_not_dropped() -> None:
    # two blank dice side by side, split by k-means: light on their outer outline is rim...
    positions = [(290, 220, 0), (350, 220, 0), (480, 360, 0)]
    image, truths = render_rat_dice([0, 0, 0], seed=5, table="wood", die_px=60, lean=0.0,
                                    positions=positions)  # fmt: skip
    top = 220 - 30
    outer = _light(image, (276, 304), (top, top + 11), _fading(11, 110, axis=0))
    assert_read(read_rats(outer), truths)
    # ... but light lying mostly on the split line (a guess: it may cut a rat in two) is kept
    # and judged as print; the same light on the outline is dropped
    on_outline = _Mark(1, 120.0, 0.8, 2.5, 30.0, 0.2, edge=0.3, cut=0.0, reach=0.1)
    on_cut = _Mark(1, 120.0, 0.8, 2.5, 30.0, 0.2, edge=0.3, cut=0.2, reach=0.1)
    deep = _Mark(1, 120.0, 0.8, 2.5, 30.0, 0.2, edge=0.3, cut=0.0, reach=0.3)
    assert _along_outline(on_outline)
    assert not _along_outline(on_cut) and not _along_outline(deep)


def test_print_near_a_small_die_s_edge_is_not_taken_for_rim() -> None:
    # on a die under RESOLVED pixels the print's margin is lost in the blur: one rat of a
    # pair touches the outline there (tuning seed 77 of the small set), and dropping it as
    # rim read a silent 1 for a 2
    image, truths, _ = random_scene(77, die_px=(26.0, 40.0))
    for t, r in zip(truths, match(read_rats(image), truths), strict=True):
        assert r is None or r.uncertain or r.value == t.value


def _small_never_certain_wrong(seed: int):  # type: ignore[no-untyped-def]
    """Small-set scene ``seed`` (dice of 26-40 px) read: no die certain and wrong."""
    image, truths, _ = random_scene(seed, die_px=(26.0, 40.0))
    obs = read_rats(image)
    for t, r in zip(truths, match(obs, truths), strict=True):
        assert r is None or r.uncertain or r.value == t.value
    return obs


def test_a_die_cut_from_touching_dice_must_be_die_sized() -> None:
    # two touching 32-px dice split into three pieces of 22-26 px (tuning seed 635 of the
    # small set): the piece holding the rat read a silent 0; each piece is now compared with
    # the typical die and asked
    obs = _small_never_certain_wrong(635)
    assert any("cut from touching dice of odd size" in n for n in obs.notes)


def _engraved(seed: int) -> tuple[list[int], np.ndarray, list[RatTruth]]:
    """Seed ``seed`` of the benchmark's engraved set, rendered as the benchmark does."""
    rng = np.random.default_rng([seed, 5])
    values = [int(v) for v in rng.choice([0, 0, 0, 0, 1, 2], int(rng.integers(1, 6)))]
    image, truths = render_rat_dice(
        values, seed, table=("wood", "felt", "white", "board")[int(rng.integers(0, 4))],
        lighting=LIGHTINGS[int(rng.integers(0, 4))], style=ENGRAVED,
        die_px=float(rng.uniform(45, 75)),
    )  # fmt: skip
    return values, image, truths


def test_pair_sized_crisp_light_at_the_outline_is_asked() -> None:
    # tuning seed 1219 of the benchmark's engraved set, built-in rules: a crisp band of light
    # at a two-rat die's outline was dropped as rim and the 2 read a silent 0. (The band is a
    # bright board square seen inside the outline, which also set the marks' cut above the
    # faint rats; see test_lit_table_inside_the_outline_does_not_hide_faint_print.)
    values, image, truths = _engraved(1219)
    assert 2 in values
    for t, r in zip(truths, match(read_rats(image), truths), strict=True):
        assert r is None or r.uncertain or r.value == t.value


# -- fourth pass: the light's profile across the outline, and dice joined to dark things --------
def _standard(seed: int) -> tuple[list[RatTruth], list[DieReading | None], DiceObservation]:
    """A picture of the benchmark's standard set (tuning seeds), read."""
    image, truths, _ = random_scene(seed)
    obs = read_rats(image)
    return truths, match(obs, truths), obs


def _assert_all_read_certain(seed: int) -> None:
    """Every die of standard tuning scene ``seed`` read right and certain."""
    truths, readings, obs = _standard(seed)
    assert [(r.value, r.uncertain) if r else None for r in readings] == [
        (t.value, False) for t in truths
    ], obs.notes


@pytest.mark.parametrize("seed", [119, 568])
def test_light_running_out_to_the_outline_is_read_past(seed: int) -> None:
    # a crisp, rat-sized band of light inside a die's outline that stays bright out to the
    # edge, with no dark wood between (lit table seen through the outline's corner, a lit
    # bevel): it is not print. Before, "print cut off?" asked about a blank die (119) and
    # about a one-rat die next to it (568)
    _assert_all_read_certain(seed)


def test_a_lit_rim_with_a_dark_side_face_beyond_is_still_asked() -> None:
    # a lit rim along the top face's edge with the die's dark side face beyond it (tuning seed
    # 82): dark wood lies between the light and the outline, as it would beside print, so the
    # rat-sized crisp band is still asked
    truths, readings, obs = _standard(82)
    asked = [(t.value, r.value) for t, r in zip(truths, readings, strict=True)
             if r is not None and r.uncertain]  # fmt: skip
    assert asked == [(0, 0)]
    assert any("print cut off" in n for n in obs.notes)


def test_print_with_a_margin_at_the_outline_is_asked_and_light_past_it_is_not() -> None:
    # the same crisp rat-sized band, 1 pixel inside the die's outline (dark wood between: what
    # print cut off by a too small outline looks like) and running out over the outline
    image, truths = render_rat_dice([0], seed=3, table="wood", die_px=60, lean=0.0,
                                    positions=[(320, 240, 0)])  # fmt: skip
    top, x = int(round(truths[0].y - 30)), int(truths[0].x)
    for start, asked in ((top + 1, True), (top - 2, False)):
        band = _light(image, (x - 14, x + 20), (start, start + 8), np.full((8, 1), 130.0))
        (r,) = match(read_rats(band), truths)
        assert r is not None and (r.value, r.uncertain) == (0, asked)


def test_lit_table_inside_the_outline_does_not_hide_faint_print() -> None:
    # engraved set, tuning seed 1219: a strip of a bright board square inside a two-rat die's
    # outline was the brightest "mark" and set the cut at half its height, above the faint
    # engraved rats. It runs out to the outline, so the face is measured again without it:
    # the taught model now reads the 2 (before: asked, rats not found)
    values, image, truths = _engraved(1219)
    readings = match(read_rats(image, teach(engraved_examples())), truths)
    assert [(r.value, r.uncertain) if r else None for r in readings] == [
        (t.value, False) for t in truths
    ]


@pytest.mark.parametrize("seed", [747, 762, 989])
def test_a_die_joined_to_a_shadow_or_a_line_is_read_from_its_square(seed: int) -> None:
    # a die whose dark blob takes in its shadow or a board's line is not square; the largest
    # square inside the blob is the size of the clean dice' faces and fits at one place, so
    # the face is read from it (before: "die not square", asked)
    _assert_all_read_certain(seed)


@pytest.mark.parametrize("seed", [131])
def test_a_die_not_square_is_still_asked_when_its_square_is_in_doubt(seed: int) -> None:
    # a die alone, joined to a board's square: what sticks out of the square in its blob is
    # thick and nearly as dark as the wood, so it may lie over the face. (Until the sixth
    # pass: tuning seeds 243 and 508, light cutting into a one-rat die, now read over the
    # die's hull; 137 and 567, dice alone, now read from the part as dark as their wood)
    truths, readings, obs = _standard(seed)
    odd = [(t.value, r) for t, r in zip(truths, readings, strict=True)
           if r is not None and any("not square" in n for n in obs.notes)]  # fmt: skip
    assert odd and any(r.uncertain for _, r in odd)
    for t, r in zip(truths, readings, strict=True):
        assert r is None or r.uncertain or r.value == t.value


def test_part_of_a_die_between_its_rats_on_a_black_mat_is_asked() -> None:
    # dark set, tuning seed 487: on a black mat only the wood between a two-rat die's rats
    # stood out, a small "die" with no marks read a certain 0. Light far brighter than the
    # table right against its outline (the rats) says it is part of a die: asked
    image, truths, _ = random_scene(487, tables=("dark",))
    obs = read_rats(image)
    for t, r in zip(truths, match(obs, truths), strict=True):
        assert r is None or r.uncertain or r.value == t.value
    assert any("light around the die" in n for n in obs.notes)


def _dark_bar(img: np.ndarray, cx: float, cy: float, angle: float) -> np.ndarray:
    """A bar as dark as the dice's wood (a pen, a sleeve) across a die's middle, sticking out
    about 0.4 of its side on one side."""
    m = np.zeros(img.shape[:2], np.float32)
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    corners = ((-55, -19), (25, -19), (25, 19), (-55, 19))
    pts = np.array([[cx + u * c - w * s, cy + u * s + w * c] for u, w in corners], np.float32)
    cv2.fillConvexPoly(m, np.round(pts * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    m = cv2.GaussianBlur(m, (0, 0), 0.8)
    return (img.astype(np.float32) * (1 - m[..., None]) + 22 * m[..., None]).clip(0, 255).astype(
        np.uint8)


@pytest.mark.parametrize("angle", [0, 30, 45])
@pytest.mark.parametrize("lighting", ["soft", "dim"])
def test_a_die_partly_under_something_dark_is_asked_not_refitted(angle: int, lighting: str) -> None:
    # found by review of the fourth pass: a dark bar over a die's middle makes its blob "not
    # square" with a die-sized square inside; refitting to that square read the hidden rats
    # as bare wood (a certain 0 for a 1 or a 2). What sticks out is thick and as dark as the
    # wood: it may lie over the face, so the die stays asked
    for values in ([1, 0, 0], [2, 0, 0]):
        pos = [(320, 240, angle), (150, 120, 20), (480, 360, 40)]
        img, truths = render_rat_dice(values, seed=11, table="wood", die_px=60, tilt=0.0,
                                      positions=pos, lighting=lighting)  # fmt: skip
        covered = _dark_bar(img, truths[0].x, truths[0].y, angle)
        r = match(read_rats(covered), truths)[0]
        assert r is None or r.uncertain or r.value == truths[0].value, (values, r)


def _joined(stub: tuple[int, int, int, int], stub_grey: int, die: int = 60
            ) -> tuple[_Die, np.ndarray, np.ndarray]:  # fmt: skip
    """A die's blob (a square of ``die`` px, wood grey 30) with a stub (x0, y0, x1, y1) joined
    to it, on a light table: the blob, its brightness, and the die as _find_dice makes it."""
    v = np.full((160, 200), 200, np.uint8)
    v[40:40 + die, 40:40 + die] = 30
    x0, y0, x1, y1 = stub
    v[y0:y1, x0:x1] = stub_grey
    filled = (v < 150).astype(np.uint8) * 255
    d = _Die(filled.copy(), filled.copy(), 0, 0, float((filled > 0).sum()), float(die),
             70.0, 70.0, ["not square"])  # fmt: skip
    return d, filled, v


@pytest.mark.parametrize(
    ("why", "stub", "grey", "typical", "refit"),
    [
        ("a thin shadow joined: read from the square", (100, 50, 130, 56), 120, 60.0, True),
        ("a square smaller than the clean dice: asked", (100, 50, 130, 56), 120, 80.0, False),
        ("the square slides along the blob: asked", (100, 40, 130, 100), 120, 60.0, False),
        ("something thick and dark joined: asked", (100, 45, 125, 95), 30, 60.0, False),
    ],
)
def test_the_square_refit_keeps_each_of_its_guards(
    why: str, stub: tuple[int, int, int, int], grey: int, typical: float, refit: bool
) -> None:
    die, filled, v = _joined(stub, grey)
    _refit_square(die, filled, typical, v)
    assert (die.notes == []) is refit, why
    if refit:
        assert abs(die.side - 60) < 6 and abs(die.cx - 70) < 3 and abs(die.cy - 70) < 3


# -- sixth pass: a glare cutting into a die, a soft rat beside crisp print, a dark mat ---------
@pytest.mark.parametrize("seed", [243, 508, 400])
def test_a_glare_cutting_into_a_die_is_read_over_its_hull(seed: int) -> None:
    # a glare on the varnish brightens part of the black face past the dark cut, so the die's
    # blob has a notch (and 243, 508: its rat is in the notch). The hull is a clean die's size
    # and no light carries on past it: the face is read over the hull (before: asked)
    _assert_all_read_certain(seed)


@pytest.mark.parametrize("angle", [0, 90, 225])
def test_a_finger_over_a_die_is_asked_not_read_over_its_hull(angle: int) -> None:
    # something light laid over a one-rat die from outside (a finger) makes a notch too; it
    # carries on past the die's outline, so the die is never read as a certain other value
    r, _ = _finger_over([1, 0, 0], 350, angle)
    assert r is not None and (r.uncertain or r.value == 1)


def _finger_over(values: list[int], second_x: int, angle: int):  # type: ignore[no-untyped-def]
    """Three 60 px rat dice on felt (the second at ``second_x``: 262 touches the first), a
    light finger laid over the first from ``angle``: the first die's reading and truth."""
    at = [(200, 240, 0), (second_x, 240, 0), (480, 240, 0)]
    image, truths = render_rat_dice(values, seed=1, table="felt", die_px=60, lean=0.0,
                                    positions=at)  # fmt: skip
    t = truths[0]
    dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    tip = (int(t.x + 0.15 * t.size * dx), int(t.y + 0.15 * t.size * dy))
    cv2.line(image, (int(t.x + 150 * dx), int(t.y + 150 * dy)), tip, (150, 165, 200),
             int(0.3 * t.size))  # fmt: skip
    cv2.circle(image, tip, int(0.15 * t.size), (150, 165, 200), -1)
    return match(read_rats(cv2.GaussianBlur(image, (0, 0), 1.0)), truths)[0], t


@pytest.mark.parametrize("seed", [524, 937])
def test_a_soft_rat_beside_crisp_print_is_read_as_two(seed: int) -> None:
    # a two-rat die where one rat is soft (524: a glare lies on it; 937: worn) and the other
    # is crisp print: the pair passes every other check, so it is read (before: "a blurred
    # mark", asked)
    _assert_all_read_certain(seed)


def test_two_soft_marks_are_still_asked() -> None:
    # the face of seed 937's two-rat die as measured, then with its crisp rat as soft as the
    # other and a glare on the face (what two glare spots would give): nothing on the face is
    # crisp print any more and a glare is there to make soft light, so it is asked
    image, truths, _ = random_scene(937)
    v = image.max(axis=2)
    (die,) = _find_dice(image)[0]
    face = measure_face(v, die)
    assert face.count == 2 and face.sharpness < MIN_SHARP <= face.sharpest
    assert decide_default(face)[:2] == (2, 1.0)
    value, conf, why = decide_default(replace(face, sharpest=face.sharpness, shine=True))
    assert conf < 0.9 and any("blurred" in w for w in why)


def test_on_a_dark_mat_every_die_is_asked_once_one_barely_stands_out() -> None:
    # dark set, seed 1 000 522 (the old held-out range): on a black mat only pieces of the
    # dice stood out, and a piece of wood beside a one-rat die's rat read a certain 0. Other
    # dice in the picture barely stand out from the mat, so every die found is asked
    # (since the ninth pass the pieces found there are also asked for their own shapes: pieces
    # of touching dice that are not square; the picture is asked all the same)
    image, truths, _ = random_scene(1_000_522, tables=("dark",))
    obs = read_rats(image)
    assert obs.dice and all(d.uncertain for d in obs.dice)
    assert any("dark mat" in n or "not square" in n for n in obs.notes)


@pytest.mark.parametrize("seed", [0, 137, 567])
def test_a_die_alone_joined_to_a_board_square_is_read_from_its_wood(seed: int) -> None:
    # a die alone on a printed board, its blob joined to a coloured square: no clean die says
    # how big a face is, but the part of the blob as dark as the die's wood is square and
    # gives the size; the square in the blob matches it (before: "die not square", asked)
    _assert_all_read_certain(seed)


@pytest.mark.parametrize("angle", [0, 30])
def test_a_die_alone_partly_under_something_dark_is_still_asked(angle: int) -> None:
    # the review's dark bar over a die that is alone in the picture: the bar is as dark as the
    # wood, so the wood's part is not square and gives no size: asked, never read as bare wood
    for value in (1, 2):
        img, truths = render_rat_dice([value], seed=11, table="wood", die_px=60, tilt=0.0,
                                      positions=[(320, 240, angle)])  # fmt: skip
        r = match(read_rats(_dark_bar(img, truths[0].x, truths[0].y, angle)), truths)[0]
        assert r is None or r.uncertain or r.value == value, (value, r)


@pytest.mark.parametrize("seed", [364, 779])
def test_a_die_s_own_side_face_does_not_stop_the_square_refit(seed: int) -> None:
    # a die joined to a board's dark square: what sticks out of the square in its blob is its
    # own side face, thick and dark, on the side towards the picture's centre, as far as the
    # clean dice's side faces show there; it is the die, not something over it (before: asked)
    _assert_all_read_certain(seed)


@pytest.mark.parametrize("seed", [219, 305])
def test_a_rat_whose_wood_margin_is_broken_is_still_read(seed: int) -> None:
    # a two-rat die whose second rat lies close to the edge: blur eats the thin wood between,
    # so the rat is a bay of the die's blob opening narrowly, not a hole. It reaches deep into
    # the face (as print does), so it is filled in and read (before: "one mark of odd size")
    _assert_all_read_certain(seed)


def test_a_notch_without_a_glare_is_not_read_over_the_hull() -> None:
    # small set, fresh seed 2 000 390 (found by the blind run of the sixth pass): a small
    # two-rat die (36 px) whose print cuts into its outline, no glare on it; read over its
    # hull, its two blurred rats made one mark, a certain 1. Without broad light on the face,
    # and below RESOLVED pixels, a notch is not a glare: the die stays asked
    obs = _small_never_certain_wrong(2_000_390)
    assert any("notch" in n for n in obs.notes)


# -- seventh pass: the cut at half the marks' height miscounting the rats -----------------------
def _never_certain_wrong(seed: int) -> DiceObservation:
    """Standard scene ``seed`` read: no die certain and wrong."""
    truths, readings, obs = _standard(seed)
    for t, r in zip(truths, readings, strict=True):
        assert r is None or r.uncertain or r.value == t.value, (t, r, obs.notes)
    return obs


def test_a_second_rat_under_the_cut_is_asked() -> None:
    # wide tuning seed 4 001 348: a glare lifts one rat of a pair to twice the other's height;
    # the marks are cut at half the brightest one's height, so the other rat was a speck and
    # the 2 read a certain 1. At a quarter of that height it stands out as big as a rat
    # (the small set's scene of that seed, 26-px dice, failed the same way)
    for obs in (_never_certain_wrong(4_001_348), _small_never_certain_wrong(4_001_348)):
        assert any("under the cut" in n for n in obs.notes)


def test_a_lone_rat_s_tail_or_table_light_is_not_a_second_rat() -> None:
    # one-rat dice whose quarter-height light shows the rat's tail or table light at the
    # outline (tuning 101, 635, 779, 568): still read, the lone rat's light touches the rat
    # or the region's edge
    for seed in (101, 568, 635, 779):
        _assert_all_read_certain(seed)


def test_one_rat_broken_at_its_neck_is_not_read_as_two(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:  # fmt: skip
    # wide tuning seed 4 000 382: a glare on a one-rat die; the rat's thin head and tail fell
    # under the cut between it and the body, so it was two marks of a balanced size, a
    # certain 2. The two stay one piece of light down to 0.6 of the dimmer one's peak (between
    # two printed rats the light falls to the wood or the glare's level: 0.3-0.53 on the wide
    # range's two-rat dice): asked. (The pair measured without the glare also finds the
    # second mark too small now; the face as measured before is checked too.)
    _never_certain_wrong(4_000_382)
    image, truths, _ = random_scene(4_000_382)
    monkeypatch.setattr("companion.vision.rats._pair_under_glare", lambda *a: None)
    v = image.max(axis=2)
    t = next(t for t in truths if t.value == 1)
    die = min(_find_dice(image)[0], key=lambda d: math.hypot(d.cx - t.x, d.cy - t.y))
    face = measure_face(v, die)
    assert face.count == 2 and face.joined >= 0.6
    value, conf, why = decide_default(face)
    assert conf < 0.9 and any("joined by light" in w for w in why), (value, why)


@pytest.mark.parametrize("seed", [4_000_961, 4_002_082, 4_002_470])
def test_a_pair_under_a_glare_is_measured_without_the_glare(seed: int) -> None:
    # wide tuning seeds: a glare lies on one rat of a pair; cut at half the face's contrast,
    # that rat takes in the glare's halo and the other is cut near its own peak, so the second
    # looked a third of the first ("second mark in between", asked). Measured on the light
    # narrower than the glare, both rats stand at the ink's own height and balance
    _assert_all_read_certain(seed)


def test_a_blank_reading_cut_by_light_at_the_outline_is_asked() -> None:
    # engraved set, wide tuning seed 4 001 311: a two-rat die on a blue board square; the
    # square's light seen inside the die's outline (left out as rim) set the marks' height,
    # the faint engraved rats stood under half of it and the die read a certain 0, taught or
    # not. The rats stand out at a quarter of that height, away from the outline: asked
    values, image, truths = _engraved(4_001_311)
    assert 2 in values
    for model in (None, teach(engraved_examples())):
        for t, r in zip(truths, match(read_rats(image, model), truths), strict=True):
            assert r is None or r.uncertain or r.value == t.value, (t, r)


# -- eighth pass: specks beside two rats, blurred print without a glare, two dice side by side --
@pytest.mark.parametrize("seed", [4_000_478, 3_000_000])
def test_a_speck_beside_two_rats_is_left_out(seed: int) -> None:
    # a die shows two rats at the most: a third piece of light smaller than a rat of a pair
    # (4 000 478: a rat's thin tail broken off by the cut) or, under a glare, round and lower
    # than the print (3 000 000: the glare's own peak between the rats) is not a third rat;
    # the two rats pass every pair check (before: "3 marks", asked)
    _assert_all_read_certain(seed)


def _mark(area: float, length: float, thick: float, peak: float) -> _Mark:
    return _Mark(0, area, 1.0, thick, length, 0.5, light=np.array([peak], np.float32))


@pytest.mark.parametrize(
    ("why", "third", "shine", "left_out"),
    [
        ("smaller than a rat of a pair: a speck", (0.005, 8.0, 1.5, 190.0), False, True),
        ("round, low, under a glare: the glare's peak", (0.012, 6.0, 3.0, 110.0), True, True),
        ("rat-sized and long: a third rat? asked", (0.02, 18.0, 3.0, 110.0), True, False),
        ("round and as high as the print: asked", (0.012, 6.0, 3.0, 170.0), True, False),
        ("round and low without a glare: asked", (0.012, 6.0, 3.0, 110.0), False, False),
    ],
)
def test_a_speck_keeps_each_of_its_guards(
    why: str, third: tuple[float, float, float, float], shine: bool, left_out: bool
) -> None:
    face = 60.0**2
    rats = [_mark(0.03 * face, 20.0, 3.5, 200.0), _mark(0.028 * face, 19.0, 3.5, 180.0)]
    area, length, thick, peak = third
    extra = _mark(area * face, length, thick, peak)
    assert (_specks([*rats, extra], face, shine) == [extra]) is left_out, why


# Scenes the eighth pass reads where it asked before:
# - a soft mark was asked as "a glare or a smudge?". With no broad light on the face there
#   is no glare to make one: it is print blurred like the rest of the picture, and the size
#   and shape checks judge it (3 000 447: one rat, 3 000 824: two rats, both soft). With a
#   glare on the face two soft marks are still asked (test_two_soft_marks_are_still_asked);
# - two touching dice near the picture's centre show little of their side faces; the
#   typical die, measured on dice farther out, includes theirs, so the pair's blob read 1.45
#   dice and was asked as one die "not square, larger". Twice as long as wide and of one
#   wood, it is cut in two like any touching dice (4 000 852, 2 000 179).
EIGHTH_PASS_READ = [pytest.param(3_000_447, id="soft-mark-one-rat"),
                    pytest.param(3_000_824, id="soft-marks-two-rats"),
                    pytest.param(4_000_852, id="pair-near-centre"),
                    pytest.param(2_000_179, id="pair-near-centre-b")]  # fmt: skip


@pytest.mark.parametrize("seed", EIGHTH_PASS_READ)
def test_soft_print_without_glare_and_pairs_near_the_centre_are_read(seed: int) -> None:
    _assert_all_read_certain(seed)


def test_a_die_joined_to_something_lighter_is_not_cut_in_two() -> None:
    # the same pair with one die lit 30 grey levels lighter (what a shadow or a board's dark
    # square joined to a die looks like): the halves are not one wood, the blob stays one
    # die and is asked
    image, truths, _ = random_scene(4_000_852)
    t = truths[0]
    inside = np.zeros(image.shape[:2], np.uint8)
    pts = cv2.boxPoints(((t.x, t.y), (t.size * 1.1, t.size * 1.1), t.angle))
    cv2.fillConvexPoly(inside, np.round(pts).astype(np.int32), 1)
    lit = image.astype(np.int16)
    lit[inside > 0] += 30
    obs = read_rats(lit.clip(0, 255).astype(np.uint8))
    near = [d for d in obs.dice if math.hypot(d.x - t.x, d.y - t.y) < 1.5 * t.size]
    assert len(near) == 1 and near[0].uncertain, obs.notes


@pytest.mark.parametrize("seed", [4_001_548, 6_002_062])
def test_a_glare_cutting_into_one_of_touching_dice_is_read_over_its_hull(seed: int) -> None:
    # the sixth pass's hull read, for a die cut from touching dice too: a glare on it cuts a
    # notch in its outline just as on a die alone (4 001 548: a blank die; 6 002 062: a two-rat
    # die with a rat under the glare, read "one mark of odd size" before). Asked before
    _assert_all_read_certain(seed)


@pytest.mark.parametrize("angle", [90, 180, 270])
def test_a_finger_over_one_of_touching_dice_is_never_read_as_another_value(angle: int) -> None:
    # the finger of test_a_finger_over_a_die_is_asked_not_read_over_its_hull, over a die that
    # touches another (the finger comes from the side away from it)
    for values in ([1, 0, 0], [2, 0, 0]):
        r, t = _finger_over(values, 262, angle)
        assert r is not None and (r.uncertain or r.value == t.value), (values, r)


@pytest.mark.parametrize("seed", [4_002_191, 4_002_196])
def test_on_a_dark_mat_every_die_is_asked_once_one_is_in_doubt(seed: int) -> None:
    # dark set, wide seeds (the seventh pass's "found, not fixed"): on a black mat pieces of
    # dice were found, notched or of odd size rather than faint, so the sixth pass's dark-mat
    # rule did not fire: a piece of wood read a certain 0 (4 002 191), a two-rat die found as
    # its one-rat half a certain 1 (4 002 196). Any die in doubt on a dark mat: all asked
    image, truths, _ = random_scene(seed, tables=("dark",))
    obs = read_rats(image)
    for t, r in zip(truths, match(obs, truths), strict=True):
        assert r is None or r.uncertain or r.value == t.value, (t, r)
    assert obs.dice and all(d.uncertain for d in obs.dice)


# -- ninth pass: something dark lying over part of a die, engraved print --------------------
def _dark_object_over(value: int, die_px: int, width: float, turn: int, grey: float,
                      aside: float = 0.0, table: str = "wood", lighting: str = "soft",
                      off: bool = False) -> tuple[np.ndarray, RatTruth]:  # fmt: skip
    """A die showing ``value`` (with two blank dice elsewhere) three quarters under a dark
    object (a black token, a card, a wide pen) ``width`` sides wide, turned ``turn`` degrees
    from the die, its middle ``aside`` sides off the die's centre, reaching a die's length
    past it, ``grey`` times as dark as the die's wood; the die at the picture's centre, or
    ``off`` it (down and to the right, where its side faces show)."""
    at = [(320, 240, 20), (130, 110, 10), (500, 370, 40)]
    if off:
        at = [(480, 330, 20), (130, 110, 10), (160, 380, 40)]
    img, truths = render_rat_dice([value, 0, 0], seed=11 + die_px, table=table, die_px=die_px,
                                  tilt=0.0, positions=at, lighting=lighting)  # fmt: skip
    t = truths[0]
    c, s = math.cos(math.radians(20 + turn)), math.sin(math.radians(20 + turn))
    half = width * t.size / 2
    ends = ((-0.25 * t.size, -half), (1.5 * t.size, -half), (1.5 * t.size, half),
            (-0.25 * t.size, half))  # fmt: skip
    mx, my = t.x - aside * die_px * s, t.y + aside * die_px * c
    pts = np.array([[mx + u * c - w * s, my + u * s + w * c] for u, w in ends], np.float32)
    return _painted_over(img, pts, grey * _wood_grey(img, t, die_px // 3)), t


def _wood_grey(img: np.ndarray, t: RatTruth, h: int) -> float:
    """The grey of die ``t``'s wood: the median of the darker half of the brightest channel
    within ``h`` px of its centre."""
    v = img.max(axis=2)
    patch = v[int(t.y) - h : int(t.y) + h, int(t.x) - h : int(t.x) + h]
    return float(np.median(patch[patch <= np.median(patch)]))


def _painted_over(img: np.ndarray, pts: np.ndarray, level: float) -> np.ndarray:
    """``img`` with the polygon ``pts`` painted at grey ``level``, its edge antialiased and
    blurred as a camera would see it."""
    m = np.zeros(img.shape[:2], np.float32)
    cv2.fillConvexPoly(m, np.round(pts * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    m = cv2.GaussianBlur(m, (0, 0), 0.8)[..., None]
    return (img.astype(np.float32) * (1 - m) + level * m).clip(0, 255).astype(np.uint8)


@pytest.mark.parametrize(
    ("value", "die_px", "width", "turn", "grey"),
    [
        (2, 48, 0.7, 0, 0.9),  # the object's piece is no die's size: the blob is asked
        (1, 72, 0.7, 0, 0.6),
        (2, 48, 0.7, 30, 0.9),  # (and turned to the die: see the card below)
        (1, 48, 1.0, 60, 0.9),
    ],
)
def test_a_die_partly_under_a_dark_object_is_never_a_certain_other_value(
    value: int, die_px: int, width: float, turn: int, grey: float
) -> None:
    # found in the eighth pass: the die and the dark object lying over most of it make one
    # blob of about two dice, cut in two as touching dice; the covered die's piece showed
    # bare wood and read a certain 0. A piece of touching dice must be die-sized and square,
    # and when one is not, every die cut from the blob is asked
    img, t = _dark_object_over(value, die_px, width, turn, grey)
    (r,) = match(read_rats(img), [t])
    assert r is None or r.uncertain or r.value == t.value, r


@pytest.mark.parametrize("value", [1, 2])
def test_a_card_across_a_die_is_not_taken_for_a_die_touching_it(value: int) -> None:
    # a die-wide card turned 60 degrees to the die, off its middle, on felt in dim light: both
    # pieces of the blob are about square and die-sized, but their edges are turned 14 degrees
    # to each other. Touching dice lie face against face: the die is asked
    img, t = _dark_object_over(value, 48, 1.0, 60, 0.9, aside=0.25, table="felt",
                               lighting="dim")  # fmt: skip
    (r,) = match(read_rats(img), [t])
    assert r is None or r.uncertain or r.value == t.value, r


@pytest.mark.parametrize(
    ("value", "die_px", "table", "towards", "across"),
    [
        (1, 48, "wood", 100, 1.5),
        (2, 72, "felt", 200, 1.5),
        # tenth pass: a token one side across makes one blob with the die, square and small
        # enough for one die; its top face was fitted over the token (the fit took the
        # token for side faces, 0.46 of the side, at the picture's centre where a die shows
        # none) and the one-rat die read a certain 0
        (1, 72, "wood", 0, 1.0),
        (1, 72, "felt", 0, 1.0),
    ],
)
def test_a_round_token_over_a_die_is_never_a_certain_other_value(
    value: int, die_px: int, table: str, towards: int, across: float
) -> None:
    # a black round token (a coaster) 1.5 sides across, its centre half a side from the die's:
    # cut as two touching dice, one piece is round (no die's shape): the die is asked (the
    # token one side across: see the tenth pass's cases)
    at = [(320, 240, 20), (130, 110, 10), (500, 370, 40)]
    img, truths = render_rat_dice([value, 0, 0], seed=11 + die_px, table=table, die_px=die_px,
                                  tilt=0.0, positions=at)  # fmt: skip
    t = truths[0]
    v = img.max(axis=2)
    h = die_px // 3
    patch = v[int(t.y) - h : int(t.y) + h, int(t.x) - h : int(t.x) + h]
    wood = float(np.median(patch[patch <= np.median(patch)]))
    a = math.radians(towards)
    m = np.zeros(img.shape[:2], np.float32)
    centre = (round((t.x + 0.5 * die_px * math.cos(a)) * 16),
              round((t.y + 0.5 * die_px * math.sin(a)) * 16))  # fmt: skip
    cv2.circle(m, centre, round(across / 2 * die_px * 16), 1.0, -1, cv2.LINE_AA, 4)
    m = cv2.GaussianBlur(m, (0, 0), 0.8)[..., None]
    img = (img.astype(np.float32) * (1 - m) + 0.9 * wood * m).clip(0, 255).astype(np.uint8)
    (r,) = match(read_rats(img), [t])
    assert r is None or r.uncertain or r.value == t.value, r


@pytest.fixture(scope="module")
def engraved_model() -> RatModel:
    return teach(engraved_examples())


@pytest.mark.parametrize("seed", [6_001_216, 6_002_662, 6_002_880])
def test_engraved_print_under_a_cut_set_by_table_light_is_never_a_certain_other_value(
    seed: int, engraved_model: RatModel
) -> None:
    # engraved set, wide8 (eighth pass, "found, not fixed"): a board's coloured square seen
    # inside a two-rat die's outline, off the top face's core, stood higher than the faint
    # engraved print and set the cut at half its height: the print fell under it (6 001 216,
    # a certain 0 with the built-in rules and the taught model) or only one rat's brightest
    # part stayed above it (6 002 662, 6 002 880: a certain 1). Light running out past the
    # outline no longer sets the height from off the core either, and a lone rat standing
    # under PRINT_PEAK of the height is asked
    _values, image, truths = _engraved(seed)
    for m in (None, engraved_model):
        for t, r in zip(truths, match(read_rats(image, m), truths), strict=True):
            assert r is None or r.uncertain or r.value == t.value, (m is not None, t, r)


@pytest.mark.parametrize("seed", [4_002_589, 5_000_048])
def test_table_light_off_the_core_running_out_does_not_set_the_cut(seed: int) -> None:
    # a blank die whose region takes in a strip of lit table along its outline, mostly off
    # the top face's core: that light ran out past the outline (no wood between) and set the
    # marks' height, so the wood's faint grain and the lit rim read as "one mark of odd size"
    # and the die was asked. It is left out of the height as light running out in the core
    # has been since the fourth pass: every die read certain and right
    _assert_all_read_certain(seed)


# -- tenth pass: a die-wide bar over three quarters of a die ----------------------------------
@pytest.mark.parametrize(("grey", "table", "lighting"),
                         [(0.9, "wood", "soft"), (0.6, "felt", "dim")])  # fmt: skip
def test_a_rat_s_tail_beside_a_die_wide_bar_is_asked(grey: float, table: str, lighting: str
                                                     ) -> None:  # fmt: skip
    # a dark bar exactly a die wide lying parallel over three quarters of a one-rat die: die
    # and bar make the outline of two dice face against face, and the covered die's piece
    # showed only the rat's tail, a thin crisp line deep in the face, left out as a rim's
    # sliver: a certain 0. A rim's light stays near the outline; a line that deep is print
    img, t = _dark_object_over(1, 72, 1.0, 0, grey, table=table, lighting=lighting)
    (r,) = match(read_rats(img), [t])
    assert r is None or r.uncertain or r.value == t.value, r


@pytest.mark.parametrize("seed", [739, 2_000_621])
def test_a_thin_line_near_a_blank_die_s_outline_is_still_read(seed: int) -> None:
    # blank dice with a thin line of light left out as rim, lying on the core but near the
    # outline (reaching 0.11 and 0.15 of the side into the die; the second also soft): a lit
    # rim, not a rat's tail
    truths, readings, obs = _standard(seed)
    for t, r in zip(truths, readings, strict=True):
        if t.value == 0:
            assert r is not None and (r.value, r.uncertain) == (0, False), obs.notes


# -- eleventh pass: a die's size told by a glare-notched die's hull ----------------------------
@pytest.mark.parametrize("seed", [8_000_258, 8_000_472])
def test_touching_dice_beside_a_die_with_a_glare_are_cut_in_two(seed: int) -> None:
    # blind10 (spent): two dice touching face against face and one die alone whose glare
    # cuts a notch into its blob. No blob was square, so a die's size came from the widest
    # inscribed circles, which the notch shrank: the pair was cut in three pieces, none
    # square, and every die was asked. The notched die's convex hull is square and a die's
    # size: it tells the side, the pair is cut in two, and every die is read right
    _assert_all_read_certain(seed)


@pytest.mark.parametrize(("value", "die_px", "table", "lighting"),
                         [(2, 72, "wood", "soft"), (2, 48, "felt", "dim"),
                          (2, 72, "white", "uneven")])  # fmt: skip
def test_a_die_off_the_centre_under_a_narrow_bar_is_never_a_certain_other_value(
    value: int, die_px: int, table: str, lighting: str
) -> None:
    # a dark bar 0.7 of a side wide lying parallel over three quarters of a die off the
    # picture's centre: die and bar were cut as two touching dice, both square enough and
    # die-sized (the die's side faces make its part bigger there), and the covered die read
    # a certain 0. The bar's piece steps where the bar meets the die, a notch that no glare
    # explains: a die touching another shows a die's outline all round, so the blob is asked
    img, t = _dark_object_over(value, die_px, 0.7, 0, 0.9, table=table, lighting=lighting,
                               off=True)  # fmt: skip
    (r,) = match(read_rats(img), [t])
    assert r is None or r.uncertain or r.value == t.value, r


# -- twelfth pass: a blurred die (the camera out of focus, a die still rolling) ---------------
@pytest.mark.parametrize(("seed", "sigma"), [(422, 3.2), (1129, 3.1), (734, 2.4)])
def test_a_picture_out_of_focus_is_asked_not_read_wrong(seed: int, sigma: float) -> None:
    # tuning scenes read right and certain in focus; out of focus (a Gaussian blur of 2.4-3.2
    # px over the whole picture) a two-rat or one-rat die's print was blurred into the wood
    # or into one shape and read a certain 0 or 1. The die's own outline is blurred as much:
    # its sharpest part rises far less steeply than a focused die's, so it is asked
    _assert_all_read_certain(seed)
    img, truths, _ = random_scene(seed)
    obs = read_rats(cv2.GaussianBlur(img, (0, 0), sigma))
    for t, r in zip(truths, match(obs, truths), strict=True):
        assert r is None or r.uncertain or r.value == t.value, (t, r)
    assert any(d.uncertain and d.doubt == "unclear" for d in obs.dice), obs.notes
    assert any("outline is blurred" in n for n in obs.notes)


def _rolling(img: np.ndarray, t: RatTruth, length: float, angle: float) -> np.ndarray:
    """The die ``t`` (and the table just around it) smeared ``length`` sides along
    ``angle`` degrees: the die moved while the picture was taken."""
    n = max(3, int(round(length * t.size)) | 1)
    kernel = np.zeros((n, n), np.float32)
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    for u in np.linspace(-(n - 1) / 2, (n - 1) / 2, 4 * n):
        kernel[int(round(n // 2 + u * s)), int(round(n // 2 + u * c))] += 1
    smeared = cv2.filter2D(img.astype(np.float32), -1, kernel / kernel.sum())
    ys, xs = np.mgrid[0 : img.shape[0], 0 : img.shape[1]].astype(np.float32)
    near = np.clip((1.25 * t.size - np.hypot(xs - t.x, ys - t.y)) / (0.3 * t.size), 0, 1)
    out = img * (1 - near[..., None]) + smeared * near[..., None]
    return out.clip(0, 255).astype(np.uint8)


@pytest.mark.parametrize(("seed", "length", "angle"), [(315, 0.21, 31), (587, 0.36, 92),
                                                       (741, 0.57, 162)])  # fmt: skip
def test_a_die_still_rolling_is_asked_not_read_wrong(seed: int, length: float, angle: float
                                                     ) -> None:  # fmt: skip
    # a one-rat die smeared by its own motion (a fifth to half a side) read a certain 0: its
    # rat blurred into the wood or taken for a glare. Its outline across the motion is as
    # blurred as its print: asked
    img, truths, _ = random_scene(seed)
    (t,) = truths
    (r,) = match(read_rats(_rolling(img, t, length, angle)), truths)
    assert r is None or r.uncertain or r.value == t.value, r


# -- thirteenth pass: a glare taught dice read as a rat, a sleeve's edge, a cocked die ------
def test_a_soft_glare_is_not_read_as_the_taught_print() -> None:
    # blind12 10 000 296: felt in dim light, three blank dice; a soft glare on one (its light
    # notches the outline, read over the hull) is one mark of about a rat's size. The taught
    # Gaussian found it nearest a one-rat face (its shape is out of the built-in rules' rat
    # range, so they ask): a certain 1. The taught print is crisp (0.55), the glare 0.19
    model = standard_model(10_000_296)  # taught as the benchmark's standard-taught row
    assert model.classes[1].sharp > 0.4
    again = RatModel.from_json(model.to_json())
    assert again.classes[1].sharp == pytest.approx(model.classes[1].sharp, abs=1e-4)
    img, truths, _ = random_scene(10_000_296)
    readings = match(read_rats(img, model), truths)
    for t, r in zip(truths, readings, strict=True):
        assert r is not None and (r.uncertain or r.value == t.value), (t, r)
    assert readings[0] is not None and readings[0].uncertain  # the glare's die


def _sleeve_over(img: np.ndarray, t: RatTruth, colour: tuple[int, int, int], cover: float,
                 turn: float) -> np.ndarray:
    """A sleeve (a half-plane of cloth with a slightly wavy edge and a soft shade beside it)
    lying over ``cover`` of die ``t``, coming from the side ``turn`` degrees points to."""
    h, w = img.shape[:2]
    nx, ny = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    dist = (xs - t.x) * nx + (ys - t.y) * ny - (0.5 - cover) * t.size
    dist += 0.15 * t.size * np.sin((-(xs - t.x) * ny + (ys - t.y) * nx) / (1.5 * t.size))
    cloth = cv2.GaussianBlur(np.clip(dist + 0.5, 0, 1), (0, 0), 1.0)
    shade = np.clip(-dist / (0.3 * t.size), 0, 1)
    out = img.astype(np.float32) * (1 - 0.3 * (1 - shade) * (1 - cloth))[..., None]
    weave = np.float32(colour) * (0.9 + 0.1 * np.sin(xs / 3.0 + ys / 5.0))[..., None]
    out = out * (1 - cloth[..., None]) + weave * cloth[..., None]
    return out.clip(0, 255).astype(np.uint8)


def test_a_sleeve_s_edge_over_a_die_is_not_read_over_the_hull() -> None:
    # a navy sleeve over a quarter of a one-rat die on a board under a lamp: the sleeve's
    # shaded strip joins the die's blob, the board's light between them notches it, and the
    # blob was read over its hull as a die with a glare: that light read as a second rat, a
    # certain 2. The hull of a die with a glare is the die, square; this one is long (1.5)
    spots = [(380.0, 260.0, 15.0), (150.0, 130.0, 25.0), (170.0, 380.0, 40.0)]
    img, truths = render_rat_dice([1, 0, 0], seed=55, table="board", lighting="lamp",
                                  die_px=48, tilt=0.0, positions=spots)  # fmt: skip
    img = _sleeve_over(img, truths[0], (70, 40, 30), 0.25, 0)
    r, *others = match(read_rats(img), truths)
    assert r is None or r.uncertain or r.value == truths[0].value, r
    assert [(o.value, o.uncertain) if o else None for o in others] == [(0, False), (0, False)]


def _cocked(value: int, side_value: int, tilt: float, table: str, lighting: str
            ) -> tuple[np.ndarray, RatTruth]:  # fmt: skip
    """A 72 px die showing ``value`` leaning ``tilt`` degrees on something near the picture's
    centre (turned 40 degrees): its top face foreshortened by cos(tilt), its side face
    (showing ``side_value``) squashed by sin(tilt) beside it and darker, with a shadow; two
    blank dice lie flat beside it."""
    from companion.vision.rat_render import _rounded_square

    x, y, turn, px = 330.0, 250.0, 40.0, 72.0
    pos = [(x, y, turn), (150.0, 130.0, 25.0), (170.0, 380.0, 40.0)]

    def flat(values: list[int], spots: list[tuple[float, float, float]]) -> np.ndarray:
        img, _ = render_rat_dice(values, seed=5 + int(tilt), positions=spots, table=table,
                                 lighting=lighting, die_px=px, tilt=0.0, lean=0.0)  # fmt: skip
        return img

    top, side, rest = flat([value, 0, 0], pos), flat([side_value, 0, 0], pos), flat([0, 0], pos[1:])
    u = np.array([math.cos(math.radians(turn)), math.sin(math.radians(turn))])
    c0 = np.array([x, y])
    mask = np.zeros((480, 640), np.float32)
    poly = _rounded_square(x, y, px * 1.04, 0.14 * px, turn)
    cv2.fillPoly(mask, [np.round(poly * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    ct, st = math.cos(math.radians(tilt)), math.sin(math.radians(tilt))

    def squash(a: np.ndarray, f: float, shift: float) -> np.ndarray:
        m = np.eye(2) + (f - 1) * np.outer(u, u)
        warp = np.hstack([m, (c0 - m @ c0 + shift * u)[:, None]]).astype(np.float32)
        return cv2.warpAffine(a.astype(np.float32), warp, (640, 480), flags=cv2.INTER_LINEAR)

    tf, tm = squash(top, ct, -st * px / 2), squash(mask, ct, -st * px / 2)
    sf, sm = squash(side, st, ct * px / 2) * 0.6, squash(mask, st, ct * px / 2)
    out = rest.astype(np.float32)
    shadow = cv2.GaussianBlur(np.maximum(tm, sm), (0, 0), 4)
    out *= (1 - 0.4 * np.roll(shadow, (6, 6), axis=(0, 1)))[..., None]
    out = out * (1 - sm[..., None]) + sf * sm[..., None]
    out = out * (1 - tm[..., None]) + tf * tm[..., None]
    out += np.random.default_rng(int(tilt)).standard_normal(out.shape) * 2
    t = RatTruth(value, float(x - st * px / 2 * u[0]), float(y - st * px / 2 * u[1]), px, turn)
    return out.clip(0, 255).astype(np.uint8), t


def test_a_cocked_die_near_the_centre_is_asked_not_read_from_its_side_face() -> None:
    # a blank die leaning 25 degrees on something, its two-rat side face showing beside its
    # top, near the picture's centre (white mat, uneven light): the blob fitted as one die
    # whose side faces show 0.26 of its side, and the side face's rats were read, a certain
    # 2. At the centre a die lying flat shows no side face (0.13 of its side at most, the
    # fit's own spread): a die showing more is cocked or joined to something dark
    img, t = _cocked(0, 2, 25, "white", "uneven")
    r = match(read_rats(img), [t])[0]
    assert r is None or r.uncertain or r.value == t.value, r


# -- fourteenth pass: a glare's peak beside a rat ------------------------------------------------
# blind13 11 000 124 (spent): wood in dim light, five dice of 76 px, grey print; a glare on the
# varnish beside a one-rat die's rat. The camera's noise roughens the glare's peak, so it is not
# round enough to be left out as a glare spot (elongation 1.55), and cut at half the face's
# contrast it is as big as one of two rats: a certain 2. Once light as broad as a glare is
# taken away the rat keeps its height and the glare's peak falls to 0.47 of it
GLARE_PEAK_BESIDE_A_RAT = (11_000_124, (42.0, 80.0), 1)
# blind14 12 000 031 (spent; fifteenth pass), small set: a white mat in dim light, two dice of
# 33 px, grey print, the two-rat die's small rats side by side (two_scale 0.52) with a glare on
# the varnish between them. The glare lifts the wood between the rats to about two thirds of
# the print's height, so cut at half the marks' height the two rats and the glare are one mark
# of one rat's size and shape: a certain 1. Cut higher, where only print stands, it falls into
# two pieces of one size
TWO_SMALL_RATS_JOINED_BY_A_GLARE = (12_000_031, (26.0, 40.0), 2)


@pytest.mark.parametrize(("seed", "die_px", "glared"),
                         [GLARE_PEAK_BESIDE_A_RAT, TWO_SMALL_RATS_JOINED_BY_A_GLARE])
def test_a_glare_on_a_die_asks_it_to_move_the_lamp_or_is_read_right(
        seed: int, die_px: tuple[float, float], glared: int) -> None:  # fmt: skip
    """The die with the glare (the one showing ``glared`` rats) is asked in the players'
    category "light" or read right; the dice beside it are read right and certain."""
    img, truths, _ = random_scene(seed, die_px=die_px)
    obs = read_rats(img)
    readings = match(obs, truths)
    for t, r in zip(truths, readings, strict=True):
        assert r is not None, t
        if t.value == glared:
            assert r.uncertain or r.value == glared, (r, obs.notes)
            assert r.doubt in ("", "light"), r
        else:
            assert (r.value, r.uncertain) == (t.value, False), (t, r, obs.notes)
    assert len(obs.dice) == len(truths)


# -- sixteenth pass: a die's face fitted off its print ------------------------------------------
# blind15 13 000 402 (spent), small set: a printed board in dim light, four dice of 28 px, the
# two-rat die's rats nose to tail (two_layout "tail"). A board's printed line joins the die's
# blob on the side away from the picture's centre; the face's fit took the blob's extra length
# for the side faces a die shows towards the centre and moved the face half of it away, onto
# the line: the upper rat lay off the fitted face (0.15 of it on the core), was left out as
# rim, and the lower rat alone read a certain 1. The rat left out reaches 0.31 of the side deep
# into the die, where no lit rim or side face reaches
A_FACE_FITTED_OFF_ITS_PRINT = 13_000_402


def test_a_rat_left_out_by_a_face_fitted_off_the_die_is_asked() -> None:
    """The two-rat die is asked (something joined to it: "hidden") or read 2; the three dice
    beside it are read right and certain; no ghost."""
    img, truths, _ = random_scene(A_FACE_FITTED_OFF_ITS_PRINT, die_px=(26.0, 40.0))
    obs = read_rats(img)
    readings = match(obs, truths)
    assert [t.value for t in truths] == [2, 2, 1, 1]
    for i, (t, r) in enumerate(zip(truths, readings, strict=True)):
        assert r is not None, t
        if i == 0:  # the die on the board's line
            assert r.uncertain or r.value == 2, (r, obs.notes)
            assert r.value == 2 or r.doubt == "hidden", r
        else:
            assert (r.value, r.uncertain) == (t.value, False), (t, r, obs.notes)
    assert len(obs.dice) == len(truths)


# -- seventeenth pass: a board's square on a die's fitted face sets the cut -------------------
# blind16 14 000 044 (spent), engraved set: a printed board in soft light, four dice of 58-62
# px, the two-rat die (its two rats one engraved shape) lying on a green square of the board.
# The square, darker than the dark cut against the light board, joined the die's blob (which
# stayed square and under LARGER), and the face fitted over the blob held part of the square:
# its light (80 grey levels over the wood) outshines the faint engraved print (49) and set the
# marks' height; cut at half of it, the print kept only its brightest part (0.081 of the face
# against the taught 2's 0.129) and the taught model read a certain 1 (the rat standing 0.80
# of the marks' height: print of one ink is the brightest light on a face of print alone)
A_BOARD_SQUARE_ON_THE_FACE = 14_000_044


def test_a_die_whose_cut_is_set_by_a_board_square_on_its_face_is_asked() -> None:
    """The two-rat die is asked or read 2, taught or not; the blank dice beside it are read 0
    and certain; no ghost."""
    values, image, truths = _engraved(A_BOARD_SQUARE_ON_THE_FACE)
    assert values == [0, 0, 0, 2]
    for model in (None, teach(engraved_examples())):
        obs = read_rats(image, model)
        for t, r in zip(truths, match(obs, truths), strict=True):
            assert r is not None, t
            if t.value == 2:
                assert r.uncertain or r.value == 2, (r, obs.notes)
            else:
                assert (r.value, r.uncertain) == (0, False), (t, r, obs.notes)
        assert len(obs.dice) == len(truths)


# -- eighteenth pass: a die's face fitted to its own wood when a board's line joins its blob ----
# tuning seeds 292, 2016 and 2092 (standard set, printed board): a blank die lies against the
# black line between two of the board's squares; the line (and a strip of the dark square or
# the die's shadow beside it) joined the die's blob on the side away from the picture's centre.
# The top face's fit took the wider blob for side faces showing (a lean of 17.7, 22.9 and 8.0
# pixels, more than the other clean dice show at that distance) and moved the face outwards,
# 7-12 px off the die towards the line: the die's own lit rim (or the table past it) lay
# inside the fitted face, along its outline, rat-sized and crisp, and the die was asked
# ("print cut off?"). The part of the blob as dark as the die's wood is the die: its face is
# fitted again from it and the die read right and certain.
A_BOARD_LINE_JOINED = (292, 2016, 2092)


@pytest.mark.parametrize("seed", A_BOARD_LINE_JOINED)
def test_a_die_whose_blob_takes_in_a_board_line_is_read_from_its_own_wood(seed: int) -> None:
    _assert_all_read_certain(seed)
    # (a die whose first fit shows no more side faces than the other clean dice say it may is
    # not fitted again: tuning seed 82's lit rim, a lean of 14.8 under its 15.2, stays asked,
    # test_a_lit_rim_with_a_dark_side_face_beyond_is_still_asked)


# -- nineteenth pass: a die's square sliding along its own side faces -------------------------
# wide8 seeds 6 001 449 and 6 001 182 (standard set, printed board): a die near the picture's
# corner shows its side faces towards the centre (and 6 001 182 its shadow there), its blob is
# not square and the largest square in it slides along them, 0.10 and 0.18 of the side (more
# than SQUARE_SLIDE), towards the picture's centre, about as far as the other dice's side
# faces show there: the square refit refused it ("die not square", asked). The top face,
# nearer the camera, is the square at the end farthest from the centre: both dice read right
# and certain (the face's centre 2 and 0.4 px from the die's, was 6.5 and 6.4 px off).
A_SQUARE_ON_ITS_SIDE_FACES = (6_001_449, 6_001_182)


@pytest.mark.parametrize("seed", A_SQUARE_ON_ITS_SIDE_FACES)
def test_a_die_whose_square_slides_along_its_own_side_faces_is_read(seed: int) -> None:
    _assert_all_read_certain(seed)


@pytest.mark.parametrize(
    ("why", "stub", "centre", "refit"),
    [
        ("slides towards the centre as far as side faces show: read at the outer end",
         (100, 40, 114, 100), (1000.0, 70.0), True),
        ("slides farther than the side faces show there: asked",
         (100, 40, 122, 100), (1000.0, 70.0), False),
        ("slides across the way to the centre: asked", (100, 40, 114, 100), (70.0, 1000.0), False),
    ],
)  # fmt: skip
def test_a_square_sliding_along_side_faces_keeps_its_guards(
    why: str, stub: tuple[int, int, int, int], centre: tuple[float, float], refit: bool
) -> None:
    # a die of 60 px with a strip as dark as its wood (its side faces, or something lying
    # there) joined along one edge; the clean dice's side faces show 0.012 px per pixel from
    # the picture's centre (with LEAN_MARGIN, 16.8 px at 925 px)
    die, filled, v = _joined(stub, 30)
    _refit_square(die, filled, 60.0, v, 0.012, centre)
    assert (die.notes == []) is refit, why
    if refit:
        assert abs(die.side - 60) < 6 and abs(die.cx - 70) < 2 and abs(die.cy - 70) < 2


# -- twentieth pass: a worn rat broken in two, a dark bar joined to the die's outer edge -------
# a worn one-rat die of 59 px near the picture's top-right corner on felt (its rat's body faded
# across the middle): cut at half the marks' height the rat falls into two pieces 2-4 px apart
# (0.035-0.06 of the side), its tail end and its head end, of one size (0.68),
# still one piece of light just under the cut (0.52 of the dimmer's peak). Alone the die was
# asked only because the head end is round (elongation 1.30, under MIN_ELONGATION 1.5); a
# dark bar joined to its outer edge made the fitted face 2-7 px larger, which moved the cut by
# a grey level: the head end took in one pixel more (1.51) and the die read a certain 2 in 8 of
# these 24 placements. Two printed rats on a face without broad light have bare wood between
# them; light between two marks at this height is one rat's print: asked.
def _worn_rat_with_a_bar(bar: tuple[int, float, float] | None
                         ) -> tuple[np.ndarray, RatTruth]:  # fmt: skip
    """The worn one-rat die (and three blank dice), with a bar ``(protrudes px, width of a
    side, grey of the wood)`` joined to its edge facing away from the picture's centre."""
    style = RatStyle(mark_colour=(228, 232, 234), rat_scale=1.019, two_layout="side",
                     two_scale=0.587, two_gap=1.0, diagonal=True, wear=0.4995,
                     die_colour=(24, 27, 33))  # fmt: skip
    at = [(560, 80, 10.447), (320, 240, 20), (330, 120, 40), (200, 360, 70)]
    img, truths = render_rat_dice([1, 0, 0, 0], seed=109, die_px=58.751, positions=at,
                                  table="felt", style=style)  # fmt: skip
    t = truths[0]
    if bar is None:
        return img, t
    p, width, grey = bar
    wood = _wood_grey(img, t, 58 // 3)
    out = np.array([t.x - 320, t.y - 240]) / math.hypot(t.x - 320, t.y - 240)
    a = math.radians(t.angle)
    u, w = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    e = max([u, -u, w, -w], key=lambda c: float(c @ out))
    f = np.array([-e[1], e[0]])
    c0 = np.array([t.x, t.y]) + e * (t.size / 2 - 3 + p / 2 + 1.5)
    hw, hl = width * t.size / 2, (p + 3) / 2
    pts = np.array([c0 + e * hl + f * hw, c0 + e * hl - f * hw, c0 - e * hl - f * hw,
                    c0 - e * hl + f * hw], np.float32)  # fmt: skip
    return _painted_over(img, pts, grey * wood), t


A_BAR_AT_THE_OUTER_EDGE = [(p, width, grey) for p in (2, 4, 6, 8, 10, 12) for width in (0.8, 1.0)
                           for grey in (0.9, 1.5)]  # fmt: skip


def test_a_worn_rat_broken_in_two_is_asked_whatever_is_joined_to_its_edge() -> None:
    img, t = _worn_rat_with_a_bar(None)
    (r,) = match(read_rats(img), [t])
    assert r is not None and (r.uncertain or r.value == 1), r
    wrong = []
    for bar in A_BAR_AT_THE_OUTER_EDGE:
        img, t = _worn_rat_with_a_bar(bar)
        (r,) = match(read_rats(img), [t])
        assert r is not None, bar
        if not r.uncertain and r.value != 1:
            wrong.append((bar, r.value))
    assert wrong == [], wrong


# -- twenty-first pass: rats under a cut set by a glare -----------------------------------------
# Grey, worn print (the renderer's grey ink at wear 0.39) under a glare of the renderer's own
# kind, on a white mat: the glare's spot stands 185 grey levels over the wood, the rats about a
# third of that. The spot set the marks' height (170), both rats fell under the cut at half of
# it, and the spot itself was left out as a glare (round and soft): the face held no marks and
# the two-rat die was read a certain 0. At a quarter of that height the rats stand out again,
# apart from the spot, one as big as one of two rats: asked, in the players' category "light"
# (move the lamp), as a blank face whose cut was set by light at its outline already was
GREY_WORN = RatStyle(mark_colour=(150, 152, 155), rat_scale=0.87, two_layout="side",
                     two_scale=0.53, wear=0.39)  # fmt: skip


def test_rats_under_a_cut_set_by_a_glare_are_asked_not_read_blank() -> None:
    img, truths = render_rat_dice([2], 22, table="white", style=GREY_WORN, die_px=68.0,
                                  glare=1.0, positions=[(320, 240, 30)])  # fmt: skip
    obs = read_rats(img)
    (r,) = match(obs, truths)
    assert r is not None and r.uncertain, (r, obs.notes)
    assert r.doubt == "light", obs.notes
    assert any("cut set by a glare" in n for n in obs.notes), obs.notes


@pytest.mark.parametrize("seed", [0, 2, 5])
def test_a_blank_die_under_a_glare_is_still_read(seed: int) -> None:
    # the same print and glare on a blank die: the glare's spot alone stands out, nothing
    # apart from it (the glare's own halo touches the spot): read a certain 0
    img, truths = render_rat_dice([0], seed, table="white", style=GREY_WORN, die_px=68.0,
                                  glare=1.0, positions=[(320, 240, 30)])  # fmt: skip
    assert_read(read_rats(img), truths)


# -- narrow or elongated highlights (a window's bars, a strip light on the varnish) -------------
HIGHLIT = [11, 18, 31, 45]  # seeds whose blank die the reader before read a certain 1


@pytest.mark.parametrize("seed", HIGHLIT)
def test_a_highlight_on_a_blank_die_is_asked_not_read_as_a_rat(seed: int) -> None:
    # an elongated specular highlight (a smooth, convex hump of light, as long as a rat) on a
    # blank die passed every glare test and was read a certain 1 before; now asked ("light":
    # move the lamp)
    img, truths = render_rat_dice([0], seed, table="wood", die_px=60.0, highlights=1.0,
                                  positions=[(320, 240, 20)])  # fmt: skip
    obs = read_rats(img)
    (r,) = match(obs, truths)
    assert r is not None and r.uncertain, (r, obs.notes)
    assert r.doubt == "light", obs.notes
    assert any("highlight on the varnish" in n for n in obs.notes), obs.notes


@pytest.mark.parametrize("seed", HIGHLIT)
@pytest.mark.parametrize("value", [1, 2])
def test_rats_under_the_same_highlights_are_still_read(seed: int, value: int) -> None:
    # the same highlights (same seed: their own random stream) on a one-rat and a two-rat die:
    # print keeps its crisp edge and its rat's outline, read for sure
    img, truths = render_rat_dice([value], seed, table="wood", die_px=60.0, highlights=1.0,
                                  positions=[(320, 240, 20)])  # fmt: skip
    assert_read(read_rats(img), truths)


def test_highlights_leave_the_scene_otherwise_unchanged() -> None:
    # the option is off by default (every existing render unchanged) and only adds light
    plain, t0 = render_rat_dice([0, 1, 2], 7)
    off, t1 = render_rat_dice([0, 1, 2], 7, highlights=0.0)
    lit, t2 = render_rat_dice([0, 1, 2], 7, highlights=1.0)
    assert np.array_equal(plain, off) and t0 == t1 == t2
    diff = lit.astype(int) - plain.astype(int)
    assert diff.max() > 30 and diff.min() > -10  # highlights brighten, never darken


@pytest.mark.parametrize(("seed", "die"), [(269, 0), (532, 2), (954, 1), (992, 0)])
def test_overlapping_highlights_with_no_edge_are_asked(seed: int, die: int) -> None:
    # standard scenes with highlights (benchmark set "highlights"): two highlights overlapping
    # on a blank die (a small bright one on a broad one) make one mark of no convex outline,
    # but with no plateau and more than twice its area when cut lower: no ink's edge
    # anywhere. Read a certain 1 before, asked now
    img, truths, _ = random_scene(seed, highlights=0.5)
    assert truths[die].value == 0
    r = match(read_rats(img), truths)[die]
    assert r is not None and r.uncertain and r.doubt == "light", r


# -- twenty-third pass: a glare's notch on a coloured table, the die's outline found by colour --
@pytest.mark.parametrize("seed", [1351, 1398, 4_000_738, 6_000_600, 6_000_444])
def test_a_glare_notching_a_die_on_felt_is_read_over_its_outline_by_colour(seed: int) -> None:
    # a blank die on green felt under a glare: the glare lifts the black wood to the felt's
    # brightness, so the dark blob has a notch and, the glare reaching the die's edge, its
    # hull misses that corner (1351, 1398, 4 000 738: the die is alone, no clean die says its
    # size; 6 000 600, 6 000 444: the hull is 0.93 and 0.85 of the clean dice's side). The
    # glare is grey, the felt green: by colour the die's whole outline shows, square and a
    # die's size, and the face is read over it (before: "a notch in the die's outline", asked)
    _assert_all_read_certain(seed)


def test_a_rat_in_a_glare_s_notch_stays_asked() -> None:
    # blind10 8 000 038: a one-rat die on felt, its rat in the glare that notches its blob;
    # read over its blob it held no rat (asked, a 0). Over its outline found by colour the rat
    # is on the face, but a mark found only in what colour adds lies in the glare's light:
    # print under it or the glare's own peak (blank dice under a highlight at the edge read 1
    # there), so the die is not read over that outline and stays asked
    img, truths, _ = random_scene(8_000_038)
    r = match(read_rats(img), truths)[2]
    assert truths[2].value == 1 and r is not None and r.uncertain, r


def test_a_highlight_in_a_blank_die_s_notch_is_not_read_as_a_rat() -> None:
    # highlights set, tuning 87: two blank dice on felt whose highlights notch their blobs.
    # Over their outlines found by colour each highlight is a mark (a 1, asked for its odd
    # shape); the mark lies in what colour adds, so neither is read over it: asked, a 0
    img, truths, _ = random_scene(87, highlights=0.5)
    for i in (0, 1):
        r = match(read_rats(img), truths)[i]
        assert truths[i].value == 0 and r is not None and (r.value, r.uncertain) == (0, True), r


def _light_over(value: int, seed: int, kind: str, angle: float, grey: int):  # type: ignore[no-untyped-def]
    """A glared die showing ``value`` on felt beside two clean ones, and a light ``kind`` of
    thing ("card": a straight edge reaching 0.3 of a side in; "disc": a token half over its
    edge) laid over it from ``angle``: its reading."""
    at = [(200, 240, 10), (380, 240, 0), (520, 300, 0)]
    image, truths = render_rat_dice([value, 0, 0], seed=seed, table="felt", die_px=60,
                                    glare=1.0, positions=at)  # fmt: skip
    t = truths[0]
    dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    if kind == "card":
        reach = 2.2 * t.size - 0.3 * t.size
        box = cv2.boxPoints(((t.x + reach * dx, t.y + reach * dy), (4 * t.size, 4 * t.size),
                             angle))  # fmt: skip
        cv2.fillConvexPoly(image, np.round(box).astype(np.int32), (grey, grey, grey))
    else:
        tip = (int(t.x + 0.5 * t.size * dx), int(t.y + 0.5 * t.size * dy))
        cv2.circle(image, tip, int(0.25 * t.size), (grey, grey, grey), -1)
    return match(read_rats(cv2.GaussianBlur(image, (0, 0), 0.8)), truths)[0]


@pytest.mark.parametrize("kind", ["card", "disc"])
@pytest.mark.parametrize("angle", [0, 135, 250])
@pytest.mark.parametrize("value", [1, 2])
def test_a_grey_thing_over_a_glared_die_on_felt_is_never_read_wrong(
    kind: str, angle: float, value: int
) -> None:
    # a grey card or token over a glared die on felt is not the felt's colour either: the
    # outline found by colour runs on past the die (not square, or out of the crop), so the
    # die is not read over it; whatever is read, it is never a certain wrong value
    r = _light_over(value, 3, kind, angle, 190)
    assert r is None or r.uncertain or r.value == value, r


@pytest.mark.parametrize("grey", [150, 190, 240])
@pytest.mark.parametrize("angle", [0, 250])
@pytest.mark.parametrize("value", [1, 2])
def test_a_token_half_over_a_glared_die_on_felt_keeps_it_asked(
    value: int, angle: float, grey: int
) -> None:
    # a grey token half over a glared die's edge on felt: by colour the outline is the die
    # and the token's bump past its edge, square enough for a die alone (aspect 1.12-1.16)
    # but emptier than a die's rounded square (0.86-0.87 of its rectangle, a die's 0.91-0.95:
    # HUE_FILL). What lies under the token is not seen, so the die stays asked (read over
    # that outline it was read for sure, right by luck)
    r = _light_over(value, 3, "disc", angle, grey)
    assert r is None or r.uncertain, r


def test_a_highlight_joining_two_rats_on_a_notched_die_stays_asked() -> None:
    # highlights set, wide 4 000 517: a two-rat die on felt, an elongated highlight lying
    # across both rats, notching its blob. Over its outline found by colour the two rats and
    # the highlight are one soft mark (sharpness 0.14) on a face whose broad light is under
    # the glare rules' share: it read a certain 1. A glare lies on a die whose notch it
    # made, so a soft mark there is not taken for blurred print: the die is not read over
    # that outline and stays asked
    img, truths, _ = random_scene(4_000_517, highlights=0.5)
    r = match(read_rats(img), truths)[1]
    assert truths[1].value == 2 and r is not None and r.uncertain, r


@pytest.mark.parametrize("seed", [15_000_293, 19_000_522])
def test_a_die_joined_to_a_board_s_line_is_read_past_the_bay_beside_it(seed: int) -> None:
    # blind17 15 000 293, blind21 19 000 522: a blank die on the printed board against its
    # brown circle line or a dark square's corner. The dark stub joins the die's blob, and the
    # bay between the stub and the die counts as a notch (0.08-0.10 of the hull), with no
    # glare to explain it: asked "notch" and "not square", and the square refit, which needs
    # "not square" alone, never looked. The largest square in the blob is a clean die's face
    # (light cutting into the face would leave none that big) and the stub is thin: read from
    # that square (before: asked)
    _assert_all_read_certain(seed)



# -- twenty-third pass: a taught model and a mark too small for a rat ---------------------------
def test_a_mark_too_small_for_a_rat_on_a_taught_blank_is_asked(engraved_model: RatModel) -> None:
    # blind23 (21 000 863) of the engraved set, dim light: a one-rat die shows only a sliver
    # of its engraved rat (a mark of 0.003 of the face, contrast 54). The built-in rules ask
    # it ("faint marks"); the taught model called it a certain 0, a silent wrong. The two
    # blank dice beside it stay certain 0s
    _values, image, truths = _engraved(21_000_863)
    for m in (None, engraved_model):
        got = match(read_rats(image, m), truths)
        for t, r in zip(truths, got, strict=True):
            assert r is not None
            if t.value:
                assert r.uncertain, (m is not None, t, r)
            else:
                assert r.value == 0 and not r.uncertain, (m is not None, t, r)


def test_a_mark_half_the_taught_rat_is_no_certain_rat() -> None:
    # wide 4 000 504, taught as the benchmark's standard-taught row: a strip of a board's
    # light square inside a blank die's fitted face (0.027 of the face, against the taught
    # rat's 0.056) read a certain 1. The built-in rules ask it ("one mark of odd size")
    image, truths, _ = random_scene(4_000_504)
    model = standard_model(4_000_504)
    for m in (None, model):
        (r,) = match(read_rats(image, m), truths)
        assert r is not None and truths[0].value == 0
        assert r.uncertain or r.value == 0, (m is not None, r)


def test_taught_rats_of_the_taught_size_stay_certain() -> None:
    # the same teaching; scenes of the standard set with one- and two-rat dice, all read
    # right and certain by the taught model, stay so
    for seed in (4_000_003, 4_000_004, 4_000_006, 4_000_008):
        image, truths, _ = random_scene(seed)
        got = match(read_rats(image, standard_model(seed)), truths)
        assert all(r is not None and r.value == t.value and not r.uncertain
                   for t, r in zip(truths, got, strict=True)), (seed, got)
