"""Where are the dice? A small learned die-body finder run by OpenCV's DNN module.

The classical pip reader (:mod:`companion.vision.dice`) finds dice through their pips; on
oblique photos of small dice (12 to 25 px, pips of 1 or 2 px) it never sees those pips at its
working size. This module looks at the whole picture once, shrunk and letterboxed to a fixed
square (the model's .json says its side), and proposes where die *bodies* are: a centre and a
side (of the square box around the visible die) in pixels of the input picture, with a
score. It never says what a die shows: a caller reads each proposed region (with the
classical reader, at a larger scale), so a false proposal costs time and at worst a
question, and a die it does not propose stays missed.

The network (CenterNet-like: a heat map of die centres, the log of their side and a sub-cell
offset, all at stride ``STRIDE``) is trained by ``tools/train_die_finder.py`` (PyTorch, not
needed at run time) from the train splits of ../shared/data/dice-photos and synthetic
renders, and shipped as ONNX in ``assets/vision/`` beside the face model. Its only operators
are Conv, Relu and Add, with a fixed input size (its .json says which), so apt's OpenCV 4.6
on the Pi reads it.

When the model file or OpenCV's DNN module is missing, or the model does not fit this code,
:func:`load` returns ``None`` (with one warning) and callers go on without proposals.
"""

from __future__ import annotations

import json
import logging
import math
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from companion.vision.facenet import model_path  # assets/vision/<name>.onnx

log = logging.getLogger(__name__)

INPUT_PX = 384  # the network's input by default: INPUT_PX x INPUT_PX, the picture letterboxed
STRIDE = 4  # one output cell per STRIDE x STRIDE input pixels
PAD_VALUE = 127  # grey around a letterboxed picture
OUTPUTS = 4  # heat map logit, log(side / STRIDE), x and y offset within the cell
THRESHOLD = 0.25  # default score to propose a die (chosen on train photos, see docs/vision.md)
MAX_PROPOSALS = 60  # a table never holds more dice than this


@dataclass(frozen=True)
class Proposal:
    """A die body somewhere: centre (x, y) and side in pixels of the input picture."""

    x: float
    y: float
    side: float
    score: float


def letterbox(image: np.ndarray, size: int = INPUT_PX) -> tuple[np.ndarray, float, int, int]:
    """``image`` (BGR uint8) shrunk to fit ``size`` x ``size``, centred on grey.

    Returns the square picture, the scale (letterboxed px per input px) and the left and top
    padding, so that an input point (x, y) lands at (x * scale + left, y * scale + top).
    """
    img = np.asarray(image)
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    h, w = img.shape[:2]
    scale = size / max(h, w)
    nw, nh = max(1, int(round(w * scale))), max(1, int(round(h * scale)))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    small = cv2.resize(img, (nw, nh), interpolation=interp)
    left, top = (size - nw) // 2, (size - nh) // 2
    out = np.full((size, size, 3), PAD_VALUE, np.uint8)
    out[top:top + nh, left:left + nw] = small
    return out, scale, left, top


def to_blob(square: np.ndarray) -> np.ndarray:
    """1 x 3 x H x W float32 network input from a BGR uint8 picture (fixed normalisation)."""
    x = square.astype(np.float32).transpose(2, 0, 1)[None]
    return (x - 127.5) / 64.0


def decode(out: np.ndarray, threshold: float, max_count: int = MAX_PROPOSALS
           ) -> list[tuple[float, float, float, float]]:  # fmt: skip
    """Peaks of a 1 x OUTPUTS x H x W network output: (x, y, side, score) in network pixels.

    A peak is a cell whose score is at least ``threshold`` and the largest of its 3 x 3
    neighbours; then, strongest first, a peak whose centre lies within half the side of a
    stronger one's is dropped (one die, two peaks).
    """
    o = np.asarray(out, np.float32).reshape(OUTPUTS, out.shape[-2], out.shape[-1])
    heat = 1.0 / (1.0 + np.exp(-np.clip(o[0], -30, 30)))
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= threshold)
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-heat[ys, xs], kind="stable")
    kept: list[tuple[float, float, float, float]] = []
    for k in order:
        i, j = int(ys[k]), int(xs[k])
        side = STRIDE * math.exp(float(np.clip(o[1, i, j], -3.0, 6.0)))
        x = STRIDE * (j + float(np.clip(o[2, i, j], 0.0, 1.0)))
        y = STRIDE * (i + float(np.clip(o[3, i, j], 0.0, 1.0)))
        if any(math.hypot(x - kx, y - ky) < 0.5 * max(side, ks) for kx, ky, ks, _ in kept):
            continue
        kept.append((x, y, side, float(heat[i, j])))
        if len(kept) >= max_count:
            break
    return kept


@dataclass(frozen=True)
class DieFinder:
    """A loaded die-body finder."""

    net: cv2.dnn.Net
    info: dict
    lock: threading.Lock  # one network, used by the camera worker and the CLI alike
    input_px: int = INPUT_PX  # the side of the square the network sees (its .json says)
    threshold: float = THRESHOLD

    def raw(self, image_bgr: np.ndarray) -> tuple[np.ndarray, float, int, int]:
        """The network's output for a picture, with the letterbox's scale and padding."""
        square, scale, left, top = letterbox(image_bgr, self.input_px)
        with self.lock:
            self.net.setInput(to_blob(square))
            out = np.asarray(self.net.forward(), np.float32)
        return out, scale, left, top

    def find(self, image_bgr: np.ndarray, threshold: float | None = None) -> list[Proposal]:
        """Proposed dice in ``image_bgr`` (pixels of that picture), strongest first."""
        img = np.asarray(image_bgr)
        if img.size == 0:
            return []
        out, scale, left, top = self.raw(img)
        thr = self.threshold if threshold is None else threshold
        return [Proposal((x - left) / scale, (y - top) / scale, side / scale, score)
                for x, y, side, score in decode(out, thr)]  # fmt: skip


@cache
def load(name: str = "die_finder") -> DieFinder | None:
    """The shipped model ``assets/vision/<name>.onnx`` (and its ``.json``), or None."""
    return load_path(model_path(name))


def load_path(path: Path) -> DieFinder | None:
    """The model at ``path`` (an .onnx file with its .json beside it), or None: one warning."""
    meta = path.with_suffix(".json")
    if not path.exists() or not meta.exists():
        log.warning("die finder %s not found: dice are found by their pips only", path)
        return None
    try:
        info = json.loads(meta.read_text(encoding="utf-8"))
        expected = {"stride": STRIDE, "outputs": OUTPUTS, "pad_value": PAD_VALUE}
        if any(info.get(k) != v for k, v in expected.items()):
            raise ValueError("made for another output or padding than this code uses")
        size = info["input_px"]
        if not isinstance(size, int) or size % STRIDE or not 64 <= size <= 1024:
            raise ValueError(f"input_px {size!r}: not a multiple of {STRIDE} in 64..1024")
        net = cv2.dnn.readNetFromONNX(str(path))
        net.setInput(to_blob(np.full((size, size, 3), PAD_VALUE, np.uint8)))
        out = np.asarray(net.forward())
        cells = size // STRIDE
        if out.shape != (1, OUTPUTS, cells, cells) or not np.isfinite(out).all():
            raise ValueError(f"gives {out.shape}, not (1, {OUTPUTS}, {cells}, {cells})")
        return DieFinder(net, info, threading.Lock(), size)
    except (cv2.error, ValueError, TypeError, KeyError, OSError, AttributeError) as exc:
        log.warning("die finder %s unusable (%s): dice are found by their pips only", path, exc)
        return None
