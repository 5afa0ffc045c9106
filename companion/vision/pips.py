"""Pip candidates: small, roughly round blobs darker (or lighter) than the face around them.

Used by :mod:`companion.vision.dice`. Pure functions over numpy arrays; no state.

A pip is found with a morphological black-hat (dark pips) or top-hat (light pips) at three
pyramid levels, so pips from ~2 to ~20 px radius (at the 640-px working size) are all seen
with one small kernel. Each blob then gets an ellipse from its second moments, its contrast
against a ring around it and the colour of that ring (the face it sits on). Touching pips
(a 6's close rows) are one blob, split at half its peak; dark pips of 3-7 px joined to other
marks (a die's shaded outline, a board's lines) are cut from them the same way
(:func:`_joined_pips`). A small 6's columns, each one long mark, are paired for the reader
(:func:`column_pairs`).

Speed (the reader must keep up with a webcam): the ellipse hat is computed from rectangle
dilations, blob statistics and moments from the set pixels in one pass (bincount) instead
of per blob, ellipses of all the blobs as arrays (:func:`_ellipses_of`), touching blobs
split all at once in one stacked canvas (:func:`_split_all`; :func:`_split_one` is the
blob-by-blob reference), ring statistics from flat index offsets, gathered for all the blobs
of one radius at once (:func:`_describe_all`; :func:`_describe` is the blob-by-blob
reference). Each gives the same numbers, bit for bit, as the plain OpenCV / numpy call it
replaces (tests/vision/test_dice_reader.py).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

DARK, LIGHT = 0, 1  # pip polarity: dark pips on a light face, light pips on a dark face
GREY = 2  # key of the plain brightness in :func:`intensities`

_KERNEL = 15  # structuring element at every pyramid level
_LEVELS = 3
_MIN_RESPONSE = 16  # grey levels of black-hat / top-hat response
JOINED_MAX = 20_000  # a bigger blob (pixels) is not cut into pips (:func:`_joined_pips`)
JOINED_PEAK = 0.9  # ... a part of it under this share of its peak is not a pip


@dataclass(frozen=True)
class Pip:
    x: float
    y: float
    r: float  # equivalent radius sqrt(area / pi)
    major: float  # ellipse semi-axes
    minor: float
    angle: float  # radians, direction of the major axis
    polarity: int
    contrast: float  # |face - pip| in grey levels
    face: tuple[float, float, float]  # BGR median of the ring around the pip
    face_grey: float
    pip_grey: float
    ring_spread: float  # grey-level IQR of the ring: low on a flat face
    level: int


def moments_ellipse(mask: np.ndarray) -> tuple[float, float, float, float, float, float]:
    """A binary mask's area, centre (x, y), ellipse axes (major, minor) and angle."""
    m = cv2.moments(mask, binaryImage=True)
    a = m["m00"]
    if a <= 0:
        return 0, 0, 0, 0, 0, 0
    cx, cy = m["m10"] / a, m["m01"] / a
    mu20, mu02, mu11 = m["mu20"] / a, m["mu02"] / a, m["mu11"] / a
    common = math.sqrt(max(0.0, ((mu20 - mu02) / 2) ** 2 + mu11**2))
    l1 = (mu20 + mu02) / 2 + common
    l2 = (mu20 + mu02) / 2 - common
    angle = 0.5 * math.atan2(2 * mu11, mu20 - mu02)
    return a, cx, cy, 2 * math.sqrt(max(l1, 1e-6)), 2 * math.sqrt(max(l2, 1e-6)), angle


def intensities(bgr: np.ndarray) -> dict[int, np.ndarray]:
    """The image each polarity is searched in. Dark pips: half brightness, half brightest
    channel (a black pip on a red die: 30 against 87 in grey, 200 in red), which still sees
    an ivory die's edge on cream card. Light pips: the plain brightness (the darkest channel
    was tried: more light pips on red dice, but more false faces on phone photos). ``GREY``
    is the plain brightness, for edges between a die and the table."""
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    b, g, r = cv2.split(bgr)
    bright = cv2.addWeighted(grey, 0.5, cv2.max(cv2.max(b, g), r), 0.5, 0.0)
    return {DARK: bright, LIGHT: grey, GREY: grey}


def find_pips(
    bgr: np.ndarray, planes: dict[int, np.ndarray], max_found: int | None = None
) -> tuple[list[Pip], dict[int, np.ndarray]]:
    """All pip-like blobs of both polarities in a (denoised) working-size image, and the
    full-resolution black-hat / top-hat responses (by polarity) for later checks.

    ``max_found``: once more than this many blobs of one or more scales and polarities
    are pips, stop and return them as they are (not deduplicated: more than ``max_found``),
    for a caller that does not read a picture with that many (a busy table read closer)."""
    h, w = bgr.shape[:2]
    found: list[Pip] = []
    responses: dict[int, np.ndarray] = {}
    hats: list[tuple[np.ndarray, int]] = []
    for polarity, op in ((DARK, _BLACK_HAT), (LIGHT, _TOP_HAT)):
        img = planes[polarity]
        for level in range(_LEVELS):
            if level:
                img = cv2.pyrDown(img)
            hats.append((_hat(img, op), level))
        responses[polarity] = hats[-_LEVELS][0]
    # dark pips of 3 to 7 px (at the working size) joined to other marks: cut apart, at the
    # pyramid level where such pips are found (:func:`_joined_pips`)
    joined = [polarity == DARK and level == 1 for polarity in (DARK, LIGHT)
              for level in range(_LEVELS)]  # fmt: skip
    all_blobs = _blobs_all(hats, _MIN_RESPONSE, joined)
    for k, blobs in enumerate(all_blobs):
        polarity, level = (DARK, LIGHT)[k // _LEVELS], k % _LEVELS
        f = 2.0**level
        scaled = [
            ((x + 0.5) * f - 0.5, (y + 0.5) * f - 0.5, r * f, major * f, minor * f, angle)
            for x, y, r, major, minor, angle in blobs
        ]
        found.extend(p for p in _describe_all(bgr, planes[polarity], scaled, polarity, level)
                     if 0 <= p.x < w and 0 <= p.y < h)  # fmt: skip
        if max_found is not None and len(found) > max_found:
            return found, responses
    return _dedupe(found), responses


_BLACK_HAT, _TOP_HAT = 0, 1


def _rects(kernel: np.ndarray) -> list[np.ndarray]:
    """Centred rectangles whose union is the (symmetric, convex) ``kernel``: one per row
    width. A dilation by a union is the maximum of the dilations, and rectangles are cheap."""
    rows = kernel.sum(axis=1)
    return [
        cv2.getStructuringElement(cv2.MORPH_RECT, (int(w), int(np.sum(rows >= w))))
        for w in sorted(set(rows.tolist()))
    ]


_RECTS = _rects(cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_KERNEL, _KERNEL)))


def _hat(img: np.ndarray, op: int) -> np.ndarray:
    """``cv2.morphologyEx`` black-hat (or top-hat) with the 15 px ellipse, pixel for pixel,
    from rectangle dilations and erosions (about a fifth faster)."""

    def grow(a: np.ndarray, dilate: bool) -> np.ndarray:
        out = None
        for k in _RECTS:
            r = cv2.dilate(a, k) if dilate else cv2.erode(a, k)
            out = r if out is None else (cv2.max(out, r) if dilate else cv2.min(out, r))
        assert out is not None
        return out

    if op == _BLACK_HAT:
        return cv2.subtract(grow(grow(img, True), False), img)
    return cv2.subtract(img, grow(grow(img, False), True))


Blob = tuple[float, float, float, float, float, float]  # x, y, r, major, minor, angle


def _blobs(resp: np.ndarray, level: int, threshold: int) -> list[Blob]:
    """Elliptical blobs of a response image at pyramid ``level`` (see :func:`_blobs_all`)."""
    return _blobs_all([(resp, level)], threshold)[0]


@functools.lru_cache(maxsize=16)
def _shelves(sizes: tuple[tuple[int, int], ...]) -> tuple[list[tuple[int, int]], tuple[int, int]]:
    """Where to put images of these (height, width) in one canvas, at least one blank pixel
    apart, every image on an even row and column: tallest first, left to right on shelves
    as wide as the widest image (or two of the next ones side by side). Returns the (top,
    left) of each image and the canvas (height, width)."""
    order = sorted(range(len(sizes)), key=lambda i: -sizes[i][0])
    widths = sorted((w for _, w in sizes), reverse=True)
    width = max(widths[0], 2 * (widths[2] + 1) if len(widths) > 2 else 0)
    places: dict[int, tuple[int, int]] = {}
    top = left = shelf = 0
    for i in order:
        h, w = sizes[i]
        if left and left + w > width:
            top, left, shelf = top + shelf, 0, 0
        places[i] = (top, left)
        left += w + 1 + (w + 1) % 2
        shelf = max(shelf, h + 1 + (h + 1) % 2)
    return [places[i] for i in range(len(sizes))], (top + shelf, width)


def _blobs_all(responses: list[tuple[np.ndarray, int]], threshold: int,
               joined: Sequence[bool] = ()) -> list[list[Blob]]:  # fmt: skip
    """Elliptical blobs of several response images (each with its pyramid level); blobs
    that touch (close pips of a 6) are split by thresholding again at half their peak.

    The thresholded images are packed into one (:func:`_shelves`) and labelled in one pass
    (one call instead of six). Each image starts on an even row and column: OpenCV numbers
    the labels in the raster order of 2 x 2 blocks, so every image gets the same blobs, in
    the same order, as when labelled alone. ``joined``: for each response image, whether a
    blob too big for pips there is cut into the pips joined in it (:func:`_joined_pips`)."""
    outs: list[list[Blob]] = [[] for _ in responses]
    places, (height, width) = _shelves(tuple(resp.shape[:2] for resp, _ in responses))
    mask = np.zeros((height, width), np.uint8)
    for (resp, _), (top, left) in zip(responses, places, strict=True):
        h, w = resp.shape
        binary = cv2.threshold(resp, threshold, 1, cv2.THRESH_BINARY)[1]  # resp > threshold
        mask[top : top + h, left : left + w] = binary
    # labels only: the statistics are cheaper from the few set pixels than from OpenCV
    n, labels = cv2.connectedComponents(mask, connectivity=8)
    if n <= 1:
        return outs
    nz = cv2.findNonZero(mask).reshape(-1, 2)
    xs, ys = nz[:, 0], nz[:, 1]
    # labels[ys, xs]: a flat take is about twice as fast
    lab = labels.reshape(-1).take((ys * width + xs).astype(np.intp))
    stats = _stats(n, lab, xs, ys)
    # which image each blob is in, and that image's smallest pip area
    which = np.zeros(n - 1, np.intp)
    b_top, b_left = stats[1:, cv2.CC_STAT_TOP], stats[1:, cv2.CC_STAT_LEFT]
    for k, ((resp, _), (top, left)) in enumerate(zip(responses, places, strict=True)):
        h, w = resp.shape
        inside = (b_top >= top) & (b_top < top + h) & (b_left >= left) & (b_left < left + w)
        which[inside] = k
    amin = np.array([5 if level == 0 else 12 for _, level in responses])[which]
    area = stats[1:, cv2.CC_STAT_AREA]
    bw = stats[1:, cv2.CC_STAT_WIDTH]
    bh = stats[1:, cv2.CC_STAT_HEIGHT]
    fill = area / np.maximum(bw * bh, 1)
    aspect = np.minimum(bw, bh) / np.maximum(bw, bh)
    small = (area >= amin) & (bw <= 3 * _KERNEL) & (bh <= 3 * _KERNEL)
    good = small & (area <= 150) & (fill > 0.45) & (aspect > 0.3)
    good &= (bw <= _KERNEL - 1) & (bh <= _KERNEL - 1)
    # touching pips (the close rows of a 6) make one blob, split below; other blobs too
    # big, too thin or too small are not pips
    split = small & ~good & (area >= 3 * amin) & (area <= 5 * 150)
    # in the images ``joined`` names, a blob too big for pips may be pips joined to other
    # marks (a die's shaded outline, a board's lines running into its dice): cut apart
    if any(joined):
        cut = np.array([bool(j) for j in joined])[which] & ~small & (area >= 3 * amin)
        for i in (np.flatnonzero(cut & (area <= JOINED_MAX)) + 1).tolist():
            k = int(which[i - 1])
            outs[k].extend(_joined_pips(responses[k], places[k], labels, stats[i], i))
    wanted = np.concatenate([[False], good | split])
    if not wanted.any():
        return outs
    # moments of every wanted blob at once (sums of integers: exact in float64, the same
    # numbers cv2.moments gives blob by blob)
    sel = wanted[lab]
    w_lab, w_xs, w_ys = lab[sel], xs[sel], ys[sel]
    xl = (w_xs - stats[w_lab, cv2.CC_STAT_LEFT]).astype(np.float64)
    yl = (w_ys - stats[w_lab, cv2.CC_STAT_TOP]).astype(np.float64)
    sums = [np.bincount(w_lab, w, minlength=n) for w in (xl, yl, xl * xl, yl * yl, xl * yl)]
    which_l = which.tolist()
    # the ellipses of all the good blobs at once (:func:`_ellipses_of`)
    good_i = np.flatnonzero(good) + 1
    ok, ellipses = _ellipses_of(stats[good_i, cv2.CC_STAT_AREA].astype(np.float64),
                                *(v[good_i] for v in sums))  # fmt: skip
    found: dict[int, Blob] = {}
    good_i = good_i[ok]
    corners = zip(good_i.tolist(), stats[good_i, cv2.CC_STAT_LEFT].tolist(),
                  stats[good_i, cv2.CC_STAT_TOP].tolist(), strict=True)  # fmt: skip
    for (i, x0, y0), e in zip(corners, ellipses, strict=True):
        top, left = places[which_l[i - 1]]
        found[i] = (x0 - left + e[0], y0 - top + e[1], *e[2:])
    # the rest (blobs to split, and good blobs that are no ellipse) are split
    to_split = [i for i in np.flatnonzero(wanted).tolist() if i not in found]
    parts = _split_all(responses, places, stats, which, lab, xs, ys, to_split)
    for i in np.flatnonzero(wanted).tolist():
        out = outs[which_l[i - 1]]
        if i in found:
            out.append(found[i])
        else:
            out.extend(parts.get(i, ()))
    return outs


def _joined_pips(response: tuple[np.ndarray, int], place: tuple[int, int], labels: np.ndarray,
                 stat: np.ndarray, i: int) -> list[Blob]:  # fmt: skip
    """The pips in blob ``i`` of ``labels`` (the packed canvas; ``stat``: its left, top,
    width, height, area there), a blob too big to be pips: pips of 3 to 7 px joined to one
    another and to other marks, a die's shaded outline or side faces, a board's lines or a
    ring printed under the dice (nineteenth pass: ivory 6s of 45-70 px on a printed board,
    missed; every pip stood apart at half the blob's peak). The blob is cut at half its
    peak; a part left whose own peak is ``JOINED_PEAK`` of the blob's is a pip if it is one's
    size and shape, and split at half its own peak if it is as big as a few touching pips
    (:func:`_split_one`)."""
    resp, level = response
    top, left = place
    x, y, w, h = (int(v) for v in stat[:4])
    x0, y0 = x - left, y - top
    r_sub = np.where(labels[y : y + h, x : x + w] == i, resp[y0 : y0 + h, x0 : x0 + w], 0)
    peak = int(r_sub.max())
    if peak < 2 * _MIN_RESPONSE:
        return []
    k, lab, st, _ = cv2.connectedComponentsWithStats((r_sub > peak // 2).astype(np.uint8),
                                                     connectivity=8)  # fmt: skip
    out: list[Blob] = []
    amin = 5 if level == 0 else 12
    for j, (xs0, ys0, w2, h2, a2) in enumerate(st[1:].tolist(), start=1):
        part = (lab[ys0 : ys0 + h2, xs0 : xs0 + w2] == j).astype(np.uint8)
        # a pip is as dark as the blob's other pips; a piece of line or outline that only
        # just passed the cut is not (a board's line by a die, 0.73-0.82 of the peak)
        if int(r_sub[ys0 : ys0 + h2, xs0 : xs0 + w2][part > 0].max()) < JOINED_PEAK * peak:
            continue
        if (amin <= a2 <= 150 and w2 <= _KERNEL - 1 and h2 <= _KERNEL - 1
                and a2 / max(w2 * h2, 1) > 0.45 and min(w2, h2) / max(w2, h2) > 0.3):
            e = _ellipse(part)
            if e is not None:  # cut at half its peak, as in _split_one: grown back a little
                out.append((x0 + xs0 + e[0], y0 + ys0 + e[1], e[2] * 1.15, e[3] * 1.15,
                            e[4] * 1.15, e[5]))  # fmt: skip
        elif 3 * amin <= a2 <= 5 * 150 and w2 <= 3 * _KERNEL and h2 <= 3 * _KERNEL:
            out.extend(_split_one(resp, level, part, x0 + xs0, y0 + ys0))
    return out


def _split_all(
    responses: list[tuple[np.ndarray, int]],
    places: list[tuple[int, int]],
    stats: np.ndarray,
    which: np.ndarray,
    lab: np.ndarray,
    xs: np.ndarray,
    ys: np.ndarray,
    labels: list[int],
) -> dict[int, list[Blob]]:
    """Blobs ``labels`` (touching pips, e.g. the close rows of a 6) split by thresholding
    again at half each blob's peak response: the pips found in each, by label.

    All the blobs are done at once: their half-peak masks are stacked in one small canvas
    (each on an even row, one blank row apart, so OpenCV numbers their parts in the same
    order as when each blob is labelled alone) and labelled in one call. The same pips, in
    the same order, as :func:`_split_one` blob by blob."""
    if not labels:
        return {}
    n = len(stats)
    todo = np.zeros(n, bool)
    todo[labels] = True
    sel = todo[lab]
    lab, xs, ys = lab[sel], xs[sel], ys[sel]
    # each pixel's response, from its own image
    img = which[lab - 1]
    vals = np.empty(len(lab), np.int32)
    for k, ((resp, _), (top, left)) in enumerate(zip(responses, places, strict=True)):
        at = np.flatnonzero(img == k)
        if len(at):
            vals[at] = resp[ys[at] - top, xs[at] - left]
    peak = np.zeros(n, np.int32)
    np.maximum.at(peak, lab, vals)
    keep = (vals > peak[lab] // 2) & (peak[lab] >= 2 * _MIN_RESPONSE)
    lab, xs, ys = lab[keep], xs[keep], ys[keep]
    if not len(lab):
        return {}
    # the blobs one under another, each at column 0 and on an even row
    heights = stats[labels, cv2.CC_STAT_HEIGHT]
    rows = np.zeros(n, np.int64)
    steps = heights + 1 + (heights + 1) % 2
    rows[labels] = np.concatenate([[0], np.cumsum(steps)[:-1]])
    width = int(stats[labels, cv2.CC_STAT_WIDTH].max()) + 1
    canvas = np.zeros((int(steps.sum()), width), np.uint8)
    cy = rows[lab] + (ys - stats[lab, cv2.CC_STAT_TOP])
    cx = xs - stats[lab, cv2.CC_STAT_LEFT]
    canvas[cy, cx] = 1
    n2, labels2 = cv2.connectedComponents(canvas, connectivity=8)
    nz = cv2.findNonZero(canvas).reshape(-1, 2)
    px, py = nz[:, 0], nz[:, 1]
    lab2 = labels2.reshape(-1).take((py * width + px).astype(np.intp))
    st2 = _stats(n2, lab2, px, py)
    xl = (px - st2[lab2, cv2.CC_STAT_LEFT]).astype(np.float64)
    yl = (py - st2[lab2, cv2.CC_STAT_TOP]).astype(np.float64)
    sums = [np.bincount(lab2, w, minlength=n2).tolist()
            for w in (xl, yl, xl * xl, yl * yl, xl * yl)]  # fmt: skip
    # which blob each part comes from: the stacked blob whose rows hold the part's top
    order = np.array(labels)
    starts = rows[order]
    owner = order[np.searchsorted(starts, st2[1:, cv2.CC_STAT_TOP], side="right") - 1]
    owner_l = owner.tolist()
    amin_of = [5 if level == 0 else 12 for _, level in responses]
    which_l = which.tolist()
    out: dict[int, list[Blob]] = {}
    for j, (xs0, ys0, w2, h2, a2) in enumerate(st2[1:].tolist(), start=1):
        i = owner_l[j - 1]
        k = which_l[i - 1]
        if a2 < amin_of[k] or a2 > 150 or w2 > _KERNEL - 1 or h2 > _KERNEL - 1:
            continue
        if a2 / max(w2 * h2, 1) <= 0.45 or min(w2, h2) / max(w2, h2) <= 0.3:
            continue
        e = _ellipse_of(float(a2), *(v[j] for v in sums))
        if e is None:
            continue
        top, left = places[k]
        x0 = int(stats[i, cv2.CC_STAT_LEFT]) - left
        y0 = int(stats[i, cv2.CC_STAT_TOP]) - top + ys0 - int(rows[i])
        # the half-peak blob is smaller than the pip: grow its radius back a little
        out.setdefault(i, []).append((x0 + xs0 + e[0], y0 + e[1], e[2] * 1.15, e[3] * 1.15,
                                      e[4] * 1.15, e[5]))  # fmt: skip
    return out


def _split_one(
    resp: np.ndarray, level: int, sub: np.ndarray, x0: int, y0: int
) -> list[Blob]:
    """One blob (``sub``: its mask over its bounding box at ``x0, y0`` in ``resp``) split
    at half its peak, blob by blob: the reference for :func:`_split_all` (tests)."""
    sh, sw = sub.shape
    out: list[Blob] = []
    r_sub = np.where(sub, resp[y0 : y0 + sh, x0 : x0 + sw], 0)
    peak = int(r_sub.max())
    if peak < 2 * _MIN_RESPONSE:
        return out
    m2 = (r_sub > peak // 2).astype(np.uint8)
    k2, lab2, st2, _ = cv2.connectedComponentsWithStats(m2, connectivity=8)
    st2_rows = st2.tolist()
    amin_k = 5 if level == 0 else 12
    for j in range(1, k2):
        xs0, ys0, w2, h2, a2 = st2_rows[j][:5]
        if a2 < amin_k or a2 > 150 or w2 > _KERNEL - 1 or h2 > _KERNEL - 1:
            continue
        if a2 / max(w2 * h2, 1) <= 0.45 or min(w2, h2) / max(w2, h2) <= 0.3:
            continue
        e = _ellipse((lab2[ys0 : ys0 + h2, xs0 : xs0 + w2] == j).astype(np.uint8))
        if e is not None:
            out.append((x0 + xs0 + e[0], y0 + ys0 + e[1], e[2] * 1.15, e[3] * 1.15,
                        e[4] * 1.15, e[5]))  # fmt: skip
    return out


def _stats(n: int, lab: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """What ``cv2.connectedComponentsWithStats`` gives (left, top, width, height, area per
    label), from the labels of the set pixels."""
    left = np.full(n, np.iinfo(np.int32).max, np.int32)
    top = left.copy()
    right = np.full(n, -1, np.int32)
    bottom = right.copy()
    np.minimum.at(left, lab, xs)
    np.maximum.at(right, lab, xs)
    np.minimum.at(top, lab, ys)
    np.maximum.at(bottom, lab, ys)
    area = np.bincount(lab, minlength=n).astype(np.int32)
    return np.stack([left, top, right - left + 1, bottom - top + 1, area], axis=1)


def _ellipse_of(
    a: float, m10: float, m01: float, m20: float, m02: float, m11: float
) -> tuple[float, float, float, float, float, float] | None:
    """:func:`_ellipse` from a blob's raw moments (as cv2.moments computes its central ones)."""
    if a <= 0:
        return None
    inv = 1.0 / a
    mu20 = (m20 - m10 * (m10 * inv)) / a
    mu02 = (m02 - m01 * (m01 * inv)) / a
    mu11 = (m11 - m10 * (m01 * inv)) / a
    common = math.sqrt(max(0.0, ((mu20 - mu02) / 2) ** 2 + mu11**2))
    major = 2 * math.sqrt(max((mu20 + mu02) / 2 + common, 1e-6))
    minor = 2 * math.sqrt(max((mu20 + mu02) / 2 - common, 1e-6))
    angle = 0.5 * math.atan2(2 * mu11, mu20 - mu02)
    if minor / major < 0.35:
        return None
    if a / (math.pi * major * minor) < 0.7:  # not an ellipse
        return None
    return m10 / a, m01 / a, math.sqrt(a / math.pi), major, minor, angle


def _ellipses_of(
    a: np.ndarray, m10: np.ndarray, m01: np.ndarray, m20: np.ndarray, m02: np.ndarray,
    m11: np.ndarray,
) -> tuple[np.ndarray, list[Blob]]:  # fmt: skip
    """:func:`_ellipse_of` for many blobs at once (``a > 0``): which are ellipses, and their
    (x, y, r, major, minor, angle). The same operations in the same order, so the same
    numbers (angles with ``math.atan2``: ``np.arctan2`` may differ in the last bit)."""
    inv = 1.0 / a
    mu20 = (m20 - m10 * (m10 * inv)) / a
    mu02 = (m02 - m01 * (m01 * inv)) / a
    mu11 = (m11 - m10 * (m01 * inv)) / a
    half = (mu20 - mu02) / 2
    common = np.sqrt(np.maximum(0.0, half * half + mu11 * mu11))
    mean = (mu20 + mu02) / 2
    major = 2 * np.sqrt(np.maximum(mean + common, 1e-6))
    minor = 2 * np.sqrt(np.maximum(mean - common, 1e-6))
    ok = ~(minor / major < 0.35) & ~(a / (math.pi * major * minor) < 0.7)
    cols = [v[ok].tolist() for v in (m10 / a, m01 / a, np.sqrt(a / math.pi), major, minor)]
    sins, coss = (2 * mu11[ok]).tolist(), (mu20 - mu02)[ok].tolist()
    return ok, [
        (x, y, r, ma, mi, 0.5 * math.atan2(s, c))
        for x, y, r, ma, mi, s, c in zip(*cols, sins, coss, strict=True)
    ]


def _ellipse(sub: np.ndarray) -> tuple[float, float, float, float, float, float] | None:
    a, cx, cy, major, minor, angle = moments_ellipse(sub)
    if a <= 0 or minor / major < 0.35:
        return None
    if a / (math.pi * major * minor) < 0.7:  # not an ellipse
        return None
    return cx, cy, math.sqrt(a / math.pi), major, minor, angle


def _describe(
    bgr: np.ndarray, grey: np.ndarray, x: float, y: float, r: float, major: float,
    minor: float, angle: float, polarity: int, level: int,
) -> Pip | None:  # fmt: skip
    h, w = grey.shape
    rr = round(max(r, 1.5) * 4) / 4  # quarter-pixel radii share their masks
    reach, inner, ring = _offsets(round(rr * 4), w)
    xi, yi = round(x), round(y)
    if xi - reach < 0 or yi - reach < 0 or xi + reach >= w or yi + reach >= h:
        return None  # too close to the picture's edge to judge
    # the disc and ring as flat indices into the image: the same pixels, in the same order,
    # as the boolean masks over a window around the pip
    centre = yi * w + xi
    g = grey.reshape(-1)
    ring_vals = g[ring + centre]
    k = len(ring_vals)
    quarters = [(k - 1) * q // 4 for q in (1, 2, 3)]
    ring_vals = np.partition(ring_vals, quarters)  # those ranks in place: as a full sort
    q25, q50, q75 = (float(ring_vals[i]) for i in quarters)
    pip_grey = float(g[inner + centre].mean())
    # a thin ring close to the pip: near a die's edge a wider one would reach the bevel
    face_grey = q50
    contrast = (face_grey - pip_grey) if polarity == DARK else (pip_grey - face_grey)
    if contrast < 20:
        return None
    face = _median_rows(bgr.reshape(-1, 3)[ring + centre])
    return Pip(
        float(x), float(y), float(r), float(major), float(minor), float(angle), polarity,
        float(contrast), (float(face[0]), float(face[1]), float(face[2])), face_grey,
        pip_grey, float(q75 - q25), level,
    )  # fmt: skip


def _describe_all(
    bgr: np.ndarray,
    grey: np.ndarray,
    blobs: list[tuple[float, float, float, float, float, float]],
    polarity: int,
    level: int,
) -> list[Pip]:
    """:func:`_describe` for many blobs at once (those of one radius share their ring and
    disc offsets, so their pixels are gathered as one array): the same pips, numbers and
    order as blob by blob."""
    h, w = grey.shape
    g = grey.reshape(-1)
    colours = bgr.reshape(-1, 3)
    by_key: dict[int, list[int]] = {}
    centres: list[int] = []
    for i, (x, y, r, *_rest) in enumerate(blobs):
        key = round(round(max(r, 1.5) * 4) / 4 * 4)
        reach = _offsets(key, w)[0]
        xi, yi = round(x), round(y)
        centres.append(yi * w + xi)
        if xi - reach < 0 or yi - reach < 0 or xi + reach >= w or yi + reach >= h:
            continue  # too close to the picture's edge to judge
        by_key.setdefault(key, []).append(i)
    out: dict[int, Pip] = {}
    for key, idx in by_key.items():
        _, inner, ring = _offsets(key, w)
        at = np.array([centres[i] for i in idx])[:, None]
        ring_vals = g[ring[None, :] + at]
        k = ring_vals.shape[1]
        quarters = [(k - 1) * q // 4 for q in (1, 2, 3)]
        ring_vals = np.partition(ring_vals, quarters, axis=1)
        q25, q50, q75 = (ring_vals[:, i].tolist() for i in quarters)
        disc = g[inner[None, :] + at]
        # the disc's mean: of uint8, its integer sum over its size (what mean() gives)
        pip_grey = (np.add.reduce(disc, axis=1, dtype=np.int64) / len(inner)
                    if disc.dtype == np.uint8 else disc.mean(axis=1)).tolist()
        contrast = [
            (f - p) if polarity == DARK else (p - f) for f, p in zip(q50, pip_grey, strict=True)
        ]
        keep = [j for j, c in enumerate(contrast) if c >= 20]
        if not keep:
            continue
        vals = colours[ring[None, :] + at[keep]]  # n x k x 3
        if k % 2:
            faces = np.partition(vals, k // 2, axis=1)[:, k // 2].astype(np.float64)
        else:
            part = np.partition(vals, (k // 2 - 1, k // 2), axis=1)
            faces = (part[:, k // 2 - 1].astype(np.float64) + part[:, k // 2]) / 2
        for j, face in zip(keep, faces.tolist(), strict=True):
            x, y, r, major, minor, angle = blobs[idx[j]]
            out[idx[j]] = Pip(
                float(x), float(y), float(r), float(major), float(minor), float(angle),
                polarity, float(contrast[j]), (face[0], face[1], face[2]), float(q50[j]),
                float(pip_grey[j]), float(q75[j] - q25[j]), level,
            )  # fmt: skip
    return [out[i] for i in sorted(out)]


def _median_rows(vals: np.ndarray) -> tuple[float, float, float]:
    """``np.median(vals, axis=0)`` of a k x 3 array, without its overhead (same numbers)."""
    k = len(vals)
    if k % 2:
        mid = np.partition(vals, k // 2, axis=0)[k // 2]
        return float(mid[0]), float(mid[1]), float(mid[2])
    part = np.partition(vals, (k // 2 - 1, k // 2), axis=0)
    lo, hi = part[k // 2 - 1].tolist(), part[k // 2].tolist()
    return ((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2)


def _make_masks(rr: float) -> tuple[int, np.ndarray, np.ndarray]:
    """Half-size of a square window, the pip's inner disc and the ring of face around it."""
    reach = int(math.ceil(1.9 * rr)) + 1
    ys, xs = np.mgrid[-reach : reach + 1, -reach : reach + 1]
    d = np.hypot(xs, ys)
    inner = d <= max(0.6 * rr, 1.0)
    ring = (d >= 1.35 * rr) & (d <= 1.85 * rr)
    inner.flags.writeable = False
    ring.flags.writeable = False
    return reach, inner, ring


# built once at import for quarter-pixel radii up to 32 px, read-only afterwards
_MASKS = {k: _make_masks(k / 4) for k in range(6, 129)}


def _masks(rr: float) -> tuple[int, np.ndarray, np.ndarray]:
    found = _MASKS.get(round(rr * 4))
    return found if found is not None else _make_masks(rr)


@functools.lru_cache(maxsize=512)
def _offsets(key: int, width: int) -> tuple[int, np.ndarray, np.ndarray]:
    """:func:`_masks` for radius ``key / 4`` as flat index offsets in an image ``width`` px
    wide: reach, the inner disc's offsets and the ring's (row-major order)."""
    reach, inner, ring = _masks(key / 4)

    def flat(mask: np.ndarray) -> np.ndarray:
        ys, xs = np.nonzero(mask)
        off = (ys - reach) * width + (xs - reach)
        off.flags.writeable = False
        return off

    return reach, flat(inner), flat(ring)


def near_pairs(x: np.ndarray, y: np.ndarray, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every pair (i, j), i < j, of points at most the ``reach`` of one of the two apart
    (callers give a reach with some slack and apply their exact tests), in row-major order
    of (i, j), as the ``np.nonzero`` of an upper-triangular pair matrix gives them.

    Pip candidates on a busy table (a perforated mat, granite) run into the thousands: the
    n x n pair matrices the callers used to build took seconds, and the points near each
    point are few. Points are sorted into square cells (half the median reach); each point
    looks at the cells its reach touches, one row of cells at a time (a row's cells are
    one run of the sorted keys); points that reach more than ``_ROWS`` rows away (few) are
    paired with every point."""
    n = len(x)
    none = np.zeros(0, np.intp)
    if n < 2:
        return none, none
    cell = max(0.5 * float(np.median(reach)), 1.0)
    x0, y0 = float(x.min()), float(y.min())
    cx = np.floor((x - x0) / cell).astype(np.int64)
    cy = np.floor((y - y0) / cell).astype(np.int64)
    lo_x = np.floor((x - reach - x0) / cell).astype(np.int64)
    hi_x = np.floor((x + reach - x0) / cell).astype(np.int64)
    lo_y = np.floor((y - reach - y0) / cell).astype(np.int64)
    hi_y = np.floor((y + reach - y0) / cell).astype(np.int64)
    cols = int(cx.max()) + 1
    key = cy * cols + cx
    order = np.argsort(key, kind="stable")
    skey = key[order]
    firsts: list[np.ndarray] = []
    seconds: list[np.ndarray] = []
    wide = (hi_y - lo_y) > 2 * _ROWS
    if wide.any():  # a few far-reaching points: paired with every point
        wi = np.flatnonzero(wide)
        firsts.append(np.repeat(wi, n))
        seconds.append(np.tile(np.arange(n), len(wi)))
    narrow = np.flatnonzero(~wide)
    lo_x, hi_x = np.clip(lo_x[narrow], 0, cols - 1), np.clip(hi_x[narrow], 0, cols - 1)
    for dy in range(-_ROWS, _ROWS + 1):
        row = cy[narrow] + dy
        on = (row >= lo_y[narrow]) & (row <= hi_y[narrow])
        if not on.any():
            continue
        src = narrow[on]
        lo = np.searchsorted(skey, row[on] * cols + lo_x[on], side="left")
        hi = np.searchsorted(skey, row[on] * cols + hi_x[on], side="right")
        count = hi - lo
        has = count > 0
        src, lo, count = src[has], lo[has], count[has]
        total = int(count.sum())
        if not total:
            continue
        starts = np.repeat(lo - (np.cumsum(count) - count), count)
        firsts.append(np.repeat(src, count))
        seconds.append(order[starts + np.arange(total)])
    if not firsts:
        return none, none
    a = np.concatenate(firsts)
    b = np.concatenate(seconds)
    # within a's reach, each pair once: from its first point, or from its second when the
    # first does not reach it
    d = np.hypot(x[a] - x[b], y[a] - y[b])
    ok = (a != b) & (d <= reach[a]) & ((a < b) | (d > reach[b]))
    a, b = a[ok], b[ok]
    code = np.sort(np.minimum(a, b) * n + np.maximum(a, b))
    return (code // n).astype(np.intp), (code % n).astype(np.intp)


_ROWS = 8  # see near_pairs


def _columns(pips: list[Pip]) -> tuple[np.ndarray, ...]:
    """x, y, radius, polarity and contrast of ``pips`` as arrays."""
    return tuple(np.array([getattr(p, k) for p in pips])
                 for k in ("x", "y", "r", "polarity", "contrast"))  # fmt: skip


def _dedupe(pips: list[Pip]) -> list[Pip]:
    """One candidate per blob: the same pip is often seen at two pyramid levels.

    The pairs tested are only those near each other (:func:`near_pairs`): the same pips, in
    the same order, as :func:`_dedupe_dense` (the pair-matrix reference), in a time that
    grows with the candidates, not with their square (a perforated mat: 15,000 candidates
    at 1280 px, 2.9 s with the matrices)."""
    pips = sorted(pips, key=lambda p: -p.contrast)
    n = len(pips)
    if n == 0:
        return []
    x, y, r, pol, con = _columns(pips)
    # every test below needs the two within the larger radius
    a, b = near_pairs(x, y, r)  # a < b: a is the stronger
    dist = np.hypot(x[b] - x[a], y[b] - y[a])
    same = pol[a] == pol[b]
    # b (later) is the same structure as a (earlier, stronger): see _dedupe_dense
    clash = np.where(same, dist < np.maximum(r[b], r[a]),
                     dist < 0.7 * np.minimum(r[b], r[a]))  # fmt: skip
    rows, cols = b[clash].tolist(), a[clash].tolist()
    earlier: dict[int, list[int]] = {}
    for row, col in zip(rows, cols, strict=True):
        earlier.setdefault(row, []).append(col)
    keep = [True] * n
    for row in sorted(earlier):
        keep[row] = not any(keep[col] for col in earlier[row])
    kept = np.array(keep)
    # a blob holding smaller, stronger blobs of the other polarity is a die body, not a pip
    body = np.zeros(n, bool)
    for big, small in ((a, b), (b, a)):
        hit = (~same & (r[small] < 0.6 * r[big]) & (con[small] > 1.2 * con[big])
               & (dist < 0.9 * r[big]) & kept[small])  # fmt: skip
        body[big[hit]] = True
    return [p for i, p in enumerate(pips) if keep[i] and not body[i]]


def _dedupe_dense(pips: list[Pip]) -> list[Pip]:
    """:func:`_dedupe` with n x n pair matrices: the reference (tests)."""
    pips = sorted(pips, key=lambda p: -p.contrast)
    n = len(pips)
    if n == 0:
        return []
    x, y, r, pol, con = _columns(pips)
    dist = np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :])
    same = pol[:, None] == pol[None, :]
    # p (row) is the same structure as an earlier, stronger q (column): a blob seen at two
    # levels, or a light blob sitting inside a dark one (or the reverse)
    clash = np.where(same, dist < np.maximum(r[:, None], r[None, :]),
                     dist < 0.7 * np.minimum(r[:, None], r[None, :]))  # fmt: skip
    clash &= np.tri(n, k=-1, dtype=bool)
    keep = np.zeros(n, bool)
    for i in range(n):
        keep[i] = not keep[clash[i]].any()
    # a blob holding smaller, stronger blobs of the other polarity is a die body, not a pip
    # (a glossy pip's highlight is the other way round: weaker than the pip around it)
    body = (
        ~same
        & (r[None, :] < 0.6 * r[:, None])
        & (con[None, :] > 1.2 * con[:, None])
        & (dist < 0.9 * r[:, None])
        & keep[None, :]
    ).any(axis=1)
    return [p for i, p in enumerate(pips) if keep[i] and not body[i]]


BAR_RATIO = (0.12, 0.4)  # a column's width over its length (3 touching pips: about 1/3)
BAR_AREA = (12, 150)  # its area (pixels, at the working size)
BAR_MAX = 200  # more column-like marks than this (a busy or lined table): none is paired


def column_pairs(resp: np.ndarray) -> list[tuple[Blob, Blob]]:
    """Pairs of marks that may be a small 6's two columns (each column's three pips touching,
    one long mark, even cut at half its peak): long marks as wide as a pip, side by side,
    parallel, as long as each other, about half their length apart, neither ahead of the
    other. ``resp``: a black-hat or top-hat response at the working size.

    Each mark is cut at half the strongest response within a pip's reach of it
    (``_KERNEL`` px), so a column joined to the die's outline or to a board's line stands
    apart. Returns the two marks as (x, y, r, major, minor, angle), major and minor from
    the mark's second moments as :func:`moments_ellipse` gives them."""
    local = cv2.dilate(resp, cv2.getStructuringElement(cv2.MORPH_RECT, (_KERNEL, _KERNEL)))
    # a column is as dark as pips (a wood grain's faint response, under twice the pip
    # finder's floor, covered a quarter of a 1280 px picture)
    cut = ((resp > 2 * _MIN_RESPONSE) & (resp > local // 2)).astype(np.uint8)
    # labelled within the marks' bounding box only (a third to half the picture, often):
    # cut from an even row and column, OpenCV numbers the marks as in the whole picture
    # (labels in the raster order of 2 x 2 blocks, see _blobs_all), and the pixels are
    # found in the same order, moved back to the picture's coordinates
    bx, by, bw, bh = cv2.boundingRect(cut)
    if not bw:
        return []
    bx0, by0 = bx - bx % 2, by - by % 2
    box = cut[by0 : by + bh, bx0 : bx + bw]
    n, lab = cv2.connectedComponents(box, connectivity=8)
    if n <= 1:
        return []
    # every mark's area, then the second moments of those of a mark's size, at once from
    # their set pixels (bincount; a wood grain's big blobs hold most set pixels)
    nz = cv2.findNonZero(box).reshape(-1, 2)
    which = lab[nz[:, 1], nz[:, 0]]
    nz = nz + np.array([bx0, by0], nz.dtype)
    area = np.bincount(which, minlength=n).astype(np.float64)
    ok = (area >= BAR_AREA[0]) & (area <= BAR_AREA[1])
    ok[0] = False
    if not ok.any():
        return []
    mine = ok[which]
    which, nz = which[mine], nz[mine]
    xs, ys = nz[:, 0].astype(np.float64), nz[:, 1].astype(np.float64)
    a = area[ok]
    cx, cy = (np.bincount(which, v, minlength=n)[ok] / a for v in (xs, ys))
    mu20, mu02, mu11 = (np.bincount(which, v, minlength=n)[ok] / a - w
                        for v, w in ((xs * xs, cx * cx), (ys * ys, cy * cy),
                                     (xs * ys, cx * cy)))  # fmt: skip
    common = np.sqrt(np.maximum(0.0, ((mu20 - mu02) / 2) ** 2 + mu11**2))
    major = 2 * np.sqrt(np.maximum((mu20 + mu02) / 2 + common, 1e-6))
    minor = 2 * np.sqrt(np.maximum((mu20 + mu02) / 2 - common, 1e-6))
    ratio = minor / major
    # long (3 touching pips), as wide as a pip, and one straight mark (filling its ellipse)
    keep = ((minor >= 1.0) & (ratio > BAR_RATIO[0]) & (ratio < BAR_RATIO[1])
            & (a >= 0.6 * math.pi * major * minor))  # fmt: skip
    m = int(keep.sum())
    if m < 2 or m > BAR_MAX:
        return []
    x, y, a, major, minor = (v[keep] for v in (cx, cy, a, major, minor))
    angle = 0.5 * np.arctan2(2 * mu11[keep], (mu20 - mu02)[keep])
    # every two marks at once: as long and as wide as each other, parallel, side by side
    # about half their length apart (a bar's length is its major * sqrt(3)), neither ahead
    long_ = major[:, None] / major[None, :]
    wide = minor[:, None] / minor[None, :]
    turn = np.abs((angle[:, None] - angle[None, :] + math.pi / 2) % math.pi - math.pi / 2)
    dx, dy = x[None, :] - x[:, None], y[None, :] - y[:, None]
    ux, uy = np.cos(angle)[:, None], np.sin(angle)[:, None]
    length = 0.5 * (major[:, None] + major[None, :]) * math.sqrt(3)
    along, across = np.abs(dx * ux + dy * uy), np.abs(dy * ux - dx * uy)
    ok2 = ((long_ > 0.75) & (long_ < 1.33) & (wide > 0.67) & (wide < 1.5)
           & (turn <= math.radians(15)) & (along < 0.25 * length)
           & (across > 0.45 * length) & (across < length))  # fmt: skip
    marks = [(float(x[k]), float(y[k]), math.sqrt(float(a[k]) / math.pi), float(major[k]),
              float(minor[k]), float(angle[k])) for k in range(m)]  # fmt: skip
    return [(marks[i], marks[j]) for i, j in zip(*np.nonzero(np.triu(ok2, 1)), strict=True)]


def column_pips(bar: Blob) -> list[Blob]:
    """The three pips of one column mark (:func:`column_pairs`), as blobs: a third of its
    length apart along it, each as wide as the mark."""
    x, y, _, major, minor, angle = bar
    length, width = major * math.sqrt(3), minor * math.sqrt(3)
    r = 0.5 * min(width, length / 3)
    ux, uy = math.cos(angle), math.sin(angle)
    return [(x + t * ux, y + t * uy, r, r, r, 0.0) for t in (-length / 3, 0.0, length / 3)]


def describe_blobs(bgr: np.ndarray, grey: np.ndarray, blobs: list[Blob], polarity: int
                   ) -> list[Pip]:  # fmt: skip
    """Pips of blobs placed by the caller (:func:`column_pips`) at the working size,
    measured as found pips are (:func:`_describe_all`); a blob that is no pip is left out."""
    return _describe_all(bgr, grey, blobs, polarity, 0)
