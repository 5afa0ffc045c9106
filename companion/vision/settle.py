"""Know when to read the dice: wait for the roll to stop, read a few still frames, report once.

:class:`SettleDetector` is fed ``(frame, t)`` for every camera frame it gets (``t`` in seconds,
any monotonic clock: this module never reads a clock) and returns a :class:`Roll` exactly once
per settled roll, else ``None``. It is pure apart from the ``reader`` it is given.

How it decides, frame by frame (images are compared downscaled to ``work_width`` pixels, grey):

* **Motion**: the fraction of pixels whose grey level changed by more than
  ``pixel_threshold`` against the previous frame, or against the first frame of the current
  still run (so a slow slide or a creeping hand, under the threshold frame to frame, still
  counts), is above ``motion_fraction``. Any motion restarts the still run and *arms* the
  detector. A die still spinning or rocking in place changes its own region every frame:
  that is motion, so nothing is read until it stops.
* **Still**: ``still_for`` seconds without motion. The reader runs on ``reads`` frames
  spread over that window (one at ``still_for / reads``, one at ``2 * still_for / reads``,
  ... the last when the window is complete), so at most one read happens at report time and
  the frames are not identical twins. The readings are combined by :func:`combine`: dice
  matched by position, majority value per die, a die whose value differs between frames (or
  which a frame missed) is *uncertain*. When the readings disagree on the number of dice the
  detector waits and reads more frames, up to ``max_reads``, then reports the majority.
* **Hidden**: before reading, the still scene is compared to the last *clear* still scene
  (the table as it was before the motion). A changed region that is one big connected blob
  (``hand_fraction`` of the frame and touching the border, as an arm does, or
  ``blob_fraction`` anywhere) is a hand or an arm hovering over the table, not dice: no
  read, no roll, and the detector stays armed. Colour is not used: a pale wooden table is
  skin-coloured. If such a scene stays perfectly still for ``rebase_after`` seconds it is
  accepted as the new table (a box was put down, the lamp was switched on); the dice are then
  read, but a reading with fewer dice than the previous roll is not reported (a hand resting
  on the table hides a die).
* **Once**: after a report (or after deciding that nothing changed) the detector is disarmed
  until new motion. A still scene that equals the last reported scene (a hand came and went,
  a shadow passed) is not read again; a reading whose dice all lie where the previous roll's
  dice lay, with the same values, is not reported again either.
* **Knocked die**: small motion, then still with only some dice moved or changed is reported
  as a *new* :class:`Roll` whose ``correction_of`` is the ``seq`` of the roll it amends and
  whose ``changed`` lists the dice that differ. Vision does not decide whether the knocked
  value counts: the referee / the table does (a deliberate re-roll of some dice looks the same).
* A reading with no dice at all (the table was cleared) is not a roll.

Latency: ``Roll.still_since`` is the time of the first frame of the still run (the first
frame showing the dice at rest) and ``Roll.reported_at`` the time of the frame that completed
the roll; ``Roll.latency`` is the difference (the reader's own computing time comes on top:
the worker measures it, see ``tools/benchmark_settle.py``).

numpy and OpenCV are imported inside functions, so the event classes here can be imported
without them.
"""

from __future__ import annotations

import enum
import math
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.core.errors import CompanionError
from companion.vision.doubts import FRAMES
from companion.vision.observation import DiceObservation, DieReading

if TYPE_CHECKING:
    import numpy as np

Reader = Callable[["np.ndarray"], DiceObservation]


def _cv2() -> Any:
    try:
        import cv2
    except ImportError as err:
        raise CompanionError(
            "OpenCV is missing: run ./setup.sh (on a Pi it installs python3-opencv from apt)"
        ) from err
    return cv2


def _numpy() -> Any:
    try:
        import numpy
    except ImportError as err:
        raise CompanionError(
            "numpy is missing: run ./setup.sh (on a Pi it installs python3-numpy from apt)"
        ) from err
    return numpy


# -- what comes out ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Roll:
    """One settled roll: the combined observation and when it happened."""

    seq: int  # 1, 2, 3... per detector
    observation: DiceObservation
    still_since: float  # time of the first frame showing the dice at rest
    reported_at: float  # time of the frame that completed the roll
    readings: int  # how many frames were read and combined
    correction_of: int | None = None  # seq of the roll this one amends (knocked die)
    changed: tuple[int, ...] = ()  # indices (in observation.dice) that differ from before

    @property
    def latency(self) -> float:
        """Seconds from the dice at rest to the report (frame times; reading time excluded)."""
        return self.reported_at - self.still_since


@dataclass(frozen=True)
class DiceMoving:
    """Something moves on the table (a roll starts, a hand, a knocked die)."""

    at: float


@dataclass(frozen=True)
class DiceRolled:
    """The dice settled and were read. ``at``: when the event was posted."""

    roll: Roll
    at: float

    @property
    def observation(self) -> DiceObservation:
        return self.roll.observation


@dataclass(frozen=True)
class VisionProblem:
    """The dice reader failed (once per distinct message while it lasts)."""

    message: str
    at: float


VisionEvent = DiceMoving | DiceRolled | VisionProblem


class SettleState(enum.Enum):
    STARTING = "starting"  # no frame yet
    MOVING = "moving"  # the last frame showed motion
    SETTLING = "settling"  # still, armed, waiting or reading
    HIDDEN = "hidden"  # still, but something big covers the table (a hand)
    IDLE = "idle"  # still and reported (or nothing new): waiting for motion


@dataclass(frozen=True)
class SettleConfig:
    still_for: float = 0.35  # seconds without motion before the roll is reported
    reads: int = 3  # frames read and combined per roll
    max_reads: int = 6  # when the frames disagree on the number of dice, read up to this many
    work_width: int = 320  # frames are compared downscaled to this width, in grey
    pixel_threshold: int = 14  # grey levels: a pixel changed when it moved by more
    motion_fraction: float = 0.001  # of the frame's pixels changed: motion
    hand_fraction: float = 0.05  # one changed blob this big touching the border: a hand/arm
    blob_fraction: float = 0.15  # one changed blob this big anywhere: covered
    rebase_after: float = 3.0  # a covered scene still this long becomes the new table
    match_radius: float = 0.06  # of the short side: the same die in two readings
    report_initial: bool = True  # report the dice already lying there at start

    def __post_init__(self) -> None:
        if self.still_for < 0:
            raise ValueError(f"still_for must be 0 or more seconds, not {self.still_for!r}")
        if self.reads < 1 or self.max_reads < self.reads:
            raise ValueError(
                f"need 1 <= reads <= max_reads, got reads={self.reads}, max_reads={self.max_reads}"
            )
        if self.work_width < 16:
            raise ValueError(f"work_width must be at least 16 pixels, not {self.work_width}")


# -- combining readings -----------------------------------------------------------------------
def _radius(obs: DiceObservation, fraction: float) -> float:
    return max(2.0, fraction * min(obs.width, obs.height))


def match_dice(
    a: Sequence[DieReading], b: Sequence[DieReading], radius: float
) -> list[tuple[int, int]]:
    """Pairs ``(i, j)``: die ``a[i]`` is die ``b[j]`` (nearest first, each die once, centres
    closer than ``radius`` pixels)."""
    pairs = sorted(
        (math.hypot(da.x - db.x, da.y - db.y), i, j)
        for i, da in enumerate(a)
        for j, db in enumerate(b)
    )
    used_a: set[int] = set()
    used_b: set[int] = set()
    out = []
    for dist, i, j in pairs:
        if dist > radius:
            break
        if i in used_a or j in used_b:
            continue
        used_a.add(i)
        used_b.add(j)
        out.append((i, j))
    return sorted(out)


@dataclass
class _Cluster:
    dice: list[tuple[int, DieReading]] = field(default_factory=list)  # (reading index, die)

    @property
    def x(self) -> float:
        return sum(d.x for _, d in self.dice) / len(self.dice)

    @property
    def y(self) -> float:
        return sum(d.y for _, d in self.dice) / len(self.dice)


def combine(readings: Sequence[DiceObservation], match_radius: float = 0.06) -> DiceObservation:
    """One observation from several readings of the same still scene (latest last).

    Dice are matched by position (``match_radius`` of the picture's short side). A die's value
    is the majority of its readings (a tie goes to the latest); it is *uncertain* when any
    reading disagrees, missed it, or was itself uncertain. A die seen in fewer than half of the
    readings is left out (with a note). Confidence: mean confidence of the agreeing readings
    times the share of readings that agree."""
    if not readings:
        raise ValueError("combine needs at least one reading")
    last = readings[-1]
    if len(readings) == 1:
        return last
    n = len(readings)
    radius = _radius(last, match_radius)
    clusters: list[_Cluster] = []
    # latest first, so the output follows the latest reading's order
    for r in range(n - 1, -1, -1):
        dice = readings[r].dice
        pairs = sorted(
            (math.hypot(d.x - c.x, d.y - c.y), i, k)
            for i, d in enumerate(dice)
            for k, c in enumerate(clusters)
        )
        taken_d: set[int] = set()
        taken_c: set[int] = set()
        for dist, i, k in pairs:
            if dist > radius or i in taken_d or k in taken_c:
                continue
            taken_d.add(i)
            taken_c.add(k)
            clusters[k].dice.append((r, dice[i]))
        for i, d in enumerate(dice):
            if i not in taken_d:
                clusters.append(_Cluster([(r, d)]))
    notes = list(dict.fromkeys(note for obs in readings for note in obs.notes))
    counts = [len(obs.dice) for obs in readings]
    if len(set(counts)) > 1:
        notes.append(f"the frames saw different numbers of dice: {counts}")
    out = []
    for cluster in clusters:
        seen = len(cluster.dice)
        if 2 * seen < n:
            notes.append(f"a die seen in {seen} of {n} frames at "
                         f"({cluster.x:.0f}, {cluster.y:.0f}) was left out")  # fmt: skip
            continue
        tally = Counter(d.value for _, d in cluster.dice)
        top = max(tally.values())
        # cluster.dice is latest-first: the first value reaching the top count is the latest
        value = next(d.value for _, d in cluster.dice if tally[d.value] == top)
        agreeing = [d for _, d in cluster.dice if d.value == value]
        uncertain = seen < n or len(tally) > 1 or any(d.uncertain for _, d in cluster.dice)
        if len(tally) > 1:
            notes.append(
                f"die at ({cluster.x:.0f}, {cluster.y:.0f}) read as "
                + ", ".join(str(d.value) for _, d in reversed(cluster.dice))
            )
        confidence = sum(d.confidence for d in agreeing) / len(agreeing) * len(agreeing) / n
        # why it is asked, for the players: the frames disagree (or some missed it), else
        # the latest frame's own doubt (companion.vision.doubts)
        doubt = ""
        if seen < n or len(tally) > 1:
            doubt = FRAMES
        elif uncertain:
            doubt = next((d.doubt for _, d in cluster.dice if d.uncertain and d.doubt), "")
        out.append(
            DieReading(
                value=value,
                x=cluster.x,
                y=cluster.y,
                confidence=confidence,
                uncertain=uncertain,
                size=sum(d.size for _, d in cluster.dice) / seen,
                doubt=doubt,
            )
        )
    return DiceObservation(last.kind, tuple(out), last.width, last.height, tuple(notes))


# -- the detector -----------------------------------------------------------------------------
class SettleDetector:
    """Feed every frame to :meth:`update`; it returns a :class:`Roll` once per settled roll.

    ``reader`` turns one BGR frame into a :class:`DiceObservation` (``read_pips`` or
    ``read_rats``); it is called only on still frames, at most ``config.max_reads`` times per
    roll. An exception from the reader propagates out of :meth:`update`; the detector stays
    usable (the next still frame is read again)."""

    def __init__(self, reader: Reader, config: SettleConfig | None = None) -> None:
        self.reader = reader
        self.config = config or SettleConfig()
        self.reset()

    def reset(self) -> None:
        """Forget everything (as if just created)."""
        cfg = self.config
        self.state = SettleState.STARTING
        self.rolls = 0  # rolls reported so far
        self.last_roll: Roll | None = None
        self.notes: deque[str] = deque(maxlen=20)  # recent decisions worth a log line
        self._prev: Any = None  # previous small frame
        self._anchor: Any = None  # first small frame of the current still run
        self._still_since = 0.0
        self._armed = cfg.report_initial
        # still scenes accepted as "the table" (nothing covering it): the last clear one, plus
        # one taken after a long covered stillness (see rebase_after)
        self._backgrounds: deque[Any] = deque(maxlen=2)
        self._reported_scene: Any = None  # small frame of the last report / no-news decision
        self._verdict: str | None = None  # None, "hidden", "same", "new" for this still run
        self._rebased = False
        self._readings: list[DiceObservation] = []
        self._unread: deque[Any] = deque(maxlen=cfg.max_reads)
        self._last_obs: DiceObservation | None = None  # dice of the last report

    @property
    def moving(self) -> bool:
        return self.state is SettleState.MOVING

    @property
    def still_since(self) -> float | None:
        """Start of the current still run (None while moving or before the first frame)."""
        if self.state in (SettleState.STARTING, SettleState.MOVING):
            return None
        return self._still_since

    # -- image measures ----------------------------------------------------------------------
    def _small(self, frame: Any) -> Any:
        cv2, np = _cv2(), _numpy()
        img = np.asarray(frame)
        if img.ndim == 3:
            code = cv2.COLOR_BGR2GRAY if img.shape[2] == 3 else cv2.COLOR_BGRA2GRAY
            img = cv2.cvtColor(img, code)
        h, w = img.shape[:2]
        width = min(self.config.work_width, w)
        height = max(1, round(h * width / w))
        if (width, height) != (w, h):
            img = cv2.resize(img, (width, height), interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(img, (3, 3), 0)

    def _changed(self, a: Any, b: Any) -> Any:
        cv2 = _cv2()
        if a.shape != b.shape:  # the camera changed resolution: everything changed
            return None
        return cv2.absdiff(a, b) > self.config.pixel_threshold

    def _moved(self, a: Any, b: Any) -> bool:
        mask = self._changed(a, b)
        return mask is None or float(mask.mean()) > self.config.motion_fraction

    def _covered(self, small: Any) -> bool:
        """A big connected blob changed against every accepted table scene: a hand, an arm."""
        return bool(self._backgrounds) and all(self._big_blob(small, b) for b in self._backgrounds)

    def _big_blob(self, small: Any, background: Any) -> bool:
        mask = self._changed(small, background)
        if mask is None:
            return True
        cv2, np = _cv2(), _numpy()
        mask = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        n, _labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        h, w = mask.shape
        total = float(h * w)
        for k in range(1, n):
            x, y, bw, bh, area = (int(v) for v in stats[k])
            share = area / total
            if share >= self.config.blob_fraction:
                return True
            border = x == 0 or y == 0 or x + bw >= w or y + bh >= h
            if border and share >= self.config.hand_fraction:
                return True
        return False

    # -- the state machine -------------------------------------------------------------------
    def update(self, frame: Any, t: float) -> Roll | None:
        """Take the frame seen at time ``t``; a :class:`Roll` when the dice just settled."""
        small = self._small(frame)
        if self._prev is None:
            self._start_still_run(small, frame, t)
            self._prev = small
            return self._settle(frame, small, t)
        if self._moved(small, self._prev) or self._moved(small, self._anchor):
            self._prev = small
            self._armed = True
            self.state = SettleState.MOVING
            self._start_still_run(small, frame, t)
            return None
        self._prev = small
        return self._settle(frame, small, t)

    def _start_still_run(self, small: Any, frame: Any, t: float) -> None:
        self._anchor = small
        self._still_since = t
        self._verdict = None
        self._rebased = False
        self._readings = []
        self._unread.clear()
        self._unread.append(frame)

    def _settle(self, frame: Any, small: Any, t: float) -> Roll | None:
        cfg = self.config
        age = t - self._still_since
        if not self._armed:
            self.state = SettleState.IDLE
            if self._reported_scene is None and age > 0:  # not reporting the first scene:
                self._reported_scene = small  # take it as seen, and as the bare table
                self._backgrounds.append(small)
            return None
        if not self._unread or frame is not self._unread[-1]:
            self._unread.append(frame)
        self.state = SettleState.SETTLING
        first_read = cfg.still_for / cfg.reads
        eps = 1e-9
        if age + eps < first_read:
            return None
        if self._verdict in (None, "hidden"):
            self._verdict = self._judge(small, age)
        if self._verdict == "hidden":
            self.state = SettleState.HIDDEN
            return None
        if self._verdict == "same":
            self._disarm(small)
            return None
        # a new scene: read frames spread over the still window
        due = min(cfg.reads, int((age + eps) / first_read)) if cfg.still_for > 0 else cfg.reads
        if len(self._readings) < due:
            self._read_unread(1)
        if age + eps < cfg.still_for:
            return None
        if len(self._readings) < cfg.reads:
            self._read_unread(cfg.reads - len(self._readings))
        counts = {len(obs.dice) for obs in self._readings}
        if len(counts) > 1 and len(self._readings) < cfg.max_reads:
            if not self._read_unread(1):
                return None  # wait for the next still frame
            counts = {len(obs.dice) for obs in self._readings}
            if len(counts) > 1 and len(self._readings) < cfg.max_reads:
                return None
        return self._conclude(small, t)

    def _judge(self, small: Any, age: float) -> str:
        if self._covered(small):
            if age + 1e-9 < self.config.rebase_after:
                return "hidden"
            # covered and perfectly still for long: a box was put down, the lamp switched on
            self._rebased = True
            self._backgrounds.append(small)
        else:
            self._backgrounds.clear()
            self._backgrounds.append(small)
        if self._reported_scene is not None and not self._moved(small, self._reported_scene):
            return "same"
        return "new"

    def _read_unread(self, count: int) -> int:
        """Read up to ``count`` of the newest unread still frames; how many were read."""
        done = 0
        while done < count and self._unread:
            frame = self._unread.pop()
            self._readings.append(self.reader(frame))
            done += 1
        return done

    def _disarm(self, small: Any) -> None:
        self._armed = False
        self._reported_scene = small
        self._readings = []
        self._unread.clear()
        self.state = SettleState.IDLE

    def _conclude(self, small: Any, t: float) -> Roll | None:
        cfg = self.config
        readings = self._readings
        obs = combine(readings, cfg.match_radius)
        count = len(self._readings)
        self._disarm(small)
        if not obs.dice:  # the table was cleared: nothing to score
            self._last_obs = None
            return None
        prev = self._last_obs
        if self._rebased and prev is not None and len(obs.dice) < len(prev.dice):
            self.notes.append(
                f"{len(obs.dice)} dice where the last roll had {len(prev.dice)} under a still "
                "cover: not reported (a hand may hide a die)"
            )
            return None
        changed = tuple(range(len(obs.dice)))
        correction_of = None
        if prev is not None and self.last_roll is not None:
            pairs = match_dice(obs.dice, prev.dice, _radius(obs, cfg.match_radius))
            same = {i for i, j in pairs if obs.dice[i].value == prev.dice[j].value}
            if len(same) == len(obs.dice) == len(prev.dice):
                return None  # the same dice where they were: nothing new
            changed = tuple(i for i in range(len(obs.dice)) if i not in same)
            if same and len(obs.dice) == len(prev.dice):
                correction_of = self.last_roll.seq
        self.rolls += 1
        roll = Roll(
            seq=self.rolls,
            observation=obs,
            still_since=self._still_since,
            reported_at=t,
            readings=count,
            correction_of=correction_of,
            changed=changed,
        )
        self._last_obs = obs
        self.last_roll = roll
        return roll
