"""Pip candidates: small, roughly round blobs darker (or lighter) than the face around them.

Used by :mod:`companion.vision.dice`. Pure functions over numpy arrays; no state.

A pip is found with a morphological black-hat (dark pips) or top-hat (light pips) at three
pyramid levels, so pips from ~2 to ~20 px radius (at the 640-px working size) are all seen
with one small kernel. Each blob then gets an ellipse from its second moments, its contrast
against a ring around it and the colour of that ring (the face it sits on).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

DARK, LIGHT = 0, 1  # pip polarity: dark pips on a light face, light pips on a dark face
GREY = 2  # key of the plain brightness in :func:`intensities`

_KERNEL = 15  # structuring element at every pyramid level
_LEVELS = 3
_MIN_RESPONSE = 16  # grey levels of black-hat / top-hat response


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


def _moments_ellipse(mask: np.ndarray) -> tuple[float, float, float, float, float, float]:
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
    bgr: np.ndarray, planes: dict[int, np.ndarray]
) -> tuple[list[Pip], dict[int, np.ndarray]]:
    """All pip-like blobs of both polarities in a (denoised) working-size image, and the
    full-resolution black-hat / top-hat responses (by polarity) for later checks."""
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_KERNEL, _KERNEL))
    h, w = bgr.shape[:2]
    found: list[Pip] = []
    responses: dict[int, np.ndarray] = {}
    for polarity, op in ((DARK, cv2.MORPH_BLACKHAT), (LIGHT, cv2.MORPH_TOPHAT)):
        grey = planes[polarity]
        img = grey
        for level in range(_LEVELS):
            if level:
                img = cv2.pyrDown(img)
            f = 2.0**level
            resp = cv2.morphologyEx(img, op, kernel)
            if level == 0:
                responses[polarity] = resp
            for x, y, r, major, minor, angle in _blobs(resp, level, _MIN_RESPONSE):
                pip = _describe(bgr, grey, (x + 0.5) * f - 0.5, (y + 0.5) * f - 0.5, r * f,
                                major * f, minor * f, angle, polarity, level)  # fmt: skip
                if pip is not None and 0 <= pip.x < w and 0 <= pip.y < h:
                    found.append(pip)
    return _dedupe(found), responses


def _blobs(
    resp: np.ndarray, level: int, threshold: int
) -> list[tuple[float, float, float, float, float, float]]:
    """Elliptical blobs of a response image; blobs that touch (close pips of a 6) are split
    by thresholding again at half their peak."""
    out: list[tuple[float, float, float, float, float, float]] = []
    amin = 5 if level == 0 else 12
    mask = (resp > threshold).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return out
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
    for i in np.flatnonzero(good | split) + 1:
        x0, y0 = stats[i, cv2.CC_STAT_LEFT], stats[i, cv2.CC_STAT_TOP]
        sw, sh = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        sub = labels[y0 : y0 + sh, x0 : x0 + sw] == i
        if good[i - 1]:
            e = _ellipse(sub.astype(np.uint8))
            if e is not None:
                out.append((x0 + e[0], y0 + e[1], *e[2:]))
                continue
        # split: threshold again at half the blob's peak
        r_sub = np.where(sub, resp[y0 : y0 + sh, x0 : x0 + sw], 0)
        peak = int(r_sub.max())
        if peak < 2 * _MIN_RESPONSE:
            continue
        m2 = (r_sub > peak // 2).astype(np.uint8)
        k, lab2, st2, _ = cv2.connectedComponentsWithStats(m2, connectivity=8)
        for j in range(1, k):
            a2, w2, h2 = st2[j, cv2.CC_STAT_AREA], st2[j, cv2.CC_STAT_WIDTH], st2[j, 3]
            if a2 < amin or a2 > 150 or w2 > _KERNEL - 1 or h2 > _KERNEL - 1:
                continue
            if a2 / max(w2 * h2, 1) <= 0.45 or min(w2, h2) / max(w2, h2) <= 0.3:
                continue
            xs0, ys0 = st2[j, cv2.CC_STAT_LEFT], st2[j, cv2.CC_STAT_TOP]
            e = _ellipse((lab2[ys0 : ys0 + h2, xs0 : xs0 + w2] == j).astype(np.uint8))
            if e is not None:
                # the half-peak blob is smaller than the pip: grow its radius back a little
                out.append((x0 + xs0 + e[0], y0 + ys0 + e[1], e[2] * 1.15, e[3] * 1.15,
                            e[4] * 1.15, e[5]))  # fmt: skip
    return out


def _ellipse(sub: np.ndarray) -> tuple[float, float, float, float, float, float] | None:
    a, cx, cy, major, minor, angle = _moments_ellipse(sub)
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
    reach, inner, ring = _masks(rr)
    xi, yi = round(x), round(y)
    if xi - reach < 0 or yi - reach < 0 or xi + reach >= w or yi + reach >= h:
        return None  # too close to the picture's edge to judge
    g = grey[yi - reach : yi + reach + 1, xi - reach : xi + reach + 1]
    ring_vals = np.sort(g[ring])
    k = len(ring_vals)
    q25, q50, q75 = (float(ring_vals[(k - 1) * q // 4]) for q in (1, 2, 3))
    pip_grey = float(g[inner].mean())
    # a thin ring close to the pip: near a die's edge a wider one would reach the bevel
    face_grey = q50
    contrast = (face_grey - pip_grey) if polarity == DARK else (pip_grey - face_grey)
    if contrast < 20:
        return None
    face = np.median(bgr[yi - reach : yi + reach + 1, xi - reach : xi + reach + 1][ring], axis=0)
    return Pip(
        float(x), float(y), float(r), float(major), float(minor), float(angle), polarity,
        float(contrast), (float(face[0]), float(face[1]), float(face[2])), face_grey,
        pip_grey, float(q75 - q25), level,
    )  # fmt: skip


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


def _dedupe(pips: list[Pip]) -> list[Pip]:
    """One candidate per blob: the same pip is often seen at two pyramid levels."""
    pips = sorted(pips, key=lambda p: -p.contrast)
    kept: list[Pip] = []
    for p in pips:
        if any(
            q.polarity == p.polarity and math.hypot(q.x - p.x, q.y - p.y) < max(q.r, p.r)
            for q in kept
        ):
            continue
        # a light blob sitting inside a dark one (or the reverse) is the same structure
        if any(
            q.polarity != p.polarity and math.hypot(q.x - p.x, q.y - p.y) < 0.7 * min(q.r, p.r)
            for q in kept
        ):
            continue
        kept.append(p)
    # a blob holding smaller, stronger blobs of the other polarity is a die body, not a pip
    # (a glossy pip's highlight is the other way round: weaker than the pip around it)
    return [
        p
        for p in kept
        if not any(
            q.polarity != p.polarity
            and q.r < 0.6 * p.r
            and q.contrast > 1.2 * p.contrast
            and math.hypot(q.x - p.x, q.y - p.y) < 0.9 * p.r
            for q in kept
        )
    ]
