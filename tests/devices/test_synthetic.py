"""Synthetic dice must be where the truth says, show the right number of pips, and be
reproducible from a seed."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.devices.synthetic import COLOURS, SyntheticSource, render_dice


def face_mask(shape, die, fraction: float = 0.86) -> np.ndarray:
    """The top face of ``die`` (a DieTruth), shrunk to ``fraction`` of its side."""
    box = cv2.boxPoints(((die.x, die.y), (die.size * fraction,) * 2, die.angle))
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(box).astype(np.int32)], 255)
    return mask


def count_blobs(binary: np.ndarray, min_area: int) -> int:
    n, _, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    return sum(1 for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= min_area)


def dark_pips(image: np.ndarray, die) -> int:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    dark = ((grey < 100) & (face_mask(image.shape, die) > 0)).astype(np.uint8)
    return count_blobs(dark, min_area=max(3, int(0.01 * die.size**2)))


@pytest.mark.parametrize("table", ["wood", "felt", "board", "white", "dark"])
@pytest.mark.parametrize("seed", [1, 2])
def test_pips_visible_where_the_truth_says(table: str, seed: int) -> None:
    values = [1, 2, 3, 4, 5, 6]
    image, truth = render_dice(values, seed=seed, table=table)
    assert image.shape == (480, 640, 3) and image.dtype == np.uint8
    assert [t.value for t in truth] == values
    for die in truth:
        assert dark_pips(image, die) == die.value, (table, die)
        face = image[face_mask(image.shape, die) > 0]
        assert np.median(face, axis=0).min() > 150, "the face is white around the pips"


def test_outside_the_die_is_table() -> None:
    image, truth = render_dice([3, 5], seed=4, table="felt")
    felt_green = np.median(image.reshape(-1, 3), axis=0)
    assert felt_green[1] > felt_green[0] + 30 and felt_green[1] > felt_green[2] + 30
    for die in truth:
        ring = []
        for k in range(16):
            a = 2 * math.pi * k / 16
            x, y = die.x + die.size * math.cos(a), die.y + die.size * math.sin(a)
            if 0 <= x < 640 and 0 <= y < 480:
                ring.append(image[int(y), int(x)])
        ring = np.array(ring)
        green = (ring[:, 1] > ring[:, 0] + 20) & (ring[:, 1] > ring[:, 2] + 20)
        assert green.mean() >= 0.75, "just beyond the die (shadow aside) is felt"


def test_coloured_dice_with_light_pips() -> None:
    image, truth = render_dice([4, 6], seed=3, table="white", die_color="red", pip_color="white")
    for die in truth:
        mask = face_mask(image.shape, die) > 0
        b, g, r = np.median(image[mask], axis=0)
        assert r > 140 and r > g + 80 and r > b + 80, "a red die"
        light = ((image.min(axis=2) > 150) & mask).astype(np.uint8)
        assert count_blobs(light, min_area=int(0.01 * die.size**2)) == die.value


def test_same_seed_same_pixels_other_seed_other_pixels() -> None:
    a, truth_a = render_dice([2, 5, 6], seed=11)
    b, truth_b = render_dice([2, 5, 6], seed=11)
    c, _ = render_dice([2, 5, 6], seed=12)
    assert np.array_equal(a, b) and truth_a == truth_b
    assert not np.array_equal(a, c)


def test_dice_never_overlap_and_stay_inside() -> None:
    for seed in range(8):
        _, truth = render_dice([1] * 8, seed=seed, size=(640, 480))
        for i, d in enumerate(truth):
            half = d.size * math.sqrt(2) / 2
            assert half <= d.x <= 640 - half and half <= d.y <= 480 - half
            assert 0 <= d.angle < 90
            for e in truth[i + 1 :]:
                assert math.hypot(d.x - e.x, d.y - e.y) > d.size * math.sqrt(2)


def test_bad_requests_say_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="a die shows 1 to 6, not 7"):
        render_dice([7], seed=0)
    with pytest.raises(ValueError, match='unknown table "lava"'):
        render_dice([1], seed=0, table="lava")
    with pytest.raises(ValueError, match="cannot place 40 dice"):
        render_dice([1] * 40, seed=0)
    with pytest.raises(ValueError, match='unknown die colour "plaid"'):
        render_dice([1], seed=0, die_color="plaid")
    assert "white" in COLOURS


def frames(source: SyntheticSource, n: int) -> list[np.ndarray]:
    return [source.read() for _ in range(n)]


def test_source_is_deterministic_per_seed() -> None:
    one, two, other = SyntheticSource(seed=5), SyntheticSource(seed=5), SyntheticSource(seed=6)
    for s in (one, two, other):
        s.open()
    assert one.truth == two.truth != other.truth
    assert one.roll() == two.roll()
    for a, b in zip(frames(one, 10), frames(two, 10), strict=True):
        assert np.array_equal(a, b)


def test_rolls_motion_then_settle_on_the_truth() -> None:
    source = SyntheticSource(seed=2, dice=3, motion_frames=5)
    source.open()
    truth = source.roll(values=[6, 1, 4])
    assert [t.value for t in truth] == [6, 1, 4] == [t.value for t in source.truth]
    assert not source.settled
    moving = frames(source, 5)
    assert source.settled
    settled = frames(source, 3)
    # while moving, the dice are not yet where they will lie
    assert any(dark_pips(moving[0], die) != die.value for die in truth)
    # settled frames show the truth, and differ only by sensor noise
    for image in settled:
        for die in truth:
            assert dark_pips(image, die) == die.value
    diff = np.abs(settled[0].astype(int) - settled[1].astype(int)).mean()
    motion_diff = np.abs(moving[-2].astype(int) - moving[-1].astype(int)).mean()
    assert 0 < diff < 3 < motion_diff


def test_roll_without_motion_and_clear() -> None:
    source = SyntheticSource(seed=9, dice=2, table="felt")
    with source:
        truth = source.roll(motion=False)
        image = source.read()
        assert all(dark_pips(image, die) == die.value for die in truth)
        source.clear()
        empty = source.read()
        assert source.truth == []
        for die in truth:
            b, g, r = empty[int(die.y), int(die.x)]
            assert g > b + 20 and g > r + 20, "felt where the die was"


def test_random_values_come_from_the_seed() -> None:
    a, b = SyntheticSource(seed=3, dice=4), SyntheticSource(seed=3, dice=4)
    rolls_a = [[t.value for t in a.roll(motion=False)] for _ in range(5)]
    rolls_b = [[t.value for t in b.roll(motion=False)] for _ in range(5)]
    assert rolls_a == rolls_b
    assert len({tuple(r) for r in rolls_a}) > 1, "not the same roll every time"
    assert all(1 <= v <= 6 for r in rolls_a for v in r)
