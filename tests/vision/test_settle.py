"""Settle logic on generated frame sequences: one report per roll, none while a hand hovers or
a die spins, knocked dice reported as corrections, disagreeing frames made uncertain.

Frames are synthetic renders (companion.devices.synthetic). The reader is a *truth reader*: it
knows, for each frame it may be given, the dice that frame really shows, so these tests check
the settle logic and not the pip reader. It refuses motion frames: the detector must never read
a frame in which something moves.
"""

from __future__ import annotations

import dataclasses
import math
import queue
import time
from collections.abc import Sequence

import cv2
import numpy as np
import pytest

from companion.devices.synthetic import COLOURS, SyntheticSource, _compose, _Die
from companion.devices.worker import CameraWorker
from companion.vision.observation import DiceObservation, DieReading
from companion.vision.settle import (
    DiceMoving,
    DiceRolled,
    Roll,
    SettleConfig,
    SettleDetector,
    SettleState,
    VisionProblem,
    combine,
    match_dice,
)
from companion.vision.worker import DiceWorker
from tests.waiting import next_event

SIZE = (320, 240)  # small frames keep the suite fast
SIDE = 29.0  # 12 % of the short side, as the synthetic camera draws them
STILL_FOR = SettleConfig().still_for


# -- building sequences -----------------------------------------------------------------------
def die(value: int, x: float, y: float, angle: float = 20.0, **kw: object) -> _Die:
    return _Die(value, x, y, SIDE, angle, COLOURS["white"], COLOURS["black"], **kw)  # type: ignore[arg-type]


def render(dice: Sequence[_Die], noise_seed: int = 1) -> np.ndarray:
    return _compose(SIZE, "wood", 7, dice, 2.0, noise_seed)


def observation(dice: Sequence[_Die], hidden: np.ndarray | None = None) -> DiceObservation:
    seen = [
        DieReading(d.value, d.x, d.y, 0.99, False, d.size)
        for d in dice
        if hidden is None or not hidden[int(d.y), int(d.x)]
    ]
    return DiceObservation("pips", tuple(seen), SIZE[0], SIZE[1])


class Sequence_:
    """Frames with what each one shows (None: something moves in it, do not read it)."""

    def __init__(self) -> None:
        self.frames: list[np.ndarray] = []
        self.truth: dict[int, DiceObservation | None] = {}
        self.labels: list[str] = []
        self.read_labels: list[str] = []
        self.read_indices: list[int] = []
        self._noise: dict[tuple[int, ...], list[np.ndarray]] = {}

    def add(self, frame: np.ndarray, obs: DiceObservation | None, label: str) -> None:
        self.frames.append(frame)
        self.truth[id(frame)] = obs
        self.labels.append(label)

    def still(self, dice: Sequence[_Die], count: int, label: str = "still") -> None:
        """``count`` frames of the dice lying still (four noise patterns, like a camera)."""
        key = tuple(hash(d) for d in dice)
        if key not in self._noise:
            self._noise[key] = [render(dice, s) for s in range(4)]
        obs = observation(dice)
        for i in range(count):
            frame = self._noise[key][i % 4]
            # a fresh array per frame (as a camera gives) so reads can be traced to a frame;
            # very long runs share four arrays to stay light
            self.add(frame.copy() if count <= 100 else frame, obs, label)

    def moving(self, frames: Sequence[np.ndarray], label: str = "motion") -> None:
        for frame in frames:
            self.add(frame, None, label)

    def reader(self, frame: np.ndarray) -> DiceObservation:
        obs = self.truth[id(frame)]
        index = next(i for i, f in enumerate(self.frames) if f is frame)
        self.read_labels.append(self.labels[index])
        self.read_indices.append(index)
        assert obs is not None, f"read a frame in motion ({self.labels[index]})"
        return obs

    def run(
        self, fps: float = 15, config: SettleConfig | None = None
    ) -> tuple[list[tuple[int, Roll]], SettleDetector]:
        detector = SettleDetector(self.reader, config or SettleConfig(report_initial=False))
        rolls = []
        for i, frame in enumerate(self.frames):
            roll = detector.update(frame, i / fps)
            if roll is not None:
                rolls.append((i, roll))
        return rolls, detector


def slide(start: Sequence[_Die], end: Sequence[_Die], steps: int) -> list[np.ndarray]:
    """Frames of dice moving from ``start`` to ``end`` (values as in ``start`` until the end)."""
    frames = []
    for k in range(1, steps + 1):
        f = k / (steps + 1)
        moved = [
            dataclasses.replace(
                a, x=a.x + (b.x - a.x) * f, y=a.y + (b.y - a.y) * f,
                angle=a.angle + (b.angle - a.angle) * f, blur=(2.0, 1.0),
            )
            for a, b in zip(start, end, strict=True)
        ]  # fmt: skip
        frames.append(render(moved, 100 + k))
    return frames


def with_hand(frame: np.ndarray, cx: float, cy: float) -> tuple[np.ndarray, np.ndarray]:
    """The frame with a skin-coloured hand (palm centred at cx, cy) and its arm reaching in from
    the right edge, with a soft shadow; and the mask of what it hides."""
    h, w = frame.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    cv2.ellipse(mask, (int(cx), int(cy)), (42, 30), -15, 0, 360, 255, -1)
    arm = np.array([[cx + 10, cy - 22], [w + 40, cy - 40], [w + 40, cy + 30], [cx + 10, cy + 24]])
    cv2.fillPoly(mask, [arm.astype(np.int32)], 255)
    for fx, fy in ((-48, -22), (-54, -4), (-50, 14), (-38, 28)):  # fingers
        cv2.ellipse(mask, (int(cx + fx), int(cy + fy)), (16, 6), 10, 0, 360, 255, -1)
    shadow = cv2.GaussianBlur(np.roll(mask, (10, -8), (0, 1)).astype(np.float32) / 255, (0, 0), 6)
    out = frame.astype(np.float32) * (1 - 0.35 * shadow[..., None])
    shade = np.linspace(0.9, 1.05, w, dtype=np.float32)[None, :, None]
    skin = np.array([118, 150, 205], np.float32) * shade
    a = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), 1.2)[..., None]
    out = out * (1 - a) + skin * a
    return out.clip(0, 255).astype(np.uint8), mask > 0


A = [die(3, 80, 70, 20), die(5, 220, 160, 65)]  # two dice lying still
B = [die(6, 150, 180, 40), die(2, 250, 60, 10)]  # the next roll


def values(roll: Roll) -> list[int]:
    return roll.observation.values()


# -- (a) a roll --------------------------------------------------------------------------------
@pytest.mark.parametrize("fps", [15, 30])
def test_a_roll_is_reported_once_with_the_right_values_within_the_still_window(fps) -> None:
    seq = Sequence_()
    seq.still(A, 8)
    seq.moving(slide(A, B, 6))
    first_still = len(seq.frames)
    seq.still(B, 40)
    rolls, detector = seq.run(fps)
    assert len(rolls) == 1
    index, roll = rolls[0]
    assert values(roll) == [6, 2] and not roll.observation.uncertain
    assert roll.still_since == pytest.approx(first_still / fps)
    assert STILL_FOR <= roll.latency <= STILL_FOR + 1 / fps + 1e-9
    assert roll.readings == 3 and set(seq.read_labels) == {"still"}
    # three different frames, read as the still window goes by: one read at report time
    assert len(set(seq.read_indices)) == 3 and seq.read_indices.count(index) == 1
    assert sorted(seq.read_indices)[0] <= first_still + math.ceil(STILL_FOR * fps / 3)
    assert roll.correction_of is None and roll.changed == (0, 1)
    assert detector.state is SettleState.IDLE


def test_the_synthetic_cameras_own_roll_frames_give_one_roll() -> None:
    """SyntheticSource.roll(): tumbling, blurred motion frames, then the settled dice."""
    source = SyntheticSource(5, size=SIZE, motion_frames=6)
    source.open()
    seq = Sequence_()

    def take(n: int) -> None:
        for _ in range(n):
            moving = not source.settled
            frame = source.read()
            truth = [DieReading(d.value, d.x, d.y, 0.99, False, d.size) for d in source.truth]
            obs = DiceObservation("pips", tuple(truth), SIZE[0], SIZE[1])
            seq.add(frame, None if moving else obs, "motion" if moving else "still")

    take(10)
    before = [d.value for d in source.truth]
    truths = source.roll([4, 1])
    take(20)
    rolls, _ = seq.run(15, SettleConfig())  # the dice already there count as a first roll
    assert [values(r) for _, r in rolls] == [before, [4, 1]]
    assert [(d.x, d.y) for d in rolls[1][1].observation.dice] == [(t.x, t.y) for t in truths]


def test_the_real_pip_reader_behind_the_detector_reports_the_roll_once() -> None:
    """With companion.vision.dice.read_pips (when present): one roll, read from three still
    frames; its values are the truth unless the roll is flagged uncertain."""
    dice = pytest.importorskip("companion.vision.dice")
    source = SyntheticSource(3, dice=3, motion_frames=6)  # 640 x 480, as the camera
    source.open()
    calls: list[bool] = []

    def reader(frame: np.ndarray) -> DiceObservation:
        calls.append(is_still.get(id(frame), True))
        return dice.read_pips(frame)

    is_still: dict[int, bool] = {}
    frames = []
    for _ in range(4):
        frames.append(source.read())
    truth = source.roll([2, 6, 4])
    for _ in range(20):
        moving = not source.settled
        frame = source.read()
        is_still[id(frame)] = not moving
        frames.append(frame)
    detector = SettleDetector(reader, SettleConfig(report_initial=False))
    rolls = [r for i, f in enumerate(frames) if (r := detector.update(f, i / 15)) is not None]
    assert len(rolls) == 1 and rolls[0].readings == 3 and all(calls)
    obs = rolls[0].observation
    assert obs.uncertain or sorted(obs.values()) == sorted(d.value for d in truth)


def test_the_dice_lying_there_at_start_are_reported_unless_told_not_to() -> None:
    seq = Sequence_()
    seq.still(A, 20)
    assert [values(r) for _, r in seq.run(15, SettleConfig())[0]] == [[3, 5]]
    assert seq.run(15, SettleConfig(report_initial=False))[0] == []


# -- (b) a hand --------------------------------------------------------------------------------
def hand_visit(seq: Sequence_, dice: Sequence[_Die], stay: int) -> None:
    """A hand comes in from the right, hovers over the first die for ``stay`` frames, leaves."""
    base = render(dice, 50)
    path = [(330, 90), (260, 80), (180, 75), (120, 72)]
    for x, y in path:
        seq.add(with_hand(base, x, y)[0], None, "hand moving")
    frame, mask = with_hand(base, 100, 70)
    hidden = observation(dice, mask)
    assert len(hidden.dice) < len(dice)  # the hand does hide a die
    for i in range(stay):
        f = frame if i % 2 else frame.copy()
        seq.add(f, hidden, "hand still")
    for x, y in reversed(path):
        seq.add(with_hand(base, x, y)[0], None, "hand moving")


def test_a_hand_hovering_over_still_dice_gives_no_roll_and_no_duplicate_after() -> None:
    seq = Sequence_()
    seq.still(A, 12)
    hand_visit(seq, A, stay=30)  # 2 s at 15 fps
    seq.still(A, 30)
    rolls, _ = seq.run(15, SettleConfig())
    assert [values(r) for _, r in rolls] == [[3, 5]]
    assert rolls[0][0] < 12
    assert "hand still" not in seq.read_labels


def test_a_hand_over_a_fresh_roll_delays_it_until_the_hand_leaves() -> None:
    seq = Sequence_()
    seq.still(A, 8)
    seq.moving(slide(A, B, 5))
    hand_visit(seq, B, stay=30)
    back = len(seq.frames)
    seq.still(B, 20)
    rolls, detector = seq.run(15)
    assert len(rolls) == 1
    index, roll = rolls[0]
    assert values(roll) == [6, 2] and index >= back
    assert "hand still" not in seq.read_labels


def test_the_hidden_state_is_visible_while_the_hand_stays() -> None:
    seq = Sequence_()
    seq.still(A, 8)
    seq.moving(slide(A, B, 5))
    hand_visit(seq, B, stay=12)
    detector = SettleDetector(seq.reader, SettleConfig(report_initial=False))
    states = [detector.update(f, i / 15) and None or detector.state for i, f in
              enumerate(seq.frames)]  # fmt: skip
    assert SettleState.HIDDEN in states
    assert detector.rolls == 0


def test_a_cover_still_for_long_is_taken_as_the_table_but_a_hidden_die_is_not_reported() -> None:
    seq = Sequence_()
    seq.still(A, 8)
    seq.moving(slide(A, B, 5))
    hand_visit(seq, B, stay=60)  # 4 s: longer than rebase_after
    seq.still(B, 15)
    rolls, detector = seq.run(15, SettleConfig(rebase_after=2.0))
    # under the long still hand one die shows where the last roll had two: not a roll; once
    # the hand leaves, the real roll
    assert [values(r) for _, r in rolls] == [[3, 5], [6, 2]]
    assert "hand still" in seq.read_labels  # it did look, after rebase_after
    assert any("a hand may hide a die" in note for note in detector.notes)


# -- (c) a knocked die -------------------------------------------------------------------------
def test_a_knocked_die_is_reported_as_a_correction_of_the_roll() -> None:
    knocked = [A[0], die(2, 240, 185, 80)]  # the 5 is bumped, slides, shows 2
    seq = Sequence_()
    seq.still(A, 12)
    seq.moving(slide(A, [A[0], dataclasses.replace(A[1], x=240, y=185, angle=80)], 3))
    seq.still(knocked, 20)
    rolls, _ = seq.run(15, SettleConfig())
    assert len(rolls) == 2
    first, second = rolls[0][1], rolls[1][1]
    assert values(first) == [3, 5] and first.correction_of is None
    assert values(second) == [3, 2]
    assert second.correction_of == first.seq and second.changed == (1,)


def test_a_die_nudged_without_changing_face_is_not_reported_again() -> None:
    nudged = [A[0], dataclasses.replace(A[1], x=A[1].x + 5, angle=A[1].angle + 6)]
    seq = Sequence_()
    seq.still(A, 12)
    seq.moving(slide(A, nudged, 2))
    seq.still(nudged, 20)
    rolls, _ = seq.run(15, SettleConfig())
    assert [values(r) for _, r in rolls] == [[3, 5]]
    assert seq.read_labels.count("still") > 3  # it did read the new scene, then kept quiet


# -- (d) a die still spinning ------------------------------------------------------------------
@pytest.mark.parametrize("step", [35.0, 4.0])  # a fast spin; a slow rocking wobble
def test_no_roll_while_one_die_spins_in_place(step: float) -> None:
    seq = Sequence_()
    seq.still(A, 8)
    seq.moving(slide(A, B, 4))
    spinning = len(seq.frames)
    for k in range(20):  # the 6 stays put while the 2 keeps turning on its spot
        value = 2 if step < 10 else 1 + k % 6
        turning = dataclasses.replace(B[1], value=value, angle=B[1].angle + step * (k + 1))
        seq.add(render([B[0], turning], 200 + k), None, "spinning")
    stopped = dataclasses.replace(B[1], angle=B[1].angle + step * 21)
    first_still = len(seq.frames)
    seq.still([B[0], stopped], 15)
    rolls, _ = seq.run(15)
    assert len(rolls) == 1
    index, roll = rolls[0]
    assert index > spinning and "spinning" not in seq.read_labels
    assert values(roll) == [6, 2]
    # the spin's last frame differs from the first still one, or the first still one is it
    assert roll.still_since == pytest.approx(first_still / 15)


def test_a_die_creeping_too_slowly_for_frame_to_frame_motion_is_still_motion() -> None:
    seq = Sequence_()
    seq.still(A, 8)
    seq.moving(slide(A, B, 4))
    for k in range(20):  # 0.3 px a frame: under the threshold from one frame to the next
        creeping = dataclasses.replace(B[1], x=B[1].x + 0.3 * (k + 1))
        seq.add(render([B[0], creeping], k % 4), None, "creeping")
    seq.still([B[0], dataclasses.replace(B[1], x=B[1].x + 6.3)], 15)
    rolls, _ = seq.run(15)
    assert len(rolls) == 1 and "creeping" not in seq.read_labels
    assert values(rolls[0][1]) == [6, 2]


# -- (e) long stillness ------------------------------------------------------------------------
def test_still_frames_for_a_long_time_give_one_report_and_three_reads() -> None:
    seq = Sequence_()
    seq.still(A, 8)
    seq.moving(slide(A, B, 4))
    seq.still(B, 30 * 20)  # 20 s at 30 fps
    rolls, _ = seq.run(30)
    assert len(rolls) == 1 and len(seq.read_labels) == 3


# -- (f) frames that disagree -------------------------------------------------------------------
def scripted_reader(script: list[list[int]], positions=((80.0, 70.0), (220.0, 160.0))):
    calls: list[int] = []

    def reader(frame: np.ndarray) -> DiceObservation:
        vals = script[min(len(calls), len(script) - 1)]
        calls.append(len(calls))
        dice = tuple(
            DieReading(v, x + len(calls) % 2, y, 0.9, False, SIDE)
            for v, (x, y) in zip(vals, positions, strict=False)
        )
        return DiceObservation("pips", dice, SIZE[0], SIZE[1])

    return reader, calls


def run_reader(reader, frames: int = 30, fps: float = 15) -> list[Roll]:
    still = [render(A, s) for s in range(4)]
    detector = SettleDetector(reader, SettleConfig())
    out = []
    for i in range(frames):
        roll = detector.update(still[i % 4], i / fps)
        if roll is not None:
            out.append(roll)
    return out


def test_a_die_read_differently_in_two_frames_is_uncertain() -> None:
    reader, calls = scripted_reader([[3, 5], [4, 5], [3, 5]])
    [roll] = run_reader(reader)
    assert len(calls) == 3
    first, second = roll.observation.dice
    assert (first.value, first.uncertain) == (3, True)
    assert first.confidence == pytest.approx(0.9 * 2 / 3)
    assert (second.value, second.uncertain) == (5, False)
    assert roll.observation.uncertain
    assert any("read as" in note for note in roll.observation.notes)


def test_frames_seeing_different_numbers_of_dice_make_it_wait_then_flag() -> None:
    reader, calls = scripted_reader([[3, 5], [3], [3, 5]])
    [roll] = run_reader(reader)
    assert len(calls) == SettleConfig().max_reads  # it read more frames before deciding
    assert roll.readings == len(calls)
    first, second = roll.observation.dice
    assert (first.value, first.uncertain) == (3, False)
    assert (second.value, second.uncertain) == (5, True)  # one frame missed it
    assert any("different numbers of dice" in n for n in roll.observation.notes)


def test_an_empty_table_is_not_a_roll() -> None:
    reader, calls = scripted_reader([[]])
    assert run_reader(reader) == [] and len(calls) == 3


# -- combine, match_dice, config ---------------------------------------------------------------
def obs_of(*dice: tuple[int, float, float]) -> DiceObservation:
    return DiceObservation(
        "pips", tuple(DieReading(v, x, y, 1.0, False, SIDE) for v, x, y in dice), 320, 240
    )


def test_combine_majority_tie_to_latest_and_a_rare_die_left_out() -> None:
    combined = combine([obs_of((3, 10, 10)), obs_of((4, 11, 10), (6, 200, 200))])
    assert combined.values() == [4, 6]  # tie 3 vs 4: the latest wins; 6 seen in 1 of 2: kept
    assert all(d.uncertain for d in combined.dice)
    combined = combine([obs_of((3, 10, 10)), obs_of((3, 10, 10), (6, 200, 200)),
                        obs_of((3, 10, 10))])  # fmt: skip
    assert combined.values() == [3] and not combined.uncertain
    assert any("seen in 1 of 3 frames" in n for n in combined.notes)
    with pytest.raises(ValueError):
        combine([])


def test_combine_keeps_an_uncertain_reading_uncertain() -> None:
    shaky = DiceObservation("pips", (DieReading(2, 50, 50, 0.4, True, SIDE),), 320, 240)
    combined = combine([obs_of((2, 50, 50)), shaky, obs_of((2, 51, 50))])
    assert combined.values() == [2] and combined.uncertain


def test_match_dice_pairs_nearest_first_within_the_radius() -> None:
    a = obs_of((1, 0, 0), (2, 100, 0)).dice
    b = obs_of((1, 98, 1), (2, 3, 0), (5, 300, 300)).dice
    assert match_dice(a, b, 10) == [(0, 1), (1, 0)]
    assert match_dice(a, b, 1) == []
    assert math.isclose(len(match_dice(b, b, 0.5)), 3)


@pytest.mark.parametrize(
    "kwargs", [{"still_for": -1}, {"reads": 0}, {"reads": 4, "max_reads": 3}, {"work_width": 4}]
)
def test_bad_settings_are_refused(kwargs) -> None:
    with pytest.raises(ValueError):
        SettleConfig(**kwargs)


# -- the worker --------------------------------------------------------------------------------
FAST = SettleConfig(still_for=0.1)



def drain(events: queue.Queue) -> list[object]:
    out = []
    while True:
        try:
            out.append(events.get_nowait())
        except queue.Empty:
            return out


def truth_reader(source: SyntheticSource):
    def reader(frame: np.ndarray) -> DiceObservation:
        dice = tuple(DieReading(d.value, d.x, d.y, 0.99, False, d.size) for d in source.truth)
        return DiceObservation("pips", dice, frame.shape[1], frame.shape[0])

    return reader


def test_the_worker_posts_moving_then_one_rolled_per_roll_and_stops_fast() -> None:
    events: queue.Queue = queue.Queue()
    source = SyntheticSource(2, size=SIZE, motion_frames=4)
    worker = DiceWorker(truth_reader(source), events, source=source, config=FAST, fps=60)
    worker.start()
    try:
        first = next_event(events, DiceRolled)  # the dice lying there at start
        assert first.observation.values() == [d.value for d in source.truth]
        source.roll([2, 6])
        next_event(events, DiceMoving)
        rolled = next_event(events, DiceRolled)
        assert rolled.observation.values() == [2, 6] and rolled.roll.seq == 2
        assert rolled.at - rolled.roll.still_since >= FAST.still_for
        time.sleep(0.3)
        assert not [e for e in drain(events) if isinstance(e, DiceRolled)]  # reported once
        assert worker.running and worker.frames > 10
    finally:
        started = time.monotonic()
        worker.stop()
        assert time.monotonic() - started < 0.3
    assert not worker.running and not source._opened


def test_a_failing_reader_is_one_problem_and_the_worker_goes_on() -> None:
    events: queue.Queue = queue.Queue()
    source = SyntheticSource(4, size=SIZE)
    broken = {"yes": True}
    good = truth_reader(source)

    def reader(frame: np.ndarray) -> DiceObservation:
        if broken["yes"]:
            raise RuntimeError("no pips today")
        return good(frame)

    worker = DiceWorker(reader, events, source=source, config=FAST, fps=60)
    worker.start()
    try:
        problem = next_event(events, VisionProblem)
        assert problem.message == "dice reader failed (RuntimeError: no pips today)"
        time.sleep(0.2)
        assert not [e for e in drain(events) if isinstance(e, VisionProblem)]  # not repeated
        broken["yes"] = False
        assert next_event(events, DiceRolled).observation.values() == [
            d.value for d in source.truth
        ]
        assert worker.running and worker.problems == 1
    finally:
        worker.stop()


def test_a_source_that_will_not_open_is_a_problem_not_a_crash() -> None:
    class Missing:
        name = "webcam:7"

        def open(self) -> None:
            raise OSError("no such device")

        def read(self) -> None:  # pragma: no cover - never reached
            raise AssertionError

        def close(self) -> None:
            pass

    events: queue.Queue = queue.Queue()
    worker = DiceWorker(lambda f: None, events, source=Missing(), retry_interval=0.02)
    worker.start()
    try:
        problem = next_event(events, VisionProblem)
        assert "webcam:7 failed (OSError: no such device)" in problem.message
        assert worker.running
    finally:
        worker.stop()


def test_the_worker_reads_the_camera_workers_newest_frames() -> None:
    events: queue.Queue = queue.Queue()
    source = SyntheticSource(6, size=SIZE, motion_frames=3)
    camera = CameraWorker(source, events, fps=60)
    worker = DiceWorker(truth_reader(source), events, camera=camera, config=FAST, fps=60)
    camera.start()
    worker.start()
    try:
        next_event(events, DiceRolled)
        source.roll([5, 5])
        assert next_event(events, DiceRolled).observation.values() == [5, 5]
    finally:
        worker.stop()
        camera.stop()


def test_the_worker_needs_exactly_one_frame_supply() -> None:
    with pytest.raises(ValueError, match="either camera= or source="):
        DiceWorker(lambda f: None, queue.Queue())
    with pytest.raises(ValueError, match="either camera= or source="):
        DiceWorker(lambda f: None, queue.Queue(), camera=object(), source=object())
