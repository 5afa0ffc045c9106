"""On a Pi, numpy and OpenCV come from apt and may be missing: importing the device modules
must not need them (nor picamera2), so the app can start and say what to install."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import companion
from companion.core.errors import DeviceError
from companion.devices.frames import WebcamSource

HEAVY = {"numpy", "cv2", "picamera2", "pygame"}


def test_device_modules_import_without_numpy_or_opencv() -> None:
    code = (
        "import sys\n"
        "import companion.devices.pins, companion.devices.factory, companion.devices.frames\n"
        "import companion.devices.synthetic, companion.devices.worker, companion.devices.buzzer\n"
        "import companion.devices.buttons\n"
        f"print(sorted(set(sys.modules) & set({sorted(HEAVY)!r})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(companion.__file__).parent.parent,
    ).stdout.strip()
    assert out == "[]"


def test_missing_opencv_is_a_device_error_saying_run_setup(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "cv2", None)  # `import cv2` now fails
    with pytest.raises(DeviceError, match=r"OpenCV is missing: run \./setup\.sh"):
        WebcamSource(0).open()
