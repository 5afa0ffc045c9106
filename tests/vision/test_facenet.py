"""The learned second opinion on pip dice (companion.vision.facenet, dice._second_opinion).

The shipped model (assets/vision/pips_face.onnx) is loaded for real through OpenCV's DNN
module and shown real renders and real photos: it must read renders it was never trained on,
make the reader ask about a die it reads otherwise, confirm only doubts a picture can settle,
and, when the model is missing or broken, leave the classical reader working alone.
"""

from __future__ import annotations

import logging
import math
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")

from companion.devices.synthetic import render_dice, render_oblique  # noqa: E402
from companion.vision import dice, facenet  # noqa: E402
from companion.vision.dice import read_pips  # noqa: E402
from companion.vision.pips import Pip, find_pips, intensities  # noqa: E402

DATA = Path(__file__).parent / "data"
# renders far from the training seeds (300 000..) and the benchmark's (1 000.., 50 000..)
FRESH = 910_000


@pytest.fixture(scope="module")
def model() -> facenet.FaceNet:
    m = facenet.load(dice.FACE_MODEL)
    assert m is not None, "assets/vision/pips_face.onnx must ship and load"
    return m


def _face(value: int, x: float, y: float, side: float, *, uncertain: bool,
          unsettled: bool = False) -> dice._Face:  # fmt: skip
    return dice._Face(value, x, y, side, 0.9, uncertain, 1.0, [], [], unsettled)


def test_crops_are_square_normalised_and_survive_the_picture_edge() -> None:
    img = np.full((100, 120, 3), 200, np.uint8)
    img[40:60, 50:70] = 30  # a dark square in the middle
    crops = facenet.face_crops(img, np.array([[60.0, 50.0], [2.0, 98.0], [500.0, 500.0]]),
                               np.array([20.0, 20.0, 20.0]))  # fmt: skip
    assert crops.shape == (3, 3, facenet.CROP_PX, facenet.CROP_PX)
    assert abs(float(crops[0].mean())) < 1e-4 and float(crops[0].std()) > 0.5
    mid = facenet.CROP_PX // 2
    assert crops[0][0, mid, mid] < crops[0][0, 1, 1]  # the dark square is in the middle
    # half outside: the same as cutting from the picture with its edges replicated
    pad = 30
    padded = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    half = 20.0 * facenet.CROP_SCALE / 2
    x0, y0 = round(2 - half) + pad, round(98 - half) + pad
    size = round(2 * half)
    ref = cv2.resize(padded[y0:y0 + size, x0:x0 + size], (facenet.CROP_PX, facenet.CROP_PX),
                     interpolation=cv2.INTER_LINEAR).astype(np.float32)  # fmt: skip
    ref = (ref - ref.mean()) / max(float(ref.std()), 4.0)
    assert np.allclose(crops[1], ref.transpose(2, 0, 1), atol=1e-4)
    assert not crops[2].any()  # wholly outside: nothing to see


def test_the_model_reads_fresh_renders_of_every_face(model: facenet.FaceNet) -> None:
    right = total = 0
    for k in range(30):
        values = [1 + (k + j) % 6 for j in range(3)]
        img, truth = render_dice(values, FRESH + k, table=("wood", "felt", "board")[k % 3],
                                 die_px=40 + k)  # fmt: skip
        probs = model.probabilities(img, np.array([(t.x, t.y) for t in truth]),
                                    np.array([t.size for t in truth]))  # fmt: skip
        assert probs.shape == (3, len(model.classes))
        assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)
        got = [model.classes[int(i)] for i in probs.argmax(axis=1)]
        right += sum(g == t.value for g, t in zip(got, truth, strict=True))
        total += len(truth)
    assert right / total >= 0.95, f"{right}/{total}"


def test_bare_table_is_not_a_die_face(model: facenet.FaceNet) -> None:
    img, [t] = render_dice([3], FRESH, table="wood", die_px=60)
    spots = [(x, y) for x in (60.0, 320.0, 580.0) for y in (60.0, 240.0, 420.0)
             if abs(x - t.x) > 120 or abs(y - t.y) > 120]  # fmt: skip
    probs = model.probabilities(img, np.array(spots), np.full(len(spots), 60.0))
    assert [model.classes[int(i)] for i in probs.argmax(axis=1)] == [0] * len(spots)


def test_a_certain_reading_the_model_disagrees_with_is_asked(model: facenet.FaceNet) -> None:
    img, [t] = render_dice([5], FRESH + 100, table="felt", die_px=60)
    wrong = _face(2, t.x, t.y, t.size, uncertain=False)  # as if the pips were misgrouped
    right = _face(5, t.x, t.y, t.size, uncertain=False)
    notes: list[str] = []
    dice._second_opinion(model, img, 1.0, [wrong, right], notes)
    assert wrong.uncertain and wrong.value == 2  # asked, its reading kept for the screen
    assert not right.uncertain
    assert any("second opinion sees a 5" in n for n in notes)


def test_only_doubts_a_picture_can_settle_are_confirmed(model: facenet.FaceNet) -> None:
    img, truth = render_dice([4, 6], FRESH + 200, table="wood", die_px=64)
    loose = _face(4, truth[0].x, truth[0].y, truth[0].size, uncertain=True)
    side = _face(6, truth[1].x, truth[1].y, truth[1].size, uncertain=True, unsettled=True)
    dice._second_opinion(model, img, 1.0, [loose, side], [])
    assert not loose.uncertain  # e.g. "low contrast pips": the model sees a clear 4
    assert side.uncertain  # e.g. glare residue: the model would be fooled too; still asked


def test_reader_with_and_without_the_second_opinion_agree_on_clear_dice() -> None:
    img, truth = render_dice([1, 3, 6], FRESH + 300, table="board", die_px=56)
    for second in (True, False):
        obs = read_pips(img, second_opinion=second)
        assert sorted(d.value for d in obs.dice if not d.uncertain) == [1, 3, 6]


def test_on_the_test_photos_the_second_opinion_never_makes_a_wrong_die_certain() -> None:
    """The photos in tests/vision/data (mostly train photos the model learned from: this is
    a regression check, not a measure; the benchmark's held-out splits are that)."""
    photos = 0
    for label in sorted(DATA.rglob("*.txt")):
        photo = next(label.parent.glob(label.stem + ".*g"), None)
        if photo is None:
            continue
        photos += 1
        img = cv2.imread(str(photo))
        h, w = img.shape[:2]
        truth = []
        for line in label.read_text().split("\n"):
            if line.strip():
                c, cx, cy, bw, bh = (float(v) for v in line.split())
                truth.append((int(c) + 1, cx * w, cy * h, 0.75 * max(bw * w, bh * h)))
        obs = read_pips(img)
        for d in obs.dice:
            if d.uncertain:
                continue
            near = [v for v, x, y, r in truth if abs(d.x - x) <= r and abs(d.y - y) <= r]
            assert near and d.value in near, f"{photo.name}: certain {d.value} at {d.x, d.y}"
    assert photos >= 4


@pytest.mark.parametrize("name", ["train_dice_42", "train_dice_46"])
def test_side_faces_on_real_photos_are_never_made_certain(name: str) -> None:
    """Oblique webcam frames (train split: the model learned from them) where the classical
    reader keeps a side face as a possible die. Those ghosts must stay asked (in
    train_dice_46 one of them was certain before the second opinion), and the top faces
    found are read right."""
    folder = DATA / "webcam-white" / "side-faces"
    img = cv2.imread(str(folder / f"{name}.jpg"))
    h, w = img.shape[:2]
    truth = []
    for line in (folder / f"{name}.txt").read_text().split("\n"):
        if line.strip():
            c, cx, cy, bw, bh = (float(v) for v in line.split())
            truth.append((int(c) + 1, cx * w, cy * h, 0.75 * max(bw * w, bh * h) + 10))
    obs = read_pips(img)
    ghosts = [d for d in obs.dice
              if not any(abs(d.x - x) <= r and abs(d.y - y) <= r for _, x, y, r in truth)]
    assert ghosts, "the photo no longer shows the case"
    assert all(d.uncertain for d in ghosts), obs.notes
    dice_read = [d for d in obs.dice if d not in ghosts]
    assert len(dice_read) >= 3, obs.notes
    assert all(d.value == 1 for d in dice_read), obs.notes  # every die here shows a 1


def _pip(x: float, y: float, r: float = 5.0) -> Pip:
    return Pip(x, y, r, r, r, 0.0, 0, 150.0, (220.0, 220.0, 220.0), 220.0, 70.0, 5.0, 0)


def test_pips_that_fit_no_face_are_offered_as_a_question() -> None:
    """An ivory 6 of 39 px on a printed board: a board line runs through its pips, so five
    of them fit no layout and the classical reader misses the die (benchmark tuning render
    1082; until the eighth pass the case was render 1019, a red 3 on a black mat whose top
    pip merged with the die's corner: its third pip is now read from its mark). The second
    opinion sees a 6 there: the die is offered, asked."""
    rng = np.random.default_rng([1082, 99])
    values = [int(v) for v in rng.integers(1, 7, int(rng.integers(1, 7)))]
    img, truth = render_dice(values, 1082, table="board", die_color="ivory", pip_color="black",
                             die_px=float(rng.uniform(36, 80)))  # fmt: skip
    lost = next(t for t in truth if abs(t.x - 296) < 10 and abs(t.y - 237) < 10)

    def near(obs):  # type: ignore[no-untyped-def]
        return [d for d in obs.dice if abs(d.x - lost.x) < 0.5 * lost.size
                and abs(d.y - lost.y) < 0.5 * lost.size]  # fmt: skip

    alone = read_pips(img, second_opinion=False)
    assert near(alone) == []
    obs = read_pips(img)
    assert [(d.value, d.uncertain) for d in near(obs)] == [(lost.value, True)], obs.notes
    assert any("pips that fit no face; the second opinion sees a 6" in n for n in obs.notes)
    assert sum(1 for d in obs.dice if not d.uncertain) == len(truth) - 1


def test_a_lone_one_without_a_closed_body_is_offered_as_a_question(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Webcam frame train_dice_46: the 1 at the top right, its pip smeared by the webcam.
    Until the eleventh pass its body's rays stopped in the smear and the lone-pip rule
    missed it; it reads it now (asked by the rule alone since the fourteenth pass: one of
    its rays ends at a pip of the side face below it, and the second opinion settles that).
    Where that rule finds no closed body, the second opinion, which sees a 1 there, offers
    it as a question."""
    img = cv2.imread(str(DATA / "webcam-white" / "side-faces" / "train_dice_46.jpg"))
    alone = read_pips(img, second_opinion=False)
    assert [d.value for d in alone.dice if abs(d.x - 376) < 15 and abs(d.y - 95) < 15] == [1]
    both = read_pips(img)
    assert [(d.value, d.uncertain) for d in both.dice
            if abs(d.x - 376) < 15 and abs(d.y - 95) < 15] == [(1, False)], both.notes  # fmt: skip
    monkeypatch.setattr(dice, "_lone_body", lambda *args: None)  # no body found around it
    alone = read_pips(img, second_opinion=False)
    assert not [d for d in alone.dice if abs(d.x - 376) < 15 and abs(d.y - 95) < 15]
    obs = read_pips(img)
    assert [(d.value, d.uncertain) for d in obs.dice
            if abs(d.x - 376) < 15 and abs(d.y - 95) < 15] == [(1, True)], obs.notes  # fmt: skip


def test_no_die_is_offered_over_or_just_below_a_die_already_read(
    model: facenet.FaceNet,
) -> None:
    """Pips left over next to a die read (part of it, or its front side face in an oblique
    view: a clear face to the model) never become a second die; the same pips away from any
    die may."""
    img, [t] = render_dice([3], FRESH + 500, size=(640, 640), table="felt", die_px=60)
    # a copy of the die just below it: what a front side face can look like to the model
    x0, y0, half, drop = int(t.x), int(t.y), int(0.75 * t.size), int(1.15 * t.size)
    img[y0 + drop - half:y0 + drop + half, x0 - half:x0 + half] = \
        img[y0 - half:y0 + half, x0 - half:x0 + half].copy()
    read = _face(3, t.x, t.y, t.size, uncertain=False)
    r = t.size / dice.RESCUE_SIDE  # pips of this die's size
    own = [_pip(t.x - 8, t.y - 8, r), _pip(t.x + 8, t.y + 8, r)]
    below = [_pip(t.x - 8, t.y + drop - 8, r), _pip(t.x + 8, t.y + drop + 8, r)]
    assert dice._rescue(model, img, 1.0, [own, below], [read], []) == []
    assert len(dice._rescue(model, img, 1.0, [below], [], [])) == 1  # alone, it is offered
    # without the die read, the die's own pips are offered as the 3 the model sees
    offered = dice._rescue(model, img, 1.0, [own], [], [])
    assert [(f.value, f.uncertain) for f in offered] == [(3, True)]


def _glared(seed: int, mode: str) -> tuple[np.ndarray, object]:
    """A render of two dice whose first die has its second pip washed out by a glare disc
    ("glare": brighter than the face) or rubbed out ("erase": face-coloured)."""
    k = seed - 970_000
    table = ("wood", "felt", "board")[k % 3]
    img, truth = render_dice([[4, 5, 6, 3][k % 4], 1 + k % 6], seed, table=table,
                             die_px=44 + k % 36)  # fmt: skip
    t = truth[0]
    work = cv2.medianBlur(img, 3)
    pips, _ = find_pips(work, intensities(work))
    mine = sorted((p for p in pips if math.hypot(p.x - t.x, p.y - t.y) < 0.6 * t.size),
                  key=lambda p: (p.y, p.x))  # fmt: skip
    p = mine[1]
    colour = (250, 250, 250) if mode == "glare" else tuple(int(c) for c in p.face)
    radius = int(p.r * 1.2) if mode == "glare" else int(p.r * 1.6) + 1
    cv2.circle(img, (round(p.x), round(p.y)), radius, colour, -1)
    return img, t


def test_glare_residue_on_a_face_is_never_confirmed() -> None:
    """A glare disc over the middle pip of a 3 on a game board: the pips read a 2 with
    "unexplained marks on the face" (asked). The model, shown the same pixels, also sees a
    2: it must not confirm it (found by review: it did, at 0.992). (Fifteenth pass: the disc
    leaves no mark on the face itself; the marks are the board's lines around the die, which
    keep any 2 or 3 unsettled. On a plain table such a 3 is a certain 2: docs/vision.md,
    "Tried and dropped: marks beside a 2 or a 3".)"""
    img, t = _glared(970_011, "glare")
    obs = read_pips(img)
    die = [d for d in obs.dice if math.hypot(d.x - t.x, d.y - t.y) < 0.5 * t.size]
    assert die and all(d.uncertain or d.value == t.value for d in die), obs.notes


# doubts the model may settle; every other doubt must keep the die asked
# "top or side face?" is, unless a die body lit brighter lies above the face ("a die body lit
# brighter above it", seventh pass: seen steeply, a front side face is as square as its top
# face, and the model confirmed such side faces)
SETTLEABLE = ("low contrast pips", "but pips", "top or side face?", "side face unclear",
              "pips squashed sideways", "die body above this face", "a lone pip: ",
              "nor where a bigger face's pip would be",
              "pips joined across uneven light")  # fmt: skip


class _Agreeing:
    """A stand-in model that agrees with every reading, as sure as can be: what is then
    confirmed is decided by the doubts alone."""

    classes = (0, 1, 2, 3, 4, 5, 6)
    values: list[int] = []

    def probabilities(self, image, centres, sides):  # type: ignore[no-untyped-def]
        out = np.zeros((len(centres), 7), np.float32)
        for i in range(len(centres)):
            out[i, self.values[i] if i < len(self.values) else 0] = 1.0
        return out


def _agree_with_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader's second opinion given by :class:`_Agreeing` instead of the face model."""
    fake = _Agreeing()
    real = dice._second_opinion

    def spy(model, img, scale, faces, notes):  # type: ignore[no-untyped-def]
        fake.values = [f.value for f in faces]
        real(fake, img, scale, faces, notes)  # type: ignore[arg-type]

    monkeypatch.setattr(dice, "_second_opinion", spy)


def _touching() -> np.ndarray:
    """A white 2 and a white 6 touching on felt: the 6's pips lie next to the 2, on a face of
    the 2's colour ("a pip nearby is not part of it": the 2 may be part of a bigger face)."""
    image, (two,) = render_dice([2], 9, (640, 480), table="felt", die_px=60)
    other, (six,) = render_dice([6], 109, (640, 480), table="felt", die_px=60)
    h = int(six.size * 0.75)
    patch = other[int(six.y) - h:int(six.y) + h, int(six.x) - h:int(six.x) + h]
    cx, cy = int(two.x + two.size * 1.05), int(two.y)
    region = image[cy - h:cy + h, cx - h:cx + h]
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(int)
    die = np.abs(grey - np.median(cv2.cvtColor(region, cv2.COLOR_BGR2GRAY))) > 30
    region[die] = patch[die]
    return image


def _scenes() -> Iterator[tuple[str, np.ndarray]]:
    for photo in sorted(DATA.rglob("*.jpg")):
        yield photo.name, cv2.imread(str(photo))
    for k in range(24):
        for mode in ("glare", "erase"):
            yield f"{mode} {970_000 + k}", _glared(970_000 + k, mode)[0]
    # dice at an angle (test_oblique's scenes 7002 and 7005): low-contrast pips, and a lone
    # pip off the middle of a face that may be a top or a side face
    yield "a 2 touching a 6", _touching()
    yield "oblique 7002", render_oblique([3, 6, 2], 7002, tilt_deg=30, die_px=54, table="board",
                                         die_colour="red", pip_colour="white")[0]  # fmt: skip
    yield "oblique 7005", render_oblique([1, 3, 5, 2], 7005, tilt_deg=25, die_px=50,
                                         table="wood", die_colour="black",
                                         pip_colour="white")[0]  # fmt: skip
    # the benchmark's oblique 1075: two adjacent pips of a red 4 read as a 2, the 4's two
    # others beside them, where a 4 has them ("a pip nearby is not part of it")
    yield "oblique 1075", render_oblique([4, 5, 5, 4, 1, 2], 1075, (640, 480),
                                         tilt_deg=14.317787159537833,
                                         die_px=60.1420663906564, table="dark", die_colour="red",
                                         pip_colour="white")[0]  # fmt: skip


def test_only_doubts_a_picture_can_settle_are_confirmed_on_real_cases(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a model that agrees with everything, a die asked for a doubt that says pips may
    be missing or belong to a bigger face (glare residue, a pip nearby, ...) stays asked, and
    a die asked only for doubts a picture can settle is confirmed. Real photos and renders
    with a pip washed out or rubbed out."""
    _agree_with_everything(monkeypatch)
    monkeypatch.setattr(dice, "_rescue", lambda *args: [])  # no die offered here
    monkeypatch.setattr(dice, "_found_elsewhere", lambda *args: [])  # nor found
    seen: dict[bool, set[str]] = {True: set(), False: set()}
    for name, img in _scenes():
        alone = read_pips(img, second_opinion=False)
        both = read_pips(img)
        # a 6 read from two column marks stands only if the second opinion confirms it
        # (dice._unconfirmed_columns_dropped): an unsettled one is left out
        columns = {n.split(": ", 1)[0] for n in alone.notes if "from its two columns" in n}
        kept = [a for a in alone.dice if f"die at ({a.x:.0f}, {a.y:.0f})" not in columns
                or any((b.x, b.y) == (a.x, a.y) for b in both.dice)]  # fmt: skip
        assert len(kept) == len(both.dice), name
        for a, b in zip(kept, both.dice, strict=True):
            assert (a.value, a.x, a.y) == (b.value, b.x, b.y), name
            if not a.uncertain:
                assert not b.uncertain, name
                continue
            why = [n.split(": ", 1)[1] for n in alone.notes
                   if n.startswith(f"die at ({a.x:.0f}, {a.y:.0f}):")]  # fmt: skip
            if any("read twice" in w for w in why):
                continue  # two faces on one spot: the notes cannot be told apart
            settles = all(any(k in w for k in SETTLEABLE) and "other pips" not in w
                          for w in why)  # fmt: skip
            assert b.uncertain != settles, f"{name}: {why} -> uncertain {b.uncertain}"
            for w in why:
                seen[settles].add(re.sub(r"[\d.()]+", "", w).strip())
    # the cases above must exercise both kinds of doubt, and the main unsettled ones
    assert seen[True] and seen[False], seen
    unsettled = " | ".join(seen[False])
    for doubt in ("unexplained marks on the face", "a cell that should be empty",
                  "a pip nearby is not part of it"):  # fmt: skip
        assert doubt in unsettled, seen


def test_a_front_3_under_its_top_6_stays_asked_whatever_the_model_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The benchmark's oblique render 1177 (33 px yellow dice on felt, 29 degrees): a die's
    top 6 is not read, its front 3 below it is, with the 6's pips just above it as
    "unexplained marks". The real face model gives that 3 0.961, just under ``CONFIRM``.
    Marks above a 2 or a 3 may be its top face's: no second opinion may settle them, so
    even a model that agrees with every reading leaves it asked."""
    image, truths = render_oblique([4, 5, 6, 6, 6], 1177, (640, 480),
                                   tilt_deg=29.22300214279453, die_px=33.43461402344751,
                                   table="felt", die_colour="yellow", pip_colour="black")
    _agree_with_everything(monkeypatch)
    obs = read_pips(image)
    six = min(truths, key=lambda t: math.hypot(t.x - 367, t.y - 63))
    assert six.value == 6
    near = [d for d in obs.dice if math.hypot(d.x - six.x, d.y - six.y) < six.size]
    assert near and all(d.uncertain or d.value == 6 for d in near), obs.notes


def test_missing_or_broken_model_leaves_the_reader_working(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    img, _ = render_dice([2, 5], FRESH + 400, table="felt", die_px=60)
    alone = read_pips(img, second_opinion=False)
    broken = tmp_path / "vision"
    broken.mkdir()
    (broken / "pips_face.onnx").write_bytes(b"not a network")
    shutil.copy(facenet.model_path(dice.FACE_MODEL).with_suffix(".json"), broken)
    bad_meta = tmp_path / "meta"
    bad_meta.mkdir()
    shutil.copy(facenet.model_path(dice.FACE_MODEL), bad_meta)
    (bad_meta / "pips_face.json").write_text(
        '{"classes": [0, 1, 2, 3, 4, 5], "crop_px": 40, "crop_scale": 1.4}')  # 6, not 7
    try:
        for where in (tmp_path / "nowhere", broken, bad_meta):
            monkeypatch.setattr(facenet, "model_path", lambda name, w=where: w / f"{name}.onnx")
            facenet.load.cache_clear()
            with caplog.at_level(logging.WARNING):
                assert facenet.load(dice.FACE_MODEL) is None
                obs = read_pips(img)
            assert obs.dice == alone.dice
            assert "without" in caplog.text
            caplog.clear()
    finally:
        monkeypatch.undo()
        facenet.load.cache_clear()
    assert facenet.load(dice.FACE_MODEL) is not None
