"""Frame sources: real files in, BGR frames out; every failure is a one-line DeviceError."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.core.errors import DeviceError
from companion.devices import factory as factory_module
from companion.devices.frames import (
    FolderSource,
    FrameSource,
    PiCameraSource,
    VideoFileSource,
    WebcamSource,
    open_source,
    rotated,
)
from companion.devices.synthetic import SyntheticSource

PHOTOS = Path("/work/shared/data/dice-photos/webcam-white/images")
needs_photos = pytest.mark.skipif(not PHOTOS.is_dir(), reason="shared dice photos not present")

COLOURS = [(0, 0, 255), (0, 255, 0), (255, 0, 0)]  # BGR red, green, blue


def write_images(folder: Path, names: list[str]) -> list[np.ndarray]:
    folder.mkdir(parents=True, exist_ok=True)
    images = []
    for name, colour in zip(names, COLOURS, strict=False):
        image = np.zeros((48, 64, 3), np.uint8)
        image[:] = colour
        cv2.putText(image, name[:3], (2, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255))
        assert cv2.imwrite(str(folder / name), image)
        images.append(image)
    return images


def test_folder_replays_images_in_natural_order_and_loops(tmp_path: Path) -> None:
    # written out of order, with a name that sorts wrong as plain text (10 < 2)
    write_images(tmp_path, ["shot10.png", "shot2.bmp", "shot1.png"])
    (tmp_path / "notes.txt").write_text("not an image")
    source = FolderSource(tmp_path, fps=None)
    assert [p.name for p in source.files] == ["shot1.png", "shot2.bmp", "shot10.png"]
    with source:
        frames = [source.read() for _ in range(4)]
    for frame in frames:
        assert frame.shape == (48, 64, 3) and frame.dtype == np.uint8
    # pure colours survive png/bmp exactly: shot1 is blue, shot2 green, shot10 red
    assert tuple(frames[0][0, 0]) == COLOURS[2]
    assert tuple(frames[1][0, 0]) == COLOURS[1]
    assert tuple(frames[2][0, 0]) == COLOURS[0]
    assert np.array_equal(frames[3], frames[0]), "loops back to the first image"


def test_folder_without_loop_ends_with_none(tmp_path: Path) -> None:
    write_images(tmp_path, ["a.png"])
    with FolderSource(tmp_path, fps=None, loop=False) as source:
        assert source.read() is not None
        assert source.read() is None
        assert source.read() is None


def test_folder_holds_each_image_for_one_over_fps(tmp_path: Path) -> None:
    write_images(tmp_path, ["a.png", "b.png"])
    with FolderSource(tmp_path, fps=0.5) as source:  # 2 s per image
        first, again = source.read(), source.read()
    assert np.array_equal(first, again), "a still scene keeps sending the same picture"
    assert first is not again, "each read is a fresh array the caller may modify"


@needs_photos
def test_folder_of_real_dice_photos(tmp_path: Path) -> None:
    names = ["train_dice_1.jpg", "train_dice_2.jpg"]
    for name in names:
        shutil.copy(PHOTOS / name, tmp_path / name)
    source = open_source(str(tmp_path))
    assert isinstance(source, FolderSource)
    source.fps = None
    with source:
        frames = [source.read() for _ in range(3)]
    for frame, name in zip(frames, names + names[:1], strict=True):
        assert frame.shape == (480, 640, 3)
        assert np.array_equal(frame, cv2.imread(str(PHOTOS / name)))


@needs_photos
def test_a_single_photo_is_a_folder_of_one() -> None:
    photo = PHOTOS / "train_dice_1.jpg"
    source = open_source(str(photo))
    assert isinstance(source, FolderSource)
    with source:
        assert source.read().shape == (480, 640, 3)


def test_unreadable_images_are_skipped(tmp_path: Path) -> None:
    write_images(tmp_path, ["b.png"])
    (tmp_path / "a.jpg").write_bytes(b"not really a jpeg")
    with FolderSource(tmp_path, fps=None) as source:
        assert tuple(source.read()[0, 0]) == COLOURS[0]
    (tmp_path / "b.png").write_bytes(b"broken too")
    with (
        FolderSource(tmp_path, fps=None) as source,
        pytest.raises(DeviceError, match="no readable"),
    ):
        source.read()


def test_empty_folder_is_a_device_error(tmp_path: Path) -> None:
    (tmp_path / "readme.txt").write_text("no pictures here")
    with pytest.raises(DeviceError) as err:
        open_source(str(tmp_path))
    assert str(err.value) == f"no images in {tmp_path}: put .jpg, .png or .bmp files there"


def write_video(path: Path, count: int = 5) -> list[int]:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    assert writer.isOpened()
    levels = [40 * (i + 1) for i in range(count)]
    for level in levels:
        writer.write(np.full((48, 64, 3), level, np.uint8))
    writer.release()
    return levels


def test_video_file_plays_every_frame_then_loops(tmp_path: Path) -> None:
    video = tmp_path / "roll.avi"
    levels = write_video(video)
    source = open_source(str(video))
    assert isinstance(source, VideoFileSource)
    with source:
        means = [float(source.read().mean()) for _ in range(len(levels) + 2)]
    expected = levels + levels[:2]
    assert means == pytest.approx(expected, abs=3)  # MJPG is lossy, a little


def test_video_without_loop_ends_with_none(tmp_path: Path) -> None:
    video = tmp_path / "roll.avi"
    write_video(video, count=2)
    with VideoFileSource(video, loop=False) as source:
        assert source.read() is not None
        assert source.read() is not None
        assert source.read() is None


def test_a_file_that_is_not_a_video(tmp_path: Path) -> None:
    fake = tmp_path / "fake.mp4"
    fake.write_bytes(b"\x00" * 100)
    with pytest.raises(DeviceError, match="cannot play"):
        VideoFileSource(fake).open()


@pytest.mark.parametrize("spec", ["x", "camera", "webcam:front", "synthetic:abc", "/no/such/dir"])
def test_unknown_spec_is_one_line(spec: str) -> None:
    with pytest.raises(DeviceError) as err:
        open_source(spec)
    message = str(err.value)
    assert "\n" not in message
    assert f'"{spec}"' in message
    if spec in ("x", "camera", "/no/such/dir"):
        assert message == (
            f'unknown camera source "{spec}": use picamera, webcam[:N], synthetic[:SEED], '
            "a folder of images or a video file"
        )


def test_spec_keywords() -> None:
    assert isinstance(open_source("webcam"), WebcamSource)
    assert open_source("webcam:2").index == 2
    assert isinstance(open_source(" PiCamera "), PiCameraSource)
    synthetic = open_source("synthetic:7")
    assert isinstance(synthetic, SyntheticSource) and synthetic.seed == 7
    for source in (open_source("webcam"), open_source("picamera"), synthetic):
        assert isinstance(source, FrameSource)


def test_auto_is_synthetic_off_the_pi_and_picamera_on_it(monkeypatch) -> None:
    monkeypatch.setattr(factory_module, "on_raspberry_pi", lambda: False)
    assert isinstance(open_source("auto"), SyntheticSource)
    monkeypatch.setattr(factory_module, "on_raspberry_pi", lambda: True)
    assert isinstance(open_source("auto"), PiCameraSource)


def test_missing_webcam_names_the_index() -> None:
    source = open_source("webcam:9")
    with pytest.raises(DeviceError) as err:
        source.open()
    assert str(err.value).startswith("webcam 9 did not open: check that it is plugged in")
    source.close()  # safe after a failed open


@pytest.mark.skipif(
    importlib.util.find_spec("picamera2") is not None, reason="picamera2 is installed here"
)
def test_picamera_without_picamera2_says_what_to_install() -> None:
    source = PiCameraSource()
    with pytest.raises(DeviceError) as err:
        source.open()
    assert str(err.value) == (
        "picamera2 is missing: sudo apt install python3-picamera2 (Raspberry Pi OS only)"
    )


def test_read_before_open_is_a_device_error(tmp_path: Path) -> None:
    write_images(tmp_path, ["a.png"])
    for source in (FolderSource(tmp_path), WebcamSource(0), PiCameraSource(), SyntheticSource()):
        with pytest.raises(DeviceError, match="not open"):
            source.read()


def test_a_camera_mounted_sideways_is_turned_upright(tmp_path: Path) -> None:
    """devices.camera_rotation: each frame turned clockwise by the quarter turns asked; the
    source's extras (a demo's roll()) still reachable; 0 leaves the source as it is."""
    image = np.zeros((48, 64, 3), np.uint8)
    image[0, 0] = (255, 255, 255)  # the top-left pixel
    assert cv2.imwrite(str(tmp_path / "one.png"), image)
    source = FolderSource(tmp_path, fps=None)
    assert rotated(source, 0) is source
    for degrees, where in ((90, (0, 47)), (180, (47, 63)), (270, (63, 0))):
        with rotated(FolderSource(tmp_path, fps=None), degrees) as turned:
            frame = turned.read()
        assert frame is not None and frame.flags["C_CONTIGUOUS"]
        assert frame.shape[:2] == ((64, 48) if degrees != 180 else (48, 64))
        assert tuple(frame[where]) == (255, 255, 255), degrees
        assert f"turned {degrees} degrees" in turned.name
    demo = rotated(SyntheticSource(), 180)
    assert callable(demo.roll)
