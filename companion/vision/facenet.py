"""A second opinion on each die face: a small learned classifier run by OpenCV's DNN module.

The classical readers (:mod:`companion.vision.dice`) find the dice and read them; this module
looks again at each die they found, as a picture, and says what face it thinks it is:
class 0 ("not a die's top face": table, a side face, a hand) or a face value. The reader uses
that opinion to be *more careful*, to confirm a reading it already made, or to offer a die
where pips fit no face, always as a question (see ``_second_opinion`` and ``_rescue`` in
:mod:`companion.vision.dice`); it never makes certain a value the pips did not give.

The network is trained by ``tools/train_face_net.py`` (PyTorch, not needed at run time) from
the train splits of ../shared/data/dice-photos and synthetic renders, and shipped as ONNX in
``assets/vision/``. :func:`face_crops` is the one place that cuts a die out of a picture, for
training and at run time alike, so both see the same crops.

When the model file or OpenCV's DNN module is missing (an old OpenCV on the Pi, a stripped
install), :func:`load` returns ``None`` and the readers work alone, as before.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

log = logging.getLogger(__name__)

CROP_PX = 40  # the network's input: CROP_PX x CROP_PX, 3 channels
CROP_SCALE = 1.4  # crop side / die face side: the face and a margin of table around it
MIN_SIDE = 6.0  # a die face smaller than this (pixels) is too small to crop meaningfully


def face_crops(image: np.ndarray, centres: np.ndarray, sides: np.ndarray) -> np.ndarray:
    """N x 3 x CROP_PX x CROP_PX float32 crops of ``image`` (BGR uint8) around each die.

    Each crop is a square of ``CROP_SCALE`` times the die's face side, centred on it, edges
    replicated where it leaves the picture, shrunk with area averaging, then normalised to
    zero mean and unit spread over the whole crop (so the brightness of the room does not
    matter, but the colours of die, pips and table keep their relations).
    """
    img = np.asarray(image)
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    h, w = img.shape[:2]
    out = np.zeros((len(centres), 3, CROP_PX, CROP_PX), np.float32)
    for i, ((x, y), s) in enumerate(zip(np.asarray(centres, np.float64),
                                        np.asarray(sides, np.float64), strict=True)):  # fmt: skip
        half = max(float(s), MIN_SIDE) * CROP_SCALE / 2
        x0, y0 = int(round(x - half)), int(round(y - half))
        size = max(2, int(round(2 * half)))
        x1, y1 = x0 + size, y0 + size
        cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if cx1 <= cx0 or cy1 <= cy0:
            continue  # wholly outside the picture: an all-zero crop
        patch = img[cy0:cy1, cx0:cx1]
        if (cx0, cy0, cx1, cy1) != (x0, y0, x1, y1):
            patch = cv2.copyMakeBorder(patch, cy0 - y0, y1 - cy1, cx0 - x0, x1 - cx1,
                                       cv2.BORDER_REPLICATE)  # fmt: skip
        interp = cv2.INTER_AREA if size >= CROP_PX else cv2.INTER_LINEAR
        small = cv2.resize(patch, (CROP_PX, CROP_PX), interpolation=interp).astype(np.float32)
        small -= small.mean()
        small /= max(float(small.std()), 4.0)
        out[i] = small.transpose(2, 0, 1)
    return out


@dataclass(frozen=True)
class FaceNet:
    """A loaded face classifier: ``classes[k]`` is what output ``k`` means (0 = not a face)."""

    net: cv2.dnn.Net
    classes: tuple[int, ...]
    info: dict
    lock: threading.Lock  # one network, used by the camera worker and the CLI alike

    def probabilities(self, image: np.ndarray, centres: np.ndarray, sides: np.ndarray
                      ) -> np.ndarray:  # fmt: skip
        """N x len(classes) probabilities, one row per die (softmax of the network)."""
        if len(centres) == 0:
            return np.zeros((0, len(self.classes)), np.float32)
        crops = face_crops(image, centres, sides)
        with self.lock:
            self.net.setInput(crops)
            logits = np.asarray(self.net.forward(), np.float64).reshape(len(centres), -1)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


def model_path(name: str) -> Path:
    return Path(str(resources.files("companion.assets").joinpath("vision", f"{name}.onnx")))


@cache
def load(name: str) -> FaceNet | None:
    """The shipped model ``assets/vision/<name>.onnx`` (and its ``.json``), or None."""
    path = model_path(name)
    meta = path.with_suffix(".json")
    if not path.exists() or not meta.exists():
        log.warning("face model %s not found: the dice reader works without a second opinion",
                    path)  # fmt: skip
        return None
    try:
        info = json.loads(meta.read_text(encoding="utf-8"))
        if info.get("crop_px") != CROP_PX or info.get("crop_scale") != CROP_SCALE:
            raise ValueError("made for other crops than this reader cuts")
        classes = tuple(int(c) for c in info["classes"])
        if 0 not in classes or len(set(classes)) != len(classes):
            raise ValueError(f"classes {classes}: need 0 (no face) and no repeats")
        net = cv2.dnn.readNetFromONNX(str(path))
        model = FaceNet(net, classes, info, threading.Lock())
        net.setInput(face_crops(np.zeros((64, 64, 3), np.uint8), np.array([[32.0, 32.0]]),
                                np.array([30.0])))  # fmt: skip
        out = np.asarray(net.forward())
        if out.shape != (1, len(classes)) or not np.isfinite(out).all():
            raise ValueError(f"gives {out.shape} for {len(classes)} classes")
        return model
    except (cv2.error, ValueError, TypeError, KeyError, OSError, AttributeError) as exc:
        log.warning("face model %s unusable (%s): the dice reader works without it", path, exc)
        return None
