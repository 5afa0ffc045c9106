"""How long from the dice coming to rest to the roll being reported, at 15 and 30 fps.

Simulated sequences from the synthetic camera: a few still frames, then for every roll its
tumbling motion frames and ``--still`` seconds of the settled dice. Frames are timed as a
camera at the given fps would deliver them; the settle detector runs on them as the dice
worker does, on a virtual clock that advances by the measured computing time of each frame
(times ``--slowdown``, e.g. 4 to approximate a Raspberry Pi 4 from a laptop), skipping to the
newest frame when it falls behind. The latency is measured from the first frame showing the
dice at rest (ground truth) to the moment the detector has finished with the reporting frame.

    .venv/bin/python tools/benchmark_settle.py [--reader pips|truth] [--rolls 8] [--slowdown 4]
                                               [--size 1280x960 --die-px 32]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.devices.synthetic import SyntheticSource  # noqa: E402
from companion.vision.observation import DiceObservation, DieReading  # noqa: E402
from companion.vision.settle import SettleConfig, SettleDetector  # noqa: E402


def record(rolls: int, still_s: float, fps: float, seed: int, size: tuple[int, int],
           die_px: float | None = None):  # fmt: skip
    """Frames ``(t, frame, truth_or_None, roll_index_or_None)``; truth None while moving."""
    source = SyntheticSource(seed, dice=3, size=size, motion_frames=6, die_px=die_px)
    source.open()
    frames = []
    t = 0.0

    def add(frame, truth, roll):
        nonlocal t
        frames.append((t, frame, truth, roll))
        t += 1 / fps

    for _ in range(int(fps * 0.5)):  # the first dice, already lying there
        add(source.read(), list(source.truth), None)
    settled_at = []
    for r in range(rolls):
        source.roll()
        while not source.settled:
            add(source.read(), None, None)
        settled_at.append(t)
        for _ in range(int(fps * still_s)):
            add(source.read(), list(source.truth), r)
    return frames, settled_at


def truth_reader(frames):
    by_id = {id(f): truth for _, f, truth, _ in frames}

    def read(frame):
        truth = by_id[id(frame)]
        assert truth is not None, "read a moving frame"
        dice = tuple(DieReading(d.value, d.x, d.y, 0.99, False, d.size) for d in truth)
        return DiceObservation("pips", dice, frame.shape[1], frame.shape[0])

    return read


def _roll_index(settled_at: list[float], t: float) -> int | None:
    done = [n for n, s in enumerate(settled_at) if s <= t + 1e-9]
    return done[-1] if done else None


def simulate(frames, settled_at, reader, config: SettleConfig, slowdown: float):
    detector = SettleDetector(reader, config)
    clock = 0.0
    i = 0
    reports = []  # (roll, latency incl. computing, frame-time latency)
    idle_costs = []
    skipped = 0
    while i < len(frames):
        j = i
        while j + 1 < len(frames) and frames[j + 1][0] <= clock:
            j += 1  # fell behind: take the newest frame
        skipped += j - i
        t, frame, _truth, _roll = frames[j]
        clock = max(clock, t)
        state = detector.state
        started = time.perf_counter()
        roll = detector.update(frame, t)
        cost = (time.perf_counter() - started) * slowdown
        clock += cost
        if roll is None and state is detector.state and state.value == "idle":
            idle_costs.append(cost)
        if roll is not None:
            # the roll whose settled frames these are (None: the dice there at the start)
            k = _roll_index(settled_at, t)
            if k is not None:
                reports.append((roll, clock - settled_at[k], roll.latency, k))
        i = j + 1
    return reports, idle_costs, skipped


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reader", choices=("pips", "truth"), default="pips")
    parser.add_argument("--rolls", type=int, default=8)
    parser.add_argument("--still", type=float, default=1.5, help="seconds still after a roll")
    parser.add_argument(
        "--slowdown",
        type=float,
        default=1.0,
        help="multiply measured computing times (Pi vs this machine)",
    )
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--size", default="640x480",
                        help="camera frame size, WxH (the Pi camera's is 1280x960)")  # fmt: skip
    parser.add_argument("--die-px", type=float, default=None,
                        help="die side in pixels (default 12 %% of the short side; a 16 mm die "
                             "seen from 50-60 cm at 1280x960: about 32)")  # fmt: skip
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.lower().split("x"))
    config = SettleConfig()
    print(
        f"settle: still_for={config.still_for * 1000:.0f} ms, reads={config.reads}, "
        f"work_width={config.work_width}; reader={args.reader}; slowdown x{args.slowdown:g}; "
        f"frames {args.size}, dice {args.die_px or 'default'} px"
    )
    for fps in (15, 30):
        frames, settled_at = record(args.rolls, args.still, fps, args.seed, (width, height),
                                    args.die_px)  # fmt: skip
        if args.reader == "pips":
            from companion.vision.dice import read_pips

            reader_calls = []

            def reader(frame, read_pips=read_pips, reader_calls=reader_calls):
                started = time.perf_counter()
                obs = read_pips(frame)
                reader_calls.append(time.perf_counter() - started)
                return obs
        else:
            reader_calls = []
            reader = truth_reader(frames)
        reports, idle, skipped = simulate(frames, settled_at, reader, config, args.slowdown)
        rolled = reports
        lat = [1000 * x for _, x, _, _ in rolled]
        frame_lat = [1000 * x for _, _, x, _ in rolled]
        wrong = 0
        truths = {}
        for _t, _f, truth, k in frames:
            if k is not None and k not in truths:
                truths[k] = sorted(d.value for d in truth)
        for roll, _, _, k in rolled:
            got = sorted(roll.observation.values())
            if got != truths[k] and not roll.observation.uncertain:
                wrong += 1
        print(
            f"\n{fps} fps: {len(rolled)} reports for {args.rolls} rolls "
            f"(rolls reported once each: {len({k for *_, k in rolled}) == len(rolled)}); "
            f"{skipped} frames skipped while busy"
        )
        if lat:
            print(
                f"  dice still -> roll reported: median {statistics.median(lat):.0f} ms, "
                f"min {min(lat):.0f}, max {max(lat):.0f} ms"
            )
            print(
                f"  of which waiting for frames (frame times only): median "
                f"{statistics.median(frame_lat):.0f} ms, max {max(frame_lat):.0f} ms"
            )
        if idle:
            print(f"  detector cost per frame (no read): {1000 * statistics.median(idle):.2f} ms")
        if reader_calls:
            print(
                f"  reader: {len(reader_calls)} calls, median "
                f"{1000 * args.slowdown * statistics.median(reader_calls):.1f} ms each"
            )
        if args.reader == "pips":
            print(f"  certain but wrong totals: {wrong} (the pip reader's accuracy, not settle's)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
