"""The pip-dice reader (companion.vision.dice.read_pips) on real photos and synthetic renders.

Real photos: a few train-split frames copied under tests/vision/data with their labels and
attribution. Synthetic: one render per failure mode the reader must survive. The rule the
whole product rests on is checked everywhere: a die read as certain must be right.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")

from companion.devices.synthetic import (  # noqa: E402
    COLOURS,
    PIP_LAYOUTS,
    PIP_RADIUS,
    DiceDesign,
    DieTruth,
    _compose,
    _Die,
    render_dice,
)
from companion.vision import dice  # noqa: E402
from companion.vision.dice import read_pips  # noqa: E402
from companion.vision.observation import DiceObservation  # noqa: E402

DATA = Path(__file__).parent / "data"
TOOLS = Path(__file__).resolve().parents[2] / "tools"
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))
from benchmark_dice import SYNTH_STYLES as _SYNTH_STYLES  # noqa: E402
from benchmark_dice import Sample as _Sample  # noqa: E402
from benchmark_dice import shade_beyond as _shade_beyond  # noqa: E402
from benchmark_dice import synthetic_samples as _synthetic_samples  # noqa: E402


# -- helpers ----------------------------------------------------------------------------------
def matched(obs: DiceObservation, truth: list[tuple[int, float, float, float]]) -> list:
    """Pair each truth (value, x, y, reach) with the nearest reading within reach."""
    out = []
    used: set[int] = set()
    for value, x, y, reach in truth:
        best = None
        for i, d in enumerate(obs.dice):
            dist = math.hypot(d.x - x, d.y - y)
            if i not in used and dist <= reach and (best is None or dist < best[0]):
                best = (dist, i)
        if best is None:
            out.append((value, None))
        else:
            used.add(best[1])
            out.append((value, obs.dice[best[1]]))
    return out


def assert_never_certain_wrong(obs: DiceObservation, truth: list) -> None:
    for value, die in matched(obs, truth):
        if die is not None and not die.uncertain:
            assert die.value == value, f"certain {die.value} for a {value}: {obs.notes}"


def assert_no_certain_ghost(obs: DiceObservation, truth: list) -> None:
    """No certain reading away from every die (a die that is not there, added silently)."""
    for d in obs.dice:
        near = any(math.hypot(d.x - x, d.y - y) <= r for _, x, y, r in truth)
        assert near or d.uncertain, f"a certain ghost {d.value} at ({d.x:.0f}, {d.y:.0f})"


def synth_truth(truths: list) -> list[tuple[int, float, float, float]]:
    return [(t.value, t.x, t.y, 0.6 * t.size) for t in truths]


def certain_values(obs: DiceObservation) -> list[int]:
    return sorted(d.value for d in obs.dice if not d.uncertain)


def axis_aligned_die(value: int, side: int, die_color: str = "white", pip_color: str = "black"):
    """A crop of exactly one die's square, rotated back to axis-aligned."""
    img, [t] = render_dice([value], seed=value * 17 + side, size=(320, 320), table="white",
                           die_color=die_color, pip_color=pip_color, die_px=side)  # fmt: skip
    m = cv2.getRotationMatrix2D((t.x, t.y), t.angle, 1.0)
    upright = cv2.warpAffine(img, m, (320, 320), flags=cv2.INTER_LINEAR)
    h = side // 2
    return upright[round(t.y) - h : round(t.y) - h + side, round(t.x) - h : round(t.x) - h + side]


def table(kind: str = "wood", seed: int = 3) -> np.ndarray:
    img, _ = render_dice([], seed=seed, table=kind)
    return img


# -- real photos ------------------------------------------------------------------------------
def photo_cases() -> list[tuple[str, Path]]:
    return [(p.parent.name, p) for p in sorted(DATA.glob("*/*.jpg"))]


def labelled(path: Path, labels: Path | None = None
             ) -> tuple[np.ndarray, list[tuple[int, float, float, float]]]:  # fmt: skip
    """A photo and its YOLO labels (``labels``, else the .txt beside it) as (value, x, y,
    reach) in pixels, reach 0.75 of the box's long side plus 10 px."""
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    assert image is not None, path
    h, w = image.shape[:2]
    truth = []
    text = (labels or path.with_suffix(".txt")).read_text(encoding="utf-8")
    for line in text.splitlines():
        c, cx, cy, bw, bh = (float(v) for v in line.split())
        truth.append((int(c) + 1, cx * w, cy * h, 0.75 * max(bw * w, bh * h) + 10))
    return image, truth


@pytest.mark.parametrize(("kind", "path"), photo_cases(), ids=lambda v: getattr(v, "stem", v))
def test_real_photos_read_as_labelled(kind: str, path: Path) -> None:
    image, truth = labelled(path)
    obs = read_pips(image)
    pairs = matched(obs, truth)
    assert [v for v, d in pairs if d is None] == [], f"missed dice: {obs.notes}"
    assert_never_certain_wrong(obs, truth)
    assert sorted(d.value for _, d in pairs) == sorted(t[0] for t in truth)
    if kind == "webcam-white":
        assert len(obs.dice) == len(truth), "a ghost die"
        assert not obs.uncertain, obs.notes
    else:  # busier phone photos: an extra die may be asked about, never asserted
        found = {id(d) for _, d in pairs}
        assert all(d.uncertain for d in obs.dice if id(d) not in found), "a certain ghost die"


def test_the_photo_subset_keeps_its_attribution() -> None:
    assert (DATA / "webcam-white" / "LICENSE.source").exists()
    assert (DATA / "webcam-white" / "SOURCE.md").exists()
    assert (DATA / "tabletop-augmented" / "SOURCE.md").exists()
    total = sum(p.stat().st_size for p in DATA.rglob("*") if p.is_file())
    assert total < 600_000  # a handful of photos, not a dataset


def test_a_die_read_twice_counts_once() -> None:
    """train_three_28: the light gaps between a 3's dark pips form a light "2" centred on
    the 3. Before, both were reported (a certain 3 and an asked 2 on one die: one die too
    many). The two are merged; with so few pips the 3 is asked when read alone."""
    image = cv2.imread(str(DATA / "webcam-white" / "train_three_28.jpg"))
    for second in (False, True):
        obs = read_pips(image, second_opinion=second)
        here = [d for d in obs.dice if abs(d.x - 352) < 12 and abs(d.y - 228) < 12]
        assert [d.value for d in here] == [3], obs.notes
        if not second:
            assert here[0].uncertain and any("read twice" in n for n in obs.notes)


# -- synthetic failure modes -------------------------------------------------------------------
def test_white_dice_on_wood_read_exactly() -> None:
    image, truths = render_dice([1, 2, 3, 4, 5, 6], seed=0, table="wood")
    obs = read_pips(image)
    assert sorted(obs.values()) == [1, 2, 3, 4, 5, 6]
    assert not obs.uncertain, obs.notes
    for value, die in matched(obs, synth_truth(truths)):
        assert die is not None and die.value == value
        assert 0.0 <= die.confidence <= 1.0


def test_dark_dice_with_light_pips() -> None:
    image, truths = render_dice([2, 3, 5, 6], seed=5, table="wood", die_color="black",
                                pip_color="white", die_px=64)  # fmt: skip
    obs = read_pips(image)
    assert_never_certain_wrong(obs, synth_truth(truths))
    assert certain_values(obs) == [2, 3, 5, 6]


def test_coloured_dice_on_a_printed_board() -> None:
    image, truths = render_dice([1, 4, 5, 6], seed=7, table="board", die_color="blue",
                                pip_color="white", die_px=60)  # fmt: skip
    obs = read_pips(image)
    assert_never_certain_wrong(obs, synth_truth(truths))
    assert certain_values(obs) == [1, 4, 5, 6]


def test_uneven_light_gradient() -> None:
    image, truths = render_dice([3, 4, 6, 2], seed=9, table="felt", die_px=60)
    h, w = image.shape[:2]
    ramp = np.linspace(0.35, 1.15, w, dtype=np.float32)[None, :, None]
    dim = np.clip(image.astype(np.float32) * ramp, 0, 255).astype(np.uint8)
    obs = read_pips(dim)
    assert_never_certain_wrong(obs, synth_truth(truths))
    assert len(certain_values(obs)) >= 3


def test_glare_spot_never_gives_a_certain_wrong_value() -> None:
    image, truths = render_dice([5, 6, 4], seed=13, table="wood", die_px=70)
    t = truths[1]
    ys, xs = np.mgrid[0 : image.shape[0], 0 : image.shape[1]].astype(np.float32)
    spot = np.exp(-((xs - t.x - 0.2 * t.size) ** 2 + (ys - t.y) ** 2) / (2 * (0.18 * t.size) ** 2))
    glared = np.clip(image.astype(np.float32) + 255 * 0.95 * spot[..., None], 0, 255)
    obs = read_pips(glared.astype(np.uint8))
    assert_never_certain_wrong(obs, synth_truth(truths))
    # the other dice are still read
    others = [(v, d) for v, d in matched(obs, synth_truth(truths)) if v != 6]
    assert all(d is not None and d.value == v for v, d in others)


def test_touching_dice_are_read_apart() -> None:
    side = 60
    canvas = table("white", seed=21)
    a, b = axis_aligned_die(2, side), axis_aligned_die(6, side)
    y0, x0 = 200, 250
    canvas[y0 : y0 + side, x0 : x0 + side] = a
    canvas[y0 : y0 + side, x0 + side : x0 + 2 * side] = b
    truth = [(2, x0 + side / 2, y0 + side / 2, 0.5 * side),
             (6, x0 + 1.5 * side, y0 + side / 2, 0.5 * side)]  # fmt: skip
    obs = read_pips(canvas)
    assert_never_certain_wrong(obs, truth)
    assert all(d is not None for _, d in matched(obs, truth)), obs.notes


@pytest.mark.parametrize("seed", [31, 32, 33, 34])
def test_any_rotation(seed: int) -> None:
    image, truths = render_dice([2, 3, 6], seed=seed, table="felt", die_px=58)
    obs = read_pips(image)
    assert_never_certain_wrong(obs, synth_truth(truths))
    assert certain_values(obs) == [2, 3, 6]


def test_twelve_dice() -> None:
    values = [1, 2, 3, 4, 5, 6, 6, 5, 4, 3, 2, 1]
    image, truths = render_dice(values, seed=41, size=(960, 720), table="wood", die_px=62)
    obs = read_pips(image)
    assert_never_certain_wrong(obs, synth_truth(truths))
    assert len(obs.dice) == 12
    assert sum(1 for d in obs.dice if not d.uncertain) >= 11


@pytest.mark.parametrize("kind", ["wood", "felt", "board", "white", "dark"])
def test_a_blank_table_gives_no_dice(kind: str) -> None:
    assert read_pips(table(kind, seed=5)).dice == ()


def test_a_side_face_seen_obliquely_is_not_counted() -> None:
    """render_dice draws top-down only, so the oblique view is built by hand: an upright die
    squashed to 80 % (the top face seen at ~35 deg) with a second die's face squashed to 45 %
    glued below it (the front side face)."""
    side = 64
    canvas = table("wood", seed=23)
    top = cv2.resize(axis_aligned_die(3, side), (side, round(0.8 * side)))
    front = cv2.resize(axis_aligned_die(5, side), (side, round(0.45 * side)))
    front = (front.astype(np.float32) * 0.85).astype(np.uint8)  # the side is in less light
    x0, y0 = 280, 180
    canvas[y0 : y0 + top.shape[0], x0 : x0 + side] = top
    y1 = y0 + top.shape[0]
    canvas[y1 : y1 + front.shape[0], x0 : x0 + side] = front
    obs = read_pips(canvas)
    certain = [d for d in obs.dice if not d.uncertain]
    assert all(d.value != 5 for d in certain), obs.notes
    assert [d.value for d in obs.dice] == [3], "the top face is read (certain or asked), only it"
    assert len(certain) <= 1
    assert_never_certain_wrong(obs, [(3, x0 + side / 2, y0 + 0.4 * side, 0.6 * side)])


def _seen_squashed(value: int, hide_bottom_row: bool = False) -> tuple[np.ndarray, tuple]:
    """One upright die, stretched to 1.3 x its height (an oblique view squashes a face and
    its pips alike); optionally with its bottom row of pips lost (glare on a 6)."""
    side = 64
    die = axis_aligned_die(value, side)
    if hide_bottom_row:
        die[40:58, 6:58] = die[32, 32]
    tall = cv2.resize(die, (side, round(1.3 * side)), interpolation=cv2.INTER_LINEAR)
    canvas = table("felt", seed=29)
    canvas[150 : 150 + tall.shape[0], 260 : 260 + side] = tall
    return canvas, (value, 260 + side / 2, 150 + tall.shape[0] / 2, 0.7 * side)


def test_four_pips_of_a_six_squashed_across_their_own_squash_are_not_a_certain_4() -> None:
    """Two rows of a 6 fit a 4 whose squash (wide) runs across the pips' (tall): the same
    view cannot squash a face one way and the pips printed on it the other way."""
    image, truth = _seen_squashed(6, hide_bottom_row=True)
    obs = read_pips(image)
    assert_never_certain_wrong(obs, [truth])
    assert [d.value for d in obs.dice] == [4] and obs.dice[0].uncertain, obs.notes
    assert any("away from its pips" in n for n in obs.notes)


@pytest.mark.parametrize("value", [4, 5])
def test_a_face_squashed_like_its_pips_stays_certain(value: int) -> None:
    image, truth = _seen_squashed(value)
    obs = read_pips(image)
    assert [(d.value, d.uncertain) for d in obs.dice] == [(value, False)], obs.notes
    assert matched(obs, [truth])[0][1] is not None


def test_a_tiny_three_that_lost_its_middle_pip_is_asked_not_read_as_2() -> None:
    """On a 16 px die the pips are under 2.5 px: the middle one of a 3 can vanish (here it
    is wiped), and two pips alone cannot tell a 2 from part of a 3 or a 4."""
    side = 16
    die = axis_aligned_die(3, side)
    c = side // 2
    die[c - 2 : c + 3, c - 2 : c + 3] = die[c, round(0.3 * side)]
    canvas = table("felt", seed=29)
    canvas[200 : 200 + side, 300 : 300 + side] = die
    obs = read_pips(canvas)
    assert_never_certain_wrong(obs, [(3, 300 + side / 2, 200 + side / 2, side)])
    assert [(d.value, d.uncertain) for d in obs.dice] == [(2, True)], obs.notes
    assert any("too small" in n for n in obs.notes)


def _pips_left(k: int) -> tuple[np.ndarray, tuple, int]:
    """A 4 or a 6 beside other 4-6s, with pips rubbed out (glare, wear) so that what is left
    fits a 2 or a 3: two adjacent pips of a 4, a column of a 6, a knight's-move pair."""
    cases = {0: (4, (0, 1)), 2: (4, (2, 3)), 3: (6, (0, 1, 2)), 6: (6, (0, 3)), 9: (6, (0, 4))}
    styles = {0: ("wood", "white", "black"), 2: ("board", "ivory", "black"),
              3: ("white", "red", "white"), 6: ("board", "blue", "white"),
              9: ("dark", "red", "white")}  # fmt: skip
    value, keep = cases[k % 10]
    kind, die, pip = styles[k % 10]
    rng = np.random.default_rng([k, 5])
    others = [int(v) for v in rng.integers(4, 7, int(rng.integers(1, 4)))]
    img, truths = render_dice([value, *others], 7000 + k, table=kind, die_color=die,
                              pip_color=pip, die_px=float(rng.uniform(40, 80)))  # fmt: skip
    t = truths[0]
    c, s = math.cos(math.radians(t.angle)), math.sin(math.radians(t.angle))
    face = img[round(t.y), round(t.x)].tolist()  # a 4's or a 6's middle has no pip
    for i, (qx, qy) in enumerate(PIP_LAYOUTS[value]):
        if i not in keep:
            x, y = t.x + (qx * c - qy * s) * t.size, t.y + (qx * s + qy * c) * t.size
            cv2.circle(img, (round(x), round(y)), math.ceil(1.5 * PIP_RADIUS * t.size), face,
                       -1, cv2.LINE_AA)  # fmt: skip
    return img, (value, t.x, t.y, 0.6 * t.size), len(keep)


@pytest.mark.parametrize("k", [2, 6, 10, 33, 59, 69])
def test_pips_left_of_a_bigger_face_are_never_a_certain_2_or_3(k: int) -> None:
    """What is left of a 4 or a 6 whose other pips are lost fits a 2 or a 3 on a smaller
    face, its pips too big for it (pinned: without that guard, or without asking that such a
    face be centred on its die body, each of these is a certain 2 or 3)."""
    image, truth, left = _pips_left(k)
    obs = read_pips(image)
    [(_, die)] = matched(obs, [truth])
    assert die is None or die.uncertain or die.value == truth[0], obs.notes


@pytest.mark.parametrize("k", [24, 72])
def test_a_6_with_faded_pips_is_not_a_centred_2(k: int) -> None:
    """A 6 whose other pips are faded (wear, glare) to a quarter of their contrast: its
    middle row is left, centred on the die, pips about 1.3 times too big for a 2 on that
    side. A player sees a 6. A real 2 lies along its die's diagonal; the middle row runs
    along a side (from a review: read as a certain 2 without that test)."""
    rng = np.random.default_rng([k, 6])
    styles = {24: ("wood", "white", "black"), 72: ("wood", "white", "black")}
    kind, die, pip = styles[k]
    others = [int(v) for v in rng.integers(4, 7, int(rng.integers(1, 4)))]
    image, truths = render_dice([6, *others], 8000 + k, table=kind, die_color=die,
                                pip_color=pip, die_px=float(rng.uniform(40, 80)))  # fmt: skip
    faded = faded_pips(image, truths[0], [0, 2, 3, 5])  # the middle row stays
    assert_never_certain_wrong(read_pips(faded), synth_truth(truths))


FADED_MIDDLES = [(0, "wood", "white", "black"), (6, "felt", "white", "black"),
                 (17, "dark", "white", "black"), (22, "dark", "white", "black")]


def _five_and_three(k: int, kind: str, die: str, pip: str, first: int = 5
                    ) -> tuple[np.ndarray, list[DieTruth]]:  # fmt: skip
    px = float(np.random.default_rng([k, 22]).uniform(24, 60))
    return render_dice([first, 3], 9000 + k, table=kind, die_color=die, pip_color=pip,
                       die_px=px)  # fmt: skip


@pytest.mark.parametrize(("k", "kind", "die", "pip"), FADED_MIDDLES)
def test_a_5_whose_middle_pip_is_faded_is_not_a_certain_4(k: int, kind: str, die: str,
                                                           pip: str) -> None:  # fmt: skip
    """A 5 whose middle pip is worn (or under a glare) to about a fifth of its contrast:
    too faint to be found as a pip, and the four corners make a 4, its middle cell under the
    "looks like a pip" bar (0.3 of a pip's darkness against the face's median grey). A
    player sees a 5. Each of these was a certain 4 (0.88-0.94) before the faint-pip check:
    a pip response at every place a bigger face has its other pips (the 5's middle) asks."""
    image, truths = _five_and_three(k, kind, die, pip)
    obs = read_pips(faded_pips(image, truths[0], [2], amount=0.78))
    assert_never_certain_wrong(obs, synth_truth(truths))
    t = truths[0]
    near = [d for d in obs.dice if math.hypot(d.x - t.x, d.y - t.y) < 0.4 * t.size]
    assert near and all(d.uncertain for d in near), obs.notes
    assert any("a faint pip where a 5 has one" in n for n in obs.notes), obs.notes


@pytest.mark.parametrize(("k", "kind", "die", "pip"), FADED_MIDDLES)
def test_a_4_with_a_plain_middle_stays_certain(k: int, kind: str, die: str, pip: str) -> None:
    """The same scenes with a 4 in the 5's place: nothing where a 5 or a 6 has its other
    pips, so the faint-pip check does not ask it."""
    image, truths = _five_and_three(k, kind, die, pip, first=4)
    obs = read_pips(image)
    t = truths[0]
    assert [(d.value, d.uncertain) for d in obs.dice
            if math.hypot(d.x - t.x, d.y - t.y) < 0.4 * t.size] == [(4, False)], obs.notes
    assert not any("faint pip" in n for n in obs.notes), obs.notes


def _corners_faded(k: int, fade: float, big: bool = False) -> tuple[np.ndarray, list[DieTruth]]:
    """A red die with white pips on a dark mat, a 3 (k even) or a 5 (k odd), beside a 4,
    its corner pips faded ``fade`` of the way to the face (1: the 1 it then shows): the
    same scene rendered with a 1 in its place, blended in. ``big``: dice of 70-80 px (pips
    13-15 px across, the size of the pip response's 15 px structuring element) instead of
    36-70."""
    rng = np.random.default_rng([k, 25 if big else 24])
    px = float(rng.uniform(70, 80) if big else rng.uniform(36, 70))
    style = {"table": "dark", "die_color": "red", "pip_color": "white", "die_px": px}
    seed = (9700 if big else 9600) + k
    full, truths = render_dice([3 if k % 2 == 0 else 5, 4], seed, **style)
    one, _ = render_dice([1, 4], seed, **style)
    blend = full.astype(np.float32) * (1 - fade) + one.astype(np.float32) * fade
    return np.clip(blend, 0, 255).astype(np.uint8), truths


CORNERS_FADED = [(4, False), (24, False), (29, False), (34, False),
                 (14, True), (17, True), (18, True), (25, True)]


@pytest.mark.parametrize(("k", "big"), CORNERS_FADED)
def test_a_3_or_5_whose_corner_pips_are_faded_is_not_a_certain_1(k: int, big: bool) -> None:
    """Light pips on a red die, the corner pips faded to about 0.3 of their contrast (worn
    paint, a glare): under the mark level around a lone pip (0.45), so the middle pip was a
    certain 1 (0.85). A player sees the 3 or the 5. A pair of faint pip-sized marks set
    about the lone pip like a face's corners asks it.

    ``big`` (twenty-third pass): dice of 70-80 px at 640 x 480, each pip 13-15 px across,
    as wide as the pip response's structuring element: a whole pip keeps only about half its
    contrast in that response (the middle pip: 86 of 152), the faded corners a tenth of the
    pips' contrast, under ``FAINT_PIP`` of it. Each was a certain 1; measured against what
    a whole pip gives in the response, the corners are a quarter of a pip."""
    image, truths = _corners_faded(k, 0.72 if not big else 0.78, big)
    obs = read_pips(image)
    assert_never_certain_wrong(obs, synth_truth(truths))
    assert any("a faint pip where a 3 has one" in n for n in obs.notes), obs.notes


@pytest.mark.parametrize(("k", "big"), CORNERS_FADED)
def test_a_plain_1_on_the_same_die_stays_certain(k: int, big: bool) -> None:
    """The corners gone (the die shows a 1): read a certain 1, no faint-pip doubt."""
    image, truths = _corners_faded(k, 1.0, big)
    obs = read_pips(image)
    t = truths[0]
    assert [(d.value, d.uncertain) for d in obs.dice
            if math.hypot(d.x - t.x, d.y - t.y) < 0.4 * t.size] == [(1, False)], obs.notes
    assert not any("faint pip" in n for n in obs.notes), obs.notes


def faded_pips(image: np.ndarray, t: DieTruth, which: list[int],
               amount: float = 0.75) -> np.ndarray:  # fmt: skip
    """``image`` with pips ``which`` (indices into ``PIP_LAYOUTS[t.value]``) of the rendered
    die ``t`` painted over with its face's colour, ``amount`` of the way (wear, a glare).
    The face's colour is taken at its middle, or for a 1, 3 or 5 (a pip there) halfway to
    the middle of a side."""
    c, s = math.cos(math.radians(t.angle)), math.sin(math.radians(t.angle))
    off = 0.0 if t.value % 2 == 0 else 0.25 * t.size
    face = image[round(t.y + s * off), round(t.x + c * off)].astype(np.float32)
    out = image.astype(np.float32)
    for i, (qx, qy) in enumerate(PIP_LAYOUTS[t.value]):
        if i in which:
            x, y = t.x + (qx * c - qy * s) * t.size, t.y + (qx * s + qy * c) * t.size
            m = np.zeros(image.shape[:2], np.float32)
            cv2.circle(m, (round(x), round(y)), math.ceil(1.5 * PIP_RADIUS * t.size), 1.0, -1,
                       cv2.LINE_AA)  # fmt: skip
            out = out * (1 - amount * m[..., None]) + face * (amount * m[..., None])
    return np.clip(out, 0, 255).astype(np.uint8)


def test_dice_whose_2_and_3_sit_on_a_short_diagonal_are_read() -> None:
    """Some dice print their 2 and 3 on a shorter diagonal than their 6 (a held-out webcam
    frame, in the half studied since the sixth pass): their pips look too big for their
    side, but each sits in the middle of its die, so the three 3s are read, not asked.
    So is its 2 (eighteenth pass): its pips are 1.37 times too big, over the bar of 1.36 that
    the middle row of a 6 had set before a face had to lie along its die's diagonal."""
    image, truth = labelled(DATA / "webcam-white" / "short-diagonal" / "valid_valid_80.jpg")
    obs = read_pips(image)
    assert_never_certain_wrong(obs, truth)
    assert_no_certain_ghost(obs, truth)
    assert sorted(d.value for _, d in matched(obs, truth) if d and not d.uncertain) == \
        [2, 3, 3, 3, 6], obs.notes
    assert sum("short diagonal" in n for n in obs.notes) == 4


@pytest.mark.parametrize(("k", "side"), [(11, 28), (147, 28), (91, 24)])
def test_a_small_4_whose_other_pips_were_not_found_is_not_a_certain_2(k: int, side: int) -> None:
    """Small ivory dice on a printed board: the lower pips' dark response runs into the
    die's shadow and the board's line, so only the upper two are found as pips, and they
    fit a 2 (no 4 to 6 in view to compare pip sizes with). Those pips are in the picture:
    the places beside the pair, where the rest of a 4 would be, look like pips."""
    rng = np.random.default_rng([k, side])
    values = [int(v) for v in rng.integers(1, 7, int(rng.integers(1, 5)))]
    image, truths = render_dice(values, 9000 + k, table="board", die_color="ivory",
                                pip_color="black", die_px=side)  # fmt: skip
    obs = read_pips(image)
    assert_never_certain_wrong(obs, synth_truth(truths))
    assert any("rest of a bigger face" in n for n in obs.notes), obs.notes


def test_a_small_2_with_one_pip_found_is_not_a_certain_1() -> None:
    """A 26 px red die with small white pips on a dark mat, seen from above: one pip of its
    2 is not found, the other lies off the die's middle. Its outline is a few pixels, a
    little longer one way (as if seen obliquely); were the rays going down the picture not
    trusted for that, the body would look centred on it, a certain 1."""
    design = DiceDesign(spacing=0.257, diagonal=0.241, pip_radius=0.0764, one_radius=0.117,
                        corner=0.114)  # fmt: skip
    rng = np.random.default_rng([3026065, 3])
    values = [int(v) for v in rng.integers(1, 7, int(rng.integers(1, 7)))]
    image, truths = render_dice(values, 3026065, table="dark", die_color="red",
                                pip_color="white", die_px=26, design=design)  # fmt: skip
    obs = read_pips(image)
    assert_never_certain_wrong(obs, synth_truth(truths))
    assert_no_certain_ghost(obs, synth_truth(truths))


def test_two_small_dark_dice_on_a_light_table_are_not_the_pips_of_a_big_2() -> None:
    """20 px black dice on light wood: two of them, 80 px apart, are dark round blobs on a
    light "face" (the table), the pips of a 109 px "2"; the face model, shown that crop,
    sees a 2 too. One of those "pips" is a die read there: the big face is asked."""
    rng = np.random.default_rng([3220075, 3])
    values = [int(v) for v in rng.integers(1, 7, int(rng.integers(1, 7)))]
    rng.integers(0, 10)  # the style's draw in the sweep this scene comes from
    image, truths = render_dice(values, 3220075, table="wood", die_color="black",
                                pip_color="white", die_px=20)  # fmt: skip
    obs = read_pips(image)
    assert_no_certain_ghost(obs, synth_truth(truths))
    assert_never_certain_wrong(obs, synth_truth(truths))
    assert any("a pip of it is a die" in n for n in obs.notes), obs.notes


def _camera_turned(values: list[int], seed: int, theta: float = 70.0) -> tuple[np.ndarray, list]:
    """Top faces seen by an oblique camera turned ``theta`` degrees: every face (and pip)
    squashed to 65 % across the same tilted axis. Shrunk to 640 px, the size it is read at
    (the squash logic is under test here, not the reading of a bigger picture closer)."""
    img, truths = render_dice(values, seed=seed, size=(800, 800), table="felt", die_px=62)
    h, w = img.shape[:2]
    t = math.radians(theta)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    a = rot @ np.diag([1.0, 0.65]) @ rot.T
    shift = np.array([w / 2, h / 2]) - a @ np.array([w / 2, h / 2])
    out = cv2.warpAffine(img, np.hstack([a, shift[:, None]]), (w, h), flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)  # fmt: skip
    out = cv2.resize(out, (640, 640), interpolation=cv2.INTER_AREA)
    truth = [(t.value, *(0.8 * (a @ np.array([t.x, t.y]) + shift)), 0.4 * t.size)
             for t in truths]  # fmt: skip
    return out, truth


@pytest.mark.parametrize("seed", [4, 7])
def test_a_turned_camera_top_faces_agree_so_they_are_read(seed: int) -> None:
    """Pips squashed along a steep axis look like side faces to an upright camera; when the
    dice in view all share that squash, the camera is turned and they are top faces."""
    image, truth = _camera_turned([2, 3, 5, 4], seed)
    obs = read_pips(image)
    assert_never_certain_wrong(obs, truth)
    assert [(v, d is not None and not d.uncertain) for v, d in matched(obs, truth)] == [
        (v, True) for v, *_ in truth
    ], obs.notes


def test_a_turned_camera_with_one_die_is_asked_unless_the_picture_settles_it() -> None:
    """One die alone: its pips cannot tell a turned camera from a side face, so the classical
    reader asks. The learned second opinion sees a flat face with no die body around it (a
    top face) and may confirm it, but only with the value the pips gave."""
    image, truth = _camera_turned([3], 4)
    alone = read_pips(image, second_opinion=False)
    assert [(d.value, d.uncertain) for d in alone.dice] == [(3, True)], alone.notes
    obs = read_pips(image)
    assert_never_certain_wrong(obs, truth)
    assert [(d.value, d.uncertain) for d in obs.dice] == [(3, False)], obs.notes


def test_never_a_certain_wrong_value_on_the_synthetic_suite() -> None:
    styles = [("wood", "white", "black"), ("felt", "ivory", "black"), ("board", "red", "white"),
              ("white", "green", "white"), ("dark", "white", "black"), ("wood", "black", "white"),
              ("felt", "yellow", "black"), ("board", "white", "black")]  # fmt: skip
    rng = np.random.default_rng(2024)
    read = total = 0
    for k in range(16):
        t, dc, pc = styles[k % len(styles)]
        values = [int(v) for v in rng.integers(1, 7, int(rng.integers(1, 6)))]
        image, truths = render_dice(values, seed=500 + k, table=t, die_color=dc, pip_color=pc,
                                    die_px=float(rng.uniform(40, 80)))  # fmt: skip
        obs = read_pips(image)
        assert_never_certain_wrong(obs, synth_truth(truths))
        total += len(values)
        read += sum(1 for v, d in matched(obs, synth_truth(truths)) if d and not d.uncertain)
    assert read >= 0.85 * total


def _far_dice(k: int) -> tuple[np.ndarray, list]:
    """The companion's own view: a 1280 x 960 frame (its Pi camera's size) of 2 to 5 dice
    26-40 px across (a 16 mm die seen by a Camera Module 3 from 50-60 cm)."""
    styles = [("wood", "white", "black"), ("felt", "ivory", "black"), ("board", "red", "white"),
              ("dark", "white", "black"), ("felt", "white", "black"), ("board", "ivory", "black"),
              ("white", "green", "white"), ("wood", "black", "white")]  # fmt: skip
    rng = np.random.default_rng([k, 7])
    t, dc, pc = styles[k % len(styles)]
    values = [int(v) for v in rng.integers(1, 7, int(rng.integers(2, 6)))]
    return render_dice(values, seed=900 + k, size=(1280, 960), table=t, die_color=dc,
                       pip_color=pc, die_px=float(rng.uniform(26, 40)))  # fmt: skip


def test_dice_far_from_the_camera_are_read_closer() -> None:
    """Shrunk to 640 px, dice of 26-40 px lose their pips: most were missed, and several
    tiny dice could be read as the pips of one big ghost face. The frame is read closer too,
    and that reading kept: the dice are read, never a certain wrong value or ghost."""
    read = total = 0
    for k in range(12):
        image, truths = _far_dice(k)
        obs = read_pips(image)
        truth = synth_truth(truths)
        assert_never_certain_wrong(obs, truth)
        assert_no_certain_ghost(obs, truth)
        total += len(truths)
        read += sum(1 for v, d in matched(obs, truth) if d is not None and not d.uncertain)
    assert read >= 0.8 * total, (read, total)


def test_big_dice_in_a_big_picture_are_still_read() -> None:
    """Read closer, dice 320 px across would outgrow the pip finder: the reading at 640 px
    is kept for them."""
    image, truths = render_dice([5, 2], seed=11, size=(1280, 960), table="wood", die_px=320)
    obs = read_pips(image)
    got = [(v, d is not None and not d.uncertain and d.value)
           for v, d in matched(obs, synth_truth(truths))]  # fmt: skip
    assert got == [(5, 5), (2, 2)], obs.notes


def test_dice_of_two_sizes_in_one_picture_are_all_read() -> None:
    """One die 380 px across near the camera and small ones 34 px across: read closer, the
    big die outgrows the pip finder and is lost, so it is kept from the reading at 640 px
    (without that, the total silently lacks it). The small dice are found too, asked
    (a die far smaller than the others may be specks: one set of dice is one size)."""
    for seed in (0, 11):
        big, tb = render_dice([4], seed=seed, size=(1280, 960), table="wood", die_px=380,
                              table_seed=5)  # fmt: skip
        small, ts = render_dice([2, 5, 6], seed=seed + 100, size=(1280, 960), table="wood",
                                die_px=34, table_seed=5)  # fmt: skip
        image, truth = big.copy(), [tb[0]]
        for t in ts:  # the small dice pasted onto the same table, clear of the big die
            x0, y0 = int(t.x) - 30, int(t.y) - 30
            if (abs(t.x - tb[0].x) < 300 and abs(t.y - tb[0].y) < 300) or min(x0, y0) < 0 \
                    or x0 + 60 > 1280 or y0 + 60 > 960:  # fmt: skip
                continue
            image[y0:y0 + 60, x0:x0 + 60] = small[y0:y0 + 60, x0:x0 + 60]
            truth.append(t)
        assert len(truth) >= 2
        obs = read_pips(image)
        assert_never_certain_wrong(obs, synth_truth(truth))
        got = [(v, d is not None and (d.value, d.uncertain)) for v, d in
               matched(obs, synth_truth(truth))]  # fmt: skip
        assert got[0] == (4, (4, False)), obs.notes
        assert all(d for _, d in got), obs.notes


def test_tiny_dice_are_never_read_as_the_pips_of_one_big_die() -> None:
    """Black dice 18-26 px on light wood in a 1280 x 960 frame: two of them, read closer,
    looked like the two pips of a certain 241 px "2" (from a review of the closer reading).
    A face one of whose pips is another die read is asked."""
    rng = np.random.default_rng([600_053, 3])
    values = [int(v) for v in rng.integers(1, 7, int(rng.integers(1, 7)))]
    image, truths = render_dice(values, 600_053, (1280, 960), table="wood", die_color="black",
                                pip_color="white", die_px=float(rng.uniform(18, 26)))  # fmt: skip
    obs = read_pips(image)
    truth = synth_truth(truths)
    assert_never_certain_wrong(obs, truth)
    assert_no_certain_ghost(obs, truth)


def _f(value: int, x: float, y: float, side: float, uncertain: bool = False) -> dice._Face:
    return dice._Face(value, x, y, side, 0.9, uncertain, 1.0, [], [])


def test_two_scales_that_disagree_on_a_die_ask_it() -> None:
    """Read closer, part of a certain 4's pips can look like a smaller face (a 2 where the
    4 is, 2x upscaled webcam photos in a review): the die is asked, and no second opinion
    may make it certain."""
    notes: list[str] = []
    far = [_f(4, 100.0, 100.0, 40.0), _f(5, 300.0, 100.0, 40.0)]
    near = [_f(2, 205.0, 195.0, 60.0), _f(5, 601.0, 201.0, 80.0)]
    out = dice._both_scales(far, near, 2.0, notes)
    by_value = {f.value: f for f in out}
    assert by_value[2].uncertain and by_value[2].unsettled, notes
    assert not by_value[5].uncertain
    # a ghost face of tiny dice at 640 px (several times a die's size) does not veto them
    ghost = [_f(2, 100.0, 100.0, 120.0)]
    dice_closer = [_f(3, 160.0, 160.0, 40.0), _f(6, 240.0, 240.0, 40.0)]
    out = dice._both_scales(ghost, dice_closer, 2.0, [])
    assert all(not f.uncertain for f in out if f.value in (3, 6))


def test_a_die_read_closer_far_smaller_than_the_others_is_asked() -> None:
    """Two specks at a photo's edge read closer as a "2" half the size of the dice beside
    it (a review, on 2x upscaled webcam photos): one set of dice seen from above is one
    size, so it is asked."""
    notes: list[str] = []
    near = [_f(2, 1203.0, 21.0, 33.0), _f(4, 449.0, 432.0, 93.0)]
    out = dice._both_scales([_f(4, 224.0, 216.0, 46.0)], near, 2.0, notes)
    assert [(f.value, f.uncertain) for f in out] == [(2, True), (4, False)], notes


def test_a_die_cut_by_the_frame_is_not_read_as_what_is_left_of_it() -> None:
    """A 4 at the bottom edge of a 1280 x 960 frame, half out of it or just inside with its
    lower pips lost at the border: its two pips left were read as a certain 2 (a review).
    Its body reaches the picture's edge: asked."""
    seed = 620_010
    rng = np.random.default_rng([seed, 3])
    values = [int(v) for v in rng.integers(1, 7, int(rng.integers(4, 10)))]
    side = float(rng.uniform(20, 34))
    big, truths = render_dice(values, seed, (1400, 1080), table="board", die_color="white",
                              pip_color="black", die_px=side)  # fmt: skip
    ox, oy = int(rng.integers(0, 121)), int(rng.integers(0, 121))
    cut = min(truths, key=lambda t: math.hypot(t.x - ox - 574, t.y - oy - 942))
    assert cut.value == 4
    for above in (8.4, 10.4, 12.4, 14.4, 16.4, 18.4):  # the die's centre above the bottom
        top = int(round(cut.y - (960 - above)))
        image = np.ascontiguousarray(big[top:top + 960, ox:ox + 1280])
        truth = [(t.value, t.x - ox, t.y - top, 0.6 * t.size) for t in truths
                 if 0 <= t.x - ox < 1280 and 0 <= t.y - top < 960]  # fmt: skip
        assert_never_certain_wrong(read_pips(image), truth)


# Far renders (benchmark train, styled as that split) where a 6 of 20-22 px was read as an
# asked 3: one column found as pips, the other column's pips lost (run into the shadowed
# edge, or merged). (seed, x, y) of that 6. The benchmark's renders are styled by their
# place in the split: 1004 is its 5th, 1040 its 41st, 1094 its 95th.
COLUMN_SIXES = [(1004, 4, 195, 582), (1040, 0, 1030, 550), (1094, 4, 685, 124)]


@pytest.mark.parametrize(("seed", "style", "x", "y"), COLUMN_SIXES)
def test_a_six_whose_other_column_was_lost_is_offered_as_a_six(seed: int, style: int, x: int,
                                                               y: int) -> None:  # fmt: skip
    """Offered as an asked 6 (the other column's places show pip-like marks), which the face
    model confirms; the pips alone never make it certain."""
    table, die, pip = _SYNTH_STYLES[style]
    rng = np.random.default_rng([seed, 99])
    values = [int(v) for v in rng.integers(1, 7, int(rng.integers(1, 7)))]
    image, truths = render_dice(values, seed, (1280, 960), table=table, die_color=die,
                                pip_color=pip, die_px=float(rng.uniform(26.0, 40.0)))  # fmt: skip
    truth = [(t.value, t.x, t.y, 0.6 * t.size) for t in truths]
    (six,) = [t for t in truths if math.hypot(t.x - x, t.y - y) < 15]
    assert six.value == 6

    def there(obs: DiceObservation) -> list[tuple[int, bool]]:
        return [(d.value, d.uncertain) for d in obs.dice
                if math.hypot(d.x - six.x, d.y - six.y) < 0.6 * six.size]  # fmt: skip

    assert there(read_pips(image)) == [(6, False)]
    alone = read_pips(image, second_opinion=False)
    assert_never_certain_wrong(alone, truth)
    assert there(alone) == [(6, True)]


def _three_beside_dots(seed: int, table: str) -> tuple[np.ndarray, float, float, float]:
    """A 30 px 3 in the companion's view, and three dots printed on the table beside it,
    where a 6's other column would be (two of the 3's steps beside its diagonal)."""
    image, (t,) = render_dice([3], seed, (1280, 960), table=table, die_px=30.0)
    h = t.size / 2
    x0, y0 = int(t.x - h), int(t.y - h)
    patch = cv2.cvtColor(image[y0:int(t.y + h), x0:int(t.x + h)], cv2.COLOR_BGR2GRAY)
    _, _, stats, centres = cv2.connectedComponentsWithStats((patch < 100).astype(np.uint8))
    pips = np.array(sorted((c for c, st in zip(centres[1:], stats[1:], strict=True)
                            if st[4] >= 3), key=lambda c: c[0] + c[1])) + (x0, y0)  # fmt: skip
    assert len(pips) == 3
    step = (pips[2] - pips[0]) / 2
    for p in pips + 2.0 * np.array([-step[1], step[0]]):
        cv2.circle(image, (round(p[0]), round(p[1])), 2, (30, 30, 32), -1, cv2.LINE_AA)
    return image, t.x, t.y, t.size


def test_a_three_beside_printed_dots_is_never_a_certain_six() -> None:
    """The guard of the rule above: dots on the table where a 6's other column would be
    make the 3 offered as a 6 (asked), and the face model does not confirm it."""
    offered = 0
    for seed in range(1, 9):
        for table in ("wood", "white"):
            image, x, y, side = _three_beside_dots(seed, table)
            alone = read_pips(image, second_opinion=False)
            offered += any("a 6's column?" in n for n in alone.notes)
            for d in read_pips(image).dice:
                assert d.uncertain or d.value == 3 or math.hypot(d.x - x, d.y - y) > side, (
                    f"seed {seed} on {table}: a certain {d.value}")
    assert offered >= 3  # 5 of 16 (the others: the dots left out as marks off the die, a 3)


# -- contract ---------------------------------------------------------------------------------
def test_pure_deterministic_and_in_input_pixels() -> None:
    image, truths = render_dice([4, 5], seed=3, table="wood", die_px=60)
    before = image.copy()
    a, b = read_pips(image), read_pips(image)
    assert a == b
    assert np.array_equal(image, before), "the reader must not modify its input"
    assert (a.width, a.height, a.kind) == (640, 480, "pips")
    big = cv2.resize(image, (1280, 960), interpolation=cv2.INTER_LINEAR)
    c = read_pips(big)
    assert (c.width, c.height) == (1280, 960)
    for value, die in matched(c, [(t.value, 2 * t.x, 2 * t.y, 0.6 * t.size) for t in truths]):
        assert die is not None and die.value == value
        assert die.size > 0


def test_grey_input_and_bad_shapes() -> None:
    image, _ = render_dice([6], seed=4, table="white", die_px=64)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    assert read_pips(grey).values() == [6]
    with pytest.raises(ValueError):
        read_pips(np.zeros((4, 4, 2), np.uint8))


# -- fast paths: the same numbers as the plain OpenCV / numpy calls they replace --------------
def _pip_planes(seed: int) -> tuple[np.ndarray, dict]:
    from companion.vision.pips import intensities

    image, _ = render_dice([1, 3, 5, 6], seed=seed, table="wood", die_px=48)
    work = cv2.medianBlur(image, 3)
    return work, intensities(work)


@pytest.mark.parametrize("seed", [1, 2])
def test_rectangle_morphology_is_the_ellipse_hat(seed: int) -> None:
    from companion.vision.pips import _BLACK_HAT, _KERNEL, _TOP_HAT, DARK, LIGHT, _hat

    _, planes = _pip_planes(seed)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_KERNEL, _KERNEL))
    for plane, op, ref in ((DARK, _BLACK_HAT, cv2.MORPH_BLACKHAT),
                           (LIGHT, _TOP_HAT, cv2.MORPH_TOPHAT)):  # fmt: skip
        img = planes[plane]
        for _ in range(3):
            assert np.array_equal(_hat(img, op), cv2.morphologyEx(img, ref, kernel))
            img = cv2.pyrDown(img)


def test_blob_statistics_match_opencv() -> None:
    from companion.vision.pips import _BLACK_HAT, DARK, _hat, _stats

    _, planes = _pip_planes(5)
    mask = (_hat(planes[DARK], _BLACK_HAT) > 16).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    assert n > 5
    nz = cv2.findNonZero(mask).reshape(-1, 2)
    mine = _stats(n, labels[nz[:, 1], nz[:, 0]], nz[:, 0], nz[:, 1])
    assert np.array_equal(mine[1:], stats[1:])


def test_blob_ellipse_matches_cv2_moments() -> None:
    from companion.vision.pips import _ellipse, _ellipse_of

    rng = np.random.default_rng(7)
    for _ in range(50):
        sub = np.zeros((13, 13), np.uint8)
        cv2.ellipse(sub, (6, 6), (int(rng.integers(2, 6)), int(rng.integers(2, 6))),
                    float(rng.uniform(0, 180)), 0, 360, 1, -1)  # fmt: skip
        ys, xs = np.nonzero(sub)
        xf, yf = xs.astype(float), ys.astype(float)
        sums = [float(v.sum()) for v in (xf, yf, xf * xf, yf * yf, xf * yf)]
        assert _ellipse_of(float(len(xs)), *sums) == _ellipse(sub)


def test_blob_ellipses_in_one_batch_are_the_ellipses_one_by_one() -> None:
    """:func:`_ellipses_of` (all the blobs of an image at once) accepts the same blobs, with
    the same numbers bit for bit, as :func:`_ellipse_of` blob by blob."""
    from companion.vision.pips import _ellipse_of, _ellipses_of

    rng = np.random.default_rng(17)
    rows = []
    for _ in range(300):
        sub = np.zeros((15, 15), np.uint8)
        axes = (int(rng.integers(1, 7)), int(rng.integers(0, 7)))
        cv2.ellipse(sub, (7, 7), axes, float(rng.uniform(0, 180)), 0,
                    float(rng.choice([360, 200, 90])), 1, -1)  # fmt: skip
        ys, xs = np.nonzero(sub)
        if len(xs) == 0:
            continue
        xf, yf = xs.astype(float), ys.astype(float)
        sums = [float(v.sum()) for v in (xf, yf, xf * xf, yf * yf, xf * yf)]
        rows.append([float(len(xs)), *sums])
    cols = np.array(rows).T
    ok, batch = _ellipses_of(*cols)
    alone = [_ellipse_of(*row) for row in rows]
    assert ok.tolist() == [e is not None for e in alone]
    assert batch == [e for e in alone if e is not None]
    assert 0 < ok.sum() < len(rows), "some blobs must be ellipses and some not"


def _touching_blobs(seed: int) -> np.ndarray:
    """A response image with single spots, touching pairs and triples (rows of a 6), and
    flat patches (no peak), blurred to rounded peaks."""
    rng = np.random.default_rng(seed)
    resp = np.zeros((160, 240), np.uint8)
    for k in range(40):
        x, y = int(rng.integers(10, 230)), int(rng.integers(10, 150))
        r = int(rng.integers(2, 5))
        n = k % 3 + 1
        for j in range(n):
            cv2.circle(resp, (x + j * (2 * r + 1), y), r, int(rng.integers(40, 250)), -1)
    return cv2.GaussianBlur(resp, (0, 0), 1.2)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_blobs_split_in_one_batch_are_the_blobs_split_one_by_one(seed: int) -> None:
    """:func:`_split_all` (every blob to split stacked in one canvas, labelled in one call)
    finds the same pips, in the same order, as :func:`_split_one` blob by blob."""
    from companion.vision import pips

    work, planes = _pip_planes(seed)
    cases = [(_touching_blobs(seed), 0), (_touching_blobs(seed + 10), 1),
             (pips._hat(planes[pips.DARK], pips._BLACK_HAT), 0)]  # fmt: skip
    split = 0
    for resp, level in cases:
        mask = (resp > 16).astype(np.uint8)
        n, labels = cv2.connectedComponents(mask, connectivity=8)
        nz = cv2.findNonZero(mask).reshape(-1, 2)
        xs, ys = nz[:, 0], nz[:, 1]
        lab = labels[ys, xs]
        stats = pips._stats(n, lab, xs, ys)
        ids = list(range(1, n))
        which = np.zeros(n - 1, np.intp)
        together = pips._split_all([(resp, level)], [(0, 0)], stats, which, lab, xs, ys, ids)
        alone = {}
        for i in ids:
            x0, y0, w, h, _ = stats[i].tolist()
            parts = pips._split_one(resp, level, labels[y0 : y0 + h, x0 : x0 + w] == i, x0, y0)
            if parts:
                alone[i] = parts
        assert together == alone
        split += sum(len(v) > 1 for v in alone.values())
    assert split > 5, "some blobs must split into several pips"


def test_pip_candidates_are_deduplicated_like_before() -> None:
    """The vectorised :func:`_dedupe` keeps what the pairwise loop kept."""
    from companion.vision.pips import _dedupe, find_pips

    work, planes = _pip_planes(3)
    pips, _ = find_pips(work, planes)
    again = _dedupe(list(reversed(pips)) + pips)
    assert sorted((p.x, p.y, p.polarity) for p in again) == sorted(
        (p.x, p.y, p.polarity) for p in pips
    )


def test_pips_described_in_one_batch_are_the_pips_described_one_by_one() -> None:
    """:func:`_describe_all` (blobs of one radius gathered as one array) keeps exactly the
    pips, numbers and order that :func:`_describe` gives blob by blob: on the render's own
    blobs, on random spots and on spots too close to the edge."""
    from companion.vision import pips

    dark, light = pips.DARK, pips.LIGHT

    work, planes = _pip_planes(6)
    h, w = work.shape[:2]
    rng = np.random.default_rng(11)
    compared = 0
    for polarity, op in ((dark, pips._BLACK_HAT), (light, pips._TOP_HAT)):
        blobs = list(pips._blobs(pips._hat(planes[polarity], op), 0, 16))
        blobs += [
            (float(rng.uniform(-2, w + 1)), float(rng.uniform(-2, h + 1)), float(r),
             float(1.1 * r), float(0.9 * r), float(rng.uniform(-1.5, 1.5)))
            for r in rng.uniform(1.0, 9.0, 100)
        ]  # fmt: skip
        blobs += [(3.0, 100.0, 4.0, 4.0, 4.0, 0.0), (w - 4.0, 50.0, 3.0, 3.0, 3.0, 0.0)]
        one_by_one = [pips._describe(work, planes[polarity], *b, polarity, 1) for b in blobs]
        expected = [p for p in one_by_one if p is not None]
        assert pips._describe_all(work, planes[polarity], blobs, polarity, 1) == expected
        compared += len(expected)
    assert compared > 10, "the render must give some real pips to compare"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_column_marks_found_in_their_box_are_those_of_the_whole_picture(seed: int) -> None:
    """:func:`column_pairs` labels its marks within their bounding box, cut at an even row and
    column: OpenCV numbers them as in the whole picture, and the pairs it finds move with
    the picture (shifted by even offsets on a larger one: an odd shift would regroup
    OpenCV's 2 x 2 blocks, and so the marks' order, in the whole picture too)."""
    from companion.vision import pips

    resp = np.zeros((120, 160), np.uint8)
    rng = np.random.default_rng(seed)
    for _ in range(6):  # pairs of bars side by side: a small 6's two columns
        x, y = int(rng.integers(20, 130)), int(rng.integers(20, 90))
        for dx in (0, 8):
            cv2.ellipse(resp, (x + dx, y), (2, 7), 0, 0, 360, int(rng.integers(60, 250)), -1)
    resp = np.maximum(resp, _touching_blobs(seed)[:120, :160])
    mask = (resp > 40).astype(np.uint8)
    x, y, w, h = cv2.boundingRect(mask)
    x0, y0 = x - x % 2, y - y % 2
    whole = cv2.connectedComponents(mask, connectivity=8)[1]
    boxed = cv2.connectedComponents(mask[y0 : y + h, x0 : x + w], connectivity=8)[1]
    assert np.array_equal(whole[y0 : y + h, x0 : x + w], boxed)
    pairs = pips.column_pairs(resp)
    assert pairs, "the bars must pair"
    for oy, ox in ((2, 6), (10, 4)):
        big = np.zeros((140, 180), np.uint8)
        big[oy : oy + 120, ox : ox + 160] = resp
        shifted = [tuple((m[0] - ox, m[1] - oy, *m[2:]) for m in pair)
                   for pair in pips.column_pairs(big)]  # fmt: skip
        assert np.allclose(np.array(shifted), np.array(pairs), rtol=0, atol=1e-9)


def test_cell_scores_of_whole_squares_are_their_means() -> None:
    """:func:`dice._cell_scores` gathers the nine squares at once when all lie whole in the
    picture: each score is still (square mean - face) / (pip - face), bit for bit."""
    grey = np.random.default_rng(5).integers(0, 256, (60, 80)).astype(np.uint8)
    cases = ((40.3, 30.6, 9.0, 4.0), (20.5, 20.5, 6.5, 2.6), (60.0, 25.0, 10.0, 5.0))
    for cx, cy, step, r in cases:
        m = np.array([[step, 0.0], [0.0, step], [cx, cy]])
        got = dice._cell_scores(grey, m, r, 180.0, 40.0)
        rad = max(1, round(0.5 * r))
        want = []
        for x, y in np.concatenate([dice._GRID, np.ones((9, 1))], axis=1) @ m:
            xi, yi = round(x), round(y)
            v = float(grey[yi - rad : yi + rad + 1, xi - rad : xi + rad + 1].mean())
            want.append((v - 180.0) / (40.0 - 180.0))
        assert got.tolist() == want


def test_alike_pairs_are_the_pairs_the_loop_tested() -> None:
    """:func:`dice._alike_pairs` (the first tests of :func:`_edge_ringed_twos` on all pairs at
    once) keeps exactly the pairs, in ``itertools.combinations`` order, the loop kept."""
    import itertools

    from companion.vision.pips import Pip

    rng = np.random.default_rng(7)
    pips = [Pip(float(x), float(y), float(r), float(r), float(r * q), 0.0, int(pol),
                float(c), (200.0, 200.0, 200.0), 200.0, 60.0, 5.0, 0)
            for x, y, r, q, pol, c in zip(rng.uniform(0, 600, 80), rng.uniform(0, 400, 80),
                                          rng.uniform(1.5, 5.0, 80), rng.uniform(0.4, 1.0, 80),
                                          rng.integers(0, 2, 80), rng.uniform(20, 120, 80),
                                          strict=True)]  # fmt: skip
    want = [(i, j) for (i, p), (j, q) in itertools.combinations(enumerate(pips), 2)
            if p.polarity == q.polarity and 0.7 <= p.r / q.r <= 1.43
            and min(p.r, q.r) >= dice._MIN_SURE_PIP
            and 0.67 <= p.contrast / q.contrast <= 1.5 and min(p.contrast, q.contrast) >= 40
            and min(p.minor / p.major, q.minor / q.major) >= 0.55]  # fmt: skip
    assert len(want) > 20
    assert list(dice._alike_pairs(pips)) == want


def test_blobs_labelled_together_are_the_blobs_of_each_level() -> None:
    """:func:`_blobs_all` labels the six response images (3 levels x 2 polarities) stacked
    in one image: each gets exactly the blobs, in the order, it gets when labelled alone."""
    from companion.vision import pips

    _, planes = _pip_planes(8)
    hats = []
    for polarity, op in ((pips.DARK, pips._BLACK_HAT), (pips.LIGHT, pips._TOP_HAT)):
        img = planes[polarity]
        for level in range(3):
            img = cv2.pyrDown(img) if level else img
            hats.append((pips._hat(img, op), level))
    together = pips._blobs_all(hats, 16)
    alone = [pips._blobs_all([hat], 16)[0] for hat in hats]
    assert together == alone
    assert sum(len(b) for b in alone) > 20
    # the blank row between the stacked images matters: without it, blobs touching the
    # bottom of one image and the top of the next would merge
    edge = np.zeros((20, 30), np.uint8)
    edge[16:, 10:14] = 60
    top_edge = np.zeros((20, 30), np.uint8)
    top_edge[:4, 10:14] = 60
    assert len(pips._blobs_all([(edge, 0), (top_edge, 0)], 16)[0]) == 1


def _shadow_across(value: int, seed: int, light: float, side: int, along_columns: bool
                   ) -> tuple[np.ndarray, object]:  # fmt: skip
    """A die showing ``value`` (and another die) with a shadow's straight edge through its
    centre, along its pip columns or across them: ``light`` on the shaded side (times the
    light), the shadow covering the table beyond too (a cup's, a hand's, the camera
    stand's)."""
    table = ("wood", "felt", "board", "white")[seed % 4]
    img, truth = render_dice([value, 1 + seed % 5], 990_000 + seed, table=table,
                             die_px=40 + seed % 40)  # fmt: skip
    t = truth[0]
    turn = math.radians(t.angle) + (0.0 if along_columns else 0.5 * math.pi)
    turn += 0.0 if side > 0 else math.pi
    return _shade_beyond(img, t.x, t.y, turn, light), t


# (value, seed, light, side, along its columns): each read a certain 3 (one column of a 6,
# the other in shade) or a certain 2 (two pips of the lit row of a 6 or of a 4's lit side)
# before the ninth pass
SHADOWED_DICE = [(6, 2, 0.45, -1, False), (6, 15, 0.45, 1, True), (6, 32, 0.6, -1, False),
                 (6, 38, 0.75, -1, True), (6, 20, 0.45, -1, False), (6, 107, 0.45, -1, True),
                 (4, 0, 0.45, -1, True), (4, 7, 0.45, 1, False),
                 # a certain 2 from the lit side of a 4 until the tenth pass: its shaded cells,
                 # darker than its lit face, kept the two pairs from joining cleanly
                 (4, 116, 0.45, -1, True)]  # fmt: skip


@pytest.mark.parametrize(("value", "seed", "light", "side", "along"), SHADOWED_DICE)
def test_a_shadow_edge_across_a_die_never_gives_a_certain_wrong_die(
    value: int, seed: int, light: float, side: int, along: bool
) -> None:
    """Whatever is read on the die's spot is asked or certain and right: never a 6's
    column read as a certain 3, nor the lit pips of a 6's row or a 4's side as a certain 2
    (the rest of the face, in shade, responds only as much as the light on it)."""
    img, t = _shadow_across(value, seed, light, side, along)
    obs = read_pips(img)
    here = [d for d in obs.dice if math.hypot(d.x - t.x, d.y - t.y) < 0.6 * t.size]
    assert here, obs.notes
    assert all(d.uncertain or d.value == value for d in here), (obs.dice, obs.notes)


def _shadow_scene(seed: int) -> _Sample:
    """The benchmark's synthetic-shadow render of ``seed`` (its style is the seed's place in
    a run of ten)."""
    k = (seed - 1000) % 10
    *_, sample = _synthetic_samples(k + 1, seed - k, shadow=True)
    return sample


# Benchmark train scenes (ninth pass): a shadow's edge across a 4, 5 or 6 kept its pips in
# two groups (their rings in two lights), and the die was missed or asked; across a 2, each
# pip was left alone with no die body found around it, and the die was missed. (seed, x, y).
FACES_IN_TWO_LIGHTS = [(1044, 426, 300), (1152, 139, 104), (1236, 307, 196), (1004, 118, 285),
                       (1018, 451, 129), (1099, 99, 234), (1164, 451, 353)]  # fmt: skip


@pytest.mark.parametrize(("seed", "x", "y"), FACES_IN_TWO_LIGHTS)
def test_a_face_across_a_shadow_edge_is_joined_and_read(seed: int, x: int, y: int) -> None:
    """Joined: its pips' rings are one material in two lights and the pips as much less dark.
    Certain once the face model confirms it; the pips alone only ask it."""
    sample = _shadow_scene(seed)
    (label,) = [lab for lab in sample.labels if math.hypot(lab.cx - x, lab.cy - y) < 3]
    truth = [(label.value, label.cx, label.cy, 0.5 * label.w)]
    obs = read_pips(sample.image)
    read = [(d.value, d.uncertain) for _, d in matched(obs, truth) if d is not None]
    assert read == [(label.value, False)], obs.notes
    alone = matched(read_pips(sample.image, second_opinion=False), truth)
    assert [(d.value, d.uncertain) for _, d in alone if d is not None] == [(label.value, True)]


# Benchmark train scenes (ninth pass): a shadow's edge across a light-pipped 6's rows (1316)
# or a 4 (1626) left the lit pips a certain 3 or 2, the shaded ones responding too little to
# count as the rest of the face. (seed, x, y) of the die.
LIT_PART_OF_A_FACE = [(1316, 314, 432), (1626, 364, 157)]


@pytest.mark.parametrize(("seed", "x", "y"), LIT_PART_OF_A_FACE)
def test_the_lit_part_of_a_shaded_face_is_never_a_certain_die(seed: int, x: int, y: int) -> None:
    sample = _shadow_scene(seed)
    (label,) = [lab for lab in sample.labels if math.hypot(lab.cx - x, lab.cy - y) < 12]
    obs = read_pips(sample.image)
    here = [d for d in obs.dice if math.hypot(d.x - label.cx, d.y - label.cy) < 0.6 * label.w]
    assert all(d.uncertain or d.value == label.value for d in here), (obs.dice, obs.notes)


def test_a_4_halved_by_a_shadow_along_its_diagonal_is_one_4_not_two_2s() -> None:
    """A shadow's edge between a 4's two pairs of pips (the benchmark's shadow render
    4 000 169, blind in the ninth pass, studied in the tenth): the lit pair was a certain 2
    and the shaded pair an asked 2. Joined, each pip is as dark as its own light makes it:
    one 4, asked by the pips alone, certain once the face model confirms it."""
    sample = _shadow_scene(4_000_169)
    (label,) = [lab for lab in sample.labels if math.hypot(lab.cx - 332, lab.cy - 284) < 3]
    for second_opinion in (True, False):
        obs = read_pips(sample.image, second_opinion=second_opinion)
        here = [d for d in obs.dice if math.hypot(d.x - label.cx, d.y - label.cy) < label.w]
        assert [(d.value, d.uncertain) for d in here] == [(4, not second_opinion)], obs.notes


def test_a_pip_beside_a_light_corner_of_table_never_makes_a_certain_2() -> None:
    """A blue die showing 1 on a printed board, its corner between the board's lines: the
    light board in that corner, ringed by the die, the line and the board's square, was
    taken for its second pip, a certain 2 (far render 4 000 076, blind in the ninth pass,
    studied in the tenth). A pip whose ring is not one flat colour lies at a die's edge:
    a 2 or a 3 resting on it is asked."""
    *_, sample = _synthetic_samples(7, 4_000_070, far=True)
    (label,) = [lab for lab in sample.labels if math.hypot(lab.cx - 553, lab.cy - 634) < 3]
    assert label.value == 1
    obs = read_pips(sample.image)
    here = [d for d in obs.dice if math.hypot(d.x - label.cx, d.y - label.cy) < label.w]
    assert here, obs.notes
    assert all(d.uncertain or d.value == 1 for d in here), (obs.dice, obs.notes)


# Benchmark train scenes (tenth pass): a shadow's edge across a 1's die stopped the rays of
# its body short on one side, so the body was uneven or the pip off its middle: the 1 was
# asked or missed. (seed, x, y, certain once the face model has seen it: from JOIN_CONFIRM
# since the twelfth pass; 1058's model gives 0.936, 1088's 0.857)
ONE_ACROSS_A_SHADOW = [(1184, 581, 238, True), (1029, 195, 371, True), (1109, 133, 42, True),
                       (1058, 462, 35, True), (1088, 353, 297, False)]  # fmt: skip


@pytest.mark.parametrize(("seed", "x", "y", "certain"), ONE_ACROSS_A_SHADOW)
def test_a_1_crossed_by_a_shadow_edge_is_read(seed: int, x: int, y: int, certain: bool) -> None:
    """Its body's rays run on over the face's colour in less light: closed, even and centred
    so, it is a 1, asked by the pips alone (the shade may hide other pips: the face model,
    shown the die, settles it)."""
    sample = _shadow_scene(seed)
    (label,) = [lab for lab in sample.labels if math.hypot(lab.cx - x, lab.cy - y) < 3]
    assert label.value == 1
    truth = [(1, label.cx, label.cy, 0.5 * label.w)]
    alone = matched(read_pips(sample.image, second_opinion=False), truth)
    assert [(d.value, d.uncertain) for _, d in alone if d is not None] == [(1, True)]
    obs = read_pips(sample.image)
    read = [(d.value, d.uncertain) for _, d in matched(obs, truth) if d is not None]
    assert read == [(1, not certain)], obs.notes


# -- eleventh pass ----------------------------------------------------------------------------
def test_a_1_whose_pip_the_webcam_smeared_is_read() -> None:
    """train_dice_24 (crop): a white 1 on a light desk, its pip smeared sideways by the
    webcam. The body's rays began inside the smear's faint tail and stopped at once on
    four sides, so no die body was found and the 1 was only offered (asked). Each ray now
    starts where it first reaches the face's colour past the pip's faint rim."""
    path = DATA / "webcam-white" / "crops" / "train_dice_24_x290_y120.jpg"
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    obs = read_pips(image)
    read = [(d.value, d.uncertain) for _, d in matched(obs, [(1, 69.0, 70.0, 15.0)]) if d]
    assert read == [(1, False)], obs.notes
    assert len(obs.dice) == 1, obs.dice


def test_a_dominos_ringed_pip_is_not_a_certain_1() -> None:
    """dice_174 (crop): half a domino, one pip drawn with a grey ring, on green felt. Its
    ring is the pip's own darkness, not a faint smear: rays do not start past it (a first
    version of the rule above let them, and the domino's half read as a certain 1)."""
    path = DATA / "tabletop-augmented" / "crops" / "dice_174_x0_y250.jpg"
    obs = read_pips(cv2.imread(str(path), cv2.IMREAD_COLOR))
    assert obs.dice, obs.notes
    assert all(d.uncertain for d in obs.dice), (obs.dice, obs.notes)



@pytest.mark.parametrize(("name", "value"), [("dice_75_x276_y185", 6), ("dice_111_x271_y275", 4)])
def test_a_top_face_under_a_white_table_is_not_a_side_face(name: str, value: int) -> None:
    """Phone photos (crops) of a white die on a light grey table, seen at about 45 degrees:
    the table above the top face is the die's colour in other light, so the face was asked
    as a side face under its die's body. A die's top face has pips; the table has none:
    the face is read, certain. (Its front face below it, with pips, still is a side face.)"""
    path = DATA / "tabletop-augmented" / "crops" / f"{name}.jpg"
    obs = read_pips(cv2.imread(str(path), cv2.IMREAD_COLOR))
    read = [(d.value, d.uncertain) for _, d in matched(obs, [(value, 40.0, 40.0, 12.0)]) if d]
    assert read == [(value, False)], obs.notes
    assert_no_certain_ghost(obs, [(value, 40.0, 40.0, 12.0)])


# Benchmark train scenes (eleventh pass): a shadow's edge across a face, its round pips
# joined across it, the face model giving the join 0.91-0.97: asked before. (seed, x, y)
JOINS_THE_MODEL_BACKS = [(1018, 395, 224), (1021, 270, 139), (1097, 455, 390), (1039, 334, 259)]


@pytest.mark.parametrize(("seed", "x", "y"), JOINS_THE_MODEL_BACKS)
def test_a_face_joined_across_a_shadow_is_confirmed_at_a_lower_bar(seed: int, x: int, y: int
                                                                  ) -> None:  # fmt: skip
    """Round pips (seen from above) joined across uneven light into a 4, 5 or 6 the layouts read
    with no other doubt: on the train renders and photos every such join the face model gave
    0.75 or more was right, so it confirms them from ``JOIN_CONFIRM`` (0.9), not ``CONFIRM``."""
    sample = _shadow_scene(seed)
    (label,) = [lab for lab in sample.labels if math.hypot(lab.cx - x, lab.cy - y) < 3]
    truth = [(label.value, label.cx, label.cy, 0.5 * label.w)]
    obs = read_pips(sample.image)
    assert any(n.startswith(f"die at ({x}, {y}): pips joined") for n in obs.notes), obs.notes
    read = [(d.value, d.uncertain) for _, d in matched(obs, truth) if d is not None]
    assert read == [(label.value, False)], obs.notes


def test_only_a_join_of_round_pips_with_no_other_doubt_gets_the_lower_bar() -> None:
    from companion.vision.pips import Pip

    def pip(x: float, minor: float) -> Pip:
        return Pip(x, 50.0, 4.0, 4.0, minor, 0.0, 0, 120.0, (200.0, 200.0, 200.0), 200.0,
                   80.0, 5.0, 0)  # fmt: skip

    note = "pips joined across uneven light (3 + 1)"
    where = "die at (50, 50)"

    def face(minor: float, notes: list[str], value: int = 4) -> dice._Face:
        pips = [pip(42, 4.0), pip(47, 4.0), pip(53, 4.0), pip(58, minor)][-value:]
        return dice._Face(value, 50.0, 50.0, 30.0, 0.5, True, 1.0, notes, pips)

    assert dice._confirm_bar(face(4.0, [note]), where, [f"{where}: {note}"]) == dice.JOIN_CONFIRM
    # a pip seen at an angle: a side face's pip may be among them
    assert dice._confirm_bar(face(2.5, [note]), where, [f"{where}: {note}"]) == dice.CONFIRM
    # another doubt about the die (here, from a later check)
    other = [f"{where}: {note}", f"{where}: top or side face?"]
    assert dice._confirm_bar(face(4.0, [note]), where, other) == dice.CONFIRM
    assert dice._confirm_bar(face(4.0, ["low contrast pips (40)"]), where, []) == dice.CONFIRM
    # a 2 or a 3: what a bigger face's pips make when some are lost (a 6's column)
    for value, part in ((2, "(1 + 1)"), (3, "(2 + 1)")):
        small = f"pips joined across uneven light {part}"
        assert dice._confirm_bar(face(4.0, [small], value), where, [f"{where}: {small}"]) \
            == dice.CONFIRM
    # a 1 whose body runs on in shade, its only doubt (twelfth pass); not a 2 so noted
    shade = dice._IN_SHADE
    assert dice._confirm_bar(face(4.0, [shade], 1), where, [f"{where}: {shade}"]) \
        == dice.JOIN_CONFIRM
    assert dice._confirm_bar(face(4.0, [shade], 2), where, [f"{where}: {shade}"]) == dice.CONFIRM
    assert dice._confirm_bar(face(4.0, [shade], 1), where, [f"{where}: {shade}",
                                                            f"{where}: top or side face?"]) \
        == dice.CONFIRM
    assert dice.JOIN_CONFIRM < dice.CONFIRM


def test_a_sixs_column_joined_across_a_shadow_is_never_a_certain_3() -> None:
    """Shadow render 7 000 843 (the eleventh pass's validation range): a red 6 with white
    pips, a shadow's edge across it diagonally. One column, two pips lit and one shaded, is
    joined into a 3, to which the face model, shown the column, gives 0.91: with the lower
    bar for joins it was a certain 3. A join into a 2 or a 3 keeps the usual bar."""
    *_, sample = _synthetic_samples(4, 7_000_840, shadow=True)
    (label,) = [lab for lab in sample.labels if math.hypot(lab.cx - 225, lab.cy - 302) < 3]
    assert label.value == 6
    obs = read_pips(sample.image)
    here = [d for d in obs.dice if math.hypot(d.x - label.cx, d.y - label.cy) < 0.6 * label.w]
    assert here, obs.notes
    assert all(d.uncertain or d.value == 6 for d in here), (obs.dice, obs.notes)


def test_the_top_face_above_a_face_is_looked_for_up_to_the_pictures_edge() -> None:
    """A review found the place above a face ending within a pixel of the picture's right
    edge raised a ValueError (a mask one column wider than the picture's slice) on six
    turned, cropped or darkened train photos: the reader must never fail on a picture."""
    from companion.vision.pips import Pip

    resp = np.zeros((100, 100), np.float32)
    resp[40:46, 95:100] = 255.0  # a mark at the very edge, where the top face would be
    pip = Pip(79.5, 80.0, 3.0, 3.0, 2.0, 0.0, 0, 120.0, (200.0, 200.0, 200.0), 200.0, 80.0,
              5.0, 0)  # fmt: skip
    face = dice._Face(1, 79.5, 80.0, 40.0, 0.5, True, 0.7, [], [pip])
    assert dice._top_face_marks({0: resp}, face, 0.0)
    resp[:] = 0.0
    assert not dice._top_face_marks({0: resp}, face, 0.0)


# -- twelfth pass -----------------------------------------------------------------------------
def test_a_sixs_lit_column_beside_its_shaded_one_is_never_a_certain_3() -> None:
    """Shadow render 7 000 256 (the eleventh pass's validation range): a blue 6 seen from
    above, a shadow's edge along its columns. The lit column was read as a certain 3; the
    shaded one, fainter, with one pip cut by the shadow's edge, fit no face. Seen from above
    there is no front face below a face: a copy of the row below it, in the same face's
    shade, is the other column of a 6."""
    *_, sample = _synthetic_samples(7, 7_000_250, shadow=True)  # the range's 57th style
    assert sample.name == "synth-shadow-7000256-board-blue-white"
    (label,) = sample.labels
    assert label.value == 6
    obs = read_pips(sample.image)
    here = [d for d in obs.dice if math.hypot(d.x - label.cx, d.y - label.cy) < 0.6 * label.w]
    assert here, obs.notes
    assert all(d.uncertain or d.value == 6 for d in here), (obs.dice, obs.notes)


# Benchmark train scenes (twelfth pass): a shadow's edge across a 1, its body found running
# on in shade, the face model giving it 0.92-0.96: asked before. (seed, x, y)
ONES_THE_MODEL_BACKS = [(1016, 122, 331), (1017, 560, 404), (1081, 440, 238)]


@pytest.mark.parametrize(("seed", "x", "y"), ONES_THE_MODEL_BACKS)
def test_a_1_across_a_shadow_is_confirmed_at_the_lower_bar(seed: int, x: int, y: int) -> None:
    """A 1 whose die body runs on in shade (a shadow's edge across it) is asked, its only
    doubt one a picture settles. On the train renders the 40 right ones the face model was
    shown got 0.81-0.995 and the two wrong ones 0.02-0.03: confirmed from ``JOIN_CONFIRM``."""
    sample = _shadow_scene(seed)
    (label,) = [lab for lab in sample.labels if math.hypot(lab.cx - x, lab.cy - y) < 0.3 * lab.w]
    obs = read_pips(sample.image)
    assert any(n.startswith(f"die at ({x}, {y}): a lone pip: its body runs on in shade")
               for n in obs.notes), obs.notes  # fmt: skip
    read = [(d.value, d.uncertain) for _, d in matched(obs, [(1, label.cx, label.cy, 12.0)]) if d]
    assert label.value == 1 and read == [(1, False)], obs.notes


# light pips on dark or coloured dice: (table, die, pips), as the review drew them
_DARK_DICE = [("wood", "black", "white"), ("board", "blue", "white"), ("white", "red", "white"),
              ("white", "green", "white"), ("felt", "black", "white"), ("dark", "blue", "white"),
              ("white", "black", "white"), ("wood", "red", "white")]  # fmt: skip


def _low_dice_in_a_row(k: int) -> tuple[np.ndarray, list[tuple[int, float, float, float]]]:
    """The twelfth review's "lows" render ``k`` (odd; seed 997 000 + k): two or three 1s, 2s
    or 3s (joined, they make plausible faces) pressed side by side, or corner to corner when
    ``k`` is a multiple of 3, gap 0-4 px, 20-60 px dice, blurred by motion (2-12 px)."""
    seed = 997_000 + k
    rng = np.random.default_rng([seed, 12])
    table, die, pip = _DARK_DICE[int(rng.integers(len(_DARK_DICE)))]
    side = float(rng.uniform(20, 60))
    gap = float(rng.uniform(0, 4))
    ang = float(rng.uniform(0, 360))
    c, s = math.cos(math.radians(ang)), math.sin(math.radians(ang))
    m = int(rng.integers(2, 4))
    step = side + gap
    dx, dy = (c * step - s * step, s * step + c * step) if k % 3 == 0 else (c * step, s * step)
    spots = [(320 + dx * (i - (m - 1) / 2), 240 + dy * (i - (m - 1) / 2)) for i in range(m)]
    values = [int(v) for v in rng.choice([1, 1, 2, 3], m)]
    ln, th = float(rng.uniform(2, 12)), float(rng.uniform(0, math.pi))
    dice_ = [_Die(v, x, y, side, ang, COLOURS[die], COLOURS[pip],
                  blur=(ln * math.cos(th), ln * math.sin(th)))
             for v, (x, y) in zip(values, spots, strict=True)]  # fmt: skip
    image = _compose((640, 480), table, seed, dice_, 2.0, seed)
    return image, [(d.value, d.x, d.y, 0.6 * side) for d in dice_]


# review twelve's lows 997 101, 997 119, 997 271, 997 329 and 997 355: black 1s on felt
# read as a certain 3, 2, 2, 3 and 2 (the face model backing each)
@pytest.mark.parametrize("k", [101, 119, 271, 329, 355])
def test_1s_pressed_together_in_a_row_are_never_a_certain_2_or_3(k: int) -> None:
    """Blurred, the seam between two touching dice stays within their face's colour, and
    the pips of a row of 1s fit a 2 or a 3. Their body ends half a die across the row, not
    at a face's corners, and a seam crosses between each two pips: asked."""
    image, truth = _low_dice_in_a_row(k)
    assert all(value == 1 for value, *_ in truth)
    obs = read_pips(image)
    assert_never_certain_wrong(obs, truth)
    assert_no_certain_ghost(obs, truth)
    assert any("dice in a row?" in n for n in obs.notes), obs.notes


def _row_squared_up(k: int) -> tuple[np.ndarray, list[tuple[int, float, float, float]]]:
    """The twelfth review's "rows4" render ``k`` (seed 1 000 000 + k): 3-5 light dice with
    black pips (6s likely), 28-48 px, pressed together in a row squared up with the picture
    (gap 0-2 px), on one of five tables; sharp."""
    seed = 1_000_000 + k
    rng = np.random.default_rng([seed, 12])
    table = ["felt", "wood", "board", "white", "dark"][k % 5]
    die = ["ivory", "white", "yellow"][(k // 5) % 3]
    side = float(rng.uniform(28, 48))
    gap = float(rng.uniform(0, 2))
    ang = 90.0 * int(rng.integers(4)) + float(rng.uniform(-3, 3))
    m = int(rng.integers(3, 6))
    c, s = math.cos(math.radians(ang)), math.sin(math.radians(ang))
    step = side + gap
    spots = [(320 + c * step * (i - (m - 1) / 2), 240 + s * step * (i - (m - 1) / 2))
             for i in range(m)]  # fmt: skip
    values = [int(v) for v in rng.choice([6, 6, 6, 5, 4, 3, 2, 1], m)]
    dice_ = [_Die(v, x, y, side, ang, COLOURS[die], COLOURS["black"])
             for v, (x, y) in zip(values, spots, strict=True)]  # fmt: skip
    image = _compose((640, 480), table, seed, dice_, 2.0, seed)
    return image, [(d.value, d.x, d.y, 0.6 * side) for d in dice_]


@pytest.mark.parametrize("k", [174, 230])
def test_a_six_whose_columns_were_read_as_two_3s_counts_once(k: int) -> None:
    """A 6 in a row of touching dice, its columns split into two 3s, each with the other
    column beside it: each was offered as a 6 (`_column_of_a_six`), at the same place, and
    the face model confirmed both: two certain 6s for one die, the roll's total 6 too high.
    The 3 on the other column's places joins the 6: one 6, its six pips."""
    image, truth = _row_squared_up(k)
    obs = read_pips(image)
    assert_no_certain_ghost(obs, truth)
    for value, x, y, reach in truth:
        here = [d for d in obs.dice if math.hypot(d.x - x, d.y - y) <= reach]
        assert len(here) <= 1, (value, here, obs.notes)
        if value == 6:
            assert [d.value for d in here] == [6], (here, obs.notes)


def _soft_shadow(image: np.ndarray, angle: float, through: tuple[float, float] | None = None,
                 depth: float = 0.4, width: float = 25.0) -> np.ndarray:
    """A soft shadow's edge through the point ``through`` (default: the picture's middle),
    across the direction ``angle`` (radians); beyond it ``depth`` of the light is taken away,
    over a logistic edge ``width`` px wide."""
    h, w = image.shape[:2]
    cx, cy = through if through is not None else (w / 2, h / 2)
    yy, xx = np.mgrid[0:h, 0:w]
    d = (xx - cx) * math.cos(angle) + (yy - cy) * math.sin(angle)
    out = image.astype(np.float32) * (1 - depth / (1 + np.exp(-d / width)))[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


# the 2s of webcam train_two_47, cropped at (142, 206): (value, x, y, reach) in the crop
_TWO_47 = [(2, 150.0, 150.0, 20.0), (2, 44.0, 60.0, 20.0), (2, 187.0, 47.0, 16.0),
           (2, 61.0, 245.0, 25.0)]  # fmt: skip


@pytest.mark.parametrize("contrast", [0.6, 1.5])
def test_a_blurred_2_whose_pips_were_kept_apart_is_not_a_certain_1(contrast: float) -> None:
    """train_two_47 (crop), its contrast turned down or up as another webcam would: the 2
    in the middle is blurred, the line between its pips runs over their faint rims and the
    grouping keeps them apart. One pip's body then ends at the other's rim on one side and
    at the die's edge elsewhere, even enough for a 1: it was a certain 1. A lone pip whose
    body ends just short of a pip like it is asked (the face model may settle it)."""
    path = DATA / "webcam-white" / "crops" / "train_two_47_x142_y206.jpg"
    image = cv2.imread(str(path), cv2.IMREAD_COLOR).astype(np.float32)
    image = np.clip((image - 128.0) * contrast + 128.0, 0, 255).astype(np.uint8)
    obs = read_pips(image)
    assert_never_certain_wrong(obs, _TWO_47)
    assert_no_certain_ghost(obs, _TWO_47)
    assert any("ends at another pip" in n for n in obs.notes), obs.notes
    # the sharp 2s beside it are still read
    read = [(v, d.value, d.uncertain) for v, d in matched(obs, _TWO_47[1:3]) if d]
    assert read == [(2, 2, False), (2, 2, False)], obs.notes


# a soft shadow's edge (8 px) across the crop of train_two_47: (angle in twelfths of a half
# turn, the point it runs through, the share of the light it takes away); each gave a
# certain 1 for the 2 in the middle or top left (/tmp/a15/search47.py, fifteenth pass)
_SHADOWS_ON_47 = [(1, (187, 47), 0.5), (1, (187, 47), 0.4), (0, (44, 60), 0.3),
                  (8, (187, 47), 0.3)]  # fmt: skip


@pytest.mark.parametrize(("turn", "through", "depth"), _SHADOWS_ON_47)
def test_a_2_crossed_by_a_shadow_s_edge_between_its_pips_is_not_a_certain_1(
        turn: int, through: tuple[int, int], depth: float) -> None:  # fmt: skip
    """The edge runs between a blurred 2's pips, kept apart by the grouping: one pip's body
    ends at the edge, evenly enough for a 1, short of the other pip (in shade, as dark for
    its light). Over the die's face, in its colour in one light or another, the two pips
    are one face's: the lone pip is asked."""
    path = DATA / "webcam-white" / "crops" / "train_two_47_x142_y206.jpg"
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    obs = read_pips(_soft_shadow(image, turn * math.pi / 12, through, depth, 8.0))
    assert_never_certain_wrong(obs, _TWO_47)
    assert_no_certain_ghost(obs, _TWO_47)


SHARED_WEBCAM = Path("/work/shared/data/dice-photos/webcam-white")
needs_shared = pytest.mark.skipif(not (SHARED_WEBCAM / "images").is_dir(),
                                  reason="shared dice photos not present")  # fmt: skip


def _hue_turned(image: np.ndarray, turn: int) -> np.ndarray:
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    hsv[..., 0] = (hsv[..., 0].astype(int) + turn) % 180
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


@needs_shared
@pytest.mark.parametrize(("name", "angle"), [("train_two_38", 2.36756), ("train_two_5", 2.56575)])
def test_a_webcam_2_with_a_shadow_s_edge_between_its_pips_is_never_a_certain_1(
        name: str, angle: float) -> None:  # fmt: skip
    """A soft shadow's edge across the picture runs between a 2's pips: the lit pip's body
    ended at the edge 2.3 radii short of the shaded pip (two_38), or the shaded pip's at the
    light 3.4 radii short of the lit one (two_5). Each was a certain 1 with no note."""
    image, truth = labelled(SHARED_WEBCAM / "images" / f"{name}.jpg",
                            SHARED_WEBCAM / "labels" / f"{name}.txt")  # fmt: skip
    obs = read_pips(_soft_shadow(image, angle))
    assert_never_certain_wrong(obs, truth)
    assert any("one face with a pip like it" in n for n in obs.notes), obs.notes


@needs_shared
@pytest.mark.parametrize(("name", "change"), [("train_two_33", "hue"), ("train_two_28", "shadow")])
def test_a_lone_pip_off_its_body_s_middle_ending_at_a_pip_like_it_is_never_certain(
        name: str, change: str) -> None:  # fmt: skip
    """A webcam 2 whose pips the grouping kept apart, with its hue turned (another camera's
    white balance) or a soft shadow's edge across the picture: one pip's body ended just
    short of the other pip, and the pip lay off its body's middle (or the body was uneven).
    The face model, shown the die, confirmed a 1 (0.982, 0.974). Two signs of half a 2: the
    die stays asked, whatever the model says."""
    image, truth = labelled(SHARED_WEBCAM / "images" / f"{name}.jpg",
                            SHARED_WEBCAM / "labels" / f"{name}.txt")  # fmt: skip
    image = _hue_turned(image, 25) if change == "hue" else _soft_shadow(image, 1.48856)
    obs = read_pips(image)
    assert_never_certain_wrong(obs, truth)
    assert any("ends at another pip" in n for n in obs.notes), obs.notes


@needs_shared
def test_a_2_read_certain_at_640_px_is_not_made_a_question_by_an_asked_2_read_closer() -> None:
    """webcam train_two_47 brought up to 1280 px (as a bigger camera frame): read closer,
    the 2 at the bottom right is two lone pips whose rings took its edge, an asked 2
    (_edge_ringed_twos); read at 640 px it is a certain 2. The closer reading won, and the
    players were asked about a die already read. The asked 2 gives way to the certain one."""
    image, truth = labelled(SHARED_WEBCAM / "images" / "train_two_47.jpg",
                            SHARED_WEBCAM / "labels" / "train_two_47.txt")  # fmt: skip
    image = cv2.resize(image, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_LINEAR)
    truth = [(v, 2 * x, 2 * y, 2 * reach) for v, x, y, reach in truth]
    obs = read_pips(image)
    assert_never_certain_wrong(obs, truth)
    assert_no_certain_ghost(obs, truth)
    die = [d for v, d in matched(obs, truth) if d and abs(d.x - 850) < 20 and abs(d.y - 831) < 20]
    assert [(d.value, d.uncertain) for d in die] == [(2, False)], obs.notes


@needs_shared
def test_long_marks_side_by_side_that_the_face_model_does_not_see_as_a_6_are_left_out() -> None:
    """A label's letters on a webcam's table (train_five_16, at its left: three strokes
    side by side, as long and as far apart as a small 6's columns) were read as a 6 from two
    columns; the face model did not confirm it, and the players were asked about a die that
    is not there. Such a 6 is left out unless the face model confirms it."""
    image = cv2.imread(str(SHARED_WEBCAM / "images" / "train_five_16.jpg"), cv2.IMREAD_COLOR)
    obs = read_pips(image)
    assert [(d.value, d.uncertain) for d in obs.dice] == [(5, False), (5, False)], obs.notes
    alone = read_pips(image, second_opinion=False)
    assert any(d.value == 6 and d.uncertain and d.x < 100 for d in alone.dice), alone.notes


def test_a_top_5_and_its_front_3_in_one_cluster_are_read_apart() -> None:
    """Webcam train_five_13 (crop at (250, 30)): a white 5 seen from above and in front, the
    diagonal 3 of its front face just below it. Their 8 pips were one cluster that no split
    parted, read as an asked 6 ("8 pips in one cluster"). Cut into the pips that read as a
    face with no doubt and the few below it (its front face), the 5 is read."""
    path = DATA / "webcam-white" / "crops" / "train_five_13_x250_y30.jpg"
    obs = read_pips(cv2.imread(str(path), cv2.IMREAD_COLOR))
    assert [(d.value, d.uncertain) for d in obs.dice] == [(5, False)], obs.notes


@needs_shared
def test_a_top_face_and_its_front_face_in_one_cluster_on_a_whole_photo() -> None:
    """train_five_15: the same die and view as train_five_13, whole photo, another 5 beside."""
    image, truth = labelled(SHARED_WEBCAM / "images" / "train_five_15.jpg",
                            SHARED_WEBCAM / "labels" / "train_five_15.txt")  # fmt: skip
    obs = read_pips(image)
    assert_never_certain_wrong(obs, truth)
    assert_no_certain_ghost(obs, truth)
    assert [(v, d.value, d.uncertain) for v, d in matched(obs, truth) if d] == \
        [(5, 5, False), (5, 5, False)], obs.notes


def _faint_completion_loop(resp: np.ndarray, m: np.ndarray, pip_r: float, contrast: float,
                           n: int) -> tuple[float, int]:  # fmt: skip
    """:func:`dice._faint_completion` as it was before speed23: place by place."""
    best, value = 0.0, 0
    h, w = resp.shape
    rad = max(1, round(0.5 * pip_r))
    for rest in dice._COMPLETIONS.get(n, []):
        pts = np.concatenate([rest, np.ones((len(rest), 1))], axis=1) @ m
        least = math.inf
        for x, y in np.round(pts).astype(int):
            if not (0 <= x < w and 0 <= y < h):
                least = 0.0
                break
            patch = resp[max(0, y - rad) : y + rad + 1, max(0, x - rad) : x + rad + 1]
            least = min(least, float(np.median(patch)) / max(contrast, 1.0))
        if least > best:
            best, value = least, n + len(rest)
    return best, value


def test_faint_completion_is_the_place_by_place_medians() -> None:
    """:func:`dice._faint_completion` takes the medians of all its whole squares at once
    (:func:`dice._patch_medians`): the same faintness and value, bit for bit, as place by
    place, on a rendered face's pip response, with faces across the picture and over its
    edges (clipped squares, places outside)."""
    from companion.vision import pips

    _, planes = _pip_planes(3)
    resp = pips._hat(planes[pips.DARK], pips._BLACK_HAT)
    h, w = resp.shape
    rng = np.random.default_rng(11)
    seen = set()
    for _ in range(400):
        step, turn = rng.uniform(4.0, 30.0), rng.uniform(0, math.pi)
        c, s = step * math.cos(turn), step * math.sin(turn)
        m = np.array([[c, s], [-s, c], [rng.uniform(-20, w + 20), rng.uniform(-20, h + 20)]])
        n, r, contrast = int(rng.integers(2, 5)), rng.uniform(1.5, 8.0), rng.uniform(0.5, 90)
        got = dice._faint_completion(resp, m, r, contrast, n)
        assert got == _faint_completion_loop(resp, m, r, contrast, n)
        seen.add(got[1])
    assert len(seen) > 3
    # squares clipped by the picture's edge (even sizes too) are np.median's
    xs, ys = np.array([0, 1, w - 1, 5, w - 2]), np.array([3, 0, h - 1, h - 2, 7])
    want = [float(np.median(resp[max(0, y - 3) : y + 4, max(0, x - 3) : x + 4]))
            for x, y in zip(xs.tolist(), ys.tolist(), strict=True)]  # fmt: skip
    assert dice._patch_medians(resp, xs, ys, 3).tolist() == want


def test_a_pip_disc_mean_is_the_mean_of_its_pixels() -> None:
    """:func:`pips._describe_all` takes a disc's mean as its integer sum over its size: the
    same pip greys, bit for bit, as ``mean()`` of the disc's pixels, on a rendered table's
    pips."""
    from companion.vision import pips

    work, planes = _pip_planes(5)
    found, _ = pips.find_pips(work, planes)
    grey = planes[pips.DARK]
    h, w = grey.shape
    checked = 0
    for p in found:
        if p.polarity != pips.DARK or p.level:
            continue
        key = round(round(max(p.r, 1.5) * 4) / 4 * 4)
        _, inner, _ = pips._offsets(key, w)
        want = float(grey.reshape(-1)[inner + round(p.y) * w + round(p.x)].mean())
        assert p.pip_grey == want
        checked += 1
    assert checked > 5
