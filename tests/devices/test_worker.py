"""The camera worker delivers frames, reports problems, keeps going, and stops quickly."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.core.errors import DeviceError
from companion.devices.events import CameraProblem, FrameEvent
from companion.devices.frames import FolderSource
from companion.devices.synthetic import SyntheticSource
from companion.devices.worker import CameraWorker
from tests.waiting import next_event, wait_for

from .conftest import drain
from .test_synthetic import dark_pips


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for i, level in enumerate((30, 120, 210)):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((60, 80, 3), level, np.uint8))
    return tmp_path


def test_folder_frames_arrive_as_events_and_in_latest(folder: Path, events) -> None:
    worker = CameraWorker(FolderSource(folder, fps=None), events, fps=100)
    assert worker.latest() == (0, None)
    worker.start()
    try:
        seen = set()
        for _ in range(6):
            event = next_event(events, FrameEvent)
            assert (event.width, event.height) == (80, 60)
            seq, frame = worker.latest()
            assert seq >= event.seq
            assert frame.shape == (60, 80, 3) and frame.dtype == np.uint8
            seen.add(int(frame[0, 0, 0]))
        assert seen == {30, 120, 210}, "every image of the folder came through"
    finally:
        worker.stop()


def test_one_frame_notice_at_a_time(folder: Path, events) -> None:
    worker = CameraWorker(FolderSource(folder, fps=None), events, fps=200)
    worker.start()
    try:
        time.sleep(0.15)  # ~30 frames read while nobody calls latest()
        pending = drain(events)
        assert len(pending) == 1 and isinstance(pending[0], FrameEvent)
        seq, _ = worker.latest()
        assert seq > pending[0].seq + 5, "frames kept coming; latest() gives the newest"
        assert isinstance(next_event(events, FrameEvent), FrameEvent), "answered: next notice"
    finally:
        worker.stop()


class FlakySource:
    """Fails the second read, then works again after being reopened."""

    name = "flaky"

    def __init__(self) -> None:
        self.opens = 0
        self.reads = 0
        self.closes = 0

    def open(self) -> None:
        self.opens += 1

    def read(self) -> np.ndarray:
        self.reads += 1
        if self.reads == 2:
            raise OSError("USB unplugged")
        return np.full((10, 10, 3), self.reads, np.uint8)

    def close(self) -> None:
        self.closes += 1


def test_a_failing_source_is_reported_and_reopened(events) -> None:
    source = FlakySource()
    worker = CameraWorker(source, events, fps=100, retry_interval=0.05)
    worker.start()
    try:
        problem = next_event(events, CameraProblem)
        assert problem.message == "camera flaky failed (OSError: USB unplugged)"
        assert wait_for(lambda: worker.latest()[0] >= 3)  # frames flow again
        assert worker.running
        assert source.opens == 2 and source.closes >= 1
    finally:
        worker.stop()


class NeverOpens:
    name = "webcam:9"

    def __init__(self) -> None:
        self.opens = 0

    def open(self) -> None:
        self.opens += 1
        raise DeviceError("webcam 9 did not open: check that it is plugged in")

    def read(self) -> np.ndarray:  # pragma: no cover - never reached
        raise AssertionError

    def close(self) -> None:
        pass


def test_a_missing_camera_is_reported_once_and_retried(events) -> None:
    source = NeverOpens()
    worker = CameraWorker(source, events, retry_interval=0.02)
    worker.start()
    try:
        assert wait_for(lambda: source.opens >= 4)
        posted = drain(events)
        assert posted and all(isinstance(e, CameraProblem) for e in posted)
        assert [e.message for e in posted] == ["webcam 9 did not open: check that it is plugged in"]
        assert worker.running
    finally:
        worker.stop()


def test_a_wrong_frame_shape_is_a_problem_not_a_crash(events) -> None:
    class Grey(FlakySource):
        name = "grey"

        def read(self) -> np.ndarray:
            return np.zeros((10, 10), np.uint8)

    worker = CameraWorker(Grey(), events, retry_interval=0.02)
    worker.start()
    try:
        problem = next_event(events, CameraProblem)
        assert "expected H x W x 3 uint8" in problem.message
        assert worker.running and worker.latest() == (0, None)
    finally:
        worker.stop()


def test_stop_is_quick_and_closes_the_source(events) -> None:
    source = FlakySource()
    worker = CameraWorker(source, events, fps=2, retry_interval=10)  # long waits inside
    worker.start()
    assert wait_for(lambda: source.reads >= 1)
    started = time.monotonic()
    worker.stop()
    assert time.monotonic() - started < 0.3
    assert not worker.running
    assert source.closes >= 1


def test_a_blocked_source_cannot_hold_stop_past_its_timeout(events) -> None:
    release = threading.Event()

    class Stuck(FlakySource):
        def read(self) -> np.ndarray:
            release.wait(5)
            return np.zeros((4, 4, 3), np.uint8)

    worker = CameraWorker(Stuck(), events)
    worker.start()
    time.sleep(0.05)
    started = time.monotonic()
    worker.stop(timeout=0.1)
    assert time.monotonic() - started < 0.5
    release.set()
    assert wait_for(lambda: not worker.running)


def test_demo_mode_roll_reaches_the_consumer(events) -> None:
    """Demo mode: the UI thread rolls while the worker reads; the newest frame shows the roll."""
    source = SyntheticSource(seed=1, dice=2, motion_frames=3)
    worker = CameraWorker(source, events, fps=100)
    worker.start()
    try:
        assert wait_for(lambda: worker.latest()[0] > 0)
        truth = source.roll(values=[6, 3])
        assert wait_for(lambda: source.settled)
        before = worker.latest()[0]
        assert wait_for(lambda: worker.latest()[0] > before + 1)
        _, frame = worker.latest()
        assert [dark_pips(frame, die) for die in truth] == [6, 3]
    finally:
        worker.stop()


def test_peek_reads_the_newest_frame_without_answering_the_ui_notice(tmp_path) -> None:
    import queue as _queue

    import cv2
    import numpy as np

    from companion.devices.events import FrameEvent
    from companion.devices.frames import FolderSource
    from companion.devices.worker import CameraWorker

    for i in range(3):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), np.full((24, 32, 3), 40 * i, np.uint8))
    events: _queue.Queue = _queue.Queue()
    worker = CameraWorker(FolderSource(tmp_path, fps=None), events, fps=60)
    worker.start()
    try:
        first = events.get(timeout=2)
        assert isinstance(first, FrameEvent)
        for _ in range(20):  # the dice worker keeps peeking
            seq, frame = worker.peek()
            assert frame is not None
        import time as _time

        _time.sleep(0.2)
        assert events.empty(), "peek() must not let the camera worker post more notices"
        worker.latest()  # the UI answers the notice: the next one may come
        assert isinstance(events.get(timeout=2), FrameEvent)
    finally:
        worker.stop()
