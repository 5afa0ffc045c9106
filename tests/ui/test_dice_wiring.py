"""The app's dice worker: started on the camera worker's frames, posting on the app's queue
(a demo roll arrives as DiceSettled with the rendered values), or absent, without a
traceback, when OpenCV cannot be imported."""

from __future__ import annotations

import logging
import queue
import sys
from typing import Any

import pytest

from companion.app import start_dice_worker
from companion.devices.synthetic import SyntheticSource
from companion.devices.worker import CameraWorker
from companion.ui.intents import DiceSettled, InputMap, to_intent
from companion.vision.settle import DiceRolled
from tests.waiting import next_event


def test_dice_worker_reads_a_demo_roll_from_the_camera_worker() -> None:
    events: queue.Queue[Any] = queue.Queue()
    source = SyntheticSource(5)
    camera = CameraWorker(source, events, fps=30)
    camera.start()
    dice = start_dice_worker(camera, events)
    try:
        assert dice is not None and dice.running
        first = next_event(events, DiceRolled, timeout=8)  # the dice lying there at start
        assert sorted(first.observation.values()) == sorted(d.value for d in source.truth)
        truth = source.roll([6, 3])
        rolled = next_event(events, DiceRolled, timeout=8)
        intent = to_intent(rolled, InputMap((800, 480)))
        assert isinstance(intent, DiceSettled) and not intent.correction
        seen = sorted(intent.observation.dice, key=lambda d: d.x)
        assert [d.value for d in seen] == [d.value for d in sorted(truth, key=lambda d: d.x)]
    finally:
        if dice is not None:
            dice.stop()
        camera.stop()
    assert not dice.running


def test_no_dice_worker_without_opencv(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "cv2", None)  # import cv2 -> ImportError
    events: queue.Queue[Any] = queue.Queue()
    with caplog.at_level(logging.WARNING):
        assert start_dice_worker(object(), events) is None
    assert "OpenCV" in caplog.text and "entered by hand" in caplog.text
    assert events.empty()
