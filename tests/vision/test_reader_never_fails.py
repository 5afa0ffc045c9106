"""The pip reader never fails on a picture: any crop, turn, scale or light of a real photo,
or a picture of nothing at all, gives an observation, never an exception (the dice worker
would report "dice reader failed" and read no roll while that picture holds).

An eleventh-pass review found such a failure (a window one pixel past the picture's edge) on
6 of 16 728 transformed train photos; these properties look for that kind of slip."""

from __future__ import annotations

from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from companion.vision.dice import read_pips  # noqa: E402
from companion.vision.observation import DiceObservation  # noqa: E402

DATA = Path(__file__).parent / "data"
PHOTOS = sorted(str(p) for p in DATA.glob("*/*.jpg"))
FUZZ = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])  # fmt: skip


def _check(image: np.ndarray) -> DiceObservation:
    obs = read_pips(image)
    h, w = image.shape[:2]
    assert (obs.width, obs.height) == (w, h)
    for d in obs.dice:
        assert 1 <= d.value <= 6
        assert -0.5 * d.size <= d.x <= w + 0.5 * d.size and -0.5 * d.size <= d.y <= h + 0.5 * d.size
        assert 0.0 <= d.confidence <= 1.0
    return obs


@FUZZ
@given(photo=st.sampled_from(PHOTOS), x0=st.floats(0, 0.6), y0=st.floats(0, 0.6),
       width=st.floats(0.15, 1.0), height=st.floats(0.15, 1.0), angle=st.floats(-30, 30),
       zoom=st.sampled_from([0.5, 0.75, 1.0, 1.5, 2.0]), gain=st.floats(0.4, 1.6))
def test_a_real_photo_cropped_turned_scaled_or_relit_is_read_without_failing(
    photo: str, x0: float, y0: float, width: float, height: float, angle: float, zoom: float,
    gain: float,
) -> None:
    image = cv2.imread(photo, cv2.IMREAD_COLOR)
    h, w = image.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    image = cv2.warpAffine(image, turn, (w, h), borderMode=cv2.BORDER_REPLICATE)
    left, top = int(x0 * w), int(y0 * h)
    image = image[top : top + max(8, int(height * h)), left : left + max(8, int(width * w))]
    image = cv2.resize(image, None, fx=zoom, fy=zoom)
    image = np.clip(image.astype(np.float32) * gain, 0, 255).astype(np.uint8)
    _check(image)


@FUZZ
@given(width=st.integers(1, 700), height=st.integers(1, 700), seed=st.integers(0, 2**16),
       kind=st.sampled_from(["flat", "noise", "spots", "stripes"]))
def test_a_picture_of_nothing_gives_no_certain_die_and_no_failure(width: int, height: int,
                                                                  seed: int, kind: str) -> None:
    rng = np.random.default_rng(seed)
    if kind == "flat":
        image = np.full((height, width, 3), rng.integers(0, 256, 3), np.uint8)
    elif kind == "noise":
        image = rng.integers(0, 256, (height, width, 3)).astype(np.uint8)
    elif kind == "spots":
        image = np.full((height, width, 3), 200, np.uint8)
        for _ in range(int(rng.integers(1, 40))):
            centre = (int(rng.integers(0, width)), int(rng.integers(0, height)))
            cv2.circle(image, centre, int(rng.integers(1, 8)), (20, 20, 20), -1)
    else:
        image = np.zeros((height, width, 3), np.uint8)
        image[:, :: max(2, width // 20)] = 255
    obs = _check(image)
    if kind in ("flat", "stripes"):
        assert not [d for d in obs.dice if not d.uncertain], obs.notes
