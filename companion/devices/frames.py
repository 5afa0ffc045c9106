"""Frame sources: where camera images come from.

Every source has the same four members (:class:`FrameSource`) and hands out H x W x 3 uint8
BGR numpy arrays (OpenCV's order). ``read()`` returns ``None`` when there is no new frame (a
non-looping file source at its end); it raises :class:`DeviceError` when the source broke,
and the camera worker then reports a :class:`CameraProblem` and reopens it later. No vendor
exception (picamera2, OpenCV, OSError) escapes a source.

numpy and OpenCV are imported inside functions: on a Pi they come from apt (``./setup.sh``),
and importing this module must work without them.

:func:`open_source` turns the config's ``camera`` string into a source (not yet opened: the
worker opens it, and reopens it after a failure).
"""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from companion.core.errors import DeviceError

if TYPE_CHECKING:
    import numpy as np

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov")

UNKNOWN_SOURCE = (
    'unknown camera source "{spec}": use picamera, webcam[:N], synthetic[:SEED], '
    "a folder of images or a video file"
)


def _numpy() -> Any:
    try:
        import numpy
    except ImportError as err:
        raise DeviceError(
            "numpy is missing: run ./setup.sh (on a Pi it installs python3-numpy from apt)"
        ) from err
    return numpy


def _cv2() -> Any:
    try:
        import cv2
    except ImportError as err:
        raise DeviceError(
            "OpenCV is missing: run ./setup.sh (on a Pi it installs python3-opencv from apt)"
        ) from err
    return cv2


@runtime_checkable
class FrameSource(Protocol):
    """A camera, real or pretend."""

    name: str

    def open(self) -> None:
        """Acquire the device or files; DeviceError with a fix if impossible."""
        ...

    def read(self) -> np.ndarray | None:
        """The next H x W x 3 uint8 BGR frame, or None when there is no new one."""
        ...

    def close(self) -> None:
        """Release the device; safe to call twice and before open()."""
        ...


class _Source:
    """Shared conveniences: context manager and a readable repr."""

    name: str = "source"

    def open(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def close(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def __enter__(self) -> Any:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


# -- Raspberry Pi camera ---------------------------------------------------------------------
class PiCameraSource(_Source):
    """A Raspberry Pi camera (Camera Module 3 and friends) through picamera2.

    picamera2's ``RGB888`` format is B, G, R byte order in memory, i.e. OpenCV's BGR.
    """

    def __init__(self, size: tuple[int, int] = (1280, 960), autofocus: bool = True) -> None:
        self.size = (int(size[0]), int(size[1]))
        self.autofocus = autofocus
        self.name = "picamera"
        self._camera: Any = None

    def open(self) -> None:
        self.close()
        try:
            from picamera2 import Picamera2
        except ImportError as err:
            raise DeviceError(
                "picamera2 is missing: sudo apt install python3-picamera2 (Raspberry Pi OS only)"
            ) from err
        camera = None
        try:
            camera = Picamera2()
            config = camera.create_preview_configuration(
                main={"size": self.size, "format": "RGB888"}, buffer_count=4
            )
            camera.configure(config)
            camera.start()
        except Exception as err:  # IndexError (no camera), RuntimeError, OSError...
            if camera is not None:
                try:
                    camera.close()
                except Exception:
                    pass
            raise DeviceError(
                f"the Pi camera did not start ({type(err).__name__}: {err}): check the ribbon "
                "cable (contacts the right way round, latch closed) and run "
                "`rpicam-hello --list-cameras`"
            ) from err
        if self.autofocus:
            try:  # Camera Module 3 only; others have no AfMode and that is fine
                from libcamera import controls

                camera.set_controls({"AfMode": controls.AfModeEnum.Continuous})
            except Exception:
                pass
        self._camera = camera

    def read(self) -> np.ndarray | None:
        if self._camera is None:
            raise DeviceError("the Pi camera is not open")
        try:
            frame = self._camera.capture_array("main")
        except Exception as err:
            raise DeviceError(
                f"the Pi camera stopped ({type(err).__name__}: {err}): check the ribbon cable"
            ) from err
        if frame is not None and frame.ndim == 3 and frame.shape[2] == 4:
            frame = frame[:, :, :3]  # XRGB8888 on some stacks: drop the padding byte
        return frame

    def close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            try:
                camera.stop()
                camera.close()
            except Exception:
                pass


# -- USB webcam ------------------------------------------------------------------------------
class WebcamSource(_Source):
    """A USB webcam through OpenCV (``/dev/videoN`` on Linux)."""

    def __init__(self, index: int = 0, size: tuple[int, int] | None = None) -> None:
        self.index = int(index)
        self.size = size
        self.name = f"webcam:{self.index}"
        self._capture: Any = None

    def open(self) -> None:
        self.close()
        cv2 = _cv2()
        try:
            capture = cv2.VideoCapture(self.index)
            opened = capture.isOpened()
        except Exception as err:
            raise DeviceError(
                f"webcam {self.index} did not open ({type(err).__name__}: {err})"
            ) from err
        if not opened:
            capture.release()
            raise DeviceError(
                f"webcam {self.index} did not open: check that it is plugged in, try another "
                "index (webcam:1) and list cameras with `v4l2-ctl --list-devices`"
            )
        if self.size is not None:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._capture = capture

    def read(self) -> np.ndarray | None:
        if self._capture is None:
            raise DeviceError(f"webcam {self.index} is not open")
        try:
            ok, frame = self._capture.read()
        except Exception as err:
            raise DeviceError(f"webcam {self.index} failed ({type(err).__name__}: {err})") from err
        if not ok or frame is None:
            raise DeviceError(f"webcam {self.index} stopped sending frames: check its USB cable")
        return frame

    def close(self) -> None:
        capture, self._capture = self._capture, None
        _release(capture)


def _release(capture: Any) -> None:
    """Release an OpenCV capture; closing must never fail a shutdown."""
    if capture is not None:
        try:
            capture.release()
        except Exception:
            pass


# -- image files -----------------------------------------------------------------------------
def _natural_key(path: Path) -> list[Any]:
    """img2.jpg before img10.jpg."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


def list_images(path: Path) -> list[Path]:
    """The images in a folder in natural order, or the one image a file path names."""
    if path.is_file():
        return [path] if path.suffix.lower() in IMAGE_SUFFIXES else []
    return sorted(
        (p for p in path.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES),
        key=_natural_key,
    )


class FolderSource(_Source):
    """Replays the images of a folder (or one image) as if they stood in front of a camera.

    Each image stays "in front of the camera" for ``1 / fps`` seconds, and every ``read()``
    during that time returns a fresh copy of it (a real camera keeps sending frames of a
    still scene). With ``fps=None`` every ``read()`` moves to the next image, which is what
    tests want. At the end it starts again if ``loop``, else ``read()`` returns None.
    Unreadable files are skipped.
    """

    def __init__(self, path: str | Path, fps: float | None = 1.0, loop: bool = True) -> None:
        self.path = Path(path)
        if fps is not None and fps <= 0:
            raise ValueError(f"fps must be positive or None, not {fps!r}")
        self.fps = fps
        self.loop = loop
        self.name = f"images {self.path}"
        self._files = self._scan()
        self._opened = False
        self._started = 0.0
        self._reads = 0
        self._cached: tuple[Path, Any] | None = None

    def _scan(self) -> list[Path]:
        if not self.path.exists():
            raise DeviceError(f"{self.path} does not exist: give a folder of images")
        try:
            files = list_images(self.path)
        except OSError as err:
            raise DeviceError(f"cannot list {self.path}: {err}") from err
        if not files:
            if self.path.is_file():
                raise DeviceError(f"{self.path} is not an image: use a .jpg, .png or .bmp file")
            raise DeviceError(f"no images in {self.path}: put .jpg, .png or .bmp files there")
        return files

    @property
    def files(self) -> list[Path]:
        return list(self._files)

    def open(self) -> None:
        _numpy()
        _cv2()
        self._files = self._scan()
        self._opened = True
        self._started = time.monotonic()
        self._reads = 0

    def _index(self) -> int | None:
        if self.fps is None:
            position = self._reads
        else:
            position = int((time.monotonic() - self._started) * self.fps)
        if position >= len(self._files):
            if not self.loop:
                return None
            position %= len(self._files)
        return position

    def read(self) -> np.ndarray | None:
        if not self._opened:
            raise DeviceError(f"{self.name} is not open")
        cv2 = _cv2()
        while self._files:
            index = self._index()
            if index is None:
                return None
            file = self._files[index]
            if self._cached is None or self._cached[0] != file:
                image = cv2.imread(str(file), cv2.IMREAD_COLOR)
                if image is None:  # corrupt or vanished: skip it
                    self._files.pop(index)
                    continue
                self._cached = (file, image)
            self._reads += 1
            return self._cached[1].copy()
        raise DeviceError(f"no readable images left in {self.path}")

    def close(self) -> None:
        self._opened = False
        self._cached = None


class VideoFileSource(_Source):
    """Replays a video file frame by frame (as fast as it is read: the worker sets the pace)."""

    def __init__(self, path: str | Path, loop: bool = True) -> None:
        self.path = Path(path)
        self.loop = loop
        self.name = f"video {self.path}"
        self._capture: Any = None
        self._lock = threading.Lock()

    def open(self) -> None:
        self.close()
        if not self.path.is_file():
            raise DeviceError(f"{self.path} does not exist: give a video file")
        cv2 = _cv2()
        try:
            capture = cv2.VideoCapture(str(self.path))
            opened = capture.isOpened()
        except Exception as err:
            raise DeviceError(f"cannot play {self.path} ({type(err).__name__}: {err})") from err
        if not opened:
            capture.release()
            raise DeviceError(
                f"cannot play {self.path}: OpenCV has no decoder for it; convert it to .mp4 "
                "(H.264) or .avi (MJPG)"
            )
        self._capture = capture

    def read(self) -> np.ndarray | None:
        if self._capture is None:
            raise DeviceError(f"{self.name} is not open")
        cv2 = _cv2()
        try:
            ok, frame = self._capture.read()
            if not ok and self.loop:
                self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, frame = self._capture.read()
        except Exception as err:
            raise DeviceError(f"cannot read {self.path} ({type(err).__name__}: {err})") from err
        if not ok:
            if self.loop:
                raise DeviceError(f"{self.path} has no readable frames")
            return None
        return frame

    def close(self) -> None:
        capture, self._capture = self._capture, None
        _release(capture)


# -- choosing a source -----------------------------------------------------------------------
class RotatedSource(_Source):
    """Another source's frames turned ``degrees`` clockwise (90, 180 or 270): a camera
    mounted sideways or upside down, its picture turned upright (``devices.camera_rotation``).
    The dice reader expects an upright picture: the table's far side at the top."""

    def __init__(self, inner: FrameSource, degrees: int) -> None:
        if degrees not in (90, 180, 270):
            raise ValueError(f"a camera is turned 90, 180 or 270 degrees, not {degrees!r}")
        self.inner = inner
        self.degrees = degrees
        self.name = f"{inner.name}, turned {degrees} degrees"

    def open(self) -> None:
        self.inner.open()

    def read(self) -> np.ndarray | None:
        frame = self.inner.read()
        if frame is None:
            return None
        return _numpy().ascontiguousarray(_numpy().rot90(frame, -self.degrees // 90))

    def close(self) -> None:
        self.inner.close()

    def __getattr__(self, name: str) -> Any:  # the inner source's extras (a demo's roll())
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)


def rotated(source: FrameSource, degrees: int) -> FrameSource:
    """``source`` with its frames turned ``degrees`` clockwise; itself when 0."""
    return source if degrees % 360 == 0 else RotatedSource(source, degrees % 360)


def open_source(spec: str) -> FrameSource:
    """The frame source a config string names (built, not yet opened).

    ``picamera``; ``webcam`` or ``webcam:N``; ``synthetic`` or ``synthetic:SEED``; ``auto``
    (picamera on a Raspberry Pi, else synthetic); an existing folder of images, single image
    or video file (.mp4 .avi .mkv .mov). Anything else: DeviceError.
    """
    text = str(spec).strip()
    word, _, argument = text.partition(":")
    keyword = word.strip().lower()
    argument = argument.strip()
    if keyword == "auto" and not argument:
        from companion.devices.factory import on_raspberry_pi

        return PiCameraSource() if on_raspberry_pi() else _synthetic(None)
    if keyword in ("picamera", "picamera2") and not argument:
        return PiCameraSource()
    if keyword == "webcam":
        if not argument:
            return WebcamSource(0)
        if argument.isdigit():
            return WebcamSource(int(argument))
        raise DeviceError(
            f'camera source "{text}": the webcam index must be a number, e.g. webcam:0'
        )
    if keyword == "synthetic":
        if not argument:
            return _synthetic(None)
        try:
            return _synthetic(int(argument))
        except ValueError:
            raise DeviceError(
                f'camera source "{text}": the synthetic seed must be a whole number, '
                "e.g. synthetic:7"
            ) from None
    path = Path(text).expanduser()
    if text and path.is_dir():
        return FolderSource(path)
    if text and path.is_file():
        suffix = path.suffix.lower()
        if suffix in VIDEO_SUFFIXES:
            return VideoFileSource(path)
        if suffix in IMAGE_SUFFIXES:
            return FolderSource(path)
    raise DeviceError(UNKNOWN_SOURCE.format(spec=text))


def _synthetic(seed: int | None) -> FrameSource:
    from companion.devices.synthetic import SyntheticSource

    return SyntheticSource(seed=0 if seed is None else seed)
