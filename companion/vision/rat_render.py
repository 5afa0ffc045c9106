"""Synthetic rat dice: top-down pictures of The Rats in the Walls' black wooden dice, with the
ground truth.

No photograph of these dice exists publicly, so the rat reader is tuned and tested on these
renders. Each die is a black (very dark brown) wooden cube seen from above, slightly off the
camera's axis so one or two side faces show; its top face is blank (4 of 6 faces), shows one
rat, or two smaller rats. A rat is a light printed silhouette: body, head with a pointed nose,
ears, feet and a long curvy tail. Tables, the lamp and shadows come from
:mod:`companion.devices.synthetic` (imported, not copied) so pip dice and rat dice share one
world; on top of that come lighting variants (uneven, a hard lamp, dim), optional glare on the
varnish, worn marks, a slight perspective tilt of the camera, blur and sensor noise.

Same arguments, same pixels. Colours are BGR; sizes are ``(width, height)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.devices.frames import _cv2, _numpy
from companion.devices.synthetic import (
    TABLES,
    _add_spot,
    _rounded_square,
    _smooth_noise,
    _table_layers,
    check_faces,
    default_die_px,
)

if TYPE_CHECKING:
    import numpy as np

LIGHTINGS = ("soft", "uneven", "lamp", "dim")
TWO_LAYOUTS = ("side", "tail")
RAT_DIE_COLOUR = (24, 27, 33)  # black wood with a hint of brown, BGR
MARK_COLOURS = {
    "cream": (196, 222, 234),
    "white": (228, 232, 234),
    "grey": (150, 152, 155),
}
CORNER = 0.14  # corner radius, of the die side
_SS = 3  # supersampling of the marks


@dataclass(frozen=True)
class RatTruth:
    """Where a rat die is in the picture and how many rats its top face shows."""

    value: int  # 0, 1 or 2 rats
    x: float  # centre of the top face, pixels from the left
    y: float
    size: float  # side of the top face, pixels
    angle: float  # rotation of the square, degrees in [0, 90)


@dataclass(frozen=True)
class RatStyle:
    """How one set of dice looks: the marks' colour, size, layout and wear."""

    mark_colour: tuple[int, int, int] = MARK_COLOURS["cream"]
    rat_scale: float = 1.0  # 1.0: one rat about 0.7 of the face long
    two_layout: str = "side"  # "side": two rats side by side; "tail": head to tail
    two_scale: float = 0.58  # size of each of the two rats, relative to the single rat
    two_gap: float = 1.0  # spacing of the two rats (below ~0.5 they overlap into one shape)
    diagonal: bool = False  # rats drawn along the face's diagonal
    wear: float = 0.0  # 0: crisp print; 1: badly worn (patchy, faded)
    die_colour: tuple[int, int, int] = RAT_DIE_COLOUR


# -- the rat ---------------------------------------------------------------------------------
def _rat(mask: Any, cx: float, cy: float, scale: float, angle: float, tail_sign: float) -> None:
    """Draw one rat silhouette (255) on ``mask``: centre, length scale in pixels, heading."""
    np, cv2 = _numpy(), _cv2()
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    sh = 4
    k = 1 << sh

    def pt(u: float, v: float) -> tuple[int, int]:
        px, py = cx + (u * c - v * s) * scale, cy + (u * s + v * c) * scale
        return (round(px * k), round(py * k))

    def ell(u: float, v: float, a: float, b: float, rot: float = 0.0) -> None:
        cv2.ellipse(mask, pt(u, v), (round(a * scale * k), round(b * scale * k)),
                    angle + rot, 0, 360, 255, -1, cv2.LINE_AA, sh)  # fmt: skip

    # the rat faces +u; the drawing spans about u in [-0.5, 0.42], v in [-0.2, 0.2]
    u0 = 0.04  # shift so the whole silhouette is centred
    ell(-0.02 + u0, 0.0, 0.2, 0.105)  # body
    ell(-0.12 + u0, 0.0, 0.11, 0.115)  # haunch
    ell(0.19 + u0, 0.0, 0.1, 0.07)  # head
    nose = np.array([pt(0.22 + u0, -0.055), pt(0.35 + u0, 0.0), pt(0.22 + u0, 0.055)], np.int32)
    cv2.fillPoly(mask, [nose], 255, cv2.LINE_AA, sh)
    for side in (-1, 1):
        ell(0.15 + u0, side * 0.075, 0.045, 0.04)  # ears
        ell(0.08 + u0, side * 0.1, 0.035, 0.022, side * 30)  # fore feet
        ell(-0.15 + u0, side * 0.115, 0.04, 0.024, -side * 30)  # hind feet
    # a long curvy tail, thinning out
    n = 14
    pts = []
    for i in range(n + 1):
        t = i / n
        u = -0.2 - 0.36 * t + 0.08 * t * t
        v = tail_sign * (0.16 * math.sin(math.pi * 1.1 * t) - 0.02 * t)
        pts.append((u + u0, v))
    for i in range(n):
        width = 0.045 * (1 - i / n) + 0.016
        cv2.line(mask, pt(*pts[i]), pt(*pts[i + 1]), 255, max(1, round(width * scale)),
                 cv2.LINE_AA, sh)  # fmt: skip


def rat_marks(value: int, side: float, style: RatStyle, rng: Any) -> Any:
    """The face's marks as a float32 alpha in [0, 1], ``side x side`` pixels, unrotated.

    Drawn supersampled; worn marks lose patches and fade unevenly."""
    np, cv2 = _numpy(), _cv2()
    n = max(8, int(math.ceil(side)))
    big = n * _SS
    mask = np.zeros((big, big), np.uint8)
    c = big / 2
    base = 0.0 if not style.diagonal else 45.0
    if value == 1:
        L = 0.74 * big * style.rat_scale * (1.12 if style.diagonal else 1.0)
        _rat(mask, c, c, L, base + rng.uniform(-6, 6), 1.0 if rng.random() < 0.5 else -1.0)
    elif value == 2:
        L = 0.74 * big * style.rat_scale * style.two_scale * (1.12 if style.diagonal else 1.0)
        a = math.radians(base)
        ua, va = (math.cos(a), math.sin(a)), (-math.sin(a), math.cos(a))
        if style.two_layout == "side":
            off = 0.21 * big * style.rat_scale * (style.two_scale / 0.58) * style.two_gap
            for sgn in (-1, 1):
                _rat(mask, c + sgn * off * va[0], c + sgn * off * va[1], L,
                     base + rng.uniform(-5, 5), 1.0)  # fmt: skip
        else:  # head to tail: one behind the other, same heading
            off = 0.28 * big * style.rat_scale * (style.two_scale / 0.58) * style.two_gap
            for sgn in (-1, 1):
                _rat(mask, c + sgn * off * ua[0] + sgn * 0.06 * big * va[0],
                     c + sgn * off * ua[1] + sgn * 0.06 * big * va[1], L,
                     base + rng.uniform(-5, 5), -sgn)  # fmt: skip
    alpha = cv2.resize(mask.astype(np.float32) / 255, (n, n), interpolation=cv2.INTER_AREA)
    if style.wear > 0 and value:
        worn = _smooth_noise(rng, n, n, max(3, n // 6), max(3, n // 6))
        fade = 1 - style.wear * np.clip((worn - 0.35) * 2.2, 0, 1)
        speck = rng.random((n, n)).astype(np.float32)
        fade *= np.where(speck < 0.08 * style.wear, 0.4, 1.0).astype(np.float32)
        alpha *= fade
    return alpha


# -- one die ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class _RatDie:
    value: int
    x: float
    y: float
    size: float
    angle: float
    lean: tuple[float, float]  # where the base lies relative to the top face, pixels
    glare: float  # 0: none; else the strength of a specular spot on the face
    glare_at: tuple[float, float]  # where, in units of the side from the centre
    # narrow or elongated specular highlights on the varnish (a window's bars, a strip light):
    # (strength in grey levels, x, y of the centre in units of the side from the die's centre,
    # sigma across and along in units of the side, heading in degrees) per highlight
    highlights: tuple[tuple[float, float, float, float, float, float], ...] = ()

    def truth(self) -> RatTruth:
        return RatTruth(self.value, self.x, self.y, self.size, self.angle % 90.0)


def _poly_mask(shape: tuple[int, int], polygon: Any) -> Any:
    np, cv2 = _numpy(), _cv2()
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(polygon * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    return mask.astype(np.float32) / 255


def _draw_rat_die(img: Any, die: _RatDie, style: RatStyle, shadow_dir: Any, shadow: float,
                  rng: Any) -> None:  # fmt: skip
    """Composite one rat die (shadow, sides, top face, marks, glare) onto ``img`` in place."""
    np, cv2 = _numpy(), _cv2()
    h, w = img.shape[:2]
    s = die.size
    lean = math.hypot(*die.lean)
    reach = 0.75 * s + lean + 0.35 * s + 6
    x0, y0 = max(0, int(die.x - reach)), max(0, int(die.y - reach))
    x1, y1 = min(w, int(die.x + reach) + 2), min(h, int(die.y + reach) + 2)
    if x1 <= x0 or y1 <= y0:
        return
    rw, rh = x1 - x0, y1 - y0
    lx, ly = die.x - x0, die.y - y0
    bx, by = lx + die.lean[0], ly + die.lean[1]

    # the body: the top face swept down to the (slightly smaller, farther) base
    body = np.zeros((rh, rw), np.float32)
    steps = max(2, int(lean) + 1)
    for i in range(steps + 1):
        t = i / steps
        poly = _rounded_square(lx + t * (bx - lx), ly + t * (by - ly), s * (1 - 0.03 * t),
                               CORNER * s, die.angle)  # fmt: skip
        body = np.maximum(body, _poly_mask((rh, rw), poly))
    top = _poly_mask((rh, rw), _rounded_square(lx, ly, s, CORNER * s, die.angle))
    inner = _poly_mask((rh, rw), _rounded_square(lx, ly, s * 0.9, CORNER * s * 0.8, die.angle))
    inner = cv2.GaussianBlur(inner, (0, 0), max(0.025 * s, 0.4))

    ys, xs = np.mgrid[0:rh, 0:rw].astype(np.float32)
    rx, ry = xs - lx, ys - ly
    dist = np.sqrt(rx * rx + ry * ry) + 1e-3
    facing = -(rx * shadow_dir[0] + ry * shadow_dir[1]) / dist  # towards the lamp: +1
    colour = np.array(style.die_colour, np.float32)
    # wood grain on the stained face: faint stripes along a random direction
    g = math.radians(die.angle + (90 if rng.random() < 0.5 else 0))
    along = -rx * math.sin(g) + ry * math.cos(g)
    grain = np.sin(along / max(s * rng.uniform(0.05, 0.09), 1.0) * 2 * math.pi
                   + 2 * _smooth_noise(rng, rh, rw, 3, 3))  # fmt: skip
    face_col = colour * (1.0 + 0.045 * grain + 0.06 * facing * np.minimum(dist / (0.5 * s), 1))[
        ..., None
    ]
    side_col = colour * (0.7 + 0.35 * np.clip(facing, -1, 1))[..., None]
    # the rounded edge of the top face catches the light (and shows worn, lighter wood)
    rim_col = colour * (1.25 + 0.45 * np.clip(facing, 0, 1))[..., None]
    rgb = side_col * (1 - top[..., None]) + top[..., None] * (
        rim_col * (1 - inner[..., None]) + face_col * inner[..., None]
    )

    # the marks, rotated onto the face
    marks = rat_marks(die.value, s, style, rng)
    if die.value:
        n = marks.shape[0]
        m = cv2.getRotationMatrix2D((n / 2, n / 2), -die.angle, 1.0)
        m[0, 2] += lx - n / 2
        m[1, 2] += ly - n / 2
        a_marks = cv2.warpAffine(marks, m, (rw, rh), flags=cv2.INTER_LINEAR) * inner
        mark_col = np.array(style.mark_colour, np.float32) * (
            0.94 + 0.06 * np.clip(facing, -1, 1)
        )[..., None]
        rgb = rgb * (1 - a_marks[..., None]) + mark_col * a_marks[..., None]
    if die.glare > 0:
        gx, gy = lx + die.glare_at[0] * s, ly + die.glare_at[1] * s
        spot = np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * (0.16 * s) ** 2))
        rgb = rgb + (die.glare * spot * top)[..., None] * np.float32([1.0, 1.0, 1.0])
    for strength, hx, hy, across, along, heading in die.highlights:
        # an elliptic Gaussian: narrow across, long along its heading, on the varnish only
        gx, gy = lx + hx * s, ly + hy * s
        ca, sa = math.cos(math.radians(heading)), math.sin(math.radians(heading))
        du, dv = (xs - gx) * ca + (ys - gy) * sa, -(xs - gx) * sa + (ys - gy) * ca
        spot = np.exp(-(du * du) / (2 * (along * s) ** 2) - (dv * dv) / (2 * (across * s) ** 2))
        rgb = rgb + (strength * spot * top)[..., None] * np.float32([1.0, 1.0, 1.0])

    # shadow: the body's outline, moved away from the lamp and blurred
    off = (0.1 + 0.04 * shadow) * s
    m = np.float32([[1, 0, shadow_dir[0] * off], [0, 1, shadow_dir[1] * off]])
    sh = cv2.warpAffine(body, m, (rw, rh))
    sh = cv2.GaussianBlur(sh, (0, 0), max((0.1 - 0.04 * shadow) * s, 0.5))
    roi = img[y0:y1, x0:x1]
    roi *= (1 - (0.45 + 0.2 * shadow) * sh)[..., None]
    roi *= (1 - body)[..., None]
    roi += rgb * body[..., None]


# -- placement -------------------------------------------------------------------------------
def _place(rng: Any, count: int, size: tuple[int, int], side: float, touching: bool,
           extra: float = 0.0) -> list[tuple[float, float, float]]:  # fmt: skip
    """Non-overlapping (x, y, angle) inside the picture, ``extra`` pixels from its border."""
    w, h = size
    margin = 0.8 * side + 4 + extra
    gap = side * math.sqrt(2) * 1.08 + 3
    spots: list[tuple[float, float, float]] = []
    if w <= 2 * margin or h <= 2 * margin:
        raise ValueError(f"dice of {side:.0f} px do not fit in a {w}x{h} picture")
    i = 0
    while i < count:
        if touching and i + 1 < count:
            # a pair lying face against face
            for _attempt in range(5000):
                x, y = rng.uniform(margin, w - margin), rng.uniform(margin, h - margin)
                a = rng.uniform(0, 360)
                d = side * rng.uniform(1.0, 1.04)
                t = rng.uniform(-0.25, 0.25) * side
                ca, sa = math.cos(math.radians(a)), math.sin(math.radians(a))
                x2, y2 = x + d * ca - t * sa, y + d * sa + t * ca
                if not (margin <= x2 <= w - margin and margin <= y2 <= h - margin):
                    continue
                if all(math.hypot(x - px, y - py) >= gap and math.hypot(x2 - px, y2 - py) >= gap
                       for px, py, _ in spots):  # fmt: skip
                    spots += [(x, y, a), (x2, y2, a + rng.uniform(-2, 2))]
                    break
            else:
                raise ValueError(f"cannot place {count} touching dice in a {w}x{h} picture")
            i += 2
            continue
        _add_spot(rng, spots, (w, h), margin, gap, count, side)
        i += 1
    return spots


def _lighting(rng: Any, w: int, h: int, lighting: str) -> tuple[Any, float, float]:
    """(extra light field HxW, shadow hardness 0..1, noise factor) for a lighting name."""
    np = _numpy()
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    if lighting == "soft":
        return np.ones((h, w), np.float32), 0.0, 1.0
    if lighting == "uneven":
        a = rng.uniform(0, 2 * math.pi)
        t = ((xs - w / 2) * math.cos(a) + (ys - h / 2) * math.sin(a)) / (0.5 * math.hypot(w, h))
        lo = rng.uniform(0.5, 0.7)
        field = lo + (1.1 - lo) * (t + 1) / 2
        return field.astype(np.float32), 0.5, 1.2
    if lighting == "lamp":
        lx, ly = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        r = rng.uniform(0.3, 0.5) * math.hypot(w, h)
        field = 0.62 + 0.5 * np.exp(-((xs - lx) ** 2 + (ys - ly) ** 2) / (2 * r * r))
        return field.astype(np.float32), 1.0, 1.0
    if lighting == "dim":
        return np.full((h, w), rng.uniform(0.45, 0.6), np.float32), 0.3, 2.0
    raise ValueError(f'unknown lighting "{lighting}": use one of {", ".join(LIGHTINGS)}')


def _highlight(rng: Any) -> tuple[float, float, float, float, float, float]:
    """One narrow or elongated specular highlight: (strength, x, y, across, along, heading)."""
    across = float(rng.uniform(0.05, 0.2))
    return (float(rng.uniform(40, 160)), float(rng.uniform(-0.3, 0.3)),
            float(rng.uniform(-0.3, 0.3)), across, across * float(rng.uniform(1.0, 3.0)),
            float(rng.uniform(0, 180)))  # fmt: skip


def render_rat_dice(
    values: Sequence[int],
    seed: int,
    size: tuple[int, int] = (640, 480),
    table: str = "wood",
    *,
    die_px: float | None = None,
    lighting: str = "soft",
    style: RatStyle | None = None,
    glare: float = 0.0,
    touching: bool = False,
    tilt: float = 0.03,
    lean: float = 0.03,
    positions: Sequence[tuple[float, float, float]] | None = None,
    cover: tuple[float, float, float] | None = None,
    table_seed: int | None = None,
    noise: float = 2.0,
    blur: float = 0.6,
    highlights: float = 0.0,
) -> tuple[np.ndarray, list[RatTruth]]:
    """A top-down picture of rat dice showing ``values`` (0, 1 or 2 rats) and where each is.

    ``seed`` fixes positions, rotations, glare, wear and noise; ``table_seed`` (default
    ``seed``) the table and lamp. ``die_px``: side of a die's top face (default 12 % of the
    short side). ``lighting``: soft, uneven, lamp (hard, with a hot spot) or dim (noisy).
    ``glare``: the chance that a die's varnish shows a specular spot. ``touching``: dice lie
    in pairs, face against face. ``tilt``: the camera's tilt (perspective jitter, as a
    fraction of the picture); ``lean``: how far the sides show, per pixel away from the
    centre. ``positions``: fixed (x, y, angle) per die instead of random ones. ``cover``: a
    finger (x, y, radius) lying over the picture, hiding what is beneath. ``highlights``: the
    chance that a die's varnish shows 1 or 2 narrow or elongated specular highlights (a
    window's bars, a strip light: elliptic Gaussians 0.05-0.2 of the side across, 1-3 times
    that along, 40-160 grey levels, centred within 0.3 of the side of the face's centre, any
    heading), drawn from their own random stream (same seed, same scene: only the highlights
    are added; 0, the default, draws none and leaves every picture as before). Returns
    ``(BGR uint8 H x W x 3, truths)`` with truths in the order of ``values``.
    """
    np, cv2 = _numpy(), _cv2()
    size = (int(size[0]), int(size[1]))
    w, h = size
    vals = check_faces(values, 0, 2, "a rat die shows 0, 1 or 2 rats")
    if table not in TABLES:
        raise ValueError(f'unknown table "{table}": use one of {", ".join(TABLES)}')
    style = style or RatStyle()
    side = float(die_px) if die_px is not None else default_die_px(size)
    rng = np.random.default_rng([seed, 31])
    if positions is not None:
        if len(positions) != len(vals):
            raise ValueError(f"{len(vals)} dice but {len(positions)} positions")
        spots = [(float(x), float(y), float(a)) for x, y, a in positions]
    else:
        spots = _place(rng, len(vals), size, side, touching, extra=1.5 * tilt * min(w, h))
    t_seed = seed if table_seed is None else table_seed
    base, light, shadow_dir = _table_layers(size, table, t_seed)
    extra, hardness, noise_k = _lighting(np.random.default_rng([t_seed, 32]), w, h, lighting)
    k_lean = lean * rng.uniform(0.6, 1.4)
    hl_rng = np.random.default_rng([seed, 33])  # the highlights' own stream
    dice = []
    for v, (x, y, a) in zip(vals, spots, strict=True):
        has_glare = glare > 0 and rng.random() < glare
        lights: tuple[tuple[float, float, float, float, float, float], ...] = ()
        if highlights > 0 and hl_rng.random() < highlights:
            lights = tuple(_highlight(hl_rng) for _ in range(int(hl_rng.integers(1, 3))))
        dice.append(
            _RatDie(
                v, x, y, side, a,
                lean=(-(x - w / 2) * k_lean, -(y - h / 2) * k_lean),
                glare=float(rng.uniform(70, 140)) if has_glare else 0.0,
                glare_at=(float(rng.uniform(-0.25, 0.25)), float(rng.uniform(-0.25, 0.25))),
                highlights=lights,
            )  # fmt: skip
        )
    img = base.copy()
    for die in dice:
        _draw_rat_die(img, die, style, shadow_dir, hardness, rng)
    if cover is not None:  # a finger: skin, with a soft shadow
        cx, cy, r = cover
        finger = np.zeros((h, w), np.float32)
        a = rng.uniform(0, math.pi)
        p0 = (cx + 4 * r * math.cos(a), cy + 4 * r * math.sin(a))
        cv2.line(finger, (round(p0[0]), round(p0[1])), (round(cx), round(cy)), 1.0,
                 max(1, round(2 * r)), cv2.LINE_AA)  # fmt: skip
        cv2.circle(finger, (round(cx), round(cy)), max(1, round(r)), 1.0, -1, cv2.LINE_AA)
        shade = cv2.GaussianBlur(finger, (0, 0), max(r * 0.4, 1))
        img *= (1 - 0.35 * np.roll(shade, (int(0.3 * r), int(0.3 * r)), axis=(0, 1)))[..., None]
        skin = np.float32([120, 150, 205])
        img = img * (1 - finger[..., None]) + skin * finger[..., None]
    img *= (light * extra)[..., None]
    if tilt > 0:
        d = tilt * min(w, h)
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        dst = src + rng.uniform(-d, d, (4, 2)).astype(np.float32)
        hm = cv2.getPerspectiveTransform(src, dst)
        img = cv2.warpPerspective(img, hm, (w, h), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REFLECT)  # fmt: skip
    else:
        hm = np.eye(3)
    if blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    if noise > 0:
        img += rng.standard_normal(img.shape, np.float32) * np.float32(noise * noise_k)
    out = img.clip(0, 255).astype(np.uint8)
    truths = []
    for die in dice:
        p = hm @ np.array([die.x, die.y, 1.0])
        q = hm @ np.array([die.x + die.size, die.y, 1.0])
        px, py = p[0] / p[2], p[1] / p[2]
        scale = math.hypot(q[0] / q[2] - px, q[1] / q[2] - py) / die.size
        truths.append(RatTruth(die.value, float(px), float(py), die.size * scale,
                               die.angle % 90.0))  # fmt: skip
    return out, truths


def random_style(rng: Any) -> RatStyle:
    """A plausible set of rat dice: cream/white/light-grey print, sizes, layouts, some wear."""
    names = ("cream", "white", "grey")
    return RatStyle(
        mark_colour=MARK_COLOURS[names[int(rng.integers(0, 3))]],
        rat_scale=float(rng.uniform(0.85, 1.1)),
        two_layout=TWO_LAYOUTS[int(rng.integers(0, 2))],
        two_scale=float(rng.uniform(0.52, 0.64)),
        diagonal=bool(rng.random() < 0.3),
        wear=float(rng.uniform(0, 0.5)) if rng.random() < 0.4 else 0.0,
    )


SCENE_TABLES = ("wood", "felt", "board", "white")
"""Tables of the standard synthetic set (the dark mat is a separate, harder set)."""


def random_scene(
    seed: int,
    tables: Sequence[str] = SCENE_TABLES,
    size: tuple[int, int] = (640, 480),
    die_px: tuple[float, float] = (42.0, 80.0),
    max_dice: int = 5,
    highlights: float = 0.0,
) -> tuple[np.ndarray, list[RatTruth], dict[str, Any]]:
    """One picture of the synthetic set: 1 to ``max_dice`` dice with faces drawn as on real
    dice (4 blank, 1 one-rat, 1 two-rat faces), a random table, lighting, dice style and size;
    now and then a glare or dice lying in touching pairs. ``highlights``: passed on to
    :func:`render_rat_dice` (the same scene, with narrow or elongated specular highlights on
    that share of the dice). Returns (image, truths, settings)."""
    np = _numpy()
    rng = np.random.default_rng([seed, 99])
    n = int(rng.integers(1, max_dice + 1))
    values = [int(v) for v in rng.choice([0, 0, 0, 0, 1, 2], n)]
    settings: dict[str, Any] = dict(
        table=tables[int(rng.integers(0, len(tables)))],
        lighting=LIGHTINGS[int(rng.integers(0, len(LIGHTINGS)))],
        style=random_style(rng),
        die_px=float(rng.uniform(*die_px)),
        glare=0.15 if rng.random() < 0.3 else 0.0,
        touching=bool(rng.random() < 0.15 and n >= 2),
    )
    if highlights > 0:
        settings["highlights"] = highlights
    image, truths = render_rat_dice(values, seed, size, **settings)
    return image, truths, settings
