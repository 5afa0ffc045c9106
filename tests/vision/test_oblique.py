"""Dice seen at an angle (issue 4: "camera straight down or up to about 35 deg oblique; side
faces seen obliquely must not be counted").

The renders are ``companion.devices.synthetic.render_oblique``: cubes resting on the table,
seen by a tilted pinhole camera, every visible face drawn with its pips (the side faces show
the values a right-handed die has next to its top). First the renderer's truth is checked
(the benchmark's synthetic-oblique set and these tests score against it), then what a
player would notice: a side face never counted as a die, a top face never told wrong.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from companion.devices.synthetic import (  # noqa: E402
    ObliqueTruth,
    die_faces,
    render_dice,
    render_oblique,
)
from companion.vision.dice import read_pips  # noqa: E402
from companion.vision.observation import DiceObservation  # noqa: E402

TOOLS = Path(__file__).resolve().parents[2] / "tools"
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))
from benchmark_dice import SYNTH_STYLES as _SYNTH_STYLES  # noqa: E402
from benchmark_dice import oblique_params as _oblique_params  # noqa: E402


# -- the renderer ------------------------------------------------------------------------------
@pytest.mark.parametrize("top", [1, 2, 3, 4, 5, 6])
def test_every_die_lies_as_a_right_handed_die(top: int) -> None:
    """Opposite faces sum to 7 and, seen from outside the corner where 1, 2 and 3 meet, they
    run counterclockwise (a right-handed die), whichever of its four ways it lies."""
    seen = set()
    for k in range(40):
        faces = die_faces(top, np.random.default_rng(k))
        assert faces[(0, 0, 1)] == top
        for axis, value in faces.items():
            assert faces[(-axis[0], -axis[1], -axis[2])] == 7 - value
        where = {value: np.array(axis) for axis, value in faces.items()}
        assert np.linalg.det(np.stack([where[1], where[2], where[3]])) == pytest.approx(1.0)
        seen.add(tuple(sorted(faces.items())))
    assert len(seen) == 4  # the four ways it can lie with that top


def _box_pixels(image: np.ndarray, t: ObliqueTruth) -> np.ndarray:
    x0, y0, x1, y1 = (round(v) for v in t.box)
    return image[y0:y1, x0:x1]


def test_the_top_face_centre_lies_on_the_top_face_which_is_the_brightest() -> None:
    """White pips on white dice (faces of one colour): the centre of each top face is the
    die's white, not the dark table; the top face faces the lamp most, each side face in view
    is darker."""
    image, truths = render_oblique([2, 4, 6], seed=3, tilt_deg=30, die_px=64, table="dark",
                                   pip_colour="white")  # fmt: skip
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(float)
    for t in truths:
        top = grey[round(t.y) - 2 : round(t.y) + 3, round(t.x) - 2 : round(t.x) + 3]
        assert top.mean() > 180  # the white top face, not the dark table nor a pip
        assert t.sides, "at 30 degrees a side face is in view"
        for _value, sx, sy, size in t.sides:
            side = grey[round(sy) - 2 : round(sy) + 3, round(sx) - 2 : round(sx) + 3]
            if size > 0.4 * t.size:
                assert 60 < side.mean() < top.mean()  # the die, in less light


def test_straight_down_looks_like_a_top_down_render() -> None:
    """At 0 degrees with a far camera (a long focal length) the table is the top-down
    renderer's own, no side face shows, each top face is the die's side across, and the
    reader reads it like a top-down die: never a certain wrong value, most read."""
    image, truths = render_oblique([2, 5, 6, 3], seed=21, tilt_deg=0, die_px=56, table="felt",
                                   focal=64000)  # fmt: skip
    table, _ = render_dice([], seed=21, table="felt")
    away = np.ones(image.shape[:2], bool)
    for t in truths:
        assert t.size == pytest.approx(56, rel=0.01)
        assert all(size < 0.1 * t.size for _v, _x, _y, size in t.sides)
        x0, y0, x1, y1 = (round(v) for v in t.box)
        away[max(0, y0 - 45) : y1 + 45, max(0, x0 - 45) : x1 + 45] = False
    diff = np.abs(image.astype(int) - table.astype(int)).max(axis=2)[away]
    assert np.percentile(diff, 99) <= 2
    obs = read_pips(image)
    for t in truths:
        assert all(d.uncertain or d.value == t.value for d in _matches(obs, t)), obs.notes
    # when written the 6 was asked (a 2 built from two of its pips): 3 of 4
    assert _certain_right(obs, truths) >= 3, obs.notes


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_side_faces_show_at_30_degrees_with_their_pips(value: int) -> None:
    """The same die drawn with black and with white pips: the pixels that change are the pips
    of every face in view, the top's and the two side faces' (half as big as the top)."""
    black, [t] = render_oblique([value], seed=1, tilt_deg=30, die_px=80, table="white")
    white, _ = render_oblique([value], seed=1, tilt_deg=30, die_px=80, table="white",
                              pip_colour="white")  # fmt: skip
    assert len(t.sides) == 2 and all(size > 0.5 * t.size for _v, _x, _y, size in t.sides)
    assert {v for v, *_ in t.sides}.isdisjoint({t.value, 7 - t.value})
    changed = (np.abs(black.astype(int) - white.astype(int)).max(axis=2) > 40).astype(np.uint8)
    blobs = cv2.connectedComponents(changed)[0] - 1
    assert blobs == t.value + sum(v for v, *_ in t.sides)


def test_same_seed_same_pixels_and_a_clear_error_when_dice_do_not_fit() -> None:
    a, ta = render_oblique([3, 4], seed=9, tilt_deg=25)
    b, tb = render_oblique([3, 4], seed=9, tilt_deg=25)
    assert np.array_equal(a, b) and ta == tb
    with pytest.raises(ValueError, match="cannot place"):
        render_oblique([1] * 6, seed=9, size=(200, 150), die_px=60)


# -- the reader ----------------------------------------------------------------------------------
def _nearest_face(truths: list[ObliqueTruth], x: float, y: float) -> tuple[str, int]:
    """("top" or "side", value) of the face whose centre is nearest (x, y), in face sizes."""
    best = (math.inf, "top", 0)
    for t in truths:
        for kind, v, fx, fy, size in [("top", t.value, t.x, t.y, t.size)] + [
            ("side", *s) for s in t.sides
        ]:
            d = math.hypot(x - fx, y - fy) / max(size, 1.0)
            best = min(best, (d, kind, v))
    return best[1], best[2]


def _matches(obs: DiceObservation, t: ObliqueTruth) -> list:
    """The readings the benchmark would accept for this die: within 0.75 of its top face's
    box from the top face's centre."""
    w, h = t.box[2] - t.box[0], t.box[3] - t.box[1]
    return [d for d in obs.dice if abs(d.x - t.x) <= 0.75 * w and abs(d.y - t.y) <= 0.75 * h]


def _certain_right(obs: DiceObservation, truths: list[ObliqueTruth]) -> int:
    return sum(any(not d.uncertain and d.value == t.value for d in _matches(obs, t))
               for t in truths)  # fmt: skip


def _assert_certain_dice_are_top_faces_read_right(obs: DiceObservation,
                                                  truths: list[ObliqueTruth], where: str
                                                  ) -> None:  # fmt: skip
    """Every certain reading sits on a top face (never a side face) and has its value."""
    for d in obs.dice:
        if d.uncertain:
            continue
        kind, value = _nearest_face(truths, d.x, d.y)
        assert kind == "top", f"{where}: a side face {value} read as a certain {d.value}"
        assert d.value == value, f"{where}: a certain {d.value} for a {value} at {d.x:.0f}"


STYLES = [("wood", "white", "black"), ("felt", "white", "black"), ("board", "red", "white"),
          ("dark", "white", "black"), ("white", "green", "white"),
          ("wood", "black", "white")]  # fmt: skip
VALUES = [[2, 5, 3], [6, 4, 1, 5], [3, 6, 2], [5, 1, 4, 6], [4, 2, 6], [1, 3, 5, 2]]


def test_side_faces_seen_at_20_to_35_degrees_are_never_certain_dice() -> None:
    """Twelve scenes fixed before the reader was run on them: tilts 20, 25, 30, 35 degrees,
    six table and dice styles, dice of 50-58 px. Every certain reading sits on a top face
    (a side face is never counted) with that face's value, and most top faces are read."""
    right = total = 0
    for k in range(12):
        table, die, pip = STYLES[k % len(STYLES)]
        seed, tilt = 7000 + k, (20, 25, 30, 35)[k % 4]
        image, truths = render_oblique(VALUES[k % 6], seed, tilt_deg=tilt, die_px=50 + 2 * (k % 5),
                                       table=table, die_colour=die, pip_colour=pip)  # fmt: skip
        obs = read_pips(image)
        _assert_certain_dice_are_top_faces_read_right(obs, truths, f"seed {seed}")
        right += _certain_right(obs, truths)
        total += len(truths)
    assert right >= 0.5 * total  # 25 of 41 when written


# Scenes of the benchmark's synthetic-oblique train split (tools/benchmark_dice.py
# oblique_params) where, before the seventh pass's fixes, a side face was counted: the dice
# far from the tilted camera are seen at 42-51 degrees, where a front side face is as square
# as its top face (or squarer), lit darker, and often turned (its top face up-left or
# up-right of it). 1181, 1201, 1212: the reader asked "top or side face?" and the face model
# confirmed the side face; 1024, 1124, 1161, 1162, 1224: the top face was not read and the
# side face was read alone, certain.
# 1498, 1727, 50027, 50065, 50068, 50097, 50145 (the studied held-out range): the front side
# face, lit half as bright as its top face, showed a 1 (or a 4) read certain.
# 1622: a white die's front face (a 4), lit darker than its top face, in a picture taken at
# an angle: only a body of the same colour above it counted.
# 1486: a left side face, "pips squashed sideways", confirmed by the face model (0.975).
STEEP_SIDE_FACES = [1024, 1124, 1161, 1162, 1181, 1201, 1212, 1224,
                    1498, 1727, 50027, 50065, 50068, 50097, 50145, 1622, 1486]  # fmt: skip


# 50006 (studied held-out range, 9 deg): a 67 px red 5 whose corner pips, ringed by the
# die's darker bevel, were not grouped with its middle pip, read as a certain 1.
BIG_PIPS_APART = [50006]
# 1252: a black die's top 4 and two pip columns of its front face, half as contrasted,
# read as one certain 6.
TWO_FACES_AS_ONE = [1252]
# 1069: one column of a squashed white 6 read as a certain 3 (the columns not joined).
ONE_FACE_IN_HALVES = [1069]
# 1015 (ninth pass, while lone pips in two lights were being joined): a red die's top 1 and a
# pip of its side face in shade, joined as a 2 and confirmed by the face model.
TOP_AND_SIDE_PIP = [1015]
# 3 000 055 (the eighth pass's blind range, looked at in the ninth): a small red die on the
# dark table at 30 degrees, its top 2 not read; its front 4, under a top face lit more than
# twice as much, was a certain die.
FRONT_UNDER_A_BRIGHT_TOP = [3_000_055]
# 2 000 133 (heldout-b, blind in the seventh pass; a silent wrong since, studied in the
# tenth): a black die at 35 degrees, its top 6's squashed pips read as no face; its right
# face 5, below them, was a certain die.
UNDER_UNREAD_PIPS = [2_000_133]
# 10 000 028 (heldout-i, blind in the fourteenth pass; studied in the fifteenth): a red die
# at 18 degrees on the dark table, its top 2's pips not grouped; its front 3, in shade and
# duller than the top face above it, was a certain die.
FRONT_IN_SHADE_DULLER = [10_000_028]
# 11 000 108 (heldout-j, blind in the fifteenth pass; studied in the sixteenth): a red die
# low in a picture taken straight down (0.4 degrees): the camera sees the side face that
# looks towards the picture's middle, above the top face. That squashed 2, above the top 1,
# was a certain die.
FAR_SIDE_ABOVE = [11_000_108]
# 12 000 078 (heldout-k, blind in the sixteenth pass; studied in the seventeenth): a yellow die
# at 18 degrees, its top 6 not read; its front 2 was a certain die: the patch above it was
# mostly the 6's pips, so no die body was seen there. And 3 000 011, the same with a top face
# lit brighter: once that body was seen, the face model confirmed the front 5 (a 6).
UNDER_A_TOP_S_PIPS = [12_000_078, 3_000_011]
# 12 000 075 (heldout-k, the same): a blue die at 4 degrees, its top 1 read; the die finder
# also proposed its front face, and the 3 read there, enlarged, was a certain die.
FOUND_BESIDE_ITS_TOP = [12_000_075]
# 13 000 110 (heldout-l, blind in the seventeenth pass; studied after it): a black die at 34
# degrees, its top 6's columns found as two long marks (each column's pips merged), not read;
# its front 4 below was a certain die.
UNDER_MERGED_COLUMNS = [13_000_110]


def _benchmark_scene(seed: int) -> tuple[np.ndarray, list[ObliqueTruth]]:
    """The benchmark's synthetic-oblique render of ``seed`` (tools/benchmark_dice.py)."""
    tilt, style, values, die_px = _oblique_params(seed)
    table, die, pip = _SYNTH_STYLES[style]
    return render_oblique(values, seed, (640, 480), tilt_deg=tilt, die_px=die_px, table=table,
                          die_colour=die, pip_colour=pip)  # fmt: skip


def _top_face_read(seed: int, x: int, y: int, value: int
                   ) -> tuple[np.ndarray, ObliqueTruth]:  # fmt: skip
    """Scene ``seed``'s top face at (x, y) is read ``value``, certain, and every certain die
    of the scene is a top face read right; the scene and that face's truth."""
    image, truths = _benchmark_scene(seed)
    (t,) = [t for t in truths if math.hypot(t.x - x, t.y - y) < 3]
    obs = read_pips(image)
    _assert_certain_dice_are_top_faces_read_right(obs, truths, f"seed {seed}")
    assert [(d.value, d.uncertain) for d in _matches(obs, t)] == [(value, False)], obs.notes
    return image, t


@pytest.mark.parametrize("seed", STEEP_SIDE_FACES + BIG_PIPS_APART + TWO_FACES_AS_ONE
                                  + ONE_FACE_IN_HALVES + TOP_AND_SIDE_PIP
                                  + FRONT_UNDER_A_BRIGHT_TOP + UNDER_UNREAD_PIPS
                                  + FRONT_IN_SHADE_DULLER + FAR_SIDE_ABOVE
                                  + UNDER_A_TOP_S_PIPS + FOUND_BESIDE_ITS_TOP
                                  + UNDER_MERGED_COLUMNS)
def test_a_side_face_seen_steeply_is_not_counted(seed: int) -> None:
    """Nor is the top face read wrong (BIG_PIPS_APART, TWO_FACES_AS_ONE,
    ONE_FACE_IN_HALVES, TOP_AND_SIDE_PIP)."""
    image, truths = _benchmark_scene(seed)
    _assert_certain_dice_are_top_faces_read_right(read_pips(image), truths, f"seed {seed}")


# Benchmark train scenes (eighth pass) where a top face's pips were not grouped together: a
# pip near the face's edge has the bevel or the side face in its ring, and the face between
# the pips is brighter than at their rings, so the grouping kept them apart and the face was
# read as an asked 2 with pips in its empty cells; or three of its pips fit no face and the
# die was missed (1055, 1145: big white 4s); or one pip of a 3, near the die's edge, was
# not found as a pip at all, only as a mark (1053). (seed, x, y, value) of such a top face.
SPLIT_FACES = [(1012, 392, 383, 4), (1017, 259, 241, 4), (1017, 74, 71, 5), (1028, 157, 416, 4),
               (1055, 185, 300, 4), (1145, 278, 144, 4), (1053, 565, 306, 3)]  # fmt: skip


@pytest.mark.parametrize(("seed", "x", "y", "value"), SPLIT_FACES)
def test_a_face_whose_pips_the_grouping_split_is_read_whole(seed: int, x: int, y: int,
                                                            value: int) -> None:  # fmt: skip
    """Read with its value and certain (the face model confirms it); the pips alone join
    it but only ask it, never tell it: joined across a line the grouping refused, a face
    could hold a side face's pips."""
    image, t = _top_face_read(seed, x, y, value)
    alone = [d for d in _matches(read_pips(image, second_opinion=False), t)]
    assert [(d.value, d.uncertain) for d in alone] == [(value, True)]


# Benchmark train scenes (eighth pass): a top 3 with a pip of its die's side face beside it,
# in another light (its ring's colour and the line to it off the face's colour). "A pip
# nearby is not part of it" asked the 3, though that pip cannot be part of its face.
SIDE_PIP_BESIDE = [(1103, 545, 41, 3), (1112, 142, 42, 3)]
# ... and top 2s and 3s whose side face's pips lay in the marks looked for beyond the die (a
# 6's other column would lie there): "unexplained marks on the face" asked them.
SIDE_PIPS_AS_MARKS = [(1063, 101, 186, 3), (1112, 594, 203, 2), (1139, 513, 108, 2),
                      (1026, 538, 190, 3)]  # fmt: skip
# ... and a small black die's top 2 (tenth pass), its pips a little big for its side: its
# body looked off its centre because the rays ran on over its side faces, in one direction,
# and "pips too big for a 2" asked it. A pair of a bigger face lies off its die's middle in
# every direction near one way; a side face takes one or two.
CENTRED_BESIDE_SIDE_FACES = [(1137, 186, 136, 2)]
# ... and top 1s (seventeenth pass, spent held-out ranges) with pips of their front face below,
# like their own and joined to them by a line of the die's colour in less light: "one face
# with a pip like it" asked them. Those pips are a face of their own: each lies in a group of
# pips that, with the 1, is no row.
ONE_ABOVE_A_SIDE_FACE = [(4_000_005, 547, 38, 1), (10_000_078, 512, 80, 1),
                         (12_000_129, 523, 122, 1)]  # fmt: skip


@pytest.mark.parametrize(("seed", "x", "y", "value"),
                         SIDE_PIP_BESIDE + SIDE_PIPS_AS_MARKS + CENTRED_BESIDE_SIDE_FACES
                         + ONE_ABOVE_A_SIDE_FACE)
def test_a_side_face_pip_beside_a_top_face_does_not_ask_it(seed: int, x: int, y: int,
                                                          value: int) -> None:  # fmt: skip
    _top_face_read(seed, x, y, value)


# Benchmark train scenes (ninth pass): top 2s and 3s whose side face, in shade, shows pips
# that were found with a ring too close to tell from the face by a line, or only as marks
# (squashed, no ellipse found), beyond the face's own square: "unexplained marks" asked them.
SIDE_PIPS_IN_SHADE = [(1050, 122, 197, 3), (1065, 588, 164, 2), (1146, 284, 57, 3)]
# (1026's 3 at 538, 190 was one of them: since the nineteenth pass found its side face's pips,
# joined to the die's outline at a coarser scale (pips._joined_pips), they are pips on another
# surface, left out with no doubt, SIDE_PIPS_AS_MARKS above)


@pytest.mark.parametrize(("seed", "x", "y", "value"), SIDE_PIPS_IN_SHADE)
def test_side_face_pips_in_shade_leave_a_top_face_to_the_face_model(seed: int, x: int, y: int,
                                                                   value: int) -> None:  # fmt: skip
    """Read with their value and certain once the face model confirms them; the pips alone
    only ask them (marks left out by their light alone may be anything in shade)."""
    image, t = _top_face_read(seed, x, y, value)
    alone = [d for d in _matches(read_pips(image, second_opinion=False), t)]
    assert [(d.value, d.uncertain) for d in alone] == [(value, True)]


# Benchmark train scenes (eighteenth pass): dice the learned die finder saw, whose pips the
# reader could not read (a top face and its front face grouped as one, a small die's pips
# lost) and whose face model reading was under CONFIRM. They were left out of the roll, with
# no question: a total short of a die, silently. Now asked, with the face model's guess.
# (1261's 6 at 388, 305 was one of them: its pips are read since the nineteenth pass, cut
# from the die's outline, SIX_JOINED_TO_ITS_OUTLINE below)
FOUND_NOT_READ = [1042, 1126, 1136]


@pytest.mark.parametrize("seed", FOUND_NOT_READ)
def test_a_die_the_finder_sees_but_no_one_reads_is_asked_not_left_out(seed: int) -> None:
    image, truths = _benchmark_scene(seed)
    obs = read_pips(image)
    _assert_certain_dice_are_top_faces_read_right(obs, truths, f"seed {seed}")
    for t in truths:
        assert _matches(obs, t), f"seed {seed}: the {t.value} at ({t.x:.0f}, {t.y:.0f}) left out"
    assert any("found by the die finder" in n and "face model's guess" in n
               for n in obs.notes), obs.notes


# Benchmark scenes (eighteenth pass; train 1227, spent heldout-d/e/f): white 2s seen nearly
# from above, each pip near a corner of its face with the die's edge in its ring, so the line
# between them (clean face, brighter than those rings) was refused by the grouping, and
# neither pip was clean enough for a lone look: missed or only the finder's question. Read
# right and certain now (the face model confirms them). (seed, x, y) of the 2.
EDGE_RINGED_TWOS = [(1227, 334, 378), (4_000_050, 362, 85), (5_000_080, 511, 139),
                    (6_000_051, 446, 371)]  # fmt: skip
# ... and (nineteenth pass; train 1191, spent heldout-d/k/l) 2s of red and black dice with
# light pips, each pip clean but with no die body around it alone: the pair was not tried
# (only pips that were not clean were), the line between them was brighter than their rings
# (the die's edge darkens the rings of light pips too), and their own front face, below with
# smaller pips, counted as a face read beside them.
EDGE_RINGED_LIGHT_TWOS = [(1191, 501, 326), (4_000_076, 368, 113), (12_000_046, 572, 391),
                          (13_000_000, 138, 387)]  # fmt: skip
# ... and two pips of a 4 whose other two pips were lost (train 1234, the 4 at 185, 258):
# they fit a 2; the die finder reads the 4 there, and no 2 may take its place.
FOUR_WITH_TWO_PIPS_LOST = [(1234, 185, 258, 4)]


@pytest.mark.parametrize(("seed", "x", "y"), EDGE_RINGED_TWOS + EDGE_RINGED_LIGHT_TWOS)
def test_a_2_whose_pips_rings_took_its_edge_is_read(seed: int, x: int, y: int) -> None:
    _top_face_read(seed, x, y, 2)


@pytest.mark.parametrize(("seed", "x", "y", "value"), FOUR_WITH_TWO_PIPS_LOST)
def test_two_pips_of_a_bigger_face_do_not_take_its_place_as_a_2(seed: int, x: int, y: int,
                                                                 value: int) -> None:  # fmt: skip
    _top_face_read(seed, x, y, value)


# Benchmark scenes (nineteenth pass; train 1261, spent heldout-e/g/h/i/j): ivory 6s of 46-70
# px on the printed board, clear, their pips apart, missed (1261: asked from the die finder).
# At the pyramid level where pips of that size are found, the six pips were one mark with the
# die's shaded outline, its side faces, the board's lines or its printed ring: too big for
# pips, left out. Cut at half its peak, the mark falls into the six pips. (seed, x, y).
SIX_JOINED_TO_ITS_OUTLINE = [(1261, 388, 305), (5_000_000, 357, 299), (8_000_083, 347, 257),
                             (9_000_014, 446, 185), (9_000_014, 591, 158),
                             (10_000_003, 285, 194), (11_000_034, 128, 52)]  # fmt: skip


@pytest.mark.parametrize(("seed", "x", "y"), SIX_JOINED_TO_ITS_OUTLINE)
def test_a_6_whose_pips_join_its_outline_at_a_coarser_scale_is_read(seed: int, x: int,
                                                                     y: int) -> None:  # fmt: skip
    _top_face_read(seed, x, y, 6)


# Benchmark scenes (nineteenth pass; train and spent heldout-c/e/f): 6s of 18-23 px whose
# pips touch in their columns: each column is one long mark, no pip of the die is found, and
# the die was missed. Two such marks side by side are cut into three pips each, read as an
# asked 6 that the face model confirms. Dark pips on ivory and white dice, light pips on
# black ones (4 000 056, 5 000 056). (seed, x, y) of the 6.
SIX_IN_TWO_COLUMNS = [(1250, 341, 292), (1250, 534, 311), (1070, 600, 410), (3_000_030, 255, 392),
                      (4_000_056, 57, 288), (5_000_056, 521, 210)]  # fmt: skip


@pytest.mark.parametrize(("seed", "x", "y"), SIX_IN_TWO_COLUMNS)
def test_a_small_6_whose_pips_touch_in_their_columns_is_read(seed: int, x: int, y: int) -> None:
    _top_face_read(seed, x, y, 6)



# Benchmark train scenes (twentieth pass): a top 2 or 3, read right, with a pip beside it
# that is not part of it (its die's side face in the same light, or another die's) was asked,
# "a pip nearby is not part of it", and no second opinion could settle that: the 2 may be two
# pips of a bigger face. When that pip fits no face with the 2's or 3's pips and lies nowhere
# a 3 to 6 made of them has one, the face model confirms it. (seed, x, y, value)
PIP_NEARBY_OF_NO_BIGGER_FACE = [(1269, 504, 294, 2), (1017, 535, 308, 3), (1147, 344, 71, 2),
                                (1191, 587, 151, 2), (1201, 553, 159, 3), (1204, 616, 300, 3)]


@pytest.mark.parametrize(("seed", "x", "y", "value"), PIP_NEARBY_OF_NO_BIGGER_FACE)
def test_a_pip_nearby_of_no_bigger_face_leaves_a_2_or_3_to_the_face_model(
        seed: int, x: int, y: int, value: int) -> None:  # fmt: skip
    _top_face_read(seed, x, y, value)


# Benchmark train scenes (twenty-first pass): 2s and 3s seen at 14-35 degrees, asked for
# "unexplained marks on the face", which no second opinion could settle: a 2 or a 3 may be
# what is left of a bigger face, and the marks its lost pips. Here the marks are the die's
# own side faces or a board's print beyond the face: not on the face, not above it (where a
# front face's top face lies), nowhere a 3 to 6 made of its pips has one. The face model
# confirms them. (seed, x, y, value)
MARKS_OF_NO_BIGGER_FACE = [(1092, 246, 251, 2), (1279, 141, 153, 3), (1245, 36, 262, 3),
                           (1097, 136, 314, 3), (1075, 221, 91, 2), (1194, 471, 381, 2)]


@pytest.mark.parametrize(("seed", "x", "y", "value"), MARKS_OF_NO_BIGGER_FACE)
def test_marks_beside_a_2_or_3_of_no_bigger_face_are_left_to_the_face_model(
        seed: int, x: int, y: int, value: int) -> None:  # fmt: skip
    _top_face_read(seed, x, y, value)


# Benchmark train scenes (twenty-first pass): small dice (21-35 px) whose 3, 4 or 5 was read
# as an asked 2, "a cell that should be empty looks like a pip", or an asked 1 with marks
# around its pip: their other pips are not found at the working size. The die finder sees
# the die; read in its enlarged crop, the face is read certain, fits the die and the face
# model agrees. (seed, x, y, value)
CROWDED_READ_CLOSER = [(1036, 398, 108, 4), (1116, 108, 245, 4), (1298, 477, 248, 5),
                       (1134, 198, 195, 5), (1093, 533, 153, 3),
                       # 3s whose corners were lost (white pips on red, 33-58 px): an asked
                       # 1 with marks around its lone pip, or no 1 at all
                       (1099, 561, 391, 3), (1265, 136, 348, 3), (1268, 417, 111, 3),
                       (1043, 402, 151, 3)]


@pytest.mark.parametrize(("seed", "x", "y", "value"), CROWDED_READ_CLOSER)
def test_a_small_die_read_as_a_1_or_2_with_marks_of_lost_pips_is_read_closer(
        seed: int, x: int, y: int, value: int) -> None:  # fmt: skip
    _top_face_read(seed, x, y, value)


# ... and where the crop's reading is not certain, the players are asked with the crop's
# bigger value, not the 2 (on the train and spent ranges the crop's value was the die's in
# 79 such cases, the 2's in 8). (seed, x, y, value)
OFFERED_AS_READ_CLOSER = [(1168, 236, 354, 6), (1192, 51, 139, 6), (1202, 76, 195, 5),
                          (1081, 168, 22, 4)]


@pytest.mark.parametrize(("seed", "x", "y", "value"), OFFERED_AS_READ_CLOSER)
def test_a_small_asked_2_is_offered_the_value_read_closer(seed: int, x: int, y: int,
                                                          value: int) -> None:  # fmt: skip
    image, truths = _benchmark_scene(seed)
    (t,) = [t for t in truths if math.hypot(t.x - x, t.y - y) < 3]
    obs = read_pips(image)
    _assert_certain_dice_are_top_faces_read_right(obs, truths, f"seed {seed}")
    assert [(d.value, d.uncertain) for d in _matches(obs, t)] == [(value, True)], obs.notes


def test_a_found_1_the_face_model_gives_09_is_read() -> None:
    """Benchmark train scene 1235: a 19 px 1 on felt, found by the die finder and read
    certain in its enlarged crop, given 0.93 by the face model: certain from 0.9, as a
    found 4 to 6 is (a 2 or a 3, what a bigger face leaves, still needs ``CONFIRM``)."""
    _top_face_read(1235, 514, 115, 1)


def test_a_2_beside_pips_where_its_4_has_them_stays_asked() -> None:
    """Benchmark train scene 1075: two adjacent pips of a red 4 (60 px, seen at 14 degrees)
    read as a 2 with the 4's other two pips beside them, where a 4 has them: the 2 is part of
    a bigger face, so it stays asked whatever the face model says."""
    image, truths = _benchmark_scene(1075)
    obs = read_pips(image)
    _assert_certain_dice_are_top_faces_read_right(obs, truths, "seed 1075")
    (two,) = [d for d in obs.dice if math.hypot(d.x - 401, d.y - 63) < 3]
    assert (two.value, two.uncertain) == (2, True), obs.notes
    assert "die at (401, 63): a pip nearby is not part of it" in obs.notes


# Benchmark train scenes (twentieth pass): 4s and 5s of 19-27 px that the die finder found,
# read certain in its enlarged crop, the face fitting the die, and given 0.93-0.96 by the face
# model: asked at the old bar (CONFIRM 0.97). A found 4 to 6 is certain from 0.9
# (FOUND_SURE); a 1 to 3 still needs CONFIRM. (seed, x, y, value)
FOUND_FOUR_TO_SIX = [(1016, 573, 225, 4), (1102, 319, 127, 5), (1151, 273, 137, 4),
                     (1189, 571, 373, 5)]


@pytest.mark.parametrize(("seed", "x", "y", "value"), FOUND_FOUR_TO_SIX)
def test_a_found_4_to_6_the_face_model_gives_09_is_read(seed: int, x: int, y: int,
                                                        value: int) -> None:  # fmt: skip
    _top_face_read(seed, x, y, value)


# Benchmark scenes (twenty-second pass) on the ivory printed board, whose light squares at the
# frame have the dice's colour: a 3 or a 4 whose body "reached the picture's edge" was asked,
# though it and every bigger face it may be part of lie whole in view. (seed, x, y, value)
CLEAR_OF_THE_FRAME = [(1083, 598, 195, 4), (8_000_006, 231, 431, 3), (12_000_077, 56, 46, 4)]


@pytest.mark.parametrize(("seed", "x", "y", "value"), CLEAR_OF_THE_FRAME)
def test_a_face_whose_pips_lie_clear_of_the_frame_is_read_by_the_edge(
        seed: int, x: int, y: int, value: int) -> None:  # fmt: skip
    """Its body may run to the edge; the frame hides none of its pips, nor any place a bigger
    face's would be. (A 4 whose lower pips the frame cut is still asked: see
    test_dice_reader.test_a_die_cut_by_the_frame_is_not_read_as_what_is_left_of_it.)"""
    _top_face_read(seed, x, y, value)
